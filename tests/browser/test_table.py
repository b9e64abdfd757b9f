"""The GM at the table (book_src/demos/suivi-combat.md), in Chromium, at 390 px and on a
desktop, light and dark.

- Live widgets: every checkbox label visible, axe-core (no serious or critical
  violation) on the live widget, chart text at least 12 px on a phone, after « Lancer »
  the result in view, and the page opens in the state its text promises.
- Long rule pages: the page contents (« Sur cette page ») and rule anchors to share.
- The tracker on a phone: a whole 4-fighter d100 fight with parries played by taps
  alone (the taps of each round counted), the player view following it in a second
  window, undo and redo across a reload.

Frugal on 2 cores: two live activations for the widgets, one (plus a reload) for the
tracker.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from escarmouche import systems
from tests.browser.live_page import (
    DESKTOP,
    PHONE,
    READY_MS,
    TRACKER_KEY,
    activate,
    axe_serious,
    settle,
)

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]

#: Each checkbox of the live widgets: its label's text box against the label's own box
#: (a label pushed out of a box with ``overflow: hidden`` is invisible).
CHECKBOXES = """() => Array.from(document.querySelectorAll(
    '.escarmouche-live-widget .widget-checkbox')).filter(cb => cb.offsetParent).map(cb => {
  const label = cb.querySelector('label.widget-label-basic');
  const span = label.querySelector('span');
  const l = label.getBoundingClientRect(), s = span.getBoundingClientRect();
  return {text: span.textContent, inside: s.left >= l.left - 1 && s.right <= l.right + 1
          && s.width > 0, right: s.right};
})"""

#: The smallest text of each chart as rendered (font size × the chart's scale).
CHART_TEXT = """() => Array.from(document.querySelectorAll('svg[role=img]'))
  .filter(s => s.getBoundingClientRect().width > 50).map(s => {
    const scale = s.getBoundingClientRect().width / s.viewBox.baseVal.width;
    const sizes = Array.from(s.querySelectorAll('text')).map(
      t => parseFloat(t.getAttribute('font-size')));
    return {chart: s.getAttribute('aria-label'), px: Math.min(...sizes) * scale};
  })"""


#: Whether the roster shows ``n`` lines, each stats box holding ``s`` (the system's
#: example drawn whole).
STATS_ALL = """([s, n]) => { const boxes = Array.from(document.querySelectorAll(
    ".escarmouche-live-widget .widget-hbox:has(input[placeholder='nom'])"))
    .map(l => l.querySelectorAll('input')[2]);
  return boxes.length === n && boxes.every(b => b && b.value.includes(s)); }"""




@pytest.mark.parametrize(("theme", "size"), [("dark", PHONE), ("light", DESKTOP)],
                         ids=["sombre-390px", "clair-1280px"])
def test_live_widgets_read_in_both_themes(page: Any, site_url: str, artifacts: Path,
                                          theme: str, size: dict[str, int]) -> None:
    page.emulate_media(color_scheme=theme)
    page.set_viewport_size(size)
    page.goto(f"{site_url}book/demos/parade-esquive.html")
    if size is PHONE:  # the stored charts, before any Python: at least 12 px on a phone
        small = [c for c in page.evaluate(CHART_TEXT) if c["px"] < 12 - 0.05]
        assert small == [], small
    live = activate(page)
    assert page.evaluate("document.documentElement.dataset.theme") == theme
    page.wait_for_timeout(400)  # the theme's colour transitions
    # the page opens as its text says: graine 5, no manual dice, no banner
    assert not live.locator(".widget-checkbox", has_text="dés manuels").locator(
        "input").is_checked()
    assert live.locator(".widget-text", has_text="graine").locator("input").input_value() \
        == "5"
    boxes = page.evaluate(CHECKBOXES)
    assert boxes and all(b["inside"] and b["right"] <= size["width"] for b in boxes), boxes
    violations = axe_serious(page, ".escarmouche-live-widget")
    assert violations == [], json.dumps(violations, ensure_ascii=False, indent=1)
    # « Lancer » brings the result into view
    page.evaluate("window.scrollTo(0, 0)")
    live.get_by_role("button", name="Attaquer").click()  # (its icon is in the name)
    page.wait_for_function("""() => {
      const out = Array.from(document.querySelectorAll(
        '.escarmouche-live-widget .widget-html-content')).find(
        e => e.textContent.includes('Dés lancés'));
      if (!out) return false;
      const r = out.getBoundingClientRect();
      return r.top >= 0 && r.top < window.innerHeight;
    }""", timeout=30_000)
    page.screenshot(path=artifacts / f"table-parade-{theme}-{size['width']}.png")
    assert page.errors == []


def test_initiative_opens_on_what_its_text_promises(page: Any, site_url: str) -> None:
    page.set_viewport_size(PHONE)
    page.goto(f"{site_url}book/demos/initiative.html")
    text = page.locator("article").inner_text()
    assert "La démonstration s’ouvre sur le système Rulebook, avec\nla graine 7" in text \
        or "s’ouvre sur le système Rulebook, avec la graine 7" in text
    live = activate(page)
    assert live.locator(".widget-dropdown", has_text="Système").locator("select") \
        .input_value().startswith("Système Rulebook")
    assert not live.locator(".widget-checkbox", has_text="dés manuels").locator(
        "input").is_checked()
    assert "9, 9, 12, 2" not in live.inner_text()  # a later cell drove a copy, not it
    assert page.errors == []


def test_long_rule_page_has_contents_and_shareable_anchors(page: Any, site_url: str
                                                           ) -> None:
    page.set_viewport_size(PHONE)
    page.goto(f"{site_url}book/d100/attaque.html")
    contents = page.locator("details.esc-page-contents")
    summary = contents.locator("summary")
    assert summary.inner_text().replace("\u00a0", " ") == "Sur cette page : 7 règles"
    box = summary.bounding_box()
    assert box is not None and box["y"] < PHONE["height"]  # on the first screen
    summary.click()
    entry = contents.get_by_role("link", name=re.compile("^D100-ATK-5"))
    entry.click()
    page.wait_for_function("location.hash === '#d100-atk-5'")
    target = page.locator("#d100-atk-5").bounding_box()
    assert target is not None and 0 <= target["y"] < PHONE["height"] / 2
    share = page.locator("#d100-atk-5 a.esc-rule-anchor")
    assert share.get_attribute("href") == "#d100-atk-5"
    assert page.errors == []


def selected_action(live: Any) -> str:
    text = live.locator(".widget-dropdown", has_text="Action").locator("select").evaluate(
        "s => s.options[s.selectedIndex] ? s.options[s.selectedIndex].textContent : ''")
    return str(text).replace("\u00a0", " ")


def test_a_d100_fight_on_the_phone_tracker_by_taps(page: Any, site_url: str,
                                                   artifacts: Path) -> None:
    """Four fighters, d100, parries prepared and used; every round counted in taps."""
    page.set_viewport_size(PHONE)
    page.goto(f"{site_url}book/demos/suivi-combat.html")
    page.evaluate(f"localStorage.removeItem('{TRACKER_KEY}')")
    live = activate(page)
    # the tracker opens on the example group, no fight under way
    assert "Aucun combat en cours" in live.inner_text()
    live.locator(".widget-dropdown", has_text="Système").locator("select").select_option(
        label=systems.get("d100").title)
    # The kernel answers in order but draws asynchronously: the system's change reloads
    # the example lines. Wait until every line shows d100 stats before counting them,
    # or the count (and the line filled below) may be the old system's.
    # (The lines are drawn one by one: wait for all of the system's example fighters.)
    settle(page)
    before = len(systems.get("d100").sample_roster)
    page.wait_for_function(STATS_ALL, arg=["CC=", before], timeout=30_000)
    lines = live.locator(".widget-hbox:has(input[placeholder='nom'])")
    live.get_by_role("button", name="Ajouter un combattant").click()
    settle(page)
    page.wait_for_function(
        "n => document.querySelectorAll(\".escarmouche-live-widget .widget-hbox "
        "input[placeholder='nom']\").length === n + 1", arg=before, timeout=30_000)
    line = lines.last
    assert line.locator("input[placeholder='nom']").input_value() == ""
    line.locator("input[placeholder='nom']").fill("Vex")
    line.locator("input[placeholder='camp']").fill("monstres")
    line.locator("input").nth(2).fill("CC=35, CT=30, F=30, E=35, Ag=40, M=4, B=10")
    for line in live.locator(".widget-hbox:has(input[placeholder='nom'])").all():
        stats = line.locator("input").nth(2)  # a short fight: 5 wounds each (setup)
        stats.fill(re.sub(r"B=\d+", "B=5", stats.input_value()))
    assert lines.count() == before + 1
    # The start is saved when the worker has answered: wait for that save (or for a
    # refusal), then say what the tracker shows if it is not the first round.
    live.get_by_role("button", name="Commencer le combat").click()
    page.wait_for_function(
        """() => document.getElementById('escarmouche-live').hasAttribute('data-saved')
                 || document.querySelector('.escarmouche-live-widget [role=alert]')""",
        timeout=60_000)
    shown = live.inner_text()
    assert "Round 1" in shown, shown[:600]

    with page.context.expect_page() as opened:
        live.get_by_text("Vue des joueurs et fin du combat").click()
        live.get_by_role("link", name="Ouvrir la vue des joueurs").click()
    players = opened.value
    players.wait_for_function("document.body.dataset.recu", timeout=30_000)
    assert "Round 1" in players.locator("#tour").inner_text()
    assert not re.search(r"\d+/\d+", players.locator("main").inner_text())  # no points
    # The GM's tab to the front, as at the table (the players' view is another screen): a
    # tab behind has no animation frames, and each click would wait about a second for
    # them (130 s for the fight instead of 25 s). The players' view still hears each
    # change in the background (polled below by timer, not by frames).
    page.bring_to_front()

    def tap(name: str) -> None:
        live.get_by_role("button", name=name).click()

    taps_per_round: dict[int, int] = {}
    parried = 0
    for _ in range(120):
        text = live.inner_text()
        if "Combat terminé" in text:
            break
        found = re.search(r"Round (\d+)", text)
        assert found, text[:300]
        round_no = int(found.group(1))
        # book_src/demos/suivi-combat.md: the standard attack on the first standing enemy is
        # preselected, and the defence offers only what the target may do (a parry once
        # prepared)
        taps = 0
        if live.get_by_role("button", name="parade").count():
            tap("parade")
            taps += 1
        tap("Agir")
        taps += 1
        settle(page)  # Python has answered and the page shows its result
        if "D100-PARRY-1" in live.inner_text():  # the parry was rolled
            parried += 1
        # then the parry for the next attacks, preselected as the second half action
        if "Combat terminé" not in live.inner_text() and selected_action(live).startswith(
                "Préparer une parade"):
            tap("Agir")
            taps += 1
            settle(page)
        if "Combat terminé" in live.inner_text():
            taps_per_round[round_no] = taps_per_round.get(round_no, 0) + taps
            break
        tap(systems.get("d100").next_label)
        taps += 1
        settle(page)
        taps_per_round[round_no] = taps_per_round.get(round_no, 0) + taps
    assert "Combat terminé" in live.inner_text()
    assert parried > 0  # parries were used, not only refused
    players.wait_for_function(
        "document.getElementById('tour').textContent.includes('Combat terminé')",
        polling=200, timeout=30_000)
    full = [n for r, n in taps_per_round.items() if r < max(taps_per_round)]
    print(f"\ntaps par round (4 combattants, d100) : {taps_per_round}")
    assert full and max(full) <= 4 * 4  # at most 4 taps a fighter (book_src/demos/suivi-combat.md)

    # undo reopens the finished fight; it survives a reload with its history
    tap("Annuler")
    page.wait_for_function("() => !document.querySelector('.escarmouche-live-widget')"
                           ".innerText.includes('Combat terminé')", timeout=30_000)
    page.wait_for_selector("#escarmouche-live[data-saved]", timeout=30_000)
    page.wait_for_timeout(300)
    page.reload()
    offer = page.locator(".escarmouche-live-resume")
    offer.wait_for(timeout=30_000)
    offer.get_by_role("button", name="Reprendre le combat").click()
    page.wait_for_function("document.querySelector('.escarmouche-live-status').textContent"
                           ".includes('le combat a repris')", timeout=READY_MS)
    live = page.locator(".escarmouche-live-widget").first
    assert "Combat terminé" not in live.inner_text()
    live.get_by_role("button", name="Rétablir").click()
    page.wait_for_function("() => document.querySelector('.escarmouche-live-widget')"
                           ".innerText.includes('Combat terminé')", timeout=30_000)
    page.screenshot(path=artifacts / "table-suivi-390px.png", full_page=True)
    players.close()
    assert page.errors == []
