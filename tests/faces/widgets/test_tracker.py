"""The GM's combat tracker, driven through its Python API (buttons clicked, text read).

The generic behaviour is tested with the toy system of ``tests/toy_system/`` (any system
plugs into the encounter engine the same way).
"""

from __future__ import annotations

import datetime
import json
import random
import re

import pytest
from escarmouche_widgets import RosterRow
from escarmouche_widgets import _html as h
from escarmouche_widgets.tracker import CombatTracker, load_encounter

from escarmouche import EscarmoucheError, savefile, systems
from escarmouche.encounter import Encounter
from escarmouche.systems import get
from tests.helpers.proofreading import (
    clauses,
    page_source,
    top_level_colons,
)
from tests.helpers.widgets import ROWS
from tests.toy_system import TOY, ToySystem


@pytest.fixture
def tracker(toy: ToySystem) -> CombatTracker:
    return CombatTracker("jouet", ROWS, systems=("jouet",), seed=7)


def status(t: CombatTracker) -> str:
    return h.text_of(t.status.value)


def test_nothing_before_start(tracker: CombatTracker) -> None:
    assert "Aucun combat en cours" in status(tracker)
    tracker.next_button.click()
    assert "Commencer le combat" in tracker.error_text
    tracker.export_button.click()
    assert "Commencer le combat" in tracker.error_text


def test_typed_initiative_orders_the_fight(tracker: CombatTracker) -> None:
    tracker.dice.manual.value = True
    tracker.dice.dice.value = "3, 6, 1"  # Aldric 3+2, Brune 6, Grolk 1+1
    tracker.start_button.click()
    assert tracker.error_text == ""
    assert "Ordre du tour 1\u00a0: ▶ Brune → Aldric → Grolk" in status(tracker)
    assert "Dés lancés\u00a0: d6 = 3\u202f; d6 = 6\u202f; d6 = 1" in tracker.result_text
    assert tracker.actor.value == "Brune"
    assert "Au tour de Brune." in h.text_of(tracker.log.value)


def test_too_few_manual_dice_keeps_the_previous_fight(tracker: CombatTracker) -> None:
    tracker.start_button.click()
    before = tracker.encounter
    shown = tracker.status.value
    tracker.dice.manual.value = True
    tracker.dice.dice.value = "3"
    tracker.start_button.click()  # a fight under way: asked first
    assert tracker.encounter is before and tracker.confirm.layout.display == ""
    tracker.confirm_yes.click()
    assert "plus aucun résultat prévu pour le jet n° 2" in tracker.error_text
    assert tracker.encounter is before and tracker.status.value == shown


def test_unused_manual_dice_are_reported(tracker: CombatTracker) -> None:
    tracker.dice.manual.value = True
    tracker.dice.dice.value = "3 6 1 5"
    tracker.start_button.click()
    assert "1 résultat saisi non utilisé" in tracker.result_text


def test_seed_reproduces_the_fight(tracker: CombatTracker) -> None:
    tracker.start_button.click()
    tracker.next_button.click()
    first = tracker.encounter.to_json() if tracker.encounter else ""
    other = CombatTracker("jouet", ROWS, systems=("jouet",), seed=7)
    other.start_button.click()
    other.next_button.click()
    assert other.encounter is not None and other.encounter.to_json() == first


def test_act_damage_and_log(tracker: CombatTracker) -> None:
    tracker.dice.manual.value = True
    tracker.dice.dice.value = "3, 6, 1"
    tracker.start_button.click()
    assert tracker.action.value == "frapper"
    assert tracker.target.layout.display == ""
    tracker.target.value = "Grolk"
    tracker.dice.dice.value = "4"
    tracker.act_button.click()
    assert tracker.error_text == ""
    assert ("Brune frappe Grolk\u00a0: 4 points de dégâts\u202f; il lui reste 6 "
            "PV.") in tracker.result_text
    assert "Grolk | monstres | PV 6/10 | debout" in status(tracker)
    # out of turn: the toy system refuses, the state is kept
    tracker.actor.value = "Grolk"
    tracker.target.value = "Aldric"
    tracker.dice.dice.value = "2"
    tracker.act_button.click()
    assert "ne peut rien faire maintenant" in tracker.error_text
    assert "Aldric | héros | PV 12/12" in status(tracker)
    # GM damage and healing
    tracker.damage_who.value = "Aldric"
    assert tracker.damage_track.value == "PV"
    tracker.damage_amount.value = 5
    tracker.damage_button.click()
    assert "Aldric | héros | PV 7/12" in status(tracker)
    tracker.damage_kind.value = "soins"
    tracker.damage_amount.value = 10
    tracker.damage_button.click()
    assert "Aldric | héros | PV 12/12" in status(tracker)
    assert "Aldric\u00a0: +10 PV (soins)\u202f; reste 12." in h.text_of(tracker.log.value)


def test_effects_tick_with_their_timing(tracker: CombatTracker) -> None:
    tracker.dice.manual.value = True
    tracker.dice.dice.value = "3, 6, 1"
    tracker.start_button.click()
    tracker.effect_name.value = ""
    tracker.effect_button.click()
    # the engine's refusal of a nameless effect (CORE-ERR), not a copy of it
    assert "refusée pour «\u00a0effet\u00a0»\u00a0: un texte non vide" in tracker.error_text
    tracker.effect_name.value = "poison"
    tracker.effect_bearer.value = "Aldric"
    tracker.effect_per_tick.value = "PV=-2"
    tracker.effect_duration.value = 2
    tracker.effect_button.click()
    assert tracker.error_text == ""
    assert "e1 | poison | Aldric | au début du tour du porteur | 2 | PV −2" in status(
        tracker)
    tracker.effect_per_tick.value = "PV=deux"
    tracker.effect_button.click()
    assert "PV=deux" in tracker.error_text
    tracker.next_button.click()  # Aldric's activation: the poison ticks (CORE-TIME-2)
    assert "«\u00a0poison\u00a0»\u00a0: Aldric −2 PV (reste 10)." in tracker.result_text
    assert "CORE-TIME-2" in tracker.result_text
    assert tracker.effect_remove.value == "e1"
    tracker.effect_remove_button.click()
    assert "L’effet «\u00a0poison\u00a0» sur Aldric est retiré." in tracker.result_text
    tracker.effect_remove_button.click()
    assert "Aucune valeur pour «\u00a0effet\u00a0»\u00a0: aucun effet de ce nom en cours" \
        in tracker.error_text


def test_export_import_round_trip(tracker: CombatTracker) -> None:
    tracker.start_button.click()
    tracker.next_button.click()
    tracker.export_button.click()
    saved = tracker.json.value
    assert json.loads(saved)["systeme"] == "jouet"  # save-2 (CORE-LOG)
    assert "download=\"combat-escarmouche.json\"" in tracker.download.value
    assert tracker.encounter is not None
    turn_view = status(tracker)
    tracker.next_button.click()
    tracker.next_button.click()
    tracker.json.value = saved
    tracker.import_button.click()
    assert tracker.error_text == ""
    assert "Combat restauré\u00a0: 3 combattants" in tracker.result_text
    assert status(tracker) == turn_view
    assert tracker.encounter is not None and savefile.dumps(tracker.encounter) == saved
    # a fresh tracker (a reloaded page) gets it all back
    reloaded = CombatTracker("jouet", [], systems=("jouet",))
    reloaded.json.value = saved
    reloaded.import_button.click()
    assert status(reloaded) == turn_view
    assert [line.name.value for line in reloaded.roster.lines] == ["Aldric", "Brune", "Grolk"]


def test_upload_restores_a_saved_file(tracker: CombatTracker) -> None:
    tracker.start_button.click()
    tracker.export_button.click()
    saved = tracker.json.value
    fresh = CombatTracker("jouet", [], systems=("jouet",))
    when = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    fresh.upload.value = ({"name": "combat.json", "type": "application/json", "size": 1,
                           "last_modified": when, "content": memoryview(saved.encode())},)
    assert fresh.error_text == ""
    assert fresh.encounter is not None and savefile.dumps(fresh.encounter) == saved


@pytest.mark.parametrize(
    ("text", "message"),
    [("", "collez le JSON"), ("{", "Texte JSON refusé"), ("[1]", "un objet { … }"),
     ('{"format": 1}', "il y manque le système, les options de règles, les combattants et 7 "
      "autres parties"), ('{"format": 99}', "format de sauvegarde inconnu"),
     ('{"a": 1}', "n’est pas une sauvegarde de combat d’Escarmouche"),
     ("[" * 3000, "imbrication trop profonde"), ("9" * 5000, "chiffres")],
)
def test_bad_saves_are_refused_in_french(tracker: CombatTracker, text: str, message: str
                                         ) -> None:
    tracker.start_button.click()
    before = tracker.encounter
    tracker.json.value = text
    tracker.import_button.click()
    assert message in tracker.error_text
    assert tracker.encounter is before
    with pytest.raises(Exception, match=message):
        load_encounter(text)


def test_bad_roster_keeps_the_running_fight(tracker: CombatTracker) -> None:
    tracker.start_button.click()
    before = tracker.encounter
    tracker.roster.lines[0].name.value = ""
    tracker.start_button.click()
    assert "nom non vide" in tracker.error_text
    assert tracker.encounter is before
    tracker.roster.lines[0].name.value = "Aldric"
    tracker.roster.lines[1].stats.value = "PV=neuf"
    tracker.start_button.click()
    assert "PV=neuf" in tracker.error_text
    assert tracker.encounter is before


def test_finish(tracker: CombatTracker) -> None:
    tracker.start_button.click()
    tracker.finish_button.click()
    assert "combat terminé\u00a0: fin décidée par le MJ" in status(tracker)
    tracker.next_button.click()
    assert "plus aucune action n’est possible" in tracker.error_text


def test_load_encounter_accepts_the_engine_save(toy: ToySystem) -> None:
    enc = Encounter(TOY, [RosterRow("A", "x", "PV=3").combatant(),
                          RosterRow("B", "y", "PV=3").combatant()])
    assert load_encounter(enc.to_json()).to_json() == enc.to_json()


# -- the four systems ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("system", "options", "first_turn"),
    [("rulebook", "surprise_par=monstres, non_avertis=oui", "tour"),
     ("d100", "surpris=héros", "round 1"),
     ("d12", "environnement=oui, embuscade_par=monstres", "tour 0"),
     ("d20", 'positions={"Aldric": [0, 0], "Brune": [0, 1], "Grolk": [1, 0]}', "round 1")],
)
def test_each_system_runs_in_the_tracker(system: str, options: str, first_turn: str) -> None:
    t = CombatTracker(system, seed=3)
    assert [line.name.value for line in t.roster.lines] == ["Aldric", "Brune", "Grolk"]
    t.start_options.value = options
    t.start_button.click()
    assert t.error_text == ""
    assert first_turn in status(t)
    assert "<svg" in t.chart.value  # exact initiative odds of this roster
    assert "Dés lancés\u00a0: d" in t.result_text
    actor = t.actor.value
    assert t.action.options, "the system offers actions to the acting fighter"
    assert t.target.layout.display == ""
    t.target.value = "Grolk" if actor != "Grolk" else "Aldric"
    if system == "rulebook":
        t.act_button.click()
        assert "donnez les dégâts de l’attaque" in t.error_text  # the rulebook has no damage rule
        t.params.value = "des=1d6"
    t.act_button.click()
    assert t.error_text == "", t.error_text
    t.next_button.click()
    assert t.error_text == ""
    t.export_button.click()
    saved = t.json.value
    fresh = CombatTracker("rulebook")
    fresh.json.value = saved
    fresh.import_button.click()
    assert fresh.error_text == ""
    assert fresh.system.value == system
    assert status(fresh) == status(t)
    assert fresh.encounter is not None and savefile.dumps(fresh.encounter) == saved


def test_system_change_loads_its_example_roster() -> None:
    t = CombatTracker("rulebook")
    assert "HAB=" in t.roster.lines[0].stats.value
    t.system.value = "d12"
    assert "defense=" in t.roster.lines[0].stats.value
    assert "embuscade_par" in t.start_options.placeholder
    t.roster.lines[0].stats.value = "init=2, defense=99, PV=12"
    t.start_button.click()
    assert "Défense 99 refusée" in t.error_text
    t.start_options.value = "surprise_par=monstres"
    t.roster.lines[0].stats.value = "init=2, defense=12, PV=12"
    t.start_button.click()
    assert "Option «\u00a0surprise_par\u00a0» refusée" in t.error_text


def test_imported_d12_fight_keeps_its_environment_odds() -> None:
    """D12-INIT-5: the chances shown after an import are those of the initiative the
    fight began with (the system reads its start options back from the save)."""
    tracker = CombatTracker("d12", seed=12)
    tracker.start_options.value = "environnement=oui"
    tracker.start_button.click()
    assert "avant l’environnement" in h.text_of(tracker.chart.value)
    tracker.export_button.click()
    other = CombatTracker("rulebook")
    other.json.value = tracker.json.value
    other.import_button.click()
    assert other.error_text == "" and other.system.value == "d12"
    assert other.chart.value == tracker.chart.value


# -- seventh pass (spec/relecture-journal.md): the refusals a GM meets in the tracker --------------


@pytest.mark.parametrize("system", systems.NAMES)
def test_the_trackers_common_refusals_hold_one_colon_and_one_rule_core_err(
        system: str) -> None:
    """CORE-ERR, seventh pass: the refusals a GM meets first in the tracker (a fighter
    tapped out of turn, an attack with no target). The d12 out-of-turn refusal ended
    « (c’est celui de Brune) (D12-INIT-4) (D12-ACT-1) », the d20 one « (hors de son
    tour, …) (D20-ACT-1) », two parentheses in a row; the Rulebook one chained two
    colons (« refusée : Brune n’est pas en train d’agir : hors de son activation… »);
    the d20 missing target said « indiquez cible="nom" », straight quotes in code."""

    from escarmouche.systems import get

    enc = Encounter(system, list(get(system).sample_roster))
    enc.start(random.Random(1))
    current = str(enc.current)
    other = next(f for f in enc.state.fighters if f != current)
    texts = []
    for actor, params in ((other, {"cible": current}), (current, {})):
        with pytest.raises(EscarmoucheError) as caught:
            enc.act(actor, "attaquer", random.Random(1), **params)
        texts.append(str(caught.value))
    for text in texts:
        assert not re.search(r"\) \([A-Z]+-", text), text
        assert '"' not in text, text
        assert all(top_level_colons(c) <= 1 for c in clauses(text)), text


# -- the tracker, the comparison, the Atelier -------------------------------------------------


def test_b75_an_empty_stats_box_suggests_the_system_own_stats() -> None:
    """B75: a new line of the tracker suggested « HAB=60, DIS=40 » (Rulebook stats) in
    every system."""
    from escarmouche_widgets import RosterRow

    tracker = CombatTracker("d12", seed=12)
    for system, stat in (("d12", "attaque="), ("d100", "CC="), ("d20", "defense="),
                         ("rulebook", "HAB=")):
        tracker.system.value = system
        tracker.roster.add_row(RosterRow("", ""))
        hint = tracker.roster.lines[-1].stats.placeholder
        assert stat in hint, (system, hint)
        if system != "rulebook":
            assert "HAB" not in hint


def test_b90_the_tracker_lists_an_action_cost_once() -> None:
    """B90: the tracker's action list read « Placer sur la grille (MJ) (MJ) », « Action
    simple (autre) (action simple) », « Attaquer (PV ou Esprit) (action) »."""
    seen = []
    for system in systems.NAMES:
        tracker = CombatTracker(system, seed=5)
        tracker.start_button.click()
        seen += list(tracker.action.options)
    labels = [label for label, _ in seen]
    assert labels and not [x for x in labels if ") (" in x]
    assert "Attaquer (PV ou Esprit, action)" in labels
    assert "Placer sur la grille (MJ)" in labels
    assert "Attaque standard (demi-action)" in labels


def test_b91_the_tracker_effects_speak_french() -> None:
    """B91: the tracker's effects read « Id », « Par tic » (an English « tick ») and « Fin
    sur JS » (an abbreviation the book never defines)."""
    tracker = CombatTracker("d12", seed=12)
    tracker.start_button.click()
    tracker.effect_name.value = "poison"
    tracker.effect_bearer.value = "Grolk"
    tracker.effect_per_tick.value = "PV=-2"
    tracker.effect_duration.value = 3
    tracker.effect_button.click()
    text = tracker.status_text
    assert ("N° | Effet | Porteur | Quand | Reste | À chaque fois | Fin sur jet de "
            "sauvegarde") in text
    assert not re.search(r"\bId\b|\btic\b|\bJS\b", text)
    assert "tic" not in tracker.effect_per_tick.description


def test_b92_the_players_view_agrees_with_any_fighter() -> None:
    """B92: the players' view called Brune « blessé », « grièvement blessé »: the engine
    cannot know a name's gender (as B50), so the words now agree with anyone."""
    import inspect

    from escarmouche_widgets import _table

    source = inspect.getsource(_table.health_word)
    assert "blessé\"" not in source and "blessure légère" in source
    assert "« blessé »" not in page_source("demos/suivi-combat.md")


# -- R7: figures that the engine can check ---------------------------------------------------


@pytest.mark.parametrize("system", ["rulebook", "d12", "d100", "d20"])
def test_r6_the_trackers_next_button_speaks_its_systems_words_b43(system: str) -> None:
    """B43 (fourth pass, again in the tracker): the button that ends one fighter's moment
    to act says « activation » only in the Rulebook; it follows the system chosen, and
    the undo history names the step with the same words."""
    from escarmouche_widgets.tracker import CombatTracker

    tracker = CombatTracker("rulebook" if system != "rulebook" else "d20")
    tracker.system.value = system
    label = tracker.next_button.description
    assert ("activation" in label.lower()) == (system == "rulebook"), label
    assert label == get(system).next_label
    moments = [text for text, _ in tracker.effect_timing.options]
    assert any("activation" in m for m in moments) == (system == "rulebook"), moments
    assert tracker.start()
    assert tracker.next_activation()
    assert tracker.history.undo_label == label
