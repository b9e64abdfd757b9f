"""The exact solver's time per example duel (``escarmouche.exact.duel``), and the sampled
fights that would reach the same precision (± 0.1 point at 95 %: n ≈ p(1−p)(1.96/0.001)²).

    .venv/bin/python bench/bench_exact.py [MAX_TURNS]    # default 50, as ``simule``

See bench/README.md (« Exact duels »).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from escarmouche.exact import duel
from tests.helpers.d100 import readme_duel


def main() -> None:
    max_turns = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    for name, roster in (("README d100", readme_duel()), ("d100-duel", "d100-duel")):
        start = time.process_time()
        result = duel(roster, max_turns=max_turns)
        cpu = time.process_time() - start
        first = result.sides[0]
        p = float(result.wins[first])
        n = p * (1 - p) * (1.96 / 0.001) ** 2
        print(f"{name}: {first} {p:.6f}, states {result.states}, CPU {cpu:.2f} s, "
              f"sampled fights for ±0.1 pt: {n:,.0f}")


if __name__ == "__main__":
    main()
