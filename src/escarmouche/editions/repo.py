"""The editions of a repository checkout: the edition files ``editions/<n>.toml``, the
published snapshots ``editions/<n>/`` and the generated pages
``book/editions/edition-<n>.md`` (used by ``tools/edition.py`` and the book's
``escarmouche_editions`` extension).

A folder without editions has none, and nothing published:

>>> from pathlib import Path
>>> edition_files(Path("/nonexistent")), last_published(Path("/nonexistent"))
({}, 0)
"""

from __future__ import annotations

import re
from pathlib import Path

from escarmouche.editions.data import Edition, Snapshot, load_edition, take_snapshot
from escarmouche.editions.page import DUELS, page_name, render_page, render_span, span_name
from escarmouche.editions.sheets import errata_name, errata_page, journal_page

__all__ = ["build_pages", "edition_files", "last_published", "load_all", "ruling_texts",
           "snapshot"]

_ANCHOR = re.compile(r"^\(([a-z][a-z0-9]*(?:-[a-z0-9]+)+)\)=\s*$", flags=re.M)
_ADMONITION = re.compile(
    r"^(`{3,}|:{3,})\{admonition\} Interprétation retenue([^\n]*)\n(.*?)^\1\s*$",
    flags=re.M | re.S)


def edition_files(root: Path) -> dict[int, Path]:
    """Every edition file of ``root/editions``, by number."""
    return {int(p.stem): p for p in sorted((root / "editions").glob("*.toml"))
            if p.stem.isdigit()}


def load_all(root: Path) -> dict[int, Edition]:
    """Every edition of ``root``, checked, by number."""
    return {n: load_edition(p) for n, p in sorted(edition_files(root).items())}


def last_published(root: Path) -> int:
    """The highest edition number with a snapshot folder (0 when there is none)."""
    folder = root / "editions"
    if not folder.is_dir():
        return 0
    done = [int(p.name) for p in folder.iterdir()
            if p.is_dir() and p.name.isdigit() and (p / "rules.json").exists()]
    return max(done, default=0)


def snapshot(root: Path, number: int) -> Snapshot | None:
    """The published snapshot of edition ``number``, ``None`` if it has none yet."""
    folder = root / "editions" / str(number)
    return Snapshot.read(folder) if (folder / "rules.json").exists() else None


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


def ruling_texts(root: Path) -> dict[str, str]:
    """The French text of each « Interprétation retenue » box of the book sources
    (``book_src/**.md`` and ``book/**.md``), by the rule ID of the anchor it follows
    (``(rb-d100-1)=``); the box's options (``:class:``) are left out."""
    out: dict[str, str] = {}
    files = sorted((root / "book_src").rglob("*.md")) + sorted((root / "book").rglob("*.md"))
    for path in files:
        text = path.read_text(encoding="utf-8")
        anchors = list(_ANCHOR.finditer(text))
        for i, m in enumerate(anchors):
            end = anchors[i + 1].start() if i + 1 < len(anchors) else len(text)
            # every box of the rule, in order (D12-CRIT-2 has three): an edition
            # declares every ruling the book boxes, not only the first (spec/relecture-journal.md)
            boxes = list(_ADMONITION.finditer(text, m.end(), end))
            if not boxes:
                continue
            bodies = []
            for box in boxes:
                body = "\n".join(line for line in box.group(3).splitlines()
                                  if not line.startswith(":")).strip()
                subject = box.group(2).strip(" —-")
                if len(boxes) > 1 and subject:
                    body = f"**{subject[:1].upper()}{subject[1:]}.** {body}"
                bodies.append(body)
            out.setdefault(m.group(1).upper(),
                           _absolute_docs("\n\n".join(bodies), _docname(root, path)))
    return out


def _docname(root: Path, path: Path) -> str:
    """``book_src/d100/actions.md`` and ``book/d100/actions.md`` → ``book/d100/actions``."""
    rel = path.relative_to(root).with_suffix("").as_posix()
    return "book/" + rel.split("/", 1)[1]


def _absolute_docs(text: str, docname: str) -> str:
    """Relative ``{doc}`` targets made absolute, so that the text reads the same on any
    page (``{doc}`sauts``` on ``book/d100/actions`` → ``{doc}`/book/d100/sauts```)."""
    import posixpath

    folder = posixpath.dirname(docname)

    def fix(m: re.Match[str]) -> str:
        label, target = m.group(2), m.group(3)
        if target.startswith("/"):
            return m.group(0)
        full = "/" + posixpath.normpath(posixpath.join(folder, target))
        return f"{{doc}}`{label} <{full}>`" if label else f"{{doc}}`{full}`"

    return re.sub(r"\{doc\}`((.*?)\s*)?<?([^<>`]+)>?`", lambda m: fix(m), text)
