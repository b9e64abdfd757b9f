"""``tools/edition_pdf.py``: a published edition's PDF is built from the book of its
publication, the last commit before the next draft, never from a working tree whose
notebooks already show the draft's examples (book/concepteurs.md, step 8).

The book's steps are stand-ins here (a real build takes minutes): ``build_pdf.py`` writes
into the PDF the page it read and the engine it imported, so the test sees which tree
and which engine the build used."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT

sys.path.insert(0, str(ROOT))

from tools import edition_pdf

STEPS = ("ensure_chromium.py", "build_pdf.py")
FAKE_PDF = """\
import escarmouche, pathlib
out = pathlib.Path("_build/html/escarmouche-edition-1.pdf")
out.parent.mkdir(parents=True, exist_ok=True)
out.write_text(pathlib.Path("book/page.md").read_text() + " | " + escarmouche.MARK)
"""


def _commit(repo: Path, files: dict[str, str], message: str) -> None:
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text, encoding="utf-8")
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t",
                    "commit", "-q", "-m", message], check=True)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """Edition 1 published and committed, with a book page and an engine of its own."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    _commit(tmp_path, {
        "editions/1.toml": "number = 1\n", "editions/1/rules.json": "{}",
        "book/page.md": "Éclopé (DIS 40), marge 20",
        "src/escarmouche/__init__.py": "MARK = 'moteur de l’édition 1'\n",
        "tools/ensure_chromium.py": "", "tools/build_pdf.py": FAKE_PDF,
    }, "édition 1")
    return tmp_path


def test_the_pdf_comes_from_the_last_commit_before_the_draft(repo: Path) -> None:
    """A fix committed after the publication is in the PDF; the draft's examples, committed
    or not, and the working tree's engine are not."""
    _commit(repo, {"book/page.md": "Éclopé (DIS 40), marge 20 (coquille corrigée)"}, "fix")
    _commit(repo, {"editions/2.toml": "number = 2\n",
                   "book/page.md": "Éclopé (DIS 50), marge 30"}, "brouillon 2")
    (repo / "book" / "page.md").write_text("Éclopé (DIS 50), marge 30, en cours")
    (repo / "src" / "escarmouche" / "__init__.py").write_text("MARK = 'brouillon'\n")
    kept = edition_pdf.build(repo, 1, steps=STEPS)
    assert kept == repo / "editions" / "1" / "escarmouche-edition-1.pdf"
    assert kept.read_text() == ("Éclopé (DIS 40), marge 20 (coquille corrigée) | "
                                "moteur de l’édition 1")
    assert (repo / "book" / "page.md").read_text().endswith("en cours")  # untouched


def test_an_uncommitted_draft_leaves_head_as_the_book(repo: Path) -> None:
    (repo / "editions" / "2.toml").write_text("number = 2\n")
    (repo / "book" / "page.md").write_text("Éclopé (DIS 50), marge 30")
    assert edition_pdf.edition_commit(repo, 1) == subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True,
        text=True, check=True).stdout.strip()
    assert "marge 20 | " in edition_pdf.build(repo, 1, steps=STEPS).read_text()


def test_an_uncommitted_publication_is_refused_in_french(repo: Path) -> None:
    """Edition 2 published but never committed: no commit holds its book."""
    (repo / "editions" / "2").mkdir()
    (repo / "editions" / "2" / "rules.json").write_text("{}")
    with pytest.raises(edition_pdf.EditionPdfError, match=(
            r"L’instantané editions/2/ n’est dans aucun commit .*\(git commit\), ou "
            r"publiez avec --sans-pdf")):
        edition_pdf.build(repo, 2, steps=STEPS)
    assert not (repo / "editions" / "2" / "escarmouche-edition-2.pdf").exists()


def test_a_failed_step_is_said_and_archives_nothing(repo: Path) -> None:
    _commit(repo, {"tools/build_pdf.py": "raise SystemExit(3)\n"}, "cassé")
    with pytest.raises(edition_pdf.EditionPdfError,
                       match=r"a échoué \(tools/build_pdf\.py, dans le livre du commit "):
        edition_pdf.build(repo, 1, steps=STEPS)
    assert not (repo / "editions" / "1" / "escarmouche-edition-1.pdf").exists()


def test_outside_git_the_tool_says_to_publish_without_the_pdf(tmp_path: Path) -> None:
    assert edition_pdf.main(["1", "--depot", str(tmp_path)]) == 1
    with pytest.raises(edition_pdf.EditionPdfError, match="n’est pas un dépôt git"):
        edition_pdf.edition_commit(tmp_path, 1)
