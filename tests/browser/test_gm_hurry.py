"""The GM in a hurry (book_src/demos/suivi-combat.md), in Chromium at 390 px, light and dark.

- The tracker page opens on the tracker (within one screen of its title).
- Two taps a turn: the standard attack and the first standing enemy preselected, the
  defence on « aucune ».
- After « Agir » the result and the turn order stay in view, the journal shows its
  newest line; a double tap on « Au suivant » or « Agir » plays once.
- « caché » pressed reads at 3:1 or more against unpressed, with a check mark; axe finds
  no serious violation with it pressed; « Annuler » takes it back.
- A new fight asks first, and « Annuler » brings the old one back.
- A reload opens on the live tracker with « Reprendre le combat » in view, and
  « Annuler » then takes back the « caché » step made before it (the save keeps it).
- The players' view on a second browser (another profile: no channel between them)
  follows the fight through the local server, in the site's theme, with elision.
- The critical demo in the dark theme: chips and note legible, pressed toggles at 3:1,
  its first chart's title whole at 390 px.

Frugal on 2 cores: one activation (and a resume) per theme for the tracker, one for
the critical demo.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from escarmouche import systems
from escarmouche.text.fmt import de
from tests.browser.live_page import PHONE, READY_MS, TRACKER_KEY, activate, axe_serious, settle
from tools.browser_kit import launch_chromium

pytestmark = pytest.mark.browser


#: The relative luminance contrast of two CSS colours (``rgb(…)``), as WCAG defines it.
CONTRAST = """([a, b]) => {
  const lum = (c) => {
    const [r, g, bl] = c.match(/[\\d.]+/g).slice(0, 3).map(Number).map((v) => {
      v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}"""

#: Each toggle button of the live widgets: pressed or not, background, border, ✓.
TOGGLES = """(root) => Array.from(document.querySelectorAll(root + ' button.widget-toggle-button'))
  .filter((b) => b.offsetParent).map((b) => {
    const s = getComputedStyle(b);
    return {text: b.textContent.trim(), pressed: b.classList.contains('mod-active'),
            background: s.backgroundColor, border: parseFloat(s.borderTopWidth),
            mark: getComputedStyle(b, '::before').content};
  })"""

#: Whether an element (the first matching a selector, or a node) lies wholly on screen.
IN_VIEW = """(node) => { const r = node.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, height: window.innerHeight,
          whole: r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0}; }"""


def contrast(page: Any, a: str, b: str) -> float:
    return float(page.evaluate(CONTRAST, [a, b]))


def journal(page: Any) -> str:
    return str(page.locator(".escarmouche-live-widget .esc-tracker-log").inner_text())


def current(live: Any) -> str:
    found = re.search(r"au tour (?:de |d’)([^.\s]+)\.", live.locator(
        ".esc-tracker-turn").first.inner_text())
    assert found, live.inner_text()[:400]
    return found.group(1)


def order(live: Any) -> list[str]:
    rows = live.locator(".esc-tracker-turn .widget-hbox:has(button:has-text('caché'))")
    return [re.sub(r"^▶\s*", "", t).split()[0] for t in rows.all_inner_texts()]


def attacks(page: Any, actor: str) -> int:
    return len(re.findall(rf"\b{re.escape(actor)} (?:touche|manque|rate)", journal(page)))


def pressed_hide(page: Any) -> list[dict[str, Any]]:
    """The « caché » toggles pressed in the turn order."""
    return [t for t in page.evaluate(TOGGLES, ".esc-tracker-turn")
            if t["text"].endswith("caché") and t["pressed"]]


def selected(live: Any, label: str) -> str:
    text = live.locator(".widget-dropdown", has_text=label).locator("select").evaluate(
        "s => s.options[s.selectedIndex] ? s.options[s.selectedIndex].textContent : ''")
    return str(text).replace("\u00a0", " ")


@pytest.mark.parametrize("theme", ["light", "dark"], ids=["clair", "sombre"])
def test_the_gm_in_a_hurry_on_a_phone(page: Any, site_url: str, artifacts: Path,
                                      playwright: Any, theme: str) -> None:
    page.emulate_media(color_scheme=theme)
    page.set_viewport_size(PHONE)
    page.goto(f"{site_url}book/demos/suivi-combat.html")
    page.evaluate(f"localStorage.removeItem('{TRACKER_KEY}')")
    # the tracker within one screen of its title (its prose after it)
    gap = page.evaluate("""() => document.querySelector('.esc-static-widget')
      .getBoundingClientRect().top - document.querySelector('h1').getBoundingClientRect().top""")
    assert gap < PHONE["height"], gap
    live = activate(page)
    # offline offered where the GM is: in the tracker's bar, with its size
    keep = page.locator("#escarmouche-live .escarmouche-live-keep")
    keep.get_by_role("button", name="Garder le livre et Python sur cet appareil").wait_for()
    page.wait_for_function("() => /Mo/.test(document.querySelector("
                           "'#escarmouche-live .escarmouche-live-keep').textContent)")
    # nothing floats over a control: no « Haut de page » once the page is live
    page.evaluate("window.scrollTo(0, 1200)")
    page.wait_for_timeout(300)
    assert not page.locator("#pst-back-to-top").is_visible()
    live.locator(".widget-dropdown", has_text="Système").locator("select").select_option(
        label=systems.get("d100").title)
    settle(page)
    live.get_by_role("button", name="Commencer le combat").click()
    page.wait_for_selector("#escarmouche-live[data-saved]", timeout=60_000)
    settle(page)
    assert "Round 1" in live.inner_text()

    # two taps a turn: the standard attack on the first standing enemy, no defence
    first = order(live)
    actor = current(live)
    assert actor == first[0], (actor, first)
    assert selected(live, "Action").startswith("Attaque standard"), selected(live, "Action")
    sides = {f.name: f.side for f in systems.get("d100").sample_roster}
    assert sides[selected(live, "Cible")] != sides[actor]
    defence = page.evaluate(TOGGLES, ".esc-tracker-turn")
    assert [t["text"] for t in defence if t["pressed"]] == ["✓\u00a0aucune"] or \
        [t["text"] for t in defence if t["pressed"]] == ["aucune"], defence

    # every label of the turn whole at 390 px (« Paramètres : » was cut to « Paramèt… »)
    cut = page.evaluate("""() => Array.from(document.querySelectorAll(
        '.esc-tracker-turn .widget-inline-hbox > .widget-label'))
        .filter((l) => l.offsetParent && l.scrollWidth > l.clientWidth + 1)
        .map((l) => l.textContent)""")
    assert cut == [], cut

    # « Agir » twice at once: one attack; the result and the order stay in view (the
    # GM taps what is on screen: the page as « Commencer » left it)
    before = attacks(page, actor)
    live.get_by_role("button", name="Agir").dblclick()
    settle(page)
    page.wait_for_timeout(300)  # the page script's scroll, a frame after the answer
    assert attacks(page, actor) == before + 1, journal(page)
    result = page.evaluate(IN_VIEW, live.locator(".esc-result").first.element_handle())
    row = page.evaluate(IN_VIEW, live.locator(
        ".esc-tracker-turn .widget-html-content:has-text('▶')").first.element_handle())
    page.screenshot(path=artifacts / f"gm-hurry-after-agir-{theme}.png")
    assert result["whole"] and row["whole"], (result, row)
    newest = page.evaluate("""() => { const box = document.querySelector(
        '.escarmouche-live-widget .esc-tracker-log');
      const pre = box.querySelector('pre');
      return pre.getBoundingClientRect().bottom <= box.getBoundingClientRect().bottom + 1; }""")
    assert newest  # the journal shows its newest line

    # « Au suivant » twice at once: the next fighter, not the one after
    live.get_by_role("button", name=systems.get("d100").next_label).dblclick()
    settle(page)
    assert current(live) == first[1], (current(live), first)
    # Each double tap played once. Its second tap was either refused by the step guard or
    # landed on a control the answer had already redrawn (which takes no tap): which one
    # depends on the machine's speed, so the guard's refusal is counted where it is sure,
    # with a step that lasts 2,5 s (test_a_tap_while_python_computes_is_said_not_queued).

    # « caché »: pressed is visible (3:1, a check mark, a bold border), axe agrees, undone
    hide = live.locator(".esc-tracker-turn button.widget-toggle-button",
                        has_text="caché").last
    hide.click()
    settle(page)
    toggles = [t for t in page.evaluate(TOGGLES, ".esc-tracker-turn")
               if t["text"].endswith("caché")]
    pressed = [t for t in toggles if t["pressed"]]
    unpressed = [t for t in toggles if not t["pressed"]]
    assert len(pressed) == 1 and unpressed, toggles
    ratio = contrast(page, pressed[0]["background"], unpressed[0]["background"])
    assert ratio >= 3, (ratio, pressed[0], unpressed[0])
    assert "✓" in pressed[0]["mark"] and pressed[0]["border"] >= 2, pressed[0]
    violations = axe_serious(page, ".escarmouche-live-widget")
    assert violations == [], json.dumps(violations, ensure_ascii=False, indent=1)
    live.get_by_role("button", name="Annuler").click()
    settle(page)
    assert not [t for t in page.evaluate(TOGGLES, ".esc-tracker-turn")
                if t["text"].endswith("caché") and t["pressed"]]

    # a new fight asks first; « Annuler » brings the old one back
    played = journal(page)
    live.get_by_text("Préparation du combat").click()
    live.get_by_role("button", name="Commencer le combat").click()
    settle(page)
    confirm = live.locator(".esc-tracker-confirm")
    confirm.wait_for()
    page.wait_for_timeout(300)
    assert page.evaluate(IN_VIEW, confirm.element_handle())["whole"]
    assert journal(page) == played  # nothing replaced yet
    live.get_by_role("button", name="Remplacer le combat").click()
    settle(page)
    assert attacks(page, actor) == 0
    live.get_by_role("button", name="Annuler").click()
    settle(page)
    assert journal(page) == played
    assert "combat qu’il remplaçait" in live.locator(".esc-result").first.inner_text()

    # the players' view on another device follows through the local server
    players_seen = ""
    if theme == "light":
        players_seen = _players_follow(playwright, site_url, live, page)

    # a « caché » step, saved: after the reload « Annuler » still takes it back
    saved = page.get_attribute("#escarmouche-live", "data-saved")
    live.locator(".esc-tracker-turn button.widget-toggle-button", has_text="caché").last.click()
    settle(page)
    assert len(pressed_hide(page)) == 1
    page.wait_for_function("(before) => document.querySelector('#escarmouche-live')"
                           ".getAttribute('data-saved') !== before", arg=saved)

    # a reload opens on the live tracker, « Reprendre le combat » in view
    page.wait_for_selector("#escarmouche-live[data-saved]")
    page.wait_for_timeout(300)
    page.reload()
    offer = page.locator(".escarmouche-live-resume")
    offer.wait_for(timeout=30_000)
    assert page.evaluate(IN_VIEW, offer.element_handle())["whole"]
    offer.get_by_role("button", name="Reprendre le combat").click()
    page.wait_for_function("document.querySelector('.escarmouche-live-status').textContent"
                           ".includes('le combat a repris')", timeout=READY_MS)
    live = page.locator(".escarmouche-live-widget").first
    assert "Round 1" in live.inner_text()
    assert page.evaluate(IN_VIEW, live.element_handle())["top"] < PHONE["height"]
    page.screenshot(path=artifacts / f"gm-hurry-resumed-{theme}.png")
    # the « caché » step came back with the fight, and « Annuler » takes it back first
    settle(page)
    assert len(pressed_hide(page)) == 1
    played = journal(page)
    live.get_by_role("button", name="Annuler").click()
    settle(page)
    assert pressed_hide(page) == []
    assert journal(page) == played  # the toggle undone, not a fight step
    assert page.errors == [], page.errors
    print(f"\nvue des joueurs : {players_seen!r}")


def _players_follow(playwright: Any, site_url: str, live: Any, page: Any) -> str:
    """A second Chromium (its own profile: no BroadcastChannel reaches it) opens the
    players' page as a tablet would, in the site's dark theme (its switch)."""
    with launch_chromium(playwright) as tablet:
        tablet.add_init_script("try { localStorage.setItem('theme', 'dark'); } catch (e) {}")
        view = tablet.new_page()
        errors: list[str] = []
        view.on("pageerror", lambda exc: errors.append(str(exc)))
        view.goto(f"{site_url}_static/escarmouche-joueurs.html")
        # the GM steps once: the view follows
        live.get_by_role("button", name=systems.get("d100").next_label).click()
        settle(page)
        who = current(live)
        expected = f"au tour {de(who)}."
        view.wait_for_function("t => document.getElementById('tour').textContent.includes(t)",
                               arg=expected, timeout=30_000)
        shown = str(view.locator("#tour").inner_text())
        assert not re.search(r"\d+/\d+", view.locator("main").inner_text())  # no points
        background = view.evaluate("getComputedStyle(document.body).backgroundColor")
        assert contrast(view, background, "rgb(0, 0, 0)") < 1.5, background  # dark
        assert errors == []
        return shown


def test_the_critical_demo_reads_in_the_dark_at_390px(page: Any, site_url: str,
                                                      artifacts: Path) -> None:
    page.emulate_media(color_scheme="dark")
    page.set_viewport_size(PHONE)
    page.goto(f"{site_url}book/demos/critiques.html")
    live = activate(page)
    live.get_by_role("button", name="avec avantage").click()
    settle(page)
    live.get_by_role("button", name="Attaquer").click()
    settle(page)
    page.wait_for_timeout(400)  # the theme's colour transitions
    # rule chips and the italic note against what is under them
    texts = page.evaluate("""() => {
      const under = (n) => { for (let e = n; e; e = e.parentElement) {
        const c = getComputedStyle(e).backgroundColor;
        if (!/rgba\\(0, 0, 0, 0\\)|transparent/.test(c)) return c; }
        return 'rgb(255, 255, 255)'; };
      return Array.from(document.querySelectorAll(
        '.escarmouche-live-widget code[style*="#eef"], .escarmouche-live-widget p[style*="#555"]'))
        .filter((n) => n.offsetParent).map((n) => ({text: n.textContent.slice(0, 30),
          color: getComputedStyle(n).color,
          background: n.tagName === 'CODE' ? getComputedStyle(n).backgroundColor : under(n)}));
    }""")
    assert texts
    weak = [(t, contrast(page, t["color"], t["background"])) for t in texts]
    assert all(r >= 4.5 for _, r in weak), weak
    # pressed against unpressed
    toggles = page.evaluate(TOGGLES, ".escarmouche-live-widget")
    pressed = [t for t in toggles if t["pressed"]]
    unpressed = [t for t in toggles if not t["pressed"]]
    assert pressed and unpressed
    assert all(contrast(page, p["background"], u["background"]) >= 3
               for p in pressed for u in unpressed), toggles
    assert all("✓" in p["mark"] for p in pressed), pressed
    violations = axe_serious(page, ".escarmouche-live-widget")
    assert violations == [], json.dumps(violations, ensure_ascii=False, indent=1)
    # the first chart's title is whole: every line inside the chart, the defence said
    title = page.evaluate("""() => {
      const svg = Array.from(document.querySelectorAll('.escarmouche-live-widget svg[role=img]'))
        .find((s) => s.getBoundingClientRect().width > 50);
      const box = svg.getBoundingClientRect();
      const lines = Array.from(svg.querySelectorAll('text[font-weight=bold]'));
      return {text: lines.map((t) => t.textContent).join(' '),
              inside: lines.every((t) => { const r = t.getBoundingClientRect();
                return r.left >= box.left - 0.5 && r.right <= box.right + 0.5; })};
    }""")
    page.screenshot(path=artifacts / "gm-hurry-critiques-sombre-390.png", full_page=True)
    assert title["inside"] and "défense" in title["text"], title
    # a link that needs the network says so, and is dimmed while offline
    lite = page.locator("a.escarmouche-lite-button").first
    assert "demande le réseau" in (lite.get_attribute("title") or "")
    page.context.set_offline(True)
    try:
        page.wait_for_function("() => document.querySelector('a.escarmouche-lite-button')"
                               ".classList.contains('esc-needs-network')", timeout=5_000)
        assert "hors ligne" in lite.inner_text()
    finally:
        page.context.set_offline(False)
    page.wait_for_function("() => !document.querySelector('a.escarmouche-lite-button')"
                           ".classList.contains('esc-needs-network')", timeout=5_000)
    assert page.errors == []


SLOW = """import time
import ipywidgets as widgets
fois = []
lent = widgets.Button(description="Lent")
lent.on_click(lambda _b: (fois.append(1), time.sleep(2.5)))
compte = widgets.Button(description="Compter")
compte.on_click(lambda _b: setattr(compte, "description", f"Lent : {len(fois)}"))
widgets.HBox([lent, compte])"""


def test_a_tap_while_python_computes_is_said_not_queued(page: Any, site_url: str) -> None:
    """While a step runs, another tap shows « Python calcule… » with « Interrompre »
    and is not played later; a double tap plays once."""
    page.set_viewport_size(PHONE)
    page.goto(f"{site_url}book/demos/suivi-combat.html")
    activate(page)
    cell = page.locator("div.cell").nth(1)
    cell.locator("summary").first.click()
    code = cell.locator("textarea.escarmouche-live-code")
    code.fill(SLOW)
    cell.get_by_role("button", name="▶ Exécuter").click()
    slow = cell.locator(".escarmouche-live-widget").get_by_role("button", name="Lent")
    slow.wait_for(timeout=30_000)
    count = cell.locator(".escarmouche-live-widget").get_by_role("button", name="Compter")
    slow.dblclick()  # the second tap of a double tap: ignored
    page.wait_for_timeout(200)
    count.click()  # another button while Python computes: said, not queued
    busy = cell.locator(".escarmouche-live-busy")
    busy.wait_for(timeout=5_000)
    assert busy.inner_text().startswith("Python calcule…")
    assert busy.get_by_role("button", name="■ Interrompre").is_visible()
    settle(page)
    page.wait_for_timeout(200)
    assert busy.count() == 0  # gone with the step
    assert cell.locator(".escarmouche-live-widget").get_by_role(
        "button", name="Compter").count() == 1  # its tap was not played later
    count.click()
    settle(page)
    shown = cell.locator(".escarmouche-live-widget button").nth(1).inner_text()
    assert shown.replace("\u00a0", " ") == "Lent : 1", shown  # one run for two taps
    assert int(page.get_attribute("#escarmouche-live", "data-refused-taps") or 0) == 2
    assert page.errors == []
