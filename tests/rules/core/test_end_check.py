"""The rules kernels' end check, :class:`escarmouche.end_check.EndCheck` (CORE-END-1): the
engine's own ``end_outcome`` asked of a kernel's compact state, its answers kept."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import end_check
from escarmouche.end_check import EndCheck
from escarmouche.model import Combatant
from escarmouche.state import EncounterState, EndCondition, FighterState, end_outcome

SIDES = ("héros", "orques", "gobelins")


def _fight(sides: list[int], conditions: list[EndCondition]) -> EncounterState:
    fighters = {f"F{i}": FighterState(Combatant(f"F{i}", SIDES[s], {"PV": 6}), {"PV": 6},
                                      {"PV": 6})
                for i, s in enumerate(sides)}
    return EncounterState("jouet", {}, fighters, conditions, 1, True)


def _fresh(sides: list[int], conditions: list[EndCondition], out: list[bool],
           values: list[int], turn: int, at_turn_end: bool) -> str | None:
    """``end_outcome`` on a fight built afresh with these fighters, as the engine asks it."""
    state = _fight(sides, conditions)
    for f, gone, value in zip(state.fighters.values(), out, values, strict=True):
        f.out, f.tracks["PV"] = gone, value
    state.turn = turn
    return end_outcome(state, at_turn_end)


@st.composite
def _conditions(draw: st.DrawFn, n: int) -> list[EndCondition]:
    kinds = draw(st.lists(st.sampled_from(["camp_hors_combat", "combattant_hors_combat",
                                           "tours"]), max_size=3))
    made = []
    for k, kind in enumerate(kinds):
        if kind == "camp_hors_combat":
            made.append(EndCondition(kind, f"issue {k}", side=draw(st.sampled_from(SIDES))))
        elif kind == "combattant_hors_combat":
            made.append(EndCondition(kind, f"issue {k}",
                                     name=f"F{draw(st.integers(0, n - 1))}"))
        else:
            made.append(EndCondition(kind, f"issue {k}", turns=draw(st.integers(1, 4))))
    return made


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_end_check_answers_as_end_outcome_asked_afresh_core_end_1(data: st.DataObject) -> None:
    """CORE-END-1: whatever the fighters, sides and end conditions, each answer of one
    :class:`EndCheck`, asked again and again of changing states (its kept answers
    included), is ``end_outcome``'s on the fight built afresh."""
    sides = data.draw(st.lists(st.integers(0, 2), min_size=2, max_size=5))
    conditions = data.draw(_conditions(len(sides)))
    check = EndCheck(_fight(sides, conditions), "PV")
    for _ in range(data.draw(st.integers(1, 12))):
        out = data.draw(st.lists(st.booleans(), min_size=len(sides), max_size=len(sides)))
        values = [0 if gone else 6 for gone in out]
        turn = data.draw(st.integers(1, 6))
        at_turn_end = data.draw(st.booleans())
        assert check(out, values, turn, at_turn_end) == _fresh(
            sides, conditions, out, values, turn, at_turn_end)


def test_end_check_keeps_a_bounded_number_of_answers_core_end_1(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """CORE-END-1: the answers kept are bounded (:data:`END_ANSWERS`: then all are
    forgotten), and a condition « tours » is read at a turn's end with the turn."""
    monkeypatch.setattr(end_check, "END_ANSWERS", 3)
    conditions = [EndCondition("tours", "tenu", turns=3)]
    check = EndCheck(_fight([0, 1], conditions), "PV")
    answers = [check([False, False], [6, 6], turn, True) for turn in range(1, 8)]
    held = _fresh([0, 1], conditions, [False, False], [6, 6], 3, True)
    assert held is not None
    assert answers == [None, None, held, held, held, held, held]
    assert len(check._answers) <= 3
    assert check([False, False], [6, 6], 5, False) is None  # not at a turn's end
    assert check([False, True], [6, 0], 5, False) is None  # a condition is set: no last side
