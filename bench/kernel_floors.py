"""Each system's example duel on its rules kernel against its plain-Python floor, in
whichever Python imports this module: CPython (``bench_browser.py --plan noyau`` runs it
here too) or Pyodide in Chromium (the same plan's page). One implementation of the measure
for both, so that the two ratios are the same question.

Pure Python, the engine and the floors only (``bench/floor_<system>.py``): it reads no
file and starts no process, so the bench page writes this module and the floors into
Pyodide's file system and calls :func:`measure`.

For each duel of :data:`DUELS`: the floor is first held to the kernel on ``check`` seeds
(the same winner, rounds and health, fight by fight); then, ``passes`` times in
alternation, ``fights`` fights of the floor and the same fights of ``simulate`` (one
process: the kernel), timed by ``time.perf_counter`` (a browser's worker has no CPU
clock of its own; the machine must be quiet). The answer per duel: the medians in µs per
fight, and the ratio kernel / floor.
"""

from __future__ import annotations

import importlib
import statistics
import time
from typing import Any

#: the duels measured, each with its floor module (``bench/floor_<system>.py``): the
#: README's d100 duel (:func:`readme_duel`, the d100 floor's), then the d20, d12 and
#: Rulebook example rosters
DUELS = {"duel-du-readme": "floor_d100", "d20-duel": "floor_d20", "d12-duel": "floor_d12",
         "rulebook-bretteur": "floor_rulebook"}


def readme_duel() -> Any:
    """The README's d100 duel, unstarted, as ``tests.helpers.d100.readme_duel`` builds it
    (the disagreements counted by :func:`measure` hold it to the floor)."""
    from escarmouche import Combatant
    from escarmouche.encounter import Encounter

    return Encounter("d100", [
        Combatant("Aldric", "héros", {"CC": 45, "CT": 30, "F": 35, "E": 30, "Ag": 40,
                                       "M": 4, "B": 12}),
        Combatant("Grolk", "orques", {"CC": 40, "CT": 20, "F": 40, "E": 40, "Ag": 25,
                                      "M": 4, "B": 11}),
    ])


def _floor(name: str) -> Any:
    """The floor module ``name``, as a module of the ``bench`` package (this checkout)
    or, in Pyodide, of the folder the page wrote them into."""
    package = __name__.rpartition(".")[0]
    return importlib.import_module(f"{package}.{name}" if package else name)


def measure(fights: int = 1000, passes: int = 5, check: int = 200,
            duels: tuple[str, ...] = tuple(DUELS)) -> dict[str, dict[str, float]]:
    """Per duel: ``{"plancher_us", "noyau_us", "rapport", "ecarts"}`` (the medians of
    ``passes`` alternating runs of ``fights`` fights; ``ecarts``: the fights of the
    ``check`` seeds where the floor and the kernel disagree, 0 when the floor is
    faithful)."""
    from escarmouche import simulation as sim
    from escarmouche.roster import example_rosters, load_roster

    out: dict[str, dict[str, float]] = {}
    for duel in duels:
        floor = _floor(DUELS[duel])
        roster = (sim.as_roster(readme_duel()) if duel == "duel-du-readme"
                  else load_roster(example_rosters()[duel]))
        prepared = sim.prepare(roster)
        bad = 0
        for i in range(check):
            r = prepared.play(i, 0)
            bad += (r.winner, r.rounds, tuple(h for _, h in r.health)) != floor.fight(
                sim.stream(0, i, sim.DICE))

        def floor_run(n: int, floor: Any = floor) -> None:
            for i in range(n):
                floor.fight(sim.stream(0, i, sim.DICE))

        def kernel_run(n: int, roster: Any = roster) -> None:
            sim.simulate(roster, n, seed=0, processes=1)

        times: dict[str, list[float]] = {"plancher": [], "noyau": []}
        for _ in range(passes):
            for label, run in (("plancher", floor_run), ("noyau", kernel_run)):
                start = time.perf_counter()
                run(fights)
                times[label].append((time.perf_counter() - start) / fights)
        floor_t = statistics.median(times["plancher"])
        kernel_t = statistics.median(times["noyau"])
        out[duel] = {"plancher_us": round(1e6 * floor_t, 1),
                     "noyau_us": round(1e6 * kernel_t, 1),
                     "rapport": round(kernel_t / floor_t, 2), "ecarts": bad}
    return out
