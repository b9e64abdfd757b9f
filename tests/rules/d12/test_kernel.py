"""The d12 rules kernel (``escarmouche.systems.d12.kernel``) against the full engine.

For every fight it covers (the example rosters, the golden fights' rosters without their
ambush, the situation duels, the sample roster, any roster Hypothesis draws, each under
the deterministic policies and several options), the kernel's fight, written back as the
engine's state (``kernel_doors.write_back``), is the full engine's fight for the same
dice: every track, counter, the initiative, the acting group, the outcome and the dice
consumed (CORE-RNG, CORE-LOG), and the same tallies (the ties settled by lot included);
its log tuples are the engine's sentences (``kernel_doors.narrate``); each refusal code
answers the case it names, and the engine refuses that case too, citing the same rule;
the candidates are the moves automated play offers; ``Roster.play``, which plays the
covered fights on the kernel and narrates the engine's log from the kernel's
(``kernel_doors.narrated_run``), gives the engine's whole save, every event and die
included; and what the kernel does not cover is left to the engine.

Rules covered: D12-INIT-1..6, D12-TIME-1 (turns), D12-ACT-1, D12-CRIT-1, D12-CRIT-2
(a) and (b), D12-EXPLODE-1, CORE-END-1, CORE-RNG, CORE-LOG.
"""

from __future__ import annotations

import dataclasses
import doctest
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import Combatant, Effect, EscarmoucheError
from escarmouche import simulation as sim
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter
from escarmouche.model import Timing
from escarmouche.policies import TagPolicy, resolve_policies
from escarmouche.roster import Roster, example_rosters, load_roster
from escarmouche.state import Ctx, EndCondition
from escarmouche.systems import d12
from escarmouche.systems.d12 import critical
from escarmouche.systems.d12 import kernel as K
from escarmouche.systems.d12 import kernel_doors as doors
from tests.helpers import golden_runner, kernels

SEEDS = 30
POLICIES = ("agressif", "prudent", "par_defaut", "au_hasard")







def kernel_fight(prepared: sim.Prepared, seed: int, max_turns: int
                 ) -> tuple[tuple[str, Any], K.State]:
    """The d12 kernel's fight on the engine's streams, the tactics stream too (« au
    hasard » draws from it; ``tests.helpers.kernels.kernel_fight``)."""
    got, kst = kernels.kernel_fight(prepared, seed, max_turns, kernel=K, kernel_doors=doors,
                                    tactics=True)
    assert isinstance(kst, K.State)
    return got, kst


def covered(roster: Any, start: dict[str, Any], policy: Any, max_turns: int = 30,
            rules: Any = None) -> sim.Prepared:
    """``roster`` prepared with the d12 kernel (``tests.helpers.kernels.covered``)."""
    prepared = kernels.covered(d12.SYSTEM, roster, start, policy, max_turns, rules)
    assert isinstance(prepared.kernel, K.Sheet)
    return prepared


def check_equal(prepared: sim.Prepared, seeds: Any, label: str = "") -> int:
    """The kernel's fights and the full engine's on ``seeds``
    (``tests.helpers.kernels.check_equal``); how many were compared."""
    return kernels.check_equal(prepared, seeds, kernel_fight, label)



def cases() -> list[tuple[str, Any, dict[str, Any]]]:
    """(label, roster, start options) of the fights the kernel is held to."""
    sample = list(d12.SYSTEM.sample_roster)
    out: list[tuple[str, Any, dict[str, Any]]] = [
        ("sample", sim.as_roster(Encounter(d12.SYSTEM, sample)), {}),
        ("sample-environnement", sim.as_roster(Encounter(d12.SYSTEM, sample)),
         {"environnement": True})]
    for name in ("d12-duel", "d12-escarmouche"):
        out.append((name, load_roster(example_rosters()[name]), {}))
    for duel in d12.SYSTEM.situation_duels:
        out.append((duel.key, sim.as_roster(Encounter(d12.SYSTEM, list(duel.combatants))),
                    dict(duel.start_options)))
    for k, fight in enumerate(golden_runner.load("d12")["fights"]):
        enc = golden_runner.build(d12.SYSTEM, fight)
        start = {key: v for key, v in fight.get("start", {}).items() if key != "embuscade_par"}
        out.append((f"golden-{k}", sim.as_roster(enc), start))
    return out


@pytest.mark.parametrize("policy", [None, *POLICIES[1:]])
@pytest.mark.parametrize("case", cases(), ids=lambda c: c[0])
def test_kernel_equals_full_engine_core_rng(case: tuple[str, Any, dict[str, Any]],
                                            policy: Any) -> None:
    """CORE-RNG / CORE-LOG, D12-INIT-1..5, D12-ACT-1, D12-CRIT-1/2, D12-EXPLODE-1: every
    covered fight ends where the full engine ends it (state, dice) and counts the same
    result, under the turn limit too; « au hasard » draws its moves from the tactics
    stream as the engine does (« d12-escarmouche » names it for its goblins)."""
    label, roster, start = case
    assert check_equal(covered(roster, start, policy), range(SEEDS), label) == SEEDS


@pytest.mark.parametrize("rules", [
    d12.Rules(critical_option="explosif"),
    d12.Rules(default_weapon="1d8+2"),
    d12.Rules(default_weapon="1d4-2"),
    d12.Rules(max_roll_off_rounds=1, max_initiative_rerolls=1),
    d12.Rules(critical_option="avantage"),
], ids=["explosif", "arme", "arme-negative", "lots", "avantage"])
@pytest.mark.parametrize("policy", POLICIES)
def test_kernel_equals_full_engine_under_options_d12_crit_2(rules: d12.Rules, policy: str
                                                             ) -> None:
    """D12-CRIT-2 (the default critical option, left to the rules by « par défaut »;
    option (c)'s advantage on the next attack, D12-ADV-1),
    D12-EXPLODE-1, D12-CRIT-1 (the default weapon; damage floored at 0), D12-INIT-6 (ties
    by lot past one reroll or roll-off): the kernel's fights are the engine's."""
    for label, roster, start in cases()[:3]:
        check_equal(covered(roster, start, policy, rules=rules), range(SEEDS), label)


def test_kernel_equals_full_engine_under_end_conditions_core_end_1() -> None:
    """CORE-END-1: end conditions end the kernel's fights where they end the engine's
    (the engine's own ``end_outcome``), the condition « tours » at a turn's end."""
    roster = list(d12.SYSTEM.sample_roster)
    for ends in ((EndCondition("combattant_hors_combat", "Brune tombe", name="Brune"),),
                 (EndCondition("camp_hors_combat", "défaite", side="héros"),),
                 (EndCondition("tours", "les héros ont tenu", turns=2),)):
        enc = Encounter(d12.SYSTEM, roster, end_conditions=ends)
        check_equal(covered(sim.as_roster(enc), {}, "agressif"), range(SEEDS))


@settings(max_examples=50, deadline=None)
@given(data=st.data())
def test_kernel_equals_full_engine_on_any_roster_core_rng(data: st.DataObject) -> None:
    """CORE-RNG, D12-*: any roster of two to five fighters on two or three sides (any
    ``init``, attack, defence, PV, weapons given or not), the environment or not, any
    caps of rerolls and roll-offs, any deterministic policies, several seeds: the
    kernel's fight is the full engine's."""
    n = data.draw(st.integers(2, 5))
    sides = data.draw(st.lists(st.sampled_from("ABC"), min_size=n, max_size=n)
                      .filter(lambda s: len(set(s)) >= 2))
    roster = []
    weapons = {}
    for k, side in enumerate(sides):
        stats = {"init": data.draw(st.integers(-2, 3)), "attaque": data.draw(st.integers(-2, 6)),
                 "defense": data.draw(st.integers(6, 16)), "PV": data.draw(st.integers(1, 20))}
        roster.append(Combatant(f"F{k}", side, stats))
        if data.draw(st.booleans()):
            weapons[f"F{k}"] = data.draw(st.sampled_from(["1d4", "1d8", "2d6+1", "1d4-2"]))
    start: dict[str, Any] = {}
    if weapons:
        start["armes"] = weapons
    if data.draw(st.booleans()):
        start["environnement"] = True
    rules = d12.Rules(critical_option=data.draw(st.sampled_from(["maximum", "explosif",
                                                                 "avantage"])),
                      max_roll_off_rounds=data.draw(st.sampled_from([1, 20])),
                      max_initiative_rerolls=data.draw(st.sampled_from([1, 20])))
    enc = Encounter(d12.SYSTEM, roster, rules=rules)
    policy = {side: data.draw(st.sampled_from(POLICIES)) for side in sorted(set(sides))}
    prepared = covered(sim.as_roster(enc), start, policy, rules=rules,
                       max_turns=data.draw(st.sampled_from([3, 30])))
    seeds = data.draw(st.lists(st.integers(0, 100_000), min_size=3, max_size=3))
    check_equal(prepared, seeds)


@pytest.mark.parametrize("case", cases(), ids=lambda c: c[0])
def test_log_tuples_are_the_engines_sentences_core_log(case: tuple[str, Any, dict[str, Any]]
                                                       ) -> None:
    """CORE-LOG, D12-CRIT-1/2, D12-EXPLODE-1: the kernel's log tuples, told by
    ``kernel_doors.narrate``, are the full engine's « attaque » and « degats » sentences,
    in the same order; each attack's d12 is the engine's die."""
    label, roster, start = case
    for policy in ("agressif", "prudent", "au_hasard"):
        prepared = covered(roster, start, policy)
        sheet = prepared.kernel
        told = 0
        for seed in range(12):
            kst = K.run(sheet, sim.stream(seed, 0, sim.DICE).randint, 30,
                        sim.stream(seed, 0, sim.TACTICS))
            template = prepared.template.state  # narrated, not in simulation mode
            enc = Encounter(d12.SYSTEM, [f.combatant for f in template.fighters.values()],
                            rules=prepared.template.rules,
                            end_conditions=template.end_conditions)
            dice = sim.stream(seed, 0, sim.DICE)
            if prepared.start_options:
                enc.start(dice, **prepared.start_options)
            enc.run(dice, max_turns=30, policy=prepared.policies,
                    tactics_rng=sim.stream(seed, 0, sim.TACTICS))
            said = [e for e in enc.log if e.kind in doors.NARRATED]
            assert [t for entry in kst.log for t in doors.narrate(sheet, entry)] == [
                e.text for e in said], (label, seed)
            rolls = [entry[4][0] for entry in kst.log if entry[0] == K.ATTACK]
            assert rolls == [e.dice[0].value for e in said if e.kind == "attaque"], (label,
                                                                                    seed)
            told += len(said)
        assert told > 20, label


#: the refusals' board: Aldric 10 + 2, Brune 5 + 1, Grolk 3, Vex 2 (D12-INIT-1): the
#: heroes (12, 6) act before the monsters (3, 2), Aldric first (D12-INIT-2, D12-INIT-4)
BOARD = [
    Combatant("Aldric", "héros", {"init": 2, "attaque": 3, "defense": 12, "PV": 12}),
    Combatant("Brune", "héros", {"init": 1, "attaque": 2, "defense": 13, "PV": 10}),
    Combatant("Grolk", "monstres", {"attaque": 4, "defense": 11, "PV": 5}),
    Combatant("Vex", "monstres", {"attaque": 1, "defense": 12, "PV": 8}),
]
INIT_ROLLS = [10, 5, 3, 2]
ALDRIC, BRUNE, GROLK, VEX = 0, 1, 2, 3


def started() -> tuple[Encounter, K.Sheet, K.State]:
    """:data:`BOARD` started on the same dice by the engine and the kernel."""
    enc = Encounter(d12.SYSTEM, BOARD)
    enc.start(ScriptedRolls(INIT_ROLLS))
    sheet = K.compile_sheet(Encounter(d12.SYSTEM, BOARD), {},
                            resolve_policies("d12", ["héros", "monstres"], "agressif"))
    assert sheet is not None
    kst = K.start(sheet, ScriptedRolls(INIT_ROLLS))
    assert [sheet.names[i] for i in kst.order] == ["Aldric", "Brune", "Grolk", "Vex"]
    assert enc.state.current == "Aldric"
    same(enc, sheet, kst)
    return enc, sheet, kst


def refused(enc: Encounter, actor: str, **params: Any) -> str:
    """The rule the engine cites when it refuses ``actor``'s attack; nothing changes
    (CORE-ERR) and no die is drawn."""
    before = enc.state.to_json()
    dice = ScriptedRolls([12] * 5)
    with pytest.raises(EscarmoucheError) as err:
        enc.act(actor, "attaquer", dice, **params)
    assert enc.state.to_json() == before and dice.used == 0
    return str(err.value.rule)


def same(enc: Encounter, sheet: K.Sheet, kst: K.State) -> None:
    """The kernel's state written back is the engine's (today's save format)."""
    assert doors.write_back(sheet, kst).state.to_json() == {**enc.state.to_json(),
                                                            "log": []}


def test_refusal_codes_answer_their_cases_d12_act_1() -> None:
    """Each refusal code for its case, on fixed dice, the engine refusing the same case
    citing the same rule: the fight over (FINISHED, CORE-END-1); out of its activation,
    an ally of the acting group included (NOT_ITS_TURN, D12-INIT-4); an attack on
    itself, on nobody or on a fighter out (NO_TARGET, D12-CRIT-1); an unknown critical
    option (NO_OPTION, D12-CRIT-2); a fighter out (OUT, D12-ACT-1). An attack on an
    ally and a second attack in one activation are legal (D12-ACT-1 invents no action
    economy), in both."""
    enc, sheet, kst = started()
    attack = (("attaque",), GROLK, "maximum")
    assert K.refusal(sheet, kst, ALDRIC, attack) == 0
    for actor, name in ((GROLK, "Grolk"), (BRUNE, "Brune")):
        assert K.refusal(sheet, kst, actor, (("attaque",), ALDRIC, "maximum")) == \
            K.NOT_ITS_TURN
        assert refused(enc, name, cible="Aldric") == K.REFUSALS[K.NOT_ITS_TURN]
    assert K.REFUSALS[K.NOT_ITS_TURN] == "D12-INIT-4"
    for target in (ALDRIC, 4, -1):
        assert K.refusal(sheet, kst, ALDRIC, (("attaque",), target, "maximum")) == K.NO_TARGET
    assert refused(enc, "Aldric", cible="Aldric") == K.REFUSALS[K.NO_TARGET] == "D12-CRIT-1"
    assert refused(enc, "Aldric", cible="Personne") == "D12-CRIT-1"
    assert K.refusal(sheet, kst, ALDRIC, (("attaque",), GROLK, "double")) == K.NO_OPTION
    assert refused(enc, "Aldric", cible="Grolk", option="double") == \
        K.REFUSALS[K.NO_OPTION] == "D12-CRIT-2"

    # Aldric's natural 12 on Grolk, option (a): 1d6 at its maximum, 6 ≥ 5 PV, no die drawn
    K.play(sheet, kst, ALDRIC, attack, ScriptedRolls([12]))
    enc.act("Aldric", "attaquer", ScriptedRolls([12]), cible="Grolk", option="maximum")
    assert kst.log == [(K.TURN_BEGIN, 1), (K.ACTIVATION, 1, ALDRIC, 1),
                       (K.ATTACK, 1, ALDRIC, GROLK, (12,), "maximum", (), 6, -1)]
    assert kst.out[GROLK] and enc.fighter("Grolk").out and not kst.finished
    same(enc, sheet, kst)
    assert K.refusal(sheet, kst, ALDRIC, attack) == K.NO_TARGET  # Grolk is out
    assert refused(enc, "Aldric", cible="Grolk") == "D12-CRIT-1"
    assert K.refusal(sheet, kst, GROLK, (("attaque",), ALDRIC, "maximum")) == K.OUT
    assert refused(enc, "Grolk", cible="Aldric") == K.REFUSALS[K.OUT] == "D12-ACT-1"
    assert list(K.candidates(sheet, kst, ALDRIC)) == []  # automated play: one attack

    # still legal: a second attack, on an ally; a 3 misses (3 + 3 < 13), one die
    ally = (("attaque",), BRUNE, "explosif")
    assert K.refusal(sheet, kst, ALDRIC, ally) == 0
    K.play(sheet, kst, ALDRIC, ally, ScriptedRolls([3]))
    enc.act("Aldric", "attaquer", ScriptedRolls([3]), cible="Brune", option="explosif")
    same(enc, sheet, kst)

    # Brune's activation: Vex, the one enemy standing; option (b) is the best on him
    K._advance(sheet, kst)
    enc.end_activation(ScriptedRolls([]))
    assert enc.state.current == "Brune" and kst.order[kst.cursor] == BRUNE
    same(enc, sheet, kst)
    moves = list(K.candidates(sheet, kst, BRUNE))
    assert moves == [(("attaque",), VEX, "explosif"), (("attaque", "sur"), VEX, "maximum"),
                     (("attaque",), VEX, "avantage")]
    assert all(K.refusal(sheet, kst, BRUNE, m) == 0 for m in moves)
    engine = d12.SYSTEM.moves(Ctx(enc.state, d12.SYSTEM, enc.rules, None), "Brune", (),
                              lambda _name, _kind, options: options[0])
    assert [as_kernel(sheet, m) for m in engine] == moves
    # her natural 12, option (b): 2d6! (a 6 explodes: 6 + 2, then 4) = 12 ≥ 8 PV: the end
    K.play(sheet, kst, BRUNE, moves[0], ScriptedRolls([12, 6, 2, 4]))
    enc.act("Brune", "attaquer", ScriptedRolls([12, 6, 2, 4]), cible="Vex", option="explosif")
    assert kst.finished and enc.state.finished and kst.outcome == enc.state.outcome
    same(enc, sheet, kst)
    assert K.refusal(sheet, kst, BRUNE, moves[0]) == K.FINISHED  # no side left to fight
    assert refused(enc, "Brune", cible="Vex") == K.REFUSALS[K.FINISHED] == "CORE-END-1"


def as_kernel(sheet: K.Sheet, move: Any) -> K.Move:
    """One of the engine's moves (``D12System.moves``) as the kernel's tuple."""
    return (tuple(t for t in ("attaque", "sur") if t in move.tags),
            sheet.index[move.params["cible"]], move.params["option"])


@pytest.mark.parametrize("case", cases(), ids=lambda c: c[0])
def test_candidates_are_the_engines_moves_core_log(case: tuple[str, Any, dict[str, Any]],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """At every choice of the full engine's fights, for the actor and every other
    fighter, the kernel's candidates on the engine's state read back
    (``kernel_doors.read_state``) are the moves the engine offers (``D12System.moves``,
    then ``offered``, the rules' own test), in the same order (D12-ACT-1, D12-CRIT-2);
    and a state read back writes back as it was (today's save format, the log aside)."""
    label, roster, start = case
    prepared = covered(roster, start, "prudent")
    sheet = prepared.kernel
    original = type(d12.SYSTEM).moves
    seen = []

    def watched(self: Any, ctx: Any, actor: str, done: Any, react: Any) -> Any:
        moves = original(self, ctx, actor, done, react)
        kst = doors.read_state(sheet, ctx.state)
        kst.attacked = "attaquer" in done
        for name in sheet.names:
            theirs = original(self, ctx, name, done if name == actor else (), react)
            offered = (self.offered(ctx, name, {m.action for m in theirs}) if theirs
                       else set())
            engine = [as_kernel(sheet, m) for m in theirs if m.action in offered]
            assert list(K.candidates(sheet, kst, sheet.index[name])) == engine, label
            if name == actor:
                seen.append(len(engine))
        return moves

    monkeypatch.setattr(type(d12.SYSTEM), "moves", watched)
    for seed in range(6):
        enc = prepared.template.copy()
        dice = sim.stream(seed, 0, sim.DICE)
        if prepared.start_options:
            enc.start(dice, **prepared.start_options)
        enc.run(dice, max_turns=30, policy=prepared.policies)
        back = doors.write_back(sheet, doors.read_state(sheet, enc.state)).state.to_json()
        assert back == {**enc.state.to_json(), "log": []}, label
    assert sum(seen) > 30


def test_the_engine_plays_what_the_kernel_does_not_cover() -> None:
    """``D12System.kernel`` answers ``None`` (the engine plays) for a policy of its own
    (not one of the registry's), an ambush (D12-SURPRISE-1/2), an effect, a start option
    the engine refuses, a single side, a fighter fled or out, a fight begun; the random
    policy and option (c) are the kernel's."""
    sample = list(d12.SYSTEM.sample_roster)
    roster = sim.as_roster(Encounter(d12.SYSTEM, sample))
    policies = resolve_policies("d12", ["héros", "monstres"], None)
    template = Encounter(d12.SYSTEM, sample)
    assert d12.SYSTEM.kernel(template, {}, policies) is not None
    assert sim.prepare(roster, policy="au_hasard").kernel is not None
    assert sim.prepare(load_roster(example_rosters()["d12-escarmouche"])).kernel is not None
    own = TagPolicy("mienne", "mienne", "attaque", ("attaque",))
    assert sim.prepare(roster, policy={"héros": own}).kernel is not None  # a TagPolicy
    assert d12.SYSTEM.kernel(template, {}, {"héros": object(), "monstres": own}) is None
    assert d12.SYSTEM.kernel(template, {"embuscade_par": "monstres"}, policies) is None
    assert d12.SYSTEM.kernel(template, {"armes": {"Nul": "1d6"}}, policies) is None
    assert d12.SYSTEM.kernel(template, {"armes": {"Grolk": "1d"}}, policies) is None
    alone = Encounter(d12.SYSTEM, sample[:2])
    assert d12.SYSTEM.kernel(alone, {}, resolve_policies("d12", ["héros"], None)) is None
    poisoned = Encounter(d12.SYSTEM, sample)
    poisoned.add_effect(Effect("", "Poison", Timing.ACTIVATION_START, bearer="Grolk",
                               per_tick={"PV": -2}))
    assert d12.SYSTEM.kernel(poisoned, {}, policies) is None
    fled = Encounter(d12.SYSTEM, sample)
    fled.flee("Brune")
    assert d12.SYSTEM.kernel(fled, {}, policies) is None
    down = Encounter(d12.SYSTEM, sample)
    down.adjust("Brune", "PV", -10)
    assert down.fighter("Brune").out and d12.SYSTEM.kernel(down, {}, policies) is None
    begun = Encounter(d12.SYSTEM, sample)
    begun.start(random.Random(1))
    assert d12.SYSTEM.kernel(begun, {}, policies) is None
    advantage = Encounter(d12.SYSTEM, sample, rules=d12.Rules(critical_option="avantage"))
    assert d12.SYSTEM.kernel(advantage, {}, resolve_policies(
        "d12", ["héros", "monstres"], "par_defaut")) is not None


def test_option_c_advantage_on_the_next_attack_d12_crit_2() -> None:
    """D12-CRIT-2 (c), D12-ADV-1: Aldric's natural 12 on Vex with option (c) deals
    normal damage and marks Vex (an effect until Vex's next turn); Brune, next, attacks
    the marked Vex first, with 2d12kh1, which consumes the mark; a second mark ends at
    the start of Vex's activation. The state (effects and their ids included) is the
    engine's at every step, and the sentences too."""
    enc, sheet, kst = started()
    c = (("attaque",), VEX, "avantage")
    K.play(sheet, kst, ALDRIC, c, ScriptedRolls([12, 3]))  # 1d6 = 3: Vex 8 → 5
    enc.act("Aldric", "attaquer", ScriptedRolls([12, 3]), cible="Vex", option="avantage")
    assert kst.marks[VEX] == 1 and [e.kind for e in enc.state.effects] == ["avantage_contre"]
    same(enc, sheet, kst)
    K._advance(sheet, kst)
    enc.end_activation(ScriptedRolls([]))
    moves = list(K.candidates(sheet, kst, BRUNE))
    assert moves[0][1] == VEX  # the marked enemy first, though Grolk has fewer PV
    engine = d12.SYSTEM.moves(Ctx(enc.state, d12.SYSTEM, enc.rules, None), "Brune", (),
                              lambda _name, _kind, options: options[0])
    assert [as_kernel(sheet, m) for m in engine] == moves
    K.play(sheet, kst, BRUNE, (("attaque",), VEX, "avantage"), ScriptedRolls([2, 12, 1]))
    enc.act("Brune", "attaquer", ScriptedRolls([2, 12, 1]), cible="Vex", option="avantage")
    assert kst.log[-1][4] == (2, 12) and kst.marks[VEX] == 1  # consumed, then marked again
    same(enc, sheet, kst)
    said = [t for entry in kst.log for t in doors.narrate(sheet, entry)]
    assert said == [e.text for e in enc.log if e.kind in doors.NARRATED]
    assert "2d12kh1" in said[-2]
    K._advance(sheet, kst)
    enc.end_activation(ScriptedRolls([]))
    K._advance(sheet, kst)  # Grolk, then Vex: his mark ends
    enc.end_activation(ScriptedRolls([]))
    assert enc.state.current == "Vex" and kst.marks[VEX] == 0 and not enc.state.effects
    same(enc, sheet, kst)


def test_initiative_lots_counted_alike_d12_init_6() -> None:
    """D12-INIT-4/6: three fighters of one side with the same ``init`` tie often; past
    one roll-off round the tie is settled by lot, drawn as the engine draws it, and the
    ties settled by lot are counted alike (``FightResult.lots``)."""
    roster = [Combatant(name, side, {"PV": 6, "defense": 10, "init": 1}) for name, side in
              (("A", "x"), ("B", "y"), ("C", "y"), ("D", "y"))]
    rules = d12.Rules(max_roll_off_rounds=1)
    enc = Encounter(d12.SYSTEM, roster, rules=rules)
    prepared = covered(sim.as_roster(enc), {}, "agressif", rules=rules)
    assert check_equal(prepared, range(60)) == 60
    engine = sim.Prepared(prepared.template, {}, prepared.policies, prepared.max_turns)
    results = [prepared.play(i, 0) for i in range(300)]
    assert results == [engine.play(i, 0) for i in range(300)]
    assert sum(r.lots for r in results) > 0


def test_the_rules_are_written_once_d12_crit_1() -> None:
    """D12-CRIT-1/2: the documented ``resolve_attack_roll`` decides a hit and a critical
    by ``attack_result``, the kernel's arithmetic, for every d12, bonus and defence;
    the kernel modules' doctests hold."""
    for kept in range(1, 13):
        for bonus in (-4, 0, 3, 9):
            for defence in (0, 8, 12, 15, 40):
                att = critical.resolve_attack_roll([kept], bonus=bonus, defence=defence)
                assert (att.hit, att.critical) == critical.attack_result(kept, bonus,
                                                                         defence)
    for module in (K, doors, critical):
        assert doctest.testmod(module).failed == 0, module.__name__


def _firsts_pick(policy: TagPolicy, moves: list[K.Move]) -> K.Move | None:
    """``policy``'s pick among ``moves``, afresh: each tag's first move, then
    ``TagPolicy.pick`` (what ``choose`` asked of every candidate before the sheet kept
    its answers)."""
    firsts: dict[str, K.Move] = {}
    for m in moves:
        for tag in m[0]:
            firsts.setdefault(tag, m)
    return policy.pick(firsts.get)


@pytest.mark.parametrize("rules", [d12.Rules(), d12.Rules(critical_option="avantage")],
                         ids=["defaut", "avantage"])
@pytest.mark.parametrize("policy", POLICIES[:3])
def test_what_the_sheet_keeps_is_the_rules_answer_d12_crit_2(policy: str, rules: d12.Rules
                                                             ) -> None:
    """D12-CRIT-1/2, D12-ADV-1: what the sheet works out once per roster changes no
    answer: ``choose`` (the pick kept per preferred target, :attr:`Sheet.picks`) is the
    policy's pick among all the candidates asked afresh, at every choice of whole fights
    (option (c)'s marks included); :attr:`Sheet.decided` is ``attack_result`` of every
    kept d12 for every attacker and target; :attr:`Sheet.damage` is
    ``damage_expression`` of each weapon and option."""
    asked = 0
    for label, roster, start in cases()[:4]:
        prepared = covered(roster, start, policy, rules=rules)
        sheet = prepared.kernel
        for i, bonus in enumerate(sheet.bonus):
            for j, defence in enumerate(sheet.defence):
                assert all(sheet.decided[i][j][kept] == critical.attack_result(
                    kept, bonus, defence) for kept in range(1, 13)), label
            for option, expr in sheet.damage[i].items():
                assert expr == critical.damage_expression(sheet.weapon[i], option), label
        for seed in range(8):
            dice = sim.stream(seed, 0, sim.DICE)
            kst = K.start(sheet, dice)
            while not kst.finished and kst.turn <= 12:
                actor = K.acting(kst)
                move = K.choose(sheet, kst, actor)
                if actor >= 0:
                    mine = sheet.policies[actor]
                    assert move == _firsts_pick(mine, list(K.candidates(sheet, kst, actor))), \
                        label
                    asked += 1
                if move is None:
                    K.advance(sheet, kst)
                else:
                    K.play(sheet, kst, actor, move, dice)
    assert asked > 500


#: the policies ``Roster.play`` is held to the engine under (the mapping's sides absent
#: from a roster left out, « prudent » when none is left)
PLAY_POLICIES: tuple[Any, ...] = (None, "prudent", "agressif",
                                  {"héros": "prudent", "orques": "par_defaut"})


def _policy_for(roster: Roster, policy: Any) -> Any:
    """``policy``, a mapping kept to the sides of ``roster`` (« prudent » when none is)."""
    if isinstance(policy, dict):
        return {s: p for s, p in policy.items() if s in roster.sides} or "prudent"
    return policy


def check_played(roster: Roster | None, policy: Any, seeds: Any) -> Counter[str]:
    """:func:`tests.helpers.kernels.check_played` under ``policy`` kept to the roster's
    sides: ``Roster.play`` on the kernel is the engine's fight, event for event."""
    assert roster is not None
    return kernels.check_played(roster, _policy_for(roster, policy), seeds)


@pytest.mark.parametrize("policy", PLAY_POLICIES, ids=str)
@pytest.mark.parametrize("case", cases(), ids=lambda c: c[0])
def test_roster_play_is_the_engines_fight_core_log(case: tuple[str, Any, dict[str, Any]],
                                                   policy: Any) -> None:
    """CORE-LOG, CORE-RNG: ``Roster.play`` plays every case on the rules kernel and
    narrates the full engine's log from the kernel's (``kernel_doors.narrated_run``):
    the whole save, every event (its sentence, rules, dice and data, the initiative's,
    the turns', the activations', the groups', the attacks', the end's) and the dice
    consumed are the engine's (``Encounter.start`` then ``Encounter.run``), under the
    turn limit too."""
    label, roster, start = case
    played = kernels.as_roster(roster, start)
    assert played is not None, label
    kinds = check_played(played, policy, range(12))
    assert kinds["attaque"] and kinds["debut_tour"] and kinds["fin_combat"], label


@pytest.mark.parametrize("rules", [
    d12.Rules(critical_option="explosif"),
    d12.Rules(default_weapon="1d4-2"),
    d12.Rules(max_roll_off_rounds=1, max_initiative_rerolls=1),
    d12.Rules(critical_option="avantage"),
], ids=["explosif", "arme-negative", "lots", "avantage"])
def test_roster_play_under_options_is_the_engines_fight_d12_crit_2(rules: d12.Rules
                                                                   ) -> None:
    """D12-CRIT-2 (option (c)'s advantage given, consumed, ending at its bearer's next
    activation, or pointless; the default option left to the rules by « par défaut »),
    D12-EXPLODE-1, D12-CRIT-1 (damage floored at 0), D12-INIT-3/4/6 (rerolls,
    roll-offs, lots), D12-INIT-5 (the environment's slot), « au hasard » (its tactics
    stream seeded as ``Encounter.run`` seeds it): ``Roster.play`` on the kernel is the
    engine's fight, event for event."""
    kinds: Counter[str] = Counter()
    for label, roster, start in cases()[:4]:
        played = kernels.as_roster(roster, start, rules=rules)
        assert played is not None, label
        for policy in ("au_hasard", "par_defaut", "agressif"):
            kinds += check_played(played, policy, range(12))
    if rules.critical_option == "avantage":
        assert kinds["effet_ajoute"] and kinds["effet_fin"] > kinds["effet_ajoute"] // 2
    if rules.max_initiative_rerolls == 1:
        assert kinds["departage"] and kinds["environnement"]


def test_roster_play_under_end_conditions_core_end_1() -> None:
    """CORE-END-1: end conditions end ``Roster.play``'s fights on the kernel where and
    as they end the engine's (the condition « tours » at a turn's end)."""
    for ends in ((EndCondition("combattant_hors_combat", "Brune tombe", name="Brune"),),
                 (EndCondition("camp_hors_combat", "défaite", side="héros"),),
                 (EndCondition("tours", "les héros ont tenu", turns=2),)):
        played = kernels.as_roster(cases()[0][1], {}, end_conditions=ends)
        assert played is not None
        check_played(played, "agressif", range(12))


def test_roster_play_leaves_to_the_engine_what_the_kernel_does_not_cover_core_log() -> None:
    """A fight the kernel does not cover (an ambush, D12-SURPRISE-1/2; a policy object)
    is played by the engine (``Roster._kernel`` answers ``None``): the same fight as
    ``Encounter.start`` then ``Encounter.run``."""
    sample = kernels.as_roster(cases()[0][1], {})
    assert sample is not None
    ambush = dataclasses.replace(sample, start_options={"embuscade_par": "monstres"})
    own = TagPolicy("mienne", "mienne", "attaque", ("attaque",))
    for roster, policy in ((ambush, None), (ambush, "prudent"), (sample, own)):
        assert roster._kernel(roster.policies if policy is None else policy, 50) is None
        for seed in range(5):
            rng = random.Random(seed)
            played = roster.play(rng, max_turns=50, policy=policy)
            enc, engine_rng = kernels.engine_play(roster, seed, 50, policy)
            assert (played.to_json(), rng.getstate()) == (enc.to_json(), engine_rng.getstate())
            if roster is ambush:
                assert any(e.kind == "tour_bonus" for e in played.log)


def test_narrated_run_takes_a_tactics_stream_core_rng() -> None:
    """CORE-RNG: given a tactics stream of its own (``Encounter.run``'s ``tactics_rng``),
    the narrated fight of « au hasard » draws its moves from it, as the engine does, and
    its dice from the dice alone."""
    label, roster, start = cases()[3]
    played = kernels.as_roster(roster, start)
    assert played is not None, label
    sheet = played._kernel("au_hasard", 50)
    assert sheet is not None and sheet.tactics
    for seed in range(12):
        dice, tactics = sim.stream(seed, 0, sim.DICE), sim.stream(seed, 0, sim.TACTICS)
        narrated = d12.SYSTEM.narrated_run(sheet, dice, 50, tactics)
        engine_dice, engine_tactics = (sim.stream(seed, 0, sim.DICE),
                                       sim.stream(seed, 0, sim.TACTICS))
        enc = played.encounter()
        enc.start(engine_dice, **dict(played.start_options))
        enc.run(engine_dice, max_turns=50, policy="au_hasard", tactics_rng=engine_tactics)
        assert narrated.to_json() == enc.to_json(), seed
        assert (dice.getstate(), tactics.getstate()) == (engine_dice.getstate(),
                                                         engine_tactics.getstate())
