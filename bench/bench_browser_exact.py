"""The exact duels inside Pyodide (``make bench-browser`` with ``--plan exact``;
bench/README-browser.md): the same answer as CPython, and the solve time of each example
duel in the browser.

A page served beside the built site (``/__bench__/exact.html``) boots the site's Pyodide,
installs the site's ``escarmouche`` wheel with ``loadPackage`` (from the site's lock, as
JupyterLite does) and runs :func:`solve` on the four example duels: each one's exact law
as fractions (``ExactDuel.to_json``) and its CPU time, once in floats (what the pages
show) and once in fractions. The same function runs here, in CPython, between the
browser's runs: the fractions must be equal to the digit (CORE-DICE: the enumeration
draws nothing, so the two Pythons must agree exactly), and the times' quotient says what
the browser costs.
"""

from __future__ import annotations

import json
import os
import statistics
import time
from typing import Any

from bench.bench_browser_kernel import page_result, pyodide_page
from tools.browser_kit import SITE, SiteServer, launch_chromium

#: the example duels solved (one per system)
DUELS = ("d100-duel", "d20-duel", "d12-duel", "rulebook-duel")
#: the module the page writes into Pyodide's file system and runs
SOLVER = '''
import json, time
from escarmouche.exact import duel

def solve(names, max_turns):
    out = {}
    for name in names:
        start = time.process_time()
        floats = duel(name, max_turns=max_turns, exact=False)
        middle = time.process_time()
        exact = duel(name, max_turns=max_turns)
        end = time.process_time()
        out[name] = {"loi": exact.to_json(), "flottants": floats.floats,
                     "flottants_s": middle - start, "fractions_s": end - middle}
    return out
'''
PAGE = pyodide_page("Duels exacts", """\
  const solver = await (await fetch("/__bench__/exact_solver.py")).text();
  pyodide.FS.writeFile("/home/pyodide/exact_solver.py", solver);
  const names = JSON.stringify((args.get("duels") || "").split(","));
  const out = pyodide.runPython("import sys, json\\nsys.path.insert(0, '/home/pyodide')\\n"
    + "import exact_solver\\njson.dumps(exact_solver.solve(" + names + ", "
    + Number(args.get("tours")) + "))");""")


def solve(names: tuple[str, ...], max_turns: int) -> dict[str, Any]:
    """What the page runs in Pyodide, run here in CPython (the same source)."""
    scope: dict[str, Any] = {}
    exec(SOLVER, scope)  # the page's own module, run in both Pythons
    found: dict[str, Any] = scope["solve"](list(names), max_turns)
    return found


def bench_files() -> dict[str, bytes]:
    """What the plan serves from memory beside the site: its page and its module."""
    return {"/__bench__/exact.html": PAGE.encode(),
            "/__bench__/exact_solver.py": SOLVER.encode()}


def browser_run(context: Any, base: str, names: tuple[str, ...], max_turns: int
                ) -> dict[str, Any]:
    """One fresh page's :func:`solve` in Pyodide."""
    return page_result(context, f"{base}__bench__/exact.html?duels={','.join(names)}"
                                f"&tours={max_turns}")


def timed_main(repeat: int, max_turns: int = 50) -> dict[str, dict[str, float]]:
    """``repeat`` runs in Chromium, each followed by one in CPython; the table printed."""
    from playwright.sync_api import sync_playwright

    browser: list[dict[str, Any]] = []
    cpython: list[dict[str, Any]] = []
    start = time.time()
    with sync_playwright() as driver, launch_chromium(driver) as context, \
            SiteServer(SITE, extra=bench_files()) as server:
        context.set_default_timeout(900_000)
        for _ in range(repeat):
            browser.append(browser_run(context, server.url, DUELS, max_turns))
            cpython.append(solve(DUELS, max_turns))
    summary: dict[str, dict[str, float]] = {}
    print(f"\nDuels exacts à {max_turns} rounds (médianes de {repeat} pages ; s de CPU) :")
    print(f"{'duel':<16}{'CPython flottants':>19}{'fractions':>11}"
          f"{'Pyodide flottants':>19}{'fractions':>11}{'même loi':>10}")
    for name in DUELS:
        row = {f"{py}_{kind}": statistics.median(r[name][f"{kind}_s"] for r in runs)
               for py, runs in (("cpython", cpython), ("pyodide", browser))
               for kind in ("flottants", "fractions")}
        same = all(r[name]["loi"] == cpython[0][name]["loi"] for r in (*browser, *cpython))
        row["meme_loi"] = float(same)
        summary[name] = row
        print(f"{name:<16}{row['cpython_flottants']:>19.2f}{row['cpython_fractions']:>11.2f}"
              f"{row['pyodide_flottants']:>19.2f}{row['pyodide_fractions']:>11.2f}"
              f"{'oui' if same else 'NON':>10}")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"En {time.time() - start:.0f} s ; charge de la machine à la fin : {load}")
    return summary


if __name__ == "__main__":
    import sys

    print(json.dumps(timed_main(int(sys.argv[1]) if len(sys.argv) > 1 else 1)))
