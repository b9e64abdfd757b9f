"""The readers of the proofreading tests (spec/RELECTURE.md, R1–R8): the clauses of a
sentence and its colons, the pages of the book and the outputs its notebooks store, the
« Interprétation retenue » boxes, the shape of a refusal. The tests that use them are
filed under the rule or the face they hold (``tests/rules/``, ``tests/faces/``), each with
the entry of ``spec/relecture-journal.md`` it holds (B1, B2 …) in its docstring.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from escarmouche import Combatant, EscarmoucheError
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter
from escarmouche.systems import NAMES, get
from tests.helpers import ROOT, golden_runner
from tests.helpers.typography import problems

#: the book's sources (MyST pages) and the book (notebooks, pages)
BOOK_SRC = ROOT / "book_src"
BOOK = ROOT / "book"


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


def sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+(?=[A-ZÀ-Ý«])", text) if s]


def unquoted(text: str) -> str:
    """``text`` without what « » quote (a value a user typed may hold anything)."""
    return re.sub(r"«[^«»]*»", "« »", text)


def engine_identifiers() -> set[str]:
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


def ruling_boxes() -> Iterator[tuple[Path, str, list[str]]]:
    for page in sorted([*BOOK_SRC.rglob("*.md"), *BOOK.glob("*.md"), *BOOK.glob("*/*.md")]):
        text = page.read_text(encoding="utf-8")
        for m in re.finditer(r"```\{admonition\} (Interprétation retenue[^\n]*)\n(.*?)\n```",
                             text, re.S):
            paras = [p.strip() for p in re.split(r"\n\s*\n", m.group(2))
                     if p.strip() and not p.startswith(":class")]
            yield page, m.group(1), paras


def assert_refusal_shape(err: EscarmoucheError) -> str:
    """The refusal shape « Valeur X refusée pour « champ » : pourquoi (RÈGLE). » (or
    « Action « … » refusée : … »): one sentence, one colon outside quotes, no Python
    (no ``=``, no brackets or braces, no straight quotes, no underscore), typeset."""
    text = str(err)
    assert text == err.refusal(), text
    plain = unquoted(text)
    assert len(sentences(text)) == 1, text
    assert top_level_colons(plain) == 1, text
    assert not re.search(r"[=\[\]{}\"_]", plain), text
    assert err.rule and text.endswith(f"({err.rule})."), text
    assert not problems(text), (text, problems(text))
    return text


def d20_trio() -> Encounter:

    enc = Encounter("d20", [Combatant("Thorin", "PJ", {"PV": 30, "init": 2}),
                            Combatant("Brune", "PJ", {"PV": 20}),
                            Combatant("Orque", "Orques", {"PV": 25, "init": 1})])
    enc.start(ScriptedRolls([5, 4, 18]),
              positions={"Thorin": [0, 0], "Brune": [0, 1], "Orque": [1, 0]})
    assert enc.current == "Orque"
    return enc


def refused(enc: Encounter, actor: str, action: str, **params: object) -> str:

    with pytest.raises(EscarmoucheError) as caught:
        enc.act(actor, action, ScriptedRolls([10, 3, 10, 3]), **params)
    return assert_refusal_shape(caught.value)


#: the example roster each simulation page plays
DUELS = {"rulebook": "rulebook-bretteur", "d100": "d100-esquive", "d12": "d12-duel",
         "d20": "d20-duel"}


def unbreak(text: str) -> str:
    """``text`` with the typography's no-break spaces read as spaces."""
    return text.replace("\u00a0", " ").replace("\u202f", " ")


def page_source(page: str) -> str:
    return (BOOK_SRC / page).read_text(encoding="utf-8")


def page_outputs(page: str) -> str:
    return "\n".join(text for _, _, text in stored_outputs(BOOK / page))


def raw_outputs(page: str) -> str:
    """Every stored output of a notebook as JSON text (SVG and tables included)."""
    nb = json.loads((BOOK / page).read_text(encoding="utf-8"))
    return json.dumps([c.get("outputs", []) for c in nb["cells"]], ensure_ascii=False)


def book_page(name: str) -> str:
    return (BOOK / name).read_text(encoding="utf-8")


def flat(text: str) -> str:
    """``text`` with its no-break spaces as plain ones and its lines joined (a quote
    in a page is wrapped, and typeset)."""
    text = text.replace("\u00a0", " ").replace("\u202f", " ")
    return " ".join(re.sub(r"^>\s?", "", line) for line in text.splitlines()).strip()
