"""System d100 (seed 001), RULES.md: the exact odds and distribution of an
attack (D100-ATK-1/2/3/6, D100-PARRY-1/2, D100-DODGE-1), against counting and
a brute-force walk of the dice.

Expected values are derived by hand from the rules in the comments next to them.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import EscarmoucheError
from escarmouche.systems.d100 import (
    WEAPONS,
    AttackSetup,
    Guard,
    attack_distribution,
    attack_odds,
    attack_setup,
    roll_attack,
)
from tests.helpers.d100 import ALDRIC, GROLK, fighter

# -- exact odds -------------------------------------------------------------------------------


def test_attack_odds_api() -> None:
    """spec/API.md attack_odds: exact fractions, totals clamped to 0–100 (D100-ATK-1)."""
    odds = attack_odds(65, defence="parade", defence_target=45)
    assert odds.hit == Fraction(13, 20)
    assert odds.defended == Fraction(13, 20) * Fraction(9, 20)
    assert odds.lands == Fraction(13, 20) * Fraction(11, 20)
    assert attack_odds(-5).hit == 0 and attack_odds(130).hit == 1
    assert attack_odds(50, defence="esquive", defence_target=200).lands == 0
    assert attack_odds(50, defence_target=99).defended == 0  # no defence chosen
    with pytest.raises(EscarmoucheError, match="D100-PARRY-1"):
        attack_odds(50, defence="contre")


@given(st.integers(-50, 150), st.sampled_from(["aucune", "parade", "esquive"]),
       st.integers(-50, 150))
def test_attack_odds_agree_with_counting(target: int, defence: str, dt: int) -> None:
    odds = attack_odds(target, defence=defence, defence_target=dt)
    hits = sum(1 for r in range(1, 101) if r <= target)
    saves = sum(1 for r in range(1, 101) if r <= dt) if defence != "aucune" else 0
    assert odds.hit == Fraction(hits, 100)
    assert odds.defended == Fraction(hits * saves, 100 * 100)
    assert odds.hit == odds.defended + odds.lands and odds.miss == 1 - odds.hit


class _NeedDie(Exception):
    def __init__(self, faces: int) -> None:
        self.faces = faces


class _PrefixRng:
    """Plays a fixed prefix of dice, then asks for the next die (for a brute-force walk)."""

    def __init__(self, prefix: list[int]) -> None:
        self.prefix = prefix
        self.pos = 0

    def randint(self, a: int, b: int) -> int:
        if self.pos < len(self.prefix):
            self.pos += 1
            return self.prefix[self.pos - 1]
        raise _NeedDie(b)


def brute_force(setup: AttackSetup) -> dict[tuple[str, str | None, int], Fraction]:
    """Walk every dice sequence the rolling wrapper can draw, each with its probability."""
    out: dict[tuple[str, str | None, int], Fraction] = {}
    stack: list[tuple[list[int], Fraction]] = [([], Fraction(1))]
    while stack:
        prefix, p = stack.pop()
        try:
            r = roll_attack(setup, _PrefixRng(prefix))
        except _NeedDie as need:
            stack.extend(([*prefix, v], p / need.faces) for v in range(1, need.faces + 1))
            continue
        key = (r.outcome.value, r.location, r.wounds_lost)
        out[key] = out.get(key, Fraction(0)) + p
    return out


def exact(setup: AttackSetup) -> dict[tuple[str, str | None, int], Fraction]:
    o = attack_distribution(setup)
    out: dict[tuple[str, str | None, int], Fraction] = {
        ("manquee", None, 0): o.miss, ("paree", None, 0): o.parried,
        ("esquivee", None, 0): o.dodged}
    for zone, dist in o.by_location.items():
        for w, p in dist.items():
            out[("touchee", zone, w)] = p
    return {k: v for k, v in out.items() if v}


@pytest.mark.parametrize("setup", [
    attack_setup(fighter("A", "x", CC=30), GROLK, "dague", defence="parade",
                 guard=Guard(parry_prepared=True)),
    attack_setup(fighter("A", "x", CC=25), ALDRIC, "fleau", defence="esquive"),
    attack_setup(fighter("A", "x", CC=35), fighter("T", "y", E=60, PA=2, PA_tete=5),
                 unreachable=["tête", "jambe gauche"]),
    attack_setup(fighter("A", "x", CT=70), GROLK, "arc", distance=30, target_engaged=True),
], ids=["parade", "esquive", "zones", "tir"])
def test_attack_outcomes_match_brute_force(setup: AttackSetup) -> None:
    """The exact distribution equals a brute-force walk of every die the rolling
    wrapper draws (D100-ATK-1/2/3/6, D100-PARRY-2, D100-DODGE-1)."""
    assert exact(setup) == brute_force(setup)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 100), st.integers(0, 100), st.integers(0, 100),
       st.sampled_from(["aucune", "parade", "esquive"]), st.integers(0, 5),
       st.sampled_from(sorted(w for w in WEAPONS if not WEAPONS[w].ranged)),
       st.integers(-30, 30))
def test_attack_outcomes_sum_to_one_and_match_odds(
    cc: int, cc_def: int, ag: int, defence: str, pa: int, weapon: str, gm: int
) -> None:
    attacker = fighter("A", "x", CC=cc)
    defender = fighter("D", "y", ["esquive"], CC=cc_def, Ag=ag, PA=pa)
    setup = attack_setup(attacker, defender, weapon, defence=defence,
                         guard=Guard(parry_prepared=True), gm_modifier=gm)
    o = attack_distribution(setup)
    assert o.miss + o.parried + o.dodged + o.landed == 1
    assert sum(o.wounds.values()) == 1
    dt = 0 if setup.defence_target is None else setup.defence_target.total
    assert o.odds == attack_odds(setup.target.total, defence=defence, defence_target=dt)
    assert all(w >= 0 for w in o.wounds)


def test_attack_outcomes_by_hand() -> None:
    """A case small enough to derive by hand: CC 5, no defence, Grolk (BE 3)."""
    setup = attack_setup(fighter("A", "x", CC=5), GROLK, "mains_nues")
    o = attack_distribution(setup)
    # rolls 1..5 -> 10, 20, 30, 40, 50: head, bras droit (20, 30), bras gauche (40, 50)
    assert o.miss == Fraction(95, 100)
    assert o.location_odds == {"tête": Fraction(1, 100), "bras droit": Fraction(2, 100),
                               "bras gauche": Fraction(2, 100)}
    # head, no armour: d10 - 3 -> 0 for 1..3, then 1..7 (each 1/10)
    assert o.by_location["tête"][0] == Fraction(3, 1000)
    assert o.by_location["tête"][7] == Fraction(1, 1000)
    # left arm, armour 1: d10 - 4 -> 0 for 1..4
    assert o.by_location["bras gauche"][0] == Fraction(2 * 4, 1000)
