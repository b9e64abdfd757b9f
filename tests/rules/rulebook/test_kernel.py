"""The Rulebook rules kernel (``escarmouche.systems.rulebook.kernel``) against the engine.

For every fight it covers (the example rosters, the golden fights with a declared
hit die and without effects, the situation duel, the sample roster with a declared hit
die, any roster Hypothesis draws, each under the deterministic policies and several
options), the kernel's fight, written back as the engine's state
(``kernel_doors.write_back``), is the full engine's fight for the same dice: every
track, flag, counter, the initiative and the surprise, the outcome and the dice
consumed (CORE-RNG, CORE-LOG), and the same tallies; its log tuples are the engine's
sentences (``kernel_doors.narrate``); each refusal code answers the case it names, and
the engine refuses that case too, citing the same rule; the candidates are the moves
automated play offers; and what the kernel does not cover is left to the engine.

Rules covered: RB-D100-1, RB-INIT-1..4, RB-SURPRISE-1..3, RB-SPEED-1..3, RB-TURN-1,
RB-ACT-1, RB-MOVE-1, RB-END-1..3, CORE-END-1, CORE-RNG, CORE-LOG.
"""

from __future__ import annotations

import dataclasses
import doctest
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import Combatant, Effect, EscarmoucheError
from escarmouche import simulation as sim
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter
from escarmouche.errors import RuleBoundError
from escarmouche.model import Timing
from escarmouche.options import find
from escarmouche.policies import resolve_policies
from escarmouche.roster import Roster, example_rosters, load_roster
from escarmouche.state import EndCondition, end_outcome
from escarmouche.systems import rulebook as rb
from escarmouche.systems.rulebook import actions
from escarmouche.systems.rulebook import kernel as K
from escarmouche.systems.rulebook import kernel_doors as doors
from escarmouche.systems.rulebook import rules as rb_rules
from escarmouche.systems.rulebook.initiative import resolve_initiative_with
from escarmouche.systems.rulebook.surprise import draw_surprise, group_values
from tests.helpers import golden_runner, kernels
from tests.helpers import rulebook as helpers

SEEDS = 30
POLICIES = ("agressif", "prudent", "par_defaut")
SYSTEM = rb.SYSTEM
#: the option values, read from the rules (their names may change, not their number)
SLOTS = tuple(find(rb.Rules(), "hyperactive_slot").choices or ())
AGGREGATES = tuple(find(rb.Rules(), "surprise_aggregate").choices or ())




def declared(c: Combatant, faces: int = 6) -> Combatant:
    """``c`` with a declared hit die (the simulation variant), when it has none."""
    if rb_rules.DECLARED_DAMAGE in c.stats:
        return c
    return dataclasses.replace(c, stats={**c.stats, rb_rules.DECLARED_DAMAGE: faces})





def kernel_fight(prepared: sim.Prepared, seed: int, max_turns: int
                 ) -> tuple[tuple[str, Any], K.State]:
    """The Rulebook kernel's fight on the engine's streams
    (``tests.helpers.kernels.kernel_fight``)."""
    got, kst = kernels.kernel_fight(prepared, seed, max_turns, kernel=K, kernel_doors=doors)
    assert isinstance(kst, K.State)
    return got, kst


def covered(roster: Any, start: dict[str, Any], policy: Any, max_turns: int = 30,
            rules: Any = None) -> sim.Prepared:
    """``roster`` prepared with the Rulebook kernel (``tests.helpers.kernels.covered``)."""
    prepared = kernels.covered(SYSTEM, roster, start, policy, max_turns, rules)
    assert isinstance(prepared.kernel, K.Sheet)
    return prepared


def check_equal(prepared: sim.Prepared, seeds: Any, label: str = "") -> int:
    """The kernel's fights and the full engine's on ``seeds``
    (``tests.helpers.kernels.check_equal``); how many were compared."""
    return kernels.check_equal(prepared, seeds, kernel_fight, label)



def cases() -> list[tuple[str, Any, dict[str, Any]]]:
    """(label, roster, start options) of the fights the kernel is held to."""
    sample = [declared(c) for c in SYSTEM.sample_roster]
    out: list[tuple[str, Any, dict[str, Any]]] = [
        ("sample", sim.as_roster(Encounter(SYSTEM, sample)), {})]
    for name in ("rulebook-duel", "rulebook-bretteur"):
        out.append((name, load_roster(example_rosters()[name]), {}))
    for duel in SYSTEM.situation_duels:
        out.append((duel.key, sim.as_roster(Encounter(SYSTEM, list(duel.combatants))),
                    dict(duel.start_options)))
    for k, fight in enumerate(golden_runner.load("rulebook")["fights"]):
        enc = golden_runner.build(SYSTEM, fight)
        # its roster with a declared hit die (automated play needs one, RB-END-2) and
        # without its effects (the engine's)
        enc = Encounter(SYSTEM, [declared(f.combatant) for f in enc.state.fighters.values()],
                        rules=enc.rules, end_conditions=enc.state.end_conditions)
        out.append((f"golden-{k}", sim.as_roster(enc), dict(fight.get("start", {}))))
    return out


@pytest.mark.parametrize("policy", [None, *POLICIES[1:]])
@pytest.mark.parametrize("case", cases(), ids=lambda c: c[0])
def test_kernel_equals_full_engine_core_rng(case: tuple[str, Any, dict[str, Any]],
                                            policy: Any) -> None:
    """CORE-RNG / CORE-LOG, RB-SURPRISE-1..3, RB-INIT-1..4, RB-SPEED-1..3, RB-ACT-1,
    RB-MOVE-1, RB-END-2/3: every covered fight ends where the full engine ends it
    (state, dice) and counts the same result (a turn 0 counted), under the turn limit
    too."""
    label, roster, start = case
    assert check_equal(covered(roster, start, policy), range(SEEDS), label) == SEEDS


def _rules_cases() -> list[rb.Rules]:
    out = [rb.Rules(hyperactive_slot=s) for s in SLOTS]
    out += [rb.Rules(surprise_aggregate=a) for a in AGGREGATES]
    out += [rb.Rules(crit_success_max=30, crit_failure_min=70), rb.Rules(crit_success_max=0,
                                                                         crit_failure_min=101)]
    return out


@pytest.mark.parametrize("rules", _rules_cases(), ids=repr)
def test_kernel_equals_full_engine_under_options_rb_speed_3(rules: rb.Rules) -> None:
    """RB-SPEED-3 (each place of the second Hyperactivité activation), RB-SURPRISE-2
    (each group value), RB-D100-1 (the critical thresholds, so turns 0 and late
    fighters often, RB-INIT-3/4): the kernel's fights are the engine's."""
    assert len(SLOTS) == 2 and len(AGGREGATES) == 3
    for label, roster, start in cases():
        check_equal(covered(roster, start, "agressif", rules=rules), range(10), label)


def test_kernel_equals_full_engine_under_end_conditions_rb_end_1() -> None:
    """RB-END-1, CORE-END-1: end conditions end the kernel's fights where they end the
    engine's (the engine's own ``end_outcome``), the condition « tours » at a global
    turn's end."""
    roster = [declared(c) for c in SYSTEM.sample_roster]
    for ends in ((EndCondition("combattant_hors_combat", "Brune tombe", name="Brune"),),
                 (EndCondition("camp_hors_combat", "défaite", side="héros"),),
                 (EndCondition("tours", "les héros ont tenu", turns=2),)):
        enc = Encounter(SYSTEM, roster, end_conditions=ends)
        assert check_equal(covered(sim.as_roster(enc), {}, "agressif"), range(SEEDS)) == SEEDS


_TRAITS = (*rb_rules.SPEED_EFFECTS, "anti_surprise")


def any_fight(data: st.DataObject
              ) -> tuple[list[Combatant], rb.Rules, dict[str, Any], dict[str, str]]:
    """A roster of two to five fighters on two or three sides (any HAB, DIS, PMR, PV,
    Esprit, hit die, speed traits, éclat), any options, with or without a surprise
    attempt, any deterministic policies: (roster, rules, start options, policies)."""
    n = data.draw(st.integers(2, 5))
    sides = data.draw(st.lists(st.sampled_from("ABC"), min_size=n, max_size=n)
                      .filter(lambda s: len(set(s)) >= 2))
    roster = []
    for k, side in enumerate(sides):
        stats = {"HAB": data.draw(st.integers(0, 100)), "DIS": data.draw(st.integers(0, 100)),
                 "PMR": data.draw(st.integers(0, 100)), "PV": data.draw(st.integers(1, 20)),
                 "Esprit": data.draw(st.integers(1, 10)),
                 rb_rules.DECLARED_DAMAGE: data.draw(st.integers(1, 10))}
        if data.draw(st.booleans()):
            stats[rb_rules.ECLAT] = data.draw(st.integers(0, 2))
            stats[rb_rules.ECLAT_MAX] = stats[rb_rules.ECLAT] + data.draw(st.integers(0, 2))
        traits = data.draw(st.sets(st.sampled_from(_TRAITS), max_size=3))
        roster.append(Combatant(f"F{k}", side, stats, traits=frozenset(traits)))
    low = data.draw(st.integers(0, 30))
    rules = rb.Rules(crit_success_max=low, crit_failure_min=data.draw(st.integers(70, 101)),
                     surprise_aggregate=data.draw(st.sampled_from(AGGREGATES)),
                     hyperactive_slot=data.draw(st.sampled_from(SLOTS)))
    start: dict[str, Any] = {}
    if data.draw(st.booleans()):
        start = {"surprise_par": data.draw(st.sampled_from(sorted(set(sides)))),
                 "non_avertis": data.draw(st.booleans())}
    policy = {side: data.draw(st.sampled_from(POLICIES)) for side in sorted(set(sides))}
    return roster, rules, start, policy


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_kernel_equals_full_engine_on_any_roster_core_rng(data: st.DataObject) -> None:
    """CORE-RNG, RB-*: any roster (:func:`any_fight`), any options, with or without a
    surprise attempt, any deterministic policies, several seeds: the kernel's fight is
    the full engine's."""
    roster, rules, start, policy = any_fight(data)
    enc = Encounter(SYSTEM, roster, rules=rules)
    prepared = covered(sim.as_roster(enc), start, policy, rules=rules,
                       max_turns=data.draw(st.sampled_from([3, 30])))
    seeds = data.draw(st.lists(st.integers(0, 100_000), min_size=3, max_size=3))
    check_equal(prepared, seeds)


@pytest.mark.parametrize("case", cases(), ids=lambda c: c[0])
def test_log_tuples_are_the_engines_sentences_core_log(case: tuple[str, Any, dict[str, Any]]
                                                       ) -> None:
    """CORE-LOG, RB-ACT-1, RB-END-2, RB-SPEED-1: the kernel's log tuples, told by
    ``kernel_doors.narrate``, are the full engine's sentences of the same kinds (the
    automatic hits, « hors de combat », Hypoactivité's d4), in the same order; each
    hit's die is the engine's die."""
    label, roster, start = case
    prepared = covered(roster, start, "agressif")
    sheet = prepared.kernel
    told = 0
    for seed in range(12):
        kst = K.run(sheet, sim.stream(seed, 0, sim.DICE).randint, 30)
        template = prepared.template.state  # narrated, not in simulation mode
        enc = Encounter(SYSTEM, [f.combatant for f in template.fighters.values()],
                        rules=prepared.template.rules, end_conditions=template.end_conditions)
        dice = sim.stream(seed, 0, sim.DICE)
        if prepared.start_options:
            enc.start(dice, **prepared.start_options)
        enc.run(dice, max_turns=30, policy=prepared.policies)
        said = [e for e in enc.log if e.kind in doors.NARRATED]
        assert [t for entry in kst.log for t in doors.narrate(sheet, entry)] == [
            e.text for e in said], (label, seed)
        rolls = [entry[4] for entry in kst.log if entry[0] == K.ATTACK]
        assert rolls == [e.dice[0].value for e in said if e.kind == "attaquer"], (label, seed)
        told += len(said)
    assert told > 20, label


def refused(enc: Encounter, actor: str, action: str, **params: Any) -> str:
    """The rule the engine cites when it refuses ``action``; nothing changes
    (CORE-ERR) and no die is drawn."""
    before = enc.state.to_json()
    dice = ScriptedRolls([6] * 5)
    with pytest.raises(EscarmoucheError) as err:
        enc.act(actor, action, dice, **params)
    assert enc.state.to_json() == before and dice.used == 0
    return str(err.value.rule)


def same(enc: Encounter, sheet: K.Sheet, kst: K.State) -> None:
    """The kernel's state written back is the engine's (today's save format)."""
    assert doors.write_back(sheet, kst).state.to_json() == {**enc.state.to_json(),
                                                            "log": []}


def started(rolls: tuple[int, ...] = (30, 30, 30, 30), **start: Any
            ) -> tuple[Encounter, K.Sheet, K.State]:
    """The helpers' party (``tests/helpers/rulebook.py``: Aldric, Brune, Grolk, Vif)
    started on the same dice by the engine and the kernel; with four 30s the order is
    Aldric, Vif, Brune, Grolk (RB-INIT-1/2)."""
    enc = Encounter(SYSTEM, helpers.party())
    enc.start(ScriptedRolls(rolls), **start)
    sheet = K.compile_sheet(Encounter(SYSTEM, helpers.party()), start,
                            resolve_policies("rulebook", ["héros", "monstres"], None))
    assert sheet is not None
    kst = K.start(sheet, ScriptedRolls(rolls).randint)
    same(enc, sheet, kst)
    return enc, sheet, kst


ALDRIC, BRUNE, GROLK, VIF = 0, 1, 2, 3
HIT = {"des": "1d6", "nom": "frappe automatique, variante hors texte"}


def test_refusal_codes_answer_their_cases_rb_act_1() -> None:
    """Each refusal code of the kernel's attack for its case, on fixed dice, the engine
    refusing the same case citing the same rule: out of its activation (NOT_ACTING,
    RB-MOVE-1); a second action (ACTION_USED, RB-ACT-1); a target out (NO_TARGET,
    RB-END-2); itself (SELF, RB-ACT-1); a fighter out (OUT, RB-END-2); the fight over
    (NOT_ITS_TURN, RB-END-1)."""
    enc, sheet, kst = started()
    assert [sheet.names[i] for i in kst.order] == ["Aldric", "Vif", "Brune", "Grolk"]
    hit = ("attaque", GROLK)
    assert K.refusal(sheet, kst, ALDRIC, hit) == 0
    assert list(K.candidates(sheet, kst, ALDRIC)) == [hit]  # the first standing enemy
    assert K.refusal(sheet, kst, VIF, ("attaque", ALDRIC)) == actions.NOT_ACTING
    assert refused(enc, "Vif", "attaquer", cible="Aldric", **HIT) == "RB-MOVE-1" == \
        K.REFUSALS[actions.NOT_ACTING]
    assert list(K.candidates(sheet, kst, VIF)) == []
    # Aldric's hit: a 6 on 1d6 (Grolk 10 → 4), both ways
    K.play(sheet, kst, ALDRIC, hit, ScriptedRolls([6]).randint)
    enc.act("Aldric", "attaquer", ScriptedRolls([6]), cible="Grolk", **HIT)
    assert kst.log == [(K.TURN_BEGIN, 1, (ALDRIC, VIF, BRUNE, GROLK)),
                       (K.ACTIVATION, 1, ALDRIC, 1), (K.ATTACK, 1, ALDRIC, GROLK, 6, 10, 4)]
    same(enc, sheet, kst)
    assert K.refusal(sheet, kst, ALDRIC, ("attaque", VIF)) == actions.ACTION_USED
    assert refused(enc, "Aldric", "attaquer", cible="Vif", **HIT) == "RB-ACT-1" == \
        K.REFUSALS[actions.ACTION_USED]
    assert list(K.candidates(sheet, kst, ALDRIC)) == []
    # Vif: nothing (an hypothetical hit is refused), then Brune knocks Grolk out
    K._advance(sheet, kst, ScriptedRolls([]).randint)
    enc.end_activation(ScriptedRolls([]))
    K._advance(sheet, kst, ScriptedRolls([]).randint)
    enc.end_activation(ScriptedRolls([]))
    assert enc.state.current == "Brune" and kst.order[kst.cursor] == BRUNE
    same(enc, sheet, kst)
    for target in (BRUNE, 7, -1):
        code = K.SELF if target == BRUNE else K.NO_TARGET
        assert K.refusal(sheet, kst, BRUNE, ("attaque", target)) == code
    assert refused(enc, "Brune", "attaquer", cible="Brune", **HIT) == "RB-ACT-1" == \
        K.REFUSALS[K.SELF]
    K.play(sheet, kst, BRUNE, hit, ScriptedRolls([5]).randint)
    enc.act("Brune", "attaquer", ScriptedRolls([5]), cible="Grolk", **HIT)
    assert kst.out[GROLK] and enc.fighter("Grolk").out
    same(enc, sheet, kst)
    K._advance(sheet, kst, ScriptedRolls([]).randint)  # Grolk's slot skipped
    enc.end_activation(ScriptedRolls([]))
    assert kst.turn == enc.state.turn == 2 and enc.state.current == "Aldric"
    same(enc, sheet, kst)
    assert K.refusal(sheet, kst, ALDRIC, hit) == K.NO_TARGET
    assert refused(enc, "Aldric", "attaquer", cible="Grolk", **HIT) == "RB-END-2" == \
        K.REFUSALS[K.NO_TARGET]
    assert list(K.candidates(sheet, kst, ALDRIC)) == [("attaque", VIF)]
    assert K.refusal(sheet, kst, GROLK, ("attaque", ALDRIC)) == actions.OUT
    assert refused(enc, "Grolk", "attaquer", cible="Aldric", **HIT) == "RB-END-2" == \
        K.REFUSALS[actions.OUT]
    # Vif falls to Aldric: the fight is over
    K.play(sheet, kst, ALDRIC, ("attaque", VIF), ScriptedRolls([6]).randint)
    enc.act("Aldric", "attaquer", ScriptedRolls([6]), cible="Vif", **HIT)
    assert not kst.finished and enc.state.current == "Aldric"
    kst.pv[VIF] = 1  # (one more blow: Vif had 10 PV)
    enc.adjust("Vif", "PV", -3)
    K.play(sheet, kst, ALDRIC, ("attaque", VIF), ScriptedRolls([1]).randint)
    kst.acted[ALDRIC] = False
    assert kst.finished and kst.outcome == "victoire du camp « héros »"
    assert K.refusal(sheet, kst, ALDRIC, ("attaque", VIF)) == K.NOT_ITS_TURN
    enc.finish("victoire du camp « héros »")
    assert refused(enc, "Aldric", "attaquer", cible="Vif", **HIT) == "RB-END-1" == \
        K.REFUSALS[K.NOT_ITS_TURN]


@pytest.mark.parametrize(("rolls", "start", "actor", "code"), [
    ((30, 98, 30, 30), {}, "Brune", actions.LATE),
    ((3, 30, 30, 30), {}, "Vif", actions.NOT_IN_TURN),
    ((12, 65, 30, 30, 30, 30), {"surprise_par": "monstres", "non_avertis": True}, "Aldric",
     actions.NOT_IN_SURPRISE_TURN),
])
def test_refusal_codes_of_turns_0_and_1_rb_init_4(rolls: tuple[int, ...],
                                                  start: dict[str, Any], actor: str,
                                                  code: int) -> None:
    """A critical failure at the initiative acts from turn 2 only (LATE, RB-INIT-4);
    turn 0 is the critical successes' (NOT_IN_TURN, RB-INIT-3) or the surprise's
    (NOT_IN_SURPRISE_TURN, RB-SURPRISE-3): the kernel refuses as the engine does."""
    enc, sheet, kst = started(rolls, **start)
    me = sheet.index[actor]
    target = sheet.enemies[me][0]
    assert K.refusal(sheet, kst, me, ("attaque", target)) == code
    assert refused(enc, actor, "attaquer", cible=sheet.names[target], **HIT) == \
        K.REFUSALS[code] == actions.REFUSAL_RULES[code]
    assert list(K.candidates(sheet, kst, me)) == []


def test_the_rules_are_written_once_rb_act_1() -> None:
    """RB-ACT-1, RB-MOVE-1, RB-END-2/3: the engine's refusal is :func:`refusal_code`
    worded (each code of the posture, the movement and éclat too, which the kernel's
    attack never meets: the engine refuses them citing the code's rule); the damage is
    ``track_after_damage`` and out of the fight is ``knocked_out``; the kernel
    modules' doctests hold."""
    roster = [*helpers.party()[:3], helpers.fighter("Vif", "monstres", 55, dis=60,
                                                    variante_degats=6, eclat=1)]
    enc = Encounter(SYSTEM, roster)
    enc.start(ScriptedRolls([30, 30, 30, 30]))
    enc.act("Aldric", "posture", ScriptedRolls([]), posture="défensive")
    assert refused(enc, "Aldric", "posture", posture="offensive") == \
        actions.REFUSAL_RULES[actions.POSTURE_USED] == "RB-ACT-1"
    enc.act("Aldric", "deplacement", ScriptedRolls([]))
    assert refused(enc, "Aldric", "deplacement") == \
        actions.REFUSAL_RULES[actions.MOVE_SPENT] == "RB-MOVE-1"
    assert refused(enc, "Aldric", "depenser_eclat") == \
        actions.REFUSAL_RULES[actions.NO_ECLAT] == "RB-END-3"
    enc.act("Vif", "depenser_eclat", ScriptedRolls([]))  # out of turn: allowed
    assert refused(enc, "Vif", "depenser_eclat") == "RB-END-3"
    for before in range(0, 6):
        for amount in range(0, 8):
            assert rb_rules.track_after_damage(before, amount) == max(before - amount, 0)
    for pv, esprit in ((0, 3), (3, 0), (1, 1)):
        f = enc.fighter("Brune")
        view = dataclasses.replace(f, tracks={"PV": pv, "Esprit": esprit})
        assert SYSTEM.is_out(view, enc.rules) is rb_rules.knocked_out(pv, esprit)
    for module in (K, doors, actions, rb_rules):
        assert doctest.testmod(module).failed == 0, module.__name__


def _as_kernel(sheet: K.Sheet, move: Any) -> K.Move:
    """One of the engine's moves (``System.moves``) as the kernel's tuple."""
    assert move.action == "attaquer"
    return next(iter(move.tags)), sheet.index[move.params["cible"]]


@pytest.mark.parametrize("case", cases(), ids=lambda c: c[0])
def test_candidates_are_the_engines_moves_core_log(case: tuple[str, Any, dict[str, Any]],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """At every choice of the full engine's fights, the kernel's candidates on the
    engine's state read back (``kernel_doors.read_state``) are the moves the engine
    offers (``System.moves``, ``auto_action``, kept by ``offered``, the rules' own
    test), in the same order (RB-ACT-1, RB-INIT-3/4, RB-SURPRISE-3, RB-END-2)."""
    label, roster, start = case
    prepared = covered(roster, start, "prudent")
    sheet = prepared.kernel
    original = type(SYSTEM).moves
    seen = []

    def watched(self: Any, ctx: Any, actor: str, done: Any, react: Any) -> Any:
        moves = original(self, ctx, actor, done, react)
        offered = self.offered(ctx, actor, {m.action for m in moves}) if moves else set()
        engine = [_as_kernel(sheet, m) for m in moves if m.action in offered]
        kst = doors.read_state(sheet, ctx.state)
        assert list(K.candidates(sheet, kst, sheet.index[actor])) == engine, label
        seen.append(len(engine))
        return moves

    monkeypatch.setattr(type(SYSTEM), "moves", watched)
    for seed in range(6):
        enc = prepared.template.copy()
        dice = sim.stream(seed, 0, sim.DICE)
        if prepared.start_options:
            enc.start(dice, **prepared.start_options)
        enc.run(dice, max_turns=30, policy=prepared.policies)
    assert sum(seen) > 10 and seen.count(0) > 0


@pytest.mark.parametrize("policy", POLICIES)
def test_what_the_sheet_keeps_is_the_rules_answer_rb_act_1(policy: str) -> None:
    """RB-ACT-1, RB-INIT-1/2, RB-SURPRISE-2, CORE-END-1: what the sheet works out once per
    roster changes no answer. ``choose`` is the policy's ``pick_tagged`` of the
    candidates asked afresh, and the candidates are those ``refusal`` lets through,
    at every choice of whole fights (:attr:`Sheet.takes`, :attr:`Sheet.spent_refused`:
    a used action is refused whatever else holds); the end check, its answers kept
    (``escarmouche.end_check.EndCheck``), is ``end_outcome``'s; the initiative's checked
    rolls (kept per die) and the surprise's checked tests are those of the checked
    functions."""
    asked = 0
    for label, roster, start in cases():
        prepared = covered(roster, start, policy)
        sheet = prepared.kernel
        assert sheet.spent_refused, label
        for seed in range(6):
            randint = sim.stream(seed, 0, sim.DICE).randint
            kst = K.start(sheet, randint)
            while not kst.finished and kst.turn <= 12:
                actor = K.acting(kst)
                offered = [m for j in sheet.enemies[actor] if not kst.out[j]
                           for m in [(K.TAG, j)]][:1]
                offered = [m for m in offered if K.refusal(sheet, kst, actor, m) == 0]
                assert list(K.candidates(sheet, kst, actor)) == offered, label
                move = K.choose(sheet, kst, actor)
                assert move == sheet.policies[actor].pick_tagged(offered), label
                asked += 1
                if move is None:
                    K.advance(sheet, kst, randint)
                else:
                    K.play(sheet, kst, actor, move, randint)
                    if kst.finished and not sheet.end_conditions:
                        view = doors.write_back(sheet, kst).state
                        assert kst.outcome == end_outcome(view, False), label
    assert asked > 300
    roster = [helpers.fighter(n, s, 50, variante_degats=4)
              for n, s in (("A", "x"), ("B", "y"), ("C", "y"))]
    for seed in range(300):
        dice = random.Random(seed)
        values = [dice.randint(1, 100) for _ in range(3)]
        rolloffs = [dice.randint(1, 100) for _ in range(60)]
        got = []
        for checked in (False, True, True):
            left = iter(rolloffs)  # the same roll-offs, for each call

            def draw(_name: str, _round: int, left: Iterator[int] = left) -> int:
                return next(left)

            got.append(resolve_initiative_with(roster, values, draw, None, rb.Rules(),
                                               checked=checked))
        assert got[0] == got[1] == got[2]
        values_s = group_values(roster[:1], roster[1:], unaware=True)
        a, b = random.Random(seed), random.Random(seed)
        assert draw_surprise(values_s, a.randint, unaware=True, checked=True) == \
            draw_surprise(values_s, b.randint, unaware=True)
        assert a.getstate() == b.getstate()


def test_the_engine_plays_what_the_kernel_does_not_cover() -> None:
    """``RulebookSystem.kernel`` answers ``None`` (the engine plays) for the random
    policy, a fighter without a declared hit die (the engine refuses to play it, RB-END-2),
    effects (RB-TIME-1/2, RB-SPEED-1), an unknown or refused start option, a single
    side, a fighter out or fled, a fight started; simulation mode then still plays."""
    sample = [declared(c) for c in SYSTEM.sample_roster]
    policies = resolve_policies("rulebook", ["héros", "monstres"], None)
    assert isinstance(SYSTEM.kernel(Encounter(SYSTEM, sample), {}, policies), K.Sheet)
    roster = sim.as_roster(Encounter(SYSTEM, sample))
    assert sim.prepare(roster, policy="au_hasard").kernel is None
    assert sim.prepare(roster, policy="au_hasard").play(0, 1).winner in ("héros", "monstres",
                                                                          None)
    assert SYSTEM.kernel(Encounter(SYSTEM, list(SYSTEM.sample_roster)), {}, policies) is None
    assert SYSTEM.kernel(Encounter(SYSTEM, sample), {"positions": {}}, policies) is None
    assert SYSTEM.kernel(Encounter(SYSTEM, sample), {"surprise_par": "héros"},
                         policies) is None  # the engine refuses it in French
    alone = Encounter(SYSTEM, [c for c in sample if c.side == "héros"])
    assert SYSTEM.kernel(alone, {}, resolve_policies("rulebook", ["héros"], None)) is None
    slowed = Encounter(SYSTEM, sample)
    slowed.add_effect(Effect("Poison", "generique", Timing.ACTIVATION_START, bearer="Grolk",
                             per_tick={"PV": -1}, remaining=2))
    assert SYSTEM.kernel(slowed, {}, policies) is None
    fled = Encounter(SYSTEM, sample)
    fled.flee("Brune")
    assert SYSTEM.kernel(fled, {}, policies) is None
    down = Encounter(SYSTEM, sample)
    down.adjust("Brune", "Esprit", -10)
    assert down.fighter("Brune").out and SYSTEM.kernel(down, {}, policies) is None
    begun = Encounter(SYSTEM, sample)
    begun.start(random.Random(1))
    assert SYSTEM.kernel(begun, {}, policies) is None


def test_hypoactivity_and_turn_zero_counted_rb_speed_1() -> None:
    """RB-SPEED-1: a fighter under Hypoactivité rolls its d4 at each activation and
    loses it on a 4, drawn where the engine draws it; RB-INIT-3: a fight that played a
    turn 0 counts it in its length (``FightResult.turns``), as the engine counts it."""
    roster = [declared(c) for c in helpers.party(Grolk={"hypoactivite"},
                                                 Brune={"hyperactivite"})]
    rules = rb.Rules(crit_success_max=25, crit_failure_min=90)  # turns 0 often
    prepared = covered(sim.as_roster(Encounter(SYSTEM, roster, rules=rules)), {},
                       "agressif", rules=rules)
    assert check_equal(prepared, range(100)) == 100
    engine = sim.Prepared(prepared.template, {}, prepared.policies, prepared.max_turns)
    results = [prepared.play(i, 0) for i in range(200)]
    assert results == [engine.play(i, 0) for i in range(200)]
    runs = [K.run(prepared.kernel, sim.stream(0, i, sim.DICE).randint, 30) for i in range(200)]
    assert sum(st.first_turn == 0 for st in runs) > 20
    lost = [e for st in runs for e in st.log if e[0] == K.HYPO and not e[4]]
    assert lost and all(e[3] == 4 for e in lost)


def test_the_simulation_uses_the_kernel_core_rng() -> None:
    """``escarmouche simule`` and the simulation module play the example rosters on the
    kernel (``RulebookSystem.kernel``), with the engine's results."""
    for name in ("rulebook-duel", "rulebook-bretteur"):
        roster = load_roster(example_rosters()[name])
        prepared = sim.prepare(roster)
        assert isinstance(prepared.kernel, K.Sheet), name
        engine = sim.Prepared(prepared.template, prepared.start_options, prepared.policies,
                              prepared.max_turns)
        assert [prepared.play(i, 3) for i in range(50)] == [engine.play(i, 3)
                                                             for i in range(50)]


def test_initiative_roll_offs_drawn_as_the_engine_draws_them_rb_init_2() -> None:
    """RB-INIT-1/2: three fighters of the same HAB tie whenever two roll the same d100;
    their roll-offs are drawn as the engine draws them (``roll_initiative``), in the
    kernel's fights as in the engine's."""
    roster = [helpers.fighter(name, side, 50, variante_degats=4)
              for name, side in (("A", "x"), ("B", "y"), ("C", "y"))]
    prepared = covered(sim.as_roster(Encounter(SYSTEM, roster)), {}, "agressif")
    assert check_equal(prepared, range(400)) == 400
    runs = [K.run(prepared.kernel, sim.stream(0, i, sim.DICE).randint, 30)
            for i in range(400)]
    assert sum(any(r.rolloffs for r in st.initiative.rolls) for st in runs) > 3
    for i, fight in enumerate(runs[:50]):
        assert fight.initiative == rb.roll_initiative(roster, sim.stream(0, i, sim.DICE))


# -- Roster.play: the full engine's fight, played on the kernel and narrated -------------

#: the policies ``Roster.play`` is held to the engine under (the mapping falls back to
#: « prudent » for a roster without these sides)
PLAY_POLICIES: tuple[Any, ...] = (None, "prudent", "agressif",
                                  {"héros": "prudent", "orques": "par_defaut"})


def _play_cases() -> list[tuple[str, Any, dict[str, Any]]]:
    """:func:`cases`, and fights of end conditions (RB-END-1), of initiative roll-offs
    (RB-INIT-2), of Hypoactivité and turns 0 (RB-SPEED-1, RB-INIT-3/4) and of éclat
    (RB-END-3)."""
    out = cases()
    sample = [declared(c) for c in SYSTEM.sample_roster]
    for k, ends in enumerate((
            (EndCondition("combattant_hors_combat", "Brune tombe", name="Brune"),),
            (EndCondition("tours", "les héros ont tenu", turns=2),))):
        out.append((f"end-{k}", sim.as_roster(Encounter(SYSTEM, sample, end_conditions=ends)),
                    {}))
    ties = [helpers.fighter(name, side, 50, variante_degats=4, eclat=1, eclat_max=2)
            for name, side in (("A", "x"), ("B", "y"), ("C", "y"))]
    out.append(("ties", sim.as_roster(Encounter(SYSTEM, ties)), {}))
    speeds = [declared(c) for c in helpers.party(Grolk={"hypoactivite"},
                                                 Brune={"hyperactivite"})]
    rules = rb.Rules(crit_success_max=25, crit_failure_min=90)  # turns 0, late ones
    out.append(("speeds", sim.as_roster(Encounter(SYSTEM, speeds, rules=rules)),
                {"surprise_par": "monstres", "non_avertis": True}))
    return out


def _saved(enc: Encounter, rng: random.Random) -> tuple[str, Any]:
    """A fight as saved, and the dice left."""
    return enc.to_json(), rng.getstate()


@pytest.mark.parametrize("case", _play_cases(), ids=lambda c: c[0])
def test_roster_play_is_the_engines_fight_core_log(case: tuple[str, Any, dict[str, Any]]
                                                   ) -> None:
    """CORE-LOG, CORE-RNG, RB-*: ``Roster.play`` plays every covered fight on the kernel
    (``RulebookSystem.narrated_run``) and gives the full engine's fight, byte for byte:
    the save (every event narrated: its sentence, rules, dice and data) and the dice
    consumed, under every policy, under the turn limit too."""
    _, roster, start = case
    played = kernels.as_roster(roster, start)
    if played is None:
        pytest.skip("a fight with effects: no roster holds one")
    for policy in PLAY_POLICIES:
        if isinstance(policy, dict) and not set(policy) <= set(played.sides):
            policy = "prudent"
        kernels.check_played(played, policy, range(12))


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_roster_play_is_the_engines_fight_on_any_roster_core_log(data: st.DataObject
                                                                ) -> None:
    """CORE-LOG, CORE-RNG, RB-*: any roster (:func:`any_fight`), under any end
    condition (RB-END-1): ``Roster.play`` is the full engine's fight, played on the
    kernel."""
    roster, rules, start, policy = any_fight(data)
    ends = data.draw(st.sampled_from([
        (), (EndCondition("tours", "tenu", turns=2),),
        (EndCondition("combattant_hors_combat", "F0 tombe", name="F0"),)]))
    played = Roster("t", "rulebook", rules, tuple(roster), start, ends, {})
    max_turns = data.draw(st.sampled_from([2, 30]))
    kernels.check_played(played, policy, data.draw(
        st.lists(st.integers(0, 100_000), min_size=2, max_size=2)), max_turns=max_turns)


def test_roster_play_leaves_the_rest_to_the_engine_core_log(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """CORE-LOG: a fight the kernel does not cover (a random policy; a fighter without
    a declared hit die, which the engine refuses to play, RB-END-2) or that its
    narration leaves (``narrated_run`` answers ``None``, or fails) is played by the
    engine: the same fight, or the same refusal, and the same dice left."""
    roster = load_roster(example_rosters()["rulebook-duel"])
    assert roster._kernel("au_hasard", 50) is None
    for seed in range(5):
        rng = random.Random(seed)
        played = roster.play(rng, policy="au_hasard").to_json()
        assert (played, rng.getstate()) == _saved(
            *kernels.engine_play(roster, seed, 50, "au_hasard"))
    bare = dataclasses.replace(roster, combatants=tuple(
        dataclasses.replace(c, stats={k: v for k, v in c.stats.items()
                                      if k != rb_rules.DECLARED_DAMAGE})
        for c in roster.combatants))
    assert bare._kernel(None, 50) is None
    with pytest.raises(EscarmoucheError) as refused_by_play:
        bare.play(random.Random(1))
    with pytest.raises(EscarmoucheError) as refused_by_engine:
        kernels.engine_play(bare, 1, 50, None)
    assert str(refused_by_play.value) == str(refused_by_engine.value)
    assert "variante_degats" in str(refused_by_play.value)

    def failing(self: Any, kernel: Any, rng: Any, max_turns: int, tactics_rng: Any) -> Any:
        rng.randint(1, 100)  # a die drawn, then a refusal: the rng is put back
        raise RuleBoundError("narration", rule="CORE-ERR")

    for narrated in (lambda self, kernel, rng, max_turns, tactics_rng: None, failing):
        monkeypatch.setattr(type(SYSTEM), "narrated_run", narrated)
        for seed in range(3):
            rng = random.Random(seed)
            played = roster.play(rng).to_json()
            assert (played, rng.getstate()) == _saved(
                *kernels.engine_play(roster, seed, 50, None))
