"""The maintenance tools' command lines in French (``make refresh``, ``make serve``,
``make revision``…): the engine's French argparse (:mod:`escarmouche.cli._french`), so
that ``--aide`` and every error read as the ``escarmouche`` command's do.

>>> parser = french_parser("Construit le livre.")
>>> parser.add_argument("--processus", type=int, choices=range(1, 9)) and None
>>> try:
...     parse(parser, ["--processus", "12"])
... except SystemExit as stop:
...     stop.code
2
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from escarmouche.cli._french import FrenchParser, french_argparse

__all__ = ["french_parser", "parse"]


def french_parser(description: str, prog: str | None = None) -> FrenchParser:
    """A parser whose help (``-h``, ``--aide``), usage and errors are French."""
    return FrenchParser(description=description, prog=prog)


def parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """``parser.parse_args(argv)`` with argparse's own texts in French."""
    with french_argparse():
        return parser.parse_args(argv)
