"""One stylesheet per page instead of fourteen (bench/README-pages.md: Lighthouse mobile).

Sphinx and its theme put about fourteen stylesheets in each page's ``<head>`` (the
theme's ``theme.css`` itself ``@import``\\ s ``basic.css``: a second round trip), all
render-blocking: on a slow phone link the first paint waits for each of them. At
``build-finished`` (last: after ``escarmouche_site`` has slimmed the theme's stylesheet
and the theme has written ``pygments.css``), the
screen stylesheets of each page are merged, in their order, into one file named by its
content's hash, ``_static/escarmouche-<hash>.css``: the cascade is the same (same rules,
same order), ``@import``\\ s are inlined and relative ``url()``\\ s rebased onto the new
file's folder. The print stylesheet (``media="print"``) does not block the paint and is
left alone. Pages with the same list share a file (rule pages, demo pages).

Idempotent: the merged link keeps its source list (``data-merged``), so a later build
that does not rewrite a page still refreshes its link when a source stylesheet changed.
The source files stay in ``_static/`` (Sphinx copies them on every build), listed in
``_static/escarmouche-css.json`` so that the offline book leaves them out.
"""

from __future__ import annotations

import hashlib
import json
import posixpath
import re
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

from escarmouche.text.fmt import plural

LOGGER = logging.getLogger(__name__)
VERSION = "1.0"
PREFIX = "escarmouche-"
#: What was merged, for tools/build_offline.py (the service worker's precache).
MERGED_LIST = "escarmouche-css.json"

_LINK = re.compile(r"<link\b[^>]*>")
_HREF = re.compile(r'\bhref="([^"]+)"')
_MEDIA = re.compile(r'\bmedia="([^"]*)"')
_MERGED = re.compile(r'\bdata-merged="([^"]*)"')
_IMPORT = re.compile(r'@import\s+(?:url\()?\s*["\']?([^"\')\s;]+)["\']?\s*\)?\s*;')
_URL = re.compile(r'url\(\s*(["\']?)([^"\')]+)\1\s*\)')
_CHARSET = re.compile(r'@charset\s+"[^"]*";')


def _is_screen_stylesheet(tag: str) -> bool:
    if not re.search(r'\brel="stylesheet"', tag):
        return False
    media = _MEDIA.search(tag)
    return media is None or media.group(1).strip() in {"", "all", "screen"}


def _rebase(css: str, source_dir: str, target_dir: str) -> str:
    """Relative ``url()``\\ s of a stylesheet in ``source_dir``, as seen from ``target_dir``
    (both relative to the site's root, POSIX)."""

    def fix(match: re.Match[str]) -> str:
        quote, url = match.group(1), match.group(2).strip()
        if re.match(r"^(?:[a-z][a-z0-9+.-]*:|/|#)", url, re.IGNORECASE):
            return match.group(0)
        moved = posixpath.relpath(posixpath.normpath(posixpath.join(source_dir, url)),
                                  target_dir)
        return f"url({quote}{moved}{quote})"

    return _URL.sub(fix, css)


def read_stylesheet(out: Path, rel: str, target_dir: str, seen: frozenset[str] = frozenset()
                    ) -> str:
    """The stylesheet at ``rel`` (under ``out``), its ``@import``\\ s inlined, its
    ``url()``\\ s rebased onto ``target_dir``."""
    if rel in seen:
        return ""
    text = (out / rel).read_text(encoding="utf-8")
    source_dir = posixpath.dirname(rel)

    children: list[str] = []

    def inline(match: re.Match[str]) -> str:
        target = match.group(1)
        if re.match(r"^(?:[a-z][a-z0-9+.-]*:|/)", target, re.IGNORECASE):
            return match.group(0)
        child = posixpath.normpath(posixpath.join(source_dir, target))
        children.append(read_stylesheet(out, child, target_dir, seen | {rel}))
        return f"\0{len(children) - 1}\0"

    # The imported sheets come back already rebased: they go in after this sheet's own
    # url()s are rebased.
    text = _rebase(_CHARSET.sub("", _IMPORT.sub(inline, text)), source_dir, target_dir)
    return re.sub("\0(\\d+)\0", lambda m: children[int(m.group(1))], text)


def bundle(out: Path, sources: list[str]) -> str:
    """Writes (once) the merged stylesheet of ``sources`` (paths under ``out``); returns
    its path under ``out``."""
    parts = [f"/* {rel} */\n{read_stylesheet(out, rel, '_static')}\n" for rel in sources]
    text = "".join(parts)
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    rel = f"_static/{PREFIX}{digest}.css"
    target = out / rel
    if not target.is_file():
        target.write_text(text, encoding="utf-8")
    return rel


def merge_page(text: str, page_rel: str, out: Path, made: dict[tuple[str, ...], str]) -> str:
    """One page's screen stylesheets replaced by their merged file (see the module)."""
    head_end = text.find("</head>")
    if head_end < 0:
        return text
    head = text[:head_end]
    page_dir = posixpath.dirname(page_rel)
    links = [m for m in _LINK.finditer(head) if _is_screen_stylesheet(m.group(0))]
    sources: list[str] = []
    for match in links:
        tag = match.group(0)
        merged = _MERGED.search(tag)
        if merged:
            sources.extend(merged.group(1).split())
            continue
        href = _HREF.search(tag)
        if href is None or re.match(r"^(?:[a-z][a-z0-9+.-]*:|//)", href.group(1)):
            return text  # a stylesheet from elsewhere: leave the page as it is
        path = posixpath.normpath(posixpath.join(page_dir, href.group(1).split("?")[0]))
        if not (out / path).is_file():
            return text
        sources.append(path)
    if not sources:
        return text
    key = tuple(sources)
    if key not in made:
        made[key] = bundle(out, sources)
    merged_href = posixpath.relpath(made[key], page_dir or ".")
    merged_tag = (f'<link rel="stylesheet" href="{merged_href}" '
                  f'data-merged="{" ".join(sources)}" />')
    pieces, last = [], 0
    for index, match in enumerate(links):
        pieces.append(head[last:match.start()])
        if index == 0:
            pieces.append(merged_tag)
        last = match.end()
        if index > 0 and head[last:last + 1] == "\n":
            last += 1
    pieces.append(head[last:])
    return "".join(pieces) + text[head_end:]


def linked_stylesheets(text: str, page_rel: str) -> set[str]:
    """The local stylesheets a page links (paths under the site's root)."""
    head = text[:max(0, text.find("</head>"))]
    page_dir = posixpath.dirname(page_rel)
    found = set()
    for match in _LINK.finditer(head):
        href = _HREF.search(match.group(0))
        if (href and re.search(r'\brel="stylesheet"', match.group(0))
                and not re.match(r"^(?:[a-z][a-z0-9+.-]*:|//)", href.group(1))):
            found.add(posixpath.normpath(posixpath.join(page_dir, href.group(1).split("?")[0])))
    return found


def merge_site(app: Sphinx, exception: Exception | None) -> None:
    """``build-finished``: every page of the book (not JupyterLite's) gets one
    stylesheet; stale merged files of earlier builds are removed."""
    if exception is not None or app.builder.format != "html":
        return
    out = Path(app.outdir)
    made: dict[tuple[str, ...], str] = {}
    linked: set[str] = set()
    count = 0
    for page in out.rglob("*.html"):
        rel = page.relative_to(out).as_posix()
        if rel.startswith(("lite/", "_static/")):
            continue
        text = page.read_text(encoding="utf-8")
        new = merge_page(text, rel, out, made)
        if new != text:
            page.write_text(new, encoding="utf-8")
            count += 1
        linked |= linked_stylesheets(new, rel)
    keep = {Path(rel).name for rel in made.values()}
    for old in (out / "_static").glob(f"{PREFIX}" + "[0-9a-f]" * 16 + ".css"):
        if old.name not in keep:
            old.unlink()
    # The sources no page links any more: tools/build_offline.py leaves them out of the
    # offline book (they stay on disk for the next build's merge).
    merged = sorted({s for key in made for s in key} - linked)
    (out / "_static" / MERGED_LIST).write_text(
        json.dumps({"merged": merged, "files": sorted(made.values())}, indent=1) + "\n",
        encoding="utf-8")
    LOGGER.info("[escarmouche_css] %s, %s", plural(count, "page réécrite", "pages réécrites"),
                plural(len(made), "feuille de style fusionnée",
                       "feuilles de style fusionnées"))


def setup(app: Sphinx) -> dict[str, Any]:
    return {"version": VERSION, "parallel_read_safe": True, "parallel_write_safe": True}
