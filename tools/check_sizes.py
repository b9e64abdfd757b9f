"""No Python or JavaScript file over 800 lines: ``make lint`` runs this after ruff.

Every ``.py`` file under ``src``, ``widgets``, ``tools``, ``bench`` and ``tests`` is
counted (hidden folders and ``__pycache__`` aside), and every ``.js`` and ``.mjs`` file
of the project's own under ``book/_static``, ``book/_ext`` and ``tools`` (the bundled
``vendor`` files and ``node_modules`` aside). A file over :data:`LIMIT` lines
fails the check, with a French message naming it, its line count and the limit; the
exit code is then 1.

The files of :data:`PENDING` are over the limit and wait to be split: each may not grow
beyond its recorded length, and one back under the limit must leave the list (so the
list never outlives its reason).

    .venv/bin/python tools/check_sizes.py
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: the most lines a Python file may have
LIMIT = 800
#: the folders whose Python files are checked
FOLDERS = ("src", "widgets", "tools", "bench", "tests")
#: the folders whose JavaScript files are checked
JS_FOLDERS = ("book/_static", "book/_ext", "tools")
#: folders of JavaScript that is not the project's own (bundles, npm packages)
JS_SKIPPED = ("vendor", "node_modules")
#: files over the limit that wait to be split → their length when recorded, which they
#: may not exceed (empty: every file is within the limit)
PENDING: dict[str, int] = {}


def python_files(root: Path = ROOT) -> list[Path]:
    """The ``.py`` files of :data:`FOLDERS` under ``root``, sorted."""
    files: list[Path] = []
    for folder in FOLDERS:
        base = root / folder
        if not base.is_dir():
            continue
        for path in base.rglob("*.py"):
            parts = path.relative_to(root).parts
            if any(p.startswith(".") or p == "__pycache__" for p in parts[:-1]):
                continue
            files.append(path)
    return sorted(files)


def javascript_files(root: Path = ROOT) -> list[Path]:
    """The project's own ``.js`` and ``.mjs`` files of :data:`JS_FOLDERS` under ``root``,
    sorted."""
    files: list[Path] = []
    for folder in JS_FOLDERS:
        base = root / folder
        if not base.is_dir():
            continue
        for path in base.rglob("*"):
            parts = path.relative_to(root).parts
            if path.suffix not in (".js", ".mjs") or any(
                    p.startswith(".") or p in JS_SKIPPED for p in parts[:-1]):
                continue
            files.append(path)
    return sorted(files)


def line_count(path: Path) -> int:
    """The number of lines of ``path`` (as ``wc -l`` counts them, plus an unended last
    line)."""
    return len(path.read_text(encoding="utf-8").splitlines())


def _n(value: int) -> str:
    """An integer the French way: « 1 217 » (narrow no-break space)."""
    return f"{value:,}".replace(",", "\u202f")


def problems(files: Iterable[Path], root: Path = ROOT,
             pending: dict[str, int] | None = None) -> list[str]:
    """One French message per file over the limit (or per stale :data:`PENDING` entry)."""
    pending = PENDING if pending is None else pending
    found: list[str] = []
    seen: set[str] = set()
    for path in files:
        name = path.relative_to(root).as_posix()
        seen.add(name)
        count = line_count(path)
        cap = pending.get(name)
        if cap is None:
            if count > LIMIT:
                kind = "Python" if path.suffix == ".py" else "JavaScript"
                found.append(f"{name} : {_n(count)} lignes, au-delà de la limite de "
                             f"{_n(LIMIT)} lignes par fichier {kind} ; découpez-le")
        elif count > cap:
            found.append(f"{name} : {_n(count)} lignes ; en attente de découpage, il ne doit "
                         f"pas dépasser ses {_n(cap)} lignes (limite : {_n(LIMIT)} lignes)")
        elif count <= LIMIT:
            found.append(f"{name} : {_n(count)} lignes, dans la limite de {_n(LIMIT)} "
                         "lignes : retirez-le de PENDING dans tools/check_sizes.py")
    for name in sorted(set(pending) - seen):
        found.append(f"{name} : fichier introuvable ; retirez-le de PENDING dans "
                     "tools/check_sizes.py")
    return found


def main(root: Path = ROOT, pending: dict[str, int] | None = None) -> int:
    """Print the problems on stderr; 1 if there is any, else 0."""
    found = problems(python_files(root) + javascript_files(root), root, pending)
    for message in found:
        print(message, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
