"""System d100 (seed 001), RULES.md: the round and the turn: D100-TIME-1,
D100-INIT-1/2, D100-SURPRISE-1, D100-ROUND-1 and D100-ACT-1..4.

Expected values are derived by hand from the rules in the comments next to them.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import Combatant, EscarmoucheError
from escarmouche.dice import ScriptedRolls
from escarmouche.errors import ParameterError
from escarmouche.systems import d100
from escarmouche.systems.d100 import (
    ACTION_DEFS,
    ACTIONS,
    ActionDef,
    Extended,
    Guard,
    Rules,
    attack_setup,
    check_turn,
)
from tests.helpers.d100 import ALDRIC, BRUNE, GROLK, events, fighter, started, two_weapon_grolk
from tests.helpers.proofreading import (
    assert_refusal_shape,
    clauses,
    top_level_colons,
    unbreak,
)

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
    with pytest.raises(EscarmoucheError, match="un d10 de plus est nécessaire"):
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



def test_surprise_round_d100_surprise_1() -> None:
    """D100-SURPRISE-1: in round 1 only the non-surprised act, and the surprised can
    neither parry nor dodge (the ruling, pinned); from round 2 everyone acts."""
    grolk = fighter("Grolk", "monstres", ["esquive"], CC=45, E=35, Ag=30, B=11)
    enc = started([ALDRIC, grolk], [4, 10], surpris="monstres",
                  equipement=two_weapon_grolk(), rules=Rules(surprised_can_defend=False))
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
                     guard=Guard(two_weapons=True, surprised=True),
                     rules=Rules(surprised_can_defend=False))
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


# -- d100 initiative (D100-INIT-1/2): `d100/rounds`, the initiative demo --------------------


def test_b102_the_d100_roll_off_says_who_rolled_what_d100_init_2() -> None:
    """B102: the d100 initiative table and explanation ran each name into its die
    (« Départage, manche 1 : Grolk 4 et Urgash 4 », « Égalité à 39 : jet de départage au
    d10, le plus haut d’abord : Grolk 4, … → Grolk, Urgash », two colons in a clause) and
    wrote « Ag 35 + 1d10 = 4 → 39 », an equality that does not hold (as B48 in d20)."""
    from escarmouche.systems import d100

    def perso(name: str, ag: int) -> Combatant:
        return Combatant(name, "x", {"CC": 40, "CT": 40, "F": 40, "E": 40, "Ag": ag,
                                     "M": 4, "B": 10})

    init = d100.resolve_initiative([perso("Aldric", 35), perso("Bertille", 45),
                                    perso("Grolk", 30), perso("Urgash", 30)],
                                   [4, 6, 9, 9, 4, 4, 8, 2])
    lines = [*init.sentences(), *init.explain()]
    assert "Départage au d10, manche 1 : Grolk fait 4 et Urgash fait 4." in lines
    assert "Aldric : Ag + 1d10 = 35 + 4 = 39 (D100-INIT-1)." in lines
    assert ("Égalité à 39, départagée au d10, le plus haut d’abord (manche 1 : Grolk fait 4, "
            "Urgash fait 4 ; manche 2 : Grolk fait 8, Urgash fait 2), d’où l’ordre Grolk, "
            "Urgash (D100-INIT-2).") in lines
    for line in lines:
        assert not re.search(r"\b(?!Ag\b)[A-Z]\w* \d", line), line  # « Grolk 4 »
        assert all(top_level_colons(c) <= 1 for c in clauses(line)), line


# -- d12 (`d12/tour-complet`) ---------------------------------------------------------------


def test_b123_an_extended_action_in_progress_counts_what_is_left_d100_act_4() -> None:
    """B123: the refusal of an action during an extended one said « (encore 3
    demi-actions sur 4) », the « done, or left? » counter fixed in the budget
    (spec/relecture-journal.md, 19)
    line (« 1 demi-action faite sur 4, il en reste 3 »)."""
    from escarmouche.systems import d100

    first = d100.check_turn(["attaquer", ("recharger", d100.WEAPONS["pistolet"].reload)])
    with pytest.raises(EscarmoucheError) as caught:
        d100.check_turn(["viser"], in_progress=first.extended)
    text = assert_refusal_shape(caught.value)
    assert "(il en reste 3 demi-actions sur 4)" in text, text
    assert "encore" not in text, text


# -- the tracker, the comparison, the Atelier -------------------------------------------------


def test_b82_a_d100_initiative_roll_is_an_equality_that_holds() -> None:
    """B82: « Ag 38 + 1d10 = 6 → 44 » (as B48 in d20): now « Ag + 1d10 = 38 + 6 = 44 »."""
    from escarmouche.systems.d100.initiative import resolve_initiative

    init = resolve_initiative([Combatant("Aldric", "héros", {"Ag": 38})], [6])
    line = unbreak(init.explain()[0])
    assert line == "Aldric : Ag + 1d10 = 38 + 6 = 44 (D100-INIT-1)."
