"""Simulation benchmark: the targets of bench/README.md, each a ratio measured in this one run.

1. **Every example roster against main before the speed work** (commit :data:`BASE_COMMIT`,
   extracted from git into a temporary folder): fights per CPU-second of
   ``simulation.simulate`` (what ``escarmouche simule`` does; target ≥ 25×) and of the
   full engine, ``Roster.play`` with narration and dice records (target ≥ 5×). Each
   version runs in its own interpreter (``bench/_fights.py``), the two alternating,
   :data:`REPEATS` times; the medians are compared. The same fights (seed 0) for both.
1b. **Every example roster against main before the rules kernels** (:data:`KERNEL_BASE`,
   spec/KERNEL.md), the same way with more fights (:data:`KERNEL_FIGHTS`): simulation
   mode ≥ 6× (d100 and d20 ≥ 8×, :data:`KERNEL_TARGETS`), the full engine ≥ 3×.
2. **The d100 duel against its floor** (``bench/floor_d100.py``: the README duel played
   by a plain Python loop, the same dice and arithmetic, no engine), first checked to
   give the engine's result on :data:`FLOOR_SEEDS` seeds; then ``simulate`` of that
   duel and the floor, alternating, per fight (target ≤ 10×).
2b. **The d20 duel against its floor** (``bench/floor_d20.py``: the example roster
   ``d20-duel`` played by a plain Python loop), checked the same way on
   :data:`FLOOR_SEEDS` seeds against the d20 rules kernel and the engine; then, per
   fight and alternating, the floor, ``simulate`` (on the kernel), the engine in
   simulation mode without the kernel, and the full engine (``Roster.play``, narrated;
   :data:`FULL_SHARE` of the fights): the ratios of the medians.
2c. **The d12 duel against its floor** (``bench/floor_d12.py``: the example roster
   ``d12-duel``), the same way on the d12 rules kernel.
2d. **The Rulebook duel against its floor** (``bench/floor_rulebook.py``: the example
   roster ``rulebook-bretteur``), checked and timed as 2b (:func:`against_floor_rulebook`).
3. **Memory**: the peak resident memory of ``simulate`` for a small and a ten times
   larger number of fights, each in a fresh interpreter (``bench/_memory.py``): the
   tallies are streamed, so it stays flat.

Only ratios are meant to be compared (the machine is shared); CPU time
(``time.process_time``) rather than wall time. ``--quick`` runs fewer fights;
``--floors`` runs only the floors (2, 2b, 2c and 2d); ``--noyaux`` only 1b. The run
fails only when a check of correctness fails (the floor against the engine); a target
missed is printed as such.
"""

from __future__ import annotations

import dataclasses
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import floor_d12, floor_d20, floor_d100, floor_rulebook  # noqa: E402
from escarmouche import simulation as sim  # noqa: E402
from escarmouche.roster import example_rosters, load_roster  # noqa: E402
from tests.helpers.d100 import readme_duel  # noqa: E402

#: main before the speed work (bench/README.md; the baseline: « main today » when the work started)
BASE_COMMIT = "466d7a6e9695659bf2dd78acd3bf78328523a1da"
QUICK = "--quick" in sys.argv
FLOORS = "--floors" in sys.argv
KERNELS_ONLY = "--noyaux" in sys.argv
REPEATS = 1 if QUICK else 3
#: fights per roster and measurement: simulation mode, full engine
SIM_FIGHTS, FULL_FIGHTS = (10, 5) if QUICK else (60, 24)
#: main before the rules kernels (spec/KERNEL.md), the kernels' targets (simulation mode:
#: 6× at least, 8× for the systems named; the full engine: 3×) and the fights per run
KERNEL_BASE = "8bdf3e8"
KERNEL_TARGETS = {"d100": 8.0, "d20": 8.0}
KERNEL_FIGHTS = (100, 5) if QUICK else (1500, 40)
#: the full engine's fights of 1b after its first ones, on which its target is read: a
#: roster's first fights fill what the rules kernels' narrations keep from fight to
#: fight (each roster's compiled sheet, each shape of event's words), as a designer's or
#: a GM's session does once; both columns are printed. 600 fights: the 200 timed before
#: 7 December 2026 lasted about 0.1 s of CPU per roster and moved by ±20 % from one run
#: to the next
KERNEL_NEXT = 20 if QUICK else 600
#: 1b's alternating runs of each version (its medians; a run lasts about 30 s)
KERNEL_REPEATS = 1 if QUICK else 5
FLOOR_SEEDS = 300 if QUICK else 3000
FLOOR_FIGHTS = 500 if QUICK else 4000
#: the share of the floor's fights the full engine plays (it is about 200 times slower)
FULL_SHARE = 20
MEMORY_FIGHTS = (1_000, 10_000) if QUICK else (5_000, 50_000)
MEMORY_ROSTER = "rulebook-bretteur"


def extract_base(folder: Path, commit: str = BASE_COMMIT) -> Path | None:
    """Main's ``src/`` at ``commit``, or ``None`` without git history."""
    done = subprocess.run(["git", "archive", "--format=tar", commit, "src"], cwd=ROOT,
                          capture_output=True, check=False)
    if done.returncode:
        return None
    with tarfile.open(fileobj=BytesIO(done.stdout)) as tar:
        tar.extractall(folder, filter="data")
    return folder / "src"


def fights(src: Path | None, n_sim: int = SIM_FIGHTS, n_full: int = FULL_FIGHTS,
           n_next: int = 0) -> dict[str, dict[str, float]]:
    """One run of ``_fights.py`` with main's source (``src``) or this tree's (``None``)."""
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "_fights.py"),
                           str(n_sim), str(n_full), str(n_next)], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=True)
    data: dict[str, dict[str, float]] = json.loads(done.stdout)
    return data


def median_of(runs: list[dict[str, dict[str, float]]], roster: str, mode: str) -> float:
    return statistics.median(r[roster][mode] for r in runs)


def met(ok: bool) -> str:
    return "atteint" if ok else "MANQUÉ"


def against_main() -> bool:
    print(f"== 1. Chaque exemple contre main {BASE_COMMIT[:10]} (médianes de {REPEATS} "
          f"passes alternées ; {SIM_FIGHTS} combats en simulation, {FULL_FIGHTS} au moteur "
          "complet ; combats par seconde de CPU)")
    with tempfile.TemporaryDirectory() as tmp:
        base_src = extract_base(Path(tmp))
        if base_src is None:
            print("pas d’historique git : la référence de main n’est pas mesurable ici "
                  "(voir bench/README.md pour les chiffres relevés)")
            return True
        base: list[dict[str, dict[str, float]]] = []
        ours: list[dict[str, dict[str, float]]] = []
        for _ in range(REPEATS):
            base.append(fights(base_src))
            ours.append(fights(None))
    print(f"{'exemple':<20} {'main simul./s':>14} {'simul./s':>10} {'×':>7} "
          f"{'main complet/s':>15} {'complet/s':>10} {'×':>6}")
    worst_sim, worst_full = float("inf"), float("inf")
    for roster in sorted(ours[0]):
        bs, os_ = median_of(base, roster, "simulation"), median_of(ours, roster, "simulation")
        bf, of = median_of(base, roster, "complet"), median_of(ours, roster, "complet")
        worst_sim, worst_full = min(worst_sim, os_ / bs), min(worst_full, of / bf)
        print(f"{roster:<20} {bs:>14.0f} {os_:>10.0f} {os_ / bs:>7.1f} {bf:>15.0f} "
              f"{of:>10.0f} {of / bf:>6.1f}")
    print(f"simulation : le plus petit gain est ×{worst_sim:.1f} (objectif ≥ 25 : "
          f"{met(worst_sim >= 25)}) ; moteur complet : ×{worst_full:.1f} (objectif ≥ 5 : "
          f"{met(worst_full >= 5)})")
    return True


def against_kernel_base() -> bool:
    """1b: every example roster against main before the rules kernels."""
    n_sim, n_full = KERNEL_FIGHTS
    print(f"\n== 1b. Chaque exemple contre main {KERNEL_BASE}, avant les noyaux de règles "
          f"(médianes de {KERNEL_REPEATS} passes alternées ; {n_sim} combats en simulation, "
          f"au moteur complet les {n_full} premiers puis les {KERNEL_NEXT} suivants ; "
          f"combats par seconde de CPU)")
    with tempfile.TemporaryDirectory() as tmp:
        base_src = extract_base(Path(tmp), KERNEL_BASE)
        if base_src is None:
            print("pas d’historique git : la référence n’est pas mesurable ici")
            return True
        base: list[dict[str, dict[str, float]]] = []
        ours: list[dict[str, dict[str, float]]] = []
        for _ in range(KERNEL_REPEATS):
            base.append(fights(base_src, n_sim, n_full, KERNEL_NEXT))
            ours.append(fights(None, n_sim, n_full, KERNEL_NEXT))
    print(f"{'exemple':<20} {'avant simul./s':>15} {'simul./s':>10} {'×':>6} {'objectif':>9} "
          f"{'avant 1ers/s':>13} {'1ers/s':>8} {'×':>5} {'avant suite/s':>14} "
          f"{'suite/s':>8} {'×':>5}")
    missed: list[str] = []
    worst_full = worst_first = float("inf")
    for roster in sorted(ours[0]):
        bs, os_ = median_of(base, roster, "simulation"), median_of(ours, roster, "simulation")
        bf, of = median_of(base, roster, "complet"), median_of(ours, roster, "complet")
        bn, on = (median_of(base, roster, "complet_suite"),
                  median_of(ours, roster, "complet_suite"))
        target = KERNEL_TARGETS.get(roster.split("-", 1)[0], 6.0)
        if os_ / bs < target:
            missed.append(roster)
        worst_full, worst_first = min(worst_full, on / bn), min(worst_first, of / bf)
        print(f"{roster:<20} {bs:>15.0f} {os_:>10.0f} {os_ / bs:>6.1f} {target:>9.0f} "
              f"{bf:>13.0f} {of:>8.0f} {of / bf:>5.1f} {bn:>14.0f} {on:>8.0f} {on / bn:>5.1f}")
    print("simulation : " + ("objectifs atteints" if not missed else
                             "objectif MANQUÉ pour " + ", ".join(missed))
          + f" ; moteur complet : ×{worst_full:.1f} au plus bas après les premiers combats "
          f"(objectif ≥ 3 : {met(worst_full >= 3)}), ×{worst_first:.1f} sur les premiers")
    return True


def against_floor() -> bool:
    print(f"\n== 2. Le duel d100 du README contre son plancher (bench/floor_d100.py ; "
          f"{FLOOR_FIGHTS} combats par mesure, médianes de 5 passes alternées)")
    duel = sim.as_roster(readme_duel())
    prepared = sim.prepare(duel)
    # the simulation plays the duel on the d100 rules kernel; the engine, without it
    engine = dataclasses.replace(prepared, kernel=None)
    bad = 0
    for i in range(FLOOR_SEEDS):
        floor = floor_d100.fight(sim.stream(0, i, sim.DICE))
        for r in (prepared.play(i, 0), engine.play(i, 0)):
            bad += (r.winner, r.rounds, tuple(h for _, h in r.health)) != floor
    print(f"plancher contre moteur et noyau : {FLOOR_SEEDS} graines, {bad} écart(s)")
    if bad:
        return False

    def floor_run() -> float:
        start = time.process_time()
        for i in range(FLOOR_FIGHTS):
            floor_d100.fight(sim.stream(0, i, sim.DICE))
        return time.process_time() - start

    def simulate_run() -> float:
        start = time.process_time()
        sim.simulate(duel, FLOOR_FIGHTS, seed=0, processes=1)  # CPU time of this process
        return time.process_time() - start

    floor_t, sim_t = [], []
    for _ in range(5):
        floor_t.append(floor_run())
        sim_t.append(simulate_run())
    f, s = statistics.median(floor_t), statistics.median(sim_t)
    ratio = s / f
    print(f"plancher : {FLOOR_FIGHTS / f:.0f} combats/s ({1e6 * f / FLOOR_FIGHTS:.0f} µs) ; "
          f"simulate : {FLOOR_FIGHTS / s:.0f} combats/s ({1e6 * s / FLOOR_FIGHTS:.0f} µs) ; "
          f"rapport {ratio:.1f} (objectif ≤ 10 : {met(ratio <= 10)})")
    return True


def against_floor_d20() -> bool:
    return against_floor_kernel("2b", "d20", floor_d20)


def against_floor_d12() -> bool:
    return against_floor_kernel("2c", "d12", floor_d12)


def against_floor_kernel(section: str, system: str, floor_module: Any,
                         roster: str | None = None) -> bool:
    """A system's example duel (``roster``, by default ``<system>-duel``) on its rules
    kernel against its floor (``bench/floor_<system>.py``), as 2b to 2d of the module
    docstring say."""
    roster = roster or f"{system}-duel"
    print(f"\n== {section}. Le duel {system} ({roster}) contre son plancher "
          f"(bench/floor_{system}.py ; {FLOOR_FIGHTS} combats par mesure, "
          f"{FLOOR_FIGHTS // FULL_SHARE} au moteur complet, médianes de 5 passes alternées ; "
          "µs de CPU par combat)")
    duel = load_roster(example_rosters()[roster])
    prepared = sim.prepare(duel)
    if prepared.kernel is None:
        print(f"pas de noyau de règles {system} pour ce duel")
        return False
    # the engine in simulation mode, without the kernel
    engine = dataclasses.replace(prepared, kernel=None)
    bad = 0
    for i in range(FLOOR_SEEDS):
        floor = floor_module.fight(sim.stream(0, i, sim.DICE))
        for r in (prepared.play(i, 0), engine.play(i, 0)):
            bad += (r.winner, r.rounds, tuple(h for _, h in r.health)) != floor
    print(f"plancher contre moteur et noyau : {FLOOR_SEEDS} graines, {bad} écart(s)")
    if bad:
        return False
    full_fights = max(FLOOR_FIGHTS // FULL_SHARE, 10)

    def timed(play: Any, n: int) -> float:
        start = time.process_time()
        play(n)
        return (time.process_time() - start) / n

    def floor_run(n: int) -> None:
        for i in range(n):
            floor_module.fight(sim.stream(0, i, sim.DICE))

    def engine_run(n: int) -> None:
        for i in range(n):
            engine.play(i, 0)

    def full_run(n: int) -> None:
        for i in range(n):
            duel.play(sim.stream(0, i, sim.DICE), tactics_rng=sim.stream(0, i, sim.TACTICS))

    runs: dict[str, list[float]] = {"plancher": [], "noyau (simulate)": [],
                                    "moteur, mode simulation": [], "moteur complet": []}
    for _ in range(5):
        runs["plancher"].append(timed(floor_run, FLOOR_FIGHTS))
        runs["noyau (simulate)"].append(
            timed(lambda n: sim.simulate(duel, n, seed=0, processes=1), FLOOR_FIGHTS))
        runs["moteur, mode simulation"].append(timed(engine_run, FLOOR_FIGHTS // 4))
        runs["moteur complet"].append(timed(full_run, full_fights))
    floor_t = statistics.median(runs["plancher"])
    kernel_t = statistics.median(runs["noyau (simulate)"])
    for label, times in runs.items():
        t = statistics.median(times)
        print(f"{label:<24} {1e6 * t:>9.1f} µs  {1 / t:>9.0f} combats/s  "
              f"{t / floor_t:>7.1f} × le plancher  {t / kernel_t:>6.1f} × le noyau")
    ratio = kernel_t / floor_t
    print(f"noyau {system} / plancher : {ratio:.1f} (objectif ≤ 10 : {met(ratio <= 10)})")
    return True


def against_floor_rulebook() -> bool:
    return against_floor_kernel("2d", "rulebook", floor_rulebook, roster="rulebook-bretteur")


def memory() -> bool:
    print(f"\n== 3. Mémoire de simulate ({MEMORY_ROSTER}, pic de mémoire résidente, un "
          "interpréteur neuf par mesure)")
    peaks = []
    for n in MEMORY_FIGHTS:
        done = subprocess.run([sys.executable, str(ROOT / "bench" / "_memory.py"),
                               MEMORY_ROSTER, str(n)], cwd=ROOT, capture_output=True,
                              text=True, check=True)
        peaks.append(int(done.stdout.strip()))
        print(f"{n:>9} combats : {peaks[-1] / 1024:.1f} Mio")
    growth = (peaks[1] - peaks[0]) / 1024
    print(f"écart : {growth:+.1f} Mio pour {MEMORY_FIGHTS[1] // MEMORY_FIGHTS[0]} fois plus "
          f"de combats (plat si < 2 Mio : {met(growth < 2)})")
    return True


def main() -> int:
    if KERNELS_ONLY:
        return 0 if against_kernel_base() else 1
    if FLOORS:
        ok = against_floor()
        ok = against_floor_d20() and ok
        ok = against_floor_rulebook() and ok
        return 0 if against_floor_d12() and ok else 1
    ok = against_main()
    ok = against_kernel_base() and ok
    ok = against_floor() and ok
    ok = against_floor_d20() and ok
    ok = against_floor_d12() and ok
    ok = against_floor_rulebook() and ok
    ok = memory() and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
