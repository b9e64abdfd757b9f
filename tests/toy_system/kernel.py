"""The rules kernel of « Jouet »: the model to copy when a system gets its kernel.

A *rules kernel* plays a system's fights without the engine's objects on the way
(``spec/KERNEL.md``: python-chess's legal-move generator apart from its notation,
OpenSpiel's game apart from its state). Simulation mode uses it: ``simulation.prepare``
asks ``System.kernel`` once per roster (here ``ToySystem.kernel``, which returns
:func:`compile_sheet`'s answer), then ``Sheet.play`` plays each fight; the full engine
still plays and narrates the fights a person reads. The d100 kernel
(``escarmouche.systems.d100.kernel``) has the same names and shape over richer rules.
The recipe, step by step:

1. **Each rule once.** A rule is a small pure function of values already checked, in
   the system's own modules, citing its rule ID; the engine's hooks and the kernel both
   call it, and the kernel never writes a rule's arithmetic itself. Here:
   :func:`.initiative.order_by_initiative` (JOUET-INIT-1), :func:`.actions.resolve_strike`
   (JOUET-ATK-1) and :func:`.rules.knocked_out` (JOUET-END-1). Choices made:
   ``resolve_strike`` is called as it is (it takes the die alone; its check of the die
   costs less than a second function would); ``resolve_initiative`` takes combatants
   and checks the roster, so its arithmetic was split off into ``order_by_initiative``,
   which the sheet's plain integers feed. The legality of a blow (a standing enemy, once
   per activation) is written twice, in :func:`refusal` and in the engine's door
   (``actions.frapper``), and the tests hold the two to the same cases and rule IDs.
2. **The sheet** (:class:`Sheet`, built by :func:`compile_sheet`): what does not change
   during a fight, read and checked once per roster, by fighter index: names, sides as
   numbers, ``init``, PV at the start and at most, each one's enemies, the rules (the
   option ``faces``), each one's policy, the end conditions.
3. **The state** (:class:`State`): what changes, as small lists by fighter index (PV,
   out) and a few numbers (turn, cursor in the order, who struck in this activation),
   the initiative as drawn, and the **log**: one tuple per action carrying every die,
   ``(STRIKE, turn, striker, target, die, damage, PV left)``.
4. **Four functions divide the work**, none raises for a rule: :func:`refusal` answers
   0 when a move is legal, else a code of :data:`REFUSALS`, each citing its rule (the
   engine's doors word it in French); :func:`candidates` lists the moves the rules name
   and yields those :func:`refusal` accepts, in automated play's order, as tuples
   ``(tag, target)`` (the tag is what the policies rank; a system of several actions adds
   the action's code, as d100's ``(tag, action, hand, target)``); :func:`play` trusts
   its move (ask :func:`refusal` first), draws the dice, writes the state and appends one
   log tuple; :func:`run` is the generic loop, as ``Encounter.run``: :func:`start` (the
   initiative, the first activation), then per activation candidates → the fighter's
   policy (``TagPolicy.pick_tagged``) → play → end check → advance. The end check is the
   engine's own (:func:`escarmouche.state.end_outcome`), asked when a fighter falls and
   at a turn's end, through :class:`escarmouche.end_check.EndCheck`, which keeps its
   answers per state it reads.
5. **What the kernel does not cover, the engine plays**: :func:`compile_sheet` answers
   ``None`` for a fight already started, with effects or start options, a single side, a
   fighter out, fled or without PV, or a policy that is not a
   :class:`~escarmouche.policies.TagPolicy` (« au hasard » draws from a tactics stream
   that ``Sheet.play`` is not given). Widen it one rule at a time, each time with the
   fights that use the rule in the equivalence test.
6. **The equivalence test holds it to the engine** (``tests/rules/jouet/test_kernel.py``): on
   the sample roster and on any roster Hypothesis draws, the kernel's fight written back
   as the engine's (:func:`.kernel_doors.write_back`, today's save format) is the full
   engine's for the same dice, with the same dice consumed and the same tallies
   (``Prepared.play``); each log tuple told by :func:`.kernel_doors.narrate` is the
   engine's sentence; each refusal code answers its case, which the engine refuses too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from escarmouche.end_check import EndCheck
from escarmouche.policies import MAX_CHOICES, TagPolicy
from escarmouche.state import limit_outcome
from tests.toy_system.actions import resolve_strike
from tests.toy_system.initiative import order_by_initiative
from tests.toy_system.rules import INITIATIVE_DIE, TRACK, Rules, knocked_out

__all__ = [
    "REFUSALS",
    "STRIKE",
    "Move",
    "Sheet",
    "State",
    "candidates",
    "compile_sheet",
    "play",
    "refusal",
    "run",
    "start",
]

#: the first item of a log tuple: a blow (JOUET-ATK-1), the only action of « Jouet »
STRIKE = 0
#: the tag of a blow, which the policies rank (``escarmouche.systems.base.Move``)
ATTACK = "attaque"

#: refusal codes (0: legal), each with the rule it cites
OUT, NOT_ITS_TURN, NO_TARGET, STRUCK = 1, 2, 3, 4
REFUSALS: Mapping[int, str] = {
    OUT: "JOUET-END-1",  # out of the fight: nothing more
    NOT_ITS_TURN: "JOUET-ATK-1",  # a blow in one's own activation (as the engine cites it)
    NO_TARGET: "JOUET-ATK-1",  # no such fighter, not an enemy, or not standing
    STRUCK: "JOUET-ATK-1",  # one blow per activation
}

#: a move: its tag and the target's index
Move = tuple[str, int]


class Sheet:
    """One roster's fights, compiled and checked once (step 2 of the recipe)."""

    def __init__(self, template: Any, policies: Mapping[str, Any]) -> None:
        fighters = list(template.state.fighters.values())
        self.template = template  # the unstarted fight, which the doors write back into
        self.rules: Rules = template.rules
        self.names = tuple(f.name for f in fighters)
        self.combatants = tuple(f.combatant for f in fighters)
        self.side_names = tuple(dict.fromkeys(f.side for f in fighters))
        self.side = tuple(self.side_names.index(f.side) for f in fighters)
        self.inits = tuple(f.combatant.stat("init", 0) for f in fighters)
        self.health = tuple(f.tracks[TRACK] for f in fighters)
        self.maxima = tuple(f.maxima.get(TRACK, f.tracks[TRACK]) for f in fighters)
        self.enemies = tuple(tuple(j for j, g in enumerate(fighters) if g.side != f.side)
                             for f in fighters)
        self.policies = tuple(policies[f.side] for f in fighters)
        self.end_conditions = tuple(template.state.end_conditions)
        #: the engine's end check on the kernel's state (:func:`_check_end`)
        self.end_check = EndCheck(template.state, TRACK)

    def play(self, dice: Any, max_turns: int
             ) -> tuple[list[tuple[str, bool, int, int]], int]:
        """One fight on the rng ``dice`` (``System.kernel``): each fighter's (side,
        standing, PV, PV at most), and the last turn."""
        st = run(self, dice.randint, max_turns)
        return [(self.side_names[self.side[i]], not st.out[i], st.health[i], self.maxima[i])
                for i in range(len(self.names))], st.turn


class State:
    """A fight where it stands, compact and mutable (step 3 of the recipe)."""

    __slots__ = ("activations", "cursor", "finished", "health", "log", "order", "out",
                 "outcome", "scores", "struck", "turn")

    def __init__(self, sheet: Sheet, scores: Sequence[int], order: Sequence[int]) -> None:
        self.scores = tuple(scores)  # JOUET-INIT-1 as drawn: each one's 1d6 + init
        self.order = tuple(order)  # fighter indices, highest score first
        self.health = list(sheet.health)
        self.out = [False] * len(sheet.names)
        self.turn = 1
        self.cursor = -1  # the acting slot of ``order``
        self.activations: dict[int, int] = {}  # this turn's, per fighter
        self.struck = -1  # who struck in this activation (JOUET-ATK-1), -1: none
        self.finished = False
        self.outcome: str | None = None
        self.log: list[tuple[int, ...]] = []


def refusal(sheet: Sheet, st: State, actor: int, move: Move) -> int:
    """0 when ``actor`` may play ``move`` now, else its code of :data:`REFUSALS`:
    standing (JOUET-END-1), in its own activation, on a standing enemy, and not struck
    yet in this activation (JOUET-ATK-1), asked in the engine's order."""
    if st.out[actor]:
        return OUT
    if st.finished or st.cursor < 0 or st.order[st.cursor] != actor:
        return NOT_ITS_TURN
    target = move[1]
    if target not in sheet.enemies[actor] or st.out[target]:
        return NO_TARGET
    if st.struck == actor:
        return STRUCK
    return 0


def candidates(sheet: Sheet, st: State, actor: int) -> Iterator[Move]:
    """``actor``'s legal moves, in automated play's order: a blow on each enemy, in roster
    order (the first standing one is ``auto_action``'s choice), kept when
    :func:`refusal` accepts it (JOUET-ATK-1)."""
    for target in sheet.enemies[actor]:
        move = (ATTACK, target)
        if refusal(sheet, st, actor, move) == 0:
            yield move


def play(sheet: Sheet, st: State, actor: int, move: Move,
         randint: Callable[[int, int], int]) -> None:
    """Play a legal ``move`` (trusted: ask :func:`refusal` first): the blow's die and
    damage (JOUET-ATK-1, :func:`.actions.resolve_strike`), the PV lost (never below 0),
    out at 0 PV (JOUET-END-1, :func:`.rules.knocked_out`), one log tuple; the end check
    when a fighter falls."""
    target = move[1]
    roll = randint(1, sheet.rules.faces)
    damage = resolve_strike(roll, sheet.rules).damage
    left = max(st.health[target] - damage, 0)
    st.health[target] = left
    st.struck = actor
    st.log.append((STRIKE, st.turn, actor, target, roll, damage, left))
    if knocked_out(left):
        st.out[target] = True
        _check_end(sheet, st, at_turn_end=False)


def start(sheet: Sheet, randint: Callable[[int, int], int]) -> State:
    """The fight's start (``Encounter.start``): the initiative, one d6 per fighter in
    roster order (JOUET-INIT-1, drawn as ``roll_initiative`` draws), then the first
    activation of turn 1."""
    rolls = [randint(1, INITIATIVE_DIE) for _ in sheet.names]
    st = State(sheet, *order_by_initiative(sheet.inits, rolls))
    _advance(sheet, st)
    return st


def run(sheet: Sheet, randint: Callable[[int, int], int], max_turns: int) -> State:
    """A whole fight (``Encounter.start`` then ``Encounter.run``): each activation's
    moves chosen by the fighter's policy until it passes, until the fight ends or
    ``max_turns`` turns have passed."""
    st = start(sheet, randint)
    while not st.finished:
        if st.turn > max_turns:
            st.finished, st.outcome = True, limit_outcome(max_turns)
            break
        actor = st.order[st.cursor]
        pick = sheet.policies[actor].pick_tagged
        for _ in range(MAX_CHOICES):
            chosen = pick(candidates(sheet, st, actor))  # each tag's first move, ranked
            if chosen is None:
                break
            play(sheet, st, actor, chosen, randint)
            if st.finished:
                break
        if not st.finished:
            _advance(sheet, st)
    return st


def _advance(sheet: Sheet, st: State) -> None:
    """The next activation (``Encounter._advance``): along the order, skipping the
    fighters out (JOUET-END-1); past its end the turn ends (the end check, for the
    condition « tours ») and the next one begins in the same order (JOUET-INIT-1: the
    initiative is rolled once per fight). Someone always stands (a blow takes one
    enemy's PV, never the striker's), so the search ends within a turn."""
    while True:
        st.cursor += 1
        if st.cursor >= len(st.order):
            if sheet.end_conditions:
                _check_end(sheet, st, at_turn_end=True)
                if st.finished:
                    return
            st.turn += 1
            st.cursor, st.activations = -1, {}
            continue
        actor = st.order[st.cursor]
        if not st.out[actor]:
            st.activations[actor] = st.activations.get(actor, 0) + 1
            st.struck = -1
            return


def _check_end(sheet: Sheet, st: State, at_turn_end: bool) -> None:
    """CORE-END-1: the engine's own end check (:func:`escarmouche.state.end_outcome`: the
    end conditions, or the last side standing), asked of the kernel's state through the
    sheet's :class:`escarmouche.end_check.EndCheck` (one view of the fighters, its answers
    kept per state it reads)."""
    outcome = sheet.end_check(st.out, st.health, st.turn, at_turn_end)
    if outcome is not None:
        st.finished, st.outcome = True, outcome


def compile_sheet(template: Any, start_options: Mapping[str, Any],
                  policies: Mapping[str, Any]) -> Sheet | None:
    """The sheet of ``template``'s fights (an unstarted « Jouet » ``Encounter``) under
    these start options and policies (side → policy), or ``None`` when the kernel does
    not cover them and the engine plays them (step 5 of the recipe)."""
    state = template.state
    fighters = list(state.fighters.values())
    if (state.started or state.effects or start_options
            or len({f.side for f in fighters}) < 2
            or any(type(p) is not TagPolicy for p in policies.values())
            or any(f.out or f.fled or set(f.tracks) != {TRACK} or knocked_out(f.tracks[TRACK])
                   for f in fighters)):
        return None
    return Sheet(template, policies)
