"""The whole book as one PDF, offline (``make book``, after the HTML and the live
runtime's sizes, before the offline book: ``book/_ext/escarmouche_pipeline.py``).

Every page of ``_toc.yml``, in order, is printed by Debian's Chromium through
Playwright's ``page.pdf`` (A4, the print stylesheet ``escarmouche-print.css``: no
buttons, code wrapped; Chromium's footer gives the edition, the page's address and the
page number on every sheet),
with its static widgets rendered; the pages are joined with pypdf, one bookmark per
page, into ``_build/html/escarmouche-edition-<n>.pdf``, which the home page links.
Jupyter Book's own ``pdfhtml`` would download a browser of its own (pyppeteer).

A page whose article is marked ``aide-memoire`` must hold on one sheet: the build
fails otherwise. Cached: nothing is printed again while the pages, the stylesheets
and the edition are unchanged.
"""

from __future__ import annotations

import hashlib
import io
import sys
import time
from pathlib import Path
from typing import Any

import yaml  # type: ignore[import-untyped]

from escarmouche.cli.french import FrenchParser, parse_args
from tools.browser_kit import SITE, SiteServer, launch_chromium

ROOT = Path(__file__).resolve().parent.parent


def _site_extension() -> Any:
    """The book's Sphinx extension that knows the edition (book/_ext/escarmouche_site.py)."""
    import importlib

    return importlib.import_module("book._ext.escarmouche_site")


def current_edition() -> dict[str, Any]:
    """The edition, as the book's Sphinx extension reads it."""
    edition: dict[str, Any] = _site_extension().current_edition()
    return edition


def pdf_name_published() -> str | None:
    """The PDF name of the last published edition (``None`` before the first)."""
    try:
        number = _site_extension().current_edition(preview=False)["number"]
    except ValueError:
        return None
    from tools.editions.workflow import pdf_name

    return pdf_name(int(number))


WIDGET_VIEW = 'script[type="application/vnd.jupyter.widget-view+json"]'


def toc_docnames(toc: Path = ROOT / "_toc.yml") -> list[str]:
    """The book's pages in reading order (root first)."""
    data: dict[str, Any] = yaml.safe_load(toc.read_text(encoding="utf-8"))
    names = [str(data["root"])]

    def walk(entries: list[dict[str, Any]]) -> None:
        for entry in entries:
            if "file" in entry:
                names.append(str(entry["file"]))
            for key in ("chapters", "sections", "parts"):
                if key in entry:
                    walk(entry[key])

    walk(data.get("parts", []) + data.get("chapters", []))
    return names


def fingerprint(site: Path, docnames: list[str]) -> str:
    h = hashlib.sha256()
    for name in docnames:
        h.update((site / f"{name}.html").read_bytes())
    for css in sorted((site / "_static").glob("*.css")):
        h.update(css.read_bytes())
    h.update(Path(__file__).read_bytes())
    return h.hexdigest()[:16]


def footer_template(label: str, address: str) -> str:
    """Chromium's footer on every sheet of the PDF: edition, date, address, page."""
    from html import escape

    return ('<div style="font-size:7.5pt;width:100%;text-align:center;color:#333;'
            f'font-family:sans-serif">Escarmouche, {escape(label)} · {escape(address)} · '
            'page <span class="pageNumber"></span>/<span class="totalPages"></span></div>')


def print_page(page: Any, url: str, address: str, label: str) -> bytes:
    page.goto(url, wait_until="load")
    views = page.locator(WIDGET_VIEW).count()
    if views:
        page.wait_for_function(
            f"() => document.querySelectorAll('.jupyter-widgets').length >= {views}",
            timeout=60_000)
    # The stylesheet's own footer (for a reader's browser) gives way to Chromium's,
    # which is drawn on every sheet, with the page number.
    page.add_style_tag(content=".esc-print-footer { display: none !important; }")
    pdf: bytes = page.pdf(format="A4", print_background=True, prefer_css_page_size=True,
                          outline=False, tagged=True, display_header_footer=True,
                          header_template="<span></span>",
                          footer_template=footer_template(label, address))
    return pdf


def build(site: Path, out: Path, docnames: list[str]) -> int:
    from playwright.sync_api import sync_playwright
    from pypdf import PdfReader, PdfWriter

    edition = current_edition()
    writer = PdfWriter()
    too_long = []
    with SiteServer(site) as server, sync_playwright() as driver, \
            launch_chromium(driver) as context:
        page = context.new_page()
        page.emulate_media(media="print")
        for name in docnames:
            address = f"{name}.html"
            reader = PdfReader(io.BytesIO(
                print_page(page, server.url + address, address, edition["label"])))
            first = len(writer.pages)
            for sheet in reader.pages:
                writer.add_page(sheet)
            title = page.title().split(" — ")[0].strip() or name
            writer.add_outline_item(title=title, page_number=first)
            if page.locator(".aide-memoire").count() and len(reader.pages) > 1:
                too_long.append(f"{name} ({len(reader.pages)} pages)")
        page.close()
    writer.add_metadata({
        "/Title": f"Escarmouche, {edition['label']}",
        "/Author": "L’équipe Escarmouche",
        "/Subject": " ".join(str(edition.get("summary", "")).split()),
        "/Lang": "fr",
    })
    buffer = io.BytesIO()
    writer.write(buffer)
    out.write_bytes(buffer.getvalue())
    if too_long:
        print("[build_pdf] aide-mémoire sur plus d’une page : " + ", ".join(too_long),
              file=sys.stderr)
        return 1
    return len(writer.pages)


def main(argv: list[str] | None = None) -> int:
    parser = FrenchParser(
        description="Imprime le livre entier en un PDF, hors ligne (après le HTML).")
    parser.add_argument("--dir", type=Path, default=SITE, metavar="DOSSIER",
                        help="le site construit (par défaut : _build/html)")
    args = parse_args(parser, argv)
    return make_pdf(args.dir)


def print_book(site: Path) -> None:
    """:func:`make_pdf` as a step of ``make book``: a failure stops the build."""
    status = make_pdf(site)
    if status:
        raise SystemExit(status)


def make_pdf(site: Path) -> int:
    """The PDF of the book built in ``site``, unless it is up to date (0), or the exit
    status of a failure (2: pages missing, 1: an aide-mémoire over one sheet)."""
    docnames = toc_docnames()
    missing = [n for n in docnames if not (site / f"{n}.html").is_file()]
    if missing:
        print(f"[build_pdf] pages absentes de {site} : {missing} ; lancez `make book`.",
              file=sys.stderr)
        return 2
    out = site / current_edition()["pdf"]
    stamp = site.parent / f".pdf-{fingerprint(site, docnames)}"
    if out.is_file() and stamp.is_file():
        print(f"[build_pdf] {out.name} est à jour", flush=True)
        return 0
    start = time.monotonic()
    for old in site.parent.glob(".pdf-*"):
        old.unlink()
    published = pdf_name_published()
    for old in site.glob("escarmouche-*.pdf"):
        if old.name != published:  # built before a draft: the publication archives it
            old.unlink()
    sheets = build(site, out, docnames)
    if sheets <= 1:
        return 1
    stamp.touch()
    print(f"[build_pdf] {out.name} : {sheets} pages, {out.stat().st_size / 1e6:.1f} Mo, "
          f"en {time.monotonic() - start:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
