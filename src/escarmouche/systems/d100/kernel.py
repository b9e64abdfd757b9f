"""The d100 rules kernel: a fight as a sheet compiled once and a small mutable state.

The shape is the one of ``spec/KERNEL.md`` (python-chess's legal-move generator apart
from its notation, OpenSpiel's game apart from its state):

* :class:`Sheet`, compiled and checked once per roster (:func:`compile_sheet`): the
  fighters by index, what each strikes with and at what total (:func:`.attack.target_number`),
  each defender's BE, armour under each attack roll (:data:`.core.ZONE_BY_ROLL`,
  :func:`.rules.armour_at`), parry and dodge totals, its policy; the answers of the
  turn-plan rule (:func:`.actions.check_turn`) and of the defence rules
  (:func:`.actions.allowed_defences`, :func:`.attack.check_defence`) are asked once per
  shape and kept. Every check the engine runs at each attack runs here, once.
* :class:`State`: wounds, out, prepared parries, parries and dodges used, loaded
  weapons, extended actions, each one's turn plan, turn, order, cursor, and a log of
  tuples carrying every die (:data:`ATTACK`: ``(ATTACK, turn, attacker, defender, hand,
  defence, attack d100, defence d100, d10, wounds lost, the defender's guard (prepared
  parry, parries and dodges used, surprised), its wounds before)``; :data:`RELOAD`: ``(RELOAD,
  turn, fighter, hand, None when loaded or (half actions done, of how many))``) and
  marking the fight's course (:data:`TURN_BEGIN`, :data:`ACTIVATION`, :data:`TURN_END`);
  :func:`.kernel_doors.write_back` gives the engine's state (today's save format) and
  :func:`.kernel_doors.narrated_run` the full engine's fight, its log narrated from
  these tuples (what ``Roster.play`` plays).
* :func:`refusal` (0 when legal, else a code of :data:`REFUSALS`), :func:`candidates`
  (only legal moves, as tuples ``(tag, action, hand, target)``, in the engine's order),
  :func:`play` (one move: the dice through :func:`.core.attack_dice`, the arithmetic of
  :mod:`.core`, the state written, one log tuple) and :func:`run` (the generic loop:
  candidates → policy → play → end check → advance, as ``Encounter.run``).

What it covers (:func:`compile_sheet` answers ``None`` otherwise, and the engine plays
the fight): fighters in melee or shooting, reloading (over several turns: an extended
action, D100-ACT-4), preparing parries and crossing the ground of the start option
``terrain`` (D100-JUMP-1/2), under a deterministic tactics policy
(:class:`~escarmouche.policies.TagPolicy`), with the start options ``surpris``,
``equipement``, ``tirs`` and ``terrain``, any end conditions; no effect, mount or extra
weapon. The equivalence tests (``tests/rules/d100/test_kernel.py``) hold every covered fight
to the full engine: the same state, the same dice consumed.

The engine's doors read the rules here too, on every d100 fight (mounts, extra weapons,
effects and the random policy included): :func:`.kernel_doors.view` reads a live
``Encounter`` as a sheet (kept per shape of the fight) and the state one fighter's turn
needs; ``D100System.moves`` is :func:`candidates` in French parameters (legal by
construction: ``System.legal_moves``), ``D100System.check_legal``, ``actions`` and
``offered`` are :func:`refusal`, worded; « préparer une parade » and « recharger » are
played by :func:`play` through ``Encounter.act`` (:func:`.kernel_doors.commit` writes
the fighter back, the door narrates the log tuple). An attack, a jump and the run round
a ditch played through ``Encounter.act`` go through the engine's resolvers
(:mod:`.actions`: ``attaquer``, ``saut``, ``saut_en_longueur``, ``course``), which take
the game master's inputs the kernel does not model (a distance, a modifier, a named
defence, a mount) and narrate; they and :func:`play` share every rule: the dice and
arithmetic of :mod:`.core`, :mod:`.attack` and :mod:`.jumps`, and what a blow or a step
leaves behind (:func:`.core.defended`, :func:`.core.loaded_after`,
:func:`.terrain.crossed`). Only the writing differs: flags there, arrays here.
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
from escarmouche.rng import RandintOnly
from escarmouche.state import Ctx, FighterState, limit_outcome
from escarmouche.systems.d100.actions import (
    Extended,
    TurnPlan,
    allowed_defences,
    check_turn,
    fight_weapons,
    held,
)
from escarmouche.systems.d100.attack import AttackSetup, Guard, check_defence, target_number
from escarmouche.systems.d100.core import (
    ZONE_BY_ROLL,
    attack_dice,
    attack_dice_law,
    defended,
    loaded_after,
    wounds,
)
from escarmouche.systems.d100.initiative import (
    INITIATIVE_DIE,
    initiative_order,
)
from escarmouche.systems.d100.jumps import roll_drop_jump, roll_long_jump
from escarmouche.systems.d100.rules import (
    ACTION_DEFS,
    HANDS,
    TRACK,
    armour_at,
    bonus,
    get_weapon,
    stat,
)
from escarmouche.systems.d100.terrain import DROP as STEP_DROP
from escarmouche.systems.d100.terrain import LEAP as STEP_LEAP
from escarmouche.systems.d100.terrain import RUN as STEP_RUN
from escarmouche.systems.d100.terrain import crossed

__all__ = [
    "ACTIONS",
    "ACTIVATION",
    "ATTACK",
    "PREPARE",
    "REFUSALS",
    "RELOAD",
    "TURN_BEGIN",
    "TURN_END",
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
    "timeless_from",
]

#: the moves' actions: an « attaque standard », a prepared parry, a reload, the ways
#: across the ground of the start option ``terrain`` (a drop, a long jump, a run round)
ATTACK, PREPARE, RELOAD, DROP, LEAP, RUN = 0, 1, 2, 3, 4, 5
#: then every other action of the catalogue, so that any turn plan the engine wrote (a
#: GM's « dégainer », an « incantation » under way…) reads as codes (:func:`.kernel_doors.view`)
ACTIONS = ("attaquer", "preparer_parade", "recharger", "saut", "saut_en_longueur", "course",
           *(a for a in ACTION_DEFS if a not in ("attaquer", "preparer_parade", "recharger",
                                                "saut", "saut_en_longueur", "course")))
#: each action's code
ACTION_CODES: Mapping[str, int] = {a: i for i, a in enumerate(ACTIONS)}
#: the half actions each takes (D100-ACT-3): a fighter who fell takes none of them
_HALVES = tuple(ACTION_DEFS[a].halves for a in ACTIONS)
#: the log's marks of the fight's course, which the full engine's narration reads
#: (:func:`.kernel_doors.narrated_run`): a round begins ``(TURN_BEGIN, turn, its order)``, an
#: activation begins ``(ACTIVATION, turn, actor, its number this round, a prepared parry
#: that expires)``, a round ends ``(TURN_END, turn)``
TURN_BEGIN, ACTIVATION, TURN_END = -1, -2, -3
#: the moves' tags, which the policies rank (:class:`~escarmouche.systems.base.Move`)
TAGS = ("attaque", "defense", "recharge", "suite", "deplacement")
#: the defences, as codes (« aucune », « parade », « esquive »)
DEFENCES = ("aucune", "parade", "esquive")

#: how :func:`start`, :func:`play` and :func:`advance` take their dice: a bare
#: ``randint`` function (the exact solver's door, ``escarmouche.exact``)
DICE = "randint"

#: refusal codes (0: legal) and the rule each one cites
NOT_ITS_TURN, OUT, PLAN, NO_TARGET, PREPARED, LOADED, FALLEN = 1, 2, 3, 4, 5, 6, 7
REFUSALS: Mapping[int, str] = {
    NOT_ITS_TURN: "D100-ROUND-1",
    OUT: "CORE-END-1",
    FALLEN: "D100-JUMP-1",
    PLAN: "D100-ACT-1",
    NO_TARGET: "D100-ATK-1",
    PREPARED: "D100-PARRY-3",
    LOADED: "D100-ACT-4",
}

#: the start options the kernel covers
_OPTIONS = frozenset({"surpris", "equipement", "tirs", "terrain"})
#: bound on slots skipped while looking for the next activation (the engine's)
_MAX_SKIPPED = 10_000

#: a move: its tag (what the policies rank), action, hand, target (-1: none)
Move = tuple[str, int, int, int]
#: what one hand strikes with: its target number's total (``None``: out of reach, no
#: shot), the weapon's damage, whether it shoots, its reload (half actions)
Arm = tuple[int | None, int, bool, int]
_Plan = tuple[tuple[int, int], ...]



class Sheet:
    """One roster's fights, compiled and checked once (see the module docstring)."""

    def __init__(self, probe: Any, policies: Mapping[str, Any]) -> None:
        st = probe.state
        rules = probe.rules
        ctx = Ctx(st, probe.system, rules, None)
        fighters = list(st.fighters.values())
        catalogue = fight_weapons(ctx)
        self.probe = probe  # the fight started once, on throwaway dice: the views' base
        self.rules = rules
        self.names = tuple(f.name for f in fighters)
        self.index = {name: i for i, name in enumerate(self.names)}
        self.combatants: tuple[Combatant, ...] = tuple(f.combatant for f in fighters)
        self.side_names = tuple(dict.fromkeys(f.side for f in fighters))
        self.side = tuple(self.side_names.index(f.side) for f in fighters)
        self.wounds = tuple(int(f.tracks[TRACK]) for f in fighters)
        self.maxima = tuple(int(f.maxima.get(TRACK, f.tracks[TRACK])) for f in fighters)
        self.loaded = tuple(tuple(bool(f.flags["loaded"][h]) for h in HANDS)
                            for f in fighters)
        ground = st.system_state.get("terrain") or {}
        #: the ground each fighter has to cross at the start: [drop, ditch, room for the
        #: run-up, fell this turn] (:mod:`.terrain`), or ``None``
        self.ground = tuple(None if f.name not in ground else
                            tuple(ground[f.name][k] for k in ("hauteur", "fosse", "elan",
                                                               "chute"))
                            for f in fighters)
        surprised = st.system_state.get("surprised")
        self.surprised = -1 if surprised is None else self.side_names.index(surprised)
        self.end_conditions = tuple(st.end_conditions)
        self.turn_conditions = any(c.kind == "tours" for c in st.end_conditions)
        #: the engine's end check on the kernel's state (its answers kept per state it
        #: reads, :class:`escarmouche.end_check.EndCheck`)
        self.end_check = EndCheck(st, TRACK)
        # (a view's sheet has no policies: its defences are asked of the engine's)
        self.policies: tuple[Any, ...] = tuple(policies.get(f.side) for f in fighters)
        self.enemies = tuple(tuple(j for j, g in enumerate(fighters) if g.side != f.side)
                             for f in fighters)
        self.two_weapons = tuple(all(f.flags["hands"][h] is not None for h in HANDS)
                                 for f in fighters)
        #: each hand's :data:`Arm` (an empty main hand strikes bare-handed, an empty off
        #: hand not at all: ``None``)
        self.arms: tuple[tuple[Arm | None, ...], ...] = tuple(
            tuple(self._arm(f, h, ctx, catalogue) for h in HANDS) for f in fighters)
        # the hands each fighter uses against a first enemy, in automated play's order
        self.hands = tuple(tuple(self._hands(ctx, f, g) for g in fighters) for f in fighters)
        #: no ground to cross in this fight: every fighter is in melee
        self.flat = all(g is None for g in self.ground)
        # with no enemy in melee: each hand in order (``D100System.moves``)
        self.any_hands = tuple(tuple(h for h in range(len(HANDS)) if arms[h] is not None)
                               for arms in self.arms)
        self.be = tuple(bonus(stat(c, "E")) for c in self.combatants)
        self.agility = tuple(stat(c, "Ag") for c in self.combatants)
        self.armour = tuple(tuple(armour_at(c, z) for z in ZONE_BY_ROLL)
                            for c in self.combatants)
        self.defence_totals = tuple((0, stat(c, "CC"), stat(c, "Ag"))
                                    for c in self.combatants)
        self._defences: dict[tuple[int, bool, int, int, bool, bool],
                             tuple[int, int | None, bool]] = {}
        self._plans: dict[tuple[_Plan, int, int, Extended | None],
                          TurnPlan | EscarmoucheError] = {}
        self._allows: dict[tuple[_Plan, int, Extended | None], bool] = {}
        #: the attack setups of the full engine's narration, by shape
        #: (:func:`.kernel_doors.narrated_run`)
        self.setups: Memo[AttackSetup] = Memo(4096)
        #: the attacks the full engine's narration told, by shape
        self.told: Memo[tuple[Any, ...]] = Memo(8192)

    @staticmethod
    def _arm(f: FighterState, hand: str, ctx: Ctx[Any], catalogue: Any) -> Arm | None:
        from escarmouche.systems.d100.system import _shot_params

        weapon = held(ctx, f, hand)
        if weapon is None:
            if hand != HANDS[0]:
                return None
            weapon = get_weapon("mains_nues")
        total: int | None = None
        shot = _shot_params(ctx, f.name, weapon)  # {} in melee, None out of reach
        if shot is not None:
            total = target_number(f.combatant, weapon, hand=hand,
                                  distance=shot.get("distance"),
                                  target_engaged=bool(shot.get("cible_engagee", False)),
                                  rules=ctx.rules, weapons=catalogue).total
        return total, weapon.damage, weapon.ranged, weapon.reload

    def _hands(self, ctx: Ctx[Any], f: FighterState, target: FighterState
               ) -> tuple[int, ...]:
        from escarmouche.systems.d100.system import _hand_order

        if f.side == target.side:
            return ()
        i = self.names.index(f.name)
        return tuple(HANDS.index(h) for h in _hand_order(ctx, f, target)
                     if self.arms[i][HANDS.index(h)] is not None)

    def turn(self, plan: _Plan, action: int, n: int, ext: Extended | None
             ) -> TurnPlan | EscarmoucheError:
        """D100-ACT-1..4 (:func:`.actions.check_turn`): this turn's ``plan`` plus ``n``
        half actions of ``action``, with ``ext`` under way when the turn began; the plan,
        or the refusal as a value; asked once per turn shape."""
        key = (plan, action, n, ext)
        known = self._plans.get(key)
        if known is None:
            try:
                known = check_turn([*((ACTIONS[a], k) for a, k in plan), (ACTIONS[action], n)],
                                   in_progress=ext)
            except EscarmoucheError as err:
                known = err
            self._plans[key] = known
        return known

    def plan_allows(self, plan: _Plan, action: int, ext: Extended | None) -> bool:
        """Whether the turn plan allows one more half action of ``action`` (the test
        the engine offers a move by, ``D100System.check_legal``)."""
        key = (plan, action, ext)
        known = self._allows.get(key)
        if known is None:
            known = self._allows[key] = not isinstance(self.turn(plan, action, 1, ext),
                                                       EscarmoucheError)
        return known

    def defence(self, key: tuple[int, bool, int, int, bool, bool]
                ) -> tuple[int, int | None, bool]:
        """The defence defender ``key[0]`` opposes now (``key``: its index, prepared
        parry, parries and dodges used this round, surprised, a shot), as its policy
        chooses among those the rules allow (D100-PARRY-2/3, D100-DODGE-1/2,
        D100-SURPRISE-1, D100-RANGED-1): ``(code, the defence roll's total or None,
        whether it spends a prepared parry)``, answered once per key."""
        known = self._defences.get(key)
        if known is None:
            j, prepared, parries, dodges, surprised, ranged = key
            c = self.combatants[j]
            guard = Guard(prepared, self.two_weapons[j], parries, dodges, surprised)
            options = allowed_defences(c, guard, ranged, self.rules)
            chosen = self.policies[j].react("defense", [*options, "aucune"], None)
            code = DEFENCES.index(chosen)
            source = check_defence(c, chosen, guard, ranged, self.rules)
            known = (code, self.defence_totals[j][code] if code else None,
                     source == "preparee")
            self._defences[key] = known
        return known

    def play(self, dice: Any, max_turns: int
             ) -> tuple[list[tuple[str, bool, int, int]], int]:
        """One fight on ``dice``: each fighter's (side, standing, B, B at most), and the
        last turn (what a balance counts)."""
        st = run(self, dice.randint, max_turns)
        side, names = self.side, self.side_names
        rows = [(names[side[i]], not st.out[i], st.wounds[i], self.maxima[i])
                for i in range(len(self.names))]
        return rows, st.turn


class State:
    """A fight where it stands, compact and mutable (see the module docstring)."""

    __slots__ = ("activations", "cursor", "dodges", "ext_hand", "ext_start", "extended",
                 "finished", "ground", "initiative", "loaded", "log", "order", "out",
                 "outcome",
                 "parries", "plan", "plans", "prepared", "turn", "turn_order", "wounds")

    def __init__(self, sheet: Sheet, order: Sequence[str], initiative: Any) -> None:
        n = len(sheet.names)
        #: what the initiative was: ``(d10s, roll-offs, order)`` as drawn
        #: (:func:`.initiative.initiative_order`), or its JSON read from a save
        self.initiative = initiative
        self.order = tuple(sheet.names.index(name) for name in order)
        self.wounds = list(sheet.wounds)
        self.out = [False] * n
        self.prepared = [False] * n
        self.parries = [0] * n
        self.dodges = [0] * n
        self.loaded = [list(x) for x in sheet.loaded]
        self.ground: list[list[Any] | None] = [None if g is None else list(g)
                                               for g in sheet.ground]
        #: the extended action under way now, and when the fighter's turn began; the
        #: hand being reloaded (D100-ACT-4)
        self.extended: list[Extended | None] = [None] * n
        self.ext_start: list[Extended | None] = [None] * n
        self.ext_hand: list[int | None] = [None] * n
        self.plan: _Plan = ()
        #: each fighter's plan of its last activation (the engine's ``flags["plan"]``)
        self.plans: list[_Plan] = [()] * n
        self.turn = 1
        self.turn_order: tuple[int, ...] = ()
        self.cursor = -1
        self.activations: dict[int, int] = {}
        self.finished = False
        self.outcome: str | None = None
        self.log: list[tuple[Any, ...]] = []

    def copy(self) -> State:
        """A copy to play on (the exact solver's door, ``escarmouche.exact``): every
        mutable field copied; the log, a record the fight never reads, starts empty."""
        new = State.__new__(State)
        # (each field by name: a loop over __slots__ with getattr and setattr was the
        # solver's largest cost)
        new.initiative, new.order, new.plan = self.initiative, self.order, self.plan
        new.turn, new.turn_order, new.cursor = self.turn, self.turn_order, self.cursor
        new.finished, new.outcome = self.finished, self.outcome
        new.wounds, new.out, new.prepared = self.wounds[:], self.out[:], self.prepared[:]
        new.parries, new.dodges = self.parries[:], self.dodges[:]
        new.loaded = [x[:] for x in self.loaded]
        new.ground = [None if g is None else g[:] for g in self.ground]
        new.extended, new.ext_start = self.extended[:], self.ext_start[:]
        new.ext_hand, new.plans = self.ext_hand[:], self.plans[:]
        new.activations = dict(self.activations)
        new.log = []
        return new

    def key(self) -> tuple[Any, ...]:
        """What the rest of the fight depends on, hashable (the exact solver's door): every
        field but the records (the log, the activations counted, the initiative's draws)
        and the turn, which the solver keeps beside it (:func:`timeless_from`)."""
        return (tuple(self.wounds), tuple(self.out), tuple(self.prepared),
                tuple(self.parries), tuple(self.dodges), tuple(map(tuple, self.loaded)),
                tuple(None if g is None else tuple(g) for g in self.ground),
                tuple(self.extended), tuple(self.ext_start), tuple(self.ext_hand),
                self.plan, tuple(self.plans), self.turn_order, self.cursor,
                self.finished, self.outcome,
                self.order)


def refusal(sheet: Sheet, st: State, actor: int, move: Move) -> int:
    """0 when ``actor`` may play ``move`` now, else a code of :data:`REFUSALS`: its own
    turn (D100-ROUND-1), standing, not fallen this turn when the action takes half
    actions (D100-JUMP-1/2, ruling), within this turn's plan (D100-ACT-1..4), then what
    the move names (a hand or a target of -1: not named yet, not asked)."""
    if st.finished or not 0 <= st.cursor < len(st.turn_order) \
            or st.turn_order[st.cursor] != actor:
        return NOT_ITS_TURN
    if st.out[actor]:
        return OUT
    _, action, hand, target = move
    ground = st.ground[actor]
    if ground is not None and ground[3] and _HALVES[action]:
        return FALLEN
    if not sheet.plan_allows(st.plan, action, st.ext_start[actor]):
        return PLAN
    if action == ATTACK and target >= 0 and (target == actor or st.out[target]):
        return NO_TARGET
    if action == PREPARE and st.prepared[actor]:
        return PREPARED
    if (action == RELOAD and hand >= 0 and st.extended[actor] is None
            and st.loaded[actor][hand]):
        return LOADED
    return 0


def candidates(sheet: Sheet, st: State, actor: int) -> Iterator[Move]:
    """``actor``'s legal moves, in automated play's order (``D100System.moves``): carry
    on the reload under way (« suite »), and nothing else; otherwise with each hand that
    strikes, reload an empty weapon (« recharge ») or attack the first standing enemy
    then the most wounded one (« attaque »); then prepare a parry when it has none and
    holds one weapon (« defense »)."""
    if st.out[actor]:
        return
    plan, ext = st.plan, st.ext_start[actor]
    ground = st.ground[actor]
    if ground is not None and ground[3]:
        return  # fell this turn: no half action until the next (D100-JUMP-1/2, ruling)
    under_way = st.extended[actor]
    if under_way is not None:  # carried on, and nothing else (D100-ACT-4)
        action = ACTION_CODES[under_way.action]
        if sheet.plan_allows(plan, action, ext):
            hand = st.ext_hand[actor]
            yield "suite", action, 0 if hand is None else hand, -1
        return
    if ground is not None and (ground[0] or ground[1]):
        across = DROP if ground[0] else (
            LEAP if ground[2] >= sheet.rules.long_jump_run_up else RUN)
        if sheet.plan_allows(plan, across, ext):
            yield "deplacement", across, 0, -1  # and nothing else until across
        return
    out, grounds = st.out, st.ground
    enemies = [j for j in sheet.enemies[actor] if not out[j]]
    if not enemies:
        return
    near = enemies if sheet.flat else [
        j for j in enemies if grounds[j] is None
        or not (grounds[j][0] or grounds[j][1])]  # type: ignore[index]
    arms, loaded = sheet.arms[actor], st.loaded[actor]
    attacks: bool | None = None
    for hand in sheet.hands[actor][near[0]] if near else sheet.any_hands[actor]:
        arm = arms[hand]
        assert arm is not None  # (only the hands that strike are listed)
        total, _, ranged, reload = arm
        if ranged and reload and not loaded[hand]:
            if sheet.plan_allows(plan, RELOAD, ext):
                yield "recharge", RELOAD, hand, -1
            continue
        if total is None:
            continue  # out of reach (D100-RANGED-5)
        targets = enemies if ranged else near
        if not targets:
            continue
        if attacks is None:
            attacks = sheet.plan_allows(plan, ATTACK, ext)
        if not attacks:
            continue
        first = targets[0]
        yield "attaque", ATTACK, hand, first
        if len(targets) > 1:  # then the most wounded (``_targets``)
            wounds_, names = st.wounds, sheet.names
            weakest = min(targets, key=lambda j: (wounds_[j], names[j]))
            if weakest != first:
                yield "attaque", ATTACK, hand, weakest
    if (not st.prepared[actor] and not sheet.two_weapons[actor]
            and sheet.plan_allows(plan, PREPARE, ext)):
        yield "defense", PREPARE, 0, -1


def play(sheet: Sheet, st: State, actor: int, move: Move,
         randint: Callable[[int, int], int]) -> None:
    """Play a legal ``move`` (trusted: ask :func:`refusal` first): draw its dice, write
    the state, append one log tuple."""
    _, action, hand, j = move
    n = 1
    under_way = st.extended[actor]
    if action == RELOAD and (under_way is None or under_way.action != ACTIONS[RELOAD]):
        n = sheet.arms[actor][hand][3]  # type: ignore[index]
    plan = sheet.turn(st.plan, action, n, st.ext_start[actor])
    if isinstance(plan, EscarmoucheError):
        raise plan.again()  # as the engine's resolver (a reload too long for the turn)
    st.plan = st.plans[actor] = (*st.plan, (action, n))
    st.extended[actor] = plan.extended
    knocked_out = False
    if action == ATTACK:
        knocked_out = _attack(sheet, st, actor, hand, j, randint)
    elif action == PREPARE:
        st.prepared[actor] = True  # D100-PARRY-2
        st.log.append((PREPARE, st.turn, actor))
    elif DROP <= action <= RUN:
        _cross(sheet, st, actor, action, randint)
    elif plan.extended is None or ACTIONS[RELOAD] in plan.completed:
        st.loaded[actor][hand] = True  # D100-ACT-4: reloaded
        st.log.append((RELOAD, st.turn, actor, hand, None))
    else:
        st.ext_hand[actor] = hand
        ext = plan.extended
        st.log.append((RELOAD, st.turn, actor, hand, (ext.total - ext.remaining, ext.total)))
    if plan.extended is None:
        st.ext_hand[actor] = None
    if knocked_out:
        _check_end(sheet, st, False)


def _blow(sheet: Sheet, st: State, actor: int, hand: int, j: int
          ) -> tuple[int, int, bool, int, int, int | None, bool, bool]:
    """What an attack of ``actor``'s ``hand`` on ``j`` is now, before its dice: the
    attack's total, the weapon's damage, a shot, its reload, the defence ``j`` opposes
    (its code, its total or None, whether it spends a prepared parry:
    :meth:`Sheet.defence`, D100-PARRY-*, D100-DODGE-*) and whether ``j`` is surprised
    (D100-SURPRISE-1)."""
    arm = sheet.arms[actor][hand]
    assert arm is not None  # a candidate's hand strikes
    total, weapon, ranged, reload = arm
    assert total is not None  # and reaches its target
    surprised = st.turn == 1 and sheet.side[j] == sheet.surprised
    code, saving, spends = sheet.defence((j, st.prepared[j], st.parries[j], st.dodges[j],
                                          surprised, ranged))
    return total, weapon, ranged, reload, code, saving, spends, surprised


def move_law(sheet: Sheet, st: State, actor: int, move: Move
             ) -> tuple[tuple[Fraction, tuple[int, ...]], ...] | None:
    """The dice :func:`play` draws for the legal ``move`` now, grouped into the classes
    nothing after the draw tells apart, each with its chance and a representative
    sequence of dice (the exact solver's door, ``escarmouche.exact``): an attack's are
    :func:`.core.attack_dice_law` of its blow (:func:`_blow`); a move that draws no die
    has one class, no dice; ``None`` for the others (the ground's jumps: the solver
    enumerates their few dice)."""
    _, action, hand, j = move
    if action == ATTACK:
        total, weapon, _, _, _, saving, _, _ = _blow(sheet, st, actor, hand, j)
        return attack_dice_law(total, saving, weapon, sheet.be[j], sheet.armour[j])
    if action in (PREPARE, RELOAD):
        return ((Fraction(1), ()),)
    return None


def _attack(sheet: Sheet, st: State, actor: int, hand: int, j: int,
            randint: Callable[[int, int], int]) -> bool:
    """One attack (D100-ATK-1..7, D100-PARRY-*, D100-DODGE-*, D100-RANGED-*); whether the
    defender is now out of the fight."""
    total, weapon, ranged, reload, code, saving, spends, surprised = _blow(
        sheet, st, actor, hand, j)
    # what the narration's attack setup reads: the defender's guard, its wounds
    guard, before = (st.prepared[j], st.parries[j], st.dodges[j], surprised), st.wounds[j]
    roll, saved, d10 = attack_dice(randint, total, saving)
    if saved is not None:  # D100-PARRY-3, D100-DODGE-2
        st.parries[j], st.dodges[j], st.prepared[j] = defended(
            code == 1, spends, st.parries[j], st.dodges[j], st.prepared[j])
    if ranged and reload:  # fired (D100-ACT-4)
        st.loaded[actor][hand] = loaded_after(ranged, reload, st.loaded[actor][hand])
    lost = 0 if d10 is None else wounds(d10, weapon, sheet.be[j], sheet.armour[j][roll - 1])
    st.log.append((ATTACK, st.turn, actor, j, hand, code, roll, saved, d10, lost, guard,
                   before))
    if not lost:
        return False
    left = st.wounds[j] - lost
    st.wounds[j] = left if left > 0 else 0
    if left > 0:
        return False
    st.out[j] = True
    return True


def _cross(sheet: Sheet, st: State, actor: int, action: int,
           randint: Callable[[int, int], int]) -> None:
    """A step across the ground of the start option ``terrain`` (:mod:`.terrain`): a
    controlled drop (D100-JUMP-1, :func:`.jumps.roll_drop_jump`), a long jump over the
    ditch (D100-JUMP-2, :func:`.jumps.roll_long_jump`), or a run round it; a failed
    jump costs the rest of the turn (ruling)."""
    ground = st.ground[actor]
    assert ground is not None  # (a crossing move has ground to cross)
    c = sheet.combatants[actor]
    entry: tuple[Any, ...]
    landed: float | bool
    if action == DROP:
        drop = roll_drop_jump(c, ground[0], RandintOnly(randint), rules=sheet.rules)
        step, landed, entry = STEP_DROP, drop.success, (DROP, st.turn, actor, drop)
    elif action == LEAP:
        leap = roll_long_jump(c, ground[2], RandintOnly(randint), rules=sheet.rules)
        step, landed, entry = STEP_LEAP, leap.distance, (LEAP, st.turn, actor, leap)
    else:
        step, landed, entry = STEP_RUN, True, (RUN, st.turn, actor)
    ground[:] = crossed((ground[0], ground[1], ground[2], ground[3]), step, landed)
    st.log.append(entry)


def _check_end(sheet: Sheet, st: State, at_turn_end: bool) -> None:
    """The engine's end check (:func:`escarmouche.state.end_outcome`, through the sheet's
    :class:`escarmouche.end_check.EndCheck`); asked only when something it reads changed (a
    fighter out, a turn ends under a condition « tours »)."""
    outcome = sheet.end_check(st.out, st.wounds, st.turn, at_turn_end)
    if outcome is not None:
        st.finished, st.outcome = True, outcome


def _begin_turn(sheet: Sheet, st: State) -> None:
    """D100-ROUND-1 (every fighter once, by initiative; D100-SURPRISE-1: not the
    surprised in round 1); D100-PARRY-3, D100-DODGE-2: the counts reset each round."""
    if st.turn == 1 and sheet.surprised >= 0:
        st.turn_order = tuple(i for i in st.order if sheet.side[i] != sheet.surprised)
    else:
        st.turn_order = st.order
    st.cursor = -1
    st.activations = {}
    n = len(sheet.names)
    st.parries = [0] * n
    st.dodges = [0] * n
    st.log.append((TURN_BEGIN, st.turn, st.turn_order))


def _advance(sheet: Sheet, st: State) -> None:
    """The next slot that can act (``Encounter._advance``), ending and starting turns."""
    for _ in range(_MAX_SKIPPED):
        if st.finished:
            return
        st.cursor += 1
        if st.cursor >= len(st.turn_order):
            st.log.append((TURN_END, st.turn))
            if sheet.turn_conditions:
                _check_end(sheet, st, True)
                if st.finished:
                    return
            st.turn += 1
            _begin_turn(sheet, st)
            continue
        actor = st.turn_order[st.cursor]
        if st.out[actor]:
            continue
        count = st.activations[actor] = st.activations.get(actor, 0) + 1
        st.log.append((ACTIVATION, st.turn, actor, count, st.prepared[actor]))
        st.plan = st.plans[actor] = ()
        st.ext_start[actor] = st.extended[actor]
        st.prepared[actor] = False  # a prepared parry lasts until this (D100-PARRY-3)
        ground = st.ground[actor]
        if ground is not None:
            ground[3] = False  # a turn lost to a fall ends here (terrain.new_turn)
        return
    raise RuleBoundError("Combat bloqué : personne n’a pu agir (CORE-ERR).",
                         field="activations", value=_MAX_SKIPPED, rule="CORE-ERR")


def run(sheet: Sheet, randint: Callable[[int, int], int], max_turns: int) -> State:
    """A whole fight (``Encounter.start`` then ``Encounter.run``): the initiative
    (D100-INIT-1/2, :func:`.initiative.roll_initiative`), then each activation's moves
    chosen by the fighter's policy until it passes, until an end condition holds or
    ``max_turns`` rounds have passed."""
    from escarmouche.policies import MAX_CHOICES

    st = start(sheet, randint)
    while not st.finished:
        if st.turn > max_turns:
            st.finished, st.outcome = True, limit_outcome(max_turns)
            break
        actor = st.turn_order[st.cursor]
        for _ in range(MAX_CHOICES):
            move = choose(sheet, st, actor)
            if move is None:
                break
            play(sheet, st, actor, move, randint)
            if st.finished:
                break
        if st.finished:
            break
        _advance(sheet, st)
    return st


def start(sheet: Sheet, randint: Callable[[int, int], int]) -> State:
    """A fight's first state, at its first activation (``Encounter.start``): the
    initiative (D100-INIT-1/2, :func:`.initiative.roll_initiative`), the first turn."""

    def draw(_name: str, _rolloff: bool) -> int:
        return randint(1, INITIATIVE_DIE)

    initiative = initiative_order(sheet.names, sheet.agility, draw)
    st = State(sheet, initiative[2], initiative)
    _begin_turn(sheet, st)
    _advance(sheet, st)
    return st


def advance(sheet: Sheet, st: State, _randint: Callable[[int, int], int] | None = None
            ) -> None:
    """The next activation (the end of ``actor``'s turn: ``Encounter.end_activation``),
    ending and starting turns and asking the end conditions; it draws no die (the
    solver's door takes the dice as every kernel's does)."""
    _advance(sheet, st)


def timeless_from(sheet: Sheet) -> int | None:
    """The turn from which the rest of a fight reads the turn's number only for its
    cap (the exact solver's door): from turn 2, the surprise's (D100-SURPRISE-1) being
    over; never under an end condition « tours » (CORE-END-1)."""
    return None if sheet.turn_conditions else 2



def acting(st: State) -> int:
    """Who acts now: the fighter of the turn's slot at the cursor (the exact solver's
    door)."""
    return st.turn_order[st.cursor]


def choose(sheet: Sheet, st: State, actor: int) -> Move | None:
    """The move ``actor``'s policy plays now among :func:`candidates` (each tag's first
    move, :meth:`~escarmouche.policies.TagPolicy.pick_tagged`), or ``None``: it passes
    (:func:`run`'s choice, and the exact solver's door)."""
    return sheet.policies[actor].pick_tagged(candidates(sheet, st, actor))  # type: ignore[no-any-return]



def compile_sheet(template: Any, start_options: Mapping[str, Any],
                  policies: Mapping[str, Any]) -> Sheet | None:
    """The sheet of ``template``'s fights (an unstarted d100 ``Encounter``) with these
    start options and policies (side → policy), or ``None`` when the kernel does not
    cover them (the engine plays them)."""
    from escarmouche.policies import TagPolicy

    st = template.state
    fighters = list(st.fighters.values())
    if (st.started or st.effects or set(start_options) - _OPTIONS
            or len({f.side for f in fighters}) < 2
            or any(type(p) is not TagPolicy for p in policies.values())
            or any(f.out or f.fled or set(f.tracks) != {TRACK} or f.tracks[TRACK] <= 0
                   for f in fighters)):
        return None
    probe = template.simulated()
    try:
        probe.start(random.Random(0), **start_options)
    except EscarmoucheError:
        return None  # the engine refuses it, in its own words
    return Sheet(probe, policies)
