"""CORE-LOG: undo and redo of a fight's steps along its event log (escarmouche.history).

Invariants (Hypothesis): after any sequence of steps, undoing them all gives back the
fight as it began, redoing them all the fight as it ended, and a history saved to JSON
and loaded again undoes the same way; a damaged history is refused in French.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import Combatant, systems
from escarmouche.encounter import Encounter
from escarmouche.errors import EscarmoucheError, SaveError
from escarmouche.history import History
from tests.helpers import ROOT

ROSTER = [Combatant("Brune", "héros", {"PV": 10, "init": 2}),
          Combatant("Grolk", "orques", {"PV": 8, "init": 1})]

STEPS = st.lists(st.sampled_from(["suivant", "degats", "soins", "fin"]), max_size=12)


def _play(history: History, enc: Encounter, step: str, i: int) -> None:
    try:
        if step == "suivant":
            history.run(enc, "Activation suivante",
                        lambda: enc.end_activation(random.Random(i)))
        elif step == "degats":
            history.run(enc, "Dégâts", lambda: enc.adjust("Grolk", "PV", -1, "dégâts"))
        elif step == "soins":
            history.run(enc, "Soins", lambda: enc.adjust("Brune", "PV", 1, "soins"))
        else:
            history.run(enc, "Fin du combat", enc.finish)
    except EscarmoucheError:
        pass  # a refused step (after the end) is no step


@settings(max_examples=40, deadline=None)
@given(STEPS)
def test_core_log_undo_all_then_redo_all(steps: list[str]) -> None:
    enc = Encounter("d20", ROSTER)
    history = History()
    history.run(enc, "Début du combat", lambda: enc.start(random.Random(1)))
    begun = enc.to_json()
    for i, step in enumerate(steps):
        _play(history, enc, step, i)
    ended = enc.to_json()
    saved = json.dumps(history.to_json())
    count = len(history.done)
    for _ in range(count - 1):
        history.undo(enc)
    assert enc.to_json() == begun
    for _ in range(count - 1):
        history.redo(enc)
    assert enc.to_json() == ended
    # the same from a save: a history saved with the fight undoes the same way
    again = Encounter.from_json(ended)
    loaded = History.from_json(json.loads(saved), len(again.state.log))
    for _ in range(count - 1):
        loaded.undo(again)
    assert again.to_json() == begun


def test_core_log_undo_reopens_a_finished_fight() -> None:
    enc = Encounter("d20", ROSTER)
    history = History()
    history.run(enc, "Début du combat", lambda: enc.start(random.Random(1)))
    history.run(enc, "Fin du combat", enc.finish)
    assert enc.finished
    assert history.undo(enc) == "Fin du combat"
    assert not enc.finished and enc.current is not None
    # a new step after an undo forgets what could be redone
    history.run(enc, "Dégâts", lambda: enc.adjust("Grolk", "PV", -1, "dégâts"))
    assert history.redo_label is None


def test_core_log_nothing_to_undo_or_redo_is_said_in_french() -> None:
    enc = Encounter("d20", ROSTER)
    with pytest.raises(EscarmoucheError, match="aucune étape à annuler"):
        History().undo(enc)
    with pytest.raises(EscarmoucheError, match="aucune étape annulée à rétablir"):
        History().redo(enc)


@pytest.mark.parametrize("damaged", [None, [], {"format": 2}, {"format": 1, "done": [{}],
                                                                 "undone": []},
                                     {"format": 1, "done": [{"label": "x", "at": 99,
                                                             "before": {}}], "undone": []}])
def test_core_log_a_damaged_history_is_refused(damaged: object) -> None:
    with pytest.raises(SaveError, match="historique = illisible"):
        History.from_json(damaged, 3)


@pytest.mark.parametrize("name", systems.NAMES)
def test_effect_presets_are_declared_on_the_system_and_accepted(name: str) -> None:
    """CORE-TIME-2, RB-TIME-2, D20-START-1, D20-END-1, D20-END-2: each system declares
    its presets once (System.effect_presets); each cites rules of RULES.md, and the
    engine accepts the effect it puts on a fighter."""

    from escarmouche import systems

    rules_text = (ROOT / "spec" / "RULES.md").read_text(
        encoding="utf-8")
    system = systems.get(name)
    assert system.effect_presets
    enc = Encounter(system, list(system.sample_roster))
    enc.start(random.Random(1))
    who = next(iter(enc.state.fighters))
    for preset in system.effect_presets:
        assert preset.rules and all(f"- {r}" in rules_text for r in preset.rules), preset
        events = enc.add_effect(preset.effect(who))
        assert preset.name in events[0].text
