"""The Makefile's commands: every target is declared phony once and listed by
``make help``, in French."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from tests.helpers import ROOT

MAKEFILE = ROOT / "Makefile"


def makefile_text() -> str:
    """The Makefile with its continued lines joined."""
    return MAKEFILE.read_text(encoding="utf-8").replace("\\\n", " ")


def targets(text: str) -> set[str]:
    """The rules' targets (not variables, not special targets, not the venv's stamp)."""
    found = set()
    for line in text.splitlines():
        match = re.match(r"^([A-Za-z0-9_.$()-]+(?:\s+[A-Za-z0-9_.$()-]+)*)\s*:(?!=)", line)
        if match is None:
            continue
        for name in match.group(1).split():
            if not name.startswith((".", "$")):
                found.add(name)
    return found


def phony_lines(text: str) -> list[set[str]]:
    return [set(line.split(":", 1)[1].split()) for line in text.splitlines()
            if line.startswith(".PHONY:")]


def test_the_parser_reads_rules_not_variables() -> None:
    text = "X := 1\nY ?= 2\nbook: venv\n\t$(PY) a\n.PHONY: book\n$(STAMP): x\nsite: book\n"
    assert targets(text) == {"book", "site"}
    assert phony_lines(text) == [{"book"}]


def test_phony_is_declared_once_and_names_every_target() -> None:
    text = makefile_text()
    phony = phony_lines(text)
    assert len(phony) == 1, f"{len(phony)} lignes .PHONY"
    assert phony[0] == targets(text)


@pytest.mark.skipif(shutil.which("make") is None, reason="make est absent")
def test_make_help_lists_every_target_in_french() -> None:
    shown = subprocess.run(["make", "--no-print-directory", "-s", "help"], cwd=ROOT,
                           check=True, capture_output=True, text=True).stdout
    listed = set(re.findall(r"^make ([a-z0-9-]+)", shown, re.MULTILINE))
    missing = sorted(targets(makefile_text()) - listed)
    assert not missing, f"make help ne cite pas : {', '.join(missing)}"
    # each target comes with a description, in French
    for line in shown.splitlines():
        if line.startswith("make "):
            assert len(line.split(maxsplit=2)) == 3, line
    assert "tout\u00a0: lint" in shown and "efface les constructions" in shown
    assert not re.search(r"\b(the|builds|runs|every)\b", shown)
    # French typography: a no-break space before « : » and inside « »
    assert not re.search(r" [:»]|« ", shown)


#: what a test reads when it reads the tree a revision publishes
TREE_WORDS = re.compile(r"""["'](?:editions|book|book_src|_build)["']|book_src/|editions/|"""
                        r"""\.ipynb|mark\.published""")


def test_the_revisions_engine_only_tests_read_no_book_nor_edition() -> None:
    """make revision leaves out the engine's own tests (tools/revision.py ENGINE_ONLY):
    each must read only the rules in force, never the book or an edition it published
    (one page of the book that no revision rewrites, the roster format, is allowed)."""
    from tools.revision import ENGINE_ONLY, TESTS

    files = sorted({p for glob in ENGINE_ONLY for p in ROOT.glob(glob)})
    assert len(files) >= 30, files  # the globs still find the engine's tests
    for path in files:
        text = path.read_text(encoding="utf-8").replace('"book" / "format-effectifs.md"', "")
        found = TREE_WORDS.search(text)
        assert found is None, f"{path.name} lit l’arbre publié ({found.group(0)!r}) : " \
            "retirez-le de ENGINE_ONLY"
    assert all(f"--ignore-glob={glob}" in TESTS for glob in ENGINE_ONLY)
