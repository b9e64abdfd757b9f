"""System d12 (seed 002), the attack: D12-CRIT-1, D12-ADV-1, D12-CRIT-2, D12-EXPLODE-1.

Hitting the defence (D12-CRIT-1), advantage and disadvantage (D12-ADV-1), the natural 12
and its three options (D12-CRIT-2), exploding dice and their cap (D12-EXPLODE-1), the
damage floor and the option values. Every expected value is derived by hand from the
rules (the derivation is in the comment next to it); exact odds are checked against a
brute-force enumeration of every sequence of dice the rolling functions can draw.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import EscarmoucheError, Timing
from escarmouche.dice import MAX_EXPLODE_DEPTH, ScriptedRolls
from escarmouche.errors import DiceError
from escarmouche.systems import d12
from tests.helpers.d12 import AFTER_BONUS, ambushed, enumerate_outcomes

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
    """spec/API.md critical_damage_distribution equals the enumeration of every damage die
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


def test_option_values_are_cached_d12_crit_2() -> None:
    """The critical option values are a cached pure function (asked at every activation
    of an automated fight): the same arguments give the very same object."""
    a = d12.critical_option_values("1d8+2", bonus=3, defence=14)
    b = d12.critical_option_values("1d8+2", bonus=3, defence=14)
    assert a is b
    assert "Meilleure option" in a._repr_html_()


def test_bad_weapon_option_defence_core_err() -> None:
    """CORE-ERR: malformed weapon dice, unknown option, defence out of 0–40."""
    with pytest.raises(DiceError, match="D12-CRIT-2") as err:
        d12.critical_damage_distribution("1d8+", "maximum")
    assert "arme" in str(err.value)
    with pytest.raises(EscarmoucheError, match="option critique inconnue"):
        d12.critical_damage_distribution("1d8", "double")
    with pytest.raises(EscarmoucheError, match=r"Défense 41 refusée\u00a0.*0 et"
                                               r" 40.*D12-CRIT-1"):
        d12.hit_chance(defence=41)
    with pytest.raises(EscarmoucheError, match="D12-ADV-1"):
        d12.critical_chance("triple")
    with pytest.raises(EscarmoucheError, match="D12-CRIT-2"):
        d12.Rules(critical_option="rien")
    with pytest.raises(EscarmoucheError, match="CORE-RNG"):
        d12.damage_roll("1d6", [7])
    with pytest.raises(EscarmoucheError, match="2 fourni"):
        d12.damage_roll("1d6", [3, 4])


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
