"""The d12 rules kernel seen from the engine (as ``escarmouche.systems.d20.kernel_doors``
for d20): a kernel's fight written back as the engine's ``Encounter`` in today's save
format (:func:`write_back`) and read from it (:func:`read_state`), a log tuple told
as the engine's sentences (:func:`narrate`), and a whole fight played by the kernel and
given as the full engine's, its log narrated from the kernel's (:func:`narrated_run`:
``Roster.play``). None of them is on the simulation path: the equivalence tests
(``tests/rules/d12/test_kernel.py``), a reader of the log and ``Roster.play`` call
them. :func:`view` reads a live engine fight as the kernel's sheet and state, for the
engine's doors ``D12System.moves`` and ``auto_action``: automated play's moves are the
kernel's :func:`.kernel.candidates` (its order of targets and options, D12-CRIT-2).
"""

from __future__ import annotations

from typing import Any

from escarmouche import dice as dice_expressions
from escarmouche.model import DieRecord, Effect, Timing
from escarmouche.rng import RandintOnly, Rng, ScriptedRolls, rng_state
from escarmouche.state import ENVIRONMENT, Ctx, EncounterState, out_sentence
from escarmouche.systems.d12 import kernel
from escarmouche.systems.d12.critical import (
    DamageRoll,
    attack_expression,
    resolve_attack_roll,
    resolve_damage,
)
from escarmouche.systems.d12.initiative import D12Initiative
from escarmouche.systems.d12.kernel import ATTACK, ENV, Sheet, State
from escarmouche.systems.d12.narration import (
    ATTACK_PURPOSE,
    DAMAGE_PURPOSE,
    advantage_name,
    attack_sentence,
    attack_sources,
    consumed_words,
    damage_sentence,
    environment_sentence,
    group_acts_sentence,
    pointless_advantage_sentence,
)
from escarmouche.systems.d12.rules import (
    ADVANTAGE_EFFECT_KIND,
    ATTACK_DIE,
    CRITICAL_OPTIONS,
    TRACK,
    Mode,
)
from escarmouche.systems.views import LiveSheets
from escarmouche.text.typo import typographie

__all__ = ["NARRATED", "narrate", "narrated_run", "read_state", "view", "write_back"]

#: the kinds of the engine's events that :func:`narrate` tells, in their order
NARRATED = frozenset({"attaque", "degats"})


def _name(sheet: Sheet, i: int) -> str:
    return ENVIRONMENT if i == ENV else sheet.names[i]


#: the sheets of live engine fights (:func:`view`), one per shape of a fight
_SHEETS: LiveSheets[Sheet] = LiveSheets(lambda ctx: Sheet(ctx, {}))


def view(ctx: Ctx[Any], actor: str, attacked: bool) -> tuple[Sheet, State, int]:
    """The kernel's sheet and state of a live engine fight as ``actor`` sees it now, and
    its index (-1: no such fighter, or the fight not started), for the engine's doors
    ``D12System.moves`` and ``auto_action``: the sheet is compiled once per shape of the
    fight (its combatants and rules, the weapons of the start option ``armes``, the
    environment) and kept; the state holds what :func:`.kernel.candidates` reads: the
    order and cursor, everyone's PV and whether it stands (a fighter fled stands no
    more), option (c)'s advantages by bearer (D12-CRIT-2), and whether ``actor``
    already attacked in this activation (``attacked``: automated play's, not the
    save's)."""
    state = ctx.state
    if not state.started:
        return Sheet.__new__(Sheet), State.__new__(State), -1
    ss = state.system_state
    fighters = list(state.fighters.values())
    sheet = _SHEETS.sheet(ctx, (ss["weapons"], bool(ss["initiative"]["environment"])))
    index = sheet.index
    st = State.__new__(State)
    st.finished, st.turn, st.cursor = state.finished, state.turn, state.cursor
    st.order = tuple(index.get(name, ENV) for name in state.order)
    st.out = [not f.standing for f in fighters]
    st.hp = [int(f.tracks[TRACK]) for f in fighters]
    st.attacked = attacked
    st.marks = [0] * len(fighters)
    st.effects = []
    for e in state.effects:
        if e.kind == ADVANTAGE_EFFECT_KIND and e.bearer in index:
            st.marks[index[e.bearer]] += 1
            st.effects.append((0, index[e.bearer], index.get(e.source or "", ENV)))
    return sheet, st, index.get(actor, -1)


def write_back(sheet: Sheet, st: State, *, fast: bool = True) -> Any:
    """The fight ``st`` as the engine's ``Encounter`` (simulation mode, or the full
    engine's with ``fast`` false): every track and counter as the engine writes them,
    with the system's state of ``D12System.start`` and ``on_activation_start`` (the
    initiative, the order, the acting group); the log is not narrated (an empty log:
    :func:`narrated_run` narrates it)."""
    probe = sheet.probe
    enc = probe.copy(fast=fast)
    state = enc.state
    state.log = []
    state.turn, state.cursor = st.turn, st.cursor
    state.finished, state.outcome = st.finished, st.outcome
    state.order = [_name(sheet, i) for i in st.order]
    state.activations = {_name(sheet, i): n for i, n in st.activations.items()}
    ss = state.system_state
    ss["initiative"] = st.initiative.to_json()
    ss["order"] = st.initiative.order()
    acting = st.acting
    ss["acting_group"] = (None if acting is None else ENVIRONMENT if acting == ENV
                          else sheet.side_names[sheet.side[acting]])
    for i, f in enumerate(state.fighters.values()):
        f.tracks[TRACK] = st.hp[i]
        f.out = st.out[i]
    names = sheet.names
    state.effects = [Effect(f"e{n}", advantage_name(names[j]), Timing.UNTIL_NEXT_TURN_OF,
                            bearer=names[j], until_turn_of=names[j],
                            kind=ADVANTAGE_EFFECT_KIND, source=names[by])
                     for n, j, by in st.effects]
    state.next_effect_id = st.next_effect
    return enc


def narrate(sheet: Sheet, entry: tuple[Any, ...]) -> list[str]:
    """The French sentences of one tuple of the kernel's log, as the engine's log holds
    them (the resolver ``attaquer``'s « attaque » and « degats », typeset as
    ``Ctx.emit`` does; D12-CRIT-1/2, D12-EXPLODE-1): the attack roll and, on a hit, the
    damage, both decided again from the dice the tuple carries."""
    if entry[0] != ATTACK:  # a mark of the fight's course: no sentence of an attack
        return []
    _, _, actor, target, shown, chosen, dice, _, left = entry
    a, t = sheet.names[actor], sheet.names[target]
    mode = Mode.AVANTAGE if len(shown) > 1 else Mode.NORMAL  # option (c)'s (D12-ADV-1)
    sources = attack_sources(len(shown) > 1)
    att = resolve_attack_roll(shown, bonus=sheet.bonus[actor], defence=sheet.defence[target],
                              mode=mode)
    said = [typographie(attack_sentence(a, t, attack_expression(mode), sources, mode, att))]
    if dice is not None:
        dmg = resolve_damage(sheet.weapon[actor], dice, option=chosen)
        said.append(typographie(damage_sentence(
            a, t, CRITICAL_OPTIONS[chosen].label if chosen else None, dmg, left,
            changes_damage=chosen != "avantage")))
    return said


def read_state(sheet: Sheet, state: EncounterState) -> State:
    """The kernel's state of a started fight of ``sheet``'s roster, read from the
    engine's state (today's save format): the inverse of :func:`write_back` (the log
    aside; whether the actor attacked in this activation is automated play's, not the
    save's: ``False``)."""
    init = state.system_state["initiative"]
    assert isinstance(init, dict)
    st = State(sheet, D12Initiative.from_json(init))
    index = sheet.index
    st.turn, st.cursor = state.turn, state.cursor
    st.finished, st.outcome = state.finished, state.outcome
    st.activations = {index.get(name, ENV): n for name, n in state.activations.items()}
    for i, f in enumerate(state.fighters.values()):
        st.hp[i], st.out[i] = int(f.tracks[TRACK]), not f.standing
    for e in state.effects:
        if e.kind == ADVANTAGE_EFFECT_KIND and e.bearer in index and e.source in index:
            st.effects.append((int(e.id.removeprefix("e")), index[e.bearer], index[e.source]))
            st.marks[index[e.bearer]] += 1
    st.next_effect = state.next_effect_id
    acting = state.system_state.get("acting_group")
    if acting is not None and st.activations:
        # the last slot of this turn activated (its group is the acting one)
        st.acting = next(i for i in reversed(st.order[:st.cursor + 1])
                         if i in st.activations)
    return st


# -- the full engine on the kernel ---------------------------------------------------------

#: the rules of a group's turn and of the environment's slot
#: (``D12System.on_activation_start``), and of option (c)'s advantage (D12-CRIT-2)
_GROUP_RULES, _ENVIRONMENT_RULES = ("D12-INIT-2", "D12-INIT-4"), ("D12-INIT-5",)
_ADVANTAGE_RULES = ("D12-CRIT-2",)


def narrated_run(sheet: Sheet, rng: Rng, max_turns: int, tactics_rng: Any = None) -> Any:
    """A whole fight of ``sheet``'s roster played by the rules kernel (:func:`.kernel.start`
    then :func:`.kernel.play_out`: the same dice, in the same order, as
    ``Encounter.start`` then ``Encounter.run``; the tactics stream of the policy « au
    hasard » is ``tactics_rng``, by default seeded from the dice rng's state once the
    initiative is drawn, as ``Encounter.run`` seeds it) and given as the full engine's
    ``Encounter``: its state written back (:func:`write_back`, today's save format) and
    its log narrated from the kernel's log tuples, event for event as the engine writes
    it (the same sentences, rules, dice and data: the equivalence tests,
    ``tests/rules/d12/test_kernel.py``, hold the whole save to the engine's). Every
    fight the kernel covers (:func:`.kernel.compile_sheet`) is narrated."""
    from escarmouche.policies import tactics_rng_for

    draw = RandintOnly(rng.randint)
    st = kernel.start(sheet, draw)
    if sheet.tactics and tactics_rng is None:
        tactics_rng = tactics_rng_for(rng_state(rng))
    kernel.play_out(sheet, st, draw, max_turns, tactics_rng)
    enc = write_back(sheet, st, fast=False)
    _narrate(sheet, st, enc)
    return enc




def _narrate(sheet: Sheet, st: State, enc: Any) -> None:
    """Write the events of the kernel's fight ``st`` into the log of ``enc``'s state
    (written back), as the engine's operations emit them: the start (the initiative:
    ``D12System.start``), each turn's start (``Encounter._begin_turn``) and end
    (``Encounter._end_turn``), each activation (``Encounter._start_activation``, the
    group's turn or the environment's: ``D12System.on_activation_start``), each attack
    (the resolver ``attaquer``: option (c)'s advantage consumed, the attack, the damage,
    a fighter out, the advantage given or pointless) and the end of the fight
    (``Encounter._finish``, ``D12System.on_end``).

    The events of the rare steps are the engine's own: the initiative's
    (:func:`.system.emit_groups`), the effects added and removed (``Ctx.add_effect``,
    ``Ctx.remove_effect``), an activation that ends an advantage
    (``Encounter._start_activation``), the end's. The others are the events
    ``Ctx.emit`` writes in the full engine (the text typeset, the dice given), built
    here from sentences kept on the sheet per shape."""
    from escarmouche.encounter import (
        emit_end,
        turn_end_sentence,
        turn_start_sentence,
    )
    from escarmouche.systems.d12.system import DURATION_RULES, duration_event

    state, system = enc.state, enc.system
    ctx = Ctx(state, system, enc.rules, None)
    names, side, side_names, index = sheet.names, sheet.side, sheet.side_names, sheet.index
    shapes = sheet.narrated
    out = [False] * len(names)
    init = st.initiative
    final = (state.turn, state.activations, state.system_state["acting_group"])
    effects = state.effects = []  # live: the engine's own operations add and remove them
    state.next_effect_id = sheet.next_effect
    state.turn = 0
    _initiative(sheet, ctx, init)
    members = {s: tuple(m) for s, m in init.groups}
    values = {g.side: g.value for g in init.group_results}
    tied = any(t.rule == "D12-INIT-5" for t in init.group_ties)
    slots = tuple(ENVIRONMENT if i == ENV else names[i] for i in st.order)
    turn_rules = tuple(system.turn_rules)
    said = _activations(sheet, system)  # each slot's « Au tour de … »
    groups: dict[str, tuple[str, int, tuple[str, ...]]] = {}  # until someone falls
    acting: str | None = None  # the acting group (``system_state["acting_group"]``)
    turn = 0
    key: tuple[Any, ...]
    for entry in st.log:
        code = entry[0]
        if code == ATTACK:
            if _attack(sheet, ctx, entry, out):
                groups.clear()  # a fighter fell: the groups standing change
        elif code == kernel.ACTIVATION:
            _, _, i, count = entry
            name = ENVIRONMENT if i == ENV else names[i]
            if effects and any(e.bearer == name for e in effects):
                # option (c)'s advantage on it ends (D12-CRIT-2): the engine's own start
                acting = _engine_activation(sheet, enc, ctx, i, count, acting, out)
                continue
            ctx.record("activation", said[i], name, (), (),
                       {"activation": count})
            if i == ENV:  # D12-INIT-5
                acting = ENVIRONMENT
                key = ("environnement", tied)
                text = shapes.get(key)
                if text is None:
                    text = sheet.narrated.put(key, typographie(environment_sentence([], tied)))
                ctx.record("environnement", text, name, _ENVIRONMENT_RULES, (),
                           {"effects": []})
                continue
            group = side_names[side[i]]
            if acting != group:  # the group's turn (D12-INIT-2, D12-INIT-4)
                acting = group
                known = groups.get(group)
                if known is None:
                    standing = tuple([m for m in members[group] if not out[index[m]]])
                    value = values[group]
                    key = ("groupe", group, value, standing)
                    text = shapes.get(key)
                    if text is None:
                        text = sheet.narrated.put(key, typographie(
                            group_acts_sentence(group, value, list(standing))))
                    known = groups[group] = (text, value, standing)
                text, value, standing = known
                ctx.record("groupe", text, name, _GROUP_RULES, (),
                           {"side": group, "value": value, "order": list(standing)})
        elif code == kernel.TURN_BEGIN:
            turn = state.turn = entry[1]
            acting = None
            standing = tuple([s for s, i in zip(slots, st.order, strict=True)
                              if i == ENV or not out[i]])
            key = ("debut_tour", turn, standing)
            text = shapes.get(key)
            if text is None:
                text = sheet.narrated.put(key, typographie(
                    turn_start_sentence(system, turn, list(standing))))
            ctx.record("debut_tour", text, None, turn_rules, (),
                       {"order": list(standing)})
        elif code == kernel.TURN_END:
            key = ("fin_tour", turn)
            text = shapes.get(key)
            if text is None:
                text = sheet.narrated.put(key, typographie(turn_end_sentence(system, turn)))
            ctx.record("fin_tour", text, None, (), (),
                       {})
        else:  # pragma: no cover - every tuple of the kernel's log is narrated
            raise AssertionError(f"log entry {entry!r} not narrated")
    state.turn, state.activations, state.system_state["acting_group"] = final
    if st.finished and st.outcome is not None:  # Encounter._finish
        emit_end(ctx, system, st.outcome)
        # D12System.on_end: the fight's duration (D12-TIME-1), the turns begun counted
        turns = sum(1 for e in st.log if e[0] == kernel.TURN_BEGIN)
        key = ("duree", turns)
        known = shapes.get(key)
        if known is None:
            sentence, data = duration_event(turns)
            known = sheet.narrated.put(key, (typographie(sentence), data))
        text, data = known
        ctx.record("duree", text, None, DURATION_RULES, (),
                   {k: list(v) if isinstance(v, list) else v for k, v in data.items()})


def _initiative(sheet: Sheet, ctx: Ctx[Any], init: D12Initiative) -> None:
    """The initiative's events (``D12System.start`` without an ambush: D12-INIT-1..6):
    the engine's own (:func:`.system.emit_groups`), but for an initiative of one attempt
    without a roll-off (the common one), whose sentences are kept on the sheet by its
    dice."""
    from escarmouche.systems.d12.system import emit_groups, initiative_event

    if len(init.attempts) > 1 or init.roll_offs or init.lots:
        emit_groups(ctx, init)
        return
    rolls = init.attempts[0]
    key = ("initiative", tuple([r.die for r in rolls]))
    known = sheet.narrated.get(key)
    if known is None:
        from escarmouche.systems.d12.narration import group_order_sentence

        text, rules, rolled, _ = initiative_event(1, rolls)
        known = sheet.narrated.put(key, (typographie(text()), rules, tuple(rolled),
                                   typographie(group_order_sentence(init))))
    text, rules, rolled, order = known
    ctx.record("initiative", text, None, rules, rolled,
               {"attempt": 1, "rolls": [r.to_json() for r in rolls]})
    ctx.record("ordre_initiative", order, None, init.rules, (),
               init.to_json())


def _activations(sheet: Sheet, system: Any) -> dict[int, str]:
    """Each slot's activation sentence, typeset (``Encounter._start_activation``), by
    fighter index (:data:`.kernel.ENV` for the environment's slot), kept on the sheet."""
    key = ("activations",)
    known = sheet.narrated.get(key)
    if known is None:
        from escarmouche.encounter import activation_words

        known = sheet.narrated.put(key, {
            i: typographie(activation_words(system, ENVIRONMENT if i == ENV
                                            else sheet.names[i])[0])
            for i in (ENV, *range(len(sheet.names)))})
    return known  # type: ignore[no-any-return]


def _engine_activation(sheet: Sheet, enc: Any, ctx: Ctx[Any], i: int, count: int,
                       acting: str | None, out: list[bool]) -> str | None:
    """Fighter ``i``'s ``count``-th activation of the turn started by the engine itself
    (``Encounter._start_activation``: the activation, option (c)'s advantage on it that
    ends, D12-CRIT-2, and the group's turn), on the state as it stands then (the
    fighters out, the acting group ``acting``); the acting group after it."""
    state = ctx.state
    name = sheet.names[i]
    saved = state.activations
    state.activations = {name: count - 1}
    ss = state.system_state
    ss["acting_group"] = acting
    fighters = list(state.fighters.values())
    final = [f.out for f in fighters]
    for f, gone in zip(fighters, out, strict=True):
        f.out = gone
    try:
        enc._start_activation(ctx, name)
    finally:
        for f, gone in zip(fighters, final, strict=True):
            f.out = gone
        state.activations = saved
    after = ss["acting_group"]
    return None if after is None else str(after)


def _attack(sheet: Sheet, ctx: Ctx[Any], entry: tuple[Any, ...], out: list[bool]) -> bool:
    """The events of one attack of the kernel's log (the resolver ``attaquer``,
    D12-CRIT-1/2, D12-ADV-1, D12-EXPLODE-1), as the engine emits them; whether its
    target fell (marked in ``out``)."""
    _, _, i, j, shown, chosen, dmg_dice, _, left = entry
    names = sheet.names
    a, t = names[i], names[j]
    state = ctx.state
    consumed = []
    if state.effects:  # option (c)'s advantage, consumed by this attack (D12-CRIT-2)
        for e in [e for e in state.effects
                  if e.kind == ADVANTAGE_EFFECT_KIND and e.bearer == t]:
            ctx.remove_effect(e.id, why=consumed_words(a), rules=_ADVANTAGE_RULES)
            consumed.append(e.id)
    key: tuple[Any, ...] = ("attaque", i, j, shown)
    known = sheet.narrated.get(key)
    if known is None:
        known = _attack_event(sheet, key)
    text, rules, rolled, att = known
    ctx.record("attaque", text, a, rules, rolled,
               {"target": t, "weapon": sheet.weapon[i],
                       "attack": {**att, "dice": list(shown), "rules": list(rules)},
                       "advantages": 1 if consumed else 0, "disadvantages": 0,
                       "consumed": consumed})
    if dmg_dice is None:
        return False
    key = ("degats", i, j, chosen, dmg_dice, left)
    known = sheet.narrated.get(key)
    if known is None:
        known = _damage_event(sheet, key)
    text, rules, rolled, dmg = known
    ctx.record("degats", text, a, rules, rolled,
               {"target": t, "damage": {**dmg, "dice": list(dmg_dice),
                                               "rules": list(dmg["rules"])}})
    if left <= 0:  # Ctx.change_track: the target out (CORE-END-1)
        out[j] = True
        key = ("hors_combat", j)
        text = sheet.narrated.get(key)
        if text is None:
            text = sheet.narrated.put(key, typographie(out_sentence(t, TRACK, 0)))
        ctx.record("hors_combat", text, t, rules, (),
                   {"track": TRACK, "value": 0})
    if chosen == "avantage":  # D12-CRIT-2 (c)
        if left > 0:
            ctx.add_effect(Effect("", advantage_name(t), Timing.UNTIL_NEXT_TURN_OF, bearer=t,
                                  until_turn_of=t, kind=ADVANTAGE_EFFECT_KIND, source=a))
        else:
            ctx.emit("avantage_sans_objet", pointless_advantage_sentence(t), actor=a,
                     rules=_ADVANTAGE_RULES)
    return bool(left <= 0)


def _attack_event(sheet: Sheet, key: tuple[Any, ...]) -> Any:
    """The attack ``key``, ``("attaque", attacker, target, the d12 shown)`` (two under
    option (c)'s advantage, D12-ADV-1), as the engine's event writes it: its sentence
    (typeset), rules, dice and result as JSON (its lists to be copied), kept on the
    sheet."""
    _, i, j, shown = key
    marked = len(shown) > 1
    mode = Mode.AVANTAGE if marked else Mode.NORMAL
    att = resolve_attack_roll(shown, bonus=sheet.bonus[i], defence=sheet.defence[j],
                              mode=mode)
    text = typographie(attack_sentence(sheet.names[i], sheet.names[j],
                                       attack_expression(mode), attack_sources(marked),
                                       mode, att))
    rolled = tuple(DieRecord(ATTACK_DIE, v, ATTACK_PURPOSE) for v in shown)
    return sheet.narrated.put(key, (text, att.rules, rolled, att.to_json()))


def _damage_event(sheet: Sheet, key: tuple[Any, ...]) -> Any:
    """The damage ``key``, ``("degats", attacker, target, critical option or None, its
    dice, the target's PV left unfloored)`` (D12-CRIT-1/2, D12-EXPLODE-1), as the
    engine's event writes it: its sentence (typeset), rules, dice (each with its faces,
    an exploding die's extra draws included) and result as JSON (its lists to be
    copied), kept on the sheet (the damage itself by its dice alone)."""
    _, i, j, chosen, dmg_dice, left = key
    roll_key = ("dommages", i, chosen, dmg_dice)
    known = sheet.narrated.get(roll_key)
    if known is None:
        dmg: DamageRoll
        rolled: tuple[DieRecord, ...]
        if chosen == "maximum":  # D12-CRIT-2 (a): no die
            dmg, rolled = sheet.maximum[i], ()
        else:
            dmg = resolve_damage(sheet.weapon[i], dmg_dice, option=chosen)
            rolled = dice_expressions.roll(dmg.expression, ScriptedRolls(dmg_dice)
                                           ).records(DAMAGE_PURPOSE)
        known = sheet.narrated.put(roll_key, (dmg, dmg.rules or ("D12-CRIT-1",), rolled,
                                        dmg.to_json()))
    dmg, rules, rolled, data = known
    text = typographie(damage_sentence(
        sheet.names[i], sheet.names[j], CRITICAL_OPTIONS[chosen].label if chosen else None,
        dmg, left, changes_damage=chosen != "avantage"))
    return sheet.narrated.put(key, (text, rules, rolled, data))
