"""Build the book's notebooks from their jupytext MyST twins (``book_src`` → ``book``).

The twins under ``book_src/`` are the reviewable source of every book page that holds
code: ``book_src/d100/attaque.md`` becomes ``book/d100/attaque.ipynb``. They live in
another folder on purpose: a twin next to its notebook would make Sphinx find two
files for one page (BROWSER.md).

Usage (from the repository root, with the project's virtualenv)::

    python tools/book_notebooks.py              # convert and execute every twin
    python tools/book_notebooks.py d100/attaque  # only these pages
    python tools/book_notebooks.py --check      # twins and notebooks agree? (no kernel)

Executing stores the outputs in the notebook; ``pytest --nbval book`` later re-executes
them and compares, so the page a reader sees is what the engine produces now. The
notebook is written deterministically: fixed cell ids, no timings, no jupytext metadata,
so that re-running on an unchanged engine changes no byte.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jupytext  # type: ignore[import-untyped]  # jupytext ships no type information
import nbformat

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "book_src"
BOOK = ROOT / "book"
sys.path.insert(0, str(ROOT / "tools"))

#: ``tools/refresh_notebooks.py`` (the sibling tool of ``make refresh``): executes a
#: notebook in place, deterministically; returns whether the file changed.
refresh: Callable[[Path], bool] = importlib.import_module("refresh_notebooks").refresh

# nbformat's functions carry no annotations: typed aliases for mypy --strict.
nb_read: Callable[..., Any] = nbformat.read
nb_writes: Callable[..., str] = nbformat.writes

#: the kernelspec that ``tools/refresh_notebooks.py`` writes, so that both tools agree
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


def twins(pages: list[str] | None = None) -> list[Path]:
    """The twins to handle: all of ``book_src/**/*.md``, or those named (``d100/attaque``)."""
    if not pages:
        return sorted(SRC.rglob("*.md"))
    out = []
    for page in pages:
        name = page.removesuffix(".md").removesuffix(".ipynb")
        name = name.removeprefix("book_src/").removeprefix("book/")
        path = SRC / f"{name}.md"
        if not path.is_file():
            raise SystemExit(f"book_notebooks : pas de jumeau {path.relative_to(ROOT)}")
        out.append(path)
    return out


def target(twin: Path) -> Path:
    """The notebook built from ``twin``."""
    return (BOOK / twin.relative_to(SRC)).with_suffix(".ipynb")


def convert(twin: Path) -> Any:
    """Read a twin as a clean notebook: fixed cell ids, only the kernelspec kept."""
    nb = jupytext.read(twin, fmt="md:myst")
    nb.metadata = {"kernelspec": dict(KERNELSPEC), "language_info": {"name": "python"}}
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"c{i:03d}"
        tags = cell.get("metadata", {}).get("tags")
        cell["metadata"] = {"tags": list(tags)} if tags else {}
    return nb


def shape(nb: Any) -> list[tuple[str, str, list[str]]]:
    """What a twin decides of a notebook: each cell's type, source and tags."""
    return [(c.cell_type, c.source, list(c.get("metadata", {}).get("tags", [])))
            for c in nb.cells]


def check(paths: list[Path]) -> list[str]:
    """The problems found: a twin without notebook, or a notebook that drifted."""
    problems = []
    for twin in paths:
        out = target(twin)
        if not out.is_file():
            problems.append(f"{out.relative_to(ROOT)} manque (jumeau {twin.relative_to(ROOT)})")
            continue
        if shape(convert(twin)) != shape(nb_read(out, as_version=4)):
            problems.append(
                f"{out.relative_to(ROOT)} ne correspond plus à {twin.relative_to(ROOT)} : "
                "lancez python tools/book_notebooks.py"
            )
    return problems


def build(twin: Path) -> bool:
    """Write the twin's notebook when its cells changed, then execute it in place."""
    out = target(twin)
    nb = convert(twin)
    changed = False
    if not out.is_file() or shape(nb_read(out, as_version=4)) != shape(nb):
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(nb_writes(nb) + "\n", encoding="utf-8")
        changed = True
    return refresh(out) or changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("pages", nargs="*", help="pages, e.g. d100/attaque (default: all)")
    parser.add_argument("--check", action="store_true", help="compare only, run nothing")
    args = parser.parse_args(argv)
    paths = twins(args.pages)
    if args.check:
        problems = check(paths)
        for p in problems:
            print(p)
        return 1 if problems else 0
    for twin in paths:
        state = "mis à jour" if build(twin) else "inchangé"
        print(f"{target(twin).relative_to(ROOT)} : {state}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
