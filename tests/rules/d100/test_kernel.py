"""The d100 rules kernel (``escarmouche.systems.d100.kernel``) against the full engine.

For every fight it covers (the README duel, the example rosters, the golden fights,
each under the deterministic policies), the kernel's fight, written back as the engine's
state, is the full engine's fight for the same dice: every track, flag, counter, the
outcome and the dice consumed (CORE-RNG, CORE-LOG). Its moves are legal, its refusals
cite the rules, and what it does not cover is left to the engine.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import Combatant, EscarmoucheError
from escarmouche import simulation as sim
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter
from escarmouche.policies import resolve_policies
from escarmouche.roster import example_rosters, load_roster
from escarmouche.state import Ctx, EndCondition
from escarmouche.systems import d100
from escarmouche.systems.d100 import core
from escarmouche.systems.d100 import kernel as K
from escarmouche.systems.d100 import kernel_doors as doors
from escarmouche.systems.d100.attack import attack_setup, damage, resolve_attack
from tests.helpers import golden_runner, kernels
from tests.helpers.d100 import readme_duel
from tests.helpers.kernels import engine_fight

SEEDS = 40


def cases() -> list[tuple[str, Any, dict[str, Any]]]:
    """(label, roster, start options) of every fight the kernel is held to."""
    out: list[tuple[str, Any, dict[str, Any]]] = [("README", sim.as_roster(readme_duel()), {})]
    for name in ("d100-duel", "d100-esquive", "d100-escarmouche"):
        out.append((name, load_roster(example_rosters()[name]), {}))
    for duel in d100.SYSTEM.situation_duels:  # shots at 60 m into a melee, jumps …
        out.append((duel.key, sim.as_roster(Encounter("d100", list(duel.combatants))),
                    dict(duel.start_options)))
    ends = [EndCondition("tours", "les héros ont tenu", turns=4),
            EndCondition("combattant_hors_combat", "Grolk tombe", name="Grolk")]
    out.append(("conditions", sim.as_roster(Encounter(
        "d100", [f.combatant for f in readme_duel().state.fighters.values()],
        end_conditions=ends)), {}))
    for k, fight in enumerate(golden_runner.load("d100")["fights"]):
        enc = golden_runner.build(d100.SYSTEM, fight)
        out.append((f"golden-{k}", sim.as_roster(enc), dict(fight.get("start", {}))))
    return out





def kernel_fight(prepared: sim.Prepared, seed: int, max_turns: int, *,
                 kernel: Any = K, kernel_doors: Any = doors) -> tuple[tuple[str, Any], Any]:
    """The d100 kernel's fight on the engine's streams, written back as the engine's
    state (``tests.helpers.kernels.kernel_fight``)."""
    return kernels.kernel_fight(prepared, seed, max_turns, kernel=kernel,
                                kernel_doors=kernel_doors)



@pytest.mark.parametrize("policy", [None, "prudent", "agressif",
                                    {"héros": "prudent", "orques": "par_defaut"}])
@pytest.mark.parametrize("case", cases(), ids=lambda c: c[0])
def test_kernel_equals_full_engine_core_rng(case: tuple[str, Any, dict[str, Any]],
                                            policy: Any) -> None:
    """CORE-RNG / CORE-LOG: the kernel ends every covered fight where the full engine
    ends it (state and dice), and counts the same result."""
    label, roster, start = case
    if isinstance(policy, dict) and not {"héros", "orques"} <= {
            f.side for f in roster.encounter().state.fighters.values()}:
        policy = "prudent"
    prepared = sim.prepare(roster, policy=policy)
    if start:
        prepared = sim.Prepared(prepared.template, start, prepared.policies, 30,
                                d100.SYSTEM.kernel(prepared.template, start,
                                                   prepared.policies))
    assert prepared.kernel is not None, label
    engine = sim.Prepared(prepared.template, prepared.start_options, prepared.policies,
                          prepared.max_turns)
    for seed in range(SEEDS):
        max_turns = 3 if seed % 10 == 0 else prepared.max_turns  # the turn limit too
        kernel, _ = kernel_fight(prepared, seed, max_turns)
        assert kernel == engine_fight(prepared, seed, max_turns), (label, seed)
        assert prepared.play(seed, 5) == engine.play(seed, 5), (label, seed)


def test_kernel_log_carries_every_die_d100_atk_3() -> None:
    """D100-ATK-1..3: each attack of the kernel's log, replayed from its dice by the
    documented ``resolve_attack``, loses the wounds the kernel counted."""
    prepared = sim.prepare(sim.as_roster(readme_duel()))
    sheet = prepared.kernel
    assert sheet is not None
    seen = 0
    for seed in range(20):
        st = K.run(sheet, random.Random(seed).randint, 50)
        for entry in st.log:
            if entry[0] != K.ATTACK:
                continue
            _, _, i, j, hand, code, roll, saved, d10, lost, *_ = entry
            setup = attack_setup(sheet.combatants[i], sheet.combatants[j],
                                 hand=d100.HANDS[hand], defence=K.DEFENCES[code])
            assert resolve_attack(setup, roll, saved, d10).wounds_lost == lost
            seen += 1
    assert seen > 100


def test_candidates_are_legal_and_refusals_cite_rules_d100_act_2() -> None:
    """D100-ACT-1/2: every candidate is legal (refusal 0); after an attack, a second
    one is refused (one attack action per turn), a parry prepared twice too
    (D100-PARRY-3), and out of turn nothing is legal (D100-ROUND-1)."""
    prepared = sim.prepare(sim.as_roster(readme_duel()), policy="prudent")
    sheet = prepared.kernel
    assert sheet is not None
    init = d100.resolve_initiative(sheet.combatants, [5, 5])
    st = K.State(sheet, init.order, init.to_json())
    K._begin_turn(sheet, st)
    K._advance(sheet, st)
    actor = st.turn_order[st.cursor]
    moves = list(K.candidates(sheet, st, actor))
    assert moves == [("attaque", K.ATTACK, 0, 1 - actor), ("defense", K.PREPARE, 0, -1)]
    assert all(K.refusal(sheet, st, actor, m) == 0 for m in moves)
    assert K.refusal(sheet, st, 1 - actor, moves[0]) == K.NOT_ITS_TURN
    K.play(sheet, st, actor, moves[0], random.Random(1).randint)
    assert K.refusal(sheet, st, actor, moves[0]) == K.PLAN
    assert K.REFUSALS[K.PLAN] == "D100-ACT-1"
    assert list(K.candidates(sheet, st, actor)) == [("defense", K.PREPARE, 0, -1)]
    K.play(sheet, st, actor, ("defense", K.PREPARE, 0, -1), random.Random(1).randint)
    assert list(K.candidates(sheet, st, actor)) == []
    assert K.refusal(sheet, st, actor, ("defense", K.PREPARE, 0, -1)) == K.PLAN


def test_the_engine_plays_what_the_kernel_does_not_cover() -> None:
    """Random policies, mounts, extra weapons and other systems are the engine's
    (``System.kernel`` answers ``None``)."""
    enc = readme_duel()
    policies = resolve_policies("d100", ["héros", "orques"], None)
    assert d100.SYSTEM.kernel(enc, {"montures": {"Aldric": "Grolk"}}, policies) is None
    assert d100.SYSTEM.kernel(enc, {"armes": {"hache": {"label": "hache", "damage": 4}}},
                              policies) is None
    assert sim.prepare(sim.as_roster(readme_duel()), policy="au_hasard").kernel is None
    # another system's roster gets its own kernel (d12's, since it has one), never d100's
    assert not isinstance(sim.prepare(load_roster(example_rosters()["d12-duel"])).kernel,
                          K.Sheet)


def test_core_is_the_documented_arithmetic_d100_atk_2() -> None:
    """D100-ATK-2/3: the documented functions and the kernel's table agree roll by roll."""
    for roll in range(1, 101):
        assert core.ZONE_BY_ROLL[roll - 1] == d100.hit_location(roll)
    assert damage(4, 3, 3, 1) == core.wounds(4, 3, 3, 1) == 3
    assert core.wounds(1, 3, 4, 2) == 0


_WEAPONS = ["arme_a_une_main", "rapiere", "dague", "arme_a_deux_mains", "arc", "pistolet",
            "arbalete", "fronde"]


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_kernel_equals_full_engine_on_any_roster_core_rng(data: st.DataObject) -> None:
    """CORE-RNG: any roster of two to four fighters (stats, armour, the dodge skill, a
    weapon in each hand or not, ground to cross, a surprised side, any deterministic
    policies), any dice: the kernel's fight is the full engine's."""
    n = data.draw(st.integers(2, 4))
    stat = st.integers(10, 70)
    roster = []
    equipment: dict[str, dict[str, str | None]] = {}
    for k in range(n):
        name = f"F{k}"
        stats = {s: data.draw(stat) for s in ("CC", "CT", "F", "E", "Ag")}
        stats.update(M=4, B=data.draw(st.integers(1, 14)), PA=data.draw(st.integers(0, 2)))
        skills = {"esquive"} if data.draw(st.booleans()) else set()
        roster.append(Combatant(name, "A" if k % 2 == 0 else "B", stats, skills=skills))
        pair = data.draw(st.sampled_from([("rapiere", "main_gauche"),
                                          ("arme_a_une_main", "dague"),
                                          ("dague", "arme_a_une_main")]))
        main = data.draw(st.sampled_from(_WEAPONS))
        equipment[name] = ({"directrice": pair[0], "non_directrice": pair[1]}
                           if data.draw(st.booleans()) else {"directrice": main})
    start: dict[str, Any] = {"equipement": equipment}
    terrain: dict[str, dict[str, int]] = {}
    for k in range(n):
        drop, ditch = data.draw(st.sampled_from([0, 2, 4, 7])), data.draw(
            st.sampled_from([0, 0, 2, 3]))
        if drop or ditch:
            terrain[f"F{k}"] = {"hauteur": drop, **({"fosse": ditch, "elan": data.draw(
                st.sampled_from([0, 2, 4, 6]))} if ditch else {})}
    if terrain:
        start["terrain"] = terrain
    if data.draw(st.booleans()):
        start["surpris"] = data.draw(st.sampled_from(["A", "B"]))
    policy = {side: data.draw(st.sampled_from(["agressif", "prudent", "par_defaut"]))
              for side in ("A", "B")}
    enc = Encounter("d100", roster)
    prepared = sim.prepare(sim.as_roster(enc), policy=policy)
    prepared = sim.Prepared(prepared.template, start, prepared.policies, 20,
                            d100.SYSTEM.kernel(prepared.template, start, prepared.policies))
    assert prepared.kernel is not None
    seed = data.draw(st.integers(0, 10_000))
    kernel, _ = kernel_fight(prepared, seed, 20)
    assert kernel == engine_fight(prepared, seed, 20)
    # and Roster.play, on the kernel where it narrates (CORE-LOG): the engine's save
    real = kernels.as_roster(sim.as_roster(enc), start)
    assert real is not None
    kernels.check_played(real, policy, [seed], narrated="terrain" not in start)


@pytest.mark.parametrize("case", [c for c in cases() if c[0] in (
    "README", "d100-escarmouche", "du-haut-du-mur", "tir-dans-la-melee",
    "seule-contre-trois", "dague-et-epee-contre-armure")], ids=lambda c: c[0])
def test_candidates_are_the_engines_moves_core_log(case: tuple[str, Any, dict[str, Any]],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """At every choice of the full engine's fights, the kernel's candidates on the
    compiled sheet and the engine's state read back (:func:`kernel_doors.read_state`) are the
    moves the engine offers (``D100System.moves``, the candidates on the view of the live
    fight, :func:`kernel_doors.view`; then ``offered``, the refusal, which keeps them all), in
    the same order; and a state read back writes back as it was (today's save format,
    the log aside)."""
    label, roster, start = case
    prepared = sim.prepare(roster, policy="prudent")
    sheet = d100.SYSTEM.kernel(prepared.template, start, prepared.policies)
    assert sheet is not None
    original = type(d100.SYSTEM).moves
    seen = []

    def watched(self: Any, ctx: Any, actor: str, done: Any, react: Any) -> Any:
        moves = original(self, ctx, actor, done, react)
        offered = self.offered(ctx, actor, {m.action for m in moves}) if moves else set()
        engine = [(next(iter(m.tags)), K.ACTIONS.index(m.action),
                   d100.HANDS.index(m.params.get("main", "directrice")),
                   sheet.names.index(m.params["cible"]) if "cible" in m.params else -1)
                  for m in moves if m.action in offered]
        st = doors.read_state(sheet, ctx.state)
        assert list(K.candidates(sheet, st, sheet.names.index(actor))) == engine
        seen.append(len(engine))
        return moves

    monkeypatch.setattr(type(d100.SYSTEM), "moves", watched)
    for seed in range(8):
        enc = prepared.template.copy()
        dice = sim.stream(seed, 0, sim.DICE)
        enc.start(dice, **start)
        enc.run(dice, max_turns=30, policy=prepared.policies)
        back = doors.write_back(sheet, doors.read_state(sheet, enc.state)).state.to_json()
        assert back == {**enc.state.to_json(), "log": []}, label
    assert sum(seen) > 50


def test_doors_word_the_kernels_refusals_d100_jump_1() -> None:
    """The engine's legality is the kernel's :func:`~kernel.refusal`, worded: a fighter
    who fell this turn (D100-JUMP-1/2, ruling) is refused every half action
    (``FALLEN``, citing D100-JUMP-1) and offered no move, free actions staying open;
    ``Encounter.act`` refuses it in French and nothing changes; out of turn, D100-ROUND-1."""
    duel = next(s for s in d100.SYSTEM.situation_duels if s.key == "du-haut-du-mur")
    enc = Encounter(d100.SYSTEM, list(duel.combatants))
    enc.start(ScriptedRolls([9, 7, 3, 1]), **duel.start_options)  # Rask first (Ag + d10)
    assert enc.state.current == "Rask"
    enc.state.system_state["terrain"]["Rask"]["chute"] = True  # a drop just failed
    sheet, kst, me = doors.view(Ctx(enc.state, d100.SYSTEM, enc.rules, None), "Rask")
    attack = ("attaque", K.ATTACK, 0, sheet.names.index("Barthe"))
    assert K.refusal(sheet, kst, me, attack) == K.FALLEN
    assert K.REFUSALS[K.FALLEN] == "D100-JUMP-1"
    assert list(K.candidates(sheet, kst, me)) == []
    assert [s.id for s in enc.actions("Rask") if s.id in ("attaquer", "preparer_parade")] == []
    before = enc.state.to_json()
    with pytest.raises(EscarmoucheError, match="a chuté dans ce tour") as err:
        enc.act("Rask", "attaquer", ScriptedRolls([]), cible="Barthe")
    assert err.value.rule == "D100-JUMP-1"
    assert enc.state.to_json() == before
    with pytest.raises(EscarmoucheError, match="pas son tour") as err:
        enc.act("Barthe", "attaquer", ScriptedRolls([]), cible="Rask")
    assert err.value.rule == K.REFUSALS[K.NOT_ITS_TURN]


def test_doors_before_the_start_offer_nothing_d100_round_1() -> None:
    """Before ``start`` there is no turn (D100-ROUND-1): the doors offer no action and
    no move, without a kernel view (the fighters have no hands yet)."""
    enc = readme_duel()
    assert enc.actions("Aldric") == []
    ctx = Ctx(enc.state, d100.SYSTEM, enc.rules, None)
    assert d100.SYSTEM.moves(ctx, "Aldric", (), lambda _n, _k, options: options[0]) == []
    assert d100.SYSTEM.offered(ctx, "Aldric", {"attaquer"}) == set()


@pytest.mark.parametrize("policy", [None, "prudent", "agressif",
                                    {"héros": "prudent", "orques": "par_defaut"}])
@pytest.mark.parametrize("case", cases(), ids=lambda c: c[0])
def test_roster_play_is_the_engines_fight_core_log(case: tuple[str, Any, dict[str, Any]],
                                                   policy: Any) -> None:
    """CORE-LOG / CORE-RNG: ``Roster.play`` plays a covered fight on the rules kernel and
    narrates it from the kernel's log (``kernel_doors.narrated_run``): the same save as
    the engine's ``start`` and ``run`` on the same dice, every event's sentence, rules,
    dice and data included, and the same dice left; under the turn limit too. A fight
    with ground to cross is narrated by the engine itself."""
    label, roster, start = case
    real = kernels.as_roster(roster, start)
    if real is None:
        pytest.skip("un combat avec des effets n’a pas de feuille de combat")
    if isinstance(policy, dict) and not {"héros", "orques"} <= set(real.sides):
        policy = "prudent"
    kinds = kernels.check_played(real, policy, range(12), narrated="terrain" not in start)
    assert kinds["attaque"] and kinds["fin_combat"], label
