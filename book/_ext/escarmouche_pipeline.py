"""The book's build, top to bottom: every extension and every pass over the built pages,
in the order they run.

``make book`` makes sure Debian's Chromium is there (``tools/ensure_chromium.py``), then
runs ``python -m tools.build_site``, which does, once each and in order:

1. **Before Sphinx** (``tools/build_site.py``): ``npm ci``, the live pages' widget
   bundle, this repository's wheel, the Pyodide kernel's wheels, the JupyterLite source
   folder ``_build/lite-src``.
2. **Sphinx** (``jupyter-book build``, warnings are errors), with the book's extensions
   of :data:`EXTENSIONS`, loaded here in this order (the order of their stylesheets and
   scripts in a page's ``<head>``, and of the bars and boxes they put under a page's
   title). Once every page is written (``build-finished``), the passes of
   :data:`PAGE_PASSES` rewrite the built pages, in the order of that list; at
   :data:`OTHER_HANDLERS`, Sphinx runs the handlers of other packages and of
   ``escarmouche_editions`` (the Atom feed), where jupyterlite-sphinx runs ``jupyter lite
   build`` on the notebooks copied just before.
3. **After Sphinx**, on ``_build/html``: the passes of :data:`AFTER_SPHINX`, each a
   function of ``tools/`` (the live runtime's sizes, the PDF, the offline book, the
   compressed copies).

Sphinx runs the handlers of an event by priority, then in the order they were
connected. The priorities that place the book's handlers before or after the other
packages' (all at Sphinx's default, 500) are here and nowhere else: the two groups of
:data:`PAGE_PASSES`, and the three handlers of :data:`PLACED`. The book's extensions
connect no ``build-finished`` pass and no priority of their own.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

from book._ext import (
    escarmouche_css,
    escarmouche_facts,
    escarmouche_jupyterlite,
    escarmouche_site,
    escarmouche_static_widgets,
    escarmouche_typo,
)
from tools import book_autodoc

#: The book's extensions, in the order they are set up. ``tools.book_autodoc`` is the
#: API page's guard on docstrings (``book/api.md``).
EXTENSIONS = (
    # « Ouvrir le carnet complet » under every notebook page's title, the notebooks
    # copied into JupyterLite's contents, no asset from another host.
    "book._ext.escarmouche_jupyterlite",
    # « Activer »: the page itself made live (Pyodide in a worker, widgets bridged to the
    # page's own widget manager); book/_static/live/.
    "book._ext.escarmouche_live_pages",
    # Reading on a phone, print, search, the edition in every footer.
    "book._ext.escarmouche_site",
    # Prose values from the engine: {{ name }} substitutions filled at build.
    "book._ext.escarmouche_facts",
    # French typography on every text node of the book (escarmouche.text.typo).
    "book._ext.escarmouche_typo",
    # Docstrings that are not clean reStructuredText are shown verbatim (book/api.md).
    "tools.book_autodoc",
    # « Ce qui a changé » pages from editions/*.toml, « Modifié dans l’édition n »
    # marks, the Atom feed of the editions.
    "book._ext.escarmouche_editions",
    # The installable, offline book: manifest, theme colour, escarmouche-offline.js.
    "book._ext.escarmouche_offline",
    # Stored widgets drawn as HTML at build (no widget library on a static page).
    "book._ext.escarmouche_static_widgets",
    # One stylesheet per page instead of fourteen (Lighthouse).
    "book._ext.escarmouche_css",
)

SphinxPass = Callable[[Sphinx, Exception | None], None]

#: Where the other packages' ``build-finished`` handlers run, among :data:`PAGE_PASSES`:
#: jupyterlite-sphinx's ``jupyter lite build``, pydata-sphinx-theme's ``pygments.css``,
#: myst-nb's resources, sphinx-external-toc's index, escarmouche_editions' feed.
OTHER_HANDLERS = "build-finished handlers of other packages (priority 500)"

#: Every pass over the built pages, in order (each a ``build-finished`` handler).
PAGE_PASSES: tuple[SphinxPass | str, ...] = (
    # the <title> of every page in French typography (before the site's rewrite)
    escarmouche_typo.typeset_page_titles,
    # icons as SVG, Font Awesome's script dropped, French labels, snapshot notes,
    # deferred scripts, a rule page's contents, the theme's stylesheet slimmed
    escarmouche_site.rewrite_site,
    # the notebooks into JupyterLite's contents, before its `jupyter lite build`
    escarmouche_jupyterlite.copy_notebooks,
    # stored widgets drawn as HTML, widget state dropped (after the snapshot notes)
    escarmouche_static_widgets.rewrite_pages,
    OTHER_HANDLERS,
    # one merged stylesheet per page (after the theme wrote pygments.css)
    escarmouche_css.merge_site,
    # rule IDs kept on one line, last of all (the drawn widgets' text included)
    escarmouche_typo.keep_rule_ids_whole_in_pages,
)

#: The priorities of the two groups of :data:`PAGE_PASSES`, around Sphinx's default.
BEFORE_OTHERS, AFTER_OTHERS = 400, 900


def _group(passes: tuple[SphinxPass | str, ...]) -> Callable[[Sphinx, Exception | None], None]:
    def run(app: Sphinx, exception: Exception | None) -> None:
        for step in passes:
            assert callable(step)
            step(app, exception)

    return run


# --- after Sphinx: tools/build_site.py runs these on the built site -------------------


def runtime_sizes(site: Path) -> None:
    """The live runtime described (``_static/escarmouche-runtime.json``) and its sizes
    written into the pages, before the PDF prints them."""
    from tools import build_offline

    build_offline.describe_runtime(site)


def book_pdf(site: Path) -> None:
    """The whole book as one PDF (Debian's Chromium), unless it is up to date."""
    from tools import build_pdf

    build_pdf.print_book(site)


def offline_book(site: Path) -> None:
    """Icons and manifest, the book's and the PDF's sizes in the pages, the offline page
    and the service worker (Workbox): once the PDF exists, so that it is cached."""
    from tools import build_offline

    build_offline.build(site)


def compressed_copies(site: Path) -> None:
    """``x.gz`` and ``x.br`` beside every text file (``make serve`` sends them)."""
    from tools import precompress

    precompress.report(site)


#: After Sphinx, in order, once each (``tools/build_site.py``).
AFTER_SPHINX: tuple[Callable[[Path], None], ...] = (
    runtime_sizes, book_pdf, offline_book, compressed_copies)


#: Handlers that must run before or after the other packages' handlers of their event.
PLACED: tuple[tuple[str, Callable[..., None], int], ...] = (
    # the engine's facts into myst_substitutions before the others read the configuration
    ("config-inited", escarmouche_facts.fill, BEFORE_OTHERS),
    # a page's stylesheets and scripts tidied once every package has added its own
    ("html-page-context", escarmouche_jupyterlite.tidy_assets, AFTER_OTHERS),
    # a docstring guarded once autodoc's other handlers have changed it
    ("autodoc-process-docstring", book_autodoc.guard_docstring, AFTER_OTHERS),
)


def setup(app: Sphinx) -> dict[str, Any]:
    for name in EXTENSIONS:
        app.setup_extension(name)
    split = PAGE_PASSES.index(OTHER_HANDLERS)
    app.connect("build-finished", _group(PAGE_PASSES[:split]), priority=BEFORE_OTHERS)
    app.connect("build-finished", _group(PAGE_PASSES[split + 1:]), priority=AFTER_OTHERS)
    for event, handler, priority in PLACED:
        app.connect(event, handler, priority=priority)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
