"""The d20 rules kernel seen from the engine (as ``escarmouche.systems.d100.kernel_doors``
for d100): a kernel's fight written back as the engine's ``Encounter`` in today's save
format (:func:`write_back`) and read from it (:func:`read_state`), a log tuple told as
the engine's sentences (:func:`narrate`), and a whole fight of the full engine played
on the kernel, its log narrated from the kernel's (:func:`narrated_run`, what
``Roster.play`` plays). The equivalence tests (``tests/rules/d20/test_kernel.py``) hold
them to the engine. :func:`view` reads a live engine fight as the kernel's sheet and
state, for the engine's door ``D20System.moves``: automated play's moves are the
kernel's :func:`.kernel.candidates`.
"""

from __future__ import annotations

from typing import Any

from escarmouche.dice import roll as roll_dice
from escarmouche.memo import Memo
from escarmouche.model import DieRecord, Json
from escarmouche.rng import Rng
from escarmouche.state import Ctx, EncounterState, out_sentence
from escarmouche.systems.d20 import kernel
from escarmouche.systems.d20.actions import slot_cost
from escarmouche.systems.d20.initiative import D20Initiative, initiative_dice, initiative_sentence
from escarmouche.systems.d20.kernel import (
    ACTIVATION,
    ATTACK,
    CANCELLED,
    MOVE,
    OPPORTUNITY,
    POINT,
    TURN_BEGIN,
    TURN_END,
    Sheet,
    State,
)
from escarmouche.systems.d20.narration import (
    attack_detail,
    attack_label,
    attack_sentence,
    attack_trigger_text,
    cancelled_attack_sentence,
    cancelled_move_sentence,
    cancelled_text,
    declared_sentence,
    end_of_turn_sentence,
    moot_sentence,
    move_sentence,
    move_trigger_text,
    path_text,
    placement_sentence,
    point_sentence,
    reaction_attack_sentence,
    reaction_cause,
    reaction_stop_sentence,
    round_sentence,
    start_phase_sentence,
)
from escarmouche.systems.d20.rules import (
    ATTACK_DIE,
    ATTACK_RANGES,
    REACTION_TYPES,
    ROUND_SECONDS,
    TRACK,
)
from escarmouche.systems.d20.turn import ACTION_CATEGORIES, plan_turn
from escarmouche.systems.d20.turn import ACTIONS as SPECS
from escarmouche.systems.views import LiveSheets
from escarmouche.text.typo import typographie

__all__ = ["NARRATED", "narrate", "narrated_run", "read_state", "view", "write_back"]

#: the kinds of the engine's events that :func:`narrate` tells, in their order
NARRATED = frozenset({"attaque", "deplacement", "point_action"})
#: the reach of automated play's attacks, in words (« au corps à corps »)
_REACH = ATTACK_RANGES["corps_a_corps"][1]


def write_back(sheet: Sheet, st: State, *, fast: bool = True) -> Any:
    """The fight ``st`` as the engine's ``Encounter`` (simulation mode, or the full
    engine's with ``fast`` false): every track, flag and counter as the engine writes
    them (today's save format: ``pos``, ``pa``, ``budget``, ``opportunite``,
    ``immediate``, the initiative); the log is not narrated (an empty log:
    :func:`narrated_run` narrates it)."""
    probe = sheet.probe
    enc = probe.copy(fast=fast)
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
    label = attack_label(_REACH) if kind == ATTACK else attack_label()
    cost = _cost(used, points, sheet) if kind == ATTACK else ""
    return [typographie(attack_sentence(
        label, names[actor], names[target], roll, sheet.bonus[actor], sheet.defence[target],
        None if damage < 0 else damage, sheet.weapon, left, cost=cost))]


def _cost(used: tuple[str, ...], points: int, sheet: Sheet) -> str:
    """The cost of the last action of a turn that used ``used`` (D20-ACT-1..3)."""
    plan = plan_turn(used, action_points=points, rules=sheet.rules)
    return slot_cost(plan, len(used) - 1)[0]


# -- the full engine on the kernel ---------------------------------------------------------

#: bound on each memo of the narration (:class:`_Words`, each an
#: :class:`escarmouche.memo.Memo`)
_MAX_MEMO = 4096


class _Tape:
    """The dice a kernel's fight drew, (faces, value) in order, read again in order by
    the narration (an rng for :func:`escarmouche.dice.roll`: a weapon's dice)."""

    __slots__ = ("at", "draws")

    def __init__(self) -> None:
        self.draws: list[tuple[int, int]] = []
        self.at = 0

    def randint(self, a: int, b: int) -> int:
        value = self.draws[self.at][1]
        self.at += 1
        return value


class _Words:
    """What the narration of a sheet's fights works out once and keeps (on the sheet,
    each memo bounded): the sentences of each fighter's turn, of each round, of each
    attack by its shape, the cost of an action by turn budget (D20-ACT-1..3), the dice
    records (frozen), the start's squares. The same words as the engine's, written by
    the same functions (:mod:`.narration`, ``escarmouche.encounter``)."""

    def __init__(self, sheet: Sheet, system: Any) -> None:
        from escarmouche.dice import parse
        from escarmouche.encounter import activation_words, turn_end_sentence

        self.sheet = sheet
        self.system = system
        self.turn_end_sentence = turn_end_sentence
        #: per fighter: « Au tour de … », its start and end phases, « … hors de combat »
        self.fighters = tuple(
            (activation_words(system, name)[0], start_phase_sentence(name, (), True),
             end_of_turn_sentence(name, ()), out_sentence(name, TRACK, 0))
            for name in sheet.names)
        self.d20 = tuple(DieRecord(ATTACK_DIE, v, "attaque") for v in range(ATTACK_DIE + 1))
        terms = parse(sheet.weapon).dice_terms
        #: how many dice the weapon draws, when it is always as many (no explosion)
        self.weapon_dice = None if any(t.explode for t in terms) else sum(
            t.count for t in terms)
        self.hits: Memo[tuple[DieRecord, ...]] = Memo(_MAX_MEMO)
        self.costs: Memo[tuple[str, tuple[str, ...], str | None]] = Memo(_MAX_MEMO)
        self.attacks: Memo[str] = Memo(_MAX_MEMO)
        self.rounds: Memo[tuple[str, dict[str, Json], str]] = Memo(_MAX_MEMO)
        self.orders: Memo[str] = Memo(_MAX_MEMO)
        self.positions: Any = None

    def cost(self, used: tuple[str, ...], points: int
             ) -> tuple[str, tuple[str, ...], str | None]:
        """The cost in words, the rules and the slot of the last action of a turn that
        used ``used`` with ``points`` action points spent (``actions._spend``)."""
        key = (used, points)
        known = self.costs.get(key)
        if known is None:
            plan = plan_turn(used, action_points=points, rules=self.sheet.rules)
            cost, cost_rules = slot_cost(plan, len(used) - 1)
            known = self.costs.put(key, (cost, cost_rules, plan.slot_of(len(used) - 1)))
        return known

    def round(self, turn: int) -> tuple[str, dict[str, Json], str]:
        """Round ``turn``'s sentence and data (D20-TIME-1), and its end's sentence."""
        known = self.rounds.get(turn)
        if known is None:
            known = self.rounds.put(turn, (
                round_sentence(turn), {"round": turn, "start_s": (turn - 1) * ROUND_SECONDS,
                                       "end_s": turn * ROUND_SECONDS},
                self.turn_end_sentence(self.system, turn)))
        return known

    def order(self, turn: int, acting: tuple[str, ...]) -> str:
        """« Début du round 2 : … » (CORE-TURN-1)."""
        from escarmouche.encounter import turn_start_sentence

        key = (turn, acting)
        known = self.orders.get(key)
        if known is None:
            known = self.orders.put(key, turn_start_sentence(self.system, turn, acting))
        return known

    def attack(self, label: str, i: int, j: int, roll: int, damage: int, left: int,
               cost: str) -> str:
        """The sentence of an attack roll (:func:`.narration.attack_sentence`)."""
        key = (label, i, j, roll, damage, left if damage >= 0 else -1, cost)
        known = self.attacks.get(key)
        if known is None:
            sheet = self.sheet
            known = self.attacks.put(key, attack_sentence(
                label, sheet.names[i], sheet.names[j], roll, sheet.bonus[i], sheet.defence[j],
                None if damage < 0 else damage, sheet.weapon, left, cost=cost))
        return known

    def hit(self, tape: _Tape) -> tuple[DieRecord, ...]:
        """The records of a hit's weapon dice, read on ``tape`` (``dice.roll``)."""
        count = self.weapon_dice
        if count is None:
            return roll_dice(self.sheet.weapon, tape).records("dégâts")
        at = tape.at
        tape.at = at + count
        key = tuple(tape.draws[at:at + count])
        known = self.hits.get(key)
        if known is None:
            known = self.hits.put(key, tuple(DieRecord(f, v, "dégâts") for f, v in key))
        return known

    def placement(self) -> Any:
        """The squares the start announces (``D20System.start``: the start option
        ``positions``, or the default columns), as the sheet's probe was placed."""
        if self.positions is None:
            self.positions = next((e.data["positions"] for e in self.sheet.probe.state.log
                                   if e.kind == "placement"), {})
        return self.positions


def narrated_run(sheet: Sheet, rng: Rng, max_turns: int) -> Any:
    """``System.narrated_run`` for the d20 kernel (the model:
    ``escarmouche.systems.d100.kernel_doors.narrated_run``): the fight played by
    :func:`.kernel.run`, written back (:func:`write_back`) and its log narrated from the
    kernel's tuples; ``tests/rules/d20/test_kernel.py`` holds the whole save to the
    engine's. Every fight the kernel covers is narrated (``D20System.kernel`` answers ``None``
    for the others: the engine plays them)."""
    tape = _Tape()
    draws, draw = tape.draws, rng.randint

    def randint(a: int, b: int) -> int:
        value = draw(a, b)
        draws.append((b, value))
        return value

    st = kernel.run(sheet, randint, max_turns)
    enc = write_back(sheet, st, fast=False)
    _narrate(sheet, st, tape, Ctx(enc.state, enc.system, enc.rules, None))
    return enc


def _narrate(sheet: Sheet, st: State, tape: _Tape, ctx: Ctx[Any]) -> None:
    """Write the events of the kernel's fight ``st`` (its dice on ``tape``) into the log
    of ``ctx``'s state, as the engine's operations emit them: the start (the initiative,
    the squares: ``D20System.start``), each round's start (``Encounter._begin_turn``,
    D20-TIME-1) and end (``Encounter._end_turn``), each turn's start and end phases
    (``D20System.on_activation_start``, ``on_activation_end``: no effect to apply),
    each move (the resolvers ``attaquer``, ``deplacement``, ``point_action``, with the
    reactions they declare: D20-OPP-1/2, D20-IMM-1/2; a fighter out,
    ``Ctx.change_track``) and the end of the fight (``Encounter._finish``)."""
    from escarmouche.encounter import emit_end

    state, emit = ctx.state, ctx.emit
    system: Any = ctx.system
    words = sheet.narration
    if words is None or words.system is not system:
        words = sheet.narration = _Words(sheet, system)
    fighters = words.fighters
    names, rules = sheet.names, sheet.rules
    out = [False] * len(names)
    final_turn = state.turn
    state.turn = 0
    init = st.initiative
    tape.at = _initiative_draws(init)
    emit("initiative", lambda: initiative_sentence(init.rolls, init.order),
         rules=("D20-INIT-1",), data=init.to_json(),
         dice=initiative_dice(init.rolls, tape.draws[:tape.at]))
    positions = words.placement()
    if positions:
        emit("placement", placement_sentence(positions), rules=("D20-OPP-2",),
             data={"positions": {name: list(p) for name, p in positions.items()}})
    spent = rules.cancelled_action_spent
    reach = attack_label(_REACH)
    current = -1  # the fighter whose turn is under way
    pending: list[tuple[Any, ...]] = []  # the opportunity attacks of the move read next
    for entry in st.log:
        code = entry[0]
        if code == ATTACK:
            cost, cost_rules, slot = words.cost(entry[7], entry[8])
            _strike(words, ctx, tape, entry, reach, cost_rules, cost,
                    _info("attaquer", slot, entry[7]), out)
        elif code == ACTIVATION:
            if current >= 0 and not out[current]:
                _turn_over(ctx, names[current], fighters[current][2])
            current = entry[2]
            actor = names[current]
            emit("activation", fighters[current][0], actor=actor,
                 data={"activation": entry[3]})
            emit("debut_de_tour", fighters[current][1], actor=actor, rules=("D20-START-1",),
                 data={"applied": []})
        elif code == TURN_BEGIN:
            turn = state.turn = entry[1]
            acting = tuple(names[i] for i in st.order if not out[i])
            sentence, data, _ = words.round(turn)
            emit("debut_tour", words.order(turn, acting), rules=system.turn_rules,
                 data={"order": list(acting)})
            emit("round", sentence, rules=("D20-TIME-1",), data=data)
        elif code == TURN_END:
            if current >= 0 and not out[current]:
                _turn_over(ctx, names[current], fighters[current][2])
            current = -1
            emit("fin_tour", words.round(entry[1])[2])
        elif code == POINT:
            _, _, i, left, points = entry
            emit("point_action", point_sentence(names[i], left), actor=names[i],
                 rules=("D20-ACT-3",), data={"left": left, "spent_this_turn": points})
        elif code == CANCELLED:
            _cancelled(words, ctx, entry, spent)
        elif code == OPPORTUNITY:
            pending.append(entry)
        elif code == MOVE:
            _moved(words, ctx, tape, entry, pending, spent, out)
            pending = []
        else:  # pragma: no cover - every tuple the kernel writes is told above
            raise AssertionError(f"log entry {entry!r} not narrated")
    state.turn = final_turn
    if st.finished and st.outcome is not None:
        emit_end(ctx, system, st.outcome)


def _turn_over(ctx: Ctx[Any], actor: str, sentence: str) -> None:
    """The end phase of a standing fighter's turn (D20-END-2), with no effect to end."""
    ctx.emit("fin_de_tour", sentence, actor=actor, rules=("D20-END-2",), data={"ending": []})


def _strike(words: _Words, ctx: Ctx[Any], tape: _Tape, entry: tuple[Any, ...], label: str,
            rules: tuple[str, ...], cost: str, info: dict[str, Json] | None,
            out: list[bool]) -> None:
    """The events of one attack roll of the log (``actions._strike``): the attack, its
    d20 and its weapon's dice read on ``tape``; the target out at 0 PV."""
    _, _, i, j, roll, damage, left, _, _ = entry
    sheet = words.sheet
    names = sheet.names
    attacker, target = names[i], names[j]
    bonus = sheet.bonus[i]
    tape.at += 1  # the d20 (D20-ACT-1)
    data: dict[str, Json] = {"attacker": attacker, "target": target, "roll": roll,
                             "bonus": bonus, "total": roll + bonus,
                             "defence": sheet.defence[j], "hit": damage >= 0, **(info or {})}
    text = words.attack(label, i, j, roll, damage, left, cost)
    if damage < 0:
        ctx.emit("attaque", text, actor=attacker, rules=rules, dice=(words.d20[roll],),
                 data=data)
        return
    data["weapon"], data["damage"], data["hp"] = sheet.weapon, damage, left
    ctx.emit("attaque", text, actor=attacker, rules=rules,
             dice=(words.d20[roll], *words.hit(tape)), data=data)
    if left == 0 and not out[j]:
        out[j] = True
        ctx.emit("hors_combat", words.fighters[j][3], actor=target, rules=rules,
                 data={"track": TRACK, "value": 0})


def _moved(words: _Words, ctx: Ctx[Any], tape: _Tape, entry: tuple[Any, ...],
           strikes: list[tuple[Any, ...]], spent: bool, out: list[bool]) -> None:
    """The events of a move of the log (``actions.deplacement``, D20-ACT-1): declared
    first when it triggers opportunity attacks, then each attack (``strikes``, the log's
    tuples before it) and those declared that did not happen (D20-OPP-1/2); the move
    made, or cancelled where its mover fell."""
    _, _, i, squares, stop, used, points, reactors = entry
    names = words.sheet.names
    emit = ctx.emit
    mover = names[i]
    cost, cost_rules, slot = words.cost(used, points)
    info = _info("deplacement", slot, used)
    opportunity = REACTION_TYPES["attaque_opportunite"]
    announced = bool(reactors)
    if announced:  # declared before the reactions it triggers (D20-OPP-1/2)
        emit("action", declared_sentence(mover, SPECS["deplacement"].label, cost,
                                         path_text(squares)),
             actor=mover, rules=cost_rules, data=info)
        about = move_trigger_text(mover)
        title = opportunity.label.capitalize()
        struck = set()
        for strike in strikes:
            by = names[strike[2]]
            struck.add(strike[2])
            emit(opportunity.id, reaction_attack_sentence(title, by, True, about), actor=by,
                 rules=opportunity.rules,
                 data={"by": by, "type": opportunity.id, "effect": "attaque",
                       "name": opportunity.label})
            _strike(words, ctx, tape, strike, attack_label(), opportunity.rules, "", None,
                    out)
        for j, _ in reactors:
            if j not in struck:
                emit("reaction_sans_objet",
                     moot_sentence(opportunity.label, names[j], cancelled_text(about)),
                     actor=names[j], rules=opportunity.rules,
                     data={"by": names[j], "type": opportunity.id})
    if stop < 0:
        emit("deplacement", move_sentence(mover, squares, announced, cost), actor=mover,
             rules=("D20-ACT-1",) if announced else cost_rules,
             data={"from": list(squares[0]), "to": list(squares[-1]),
                   "path": [list(s) for s in squares], "cancelled": False,
                   **({} if announced else info)})
        return
    # knocked out by the last opportunity attack (D20-OPP-1)
    cause = reaction_cause(opportunity.label, names[strikes[-1][2]])
    where = squares[stop]
    emit("action_annulee", cancelled_move_sentence(mover, cause, out[i], where, spent),
         actor=mover, rules=(_cancel_rule(cause),),
         data={"from": list(squares[0]), "to": list(where),
               "path": [list(s) for s in squares[:stop + 1]], "cancelled": True,
               "spent": spent})


def _cancelled(words: _Words, ctx: Ctx[Any], entry: tuple[Any, ...], spent: bool) -> None:
    """The events of an attack its target interrupts (``actions.attaquer``,
    D20-IMM-1/2): the attack declared, the interruption, the attack cancelled."""
    _, _, i, j, used, points = entry
    sheet = words.sheet
    attacker, target = sheet.names[i], sheet.names[j]
    cost, cost_rules, slot = words.cost(used, points)
    ctx.emit("action", declared_sentence(attacker, SPECS["attaquer"].label, cost,
                                         attack_detail(_REACH, (target,))),
             actor=attacker, rules=cost_rules, data=_info("attaquer", slot, used))
    power = sheet.power[j]
    assert power is not None  # (the kernel cancels an attack only by a power)
    rtype = REACTION_TYPES[power.reaction]
    ctx.emit(rtype.id, reaction_stop_sentence(rtype.label.capitalize(), target, power.label,
                                              attack_trigger_text(attacker)),
             actor=target, rules=rtype.rules,
             data={"by": target, "type": rtype.id, "effect": power.effect,
                   "name": power.label})
    cause = reaction_cause(rtype.label, target)
    ctx.emit("action_annulee", cancelled_attack_sentence(attacker, cause, spent),
             actor=attacker, rules=(_cancel_rule(cause),),
             data={"cancelled": True, "spent": spent})


def _cancel_rule(cause: str) -> str:
    """The rule of an action cancelled by ``cause`` (``actions.attaquer``,
    ``actions.deplacement``): D20-OPP-1 for an opportunity attack, else D20-IMM-2."""
    return "D20-OPP-1" if cause.startswith("attaque") else "D20-IMM-2"


def _info(action: str, slot: str | None, used: tuple[str, ...]) -> dict[str, Json]:
    """The budget's data of an action's event (``actions._spend``)."""
    return {"action": action, "category": ACTION_CATEGORIES[action], "slot": slot,
            "used": list(used)}


def _initiative_draws(init: D20Initiative) -> int:
    """How many dice the initiative drew (D20-INIT-1/2, ``draw_initiative``): one d20
    per fighter, the roll-offs, and for each tie settled by lot one die fewer than the
    fighters it orders."""
    count = sum(1 + len(r.roll_offs) for r in init.rolls)
    groups: dict[tuple[int, int, tuple[int, ...]], int] = {}
    for r in init.rolls:
        if r.lot:
            key = (r.total, r.modifier, r.roll_offs)
            groups[key] = groups.get(key, 0) + 1
    return count + sum(k - 1 for k in groups.values())
