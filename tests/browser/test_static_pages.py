"""(3)+(4) Every page of the static book, offline: widgets render from their stored state,
notebook pages carry the live button, nothing is fetched from another host, and a
screenshot of each page is kept in ``artifacts/screenshots/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.book_pages import book_docnames
from tools.browser_kit import SITE, RequestLog, is_local

pytestmark = pytest.mark.browser

PAGES = book_docnames()


@pytest.mark.parametrize("docname", PAGES)
def test_static_page(page: Any, site_url: str, artifacts: Path, docname: str) -> None:
    html = SITE / f"{docname}.html"
    if not html.is_file():
        pytest.skip(f"{docname} n’est pas dans le livre (absent de _toc.yml ?)")
    page.goto(f"{site_url}{docname}.html", wait_until="load")
    is_notebook = (SITE.parent.parent / f"{docname}.ipynb").is_file()
    assert page.locator("a.escarmouche-lite-button").count() == (1 if is_notebook else 0)
    views = page.locator('script[type="application/vnd.jupyter.widget-view+json"]').count()
    if views:
        # embed-amd.js replaces each view script by the rendered widget.
        page.wait_for_function(
            f"() => document.querySelectorAll('.jupyter-widgets').length >= {views}",
            timeout=30_000)
    shot = artifacts / f"{docname.replace('/', '__')}.png"
    page.screenshot(path=shot, full_page=True)
    assert shot.stat().st_size > 0
    assert page.errors == []


def test_no_request_leaves_localhost(page: Any, site_url: str, offline: RequestLog) -> None:
    """The home page, a widget page and the lite app: every request stays on 127.0.0.1."""
    start = len(offline.requests)
    for path in ("index.html", "book/essai-navigateur.html", "lite/tree/index.html"):
        page.goto(site_url + path, wait_until="load")
    page.wait_for_selector(".jp-DirListing", timeout=60_000)
    made = offline.requests[start:]
    assert len(made) > 20
    assert [u for u in made if not is_local(u)] == []
    assert all(u.startswith(site_url) or u.startswith(("data:", "blob:")) for u in made), made
