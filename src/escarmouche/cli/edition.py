"""``escarmouche edition``: draft, publish and document an edition of the book (what
``make edition`` runs; the designer's workflow is in the book's « Pour les
concepteurs »). It works on a checkout of the book (``--depot``, default: here); a
folder without ``editions/`` is a usage error (exit code 2):

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

from escarmouche.cli._french import integer
from escarmouche.errors import EscarmoucheError
from escarmouche.text.fmt import plural

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


#: the steps of ``make book`` that give the whole-book PDF (tools/ of a book checkout)
PDF_STEPS = ("ensure_chromium.py", "build_site.py", "build_pdf.py")


def _pdf_builder(root: Path) -> Any:
    """Build the book and its PDF on demand at publish time, for the archive of the
    previous edition (``None`` outside a book checkout with its tools)."""
    import subprocess

    tools = root / "tools"
    if not all((tools / step).is_file() for step in PDF_STEPS):
        return None

    def build(number: int) -> None:
        print(f"Le PDF de l’édition {number} n’est ni archivé ni construit : construction "
              "du livre et de son PDF avant de publier (les étapes de make book, quelques "
              "minutes)…", flush=True)
        for step in PDF_STEPS:
            done = subprocess.run([sys.executable, str(tools / step)], cwd=root, check=False)
            if done.returncode != 0:
                raise SystemExit(
                    f"La construction du PDF de l’édition {number} a échoué "
                    f"(tools/{step}) : rien n’a été publié. Construisez le livre (make "
                    "book) puis publiez de nouveau, ou publiez sans archiver ce PDF "
                    "(--sans-pdf).")

    return build


def run(args: argparse.Namespace) -> int:
    from escarmouche.editions.check import check_repository
    from escarmouche.editions.repo import build_pages, last_published
    from escarmouche.editions.workflow import (
        all_or_nothing,
        book_contradictions,
        book_reviews,
        draft,
        publish,
        refresh_notebooks,
        withdraw,
    )

    root = Path(args.depot)
    if not (root / "editions").is_dir():
        args._parser.error(f"--depot : {root} ne contient pas de dossier editions/")
    if not 1 <= args.duels <= 100_000:
        args._parser.error("--duels : entre 1 et 100 000")
    try:
        if args.depublier is not None:
            last = withdraw(root, args.depublier)
            print(f"Édition {args.depublier} retirée : son instantané "
                  f"editions/{args.depublier}/ est effacé, editions/{args.depublier}.toml "
                  f"redevient un brouillon ; la dernière édition publiée est la {last}.")
        elif args.publier:
            number = publish(root, again=args.refaire,
                             build_pdf=None if args.sans_pdf else _pdf_builder(root))
            print(f"Édition {number} publiée : instantané editions/{number}/ écrit.")
            from escarmouche.editions.workflow import pdf_name

            kept = root / "editions" / str(number - 1) / pdf_name(number - 1)
            if number > 1 and not args.refaire and not kept.is_file():
                print(f"Attention\u00a0: le PDF de l’édition {number - 1} n’a pas été "
                      f"archivé (_build/html/{pdf_name(number - 1)} manque, et --sans-pdf "
                      "ou l’absence des outils du livre l’a laissé non construit)\u202f; "
                      "pour le rattraper, "
                      f"retirez l’édition (--depublier {number}), lancez make book, puis "
                      "publiez de nouveau.", file=sys.stderr)
        elif not args.pages:
            # at the door: the edition files first, then every example in a scratch
            # copy; the repository is written only when both pass, all or nothing
            check_repository(root, draft_after=False)
            with all_or_nothing(root):
                if not args.sans_carnets:
                    print("Réexécution des carnets du livre dans une copie de travail "
                          "(tools/book_notebooks.py)…", flush=True)
                    changed = refresh_notebooks(root)
                    print(f"Carnets\u00a0: tous exécutés, {len(changed)} mis à jour.")
                edition = draft(root)
                pages = build_pages(root, duels=args.duels)
            if edition is None:
                print("Rien à publier : les règles du moteur sont celles de l’édition "
                      f"{last_published(root)}.")
            else:
                print(f"Brouillon editions/{edition.number}.toml : "
                      f"{plural(len(edition.changes), 'changement')} ; relisez et rédigez "
                      "chaque texte, puis lancez « escarmouche edition --publier ».")
                for found in book_contradictions(root, edition):
                    print(f"À corriger avant de publier\u00a0: {found}")
                unread = book_reviews(root, edition)
                for review in unread:
                    print(f"À relire avant de publier\u00a0: {review}")
                if unread:
                    print(f"Pour chaque exemple à relire\u00a0: corrigez son texte dans "
                          f"book_src/, ou, s’il reste juste, ajoutez-le à « reviewed » dans "
                          f"editions/{edition.number}.toml (reviewed = [\"page#n\", …]).")
            _say_pages(pages)
            return 0
        pages = build_pages(root, duels=args.duels)
    except SystemExit as stop:
        if isinstance(stop.code, str):
            print(f"escarmouche\u00a0: {stop.code}", file=sys.stderr)
            return 1
        raise
    except EscarmoucheError as err:
        print(f"escarmouche\u00a0: {err}\nRien n’a été écrit.", file=sys.stderr)
        return 1
    _say_pages(pages)
    return 0


def _say_pages(pages: list[Path]) -> None:
    # the count holds the errata sheets and the journal too, not only « Ce qui a changé »
    print(f"Pages des éditions («\u00a0Ce qui a changé\u00a0», errata, journal)\u00a0: "
          f"{plural(len(pages), 'page')} {'réécrite' if len(pages) < 2 else 'réécrites'}.")
