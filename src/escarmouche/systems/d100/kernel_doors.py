"""The d100 rules kernel seen from the engine: a live ``Encounter`` read as the kernel's
sheet and state (:func:`view`, :func:`read_state`) and written back into the engine's
(:func:`commit`, :func:`write_back`), in today's save format; a whole fight played on
the kernel and narrated from its log as the full engine narrates it
(:func:`narrated_run`, what ``Roster.play`` plays).

The engine's doors (``D100System.moves``, ``check_legal``, « préparer une parade »,
« recharger ») ask :mod:`.kernel` through :func:`view`; the equivalence tests
(``tests/rules/d100/test_kernel.py``) read a fight both ways. The kernel itself
(:mod:`.kernel`: sheet, state, moves, refusals, play) knows nothing of the engine's
objects beyond its compilation.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from escarmouche.rng import Rng
from escarmouche.state import Ctx, EncounterState, FighterState, out_sentence
from escarmouche.systems.d100 import kernel
from escarmouche.systems.d100.actions import Extended, extended_of, fight_weapons, held
from escarmouche.systems.d100.attack import AttackSetup, Guard, attack_setup, resolve_attack
from escarmouche.systems.d100.initiative import Initiative, InitiativeEntry
from escarmouche.systems.d100.kernel import ACTION_CODES, ACTIONS, Sheet, State
from escarmouche.systems.d100.narration import (
    ROUND_SECONDS,
    expired_parry_sentence,
    initiative_sentence,
    logged_attack_sentence,
    prepared_parry_sentence,
    reload_sentence,
    surprise_over_sentence,
    surprise_sentence,
    time_sentence,
)
from escarmouche.systems.d100.rules import ACTION_DEFS, HANDS, TRACK, Weapon, get_weapon
from escarmouche.systems.views import LiveSheets
from escarmouche.text.typo import typographie

__all__ = ["commit", "narrated_run", "read_state", "view", "write_back"]


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


def _initiative(sheet: Sheet, st: State) -> Initiative | Any:
    """The initiative of ``st`` as the engine's record (:class:`.initiative.Initiative`)
    when drawn by the kernel, or its JSON as read from a save."""
    init = st.initiative
    if isinstance(init, tuple):  # as drawn: the engine's record of it
        d10, rolloffs, order = init
        return Initiative(tuple(InitiativeEntry(n, a, d) for n, a, d in zip(
            sheet.names, sheet.agility, d10, strict=True)), rolloffs, order)
    return init


def write_back(sheet: Sheet, st: State, *, fast: bool = True) -> Any:
    """The fight ``st`` as the engine's ``Encounter`` (simulation mode, or the full
    engine's with ``fast`` false): every track, flag and counter as the engine writes
    them (today's save format); the log is not narrated (an empty log:
    :func:`narrated_run` narrates it)."""
    probe = sheet.probe
    enc = probe.copy(fast=fast)
    state = enc.state
    state.log = []
    state.turn, state.cursor = st.turn, st.cursor
    state.finished, state.outcome = st.finished, st.outcome
    state.order = [sheet.names[i] for i in st.turn_order]
    state.activations = {sheet.names[i]: n for i, n in st.activations.items()}
    init = _initiative(sheet, st)
    state.system_state["initiative"] = init.to_json() if isinstance(init, Initiative) \
        else init
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


# -- the full engine on the kernel ---------------------------------------------------------



def narrated_run(sheet: Sheet, rng: Rng, max_turns: int) -> Any:
    """A whole fight of ``sheet``'s roster played by the rules kernel (:func:`.kernel.run`:
    the same dice, in the same order, as ``Encounter.start`` then ``Encounter.run``) and
    given as the full engine's ``Encounter``: its state written back (:func:`write_back`,
    today's save format) and its log narrated from the kernel's log tuples, event for
    event as the engine writes it (the same sentences, rules, dice and data: the
    equivalence tests, ``tests/rules/d100/test_kernel.py``, hold the whole save to the
    engine's). ``None`` when the narration does not cover the fight (ground to cross:
    the engine plays it)."""
    if not sheet.flat:
        return None
    st = kernel.run(sheet, rng.randint, max_turns)
    enc = write_back(sheet, st, fast=False)
    _narrate(sheet, st, enc)
    return enc


def _narrate(sheet: Sheet, st: State, enc: Any) -> None:
    """Write the events of the kernel's fight ``st`` into the log of ``enc``, as
    the engine's operations emit them: the start (the initiative, the surprise:
    ``D100System.start``), each round's start (``Encounter._begin_turn``, the surprise's
    end) and end (D100-TIME-1, ``Encounter._end_turn``), each activation (the parry that
    expires: ``D100System.on_activation_start``), each move (the doors' events:
    ``attaquer``, ``preparer_parade``, ``recharger``; a fighter out, ``Ctx.change_track``)
    and the end of the fight (``Encounter._finish``)."""
    from escarmouche.encounter import (
        activation_words,
        emit_end,
        turn_end_sentence,
        turn_start_sentence,
    )

    state, system, rules = enc.state, enc.system, enc.rules
    ctx: Ctx[Any] = Ctx(state, system, rules, None)
    record, told = ctx.record, sheet.told
    turn_rules = tuple(system.turn_rules)
    names = sheet.names
    n = len(names)
    out = [False] * n
    surprised = sheet.side_names[sheet.surprised] if sheet.surprised >= 0 else None
    final_turn = state.turn
    state.turn = 0
    init = _initiative(sheet, st)
    ctx.emit("initiative", lambda: initiative_sentence(init), rules=init.rules,
             data=init.to_json(), dice=init.dice)
    if surprised is not None:
        ctx.emit("surprise", surprise_sentence(surprised, rules.surprised_can_defend),
                 rules=("D100-SURPRISE-1",), data={"surprised": surprised})
    prepare_rules = (*ACTION_DEFS["preparer_parade"].rules, "D100-PARRY-3")
    reload_rules = ACTION_DEFS["recharger"].rules
    for entry in st.log:
        code = entry[0]
        if code == kernel.ATTACK:
            _, turn, i, j, hand, defence, roll, saved, d10, lost, guard, before = entry
            key = (i, j, hand, defence, guard, before, roll, saved, d10)
            blow = told.get(key)
            if blow is None:  # the engine's attack (attaquer), told once per shape
                result = resolve_attack(_setup(sheet, ctx, i, j, hand, defence, guard,
                                               before), roll, saved, d10)
                blow = told.put(key, (typographie(logged_attack_sentence(result)),
                                      result.rules, result.dice, result))
            # (the data written afresh for each event: cheaper than a copy of it)
            record("attaque", blow[0], names[i], blow[1], blow[2],
                   {"action": "attaquer", **blow[3].to_json()})
            if lost and before <= lost:  # out of the fight (D100-ATK-3)
                out[j] = True
                ctx.emit("hors_combat", out_sentence(names[j], TRACK, 0), actor=names[j],
                         rules=("D100-ATK-3",), data={"track": TRACK, "value": 0})
        elif code == kernel.ACTIVATION:
            _, turn, i, count, expires = entry
            words = told.get(("activation", i))
            if words is None:
                words = told.put(("activation", i),
                                 (typographie(activation_words(system, names[i])[0]),))
            record("activation", words[0], names[i], (), (), {"activation": count})
            if expires:  # D100-PARRY-3
                ctx.emit("parade_expiree", expired_parry_sentence(names[i]), actor=names[i],
                         rules=("D100-PARRY-3",))
        elif code == kernel.TURN_BEGIN:
            turn = state.turn = entry[1]
            key = ("debut_tour", turn, *[i for i in entry[2] if not out[i]])
            words = told.get(key)
            if words is None:
                words = told.put(key, (typographie(turn_start_sentence(
                    system, turn, [names[i] for i in key[2:]])),))
            record("debut_tour", words[0], None, turn_rules, (),
                   {"order": [names[i] for i in key[2:]]})
            if turn == 2 and surprised is not None:
                ctx.emit("fin_surprise", surprise_over_sentence(surprised),
                         rules=("D100-SURPRISE-1",))
        elif code == kernel.TURN_END:
            turn = entry[1]
            words = told.get(("fin_tour", turn))
            if words is None:
                words = told.put(("fin_tour", turn), (typographie(time_sentence(turn)),
                                 typographie(turn_end_sentence(system, turn))))
            record("temps", words[0], None, ("D100-TIME-1",), (),
                   {"seconds": turn * ROUND_SECONDS})
            record("fin_tour", words[1])
        elif code == kernel.PREPARE:
            ctx.emit("parade_preparee", prepared_parry_sentence(names[entry[2]]),
                     actor=names[entry[2]], rules=prepare_rules)
        elif code == kernel.RELOAD:
            _, _, i, hand, steps = entry
            w = _weapon(sheet, ctx, i, hand)
            ctx.emit("recharger", reload_sentence(names[i], w.label, steps), actor=names[i],
                     rules=reload_rules,
                     data={"hand": HANDS[hand], "weapon": w.id, "loaded": steps is None})
        else:  # pragma: no cover - the ground's steps are left to the engine (sheet.flat)
            raise AssertionError(f"log entry {entry!r} not narrated")
    state.turn = final_turn
    if st.finished and st.outcome is not None:
        emit_end(ctx, system, st.outcome)


def _weapon(sheet: Sheet, ctx: Ctx[Any], i: int, hand: int) -> Weapon:
    """What fighter ``i`` strikes with in ``hand`` (bare hands when empty), as the
    engine's ``attaquer`` reads it."""
    f = ctx.state.fighters[sheet.names[i]]
    return held(ctx, f, HANDS[hand]) or get_weapon("mains_nues")


def _setup(sheet: Sheet, ctx: Ctx[Any], i: int, j: int, hand: int, defence: int,
           guard: tuple[bool, int, int, bool], wounds: int) -> AttackSetup:
    """The engine's attack setup of fighter ``i``'s blow with ``hand`` on ``j`` (the
    parameters automated play gives it: ``D100System.moves``) when ``j`` has ``wounds``
    left and its ``guard`` is (prepared parry, parries and dodges used, surprised):
    checked by ``attack_setup`` once per shape and kept on the sheet (a bounded
    :class:`~escarmouche.memo.Memo`), the wounds written in."""
    from escarmouche.systems.d100.system import _shot_params

    cache = sheet.setups
    setup = cache.get((i, j, hand, defence, guard, wounds))
    if setup is not None:
        return setup
    key = (i, j, hand, defence, guard)
    setup = cache.get(key)
    if setup is None:
        weapon = _weapon(sheet, ctx, i, hand)
        shot = _shot_params(ctx, sheet.names[i], weapon) or {}
        prepared, parries, dodges, surprised = guard
        setup = cache.put(key, attack_setup(
            sheet.combatants[i], sheet.combatants[j], weapon, hand=HANDS[hand],
            defence=kernel.DEFENCES[defence],
            guard=Guard(prepared, sheet.two_weapons[j], parries, dodges, surprised),
            distance=shot.get("distance"), target_engaged=shot.get("cible_engagee", False),
            wounds=wounds, rules=sheet.rules, weapons=fight_weapons(ctx)))
    if setup.wounds != wounds:
        # (only the target's wounds differ: what attack_setup checked does not read them)
        setup = replace(setup, wounds=wounds)
    return cache.put((*key, wounds), setup)
