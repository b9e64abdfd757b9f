"""What players get from an edition (issue 23): the printable errata sheet, errata apart
from clarifications; the Atom feed of the published editions; the generated journal,
the book's one changelog. Rule IDs: those of the changes shown (D100-PARRY-3,
D100-PARRY-2, RB-D100-1) and CORE-ERR."""

from __future__ import annotations

import datetime as dt
import xml.etree.ElementTree as ET
from pathlib import Path

from escarmouche.editions.data import Change, Edition, load_edition
from escarmouche.editions.sheets import (
    ATOM,
    atom_feed,
    errata_page,
    journal_page,
    sorted_changes,
)

ROOT = Path(__file__).resolve().parent.parent
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
    assert ("- **{ref}`D100-PARRY-3 <d100-parry-3>`** (valeur par défaut d’une option) : "
            "parades par round") in page
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
