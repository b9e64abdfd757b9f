"""Worker of ``bench_simulation.py``: the peak resident memory of one ``simulate`` call.

``python bench/_memory.py ROSTER N`` plays N fights of an example roster and prints the
process's peak resident set size in kibibytes (``resource.getrusage``, Linux).
"""

from __future__ import annotations

import resource
import sys

from escarmouche import simulation as sim
from escarmouche.roster import example_rosters, load_roster


def main(argv: list[str]) -> None:
    roster = load_roster(example_rosters()[argv[1]])
    sim.simulate(roster, int(argv[2]), seed=0)
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


if __name__ == "__main__":
    main(sys.argv)
