"""The Rulebook rules kernel seen from the engine (as
``escarmouche.systems.d100.kernel_doors`` for d100): a kernel's fight written back as the
engine's ``Encounter`` in today's save format (:func:`write_back`), a log tuple told as
the engine's sentences (:func:`narrate`), a started engine fight read as the kernel's
state (:func:`read_state`), and the full engine's whole fight played on the kernel, its
log narrated from the kernel's tuples (:func:`narrated_run`, what ``Roster.play`` runs).
None of them is on the simulation path: the equivalence tests
(``tests/rules/rulebook/test_kernel.py``), ``Roster.play`` and a reader of the log call
them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from escarmouche.encounter import (
    activation_words,
    emit_end,
    turn_end_sentence,
    turn_start_sentence,
)
from escarmouche.model import DieRecord
from escarmouche.rng import Rng
from escarmouche.state import Ctx, EncounterState, out_sentence
from escarmouche.systems.base import System
from escarmouche.systems.rulebook import kernel
from escarmouche.systems.rulebook.actions import (
    FLAG_ACTION,
    FLAG_MOVE,
    FLAG_POSTURE,
    FLAG_POSTURE_USED,
)
from escarmouche.systems.rulebook.initiative import Initiative, turn_filter
from escarmouche.systems.rulebook.kernel import ATTACK, HYPO, Sheet, State
from escarmouche.systems.rulebook.narration import (
    SIMULATED_HIT,
    SURPRISE_DICE,
    damage_sentence,
    dice_shown,
    hypoactivity_die,
    hypoactivity_sentence,
    offensive_head,
    turn_order_notes,
)
from escarmouche.systems.rulebook.rules import ECLAT, knocked_out
from escarmouche.systems.rulebook.speed import HypoactivityCheck, SpeedOrder, apply_speed
from escarmouche.systems.rulebook.system import (
    emit_eclat_regenerated,
    emit_hypoactivity,
    emit_initiative,
    emit_surprise,
    emit_turn_order,
)
from escarmouche.text.typo import typographie

__all__ = ["NARRATED", "narrate", "narrated_run", "read_state", "write_back"]

#: the kinds of the engine's events that :func:`narrate` tells, in their order
NARRATED = frozenset({"attaquer", "hors_combat", "hypoactivite"})


def write_back(sheet: Sheet, st: State, *, fast: bool = True) -> Any:
    """The fight ``st`` as the engine's ``Encounter`` (simulation mode, or the full
    engine's with ``fast`` false): every track, flag and counter as the engine writes
    them (today's save format: the activation's flags, the initiative, the surprise),
    éclat back to its maximum when the fight is over (RB-END-3); the log is not narrated
    (an empty log: :func:`narrated_run` narrates it)."""
    probe = sheet.probe
    if fast:
        enc = probe.simulated()
    else:
        blank = sheet.blank
        if blank is None:  # the probe in the full engine, without its throwaway records
            blank = probe.copy(fast=False)
            blank.state.log, blank.state.system_state = [], {}
            sheet.blank = blank
        enc = blank.copy()
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
    falls, « hors de combat » (RB-END-2); Hypoactivité's d4 (RB-SPEED-1). The marks of
    the fight's course (turns, activations) say nothing here (:func:`narrated_run`
    tells them)."""
    names = sheet.names
    if entry[0] == HYPO:
        _, _, actor, roll, can_act = entry
        return [typographie(hypoactivity_sentence(names[actor], roll, can_act))]
    if entry[0] != ATTACK:
        return []
    _, _, actor, target, roll, before, after = entry
    said = [typographie(damage_sentence(_hit_head(sheet, actor, target, roll), roll, "PV",
                                        before, after))]
    if after <= 0 < before:
        said.append(typographie(out_sentence(names[target], "PV", after)))
    return said


def _hit_head(sheet: Sheet, actor: int, target: int, roll: int) -> str:
    """The start of the automatic hit's sentence (``RulebookSystem.auto_action``: the
    simulation variant's 1dN, named :data:`.narration.SIMULATED_HIT`)."""
    return offensive_head("attaquer", sheet.names[actor], sheet.names[target],
                          SIMULATED_HIT, dice_shown(f"1d{sheet.faces[actor]}", roll))


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


# -- the full engine on the kernel ---------------------------------------------------------

#: the rules of a fighter out of the fight (RB-END-2, ``Ctx.change_track``)
_OUT_RULES = ("RB-END-2",)


def narrated_run(sheet: Sheet, rng: Rng, max_turns: int) -> Any:
    """``System.narrated_run`` for the Rulebook kernel (the model:
    ``escarmouche.systems.d100.kernel_doors.narrated_run``): the fight played by
    :func:`.kernel.run`, written back (:func:`write_back`) and its log narrated from the
    kernel's tuples; ``tests/rules/rulebook/test_kernel.py`` holds the whole save to the
    engine's. Every fight the kernel covers is narrated (:func:`.kernel.compile_sheet` leaves
    the others to the engine)."""
    st = kernel.run(sheet, rng.randint, max_turns)
    enc = write_back(sheet, st, fast=False)
    _narrate(sheet, st, Ctx(enc.state, enc.system, enc.rules, None), enc.system)
    return enc


def _narrate(sheet: Sheet, st: State, ctx: Ctx[Any], system: System[Any]) -> None:
    """Write the events of the kernel's fight ``st`` into the log of ``ctx``'s state, as
    the engine's operations emit them: the start (the surprise attempt, the initiative:
    ``RulebookSystem.start``), each global turn's start (``Encounter._begin_turn``, its
    explained order and the movement back: ``RulebookSystem.on_turn_start``) and end
    (``Encounter._end_turn``), each activation (``Encounter._start_activation``,
    Hypoactivité's d4: ``RulebookSystem.on_activation_start``), each automatic hit
    (``attaquer``; a fighter out, ``Ctx.change_track``) and the end of the fight
    (``Encounter._finish``, éclat regenerated: ``RulebookSystem.on_end``).

    The events of every activation (a hit, a fighter out, the activation itself, a turn's
    start and end: most of a log) are appended by ``Ctx.record`` (what ``Ctx.emit``
    appends in the full engine), their words typeset once per shape and kept on the
    sheet (``Sheet.told``, a bounded memo); the others through the engine's own functions
    (:func:`.system.emit_initiative` …)."""
    state = ctx.state
    record = ctx.record
    names, faces, esprit = sheet.names, sheet.faces, sheet.esprit
    out = [False] * len(names)
    hit_rules = tuple(dict.fromkeys([*system.catalogue(ctx.rules)["attaquer"].rules,
                                     "RB-END-2"]))
    init = st.initiative
    final_turn = state.turn
    state.turn = 0
    if st.surprise is not None:
        res = st.surprise
        assert sheet.surprise_by is not None
        emit_surprise(ctx, sheet.surprise_by, res, tuple(
            DieRecord(100, t.roll, SURPRISE_DICE) for t in (res.attack, res.defence)
            if t is not None))
    emit_initiative(ctx, init)
    told = sheet.told
    turn = state.turn
    turn_rules = tuple(system.turn_rules)
    for entry in st.log:
        code = entry[0]
        if code == ATTACK:
            key = entry[2:]
            hit = told.get(key)
            if hit is None:
                _, _, i, j, roll, before, after = entry
                head = _hit_head(sheet, i, j, roll)
                hit = told.put(key, (
                    names[i], typographie(damage_sentence(head, roll, "PV", before, after)),
                    {"cible": names[j], "piste": "PV", "degats": roll, "avant": before,
                     "apres": after, "nom": SIMULATED_HIT},  # flat: each event copies it
                    (DieRecord(faces[i], roll),), j, names[j],
                    typographie(out_sentence(names[j], "PV", after))
                    if knocked_out(after, esprit[j]) else None,  # RB-END-2
                    {"track": "PV", "value": after}))
            record("attaquer", hit[1], hit[0], hit_rules, hit[3], dict(hit[2]))
            if hit[6] is not None:
                out[hit[4]] = True
                record("hors_combat", hit[6], hit[5], _OUT_RULES, (), dict(hit[7]))
        elif code == kernel.ACTIVATION:
            key = ("a", entry[2], entry[3])
            act = told.get(key)
            if act is None:
                name = names[entry[2]]
                act = told.put(key, (name, typographie(activation_words(system, name)[0]),
                                     entry[3]))
            record("activation", act[1], act[0], (), (), {"activation": act[2]})
        elif code == HYPO:
            _, _, i, roll, can_act = entry
            emit_hypoactivity(ctx, names[i], HypoactivityCheck(roll, can_act),
                              (DieRecord(4, roll, hypoactivity_die(names[i])),))
        elif code == kernel.TURN_BEGIN:
            turn = state.turn = entry[1]
            key = ("b", turn, entry[2])
            begin = told.get(key)
            if begin is None:
                slots = tuple(names[k] for k in entry[2])
                begin = told.put(key, (slots,
                                       typographie(turn_start_sentence(system, turn, slots))))
            slots = begin[0]
            record("debut_tour", begin[1], None, turn_rules, (), {"order": list(slots)})
            speed, notes = _order(sheet, init, turn, out)
            emit_turn_order(ctx, turn, slots, notes, speed.to_json() if notes else None)
        elif code == kernel.TURN_END:
            key = ("e", turn)
            text = told.get(key)
            if text is None:
                text = told.put(key, typographie(turn_end_sentence(system, turn)))
            record("fin_tour", text)
        else:  # pragma: no cover - every tuple of the kernel's log is told above
            raise AssertionError(f"log entry {entry!r} not narrated")
    state.turn = final_turn
    if st.finished and st.outcome is not None:
        emit_end(ctx, system, st.outcome)
        for f in sheet.probe.state.fighters.values():  # RB-END-3 (éclat never spent here)
            if ECLAT in f.tracks:
                before = f.tracks[ECLAT]
                emit_eclat_regenerated(ctx, f.name, before,
                                       max(before, f.maxima.get(ECLAT, before)))


def _order(sheet: Sheet, init: Initiative, turn: int, out: list[bool]
           ) -> tuple[SpeedOrder, tuple[str, ...]]:
    """Global turn ``turn``'s order after the speed effects of the standing fighters'
    traits (:func:`.speed.apply_speed`, RB-SPEED-2/3) and the notes that explain its
    slots (:func:`.narration.turn_order_notes`), as ``RulebookSystem.turn_order`` finds
    them; kept on the sheet per shape of a turn (:meth:`.kernel.Sheet.turn_order`'s,
    bounded)."""
    cache = sheet.orders_told
    key = (init.order, init.turn_zero, init.late, init.surprise_by, min(turn, 2),
           tuple(out))
    known = cache.get(key)
    if known is None:
        standing = [n for n in init.order if not out[sheet.index[n]]]
        profiles = sheet.profiles
        speed = apply_speed(standing, {n: profiles[n] for n in standing if n in profiles},
                            sheet.rules)
        include, exclude = turn_filter(turn, init.turn_zero, init.late)
        slots = speed.slots(include, exclude=exclude, twice=turn > 0)
        known = cache.put(key, (speed, tuple(turn_order_notes(turn, speed, slots, init.late,
                                                              init.surprise_by))))
    return known
