"""Every declared option is measured by its system's standard odds (book/concepteurs.md, « Every
option is measured »): changing any option's default to any other value it accepts
changes at least one cell of ``System.standard_odds``, so an edition page never says
« Aucune valeur ne change » for a real change. The new situations are checked against
the engine itself: the capped loops with scripted dice, the defences against
:func:`check_defence`'s refusals."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from escarmouche_widgets import text_of

from escarmouche import Combatant, systems
from escarmouche.dice import ScriptedRolls
from escarmouche.editions.odds import compare, standard_odds
from escarmouche.editions.page import comparison_html
from escarmouche.odds import OddsTable, one_in
from escarmouche.systems import d12, d20
from escarmouche.systems.d12.odds import cap_odds
from escarmouche.systems.d20.odds import immediate_chances, most_actions
from escarmouche.systems.d100.odds import attack_odds, shot_odds, unharmed_odds
from escarmouche.systems.d100.rules import Rules as D100Rules
from escarmouche.systems.rulebook.odds import hyperactive_slots
from escarmouche.systems.rulebook.rules import Rules as RulebookRules
from tests.helpers.editions import NOT_MEASURED, alternatives, published_rules, same_d100_weapon
from tests.helpers.typography import problems

_CASES = [(name, o.name, alt)
          for name in systems.NAMES
          for o in systems.get(name).options()
          for alt in alternatives(name, o, getattr(published_rules(name), o.name))]


@pytest.mark.parametrize(("system", "option", "value"), _CASES,
                         ids=[f"{s}.{o}={v}" for s, o, v in _CASES])
def test_every_option_change_moves_a_standard_odds_cell(system: str, option: str,
                                                        value: object) -> None:
    """CORE-ERR, every option's rules: a change of the default leaves at least one
    standard odds cell different, computed by the rules the engine plays (from the last
    published edition's rules, pinned: the baseline a designer changes)."""
    before = published_rules(system)
    after = dataclasses.replace(before, **{option: value})
    diffs = compare(standard_odds(system, before), standard_odds(system, after))
    assert len(diffs) == len(standard_odds(system, before))  # same tables, same rows
    changed = [d.after.key for d in diffs if d.changed]
    assert changed, f"{system}.{option} → {value!r}: aucune valeur ne change"


def test_every_option_is_measured_or_listed_with_a_reason() -> None:
    """The exemptions are exactly the options with no value to try (no stale entry)."""
    none = {(name, o.name) for name in systems.NAMES for o in systems.get(name).options()
            if not alternatives(name, o, getattr(systems.get(name).default_rules(), o.name))}
    assert none == set(NOT_MEASURED)


def test_only_identical_weapons_are_skipped_d100_atk_3() -> None:
    """D100-ATK-3: the one default weapon not tried, the rapière, is the default one
    handed weapon under another name (damage 3, melee): no rule can tell them apart."""
    option = systems.get("d100").option("default_weapon")
    skipped = [c for c in option.choices or () if c != "arme_a_une_main"
               and same_d100_weapon(str(c), "arme_a_une_main")]
    assert skipped == ["rapiere"]


@pytest.mark.parametrize("system", systems.NAMES)
def test_standard_tables_are_small_french_and_cite_rules(system: str) -> None:
    """The tables stay readable on the edition page and in the Atelier: a few rows and
    columns, rule IDs cited, no engine identifier in a label."""
    target = systems.get(system)
    for table in standard_odds(system, target.default_rules()):
        assert isinstance(table, OddsTable)
        assert table.rules and all("-" in r for r in table.rules)
        assert 1 <= len(table.rows) <= 6 and 2 <= len(table.columns) <= 6
        for text in (table.title, *table.columns, *(label for label, _ in table.rows)):
            assert "_" not in text, text
            assert problems(text) == [], text
            for option in target.options():
                assert option.name not in text
        for _, values in table.rows:
            for value in values:
                assert problems(table.show(value)) == []
    html = comparison_html(system, target.default_rules(), target.default_rules())
    assert problems(text_of(html)) == []


# -- the new situations against the engine ------------------------------------------------


def test_second_parry_odds_follow_parries_per_round_d100_parry_3() -> None:
    """D100-PARRY-3: two attacks (CC 45) on a two-weapon defender (parry at 40). With
    one parry, a first hit spends it and the second blow can only miss; with two, each
    blow is parried or missed alike."""
    o = attack_odds(45, defence="parade", defence_target=40)
    safe = o.miss + o.defended
    assert unharmed_odds(2, "parade", D100Rules(parries_per_round=2)) == safe ** 2
    one = D100Rules(parries_per_round=1)
    assert unharmed_odds(2, "parade", one) == o.miss * safe + o.defended * o.miss
    assert unharmed_odds(2, "parade", D100Rules(parries_per_round=0)) == o.miss ** 2


def test_second_dodge_odds_follow_dodges_per_round_d100_dodge_2() -> None:
    """D100-DODGE-2: the same with dodges (Ag 40)."""
    o = attack_odds(45, defence="esquive", defence_target=40)
    safe = o.miss + o.defended
    assert unharmed_odds(3, "esquive", D100Rules(dodges_per_round=3)) == safe ** 3
    assert unharmed_odds(2, "esquive", D100Rules(dodges_per_round=1)) == \
        o.miss * safe + o.defended * o.miss


def test_surprised_defender_odds_d100_surprise_1() -> None:
    """D100-SURPRISE-1: surprised in round 1, the defender cannot parry (only a miss
    saves them) unless the ruling lets them defend."""
    o = attack_odds(45, defence="parade", defence_target=40)
    unready = D100Rules(surprised_can_defend=False)  # pinned: the case of the text
    assert unharmed_odds(1, "parade", unready, surprised=True) == o.miss
    assert unharmed_odds(1, "parade", D100Rules(surprised_can_defend=True),
                         surprised=True) == o.miss + o.defended


def test_shot_odds_by_range_band_d100_ranged_5() -> None:
    """D100-RANGED-5: a bow (24/48 m), CT 45: −20 beyond 24 m, the desperate shot's
    extra modifier beyond 48 m, nothing beyond twice the long range (96 m)."""
    # pinned: the text's −20 beyond short range, twice the long range at most
    text = D100Rules(beyond_short_range_modifier=-20, desperate_shot_modifier=0,
                     max_range_factor=2)
    assert shot_odds(45, 20, text) == Fraction(45, 100)
    assert shot_odds(45, 40, text) == Fraction(25, 100)
    assert shot_odds(45, 72, dataclasses.replace(text, desperate_shot_modifier=-5)) == \
        Fraction(20, 100)
    assert shot_odds(45, 120, text) == 0
    assert shot_odds(45, 120, dataclasses.replace(text, max_range_factor=3)) == \
        Fraction(25, 100)


def test_hyperactive_second_slot_rb_speed_3() -> None:
    """RB-SPEED-3: the second activation comes right after the first, or at the end of
    the turn, as apply_speed lays it out."""
    assert hyperactive_slots(1, 4, RulebookRules(hyperactive_slot="juste_apres")) == (1, 2)
    assert hyperactive_slots(1, 4, RulebookRules(hyperactive_slot="fin_du_tour")) == (1, 5)


def test_d20_turn_budget_and_refund_d20_act_3_d20_opp_1() -> None:
    """D20-ACT-3: a cap on action points per turn caps the simple actions; D20-OPP-1: a
    cancelled move is given back only when the ruling says so (no cap and a spent
    cancelled action, the original edition's, pinned)."""
    text = d20.Rules(max_action_points_per_turn=None, cancelled_action_spent=True)
    assert most_actions("simple", action_points=3, rules=text) == 4
    assert most_actions("simple", action_points=3,
                        rules=d20.Rules(max_action_points_per_turn=2)) == 0
    table = {t.key: t for t in standard_odds("d20", text)}["d20.cancelled"]
    given_back = {t.key: t for t in standard_odds(
        "d20", d20.Rules(cancelled_action_spent=False))}["d20.cancelled"]
    assert table.rows[0][1] == (Fraction(1), Fraction(1))
    assert given_back.rows[0][1] == (Fraction(1), Fraction(2))


def test_immediate_action_comes_back_d20_imm_1() -> None:
    """D20-IMM-1: back at the start of one's own turn, no turn of the others before it
    finds the immediate action again; back at each round's start, all of them do."""
    assert immediate_chances(4, 4, d20.Rules(immediate_reset="debut_de_son_tour")) == 0
    assert immediate_chances(4, 4, d20.Rules(immediate_reset="debut_du_round")) == 3


@pytest.mark.parametrize("cap", [2, 5])
def test_d20_roll_off_cap_odds_match_the_engine_d20_init_2(cap: int) -> None:
    """D20-INIT-2: past ``cap`` tied roll-off rounds the engine draws lots, so the chance
    to reach the bound is (1/20)^cap, the « Borne atteinte » cell."""
    pair = [Combatant("A", "x"), Combatant("B", "y")]
    rules = d20.Rules(max_roll_off_rounds=cap)
    rng = ScriptedRolls([1] * 1000)
    ini = d20.roll_initiative(pair, rng, rules=rules)
    rounds = (rng.used - 2 - 1) // 2
    assert rounds == cap and sorted(r.lot for r in ini.rolls) == [1, 2]
    cell = {t.key: t for t in standard_odds("d20", rules)}["d20.caps"].rows[0][1][0]
    assert cell == Fraction(1, 20) ** rounds


@pytest.mark.parametrize("cap", [1, 2, 5])
def test_d12_cap_odds_match_the_engine_d12_init_6(cap: int) -> None:
    """D12-INIT-6: past ``cap`` rerolls of a perfect tie (D12-INIT-3), or ``cap`` tied
    roll-off rounds (D12-INIT-4), the engine draws lots (one die with 2 faces for two
    tied names) and the fight goes on. The « Borne atteinte » cells are those powers of
    the chance of one tie: 1/12 for two camps or two fighters; for six camps, the chance
    that two of six d12 are equal."""
    rules = d12.Rules(max_initiative_rerolls=cap, max_roll_off_rounds=cap)
    groups = [Combatant("A", "x"), Combatant("B", "y")]
    rng = ScriptedRolls([1] * 1000)
    init = d12.initiative(groups, rng, rules=rules)
    ties = (rng.used - 1) // 2
    assert ties == cap + 1 and [lot.dice for lot in init.lots] == [(1,)]
    team = [Combatant("A", "x"), Combatant("B", "x")]
    rng = ScriptedRolls([1] * 1000)
    init = d12.initiative(team, rng, rules=rules)
    rounds = (rng.used - 1 - 2) // 2
    assert rounds == cap and len(init.roll_offs[0].lots) == 1
    odds = cap_odds(rules)
    assert odds["relances_duel"] == Fraction(1, 12) ** ties
    assert odds["departage"] == Fraction(1, 12) ** rounds
    six = 1 - Fraction(12 * 11 * 10 * 9 * 8 * 7, 12 ** 6)
    assert odds["relances"] == six ** ties
    cells = {t.key: t for t in standard_odds("d12", rules)}["d12.caps"].rows
    assert "6 camps" in cells[0][0] and cells[0][1][0] == odds["relances"]


def test_rare_odds_read_as_one_in_n() -> None:
    """A tiny probability is written « 1 sur N » in French (no-break spaces, comma,
    superscript power of ten), never « < 0,1 % »."""
    assert one_in(Fraction(1, 20) ** 100) == "1\u00a0sur\u00a01,3\u202f×\u202f10¹³⁰"
    assert one_in(Fraction(1, 1_000_000)) == "1\u00a0sur\u00a01\u202f×\u202f10⁶"
    assert one_in(Fraction(2, 3)) == "1\u00a0sur\u00a02"
