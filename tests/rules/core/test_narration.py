"""What the engine writes in a fight's journal (CORE-LOG), read as a French rules editor
would (spec/RELECTURE.md, R1, R4 and R6): one colon per clause, no engine identifier, each
rule cited once. Each test names the entry of ``spec/relecture-journal.md`` it holds.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from escarmouche import Combatant
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter
from escarmouche.systems import d12, d20
from tests.helpers.proofreading import (
    clauses,
    engine_identifiers,
    engine_lines,
    top_level_colons,
)

# -- what the engine writes on the d20 pages (`d20/tour`, `d20/hors-tour`) ------------------


def test_b114_a_countdown_says_what_it_counts() -> None:
    """B114: an effect's countdown line read « « Venin » : encore 1. » (one what?)."""
    from escarmouche.model import Effect, Timing

    enc = Encounter("d20", [Combatant("Thorin", "x", {"PV": 30}),
                            Combatant("Orque", "y", {"PV": 25})])
    enc.add_effect(Effect("", "Venin", Timing.ACTIVATION_START, bearer="Thorin",
                          per_tick={"PV": -3}, remaining=3))

    enc.start(ScriptedRolls([15, 3]))
    ticks = [e.text for e in enc.log if e.kind == "effet_decompte"]
    assert ticks == ["«\u00a0Venin\u00a0»\u00a0: encore 2 décomptes avant la fin."], ticks


# -- d12 (`d12/tour-complet`) ---------------------------------------------------------------


def test_b121_the_journal_cites_each_rule_once_core_log() -> None:
    """B121: a d12 sentence that cites its rule was followed by the same rule in the
    journal's brackets, « … (D12-INIT-1). [D12-INIT-1] »."""

    troupe = [Combatant("Aldric", "Compagnie", {"PV": 12, "init": 2, "attaque": 3,
                                                "defense": 12}),
              Combatant("Gob", "Gobelins", {"PV": 7, "init": 1, "attaque": 2,
                                            "defense": 13})]
    enc = Encounter("d12", troupe)
    enc.start(ScriptedRolls([10, 9]))
    enc.act("Aldric", "attaquer", ScriptedRolls([12, 2]), cible="Gob", option="avantage")
    lines = str(enc.journal()).splitlines()
    assert "(D12-INIT-1)" in lines[0] and not lines[0].endswith("]"), lines[0]
    cited_twice = []
    for line in lines:
        inline = set(re.findall(r"[A-Z0-9]+-[A-Z]+-\d+", line.split(" [")[0]))
        bracket = re.search(r" \[([^\]]+)\]$", line)
        if bracket and inline & set(bracket.group(1).split(", ")):
            cited_twice.append(line)
    assert not cited_twice, cited_twice
    assert any(" [" in line for line in lines)  # rules not in the sentence still shown


# -- the tracker, the comparison, the Atelier -------------------------------------------------


def test_b83_initiative_odds_name_the_bonus_as_the_pages_do() -> None:
    """B83: the odds introductions said « 1d20 + init, égalités au plus haut init » and
    « (1d12 + init) », the stat key, where the pages say « modificateur d’initiative » and
    « bonus d’initiative » (B61 fixed the d20 log line only)."""
    duel = [Combatant("A", "x", {"init": 1}), Combatant("B", "y", {"init": 2})]
    from escarmouche.systems.d12.odds import first_to_act_chances as d12_chances
    from escarmouche.systems.d20.odds import first_to_act_chances as d20_chances

    intros = [c.intro for c in (*d20_chances(duel), *d12_chances(duel))]
    assert intros and not [i for i in intros if re.search(r"\binit\b", i)]
    assert "1d20 + modificateur d’initiative" in intros[0]
    assert "1d12 + bonus d’initiative" in intros[1]


# -- R1: one colon per clause in what the engine writes -------------------------------------


def test_r1_engine_sentences_hold_one_colon_per_clause() -> None:
    """R1: « Fin du combat : victoire : … », « Thorin : Attaquer (…) : … » and the like
    are gone; every clause of every event has at most one colon of its own."""
    bad = sorted({c for line in engine_lines() for c in clauses(line)
                  if top_level_colons(c) > 1})
    assert not bad, "\n".join(bad[:20])


# -- R4: no engine identifier in what a reader reads -----------------------------------------


def test_r4_no_engine_identifier_in_the_engine_sentences() -> None:
    """R4 in the log: no option identifier or parameter name in an event."""
    identifiers = engine_identifiers() - {"elan ="}
    bad = sorted({f"{ident}: {line}" for line in engine_lines() for ident in identifiers
                  if re.search(rf"(?<![\w.]){re.escape(ident)}(?![\w])", line)})
    assert not bad, "\n".join(bad[:20])


# -- R7: figures that the engine can check ---------------------------------------------------


@pytest.mark.parametrize("name", ["d12", "d100", "d20", "rulebook"])
def test_r1_initiative_explanations_with_ties_hold_one_colon_per_clause(name: str) -> None:
    """R1 where the golden fights have no tie: each system's initiative, explained
    with every tie broken by a roll-off."""
    from escarmouche.systems import d100, rulebook

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
