"""What the engine saves to speed up simulations (bench/README.md) changes no answer: each cache
of a pure function against the function computed afresh, and the simulation log against
the full engine's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import Combatant, EscarmoucheError
from escarmouche import simulation as sim
from escarmouche.roster import example_rosters, load_roster
from escarmouche.systems.d20 import turn
from escarmouche.systems.d20.rules import CATEGORIES, Rules
from escarmouche.systems.d100 import actions as d100_actions
from escarmouche.systems.d100 import rules as d100_rules
from escarmouche.systems.d100.actions import allowed_defences
from escarmouche.systems.d100.attack import Guard

_DEFENDERS = [
    Combatant("Aldric", "héros", {"CC": 45, "Ag": 40}, skills={"esquive"}),
    Combatant("Grolk", "orques", {"CC": 40, "Ag": 25}),
    Combatant("Sans", "orques", {"Ag": 30}, skills={"esquive"}),  # no CC: a parry refused
]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(_DEFENDERS), st.booleans(), st.booleans(),
       st.integers(0, 3), st.integers(0, 3), st.booleans(), st.booleans(),
       st.integers(1, 3), st.integers(1, 3), st.booleans())
def test_allowed_defences_is_check_defence_d100_parry_2_d100_dodge_2(
        defender: Combatant, prepared: bool, two: bool, parries: int, dodges: int,
        surprised: bool, ranged: bool, per_round: int, dodges_per_round: int,
        can_defend: bool) -> None:
    """D100-PARRY-2/3, D100-DODGE-1/2, D100-RANGED-1, D100-SURPRISE-1: the defences
    automated play offers (cached) are those ``check_defence`` allows, asked twice."""
    g = Guard(prepared, two, parries, dodges, surprised)
    rules = d100_rules.Rules(parries_per_round=per_round, dodges_per_round=dodges_per_round,
                             surprised_can_defend=can_defend)
    expected = d100_actions._allowed_defences(defender, g, ranged, rules)  # afresh
    assert allowed_defences(defender, g, ranged, rules) == expected
    assert allowed_defences(defender, g, ranged, rules) == expected


def test_allowed_defences_follow_a_new_combatant_d100_dodge_1() -> None:
    """D100-DODGE-1: an answer belongs to one combatant, never to another one that
    happens to reuse its place in memory."""
    for skills in ({"esquive"}, set(), {"esquive"}):
        c = Combatant("Aldric", "héros", {"CC": 45, "Ag": 40}, skills=skills)
        assert allowed_defences(c, Guard(), False) == (("esquive",) if skills else ())


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 100), st.integers(0, 100), st.sampled_from(
    ["tête", "tete", "corps", "bras droit", "jambe gauche"]))
def test_stat_and_armour_read_once_are_read_right_d100_atk_3(
        cc: int, pa: int, zone: str) -> None:
    """D100-ATK-3: a stat and a zone's armour read through the per-combatant answers are
    the values computed afresh."""
    c = Combatant("Aldric", "héros", {"CC": cc, "PA_tete": pa, "PA": 1})
    for _ in range(2):
        assert d100_rules.stat(c, "CC") == d100_rules._stat(c, "CC") == cc
        assert d100_rules.armour_at(c, zone) == d100_rules._armour_at(c, zone)
    assert d100_rules.armour_at(c, "tête") == pa


def test_stat_refusal_is_never_kept_d100_atk_3() -> None:
    """D100-ATK-3: a stat out of the d100 bounds is refused at every read."""
    c = Combatant("Aldric", "héros", {"CC": 150})
    for _ in range(2):
        with pytest.raises(EscarmoucheError, match="CC"):
            d100_rules.stat(c, "CC")


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from([*CATEGORIES, "attaquer", "deplacement"]), max_size=8),
       st.integers(0, 2), st.sampled_from([None, Rules(), Rules(max_action_points_per_turn=1)]))
def test_turn_fit_cached_is_the_fit_d20_act_2(actions: list[str], points: int,
                                              rules: Rules | None) -> None:
    """D20-ACT-1..3: a turn plan answered from the cache is the plan computed afresh, and
    a refusal is refused again, with the same message."""
    def fresh() -> object:
        try:
            return turn._fit_checked(actions, points, rules, "")
        except EscarmoucheError as err:
            return str(err)

    def cached() -> object:
        try:
            return turn._fit(actions, points, rules, "")
        except EscarmoucheError as err:
            return str(err)

    assert cached() == fresh()
    assert cached() == fresh()


def test_turn_fit_refuses_a_bool_after_an_int_d20_act_3() -> None:
    """D20-ACT-3: ``True`` action points are refused even after ``1`` was answered
    (equal keys, different types)."""
    turn._fit(["simple"], 1, None, "")
    with pytest.raises(EscarmoucheError):
        turn._fit(["simple"], True, None, "")


@pytest.mark.parametrize("name", sorted(example_rosters()))
def test_simulation_log_is_the_full_log_without_its_texts_core_log(name: str) -> None:
    """CORE-LOG: in simulation mode the texts given as functions are never written, and
    everything else of each event (kind, actor, turn, rules, data, built on demand) is
    what the full engine logs (``Roster.play``, the engine's log byte for byte where a
    rules kernel narrates it); the full engine writes every text."""
    r = load_roster(example_rosters()[name])
    for seed in range(3):
        full = r.encounter()  # the engine's own fight (Roster.play may play on a kernel)
        full_dice = sim.stream(seed, 0, sim.DICE)
        full.start(full_dice, **dict(r.start_options))
        full.run(full_dice, max_turns=20, policy=r.policies,
                 tactics_rng=sim.stream(seed, 0, sim.TACTICS))
        prepared = sim.prepare(r, max_turns=20)
        fast = prepared.template.simulated()
        dice = sim.stream(seed, 0, sim.DICE)
        fast.start(dice, **prepared.start_options)
        fast.run(dice, max_turns=20, policy=prepared.policies,
                 tactics_rng=sim.stream(seed, 0, sim.TACTICS))
        assert all(e.text for e in full.log)
        assert any(not e.text for e in fast.log)
        kept = [(e.turn, e.actor, e.kind, e.rules, dict(e.data))
                for e in full.log if e.kind != "des"]
        assert [(e.turn, e.actor, e.kind, e.rules, dict(e.data)) for e in fast.log] == kept


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(1, 12), min_size=2, max_size=2),
       st.sampled_from(["normal", "avantage", "desavantage"]),
       st.integers(-5, 10), st.integers(1, 25), st.integers(0, 2**32))
def test_d12_attack_rolls_the_dice_of_attack_expression_d12_adv_1(
        dice_shown: list[int], mode: str, bonus: int, defence: int, seed: int) -> None:
    """D12-CRIT-1, D12-ADV-1: the attack draws the dice of ``attack_expression`` through
    ``dice.roll`` (the same draws, in the same order) and decides what they decide."""
    import random

    from escarmouche import dice
    from escarmouche.dice import ScriptedRolls
    from escarmouche.systems.d12.critical import (
        attack_expression,
        resolve_attack_roll,
        roll_attack,
    )

    need = 1 if mode == "normal" else 2
    rng = ScriptedRolls(dice_shown)
    rolled = roll_attack(rng, bonus=bonus, defence=defence, mode=mode)
    assert rolled == resolve_attack_roll(dice_shown[:need], bonus=bonus, defence=defence,
                                         mode=mode)
    assert rng.used == need
    a, b = random.Random(seed), random.Random(seed)
    drawn = dice.roll(attack_expression(mode), b).draws
    assert roll_attack(a, bonus=bonus, defence=defence, mode=mode).dice == tuple(
        v for _, v in drawn)
    assert a.getstate() == b.getstate()


def test_d12_attack_refuses_a_die_out_of_its_faces_d12_crit_1() -> None:
    """D12-CRIT-1: an rng that answers 13 for a d12 is refused, as before."""
    from escarmouche.systems.d12.critical import roll_attack

    class Bent:
        def randint(self, a: int, b: int) -> int:
            return b + 1

    with pytest.raises(EscarmoucheError, match="d12"):
        roll_attack(Bent(), defence=10)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(["1d8+2", "1d6", "2d4-1"]), st.sampled_from([None, "explosif"]),
       st.integers(0, 2**32))
def test_d12_damage_cached_is_the_damage_d12_explode_1(weapon: str, option: str | None,
                                                      seed: int) -> None:
    """D12-CRIT-2, D12-EXPLODE-1: the damage answered from the cache is the damage of the
    same dice computed afresh."""
    import random

    from escarmouche.systems.d12.critical import resolve_damage, roll_damage

    for _ in range(2):
        dmg = roll_damage(weapon, random.Random(seed), option=option)
        assert dmg == resolve_damage(weapon, dmg.dice, option=option)


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 100), st.integers(1, 100), st.integers(1, 10))
def test_d100_attack_without_sentence_then_narrated_d100_atk_4(
        attack_roll: int, defence_roll: int, damage_roll: int) -> None:
    """D100-ATK-4: an attack resolved without its sentence (simulation mode) and given it
    afterwards is the attack resolved with it."""
    from escarmouche.systems.d100.attack import attack_setup, narrated, resolve_attack

    aldric = Combatant("Aldric", "héros", {"CC": 45, "CT": 30, "F": 35, "E": 30, "Ag": 40,
                                           "M": 4, "B": 12})
    grolk = Combatant("Grolk", "orques", {"CC": 40, "CT": 20, "F": 40, "E": 40, "Ag": 25,
                                          "M": 4, "B": 14})
    setup = attack_setup(aldric, grolk, defence="parade", guard=Guard(parry_prepared=True))
    full = resolve_attack(setup, attack_roll, defence_roll, damage_roll)
    bare = resolve_attack(setup, attack_roll, defence_roll, damage_roll, narrate=False)
    assert bare.sentence == "" and full.sentence
    assert narrated(bare) == full


_TURNS = st.tuples(
    st.lists(st.sampled_from([*CATEGORIES, "attaquer", "deplacement"]), max_size=6),
    st.integers(0, 2),
    st.integers(0, 3))
#: equal rule sets that are distinct objects: an answer must not cross from one to another
_D20_RULES = [None, Rules(), Rules(), Rules(max_action_points_per_turn=1)]


def _planned(actions: list[str], points: int, rules: Rules | None) -> object:
    try:
        return turn.plan_turn(actions, action_points=points, rules=rules)
    except EscarmoucheError as err:
        return str(err)


@settings(max_examples=100, deadline=None)
@given(st.lists(_TURNS, min_size=1, max_size=12))
def test_turn_plan_from_the_memo_is_the_plan_made_afresh_d20_act_1(
        turns: list[tuple[list[str], int, int]]) -> None:
    """D20-ACT-1..3: questions asked one after another (the memos fill up, with several
    equal rule sets) are answered as the same questions asked with empty memos."""
    from escarmouche.memo import Memo

    for actions, points, r in turns:
        rules = _D20_RULES[r]
        answer = _planned(actions, points, rules)
        kept = (turn._MATCHED, turn._FITS, turn._PLANS)
        turn._MATCHED, turn._FITS, turn._PLANS = (
            Memo(4096, turn.SOURCE), Memo(4096, turn.SOURCE), Memo(4096, turn.SOURCE))
        try:
            assert answer == _planned(actions, points, rules)
        finally:
            turn._MATCHED, turn._FITS, turn._PLANS = kept


def test_a_new_substitution_table_is_read_afresh_d20_act_2(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """D20-ACT-2 as data: a plan answered from the memos under the text's table is made
    again under a designer's new table (where a minor action takes only its own slot)."""
    from escarmouche.systems import d20

    for _ in range(2):
        assert turn.plan_turn(["mineure", "mineure"]).substitutions
        turn._fit(["mineure", "mineure"], 0, None, "")
    monkeypatch.setattr(d20.rules, "SUBSTITUTES", {
        "simple": ("simple",), "mouvement": ("mouvement", "simple"),
        "mineure": ("mineure",)})
    with pytest.raises(EscarmoucheError, match="D20-ACT-2"):
        turn.plan_turn(["mineure", "mineure"])
    assert turn._fit(["mineure", "mineure"], 0, None, "")[3] == 1


_D100_STEPS = st.lists(st.tuples(st.sampled_from(
    ["attaquer", "viser", "se_deplacer", "charge", "incantation", "parler", "esquive"]),
    st.integers(1, 2)), max_size=3)


@settings(max_examples=150, deadline=None)
@given(_D100_STEPS, st.sampled_from(["attaquer", "charge", "incantation", "viser", "course"]),
       st.integers(1, 3), st.sampled_from([None, ("incantation", 1, 2), ("incantation", 2, 3)]))
def test_d100_plan_from_the_memo_is_check_turn_afresh_d100_act_1(
        steps: list[tuple[str, int]], action: str, n: int,
        ext: tuple[str, int, int] | None) -> None:
    """D100-ACT-1..4: ``plan_with`` (answered once per turn shape, refusals included)
    answers what ``check_turn`` computed afresh answers, asked twice."""
    from escarmouche.state import FighterState
    from escarmouche.systems.d100.actions import Extended, check_turn, plan_with
    from escarmouche.systems.d100.rules import ACTION_DEFS

    in_progress = Extended(*ext) if ext else None
    f = FighterState(Combatant("Aldric", "héros", {"CC": 45}), {}, {}, flags={
        "plan": [[a, k] for a, k in steps],
        "extended_at_start": in_progress.to_json() if in_progress else None})

    def outcome(ask: Callable[[], object]) -> object:
        try:
            return ask()
        except EscarmoucheError as err:
            return str(err)

    fresh = outcome(lambda: check_turn([*steps, (action, n)], in_progress=in_progress))
    for _ in range(2):
        assert outcome(lambda: plan_with(f, ACTION_DEFS[action], n)) == fresh


_EXPRESSIONS = ["1d12", "2d12kh1", "2d12kl1", "1d8+2", "2d4-1", "1d20", "3d6kh2-1d4+3",
                "1d100", "-1d6", "40d6"]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(_EXPRESSIONS), st.integers(0, 2**32))
def test_a_roll_from_the_memo_is_the_roll_built_afresh_core_rng(expr: str, seed: int
                                                               ) -> None:
    """CORE-RNG, CORE-DICE: a roll answered from ``dice.roll``'s memo (same expression,
    same draws) is the roll built with the memo emptied, and the rng moved the same."""
    import random

    from escarmouche.dice import parse, roll, rolling

    expression = parse(expr)
    for given_as in (expr, expression, expr):
        rng = random.Random(seed)
        known = roll(given_as, rng)
        rolling._ROLLS.clear()
        fresh_rng = random.Random(seed)
        assert roll(given_as, fresh_rng) == known
        assert rng.getstate() == fresh_rng.getstate()
        assert str(roll(given_as, random.Random(seed))) == str(known)


def test_clear_caches_forgets_the_rolls_kept_core_dice() -> None:
    """CORE-DICE: ``dice.clear_caches`` (benchmarks, tests) forgets the rolls kept too."""
    import random

    from escarmouche.dice import clear_caches, roll, rolling

    first = roll("1d12", random.Random(3))
    assert roll("1d12", random.Random(3)) is first
    clear_caches()
    assert len(rolling._ROLLS) == 0
    assert roll("1d12", random.Random(3)) is not first


def test_a_roll_keeps_the_values_its_rng_gave_core_rng() -> None:
    """CORE-RNG: an rng of its own that answers ``True`` or ``5.0`` gets back those very
    values, never the equal ``int`` of a roll kept earlier."""
    from escarmouche.dice import ScriptedRolls, roll

    class Odd:
        def __init__(self, value: object) -> None:
            self.value = value

        def randint(self, a: int, b: int) -> int:
            return self.value  # type: ignore[return-value]

    roll("1d12", ScriptedRolls([1]))
    roll("1d12", ScriptedRolls([5]))
    assert type(roll("1d12", Odd(True)).dice[0].draws[0]) is bool
    assert type(roll("1d12", Odd(5.0)).dice[0].draws[0]) is float


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["1d4", "1d8+2", "2d6"]), st.integers(-3, 8), st.integers(5, 20),
       st.sampled_from([{}, {"next_attack_chance": 0}, {"next_weapon": "6d12"},
                        {"mode": "avantage"}]))
def test_best_critical_option_from_the_memo_is_the_best_afresh_d12_crit_2(
        weapon: str, bonus: int, defence: int, model: dict[str, Any]) -> None:
    """D12-CRIT-2: the option answered from the memo is the best of the option values
    computed afresh, asked twice; ``True`` is refused after ``1`` was answered."""
    from escarmouche.systems.d12.odds import best_critical_option, critical_option_values

    fresh = critical_option_values(weapon, bonus=bonus, defence=defence, **model).best
    for _ in range(2):
        assert best_critical_option(weapon, bonus=bonus, defence=defence,
                                    **model) == fresh.option
    best_critical_option(weapon, bonus=1, defence=defence)
    with pytest.raises(EscarmoucheError):
        best_critical_option(weapon, bonus=True, defence=defence)
