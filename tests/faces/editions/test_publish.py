"""Publishing only what a designer wrote, and withdrawing a publication (book/concepteurs.md):
``--publier`` refuses a summary or a change text the drafting tool wrote, naming the
file and the line; ``--depublier N`` withdraws the last publication and restores the
pages as they were before it. Rule ID: CORE-ERR (the refusals)."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest

from escarmouche.editions.data import SUMMARY_PLACEHOLDER, load_edition
from escarmouche.editions.repo import last_published
from tests.helpers.editions import edition_tool, review_all, write_words

TOOL = edition_tool()


def _plain(text: str) -> str:
    return " ".join(text.replace("\u202f", " ").replace("\u00a0", " ").split())


def _line(path: Path, needle: str) -> int:
    text = path.read_text(encoding="utf-8")
    return text[: text.index(needle)].count("\n") + 1


def test_a_placeholder_summary_is_not_published_core_err(copy: Path) -> None:
    """CORE-ERR: the summary the tool wrote (« À rédiger… ») is refused, with the file and
    its line; nothing is frozen."""
    TOOL.draft(copy, today=dt.date(2027, 1, 15))
    path = copy / "editions" / "2.toml"
    assert load_edition(path).summary == SUMMARY_PLACEHOLDER
    with pytest.raises(ValueError) as err:
        TOOL.publish(copy)
    text = _plain(str(err.value))
    assert text.startswith(f"2.toml, ligne {_line(path, 'resume =')} — "), text
    assert "« resume »" in text and "rédigez le résumé" in text, text
    assert not (copy / "editions" / "2").exists()
    assert TOOL.main(["--publier"], root=copy) == 1


def test_a_generated_change_text_is_not_published_core_err(copy: Path) -> None:
    """CORE-ERR: a change whose text is still the generated sentence (an option's « … : la
    valeur par défaut passe de … », a rule's « Texte de X révisé. ») is refused, naming
    its field and line; once every text is written, the edition publishes."""
    TOOL.draft(copy, today=dt.date(2027, 1, 15))
    path = copy / "editions" / "2.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r'(?m)^resume = ".*"$', 'resume = "Des critiques plus larges."',
                           text), encoding="utf-8")
    with pytest.raises(ValueError) as err:
        TOOL.publish(copy)
    message = _plain(str(err.value))
    first = load_edition(path).changes[0]
    assert "« changements[0].texte »" in message, message
    assert message.startswith("2.toml, ligne "), message
    assert first.text.strip()[:30] in message
    write_words(path)
    review_all(copy)
    assert TOOL.publish(copy) == 2


def test_withdrawing_the_last_publication_restores_the_pages_core_err(
        copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CORE-ERR: ``--depublier 2`` removes edition 2's snapshot, its file is a draft again
    and its pages are as they were before publishing; only the last publication can be
    withdrawn, never edition 1, and not while a later draft exists."""
    assert TOOL.main(["--sans-carnets", "--duels", "3"], root=copy) == 0
    pages = copy / "book" / "editions"
    before = {p.name: p.read_bytes() for p in pages.glob("*.md")}
    write_words(copy / "editions" / "2.toml")
    review_all(copy)
    assert TOOL.main(["--publier", "--duels", "3"], root=copy) == 0
    assert last_published(copy) == 2
    draft_text = (copy / "editions" / "2.toml").read_text(encoding="utf-8")
    # not the last one, the first one
    assert TOOL.main(["--depublier", "1", "--duels", "3"], root=copy) == 1
    assert "n’est pas la dernière publiée (la dernière est la 2)" in _plain(
        capsys.readouterr().err)
    (copy / "editions" / "3.toml").write_text(draft_text.replace("number = 2", "number = 3"),
                                              encoding="utf-8")
    assert TOOL.main(["--depublier", "2", "--duels", "3"], root=copy) == 1
    assert "editions/3.toml suit l’édition 2" in _plain(capsys.readouterr().err)
    (copy / "editions" / "3.toml").unlink()
    capsys.readouterr()
    assert TOOL.main(["--depublier", "2", "--duels", "3"], root=copy) == 0
    out = _plain(capsys.readouterr().out)
    assert "Édition 2 retirée" in out and "la dernière édition publiée est la 1" in out
    assert last_published(copy) == 1
    assert not (copy / "editions" / "2").exists()
    assert (copy / "editions" / "2.toml").read_text(encoding="utf-8") == draft_text
    # the journal and the page of edition 2 are those of the draft again (the summary
    # aside, which the designer wrote in between)
    after = {p.name: p.read_bytes() for p in pages.glob("*.md")}
    assert set(after) == set(before)
    assert "brouillon" in after["journal.md"].decode().lower()
    with pytest.raises(SystemExit, match="L’édition 1 ne se retire pas"):
        TOOL.withdraw(copy, 1)


def test_examples_whose_output_changed_are_reread_before_publishing_core_err(
        copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CORE-ERR: an example whose output changed on a page whose text the edition did not
    touch is listed « à relire » by make edition, with its old and new lines; publishing
    refuses until the designer answers, by marking it read in the edition file
    (``reviewed``, format 2) — the file written then still loads, and a format-1 file
    still loads too."""
    assert TOOL.main(["--sans-carnets", "--duels", "3"], root=copy) == 0
    out = _plain(capsys.readouterr().out)
    assert ("À relire avant de publier : exemple#1 : la sortie a changé, le texte de la "
            "page non ; avant « Réussite critique : 5,0 % » ; après « Réussite critique : "
            "10,0 % »") in out, out
    path = copy / "editions" / "2.toml"
    write_words(path)
    with pytest.raises(SystemExit, match=r"1 exemple à relire") as err:
        TOOL.publish(copy)
    assert "« relus » dans editions/2.toml" in _plain(str(err.value.code))
    assert not (copy / "editions" / "2").exists()
    assert review_all(copy) == ["exemple#1"]
    edition = load_edition(path)
    assert edition.reviewed == ("exemple#1",) and "format = 3" in path.read_text("utf-8")
    assert load_edition(copy / "editions" / "1.toml").reviewed == ()
    assert TOOL.publish(copy) == 2


def test_stale_prose_is_found_in_every_form_it_is_written_core_err() -> None:
    """CORE-ERR, D20-IMM-1, RB-SURPRISE-2: a changed option is looked for by its label
    (even one ending in « ) », which ``\\b`` never matched), the label's short forms and
    the words its rule's box uses: a hand-written statement that still describes the old
    default is a contradiction, one that reads the new value is not."""
    from escarmouche.editions.data import Change, Snapshot
    from tests.helpers import ROOT
    from tools.editions.prose import contradictions
    from tools.editions.workflow import printed_boxes

    boxes = printed_boxes(ROOT)
    immediate = Change("option-default", ("D20-IMM-1",), "x", "d20",
                       "retour_action_immediate", "debut_de_son_tour", "debut_du_round")
    stale = Snapshot({}, {"D20-IMM-1": "Le droit revient au début de son propre tour "
                                       "(édition originale)."}, {})
    found = contradictions(stale, stale, [immediate])
    assert [c.rule for c in found] == ["D20-IMM-1"]
    assert "« au début de son propre tour (édition originale) »" in _plain(found[0].reason)
    fresh = Snapshot({}, {"D20-IMM-1": "Le droit revient au début de chaque round."}, {})
    assert contradictions(fresh, fresh, [immediate]) == []

    surprise = Change("option-default", ("RB-SURPRISE-2",), "x", "rulebook",
                      "valeur_groupe_surprise", "plus_faible", "moyenne")
    by_hand = Snapshot({}, {"RB-SURPRISE-2": "Par défaut, les attaquants testent la plus "
                                             "faible DIS de leur groupe."}, {})
    # the book's box, as it prints under « plus_faible » (pinned: not the engine's default)
    box = {"RB-SURPRISE-2": re.sub(r"(chaque groupe est )[^.]*\.", "\\1défavorable aux "
                                   "attaquants : leur DIS la plus basse contre la PMR la "
                                   "plus haute des défenseurs.", boxes["RB-SURPRISE-2"])}
    reasons = [c.reason for c in contradictions(by_hand, by_hand, [surprise], boxes=box)]
    assert ["l’énoncé" in r for r in reasons] == [True, False]
    assert "la plus faible DIS" in reasons[0]
    # a box whose « par défaut » still names the old value is stale too
    old_box = {"RB-SURPRISE-2": '- par défaut, **défavorable aux attaquants** : la plus '
                                'faible DIS (`"plus_faible"`) ;\n- ou **la moyenne** '
                                '(`"moyenne"`).'}
    empty = Snapshot({}, {}, {})
    assert [c.rule for c in contradictions(empty, empty, [surprise], boxes=old_box)] == [
        "RB-SURPRISE-2"]


def test_a_rewording_is_a_clarification_apart_from_errata_core_err() -> None:
    """CORE-ERR: a change of kind « clarification » (format 2) is printed under
    « Reformulations » apart from the errata, counted apart, marks no rule « Modifié »;
    a revised statement's new wording is printed on the errata sheet; a draft whose
    rewording the designer re-kinded as a clarification keeps it once."""
    import datetime as dt
    import importlib.util
    import sys

    from escarmouche.editions.data import Change, Edition, edition_to_toml, parse_edition
    from tests.helpers import ROOT
    from tools.editions.sheets import counts, errata_page
    from tools.editions.workflow import merge_written

    worded = Change("clarification", ("D12-INIT-5",), "Le texte dit mieux la même règle.")
    revised = Change("revised-rule", ("D12-INIT-3",), "Les listes se comparent autrement.")
    edition = Edition(2, dt.date(2027, 1, 15), "Relecture.", (revised, worded))
    texts = {"D12-INIT-3": "Nouvel ordre des listes.", "D12-INIT-5": "L’environnement joue "
             "en dernier à 12."}
    sheet = _plain(errata_page(edition, texts=texts))
    assert sheet.index("**Errata") < sheet.index("**Reformulations : le texte change, pas "
                                                 "la règle**")
    assert "Nouvel énoncé de D12-INIT-3 : « Nouvel ordre des listes. »" in sheet
    assert counts(edition) == "1 erratum et 1 reformulation"
    again = parse_edition(__import__("tomllib").loads(edition_to_toml(edition)))
    assert again == edition
    sys.path.insert(0, str(ROOT / "book" / "_ext"))
    try:
        spec = importlib.util.spec_from_file_location(
            "escarmouche_editions_h42", ROOT / "book" / "_ext" / "escarmouche_editions.py")
        assert spec and spec.loader
        ext = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(ext)
    finally:
        sys.path.remove(str(ROOT / "book" / "_ext"))
    assert set(ext.marks({2: edition})) == {"D12-INIT-3"}
    fresh = [Change("revised-rule", ("D12-INIT-5",), "Texte de D12-INIT-5 révisé.")]
    assert merge_written(fresh, (worded,)) == [worded]


def test_a_safety_bound_is_listed_apart_from_the_rules_d12_init_6() -> None:
    """D12-INIT-6: a change of a safety bound (``option(bound=…)``) is not an erratum of
    the rules: the errata sheet and the counts list it apart; an example that shows a
    chart is told « [graphique] », never by its repr."""
    import datetime as dt

    from escarmouche.editions.data import Change, Edition
    from tools.editions.book import _cell_text
    from tools.editions.sheets import counts, errata_page, sorted_changes

    cap = Change("option-default", ("D12-INIT-3", "D12-INIT-6"), "Cinq relances.", "d12",
                 "relances_initiative_max", 20, 5)
    parry = Change("option-default", ("D100-PARRY-3",), "Deux parades.", "d100",
                   "parades_par_round", 1, 2)
    edition = Edition(2, dt.date(2027, 1, 15), "Bornes.", (cap, parry))
    assert [k for k, _ in sorted_changes(edition)] == ["errata", "bornes"]
    assert counts(edition) == "1 erratum et 1 borne de sûreté"
    sheet = _plain(errata_page(edition))
    assert sheet.index("Cinq relances") > sheet.index("**Bornes de sûreté : le moteur")
    svg = [{"output_type": "display_data", "data": {
        "image/svg+xml": "<svg/>", "text/plain": "<IPython.core.display.SVG object>"}}]
    assert _cell_text(svg) == "[graphique]"


def test_an_out_of_range_declaration_is_one_french_line_core_err() -> None:
    """CORE-ERR: a default that its own declaration refuses (a designer's typo in
    rules.py) stops with one French line naming the file and the line of the
    declaration, not a traceback through every import; a caller's bad value is still
    the usual refusal."""
    import dataclasses
    import inspect

    from escarmouche.errors import ParameterError
    from escarmouche.options import check_options, option
    from escarmouche.systems import d12

    @dataclasses.dataclass(frozen=True)
    class Faulty:
        cap: int = option(5000, label="relances au plus", key="relances", lo=1, hi=1000)

        def __post_init__(self) -> None:
            check_options(self)

    with pytest.raises(SystemExit) as err:
        Faulty()
    text = _plain(str(err.value.code))
    line = inspect.getsourcelines(Faulty)[1] + 2  # the decorator, then the class
    assert text.startswith(f"escarmouche : {__file__}, ligne {line} — "), text
    assert "relances" in text and "\n" not in text
    with pytest.raises(ParameterError, match="relances au plus"):
        d12.Rules(max_initiative_rerolls=0)


def test_the_previous_pdf_is_built_when_missing_then_archived(copy: Path) -> None:
    """Publishing archives the previous edition's PDF; when it is neither archived nor
    built, the builder given (the CLI's: the steps of make book) is asked for it once
    every check passed, then it is archived; never when it is there."""
    from tools.editions.workflow import pdf_missing, pdf_name

    TOOL.draft(copy, today=dt.date(2027, 1, 15))
    write_words(copy / "editions" / "2.toml")
    review_all(copy)
    built = copy / "_build" / "html" / pdf_name(1)
    asked: list[int] = []

    def build(number: int) -> None:
        asked.append(number)
        built.parent.mkdir(parents=True, exist_ok=True)
        built.write_bytes(b"%PDF-1.7 edition 1")

    assert pdf_missing(copy, 1)
    assert TOOL.publish(copy, build_pdf=build) == 2
    assert asked == [1]
    assert (copy / "editions" / "1" / pdf_name(1)).read_bytes() == b"%PDF-1.7 edition 1"
    assert not pdf_missing(copy, 1)
