"""The d12 rules kernel: a fight as a sheet compiled once and a small mutable state.

The shape is the one of ``spec/KERNEL.md`` and of the model, the toy system's kernel
(``tests/toy_system/kernel.py``, whose docstring is the recipe); the d100 and d20 kernels
have the same names:

* :class:`Sheet`, compiled and checked once per roster (:func:`compile_sheet`): the
  fighters by index, sides as numbers, each one's attack bonus, defence and weapon (the
  start option ``armes``, else :attr:`.rules.Rules.default_weapon`), each one's
  critical option against each enemy (:func:`.odds.best_critical_option`, asked once
  per (weapon, defence, bonus)), the damage of a critical « maximum » per weapon
  (:func:`.critical.roll_damage`, which draws no die for it), the option
  ``environnement`` as a flag, what each policy does with the critical option.
* :class:`State`: PV, out, the initiative as drawn (:class:`.initiative.D12Initiative`),
  the order as fighter indices (:data:`ENV`: the environment's slot, D12-INIT-5), turn,
  cursor, who attacked in this activation, and a log of tuples carrying every die
  (:data:`ATTACK`: ``(ATTACK, turn, attacker, target, the d12 shown (two under option
  (c)'s advantage), option or None, damage dice or None on a miss, damage, PV left
  unfloored)``) and the marks of the fight's course (:data:`TURN_BEGIN`,
  :data:`ACTIVATION`, :data:`TURN_END`), option (c)'s advantages as ``(effect id,
  bearer, source)``;
  :func:`.kernel_doors.write_back` gives the engine's state (today's save format),
  :func:`.kernel_doors.narrate` the engine's sentences of an attack and
  :func:`.kernel_doors.narrated_run` the full engine's whole fight, its log narrated
  from these tuples (``Roster.play``).
* :func:`refusal` (0 when legal, else a code of :data:`REFUSALS`), :func:`candidates`
  (the moves automated play offers, in ``D12System.moves``' order, as tuples ``(tags,
  target, option)``), :func:`play` (one attack: its dice, the state written, one log
  tuple) and :func:`run` (:func:`start`, then :func:`play_out`, the generic loop:
  candidates → policy → play → end check → advance, as ``Encounter.run``).

Each rule is the d12 package's own function: the initiative
(:func:`.initiative.draw_initiative`, the core of :func:`.initiative.initiative`,
D12-INIT-1..6, drawn as ``D12System.start`` draws it),
the attack (:func:`.critical.attack_result`, D12-CRIT-1/2), the damage
(:func:`.critical.rolled_damage`, the draw of :func:`.critical.roll_damage`,
D12-CRIT-1/2, D12-EXPLODE-1), the critical option
automated play declares (:func:`.odds.best_critical_option`), the end check
(:func:`escarmouche.state.end_outcome`, CORE-END-1).

What it covers (:func:`compile_sheet` answers ``None`` otherwise, and the engine plays
the fight): any roster of two sides or more under deterministic policies
(:class:`~escarmouche.policies.TagPolicy`) or « au hasard » (drawn from the tactics
stream, as ``RandomPolicy.choose``), with the start options ``armes`` and
``environnement``, any end conditions, any critical option, (c)'s advantage included
(D12-CRIT-2 (c), D12-ADV-1); no ambush (D12-SURPRISE-1/2), no effect at the start.
The equivalence tests (``tests/test_d12_kernel.py``) hold every covered fight to the
full engine: the same state, the same dice consumed, the same sentences.

The engine's automated play reads its moves here: ``D12System.moves`` is
:func:`candidates` and ``D12System.auto_action`` the first of :func:`choices`, on
:func:`.kernel_doors.view` of the live fight. What still runs twice, held equal by the
tests: the legality of an attack (:func:`refusal` here, ``D12System.check_legal`` and
the resolver ``attaquer`` there, which word it in French for any action of the
catalogue, free actions of the acting group included).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from fractions import Fraction
from typing import Any

from escarmouche.dice import ScriptedRolls, draw_law
from escarmouche.end_check import EndCheck
from escarmouche.errors import EscarmoucheError, RuleBoundError
from escarmouche.memo import Memo
from escarmouche.rng import RandintOnly
from escarmouche.state import limit_outcome
from escarmouche.systems.d12.critical import (
    DamageRoll,
    attack_result,
    damage_expression,
    roll_damage,
    rolled_damage,
)
from escarmouche.systems.d12.initiative import (
    D12Initiative,
    check_initiative_roster,
    draw_initiative,
)
from escarmouche.systems.d12.odds import best_critical_option
from escarmouche.systems.d12.rules import ATTACK_DIE, CRITICAL_OPTIONS, TRACK

__all__ = [
    "ACTIVATION",
    "ATTACK",
    "ENV",
    "REFUSALS",
    "TURN_BEGIN",
    "TURN_END",
    "Move",
    "Sheet",
    "State",
    "acting",
    "advance",
    "candidates",
    "choices",
    "choose",
    "compile_sheet",
    "move_law",
    "play",
    "play_out",
    "refusal",
    "run",
    "start",
    "start_law",
    "timeless_from",
]

#: how :func:`start`, :func:`play` and :func:`advance` take their dice: an object with
#: ``randint`` (the exact solver's door, ``escarmouche.exact``)
DICE = "rng"

#: the first item of a log tuple: an attack (« attaquer », D12-CRIT-1/2)
ATTACK = 0
#: the log's marks of the fight's course, which the full engine's narration reads
#: (:func:`.kernel_doors.narrated_run`): a turn begins ``(TURN_BEGIN, turn)``, a slot's
#: activation begins ``(ACTIVATION, turn, slot, its number this turn)`` (the slot
#: :data:`ENV` for the environment's), a turn ends ``(TURN_END, turn)``
TURN_BEGIN, ACTIVATION, TURN_END = -1, -2, -3
#: the environment's slot in the order (D12-INIT-5): it acts, nobody plays a move
ENV = -1
#: the tag of the safe option (a), which the cautious policy prefers
_SAFE = "sur"

#: refusal codes (0: legal), each with the rule the engine cites
OUT, NOT_ITS_TURN, NO_TARGET, NO_OPTION, FINISHED = 1, 2, 3, 4, 5
REFUSALS: Mapping[int, str] = {
    FINISHED: "CORE-END-1",  # the fight is over: no action at all
    OUT: "D12-ACT-1",  # out of the fight: nothing more
    NOT_ITS_TURN: "D12-INIT-4",  # an attack in one's own activation only
    NO_TARGET: "D12-CRIT-1",  # no such fighter, itself, or out of the fight
    NO_OPTION: "D12-CRIT-2",  # not one of the three critical options
}

#: a move: the tags the policies rank, the target's index, the critical option
Move = tuple[tuple[str, ...], int, str]

#: the start options the kernel covers
_OPTIONS = frozenset({"armes", "environnement"})
#: bound on slots skipped while looking for the next activation (the engine's)
_MAX_SKIPPED = 10_000


#: the tags of an attack (``D12System.moves``): « sur » too for option (a) « dégâts
#: maximum » on the preferred target
_ATTACK_TAGS, _SAFE_TAGS = ("attaque",), ("attaque", _SAFE)


def _tags(option: str) -> tuple[str, ...]:
    """The tags of an attack on the preferred target declaring ``option``."""
    return _SAFE_TAGS if option == "maximum" else _ATTACK_TAGS


class Sheet:
    """One roster's fights, compiled and checked once (see the module docstring)."""

    def __init__(self, probe: Any, policies: Mapping[str, Any]) -> None:
        from escarmouche.policies import MAX_CHOICES, RandomPolicy, TagPolicy

        st = probe.state
        rules = probe.rules
        fighters = list(st.fighters.values())
        self.probe = probe  # the fight started once, on throwaway dice: write_back's base
        self.rules = rules
        self.names = tuple(f.name for f in fighters)
        self.index = {name: i for i, name in enumerate(self.names)}
        self.combatants = tuple(f.combatant for f in fighters)
        #: the roster as the initiative reads it, checked once (D12-INIT-1, D12-INIT-5)
        self.roster = tuple(check_initiative_roster(self.combatants))
        self.side_names = tuple(dict.fromkeys(f.side for f in fighters))
        self.side = tuple(self.side_names.index(f.side) for f in fighters)
        self.hp = tuple(int(f.tracks[TRACK]) for f in fighters)
        self.maxima = tuple(int(f.maxima.get(TRACK, f.tracks[TRACK])) for f in fighters)
        self.bonus = tuple(int(c.stat("attaque", 0)) for c in self.combatants)
        self.defence = tuple(int(c.stat("defense")) for c in self.combatants)
        weapons = st.system_state["weapons"]
        self.weapon = tuple(str(weapons.get(n, rules.default_weapon)) for n in self.names)
        self.environment = bool(st.system_state["initiative"]["environment"])
        self.enemies = tuple(tuple(j for j, g in enumerate(fighters) if g.side != f.side)
                             for f in fighters)
        #: what each kept d12 decides of each one's attack on each fighter, by its value
        #: (:func:`.critical.attack_result`, D12-CRIT-1/2: hit, critical)
        self.decided = tuple(
            tuple({kept: attack_result(kept, bonus, defence)
                   for kept in range(1, ATTACK_DIE + 1)} for defence in self.defence)
            for bonus in self.bonus)
        #: each one's critical option against each enemy (``auto_action``, D12-CRIT-2)
        self.best = tuple(
            {j: best_critical_option(self.weapon[i], defence=self.defence[j],
                                     bonus=self.bonus[i]) for j in self.enemies[i]}
            for i in range(len(fighters)))
        #: the damage of a critical « maximum » of each one's weapon (D12-CRIT-2 (a)):
        #: no die is drawn for it
        self.maximum: tuple[DamageRoll, ...] = tuple(
            roll_damage(w, random.Random(0), option="maximum") for w in self.weapon)
        #: the dice each one rolls for its damage (:func:`.critical.damage_expression`)
        #: on a hit (None), or a critical with option (b) or (c) (D12-CRIT-2)
        self.damage = tuple({o: damage_expression(w, o) for o in (None, *CRITICAL_OPTIONS)
                             if o != "maximum"} for w in self.weapon)
        #: each one's attacks on each enemy, in :func:`choices`' order (:func:`_moves_on`)
        self.on = tuple({j: _moves_on(j, best[j]) for j in best} for best in self.best)
        self.policies: tuple[Any, ...] = tuple(policies.get(f.side) for f in fighters)
        #: the most moves an activation plays (automated play's bound)
        self.max_choices = MAX_CHOICES
        #: what each deterministic policy plays when each enemy is the preferred target
        #: (:func:`choose`): its pick among :func:`choices`, the moves on that target
        #: (:attr:`on`) then one on each other enemy; the latter carry only the tag
        #: « attaque », which the first move on the target carries too, so each tag's
        #: first move, all a policy reads, is among :attr:`on`
        self.picks: tuple[dict[int, Move | None], ...] = tuple(
            {j: p.pick(_firsts(moves).get) for j, moves in on.items()}
            if isinstance(p, TagPolicy) else {}
            for p, on in zip(self.policies, self.on, strict=True))
        #: whether each one's policy leaves the critical option to the rules
        #: (``TagPolicy.by_default``: :attr:`.rules.Rules.critical_option`)
        self.by_default = tuple(bool(getattr(p, "by_default", False)) for p in self.policies)
        #: whose policy is « au hasard » (``RandomPolicy``: a move drawn from the tactics
        #: stream among all the candidates, or none)
        self.random = tuple(type(p) is RandomPolicy for p in self.policies)
        #: whether :meth:`play` needs the fight's tactics stream
        self.tactics = any(self.random)
        #: the id the engine gives the next effect (``EncounterState.next_effect_id``)
        self.next_effect = int(st.next_effect_id)
        self.end_conditions = tuple(st.end_conditions)
        self.turn_conditions = any(c.kind == "tours" for c in st.end_conditions)
        #: the engine's end check on the kernel's state (its answers kept per state it
        #: reads, :class:`escarmouche.end_check.EndCheck`)
        self.end_check = EndCheck(st, TRACK)
        #: the events of the full engine's narration, by shape (a bounded memo:
        #: :func:`.kernel_doors.narrated_run`)
        self.narrated: Memo[Any] = Memo(4096)
        #: :func:`move_law`'s answers by (attacker, target, its PV, marked, option)
        self.laws: dict[tuple[int, int, int, bool, str],
                        tuple[tuple[Fraction, tuple[int, ...]], ...]] = {}

    def play(self, dice: Any, max_turns: int, tactics: Any = None
             ) -> tuple[list[tuple[str, bool, int, int]], int, int]:
        """One fight on ``dice`` (and ``tactics``, the tactics stream, when a policy is
        « au hasard »: :attr:`tactics`): each fighter's (side, standing, PV, PV at
        most), the last turn and the ties settled by lot (D12-INIT-6, as
        ``D12System.ties_drawn_by_lot`` counts them)."""
        st = run(self, dice.randint, max_turns, tactics)
        side, names = self.side, self.side_names
        rows = [(names[side[i]], not st.out[i], st.hp[i], self.maxima[i])
                for i in range(len(self.names))]
        init = st.initiative
        return rows, st.turn, len(init.lots) + sum(len(ro.lots) for ro in init.roll_offs)


class State:
    """A fight where it stands, compact and mutable (see the module docstring)."""

    __slots__ = ("acting", "activations", "attacked", "cursor", "effects", "finished", "hp",
                 "initiative", "log", "marks", "next_effect", "order", "out", "outcome",
                 "turn")

    def __init__(self, sheet: Sheet, init: D12Initiative) -> None:
        self.initiative = init  # D12-INIT-1..6 as drawn
        index = sheet.index
        self.order = tuple([index.get(name, ENV) for name in init.order()])
        self.hp = list(sheet.hp)
        self.out = [False] * len(sheet.names)
        self.turn = 1
        self.cursor = -1
        self.activations: dict[int, int] = {}
        self.attacked = False  # an attack in this activation (automated play: one)
        #: the slot of this turn's last activation (the acting group, D12-INIT-4), or
        #: None before the turn's first one
        self.acting: int | None = None
        #: option (c)'s advantages against a fighter (D12-CRIT-2 (c)), in the order the
        #: engine adds them: (effect id, bearer, source); and how many each one bears
        self.effects: list[tuple[int, int, int]] = []
        self.marks = [0] * len(sheet.names)
        self.next_effect = sheet.next_effect
        self.finished = False
        self.outcome: str | None = None
        self.log: list[tuple[Any, ...]] = []

    def copy(self) -> State:
        """A copy to play on (the exact solver's door, ``escarmouche.exact``): every
        mutable field copied; the log, a record the fight never reads, starts empty."""
        new = State.__new__(State)
        new.initiative, new.order, new.turn, new.cursor = (self.initiative, self.order,
                                                           self.turn, self.cursor)
        new.finished, new.outcome, new.acting = self.finished, self.outcome, self.acting
        new.hp, new.out, new.marks = self.hp[:], self.out[:], self.marks[:]
        new.effects, new.next_effect = self.effects[:], self.next_effect
        new.attacked, new.activations = self.attacked, dict(self.activations)
        new.log = []
        return new

    def key(self) -> tuple[Any, ...]:
        """What the rest of the fight depends on, hashable (the exact solver's door):
        every field but the records (the log, the activations counted, the initiative's
        draws, the effects' ids) and the turn, which the solver keeps beside it
        (:func:`timeless_from`)."""
        return (tuple(self.hp), tuple(self.out), tuple(self.marks),
                tuple((bearer, source) for _, bearer, source in self.effects),
                self.attacked, self.acting, self.cursor,
                self.finished, self.outcome,
                self.order)


def refusal(sheet: Sheet, st: State, actor: int, move: Move) -> int:
    """0 when ``actor`` may play ``move`` now, else its code of :data:`REFUSALS`, asked
    in the engine's order: a fight not over (CORE-END-1), standing (D12-ACT-1), in its
    own activation (D12-INIT-4), an
    attack on a standing fighter other than itself (D12-CRIT-1), declaring one of the
    critical options (D12-CRIT-2). No action economy is invented (D12-ACT-1): a second
    attack in one activation is legal (automated play offers one)."""
    if st.finished:
        return FINISHED
    if st.out[actor]:
        return OUT
    if st.cursor < 0 or st.order[st.cursor] != actor:
        return NOT_ITS_TURN
    _, target, option = move
    if not 0 <= target < len(st.out) or target == actor or st.out[target]:
        return NO_TARGET
    if option not in CRITICAL_OPTIONS:
        return NO_OPTION
    return 0


def candidates(sheet: Sheet, st: State, actor: int) -> Iterator[Move]:
    """``actor``'s moves in automated play, in ``D12System.moves``' order, each one legal
    (:func:`refusal`): once per activation, the standing enemy with the fewest PV (the
    first in roster order on a tie) with its best critical option, then the other
    options on it, then the other standing enemies with their best option (D12-CRIT-2).
    """
    return iter(_offered(sheet, st, actor))


def _offered(sheet: Sheet, st: State, actor: int) -> list[Move]:
    """:func:`candidates` as a list (the policy « au hasard » draws one of them:
    :func:`play_out`): :func:`choices` in ``actor``'s activation before its attack, else
    none."""
    if st.attacked or st.out[actor] or st.finished or st.cursor < 0 \
            or st.order[st.cursor] != actor:
        return []
    return _ranked(sheet, st, actor)


def choices(sheet: Sheet, st: State, actor: int) -> Iterator[Move]:
    """The attacks automated play ranks for ``actor``, whoever acts now (what
    :func:`candidates` offers in its activation; ``D12System.auto_action`` is the
    first): the standing enemy marked by option (c)'s advantage, else with the fewest
    PV (the first in roster order on a tie), with its best critical option, then the
    other options on it (:attr:`Sheet.on`), then the other standing enemies with their
    best option (D12-CRIT-2)."""
    return iter(_ranked(sheet, st, actor))


def _ranked(sheet: Sheet, st: State, actor: int) -> list[Move]:
    """:func:`choices` as a list."""
    out = st.out
    enemies = [j for j in sheet.enemies[actor] if not out[j]]
    if not enemies:
        return []
    target = _preferred(st, enemies)
    best = sheet.best[actor]
    return [*sheet.on[actor][target],
            *[(_ATTACK_TAGS, j, best[j]) for j in enemies if j != target]]


def _preferred(st: State, enemies: list[int]) -> int:
    """The target automated play prefers among the standing ``enemies`` (roster
    order): the one marked by option (c)'s advantage (D12-CRIT-2 (c)), else with the
    fewest PV, the first on a tie."""
    if len(enemies) == 1:
        return enemies[0]
    hp = st.hp
    if st.effects:  # option (c)'s marked enemy first, then the fewest PV
        marks = st.marks
        return min(enemies, key=lambda j: (not marks[j], hp[j]))
    return min(enemies, key=hp.__getitem__)


def _moves_on(target: int, first: str) -> tuple[Move, ...]:
    """The attacks on ``target`` automated play ranks: its best critical option
    ``first``, then the other options in :data:`.rules.CRITICAL_OPTIONS`' order, each
    with its tags (D12-CRIT-2)."""
    return ((_tags(first), target, first),
            *((_tags(o), target, o) for o in CRITICAL_OPTIONS if o != first))


def _firsts(moves: Iterable[Move]) -> dict[str, Move]:
    """Each tag's first move among ``moves``: what a policy reads of them
    (:meth:`~escarmouche.policies.TagPolicy.pick`)."""
    firsts: dict[str, Move] = {}
    for m in moves:
        for tag in m[0]:
            if tag not in firsts:
                firsts[tag] = m
    return firsts


def play(sheet: Sheet, st: State, actor: int, move: Move, draw: Any) -> None:
    """Play a legal ``move`` (trusted: ask :func:`refusal` first) with the rng ``draw``
    (its ``randint``): the attack d12, then on a hit the damage dice (none for a
    critical « maximum »), the PV lost (never below 0), the target out at 0 PV, one log
    tuple; the end check when a fighter falls. Option (c) « avantage » on a critical
    marks a target left standing: the next attack on it, until its next activation,
    rolls 2d12 and keeps the higher (D12-CRIT-2 (c), D12-ADV-1)."""
    _, j, option = move
    if sheet.by_default[actor]:
        option = sheet.rules.critical_option
    st.attacked = True
    if st.marks[j]:  # option (c)'s advantages on j, all consumed (D12-CRIT-2, D12-ADV-1)
        st.effects = [e for e in st.effects if e[1] != j]
        st.marks[j] = 0
        shown: tuple[int, ...] = (draw.randint(1, ATTACK_DIE), draw.randint(1, ATTACK_DIE))
        roll = max(shown)  # 2d12kh1 (D12-ADV-1)
    else:
        roll = draw.randint(1, ATTACK_DIE)
        shown = (roll,)
    decided = sheet.decided[actor][j].get(roll)
    # (a die no rng of the contract shows, say 5.5, is decided by the rule itself)
    hit, critical = decided if decided is not None else attack_result(
        roll, sheet.bonus[actor], sheet.defence[j])
    if not hit:
        st.log.append((ATTACK, st.turn, actor, j, shown, None, None, 0, st.hp[j]))
        return
    chosen = option if critical else None
    if chosen == "maximum":
        dmg = sheet.maximum[actor]
    else:  # the weapon and option checked once, by the sheet
        dmg = rolled_damage(sheet.weapon[actor], sheet.damage[actor][chosen], draw, chosen)
    damage = dmg.damage
    left = st.hp[j] - damage
    st.log.append((ATTACK, st.turn, actor, j, shown, chosen, dmg.dice, damage, left))
    if left > 0:
        st.hp[j] = left
        if chosen == "avantage":  # the next attack on j, until its next turn (D12-CRIT-2)
            st.effects.append((st.next_effect, j, actor))
            st.next_effect += 1
            st.marks[j] += 1
        return
    st.hp[j] = 0
    st.out[j] = True
    _check_end(sheet, st, False)


def move_law(sheet: Sheet, st: State, actor: int, move: Move
             ) -> tuple[tuple[Fraction, tuple[int, ...]], ...]:
    """The dice :func:`play` draws for the legal ``move`` now, grouped into the classes
    nothing after the draw tells apart, each with its chance and a representative
    sequence of dice (the exact solver's door, ``escarmouche.exact``): the attack's d12
    (two under option (c)'s advantage, D12-ADV-1) by what it decides (a miss, a hit, a
    critical: :func:`.critical.attack_result`), then the damage dice
    (:func:`.critical.damage_expression`, exploding ones included, D12-EXPLODE-1) a
    class per total (:func:`escarmouche.dice.draw_law`), every damage that takes the
    target's last PV one class."""
    _, j, option = move
    if sheet.by_default[actor]:
        option = sheet.rules.critical_option
    memo = (actor, j, st.hp[j], st.marks[j] > 0, option)
    known = sheet.laws.get(memo)
    if known is None:
        known = sheet.laws[memo] = _attack_law(sheet, actor, j, st.hp[j], st.marks[j] > 0,
                                               option)
    return known


def _attack_law(sheet: Sheet, actor: int, j: int, hp: int, marked: bool, option: str
                ) -> tuple[tuple[Fraction, tuple[int, ...]], ...]:
    """:func:`move_law` of an attack of ``actor`` on ``j`` left with ``hp`` PV."""
    rolls: dict[tuple[bool, bool], list[Any]] = {}  # (hit, critical) → [chance, dice]
    shown = ([(a, b) for a in range(1, ATTACK_DIE + 1) for b in range(1, ATTACK_DIE + 1)]
             if marked else [(a,) for a in range(1, ATTACK_DIE + 1)])
    each = Fraction(1, len(shown))
    for dice in shown:
        decided = attack_result(max(dice), sheet.bonus[actor], sheet.defence[j])
        slot = rolls.get(decided)
        if slot is None:
            rolls[decided] = [each, dice]
        else:
            slot[0] += each
    law: list[tuple[Fraction, tuple[int, ...]]] = []
    for (hit, critical), (p, dice) in rolls.items():
        chosen = option if critical else None
        if not hit or chosen == "maximum":
            law.append((p, dice))
            continue
        fatal: list[Any] = []
        for q, _, draws in draw_law(damage_expression(sheet.weapon[actor], chosen)):
            # the damage as play finds it, from the same draws (D12-CRIT-2)
            if roll_damage(sheet.weapon[actor], ScriptedRolls(draws), option=chosen
                           ).damage >= hp:
                if fatal:
                    fatal[0] += p * q
                else:
                    fatal = [p * q, (*dice, *draws)]
            else:
                law.append((p * q, (*dice, *draws)))
        if fatal:
            law.append((fatal[0], fatal[1]))
    return tuple(law)


def _check_end(sheet: Sheet, st: State, at_turn_end: bool) -> None:
    """The engine's end check (:func:`escarmouche.state.end_outcome`, through the sheet's
    :class:`escarmouche.end_check.EndCheck`); asked only when something it reads changed (a
    fighter out, a turn ends under a condition « tours »)."""
    outcome = sheet.end_check(st.out, st.hp, st.turn, at_turn_end)
    if outcome is not None:
        st.finished, st.outcome = True, outcome


def _advance(sheet: Sheet, st: State) -> None:
    """The next slot that can act (``Encounter._advance``), ending and starting turns:
    the same order every turn (D12-INIT-2: initiative is rolled once), the environment's
    slot included (D12-INIT-5), the fighters out skipped."""
    order, out, log = st.order, st.out, st.log  # the order is the fight's (D12-INIT-2)
    for _ in range(_MAX_SKIPPED):
        if st.finished:
            return
        cursor = st.cursor = st.cursor + 1
        if cursor >= len(order):
            log.append((TURN_END, st.turn))
            if sheet.turn_conditions:
                _check_end(sheet, st, True)
                if st.finished:
                    return
            st.turn += 1
            st.cursor = -1
            st.activations = {}
            st.acting = None
            log.append((TURN_BEGIN, st.turn))
            continue
        actor = order[cursor]
        if actor >= 0 and out[actor]:
            continue
        activations = st.activations
        count = activations[actor] = activations.get(actor, 0) + 1
        log.append((ACTIVATION, st.turn, actor, count))
        st.acting = actor
        if actor >= 0 and st.marks[actor]:  # until the bearer's next turn (D12-CRIT-2)
            st.effects = [e for e in st.effects if e[1] != actor]
            st.marks[actor] = 0
        st.attacked = False
        return
    raise RuleBoundError("Combat bloqué : personne n’a pu agir (CORE-ERR).",
                         field="activations", value=_MAX_SKIPPED, rule="CORE-ERR")


def timeless_from(sheet: Sheet) -> int | None:
    """The turn from which the rest of a fight reads the turn's number only for its
    cap (the exact solver's door): from the first, but never under an end condition
    « tours » (CORE-END-1)."""
    return None if sheet.turn_conditions else 1



def acting(st: State) -> int:
    """Who acts now: the slot at the cursor, a fighter or the environment (:data:`ENV`,
    D12-INIT-5) (the exact solver's door)."""
    return st.order[st.cursor]


def choose(sheet: Sheet, st: State, actor: int) -> Move | None:
    """The move ``actor``'s deterministic policy plays now (:func:`run`'s choice, and
    the exact solver's door): the policy's pick among :func:`candidates`, i.e. among
    the moves on the preferred target (:attr:`Sheet.picks`, asked once per target);
    ``None``: no candidate (a policy picks nothing among none), it passes, or the
    environment's slot."""
    if (actor < 0 or st.attacked or st.out[actor] or st.finished or st.cursor < 0
            or st.order[st.cursor] != actor):
        return None  # :func:`candidates` offers nothing
    out = st.out
    enemies = [j for j in sheet.enemies[actor] if not out[j]]
    if not enemies:
        return None
    return sheet.picks[actor][_preferred(st, enemies)]


def advance(sheet: Sheet, st: State, _draw: Any = None) -> None:
    """The next activation (the end of the slot's turn: ``Encounter.end_activation``),
    ending and starting turns and asking the end conditions; it draws no die (the
    solver's door takes the dice as every kernel's does)."""
    _advance(sheet, st)


def start(sheet: Sheet, draw: Any) -> State:
    """The fight's start (``Encounter.start``): the group initiative (D12-INIT-1..6,
    :func:`.initiative.initiative`, drawn as ``D12System.start`` draws it, by its core
    :func:`.initiative.draw_initiative` on the roster the sheet checked), then the
    first activation of turn 1."""
    init = draw_initiative(sheet.roster, draw, environment=sheet.environment,
                           rules=sheet.rules)
    return _begun(sheet, init)


def _begun(sheet: Sheet, init: D12Initiative) -> State:
    """The fight whose initiative is ``init``, its first turn begun and its first
    activation started (``Encounter.start`` once the initiative is drawn)."""
    st = State(sheet, init)
    st.log.append((TURN_BEGIN, st.turn))
    _advance(sheet, st)
    return st


def start_law(sheet: Sheet, law: Callable[[Callable[[Any], State]], list[tuple[State, Any]]]
              ) -> list[tuple[State, Any]]:
    """The law of the fight's first states (the exact solver's door): :func:`start`
    under the least bound of rerolls (``max_initiative_rerolls`` 1), each state with its
    chance by ``law`` (the solver's enumerator), then the chances the sheet's bound
    gives them. Each attempt is drawn afresh (D12-INIT-3), so with ``t`` the chance of
    a perfect tie and ``R`` the bound, an order reached at the first attempt weighs
    ``(1 − t^(R+1)) / (1 − t)`` times its chance there, and one settled by lot
    (D12-INIT-6) ``t^(R−1)`` times its chance under the least bound (``t²`` times its
    one-attempt chance); the reroll's own orders, counted in the first factor, are
    dropped. The 12^(2R) sequences of rerolls are never played one by one."""
    rerolls = sheet.rules.max_initiative_rerolls
    least = dataclasses.replace(sheet.rules, max_initiative_rerolls=1)

    def first(draw: Any) -> State:
        init = draw_initiative(sheet.roster, draw, environment=sheet.environment,
                               rules=least)
        return _begun(sheet, init)

    firsts = law(first)
    if rerolls == 1:
        return firsts
    tie = sum((p for st, p in firsts if st.initiative.perfect_ties), firsts[0][1] * 0)
    ordered = (1 - tie ** (rerolls + 1)) / (1 - tie)
    return [(st, p * tie ** (rerolls - 1) if st.initiative.lots else p * ordered)
            for st, p in firsts
            if st.initiative.lots or not st.initiative.perfect_ties]


def run(sheet: Sheet, randint: Callable[[int, int], int], max_turns: int,
        tactics: Any = None) -> State:
    """A whole fight (``Encounter.start`` then ``Encounter.run``): each activation's
    moves chosen by the fighter's policy until it passes, until an end condition holds
    or ``max_turns`` turns have passed. ``tactics``: the tactics stream the policy « au
    hasard » draws from (``RandomPolicy.choose``: one move of all the candidates, or
    none), needed when :attr:`Sheet.tactics`."""
    draw = RandintOnly(randint)
    return play_out(sheet, start(sheet, draw), draw, max_turns, tactics)


def play_out(sheet: Sheet, st: State, draw: Any, max_turns: int, tactics: Any = None
             ) -> State:
    """The fight ``st``, just started (:func:`start`), played to its end with the dice of
    ``draw`` (its ``randint``) and the tactics stream ``tactics`` (``Encounter.run``
    after ``Encounter.start``: :func:`run`'s loop)."""
    choices, drawing, order = sheet.max_choices, sheet.random, st.order
    while not st.finished:
        if st.turn > max_turns:
            st.finished, st.outcome = True, limit_outcome(max_turns)
            break
        actor = order[st.cursor]
        if actor >= 0 and drawing[actor]:
            for _ in range(choices):
                moves = _offered(sheet, st, actor)
                if not moves:
                    break
                k = tactics.randint(0, len(moves))
                if k == len(moves):
                    break
                play(sheet, st, actor, moves[k], draw)
                if st.finished:
                    break
            if st.finished:
                break
        elif actor >= 0:
            for _ in range(choices):
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
    """The sheet of ``template``'s fights (an unstarted d12 ``Encounter``) with these
    start options and policies (side → policy), or ``None`` when the kernel does not
    cover them (the engine plays them)."""
    from escarmouche.policies import RandomPolicy, TagPolicy
    from escarmouche.systems.d12.actions import catalogue

    st = template.state
    fighters = list(st.fighters.values())
    attack = catalogue(template.rules).get("attaquer")
    if (st.started or st.effects or set(start_options) - _OPTIONS
            or attack is None or attack.resolver_key != "attaquer"
            or len({f.side for f in fighters}) < 2
            or any(type(p) not in (TagPolicy, RandomPolicy) for p in policies.values())
            or any(f.out or f.fled or set(f.tracks) != {TRACK} or f.tracks[TRACK] <= 0
                   for f in fighters)):
        return None
    probe = template.simulated()
    try:
        probe.start(random.Random(0), **start_options)
    except EscarmoucheError:
        return None  # the engine refuses it, in its own words
    return Sheet(probe, policies)
