"""The book's pages read as a French rules editor would (spec/RELECTURE.md, R1–R7): what
the pages print, the « Interprétation retenue » boxes, one sense per term per system, the
figures the engine can check. Each test names the entry of ``spec/relecture-journal.md`` it
holds (« B40: … »).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
import pytest
from escarmouche import Combatant, EscarmoucheError, systems
from escarmouche.encounter import Encounter
from escarmouche.errors import FIELD_LABELS, FIELD_NOUNS, field_label, invalid
from escarmouche.systems import NAMES, get
from tests.helpers.typography import problems
from tests.helpers import ROOT, RULE_PREFIX
from tests.helpers.proofreading import (
    BOOK,
    BOOK_SRC,
    boxes_and_prose,
    clauses,
    engine_identifiers,
    engine_lines,
    notebooks,
    ruling_boxes,
    sentences,
    stored_outputs,
    top_level_colons,
    unquoted,
)


#: rulings found stated as rule text (spec/RELECTURE.md): the words that now sit in a box
BOXED = [
    # spec/relecture-journal.md: the d100 surprised's defence, stated by the demo and the comparison
    ("demos/surprise.md", "ne puissent pas non plus parer ni esquiver"),
    ("comparaison.md", "ne puissent pas non plus parer ni esquiver"),
    # spec/relecture-journal.md: the action an action point buys, stated by the d20 turn demo
    ("demos/tour-d20.md", "une action simple de plus"),
    ("d100/attaque.md", "reste 100"),
    ("d100/attaque.md", "N × 10"),
    ("rulebook/vitesse.md", "première activation du tour"),
    ("d12/critique.md", "premier terme de dés"),
    ("d100/actions.md", "lâcher un objet"),
    ("d100/parade-esquive.md", "avant"),
    ("d12/surprise.md", "ne lance pas"),
]


def _pages(system: str) -> list[Path]:
    pages = sorted((BOOK_SRC / system).glob("*.md"))
    aide = BOOK / system / "aide-memoire.md"
    return [*pages, aide] if aide.exists() else pages


# -- R2: refusals read as sentences ----------------------------------------------------------


def test_r2_book_pages_print_refusals_as_sentences() -> None:
    """R2 in the book: no page prints a raw error after « Refusé : »."""
    for page in BOOK_SRC.rglob("*.md"):
        text = page.read_text(encoding="utf-8")
        assert 'print("Refusé' not in text, page
        assert not re.search(r"print\(refus\)", text), page


# -- R3: every printed output is typeset -----------------------------------------------------


def test_r3_every_printed_output_of_the_book_is_typeset() -> None:
    """R3: what a page prints goes through the typography (the pages import
    ``typeset_print`` as ``print``), except a file shown as it is (a roster file)."""
    bad: list[str] = []
    seen = 0
    for nb in notebooks():
        for source, kind, text in stored_outputs(nb):
            if kind != "stream" or "read_text(" in source:
                continue
            for line in text.splitlines():
                seen += 1
                if problems(line):
                    bad.append(f"{nb.relative_to(BOOK)}: {line!r} {problems(line)}")
    assert seen > 50
    assert not bad, "\n".join(bad[:20])


# -- R4: no engine identifier in what a reader reads -----------------------------------------


def test_r4_no_engine_identifier_in_the_book_outputs() -> None:
    """R4: captions « rulebook.ACTIONS », option identifiers (``weakest``,
    ``surprise_aggregate``), ``random.Random(7)`` as a title, a bare ``True``: none in
    what the book's pages print or display (tables excepted: they may list what a
    reader types)."""
    identifiers = engine_identifiers()
    bad: list[str] = []
    for nb in notebooks():
        for _, _kind, text in stored_outputs(nb):
            for line in text.splitlines():
                if line.strip() in ("True", "False", "None"):
                    bad.append(f"{nb.relative_to(BOOK)}: bare {line.strip()}")
                for ident in identifiers:
                    if re.search(rf"(?<![\w.]){re.escape(ident)}(?![\w])", line):
                        bad.append(f"{nb.relative_to(BOOK)}: {ident} in {line[:100]!r}")
    assert not bad, "\n".join(sorted(set(bad))[:30])


# -- R5: every ruling is boxed, and every box ends « À la table. » --------------------------


def test_r5_every_ruling_box_ends_at_the_table() -> None:
    """R5: an « Interprétation retenue » box says what the text says, what we retain,
    the alternative, then ends with « À la table. » (one shape, so a reader finds it)."""
    boxes = list(ruling_boxes())
    assert len(boxes) > 30
    bad = [f"{p.relative_to(ROOT)}: {title}" for p, title, paras in boxes
           if not paras or not paras[-1].startswith("*À la table.*")]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(("page", "words"), BOXED)
def test_r5_rulings_sit_in_their_box(page: str, words: str) -> None:
    """R5: each of these rulings is written inside an « Interprétation retenue » box."""
    boxed = " ".join(" ".join(paras) for p, _, paras in ruling_boxes()
                     if p == BOOK_SRC / page)
    assert words in boxed.replace("\n", " "), (page, words)


# -- R6: one sense per term per system -------------------------------------------------------


@pytest.mark.parametrize("system", ["rulebook", "d12"])
def test_r6_no_round_where_the_system_has_none(system: str) -> None:
    """R6: the Rulebook and d12 count « tours »; « round » belongs to d100 and d20."""
    for page in _pages(system):
        assert not re.search(r"\bround", boxes_and_prose(page.read_text(encoding="utf-8"))), page


def test_r6_the_rulebook_says_activation_for_a_character() -> None:
    """R6: in the Rulebook a « tour » is the global turn; a character's own moment is its
    « activation » (book and engine sentences)."""
    own_turn = re.compile(r"\b(son|leur) (propre )?tour\b|tour d’un autre|tour du personnage")
    for page in _pages("rulebook"):
        assert not own_turn.search(boxes_and_prose(page.read_text(encoding="utf-8"))), page
    for line in engine_lines():
        if "RB-" in line or "Activation" in line:
            assert not own_turn.search(line), line


def test_r6_the_player_index_lists_round_for_d100_and_d20_only() -> None:
    text = (BOOK / "index-joueur.md").read_text(encoding="utf-8")
    assert "| {term}`round` | d100, d20 |" in text


# -- R7: figures that the engine can check ---------------------------------------------------


def test_r7_every_page_opens_with_its_rule_not_a_table() -> None:
    """R7: a rule page's first output is not a table and its first paragraph is not
    about the engine."""
    for page in [*BOOK_SRC.glob("rulebook/*.md"), *BOOK_SRC.glob("d1*/*.md"),
                 *BOOK_SRC.glob("d20/*.md")]:
        if page.stem in ("simulation", "tour-complet", "round-complet"):
            continue
        text = page.read_text(encoding="utf-8").split("---", 2)[-1]
        body = re.sub(r"```\{code-cell\}[^\n]*\n:tags: \[remove-cell\]\n.*?```", "", text,
                      flags=re.S)
        first = next(p for p in re.split(r"\n\s*\n", body) if p.strip()
                     and not p.lstrip().startswith("#"))
        assert "moteur" not in first.split(".")[0], (page, first[:80])
        assert not first.lstrip().startswith("```{code-cell}"), (page, first[:80])


def test_r3_no_punctuation_the_typography_cannot_fix() -> None:
    """R3: « dépensée ?, » — a question mark followed by a comma inside a sentence is
    left alone by the typography; the sentence must be rewritten."""
    pages = [*BOOK_SRC.rglob("*.md"), *BOOK.glob("*.md"), *BOOK.glob("*/*.md")]
    bad = [str(p.relative_to(ROOT)) for p in pages
           if re.search(r"[?!][\s\u202f]*,", boxes_and_prose(p.read_text(encoding="utf-8")))]
    assert not bad, bad


def test_r1_what_the_book_displays_holds_one_colon_per_clause() -> None:
    """R1 in the book: the results a page displays (journals, explanations, widgets'
    stored text; tables aside) hold one colon per clause, like the engine's log."""
    bad: list[str] = []
    for nb in notebooks():
        for source, _kind, text in stored_outputs(nb):
            if "read_text(" in source:
                continue
            for line in text.splitlines():
                bad += [f"{nb.relative_to(BOOK)}: {c}" for c in clauses(line.strip())
                        if top_level_colons(c) > 1]
    assert not bad, "\n".join(bad[:20])


def test_r6_no_calque_for_the_environment_tie() -> None:
    """R6: the seed says « en dernier en cas d’égalité »; « perd l’égalité » is a calque,
    in the book, the widgets and the engine's sentences alike."""
    calque = re.compile(r"perd(ent)?\s+(l’égalité|les\s+égalités|toutes\s+les\s+égalités)")
    places = [*BOOK_SRC.rglob("*.md"), *BOOK.glob("*.md"), *BOOK.glob("*/*.md"),
              *(ROOT / "src").rglob("*.py"), *(ROOT / "widgets").rglob("*.py")]
    bad = [str(p.relative_to(ROOT)) for p in places
           if calque.search(p.read_text(encoding="utf-8"))]
    assert not bad, bad


def test_r4_a_refused_action_is_named_by_its_label_b40() -> None:
    """B40 (R4): a known action the rules refuse now is named by its French label, never
    by its engine id: « Action « Se déplacer » refusée », not « « deplacement » » nor
    « « depenser_eclat » » (the identifier list of R4 missed them: the typeset quotes
    hold no-break spaces). The refused value stays the id (``err.value``)."""
    combat = Encounter("rulebook", [
        Combatant("Aube", "Héros", {"HAB": 60, "DIS": 50, "PMR": 50, "PV": 20, "Esprit": 10}),
        Combatant("Dague", "Bandits", {"HAB": 55, "DIS": 50, "PMR": 50, "PV": 12,
                                       "Esprit": 8}),
    ])
    combat.start(random.Random(1))
    actor = combat.state.current
    assert actor is not None
    combat.act(actor, "deplacement")
    with pytest.raises(EscarmoucheError) as refusal:
        combat.act(actor, "deplacement")
    text = str(refusal.value).replace("\u00a0", " ")
    assert text.startswith("Action « Se déplacer » refusée"), text
    assert refusal.value.value == "deplacement"
    ids: set[str] = set()
    for name in NAMES:
        system = get(name)
        ids |= {i for i, spec in system.catalogue(system.default_rules()).items()
                if spec.label.lower() != i}
    bad: list[str] = []
    for nb in notebooks():
        for _, _kind, out in stored_outputs(nb):
            out = out.replace("\u00a0", " ").replace("\u202f", " ")
            for shown_id in re.findall(r"Action « ([^»]+?) » refusée", out):
                if shown_id in ids:
                    bad.append(f"{nb.relative_to(BOOK)}: « {shown_id} »")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("system", ["d12", "d100", "d20"])
def test_r6_no_activation_outside_the_rulebook_b43_b46(system: str) -> None:
    """B43, B46 (R6): « activation » is the Rulebook's word for a character's moment to
    act; the d12, d100 and d20 pages say « tour » (the order charts' tooltips read
    « Tour 1, rang 2 : … », the d12 action box « à son tour »)."""
    bad = [f"{p.name}" for p in _pages(system)
           if "activation" in boxes_and_prose(p.read_text(encoding="utf-8")).lower()]
    for nb in sorted((BOOK / system).glob("*.ipynb")):
        for _, _kind, out in stored_outputs(nb):
            if "activation" in out.lower():
                bad.append(f"{nb.relative_to(BOOK)}: {out.strip()[:80]!r}")
    assert not bad, "\n".join(bad)


def test_r3_a_d20_roll_is_written_as_an_equality_that_holds_b48_b49() -> None:
    """B48, B49: « 1d20 = 6 + 5 = 11 » made the die worth 11, and « 1d20 +5 ≥ 10 » lost
    the space that « 7 + 3 » keeps: the d20 sentences now read « 1d20 + 5 = 6 + 5 = 11 »
    and « 1d20 + 5 ≥ 10 », in the engine's fights and on every page."""
    from escarmouche.systems.d20.narration import save_sentence

    text = save_sentence("Thorin", "Venin", 6, 5, 10, True).replace("\u00a0", " ")
    assert ": 1d20 + 5 = 6 + 5 = 11 (10 requis)" in text, text
    bad = [line for line in engine_lines() if re.search(r"1d20 = \d|1d20 [+−]\d", line)]
    for nb in notebooks():
        for _, _kind, out in stored_outputs(nb):
            bad += [f"{nb.relative_to(BOOK)}: {m}"
                    for m in re.findall(r".{0,30}1d20 (?:= \d|[+−]\d).{0,20}", out)]
    assert not bad, "\n".join(bad[:20])


def test_r4_no_python_operator_in_reader_prose_b52() -> None:
    """B52 (R4): the glossary wrote the bonuses as Python, « (E // 10) », « (F // 10) »;
    no page's text (code cells left out; boxes and the glossary kept) divides that way."""
    pages = [*BOOK_SRC.rglob("*.md"), *BOOK.glob("*.md"), *BOOK.glob("*/aide-memoire.md")]
    bad = []
    for page in sorted(pages):
        text = re.sub(r"```\{code-cell\}.*?```", "\n", page.read_text(encoding="utf-8"),
                      flags=re.S)
        bad += [f"{page.name}: {m}" for m in re.findall(r".{0,30}\w //\s*\w.{0,20}", text)]
    assert not bad, "\n".join(bad)


def test_r6_a_d20_square_is_never_an_action_slot_b64() -> None:
    """B64 (R6): the glossary keeps « case » for a square of the grid and calls the
    place of an action in a turn an « emplacement »; the d20 budget table's column read
    « Case du budget utilisée » (the engine's table, the d20 turn demo)."""
    from escarmouche.systems import d20

    headers = d20.plan_turn(["simple", "mouvement"]).table().headers
    assert "Emplacement occupé" in headers and not [h for h in headers if "Case" in h]
    bad = [nb.relative_to(BOOK).as_posix() for nb in notebooks()
           if "Case du budget" in nb.read_text(encoding="utf-8")]
    assert not bad, bad


def test_no_two_parentheses_in_a_row_before_a_rule() -> None:
    """House style (fifth pass): a reason and its rule share one parenthesis; no stored
    output of the book reads « … (réussite critique) (RB-INIT-3) »."""
    pattern = re.compile(rf"\) \({RULE_PREFIX}-[A-Z]+-\d+")
    bad = []
    for nb in sorted(BOOK.rglob("*.ipynb")):
        if ".ipynb_checkpoints" in nb.parts:
            continue
        for _, _kind, out in stored_outputs(nb):
            bad += [m.group(0) for m in pattern.finditer(out)]
    assert not bad, bad[:5]
