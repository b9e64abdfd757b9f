"""System « Rulebook » (RULES.md): RB-D100-1, the D100 test, its criticals,
its options and its odds.

Every expected value is derived by hand from the rules (the comments show how);
the dice are fixed with ``ScriptedRolls``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import EscarmoucheError
from escarmouche.dice import ScriptedRolls
from escarmouche.systems import rulebook as rb

#: the thresholds these hand-computed cases assume (edition 1's defaults), stated so that
#: a new edition's defaults leave the cases meaningful
THRESHOLDS = rb.Rules(crit_success_max=5, crit_failure_min=96)

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
    the margin is stat − roll either way (thresholds 5 and 96)."""
    t = THRESHOLDS
    r = rb.d100_test(0, 5, t)
    assert (r.success, r.margin, r.critical) == (True, -5, "success")
    assert not rb.d100_test(0, 6, t).success
    r = rb.d100_test(100, 96, t)
    assert (r.success, r.margin, r.critical) == (False, 4, "failure")
    assert rb.d100_test(100, 95, t).success and rb.d100_test(100, 95, t).critical is None
    assert rb.d100_test(150, 100, t).critical == "failure"
    assert rb.d100_test(-20, 1, t).success


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
    # the refusal names the option by its declared French label, not its engine name
    label = next(o.label for o in rb.SYSTEM.options() if o.name == field)
    assert f"«\u00a0{label}\u00a0»" in str(err.value) and field not in str(err.value)


def test_d100_bad_roll_rb_d100_1() -> None:
    with pytest.raises(EscarmoucheError, match=r"0 refusée pour"
                                               r" «\u00a0jet\u00a0»\u00a0.*RB-D100-1"):
        rb.d100_test(50, 0)
    with pytest.raises(EscarmoucheError, match="RB-D100-1"):
        rb.d100_test(50, 101)
    with pytest.raises(EscarmoucheError, match="«\u00a0caractéristique\u00a0»"):
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
    odds = rb.d100_odds(60, THRESHOLDS)
    assert odds == rb.D100Odds(Fraction(5, 100), Fraction(60, 100), Fraction(40, 100),
                               Fraction(5, 100))
    assert rb.d100_odds(100, THRESHOLDS).success == Fraction(95, 100)
    assert rb.d100_odds(0, THRESHOLDS).success == Fraction(5, 100)
