"""Exact odds of a whole duel, from the rules kernel itself (no sampling).

:func:`duel` plays a two-fighter roster on its system's rules kernel (``System.kernel``,
``spec/KERNEL.md``) with the random stream replaced by an enumerator: each die the kernel
draws (``randint(1, faces)``) is a chance node whose branches have probability
``1/faces``. The kernel's own functions draw the dice and write the state (its ``start``,
``candidates``, ``play`` and ``advance``); the solver copies no rule. The fight's states
are merged by the kernel state's key (``State.key``) at each decision. A move's outcomes
are the kernel's ``play`` run once per class of its dice (the kernel's ``move_law``: for
a d100 attack, :func:`escarmouche.systems.d100.core.attack_dice_law`, a few dozen
classes instead of the 100 × 100 × 10 sequences a defended blow can draw; the tests hold
the two ways equal, state by state and to the fraction), grouped by the state they leave;
a move without a law (a jump) has every sequence of its dice played.

The answer is exact (``fractions.Fraction``): each side's chance of winning, of a draw
(nobody standing) and of reaching the turn cap, and the law of the number of rounds,
counted as a simulation counts them (``escarmouche.simulation``). Its work is bounded
(:data:`MAX_FIGHTERS`, :data:`MAX_STATES`): a larger fight is refused in French, with the
bound named, and sent to ``escarmouche simule``.

Covered: any kernel module with the solver's :data:`DOORS` (the d100, d20, d12 and
Rulebook kernels, ``escarmouche.systems.*.kernel``), under the deterministic tactics
policies. A blow's law: the d100's ``attack_dice_law``; the d20's and d12's attack
classes times :func:`escarmouche.dice.draw_law` of the damage (an exploding die's chain
to its cap, D12-EXPLODE-1); the Rulebook's one die, face by face. A start that can draw
without bound or too many dice gives its own law (the kernel's optional ``start_law``):
the d12's rerolls after a perfect tie (D12-INIT-3) weighed in closed form, the
Rulebook's surprise and initiative (four d100) enumerated in two stages.

Two fighters, Aldric always first (Ag 50 against 10, D100-INIT-1), each hit (CC 50)
taking the other's only wound (B 1, BE 0, D100-ATK-3): over one round, Aldric wins with
1/2, Grolk with 1/4, and 1/4 reach the cap.

>>> from escarmouche import Combatant
>>> from escarmouche.encounter import Encounter
>>> sheet = {"CC": 50, "CT": 30, "F": 30, "E": 0, "M": 4, "B": 1}
>>> one = duel(Encounter("d100", [Combatant("Aldric", "héros", {**sheet, "Ag": 50}),
...                               Combatant("Grolk", "orques", {**sheet, "Ag": 10})]),
...            max_turns=1)
>>> one.wins, one.timed_out
({'héros': Fraction(1, 2), 'orques': Fraction(1, 4)}, Fraction(1, 4))
"""

from __future__ import annotations

import gc
import heapq
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from escarmouche.errors import EscarmoucheError, RuleBoundError
from escarmouche.rng import RandintOnly
from escarmouche.text.fmt import number

__all__ = ["DOORS", "MAX_DICE", "MAX_FIGHTERS", "MAX_STATES", "SIMULE_HINT", "ExactDuel",
           "KernelSolver", "duel", "enumerate_dice", "refused"]

#: the most fighters a solved fight may have
MAX_FIGHTERS = 2
#: the most distinct states (decision points) a solved fight may visit
MAX_STATES = 200_000
#: the most dice one move may draw in a row (one chance node's depth)
MAX_DICE = 12
#: the doors a system's rules kernel module offers the solver (``spec/KERNEL.md``): how
#: it takes its dice (``DICE``: ``"randint"``, a bare function, or ``"rng"``, an object
#: with ``randint``), the kernel's own start, who acts, the policy's move (the one its
#: ``run`` plays), play and end of an activation, the law of a move's dice, and the turn
#: from which the turn is read only for the cap; its ``State`` has ``copy``, ``key``,
#: ``turn``, ``cursor``, ``out`` and ``finished``. Optional: ``start_law`` (the law of
#: the first states, :meth:`KernelSolver.started`) and ``retime`` (a state moved to
#: another turn, when more than its ``turn`` carries it: :meth:`KernelSolver.retime`)
DOORS = ("DICE", "start", "acting", "choose", "play", "advance", "move_law",
         "timeless_from")

#: where a refused duel is sent (the end of every refusal's sentence, :func:`refused`)
SIMULE_HINT = "utilisez « escarmouche simule » pour l’estimer par simulation"

#: a chance: an exact fraction, or a float (``duel(..., exact=False)``)
Chance = Fraction | float
#: a fight's result, as a simulation counts it: (winner or None, timed out, rounds)
Result = tuple[str | None, bool, int]
#: one state a solver's step leaves (:meth:`KernelSolver.entry`)
_Step = tuple[Any, "Chance", int, int, int, "tuple[str | None, bool] | None"]


@dataclass(frozen=True)
class ExactDuel:
    """The exact law of a duel's outcome (``Fraction``); :attr:`floats` gives them as
    floats. ``wins`` maps each side to its chance of winning; ``draw`` is the chance
    that nobody is left standing, ``timed_out`` that both still stand when the turn cap
    comes; ``rounds`` the law of the number of rounds played; ``states`` the number of
    distinct states the solver visited."""

    title: str
    sides: tuple[str, ...]
    wins: Mapping[str, Chance]
    draw: Chance
    timed_out: Chance
    rounds: Mapping[int, Chance]
    states: int
    max_turns: int
    #: what the system calls a round in French (``System.turn_word``: « round », « tour »)
    turn_word: str = "round"

    @property
    def total(self) -> Chance:
        """The sum of every outcome's chance: exactly 1."""
        return sum(self.wins.values(), self.draw - self.draw) + self.draw + self.timed_out

    @property
    def mean_rounds(self) -> Chance:
        return sum((k * p for k, p in self.rounds.items()), self.draw - self.draw)

    @property
    def floats(self) -> dict[str, float]:
        """Each side's chance of winning, of a draw (``"nul"``) and of the cap
        (``"limite"``), as floats."""
        out = {side: float(p) for side, p in self.wins.items()}
        out["nul"] = float(self.draw)
        out["limite"] = float(self.timed_out)
        return out

    def to_json(self) -> dict[str, Any]:
        """The law as JSON (``escarmouche cotes --duel --json``): each chance as its
        exact fraction and its value (:func:`escarmouche.odds.exact_json`), or its value
        alone when solved in floats."""
        from escarmouche.odds import exact_json as fraction_json

        def exact_json(p: Chance) -> dict[str, Any]:
            return fraction_json(p) if isinstance(p, Fraction) else {"valeur": p}

        return {"camps": {side: exact_json(p) for side, p in self.wins.items()},
                "nul": exact_json(self.draw), "limite": exact_json(self.timed_out),
                "rounds": {str(n): exact_json(p) for n, p in self.rounds.items()},
                "etats": self.states}

    def beside(self, balance: Any) -> str:
        """A French sentence: where each side's exact chance lies against the sampled
        rate of ``balance`` (a :class:`~escarmouche.simulation.Balance` of the same
        duel) and its 95 % interval."""
        from escarmouche.text.fmt import percent, plural, quote
        from escarmouche.text.typo import typographie

        parts = []
        for side in self.sides:
            rate, low, high = balance.win_rate(side)
            where = "dans" if low <= float(self.wins[side]) <= high else "hors de"
            parts.append(f"{quote(side)} {percent(self.wins[side])} exactement, "
                         f"{percent(rate)} simulé, {where} son intervalle à 95 % "
                         f"[{percent(low)} ; {percent(high)}]")
        return typographie(f"Calcul exact et simulation ({plural(balance.n, 'combat')}) : "
                           + " ; ".join(parts) + ".")

    def text(self) -> str:
        """The odds in French sentences (French typography: ``typographie``); each side
        by its name in quotes, as the balance and the comparisons write it (a side's
        name is whatever its roster says: « victoire du camp « héros » », never
        « victoire des héros », which only suits a plural name)."""
        from escarmouche.text.fmt import number, percent, plural, quote
        from escarmouche.text.typo import typographie

        word = self.turn_word
        lines = [f"Cotes exactes du duel « {self.title} » (sans simulation) :"]
        for side in self.sides:
            lines.append(f"- victoire du camp {quote(side)} : {percent(self.wins[side])} ;")
        lines.append(f"- nul (personne debout) : {percent(self.draw)} ;")
        lines.append(f"- limite de {plural(self.max_turns, word)} atteinte : "
                     f"{percent(self.timed_out)}.")
        mean = round(float(self.mean_rounds), 2)  # as shown: the noun agrees with it
        lines.append(f"Durée moyenne : {number(mean)} {word}{'s' if mean >= 2 else ''} ; "
                     f"{number(self.states)} états distincts calculés.")
        return typographie("\n".join(lines))


class _Branch(Exception):
    """A die not yet chosen: the enumerator's signal to branch on its faces."""

    def __init__(self, low: int, high: int) -> None:
        self.low, self.high = low, high


def enumerate_dice(act: Callable[[Callable[[int, int], int]], Any], one: Chance = Fraction(1)
               ) -> list[tuple[Any, Chance]]:
    """Every outcome of ``act(randint)`` with its probability: ``act`` is replayed on
    each prefix of dice; a die past the prefix branches on its ``high - low + 1``
    faces, each with the same chance (``CORE-DICE``); the chances as ``one``'s type."""
    out: list[tuple[Any, Chance]] = []
    stack: list[tuple[tuple[int, ...], int]] = [((), 1)]
    while stack:
        prefix, denominator = stack.pop()
        pos = 0

        def randint(low: int, high: int, prefix: tuple[int, ...] = prefix) -> int:
            nonlocal pos
            if pos < len(prefix):
                pos += 1
                return prefix[pos - 1]
            raise _Branch(low, high)

        try:
            result = act(randint)
        except _Branch as branch:
            if len(prefix) >= MAX_DICE:
                raise refused(f"un coup tire plus de {MAX_DICE} dés d’affilée", "des",
                              len(prefix)) from None
            faces = branch.high - branch.low + 1
            stack.extend(((*prefix, v), denominator * faces)
                         for v in range(branch.low, branch.high + 1))
            continue
        out.append((result, one / denominator))
    return out


def _same(randint: Callable[[int, int], int]) -> Callable[[int, int], int]:
    return randint


def refused(why: str, field: str, value: object, cited: str = "CORE-ERR"
            ) -> EscarmoucheError:
    """The solver's refusal (CORE-ERR), in French: « Calcul exact refusé : ``why``
    (``cited``) ; » and where to go instead (:data:`SIMULE_HINT`); a kernel's door
    refuses with it too (the Rulebook's endless roll-offs, RB-INIT-2)."""
    return RuleBoundError(f"Calcul exact refusé : {why} ({cited}) ; {SIMULE_HINT}.",
                          field=field, value=value, rule="CORE-ERR")


class KernelSolver:
    """A system's rules kernel (its module, with the :data:`DOORS`) driven as chance
    nodes: :meth:`solve` gives the law of the results, :meth:`outcomes` the states one
    move leaves (by the kernel's law of its dice, or by every sequence of them)."""

    def __init__(self, kernel: Any, sheet: Any, max_turns: int, *, exact: bool = True
                 ) -> None:
        from escarmouche.policies import MAX_CHOICES

        self.k = kernel
        self.sheet = sheet
        self.max_turns = max_turns
        self.max_choices = MAX_CHOICES
        self.visited = 0
        #: each kernel state's key met so far, numbered
        self.ids: dict[Any, int] = {}
        #: the chances' arithmetic: exact fractions, or floats (ten times faster)
        self.one: Chance = Fraction(1) if exact else 1.0
        self.exact = exact
        #: the kernel's dice door: the bare function, or an rng made of it
        self.dice: Callable[[Callable[[int, int], int]], Any] = (
            _same if kernel.DICE == "randint" else RandintOnly)

    def solve(self) -> dict[Result, Chance]:
        """The law of the results (:meth:`_solve`), the cyclic garbage collector paused
        meanwhile: the solver makes hundreds of thousands of small containers, none of
        them in a cycle (reference counting frees them), and the collector's passes
        over them cost 10–30 % of the time (``bench/README.md``, « bench_exact.py »)."""
        paused = gc.isenabled()
        gc.disable()
        try:
            return self._solve()
        finally:
            if paused:
                gc.enable()

    def _solve(self) -> dict[Result, Chance]:
        """The law of the results: probability mass carried forward from the fight's
        first states, state by state in the order they are played (turn, slot, moves
        into the activation: the kernel's ``run`` never goes back), each state's mass
        split among the states its next step leaves (the loop of ``run``: candidates →
        policy → play → end check → advance); a state reached twice is one node.

        A node is (turn, the kernel state's key, moves into the activation): the key
        leaves the turn apart. From the kernel's ``timeless_from(sheet)`` on, the
        fight reads the turn only for its cap, so a step (the states one node leaves,
        and how many turns later) is worked out once per key and reused at every turn
        (its state moved to the turn by :meth:`retime`): the rules are played
        once per distinct situation, not once per turn it can happen in."""
        k, sheet = self.k, self.sheet
        total: dict[Result, Chance] = {}
        zero = self.one - self.one
        pending: dict[tuple[int, int, int], list[Any]] = {}  # node → [state, mass]
        heap: list[tuple[int, int, int, int, tuple[int, int, int]]] = []
        seq = 0
        max_turns = self.max_turns
        timeless = k.timeless_from(sheet)
        steps: dict[tuple[int, int], list[_Step]] = {}

        def reach(step: list[_Step], turn: int, mass: Chance) -> None:
            nonlocal seq
            for after, p, ident, later, choices, end in step:
                at = turn + later
                if end is not None or (choices == 0 and at > max_turns):
                    # ended, or the cap (``limit_outcome``)
                    result = (*(end or self.ending(after)), min(at, max_turns))
                    total[result] = total.get(result, zero) + mass * p
                    continue
                node = (at, ident, choices)
                slot = pending.get(node)
                if slot is not None:
                    slot[1] += mass * p
                    continue
                self.visited += 1
                if self.visited > MAX_STATES:
                    raise refused(f"le combat dépasse {number(MAX_STATES)} états",
                                  "etats", MAX_STATES)
                pending[node] = [after, mass * p]
                seq += 1
                heapq.heappush(heap, (at, after.cursor, choices, seq, node))

        firsts = self.started()
        reach([self.entry(st, p, st.turn, 0) for st, p in firsts], 0, self.one)
        while heap:
            node = heapq.heappop(heap)[-1]
            turn, ident, choices = node
            st, mass = pending.pop(node)
            kept = timeless is not None and turn >= timeless
            step = steps.get((ident, choices)) if kept else None
            if step is None:
                if st.turn != turn:
                    st = self.retime(st, turn)
                step = self.step(st, choices, steps if kept else None)
                if kept:
                    steps[ident, choices] = step
            reach(step, turn, mass)
        return total

    def retime(self, st: Any, turn: int) -> Any:
        """``st`` met again at another turn, past ``timeless_from``: the kernel's
        ``retime`` when it has one (the d20's, which stamps the turn on the opportunity
        attacks used, D20-OPP-1), else a copy with its ``turn`` changed."""
        own = getattr(self.k, "retime", None)
        if own is not None:
            return own(st, turn)
        new = st.copy()
        new.turn = turn
        return new

    def started(self) -> list[tuple[Any, Chance]]:
        """The fight's first states, each with its chance: the kernel's ``start_law``
        where it has one (a start whose dice can repeat without bound, such as the
        d12's rerolls after a perfect tie, D12-INIT-3), else its ``start`` on every
        sequence of dice."""
        k, sheet, dice, one = self.k, self.sheet, self.dice, self.one

        def law(act: Callable[[Any], Any]) -> list[tuple[Any, Chance]]:
            return enumerate_dice(lambda randint: act(dice(randint)), one)

        start_law = getattr(k, "start_law", None)
        if start_law is not None:
            return list(start_law(sheet, law))
        return law(lambda draw: k.start(sheet, draw))

    def entry(self, after: Any, p: Chance, later: int, choices: int, key: Any = None
              ) -> _Step:
        """One state a step leaves, with its chance, the number of its key (the kernel
        state's ``key``, numbered once: a node's hash is three integers; ``key`` when
        already asked), how many turns later it stands, its moves into the activation,
        and the result when the fight is over there (:meth:`ending`)."""
        if key is None:
            key = after.key()
        ident = self.ids.get(key)
        if ident is None:
            ident = self.ids[key] = len(self.ids)
        return after, p, ident, later, choices, self.ending(after) if after.finished else None

    def step(self, st: Any, choices: int,
             steps: dict[tuple[int, int], list[_Step]] | None = None) -> list[_Step]:
        """The states one node leaves: the move the policy plays (the kernel's
        ``choose``, while under ``MAX_CHOICES`` moves) by :meth:`outcomes`, else the end
        of the activation by :meth:`advanced` (:meth:`entry` of each).

        Where the actor passes after its move (``choose`` gives nothing more), the end
        of its activation is spliced into the move's step: the state between the two is
        no node of its own (half as many nodes for fighters who strike once). The end
        of an activation is kept in ``steps`` (the solver's, past ``timeless_from``) per
        key of the state it starts from, as a node's step is; entries leading to the
        same node are merged."""
        k, sheet = self.k, self.sheet
        actor = k.acting(st)
        move = k.choose(sheet, st, actor) if choices < self.max_choices else None
        if move is None:
            return [self.entry(nxt, p, nxt.turn - st.turn, 0) for nxt, p in self.advanced(st)]
        merged: dict[tuple[Any, ...], list[Any]] = {}
        moved = choices + 1
        for after, p, key in self.outcomes(st, actor, move):
            first = self.entry(after, p, 0, moved, key)
            if first[5] is None and (moved >= self.max_choices
                                     or k.choose(sheet, after, actor) is None):
                ident = first[2]
                tail = steps.get((ident, moved)) if steps is not None else None
                if tail is None:
                    tail = [self.entry(nxt, q, nxt.turn - after.turn, 0)
                            for nxt, q in self.advanced(after)]
                    if steps is not None:
                        steps[ident, moved] = tail
                leads = [(nxt, p * q, i, later, c, end) for nxt, q, i, later, c, end in tail]
            else:
                leads = [first]
            for lead in leads:
                where = (lead[2], lead[3], lead[4], lead[5])
                slot = merged.get(where)
                if slot is None:
                    merged[where] = list(lead)
                else:
                    slot[1] += lead[1]
        return [tuple(slot) for slot in merged.values()]

    def advanced(self, st: Any) -> list[tuple[Any, Chance]]:
        """The states the end of the activation leaves (the kernel's ``advance``: the
        next slot, a new turn, and the dice some rules draw there, such as the
        Rulebook's Hypoactivité d4), each with its chance."""
        k, sheet, dice = self.k, self.sheet, self.dice

        def act(randint: Callable[[int, int], int]) -> Any:
            nxt = st.copy()
            k.advance(sheet, nxt, dice(randint))
            return nxt

        return enumerate_dice(act, self.one)

    def ending(self, st: Any) -> tuple[str | None, bool]:
        """A fight's result where it stands, as a played fight's tally reads it
        (:func:`escarmouche.simulation.fight.verdict` of the sides still standing)."""
        from escarmouche.simulation.fight import verdict

        sheet = self.sheet
        return verdict([name for s, name in enumerate(sheet.side_names)
                        if any(not out and sheet.side[i] == s
                               for i, out in enumerate(st.out))])

    def outcomes(self, st: Any, actor: int, move: Any, *, by_law: bool = True
                 ) -> list[tuple[Any, Chance, Any]]:
        """The states ``move`` leaves, each with its chance and its key, grouped by
        state: the kernel's ``play`` on a copy of ``st`` for each class of dice of the
        kernel's ``move_law`` (its representative sequence, with the class's chance),
        or, for a move without a law (or with ``by_law`` false), for every dice
        sequence."""
        k, sheet = self.k, self.sheet

        dice = self.dice

        def act(randint: Callable[[int, int], int]) -> Any:
            nxt = st.copy()
            k.play(sheet, nxt, actor, move, dice(randint))
            return nxt

        law = k.move_law(sheet, st, actor, move) if by_law else None
        if law is None:
            played = enumerate_dice(act, self.one)
        else:
            played = []
            for p, drawn in law:
                values = iter(drawn)

                def scripted(_low: int, _high: int, values: Any = values) -> int:
                    return int(next(values))

                after = act(scripted)
                if next(values, None) is not None:  # the law is play's own: all drawn
                    raise AssertionError(f"loi des dés de {move} : {drawn} non tous tirés")
                played.append((after, p if self.exact else float(p)))
        grouped: dict[Any, list[Any]] = {}
        for after, p in played:
            key = after.key()
            slot = grouped.get(key)
            if slot is None:
                grouped[key] = [after, p]
            else:
                slot[1] += p
        return [(after, p, key) for key, (after, p) in grouped.items()]


def duel(roster: object, rules: Any = None, *, max_turns: int = 50,
         policy: Any = None, exact: bool = True) -> ExactDuel:
    """The exact odds of ``roster``'s duel (a roster, an example roster's name such as
    ``"d100-duel"``, or an unstarted encounter), under ``rules`` if given (else the
    roster's), with the roster's deterministic policies (or ``policy``) and a cap of
    ``max_turns`` rounds, as ``simulate`` plays it. The chances are fractions, or with
    ``exact`` false floats, computed the same way in floating point (about ten times
    faster, within about 10⁻¹² of the fractions: what a page shows in percents).

    Refused (``EscarmoucheError``, CORE-ERR, in French): more than :data:`MAX_FIGHTERS`
    fighters or :data:`MAX_STATES` states, a system without a solver, a fight its
    system's kernel does not cover, a policy that draws (« au hasard »)."""
    from escarmouche.policies import resolve_policies
    from escarmouche.simulation.fight import as_roster

    if isinstance(roster, str):  # an example's name or a roster file
        from escarmouche.roster import open_roster

        roster = open_roster(roster)
    base = as_roster(roster)
    if rules is not None:
        base = base.with_rules(rules)
    template = base.encounter()
    fighters = list(template.state.fighters.values())
    sides = tuple(dict.fromkeys(f.side for f in fighters))
    if len(fighters) > MAX_FIGHTERS:
        raise refused(f"{len(fighters)} combattants, au plus {MAX_FIGHTERS}",
                      "combattants", len(fighters))
    system = template.system.name
    chosen = policy if policy is not None else (getattr(base, "policies", None) or None)
    policies = resolve_policies(system, list(sides), chosen)
    from escarmouche.policies import TagPolicy

    drawing = [side for side, p in policies.items() if type(p) is not TagPolicy]
    if drawing:
        raise refused(f"la politique des {drawing[0]} tire au hasard, et le calcul exact "
                      "ne suit que des politiques déterministes", "politique", drawing[0])
    options = dict(getattr(base, "start_options", None) or {})
    sheet = template.system.kernel(template, options, policies)
    if sheet is None:
        raise refused("le noyau de règles ne couvre pas ce combat", "noyau", system)
    kernel = sys.modules[type(sheet).__module__]
    if not all(hasattr(kernel, door) for door in DOORS):
        raise refused(f"pas encore de calcul exact pour le système {system}", "systeme",
                      system)
    solver = KernelSolver(kernel, sheet, max_turns, exact=exact)
    law = solver.solve()
    zero = solver.one - solver.one
    wins = {side: zero for side in sides}
    draw = timed_out = zero
    rounds: dict[int, Chance] = {}
    for (winner, timed, n), p in law.items():
        if winner is not None:
            wins[winner] += p
        elif timed:
            timed_out += p
        else:
            draw += p
        rounds[n] = rounds.get(n, zero) + p
    title = str(getattr(base, "title", " contre ".join(sides)))
    return ExactDuel(title, sides, wins, draw, timed_out, dict(sorted(rounds.items())),
                     solver.visited, max_turns, template.system.turn_word)
