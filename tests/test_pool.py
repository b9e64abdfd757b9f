"""The browser's pool of workers (issue 40): batches played out of order by several
workers, merged in fight order, give exactly the numbers of one worker; « Arrêter »
drops the batches not started."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Awaitable
from typing import Any

import pytest
from escarmouche_widgets._pool import pooled_steps

from escarmouche import simulation as sim
from escarmouche.roster import example_rosters, load_roster
from escarmouche.simulation.sequential import (
    _play_batch,
    batch_from_json,
    job_rosters,
    play_batch_json,
)


class FakePool:
    """``size`` workers that finish their batches in a shuffled order (a seeded delay
    each), playing the JSON job as a browser worker does."""

    def __init__(self, size: int, order_seed: int) -> None:
        self.workers = size
        self.delays = random.Random(order_seed)
        self.played: list[int] = []
        self.cancelled = 0

    def size(self) -> int:
        return self.workers

    def play(self, job: str) -> Awaitable[str]:
        async def later() -> str:
            await asyncio.sleep(self.delays.random() / 200)
            self.played.append(json.loads(job)["start"])
            return play_batch_json(job)
        return asyncio.ensure_future(later())

    def cancel(self) -> None:
        self.cancelled += 1


def _run(precision: float | None, n: int) -> tuple[sim.CompareRun, list[dict[str, Any]]]:
    roster = load_roster(example_rosters()["d100-duel"])
    changed = {"parades_par_round": 2}
    after = roster.with_options(**changed)
    specs = [{"example": "d100-duel", "options": {}},
             {"example": "d100-duel", "options": changed}]
    return sim.CompareRun(roster, after, n, seed=3, step=100, precision=precision), specs


def _one_worker(run: sim.CompareRun) -> list[sim.Comparison]:
    out = []
    for job in run.jobs:
        out.append(run.add(_play_batch(job)))
        if run.over:
            break
    return out


async def _collect(run: sim.CompareRun, specs: list[dict[str, Any]], pool: FakePool,
                   seen: list[int]) -> list[sim.Comparison]:
    return [c async for c in pooled_steps(run, specs, pool, seen.append)]


@pytest.mark.parametrize(("workers", "order"), [(2, 1), (3, 2), (4, 3)])
def test_pool_gives_the_numbers_of_one_worker(workers: int, order: int) -> None:
    one = _one_worker(_run(None, 1_000)[0])
    run, specs = _run(None, 1_000)
    pool, seen = FakePool(workers, order), list[int]()
    pooled = asyncio.run(_collect(run, specs, pool, seen))
    assert pooled == one
    assert pooled[-1].a.n == 1_000
    assert pool.played != sorted(pool.played)  # the workers did finish out of order
    assert seen and max(seen) <= 1_000 and pool.cancelled == 1


def test_pool_stops_where_one_worker_stops() -> None:
    one = _one_worker(_run(5.0, 20_000)[0])
    run, specs = _run(5.0, 20_000)
    pooled = asyncio.run(_collect(run, specs, FakePool(4, 7), []))
    assert pooled == one
    assert pooled[-1].reached and pooled[-1].a.n < 20_000


def test_closing_the_steps_drops_the_batches_not_started() -> None:
    run, specs = _run(None, 5_000)
    pool = FakePool(2, 5)

    async def first_two() -> list[sim.Comparison]:
        steps = pooled_steps(run, specs, pool)
        got = [await anext(steps), await anext(steps)]
        await steps.aclose()  # « Arrêter »
        return got

    got = asyncio.run(first_two())
    assert [c.a.n for c in got] == [100, 200]
    assert pool.cancelled == 1 and len(pool.played) <= 2 + 4


def test_a_batch_survives_its_trip_through_json() -> None:
    rosters = job_rosters([{"example": "d20-escarmouche", "options": {}}] * 2)
    job = {"rosters": [{"example": "d20-escarmouche", "options": {}}] * 2, "seed": 9,
           "start": 40, "stop": 90, "max_turns": 50}
    direct = _play_batch(sim._Job(rosters, 9, 40, 90, None, 50))
    assert batch_from_json(play_batch_json(json.dumps(job))) == direct
