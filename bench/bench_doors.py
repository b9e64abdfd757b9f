"""The engine's doors on the rules kernels (spec/KERNEL.md): the full engine
(``Roster.play``, narrated) and a GM's « Agir » (one ``Encounter.act``), per example
roster, this tree against main before the doors moved onto the kernels
(:data:`BASE_COMMIT`, extracted from git into a temporary folder; ``--base 8bdf3e8``:
before any kernel).

Each version runs in its own interpreter (``bench/_doors.py``), the two alternating,
:data:`REPEATS` times; the medians are compared, and each is also given as a ratio to the
plain-Python floor of the README duel (``bench/floor_d100.py``) measured in the same
interpreter. CPU time; only ratios are meant to be compared (the machine is shared).
``--quick`` runs fewer fights. ``--base COMMIT`` measures against another commit.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_simulation import extract_base  # noqa: E402

#: main when the doors moved onto the d100 kernel (spec/KERNEL.md, branch ``h39``)
BASE_COMMIT = "ce7ae8d"
QUICK = "--quick" in sys.argv
REPEATS = 3 if QUICK else 7
FULL, ACTS = (8, 40) if QUICK else (30, 200)


def run(src: Path | None) -> dict[str, float]:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "_doors.py"), str(FULL),
                           str(ACTS)], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=True)
    data: dict[str, float] = json.loads(done.stdout)
    return data


def main() -> int:
    base_commit = BASE_COMMIT
    if "--base" in sys.argv:
        base_commit = sys.argv[sys.argv.index("--base") + 1]
    with tempfile.TemporaryDirectory() as tmp:
        base_src = extract_base(Path(tmp), base_commit)
        if base_src is None:
            print("pas d’historique git : la référence n’est pas mesurable ici")
            return 0
        base, ours = [], []
        for _ in range(REPEATS):
            base.append(run(base_src))
            ours.append(run(None))
    print(f"== Les portes du moteur contre {base_commit} (médianes de {REPEATS} passes "
          f"alternées ; {FULL} combats complets, {ACTS} « Agir » ; µs de CPU)")
    print(f"{'mesure':<28} {'avant µs':>9} {'après µs':>9} {'gain ×':>7} "
          f"{'avant/plancher':>15} {'après/plancher':>15}")
    fb = statistics.median(r["plancher"] for r in base)
    fo = statistics.median(r["plancher"] for r in ours)
    for key in ours[0]:
        if key == "plancher":
            continue
        b = statistics.median(r[key] for r in base)
        o = statistics.median(r[key] for r in ours)
        print(f"{key:<28} {b:>9.0f} {o:>9.0f} {b / o:>7.2f} {b / fb:>15.0f} {o / fo:>15.0f}")
    print(f"plancher (duel du README) : {fb:.1f} µs avant, {fo:.1f} µs après")
    return 0


if __name__ == "__main__":
    sys.exit(main())
