"""The book's simulation pages, demos and comparison read as a French rules editor would
(spec/RELECTURE.md): the outputs their notebooks store and the prose around them. Each
test names the entry of ``spec/relecture-journal.md`` it holds (« B65: … »).
"""

from __future__ import annotations

import re
from collections.abc import Callable
import pytest
from escarmouche_widgets import Atelier, CombatTracker, D20TurnDemo, SurpriseDemo
from escarmouche_widgets import text_of
from escarmouche_widgets._parse import fold_ident
from escarmouche_widgets._record import Recorder
from escarmouche_widgets.d20_turn import TURN_ACTIONS, TYPED, parse_actions
from escarmouche_widgets.surprise import summary_html, surprise_views
from escarmouche import Combatant, EscarmoucheError, systems
from escarmouche import simulation as sim
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter
from escarmouche.roster import example_rosters, load_roster
from escarmouche.simulation.balance import shares
from escarmouche.systems import d12, d20
from escarmouche.systems import get as get_system
from escarmouche.systems.d12.narration import group_acts_sentence
from tests.helpers import ROOT
from tests.helpers.proofreading import (
    BOOK,
    BOOK_SRC,
    DUELS,
    boxes_and_prose,
    page_outputs,
    page_source,
    raw_outputs,
    ruling_boxes,
    top_level_colons,
    unbreak,
)
import json
import random
from pathlib import Path
from typing import Any
from escarmouche.errors import FIELD_LABELS, FIELD_NOUNS, field_label, invalid
from escarmouche.systems import NAMES, get
from tests.helpers.typography import problems
from tests.helpers import RULE_PREFIX
from tests.helpers.proofreading import clauses, engine_identifiers, engine_lines, notebooks, sentences, stored_outputs, unquoted


def _alternatives(option: object, value: object) -> list[object]:
    from escarmouche.simulation.inert import alternatives

    return list(alternatives(option, value))  # type: ignore[arg-type]


# -- the simulation pages --------------------------------------------------------------------


@pytest.mark.parametrize("system", systems.NAMES)
def test_b65_a_compared_setting_is_named_not_called_the_text(system: str) -> None:
    """B65: « Victoires texte » over the engine's defaults, while none of the four duels
    plays the text alone (the Rulebook's critical thresholds and damage variant, the d100
    weapon table, the d12 and d20 default weapon are rulings or engine conveniences)."""
    text = page_source(f"{system}/simulation.md")
    labels = re.search(r"labels=\(\"([^\"]+)\", \"([^\"]+)\"\)", text)
    assert labels is not None
    assert "texte" not in labels.groups()
    shown = raw_outputs(f"{system}/simulation.ipynb")
    assert "Victoires texte" not in shown
    assert f"{labels.group(1)} contre {labels.group(2)}" in shown


@pytest.mark.parametrize("system", systems.NAMES)
def test_b66_the_equivalence_claim_says_the_seeds_the_tests_run(system: str) -> None:
    """B66: « un test le vérifie sur des milliers de graines » while ``make test`` runs 40
    per duel; the page now says the two counts, which are the tests' own."""
    text = page_source(f"{system}/simulation.md").replace("\n", " ")
    said = re.search(r"sur chaque duel fourni\u00a0: (\d+) graines à chaque passage des tests, "
                     r"(\d+) dans le long essai `make fuzz`", text)
    assert said is not None, system
    tests_src = (ROOT / "tests" / "rules" / "core" / "test_simulation.py").read_text(
        encoding="utf-8")
    assert f'"ESCARMOUCHE_EQUIV_SEEDS", "{said.group(1)}"' in tests_src
    make = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert f"ESCARMOUCHE_EQUIV_SEEDS={said.group(2)} " in make
    assert "test_example_roster_simulation_equals_full_engine" in tests_src
    assert DUELS[system] in example_rosters()


def test_b67_a_balance_names_the_system_as_the_book_does() -> None:
    """B67: the balance caption read « (rulebook, graine 1) », the engine's name."""
    roster = load_roster(example_rosters()["rulebook-bretteur"])
    caption = str(sim.simulate(roster, 3, seed=1).table().title)
    assert "(Rulebook, graine 1)" in caption
    assert "(rulebook," not in caption
    assert "(rulebook," not in raw_outputs("rulebook/simulation.ipynb")


@pytest.mark.parametrize(("system", "words"), [
    ("d12", "une fois par tour"), ("d20", "1d20 +\nattaque contre la défense")])
def test_b69_automated_play_is_a_boxed_convention(system: str, words: str) -> None:
    """B69: the d12 and d20 duels rest on conventions the texts do not have (one attack
    per d12 turn and a default weapon; a d20 attack rule the text leaves to each power),
    now said in an « Interprétation retenue » box of the page."""
    page = BOOK_SRC / system / "simulation.md"
    boxes = [(title, paras) for p, title, paras in ruling_boxes() if p == page]
    assert [title for title, _ in boxes] == ["Interprétation retenue — le jeu automatique"]
    body = " ".join(boxes[0][1])
    assert words.replace("\n", " ") in body.replace("\n", " ")
    assert "pas des règles du texte" in body or "pas une règle du texte" in body
    assert "activation" not in body  # the Rulebook's word (B43)


# -- the tracker, the comparison, the Atelier -------------------------------------------------


def test_b74_the_tracker_example_counts_d12_turns() -> None:
    """B74: the d12 example of the tracker page said the poison acts « au début de chacune
    de ses activations », while the d12 engine writes « au début du tour du porteur »."""
    text = boxes_and_prose(page_source("demos/suivi-combat.md"))
    assert "chacune de ses activations" not in text
    assert "au début du tour du porteur" in page_outputs("demos/suivi-combat.ipynb")


def test_b76_the_comparison_prose_names_no_engine_function() -> None:
    """B76: « (`first_to_act_odds`) », « `d12.group_order_odds` » in the comparison's
    prose, engine identifiers a reader does not need."""
    text = re.sub(r"```\{code-cell\}.*?```", "", page_source("comparaison.md"), flags=re.S)
    assert not re.findall(r"`[A-Za-z0-9.]*_[A-Za-z0-9_.]*`", text)


def test_b77_the_comparison_chart_says_turn_or_round() -> None:
    """B77: « Premier tour de jeu » over the four systems: in d20 a « tour de jeu » is a
    creature's turn, and the d100 and d20 rows are rounds."""
    shown = raw_outputs("comparaison.ipynb")
    assert "tour de jeu" not in shown
    assert "Premier tour ou round, mêmes dés (graine 7)" in shown


def test_b79_a_group_of_one_has_no_members_deciding_together() -> None:
    """B79: « ses membres décident ensemble puis exécutent dans l’ordre Grolk »."""
    assert group_acts_sentence("monstres", 7, ["Grolk"]) == (
        "Le groupe « monstres » agit (initiative 7) avec un seul membre debout, Grolk "
        "(D12-INIT-4).")
    assert "ses membres décident ensemble" in group_acts_sentence("héros", 9, ["A", "B"])
    stats = {"PV": 12, "attaque": 3, "defense": 12}
    enc = Encounter(d12.SYSTEM, [Combatant("Aldric", "héros", {**stats, "init": 2}),
                                 Combatant("Brune", "héros", {**stats, "init": 1}),
                                 Combatant("Grolk", "monstres", stats)])
    enc.start(ScriptedRolls([8, 5, 7]))
    for _ in range(3):
        enc.end_activation(ScriptedRolls([]))
    texts = [unbreak(e.text) for e in enc.log]
    assert not any("dans l’ordre Grolk (" in t for t in texts)
    assert ("Le groupe « monstres » agit (initiative 7) avec un seul membre debout, Grolk "
            "(D12-INIT-4).") in texts
    for page in ("demos/suivi-combat.ipynb", "d12/initiative.ipynb",
                 "d12/tour-complet.ipynb"):
        assert not re.search(r"dans l’ordre [^,()]+ \(D12-INIT-4\)", page_outputs(page)), page


def test_b81_the_standard_odds_name_no_engine_side_nor_english_header() -> None:
    """B81: « Initiative de groupe : le groupe x » (the engine's side name) and a first
    column « Stat », in the Atelier and on the edition page."""
    from escarmouche.editions.odds import standard_odds

    tables = [t for name in systems.NAMES
              for t in standard_odds(name, get_system(name).default_rules())]
    titles = [t.title for t in tables]
    headers = [c for t in tables for c in t.columns]
    assert not [t for t in titles if re.search(r"\b[xy]\b", t)]
    assert "Stat" not in headers
    page = (BOOK / "editions" / "edition-1.md").read_text(encoding="utf-8")
    assert "le groupe x" not in page and "<th>Stat</th>" not in page


def test_b84_the_parry_demo_says_the_surprised_defender_is_a_ruling() -> None:
    """B84: « un défenseur surpris ne se défend pas » stated as a fact; seed 001 only says
    the surprised side does not act in the first round (D100-SURPRISE-1's ruling)."""
    text = page_source("demos/parade-esquive.md").replace("\n", " ")
    assert re.search(r"surpris ne se défend pas \(l’interprétation retenue de "
                     r"\{ref\}`D100-SURPRISE-1", text)


def test_b85_the_win_rates_of_a_balance_add_up_to_a_hundred() -> None:
    """B85: « 49,1 % » and « 51,0 % » (no draw), « 75,5 % » and « 24,6 % »: each rate
    rounded on its own; the shown shares now add up to 100,0 %."""
    assert shares([4905, 5095], 10_000) == ["49,1\u202f%", "50,9\u202f%"]
    assert shares([7545, 2455, 0, 0], 10_000)[:2] == ["75,5\u202f%", "24,5\u202f%"]
    assert shares([1, 9_999], 10_000) == ["<\u202f0,1\u202f%", ">\u202f99,9\u202f%"]
    for system in systems.NAMES:
        shown = raw_outputs(f"{system}/simulation.ipynb")
        tables = re.findall(r"<tbody>(.*?)</tbody>", shown)
        assert len(tables) >= 2, system
        for table in tables:
            rates = [re.findall(r"<td>(\d+),(\d)[\u202f ]%", row)[0]
                     for row in table.split("<tr>") if re.search(r"<td>\d+,\d[\u202f ]%", row)]
            assert len(rates) == 2, (system, table)  # two sides, no draw in these duels
            assert sum(10 * int(a) + int(b) for a, b in rates) == 1000, (system, table)


def test_b87_the_d12_page_says_which_option_plays_no_part() -> None:
    """B87: the d12 balance demo offers « option critique par défaut », which automated
    play never reads (it takes the best option, « prudent » the sure one): the box says
    so, and the claim holds."""
    roster = load_roster(example_rosters()["d12-duel"])
    # another option than the roster's (tests follow editions: never a copied default)
    other = next(o for o in ("explosif", "avantage") if o != roster.rules.critical_option)
    for policy in (None, "prudent", "par_defaut"):
        a = sim.simulate(roster, 100, seed=1, policy=policy)
        b = sim.simulate(roster.with_options(option_critique=other), 100, seed=1,
                         policy=policy)
        same = (a.wins, a.rounds, a.health) == (b.wins, b.rounds, b.health)
        assert same is (policy != "par_defaut"), policy  # only « par défaut » follows it
    body = " ".join(" ".join(paras) for p, _, paras in ruling_boxes()
                    if p == BOOK_SRC / "d12" / "simulation.md")
    assert ("« option critique par défaut » n’y joue pas ; seule la tactique « par défaut »"
            in unbreak(body.replace("\n", " ")))


def test_b87_the_d20_page_says_which_options_play_no_part() -> None:
    """B87 (d20): the page's duel has no halfling, the only bearer of the immediate action
    automated play takes (« Deuxième chance », D20-IMM-1, D20-IMM-2), so the two options
    that rule immediate actions change nothing in these fights; the box says so, and the
    claim holds."""
    roster = load_roster(example_rosters()["d20-duel"])
    for policy in (None, "prudent", "au_hasard", "par_defaut"):
        a = sim.simulate(roster, 40, seed=1, policy=policy)
        for key, value in (("retour_action_immediate", "debut_du_round"),
                           ("action_annulee_depensee", False)):
            b = sim.simulate(roster.with_options(**{key: value}), 40, seed=1, policy=policy)
            assert (a.wins, a.rounds, a.health) == (b.wins, b.rounds, b.health), key
    body = unbreak(" ".join(" ".join(paras) for p, _, paras in ruling_boxes()
                           if p == BOOK_SRC / "d20" / "simulation.md").replace("\n", " "))
    assert "Il ne prend qu’une action immédiate" in body
    assert "Le duel de Thorin contre Gob n’a pas de halfelin" in body
    assert "« une action annulée reste dépensée » n’y jouent pas" in body
    assert not any("halfelin" in c.traits for c in roster.combatants)


def test_b89_each_d20_initiative_die_names_its_fighter() -> None:
    """B89: « Dés lancés : d20 = 1 (initiative) ; d20 = 18 (initiative) ; … » (the tracker,
    the d20 turn demo) where the other systems, and the d20 initiative demo, name whose
    die it is; the roll-offs are named too, in the order they are drawn."""
    enc = Encounter("d20", [Combatant("Aldric", "x", {"PV": 5}),
                            Combatant("Brune", "y", {"PV": 5}), Combatant("Cid", "y", {"PV": 5})])
    enc.start(ScriptedRolls([7, 7, 7, 3, 3, 9, 5, 2]))
    event = next(e for e in enc.log if e.kind == "initiative")
    assert [(d.value, d.purpose) for d in event.dice] == [
        (7, "initiative d’Aldric"), (7, "initiative de Brune"), (7, "initiative de Cid"),
        (3, "départage d’Aldric"), (3, "départage de Brune"), (9, "départage de Cid"),
        (5, "départage d’Aldric"), (2, "départage de Brune")]
    assert "(initiative de Brune)" in unbreak(page_outputs("demos/tour-d20.ipynb"))


@pytest.mark.parametrize(("page", "roster", "inert"), [
    ("rulebook/simulation.md", "rulebook-bretteur",
     {"valeur_groupe_surprise", "place_hyperactivite"}),
    ("d100/simulation.md", "d100-esquive", {"surpris_peut_se_defendre", "parades_par_round"}),
])
def test_the_simulation_page_measures_which_options_play_no_part_rb_surprise_2_d100_surprise_1(
        page: str, roster: str, inert: set[str]) -> None:
    """RB-SURPRISE-2, RB-SPEED-3, D100-SURPRISE-1, D100-PARRY-3 (spec/relecture-journal.md):
    the Rulebook and d100 simulation pages offer options their duel never meets (surprise,
    Hyperactivité; 10 of the d100 page's 12), as the d12 and d20 pages say of theirs. They
    now print it, measured by the engine on the same dice (not written by hand), and the
    measure is right: each option it calls inert changes no fight of a longer run either,
    and each one it calls active changes one."""
    from escarmouche.simulation import option_effects

    source = (BOOK_SRC / page).read_text(encoding="utf-8")
    assert "simulation.inert_sentence(simulation.option_effects(effectifs, 200, seed=1))" \
        in source
    effects = option_effects(load_roster(example_rosters()[roster]), 200, seed=1)
    assert inert <= {o.key for o in effects.inert}
    loaded = load_roster(example_rosters()[roster])
    base = sim.simulate(loaded, 400, seed=2)
    for option in effects.inert:
        value = getattr(loaded.rules, option.name)
        other = loaded.with_options(**{option.key: option.to_json(
            next(iter(_alternatives(option, value))))})
        again = sim.simulate(other, 400, seed=2)
        assert (base.wins, base.rounds, base.health) == \
            (again.wins, again.rounds, again.health), option.key
    assert effects.active
    notebook = (ROOT / "book" / page.replace(".md", ".ipynb")).read_text(encoding="utf-8")
    assert "ne changent aucun des 200\u202fcombats" in notebook or \
        "ne changent aucun des 200 combats" in notebook


_NUMBERS = {"Cent": 100, "Deux cents": 200, "Trois cents": 300, "Cinq cents": 500,
            "Mille": 1000, "Dix mille": 10_000}


# -- R7: figures that the engine can check ---------------------------------------------------


@pytest.mark.parametrize("system", systems.NAMES)
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


@pytest.mark.parametrize("name", NAMES)
def test_r6_a_simulation_page_counts_in_its_system_unit_b63(name: str) -> None:
    """B63 (R6): the d100 and d20 simulation pages read their table as « dégâts infligés
    par tour » and « la limite de tours », while the table itself says « par round »;
    each page now names its system's unit (``System.turn_word``)."""
    word = get(name).turn_word
    text = " ".join((BOOK_SRC / name / "simulation.md").read_text(encoding="utf-8").split())
    assert f"infligés par {word}." in text and f"la limite de {word}s." in text
