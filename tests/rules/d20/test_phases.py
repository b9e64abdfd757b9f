"""System d20 (seed 003), the start and the end of a turn: D20-START-1, D20-END-1/2.

The start-of-turn effects in the rules' order (D20-START-1), saving throws with their
racial bonuses and their exact odds and durations (D20-END-1), the effects that end
with the turn (D20-END-2), with dice fixed by ScriptedRolls. Every expected value is
derived by hand from the rules (the derivation is in the comment next to it); exact
odds are checked against a brute-force enumeration of every sequence of d20s.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import Combatant, Effect, EscarmoucheError, Timing
from escarmouche.dice import ScriptedRolls
from escarmouche.systems import d20
from tests.helpers.d20 import assert_rejected, last, started
from tests.helpers.proofreading import engine_lines

# -- D20-START-1 ---------------------------------------------------------------------------


def test_start_of_turn_order_d20_start_1() -> None:
    """D20-START-1: ongoing damage, then regeneration, then the other effects.

    Thorin has 20 PV (his maximum). Effects added in the reverse order. In the rules'
    order: 20 − 3 = 17, + 2 = 19, − 1 = 18. In the order added, it would be
    20 − 1 = 19, + 2 = 20 (capped), − 3 = 17.
    """
    effects = [
        Effect("", "Aura glaciale", Timing.ACTIVATION_START, bearer="Thorin",
               per_tick={"PV": -1}),
        Effect("", "Régénération", Timing.ACTIVATION_START, bearer="Thorin",
               kind="regeneration", per_tick={"PV": 2}),
        Effect("", "Brûlure", Timing.ACTIVATION_START, bearer="Thorin",
               kind="degats_continus", per_tick={"PV": -3}),
    ]
    enc = started(effects=effects)
    assert enc.fighter("Thorin").tracks["PV"] == 18
    summary = last(enc, "debut_de_tour")
    assert summary.rules == ("D20-START-1",)
    assert [a["kind"] for a in summary.data["applied"]] == [
        "degats_continus", "regeneration", "generique"]
    assert "aucune action possible" in summary.text
    applied = [e.seq for e in enc.log if e.kind == "effet_applique"]
    assert applied and max(applied) < summary.seq


def test_no_action_in_start_phase_d20_start_1() -> None:
    """D20-START-1: no action at the start of the turn — the phase is resolved by the
    engine before the fighter gets control, and it is no action a fighter may take."""
    enc = started()
    assert_rejected(enc, "D20-START-1", "Thorin", "regeneration")
    assert_rejected(enc, "D20-START-1", "Thorin", "degats_continus")


def test_ongoing_damage_knocks_out_before_acting_d20_start_1() -> None:
    """D20-START-1: ongoing damage is taken first; a fighter it knocks out never acts."""
    burn = Effect("", "Brûlure", Timing.ACTIVATION_START, bearer="Gob",
                  kind="degats_continus", per_tick={"PV": -5})
    enc = started(effects=[burn])
    enc.end_activation(ScriptedRolls([]))  # Thorin ends; Gob burns to 0 and is skipped
    assert enc.current == "Pip"
    assert enc.fighter("Gob").out
    summary = [e for e in enc.log if e.kind == "debut_de_tour" and e.actor == "Gob"]
    assert len(summary) == 1 and "hors de combat" in summary[0].text
    assert not any(e.kind == "action" and e.actor == "Gob" for e in enc.log)


# -- D20-END-1 -----------------------------------------------------------------------------


def test_saving_throw_ten_or_more_d20_end_1() -> None:
    """D20-END-1: 1d20 + bonus, success on 10 or more (the text's threshold, pinned)."""
    ten = d20.Rules(save_target=10)
    assert d20.saving_throw(10, rules=ten) is True
    assert d20.saving_throw(9, rules=ten) is False
    assert d20.saving_throw(5, 5, rules=ten) is True
    assert d20.saving_throw(20, -11, rules=ten) is False
    res = d20.resolve_save(7, 2, rules=ten)
    assert (res.total, res.target, res.success, res.rules) == (9, 10, False, ("D20-END-1",))
    for bad in (0, 21, True):
        with pytest.raises(EscarmoucheError, match="D20-END-1"):
            d20.saving_throw(bad, rules=ten)
    assert d20.roll_save(ScriptedRolls([12]), -3, rules=ten).success is False  # 12 − 3 = 9


def test_racial_save_bonuses_d20_end_1() -> None:
    """D20-END-1: dwarf +5 against poison, halfling +5 against terreur (also « peur »)."""
    dwarf = Combatant("Thorin", "a", traits={"nain"})
    halfling = Combatant("Pip", "a", traits={"halfelin"})
    human = Combatant("Anna", "a")
    assert d20.save_bonus(dwarf, {"poison"}) == 5
    assert d20.save_bonus(dwarf, ["Poison", "feu"]) == 5
    assert d20.save_bonus(dwarf, {"terreur"}) == 0
    assert d20.save_bonus(halfling, {"terreur"}) == 5
    assert d20.save_bonus(halfling, {"peur"}) == 5
    assert d20.save_bonus(halfling, {"peur", "terreur"}) == 5  # one bonus, not two
    assert d20.save_bonus(halfling, {"poison"}) == 0
    assert d20.save_bonus(human, {"poison", "terreur"}) == 0
    assert d20.save_bonus(dwarf, frozenset()) == 0
    with pytest.raises(EscarmoucheError, match="D20-END-1"):
        d20.save_bonus(dwarf, "poison")
    assert d20.RACIAL_SAVE_BONUSES["nain"]["poison"] == 5


def test_end_of_turn_saves_in_encounter_d20_end_1() -> None:
    """D20-END-1: one save per save-ends effect at the end of the bearer's turn.

    Thorin (dwarf): Venin (poison): 5 + 5 = 10 → ends; Hébété: 9 + 0 = 9 → stays.
    """
    effects = [
        Effect("", "Venin", Timing.ACTIVATION_START, bearer="Thorin", save_ends=True,
               keywords=frozenset({"poison"})),
        Effect("", "Hébété", Timing.ACTIVATION_START, bearer="Thorin", save_ends=True),
    ]
    enc = started(d20.Rules(save_target=10), effects=effects)
    rng = ScriptedRolls([5, 9])
    enc.end_activation(rng)
    assert rng.remaining == 0
    saves = [e for e in enc.log if e.kind == "jet_de_sauvegarde"]
    assert [(s.data["roll"], s.data["bonus"], s.data["success"]) for s in saves] == [
        (5, 5, True), (9, 0, False)]
    assert all(s.rules == ("D20-END-1",) and s.dice[0].value == s.data["roll"]
               for s in saves)
    assert [e.name for e in enc.state.effects] == ["Hébété"]
    assert enc.current == "Gob"


def test_halfling_save_against_peur_d20_end_1() -> None:
    """D20-END-1: Pip (halfling) against « peur »: 5 + 5 = 10 → success."""
    fear = Effect("", "Effroi", Timing.ACTIVATION_START, bearer="Pip", save_ends=True,
                  keywords=frozenset({"peur"}))
    enc = started(d20.Rules(save_target=10), effects=[fear])
    enc.end_activation(ScriptedRolls([]))  # Thorin
    enc.end_activation(ScriptedRolls([]))  # Gob
    assert enc.current == "Pip"
    enc.end_activation(ScriptedRolls([5]))
    assert enc.state.effects == []
    assert last(enc, "jet_de_sauvegarde").data["total"] == 10


# -- D20-END-2 -----------------------------------------------------------------------------


def test_end_of_turn_effects_end_after_saves_d20_end_2() -> None:
    """D20-END-2: « until the end of your turn » effects end now, after the saves."""
    effects = [
        Effect("", "Posture défensive", Timing.ACTIVATION_END, bearer="Thorin", remaining=1),
        Effect("", "Lenteur", Timing.ACTIVATION_START, bearer="Thorin", save_ends=True),
    ]
    enc = started(effects=effects)
    enc.act("Thorin", "mineure")
    assert {e.name for e in enc.state.effects} == {"Posture défensive", "Lenteur"}
    enc.end_activation(ScriptedRolls([12]))  # Lenteur: 12 ≥ 10 → ends
    save = last(enc, "jet_de_sauvegarde")
    end = last(enc, "fin_de_tour")
    gone = [e for e in enc.log if e.kind == "effet_fin"]
    assert end.rules == ("D20-END-2",) and "Posture défensive" in end.text
    assert "aucune action possible" in end.text
    # the save's own sentence says that Lenteur ends (D20-END-1), the end-of-turn
    # sentence that Posture défensive does (D20-END-2): no second line for either
    assert "l’effet prend fin" in save.text
    assert gone == []
    assert save.seq < end.seq
    assert enc.state.effects == []
    assert enc.current == "Gob"


def test_no_action_in_end_phase_d20_end_2() -> None:
    """D20-END-2 (and D20-END-1): saves and effect endings are no actions."""
    enc = started()
    assert_rejected(enc, "D20-END-1", "Thorin", "jet_de_sauvegarde")
    assert_rejected(enc, "D20-END-2", "Thorin", "fin_d_effet")


# -- exact odds (D20-END-1) -----------------------------------------------------------------


def test_save_odds_by_hand_d20_end_1() -> None:
    """D20-END-1: P(1d20 + b ≥ 10) = (number of faces from 10 − b to 20) / 20."""
    ten = d20.Rules(save_target=10)
    assert d20.save_odds(0, rules=ten).success == Fraction(11, 20)  # faces 10..20
    assert d20.save_odds(5, rules=ten).success == Fraction(16, 20)  # faces 5..20
    assert d20.save_odds(9, rules=ten).success == 1  # faces 1..20
    assert d20.save_odds(-10, rules=ten).success == Fraction(1, 20)  # face 20 only
    assert d20.save_odds(-11, rules=ten).success == 0
    odds = d20.save_odds(2, rules=ten)
    assert odds.success + odds.failure == 1
    assert [label for label, _ in odds.bars()] == ["sauvegarde réussie", "sauvegarde ratée"]


@given(st.integers(-40, 40))
def test_save_odds_match_enumeration_d20_end_1(bonus: int) -> None:
    """D20-END-1 (property): the exact odds agree with counting the 20 faces."""
    count = sum(d20.saving_throw(face, bonus) for face in range(1, 21))
    assert d20.save_odds(bonus).success == Fraction(count, 20)


def test_duration_by_hand_d20_end_1() -> None:
    """D20-END-1: an effect lasts exactly n turns with probability (9/20)^(n−1) · 11/20
    with no bonus (fail n − 1 saves, then succeed)."""
    ten = d20.Rules(save_target=10)
    assert d20.lasts_exactly(1, rules=ten) == Fraction(11, 20)
    assert d20.lasts_exactly(3, rules=ten) == Fraction(9, 20) ** 2 * Fraction(11, 20)
    odds = d20.duration_odds(0, max_turns=4, rules=ten)
    assert odds.exactly[2] == Fraction(9 * 11, 400)
    assert odds.beyond == Fraction(9, 20) ** 4
    assert odds.mean == Fraction(20, 11)
    assert sum(odds.exactly.values()) + odds.beyond == 1
    labels = [label for label, _ in odds.bars()]
    assert labels == ["1 tour", "2 tours", "3 tours", "4 tours", "plus de 4 tours"]
    never = d20.duration_odds(-11, max_turns=3, rules=ten)
    assert never.beyond == 1 and never.mean is None
    assert d20.duration_odds(9, rules=ten).exactly[1] == 1


@settings(max_examples=25, deadline=None)
@given(st.integers(-12, 10), st.integers(1, 3))
def test_duration_matches_enumeration_d20_end_1(bonus: int, turns: int) -> None:
    """D20-END-1 (property): the duration law agrees with every sequence of saves."""
    counts = [0] * (turns + 1)  # index n − 1: first success at save n; last: none
    for seq in itertools.product(range(1, 21), repeat=turns):
        first = next((i for i, r in enumerate(seq) if d20.saving_throw(r, bonus)), turns)
        counts[first] += 1
    total = 20 ** turns
    odds = d20.duration_odds(bonus, max_turns=turns)
    assert [odds.exactly[n] for n in range(1, turns + 1)] == [
        Fraction(c, total) for c in counts[:-1]]
    assert odds.beyond == Fraction(counts[-1], total)


# -- R7: figures that the engine can check ---------------------------------------------------


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
