"""The designer's question (bench/README.md, « bench_designer.py »): « is my variant better,
and by how much? », to ± 2 points, for every example roster and one change.

For each example roster and one change (an option when one acts in that fight, else a
one-step change of one fighter's sheet, as a designer would try), in this one run:

1. **Today**: a fixed 20 000 fights per rule set, two independent intervals (what the
   Atelier did). Its CPU seconds are the paired run's CPU seconds per fight (measured
   below, on the same fights) times 40 000: playing 360 000 fights here to time them
   would only repeat that cost. We also give the fights two *independent* intervals
   would need to reach ± 2 points on the difference (z²(p_A q_A + p_B q_B)/0,02²), from
   the rates measured.
2. **Paired, stopped**: ``simulation.compare(a, b, precision=2, processes=1)``: the same
   dice for both, the paired difference, stopped after the 1 000-fight pilot at the
   first batch of 500 where every side's difference is known to ± 2 points
   (Chow–Robbins with a conservative variance, ``escarmouche.simulation.precision``).
   Fights per rule set and CPU seconds (``time.process_time``), and the ratio of fights
   to today's 20 000 (target ≥ 5×).
3. **One core against all cores**: one fixed run of :data:`CORE_FIGHTS` paired fights of
   the slowest roster with ``processes=1`` and with every core (wall time, alternating,
   :data:`REPEATS` times, medians; target ≥ 1,7× on two cores), and the check that both
   give the same result.

Only ratios are meant to be compared (the machine is shared). ``--quick`` plays fewer;
``--coeurs`` runs only the third measure.
"""

from __future__ import annotations

import math
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from escarmouche import simulation as sim  # noqa: E402
from escarmouche.roster import example_rosters, load_roster, parse_roster  # noqa: E402
from escarmouche.simulation.balance import Z95  # noqa: E402
from escarmouche.simulation.sequential import available_cores  # noqa: E402

QUICK = "--quick" in sys.argv
TODAY = 20_000
PRECISION = 2
REPEATS = 1 if QUICK else 2
CORE_FIGHTS = 1_000 if QUICK else 4_000
CORE_ROSTER = "d100-duel"

#: per example roster: (what changes, as a reader says it; option changes or a sheet edit)
CHANGES: dict[str, tuple[str, dict[str, object] | tuple[str, str]]] = {
    "rulebook-duel": ("réussite critique 5 → 10", {"reussite_critique_max": 10}),
    "rulebook-bretteur": ("réussite critique 5 → 10", {"reussite_critique_max": 10}),
    "d100-duel": ("CC de Grolk 40 → 45 (fiche)",
                  ("CC = 40, CT = 20, F = 40, E = 40, Ag = 25, M = 4, B = 11, PA = 1",
                   "CC = 45, CT = 20, F = 40, E = 40, Ag = 25, M = 4, B = 11, PA = 1")),
    "d100-escarmouche": ("surpris_peut_se_defendre → oui",
                         {"surpris_peut_se_defendre": True}),
    "d100-esquive": ("arme par défaut → deux mains",
                     {"arme_par_defaut": "arme_a_deux_mains"}),
    "d12-duel": ("PV du premier 12 → 13 (fiche)",
                 ("PV = 12, attaque = 3", "PV = 13, attaque = 3")),
    "d12-escarmouche": ("PV de Brune 14 → 15 (fiche)",
                        ("PV = 14, defense = 13", "PV = 15, defense = 13")),
    "d20-duel": ("PV du premier 20 → 21 (fiche)",
                 ("PV = 20, attaque = 5", "PV = 21, attaque = 5")),
    "d20-escarmouche": ("défense par défaut 10 → 11", {"defense_par_defaut": 11}),
}


def variant(name: str) -> tuple[object, object, str]:
    path = example_rosters()[name]
    roster = load_roster(path)
    label, change = CHANGES[name]
    if isinstance(change, dict):
        return roster, roster.with_options(**change), label
    old, new = change
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, (name, old)
    return roster, parse_roster(text.replace(old, new), source=f"{name} (variante)"), label


def designer_rows() -> list[dict[str, object]]:
    rows = []
    for name in sorted(CHANGES):
        a, b, label = variant(name)
        start = time.process_time()
        c = sim.compare(a, b, precision=PRECISION, seed=0, processes=1)
        cpu = time.process_time() - start
        side = c.a.sides[0]
        pa, pb = c.a.wins.get(side, 0) / c.a.n, c.b.wins.get(side, 0) / c.a.n
        unpaired = math.ceil(Z95 ** 2 * (pa * (1 - pa) + pb * (1 - pb)) / 0.02 ** 2)
        per_fight = cpu / (2 * c.a.n)
        rows.append({"roster": name, "change": label, "changed": (c.changed or 0) / c.a.n,
                     "diff": c.interval(side)[0], "half": c.half(side),
                     "n": c.a.n, "cpu": cpu, "today_cpu": per_fight * 2 * TODAY,
                     "unpaired": unpaired, "ratio": TODAY / c.a.n, "reached": c.reached})
        print(f"  {name}: {c.a.n} combats, {cpu:.1f} s", file=sys.stderr, flush=True)
    return rows


def cores_row() -> dict[str, object]:
    """Wall time with one process and with every core, and, robust to a busy machine,
    the speed-up those runs would give on idle cores: the one-process CPU time over
    (the workers' CPU time / cores + the parent's own)."""
    a, b, _ = variant(CORE_ROSTER)
    cores = max(2, available_cores())
    times: dict[int, list[float]] = {1: [], cores: []}
    cpu: dict[int, list[float]] = {1: [], cores: []}
    results = {}
    for _ in range(REPEATS):
        for p in (1, cores):
            children = resource.getrusage(resource.RUSAGE_CHILDREN)
            start, own = time.perf_counter(), time.process_time()
            results[p] = sim.compare(a, b, CORE_FIGHTS, seed=0, processes=p)
            times[p].append(time.perf_counter() - start)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            workers = (after.ru_utime + after.ru_stime) - (children.ru_utime
                                                          + children.ru_stime)
            mine = time.process_time() - own
            cpu[p].append(workers / p + mine if p > 1 else mine)
    one, many = statistics.median(times[1]), statistics.median(times[cores])
    return {"cores": cores, "one": one, "many": many, "speedup": one / many,
            "projected": statistics.median(cpu[1]) / statistics.median(cpu[cores]),
            "same": results[1] == results[cores]}


def designer_table() -> None:
    rows = designer_rows()
    print(f"Question du concepteur à ± {PRECISION} points (95 %), graine 0, 1 processus")
    print()
    print("| fichier | changement | vainqueur changé | écart (points) | aujourd’hui : "
          "combats, s CPU | indépendant : combats nécessaires | apparié arrêté : combats, "
          "s CPU | combats en moins |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['roster']} | {r['change']} | {100 * r['changed']:.1f} % | "  # type: ignore[operator]
              f"{100 * r['diff']:+.1f} ± {100 * r['half']:.1f} | "  # type: ignore[operator]
              f"{TODAY} ; {r['today_cpu']:.1f} | {r['unpaired']} | {r['n']} ; {r['cpu']:.1f} | "
              f"×{r['ratio']:.1f}{'' if r['reached'] else ' (précision non atteinte)'} |")
    worst = min(float(r["ratio"]) for r in rows)  # type: ignore[arg-type]
    print()
    print(f"Le moins bon gain : ×{worst:.1f} (cible ≥ 5) : "
          f"{'atteinte' if worst >= 5 else 'MANQUÉE'}.")


def main() -> int:
    if "--coeurs" not in sys.argv:
        designer_table()
    core = cores_row()
    print()
    print(f"Cœurs ({CORE_ROSTER}, {CORE_FIGHTS} paires de combats, médiane de {REPEATS}) : "
          f"temps réel 1 processus {core['one']:.1f} s, {core['cores']} processus "
          f"{core['many']:.1f} s, ×{core['speedup']:.2f} ; sur des cœurs libres (temps CPU) "
          f"×{core['projected']:.2f} (cible ≥ 1,7 sur deux cœurs) ; mêmes résultats : "
          f"{'oui' if core['same'] else 'NON'}.")
    return 0 if core["same"] else 1


if __name__ == "__main__":
    sys.exit(main())
