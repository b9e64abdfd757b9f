"""System d100 (seed 001), RULES.md: the round and the turn: D100-TIME-1, D100-ROUND-1 and
D100-ACT-1..4 (the initiative and the surprise round are in ``test_initiative.py``).

Expected values are derived by hand from the rules in the comments next to them.
"""

from __future__ import annotations

import pytest

from escarmouche import EscarmoucheError
from escarmouche.dice import ScriptedRolls
from escarmouche.errors import ParameterError
from escarmouche.systems import d100
from escarmouche.systems.d100 import (
    ACTION_DEFS,
    ACTIONS,
    ActionDef,
    Extended,
    check_turn,
)
from tests.helpers.d100 import ALDRIC, BRUNE, GROLK, events, started
from tests.helpers.proofreading import (
    assert_refusal_shape,
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


# -- D100-SURPRISE-1, D100-ROUND-1 ----------------------------------------------------------


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
