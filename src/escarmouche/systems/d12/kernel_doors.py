"""The d12 rules kernel seen from the engine (as ``escarmouche.systems.d20.kernel_doors``
for d20): a kernel's fight written back as the engine's ``Encounter`` in today's save
format (:func:`write_back`) and read from it (:func:`read_state`), and a log tuple told
as the engine's sentences (:func:`narrate`). None of them is on the simulation path:
the equivalence tests (``tests/rules/d12/test_kernel.py``) and a reader of the log call
them. :func:`view` reads a live engine fight as the kernel's sheet and state, for the
engine's doors ``D12System.moves`` and ``auto_action``: automated play's moves are the
kernel's :func:`.kernel.candidates` (its order of targets and options, D12-CRIT-2).
"""

from __future__ import annotations

from typing import Any

from escarmouche.model import Effect, Timing
from escarmouche.state import ENVIRONMENT, Ctx, EncounterState
from escarmouche.systems.d12.critical import (
    attack_expression,
    resolve_attack_roll,
    resolve_damage,
)
from escarmouche.systems.d12.initiative import D12Initiative
from escarmouche.systems.d12.kernel import ATTACK, ENV, Sheet, State
from escarmouche.systems.d12.narration import advantage_name, attack_sentence, damage_sentence
from escarmouche.systems.d12.rules import ADVANTAGE_EFFECT_KIND, CRITICAL_OPTIONS, TRACK, Mode
from escarmouche.systems.views import LiveSheets
from escarmouche.text.typo import typographie

__all__ = ["NARRATED", "narrate", "read_state", "view", "write_back"]

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


def write_back(sheet: Sheet, st: State) -> Any:
    """The fight ``st`` as the engine's ``Encounter`` (simulation mode): every track and
    counter as the engine writes them, with the system's state of ``D12System.start``
    and ``on_activation_start`` (the initiative, the order, the acting group); the log is
    not narrated (an empty log)."""
    enc = sheet.probe.simulated()
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
    sources = ["avantage du critique précédent"] if len(shown) > 1 else []
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
