"""The d20 rules kernel seen from the engine (as ``escarmouche.systems.d100.kernel_doors``
for d100): a kernel's fight written back as the engine's ``Encounter`` in today's save
format (:func:`write_back`) and read from it (:func:`read_state`), and a log tuple told
as the engine's sentences (:func:`narrate`). None of them is on the simulation path:
the equivalence tests (``tests/test_d20_kernel.py``) and a reader of the log call them.
:func:`view` reads a live engine fight as the kernel's sheet and state, for the
engine's door ``D20System.moves``: automated play's moves are the kernel's
:func:`.kernel.candidates`.
"""

from __future__ import annotations

from typing import Any

from escarmouche.state import Ctx, EncounterState
from escarmouche.systems.d20.actions import slot_cost
from escarmouche.systems.d20.initiative import D20Initiative
from escarmouche.systems.d20.kernel import ATTACK, MOVE, OPPORTUNITY, POINT, Sheet, State
from escarmouche.systems.d20.narration import (
    attack_sentence,
    move_sentence,
    point_sentence,
)
from escarmouche.systems.d20.rules import ATTACK_RANGES, TRACK
from escarmouche.systems.d20.turn import plan_turn
from escarmouche.systems.views import LiveSheets
from escarmouche.text.typo import typographie

__all__ = ["NARRATED", "narrate", "read_state", "view", "write_back"]

#: the kinds of the engine's events that :func:`narrate` tells, in their order
NARRATED = frozenset({"attaque", "deplacement", "point_action"})


def write_back(sheet: Sheet, st: State) -> Any:
    """The fight ``st`` as the engine's ``Encounter`` (simulation mode): every track,
    flag and counter as the engine writes them (today's save format: ``pos``, ``pa``,
    ``budget``, ``opportunite``, ``immediate``, the initiative); the log is not narrated
    (an empty log)."""
    enc = sheet.probe.simulated()
    state = enc.state
    state.log = []
    state.turn, state.cursor = st.turn, st.cursor
    state.finished, state.outcome = st.finished, st.outcome
    state.order = [sheet.names[i] for i in st.order]
    state.activations = {sheet.names[i]: n for i, n in st.activations.items()}
    state.system_state["initiative"] = st.initiative.to_json()
    for i, f in enumerate(state.fighters.values()):
        f.tracks[TRACK] = st.hp[i]
        f.out = st.out[i]
        square = st.pos[i]
        key = st.opportunity[i]
        f.flags.update({
            "pos": None if square is None else list(square), "pa": st.pa[i],
            "budget": {"actions": list(st.budget[i]), "points": st.points[i]},
            "opportunite": None if key is None else list(key),
            "immediate": st.immediate[i]})
    return enc


#: the sheets of live engine fights (:func:`view`), one per roster and rules (what the
#: sheet reads of them does not change during a fight)
_SHEETS: LiveSheets[Sheet] = LiveSheets(lambda ctx: Sheet(ctx, {}))


def view(ctx: Ctx[Any], actor: str) -> tuple[Sheet, State, int]:
    """The kernel's sheet and state of a live engine fight as ``actor`` sees it now, and
    its index (-1: no such fighter, or the fight not started), for the engine's door
    ``D20System.moves``: the sheet is compiled once per roster and rules (what it reads
    of them does not change during a fight) and kept; the state holds what
    :func:`.kernel.candidates` reads: everyone's square, PV and whether it stands (a
    fighter fled stands no more), the order and cursor, ``actor``'s turn budget and
    action points (today's save format)."""
    state = ctx.state
    fighters = list(state.fighters.values())
    if not state.started:
        return Sheet.__new__(Sheet), State.__new__(State), -1
    sheet = _SHEETS.sheet(ctx)
    me = sheet.index.get(actor, -1)
    n = len(fighters)
    st = State.__new__(State)
    st.finished, st.turn, st.cursor = state.finished, state.turn, state.cursor
    st.order = tuple(sheet.index.get(name, -1) for name in state.order)
    st.out = [not f.standing for f in fighters]
    st.hp = [int(f.tracks[TRACK]) for f in fighters]
    st.pos = [None if not isinstance(p := f.flags.get("pos"), list)
              else (int(str(p[0])), int(str(p[1]))) for f in fighters]
    st.budget, st.points, st.pa = [()] * n, [0] * n, [0] * n
    if me >= 0 and state.started:
        flags = fighters[me].flags
        budget = flags["budget"]
        assert isinstance(budget, dict)
        st.budget[me] = tuple(str(a) for a in budget["actions"])
        st.points[me] = int(str(budget["points"]))
        st.pa[me] = int(str(flags["pa"]))
    elif not state.started:
        me = -1
    return sheet, st, me


def read_state(sheet: Sheet, state: EncounterState) -> State:
    """The kernel's state of a started fight of ``sheet``'s roster, read from the
    engine's state (today's save format): the inverse of :func:`write_back` (the log
    aside)."""
    init = state.system_state["initiative"]
    assert isinstance(init, dict)
    st = State(sheet, D20Initiative.from_json(init))
    index = sheet.index
    st.turn, st.cursor = state.turn, state.cursor
    st.finished, st.outcome = state.finished, state.outcome
    st.activations = {index[name]: n for name, n in state.activations.items()}
    for i, f in enumerate(state.fighters.values()):
        flags = f.flags
        st.hp[i], st.out[i] = int(f.tracks[TRACK]), f.out
        square, key, budget = flags["pos"], flags["opportunite"], flags["budget"]
        assert isinstance(budget, dict)
        st.pos[i] = None if not isinstance(square, list) else (int(str(square[0])),
                                                               int(str(square[1])))
        st.opportunity[i] = None if not isinstance(key, list) else (int(str(key[0])),
                                                                   int(str(key[1])))
        st.pa[i] = int(str(flags["pa"]))
        st.budget[i] = tuple(str(a) for a in budget["actions"])
        st.points[i] = int(str(budget["points"]))
        st.immediate[i] = bool(flags["immediate"])
    return st


def narrate(sheet: Sheet, entry: tuple[Any, ...]) -> list[str]:
    """The French sentences of one tuple of the kernel's log, as the engine's log holds
    them (typeset as ``Ctx.emit`` does), for the kinds of :data:`NARRATED`: an attack
    (its cost said when nothing announced it, D20-ACT-1..3) or an opportunity attack
    (D20-OPP-1/2); a move (D20-ACT-1) that nothing stopped; an
    action point spent (D20-ACT-3)."""
    kind = entry[0]
    names = sheet.names
    if kind == POINT:
        _, _, actor, left, _ = entry
        return [typographie(point_sentence(names[actor], left))]
    if kind == MOVE:
        _, _, actor, squares, stop, used, points, reactors = entry
        if stop >= 0:
            return []
        announced = bool(reactors)
        cost = "" if announced else _cost(used, points, sheet)
        return [typographie(move_sentence(names[actor], squares, announced, cost))]
    if kind not in (ATTACK, OPPORTUNITY):
        return []
    _, _, actor, target, roll, damage, left, used, points = entry
    label = f"Attaque {ATTACK_RANGES['corps_a_corps'][1]}" if kind == ATTACK else "Attaque"
    cost = _cost(used, points, sheet) if kind == ATTACK else ""
    return [typographie(attack_sentence(
        label, names[actor], names[target], roll, sheet.bonus[actor], sheet.defence[target],
        None if damage < 0 else damage, sheet.weapon, left, cost=cost))]


def _cost(used: tuple[str, ...], points: int, sheet: Sheet) -> str:
    """The cost of the last action of a turn that used ``used`` (D20-ACT-1..3)."""
    plan = plan_turn(used, action_points=points, rules=sheet.rules)
    return slot_cost(plan, len(used) - 1)[0]
