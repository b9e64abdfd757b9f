"""The package's layers depend one way: the command line on the editions, never the
reverse; the lowest layers (errors, model) on text formatting, never on the SVG charts.
A private name stays inside its package (CONTRIBUTING.md, « Public and private names »).

Each import runs in a fresh interpreter (a subprocess), so that no module imported by
another test hides a dependency.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import escarmouche
from tools import private_imports

PACKAGE = Path(escarmouche.__file__).resolve().parent


def loaded_after(code: str) -> list[str]:
    """The ``escarmouche`` modules loaded in a fresh interpreter after running ``code``."""
    probe = (f"{code}\nimport json, sys\n"
             "print(json.dumps(sorted(m for m in sys.modules if m.startswith('escarmouche'))))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120, check=True)
    names: list[str] = json.loads(done.stdout.splitlines()[-1])
    return names


def test_the_editions_load_no_command_line() -> None:
    """``escarmouche.editions`` and every one of its modules load no ``escarmouche.cli``
    module (the command line imports the editions, not the reverse)."""
    code = ("import importlib, pkgutil, escarmouche.editions as e\n"
            "for m in pkgutil.walk_packages(e.__path__, 'escarmouche.editions.'):\n"
            "    importlib.import_module(m.name)")
    names = loaded_after(code)
    assert "escarmouche.editions.duels" in names
    assert not [n for n in names if n == "escarmouche.cli" or n.startswith("escarmouche.cli.")]


def test_no_edition_module_imports_the_command_line_even_late() -> None:
    """Not even inside a function (an import done on first call)."""
    found = []
    for path in sorted((PACKAGE / "editions").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            found += [f"{path.name}: {n}" for n in names
                      if n == "escarmouche.cli" or n.startswith("escarmouche.cli.")]
    assert not found


@pytest.mark.parametrize("module", ["escarmouche.errors", "escarmouche.model"])
def test_the_lowest_layers_load_no_svg(module: str) -> None:
    names = loaded_after(f"import {module}")
    assert module in names
    assert "escarmouche.render.svg" not in names


#: the most private names the tests may import across packages (they test some
#: packages' private helpers); lower it when a test stops, never raise it
TESTS_MAX_PRIVATE_IMPORTS = 44


def test_no_private_name_is_imported_across_packages() -> None:
    """A name with a leading underscore is private to its package: the code (engine,
    widgets, tools, bench, book extensions) imports none across packages, except the
    allowed ones, each with its reason; what another package needs has a public name
    (``escarmouche.checks``, ``escarmouche.rng``, ``escarmouche.cli.french`` …)."""
    found = private_imports.crossings(private_imports.CODE)
    assert [f for f in found if f not in private_imports.ALLOWED] == []
    assert sorted(private_imports.ALLOWED) == sorted(set(found) & set(private_imports.ALLOWED))


def test_the_tests_import_no_more_private_names() -> None:
    """The tests may reach a package's private helpers, but no more often than today."""
    found = private_imports.crossings(private_imports.TESTS)
    assert len(found) <= TESTS_MAX_PRIVATE_IMPORTS, "\n".join(found)


def test_the_private_import_rule_sees_each_form(tmp_path: Path) -> None:
    """The check counts the three forms (a private module, a private name, a relative
    import of either), and leaves alone what stays in its package."""
    pkg = tmp_path / "src" / "escarmouche"
    (pkg / "sub").mkdir(parents=True)
    for name in ("__init__.py", "_inner.py", "user.py", "sub/__init__.py"):
        (pkg / name).write_text("", encoding="utf-8")
    (pkg / "sub" / "mod.py").write_text(
        "from escarmouche import _inner\n"            # private module, parent package
        "import escarmouche._inner\n"                 # the same, plain import
        "from escarmouche.user import _helper\n"      # private name, parent package
        "from .. import _inner as again\n"            # relative, still the parent
        "from escarmouche.sub.other import _fine\n",  # same package: allowed
        encoding="utf-8")
    (pkg / "user.py").write_text("from escarmouche._inner import x\n", encoding="utf-8")
    found = private_imports.crossings(["src"], tmp_path)
    assert found == ["escarmouche.sub.mod → escarmouche._inner",
                     "escarmouche.sub.mod → escarmouche._inner",
                     "escarmouche.sub.mod → escarmouche.user._helper",
                     "escarmouche.sub.mod → escarmouche._inner"]


def _test_module_imports(root: Path) -> list[str]:
    """Every ``import`` of a test module (``test_*.py`` or ``conftest.py``) by a module
    under ``root``, as ``file: module``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                     else [a.name for a in node.names] if isinstance(node, ast.Import)
                     else [])
            found += [f"{path.relative_to(root.parent)}: {name}" for name in names
                      if name.startswith("tests.")
                      and name.rsplit(".", 1)[-1].startswith(("test_", "conftest"))]
    return found


def test_no_test_module_imports_another(tmp_path: Path) -> None:
    """What two test modules share lives in ``tests/helpers/`` (or a non-test module of
    ``tests/browser/``), never in one of them (tests/README.md, « Shared code »): a test
    module imported by another runs its module-level code twice and hides what it
    shares. The rule sees both import forms."""
    tests = Path(__file__).resolve().parents[1]
    assert _test_module_imports(tests) == []
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_b.py").write_text(
        "from tests.faces.test_a import X\nimport tests.browser.conftest\n", encoding="utf-8")
    assert len(_test_module_imports(tmp_path / "tests")) == 2
