"""System « Rulebook » (RULES.md RB-*): pure rules, the encounter.

Every expected value below is derived by hand from the rules (the comments show how);
the dice are fixed with ``ScriptedRolls``. The golden fights are in
``tests/golden/rulebook.json``, played by the generic runner (``tests/test_golden.py``).
"""

from __future__ import annotations

import collections
import json
import random
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import Combatant, Effect, EscarmoucheError, Timing
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter, EndCondition
from escarmouche.errors import IllegalActionError, ParameterError, RuleBoundError
from escarmouche.model import Event
from escarmouche.systems import rulebook as rb


def fighter(
    name: str,
    side: str,
    hab: int,
    *,
    dis: int = 50,
    pmr: int = 50,
    pv: int = 10,
    esprit: int = 10,
    traits: Iterable[str] = (),
    **extra: int,
) -> Combatant:
    stats = {"HAB": hab, "DIS": dis, "PMR": pmr, "PV": pv, "Esprit": esprit, **extra}
    return Combatant(name, side, stats, traits=frozenset(traits))


def names(init: rb.Initiative) -> list[str]:
    return list(init.order)


def events(enc: Encounter, kind: str) -> list[Event]:
    return [e for e in enc.log if e.kind == kind]


def activations(enc: Encounter) -> dict[int, list[str]]:
    out: dict[int, list[str]] = collections.defaultdict(list)
    for e in enc.log:
        if e.kind == "activation":
            out[e.turn].append(e.actor or "")
    return dict(out)


# =======================================================================================
# RB-D100-1: the D100 test
# =======================================================================================


def test_d100_success_and_margin_rb_d100_1() -> None:
    """RB-D100-1: success if roll ≤ stat; margin = stat − roll."""
    r = rb.d100_test(60, 23)
    assert (r.success, r.margin, r.critical) == (True, 37, None)
    assert rb.d100_test(60, 60).success and rb.d100_test(60, 60).margin == 0
    r = rb.d100_test(60, 61)
    assert (r.success, r.margin, r.critical) == (False, -1, None)
    assert r.rules == ("RB-D100-1",)


def test_d100_criticals_win_over_the_stat_rb_d100_1() -> None:
    """RB-D100-1: a critical success always succeeds, a critical failure always fails;
    the margin is stat − roll either way (defaults 5 and 96)."""
    r = rb.d100_test(0, 5)
    assert (r.success, r.margin, r.critical) == (True, -5, "success")
    assert not rb.d100_test(0, 6).success
    r = rb.d100_test(100, 96)
    assert (r.success, r.margin, r.critical) == (False, 4, "failure")
    assert rb.d100_test(100, 95).success and rb.d100_test(100, 95).critical is None
    assert rb.d100_test(150, 100).critical == "failure"
    assert rb.d100_test(-20, 1).success


def test_d100_thresholds_are_options_rb_d100_1() -> None:
    """RB-D100-1: ``crit_success_max`` / ``crit_failure_min`` are Rules options."""
    rules = rb.Rules(crit_success_max=1, crit_failure_min=100)
    assert rb.d100_test(50, 2, rules).critical is None
    assert rb.d100_test(50, 1, rules).critical == "success"
    assert rb.d100_test(100, 99, rules).success
    assert rb.d100_test(100, 100, rules).critical == "failure"
    none = rb.Rules(crit_success_max=0, crit_failure_min=101)
    assert rb.d100_test(0, 1, none).critical is None and not rb.d100_test(0, 1, none).success


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"crit_success_max": -1}, "crit_success_max"),
        ({"crit_failure_min": 102}, "crit_failure_min"),
        ({"crit_success_max": 50, "crit_failure_min": 50}, "crit_failure_min"),
        ({"crit_success_max": True}, "crit_success_max"),
        ({"surprise_aggregate": "median"}, "surprise_aggregate"),
        ({"hyperactive_slot": "random"}, "hyperactive_slot"),
        ({"extra_traits": "nain"}, "extra_traits"),
    ],
)
def test_rules_options_are_checked_rb_d100_1(kwargs: dict[str, Any], field: str) -> None:
    """RB-D100-1 / RB-SURPRISE-2 / RB-SPEED-3: bad options raise a French error."""
    with pytest.raises(EscarmoucheError) as err:
        rb.Rules(**kwargs)
    assert err.value.field == field
    assert field in str(err.value)


def test_d100_bad_roll_rb_d100_1() -> None:
    with pytest.raises(EscarmoucheError, match=r"jet = 0\u00a0.*RB-D100-1"):
        rb.d100_test(50, 0)
    with pytest.raises(EscarmoucheError, match="RB-D100-1"):
        rb.d100_test(50, 101)
    with pytest.raises(EscarmoucheError, match="stat"):
        rb.d100_test("50", 10)  # type: ignore[arg-type]


def test_roll_d100_test_draws_one_d100() -> None:
    rng = ScriptedRolls([42])
    assert rb.roll_d100_test(50, rng).margin == 8
    assert rng.used == 1


@settings(max_examples=200, deadline=None)
@given(st.integers(-50, 150), st.integers(1, 100), st.integers(0, 100), st.integers(1, 101))
def test_d100_property_rb_d100_1(stat: int, roll: int, lo: int, hi: int) -> None:
    """RB-D100-1 as a property: the definition, for every threshold pair."""
    if lo >= hi:
        return
    rules = rb.Rules(crit_success_max=lo, crit_failure_min=hi)
    r = rb.d100_test(stat, roll, rules)
    assert r.margin == stat - roll
    if roll <= lo:
        assert r.critical == "success" and r.success
    elif roll >= hi:
        assert r.critical == "failure" and not r.success
    else:
        assert r.critical is None and r.success == (roll <= stat)


@settings(max_examples=100, deadline=None)
@given(st.integers(-10, 110), st.integers(0, 100), st.integers(1, 101))
def test_d100_odds_match_enumeration_rb_d100_1(stat: int, lo: int, hi: int) -> None:
    """Exact odds agree with the enumeration of the 100 faces; they sum to 1."""
    if lo >= hi:
        return
    rules = rb.Rules(crit_success_max=lo, crit_failure_min=hi)
    odds = rb.d100_odds(stat, rules)
    results = [rb.d100_test(stat, r, rules) for r in range(1, 101)]
    assert odds.success == Fraction(sum(r.success for r in results), 100)
    assert odds.critical_success == Fraction(
        sum(r.critical == "success" for r in results), 100)
    assert odds.critical_failure == Fraction(
        sum(r.critical == "failure" for r in results), 100)
    assert odds.success + odds.failure == 1


def test_d100_odds_by_hand() -> None:
    # stat 60: rolls 1–60 succeed (1–5 critical); 96–100 critical failures
    odds = rb.d100_odds(60)
    assert odds == rb.D100Odds(Fraction(5, 100), Fraction(60, 100), Fraction(40, 100),
                               Fraction(5, 100))
    assert rb.d100_odds(100).success == Fraction(95, 100)
    assert rb.d100_odds(0).success == Fraction(5, 100)


# =======================================================================================
# RB-INIT-1, RB-INIT-2: the initiative order and its ties
# =======================================================================================


def test_initiative_one_d100_per_combatant_in_given_order_rb_init_1() -> None:
    """RB-INIT-1: every character rolls a D100 test on HAB, in the given order."""
    roster = [fighter("A", "x", 50), fighter("B", "x", 70), fighter("C", "y", 40)]
    rng = ScriptedRolls([30, 60, 10])
    init = rb.initiative(roster, rng)
    assert rng.used == 3
    assert [(r.name, r.test.roll, r.test.margin) for r in init.rolls] == [
        ("A", 30, 20), ("B", 60, 10), ("C", 10, 30)]
    # margins 20, 10, 30 → C, A, B (RB-INIT-2)
    assert names(init) == ["C", "A", "B"]
    assert init.ties == ()
    assert "RB-INIT-1" in init.rules


def test_initiative_ignores_skills_rb_init_1() -> None:
    """RB-INIT-1: no skill modifies the initiative roll."""
    plain = [fighter("A", "x", 50), fighter("B", "y", 50)]
    skilled = [Combatant("A", "x", plain[0].stats, skills={"esquive", "initiative"}),
               plain[1]]
    a = rb.initiative(plain, ScriptedRolls([40, 20]))
    b = rb.initiative(skilled, ScriptedRolls([40, 20]))
    assert a.order == b.order == ("B", "A")
    assert a.rolls[0].test == b.rolls[0].test


@pytest.mark.parametrize(
    ("stats", "field", "pattern"),
    [
        ({"DIS": 50}, "HAB", r"HAB = rien\u00a0: caractéristique requise pour Aldric .*RB-INIT-1"),
        ({"HAB": 140}, "HAB", r"HAB = 140\u00a0: un nombre entier entre 0 et 100 .* pour Aldric"),
        ({"HAB": -1}, "HAB", r"HAB = −1\u00a0: .* pour Aldric"),
    ],
)
def test_initiative_bad_hab_rb_init_1(stats: dict[str, int], field: str, pattern: str) -> None:
    """RB-INIT-1: a missing HAB or one outside 0–100 is refused, naming the combatant."""
    rng = ScriptedRolls([50])
    with pytest.raises(EscarmoucheError, match=pattern) as err:
        rb.initiative([Combatant("Aldric", "x", stats)], rng)
    assert err.value.field == field
    assert rng.used == 0  # nothing drawn before the check


def test_initiative_unknown_trait_rb_speed_1() -> None:
    """An unknown trait is refused (naming the combatant); ``extra_traits`` admits it."""
    c = fighter("Aldric", "x", 50, traits={"nain"})
    with pytest.raises(EscarmoucheError, match=(r"trait = «\u00a0nain\u00a0»\u00a0: trait inconnu "
                                                r".* pour Aldric")):
        rb.initiative([c], ScriptedRolls([50]))
    init = rb.initiative([c], ScriptedRolls([50]), rules=rb.Rules(extra_traits=frozenset({"nain"})))
    assert init.order == ("Aldric",)


def test_initiative_bad_roster() -> None:
    with pytest.raises(EscarmoucheError, match="au moins un"):
        rb.initiative([], ScriptedRolls([]))
    with pytest.raises(EscarmoucheError, match="unique"):
        rb.initiative([fighter("A", "x", 5), fighter("A", "y", 5)], ScriptedRolls([1, 2]))
    with pytest.raises(EscarmoucheError, match="surprise_by = «\u00a0z\u00a0»"):
        rb.initiative([fighter("A", "x", 5)], ScriptedRolls([1]), surprise_by="z")


def test_critical_successes_first_rb_init_2() -> None:
    """RB-INIT-2: critical successes first (even with a lower margin), then margins."""
    roster = [fighter("A", "x", 90), fighter("B", "y", 10), fighter("C", "y", 80)]
    # A 90−10 = 80; B 10−4 = 6 critical; C 80−2 = 78 critical
    init = rb.initiative(roster, ScriptedRolls([10, 4, 2]))
    assert names(init) == ["C", "B", "A"]  # criticals by margin (78, 6), then A


def test_critical_failures_ranked_by_margin_rb_init_2() -> None:
    """RB-INIT-2: a critical failure is ranked by its margin like the others."""
    roster = [fighter("A", "x", 100), fighter("B", "y", 30)]
    # A 100−97 = 3 (critical failure); B 30−50 = −20
    init = rb.initiative(roster, ScriptedRolls([97, 50]))
    assert names(init) == ["A", "B"]
    assert init.late == ("A",)


def test_tie_broken_by_hab_rb_init_2() -> None:
    """RB-INIT-2: equal margins → the higher HAB first, no roll-off."""
    roster = [fighter("A", "x", 60), fighter("B", "y", 70)]
    rng = ScriptedRolls([40, 50])  # both margin 20
    init = rb.initiative(roster, rng)
    assert names(init) == ["B", "A"]
    assert rng.used == 2
    (tie,) = init.ties
    assert tie.names == ("A", "B") and tie.margin == 20 and tie.rounds == ()
    assert tie.habs == (("A", 60), ("B", 70))
    assert "HAB" in tie.text


def test_tie_broken_by_rolloff_rb_init_2() -> None:
    """RB-INIT-2: equal margin and HAB → a d100 roll-off, the higher roll first."""
    roster = [fighter("A", "x", 50), fighter("B", "y", 50)]
    rng = ScriptedRolls([30, 30, 40, 70])
    init = rb.initiative(roster, rng)
    assert names(init) == ["B", "A"]
    assert init.roll_of("A").rolloffs == (40,) and init.roll_of("B").rolloffs == (70,)
    (tie,) = init.ties
    assert tie.rounds == ((("A", 40), ("B", 70)),)
    assert tie.order == ("B", "A")


def test_rolloff_repeated_until_broken_rb_init_2() -> None:
    """RB-INIT-2: roll-offs repeat for the still-tied combatants only."""
    roster = [fighter(n, "x", 50) for n in "ABC"]
    # round 1: A 50, B 50, C 20 → C last; round 2 (A, B only): A 10, B 90
    rng = ScriptedRolls([30, 30, 30, 50, 50, 20, 10, 90])
    init = rb.initiative(roster, rng)
    assert names(init) == ["B", "A", "C"]
    assert rng.remaining == 0
    (tie,) = init.ties
    assert tie.rounds == ((("A", 50), ("B", 50), ("C", 20)), (("A", 10), ("B", 90)))
    assert init.roll_of("C").rolloffs == (20,)


def test_rolloff_rounds_interleave_tie_groups_in_given_order_rb_init_2() -> None:
    """RB-INIT-2: each round, every still-tied combatant of every group rolls, in the
    given order."""
    roster = [fighter("A", "x", 50), fighter("B", "x", 40), fighter("C", "y", 50),
              fighter("D", "y", 40)]
    # margins A 20, B 10, C 20, D 10 → groups {A, C} and {B, D}
    # round 1 in given order A 10, B 60, C 70, D 60 → C, A ; B and D still tied
    # round 2: B 5, D 6 → D, B
    rng = ScriptedRolls([30, 30, 30, 30, 10, 60, 70, 60, 5, 6])
    init = rb.initiative(roster, rng)
    assert names(init) == ["C", "A", "D", "B"]
    first, second = init.ties
    assert first.order == ("C", "A") and first.rounds == ((("A", 10), ("C", 70)),)
    assert second.rounds == ((("B", 60), ("D", 60)), (("B", 5), ("D", 6)))


def test_rolloff_bound_rb_init_2() -> None:
    """RB-INIT-2: « repeated until broken » is bounded (a named error, not a hang)."""
    roster = [fighter("A", "x", 50), fighter("B", "y", 50)]
    rng = ScriptedRolls([30, 30] + [50, 50] * rb.MAX_ROLLOFF_ROUNDS)
    with pytest.raises(RuleBoundError, match="RB-INIT-2"):
        rb.initiative(roster, rng)


def test_resolve_initiative_pure_rb_init_2() -> None:
    """The pure form: the same result from the dice typed by hand."""
    roster = [fighter("A", "x", 50), fighter("B", "y", 50)]
    a = rb.resolve_initiative(roster, [30, 30], [40, 70])
    b = rb.initiative(roster, ScriptedRolls([30, 30, 40, 70]))
    assert a == b
    with pytest.raises(EscarmoucheError, match="manche 1"):
        rb.resolve_initiative(roster, [30, 30], [40])
    with pytest.raises(EscarmoucheError, match="seules 2"):
        rb.resolve_initiative(roster, [30, 30], [40, 70, 3])
    with pytest.raises(EscarmoucheError, match="un d100 par combattant"):
        rb.resolve_initiative(roster, [30])
    with pytest.raises(EscarmoucheError, match="RB-INIT-2"):
        rb.resolve_initiative(roster, [30, 30], [0, 70])


# =======================================================================================
# RB-INIT-3, RB-INIT-4: turn 0 and late starters
# =======================================================================================


def test_critical_success_plays_turn_0_rb_init_3() -> None:
    """RB-INIT-3: a critical success gets an extra activation in turn 0, before turn 1."""
    roster = [fighter("A", "x", 50), fighter("B", "y", 50), fighter("C", "y", 50)]
    init = rb.initiative(roster, ScriptedRolls([30, 3, 20]))
    assert init.turn(0) == ["B"]
    assert init.turn(1) == ["B", "C", "A"]
    (z,) = init.turn_zero_reasons
    assert z.rules == ("RB-INIT-3",) and z.included


def test_no_turn_0_without_criticals_rb_init_3() -> None:
    init = rb.initiative([fighter("A", "x", 50)], ScriptedRolls([30]))
    assert init.turn(0) == [] and init.turn(1) == ["A"]


def test_critical_failure_starts_turn_2_rb_init_4() -> None:
    """RB-INIT-4: a critical failure acts only from turn 2 (not in turn 0 nor 1)."""
    roster = [fighter("A", "x", 50), fighter("B", "y", 50), fighter("C", "y", 50)]
    init = rb.initiative(roster, ScriptedRolls([2, 99, 20]))
    assert init.late == ("B",)
    assert init.turn(0) == ["A"]
    assert init.turn(1) == ["A", "C"]
    assert init.turn(2) == ["A", "C", "B"]  # B ranked by margin −49
    assert init.turn(7) == init.turn(2)
    with pytest.raises(EscarmoucheError, match="RB-TURN-1"):
        init.turn(-1)


# =======================================================================================
# RB-SURPRISE-1..3
# =======================================================================================


def test_surprise_needs_unaware_defenders_rb_surprise_1() -> None:
    """RB-SURPRISE-1 (a): aware defenders → no surprise attack, and no dice drawn."""
    rng = ScriptedRolls([])
    att, dfd = [fighter("G", "m", 50, dis=90)], [fighter("A", "h", 50, pmr=5)]
    assert rb.surprise(att, dfd, rng, unaware=False) is False
    assert rng.used == 0
    res = rb.roll_surprise(att, dfd, rng, unaware=False)
    assert res.attack is None and res.rules == ("RB-SURPRISE-1",)


def test_surprise_needs_the_opposed_test_rb_surprise_1() -> None:
    """RB-SURPRISE-1 (b): unaware defenders, but the attackers must win DIS vs PMR."""
    att, dfd = [fighter("G", "m", 50, dis=40)], [fighter("A", "h", 50, pmr=50)]
    # attackers' d100 first: 10 → margin 30; defenders' 60 → margin −10: success
    assert rb.surprise(att, dfd, ScriptedRolls([10, 60]), unaware=True) is True
    # 60 → −20 ; 10 → 40: failure
    assert rb.surprise(att, dfd, ScriptedRolls([60, 10]), unaware=True) is False


def test_surprise_opposed_test_ties_to_defenders_rb_surprise_2() -> None:
    """RB-SURPRISE-2: higher margin wins; the defenders win ties."""
    att, dfd = [fighter("G", "m", 50, dis=40)], [fighter("A", "h", 50, pmr=50)]
    res = rb.roll_surprise(att, dfd, ScriptedRolls([20, 30]), unaware=True)  # 20 vs 20
    assert not res.success
    assert res.attack is not None and res.defence is not None
    assert res.attack.margin == res.defence.margin == 20
    assert "égalité" in res.text


def test_surprise_aggregate_options_rb_surprise_2() -> None:
    """RB-SURPRISE-2: the group value is the option ``surprise_aggregate``."""
    att = [fighter("G1", "m", 50, dis=70), fighter("G2", "m", 50, dis=31)]
    dfd = [fighter("A1", "h", 50, pmr=20), fighter("A2", "h", 50, pmr=60)]
    weakest = rb.roll_surprise(att, dfd, ScriptedRolls([40, 40]), unaware=True)
    assert (weakest.attack_stat, weakest.attack_from) == (31, ("G2",))
    assert (weakest.defence_stat, weakest.defence_from) == (60, ("A2",))
    assert not weakest.success  # 31−40 = −9 against 60−40 = 20
    leader = rb.roll_surprise(att, dfd, ScriptedRolls([40, 40]), unaware=True,
                              rules=rb.Rules(surprise_aggregate="leader"))
    assert (leader.attack_stat, leader.defence_stat) == (70, 20)  # first listed
    assert leader.success  # 30 against −20
    mean = rb.roll_surprise(att, dfd, ScriptedRolls([40, 40]), unaware=True,
                            rules=rb.Rules(surprise_aggregate="mean"))
    assert (mean.attack_stat, mean.defence_stat) == (50, 40)  # 101 // 2, 80 // 2
    assert mean.success  # 10 against 0


def test_surprise_bad_input_rb_surprise_1() -> None:
    """Missing DIS (attackers) or PMR (defenders) is refused, naming the combatant."""
    no_dis = Combatant("Grolk", "m", {"HAB": 50})
    ok = fighter("A", "h", 50)
    with pytest.raises(EscarmoucheError, match=(r"DIS = rien\u00a0: caractéristique requise pour "
                                                r"Grolk")):
        rb.surprise([no_dis], [ok], ScriptedRolls([1, 1]), unaware=True)
    with pytest.raises(EscarmoucheError, match=(r"PMR = rien\u00a0: caractéristique requise pour "
                                                r"Grolk")):
        rb.surprise([ok], [no_dis], ScriptedRolls([1, 1]), unaware=True)
    with pytest.raises(EscarmoucheError, match=r"PMR = 101\u00a0: .* pour B"):
        rb.surprise([ok], [fighter("B", "h", 5, pmr=101)], ScriptedRolls([1, 1]),
                    unaware=True)
    with pytest.raises(EscarmoucheError, match="attaquants"):
        rb.surprise([], [ok], ScriptedRolls([]), unaware=True)
    with pytest.raises(EscarmoucheError, match="unaware"):
        rb.surprise([ok], [fighter("B", "h", 5)], ScriptedRolls([]), unaware="oui")  # type: ignore[arg-type]


def test_surprise_odds_by_hand_rb_surprise_2() -> None:
    """RB-SURPRISE-2: equal values → the attackers need a strictly better margin:
    (1 − P(equal rolls)) / 2 = (1 − 1/100) / 2 = 99/200."""
    assert rb.surprise_odds(50, 50) == Fraction(99, 200)
    assert rb.surprise_odds(0, 200) == 0
    assert rb.surprise_odds(200, 0) == 1


def test_surprise_chance_of_groups_rb_surprise_2() -> None:
    """RB-SURPRISE-1/2: aware defenders → 0; else the odds of the group values."""
    att = [fighter("G1", "m", 50, dis=70), fighter("G2", "m", 50, dis=31)]
    dfd = [fighter("A1", "h", 50, pmr=20), fighter("A2", "h", 50, pmr=60)]
    assert rb.surprise_chance(att, dfd, unaware=False) == 0
    assert rb.surprise_chance(att, dfd, unaware=True) == rb.surprise_odds(31, 60)
    leader = rb.Rules(surprise_aggregate="leader")
    assert rb.surprise_chance(att, dfd, unaware=True, rules=leader) == rb.surprise_odds(70, 20)


@pytest.mark.parametrize(("a", "d"), [(40, 55), (70, 20), (0, 100), (100, 0), (33, 33)])
def test_surprise_odds_match_enumeration_rb_surprise_2(a: int, d: int) -> None:
    """Exact odds agree with the enumeration of every pair of d100."""
    att, dfd = [fighter("G", "m", 50, dis=a)], [fighter("A", "h", 50, pmr=d)]
    wins = sum(
        rb.resolve_surprise(att, dfd, x, y, unaware=True).success
        for x in range(1, 101) for y in range(1, 101)
    )
    assert rb.surprise_odds(a, d) == Fraction(wins, 10_000)


def test_surprise_turn_0_participants_rb_surprise_3() -> None:
    """RB-SURPRISE-3: the attackers (except critical failures), the defenders with a
    critical success, the anti-surprise characters (not on a critical failure)."""
    roster = [
        fighter("A1", "m", 50), fighter("A2", "m", 50), fighter("A3", "m", 50),
        fighter("D1", "h", 50), fighter("D2", "h", 50),
        fighter("D3", "h", 50, traits={"anti_surprise"}),
        fighter("D4", "h", 50, traits={"anti_surprise"}),
    ]
    # A1 30 (m20), A2 99 (crit fail), A3 3 (crit), D1 20 (m30), D2 2 (crit),
    # D3 40 (m10), D4 97 (crit fail)
    init = rb.initiative(roster, ScriptedRolls([30, 99, 3, 20, 2, 40, 97]), surprise_by="m")
    # order: criticals D2 (48) then A3 (47); then D1 30, A1 20, D3 10, D4 −47, A2 −49
    assert names(init) == ["D2", "A3", "D1", "A1", "D3", "D4", "A2"]
    assert init.turn(0) == ["D2", "A3", "A1", "D3"]
    assert init.turn(1) == ["D2", "A3", "D1", "A1", "D3"]
    excluded = {z.name: z for z in init.turn_zero_reasons if not z.included}
    assert set(excluded) == {"A2", "D4"}
    assert "RB-INIT-4" in excluded["A2"].rules
    reasons = {z.name: z.rules for z in init.turn_zero_reasons if z.included}
    assert reasons["A1"] == ("RB-SURPRISE-3",)
    assert reasons["A3"] == ("RB-SURPRISE-3", "RB-INIT-3")
    assert reasons["D2"] == ("RB-INIT-3",)
    assert reasons["D3"] == ("RB-SURPRISE-3",)


def test_surprise_turn_0_follows_speed_order_once_rb_surprise_3() -> None:
    """RB-SURPRISE-3: turn 0 follows the order after RB-SPEED-3, each participant once
    (no second Hyperactivité activation in turn 0)."""
    roster = [fighter("A", "m", 50, traits={"hyperactivite"}), fighter("B", "m", 50),
              fighter("D", "h", 50, traits={"anti_surprise", "toujours_premier"})]
    init = rb.initiative(roster, ScriptedRolls([10, 20, 30]), surprise_by="m")
    # margins A 40, B 30, D 20; D Toujours premier → D, A, B
    assert init.turn(0) == ["D", "A", "B"]
    assert init.turn(1) == ["D", "A", "A", "B"]


def test_surprise_empty_turn_0_rb_surprise_3() -> None:
    """RB-SURPRISE-3: turn 0 is empty when nobody qualifies."""
    roster = [fighter("A", "m", 50), fighter("D", "h", 50)]
    init = rb.initiative(roster, ScriptedRolls([98, 20]), surprise_by="m")
    assert init.turn(0) == []
    assert init.turn(1) == ["D"] and init.turn(2) == ["D", "A"]


def test_anti_surprise_useless_without_surprise_rb_surprise_3() -> None:
    roster = [fighter("A", "m", 50), fighter("D", "h", 50, traits={"anti_surprise"})]
    assert rb.initiative(roster, ScriptedRolls([10, 20])).turn(0) == []


# =======================================================================================
# RB-SPEED-1..3: speed effects
# =======================================================================================


def test_six_speed_effects_are_data_rb_speed_1() -> None:
    """RB-SPEED-1: the six effects, each with its opposite (RB-SPEED-2), as data."""
    assert set(rb.SPEED_EFFECTS) == {"hyperactivite", "hypoactivite", "toujours_premier",
                                     "toujours_dernier", "depassement", "depasse"}
    for k, v in rb.SPEED_EFFECTS.items():
        assert rb.SPEED_EFFECTS[v.opposite].opposite == k


def test_resolve_hypoactivity_rb_speed_1() -> None:
    """RB-SPEED-1: Hypoactivité rolls 1d4; on a 4 the character cannot act."""
    assert [rb.resolve_hypoactivity(d).can_act for d in (1, 2, 3, 4)] == [True, True, True,
                                                                        False]
    with pytest.raises(EscarmoucheError, match="RB-SPEED-1"):
        rb.resolve_hypoactivity(5)


def src(*effects: str) -> list[rb.SpeedSource]:
    return [rb.SpeedSource(e, f"e{i}") for i, e in enumerate(effects)]


def test_opposite_effects_cancel_pair_by_pair_rb_speed_2() -> None:
    """RB-SPEED-2: opposite effects cancel, pair by pair."""
    p = rb.resolve_speed("A", src("hyperactivite", "hypoactivite"))
    assert p.active == frozenset() and p.cancelled == (("hyperactivite", "hypoactivite", 1),)
    # two Hyperactivité against one Hypoactivité: one pair cancels, Hyperactivité remains
    p = rb.resolve_speed("A", src("hyperactivite", "hyperactivite", "hypoactivite"))
    assert p.active == {"hyperactivite"}
    p = rb.resolve_speed("A", src("toujours_premier", "toujours_dernier", "depasse",
                                  "depasse", "depassement", "depassement"))
    assert p.active == frozenset()
    assert p.cancelled == (("toujours_premier", "toujours_dernier", 1),
                           ("depassement", "depasse", 2))
    # unrelated effects do not cancel
    p = rb.resolve_speed("A", src("hyperactivite", "toujours_dernier"))
    assert p.active == {"hyperactivite", "toujours_dernier"}
    with pytest.raises(EscarmoucheError, match="RB-SPEED-1"):
        rb.resolve_speed("A", src("rapide"))


def test_cancelled_traits_leave_the_order_alone_rb_speed_2() -> None:
    roster = [fighter("A", "x", 50), fighter("B", "x", 50,
                                             traits={"toujours_premier", "toujours_dernier"})]
    init = rb.initiative(roster, ScriptedRolls([10, 20]))
    assert init.turn(2) == ["A", "B"]
    assert any(s.rule == "RB-SPEED-2" and s.name == "B" for s in init.speed.steps)


def order(base: str, effects: Mapping[str, set[str]], **rules: Any) -> str:
    """apply_speed on one-letter names, as a string (« ABC »)."""
    result = rb.apply_speed(list(base), {k: frozenset(v) for k, v in effects.items()},
                            rb.Rules(**rules))
    return "".join(result.slots())


def test_toujours_premier_dernier_keep_relative_order_rb_speed_3() -> None:
    """RB-SPEED-3: several Toujours premier (dernier) keep their relative order."""
    first = {"toujours_premier"}
    last = {"toujours_dernier"}
    assert order("ABCD", {"B": first, "D": first}) == "BDAC"
    assert order("ABCD", {"A": last, "C": last}) == "BDAC"
    assert order("ABCDE", {"E": first, "A": last, "B": first}) == "BECDA"


def test_depassement_one_place_rb_speed_3() -> None:
    """RB-SPEED-3: Dépassement acts before the character just before; Dépassé after the
    character just after."""
    assert order("ABC", {"C": {"depassement"}}) == "ACB"
    assert order("ABC", {"A": {"depasse"}}) == "BAC"


def test_first_cannot_overtake_last_cannot_be_overtaken_rb_speed_3() -> None:
    """RB-SPEED-3: the first cannot overtake; the last cannot be overtaken."""
    res = rb.apply_speed(["A", "B"], {"A": {"depassement"}, "B": {"depasse"}})
    assert res.order == ("A", "B")
    texts = [s.text for s in res.steps if not s.applied]
    assert any("premier de l’ordre" in t for t in texts)
    assert any("dernier de l’ordre" in t for t in texts)


def test_each_character_moves_at_most_one_place_rb_speed_3() -> None:
    """RB-SPEED-3: a swap happens only if neither of the two has moved yet."""
    # C overtakes B; D would overtake B, but B has already moved
    assert order("ABCD", {"C": {"depassement"}, "D": {"depassement"}}) == "ACBD"
    res = rb.apply_speed(list("ABCD"), {"C": {"depassement"}, "D": {"depassement"}})
    refused = [s for s in res.steps if s.effect == "depassement" and not s.applied]
    assert [(s.name, s.other) for s in refused] == [("D", "B")]


def test_depassement_applied_from_the_top_rb_speed_3() -> None:
    """RB-SPEED-3: one character at a time from the top of the order.

    B and C both have Dépassement: B (higher) goes first and swaps with A; C's swap with
    A is refused (A has moved). From the bottom, C would have passed B instead (ACB).
    """
    assert order("ABC", {"B": {"depassement"}, "C": {"depassement"}}) == "BAC"
    # A and B both Dépassé: A passes behind B; B has moved, its own Dépassé is void
    assert order("ABC", {"A": {"depasse"}, "B": {"depasse"}}) == "BAC"
    # A Dépassé, C Dépassement: A swaps with B first; then C may not pass A (moved)
    assert order("ABC", {"A": {"depasse"}, "C": {"depassement"}}) == "BAC"
    # B Dépassé and C Dépassement want the same swap: it happens once
    res = rb.apply_speed(list("ABC"), {"B": {"depasse"}, "C": {"depassement"}})
    assert res.order == ("A", "C", "B")
    assert [s.applied for s in res.steps if s.effect in ("depasse", "depassement")] == [
        True, False]


def test_first_last_before_depassement_rb_speed_3() -> None:
    """RB-SPEED-3: Toujours premier / dernier first, then Dépassement.

    B Toujours premier, C Dépassement: BAC, then C overtakes A → BCA (the other order
    of application would give BAC).
    """
    assert order("ABC", {"B": {"toujours_premier"}, "C": {"depassement"}}) == "BCA"
    res = rb.apply_speed(list("ABC"), {"B": {"toujours_premier"}, "C": {"depassement"}})
    assert res.after_first_last == ("B", "A", "C")


def test_hyperactive_slot_option_rb_speed_3() -> None:
    """RB-SPEED-3: Hyperactivité adds a second activation, right after the first
    (default) or at the end of the turn (option ``hyperactive_slot``)."""
    assert order("ABC", {"A": {"hyperactivite"}}) == "AABC"
    assert order("ABC", {"A": {"hyperactivite"}}, hyperactive_slot="end_of_turn") == "ABCA"
    assert order("ABCD", {"A": {"hyperactivite"}, "C": {"hyperactivite"},
                          "B": {"toujours_dernier"}},
                 hyperactive_slot="end_of_turn") == "ACDBAC"
    # the second activation comes after the speed moves
    assert order("ABC", {"C": {"hyperactivite", "depassement"}}) == "ACCB"


def test_speed_from_traits_in_initiative_rb_speed_3() -> None:
    roster = [fighter("A", "x", 50), fighter("B", "x", 50, traits={"toujours_dernier"}),
              fighter("C", "y", 50, traits={"hyperactivite"})]
    init = rb.initiative(roster, ScriptedRolls([10, 20, 30]))
    assert init.order == ("A", "B", "C")
    assert init.turn(1) == ["A", "C", "C", "B"]
    assert any("Toujours dernier" in line for line in init.explain())
    assert "RB-SPEED-3" in init.rules


def test_apply_speed_rejects_duplicates() -> None:
    with pytest.raises(EscarmoucheError, match="RB-SPEED-3"):
        rb.apply_speed(["A", "A"], {})


speed_sets = st.dictionaries(
    st.sampled_from("ABCDEFG"),
    st.frozensets(st.sampled_from(sorted(rb.SPEED_EFFECTS)), max_size=3),
    max_size=7,
)


@settings(max_examples=300, deadline=None)
@given(st.permutations("ABCDEFG"), speed_sets, st.sampled_from(["consecutive", "end_of_turn"]))
def test_apply_speed_properties_rb_speed_3(
    base: list[str], effects: dict[str, frozenset[str]], slot: str
) -> None:
    """RB-SPEED-3 invariants: a permutation; premiers on top and derniers at the bottom
    after step 1; step 2 only swaps disjoint adjacent pairs; Hyperactivité doubles."""
    res = rb.apply_speed(base, effects, rb.Rules(hyperactive_slot=slot))
    active = {p.name: p.active for p in res.profiles}
    assert sorted(res.order) == sorted(base)
    staged = list(res.after_first_last)
    firsts = [n for n in base if "toujours_premier" in active.get(n, ())]
    lasts = [n for n in base if "toujours_dernier" in active.get(n, ())]
    assert staged[: len(firsts)] == firsts
    assert staged[len(staged) - len(lasts):] == lasts
    moved = [i for i, (x, y) in enumerate(zip(staged, res.order, strict=True)) if x != y]
    pairs = [moved[i: i + 2] for i in range(0, len(moved), 2)]
    for i, j in pairs:
        assert j == i + 1 and staged[i] == res.order[j] and staged[j] == res.order[i]
    slots = res.slots()
    count = collections.Counter(slots)
    for n in base:
        assert count[n] == (2 if "hyperactivite" in active.get(n, ()) else 1)
    assert [n for i, n in enumerate(slots) if n not in slots[:i]] == list(res.order)


# =======================================================================================
# Initiative properties (Hypothesis)
# =======================================================================================


class CoarseRng:
    """A seeded rng that only shows a few faces: ties and criticals become common."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.used = 0

    def randint(self, a: int, b: int) -> int:
        self.used += 1
        return self.rng.choice([a, (a + b) // 2, (a + b) // 2 + 1, b, 3])


rosters = st.lists(
    st.tuples(st.integers(0, 100), st.sampled_from(["x", "y"]),
              st.frozensets(st.sampled_from(sorted(rb.KNOWN_TRAITS)), max_size=2)),
    min_size=1, max_size=7,
).map(lambda rows: [fighter(f"P{i}", side, hab, traits=t)
                    for i, (hab, side, t) in enumerate(rows)])


@settings(max_examples=300, deadline=None)
@given(rosters, st.integers(0, 2**32), st.sampled_from([None, "x", "y"]))
def test_initiative_properties_rb_init_2(
    roster: list[Combatant], seed: int, surprise_by: str | None
) -> None:
    """RB-INIT-2..4 invariants: the order is a permutation, sorted by (critical, margin,
    HAB, roll-offs); the draws are one per combatant plus the roll-offs; turns 0 and 1
    follow RB-INIT-3/4 and RB-SURPRISE-3."""
    if surprise_by is not None and surprise_by not in {c.side for c in roster}:
        surprise_by = None
    rng = CoarseRng(seed)
    init = rb.initiative(roster, rng, surprise_by=surprise_by)
    assert sorted(init.order) == sorted(c.name for c in roster)
    assert rng.used == len(roster) + sum(len(r.rolloffs) for r in init.rolls)
    rolls = {r.name: r for r in init.rolls}
    for a, b in zip(init.order, init.order[1:], strict=False):
        ra, rb_ = rolls[a], rolls[b]
        ka = (ra.test.critical != "success", -ra.test.margin, -ra.hab)
        kb = (rb_.test.critical != "success", -rb_.test.margin, -rb_.hab)
        assert ka <= kb
        if ka == kb:  # decided by the first roll-off where they differ
            diff = next(i for i, (x, y) in enumerate(zip(ra.rolloffs, rb_.rolloffs,
                                                         strict=False)) if x != y)
            assert ra.rolloffs[diff] > rb_.rolloffs[diff]
    late = {n for n, r in rolls.items() if r.test.critical == "failure"}
    crits = {n for n, r in rolls.items() if r.test.critical == "success"}
    assert set(init.late) == late
    zero = init.turn(0)
    assert len(zero) == len(set(zero)) and not set(zero) & late
    if surprise_by is None:
        assert set(zero) == crits
    else:
        sides = {c.name: c.side for c in roster}
        anti = {c.name for c in roster if "anti_surprise" in c.traits}
        expected = {n for n in sides if sides[n] == surprise_by or n in crits or n in anti}
        assert set(zero) == expected - late
    assert not set(init.turn(1)) & late
    assert collections.Counter(init.turn(3)) == collections.Counter(
        [n for n in init.order]
        + [n for n in init.order if n in init.speed.hyperactive])
    assert rb.Initiative.from_json(json.loads(json.dumps(init.to_json()))) == init


# =======================================================================================
# The encounter: start, surprise, turn 0, turns (RB-TURN-1, RB-TIME-*, RB-ACT-*, ...)
# =======================================================================================


def party(**traits: set[str]) -> list[Combatant]:
    """Aldric (HAB 60), Brune (50), Grolk (40), Vif (55); with start rolls 30 each the
    margins are 30, 20, 10, 25: order Aldric, Vif, Brune, Grolk. Each declares a 1d6
    hit for automated play (the simulation variant, not in the text)."""
    t = {k: frozenset(v) for k, v in traits.items()}
    return [
        fighter("Aldric", "héros", 60, pmr=70, traits=t.get("Aldric", ()), variante_degats=6),
        fighter("Brune", "héros", 50, traits=t.get("Brune", ()), variante_degats=6),
        fighter("Grolk", "monstres", 40, dis=40, traits=t.get("Grolk", ()), variante_degats=6),
        fighter("Vif", "monstres", 55, dis=60, traits=t.get("Vif", ()), variante_degats=6),
    ]


def begin(roster: list[Combatant] | None = None, rolls: Sequence[int] = (30, 30, 30, 30),
          **kwargs: Any) -> Encounter:
    enc = Encounter("rulebook", roster or party(), **kwargs)
    enc.start(ScriptedRolls(rolls))
    return enc


def end(enc: Encounter, n: int = 1, rng: ScriptedRolls | None = None) -> None:
    for _ in range(n):
        enc.end_activation(rng)


def test_encounter_start_order_rb_init_1() -> None:
    """RB-INIT-1: at the start every character rolls; the log shows each roll."""
    enc = begin()
    assert enc.turn == 1 and enc.current == "Aldric"
    assert enc.state.order == ["Aldric", "Vif", "Brune", "Grolk"]
    inits = events(enc, "initiative")
    assert [(e.actor, [d.value for d in e.dice]) for e in inits] == [
        ("Aldric", [30]), ("Brune", [30]), ("Grolk", [30]), ("Vif", [30])]
    assert all("RB-INIT-1" in e.rules for e in inits)
    assert rb.encounter_initiative(enc).order == ("Aldric", "Vif", "Brune", "Grolk")


def test_encounter_roster_errors() -> None:
    """Bad input names the combatant and the stat (HAB, DIS, PMR, PV, Esprit, trait)."""
    base = {"HAB": 50, "DIS": 50, "PMR": 50, "PV": 10, "Esprit": 10}
    for missing in ("HAB", "DIS", "PMR", "PV", "Esprit"):
        stats = {k: v for k, v in base.items() if k != missing}
        with pytest.raises(EscarmoucheError,
                           match=f"{missing} = rien\u00a0: caractéristique requise pour Zed"):
            Encounter("rulebook", [Combatant("Zed", "x", stats)])
    with pytest.raises(EscarmoucheError, match=r"HAB = 101\u00a0: .* pour Zed"):
        Encounter("rulebook", [Combatant("Zed", "x", {**base, "HAB": 101})])
    with pytest.raises(EscarmoucheError, match=r"PV = 0\u00a0: .* pour Zed"):
        Encounter("rulebook", [Combatant("Zed", "x", {**base, "PV": 0})])
    with pytest.raises(EscarmoucheError, match=r"trait = «\u00a0alerte\u00a0»\u00a0: .* pour Zed"):
        Encounter("rulebook", [Combatant("Zed", "x", base, traits={"alerte"})])
    with pytest.raises(EscarmoucheError, match=r"eclat_max = 1\u00a0: .* pour Zed"):
        Encounter("rulebook", [Combatant("Zed", "x", {**base, "eclat": 2, "eclat_max": 1})])
    with pytest.raises(EscarmoucheError, match="eclat manquant"):
        Encounter("rulebook", [Combatant("Zed", "x", {**base, "eclat_max": 1})])


def test_encounter_start_options_checked_rb_surprise_1() -> None:
    enc = Encounter("rulebook", party())
    before = enc.to_json()
    rng = ScriptedRolls([10, 60, 30, 30, 30, 30])
    with pytest.raises(EscarmoucheError, match="non_avertis manquant"):
        enc.start(rng, surprise_par="monstres")
    with pytest.raises(EscarmoucheError, match="surprise_par = «\u00a0dragons\u00a0»"):
        enc.start(rng, surprise_par="dragons", non_avertis=True)
    with pytest.raises(EscarmoucheError, match="option = «\u00a0embuscade\u00a0»"):
        enc.start(rng, embuscade=True)
    with pytest.raises(EscarmoucheError, match="non_avertis est donné sans surprise_par"):
        enc.start(rng, non_avertis=True)
    assert enc.to_json() == before and rng.used == 0


def test_encounter_surprise_then_turn_0_rb_surprise_3() -> None:
    """RB-SURPRISE-1..3 in an encounter: the surprise dice first (attackers', then
    defenders'), then the initiative; turn 0 holds the attackers only."""
    enc = Encounter("rulebook", party())
    # weakest: Grolk's DIS 40 rolls 10 (margin 30) vs Aldric's PMR 70 rolls 60 (10)
    enc.start(ScriptedRolls([10, 60, 30, 30, 30, 30]), surprise_par="monstres", non_avertis=True)
    (s,) = events(enc, "surprise")
    assert [d.value for d in s.dice] == [10, 60]
    assert s.data["success"] is True and s.data["attack_from"] == ["Grolk"]
    assert enc.turn == 0 and enc.state.order == ["Vif", "Grolk"]
    assert enc.current == "Vif"
    # a defender has no slot in turn 0: not even an out-of-turn movement
    before = enc.to_json()
    with pytest.raises(IllegalActionError, match="RB-SURPRISE-3"):
        enc.act("Aldric", "deplacement")
    assert enc.to_json() == before
    end(enc, 2)
    assert enc.turn == 1 and enc.state.order == ["Aldric", "Vif", "Brune", "Grolk"]
    assert activations(enc)[0] == ["Vif", "Grolk"]


def test_encounter_failed_surprise_no_turn_0_rb_surprise_1() -> None:
    enc = Encounter("rulebook", party())
    enc.start(ScriptedRolls([60, 10, 30, 30, 30, 30]), surprise_par="monstres", non_avertis=True)
    assert events(enc, "surprise")[0].data["success"] is False
    assert enc.turn == 1
    aware = Encounter("rulebook", party())
    aware.start(ScriptedRolls([30, 30, 30, 30]), surprise_par="monstres", non_avertis=False)
    assert aware.turn == 1
    assert events(aware, "surprise")[0].dice == ()


def test_encounter_critical_success_turn_0_rb_init_3() -> None:
    """RB-INIT-3: turn 0 with the critical success only, then turn 1 for all."""
    enc = begin(rolls=(30, 4, 30, 30))  # Brune critical
    assert enc.turn == 0 and enc.state.order == ["Brune"]
    assert [e.actor for e in events(enc, "tour_0")] == ["Brune"]
    end(enc)
    assert enc.turn == 1 and enc.state.order == ["Brune", "Aldric", "Vif", "Grolk"]


def test_encounter_critical_failure_waits_turn_2_rb_init_4() -> None:
    """RB-INIT-4: no activation in turns 0 and 1, none out of turn either."""
    enc = begin(rolls=(3, 30, 99, 30))  # Aldric critical, Grolk critical failure
    assert enc.state.order == ["Aldric"]
    with pytest.raises(IllegalActionError, match="RB-INIT-4"):
        enc.act("Grolk", "deplacement")
    end(enc)
    assert enc.turn == 1 and "Grolk" not in enc.state.order
    with pytest.raises(IllegalActionError, match="RB-INIT-4"):
        enc.act("Grolk", "deplacement")
    end(enc, 3)
    assert enc.turn == 2 and enc.state.order[-1] == "Grolk"
    enc.act("Grolk", "deplacement")  # from turn 2 on, an out-of-turn move is fine
    assert activations(enc) == {0: ["Aldric"], 1: ["Aldric", "Vif", "Brune"],
                                2: ["Aldric"]}


def test_turn_begins_and_ends_with_activations_rb_turn_1() -> None:
    """RB-TURN-1: a turn starts with the first activation and ends after the last one;
    the GM's count of turns is what the conditions read."""
    enc = begin(end_conditions=[EndCondition("tours", "victoire", turns=2,
                                             label="tenir deux tours")])
    end(enc, 4)
    kinds = [(e.kind, e.turn, e.actor) for e in enc.log
             if e.kind in ("debut_tour", "fin_tour", "activation")]
    assert kinds[:6] == [("debut_tour", 1, None), ("activation", 1, "Aldric"),
                         ("activation", 1, "Vif"), ("activation", 1, "Brune"),
                         ("activation", 1, "Grolk"), ("fin_tour", 1, None)]
    assert enc.turn == 2 and not enc.finished
    end(enc, 4)
    assert enc.finished and enc.outcome == "victoire (tenir deux tours)"


def test_global_countdown_at_turn_start_rb_time_1() -> None:
    """RB-TIME-1: a global countdown ticks at the start of each global turn."""
    enc = begin()
    enc.add_effect(Effect("", "Renforts", Timing.TURN_START, remaining=2))
    end(enc, 4)
    (tick,) = events(enc, "effet_decompte")
    first = next(e for e in enc.log if e.kind == "activation" and e.turn == 2)
    assert tick.turn == 2 and tick.seq < first.seq
    end(enc, 4)
    (gone,) = [e for e in events(enc, "effet_fin") if "Renforts" in e.text]
    assert gone.turn == 3 and "RB-TIME-1" in gone.rules


def test_character_effect_at_its_activation_rb_time_2() -> None:
    """RB-TIME-2: a poison ticks at the start of its bearer's activation."""
    enc = begin()
    enc.add_effect(Effect("", "Poison", Timing.ACTIVATION_START, bearer="Brune",
                          remaining=2, per_tick={"PV": -1}))
    end(enc, 1)  # Vif acts: nothing yet
    assert enc.fighter("Brune").tracks["PV"] == 10
    end(enc, 1)  # Brune's activation starts
    assert enc.fighter("Brune").tracks["PV"] == 9
    (tick,) = events(enc, "effet_applique")
    assert tick.actor == "Brune" and "RB-TIME-2" in tick.rules


def test_environment_at_turn_end_rb_time_3() -> None:
    """RB-TIME-3: an environment effect resolves at the end of the global turn."""
    enc = begin()
    enc.add_effect(Effect("", "Flèches perdues", Timing.TURN_END, bearer="Grolk",
                          remaining=1, per_tick={"PV": -3}))
    end(enc, 3)
    assert enc.fighter("Grolk").tracks["PV"] == 10 and enc.current == "Grolk"
    end(enc, 1)
    hit = events(enc, "effet_applique")[0]
    fin = events(enc, "fin_tour")[0]
    assert hit.seq < fin.seq and hit.turn == 1 and "RB-TIME-3" in hit.rules
    assert enc.fighter("Grolk").tracks["PV"] == 7


def test_hyperactive_effects_tick_once_per_turn_rb_speed_3() -> None:
    """RB-SPEED-3: per-character effects tick only at the first activation of a turn."""
    enc = begin(party(Brune={"hyperactivite"}))
    assert enc.state.order == ["Aldric", "Vif", "Brune", "Brune", "Grolk"]
    enc.add_effect(Effect("", "Poison", Timing.ACTIVATION_START, bearer="Brune",
                          remaining=5, per_tick={"PV": -1}))
    end(enc, 5)
    assert enc.turn == 2
    assert enc.fighter("Brune").tracks["PV"] == 9  # two activations, one tick


def test_one_action_one_posture_free_actions_rb_act_1() -> None:
    """RB-ACT-1: one movement (before or after the action), one action, one posture
    change; short actions with an item in hand are free, in addition."""
    enc = begin()
    enc.act("Aldric", "action_libre", description="boire une potion")
    enc.act("Aldric", "attaquer", cible="Grolk", degats=2)
    enc.act("Aldric", "action_libre", description="mettre ses lunettes")
    before = enc.to_json()
    with pytest.raises(IllegalActionError, match=r"action de cette activation.*RB-ACT-1"):
        enc.act("Aldric", "sort", cible="Vif", degats=1)
    assert enc.to_json() == before
    enc.act("Aldric", "posture", posture="défensive")
    with pytest.raises(IllegalActionError, match="RB-ACT-1"):
        enc.act("Aldric", "posture", posture="offensive")
    enc.act("Aldric", "deplacement")  # the movement after the action
    assert enc.fighter("Aldric").flags["posture"] == "défensive"
    assert [a.id for a in enc.actions("Aldric")] == ["action_libre"]
    end(enc)
    enc.act("Vif", "deplacement")  # the movement before the action
    enc.act("Vif", "attaquer", cible="Aldric", degats=1)
    assert enc.fighter("Aldric").tracks["PV"] == 9


def test_each_activation_its_own_action_rb_act_1() -> None:
    """RB-ACT-1 / RB-SPEED-3: under Hyperactivité each activation has its own action and
    posture change; the movement stays one per global turn (RB-MOVE-1)."""
    enc = begin(party(Brune={"hyperactivite"}))
    end(enc, 2)
    assert enc.current == "Brune"
    enc.act("Brune", "deplacement")
    enc.act("Brune", "attaquer", cible="Grolk", degats=1)
    enc.act("Brune", "posture", posture="garde haute")
    end(enc)
    assert enc.current == "Brune"
    enc.act("Brune", "attaquer", cible="Grolk", degats=1)
    enc.act("Brune", "posture", posture="garde basse")
    with pytest.raises(IllegalActionError, match="RB-MOVE-1"):
        enc.act("Brune", "deplacement")
    assert enc.fighter("Grolk").tracks["PV"] == 8


def test_spells_abilities_equipment_use_the_action_rb_act_2() -> None:
    """RB-ACT-2: spells, abilities and equipment from the bag use the action; some
    abilities also use the movement."""
    cases: list[tuple[str, dict[str, Any]]] = [
        ("sort", {"nom": "Boule de feu", "cible": "Grolk", "degats": 3}),
        ("capacite", {"nom": "Cri"}),
        ("equipement", {"objet": "épée"}),
    ]
    for action, params in cases:
        enc = begin()
        enc.act("Aldric", action, **params)
        with pytest.raises(IllegalActionError, match="RB-ACT-1"):
            enc.act("Aldric", "equipement")
    enc = begin()
    enc.act("Aldric", "capacite", nom="Charge", cible="Grolk", degats=4,
            avec_deplacement=True)
    (ev,) = events(enc, "capacite")
    assert "RB-ACT-2" in ev.rules and "Charge" in ev.text
    with pytest.raises(IllegalActionError, match="RB-MOVE-1"):
        enc.act("Aldric", "deplacement")
    enc2 = begin()
    enc2.act("Aldric", "deplacement")
    with pytest.raises(IllegalActionError, match="RB-MOVE-1"):
        enc2.act("Aldric", "capacite", nom="Charge", avec_deplacement=True)


def test_movement_regenerates_at_global_turn_rb_move_1() -> None:
    """RB-MOVE-1: the movement regenerates at the start of the global turn, not at the
    start of the activation; an unspent one can be used out of turn."""
    enc = begin()
    assert enc.current == "Aldric"
    enc.act("Grolk", "deplacement", description="se met à couvert")  # out of turn
    (mv,) = events(enc, "deplacement")
    assert mv.data["out_of_turn"] is True and "hors de son activation" in mv.text
    with pytest.raises(IllegalActionError, match="RB-MOVE-1"):
        enc.act("Grolk", "deplacement")
    with pytest.raises(IllegalActionError, match="RB-MOVE-1"):
        enc.act("Grolk", "attaquer", cible="Aldric", degats=1)  # only a movement
    end(enc, 3)
    assert enc.current == "Grolk"
    assert "deplacement" not in [a.id for a in enc.actions()]  # not regenerated
    with pytest.raises(IllegalActionError, match="RB-MOVE-1"):
        enc.act("Grolk", "deplacement")
    end(enc)
    assert enc.turn == 2
    enc.act("Grolk", "deplacement")  # a new global turn: a new movement
    assert len(events(enc, "deplacements")) == 2


def test_hypoactivity_roll_each_activation_rb_speed_1() -> None:
    """RB-SPEED-1: Hypoactivité rolls 1d4 at each activation (logged); a 4: no action."""
    enc = begin(party(Vif={"hypoactivite"}))
    end(enc, 1, ScriptedRolls([4]))  # Vif's d4: 4, skipped
    assert enc.current == "Brune"
    (hypo,) = events(enc, "hypoactivite")
    assert [(d.faces, d.value) for d in hypo.dice] == [(4, 4)]
    assert hypo.data["can_act"] is False and "ne peut pas agir" in hypo.text
    with pytest.raises(IllegalActionError):
        enc.act("Vif", "attaquer", cible="Aldric", degats=1)
    rng = ScriptedRolls([2])
    end(enc, 3, rng)  # Brune → Grolk → (turn 2) Aldric → Vif rolls its d4: 2
    assert rng.used == 1
    assert enc.current == "Vif" and enc.turn == 2
    assert [e.data["roll"] for e in events(enc, "hypoactivite")] == [4, 2]
    # the d4 of a first activation comes from the start's rng, after the initiative
    first = begin(party(Aldric={"hypoactivite"}), rolls=(30, 30, 30, 30, 3))
    assert first.current == "Aldric" and events(first, "hypoactivite")[0].data["roll"] == 3
    end(first, 3)
    before = first.to_json()
    with pytest.raises(EscarmoucheError, match="rng = rien"):
        end(first)  # turn 2: Aldric's d4 needs dice
    assert first.to_json() == before


def test_speed_effect_gained_in_fight_rb_speed_1() -> None:
    """RB-SPEED-1: an attack can change the turn order, from the next global turn."""
    enc = begin()
    enc.act("Aldric", "attaquer", cible="Vif", degats=1, vitesse="toujours_dernier",
            duree=1)
    (v,) = events(enc, "vitesse")
    assert v.data == {"vitesse": "toujours_dernier", "debut": 2, "fin": 2,
                      "source": "Aldric"}
    assert enc.state.order == ["Aldric", "Vif", "Brune", "Grolk"]  # this turn: unchanged
    end(enc, 4)
    assert enc.turn == 2 and enc.state.order == ["Aldric", "Brune", "Grolk", "Vif"]
    (note,) = [e for e in events(enc, "ordre_tour") if e.turn == 2]
    assert "Vif agit en dernier" in note.text and "RB-SPEED-3" in note.rules
    end(enc, 4)
    assert enc.turn == 3 and enc.state.order == ["Aldric", "Vif", "Brune", "Grolk"]
    assert any(e.kind == "effet_fin" and e.turn == 2 for e in enc.log)
    assert not [e for e in enc.state.effects if e.kind == "vitesse"]


def test_speed_effect_cancels_a_trait_rb_speed_2() -> None:
    """RB-SPEED-2: a Hypoactivité inflicted on a Hyperactivité bearer cancels both."""
    enc = begin(party(Brune={"hyperactivite"}))
    enc.act("Aldric", "sort", nom="Lenteur", cible="Brune", vitesse="hypoactivite",
            duree=2)
    end(enc, 5)
    assert enc.turn == 2 and enc.state.order == ["Aldric", "Vif", "Brune", "Grolk"]
    (note,) = [e for e in events(enc, "ordre_tour") if e.turn == 2]
    assert "s’annulent pour Brune" in note.text and "RB-SPEED-2" in note.rules
    end(enc, 2)  # no d4 for Brune: nothing remains of either effect
    assert enc.current == "Brune" and not events(enc, "hypoactivite")


def test_speed_effect_added_by_the_gm_rb_speed_3() -> None:
    """A GM-made speed effect (``speed_effect``) counts from the next order it meets."""
    enc = begin()
    enc.add_effect(rb.speed_effect("Grolk", "depassement", last_turn=2))
    end(enc, 4)
    # Grolk (last) overtakes Brune
    assert enc.state.order == ["Aldric", "Vif", "Grolk", "Brune"]
    end(enc, 4)
    assert enc.state.order == ["Aldric", "Vif", "Brune", "Grolk"]
    with pytest.raises(EscarmoucheError, match="RB-SPEED-1"):
        rb.speed_effect("Grolk", "rapide")
    with pytest.raises(EscarmoucheError, match="last_turn"):
        rb.speed_effect("Grolk", "depasse", first_turn=3, last_turn=2)


def test_bad_speed_effect_keyword_is_refused_rb_speed_1() -> None:
    """RB-SPEED-1: a speed effect with an unknown keyword is refused when it is added."""
    enc = begin()
    before = enc.to_json()
    with pytest.raises(EscarmoucheError, match=r"«\u00a0rapide\u00a0».*RB-SPEED-1"):
        enc.add_effect(Effect("", "Étrange", Timing.TURN_START, bearer="Vif",
                              kind="vitesse", keywords=frozenset({"rapide"})))
    assert enc.to_json() == before
    enc.add_effect(Effect("", "Vif-argent", Timing.TURN_START, bearer="Vif",
                          kind="vitesse", keywords=frozenset({"toujours_premier"})))


def test_attack_on_pv_or_esprit_rb_end_2() -> None:
    """RB-END-2: an attack targets PV or Esprit; 0 on either track puts out of the fight;
    the amount is given (``degats``) or rolled (``des``)."""
    enc = begin()
    enc.act("Aldric", "attaquer", cible="Grolk", piste="Esprit", des="2d6+1",
            rng=ScriptedRolls([6, 5]))
    (atk,) = events(enc, "attaquer")
    assert [d.value for d in atk.dice] == [6, 5]
    assert atk.data["degats"] == 12 and atk.data["piste"] == "Esprit"
    assert enc.fighter("Grolk").tracks == {"PV": 10, "Esprit": 0}
    assert enc.fighter("Grolk").out
    out = events(enc, "hors_combat")[0]
    assert out.actor == "Grolk" and atk.seq < out.seq
    end(enc)
    enc.act("Vif", "attaquer", cible="Brune", degats=10)
    assert enc.fighter("Brune").out and enc.fighter("Brune").tracks["PV"] == 0
    end(enc)
    assert enc.current == "Aldric" and enc.turn == 2  # Brune and Grolk are skipped


@pytest.mark.parametrize(
    ("params", "pattern"),
    [
        ({"cible": "Grolk"}, "degats manquant"),
        ({"cible": "Grolk", "degats": 2, "des": "1d6"}, "pas les deux"),
        ({"cible": "Grolk", "degats": -1}, "degats = −1"),
        ({"cible": "Grolk", "degats": 2, "piste": "Mana"}, "piste = «\u00a0Mana\u00a0»"),
        ({"cible": "Personne", "degats": 2}, "Personne"),
        ({"cible": "Grolk", "des": "2d"}, "2d"),
        ({"cible": "Grolk", "degats": 1, "vitesse": "rapide"}, "vitesse = «\u00a0rapide\u00a0»"),
        ({"cible": "Grolk", "degats": 1, "duree": 2}, "duree sans vitesse"),
        ({"cible": "Grolk", "degats": 1, "vitesse": "depasse", "duree": 0}, "duree = 0"),
        ({"cible": "Grolk", "degats": 1, "arme": "épée"}, "paramètre = «\u00a0arme\u00a0»"),
        ({"cible": "Grolk", "degats": 1, "avec_deplacement": "oui"}, "avec_deplacement"),
    ],
)
def test_bad_attack_is_atomic_rb_end_2(params: dict[str, Any], pattern: str) -> None:
    """CORE-ERR: a rejected action changes nothing (state and rng)."""
    enc = begin()
    before = enc.to_json()
    rng = ScriptedRolls([3, 3])
    with pytest.raises(EscarmoucheError, match=pattern):
        enc.act("Aldric", "attaquer", rng, **params)
    assert enc.to_json() == before and rng.used == 0


def test_other_bad_actions() -> None:
    enc = begin()
    with pytest.raises(ParameterError, match="action = «\u00a0voler\u00a0»"):
        enc.act("Aldric", "voler")
    with pytest.raises(ParameterError, match=(r"paramètre = «\u00a0posture\u00a0»\u00a0: .* a "
                                              r"besoin")):
        enc.act("Aldric", "posture")
    with pytest.raises(ParameterError, match=r"posture = .* texte non vide"):
        enc.act("Aldric", "posture", posture="  ")
    with pytest.raises(ParameterError, match="cible manquante"):
        enc.act("Aldric", "sort", degats=2)
    with pytest.raises(IllegalActionError, match="pas d’éclat"):
        enc.act("Aldric", "depenser_eclat")
    enc.act("Aldric", "attaquer", cible="Grolk", degats=10)
    with pytest.raises(IllegalActionError, match="hors de combat"):
        enc.act("Grolk", "deplacement")


def test_gm_end_conditions_rb_end_1() -> None:
    """RB-END-1: the GM's victory and defeat conditions, checked by the engine."""
    conds = [EndCondition("combattant_hors_combat", "victoire", name="Grolk",
                          label="le chef Grolk est à terre"),
             EndCondition("camp_hors_combat", "défaite", side="héros")]
    enc = begin(end_conditions=conds)
    enc.act("Aldric", "attaquer", cible="Grolk", piste="Esprit", degats=10)
    assert enc.finished and enc.outcome == "victoire (le chef Grolk est à terre)"
    assert enc.fighter("Vif").standing  # the fight ends though Vif still stands
    with pytest.raises(EscarmoucheError, match="RB-END-1"):
        enc.act("Vif", "deplacement")
    fled = begin(end_conditions=[EndCondition("camp_en_fuite", "victoire", side="monstres")])
    fled.flee("Grolk")
    fled.flee("Vif")
    assert fled.finished and "a fui" in (fled.outcome or "")


def test_eclat_restored_only_at_the_end_rb_end_3() -> None:
    """RB-END-3: éclat spent before the fight is not restored at its start; spent during
    the fight it is restored only at its end."""
    roster = party()
    roster[0] = fighter("Aldric", "héros", 60, eclat=1, eclat_max=3)
    enc = begin(roster)
    assert enc.fighter("Aldric").tracks["eclat"] == 1  # not restored at the start
    enc.act("Aldric", "depenser_eclat")
    assert enc.fighter("Aldric").tracks["eclat"] == 0
    with pytest.raises(IllegalActionError, match="RB-END-3"):
        enc.act("Aldric", "depenser_eclat")
    end(enc, 4)
    assert enc.fighter("Aldric").tracks["eclat"] == 0  # a new turn does not restore it
    assert not enc.fighter("Aldric").out  # éclat at 0 is not a damage track
    enc.finish("les monstres se rendent")
    assert enc.fighter("Aldric").tracks["eclat"] == 3
    (ev,) = events(enc, "eclat_regenere")
    assert ev.rules == ("RB-END-3",) and ev.data == {"before": 0, "after": 3}
    assert enc.log[-2].kind == "fin_combat"


def test_actions_listed_for_widgets() -> None:
    enc = begin(party(Aldric=set()))
    ids = [a.id for a in enc.actions("Aldric")]
    assert ids == ["attaquer", "sort", "capacite", "equipement", "deplacement", "posture",
                   "action_libre"]
    assert [a.id for a in enc.actions("Grolk")] == ["deplacement"]  # out of turn


def test_run_json_round_trip_and_determinism() -> None:
    """CORE-LOG / CORE-RNG: an automated fight is reproducible and survives JSON."""
    roster = party(Brune={"hyperactivite"}, Vif={"hypoactivite"}, Grolk={"depassement"})

    def fight(seed: int) -> Encounter:
        enc = Encounter("rulebook", roster)
        enc.start(random.Random(seed), surprise_par="monstres", non_avertis=True)
        enc.run(random.Random(seed + 1), max_turns=30)
        return enc

    a, b = fight(11), fight(11)
    assert a.to_json() == b.to_json() and a.finished
    again = Encounter.from_json(a.to_json())
    assert again.to_json() == a.to_json()
    assert rb.encounter_initiative(again) == rb.encounter_initiative(a)


def test_resume_after_restore_mid_fight() -> None:
    enc = begin(party(Vif={"hypoactivite"}))
    enc.act("Aldric", "attaquer", cible="Vif", degats=1, vitesse="depasse", duree=2)
    copy = Encounter.from_json(enc.to_json())
    enc.run(random.Random(4), max_turns=20)
    copy.run(random.Random(4), max_turns=20)
    assert enc.to_json() == copy.to_json()


def test_rules_round_trip_through_a_save() -> None:
    rules = rb.Rules(hyperactive_slot="end_of_turn", surprise_aggregate="mean",
                     crit_success_max=3, extra_traits=frozenset({"nain"}))
    roster = [fighter("A", "x", 50, traits={"nain"}), fighter("B", "y", 40)]
    enc = Encounter("rulebook", roster, rules=rules)
    enc.start(ScriptedRolls([10, 20]))
    again = Encounter.from_json(enc.to_json())
    assert again.rules == rules and again.to_json() == enc.to_json()


def test_encounter_initiative_needs_a_rulebook_fight() -> None:
    with pytest.raises(EscarmoucheError, match="RB-INIT-1"):
        rb.encounter_initiative(Encounter("rulebook", party()))


def is_subsequence(sub: Sequence[str], seq: Sequence[str]) -> bool:
    it = iter(seq)
    return all(x in it for x in sub)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["consecutive", "end_of_turn"]))
def test_encounter_turn_orders_rb_speed_3(seed: int, slot: str) -> None:
    """Each turn's slots: RB-SPEED-3 applied to the initiative order of the fighters
    still standing, then the turn's participants (RB-INIT-3/4); the activations of a
    turn follow its slots."""
    roster = party(Brune={"hyperactivite"}, Grolk={"depassement"},
                   Aldric={"toujours_dernier"})
    rules = rb.Rules(hyperactive_slot=slot)
    enc = Encounter("rulebook", roster, rules=rules)
    enc.run(random.Random(seed), max_turns=15)
    init = rb.encounter_initiative(enc)
    outs = {e.actor: e.seq for e in events(enc, "hors_combat")}
    for e in events(enc, "debut_tour"):
        standing = [n for n in init.order if outs.get(n, e.seq + 1) > e.seq]
        speed = rb.apply_speed(standing, rb.speed_profiles(roster), rules)
        if e.turn == 0:
            expected = speed.slots(set(init.turn_zero), twice=False)
        elif e.turn == 1:
            expected = speed.slots(exclude=set(init.late))
        else:
            expected = speed.slots()
        assert e.data["order"] == expected
        if not outs:
            assert expected == init.turn(e.turn)
        acts = activations(enc).get(e.turn, [])
        assert is_subsequence(acts, expected)


# =======================================================================================
# The package shape: catalogue, errors by kind, odds for the widgets, notebook display
# =======================================================================================


def test_catalogue_is_action_specs_with_one_resolver_each() -> None:
    """RB-ACT-1/2, RB-MOVE-1, RB-END-3: every action is an ActionSpec, documented in
    French, citing its rules, with one resolver; the attack is « attaquer »."""
    assert rb.SYSTEM.catalogue(rb.DEFAULT_RULES) is rb.ACTIONS
    assert set(rb.RESOLVERS) == set(rb.ACTIONS) and "attaquer" in rb.ACTIONS
    for spec in rb.ACTIONS.values():
        assert spec.doc and spec.rules and spec.cost in rb.COST_LABELS.values()
        assert set(spec.required) <= set(spec.params)
    assert "act" not in vars(rb.RulebookSystem)  # the shared System.act()


def test_bad_value_is_a_parameter_error_forbidden_now_is_illegal() -> None:
    """CORE-ERR: a bad value raises ParameterError, a well-formed action the rules
    forbid now raises IllegalActionError (RB-ACT-1, RB-END-3)."""
    enc = begin()
    with pytest.raises(ParameterError, match="RB-END-2"):
        enc.act("Aldric", "attaquer", cible="Grolk", degats="trois")
    with pytest.raises(ParameterError, match="RB-ACT-1"):
        enc.act("Aldric", "posture", posture=3)
    enc.act("Aldric", "attaquer", cible="Grolk", degats=1)
    with pytest.raises(IllegalActionError, match="RB-ACT-1"):
        enc.act("Aldric", "sort")
    with pytest.raises(IllegalActionError, match="RB-MOVE-1"):
        enc.act("Grolk", "attaquer", cible="Aldric", degats=1)


def test_option_labels_cover_every_option_and_value() -> None:
    """Every option, and every value of the options with a list of values, has a
    French label (RB-D100-1, RB-SURPRISE-2, RB-SPEED-3)."""
    import dataclasses

    assert [o.name for o in rb.SYSTEM.options()] == [f.name for f in dataclasses.fields(rb.Rules)]
    assert set(rb.SYSTEM.option("surprise_aggregate").choices or {}) == set(
        rb.SURPRISE_AGGREGATES)
    assert set(rb.SYSTEM.option("hyperactive_slot").choices or {}) == set(rb.HYPERACTIVE_SLOTS)
    with pytest.raises(ParameterError, match="hyperactive_slot = «\u00a0bientôt\u00a0»"):
        rb.Rules(hyperactive_slot="bientôt")


def test_first_to_act_odds_by_enumeration_rb_init_2() -> None:
    """RB-INIT-2: three fighters, every d100 triple enumerated through the engine
    (ties broken by HAB, then a fair roll-off: its share is split evenly)."""
    roster = [fighter("A", "x", 60), fighter("B", "y", 40), fighter("C", "y", 40)]
    odds = rb.first_to_act_odds(roster)
    assert sum(odds.values()) == 1
    # A against B alone, by hand: A heads the order unless B has a strictly better key
    duel = rb.first_to_act_odds(roster[:2])
    wins = Fraction(0)
    for ra in range(1, 101):
        for rb_ in range(1, 101):
            init = rb.resolve_initiative(roster[:2], [ra, rb_])
            wins += Fraction(init.order[0] == "A", 10_000)
    assert duel["A"] == wins
    assert odds["B"] == odds["C"]  # same HAB: symmetric


def test_turn_zero_odds_by_hand_rb_surprise_3() -> None:
    """RB-SURPRISE-3, RB-INIT-3/4: DIS 50 against PMR 50 succeeds with 99/200; the
    attacker is in turn 0 unless it fails critically (5/100), the defender only on a
    critical success (5/100)."""
    rat = Combatant("Rat", "m", {"HAB": 50, "DIS": 50, "PMR": 50})
    garde = Combatant("Garde", "h", {"HAB": 50, "DIS": 50, "PMR": 50})
    s = Fraction(99, 200)
    assert rb.surprise_chance([rat], [garde], unaware=True) == s
    odds = rb.turn_zero_odds([rat, garde], "m", unaware=True)
    assert odds["Rat"] == s * Fraction(95, 100) + (1 - s) * Fraction(5, 100)
    assert odds["Garde"] == Fraction(5, 100)
    assert rb.turn_zero_odds([rat, garde], "m", unaware=False)["Rat"] == Fraction(5, 100)


def test_results_and_odds_display_themselves() -> None:
    """The book shows results and odds directly: French tables (RB-D100-1, RB-INIT-2,
    RB-SPEED-3, RB-SURPRISE-2)."""
    assert "réussite critique" in rb.d100_odds(55)._repr_html_()
    assert "Résultat" in rb.d100_test(55, 3)._repr_html_()
    init = rb.resolve_initiative([fighter("A", "x", 60), fighter("B", "y", 40)], [30, 20])
    html = init._repr_html_()
    assert "Départage" in html and "Ordre d’initiative\u00a0: A, B" in html
    assert "Dépassement" in rb.apply_speed(["A", "B"], {"B": {"depassement"}})._repr_html_()
    res = rb.resolve_surprise([fighter("A", "x", 50)], [fighter("B", "y", 50)], 10, 60,
                              unaware=True)
    assert "Attaque surprise réussie" in res._repr_html_()


def test_compatibility_names_remain() -> None:
    """The names of the rulebook before the one naming rule still work (aliases)."""
    assert rb.initiative_from_rolls is rb.resolve_initiative
    assert rb.roll_initiative is rb.initiative
    assert rb.surprise_from_rolls is rb.resolve_surprise
    assert rb.surprise_test is rb.roll_surprise
    assert rb.hypoactivity_check is rb.resolve_hypoactivity


# =====================================================================================
# The simulation variant (not in the text, RB-END-2): the declared damage of automated play
# =====================================================================================


def test_automated_hit_is_the_declared_die_variant_rb_end_2() -> None:
    """RB-END-2 and its simulation variant: the text leaves the effect of an attack to
    the GM; automated play hits
    for the die each fighter declares (``variante_degats``), and says so in the log."""
    roster = [fighter("Brune", "héros", 60, variante_degats=6),
              fighter("Grolk", "orques", 40, variante_degats=8)]
    enc = Encounter("rulebook", roster)
    enc.run(random.Random(4), max_turns=30)
    hits = events(enc, "attaquer")
    assert hits
    for e in hits:
        assert "frappe automatique, variante hors texte" in e.text
        die = "1d6" if e.actor == "Brune" else "1d8"
        assert f"{die} →" in e.text and 1 <= e.data["degats"] <= int(die[2:])


def test_automated_play_needs_declared_damage_variant_rb_end_2() -> None:
    """RB-END-2, simulation variant: no silent default: a fighter without
    ``variante_degats`` cannot be played
    automatically; a declared die outside 1–1000 is refused at the roster."""
    enc = Encounter("rulebook", [fighter("Brune", "héros", 60),
                                 fighter("Grolk", "orques", 40, variante_degats=8)])
    with pytest.raises(ParameterError, match=r"variante_degats.*RB-END-2"):
        enc.run(random.Random(4), max_turns=5)
    with pytest.raises(ParameterError, match="RB-END-2"):
        Encounter("rulebook", [fighter("Brune", "héros", 60, variante_degats=0),
                               fighter("Grolk", "orques", 40)])


def test_simulation_outputs_name_the_variant_rb_end_2() -> None:
    """The simulation variant (not in the text) is named wherever automated Rulebook
    fights show: the balance table (``simule``, the book's simulation pages), its
    JSON, and the editions' duels."""
    from escarmouche.editions.duels import duel_note
    from escarmouche.roster import example_rosters, load_roster
    from escarmouche.simulation import simulate

    balance = simulate(load_roster(example_rosters()["rulebook-bretteur"]), 20, seed=1)
    assert "Variante hors texte" in str(balance.table())
    assert "Aldric 1d6 et Grolk 1d8" in balance.note
    assert balance.to_json()["variante"] == balance.note
    from escarmouche.simulation import compare

    roster = load_roster(example_rosters()["rulebook-bretteur"])
    both = compare(roster, roster.with_options(reussite_critique_max=10), 10, seed=1)
    assert "Variante hors texte" in str(both.table())
    assert "RB-END-2" in duel_note("rulebook", rb.Rules())
    d12_balance = simulate(load_roster(example_rosters()["d12-duel"]), 5, seed=1)
    assert d12_balance.note == "" and "variante" not in d12_balance.to_json()
