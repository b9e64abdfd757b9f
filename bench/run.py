"""Run every ``bench_*.py`` of this folder, each in a fresh interpreter, and print them.

Usage: ``python bench/run.py [name-filter]`` (``make bench``). Each benchmark prints its
own table of ratios against peers measured in the same run; see ``bench/README.md``.
Exit status is non-zero if any benchmark failed.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    pattern = argv[1] if len(argv) > 1 else ""
    scripts = sorted(p for p in HERE.glob("bench_*.py") if pattern in p.stem)
    if not scripts:
        print(f"aucun banc d'essai ne correspond à « {pattern} »")
        return 1
    failed: list[str] = []
    for script in scripts:
        print(f"== {script.name} ==", flush=True)
        start = time.perf_counter()
        # A fresh interpreter per benchmark: no cache or import state leaks between them.
        done = subprocess.run([sys.executable, str(script)], cwd=HERE.parent, check=False)
        print(f"-- {script.name} : {time.perf_counter() - start:.1f} s\n", flush=True)
        if done.returncode:
            failed.append(script.name)
    if failed:
        print("échec : " + ", ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
