"""The fight save file, format 2 (``save-2.schema.json``): French keys written at the
file boundary (:func:`escarmouche.savefile.dumps` / :func:`~escarmouche.savefile.loads`,
the tracker's export and import), the engine's English shape unchanged inside; format 1
(English keys) still read, with one French note. Rule ID: CORE-LOG (saves)."""

from __future__ import annotations

import json
import random
import warnings
from typing import Any

import pytest
from escarmouche_widgets.session import TableSession

from escarmouche import Combatant, filecheck, savefile
from escarmouche.encounter import Encounter
from escarmouche.errors import OldNameWarning, SaveError


def _fight() -> Encounter:
    enc = Encounter("d20", [Combatant("Brune", "héros", {"PV": 10}),
                            Combatant("Grolk", "orques", {"PV": 9})])
    enc.start(random.Random(3))
    enc.end_activation(random.Random(4))
    return enc


def _all_keys(node: Any) -> set[str]:
    if isinstance(node, dict):
        return set(node) | {k for v in node.values() for k in _all_keys(v)}
    if isinstance(node, list):
        return {k for v in node for k in _all_keys(v)}
    return set()


def test_a_save_2_round_trips_to_the_engines_state_core_log() -> None:
    """CORE-LOG: the file has French keys, format 2, and reads back as the very state
    the engine holds (``Encounter.to_json`` itself keeps the engine's keys)."""
    enc = _fight()
    text = savefile.dumps(enc)
    data = json.loads(text)
    assert data["format"] == 2 and savefile.FORMAT == 2
    assert {"combattants", "journal", "tour", "ordre", "curseur", "termine",
            "issue"} <= set(data)
    assert not {"fighters", "log", "turn", "order", "cursor"} & set(data)
    assert set(data["combattants"][0]["combattant"]) == {
        "nom", "camp", "caracteristiques", "competences", "traits"}
    assert {"numero", "acteur", "texte", "regles", "des", "donnees"} <= set(
        data["journal"][0])
    with warnings.catch_warnings():
        warnings.simplefilter("error", OldNameWarning)  # format 2: no note
        back = savefile.loads(text)
    assert back.state.to_json() == enc.state.to_json()
    assert savefile.dumps(back) == text
    assert json.loads(enc.to_json())["format"] == 1  # the engine's own shape
    # Encounter.from_json reads the file too
    assert Encounter.from_json(text).state.to_json() == enc.state.to_json()


def test_core_log_an_old_save_1_is_read_with_one_french_note() -> None:
    """CORE-LOG: a save of format 1 (the engine's English keys) still loads, with one
    French note (OldNameWarning) naming the format 2 and the new keys."""
    enc = _fight()
    with pytest.warns(OldNameWarning) as caught:
        back = savefile.loads(enc.to_json(), where="duel.json")
    assert len(caught) == 1
    note = caught[0].message
    assert isinstance(note, OldNameWarning)
    assert (note.field, note.old, note.new, note.rule) == ("format", 1, 2, "CORE-LOG")
    text = str(note)
    assert text.startswith("duel.json, format 1 : anciens noms")
    assert "« fighters » → « combattants »" in text and "« format = 2 »" in text
    assert back.state.to_json() == enc.state.to_json()


def test_the_schema_takes_save_2_and_refuses_save_1_keys_under_format_2_core_log() -> None:
    """CORE-LOG: save-2.schema.json validates what ``dumps`` writes; English keys under
    ``format`` 2 are refused (and named), as French keys under ``format`` 1."""
    enc = _fight()
    new = json.loads(savefile.dumps(enc))
    old = json.loads(enc.to_json())
    assert filecheck.validate("save-2", new) is None
    assert filecheck.validate("save-1", old) is None
    assert filecheck.validate("save-2", {**old, "format": 2}) is not None
    assert filecheck.validate("save-1", {**new, "format": 1}) is not None
    with pytest.raises(SaveError) as err:
        savefile.loads(json.dumps({**old, "format": 2}))
    assert "champ inconnu" in str(err.value) and "(CORE-LOG)" in str(err.value)
    # the schema's fields are the table's, at every level
    schema = savefile.schema()
    assert set(schema["properties"]) == set(savefile.FILE_KEYS["save"].values())
    for kind in ("fighter", "combatant", "end_condition", "effect", "event"):
        assert set(schema["definitions"][kind]["properties"]) == set(
            savefile.FILE_KEYS[kind].values()), kind


def test_free_maps_keep_their_keys_core_log() -> None:
    """CORE-LOG: only structural keys are renamed; a stat, a flag, an entry of the
    system's state or of an event's data named like a structural key (« tour »,
    « name », « fighters ») survives the round trip untouched."""
    enc = Encounter("d20", [Combatant("Brune", "héros", {"PV": 10, "tour": 2, "name": 3}),
                            Combatant("Grolk", "orques", {"PV": 9})])
    enc.start(random.Random(3))
    enc.state.fighters["Brune"].flags["turn"] = 1
    enc.state.fighters["Brune"].flags["combatant"] = {"name": "x"}
    enc.state.system_state["fighters"] = {"side": 1}
    data = json.loads(savefile.dumps(enc))
    brune = data["combattants"][0]
    assert brune["combattant"]["caracteristiques"]["tour"] == 2
    assert brune["combattant"]["caracteristiques"]["name"] == 3
    assert brune["marques"]["turn"] == 1
    assert brune["marques"]["combatant"] == {"name": "x"}
    assert data["etat_du_systeme"]["fighters"] == {"side": 1}
    back = savefile.loads(json.dumps(data))
    assert back.state.to_json() == enc.state.to_json()


def test_a_fault_in_a_save_2_names_the_files_own_path_core_log() -> None:
    """CORE-LOG: a refusal names the place as the file writes it (French keys)."""
    data = json.loads(savefile.dumps(_fight()))
    data["ordre"].append("Personne")
    with pytest.raises(SaveError) as err:
        savefile.loads(json.dumps(data))
    assert "« ordre[" in str(err.value).replace("\u00a0", " ")
    data = json.loads(savefile.dumps(_fight()))
    data["combattants"][1]["combattant"]["caracteristiques"]["PV"] = "dix"
    with pytest.raises(SaveError) as err:
        savefile.loads(json.dumps(data))
    assert "combattants[1].combattant.caracteristiques.PV" in str(err.value)


def test_the_trackers_export_writes_save_2_and_imports_both_core_log() -> None:
    """CORE-LOG: « Exporter (JSON) » of the GM's tracker writes a save of format 2;
    « Importer » reads it back silently, and a save of format 1 with the note."""
    enc = _fight()
    session = TableSession("d20")
    session.encounter, session.system = enc, "d20"
    saved = session.export().saved
    assert json.loads(saved)["format"] == 2 and filecheck.validate(
        "save-2", json.loads(saved)) is None
    again = TableSession("d20")
    with warnings.catch_warnings():
        warnings.simplefilter("error", OldNameWarning)
        outcome = again.import_text(saved)
    assert outcome.ok, outcome.message
    assert again.encounter is not None
    assert again.encounter.state.to_json() == enc.state.to_json()
    old = TableSession("d20").import_text(enc.to_json())
    assert old.ok, old.message
    text = old.result_text.replace("\u00a0", " ").replace("\u202f", " ")
    assert "Combat restauré" in text and "format 1 : anciens noms" in text
