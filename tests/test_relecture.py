"""The proofreading pass (spec/RELECTURE.md): what a French rules editor checks, held by tests.

Each test names the entry of ``spec/RELECTURE.md`` it holds (R1, R2 …). The checks read
what a reader sees: the engine's sentences (golden fights and seeded fights), its
refusals, the book's sources and the outputs stored in its notebooks. They do not
re-derive the typography (``tests/test_typography.py`` does): they hold the faults a
typography function cannot see.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from escarmouche import Combatant, EscarmoucheError
from escarmouche.encounter import Encounter
from escarmouche.errors import FIELD_LABELS, FIELD_NOUNS, field_label, invalid
from escarmouche.systems import NAMES, get
from tests import golden_runner
from tests.test_typography import problems

ROOT = Path(__file__).resolve().parent.parent
BOOK_SRC = ROOT / "book_src"
BOOK = ROOT / "book"

# -- helpers ------------------------------------------------------------------------------


def top_level_colons(clause: str) -> int:
    """The colons of ``clause`` outside « » and ( ) (a quoted value or an aside may hold
    its own), times such as 12:30 left out."""
    depth = quote = count = 0
    for i, ch in enumerate(clause):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch == "«":
            quote += 1
        elif ch == "»":
            quote = max(0, quote - 1)
        elif ch == ":" and not depth and not quote:
            if 0 < i < len(clause) - 1 and clause[i - 1].isdigit() and clause[i + 1].isdigit():
                continue
            count += 1
    return count


def clauses(line: str) -> Iterator[str]:
    """The clauses of a log line: its sentences, cut at « ; » (the journal's rule list
    in brackets dropped)."""
    line = re.sub(r" \[[A-Z0-9, -]+\]$", "", line)
    for sentence in re.split(r"(?<=[.!?])\s+(?=[A-ZÀ-Ý«])", line):
        yield from re.split(r"[\s\u00a0\u202f];\s", sentence)


def engine_lines() -> list[str]:
    """Every event of the golden fights, and of a few seeded fights of each system."""
    lines: list[str] = []
    for name in NAMES:
        system = get(name)
        for fight in golden_runner.load(name)["fights"]:
            enc, _ = golden_runner.play(system, fight)
            lines += [e.text for e in enc.log]
            roster = [Combatant.from_json(c) for c in fight["roster"]]
            for seed in range(3):
                other = Encounter(system, roster,
                                  rules=system.rules_from_json(fight.get("rules", {})))
                try:
                    other.run(random.Random(seed), max_turns=6)
                except EscarmoucheError as err:
                    lines.append(str(err))
                lines += [e.text for e in other.log]
    return lines


def notebooks() -> list[Path]:
    return sorted(p for p in BOOK.rglob("*.ipynb") if "_build" not in p.parts
                  and ".ipynb_checkpoints" not in p.parts)


def stored_outputs(nb: Path) -> Iterator[tuple[str, str, str]]:
    """(cell source, kind, text) of each stored output a reader sees: ``stream`` (what a
    cell prints) or ``html`` (a result shown as HTML; tables cut out, since a table may
    list identifiers a reader types)."""
    data = json.loads(nb.read_text(encoding="utf-8"))
    for cell in data["cells"]:
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        for out in cell.get("outputs", []):
            if out.get("output_type") == "stream" and out.get("name") == "stdout":
                yield source, "stream", "".join(out["text"])
            html = out.get("data", {}).get("text/html")
            if html:
                text = "".join(html) if isinstance(html, list) else html
                text = re.sub(r"<table.*?</table>", " ", text, flags=re.S)
                text = re.sub(r"<style.*?</style>|<script.*?</script>", " ", text, flags=re.S)
                yield source, "html", re.sub(r"<[^>]+>", "\n", text)


def prose(markdown: str) -> str:
    """The prose of a MyST page: code cells, fenced code, inline code, roles' targets
    and directives' options removed."""
    text = re.sub(r"```.*?```", "\n", markdown, flags=re.S)
    text = re.sub(r"`[^`]*`", "x", text)
    return re.sub(r"^:[a-z-]+:.*$", "", text, flags=re.M)


def boxes_and_prose(markdown: str) -> str:
    """What a reader reads on a MyST page, boxes and glossary entries included (``prose``
    drops every fenced block, the « Interprétation retenue » boxes with the code): the
    code cells removed, and inline code."""
    text = re.sub(r"```\{code-cell\}.*?```", "\n", markdown, flags=re.S)
    return re.sub(r"(?<!\})`[^`\n]*`", "x", text)


# -- R1: one colon per clause in what the engine writes -------------------------------------


def test_r1_engine_sentences_hold_one_colon_per_clause() -> None:
    """R1: « Fin du combat : victoire : … », « Thorin : Attaquer (…) : … » and the like
    are gone; every clause of every event has at most one colon of its own."""
    bad = sorted({c for line in engine_lines() for c in clauses(line)
                  if top_level_colons(c) > 1})
    assert not bad, "\n".join(bad[:20])


# -- R2: refusals read as sentences ----------------------------------------------------------


def _refusals() -> list[EscarmoucheError]:
    errors: list[EscarmoucheError] = []
    cases: list[Callable[[], Any]] = [
        lambda: invalid("ligne_de_vue", False, "D100-RANGED-3", "il faut voir sa cible"),
        lambda: invalid("elan", 3, "D100-JUMP-2", "il faut 4 m d’élan"),
        lambda: invalid("cible_engagee", True, "D100-RANGED-4", "exemple"),
    ]
    for make in cases:
        errors.append(make())
    enc = Encounter("d20", [Combatant("A", "x", {"PV": 5}), Combatant("B", "y", {"PV": 5})])
    enc.start(random.Random(1), positions={"A": [0, 0], "B": [3, 0]})
    for action, params in (("attaquer", {"cible": "B"}), ("voler", {}),
                           ("attaquer", {"cible": "Personne"})):
        try:
            enc.act(str(enc.current), action, random.Random(2), **params)
        except EscarmoucheError as err:
            errors.append(err)
    return errors


def test_r2_refusals_read_as_sentences_with_french_labels() -> None:
    """R2: a refusal shown to a reader names the field by its French label, in one
    sentence with one colon, never « champ = valeur : »."""
    errors = _refusals()
    assert len(errors) >= 5
    for err in errors:
        text = err.refusal()
        assert text[:1].isupper() and text.endswith("."), text
        assert " = " not in text, text
        assert top_level_colons(next(clauses(text))) == 1, text
        assert all(top_level_colons(c) <= 1 for c in clauses(text)), text
        if err.field:
            assert "_" not in field_label(err.field), err.field
            noun = FIELD_NOUNS.get(err.field, ("",))[0]
            assert f"«\u00a0{field_label(err.field)}\u00a0»" in text or (
                noun and text.lower().startswith(noun)), text
        assert str(err) == text  # the message is the sentence itself (spec/RELECTURE.md)
        assert not problems(text), (text, problems(text))


def _fuzzed_refusals() -> list[EscarmoucheError]:
    """The refusals of a broad, fixed sample: every fuzz target (dice, saves, rosters,
    edition files, widget boxes, actions, start options, rules) on 25 generated inputs
    (``tests.fuzz_targets.sampled_refusals``, shared with the typography test), and the
    widgets' number boxes on what a reader types."""
    from escarmouche_widgets._parse import NumberField, parse_number

    from tests.fuzz_targets import sampled_refusals

    errors = list(sampled_refusals())
    field = NumberField("blessures (B)", 0, 1000, "D100-ATK-3")
    for typed in ("12,5", "12.5", "-3", "99999999999", "abc", "", "1e3"):
        try:
            parse_number(typed, field)
        except EscarmoucheError as err:
            errors.append(err)
    return errors


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+(?=[A-ZÀ-Ý«])", text) if s]


def _unquoted(text: str) -> str:
    """``text`` without what « » quote (a value a user typed may hold anything)."""
    return re.sub(r"«[^«»]*»", "« »", text)


def test_r2_no_refusal_keeps_the_debugging_shape() -> None:
    """R2 over a broad sample (the fuzz targets' refusals): no « champ = valeur : », and
    no sentence with two colons (« Refusé : combat = terminé (victoire : …) : … »), in
    the message or in the refusal a widget shows; each names its rule."""
    errors = _fuzzed_refusals()
    assert len(errors) > 300
    kinds = {type(err).__name__ for err in errors}
    assert {"ParameterError", "DiceError", "SaveError", "RosterError"} <= kinds, kinds
    bad: list[str] = []
    for err in errors:
        for text in {str(err), err.refusal()}:
            plain = _unquoted(text)
            if " = " in plain or any(top_level_colons(s) > 1 for s in _sentences(plain)):
                bad.append(text)
            elif err.rule and err.rule not in text:
                bad.append(f"{text} [no {err.rule}]")
        if not err.refusal().endswith((".", "?", "!")):
            bad.append(err.refusal())
    assert not bad, "\n".join(sorted(set(bad))[:30])


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


def _identifiers() -> set[str]:
    """Engine names a reader must never see in a result: option names and the
    identifiers of option values (the reader sees their labels), a few parameter names
    with underscores, the engine's own spellings."""
    names: set[str] = {"random.Random(", "DEFAULT_ACTIONS", "rulebook.ACTIONS",
                       "cible_engagee", "ligne_de_vue", "tireur_engage", "anti_surprise",
                       "« deplacement »", "elan ="}
    for name in NAMES:
        for option in get(name).options():
            if "_" in option.name:
                names.add(option.name)
            values = {**option.labels, **(option.choices or {})}
            for value in values:
                english = {"weakest", "leader", "mean", "consecutive"}
                if isinstance(value, str) and ("_" in value or value in english):
                    names.add(value)
    return names


def test_r4_no_engine_identifier_in_the_book_outputs() -> None:
    """R4: captions « rulebook.ACTIONS », option identifiers (``weakest``,
    ``surprise_aggregate``), ``random.Random(7)`` as a title, a bare ``True``: none in
    what the book's pages print or display (tables excepted: they may list what a
    reader types)."""
    identifiers = _identifiers()
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


def test_r4_no_engine_identifier_in_the_engine_sentences() -> None:
    """R4 in the log: no option identifier or parameter name in an event."""
    identifiers = _identifiers() - {"elan ="}
    bad = sorted({f"{ident}: {line}" for line in engine_lines() for ident in identifiers
                  if re.search(rf"(?<![\w.]){re.escape(ident)}(?![\w])", line)})
    assert not bad, "\n".join(bad[:20])


# -- R5: every ruling is boxed, and every box ends « À la table. » --------------------------


def _boxes() -> Iterator[tuple[Path, str, list[str]]]:
    for page in sorted([*BOOK_SRC.rglob("*.md"), *BOOK.glob("*.md"), *BOOK.glob("*/*.md")]):
        text = page.read_text(encoding="utf-8")
        for m in re.finditer(r"```\{admonition\} (Interprétation retenue[^\n]*)\n(.*?)\n```",
                             text, re.S):
            paras = [p.strip() for p in re.split(r"\n\s*\n", m.group(2))
                     if p.strip() and not p.startswith(":class")]
            yield page, m.group(1), paras


def test_r5_every_ruling_box_ends_at_the_table() -> None:
    """R5: an « Interprétation retenue » box says what the text says, what we retain,
    the alternative, then ends with « À la table. » (one shape, so a reader finds it)."""
    boxes = list(_boxes())
    assert len(boxes) > 30
    bad = [f"{p.relative_to(ROOT)}: {title}" for p, title, paras in boxes
           if not paras or not paras[-1].startswith("*À la table.*")]
    assert not bad, "\n".join(bad)


#: rulings the issue found stated as rule text: the words that now sit in a box
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


@pytest.mark.parametrize(("page", "words"), BOXED)
def test_r5_rulings_sit_in_their_box(page: str, words: str) -> None:
    """R5: each of these rulings is written inside an « Interprétation retenue » box."""
    boxed = " ".join(" ".join(paras) for p, _, paras in _boxes()
                     if p == BOOK_SRC / page)
    assert words in boxed.replace("\n", " "), (page, words)


# -- R6: one sense per term per system -------------------------------------------------------


def _pages(system: str) -> list[Path]:
    pages = sorted((BOOK_SRC / system).glob("*.md"))
    aide = BOOK / system / "aide-memoire.md"
    return [*pages, aide] if aide.exists() else pages


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

_NUMBERS = {"Cent": 100, "Deux cents": 200, "Trois cents": 300, "Cinq cents": 500,
            "Mille": 1000, "Dix mille": 10_000}


@pytest.mark.parametrize("system", ["rulebook", "d100", "d12", "d20"])
def test_r7_simulation_pages_say_the_count_they_run(system: str) -> None:
    """R7: « Deux cents combats, graine 1 » above a cell that runs 200."""
    text = (BOOK_SRC / system / "simulation.md").read_text(encoding="utf-8")
    said = re.search(r"(\w+(?: \w+)?) combats, graine 1", text)
    run = re.search(r"simulate\(effectifs, ([\d_]+), seed=1\)", text)
    assert said and run
    assert _NUMBERS[said.group(1)] == int(run.group(1))


def test_r7_the_rulebook_simulation_names_its_variant() -> None:
    """R7: the automatic hit is a variant, not in the text: the page's stored balance
    says so, with each fighter's declared die."""
    nb = json.loads((BOOK / "rulebook" / "simulation.ipynb").read_text(encoding="utf-8"))
    shown = json.dumps([c.get("outputs", []) for c in nb["cells"]], ensure_ascii=False)
    assert "Variante hors texte" in shown and "Aldric 1d6 et Grolk 1d8" in shown
    assert "Interprétation retenue — une variante de simulation, hors texte" in (
        BOOK_SRC / "rulebook" / "simulation.md").read_text(encoding="utf-8")


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


@pytest.mark.parametrize("name", ["d12", "d100", "d20", "rulebook"])
def test_r1_initiative_explanations_with_ties_hold_one_colon_per_clause(name: str) -> None:
    """R1 where the golden fights have no tie: each system's initiative, explained
    with every tie broken by a roll-off."""
    from escarmouche.dice import ScriptedRolls
    from escarmouche.systems import d12, d20, d100, rulebook

    stats = {"d12": {}, "d20": {}, "d100": {"Ag": 30},
             "rulebook": {"HAB": 50, "DIS": 50, "PMR": 50, "PV": 5, "Esprit": 5}}[name]
    roster = [Combatant(n, side, dict(stats)) for n, side in
              (("A", "x"), ("B", "x"), ("C", "y"), ("D", "y"))]
    dice = [5, 5, 5, 5, 3, 9, 2, 7, 1, 4, 6, 8] * 3
    makers: dict[str, Callable[[], Any]] = {
        "d12": lambda: d12.initiative(roster, ScriptedRolls(dice)),
        "d20": lambda: d20.roll_initiative(roster, ScriptedRolls(dice)),
        "d100": lambda: d100.roll_initiative(roster, ScriptedRolls(dice)),
        "rulebook": lambda: rulebook.initiative(roster, ScriptedRolls(
            [30, 30, 30, 30, 40, 60, 20, 80, 10, 90]))}
    init = makers[name]()
    if name == "d100":
        from escarmouche.systems.d100.narration import initiative_sentence

        lines: list[str] = [initiative_sentence(init)]
    elif name == "d12":
        lines = list(init.narration())
    else:
        explained = init.explain()
        lines = list(explained) if isinstance(explained, list) else [str(explained)]
    text = " ".join(lines)
    assert "départag" in text or "égalit" in text.lower()
    bad = [c for c in clauses(text) if top_level_colons(c) > 1]
    assert not bad, bad


def test_r2_weapon_refusals_say_the_expression_once() -> None:
    """R2 (B21): a malformed weapon is named once, with one colon per clause."""
    from escarmouche.systems.d12.rules import check_weapon

    with pytest.raises(EscarmoucheError) as err:
        check_weapon("1d8+", "Grolk")
    text = err.value.refusal()
    assert text.count("1d8+") == 1, text
    assert all(top_level_colons(c) <= 1 for c in clauses(text)), text


def test_r6_no_calque_for_the_environment_tie() -> None:
    """R6: the seed says « en dernier en cas d’égalité »; « perd l’égalité » is a calque,
    in the book, the widgets and the engine's sentences alike."""
    calque = re.compile(r"perd(ent)?\s+(l’égalité|les\s+égalités|toutes\s+les\s+égalités)")
    places = [*BOOK_SRC.rglob("*.md"), *BOOK.glob("*.md"), *BOOK.glob("*/*.md"),
              *(ROOT / "src").rglob("*.py"), *(ROOT / "widgets").rglob("*.py")]
    bad = [str(p.relative_to(ROOT)) for p in places
           if calque.search(p.read_text(encoding="utf-8"))]
    assert not bad, bad


def test_r4_refusals_name_engine_fields_by_a_french_label() -> None:
    """R4 in the refusals (B31): a field whose engine name is an identifier with an
    underscore (« action_points », « surprise_by ») is named by a French label — its
    option's declared label, an explicit one, or ``errors.FIELD_LABELS`` — never by the
    engine name with spaces (« action points »), nor by an English word."""
    english = re.compile(r"\b(unaware|environment|stat|slot|weapon|default|by|max|min)\b")
    bad: set[str] = set()
    for err in _fuzzed_refusals():
        field, label = err.field, err.label
        if not isinstance(field, str) or not label:
            continue
        if re.fullmatch(r"[a-z][a-z0-9_]*_[a-z0-9_]*", field) and label == field.replace(
                "_", " ") and field not in FIELD_LABELS:
            bad.add(f"{field} → {label}")
        if re.fullmatch(r"[a-z][a-z0-9_ ]*", label) and english.search(label):
            bad.add(f"{field} → {label}")
    assert not bad, sorted(bad)


def test_r2_option_kind_and_speed_effect_refusals_read_right() -> None:
    """R2 (B29, B32): a list option given a number says « une liste est attendue »
    (agreement), and a speed effect ending before it starts names no engine field
    (« avant first_turn = 3 » before)."""
    from escarmouche.systems import rulebook as rb

    with pytest.raises(EscarmoucheError) as err:
        rb.SYSTEM.rules_from_json({"extra_traits": 3})
    assert "une liste est attendue" in str(err.value), str(err.value)
    with pytest.raises(EscarmoucheError) as err:
        rb.speed_effect("Grolk", "depasse", first_turn=3, last_turn=2)
    text = str(err.value)
    assert "first_turn" not in text.replace("(last_turn)", "") and " = " not in text, text
    assert "le dernier tour ne peut précéder le premier" in text


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


def test_r1_a_refused_shot_names_its_action_once_b42() -> None:
    """B42 (R1): a charge with a bow read « Action « charge » refusée : « charge » : un
    tir se fait par une attaque standard » (the action twice, a second colon)."""
    from tests._d100_helpers import BRUNE, GROLK, started

    enc = started([BRUNE, GROLK], [9, 1], equipement={"Brune": {"directrice": "arc"}})
    with pytest.raises(EscarmoucheError) as refusal:
        enc.act("Brune", "charge", random.Random(1), cible="Grolk", distance=5)
    text = str(refusal.value).replace("\u00a0", " ")
    assert text == ("Action « charge » refusée : un tir se fait par une attaque standard "
                    "(D100-ACT-3)."), text


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


@pytest.mark.parametrize("system", ["rulebook", "d12", "d100", "d20"])
def test_r6_the_trackers_next_button_speaks_its_systems_words_b43(system: str) -> None:
    """B43 (fourth pass, again in the tracker): the button that ends one fighter's moment
    to act says « activation » only in the Rulebook; it follows the system chosen, and
    the undo history names the step with the same words."""
    from escarmouche_widgets.tracker import CombatTracker

    tracker = CombatTracker("rulebook" if system != "rulebook" else "d20")
    tracker.system.value = system
    label = tracker.next_button.description
    assert ("activation" in label.lower()) == (system == "rulebook"), label
    assert label == get(system).next_label
    moments = [text for text, _ in tracker.effect_timing.options]
    assert any("activation" in m for m in moments) == (system == "rulebook"), moments
    assert tracker.start()
    assert tracker.next_activation()
    assert tracker.history.undo_label == label


def test_r1_the_d12_ambush_names_the_attacking_side_b47() -> None:
    """B47: « Embuscade de « Gobelins » » (no article before a side's name) now reads
    « Embuscade du camp « Gobelins » », as the fight's log does."""
    from escarmouche.dice import ScriptedRolls
    from escarmouche.systems import d12
    from escarmouche.systems.d12.narration import initiative_lines

    roster = [Combatant("Bérénice", "Compagnie", {"init": 0}, traits={"alerte"}),
              Combatant("Gobelin 1", "Gobelins", {"init": 1})]
    init = d12.initiative(roster, ScriptedRolls([9, 7, 5, 2]), ambush_by="Gobelins")
    text = " ".join(initiative_lines(init)).replace("\u00a0", " ")
    assert ("Embuscade du camp « Gobelins » (D12-SURPRISE-1, D12-SURPRISE-2) : tour "
            "bonus") in text, text


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


def test_r1_speed_steps_at_the_ends_need_no_gender_b50() -> None:
    """B50: « Aube est le premier de l’ordre … » (Aube is a woman: the engine cannot
    know a name's gender); the steps at the ends of the order now read « Personne ne
    précède Aube dans l’ordre … », « Personne ne suit Éclopé dans l’ordre … »."""
    from escarmouche.systems import rulebook

    res = rulebook.apply_speed(["Aube", "Éclopé"], {"Aube": {"depassement"},
                                                    "Éclopé": {"depasse"}})
    texts = [s.text for s in res.steps if not s.applied]
    assert texts and not [t for t in texts if re.search(r"\best l[ea] (premier|dernier)", t)]
    assert any(t.startswith("Personne ne précède Aube") for t in texts), texts


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


def test_r1_the_end_of_fight_refusal_nests_no_parentheses_b54() -> None:
    """B54: « … (issue du combat, victoire (tout le camp … hors de combat)) (RB-END-1) »
    now reads « Combat terminé, issue : victoire (…) ; plus aucune action n’est possible
    (RB-END-1). »"""
    combat = Encounter("rulebook", [
        Combatant("Aube", "Héros", {"HAB": 60, "DIS": 50, "PMR": 50, "PV": 20, "Esprit": 10}),
        Combatant("Dague", "Bandits", {"HAB": 55, "DIS": 50, "PMR": 50, "PV": 5,
                                       "Esprit": 8}),
    ])
    combat.start(random.Random(1))
    while not combat.state.finished:
        actor = combat.state.current
        assert actor is not None
        if actor == "Aube":
            combat.act("Aube", "attaquer", cible="Dague", degats=5)
        else:
            combat.end_activation()
    with pytest.raises(EscarmoucheError) as refusal:
        combat.end_activation()
    text = str(refusal.value).replace("\u00a0", " ").replace("\u202f", " ")
    assert text.startswith("Combat terminé, issue : victoire"), text
    assert "))" not in text and top_level_colons(text.split(" ; ")[0]) == 1, text


def test_r6_the_d20_end_of_turn_says_which_effects_it_ends_b60_b61() -> None:
    """B60: « Jet de sauvegarde … : l’effet prend fin. » then « Fin du tour de Thorin :
    aucun effet ne s’achève » on the next line; the end of turn now names the effects it
    ends (« jusqu’à la fin de son tour »). B61: the initiative line said « 1d20 +
    initiative » for « 1d20 + modificateur d’initiative »."""
    from escarmouche.systems.d20.narration import end_of_turn_sentence

    text = end_of_turn_sentence("Thorin", []).replace("\u00a0", " ")
    assert "aucun effet ne s’achève" not in text
    assert "« jusqu’à la fin de son tour » à terminer" in text, text
    lines = [line for line in engine_lines() if line.startswith("Initiative (1d20")]
    assert lines and all("1d20 + modificateur d’initiative" in line for line in lines)


@pytest.mark.parametrize("name", NAMES)
def test_r6_a_simulation_page_counts_in_its_system_unit_b63(name: str) -> None:
    """B63 (R6): the d100 and d20 simulation pages read their table as « dégâts infligés
    par tour » and « la limite de tours », while the table itself says « par round »;
    each page now names its system's unit (``System.turn_word``)."""
    word = get(name).turn_word
    text = " ".join((BOOK_SRC / name / "simulation.md").read_text(encoding="utf-8").split())
    assert f"infligés par {word}." in text and f"la limite de {word}s." in text


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
    pattern = re.compile(r"\) \((?:RB|D100|D12|D20|CORE)-[A-Z]+-\d+")
    bad = []
    for nb in sorted(BOOK.rglob("*.ipynb")):
        if ".ipynb_checkpoints" in nb.parts:
            continue
        for _, _kind, out in stored_outputs(nb):
            bad += [m.group(0) for m in pattern.finditer(out)]
    assert not bad, bad[:5]
