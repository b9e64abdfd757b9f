"""Worker of ``bench_simulation.py``: fights per CPU-second of every example roster, with
whichever ``escarmouche`` is importable (this tree, or main's source extracted from git).

``python bench/_fights.py SIM FULL`` prints one JSON object: roster → {"simulation":
fights per CPU-second of ``simulation.simulate`` (the ``simule`` command's work),
"complet": fights per CPU-second of ``Roster.play`` (the full engine: narration, dice
records, atomic operations)}. Fights 0..SIM-1 (and 0..FULL-1) of seed 0, the same fights
for every version of the code.
"""

from __future__ import annotations

import json
import sys
import time

from escarmouche import simulation as sim
from escarmouche.roster import example_rosters, load_roster


def main(argv: list[str]) -> None:
    n_sim, n_full = int(argv[1]), int(argv[2])
    out: dict[str, dict[str, float]] = {}
    for name, path in sorted(example_rosters().items()):
        roster = load_roster(path)
        start = time.process_time()
        sim.simulate(roster, n_sim, seed=0)
        t_sim = time.process_time() - start
        start = time.process_time()
        for i in range(n_full):
            roster.play(sim.stream(0, i, sim.DICE), tactics_rng=sim.stream(0, i, sim.TACTICS))
        t_full = time.process_time() - start
        out[name] = {"simulation": n_sim / t_sim, "complet": n_full / t_full}
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv)
