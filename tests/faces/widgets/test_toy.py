"""A fifth system in every demo: the toy system « jouet » (tests/toy_system), once
registered, is offered, shown and played by the widgets, which read everything from the
:class:`~escarmouche.systems.base.System` (its options, sample roster, start hint and its
descriptive hooks' neutral defaults), never from a list of the four built-in systems."""

from __future__ import annotations

import pytest
from escarmouche_widgets import (
    Atelier,
    BalanceDemo,
    CombatTracker,
    InitiativeDemo,
    RosterRow,
    SurpriseDemo,
)

from escarmouche import savefile
from escarmouche.encounter import Encounter
from escarmouche.simulation import simulate
from tests.toy_system import SYSTEM as TOY

#: the toy system registered for every test here (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("toy")


ROWS = [RosterRow("Aldric", "héros", "init=2, PV=10"),
        RosterRow("Grolk", "monstres", "init=0, PV=14")]


def test_atelier_changes_a_toy_option_and_exports_its_french_key() -> None:
    atelier = Atelier()
    assert TOY.name in [value for _, value in atelier.system.options]
    atelier.system.value = TOY.name
    assert list(atelier.controls) == ["faces"]
    assert atelier.controls["faces"].description.startswith(
        "Faces du dé de dégâts (JOUET-ATK-1)")
    assert atelier.error_text == "" and atelier.snippet_text == ""
    atelier.controls["faces"].value = 8
    assert atelier.error_text == ""
    assert "faces du dé de dégâts (6 → 8, JOUET-ATK-1)" in atelier.result_text
    lines = atelier.snippet_text.splitlines()
    assert 'systeme = "jouet"' in lines and 'option = "faces_degats"' in lines
    assert "apres = 8" in lines and 'regles = ["JOUET-ATK-1"]' in lines
    shown = atelier.result_text
    atelier.controls["faces"].value = 1
    assert atelier.error_text.startswith(
        "Valeur 1 refusée pour «\u00a0faces du dé de dégâts\u00a0»\u00a0:")
    assert "(JOUET-ATK-1)" in atelier.error_text
    assert atelier.result_text == shown


def test_balance_demo_plays_the_toy_rules_set_in_its_controls() -> None:
    demo = BalanceDemo(TOY.name, TOY.sample_roster, fights=20, seed=3)
    assert demo.error_text == "", demo.error_text
    assert "20 combats" in demo.result_text
    assert "Système jouet" in demo.widget.children[0].value
    demo.options["faces"].value = 12
    demo.run_button.click()
    assert demo.error_text == ""
    assert demo.rules() == TOY.rules_type(faces=12)
    expected = simulate(Encounter(TOY, TOY.sample_roster, rules=demo.rules()), 20, seed=3)
    assert str(expected.table().rows[0][1]) in demo.result_text
    demo.options["faces"].value = 101
    demo.run_button.click()
    assert demo.error_text.startswith(
        "Valeur 101 refusée pour «\u00a0faces du dé de dégâts\u00a0»\u00a0:")


def test_tracker_offers_starts_and_plays_the_toy_system() -> None:
    tracker = CombatTracker()
    assert TOY.name in [value for _, value in tracker.system.options]
    tracker.system.value = TOY.name
    assert [row.name for row in tracker.roster.rows()] == ["Aldric", "Brune", "Grolk"]
    assert tracker.start_options.placeholder == ""
    tracker.start_button.click()
    assert tracker.error_text == "", tracker.error_text
    enc = tracker.encounter
    assert enc is not None and enc.state.system == TOY.name
    assert "Système jouet" in tracker.status_text
    assert tracker.chart.value == ""  # the toy system gives no exact chances
    actor = enc.current
    assert actor is not None
    tracker.actor.value = actor
    tracker.action.value = "frapper"
    enemy = next(f.name for f in enc.state.fighters.values()
                 if f.side != enc.state.fighters[actor].side)
    tracker.target.value = enemy
    tracker.act_button.click()
    assert tracker.error_text == "", tracker.error_text
    assert f"{actor} frappe {enemy}" in tracker.log_text
    tracker.next_button.click()
    assert tracker.error_text == ""
    tracker.export_button.click()
    saved = tracker.json.value
    tracker.import_button.click()
    assert tracker.error_text == "" and tracker.encounter is not None
    assert savefile.dumps(tracker.encounter) == saved  # save-2 (CORE-LOG)


def test_tracker_with_a_typed_toy_roster() -> None:
    tracker = CombatTracker(TOY.name, ROWS, seed=4)
    tracker.start_button.click()
    assert tracker.error_text == ""
    assert "Aldric" in tracker.status_text and "Grolk" in tracker.status_text


def test_initiative_demo_shows_the_neutral_default() -> None:
    demo = InitiativeDemo(TOY.name, ROWS)
    assert demo.error_text == "", demo.error_text
    assert demo.options == {}
    text = demo.result_text
    assert "Système jouet — initiative" in text
    assert "- Ordre de la liste\u00a0: Aldric, Grolk" in text
    assert "n’explique pas son initiative" in text
    assert demo.odds_text == ""
    demo.system.value = "d20"
    assert demo.error_text == "" and "Chaque round" in demo.result_text
    demo.system.value = TOY.name
    assert "Ordre de la liste" in demo.result_text


def test_surprise_demo_includes_the_toy_system() -> None:
    demo = SurpriseDemo(seed=2)
    assert TOY.name in demo.systems
    assert "les cinq systèmes" in demo.widget.children[0].value
    assert demo.error_text == "", demo.error_text
    assert "Système jouet | Pas de round de surprise | personne" in demo.result_text
    assert "Le texte de ce système ne prévoit pas de surprise" in demo.result_text
    for name, box in demo.systems.items():
        box.value = name == TOY.name
    assert demo.error_text == ""
    assert "Système jouet" in demo.result_text and "Rulebook" not in demo.result_text
