"""Immediate actions in automated d20 play (book/concepteurs.md): a halfling attacked by an enemy
takes its racial interruption « Deuxième chance » (the text's example, D20-IMM-2) when its
immediate action is unused (D20-IMM-1), and its policy says yes; the attack is cancelled,
and the attacker's standard action stays spent or comes back per
``cancelled_action_spent`` (D20-OPP-1, D20-IMM-2). Dice fixed with ScriptedRolls."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import Combatant
from escarmouche.encounter import Encounter
from escarmouche.policies import POLICIES, TagPolicy
from escarmouche.rng import ScriptedRolls
from escarmouche.systems import d20
from escarmouche.systems.d20.rules import IMMEDIATE_POWERS

HALFLING = Combatant("Halfeline", "halfelins", {"PV": 16, "attaque": 6, "defense": 13,
                                               "init": 3}, traits=frozenset({"halfelin"}))
RAIDER = Combatant("Pillard", "pillards", {"PV": 16, "attaque": 6, "defense": 12, "init": 2})
RAIDER_B = dataclasses.replace(RAIDER, name="Pillard B")


def fight(roster: Sequence[Combatant], positions: dict[str, list[int]], dice: list[int],
          rounds: int, *, policy: object = None, **options: object) -> Encounter:
    # pinned: no action point to start with (the text's default), so that the raider's
    # one standard action is all it has; a test names any other option it assumes
    pinned: dict[str, object] = {"default_action_points": 0, **options}
    enc = Encounter("d20", list(roster), rules=d20.Rules(**pinned))  # type: ignore[arg-type]
    rng = ScriptedRolls(dice)
    enc.start(rng, positions=positions)
    enc.run(rng, max_turns=rounds, policy=policy)
    return enc


def interrupted(enc: Encounter) -> list[tuple[int, str]]:
    """(round, attacker) of every attack cancelled by an interruption."""
    return [(e.turn, str(e.actor)) for e in enc.log if e.kind == "action_annulee"]


def attacks(enc: Encounter, who: str) -> list[int]:
    """The round of every attack roll ``who`` made."""
    return [e.turn for e in enc.log if e.kind == "attaque" and e.actor == who]


# initiative: one d20 per fighter in roster order (Halfeline 1 + 3, Pillard 20 + 2: the
# raider first), then every attack d20 is 1 (a miss: 1 + 6 < 12), so no damage die
DUEL = ([HALFLING, RAIDER], {"Halfeline": [1, 0], "Pillard": [0, 0]}, [1, 20] + [1] * 10)


def test_an_attacked_halfling_takes_second_chance_which_cancels_the_attack_d20_imm_2(
        ) -> None:
    """D20-IMM-2: the raider attacks the halfling; her policy takes « Deuxième chance »,
    an interruption resolved before the attack, which it invalidates: the attack is
    cancelled, no die is rolled for it, and the raider's standard action stays spent
    (the original edition's ruling, pinned: the raider makes no other attack this round)."""
    roster, positions, dice = DUEL
    enc = fight(roster, positions, dice, 1, cancelled_action_spent=True)
    power = IMMEDIATE_POWERS["deuxieme_chance"]
    taken = [e for e in enc.log if e.kind == "interruption"]
    assert [(e.actor, e.data["name"], e.data["effect"]) for e in taken] == [
        ("Halfeline", power.label, "arret")]
    assert "D20-IMM-2" in taken[0].rules
    assert interrupted(enc) == [(1, "Pillard")]
    cancel = next(e for e in enc.log if e.kind == "action_annulee")
    assert cancel.data["spent"] is True and "rendue" not in cancel.text
    assert attacks(enc, "Pillard") == [] and attacks(enc, "Halfeline") == [1]


def test_a_policy_that_declines_immediate_actions_never_takes_one_d20_imm_1() -> None:
    """D20-IMM-1: the halfling's policy is asked (kind « action_immediate »); one that
    declines it lets the attack through, rolled."""
    roster, positions, dice = DUEL
    calm = TagPolicy("calme", "calme", "n’agit jamais hors de son tour",
                     POLICIES["agressif"].prefer,  # type: ignore[attr-defined]
                     frozenset({"action_immediate"}))
    enc = fight(roster, positions, dice, 1, policy={"halfelins": calm})
    assert interrupted(enc) == [] and not any(e.kind == "interruption" for e in enc.log)
    assert attacks(enc, "Pillard") == [1]


def test_only_a_bearer_of_the_power_is_offered_it_d20_imm_2() -> None:
    """D20-IMM-2: « Deuxième chance » is the halfling's racial power; the same fighter
    without the trait takes no immediate action."""
    _, positions, dice = DUEL
    plain = dataclasses.replace(HALFLING, traits=frozenset())
    enc = fight([plain, RAIDER], positions, dice, 1)
    assert interrupted(enc) == [] and attacks(enc, "Pillard") == [1]


@pytest.mark.parametrize("spent", [True, False])
def test_a_cancelled_attack_given_back_is_played_again_d20_opp_1(spent: bool) -> None:
    """D20-OPP-1, D20-IMM-2 (``cancelled_action_spent``): when the cancelled attack
    stays spent, the raider has no standard action left this turn (and no action point);
    when it is given back, its tactics use it at once to attack again, and this time the
    halfling, her immediate action used, cannot interrupt."""
    roster, positions, dice = DUEL
    enc = fight(roster, positions, dice, 1, cancelled_action_spent=spent)
    assert interrupted(enc) == [(1, "Pillard")]
    cancel = next(e for e in enc.log if e.kind == "action_annulee")
    assert cancel.data["spent"] is spent
    assert ("son action simple lui est rendue" in cancel.text) is not spent
    assert attacks(enc, "Pillard") == ([] if spent else [1])


@pytest.mark.parametrize(("reset", "expected"), [
    ("debut_de_son_tour", [(1, "Pillard"), (1, "Pillard B"), (2, "Pillard B")]),
    ("debut_du_round", [(1, "Pillard"), (2, "Pillard")]),
])
def test_when_the_immediate_action_comes_back_decides_whom_she_interrupts_d20_imm_1(
        reset: str, expected: list[tuple[int, str]]) -> None:
    """D20-IMM-1 (``immediate_reset``): initiative Pillard 22, Halfeline 13, Pillard B 3,
    every attack missing. Coming back at the start of her own turn, her immediate action
    is spent on the first raider of round 1, comes back at her turn, is spent on the
    second raider, and is still spent when the first one attacks in round 2. Coming back
    at the start of each round, she interrupts only the first raider of each round."""
    roster = [HALFLING, RAIDER, RAIDER_B]
    positions = {"Halfeline": [1, 0], "Pillard": [0, 0], "Pillard B": [2, 0]}
    enc = fight(roster, positions, [10, 20, 1] + [1] * 20, 2, immediate_reset=reset)
    assert enc.log[0].data["order"] == ["Pillard", "Halfeline", "Pillard B"]
    assert interrupted(enc) == expected
    assert all("D20-IMM-1" in e.rules for e in enc.log if e.kind == "interruption")


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), reset=st.sampled_from(["debut_de_son_tour",
                                                          "debut_du_round"]),
       spent=st.booleans(), policy=st.sampled_from(["agressif", "prudent", "au_hasard"]))
def test_the_halfling_duel_keeps_one_immediate_action_per_allowance_d20_imm_1(
        seed: int, reset: str, spent: bool, policy: str) -> None:
    """D20-IMM-1: in the situation duel, whatever the dice, the options and the
    halfling's policy, the fight ends, and she never takes two immediate actions in one
    allowance: between two of her own turns when it comes back then, within one round
    when it comes back at the start of each round."""
    duel = d20.SYSTEM.situation_duels[-1]
    enc = Encounter("d20", list(duel.combatants),
                    rules=d20.Rules(immediate_reset=reset, cancelled_action_spent=spent))
    enc.start(random.Random(seed), **dict(duel.start_options))
    enc.run(random.Random(seed + 1), max_turns=50, policy={"halfelins": policy})
    assert enc.finished
    windows: list[int] = []
    count = 0
    for e in enc.log:
        new_window = (e.kind == "round" if reset == "debut_du_round"
                      else e.kind == "activation" and e.actor == "Halfeline")
        if new_window:
            windows.append(count)
            count = 0
        elif e.kind == "interruption" and e.actor == "Halfeline":
            count += 1
    assert max([*windows, count]) <= 1
