"""The whole-book PDF of a published edition, built from the book as it stood under that
edition (``escarmouche edition --publier`` runs it when the previous edition's PDF is
neither archived nor built; the designer's workflow: book/concepteurs.md, step 8).

The working tree cannot give that PDF: once ``make edition`` has drafted edition
``n+1``, the notebooks already show the draft's examples. The book under edition ``n`` is
the last commit before the draft ``editions/<n+1>.toml`` first appears (``HEAD`` when the
draft was never committed), so fixes made to the book after the publication are kept. It
is exported with ``git archive`` into a scratch folder, with that commit's engine first
on the path, and the steps of ``make book`` that give the PDF run there; the PDF is
written into the edition's snapshot folder, ``editions/<n>/escarmouche-edition-<n>.pdf``,
which the book's archive serves.

    python tools/edition_pdf.py 1 --depot ~/escarmouche
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Sequence
from pathlib import Path

from escarmouche.cli.french import FrenchParser, integer, parse_args
from tools.editions.workflow import pdf_name

ROOT = Path(__file__).resolve().parent.parent

#: the steps of ``make book`` that give the whole-book PDF, run in the exported book
STEPS = ("ensure_chromium.py", "build_site.py", "build_pdf.py")
#: build caches of ``_build/`` kept per pinned version (tools/build_site.py), copied into
#: the scratch book so that it does not fetch or compile them again
CACHES = ("lite-wheels", "lite-wheels-pyc", "lite-langpack", "project-wheel")


class EditionPdfError(SystemExit):
    """The PDF cannot be built; the message says why, in French, and what to do."""


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, check=False)


def edition_commit(root: Path, number: int) -> str:
    """The commit whose book is edition ``number``'s: the parent of the commit that first
    added the draft ``editions/<number+1>.toml``, else ``HEAD``; it must hold the
    edition's snapshot ``editions/<number>/rules.json``."""
    if _git(root, "rev-parse", "--verify", "--quiet", "HEAD").returncode != 0:
        raise EditionPdfError(
            f"{root} n’est pas un dépôt git avec un commit\u00a0: le PDF de l’édition {number} "
            "se construit depuis le commit de sa publication. Publiez avec --sans-pdf.")
    added = _git(root, "log", "--format=%H", "--diff-filter=A", "--",
                 f"editions/{number + 1}.toml").stdout.decode().split()
    if added:
        parent = _git(root, "rev-parse", "--verify", "--quiet", f"{added[-1]}^")
        if parent.returncode != 0:
            raise EditionPdfError(
                f"Le brouillon editions/{number + 1}.toml est dans le premier commit du "
                f"dépôt\u00a0: aucun commit ne garde le livre de l’édition {number}. Publiez "
                "avec --sans-pdf.")
        commit = parent.stdout.decode().strip()
    else:
        commit = _git(root, "rev-parse", "HEAD").stdout.decode().strip()
    if _git(root, "cat-file", "-e", f"{commit}:editions/{number}/rules.json").returncode:
        raise EditionPdfError(
            f"L’instantané editions/{number}/ n’est dans aucun commit avant le brouillon "
            f"de l’édition {number + 1}\u00a0: validez d’abord la publication de l’édition "
            f"{number} (git commit), ou publiez avec --sans-pdf.")
    return commit


def export(root: Path, commit: str, into: Path) -> None:
    """The tree of ``commit`` written into ``into`` (no git metadata), with the build
    caches of ``root`` and, when the npm lock is the same, its node_modules."""
    archive = _git(root, "archive", "--format=tar", commit)
    if archive.returncode != 0:
        raise EditionPdfError(f"git archive {commit[:12]} a échoué\u00a0: "
                              + archive.stderr.decode(errors="replace").strip())
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    for cache in CACHES:
        if (root / "_build" / cache).is_dir():
            shutil.copytree(root / "_build" / cache, into / "_build" / cache, symlinks=True)
    lock = "package-lock.json"
    if ((root / "node_modules").is_dir() and (into / lock).is_file()
            and (root / lock).read_bytes() == (into / lock).read_bytes()):
        (into / "node_modules").symlink_to(root / "node_modules", target_is_directory=True)


def build(root: Path, number: int, *, steps: Sequence[str] = STEPS) -> Path:
    """Edition ``number``'s PDF, built from its commit and archived in its snapshot
    folder of ``root``; the archived file."""
    commit = edition_commit(root, number)
    kept = root / "editions" / str(number) / pdf_name(number)
    print(f"[edition_pdf] édition {number}\u00a0: le livre du commit {commit[:12]}, exporté "
          "puis construit à part (quelques minutes)…", flush=True)
    with tempfile.TemporaryDirectory(prefix="escarmouche-edition-") as scratch:
        book = Path(scratch)
        export(root, commit, book)
        env = dict(os.environ)
        # that commit's engine, widgets and tooling (tools, book/_ext) before the ones
        # installed from the working tree
        env["PYTHONPATH"] = os.pathsep.join(
            [str(book), str(book / "src"), str(book / "widgets"), *filter(None, [
                os.environ.get("PYTHONPATH")])])
        env.pop("ESCARMOUCHE_APERCU", None)
        for step in steps:
            done = subprocess.run([sys.executable, str(book / "tools" / step)], cwd=book,
                                  env=env, check=False)
            if done.returncode != 0:
                raise EditionPdfError(
                    f"La construction du PDF de l’édition {number} a échoué "
                    f"(tools/{step}, dans le livre du commit {commit[:12]}).")
        built = book / "_build" / "html" / pdf_name(number)
        if not built.is_file():
            raise EditionPdfError(
                f"Le livre du commit {commit[:12]} n’a pas donné {pdf_name(number)}\u00a0: "
                f"il ne montre pas l’édition {number}.")
        kept.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, kept)
    size = f"{kept.stat().st_size / 1e6:.1f}".replace(".", ",")
    print(f"[edition_pdf] {kept.relative_to(root)}\u00a0: {size}\u00a0Mo", flush=True)
    return kept


def main(argv: Sequence[str] | None = None) -> int:
    parser = FrenchParser(description=(
        "Construit le PDF d’une édition publiée depuis le livre de sa publication (le "
        "dernier commit avant le brouillon suivant) et l’archive dans editions/<n>/."))
    parser.add_argument("numero", type=integer, metavar="N", help="l’édition publiée")
    parser.add_argument("--depot", type=Path, default=ROOT, metavar="DOSSIER",
                        help="le dépôt du livre (défaut : celui de cet outil)")
    args = parse_args(parser, argv)
    try:
        build(args.depot.resolve(), args.numero)
    except EditionPdfError as error:
        print(error.code, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
