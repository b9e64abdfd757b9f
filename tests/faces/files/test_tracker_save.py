"""The tracker's own save (files users keep have a versioned JSON Schema, CORE-LOG): the
fight, its undo history, the fighters hidden from the players and the « caché » steps,
checked against the published ``suivi-4.schema.json`` on import (formats 1 to 3 still read); a
damaged one is refused in French and the fight on screen is kept. Rule IDs: CORE-LOG
(saves), D100-ATK-1 (the fight played)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from escarmouche_widgets.saves import (
    STEP_KEYS,
    HideSteps,
    load_tracker_save,
    load_tracker_save_steps,
    tracker_save,
)

from escarmouche import Combatant, filecheck
from escarmouche.encounter import Encounter
from escarmouche.errors import OldNameWarning, SaveError
from escarmouche.history import History
from tests.helpers.saves import suivi_3


def _fight() -> tuple[Encounter, History]:
    enc = Encounter("d100", [
        Combatant("Aldric", "héros", {"CC": 45, "CT": 30, "F": 35, "E": 40, "Ag": 38,
                                      "M": 4, "B": 12}),
        Combatant("Grolk", "orques", {"CC": 40, "CT": 20, "F": 40, "E": 40, "Ag": 25,
                                      "M": 4, "B": 11})])
    history = History()
    rng = random.Random(7)
    history.run(enc, "Début du combat", lambda: enc.start(rng))
    history.run(enc, "Activation suivante", enc.end_activation)
    return enc, history


def test_the_tracker_save_follows_its_published_schema_core_log() -> None:
    """CORE-LOG: what the autosave and the export write is valid under suivi-4 (the
    fight valid under save-2), and reads back as the same fight, history and hidden
    fighters."""
    enc, history = _fight()
    text = tracker_save(enc, history, {"Grolk"})
    data = json.loads(text)
    assert data["format"] == 4
    assert filecheck.validate("suivi-4", data) is None
    assert filecheck.validate("save-2", data["combat"]) is None
    step = data["historique"]["faites"][-1]
    assert "combattants" in step["avant"] and "fighters" not in step["avant"]
    back, steps, hidden = load_tracker_save(text)
    assert back.state.to_json() == enc.state.to_json()
    assert steps.to_json() == history.to_json() and hidden == {"Grolk"}


@pytest.mark.parametrize(("change", "field"), [
    ({"caches": ["Grolk", 3]}, "caches[1]"),
    ({"caches": "Grolk"}, "caches"),
    ({"historique": {"format": 1, "faites": [{"libelle": "x", "position": -1, "avant": {}}],
                     "defaites": []}}, "historique.faites[0].position"),
    ({"couleur": "rouge"}, "couleur"),
    ({"masquages": {"faites": [{"position": 0, "nom": "Grolk", "cache": "oui"}],
                    "defaites": []}}, "masquages.faites[0].cache"),
])
def test_a_damaged_tracker_save_is_refused_in_french_core_log(change: dict[str, object],
                                                              field: str) -> None:
    """CORE-LOG: a tracker save that breaks its schema is refused with a French message
    naming the part at fault, before anything is loaded."""
    enc, history = _fight()
    data = json.loads(tracker_save(enc, history, set()))
    data.update(change)
    with pytest.raises(SaveError) as err:
        load_tracker_save(json.dumps(data))
    assert field in (err.value.field, *str(err.value).replace("\u00a0", " ").split("« ")) \
        or f"« {field} »" in str(err.value).replace("\u00a0", " "), str(err.value)
    assert "(CORE-LOG)" in str(err.value)


def test_the_save_keeps_the_cache_steps_so_annuler_works_after_a_reload_core_log() -> None:
    """CORE-LOG: the « caché » steps travel in the save (``masquages``): read
    back, « Annuler » takes the last toggle back first, then the fight's own step, in
    the order they were made."""
    enc, history = _fight()
    steps, hidden = HideSteps(), {"Grolk"}
    steps.record(history, "Grolk", True)
    text = tracker_save(enc, history, hidden, steps)
    assert filecheck.validate("suivi-4", json.loads(text)) is None
    _, back_history, back_hidden, back_steps = load_tracker_save_steps(text)
    assert back_hidden == {"Grolk"}
    assert back_steps.undo_label(back_history) == "Caché aux joueurs\u00a0: Grolk"
    assert back_steps.undo(back_history, back_hidden) is not None
    assert back_hidden == set()
    assert back_steps.undo_label(back_history) == history.undo_label
    # redone after the reload too
    assert back_steps.redo(back_history, back_hidden) is not None and back_hidden == {"Grolk"}


def test_a_save_of_format_3_is_read_with_a_note_core_log() -> None:
    """CORE-LOG: a tracker save of format 3 (suivi-3: the fight and its history in the
    save format 1, English keys) reads back the same, with one note naming the save
    format 2; suivi-4 refuses it, suivi-3 accepts it."""
    enc, history = _fight()
    steps = HideSteps()
    steps.record(history, "Grolk", True)
    old = suivi_3(json.loads(tracker_save(enc, history, {"Grolk"}, steps)))
    assert "fighters" in old["combat"] and filecheck.validate("suivi-3", old) is None
    with pytest.warns(OldNameWarning) as caught:
        back, back_history, hidden, back_steps = load_tracker_save_steps(json.dumps(old))
    assert [str(w.message).count("format 2") for w in caught] == [1]
    assert "« fighters » → « combattants »" in str(caught[0].message)
    assert back.state.to_json() == enc.state.to_json() and hidden == {"Grolk"}
    assert back_history.to_json() == history.to_json()
    assert back_steps.to_json() == steps.to_json()


def old_tracker_save(data: dict[str, Any], version: int) -> dict[str, Any]:
    """A tracker save of format 4 as formats 1 and 2 wrote it: ``suivi`` for the format
    number, the fight in English keys, English step keys (and no « caché » steps in
    format 1)."""
    back = {new: old for old, new in STEP_KEYS.items()}
    data = suivi_3(data)

    def steps(part: dict[str, Any]) -> dict[str, Any]:
        return {back.get(k, k): [{back.get(f, f): v for f, v in step.items()} for step in v]
                if isinstance(v, list) else v for k, v in part.items()}

    out = {k: v for k, v in data.items() if k != "format"}
    out["suivi"] = version
    out["historique"] = steps(data["historique"])
    out["masquages"] = steps(data["masquages"])
    if version == 1:
        del out["masquages"]
    return out


def test_a_save_of_format_1_is_still_read_core_log() -> None:
    """CORE-LOG: a tracker save written before the « caché » steps were kept (format 1,
    suivi-1.schema.json) still reads back, with no « caché » step to undo."""
    enc, history = _fight()
    data = old_tracker_save(json.loads(tracker_save(enc, history, {"Grolk"})), 1)
    assert filecheck.validate("suivi-1", data) is None
    back, back_history, hidden, steps = load_tracker_save_steps(json.dumps(data))
    assert back.state.to_json() == enc.state.to_json() and hidden == {"Grolk"}
    assert steps.done == [] and back_history.to_json() == history.to_json()


def test_a_cache_step_about_an_unknown_fighter_is_dropped_core_log() -> None:
    """CORE-LOG: a « caché » step naming no fighter of the fight (a hand-edited save) is
    dropped on reading, never undone onto a stranger."""
    enc, history = _fight()
    data = json.loads(tracker_save(enc, history, set()))
    data["masquages"] = {"faites": [{"position": 0, "nom": "Inconnu", "cache": True}],
                         "defaites": []}
    assert load_tracker_save_steps(json.dumps(data))[3].done == []
