"""System d100 (seed 001), RULES.md: the initiative, D100-INIT-1/2, and the surprised side's first
round, D100-SURPRISE-1 (the round and the turn are in ``test_turn.py``).

Expected values are derived by hand from the rules in the comments next to them.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import Combatant, EscarmoucheError
from escarmouche.dice import ScriptedRolls
from escarmouche.systems import d100
from escarmouche.systems.d100 import (
    Guard,
    Rules,
    attack_setup,
)
from tests.helpers.d100 import ALDRIC, GROLK, events, fighter, started, two_weapon_grolk
from tests.helpers.proofreading import (
    clauses,
    top_level_colons,
    unbreak,
)

# -- D100-INIT-1/2 ----------------------------------------------------------------------------


def test_initiative_is_ag_plus_d10_d100_init_1() -> None:
    """D100-INIT-1: Ag + 1d10, one d10 per combatant in the given order."""
    # Aldric 40 + 4 = 44, Grolk 30 + 10 = 40
    init = d100.resolve_initiative([ALDRIC, GROLK], [4, 10])
    assert [(e.name, e.score) for e in init.entries] == [("Aldric", 44), ("Grolk", 40)]
    assert init.order == ("Aldric", "Grolk")
    rng = ScriptedRolls([4, 10])
    assert d100.initiative([ALDRIC, GROLK], rng) == ["Aldric", "Grolk"]
    assert rng.remaining == 0
    # Aldric 40 + 1 = 41 still beats Grolk 30 + 10 = 40
    assert d100.initiative([ALDRIC, GROLK], ScriptedRolls([1, 10])) == ["Aldric", "Grolk"]
    # with Ag 35, Grolk gets 35 + 10 = 45 > 41
    grolk35 = fighter("Grolk", "monstres", Ag=35)
    assert d100.initiative([ALDRIC, grolk35], ScriptedRolls([1, 10])) == ["Grolk", "Aldric"]


def test_initiative_kept_for_whole_fight_d100_init_1() -> None:
    """D100-INIT-1: rolled once at the start; later rounds draw no die."""
    enc = started([ALDRIC, GROLK], [4, 10])
    for _ in range(6):
        enc.end_activation()  # no rng: a die drawn here would raise
    starts = events(enc, "debut_tour")
    assert [e.data["order"] for e in starts] == [["Aldric", "Grolk"]] * 4
    assert len(events(enc, "initiative")[0].dice) == 2


def test_initiative_ties_ag_then_rolloff_d100_init_2() -> None:
    """D100-INIT-2: ties by higher Ag, then 1d10 roll-offs, higher first, until broken."""
    a = fighter("A", "x", Ag=40)
    b = fighter("B", "y", Ag=30)
    c = fighter("C", "x", Ag=40)
    d = fighter("D", "y", Ag=30)
    # scores: A 45, B 35, C 45, D 35; same Ag inside each pair: two tie groups.
    # roll-off round 1 (given order A, B, C, D): A 3, B 6, C 3, D 2 -> B before D;
    # A and C tie again; round 2: A 1, C 10 -> C before A.
    dice = [5, 5, 5, 5, 3, 6, 3, 2, 1, 10]
    init = d100.resolve_initiative([a, b, c, d], dice)
    assert init.order == ("C", "A", "B", "D")
    assert init.rolloffs == ((("A", 3), ("B", 6), ("C", 3), ("D", 2)), (("A", 1), ("C", 10)))
    rng = ScriptedRolls(dice)
    assert d100.initiative([a, b, c, d], rng) == ["C", "A", "B", "D"]
    assert rng.remaining == 0
    # same score, different Ag: no roll-off (A 40 + 5 = 45, E 44 + 1 = 45)
    e = fighter("E", "y", Ag=44)
    rng = ScriptedRolls([5, 1])
    assert d100.initiative([a, e], rng) == ["E", "A"]  # 45 each, E has the higher Ag
    assert rng.remaining == 0


def test_initiative_rolloff_is_bounded_d100_init_2() -> None:
    a, c = fighter("A", "x"), fighter("C", "y")
    with pytest.raises(EscarmoucheError, match="D100-INIT-2"):
        d100.initiative([a, c], ScriptedRolls([5] * 300))
    with pytest.raises(EscarmoucheError, match="un d10 de plus est nécessaire"):
        d100.resolve_initiative([a, c], [5, 5, 7])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 100), min_size=1, max_size=8), st.integers(0, 2**32))
def test_initiative_order_is_a_sorted_permutation_d100_init_2(ags: list[int], seed: int
                                                              ) -> None:
    """D100-INIT-2: the order is a permutation, by score then Ag, descending."""
    roster = [fighter(f"F{i}", "x", Ag=ag) for i, ag in enumerate(ags)]
    init = d100.roll_initiative(roster, random.Random(seed))
    assert sorted(init.order) == sorted(c.name for c in roster)
    keys = [(init.score(n), next(c.stats["Ag"] for c in roster if c.name == n))
            for n in init.order]
    assert keys == sorted(keys, reverse=True)
    again = d100.resolve_initiative(roster, [d.value for d in init.dice])
    assert again == init


# -- D100-SURPRISE-1, D100-ROUND-1 ----------------------------------------------------------


def test_surprise_round_d100_surprise_1() -> None:
    """D100-SURPRISE-1: in round 1 only the non-surprised act, and the surprised can
    neither parry nor dodge (the ruling, pinned); from round 2 everyone acts."""
    grolk = fighter("Grolk", "monstres", ["esquive"], CC=45, E=35, Ag=30, B=11)
    enc = started([ALDRIC, grolk], [4, 10], surpris="monstres",
                  equipement=two_weapon_grolk(), rules=Rules(surprised_can_defend=False))
    assert enc.state.order == ["Aldric"]
    assert "D100-SURPRISE-1" in events(enc, "surprise")[0].rules
    before = enc.to_json()
    rng = ScriptedRolls([30, 20, 5])
    for defence in ("parade", "esquive"):
        with pytest.raises(EscarmoucheError, match="D100-SURPRISE-1"):
            enc.act("Aldric", "attaquer", rng, cible="Grolk", defense=defence)
        assert enc.to_json() == before and rng.used == 0
    enc.end_activation()
    assert enc.turn == 2 and enc.state.order == ["Aldric", "Grolk"]
    assert events(enc, "fin_surprise")
    # round 2: Grolk may parry now (two weapons): 30 <= 65 hits, 20 <= 45 parried
    enc.act("Aldric", "attaquer", rng, cible="Grolk", defense="parade")
    assert events(enc, "attaque")[-1].data["outcome"] == "paree"


def test_surprised_can_defend_option_d100_surprise_1() -> None:
    """D100-SURPRISE-1 ruling as an option: ``surprised_can_defend``."""
    setup = attack_setup(ALDRIC, GROLK, defence="parade",
                         guard=Guard(two_weapons=True, surprised=True),
                         rules=Rules(surprised_can_defend=True))
    assert setup.defence == "parade"
    with pytest.raises(EscarmoucheError, match="D100-SURPRISE-1"):
        attack_setup(ALDRIC, GROLK, defence="parade",
                     guard=Guard(two_weapons=True, surprised=True),
                     rules=Rules(surprised_can_defend=False))
    with pytest.raises(EscarmoucheError, match="D100-SURPRISE-1"):
        started([ALDRIC, GROLK], [4, 10], surpris="dragons")


# -- d100 initiative (D100-INIT-1/2): `d100/rounds`, the initiative demo --------------------


def test_b102_the_d100_roll_off_says_who_rolled_what_d100_init_2() -> None:
    """B102: the d100 initiative table and explanation ran each name into its die
    (« Départage, manche 1 : Grolk 4 et Urgash 4 », « Égalité à 39 : jet de départage au
    d10, le plus haut d’abord : Grolk 4, … → Grolk, Urgash », two colons in a clause) and
    wrote « Ag 35 + 1d10 = 4 → 39 », an equality that does not hold (as B48 in d20)."""
    from escarmouche.systems import d100

    def perso(name: str, ag: int) -> Combatant:
        return Combatant(name, "x", {"CC": 40, "CT": 40, "F": 40, "E": 40, "Ag": ag,
                                     "M": 4, "B": 10})

    init = d100.resolve_initiative([perso("Aldric", 35), perso("Bertille", 45),
                                    perso("Grolk", 30), perso("Urgash", 30)],
                                   [4, 6, 9, 9, 4, 4, 8, 2])
    lines = [*init.sentences(), *init.explain()]
    assert "Départage au d10, manche 1 : Grolk fait 4 et Urgash fait 4." in lines
    assert "Aldric : Ag + 1d10 = 35 + 4 = 39 (D100-INIT-1)." in lines
    assert ("Égalité à 39, départagée au d10, le plus haut d’abord (manche 1 : Grolk fait 4, "
            "Urgash fait 4 ; manche 2 : Grolk fait 8, Urgash fait 2), d’où l’ordre Grolk, "
            "Urgash (D100-INIT-2).") in lines
    for line in lines:
        assert not re.search(r"\b(?!Ag\b)[A-Z]\w* \d", line), line  # « Grolk 4 »
        assert all(top_level_colons(c) <= 1 for c in clauses(line)), line


# -- the tracker, the comparison, the Atelier -------------------------------------------------


def test_b82_a_d100_initiative_roll_is_an_equality_that_holds() -> None:
    """B82: « Ag 38 + 1d10 = 6 → 44 » (as B48 in d20): now « Ag + 1d10 = 38 + 6 = 44 »."""
    from escarmouche.systems.d100.initiative import resolve_initiative

    init = resolve_initiative([Combatant("Aldric", "héros", {"Ag": 38})], [6])
    line = unbreak(init.explain()[0])
    assert line == "Aldric : Ag + 1d10 = 38 + 6 = 44 (D100-INIT-1)."
