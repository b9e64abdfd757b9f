"""The d20 rules kernel (``escarmouche.systems.d20.kernel``) against the full engine.

For every fight it covers (the example rosters, the golden fights, the situation duels
without effects, the sample roster, any roster Hypothesis draws, each under the
deterministic policies and several options), the kernel's fight, written back as the
engine's state (``kernel_doors.write_back``), is the full engine's fight for the same
dice: every track, flag, counter, the outcome and the dice consumed (CORE-RNG,
CORE-LOG), and the same tallies; its log tuples are the engine's sentences
(``kernel_doors.narrate``); ``Roster.play`` plays them on the kernel, the engine's log
narrated from the kernel's (``kernel_doors.narrated_run``), the same save event for
event; each refusal code answers the case it names, and the engine refuses that case
too, citing the same rule; the candidates are the legal moves automated play offers;
and what the kernel does not cover is left to the engine.

Rules covered: D20-INIT-1/2, D20-TIME-1, D20-ACT-1/2/3, D20-OPP-1/2, D20-IMM-1/2,
CORE-END-1, CORE-RNG, CORE-LOG.
"""

from __future__ import annotations

import doctest
import importlib
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
from escarmouche.rng import RandintOnly
from escarmouche.roster import Roster, example_rosters, load_roster
from escarmouche.state import Ctx, EndCondition
from escarmouche.systems import d20
from escarmouche.systems.d20 import grid
from escarmouche.systems.d20 import kernel as K
from escarmouche.systems.d20 import kernel_doors as doors
from tests.helpers import d20 as helpers
from tests.helpers import golden_runner, kernels

SEEDS = 30
#: the fights of each case and policy ``Roster.play`` is held to the engine on (the
#: property test and ``make fuzz``'s target ``roster.play`` draw more)
PLAY_SEEDS = 12
#: the module (the package names its function ``initiative`` after it)
initiative = importlib.import_module("escarmouche.systems.d20.initiative")
POLICIES = ("agressif", "prudent", "par_defaut")







def kernel_fight(prepared: sim.Prepared, seed: int, max_turns: int
                 ) -> tuple[tuple[str, Any], K.State]:
    """The d20 kernel's fight on the engine's streams
    (``tests.helpers.kernels.kernel_fight``)."""
    got, kst = kernels.kernel_fight(prepared, seed, max_turns, kernel=K, kernel_doors=doors)
    assert isinstance(kst, K.State)
    return got, kst


def covered(roster: Any, start: dict[str, Any], policy: Any, max_turns: int = 30,
            rules: Any = None) -> sim.Prepared:
    """``roster`` prepared with the d20 kernel (``tests.helpers.kernels.covered``)."""
    prepared = kernels.covered(d20.SYSTEM, roster, start, policy, max_turns, rules)
    assert isinstance(prepared.kernel, K.Sheet)
    return prepared


def check_equal(prepared: sim.Prepared, seeds: Any, label: str = "") -> int:
    """The kernel's fights and the full engine's on ``seeds``
    (``tests.helpers.kernels.check_equal``); how many were compared."""
    return kernels.check_equal(prepared, seeds, kernel_fight, label)



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
    # and Roster.play narrates the engine's log of them (CORE-LOG)
    check_played(Roster("t", "d20", rules, tuple(roster), start, (), {}), policy, seeds)


@pytest.mark.parametrize("case", cases(), ids=lambda c: c[0])
def test_log_tuples_are_the_engines_sentences_core_log(case: tuple[str, Any, dict[str, Any]]
                                                       ) -> None:
    """CORE-LOG, D20-ACT-1..3: the kernel's log tuples, told by ``kernel_doors.narrate``,
    are the full engine's sentences of the same kinds (attacks with their cost, moves,
    action points spent), in the same order; each attack's d20 is the engine's die."""
    label, roster, start = case
    prepared = covered(roster, start, "agressif")
    sheet = prepared.kernel
    told = 0
    for seed in range(12):
        kst = K.run(sheet, sim.stream(seed, 0, sim.DICE).randint, 30)
        template = prepared.template.state  # narrated, not in simulation mode
        enc = Encounter(d20.SYSTEM, [f.combatant for f in template.fighters.values()],
                        rules=prepared.template.rules,
                        end_conditions=template.end_conditions)
        dice = sim.stream(seed, 0, sim.DICE)
        if prepared.start_options:
            enc.start(dice, **prepared.start_options)
        enc.run(dice, max_turns=30, policy=prepared.policies)
        said = [e for e in enc.log if e.kind in doors.NARRATED]
        assert [t for entry in kst.log for t in doors.narrate(sheet, entry)] == [
            e.text for e in said], (label, seed)
        rolls = [entry[4] for entry in kst.log if entry[0] in (K.ATTACK, K.OPPORTUNITY)]
        assert rolls == [e.dice[0].value for e in said if e.kind == "attaque"], (label, seed)
        told += len(said)
    assert told > 20, label


def started() -> tuple[Encounter, K.Sheet, K.State]:
    """The helpers' board (``tests/helpers/d20.py``) started on the same dice by the
    engine and the kernel: d20s 15, 10, 14, 2 give Thorin 17, Pip 14, Gob 15, Grik 2
    (D20-INIT-1): Thorin acts first, Gob (1, 1) and Grik (1, −1) next to him. The rules
    the cases assume are pinned (speed 6, no action point, defence 10), whatever the
    defaults in force."""
    rules = d20.Rules(default_speed=6, default_action_points=0, default_defence=10,
                      max_action_points_per_turn=None, cancelled_action_spent=True)
    enc = Encounter(d20.SYSTEM, helpers.roster(), rules=rules)
    enc.start(ScriptedRolls(helpers.INIT_ROLLS), positions=helpers.POSITIONS)
    sheet = K.compile_sheet(Encounter(d20.SYSTEM, helpers.roster(), rules=rules),
                            {"positions": helpers.POSITIONS},
                            resolve_policies("d20", ["héros", "gobelins"], None))
    assert sheet is not None
    kst = K.start(sheet, ScriptedRolls(helpers.INIT_ROLLS))
    assert [sheet.names[i] for i in kst.order] == ["Thorin", "Gob", "Pip", "Grik"]
    assert enc.state.current == "Thorin"
    return enc, sheet, kst


THORIN, PIP, GOB, GRIK = 0, 1, 2, 3


def refused(enc: Encounter, actor: str, action: str, **params: Any) -> str:
    """The rule the engine cites when it refuses ``action``; nothing changes
    (CORE-ERR) and no die is drawn."""
    before = enc.state.to_json()
    dice = ScriptedRolls([20] * 5)
    with pytest.raises(EscarmoucheError) as err:
        enc.act(actor, action, dice, **params)
    assert enc.state.to_json() == before and dice.used == 0
    return str(err.value.rule)


def same(enc: Encounter, sheet: K.Sheet, kst: K.State) -> None:
    """The kernel's state written back is the engine's (today's save format)."""
    assert doors.write_back(sheet, kst).state.to_json() == {**enc.state.to_json(),
                                                            "log": []}


def test_refusal_codes_answer_their_cases_d20_act_1() -> None:
    """Each refusal code for its case, on fixed dice, the engine refusing the same case
    citing the same rule: out of turn (NOT_ITS_TURN, D20-ACT-1); an attack on itself,
    on nobody or on a fighter out (NO_TARGET, CORE-ERR), on a fighter not adjacent
    (NOT_ADJACENT, D20-OPP-2); no action point (NO_POINT, D20-ACT-3); a move of no
    square or beyond the speed (BAD_LENGTH, D20-ACT-1), to a square not neighbouring
    (NOT_NEIGHBOUR, D20-OPP-2), through an enemy or ending on an ally (BLOCKED,
    D20-ACT-1); a second attack with no slot left (NO_SLOT, D20-ACT-2); a fighter out
    (OUT, D20-ACT-1)."""
    enc, sheet, kst = started()
    attack = ("attaque", K.ATTACK, GOB, ())
    assert K.refusal(sheet, kst, THORIN, attack) == 0
    assert K.refusal(sheet, kst, GOB, ("attaque", K.ATTACK, THORIN, ())) == K.NOT_ITS_TURN
    assert refused(enc, "Gob", "attaquer", cible="Thorin") == "D20-ACT-1"
    assert K.REFUSALS[K.NOT_ITS_TURN] == "D20-ACT-1"
    for target in (THORIN, 4, -1):
        assert K.refusal(sheet, kst, THORIN, ("attaque", K.ATTACK, target, ())) == K.NO_TARGET
    assert refused(enc, "Thorin", "attaquer", cible="Thorin") == K.REFUSALS[K.NO_TARGET]
    assert refused(enc, "Thorin", "attaquer", cible="Personne") == "CORE-ERR"
    assert K.refusal(sheet, kst, THORIN, ("attaque", K.ATTACK, PIP, ())) == K.NOT_ADJACENT
    assert refused(enc, "Thorin", "attaquer", cible="Pip") == K.REFUSALS[K.NOT_ADJACENT]
    assert K.REFUSALS[K.NOT_ADJACENT] == "D20-OPP-2"
    assert K.refusal(sheet, kst, THORIN, ("effort", K.POINT, -1, ())) == K.NO_POINT
    assert refused(enc, "Thorin", "point_action") == K.REFUSALS[K.NO_POINT] == "D20-ACT-3"
    for path, code, squares in (
            ((), K.BAD_LENGTH, []),
            (tuple((-k, 0) for k in range(1, 8)), K.BAD_LENGTH, [[-k, 0] for k in range(1, 8)]),
            (((2, 0),), K.NOT_NEIGHBOUR, [[2, 0]]),
            (((1, 0), (1, 1), (2, 2)), K.BLOCKED, [[1, 0], [1, 1], [2, 2]]),
            (((-1, 1), (-2, 2), (-3, 3)), K.BLOCKED, [[-1, 1], [-2, 2], [-3, 3]])):
        assert K.refusal(sheet, kst, THORIN, ("deplacement", K.MOVE, -1, path)) == code
        assert refused(enc, "Thorin", "deplacement", chemin=squares) == K.REFUSALS[code]
    assert K.REFUSALS[K.NOT_NEIGHBOUR] == "D20-OPP-2" and K.REFUSALS[K.BLOCKED] == "D20-ACT-1"

    # Thorin's attack: a 20 hits Gob (20 + 5 ≥ 12), a 6 on 1d6 takes his 5 PV, both ways
    K.play(sheet, kst, THORIN, attack, ScriptedRolls([20, 6]))
    enc.act("Thorin", "attaquer", ScriptedRolls([20, 6]), cible="Gob")
    assert kst.log == [(K.TURN_BEGIN, 1), (K.ACTIVATION, 1, THORIN, 1),
                       (K.ATTACK, 1, THORIN, GOB, 20, 6, 0, ("simple",), 0)]
    assert kst.out[GOB] and enc.fighter("Gob").out
    same(enc, sheet, kst)
    grik = ("attaque", K.ATTACK, GRIK, ())
    assert K.refusal(sheet, kst, THORIN, grik) == K.NO_SLOT
    assert refused(enc, "Thorin", "attaquer", cible="Grik") == K.REFUSALS[K.NO_SLOT]
    assert K.REFUSALS[K.NO_SLOT] == "D20-ACT-2"
    assert K.refusal(sheet, kst, THORIN, attack) == K.NO_TARGET  # Gob is out
    assert refused(enc, "Thorin", "attaquer", cible="Gob") == "CORE-ERR"
    assert K.refusal(sheet, kst, GOB, grik) == K.OUT
    assert refused(enc, "Gob", "attaquer", cible="Thorin") == K.REFUSALS[K.OUT] == "D20-ACT-1"
    assert list(K.candidates(sheet, kst, THORIN)) == []  # no slot, no action point

    # Gob, out, is skipped: Pip's turn, towards Grik, the nearest enemy left
    K._advance(sheet, kst)
    enc.end_activation(ScriptedRolls([]))
    assert enc.state.current == "Pip" and kst.order[kst.cursor] == PIP
    same(enc, sheet, kst)
    moves = list(K.candidates(sheet, kst, PIP))
    assert moves == [("deplacement", K.MOVE, -1, ((-2, 2), (-1, 1)))]  # Thorin on (0, 0)
    assert K.refusal(sheet, kst, PIP, moves[0]) == 0
    engine = d20.SYSTEM.moves(Ctx(enc.state, d20.SYSTEM, enc.rules, None), "Pip", (),
                              lambda _name, _kind, options: options[0])
    assert [(m.action, m.params) for m in engine] == [
        ("deplacement", {"chemin": [[-2, 2], [-1, 1]]})]


def test_point_cap_and_interruption_d20_imm_2() -> None:
    """D20-ACT-3: with a cap of one action point per turn, the second is refused
    (POINT_CAP); D20-IMM-1/2: a halfling attacked interrupts the attack with its
    « Deuxième chance » (no die), once until its own turn; the attack cancelled gives
    its slot back under ``cancelled_action_spent=False``; the state is the engine's."""
    rules = d20.Rules(max_action_points_per_turn=1, cancelled_action_spent=False)
    extra = {"Thorin": {"PA": 2}}
    positions = {**helpers.POSITIONS, "Pip": [-1, 0], "Gob": [-1, 1]}  # Gob by Pip
    enc = Encounter(d20.SYSTEM, helpers.roster(**extra), rules=rules)
    enc.start(ScriptedRolls(helpers.INIT_ROLLS), positions=positions)
    sheet = K.compile_sheet(Encounter(d20.SYSTEM, helpers.roster(**extra), rules=rules),
                            {"positions": positions},
                            resolve_policies("d20", ["héros", "gobelins"], None))
    assert sheet is not None
    kst = K.start(sheet, ScriptedRolls(helpers.INIT_ROLLS))
    point = ("effort", K.POINT, -1, ())
    assert K.refusal(sheet, kst, THORIN, point) == 0
    K.play(sheet, kst, THORIN, point, ScriptedRolls([]))
    enc.act("Thorin", "point_action", ScriptedRolls([]))
    assert K.refusal(sheet, kst, THORIN, point) == K.POINT_CAP
    assert refused(enc, "Thorin", "point_action") == K.REFUSALS[K.POINT_CAP] == "D20-ACT-3"
    same(enc, sheet, kst)
    K._advance(sheet, kst)
    enc.end_activation(ScriptedRolls([]))
    assert enc.state.current == "Gob"
    attack = ("attaque", K.ATTACK, PIP, ())
    # next to Pip (12 PV) and Thorin (20 PV): the weakest first
    assert list(K.candidates(sheet, kst, GOB)) == [attack, ("attaque", K.ATTACK, THORIN, ())]
    K.play(sheet, kst, GOB, attack, ScriptedRolls([]))  # interrupted: no die
    enc.act("Gob", "attaquer", ScriptedRolls([]), cible="Pip", reactions=[
        {"par": "Pip", "type": "interruption", "effet": "arret", "nom": "Deuxième chance"}])
    assert kst.log[-1] == (K.CANCELLED, 1, GOB, PIP, ("simple",), 0)
    assert kst.immediate[PIP] and kst.budget[GOB] == ()  # given back
    same(enc, sheet, kst)
    K.play(sheet, kst, GOB, attack, ScriptedRolls([1]))  # the slot again; a 1 misses
    enc.act("Gob", "attaquer", ScriptedRolls([1]), cible="Pip")
    same(enc, sheet, kst)


def _thorin_between_goblins(hp: int) -> tuple[Encounter, Any]:
    """Thorin (``hp`` PV) on the square next to Gob and Grik, the fight started by the
    engine, and the d20 kernel's sheet of the same fight (D20-OPP-1/2)."""
    extra = {"Thorin": {"PV": hp}}
    enc = Encounter(d20.SYSTEM, helpers.roster(**extra))
    enc.start(ScriptedRolls(helpers.INIT_ROLLS), positions=helpers.POSITIONS)
    sheet = K.compile_sheet(Encounter(d20.SYSTEM, helpers.roster(**extra)),
                            {"positions": helpers.POSITIONS},
                            resolve_policies("d20", ["héros", "gobelins"], None))
    assert sheet is not None
    return enc, sheet


@pytest.mark.parametrize("hp", [20, 2])
def test_opportunity_attacks_on_a_move_d20_opp_2(hp: int) -> None:
    """D20-OPP-1/2: Thorin leaving the square next to Gob and Grik draws both their
    opportunity attacks, in roster order, before he leaves it; a Thorin knocked out by
    the first stays on his square, the second does not happen, and the fight is the
    engine's (the move declared with its reactions, ``Encounter.act``)."""
    enc, sheet = _thorin_between_goblins(hp)
    kst = K.start(sheet, ScriptedRolls(helpers.INIT_ROLLS))
    move = ("deplacement", K.MOVE, -1, ((-1, 0), (-2, 0)))
    assert K.refusal(sheet, kst, THORIN, move) == 0
    dice = [20, 3, 1]  # Gob hits (20 + 3 ≥ 16) for 3; Grik misses
    K.play(sheet, kst, THORIN, move, ScriptedRolls(dice))
    enc.act("Thorin", "deplacement", ScriptedRolls(dice), chemin=[[-1, 0], [-2, 0]],
            reactions=[{"par": "Gob", "type": "attaque_opportunite"},
                       {"par": "Grik", "type": "attaque_opportunite"}])
    same(enc, sheet, kst)
    strikes = [e for e in kst.log if e[0] == K.OPPORTUNITY]
    assert [(e[2], e[4]) for e in strikes] == ([(GOB, 20), (GRIK, 1)] if hp > 3
                                               else [(GOB, 20)])
    assert kst.pos[THORIN] == ((-2, 0) if hp > 3 else (0, 0))
    said = [t for entry in kst.log for t in doors.narrate(sheet, entry)]
    assert said == [e.text for e in enc.log if e.kind in doors.NARRATED and e.turn == 1
                    and e.kind != "initiative"][-len(said):]
    assert kst.finished is enc.state.finished


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_candidates_are_the_legal_moves_automated_play_offers_d20_act_1(
        data: st.DataObject) -> None:
    """D20-ACT-1..3, D20-OPP-2: at every step of a fight played by any candidates, for
    every fighter: out of its turn none (and every move refused); in its turn each
    candidate is legal, the attacks are exactly the accepted attacks on standing
    enemies (any target index tried), an action point only when no attack is left and
    an enemy is adjacent, a move only when none is."""
    n = data.draw(st.integers(2, 5))
    roster = [Combatant(f"F{k}", "AB"[k % 2], {
        "init": data.draw(st.integers(-2, 3)), "PV": data.draw(st.integers(1, 12)),
        "PA": data.draw(st.integers(0, 2)), "VD": data.draw(st.integers(1, 4))})
        for k in range(n)]
    squares = data.draw(st.lists(_SQUARES, min_size=n, max_size=n, unique=True))
    sheet = K.compile_sheet(Encounter(d20.SYSTEM, roster),
                            {"positions": {f"F{k}": list(s) for k, s in enumerate(squares)}},
                            resolve_policies("d20", ["A", "B"], None))
    assert sheet is not None
    dice = random.Random(data.draw(st.integers(0, 10_000)))
    kst = K.start(sheet, dice)
    for _ in range(40):
        if kst.finished:
            break
        current = kst.order[kst.cursor]
        for actor in range(n):
            moves = list(K.candidates(sheet, kst, actor))
            attacks = [("attaque", K.ATTACK, j, ()) for j in range(-1, n + 1)]
            accepted = [m for m in attacks if K.refusal(sheet, kst, actor, m) == 0]
            if actor != current:
                assert moves == [] and accepted == []
                continue
            assert all(K.refusal(sheet, kst, actor, m) == 0 for m in moves)
            on_enemies = {m for m in accepted if sheet.side[m[2]] != sheet.side[actor]}
            assert {m for m in moves if m[1] == K.ATTACK} == on_enemies
            near = [j for j in sheet.enemies[actor] if not kst.out[j]
                    and grid.distance(kst.pos[actor], kst.pos[j]) == 1]  # type: ignore[arg-type]
            point = ("effort", K.POINT, -1, ())
            assert (point in moves) == (bool(near) and not on_enemies
                                        and K.refusal(sheet, kst, actor, point) == 0)
            assert not (near and any(m[1] == K.MOVE for m in moves))
        offered = list(K.candidates(sheet, kst, current))
        plays: bool = data.draw(st.booleans())
        if offered and plays:
            K.play(sheet, kst, current, data.draw(st.sampled_from(offered)), dice)
        if not kst.finished:
            K._advance(sheet, kst)


def test_the_engine_plays_what_the_kernel_does_not_cover() -> None:
    """``D20System.kernel`` answers ``None`` (the engine plays) for the random policy,
    effects (D20-START-1, D20-END-1/2), an unknown start option, a single side, a
    fighter out or fled, a fight started, an immediate power it does not play;
    simulation mode then still plays."""
    sample = list(d20.SYSTEM.sample_roster)
    policies = resolve_policies("d20", ["héros", "monstres"], None)
    assert isinstance(d20.SYSTEM.kernel(Encounter(d20.SYSTEM, sample), {}, policies),
                      K.Sheet)
    roster = sim.as_roster(Encounter(d20.SYSTEM, sample))
    assert sim.prepare(roster, policy="au_hasard").kernel is None
    assert sim.prepare(roster, policy="au_hasard").play(0, 1).winner in ("héros", "monstres",
                                                                          None)
    assert d20.SYSTEM.kernel(Encounter(d20.SYSTEM, sample), {"surpris": "héros"},
                             policies) is None
    assert d20.SYSTEM.kernel(Encounter(d20.SYSTEM, sample), {"positions": {"Aldric": [0, 0],
                                                                          "Brune": [0, 0]}},
                             policies) is None  # the engine refuses it in French
    alone = Encounter(d20.SYSTEM, [Combatant("A", "x", {"PV": 3}),
                                   Combatant("B", "x", {"PV": 3})])
    assert d20.SYSTEM.kernel(alone, {}, resolve_policies("d20", ["x"], None)) is None
    poisoned = Encounter(d20.SYSTEM, sample)
    poisoned.add_effect(Effect("Poison", "degats_continus", Timing.ACTIVATION_START,
                               bearer="Grolk", per_tick={"PV": -3}, save_ends=True))
    assert d20.SYSTEM.kernel(poisoned, {}, policies) is None
    golden = golden_runner.build(d20.SYSTEM, golden_runner.load("d20")["fights"][0])
    assert golden.state.effects and d20.SYSTEM.kernel(
        golden, {}, resolve_policies("d20", ["héros", "gobelins"], None)) is None
    fled = Encounter(d20.SYSTEM, sample)
    fled.flee("Brune")
    assert d20.SYSTEM.kernel(fled, {}, policies) is None
    down = Encounter(d20.SYSTEM, sample)
    down.adjust("Brune", "PV", -18)
    assert down.fighter("Brune").out and d20.SYSTEM.kernel(down, {}, policies) is None
    begun = Encounter(d20.SYSTEM, sample)
    begun.start(random.Random(1))
    assert d20.SYSTEM.kernel(begun, {}, policies) is None


def test_an_immediate_power_it_does_not_play_is_the_engines_d20_imm_2(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """D20-IMM-2: an immediate power of the table that is not an interruption cancelling
    its trigger (a reaction, an attack) leaves the fights of its bearers to the engine;
    the fights of a roster without a bearer stay the kernel's."""
    power = d20.rules.IMMEDIATE_POWERS["deuxieme_chance"]
    table = {"deuxieme_chance": d20.rules.ImmediatePower(
        power.id, power.label, power.trait, "reaction", power.trigger, "autre", power.rules)}
    monkeypatch.setattr(K, "IMMEDIATE_POWERS", table)
    policies = resolve_policies("d20", ["héros", "monstres"], None)
    sample = list(d20.SYSTEM.sample_roster)  # Brune is a halfling
    assert d20.SYSTEM.kernel(Encounter(d20.SYSTEM, sample), {}, policies) is None
    no_halfling = [c for c in sample if c.name != "Brune"]
    assert d20.SYSTEM.kernel(Encounter(d20.SYSTEM, no_halfling), {}, policies) is not None


def test_the_rules_are_written_once_d20_init_1() -> None:
    """D20-INIT-1/2, D20-ACT-1, D20-OPP-2: the documented functions are the kernel's
    arithmetic over checked values: ``roll_initiative`` is ``draw_initiative`` (the same
    dice, the same order), ``resolve_attack`` is ``attack_hits``, ``check_path`` refuses
    what ``path_fault`` finds and ``path_towards`` is ``greedy_path``; the kernel
    modules' doctests hold."""
    roster = list(d20.SYSTEM.sample_roster)
    for seed in range(50):
        rules = d20.Rules(max_roll_off_rounds=2)
        a = initiative.roll_initiative(roster, random.Random(seed), rules=rules)
        b = initiative.draw_initiative([c.name for c in roster],
                                       [c.stat("init", 0) for c in roster],
                                       random.Random(seed), 2)
        assert a == b
    for roll in range(1, 21):
        for bonus, defence in ((5, 12), (0, 20), (-3, 1)):
            assert (d20.resolve_attack(roll, bonus, defence).hit
                    == d20.actions.attack_hits(roll, bonus, defence))
    enc = Encounter(d20.SYSTEM, helpers.roster())
    enc.start(ScriptedRolls(helpers.INIT_ROLLS), positions=helpers.POSITIONS)
    assert grid.path_fault((0, 0), [(1, 0), (1, 1)], 6, lambda s: s == (1, 1) or None) == (
        1, "ennemi")
    helpers.assert_rejected(enc, "D20-ACT-1", "Thorin", "deplacement", chemin=[[1, 0], [1, 1]])
    for module in (K, doors, grid, initiative, d20.actions, d20.narration):
        assert doctest.testmod(module).failed == 0, module.__name__


def _as_kernel(sheet: K.Sheet, move: Any) -> K.Move:
    """One of the engine's moves (``D20System.moves``) as the kernel's tuple."""
    tag = next(iter(move.tags))
    if move.action == "attaquer":
        return tag, K.ATTACK, sheet.index[move.params["cible"]], ()
    if move.action == "point_action":
        return tag, K.POINT, -1, ()
    return tag, K.MOVE, -1, tuple((x, y) for x, y in move.params["chemin"])


@pytest.mark.parametrize("case", cases(), ids=lambda c: c[0])
def test_candidates_are_the_engines_moves_core_log(case: tuple[str, Any, dict[str, Any]],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """At every choice of the full engine's fights, the kernel's candidates on the
    engine's state read back (``kernel_doors.read_state``) are the moves the engine
    offers (``D20System.moves``: the candidates on the view of the live fight,
    ``kernel_doors.view``; then ``offered``, the rules' own test, which keeps them all),
    in the same order (D20-ACT-1..3, D20-OPP-2); and a state read back writes back as it
    was (today's save format, the log aside)."""
    label, roster, start = case
    prepared = covered(roster, start, "prudent")
    sheet = prepared.kernel
    original = type(d20.SYSTEM).moves
    seen = []

    def watched(self: Any, ctx: Any, actor: str, done: Any, react: Any) -> Any:
        moves = original(self, ctx, actor, done, react)
        offered = self.offered(ctx, actor, {m.action for m in moves}) if moves else set()
        engine = [_as_kernel(sheet, m) for m in moves if m.action in offered]
        assert len(engine) == len(moves)  # legal by construction
        kst = doors.read_state(sheet, ctx.state)
        assert list(K.candidates(sheet, kst, sheet.index[actor])) == engine, label
        seen.append(len(engine))
        return moves

    monkeypatch.setattr(type(d20.SYSTEM), "moves", watched)
    for seed in range(6):
        enc = prepared.template.copy()
        dice = sim.stream(seed, 0, sim.DICE)
        if prepared.start_options:
            enc.start(dice, **prepared.start_options)
        enc.run(dice, max_turns=30, policy=prepared.policies)
        back = doors.write_back(sheet, doors.read_state(sheet, enc.state)).state.to_json()
        assert back == {**enc.state.to_json(), "log": []}, label
    assert sum(seen) > 30


def test_the_engines_door_reads_the_kernel_d20_opp_1() -> None:
    """``D20System.moves`` is the kernel's candidates on the live fight
    (``kernel_doors.view``): an enemy fled is no target (CORE-END-1); the halfling
    attacked is asked for its « Deuxième chance » while its allowance is unused, and
    declares it with the attack (D20-IMM-1/2); before the start, no move."""
    enc = Encounter(d20.SYSTEM, helpers.roster())
    ctx = Ctx(enc.state, d20.SYSTEM, enc.rules, None)
    assert d20.SYSTEM.moves(ctx, "Thorin", (), lambda _n, _k, options: options[0]) == []
    enc.start(ScriptedRolls(helpers.INIT_ROLLS), positions=helpers.POSITIONS)
    enc.flee("Gob")
    ctx = Ctx(enc.state, d20.SYSTEM, enc.rules, None)
    asked: list[tuple[str, str]] = []

    def react(name: str, kind: str, options: Any) -> str:
        asked.append((name, kind))
        return str(options[0])

    moves = d20.SYSTEM.moves(ctx, "Thorin", (), react)
    assert [(m.action, m.params) for m in moves] == [("attaquer", {"cible": "Grik"})]
    assert asked == []  # Grik has no immediate power
    enc.end_activation(ScriptedRolls([]))  # Gob fled: Pip's turn, next to no enemy
    ctx = Ctx(enc.state, d20.SYSTEM, enc.rules, None)
    moves = d20.SYSTEM.moves(ctx, "Pip", (), react)
    assert [m.action for m in moves] == ["deplacement"] and asked == []
    assert moves[0].params == {"chemin": [[-2, 2], [-1, 1]]}
    positions = {**helpers.POSITIONS, "Pip": [-1, 0], "Gob": [-1, 1]}  # Gob by Pip
    enc = Encounter(d20.SYSTEM, helpers.roster())
    enc.start(ScriptedRolls(helpers.INIT_ROLLS), positions=positions)
    enc.end_activation(ScriptedRolls([]))  # Gob's turn, next to Pip and Thorin
    moves = d20.SYSTEM.moves(Ctx(enc.state, d20.SYSTEM, enc.rules, None), "Gob", (), react)
    assert [m.params["cible"] for m in moves] == ["Pip", "Thorin"]  # the weakest first
    assert asked == [("Pip", "action_immediate")]
    assert moves[0].params["reactions"] == [{"par": "Pip", "type": "interruption",
                                             "effet": "arret", "nom": "Deuxième chance"}]


@pytest.mark.parametrize("positions", [{"A": [0, 0], "B": [3, 0]}, {"A": [0, 0], "C": [1, 1]},
                                       {"B": [0, 0]}])
def test_fighters_off_the_grid_d20_opp_2(positions: dict[str, list[int]]) -> None:
    """D20-OPP-2: fighters the start option ``positions`` leaves off the grid neither
    act nor are attacked, in the kernel's fights as in the engine's (to the turn
    limit)."""
    roster = [Combatant("A", "x", {"PV": 8, "attaque": 3}), Combatant("B", "y", {"PV": 8}),
              Combatant("C", "y", {"PV": 5, "PA": 1}, traits={"halfelin"})]
    prepared = covered(sim.as_roster(Encounter(d20.SYSTEM, roster)),
                       {"positions": positions}, "agressif", max_turns=5)
    assert check_equal(prepared, range(SEEDS)) == SEEDS


def test_initiative_roll_offs_and_lots_d20_init_2() -> None:
    """D20-INIT-1/2: three fighters of the same ``init`` tie often; their roll-offs,
    and past two rounds of them the lot, are drawn as the engine draws them, and the
    ties settled by lot are counted alike (``FightResult.lots``)."""
    roster = [Combatant(name, side, {"PV": 6, "init": 1}) for name, side in
              (("A", "x"), ("B", "y"), ("C", "y"))]
    enc = Encounter(d20.SYSTEM, roster, rules=d20.Rules(max_roll_off_rounds=2))
    prepared = covered(sim.as_roster(enc), {}, "agressif", rules=enc.rules)
    assert check_equal(prepared, range(100)) == 100
    engine = sim.Prepared(prepared.template, {}, prepared.policies, prepared.max_turns)
    results = [prepared.play(i, 0) for i in range(400)]
    assert results == [engine.play(i, 0) for i in range(400)]
    lots = sum(r.lots for r in results)  # fight 333 of seed 0 draws one
    offs = sum(any(r.roll_offs for r in K.run(prepared.kernel, sim.stream(0, i, sim.DICE)
                                              .randint, 30).initiative.rolls)
               for i in range(400))
    assert lots > 0 and offs > 40


# -- Roster.play: the full engine's fight, played on the kernel and narrated ---------------

#: the policies the narrated fights are held to the engine's under
PLAY_POLICIES: tuple[Any, ...] = (None, "prudent", "agressif",
                                  {"héros": "prudent", "orques": "par_defaut"})


def as_roster(roster: Any, start: dict[str, Any], rules: Any = None) -> Roster:
    """A real roster (``escarmouche.roster.Roster``) of a case's fight
    (:func:`tests.helpers.kernels.as_roster`; a d20 case has no effects)."""
    played = kernels.as_roster(roster, start, rules=rules)
    assert played is not None  # (a roster holds no effect)
    return played


def check_played(roster: Roster, policy: Any, seeds: Any) -> int:
    """``Roster.play`` and the kernel's narrated fight (``D20System.narrated_run``,
    never ``None`` here) are the engine's fight on ``seeds``
    (:func:`tests.helpers.kernels.check_played`); how many fights were narrated."""
    seeds = list(seeds)
    kernels.check_played(roster, policy, seeds)
    return len(seeds)


@pytest.mark.parametrize("case", cases(), ids=lambda c: c[0])
def test_roster_play_is_the_engines_fight_core_log(case: tuple[str, Any, dict[str, Any]]
                                                  ) -> None:
    """CORE-LOG, CORE-RNG, D20-*: ``Roster.play`` plays every covered fight on the rules
    kernel and narrates the engine's log from the kernel's (``kernel_doors.narrated_run``):
    under each policy, to the turn limit or to the end, the save is the engine's, event
    for event (texts, rules, dice, data), and so are the dice consumed."""
    label, roster, start = case
    played = as_roster(roster, start)
    for policy in PLAY_POLICIES:
        if isinstance(policy, dict) and not set(policy) <= set(played.sides):
            policy = "prudent"
        assert check_played(played, policy, range(PLAY_SEEDS)) == PLAY_SEEDS, label


@pytest.mark.parametrize("rules", [
    d20.Rules(cancelled_action_spent=False),
    d20.Rules(immediate_reset="debut_du_round"),
    d20.Rules(max_action_points_per_turn=1, default_action_points=2),
    d20.Rules(default_weapon="2d4+1", default_defence=14, default_speed=3),
    d20.Rules(default_weapon="1d4!"),
    d20.Rules(max_roll_off_rounds=2),
], ids=["rendue", "round", "plafond", "arme", "explose", "lots"])
def test_roster_play_is_the_engines_fight_under_options_core_log(rules: d20.Rules) -> None:
    """CORE-LOG, D20-OPP-1 / D20-IMM-2 (an action given back), D20-IMM-1, D20-ACT-3,
    the weapon's dice (several, exploding), D20-INIT-2 (ties by lot, their dice): the
    narrated fights are the engine's under other rules too."""
    ties = [Combatant(name, side, {"PV": 6, "init": 1}) for name, side in
            (("A", "x"), ("B", "y"), ("C", "y"))]
    for label, roster, start in [*cases()[:3], ("égalités", sim.as_roster(
            Encounter(d20.SYSTEM, ties)), {})]:
        assert check_played(as_roster(roster, start, rules), "agressif", range(12)) == 12, label


@pytest.mark.parametrize("hp", [20, 2])
def test_narrated_opportunity_attacks_are_the_engines_d20_opp_1(hp: int) -> None:
    """D20-OPP-1/2: automated play never leaves a square next to an enemy (it walks
    straight to the nearest one); a move that does, played on the kernel, is narrated
    as the engine logs it (the move declared, each opportunity attack, the one that did
    not happen, the move cancelled where its mover fell), the whole save the engine's."""
    enc, sheet = _thorin_between_goblins(hp)
    tape = doors._Tape()

    def recorded(values: list[int]) -> Any:
        scripted = ScriptedRolls(values)

        def randint(a: int, b: int) -> int:
            value = scripted.randint(a, b)
            tape.draws.append((b, value))
            return value
        return RandintOnly(randint)

    kst = K.start(sheet, recorded(helpers.INIT_ROLLS))
    dice = [20, 3, 1]  # Gob hits (20 + 3 ≥ 16) for 3; Grik misses
    K.play(sheet, kst, THORIN, ("deplacement", K.MOVE, -1, ((-1, 0), (-2, 0))), recorded(dice))
    enc.act("Thorin", "deplacement", ScriptedRolls(dice), chemin=[[-1, 0], [-2, 0]],
            reactions=[{"par": "Gob", "type": "attaque_opportunite"},
                       {"par": "Grik", "type": "attaque_opportunite"}])
    told = doors.write_back(sheet, kst, fast=False)
    doors._narrate(sheet, kst, tape, Ctx(told.state, told.system, told.rules, None))
    assert told.to_json() == enc.to_json()
    kinds = [e.kind for e in told.log]
    assert kinds.count("attaque_opportunite") == (2 if hp > 3 else 1)
    assert ("reaction_sans_objet" in kinds) is (hp <= 3)


def test_what_the_narration_does_not_cover_the_engine_plays_core_log() -> None:
    """CORE-LOG: a fight the kernel does not play (the random policy, a policy object,
    a single side) has no kernel (``Roster._kernel``), and ``Roster.play`` plays it on the
    engine, the same fight as ``Encounter.start`` then ``Encounter.run``."""
    from escarmouche.policies import POLICIES

    sample = as_roster(sim.as_roster(Encounter(d20.SYSTEM, list(d20.SYSTEM.sample_roster))),
                       {})
    alone = Roster("t", "d20", d20.Rules(), (Combatant("A", "x", {"PV": 3}),
                                             Combatant("B", "x", {"PV": 3})), {}, (), {})
    for roster, policy in ((sample, "au_hasard"), (sample, POLICIES["prudent"]),
                           (alone, None)):
        assert roster._kernel(roster.policies if policy is None else policy, 50) is None
        for seed in range(3):
            enc, rng = kernels.engine_play(roster, seed, 50, policy)
            played_rng = random.Random(seed)
            played = roster.play(played_rng, max_turns=50, policy=policy)
            assert played.to_json() == enc.to_json()
            assert played_rng.getstate() == rng.getstate()


@settings(max_examples=200, deadline=None)
@given(st.tuples(st.integers(-30, 30), st.integers(-30, 30)),
       st.tuples(st.integers(-33, 33), st.integers(-33, 33)))
def test_around_is_the_squares_at_distance_one_d20_opp_2(here: Any, there: Any) -> None:
    """D20-OPP-2: the squares the kernel reads as adjacent (``grid.around``, kept per
    square) are those at ``grid.distance`` 1, the 8 neighbouring squares."""
    assert (there in grid.around(here)) == (grid.distance(here, there) == 1)


def test_kept_paths_are_the_greedy_paths_asked_afresh_d20_act_1() -> None:
    """D20-ACT-1: every path the d20-escarmouche sheet kept (``Sheet.paths``, by from,
    towards, steps and squares taken) over 60 fights is ``grid.greedy_path``'s, asked
    afresh of the same squares."""
    roster = load_roster(example_rosters()["d20-escarmouche"])
    for i in range(60):
        roster.play(sim.stream(0, i, sim.DICE))
    sheet = roster._kernel(roster.policies, 50)
    kept = list(sheet.paths._answers.items())
    assert kept
    for (here, goal, steps, taken), (_, path) in kept:
        def free(square: Any, taken: frozenset[Any] = taken) -> bool:
            return square not in taken

        assert path == tuple(grid.greedy_path(here, goal, steps, free))
