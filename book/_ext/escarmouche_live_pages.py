"""Local Sphinx extension: the book's pages made live in place (« Activer »).

Every page built from a notebook with code cells gets, under its title, a bar with an
« Activer » button and a French status line, and the page's cells as JSON (their exact
sources, and which of them the page shows). ``book/_static/live/live.js`` does the
rest in the browser: Pyodide in a Web Worker (``live-worker.mjs`` and ``kernel.py``),
the cells run again in place, the widget comms bridged to ipywidgets' controls under the
page's own widget manager (``tools/widgets/live-manager.mjs``, bundled at build). The
bar stays hidden without JavaScript.
It is drawn whole at build (``bar_html``), so that it never pushes the page down.

Only what the page needs is loaded: the engine (and icepool) always, ipywidgets with
comm and traitlets only on pages with widgets. The GM tracker's page is flagged so
that its fight is autosaved in the browser's storage.

Why not thebe-lite: its 0.5.0 pins pyodide-kernel 0.4.7 (not this site's Pyodide 314),
loads piplite, RequireJS and widget modules from public CDNs by default (piplite's URLs
are hard-coded, thebe #703), runs the JupyterLab services and kernel protocol this path
exists to cut, and its widgets broke with ipywidgets releases (thebe #615, #689, #737,
#739, #771). The pattern here is ipywidgets' own web example (a ``ManagerBase``
subclass with ``_create_comm``/``_get_comm_info`` and ``loadClass``, ``examples/web3``)
with the ``comm`` package's documented hook (``comm.create_comm``) on the Python side.

The Python ``ipywidgets`` served to Pyodide and the JavaScript
``@jupyter-widgets/controls`` that renders the widgets must be a pair tested
together: the build warns (an error under ``-W``) when one of them changes alone.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import re
from pathlib import Path
from typing import Any

import nbformat
from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging

from book._ext.escarmouche_jupyterlite import insert_under_title

LOGGER = logging.getLogger(__name__)
ROOT = Path(__file__).resolve().parents[2]
LIVE_STATIC = ROOT / "book" / "_static" / "live"
#: The lock of the live runtime (written by tools/build_site.py before the book): its
#: SHA-256 is the runtime's version. A page carries it; the worker refuses a lock of
#: another build (old pages with new wheels never run), and the service worker's runtime
#: cache is named after it (tools/build_offline.py).
LOCK = ROOT / "_build" / "lite-src" / "static" / "pyodide" / "pyodide-lock.json"
RUNTIME = hashlib.sha256(LOCK.read_bytes()).hexdigest() if LOCK.is_file() else ""
#: This file, the live assets and the runtime: a change re-reads every live page.
VERSION = hashlib.sha256(b"".join(
    p.read_bytes() for p in [Path(__file__), *sorted(LIVE_STATIC.glob("*"))] if p.is_file()
) + RUNTIME.encode()).hexdigest()[:12]
#: Where the Pyodide core and the lock's wheels are, relative to the site's root.
PYODIDE_DIR = "lite/static/pyodide/"
#: Python ipywidgets ↔ JavaScript @jupyter-widgets/controls pairs tried in Chromium
#: (tests/browser).
TESTED_WIDGET_PAIRS = {("8.1.9", "5.0.13")}
def _engine_packages() -> list[str]:
    """The engine and its runtime dependencies (from the installed project's metadata, so
    that a new dependency in pyproject.toml reaches the live pages without an edit here)."""
    requires = importlib.metadata.requires("escarmouche") or []
    names = [re.split(r"[<>=!~;\[ ]", r, maxsplit=1)[0] for r in requires
             if "extra ==" not in r]
    return ["escarmouche", *names]


#: The packages every live page loads (from the rewritten lock, with their wheels).
ENGINE_PACKAGES = _engine_packages()
WIDGET_PACKAGES = ["ipywidgets", "comm", "traitlets"]
_WIDGETS = re.compile(r"\b(ipywidgets|escarmouche_widgets)\b")
_HIDDEN_TAGS = {"remove-cell"}


def _notebook(app: Sphinx, docname: str) -> Any | None:
    path = Path(app.env.doc2path(docname))
    if path.suffix != ".ipynb":
        return None
    return nbformat.read(path, as_version=4)


def page_config(app: Sphinx, docname: str, nb: Any) -> dict[str, Any] | None:
    """What live.js needs to know about the page, or None for a page without code."""
    cells = []
    for cell in nb.cells:
        if cell.cell_type != "code" or not cell.source.strip():
            continue
        tags = set(cell.metadata.get("tags", []))
        cells.append({"source": cell.source, "dom": not (tags & _HIDDEN_TAGS)})
    if not cells:
        return None
    code = "\n".join(c["source"] for c in cells)
    widgets = bool(_WIDGETS.search(code)) or "widgets" in nb.metadata
    root = "../" * docname.count("/")
    return {
        "page": docname,
        "cells": cells,
        "widgets": widgets,
        "tracker": "CombatTracker" in code,
        "packages": ENGINE_PACKAGES + (WIDGET_PACKAGES if widgets else []),
        "pyodide": root + PYODIDE_DIR,
        "prestart": bool(app.config.escarmouche_live_prestart),
        "runtime": RUNTIME,
        "serve_command": app.config.escarmouche_live_serve_command,
    }


NBSP, NNBSP = "\u00a0", "\u202f"
ACTIVER = f"«{NBSP}Activer{NBSP}»"


def _size(key: str) -> str:
    """A size that tools/build_offline.py writes in at the end of the build."""
    return f'<span data-esc-taille="{key}"></span>'


def bar_html(widgets: bool) -> str:
    """The « Activer » bar as the reader first sees it, whole: live.js and
    escarmouche-offline.js only adjust it (the sizes once they know what is cached), so
    nothing pushes the page down once it is painted (Lighthouse's layout shift). Without
    JavaScript it stays hidden (``<noscript>``). « Disponible hors ligne » is not in it: the
    bar stays short on a phone (the control is on the pages that explain it)."""
    page = "runtime-widgets" if widgets else "runtime-moteur"
    status = (f"Les démonstrations de cette page sont figées{NNBSP}; {ACTIVER} les rend "
              "vivantes, ici même (Python tourne dans votre navigateur, hors ligne)."
              if widgets else
              f"Les exemples de cette page sont figés{NNBSP}; {ACTIVER} permet de les "
              "modifier et de les relancer ici même (Python tourne dans votre navigateur, "
              "hors ligne).")
    first = (f'<span class="escarmouche-live-first"> La première fois, Python est '
             f"téléchargé{NBSP}: {_size(page)} ({_size(page + '-gz')} compressés), puis "
             "gardé sur cet appareil.</span>")
    return (
        '<div id="escarmouche-live" class="escarmouche-live" data-state="off">'
        # A tap before live.js has run (the bar paints first) is kept: live.js acts on it.
        '<button type="button" class="escarmouche-live-activate" aria-pressed="false" '
        "onclick=\"this.setAttribute('data-early','1')\">"
        f'▶ Activer<span class="escarmouche-live-size"> ({_size(page)})</span></button>'
        f'<span class="escarmouche-live-status" role="status" aria-live="polite">{status}'
        f'{first}</span><span class="escarmouche-live-extra"></span></div>'
        "<noscript><style>#escarmouche-live{display:none}</style></noscript>")


def add_bar(app: Sphinx, doctree: nodes.document) -> None:
    """``doctree-read``: the « Activer » bar and the page's cells, under the title."""
    docname = app.env.docname
    nb = _notebook(app, docname)
    config = page_config(app, docname, nb) if nb is not None else None
    if config is None:
        return
    data = json.dumps(config, ensure_ascii=False).replace("</", "<\\/")
    raw = nodes.raw("", bar_html(config["widgets"])
                    + f'<script type="application/json" id="escarmouche-live-config">{data}'
                    "</script>", format="html")
    insert_under_title(doctree, raw)


#: the parts of live.js (book/_static/live/), loaded just before it: each registers a
#: factory that live.js calls with the page's context (the bar's status, the comm
#: bridge, the cells, the tracker's autosave, one tap one step)
LIVE_PARTS = ("live-status.js", "live-bridge.js", "live-cells.js", "live-tracker.js",
              "live-steps.js")

#: The page's spare worker, made as soon as the parser reaches the page's scripts (an
#: inline script, once the stylesheet is in): it starts its thread and imports Pyodide's
#: small loader while the page parses, lays out and paints, so that « Activer » starts
#: Python at once. live.js takes it (``takeSpareWorker``); a runtime that finds none
#: makes its own; the message is live.js's ``prepare``. Nothing of Python is fetched.
EARLY_WORKER = """(function () {
  if (location.protocol === "file:" || typeof Worker !== "function") return;
  try {
    var w = new Worker(new URL(%(worker)s, location.href).href, { type: "module" });
    w.onerror = function (event) { event.preventDefault(); w.failed = true; };
    w.postMessage({ json: JSON.stringify({ type: "prepare",
      pyodide: new URL(%(pyodide)s, location.href).href }), buffers: [] });
    window.escarmoucheSpareWorker = w;
  } catch (error) {}
})();"""


def add_assets(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
               doctree: Any) -> None:
    """``html-page-context``: the script and the stylesheet, on live pages only.

    The script comes early in ``<head>`` (priority 100, deferred by
    ``escarmouche_site.defer_head_scripts`` but fetched first) and carries what it needs
    to start Python at once (``data-live-*``). Right after it, ``EARLY_WORKER`` makes
    the page's worker while the page parses.
    """
    if doctree is None or "escarmouche-live-config" not in str(context.get("body", "")):
        return
    nb = _notebook(app, pagename)
    config = page_config(app, pagename, nb) if nb is not None else None
    if config is None:
        return
    app.add_css_file("live/live.css")
    # fetched before the theme's scripts (all deferred, low priority, six at a time over
    # HTTP/1.1): it handles « Activer », and a tap waits for it (bench/README-browser.md)
    # live.js's parts, each a factory it calls (in the order live.js runs them: deferred
    # scripts run in document order, so they are registered before live.js runs)
    for rank, part in enumerate(LIVE_PARTS):
        app.add_js_file(f"live/{part}", priority=100 - len(LIVE_PARTS) + rank,
                        fetchpriority="high")
    app.add_js_file("live/live.js", priority=100, fetchpriority="high", **{
        "data-live-pyodide": config["pyodide"],
        "data-live-packages": ",".join(config["packages"]),
        "data-live-widgets": "1" if config["widgets"] else "0",
        "data-live-prestart": "1" if config["prestart"] else "0",
        "data-live-runtime": config["runtime"],
    })
    worker = context["pathto"]("_static/live/live-worker.mjs", 1)
    app.add_js_file(None, priority=101, body=EARLY_WORKER % {
        "worker": json.dumps(worker), "pyodide": json.dumps(config["pyodide"])})


def outdated(app: Sphinx, env: Any, added: set[str], changed: set[str],
             removed: set[str]) -> list[str]:
    """``env-get-outdated``: every notebook page again when this extension or its assets
    changed (Sphinx would otherwise keep the pages' old script tags)."""
    if getattr(env, "escarmouche_live_pages_version", None) == VERSION:
        return []
    env.escarmouche_live_pages_version = VERSION
    return [d for d in env.found_docs if Path(env.doc2path(d)).suffix == ".ipynb"]


def _pinned(requirements: Path, name: str) -> str | None:
    for line in requirements.read_text(encoding="utf-8").splitlines():
        match = re.match(rf"^{re.escape(name)}==([^\s#]+)", line.strip())
        if match:
            return match.group(1)
    return None


def check_widget_pair(app: Sphinx) -> None:
    """``builder-inited``: the Python and JavaScript widget packages change together."""
    python = _pinned(ROOT / "tools" / "lite" / "requirements-pyodide.txt", "ipywidgets")
    package = ROOT / "node_modules" / "@jupyter-widgets" / "controls" / "package.json"
    if python is None or not package.is_file():
        return  # the build script installs both before the book; nothing to compare yet
    javascript = json.loads(package.read_text(encoding="utf-8"))["version"]
    if (python, javascript) not in TESTED_WIDGET_PAIRS:
        LOGGER.warning(
            "[escarmouche_live_pages] ipywidgets %s (Python) avec @jupyter-widgets/controls %s "
            "(JavaScript) : paire non essayée ; lancez les tests navigateur puis ajoutez-la à "
            "TESTED_WIDGET_PAIRS (book/_ext/escarmouche_live_pages.py)", python, javascript)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("escarmouche_live_prestart", True, "html")
    app.add_config_value("escarmouche_live_serve_command",
                         "python3 -m http.server -b 127.0.0.1 8000", "html")
    app.connect("builder-inited", check_widget_pair)
    app.connect("env-get-outdated", outdated)
    app.connect("doctree-read", add_bar)
    app.connect("html-page-context", add_assets)
    return {"version": VERSION, "parallel_read_safe": True, "parallel_write_safe": True}

