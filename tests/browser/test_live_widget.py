"""(1) A widget page, live: the book's button opens JupyterLite, the slider drives the label.

Also keeps a screenshot of the live page in ``artifacts/screenshots/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tools.browser_kit import lite_notebook_url, run_all_cells

pytestmark = pytest.mark.browser

DEMO = "book/essai-navigateur"
BUTTON_TEXT = "Ouvrir le carnet complet"


def test_button_opens_the_live_notebook(page: Any, site_url: str) -> None:
    page.goto(f"{site_url}{DEMO}.html")
    button = page.locator("a.escarmouche-lite-button")
    assert BUTTON_TEXT in button.inner_text()
    with page.context.expect_page(timeout=30_000) as popup:
        button.click()
    live = popup.value
    try:
        live.wait_for_load_state("domcontentloaded")
        assert live.url == lite_notebook_url(site_url, DEMO)
        live.wait_for_selector(".jp-Notebook .jp-CodeCell", timeout=60_000)
    finally:
        live.close()
    assert page.errors == []


def test_slider_updates_the_label_live(page: Any, site_url: str, artifacts: Path) -> None:
    page.goto(lite_notebook_url(site_url, DEMO))
    run_all_cells(page, timeout_s=120)
    label = page.locator(".widget-html-content").first
    label.wait_for(timeout=30_000)
    assert "<b>" not in label.inner_text()
    assert "Test de compétence à 50" in label.inner_text()

    handle = page.locator(".widget-slider .noUi-handle").first
    handle.focus()
    for _ in range(5):
        handle.press("ArrowRight")
    page.wait_for_function(
        "() => document.querySelector('.widget-html-content')"
        ".innerText.includes('Test de compétence à 55')",
        timeout=30_000,
    )
    assert "55" in page.locator(".widget-readout").first.inner_text()
    assert "soit 55\u202f% de chances" in label.inner_text()
    page.screenshot(path=artifacts / "live-essai-navigateur-curseur.png")
    assert page.errors == []
