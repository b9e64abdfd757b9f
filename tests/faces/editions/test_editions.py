"""Editions as data (book/concepteurs.md): the edition file and its schema, edition 1 and its
rulings, the standard odds, the simulated duels, the word diff, nbval's French failures,
and a scripted second edition built end to end on a temporary copy (``tools/edition.py``),
whose « Ce qui a changé » page must list exactly its changes with the engine's odds under
each rule set. Rule IDs: CORE-ERR (refusals), CORE-RNG (same seed, same duels), and the
rules whose options the scripted edition changes (RB-D100-1, D100-ATK-5, D12-CRIT-2,
D20-END-1)."""

from __future__ import annotations

import datetime as dt
import html
import json
import re
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import systems
from escarmouche.editions import (
    Change,
    Edition,
    Snapshot,
    change_to_toml,
    duel_outcomes,
    edition_to_toml,
    load_edition,
    option_changes,
    parse_edition,
    parse_rules_text,
    rulings,
    standard_odds,
    wilson,
)
from escarmouche.editions.odds import compare, option_label, value_label
from escarmouche.editions.page import render_page, system_name, word_diff
from escarmouche.editions.repo import last_published
from escarmouche.errors import ParameterError, SaveError
from tests.helpers import ROOT
from tests.helpers.editions import (
    CHANGED,
    NEW_OUTPUT,
    OLD_OUTPUT,
    edition_1_rules,
    edition_tool,
    load_tool,
    notebook,
    review_all,
    write_words,
)
from tests.helpers.rule_ids import RULING_IDS
from tools.editions.book import book_rule_texts
from tools.editions.pages import build_pages

TOOL = edition_tool()


def _edition_3(changes: list[Any]) -> dict[str, Any]:
    """An edition file of format 3 (French keys) around ``changes``."""
    return {"format": 3, "numero": 2, "date": "2027-01-15", "resume": "Deuxième édition.",
            "changements": changes}


def _edition(**over: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"format": 1, "number": 2, "date": "2027-01-15",
                            "summary": "Deuxième édition.", "changes": [
                                {"kind": "option-default", "rules": ["D20-END-1"],
                                 "text": "Seuil 12.", "system": "d20",
                                 "option": "seuil_sauvegarde", "before": 10, "after": 12}]}
    data.update(over)
    return data


# -- the edition file --------------------------------------------------------------------


def test_edition_one_lists_every_ruling_of_the_spec() -> None:
    """Edition 1 is data: its changes are the rulings of spec/RULES.md, each a « new
    ruling », in the order of the spec (the same list the book's admonitions cover)."""
    edition = load_edition(ROOT / "editions" / "1.toml")
    assert edition.number == 1
    texts = parse_rules_text((ROOT / "spec" / "RULES.md").read_text(encoding="utf-8"))
    # the rulings edition 1 published (its snapshot states them); later ones belong to
    # later editions
    then = Snapshot.read(ROOT / "editions" / "1").texts
    assert [c.rules[0] for c in edition.changes] == [r for r in rulings(texts) if r in then]
    assert tuple(rulings(texts)) == RULING_IDS
    assert {c.kind for c in edition.changes} == {"new-ruling"}


@pytest.mark.published
def test_the_last_published_snapshot_is_the_engine_now() -> None:
    """The snapshot of the last published edition holds today's defaults and rule texts
    (a designer who changes a default without drafting an edition fails here)."""
    snap = Snapshot.read(ROOT / "editions" / str(last_published(ROOT)))
    from escarmouche.editions import current_rules

    assert snap.rules == current_rules(), (
        "les règles par défaut du moteur ne sont plus celles de l’édition publiée : "
        "« make edition » prépare l’édition suivante (ou, si ces règles font partie de "
        "l’édition en cours, « python tools/edition.py --publier --refaire »)")
    from tools.editions.book import take_snapshot

    assert snap.texts == take_snapshot(ROOT).texts, (
        "le texte d’une règle du livre a changé depuis l’édition publiée : « make "
        "edition » prépare l’édition suivante")
    assert last_published(ROOT) == max(
        int(p.stem) for p in (ROOT / "editions").glob("*.toml"))


@pytest.mark.parametrize(("over", "field"), [
    ({"number": 0}, "number"),
    ({"format": 4}, "format"),
    ({"date": "30/11/2026"}, "date"),
    ({"date": "2026-02-30"}, "date"),
    ({"changes": [{"kind": "typo", "rules": ["RB-D100-1"], "text": "x"}]}, "changes[0].kind"),
    ({"changes": [{"kind": "new-rule", "rules": ["rb-d100-1"], "text": "x"}]},
     "changes[0].rules[0]"),
    ({"changes": [{"kind": "new-rule", "rules": ["RB-D100-1"]}]}, "changes[0]"),
    ({"changes": [{"kind": "option-default", "rules": ["RB-D100-1"], "text": "x"}]},
     "changes[0]"),
    ({"extra": 1}, "extra"),
])
def test_a_bad_edition_is_refused_naming_the_field_core_err(over: dict[str, Any],
                                                            field: str) -> None:
    """CORE-ERR: a malformed edition file raises one French error naming the field."""
    with pytest.raises(SaveError) as err:
        parse_edition(_edition(**over))
    # one sentence naming the field (spec/RELECTURE.md: no « champ = valeur : »)
    assert err.value.field == field or f"«\u00a0{field}\u00a0»" in str(err.value)
    assert " = " not in str(err.value)
    assert str(err.value).endswith("(CORE-ERR).")
    assert isinstance(err.value, ValueError)


_text = st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=60
                ).filter(str.strip)


#: (option key, a value its declaration accepts) of several kinds: a bounded integer, a
#: yes/no, a value that may be « aucune » (None), a dice expression
_option_values = st.one_of(
    st.tuples(st.just("seuil_sauvegarde"), st.integers(1, 40)),
    st.tuples(st.just("action_annulee_depensee"), st.booleans()),
    st.tuples(st.just("points_action_max_par_tour"), st.none() | st.integers(1, 100)),
    st.tuples(st.just("arme_par_defaut"), st.sampled_from(["1d6", "2d8+1", "1d12-1"])),
)


@settings(max_examples=40, deadline=None)
@given(texts=st.lists(_text, min_size=0, max_size=4), summary=_text, pair=_option_values)
def test_an_edition_file_reads_back_as_written(tmp_path_factory: pytest.TempPathFactory,
                                               texts: list[str], summary: str,
                                               pair: tuple[str, Any]) -> None:
    """What tools/edition.py writes is valid TOML that reads back to the same edition
    (texts with quotes, backslashes, accents; option values of every kind the
    declarations accept, ``None`` written « aucune »)."""
    option, after = pair
    before = None if option == "points_action_max_par_tour" else after
    changes = tuple(Change("option-default", ("D20-END-1",), t, "d20", option, before,
                           after) for t in texts)
    edition = Edition(2, dt.date(2027, 1, 15), summary, changes)
    path = tmp_path_factory.mktemp("ed") / "2.toml"
    path.write_text(edition_to_toml(edition), encoding="utf-8")
    back = load_edition(path)
    expected = Edition(2, edition.date, summary, tuple(
        Change(c.kind, c.rules, c.text, c.system, c.option,
               "aucune" if c.before is None else c.before,
               "aucune" if c.after is None else c.after) for c in changes))
    assert back == expected


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                  max_size=4),
    max_leaves=12)


@settings(max_examples=100, deadline=None)
@given(st.fixed_dictionaries({}, optional={
    "format": st.just(1) | _json, "number": st.integers(-5, 1200) | _json,
    "date": st.just("2027-01-15") | st.dates().map(str) | _json,
    "summary": st.text(max_size=30) | _json,
    "changes": st.lists(st.fixed_dictionaries({}, optional={
        "kind": st.sampled_from(["new-rule", "option-default", "x"]) | _json,
        "rules": st.lists(st.sampled_from(["RB-D100-1", "x", ""]), max_size=3) | _json,
        "text": st.text(max_size=10) | _json, "system": st.just("d20") | _json,
        "option": st.just("seuil_sauvegarde") | _json, "before": _json, "after": _json,
    }), max_size=3) | _json,
}))
def test_any_edition_data_reads_or_is_refused_in_french_core_err(data: dict[str, Any]
                                                                 ) -> None:
    """CORE-ERR: whatever the file holds, it reads as an edition or raises the one
    French error (never another exception)."""
    try:
        edition = parse_edition(data)
    except SaveError as err:
        assert str(err).endswith("(CORE-ERR).")
    else:
        assert edition.number == data["number"] and len(edition.changes) == len(
            data["changes"])


def test_the_file_name_is_the_edition_number(tmp_path: Path) -> None:
    path = tmp_path / "3.toml"
    path.write_text(edition_to_toml(parse_edition(_edition())), encoding="utf-8")
    with pytest.raises(SaveError, match=r"^Valeur 2 refusée pour «\u00a0numero\u00a0»\u00a0:"
                                        r" .*3\.toml"):
        load_edition(path)


# -- odds, duels, diff -------------------------------------------------------------------


def test_standard_odds_follow_the_rules_rb_d100_1() -> None:
    """RB-D100-1: raising crit_success_max from 5 to 10 doubles the critical success
    chance of every HAB row (5 % → 10 %), changes no plain success, and is highlighted
    (both thresholds stated, whatever the edition's defaults)."""
    rb = systems.get("rulebook")
    old = standard_odds("rulebook", rb.rules_from_json({"crit_success_max": 5}))
    new = standard_odds("rulebook", rb.rules_from_json({"crit_success_max": 10}))
    diff = compare(old, new)[0]
    assert [row[1] for row in diff.cells] == [(Fraction(1, 20), Fraction(1, 10), True)] * 5
    assert all(b == a for row in diff.cells for b, a, _ in [row[0], row[2]])
    assert not compare(old, new)[1].changed


@settings(max_examples=50, deadline=None)
@given(k=st.integers(0, 200), extra=st.integers(0, 200))
def test_wilson_interval_holds_the_estimate(k: int, extra: int) -> None:
    n = k + extra
    if n == 0:
        return
    low, high = wilson(k, n)
    assert 0 <= low <= k / n <= high <= 1


def test_duels_are_reproducible_and_bounded_core_rng() -> None:
    """CORE-RNG: the same seed gives the same duels; another seed may differ; the work
    is bounded (CORE-ERR on a refused count, nothing played)."""
    rules = systems.get("rulebook").default_rules()
    a = duel_outcomes("rulebook", rules, 30, seed=5)
    assert a == duel_outcomes("rulebook", rules, 30, seed=5)
    assert a.win_low <= a.win <= a.win_high and a.rounds_low <= a.rounds <= a.rounds_high
    with pytest.raises(ParameterError, match=r"^Valeur 0 refusée pour «\u00a0duels\u00a0»\u00a0:"
                                             r" .*\(CORE-RNG\)\.$"):
        duel_outcomes("rulebook", rules, 0)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(["a", "b", "c", "<x>", "&", "é"]), max_size=12),
       st.lists(st.sampled_from(["a", "b", "c", "<x>", "&", "é"]), max_size=12))
def test_word_diff_keeps_both_texts(before: list[str], after: list[str]) -> None:
    """Dropping the inserted words gives the old text back, dropping the deleted ones the
    new text."""
    merged = word_diff(" ".join(before), " ".join(after))

    def keep(tag: str, drop: str) -> str:
        text = re.sub(rf"<{drop}>.*?</{drop}>", " ", merged)
        text = re.sub(rf"</?{tag}>", "", text)
        return " ".join(html.unescape(text).split())

    assert keep("del", "ins") == " ".join(before)
    assert keep("ins", "del") == " ".join(after)


def test_added_and_removed_options_are_changes() -> None:
    """A new option (default given) and a removed one are option changes too."""
    old = {"d20": {"save_target": 10, "gone": 3}}
    new = {"d20": {"save_target": 10, "fresh": True}}
    changes = option_changes(old, new)
    assert [(c.option, c.before, c.after) for c in changes] == [
        ("fresh", None, True), ("gone", 3, None)]
    assert changes[0].text.startswith("Nouvelle option")
    assert changes[1].text.startswith("Option retirée")


def test_option_values_read_in_french() -> None:
    assert option_label("d20", "save_target") == "seuil du jet de sauvegarde (D20-END-1)"
    assert value_label("d12", "critical_option", "explosif") != "« explosif »"
    assert value_label("d100", "surprised_can_defend", True) == "oui"


# -- the scripted second edition ---------------------------------------------------------

def test_scripted_second_edition_end_to_end(copy: Path, capsys: pytest.CaptureFixture[str]
                                            ) -> None:
    """tools/edition.py drafts edition 2 from the changed defaults, rebuilds its page;
    the page lists exactly those four changes and the changed example, with the odds and
    duels the engine gives under each rule set (RB-D100-1, D100-ATK-5, D12-CRIT-2,
    D20-END-1)."""
    assert TOOL.main(["--sans-carnets", "--duels", "12"], root=copy) == 0
    assert "Brouillon editions/2.toml\u00a0: 4 changements" in capsys.readouterr().out
    edition = load_edition(copy / "editions" / "2.toml")
    assert [(c.system, c.option, c.after) for c in edition.changes] == [
        (name, systems.get(name).option(option).key, value)
        for name, (option, value) in CHANGED.items()]
    page = (copy / "book" / "editions" / "edition-2.md").read_text(encoding="utf-8")

    # exactly the four changes, each with its French label and values
    assert page.count("### Valeur par défaut d’une option") == 4
    assert len(re.findall(r"^### ", page, flags=re.M)) == 4 + 4 + 1  # changes, systems, example
    for name, (option, value) in CHANGED.items():
        row = (f"| {system_name(name)} | {option_label(name, option)} | "
               f"{value_label(name, option, edition.changes[list(CHANGED).index(name)].before)}"
               f" | {value_label(name, option, value)} |")
        assert row in page

    # the odds: every cell as the engine computes it before and after
    for name, (option, value) in CHANGED.items():
        before = edition_1_rules(name, {})
        after = edition_1_rules(name, {option: value})
        diffs = compare(standard_odds(name, before), standard_odds(name, after))
        assert any(d.changed for d in diffs), name
        for d in diffs:
            for table_row, cells in zip(d.after.rows, d.cells, strict=True):
                for value_after, (b, a, strong) in zip(table_row[1], cells, strict=True):
                    assert value_after == a
                    cell = (f"<del>{html.escape(d.after.show(b))}</del> → "
                            f"<ins>{html.escape(d.after.show(a))}</ins>")
                    if b == a:
                        assert f"<td>{html.escape(d.after.show(a))}</td>" in page
                    elif strong:
                        assert f'<td class="esc-ed-strong"><strong>{cell}</strong></td>' in page
                    else:
                        assert f"<td>{cell}</td>" in page
        old_duels = duel_outcomes(name, before, 12, seed=2026)
        new_duels = duel_outcomes(name, after, 12, seed=2026)
        assert f"Avant, {old_duels.summary()}." in page
        assert f"Après, {new_duels.summary()}." in page

    # the book example whose stored output changed, old and new; not the other one
    assert "### {doc}`/book/exemple`, cellule de code 1" in page
    for text in (OLD_OUTPUT, NEW_OUTPUT):  # one source line per block (Markdown)
        assert html.escape(text).replace("\n", "&#10;") in page
    assert "<del>- Réussite critique : 5,0 %</del>&#10;<ins>+ Réussite critique : " \
           "10,0 %</ins>" in page
    assert "/book/autre" not in page


def test_a_redraft_keeps_what_the_designer_wrote(copy: Path) -> None:
    """Running make edition again keeps the texts and summary already written."""
    TOOL.draft(copy, today=dt.date(2027, 1, 15))
    path = copy / "editions" / "2.toml"
    edited = re.sub(r'resume = ".*"', 'resume = "Les critiques tombent plus souvent."',
                    path.read_text(encoding="utf-8"))
    edited = re.sub(r'(option = "seuil_sauvegarde"\n(?:.*\n){2})texte = ".*"',
                    r'\1texte = "Sauvegardes plus difficiles."', edited)
    path.write_text(edited, encoding="utf-8")
    again = TOOL.draft(copy, today=dt.date(2027, 1, 16))
    assert again is not None
    assert again.summary == "Les critiques tombent plus souvent."
    assert [c.text for c in again.changes if c.option == "seuil_sauvegarde"] == [
        "Sauvegardes plus difficiles."]


def test_publishing_freezes_the_edition(copy: Path) -> None:
    """--publier writes editions/2/; the page then compares the two snapshots, and a new
    draft has nothing to publish."""
    TOOL.draft(copy, today=dt.date(2027, 1, 15))
    write_words(copy / "editions" / "2.toml")
    assert review_all(copy) == ["exemple#1"]
    assert TOOL.publish(copy) == 2
    assert last_published(copy) == 2
    assert Snapshot.read(copy / "editions" / "2").rules["d20"]["save_target"] == 12
    assert TOOL.draft(copy) is None
    with pytest.raises(SystemExit, match="déjà publiée"):
        TOOL.publish(copy)
    (copy / "book" / "autre.ipynb").write_text(json.dumps(notebook("prose récrite")),
                                              encoding="utf-8")
    assert TOOL.publish(copy, again=True) == 2
    assert Snapshot.read(copy / "editions" / "2").outputs["autre#1"] == "prose récrite"
    build_pages(copy, duels=5)
    page = (copy / "book" / "editions" / "edition-2.md").read_text(encoding="utf-8")
    # the statement of D20-END-1 reads the engine: its threshold changes with the option;
    # the engine's own sentence on the option is no part of the rule (spec/relecture-journal.md)
    assert "supérieur ou égal à <del>10,</del> <ins>12,</ins> le jet est réussi" in page
    assert "est l’option" not in page.split("D20-END-1", 1)[1].split("</p>", 1)[0]
    assert "| d20 | seuil du jet de sauvegarde" in page


def test_marks_on_the_touched_rules(copy: Path) -> None:
    """The book extension marks each rule touched after edition 1, with its edition: the
    rules each option declares, and D100-TWO-2, whose statement quotes the off-hand
    modifier of D100-ATK-5 (D100-TWO-2)."""
    TOOL.draft(copy, today=dt.date(2027, 1, 15))
    sys.path.insert(0, str(ROOT / "book" / "_ext"))
    try:
        ext = load_tool("escarmouche_editions_test", ROOT / "book" / "_ext" /
                         "escarmouche_editions.py")
    finally:
        sys.path.remove(str(ROOT / "book" / "_ext"))
    from escarmouche.editions.repo import load_all

    table = ext.marks(load_all(copy))
    assert sorted(table) == ["D100-ATK-5", "D100-TWO-2", "D12-CRIT-2", "D20-END-1",
                             "RB-D100-1"]
    assert all(n == 2 for entries in table.values() for n, _ in entries)
    if max(load_all(ROOT)) == 1:
        assert ext.marks(load_all(ROOT)) == {}


def test_the_book_marks_the_touched_rules(copy: Path, tmp_path: Path) -> None:
    """A Sphinx build with the extension: the paragraph of RB-D100-1 (touched by the
    scripted edition 2) is followed by « Modifié dans l’édition 2 » and a link to its
    page; an untouched rule gets no mark; the edition 2 page is written."""
    from sphinx.application import Sphinx

    TOOL.draft(copy, today=dt.date(2027, 1, 15))
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(ROOT / 'book' / '_ext')!r})\n"
        "extensions = ['myst_parser', 'escarmouche_editions']\n"
        f"escarmouche_editions_root = {str(copy)!r}\n"
        "escarmouche_editions_duels = 3\n", encoding="utf-8")
    (src / "index.md").write_text(
        "# Règles\n\n(rb-d100-1)=\n**RB-D100-1** — Un test D100.\n\n"
        "(rb-init-1)=\n**RB-INIT-1** — L’initiative.\n", encoding="utf-8")
    out = tmp_path / "out"
    app = Sphinx(str(src), str(src), str(out), str(tmp_path / "doctrees"), "html",
                 status=None, warning=None, warningiserror=True)
    app.build()
    page = (out / "index.html").read_text(encoding="utf-8")
    marked = page.split("RB-INIT-1")[0]
    assert "Modifié dans l’édition 2" in marked
    assert "editions/edition-2.html#edition-2" in marked
    assert page.count("Modifié dans l’édition") == 1
    # the rule's history: edition 1 stated its ruling, edition 2 changed its option
    history = re.search(r'<p class="esc-edition-history">(.*?)</p>', marked, re.S)
    assert history is not None
    text = re.sub(r"<[^>]+>", "", history.group(1))
    assert text == "Historique de RB-D100-1\u00a0: édition 1, édition 2."
    assert "Historique de RB-INIT-1" not in page
    # the feed of the published editions, announced by the page
    assert 'rel="alternate" type="application/atom+xml"' in page
    assert (out / "editions.atom").is_file()
    assert (copy / "book" / "editions" / "edition-2.md").is_file()


def test_edition_one_page_lists_its_rulings_and_standard_odds() -> None:
    """The page of edition 1 (no predecessor): its rulings, then each system's standard
    odds, as the engine computes them."""
    edition = load_edition(ROOT / "editions" / "1.toml")
    snap = Snapshot.read(ROOT / "editions" / "1")
    page = render_page(edition, None, snap, duels=5)
    assert page.count("### Interprétation nouvelle") == len(RULING_IDS)
    for rule in RULING_IDS:
        assert f"{{ref}}`{rule} <{rule.lower()}>`" in page
    for name in systems.NAMES:
        # edition 1's rules, as its snapshot froze them (not the engine's now)
        rules = systems.get(name).rules_from_json(snap.rules[name])
        for table in standard_odds(name, rules):
            for _, values in table.rows:
                for v in values:
                    assert f"<td>{html.escape(table.show(v))}</td>" in page
    committed = (ROOT / "book" / "editions" / "edition-1.md").read_text(encoding="utf-8")
    head = committed.split("## Conséquences mécaniques")[0]
    assert head == page.split("## Conséquences mécaniques")[0]


def test_ruling_texts_come_from_the_book_boxes(tmp_path: Path) -> None:
    """Edition 1 quotes the book's « Interprétation retenue » box of each ruling; a
    relative {doc} link in it is made absolute, so it still works on the edition page."""
    from tools.editions.book import ruling_texts

    page = tmp_path / "book_src" / "d100" / "actions.md"
    page.parent.mkdir(parents=True)
    page.write_text(
        "(d100-act-3)=\n**D100-ACT-3** — Coûts.\n\n"
        "```{admonition} Interprétation retenue — fait de l’édition originale\n"
        ":class: tip\n\nVoir {doc}`sauts` et {doc}`la comparaison <../comparaison>`.\n"
        "```\n\n(d100-act-4)=\n**D100-ACT-4** — Rien à interpréter.\n",
        encoding="utf-8")
    assert ruling_texts(tmp_path) == {"D100-ACT-3": "Voir {doc}`/book/d100/sauts` et "
                                      "{doc}`la comparaison </book/comparaison>`."}
    book = ruling_texts(ROOT)
    assert set(RULING_IDS) <= set(book)


def test_change_snippet_is_valid_toml() -> None:
    """The Atelier's export: a [[changements]] block that an edition file accepts."""
    snippet = change_to_toml(Change("option-default", ("D20-END-1",), "« Seuil » 12\\",
                                    "d20", "seuil_sauvegarde", 10, 12))
    import tomllib

    data = tomllib.loads(snippet)
    edition = parse_edition(_edition_3(data["changements"]))
    assert edition.changes[0].after == 12 and edition.changes[0].text.endswith("\\")


# -- nbval in French, the right way round ---------------------------------------------------


def test_nbval_failure_reads_expected_then_obtained(tmp_path: Path) -> None:
    """book/conftest.py: a stored output that differs is reported as « attendu (sortie
    enregistrée) » (the stored 3) then « obtenu (moteur) » (the engine's 2), « - » for the
    stored line and « + » for the engine's."""
    shutil.copy(ROOT / "book" / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    nb = notebook("3")
    nb["cells"][0]["source"] = "print(1 + 2 - 1)"
    nb["metadata"] = {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                     "language": "python"}}
    (tmp_path / "petit.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "--nbval", "--color=no",
                          "-p", "no:cacheprovider", "petit.ipynb"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    out = run.stdout
    assert run.returncode == 1, out
    expected = out.index("attendu (sortie enregistrée")
    obtained = out.index("obtenu (moteur")
    assert expected < out.index("    3", expected) < obtained < out.index("    2", obtained)
    assert "\n- 3\n+ 2\n" in out
    assert "Reference output" not in out and "assert reference_output" not in out



# -- the Atelier ---------------------------------------------------------------------------


def test_atelier_shows_the_engine_odds_and_exports_the_change() -> None:
    """D20-END-1: in the Atelier, a save target of 12 shows the exact « n tours » odds
    before and after, as the engine computes them, and exports a change block that an
    edition file accepts."""
    import tomllib

    from escarmouche_widgets import Atelier

    atelier = Atelier("d20")
    assert "aucun changement" in atelier.result_text
    assert atelier.snippet_text == ""
    # 12, or 13 when 12 is already the save target in force
    in_force = systems.get("d20").default_rules().save_target
    target = 12 if in_force != 12 else 13
    atelier.controls["save_target"].value = target
    before = standard_odds("d20", systems.get("d20").default_rules())[0]
    after = standard_odds("d20", edition_1_rules("d20", {"save_target": target}))[0]
    for (label, old), (_, new) in zip(before.rows, after.rows, strict=True):
        shown = " | ".join([label] + [
            f"{before.show(o)} → {after.show(n)}" if o != n else after.show(n)
            for o, n in zip(old, new, strict=True)])
        assert shown in atelier.result_text
    data = tomllib.loads(atelier.snippet_text)
    edition = parse_edition(_edition_3(data["changements"]))
    # the option is named by its French key, as a person types it in an edition file
    assert [(c.system, c.option, c.before, c.after) for c in edition.changes] == [
        ("d20", "seuil_sauvegarde", in_force, target)]


def test_atelier_refuses_a_bad_value_in_french_and_keeps_the_result() -> None:
    """RB-D100-1: a critical threshold out of 0–100 is refused with the rule's French
    message; the odds and the export shown stay those of the last valid options."""
    from escarmouche_widgets import Atelier

    atelier = Atelier("rulebook")
    default = atelier.controls["crit_success_max"].value
    atelier.controls["crit_success_max"].value = int(default) + 1
    shown, snippet = atelier.result_text, atelier.snippet_text
    atelier.controls["crit_success_max"].value = 300
    # the refusal names the option by its French label, not its engine name (spec/RELECTURE.md)
    assert atelier.error_text.startswith(
        "Valeur 300 refusée pour «\u00a0plus haut jet de réussite critique du test D100\u00a0»"
        "\u00a0:")
    assert "(RB-D100-1)" in atelier.error_text
    assert (atelier.result_text, atelier.snippet_text) == (shown, snippet)
    atelier.controls["crit_success_max"].value = default
    assert atelier.error_text == "" and atelier.snippet_text == ""


def test_atelier_offers_every_scalar_option_of_each_system() -> None:
    """Every option whose value is a number, a flag or a text has its control, with its
    French label; switching the system rebuilds them."""
    from escarmouche_widgets import Atelier

    atelier = Atelier("rulebook")
    for name in systems.NAMES:
        atelier.system.value = name
        system = systems.get(name)
        defaults = system.rules_to_json(system.default_rules())
        scalar = [k for k, v in defaults.items() if not isinstance(v, list | dict)]
        assert list(atelier.controls) == scalar
        for option in scalar:
            assert atelier.controls[option].description.startswith(
                system.option(option).title)


def test_nbval_report_prefers_the_plain_text_form() -> None:
    """A table output reads as its text form; when only its HTML form changed, the HTML
    is shown (else expected and obtained would look the same)."""
    conftest = load_tool("book_conftest", ROOT / "book" / "conftest.py")

    def out(plain: str, markup: str) -> dict[str, Any]:
        return {"output_type": "execute_result", "data": {"text/plain": plain,
                                                          "text/html": markup}}

    report = conftest.french_report([out("5,0 %", "<td>5,0 %</td>")],
                                    [out("10,0 %", "<td>10,0 %</td>")])
    assert "- 5,0 %" in report and "+ 10,0 %" in report
    assert not any("<td>" in line for line in report)
    report = conftest.french_report([out("même", "<b>a</b>")], [out("même", "<i>a</i>")])
    assert "- <b>a</b>" in report and "+ <i>a</i>" in report


@pytest.mark.parametrize(("change", "refused"), [
    ({"option": "parades_par_rond"}, r"«\s?parades_par_rond\s?» refusée pour "
                                     r"«\s?changes\[0\]\.option\s?».*"
                                     r"option inconnue du système d100.*CORE-ERR"),
    ({"option": "parries_per_round"}, r"option inconnue du système d100"),
    ({"after": 150}, r"150 refusée pour «\s?changes\[0\]\.after\s?».*entre 0 et 10.*"
                     r"D100-PARRY-3"),
    ({"after": "deux"}, r"«\s?deux\s?» refusée pour «\s?changes\[0\]\.after\s?».*"
                        r"nombre entier.*D100-PARRY-3"),
    ({"system": "d6"}, r"«\s?d6\s?» refusée pour «\s?changes\[0\]\.system\s?».*"
                       r"système inconnu"),
])
def test_an_option_change_is_checked_against_the_declaration(
        change: dict[str, Any], refused: str) -> None:
    """D100-PARRY-3: an edition file's option change names a known system, an option by
    its declared French key, and values the declaration accepts; anything else is
    refused in French, naming the field (CORE-ERR)."""
    base = {"kind": "option-default", "rules": ["D100-PARRY-3"], "text": "Deux parades.",
            "system": "d100", "option": "parades_par_round", "before": 1, "after": 2}
    assert parse_edition(_edition(changes=[base])).changes[0].after == 2
    with pytest.raises(ValueError, match=refused):
        parse_edition(_edition(changes=[{**base, **change}]))


def test_a_draft_is_not_the_current_edition_unless_previewed(copy: Path) -> None:
    """CORE-ERR: the book shows the last published edition (one with its snapshot); a
    draft ``editions/2.toml`` reaches the footer only in a preview
    (``ESCARMOUCHE_APERCU=1``), marked « brouillon »; while it exists, the PDF is named
    the draft's, whatever is shown."""
    TOOL.draft(copy, today=dt.date(2027, 1, 15))
    assert (copy / "editions" / "2.toml").is_file()
    site = load_tool("escarmouche_site_test", ROOT / "book" / "_ext" / "escarmouche_site.py")
    shown = site.current_edition(copy / "editions", preview=False)
    assert (shown["number"], shown["draft"]) == ("1", False)
    assert shown["label"].startswith("édition 1 du ")
    draft = site.current_edition(copy / "editions", preview=True)
    assert (draft["number"], draft["draft"]) == ("2", True)
    assert draft["label"].startswith("brouillon de l’édition 2 du ")
    # the notebooks already show the draft's examples: the PDF is never edition 1's
    assert shown["pdf"] == draft["pdf"] == "escarmouche-brouillon-2.pdf"
    (copy / "editions" / "2.toml").rename(copy / "2.toml")
    assert site.current_edition(copy / "editions")["pdf"] == "escarmouche-edition-1.pdf"
    (copy / "2.toml").rename(copy / "editions" / "2.toml")
    (copy / "editions" / "1" / "rules.json").unlink()
    with pytest.raises(ValueError, match="aucune édition publiée"):
        site.current_edition(copy / "editions", preview=False)


def _rule_page_copy(tmp_path: Path, page: str) -> Path:
    target = tmp_path / "book_src" / page
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "book_src" / page, target)
    return target


@pytest.mark.parametrize(("page", "rule", "item", "edit"), [
    ("rulebook/vitesse.md", "RB-SPEED-3", "3. **Hyperactivité** : la seconde activation "
     "a lieu {{ rb_hyperactive_slot }}.", "3. **Hyperactivité** : la seconde activation "
     "vient à la fin du tour."),
    ("d12/critique.md", "D12-CRIT-2", "1. **Dégâts maximum**", "1. **Dégâts doublés**"),
    ("d100/actions.md", "D100-ACT-3", "| action complète | charge,",
     "| demi-action | charge,"),
    ("d100/attaque.md", "D100-ATK-2", "| 01–15 | tête |", "| 01–20 | tête |"),
])
def test_a_changed_list_item_or_table_row_is_a_changed_rule_rb_speed_3_d12_crit_2(
        tmp_path: Path, page: str, rule: str, item: str, edit: str) -> None:
    """RB-SPEED-3, D12-CRIT-2, D100-ACT-3, D100-ATK-2: a rule's statement is its whole
    text, the list or table after its first paragraph included (spec/relecture-journal.md). A later
    edition that changes one item of the list (the order of speed effects, one of the
    three critical options) or one row of the table records the rule as changed; the
    snapshot's text holds the item, and stops before the box and the page's prose."""
    from escarmouche.editions.data import rule_text_changes

    target = _rule_page_copy(tmp_path, page)
    before = book_rule_texts(tmp_path)
    assert item.split("**")[-1].strip(" |").split(",")[0] in before[rule]
    assert "Interprétation retenue" not in before[rule]
    source = target.read_text(encoding="utf-8")
    assert source.count(item) == 1
    target.write_text(source.replace(item, edit), encoding="utf-8")
    after = book_rule_texts(tmp_path)
    assert [(c.kind, c.rules) for c in rule_text_changes(before, after)] == \
        [("revised-rule", (rule,))]


def test_no_rule_of_edition_1_ends_on_a_colon_core_err() -> None:
    """CORE-ERR: edition 1's snapshot keeps each rule whole: no statement ends on the
    colon that announces its list or table (12 did, spec/relecture-journal.md)."""
    stored = json.loads((ROOT / "editions" / "1" / "rules-text.json")
                        .read_text(encoding="utf-8"))
    assert [r for r, t in stored.items() if t.rstrip().endswith(":")] == []
    assert "3. **Hyperactivité**" in stored["RB-SPEED-3"]


def test_a_rule_with_several_boxes_declares_them_all_d12_crit_2_rb_speed_3() -> None:
    """D12-CRIT-2, RB-SPEED-3 (spec/relecture-journal.md): edition 1 kept only the first box after a
    rule, so D12-CRIT-2's boxes on the added die's zero damage and on « son prochain
    tour », and RB-SPEED-3's Hypoactivité d4, were in no edition nor errata sheet. Each
    entry now holds every box of its rule, each after its subject."""
    edition = load_edition(ROOT / "editions" / "1.toml")
    texts = {c.rules[0]: c.text for c in edition.changes}
    assert texts["D12-CRIT-2"].count("*À la table.*") == 3
    assert "**Quel dé ajouter.**" in texts["D12-CRIT-2"]
    assert "**Un d4 à chaque activation.**" in texts["RB-SPEED-3"]
    for rule in ("RB-INIT-4", "RB-END-3", "D12-INIT-2"):  # turn 0, éclat, group init
        assert rule in texts
