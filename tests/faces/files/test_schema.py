"""One schema helper for the files users keep (saves, rosters, editions): the schemas are
loaded and compiled once, and every reader words a fault the same way, in French, with
the JSON path and, for TOML files, the line (CORE-ERR, CORE-LOG)."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import fastjsonschema
import pytest

from escarmouche import filecheck, roster, savefile
from escarmouche.editions import data as editions_data
from escarmouche.editions import load_edition, parse_edition
from escarmouche.errors import RosterError, SaveError
from escarmouche.roster import example_rosters, parse_roster

DUEL = example_rosters()["d100-duel"].read_text(encoding="utf-8")
EDITION = {"format": 1, "number": 2, "date": "2027-01-15", "summary": "Résumé.",
           "changes": []}


def test_schemas_load_and_compile_once() -> None:
    """The public names of the three readers are the one cached schema each."""
    assert savefile.schema() is filecheck.load("save-2")
    assert savefile.schema(1) is filecheck.load("save-1")
    assert roster.roster_schema() is filecheck.load("roster-2")
    assert editions_data.schema() is filecheck.load("edition-1")
    assert filecheck.validator("roster-2") is filecheck.validator("roster-2")
    assert roster.line_map is filecheck.line_map and roster.toml_problem is filecheck.toml_problem


def test_a_valid_document_has_no_problem() -> None:
    assert filecheck.validate("roster-2", tomllib.loads(DUEL)) is None
    assert filecheck.validate("edition-1", EDITION) is None


def _reason(schema: dict[str, Any], value: object) -> str:
    try:
        fastjsonschema.compile(schema)(value)
    except fastjsonschema.JsonSchemaValueException as err:
        return filecheck.reason(err)
    raise AssertionError("valid")


@pytest.mark.parametrize(("schema", "value", "want"), [
    ({"type": "integer"}, "huit", "« huit » : un nombre entier est attendu"),
    ({"type": "integer"}, [1], "un nombre entier est attendu"),
    ({"type": "array"}, 3, "3 : une liste [ … ] est attendue"),
    ({"type": ["string", "null"]}, True, "true : un texte ou null est attendu"),
    ({"required": ["a", "b", "c"]}, {"b": 1}, "il manque les champs « a » et « c »"),
    ({"properties": {"a": {}}, "additionalProperties": False}, {"z": 1, "a": 1, "y": 2},
     "champs inconnus « z » et « y »"),
    ({"minimum": 1}, 0, "0 : au moins 1"),
    ({"minItems": 2}, [1], "au moins 2 éléments sont attendus"),
    ({"maxLength": 2}, "abc", "texte trop long (au plus 2 caractères)"),
    ({"minProperties": 2}, {"a": 1}, "au moins 2 champs sont attendus"),
    ({"maxProperties": 1}, {"a": 1, "b": 2}, "au plus 1 champ est attendu"),
    ({"enum": ["x", "y"]}, "z", "« z » : à choisir parmi « x » ou « y »"),
    ({"const": 1}, 2, "2 : à choisir parmi 1"),
    ({"pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}, "15/01/2027",
     "« 15/01/2027 » : forme invalide (date AAAA-MM-JJ attendue)"),
    ({"uniqueItems": True}, [1, 1], "une valeur apparaît deux fois"),
])
def test_french_reasons_core_err(schema: dict[str, Any], value: object, want: str) -> None:
    """CORE-ERR: the reason names the bad value (a plain one), in French, with the
    agreement of the type asked for; a missing or unknown field is named, only those."""
    assert _reason(schema, value) == want


def test_a_fault_names_its_path_and_line() -> None:
    """An unknown key is the place of the fault (its own line); a missing one points to
    its table's line."""
    text = DUEL.replace('titre = "', 'couleur = "rouge"\ntitre = "', 1)
    lines = filecheck.line_map(text)
    problem = filecheck.validate("roster-2", tomllib.loads(text), lines=lines)
    assert problem is not None
    assert (problem.path, problem.reason, problem.line) == (
        "couleur", "champ inconnu", lines["couleur"])
    data = tomllib.loads(DUEL)
    del data["camps"][1]["nom"]
    problem = filecheck.validate("roster-2", data, lines=filecheck.line_map(DUEL))
    assert problem is not None and problem.path == "camps[1]"
    assert problem.line == filecheck.line_map(DUEL)["camps[1]"]
    assert problem.message("CORE-ERR", source="duel.toml") == (
        f"duel.toml, ligne {problem.line}, champ « camps[1] » : il manque le champ « nom » "
        "(CORE-ERR).")


def test_the_three_readers_word_a_fault_alike_core_log() -> None:
    """The same fault (an unknown field at the top) in a save, a roster and an edition:
    one wording, with each reader's rule and, for the roster file, its line."""
    save = json.loads(savefile_toy_save())
    save["couleur"] = "rouge"
    with pytest.raises(SaveError) as caught:
        savefile.validate_save(save)
    plain = str(caught.value).replace("\u00a0", " ")
    assert plain == "Sauvegarde, champ « couleur » : champ inconnu (CORE-LOG)."
    with pytest.raises(RosterError) as roster_err:
        parse_roster('couleur = "rouge"\n' + DUEL, source="duel.toml")
    assert str(roster_err.value).replace("\u00a0", " ") == (
        "duel.toml, ligne 1, champ « couleur » : champ inconnu (CORE-ERR).")
    assert roster_err.value.line == 1
    with pytest.raises(SaveError) as edition_err:
        parse_edition({**EDITION, "couleur": "rouge"})
    assert str(edition_err.value).replace("\u00a0", " ") == (
        "Édition, champ « couleur » : champ inconnu (CORE-ERR).")


def savefile_toy_save() -> str:
    import random

    from escarmouche import Combatant
    from escarmouche.encounter import Encounter

    enc = Encounter("d20", [Combatant("Brune", "héros", {"PV": 10}),
                            Combatant("Grolk", "orques", {"PV": 8})])
    enc.start(random.Random(1))
    return enc.to_json()


def test_toml_errors_name_line_and_column_core_err(tmp_path: Path) -> None:
    """A TOML syntax error, in a roster or an edition file: the same French words, the
    line and the column."""
    with pytest.raises(RosterError) as caught:
        parse_roster("version = 1\ntitre = Duel\n", source="duel.toml")
    assert str(caught.value) == ("duel.toml, ligne 2, colonne 9\u00a0: texte TOML invalide "
                                 "(valeur invalide) (CORE-ERR).")
    assert caught.value.line == 2
    path = tmp_path / "2.toml"
    path.write_text("format = 1\nnumber = deux\n", encoding="utf-8")
    with pytest.raises(SaveError) as edition_err:
        load_edition(path)
    assert str(edition_err.value) == ("2.toml, ligne 2, colonne 10\u00a0: texte TOML invalide "
                                      "(valeur invalide) (CORE-ERR).")
    path.write_text('format = "1', encoding="utf-8")
    with pytest.raises(SaveError, match=r"2\.toml, à la fin du texte"):
        load_edition(path)
