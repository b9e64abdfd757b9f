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

from pathlib import Path

from escarmouche.editions.data import Edition, Snapshot, load_edition, take_snapshot
from escarmouche.editions.page import DUELS, page_name, render_page

__all__ = ["build_pages", "edition_files", "last_published", "load_all", "snapshot"]


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
    """Rewrite ``book/editions/edition-<n>.md`` of every edition, only the files whose
    text changed; return those. An edition without a snapshot (a draft) is compared
    with ``current`` (default: the engine, ``spec/RULES.md`` and ``book/`` now)."""
    out_dir = root / "book" / "editions"
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for number, edition in load_all(root).items():
        before = snapshot(root, number - 1) if number > 1 else None
        after = snapshot(root, number) or current or take_snapshot(root)
        text = render_page(edition, before, after, duels=duels)
        target = out_dir / f"{page_name(number)}.md"
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            target.write_text(text, encoding="utf-8")
            written.append(target)
    return written
