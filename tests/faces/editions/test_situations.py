"""Every option is measured by a duel in which it acts (book/concepteurs.md): beside the standard
duel, each system declares situation duels (``System.situation_duels``: two against one,
an ambush, a duel at a distance) where rules the standard duel never meets act, and an
edition page plays them on the same dice before and after a change. An option that no
automated duel can make act is listed here with the reason, and the list is checked
both ways. Rule IDs: D12-CRIT-2, D100-PARRY-3, RB-SURPRISE-2, D20-ACT-1, D20-IMM-1, D20-IMM-2,
D20-INIT-1, CORE-RNG."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from escarmouche import systems
from escarmouche.editions.duels import (
    paired_duels,
    situation_paired,
    situation_roster,
)
from escarmouche.editions.page import _duels_section, french_spaces
from escarmouche.encounter import Encounter
from escarmouche.policies import get_policy
from escarmouche.systems.base import Move
from escarmouche.systems.d12.rules import CRITICAL_OPTIONS
from tests.helpers.editions import NOT_MEASURED, alternatives, published_rules
from tests.helpers.rule_ids import RULE_IDS
from tests.helpers.typography import problems

#: options that no automated duel makes act, and why (the page says « ne joue dans aucun
#: duel » for them; their standard odds cells still measure them): the options with no
#: value to try, and the engine's safety bounds, each declared as such on its field
#: (``option(bound=…)``: the text repeats a step without limit, the engine stops after
#: so many times; a value changes a fight only once reached, which no duel meets)
NOT_IN_DUELS = {
    **{key: f"no value to try: {why}" for key, why in NOT_MEASURED.items()},
    **{(name, o.name): f"a safety bound: {o.bound}" for name in systems.NAMES
       for o in systems.get(name).options() if o.bound},
}

_OPTIONS = [(name, o.name) for name in systems.NAMES for o in systems.get(name).options()]
_DUELS = 80


def _acts(system: str, option: str, n: int) -> list[str]:
    """The first duel (« standard », else a situation key) in which some other value of
    ``option`` changes at least one of ``n`` fights, on the same dice; ``[]`` when none
    does. The duels are played one at a time and the search stops at the first that
    acts: the question is whether one exists. The baseline is the last published
    edition's rules (pinned), the one a designer changes."""
    target = systems.get(system)
    before = published_rules(system)
    for value in alternatives(system, target.option(option), getattr(before, option)):
        after = dataclasses.replace(before, **{option: value})
        if paired_duels(target, before, after, n).acted:
            return ["standard"]
        for duel in target.situation_duels:
            if situation_paired(target, duel, before, after, n).acted:
                return [duel.key]
    return []


@pytest.mark.parametrize(("system", "option"),
                         [c for c in _OPTIONS if c not in NOT_IN_DUELS],
                         ids=[f"{s}.{o}" for s, o in _OPTIONS if (s, o) not in NOT_IN_DUELS])
def test_every_option_acts_in_a_duel(system: str, option: str) -> None:
    """CORE-RNG: some other value of the option changes at least one duel on the same
    dice, in the standard duel or in one of the system's situation duels."""
    assert _acts(system, option, _DUELS), f"{system}.{option}: aucun duel ne le fait jouer"


@pytest.mark.parametrize(("system", "option"), sorted(NOT_IN_DUELS),
                         ids=[f"{s}.{o}" for s, o in sorted(NOT_IN_DUELS)])
def test_the_list_of_options_no_duel_reaches_is_not_stale(system: str, option: str) -> None:
    """The listed options exist and truly act in no duel: once a duel reaches one, it
    leaves the list (and its page then reports the duel)."""
    assert (system, option) in _OPTIONS
    assert _acts(system, option, 40) == []


def test_the_bounds_are_the_three_caps_on_repeated_ties_d12_init_6() -> None:
    """D12-INIT-6, D20-INIT-2: the text repeats a reroll or a roll-off while the tie
    lasts; the engine's caps on those repeats are its only safety bounds among the
    options, each with a French reason naming the ruling that settles the tie by lot
    (a rule must not hide among them)."""
    bounds = {(name, o.name): o.bound for name in systems.NAMES
              for o in systems.get(name).options() if o.bound}
    assert set(bounds) == {("d12", "max_initiative_rerolls"), ("d12", "max_roll_off_rounds"),
                           ("d20", "max_roll_off_rounds")}
    assert all(problems(why) == [] and "au sort" in why and "-INIT-" in why
               for why in bounds.values())
    rulings = {o.rules[-1] for name in systems.NAMES for o in systems.get(name).options()
               if o.bound}
    assert rulings == {"D12-INIT-6", "D20-INIT-2"}


@pytest.mark.parametrize(("system", "option"),
                         [("d12", "max_initiative_rerolls"), ("d20", "max_roll_off_rounds")])
def test_the_page_says_a_changed_bound_is_no_rule_d12_init_3(system: str, option: str
                                                            ) -> None:
    """D12-INIT-3, D20-INIT-1: a change to a safety bound acts in no duel; the edition
    page says that it is a bound of the engine, why, and where its effect is measured
    (the exact chance of reaching it), once per changed bound."""
    target = systems.get(system)
    before = target.default_rules()
    after = dataclasses.replace(before, **{option: getattr(before, option) - 1})
    spec = target.option(option)
    text = french_spaces("\n".join(_duels_section(system, before, after, 20, 0)))
    assert text.count("borne de sûreté du moteur") == 1, text
    assert spec.bound.split("\u202f;")[0] in text
    assert "la probabilité de l’atteindre" in text
    assert problems(text) == [], problems(text)
    same = french_spaces("\n".join(_duels_section(system, before, before, 20, 0)))
    assert "borne de sûreté" not in same


@pytest.mark.parametrize("system", systems.NAMES)
def test_situation_duels_are_french_play_and_cite_rules(system: str) -> None:
    """Each situation duel has a French title and situation citing existing rule IDs,
    two sides, and its fights end (the first side's wins are counted)."""
    target = systems.get(system)
    assert target.situation_duels, system
    for duel in target.situation_duels:
        assert problems(duel.title) == [] and problems(duel.situation) == []
        cited = {w.strip("(),.") for w in duel.situation.split() if "-" in w}
        cited = {c for c in cited if c[:1].isupper() and c.split("-")[-1].isdigit()}
        assert cited and cited <= set(RULE_IDS), cited - set(RULE_IDS)
        assert len({c.side for c in duel.combatants}) >= 2
        roster = situation_roster(target, duel, target.default_rules())
        enc = roster.encounter()
        rng = random.Random(1)
        enc.start(rng, **dict(duel.start_options))
        enc.run(rng, max_turns=50, policy=dict(duel.policies) or None)
        assert enc.finished


def test_the_default_policy_leaves_the_critical_option_to_the_rules_d12_crit_2() -> None:
    """D12-CRIT-2: the policy « par défaut » plays « agressif »'s move without naming
    the critical option, so every natural 12 of the d12 situation duel deals the rules'
    default option, whichever it is."""
    d12 = systems.get("d12")
    duel = d12.situation_duels[0]
    moves = [Move("attaquer", {"cible": "Recrue", "option": "avantage"},
                  frozenset({"attaque"}), frozenset({"option"}))]
    assert get_policy("par_defaut").choose(moves, None) == Move(
        "attaquer", {"cible": "Recrue"}, frozenset({"attaque"}), frozenset({"option"}))
    for option in CRITICAL_OPTIONS:
        rules = d12.rules_from_json({"critical_option": option})
        labels: set[str] = set()
        for seed in range(40):
            enc = Encounter(d12, list(duel.combatants), rules=rules)
            rng = random.Random(seed)
            enc.start(rng)
            enc.run(rng, max_turns=50, policy=dict(duel.policies))
            labels |= {spec.label for spec in CRITICAL_OPTIONS.values() for e in enc.log
                   if e.kind == "degats" and spec.label in e.text}
        assert labels == {CRITICAL_OPTIONS[option].label}, (option, labels)


def test_the_page_reports_the_situation_duel_where_the_change_acts_d100_parry_3() -> None:
    """D100-PARRY-3: a second parry never comes up in the one-against-one duel, but it
    does when one fighter faces two: the page gives that duel's paired verdict."""
    d100 = systems.get("d100")
    one, two = (d100.rules_from_json({"parries_per_round": k}) for k in (1, 2))
    text = french_spaces("\n".join(_duels_section("d100", one, two, 200, 1)))
    assert "n’a joué dans aucun des 200 duels" in text
    assert "Duels de situation" in text
    assert "- **Seule contre trois, prise par surprise.** Une bretteuse" in text
    for line in text[text.index("Duels de situation"):].splitlines():
        assert problems(line.replace("**", "")) == [], (problems(line), line)


def test_the_page_says_when_no_duel_at_all_meets_the_change_d20_init_1() -> None:
    """D20-INIT-1: a cap on initiative roll-off rounds acts in no automated duel; the page
    says so for the situation duels too, instead of concluding anything."""
    d20: Any = systems.get("d20")
    before = d20.default_rules()
    after = dataclasses.replace(before, max_roll_off_rounds=before.max_roll_off_rounds - 1)
    text = "\n".join(_duels_section("d20", before, after, 30, 1))
    assert "n’a joué dans aucun des 30 duels" in text
    assert "ne joue dans aucun duel de situation non plus" in text


@pytest.mark.parametrize(("option", "rule"), [("immediate_reset", "D20-IMM-1"),
                                              ("cancelled_action_spent", "D20-IMM-2")])
def test_the_page_reports_the_halfling_duel_for_the_immediate_options_d20_imm_1(
        option: str, rule: str) -> None:
    """D20-IMM-1, D20-IMM-2: when the immediate action comes back, and whether an
    attack cancelled by an interruption stays spent, never act in the standard duel;
    they do when a halfling between two raiders takes « Deuxième chance », and the page
    gives that duel's paired verdict, citing the rule."""
    d20: Any = systems.get("d20")
    before = published_rules("d20")  # pinned: the book's rules, the baseline changed
    other = next(v for v in (d20.option(option).choices or (True, False))
                 if v != getattr(before, option))
    after = dataclasses.replace(before, **{option: other})
    text = french_spaces("\n".join(_duels_section("d20", before, after, 80, 1)))
    assert "n’a joué dans aucun des 80 duels" in text
    assert "ne joue dans aucun duel de situation non plus" not in text
    part = text[text.index("Duels de situation"):]
    assert "- **Une halfeline prise entre deux pillards.**" in part
    assert rule in part and "Le changement a joué dans" in part
    for line in part.splitlines():
        assert problems(line.replace("**", "")) == [], (problems(line), line)
