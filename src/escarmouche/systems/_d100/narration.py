"""The GM's summary sentence of an attack, in French (D100-ATK-4).

« Aldric touche Grolk au bras gauche (jet 63 → 36) : 7 dégâts − BE 3 − armure 1 =
3 blessures ; il lui en reste 8. » Plain text only: no HTML is rendered here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from escarmouche.render.fmt import number
from escarmouche.systems._d100.tables import LOCATION_AT

if TYPE_CHECKING:
    from escarmouche.systems._d100.core import AttackResult

__all__ = ["attack_sentence", "fr_int", "plural"]


def fr_int(n: float) -> str:
    """A number the French way (:func:`escarmouche.render.fmt.number`): « −3 », « 2,5 »."""
    return number(n)


def plural(n: int, word: str) -> str:
    """« 0 blessure », « 1 blessure », « 3 blessures » (French: plural from 2)."""
    return f"{fr_int(n)} {word}{'s' if abs(n) >= 2 else ''}"


def _reversed(value: int) -> str:
    return "100" if value == 100 else f"{value:02d}"


def _versus(roll: int, target: int) -> str:
    return f"jet {roll} {'≤' if roll <= target else '>'} {fr_int(target)}"


def attack_sentence(result: AttackResult) -> str:
    """D100-ATK-4: who hits whom, where, for how much, and the B left.

    A miss: « Aldric manque Grolk (jet 72 > 45). » A parry or a dodge: « Aldric touche
    Grolk (jet 30 ≤ 45), mais Grolk pare (jet 20 ≤ 38) : aucun dégât. » A blow that lands
    (a failed defence is mentioned): the sentence of the example above, down to
    « = 0 blessure » when BE and armour absorb everything.
    """
    s = result.setup
    attacker = s.attacker.name
    defender = s.defender.name
    victim = f"{defender} (monture de {s.rider})" if s.rider else defender
    target = s.target.total
    if not result.hit:
        return f"{attacker} manque {victim} ({_versus(result.attack_roll, target)})."
    if result.defended:
        assert s.defence_target is not None and result.defence_roll is not None
        touch = f"{attacker} touche {victim} ({_versus(result.attack_roll, target)})"
        how = _versus(result.defence_roll, s.defence_target.total)
        if s.defence == "parade":
            return f"{touch}, mais {defender} pare ({how}) : aucun dégât."
        return (f"{touch}, mais {defender} esquive ({how}) : l’attaque est manquée, pas de "
                "jet de dégâts.")
    assert result.location is not None and result.location_value is not None
    assert result.raw_damage is not None and result.armour is not None
    where = f"jet {result.attack_roll} → {_reversed(result.location_value)}"
    if result.location != result.rolled_location:
        where += f", {result.rolled_location} hors d’atteinte"
    despite = ""
    if s.defence_target is not None and result.defence_roll is not None:
        what = "sa parade" if s.defence == "parade" else "son esquive"
        despite = f" malgré {what} ({_versus(result.defence_roll, s.defence_target.total)})"
    left = (f"il lui en reste {fr_int(result.wounds_left)}" if result.wounds_left
            else "il ne lui en reste aucune")
    return (
        f"{attacker} touche {victim} {LOCATION_AT[result.location]} ({where}){despite} : "
        f"{plural(result.raw_damage, 'dégât')} − BE {fr_int(s.be)} − armure "
        f"{fr_int(result.armour)} = {plural(result.wounds_lost, 'blessure')} ; {left}."
    )
