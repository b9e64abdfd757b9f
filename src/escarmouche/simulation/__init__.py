"""Balance simulation: many automated fights of one roster, in simulation mode.

A fight is played by the encounter engine itself in simulation mode
(:meth:`escarmouche.encounter.Encounter.simulated`: no copies, no rng snapshots, no dice
in the log), which gives exactly the outcome of the full engine for the same dice
(``tests/test_simulation.py`` checks it on thousands of seeds per system).

Fight ``i`` of a run seeded ``seed`` draws from its own streams, one per purpose
(:data:`DICE` « dés », :data:`TACTICS` « tactique »), derived from ``(seed, i,
purpose)`` by SHA-256 (:func:`stream`): fights are independent of each other and of
the order they are played in, so results are identical whatever the executor (this
process, local processes, a Dask cluster) and the number of workers; counts are exact
integers, merged in fight order. :func:`compare` plays two rule sets on the same
streams (common random numbers) and reports paired differences.

>>> from escarmouche import Combatant
>>> from escarmouche.encounter import Encounter
>>> duel = Encounter("d20", [Combatant("Brune", "héros", {"PV": 12}),
...                          Combatant("Grolk", "orques", {"PV": 9})])
>>> bilan = simulate(duel, 40, seed=1)
>>> bilan.n, sum(bilan.wins.values()) + bilan.draws + bilan.timeouts
(40, 40)
>>> bilan == simulate(duel, 40, seed=1)
True
>>> print(bilan.table().headers[0])
Camp
>>> simulate(duel, 0)  # doctest: +NORMALIZE_WHITESPACE
Traceback (most recent call last):
  ...
escarmouche.errors.ParameterError: combats = 0 : un nombre entier entre 1 et 10 000 000
est attendu (CORE-ERR)
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import inspect
import itertools
import json
import math
import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any, Protocol

from escarmouche import _check
from escarmouche.encounter import MAX_RUN_TURNS, Encounter
from escarmouche.errors import EscarmoucheError, invalid
from escarmouche.render.simsvg import stack_svg
from escarmouche.render.svg import distribution_svg, outcome_bars_svg
from escarmouche.render.table import Table
from escarmouche.simulation import d100 as _d100
from escarmouche.systems import get as get_system
from escarmouche.text.fmt import number, percent, plural

__all__ = [
    "DICE",
    "MAX_FIGHTS",
    "TACTICS",
    "Balance",
    "Comparison",
    "FightResult",
    "Sweep",
    "compare",
    "play_fight",
    "simulate",
    "stream",
    "sweep",
    "wilson",
]

#: the purposes of the random streams of one fight (one independent stream each)
DICE = "dés"
TACTICS = "tactique"
#: the most fights one call plays, and the most points of a sweep grid
MAX_FIGHTS = 10_000_000
MAX_GRID_POINTS = 1_000
#: dedicated fast resolvers (:mod:`escarmouche.simulation.d100`) are used where they apply
USE_KERNELS = True
#: the z value of a two-sided 95 % interval
Z95 = 1.959963984540054

Progress = Callable[[int, int], None]


class RosterLike(Protocol):
    """What a simulation needs of a roster (``escarmouche.roster.Roster`` satisfies it;
    an unstarted :class:`~escarmouche.encounter.Encounter` is wrapped by
    :func:`as_roster`)."""

    def encounter(self) -> Encounter: ...


@dataclasses.dataclass(frozen=True)
class _FixedRoster:
    """An unstarted encounter seen as a roster (the book's pages before roster files)."""

    template: Encounter
    start_options: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    policies: Mapping[str, str] = dataclasses.field(default_factory=dict)

    @property
    def rules(self) -> Any:
        return self.template.rules

    @property
    def system(self) -> str:
        return self.template.system.name

    @property
    def title(self) -> str:
        return " contre ".join(dict.fromkeys(f.side for f in
                                             self.template.state.fighters.values()))

    def encounter(self) -> Encounter:
        return self.template.simulated()

    def with_rules(self, rules: Any) -> _FixedRoster:
        state = self.template.state
        fresh = Encounter(self.template.system, [f.combatant for f in state.fighters.values()],
                          rules=rules, end_conditions=state.end_conditions)
        for effect in state.effects:  # the effects set before the fight, as they were
            fresh.add_effect(effect)
        fresh.state.next_effect_id = state.next_effect_id
        return dataclasses.replace(self, template=fresh)


def as_roster(roster: object) -> Any:
    """``roster`` itself when it has ``encounter()``; an unstarted encounter wrapped."""
    if isinstance(roster, Encounter):
        if roster.started:
            raise invalid("combat", "commencé", "CORE-ERR",
                          "une simulation part d’un combat qui n’a pas commencé")
        return _FixedRoster(roster)
    if not callable(getattr(roster, "encounter", None)):
        raise invalid("roster", type(roster).__name__, "CORE-ERR",
                      "une feuille de combat (Roster) ou un combat non commencé est attendu")
    return roster


def stream(seed: int, index: int, purpose: str) -> random.Random:
    """The random stream of fight ``index`` for ``purpose``: a ``random.Random`` seeded
    with the first 8 bytes of SHA-256(« seed:index:purpose ») (stable across machines
    and Python versions).

    >>> a, b = stream(1, 0, DICE), stream(1, 0, TACTICS)
    >>> a.randint(1, 10**9) != b.randint(1, 10**9)
    True
    >>> stream(1, 0, DICE).random() == stream(1, 0, DICE).random()
    True
    """
    digest = hashlib.sha256(f"{seed}:{index}:{purpose}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


# -- one fight --------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class FightResult:
    """What a balance keeps of one fight (everything an exact integer).

    ``winner`` is the only side with fighters still standing, ``None`` for a draw (no
    one standing) or a time-out (several sides standing when the turn limit came).
    ``health`` and ``health_max`` are per side, summed over the system's damage tracks;
    ``survivors`` per side too.
    """

    index: int
    winner: str | None
    timed_out: bool
    rounds: int
    survivors: tuple[tuple[str, int], ...]
    health: tuple[tuple[str, int], ...]
    health_max: tuple[tuple[str, int], ...]


def _sides(enc: Encounter) -> list[str]:
    return list(dict.fromkeys(f.side for f in enc.state.fighters.values()))


_RUN_PARAMS: dict[object, frozenset[str]] = {}


def _run_kwargs(enc: Encounter) -> frozenset[str]:
    """The keyword parameters of ``Encounter.run`` (``policy`` and ``tactics_rng`` once
    the policies are in), looked up once per class."""
    cls = type(enc)
    params = _RUN_PARAMS.get(cls)
    if params is None:
        params = _RUN_PARAMS[cls] = frozenset(inspect.signature(cls.run).parameters)
    return params


def play_fight(roster: Any, index: int, seed: int, *, policy: Any = None,
               max_turns: int = 50, template: Encounter | None = None) -> FightResult:
    """Play fight ``index`` of the run seeded ``seed`` in simulation mode: its dice from
    ``stream(seed, index, DICE)``, its tactics from ``stream(seed, index, TACTICS)``.
    ``template`` (an unstarted ``roster.encounter()``) saves rebuilding it each fight."""
    base = template if template is not None else roster.encounter()
    enc = base.simulated()
    dice = stream(seed, index, DICE)
    options = dict(getattr(roster, "start_options", None) or {})
    if options:
        enc.start(dice, **options)
    kwargs: dict[str, Any] = {"max_turns": max_turns}
    accepted = _run_kwargs(enc)
    chosen = policy if policy is not None else (getattr(roster, "policies", None) or None)
    if "policy" in accepted and chosen is not None:
        kwargs["policy"] = chosen
    if "tactics_rng" in accepted:
        kwargs["tactics_rng"] = stream(seed, index, TACTICS)
    enc.run(dice, **kwargs)
    return result_of(enc, index)


def result_of(enc: Encounter, index: int = 0) -> FightResult:
    """The :class:`FightResult` of a finished fight (any mode)."""
    sides = _sides(enc)
    tracks = enc.system.tracks
    standing = {s: 0 for s in sides}
    health = {s: 0 for s in sides}
    health_max = {s: 0 for s in sides}
    for f in enc.state.fighters.values():
        if f.standing:
            standing[f.side] += 1
        for t in tracks:
            if t in f.tracks:
                health[f.side] += f.tracks[t]
                health_max[f.side] += f.maxima.get(t, f.tracks[t])
    alive = [s for s in sides if standing[s]]
    winner = alive[0] if len(alive) == 1 else None
    return FightResult(index, winner, len(alive) > 1, enc.state.turn,
                       tuple(standing.items()), tuple(health.items()),
                       tuple(health_max.items()))


# -- tallies (exact integer counts, merged in fight order) --------------------------------


@dataclasses.dataclass
class _Tally:
    n: int = 0
    wins: Counter[str] = dataclasses.field(default_factory=Counter)
    draws: int = 0
    timeouts: int = 0
    rounds: Counter[int] = dataclasses.field(default_factory=Counter)
    survivors: dict[str, Counter[int]] = dataclasses.field(default_factory=dict)
    health: dict[str, Counter[int]] = dataclasses.field(default_factory=dict)
    health_max: Counter[str] = dataclasses.field(default_factory=Counter)
    damage_taken: Counter[str] = dataclasses.field(default_factory=Counter)

    def add(self, r: FightResult) -> None:
        self.n += 1
        if r.winner is not None:
            self.wins[r.winner] += 1
        elif r.timed_out:
            self.timeouts += 1
        else:
            self.draws += 1
        self.rounds[r.rounds] += 1
        top = dict(r.health_max)
        for side, count in r.survivors:
            self.survivors.setdefault(side, Counter())[count] += 1
        for side, value in r.health:
            self.health.setdefault(side, Counter())[value] += 1
            self.health_max[side] += top[side]
            self.damage_taken[side] += top[side] - value

    def merge(self, other: _Tally) -> None:
        self.n += other.n
        self.wins.update(other.wins)
        self.draws += other.draws
        self.timeouts += other.timeouts
        self.rounds.update(other.rounds)
        for side, c in other.survivors.items():
            self.survivors.setdefault(side, Counter()).update(c)
        for side, c in other.health.items():
            self.health.setdefault(side, Counter()).update(c)
        self.health_max.update(other.health_max)
        self.damage_taken.update(other.damage_taken)


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default).

    >>> low, high = wilson(50, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    >>> wilson(0, 10)[0]
    0.0
    """
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return (low, high)


def _pct(x: float) -> str:
    return percent(Fraction(x).limit_denominator(10**9))


def _num(x: float, digits: int = 2) -> str:
    return number(Fraction(x).limit_denominator(10**9), digits)


def _count(n: int, singular: str, plural_form: str) -> str:
    """« aucun match nul », « 1 match nul », « 3 matchs nuls »."""
    return f"aucun {singular}" if n == 0 else plural(n, singular, plural_form)


def _mean(counts: Mapping[int, int]) -> float:
    total = sum(counts.values())
    return sum(k * v for k, v in counts.items()) / total if total else 0.0


def _quantile(counts: Mapping[int, int], q: float) -> int:
    total = sum(counts.values())
    seen = 0
    for k in sorted(counts):
        seen += counts[k]
        if seen >= q * total:
            return k
    return max(counts, default=0)


@dataclasses.dataclass(frozen=True, repr=False)
class Balance:
    """The balance of ``n`` fights of one roster (exact counts; see :meth:`table`).

    Per side: ``wins`` (count; :meth:`win_rate` with its Wilson 95 % interval),
    ``survivors`` and ``health`` (distributions: value → number of fights), damage
    taken in total (``damage_taken``, over the system's damage tracks); ``rounds``
    (distribution), ``draws`` (no one standing), ``timeouts`` (turn limit reached).
    """

    title: str
    system: str
    n: int
    seed: int
    sides: tuple[str, ...]
    wins: Mapping[str, int]
    draws: int
    timeouts: int
    rounds: Mapping[int, int]
    survivors: Mapping[str, Mapping[int, int]]
    health: Mapping[str, Mapping[int, int]]
    health_max: Mapping[str, int]
    damage_taken: Mapping[str, int]
    #: the system's word for one global turn (« tour », « round »)
    turn_word: str = "tour"
    #: what automated play adds to the text (``System.automation_note``), shown under
    #: the title; ``""`` when nothing
    note: str = ""

    def win_rate(self, side: str) -> tuple[float, float, float]:
        """(rate, low, high): the win rate of ``side`` and its Wilson 95 % interval."""
        k = self.wins.get(side, 0)
        low, high = wilson(k, self.n)
        return (k / self.n, low, high)

    @property
    def total_rounds(self) -> int:
        return sum(k * v for k, v in self.rounds.items())

    def damage_per_round(self, side: str) -> float:
        """Damage dealt by ``side`` per round: what every other side lost, over the
        rounds of all fights."""
        dealt = sum(v for s, v in self.damage_taken.items() if s != side)
        return dealt / self.total_rounds if self.total_rounds else 0.0

    def table(self) -> Table:
        """The balance per side, in French."""
        rows: list[tuple[object, ...]] = []
        for side in self.sides:
            rate, low, high = self.win_rate(side)
            surv = self.survivors.get(side, {})
            health = self.health.get(side, {})
            top = self.health_max.get(side, 0)
            remaining = sum(k * v for k, v in health.items())
            rows.append((
                side,
                f"{_pct(rate)} [{_pct(low)} ; {_pct(high)}]",
                _num(_mean(surv)),
                _pct(remaining / top) if top else "—",
                _num(self.damage_per_round(side)),
            ))
        title = (f"{self.title} : {plural(self.n, 'combat')} ({self.system}, graine "
                 f"{self.seed}) ; durée moyenne {_num(_mean(self.rounds))} "
                 f"{self.turn_word}s (médiane {_quantile(self.rounds, 0.5)}, 90 % en "
                 f"{_quantile(self.rounds, 0.9)} au plus) ; "
                 f"{_count(self.draws, 'match nul', 'matchs nuls')}, "
                 f"{_count(self.timeouts, 'combat', 'combats')} à la limite de "
                 f"{self.turn_word}s" + (f". {self.note}" if self.note else ""))
        return Table(("Camp", "Victoires (IC 95 % de Wilson)", "Survivants en moyenne",
                      "Santé restante", f"Dégâts infligés par {self.turn_word}"), rows, title=title)

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()

    def __str__(self) -> str:
        return str(self.table())

    #: the plain-text form a notebook stores next to the HTML: the table, never a repr
    __repr__ = __str__

    def to_json(self) -> dict[str, Any]:
        """Everything, JSON-ready (``--json``), with the rates and intervals computed."""
        sides: dict[str, Any] = {}
        for side in self.sides:
            rate, low, high = self.win_rate(side)
            sides[side] = {
                "victoires": self.wins.get(side, 0), "taux": rate, "ic95": [low, high],
                "survivants": {str(k): v for k, v in sorted(self.survivors.get(side,
                                                                               {}).items())},
                "sante": {str(k): v for k, v in sorted(self.health.get(side, {}).items())},
                "sante_max_totale": self.health_max.get(side, 0),
                "degats_subis": self.damage_taken.get(side, 0),
                "degats_par_tour": self.damage_per_round(side),
            }
        return {"titre": self.title, "systeme": self.system, "combats": self.n,
                "graine": self.seed, "nuls": self.draws, "limite_de_tours": self.timeouts,
                "tours": {str(k): v for k, v in sorted(self.rounds.items())},
                "camps": sides, "intervalle": "Wilson 95 %",
                **({"variante": self.note} if self.note else {})}

    def svg(self) -> str:
        """One SVG document: the outcomes (bars) over the distribution of the number of
        rounds (:func:`escarmouche.render.simsvg.stack_svg`)."""
        return stack_svg([self.outcome_svg(), self.rounds_svg()],
                         title=f"Bilan de {plural(self.n, 'combat')}")

    def outcome_svg(self) -> str:
        items = [(f"victoire « {s} »", Fraction(self.wins.get(s, 0), self.n))
                 for s in self.sides]
        items += [("match nul", Fraction(self.draws, self.n)),
                  ("limite de tours", Fraction(self.timeouts, self.n))]
        return outcome_bars_svg(items, title=f"Issues sur {plural(self.n, 'combat')}")

    def rounds_svg(self) -> str:
        dist = {k: Fraction(v, self.n) for k, v in sorted(self.rounds.items())}
        return distribution_svg(dist, title="Durée des combats",
                                xlabel=f"{self.turn_word.capitalize()}s")


def _balance(roster: Any, tally: _Tally, seed: int, sides: Sequence[str]) -> Balance:
    return Balance(
        title=str(getattr(roster, "title", "") or "Combat"),
        system=str(getattr(roster, "system", "")),
        n=tally.n, seed=seed, sides=tuple(sides), wins=dict(tally.wins),
        draws=tally.draws, timeouts=tally.timeouts, rounds=dict(sorted(tally.rounds.items())),
        survivors={s: dict(sorted(c.items())) for s, c in tally.survivors.items()},
        health={s: dict(sorted(c.items())) for s, c in tally.health.items()},
        health_max=dict(tally.health_max), damage_taken=dict(tally.damage_taken),
        turn_word=_turn_word(str(getattr(roster, "system", ""))),
        note=automation_note(roster),
    )


def automation_note(roster: Any) -> str:
    """What automated play adds to the text for ``roster`` (``System.automation_note``,
    e.g. the Rulebook's declared damage, a variant not in its text), or ``""``."""
    enc = roster.encounter()
    fighters = [f.combatant for f in enc.state.fighters.values()]
    return str(enc.system.automation_note(fighters, enc.rules))


def _turn_word(system: str) -> str:
    try:
        return get_system(system).turn_word
    except EscarmoucheError:
        return "tour"


# -- jobs and executors -----------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Job:
    """Fights ``start`` to ``stop`` (excluded) of one or two rosters (picklable)."""

    rosters: tuple[Any, ...]
    seed: int
    start: int
    stop: int
    policy: Any
    max_turns: int


#: fights of each job replayed by the engine to re-check a dedicated resolver before use
KERNEL_CHECKS = 3


def _kernel_result(kernel: Any, index: int, seed: int, max_turns: int) -> FightResult:
    """Fight ``index`` played by a dedicated resolver (:mod:`escarmouche.simulation.d100`)."""
    b, turn, _ = kernel.play(stream(seed, index, DICE), max_turns)
    sides = list(dict.fromkeys(kernel.sides))
    standing = dict.fromkeys(sides, 0)
    health = dict.fromkeys(sides, 0)
    top = dict.fromkeys(sides, 0)
    for side, value, most in zip(kernel.sides, b, kernel.max_b, strict=True):
        standing[side] += value > 0
        health[side] += value
        top[side] += most
    alive = [s for s in sides if standing[s]]
    return FightResult(index, alive[0] if len(alive) == 1 else None, len(alive) > 1, turn,
                       tuple(standing.items()), tuple(health.items()), tuple(top.items()))


def _player(roster: Any, template: Encounter, job: _Job) -> Callable[[int], FightResult]:
    """How this job plays fight ``i`` of ``roster``: a dedicated resolver when one applies
    and agrees with the engine on the job's first fights, else the engine."""

    def engine(i: int) -> FightResult:
        return play_fight(roster, i, job.seed, policy=job.policy, max_turns=job.max_turns,
                          template=template)

    options = getattr(roster, "start_options", None) or {}
    policy = job.policy if job.policy is not None else getattr(roster, "policies", None)
    if not USE_KERNELS or not _d100.applies(template, options, policy):
        return engine
    try:
        kernel = _d100.Kernel(template)
    except (EscarmoucheError, ValueError):
        return engine
    for i in range(job.start, min(job.stop, job.start + KERNEL_CHECKS)):
        if _kernel_result(kernel, i, job.seed, job.max_turns) != engine(i):
            return engine
    return lambda i: _kernel_result(kernel, i, job.seed, job.max_turns)


def _play_job(job: _Job) -> tuple[_Tally, ...] | tuple[_Tally, _Tally, Counter[str]]:
    """Play a job: one tally per roster; with two rosters, also the paired counts
    (``"a:<side>"``: A won and B did not; ``"b:<side>"``: the reverse)."""
    tallies = [_Tally() for _ in job.rosters]
    players = [_player(r, r.encounter(), job) for r in job.rosters]
    pairs: Counter[str] = Counter()
    for i in range(job.start, job.stop):
        results = [play(i) for play in players]
        for t, r in zip(tallies, results, strict=True):
            t.add(r)
        if len(results) == 2 and results[0].winner != results[1].winner:
            if results[0].winner is not None:
                pairs[f"a:{results[0].winner}"] += 1
            if results[1].winner is not None:
                pairs[f"b:{results[1].winner}"] += 1
    if len(job.rosters) == 2:
        return (tallies[0], tallies[1], pairs)
    return tuple(tallies)


def _chunks(n: int, workers: int) -> list[tuple[int, int]]:
    """Fight ranges: about 8 per worker when several share the work (balance), at most
    2000 fights each (progress, memory); one worker gets the largest chunks."""
    per = n if workers <= 1 else math.ceil(n / (workers * 8))
    size = max(1, min(2_000, per))
    return [(a, min(n, a + size)) for a in range(0, n, size)]


def _execute(jobs: Sequence[_Job], processes: int, dask: Any,
             progress: Progress | None) -> list[Any]:
    """Run ``jobs`` here, in local processes or on Dask; results in job order."""
    total = sum(j.stop - j.start for j in jobs)
    done = 0
    results: list[Any] = [None] * len(jobs)

    def tick(k: int) -> None:
        nonlocal done
        done += jobs[k].stop - jobs[k].start
        if progress is not None:
            progress(done, total)

    if dask is not None:
        from distributed import Client, as_completed  # optional extra « cluster »

        if isinstance(dask, Client):
            client = dask
        else:
            try:
                client = Client(dask, timeout=DASK_TIMEOUT)  # type: ignore[no-untyped-call]
            except (OSError, TimeoutError, ValueError) as err:
                raise invalid("dask", dask, "CORE-ERR",
                              f"ordonnanceur Dask injoignable ({type(err).__name__})"
                              ) from None
        try:
            futures = client.map(_play_job, list(jobs), pure=False)
            index = {f.key: k for k, f in enumerate(futures)}
            for fut in as_completed(futures):  # type: ignore[no-untyped-call]
                k = index[fut.key]
                results[k] = fut.result()
                tick(k)
        finally:
            if client is not dask:
                client.close()  # type: ignore[no-untyped-call]
        return results
    if processes > 1:
        # imported here: the browser (Pyodide) has no processes and never gets here
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=processes) as pool:
            for k, r in enumerate(pool.map(_play_job, jobs)):
                results[k] = r
                tick(k)
        return results
    for k, job in enumerate(jobs):
        results[k] = _play_job(job)
        tick(k)
    return results


#: seconds to reach a Dask scheduler given by address
DASK_TIMEOUT = 20
_DASK_SCHEMES = ("tcp://", "tls://", "inproc://", "ucx://", "ws://", "wss://")


def _check_dask(dask: Any) -> None:
    if dask is None or type(dask).__name__ == "Client":
        return
    if not isinstance(dask, str) or not dask.startswith(_DASK_SCHEMES) or len(dask) > 300:
        raise invalid("dask", dask, "CORE-ERR",
                      "une adresse d’ordonnanceur (« tcp://hôte:8786 ») ou un "
                      "distributed.Client est attendu")


def _check_run(n: int, seed: int, processes: int, max_turns: int) -> None:
    _check.integer("combats", n, lo=1, hi=MAX_FIGHTS, rule="CORE-ERR")
    _check.integer("graine", seed, lo=0, hi=2**63 - 1, rule="CORE-RNG")
    _check.integer("processus", processes, lo=1, hi=1_024, rule="CORE-ERR")
    _check.integer("max_turns", max_turns, lo=1, hi=MAX_RUN_TURNS, rule="CORE-ERR")


def _first_fight(roster: Any, seed: int, policy: Any, max_turns: int) -> list[str]:
    """Sides in roster order; building one encounter also checks the roster now."""
    return _sides(roster.encounter())


def _jobs(rosters: tuple[Any, ...], n: int, seed: int, policy: Any, max_turns: int,
          workers: int) -> list[_Job]:
    return [_Job(rosters, seed, a, b, policy, max_turns) for a, b in _chunks(n, workers)]


def _workers(processes: int, dask: Any) -> int:
    return 16 if dask is not None else processes


def simulate(roster: object, n: int, *, seed: int = 0, policy: Any = None,
             processes: int = 1, dask: Any = None, progress: Progress | None = None,
             max_turns: int = 50) -> Balance:
    """Play ``n`` fights of ``roster`` (a roster, or an unstarted encounter) in simulation
    mode and return their :class:`Balance`.

    ``processes`` > 1 plays them in local processes; ``dask`` (a scheduler address
    « tcp://… » or a ``distributed.Client``) on a Dask cluster; ``progress(done,
    total)`` is called as chunks finish. The result depends only on the roster, ``n``,
    ``seed``, ``policy`` and ``max_turns``.
    """
    _check_run(n, seed, processes, max_turns)
    _check_dask(dask)
    r = as_roster(roster)
    sides = _first_fight(r, seed, policy, max_turns)
    jobs = _jobs((r,), n, seed, policy, max_turns, _workers(processes, dask))
    total = _Tally()
    for (tally,) in _execute(jobs, processes, dask, progress):
        total.merge(tally)
    return _balance(r, total, seed, sides)


# -- comparison ------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, repr=False)
class Comparison:
    """Two balances played on the same streams (common random numbers) and, per side,
    the paired difference of win rates B − A with its 95 % interval (Wald, on the
    paired differences: fights A won and B did not, and the reverse)."""

    a: Balance
    b: Balance
    a_only: Mapping[str, int]
    b_only: Mapping[str, int]
    labels: tuple[str, str] = ("A", "B")

    def difference(self, side: str) -> tuple[float, float, float]:
        """(B − A, low, high) for the win rate of ``side``."""
        n = self.a.n
        d10, d01 = self.a_only.get(side, 0), self.b_only.get(side, 0)
        diff = (d01 - d10) / n
        var = max(0.0, (d10 + d01) / n - diff * diff)
        half = Z95 * math.sqrt(var / n) if n > 1 else 1.0
        return (diff, max(-1.0, diff - half), min(1.0, diff + half))

    def table(self) -> Table:
        la, lb = self.labels
        rows: list[tuple[object, ...]] = []
        for side in self.a.sides:
            ra, rb = self.a.win_rate(side)[0], self.b.win_rate(side)[0]
            diff, low, high = self.difference(side)
            sign = "+" if diff > 0 else ""
            rows.append((side, _pct(ra), _pct(rb),
                         f"{sign}{_num(diff * 100, 1)} [{_num(low * 100, 1)} ; "
                         f"{_num(high * 100, 1)}]",
                         _num(self.a.damage_per_round(side)),
                         _num(self.b.damage_per_round(side))))
        title = (f"{self.a.title} : {la} contre {lb}, {plural(self.a.n, 'combat')} sur les "
                 f"mêmes dés (graine {self.a.seed}) ; durée moyenne "
                 f"{_num(_mean(self.a.rounds))} contre {_num(_mean(self.b.rounds))} "
                 f"{self.a.turn_word}s" + (f". {self.a.note}" if self.a.note else ""))
        return Table(("Camp", f"Victoires {la}", f"Victoires {lb}",
                      f"Écart {lb} − {la}, en points (IC 95 % apparié)",
                      f"Dégâts par {self.a.turn_word} {la}",
                      f"Dégâts par {self.a.turn_word} {lb}"), rows, title=title)

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()

    def __str__(self) -> str:
        return str(self.table())

    #: the plain-text form a notebook stores next to the HTML: the table, never a repr
    __repr__ = __str__

    def to_json(self) -> dict[str, Any]:
        diffs = {}
        for side in self.a.sides:
            d, low, high = self.difference(side)
            diffs[side] = {"ecart": d, "ic95": [low, high],
                           "seulement_a": self.a_only.get(side, 0),
                           "seulement_b": self.b_only.get(side, 0)}
        return {"a": self.a.to_json(), "b": self.b.to_json(), "libelles": list(self.labels),
                "ecarts": diffs, "intervalle": "Wald apparié 95 %"}

    def svg(self) -> str:
        items = []
        for side in self.a.sides:
            for label, bal in zip(self.labels, (self.a, self.b), strict=True):
                items.append((f"{label} : victoire « {side} »",
                              Fraction(bal.wins.get(side, 0), bal.n)))
        return outcome_bars_svg(items, title=f"Victoires sur {plural(self.a.n, 'combat')}")


def compare(roster_a: object, roster_b: object, n: int, *, seed: int = 0, policy: Any = None,
            processes: int = 1, dask: Any = None, progress: Progress | None = None,
            max_turns: int = 50, labels: tuple[str, str] = ("A", "B")) -> Comparison:
    """Play ``n`` fights of each roster on the same streams (fight ``i`` of both draws
    from ``stream(seed, i, …)``) and compare them; typically the same roster under two
    option sets or two editions (``roster.with_rules(...)``)."""
    _check_run(n, seed, processes, max_turns)
    _check_dask(dask)
    ra, rb = as_roster(roster_a), as_roster(roster_b)
    sides_a = _first_fight(ra, seed, policy, max_turns)
    sides_b = _first_fight(rb, seed, policy, max_turns)
    if sides_a != sides_b:
        raise invalid("camps", ", ".join(sides_b), "CORE-ERR",
                      "les deux combats comparés doivent opposer les mêmes camps")
    for i, label in enumerate(labels):
        _check.text(f"libellé {i + 1}", label, "CORE-ERR", max_len=60)
    jobs = _jobs((ra, rb), n, seed, policy, max_turns, _workers(processes, dask))
    ta, tb, pairs = _Tally(), _Tally(), Counter[str]()
    for a, b, p in _execute(jobs, processes, dask, progress):
        ta.merge(a)
        tb.merge(b)
        pairs.update(p)
    a_only = {k[2:]: v for k, v in pairs.items() if k.startswith("a:")}
    b_only = {k[2:]: v for k, v in pairs.items() if k.startswith("b:")}
    return Comparison(_balance(ra, ta, seed, sides_a), _balance(rb, tb, seed, sides_b),
                      a_only, b_only, labels)


# -- sweeps over an option grid -----------------------------------------------------------


def _option_label(system: str, field: str) -> str:
    """A ``Rules`` field by its French label (``OPTION_LABELS``), capitalised."""
    try:
        module = importlib.import_module(f"escarmouche.systems.{system}.rules")
    except ImportError:
        return field
    label = str(getattr(module, "OPTION_LABELS", {}).get(field, field))
    return label[:1].upper() + label[1:]


def _value_label(system: str, field: str, value: Any) -> object:
    """An option value as a reader sees it (``OPTION_VALUE_LABELS`` when it has one)."""
    try:
        module = importlib.import_module(f"escarmouche.systems.{system}.rules")
        named = getattr(module, "OPTION_VALUE_LABELS", {}).get(field, {})
        if value in named:
            return str(named[value])
    except (ImportError, TypeError):
        pass
    if isinstance(value, bool):
        return "oui" if value else "non"
    if isinstance(value, str | int):
        return value
    return json.dumps(value, ensure_ascii=False)


@dataclasses.dataclass(frozen=True, repr=False)
class Sweep:
    """One :class:`Balance` per point of an option grid, in grid order."""

    fields: tuple[str, ...]
    points: tuple[tuple[Any, ...], ...]
    balances: tuple[Balance, ...]

    def table(self) -> Table:
        sides = self.balances[0].sides if self.balances else ()
        rows = []
        for point, bal in zip(self.points, self.balances, strict=True):
            cells: list[object] = [_value_label(bal.system, f, v)
                                   for f, v in zip(self.fields, point, strict=True)]
            for side in sides:
                rate, low, high = bal.win_rate(side)
                cells.append(f"{_pct(rate)} [{_pct(low)} ; {_pct(high)}]")
            cells.append(_num(_mean(bal.rounds)))
            rows.append(tuple(cells))
        word = self.balances[0].turn_word if self.balances else "tour"
        system = self.balances[0].system if self.balances else ""
        headers = (*(_option_label(system, f) for f in self.fields),
                   *(f"Victoires « {s} »" for s in sides),
                   f"{word.capitalize()}s en moyenne")
        n = self.balances[0].n if self.balances else 0
        note = self.balances[0].note if self.balances else ""
        return Table(headers, rows, title=f"Balayage : {plural(len(self.points), 'point')}"
                     f" × {plural(n, 'combat')}" + (f". {note}" if note else ""))

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()

    def __str__(self) -> str:
        return str(self.table())

    __repr__ = __str__

    def svg(self) -> str:
        """The win rate of each side at each point of the grid (bars, one document)."""
        sides = self.balances[0].sides if self.balances else ()
        charts = []
        for side in sides:
            items = [(", ".join(f"{f} = {v}" for f, v in zip(self.fields, p, strict=True)),
                      Fraction(b.wins.get(side, 0), b.n))
                     for p, b in zip(self.points, self.balances, strict=True)]
            charts.append(outcome_bars_svg(items, title=f"Victoires « {side} »"))
        return stack_svg(charts, title="Balayage")

    def to_json(self) -> dict[str, Any]:
        return {"champs": list(self.fields),
                "points": [dict(zip(self.fields, p, strict=True)) for p in self.points],
                "bilans": [b.to_json() for b in self.balances]}


def _grid(grid: Mapping[str, Sequence[Any]], rules: Any) -> Iterator[tuple[Any, ...]]:
    _check.mapping("grille", grid, "CORE-ERR", max_len=20)
    names = {f.name for f in dataclasses.fields(rules)}
    for key, values in grid.items():
        _check.name_in("grille", key, sorted(names), "CORE-ERR", what="option")
        _check.sequence(f"grille.{key}", values, "CORE-ERR", max_len=MAX_GRID_POINTS)
    size = math.prod(len(v) for v in grid.values())
    if size < 1 or size > MAX_GRID_POINTS:
        raise invalid("grille", size, "CORE-ERR",
                      f"entre 1 et {MAX_GRID_POINTS} points sont attendus")
    yield from itertools.product(*grid.values())


def sweep(roster: object, grid: Mapping[str, Sequence[Any]], n: int, *, seed: int = 0,
          policy: Any = None, processes: int = 1, dask: Any = None,
          progress: Progress | None = None, max_turns: int = 50) -> Sweep:
    """Simulate ``roster`` at every point of ``grid`` (option name → values; the product
    of all), ``n`` fights each on the same streams; every fight of every point is sent to
    the executor at once (a cluster stays busy)."""
    _check_run(n, seed, processes, max_turns)
    _check_dask(dask)
    base = as_roster(roster)
    rules = base.rules
    fields = tuple(grid)
    points = tuple(_grid(grid, rules))
    variants = []
    for point in points:
        try:
            new_rules = dataclasses.replace(rules, **dict(zip(fields, point, strict=True)))
        except (TypeError, ValueError) as err:
            raise invalid("grille", json.dumps(point, ensure_ascii=False, default=str),
                          "CORE-ERR", f"options refusées : {err}") from None
        variants.append(base.with_rules(new_rules))
    sides = _first_fight(variants[0], seed, policy, max_turns)
    workers = _workers(processes, dask)
    jobs: list[_Job] = []
    owner: list[int] = []
    for k, v in enumerate(variants):
        for job in _jobs((v,), n, seed, policy, max_turns, max(1, workers // len(variants))):
            jobs.append(job)
            owner.append(k)
    tallies = [_Tally() for _ in variants]
    for k, (tally,) in zip(owner, _execute(jobs, processes, dask, progress), strict=True):
        tallies[k].merge(tally)
    return Sweep(fields, points, tuple(_balance(v, t, seed, sides)
                                       for v, t in zip(variants, tallies, strict=True)))
