"""The browser's pool of workers (bench/README.md, « bench_designer.py »): batches played
out of order by several workers, merged in fight order, give exactly the numbers of one
worker; « Arrêter » drops the batches not started."""

from __future__ import annotations

import asyncio
import base64
import json
import pickle
import random
from collections.abc import Awaitable
from typing import TypeVar

import pytest
from escarmouche_widgets._pool import Run, pooled_steps

from escarmouche import simulation as sim
from escarmouche.roster import example_rosters, load_roster
from escarmouche.simulation.sequential import (
    batch_from_json,
    job_json,
    play_batch,
    play_batch_json,
)

T = TypeVar("T")


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
            self.played.append(pickle.loads(base64.b64decode(json.loads(job)["job"])).start)
            return play_batch_json(job)
        return asyncio.ensure_future(later())

    def cancel(self) -> None:
        self.cancelled += 1


def _run(precision: float | None, n: int) -> sim.CompareRun:
    roster = load_roster(example_rosters()["d100-duel"])
    after = roster.with_options(parades_par_round=2)
    return sim.CompareRun(roster, after, n, seed=3, step=100, precision=precision)


def _one_worker(run: sim.CompareRun) -> list[sim.Comparison]:
    out = []
    for job in run.jobs:
        out.append(run.add(play_batch(job)))
        if run.over:
            break
    return out


async def _collect(run: Run[T], pool: FakePool, seen: list[int]) -> list[T]:
    return [c async for c in pooled_steps(run, pool, seen.append)]


@pytest.mark.parametrize(("workers", "order"), [(2, 1), (3, 2), (4, 3)])
def test_pool_gives_the_numbers_of_one_worker(workers: int, order: int) -> None:
    one = _one_worker(_run(None, 1_000))
    pool, seen = FakePool(workers, order), list[int]()
    pooled = asyncio.run(_collect(_run(None, 1_000), pool, seen))
    assert pooled == one
    assert pooled[-1].a.n == 1_000
    assert pool.played != sorted(pool.played)  # the workers did finish out of order
    assert seen and max(seen) <= 1_000 and pool.cancelled == 1


def test_pool_stops_where_one_worker_stops() -> None:
    one = _one_worker(_run(5.0, 20_000))
    pooled = asyncio.run(_collect(_run(5.0, 20_000), FakePool(4, 7), []))
    assert pooled == one
    assert pooled[-1].reached and pooled[-1].a.n < 20_000


def test_closing_the_steps_drops_the_batches_not_started() -> None:
    run = _run(None, 5_000)
    pool = FakePool(2, 5)

    async def first_two() -> list[sim.Comparison]:
        steps = pooled_steps(run, pool)
        got = [await anext(steps), await anext(steps)]
        await steps.aclose()  # « Arrêter »
        return got

    got = asyncio.run(first_two())
    assert [c.a.n for c in got] == [100, 200]
    assert pool.cancelled == 1 and len(pool.played) <= 2 + 4


def test_a_batch_survives_its_trip_through_json() -> None:
    rosters = tuple(load_roster(example_rosters()["d20-escarmouche"]) for _ in range(2))
    job = sim._Job(rosters, 9, 40, 90, None, 50)
    assert batch_from_json(play_batch_json(job_json(job))) == play_batch(job)


def test_a_balance_on_the_pool_is_the_balance_of_one_worker() -> None:
    """The balance widget's run without options changed: one roster (SimulateRun)."""
    roster = load_roster(example_rosters()["d12-escarmouche"])
    *_, one = sim.simulate_steps(roster, 700, seed=4, step=100)
    pooled = asyncio.run(_collect(sim.SimulateRun(roster, 700, seed=4, step=100),
                                  FakePool(3, 11), []))
    assert [b.n for b in pooled] == list(range(100, 800, 100))
    assert pooled[-1] == one == sim.simulate(roster, 700, seed=4, processes=1)
