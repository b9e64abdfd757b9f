"""The book reads as a rulebook (spec/RELECTURE.md): checks on the reader's pages.

- every « Interprétation retenue » box says what it changes at the table;
- every system has a one-page aide-mémoire (class ``aide-memoire``, which
  ``tools/build_pdf.py`` holds to one printed sheet) and a worked fight with real
  attacks, both in its part of the table of contents;
- rule pages open with rules: no visible code before the first rule, setup cells hidden;
- no page of a system part shows an engine option list before its first rule.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml  # type: ignore[import-untyped]

from escarmouche import systems
from tests.helpers import ROOT, SYSTEM_PREFIX

SYSTEMS = systems.NAMES
WORKED = {"rulebook": "tour-complet", "d100": "round-complet", "d12": "tour-complet",
          "d20": "round-complet"}
_BOX = re.compile(r"^```\{admonition\} Interprétation retenue[^\n]*\n(.*?)^```", re.S | re.M)
_CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(.*?)^```", re.S | re.M)
_RULE = re.compile(rf"^\*\*{SYSTEM_PREFIX}-[A-Z0-9-]+\*\* —", re.M)


def _pages() -> list[Path]:
    return sorted([*ROOT.glob("book_src/**/*.md"), *ROOT.glob("book/**/*.md")])


def _toc() -> str:
    return str(yaml.safe_dump(yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))))


@pytest.mark.parametrize("page", [p for p in _pages() if _BOX.search(p.read_text("utf-8"))],
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_ruling_box_says_what_it_changes_at_the_table(page: Path) -> None:
    for body in _BOX.findall(page.read_text(encoding="utf-8")):
        if "Ce que le texte ne dit pas" in body:  # the home page's sample box
            continue
        assert "À la table" in body or "Ce que cela change à la table" in body, body[:200]


@pytest.mark.parametrize("system", SYSTEMS)
def test_each_system_has_an_aide_memoire_in_its_part(system: str) -> None:
    page = ROOT / "book" / system / "aide-memoire.md"
    text = page.read_text(encoding="utf-8")
    assert "{container} aide-memoire" in text
    assert f"book/{system}/aide-memoire" in _toc()
    assert "{code-cell}" not in text  # one sheet of rules, no code


@pytest.mark.parametrize("system", SYSTEMS)
def test_each_system_has_a_worked_fight_with_real_attacks(system: str) -> None:
    twin = ROOT / "book_src" / system / f"{WORKED[system]}.md"
    code = "\n".join(_CELL.findall(twin.read_text(encoding="utf-8")))
    assert len(re.findall(r'"attaquer"', code)) >= 3, "au moins trois vraies attaques"
    assert "journal(" in code  # narrated by the engine
    assert f"book/{system}/{WORKED[system]}" in _toc()


@pytest.mark.parametrize("twin", sorted(ROOT.glob("book_src/*/*.md")),
                         ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_visible_code_before_the_first_rule(twin: Path) -> None:
    if twin.parent.name not in SYSTEMS:
        pytest.skip("pas une page de règles")
    text = twin.read_text(encoding="utf-8")
    first_rule = _RULE.search(text)
    before = text[:first_rule.start()] if first_rule else text
    for cell in _CELL.findall(before):
        tags = re.match(r":tags: \[(.*?)\]", cell)
        assert tags and re.search(r"remove-(cell|input)|hide-input", tags.group(1)), cell[:80]
    assert "Rules()" not in "\n".join(_CELL.findall(before))
