"""The rules kernels against their plain-Python floors inside Pyodide (``make
bench-browser``, ``bench_browser.py --plan noyau``; bench/README-browser.md).

A page served beside the built site (``/__bench__/noyau.html``) boots the site's Pyodide,
installs the site's ``escarmouche`` wheel with ``loadPackage`` (from the site's lock, as
JupyterLite does), writes ``bench/kernel_floors.py`` and the four floors
(``bench/floor_*.py``) into Pyodide's file system as the package ``escbench``, and runs
:func:`bench.kernel_floors.measure`: each duel's floor held to its kernel, then the floor
and ``simulate`` (the kernel) alternating, medians in µs per fight. The same function runs
here, in CPython, between the browser's runs: the two ratios kernel / floor answer the
same question in the two Pythons, and their quotient says what the browser costs.

Chromium, headless, desktop; one fresh page per repeat; timed by the page's own clock
(``time.perf_counter`` in Pyodide, the page has one thread). The machine must be quiet:
the load average is printed before and after.
"""

from __future__ import annotations

import json
import os
import statistics
from pathlib import Path
from typing import Any

from tools.browser_kit import SITE, SiteServer, launch_chromium

HERE = Path(__file__).resolve().parent
#: the modules the page writes into Pyodide's file system (package ``escbench``)
MODULES = ("kernel_floors.py", "floor_d100.py", "floor_d20.py", "floor_d12.py",
           "floor_rulebook.py")
def pyodide_page(title: str, script: str) -> str:
    """A bench page: it boots the site's Pyodide, installs the site's ``escarmouche``
    wheel (``loadPackage``, from the site's lock), runs ``script`` (JavaScript with
    ``pyodide`` and ``args``, the query string, in scope, ending with ``out``: a JSON
    text) and leaves ``window.__banc`` (the parsed ``out``, or ``{erreur}``)."""
    return f"""<!doctype html>
<html lang="fr"><head><meta charset="utf-8"><title>{title}</title></head>
<body><p id="out">…</p>
<script type="module">
const args = new URLSearchParams(location.search);
const {{ loadPyodide }} = await import("/lite/static/pyodide/pyodide.mjs");
try {{
  const pyodide = await loadPyodide({{ indexURL: "/lite/static/pyodide/" }});
  await pyodide.loadPackage(["escarmouche"], {{ messageCallback: () => {{}} }});
{script}
  window.__banc = JSON.parse(out);
  document.getElementById("out").textContent = out;
}} catch (error) {{
  window.__banc = {{ erreur: String(error) }};
}}
</script></body></html>
"""


def page_result(context: Any, url: str) -> dict[str, Any]:
    """One fresh page of :func:`pyodide_page` at ``url``: what it left, or a French
    error when it failed."""
    page = context.new_page()
    try:
        page.goto(url)
        page.wait_for_function("() => window.__banc !== undefined", timeout=900_000)
        found: dict[str, Any] = page.evaluate("() => window.__banc")
    finally:
        page.close()
    if "erreur" in found:
        raise RuntimeError(f"la page du banc a échoué : {found['erreur']}")
    return found


PAGE = pyodide_page("Noyaux contre planchers", """\
  const files = await (await fetch("/__bench__/noyau-modules.json")).json();
  pyodide.FS.mkdirTree("/home/pyodide/escbench");
  pyodide.FS.writeFile("/home/pyodide/escbench/__init__.py", "");
  for (const [name, text] of Object.entries(files)) {
    pyodide.FS.writeFile("/home/pyodide/escbench/" + name, text);
  }
  const call = `k.measure(${Number(args.get("combats"))}, ${Number(args.get("passes"))}, `
    + `${Number(args.get("controle"))})`;
  const out = pyodide.runPython("import sys\\nsys.path.insert(0, '/home/pyodide')\\n"
    + "import json\\nimport escbench.kernel_floors as k\\njson.dumps(" + call + ")");""")


def bench_files() -> dict[str, bytes]:
    """What the plan serves from memory beside the site: its page and its modules."""
    modules = {name: (HERE / name).read_text(encoding="utf-8") for name in MODULES}
    return {"/__bench__/noyau.html": PAGE.encode(),
            "/__bench__/noyau-modules.json": json.dumps(modules).encode()}


def browser_run(context: Any, base: str, fights: int, passes: int, check: int
                ) -> dict[str, dict[str, float]]:
    """One fresh page's :func:`bench.kernel_floors.measure` in Pyodide."""
    return page_result(context, f"{base}__bench__/noyau.html?combats={fights}"
                                f"&passes={passes}&controle={check}")


def _median(runs: list[dict[str, dict[str, float]]], duel: str, key: str) -> float:
    return statistics.median(r[duel][key] for r in runs)


def summarise(cpython: list[dict[str, dict[str, float]]],
              pyodide: list[dict[str, dict[str, float]]]) -> dict[str, dict[str, float]]:
    """Per duel, the medians of both Pythons: µs per fight of the floor and the kernel,
    the ratio kernel / floor in each, and Pyodide / CPython for the kernel."""
    out: dict[str, dict[str, float]] = {}
    for duel in pyodide[0]:
        row = {}
        for name, runs in (("cpython", cpython), ("pyodide", pyodide)):
            row[f"{name}_plancher_us"] = _median(runs, duel, "plancher_us")
            row[f"{name}_noyau_us"] = _median(runs, duel, "noyau_us")
            row[f"{name}_rapport"] = round(_median(runs, duel, "rapport"), 2)
        row["ecarts"] = max(r[duel]["ecarts"] for r in (*cpython, *pyodide))
        row["pyodide_sur_cpython"] = round(row["pyodide_noyau_us"] / row["cpython_noyau_us"], 2)
        out[duel] = row
    return out


def timed_main(repeat: int, fights: int, passes: int = 5, check: int = 200
               ) -> dict[str, dict[str, float]]:
    """``repeat`` runs in Chromium, each followed by one in CPython; the table printed."""
    from playwright.sync_api import sync_playwright

    from bench.kernel_floors import measure

    cpython: list[dict[str, dict[str, float]]] = []
    pyodide: list[dict[str, dict[str, float]]] = []
    with sync_playwright() as driver, launch_chromium(driver) as context, \
            SiteServer(SITE, extra=bench_files()) as server:
        context.set_default_timeout(900_000)
        for _ in range(repeat):
            pyodide.append(browser_run(context, server.url, fights, passes, check))
            cpython.append(measure(fights, passes, check))
    summary = summarise(cpython, pyodide)
    print(f"\nNoyaux de règles contre leurs planchers (médianes de {repeat} pages × {passes} "
          f"passes alternées, {fights} combats par mesure ; µs par combat) :")
    print(f"{'duel':<20}{'CPython plancher':>17}{'noyau':>8}{'×':>6}"
          f"{'Pyodide plancher':>18}{'noyau':>8}{'×':>6}{'Pyodide/CPython':>17}{'écarts':>8}")
    for duel, row in summary.items():
        print(f"{duel:<20}{row['cpython_plancher_us']:>17.1f}{row['cpython_noyau_us']:>8.1f}"
              f"{row['cpython_rapport']:>6.1f}{row['pyodide_plancher_us']:>18.1f}"
              f"{row['pyodide_noyau_us']:>8.1f}{row['pyodide_rapport']:>6.1f}"
              f"{row['pyodide_sur_cpython']:>17.2f}{row['ecarts']:>8.0f}")
    spans = {name: (min(row[f"{name}_rapport"] for row in summary.values()),
                    max(row[f"{name}_rapport"] for row in summary.values()))
             for name in ("pyodide", "cpython")}
    print(f"Les noyaux sont à {spans['pyodide'][0]:.1f}–{spans['pyodide'][1]:.1f}× leurs "
          f"planchers dans le navigateur, à {spans['cpython'][0]:.1f}–"
          f"{spans['cpython'][1]:.1f}× en CPython (les mêmes combats, la même mesure).")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"Charge de la machine à la fin (uptime) : {load}")
    return summary
