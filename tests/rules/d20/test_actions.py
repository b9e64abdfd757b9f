"""System d20 (seed 003), the turn's actions: D20-ACT-1..3.

The base budget of one standard, one move and one minor action (D20-ACT-1), the
substitutions (D20-ACT-2) and the action point (D20-ACT-3): in check_turn and plan_turn,
checked against a brute-force search of every way of putting the actions into the slots
the seed text describes, then action by action in the encounter (the adjacency a
melee attack needs, D20-OPP-2, is in ``test_reactions.py``).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import Combatant, EscarmoucheError
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter
from escarmouche.errors import IllegalActionError
from escarmouche.systems import d20
from tests.helpers.d20 import assert_rejected, last, pos, started
from tests.helpers.proofreading import (
    d20_trio,
    refused,
    unquoted,
)

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
    are rejected in French; free actions are allowed during another's turn. (Seven
    squares is one more than the text's default speed 6, pinned.)"""
    enc = started(d20.Rules(default_speed=6))
    assert_rejected(enc, "D20-ACT-1", "Gob", "attaquer", cible="Thorin")
    assert_rejected(enc, "CORE-ERR", "Thorin", "voler")  # the shared catalogue lookup
    assert_rejected(enc, "CORE-ERR", "Thorin", "attaque")  # the old id, no alias
    assert_rejected(enc, "D20-ACT-1", "Thorin", "deplacement", path=[[-1, 0]])
    assert_rejected(enc, "D20-ACT-1", "Thorin", "deplacement", chemin=[[-1, 0]] * 7)
    assert_rejected(enc, "D20-OPP-2", "Thorin", "deplacement", chemin=[[2, 0]])
    assert_rejected(enc, "D20-ACT-1", "Thorin", "deplacement", chemin=[[1, 1]])  # enemy
    enc.act("Gob", "parler", description="« Grrr ! »")
    assert "pendant le tour d’un autre combattant" in last(enc, "action").text


# -- the simulation pages (`d100/simulation`, `d12/simulation`, `d20/simulation`) ---------


def test_b128_a_refused_step_is_named_in_words_d20_act_1() -> None:
    """B128: a refused step of a move was named « chemin[0] » (a Python index), said
    « pas voisin de (1 ; 0) » (« pas », a step or « not »?) and « case de « Thorin », un
    ennemi l’occupe »."""
    far = refused(d20_trio(), "Orque", "deplacement", chemin=[[5, 5]])
    assert "refusée pour «\u00a0chemin, pas 1\u00a0»" in far, far
    assert far.startswith("Valeur «\u00a0(5\u202f; 5)\u00a0» refusée"), far
    assert "cette case n’est pas voisine de (1\u202f; 0)" in far, far
    taken = refused(d20_trio(), "Orque", "deplacement", chemin=[[0, 0]])
    assert "la case est occupée par un ennemi, Thorin" in taken, taken
    assert "[" not in unquoted(taken).split("refusée")[1], taken


def test_b135_a_turn_without_room_names_the_action_refused_d20_act_2() -> None:
    """B135: a second attack in a d20 turn was refused as « Valeur [« simple »,
    « simple »] refusée pour « actions » », a list of engine categories the reader never
    typed; the state stays as it was."""
    from escarmouche.dice import ScriptedRolls

    enc = Encounter("d20", [Combatant("Thorin", "PJ", {"PV": 30, "init": 2}),
                            Combatant("Orque", "Orques", {"PV": 25, "init": 1})])
    enc.start(ScriptedRolls([5, 18]), positions={"Thorin": [0, 0], "Orque": [1, 0]})
    enc.act("Orque", "attaquer", ScriptedRolls([10, 3]), cible="Thorin")
    before = enc.to_json()
    text = refused(enc, "Orque", "attaquer", cible="Thorin")
    assert text.startswith("Action «\u00a0Attaquer\u00a0» refusée\u00a0: pour Orque, la 2e "
                           "action (action simple) ne trouve plus de place"), text
    assert enc.to_json() == before
