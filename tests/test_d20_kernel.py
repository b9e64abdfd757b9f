"""The d20 rules kernel (``escarmouche.systems.d20.kernel``) against the full engine.

For every fight it covers (the example rosters, the golden fights, the situation duels
without effects, the sample roster, any roster Hypothesis draws, each under the
deterministic policies and several options), the kernel's fight, written back as the
engine's state (``kernel_doors.write_back``), is the full engine's fight for the same
dice: every track, flag, counter, the outcome and the dice consumed (CORE-RNG,
CORE-LOG), and the same tallies; its log tuples are the engine's sentences
(``kernel_doors.narrate``); each refusal code answers the case it names, and the engine
refuses that case too, citing the same rule; the candidates are the legal moves
automated play offers; and what the kernel does not cover is left to the engine.

Rules covered: D20-INIT-1/2, D20-TIME-1, D20-ACT-1/2/3, D20-OPP-1/2, D20-IMM-1/2,
CORE-END-1, CORE-RNG, CORE-LOG.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import Combatant
from escarmouche import simulation as sim
from escarmouche.encounter import Encounter
from escarmouche.roster import example_rosters, load_roster
from escarmouche.state import EndCondition
from escarmouche.systems import d20
from escarmouche.systems.d20 import kernel as K
from escarmouche.systems.d20 import kernel_doors as doors
from tests import golden_runner
from tests.test_d100_kernel import engine_fight
from tests.test_d100_kernel import kernel_fight as d100_kernel_fight

SEEDS = 30
POLICIES = ("agressif", "prudent", "par_defaut")


def kernel_fight(prepared: sim.Prepared, seed: int, max_turns: int
                 ) -> tuple[tuple[str, Any], K.State]:
    """The d20 kernel's fight, through the d100 test's helper (the same stream)."""
    got, kst = d100_kernel_fight(prepared, seed, max_turns, kernel=K, kernel_doors=doors)
    assert isinstance(kst, K.State)
    return got, kst


def covered(roster: Any, start: dict[str, Any], policy: Any, max_turns: int = 30,
            rules: Any = None) -> sim.Prepared:
    """``roster`` prepared with the kernel for ``start`` and ``policy`` (asserted to be
    covered)."""
    prepared = sim.prepare(roster, policy=policy, max_turns=max_turns)
    template = prepared.template
    if rules is not None:
        template = Encounter(d20.SYSTEM, [f.combatant for f in
                                          template.state.fighters.values()], rules=rules,
                             end_conditions=template.state.end_conditions)
    options = {**prepared.start_options, **start}
    sheet = d20.SYSTEM.kernel(template, options, prepared.policies)
    assert isinstance(sheet, K.Sheet)
    return sim.Prepared(template, options, prepared.policies, max_turns, sheet)


def check_equal(prepared: sim.Prepared, seeds: Any, label: str = "") -> int:
    """Fights ``seeds`` by the kernel and by the full engine: the same state, dice
    consumed and tallies; how many were compared."""
    engine = sim.Prepared(prepared.template, prepared.start_options, prepared.policies,
                          prepared.max_turns)
    n = 0
    for seed in seeds:
        max_turns = 2 if seed % 10 == 3 else prepared.max_turns  # the limit too
        kernel, _ = kernel_fight(prepared, seed, max_turns)
        assert kernel == engine_fight(prepared, seed, max_turns), (label, seed)
        assert prepared.play(seed, 5) == engine.play(seed, 5), (label, seed)
        n += 1
    return n


def cases() -> list[tuple[str, Any, dict[str, Any]]]:
    """(label, roster, start options) of the fights the kernel is held to."""
    out: list[tuple[str, Any, dict[str, Any]]] = [
        ("sample", sim.as_roster(Encounter(d20.SYSTEM, list(d20.SYSTEM.sample_roster))), {})]
    for name in ("d20-duel", "d20-escarmouche"):
        out.append((name, load_roster(example_rosters()[name]), {}))
    for duel in d20.SYSTEM.situation_duels:  # the effects are left to the engine
        out.append((duel.key, sim.as_roster(Encounter(d20.SYSTEM, list(duel.combatants))),
                    dict(duel.start_options)))
    for k, fight in enumerate(golden_runner.load("d20")["fights"]):
        enc = golden_runner.build(d20.SYSTEM, fight)
        if enc.state.effects:  # its roster without them (effects are the engine's)
            enc = Encounter(d20.SYSTEM, [f.combatant for f in enc.state.fighters.values()],
                            rules=enc.rules, end_conditions=enc.state.end_conditions)
        out.append((f"golden-{k}", sim.as_roster(enc), dict(fight.get("start", {}))))
    return out


@pytest.mark.parametrize("policy", [None, *POLICIES[1:]])
@pytest.mark.parametrize("case", cases(), ids=lambda c: c[0])
def test_kernel_equals_full_engine_core_rng(case: tuple[str, Any, dict[str, Any]],
                                            policy: Any) -> None:
    """CORE-RNG / CORE-LOG, D20-INIT-1, D20-TIME-1, D20-ACT-1..3, D20-OPP-1/2,
    D20-IMM-1/2: every covered fight ends where the full engine ends it (state, dice)
    and counts the same result, under the turn limit too."""
    label, roster, start = case
    assert check_equal(covered(roster, start, policy), range(SEEDS), label) == SEEDS


@pytest.mark.parametrize("rules", [
    d20.Rules(cancelled_action_spent=False),
    d20.Rules(immediate_reset="debut_du_round"),
    d20.Rules(max_action_points_per_turn=1, default_action_points=2),
    d20.Rules(default_weapon="2d4+1", default_defence=14, default_speed=3),
    d20.Rules(max_roll_off_rounds=2),
], ids=["rendue", "round", "plafond", "arme", "lots"])
def test_kernel_equals_full_engine_under_options_d20_imm_1(rules: d20.Rules) -> None:
    """D20-OPP-1 / D20-IMM-2 (a cancelled action given back), D20-IMM-1 (the allowance
    back each round), D20-ACT-3 (the cap of points), the default weapon, defence and
    speed, D20-INIT-2 (ties by lot past two roll-offs): the kernel's fights are the
    engine's."""
    for label, roster, start in cases()[:3]:
        check_equal(covered(roster, start, "agressif", rules=rules), range(SEEDS), label)


def test_kernel_equals_full_engine_under_end_conditions_core_end_1() -> None:
    """CORE-END-1: end conditions end the kernel's fights where they end the engine's
    (the engine's own ``end_outcome``), the condition « tours » at a round's end."""
    roster = list(d20.SYSTEM.sample_roster)
    for ends in ((EndCondition("combattant_hors_combat", "Brune tombe", name="Brune"),),
                 (EndCondition("camp_hors_combat", "défaite", side="héros"),),
                 (EndCondition("tours", "les héros ont tenu", turns=2),)):
        enc = Encounter(d20.SYSTEM, roster, end_conditions=ends)
        check_equal(covered(sim.as_roster(enc), {}, "agressif"), range(SEEDS))


_SQUARES = st.tuples(st.integers(-4, 4), st.integers(-3, 3))


@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_kernel_equals_full_engine_on_any_roster_core_rng(data: st.DataObject) -> None:
    """CORE-RNG, D20-*: any roster of two to five fighters on two or three sides (any
    ``init``, attack, defence, PV, speed, action points, halflings or not, squares or
    the default columns), any options, any deterministic policies, several seeds: the
    kernel's fight is the full engine's."""
    n = data.draw(st.integers(2, 5))
    sides = data.draw(st.lists(st.sampled_from("ABC"), min_size=n, max_size=n)
                      .filter(lambda s: len(set(s)) >= 2))
    roster = []
    for k, side in enumerate(sides):
        stats = {"init": data.draw(st.integers(-2, 4)), "attaque": data.draw(st.integers(0, 8)),
                 "PV": data.draw(st.integers(1, 20))}
        for stat, values in (("defense", st.integers(8, 18)), ("VD", st.integers(1, 6)),
                             ("PA", st.integers(0, 2))):
            if data.draw(st.booleans()):
                stats[stat] = data.draw(values)
        traits = {"halfelin"} if data.draw(st.booleans()) else set()
        roster.append(Combatant(f"F{k}", side, stats, traits=traits))
    start: dict[str, Any] = {}
    if data.draw(st.booleans()):
        squares = data.draw(st.lists(_SQUARES, min_size=n, max_size=n, unique=True))
        start["positions"] = {f"F{k}": list(sq) for k, sq in enumerate(squares)}
    rules = d20.Rules(cancelled_action_spent=data.draw(st.booleans()),
                      immediate_reset=data.draw(st.sampled_from(["debut_de_son_tour",
                                                                 "debut_du_round"])),
                      max_action_points_per_turn=data.draw(st.sampled_from([None, 1])))
    enc = Encounter(d20.SYSTEM, roster, rules=rules)
    policy = {side: data.draw(st.sampled_from(POLICIES)) for side in sorted(set(sides))}
    prepared = covered(sim.as_roster(enc), start, policy, rules=rules,
                       max_turns=data.draw(st.sampled_from([3, 30])))
    seeds = data.draw(st.lists(st.integers(0, 100_000), min_size=3, max_size=3))
    check_equal(prepared, seeds)
