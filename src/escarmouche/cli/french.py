"""French argparse: every message argparse prints (usage, section titles, ``-h``, errors)
in French, with French typography (a no-break space before « : »).

argparse takes its texts from ``gettext``; :func:`french_argparse` swaps its two
translation functions for the duration of a command (restored afterwards, so a host
process using argparse, such as pytest, keeps its own language).
"""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
from collections.abc import Iterator, Sequence
from typing import Any, NoReturn

from escarmouche.text.typo import typographie

__all__ = ["FRENCH", "NBSP", "FrenchParser", "french_argparse", "integer", "parse_args", "text",
           "typography"]

NBSP = "\u00a0"

#: argparse's English texts (Python 3.11 … 3.13) and their French versions
FRENCH: dict[str, str] = {
    "usage: ": f"utilisation{NBSP}: ",
    "positional arguments": "arguments",
    "options": "options",
    "optional arguments": "options",
    "show this help message and exit": "affiche cette aide et s’arrête",
    "show program's version number and exit": "affiche la version et s’arrête",
    "%(prog)s: error: %(message)s\n": f"%(prog)s{NBSP}: erreur{NBSP}: %(message)s\n",
    "argument %(argument_name)s: %(message)s": f"argument %(argument_name)s{NBSP}: %(message)s",
    "invalid choice: %(value)r (choose from %(choices)s)":
        f"choix invalide{NBSP}: %(value)r (choix possibles{NBSP}: %(choices)s)",
    "invalid %(type)s value: %(value)r": f"valeur invalide ({NBSP}%(type)s{NBSP}){NBSP}: %(value)r",
    "the following arguments are required: %s": f"arguments obligatoires manquants{NBSP}: %s",
    "unrecognized arguments: %s": f"arguments inconnus{NBSP}: %s",
    "expected one argument": "une valeur est attendue",
    "expected at most one argument": "au plus une valeur est attendue",
    "expected at least one argument": "au moins une valeur est attendue",
    "expected %s argument": "%s valeur attendue",
    "expected %s arguments": "%s valeurs attendues",
    "not allowed with argument %s": "incompatible avec l’argument %s",
    "ignored explicit argument %r": "valeur ignorée %r",
    "ambiguous option: %(option)s could match %(matches)s":
        f"option ambiguë{NBSP}: %(option)s peut désigner %(matches)s",
    "one of the arguments %s is required": f"un de ces arguments est obligatoire{NBSP}: %s",
    "unexpected option string: %s": f"option inattendue{NBSP}: %s",
    "unknown parser %(parser_name)r (choices: %(choices)s)":
        f"sous-commande inconnue %(parser_name)r (choix{NBSP}: %(choices)s)",
    "can't open '%(filename)s': %(error)s":
        f"impossible d’ouvrir « %(filename)s »{NBSP}: %(error)s",
}
# the invalid-type message: no spaces inside the parentheses
FRENCH["invalid %(type)s value: %(value)r"] = f"valeur invalide (%(type)s){NBSP}: %(value)r"


def _gettext(message: str) -> str:
    return FRENCH.get(message, message)


def _ngettext(singular: str, plural: str, n: int) -> str:
    return _gettext(singular if n == 1 else plural)


@contextlib.contextmanager
def french_argparse() -> Iterator[None]:
    """argparse speaks French inside this block."""
    saved = (argparse._, argparse.ngettext)  # type: ignore[attr-defined]
    argparse._ = _gettext  # type: ignore[attr-defined]
    argparse.ngettext = _ngettext  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]


def _quotes(message: str) -> str:
    """Python reprs ('x') become French quotes (« x »)."""
    return re.sub(r"'([^']*)'", f"«{NBSP}\\1{NBSP}»", message)


def typography(text: str) -> str:
    """French spacing, by the one function of the project
    (:func:`escarmouche.text.typo.typographie`): a no-break space before « : », a
    narrow one before ; ! ?.

    >>> typography("Exemples : 2d6 ; 1d20 ?") == "Exemples\u00a0: 2d6\u202f; 1d20\u202f?"
    True
    """
    return typographie(text)


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Help laid out as written (French paragraphs and examples)."""


class FrenchParser(argparse.ArgumentParser):
    """An :class:`argparse.ArgumentParser` whose errors are French (exit code 2)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        kwargs["add_help"] = False
        super().__init__(*args, **kwargs)
        self.add_argument("-h", "--aide", action="help", default=argparse.SUPPRESS,
                          help="affiche cette aide et s’arrête")
        # the usual English spelling still works, unlisted
        self.add_argument("--help", action="help", default=argparse.SUPPRESS,
                          help=argparse.SUPPRESS)

    def format_help(self) -> str:
        return typography(super().format_help())

    def format_usage(self) -> str:
        return typography(super().format_usage())

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, typography(f"{self.prog}{NBSP}: erreur{NBSP}: {_quotes(message)}\n"))


def parse_args(parser: argparse.ArgumentParser,
               argv: Sequence[str] | None = None) -> argparse.Namespace:
    """``parser.parse_args(argv)`` with argparse's own texts in French: for a command
    that is not a subcommand of ``escarmouche`` (the maintenance tools in ``tools/``).

    >>> parser = FrenchParser(description="Construit le livre.")
    >>> parser.add_argument("--processus", type=int, choices=range(1, 9)) and None
    >>> try:
    ...     parse_args(parser, ["--processus", "12"])
    ... except SystemExit as stop:
    ...     stop.code
    2
    """
    with french_argparse():
        return parser.parse_args(argv)


def integer(text_value: str) -> int:
    """An integer argument (its name appears in French in argparse's error)."""
    return int(text_value)


integer.__name__ = "nombre entier attendu"


def text(text_value: str) -> str:
    return text_value


text.__name__ = "texte"
