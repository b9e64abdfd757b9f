"""The exact solver's time per example duel (``escarmouche.exact.duel``), in fractions and
in floats, against its peer in the same run: sampling the same duel on its rules kernel
to the same precision (± 0.1 point at 95 %: n ≈ p(1−p)(1.96/0.001)² fights, timed on
``SAMPLED`` fights and scaled).

    .venv/bin/python bench/bench_exact.py [MAX_TURNS] [RUNS]   # default 50 rounds, 3 runs

Each duel is first solved once in floats in a fresh state of its caches (what a command
or a page meets first), then its runs alternate the three ways (fractions, floats,
sampling); the medians of CPU time (``time.process_time``) are printed. See
bench/README.md (« Exact duels »).
"""

from __future__ import annotations

import functools
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from escarmouche.exact import duel
from escarmouche.simulation.fight import as_roster, prepare
from tests.helpers.d100 import readme_duel

#: the fights timed to estimate sampling's cost per fight
SAMPLED = 4000
DUELS = ("README d100", "d100-duel", "d20-duel", "d12-duel", "rulebook-duel")


def _roster(name: str) -> object:
    if name == "README d100":
        return readme_duel()
    from escarmouche.roster import example_rosters, load_roster

    return load_roster(example_rosters()[name])


def _cpu(work: Callable[[], object]) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


def _sample(prepared: Any) -> None:
    for i in range(SAMPLED):
        prepared.play(i, 1)


def main() -> None:
    max_turns = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    print("| duel | exact (first side wins) | states | first solve (floats) | fractions "
          "| floats | fights for ±0.1 pt | sampling them | floats ÷ sampling |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in DUELS:
        roster = _roster(name)
        prepared = prepare(as_roster(roster), max_turns=max_turns)
        fractions, floats, per_fight = [], [], []
        solve = functools.partial(duel, roster, max_turns=max_turns)
        cold = _cpu(functools.partial(solve, exact=False))
        result = solve()
        sample = functools.partial(_sample, prepared)
        for _ in range(runs):
            fractions.append(_cpu(solve))
            floats.append(_cpu(functools.partial(solve, exact=False)))
            per_fight.append(_cpu(sample) / SAMPLED)
        first = result.sides[0]
        p = float(result.wins[first])
        n = p * (1 - p) * (1.96 / 0.001) ** 2
        sampling = n * statistics.median(per_fight)
        fl = statistics.median(floats)
        print(f"| {name} | {first} {p:.6f} | {result.states:,} | {cold:.2f} s "
              f"| {statistics.median(fractions):.2f} s | {fl:.2f} s | ≈ {n:,.0f} "
              f"| {sampling:.0f} s | 1/{sampling / fl:,.0f} |")


if __name__ == "__main__":
    main()
