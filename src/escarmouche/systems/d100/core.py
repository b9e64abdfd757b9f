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

import functools
from collections.abc import Callable, Sequence
from fractions import Fraction

from escarmouche.systems.d100.rules import LOCATION_TABLE

__all__ = ["ATTACK_DIE", "DAMAGE_DIE", "ZONE_BY_ROLL", "attack_dice", "attack_dice_law",
           "defended",
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


@functools.lru_cache(maxsize=1024)
def attack_dice_law(total: int, defence: int | None, weapon: int, be: int,
                    armour: Sequence[int]) -> tuple[tuple[Fraction, tuple[int, ...]], ...]:
    """The dice of :func:`attack_dice` (in its draw order) grouped into the classes that
    nothing after the draw tells apart, each with its chance and one representative
    sequence of dice: a miss (D100-ATK-1); a hit, by the armour under the roll
    (``armour``: by attack roll, ``armour[roll - 1]``, D100-ATK-2), then a defence that
    succeeds (D100-PARRY-3, D100-DODGE-2), or the damage d10 by the wounds it costs
    (:func:`wounds`, D100-ATK-3). Playing each representative gives every outcome of
    the attack, each once, with its chance: the exact solver's law of a blow
    (``escarmouche.exact``), instead of the 100 × 100 × 10 sequences of dice.

    >>> law = attack_dice_law(45, None, 3, 3, (0,) * 100)
    >>> sum(p for p, _ in law), law[0]
    (Fraction(1, 1), (Fraction(11, 20), (46,)))
    """
    rolls = range(1, ATTACK_DIE + 1)
    out: list[tuple[Fraction, tuple[int, ...]]] = []
    missed = [r for r in rolls if not succeeds(r, total)]
    if missed:
        out.append((Fraction(len(missed), ATTACK_DIE), (missed[0],)))
    by_armour: dict[int, list[int]] = {}
    for r in rolls:
        if succeeds(r, total):
            by_armour.setdefault(armour[r - 1], []).append(r)
    for value, hits in by_armour.items():
        p_hit = Fraction(len(hits), ATTACK_DIE)
        lands: list[tuple[Fraction, tuple[int, ...]]] = [(p_hit, (hits[0],))]
        if defence is not None:
            saved = [s for s in rolls if s <= defence]
            through = [s for s in rolls if s > defence]
            lands = []
            if saved:
                out.append((p_hit * Fraction(len(saved), ATTACK_DIE), (hits[0], saved[0])))
            if through:
                lands = [(p_hit * Fraction(len(through), ATTACK_DIE), (hits[0], through[0]))]
        by_wounds: dict[int, list[int]] = {}
        for d10 in range(1, DAMAGE_DIE + 1):
            by_wounds.setdefault(wounds(d10, weapon, be, value), []).append(d10)
        for p, dice in lands:
            for faces in by_wounds.values():
                out.append((p * Fraction(len(faces), DAMAGE_DIE), (*dice, faces[0])))
    return tuple(out)


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
