"""System d20 (seed 003): every D20-* rule of RULES.md, with dice fixed by ScriptedRolls.

Every expected value below is derived by hand from the rules (the derivation is in the
comment next to it); exact odds are checked against a brute-force enumeration of every
sequence of d20s, and the turn budget against a brute-force search of every way of
putting the actions into the slots the seed text describes.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import Combatant, Effect, EscarmoucheError, Timing
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter
from escarmouche.errors import IllegalActionError, ParameterError, RuleBoundError
from escarmouche.model import Event
from escarmouche.systems import d20
from tests import golden_runner

# -- a roster and a board -----------------------------------------------------------------
#
# Initiative rolls, in roster order (Thorin, Pip, Gob, Grik): 15, 10, 14, 2
#   Thorin 15 + 2 = 17, Pip 10 + 4 = 14, Gob 14 + 1 = 15, Grik 2 + 0 = 2
#   → order Thorin, Gob, Pip, Grik.
# Board: Gob (1, 1) and Grik (1, -1) are adjacent to Thorin (0, 0); Pip is far away.

INIT_ROLLS = [15, 10, 14, 2]
POSITIONS: dict[str, list[int]] = {
    "Thorin": [0, 0], "Pip": [-3, 3], "Gob": [1, 1], "Grik": [1, -1],
}


def roster(**extra: dict[str, int]) -> list[Combatant]:
    stats = {
        "Thorin": {"PV": 20, "init": 2, "attaque": 5, "defense": 16},
        "Pip": {"PV": 12, "init": 4, "attaque": 4, "defense": 14},
        "Gob": {"PV": 5, "init": 1, "attaque": 3, "defense": 12},
        "Grik": {"PV": 6, "init": 0, "attaque": 3, "defense": 12},
    }
    for name, more in extra.items():
        stats[name] = {**stats[name], **more}
    return [
        Combatant("Thorin", "héros", stats["Thorin"], traits={"nain"}),
        Combatant("Pip", "héros", stats["Pip"], traits={"halfelin"}),
        Combatant("Gob", "gobelins", stats["Gob"]),
        Combatant("Grik", "gobelins", stats["Grik"]),
    ]


def started(rules: d20.Rules | None = None, effects: Sequence[Effect] = (),
            **extra: dict[str, int]) -> Encounter:
    enc = Encounter("d20", roster(**extra), rules=rules)
    for e in effects:
        enc.add_effect(e)
    enc.start(ScriptedRolls(INIT_ROLLS), positions=POSITIONS)
    return enc


def to_gob(enc: Encounter) -> Encounter:
    """End Thorin's turn: Gob's turn starts (no effect, no save: no die)."""
    assert enc.current == "Thorin"
    enc.end_activation(ScriptedRolls([]))
    assert enc.current == "Gob"
    return enc


def kinds(events: Sequence[Event]) -> list[str]:
    return [e.kind for e in events]


def last(enc: Encounter, kind: str) -> Event:
    return [e for e in enc.log if e.kind == kind][-1]


def pos(enc: Encounter, name: str) -> list[int]:
    p = enc.fighter(name).flags["pos"]
    assert isinstance(p, list)
    return p


def assert_rejected(enc: Encounter, rule: str, actor: str, action: str,
                    **params: Any) -> None:
    """The action raises a French error citing ``rule``; state and rng are unchanged."""
    before = enc.to_json()
    rng = ScriptedRolls([20] * 10)
    with pytest.raises(EscarmoucheError) as err:
        enc.act(actor, action, rng, **params)
    assert rule in str(err.value)
    assert enc.to_json() == before
    assert rng.used == 0


# -- D20-TIME-1 ----------------------------------------------------------------------------


def test_round_is_six_seconds_d20_time_1() -> None:
    """D20-TIME-1: a round lasts 6 s."""
    assert d20.ROUND_SECONDS == 6
    assert d20.elapsed_seconds(0) == 0
    assert d20.elapsed_seconds(10) == 60
    with pytest.raises(EscarmoucheError, match="D20-TIME-1"):
        d20.elapsed_seconds(-1)


def test_round_is_every_creature_once_d20_time_1() -> None:
    """D20-TIME-1: a round is every creature's turn once, in initiative order."""
    enc = started()
    for _ in range(8):
        enc.end_activation(ScriptedRolls([]))
    for n in (1, 2):
        acts = [e.actor for e in enc.log if e.kind == "activation" and e.turn == n]
        assert acts == ["Thorin", "Gob", "Pip", "Grik"]
        ev = next(e for e in enc.log if e.kind == "round" and e.turn == n)
        assert "D20-TIME-1" in ev.rules
        assert (ev.data["start_s"], ev.data["end_s"]) == (6 * (n - 1), 6 * n)
    assert enc.turn == 3 and enc.current == "Thorin"


# -- D20-INIT-1 ----------------------------------------------------------------------------


def test_initiative_1d20_plus_modifier_d20_init_1() -> None:
    """D20-INIT-1: 1d20 + init, descending (the scripted roster order is derived above)."""
    rng = ScriptedRolls(INIT_ROLLS)
    ini = d20.roll_initiative(roster(), rng)
    assert ini.order == ("Thorin", "Gob", "Pip", "Grik")
    assert [r.total for r in ini.rolls] == [17, 14, 15, 2]
    assert rng.used == 4  # no tie, no roll-off
    assert ini.turn(3) == ["Thorin", "Gob", "Pip", "Grik"]
    assert ini.rules == ("D20-INIT-1",)


def test_initiative_tie_by_modifier_then_roll_off_d20_init_1() -> None:
    """D20-INIT-1: ties by the higher modifier, then by a roll-off, higher first."""
    a = Combatant("A", "x", {"PV": 5, "init": 3})
    b = Combatant("B", "x", {"PV": 5, "init": 0})
    c = Combatant("C", "y", {"PV": 5, "init": 0})
    d = Combatant("D", "y", {"PV": 5, "init": 0})
    # A 12 + 3 = 15, B 15 + 0 = 15: A first by its modifier, no roll-off for them.
    # C 9, D 9 (same modifier): roll-off C 4, D 17 → D before C.
    rng = ScriptedRolls([12, 15, 9, 9, 4, 17])
    ini = d20.roll_initiative([a, b, c, d], rng)
    assert ini.order == ("A", "B", "D", "C")
    assert rng.remaining == 0
    assert ini.roll_of("D").roll_offs == (17,)
    # Three-way tie of B, C, D at 10 (modifier 0): roll-off 5, 5, 2 → D last; B and C
    # roll again 3, 9 → C before B.
    rng = ScriptedRolls([10, 10, 10, 5, 5, 2, 3, 9])
    ini = d20.roll_initiative([b, c, d], rng)
    assert ini.order == ("C", "B", "D")
    assert rng.remaining == 0
    assert [r.roll_offs for r in ini.rolls] == [(5, 3), (5, 9), (2,)]


def test_initiative_roll_off_is_bounded_d20_init_1() -> None:
    """D20-INIT-1: roll-offs stop after Rules.max_roll_off_rounds rounds."""
    a = Combatant("A", "x", {"PV": 5})
    b = Combatant("B", "y", {"PV": 5})
    rules = d20.Rules(max_roll_off_rounds=2)
    with pytest.raises(RuleBoundError, match="D20-INIT-1"):
        d20.roll_initiative([a, b], ScriptedRolls([10, 10, 5, 5, 6, 6]), rules=rules)
    ini = d20.roll_initiative([a, b], ScriptedRolls([10, 10, 5, 5, 1, 6]), rules=rules)
    assert ini.order == ("B", "A")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-3, 3), min_size=1, max_size=7), st.integers(0, 2**32))
def test_initiative_order_is_a_sorted_permutation_d20_init_1(mods: list[int], seed: int
                                                             ) -> None:
    """D20-INIT-1 (property): the order is a permutation of the roster, by total, then
    modifier, then roll-offs, each descending; no two combatants left tied."""
    roster_ = [Combatant(f"C{i}", "x", {"PV": 5, "init": m}) for i, m in enumerate(mods)]
    ini = d20.roll_initiative(roster_, random.Random(seed))
    assert sorted(ini.order) == sorted(c.name for c in roster_)
    keys = [ini.roll_of(n).key() for n in ini.order]
    assert all(k1 > k2 for k1, k2 in itertools.pairwise(keys))
    assert d20.initiative_order(ini.rolls) == ini.order


def test_initiative_in_the_encounter_d20_init_1() -> None:
    """D20-INIT-1: the encounter rolls it at start, says it comes from the original
    edition, and plays every round in that order."""
    enc = started()
    ev = enc.log[0]
    assert ev.kind == "initiative" and ev.rules == ("D20-INIT-1",)
    assert "édition originale" in ev.text
    assert [d.value for d in ev.dice] == INIT_ROLLS
    assert enc.state.order == ["Thorin", "Gob", "Pip", "Grik"]


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


# -- D20-ACT-1..3: check_turn and plan_turn ----------------------------------------------

# The slots each category may take, written from the seed text (D20-ACT-1, D20-ACT-2),
# independently of the module's table.
TEXT_SLOTS: dict[str, set[str]] = {
    "simple": {"simple"},
    "mouvement": {"mouvement", "simple"},
    "mineure": {"mineure", "mouvement", "simple"},
}


def fits_by_brute_force(actions: Sequence[str], points: int) -> bool:
    slots = ["simple", "mouvement", "mineure"] + ["simple"] * points
    need = [a for a in actions if a != "libre"]
    if len(need) > len(slots):
        return False
    return any(
        all(slots[s] in TEXT_SLOTS[a] for a, s in zip(need, perm, strict=True))
        for perm in itertools.permutations(range(len(slots)), len(need))
    )


def test_base_budget_any_order_d20_act_1() -> None:
    """D20-ACT-1: one standard, one move, one minor, in any order, any skipped; free
    actions without limit."""
    for perm in itertools.permutations(["simple", "mouvement", "mineure"]):
        d20.check_turn(list(perm))
    d20.check_turn([])
    d20.check_turn(["simple"])
    d20.check_turn(["libre"] * 40 + ["simple", "mineure"])
    with pytest.raises(EscarmoucheError, match="D20-ACT-1"):
        d20.check_turn(["simple", "simple"])
    with pytest.raises(EscarmoucheError, match="«\u00a0attaque\u00a0»"):  # the old id: no alias
        d20.check_turn(["attaque"])
    with pytest.raises(EscarmoucheError, match="D20-ACT-1"):
        d20.check_turn("simple")
    # named actions map to their category
    d20.check_turn(["attaquer", "deplacement", "degainer", "parler"])


def test_substitutions_d20_act_2() -> None:
    """D20-ACT-2: a move action instead of the standard one; a minor action instead of
    the move or the standard one: at most 1 standard, 2 move, 3 minor."""
    d20.check_turn(["mouvement", "mouvement", "mineure"])
    d20.check_turn(["mineure", "mineure", "mineure"])
    d20.check_turn(["simple", "mineure", "mineure"])
    d20.check_turn(["mouvement", "mineure", "mineure"])
    for bad in (["mouvement"] * 3, ["mineure"] * 4, ["simple", "mouvement", "mouvement"],
                ["mouvement", "mouvement", "mineure", "mineure"]):
        with pytest.raises(IllegalActionError, match="D20-ACT-2"):
            d20.check_turn(bad)
    plan = d20.plan_turn(["mouvement", "mouvement"])
    assert plan.slot_of(0) == "mouvement" and plan.slot_of(1) == "simple"
    assert plan.substitutions == (1,)
    assert plan.rules == ("D20-ACT-1", "D20-ACT-2")
    assert plan.free_slots() == ("mineure",)
    # each action takes a free slot in order of preference (own kind, then the move
    # slot, then the standard one): the 2nd minor action takes the move slot, so the
    # move action takes the standard slot; nothing already placed is moved
    plan = d20.plan_turn(["mineure", "mineure", "mouvement"])
    assert [plan.slot_of(i) for i in range(3)] == ["mineure", "mouvement", "simple"]
    assert plan.substitutions == (1, 2)



def test_substitution_table_is_data_d20_act_2(monkeypatch: pytest.MonkeyPatch) -> None:
    """D20-ACT-2 as data: with a designer's table where a move action prefers the
    standard slot, a later standard action moves it back to the move slot (the check is
    an exact matching, not a greedy one)."""
    monkeypatch.setattr(d20.rules, "SUBSTITUTES", {
        "simple": ("simple",), "mouvement": ("simple", "mouvement"),
        "mineure": ("mineure",)})
    plan = d20.plan_turn(["mouvement", "simple"])
    assert [plan.slot_of(i) for i in range(2)] == ["mouvement", "simple"]
    with pytest.raises(IllegalActionError):
        d20.check_turn(["mineure", "mineure"])


def test_action_point_extra_standard_action_d20_act_3() -> None:
    """D20-ACT-3: an action point buys one more standard action, itself substitutable."""
    with pytest.raises(IllegalActionError):
        d20.check_turn(["simple", "simple"])
    d20.check_turn(["simple", "simple"], action_points=1)
    d20.check_turn(["mouvement"] * 3, action_points=1)  # 2 standard slots, 1 move slot
    d20.check_turn(["mineure"] * 4, action_points=1)
    with pytest.raises(IllegalActionError, match="D20-ACT-3"):
        d20.check_turn(["simple"] * 3, action_points=1)
    d20.check_turn(["simple"] * 3, action_points=2)
    plan = d20.plan_turn(["simple", "simple"], action_points=1)
    assert plan.rules == ("D20-ACT-1", "D20-ACT-3")
    with pytest.raises(EscarmoucheError, match="D20-ACT-3"):
        d20.check_turn([], action_points=-1)
    capped = d20.Rules(max_action_points_per_turn=1)
    d20.check_turn(["simple"] * 2, action_points=1, rules=capped)
    with pytest.raises(EscarmoucheError, match="D20-ACT-3"):
        d20.check_turn(["simple"] * 3, action_points=2, rules=capped)


CATEGORY = st.sampled_from(["simple", "mouvement", "mineure", "libre"])


@settings(max_examples=300, deadline=None)
@given(st.lists(CATEGORY, max_size=7), st.integers(0, 2))
def test_check_turn_agrees_with_brute_force_d20_act_1_2_3(actions: list[str], points: int
                                                          ) -> None:
    """D20-ACT-1..3 (property): a list fits iff some assignment of its actions to
    distinct slots respects the text; the verdict does not depend on the order."""
    expected = fits_by_brute_force(actions, points)
    for order in (actions, list(reversed(actions)), sorted(actions)):
        try:
            d20.check_turn(order, action_points=points)
            ok = True
        except IllegalActionError:
            ok = False
        assert ok == expected
    s, m, n = (actions.count(c) for c in ("simple", "mouvement", "mineure"))
    slots = 1 + points
    assert expected == (s <= slots and s + m <= slots + 1 and s + m + n <= slots + 2)


# -- D20-ACT-*: the budget in the encounter ------------------------------------------------


def test_budget_tracked_action_by_action_d20_act_1() -> None:
    """D20-ACT-1: each action takes its slot as it is played; over budget raises and
    changes nothing."""
    enc = started()
    enc.act("Thorin", "attaquer", ScriptedRolls([1]), cible="Gob")  # 1 + 5 = 6 < 12
    assert last(enc, "attaque").data["hit"] is False
    enc.act("Thorin", "mouvement", description="se relever")
    assert_rejected(enc, "D20-ACT-1", "Thorin", "deplacement", chemin=[[-1, 0]])
    enc.act("Thorin", "degainer")
    assert_rejected(enc, "D20-ACT-2", "Thorin", "ouvrir_porte")
    enc.act("Thorin", "parler", description="« À moi ! »")  # free: no slot
    assert enc.fighter("Thorin").flags["budget"] == {
        "actions": ["simple", "mouvement", "mineure"], "points": 0}
    enc.end_activation(ScriptedRolls([]))
    enc.act("Gob", "mineure")  # a fresh budget for Gob


def test_budget_substitution_in_encounter_d20_act_2() -> None:
    """D20-ACT-2: a second move action takes the standard slot."""
    enc = started()
    enc.act("Thorin", "deplacement", chemin=[[-1, 0]])
    enc.act("Thorin", "deplacement", chemin=[[-2, 0]])
    ev = last(enc, "deplacement")  # one event for the move and its cost
    assert ev.data["slot"] == "simple" and "D20-ACT-2" in ev.rules
    assert "à la place d’une action simple" in ev.text
    assert pos(enc, "Thorin") == [-2, 0]
    assert_rejected(enc, "D20-ACT-2", "Thorin", "attaquer", portee="distance", cible="Gob")
    enc.act("Thorin", "mineure")


def test_action_point_in_encounter_d20_act_3() -> None:
    """D20-ACT-3: spending an action point (stat PA) gives one more standard action."""
    enc = started(Thorin={"PA": 1})
    enc.act("Thorin", "attaquer", ScriptedRolls([1]), cible="Gob")
    assert_rejected(enc, "D20-ACT-1", "Thorin", "attaquer", cible="Gob")
    enc.act("Thorin", "point_action")
    assert last(enc, "point_action").rules == ("D20-ACT-3",)
    enc.act("Thorin", "attaquer", ScriptedRolls([1]), cible="Gob")
    attack = last(enc, "attaque")  # one event for the attack and its cost
    assert "D20-ACT-3" in attack.rules and "grâce au point d’action" in attack.text
    assert not [e for e in enc.log if e.kind == "action" and e.data["action"] == "attaquer"]
    assert enc.fighter("Thorin").flags["pa"] == 0
    assert_rejected(enc, "D20-ACT-3", "Thorin", "point_action")


def test_actions_hook_lists_what_fits_d20_act_1() -> None:
    """D20-ACT-1: the action list offered follows the budget and whose turn it is."""
    enc = started()
    ids = {a.id for a in enc.actions("Thorin")}
    assert {"attaquer", "deplacement", "degainer", "parler"} <= ids
    assert "interruption" not in ids  # never on one's own turn (D20-IMM-1)
    enc.act("Thorin", "attaquer", ScriptedRolls([1]), cible="Gob")
    ids = {a.id for a in enc.actions("Thorin")}
    assert "attaquer" not in ids and "deplacement" in ids
    other = {a.id for a in enc.actions("Pip")}
    assert "attaquer" not in other and {"parler", "interruption", "reaction"} <= other


def test_out_of_turn_and_unknown_actions_d20_act_1() -> None:
    """D20-ACT-1: turn actions only on one's own turn; unknown actions and parameters
    are rejected in French; free actions are allowed during another's turn."""
    enc = started()
    assert_rejected(enc, "D20-ACT-1", "Gob", "attaquer", cible="Thorin")
    assert_rejected(enc, "CORE-ERR", "Thorin", "voler")  # the shared catalogue lookup
    assert_rejected(enc, "CORE-ERR", "Thorin", "attaque")  # the old id, no alias
    assert_rejected(enc, "D20-ACT-1", "Thorin", "deplacement", path=[[-1, 0]])
    assert_rejected(enc, "D20-ACT-1", "Thorin", "deplacement", chemin=[[-1, 0]] * 7)
    assert_rejected(enc, "D20-OPP-2", "Thorin", "deplacement", chemin=[[2, 0]])
    assert_rejected(enc, "D20-ACT-1", "Thorin", "deplacement", chemin=[[1, 1]])  # enemy
    enc.act("Gob", "parler", description="« Grrr ! »")
    assert "pendant le tour d’un autre combattant" in last(enc, "action").text


def test_melee_needs_adjacency_d20_opp_2() -> None:
    """D20-OPP-2 (adjacency): a melee attack needs a target on one of the 8 neighbouring
    squares; a ranged attack does not."""
    enc = started()
    assert_rejected(enc, "D20-OPP-2", "Thorin", "attaquer", cible="Pip")
    enc2 = started()
    assert_rejected(enc2, "CORE-ERR", "Thorin", "attaquer", cible="Thorin")


# -- D20-END-1 -----------------------------------------------------------------------------


def test_saving_throw_ten_or_more_d20_end_1() -> None:
    """D20-END-1: 1d20 + bonus, success on 10 or more."""
    assert d20.saving_throw(10) is True
    assert d20.saving_throw(9) is False
    assert d20.saving_throw(5, 5) is True
    assert d20.saving_throw(20, -11) is False
    res = d20.resolve_save(7, 2)
    assert (res.total, res.target, res.success, res.rules) == (9, 10, False, ("D20-END-1",))
    for bad in (0, 21, True):
        with pytest.raises(EscarmoucheError, match="D20-END-1"):
            d20.saving_throw(bad)
    assert d20.roll_save(ScriptedRolls([12]), -3).success is False  # 12 − 3 = 9


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
    enc = started(effects=effects)
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
    enc = started(effects=[fear])
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
    assert d20.save_odds(0).success == Fraction(11, 20)  # faces 10..20
    assert d20.save_odds(5).success == Fraction(16, 20)  # faces 5..20
    assert d20.save_odds(9).success == 1  # faces 1..20
    assert d20.save_odds(-10).success == Fraction(1, 20)  # face 20 only
    assert d20.save_odds(-11).success == 0
    odds = d20.save_odds(2)
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
    assert d20.lasts_exactly(1) == Fraction(11, 20)
    assert d20.lasts_exactly(3) == Fraction(9, 20) ** 2 * Fraction(11, 20)
    odds = d20.duration_odds(0, max_turns=4)
    assert odds.exactly[2] == Fraction(9 * 11, 400)
    assert odds.beyond == Fraction(9, 20) ** 4
    assert odds.mean == Fraction(20, 11)
    assert sum(odds.exactly.values()) + odds.beyond == 1
    labels = [label for label, _ in odds.bars()]
    assert labels == ["1 tour", "2 tours", "3 tours", "4 tours", "plus de 4 tours"]
    never = d20.duration_odds(-11, max_turns=3)
    assert never.beyond == 1 and never.mean is None
    assert d20.duration_odds(9).exactly[1] == 1


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


# -- D20-OPP-2: the three cases, the grid ------------------------------------------------


def test_opportunity_attack_three_cases_d20_opp_2() -> None:
    """D20-OPP-2: exactly three cases, and only by an adjacent enemy."""
    for trigger in ("quitte_case_adjacente", "attaque_distance", "attaque_zone"):
        assert d20.opportunity_attack_allowed(trigger, True) is True
        assert d20.opportunity_attack_allowed(trigger, False) is False
    for other in ("attaque_corps_a_corps", "se_relever", "", "Attaque_distance"):
        assert d20.opportunity_attack_allowed(other, True) is False
    with pytest.raises(EscarmoucheError, match="D20-OPP-2"):
        d20.opportunity_attack_allowed("attaque_zone", 1)  # type: ignore[arg-type]


@given(st.text(max_size=25), st.booleans())
def test_opportunity_allowed_only_in_the_list_d20_opp_2(trigger: str, adjacent: bool) -> None:
    """D20-OPP-2 (property): anything outside the three cases never allows one."""
    expected = adjacent and trigger in {
        "quitte_case_adjacente", "attaque_distance", "attaque_zone"}
    assert d20.opportunity_attack_allowed(trigger, adjacent) is expected


def test_adjacency_is_the_eight_neighbours_d20_opp_2() -> None:
    """D20-OPP-2: adjacent = the 8 neighbouring squares of the grid."""
    around = [(x, y) for x in range(-3, 4) for y in range(-3, 4)
              if d20.is_adjacent((0, 0), (x, y))]
    assert sorted(around) == sorted(
        (dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0))
    assert not d20.is_adjacent([4, 4], [4, 4])
    with pytest.raises(EscarmoucheError, match="D20-OPP-2"):
        d20.is_adjacent([0], [1, 1])


@given(st.tuples(st.integers(-50, 50), st.integers(-50, 50)),
       st.tuples(st.integers(-50, 50), st.integers(-50, 50)))
def test_adjacency_symmetric_d20_opp_2(a: tuple[int, int], b: tuple[int, int]) -> None:
    """D20-OPP-2 (property): adjacency is symmetric and never reflexive."""
    assert d20.is_adjacent(a, b) == d20.is_adjacent(b, a)
    assert not d20.is_adjacent(a, a)


# -- D20-OPP-1 / D20-IMM-2: interrupts that cancel a move (the required test) -------------


def test_opportunity_attack_kills_mover_move_cancelled_d20_opp_1() -> None:
    """D20-OPP-1: Gob leaves (1, 1), adjacent to Thorin; Thorin's opportunity attack
    resolves first: 15 + 5 = 20 ≥ 12, 1d6 = 5 ≥ Gob's 5 PV. The move is cancelled: Gob
    is at its start square, dead."""
    enc = to_gob(started())
    rng = ScriptedRolls([15, 5])
    events = enc.act("Gob", "deplacement", rng, chemin=[[2, 1], [3, 1]],
                     reactions=[{"par": "Thorin", "type": "attaque_opportunite"}])
    assert rng.remaining == 0
    gob = enc.fighter("Gob")
    assert gob.out and gob.tracks["PV"] == 0
    assert pos(enc, "Gob") == [1, 1]
    assert kinds(events) == ["action", "attaque_opportunite", "attaque", "hors_combat",
                             "action_annulee"]
    cancel = last(enc, "action_annulee")
    assert cancel.rules == ("D20-OPP-1",) and cancel.data["to"] == [1, 1]
    assert not any(e.kind == "deplacement" for e in enc.log)
    assert "D20-OPP-2" in last(enc, "attaque").rules


def test_interrupt_kills_mover_move_cancelled_d20_imm_2() -> None:
    """D20-IMM-2: Pip's immediate interruption resolves before Gob's move: 10 + 4 = 14 ≥
    12, 2d6 = 3 + 4 = 7 ≥ 5 PV. The move is cancelled: Gob stays at (1, 1), dead; the
    move action stays spent (Rules.cancelled_action_spent)."""
    enc = to_gob(started())
    rng = ScriptedRolls([10, 3, 4])
    enc.act("Gob", "deplacement", rng, chemin=[[2, 2]],
            reactions=[{"par": "Pip", "type": "interruption", "arme": "2d6",
                        "nom": "Fronde éclair"}])
    assert rng.remaining == 0
    assert enc.fighter("Gob").out
    assert pos(enc, "Gob") == [1, 1]
    cancel = last(enc, "action_annulee")
    assert cancel.rules == ("D20-IMM-2",)
    assert enc.fighter("Gob").flags["budget"]["actions"] == ["mouvement"]
    interrupt = last(enc, "interruption")
    assert interrupt.seq < cancel.seq and "Fronde éclair" in interrupt.text
    assert enc.fighter("Pip").flags["immediate"] is True


def test_opportunity_attack_on_the_square_left_mid_path_d20_opp_1() -> None:
    """D20-OPP-1: the attack comes when the mover leaves a square adjacent to the
    attacker; cancelled there, the mover stays on that square.

    Gob (3, 0) → (2, 1) → (1, 1) → (0, 2): (1, 1) is the first square adjacent to
    Thorin (0, 0) that it leaves. Thorin: 18 + 5 = 23 ≥ 12, 1d6 = 6 ≥ 5 PV.
    """
    enc = Encounter("d20", roster())
    enc.start(ScriptedRolls(INIT_ROLLS),
              positions={"Thorin": [0, 0], "Gob": [3, 0], "Pip": [-5, 5], "Grik": [5, 5]})
    to_gob(enc)
    enc.act("Gob", "deplacement", ScriptedRolls([18, 6]), chemin=[[2, 1], [1, 1], [0, 2]],
            reactions=[{"par": "Thorin", "type": "attaque_opportunite"}])
    assert enc.fighter("Gob").out
    assert pos(enc, "Gob") == [1, 1]
    # the same move, missed: Gob completes it
    enc = Encounter("d20", roster())
    enc.start(ScriptedRolls(INIT_ROLLS),
              positions={"Thorin": [0, 0], "Gob": [3, 0], "Pip": [-5, 5], "Grik": [5, 5]})
    to_gob(enc)
    enc.act("Gob", "deplacement", ScriptedRolls([2]), chemin=[[2, 1], [1, 1], [0, 2]],
            reactions=[{"par": "Thorin", "type": "attaque_opportunite"}])
    assert pos(enc, "Gob") == [0, 2]
    assert last(enc, "deplacement").data["cancelled"] is False


def test_opportunity_attack_requires_one_of_the_cases_d20_opp_2() -> None:
    """D20-OPP-2: no square left adjacent to the attacker, an ally, or a melee attack:
    no opportunity attack (rejected before any die)."""
    enc = to_gob(started())
    # Pip (-3, 3) is not adjacent to any square Gob leaves
    assert_rejected(enc, "D20-OPP-2", "Gob", "deplacement", chemin=[[2, 2]],
                    reactions=[{"par": "Pip", "type": "attaque_opportunite"}])
    # Grik is Gob's ally
    assert_rejected(enc, "D20-OPP-2", "Gob", "deplacement", chemin=[[2, 2]],
                    reactions=[{"par": "Grik", "type": "attaque_opportunite"}])
    # a melee attack by an adjacent enemy is not one of the three cases
    assert_rejected(enc, "D20-OPP-2", "Gob", "attaquer", cible="Thorin",
                    reactions=[{"par": "Thorin", "type": "attaque_opportunite"}])
    # a ranged attack by an enemy that is not adjacent to the would-be attacker
    assert_rejected(enc, "D20-OPP-2", "Gob", "attaquer", cible="Thorin", portee="distance",
                    reactions=[{"par": "Pip", "type": "attaque_opportunite"}])
    # an opportunity attack is no standalone action
    assert_rejected(enc, "D20-OPP-1", "Thorin", "attaque_opportunite")


def test_opportunity_attack_on_ranged_and_area_attacks_d20_opp_2() -> None:
    """D20-OPP-2: an adjacent enemy making a ranged or an area attack provokes one; it
    resolves before the attack. Thorin 2 + 5 = 7 < 12 (miss); Gob 10 + 3 = 13 < 14
    against Pip (miss)."""
    enc = to_gob(started())
    events = enc.act("Gob", "attaquer", ScriptedRolls([2, 10]), cible="Pip",
                     portee="distance",
                     reactions=[{"par": "Thorin", "type": "attaque_opportunite"}])
    attacks = [e for e in events if e.kind == "attaque"]
    assert [(a.actor, a.data["roll"]) for a in attacks] == [("Thorin", 2), ("Gob", 10)]
    enc = to_gob(started())
    # area: Thorin misses (3 + 5 = 8); Gob rolls against Pip (4 + 3 = 7 < 14) and
    # Thorin (19 + 3 = 22 ≥ 16, 1d6 = 2)
    enc.act("Gob", "attaquer", ScriptedRolls([3, 4, 19, 2]), cibles=["Pip", "Thorin"],
            portee="zone", reactions=[{"par": "Thorin", "type": "attaque_opportunite"}])
    assert enc.fighter("Thorin").tracks["PV"] == 18


def test_opportunity_once_per_other_combatant_turn_d20_opp_1() -> None:
    """D20-OPP-1: one opportunity action per other combatant's turn; it comes back at
    the start of the next combatant's turn."""
    enc = to_gob(started())
    assert d20.can_react(enc.state, "Thorin", "attaque_opportunite")
    assert not d20.can_react(enc.state, "Gob", "attaque_opportunite")  # its own turn
    enc.act("Gob", "deplacement", ScriptedRolls([2]), chemin=[[1, 0]],
            reactions=[{"par": "Thorin", "type": "attaque_opportunite"}])  # 7 < 12
    assert pos(enc, "Gob") == [1, 0]
    assert not d20.can_react(enc.state, "Thorin", "attaque_opportunite")
    assert d20.can_react(enc.state, "Thorin", "interruption")  # another allowance
    # Gob's second move (in its standard slot) leaves (1, 0), adjacent to Thorin again
    assert_rejected(enc, "D20-OPP-1", "Gob", "deplacement", chemin=[[2, 0]],
                    reactions=[{"par": "Thorin", "type": "attaque_opportunite"}])
    enc.act("Gob", "deplacement", chemin=[[2, 0]])
    enc.end_activation(ScriptedRolls([]))  # Pip
    enc.end_activation(ScriptedRolls([]))  # Grik
    assert enc.current == "Grik"
    assert d20.can_react(enc.state, "Thorin", "attaque_opportunite")
    enc.act("Grik", "deplacement", ScriptedRolls([2]), chemin=[[1, -2]],
            reactions=[{"par": "Thorin", "type": "attaque_opportunite"}])
    assert last(enc, "attaque").actor == "Thorin"
    # twice in one declaration is refused too
    enc2 = to_gob(started())
    assert_rejected(enc2, "D20-OPP-1", "Gob", "deplacement", chemin=[[2, 1], [3, 1]],
                    reactions=[{"par": "Thorin", "type": "attaque_opportunite"},
                               {"par": "Thorin", "type": "attaque_opportunite"}])


def test_moot_reactions_use_no_allowance_d20_opp_1() -> None:
    """D20-OPP-1: after the mover is dead, the other declared opportunity attacks do not
    happen and use no allowance. Thorin kills Gob (15 + 5, 1d6 = 6)."""
    enc = Encounter("d20", roster())
    enc.start(ScriptedRolls(INIT_ROLLS),
              positions={"Thorin": [0, 0], "Gob": [1, 1], "Pip": [2, 2], "Grik": [5, 5]})
    to_gob(enc)
    enc.act("Gob", "deplacement", ScriptedRolls([15, 6]), chemin=[[1, 2]],
            reactions=[{"par": "Thorin", "type": "attaque_opportunite"},
                       {"par": "Pip", "type": "attaque_opportunite"}])
    moot = last(enc, "reaction_sans_objet")
    assert moot.actor == "Pip"
    assert enc.fighter("Pip").flags["opportunite"] is None


# -- D20-IMM-1 / D20-IMM-2 ----------------------------------------------------------------


def test_immediate_never_on_own_turn_d20_imm_1() -> None:
    """D20-IMM-1: no immediate action during one's own turn."""
    enc = started()
    assert_rejected(enc, "D20-IMM-1", "Thorin", "interruption", declencheur="un bruit")
    assert_rejected(enc, "D20-IMM-1", "Thorin", "deplacement", chemin=[[-1, 0]],
                    reactions=[{"par": "Thorin", "type": "reaction", "effet": "autre"}])


def test_one_immediate_per_round_reset_on_own_turn_d20_imm_1() -> None:
    """D20-IMM-1: one immediate action per round; it comes back at the start of one's own
    turn (the original edition's ruling)."""
    enc = to_gob(started())
    enc.act("Pip", "interruption", declencheur="Gob bande son arc", nom="Deuxième chance")
    assert last(enc, "interruption").rules == ("D20-IMM-1", "D20-IMM-2")
    assert_rejected(enc, "D20-IMM-1", "Pip", "reaction", declencheur="encore")
    enc.end_activation(ScriptedRolls([]))  # Pip's turn starts: the allowance is back
    assert enc.current == "Pip" and enc.fighter("Pip").flags["immediate"] is False
    enc.end_activation(ScriptedRolls([]))  # Grik
    enc.act("Pip", "reaction", declencheur="Grik s’enfuit")
    assert_rejected(enc, "D20-IMM-1", "Pip", "reaction", declencheur="encore")


def test_immediate_reset_each_round_option_d20_imm_1() -> None:
    """D20-IMM-1, alternative ruling: the allowance comes back at each round's start."""
    enc = to_gob(started(d20.Rules(immediate_reset="debut_du_round")))
    enc.act("Pip", "interruption", declencheur="Gob bande son arc")
    enc.end_activation(ScriptedRolls([]))  # Pip's turn: not back under this option
    enc.end_activation(ScriptedRolls([]))  # Grik
    assert_rejected(enc, "D20-IMM-1", "Pip", "reaction", declencheur="Grik s’enfuit")
    enc.end_activation(ScriptedRolls([]))  # round 2, Thorin
    enc.act("Pip", "reaction", declencheur="Thorin crie")
    with pytest.raises(EscarmoucheError, match="D20-IMM-1"):
        d20.Rules(immediate_reset="jamais")


def test_interruption_before_and_reaction_after_d20_imm_2() -> None:
    """D20-IMM-2: an interruption resolves before its trigger (and cancels it when it
    kills the attacker); a reaction resolves after the trigger has fully resolved."""
    # Interruption: Pip 15 + 4 = 19 ≥ 12, 1d8 = 5 ≥ 5 PV: Gob's ranged attack is cancelled
    enc = to_gob(started())
    events = enc.act("Gob", "attaquer", ScriptedRolls([15, 5]), cible="Pip",
                     portee="distance",
                     reactions=[{"par": "Pip", "type": "interruption", "arme": "1d8"}])
    assert enc.fighter("Gob").out
    assert [e.actor for e in events if e.kind == "attaque"] == ["Pip"]
    assert last(enc, "action_annulee").rules == ("D20-IMM-2",)
    # Reaction: Gob 10 + 3 = 13 < 14 (miss), then Pip 1 + 4 = 5 < 12 (miss)
    enc = to_gob(started())
    events = enc.act("Gob", "attaquer", ScriptedRolls([10, 1]), cible="Pip",
                     portee="distance",
                     reactions=[{"par": "Pip", "type": "reaction", "nom": "Riposte"}])
    seq = [(e.kind, e.actor) for e in events if e.kind in ("attaque", "reaction")]
    assert seq == [("attaque", "Gob"), ("reaction", "Pip"), ("attaque", "Pip")]
    # a reaction cannot cancel its trigger
    enc = to_gob(started())
    assert_rejected(enc, "D20-IMM-2", "Gob", "deplacement", chemin=[[2, 2]],
                    reactions=[{"par": "Pip", "type": "reaction", "effet": "arret"}])


def test_reaction_after_a_trigger_that_knocks_out_its_author_d20_imm_2() -> None:
    """D20-IMM-2: the trigger resolves fully first; when it knocks out the one who
    declared a reaction, the reaction does not happen and uses no allowance.
    Gob 20 + 3 = 23 ≥ 14, 2d6 = 6 + 6 = 12 = Pip's 12 PV."""
    enc = to_gob(started())
    rng = ScriptedRolls([20, 6, 6])
    enc.act("Gob", "attaquer", rng, cible="Pip", portee="distance", arme="2d6",
            reactions=[{"par": "Pip", "type": "reaction", "nom": "Riposte"}])
    assert rng.remaining == 0
    assert enc.fighter("Pip").out
    moot = last(enc, "reaction_sans_objet")
    assert moot.actor == "Pip" and "hors de combat" in moot.text
    assert moot.seq > last(enc, "hors_combat").seq
    assert enc.fighter("Pip").flags["immediate"] is False


def test_interruption_that_stops_a_move_d20_imm_2() -> None:
    """D20-IMM-2: an interruption that invalidates the move (« arret ») cancels it: Gob
    stays on its square, alive. The move action stays spent by default, and is given
    back with Rules(cancelled_action_spent=False)."""
    decl = [{"par": "Pip", "type": "interruption", "effet": "arret", "nom": "Entrave"}]
    enc = to_gob(started())
    enc.act("Gob", "deplacement", chemin=[[2, 2]], reactions=decl)
    assert pos(enc, "Gob") == [1, 1] and not enc.fighter("Gob").out
    assert enc.fighter("Gob").flags["budget"]["actions"] == ["mouvement"]
    enc = to_gob(started(d20.Rules(cancelled_action_spent=False)))
    enc.act("Gob", "deplacement", chemin=[[2, 2]], reactions=decl)
    assert enc.fighter("Gob").flags["budget"]["actions"] == []
    assert "rendue" in last(enc, "action_annulee").text


# -- CORE-ERR, CORE-LOG, CORE-RNG through the encounter --------------------------------------


def test_bad_roster_and_options() -> None:
    with pytest.raises(EscarmoucheError, match="PV"):
        Encounter("d20", [Combatant("A", "x", {"init": 1})])
    with pytest.raises(EscarmoucheError, match="VD"):
        Encounter("d20", [Combatant("A", "x", {"PV": 5, "VD": 500})])
    enc = Encounter("d20", roster())
    with pytest.raises(EscarmoucheError, match="option"):
        enc.start(ScriptedRolls(INIT_ROLLS), placements={})
    with pytest.raises(EscarmoucheError, match="occupée"):
        enc.start(ScriptedRolls(INIT_ROLLS), positions={"Thorin": [0, 0], "Pip": [0, 0]})
    assert not enc.state.started
    with pytest.raises(EscarmoucheError, match="save_target"):
        d20.Rules(save_target=0)


def test_rejected_declaration_leaves_state_unchanged() -> None:
    """CORE-ERR: a bad reaction anywhere in the declaration rejects the whole action."""
    enc = to_gob(started())
    assert_rejected(enc, "D20-IMM-2", "Gob", "deplacement", chemin=[[2, 2]],
                    reactions=[{"par": "Thorin", "type": "attaque_opportunite"},
                               {"par": "Pip", "type": "contre"}])
    assert_rejected(enc, "D20-OPP-1", "Gob", "deplacement", chemin=[[2, 2]],
                    reactions=[{"by": "Thorin", "type": "attaque_opportunite"}])
    assert_rejected(enc, "CORE-DICE", "Gob", "attaquer", cible="Thorin", arme="3d")


def test_gm_places_a_fighter() -> None:
    enc = started()
    enc.act("Pip", "placer", case=[2, 2])
    assert pos(enc, "Pip") == [2, 2]
    assert_rejected(enc, "D20-OPP-2", "Pip", "placer", case=[1, 1])


def test_json_round_trip_mid_fight() -> None:
    """CORE-LOG: a d20 fight (flags, budgets, allowances) survives a JSON round trip."""
    effect = Effect("", "Venin", Timing.ACTIVATION_START, bearer="Gob", save_ends=True,
                    kind="degats_continus", per_tick={"PV": -1},
                    keywords=frozenset({"poison"}))
    enc = to_gob(started(d20.Rules(immediate_reset="debut_du_round"), effects=[effect]))
    enc.act("Gob", "deplacement", ScriptedRolls([2]), chemin=[[1, 0]],
            reactions=[{"par": "Thorin", "type": "attaque_opportunite"}])
    text = enc.to_json()
    again = Encounter.from_json(text)
    assert again.to_json() == text
    assert again.rules == enc.rules
    a, b = random.Random(4), random.Random(4)
    enc.run(a, max_turns=30)
    again.run(b, max_turns=30)
    assert enc.to_json() == again.to_json()


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32))
def test_automated_fight_invariants(seed: int) -> None:
    """CORE-RNG, D20-TIME-1, D20-OPP-2 (property): an automated fight is reproducible,
    every round is everyone's turn at most once in initiative order, no two standing
    fighters share a square, and PV stay in range."""
    def fight() -> Encounter:
        enc = Encounter("d20", roster(Gob={"VD": 3}))
        enc.run(random.Random(seed), max_turns=25)
        return enc

    enc = fight()
    assert json.dumps([e.to_json() for e in enc.log]) == json.dumps(
        [e.to_json() for e in fight().log])
    assert enc.finished
    order = enc.state.order
    for n in range(1, enc.turn + 1):
        acts = [e.actor for e in enc.log if e.kind == "activation" and e.turn == n]
        assert acts == [a for a in order if a in acts]
    standing = [f for f in enc.state.fighters.values() if f.standing]
    squares = [tuple(f.flags["pos"]) for f in standing]
    assert len(set(squares)) == len(squares)
    for f in enc.state.fighters.values():
        assert 0 <= f.tracks["PV"] <= f.maxima["PV"]


# -- the golden round (tests/golden/d20.json, played by tests/golden_runner.py) -----------


def test_golden_round_outcomes_by_hand() -> None:
    """D20-START-1, D20-ACT-1..3, D20-END-1/2, D20-OPP-1/2, D20-IMM-1/2 in one round of
    the golden file (its log is checked by tests/test_golden.py); here, the hand-derived
    outcomes. Dice: initiative 15, 10, 14, 2 (Thorin 17, Pip 14, Gob 15, Grik 2); Thorin
    → Gob 14 + 5 ≥ 12 for 3, then 3 + 5 < 12 (action point); Thorin's save against
    Venin 4 + 5 < 10; Gob leaves (1, 1): Thorin's opportunity attack 10 + 5 for 2; Gob
    shoots Pip 16 + 3 ≥ 14 for 4; Pip's reaction 5 + 4 < 12; Pip's save against Effroi
    (peur, halfling) 5 + 5 = 10; Grik leaves (1, −1): Thorin's opportunity attack 20 + 5
    for 6 ≥ 6 PV; round 2, Thorin's save 15 + 5."""
    fight = golden_runner.load("d20")["fights"][0]
    enc, rng = golden_runner.play(d20.SYSTEM, fight)
    assert rng.remaining == 0
    pv = {n: f.tracks["PV"] for n, f in enc.state.fighters.items()}
    # Thorin 20 − 2 − 2; Pip 12 − 4; Gob 8 − 3 + 1 − 2 + 1 (round 2); Grik 6 − 6
    assert pv == {"Thorin": 16, "Pip": 8, "Gob": 5, "Grik": 0}
    assert pos(enc, "Gob") == [2, 2] and pos(enc, "Grik") == [1, -1]
    assert [e.name for e in enc.state.effects] == ["Régénération"]
    assert enc.turn == 2 and enc.current == "Gob"
    rules = {r for e in enc.log for r in e.rules}
    assert {f"D20-{x}" for x in ("TIME-1", "INIT-1", "START-1", "ACT-1", "ACT-3", "END-1",
                                 "END-2", "OPP-1", "OPP-2", "IMM-1", "IMM-2")} <= rules


# -- the package: names, catalogue, displays, error kinds ------------------------------------


def test_first_to_act_odds_match_enumeration_d20_init_1() -> None:
    """D20-INIT-1: the exact chance to act first (1d20 + init, ties to the higher init,
    then a fair roll-off) against every pair of d20s enumerated."""
    a = Combatant("A", "x", {"PV": 5, "init": 2})
    b = Combatant("B", "y", {"PV": 5, "init": 0})
    c = Combatant("C", "y", {"PV": 5})  # init 0 when absent
    odds = d20.first_to_act_odds([a, b, c])
    assert sum(odds.values()) == 1
    wins = dict.fromkeys("ABC", Fraction(0))
    for rolls in itertools.product(range(1, 21), repeat=3):
        totals = {"A": rolls[0] + 2, "B": rolls[1], "C": rolls[2]}
        best = max(totals.values())
        top = [n for n, t in totals.items() if t == best]
        if "A" in top:
            wins["A"] += 1  # the higher modifier wins the tie
        else:
            for n in top:
                wins[n] += Fraction(1, len(top))  # a fair roll-off
    assert odds == {n: w / 20**3 for n, w in wins.items()}
    assert d20.initiative is d20.roll_initiative  # the name before the naming rule


def test_initiative_explains_its_ties_d20_init_1() -> None:
    """D20-INIT-1: the French explanation names each tie-break that applied."""
    a = Combatant("A", "x", {"PV": 5, "init": 3})
    b = Combatant("B", "x", {"PV": 5, "init": 0})
    c = Combatant("C", "y", {"PV": 5, "init": 0})
    ini = d20.roll_initiative([a, b, c], ScriptedRolls([12, 15, 15, 4, 17]))
    lines = ini.explain()
    assert lines[0] == "A : 1d20 = 12 + 3 = 15 (D20-INIT-1)."
    assert "Égalité à 15 départagée par le modificateur : A (+3), B (+0), C (+0) " \
           "(D20-INIT-1)." in lines
    assert ("Égalité à 15 (modificateur +0), départagée au d20, le plus haut d’abord (B "
            "fait 4 ; C fait 17), d’où l’ordre C, B (D20-INIT-1).") in lines
    assert lines[-1] == "Ordre : A, C, B, le même à chaque round (D20-TIME-1)."


def test_results_and_odds_display_in_french() -> None:
    """The book shows results and odds directly: French tables and sentences, no repr."""
    shown = {
        "plan": d20.plan_turn(["simple", "simple"], action_points=1)._repr_html_(),
        "save": d20.resolve_save(6, 5)._repr_html_(),
        "save_odds": d20.save_odds(5)._repr_html_(),
        "duration": d20.duration_odds(5, max_turns=3)._repr_html_(),
        "initiative": d20.roll_initiative(roster(), ScriptedRolls(INIT_ROLLS))._repr_html_(),
        "rules": d20.Rules()._repr_html_(),
    }
    for name, html in shown.items():
        assert not any(w in html for w in ("TurnPlan(", "SaveOdds(", "Fraction(", "Rules(")), name
    assert "action simple (point d’action)" in shown["plan"]
    assert "1d20 = 6 + 5 = 11 (10 requis), réussi" in shown["save"]
    assert "80,0" in shown["save_odds"] and "1,25 tour" in shown["duration"]
    assert "Thorin, Gob, Pip et Grik" in shown["initiative"]
    assert "aucun plafond" in shown["rules"]


def test_every_option_and_option_value_has_a_french_label() -> None:
    import dataclasses

    names = [f.name for f in dataclasses.fields(d20.Rules)]
    assert [o.name for o in d20.SYSTEM.options()] == names
    assert all(o.label and o.rules for o in d20.SYSTEM.options())
    assert set(d20.SYSTEM.option("immediate_reset").choices or {}) == set(d20.IMMEDIATE_RESETS)
    assert set(d20.SYSTEM.option("cancelled_action_spent").labels) == {True, False}
    assert d20.SYSTEM.option("points_action_max_par_tour").value_label(None) == "aucun plafond"


def test_catalogue_every_action_documented_and_resolved() -> None:
    """D20-ACT-1: one ActionSpec per action, each with a French doc and a resolver; the
    attack is « attaquer » (no alias for the old id)."""
    for action_id, spec in d20.ACTIONS.items():
        assert spec.id == action_id and spec.doc and spec.label
        assert spec.resolver_key in d20.RESOLVERS
        assert action_id in d20.ACTION_TIMINGS
    assert "attaquer" in d20.ACTIONS and "attaque" not in d20.ACTIONS
    assert d20.SYSTEM.catalogue(d20.Rules()) is d20.ACTIONS


def test_error_kinds() -> None:
    """CORE-ERR: a bad value is a ParameterError, a forbidden move an IllegalActionError,
    whatever the system; both leave the fight unchanged."""
    enc = started()
    bad: list[tuple[type[EscarmoucheError], str, str, dict[str, Any]]] = [
        (ParameterError, "Thorin", "attaquer", {"cible": "Personne"}),
        (ParameterError, "Thorin", "attaquer", {"cible": "Gob", "portee": "loin"}),
        (ParameterError, "Thorin", "attaquer", {"cible": "Gob", "bonus": True}),
        (ParameterError, "Thorin", "deplacement", {"chemin": "nord"}),
        (ParameterError, "Thorin", "deplacement", {}),
        (ParameterError, "Thorin", "voler", {}),
        (IllegalActionError, "Gob", "attaquer", {"cible": "Thorin"}),
        (IllegalActionError, "Thorin", "point_action", {}),
        (IllegalActionError, "Thorin", "jet_de_sauvegarde", {}),
        (IllegalActionError, "Thorin", "attaque_opportunite", {}),
        (IllegalActionError, "Thorin", "interruption", {"declencheur": "un cri"}),
    ]
    for kind, actor, action, params in bad:
        before = enc.to_json()
        with pytest.raises(EscarmoucheError) as err:
            enc.act(actor, action, ScriptedRolls([20] * 5), **params)
        assert type(err.value) is kind, (action, params, err.value)
        assert enc.to_json() == before
    with pytest.raises(ParameterError):
        d20.check_turn(["danser"])
    with pytest.raises(IllegalActionError):
        d20.check_turn(["simple", "simple"])
    with pytest.raises(ParameterError):
        d20.Rules(immediate_reset="jamais")


def test_initiative_checks_the_modifier_d20_init_1() -> None:
    """D20-INIT-1: an init out of −100..100 is refused by the roll and by the odds."""
    wild = [Combatant("A", "x", {"PV": 5, "init": 500}), Combatant("B", "y", {"PV": 5})]
    with pytest.raises(ParameterError, match="D20-INIT-1"):
        d20.roll_initiative(wild, ScriptedRolls([1, 2]))
    with pytest.raises(ParameterError, match="init = 500"):
        d20.first_to_act_odds(wild)


@pytest.mark.parametrize("module", ["actions", "grid", "initiative", "narration", "odds",
                                    "reactions", "rules", "saves", "system"])
def test_doctests_of_the_package(module: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"escarmouche.systems.d20.{module}"))
    assert result.failed == 0
