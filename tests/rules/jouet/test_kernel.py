"""The rules kernel of « Jouet » (``tests/toy_system/kernel.py``, the model) against the
full engine.

For the sample roster and any roster Hypothesis draws (two to six fighters, two or three
sides, any ``init``, PV and option ``faces``, end conditions or none, any deterministic
policies), the kernel's fight written back as the engine's state is the full engine's for
the same dice, with the same dice consumed and the same tallies (CORE-RNG, CORE-LOG);
its log tuples are the engine's sentences; each refusal code answers the case it names
and the engine refuses that case too; the candidates are exactly the moves the refusal
accepts; and what the kernel does not cover is left to the engine.
"""

from __future__ import annotations

import doctest
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import Combatant, Effect, EscarmoucheError
from escarmouche import simulation as sim
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter
from escarmouche.model import Timing
from escarmouche.policies import resolve_policies
from escarmouche.state import EndCondition
from tests.helpers.kernels import engine_fight
from tests.helpers.kernels import kernel_fight as shared_kernel_fight
from tests.toy_system import SYSTEM as TOY
from tests.toy_system import Rules, initiative, resolve_initiative, resolve_strike, rules
from tests.toy_system import kernel as K
from tests.toy_system import kernel_doors as doors

#: seeds per policy and option on the sample roster
SEEDS = 40
POLICIES = ("agressif", "prudent", "par_defaut")


def sample(faces: int = 6, end_conditions: tuple[EndCondition, ...] = ()) -> Encounter:
    """The toy's sample roster (Aldric and Brune against Grolk), unstarted."""
    return Encounter(TOY, list(TOY.sample_roster), rules=Rules(faces=faces),
                     end_conditions=end_conditions)


def kernel_fight(prepared: sim.Prepared, seed: int, max_turns: int
                 ) -> tuple[tuple[str, Any], K.State]:
    """The toy kernel's fight, through the d100 test's helper."""
    got, st = shared_kernel_fight(prepared, seed, max_turns, kernel=K, kernel_doors=doors)
    assert isinstance(st, K.State)
    return got, st


def check_equal(enc: Encounter, policy: Any, seeds: range | list[int], max_turns: int
                ) -> int:
    """Fights ``seeds`` of ``enc`` by the kernel and by the full engine: the same state,
    dice consumed and tallies; how many fights were compared."""
    prepared = sim.prepare(sim.as_roster(enc), policy=policy, max_turns=max_turns)
    assert isinstance(prepared.kernel, K.Sheet)
    engine = sim.Prepared(prepared.template, prepared.start_options, prepared.policies,
                          max_turns)
    for seed in seeds:
        kernel, _ = kernel_fight(prepared, seed, max_turns)
        assert kernel == engine_fight(prepared, seed, max_turns), seed
        assert prepared.play(seed, 5) == engine.play(seed, 5), seed
    return len(seeds)


@pytest.mark.parametrize("faces", [2, 6, 20])
@pytest.mark.parametrize("policy", [None, *POLICIES, {"monstres": "prudent"}])
def test_kernel_equals_full_engine_on_the_sample_roster_core_rng(policy: Any,
                                                                 faces: int) -> None:
    """CORE-RNG / CORE-LOG, JOUET-INIT-1, JOUET-ATK-1, JOUET-END-1: the sample roster's
    fights end where the full engine ends them (every track, counter, the order, the
    outcome, the dice consumed) and count the same result, under the turn limit too."""
    enc = sample(faces)
    assert check_equal(enc, policy, range(SEEDS), 50) == SEEDS
    assert check_equal(enc, policy, range(SEEDS, SEEDS + 10), 2) == 10  # the limit


def test_kernel_equals_full_engine_under_end_conditions_core_end_1() -> None:
    """CORE-END-1: end conditions (a fighter out, a side out, turns held) end the
    kernel's fights where they end the engine's: the engine's own ``end_outcome``."""
    for ends in ((EndCondition("combattant_hors_combat", "Brune tombe", name="Brune"),),
                 (EndCondition("camp_hors_combat", "défaite", side="héros"),),
                 (EndCondition("tours", "les héros ont tenu", turns=2),)):
        check_equal(sample(4, ends), "agressif", range(SEEDS), 30)


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_kernel_equals_full_engine_on_any_roster_core_rng(data: st.DataObject) -> None:
    """CORE-RNG, JOUET-INIT-1/ATK-1/END-1: any roster of two to six fighters on two or
    three sides (any ``init``, PV, option ``faces``, end conditions or none, any
    deterministic policies), several seeds each: the kernel's fight is the full
    engine's."""
    n = data.draw(st.integers(2, 6))
    sides = data.draw(st.lists(st.sampled_from("ABC"), min_size=n, max_size=n)
                      .filter(lambda s: len(set(s)) >= 2))
    roster = [Combatant(f"F{k}", side, {"init": data.draw(st.integers(-3, 5)),
                                        "PV": data.draw(st.integers(1, 25))})
              for k, side in enumerate(sides)]
    ends = data.draw(st.sampled_from([
        (), (EndCondition("tours", "tenu", turns=3),),
        (EndCondition("combattant_hors_combat", "F0 tombe", name="F0"),),
        (EndCondition("camp_hors_combat", "A tombe", side="A"),)]))
    enc = Encounter(TOY, roster, rules=Rules(faces=data.draw(st.integers(2, 20))),
                    end_conditions=ends)
    policy = {side: data.draw(st.sampled_from(POLICIES)) for side in sorted(set(sides))}
    seeds = data.draw(st.lists(st.integers(0, 100_000), min_size=4, max_size=4))
    check_equal(enc, policy, seeds, data.draw(st.sampled_from([2, 5, 50])))


def test_log_tuples_are_the_engines_events_jouet_atk_1() -> None:
    """JOUET-ATK-1: each blow of the kernel's log carries its turn, striker and die as
    the engine's event records them, the damage that ``resolve_strike`` gives the die and
    the PV left, told (``kernel_doors.narrate``) as the engine's sentence, in the same
    order; JOUET-INIT-1: the scores are the engine's."""
    prepared = sim.prepare(sim.as_roster(sample(8)))
    sheet = prepared.kernel
    assert isinstance(sheet, K.Sheet)
    blows = 0
    for seed in range(40):
        kst = K.run(sheet, random.Random(seed).randint, 50)
        enc = sample(8)
        enc.run(random.Random(seed))
        said = [e for e in enc.log if e.kind == "attaque"]
        assert [doors.narrate(sheet, entry) for entry in kst.log] == [e.text for e in said]
        assert all(e.rules == ("JOUET-ATK-1",) for e in said)
        assert [(turn, sheet.names[i], (sheet.rules.faces, roll))
                for _, turn, i, _, roll, _, _ in kst.log] == [
            (e.turn, e.actor, *((d.faces, d.value) for d in e.dice)) for e in said]
        for kind, _, _, _, roll, damage, _ in kst.log:
            assert kind == K.STRIKE and damage == resolve_strike(roll, sheet.rules).damage
        scores = next(e for e in enc.log if e.kind == "initiative").data["scores"]
        assert dict(zip(sheet.names, kst.scores, strict=True)) == scores
        blows += len(kst.log)
    assert blows > 150


def started(faces: int = 6) -> tuple[Encounter, K.Sheet, K.State]:
    """The sample roster started on the same fixed dice by the engine and the kernel:
    d6s 1, 1, 6 give Aldric 3, Brune 2, Grolk 6 (JOUET-INIT-1): Grolk acts first."""
    enc = sample(faces)
    enc.start(ScriptedRolls([1, 1, 6]))
    sheet = K.compile_sheet(enc_template := sample(faces), {},
                            resolve_policies("jouet", ["héros", "monstres"], None))
    assert sheet is not None and sheet.template is enc_template
    kst = K.start(sheet, ScriptedRolls([1, 1, 6]).randint)
    assert kst.scores == (3, 2, 6) and enc.state.current == "Grolk"
    return enc, sheet, kst


ALDRIC, BRUNE, GROLK = 0, 1, 2


def refused(enc: Encounter, actor: str, target: str) -> str:
    """The rule the engine cites when it refuses ``actor``'s blow on ``target``; the
    fight is left as it was (CORE-ERR)."""
    before = enc.state.to_json()
    with pytest.raises(EscarmoucheError) as err:
        enc.act(actor, "frapper", ScriptedRolls([1]), cible=target)
    assert enc.state.to_json() == before
    return str(err.value.rule)


def test_refusal_codes_answer_their_cases_jouet_atk_1() -> None:
    """Each refusal code for the case it names, on fixed dice, and the engine refuses
    the same case citing the same rule: not its activation (NOT_ITS_TURN), no such
    fighter or not an enemy (NO_TARGET), a second blow in one activation (STRUCK),
    JOUET-ATK-1; out of the fight (OUT, JOUET-END-1), a target out (NO_TARGET)."""
    enc, sheet, kst = started(faces=10)
    strike = (K.ATTACK, ALDRIC)
    assert K.refusal(sheet, kst, GROLK, strike) == 0
    assert K.refusal(sheet, kst, BRUNE, (K.ATTACK, GROLK)) == K.NOT_ITS_TURN
    assert refused(enc, "Brune", "Grolk") == K.REFUSALS[K.NOT_ITS_TURN] == "JOUET-ATK-1"
    for target in (GROLK, 3, -1):  # itself, and no such fighter
        assert K.refusal(sheet, kst, GROLK, (K.ATTACK, target)) == K.NO_TARGET
    assert refused(enc, "Grolk", "Grolk") == K.REFUSALS[K.NO_TARGET] == "JOUET-ATK-1"
    assert refused(enc, "Grolk", "Personne") == "JOUET-ATK-1"

    # Grolk's blow: a 10 on 1d10 takes Aldric's 10 PV, both ways
    K.play(sheet, kst, GROLK, strike, ScriptedRolls([10]).randint)
    enc.act("Grolk", "frapper", ScriptedRolls([10]), cible="Aldric")
    assert kst.log == [(K.STRIKE, 1, GROLK, ALDRIC, 10, 10, 0)]
    assert kst.out[ALDRIC] and enc.fighter("Aldric").out
    assert K.refusal(sheet, kst, GROLK, (K.ATTACK, BRUNE)) == K.STRUCK
    assert refused(enc, "Grolk", "Brune") == K.REFUSALS[K.STRUCK] == "JOUET-ATK-1"
    assert K.refusal(sheet, kst, GROLK, strike) == K.NO_TARGET  # a target out
    assert refused(enc, "Grolk", "Aldric") == "JOUET-ATK-1"
    assert K.refusal(sheet, kst, ALDRIC, (K.ATTACK, GROLK)) == K.OUT
    assert K.REFUSALS[K.OUT] == "JOUET-END-1"
    refused(enc, "Aldric", "Grolk")  # the engine: never its activation again
    assert list(K.candidates(sheet, kst, GROLK)) == []

    # Brune's activation comes next (Aldric, out, is skipped): one blow, on Grolk
    K._advance(sheet, kst)
    enc.end_activation()
    assert list(K.candidates(sheet, kst, BRUNE)) == [(K.ATTACK, GROLK)]
    assert K.refusal(sheet, kst, GROLK, (K.ATTACK, BRUNE)) == K.NOT_ITS_TURN
    back = doors.write_back(sheet, kst).state.to_json()
    assert back == {**enc.state.to_json(), "log": []}


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_candidates_are_exactly_the_moves_refusal_accepts_jouet_atk_1(
        data: st.DataObject) -> None:
    """JOUET-ATK-1: at every step of a fight played by any legal choices, for every
    fighter, the candidates are exactly the blows :func:`refusal` accepts (every target
    index, a wrong one included), none after a blow, none out of turn or out of the
    fight (JOUET-END-1)."""
    n = data.draw(st.integers(2, 6))
    roster = [Combatant(f"F{k}", data.draw(st.sampled_from("AB")) if k > 1 else "AB"[k],
                        {"init": data.draw(st.integers(-2, 3)),
                         "PV": data.draw(st.integers(1, 12))}) for k in range(n)]
    sheet = K.compile_sheet(Encounter(TOY, roster), {},
                            resolve_policies("jouet", ["A", "B"], None))
    assert sheet is not None
    dice = random.Random(data.draw(st.integers(0, 10_000)))
    kst = K.start(sheet, dice.randint)
    for _ in range(60):
        for actor in range(n):
            legal = [(K.ATTACK, j) for j in range(-1, n + 1)
                     if K.refusal(sheet, kst, actor, (K.ATTACK, j)) == 0]
            assert list(K.candidates(sheet, kst, actor)) == legal
        if kst.finished:
            break
        moves = list(K.candidates(sheet, kst, kst.order[kst.cursor]))
        strikes: bool = data.draw(st.booleans())
        if moves and strikes:
            K.play(sheet, kst, kst.order[kst.cursor], data.draw(st.sampled_from(moves)),
                   dice.randint)
        if not kst.finished:
            K._advance(sheet, kst)


def test_the_engine_plays_what_the_kernel_does_not_cover() -> None:
    """``ToySystem.kernel`` answers ``None`` (the engine plays) for the random policy,
    start options, a single side, effects, a fighter out or fled, a fight started;
    simulation mode then still plays."""
    policies = resolve_policies("jouet", ["héros", "monstres"], None)
    assert isinstance(TOY.kernel(sample(), {}, policies), K.Sheet)
    roster = sim.as_roster(sample())
    assert sim.prepare(roster, policy="au_hasard").kernel is None
    assert sim.prepare(roster, policy="au_hasard").play(0, 1).winner in ("héros",
                                                                         "monstres", None)
    assert TOY.kernel(sample(), {"surpris": "héros"}, policies) is None
    alone = Encounter(TOY, [Combatant("A", "x", {"PV": 3}), Combatant("B", "x", {"PV": 3})])
    assert TOY.kernel(alone, {}, resolve_policies("jouet", ["x"], None)) is None
    poisoned = sample()
    poisoned.add_effect(Effect("", "poison", Timing.TURN_START, bearer="Grolk"))
    assert TOY.kernel(poisoned, {}, policies) is None
    fled = sample()
    fled.flee("Brune")
    assert TOY.kernel(fled, {}, policies) is None
    down = sample()
    down.adjust("Brune", "PV", -8)
    assert down.fighter("Brune").out and TOY.kernel(down, {}, policies) is None
    begun = sample()
    begun.start(random.Random(1))
    assert TOY.kernel(begun, {}, policies) is None


def test_the_rules_are_written_once_jouet_init_1() -> None:
    """JOUET-INIT-1, JOUET-END-1: the documented ``resolve_initiative`` is the kernel's
    arithmetic (``order_by_initiative``) over checked dice, and the engine's ``is_out``
    is ``knocked_out``; the toy's doctests hold."""
    roster = list(TOY.sample_roster)
    inits = [c.stat("init", 0) for c in roster]
    for rolls in ([1, 1, 6], [6, 6, 6], [3, 4, 5], [1, 2, 3]):
        init = resolve_initiative(roster, rolls)
        scores, order = initiative.order_by_initiative(inits, rolls)
        assert init.order == tuple(roster[i].name for i in order)
        assert init.scores == tuple((c.name, s) for c, s in zip(roster, scores, strict=True))
    enc = sample()
    enc.adjust("Grolk", "PV", -13)
    assert not enc.fighter("Grolk").out
    enc.adjust("Grolk", "PV", -1)
    assert enc.fighter("Grolk").out and rules.knocked_out(enc.fighter("Grolk").tracks["PV"])
    for module in (initiative, rules, K, doors):
        assert doctest.testmod(module).failed == 0, module.__name__
