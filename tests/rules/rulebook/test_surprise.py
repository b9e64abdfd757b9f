"""System « Rulebook » (RULES.md): RB-SURPRISE-1..3, the surprise test, its
odds and turn 0.

Every expected value is derived by hand from the rules (the comments show how);
the dice are fixed with ``ScriptedRolls``.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from escarmouche import Combatant, EscarmoucheError, systems
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter
from escarmouche.errors import IllegalActionError
from escarmouche.systems import rulebook as rb
from tests.helpers.rulebook import activations, end, events, fighter, names, party

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
    weakest = rb.roll_surprise(att, dfd, ScriptedRolls([40, 40]), unaware=True,
                               rules=rb.Rules(surprise_aggregate="plus_faible"))
    assert (weakest.attack_stat, weakest.attack_from) == (31, ("G2",))
    assert (weakest.defence_stat, weakest.defence_from) == (60, ("A2",))
    assert not weakest.success  # 31−40 = −9 against 60−40 = 20
    leader = rb.roll_surprise(att, dfd, ScriptedRolls([40, 40]), unaware=True,
                              rules=rb.Rules(surprise_aggregate="meneur"))
    assert (leader.attack_stat, leader.defence_stat) == (70, 20)  # first listed
    assert leader.success  # 30 against −20
    mean = rb.roll_surprise(att, dfd, ScriptedRolls([40, 40]), unaware=True,
                            rules=rb.Rules(surprise_aggregate="moyenne"))
    assert (mean.attack_stat, mean.defence_stat) == (50, 40)  # 101 // 2, 80 // 2
    assert mean.success  # 10 against 0


def test_surprise_bad_input_rb_surprise_1() -> None:
    """Missing DIS (attackers) or PMR (defenders) is refused, naming the combatant."""
    no_dis = Combatant("Grolk", "m", {"HAB": 50})
    ok = fighter("A", "h", 50)
    with pytest.raises(EscarmoucheError, match=(r"Aucune valeur pour «\u00a0DIS\u00a0»\u00a0:"
                                                r" caractéristique requise pour "
                                                r"Grolk")):
        rb.surprise([no_dis], [ok], ScriptedRolls([1, 1]), unaware=True)
    with pytest.raises(EscarmoucheError, match=(r"Aucune valeur pour «\u00a0PMR\u00a0»\u00a0:"
                                                r" caractéristique requise pour "
                                                r"Grolk")):
        rb.surprise([ok], [no_dis], ScriptedRolls([1, 1]), unaware=True)
    with pytest.raises(EscarmoucheError, match=r"101 refusée pour «\u00a0PMR\u00a0»\u00a0: .* pour"
                                               r" B"):
        rb.surprise([ok], [fighter("B", "h", 5, pmr=101)], ScriptedRolls([1, 1]),
                    unaware=True)
    with pytest.raises(EscarmoucheError, match="attaquants"):
        rb.surprise([], [ok], ScriptedRolls([]), unaware=True)
    with pytest.raises(EscarmoucheError, match="«\u00a0non avertis\u00a0»"):
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
    weakest = rb.Rules(surprise_aggregate="plus_faible")
    assert rb.surprise_chance(att, dfd, unaware=True, rules=weakest) == rb.surprise_odds(31,
                                                                                         60)
    leader = rb.Rules(surprise_aggregate="meneur")
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
    init = rb.initiative(roster, ScriptedRolls([10, 20, 30]), surprise_by="m",
                         rules=rb.Rules(hyperactive_slot="juste_apres"))
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


# -- the edition pages ---------------------------------------------------------------------


def test_b174_the_default_surprise_group_value_is_not_called_the_weakest_rb_surprise_2() -> None:
    """B174: RB-SURPRISE-2's default was labelled « le plus faible : DIS la plus basse contre
    PMR la plus haute », which reads as if both groups took their weakest member, while
    the defenders test their most attentive one. The label names whom it disfavours, and
    says which group tests which value."""
    label = systems.get("rulebook").option("surprise_aggregate").value_label("plus_faible")
    assert "plus faible" not in label
    assert "attaquants" in label and "défenseurs" in label


def test_no_option_value_label_holds_a_colon_rb_surprise_2() -> None:
    """RB-SURPRISE-2 (seventh pass): the label « défavorable aux attaquants : leur DIS la
    plus basse … » sat after its option's label, « valeur de groupe du test d’attaque
    surprise : défavorable aux attaquants : leur DIS … », two colons in one clause (the
    surprise demo's summary, the Atelier's menu). No value label of any option holds a
    colon."""
    bad = [f"{name}.{option.key}: {text}" for name in systems.available()
           for option in systems.get(name).options()
           for text in {**option.labels, **(option.choices or {})}.values()
           if ":" in str(text)]
    assert bad == []


def test_encounter_start_options_checked_rb_surprise_1() -> None:
    enc = Encounter("rulebook", party())
    before = enc.to_json()
    rng = ScriptedRolls([10, 60, 30, 30, 30, 30])
    with pytest.raises(EscarmoucheError, match="précisez si les défenseurs ignorent"):
        enc.start(rng, surprise_par="monstres")
    with pytest.raises(EscarmoucheError, match="«\u00a0dragons\u00a0» refusée pour"
                                               " «\u00a0surprise par\u00a0»"):
        enc.start(rng, surprise_par="dragons", non_avertis=True)
    with pytest.raises(EscarmoucheError, match="Option «\u00a0embuscade\u00a0» refusée"):
        enc.start(rng, embuscade=True)
    with pytest.raises(EscarmoucheError, match="non_avertis est donné sans surprise_par"):
        enc.start(rng, non_avertis=True)
    assert enc.to_json() == before and rng.used == 0


def test_encounter_surprise_then_turn_0_rb_surprise_3() -> None:
    """RB-SURPRISE-1..3 in an encounter: the surprise dice first (attackers', then
    defenders'), then the initiative; turn 0 holds the attackers only."""
    enc = Encounter("rulebook", party(), rules=rb.Rules(surprise_aggregate="plus_faible"))
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
