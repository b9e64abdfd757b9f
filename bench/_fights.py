"""Worker of ``bench_simulation.py``: fights per CPU-second of every example roster, with
whichever ``escarmouche`` is importable (this tree, or main's source extracted from git).

``python bench/_fights.py SIM FULL [NEXT]`` prints one JSON object: roster →
{"simulation": fights per CPU-second of ``simulation.simulate`` (the ``simule`` command's
work), "complet": fights per CPU-second of ``Roster.play`` (the full engine: narration,
dice records, atomic operations) over its first fights, and with ``NEXT``
"complet_suite": the same over the ``NEXT`` fights after them (a roster's fights once its
first ones have filled what the code keeps from fight to fight: compiled sheets, the
words of each shape of event)}. Fights 0..SIM-1 (0..FULL-1, then FULL..FULL+NEXT-1) of
seed 0, the same fights for every version of the code.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from escarmouche import simulation as sim
from escarmouche.roster import example_rosters, load_roster


def main(argv: list[str]) -> None:
    n_sim, n_full = int(argv[1]), int(argv[2])
    n_next = int(argv[3]) if len(argv) > 3 else 0
    out: dict[str, dict[str, float]] = {}

    def full(roster: Any, first: int, n: int) -> float:
        start = time.process_time()
        for i in range(first, first + n):
            roster.play(sim.stream(0, i, sim.DICE), tactics_rng=sim.stream(0, i, sim.TACTICS))
        return n / (time.process_time() - start)

    for name, path in sorted(example_rosters().items()):
        roster = load_roster(path)
        start = time.process_time()
        sim.simulate(roster, n_sim, seed=0)
        t_sim = time.process_time() - start
        out[name] = {"simulation": n_sim / t_sim, "complet": full(roster, 0, n_full)}
        if n_next:
            out[name]["complet_suite"] = full(roster, n_full, n_next)
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv)
