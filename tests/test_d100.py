"""System d100 (seed 001): every D100-* rule of RULES.md, pure functions and encounter.

Expected values are derived by hand from the rules in the comments next to them.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import Combatant, EscarmoucheError
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter
from escarmouche.errors import IllegalActionError, ParameterError
from escarmouche.systems import d100
from escarmouche.systems.d100 import (
    ACTION_DEFS,
    ACTIONS,
    LOCATIONS,
    NEAREST_LOCATIONS,
    WEAPONS,
    ActionDef,
    AttackSetup,
    Extended,
    Guard,
    Outcome,
    Rules,
    attack_distribution,
    attack_odds,
    attack_setup,
    check_turn,
    check_two_weapons,
    damage,
    hit_location,
    resolve_attack,
    reverse_digits,
    roll_attack,
    target_number,
)
from escarmouche.text.fmt import percent

# -- fixtures -------------------------------------------------------------------------------

BASE = {"CC": 50, "CT": 40, "F": 40, "E": 30, "Ag": 40, "M": 4, "B": 10}


def fighter(name: str, side: str, skills: Sequence[str] = (), **stats: int) -> Combatant:
    return Combatant(name, side, {**BASE, **stats}, skills=frozenset(skills))


# Aldric: CC 65, E 40 (BE 4), armour 1 everywhere, the skill « esquive »
ALDRIC = fighter("Aldric", "héros", ["esquive"], CC=65, E=40, Ag=40, B=12, PA=1)
# Grolk: CC 45, E 35 (BE 3), Ag 30, armour 1 on the left arm only, 11 wounds
GROLK = fighter("Grolk", "monstres", CC=45, E=35, Ag=30, F=45, B=11, PA_bras_gauche=1)
# Brune: CT 50, Ag 35
BRUNE = fighter("Brune", "héros", CT=50, Ag=35)


def events(enc: Encounter, kind: str) -> list[Any]:
    return [e for e in enc.log if e.kind == kind]


def started(roster: Sequence[Combatant], dice: Sequence[int], **options: Any) -> Encounter:
    enc = Encounter("d100", roster)
    enc.start(ScriptedRolls(dice), **options)
    return enc


# -- D100-TIME-1 ----------------------------------------------------------------------------


def test_round_lasts_ten_seconds_d100_time_1() -> None:
    """D100-TIME-1: a round is about 10 s; 6 rounds = 1 minute."""
    assert d100.elapsed_time(1) == "10 s"
    assert d100.elapsed_time(6) == "1 min"
    assert d100.elapsed_time(8) == "1 min 20 s"
    enc = started([ALDRIC, GROLK], [4, 10])
    enc.end_activation()
    enc.end_activation()
    (temps,) = events(enc, "temps")
    assert temps.data["seconds"] == 10 and "D100-TIME-1" in temps.rules


# -- D100-INIT-1/2 ----------------------------------------------------------------------------


def test_initiative_is_ag_plus_d10_d100_init_1() -> None:
    """D100-INIT-1: Ag + 1d10, one d10 per combatant in the given order."""
    # Aldric 40 + 4 = 44, Grolk 30 + 10 = 40
    init = d100.resolve_initiative([ALDRIC, GROLK], [4, 10])
    assert [(e.name, e.score) for e in init.entries] == [("Aldric", 44), ("Grolk", 40)]
    assert init.order == ("Aldric", "Grolk")
    rng = ScriptedRolls([4, 10])
    assert d100.initiative([ALDRIC, GROLK], rng) == ["Aldric", "Grolk"]
    assert rng.remaining == 0
    # Aldric 40 + 1 = 41 still beats Grolk 30 + 10 = 40
    assert d100.initiative([ALDRIC, GROLK], ScriptedRolls([1, 10])) == ["Aldric", "Grolk"]
    # with Ag 35, Grolk gets 35 + 10 = 45 > 41
    grolk35 = fighter("Grolk", "monstres", Ag=35)
    assert d100.initiative([ALDRIC, grolk35], ScriptedRolls([1, 10])) == ["Grolk", "Aldric"]


def test_initiative_kept_for_whole_fight_d100_init_1() -> None:
    """D100-INIT-1: rolled once at the start; later rounds draw no die."""
    enc = started([ALDRIC, GROLK], [4, 10])
    for _ in range(6):
        enc.end_activation()  # no rng: a die drawn here would raise
    starts = events(enc, "debut_tour")
    assert [e.data["order"] for e in starts] == [["Aldric", "Grolk"]] * 4
    assert len(events(enc, "initiative")[0].dice) == 2


def test_initiative_ties_ag_then_rolloff_d100_init_2() -> None:
    """D100-INIT-2: ties by higher Ag, then 1d10 roll-offs, higher first, until broken."""
    a = fighter("A", "x", Ag=40)
    b = fighter("B", "y", Ag=30)
    c = fighter("C", "x", Ag=40)
    d = fighter("D", "y", Ag=30)
    # scores: A 45, B 35, C 45, D 35; same Ag inside each pair: two tie groups.
    # roll-off round 1 (given order A, B, C, D): A 3, B 6, C 3, D 2 -> B before D;
    # A and C tie again; round 2: A 1, C 10 -> C before A.
    dice = [5, 5, 5, 5, 3, 6, 3, 2, 1, 10]
    init = d100.resolve_initiative([a, b, c, d], dice)
    assert init.order == ("C", "A", "B", "D")
    assert init.rolloffs == ((("A", 3), ("B", 6), ("C", 3), ("D", 2)), (("A", 1), ("C", 10)))
    rng = ScriptedRolls(dice)
    assert d100.initiative([a, b, c, d], rng) == ["C", "A", "B", "D"]
    assert rng.remaining == 0
    # same score, different Ag: no roll-off (A 40 + 5 = 45, E 44 + 1 = 45)
    e = fighter("E", "y", Ag=44)
    rng = ScriptedRolls([5, 1])
    assert d100.initiative([a, e], rng) == ["E", "A"]  # 45 each, E has the higher Ag
    assert rng.remaining == 0


def test_initiative_rolloff_is_bounded_d100_init_2() -> None:
    a, c = fighter("A", "x"), fighter("C", "y")
    with pytest.raises(EscarmoucheError, match="D100-INIT-2"):
        d100.initiative([a, c], ScriptedRolls([5] * 300))
    with pytest.raises(EscarmoucheError, match="manquant"):
        d100.resolve_initiative([a, c], [5, 5, 7])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 100), min_size=1, max_size=8), st.integers(0, 2**32))
def test_initiative_order_is_a_sorted_permutation_d100_init_2(ags: list[int], seed: int
                                                              ) -> None:
    """D100-INIT-2: the order is a permutation, by score then Ag, descending."""
    roster = [fighter(f"F{i}", "x", Ag=ag) for i, ag in enumerate(ags)]
    init = d100.roll_initiative(roster, random.Random(seed))
    assert sorted(init.order) == sorted(c.name for c in roster)
    keys = [(init.score(n), next(c.stats["Ag"] for c in roster if c.name == n))
            for n in init.order]
    assert keys == sorted(keys, reverse=True)
    again = d100.resolve_initiative(roster, [d.value for d in init.dice])
    assert again == init


# -- D100-SURPRISE-1, D100-ROUND-1 ----------------------------------------------------------


def two_weapon_grolk() -> dict[str, Any]:
    return {"Grolk": {"directrice": "arme_a_une_main", "non_directrice": "dague"}}


def test_surprise_round_d100_surprise_1() -> None:
    """D100-SURPRISE-1: in round 1 only the non-surprised act, and the surprised can
    neither parry nor dodge; from round 2 everyone acts."""
    grolk = fighter("Grolk", "monstres", ["esquive"], CC=45, E=35, Ag=30, B=11)
    enc = started([ALDRIC, grolk], [4, 10], surpris="monstres",
                  equipement=two_weapon_grolk())
    assert enc.state.order == ["Aldric"]
    assert "D100-SURPRISE-1" in events(enc, "surprise")[0].rules
    before = enc.to_json()
    rng = ScriptedRolls([30, 20, 5])
    for defence in ("parade", "esquive"):
        with pytest.raises(EscarmoucheError, match="D100-SURPRISE-1"):
            enc.act("Aldric", "attaquer", rng, cible="Grolk", defense=defence)
        assert enc.to_json() == before and rng.used == 0
    enc.end_activation()
    assert enc.turn == 2 and enc.state.order == ["Aldric", "Grolk"]
    assert events(enc, "fin_surprise")
    # round 2: Grolk may parry now (two weapons): 30 <= 65 hits, 20 <= 45 parried
    enc.act("Aldric", "attaquer", rng, cible="Grolk", defense="parade")
    assert events(enc, "attaque")[-1].data["outcome"] == "paree"


def test_surprised_can_defend_option_d100_surprise_1() -> None:
    """D100-SURPRISE-1 ruling as an option: ``surprised_can_defend``."""
    setup = attack_setup(ALDRIC, GROLK, defence="parade",
                         guard=Guard(two_weapons=True, surprised=True),
                         rules=Rules(surprised_can_defend=True))
    assert setup.defence == "parade"
    with pytest.raises(EscarmoucheError, match="D100-SURPRISE-1"):
        attack_setup(ALDRIC, GROLK, defence="parade",
                     guard=Guard(two_weapons=True, surprised=True))
    with pytest.raises(EscarmoucheError, match="D100-SURPRISE-1"):
        started([ALDRIC, GROLK], [4, 10], surpris="dragons")


def test_rounds_each_fighter_once_in_order_d100_round_1() -> None:
    """D100-ROUND-1: characters act in initiative order; the round ends when all acted."""
    # Aldric 44, Brune 35 + 9 = 44 (Ag 35 < 40: after Aldric), Grolk 30 + 10 = 40
    enc = started([ALDRIC, BRUNE, GROLK], [4, 9, 10])
    for _ in range(6):
        enc.end_activation()
    acts = [(e.turn, e.actor) for e in events(enc, "activation")]
    assert acts[:6] == [(1, "Aldric"), (1, "Brune"), (1, "Grolk"),
                        (2, "Aldric"), (2, "Brune"), (2, "Grolk")]
    before = enc.to_json()
    with pytest.raises(EscarmoucheError, match="D100-ROUND-1"):
        enc.act("Grolk", "se_deplacer")
    assert enc.to_json() == before


# -- D100-ACT-1..4 ---------------------------------------------------------------------------


def test_one_full_or_two_half_actions_d100_act_1() -> None:
    """D100-ACT-1: a full action, or two half actions, plus free actions."""
    assert check_turn(["viser", "attaquer"]).halves == 2
    plan = check_turn(["parler", "crier", "course", "parler", "lacher"])
    assert plan.full and plan.halves == 2
    with pytest.raises(EscarmoucheError, match="D100-ACT-1"):
        check_turn(["charge", "se_deplacer"])
    with pytest.raises(EscarmoucheError, match="D100-ACT-1"):
        check_turn(["se_deplacer", "charge"])
    with pytest.raises(EscarmoucheError, match="D100-ACT-1"):
        check_turn(["se_deplacer", "viser", "degainer"])


def test_one_attack_one_casting_per_turn_d100_act_2() -> None:
    """D100-ACT-2: one attack action (« attaque » in the name, or Charge), one casting."""
    with pytest.raises(EscarmoucheError, match="D100-ACT-2"):
        check_turn(["attaquer", "attaquer"])
    with pytest.raises(EscarmoucheError, match="D100-ACT-2"):
        check_turn(["incantation", "incantation"])
    assert check_turn(["charge"]).attacks == 1
    assert check_turn(["incantation", "attaquer"]).castings == 1
    # a designer's new action is an attack action by its name alone
    catalogue = {**ACTION_DEFS, "coup_bas": ActionDef("coup_bas", "attaque sournoise", "demi")}
    with pytest.raises(EscarmoucheError, match="D100-ACT-2"):
        check_turn(["attaquer", "coup_bas"], catalogue=catalogue)
    for d in ACTION_DEFS.values():
        assert d.is_attack == ("attaque" in d.label or d.id == "charge")


def test_action_catalogue_costs_d100_act_3() -> None:
    """D100-ACT-3: the costs of the original edition, as data."""
    expected = {
        "demi": {"attaquer", "viser", "se_deplacer", "degainer", "preparer_parade",
                 "recharger", "incantation"},
        "complete": {"charge", "attaque_brutale", "attaque_prudente", "attaque_rapide",
                     "course"},
        "gratuite": {"parler", "crier", "lacher", "esquive", "parade_main_non_directrice"},
    }
    for cost, ids in expected.items():
        for action_id in ids:
            assert ACTION_DEFS[action_id].cost == cost, action_id
            assert ACTIONS[action_id].cost == d100.COST_LABELS[cost], action_id
    with pytest.raises(EscarmoucheError, match="D100-ACT-3"):
        check_turn(["danser"])
    enc = started([ALDRIC, GROLK], [4, 10])
    with pytest.raises(ParameterError, match="action inconnue"):
        enc.act("Aldric", "danser")
    with pytest.raises(EscarmoucheError, match="réaction"):
        enc.act("Aldric", "esquive")
    assert {a.id for a in enc.actions()} >= {"attaquer", "charge", "viser"}
    assert "esquive" not in {a.id for a in enc.actions()}


def test_extended_actions_d100_act_4() -> None:
    """D100-ACT-4: an extended action goes on without interruption; abandoning it loses
    the time spent."""
    plan = check_turn([("recharger", 4), "recharger"])
    assert plan.extended == Extended("recharger", 2, 4)
    with pytest.raises(EscarmoucheError, match="D100-ACT-4"):
        check_turn([("recharger", 4), "se_deplacer"])
    with pytest.raises(EscarmoucheError, match="D100-ACT-4"):
        check_turn(["se_deplacer"], in_progress=plan.extended)
    # free actions do not interrupt it
    assert check_turn(["parler", "recharger"], in_progress=plan.extended).extended == \
        Extended("recharger", 1, 4)
    done = check_turn(["recharger", "attaquer"],
                      in_progress=Extended("recharger", 1, 4))
    assert done.completed == ("recharger",) and done.extended is None
    dropped = check_turn(["abandonner", "se_deplacer"], in_progress=plan.extended)
    assert dropped.abandoned == ("recharger",) and dropped.extended is None
    with pytest.raises(EscarmoucheError, match="D100-ACT-4"):
        check_turn(["abandonner"])
    with pytest.raises(EscarmoucheError, match="D100-ACT-4"):
        check_turn([("viser", 3)])


def test_pistol_reload_in_encounter_d100_act_4() -> None:
    """D100-ACT-4 in a fight: a pistol needs 4 half actions to reload, in a row."""
    enc = started([BRUNE, GROLK], [9, 1], equipement={"Brune": {"directrice": "pistolet"}})
    # Brune 35 + 9 = 44, Grolk 31. Shot at 5 m (short range 8): CT 50; 20 <= 50 hits,
    # 20 -> 02: head, no armour; 6 + 4 (pistol) - BE 3 = 7 wounds: 11 - 7 = 4
    enc.act("Brune", "attaquer", ScriptedRolls([20, 6]), cible="Grolk", distance=5)
    assert enc.fighter("Grolk").tracks["B"] == 4
    before = enc.to_json()
    with pytest.raises(EscarmoucheError, match="D100-ACT-2"):
        enc.act("Brune", "attaquer", ScriptedRolls([20, 6]), cible="Grolk",
                distance=5)
    assert enc.to_json() == before
    enc.end_activation()
    enc.end_activation()
    before = enc.to_json()
    with pytest.raises(EscarmoucheError, match="D100-ACT-4"):  # not loaded
        enc.act("Brune", "attaquer", ScriptedRolls([20, 6]), cible="Grolk",
                distance=5)
    assert enc.to_json() == before
    enc.act("Brune", "recharger")
    enc.act("Brune", "recharger")
    assert enc.fighter("Brune").flags["extended"] == {"action": "recharger", "remaining": 2,
                                                      "total": 4}
    enc.end_activation()
    enc.end_activation()
    before = enc.to_json()
    with pytest.raises(EscarmoucheError, match="D100-ACT-4"):
        enc.act("Brune", "se_deplacer")
    assert enc.to_json() == before
    enc.act("Brune", "parler")  # free: allowed
    enc.act("Brune", "recharger")
    enc.act("Brune", "recharger")
    assert enc.fighter("Brune").flags["loaded"]["directrice"] is True
    assert events(enc, "recharger")[-1].data["loaded"] is True
    assert [e.text for e in events(enc, "recharger")] == [
        "Brune recharge son arme (pistolet)\u00a0: 1 demi-action faite sur 4, il en reste 3 "
        "(action étendue).",
        "Brune recharge son arme (pistolet)\u00a0: 2 demi-actions faites sur 4, il en reste 2 "
        "(action étendue).",
        "Brune recharge son arme (pistolet)\u00a0: 3 demi-actions faites sur 4, il en reste 1 "
        "(action étendue).",
        "Brune recharge son arme (pistolet)\u00a0: elle est chargée."]


def test_abandon_extended_in_encounter_d100_act_4() -> None:
    enc = started([BRUNE, GROLK], [9, 1])
    enc.act("Brune", "incantation", etapes=3, sort="Boule de feu")
    enc.end_activation()
    enc.end_activation()
    enc.act("Brune", "abandonner")
    enc.act("Brune", "se_deplacer")
    # 3 half actions, 1 spent in round 1: lost
    assert events(enc, "abandon")[0].text == ("Brune abandonne «\u00a0incantation\u00a0»\u00a0: "
                                              "1 demi-action perdue.")


# -- D100-ATK-1..7 ---------------------------------------------------------------------------


def test_attack_roll_at_most_cc_or_ct_d100_atk_1() -> None:
    """D100-ATK-1: the attack hits when d100 <= CC (melee) or CT (ranged)."""
    setup = attack_setup(ALDRIC, GROLK)
    assert setup.target.stat == "CC" and setup.target.total == 65
    assert resolve_attack(setup, 65, damage_roll=1).hit
    assert resolve_attack(setup, 66).outcome is Outcome.MISS
    shot = attack_setup(BRUNE, GROLK, "arc", distance=10)
    assert shot.target.stat == "CT" and shot.target.total == 50
    assert resolve_attack(shot, 50, damage_roll=1).hit
    assert not resolve_attack(shot, 51).hit
    # after modifiers, a total <= 0 never hits, one >= 100 always does (CORE-ERR)
    hopeless = attack_setup(fighter("X", "x", CC=10), GROLK, hand="non_directrice")
    assert hopeless.target.total == -10 and not resolve_attack(hopeless, 1).hit
    sure = attack_setup(ALDRIC, GROLK, gm_modifier=40)
    assert sure.target.total == 105 and resolve_attack(sure, 100, damage_roll=1).hit
    with pytest.raises(EscarmoucheError, match="D100-ATK-1"):
        target_number(ALDRIC, "dague", distance=3)  # melee: no distance
    with pytest.raises(EscarmoucheError, match="D100-ATK-1"):
        attack_setup(ALDRIC, ALDRIC)


def test_hit_location_reversed_digits_d100_atk_2() -> None:
    """D100-ATK-2: the text's own example, 37 -> 73 (the body), and the table's edges."""
    assert reverse_digits(37) == 73 and hit_location(37) == "corps"
    assert reverse_digits(5) == 50 and hit_location(5) == "bras gauche"
    assert reverse_digits(100) == 100 and hit_location(100) == "jambe gauche"
    assert reverse_digits(10) == 1 and hit_location(10) == "tête"
    edges = {15: "tête", 16: "bras droit", 35: "bras droit", 36: "bras gauche",
             55: "bras gauche", 56: "corps", 80: "corps", 81: "jambe droite",
             90: "jambe droite", 91: "jambe gauche", 100: "jambe gauche", 1: "tête"}
    for value, zone in edges.items():
        assert d100.location_of(value) == zone
    for bad in (0, 101):
        with pytest.raises(EscarmoucheError, match="D100-ATK-2"):
            hit_location(bad)
    # the example as a whole attack: Aldric rolls 37 (<= 65) and hits Grolk's body
    result = resolve_attack(attack_setup(ALDRIC, GROLK), 37, damage_roll=5)
    assert (result.location_value, result.location) == (73, "corps")
    assert "(jet 37 → 73)" in result.sentence


@given(st.integers(1, 100))
def test_location_is_reversed_roll_d100_atk_2(roll: int) -> None:
    value = reverse_digits(roll)
    assert 1 <= value <= 100
    assert hit_location(roll) == d100.location_of(value)
    if roll % 10:
        assert reverse_digits(value) == roll  # swapping twice gives the roll back


def test_damage_with_be_and_armour_d100_atk_3() -> None:
    """D100-ATK-3: 1d10 + weapon − BE − armour on the zone, never below 0."""
    assert damage(4, 3, 3, 1) == 3
    assert damage(1, 0, 3, 2) == 0
    assert damage(10, 5, 0, 0) == 15
    with pytest.raises(EscarmoucheError, match="D100-ATK-3"):
        damage(11, 3, 3, 1)
    knight = fighter("K", "x", PA=2, PA_tete=4)
    assert d100.armour_at(knight, "tête") == 4 and d100.armour_at(knight, "corps") == 2
    assert d100.armour_at(GROLK, "bras gauche") == 1 and d100.armour_at(GROLK, "tête") == 0
    with pytest.raises(EscarmoucheError, match="D100-ATK-3"):
        d100.validate_combatant(fighter("K", "x", PA_casque=2))
    with pytest.raises(EscarmoucheError, match="D100-ATK-3"):
        attack_setup(ALDRIC, GROLK, "épée")


def test_gm_sentence_d100_atk_4() -> None:
    """D100-ATK-4: the GM's sentence, for a hit, a miss, a parry, a dodge, 0 damage."""
    setup = attack_setup(ALDRIC, GROLK, "arme_a_une_main")
    # 63 <= 65; 63 -> 36: left arm (armour 1); 4 + 3 = 7; 7 - 3 - 1 = 3; 11 - 3 = 8
    hit = resolve_attack(setup, 63, damage_roll=4)
    assert hit.sentence == ("Aldric touche Grolk au bras gauche (jet 63 → 36) : 7 dégâts − "
                            "BE 3 − armure 1 = 3 blessures ; il lui en reste 8.")
    assert (hit.raw_damage, hit.armour, hit.wounds_lost, hit.wounds_left) == (7, 1, 3, 8)
    assert resolve_attack(setup, 72).sentence == "Aldric manque Grolk (jet 72 > 65)."
    parry = attack_setup(ALDRIC, GROLK, defence="parade", guard=Guard(parry_prepared=True))
    assert resolve_attack(parry, 30, 45).sentence == (
        "Aldric touche Grolk (jet 30 ≤ 65), mais Grolk pare (jet 45 ≤ 45) : aucun dégât.")
    dodge = attack_setup(GROLK, ALDRIC, defence="esquive")
    assert resolve_attack(dodge, 30, 12).sentence == (
        "Grolk touche Aldric (jet 30 ≤ 45), mais Aldric esquive (jet 12 ≤ 40) : l’attaque "
        "est manquée, pas de jet de dégâts.")
    # 30 -> 03: head; Aldric's armour 1, BE 4; dagger 1 + d10 1 = 2 -> 2 - 4 - 1 < 0 -> 0
    nothing = resolve_attack(attack_setup(GROLK, ALDRIC, "dague"), 30, damage_roll=1)
    assert nothing.sentence == ("Grolk touche Aldric à la tête (jet 30 → 03) : 2 dégâts − "
                                "BE 4 − armure 1 = 0 blessure ; il lui en reste 12.")
    failed = resolve_attack(dodge, 30, 41, 5)
    assert failed.sentence == (
        "Grolk touche Aldric à la tête (jet 30 → 03) malgré son esquive (jet 41 > 40) : "
        "8 dégâts − BE 4 − armure 1 = 3 blessures ; il lui en reste 9.")
    last = resolve_attack(attack_setup(ALDRIC, GROLK, wounds=2), 63, damage_roll=4)
    assert last.sentence.endswith("= 3 blessures ; il ne lui en reste aucune.")


def test_off_hand_minus_20_d100_atk_5() -> None:
    """D100-ATK-5: the off hand has −20, in melee and at range."""
    melee = target_number(ALDRIC, "dague", hand="non_directrice")
    assert melee.total == 45 and [m.value for m in melee.modifiers] == [-20]
    assert "D100-ATK-5" in melee.modifiers[0].rules
    shot = target_number(BRUNE, "pistolet", hand="non_directrice", distance=4)
    assert shot.total == 30 and shot.modifiers[0].rules == ("D100-ATK-5",)
    setup = attack_setup(ALDRIC, GROLK, "dague", hand="non_directrice")
    assert resolve_attack(setup, 45, damage_roll=1).hit and not resolve_attack(setup, 46).hit
    assert target_number(ALDRIC, "dague", hand="non_directrice",
                         rules=Rules(off_hand_modifier=-10)).total == 55


def test_unreachable_zone_substituted_d100_atk_6() -> None:
    """D100-ATK-6: a halfling cannot reach a troll's head: the blow hits its body."""
    halfling = fighter("Pip", "héros", CC=60)
    troll = fighter("Troll", "monstres", E=50, B=30, PA_corps=2)
    setup = attack_setup(halfling, troll, unreachable=["tête"])
    # 51 -> 15: head, unreachable -> body (armour 2); 6 + 3 - BE 5 - 2 = 2
    result = resolve_attack(setup, 51, damage_roll=6)
    assert (result.rolled_location, result.location) == ("tête", "corps")
    assert result.substituted and result.wounds_lost == 2 and "D100-ATK-6" in result.rules
    assert "tête hors d’atteinte" in result.sentence
    # agreement: the head is replaced, the blow lands on the body (not « tête …
    # remplacé par corps »); the steps carry the text's numbers 1–5 (D100-ATK-1..4)
    steps = result.steps()
    assert ("2. Localisation : 51 inversé → 15, tête, hors d’atteinte ; le coup porte sur "
            "le corps (D100-ATK-6) (D100-ATK-2).") in steps
    assert [line[:2] for line in steps if line[:1].isdigit()] == ["1.", "2.", "3.", "4.", "5."]
    assert not any("remplacé par" in line for line in steps)
    assert d100.substitute_location("tête", ["tête", "corps"]) == "bras droit"
    assert d100.substitute_location("bras gauche", ["tete"]) == "bras gauche"
    for zone, order in NEAREST_LOCATIONS.items():
        assert sorted(order) == sorted(z for z in LOCATIONS if z != zone)
    with pytest.raises(EscarmoucheError, match="D100-ATK-6"):
        attack_setup(halfling, troll, unreachable=LOCATIONS)
    with pytest.raises(EscarmoucheError, match="D100-ATK-6"):
        attack_setup(halfling, troll, unreachable=["queue"])


def test_rider_or_mount_d100_atk_7() -> None:
    """D100-ATK-7: against a mounted character the attacker chooses rider or mount."""
    rider = fighter("Hugues", "héros", E=30, B=10, Ag=20)
    horse = fighter("Destrier", "héros", E=50, B=20, Ag=10)
    at_rider = attack_setup(GROLK, rider, mount=horse)
    assert at_rider.defender.name == "Hugues" and "D100-ATK-7" in at_rider.rules
    at_horse = attack_setup(GROLK, rider, mount=horse, aim="monture")
    assert at_horse.defender.name == "Destrier" and at_horse.rider == "Hugues"
    # 37 -> 73: body; 5 + 3 - BE 5 = 3; 20 - 3 = 17
    result = resolve_attack(at_horse, 37, damage_roll=5)
    assert result.sentence == ("Grolk touche Destrier (monture de Hugues) au corps (jet 37 → "
                               "73) : 8 dégâts − BE 5 − armure 0 = 3 blessures ; il lui en "
                               "reste 17.")
    with pytest.raises(EscarmoucheError, match="D100-ATK-7"):
        attack_setup(GROLK, rider, aim="monture")
    with pytest.raises(EscarmoucheError, match="D100-ATK-7"):
        attack_setup(GROLK, rider, mount=horse, aim="selle")


def test_rider_or_mount_in_encounter_d100_atk_7() -> None:
    rider = fighter("Hugues", "héros", E=30, B=10, Ag=20)
    horse = fighter("Destrier", "héros", E=50, B=20, Ag=10)
    # Grolk 30 + 10 = 40 first; Hugues 20 + 1 = 21, Destrier 10 + 1 = 11
    enc = started([GROLK, rider, horse], [10, 1, 1], montures={"Hugues": "Destrier"})
    enc.act("Grolk", "attaquer", ScriptedRolls([37, 5]), cible="Hugues",
            visee="monture")
    assert enc.fighter("Destrier").tracks["B"] == 17
    assert enc.fighter("Hugues").tracks["B"] == 10
    with pytest.raises(EscarmoucheError, match="D100-ATK-7"):
        started([GROLK, rider, horse], [10, 1, 1], montures={"Hugues": "Hugues"})


# -- D100-PARRY-1..4, D100-DODGE-1/2 -------------------------------------------------------


def test_defence_only_after_a_hit_d100_parry_1() -> None:
    """D100-PARRY-1: the defence is rolled only after a successful attack, and one
    attack is never both parried and dodged."""
    grolk = fighter("Grolk", "monstres", ["esquive"], CC=45, E=35, Ag=30, B=11)
    setup = attack_setup(ALDRIC, grolk, defence="parade", guard=Guard(parry_prepared=True))
    rng = ScriptedRolls([80])
    result = roll_attack(setup, rng)  # 80 > 65: no defence die
    assert rng.remaining == 0 and result.defence_roll is None
    with pytest.raises(EscarmoucheError, match="D100-PARRY-1"):
        attack_setup(ALDRIC, grolk, defence="parade et esquive")
    enc = started([ALDRIC, grolk], [4, 10], equipement=two_weapon_grolk())
    enc.act("Aldric", "attaquer", ScriptedRolls([80]), cible="Grolk",
            defense="parade")
    assert enc.fighter("Grolk").flags["parries"] == 0  # a miss uses no parry
    odds = attack_odds(65, defence="parade", defence_target=45)
    assert odds.defended == Fraction(65, 100) * Fraction(45, 100)


def test_parry_needs_preparation_or_two_weapons_d100_parry_2() -> None:
    """D100-PARRY-2: a prepared parry or a weapon in each hand; d100 <= CC: no damage."""
    with pytest.raises(EscarmoucheError, match="D100-PARRY-2"):
        attack_setup(ALDRIC, GROLK, defence="parade")
    prepared = attack_setup(ALDRIC, GROLK, defence="parade", guard=Guard(parry_prepared=True))
    assert prepared.parry_source == "preparee"
    off_hand = attack_setup(ALDRIC, GROLK, defence="parade", guard=Guard(two_weapons=True))
    assert off_hand.parry_source == "main_non_directrice"
    rng = ScriptedRolls([30, 45])
    result = roll_attack(prepared, rng)  # 45 <= CC 45: parried, no d10
    assert result.outcome is Outcome.PARRIED and result.wounds_lost == 0
    assert rng.remaining == 0 and result.damage_roll is None
    failed = resolve_attack(prepared, 30, 46, 2)  # 46 > 45: the blow lands
    assert failed.outcome is Outcome.HIT and failed.wounds_lost == 2  # 30->03 head: 5-3
    # in a fight: Grolk prepares a parry (round 1), uses it in round 2
    enc = started([ALDRIC, GROLK], [4, 10])
    enc.end_activation()
    enc.act("Grolk", "preparer_parade")
    enc.end_activation()
    enc.act("Aldric", "attaquer", ScriptedRolls([30, 45]), cible="Grolk",
            defense="parade")
    assert enc.fighter("Grolk").flags["parry_prepared"] is False
    assert events(enc, "attaque")[-1].data["outcome"] == "paree"


def test_one_parry_per_round_d100_parry_3() -> None:
    """D100-PARRY-3: one parry per round (count reset at each round); a second one is
    refused and changes nothing; a prepared parry lasts until the defender's next turn."""
    # Aldric 44, Brune 35 + 9 = 44 (lower Ag), Grolk 40
    enc = started([ALDRIC, BRUNE, GROLK], [4, 9, 10], equipement=two_weapon_grolk())
    enc.act("Aldric", "attaquer", ScriptedRolls([30, 20]), cible="Grolk",
            defense="parade")
    assert enc.fighter("Grolk").flags["parries"] == 1
    enc.end_activation()
    before = enc.to_json()
    rng = ScriptedRolls([30, 20, 3])
    with pytest.raises(EscarmoucheError, match="D100-PARRY-3"):
        enc.act("Brune", "attaquer", rng, cible="Grolk", defense="parade")
    assert enc.to_json() == before and rng.used == 0
    enc.end_activation()
    enc.end_activation()  # round 2: the count is reset
    assert enc.fighter("Grolk").flags["parries"] == 0
    enc.act("Aldric", "attaquer", ScriptedRolls([30, 20]), cible="Grolk",
            defense="parade")
    # a prepared parry that is not used ends at the start of its owner's next turn
    enc2 = started([ALDRIC, GROLK], [4, 10])
    enc2.end_activation()
    enc2.act("Grolk", "preparer_parade")
    enc2.end_activation()
    enc2.end_activation()  # Grolk's round-2 turn starts
    assert enc2.fighter("Grolk").flags["parry_prepared"] is False
    assert "D100-PARRY-3" in events(enc2, "parade_expiree")[0].rules


def test_only_melee_can_be_parried_d100_parry_4() -> None:
    """D100-PARRY-4: a ranged attack cannot be parried."""
    with pytest.raises(EscarmoucheError, match="D100-PARRY-4"):
        attack_setup(BRUNE, GROLK, "arc", distance=10, defence="parade",
                     guard=Guard(parry_prepared=True))


def test_dodge_needs_the_skill_d100_dodge_1() -> None:
    """D100-DODGE-1: only with « esquive »; d100 <= Ag: no damage roll at all."""
    with pytest.raises(EscarmoucheError, match="D100-DODGE-1"):
        attack_setup(ALDRIC, GROLK, defence="esquive")
    setup = attack_setup(GROLK, ALDRIC, defence="esquive")
    rng = ScriptedRolls([30, 40])
    result = roll_attack(setup, rng)  # 40 <= Ag 40
    assert result.outcome is Outcome.DODGED and rng.remaining == 0
    assert resolve_attack(setup, 30, 41, 5).outcome is Outcome.HIT


def test_one_dodge_per_round_d100_dodge_2() -> None:
    """D100-DODGE-2: one dodge per round; a projectile cannot be dodged."""
    with pytest.raises(EscarmoucheError, match="D100-DODGE-2"):
        attack_setup(GROLK, ALDRIC, defence="esquive", guard=Guard(dodges_used=1))
    with pytest.raises(EscarmoucheError, match="D100-DODGE-2"):
        attack_setup(BRUNE, ALDRIC, "arc", distance=5, defence="esquive")
    # Grolk 40 + 10 = 50, Troll 40 + 9 = 49, Aldric 40 + 1 = 41
    grolk = fighter("Grolk", "monstres", CC=45, E=35)
    troll = fighter("Troll", "monstres", CC=45, E=35)
    enc = started([grolk, troll, ALDRIC], [10, 9, 1])
    enc.act("Grolk", "attaquer", ScriptedRolls([30, 12]), cible="Aldric",
            defense="esquive")
    enc.end_activation()
    before = enc.to_json()
    with pytest.raises(EscarmoucheError, match="D100-DODGE-2"):
        enc.act("Troll", "attaquer", ScriptedRolls([30, 12]), cible="Aldric",
                defense="esquive")
    assert enc.to_json() == before


# -- D100-TWO-1/2 ------------------------------------------------------------------------------


def test_two_weapon_lists_d100_two_1() -> None:
    """D100-TWO-1: main hand among six weapons, off hand among six; else refused."""
    assert check_two_weapons("rapière", "main gauche").main == "rapiere"
    assert check_two_weapons("fléau", "brise-lame").off == "brise_lame"
    with pytest.raises(EscarmoucheError, match="D100-TWO-1"):
        check_two_weapons("arme_a_deux_mains", "dague")
    with pytest.raises(EscarmoucheError, match="D100-TWO-1"):
        check_two_weapons("dague", "rapiere")
    with pytest.raises(EscarmoucheError, match="D100-TWO-1"):
        started([ALDRIC, GROLK], [4, 10],
                equipement={"Aldric": {"directrice": "arc", "non_directrice": "dague"}})
    with pytest.raises(EscarmoucheError, match="D100-ATK-3"):
        started([ALDRIC, GROLK], [4, 10], equipement={"Aldric": {"directrice": "épée"}})
    enc = started([ALDRIC, GROLK], [4, 10], equipement={"Aldric": {"directrice": "fleau"}})
    before = enc.to_json()
    with pytest.raises(EscarmoucheError, match="D100-TWO-1"):
        enc.act("Aldric", "degainer", arme="fleuret", main="non_directrice")
    assert enc.to_json() == before
    enc.act("Aldric", "degainer", arme="bouclier", main="non_directrice")
    assert enc.fighter("Aldric").flags["hands"] == {"directrice": "fleau",
                                                    "non_directrice": "bouclier"}


def test_either_hand_no_extra_attack_d100_two_2() -> None:
    """D100-TWO-2: either hand may attack, the off hand at −20 CC, no extra attack."""
    enc = started([ALDRIC, GROLK], [4, 10], equipement={
        "Aldric": {"directrice": "arme_a_une_main", "non_directrice": "dague"}})
    # off hand: 65 - 20 = 45; 45 hits; 45 -> 54 left arm (Grolk armour 1); 4 + 1 - 3 - 1 = 1
    enc.act("Aldric", "attaquer", ScriptedRolls([45, 4]), cible="Grolk",
            main="non_directrice")
    attack = events(enc, "attaque")[-1]
    assert attack.data["target"]["total"] == 45 and attack.data["wounds_lost"] == 1
    assert "D100-TWO-2" in attack.rules
    with pytest.raises(EscarmoucheError, match="D100-ACT-2"):
        enc.act("Aldric", "attaquer", ScriptedRolls([10, 4]), cible="Grolk")


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
    """D100-RANGED-4: shooting at a target engaged in melee: −20 CT."""
    t = target_number(BRUNE, "arc", distance=5, target_engaged=True)
    assert t.total == 30 and t.modifiers[0].rules == ("D100-RANGED-4",)


def test_ranges_d100_ranged_5() -> None:
    """D100-RANGED-5: bow 24/48: −20 beyond 24 m, allowed up to 96 m, impossible beyond."""
    assert WEAPONS["arc"].short_range == 24 and WEAPONS["arc"].long_range == 48
    short = target_number(BRUNE, "arc", distance=24)
    assert (short.total, short.range_band) == (50, "courte")
    long_ = target_number(BRUNE, "arc", distance=25)
    assert (long_.total, long_.range_band) == (30, "longue")
    desperate = target_number(BRUNE, "arc", distance=96)
    assert (desperate.total, desperate.range_band) == (30, "désespérée")
    with pytest.raises(EscarmoucheError, match="D100-RANGED-5"):
        target_number(BRUNE, "arc", distance=96.5)
    for bad in (-1, None):
        with pytest.raises(EscarmoucheError, match="D100-RANGED-5"):
            target_number(BRUNE, "arc", distance=bad)
    harsh = Rules(desperate_shot_modifier=-10)
    assert target_number(BRUNE, "arc", distance=60, rules=harsh).total == 20
    # all modifiers together: off hand, engaged target, long range, GM: 50-20-20-20+5
    every = target_number(BRUNE, "arbalete_de_poing", hand="non_directrice", distance=10,
                          target_engaged=True, gm_modifier=5)
    assert every.total == -5
    assert [m.rules for m in every.modifiers] == [
        ("D100-ATK-5",), ("D100-RANGED-4",), ("D100-RANGED-5",), ("D100-RANGED-6",)]


def test_gm_modifier_d100_ranged_6() -> None:
    """D100-RANGED-6: the GM's free situational modifier."""
    t = target_number(BRUNE, "arc", distance=5, gm_modifier=15)
    assert t.total == 65 and t.modifiers[0].label == "modificateur du MJ"
    with pytest.raises(EscarmoucheError, match="D100-RANGED-6"):
        target_number(BRUNE, "arc", distance=5, gm_modifier=500)


# -- D100-JUMP-1/2 --------------------------------------------------------------------------


def test_controlled_drop_d100_jump_1() -> None:
    """D100-JUMP-1: one Ag test per started 3 m; at the first failure the fall is from
    the height still to go."""
    # 7 m: ceil(7/3) = 3 tests; Ag 40: 20, 35 pass, 90 fails at test 3: 7 - 6 = 1 m
    jump = d100.drop_jump(7, 40, [20, 35, 90])
    assert (jump.tests, jump.failed_test, jump.fall_height) == (3, 3, 1)
    first = d100.drop_jump(7, 40, [41, 1, 1])
    assert (first.failed_test, first.fall_height, first.rolls) == (1, 7, (41,))
    ok = d100.drop_jump(6, 40, [40, 1])
    assert ok.success and ok.tests == 2 and ok.fall_height == 0
    rng = ScriptedRolls([90, 1, 1])
    assert d100.roll_drop_jump(ALDRIC, 9, rng).failed_test == 1
    assert rng.used == 1  # no die after the failure
    with pytest.raises(EscarmoucheError, match="D100-JUMP-1"):
        d100.drop_jump(7, 40, [20])
    with pytest.raises(EscarmoucheError, match="D100-JUMP-1"):
        d100.drop_jump(-2, 40, [])


def test_long_jump_d100_jump_2() -> None:
    """D100-JUMP-2: run-up >= 4 m; max M + BF; F test; −1 m per degree of failure."""
    # M 4, F 45: BF 4, max 8
    assert d100.long_jump(4, 45, 5, 45).distance == 8
    # 60 > 45: ceil(15/10) = 2 degrees: 6 m
    failed = d100.long_jump(4, 45, 5, 60)
    assert (failed.degrees, failed.distance) == (2, 6)
    # 46 > 45: 1 degree
    assert d100.long_jump(4, 45, 4, 46).degrees == 1
    # F 5, roll 100: ceil(95/10) = 10 degrees, max 4 + 0: never below 0
    assert d100.long_jump(4, 5, 4, 100).distance == 0
    rng = ScriptedRolls([1])
    with pytest.raises(EscarmoucheError, match="D100-JUMP-2"):
        d100.roll_long_jump(GROLK, 3, rng)
    assert rng.used == 0
    assert d100.roll_long_jump(GROLK, 4, rng).distance == 8
    enc = started([ALDRIC, GROLK], [4, 10])
    enc.act("Aldric", "saut_en_longueur", ScriptedRolls([50]), elan=6)
    # Aldric M 4, F 40 (BF 4): 50 > 40, 1 degree: 7 m
    assert events(enc, "saut_en_longueur")[0].data["distance"] == 7
    enc.act("Aldric", "saut", ScriptedRolls([10, 99]), hauteur=5)
    assert events(enc, "saut")[0].data["fall_height"] == 2


# -- exact odds -------------------------------------------------------------------------------


def test_attack_odds_api() -> None:
    """API.md attack_odds: exact fractions, totals clamped to 0–100 (D100-ATK-1)."""
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


# -- the encounter ----------------------------------------------------------------------------


def test_scripted_fight() -> None:
    """A whole fight with fixed dice, from initiative to the last blow."""
    enc = started([ALDRIC, GROLK], [4, 10])
    init = events(enc, "initiative")[0]
    assert [d.value for d in init.dice] == [4, 10] and enc.current == "Aldric"
    enc.act("Aldric", "attaquer", ScriptedRolls([63, 4]), cible="Grolk")
    first = events(enc, "attaque")[0]
    assert first.text == ("Aldric touche Grolk au bras gauche (jet 63 → 36)\u00a0: 7 dégâts − "
                          "BE 3 − armure 1 = 3 blessures\u202f; il lui en reste 8.")
    assert [(d.faces, d.value) for d in first.dice] == [(100, 63), (10, 4)]
    assert enc.fighter("Grolk").tracks["B"] == 8
    enc.end_activation()
    # 30 <= 45; Aldric dodges 41 > 40: fails; 30 -> 03 head; 5 + 3 - 4 - 1 = 3: 12 - 3 = 9
    enc.act("Grolk", "attaquer", ScriptedRolls([30, 41, 5]), cible="Aldric",
            defense="esquive")
    assert enc.fighter("Aldric").tracks["B"] == 9
    assert enc.fighter("Aldric").flags["dodges"] == 1
    enc.end_activation()
    # round 2: 12 <= 65, 12 -> 21: right arm, no armour; 10 + 3 - 3 = 10 >= 8: out
    enc.act("Aldric", "attaquer", ScriptedRolls([12, 10]), cible="Grolk")
    assert enc.fighter("Grolk").tracks["B"] == 0 and enc.fighter("Grolk").out
    assert enc.finished and enc.outcome == "victoire du camp « héros »"
    assert Encounter.from_json(enc.to_json()).to_json() == enc.to_json()


def test_bad_input_is_french_and_changes_nothing() -> None:
    with pytest.raises(EscarmoucheError) as err:
        Encounter("d100", [fighter("Aldric", "héros", CC=140), GROLK])
    assert str(err.value) == ("CC = 140\u00a0: un nombre entier entre 0 et 100 est attendu pour "
                              "Aldric (D100-ATK-1)")
    with pytest.raises(ParameterError, match="CT = rien\u00a0: caractéristique manquante"):
        Encounter("d100", [Combatant("X", "x", {"CC": 50}), GROLK])
    enc = started([BRUNE, GROLK], [9, 1], equipement={"Brune": {"directrice": "arc"}})
    before = enc.to_json()
    rng = ScriptedRolls([10, 5])
    for params in ({"cible": "Grolk", "distance": -3},
                   {"cible": "Grolk", "distance": 200},
                   {"cible": "Grolk"},
                   {"cible": "Personne", "distance": 5},
                   {"cible": "Grolk", "distance": 5, "defense": "parade"},
                   {"cible": "Grolk", "distance": 5, "defence": "parade"},
                   {"target": "Grolk", "distance": 5},
                   {"cible": "Grolk", "distance": 5, "main": "gauche"}):
        with pytest.raises(EscarmoucheError):
            enc.act("Brune", "attaquer", rng, **params)
        assert enc.to_json() == before and rng.used == 0
    with pytest.raises(EscarmoucheError, match="D100-ACT-3"):
        enc.act("Brune", "charge", rng, cible="Grolk", distance=5)  # a shot is standard
    with pytest.raises(EscarmoucheError, match="option"):
        started([BRUNE, GROLK], [9, 1], surprise="héros")


def test_automated_fight_round_trips_and_is_deterministic() -> None:
    roster = [ALDRIC, BRUNE, GROLK, fighter("Troll", "monstres", ["esquive"], B=15)]
    equipment = {"Brune": {"directrice": "pistolet"},
                 "Grolk": {"directrice": "arme_a_une_main", "non_directrice": "bouclier"}}

    def fight(seed: int) -> Encounter:
        enc = Encounter("d100", roster)
        enc.start(random.Random(seed), equipement=equipment)
        enc.run(random.Random(seed + 1), max_turns=40)
        return enc

    for seed in range(5):
        a, b = fight(seed), fight(seed)
        assert a.to_json() == b.to_json()
        assert a.finished
        text = a.to_json()
        assert Encounter.from_json(text).to_json() == text
        assert json.loads(text)["system"] == "d100"
        kinds = {e.kind for e in a.log}
        assert "attaque" in kinds


def test_rules_round_trip_and_validation() -> None:
    rules = Rules(off_hand_modifier=-10, surprised_can_defend=True)
    enc = Encounter("d100", [ALDRIC, GROLK], rules=rules)
    enc.start(ScriptedRolls([4, 10]))
    again = Encounter.from_json(enc.to_json())
    assert again.rules == rules
    with pytest.raises(EscarmoucheError):
        Rules(max_range_factor=0)
    with pytest.raises(EscarmoucheError):
        Rules(default_weapon="épée")


# actions whose legality depends on the plan alone (a second « préparer une parade »
# is refused by the state: a parry is already prepared, D100-PARRY-3)
_SIMPLE = ["viser", "se_deplacer", "course", "parler", "crier", "incantation", "charge",
           "attaque_brutale", "abandonner"]


@given(st.lists(st.sampled_from(sorted(ACTIONS)), max_size=6))
def test_turn_plan_invariants_d100_act_1(actions: list[str]) -> None:
    """D100-ACT-1/2: an accepted plan never exceeds two half actions, one attack, one
    casting; a refused one names D100-ACT-1, -2 or -4."""
    try:
        plan = check_turn(actions)
    except EscarmoucheError as err:
        assert err.rule in {"D100-ACT-1", "D100-ACT-2", "D100-ACT-4"}
        return
    assert plan.halves == sum(ACTION_DEFS[a].halves for a in actions) <= 2
    assert plan.attacks <= 1 and plan.castings <= 1
    assert plan.full == any(ACTION_DEFS[a].cost == "complete" for a in actions)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(_SIMPLE), max_size=5))
def test_encounter_checks_actions_one_by_one_like_the_whole_plan_d100_act_1(
    actions: list[str]
) -> None:
    """D100-ACT-1..4: the encounter accepts an action exactly when the plan so far plus
    that action passes ``check_turn``; a refused action changes nothing."""
    enc = started([ALDRIC, GROLK], [4, 10])
    accepted: list[str] = []
    for action in actions:
        params: dict[str, Any] = {"cible": "Grolk"} if action in ("charge",
                                                                   "attaque_brutale") else {}
        try:
            check_turn([*accepted, action])
            legal = True
        except EscarmoucheError:
            legal = False
        before = enc.to_json()
        if legal:
            enc.act("Aldric", action, ScriptedRolls([99]), **params)  # 99 > 65: a miss
            accepted.append(action)
        else:
            with pytest.raises(EscarmoucheError):
                enc.act("Aldric", action, ScriptedRolls([99]), **params)
            assert enc.to_json() == before


def test_custom_weapons_start_option_d100_ranged_5() -> None:
    """Weapons are data: a fight may add its own; a negative range is refused."""
    javelin = {"nom": "javelot", "degats": 2, "tir": True, "courte_portee": 8,
               "longue_portee": 16}
    enc = started([BRUNE, GROLK], [9, 1], armes={"javelot": javelin},
                  equipement={"Brune": {"directrice": "javelot"}})
    # 16 m: beyond short range (-20): CT 50 - 20 = 30; 30 hits; 30 -> 03 head: 5 + 2 - 3 = 4
    enc.act("Brune", "attaquer", ScriptedRolls([30, 5]), cible="Grolk", distance=16)
    assert enc.fighter("Grolk").tracks["B"] == 7
    with pytest.raises(EscarmoucheError, match="D100-RANGED-5"):
        started([BRUNE, GROLK], [9, 1],
                armes={"javelot": {**javelin, "courte_portee": -8}})
    with pytest.raises(EscarmoucheError, match="D100-RANGED-5"):
        d100.Weapon("fronde2", "fronde", 1, ranged=True, short_range=10, long_range=5)


# -- the package's shape, French parameters, error kinds, notebook display ---------------------


def test_catalogue_is_documented_action_specs_with_french_parameters() -> None:
    """Every action is an ActionSpec with a French doc and French parameter names; the
    attack action is « attaquer »; every kind has a resolver (D100-ACT-3)."""
    from escarmouche.systems.base import ActionSpec

    assert "attaquer" in ACTIONS and "attaque_standard" not in ACTIONS
    assert ACTIONS["attaquer"].required == ("cible",)
    english = {"target", "hand", "defence", "target_engaged", "shooter_engaged",
               "line_of_sight", "modifier", "aim", "unreachable", "weapon", "steps",
               "spell", "height", "run_up"}
    for spec in ACTIONS.values():
        assert isinstance(spec, ActionSpec) and spec.doc and spec.label and spec.cost
        assert not english & set(spec.params), spec.id
        assert set(spec.required) <= set(spec.params)
        assert spec.resolver_key in d100.RESOLVERS
        assert spec.rules and all(r.startswith("D100-") for r in spec.rules)
    assert d100.SYSTEM.start_options == ("surpris", "equipement", "montures", "armes")
    assert {o.name for o in d100.SYSTEM.options()} == set(d100.SYSTEM.rules_to_json(Rules()))


def test_english_names_are_refused_in_french() -> None:
    """CORE-ERR: the old English parameters and start options are unknown now."""
    enc = started([ALDRIC, GROLK], [4, 10])
    before = enc.to_json()
    with pytest.raises(ParameterError, match=("ne prend pas ce paramètre\u202f; paramètres\u00a0: "
                                              "cible")):
        enc.act("Aldric", "attaquer", ScriptedRolls([30, 4]), target="Grolk")
    with pytest.raises(ParameterError, match="a besoin de ce paramètre"):
        enc.act("Aldric", "attaquer", ScriptedRolls([30, 4]))
    assert enc.to_json() == before
    with pytest.raises(EscarmoucheError, match="option"):
        started([ALDRIC, GROLK], [4, 10], surprised="héros")


def test_error_kinds_bad_value_or_forbidden_now() -> None:
    """A bad value raises ParameterError; a well-formed action the rules forbid now raises
    IllegalActionError (the same class as in every system)."""
    enc = started([ALDRIC, GROLK], [4, 10])
    rng = ScriptedRolls([30, 4])
    with pytest.raises(ParameterError, match="D100-PARRY-1"):
        enc.act("Aldric", "attaquer", rng, cible="Grolk", defense="contre")
    with pytest.raises(ParameterError, match="D100-ATK-5"):
        enc.act("Aldric", "attaquer", rng, cible="Grolk", main="gauche")
    with pytest.raises(ParameterError, match="D100-ATK-1"):
        enc.act("Aldric", "attaquer", rng, cible="Personne")
    with pytest.raises(ParameterError, match="D100-ATK-1"):
        enc.act("Aldric", "attaquer", rng, cible="Grolk", modificateur=True)
    with pytest.raises(IllegalActionError, match="D100-PARRY-2"):
        enc.act("Aldric", "attaquer", rng, cible="Grolk", defense="parade")
    with pytest.raises(IllegalActionError, match="D100-ROUND-1"):
        enc.act("Grolk", "attaquer", rng, cible="Aldric")
    with pytest.raises(IllegalActionError, match="D100-DODGE-1"):
        enc.act("Aldric", "esquive", rng)
    with pytest.raises(ParameterError, match="D100-ACT-4"):
        enc.act("Aldric", "incantation", rng, etapes=0)
    assert rng.used == 0
    enc.act("Aldric", "viser", details="la gorge")
    enc.act("Aldric", "se_deplacer")
    with pytest.raises(IllegalActionError, match="D100-ACT-1"):
        enc.act("Aldric", "attaquer", rng, cible="Grolk")
    with pytest.raises(ParameterError):
        Rules(parries_per_round=-1)
    with pytest.raises(ParameterError, match="D100-INIT-1"):
        d100.resolve_initiative([ALDRIC, GROLK], [0, 5])


def test_new_names_and_compatibility_names() -> None:
    """The naming rule (resolve_/roll_/_odds/_distribution), with the older names kept."""
    assert d100.initiative_from_dice is d100.resolve_initiative
    assert d100.drop_jump is d100.resolve_drop_jump
    assert d100.long_jump is d100.resolve_long_jump
    assert d100.attack_outcomes is d100.attack_distribution
    assert callable(d100.initiative)  # API.md: the function, not the module


def brute_first(roster: Sequence[Combatant]) -> dict[str, Fraction]:
    """Every joint d10 and every roll-off enumerated (small rosters)."""
    from itertools import product

    out = dict.fromkeys((c.name for c in roster), Fraction(0))
    p = Fraction(1, 10 ** len(roster))
    for rolls in product(range(1, 11), repeat=len(roster)):
        scores = {c.name: c.stats["Ag"] + r for c, r in zip(roster, rolls, strict=True)}
        best = max((scores[c.name], c.stats["Ag"]) for c in roster)
        tied = [c.name for c in roster if (scores[c.name], c.stats["Ag"]) == best]
        for name in tied:  # a fair roll-off among the tied
            out[name] += p / len(tied)
    return out


@pytest.mark.parametrize("ags", [(40, 30), (35, 35), (30, 35, 35), (40, 31, 39)])
def test_first_to_act_odds_d100_init_2(ags: tuple[int, ...]) -> None:
    """D100-INIT-1/2: exact chance to act first, Ag + 1d10, ties to Ag then a fair
    roll-off; equal to a brute-force count."""
    roster = [fighter(f"F{i}", "x" if i % 2 else "y", Ag=ag) for i, ag in enumerate(ags)]
    odds = d100.first_to_act_odds(roster)
    assert odds == brute_first(roster)
    assert sum(odds.values()) == 1


def test_results_display_themselves_in_french() -> None:
    """Results and odds the book shows have a French ``_repr_html_``, never a repr."""
    setup = attack_setup(ALDRIC, GROLK, "arme_a_une_main")
    result = resolve_attack(setup, 63, damage_roll=4)
    html = result._repr_html_()
    assert ("Aldric touche Grolk au bras "
            "gauche") in html and "Seuil d’attaque\u00a0: CC 65 = 65." in html
    assert "2. Localisation : 63 inversé → 36, bras gauche (D100-ATK-2)." in result.steps()
    assert "AttackResult(" not in html
    odds = attack_odds(65, defence="parade", defence_target=45)
    assert "<table" in odds._repr_html_() and "porte" in odds._repr_html_()
    out = attack_distribution(setup)
    assert "Zone touchée" in out._repr_html_() and "manquée" in out._repr_html_()
    plan = check_turn(["viser", "attaquer"])
    assert plan.describe() == ("viser et attaque standard : permis (2 demi-actions, "
                               "1 action d’attaque).")
    assert "<p>" in plan._repr_html_()
    init = d100.resolve_initiative([ALDRIC, GROLK], [4, 10])
    assert "<table" in init._repr_html_() and "Ordre de chaque round\u00a0: Aldric puis Grolk." in (
        init._repr_html_())
    assert "Malus de la main non directrice" in Rules()._repr_html_()
    assert "saute de 7 m" in d100.resolve_drop_jump(7, 40, [20, 35, 90])._repr_html_()


@pytest.mark.parametrize(("height", "ag"), [(7, 35), (6, 60), (0, 50), (10, 100), (4, 0)])
def test_drop_jump_distribution_d100_jump_1(height: int, ag: int) -> None:
    """D100-JUMP-1: the exact law of the height fallen equals a walk of every roll."""
    from itertools import product

    tests = d100.resolve_drop_jump(height, 100, [1] * 10).tests
    law: dict[float, Fraction] = {}
    for rolls in product(range(1, 101), repeat=min(tests, 2)):
        jump = d100.resolve_drop_jump(height, ag, [*rolls, *([1] * tests)][:max(tests, 1)])
        if tests > 2 and jump.success:  # past two tests: a closed form for the rest
            continue
        p = Fraction(1, 100 ** min(tests, 2))
        law[jump.fall_height] = law.get(jump.fall_height, Fraction(0)) + p
    got = d100.drop_jump_distribution(height, ag)
    assert sum(got.values()) == 1
    if tests <= 2:
        assert got == {h: p for h, p in law.items() if p}


def test_long_jump_distribution_d100_jump_2() -> None:
    """D100-JUMP-2: M 4, F 40 (BF 4): 8 m on 1–40, 7 m on 41–50, 6 m on 51–60 …"""
    law = d100.long_jump_distribution(4, 40, 5)
    assert law[8] == Fraction(40, 100) and law[7] == Fraction(10, 100)
    assert law[2] == Fraction(10, 100) and sum(law.values()) == 1
    with pytest.raises(IllegalActionError, match="D100-JUMP-2"):
        d100.long_jump_distribution(4, 40, 3)


def test_weapon_descriptions_are_french_d100_atk_3() -> None:
    """The ``armes`` start option (and the save) describe a weapon with French keys; an
    English key is refused, naming the French ones."""
    bow = d100.WEAPONS["arc"]
    assert d100.Weapon.from_json(bow.to_json()) == bow
    assert set(bow.to_json()) == set(d100.WEAPON_KEYS)
    with pytest.raises(ParameterError, match="degats"):
        started([BRUNE, GROLK], [9, 1], armes={"javelot": {"damage": 2}})
    with pytest.raises(ParameterError, match="D100-ATK-3"):
        started([BRUNE, GROLK], [9, 1], armes={"javelot": {"nom": "javelot"}})


def test_summary_tells_a_landing_blow_from_a_wound_d100_atk_3() -> None:
    """D100-ATK-3: a blow that lands may cost 0 wounds (BE and armour). The summary
    names the two chances apart: « le coup porte » (5 %) and « au moins une blessure »
    (CC 5 on Grolk, BE 3: head and right arm 3 % × 7/10, left arm, armour 1, 2 % × 6/10:
    2,1 % + 1,2 % = 3,3 %)."""
    o = attack_distribution(attack_setup(fighter("A", "x", CC=5), GROLK, "mains_nues"))
    assert o.landed == Fraction(5, 100)
    assert o.wounding == 1 - o.wounds[0] == Fraction(33, 1000)
    text = o.summary()
    assert f"le coup porte : {percent(Fraction(5, 100))}" in text
    assert f"au moins une blessure : {percent(Fraction(33, 1000))}" in text
    assert "blessures infligées" not in text
