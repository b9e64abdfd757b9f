"""System d100 (seed 001), RULES.md: ranged attacks, D100-RANGED-1..6.

Expected values are derived by hand from the rules in the comments next to them.
"""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import pytest

from escarmouche import EscarmoucheError
from escarmouche.systems.d100 import WEAPONS, Rules, attack_odds, attack_setup, target_number
from tests.helpers.d100 import ALDRIC, BRUNE

# -- D100-RANGED-1..6 --------------------------------------------------------------------------


def test_projectiles_cannot_be_defended_d100_ranged_1() -> None:
    """D100-RANGED-1: neither parry nor dodge against a shot."""
    with pytest.raises(EscarmoucheError, match="D100-RANGED-1"):
        attack_odds(50, defence="esquive", defence_target=40, ranged=True)
    with pytest.raises(EscarmoucheError, match="D100-RANGED-1"):
        attack_setup(BRUNE, ALDRIC, "arbalete", distance=5, defence="esquive")
    assert attack_odds(50, ranged=True).lands == Fraction(1, 2)


def test_engaged_shooter_only_pistols_d100_ranged_2() -> None:
    """D100-RANGED-2: engaged in melee, only a pistol or a hand crossbow may shoot."""
    with pytest.raises(EscarmoucheError, match="D100-RANGED-2"):
        target_number(BRUNE, "arc", distance=5, shooter_engaged=True)
    for weapon in ("pistolet", "arbalète de poing"):
        assert target_number(BRUNE, weapon, distance=5, shooter_engaged=True).total == 50


def test_line_of_sight_required_d100_ranged_3() -> None:
    """D100-RANGED-3: no clear line of sight, no shot."""
    with pytest.raises(EscarmoucheError, match="D100-RANGED-3"):
        target_number(BRUNE, "arc", distance=5, line_of_sight=False)


def test_target_engaged_minus_20_d100_ranged_4() -> None:
    """D100-RANGED-4: shooting at a target engaged in melee: −20 CT (the text's, pinned)."""
    t = target_number(BRUNE, "arc", distance=5, target_engaged=True,
                      rules=Rules(shooting_into_melee_modifier=-20))
    assert t.total == 30 and t.modifiers[0].rules == ("D100-RANGED-4",)


def test_ranges_d100_ranged_5() -> None:
    """D100-RANGED-5: bow 24/48: −20 beyond 24 m, allowed up to 96 m, impossible beyond
    (the text's values, pinned whatever the edition's defaults)."""
    text = Rules(beyond_short_range_modifier=-20, desperate_shot_modifier=0,
                 max_range_factor=2, off_hand_modifier=-20, shooting_into_melee_modifier=-20)
    assert WEAPONS["arc"].short_range == 24 and WEAPONS["arc"].long_range == 48
    short = target_number(BRUNE, "arc", distance=24, rules=text)
    assert (short.total, short.range_band) == (50, "courte")
    long_ = target_number(BRUNE, "arc", distance=25, rules=text)
    assert (long_.total, long_.range_band) == (30, "longue")
    desperate = target_number(BRUNE, "arc", distance=96, rules=text)
    assert (desperate.total, desperate.range_band) == (30, "désespérée")
    with pytest.raises(EscarmoucheError, match="D100-RANGED-5"):
        target_number(BRUNE, "arc", distance=96.5, rules=text)
    for bad in (-1, None):
        with pytest.raises(EscarmoucheError, match="D100-RANGED-5"):
            target_number(BRUNE, "arc", distance=bad)
    harsh = dataclasses.replace(text, desperate_shot_modifier=-10)
    assert target_number(BRUNE, "arc", distance=60, rules=harsh).total == 20
    # all modifiers together: off hand, engaged target, long range, GM: 50-20-20-20+5
    every = target_number(BRUNE, "arbalete_de_poing", hand="non_directrice", distance=10,
                          target_engaged=True, gm_modifier=5, rules=text)
    assert every.total == -5
    assert [m.rules for m in every.modifiers] == [
        ("D100-ATK-5",), ("D100-RANGED-4",), ("D100-RANGED-5",), ("D100-RANGED-6",)]


def test_gm_modifier_d100_ranged_6() -> None:
    """D100-RANGED-6: the GM's free situational modifier."""
    t = target_number(BRUNE, "arc", distance=5, gm_modifier=15)
    assert t.total == 65 and t.modifiers[0].label == "modificateur du MJ"
    with pytest.raises(EscarmoucheError, match="D100-RANGED-6"):
        target_number(BRUNE, "arc", distance=5, gm_modifier=500)


# -- R7: figures that the engine can check ---------------------------------------------------


def test_r1_a_refused_shot_names_its_action_once_b42() -> None:
    """B42 (R1): a charge with a bow read « Action « charge » refusée : « charge » : un
    tir se fait par une attaque standard » (the action twice, a second colon)."""
    from tests.helpers.d100 import BRUNE, GROLK, started

    enc = started([BRUNE, GROLK], [9, 1], equipement={"Brune": {"directrice": "arc"}})
    with pytest.raises(EscarmoucheError) as refusal:
        enc.act("Brune", "charge", random.Random(1), cible="Grolk", distance=5)
    text = str(refusal.value).replace("\u00a0", " ")
    assert text == ("Action « charge » refusée : un tir se fait par une attaque standard "
                    "(D100-ACT-3)."), text
