"""The edition pages the generator writes, read as a French rules editor would
(spec/RELECTURE.md): « Ce qui a changé », the errata, the journal, the page between two
editions, the simulated duels. Each test names the entry of ``spec/relecture-journal.md``
it holds (« B140: … »).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import fnmatch
import importlib.util
import re
import sys
from types import SimpleNamespace

import pytest

from escarmouche import systems
from escarmouche.editions.data import Change, Edition, Snapshot
from escarmouche.editions.odds import standard_odds
from escarmouche.editions.page import plain_text, render_span, system_name
from escarmouche.editions.repo import last_published, load_all, snapshot
from tests.helpers import ROOT
from tests.helpers.proofreading import (
    BOOK,
    book_page,
    clauses,
    flat,
    top_level_colons,
)
from tools.editions.sheets import counts, errata_page, journal_page

EDITIONS = BOOK / "editions"


# -- the reference pages -----------------------------------------------------------------


def test_b158_a_failed_example_is_told_in_sentences() -> None:
    """B158: « make edition » tells a broken example in three sentences (where, why,
    what to do), not as « ÉCHEC : …, cellule n° 12 : Dés manuels épuisés : … »; the
    designers' page quotes that message."""
    spec = importlib.util.spec_from_file_location("book_notebooks_b158",
                                                  ROOT / "tools" / "book_notebooks.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = tool
    spec.loader.exec_module(tool)
    nb = SimpleNamespace(cells=[{"cell_type": "code", "source": "combat.act(…)",
                                 "outputs": [{"output_type": "error"}]}])
    err = SimpleNamespace(ename="ParameterError", evalue=(
        "Dés manuels épuisés : plus aucun résultat prévu pour le jet n° 2 (un d6 est "
        "demandé, 1 résultat fourni) (CORE-RNG)."))
    told = flat(tool.failure(BOOK / "d12" / "initiative.ipynb", nb, err))
    assert told == ("ÉCHEC : book/d12/initiative.ipynb, cellule de code n° 1 "
                    "(« combat.act(…) »). Dés manuels épuisés : plus aucun résultat prévu "
                    "pour le jet n° 2 (un d6 est demandé, 1 résultat fourni) (CORE-RNG). "
                    "Corrigez cet exemple dans son jumeau book_src/d12/initiative.md.")
    designers = flat(book_page("concepteurs.md"))
    assert "n° 12 (« … »). Dés manuels épuisés : plus aucun résultat prévu" in designers


# -- the edition pages ---------------------------------------------------------------------


def test_b140_rule_statements_on_edition_pages_keep_no_markdown_mark() -> None:
    """B140: a rule statement printed on an edition page turns ``**x**`` into bold; it
    printed « Les *<em>décomptes globaux</em>* » (7 rules); a word diff drops the marks
    (it printed « *caractéristique − résultat* »); the line under a changed rule gives
    the designer's Markdown as words."""
    for path in sorted(EDITIONS.glob("*.md")):
        for para in re.findall(r'<p class="esc-ed-rule">(.*?)</p>', path.read_text("utf-8")):
            assert "*" not in para, (path.name, para[:120])
    assert plain_text("La marge vaut *c − r*, voir {ref}`D100-PARRY-3 <d100-parry-3>` et "
                      "**deux** `x`") == "La marge vaut c − r, voir D100-PARRY-3 et deux x"


def test_b141_the_standard_odds_tables_speak_french() -> None:
    """B141: the tables of the edition pages and the Atelier name nothing by an engine
    word: the Rulebook's column « Stat » (now « Caractéristique »), d12's title « le
    groupe x » (a side's id)."""
    for name in systems.available():
        for table in standard_odds(name, systems.get(name).default_rules()):
            for text in (table.title, *table.columns, *(label for label, _ in table.rows)):
                assert not re.search(r"\bStat\b|\b[a-z]+_[a-z_]+\b|(?<!\S)[xy]$|"
                                     r"(?<!\S)n(?!\S)", text), (name, text)


def test_b142_the_errata_sheet_counts_as_the_journal_and_the_feed() -> None:
    """B142: the errata sheet of edition 1 said « 23 changements », then « il n’y a rien
    à corriger », and promised « les chances avant et après » a first edition has not;
    it now counts clarifications as the journal and the feed do."""
    editions = load_all(ROOT)
    for number, edition in editions.items():
        sheet = flat(errata_page(edition))
        said = counts(edition)
        assert f"{said[:1].upper()}{said[1:]} ; le détail" in sheet
        assert " changements ;" not in sheet
        if number == 1:
            assert "avant et après" not in sheet
    journal = flat(journal_page(editions, sorted(editions)))
    for edition in editions.values():
        said = counts(edition)
        assert f"{said[:1].upper()}{said[1:]} : voir" in journal


@pytest.mark.published
@pytest.mark.skipif(last_published(ROOT) != 1, reason="a later edition may revise a box")
def test_b143_edition_one_quotes_the_boxes_the_book_prints() -> None:
    """B143: while edition 1 is the book's edition, its page and errata give each ruling
    as the book's box gives it (they gave the boxes of before the fifth pass of
    spec/relecture-journal.md: « début du tour
    du personnage » in the Rulebook, no reason for the d20 immediate action's default,
    « course » and « lâcher un objet » missing)."""
    from tools.editions.workflow import printed_boxes

    boxes = printed_boxes(ROOT)
    edition = load_all(ROOT)[1]
    stale = [c.rules[0] for c in edition.changes if c.text.strip() != boxes[c.rules[0]].strip()]
    assert stale == [], "python tools/edition.py --pages after refreshing editions/1.toml"


def test_b144_a_ruling_follows_its_rule_on_the_edition_page() -> None:
    """B144: a ruling's box says « la règle ci-dessus »; on the page of edition 1 the rule
    it means is printed above it, not after it."""
    page = (EDITIONS / "edition-1.md").read_text(encoding="utf-8")
    blocks = re.split(r"^### ", page, flags=re.M)[1:]
    rulings = [b for b in blocks if b.startswith("Interprétation nouvelle")]
    assert len(rulings) == len(load_all(ROOT)[1].changes)
    for block in rulings:
        rule_at = block.index('<p class="esc-ed-rule">')
        for m in re.finditer(r"ci-dessus", block):
            assert m.start() > rule_at, block[:80]


def test_b145_b146_an_option_change_is_said_once_and_names_its_system() -> None:
    """B145: on the errata sheet, an option change whose text is the drafting tool's
    said its values twice (« … : 1 → 2. … : la valeur par défaut passe de 1 à 2. »);
    B146: the change's table named the system by its registry name (« rulebook »)."""
    from escarmouche.editions.data import option_changes
    from tools.editions.check import engine_name

    name = engine_name("d100", "parades_par_round")
    assert name is not None
    generated = option_changes({"d100": {name: 1}}, {"d100": {name: 2}})[0]
    sheet = flat(errata_page(Edition(2, dt.date(2027, 1, 15), "Deux parades.",
                                      (generated,))))
    assert sheet.count("1 → 2") == 1 and "passe de 1 à 2" not in sheet
    assert [system_name(n) for n in systems.available()] == ["Rulebook", "d100", "d12",
                                                              "d20"]


def test_b147_b148_the_page_between_two_editions_reads_and_is_in_the_book() -> None:
    """B147: « Ce qui a changé entre l’édition A et l’édition B » says what it is and
    dates each edition (it ran « Édition 2 : Deux parades… Édition 3 : … » together),
    names a changed example by its page's title, not its file, says « les règles de
    l’édition 3 qu’avec celles de l’édition 1 » (not « de cette édition »), and writes a
    duel line with one colon (« Avant, victoire … : 56 % »). B148: the page is in the
    book's table of contents (a ``toctree`` in the journal was refused by the external
    table of contents, and the build failed)."""
    one = snapshot(ROOT, 1)
    assert one is not None
    rules = {k: dict(v) for k, v in one.rules.items()}
    name = next(k for k, v in rules["d100"].items() if k == "parries_per_round")
    rules["d100"][name] = 2
    key = next(iter(one.outputs))
    after = Snapshot(rules, one.texts, {**one.outputs, key: one.outputs[key] + "\nautre"})
    change = Change("option-default", ("D100-PARRY-3",), "Deux parades par round.", "d100",
                    "parades_par_round", 1, 2)
    two = Edition(2, dt.date(2027, 1, 15), "Deux parades.", (change,))
    three = Edition(3, dt.date(2027, 6, 1), "Rien de plus.", ())
    page = flat(render_span(1, [two, three], one, after, duels=2))
    assert "Tous les changements de l’édition 1 à l’édition 3 réunis" in page
    assert "- **Édition 2** du 15 janvier 2027. Deux parades." in page
    assert "avec les règles de l’édition 3 qu’avec celles de l’édition 1 :" in page
    assert "cette édition" not in page
    assert f"### {{doc}}`/book/{key.split('#')[0]}`, cellule de code" in page
    assert "Les lignes qui diffèrent, « - » avant et « + » après :" in page
    assert "- Avant, victoire" in page and "Avant :" not in page
    assert "| d100 | parades par round" in page

    toc = (ROOT / "_toc.yml").read_text(encoding="utf-8")
    journal_globs = re.findall(r"glob: (book/editions/[^\s]+)", toc)
    pages = ["entre-1-et-3", "errata-1", "edition-1"]
    matched = {p for p in pages for g in journal_globs
               if fnmatch.fnmatchcase(f"book/editions/{p}", g)}
    assert matched == set(pages)  # edition-* in its part, errata-* and entre-* here
    journal = journal_page({1: Edition(1, dt.date(2026, 11, 30), "Un."),
                            2: dataclasses.replace(two), 3: three}, [1, 2, 3])
    assert "{toctree}" not in journal
    assert "{doc}`de l’édition 1 à l’édition 3 <entre-1-et-3>`" in journal.replace(
        "\u00a0", " ")


def test_b149_a_rules_history_starts_with_the_first_edition() -> None:
    """B149: the « Historique » line under a rule changed in edition 3 read « édition 3 »,
    as if the rule were new there; the first edition states every rule, so the line
    reads « édition 1, édition 3 » (edition 1's rulings already did)."""
    spec = importlib.util.spec_from_file_location(
        "escarmouche_editions_b149", BOOK / "_ext" / "escarmouche_editions.py")
    assert spec is not None and spec.loader is not None
    ext = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ext)
    ruling = Change("new-ruling", ("D100-PARRY-3",), "La parade revient chaque round.")
    dodge = Change("option-default", ("D100-DODGE-2",), "Deux esquives.", "d100",
                   "esquives_par_round", 1, 2)
    editions = {1: Edition(1, dt.date(2026, 11, 30), "Un.", (ruling,)),
                3: Edition(3, dt.date(2027, 6, 1), "Trois.", (dodge,))}
    one = snapshot(ROOT, 1)
    assert one is not None and "D100-DODGE-2" in one.texts
    told = ext.history(editions, frozenset(one.texts))
    assert told == {"D100-PARRY-3": [1], "D100-DODGE-2": [1, 3]}
    assert ext.history(editions)["D100-DODGE-2"] == [3]  # without edition 1's rules


def test_b173_a_duel_verdict_and_summary_hold_one_colon_per_clause() -> None:
    """B173: the simulated duels' sentences (edition pages, `make edition`): the paired
    verdict chained two colons (« sans changer le taux de victoire : écart … : 0 points »)
    and an interval's bound lost its decimal (« 2,8 à 3 »)."""
    from escarmouche.editions.duels import Duels, Paired

    sentences = [Duels(200, 0, 0.54, 0.471, 0.608, 2.9, 2.8, 3.0, "round").summary()]
    for paired in (Paired(80, 0, 0.0, 0.0, None), Paired(80, 7, 0.0, 0.02, None),
                   Paired(80, 7, 0.05, 0.02, None), Paired(80, 7, 0.01, 0.03, 900)):
        sentences.append(paired.verdict())
    for text in sentences:
        assert all(top_level_colons(c) <= 1 for c in clauses(text)), text
    assert "entre 2,8 et 3,0" in sentences[0]
    # the paired headline (simulation.precision.difference_sentence): « autant » for no
    # change, the difference in points with its paired half-width
    assert "gagne autant (± 2,0)" in sentences[2]
    assert "5,0 points de plus (± 2,0)" in sentences[3]


# -- R7: figures that the engine can check ---------------------------------------------------


def test_r7_the_designers_edition_example_reads() -> None:
    """R7 (B38): the edition file shown to designers (`concepteurs`) is one the engine
    reads: an option change names the option by its French key, not its engine name."""
    import tomllib

    from escarmouche.editions.data import parse_edition

    page = (BOOK / "concepteurs.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```toml\n(.*?)```", page, flags=re.S)
    changes = [b for b in blocks if "[[changements]]" in b]
    assert changes
    for block in changes:
        edition = parse_edition(tomllib.loads(block))
        assert edition.changes
