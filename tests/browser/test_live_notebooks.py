"""(2) The book's notebooks, run live in JupyterLite, give their stored outputs.

The stored outputs were computed by CPython (``make refresh``, checked by nbval); here
the same cells run under Pyodide's Python 3.14 in Chromium, and must print the same,
seed for seed. A screenshot of each live page goes to ``artifacts/screenshots/``.

Each notebook boots its own kernel (about 10 s on 2 cores), so ``make test`` runs a
fixed, representative set (:data:`IN_MAKE_TEST`: three demo pages, the browser check
page, the d100 attack page), which keeps it under 15 minutes;
``make browser-complet`` runs all of them (``ESCARMOUCHE_BROWSER_NOTEBOOKS=tous``).
``ESCARMOUCHE_BROWSER_NOTEBOOKS`` (comma-separated docnames) narrows the list when
working on one page.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.book_pages import book_docnames, compare_cell, stored_cells
from tools.browser_kit import CELLS_JS, HTML_TEXT_JS, SITE, lite_notebook_url, run_all_cells

pytestmark = pytest.mark.browser

#: the notebooks ``make test`` runs live (the widgets' pages first: the most fragile).
#: The demos of initiative and surprise play all four systems' engines, so one rule
#: page (the d100 attack, the longest engine path) stands for the others; the Atelier,
#: the tracker, and the parry and critical demos are left to the tests that drive them
#: live in their page (``test_atelier.py``; ``test_table.py``, ``test_live_in_page.py``,
#: ``test_numbers.py`` and ``test_gm_hurry.py``): 20 s of make test's 15 minutes
IN_MAKE_TEST = (
    "book/demos/initiative", "book/demos/surprise", "book/demos/tour-d20",
    "book/essai-navigateur", "book/d100/attaque",
)
_CHOSEN = os.environ.get("ESCARMOUCHE_BROWSER_NOTEBOOKS", "").strip()
ONLY = [n.strip() for n in _CHOSEN.split(",") if n.strip()] if _CHOSEN != "tous" else []
ALL = book_docnames((".ipynb",))
NOTEBOOKS = ([n for n in ALL if n in ONLY] if ONLY
             else ALL if _CHOSEN == "tous" else [n for n in ALL if n in IN_MAKE_TEST])


def test_the_make_test_set_exists() -> None:
    """A renamed page must not silently leave the set."""
    assert set(IN_MAKE_TEST) <= set(ALL), sorted(set(IN_MAKE_TEST) - set(ALL))
#: After the last cell ran, widgets may still be rendering: compare again until then.
SETTLE_S = 15.0


@pytest.mark.parametrize("docname", NOTEBOOKS)
def test_notebook_live_matches_stored_outputs(
    page: Any, site_url: str, artifacts: Path, docname: str
) -> None:
    if not (SITE / "lite" / "files" / f"{docname}.ipynb").is_file():
        pytest.skip(f"{docname} n’est pas dans le site (absent de _toc.yml ?)")
    stored = stored_cells(docname)
    page.goto(lite_notebook_url(site_url, docname))
    run_all_cells(page, timeout_s=240)

    def html_text(markup: str) -> str:
        return str(page.evaluate(HTML_TEXT_JS, markup))

    deadline = time.monotonic() + SETTLE_S
    while True:
        live = [c for c in page.evaluate(CELLS_JS) if c["code"]]
        assert len(live) == len(stored), "nombre de cellules de code"
        problems = [p for cell, got in zip(stored, live, strict=True)
                    for p in compare_cell(cell, got, html_text)]
        if not problems or time.monotonic() > deadline:
            break
        page.wait_for_timeout(250)
    page.screenshot(path=artifacts / f"live-{docname.replace('/', '__')}.png")
    assert not problems, f"{docname} :\n" + "\n".join(problems)
    assert page.errors == []
