"""What players get from an edition (book/concepteurs.md): the printable errata sheet, errata apart
from clarifications; the Atom feed of the published editions; the generated journal,
the book's one changelog. Rule IDs: those of the changes shown (D100-PARRY-3,
D100-PARRY-2, RB-D100-1) and CORE-ERR."""

from __future__ import annotations

import datetime as dt
import xml.etree.ElementTree as ET
from pathlib import Path

from escarmouche.editions.data import Change, Edition, load_edition
from tests.helpers import ROOT
from tools.editions.sheets import (
    ATOM,
    atom_feed,
    errata_page,
    journal_page,
    sorted_changes,
)

A = f"{{{ATOM}}}"

PARRIES = Change("option-default", ("D100-PARRY-3",), "Deux parades par round.", "d100",
                 "parades_par_round", 1, 2)
GUARD = Change("new-ruling", ("D100-PARRY-2",), "La garde dure jusqu’au tour suivant.")
TWO = Edition(2, dt.date(2027, 1, 15), "Deux parades.", (GUARD, PARRIES))


def test_errata_come_apart_from_clarifications_d100_parry_3() -> None:
    """D100-PARRY-3, D100-PARRY-2: an option's default that changed is an erratum (a
    printed copy must be corrected), a ruling is a clarification; errata come first,
    each with its rule linked and its values before and after."""
    assert [(k, [c.rules for c in v]) for k, v in sorted_changes(TWO)] == [
        ("errata", [("D100-PARRY-3",)]), ("clarifications", [("D100-PARRY-2",)])]
    page = errata_page(TWO).replace("\u00a0", " ").replace("\u202f", " ")
    assert page.index("**Errata : ") < page.index("**Clarifications : ")
    assert ("- **{ref}`D100-PARRY-3 <d100-parry-3>`** — valeur par défaut d’une option. "
            "Parades par round") in page
    assert ": 1 → 2. Deux parades par round." in page
    assert "{doc}`edition-2`" in page
    assert "Brouillon" not in page
    assert "Brouillon : cette édition n’est pas encore publiée." in \
        errata_page(TWO, published=False).replace("\u00a0", " ")


def test_the_feed_lists_the_published_editions_newest_first() -> None:
    """CORE-ERR: the Atom feed is well formed, names only published editions, newest
    first, each with a stable tag id, its date, summary and counts, and links to its
    page and its errata sheet."""
    one = load_edition(ROOT / "editions" / "1.toml")
    three = Edition(3, dt.date(2027, 3, 1), "Brouillon.", ())
    text = atom_feed({1: one, 2: TWO, 3: three}, [1, 2], base="https://exemple.fr/livre/")
    feed = ET.fromstring(text)
    entries = feed.findall(f"{A}entry")
    assert [e.findtext(f"{A}title") for e in entries] == ["Édition 2", "Édition 1"]
    assert [e.findtext(f"{A}id") for e in entries] == [
        "tag:escarmouche.invalid,2026:edition-2", "tag:escarmouche.invalid,2026:edition-1"]
    assert entries[0].findtext(f"{A}updated") == "2027-01-15T00:00:00+00:00"
    assert feed.findtext(f"{A}updated") == "2027-01-15T00:00:00+00:00"
    assert entries[0].findtext(f"{A}summary") == "Deux parades. (1 erratum et 1 clarification.)"
    links = [link.get("href") for link in entries[0].findall(f"{A}link")]
    assert links == ["https://exemple.fr/livre/book/editions/edition-2.html",
                     "https://exemple.fr/livre/book/editions/errata-2.html"]
    assert feed.get("{http://www.w3.org/XML/1998/namespace}lang") == "fr"


def test_the_journal_is_the_one_changelog() -> None:
    """CORE-ERR: the journal lists every edition newest first, marks a draft, and links
    each to its page and errata sheet; no hand-written changelog sits beside it."""
    one = load_edition(ROOT / "editions" / "1.toml")
    page = journal_page({1: one, 2: TWO}, [1]).replace("\u00a0", " ")
    assert page.index("## Édition 2 (brouillon, non publiée)") < page.index("## Édition 1")
    assert "{doc}`ce qui a changé <edition-2>`" in page
    assert "{doc}`la feuille d’errata <errata-2>`" in page
    assert "editions.atom" in page
    assert not (ROOT / "book" / "revisions.md").exists()
    from escarmouche.editions.repo import load_all, snapshot

    editions = load_all(ROOT)
    published = [n for n in editions if snapshot(ROOT, n) is not None]
    generated = (ROOT / "book" / "editions" / "journal.md").read_text(encoding="utf-8")
    assert generated == journal_page(editions, published)


def test_any_two_published_editions_have_their_page(tmp_path: Path) -> None:
    """D100-PARRY-3, RB-D100-1: with editions 1, 2 and 3 published, « entre 1 et 3 »
    gathers the changes of editions 2 and 3, each named with its edition, compares the
    rules of 1 with those of 3, and the journal links it."""
    import json
    import shutil

    from escarmouche.editions.data import edition_to_toml
    from tools.editions.pages import build_pages

    (tmp_path / "editions").mkdir()
    shutil.copy(ROOT / "editions" / "1.toml", tmp_path / "editions" / "1.toml")
    frozen = json.loads((ROOT / "editions" / "1" / "rules.json").read_text("utf-8"))
    rb = Change("option-default", ("RB-D100-1",), "Critiques jusqu’à 8.", "rulebook",
                "reussite_critique_max", frozen["rulebook"]["crit_success_max"], 8)
    three = Edition(3, dt.date(2027, 6, 1), "Critiques élargis.", (rb,))
    for edition in (TWO, three):
        (tmp_path / "editions" / f"{edition.number}.toml").write_text(
            edition_to_toml(edition), encoding="utf-8")
    for n, changes in ((1, {}), (2, {"d100": {"parries_per_round": 2}}),
                       (3, {"d100": {"parries_per_round": 2},
                            "rulebook": {"crit_success_max": 8}})):
        folder = tmp_path / "editions" / str(n)
        folder.mkdir()
        rules = {k: {**v, **changes.get(k, {})} for k, v in frozen.items()}
        (folder / "rules.json").write_text(json.dumps(rules), encoding="utf-8")
        for name in ("rules-text.json", "outputs.json"):
            shutil.copy(ROOT / "editions" / "1" / name, folder / name)
    build_pages(tmp_path, duels=4)
    page = (tmp_path / "book" / "editions" / "entre-1-et-3.md").read_text("utf-8")
    flat = page.replace("\u00a0", " ").replace("\u202f", " ")
    assert "# Ce qui a changé entre l’édition 1 et l’édition 3" in flat
    assert "*Édition 2.* Deux parades par round." in flat
    assert "*Édition 3.* Critiques jusqu’à 8." in flat
    assert "| Rulebook | plus haut jet de réussite critique" in flat
    # what the page is, and each edition with its date (B158)
    assert "Tous les changements de l’édition 1 à l’édition 3 réunis" in flat
    assert "- **Édition 3** du 1er juin 2027. Critiques élargis." in flat
    journal = (tmp_path / "book" / "editions" / "journal.md").read_text("utf-8")
    assert "{doc}`de l’édition 1 à l’édition 3 <entre-1-et-3>`" in journal
    assert not (tmp_path / "book" / "editions" / "entre-1-et-2.md").exists()


def test_publishing_archives_the_former_edition_pdf(tmp_path: Path) -> None:
    """CORE-ERR: publishing edition n+1 keeps the PDF the last build made of edition n in
    its snapshot folder, once; the journal then links it; nothing is archived when no
    book was built."""
    from tools.editions.workflow import archive_pdf

    folder = tmp_path / "editions" / "1"
    folder.mkdir(parents=True)
    (folder / "rules.json").write_text("{}", encoding="utf-8")
    assert archive_pdf(tmp_path, 1) is None
    built = tmp_path / "_build" / "html"
    built.mkdir(parents=True)
    (built / "escarmouche-edition-1.pdf").write_bytes(b"%PDF-1.7 edition 1")
    kept = archive_pdf(tmp_path, 1)
    assert kept == folder / "escarmouche-edition-1.pdf"
    assert kept.read_bytes() == b"%PDF-1.7 edition 1"
    (built / "escarmouche-edition-1.pdf").write_bytes(b"%PDF-1.7 rebuilt")
    assert archive_pdf(tmp_path, 1) == kept and kept.read_bytes() == b"%PDF-1.7 edition 1"
    one = load_edition(ROOT / "editions" / "1.toml")
    page = journal_page({1: one, 2: TWO}, [1, 2], archived=[1])
    assert '<a href="../../escarmouche-edition-1.pdf" download>le PDF de l’édition 1</a>' in page
