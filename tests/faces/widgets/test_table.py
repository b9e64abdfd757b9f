"""The tracker at the table: rows with − / +, the target list without the
actor, one-tap defence (D100-PARRY-1), the systems' effect presets, undo and redo of
any step (a finished fight reopened, across a save and a reload), the player view."""

from __future__ import annotations

import json

import pytest
from escarmouche_widgets import RosterRow
from escarmouche_widgets._table import health_word, player_view
from escarmouche_widgets.tracker import CombatTracker

from tests.toy_system import ToySystem

ROWS = [
    RosterRow("Aldric", "héros", "PV=12, init=2"),
    RosterRow("Brune", "héros", "PV=9"),
    RosterRow("Grolk", "monstres", "PV=10, init=1"),
]


@pytest.fixture
def tracker(toy: ToySystem) -> CombatTracker:
    t = CombatTracker("jouet", ROWS, systems=("jouet",), seed=7)
    t.dice.manual.value = True
    t.dice.dice.value = "3, 6, 1"  # Aldric 3+2, Brune 6, Grolk 1+1
    t.start_button.click()
    assert t.error_text == ""
    return t


def test_rows_show_the_order_with_points_first(tracker: CombatTracker) -> None:
    assert tracker.order_text.splitlines() == [
        "▶ Brune PV 9/9", "Aldric PV 12/12", "Grolk PV 10/10"]
    assert tracker.setup.selected_index is None  # the setup folded once the fight runs
    assert tracker.tabs.selected_index is None  # odds, damage, effects, save: folded


def test_plus_and_minus_on_a_row_adjust_points_and_undo(tracker: CombatTracker) -> None:
    row = tracker.rows["Grolk"]
    row.minus.click()
    row.minus.click()
    assert "Grolk PV 8/10" in tracker.order_text
    row.plus.click()
    assert "Grolk PV 9/10" in tracker.order_text
    tracker.undo_button.click()
    assert "Grolk PV 8/10" in tracker.order_text
    tracker.redo_button.click()
    assert "Grolk PV 9/10" in tracker.order_text


def test_the_target_list_leaves_the_actor_out(tracker: CombatTracker) -> None:
    assert tracker.actor.value == "Brune"
    assert "Brune" not in [o if isinstance(o, str) else o[1] for o in tracker.target.options]
    assert tracker.target.value == "Grolk"  # the first fighter of another side
    tracker.actor.value = "Grolk"
    assert "Grolk" not in list(tracker.target.options)


def test_undo_reopens_a_finished_fight_and_survives_a_reload(tracker: CombatTracker
                                                             ) -> None:
    tracker.dice.dice.value = "4"
    tracker.act_button.click()
    assert tracker.error_text == ""
    acted = tracker.encounter.to_json() if tracker.encounter else ""
    tracker.finish_button.click()
    assert tracker.encounter is not None and tracker.encounter.finished
    saved = tracker.save_text()

    reloaded = CombatTracker("jouet", ROWS, systems=("jouet",), seed=7)
    reloaded.json.value = saved
    reloaded.import_button.click()
    assert reloaded.error_text == ""
    assert reloaded.history.undo_label == "Fin du combat"
    reloaded.undo_button.click()
    assert reloaded.encounter is not None and not reloaded.encounter.finished
    assert reloaded.encounter.to_json() == acted  # exactly the fight before « Terminer »
    reloaded.undo_button.click()
    assert "Grolk PV 10/10" in reloaded.order_text  # the attack undone too
    reloaded.redo_button.click()
    reloaded.redo_button.click()
    assert reloaded.encounter.finished
    assert reloaded.redo_button.disabled


def test_a_refused_action_is_no_step(tracker: CombatTracker) -> None:
    steps = len(tracker.history.done)
    tracker.actor.value = "Grolk"  # not Grolk's turn: the toy system refuses
    tracker.dice.dice.value = "2"
    tracker.act_button.click()
    assert tracker.error_text
    assert len(tracker.history.done) == steps


def test_player_view_hides_points_and_hidden_fighters(tracker: CombatTracker) -> None:
    tracker.rows["Grolk"].minus.click()
    view = json.loads(tracker.player_json)
    assert view["actuel"] == "Brune"
    assert [(r["nom"], r["etat"]) for r in view["ordre"]] == [
        ("Brune", "indemne"), ("Aldric", "indemne"), ("Grolk", "blessure légère")]
    assert "9/10" not in tracker.player_json and "PV" not in tracker.player_json
    tracker.rows["Grolk"].hide.value = True
    assert "Grolk" not in tracker.player_json
    assert json.loads(tracker.save_text())["caches"] == ["Grolk"]


def test_no_fight_no_player_view() -> None:
    assert player_view(None) == {"titre": "En attente du combat", "tour": None,
                                 "actuel": None, "ordre": [], "fin": None}


def test_d100_parry_by_taps_and_presets_per_system() -> None:
    """The standard attack and the first standing enemy preselected, the
    defence back to « aucune » after each step and offering only what the target may
    do (D100-PARRY-1, D100-PARRY-2, D100-DODGE-1)."""
    tracker = CombatTracker("d100", seed=3)
    tracker.start_button.click()
    assert tracker.error_text == ""
    actor = tracker.actor.value
    assert (actor, tracker.action.value, tracker.target.value) == ("Brune", "attaquer",
                                                                   "Grolk")
    assert actor not in list(tracker.target.options)
    defence = tracker.choices["defense"]  # D100-PARRY-1: the defence in one tap
    assert list(defence.options) == ["aucune"]  # D100-PARRY-2: Grolk prepared no parry
    tracker.target.value = "Aldric"  # the GM may pick anyone: Aldric may dodge
    assert list(defence.options) == ["aucune", "esquive"]  # D100-DODGE-1
    defence.value = "esquive"
    tracker.target.value = "Grolk"
    assert defence.value == "aucune"
    tracker.act_button.click()
    assert tracker.error_text == "", tracker.error_text
    assert "D100-ATK-1" in tracker.result_text
    # the same fighter goes on: her second half action, a parry prepared, preselected
    assert tracker.action.value == "preparer_parade"
    tracker.act_button.click()
    assert tracker.error_text == "", tracker.error_text
    tracker.next_button.click()
    assert (tracker.actor.value, tracker.action.value) == ("Aldric", "attaquer")
    tracker.next_button.click()
    assert (tracker.actor.value, tracker.target.value) == ("Grolk", "Aldric")
    tracker.target.value = "Brune"
    assert list(defence.options) == ["aucune", "parade"]  # D100-PARRY-2: prepared
    defence.value = "parade"
    tracker.dice.manual.value = True
    tracker.dice.dice.value = "10 5"  # a hit, parried
    tracker.act_button.click()
    assert tracker.error_text == "", tracker.error_text
    assert "D100-PARRY-1" in tracker.result_text
    assert defence.value == "aucune"  # back to the default after the step
    # the system's presets (CORE-TIME-2), put on a fighter in one tap
    assert [o[1] for o in tracker.effect_preset.options] == ["Saignement", "Poison"]
    tracker.effect_preset.value = "Saignement"
    tracker.effect_preset_button.click()
    assert "Saignement" in tracker.order_text


def test_health_word_levels() -> None:
    tracker = CombatTracker("d100", seed=3)
    tracker.start_button.click()
    enc = tracker.encounter
    assert enc is not None
    fighter = enc.state.fighters["Aldric"]
    assert health_word(fighter) == "indemne"
    enc.adjust("Aldric", "B", -2)
    assert health_word(enc.state.fighters["Aldric"]) == "blessure légère"
    enc.adjust("Aldric", "B", -6)
    assert health_word(enc.state.fighters["Aldric"]) == "blessure grave"
