"""The designer's pages in Chromium (book/concepteurs.md).

- The Atelier, made live in place: an option changed in the live widget gives the odds
  before and after (RB-D100-1: critical success 5 % → 10 %) and the TOML export; a value
  the rules refuse shows its French message and keeps the result.
- The « Ce qui a changé » page of edition 1: its rulings, its odds tables and charts,
  scaled to the column on a 360 px screen.
Both through the ``page`` fixture: no request leaves 127.0.0.1.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.live_page import PHONE, READY_MS, activate, ask_fixed_fights, axe_serious, settle

pytestmark = pytest.mark.browser



def test_the_atelier_comes_alive_and_compares_the_rules(page: Any, site_url: str,
                                                       artifacts: Path) -> None:
    page.goto(f"{site_url}book/atelier.html")
    bar = page.locator("#escarmouche-live")
    assert page.locator(".cell_output .widget-html-content").count() > 0  # stored state
    bar.locator(".escarmouche-live-activate").click()
    page.wait_for_selector("#escarmouche-live[data-live=ready]", timeout=READY_MS)
    live = page.locator(".escarmouche-live-widget").first
    live.wait_for()
    assert live.get_attribute("data-live") == "rendered"

    field = live.locator(".widget-text", has_text="plus haut jet de réussite critique")
    field.locator("input").fill("10")
    field.locator("input").press("Enter")
    page.wait_for_function(
        "() => document.querySelector('.escarmouche-live-widget').innerText"
        ".includes('10,0\u202f%')", timeout=30_000)
    text = live.inner_text()
    assert "5,0\u202f%" in text and "→" in text
    assert "apres = 10" in live.locator("textarea").input_value()

    field.locator("input").fill("300")
    field.locator("input").press("Enter")
    page.wait_for_function(
        "() => document.querySelector('.escarmouche-live-widget').innerText"
        ".includes('Valeur 300 refusée pour')", timeout=30_000)
    assert "plus haut jet de réussite critique du test D100" in live.inner_text()
    assert "(RB-D100-1)" in live.inner_text()
    assert "apres = 10" in live.locator("textarea").input_value()  # the result stays
    page.screenshot(path=artifacts / "atelier-live.png", full_page=True)
    assert page.errors == []


def test_the_atelier_plays_fights_by_steps_and_stops(page: Any, site_url: str,
                                                    artifacts: Path) -> None:
    """The Atelier's whole fights in the live page (Pyodide): « Simuler les combats »
    plays by steps, the progress bar moves, « Arrêter » stops the run and shows the
    balance of the fights played (CORE-RNG: one stream per fight)."""
    page.goto(f"{site_url}book/atelier.html")
    page.locator("#escarmouche-live .escarmouche-live-activate").click()
    page.wait_for_selector("#escarmouche-live[data-live=ready]", timeout=READY_MS)
    live = page.locator(".escarmouche-live-widget").first
    live.wait_for()
    ask_fixed_fights(live, "100000")
    page.wait_for_function(
        "() => document.querySelector('.escarmouche-live-widget').innerText"
        ".includes('combats sur 200\u202f000')", timeout=60_000)
    live.get_by_role("button", name="Arrêter").click()
    page.wait_for_function(
        "() => document.querySelector('.escarmouche-live-widget').innerText"
        ".includes('Arrêté après')", timeout=60_000)
    text = live.inner_text()
    assert "combats par jeu de règles sur 100\u202f000" in text
    assert "Sans vos changements" in text and "Avec vos changements" in text
    page.screenshot(path=artifacts / "atelier-fights-live.png", full_page=True)
    assert page.errors == []


def test_the_first_edition_page_lists_rulings_and_odds(page: Any, site_url: str,
                                                      artifacts: Path) -> None:
    page.set_viewport_size({"width": 360, "height": 800})
    page.goto(f"{site_url}book/editions/edition-1.html")
    body = page.locator("main")
    assert "Ce qui a changé dans l’édition\u00a01" in body.inner_text()
    # at 360 px the page never scrolls sideways: wide odds tables scroll in their frame
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert body.locator("h3", has_text="Interprétation nouvelle").count() >= 20
    assert body.locator("table.esc-ed-table").count() >= 9
    charts = body.locator(".esc-ed-pair svg")
    assert charts.count() >= 4
    width = page.evaluate("document.querySelector('main').getBoundingClientRect().width")
    for i in range(charts.count()):
        assert charts.nth(i).bounding_box()["width"] <= width + 1
    page.screenshot(path=artifacts / "edition-1-360.png", full_page=False)
    assert page.errors == []


@pytest.mark.parametrize("theme", ["light", "dark"], ids=["clair", "sombre"])
def test_the_atelier_answers_a_duel_exactly_on_a_phone_core_end_1(
        page: Any, site_url: str, artifacts: Path, theme: str) -> None:
    """CORE-END-1: on a 390 px phone, light and dark, « Calcul exact » solves the chosen
    duel in the live page (Pyodide) and shows the odds « calcul exact », without an
    interval; the answer fits the column and axe finds nothing serious in it."""
    page.emulate_media(color_scheme=theme)
    page.set_viewport_size(PHONE)
    page.goto(f"{site_url}book/atelier.html")
    live = activate(page)
    live.get_by_role("button", name="Calcul exact").click()
    page.wait_for_function(
        "() => document.querySelector('.escarmouche-live-widget').innerText"
        ".includes('calcul exact)')", timeout=60_000)
    settle(page)
    text = live.inner_text()
    assert "Aucune option changée" in text and "±" not in text.split("Calcul exact")[-1]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert axe_serious(page, ".escarmouche-live-widget") == []
    page.screenshot(path=artifacts / f"atelier-exact-{theme}.png", full_page=True)
    assert page.errors == []
