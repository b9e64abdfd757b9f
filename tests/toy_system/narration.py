"""The French sentences of « Jouet » (the narration style guide applies: elision,
agreement, « » for quotes, numbers through :mod:`escarmouche.text.fmt`)."""

from __future__ import annotations

from escarmouche.text.fmt import join, plural

__all__ = ["initiative_sentence", "strike_sentence"]


def initiative_sentence(order: tuple[str, ...]) -> str:
    """>>> initiative_sentence(("Brune", "Aldric"))
    'Initiative : Brune, puis Aldric.'
    """
    return "Initiative : " + join(order, last="puis").replace(" puis ", ", puis ") + "."


def strike_sentence(actor: str, target: str, damage: int, left: int) -> str:
    """>>> strike_sentence("Aldric", "Grolk", 1, 9)
    'Aldric frappe Grolk : 1 point de dégâts ; il lui reste 9 PV.'
    """
    return (f"{actor} frappe {target} : {plural(damage, 'point')} de dégâts ; "
            f"il lui reste {left} PV.")
