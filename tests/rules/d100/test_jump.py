"""System d100 (seed 001), RULES.md: jumps, D100-JUMP-1/2.

Expected values are derived by hand from the rules in the comments next to them.
"""

from __future__ import annotations

import pytest

from escarmouche import EscarmoucheError
from escarmouche.dice import ScriptedRolls
from escarmouche.systems import d100
from tests.helpers.d100 import ALDRIC, GROLK, events, started

# -- D100-JUMP-1/2 --------------------------------------------------------------------------


def test_controlled_drop_d100_jump_1() -> None:
    """D100-JUMP-1: one Ag test per started 3 m (the text's step, pinned); at the first
    failure the fall is from the height still to go."""
    text = d100.Rules(drop_step=3)
    # 7 m: ceil(7/3) = 3 tests; Ag 40: 20, 35 pass, 90 fails at test 3: 7 - 6 = 1 m
    jump = d100.drop_jump(7, 40, [20, 35, 90], rules=text)
    assert (jump.tests, jump.failed_test, jump.fall_height) == (3, 3, 1)
    first = d100.drop_jump(7, 40, [41, 1, 1], rules=text)
    assert (first.failed_test, first.fall_height, first.rolls) == (1, 7, (41,))
    ok = d100.drop_jump(6, 40, [40, 1], rules=text)
    assert ok.success and ok.tests == 2 and ok.fall_height == 0
    rng = ScriptedRolls([90, 1, 1])
    assert d100.roll_drop_jump(ALDRIC, 9, rng, rules=text).failed_test == 1
    assert rng.used == 1  # no die after the failure
    with pytest.raises(EscarmoucheError, match="D100-JUMP-1"):
        d100.drop_jump(7, 40, [20], rules=text)
    with pytest.raises(EscarmoucheError, match="D100-JUMP-1"):
        d100.drop_jump(-2, 40, [])


def test_long_jump_d100_jump_2() -> None:
    """D100-JUMP-2: run-up >= 4 m; max M + BF; F test; −1 m per degree of failure (10
    points a degree): the text's values, pinned."""
    text = d100.Rules(long_jump_run_up=4, failure_degree=10, drop_step=3)
    # M 4, F 45: BF 4, max 8
    assert d100.long_jump(4, 45, 5, 45, rules=text).distance == 8
    # 60 > 45: ceil(15/10) = 2 degrees: 6 m
    failed = d100.long_jump(4, 45, 5, 60, rules=text)
    assert (failed.degrees, failed.distance) == (2, 6)
    # 46 > 45: 1 degree
    assert d100.long_jump(4, 45, 4, 46, rules=text).degrees == 1
    # F 5, roll 100: ceil(95/10) = 10 degrees, max 4 + 0: never below 0
    assert d100.long_jump(4, 5, 4, 100, rules=text).distance == 0
    rng = ScriptedRolls([1])
    with pytest.raises(EscarmoucheError, match="D100-JUMP-2"):
        d100.roll_long_jump(GROLK, 3, rng, rules=text)
    assert rng.used == 0
    assert d100.roll_long_jump(GROLK, 4, rng, rules=text).distance == 8
    enc = started([ALDRIC, GROLK], [4, 10], rules=text)
    enc.act("Aldric", "saut_en_longueur", ScriptedRolls([50]), elan=6)
    # Aldric M 4, F 40 (BF 4): 50 > 40, 1 degree: 7 m
    assert events(enc, "saut_en_longueur")[0].data["distance"] == 7
    enc.act("Aldric", "saut", ScriptedRolls([10, 99]), hauteur=5)
    assert events(enc, "saut")[0].data["fall_height"] == 2


# -- the edition pages ---------------------------------------------------------------------


def test_b175_a_long_jump_writes_its_maximum_as_a_sum_d100_jump_2() -> None:
    """B175: D100-JUMP-2: « au plus 8 m = M 4 + BF 4 » interleaved labels and values, an
    equality that does not hold as written (the fault B48 and B82 fixed elsewhere)."""
    from escarmouche.systems.d100.jumps import resolve_long_jump

    text = resolve_long_jump(4, 40, 5, 57, name="Aldric").describe()
    assert "au plus M + BF = 4 + 4 = 8 m" in text, text
    assert "= M " not in text


def test_b176_a_fall_says_once_that_its_damage_is_the_gms_d100_jump_1() -> None:
    """B176: D100-JUMP-1: after « … le MJ calcule les dégâts », the next line said it again,
    « (dégâts de la chute laissés au MJ) », without saying that the engine counts no wound
    (the ruling of automated play)."""
    from escarmouche.dice import ScriptedRolls
    from escarmouche.encounter import Encounter
    from escarmouche.systems.d100 import SYSTEM

    enc = Encounter(SYSTEM, list(SYSTEM.sample_roster))
    first = next(iter(SYSTEM.sample_roster)).name
    enc.start(ScriptedRolls([5] * len(SYSTEM.sample_roster)),
              terrain={first: {"hauteur": 3}})
    enc.run(ScriptedRolls([100] + [100] * 200), max_turns=1)
    (fall,) = [e for e in enc.log if e.kind == "terrain"]
    assert "aucune blessure" in fall.text and "laissés au MJ" not in fall.text, fall.text
