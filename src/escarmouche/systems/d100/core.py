"""The d100 attack's arithmetic, once: small pure functions of checked values.

Every caller goes through these: the documented functions of :mod:`.attack`
(:func:`~.attack.reverse_digits`, :func:`~.attack.location_of`, :func:`~.attack.damage`,
:func:`~.attack.roll_attack`, :func:`~.attack.resolve_attack`), which check their
arguments and then call them, and the rules kernel (:mod:`.kernel`), which checked its
values once, when the fight's sheet was compiled. Nothing here checks anything.

>>> reversed_roll(37), zone_of(73), wounds(4, 3, 3, 1), succeeds(45, 45)
(73, 'corps', 3, True)
>>> ZONE_BY_ROLL[37 - 1]
'corps'

What an attack leaves behind is said here once too, for the engine's resolver
(:func:`.actions.attaquer`, on the fighters' flags) and the kernel (on its arrays):
:func:`defended` (the defences of the round) and :func:`loaded_after` (a fired weapon).
"""

from __future__ import annotations

from collections.abc import Callable

from escarmouche.systems.d100.rules import LOCATION_TABLE

__all__ = ["ATTACK_DIE", "DAMAGE_DIE", "ZONE_BY_ROLL", "attack_dice", "defended",
           "loaded_after", "reversed_roll", "succeeds", "wounds", "zone_of"]

#: the attack (and defence) die, and the damage die (D100-ATK-1, D100-ATK-3)
ATTACK_DIE = 100
DAMAGE_DIE = 10


def succeeds(roll: int, total: int) -> bool:
    """D100-ATK-1 (and every d100 test): a roll succeeds when ``≤`` the target's total."""
    return roll <= total


def reversed_roll(roll: int) -> int:
    """D100-ATK-2: a d100 roll 1–100 read with tens and units swapped (100 stays 100)."""
    if roll == 100:
        return 100
    tens, units = divmod(roll, 10)
    return units * 10 + tens


def zone_of(value: int) -> str:
    """D100-ATK-2: the zone of a reversed value 1–100 in the location table."""
    return next(z for top, z in LOCATION_TABLE if value <= top)


#: the zone each attack roll 1–100 hits (index ``roll − 1``), from the two rules above
ZONE_BY_ROLL: tuple[str, ...] = tuple(zone_of(reversed_roll(r))
                                      for r in range(1, ATTACK_DIE + 1))


def wounds(d10: int, weapon: int, be: int, armour: int) -> int:
    """D100-ATK-3: 1d10 + weapon damage − BE − armour points, never below 0 *(ruling)*."""
    return max(0, d10 + weapon - be - armour)


def attack_dice(randint: Callable[[int, int], int], total: int, defence: int | None
                ) -> tuple[int, int | None, int | None]:
    """The dice of one attack, in the rules' draw order: the attack d100; then, if it hits
    (``total``) and the defender defends (``defence``: the parry's or dodge's total, or
    ``None``), the defence d100; then, if the blow lands, the damage d10. Returns
    ``(attack, defence or None, damage or None)``."""
    roll = randint(1, ATTACK_DIE)
    if roll > total:
        return roll, None, None
    if defence is None:
        return roll, None, randint(1, DAMAGE_DIE)
    saved = randint(1, ATTACK_DIE)
    if saved <= defence:
        return roll, saved, None
    return roll, saved, randint(1, DAMAGE_DIE)


def defended(parry: bool, spends: bool, parries: int, dodges: int, prepared: bool
             ) -> tuple[int, int, bool]:
    """The defender's round after it opposed an attack with a roll: a parry counts against
    its parries (D100-PARRY-3) and uses its prepared parry when it was the one opposed
    (``spends``, D100-PARRY-2), a dodge against its dodges (D100-DODGE-2). Returns
    ``(parries, dodges, prepared)`` after.

    >>> defended(True, True, 0, 0, True), defended(False, False, 1, 0, True)
    ((1, 0, False), (1, 1, True))
    """
    if parry:
        return parries + 1, dodges, prepared and not spends
    return parries, dodges + 1, prepared


def loaded_after(ranged: bool, reload: int, loaded: bool) -> bool:
    """Whether the weapon that struck is still loaded: a shot empties a weapon that
    reloads (``reload``: its reload's half actions, 0 for none, D100-ACT-4); any other
    keeps its state.

    >>> loaded_after(True, 2, True), loaded_after(True, 0, True)
    (False, True)
    """
    return loaded and not (ranged and reload > 0)
