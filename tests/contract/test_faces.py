"""The System describes itself: the toy fifth system, registered, works through every
face of the product, not only the fight (CORE-ERR, JOUET-ATK-1).

Each face asks ``systems.get(name)`` and the option declarations
(:mod:`escarmouche.options`), never a switchboard keyed by a built-in name: a roster file
with a French option key, ``simule`` with a labelled sweep, the standard odds of an
edition page, an edition diff, ``cotes``, the registry's titles and rule prefixes. The
widgets' faces are in ``tests/faces/widgets/test_toy.py``. The last test checks that outside
``systems/`` no module names a built-in system outside its docstring examples (a demo's
default is ``systems.DEFAULT``).
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from escarmouche import systems
from escarmouche.cli import main
from escarmouche.editions import option_changes, standard_odds
from escarmouche.editions.odds import option_label, value_label
from escarmouche.roster import parse_roster
from escarmouche.simulation import sweep
from tests.helpers import ROOT
from tests.toy_system import SYSTEM as TOY
from tests.toy_system.rules import Rules

ROSTER = """\
version = 1
titre = "Duel jouet"
systeme = "jouet"

[options]
faces_degats = 8

[[camps]]
nom = "a"
[[camps.combattants]]
nom = "Ana"
caracteristiques = { PV = 6, init = 1 }

[[camps]]
nom = "b"
[[camps.combattants]]
nom = "Bo"
caracteristiques = { PV = 6 }
"""


#: the toy system registered for every test here (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("toy")


def test_the_registry_reads_title_and_prefix_from_the_system() -> None:
    """CORE-ERR: ``TITLES`` and the rule prefixes come from each system, the toy one too."""
    assert systems.TITLES["jouet"] == "Système jouet"
    assert "jouet" in systems.TITLES and len(systems.TITLES) == len(systems.available())
    assert systems.by_rule_prefix("JOUET-ATK-1") == "jouet"
    assert systems.by_rule_prefix("D12-INIT-3") == "d12"
    assert systems.by_rule_prefix("CORE-ERR") is None


def test_a_roster_file_sets_a_toy_option_by_its_french_key() -> None:
    """JOUET-ATK-1: ``faces_degats`` is the key the toy ``Rules.faces`` declares; the
    engine name is refused with the key to use."""
    roster = parse_roster(ROSTER)
    assert roster.rules.faces == 8
    with pytest.raises(ValueError, match="faces_degats"):
        parse_roster(ROSTER.replace("faces_degats = 8", "faces = 8"))
    with pytest.raises(ValueError, match=r"JOUET-ATK-1"):
        parse_roster(ROSTER.replace("faces_degats = 8", "faces_degats = 1"))


def test_a_sweep_of_a_toy_option_is_labelled_in_french() -> None:
    """JOUET-ATK-1: the sweep's column shows the option's declared label and values."""
    result = sweep(parse_roster(ROSTER), {"faces": [4, 8]}, 10, seed=1)
    table = str(result.table())
    assert "Faces du dé de dégâts (JOUET-ATK-1)" in table
    assert "faces |" not in table.lower().replace("faces du", "")


def test_simule_sweeps_a_toy_option_by_its_key(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """JOUET-ATK-1: ``escarmouche simule --grille faces_degats=…`` on a toy roster file."""
    path = tmp_path / "jouet.toml"
    path.write_text(ROSTER, encoding="utf-8")
    assert main(["simule", str(path), "-n", "10", "--graine", "1",
                 "--grille", "faces_degats=4,8"]) == 0
    out = capsys.readouterr().out
    assert "Faces du dé de dégâts (JOUET-ATK-1)" in out
    assert main(["simule", str(path), "-n", "10", "--grille", "faces=4,8"]) != 0


def test_the_toy_system_has_standard_odds() -> None:
    """JOUET-ATK-1: an edition page and the Atelier compare these before and after."""
    before = standard_odds("jouet", Rules())
    after = standard_odds("jouet", Rules(faces=8))
    assert before and [t.key for t in before] == [t.key for t in after]
    assert before[0].rows != after[0].rows


def test_an_edition_diff_names_a_toy_option_by_key_and_label() -> None:
    """JOUET-ATK-1: the diff of a toy option default reads its declaration."""
    old = {"jouet": TOY.rules_to_json(Rules())}
    new = {"jouet": TOY.rules_to_json(Rules(faces=8))}
    (change,) = option_changes(old, new)
    assert (change.system, change.option, change.before, change.after) == (
        "jouet", "faces_degats", 6, 8)
    assert change.rules == ("JOUET-ATK-1",)
    assert change.text == ("La valeur par défaut de l’option « faces du dé de dégâts "
                           "(JOUET-ATK-1) » passe de 6 à 8.")
    assert option_label("jouet", "faces_degats") == "faces du dé de dégâts (JOUET-ATK-1)"
    assert value_label("jouet", "faces_degats", 8) == "8"


def test_cotes_offers_the_toy_situation(capsys: pytest.CaptureFixture[str]) -> None:
    """JOUET-ATK-1: ``escarmouche cotes`` lists every system's situations."""
    assert main(["cotes", "--coup-jouet", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["situation"] == "coup_jouet" and len(data["degats"]) == 4
    assert main(["cotes", "-h"]) == 0
    assert "--coup-jouet" in capsys.readouterr().out


# -- outside systems/, a built-in system is named only as data ------------------------------

#: the places that may name a built-in system, and why each is data
ALLOWED: dict[str, str] = {
    "src/escarmouche/systems/__init__.py": "the registry line of the built-in systems",
}


def _literals(path: Path) -> Iterator[tuple[int, str]]:
    """The string constants of a module that equal a built-in system's name, except in
    docstrings (a roster file's text or a demo's call shown as an example)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                skipped.add(id(body[0].value))
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and node.value in systems.NAMES
                and id(node) not in skipped):
            yield node.lineno, str(node.value)


def test_no_module_outside_systems_names_a_built_in_system() -> None:
    """CORE-ERR: the roster, editions, simulation, command line and widgets ask
    ``systems.get(name)``; a fifth built-in system touches only its package and the
    registry line."""
    found = []
    for folder in ("src/escarmouche", "widgets/escarmouche_widgets"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel.startswith("src/escarmouche/systems/") and rel not in ALLOWED:
                continue
            if rel in ALLOWED:
                continue
            found += [f"{rel}:{line} {name!r}" for line, name in _literals(path)]
    assert not found, "\n".join(found)
