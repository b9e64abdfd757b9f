"""The Rulebook rules kernel seen from the engine (as
``escarmouche.systems.d20.kernel_doors`` for d20): a kernel's fight written back as the
engine's ``Encounter`` in today's save format (:func:`write_back`), and a log tuple told
as the engine's sentences (:func:`narrate`), and a started engine fight read as the
kernel's state (:func:`read_state`). None of them is on the simulation path: the
equivalence tests (``tests/test_rulebook_kernel.py``) and a reader of the log call them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from escarmouche.state import EncounterState
from escarmouche.systems.rulebook.actions import (
    FLAG_ACTION,
    FLAG_MOVE,
    FLAG_POSTURE,
    FLAG_POSTURE_USED,
)
from escarmouche.systems.rulebook.initiative import Initiative
from escarmouche.systems.rulebook.kernel import ATTACK, HYPO, Sheet, State
from escarmouche.systems.rulebook.narration import (
    SIMULATED_HIT,
    damage_sentence,
    hypoactivity_sentence,
    offensive_head,
)
from escarmouche.systems.rulebook.rules import ECLAT
from escarmouche.text import fmt
from escarmouche.text.typo import typographie

__all__ = ["NARRATED", "narrate", "read_state", "write_back"]

#: the kinds of the engine's events that :func:`narrate` tells, in their order
NARRATED = frozenset({"attaquer", "hors_combat", "hypoactivite"})


def write_back(sheet: Sheet, st: State) -> Any:
    """The fight ``st`` as the engine's ``Encounter`` (simulation mode): every track,
    flag and counter as the engine writes them (today's save format: the activation's
    flags, the initiative, the surprise), éclat back to its maximum when the fight is
    over (RB-END-3); the log is not narrated (an empty log)."""
    enc = sheet.probe.simulated()
    state = enc.state
    state.log = []
    state.turn, state.cursor = st.turn, st.cursor
    state.finished, state.outcome = st.finished, st.outcome
    state.order = [sheet.names[i] for i in st.order]
    state.activations = {sheet.names[i]: n for i, n in st.activations.items()}
    state.system_state = {}
    if st.surprise is not None:
        state.system_state["surprise"] = {"surprise_by": sheet.surprise_by,
                                          **st.surprise.to_json()}
    state.system_state["initiative"] = st.initiative.to_json()
    for i, f in enumerate(state.fighters.values()):
        f.tracks["PV"] = st.pv[i]
        f.out = st.out[i]
        if st.finished and ECLAT in f.tracks:
            f.tracks[ECLAT] = max(f.tracks[ECLAT], f.maxima.get(ECLAT, f.tracks[ECLAT]))
        f.flags.update({FLAG_ACTION: st.acted[i], FLAG_POSTURE_USED: st.posed[i],
                        FLAG_MOVE: st.moved[i], FLAG_POSTURE: None})
    return enc


def narrate(sheet: Sheet, entry: tuple[Any, ...]) -> list[str]:
    """The French sentences of one tuple of the kernel's log, as the engine's log holds
    them (typeset as ``Ctx.emit`` does), for the kinds of :data:`NARRATED`: the
    automatic hit (RB-ACT-1, RB-END-2, the simulation variant) and, when its target
    falls, « hors de combat » (RB-END-2); Hypoactivité's d4 (RB-SPEED-1)."""
    names = sheet.names
    if entry[0] == HYPO:
        _, _, actor, roll, can_act = entry
        return [typographie(hypoactivity_sentence(names[actor], roll, can_act))]
    assert entry[0] == ATTACK
    _, _, actor, target, roll, before, after = entry
    shown = f"1d{sheet.faces[actor]} → {fmt.number(roll)}"
    head = offensive_head("attaquer", names[actor], names[target], SIMULATED_HIT, shown)
    said = [typographie(damage_sentence(head, roll, "PV", before, after))]
    if after <= 0 < before:
        said.append(typographie(f"{names[target]} est hors de combat (PV à {after})."))
    return said


def read_state(sheet: Sheet, state: EncounterState) -> State:
    """The kernel's state of a started fight of ``sheet``'s roster, read from the
    engine's state (today's save format): what :func:`.kernel.refusal` and
    :func:`.kernel.candidates` read (PV, out, the activation's flags, turn, order,
    cursor, the initiative); the surprise attempt is not read back (``None``)."""
    init = state.system_state["initiative"]
    assert isinstance(init, Mapping)
    st = State(sheet, Initiative.from_json(init), None)
    index = sheet.index
    st.turn, st.cursor = state.turn, state.cursor
    st.finished, st.outcome = state.finished, state.outcome
    st.order = tuple(index[name] for name in state.order)
    st.in_turn = frozenset(st.order)
    st.activations = {index[name]: n for name, n in state.activations.items()}
    for i, f in enumerate(state.fighters.values()):
        st.pv[i], st.out[i] = int(f.tracks["PV"]), not f.standing
        st.acted[i] = bool(f.flags.get(FLAG_ACTION, False))
        st.posed[i] = bool(f.flags.get(FLAG_POSTURE_USED, False))
        st.moved[i] = bool(f.flags.get(FLAG_MOVE, False))
    return st
