"""System « Rulebook » (RULES.md): RB-SPEED-1..3, the six speed effects, their
cancelling and the order they give.

Every expected value is derived by hand from the rules (the comments show how);
the dice are fixed with ``ScriptedRolls``.
"""

from __future__ import annotations

import collections
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import EscarmoucheError
from escarmouche.dice import ScriptedRolls
from escarmouche.systems import rulebook as rb
from tests._rulebook_helpers import fighter

# =======================================================================================
# RB-SPEED-1..3: speed effects
# =======================================================================================


def test_six_speed_effects_are_data_rb_speed_1() -> None:
    """RB-SPEED-1: the six effects, each with its opposite (RB-SPEED-2), as data."""
    assert set(rb.SPEED_EFFECTS) == {"hyperactivite", "hypoactivite", "toujours_premier",
                                     "toujours_dernier", "depassement", "depasse"}
    for k, v in rb.SPEED_EFFECTS.items():
        assert rb.SPEED_EFFECTS[v.opposite].opposite == k


def test_resolve_hypoactivity_rb_speed_1() -> None:
    """RB-SPEED-1: Hypoactivité rolls 1d4; on a 4 the character cannot act."""
    assert [rb.resolve_hypoactivity(d).can_act for d in (1, 2, 3, 4)] == [True, True, True,
                                                                        False]
    with pytest.raises(EscarmoucheError, match="RB-SPEED-1"):
        rb.resolve_hypoactivity(5)


def src(*effects: str) -> list[rb.SpeedSource]:
    return [rb.SpeedSource(e, f"e{i}") for i, e in enumerate(effects)]


def test_opposite_effects_cancel_pair_by_pair_rb_speed_2() -> None:
    """RB-SPEED-2: opposite effects cancel, pair by pair."""
    p = rb.resolve_speed("A", src("hyperactivite", "hypoactivite"))
    assert p.active == frozenset() and p.cancelled == (("hyperactivite", "hypoactivite", 1),)
    # two Hyperactivité against one Hypoactivité: one pair cancels, Hyperactivité remains
    p = rb.resolve_speed("A", src("hyperactivite", "hyperactivite", "hypoactivite"))
    assert p.active == {"hyperactivite"}
    p = rb.resolve_speed("A", src("toujours_premier", "toujours_dernier", "depasse",
                                  "depasse", "depassement", "depassement"))
    assert p.active == frozenset()
    assert p.cancelled == (("toujours_premier", "toujours_dernier", 1),
                           ("depassement", "depasse", 2))
    # unrelated effects do not cancel
    p = rb.resolve_speed("A", src("hyperactivite", "toujours_dernier"))
    assert p.active == {"hyperactivite", "toujours_dernier"}
    with pytest.raises(EscarmoucheError, match="RB-SPEED-1"):
        rb.resolve_speed("A", src("rapide"))


def test_cancelled_traits_leave_the_order_alone_rb_speed_2() -> None:
    roster = [fighter("A", "x", 50), fighter("B", "x", 50,
                                             traits={"toujours_premier", "toujours_dernier"})]
    init = rb.initiative(roster, ScriptedRolls([10, 20]))
    assert init.turn(2) == ["A", "B"]
    assert any(s.rule == "RB-SPEED-2" and s.name == "B" for s in init.speed.steps)


def order(base: str, effects: Mapping[str, set[str]], **rules: Any) -> str:
    """apply_speed on one-letter names, as a string (« ABC »)."""
    result = rb.apply_speed(list(base), {k: frozenset(v) for k, v in effects.items()},
                            rb.Rules(**rules))
    return "".join(result.slots())


def test_toujours_premier_dernier_keep_relative_order_rb_speed_3() -> None:
    """RB-SPEED-3: several Toujours premier (dernier) keep their relative order."""
    first = {"toujours_premier"}
    last = {"toujours_dernier"}
    assert order("ABCD", {"B": first, "D": first}) == "BDAC"
    assert order("ABCD", {"A": last, "C": last}) == "BDAC"
    assert order("ABCDE", {"E": first, "A": last, "B": first}) == "BECDA"


def test_depassement_one_place_rb_speed_3() -> None:
    """RB-SPEED-3: Dépassement acts before the character just before; Dépassé after the
    character just after."""
    assert order("ABC", {"C": {"depassement"}}) == "ACB"
    assert order("ABC", {"A": {"depasse"}}) == "BAC"


def test_first_cannot_overtake_last_cannot_be_overtaken_rb_speed_3() -> None:
    """RB-SPEED-3: the first cannot overtake; the last cannot be overtaken."""
    res = rb.apply_speed(["A", "B"], {"A": {"depassement"}, "B": {"depasse"}})
    assert res.order == ("A", "B")
    texts = [s.text for s in res.steps if not s.applied]
    assert any("Personne ne précède" in t for t in texts)
    assert any("Personne ne suit" in t for t in texts)


def test_each_character_moves_at_most_one_place_rb_speed_3() -> None:
    """RB-SPEED-3: a swap happens only if neither of the two has moved yet."""
    # C overtakes B; D would overtake B, but B has already moved
    assert order("ABCD", {"C": {"depassement"}, "D": {"depassement"}}) == "ACBD"
    res = rb.apply_speed(list("ABCD"), {"C": {"depassement"}, "D": {"depassement"}})
    refused = [s for s in res.steps if s.effect == "depassement" and not s.applied]
    assert [(s.name, s.other) for s in refused] == [("D", "B")]


def test_depassement_applied_from_the_top_rb_speed_3() -> None:
    """RB-SPEED-3: one character at a time from the top of the order.

    B and C both have Dépassement: B (higher) goes first and swaps with A; C's swap with
    A is refused (A has moved). From the bottom, C would have passed B instead (ACB).
    """
    assert order("ABC", {"B": {"depassement"}, "C": {"depassement"}}) == "BAC"
    # A and B both Dépassé: A passes behind B; B has moved, its own Dépassé is void
    assert order("ABC", {"A": {"depasse"}, "B": {"depasse"}}) == "BAC"
    # A Dépassé, C Dépassement: A swaps with B first; then C may not pass A (moved)
    assert order("ABC", {"A": {"depasse"}, "C": {"depassement"}}) == "BAC"
    # B Dépassé and C Dépassement want the same swap: it happens once
    res = rb.apply_speed(list("ABC"), {"B": {"depasse"}, "C": {"depassement"}})
    assert res.order == ("A", "C", "B")
    assert [s.applied for s in res.steps if s.effect in ("depasse", "depassement")] == [
        True, False]


def test_first_last_before_depassement_rb_speed_3() -> None:
    """RB-SPEED-3: Toujours premier / dernier first, then Dépassement.

    B Toujours premier, C Dépassement: BAC, then C overtakes A → BCA (the other order
    of application would give BAC).
    """
    assert order("ABC", {"B": {"toujours_premier"}, "C": {"depassement"}}) == "BCA"
    res = rb.apply_speed(list("ABC"), {"B": {"toujours_premier"}, "C": {"depassement"}})
    assert res.after_first_last == ("B", "A", "C")


def test_hyperactive_slot_option_rb_speed_3() -> None:
    """RB-SPEED-3: Hyperactivité adds a second activation, right after the first
    (default) or at the end of the turn (option ``hyperactive_slot``)."""
    right_after = {"hyperactive_slot": "juste_apres"}  # pinned: the text's case
    assert order("ABC", {"A": {"hyperactivite"}}, **right_after) == "AABC"
    assert order("ABC", {"A": {"hyperactivite"}}, hyperactive_slot="fin_du_tour") == "ABCA"
    assert order("ABCD", {"A": {"hyperactivite"}, "C": {"hyperactivite"},
                          "B": {"toujours_dernier"}},
                 hyperactive_slot="fin_du_tour") == "ACDBAC"
    # the second activation comes after the speed moves
    assert order("ABC", {"C": {"hyperactivite", "depassement"}}, **right_after) == "ACCB"


def test_speed_from_traits_in_initiative_rb_speed_3() -> None:
    roster = [fighter("A", "x", 50), fighter("B", "x", 50, traits={"toujours_dernier"}),
              fighter("C", "y", 50, traits={"hyperactivite"})]
    init = rb.initiative(roster, ScriptedRolls([10, 20, 30]),
                         rules=rb.Rules(hyperactive_slot="juste_apres"))
    assert init.order == ("A", "B", "C")
    assert init.turn(1) == ["A", "C", "C", "B"]
    assert any("Toujours dernier" in line for line in init.explain())
    assert "RB-SPEED-3" in init.rules


def test_apply_speed_rejects_duplicates() -> None:
    with pytest.raises(EscarmoucheError, match="RB-SPEED-3"):
        rb.apply_speed(["A", "A"], {})


speed_sets = st.dictionaries(
    st.sampled_from("ABCDEFG"),
    st.frozensets(st.sampled_from(sorted(rb.SPEED_EFFECTS)), max_size=3),
    max_size=7,
)


@settings(max_examples=300, deadline=None)
@given(st.permutations("ABCDEFG"), speed_sets, st.sampled_from(["juste_apres", "fin_du_tour"]))
def test_apply_speed_properties_rb_speed_3(
    base: list[str], effects: dict[str, frozenset[str]], slot: str
) -> None:
    """RB-SPEED-3 invariants: a permutation; premiers on top and derniers at the bottom
    after step 1; step 2 only swaps disjoint adjacent pairs; Hyperactivité doubles."""
    res = rb.apply_speed(base, effects, rb.Rules(hyperactive_slot=slot))
    active = {p.name: p.active for p in res.profiles}
    assert sorted(res.order) == sorted(base)
    staged = list(res.after_first_last)
    firsts = [n for n in base if "toujours_premier" in active.get(n, ())]
    lasts = [n for n in base if "toujours_dernier" in active.get(n, ())]
    assert staged[: len(firsts)] == firsts
    assert staged[len(staged) - len(lasts):] == lasts
    moved = [i for i, (x, y) in enumerate(zip(staged, res.order, strict=True)) if x != y]
    pairs = [moved[i: i + 2] for i in range(0, len(moved), 2)]
    for i, j in pairs:
        assert j == i + 1 and staged[i] == res.order[j] and staged[j] == res.order[i]
    slots = res.slots()
    count = collections.Counter(slots)
    for n in base:
        assert count[n] == (2 if "hyperactivite" in active.get(n, ()) else 1)
    assert [n for i, n in enumerate(slots) if n not in slots[:i]] == list(res.order)
