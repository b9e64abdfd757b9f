"""The package's layers depend one way: the command line on the editions, never the
reverse; the lowest layers (errors, model) on text formatting, never on the SVG charts.

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
    assert "escarmouche.editions.workflow" in names
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
