"""One vocabulary: option values and file keys in French; the old ones keep being read,
each converted with a French note that names the new one (escarmouche.errors
OldNameWarning, CONTRIBUTING.md « Option values in French »)."""

from __future__ import annotations

import json
import random
import tomllib
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from escarmouche import filecheck, systems
from escarmouche.cli import main
from escarmouche.editions.data import FORMAT as EDITION_FORMAT
from escarmouche.editions.data import (
    Snapshot,
    edition_to_toml,
    load_edition,
    parse_edition,
)
from escarmouche.errors import OldNameWarning, RosterError
from escarmouche.options import options_of, renewed
from escarmouche.roster import FORMAT, example_rosters, parse_roster, roster_schema
from escarmouche.systems import rulebook as rb
from tests.helpers import ROOT
from tests.helpers.saves import suivi_3

#: every value renamed in French: (engine name, French key, old, new, rule)
RENAMED = [
    ("surprise_aggregate", "valeur_groupe_surprise", "weakest", "plus_faible",
     "RB-SURPRISE-2"),
    ("surprise_aggregate", "valeur_groupe_surprise", "leader", "meneur", "RB-SURPRISE-2"),
    ("surprise_aggregate", "valeur_groupe_surprise", "mean", "moyenne", "RB-SURPRISE-2"),
    ("hyperactive_slot", "place_hyperactivite", "consecutive", "juste_apres", "RB-SPEED-3"),
    ("hyperactive_slot", "place_hyperactivite", "end_of_turn", "fin_du_tour", "RB-SPEED-3"),
]


def _notes(caught: list[warnings.WarningMessage]) -> list[OldNameWarning]:
    return [w.message for w in caught if isinstance(w.message, OldNameWarning)]


def _one_note(caught: list[warnings.WarningMessage], old: str, new: str, rule: str) -> None:
    notes = _notes(caught)
    assert len(notes) == 1, [str(n) for n in notes]
    note = notes[0]
    assert (note.old, note.new, note.rule) == (old, new, rule)
    assert f"« {old} »" in str(note) and f"écrivez désormais « {new} »" in str(note)
    assert str(note).endswith(f"({rule}).")


def test_no_option_value_is_english_any_more_rb_surprise_2_rb_speed_3() -> None:
    """Every declared choice of every system is a French identifier: none of the old
    English values is still a choice, and each renamed value points to a choice."""
    english = {old for _, _, old, _, _ in RENAMED}
    for name in systems.available():
        for spec in options_of(systems.get(name).rules_type):
            assert not english & set(spec.choices or ()), (name, spec.key)
            for old, new in spec.renamed.items():
                assert spec.choices is not None and new in spec.choices and old not in \
                    spec.choices
    # the defaults in force (whatever a designer published) are French too
    assert rb.Rules().surprise_aggregate not in english
    assert rb.Rules().hyperactive_slot not in english


@pytest.mark.parametrize(("name", "key", "old", "new", "rule"), RENAMED)
def test_old_value_as_a_keyword_is_read_with_a_note(name: str, key: str, old: str,
                                                   new: str, rule: str) -> None:
    """RB-SURPRISE-2, RB-SPEED-3: ``Rules(surprise_aggregate="weakest")`` (spec/API.md)
    still works, gives the new value and one note naming it."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        given: dict[str, Any] = {name: old}
        rules = rb.Rules(**given)
    assert getattr(rules, name) == new
    assert rules == rb.Rules(**{**given, name: new})
    _one_note(caught, old, new, rule)
    assert _notes(caught)[0].field == key


@pytest.mark.parametrize(("name", "key", "old", "new", "rule"), RENAMED)
def test_old_value_by_french_key_and_in_json_is_read_with_one_note(
        name: str, key: str, old: str, new: str, rule: str) -> None:
    """RB-SURPRISE-2, RB-SPEED-3: ``--option``, a roster's ``[options]`` and the Atelier
    (French keys), a save (engine names): the old value, one note each."""
    reads: list[Callable[[], Any]] = [lambda: rb.SYSTEM.rules_from_keys({key: old}),
                                      lambda: rb.SYSTEM.rules_from_json({name: old})]
    for read in reads:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            rules = read()
        assert getattr(rules, name) == new
        _one_note(caught, old, new, rule)


def test_a_new_value_gives_no_note_and_a_wrong_one_is_refused_rb_surprise_2() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rb.Rules(surprise_aggregate="moyenne", hyperactive_slot="fin_du_tour")
    assert _notes(caught) == []
    with pytest.raises(ValueError, match="RB-SURPRISE-2") as err:
        rb.Rules(surprise_aggregate="weak")
    assert "plus_faible" in str(err.value) and "weakest" not in str(err.value)


ROSTER = """
version = 1
systeme = "rulebook"

[options]
valeur_groupe_surprise = "leader"
place_hyperactivite = "end_of_turn"

[[camps]]
nom = "héros"
[[camps.combattants]]
nom = "Aube"
caracteristiques = { HAB = 60, DIS = 50, PMR = 50, PV = 10, Esprit = 10 }

[[camps]]
nom = "orques"
[[camps.combattants]]
nom = "Grolk"
caracteristiques = { HAB = 40, DIS = 40, PMR = 40, PV = 10, Esprit = 10 }
"""


def test_old_values_in_a_roster_file_rb_surprise_2_rb_speed_3() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        roster = parse_roster(ROSTER, source="vieux.toml")
    assert (roster.rules.surprise_aggregate, roster.rules.hyperactive_slot) == (
        "meneur", "fin_du_tour")
    assert sorted((str(n.old), str(n.new)) for n in _notes(caught)) == [
        ("end_of_turn", "fin_du_tour"), ("leader", "meneur"), ("version = 1", "format = 2")]


def test_old_value_after_option_on_the_command_line_is_a_french_note_rb_surprise_2(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The CLI says the note on stderr (« escarmouche : note : … »), never as a Python
    warning, and runs."""
    code = main(["simule", "rulebook-duel", "--option", "valeur_groupe_surprise=mean",
                 "-n", "2", "--graine", "1", "--processus", "1"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "escarmouche\u00a0: note\u00a0: " in err and "OldNameWarning" not in err
    # French typography: no-break spaces inside « », before « : » and « ; »
    assert "«\u00a0mean\u00a0»" in err and "écrivez désormais «\u00a0moyenne\u00a0»" in err
    assert "»\u00a0: ancien nom" in err and "»\u202f; écrivez" in err
    assert "(RB-SURPRISE-2)" in err


def test_old_values_in_an_edition_file_and_a_snapshot_rb_surprise_2() -> None:
    """An edition file's option change with old values is read as the new ones (one
    note each); a snapshot written before the renaming is read renamed, silently (the
    tool wrote it), so a draft does not take a renaming for a changed default."""
    data: dict[str, Any] = {
        "format": 1, "number": 2, "date": "2026-12-24", "summary": "x",
        "changes": [{"kind": "option-default", "rules": ["RB-SURPRISE-2"], "text": "x",
                     "system": "rulebook", "option": "valeur_groupe_surprise",
                     "before": "weakest", "after": "mean"}]}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        edition = parse_edition(data)
    change = edition.changes[0]
    assert (change.before, change.after) == ("plus_faible", "moyenne")
    assert sorted(str(n.new) for n in _notes(caught) if n.field != "format") == [
        "moyenne", "plus_faible"]
    old = {"surprise_aggregate": "weakest", "hyperactive_slot": "end_of_turn"}
    assert renewed(rb.Rules, old) == {"surprise_aggregate": "plus_faible",
                                      "hyperactive_slot": "fin_du_tour"}


def test_a_snapshot_with_old_values_reads_renamed_rb_speed_3(tmp_path: Path) -> None:
    (tmp_path / "rules.json").write_text(json.dumps(
        {"rulebook": {"hyperactive_slot": "consecutive"}}), encoding="utf-8")
    for name in ("rules-text.json", "outputs.json"):
        (tmp_path / name).write_text("{}", encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        snap = Snapshot.read(tmp_path)
    assert snap.rules["rulebook"]["hyperactive_slot"] == "juste_apres"
    assert _notes(caught) == []


def test_an_old_save_state_keeps_its_hyperactivity_slot_rb_speed_3() -> None:
    """A save's speed order (RB-SPEED-3) written with the English value is read with
    the French one, so the second activation keeps its place."""
    order = rb.SpeedOrder(("A", "B"), ("A", "B"), ("A", "B"), frozenset({"A"}),
                          frozenset(), "juste_apres", (), ())
    data = order.to_json()
    data["hyperactive_slot"] = "consecutive"
    again = rb.SpeedOrder.from_json(data)
    assert again.hyperactive_slot == "juste_apres"
    assert again.slots() == ["A", "A", "B"]


# -- file keys: one name for the format number ---------------------------------------------


def test_an_old_roster_file_with_version_is_read_with_a_note_core_err() -> None:
    """CORE-ERR: format 1 wrote ``version = 1``; it is read (against roster-1), and the
    note names the new key and number (« format = 2 »)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        roster = parse_roster(ROSTER, source="vieux.toml")
    assert roster.system == "rulebook" and [c.name for c in roster.combatants] == [
        "Aube", "Grolk"]
    note = next(n for n in _notes(caught) if n.field == "version")
    assert (note.old, note.new, note.rule) == ("version = 1", "format = 2", "CORE-ERR")
    assert str(note).startswith("vieux.toml, clé « version » : ancien nom")
    assert "écrivez désormais « format = 2 »" in str(note)


def test_a_new_roster_file_has_format_2_and_no_note_core_err() -> None:
    new = ROSTER.replace("version = 1", "format = 2").replace('"leader"', '"meneur"') \
        .replace('"end_of_turn"', '"fin_du_tour"')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        roster = parse_roster(new)
    assert _notes(caught) == []
    assert roster.rules.surprise_aggregate == "meneur"
    for shipped in example_rosters().values():
        assert tomllib.loads(shipped.read_text(encoding="utf-8"))["format"] == FORMAT == 2


@pytest.mark.parametrize(("first", "key"), [("version = 2", "version"),
                                            ("format = 1", "format"),
                                            ("format = 3", "format")])
def test_an_unknown_roster_format_is_refused_core_err(first: str, key: str) -> None:
    """CORE-ERR: ``version`` holds only 1, ``format`` only 2; anything else is refused,
    naming the key and its line."""
    with pytest.raises(RosterError, match="format de fichier inconnu") as err:
        parse_roster(ROSTER.replace("version = 1", first), source="x.toml")
    assert err.value.field == key and err.value.line == 2 and err.value.rule == "CORE-ERR"


def test_both_roster_schemas_validate_their_files_core_err() -> None:
    """Each schema validates its own format and refuses the other's key."""
    old = tomllib.loads(ROSTER)
    new = {**{k: v for k, v in old.items() if k != "version"}, "format": 2}
    assert filecheck.validate("roster-1", old) is None
    assert filecheck.validate("roster-2", new) is None
    assert roster_schema(1)["title"].endswith("version 1")
    assert roster_schema()["title"].endswith("format 2")
    problem = filecheck.validate("roster-2", old)
    assert problem is not None and problem.path == "version"
    assert filecheck.validate("roster-1", new) is not None


#: an edition file of format 2, as the tool wrote it before format 3 (English keys)
OLD_EDITION = """format = 2
number = 2
date = 2027-01-15
summary = "Deuxième édition."
reviewed = ["rulebook/initiative#5"]

[[changes]]
kind = "option-default"
rules = ["RB-SURPRISE-2"]
system = "rulebook"
option = "valeur_groupe_surprise"
before = "weakest"
after = "mean"
flag = "values-changed"
text = "La moyenne de chaque groupe."

[[changes]]
kind = "clarification"
rules = ["RB-D100-1"]
text = "Reformulé."
"""


def test_an_old_edition_file_is_read_with_one_note_naming_the_new_keys_core_err(
        tmp_path: Path) -> None:
    """CORE-ERR, RB-SURPRISE-2: a format-2 file (English keys and kinds, English option
    values) loads as it always did; one note gives each new key, one note each old
    value; the tool writes it back in format 3, French keys, French values."""
    path = tmp_path / "2.toml"
    path.write_text(OLD_EDITION, encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        edition = load_edition(path)
    assert (edition.number, edition.summary, edition.reviewed, edition.format) == (
        2, "Deuxième édition.", ("rulebook/initiative#5",), 2)
    first, second = edition.changes
    assert (first.kind, first.before, first.after, first.flag) == (
        "option-default", "plus_faible", "moyenne", "values-changed")
    assert second.kind == "clarification"
    keys = [n for n in _notes(caught) if n.field == "format"]
    assert len(keys) == 1 and (keys[0].old, keys[0].new) == (2, 3)
    for old, new in [("number", "numero"), ("summary", "resume"), ("changes", "changements"),
                     ("reviewed", "relus"), ("kind", "nature"), ("rules", "regles"),
                     ("text", "texte"), ("system", "systeme"), ("before", "avant"),
                     ("after", "apres"), ("flag", "marque")]:
        assert f"« {old} » → « {new} »" in str(keys[0]), old
    assert str(keys[0]).startswith("2.toml, format 2 : anciens noms")
    written = edition_to_toml(edition)
    data = tomllib.loads(written)
    assert data["format"] == EDITION_FORMAT == 3
    assert set(data) == {"format", "numero", "date", "resume", "relus", "changements"}
    assert data["changements"][0] == {
        "nature": "defaut-option", "regles": ["RB-SURPRISE-2"], "systeme": "rulebook",
        "option": "valeur_groupe_surprise", "avant": "plus_faible", "apres": "moyenne",
        "marque": "valeurs-changees", "texte": "La moyenne de chaque groupe."}
    path.write_text(written, encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        again = load_edition(path)
    assert _notes(caught) == [] and again.format == 3
    assert again.changes == edition.changes and again.reviewed == edition.reviewed


def test_every_edition_schema_validates_its_own_files_core_err() -> None:
    """edition-1 and edition-2 (English keys) and edition-3 (French keys): each validates
    its format's files and refuses the other's keys; the repository's edition 1 is of
    format 3."""
    old = tomllib.loads(OLD_EDITION)
    old["date"] = old["date"].isoformat()  # TOML's date, a text in JSON
    assert filecheck.validate("edition-2", old) is None
    problem = filecheck.validate("edition-3", {**old, "format": 3})
    assert problem is not None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", OldNameWarning)
        new = tomllib.loads(edition_to_toml(parse_edition(old)))
    new["date"] = new["date"].isoformat()
    assert filecheck.validate("edition-3", new) is None
    assert filecheck.validate("edition-2", {**new, "format": 2}) is not None
    one = {"format": 1, "number": 2, "date": "2027-01-15", "summary": "x", "changes": [
        {"kind": "new-ruling", "rules": ["RB-D100-1"], "text": "y"}]}
    assert filecheck.validate("edition-1", one) is None
    repository = ROOT / "editions" / "1.toml"
    assert tomllib.loads(repository.read_text(encoding="utf-8"))["format"] == 3


def test_an_old_edition_file_keeps_its_own_key_names_in_errors_core_err() -> None:
    """CORE-ERR: a fault in a format-1 file names the field as that file writes it."""
    one = {"format": 1, "number": 2, "date": "2027-01-15", "summary": "x", "changes": [
        {"kind": "option-default", "rules": ["RB-D100-1"], "text": "y",
         "system": "rulebook", "option": "reussite_critique_max", "before": 5,
         "after": 500}]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", OldNameWarning)
        with pytest.raises(ValueError, match=r"changes\[0\]\.after") as err:
            parse_edition(one)
        three = {"format": 3, "numero": 2, "date": "2027-01-15", "resume": "x",
                 "changements": [{"nature": "defaut-option", "regles": ["RB-D100-1"],
                                  "texte": "y", "systeme": "rulebook",
                                  "option": "reussite_critique_max", "avant": 5,
                                  "apres": 500}]}
        with pytest.raises(ValueError, match=r"changements\[0\]\.apres"):
            parse_edition(three)
    assert "RB-D100-1" in str(err.value)


def test_an_old_tracker_save_is_read_with_a_note_naming_format_core_log() -> None:
    """CORE-LOG: the tracker's save named its format number ``suivi`` (formats 1 and 2)
    and its step keys in English; format 3 says ``format``, like every file, with French
    step keys, and format 4 its fight in the save format 2. An old save reads back the
    same, with a note naming « format = 4 »; each schema validates its own format."""
    from escarmouche_widgets.saves import (
        STEP_KEYS,
        HideSteps,
        load_tracker_save_steps,
        tracker_save,
    )

    from escarmouche import Combatant
    from escarmouche.encounter import Encounter
    from escarmouche.history import History

    enc = Encounter("d20", [Combatant("Brune", "héros", {"PV": 10}),
                            Combatant("Grolk", "orques", {"PV": 10})])
    history = History()
    history.run(enc, "Début du combat", lambda: enc.start(random.Random(3)))
    steps = HideSteps()
    steps.record(history, "Grolk", True)
    new = json.loads(tracker_save(enc, history, {"Grolk"}, steps))
    assert new["format"] == 4 and "suivi" not in new
    assert set(new["historique"]) == {"format", "faites", "defaites"}
    assert set(new["historique"]["faites"][0]) <= set(STEP_KEYS.values())
    assert filecheck.validate("suivi-4", new) is None
    three = suivi_3(new)
    back = {v: k for k, v in STEP_KEYS.items()}

    def english(part: dict[str, Any]) -> dict[str, Any]:
        return {back.get(k, k): [{back.get(f, f): x for f, x in s.items()} for s in v]
                if isinstance(v, list) else v for k, v in part.items()}

    old = {"suivi": 2, "combat": three["combat"], "caches": new["caches"],
           "historique": english(three["historique"]),
           "masquages": english(new["masquages"])}
    assert filecheck.validate("suivi-2", old) is None
    assert filecheck.validate("suivi-4", old) is not None
    assert filecheck.validate("suivi-2", new) is not None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        again, again_history, hidden, again_steps = load_tracker_save_steps(json.dumps(old))
    note = next(n for n in _notes(caught) if n.field == "suivi")
    assert (note.old, note.new, note.rule) == ("suivi = 2", "format = 4", "CORE-LOG")
    assert "écrivez désormais « format = 4 »" in str(note)
    assert again.state.to_json() == enc.state.to_json() and hidden == {"Grolk"}
    assert again_history.to_json() == history.to_json()
    assert again_steps.to_json() == steps.to_json()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        load_tracker_save_steps(json.dumps(new))
    assert _notes(caught) == []



def test_the_report_has_a_format_number_named_format_core_err() -> None:
    """CORE-ERR: the JSON report of ``simule --json`` (bilan-2) names its format number
    ``format``, like the roster, edition and save files; bilan-1 (no number) stays
    published for the reports already written."""
    from escarmouche.simulation.balance import REPORT_FORMAT

    assert REPORT_FORMAT == 2
    for name, number in (("bilan-2", 2), ("roster-2", 2), ("edition-3", 3), ("suivi-3", 3),
                         ("suivi-4", 4), ("save-1", 1), ("save-2", 2)):
        schema = filecheck.load(name)
        assert "format" in schema["required"], name
        assert schema["properties"]["format"].get("const", number) == number, name
    assert "format" not in filecheck.load("bilan-1")["properties"]


def test_the_tracker_says_the_note_when_it_imports_an_old_save_core_log() -> None:
    """CORE-LOG: the GM's tracker (TableSession) restores a save of format 2 and shows,
    under « Combat restauré », the note that names « format = 4 »."""
    from escarmouche_widgets.saves import STEP_KEYS, tracker_save
    from escarmouche_widgets.session import TableSession

    from escarmouche import Combatant
    from escarmouche.encounter import Encounter
    from escarmouche.history import History

    enc = Encounter("d20", [Combatant("Brune", "héros", {"PV": 10}),
                            Combatant("Grolk", "orques", {"PV": 10})])
    enc.start(random.Random(1))
    new = suivi_3(json.loads(tracker_save(enc, History(), set())))
    back = {v: k for k, v in STEP_KEYS.items()}
    old = {"suivi": 2, "combat": new["combat"], "caches": [],
           "historique": {back.get(k, k): v for k, v in new["historique"].items()},
           "masquages": {back.get(k, k): v for k, v in new["masquages"].items()}}
    restored = TableSession("rulebook").import_text(json.dumps(old))
    assert restored.ok, restored.message
    text = restored.result_text.replace("\u00a0", " ").replace("\u202f", " ")
    assert "Combat restauré" in text and "clé « suivi »" in text
    assert "écrivez désormais « format = 4 »" in text
