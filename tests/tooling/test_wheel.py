"""The installable wheel (the one the site serves to Pyodide, ``tools/build_site.py``)
carries the engine and the widgets, not the repository's tooling: nothing in it reads
the book (``book/``, ``book_src/``, its notebooks, its extensions), runs notebooks or
other processes, or imports ``tools`` or ``book``. That tooling is ``tools/editions/``
(CONTRIBUTING.md, « editions »).

The wheel is built here as the site builds it (``python -m build --wheel
--no-isolation``), and its file list and its modules' code are read.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: modules of the repository's tooling that once were in the package
MOVED = ("escarmouche/editions/workflow.py", "escarmouche/editions/prose.py",
         "escarmouche/editions/check.py", "escarmouche/editions/sheets.py")
#: what a module of the wheel never imports: the repository's packages, processes, the
#: notebook toolchain
FORBIDDEN_IMPORTS = ("tools", "book", "subprocess", "nbclient", "nbformat", "jupytext")
#: what the code of a module of the wheel never names (docstrings and comments aside):
#: the book's notebooks and its sources, the book's extensions, a module loaded by path
FORBIDDEN_WORDS = ("ipynb", "book_src", "book_notebooks", "_ext/", "spec_from_file_location")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation",
                    "--outdir", str(out), str(ROOT)], check=True, capture_output=True,
                   timeout=300)
    (found,) = out.glob("escarmouche-*-py3-none-any.whl")
    return found


def _code_strings(tree: ast.AST) -> list[str]:
    """The string constants of ``tree`` that are not docstrings, and the dotted names
    it uses."""
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                                | ast.AsyncFunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    out = [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
           and isinstance(node.value, str) and id(node) not in docstrings]
    out += [node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)]
    return out


def _imports(tree: ast.AST) -> list[str]:
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


def test_the_wheel_carries_the_engine_and_the_widgets_only(wheel: Path) -> None:
    """A packaging property (no rule ID): the file list holds ``escarmouche`` and
    ``escarmouche_widgets`` (and the wheel's metadata), never ``tools/`` or ``book/``,
    nor the edition tooling that moved to ``tools/editions/``."""
    names = zipfile.ZipFile(wheel).namelist()
    assert "escarmouche/editions/duels.py" in names  # what the Atelier compares
    assert "escarmouche/editions/page.py" in names
    tops = {n.split("/", 1)[0] for n in names}
    assert {t for t in tops if not t.endswith(".dist-info")} == {
        "escarmouche", "escarmouche_widgets"}
    assert [m for m in MOVED if m in names] == []


def test_no_module_of_the_wheel_reads_the_book_or_runs_notebooks(wheel: Path) -> None:
    """Every module of the wheel, parsed: no import of the repository's tooling, of
    ``subprocess`` or of the notebook toolchain, and no code that names the book's
    notebooks, sources or extensions (ships to Pyodide: it would be dead weight there,
    and a checkout's files are not in the browser)."""
    found = []
    with zipfile.ZipFile(wheel) as z:
        modules = [n for n in z.namelist() if n.endswith(".py")]
        assert len(modules) > 50
        for name in modules:
            tree = ast.parse(z.read(name).decode("utf-8"))
            found += [f"{name}: import {m}" for m in _imports(tree)
                      if m.split(".")[0] in FORBIDDEN_IMPORTS]
            found += [f"{name}: {word!r} in {text!r}" for text in _code_strings(tree)
                      for word in FORBIDDEN_WORDS if word in text]
    assert found == []


def test_the_check_finds_a_module_that_reads_the_book() -> None:
    """The two checks above fail on the code that moved out (so they can fail)."""
    code = ("import subprocess, sys\n"
            "def run(root):\n"
            "    for p in root.rglob('*.ipynb'):\n"
            "        subprocess.run([sys.executable, 'tools/book_notebooks.py'])\n"
            "    from tools.editions.book import take_snapshot\n")
    tree = ast.parse(code)
    assert [m for m in _imports(tree) if m.split(".")[0] in FORBIDDEN_IMPORTS] == [
        "subprocess", "tools.editions.book"]
    assert [w for t in _code_strings(tree) for w in FORBIDDEN_WORDS if w in t] == [
        "ipynb", "book_notebooks"]
