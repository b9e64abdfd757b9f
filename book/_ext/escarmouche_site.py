"""Local Sphinx extension: the reading side of the Escarmouche site (CONTRIBUTING.md,
« Reading side of the site »).

- **Edition** — the current edition (the highest ``editions/<n>.toml``) is the one
  source of the number and date printed on every page (footer, print footer, PDF).
- **Navigation** — ``escarmouche-site.js`` makes every visible ☰ / table-of-contents
  button work (the theme scripts only wire the first, hidden, one).
- **Weight** — no Font Awesome JavaScript (1.5 MB): the few icons the pages use are
  inlined as SVG at the end of the build, from the path data of the theme's own
  ``fontawesome.js`` (which is then deleted from the output); the icon font that the
  theme's stylesheets still use (admonition and chevron glyphs) is cut down to those
  glyphs (156 KB → a few KB). Every script of ``<head>`` gets ``defer``, and Sphinx's
  page options are written into the page: the parser waits for no download.
- **Snapshots** — every static widget is introduced by a note: it is a snapshot of the
  cell's result, and the page's « Activer » button makes it live.
- **Search** — rule pages and the glossary rank before the API reference
  (``escarmouche_scorer.js``), and words are indexed and searched without accents.
- **Accessibility and French** — English labels of the theme are translated, the theme
  mode defaults to ``auto`` (no « Got invalid theme mode » error), a favicon exists.
- **Print** — ``escarmouche-print.css``; the home page links the whole-book PDF
  (built by ``tools/build_pdf.py``).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import html
import json
import os
import re
import shutil
import tomllib
import unicodedata
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.search.fr import SearchFrench
from sphinx.util import logging

from book._ext.escarmouche_jupyterlite import insert_under_title
from escarmouche.text.fmt import plural
from escarmouche.text.typo import typographie_html

LOGGER = logging.getLogger(__name__)
HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
EDITIONS = ROOT / "editions"
SCORER = HERE / "escarmouche_scorer.js"
CSS = "escarmouche-site.css"
PRINT_CSS = "escarmouche-print.css"
JS = "escarmouche-site.js"
FAVICON = "favicon.svg"
#: Changes to this file or the editions must rebuild every page.
VERSION = hashlib.sha256(
    Path(__file__).read_bytes()
    + b"".join(p.read_bytes() for p in sorted(EDITIONS.glob("*.toml")))
    # publishing an edition (its snapshot) changes the edition every page shows
    + "".join(sorted(p.parent.name for p in EDITIONS.glob("*/rules.json"))).encode()
    + os.environ.get("ESCARMOUCHE_APERCU", "").encode()
).hexdigest()[:12]

MONTHS = ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août",
          "septembre", "octobre", "novembre", "décembre")
NBSP = "\u00a0"


# --- the edition ---------------------------------------------------------------------


def french_date(day: dt.date) -> str:
    first = "1er" if day.day == 1 else str(day.day)
    return f"{first}{NBSP}{MONTHS[day.month - 1]} {day.year}"


#: set to « 1 » to build a preview of the next edition while it is still a draft
PREVIEW_VARIABLE = "ESCARMOUCHE_APERCU"


def current_edition(folder: Path = EDITIONS, *, preview: bool | None = None
                    ) -> dict[str, Any]:
    """The edition the book shows: the published one with the highest number (an edition
    is published once ``editions/<n>/`` holds its snapshot, ``escarmouche edition
    --publier``), so a draft ``editions/<n>.toml`` never reaches the footer, the PDF or
    the home page. With ``preview`` (default: the environment variable
    ``ESCARMOUCHE_APERCU=1``) the newest draft is shown instead, marked « brouillon ».

    Returns ``number``, ``date`` (a date), ``summary``, ``draft`` (bool), ``label``
    (« édition 1 du 30 novembre 2026 ») and ``pdf`` (file name:
    ``escarmouche-edition-<n>.pdf``, or ``escarmouche-brouillon-<n+1>.pdf`` while a
    draft exists, since the notebooks then show the draft's examples)."""
    if preview is None:
        preview = os.environ.get(PREVIEW_VARIABLE, "") == "1"
    editions = []
    for path in folder.glob("*.toml"):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        # an edition file names its keys in French from format 3 (``numero``,
        # ``resume``); formats 1 and 2 wrote ``number`` and ``summary``
        for old, new in (("number", "numero"), ("summary", "resume")):
            if new in data:
                data[old] = data.pop(new)
        if not isinstance(data.get("date"), dt.date) or not str(data.get("number", "")):
            raise ValueError(f"{path}: « numero » et « date » (AAAA-MM-JJ) sont requis")
        data["draft"] = not (folder / str(data["number"]) / "rules.json").is_file()
        editions.append(data)
    shown = editions if preview else [e for e in editions if not e["draft"]]
    if not shown:
        raise ValueError(f"aucune édition publiée dans {folder} (escarmouche edition "
                         f"--publier, ou {PREVIEW_VARIABLE}=1 pour un aperçu du brouillon)")
    edition = max(shown, key=lambda e: int(str(e["number"])))
    number = str(edition["number"])
    label = f"édition {number} du {french_date(edition['date'])}"
    # Once a draft exists, make edition has run the notebooks under its rules: a PDF
    # printed now shows the draft's examples, so it is never named as the published
    # edition's (the publication archives that one, built from its own commit:
    # tools/edition_pdf.py).
    drafts = [int(str(e["number"])) for e in editions if e["draft"]]
    pdf = (f"escarmouche-brouillon-{max(drafts)}.pdf"
           if drafts and max(drafts) >= int(number) else f"escarmouche-edition-{number}.pdf")
    return {
        **edition,
        "number": number,
        "date_text": french_date(edition["date"]),
        "label": f"brouillon de l’{label}, non publiée" if edition["draft"] else label,
        "pdf": pdf,
    }


# --- search without accents ------------------------------------------------------------

_FOLD = str.maketrans({"œ": "oe", "æ": "ae", "Œ": "oe", "Æ": "ae"})


def fold(word: str) -> str:
    """``Défense`` → ``defense``: lower case, no diacritics, œ → oe."""
    decomposed = unicodedata.normalize("NFD", word.lower().translate(_FOLD))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _js_stemmer() -> str:
    import sphinx

    js_dir = Path(sphinx.__file__).parent / "search" / "minified-js"
    base = (js_dir / "base-stemmer.js").read_text(encoding="utf-8")
    french = (js_dir / "french-stemmer.js").read_text(encoding="utf-8")
    # The query is folded exactly as the index was (fold() above), then stemmed.
    return base + "\n" + french + """
var Stemmer = function() {
  const inner = new FrenchStemmer();
  const fold = (w) => w.toLowerCase().replace(/œ/g, "oe").replace(/æ/g, "ae")
    .normalize("NFD").replace(/[\\u0300-\\u036f]/g, "");
  this.stemWord = (w) => inner.stemWord(fold(w));
};
"""


class SearchFrenchFolded(SearchFrench):
    """French stemming on words stripped of their accents (index and query alike)."""

    js_stemmer_rawcode = ""
    js_stemmer_code = _js_stemmer()

    def stem(self, word: str) -> str:
        return str(self.stemmer.stemWord(fold(word)))


# --- configuration ---------------------------------------------------------------------


def configure(app: Sphinx, config: Config) -> None:
    """``config-inited``: theme mode, favicon, scorer, footer with the edition."""
    edition = current_edition()
    config.escarmouche_edition = edition
    context = dict(config.html_context or {})
    # pydata-sphinx-theme reads an empty mode as invalid and says so in the console.
    context.setdefault("default_mode", "auto")
    context["escarmouche_edition"] = edition
    config.html_context = context
    if not config.html_favicon:
        config.html_favicon = str(HERE.parent / "_static" / FAVICON)
    config.html_search_scorer = str(SCORER)
    options = dict(config.html_theme_options or {})
    footer = (
        # the edition links to its generated « Ce qui a changé » page (book/concepteurs.md)
        f'<p class="esc-edition">Escarmouche, <a href="{{root}}book/editions/'
        f'edition-{html.escape(edition["number"])}.html">'
        f"{html.escape(edition['label'])}</a></p>"
    )
    options["extra_footer"] = (str(options.get("extra_footer") or "") + footer)
    config.html_theme_options = options


def page_context(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                 doctree: Any) -> None:
    """``html-page-context``: the footer's link to the edition's page, relative."""
    options = context.get("theme_extra_footer")
    if isinstance(options, str) and "{root}" in options:
        depth = pagename.count("/")
        context["theme_extra_footer"] = options.replace("{root}", "../" * depth)


def add_pdf_link(app: Sphinx, doctree: nodes.document) -> None:
    """``doctree-read``: on the home page, the whole-book PDF and the edition."""
    if app.env.docname != app.config.root_doc:
        return
    edition = app.config.escarmouche_edition
    depth = app.env.docname.count("/")
    href = "../" * depth + edition["pdf"]
    summary = " ".join(str(edition.get("summary", "")).split())
    raw = nodes.raw(
        "",
        f'<div class="esc-edition-box"><p><strong>Édition{NBSP}{edition["number"]}</strong>'
        f' du {html.escape(edition["date_text"])}. {html.escape(summary)}</p>'
        f'<p><a class="esc-pdf-link" href="{html.escape(href)}" download>'
        f"Télécharger le livre entier en PDF</a> (pour l’imprimer ou le lire sans le "
        f"site)</p></div>",
        format="html",
    )
    insert_under_title(doctree, raw)


# --- the built pages ---------------------------------------------------------------------

#: English labels the theme leaves in French pages (visible text or accessible names).
LABELS = {
    'title="Toggle primary sidebar"': 'title="Chapitres" aria-label="Chapitres"',
    'title="Toggle secondary sidebar"': 'title="Sommaire de la page" '
                                        'aria-label="Sommaire de la page"',
    "Back to top": "Haut de page",
    'title="Fullscreen mode"': 'title="Plein écran"',
    'aria-label="Fullscreen mode"': 'aria-label="Plein écran"',
    'title="Download this page"': 'title="Télécharger cette page"',
    'aria-label="Download this page"': 'aria-label="Télécharger cette page"',
    'title="Search"': 'title="Rechercher"',
    'aria-label="Search"': 'aria-label="Rechercher"',
    'title="light/dark"': 'title="Thème clair ou sombre"',
    'aria-label="light/dark"': 'aria-label="Thème clair ou sombre"',
    "© Copyright ": "© ",
    "Search this book...": "Rechercher dans ce livre…",
    'aria-label="Main"': 'aria-label="Contenu principal"',
    # myst-nb's « Voir le code » toggle: its name is its visible text (axe:
    # label-content-name-mismatch), not an English label
    '<summary aria-label="Toggle hidden content">': "<summary>",
}

_FA_SCRIPT = re.compile(r'\s*<script[^>]*_static/scripts/fontawesome\.js[^>]*></script>')
_ICON = re.compile(r'<(i|span) class="([^"]*\bfa-[a-z0-9-]+[^"]*)"([^>]*)></\1>')
_WIDGET_VIEW = re.compile(r'(<script type="application/vnd\.jupyter\.widget-view\+json">)')
SNAPSHOT_NOTE = typographie_html(  # French typography (escarmouche.text.typo)
    '<p class="esc-snapshot" role="note"><span class="esc-snapshot-tag">Instantané'
    "</span> Ce que cette cellule a affiché quand le livre a été construit : ici, les "
    "commandes ne réagissent pas. Pour jouer, appuyez sur « Activer » (en haut de la "
    "page) : la démonstration devient vivante ici même.</p>"
)
_STYLES = {"fa-solid": "solid", "fas": "solid", "fa-regular": "regular", "far": "regular",
           "fa-brands": "brands", "fab": "brands"}
_MODIFIERS = {"fa-lg", "fa-xs", "fa-sm", "fa-fw", "fa-2x", "fa-solid", "fa-regular",
              "fa-brands", "fa-square", "fa-spin"}


def fontawesome_icons(script: Path) -> dict[str, tuple[int, int, str]]:
    """``name`` → (width, height, path) of every icon of the theme's ``fontawesome.js``.

    Its data are object entries ``name:[w,h,[aliases],"code",d]`` (the name quoted or
    not), the brands first, then the regular and the solid icons: the last definition
    of a name wins, so a name drawn in several styles gets its solid form (the only
    style the theme uses)."""
    text = script.read_text(encoding="utf-8")
    icons: dict[str, tuple[int, int, str]] = {}
    entry = re.compile(r'[{,]"?([a-z0-9-]+)"?:\[(\d+),(\d+),\[([^\]]*)\],"[^"]*",'
                       r'("[^"]*"|\[[^\]]*\])\]')
    for match in entry.finditer(text):
        name, w, h, aliases, data = match.groups()
        path_data = json.loads(data)
        if isinstance(path_data, list):  # duotone: two paths, drawn as one
            path_data = " ".join(path_data)
        names = [name] + [a.strip().strip('"') for a in aliases.split(",")
                          if a.strip().startswith('"')]
        for alias in names:
            icons[alias] = (int(w), int(h), path_data)
    return icons


def theme_fontawesome() -> Path:
    """The ``fontawesome.js`` of the installed pydata-sphinx-theme (the icons' source)."""
    import pydata_sphinx_theme

    return (Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme"
            / "static" / "scripts" / "fontawesome.js")


def _svg(classes: str, extra: str, icon: tuple[int, int, str]) -> str:
    w, h, d = icon
    kept = " ".join(c for c in classes.split() if c not in _STYLES)
    return (f'<svg class="svg-inline--fa {kept}"{extra} aria-hidden="true" focusable="false" '
            f'role="img" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}">'
            f'<path fill="currentColor" d="{d}"/></svg>')


def print_footer(edition: dict[str, Any], address: str) -> str:
    """The footer of every printed sheet (hidden on screen; the script puts the full
    address of the page in place of its path)."""
    return (f'<div class="esc-print-footer" aria-hidden="true">Escarmouche, '
            f'{html.escape(edition["label"])} · <span class="esc-print-address">'
            f"{html.escape(address)}</span></div>")


_HEAD_SCRIPT = re.compile(r'<script (?![^>]*\b(?:defer|async)\b)([^>]*\bsrc="[^"]+"[^>]*)>')
#: Sphinx's page options: the page's inline scripts complete its object right away, so
#: it cannot be deferred; it is written into the page instead (a few hundred bytes).
_OPTIONS_SCRIPT = re.compile(
    r'<script src="[^"]*_static/documentation_options\.js(?:\?[^"]*)?"></script>')


def defer_head_scripts(text: str, options: str = "") -> str:
    """Every script of ``<head>`` is deferred (in order, before DOMContentLoaded: their
    own start-up code waits for it), and ``documentation_options.js``, whose object the
    page's inline scripts complete right away, is inlined from ``options`` (its text):
    the parser never waits for a script to download, and the page paints sooner. Without
    ``options`` the options script stays as it is (synchronous)."""
    head_end = text.find("</head>")
    if head_end < 0:
        return text
    head = text[:head_end]
    if options and "</script" not in options.lower():
        head = _OPTIONS_SCRIPT.sub(lambda _: f"<script>{options.strip()}</script>", head)

    def defer(match: re.Match[str]) -> str:
        if "_static/documentation_options.js" in match.group(1):
            return match.group(0)
        return f"<script defer {match.group(1)}>"

    return _HEAD_SCRIPT.sub(defer, head) + text[head_end:]


#: The theme's search tools, put in every page's ``<head>`` for its search-as-you-type
#: dialog (pydata-sphinx-theme's layout.html); with that option off (the default, and
#: this book's) its script never calls them: the search page loads them itself.
_SEARCH_TOOLS = re.compile(
    r'\n?[ \t]*<script (?:defer )?src="[^"]*(?:_static/searchtools\.js|_static/language_data\.js|'
    r'searchindex\.js)[^"]*"></script>')


def drop_search_tools(text: str) -> str:
    """A page other than the search page loses the theme's three search scripts (the
    index alone is 164 KB of script to parse): three requests fewer before the page's
    ``load``, and less main-thread work on a phone (bench/README-browser.md: « Activer » and
    Lighthouse). The search box still opens ``search.html``, which loads them."""
    return _SEARCH_TOOLS.sub("", text)


_COPY_SCRIPTS = re.compile(
    r'\n?[ \t]*<script defer src="([^"]*_static/copybutton\.js[^"]*)"></script>')
_SITE_SCRIPT = re.compile(
    r'<script (defer(?:="defer")?) src="([^"]*_static/escarmouche-site\.js[^"]*)">')


def idle_copy_buttons(text: str) -> str:
    """sphinx-copybutton's script (one button per code cell, added to the DOM) leaves the
    chain of deferred scripts that runs before the page is ready: ``escarmouche-site.js``
    loads it once the page is idle (its URL in ``data-idle-scripts``). A button shows
    on hover only, so nothing the reader sees changes. ClipboardJS stays deferred: a
    UMD bundle, it must run before RequireJS (loaded by a live demo)."""
    site_tag = _SITE_SCRIPT.search(text)
    if site_tag is None or "data-idle-scripts" in text:
        return text
    urls = [m.group(1) for m in _COPY_SCRIPTS.finditer(text)]
    if not urls:
        return text
    text = _COPY_SCRIPTS.sub("", text)
    return _SITE_SCRIPT.sub(
        lambda m: f'<script {m.group(1)} data-idle-scripts="{" ".join(urls)}" '
                  f'src="{m.group(2)}">', text, count=1)


_RULE_PARA = re.compile(r'<p id="([^"]+)">(\s*)<strong>([A-Z0-9]+(?:-[A-Z0-9]+)+)</strong>'
                        r'((?:(?!</p>).)*?)</p>', re.S)
_SECOND_STRONG = re.compile(r"<strong>(.*?)</strong>", re.S)
_TAG = re.compile(r"<[^>]+>")


def rule_contents(text: str) -> str:
    """A rule page's contents, drawn at build (not by a script after the first paint, which
    pushed the page down): « Sur cette page : n règles », folded under the title, one link
    per rule; each rule ID becomes the link to its own anchor. Pages of fewer than three
    rules keep none. Idempotent."""
    start = text.find('<article class="bd-article"')
    if start < 0 or "esc-page-contents" in text:
        return text
    head, article = text[:start], text[start:]
    items: list[str] = []

    def anchor(match: re.Match[str]) -> str:
        ident, space, code, rest = match.groups()
        second = _SECOND_STRONG.search(rest)
        title = ""
        if second:
            title = html.unescape(_TAG.sub("", second.group(1))).strip()
            title = " — " + re.sub(r"\.$", "", title)
        items.append(f'<li><a href="#{ident}">{html.escape(code + title, quote=False)}</a></li>')
        return (f'<p id="{ident}">{space}<a class="esc-rule-anchor" href="#{ident}" '
                f'title="Lien vers la règle {code} (à partager)"><strong>{code}</strong></a>'
                f"{rest}</p>")

    linked = _RULE_PARA.sub(anchor, article)
    title_end = linked.find("</h1>")
    if len(items) < 3 or title_end < 0:
        return text
    title_end += len("</h1>")
    box = (f'<details class="esc-page-contents"><summary>Sur cette page\u00a0: {len(items)} '
           f'règles</summary><ol>{"".join(items)}</ol></details>')
    return head + linked[:title_end] + box + linked[title_end:]


def rewrite_page(text: str, icons: dict[str, tuple[int, int, str]],
                 missing: set[str], footer: str = "", options: str = "") -> str:
    """One built page, rewritten (idempotent): see the module docstring."""
    text = _FA_SCRIPT.sub("", text)
    if footer and "esc-print-footer" not in text:
        text = text.replace("</body>", footer + "\n</body>", 1)

    def icon(match: re.Match[str]) -> str:
        classes, extra = match.group(2), match.group(3)
        names = [c[3:] for c in classes.split() if c.startswith("fa-") and c not in _MODIFIERS]
        for name in names:
            if name in icons:
                return _svg(classes, extra, icons[name])
        missing.update(names)
        return match.group(0)

    text = _ICON.sub(icon, text)
    for english, french in LABELS.items():
        text = text.replace(english, french)
    if "esc-snapshot" not in text:
        text = _WIDGET_VIEW.sub(lambda m: SNAPSHOT_NOTE + m.group(1), text)
    text = defer_head_scripts(text, options)
    text = rule_contents(text)
    return text


_PUA = re.compile("[\ue000-\uf8ff]")
_PUA_ESCAPE = re.compile(r'content:\s*"\\([ef][0-9a-f]{3})"')
_FA_CLASS_RULE = re.compile(r'(?:\.fa-[a-z0-9-]+:(?:before|after),?)+\{[^{}]*\}')


def used_icon_codepoints(static: Path) -> set[int]:
    """Icon-font characters the stylesheets show outside Font Awesome's own
    ``.fa-name:before`` rules (never used: the pages' icons are inline SVG)."""
    found: set[int] = set()
    for css in static.rglob("*.css"):
        if "fontawesome" in css.parts and "vendor" in css.parts:
            continue
        text = _FA_CLASS_RULE.sub("", css.read_text(encoding="utf-8", errors="replace"))
        found.update(ord(c) for c in _PUA.findall(text))
        found.update(int(h, 16) for h in _PUA_ESCAPE.findall(text))
    return found


def slim_theme_css(css: Path) -> None:
    """Drop Font Awesome's 1 800 ``.fa-name:before`` rules from the theme's stylesheet
    (no page uses an icon class any more: they are inline SVG). The stylesheet blocks
    the first paint; it loses about two thirds of its weight."""
    if css.is_file():
        text = css.read_text(encoding="utf-8")
        slim = _FA_CLASS_RULE.sub("", text)
        if slim != text:
            css.write_text(slim, encoding="utf-8")


def subset_icon_font(static: Path) -> str:
    """Cut the theme's solid icon font (156 KB) down to the glyphs in use."""
    from fontTools import subset

    fonts = static / "vendor" / "fontawesome"
    codepoints = used_icon_codepoints(static)
    done = []
    for font_path in sorted(fonts.rglob("fa-solid-900.*")):
        if font_path.suffix not in {".woff2", ".ttf"}:
            continue
        options = subset.Options()
        options.flavor = "woff2" if font_path.suffix == ".woff2" else None
        options.layout_features = []
        font = subset.load_font(str(font_path), options)
        if len(font.getGlyphOrder()) <= len(codepoints) + 1:
            continue  # already cut
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=sorted(codepoints))
        subsetter.subset(font)
        subset.save_font(font, str(font_path), options)
        done.append(f"{font_path.name} ({font_path.stat().st_size} o)")
    return ", ".join(done)


def rewrite_site(app: Sphinx, exception: Exception | None) -> None:
    """``build-finished``: rewrite every page, drop Font Awesome's script."""
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir)
    # Sphinx skips its copy of the static files when no page is out of date: ours are
    # copied here too, so a changed stylesheet or script is never left stale.
    for src in (HERE.parent / "_static").glob("*.*"):
        dst = out / "_static" / src.name
        if not dst.is_file() or dst.read_bytes() != src.read_bytes():
            shutil.copyfile(src, dst)
    icons = fontawesome_icons(theme_fontawesome())
    search_as_you_type = bool((app.config.html_theme_options or {}).get("search_as_you_type"))
    missing: set[str] = set()
    count = 0
    options_js = out / "_static" / "documentation_options.js"
    options = options_js.read_text(encoding="utf-8") if options_js.is_file() else ""
    for page in out.rglob("*.html"):
        if page.is_relative_to(out / "lite") or page.is_relative_to(out / "_static"):
            continue
        text = page.read_text(encoding="utf-8")
        footer = print_footer(app.config.escarmouche_edition,
                              page.relative_to(out).as_posix())
        new = rewrite_page(text, icons, missing, footer, options)
        if page != out / "search.html" and not search_as_you_type:
            new = drop_search_tools(new)
        new = idle_copy_buttons(new)
        if new != text:
            page.write_text(new, encoding="utf-8")
            count += 1
    for leftover in (out / "_static" / "scripts").glob("fontawesome.js*"):
        leftover.unlink()
    slim_theme_css(out / "_static" / "styles" / "pydata-sphinx-theme.css")
    cut = subset_icon_font(out / "_static")
    if cut:
        LOGGER.info("[escarmouche_site] police d’icônes réduite : %s", cut)
    if missing:
        LOGGER.warning("[escarmouche_site] icônes inconnues : %s", ", ".join(sorted(missing)))
    LOGGER.info("[escarmouche_site] %s, icônes en SVG",
                plural(count, "page réécrite", "pages réécrites"))


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("escarmouche_edition", {}, "html")
    app.add_search_language(SearchFrenchFolded)
    app.connect("config-inited", configure)
    app.connect("doctree-read", add_pdf_link)
    app.connect("html-page-context", page_context)
    app.add_css_file(CSS)
    app.add_css_file(PRINT_CSS, media="print")
    app.add_js_file(JS, loading_method="defer")
    return {"version": VERSION, "parallel_read_safe": True, "parallel_write_safe": True}
