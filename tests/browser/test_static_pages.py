"""(4) Every page of the static book, offline: widgets render from their stored state,
notebook pages carry the live button, nothing is fetched from another host (the
``offline`` fixture), and a screenshot of each page is kept in ``artifacts/screenshots/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.book_pages import ROOT, book_docnames
from tools.browser_kit import SITE

pytestmark = pytest.mark.browser

PAGES = book_docnames()


@pytest.mark.parametrize("docname", PAGES)
def test_static_page(page: Any, site_url: str, artifacts: Path, docname: str) -> None:
    html = SITE / f"{docname}.html"
    if not html.is_file():
        pytest.skip(f"{docname} n’est pas dans le livre (absent de _toc.yml ?)")
    page.goto(f"{site_url}{docname}.html", wait_until="load")
    is_notebook = (ROOT / f"{docname}.ipynb").is_file()
    assert page.locator("a.escarmouche-lite-button").count() == (1 if is_notebook else 0)
    # a stored widget is drawn as HTML at build (escarmouche_static_widgets): no view is left for
    # a widget library to render, and none is loaded before « Activer »
    assert page.locator('script[type="application/vnd.jupyter.widget-view+json"]').count() == 0
    shot = artifacts / f"{docname.replace('/', '__')}.png"
    page.screenshot(path=shot, full_page=True)
    assert shot.stat().st_size > 0
    assert page.errors == []
    assert page.console_errors == []
    assert page.bad_responses == []
