"""Runs of paired fights in batches, on every core, that may stop at a precision.

Several rosters (two rule sets, or every point of an option grid) play fight ``i`` on the
same streams; each batch of :data:`~escarmouche.simulation.precision.BATCH` consecutive
fights returns exact tallies per roster and, for each roster after the first, the
paired counts against the first (``"a:<side>"``: the first roster's side won and this
one's did not; ``"b:<side>"``: the reverse; ``"changed"``: the winner differs).

Batches are merged in fight order, and a stopping rule is looked at after *each*
batch, in order: the stopping point depends only on the fights, never on how many
processes played them (with several processes a wave of batches is played at once, and
the batches past the stopping point are dropped). Same seed, same stopping point, same
result, with 1 or N processes.

:func:`default_processes` is how many local processes a run uses when the caller does
not say: every core this process may run on (``os.sched_getaffinity``, else
``os.cpu_count``), once the run is long enough to pay for starting them
(:data:`AUTO_MIN_FIGHTS`); one in the browser (Pyodide has no processes).

>>> default_processes(100), default_processes(100_000) == available_cores() >= 1
(1, True)
"""

from __future__ import annotations

import base64
import json
import os
import pickle
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from escarmouche.simulation.balance import _Tally
from escarmouche.simulation.fight import prepare
from escarmouche.simulation.runner import _Job, _results

__all__ = ["AUTO_MIN_FIGHTS", "available_cores", "batch_from_json", "default_processes",
           "job_json", "play_batch", "play_batch_json", "run_batches"]

#: fights (summed over the rosters played) from which a run uses every core by default:
#: starting a process costs about 0,1 s, the time of 100 to 300 fights
AUTO_MIN_FIGHTS = 4_000

Stop = Callable[[Sequence[_Tally], Sequence[Counter[str]]], bool]
Progress = Callable[[int, int], None]


def available_cores() -> int:
    """The cores this process may run on (1 in the browser)."""
    if sys.platform == "emscripten":
        return 1
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def default_processes(fights: int) -> int:
    """Local processes for a run of ``fights`` fights (over all its rosters) when the
    caller does not say: every core once the run pays for them, else one."""
    return available_cores() if fights >= AUTO_MIN_FIGHTS else 1


def play_batch(batch: _Job) -> tuple[list[_Tally], list[Counter[str]]]:
    """One tally per roster and, per roster after the first, its paired counts against
    the first."""
    plays = [prepare(r, r.encounter(), policy=batch.policy, max_turns=batch.max_turns).play
             for r in batch.rosters]
    tallies = [_Tally() for _ in batch.rosters]
    pairs: list[Counter[str]] = [Counter() for _ in batch.rosters[1:]]
    for i in range(batch.start, batch.stop):
        results = [play(i, batch.seed) for play in plays]
        for t, r in zip(tallies, results, strict=True):
            t.add(r)
        first = results[0].winner
        for counts, r in zip(pairs, results[1:], strict=True):
            if r != results[0]:  # winner, length, survivors or wounds: the fight differs
                counts["touched"] += 1
            if r.winner != first:
                counts["changed"] += 1
                if first is not None:
                    counts[f"a:{first}"] += 1
                if r.winner is not None:
                    counts[f"b:{r.winner}"] += 1
    return tallies, pairs


def run_batches(rosters: Sequence[Any], seed: int, policy: Any, max_turns: int, *,
                fights: int, batch: int, processes: int,
                stop: Stop | None = None, progress: Progress | None = None,
                dask: Any = None, weight: int = 1
                ) -> tuple[list[_Tally], list[Counter[str]]]:
    """Play up to ``fights`` fights of every roster in batches of ``batch``; after each
    batch (in fight order) ``stop(tallies, pairs)`` may end the run. The merged tallies
    and paired counts of the fights kept. On ``dask`` (no ``stop``), every batch is sent
    to the cluster at once and merged as it comes (exact counts: the same totals).
    ``progress(done, total)`` counts fights times ``weight`` (a sweep counts the fights of
    every point)."""
    tallies = [_Tally() for _ in rosters]
    pairs: list[Counter[str]] = [Counter() for _ in rosters[1:]]
    ranges = [(a, min(fights, a + batch)) for a in range(0, fights, batch)]
    batches = [_Job(tuple(rosters), seed, a, b, policy, max_turns) for a, b in ranges]
    if dask is not None:
        def weighted(done: int, total: int) -> None:
            if progress is not None:
                progress(done * weight, total * weight)

        for _, (ts, ps) in _results(batches, processes, dask, weighted, play=play_batch):
            for t, other in zip(tallies, ts, strict=True):
                t.merge(other)
            for p, other_p in zip(pairs, ps, strict=True):
                p.update(other_p)
        return tallies, pairs

    def merge(result: tuple[list[_Tally], list[Counter[str]]]) -> bool:
        """Merge one batch; whether the run is over."""
        for t, other in zip(tallies, result[0], strict=True):
            t.merge(other)
        for p, other_p in zip(pairs, result[1], strict=True):
            p.update(other_p)
        if progress is not None:
            progress(tallies[0].n * weight, fights * weight)
        return stop is not None and stop(tallies, pairs)

    if processes <= 1 or len(batches) <= 1:
        for b in batches:
            if merge(play_batch(b)):
                break
        return tallies, pairs
    # imported here: the browser (Pyodide) has no processes and never gets here
    from concurrent.futures import ProcessPoolExecutor

    # without a stopping rule every batch is needed: all are sent at once; with one, a
    # wave of two batches per process at a time (at most one wave is played in vain)
    wave = len(batches) if stop is None else 2 * processes
    with ProcessPoolExecutor(max_workers=processes) as pool:
        for w in range(0, len(batches), wave):
            for result in pool.map(play_batch, batches[w:w + wave]):
                if merge(result):
                    pool.shutdown(wait=True, cancel_futures=True)
                    return tallies, pairs
    return tallies, pairs


# -- batches across Web Workers (the browser's pool) ------------------------------------------
#
# A worker of the browser's pool plays one batch from a JSON job (the batch's ``_Job``
# pickled: the same wheel runs on both sides, and only the page's own worker sends jobs)
# and sends back its tallies as JSON; the page's worker merges them in fight order.
# Counters become lists of pairs: JSON object keys are strings, the rounds' are integers.

def _counter_json(c: Counter[Any]) -> list[list[Any]]:
    return [[k, v] for k, v in c.items()]


def _tally_json(t: _Tally) -> dict[str, Any]:
    return {"n": t.n, "wins": _counter_json(t.wins), "draws": t.draws,
            "timeouts": t.timeouts, "by_lot": t.by_lot, "rounds": _counter_json(t.rounds),
            "survivors": {k: _counter_json(v) for k, v in t.survivors.items()},
            "health": {k: _counter_json(v) for k, v in t.health.items()},
            "health_max": _counter_json(t.health_max),
            "damage_taken": _counter_json(t.damage_taken)}


def _tally_of(d: dict[str, Any]) -> _Tally:
    def c(pairs: list[list[Any]]) -> Counter[Any]:
        return Counter({k: v for k, v in pairs})

    return _Tally(d["n"], c(d["wins"]), d["draws"], d["timeouts"], d["by_lot"],
                  c(d["rounds"]), {k: c(v) for k, v in d["survivors"].items()},
                  {k: c(v) for k, v in d["health"].items()}, c(d["health_max"]),
                  c(d["damage_taken"]))


def job_json(job: _Job) -> str:
    """A batch as the pool's workers receive it (:func:`play_batch_json`)."""
    return json.dumps({"job": base64.b64encode(pickle.dumps(job)).decode("ascii")})


def play_batch_json(text: str) -> str:
    """One batch sent by :func:`job_json`: its tallies and paired counts, as JSON
    (:func:`batch_from_json`).

    >>> from escarmouche.roster import example_rosters, load_roster
    >>> duel = load_roster(example_rosters()["d20-duel"])
    >>> job = _Job((duel, duel), 1, 0, 20, None, 50)
    >>> batch_from_json(play_batch_json(job_json(job))) == play_batch(job)
    True
    """
    job = pickle.loads(base64.b64decode(json.loads(text)["job"]))  # the page's own job
    tallies, pairs = play_batch(job)
    return json.dumps({"tallies": [_tally_json(t) for t in tallies],
                       "pairs": [_counter_json(p) for p in pairs]})


def batch_from_json(text: str) -> tuple[list[_Tally], list[Counter[str]]]:
    """The tallies and paired counts :func:`play_batch_json` sent."""
    data = json.loads(text)
    return ([_tally_of(t) for t in data["tallies"]],
            [Counter({k: v for k, v in p}) for p in data["pairs"]])
