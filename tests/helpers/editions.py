"""What the edition tests share: another value an option's declaration accepts, so that
a test changes a default without stating the default it assumes (tests follow editions:
a published change of default leaves them meaningful); the values tried for each option
(:func:`alternatives`); and a scratch repository with edition 1 and one default changed
per system (:func:`scratch_copy`, the fixture ``copy`` of
``tests/faces/editions/conftest.py``) with the edition tool (:func:`edition_tool`)."""

from __future__ import annotations

import dataclasses
import functools
import importlib.util
import json
import shutil
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from escarmouche import systems
from escarmouche.errors import EscarmoucheError
from escarmouche.systems.d100.rules import get_weapon
from tests.helpers import ROOT

__all__ = ["CHANGED", "NEW_OUTPUT", "NOT_MEASURED", "OLD_OUTPUT", "alternatives",
           "edition_1_rules", "edition_tool", "load_tool", "notebook", "other_value",
           "published_rules", "review_all", "same_d100_weapon", "scratch_copy",
           "write_words"]


def other_value(option: Any, value: object) -> object:
    """A value other than ``value`` that ``option`` accepts
    (:func:`escarmouche.options.another_value`)."""
    from escarmouche.options import another_value

    return another_value(option, value)


def write_words(path: Path, summary: str = "Une édition relue par son concepteur.") -> None:
    """The designer's words in the draft ``path``: a summary, and a text of their own
    for each change whose text the drafting tool wrote (publishing refuses placeholders)."""
    from escarmouche.editions.data import SUMMARY_PLACEHOLDER, edition_to_toml, load_edition
    from tools.editions.check import generated_text

    edition = load_edition(path)
    changes = tuple(dataclasses.replace(c, text=f"{c.text} Relu par le concepteur.")
                    if generated_text(c) else c for c in edition.changes)
    written = summary if edition.summary == SUMMARY_PLACEHOLDER else edition.summary
    path.write_text(edition_to_toml(dataclasses.replace(edition, summary=written,
                                                        changes=changes)),
                    encoding="utf-8")


def review_all(root: Path, number: int = 2) -> list[str]:
    """Mark every example « à relire » of edition ``number`` as read in its file (the
    designer's answer when the example's text stays right); the cells marked."""
    from escarmouche.editions.data import edition_to_toml, load_edition
    from tools.editions.workflow import book_reviews

    path = root / "editions" / f"{number}.toml"
    edition = load_edition(path)
    cells = [r.cell for r in book_reviews(root, edition)]
    path.write_text(edition_to_toml(dataclasses.replace(
        edition, reviewed=edition.reviewed + tuple(cells))), encoding="utf-8")
    return cells


def published_rules(system: str, root: Path | None = None) -> Any:
    """The ``Rules`` of ``system`` in the last published edition (``editions/<n>/``): a
    baseline pinned to the book, whatever the engine's defaults are today (equal to them
    until a designer drafts the next edition)."""
    from escarmouche.editions.page import rules_from_snapshot
    from escarmouche.editions.repo import last_published, snapshot

    where = root or ROOT
    snap = snapshot(where, last_published(where))
    assert snap is not None, "aucune édition publiée"
    return rules_from_snapshot(system, snap.rules.get(system, {}))


# -- what is tried (tests/faces/editions/test_measured.py, test_situations.py) --

#: options with no value to try, and why no standard situation can show them
NOT_MEASURED = {
    ("rulebook", "extra_traits"): "traits accepted *without effect* (RB-SPEED-1): by "
    "definition no roll or order depends on them",
    ("d12", "actions"): "the catalogue of actions (D12-ACT-1): names, costs and "
    "parameters, not a number in any roll",
}

#: options whose values are dice expressions: another weapon to try
WEAPONS = {("d12", "default_weapon"): "1d8", ("d20", "default_weapon"): "1d8"}


def same_d100_weapon(a: str, b: str) -> bool:
    """Two catalogue weapons the engine plays alike: only their id and name differ."""
    wa, wb = get_weapon(a), get_weapon(b)
    return dataclasses.replace(wa, id=wb.id, label=wb.label) == wb


def alternatives(system: str, option: Any, value: object) -> list[object]:
    """Every other value to try: the flipped flag, both neighbours of a number, a few
    caps for an optional number, every other choice, another weapon."""
    if (system, option.name) in WEAPONS:
        return [WEAPONS[system, option.name]]
    if isinstance(value, bool):
        return [not value]
    if value is None or isinstance(value, int):
        tries = (1, 3) if value is None else (value - 1, value + 1)
        out: list[object] = []
        for v in tries:
            try:
                option.check_value(v)
            except EscarmoucheError:
                continue
            out.append(v)
        return out
    if (system, option.name) == ("d100", "default_weapon"):
        return [c for c in option.choices or () if not same_d100_weapon(str(c), str(value))]
    return [c for c in option.choices or () if c != value]


# -- a scratch repository and the edition tool (test_editions, test_door, test_publish)

def load_tool(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@functools.cache
def edition_tool() -> ModuleType:
    """``tools/edition.py``, loaded once."""
    return load_tool("edition_tool", ROOT / "tools" / "edition.py")


#: one default changed per system (the scripted second edition)
CHANGED: dict[str, tuple[str, Any]] = {
    "rulebook": ("crit_success_max", 10),
    "d100": ("off_hand_modifier", -10),
    "d12": ("critical_option", "explosif"),
    "d20": ("save_target", 12),
}
OLD_OUTPUT = "Test D100\n\nRéussite critique : 5,0 %"
NEW_OUTPUT = "Test D100\n\nRéussite critique : 10,0 %"


def notebook(text: str) -> dict[str, Any]:
    return {"cells": [{"cell_type": "code", "metadata": {}, "source": "x", "outputs": [
        {"output_type": "stream", "name": "stdout", "text": text + "\n"}],
        "execution_count": 1, "id": "c000"}], "metadata": {}, "nbformat": 4,
        "nbformat_minor": 5}


def scratch_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary repository: edition 1 and its snapshot (with one stored book example),
    spec/RULES.md, a one-cell book whose output changed, and engine defaults with one
    option changed per system."""
    from tools.editions.book import book_facts, book_rule_texts

    (tmp_path / "editions" / "1").mkdir(parents=True)
    shutil.copy(ROOT / "editions" / "1.toml", tmp_path / "editions" / "1.toml")
    for name in ("rules.json", "rules-text.json"):
        shutil.copy(ROOT / "editions" / "1" / name, tmp_path / "editions" / "1" / name)
    (tmp_path / "editions" / "1" / "outputs.json").write_text(
        json.dumps({"exemple#1": OLD_OUTPUT, "autre#1": "inchangé"}), encoding="utf-8")
    (tmp_path / "spec").mkdir()
    shutil.copy(ROOT / "spec" / "RULES.md", tmp_path / "spec" / "RULES.md")
    # the rules as the book states them (their French text is in the snapshot)
    shutil.copytree(ROOT / "book_src", tmp_path / "book_src",
                    ignore=shutil.ignore_patterns("*.ipynb"))
    shutil.copytree(ROOT / "book", tmp_path / "book",
                    ignore=lambda folder, names: [n for n in names if not (
                        n.endswith(".md") or n == "escarmouche_facts.py"
                        or (Path(folder) / n).is_dir()) or n in ("editions", "_static")])
    (tmp_path / "book" / "exemple.ipynb").write_text(json.dumps(notebook(NEW_OUTPUT)),
                                                    encoding="utf-8")
    (tmp_path / "book" / "autre.ipynb").write_text(json.dumps(notebook("inchangé")),
                                                  encoding="utf-8")
    # the baseline is one edition, snapshot and book sources alike: the rule texts of
    # the copied sources as they read under edition 1's rules (a rule the book added
    # since, such as a later ruling, is then not a change of this scripted edition)
    for name in systems.NAMES:
        monkeypatch.setattr(systems.get(name), "default_rules",
                            functools.partial(edition_1_rules, name, {}))
    (tmp_path / "editions" / "1" / "rules-text.json").write_text(json.dumps(
        book_rule_texts(tmp_path, book_facts(tmp_path)), ensure_ascii=False, indent=1)
        + "\n", encoding="utf-8")
    # the engine of this repository: edition 1's rules with one change per system (not
    # the engine's defaults now, which a later edition may have changed)
    for name in systems.NAMES:
        changed = dict([CHANGED[name]]) if name in CHANGED else {}
        rules = edition_1_rules(name, changed)
        monkeypatch.setattr(systems.get(name), "default_rules", lambda rules=rules: rules)
    return tmp_path


def edition_1_rules(name: str, options: dict[str, Any]) -> Any:
    """Edition 1's rules of ``name`` (its snapshot) with ``options`` changed."""
    frozen = json.loads((ROOT / "editions" / "1" / "rules.json").read_text(encoding="utf-8"))
    return systems.get(name).rules_from_json({**frozen[name], **options})
