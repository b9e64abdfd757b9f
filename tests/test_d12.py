"""System d12 (seed 002): every D12-* rule of RULES.md, with dice fixed by ScriptedRolls.

Every expected value below is derived by hand from the rules (the derivation is in the
comment next to it); exact odds are checked against a brute-force enumeration of every
sequence of dice that the rolling functions can draw.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import Combatant, Effect, EscarmoucheError, Timing
from escarmouche.dice import MAX_EXPLODE_DEPTH, ScriptedRolls
from escarmouche.encounter import Encounter
from escarmouche.errors import DiceError, IllegalActionError, ParameterError, RuleBoundError
from escarmouche.systems import d12
from escarmouche.systems.base import ENVIRONMENT, ActionSpec

T = TypeVar("T", bound=Hashable)


# -- brute force: run a rolling function on every possible sequence of dice --------------


class _NeedDie(Exception):
    def __init__(self, faces: int) -> None:
        self.faces = faces


class _Replay:
    """An rng replaying a prefix of dice, then asking for the next one (to branch)."""

    def __init__(self, prefix: tuple[int, ...]) -> None:
        self.prefix = prefix
        self.pos = 0

    def randint(self, a: int, b: int) -> int:
        if self.pos < len(self.prefix):
            self.pos += 1
            return self.prefix[self.pos - 1]
        raise _NeedDie(b)


def enumerate_outcomes(fn: Callable[[_Replay], T]) -> dict[T, Fraction]:
    """The exact law of ``fn(rng)`` by running it on every sequence of dice it can draw
    (each sequence weighs 1/faces per die)."""
    out: dict[T, Fraction] = {}
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        prefix, p = stack.pop()
        try:
            result = fn(_Replay(prefix))
        except _NeedDie as need:
            stack.extend(((*prefix, v), p / need.faces) for v in range(1, need.faces + 1))
            continue
        out[result] = out.get(result, Fraction(0)) + p
    return out


# -- rosters --------------------------------------------------------------------------


def fighter(name: str, side: str, *, init: int = 0, pv: int = 10, defense: int = 12,
            attaque: int = 0, alerte: bool = False) -> Combatant:
    stats = {"PV": pv, "defense": defense, "attaque": attaque}
    if init:
        stats["init"] = init
    return Combatant(name, side, stats, traits={"alerte"} if alerte else frozenset())


def party() -> list[Combatant]:
    return [
        fighter("Aldric", "héros", init=2, pv=12, defense=13, attaque=3, alerte=True),
        fighter("Brune", "héros", pv=9, defense=11, attaque=2),
        fighter("Grolk", "monstres", init=1, pv=15, defense=12, attaque=4),
    ]


# =====================================================================================
# D12-TIME-1
# =====================================================================================


def test_turn_duration_d12_time_1() -> None:
    """D12-TIME-1: 5 to 10 s a turn, 10 turns = 1 minute."""
    assert d12.elapsed_minutes(10) == 1
    assert d12.elapsed_minutes(3) == Fraction(3, 10)
    assert d12.elapsed_seconds(3) == (15, 30)
    with pytest.raises(EscarmoucheError, match="D12-TIME-1"):
        d12.elapsed_minutes(-1)


# =====================================================================================
# Initiative: D12-INIT-1..5
# =====================================================================================


def test_individual_roll_is_d12_plus_init_d12_init_1() -> None:
    """D12-INIT-1: 1d12 + ``init`` (0 when absent), one d12 per combatant in order."""
    rng = ScriptedRolls([3, 9, 7])
    init = d12.initiative(party(), rng)
    assert rng.remaining == 0
    assert [(r.name, r.die, r.bonus, r.total) for r in init.rolls] == [
        ("Aldric", 3, 2, 5), ("Brune", 9, 0, 9), ("Grolk", 7, 1, 8)]


def test_group_takes_its_highest_result_d12_init_2() -> None:
    """D12-INIT-2: héros = max(5, 9) = 9 > monstres = 8: héros act first, and inside
    the group Brune (9) before Aldric (5)."""
    init = d12.initiative(party(), ScriptedRolls([3, 9, 7]))
    assert init.groups == [("héros", ["Brune", "Aldric"]), ("monstres", ["Grolk"])]
    assert [(g.side, g.value) for g in init.group_results] == [("héros", 9), ("monstres", 8)]
    assert init.bonus_turn == []
    assert init.turn(1) == ["Brune", "Aldric", "Grolk"]


def test_group_tie_second_result_d12_init_3() -> None:
    """D12-INIT-3: héros (9, 4) vs monstres (9, 6): tied at 9, the second results
    decide, 6 > 4, so monstres act first."""
    roster = [fighter("A", "héros"), fighter("B", "héros"),
              fighter("C", "monstres"), fighter("D", "monstres")]
    init = d12.initiative(roster, ScriptedRolls([9, 4, 6, 9]))
    assert [s for s, _ in init.groups] == ["monstres", "héros"]
    assert init.groups[0] == ("monstres", ["D", "C"])
    (tie,) = init.group_ties
    assert (tie.before, tie.after, tie.value, tie.rank, tie.before_result, tie.after_result) \
        == ("monstres", "héros", 9, 2, 6, 4)
    assert "2e résultat : 6 contre 4" in tie.explain()
    assert "D12-INIT-3" in init.rules


def test_group_tie_list_runs_out_d12_init_3() -> None:
    """D12-INIT-3 ruling: héros (9) vs monstres (9, 2): héros have no second result,
    the group with a result left (monstres) wins."""
    roster = [fighter("A", "héros"), fighter("C", "monstres"), fighter("D", "monstres")]
    init = d12.initiative(roster, ScriptedRolls([9, 9, 2]))
    assert [s for s, _ in init.groups] == ["monstres", "héros"]
    (tie,) = init.group_ties
    assert (tie.rank, tie.before_result, tie.after_result) == (2, 2, None)
    assert d12.compare_groups([9], [9, 2]) == -1
    assert d12.compare_groups([2, 9], [9]) == 1


def test_perfect_tie_everyone_rerolls_d12_init_3() -> None:
    """D12-INIT-3: héros (7) vs monstres (7) is a perfect tie: everyone rerolls (in the
    given order): 3 then 5, so monstres (5) act first."""
    roster = [fighter("A", "héros"), fighter("C", "monstres")]
    rng = ScriptedRolls([7, 7, 3, 5])
    init = d12.initiative(roster, rng)
    assert rng.remaining == 0
    assert [s for s, _ in init.groups] == ["monstres", "héros"]
    assert len(init.attempts) == 2
    (pt,) = init.perfect_ties
    assert (pt.attempt, set(pt.sides), pt.results) == (1, {"héros", "monstres"}, (7,))
    assert [r.die for r in init.rolls] == [3, 5]
    assert any("Égalité parfaite" in line for line in init.narration())


def test_perfect_tie_reroll_is_bounded_d12_init_3() -> None:
    """D12-INIT-3: with ``max_initiative_rerolls=2`` the third perfect tie in a row
    raises the named bound error (after 3 × 2 dice)."""
    roster = [fighter("A", "héros"), fighter("C", "monstres")]
    rng = ScriptedRolls([5] * 6)
    with pytest.raises(RuleBoundError, match="D12-INIT-3") as err:
        d12.initiative(roster, rng, rules=d12.Rules(max_initiative_rerolls=2))
    assert err.value.field == "max_initiative_rerolls"
    assert rng.used == 6


def test_members_tied_by_bonus_d12_init_4() -> None:
    """D12-INIT-4 ruling: A (5 + 2 = 7) and B (7 + 0 = 7) tie at 7: the higher bonus
    (A, +2) executes first; no roll-off die is drawn."""
    roster = [fighter("B", "héros"), fighter("A", "héros", init=2)]
    rng = ScriptedRolls([7, 5])
    init = d12.initiative(roster, rng)
    assert init.groups == [("héros", ["A", "B"])]
    (bt,) = init.bonus_ties
    assert bt.order == (("A", 2), ("B", 0)) and bt.scope == "héros"
    assert rng.remaining == 0 and init.roll_offs == ()


def test_members_roll_off_d12_init_4() -> None:
    """D12-INIT-4 ruling: A and B both 6 with bonus 0: roll-off, one d12 each in the
    given order (A 3, B 9): B executes first."""
    roster = [fighter("A", "héros"), fighter("B", "héros")]
    init = d12.initiative(roster, ScriptedRolls([6, 6, 3, 9]))
    assert init.groups == [("héros", ["B", "A"])]
    (ro,) = init.roll_offs
    assert (ro.scope, ro.total, ro.rounds, ro.order) == (
        "héros", 6, ((("A", 3), ("B", 9)),), ("B", "A"))


def test_nested_roll_off_higher_sub_tie_first_d12_init_4() -> None:
    """D12-INIT-4: A, B, C tied at 4: roll-off 5, 5, 2 → A and B (tied at 5) roll
    again at once: 1, 4 → B, A, then C."""
    roster = [fighter("A", "x"), fighter("B", "x"), fighter("C", "x")]
    rng = ScriptedRolls([4, 4, 4, 5, 5, 2, 1, 4])
    init = d12.initiative(roster, rng)
    assert init.groups == [("x", ["B", "A", "C"])]
    (ro,) = init.roll_offs
    assert ro.rounds == ((("A", 5), ("B", 5), ("C", 2)), (("A", 1), ("B", 4)))
    assert rng.remaining == 0


def test_roll_off_draw_order_d12_init_4() -> None:
    """API.md draw order: roll-offs after every group die, groups in acting order, the
    tie at the higher result first. monstres (C, D at 8) act before héros (A, B at 3):
    so the monstres' roll-off (dice 2, 6) is drawn before the héros' one (dice 4, 1)."""
    roster = [fighter("A", "héros"), fighter("B", "héros"),
              fighter("C", "monstres"), fighter("D", "monstres")]
    init = d12.initiative(roster, ScriptedRolls([3, 3, 8, 8, 2, 6, 4, 1]))
    assert init.groups == [("monstres", ["D", "C"]), ("héros", ["A", "B"])]
    assert [ro.scope for ro in init.roll_offs] == ["monstres", "héros"]


def test_roll_off_is_bounded_d12_init_4() -> None:
    """D12-INIT-4: a tie that stays tied for ``max_roll_off_rounds`` rounds raises."""
    roster = [fighter("A", "x"), fighter("B", "x")]
    with pytest.raises(RuleBoundError, match="D12-INIT-4"):
        d12.initiative(roster, ScriptedRolls([6] * 8),
                       rules=d12.Rules(max_roll_off_rounds=3))


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        # monstres 12 (11 + 1) ties the environment: the group acts first
        ([4, 11], ["monstres", ENVIRONMENT, "héros"]),
        # monstres 13: above 12, first; héros 4 after the environment
        ([2, 12], ["monstres", ENVIRONMENT, "héros"]),
        # héros 12 + ... : Aldric 10 + 2 = 12 ties the environment too
        ([10, 5], ["héros", ENVIRONMENT, "monstres"]),
        # nobody reaches 12: the environment acts first
        ([3, 9], [ENVIRONMENT, "monstres", "héros"]),
    ],
)
def test_environment_at_12_loses_ties_d12_init_5(dice: list[int],
                                                  expected: list[str]) -> None:
    """D12-INIT-5: the environment sits at 12 and loses every tie."""
    roster = [fighter("Aldric", "héros", init=2), fighter("Grolk", "monstres", init=1)]
    init = d12.initiative(roster, ScriptedRolls(dice), environment=True)
    assert [s for s, _ in init.groups] == expected
    assert (ENVIRONMENT, []) in init.groups
    assert "D12-INIT-5" in init.rules
    env_ties = [t for t in init.group_ties if t.rule == "D12-INIT-5"]
    at_12 = [g.side for g in init.group_results if not g.environment and g.value == 12]
    assert [t.before for t in env_ties] == at_12


def brute_force_orders(roster: list[Combatant], environment: bool
                       ) -> dict[tuple[str, ...], Fraction]:
    """Every combination of d12, perfect ties dropped (they are rerolled)."""
    counts: dict[tuple[str, ...], int] = {}
    for dice in itertools.product(range(1, 13), repeat=len(roster)):
        rolls = [d12.InitiativeRoll(c.name, c.side, d, c.stat("init", 0))
                 for c, d in zip(roster, dice, strict=True)]
        results, _, perfect = d12.rank_groups(rolls, environment=environment)
        if not perfect:
            key = tuple(g.side for g in results)
            counts[key] = counts.get(key, 0) + 1
    total = sum(counts.values())
    return {k: Fraction(n, total) for k, n in counts.items()}


def test_group_order_odds_by_hand_d12_init_3() -> None:
    """D12-INIT-2/3: A (1d12) vs B (1d12 + 1): B ahead when d_B ≥ d_A (78 of 144),
    A ahead in 55, perfect tie in 11 (rerolled): 78/133 and 55/133."""
    odds = d12.group_order_odds([fighter("A", "x"), fighter("B", "y", init=1)])
    assert odds == {("y", "x"): Fraction(78, 133), ("x", "y"): Fraction(55, 133)}


@pytest.mark.parametrize("environment", [False, True])
@pytest.mark.parametrize(
    "spec",
    [
        [("x", 0), ("x", 2), ("y", 1)],
        [("x", 0), ("y", 0), ("z", 3)],
        [("x", 1), ("x", 1), ("y", 0), ("y", 2)],
    ],
)
def test_group_order_odds_brute_force_d12_init_5(spec: list[tuple[str, int]],
                                                  environment: bool) -> None:
    """D12-INIT-2/3/5: the exact order odds (environment included) equal the enumeration
    of every combination of initiative dice, perfect ties rerolled."""
    roster = [fighter(f"F{i}", side, init=b) for i, (side, b) in enumerate(spec)]
    assert d12.group_order_odds(roster, environment=environment) == brute_force_orders(
        roster, environment)


def brute_groups(roster: list[tuple[str, str, int]]
                 ) -> tuple[dict[str, Fraction], dict[str, Fraction], Fraction]:
    """Every joint roll of the roster through the engine's own ``d12.rank_groups``: who
    acts first, who acts before the environment (given no perfect tie), and the chance
    of a perfect tie."""
    sides = list(dict.fromkeys(s for _, s, _ in roster))
    first = dict.fromkeys(sides, Fraction(0))
    before = dict.fromkeys(sides, Fraction(0))
    tie = Fraction(0)
    p = Fraction(1, 12 ** len(roster))
    for dice in itertools.product(range(1, 13), repeat=len(roster)):
        rolls = [d12.InitiativeRoll(n, s, d, b) for (n, s, b), d in
                 zip(roster, dice, strict=True)]
        groups, _, perfect = d12.rank_groups(rolls, environment=True)
        if perfect:
            tie += p
            continue
        first[next(g.side for g in groups if not g.environment)] += p
        for g in groups:
            if g.environment:
                break
            before[g.side] += p
    keep = 1 - tie
    return ({s: v / keep for s, v in first.items()},
            {s: v / keep for s, v in before.items()}, tie)


@pytest.mark.parametrize(
    "roster",
    [
        [("A", "x", 2), ("B", "x", 0), ("C", "y", 1), ("D", "z", 0)],
        [("A", "x", 0), ("B", "y", 0), ("C", "z", 0), ("D", "w", 0)],
        [("A", "x", 0), ("B", "x", 0), ("C", "y", 0), ("D", "y", 0)],
        [("A", "x", 3)],
        [("A", "x", 11), ("B", "y", -3), ("C", "y", 5)],
    ],
)
def test_group_odds_brute_force_d12_init_3(roster: list[tuple[str, str, int]]) -> None:
    """D12-INIT-2/3/5: first group, before the environment and perfect tie, from the one
    exact algorithm, equal the enumeration of every joint roll through rank_groups."""
    first, before, tie = brute_groups(roster)
    odds = d12.group_odds([fighter(n, s, init=b) for n, s, b in roster])
    assert odds.reroll == tie
    assert odds.first == first
    assert odds.before_environment == before
    assert sum(odds.first.values()) == 1


def test_group_odds_stay_fast_and_bounded_d12_init_3() -> None:
    """The exact group odds stay fast on big groups and refuse more than 5 groups (CPU
    time, so that a loaded machine does not fail the test)."""
    import time

    def roster(groups: dict[str, list[int]]) -> list[Combatant]:
        return [fighter(f"{s}{i}", s, init=b) for s, bs in groups.items()
                for i, b in enumerate(bs)]

    start = time.process_time()
    d12.group_odds(roster({"a": [0] * 6, "b": [1, 2, 3, 0, 0, 1]}))
    d12.group_odds(roster({"a": [0, 1, 2], "b": [1, 1], "c": [2, 0], "d": [1], "e": [0]}))
    assert time.process_time() - start < 2.0
    with pytest.raises(RuleBoundError, match="5 groupes"):
        d12.group_odds(roster({s: [0] for s in "abcdef"}))


def test_group_odds_display_in_french_d12_init_2() -> None:
    odds = d12.group_odds([fighter("A", "x"), fighter("B", "y", init=1)])
    html = odds._repr_html_()
    assert "Agit en premier" in html and "58,6\u202f%" in html  # 78/133
    assert "Égalité parfaite" in html


def test_bonus_turn_odds_brute_force_d12_surprise_2() -> None:
    """D12-SURPRISE-2 with D12-INIT-4: the chance to act first in the bonus turn equals
    the enumeration of every bonus-turn die and roll-off (through ``initiative``)."""
    roster = [fighter("A", "héros", init=2, alerte=True), fighter("B", "héros"),
              fighter("G", "monstres", init=1), fighter("V", "monstres", init=3)]
    odds = d12.bonus_turn_odds(roster, "monstres").first
    assert list(odds) == ["A", "G", "V"]
    tie_free = [fighter("A", "héros", init=2, alerte=True), fighter("G", "monstres", init=1)]

    def first(rng: _Replay) -> str:
        return d12.initiative(tie_free, _Fixed(rng, len(tie_free)),
                              ambush_by="monstres").bonus_turn[0]

    law = enumerate_outcomes(first)
    assert d12.bonus_turn_odds(tie_free, "monstres").first == law
    assert sum(odds.values()) == 1
    assert "Agit en premier au tour bonus" in d12.bonus_turn_odds(roster, "monstres")._repr_html_()


class _Fixed:
    """Replays the bonus-turn dice, then answers 1 to every other draw (the group
    initiative does not change who acts first in the bonus turn)."""

    def __init__(self, inner: _Replay, n: int) -> None:
        self.inner, self.n = inner, n

    def randint(self, a: int, b: int) -> int:
        if self.n:
            self.n -= 1
            return self.inner.randint(a, b)
        return 1


def test_option_values_are_cached_d12_crit_2() -> None:
    """The critical option values are a cached pure function (asked at every activation
    of an automated fight): the same arguments give the very same object."""
    a = d12.critical_option_values("1d8+2", bonus=3, defence=14)
    b = d12.critical_option_values("1d8+2", bonus=3, defence=14)
    assert a is b
    assert "Meilleure option" in a._repr_html_()


# =====================================================================================
# Ambush: D12-SURPRISE-1/2
# =====================================================================================


def test_ambush_bonus_turn_then_groups_d12_surprise_1() -> None:
    """D12-SURPRISE-1: the ambushers get a bonus turn; Brune (not alert) does not act in
    it; group initiative is rolled for the turns after (dice after the bonus dice).
    Bonus: Aldric (alert) 5 + 2 = 7, Grolk 8 + 1 = 9 → Grolk, Aldric. Groups: Aldric
    4 + 2 = 6, Brune 10, Grolk 11 + 1 = 12 → monstres (12), héros (10, 6)."""
    rng = ScriptedRolls([5, 8, 4, 10, 11])
    init = d12.initiative(party(), rng, ambush_by="monstres")
    assert rng.remaining == 0
    assert init.bonus_turn == ["Grolk", "Aldric"]
    assert init.turn(0) == ["Grolk", "Aldric"]
    assert init.groups == [("monstres", ["Grolk"]), ("héros", ["Brune", "Aldric"])]
    assert {"D12-SURPRISE-1", "D12-SURPRISE-2"} <= set(init.rules)


def test_alert_defender_uses_individual_initiative_d12_surprise_2() -> None:
    """D12-SURPRISE-2: the alert defender acts in the bonus turn at its individual
    initiative, ordered with the attackers: Aldric 9 + 2 = 11 > Grolk 3 + 1 = 4."""
    init = d12.initiative(party(), ScriptedRolls([9, 3, 1, 1, 1]), ambush_by="monstres")
    assert init.bonus_turn == ["Aldric", "Grolk"]
    assert [(r.name, r.total) for r in init.bonus_rolls] == [("Aldric", 11), ("Grolk", 4)]


def test_bonus_turn_roll_off_before_groups_d12_surprise_2() -> None:
    """D12-SURPRISE-1/2 + API draw order: the bonus turn is settled (its roll-off
    included) before group initiative is rolled. Bonus: X 6, Y 6 (tied, bonus 0), the
    bonus roll-off X 1, Y 12 → Y first; then groups: X 2, Y 2, Z 7; then the monstres'
    roll-off X 8, Y 3 → X first."""
    roster = [fighter("X", "monstres"), fighter("Y", "monstres"), fighter("Z", "héros")]
    init = d12.initiative(roster, ScriptedRolls([6, 6, 1, 12, 2, 2, 7, 8, 3]),
                          ambush_by="monstres")
    assert init.bonus_turn == ["Y", "X"]
    assert init.groups == [("héros", ["Z"]), ("monstres", ["X", "Y"])]
    assert [ro.scope for ro in init.roll_offs] == ["tour bonus", "monstres"]


def test_knocked_out_in_bonus_turn_rolls_no_group_initiative_d12_surprise_1() -> None:
    """D12-SURPRISE-1: « Une fois leur tour terminé, vous pouvez lancer votre initiative
    de groupe » — group initiative comes after the bonus turn, so a defender knocked
    out in it sets nothing. Bonus: Aldric 5 + 2 = 7, Grolk 8 + 1 = 9. Had Brune rolled
    her 12, « héros » (12) would act first; out, she rolls nothing: Aldric 3 + 2 = 5,
    Grolk 8 + 1 = 9, « monstres » first."""
    standing = d12.resolve_initiative(party(), [5, 8, 3, 12, 8], ambush_by="monstres")
    assert [side for side, _ in standing.groups] == ["héros", "monstres"]
    out = d12.resolve_initiative(party(), [5, 8, 3, 8], ambush_by="monstres", out=["Brune"])
    assert out.groups == [("monstres", ["Grolk"]), ("héros", ["Aldric"])]
    assert [r.name for r in out.rolls] == ["Aldric", "Grolk"] and out.out == ("Brune",)
    assert "Brune, hors de combat, ne la lance pas" in " ".join(out.narration())
    with pytest.raises(ParameterError, match="D12-SURPRISE-1"):
        d12.initiative(party(), ScriptedRolls([1, 1]), out=["Brune"])  # no ambush
    with pytest.raises(ParameterError, match="Personne"):
        d12.initiative(party(), ScriptedRolls([1] * 5), ambush_by="monstres",
                       out=["Personne"])


def test_bonus_turn_alone_is_pending_d12_surprise_1() -> None:
    """D12-SURPRISE-1: the bonus turn is rolled alone; group initiative is pending
    until :func:`roll_groups_after_bonus`, which refuses to run twice."""
    bonus = d12.roll_bonus_turn(party(), ScriptedRolls([5, 8]), ambush_by="monstres")
    assert bonus.pending and bonus.groups == [] and bonus.order() == []
    assert bonus.bonus_turn == ["Grolk", "Aldric"]
    assert "à la fin du tour bonus" in " ".join(bonus.narration())
    assert d12.D12Initiative.from_json(bonus.to_json()) == bonus
    full = d12.roll_groups_after_bonus(bonus, party(), ScriptedRolls([4, 10, 11]))
    assert not full.pending and full.bonus_turn == bonus.bonus_turn
    assert full == d12.resolve_initiative(party(), [5, 8, 4, 10, 11], ambush_by="monstres")
    with pytest.raises(ParameterError, match="D12-SURPRISE-1"):
        d12.roll_groups_after_bonus(full, party(), ScriptedRolls([1, 1, 1]))


def test_engine_rolls_group_initiative_after_bonus_turn_d12_surprise_1() -> None:
    """D12-SURPRISE-1 in the engine, the log in the order of the table: the bonus
    turn's rolls, « Début du tour 0 », the bonus turn, « Fin du tour 0 », then only the
    group initiative (by the fighters still standing: Brune, knocked out by Grolk's 12
    with « maximum », 10 ≥ 9 PV, rolls nothing), its order, and « Début du tour 1 »."""
    enc = Encounter("d12", party())
    enc.start(ScriptedRolls([5, 8]), embuscade_par="monstres", armes={"Grolk": "1d8+2"})
    assert enc.state.system_state["order"] == []
    enc.act("Grolk", "attaquer", ScriptedRolls([12]), cible="Brune", option="maximum")
    assert enc.fighter("Brune").out
    saved = enc.to_json()  # a save in the bonus turn: group initiative still pending
    assert Encounter.from_json(saved).to_json() == saved
    enc.end_activation()
    rng = ScriptedRolls([3, 8])
    enc.end_activation(rng)
    assert rng.remaining == 0
    kinds = [e.kind for e in enc.log]
    texts = [e.text for e in enc.log]
    start0 = kinds.index("debut_tour")
    assert enc.log[start0].data["order"] == ["Grolk", "Aldric"]
    assert "initiative" not in kinds[:start0] and "ordre_initiative" not in kinds[:start0]
    end0 = kinds.index("fin_tour")
    assert kinds[end0:end0 + 5] == ["fin_tour", "fin_surprise", "initiative",
                                    "ordre_initiative", "debut_tour"]
    assert "Brune, hors de combat, ne la lance pas" in texts[end0 + 1]
    rolled = enc.log[end0 + 2]
    assert [(d.value, d.purpose) for d in rolled.dice] == [
        (3, "initiative d’Aldric"), (8, "initiative de Grolk")]
    assert enc.state.order == ["Grolk", "Aldric"]
    assert "Brune" not in texts[end0 + 4]
    again = Encounter.from_json(enc.to_json())
    assert again.to_json() == enc.to_json()
    tampered = json.loads(enc.to_json())
    tampered["system_state"]["initiative"]["out"] = []
    with pytest.raises(EscarmoucheError, match="incohérente"):
        Encounter.from_json(tampered)


def test_initiative_bad_input_core_err() -> None:
    with pytest.raises(EscarmoucheError, match="D12-SURPRISE-1"):
        d12.initiative(party(), ScriptedRolls([1] * 9), ambush_by="pirates")
    with pytest.raises(EscarmoucheError, match="init"):
        d12.initiative([Combatant("A", "x", {"init": 99})], ScriptedRolls([1]))
    with pytest.raises(EscarmoucheError, match="non vide"):
        d12.initiative([], ScriptedRolls([]))
    with pytest.raises(EscarmoucheError, match="réservé"):
        d12.initiative([Combatant("environnement", "x")], ScriptedRolls([1]))


roster_strategy = st.lists(
    st.tuples(st.sampled_from(["a", "b", "c"]), st.integers(-3, 3), st.booleans()),
    min_size=1, max_size=7,
)


@settings(max_examples=150, deadline=None)
@given(roster_strategy, st.integers(0, 2**32), st.booleans(),
       st.sampled_from([None, "a", "b"]))
def test_initiative_invariants(spec: list[tuple[str, int, bool]], seed: int, env: bool,
                               ambush: str | None) -> None:
    """D12-INIT-2..5, D12-SURPRISE-2 invariants: the order is a permutation of the
    roster, groups follow compare_groups, members and the bonus turn follow individual
    results (then bonus), the environment sits after every group at 12 or more."""
    roster = [Combatant(f"F{i}", side, {"init": b}, traits={"alerte"} if al else set())
              for i, (side, b, al) in enumerate(spec)]
    sides = {c.side for c in roster}
    if ambush is not None and ambush not in sides:
        ambush = None
    init = d12.initiative(roster, random.Random(seed), environment=env, ambush_by=ambush)
    names = [c.name for c in roster]
    assert sorted(n for n in init.order() if n != ENVIRONMENT) == sorted(names)
    results = {g.side: g for g in init.group_results}
    fighters = [(s, m) for s, m in init.groups if s != ENVIRONMENT]
    for (s1, _), (s2, _) in itertools.pairwise(fighters):
        assert d12.compare_groups(results[s1].results, results[s2].results) == 1
    by_name = {c.name: c for c in roster}
    for side, members in fighters:
        assert {by_name[m].side for m in members} == {side}
        keys = [(init.total(m), by_name[m].stat("init", 0)) for m in members]
        assert keys == sorted(keys, reverse=True)
    if env:
        sides_order = [s for s, _ in init.groups]
        pos = sides_order.index(ENVIRONMENT)
        assert all(results[s].value >= 12 for s in sides_order[:pos])
        assert all(results[s].value < 12 for s in sides_order[pos + 1:])
    else:
        assert ENVIRONMENT not in [s for s, _ in init.groups]
    expected_bonus = {c.name for c in roster
                      if ambush is not None and (c.side == ambush or "alerte" in c.traits)}
    assert set(init.bonus_turn) == expected_bonus and len(init.bonus_turn) == len(
        expected_bonus)
    totals = {r.name: (r.total, r.bonus) for r in init.bonus_rolls}
    keys = [totals[n] for n in init.bonus_turn]
    assert keys == sorted(keys, reverse=True)
    assert d12.D12Initiative.from_json(json.loads(json.dumps(init.to_json()))) == init


# =====================================================================================
# The attack: D12-CRIT-1, D12-ADV-1, D12-CRIT-2, D12-EXPLODE-1
# =====================================================================================


def test_attack_hits_when_total_reaches_defence_d12_crit_1() -> None:
    """D12-CRIT-1: 8 + 3 = 11 against 11 hits; 7 + 3 = 10 misses."""
    hit = d12.attack_roll([8], bonus=3, defence=11)
    miss = d12.attack_roll([7], bonus=3, defence=11)
    assert (hit.total, hit.hit, hit.critical) == (11, True, False)
    assert (miss.total, miss.hit) == (10, False)
    assert hit.rules == ("D12-CRIT-1",)
    assert "contre défense 11, touché" in hit.explain()


def test_natural_12_always_hits_d12_crit_2() -> None:
    """D12-CRIT-2: a natural 12 hits whatever the defence (12 − 5 = 7 < 40)."""
    att = d12.attack_roll([12], bonus=-5, defence=40)
    assert att.critical and att.hit and att.total == 7
    assert "D12-CRIT-2" in att.rules


def test_critical_is_judged_on_the_kept_die_d12_crit_2() -> None:
    """D12-CRIT-2: under disadvantage [12, 5] keeps 5 (no critical); under advantage
    [3, 12] keeps 12 (critical)."""
    dis = d12.attack_roll([12, 5], bonus=0, defence=6, mode="desavantage")
    adv = d12.attack_roll([3, 12], bonus=0, defence=40, mode="avantage")
    assert (dis.kept, dis.critical, dis.hit) == (5, False, False)
    assert (adv.kept, adv.critical, adv.hit) == (12, True, True)


def test_advantage_and_disadvantage_d12_adv_1() -> None:
    """D12-ADV-1: advantage = 2d12 keep highest, disadvantage = keep lowest; one of each
    cancels; they do not stack."""
    assert d12.attack_expression("normal") == "1d12"
    assert d12.attack_expression("avantage") == "2d12kh1"
    assert d12.attack_expression("desavantage") == "2d12kl1"
    assert d12.net_mode(1, 1) is d12.Mode.NORMAL
    assert d12.net_mode(2, 0) is d12.Mode.AVANTAGE
    assert d12.net_mode(2, 1) is d12.Mode.AVANTAGE
    assert d12.net_mode(1, 2) is d12.Mode.DESAVANTAGE
    assert d12.combine_modes("avantage", "desavantage") is d12.Mode.NORMAL
    rng = ScriptedRolls([4, 9])
    att = d12.roll_attack(rng, bonus=1, defence=10, mode="avantage")
    assert (att.dice, att.kept, att.total, att.hit) == ((4, 9), 9, 10, True)
    att = d12.roll_attack(ScriptedRolls([4, 9]), bonus=1, defence=10, mode="desavantage")
    assert (att.kept, att.hit) == (4, False)
    with pytest.raises(EscarmoucheError, match="D12-ADV-1"):
        d12.attack_roll([4], defence=10, mode="avantage")


def test_critical_chance_d12_adv_1() -> None:
    """D12-CRIT-2 / D12-ADV-1: P(kept 12) = 1/12; with advantage 1 − (11/12)² = 23/144;
    with disadvantage (1/12)² = 1/144."""
    assert d12.critical_chance() == Fraction(1, 12)
    assert d12.critical_chance("avantage") == Fraction(23, 144)
    assert d12.critical_chance("desavantage") == Fraction(1, 144)


@pytest.mark.parametrize("mode", list(d12.Mode))
def test_critical_chance_matches_brute_force(mode: d12.Mode) -> None:
    law = enumerate_outcomes(lambda rng: d12.roll_attack(rng, defence=0, mode=mode).critical)
    assert law[True] == d12.critical_chance(mode)


@settings(max_examples=60, deadline=None)
@given(st.integers(-15, 15), st.integers(0, 40), st.sampled_from(list(d12.Mode)))
def test_hit_chance_matches_brute_force(bonus: int, defence: int, mode: d12.Mode) -> None:
    """D12-CRIT-1/2: the exact hit chance equals the enumeration of every attack die."""
    law = enumerate_outcomes(
        lambda rng: d12.roll_attack(rng, bonus=bonus, defence=defence, mode=mode).hit)
    assert law.get(True, Fraction(0)) == d12.hit_chance(bonus=bonus, defence=defence,
                                                        mode=mode)


def test_hit_chance_by_hand_d12_crit_1() -> None:
    """+3 against 13 hits on 10, 11, 12: 3/12; against 40 only the natural 12: 1/12."""
    assert d12.hit_chance(bonus=3, defence=13) == Fraction(3, 12)
    assert d12.hit_chance(bonus=3, defence=40) == Fraction(1, 12)
    assert d12.hit_chance(bonus=0, defence=0) == 1


def test_option_maximum_d12_crit_2() -> None:
    """D12-CRIT-2 (a): ``1d8+2`` at its maximum deals 8 + 2 = 10, drawing no die."""
    rng = ScriptedRolls([])
    dmg = d12.roll_damage("1d8+2", rng, option="maximum")
    assert (dmg.damage, dmg.dice, rng.used) == (10, (), 0)
    assert d12.critical_damage_distribution("1d8+2", "maximum") == {10: 1}
    assert d12.critical_damage_distribution("2d6-1", "maximum") == {11: 1}


def test_option_explosive_extra_die_d12_crit_2() -> None:
    """D12-CRIT-2 (b) + D12-EXPLODE-1: ``1d8+2`` → ``2d8!+2``; dice 8, 8, 3 (the first
    die explodes twice: 19) then 5: 19 + 5 + 2 = 26."""
    assert d12.damage_expression("1d8+2", "explosif") == "2d8!+2"
    assert d12.damage_expression("1d6+1d4", "explosif") == "2d6!+1d4!"
    dmg = d12.roll_damage("1d8+2", ScriptedRolls([8, 8, 3, 5]), option="explosif")
    assert (dmg.raw, dmg.damage) == (26, 26)
    assert dmg.rules == ("D12-CRIT-2", "D12-EXPLODE-1")


def test_option_advantage_deals_normal_damage_d12_crit_2() -> None:
    """D12-CRIT-2 (c): the hit itself deals the weapon's normal damage."""
    assert d12.critical_damage_distribution("1d4+1", "avantage") == {
        v: Fraction(1, 4) for v in (2, 3, 4, 5)}
    out = d12.resolve_attack(ScriptedRolls([12, 3]), weapon="1d4+1", defence=30,
                             option="avantage")
    assert (out.option, out.grants_advantage, out.dealt) == ("avantage", True, 4)


def test_explosion_depth_cap_d12_explode_1() -> None:
    """D12-EXPLODE-1: an exploding d2 is drawn at most 1 + MAX_EXPLODE_DEPTH times, the
    last draw kept as it is: 21 twos make 42 for the first die, then 1: 42 + 1 = 43."""
    depth = MAX_EXPLODE_DEPTH
    dice = [2] * (depth + 1) + [1]
    dmg = d12.damage_roll("1d2", dice, option="explosif")
    assert dmg.raw == 2 * (depth + 1) + 1
    assert max(d12.critical_damage_distribution("1d2", "explosif")) == 2 * 2 * (depth + 1)


@pytest.mark.parametrize("weapon", ["1d4+1", "1d3", "1d2-1", "2d2"])
@pytest.mark.parametrize("option", list(d12.CRITICAL_OPTIONS))
def test_critical_damage_distribution_brute_force(weapon: str, option: str) -> None:
    """API.md critical_damage_distribution equals the enumeration of every damage die
    sequence (explosions up to the cap) that roll_damage can draw."""
    law = enumerate_outcomes(lambda rng: d12.roll_damage(weapon, rng, option=option).damage)
    dist = d12.critical_damage_distribution(weapon, option)
    assert dist == law
    assert sum(dist.values()) == 1


def test_damage_never_heals_d12_crit_2() -> None:
    """Ruling: ``1d2-2`` rolling 1 gives −1 and deals 0; the distribution is floored."""
    assert d12.damage_roll("1d2-2", [1]).damage == 0
    assert d12.damage_distribution("1d2-2") == {0: 1}
    assert d12.critical_damage_distribution("1d2-3", "maximum") == {0: 1}


@pytest.mark.parametrize(("mode", "weapon"), [("normal", "1d4+1"), ("avantage", "1d2"),
                                              ("desavantage", "1d3")])
@pytest.mark.parametrize("option", list(d12.CRITICAL_OPTIONS))
def test_attack_damage_distribution_brute_force(mode: str, weapon: str, option: str) -> None:
    """One attack's damage (miss 0, hit, critical with the option) equals the
    enumeration of every die resolve_attack can draw, at a defence of 9 with +1."""
    law = enumerate_outcomes(lambda rng: d12.resolve_attack(
        rng, weapon=weapon, bonus=1, defence=9, mode=mode, option=option).dealt)
    dist = d12.attack_damage_distribution(weapon, bonus=1, defence=9, option=option,
                                          mode=mode)
    assert dist == law


def test_option_values_by_hand_d12_crit_2() -> None:
    """Which option pays best against defence 13 with +3 and ``1d8+2``.

    (a) 10; (b) 2d8!+2: each d8! averages 4.5 × Σ_{j≤20} 8^-j, so about 12.29;
    (c) 6.5 now plus the next attack's gain: without advantage P(normal hit) = P(10, 11)
    = 2/12, P(crit) = 1/12; with advantage the kept die is k with (2k − 1)/144, so
    P(10, 11) = (19 + 21)/144 = 40/144, P(12) = 23/144. The next attack takes (b) on
    its crit (12.29 > 10): gain = (40/144 − 24/144) × 6.5 + (23/144 − 12/144) × 12.29."""
    values = {v.option: v for v in d12.critical_option_values("1d8+2", bonus=3,
                                                               defence=13)}
    explode_die = Fraction(9, 2) * sum(Fraction(1, 8**j) for j in range(MAX_EXPLODE_DEPTH + 1))
    crit_b = 2 * explode_die + 2
    assert values["maximum"].critical_damage == 10
    assert values["explosif"].critical_damage == crit_b
    assert values["avantage"].critical_damage == Fraction(13, 2)
    gain = Fraction(16, 144) * Fraction(13, 2) + Fraction(11, 144) * crit_b
    assert values["avantage"].next_attack_gain == gain
    assert values["maximum"].next_attack_gain == 0
    # this attack only: P(10, 11) × 6.5 + 1/12 × crit damage
    assert values["maximum"].attack_damage == Fraction(2, 12) * Fraction(13, 2) + Fraction(
        10, 12)
    assert d12.best_critical_option("1d8+2", bonus=3, defence=13) == "explosif"
    # nobody attacks the target before its turn: the advantage is worth nothing
    none = d12.critical_option_values("1d8+2", bonus=3, defence=13, next_attack_chance=0)
    assert {v.option: v.next_attack_gain for v in none}["avantage"] == 0


def test_advantage_option_can_pay_best_d12_crit_2() -> None:
    """With a small weapon and a big follow-up, option (c) wins. ``1d4``: (a) 4,
    (b) 2d4! ≈ 2 × 2,5 × 4/3 ≈ 6,67, (c) 2,5 + gain. The next attack, ``6d12`` at +0
    against 11, normally hits on 11 (1/12, mean 39) and crits on 12 (1/12, maximum
    72): 9,25; with advantage 21/144 × 39 + 23/144 × 72 ≈ 17,19: gain ≈ 7,94, so
    (c) ≈ 10,44 is best."""
    best = d12.best_critical_option("1d4", defence=11, next_weapon="6d12")
    assert best == "avantage"


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["1d4", "1d6+1", "2d4", "1d8-2", "1d3+1d2"]),
       st.integers(-5, 10), st.integers(0, 40), st.sampled_from(list(d12.Mode)),
       st.sampled_from(list(d12.CRITICAL_OPTIONS)))
def test_attack_distribution_sums_to_one(weapon: str, bonus: int, defence: int,
                                         mode: d12.Mode, option: str) -> None:
    """Exact odds sum to 1; P(0 damage) ≥ P(miss); the mean is at most the crit mean."""
    dist = d12.attack_damage_distribution(weapon, bonus=bonus, defence=defence,
                                          option=option, mode=mode)
    assert sum(dist.values()) == 1
    assert dist.get(0, Fraction(0)) >= 1 - d12.hit_chance(bonus=bonus, defence=defence,
                                                          mode=mode)
    assert all(v >= 0 for v in dist)


def test_bad_weapon_option_defence_core_err() -> None:
    """CORE-ERR: malformed weapon dice, unknown option, defence out of 0–40."""
    with pytest.raises(DiceError, match="D12-CRIT-2") as err:
        d12.critical_damage_distribution("1d8+", "maximum")
    assert "arme" in str(err.value)
    with pytest.raises(EscarmoucheError, match="option critique inconnue"):
        d12.critical_damage_distribution("1d8", "double")
    with pytest.raises(EscarmoucheError, match=r"defense = 41\u00a0.*0 et 40.*D12-CRIT-1"):
        d12.hit_chance(defence=41)
    with pytest.raises(EscarmoucheError, match="D12-ADV-1"):
        d12.critical_chance("triple")
    with pytest.raises(EscarmoucheError, match="D12-CRIT-2"):
        d12.Rules(critical_option="rien")
    with pytest.raises(EscarmoucheError, match="CORE-RNG"):
        d12.damage_roll("1d6", [7])
    with pytest.raises(EscarmoucheError, match="2 fourni"):
        d12.damage_roll("1d6", [3, 4])


# =====================================================================================
# D12-ACT-1: the action list as data
# =====================================================================================


def test_action_list_is_data_d12_act_1() -> None:
    """D12-ACT-1: at least Attaquer, Se déplacer, Communiquer (free); editable."""
    ids = {a.id: a for a in d12.DEFAULT_ACTIONS}
    assert set(ids) == {"attaquer", "se_deplacer", "communiquer"}
    assert ids["communiquer"].cost == "libre"
    assert ids["attaquer"].cost != "libre"
    custom = d12.Rules(actions=(*d12.DEFAULT_ACTIONS,
                                ActionSpec("se_cacher", "Se cacher", "action")))
    assert [a.id for a in custom.actions][-1] == "se_cacher"
    with pytest.raises(EscarmoucheError, match=r"communiquer.*D12-ACT-1"):
        d12.Rules(actions=d12.DEFAULT_ACTIONS[:2])


def test_catalogue_and_resolvers_d12_act_1() -> None:
    """D12-ACT-1: the catalogue is read from the rules; every action names a resolver
    through ``kind``; an action a designer adds without one shares the declared resolver
    and gets a French doc; an unknown kind is refused (ParameterError)."""
    rules = d12.Rules(actions=(*d12.DEFAULT_ACTIONS, ActionSpec("se_cacher", "Se cacher")))
    catalogue = d12.SYSTEM.catalogue(rules)
    assert list(catalogue) == ["attaquer", "se_deplacer", "communiquer", "se_cacher"]
    assert catalogue["se_cacher"].resolver_key == d12.DECLARED
    assert catalogue["se_cacher"].doc
    assert all(a.doc for a in catalogue.values())
    assert {a.resolver_key for a in catalogue.values()} <= set(d12.RESOLVERS)
    assert d12.SYSTEM.catalogue(d12.Rules()) == d12.ACTIONS
    with pytest.raises(ParameterError, match="kind"):
        d12.Rules(actions=(*d12.DEFAULT_ACTIONS, ActionSpec("voler", "Voler", kind="magie")))
    with pytest.raises(ParameterError, match="deux fois"):
        d12.Rules(actions=(*d12.DEFAULT_ACTIONS, d12.DEFAULT_ACTIONS[0]))
    again = d12.SYSTEM.rules_from_json(d12.SYSTEM.rules_to_json(rules))
    assert again == rules


def test_option_labels_and_rules_display() -> None:
    """Every option and every option value has a French label; the rules display as a
    French table in a notebook."""
    import dataclasses

    assert [o.name for o in d12.SYSTEM.options()] == [
        f.name for f in dataclasses.fields(d12.Rules)]
    assert all(o.label and o.rules for o in d12.SYSTEM.options())
    critical = d12.SYSTEM.option("option_critique")
    assert set(critical.choices or {}) == set(d12.CRITICAL_OPTIONS)
    assert critical.value_label("explosif").startswith("(b)")
    assert set(d12.MODE_LABELS) == set(d12.Mode)
    html = d12.Rules()._repr_html_()
    assert "Options du système d12" in html and "(a) dégâts maximum" in html


def test_resolve_initiative_is_initiative_on_typed_dice_d12_init_1() -> None:
    """The pure initiative takes the dice in the rolling function's draw order."""
    dice = [5, 8, 4, 10, 11]
    pure = d12.resolve_initiative(party(), dice, ambush_by="monstres")
    rolled = d12.initiative(party(), ScriptedRolls(dice), ambush_by="monstres")
    assert pure == rolled
    with pytest.raises(ParameterError, match="de trop"):
        d12.resolve_initiative(party(), [*dice, 3], ambush_by="monstres")
    with pytest.raises(ParameterError, match="d12"):
        d12.resolve_initiative(party(), [13, 1, 1])
    assert "Initiative de groupe" in pure._repr_html_()


def test_error_kinds_d12() -> None:
    """One error class per kind of refusal: a bad value is a ParameterError, a
    documented bound a RuleBoundError, a forbidden action an IllegalActionError."""
    with pytest.raises(ParameterError):
        d12.hit_odds(bonus=3, defence=41)
    with pytest.raises(ParameterError):
        d12.net_mode(-1, 0)
    with pytest.raises(ParameterError):
        d12.initiative(party(), ScriptedRolls([1, 2, 3]), ambush_by="dragons")
    with pytest.raises(ParameterError):
        d12.Rules(max_roll_off_rounds=0)
    with pytest.raises(ParameterError):
        d12.critical_option_values("1d8", defence=10, next_attack_chance=2)
    enc = ambushed()
    with pytest.raises(IllegalActionError):
        enc.act("Brune", "attaquer", ScriptedRolls([5]), cible="Grolk")
    with pytest.raises(IllegalActionError, match="action libre"):
        enc.act("Brune", "communiquer")


# =====================================================================================
# Through the encounter engine
# =====================================================================================


#: the group-initiative dice of :func:`ambushed`, rolled when its bonus turn ends
#: (D12-SURPRISE-1): Aldric 4 + 2 = 6, Brune 10, Grolk 11 + 1 = 12
AFTER_BONUS = (4, 10, 11)


def ambushed(extra: Sequence[int] = ()) -> Encounter:
    """The fight of test_ambush_bonus_turn_then_groups_d12_surprise_1, with the
    environment: the bonus turn (Grolk, Aldric) first; ending it with the dice
    :data:`AFTER_BONUS` makes monstres (12) tie the environment and act first; order
    Grolk, env, Brune, Aldric."""
    enc = Encounter("d12", party())
    enc.start(ScriptedRolls([5, 8, *extra]), embuscade_par="monstres",
              environnement=True, armes={"Grolk": "1d8+2"})
    return enc


def test_encounter_ambush_and_environment_d12_surprise_1() -> None:
    """D12-SURPRISE-1/2 and D12-INIT-5 in the engine: turn 0 = the bonus turn, then the
    group order with the environment after the tied monstres."""
    enc = ambushed()
    assert enc.turn == 0 and enc.current == "Grolk"
    assert enc.state.order == ["Grolk", "Aldric"]
    kinds = [e.kind for e in enc.log]
    assert kinds[:3] == ["surprise", "debut_tour", "tour_bonus"]
    assert "initiative" not in kinds and "ordre_initiative" not in kinds
    assert [d.value for d in enc.log[0].dice] == [5, 8]
    enc.end_activation()
    with pytest.raises(EscarmoucheError, match="CORE-RNG"):
        enc.end_activation()  # ending the bonus turn rolls group initiative
    assert enc.turn == 0 and enc.current == "Aldric"
    enc.end_activation(ScriptedRolls(AFTER_BONUS))
    assert enc.turn == 1
    assert enc.state.order == ["Grolk", ENVIRONMENT, "Brune", "Aldric"]
    kinds = [e.kind for e in enc.log]
    after = kinds[kinds.index("fin_tour"):]
    assert after[:5] == ["fin_tour", "fin_surprise", "initiative", "ordre_initiative",
                         "debut_tour"]
    rolled = next(e for e in enc.log if e.kind == "initiative")
    assert [d.value for d in rolled.dice] == [4, 10, 11]
    assert "l’environnement passe en dernier" in next(
        e for e in enc.log if e.kind == "ordre_initiative").text


def test_encounter_critical_advantage_consumed_d12_crit_2() -> None:
    """D12-CRIT-2 (c): Grolk rolls 12 on Brune (defence 11) and takes « avantage »:
    1d8+2 with a 3 deals 5 (Brune 9 → 4) and marks Brune. In turn 1 Grolk attacks
    Brune again: the mark is consumed, two d12 (2, 9) keep 9: 9 + 4 = 13 ≥ 11, hit;
    damage 1 + 2 = 3 (Brune 4 → 1)."""
    enc = ambushed()
    enc.act("Grolk", "attaquer", ScriptedRolls([12, 3]), cible="Brune", option="avantage")
    assert enc.fighter("Brune").tracks["PV"] == 4
    marks = [e for e in enc.state.effects if e.kind == "avantage_contre"]
    assert len(marks) == 1 and marks[0].timing is Timing.UNTIL_NEXT_TURN_OF
    assert marks[0].until_turn_of == "Brune" and marks[0].source == "Grolk"
    enc.end_activation()  # Aldric (bonus turn)
    enc.end_activation(ScriptedRolls(AFTER_BONUS))  # group initiative; turn 1: Grolk
    assert enc.current == "Grolk"
    rng = ScriptedRolls([2, 9, 1])
    events = enc.act("Grolk", "attaquer", rng, cible="Brune")
    assert rng.remaining == 0
    assert not [e for e in enc.state.effects if e.kind == "avantage_contre"]
    attack = next(e for e in events if e.kind == "attaque")
    assert attack.data["attack"]["mode"] == "avantage"
    assert [d.value for d in attack.dice] == [2, 9]
    assert any(e.kind == "effet_fin" and "consommé" in e.text for e in events)
    assert enc.fighter("Brune").tracks["PV"] == 1


def test_encounter_advantage_expires_at_targets_turn_d12_crit_2() -> None:
    """D12-CRIT-2 (c): unused, the mark ends at the start of Brune's next turn."""
    enc = ambushed()
    enc.act("Grolk", "attaquer", ScriptedRolls([12, 3]), cible="Brune", option="avantage")
    enc.end_activation()  # Aldric
    enc.end_activation(ScriptedRolls(AFTER_BONUS))  # group initiative; turn 1: Grolk
    enc.end_activation()  # the environment
    assert [e for e in enc.state.effects if e.kind == "avantage_contre"]
    enc.end_activation()  # Brune's activation starts
    assert enc.current == "Brune"
    assert not [e for e in enc.state.effects if e.kind == "avantage_contre"]
    assert any(e.kind == "effet_fin" and "Brune" in e.text for e in enc.log)


def test_encounter_advantage_cancels_disadvantage_d12_adv_1() -> None:
    """D12-ADV-1 in the engine: circumstances avantage + desavantage → one d12."""
    enc = ambushed()
    rng = ScriptedRolls([7])
    enc.act("Grolk", "attaquer", rng, cible="Aldric", avantage=True, desavantage=True)
    assert rng.used == 1  # 7 + 4 = 11 < 13: miss, no damage die
    assert enc.log[-1].data["attack"]["mode"] == "normal"


def test_encounter_explosive_critical_d12_explode_1() -> None:
    """D12-CRIT-2 (b): Grolk's 12, then 2d8!+2 with 8, 2, 4: 10 + 4 + 2 = 16 ≥ 12 PV."""
    enc = ambushed()
    enc.act("Grolk", "attaquer", ScriptedRolls([12, 8, 2, 4]), cible="Aldric",
            option="explosif")
    assert enc.fighter("Aldric").out
    dmg = next(e for e in enc.log if e.kind == "degats")
    assert dmg.data["damage"]["expression"] == "2d8!+2"
    assert [d.value for d in dmg.dice] == [8, 2, 4]


def test_encounter_environment_slot_d12_init_5() -> None:
    """D12-INIT-5: the environment activates like a fighter; effects borne by it tick."""
    enc = ambushed()
    enc.add_effect(Effect("", "Éboulement", Timing.ACTIVATION_START, bearer=ENVIRONMENT,
                          remaining=2))
    enc.end_activation()
    enc.end_activation(ScriptedRolls(AFTER_BONUS))
    enc.end_activation()
    assert enc.current == ENVIRONMENT
    assert enc.actions() == []
    assert any(e.kind == "effet_decompte" and "encore 1" in e.text for e in enc.log)
    assert enc.log[-1].kind == "environnement" and "Éboulement" in enc.log[-1].text


def test_encounter_group_acts_and_communicates_d12_init_4() -> None:
    """D12-INIT-4: at Brune's activation, Aldric (same group) may « Communiquer » (free);
    Grolk may not; Aldric may not attack out of his turn."""
    enc = ambushed()
    for dice in ((), AFTER_BONUS, (), ()):
        enc.end_activation(ScriptedRolls(dice))
    assert enc.current == "Brune"
    assert [e for e in enc.log if e.kind == "groupe"][-1].data["order"] == ["Brune", "Aldric"]
    assert [a.id for a in enc.actions("Aldric")] == ["communiquer"]
    enc.act("Aldric", "communiquer", message="Je prends le gobelin.")
    assert enc.log[-1].kind == "communication"
    before = enc.to_json()
    with pytest.raises(IllegalActionError, match="D12-ACT-1"):
        enc.act("Grolk", "communiquer")
    with pytest.raises(IllegalActionError, match="pas son tour"):
        enc.act("Aldric", "attaquer", ScriptedRolls([5]), cible="Grolk")
    assert enc.to_json() == before


def test_encounter_no_invented_economy_d12_act_1() -> None:
    """D12-ACT-1: no action economy: Grolk attacks, moves and attacks again in the
    same activation; a designer's action is logged as declared."""
    rules = d12.Rules(actions=(*d12.DEFAULT_ACTIONS,
                               ActionSpec("se_cacher", "Se cacher", "action",
                                          params=("ou",))))
    enc = Encounter("d12", party(), rules=rules)
    enc.start(ScriptedRolls([5, 8, 4, 10, 11]), embuscade_par="monstres")
    enc.act("Grolk", "attaquer", ScriptedRolls([1]), cible="Aldric")
    enc.act("Grolk", "se_deplacer", description="vers la porte")
    enc.act("Grolk", "attaquer", ScriptedRolls([2]), cible="Aldric")
    enc.act("Grolk", "se_cacher", ou="derrière le tonneau")
    assert [e.kind for e in enc.log[-4:]] == ["attaque", "deplacement", "attaque", "action"]
    assert "Se cacher" in enc.log[-1].text
    again = Encounter.from_json(enc.to_json())
    assert again.rules == rules and again.to_json() == enc.to_json()


def test_encounter_rejections_are_atomic_core_err() -> None:
    """CORE-ERR: a rejected action (bad weapon, unknown option, unknown target or
    action, dead target) leaves the state and the rng as they were."""
    enc = ambushed()
    before = enc.to_json()
    rng = random.Random(4)
    state = rng.getstate()
    bad: list[tuple[str, dict[str, object], type[Exception], str]] = [
        ("attaquer", {"cible": "Brune", "arme": "1d8+"}, DiceError, "D12-CRIT-2"),
        ("attaquer", {"cible": "Brune", "option": "double"}, ParameterError, "D12-CRIT-2"),
        ("attaquer", {"cible": "Personne"}, ParameterError, "Personne"),
        ("attaquer", {"cible": "Grolk"}, IllegalActionError, "lui-même"),
        ("attaquer", {}, ParameterError, "cible"),
        ("attaquer", {"cible": "Brune", "avantage": "oui"}, ParameterError, "D12-ADV-1"),
        ("attaquer", {"cible": "Brune", "portee": 3}, ParameterError, "portee"),
        ("voler", {}, ParameterError, "action inconnue"),
    ]
    for action, params, exc, text in bad:
        with pytest.raises(exc, match=text):
            enc.act("Grolk", action, rng, **params)
        assert enc.to_json() == before
        assert rng.getstate() == state


def test_encounter_roster_and_options_errors_core_err() -> None:
    with pytest.raises(EscarmoucheError, match="defense = 41"):
        Encounter("d12", [fighter("A", "x", defense=41)])
    with pytest.raises(EscarmoucheError, match="defense = rien\u00a0: cette caractéristique"):
        Encounter("d12", [Combatant("A", "x", {"PV": 3})])
    enc = Encounter("d12", party())
    with pytest.raises(EscarmoucheError, match="surprise_by"):
        enc.start(random.Random(1), surprise_by="monstres")
    with pytest.raises(DiceError, match="Grolk"):
        enc.start(random.Random(1), armes={"Grolk": "d"})
    with pytest.raises(EscarmoucheError, match="Personne"):
        enc.start(random.Random(1), armes={"Personne": "1d4"})
    assert not enc.state.started


def test_encounter_duration_d12_time_1() -> None:
    """D12-TIME-1 at the end of a fight: turns 0 and 1 begun = 2 turns, 10 to 20 s.
    Grolk's 12 with « maximum » on Brune: 10 ≥ 9 PV; Brune, out, rolls no group
    initiative (Aldric 4, Grolk 11); in turn 1, Grolk's 12 with « explosif » on
    Aldric: 2d8!+2 with 8, 8, 1 then 1: 17 + 1 + 2 = 20 ≥ 12 PV."""
    enc = ambushed()
    enc.act("Grolk", "attaquer", ScriptedRolls([12]), cible="Brune", option="maximum")
    assert enc.fighter("Brune").out
    enc.end_activation()  # Aldric (bonus turn)
    rng = ScriptedRolls([4, 11])
    enc.end_activation(rng)  # group initiative without Brune; turn 1: Grolk
    assert rng.remaining == 0
    enc.act("Grolk", "attaquer", ScriptedRolls([12, 8, 8, 1, 1]), cible="Aldric",
            option="explosif")
    assert enc.finished
    last = enc.log[-1]
    assert last.kind == "duree" and last.data["turns"] == 2
    assert last.data["seconds"] == [10, 20]


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.booleans(), st.sampled_from([None, "héros", "monstres"]))
def test_automated_fight_deterministic_and_round_trips(seed: int, env: bool,
                                                       ambush: str | None) -> None:
    """CORE-RNG / CORE-LOG: same seed ⇒ same log; the fight survives JSON exactly."""
    def fight() -> Encounter:
        enc = Encounter("d12", party())
        rng = random.Random(seed)
        enc.start(rng, environnement=env, embuscade_par=ambush)
        enc.run(rng, max_turns=30)
        return enc

    a, b = fight(), fight()
    assert a.to_json() == b.to_json()
    assert Encounter.from_json(a.to_json()).to_json() == a.to_json()
    assert a.finished


def test_environment_speaks_of_a_tie_only_when_there_is_one_d12_init_5() -> None:
    """D12-INIT-5: the environment's line names the group it follows only when a group
    is at exactly 12. Aldric 5 + 2 = 7, Brune 3, Grolk 9 + 1 = 10: nobody at 12."""
    enc = Encounter("d12", party())
    enc.start(ScriptedRolls([5, 3, 9]), environnement=True)
    assert enc.state.order == [ENVIRONMENT, "Grolk", "Aldric", "Brune"]
    line = next(e for e in enc.log if e.kind == "environnement")
    assert "égalité" not in line.text
