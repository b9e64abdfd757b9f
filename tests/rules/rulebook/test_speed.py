"""System « Rulebook » (RULES.md): RB-SPEED-1..3, the six speed effects, their
cancelling and the order they give.

Every expected value is derived by hand from the rules (the comments show how);
the dice are fixed with ``ScriptedRolls``.
"""

from __future__ import annotations

import collections
import random
import re
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import Effect, EscarmoucheError, Timing
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter
from escarmouche.errors import IllegalActionError
from escarmouche.systems import rulebook as rb
from tests.helpers.rulebook import activations, begin, end, events, fighter, party

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


# -- R7: figures that the engine can check ---------------------------------------------------


def test_r1_speed_steps_at_the_ends_need_no_gender_b50() -> None:
    """B50: « Aube est le premier de l’ordre … » (Aube is a woman: the engine cannot
    know a name's gender); the steps at the ends of the order now read « Personne ne
    précède Aube dans l’ordre … », « Personne ne suit Éclopé dans l’ordre … »."""
    from escarmouche.systems import rulebook

    res = rulebook.apply_speed(["Aube", "Éclopé"], {"Aube": {"depassement"},
                                                    "Éclopé": {"depasse"}})
    texts = [s.text for s in res.steps if not s.applied]
    assert texts and not [t for t in texts if re.search(r"\best l[ea] (premier|dernier)", t)]
    assert any(t.startswith("Personne ne précède Aube") for t in texts), texts


def is_subsequence(sub: Sequence[str], seq: Sequence[str]) -> bool:
    it = iter(seq)
    return all(x in it for x in sub)


def test_hyperactive_effects_tick_once_per_turn_rb_speed_3() -> None:
    """RB-SPEED-3: per-character effects tick only at the first activation of a turn."""
    enc = begin(party(Brune={"hyperactivite"}),
                rules=rb.Rules(hyperactive_slot="juste_apres"))
    assert enc.state.order == ["Aldric", "Vif", "Brune", "Brune", "Grolk"]
    enc.add_effect(Effect("", "Poison", Timing.ACTIVATION_START, bearer="Brune",
                          remaining=5, per_tick={"PV": -1}))
    end(enc, 5)
    assert enc.turn == 2
    assert enc.fighter("Brune").tracks["PV"] == 9  # two activations, one tick


def test_hypoactivity_roll_each_activation_rb_speed_1() -> None:
    """RB-SPEED-1: Hypoactivité rolls 1d4 at each activation (logged); a 4: no action."""
    enc = begin(party(Vif={"hypoactivite"}))
    end(enc, 1, ScriptedRolls([4]))  # Vif's d4: 4, skipped
    assert enc.current == "Brune"
    (hypo,) = events(enc, "hypoactivite")
    assert [(d.faces, d.value) for d in hypo.dice] == [(4, 4)]
    assert hypo.data["can_act"] is False and "ne peut pas agir" in hypo.text
    with pytest.raises(IllegalActionError):
        enc.act("Vif", "attaquer", cible="Aldric", degats=1)
    rng = ScriptedRolls([2])
    end(enc, 3, rng)  # Brune → Grolk → (turn 2) Aldric → Vif rolls its d4: 2
    assert rng.used == 1
    assert enc.current == "Vif" and enc.turn == 2
    assert [e.data["roll"] for e in events(enc, "hypoactivite")] == [4, 2]
    # the d4 of a first activation comes from the start's rng, after the initiative
    first = begin(party(Aldric={"hypoactivite"}), rolls=(30, 30, 30, 30, 3))
    assert first.current == "Aldric" and events(first, "hypoactivite")[0].data["roll"] == 3
    end(first, 3)
    before = first.to_json()
    with pytest.raises(EscarmoucheError, match="Aucune valeur pour «\u00a0rng\u00a0»"):
        end(first)  # turn 2: Aldric's d4 needs dice
    assert first.to_json() == before


def test_speed_effect_gained_in_fight_rb_speed_1() -> None:
    """RB-SPEED-1: an attack can change the turn order, from the next global turn."""
    enc = begin()
    enc.act("Aldric", "attaquer", cible="Vif", degats=1, vitesse="toujours_dernier",
            duree=1)
    (v,) = events(enc, "vitesse")
    assert v.data == {"vitesse": "toujours_dernier", "debut": 2, "fin": 2,
                      "source": "Aldric"}
    assert enc.state.order == ["Aldric", "Vif", "Brune", "Grolk"]  # this turn: unchanged
    end(enc, 4)
    assert enc.turn == 2 and enc.state.order == ["Aldric", "Brune", "Grolk", "Vif"]
    (note,) = [e for e in events(enc, "ordre_tour") if e.turn == 2]
    assert "Vif agit en dernier" in note.text and "RB-SPEED-3" in note.rules
    end(enc, 4)
    assert enc.turn == 3 and enc.state.order == ["Aldric", "Vif", "Brune", "Grolk"]
    assert any(e.kind == "effet_fin" and e.turn == 2 for e in enc.log)
    assert not [e for e in enc.state.effects if e.kind == "vitesse"]


def test_speed_effect_cancels_a_trait_rb_speed_2() -> None:
    """RB-SPEED-2: a Hypoactivité inflicted on a Hyperactivité bearer cancels both."""
    enc = begin(party(Brune={"hyperactivite"}))
    enc.act("Aldric", "sort", nom="Lenteur", cible="Brune", vitesse="hypoactivite",
            duree=2)
    end(enc, 5)
    assert enc.turn == 2 and enc.state.order == ["Aldric", "Vif", "Brune", "Grolk"]
    (note,) = [e for e in events(enc, "ordre_tour") if e.turn == 2]
    assert "s’annulent pour Brune" in note.text and "RB-SPEED-2" in note.rules
    end(enc, 2)  # no d4 for Brune: nothing remains of either effect
    assert enc.current == "Brune" and not events(enc, "hypoactivite")


def test_speed_effect_added_by_the_gm_rb_speed_3() -> None:
    """A GM-made speed effect (``speed_effect``) counts from the next order it meets."""
    enc = begin()
    enc.add_effect(rb.speed_effect("Grolk", "depassement", last_turn=2))
    end(enc, 4)
    # Grolk (last) overtakes Brune
    assert enc.state.order == ["Aldric", "Vif", "Grolk", "Brune"]
    end(enc, 4)
    assert enc.state.order == ["Aldric", "Vif", "Brune", "Grolk"]
    with pytest.raises(EscarmoucheError, match="RB-SPEED-1"):
        rb.speed_effect("Grolk", "rapide")
    with pytest.raises(EscarmoucheError, match="last_turn"):
        rb.speed_effect("Grolk", "depasse", first_turn=3, last_turn=2)


def test_bad_speed_effect_keyword_is_refused_rb_speed_1() -> None:
    """RB-SPEED-1: a speed effect with an unknown keyword is refused when it is added."""
    enc = begin()
    before = enc.to_json()
    with pytest.raises(EscarmoucheError, match=r"«\u00a0rapide\u00a0».*RB-SPEED-1"):
        enc.add_effect(Effect("", "Étrange", Timing.TURN_START, bearer="Vif",
                              kind="vitesse", keywords=frozenset({"rapide"})))
    assert enc.to_json() == before
    enc.add_effect(Effect("", "Vif-argent", Timing.TURN_START, bearer="Vif",
                          kind="vitesse", keywords=frozenset({"toujours_premier"})))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["juste_apres", "fin_du_tour"]))
def test_encounter_turn_orders_rb_speed_3(seed: int, slot: str) -> None:
    """Each turn's slots: RB-SPEED-3 applied to the initiative order of the fighters
    still standing, then the turn's participants (RB-INIT-3/4); the activations of a
    turn follow its slots."""
    roster = party(Brune={"hyperactivite"}, Grolk={"depassement"},
                   Aldric={"toujours_dernier"})
    rules = rb.Rules(hyperactive_slot=slot)
    enc = Encounter("rulebook", roster, rules=rules)
    enc.run(random.Random(seed), max_turns=15)
    init = rb.encounter_initiative(enc)
    outs = {e.actor: e.seq for e in events(enc, "hors_combat")}
    for e in events(enc, "debut_tour"):
        standing = [n for n in init.order if outs.get(n, e.seq + 1) > e.seq]
        speed = rb.apply_speed(standing, rb.speed_profiles(roster), rules)
        if e.turn == 0:
            expected = speed.slots(set(init.turn_zero), twice=False)
        elif e.turn == 1:
            expected = speed.slots(exclude=set(init.late))
        else:
            expected = speed.slots()
        assert e.data["order"] == expected
        if not outs:
            assert expected == init.turn(e.turn)
        acts = activations(enc).get(e.turn, [])
        assert is_subsequence(acts, expected)


def test_initiative_unknown_trait_rb_speed_1() -> None:
    """An unknown trait is refused (naming the combatant); ``extra_traits`` admits it."""
    c = fighter("Aldric", "x", 50, traits={"nain"})
    with pytest.raises(EscarmoucheError, match=(r"Trait «\u00a0nain\u00a0» refusé\u00a0: "
                                                r"trait inconnu .* pour Aldric")):
        rb.initiative([c], ScriptedRolls([50]))
    init = rb.initiative([c], ScriptedRolls([50]), rules=rb.Rules(extra_traits=frozenset({"nain"})))
    assert init.order == ("Aldric",)
