"""Running a simulation: its fights in jobs, here, in local processes or on Dask.

The fights of a run are cut into jobs of consecutive fights; each job plays its fights
with the engine in simulation mode and returns exact tallies, merged in fight order:
the result is the same whatever the executor and the number of workers. :func:`simulate`
runs one roster.

>>> from escarmouche import Combatant
>>> from escarmouche.encounter import Encounter
>>> from escarmouche.systems import d20
>>> duel = Encounter(d20.SYSTEM, [Combatant("Brune", "héros", {"PV": 12}),
...                          Combatant("Grolk", "orques", {"PV": 9})])
>>> seen = []
>>> simulate(duel, 30, seed=2, progress=lambda done, total: seen.append((done, total))).n
30
>>> seen
[(30, 30)]
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from escarmouche import checks
from escarmouche.encounter import MAX_RUN_TURNS, Encounter
from escarmouche.errors import invalid
from escarmouche.simulation.balance import Balance, _balance, _Tally
from escarmouche.simulation.fight import FightResult, _sides, as_roster, prepare

__all__ = ["DASK_TIMEOUT", "MAX_FIGHTS", "Progress", "SimulateRun", "simulate", "simulate_steps"]

#: the most fights one call plays
MAX_FIGHTS = 10_000_000

Progress = Callable[[int, int], None]


@dataclasses.dataclass(frozen=True)
class _Job:
    """Fights ``start`` to ``stop`` (excluded) of one or two rosters (picklable)."""

    rosters: tuple[Any, ...]
    seed: int
    start: int
    stop: int
    policy: Any
    max_turns: int


def _player(roster: Any, template: Encounter, job: _Job) -> Callable[[int], FightResult]:
    """How this job plays fight ``i`` of ``roster``: the engine in simulation mode, from
    ``template`` (built and checked once per job)."""
    prepared = prepare(roster, template, policy=job.policy, max_turns=job.max_turns)

    def engine(i: int) -> FightResult:
        return prepared.play(i, job.seed)

    return engine


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
    results: list[Any] = [None] * len(jobs)
    for k, r in _results(jobs, processes, dask, progress):
        results[k] = r
    return results


def _results(jobs: Sequence[Any], processes: int, dask: Any,
             progress: Progress | None, play: Callable[[Any], Any] | None = None
             ) -> Iterator[tuple[int, Any]]:
    """Run ``jobs`` here, in local processes or on Dask, and yield ``(k, result of job
    k)`` as each finishes (in job order, except on Dask): a caller merging exact counts
    as they come holds one job's tallies at a time, whatever the number of fights.
    ``play`` plays one job (default :func:`_play_job`; any picklable job with ``start``
    and ``stop``)."""
    play_one = _play_job if play is None else play
    total = sum(j.stop - j.start for j in jobs)
    done = 0

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
            futures = client.map(play_one, list(jobs), pure=False)
            index = {f.key: k for k, f in enumerate(futures)}
            for fut in as_completed(futures):  # type: ignore[no-untyped-call]
                k = index[fut.key]
                result = fut.result()
                tick(k)
                yield k, result
        finally:
            if client is not dask:
                client.close()  # type: ignore[no-untyped-call]
        return
    if processes > 1:
        # imported here: the browser (Pyodide) has no processes and never gets here
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=processes) as pool:
            for k, r in enumerate(pool.map(play_one, jobs)):
                tick(k)
                yield k, r
        return
    for k, job in enumerate(jobs):
        r = play_one(job)
        tick(k)
        yield k, r


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
    checks.integer("combats", n, lo=1, hi=MAX_FIGHTS, rule="CORE-ERR")
    checks.integer("graine", seed, lo=0, hi=2**63 - 1, rule="CORE-RNG")
    checks.integer("processus", processes, lo=1, hi=1_024, rule="CORE-ERR")
    checks.integer("max_turns", max_turns, lo=1, hi=MAX_RUN_TURNS, rule="CORE-ERR")


def _first_fight(roster: Any, seed: int, policy: Any, max_turns: int) -> list[str]:
    """Sides in roster order; building one encounter also checks the roster now. A fight
    needs two sides to fight: with one, every fight would be « won » without a blow."""
    sides = _sides(roster.encounter())
    if len(sides) < 2:
        raise invalid("camps", len(sides), "CORE-END-1",
                      "au moins deux camps sont attendus pour qu’il y ait combat")
    return sides


def _jobs(rosters: tuple[Any, ...], n: int, seed: int, policy: Any, max_turns: int,
          workers: int) -> list[_Job]:
    return [_Job(rosters, seed, a, b, policy, max_turns) for a, b in _chunks(n, workers)]


def _workers(processes: int, dask: Any) -> int:
    return 16 if dask is not None else processes


def simulate(roster: object, n: int, *, seed: int = 0, policy: Any = None,
             processes: int | None = None, dask: Any = None,
             progress: Progress | None = None, max_turns: int = 50) -> Balance:
    """Play ``n`` fights of ``roster`` (a roster, or an unstarted encounter) in simulation
    mode and return their :class:`Balance`.

    ``processes`` > 1 plays them in local processes (default: every core once the run
    is long enough to pay for them, :func:`~escarmouche.simulation.sequential.
    default_processes`; ``1`` opts out); ``dask`` (a scheduler address
    « tcp://… » or a ``distributed.Client``) on a Dask cluster; ``progress(done,
    total)`` is called as chunks finish. The result depends only on the roster, ``n``,
    ``seed``, ``policy`` and ``max_turns``, never on the number of processes.
    """
    if processes is None:
        from escarmouche.simulation.sequential import default_processes

        processes = 1 if dask is not None or not checks.is_int(n) else default_processes(n)
    _check_run(n, seed, processes, max_turns)
    _check_dask(dask)
    r = as_roster(roster)
    sides = _first_fight(r, seed, policy, max_turns)
    jobs = _jobs((r,), n, seed, policy, max_turns, _workers(processes, dask))
    total = _Tally()
    for _, (tally,) in _results(jobs, processes, dask, progress):
        total.merge(tally)  # exact counts, merged as they come: memory stays flat
    return _balance(r, total, seed, sides)



def simulate_steps(roster: object, n: int, *, seed: int = 0, policy: Any = None,
                   max_turns: int = 50, step: int = 500) -> Iterator[Balance]:
    """Play ``n`` fights of ``roster`` here, ``step`` at a time, yielding after each step
    the :class:`Balance` of the fights played so far: each is ``simulate(roster, k,
    ...)`` for the ``k`` fights played (a fight does not depend on how many are played),
    the last one ``simulate(roster, n, ...)``. For a page that shows its progress, hands
    control back to its event loop between steps, or stops early (the browser: one core,
    no processes).

    >>> from escarmouche import Combatant
    >>> from escarmouche.encounter import Encounter
    >>> from escarmouche.systems import d20
    >>> duel = Encounter(d20.SYSTEM, [Combatant("Brune", "héros", {"PV": 12}),
    ...                          Combatant("Grolk", "orques", {"PV": 9})])
    >>> steps = list(simulate_steps(duel, 50, seed=2, step=20))
    >>> [b.n for b in steps], steps[0] == simulate(duel, 20, seed=2)
    ([20, 40, 50], True)
    >>> steps[-1] == simulate(duel, 50, seed=2)
    True
    """
    _check_run(n, seed, 1, max_turns)
    checks.integer("pas", step, lo=1, hi=MAX_FIGHTS, rule="CORE-ERR")
    r = as_roster(roster)
    sides = _first_fight(r, seed, policy, max_turns)
    total = _Tally()
    for a, b in [(a, min(n, a + step)) for a in range(0, n, step)]:
        tally = _play_job(_Job((r,), seed, a, b, policy, max_turns))[0]
        total.merge(tally)
        yield _balance(r, total, seed, sides)


class SimulateRun:
    """:func:`simulate_steps` for a caller that plays its batches itself (the browser's
    pool of workers), as :class:`~escarmouche.simulation.CompareRun`: ``jobs`` (the
    batches, in fight order), ``add`` (merge the next batch's tallies, as
    :func:`~escarmouche.simulation.sequential.play_batch_json` returns them: the balance
    so far), ``over``. Checked when made."""

    def __init__(self, roster: object, n: int, *, seed: int = 0, policy: Any = None,
                 max_turns: int = 50, step: int = 500) -> None:
        _check_run(n, seed, 1, max_turns)
        checks.integer("pas", step, lo=1, hi=MAX_FIGHTS, rule="CORE-ERR")
        self.roster, self.seed = as_roster(roster), seed
        self.sides = _first_fight(self.roster, seed, policy, max_turns)
        self.jobs = [_Job((self.roster,), seed, a, min(n, a + step), policy, max_turns)
                     for a in range(0, n, step)]
        self.total = _Tally()
        self.merged = 0
        self.over = not self.jobs

    def add(self, result: tuple[Sequence[_Tally], Sequence[Any]]) -> Balance:
        """Merge the next batch (``jobs[merged]``'s tallies)."""
        self.total.merge(result[0][0])
        self.merged += 1
        self.over = self.merged >= len(self.jobs)
        return _balance(self.roster, self.total, self.seed, self.sides)
