"""The Rulebook rules kernel: a fight as a sheet compiled once and a small mutable state.

The shape is the one of ``spec/KERNEL.md`` and of the model, the toy system's kernel
(``tests/toy_system/kernel.py``, whose docstring is the recipe); the d100 and d20
kernels have the same names:

* :class:`Sheet`, compiled and checked once per roster (:func:`compile_sheet`): the
  fighters by index, sides as numbers, each one's PV and Esprit, the die of its
  automatic hit (the simulation variant, ``variante_degats``), its speed profile from
  its traits (:func:`.speed.speed_profiles`: Hypoactivité's d4, RB-SPEED-1), the
  surprise attempt of the start options (RB-SURPRISE-1), the policies and end
  conditions; each global turn's order (RB-SPEED-3, RB-INIT-3/4, RB-SURPRISE-3) is
  asked once per shape of a turn (the initiative, the turn's kind, who stands) and
  kept.
* :class:`State`: PV, out, the activation's flags (the action, the change of posture,
  the movement of the global turn: RB-ACT-1, RB-MOVE-1), turn, order, cursor, the
  initiative and the surprise as drawn, and a log of tuples carrying every die
  (:data:`ATTACK`: ``(ATTACK, turn, attacker, target, die, PV before, PV after)``;
  :data:`HYPO`: ``(HYPO, turn, actor, d4, can act)``), with the marks of the fight's
  course (:data:`TURN_BEGIN`, :data:`ACTIVATION`, :data:`TURN_END`);
  :func:`.kernel_doors.write_back` gives the engine's state (today's save format),
  :func:`.kernel_doors.narrate` the engine's sentences of a tuple and
  :func:`.kernel_doors.narrated_run` the full engine's whole fight, its log narrated
  from the tuples (``Roster.play``).
* :func:`refusal` (0 when legal, else a code of :data:`REFUSALS`), :func:`candidates`
  (the move automated play offers, only a legal one, as tuples ``(tag, target)``),
  :func:`play` (one move: its die, the state written, the log tuple) and :func:`run`
  (the generic loop: candidates → policy → play → end check → advance, as
  ``Encounter.run``).

Each rule is the Rulebook package's own function: the surprise
(:func:`.surprise.draw_surprise`, RB-SURPRISE-1/2, the group values found once), the initiative
(:func:`.initiative.draw_initiative`, RB-INIT-1..4, RB-SURPRISE-3), each turn's order
(:func:`.initiative.turn_filter`, :func:`.speed.apply_speed`, RB-SPEED-2/3), the
Hypoactivité d4 (:func:`.speed.resolve_hypoactivity`, RB-SPEED-1), the legality of an
action (:func:`.actions.refusal_code`, RB-ACT-1, RB-MOVE-1, RB-INIT-3/4,
RB-SURPRISE-3, RB-END-2), the damage (:func:`.rules.track_after_damage`, RB-END-2), out
of the fight (:func:`.rules.knocked_out`, RB-END-2), the end check
(:func:`escarmouche.state.end_outcome`, CORE-END-1, RB-END-1).

What it covers (:func:`compile_sheet` answers ``None`` otherwise, and the engine plays
the fight): any roster of two sides or more whose fighters all declare
``variante_degats`` (the simulation variant: every activation an automatic hit of 1dN
PV on the first standing enemy), under deterministic policies
(:class:`~escarmouche.policies.TagPolicy`), with or without the surprise options, any
rules options and end conditions, the speed traits; no effect (speed effects gained
during the fight, poison… are the engine's). The equivalence tests
(``tests/test_rulebook_kernel.py``) hold every covered fight to the full engine: the
same state, the same dice consumed, the same sentences.

What still runs twice, held equal by the tests: the choice of the automatic hit's
target (:func:`candidates` here, ``RulebookSystem.auto_action`` there: the first
standing enemy in roster order, while the action is unused).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

from escarmouche.end_check import EndCheck
from escarmouche.errors import EscarmoucheError, RuleBoundError
from escarmouche.memo import Memo
from escarmouche.model import Combatant
from escarmouche.state import limit_outcome
from escarmouche.systems.rulebook.actions import COSTS, REFUSAL_RULES, refusal_code
from escarmouche.systems.rulebook.initiative import Initiative, draw_initiative, turn_filter
from escarmouche.systems.rulebook.rules import (
    DECLARED_DAMAGE,
    ECLAT,
    knocked_out,
    track_after_damage,
)
from escarmouche.systems.rulebook.speed import (
    SpeedOrder,
    apply_speed,
    resolve_hypoactivity,
    speed_profiles,
)
from escarmouche.systems.rulebook.surprise import SurpriseResult, draw_surprise, group_values

__all__ = [
    "ACTIVATION",
    "ATTACK",
    "HYPO",
    "NOT_ITS_TURN",
    "NO_TARGET",
    "REFUSALS",
    "SELF",
    "TURN_BEGIN",
    "TURN_END",
    "Move",
    "Sheet",
    "State",
    "acting",
    "advance",
    "candidates",
    "choose",
    "compile_sheet",
    "move_law",
    "play",
    "refusal",
    "run",
    "start",
    "start_law",
    "timeless_from",
]

#: the log's tuples: an automatic hit (« attaquer », RB-ACT-1, RB-END-2), Hypoactivité's
#: d4 at an activation (RB-SPEED-1)
ATTACK, HYPO = 0, 1
#: the log's marks of the fight's course, which the full engine's narration reads
#: (:func:`.kernel_doors.narrated_run`): a global turn begins ``(TURN_BEGIN, turn, its
#: slots)``, an activation begins ``(ACTIVATION, turn, actor, its number this turn)``
#: (before Hypoactivité's d4), a global turn ends ``(TURN_END, turn)``
TURN_BEGIN, ACTIVATION, TURN_END = -1, -2, -3
#: how :func:`start`, :func:`play` and :func:`advance` take their dice: a bare
#: ``randint`` function (the exact solver's door, ``escarmouche.exact``)
DICE = "randint"
#: the tag of the automatic hit, which the policies rank (``System.moves``)
TAG = "attaque"
#: the action's id in the engine's catalogue
ACTION = "attaquer"

#: refusal codes (0: legal): those of :func:`.actions.refusal_code` (RB-END-2,
#: RB-INIT-3/4, RB-SURPRISE-3, RB-MOVE-1, RB-ACT-1), then the kernel's own
NOT_ITS_TURN, NO_TARGET, SELF = 20, 21, 22
REFUSALS: Mapping[int, str] = {
    **REFUSAL_RULES,
    NOT_ITS_TURN: "RB-END-1",  # the fight finished (or not started): no activation
    NO_TARGET: "RB-END-2",  # no such fighter, or out of the fight
    SELF: "RB-ACT-1",  # an attack aims at an enemy, never at oneself
}

#: a move: its tag and the target's index
Move = tuple[str, int]

#: the start options the kernel covers (RB-SURPRISE-1)
_OPTIONS = frozenset({"surprise_par", "non_avertis"})
#: bound on slots skipped while looking for the next activation (the engine's)
_MAX_SKIPPED = 10_000
#: bound on the speed orders a sheet keeps
_MAX_KEPT = 4096


class Sheet:
    """One roster's fights, compiled and checked once (see the module docstring)."""

    def __init__(self, probe: Any, start_options: Mapping[str, Any],
                 policies: Mapping[str, Any]) -> None:
        from escarmouche.policies import MAX_CHOICES

        st = probe.state
        rules = probe.rules
        fighters = list(st.fighters.values())
        self.probe = probe  # the fight started once, on throwaway dice: write_back's base
        self.rules = rules
        self.names = tuple(f.name for f in fighters)
        self.index = {name: i for i, name in enumerate(self.names)}
        self.combatants: tuple[Combatant, ...] = tuple(f.combatant for f in fighters)
        self.side_names = tuple(dict.fromkeys(f.side for f in fighters))
        self.side = tuple(self.side_names.index(f.side) for f in fighters)
        self.pv = tuple(int(f.tracks["PV"]) for f in fighters)
        self.esprit = tuple(int(f.tracks["Esprit"]) for f in fighters)
        self.pv_max = tuple(int(f.maxima.get("PV", f.tracks["PV"])) for f in fighters)
        #: the die of each one's automatic hit (the simulation variant, RB-END-2)
        self.faces = tuple(int(c.stats[DECLARED_DAMAGE]) for c in self.combatants)
        self.enemies = tuple(tuple(j for j, g in enumerate(fighters) if g.side != f.side)
                             for f in fighters)
        self.policies: tuple[Any, ...] = tuple(policies.get(f.side) for f in fighters)
        #: the most moves an activation plays (automated play's bound)
        self.max_choices = MAX_CHOICES
        #: whether each one's policy plays the automatic hit when it is offered
        #: (:meth:`~escarmouche.policies.TagPolicy.pick_tagged` of the one move
        #: :func:`candidates` offers, which reads only its tag): :func:`choose`
        self.takes = tuple(p.pick_tagged([(TAG, -1)]) is not None for p in self.policies)
        #: whether the automatic hit costs the activation's action (its cost declared in
        #: :data:`.actions.COSTS`), which :func:`.actions.refusal_code` refuses once used
        #: whatever else holds (RB-ACT-1): :func:`candidates` then offers nothing without
        #: asking :func:`refusal`
        self.spent_refused = COSTS[ACTION] == "action"
        profiles = speed_profiles(self.combatants)
        #: whether each one rolls Hypoactivité's d4 at its activations (RB-SPEED-1/2)
        self.hypoactive = tuple(n in profiles and "hypoactivite" in profiles[n].active
                                for n in self.names)
        #: each one's speed profile from its traits (RB-SPEED-1/2), by name
        self.profiles = profiles
        #: the surprise attempt (RB-SURPRISE-1): the side, attackers, defenders, unaware
        self.surprise_by: str | None = start_options.get("surprise_par")
        self.unaware = bool(probe.state.system_state.get("surprise", {}).get("unaware"))
        #: the group values of the opposed test (RB-SURPRISE-2, ``group_values``: they do
        #: not depend on the dice)
        self.surprise_values = None if self.surprise_by is None else group_values(
            [c for c in self.combatants if c.side == self.surprise_by],
            [c for c in self.combatants if c.side != self.surprise_by],
            unaware=self.unaware, rules=rules)
        self.end_conditions = tuple(st.end_conditions)
        self.turn_conditions = any(c.kind == "tours" for c in st.end_conditions)
        #: the engine's end check on the kernel's state (its answers kept per state it
        #: reads, :class:`escarmouche.end_check.EndCheck`)
        self.end_check = EndCheck(st, "PV")
        self._orders: dict[tuple[Any, ...], tuple[int, ...]] = {}
        self._speeds: dict[tuple[str, ...], SpeedOrder] = {}
        #: :func:`move_law`'s answers by (die, PV before)
        self.laws: dict[tuple[int, int], tuple[tuple[Fraction, tuple[int, ...]], ...]] = {}
        #: each shape of a turn's order as the full engine's narration explains it
        #: (:func:`.kernel_doors.narrated_run`)
        self.orders_told: Memo[tuple[SpeedOrder, tuple[str, ...]]] = Memo(4096)
        #: the words of its events, by shape, and the full engine's fight it starts
        #: from, never changed (:func:`.kernel_doors.narrated_run`)
        self.told: Memo[Any] = Memo(8192)
        self.blank: Any = None

    def speed_of(self, order: Sequence[str]) -> SpeedOrder:
        """The initiative order after the traits' speed effects (RB-SPEED-2/3,
        :func:`.speed.apply_speed` of :func:`.speed.speed_profiles`, as the initiative
        gives it), asked once per order and kept (one per permutation of the roster at
        most, :data:`_MAX_KEPT` kept)."""
        key = tuple(order)
        known = self._speeds.get(key)
        if known is None:
            if len(self._speeds) >= _MAX_KEPT:
                self._speeds.clear()
            known = self._speeds[key] = apply_speed(key, self.profiles, self.rules)
        return known

    def turn_order(self, init: Initiative, turn: int, out: list[bool]) -> tuple[int, ...]:
        """Global turn ``turn``'s slots, as ``RulebookSystem.turn_order`` gives them: the
        standing fighters in the initiative order, after the speed effects of their
        traits (:func:`.speed.apply_speed`, RB-SPEED-2/3), restricted to those who act in
        this turn (:func:`.initiative.turn_filter`, RB-INIT-3/4, RB-SURPRISE-3), each
        Hyperactivité twice from turn 1; asked once per shape of a turn."""
        key = (init.order, init.turn_zero, init.late, min(turn, 2), tuple(out))
        known = self._orders.get(key)
        if known is None:
            index = self.index
            standing = [n for n in init.order if not out[index[n]]]
            speed = apply_speed(standing, {n: self.profiles[n] for n in standing
                                           if n in self.profiles}, self.rules)
            include, exclude = turn_filter(turn, init.turn_zero, init.late)
            slots = speed.slots(include, exclude=exclude, twice=turn > 0)
            known = self._orders[key] = tuple(index[n] for n in slots)
        return known

    def play(self, dice: Any, max_turns: int
             ) -> tuple[list[tuple[str, bool, int, int]], int, int, int]:
        """One fight on ``dice``: each fighter's (side, standing, PV, PV at most) (the
        simulation variant takes only PV), the last turn, no tie settled by lot, and the
        first turn (0 when a turn 0 was played, RB-INIT-3, RB-SURPRISE-3)."""
        st = run(self, dice.randint, max_turns)
        side, names = self.side, self.side_names
        rows = [(names[side[i]], not st.out[i], st.pv[i], self.pv_max[i])
                for i in range(len(self.names))]
        return rows, st.turn, 0, st.first_turn


class State:
    """A fight where it stands, compact and mutable (see the module docstring)."""

    __slots__ = ("acted", "activations", "cursor", "finished", "first_turn", "in_turn",
                 "initiative", "log", "moved", "order", "out", "outcome", "posed", "pv",
                 "surprise", "turn")

    def __init__(self, sheet: Sheet, init: Initiative, surprise: SurpriseResult | None
                 ) -> None:
        n = len(sheet.names)
        self.initiative = init  # RB-INIT-1..4 as drawn
        self.surprise = surprise  # RB-SURPRISE-1/2 as drawn (None: no attempt)
        self.pv = list(sheet.pv)
        self.out = [False] * n
        #: the activation's flags (RB-ACT-1): the action used, the posture changed
        self.acted = [False] * n
        self.posed = [False] * n
        #: the movement of the global turn still available (RB-MOVE-1)
        self.moved = [False] * n
        self.first_turn = 1 if not init.turn_zero else 0  # (all stand at the start)
        self.turn = self.first_turn
        self.order: tuple[int, ...] = ()
        self.in_turn: frozenset[int] = frozenset()
        self.cursor = -1
        self.activations: dict[int, int] = {}
        self.finished = False
        self.outcome: str | None = None
        self.log: list[tuple[Any, ...]] = []

    def copy(self) -> State:
        """A copy to play on (the exact solver's door, ``escarmouche.exact``): every
        mutable field copied; the log, a record the fight never reads, starts empty."""
        new = State.__new__(State)
        new.initiative, new.surprise, new.first_turn = (self.initiative, self.surprise,
                                                        self.first_turn)
        new.pv, new.out, new.acted = self.pv[:], self.out[:], self.acted[:]
        new.posed, new.moved = self.posed[:], self.moved[:]
        new.turn, new.order, new.in_turn, new.cursor = (self.turn, self.order,
                                                        self.in_turn, self.cursor)
        new.activations = dict(self.activations)
        new.finished, new.outcome = self.finished, self.outcome
        new.log = []
        return new

    def key(self) -> tuple[Any, ...]:
        """What the rest of the fight depends on, hashable (the exact solver's door):
        every field but the records (the log, the activations counted, the dice of the
        surprise and of the initiative: only the order, turn 0, the late and whether a
        surprise succeeded are read on) and the turn, which the solver keeps beside it
        (:func:`timeless_from`)."""
        init = self.initiative
        return (tuple(self.pv), tuple(self.out), tuple(self.acted), tuple(self.posed),
                tuple(self.moved), self.order, self.cursor,
                self.finished, self.outcome,
                init.order, init.turn_zero, init.late, init.surprise_by)


def refusal(sheet: Sheet, st: State, actor: int, move: Move) -> int:
    """0 when ``actor`` may play ``move`` (the automatic hit on ``move[1]``) now, else its
    code of :data:`REFUSALS`, asked in the engine's order: the fight running
    (RB-ACT-1); the rules' test of the action (:func:`.actions.refusal_code`:
    standing, in its activation or else not late, in the turn and only a movement,
    the action unused; RB-END-2, RB-INIT-3/4, RB-SURPRISE-3, RB-MOVE-1, RB-ACT-1); a
    standing target (RB-END-2), not itself (RB-ACT-1)."""
    if st.finished or st.cursor < 0:
        return NOT_ITS_TURN
    code = refusal_code(
        ACTION, standing=not st.out[actor], acting=st.order[st.cursor] == actor,
        before_turn_2=st.turn < 2, late=sheet.names[actor] in st.initiative.late,
        in_turn=actor in st.in_turn, surprise=st.initiative.surprise_by is not None,
        action_used=st.acted[actor], posture_used=st.posed[actor],
        move_left=st.moved[actor], eclat=0)
    if code:
        return code
    target = move[1]
    if not 0 <= target < len(st.out) or st.out[target]:
        return NO_TARGET
    if target == actor:
        return SELF
    return 0


def candidates(sheet: Sheet, st: State, actor: int) -> Iterator[Move]:
    """``actor``'s move in automated play (``RulebookSystem.auto_action``, the
    simulation variant): the automatic hit on the first standing enemy in roster
    order, when :func:`refusal` accepts it (its action unused, RB-ACT-1)."""
    move = _candidate(sheet, st, actor)
    return iter(() if move is None else (move,))


def _candidate(sheet: Sheet, st: State, actor: int) -> Move | None:
    """:func:`candidates`' move, or ``None``. Once the activation's action is used,
    none without asking :func:`refusal`, when :attr:`Sheet.spent_refused` says it
    refuses the hit then whatever else holds (RB-ACT-1)."""
    if st.acted[actor] and sheet.spent_refused:
        return None
    out = st.out
    for j in sheet.enemies[actor]:
        if not out[j]:
            move = (TAG, j)
            return move if refusal(sheet, st, actor, move) == 0 else None
    return None


def play(sheet: Sheet, st: State, actor: int, move: Move,
         randint: Callable[[int, int], int]) -> None:
    """Play a legal ``move`` (trusted: ask :func:`refusal` first): the action used
    (RB-ACT-1), the hit's 1dN (the simulation variant), the PV lost (never below 0,
    :func:`.rules.track_after_damage`), out at 0 (:func:`.rules.knocked_out`, RB-END-2),
    one log tuple; the end check when a fighter falls."""
    target = move[1]
    st.acted[actor] = True
    roll = randint(1, sheet.faces[actor])
    before = st.pv[target]
    after = track_after_damage(before, roll)
    st.pv[target] = after
    st.log.append((ATTACK, st.turn, actor, target, roll, before, after))
    if knocked_out(after, sheet.esprit[target]):
        st.out[target] = True
        _check_end(sheet, st, False)


def _check_end(sheet: Sheet, st: State, at_turn_end: bool) -> None:
    """The engine's end check (:func:`escarmouche.state.end_outcome`, through the sheet's
    :class:`escarmouche.end_check.EndCheck`); asked only when something it reads changed (a
    fighter out, a turn ends under a condition « tours »)."""
    outcome = sheet.end_check(st.out, st.pv, st.turn, at_turn_end)
    if outcome is not None:
        st.finished, st.outcome = True, outcome


def _begin_turn(sheet: Sheet, st: State) -> None:
    """A global turn begins (``Encounter._begin_turn``, RB-TURN-1): its order
    (:meth:`Sheet.turn_order`); each standing fighter's movement back (RB-MOVE-1)."""
    st.order = sheet.turn_order(st.initiative, st.turn, st.out)
    st.in_turn = frozenset(st.order)
    st.cursor = -1
    st.activations = {}
    st.moved = [not o for o in st.out]
    st.log.append((TURN_BEGIN, st.turn, st.order))


def _advance(sheet: Sheet, st: State, randint: Callable[[int, int], int]) -> None:
    """The next slot that can act (``Encounter._advance``), ending and starting global
    turns; an activation gives a fresh action and change of posture (RB-ACT-1), and
    under Hypoactivité its d4 first: on a 4, no activation (RB-SPEED-1)."""
    log, out = st.log, st.out
    for _ in range(_MAX_SKIPPED):
        if st.finished:
            return
        cursor = st.cursor = st.cursor + 1
        order = st.order  # a new one at each global turn (_begin_turn)
        if cursor >= len(order):
            log.append((TURN_END, st.turn))
            if sheet.turn_conditions:
                _check_end(sheet, st, True)
                if st.finished:
                    return
            st.turn += 1
            _begin_turn(sheet, st)
            continue
        actor = order[cursor]
        if out[actor]:
            continue
        activations = st.activations
        count = activations[actor] = activations.get(actor, 0) + 1
        log.append((ACTIVATION, st.turn, actor, count))
        st.acted[actor] = st.posed[actor] = False
        if not sheet.hypoactive[actor]:
            return
        roll = randint(1, 4)
        can_act = resolve_hypoactivity(roll).can_act
        log.append((HYPO, st.turn, actor, roll, can_act))
        if can_act:
            return
    raise RuleBoundError("Combat bloqué : personne n’a pu agir (CORE-ERR).",
                         field="activations", value=_MAX_SKIPPED, rule="CORE-ERR")


def _surprise(sheet: Sheet, randint: Callable[[int, int], int]) -> SurpriseResult | None:
    """The surprise attempt when the start options ask for it (RB-SURPRISE-1/2,
    :func:`.surprise.draw_surprise`), else ``None``."""
    if sheet.surprise_values is None:
        return None
    return draw_surprise(sheet.surprise_values, randint, unaware=sheet.unaware,
                         rules=sheet.rules, checked=True)


def _initiative(sheet: Sheet, randint: Callable[[int, int], int],
                surprise: SurpriseResult | None) -> Initiative:
    """The initiative after the surprise attempt (RB-INIT-1..4, RB-SURPRISE-3,
    :func:`.initiative.draw_initiative`, drawn as the engine draws it, the roster
    checked once by :func:`compile_sheet`)."""
    succeeded = sheet.surprise_by if surprise is not None and surprise.success else None
    return draw_initiative(sheet.combatants, randint, succeeded, sheet.rules,
                           speed_of=sheet.speed_of)


def _started(sheet: Sheet, randint: Callable[[int, int], int], init: Initiative,
             surprise: SurpriseResult | None) -> State:
    """The fight once the initiative is drawn: the first activation of turn 0 when
    somebody is in it, else of turn 1 (Hypoactivité's d4 drawn there, RB-SPEED-1)."""
    st = State(sheet, init, surprise)
    _begin_turn(sheet, st)
    _advance(sheet, st, randint)
    return st


def start(sheet: Sheet, randint: Callable[[int, int], int]) -> State:
    """The fight's start (``Encounter.start``): the surprise attempt
    (:func:`_surprise`), the initiative (:func:`_initiative`), then the first
    activation (:func:`_started`)."""
    surprise = _surprise(sheet, randint)
    return _started(sheet, randint, _initiative(sheet, randint, surprise), surprise)


def _grouped(pairs: list[tuple[Any, Any]], key: Callable[[Any], Any]) -> list[list[Any]]:
    """``pairs`` (value, chance) merged by ``key`` of the value: one representative
    value per class, with the class's chance."""
    classes: dict[Any, list[Any]] = {}
    for value, p in pairs:
        slot = classes.get(key(value))
        if slot is None:
            classes[key(value)] = [value, p]
        else:
            slot[1] += p
    return list(classes.values())


def start_law(sheet: Sheet, law: Callable[[Callable[[Any], Any]], list[tuple[Any, Any]]]
              ) -> list[tuple[State, Any]]:
    """The law of the fight's first states (the exact solver's door), each with its
    chance by ``law`` (the solver's enumerator of a function of the dice): the surprise
    attempt's two d100 (:func:`_surprise`) enumerated alone and grouped by its success,
    the only thing the rest of the fight reads of it (RB-SURPRISE-3), then the
    initiative's d100 (:func:`_initiative`) once per success, grouped by what the
    fight reads of it (the order, turn 0, the late: RB-INIT-2..4), then the first
    activation (:func:`_started`) once per class: 2 × 100² sequences instead of
    100⁴. Refused (CORE-ERR, in French) when two fighters have the same HAB: their
    roll-offs (RB-INIT-2) can repeat without bound."""
    habs = [c.stats["HAB"] for c in sheet.combatants]
    if len(set(habs)) < len(habs):
        from escarmouche.exact import refused

        raise refused("deux combattants ont la même HAB, et leurs départages d’initiative "
                      "peuvent se répéter sans fin", "HAB", habs, "RB-INIT-2, CORE-ERR")
    out: list[tuple[State, Any]] = []
    for surprise, p in _grouped(law(lambda randint: _surprise(sheet, randint)),
                                lambda s: None if s is None else s.success):
        def initiative_of(randint: Callable[[int, int], int],
                          s: SurpriseResult | None = surprise) -> Initiative:
            return _initiative(sheet, randint, s)

        for init, q in _grouped(law(initiative_of),
                                lambda i: (i.order, i.turn_zero, i.late)):
            def started(randint: Callable[[int, int], int], i: Initiative = init,
                        s: SurpriseResult | None = surprise) -> State:
                return _started(sheet, randint, i, s)

            out.extend((st, p * q * r) for st, r in law(started))
    return out


def acting(st: State) -> int:
    """Who acts now: the fighter of the turn's slot at the cursor (the exact solver's
    door)."""
    return st.order[st.cursor]


def choose(sheet: Sheet, st: State, actor: int) -> Move | None:
    """The move ``actor``'s policy plays now among :func:`candidates`
    (:meth:`~escarmouche.policies.TagPolicy.pick_tagged`: :attr:`Sheet.takes`, asked
    once per fighter), or ``None``: it passes (:func:`run`'s choice, and the exact
    solver's door)."""
    return _candidate(sheet, st, actor) if sheet.takes[actor] else None


def advance(sheet: Sheet, st: State, randint: Callable[[int, int], int]) -> None:
    """The next activation (``Encounter.end_activation``): :func:`_advance`, with
    Hypoactivité's d4 drawn there (RB-SPEED-1)."""
    _advance(sheet, st, randint)


def move_law(sheet: Sheet, st: State, actor: int, move: Move
             ) -> tuple[tuple[Fraction, tuple[int, ...]], ...]:
    """The law of the automatic hit's die (the exact solver's door): its faces grouped
    by the target's PV they leave (:func:`.rules.track_after_damage`, never below 0,
    RB-END-2), each class with its chance and one face that gives it; kept per (die,
    PV before) on the sheet."""
    faces, before = sheet.faces[actor], st.pv[move[1]]
    law = sheet.laws.get((faces, before))
    if law is None:
        classes: dict[int, list[int]] = {}
        for v in range(1, faces + 1):
            classes.setdefault(track_after_damage(before, v), []).append(v)
        law = sheet.laws[faces, before] = tuple(
            (Fraction(len(vs), faces), (vs[0],)) for vs in classes.values())
    return law


def timeless_from(sheet: Sheet) -> int | None:
    """The turn from which the rest of a fight reads the turn's number only for its
    cap (the exact solver's door): from global turn 2, turns 0 and 1 being over
    (RB-INIT-3/4, RB-SURPRISE-3, Hyperactivité's second slot from turn 1); never under
    an end condition « tours » (CORE-END-1)."""
    return None if sheet.turn_conditions else 2



def run(sheet: Sheet, randint: Callable[[int, int], int], max_turns: int) -> State:
    """A whole fight (``Encounter.start`` then ``Encounter.run``): each activation's
    moves chosen by the fighter's policy until it passes, until an end condition holds
    or ``max_turns`` global turns have passed."""
    st = start(sheet, randint)
    choices = sheet.max_choices
    while not st.finished:
        if st.turn > max_turns:
            st.finished, st.outcome = True, limit_outcome(max_turns)
            break
        actor = st.order[st.cursor]
        for _ in range(choices):
            move = choose(sheet, st, actor)
            if move is None:
                break
            play(sheet, st, actor, move, randint)
            if st.finished:
                break
        if st.finished:
            break
        _advance(sheet, st, randint)
    return st


def compile_sheet(template: Any, start_options: Mapping[str, Any],
                  policies: Mapping[str, Any]) -> Sheet | None:
    """The sheet of ``template``'s fights (an unstarted Rulebook ``Encounter``) with
    these start options and policies (side → policy), or ``None`` when the kernel does
    not cover them (the engine plays them)."""
    from escarmouche.policies import TagPolicy

    st = template.state
    fighters = list(st.fighters.values())
    if (st.started or st.effects or set(start_options) - _OPTIONS
            or len({f.side for f in fighters}) < 2
            or any(type(p) is not TagPolicy for p in policies.values())
            or any(f.out or f.fled or DECLARED_DAMAGE not in f.combatant.stats
                   or set(f.tracks) - {"PV", "Esprit", ECLAT}
                   or knocked_out(f.tracks["PV"], f.tracks["Esprit"])
                   for f in fighters)):
        return None
    probe = template.simulated()
    try:
        probe.start(random.Random(0), **start_options)
    except EscarmoucheError:
        return None  # the engine refuses it, in its own words
    return Sheet(probe, start_options, policies)
