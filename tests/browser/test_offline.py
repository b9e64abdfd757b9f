"""(3) No request leaves 127.0.0.1: the book, a widget page and a live notebook run.

Every request of a fresh browser profile is recorded (``context.on("request")``) and a
Playwright route aborts any that is not for the local server; the test fails if one
was even attempted. The other browser tests check the same on their own requests.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.live_page import configure
from tools.browser_kit import RequestLog, launch_chromium, lite_notebook_url, run_all_cells

pytestmark = pytest.mark.browser

PAGES = ("index.html", "book/index.html", "book/essai-navigateur.html", "search.html")


def test_no_request_leaves_localhost(playwright: Any, site_url: str) -> None:
    log = RequestLog()
    with launch_chromium(playwright) as context:
        log.attach(configure(context), block=True)
        page = context.new_page()
        for path in PAGES:
            page.goto(site_url + path, wait_until="load")
        page.goto(lite_notebook_url(site_url, "book/essai-navigateur"))
        run_all_cells(page, timeout_s=120)
        page.wait_for_selector(".widget-html-content", timeout=60_000)
        page.close()
    assert len(log.requests) > 100, "the live notebook should have loaded its site"
    assert log.blocked == []
    assert log.external() == []
    local = ("data:", "blob:", site_url)
    assert [u for u in log.requests if not u.startswith(local)] == []
