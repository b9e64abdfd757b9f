"""How long a reader waits for a live widget, against a bare Pyodide boot (``make bench-browser``).

The default plan (``--plan pocket``, bench/README-browser.md): the first live result after
« Activer » on ``book/essai-navigateur`` (navigation → click as soon as the button shows →
the live widget's first result) against a bare Pyodide boot in the same run, each in a fresh
profile, on desktop and in a 390 px phone context (``tools.browser_kit.PHONE_DEVICE``);
then, once a first visit has put the runtime in the service worker's cache, the same against
the bare boot with an empty cache. Rounds alternate the order of the kinds; the ratios are
of medians. Each live sample keeps the page's timeline (``window.escarmoucheLive.timings``)
and the request waterfall of the page and its worker in ``artifacts/bench-browser.json``.

``--plan steps``, the earlier plan, measured in the same run, on the built site
(``make book``), served on 127.0.0.1, each sample in a fresh (cold) Chromium profile
unless said otherwise:

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

- ``live``: the same page in the book itself, « Activer » clicked as soon as the page
  shows it (book/_static/live/: Pyodide in a worker, widgets bridged to the page's
  widget manager, tools/widgets/live-manager.mjs): navigation → the live widget's
  label shows its first result. The page starts Python at load (``prestart``), so the
  click finds it under way.
  ``live-click3s``: the click 3 s after navigation. The steps that made it, undone one
  by one the same way as the lite ones (rewritten files served from memory):
  ``live-0-ipython`` (the real IPython and the untrimmed lock: jedi, prompt_toolkit,
  pygments… instead of kernel.py's stand-in), ``live-1-no-prestart`` (Python starts at
  the click only).

The ratio ``lite / bare`` (medians, cold) is the figure to attack. The script also reports
the site's size (MB, files; and gzipped, as a compressing server would send it) and what
one cold load transfers, raw and gzipped (each file the browser asked for, gzipped).
Results go to stdout and to ``artifacts/bench-browser.json``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from tools.browser_kit import (
    PHONE_DEVICE,
    SITE,
    RequestLog,
    SiteServer,
    launch_chromium,
    lite_notebook_url,
    run_all_cells,
)

ROOT = Path(__file__).resolve().parent.parent

DEMO = "book/essai-navigateur"
FIRST_RESULT = "Test de compétence à 50"
TIMEOUT_MS = 180_000
#: Pyodide's own ``python_stdlib.zip`` (sources), as Pyodide ships it: the bare page's, so
#: that the floor stays a stock Pyodide boot; the site serves the same zip with the
#: modules a live page imports compiled (tools/lite/precompile_stdlib.mjs).
STOCK_STDLIB = ROOT / "node_modules" / "pyodide" / "python_stdlib.zip"


def _bare_page(stdlib: str) -> bytes:
    """``loadPyodide`` from the site's core files with the standard library at
    ``stdlib``, then ``1+1``: navigation → result, by the page's own clock."""
    return ("""<!doctype html>
<html lang="fr"><head><meta charset="utf-8"><title>Pyodide nu</title></head>
<body><p id="out">...</p>
<script type="module">
const { loadPyodide } = await import("/lite/static/pyodide/pyodide.mjs");
const pyodide = await loadPyodide({ indexURL: "/lite/static/pyodide/", stdLibURL: "STDLIB" });
const value = pyodide.runPython("1+1");
document.getElementById("out").textContent = String(value);
window.__bare = { value, ms: performance.now() };
</script></body></html>
""".replace("STDLIB", stdlib)).encode()


#: ``bare``: a stock Pyodide boot (Pyodide's own standard library, sources)
BARE_PAGE = _bare_page("/__bench__/python_stdlib.zip")
#: ``bare-site``: the same boot with the site's standard library (compiled where a live
#: page imports it), to tell what the compiled modules buy from what the page adds
BARE_SITE_PAGE = _bare_page("/lite/static/pyodide/python_stdlib.zip")


def bench_files() -> dict[str, bytes]:
    """What the bench serves from memory beside the site: the two bare pages and the
    stock standard library."""
    return {"/__bench__/bare.html": BARE_PAGE, "/__bench__/bare-site.html": BARE_SITE_PAGE,
            "/__bench__/python_stdlib.zip": STOCK_STDLIB.read_bytes()}
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


LIVE_PAGE = "/book/essai-navigateur.html"
LIVE_STATIC = "/_static/live/"


def _edit_text(files: Files, url: str, change: Callable[[str], str]) -> None:
    raw = files.get(url) or (SITE / url.lstrip("/")).read_bytes()
    new = change(raw.decode("utf-8"))
    if new == raw.decode("utf-8"):
        raise RuntimeError(f"{url}: the variant changed nothing (the code moved?)")
    files[url] = new.encode("utf-8")


def live_no_prestart(files: Files) -> None:
    """Live step 1 undone: Python starts at the click, not while the page is read."""
    _edit_text(files, LIVE_PAGE, lambda t: t.replace('data-live-prestart="1"',
                                                     'data-live-prestart="0"'))


def live_real_ipython(files: Files) -> None:
    """Live step 0 undone: the real IPython (and jedi, prompt_toolkit, pygments…) from
    the lock as it is, instead of kernel.py's minimal stand-in."""
    _edit_text(files, LIVE_STATIC + "live-worker.mjs", lambda t: t.replace(
        "lockFileContents: lock,", "lockFileContents: lock.then(() => fetch(base + "
        "'pyodide-lock.json')).then((r) => r.text()),"))
    _edit_text(files, LIVE_STATIC + "kernel.py", lambda t: t.replace(
        "    install_ipython_stand_in()\n", "    import IPython  # noqa: F401\n"))


#: The in-page path, from naive to built (each variant undoes the steps after it).
LIVE_STEPS: dict[str, list[Callable[[Files], None]]] = {
    "live-0-ipython": [live_real_ipython, live_no_prestart],
    "live-1-no-prestart": [live_no_prestart],
    "live": [],
    "live-click3s": [],
}
LIVE_CLICK_DELAY = {"live-click3s": 3.0}


_VARIANTS: dict[str, Files] = {}


def variant_files(kind: str) -> Files:
    if kind not in _VARIANTS:
        files: Files = bench_files()
        for undo in STEPS.get(kind, LIVE_STEPS.get(kind, [])):
            undo(files)
        _VARIANTS[kind] = files
    return _VARIANTS[kind]


# --- one sample -------------------------------------------------------------------------


def time_bare(page: Any, base: str, own_clock: bool = False, name: str = "bare") -> float:
    """Navigation → Python's answer: by the page's own clock (``own_clock``: as the pocket
    plan times the live page with ``--click paint``), else by the wall clock around
    ``page.goto`` (as the JupyterLite steps are timed). ``name``: ``bare`` (stock
    Pyodide) or ``bare-site`` (the site's standard library)."""
    start = time.perf_counter()
    page.goto(f"{base}__bench__/{name}.html")
    page.wait_for_function("() => window.__bare && window.__bare.value === 2",
                           timeout=TIMEOUT_MS, polling=20)
    if own_clock:
        return float(page.evaluate("window.__bare.ms")) / 1000
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


#: When the bench presses « Activer », and how it times the page:
#:
#: - ``paint`` (the default): the reader taps the button the moment it is painted (a
#:   script in the page clicks it in the first animation frame after it is laid out; a
#:   press before live.js runs is kept), and both the live page and the bare page are
#:   timed by their own clock, from navigation start to the result (``performance.now()``
#:   when the result appears, seen by a MutationObserver). Neither side then pays the
#:   driver's own latency: Playwright's ``click`` (scroll, stability over two frames,
#:   hit test, one round trip per step) lands 0.25–0.45 s after the paint on this
#:   machine, a delay of the harness that the bare page never pays;
#: - ``visible``: Playwright clicks as soon as the button shows, timed by the wall clock
#:   around ``page.goto`` (the measure of the runs of 2 December 2026, 06:00–08:00 UTC);
#: - ``load``: Playwright clicks at the page's load event (the runs before).
CLICK = {"at": "paint"}

#: Where the live page shows a live widget's text (FIRST_RESULT is one of them).
LIVE_RESULT = ".escarmouche-live-widget[data-live=rendered] .widget-html-content"

#: ``paint``: click « Activer » once painted; note when the first live result shows
#: (formatted with FIRST_RESULT and LIVE_RESULT, as JSON).
TAP_AT_PAINT = """
(() => {
  const first = %s;
  const seen = () => Array.from(document.querySelectorAll(%s))
    .some((e) => e.innerText.includes(first));
  (function tap() {
    const b = document.querySelector("#escarmouche-live .escarmouche-live-activate");
    if (!b || !b.getClientRects().length) return void requestAnimationFrame(tap);
    requestAnimationFrame(() => { window.__tapped = performance.now(); b.click(); });
  })();
  new MutationObserver((_, observer) => {
    if (window.__result === undefined && seen()) {
      window.__result = performance.now();
      observer.disconnect();
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
})();
"""


#: « Prêt » as the GM sees it (book_src/demos/suivi-combat.md): the page the GM opens at the
#: table, the tap at first paint, and the clock stopped when the bar says « Prêt » (its
#: ``data-state`` is ``ready`` and its status line begins with the word), not at the first
#: widget result.
READY_PAGE = "/book/demos/initiative.html"
READY_AT_PAINT = """
(() => {
  (function tap() {
    const b = document.querySelector("#escarmouche-live .escarmouche-live-activate");
    if (!b || !b.getClientRects().length) return void requestAnimationFrame(tap);
    requestAnimationFrame(() => { window.__tapped = performance.now(); b.click(); });
  })();
  const ready = () => {
    const bar = document.querySelector("#escarmouche-live");
    const status = bar && bar.querySelector(".escarmouche-live-status");
    return bar && bar.getAttribute("data-state") === "ready" && status &&
      /^Prêt/.test(status.textContent.trim());
  };
  new MutationObserver((_, observer) => {
    if (window.__result === undefined && ready()) {
      window.__result = performance.now();
      observer.disconnect();
    }
  }).observe(document, { subtree: true, childList: true, characterData: true,
                         attributes: true, attributeFilter: ["data-state"] });
})();
"""


def time_ready(page: Any, base: str) -> dict[str, Any]:
    """« Activer » tapped at first paint on READY_PAGE: navigation → « Prêt » in the bar,
    by the page's own clock (as the bare page is timed); the service worker's state at
    « Prêt » says whether the book's precache was still waiting (deferred) then."""
    page.add_init_script(READY_AT_PAINT)
    page.goto(f"{base}{READY_PAGE.lstrip('/')}", wait_until="commit")
    page.wait_for_function("() => window.__result !== undefined", timeout=TIMEOUT_MS,
                           polling=50)
    got = page.evaluate("[window.__tapped, window.__result]")
    sw = page.evaluate("""async () => {
      if (!navigator.serviceWorker) return 'none';
      const r = await navigator.serviceWorker.getRegistration();
      return r ? (r.active ? 'active' : r.installing ? 'installing' : 'waiting') : 'none';
    }""")
    return {"ui": got[0] / 1000, "widget": got[1] / 1000,
            "after_click": (got[1] - got[0]) / 1000,
            "steps": page.evaluate("window.escarmoucheLive.timings"), "sw": sw}


def time_live(page: Any, base: str, click_after: float = 0.0) -> dict[str, float]:
    """« Activer » on the book page: navigation → the live widget shows its result."""
    if CLICK["at"] == "paint" and not click_after:
        page.add_init_script(TAP_AT_PAINT % (json.dumps(FIRST_RESULT), json.dumps(LIVE_RESULT)))
        page.goto(f"{base}{LIVE_PAGE.lstrip('/')}", wait_until="commit")
        page.wait_for_function("() => window.__result !== undefined", timeout=TIMEOUT_MS,
                               polling=50)
        got = page.evaluate("[window.__tapped, window.__result]")
        return {"ui": got[0] / 1000, "widget": got[1] / 1000,
                "after_click": (got[1] - got[0]) / 1000,
                "steps": page.evaluate("window.escarmoucheLive.timings")}
    start = time.perf_counter()
    page.goto(f"{base}{LIVE_PAGE.lstrip('/')}",
              wait_until="load" if CLICK["at"] == "load" else "commit")
    button = page.locator("#escarmouche-live .escarmouche-live-activate")
    button.wait_for(timeout=TIMEOUT_MS)
    ui = time.perf_counter() - start
    if click_after:
        page.wait_for_timeout(max(0.0, click_after - ui) * 1000)
    clicked = time.perf_counter()
    button.click()
    page.wait_for_function(
        "([text, where]) => Array.from(document.querySelectorAll(where))"
        ".some(e => e.innerText.includes(text))",
        arg=[FIRST_RESULT, LIVE_RESULT], timeout=TIMEOUT_MS, polling=20)
    end = time.perf_counter()
    return {"ui": ui, "widget": end - start, "after_click": end - clicked,
            "steps": page.evaluate("window.escarmoucheLive.timings")}


_GZ: dict[tuple[str, int, float], int] = {}


def gzipped_size(path: Path) -> int:
    """The file's size gzipped at level 6 (what a compressing server sends); cached."""
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime)
    if key not in _GZ:
        _GZ[key] = len(gzip.compress(path.read_bytes(), compresslevel=6, mtime=0))
    return _GZ[key]


def transfer_gz(urls: list[str], extra: Files) -> float:
    """MiB, gzipped, of the distinct local files the browser asked for."""
    total = 0
    for path in sorted({unquote(urlsplit(u).path) for u in urls if u.startswith("http")}):
        if path in extra:
            total += len(gzip.compress(extra[path], compresslevel=6, mtime=0))
            continue
        file = SITE / path.lstrip("/")
        if file.is_dir():
            file = file / "index.html"
        if file.is_file():
            total += gzipped_size(file)
    return round(total / 2**20, 2)


def site_gz(path: Path) -> float:
    """MiB: every file of ``path`` gzipped."""
    return round(sum(gzipped_size(p) for p in path.rglob("*") if p.is_file()) / 2**20, 1)


def sample(playwright: Any, server: SiteServer, kind: str, warm: bool = False
           ) -> dict[str, Any]:
    """One measure in a fresh profile (a first, unmeasured visit when ``warm``)."""
    base = server.url
    with launch_chromium(playwright) as context:
        log = RequestLog()
        log.attach(context, block=False)
        if warm:
            first = context.new_page()
            if kind == "bare":
                time_bare(first, base)
            elif kind in LIVE_STEPS:
                time_live(first, base)
            else:
                time_lite(first, base)
            first.close()
            log.requests.clear()
        sent, hits = server.httpd.bytes_sent, server.httpd.hits
        page = context.new_page()
        if kind == "bare":
            result: dict[str, Any] = {"total": time_bare(page, base)}
        elif kind in LIVE_STEPS:
            times = time_live(page, base, LIVE_CLICK_DELAY.get(kind, 0.0))
            result = {"total": times["widget"], "ui": times["ui"],
                      "after_click": times["after_click"], "steps": times["steps"]}
        else:
            times = time_lite(page, base)
            result = {"total": times["widget"], "ui": times["ui"]}
        result["requests"] = len(log.requests)
        result["served"] = server.httpd.hits - hits
        result["mb"] = round((server.httpd.bytes_sent - sent) / 1e6, 2)
        result["gz_mib"] = transfer_gz(log.requests, variant_files(kind))
        if log.external():
            raise RuntimeError(f"requests off 127.0.0.1: {log.external()}")
        page.close()
        return result


# --- the pocket plan: « Activer » against a bare boot, phone and desktop ------------------

#: ``make bench-browser``'s default plan (bench/README-browser.md, « live at once »): each
#: kind in its own fresh profile; ``-phone`` kinds in a 390 px phone context (PHONE_DEVICE);
#: the ``live-cached`` kinds once the runtime is in the service worker's cache (a first
#: visit downloaded it with « Disponible hors ligne »), against a bare boot with an empty
#: cache.
POCKET = ("bare", "live", "bare-phone", "live-phone", "live-cached", "live-cached-phone",
          "live-used", "live-used-phone")
#: ``--plan ready`` (book_src/demos/suivi-combat.md): navigation → « Prêt » on READY_PAGE as
#: the GM sees it, on a cold first visit with the service worker allowed (the book's
#: precache deferred until Python is up), desktop and phone; ``-cached``: after a first
#: visit kept the book and the runtime (« Garder le livre et Python sur cet appareil »);
#: ``ready-nosw``: the service worker blocked, to see what the precache still costs.
#: ``bare-site``: the bare boot with the site's standard library (its imported modules
#: compiled), against which the ratio says what the page adds to Python itself.
READY = ("bare", "ready", "bare-phone", "ready-phone", "ready-cached", "ready-cached-phone",
         "bare-site", "bare-site-phone")
READY_RATIOS = (
    ("ready", "bare", 1.3), ("ready-phone", "bare-phone", 1.3),
    ("ready", "bare-site", 1.3), ("ready-phone", "bare-site-phone", 1.3),
    ("bare-site", "bare", 1.0), ("bare-site-phone", "bare-phone", 1.0),
    ("ready-nosw", "bare", 1.3),
    ("ready-cached", "bare", 1.0), ("ready-cached-phone", "bare-phone", 1.0),
)
#: (kind, reference, target): the target ratios of bench/README.md.
POCKET_RATIOS = (
    ("live", "bare", 1.3), ("live-phone", "bare-phone", 1.3),
    ("live-cached", "bare", 1.0), ("live-cached-phone", "bare-phone", 1.0),
    ("live-used", "bare", 1.0), ("live-used-phone", "bare-phone", 1.0),
)
SW_CONTROLS = """async () => {
  await navigator.serviceWorker.ready;
  for (let i = 0; i < 1200 && !navigator.serviceWorker.controller; i++) {
    await new Promise((r) => setTimeout(r, 100));
  }
  return !!navigator.serviceWorker.controller;
}"""


def prime_runtime(context: Any, base: str) -> None:
    """A first visit: the service worker installed (the book precached), then the whole
    live runtime downloaded into its cache and Python's memory snapshot made, as
    « Disponible hors ligne » does (``escarmoucheOffline.keepOffline``)."""
    page = context.new_page()
    page.goto(f"{base}{LIVE_PAGE.lstrip('/')}")
    if not page.evaluate(SW_CONTROLS):
        raise RuntimeError("le service worker ne contrôle pas la page")
    page.evaluate("() => window.escarmoucheOffline.keepOffline().then(() => true)")
    if not page.evaluate("() => window.escarmoucheOffline.plan().then((p) => p.cached)"):
        raise RuntimeError("le runtime n’est pas dans le cache après le téléchargement")
    page.close()


def prime_use(context: Any, base: str) -> None:
    """After :func:`prime_runtime`, one live use of the page (« Activer », to the first
    live result), as a reader who has used the live book once: the browser then also
    keeps what it compiled from the cached runtime (V8's WebAssembly code cache, written
    a few seconds after the module is compiled, keyed by the response's URL)."""
    page = context.new_page()
    time_live(page, base)
    page.wait_for_timeout(6000)
    page.close()


def waterfall(page: Any, started_ms: float) -> list[dict[str, Any]]:
    """The requests of a page and its worker, from Playwright: start and end (ms after
    navigation), for the profile in bench/README-browser.md."""
    rows: list[dict[str, Any]] = []

    def done(request: Any) -> None:
        timing = request.timing
        start = timing.get("startTime", 0) - started_ms
        end = timing.get("responseEnd", -1)
        rows.append({"url": urlsplit(request.url).path, "start_ms": round(start),
                     "end_ms": round(start + end) if end >= 0 else None})

    page.on("requestfinished", done)
    return rows


def pocket_sample(playwright: Any, server: SiteServer, kind: str) -> dict[str, Any]:
    """One pocket-plan measure in a fresh profile (see POCKET)."""
    base = server.url
    used = "used" in kind
    cached = "cached" in kind or used
    ready = kind.startswith("ready")
    device = PHONE_DEVICE if kind.endswith("-phone") else None
    # « Prêt » is timed as a GM meets it on a first visit: the service worker allowed
    allow = cached or (ready and "nosw" not in kind)
    with launch_chromium(playwright, service_workers="allow" if allow else "block",
                         device=device) as context:
        log = RequestLog()
        log.attach(context, block=False)
        if cached:
            prime_runtime(context, base)
            if used:
                prime_use(context, base)
            log.requests.clear()
        sent, hits = server.httpd.bytes_sent, server.httpd.hits
        page = context.new_page()
        rows = waterfall(page, time.time() * 1000)
        if kind.startswith("bare"):
            name = "bare-site" if kind.startswith("bare-site") else "bare"
            result: dict[str, Any] = {"total": time_bare(page, base, name=name,
                                                         own_clock=CLICK["at"] == "paint")}
        else:
            times = time_ready(page, base) if ready else time_live(page, base)
            result = {"total": times["widget"], "ui": times["ui"],
                      "after_click": times["after_click"], "steps": times["steps"]}
            if ready:
                result["sw"] = times["sw"]
        result["requests"] = len(log.requests)
        result["served"] = server.httpd.hits - hits
        result["mb"] = round((server.httpd.bytes_sent - sent) / 1e6, 2)
        result["gz_mib"] = transfer_gz(log.requests, {})
        result["waterfall"] = sorted(rows, key=lambda r: r["start_ms"])
        if log.external():
            raise RuntimeError(f"requests off 127.0.0.1: {log.external()}")
        page.close()
        return result


def measure_pocket(repeat: int, only: list[str], plan: tuple[str, ...] = POCKET
                   ) -> dict[str, Any]:
    """POCKET (or READY), ``repeat`` rounds, the order reversed every other round
    (alternating runs: a drift of the machine's load hits every kind alike)."""
    from playwright.sync_api import sync_playwright

    kinds = [k for k in (*plan, "ready-nosw") if (not only and k in plan) or k in only]
    results: dict[str, Any] = {}
    with sync_playwright() as playwright, \
            SiteServer(SITE, extra=bench_files()) as server:
        for round_ in range(repeat):
            for kind in (kinds if round_ % 2 == 0 else kinds[::-1]):
                got = pocket_sample(playwright, server, kind)
                results.setdefault(kind, []).append(got)
                print(f"  {kind:<20} {got['total']:6.2f} s  ({got['requests']} requêtes, "
                      f"{got['mb']} Mo)" + (f" ; après le clic {got['after_click']:.2f} s"
                                            if "after_click" in got else "")
                      + (f" ; Python {got['steps']['snapshot']}"
                         if got.get("steps", {}).get("snapshot") else "")
                      + (f" ; service worker à « Prêt » : {got['sw']}" if "sw" in got else ""),
                      flush=True)
    return results


# --- the run ----------------------------------------------------------------------------


def measure(repeat: int, only: list[str]) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    plan = [("bare", False, 0), *((step, False, 0) for step in STEPS),
            *((step, False, 0) for step in LIVE_STEPS),
            ("bare", True, 0), ("4-no-sw", True, 0), ("4-no-sw", True, 3600),
            ("live", True, 0)]
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
                          f"{got['served']} servies, {got['mb']} Mo, {got['gz_mib']} Mio gz)"
                          + (f" ; après le clic {got['after_click']:.2f} s"
                             if "after_click" in got else ""), flush=True)
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
            "transfer_gz_mib": samples[-1]["gz_mib"],
        }
        if "ui" in samples[0]:
            summary[name]["ui_median_s"] = round(statistics.median(s["ui"] for s in samples), 2)
        if "after_click" in samples[0]:
            summary[name]["after_click_median_s"] = round(
                statistics.median(s["after_click"] for s in samples), 2)
            summary[name]["steps_ms"] = samples[-1]["steps"]
            summary[name]["steps_ms_all"] = [s["steps"] for s in samples]
            ups = [s["steps"]["worker-python"] - s["steps"]["click"] for s in samples
                   if "worker-python" in s["steps"] and "click" in s["steps"]]
            if ups:  # the tap → Python up (from the cache, or downloaded)
                summary[name]["python_after_click_median_s"] = round(
                    statistics.median(ups) / 1000, 2)
        if "sw" in samples[-1]:
            summary[name]["service_worker_at_ready"] = [s["sw"] for s in samples]
        if "waterfall" in samples[-1]:
            summary[name]["waterfall"] = samples[-1]["waterfall"]
    bare = summary.get("bare", {}).get("median_s")
    for name, row in summary.items():
        if bare and name != "bare":
            row["ratio_to_bare"] = round(row["median_s"] / bare, 2)
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--repeat", type=int, default=3, help="samples per kind (median)")
    parser.add_argument("--plan", choices=("pocket", "ready", "steps", "pool", "noyau",
                                           "exact"),
                        default="pocket",
                        help="pocket: « Activer » against a bare boot, phone and desktop, "
                             "cold and cached (the default); ready: navigation → « Prêt » "
                             "on the initiative demo, service worker allowed; steps: the "
                             "JupyterLite and live steps of the earlier runs; pool: the "
                             "Atelier's answer on 1 worker and on the pool "
                             "(bench/bench_browser_pool.py); noyau: the rules kernels "
                             "against their floors in Pyodide and in CPython "
                             "(bench/bench_browser_kernel.py); exact: the example duels "
                             "solved exactly in Pyodide and in CPython, the same law and "
                             "the time (bench/bench_browser_exact.py)")
    parser.add_argument("--combats", type=int, default=None,
                        help="--plan pool: exactly this many fights per rule set (default: "
                             "the Atelier's ± 2 points); --plan noyau: fights per measure "
                             "(default: 1000)")
    parser.add_argument("--only", nargs="*", default=[], help="kinds to run (default: all)")
    parser.add_argument("--out", type=Path, default=ROOT / "artifacts" / "bench-browser.json")
    parser.add_argument("--click", choices=("paint", "visible", "load"), default="paint",
                        help="« Activer » tapped once painted, both pages timed by their own "
                             "clock (the default); or Playwright's click as soon as the "
                             "button shows, or at the page's load event (earlier runs), "
                             "timed by the wall clock")
    args = parser.parse_args(argv)
    CLICK["at"] = args.click
    if not (SITE / "lite" / "jupyter-lite.json").is_file():
        print("le site n’est pas construit : make book", file=sys.stderr)
        return 2
    sizes = {"site": site_size(SITE), "lite": site_size(SITE / "lite")}
    sizes["site"]["gz_mib"] = site_gz(SITE)
    sizes["lite"]["gz_mib"] = site_gz(SITE / "lite")
    print(f"Site : {sizes['site']['mb']} Mo, {sizes['site']['files']} fichiers, "
          f"{sizes['site']['gz_mib']} Mio gzip (dont JupyterLite : {sizes['lite']['mb']} Mo, "
          f"{sizes['lite']['files']} fichiers, {sizes['lite']['gz_mib']} Mio gzip)")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"Charge de la machine au départ (uptime) : {load}")
    if args.plan == "noyau":
        from bench.bench_browser_kernel import timed_main as kernel_main

        kernels = kernel_main(args.repeat, args.combats or 1000)
        out = args.out.with_name("bench-browser-noyau.json")
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps({"summary": kernels}, indent=2) + "\n", encoding="utf-8")
        print(f"\n→ {out}")
        return 0
    if args.plan == "exact":
        from bench.bench_browser_exact import timed_main as exact_main

        exact = exact_main(args.repeat)
        out = args.out.with_name("bench-browser-exact.json")
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps({"summary": exact}, indent=2) + "\n", encoding="utf-8")
        print(f"\n→ {out}")
        return 0
    if args.plan == "pool":
        from bench.bench_browser_pool import timed_main

        pool = timed_main(args.repeat, args.combats)
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"Charge de la machine à la fin (uptime) : {load}")
        out = args.out.with_name("bench-browser-pool.json")
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps({"summary": pool}, indent=2) + "\n", encoding="utf-8")
        print(f"\n→ {out}")
        return 0
    if args.plan in ("pocket", "ready"):
        summary = summarise(measure_pocket(args.repeat, args.only,
                                           POCKET if args.plan == "pocket" else READY))
        for row in summary.values():  # each kind has its own reference (POCKET_RATIOS)
            row.pop("ratio_to_bare", None)
    else:
        summary = summarise(measure(args.repeat, args.only))
    print(f"\n{'mesure':<26}{'médiane':>9}{'min':>8}{'max':>8}{'ratio':>8}{'requêtes':>10}"
          f"{'servies':>9}{'Mo':>8}{'Mio gz':>8}")
    for name, row in summary.items():
        ratio = row.get("ratio_to_bare", 1.0 if name == "bare" else "")
        print(f"{name:<26}{row['median_s']:>9.2f}{row['min_s']:>8.2f}{row['max_s']:>8.2f}"
              f"{ratio!s:>8}{row['requests']:>10}{row['served']:>9}{row['transfer_mb']:>8}"
              f"{row['transfer_gz_mib']:>8}")
    if args.plan in ("pocket", "ready"):
        print("\n" + ("Premier résultat vivant" if args.plan == "pocket" else "« Prêt »")
              + " après « Activer », rapporté à un Pyodide nu (médianes) :")
        for kind, reference, target in (POCKET_RATIOS if args.plan == "pocket"
                                        else READY_RATIOS):
            if kind in summary and reference in summary:
                ratio = summary[kind]["median_s"] / summary[reference]["median_s"]
                summary[kind].setdefault("ratios", {})[reference] = {
                    "value": round(ratio, 2), "target": target}
                verdict = "atteint" if ratio <= target else "MANQUÉ"
                print(f"  {kind:<20} / {reference:<11} {ratio:5.2f}×  (objectif ≤ "
                      f"{target:.1f}× : {verdict})")
    if args.plan == "ready":
        print("Python prêt après le clic (médianes ; depuis le cache : objectif ≤ 1 s) :")
        for kind, row in summary.items():
            if "python_after_click_median_s" in row:
                print(f"  {kind:<20} {row['python_after_click_median_s']:5.2f} s")
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"Charge de la machine à la fin (uptime) : {load}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"sizes": sizes, "summary": summary}, indent=2) + "\n",
                        encoding="utf-8")
    print(f"\n→ {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
