"""How long a reader waits for a live widget, against a bare Pyodide boot (``make bench-browser``).

Measured in the same run, on the built site (``make book``), served on 127.0.0.1, each
sample in a fresh (cold) Chromium profile unless said otherwise:

- ``bare``: a tiny page (served from memory at ``/__bench__/bare.html``) imports
  ``lite/static/pyodide/pyodide.mjs`` from the site and runs ``1+1``: navigation →
  result. The floor: what any in-browser Python costs.
- ``lite``: the book's live notebook (``book/essai-navigateur``) in JupyterLite's
  Notebook app; as soon as the notebook is on screen the script runs all cells (a
  reader's click), and stops the clock when the widget's label shows its first
  result: navigation → first live widget result.
- The steps that took ``lite`` from a naive site to the built one, measured together:
  each variant undoes the steps after it, by rewriting what the browser receives
  (``jupyter-lite.json``, the notebook, the lock and its wheels), served from memory by
  the variant's own local server, so every variant runs against the same build:
  ``0-naive`` (the kernel installs its packages with piplite and the notebook starts
  with ``%pip install escarmouche ipywidgets``; plain PyPI wheels; every extension and
  the service worker on), ``1-preload`` (``loadPyodideOptions.packages``: everything
  loaded by ``loadPyodide`` from the rewritten lock), ``2-bytecode`` (wheels with
  Python 3.14 bytecode), ``3-trimmed`` (unused JupyterLab extensions disabled),
  ``4-no-sw`` (no service worker: the built site). Then warm runs of the built site: a
  second navigation in the same profile, the server answering ``no-cache`` (as
  ``make serve``) or ``max-age=3600``.

The ratio ``lite / bare`` (medians, cold) is the figure to attack. The script also reports
the site's size (MB, files) and what one cold load of the live notebook transfers.
Results go to stdout and to ``artifacts/bench-browser.json``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools.browser_kit import (  # noqa: E402  (after the sys.path line above)
    SITE,
    RequestLog,
    SiteServer,
    launch_chromium,
    lite_notebook_url,
    run_all_cells,
)

DEMO = "book/essai-navigateur"
FIRST_RESULT = "Test de compétence à 50"
TIMEOUT_MS = 180_000
BARE_PAGE = b"""<!doctype html>
<html lang="fr"><head><meta charset="utf-8"><title>Pyodide nu</title></head>
<body><p id="out">...</p>
<script type="module">
const { loadPyodide } = await import("/lite/static/pyodide/pyodide.mjs");
const pyodide = await loadPyodide({ indexURL: "/lite/static/pyodide/" });
const value = pyodide.runPython("1+1");
document.getElementById("out").textContent = String(value);
window.__bare = { value, ms: performance.now() };
</script></body></html>
"""
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"


def site_size(path: Path) -> dict[str, float]:
    files = [p for p in path.rglob("*") if p.is_file()]
    return {"mb": round(sum(p.stat().st_size for p in files) / 1e6, 1), "files": len(files)}


# --- what the variants undo -----------------------------------------------------------

SW_PLUGIN = "@jupyterlite/application-extension:service-worker-manager"
Files = dict[str, bytes]


def _edit_json(files: Files, url: str, change: Callable[[Any], None]) -> None:
    raw = files.get(url) or (SITE / url.lstrip("/")).read_bytes()
    data = json.loads(raw)
    change(data)
    files[url] = json.dumps(data).encode("utf-8")


def _disabled(config: Any) -> list[str]:
    disabled: list[str] = config["jupyter-config-data"].setdefault("disabledExtensions", [])
    return disabled


def with_service_worker(files: Files) -> None:
    """Step 4 undone: JupyterLite's service worker registered again."""
    _edit_json(files, "/lite/jupyter-lite.json",
               lambda c: _disabled(c).remove(SW_PLUGIN) if SW_PLUGIN in _disabled(c) else None)


def untrimmed(files: Files) -> None:
    """Step 3 undone: every JupyterLab extension active (service worker aside)."""
    def change(config: Any) -> None:
        disabled = _disabled(config)
        disabled[:] = [d for d in disabled if d == SW_PLUGIN]
    _edit_json(files, "/lite/jupyter-lite.json", change)


def plain_wheels(files: Files) -> None:
    """Step 2 undone: the wheels as downloaded (no bytecode), with their own lock."""
    from tools import build_site

    project = sorted((ROOT / "_build" / "project-wheel").glob("escarmouche-*.whl"))
    with tempfile.TemporaryDirectory() as tmp:
        dest = Path(tmp)
        wheels = []
        for wheel in build_site.plain_kernel_wheels(project[-1]):
            shutil.copyfile(wheel, dest / wheel.name)
            wheels.append(dest / wheel.name)
        build_site.write_lock(build_site.NODE_MODULES / "pyodide" / "pyodide-lock.json",
                              wheels, dest)
        for path in dest.iterdir():
            files[f"/lite/static/pyodide/{path.name}"] = path.read_bytes()


def no_preload(files: Files) -> None:
    """Step 1 undone: the kernel installs its packages with piplite, one by one, and the
    notebook starts with ``%pip install escarmouche ipywidgets`` (from the local index)."""
    def config(data: Any) -> None:
        kernel = data["jupyter-config-data"]["litePluginSettings"][KERNEL_PLUGIN]
        kernel.pop("loadPyodideOptions", None)

    def notebook(nb: Any) -> None:
        nb["cells"].insert(0, {"cell_type": "code", "execution_count": None,
                               "id": "bench-pip", "metadata": {}, "outputs": [],
                               "source": ["%pip install escarmouche ipywidgets"]})
    _edit_json(files, "/lite/jupyter-lite.json", config)
    _edit_json(files, f"/lite/files/{DEMO}.ipynb", notebook)


#: Cumulative steps, from the naive site to the built one: each variant undoes the
#: steps after it. Files are served from memory by the variant's own local server (a
#: Playwright route would turn the HTTP cache off and skew the timings).
STEPS: dict[str, list[Callable[[Files], None]]] = {
    "0-naive": [with_service_worker, untrimmed, plain_wheels, no_preload],
    "1-preload": [with_service_worker, untrimmed, plain_wheels],
    "2-bytecode": [with_service_worker, untrimmed],
    "3-trimmed": [with_service_worker],
    "4-no-sw": [],
}


def variant_files(kind: str) -> Files:
    files: Files = {"/__bench__/bare.html": BARE_PAGE}
    for undo in STEPS.get(kind, []):
        undo(files)
    return files


# --- one sample -------------------------------------------------------------------------


def time_bare(page: Any, base: str) -> float:
    start = time.perf_counter()
    page.goto(f"{base}__bench__/bare.html")
    page.wait_for_function("() => window.__bare && window.__bare.value === 2",
                           timeout=TIMEOUT_MS, polling=20)
    return time.perf_counter() - start


def time_lite(page: Any, base: str) -> dict[str, float]:
    start = time.perf_counter()
    page.goto(lite_notebook_url(base, DEMO))
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=TIMEOUT_MS)
    ui = time.perf_counter() - start
    run_all_cells(page, timeout_s=TIMEOUT_MS / 1000)
    page.wait_for_function(
        "(text) => Array.from(document.querySelectorAll('.widget-html-content'))"
        ".some(e => e.innerText.includes(text))",
        arg=FIRST_RESULT, timeout=TIMEOUT_MS, polling=20)
    return {"ui": ui, "widget": time.perf_counter() - start}


def sample(playwright: Any, server: SiteServer, kind: str, warm: bool = False
           ) -> dict[str, Any]:
    """One measure in a fresh profile (a first, unmeasured visit when ``warm``)."""
    base = server.url
    with launch_chromium(playwright) as context:
        log = RequestLog()
        log.attach(context, block=False)
        if warm:
            first = context.new_page()
            (time_bare(first, base) if kind == "bare" else time_lite(first, base))
            first.close()
            log.requests.clear()
        sent, hits = server.httpd.bytes_sent, server.httpd.hits
        page = context.new_page()
        if kind == "bare":
            result: dict[str, Any] = {"total": time_bare(page, base)}
        else:
            times = time_lite(page, base)
            result = {"total": times["widget"], "ui": times["ui"]}
        result["requests"] = len(log.requests)
        result["served"] = server.httpd.hits - hits
        result["mb"] = round((server.httpd.bytes_sent - sent) / 1e6, 2)
        if log.external():
            raise RuntimeError(f"requests off 127.0.0.1: {log.external()}")
        page.close()
        return result


# --- the run ----------------------------------------------------------------------------


def measure(repeat: int, only: list[str]) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    plan = [("bare", False, 0), *((step, False, 0) for step in STEPS),
            ("bare", True, 0), ("4-no-sw", True, 0), ("4-no-sw", True, 3600)]
    results: dict[str, Any] = {}
    with sync_playwright() as playwright:
        servers = {(kind, cache): SiteServer(SITE, cache_seconds=cache,
                                             extra=variant_files(kind))
                   for kind, _, cache in plan}
        for server in servers.values():
            server.__enter__()
        try:
            for _round in range(repeat):  # interleaved, so that drift hits every kind
                for kind, warm, cache in plan:
                    name = kind + ("-warm" if warm else "") + (f"-max-age{cache}" if cache else "")
                    if only and name not in only:
                        continue
                    got = sample(playwright, servers[kind, cache], kind, warm)
                    results.setdefault(name, []).append(got)
                    print(f"  {name:<24} {got['total']:6.2f} s  ({got['requests']} requêtes, "
                          f"{got['served']} servies, {got['mb']} Mo)", flush=True)
        finally:
            for server in servers.values():
                server.__exit__(None, None, None)
    return results


def summarise(results: dict[str, Any]) -> dict[str, Any]:
    summary: dict[str, Any] = {}
    for name, samples in results.items():
        totals = [s["total"] for s in samples]
        summary[name] = {
            "median_s": round(statistics.median(totals), 2),
            "min_s": round(min(totals), 2),
            "max_s": round(max(totals), 2),
            "requests": samples[-1]["requests"],
            "served": samples[-1]["served"],
            "transfer_mb": samples[-1]["mb"],
        }
        if "ui" in samples[0]:
            summary[name]["ui_median_s"] = round(statistics.median(s["ui"] for s in samples), 2)
    bare = summary.get("bare", {}).get("median_s")
    for name, row in summary.items():
        if bare and name != "bare":
            row["ratio_to_bare"] = round(row["median_s"] / bare, 2)
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--repeat", type=int, default=3, help="samples per kind (median)")
    parser.add_argument("--only", nargs="*", default=[], help="kinds to run (default: all)")
    parser.add_argument("--out", type=Path, default=ROOT / "artifacts" / "bench-browser.json")
    args = parser.parse_args(argv)
    if not (SITE / "lite" / "jupyter-lite.json").is_file():
        print("le site n’est pas construit : make book", file=sys.stderr)
        return 2
    sizes = {"site": site_size(SITE), "lite": site_size(SITE / "lite")}
    print(f"Site : {sizes['site']['mb']} Mo, {sizes['site']['files']} fichiers "
          f"(dont JupyterLite : {sizes['lite']['mb']} Mo, {sizes['lite']['files']} fichiers)")
    summary = summarise(measure(args.repeat, args.only))
    print(f"\n{'mesure':<26}{'médiane':>9}{'min':>8}{'max':>8}{'ratio':>8}{'requêtes':>10}"
          f"{'servies':>9}{'Mo':>8}")
    for name, row in summary.items():
        ratio = row.get("ratio_to_bare", 1.0 if name == "bare" else "")
        print(f"{name:<26}{row['median_s']:>9.2f}{row['min_s']:>8.2f}{row['max_s']:>8.2f}"
              f"{ratio!s:>8}{row['requests']:>10}{row['served']:>9}{row['transfer_mb']:>8}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"sizes": sizes, "summary": summary}, indent=2) + "\n",
                        encoding="utf-8")
    print(f"\n→ {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
