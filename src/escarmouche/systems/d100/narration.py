"""The French sentences of the d100 system (the narration style guide applies: numbers
through :mod:`escarmouche.text.fmt`, « » for quotes). Plain text only: no HTML here.

The GM's summary sentence of an attack (D100-ATK-4): « Aldric touche Grolk au bras
gauche (jet 63 → 36) : 7 dégâts − BE 3 − armure 1 = 3 blessures ; il lui en reste 8. »
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from escarmouche.systems.d100.rules import LOCATION_AT
from escarmouche.text.fmt import de, join, number, plural, quote

if TYPE_CHECKING:
    from escarmouche.systems.d100.attack import AttackResult
    from escarmouche.systems.d100.initiative import Initiative

__all__ = [
    "ROUNDS_PER_MINUTE",
    "ROUND_SECONDS",
    "abandon_sentence",
    "attack_sentence",
    "elapsed_time",
    "expired_parry_sentence",
    "hand_sentence",
    "initiative_sentence",
    "prepared_parry_sentence",
    "reload_sentence",
    "steps_sentence",
    "surprise_over_sentence",
    "surprise_sentence",
    "time_sentence",
]

#: D100-TIME-1: a round lasts about 10 seconds; 6 rounds make a minute
ROUND_SECONDS = 10
ROUNDS_PER_MINUTE = 6


def elapsed_time(rounds: int) -> str:
    """D100-TIME-1: the time ``rounds`` rounds take, in French.

    >>> elapsed_time(1), elapsed_time(6), elapsed_time(8)
    ('10 s', '1 min', '1 min 20 s')
    """
    seconds = rounds * ROUND_SECONDS
    minutes, rest = divmod(seconds, ROUND_SECONDS * ROUNDS_PER_MINUTE)
    parts = ([f"{number(minutes)} min"] if minutes else []) + (
        [f"{number(rest)} s"] if rest else [])
    return " ".join(parts) or "0 s"


def time_sentence(turn: int) -> str:
    """D100-TIME-1, at the end of round ``turn``: « Temps écoulé : environ 20 s. »"""
    return f"Temps écoulé : environ {elapsed_time(turn)}."


def reload_sentence(name: str, weapon: str, steps: tuple[int, int] | None) -> str:
    """D100-ACT-4: one half action of reloading ``weapon`` (its label): loaded
    (``steps`` ``None``), or ``steps`` (done, total) half actions of an extended reload.

    >>> print(reload_sentence("Ysolde", "pistolet", (1, 4)))  # doctest: +NORMALIZE_WHITESPACE
    Ysolde recharge son arme (pistolet) : 1 demi-action faite sur 4, il en reste 3
    (action étendue).
    """
    if steps is None:
        return f"{name} recharge son arme ({weapon}) : elle est chargée."
    return f"{name} recharge son arme ({weapon}) : {steps_sentence(*steps)}."


def initiative_sentence(init: Initiative) -> str:
    """D100-INIT-1/2: every score, the roll-offs and the order."""
    parts = [f"{e.name} {e.score} ({e.ag} + {e.d10})" for e in init.entries]
    text = "Initiative (Ag + 1d10) : " + join(parts)
    if init.rolloffs:
        text += " ; départage au d10 : " + " ; puis ".join(
            ", ".join(f"{n} fait {r}" for n, r in rnd) for rnd in init.rolloffs)
    return text + " ; ordre : " + ", ".join(init.order) + "."


def surprise_sentence(side: str, can_defend: bool) -> str:
    """D100-SURPRISE-1: who is surprised and what it costs them."""
    return (f"Le camp {quote(side)} est surpris : au round 1, seuls ses adversaires agissent"
            + ("." if can_defend else " ; selon l’interprétation retenue, les surpris ne "
               "peuvent pas non plus parer ni esquiver."))


def surprise_over_sentence(side: str) -> str:
    """D100-SURPRISE-1, round 2."""
    return f"Le camp {quote(side)} n’est plus surpris : tout le monde agit."


def prepared_parry_sentence(name: str) -> str:
    """D100-PARRY-2/3."""
    return f"{name} prépare une parade (demi-action) : elle vaut jusqu’à son prochain tour."


def expired_parry_sentence(name: str) -> str:
    """D100-PARRY-3: an unused prepared parry ends at its owner's next turn.

    >>> expired_parry_sentence("Aldric")
    'La parade préparée d’Aldric n’a pas servi : elle prend fin.'
    """
    return f"La parade préparée {de(name)} n’a pas servi : elle prend fin."


def hand_sentence(name: str, verb: str, weapon: str, hand: str) -> str:
    """« Aldric dégaine : dague (main non directrice). »"""
    return f"{name} {verb} : {weapon} ({hand})."


def abandon_sentence(name: str, action: str, spent: int) -> str:
    """D100-ACT-4: the time spent on an abandoned extended action is lost.

    >>> abandon_sentence("Brune", "incantation", 2)
    'Brune abandonne « incantation » : 2 demi-actions perdues.'
    """
    lost = "perdues" if spent >= 2 else "perdue"
    return f"{name} abandonne {quote(action)} : {plural(spent, 'demi-action')} {lost}."


def _reversed(value: int) -> str:
    return "100" if value == 100 else f"{value:02d}"


def _versus(roll: int, target: int) -> str:
    return f"jet {roll} {'≤' if roll <= target else '>'} {number(target)}"


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
    victim = f"{defender} (monture {de(s.rider)})" if s.rider else defender
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
    left = (f"il lui en reste {number(result.wounds_left)}" if result.wounds_left
            else "il ne lui en reste aucune")
    return (
        f"{attacker} touche {victim} {LOCATION_AT[result.location]} ({where}){despite} : "
        f"{plural(result.raw_damage, 'dégât')} − BE {number(s.be)} − armure "
        f"{number(result.armour)} = {plural(result.wounds_lost, 'blessure')} ; {left}."
    )


def logged_attack_sentence(result: AttackResult) -> str:
    """D100-ATK-4 in a fight's log: :func:`attack_sentence`, then, when the threshold is
    not the bare stat, how it is made (« Corbin manque Aubert (jet 35 > 30). Seuil
    d’attaque : CC 50 − 20 (main non directrice) = 30. »): « jet 35 > 30 » beside a CC of
    50 read as a mistake (B178). The result's own display shows the threshold among its
    steps already."""
    target = result.setup.target
    if not target.modifiers:
        return result.sentence
    return f"{result.sentence} {target.describe('Seuil d’attaque')}"


def steps_sentence(done: int, total: int) -> str:
    """D100-ACT-4: the progress of an extended action, done and left said apart.

    >>> steps_sentence(3, 4)
    '3 demi-actions faites sur 4, il en reste 1 (action étendue)'
    >>> steps_sentence(1, 4)
    '1 demi-action faite sur 4, il en reste 3 (action étendue)'
    """
    made = "faite" if done <= 1 else "faites"
    return (f"{plural(done, 'demi-action')} {made} sur {number(total)}, il en reste "
            f"{number(total - done)} (action étendue)")
