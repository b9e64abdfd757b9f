"""The editions in the book (book/concepteurs.md).

- **« Ce qui a changé » pages** — at ``builder-inited`` the page of every edition,
  ``book/editions/edition-<n>.md``, is rebuilt from ``editions/<n>.toml`` by running the
  engine under the rules before and after (:func:`tools.editions.pages.build_pages`);
  a file is rewritten only when its text changed, so an unchanged edition rebuilds nothing.
- **Marks on the rules** — every rule that an edition after the first one touches gets,
  right after the paragraph that states it (a paragraph that opens with the rule ID in
  bold, « **RB-D100-1** — … »), a Sphinx ``versionmodified`` node: « Nouveau dans
  l’édition 2 » (``versionadded``) for a new rule or ruling, « Modifié dans l’édition 2 »
  (``versionchanged``) otherwise, with the change's text and a link to its page. The
  first edition is the origin: it marks nothing.
- **History** — under the marks, « Historique de <rule> : édition 1, édition 2. »,
  each edition linked to its page.
- **The feed** — ``editions.atom`` at the site's root, announced by every page
  (``<link rel="alternate">``), one entry per published edition.
- **The archive** — the PDF of each former edition (``editions/<n>/``, kept by
  ``escarmouche edition --publier``) copied beside the current one; the journal links it.
- ``editions.css``: before/after charts side by side, scaled to the column.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.osutil import relative_uri

from escarmouche.editions.data import CLARIFICATIONS, Change, Edition
from escarmouche.editions.page import DUELS, page_name, plain_text
from escarmouche.editions.repo import load_all
from escarmouche.text.fmt import plural
from tools.editions.pages import build_pages

LOGGER = logging.getLogger(__name__)
HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CSS = "escarmouche-editions.css"
NBSP = "\u00a0"
_RULE = re.compile(r"^[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+$")
VERSION = hashlib.sha256(
    Path(__file__).read_bytes()
    + b"".join(p.read_bytes() for p in sorted((ROOT / "editions").glob("*.toml")))
).hexdigest()[:12]


def history(editions: dict[int, Edition], first: frozenset[str] = frozenset()
            ) -> dict[str, list[int]]:
    """The editions that touched each rule, by rule ID, oldest first: what
    « Historique » lists under a changed rule. Edition 1 counts for the rulings it
    states and for every rule its snapshot states (``first``): the first edition gives
    every rule, so a rule first changed in edition 3 reads « édition 1, édition 3 »,
    not « édition 3 » as if it were new there."""
    out: dict[str, list[int]] = {}
    for number, edition in sorted(editions.items()):
        for change in edition.changes:
            for rule in change.rules:
                seen = out.setdefault(rule, [])
                if number not in seen:
                    seen.append(number)
    for rule, seen in out.items():
        if rule in first and 1 in editions and 1 not in seen:
            seen.insert(0, 1)
    return out


def marks(editions: dict[int, Edition]) -> dict[str, list[tuple[int, Change]]]:
    """The changes of every edition after the first, by rule ID, oldest first; a
    clarification (a rewording, ``CLARIFICATIONS``) marks no rule."""
    out: dict[str, list[tuple[int, Change]]] = {}
    for number, edition in sorted(editions.items()):
        if number < 2:
            continue
        for change in edition.changes:
            if change.kind in CLARIFICATIONS:
                continue  # a rewording changes no rule: no « Modifié » mark
            for rule in change.rules:
                out.setdefault(rule, []).append((number, change))
    return out


def build(app: Sphinx) -> None:
    """``builder-inited``: the « Ce qui a changé » pages, and the marks to inject."""
    root = Path(app.config.escarmouche_editions_root)
    written = build_pages(root, duels=app.config.escarmouche_editions_duels)
    editions = load_all(root)
    app.env.escarmouche_marks = marks(editions)  # type: ignore[attr-defined]
    from escarmouche.editions.repo import snapshot

    one = snapshot(root, 1)
    app.env.escarmouche_history = history(  # type: ignore[attr-defined]
        editions, frozenset(one.texts) if one is not None else frozenset())
    LOGGER.info("[escarmouche_editions] pages des éditions (« Ce qui a changé », "
                "errata, journal) : %s",
                plural(len(written), "page réécrite", "pages réécrites"))


def _mark(app: Sphinx, docname: str, number: int, change: Change) -> nodes.Node:
    added = change.kind in ("new-rule", "new-ruling")
    kind = "versionadded" if added else "versionchanged"
    word = "Nouveau" if added else "Modifié"
    node = addnodes.versionmodified()
    node["type"] = kind
    node["version"] = str(number)
    node["classes"].append("esc-edition-mark")
    para = nodes.paragraph()
    # « Modifié dans l’édition 2. » then the change's own sentence, which may hold a
    # colon of its own (« Parades par round (D100-PARRY-3) : … »): one colon a sentence
    para += nodes.inline("", f"{word} dans l’édition {number}. ",
                         classes=["versionmodified", "changed" if not added else "added"])
    # the designer's Markdown shown as text: its marks and roles reduced to their words
    para += nodes.Text(" ".join(plain_text(change.text).split()) + " ")
    target = f"book/editions/{page_name(number)}"
    uri = relative_uri(app.builder.get_target_uri(docname), app.builder.get_target_uri(target))
    para += nodes.reference("", "Ce qui a changé", refuri=f"{uri}#edition-{number}",
                            internal=True)
    para += nodes.Text(".")
    node += para
    return node


def add_marks(app: Sphinx, doctree: nodes.document) -> None:
    """``doctree-read``: the marks after each touched rule's paragraph."""
    table: dict[str, list[tuple[int, Change]]] = getattr(app.env, "escarmouche_marks", {})
    if not table:
        return
    docname = app.env.docname
    if docname.startswith("book/editions/"):
        return
    for para in list(doctree.findall(nodes.paragraph)):
        kids = [c for c in para.children if not isinstance(c, nodes.target)
                and not (isinstance(c, nodes.Text) and not c.astext().strip())]
        first = kids[0] if kids else None
        if not isinstance(first, nodes.strong):
            continue
        rule = first.astext().strip()
        if not _RULE.match(rule) or rule not in table:
            continue
        parent = para.parent
        at = parent.index(para) + 1
        for number, change in table[rule]:
            parent.insert(at, _mark(app, docname, number, change))
            at += 1
        past: list[int] = getattr(app.env, "escarmouche_history", {}).get(rule, [])
        if len(past) > 1 or (past and past[0] > 1):
            parent.insert(at, _history(app, docname, rule, past))


def _history(app: Sphinx, docname: str, rule: str, numbers: list[int]) -> nodes.Node:
    """« Historique de D100-PARRY-3 : édition 1, édition 2. », each linked to its page."""
    para = nodes.paragraph(classes=["esc-edition-history"])
    para += nodes.inline("", f"Historique de {rule}{NBSP}: ", classes=["esc-history-label"])
    for i, number in enumerate(numbers):
        if i:
            para += nodes.Text(", ")
        target = f"book/editions/{page_name(number)}"
        uri = relative_uri(app.builder.get_target_uri(docname),
                           app.builder.get_target_uri(target))
        para += nodes.reference("", f"édition {number}", refuri=f"{uri}#edition-{number}",
                                internal=True)
    para += nodes.Text(".")
    return para


def write_feed(app: Sphinx, exception: Exception | None) -> None:
    """``build-finished``: ``editions.atom`` at the site's root, the published editions
    newest first (:func:`tools.editions.sheets.atom_feed`); links are absolute
    when ``html_baseurl`` is set, relative to the site's root otherwise."""
    if exception is not None or app.builder.format != "html":
        return
    from escarmouche.editions.repo import snapshot
    from tools.editions.sheets import atom_feed

    root = Path(app.config.escarmouche_editions_root)
    editions = load_all(root)
    published = [n for n in editions if snapshot(root, n) is not None]
    base = (app.config.html_baseurl or "").rstrip("/")
    feed = atom_feed(editions, published, base=f"{base}/" if base else "")
    (Path(app.outdir) / "editions.atom").write_text(feed, encoding="utf-8")
    # the archive: the PDF of every former edition, beside the current one
    import shutil

    for pdf in sorted((root / "editions").glob("*/escarmouche-edition-*.pdf")):
        target = Path(app.outdir) / pdf.name
        if not target.exists() or target.stat().st_size != pdf.stat().st_size:
            shutil.copyfile(pdf, target)


def feed_link(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
              doctree: Any) -> None:
    """``html-page-context``: every page announces the feed (``<link rel=alternate>``),
    so that a feed reader finds it from any page."""
    depth = pagename.count("/")
    href = "../" * depth + "editions.atom"
    context["metatags"] = context.get("metatags", "") + (
        f'\n<link rel="alternate" type="application/atom+xml" '
        f'title="Éditions du livre" href="{href}">')


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_config_value("escarmouche_editions_root", str(ROOT), "env")
    app.add_config_value("escarmouche_editions_duels", DUELS, "env")
    app.connect("builder-inited", build)
    app.connect("doctree-read", add_marks)
    app.connect("html-page-context", feed_link)
    app.connect("build-finished", write_feed)
    app.add_css_file(CSS)
    return {"version": VERSION, "parallel_read_safe": True, "parallel_write_safe": True}
