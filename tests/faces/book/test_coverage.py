"""The book covers every rule: IDs, anchors, rulings, options, pages in the table of contents.

The rule IDs are those of ``spec/RULES.md``, the project's copy of the rule spec (or the
file named by ``$ESCARMOUCHE_RULES``), so that a clone is self-contained: they are read
from it, each system's by its prefix (``System.rule_prefix``); a snapshot of the rulings is
kept below and must match it. Where the steering copy (``../shared/spec/RULES.md``) is at
hand, the project's copy must match it too.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import re
from pathlib import Path

import pytest

from escarmouche import systems
from tests.helpers import ROOT, SYSTEM_PREFIXES
from tests.helpers.rule_ids import ID, ORIGINAL_EDITION_IDS, RULE_IDS, RULING_IDS

BOOK = ROOT / "book"
TOC = ROOT / "_toc.yml"
SYSTEMS = systems.NAMES


def rules_md() -> Path | None:
    """RULES.md, if it is at hand."""
    env = os.environ.get("ESCARMOUCHE_RULES")
    candidates = [Path(env)] if env else []
    candidates.append(ROOT / "spec" / "RULES.md")
    return next((p for p in candidates if p.is_file()), None)


#: the engine's own rules (CORE-TURN-1, CORE-END-1, CORE-TIME-1..3) that the project's
#: copy adds to the steering spec: numbered CORE- entries and their continuation lines
ENGINE_ENTRY = re.compile(r"^- CORE-[A-Z]+-\d+:.*\n(?:  .*\n)*", flags=re.M)
#: the project's rulings for automated play, recorded under the rule they extend
#: (continuation lines ``*(ruling, automated play: …)*``): the steering copy leaves
#: automated play to the project
AUTOMATED_RULING = re.compile(r"^  \*\(ruling, automated play: .*?\)\*\n", flags=re.M | re.S)
#: the rulings the book boxes under a rule (spec/relecture-journal.md): the entry's ID marked
#: ``*(ruling)*`` and a continuation line ``Ruling (the book's box): …`` quoting the box
BOX_RULING_LINE = re.compile(r"^  Ruling \(the book's box\): .*\n", flags=re.M)
#: the project's own ruling entries (the engine's safety bounds on repeated ties,
#: D12-INIT-6 and D20-INIT-2): ``- ID *(ruling: …)*:`` and continuation lines
RULING_ENTRY = re.compile(r"^- [A-Z0-9]+(?:-[A-Z0-9]+)+ \*\(ruling: .*\n(?:  .*\n)*", flags=re.M)
RULING_MARK = re.compile(r"^(- [A-Z0-9]+(?:-[A-Z0-9]+)+) \*\(ruling\)\*:", flags=re.M)


def without_project_additions(text: str) -> str:
    """RULES.md without what the project adds to the steering text: engine entries,
    automated-play rulings, its own ruling entries, the book's ruling boxes and the
    ruling marks on IDs."""
    text = AUTOMATED_RULING.sub("", ENGINE_ENTRY.sub("", RULING_ENTRY.sub("", text)))
    return RULING_MARK.sub(r"\1:", BOX_RULING_LINE.sub("", text))


def test_project_spec_matches_the_steering_copy() -> None:
    """spec/RULES.md is the steering spec, copied, plus the engine's own numbered rules
    (CORE-TURN-1, CORE-END-1, CORE-TIME-1..3) until the steering copy has them, and the
    project's rulings for automated play under the rules they extend, and the rulings
    the book boxes (marked on the ID, quoted under it): without those, the two are the
    same text, up to the steering copy's own ruling marks."""
    shared = ROOT.parent / "shared" / "spec" / "RULES.md"
    if not shared.is_file():
        pytest.skip("no steering copy next to the repository")
    ours = (ROOT / "spec" / "RULES.md").read_text(encoding="utf-8")
    steering = shared.read_text(encoding="utf-8")
    if ours == steering:  # the steering copy has them too
        return
    assert len(ENGINE_ENTRY.findall(ours)) == 5 and not ENGINE_ENTRY.findall(steering)
    assert len(RULING_ENTRY.findall(ours)) == 2 and not RULING_ENTRY.findall(steering)
    assert without_project_additions(ours) == RULING_MARK.sub(r"\1:", steering)
    # the marks are the project's only change to an entry's first line
    assert len(BOX_RULING_LINE.findall(ours)) == len(RULING_MARK.findall(ours)) - len(
        RULING_MARK.findall(steering))


def spec_entries(text: str) -> dict[str, str]:
    """RULES.md's rule entries (``- ID: …`` up to the next entry), by ID."""
    out: dict[str, str] = {}
    for chunk in re.split(rf"\n(?=- {ID})", text):
        m = re.match(rf"- ({ID})", chunk)
        if m:
            out[m.group(1)] = re.split(r"\n-{5,}|\n## ", chunk)[0]
    return out


def toc_files() -> list[str]:
    """The ``file:`` entries of ``_toc.yml`` (and its root), without suffix."""
    text = TOC.read_text(encoding="utf-8")
    files = re.findall(r"^\s*(?:-\s*)?(?:file|root):\s*(\S+)\s*$", text, flags=re.M)
    return [re.sub(r"\.(md|ipynb)$", "", f) for f in files]


def book_pages() -> dict[str, str]:
    """The text of every book page in the table of contents, by path (cells joined)."""
    pages: dict[str, str] = {}
    for name in toc_files():
        for suffix in (".md", ".ipynb"):
            path = ROOT / f"{name}{suffix}"
            if not path.is_file():
                continue
            if suffix == ".md":
                pages[name] = path.read_text(encoding="utf-8")
            else:
                nb = json.loads(path.read_text(encoding="utf-8"))
                pages[name] = "\n\n".join("".join(c["source"]) for c in nb["cells"])
    return pages


def rule_sections() -> dict[str, str]:
    """For each rule anchor ``(rb-init-2)=`` in the book: its text up to the next anchor."""
    sections: dict[str, str] = {}
    anchor = re.compile(rf"^\(({ID.lower()})\)=\s*$", flags=re.M)
    for text in book_pages().values():
        marks = list(anchor.finditer(text))
        for i, m in enumerate(marks):
            end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
            sections[m.group(1).upper()] = text[m.end():end]
    return sections


def test_snapshot_matches_rules_md() -> None:
    path = rules_md()
    if path is None:
        pytest.skip("RULES.md absent (spec/RULES.md, $ESCARMOUCHE_RULES)")
    entries = spec_entries(path.read_text(encoding="utf-8"))
    assert tuple(entries) == RULE_IDS, "mettre à jour RULE_IDS d’après RULES.md"
    # every built-in system has its rules there, each under its own prefix
    assert {rid.split("-", 1)[0] for rid in RULE_IDS} == set(SYSTEM_PREFIXES)
    flagged = tuple(
        rid for rid, body in entries.items()
        if re.search(r"\*\((?:ruling|option|facts?)\b|\((?:ruling|option)\b", body)
    )
    assert flagged == RULING_IDS, "mettre à jour RULING_IDS d’après RULES.md"
    original = tuple(rid for rid, body in entries.items() if "original edition" in body)
    assert original == ORIGINAL_EDITION_IDS


def test_every_rule_id_appears_in_the_book() -> None:
    text = "\n".join(book_pages().values())
    missing = [rid for rid in RULE_IDS if not re.search(rf"\b{re.escape(rid)}\b", text)]
    assert not missing, "identifiants de règle absents du livre : " + ", ".join(missing)


def test_every_rule_has_an_anchor_and_a_label() -> None:
    sections = rule_sections()
    missing = [rid for rid in RULE_IDS if rid not in sections]
    assert not missing, "règles sans ancre « (id)= » : " + ", ".join(missing)
    unlabelled = [rid for rid, body in sections.items()
                  if not body.lstrip().startswith(f"**{rid}**")]
    assert not unlabelled, "ancres non suivies de l’identifiant en gras : " + ", ".join(
        unlabelled)
    unknown = sorted(set(sections) - set(RULE_IDS))
    assert not unknown, "ancres de règles inconnues de RULES.md : " + ", ".join(unknown)


def test_every_ruling_has_its_admonition() -> None:
    sections = rule_sections()
    bare = [rid for rid in RULING_IDS
            if "{admonition} Interprétation retenue" not in sections.get(rid, "")]
    assert not bare, "interprétations sans encadré « Interprétation retenue » : " + ", ".join(
        bare)
    unmarked = [rid for rid in ORIGINAL_EDITION_IDS
                if "édition originale" not in sections.get(rid, "")]
    assert not unmarked, "faits de l’édition originale non signalés : " + ", ".join(unmarked)


@pytest.mark.parametrize("name", SYSTEMS)
def test_every_rules_option_is_named_in_the_book(name: str) -> None:
    try:
        module = importlib.import_module(f"escarmouche.systems.{name}")
    except ImportError:
        pytest.skip(f"escarmouche.systems.{name} n’existe pas encore")
    rules = getattr(module, "Rules", None)
    if rules is None or not dataclasses.is_dataclass(rules):
        pytest.skip(f"escarmouche.systems.{name}.Rules n’existe pas encore")
    text = "\n".join(t for page, t in book_pages().items() if page.startswith(f"book/{name}/"))
    # named by its French key (spec/relecture-journal.md: a reader never meets « Rules.x »)
    keys = {o.name: o.key for o in module.SYSTEM.options()}
    missing = [f.name for f in dataclasses.fields(rules) if f"`{keys[f.name]}`" not in text]
    assert not missing, f"options de {name}.Rules absentes de sa partie : " + ", ".join(missing)


def test_every_notebook_is_in_the_toc() -> None:
    listed = set(toc_files())
    notebooks = [
        p for p in BOOK.rglob("*.ipynb")
        if not any(part.startswith((".", "_")) for part in p.relative_to(ROOT).parts)
    ]
    orphans = sorted(str(p.relative_to(ROOT)) for p in notebooks
                     if str(p.relative_to(ROOT).with_suffix("")) not in listed)
    assert not orphans, "carnets absents de _toc.yml : " + ", ".join(orphans)

