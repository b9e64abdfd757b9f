"""``escarmouche edition`` on a checkout of the book: the work of the command, which
the installable package's :mod:`escarmouche.cli.edition` (its arguments, its help)
hands to this module. It re-runs the notebooks, drafts and publishes the edition files
and rewrites the « Ce qui a changé » pages (:mod:`tools.editions.workflow`,
:mod:`tools.editions.pages`): repository tooling, which the wheel does not carry.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from escarmouche.editions.repo import last_published
from escarmouche.errors import EscarmoucheError
from escarmouche.text.fmt import plural
from tools.editions.check import check_repository
from tools.editions.pages import build_pages
from tools.editions.workflow import (
    all_or_nothing,
    book_contradictions,
    book_reviews,
    draft,
    pdf_name,
    publish,
    refresh_notebooks,
    withdraw,
)

__all__ = ["PDF_TOOL", "run"]


#: the tool that builds a published edition's PDF from its own commit (tools/ of a book
#: checkout): the working tree may already show the next draft's examples
PDF_TOOL = "edition_pdf.py"


def _pdf_builder(root: Path) -> Any:
    """Build the previous edition's PDF on demand at publish time, from the book of its
    publication (``tools/edition_pdf.py``), straight into its snapshot folder; ``None``
    outside a book checkout with its tools."""
    import subprocess

    tool = root / "tools" / PDF_TOOL
    if not tool.is_file():
        return None

    def build(number: int) -> None:
        print(f"Le PDF de l’édition {number} n’est ni archivé ni construit\u00a0: construction "
              f"du livre de l’édition {number}, depuis le commit de sa publication, avant "
              "de publier (quelques minutes)…", flush=True)
        done = subprocess.run([sys.executable, str(tool), str(number), "--depot", str(root)],
                              cwd=root, check=False)
        if done.returncode != 0:
            raise SystemExit(
                f"Le PDF de l’édition {number} n’a pas été construit (ci-dessus, "
                "pourquoi)\u00a0: rien n’a été publié. Corrigez, ou publiez sans archiver ce "
                "PDF (--sans-pdf).")

    return build


def run(args: argparse.Namespace) -> int:
    """``escarmouche edition`` on the checkout ``args.depot`` (its arguments checked by
    :func:`escarmouche.cli.edition.run`); the exit code."""
    root = Path(args.depot)
    try:
        if args.depublier is not None:
            last = withdraw(root, args.depublier)
            print(f"Édition {args.depublier} retirée : son instantané "
                  f"editions/{args.depublier}/ est effacé, editions/{args.depublier}.toml "
                  f"redevient un brouillon ; la dernière édition publiée est la {last}.")
        elif args.publier:
            number = publish(root, again=args.refaire,
                             build_pdf=None if args.sans_pdf else _pdf_builder(root))
            print(f"Édition {number} publiée\u00a0: instantané editions/{number}/ écrit.")
            kept = root / "editions" / str(number - 1) / pdf_name(number - 1)
            if number > 1 and not args.refaire and not kept.is_file():
                print(f"Attention\u00a0: le PDF de l’édition {number - 1} n’a pas été "
                      f"archivé (--sans-pdf, ou ce dépôt n’a pas tools/{PDF_TOOL})\u202f; "
                      "pour le rattraper\u00a0: python tools/edition_pdf.py "
                      f"{number - 1} (il construit le livre de sa publication et "
                      f"l’archive dans editions/{number - 1}/).", file=sys.stderr)
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
                print("Rien à publier\u00a0: les règles du moteur sont celles de l’édition "
                      f"{last_published(root)}.")
            else:
                print(f"Brouillon editions/{edition.number}.toml\u00a0: "
                      f"{plural(len(edition.changes), 'changement')} ; relisez et rédigez "
                      "chaque texte, puis lancez « escarmouche edition --publier ».")
                for found in book_contradictions(root, edition):
                    print(f"À corriger avant de publier\u00a0: {found}")
                unread = book_reviews(root, edition)
                for review in unread:
                    print(f"À relire avant de publier\u00a0: {review}")
                if unread:
                    print(f"Pour chaque exemple à relire\u00a0: corrigez son texte dans "
                          f"book_src/, ou, s’il reste juste, ajoutez-le à « relus » dans "
                          f"editions/{edition.number}.toml (relus = [\"page#n\", …]).")
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
