"""The browser's pool of workers: a long run's batches played on several Web Workers.

The page's worker (live-worker.mjs) offers the module ``escarmouche_pool`` to Python:
``size()`` (the helper workers it may start: ``navigator.hardwareConcurrency − 1``, at
most 4, 2 on a phone or under 4 GB of memory), ``play(job)`` (a promise of one batch's
tallies, as JSON: :func:`escarmouche.simulation.sequential.play_batch_json`, the job
made by :func:`~escarmouche.simulation.sequential.job_json`) and
``cancel()`` (the batches not started yet are dropped). The helpers are started at the
first ``play``, from the runtime this device already keeps, and stay for the next run.

:func:`pooled_steps` keeps two batches per helper in flight and merges the results in
fight order (:class:`escarmouche.simulation.CompareRun`, or
:class:`escarmouche.simulation.SimulateRun` for one roster), looking at the stopping rule
after each one as one worker does: the same seed gives the same numbers, whatever the
number of workers and the order in which they finish.
"""

from __future__ import annotations

import asyncio
import sys
from collections import Counter
from collections.abc import AsyncGenerator, Awaitable, Callable
from typing import Any, Protocol, TypeVar

from escarmouche.simulation.sequential import batch_from_json, job_json

T_co = TypeVar("T_co", covariant=True)

__all__ = ["Pool", "Run", "page_pool", "pooled_steps"]


class Pool(Protocol):
    def size(self) -> int: ...

    def play(self, job: str) -> Awaitable[str]: ...

    def cancel(self) -> None: ...


def page_pool() -> Pool | None:
    """The page's pool when it has at least two helpers (one helper would only add its
    start to the page's own worker), else ``None``: one worker plays the run."""
    if sys.platform != "emscripten":
        return None
    try:
        import escarmouche_pool  # type: ignore[import-not-found]  # live-worker.mjs
    except ImportError:
        return None
    pool: Pool = escarmouche_pool
    return pool if int(pool.size()) >= 2 else None


class Run(Protocol[T_co]):
    """A run whose batches are played elsewhere (CompareRun, SimulateRun)."""

    jobs: list[Any]
    merged: int
    over: bool

    def add(self, result: tuple[list[Any], list[Counter[str]]]) -> T_co: ...


async def pooled_steps(run: Run[T_co], pool: Pool,
                       progress: Callable[[int], object] | None = None
                       ) -> AsyncGenerator[T_co, None]:
    """The result (comparison, balance) after each batch of ``run``, merged in fight
    order, the batches played by ``pool``; ``progress(fights)`` counts the fights every
    worker has finished (those waiting for an earlier batch too). Closing it
    (« Arrêter », or the precision reached) drops the batches not started."""
    ahead = 2 * max(1, int(pool.size()))
    pending: dict[int, asyncio.Future[str]] = {}
    sent = 0

    async def wait(promise: Awaitable[str]) -> str:
        return str(await promise)

    try:
        while not run.over:
            while sent < len(run.jobs) and sent - run.merged < ahead:
                pending[sent] = asyncio.ensure_future(wait(pool.play(job_json(run.jobs[sent]))))
                sent += 1
            nxt = pending.pop(run.merged)
            while not nxt.done():
                await asyncio.wait([nxt, *pending.values()],
                                   return_when=asyncio.FIRST_COMPLETED)
                if progress is not None:
                    progress(_finished(run, pending, nxt))
            yield run.add(batch_from_json(nxt.result()))
    finally:
        pool.cancel()
        for future in pending.values():
            future.cancel()


def _finished(run: Run[Any], pending: dict[int, asyncio.Future[str]],
              nxt: asyncio.Future[str]) -> int:
    """Fights played by every worker: those merged and those of finished batches."""
    def size(i: int) -> int:
        return int(run.jobs[i].stop - run.jobs[i].start)

    done = sum(size(i) for i in range(run.merged)) + (size(run.merged) if nxt.done() else 0)
    return done + sum(size(i) for i, f in pending.items() if f.done())
