"""Exact odds of an attack (API.md ``attack_odds``) and its whole outcome distribution.

Nothing is sampled: every d100 and d10 face is enumerated and counted with integers, and
the counts become :class:`fractions.Fraction` at the end. The dice are single d100/d10,
so plain enumeration is exact without a dice-expression library.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from escarmouche.errors import EscarmoucheError, IllegalActionError
from escarmouche.model import Json
from escarmouche.systems._d100.core import (
    AttackSetup,
    damage,
    location_of,
    reverse_digits,
    substitute_location,
)
from escarmouche.systems._d100.tables import DEFENCES, LOCATIONS

__all__ = ["AttackOutcomes", "Odds", "attack_odds", "attack_outcomes"]


@dataclass(frozen=True, slots=True)
class Odds:
    """API.md: ``hit`` (the attack roll succeeds), ``defended`` (it hits and the parry or
    dodge succeeds), ``lands`` (it hits and is not defended); ``miss`` = 1 − hit."""

    hit: Fraction
    defended: Fraction
    lands: Fraction

    @property
    def miss(self) -> Fraction:
        return 1 - self.hit

    def to_json(self) -> dict[str, Json]:
        return {k: str(getattr(self, k)) for k in ("hit", "defended", "lands", "miss")}


def _chance(value: object, what: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int):
        raise EscarmoucheError(
            f"{what} = {value!r} : un seuil entier est attendu (D100-ATK-1)",
            field=what, value=value, rule="D100-ATK-1",
        )
    return Fraction(min(100, max(0, value)), 100)


def attack_odds(
    target: int, *, defence: str = "aucune", defence_target: int = 0, ranged: bool = False
) -> Odds:
    """API.md: exact odds of one attack with final target numbers (after modifiers;
    ≤ 0 never succeeds, ≥ 100 always does). D100-ATK-1, D100-PARRY-1/2, D100-DODGE-1;
    a ranged attack cannot be defended (D100-RANGED-1: a defence other than « aucune »
    raises)."""
    hit = _chance(target, "seuil d’attaque")
    if defence not in DEFENCES:
        raise EscarmoucheError(
            f"défense = {defence!r} : « aucune », « parade » ou « esquive » attendu "
            "(D100-PARRY-1)",
            field="défense", value=defence, rule="D100-PARRY-1",
        )
    if not isinstance(ranged, bool):
        raise EscarmoucheError(
            f"tir = {ranged!r} : vrai ou faux attendu (D100-RANGED-1)",
            field="tir", value=ranged, rule="D100-RANGED-1",
        )
    if ranged and defence != "aucune":
        raise IllegalActionError(
            f"défense = {defence} : on ne peut ni parer ni esquiver un projectile "
            "(D100-RANGED-1)",
            field="défense", value=defence, rule="D100-RANGED-1",
        )
    q = _chance(defence_target, "seuil de défense") if defence != "aucune" else Fraction(0)
    defended = hit * q
    return Odds(hit, defended, hit - defended)


@dataclass(frozen=True, slots=True)
class AttackOutcomes:
    """The exact distribution of one attack's outcome against one defender.

    ``miss``, ``parried``, ``dodged``: probabilities; ``by_location[zone][w]``: the
    probability that the blow lands on ``zone`` (after D100-ATK-6) and costs ``w`` wounds
    (with the defender's BE and that zone's armour, D100-ATK-3). They sum to 1.
    """

    setup: AttackSetup
    miss: Fraction
    parried: Fraction
    dodged: Fraction
    by_location: Mapping[str, Mapping[int, Fraction]]

    @property
    def landed(self) -> Fraction:
        return sum((sum(d.values(), Fraction(0)) for d in self.by_location.values()),
                   Fraction(0))

    @property
    def odds(self) -> Odds:
        defended = self.parried + self.dodged
        return Odds(1 - self.miss, defended, self.landed)

    @property
    def location_odds(self) -> Mapping[str, Fraction]:
        """The probability that the blow lands on each zone."""
        return MappingProxyType({z: sum(d.values(), Fraction(0))
                                 for z, d in self.by_location.items()})

    @property
    def wounds(self) -> Mapping[int, Fraction]:
        """The distribution of wounds lost (a miss or a defence counts as 0)."""
        out: dict[int, Fraction] = {0: self.miss + self.parried + self.dodged}
        for d in self.by_location.values():
            for w, p in d.items():
                out[w] = out.get(w, Fraction(0)) + p
        return MappingProxyType(dict(sorted((w, p) for w, p in out.items() if p)))

    @property
    def expected_wounds(self) -> Fraction:
        return sum((w * p for w, p in self.wounds.items()), Fraction(0))

    def to_json(self) -> dict[str, Json]:
        return {
            "miss": str(self.miss), "parried": str(self.parried), "dodged": str(self.dodged),
            "by_location": {z: {str(w): str(p) for w, p in d.items()}
                            for z, d in self.by_location.items()},
        }


def attack_outcomes(setup: AttackSetup) -> AttackOutcomes:
    """Enumerate every attack d100, defence d100 and damage d10 of ``setup`` exactly
    (D100-ATK-1/2/3/6, D100-PARRY-2, D100-DODGE-1): the same resolution as
    :func:`~escarmouche.systems.d100.resolve_attack`, counted over 100 × 100 × 10
    equally likely dice."""
    total = 100 * 100 * 10
    defence = setup.defence_target
    saves = 0 if defence is None else sum(1 for r in range(1, 101) if defence.succeeds(r))
    miss = defended = 0
    counts: dict[str, dict[int, int]] = {z: {} for z in LOCATIONS}
    for roll in range(1, 101):
        if not setup.target.succeeds(roll):
            miss += 100 * 10
            continue
        defended += saves * 10
        zone = substitute_location(location_of(reverse_digits(roll)), setup.unreachable)
        armour = setup.armour(zone)
        for d10 in range(1, 11):
            w = damage(d10, setup.weapon.damage, setup.be, armour)
            counts[zone][w] = counts[zone].get(w, 0) + (100 - saves)
    by_location = MappingProxyType({
        z: MappingProxyType({w: Fraction(c, total) for w, c in sorted(d.items())})
        for z, d in counts.items() if d
    })
    parried = Fraction(defended, total) if setup.defence == "parade" else Fraction(0)
    dodged = Fraction(defended, total) if setup.defence == "esquive" else Fraction(0)
    return AttackOutcomes(setup, Fraction(miss, total), parried, dodged, by_location)
