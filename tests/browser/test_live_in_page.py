"""« Activer »: the book's pages made live in place (book/_static/live/, escarmouche_live_pages).

- A demo page: activated, an input changed, the new result read from the live widget.
- A rule page whose first start fails: a French message inline, « Réessayer » works;
  then an example cell is edited and run again in place, and an error shown in French.
- The GM tracker on a 360 px screen: the live widget fits, a fight is autosaved, a
  reload offers to resume it and the resumed fight is the same.
- A tap on « Activer » before live.js has run still activates the page.
- From file://: reading works, and a French message gives the command to run.
Every test but the file:// one uses the ``page`` fixture: no request leaves 127.0.0.1.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.live_page import NEXT_BUTTON, READY_MS
from tests.browser.live_page import activate_bar as activate
from tools.browser_kit import SITE

pytestmark = pytest.mark.browser

#: Every status text the bar shows, recorded from the first paint (a MutationObserver).
RECORD_STATUS = """
window.__liveStatus = [];
new MutationObserver(() => {
  const s = document.querySelector('.escarmouche-live-status');
  if (s && window.__liveStatus[window.__liveStatus.length - 1] !== s.textContent) {
    window.__liveStatus.push(s.textContent);
  }
}).observe(document, {subtree: true, childList: true, characterData: true});
"""
#: While the bar is busy: how many animations run in the page, and where the busy ring
#: stands (live.js turns it; a CSS animation would keep the compositor drawing every
#: frame, a quarter of a core taken from Python's start).
RECORD_BUSY = """
window.__busy = {animations: 0, turns: []};
setInterval(() => {
  const bar = document.querySelector('#escarmouche-live[data-state=busy]');
  if (!bar) return;
  window.__busy.animations = Math.max(window.__busy.animations, document.getAnimations().length);
  const turn = bar.querySelector('.escarmouche-live-status').style
    .getPropertyValue('--escarmouche-live-turn');
  if (window.__busy.turns[window.__busy.turns.length - 1] !== turn) window.__busy.turns.push(turn);
}, 100);
"""

#: No start before the click (the page has not been used on this device).
NOT_USED = "localStorage.removeItem('escarmouche-live:utilise');"


def test_a_demo_page_comes_alive_and_answers(page: Any, site_url: str,
                                             artifacts: Path) -> None:
    page.add_init_script(RECORD_STATUS)
    page.add_init_script(RECORD_BUSY)
    # While the page parses, a worker is prepared: it imports Pyodide's small loader
    # before any click (and nothing of Python: no click, no runtime).
    with page.expect_request(lambda r: r.url.endswith("/pyodide.mjs"), timeout=20_000):
        page.goto(f"{site_url}book/demos/initiative.html")
    assert "worker-start" not in page.evaluate("window.escarmoucheLive.timings")
    bar = page.locator("#escarmouche-live")
    assert "Activer" in bar.locator(".escarmouche-live-activate").inner_text()
    static = page.locator(".cell_output .widget-html-content").count()
    assert static > 0  # the stored widget, drawn before any Python
    activate(page)
    status = bar.locator(".escarmouche-live-status").inner_text()
    assert status.startswith("Prêt\u00a0: la page est vivante.")
    seen = page.evaluate("window.__liveStatus")
    assert any(s.startswith(("Chargement de Python…", "Chargement du moteur…",
                             "Exécution des exemples…")) for s in seen), seen
    # « Prêt » as soon as the first demonstration answered, before the examples below it
    early = "Prêt\u00a0: la première démonstration répond\u202f; les exemples suivants"
    assert next(s for s in seen if s.startswith("Prêt")).startswith(early), seen
    # The widget library ran once Python was up (not beside its start), and the icon
    # font its stylesheet names is served next to it.
    timings = page.evaluate("window.escarmoucheLive.timings")
    assert timings["widget-library"] >= timings["worker-python"], timings
    assert timings["runtime-ready"] < timings["first-ready"] < timings["cells-done"], timings
    # Nothing animated while Python started; the ring turned, a quarter at a time.
    busy = page.evaluate("window.__busy")
    assert busy["animations"] == 0, busy
    assert len(set(busy["turns"]) - {""}) >= 2, busy
    assert page.evaluate("""document.fonts.load('900 16px "Font Awesome 5 Free"', '\\uf04b')
                            .then((faces) => faces.length)""") == 1

    live = page.locator(".escarmouche-live-widget").first
    live.wait_for()
    assert live.get_attribute("data-live") == "rendered"
    # the page's later cells drove a copy: the demo opens as the page says
    # (book_src/demos/suivi-combat.md)
    assert "9, 9, 12, 2" not in live.inner_text()
    live.locator(".widget-checkbox", has_text="dés manuels").locator("input").check()
    live.locator(".widget-text", has_text="Résultats").locator("input").fill("5, 6, 7, 8")
    live.get_by_role("button", name="Lancer l’initiative").click()
    page.wait_for_function(
        "() => document.querySelector('.escarmouche-live-widget').innerText"
        ".includes('5, 6, 7, 8')", timeout=30_000)
    page.screenshot(path=artifacts / "live-in-page-initiative.png", full_page=True)
    assert page.errors == []


PROGRESS = re.compile(r"([\d,]+)\u00a0(Mo|ko) sur ([\d,]+)\u00a0(Mo|ko)")


def _megabytes(number: str, unit: str) -> float:
    value = float(number.replace(",", "."))
    return value if unit == "Mo" else value / 1000


def test_activer_says_its_size_then_counts_up_to_that_size(page: Any, site_url: str) -> None:
    """docs/hebergement.md: « Activer » says the size of what it will fetch, and the progress line
    counts up to that same size (the core's two imported modules included), never past
    it and never backwards. The link is slowed (DevTools' network conditions, which the
    page's worker shares) so that the line shows while Python downloads."""
    page.add_init_script(RECORD_STATUS)
    page.add_init_script(NOT_USED)
    page.goto(f"{site_url}book/d12/critique.html")
    size = page.locator("#escarmouche-live .escarmouche-live-activate")
    page.wait_for_function("() => /\\d/.test(document.querySelector("
                           "'#escarmouche-live .escarmouche-live-activate').textContent)",
                           timeout=20_000)
    said = re.search(r"\(([\d,]+)\u00a0(Mo|ko)\)", size.inner_text())
    assert said, size.inner_text()
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": 5, "downloadThroughput": 6_000_000,
        "uploadThroughput": 6_000_000})
    activate(page)
    lines = [m.groups() for s in page.evaluate("window.__liveStatus")
             if (m := PROGRESS.search(s))]
    assert len(lines) >= 3, page.evaluate("window.__liveStatus")
    totals = {(total, unit) for _, _, total, unit in lines}
    assert totals == {(said.group(1), said.group(2))}, (said.groups(), totals)
    done = [_megabytes(number, unit) for number, unit, _, _ in lines]
    assert done == sorted(done), done
    assert done[-1] <= _megabytes(*said.groups())
    # the last line comes once Pyodide's core is in (five sixths of the whole)
    assert done[-1] >= 0.8 * _megabytes(*said.groups()), (done, said.groups())
    # the time left, in French: rounded up to the second, never « moins d’une seconde
    # environ » at the end
    texts = page.evaluate("""() => [[1e6, 9e6, 2100], [8.95e6, 9e6, 10000], [3e6, 9e6, 200000]]
        .map(([done, total, ms]) => window.escarmoucheOffline.progressText(
            done, total, performance.now() - ms))""")
    assert texts[0] == "1\u00a0Mo sur 9\u00a0Mo, encore 17\u00a0s environ", texts
    assert texts[1] == "9\u00a0Mo sur 9\u00a0Mo, presque terminé", texts
    assert texts[2] == "3\u00a0Mo sur 9\u00a0Mo, encore 7\u00a0min environ", texts
    assert page.errors == []


def test_a_tap_before_the_script_runs_still_activates(page: Any, site_url: str) -> None:
    """The bar paints with the page (drawn at build): a tap that comes before live.js has
    run is kept and acted on, never lost. The page's worker was made before live.js ran
    (escarmouche_live_pages.EARLY_WORKER): it has imported Pyodide's loader, and live.js uses it."""
    held: list[Any] = []
    page.route("**/_static/live/live.js*", lambda route: held.append(route))
    loader: list[str] = []
    page.on("request", lambda r: loader.append(r.url) if r.url.endswith("/pyodide.mjs") else None)
    page.goto(f"{site_url}book/d12/critique.html", wait_until="commit")
    button = page.locator("#escarmouche-live .escarmouche-live-activate")
    button.click()
    assert page.evaluate("typeof window.escarmoucheLive") == "undefined"  # not run yet
    while not held or not loader:
        page.wait_for_timeout(50)
    assert page.evaluate("window.escarmoucheSpareWorker instanceof Worker")
    held[0].continue_()
    page.wait_for_selector(
        "#escarmouche-live[data-state=busy], #escarmouche-live[data-state=ready]",
        timeout=30_000)
    assert page.evaluate("window.escarmoucheLive.timings.click") is not None
    assert page.evaluate("window.escarmoucheSpareWorker") is None  # taken by the runtime
    assert len(loader) == 1  # no second worker
    assert page.errors == []


def test_a_rule_page_recovers_from_a_failed_start_and_its_cells_run_again(
        page: Any, site_url: str) -> None:
    page.add_init_script(NOT_USED)
    # Every worker the page makes fails to load its module (a server hiccup) until the
    # server is back: the one prepared while the page is read (replaced by a sound one
    # when « Activer » finds it broken) and that sound one too.
    server_back = False

    def worker_module(route: Any) -> None:
        if server_back:
            route.fallback()
        else:
            route.fulfill(status=503, body="indisponible")

    page.route("**/_static/live/live-worker.mjs*", worker_module)
    page.goto(f"{site_url}book/d12/critique.html")
    bar = page.locator("#escarmouche-live")
    bar.locator(".escarmouche-live-activate").click()
    page.wait_for_selector("#escarmouche-live[data-state=error]", timeout=READY_MS)
    assert bar.locator(".escarmouche-live-status").inner_text().startswith(
        "Échec du chargement de Python\u00a0: ")
    server_back = True
    bar.get_by_role("button", name="Réessayer").click()
    page.wait_for_selector("#escarmouche-live[data-live=ready]", timeout=READY_MS)

    cell = page.locator("div.cell").first
    # Example code is folded under « Voir le code » (hide-input); open it to edit.
    toggle = cell.locator("details.hide > summary")
    if toggle.count():
        toggle.first.click()
    code = cell.locator("textarea.escarmouche-live-code")
    original = code.input_value()
    assert "d12." in original
    code.fill(original + "\nprint('modifié :', 6 * 7)")
    cell.get_by_role("button", name="▶ Exécuter").click()
    page.wait_for_function(
        "() => document.querySelector('div.cell .escarmouche-live-output')"
        ".innerText.replace(/[\\u00a0\\u202f]/g, ' ').includes('modifié : 42')",
        timeout=30_000)

    code.fill("1 / 0")
    code.press("Shift+Enter")
    error = cell.locator(".escarmouche-live-error")
    error.wait_for(timeout=30_000)
    assert error.locator("p").inner_text() == (
        "Erreur\u00a0: ZeroDivisionError\u00a0: division by zero")
    cell.get_by_role("button", name="Rétablir").click()
    assert code.input_value() == original.rstrip("\n")
    assert page.errors == []


def test_the_tracker_fits_360px_autosaves_and_resumes(page: Any, site_url: str,
                                                     artifacts: Path) -> None:
    page.set_viewport_size({"width": 360, "height": 780})
    url = f"{site_url}book/demos/suivi-combat.html"
    page.goto(url)
    page.evaluate("localStorage.removeItem('escarmouche-live:suivi:book/demos/suivi-combat')")
    activate(page)
    live = page.locator(".escarmouche-live-widget").first
    live.wait_for()
    overflow = page.evaluate("""() => Array.from(
        document.querySelectorAll('.escarmouche-live-widget')).map(e => ({
          right: e.getBoundingClientRect().right,
          scroll: e.scrollWidth, client: e.clientWidth}))""")
    for box in overflow:
        assert box["right"] <= 360 and box["scroll"] <= box["client"] + 1, overflow
    page.screenshot(path=artifacts / "live-in-page-suivi-360px.png", full_page=True)

    # the tracker opens with no fight under way (book_src/demos/suivi-combat.md): start one,
    # then play a step. Each operation is saved when the worker answers: wait for the
    # start's save, then for the step's own save and its narration, so that the log read is
    # the one saved (reading after the start's save alone raced the step under load).
    live.get_by_role("button", name="Commencer le combat").click()
    page.wait_for_selector("#escarmouche-live[data-saved]", timeout=30_000)
    saved = page.get_attribute("#escarmouche-live", "data-saved")
    log = live.locator(".widget-html-content").last
    started = log.inner_text()
    live.get_by_role("button", name=NEXT_BUTTON).click()
    page.wait_for_function(
        "s => document.getElementById('escarmouche-live').getAttribute('data-saved') !== s",
        arg=saved, timeout=30_000)
    page.wait_for_function(
        """t => { const logs = document.querySelector('.escarmouche-live-widget')
                    .querySelectorAll('.widget-html-content');
                  return logs.length && logs[logs.length - 1].innerText !== t; }""",
        arg=started, timeout=30_000)
    before = log.inner_text()
    assert before

    page.reload()
    offer = page.locator(".escarmouche-live-resume")
    offer.wait_for(timeout=30_000)
    assert "Un combat enregistré dans ce navigateur" in offer.inner_text()
    offer.get_by_role("button", name="Reprendre le combat").click()
    page.wait_for_function(
        "() => document.querySelector('.escarmouche-live-status').textContent"
        ".includes('le combat a repris')", timeout=READY_MS)
    live = page.locator(".escarmouche-live-widget").first
    assert live.locator(".widget-html-content").last.inner_text() == before
    assert page.errors == []




def test_from_a_folder_the_page_reads_and_says_what_to_run(browser: Any) -> None:
    tab = browser.new_page()
    try:
        tab.goto((SITE / "book" / "demos" / "initiative.html").as_uri())
        bar = tab.locator("#escarmouche-live")
        # the bar paints with the page; live.js then says why it cannot start
        tab.wait_for_selector("#escarmouche-live[data-state=file]")
        assert bar.locator(".escarmouche-live-activate").is_disabled()
        assert bar.locator(".escarmouche-live-activate").inner_text() == "▶ Activer"
        text = bar.inner_text()
        assert "Le mode interactif a besoin d’un petit serveur web" in text
        assert "python3 -m http.server -b 127.0.0.1 8000" in text
        assert "make serve" in text
        assert tab.locator("section > h1").first.is_visible()  # reading works
        lite = tab.locator("a.escarmouche-lite-button")
        lite.click()  # JupyterLite needs the server too: the page stays, the message shows
        assert tab.url.endswith("initiative.html")
        assert "escarmouche-live-flash" in (bar.get_attribute("class") or "")
    finally:
        tab.close()
