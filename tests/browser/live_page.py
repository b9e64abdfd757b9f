"""What the browser tests share about a live page (live.js): how long Python may take to
be ready, the viewports, a browser context's timeouts and a fresh profile with its
service worker, « Activer » pressed and waited for, the page settled, the Atelier's
fights asked, and axe's serious findings. Not a test module (nor a conftest): imported
by those that need it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from escarmouche import systems
from tools.browser_kit import launch_chromium

__all__ = ["ACTION_TIMEOUT_MS", "AXE", "DESKTOP", "NEXT_BUTTON", "PHONE", "READY_MS",
           "TRACKER_KEY", "activate", "activate_bar", "ask_fixed_fights", "axe_serious",
           "configure", "settle", "worker_page"]

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
#: the longest wait for « Prêt » (a cold Pyodide on a loaded CI machine)
READY_MS = 120_000
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
#: where the tracker's page keeps its fight (live.js, localStorage)
TRACKER_KEY = "escarmouche-live:suivi:book/demos/suivi-combat"
#: Default timeout of every Playwright action and wait (ms).
ACTION_TIMEOUT_MS = 60_000
#: the tracker's next button in any system (``System.next_label``: « Au suivant »,
#: « Activation suivante »): the demo opens on the system its page says
NEXT_BUTTON = re.compile("|".join(
    dict.fromkeys(re.escape(systems.get(n).next_label) for n in systems.NAMES)))


def configure(context: Any) -> Any:
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    context.set_default_navigation_timeout(ACTION_TIMEOUT_MS)
    return context


@contextmanager
def worker_page(playwright: Any, **options: Any) -> Iterator[tuple[Any, Any, list[str]]]:
    """A fresh profile with the service worker allowed (``options``: those of
    ``launch_chromium``), its first page, and the page's script errors as they come."""
    with launch_chromium(playwright, service_workers="allow", **options) as context:
        configure(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        yield context, page, errors


def ask_fixed_fights(live: Any, fights: str) -> None:
    """In a live Atelier: exactly ``fights`` fights per rule set (no precision to stop
    at, only « Arrêter »), then « Simuler les combats »."""
    live.locator(".widget-dropdown", has_text="Précision").locator("select").select_option(
        label="le nombre de combats indiqué")
    field = live.locator(".widget-text", has_text="Combats")
    field.locator("input").fill(fights)
    field.locator("input").press("Enter")
    live.get_by_role("button", name="Simuler les combats").click()


def activate_bar(page: Any) -> Any:
    """Click « Activer », wait until every example of the page ran; the bar."""
    bar = page.locator("#escarmouche-live")
    bar.locator(".escarmouche-live-activate").click()
    page.wait_for_selector("#escarmouche-live[data-live=ready]", timeout=READY_MS)
    return bar


def activate(page: Any) -> Any:
    """Click « Activer », wait until the page is live; its first live widget."""
    activate_bar(page)
    live = page.locator(".escarmouche-live-widget").first
    live.wait_for()
    return live


def axe_serious(page: Any, selector: str) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations under ``selector``."""
    page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate("""async (selector) => {
      const result = await axe.run(selector, {resultTypes: ['violations']});
      return result.violations
        .filter(v => v.impact === 'serious' || v.impact === 'critical')
        .map(v => ({id: v.id, nodes: v.nodes.slice(0, 4).map(
          n => n.target.join(' ') + ' | ' + ((n.any[0] || {}).message || ''))}));
    }""", selector)
    return found


def settle(page: Any) -> None:
    """Wait until Python has answered every widget message the page sent and the page has
    drawn the answers (``escarmoucheLive.settled()``, live.js), not a fixed delay."""
    page.evaluate("() => window.escarmoucheLive.settled()")
