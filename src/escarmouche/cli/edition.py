"""``escarmouche edition``: draft, publish and document an edition of the book (what
``make edition`` runs; the designer's workflow is in the book's « Pour les
concepteurs »). It works on a checkout of the book (``--depot``, default: here), with
the checkout's tooling (:mod:`tools.editions.command`, not in the installable package:
from an installed wheel, outside a checkout, the command says so in French, exit code
1); a folder without ``editions/`` is a usage error (exit code 2):

>>> import tempfile
>>> from escarmouche.cli import main
>>> with tempfile.TemporaryDirectory() as folder:
...     main(["edition", "--depot", folder, "--pages"])
2
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from escarmouche.cli.french import integer
from escarmouche.text.fmt import quote

__all__ = ["add_parser", "run"]

HELP = "prépare, publie et documente une édition du livre (make edition)"
DESCRIPTION = """\
Sans option : réexécute les carnets du livre, rédige le brouillon de l’édition
suivante (editions/<n+1>.toml) à partir de ce qui a changé depuis la dernière
édition publiée (valeurs par défaut des options, énoncés des règles), puis
reconstruit les pages « Ce qui a changé ». Relisez le brouillon, écrivez le texte
de chaque changement, puis publiez-le avec --publier.

Exemples :
  escarmouche edition --depot ~/escarmouche
  escarmouche edition --sans-carnets
  escarmouche edition --publier
  escarmouche edition --depublier 2"""


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    from escarmouche.editions.page import DUELS

    p: argparse.ArgumentParser = subparsers.add_parser(
        "edition", help=HELP, description=DESCRIPTION)
    p.add_argument("--depot", default=".", metavar="DOSSIER",
                   help="le dépôt du livre, qui contient editions/ et book/ (défaut : ici)")
    p.add_argument("--publier", action="store_true",
                   help="fige l’édition la plus récente (editions/<n>/)")
    p.add_argument("--refaire", action="store_true",
                   help="avec --publier : réécrit l’instantané d’une édition déjà publiée")
    p.add_argument("--depublier", type=integer, metavar="N",
                   help="retire la publication de l’édition N, la dernière publiée : "
                        "son instantané est effacé, sa fiche redevient un brouillon et "
                        "ses pages sont refaites")
    p.add_argument("--sans-pdf", action="store_true",
                   help="avec --publier : ne construit pas le PDF de l’édition précédente "
                        "quand il manque (il n’est alors pas archivé)")
    p.add_argument("--pages", action="store_true",
                   help="reconstruit seulement les pages « Ce qui a changé »")
    p.add_argument("--sans-carnets", action="store_true",
                   help="ne réexécute pas les carnets du livre")
    p.add_argument("--duels", type=integer, default=DUELS, metavar="N",
                   help=f"duels simulés par jeu de règles (défaut : {DUELS})")
    p.set_defaults(_parser=p)
    return p


#: the module of a book checkout that does the command's work (``tools/editions/``):
#: repository tooling, not carried by the installable package
TOOLING = "tools.editions.command"
_PARTS = ("tools", "tools.editions", TOOLING)


def run(args: argparse.Namespace) -> int:
    root = Path(args.depot)
    if not (root / "editions").is_dir():
        args._parser.error(f"--depot\u00a0: {root} ne contient pas de dossier editions/")
    if not 1 <= args.duels <= 100_000:
        args._parser.error("--duels\u00a0: entre 1 et 100 000")
    command = _tooling(root)
    if command is None:
        print("escarmouche edition\u00a0: cette commande travaille sur une copie du dépôt du "
              "livre, avec ses outils (tools/editions/)\u202f; le paquet installé ne les "
              f"contient pas, et {quote(str(root))} n’en est pas une copie. Lancez-la depuis "
              "une copie du dépôt (make edition), ou désignez-en une avec --depot DOSSIER. "
              "Rien n’a été écrit.", file=sys.stderr)
        return 1
    code: int = command.run(args)
    return code


def _tooling(root: Path) -> Any:
    """The command's work (:data:`TOOLING`): from the path (a checkout's virtualenv, whose
    editable install puts the checkout's root on it), else from the checkout ``root``
    itself (an installed wheel run on ``--depot``); ``None`` when neither has it."""
    import importlib

    try:
        return importlib.import_module(TOOLING)
    except ModuleNotFoundError as err:
        if err.name not in _PARTS:
            raise  # the tooling is there, one of its imports is not: say so
    if not (root / "tools" / "editions" / "command.py").is_file():
        return None
    sys.path.insert(0, str(root.resolve()))
    try:
        return importlib.import_module(TOOLING)
    except ModuleNotFoundError as err:
        if err.name not in _PARTS:
            raise
        return None  # another « tools » package came first
