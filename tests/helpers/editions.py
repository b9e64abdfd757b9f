"""What the edition tests share: another value an option's declaration accepts, so that
a test changes a default without stating the default it assumes (tests follow editions:
a published change of default leaves them meaningful)."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from tests.helpers import ROOT

__all__ = ["other_value", "published_rules", "review_all", "write_words"]


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
