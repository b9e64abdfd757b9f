"""The « Ce qui a changé » pages of a repository checkout, rewritten: one page per
edition (:func:`~escarmouche.editions.page.render_page`), one per span of published
editions, the printable errata sheets and the journal (:mod:`tools.editions.sheets`),
in ``book/editions/``. ``escarmouche edition`` and the book's ``escarmouche_editions``
extension call :func:`build_pages`.
"""

from __future__ import annotations

from pathlib import Path

from escarmouche.editions.data import Snapshot
from escarmouche.editions.page import DUELS, page_name, render_page, render_span, span_name
from escarmouche.editions.repo import load_all, snapshot
from tools.editions.book import take_snapshot
from tools.editions.sheets import errata_name, errata_page, journal_page

__all__ = ["build_pages"]


def build_pages(root: Path, *, duels: int = DUELS, current: Snapshot | None = None
                ) -> list[Path]:
    """Rewrite ``book/editions/edition-<n>.md`` (« Ce qui a changé ») and
    ``errata-<n>.md`` (the printable errata sheet) of every edition, only the files whose
    text changed; return those. An edition without a snapshot (a draft) is compared
    with ``current`` (default: the engine, ``spec/RULES.md`` and ``book/`` now)."""
    out_dir = root / "book" / "editions"
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    editions = load_all(root)
    published = [n for n in editions if snapshot(root, n) is not None]
    journal = out_dir / "journal.md"
    archived = [n for n in published if (root / "editions" / str(n) /
                                         f"escarmouche-edition-{n}.pdf").is_file()]
    text = journal_page(editions, published, archived)
    if not journal.exists() or journal.read_text(encoding="utf-8") != text:
        journal.write_text(text, encoding="utf-8")
        written.append(journal)
    # every pair of published editions that are not neighbours: « entre A et B »
    for first in published:
        for last in published:
            if last <= first + 1:
                continue
            spanned = [editions[k] for k in range(first + 1, last + 1) if k in editions]
            before, after = snapshot(root, first), snapshot(root, last)
            assert before is not None and after is not None
            content = render_span(first, spanned, before, after, duels=duels)
            target = out_dir / f"{span_name(first, last)}.md"
            if not target.exists() or target.read_text(encoding="utf-8") != content:
                target.write_text(content, encoding="utf-8")
                written.append(target)
    for number, edition in editions.items():
        before = snapshot(root, number - 1) if number > 1 else None
        after = snapshot(root, number) or current or take_snapshot(root)
        text = render_page(edition, before, after, duels=duels)
        sheet = errata_page(edition, published=snapshot(root, number) is not None,
                            texts=after.texts)
        for name, content in ((page_name(number), text), (errata_name(number), sheet)):
            target = out_dir / f"{name}.md"
            if not target.exists() or target.read_text(encoding="utf-8") != content:
                target.write_text(content, encoding="utf-8")
                written.append(target)
    return written
