"""Balance simulation on Dask (docs/grappe.md): a sweep on a small ``LocalCluster`` equals the
local single-process result exactly (fights are independent streams, counts exact)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from escarmouche import Combatant
from escarmouche import simulation as sim
from escarmouche.encounter import Encounter

distributed = pytest.importorskip("distributed")


def duel() -> Encounter:
    return Encounter("d100", [
        Combatant("Aldric", "héros", {"CC": 45, "CT": 30, "F": 35, "E": 30, "Ag": 40, "M": 4,
                                       "B": 12}, skills={"esquive"}),
        Combatant("Grolk", "orques", {"CC": 40, "CT": 20, "F": 40, "E": 40, "Ag": 25, "M": 4,
                                      "B": 11}),
    ])


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def test_sweep_on_local_cluster_equals_local_run_core_rng(client: Any) -> None:
    """CORE-RNG: 2 × 150 fights on 2 Dask workers, then here: the same balances."""
    grid = {"dodges_per_round": [1, 2]}
    seen: list[int] = []
    on_dask = sim.sweep(duel(), grid, 150, seed=11, dask=client,
                        progress=lambda d, t: seen.append(d))
    local = sim.sweep(duel(), grid, 150, seed=11)
    assert on_dask == local
    assert seen[-1] == 300


def test_simulate_and_compare_on_dask(client: Any) -> None:
    assert sim.simulate(duel(), 120, seed=3, dask=client) == sim.simulate(duel(), 120, seed=3)
    a, b = duel(), duel()
    assert (sim.compare(a, b, 60, seed=random.Random(1).randint(0, 99), dask=client)
            == sim.compare(a, b, 60, seed=random.Random(1).randint(0, 99)))
