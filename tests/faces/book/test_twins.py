"""Every notebook of the book is built from its MyST twin, and has not drifted from it.

``book_src/X.md`` is the one source of ``book/X.ipynb`` (``tools/book_notebooks.py``,
``make refresh``). This check needs no kernel: it compares each notebook's cells (type,
source, tags) with its twin's, and fails when a twin has no notebook or a notebook no
twin. The outputs are nbval's business (``make nbval``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tools import book_notebooks as tool

ROOT = tool.ROOT


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_the_book_has_twins_and_notebooks() -> None:
    assert tool.twins(), "aucun jumeau dans book_src/"
    assert tool.notebooks(), "aucun carnet dans book/"


@pytest.mark.parametrize("notebook", tool.notebooks(), ids=_rel)
def test_every_notebook_has_a_twin(notebook: Path) -> None:
    twin = tool.twin_of(notebook)
    assert twin.is_file(), (f"{_rel(notebook)} n’a pas de jumeau {_rel(twin)} : écrivez-le "
                            "(jupytext --to md:myst), c’est la source du carnet")


@pytest.mark.parametrize("twin", tool.twins(), ids=_rel)
def test_every_twin_has_its_notebook_with_the_same_cells(twin: Path) -> None:
    notebook = tool.target(twin)
    assert notebook.is_file(), f"{_rel(notebook)} manque : lancez make refresh"
    built = tool.shape(tool.convert(twin))
    stored = tool.shape(tool.nb_read(notebook, as_version=4))
    assert len(stored) == len(built), (
        f"{_rel(notebook)} : {len(stored)} cellules, son jumeau {len(built)} : "
        "lancez make refresh")
    for i, (have, want) in enumerate(zip(stored, built, strict=True)):
        assert have == want, (f"{_rel(notebook)}, cellule {i} : diffère de {_rel(twin)} : "
                              "lancez make refresh")


def test_check_reports_a_drift(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tool's own ``--check`` sees a changed source, a lost notebook and an orphan."""
    src, book = tmp_path / "book_src", tmp_path / "book"
    (src / "demos").mkdir(parents=True)
    (book / "demos").mkdir(parents=True)
    page = "# Titre\n\n```{code-cell} ipython3\nprint(1)\n```\n"
    (src / "demos" / "a.md").write_text(page, encoding="utf-8")
    (src / "b.md").write_text(page, encoding="utf-8")
    monkeypatch.setattr(tool, "ROOT", tmp_path)
    monkeypatch.setattr(tool, "SRC", src)
    monkeypatch.setattr(tool, "BOOK", book)
    nb = tool.convert(src / "demos" / "a.md")
    (book / "demos" / "a.ipynb").write_text(tool.nb_writes(nb), encoding="utf-8")
    (book / "c.ipynb").write_text(tool.nb_writes(nb), encoding="utf-8")
    problems = tool.check()
    assert len(problems) == 2
    assert problems[0].startswith("book/b.ipynb manque")
    assert problems[1].startswith("book/c.ipynb n’a pas de jumeau")
    (src / "demos" / "a.md").write_text(page.replace("print(1)", "print(2)"), encoding="utf-8")
    assert any("ne correspond plus" in p for p in tool.check())


def test_a_hand_edit_is_refused_naming_the_twin(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A generated notebook carries an editor's mark in its metadata (its twin and a
    digest of its cells, nothing on the reader's page); a notebook whose cells were
    edited by hand is refused, by ``--check`` and by a build, naming ``book_src/X.md``,
    and the file is left as it is. A notebook built before the mark is marked at its
    next build."""
    src, book = tmp_path / "book_src", tmp_path / "book"
    src.mkdir()
    book.mkdir()
    page = "# Titre\n\n```{code-cell} ipython3\nprint(1)\n```\n"
    (src / "a.md").write_text(page, encoding="utf-8")
    monkeypatch.setattr(tool, "ROOT", tmp_path)
    monkeypatch.setattr(tool, "SRC", src)
    monkeypatch.setattr(tool, "BOOK", book)
    nb = tool.convert(src / "a.md")
    assert nb.metadata["escarmouche"]["genere_depuis"] == "book_src/a.md"
    assert "modifiez ce jumeau, pas ce carnet" in nb.metadata["escarmouche"]["note"]
    assert all("book_src" not in "".join(c.source) for c in nb.cells)  # not on the page
    out = book / "a.ipynb"
    out.write_text(tool.nb_writes(nb), encoding="utf-8")
    assert tool.check() == [] and not tool.hand_edited(tool.nb_read(out, as_version=4))
    edited = tool.nb_reads(out.read_text(encoding="utf-8"), as_version=4)
    edited.cells[1].source = "print(42)"
    out.write_text(tool.nb_writes(edited), encoding="utf-8")
    before = out.read_text(encoding="utf-8")
    (problem,) = tool.check()
    assert problem.startswith("book/a.ipynb a été modifié à la main depuis sa génération")
    assert "son jumeau book_src/a.md. Reportez-y la modification" in problem
    with pytest.raises(tool.HandEdited, match=r"book_src/a\.md"):
        tool.build(src / "a.md")
    assert out.read_text(encoding="utf-8") == before
    # the twin changed, the notebook did not: rebuilt as before (no refusal)
    out.write_text(tool.nb_writes(nb), encoding="utf-8")
    (src / "a.md").write_text(page.replace("print(1)", "print(2)"), encoding="utf-8")
    assert any("ne correspond plus" in p for p in tool.check())
    # an unmarked notebook (built before the mark) is not taken for a hand edit
    del edited.metadata["escarmouche"]
    assert not tool.hand_edited(edited)
