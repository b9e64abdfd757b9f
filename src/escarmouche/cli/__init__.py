"""The ``escarmouche`` command line (French): ``escarmouche <sous-commande> …``.

Each subcommand is one module of this package with two functions:
``add_parser(subparsers)`` (its arguments, French help) and ``run(args) -> int`` (its
work; the exit code). To add one, write ``cli/<nom>.py`` and list it in
:data:`SUBCOMMANDS`.

Exit codes: 0 done; 1 refused input (a roster file, a dice expression, a rule: the
French message of an :class:`~escarmouche.errors.EscarmoucheError`, on stderr);
2 wrong usage (unknown option, missing argument: argparse's message, in French).

>>> main(["cotes", "1d6", "--au-moins", "5"])
Chances exactes de 1d6
Total | Chance | Fraction
1 | 16,7 % | 1/6
2 | 16,7 % | 1/6
3 | 16,7 % | 1/6
4 | 16,7 % | 1/6
5 | 16,7 % | 1/6
6 | 16,7 % | 1/6
Moyenne : 3,5 ; minimum : 1 ; maximum : 6.
Au moins 5 : 33,3 % (1/3).
0
"""

from __future__ import annotations

import contextlib
import importlib
import io
import sys
import warnings
from collections.abc import Iterator, Sequence
from typing import Any

from escarmouche.cli.french import NBSP, FrenchParser, french_argparse
from escarmouche.errors import EscarmoucheError, OldNameWarning, os_reason

__all__ = ["SUBCOMMANDS", "build_parser", "main"]

#: the subcommand modules of ``escarmouche.cli``, in the order of the help
SUBCOMMANDS: list[str] = ["cotes", "combat", "simule", "compare", "edition"]

DESCRIPTION = """\
Escarmouche : probabilités exactes et combats automatiques des quatre systèmes
de combat (rulebook, d100, d12, d20).

Codes de sortie : 0 réussite ; 1 entrée refusée (fichier, dés, règle) ; 2 mauvais usage."""


class _Typeset(io.TextIOBase):
    """A text stream that writes through another one, each piece typeset
    (:func:`escarmouche.text.typo.typographie`; JSON output never goes through it)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        from escarmouche.text.typo import typographie

        self._stream.write(typographie(text))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def fileno(self) -> int:
        return int(self._stream.fileno())


@contextlib.contextmanager
def _notes() -> Iterator[None]:
    """An old name read (:class:`~escarmouche.errors.OldNameWarning`: an option value or
    a file key renamed in French) is said on stderr as « escarmouche : note : … », once
    per place, never as a Python warning."""
    with warnings.catch_warnings():
        shown = warnings.showwarning

        def show(message: Warning | str, category: type[Warning], filename: str,
                 lineno: int, file: Any = None, line: str | None = None) -> None:
            if not issubclass(category, OldNameWarning):
                shown(message, category, filename, lineno, file, line)
                return
            from escarmouche.text.typo import typographie

            print(f"escarmouche{NBSP}: note{NBSP}: {typographie(str(message))}",
                  file=sys.stderr)

        warnings.showwarning = show
        warnings.simplefilter("default", OldNameWarning)
        yield


def build_parser() -> FrenchParser:
    """The parser of every subcommand (call inside :func:`french_argparse`)."""
    parser = FrenchParser(prog="escarmouche", description=DESCRIPTION)
    subparsers = parser.add_subparsers(title="sous-commandes", dest="commande",
                                       metavar="SOUS-COMMANDE", parser_class=FrenchParser)
    subparsers.required = True
    for name in SUBCOMMANDS:
        module = importlib.import_module(f"escarmouche.cli.{name}")
        sub = module.add_parser(subparsers)
        sub.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (see the module docstring)."""
    with french_argparse(), _notes():
        parser = build_parser()
        try:
            args = parser.parse_args(argv)
            if getattr(args, "json", False):
                code: Any = args._run(args)
            else:
                # every line a reader sees, French typography by the project's one function
                with contextlib.redirect_stdout(_Typeset(sys.stdout)):
                    code = args._run(args)
        except SystemExit as done:
            return int(done.code or 0)
        except EscarmoucheError as err:
            print(f"escarmouche{NBSP}: erreur{NBSP}: {err}", file=sys.stderr)
            return 1
        except BrokenPipeError:
            # the reader went away (``escarmouche … | head``): stop quietly
            import os

            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
        except OSError as err:
            # any other file the system refused: its reason in French, never its English
            where = f"« {err.filename} »{NBSP}: " if err.filename else ""
            print(f"escarmouche{NBSP}: erreur{NBSP}: {where}{os_reason(err)} (CORE-ERR)",
                  file=sys.stderr)
            return 1
        except KeyboardInterrupt:
            print(f"escarmouche{NBSP}: interrompu", file=sys.stderr)
            return 130
    return int(code or 0)
