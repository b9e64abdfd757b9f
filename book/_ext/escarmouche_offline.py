"""Local Sphinx extension: the installable, offline book (docs/hebergement.md).

Every page gets the web manifest (``manifest.webmanifest``), the theme colour, an icon
for home screens and ``escarmouche-offline.js`` (deferred), which registers the service
worker, offers « Recharger » when a new edition is waiting and runs the « Disponible
hors ligne » controls; it comes before ``live/live.js``, which shares its helpers. The
manifest, the icons, the service worker (Workbox) and the runtime's description are
written after the build by ``tools/build_offline.py``.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

JS = "escarmouche-offline.js"
THEME_COLOUR = "#0a5d6b"  # the favicon's colour (tools/build_offline.py: the manifest's)
#: Changes to this file rebuild every page.
VERSION = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:12]


def page_context(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                 doctree: Any) -> None:
    """``html-page-context``: the manifest, the theme colour and the home-screen icon."""
    root = "../" * pagename.count("/")
    context["metatags"] = context.get("metatags", "") + (
        f'\n<meta name="theme-color" content="{THEME_COLOUR}">'
        f'\n<link rel="manifest" href="{root}manifest.webmanifest">'
        f'\n<link rel="apple-touch-icon" href="{root}_static/icons/escarmouche-192.png">'
    )


def outdated(app: Sphinx, env: Any, added: set[str], changed: set[str],
             removed: set[str]) -> list[str]:
    """``env-get-outdated``: every page again when this extension changed (Sphinx would
    keep the pages written before it, without the manifest and the script)."""
    if getattr(env, "escarmouche_offline_version", None) == VERSION:
        return []
    env.escarmouche_offline_version = VERSION
    return sorted(env.found_docs)


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("env-get-outdated", outdated)
    app.connect("html-page-context", page_context)
    # Before live.js (priority 100; both deferred, so they run in this order): live.js
    # takes its shared helpers from this script (window.escarmoucheOffline).
    # Fetched early like live.js (fetchpriority): a tap on « Activer » waits for both.
    app.add_js_file(JS, loading_method="defer", priority=90, fetchpriority="high")
    return {"version": VERSION, "parallel_read_safe": True, "parallel_write_safe": True}
