"""The editions of a repository checkout: the edition files ``editions/<n>.toml`` and
the published snapshots ``editions/<n>/`` (read by the command line's ``--edition N``, the
edition tooling ``tools/editions/`` and the book's ``escarmouche_editions``
extension). Writing the generated pages ``book/editions/*.md`` is the tooling's
(``tools/editions/pages.py``).

A folder without editions has none, and nothing published:

>>> from pathlib import Path
>>> edition_files(Path("/nonexistent")), last_published(Path("/nonexistent"))
({}, 0)
"""

from __future__ import annotations

from pathlib import Path

from escarmouche.editions.data import Edition, Snapshot, load_edition

__all__ = ["edition_files", "last_published", "load_all", "snapshot"]


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
