"""Draft, publish and document an edition of the book (``make edition``).

Usage (from the repository root, with the project's virtualenv)::

    python tools/edition.py                # draft the next edition, refresh the notebooks,
                                           # rebuild the « Ce qui a changé » pages
    python tools/edition.py --sans-carnets # the same without refreshing the notebooks
    python tools/edition.py --publier      # freeze the draft: write editions/<n>/
    python tools/edition.py --publier --refaire  # rewrite the newest snapshot
    python tools/edition.py --depublier 2  # withdraw edition 2, the last published
    python tools/edition.py --pages        # only rebuild the « Ce qui a changé » pages
    python tools/edition.py --duels 50     # fewer simulated duels per rule set

The work is done by :mod:`tools.editions.workflow`; the command line
``escarmouche edition`` (:mod:`escarmouche.cli.edition`) drives it and prints what it
did, and this file runs that command on this checkout.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from escarmouche.cli import main as cli_main
from tools.editions.workflow import draft, publish, refresh_notebooks, withdraw

ROOT = Path(__file__).resolve().parents[1]

__all__ = ["ROOT", "draft", "main", "publish", "refresh_notebooks", "withdraw"]


def main(argv: Sequence[str] | None = None, root: Path = ROOT) -> int:
    """``escarmouche edition --depot root …`` with this script's arguments."""
    given = list(sys.argv[1:] if argv is None else argv)
    return cli_main(["edition", "--depot", str(root), *given])


if __name__ == "__main__":
    sys.exit(main())
