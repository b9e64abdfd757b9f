"""The Atelier's fights on the browser's pool of workers (bench/README.md,
« bench_designer.py »), in Chromium.

- The pool starts when the fights are asked, plays them on two helper workers, counts
  the fights of both in the progress bar; « Arrêter » stops them all and the paired
  difference of the fights played is shown.
- The pool and the page's single worker give the same numbers for the same seed
  (batches merged in fight order, the stopping rule looked at after each one).

``?travailleurs=N`` sets the pool's size on this 2-core machine (by default it would be
hardwareConcurrency − 1 = 1 helper, and the page's worker plays alone).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.live_page import READY_MS, ask_fixed_fights

pytestmark = pytest.mark.browser

WIDGET = "document.querySelector('.escarmouche-live-widget').innerText"


def _live_atelier(page: Any, url: str) -> Any:
    page.goto(url)
    page.locator("#escarmouche-live .escarmouche-live-activate").click()
    page.wait_for_selector("#escarmouche-live[data-live=ready]", timeout=READY_MS)
    live = page.locator(".escarmouche-live-widget").first
    live.wait_for()
    # an option changed (RB-D100-1: critical success up to 10): the rule sets differ
    field = live.locator(".widget-text", has_text="plus haut jet de réussite critique")
    field.locator("input").fill("10")
    field.locator("input").press("Enter")
    page.wait_for_function(f"() => {WIDGET}.includes('apres = 10') || "
                           "document.querySelector('.escarmouche-live-widget textarea')"
                           ".value.includes('apres = 10')", timeout=30_000)
    return live


def _results(live: Any) -> str:
    """The fights' result: from the headline to the table (the workers' note aside)."""
    text = live.inner_text()
    start = text.index("Avec vos changements, ")
    lines = [line for line in text[start:].splitlines()
             if line.strip() and "processus du navigateur" not in line]
    return "\n".join(lines)


def test_the_pool_plays_the_atelier_fights_and_stops(page: Any, site_url: str,
                                                     artifacts: Path) -> None:
    live = _live_atelier(page, f"{site_url}book/atelier.html?travailleurs=2")
    ask_fixed_fights(live, "100000")
    # the progress counts fights of both helpers: past a few batches
    page.wait_for_function(
        f"() => /([0-9][0-9\u202f]*) combats sur 200\u202f000/.test({WIDGET}) && "
        f"Number({WIDGET}.match(/([0-9][0-9\u202f]*) combats sur 200\u202f000/)[1]"
        ".replace(/\u202f/g, '')) >= 4000", timeout=120_000)
    live.get_by_role("button", name="Arrêter").click()
    page.wait_for_function(f"() => {WIDGET}.includes('Arrêté après')", timeout=60_000)
    text = live.inner_text()
    plain = text.replace("\u00a0", " ").replace("\u202f", " ")
    assert "Combats répartis entre 2 processus du navigateur" in plain
    assert "combats par jeu de règles sur 100 000" in plain
    # the paired headline: the variant's difference in points (± its half-width), and
    # the fights that changed winner. How many fights were played when « Arrêter » was
    # tapped depends on the machine's speed, so the difference may round to 0,0: then
    # the headline says « autant » (difference_sentence).
    assert re.search(r"Avec vos changements, « héros » gagne "
                     r"(?:[0-9,]+ points? de (?:plus|moins)|autant) \(± [0-9,]+\)",
                     plain), plain
    assert re.search(r"[0-9 ]+ combats? sur [0-9 ]+ \([0-9,]+ %\) ont changé de vainqueur",
                     plain), plain
    assert "Écart (points, IC 95 %)" in plain
    # stopped: the run button is back, « Arrêter » is off, and the bar no longer moves
    assert live.get_by_role("button", name="Arrêter").is_disabled()
    shown = live.inner_text()
    page.wait_for_timeout(2_000)
    assert live.inner_text() == shown
    page.screenshot(path=artifacts / "atelier-pool-stopped.png", full_page=True)
    assert page.errors == []


def test_the_pool_and_one_worker_give_the_same_numbers(page: Any, site_url: str) -> None:
    answers = {}
    for workers in (1, 2):
        live = _live_atelier(page, f"{site_url}book/atelier.html?travailleurs={workers}")
        live.locator(".widget-dropdown", has_text="Précision").locator(
            "select").select_option(label="± 2 points")
        live.get_by_role("button", name="Simuler les combats").click()
        page.wait_for_function(f"() => {WIDGET}.includes('ont suffi pour la précision')",
                               timeout=180_000)
        text = live.inner_text()
        assert ("processus du navigateur" in text) == (workers > 1)
        answers[workers] = _results(live)
    assert answers[1] == answers[2]
    assert "Écart (points, IC 95\u202f%)" in answers[1]
    assert page.errors == []
