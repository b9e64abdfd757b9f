"""(2) Every notebook of the book, run live in JupyterLite, gives its stored outputs.

The stored outputs were computed by CPython (``make refresh``, checked by nbval); here
the same cells run under Pyodide's Python 3.14 in Chromium, and must print the same,
seed for seed. A screenshot of each live page goes to ``artifacts/screenshots/``.
All notebooks under ``book/`` are run (each boots its own kernel, a few
seconds with a warm cache); ``ESCARMOUCHE_BROWSER_NOTEBOOKS`` (comma-separated
docnames) narrows the list when working on one page.
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

ONLY = [n.strip() for n in os.environ.get("ESCARMOUCHE_BROWSER_NOTEBOOKS", "").split(",")
        if n.strip()]
NOTEBOOKS = [n for n in book_docnames((".ipynb",)) if not ONLY or n in ONLY]
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
