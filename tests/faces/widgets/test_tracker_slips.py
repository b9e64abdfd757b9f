"""The GM in a hurry, through the tracker's Python API: two taps a turn,
nothing lost by a slip.

- the standard attack and the first standing enemy preselected: at most 3 taps an
  attack over two rounds of a 4-fighter d100 fight (``tools/count_taps.py``);
- a new fight, or a new system, during a fight asks first, and « Annuler » brings the
  replaced fight back whole;
- « caché » is a step « Annuler » and « Rétablir » take back, in order with the fight's;
- « Paramètres » names the parameters in French, and reads them so.
"""

from __future__ import annotations

import json

from escarmouche_widgets.tracker import CombatTracker, engine_keys

from tools.count_taps import count


def test_two_d100_rounds_take_at_most_three_taps_an_attack() -> None:
    counted = count(rounds=2, seed=3)
    assert counted["attaques"] >= 6, counted
    assert counted["taps_par_attaque"] <= 3, counted


def test_a_new_fight_asks_first_and_undo_brings_the_old_one_back() -> None:
    t = CombatTracker("d100", seed=3)
    t.start_button.click()
    t.act_button.click()  # Brune attacks Grolk
    assert t.error_text == ""
    old = t.encounter
    assert old is not None
    saved = old.to_json()
    t.start_button.click()
    assert t.encounter is old  # nothing replaced yet: the GM is asked
    assert t.confirm.layout.display == "" and "combat est en cours" in t.confirm_text.value
    t.confirm_no.click()
    assert t.encounter is old and t.confirm.layout.display == "none"
    t.start_button.click()
    t.confirm_yes.click()
    assert t.encounter is not old and t.encounter is not None
    assert len(t.encounter.state.log) < len(old.state.log)
    assert not t.undo_button.disabled
    t.undo_button.click()
    assert t.error_text == ""
    assert t.encounter is old and t.encounter.to_json() == saved
    assert "combat qu’il remplaçait" in t.result_text
    t.undo_button.click()  # and the old fight's own steps undo as before
    assert t.error_text == "" and len(t.encounter.state.log) < len(old.state.log) + 1


def test_a_system_change_during_a_fight_asks_first() -> None:
    t = CombatTracker("d100", seed=3)
    t.start_button.click()
    names = [line.name.value for line in t.roster.lines]
    stats = t.roster.lines[0].stats.value
    t.system.value = "d12"
    assert t.confirm.layout.display == ""
    assert t.roster.lines[0].stats.value == stats  # the group is not replaced yet
    t.confirm_no.click()
    assert t.system.value == "d100" and t.roster.lines[0].stats.value == stats
    t.system.value = "d12"
    t.confirm_yes.click()
    assert "defense=" in t.roster.lines[0].stats.value
    assert [line.name.value for line in t.roster.lines] == names
    assert t.encounter is not None and t.encounter.system.name == "d100"  # still playable


def test_hidden_is_an_undoable_step_in_order_with_the_fight() -> None:
    t = CombatTracker("d100", seed=3)
    t.start_button.click()
    t.rows["Grolk"].hide.value = True
    assert "Grolk" not in t.player_json
    t.act_button.click()
    assert t.error_text == ""
    t.undo_button.click()  # the attack first
    assert "Grolk" not in t.player_json and "Annulé" in t.result_text
    assert "Caché aux joueurs" in t.undo_button.tooltip
    t.undo_button.click()  # then « caché »
    assert "Grolk" in t.player_json and t.rows["Grolk"].hide.value is False
    t.redo_button.click()
    assert "Grolk" not in t.player_json and t.rows["Grolk"].hide.value is True
    t.redo_button.click()
    assert t.redo_button.disabled
    assert json.loads(t.save_text())["caches"] == ["Grolk"]


def test_parameters_are_named_and_read_in_french() -> None:
    t = CombatTracker("d100", seed=3)
    t.start_button.click()
    assert "cible engagée=…" in t.params.placeholder
    assert "cible_engagee" not in t.params.placeholder
    assert engine_keys("cible engagée=oui, distance=30", ("cible_engagee", "distance")) \
        == "cible_engagee=oui, distance=30"
    assert engine_keys("environnement=oui", ()) == "environnement=oui"


def test_the_player_view_says_whose_turn_with_elision() -> None:
    t = CombatTracker("d100", seed=3)
    t.start_button.click()
    t.next_button.click()  # Aldric's turn
    view = json.loads(t.player_json)
    assert view["phrase"] == "Round 1\u00a0: au tour d’Aldric."
