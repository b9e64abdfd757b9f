"""(5) Reading on a phone (bench/README-pages.md): navigation, weight, widgets at 360 px, snapshots,
search, accessibility (axe-core from npm), print, edition.

Every page type is checked with axe-core in light and dark themes: no serious or
critical violation. Menu buttons are clicked as a reader would, at 390, 820 and 1280 px.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.browser.book_pages import ROOT
from tests.browser.live_page import AXE
from tools.browser_kit import SITE, SiteServer, launch_chromium

pytestmark = pytest.mark.browser

RULE_PAGE = "book/d100/attaque.html"
DEMO_PAGE = "book/demos/initiative.html"
#: One page per static page type.
PAGE_TYPES = {
    "accueil": "book/index.html",
    "règles": RULE_PAGE,
    "démonstration": DEMO_PAGE,
    "suivi": "book/demos/suivi-combat.html",
    "glossaire": "book/glossaire.html",
    "révisions": "book/editions/journal.html",
    "changements": "book/editions/edition-1.html",
    "aide-mémoire": "book/d100/aide-memoire.html",
    "api": "book/api.html",
    "recherche": "search.html?q=initiative",
}
#: A stored widget, drawn as HTML at build (book/_ext/escarmouche_static_widgets.py).
WIDGET_VIEW = ".esc-static-widget"
RULE_PAGE_BUDGET = 300 * 1024


def edition_label() -> str:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "escarmouche_site", ROOT / "book" / "_ext" / "escarmouche_site.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    edition: dict[str, Any] = module.current_edition()
    return str(edition["label"])


def wait_for_widgets(page: Any) -> int:
    views = int(page.locator(WIDGET_VIEW).count())
    if views:
        page.wait_for_function(
            "n => document.querySelectorAll('.jupyter-widgets').length >= n",
            arg=views, timeout=60_000)
    return views


# --- navigation --------------------------------------------------------------------------


@pytest.mark.parametrize("path", [RULE_PAGE, "book/glossaire.html"])
@pytest.mark.parametrize("width", [390, 820, 1280])
def test_menu_buttons_work_at_every_width(page: Any, site_url: str, width: int,
                                          path: str) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(site_url + path, wait_until="load")
    page.wait_for_function("() => document.readyState === 'complete'")
    primary = page.locator(".primary-toggle:visible")
    assert primary.count() >= 1, "aucun bouton ☰ visible"
    for i in range(primary.count()):
        button = primary.nth(i)
        box = button.bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, box
        button.click()
        if width < 992:
            drawer = page.locator("#pst-primary-sidebar-modal[open]")
            drawer.wait_for(state="visible", timeout=5000)
            assert drawer.locator("a.reference", has_text="Glossaire").count() >= 1
            page.keyboard.press("Escape")
            page.locator("#pst-primary-sidebar-modal[open]").wait_for(state="detached")
        else:
            sidebar = page.locator("#pst-primary-sidebar")
            page.wait_for_function(
                "() => document.querySelector('#pst-primary-sidebar')"
                ".classList.contains('pst-sidebar-hidden')", timeout=5000)
            button.click()
            assert "pst-sidebar-hidden" not in (sidebar.get_attribute("class") or "")
    secondary = page.locator(".secondary-toggle:visible")
    has_toc = page.locator(".bd-sidebar-secondary .toc-entry").count() > 0
    if width < 1200 and has_toc:
        assert secondary.count() >= 1, "aucun bouton de sommaire visible"
    for i in range(secondary.count()):
        secondary.nth(i).click()
        toc = page.locator("#pst-secondary-sidebar-modal[open]")
        toc.wait_for(state="visible", timeout=5000)
        assert toc.locator("a").count() >= 1
        page.keyboard.press("Escape")
        page.locator("#pst-secondary-sidebar-modal[open]").wait_for(state="detached")
    if width < 992:  # a reader reaches another chapter through the drawer
        primary.first.click()
        page.locator("#pst-primary-sidebar-modal[open] a.reference",
                     has_text="Sauts").first.click()
        page.wait_for_url(re.compile(r"d100/sauts\.html"))
    assert page.errors == []


# --- accessibility, console, 404 ---------------------------------------------------------


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("kind", list(PAGE_TYPES))
def test_axe_no_serious_violation(page: Any, site_url: str, kind: str, theme: str) -> None:
    page.emulate_media(color_scheme=theme)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(site_url + PAGE_TYPES[kind], wait_until="load")
    wait_for_widgets(page)
    if kind == "recherche":
        page.wait_for_selector("#search-results li", timeout=30_000)
    assert page.evaluate("document.documentElement.dataset.theme") == theme
    page.wait_for_timeout(500)  # the theme's colour transitions
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate("""async () => {
      const result = await axe.run(document, {resultTypes: ['violations']});
      return result.violations
        .filter(v => v.impact === 'serious' || v.impact === 'critical')
        .map(v => ({id: v.id, impact: v.impact, help: v.help,
                    nodes: v.nodes.slice(0, 5).map(n => n.target.join(' '))}));
    }""")
    assert violations == [], json.dumps(violations, ensure_ascii=False, indent=1)
    assert page.errors == []
    assert page.console_errors == []
    assert page.bad_responses == []


def test_french_labels_and_no_english_theme_text(page: Any, site_url: str) -> None:
    page.goto(site_url + RULE_PAGE, wait_until="load")
    html = page.content()
    for english in ("Toggle primary sidebar", "Toggle secondary sidebar", "Skip to main",
                    "Search this book", "Back to top"):
        assert english not in html
    assert page.locator("#pst-skip-link a").inner_text().strip().startswith("Passer au contenu")


# --- weight ------------------------------------------------------------------------------


def test_compressed_responses(site_url: str) -> None:
    for encoding in ("br", "gzip"):
        request = urllib.request.Request(site_url + RULE_PAGE,
                                         headers={"Accept-Encoding": encoding})
        with urllib.request.urlopen(request) as response:
            assert response.headers["Content-Encoding"] == encoding
            assert response.headers["Vary"] == "Accept-Encoding"
            assert response.headers["Content-Type"].startswith("text/html")
            assert int(response.headers["Content-Length"]) < (SITE / RULE_PAGE).stat().st_size
    with urllib.request.urlopen(site_url + RULE_PAGE) as response:  # no Accept-Encoding
        assert response.headers["Content-Encoding"] is None
        assert response.read() == (SITE / RULE_PAGE).read_bytes()


def test_rule_page_is_light(playwright: Any) -> None:
    """A rule page in a cold profile: under 300 KB sent, no icon script, no widget script."""
    with SiteServer(SITE) as server, launch_chromium(playwright) as context:
        urls: list[str] = []
        context.on("request", lambda r: urls.append(r.url))
        page = context.new_page()
        page.goto(server.url + RULE_PAGE, wait_until="load")
        page.wait_for_load_state("networkidle")
        sent = server.httpd.bytes_sent
    assert sent < RULE_PAGE_BUDGET, f"{sent} octets envoyés"
    assert not [u for u in urls if "fontawesome.js" in u or "live-widgets" in u]


def test_no_page_loads_the_widget_library_and_demos_are_drawn() -> None:
    """Light demo pages (docs/hebergement.md): stored widgets are HTML; live.js loads the
    library."""
    drawn = 0
    for html in SITE.joinpath("book").rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        assert "application/vnd.jupyter.widget-view+json" not in text, html
        assert "application/vnd.jupyter.widget-state+json" not in text, html
        assert not re.findall(r"<script[^>]*(?:require|embed-amd|live-widgets)\.js[^>]*>",
                              text), html
        drawn += text.count("esc-static-widget jupyter-widgets")
        assert "fontawesome.js" not in text, html
        assert not re.search(r'<i class="[^"]*\bfa-', text), html
    assert drawn >= 6


# --- widgets and charts at 360 px --------------------------------------------------------


@pytest.mark.parametrize("docname", [
    *(f"book/demos/{demo}" for demo in ("initiative", "surprise", "parade-esquive",
                                        "critiques", "tour-d20", "suivi-combat")),
    "book/d100/attaque", "book/comparaison",
])
def test_widgets_and_charts_fit_360(page: Any, site_url: str, docname: str) -> None:
    page.set_viewport_size({"width": 360, "height": 800})
    page.goto(f"{site_url}{docname}.html", wait_until="load")
    views = wait_for_widgets(page)
    overflow = page.evaluate("""() => {
      const column = document.querySelector('article.bd-article').getBoundingClientRect();
      const wide = [];
      for (const el of document.querySelectorAll(
          'article.bd-article svg, article.bd-article img, .jupyter-widgets')) {
        const r = el.getBoundingClientRect();
        if (r.width && r.right > column.right + 1) wide.push(el.outerHTML.slice(0, 120));
      }
      return {page: document.documentElement.scrollWidth, wide};
    }""")
    assert overflow["page"] <= 360, overflow
    assert overflow["wide"] == [], overflow
    if views:
        small = page.evaluate("""() => Array.from(document.querySelectorAll(
            '.cell_output .jupyter-widgets button, .cell_output .jupyter-widgets select, '
            + '.cell_output .jupyter-widgets input[type=text], '
            + '.cell_output .jupyter-widgets input[type=number]'))
          .filter(el => el.offsetParent !== null)
          .map(el => [el.getBoundingClientRect(), el.textContent || el.tagName])
          .filter(([r]) => r.width < 44 || r.height < 44)
          .map(([r, t]) => `${t.trim().slice(0, 20)} `
                           + `${Math.round(r.width)}×${Math.round(r.height)}`)
        """)
        assert small == [], small


def test_static_widgets_are_labelled_snapshots(page: Any, site_url: str) -> None:
    page.goto(site_url + DEMO_PAGE, wait_until="load")
    views = wait_for_widgets(page)
    assert views >= 1
    notes = page.locator("p.esc-snapshot")
    assert notes.count() == views
    assert "Activer" in notes.first.inner_text()


# --- search ------------------------------------------------------------------------------


def search_results(page: Any, site_url: str, query: str) -> list[str]:
    page.goto(f"{site_url}search.html?q={query}", wait_until="load")
    # Sphinx shows the hits one by one, then writes the summary with their count: wait
    # until the summary gives a number and that many hits are listed
    page.wait_for_function(
        """() => {
            const summary = document.querySelector('#search-results .search-summary');
            const count = summary && summary.textContent.match(/\\d+/);
            return count && Number(count[0]) > 0
                && document.querySelectorAll('#search-results li').length
                   === Number(count[0]);
        }""",
        timeout=30_000)
    summary = page.inner_text("#search-results .search-summary")
    assert "(s)" not in summary and re.fullmatch(
        r"Recherche terminée\u00a0: (1 page trouvée|\d+ pages trouvées)\.", summary), summary
    hrefs: list[str] = page.eval_on_selector_all(
        "#search-results li > a", "els => els.map(a => a.getAttribute('href'))")
    return hrefs


def test_search_ranks_rules_before_api_and_ignores_accents(page: Any, site_url: str) -> None:
    hits = search_results(page, site_url, "initiative")
    api = [i for i, h in enumerate(hits) if h.startswith("book/api")]
    rules = [i for i, h in enumerate(hits)
             if re.match(r"book/(rulebook|d100|d12|d20)/|book/glossaire", h)]
    assert rules and rules[0] == 0, hits[:5]
    assert not api or max(rules) < min(api), hits
    assert search_results(page, site_url, "defense") == search_results(page, site_url,
                                                                        "d%C3%A9fense")


# --- print, PDF, edition -----------------------------------------------------------------


def test_print_stylesheet(page: Any, site_url: str) -> None:
    page.emulate_media(media="print")
    page.goto(site_url + DEMO_PAGE, wait_until="load")
    wait_for_widgets(page)
    for hidden in ("a.escarmouche-lite-button", ".primary-toggle", ".bd-sidebar-primary",
                   "p.esc-snapshot"):
        assert page.locator(f"{hidden}:visible").count() == 0, hidden
    assert page.eval_on_selector(
        "div.cell_input pre", "el => getComputedStyle(el).whiteSpace") == "pre-wrap"
    footer = page.locator(".esc-print-footer")
    assert footer.is_visible()
    text = footer.inner_text()
    assert edition_label() in text and DEMO_PAGE in text


def test_edition_on_every_page_and_pdf_linked() -> None:
    from pypdf import PdfReader

    label = edition_label()
    pages = [p for p in SITE.rglob("*.html")
             if not p.is_relative_to(SITE / "lite") and not p.is_relative_to(SITE / "_static")
             and "http-equiv=\"Refresh\"" not in p.read_text(encoding="utf-8")[:2000]]
    assert len(pages) > 20
    for html in pages:
        text = html.read_text(encoding="utf-8")
        assert label in text, html
        # the edition in the footer leads to its « Ce qui a changé » page
        footer = re.search(r'class="esc-edition">Escarmouche, <a href="([^"]+)"', text)
        assert footer, html
        assert (html.parent / footer.group(1)).resolve().is_file(), (html, footer.group(1))
    home = (SITE / "book" / "index.html").read_text(encoding="utf-8")
    link = re.search(r'href="([^"]+\.pdf)"', home)
    assert link, "pas de lien vers le PDF sur l’accueil"
    pdf = (SITE / "book" / link.group(1)).resolve()
    reader = PdfReader(pdf)
    assert len(reader.pages) > 30
    assert len(reader.outline) >= 20
    assert label in reader.pages[5].extract_text()


def test_favicon(site_url: str) -> None:
    html = (SITE / RULE_PAGE).read_text(encoding="utf-8")
    icon = re.search(r'<link rel="icon" href="([^"]+)"', html)
    assert icon
    target = (SITE / Path(RULE_PAGE).parent / icon.group(1)).resolve()
    assert target.is_file()


@pytest.mark.parametrize("docname", ["book/concepteurs", "book/api", "book/format-effectifs",
                                     "book/format-sauvegarde", "book/glossaire",
                                     "book/editions/journal"])
def test_long_tokens_wrap_rather_than_widen_the_page_at_390(page: Any, site_url: str,
                                                            docname: str) -> None:
    """A path, a dotted name, a quoted field or a signature wraps in its line: the page
    never scrolls sideways on a 390 px phone (tables scroll in their own container)."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{site_url}{docname}.html", wait_until="load")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
