"""What a page paints first is what it keeps (bench/README-pages.md, Lighthouse mobile): one merged
stylesheet instead of fourteen (book/_ext/escarmouche_css.py), and the parts scripts used
to add after the first paint drawn at build instead (a rule page's contents, the
« Activer » bar with its sizes), so that nothing pushes the page down."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from book._ext import escarmouche_css as css
from tools import build_offline

# Imported by name: they import docutils and their sibling escarmouche_jupyterlite, which
# mypy does not follow from here.
live: Any = importlib.import_module("book._ext.escarmouche_live_pages")
site: Any = importlib.import_module("book._ext.escarmouche_site")

PAGE = """<html><head>
<link href="../../_static/styles/theme.css?digest=1" rel="stylesheet" />
<link rel="stylesheet" type="text/css" href="../../_static/pygments.css?v=2" />
<link media="print" rel="stylesheet" type="text/css" href="../../_static/print.css" />
<link rel="stylesheet" type="text/css" href="../../_static/live/live.css?v=3" />
<link rel="icon" href="../../_static/favicon.svg"/>
</head><body><p>Texte</p></body></html>"""


def _site(tmp_path: Path) -> Path:
    static = tmp_path / "_static"
    (static / "styles").mkdir(parents=True)
    (static / "live").mkdir()
    (static / "styles" / "theme.css").write_text('@import "../basic.css";\n.t{color:red}')
    (static / "basic.css").write_text("div.b{background:url(file.png)}")
    (static / "pygments.css").write_text(".p{font:1em/1 x}")
    (static / "live" / "live.css").write_text(
        '.l{background:url("../icons/i.png")} .d{background:url(data:image/png;base64,AA)}')
    (static / "print.css").write_text("@media print{.x{display:none}}")
    (tmp_path / "book" / "d100").mkdir(parents=True)
    return tmp_path


def test_screen_stylesheets_become_one_file_in_their_order(tmp_path: Path) -> None:
    out = _site(tmp_path)
    made: dict[tuple[str, ...], str] = {}
    text = css.merge_page(PAGE, "book/d100/page.html", out, made)
    links = re.findall(r"<link[^>]*stylesheet[^>]*>", text)
    assert len(links) == 2 and 'media="print"' in links[1]  # print stays apart
    href = re.search(r'href="([^"]+)"', links[0]).group(1)  # type: ignore[union-attr]
    assert re.fullmatch(r"\.\./\.\./_static/escarmouche-[0-9a-f]{16}\.css", href)
    merged = (out / "book" / "d100" / href).resolve().read_text()
    # same rules, same order; the @import inlined; url()s rebased onto _static/
    order = [merged.index(rule) for rule in ("div.b", ".t{", ".p{", ".l{")]
    assert order == sorted(order) and "@import" not in merged
    assert "url(file.png)" in merged and 'url("icons/i.png")' in merged
    assert "url(data:image/png;base64,AA)" in merged
    assert '<link rel="icon"' in text
    # idempotent, and a page with the same list shares the file
    assert css.merge_page(text, "book/d100/page.html", out, made) == text
    other = css.merge_page(PAGE, "book/d100/other.html", out, made)
    assert re.search(r'href="([^"]+)"', other).group(1) == href  # type: ignore[union-attr]


def test_a_changed_source_gets_a_new_merged_file_on_an_unchanged_page(tmp_path: Path
                                                                      ) -> None:
    out = _site(tmp_path)
    first = css.merge_page(PAGE, "book/d100/page.html", out, {})
    (out / "_static" / "pygments.css").write_text(".p{font:2em/1 y}")
    again = css.merge_page(first, "book/d100/page.html", out, {})
    assert again != first
    href = re.search(r'href="(\.\./\.\./_static/escarmouche-[^"]+)"', again)
    assert href and "2em/1 y" in (out / "book" / "d100" / href.group(1)).resolve().read_text()


def test_a_stylesheet_from_elsewhere_leaves_the_page_alone(tmp_path: Path) -> None:
    out = _site(tmp_path)
    page = PAGE.replace("../../_static/pygments.css?v=2", "https://cdn.example/x.css")
    assert css.merge_page(page, "book/d100/page.html", out, {}) == page


RULES = """<html><body><article class="bd-article"><section>
<h1>Effectuer une attaque<a class="headerlink" href="#x">#</a></h1>
<p id="d100-atk-1"><strong>D100-ATK-1</strong> — <strong>1. Le jet d’attaque.</strong> On lance.</p>
<p id="d100-atk-2"><strong>D100-ATK-2</strong> — <strong>2. La <em>localisation</em>.</strong></p>
<p id="note">Une note.</p>
<p id="d100-atk-3"><strong>D100-ATK-3</strong> — sans titre.</p>
</section></article></body></html>"""


def test_rule_contents_are_drawn_at_build_under_the_title() -> None:
    text = site.rule_contents(RULES)
    box = re.search(r'</h1><details class="esc-page-contents">(.*?)</details>', text)
    assert box is not None
    assert "<summary>Sur cette page\u00a0: 3 règles</summary>" in box.group(1)
    assert re.findall(r'<li><a href="#([^"]+)">([^<]+)</a></li>', box.group(1)) == [
        ("d100-atk-1", "D100-ATK-1 — 1. Le jet d’attaque"),
        ("d100-atk-2", "D100-ATK-2 — 2. La localisation"),
        ("d100-atk-3", "D100-ATK-3"),
    ]
    assert ('<p id="d100-atk-2"><a class="esc-rule-anchor" href="#d100-atk-2" '
            'title="Lien vers la règle D100-ATK-2 (à partager)"><strong>D100-ATK-2</strong>'
            "</a>") in text
    assert site.rule_contents(text) == text  # idempotent


def test_a_page_of_two_rules_keeps_no_contents() -> None:
    two = RULES.replace('<p id="d100-atk-3"><strong>D100-ATK-3</strong> — sans titre.</p>', "")
    assert site.rule_contents(two) == two


def test_the_live_bar_is_whole_at_build_with_sizes_the_offline_step_fills() -> None:
    for widgets in (False, True):
        bar = live.bar_html(widgets)
        assert "hidden" not in bar.split(">", 1)[0]  # shown from the first paint
        assert "<noscript><style>#escarmouche-live{display:none}</style></noscript>" in bar
        assert "figé" in bar and "\u202f; «\u00a0Activer\u00a0»" in bar
        assert "La première fois, Python est téléchargé\u00a0: " in bar
        keys = set(re.findall(r'data-esc-taille="([a-z-]+)"', bar))
        page = "runtime-widgets" if widgets else "runtime-moteur"
        assert keys == {page, page + "-gz"}


def test_a_page_runtime_is_the_core_and_the_closure_of_its_packages() -> None:
    runtime = {
        "core": [{"file": "pyodide.asm.wasm", "bytes": 100, "gz": 50}],
        "packages": {
            "escarmouche": {"bytes": 10, "gz": 5, "depends": ["icepool"]},
            "icepool": {"bytes": 20, "gz": 8, "depends": []},
            "ipywidgets": {"bytes": 40, "gz": 20, "depends": ["comm"]},
            "comm": {"bytes": 3, "gz": 2, "depends": []},
        },
    }
    assert build_offline.page_runtime(runtime, ["escarmouche"]) == {"bytes": 130, "gz": 63}
    assert build_offline.page_runtime(runtime, ["escarmouche", "ipywidgets"]) == {
        "bytes": 173, "gz": 85}


def test_the_offline_book_leaves_out_the_stylesheets_no_page_links(tmp_path: Path) -> None:
    out = _site(tmp_path)
    (out / "book" / "d100" / "page.html").write_text(PAGE)
    (out / "index.html").write_text(  # a page left alone: a stylesheet from elsewhere
        '<html><head><link rel="stylesheet" href="_static/pygments.css" />'
        '<link rel="stylesheet" href="https://cdn.example/x.css" /></head></html>')
    app = SimpleNamespace(outdir=str(out), builder=SimpleNamespace(format="html"))
    css.merge_site(app, None)  # type: ignore[arg-type]
    listing = json.loads((out / "_static" / css.MERGED_LIST).read_text())
    # pygments.css is merged on one page but still linked by the other (and basic.css,
    # only @imported, is not listed: it stays, 15 KB)
    assert listing["merged"] == ["_static/live/live.css", "_static/styles/theme.css"]
    assert build_offline.merged_stylesheets(out) == listing["merged"]
    kept = {p.relative_to(out).as_posix() for p in build_offline.precache_files(out)}
    assert "_static/live/live.css" not in kept and "_static/pygments.css" in kept
    assert listing["files"][0] in kept and "_static/print.css" in kept


def test_a_page_loses_the_theme_search_scripts_it_never_calls() -> None:
    """The theme's layout puts its search tools in every ``<head>`` for a search-as-you-type
    dialog this book leaves off; a page other than the search page loses them (three
    requests and a 164 KB index fewer before its load), the rest of its scripts stay."""
    head = """<head>
    <script defer src="../_static/doctools.js?v=9a2dae69"></script>
    <script>DOCUMENTATION_OPTIONS.search_as_you_type = false;</script>

    <script defer src="../_static/searchtools.js"></script>
    <script defer src="../_static/language_data.js"></script>
    <script defer src="../searchindex.js"></script>
  <style>.x{}</style></head>"""
    page = site.drop_search_tools(head)
    assert "searchtools" not in page and "language_data" not in page
    assert "searchindex" not in page
    assert '<script defer src="../_static/doctools.js?v=9a2dae69"></script>' in page
    assert "search_as_you_type = false" in page and "<style>.x{}</style>" in page
    assert site.drop_search_tools(page) == page


def test_the_copy_buttons_script_waits_for_the_idle_page() -> None:
    """sphinx-copybutton leaves the deferred chain: its URL goes to escarmouche-site.js's
    tag, which loads it once the page is idle; ClipboardJS, a UMD bundle that must run
    before RequireJS, stays where it was."""
    head = """<head>
    <script defer src="../_static/clipboard.min.js?v=a7894cd8"></script>
    <script defer src="../_static/copybutton.js?v=f281be69"></script>
    <script defer src="../_static/doctools.js?v=1"></script>
    <script defer="defer" src="../_static/escarmouche-site.js?v=dbeb4c36"></script>
    </head>"""
    page = site.idle_copy_buttons(head)
    assert '<script defer src="../_static/copybutton.js' not in page
    assert '<script defer src="../_static/clipboard.min.js?v=a7894cd8"></script>' in page
    assert ('<script defer="defer" data-idle-scripts="../_static/copybutton.js?v=f281be69" '
            'src="../_static/escarmouche-site.js?v=dbeb4c36">') in page
    assert '<script defer src="../_static/doctools.js?v=1"></script>' in page
    assert site.idle_copy_buttons(page) == page
    # A page without the site script keeps its copy buttons as they are.
    alone = '<script defer src="../_static/copybutton.js?v=f281be69"></script>'
    assert site.idle_copy_buttons(alone) == alone


def test_the_head_waits_for_no_script_download() -> None:
    """The parser stops at a synchronous script until it has downloaded (bench/README-pages.md: the
    tap on « Activer » waits for the page's first paint). Sphinx's page options are
    written into the page, before the inline scripts that complete them; every other
    script of the head is deferred, in order."""
    options = "const DOCUMENTATION_OPTIONS = {\n    VERSION: '',\n};\n"
    page = ("<html><head>"
            '<script src="../_static/jquery.js?v=1"></script>'
            '<script src="../_static/documentation_options.js?v=72dce1d2"></script>'
            '<script defer src="../_static/doctools.js?v=2"></script>'
            "<script>DOCUMENTATION_OPTIONS.pagename = 'x';</script>"
            '</head><body><script src="late.js"></script></body></html>')
    text = site.defer_head_scripts(page, options)
    head = text[:text.index("</head>")]
    assert "documentation_options.js" not in head
    inline = head.index("<script>const DOCUMENTATION_OPTIONS")
    assert inline < head.index("DOCUMENTATION_OPTIONS.pagename")
    assert not re.findall(r"<script (?![^>]*\bdefer\b)[^>]*\bsrc=", head)
    assert head.index("jquery.js") < head.index("doctools.js")  # order kept
    assert '<script src="late.js">' in text  # the body is left alone
    assert site.defer_head_scripts(text, options) == text  # idempotent
    # without the options' text (or with a text that would close the tag) the script
    # stays, synchronous
    for kept in ("", "x = '</script>';"):
        again = site.defer_head_scripts(page, kept)
        assert '<script src="../_static/documentation_options.js?v=72dce1d2"></script>' in again
