"""The d20 rules kernel: a fight as a sheet compiled once and a small mutable state.

The shape is the one of ``spec/KERNEL.md`` and of the model, the toy system's kernel
(``tests/toy_system/kernel.py``, whose docstring is the recipe); the d100 kernel
(``escarmouche.systems.d100.kernel``) has the same names:

* :class:`Sheet`, compiled and checked once per roster (:func:`compile_sheet`): the
  fighters by index, sides as numbers, each one's ``init``, attack bonus, defence
  (:func:`.rules.defence_of`), speed (:func:`.rules.speed_of`), action points
  (:func:`.rules.action_points_of`), starting square (the start option ``positions``
  or the default columns, :func:`.grid.initial_positions`), the immediate power it may
  oppose to an attack (:data:`.rules.IMMEDIATE_POWERS`), what its policy answers to the
  reactions the rules offer, the options as plain values; the turn budget's answers
  (:func:`.turn.plan_turn`) are asked once per shape of a turn and kept.
* :class:`State`: PV, out, squares, action points left, each one's turn budget (the
  categories used, the points spent), opportunity and immediate allowances, turn,
  order, cursor, the initiative as drawn, and a log of tuples carrying every die
  (:data:`ATTACK`: ``(ATTACK, turn, attacker, target, d20, damage or -1, PV left,
  categories used, points spent)``) and marking the rounds and turns
  (:data:`TURN_BEGIN`, :data:`ACTIVATION`, :data:`TURN_END`);
  :func:`.kernel_doors.write_back` gives the engine's state (today's save format),
  :func:`.kernel_doors.narrate` the engine's sentences and
  :func:`.kernel_doors.narrated_run` the full engine's fight, its log narrated.
* :func:`refusal` (0 when legal, else a code of :data:`REFUSALS`), :func:`candidates`
  (the moves automated play offers, only legal ones, as tuples ``(tag, action, target,
  path)``, in the engine's order: ``D20System.moves`` then ``offered``), :func:`play`
  (one move: its dice, the state written, the log tuples) and :func:`run` (the generic
  loop: candidates → policy → play → end check → advance, as ``Encounter.run``).

Each rule is the d20 package's own function: the initiative
(:func:`.initiative.draw_initiative`, D20-INIT-1/2), the turn budget
(:func:`.turn.plan_turn`, D20-ACT-1..3), the attack (:func:`.actions.attack_hits`,
:func:`.actions.weapon_damage`, the weapon rolled by :func:`escarmouche.dice.roll`),
the automated move and the legality of a path (:func:`.grid.greedy_path`,
:func:`.grid.path_fault`, D20-ACT-1, D20-OPP-2), a cancelled action given back or not
(:func:`.rules.refunded`, D20-OPP-1, D20-IMM-2), the allowances' return
(:func:`.rules.immediate_resets`, D20-IMM-1), the end check
(:func:`escarmouche.state.end_outcome`, CORE-END-1).

What it covers (:func:`compile_sheet` answers ``None`` otherwise, and the engine plays
the fight): any roster of two sides or more under deterministic policies
(:class:`~escarmouche.policies.TagPolicy`), with or without the start option
``positions``, any options and end conditions: attacks in melee, moves towards the
nearest enemy with the opportunity attacks they allow (D20-OPP-1/2), action points
spent to attack again (D20-ACT-3), the halfling's « Deuxième chance » interrupting an
attack (D20-IMM-1/2); no effect (D20-START-1, D20-END-1/2 need none then). The
equivalence tests (``tests/test_d20_kernel.py``) hold every covered fight to the full
engine: the same state, the same dice consumed, the same sentences.

The engine's door ``D20System.moves`` (automated play in the full engine, any policy,
effects included) is :func:`candidates` on :func:`.kernel_doors.view` of the live fight,
with the reactions asked of the policies: one list of automated play's moves. What
still runs twice, held equal by the tests: the legality of an action (:func:`refusal`
here, the engine's ``check_legal``, ``_attack_targets``, ``check_path`` and the budget's
``_spend`` for ``Encounter.act``, which word it in French, on the same
:func:`.grid.path_fault` and :func:`.turn.plan_turn`), and the resolution of an attack
and a move (:func:`play` here, the resolvers ``attaquer`` and ``deplacement`` there,
over the same :func:`.actions.attack_hits`, :func:`.actions.weapon_damage` and
:func:`.rules.refunded`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from typing import Any

from escarmouche.dice import ScriptedRolls, draw_law
from escarmouche.dice import roll as roll_dice
from escarmouche.end_check import EndCheck
from escarmouche.errors import EscarmoucheError, RuleBoundError
from escarmouche.memo import Memo
from escarmouche.model import Combatant
from escarmouche.rng import RandintOnly
from escarmouche.state import limit_outcome
from escarmouche.systems.d20.actions import attack_hits, weapon_damage
from escarmouche.systems.d20.grid import Square, around, distance, greedy_path, path_fault
from escarmouche.systems.d20.initiative import D20Initiative, draw_initiative
from escarmouche.systems.d20.rules import (
    ATTACK_DIE,
    IMMEDIATE_POWERS,
    SIMPLE,
    TRACK,
    ImmediatePower,
    defence_of,
    immediate_resets,
    refunded,
    speed_of,
)
from escarmouche.systems.d20.rules import MOVE as MOVE_CATEGORY
from escarmouche.systems.d20.turn import plan_turn

__all__ = [
    "ACTIVATION",
    "ATTACK",
    "CANCELLED",
    "MOVE",
    "OPPORTUNITY",
    "POINT",
    "REFUSALS",
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
    "retime",
    "run",
    "start",
    "timeless_from",
]

#: how :func:`start`, :func:`play` and :func:`advance` take their dice: an object with
#: ``randint`` (the exact solver's door, ``escarmouche.exact``)
DICE = "rng"

#: the moves' actions: an attack (« attaquer »), a move (« deplacement »), an action
#: point spent (« point_action »); then the log's other tuples: an opportunity attack
#: (D20-OPP-1/2), an attack cancelled by an interruption (D20-IMM-2)
ATTACK, MOVE, POINT, OPPORTUNITY, CANCELLED = 0, 1, 2, 3, 4
#: the log's marks of the fight's course, which the full engine's narration reads
#: (:func:`.kernel_doors.narrated_run`): a round begins ``(TURN_BEGIN, turn)``, a
#: fighter's turn begins ``(ACTIVATION, turn, actor, its number this round)``, a round
#: ends ``(TURN_END, turn)``
TURN_BEGIN, ACTIVATION, TURN_END = -1, -2, -3
#: each action's id in the engine's catalogue
ACTIONS = ("attaquer", "deplacement", "point_action")

#: refusal codes (0: legal), each with the rule the engine cites
(OUT, NOT_ITS_TURN, NO_TARGET, NOT_ADJACENT, NO_POINT, POINT_CAP, NO_SQUARE, BAD_LENGTH,
 NOT_NEIGHBOUR, BLOCKED, NO_SLOT) = range(1, 12)
REFUSALS: Mapping[int, str] = {
    OUT: "D20-ACT-1",  # out of the fight: nothing more
    NOT_ITS_TURN: "D20-ACT-1",  # an action of the turn, in one's own turn only
    NO_TARGET: "CORE-ERR",  # no such fighter, itself, or out of the fight
    NOT_ADJACENT: "D20-OPP-2",  # a melee attack aims at an adjacent creature
    NO_POINT: "D20-ACT-3",  # no action point left
    POINT_CAP: "D20-ACT-3",  # the cap of points per turn reached
    NO_SQUARE: "D20-ACT-1",  # a move from nowhere: not on the grid
    BAD_LENGTH: "D20-ACT-1",  # a move of no square, or more than the speed
    NOT_NEIGHBOUR: "D20-OPP-2",  # each step to one of the 8 neighbouring squares
    BLOCKED: "D20-ACT-1",  # through an enemy, or ending on an ally
    NO_SLOT: "D20-ACT-2",  # no slot left in the turn for its category
}

#: a move: its tag (what the policies rank), action, target (-1: none), path (the
#: squares entered, in order; ``()`` but for a move)
Move = tuple[str, int, int, tuple[Square, ...]]
#: the allowance of one opportunity action: the activation it was used in (turn, cursor)
_Key = tuple[int, int]

#: the reactions' options, as the engine offers them to the policies
_OPPORTUNITY = ("attaque_opportunite", "aucune")
#: the start options the kernel covers
_OPTIONS = frozenset({"positions"})
#: bound on slots skipped while looking for the next activation (the engine's)
_MAX_SKIPPED = 10_000
#: bound on the paths a sheet keeps (:attr:`Sheet.paths`)
_MAX_PATHS = 4096


class Sheet:
    """One roster's fights, compiled and checked once (see the module docstring)."""

    def __init__(self, probe: Any, policies: Mapping[str, Any]) -> None:
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
        self.hp = tuple(int(f.tracks[TRACK]) for f in fighters)
        self.maxima = tuple(int(f.maxima.get(TRACK, f.tracks[TRACK])) for f in fighters)
        self.inits = tuple(c.stat("init", 0) for c in self.combatants)
        self.bonus = tuple(c.stat("attaque", 0) for c in self.combatants)
        self.defence = tuple(defence_of(c, rules) for c in self.combatants)
        self.speed = tuple(speed_of(c, rules) for c in self.combatants)
        #: the action points of each at the start (``start``: :func:`.rules.action_points_of`)
        self.points = tuple(int(f.flags["pa"]) for f in fighters)
        self.squares: tuple[Square | None, ...] = tuple(
            None if f.flags["pos"] is None else (int(f.flags["pos"][0]), int(f.flags["pos"][1]))
            for f in fighters)
        self.weapon: str = rules.default_weapon
        self.enemies = tuple(tuple(j for j, g in enumerate(fighters) if g.side != f.side)
                             for f in fighters)
        self.policies: tuple[Any, ...] = tuple(policies.get(f.side) for f in fighters)
        #: whether each one's policy takes the opportunity attacks offered (D20-OPP-1/2)
        self.takes_opportunity = tuple(
            p is not None and p.react("attaque_opportunite", list(_OPPORTUNITY), None)
            == _OPPORTUNITY[0] for p in self.policies)
        #: the immediate power each one opposes to an attack aimed at it, when its
        #: policy takes it (D20-IMM-1/2; ``moves``' ``_immediate_against``), or ``None``
        self.power = tuple(self._power(c, p) for c, p in zip(self.combatants, self.policies,
                                                             strict=True))
        self.end_conditions = tuple(st.end_conditions)
        self.turn_conditions = any(c.kind == "tours" for c in st.end_conditions)
        #: the engine's end check on the kernel's state (its answers kept per state it
        #: reads, :class:`escarmouche.end_check.EndCheck`)
        self.end_check = EndCheck(st, TRACK)
        #: :func:`.grid.greedy_path`'s answers by (from, towards, steps, the squares
        #: taken): a fight's first moves are the same from fight to fight
        self.paths: Memo[tuple[Square, ...]] = Memo(_MAX_PATHS)
        self.round_reset = immediate_resets(rules, "debut_du_round")
        self.own_reset = immediate_resets(rules, "debut_de_son_tour")
        self.cap: int | None = rules.max_action_points_per_turn
        self.spent_stays: bool = rules.cancelled_action_spent
        self._allows: dict[tuple[tuple[str, ...], int, str], bool] = {}
        #: :func:`move_law`'s answers by (attacker, target, its PV)
        self.laws: dict[tuple[int, int, int], tuple[tuple[Fraction, tuple[int, ...]], ...]] = {}
        #: what the full engine's narration works out once and keeps (its sentences by
        #: shape, bounded: :func:`.kernel_doors.narrated_run`)
        self.narration: Any = None

    @staticmethod
    def _power(c: Combatant, policy: Any) -> ImmediatePower | None:
        for power in powers_of(c):
            if policy is None or policy.react("action_immediate", [power.id, "aucune"],
                                              None) != power.id:
                return None
            return power
        return None

    def allows(self, used: tuple[str, ...], points: int, category: str) -> bool:
        """D20-ACT-1..3 (:func:`.turn.plan_turn`): whether one more action of
        ``category`` fits a turn that used ``used`` with ``points`` action points spent;
        asked once per turn shape."""
        key = (used, points, category)
        known = self._allows.get(key)
        if known is None:
            plan = plan_turn(used, action_points=points, rules=self.rules)
            known = self._allows[key] = plan.allows(category)
        return known

    def play(self, dice: Any, max_turns: int
             ) -> tuple[list[tuple[str, bool, int, int]], int, int]:
        """One fight on ``dice``: each fighter's (side, standing, PV, PV at most), the
        last turn and the initiative ties settled by lot (D20-INIT-2)."""
        st = run(self, dice.randint, max_turns)
        side, names = self.side, self.side_names
        rows = [(names[side[i]], not st.out[i], st.hp[i], self.maxima[i])
                for i in range(len(self.names))]
        lots = 0
        if any(r.lot for r in st.initiative.rolls):
            lots = len({(r.total, r.modifier, r.roll_offs) for r in st.initiative.rolls
                        if r.lot})
        return rows, st.turn, lots


def powers_of(c: Combatant) -> tuple[ImmediatePower, ...]:
    """The immediate powers of :data:`.rules.IMMEDIATE_POWERS` that ``c`` opposes to an
    enemy's attack aimed at it (trigger ``"attaque_subie"``, by its trait), in order."""
    return tuple(p for p in IMMEDIATE_POWERS.values()
                 if p.trigger == "attaque_subie" and p.trait in c.traits)


class State:
    """A fight where it stands, compact and mutable (see the module docstring)."""

    __slots__ = ("activations", "budget", "cursor", "finished", "hp", "immediate",
                 "initiative", "log", "opportunity", "order", "out", "outcome", "pa",
                 "points", "pos", "turn")

    def __init__(self, sheet: Sheet, initiative: D20Initiative) -> None:
        n = len(sheet.names)
        self.initiative = initiative  # D20-INIT-1 as drawn
        self.order = tuple(sheet.index[name] for name in initiative.order)
        self.hp = list(sheet.hp)
        self.out = [False] * n
        self.pos: list[Square | None] = list(sheet.squares)
        self.pa = list(sheet.points)
        #: each one's turn budget: the categories used, the action points spent
        #: (its last turn's, as the engine's ``flags["budget"]``)
        self.budget: list[tuple[str, ...]] = [()] * n
        self.points = [0] * n
        self.opportunity: list[_Key | None] = [None] * n
        self.immediate = [False] * n
        self.turn = 1
        self.cursor = -1
        self.activations: dict[int, int] = {}
        self.finished = False
        self.outcome: str | None = None
        self.log: list[tuple[Any, ...]] = []

    def copy(self) -> State:
        """A copy to play on (the exact solver's door, ``escarmouche.exact``): every
        mutable field copied; the log, a record the fight never reads, starts empty."""
        new = State.__new__(State)
        new.initiative, new.order, new.turn, new.cursor = (self.initiative, self.order,
                                                           self.turn, self.cursor)
        new.finished, new.outcome = self.finished, self.outcome
        new.hp, new.out, new.pos, new.pa = self.hp[:], self.out[:], self.pos[:], self.pa[:]
        new.budget, new.points = self.budget[:], self.points[:]
        new.opportunity, new.immediate = self.opportunity[:], self.immediate[:]
        new.activations = dict(self.activations)
        new.log = []
        return new

    def key(self) -> tuple[Any, ...]:
        """What the rest of the fight depends on, hashable (the exact solver's door):
        every field but the records (the log, the activations counted, the initiative's
        draws) and the turn, which the solver keeps beside it (:func:`timeless_from`,
        :func:`retime`); an opportunity allowance only as « used in this activation »
        (D20-OPP-1: the one it reads)."""
        now = (self.turn, self.cursor)
        return (tuple(self.hp), tuple(self.out), tuple(self.pos), tuple(self.pa),
                tuple(self.budget), tuple(self.points),
                tuple(o == now for o in self.opportunity), tuple(self.immediate),
                self.cursor, self.finished, self.outcome, self.order)


def refusal(sheet: Sheet, st: State, actor: int, move: Move) -> int:
    """0 when ``actor`` may play ``move`` now, else its code of :data:`REFUSALS`, asked
    in the engine's order: standing, in its own turn (D20-ACT-1); an action point left
    and under the cap (D20-ACT-3); an attack on a standing fighter other than itself
    (CORE-ERR), adjacent (D20-OPP-2); a move from a square, of one square to its speed
    (D20-ACT-1), step by step to a neighbouring square (D20-OPP-2), through no enemy
    and ending on no ally (D20-ACT-1, :func:`.grid.path_fault`); then a slot of the
    turn for it (D20-ACT-1..3)."""
    if st.out[actor]:
        return OUT
    if st.finished or st.cursor < 0 or st.order[st.cursor] != actor:
        return NOT_ITS_TURN
    _, action, target, path = move
    if action == POINT:
        if st.pa[actor] <= 0:
            return NO_POINT
        if sheet.cap is not None and st.points[actor] >= sheet.cap:
            return POINT_CAP
        return 0
    here = st.pos[actor]
    if action == ATTACK:
        if not 0 <= target < len(st.out) or target == actor or st.out[target]:
            return NO_TARGET
        there = st.pos[target]
        if here is None or there is None or distance(here, there) != 1:
            return NOT_ADJACENT
        category = SIMPLE
    else:
        if here is None:
            return NO_SQUARE
        if not path:
            return BAD_LENGTH
        fault = path_fault(here, path, sheet.speed[actor], _sides_around(sheet, st, actor))
        if fault is not None:
            return {"longueur": BAD_LENGTH, "voisine": NOT_NEIGHBOUR}.get(fault[1], BLOCKED)
        category = MOVE_CATEGORY
    if not sheet.allows(st.budget[actor], st.points[actor], category):
        return NO_SLOT
    return 0


def _sides_around(sheet: Sheet, st: State, actor: int) -> Callable[[Square], bool | None]:
    """Who stands on a square, for ``actor``'s move (:func:`.grid.path_fault`): ``None``
    nobody standing, ``True`` an enemy, ``False`` an ally (the first in roster order,
    as :func:`.grid.occupant`)."""
    on: dict[Square, bool] = {}
    side = sheet.side[actor]
    for j, p in enumerate(st.pos):
        if j != actor and p is not None and not st.out[j]:
            on.setdefault(p, sheet.side[j] != side)
    return on.get


def candidates(sheet: Sheet, st: State, actor: int) -> Iterator[Move]:
    """``actor``'s moves in automated play, in the engine's order (``D20System.moves``
    then ``offered``), each one legal (:func:`refusal`): next to a standing enemy, an
    attack on each adjacent one, the weakest first (« attaque »), while the turn has a
    slot for it, else an action point spent (« effort », D20-ACT-3); away from every
    enemy, the move towards the nearest one (« deplacement », :func:`.grid.greedy_path`)
    while the turn has a slot for it (D20-ACT-1/2)."""
    if st.out[actor] or st.finished or st.cursor < 0 or st.order[st.cursor] != actor:
        return
    here = st.pos[actor]
    if here is None:
        return
    pos, out, hp, names = st.pos, st.out, st.hp, sheet.names
    enemies = [j for j in sheet.enemies[actor] if not out[j] and pos[j] is not None]
    if not enemies:
        return
    adjacent = around(here)
    near = [j for j in enemies if pos[j] in adjacent]
    used, points = st.budget[actor], st.points[actor]
    if near:
        if sheet.allows(used, points, SIMPLE):
            near.sort(key=lambda j: (hp[j], names[j]))
            for j in near:
                yield "attaque", ATTACK, j, ()
        elif st.pa[actor] > 0 and (sheet.cap is None or points < sheet.cap):
            yield "effort", POINT, -1, ()
        return
    if not sheet.allows(used, points, MOVE_CATEGORY):
        return
    goal = min(enemies, key=lambda j: (distance(here, pos[j]), names[j]))  # type: ignore[arg-type]
    taken = frozenset([p for j, p in enumerate(pos) if j != actor and p is not None
                       and not out[j]])
    key = (here, pos[goal], sheet.speed[actor], taken)
    path = sheet.paths.get(key)
    if path is None:
        path = sheet.paths.put(key, tuple(greedy_path(
            here, pos[goal], sheet.speed[actor],  # type: ignore[arg-type]
            lambda s: s not in taken)))
    if path:
        yield "deplacement", MOVE, -1, path


def play(sheet: Sheet, st: State, actor: int, move: Move, draw: Any) -> None:
    """Play a legal ``move`` (trusted: ask :func:`refusal` first) with the rng ``draw``
    (its ``randint``): draw its dice, write the state, append its log tuples; the end
    check when a fighter falls."""
    _, action, target, path = move
    if action == POINT:  # D20-ACT-3: one more standard slot this turn
        st.pa[actor] -= 1
        st.points[actor] += 1
        st.log.append((POINT, st.turn, actor, st.pa[actor], st.points[actor]))
        return
    used = (*st.budget[actor], SIMPLE if action == ATTACK else MOVE_CATEGORY)
    st.budget[actor] = used
    fell = _attack(sheet, st, actor, target, draw) if action == ATTACK else \
        _move(sheet, st, actor, path, draw)
    if fell:
        _check_end(sheet, st, False)


def choose(sheet: Sheet, st: State, actor: int) -> Move | None:
    """The move ``actor``'s policy plays now among :func:`candidates` (each tag's first
    move, :meth:`~escarmouche.policies.TagPolicy.pick_tagged`), or ``None``: it passes
    (:func:`run`'s choice, and the exact solver's door)."""
    return sheet.policies[actor].pick_tagged(candidates(sheet, st, actor))  # type: ignore[no-any-return]


def move_law(sheet: Sheet, st: State, actor: int, move: Move
             ) -> tuple[tuple[Fraction, tuple[int, ...]], ...] | None:
    """The dice :func:`play` draws for the legal ``move`` now, grouped into the classes
    nothing after the draw tells apart, each with its chance and a representative
    sequence of dice (the exact solver's door, ``escarmouche.exact``): an action point
    or an interrupted attack draws none; an attack's d20 is a miss or a hit
    (:func:`.actions.attack_hits`), a hit's weapon dice a class per damage
    (:func:`escarmouche.dice.draw_law`, D20-ACT-1), every damage that takes the target's
    last PV one class; ``None`` for a move (the solver enumerates the opportunity
    attacks' few dice, D20-OPP-1/2)."""
    _, action, j, _ = move
    if action == POINT or (action == ATTACK and sheet.power[j] is not None
                           and not st.immediate[j]):
        return ((Fraction(1), ()),)
    if action != ATTACK:
        return None
    memo = (actor, j, st.hp[j])
    known = sheet.laws.get(memo)
    if known is None:
        known = sheet.laws[memo] = _attack_law(sheet, actor, j, st.hp[j])
    return known


def _attack_law(sheet: Sheet, actor: int, j: int, hp: int
                ) -> tuple[tuple[Fraction, tuple[int, ...]], ...]:
    """:func:`move_law` of an attack of ``actor`` on ``j`` left with ``hp`` PV."""
    hits = [r for r in range(1, ATTACK_DIE + 1)
            if attack_hits(r, sheet.bonus[actor], sheet.defence[j])]
    misses = ATTACK_DIE - len(hits)
    law: list[tuple[Fraction, tuple[int, ...]]] = []
    if misses:
        miss = next(r for r in range(1, ATTACK_DIE + 1) if r not in hits)
        law.append((Fraction(misses, ATTACK_DIE), (miss,)))
    if hits:
        hit = Fraction(len(hits), ATTACK_DIE)
        fatal: list[Any] = []
        for p, _, draws in draw_law(sheet.weapon):
            # the damage as _strike finds it, from the same draws (D20-ACT-1)
            if weapon_damage(roll_dice(sheet.weapon, ScriptedRolls(draws))) >= hp:
                if fatal:
                    fatal[0] += hit * p
                else:
                    fatal = [hit * p, (hits[0], *draws)]
            else:
                law.append((hit * p, (hits[0], *draws)))
        if fatal:
            law.append((fatal[0], fatal[1]))
    return tuple(law)


def _attack(sheet: Sheet, st: State, actor: int, j: int, draw: Any) -> bool:
    """An attack in melee on ``j``, unless ``j`` interrupts it with its immediate power
    (D20-IMM-1/2: standing, out of its own turn, its allowance unused; the attack is
    cancelled, its slot given back or not, :func:`.rules.refunded`); whether ``j``
    fell."""
    used, points = st.budget[actor], st.points[actor]
    if sheet.power[j] is not None and not st.immediate[j]:
        st.immediate[j] = True
        if not sheet.spent_stays:
            st.budget[actor] = tuple(refunded(sheet.rules, used, SIMPLE))
        st.log.append((CANCELLED, st.turn, actor, j, used, points))
        return False
    return _strike(sheet, st, ATTACK, actor, j, draw, used, points)


def _strike(sheet: Sheet, st: State, kind: int, attacker: int, j: int, draw: Any,
            used: tuple[str, ...] = (), points: int = 0) -> bool:
    """One attack roll (engine convenience, :func:`.actions.attack_hits`): the d20,
    then on a hit the weapon's dice (:func:`.actions.weapon_damage`), the PV lost
    (never below 0) and the target out at 0 PV; one log tuple; whether ``j`` fell."""
    roll = draw.randint(1, ATTACK_DIE)
    if not attack_hits(roll, sheet.bonus[attacker], sheet.defence[j]):
        st.log.append((kind, st.turn, attacker, j, roll, -1, st.hp[j], used, points))
        return False
    damage = weapon_damage(roll_dice(sheet.weapon, draw))
    left = st.hp[j] - damage
    if left < 0:
        left = 0
    st.hp[j] = left
    st.log.append((kind, st.turn, attacker, j, roll, damage, left, used, points))
    if left > 0:
        return False
    st.out[j] = True
    return True


def _move(sheet: Sheet, st: State, actor: int, path: tuple[Square, ...], draw: Any
          ) -> bool:
    """A move along ``path`` (D20-ACT-1), each enemy whose policy takes it striking
    when ``actor`` leaves the first square adjacent to it (D20-OPP-1/2: one
    opportunity action per other combatant's turn, by an enemy); a mover who falls
    stops on the square it was about to leave, its slot given back or not
    (:func:`.rules.refunded`); whether it fell. Its log tuple ``(MOVE, turn, mover,
    squares from the start, the index of the square it stopped on or -1, categories
    used, points spent, the opportunity attacks declared)`` follows those of the
    attacks, each declared one as (who, the index of the square whose leaving)."""
    here = st.pos[actor]
    assert here is not None  # (a legal move starts from a square)
    squares = (here, *path)
    key = (st.turn, st.cursor)
    used, points = st.budget[actor], st.points[actor]
    reactors: list[tuple[int, int]] = []  # (who, the index of the square whose leaving)
    for j in sheet.enemies[actor]:
        p = st.pos[j]
        if st.out[j] or p is None or st.opportunity[j] == key \
                or not sheet.takes_opportunity[j]:
            continue
        for i in range(len(squares) - 1):
            if distance(squares[i], p) == 1:
                reactors.append((j, i))
                break
    stop = -1
    for step in range(1, len(squares)):
        for j, i in reactors:
            if i == step - 1:
                st.opportunity[j] = key
                _strike(sheet, st, OPPORTUNITY, j, actor, draw)
                if st.out[actor]:
                    stop = step - 1
                    break
        if stop >= 0:
            break
        st.pos[actor] = squares[step]
    if stop >= 0 and not sheet.spent_stays:
        st.budget[actor] = tuple(refunded(sheet.rules, used, MOVE_CATEGORY))
    st.log.append((MOVE, st.turn, actor, squares, stop, used, points, tuple(reactors)))
    return stop >= 0


def _check_end(sheet: Sheet, st: State, at_turn_end: bool) -> None:
    """The engine's end check (:func:`escarmouche.state.end_outcome`, through the sheet's
    :class:`escarmouche.end_check.EndCheck`); asked only when something it reads changed (a
    fighter out, a turn ends under a condition « tours »)."""
    outcome = sheet.end_check(st.out, st.hp, st.turn, at_turn_end)
    if outcome is not None:
        st.finished, st.outcome = True, outcome


def _begin_turn(sheet: Sheet, st: State) -> None:
    """A round (D20-TIME-1): everyone's turn once, in the initiative order; the
    immediate allowances come back when the rules say so (D20-IMM-1)."""
    st.cursor = -1
    st.activations = {}
    if sheet.round_reset:
        st.immediate = [False] * len(sheet.names)
    st.log.append((TURN_BEGIN, st.turn))


def _advance(sheet: Sheet, st: State) -> None:
    """The next slot that can act (``Encounter._advance``), ending and starting rounds;
    a turn begins with an empty budget (D20-ACT-1) and, under the original edition's
    ruling, the immediate allowance back (D20-IMM-1)."""
    for _ in range(_MAX_SKIPPED):
        if st.finished:
            return
        st.cursor += 1
        if st.cursor >= len(st.order):
            st.log.append((TURN_END, st.turn))
            if sheet.turn_conditions:
                _check_end(sheet, st, True)
                if st.finished:
                    return
            st.turn += 1
            _begin_turn(sheet, st)
            continue
        actor = st.order[st.cursor]
        if st.out[actor]:
            continue
        count = st.activations[actor] = st.activations.get(actor, 0) + 1
        st.log.append((ACTIVATION, st.turn, actor, count))
        st.budget[actor] = ()
        st.points[actor] = 0
        if sheet.own_reset:
            st.immediate[actor] = False
        return
    raise RuleBoundError("Combat bloqué : personne n’a pu agir (CORE-ERR).",
                         field="activations", value=_MAX_SKIPPED, rule="CORE-ERR")


def timeless_from(sheet: Sheet) -> int | None:
    """The turn from which the rest of a fight reads the turn's number only for its
    cap (the exact solver's door): from the first, but never under an end condition
    « tours » (CORE-END-1)."""
    return None if sheet.turn_conditions else 1


def retime(st: State, turn: int) -> State:
    """A copy of ``st`` at turn ``turn`` (the exact solver's door: a state met again
    another turn, past :func:`timeless_from`), its opportunity allowances used in this
    activation stamped with the new turn (D20-OPP-1)."""
    new = st.copy()
    now = (st.turn, st.cursor)
    new.opportunity = [(turn, st.cursor) if o == now else o for o in st.opportunity]
    new.turn = turn
    return new


def acting(st: State) -> int:
    """Who acts now: the fighter of the round's slot at the cursor (the exact solver's
    door)."""
    return st.order[st.cursor]


def advance(sheet: Sheet, st: State, _draw: Any = None) -> None:
    """The next activation (the end of the actor's turn: ``Encounter.end_activation``),
    ending and starting rounds and asking the end conditions; it draws no die (the
    solver's door takes the dice as every kernel's does)."""
    _advance(sheet, st)


def start(sheet: Sheet, draw: Any) -> State:
    """The fight's start (``Encounter.start``): the initiative (D20-INIT-1/2,
    :func:`.initiative.draw_initiative`, drawn as ``roll_initiative`` draws), then the
    first activation of round 1."""
    init = draw_initiative(sheet.names, sheet.inits, draw, sheet.rules.max_roll_off_rounds)
    st = State(sheet, init)
    _begin_turn(sheet, st)
    _advance(sheet, st)
    return st


def run(sheet: Sheet, randint: Callable[[int, int], int], max_turns: int) -> State:
    """A whole fight (``Encounter.start`` then ``Encounter.run``): each activation's
    moves chosen by the fighter's policy until it passes, until an end condition holds
    or ``max_turns`` rounds have passed."""
    from escarmouche.policies import MAX_CHOICES

    draw = RandintOnly(randint)
    st = start(sheet, draw)
    while not st.finished:
        if st.turn > max_turns:
            st.finished, st.outcome = True, limit_outcome(max_turns)
            break
        actor = st.order[st.cursor]
        for _ in range(MAX_CHOICES):
            move = choose(sheet, st, actor)
            if move is None:
                break
            play(sheet, st, actor, move, draw)
            if st.finished:
                break
        if st.finished:
            break
        _advance(sheet, st)
    return st



def compile_sheet(template: Any, start_options: Mapping[str, Any],
                  policies: Mapping[str, Any]) -> Sheet | None:
    """The sheet of ``template``'s fights (an unstarted d20 ``Encounter``) with these
    start options and policies (side → policy), or ``None`` when the kernel does not
    cover them (the engine plays them)."""
    from escarmouche.policies import TagPolicy

    st = template.state
    fighters = list(st.fighters.values())
    if (st.started or st.effects or set(start_options) - _OPTIONS
            or len({f.side for f in fighters}) < 2
            or any(type(p) is not TagPolicy for p in policies.values())
            or any(f.out or f.fled or set(f.tracks) != {TRACK} or f.tracks[TRACK] <= 0
                   for f in fighters)
            or any(p.reaction != "interruption" or p.effect != "arret"
                   for f in fighters for p in powers_of(f.combatant))):
        return None
    probe = template.simulated()
    try:
        probe.start(random.Random(0), **start_options)
    except EscarmoucheError:
        return None  # the engine refuses it, in its own words
    return Sheet(probe, policies)
