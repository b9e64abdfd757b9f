"""System « Rulebook » (RULES.md): RB-INIT-1..4, the initiative order, its
ties and roll-offs, turn 0 and late starters, with Hypothesis invariants.

Every expected value is derived by hand from the rules (the comments show how);
the dice are fixed with ``ScriptedRolls``.
"""

from __future__ import annotations

import collections
import json
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import Combatant, EscarmoucheError
from escarmouche.dice import ScriptedRolls
from escarmouche.errors import IllegalActionError, RuleBoundError
from escarmouche.systems import rulebook as rb
from tests.helpers.proofreading import (
    clauses,
    top_level_colons,
)
from tests.helpers.rulebook import activations, begin, end, events, fighter, names

# =======================================================================================
# RB-INIT-1, RB-INIT-2: the initiative order and its ties
# =======================================================================================


def test_initiative_one_d100_per_combatant_in_given_order_rb_init_1() -> None:
    """RB-INIT-1: every character rolls a D100 test on HAB, in the given order."""
    roster = [fighter("A", "x", 50), fighter("B", "x", 70), fighter("C", "y", 40)]
    rng = ScriptedRolls([30, 60, 10])
    init = rb.initiative(roster, rng)
    assert rng.used == 3
    assert [(r.name, r.test.roll, r.test.margin) for r in init.rolls] == [
        ("A", 30, 20), ("B", 60, 10), ("C", 10, 30)]
    # margins 20, 10, 30 → C, A, B (RB-INIT-2)
    assert names(init) == ["C", "A", "B"]
    assert init.ties == ()
    assert "RB-INIT-1" in init.rules


def test_initiative_ignores_skills_rb_init_1() -> None:
    """RB-INIT-1: no skill modifies the initiative roll."""
    plain = [fighter("A", "x", 50), fighter("B", "y", 50)]
    skilled = [Combatant("A", "x", plain[0].stats, skills={"esquive", "initiative"}),
               plain[1]]
    a = rb.initiative(plain, ScriptedRolls([40, 20]))
    b = rb.initiative(skilled, ScriptedRolls([40, 20]))
    assert a.order == b.order == ("B", "A")
    assert a.rolls[0].test == b.rolls[0].test


@pytest.mark.parametrize(
    ("stats", "field", "pattern"),
    [
        ({"DIS": 50}, "HAB", r"Aucune valeur pour «\u00a0HAB\u00a0»\u00a0: caractéristique"
                             r" requise pour Aldric .*RB-INIT-1"),
        ({"HAB": 140}, "HAB", r"140 refusée pour «\u00a0HAB\u00a0»\u00a0: un nombre entier entre"
                              r" 0 et 100 .* pour Aldric"),
        ({"HAB": -1}, "HAB", r"−1 refusée pour «\u00a0HAB\u00a0»\u00a0: .* pour Aldric"),
    ],
)
def test_initiative_bad_hab_rb_init_1(stats: dict[str, int], field: str, pattern: str) -> None:
    """RB-INIT-1: a missing HAB or one outside 0–100 is refused, naming the combatant."""
    rng = ScriptedRolls([50])
    with pytest.raises(EscarmoucheError, match=pattern) as err:
        rb.initiative([Combatant("Aldric", "x", stats)], rng)
    assert err.value.field == field
    assert rng.used == 0  # nothing drawn before the check


def test_initiative_bad_roster() -> None:
    with pytest.raises(EscarmoucheError, match="au moins un"):
        rb.initiative([], ScriptedRolls([]))
    with pytest.raises(EscarmoucheError, match="unique"):
        rb.initiative([fighter("A", "x", 5), fighter("A", "y", 5)], ScriptedRolls([1, 2]))
    with pytest.raises(EscarmoucheError, match="«\u00a0z\u00a0» refusée pour «\u00a0surprise"
                                               " par\u00a0»"):
        rb.initiative([fighter("A", "x", 5)], ScriptedRolls([1]), surprise_by="z")


def test_critical_successes_first_rb_init_2() -> None:
    """RB-INIT-2: critical successes first (even with a lower margin), then margins."""
    roster = [fighter("A", "x", 90), fighter("B", "y", 10), fighter("C", "y", 80)]
    # A 90−10 = 80; B 10−4 = 6 critical; C 80−2 = 78 critical
    init = rb.initiative(roster, ScriptedRolls([10, 4, 2]))
    assert names(init) == ["C", "B", "A"]  # criticals by margin (78, 6), then A


def test_critical_failures_ranked_by_margin_rb_init_2() -> None:
    """RB-INIT-2: a critical failure is ranked by its margin like the others."""
    roster = [fighter("A", "x", 100), fighter("B", "y", 30)]
    # A 100−97 = 3 (critical failure); B 30−50 = −20
    init = rb.initiative(roster, ScriptedRolls([97, 50]))
    assert names(init) == ["A", "B"]
    assert init.late == ("A",)


def test_tie_broken_by_hab_rb_init_2() -> None:
    """RB-INIT-2: equal margins → the higher HAB first, no roll-off."""
    roster = [fighter("A", "x", 60), fighter("B", "y", 70)]
    rng = ScriptedRolls([40, 50])  # both margin 20
    init = rb.initiative(roster, rng)
    assert names(init) == ["B", "A"]
    assert rng.used == 2
    (tie,) = init.ties
    assert tie.names == ("A", "B") and tie.margin == 20 and tie.rounds == ()
    assert tie.habs == (("A", 60), ("B", 70))
    assert "HAB" in tie.text


def test_tie_broken_by_rolloff_rb_init_2() -> None:
    """RB-INIT-2: equal margin and HAB → a d100 roll-off, the higher roll first."""
    roster = [fighter("A", "x", 50), fighter("B", "y", 50)]
    rng = ScriptedRolls([30, 30, 40, 70])
    init = rb.initiative(roster, rng)
    assert names(init) == ["B", "A"]
    assert init.roll_of("A").rolloffs == (40,) and init.roll_of("B").rolloffs == (70,)
    (tie,) = init.ties
    assert tie.rounds == ((("A", 40), ("B", 70)),)
    assert tie.order == ("B", "A")


def test_rolloff_repeated_until_broken_rb_init_2() -> None:
    """RB-INIT-2: roll-offs repeat for the still-tied combatants only."""
    roster = [fighter(n, "x", 50) for n in "ABC"]
    # round 1: A 50, B 50, C 20 → C last; round 2 (A, B only): A 10, B 90
    rng = ScriptedRolls([30, 30, 30, 50, 50, 20, 10, 90])
    init = rb.initiative(roster, rng)
    assert names(init) == ["B", "A", "C"]
    assert rng.remaining == 0
    (tie,) = init.ties
    assert tie.rounds == ((("A", 50), ("B", 50), ("C", 20)), (("A", 10), ("B", 90)))
    assert init.roll_of("C").rolloffs == (20,)


def test_rolloff_rounds_interleave_tie_groups_in_given_order_rb_init_2() -> None:
    """RB-INIT-2: each round, every still-tied combatant of every group rolls, in the
    given order."""
    roster = [fighter("A", "x", 50), fighter("B", "x", 40), fighter("C", "y", 50),
              fighter("D", "y", 40)]
    # margins A 20, B 10, C 20, D 10 → groups {A, C} and {B, D}
    # round 1 in given order A 10, B 60, C 70, D 60 → C, A ; B and D still tied
    # round 2: B 5, D 6 → D, B
    rng = ScriptedRolls([30, 30, 30, 30, 10, 60, 70, 60, 5, 6])
    init = rb.initiative(roster, rng)
    assert names(init) == ["C", "A", "D", "B"]
    first, second = init.ties
    assert first.order == ("C", "A") and first.rounds == ((("A", 10), ("C", 70)),)
    assert second.rounds == ((("B", 60), ("D", 60)), (("B", 5), ("D", 6)))


def test_rolloff_bound_rb_init_2() -> None:
    """RB-INIT-2: « repeated until broken » is bounded (a named error, not a hang)."""
    roster = [fighter("A", "x", 50), fighter("B", "y", 50)]
    rng = ScriptedRolls([30, 30] + [50, 50] * rb.MAX_ROLLOFF_ROUNDS)
    with pytest.raises(RuleBoundError, match="RB-INIT-2"):
        rb.initiative(roster, rng)


def test_resolve_initiative_pure_rb_init_2() -> None:
    """The pure form: the same result from the dice typed by hand."""
    roster = [fighter("A", "x", 50), fighter("B", "y", 50)]
    a = rb.resolve_initiative(roster, [30, 30], [40, 70])
    b = rb.initiative(roster, ScriptedRolls([30, 30, 40, 70]))
    assert a == b
    with pytest.raises(EscarmoucheError, match="manche 1"):
        rb.resolve_initiative(roster, [30, 30], [40])
    with pytest.raises(EscarmoucheError, match="seules 2"):
        rb.resolve_initiative(roster, [30, 30], [40, 70, 3])
    with pytest.raises(EscarmoucheError, match="un d100 par combattant"):
        rb.resolve_initiative(roster, [30])
    with pytest.raises(EscarmoucheError, match="RB-INIT-2"):
        rb.resolve_initiative(roster, [30, 30], [0, 70])


# =======================================================================================
# RB-INIT-3, RB-INIT-4: turn 0 and late starters
# =======================================================================================


def test_critical_success_plays_turn_0_rb_init_3() -> None:
    """RB-INIT-3: a critical success gets an extra activation in turn 0, before turn 1."""
    roster = [fighter("A", "x", 50), fighter("B", "y", 50), fighter("C", "y", 50)]
    init = rb.initiative(roster, ScriptedRolls([30, 3, 20]))
    assert init.turn(0) == ["B"]
    assert init.turn(1) == ["B", "C", "A"]
    (z,) = init.turn_zero_reasons
    assert z.rules == ("RB-INIT-3",) and z.included


def test_no_turn_0_without_criticals_rb_init_3() -> None:
    init = rb.initiative([fighter("A", "x", 50)], ScriptedRolls([30]))
    assert init.turn(0) == [] and init.turn(1) == ["A"]


def test_critical_failure_starts_turn_2_rb_init_4() -> None:
    """RB-INIT-4: a critical failure acts only from turn 2 (not in turn 0 nor 1)."""
    roster = [fighter("A", "x", 50), fighter("B", "y", 50), fighter("C", "y", 50)]
    init = rb.initiative(roster, ScriptedRolls([2, 99, 20]))
    assert init.late == ("B",)
    assert init.turn(0) == ["A"]
    assert init.turn(1) == ["A", "C"]
    assert init.turn(2) == ["A", "C", "B"]  # B ranked by margin −49
    assert init.turn(7) == init.turn(2)
    with pytest.raises(EscarmoucheError, match="RB-TURN-1"):
        init.turn(-1)


# =======================================================================================
# Initiative properties (Hypothesis)
# =======================================================================================


class CoarseRng:
    """A seeded rng that only shows a few faces: ties and criticals become common."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.used = 0

    def randint(self, a: int, b: int) -> int:
        self.used += 1
        return self.rng.choice([a, (a + b) // 2, (a + b) // 2 + 1, b, 3])


rosters = st.lists(
    st.tuples(st.integers(0, 100), st.sampled_from(["x", "y"]),
              st.frozensets(st.sampled_from(sorted(rb.KNOWN_TRAITS)), max_size=2)),
    min_size=1, max_size=7,
).map(lambda rows: [fighter(f"P{i}", side, hab, traits=t)
                    for i, (hab, side, t) in enumerate(rows)])


@settings(max_examples=300, deadline=None)
@given(rosters, st.integers(0, 2**32), st.sampled_from([None, "x", "y"]))
def test_initiative_properties_rb_init_2(
    roster: list[Combatant], seed: int, surprise_by: str | None
) -> None:
    """RB-INIT-2..4 invariants: the order is a permutation, sorted by (critical, margin,
    HAB, roll-offs); the draws are one per combatant plus the roll-offs; turns 0 and 1
    follow RB-INIT-3/4 and RB-SURPRISE-3."""
    if surprise_by is not None and surprise_by not in {c.side for c in roster}:
        surprise_by = None
    rng = CoarseRng(seed)
    init = rb.initiative(roster, rng, surprise_by=surprise_by)
    assert sorted(init.order) == sorted(c.name for c in roster)
    assert rng.used == len(roster) + sum(len(r.rolloffs) for r in init.rolls)
    rolls = {r.name: r for r in init.rolls}
    for a, b in zip(init.order, init.order[1:], strict=False):
        ra, rb_ = rolls[a], rolls[b]
        ka = (ra.test.critical != "success", -ra.test.margin, -ra.hab)
        kb = (rb_.test.critical != "success", -rb_.test.margin, -rb_.hab)
        assert ka <= kb
        if ka == kb:  # decided by the first roll-off where they differ
            diff = next(i for i, (x, y) in enumerate(zip(ra.rolloffs, rb_.rolloffs,
                                                         strict=False)) if x != y)
            assert ra.rolloffs[diff] > rb_.rolloffs[diff]
    late = {n for n, r in rolls.items() if r.test.critical == "failure"}
    crits = {n for n, r in rolls.items() if r.test.critical == "success"}
    assert set(init.late) == late
    zero = init.turn(0)
    assert len(zero) == len(set(zero)) and not set(zero) & late
    if surprise_by is None:
        assert set(zero) == crits
    else:
        sides = {c.name: c.side for c in roster}
        anti = {c.name for c in roster if "anti_surprise" in c.traits}
        expected = {n for n in sides if sides[n] == surprise_by or n in crits or n in anti}
        assert set(zero) == expected - late
    assert not set(init.turn(1)) & late
    assert collections.Counter(init.turn(3)) == collections.Counter(
        [n for n in init.order]
        + [n for n in init.order if n in init.speed.hyperactive])
    assert rb.Initiative.from_json(json.loads(json.dumps(init.to_json()))) == init


# -- Rulebook initiative (RB-INIT-2): `rulebook/initiative`, the initiative demo -----------


def test_the_rulebook_roll_off_says_who_rolled_what_rb_init_2() -> None:
    """RB-INIT-2 (spec/relecture-journal.md): the Rulebook roll-off ran names into dice and chained
    colons (« … entre A, B et C : HAB A 50, B 50, C 60 ; départage au d100 (le plus haut
    d’abord), manche 1 : A 30, B 70 → C, B, A »), the shape B24–B26 and B102 fixed in
    the other three systems; it now reads as theirs, in the log and the explanation."""
    from escarmouche.systems import rulebook

    def perso(name: str, hab: int) -> Combatant:
        return Combatant(name, "x", {"HAB": hab, "DIS": 50, "PMR": 50, "PV": 10,
                                     "Esprit": 10})

    init = rulebook.resolve_initiative([perso("A", 50), perso("B", 50), perso("C", 60)],
                                       [40, 40, 50], [50, 50, 30, 70])
    lines = init.explain()
    assert ("Égalité à la marge 10 entre A, B et C, départagée par la HAB, la plus haute "
            "d’abord (A a 50, B a 50, C a 60), puis au d100, le plus haut d’abord (manche "
            "1 : A fait 50, B fait 50 ; manche 2 : A fait 30, B fait 70), d’où l’ordre C, "
            "B, A (RB-INIT-2).") in lines, lines
    for line in lines:
        assert not re.search(r"\b(?!HAB\b|RB\b)[A-Z]\w* \d", line), line
        assert all(top_level_colons(c) <= 1 for c in clauses(line)), line


def test_encounter_start_order_rb_init_1() -> None:
    """RB-INIT-1: at the start every character rolls; the log shows each roll."""
    enc = begin()
    assert enc.turn == 1 and enc.current == "Aldric"
    assert enc.state.order == ["Aldric", "Vif", "Brune", "Grolk"]
    inits = events(enc, "initiative")
    assert [(e.actor, [d.value for d in e.dice]) for e in inits] == [
        ("Aldric", [30]), ("Brune", [30]), ("Grolk", [30]), ("Vif", [30])]
    assert all("RB-INIT-1" in e.rules for e in inits)
    assert rb.encounter_initiative(enc).order == ("Aldric", "Vif", "Brune", "Grolk")


def test_encounter_critical_success_turn_0_rb_init_3() -> None:
    """RB-INIT-3: turn 0 with the critical success only, then turn 1 for all."""
    enc = begin(rolls=(30, 4, 30, 30))  # Brune critical
    assert enc.turn == 0 and enc.state.order == ["Brune"]
    assert [e.actor for e in events(enc, "tour_0")] == ["Brune"]
    end(enc)
    assert enc.turn == 1 and enc.state.order == ["Brune", "Aldric", "Vif", "Grolk"]


def test_encounter_critical_failure_waits_turn_2_rb_init_4() -> None:
    """RB-INIT-4: no activation in turns 0 and 1, none out of turn either."""
    enc = begin(rolls=(3, 30, 99, 30))  # Aldric critical, Grolk critical failure
    assert enc.state.order == ["Aldric"]
    with pytest.raises(IllegalActionError, match="RB-INIT-4"):
        enc.act("Grolk", "deplacement")
    end(enc)
    assert enc.turn == 1 and "Grolk" not in enc.state.order
    with pytest.raises(IllegalActionError, match="RB-INIT-4"):
        enc.act("Grolk", "deplacement")
    end(enc, 3)
    assert enc.turn == 2 and enc.state.order[-1] == "Grolk"
    enc.act("Grolk", "deplacement")  # from turn 2 on, an out-of-turn move is fine
    assert activations(enc) == {0: ["Aldric"], 1: ["Aldric", "Vif", "Brune"],
                                2: ["Aldric"]}
