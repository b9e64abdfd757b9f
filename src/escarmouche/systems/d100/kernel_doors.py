"""The d100 rules kernel seen from the engine: a live ``Encounter`` read as the kernel's
sheet and state (:func:`view`, :func:`read_state`) and written back into the engine's
(:func:`commit`, :func:`write_back`), in today's save format.

The engine's doors (``D100System.moves``, ``check_legal``, « préparer une parade »,
« recharger ») ask :mod:`.kernel` through :func:`view`; the equivalence tests
(``tests/rules/d100/test_kernel.py``) read a fight both ways. The kernel itself
(:mod:`.kernel`: sheet, state, moves, refusals, play) knows nothing of the engine's
objects beyond its compilation.
"""

from __future__ import annotations

from typing import Any

from escarmouche.state import Ctx, EncounterState, FighterState
from escarmouche.systems.d100.actions import Extended, extended_of
from escarmouche.systems.d100.initiative import Initiative, InitiativeEntry
from escarmouche.systems.d100.kernel import ACTION_CODES, ACTIONS, Sheet, State
from escarmouche.systems.d100.rules import HANDS, TRACK
from escarmouche.systems.views import LiveSheets

__all__ = ["commit", "read_state", "view", "write_back"]


#: the sheets of live engine fights (:func:`view`), one per shape of a fight (with the
#: weapons in hand and the start options the sheet reads: names and sides are the
#: combatants')
_SHEETS: LiveSheets[Sheet] = LiveSheets(lambda ctx: Sheet(ctx, {}))


def view(ctx: Ctx[Any], actor: str, everyone: bool = True) -> tuple[Sheet, State, int]:
    """The kernel's sheet and state of a live engine fight as ``actor`` sees it now, and
    its index (-1: no such fighter), for the engine's doors (``D100System.moves``,
    ``check_legal``): the sheet is compiled once per shape of the fight (its fighters and
    the weapons in their hands, the catalogue, the start options it reads, the rules)
    and kept; the state holds what :func:`candidates` and :func:`refusal` read of
    ``actor`` (its turn plan, extended action, loaded weapons, prepared parry) and of
    everyone (out or fled, wounds, ground to cross), read from the engine's
    (today's save format, as :func:`read_state`); with ``everyone`` false, of ``actor``
    only (what :func:`refusal` reads when no target is named)."""
    state = ctx.state
    ss = state.system_state
    fighters = list(state.fighters.values())
    sheet = _SHEETS.sheet(ctx, ([f.flags["hands"] for f in fighters], ss.get("weapons"),
                                ss.get("shots"), ss.get("surprised"), bool(ss.get("terrain"))))
    index = sheet.index
    n = len(fighters)
    st = State.__new__(State)
    st.finished, st.turn = state.finished, state.turn
    st.turn_order = tuple(index.get(name, -1) for name in state.order)
    st.cursor = state.cursor
    me = index.get(actor, -1)
    ground = ss.get("terrain")
    if everyone:
        st.out = [not f.standing for f in fighters]
        st.wounds = [f.tracks[TRACK] for f in fighters]
        st.ground = [None] * n if not ground else [
            None if (e := ground.get(f.name)) is None else
            [e[k] for k in ("hauteur", "fosse", "elan", "chute")] for f in fighters]
    else:
        st.out, st.wounds, st.ground = [False] * n, [0] * n, [None] * n
        if me >= 0:
            st.out[me] = not fighters[me].standing
            e = ground.get(actor) if ground else None
            if e is not None:
                st.ground[me] = [e[k] for k in ("hauteur", "fosse", "elan", "chute")]
    st.prepared, st.loaded = [False] * n, [[False, False]] * n
    st.extended, st.ext_start, st.ext_hand = [None] * n, [None] * n, [None] * n
    st.plan, st.plans, st.log = (), [()] * n, []
    if me >= 0:
        flags = fighters[me].flags
        st.prepared[me] = bool(flags["parry_prepared"])
        loaded = flags["loaded"]
        st.loaded[me] = [bool(loaded[h]) for h in HANDS]
        st.extended[me] = extended_of(flags["extended"])
        st.ext_start[me] = extended_of(flags["extended_at_start"])
        hand = flags["extended_hand"]
        st.ext_hand[me] = None if hand is None else HANDS.index(str(hand))
        st.plan = st.plans[me] = tuple((ACTION_CODES[str(a)], int(k))
                                       for a, k in flags["plan"])
    return sheet, st, me


def commit(st: State, me: int, f: FighterState) -> None:
    """Write what :func:`play` changed of fighter ``me`` on a :func:`view` into the
    engine's fighter ``f`` (today's save format): its loaded weapons, prepared parry,
    turn plan and extended action under way."""
    hand = st.ext_hand[me]
    f.flags.update({
        "loaded": {**f.flags["loaded"], **dict(zip(HANDS, st.loaded[me], strict=True))},
        "parry_prepared": st.prepared[me],
        "plan": [[ACTIONS[a], k] for a, k in st.plan],
        "extended": _ext_json(st.extended[me]),
        "extended_hand": None if hand is None else HANDS[hand]})


def _ext_json(ext: Extended | None) -> Any:
    return None if ext is None else ext.to_json()


def write_back(sheet: Sheet, st: State) -> Any:
    """The fight ``st`` as the engine's ``Encounter`` (simulation mode): every track,
    flag and counter as the engine writes them (today's save format); the log is not
    narrated (an empty log)."""
    enc = sheet.probe.simulated()
    state = enc.state
    state.log = []
    state.turn, state.cursor = st.turn, st.cursor
    state.finished, state.outcome = st.finished, st.outcome
    state.order = [sheet.names[i] for i in st.turn_order]
    state.activations = {sheet.names[i]: n for i, n in st.activations.items()}
    init = st.initiative
    if isinstance(init, tuple):  # as drawn: the engine's record of it
        d10, rolloffs, order = init
        init = Initiative(tuple(InitiativeEntry(n, a, d) for n, a, d in zip(
            sheet.names, sheet.agility, d10, strict=True)), rolloffs, order).to_json()
    state.system_state["initiative"] = init
    state.system_state["order"] = [sheet.names[i] for i in st.order]
    terrain = state.system_state.get("terrain")
    if terrain:
        state.system_state["terrain"] = {
            name: dict(zip(("hauteur", "fosse", "elan", "chute"), g, strict=True))
            for name, g in zip(sheet.names, st.ground, strict=True) if g is not None}
    for i, f in enumerate(state.fighters.values()):
        f.tracks[TRACK] = st.wounds[i]
        f.out = st.out[i]
        hand = st.ext_hand[i]
        f.flags.update({
            "parry_prepared": st.prepared[i], "parries": st.parries[i],
            "dodges": st.dodges[i], "plan": [[ACTIONS[a], k] for a, k in st.plans[i]],
            "loaded": dict(zip(HANDS, st.loaded[i], strict=True)),
            "extended": _ext_json(st.extended[i]),
            "extended_at_start": _ext_json(st.ext_start[i]),
            "extended_hand": None if hand is None else HANDS[hand]})
    return enc


def read_state(sheet: Sheet, state: EncounterState) -> State:
    """The kernel's state of a started fight of ``sheet``'s roster, read from the
    engine's state (today's save format): the inverse of :func:`write_back` (the log
    aside)."""
    index = {name: i for i, name in enumerate(sheet.names)}
    ss = state.system_state
    st = State(sheet, [str(n) for n in ss["order"]], ss["initiative"])
    st.turn, st.cursor = state.turn, state.cursor
    st.finished, st.outcome = state.finished, state.outcome
    st.turn_order = tuple(index[name] for name in state.order)
    st.activations = {index[name]: n for name, n in state.activations.items()}
    ground = ss.get("terrain") or {}
    for i, f in enumerate(state.fighters.values()):
        flags = f.flags
        st.wounds[i], st.out[i] = f.tracks[TRACK], f.out
        st.prepared[i] = bool(flags["parry_prepared"])
        st.parries[i], st.dodges[i] = int(flags["parries"]), int(flags["dodges"])
        st.loaded[i] = [bool(flags["loaded"][h]) for h in HANDS]
        st.extended[i] = extended_of(flags["extended"])
        st.ext_start[i] = extended_of(flags["extended_at_start"])
        hand = flags["extended_hand"]
        st.ext_hand[i] = None if hand is None else HANDS.index(str(hand))
        st.plans[i] = tuple((ACTION_CODES[str(a)], int(k)) for a, k in flags["plan"])
        entry = ground.get(f.name)
        st.ground[i] = None if entry is None else [
            entry[k] for k in ("hauteur", "fosse", "elan", "chute")]
    current = state.current
    st.plan = st.plans[index[current]] if current in index else ()
    return st
