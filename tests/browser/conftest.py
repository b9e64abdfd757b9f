"""Fixtures of the browser tests: the built site on a local port, one headless Chromium.

The site must be built first (``make browser`` depends on ``make book``). One browser
profile serves the whole session, so the HTTP cache makes later JupyterLite boots
cheaper; every test opens its own tabs and closes them. That browser is offline at the
network level (no name resolves, a dead proxy for anything but loopback), and each
request is recorded: one that is not for 127.0.0.1 fails the test that made it (the
``offline`` fixture, used by every test). ``test_offline.py`` also aborts such requests
with a Playwright route, in a profile of its own (a route turns the HTTP cache off).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.live_page import configure
from tools.browser_kit import SITE, RequestLog, SiteServer, launch_chromium

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("ESCARMOUCHE_ARTIFACTS", ROOT / "artifacts"))
@pytest.fixture(scope="session")
def site_url() -> Iterator[str]:
    if not (SITE / "lite" / "jupyter-lite.json").is_file():
        pytest.fail(f"{SITE} ne contient pas le site JupyterLite : lancez d’abord `make book`")
    with SiteServer(SITE) as server:
        yield server.url


@pytest.fixture(scope="session")
def request_log() -> RequestLog:
    return RequestLog()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright: Any, request_log: RequestLog) -> Iterator[Any]:
    with launch_chromium(playwright) as context:
        request_log.attach(configure(context), block=False)
        yield context


@pytest.fixture
def offline(request_log: RequestLog) -> Iterator[RequestLog]:
    """Fails the test if it made any request off 127.0.0.1 (they are aborted anyway)."""
    seen = len(request_log.requests)
    blocked = len(request_log.blocked)
    yield request_log
    mine = RequestLog(request_log.requests[seen:], request_log.blocked[blocked:])
    assert mine.external() == [], "requêtes hors de 127.0.0.1"


@pytest.fixture
def page(browser: Any, offline: RequestLog) -> Iterator[Any]:
    """A fresh tab, closed after the test; page errors are collected on ``page.errors``,
    console errors on ``page.console_errors``, 4xx/5xx responses on ``page.bad_responses``."""
    tab = browser.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    tab.errors = errors
    tab.console_errors = []
    tab.bad_responses = []
    tab.on("console", lambda msg: tab.console_errors.append(msg.text)
           if msg.type == "error" else None)
    tab.on("response", lambda resp: tab.bad_responses.append(f"{resp.status} {resp.url}")
           if resp.status >= 400 else None)
    try:
        yield tab
    finally:
        tab.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    path = ARTIFACTS / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path
