"""System d20 (seed 003), the round and its order: D20-TIME-1, D20-INIT-1.

A round of 6 s, every creature once (D20-TIME-1); initiative 1d20 + modifier, ties by
the modifier then a roll-off, in the pure functions, in the encounter and in the exact
odds of acting first (D20-INIT-1), with dice fixed by ScriptedRolls. Every expected
value is derived by hand from the rules (the derivation is in the comment next to it);
exact odds are checked against a brute-force enumeration of every sequence of d20s.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import Combatant, EscarmoucheError
from escarmouche.dice import ScriptedRolls
from escarmouche.errors import ParameterError
from escarmouche.systems import d20
from tests.helpers.d20 import INIT_ROLLS, roster, started

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


def test_a_tie_past_the_bound_is_settled_by_lot_d20_init_2() -> None:
    """D20-INIT-2: after Rules.max_roll_off_rounds tied rounds, the tie is settled by lot
    (a die with 2 faces: 2 names the second creature given), not by an error; the lot is
    told, kept in JSON and the fight starts; a fight started so saves and loads."""
    import random

    from escarmouche.encounter import Encounter

    a = Combatant("A", "x", {"PV": 5})
    b = Combatant("B", "y", {"PV": 5})
    rules = d20.Rules(max_roll_off_rounds=2)
    rng = ScriptedRolls([10, 10, 5, 5, 6, 6, 2])
    ini = d20.roll_initiative([a, b], rng, rules=rules)
    assert ini.order == ("B", "A") and rng.remaining == 0
    assert [r.lot for r in ini.rolls] == [1, 2]
    assert d20.D20Initiative.from_json(ini.to_json()) == ini
    assert any("au sort" in line and "D20-INIT-2" in line for line in ini.explain())
    ini = d20.roll_initiative([a, b], ScriptedRolls([10, 10, 5, 5, 1, 6]), rules=rules)
    assert ini.order == ("B", "A") and not any(r.lot for r in ini.rolls)
    with pytest.raises(ParameterError):
        d20.Rules(max_roll_off_rounds=1)
    enc = Encounter(d20.SYSTEM, [a, b], rules=rules)
    enc.start(ScriptedRolls([10, 10, 5, 5, 6, 6, 2]))
    assert enc.system.ties_drawn_by_lot(enc.state) == 1
    again = Encounter.from_json(enc.to_json())
    assert again.state.system_state == enc.state.system_state
    enc.run(random.Random(1), max_turns=5)


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
    assert lines[0] == "A : 1d20 + 3 = 12 + 3 = 15 (D20-INIT-1)."
    assert "Égalité à 15 départagée par le modificateur : A (+3), B (+0), C (+0) " \
           "(D20-INIT-1)." in lines
    assert ("Égalité à 15 (modificateur +0), départagée au d20, le plus haut d’abord (B "
            "fait 4 ; C fait 17), d’où l’ordre C, B (D20-INIT-1).") in lines
    assert lines[-1] == "Ordre : A, C, B, le même à chaque round (D20-TIME-1)."


def test_initiative_checks_the_modifier_d20_init_1() -> None:
    """D20-INIT-1: an init out of −100..100 is refused by the roll and by the odds."""
    wild = [Combatant("A", "x", {"PV": 5, "init": 500}), Combatant("B", "y", {"PV": 5})]
    with pytest.raises(ParameterError, match="D20-INIT-1"):
        d20.roll_initiative(wild, ScriptedRolls([1, 2]))
    with pytest.raises(ParameterError, match="500 refusée pour «\u00a0init\u00a0»"):
        d20.first_to_act_odds(wild)
