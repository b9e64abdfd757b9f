"""Saves are checked at the door (CORE-LOG, CORE-ERR): text, schema, consistency.

Each class of fault found by fuzzing has a test named after it; a refused save raises
:class:`SaveError` in French naming the path in the file, and nothing is loaded.
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from escarmouche import Combatant, EscarmoucheError
from escarmouche.encounter import Encounter
from escarmouche.errors import SaveError
from escarmouche.savefile import parse_json, schema, validate_save
from tests.helpers.fuzz_targets import paths_of as _paths
from tests.toy_system import SYSTEM as TOY

#: the toy system registered for every test here (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("toy")


def toy_save(turns: int = 1) -> dict[str, Any]:
    enc = Encounter(TOY, [Combatant("Aldric", "héros", {"PV": 12, "init": 1}),
                          Combatant("Grolk", "monstres", {"PV": 10})])
    enc.start(random.Random(3))
    for _ in range(turns):
        enc.end_activation(random.Random(4))
    data: dict[str, Any] = json.loads(enc.to_json())
    return data


def refused(data: object, *fragments: str) -> str:
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    with pytest.raises(SaveError) as err:
        Encounter.from_json(text)
    message = str(err.value)
    for fragment in fragments:
        assert fragment in message, (fragment, message)
    return message


def test_huge_integers_are_refused_core_log() -> None:
    """Integers of thousands of digits: a French error, not Python's int-string limit."""
    refused("9" * 5000, "chiffres")
    save = toy_save()
    text = json.dumps(save).replace('"PV": 12', '"PV": ' + "9" * 5000, 1)
    refused(text, "chiffres")


def test_deep_nesting_is_refused_core_log() -> None:
    """'[' * 3000 (RecursionError before) and a 100-deep value in system_state."""
    refused("[" * 3000, "imbrication trop profonde")
    save = toy_save()
    nested: Any = 1
    for _ in range(100):
        nested = [nested]
    save["system_state"]["x"] = nested
    refused(save, "imbrication trop profonde")


def test_json_errors_are_french_core_log() -> None:
    message = refused("{pas du json", "ligne 1, colonne 2")
    assert "Expecting" not in message
    refused("", "une valeur est attendue")
    refused('{"a": NaN}', "NaN")
    refused('{"a": 1e999}', "infini")


@pytest.mark.parametrize(("mutate", "path"), [
    (lambda d: d.update(cursor=-100), "cursor"),
    (lambda d: d["order"].__setitem__(0, {"nom": "Aldric"}), "order[0]"),
    (lambda d: d.update(fighters=[]), "fighters"),
    (lambda d: d["effects"].append({"id": "e1", "name": "Poison", "timing": "debut_tour",
                                    "per_tick": {"PV": 1.5}}), "effects[0].per_tick.PV"),
    (lambda d: d.update(turn=float("inf")), "sauvegarde"),
    (lambda d: d["fighters"][1]["combatant"].update(stats={"PV": "dix"}),
     "fighters[1].combatant.stats.PV"),
    (lambda d: d["fighters"][0].update(tracks={"Mana": 3}, maxima={}), "piste inconnue"),
    (lambda d: d["order"].append("Personne"), "order[2]"),
    (lambda d: d.update(cursor=5), "cursor"),
    (lambda d: d["fighters"].append(copy.deepcopy(d["fighters"][0])), "deux combattants"),
    (lambda d: d.update(format=3), "format"),
    (lambda d: d.pop("log"), "il manque le champ"),
    (lambda d: d.update(extra=1), "champ inconnu"),
    (lambda d: d.update(system="d6"), "système inconnu"),
    (lambda d: d.update(rules={"faces": "six"}), "faces"),
], ids=["cursor", "order-dict", "no-fighters", "per-tick-float", "turn-inf", "stat-text",
        "unknown-track", "order-unknown", "cursor-past", "duplicate", "format", "missing",
        "extra", "system", "rules"])
def test_corrupt_saves_are_refused_naming_the_path_core_log(
        mutate: Callable[[dict[str, Any]], object], path: str) -> None:
    """A corrupt save is refused at load time (it used to crash at the next click)."""
    save = toy_save()
    mutate(save)
    refused(save, path)


def test_not_a_save_at_all_core_log() -> None:
    refused("[]", "un objet")
    refused("null", "un objet")
    refused('"texte"', "un objet")
    with pytest.raises(SaveError):
        Encounter.from_json(42)  # type: ignore[arg-type]
    with pytest.raises(SaveError, match="pas du JSON"):
        Encounter.from_json({**toy_save(), "log": [object()]})


def test_lone_surrogates_are_refused_core_log() -> None:
    refused('{"a": "\\ud800"}', "demi-paire")


def test_schema_is_published_and_versioned() -> None:
    s = schema()
    assert s["properties"]["format"] == {"const": 2, "description": "La version du format (2)."}
    assert schema(1)["properties"]["format"]["const"] == 1
    assert "$schema" in s and s["title"].startswith("Sauvegarde")
    validate_save(toy_save())


def test_save_round_trips_and_plays_on_core_log() -> None:
    save = toy_save(turns=2)
    enc = Encounter.from_json(json.dumps(save))
    assert json.loads(enc.to_json()) == save
    enc.run(random.Random(1), max_turns=20)
    assert enc.finished


def test_run_is_all_or_nothing_core_err() -> None:
    """Manual dice running out mid-fight: nothing of the run stays committed."""
    from escarmouche.dice import ScriptedRolls

    enc = Encounter(TOY, [Combatant("A", "x", {"PV": 30}), Combatant("B", "y", {"PV": 30})])
    before = enc.to_json()
    rng = ScriptedRolls([3, 4, 5, 6])
    with pytest.raises(EscarmoucheError):
        enc.run(rng, max_turns=50)
    assert enc.to_json() == before and rng.remaining == 4


# -- property tests: any mutation of a valid save loads or is refused cleanly ----------

_LEAF = st.one_of(st.none(), st.booleans(), st.integers(-10**40, 10**40),
                  st.floats(allow_nan=False), st.text(max_size=20))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_mutated_save_loads_or_is_refused_cleanly(data: st.DataObject) -> None:
    """Replace one value anywhere in a valid save: either it loads and plays on, or a
    SaveError is raised; never another exception."""
    save = toy_save(turns=1)
    paths = [p for p in _paths(save) if p]
    path = data.draw(st.sampled_from(paths))
    value = data.draw(_LEAF | st.lists(_LEAF, max_size=3) | st.dictionaries(
        st.text(max_size=5), _LEAF, max_size=3))
    node = save
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    try:
        text = json.dumps(save, ensure_ascii=False)
    except ValueError:
        return
    try:
        enc = Encounter.from_json(text)
    except SaveError:
        return
    before = enc.to_json()
    try:
        enc.run(random.Random(2), max_turns=5)
    except EscarmoucheError:
        assert enc.to_json() == before


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_any_text_parses_or_is_refused_cleanly(text: str) -> None:
    with contextlib.suppress(SaveError):
        parse_json(text)
