"""System d12 (seed 002), initiative: D12-INIT-1..5, with dice fixed by ScriptedRolls.

The individual roll (D12-INIT-1), the group value (D12-INIT-2), ties between groups and
perfect ties (D12-INIT-3), the order inside a group and roll-offs (D12-INIT-4), the
environment at 12 (D12-INIT-5), the exact order odds and the invariants of the order.
Every expected value is derived by hand from the rules (the derivation is in the
comment next to it); exact odds are checked against a brute-force enumeration of every
combination of initiative dice.
"""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import Combatant, Effect, EscarmoucheError, Timing
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter
from escarmouche.errors import IllegalActionError, ParameterError, RuleBoundError
from escarmouche.systems import d12
from escarmouche.systems.base import ENVIRONMENT
from escarmouche.systems.d12.initiative import draw_initiative
from tests.helpers.d12 import AFTER_BONUS, ambushed, fighter, party

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


def test_perfect_tie_past_the_bound_is_settled_by_lot_d12_init_6() -> None:
    """D12-INIT-6: with ``max_initiative_rerolls=2`` the third perfect tie in a row is
    settled by lot, not by an error: after 3 × 2 dice, one die with 2 faces (here 1)
    names the first group in the given order; the lot is told and replays from JSON."""
    roster = [fighter("A", "héros"), fighter("C", "monstres")]
    rng = ScriptedRolls([5] * 6 + [1])
    init = d12.initiative(roster, rng, rules=d12.Rules(max_initiative_rerolls=2))
    assert rng.remaining == 0
    assert [side for side, _ in init.groups] == ["héros", "monstres"]
    (lot,) = init.lots
    assert (lot.tied, lot.dice, lot.order, lot.after) == (
        ("héros", "monstres"), (1,), ("héros", "monstres"), 2)
    assert len(init.perfect_ties) == 2 and "D12-INIT-6" in init.rules
    assert any("tirage au sort" in line and "D12-INIT-6" in line for line in init.narration())
    assert d12.D12Initiative.from_json(init.to_json()) == init
    # a 2 names the second one
    other = d12.initiative(roster, ScriptedRolls([5] * 6 + [2]),
                           rules=d12.Rules(max_initiative_rerolls=2))
    assert [side for side, _ in other.groups] == ["monstres", "héros"]


def test_six_camps_tied_by_lot_in_runs_d12_init_6() -> None:
    """D12-INIT-6: past the bound, each run of perfectly tied groups is drawn apart, the
    highest run first (here x/y at 9, then z/w at 4), one die per place but the last;
    the groups that are not tied keep their place (v at 12, u at 1)."""
    sides = ["x", "y", "z", "w", "v", "u"]
    roster = [fighter(s.upper(), s) for s in sides]
    dice = [9, 9, 4, 4, 12, 1]
    rng = ScriptedRolls(dice + dice + [2, 1])
    init = d12.initiative(roster, rng, rules=d12.Rules(max_initiative_rerolls=1))
    assert [side for side, _ in init.groups] == ["v", "y", "x", "z", "w", "u"]
    assert [(lot.tied, lot.dice) for lot in init.lots] == [(("x", "y"), (2,)),
                                                           (("z", "w"), (1,))]
    assert rng.remaining == 0


def test_a_fight_never_stops_on_a_tie_d12_init_6() -> None:
    """D12-INIT-6: six one-member camps with the bound at 1 (the lowest accepted): over
    200 seeded fights, some ties are drawn by lot, none stops the fight, and a fight
    whose initiative was drawn by lot saves and loads (its dice replay)."""
    import random

    from escarmouche.encounter import Encounter

    roster = [Combatant(f"C{i}", f"camp {i}", {"PV": 6, "defense": 10}) for i in range(6)]
    rules = d12.Rules(max_initiative_rerolls=1, max_roll_off_rounds=1)
    drawn = 0
    for seed in range(200):
        enc = Encounter(d12.SYSTEM, roster, rules=rules)
        enc.start(random.Random(seed))
        init = d12.D12Initiative.from_json(enc.state.system_state["initiative"])
        if init.lots:
            drawn += 1
            again = Encounter.from_json(enc.to_json())
            assert again.state.system_state["initiative"] == enc.state.system_state[
                "initiative"]
    assert drawn > 0
    with pytest.raises(ParameterError, match="relances au plus"):
        d12.Rules(max_initiative_rerolls=0)


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
    """spec/API.md draw order: roll-offs after every group die, groups in acting order, the
    tie at the higher result first. monstres (C, D at 8) act before héros (A, B at 3):
    so the monstres' roll-off (dice 2, 6) is drawn before the héros' one (dice 4, 1)."""
    roster = [fighter("A", "héros"), fighter("B", "héros"),
              fighter("C", "monstres"), fighter("D", "monstres")]
    init = d12.initiative(roster, ScriptedRolls([3, 3, 8, 8, 2, 6, 4, 1]))
    assert init.groups == [("monstres", ["D", "C"]), ("héros", ["A", "B"])]
    assert [ro.scope for ro in init.roll_offs] == ["monstres", "héros"]


def test_roll_off_past_the_bound_is_settled_by_lot_d12_init_6() -> None:
    """D12-INIT-6: a tie still there after ``max_roll_off_rounds`` rounds is settled by
    lot (a die with 2 faces: 2, so B first), not by an error."""
    roster = [fighter("A", "x"), fighter("B", "x")]
    rng = ScriptedRolls([6] * 8 + [2])
    init = d12.initiative(roster, rng, rules=d12.Rules(max_roll_off_rounds=3))
    assert init.groups == [("x", ["B", "A"])] and rng.remaining == 0
    (ro,) = init.roll_offs
    assert len(ro.rounds) == 3 and [lot.dice for lot in ro.lots] == [(2,)]
    assert "D12-INIT-6" in init.rules
    assert d12.D12Initiative.from_json(init.to_json()) == init


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


def test_initiative_rolls_kept_follow_each_combatant_d12_init_1() -> None:
    """D12-INIT-1: an initiative roll kept for a die (``_roll``) belongs to its very
    combatant: another one of the same name and side with another ``init`` rolls its
    own bonus; the same roll twice is the same value; the kernel's way in
    (``draw_initiative``, the roster checked once) draws what ``initiative`` draws."""
    for bonus in (0, 3, -2, 3):
        roster = [Combatant("Aldric", "héros", {"init": bonus}), fighter("Grolk", "monstres")]
        for _ in range(2):
            init = d12.initiative(roster, ScriptedRolls([7, 4]))
            assert [(r.die, r.bonus) for r in init.rolls] == [(7, bonus), (4, 0)]
    for seed in range(200):
        roster = [fighter(n, s, init=k % 2) for k, (n, s) in enumerate(
            (("A", "x"), ("B", "x"), ("C", "y"), ("D", "z")))]
        a, b = random.Random(seed), random.Random(seed)
        env = seed % 2 == 0
        assert draw_initiative(roster, a, environment=env, rules=d12.Rules()) == \
            d12.initiative(roster, b, environment=env)
        assert a.getstate() == b.getstate()


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


def test_simulations_count_the_fights_settled_by_lot_d12_init_6() -> None:
    """D12-INIT-6: a simulation of six one-member camps with one reroll at most counts
    the fights whose initiative a lot settled, says so in its title and its JSON, and
    never stops on such a tie."""
    from escarmouche.encounter import Encounter
    from escarmouche.simulation import simulate

    roster = [Combatant(f"C{i}", f"camp {i}", {"PV": 4, "defense": 8}) for i in range(6)]
    enc = Encounter(d12.SYSTEM, roster, rules=d12.Rules(max_initiative_rerolls=1))
    bilan = simulate(enc, 60, seed=3)
    assert bilan.n == 60 and 0 < bilan.by_lot < 60
    assert bilan.to_json()["egalites_au_sort"] == bilan.by_lot
    title = bilan.table().title or ""
    assert f"{bilan.by_lot} combats dont une égalité s’est réglée au sort" in title
    assert "D12-INIT-6" in title
    # with the default bound, no fight of a duel is settled by lot, and nothing is said
    duel = Encounter(d12.SYSTEM, roster[:2])
    assert "au sort" not in (simulate(duel, 20, seed=3).table().title or "")


def test_a_tie_settled_by_bonus_reads_like_a_roll_off_d12_init_4() -> None:
    """D12-INIT-4 (eighth pass, B197): in one group order, « Groupe « Compagnie »
    (D12-INIT-4) : égalité à 7, départagée au bonus, Aldric (bonus +2) et Corentin
    (bonus +1). » sat beside « Groupe « Gobelins » : égalité à 7 (bonus +1), départagée
    au d12 (…), d’où l’ordre … (D12-INIT-4). »: the rule cited two ways. Both now say
    the order and end on the rule."""
    duel = [fighter("Aldric", "Compagnie", init=2), fighter("Corentin", "Compagnie", init=1),
            fighter("Gobelin 1", "Gobelins", init=1), fighter("Gobelin 2", "Gobelins", init=1)]
    lines = d12.initiative(duel, ScriptedRolls([5, 6, 5, 5, 8, 3])).narration()
    assert ("Groupe « Compagnie » : égalité à 7, départagée au bonus (Aldric +2, "
            "Corentin +1), d’où l’ordre Aldric, Corentin (D12-INIT-4).") in [
        line.replace("\u00a0", " ") for line in lines]
    ties = [line for line in lines if "égalité à" in line]
    assert len(ties) == 2 and all(line.endswith("(D12-INIT-4).") for line in ties)
    assert all("(D12-INIT-4) :" not in line for line in lines)


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


def test_environment_speaks_of_a_tie_only_when_there_is_one_d12_init_5() -> None:
    """D12-INIT-5: the environment's line names the group it follows only when a group
    is at exactly 12. Aldric 5 + 2 = 7, Brune 3, Grolk 9 + 1 = 10: nobody at 12."""
    enc = Encounter("d12", party())
    enc.start(ScriptedRolls([5, 3, 9]), environnement=True)
    assert enc.state.order == [ENVIRONMENT, "Grolk", "Aldric", "Brune"]
    line = next(e for e in enc.log if e.kind == "environnement")
    assert "égalité" not in line.text
