"""Local Sphinx extension: French typography on every text of the book, by one function.

Authors write ordinary spaces (« Attention: »); this transform gives every text node of
every page the spaces of French typography (:func:`escarmouche.text.typo.typographie`:
U+202F before ``; ! ?`` and ``%``, U+00A0 before ``:`` and inside « », ’ between two
letters). It runs when a page is read, before the table of contents and the search
index are made, so titles in the menus and the search results are typeset too.

What it touches: prose, titles, admonitions, tables, lists, the glossary, captions,
Markdown outputs of notebooks, the text between tags of raw HTML (notebook HTML outputs,
already typeset by the engine, do not change; ``typographie_html``). What it leaves as
it is: literal and code blocks, inline code, math, scripts and styles,
stream and ``text/plain`` outputs of notebooks (they are shown in ``<pre>`` as the
engine printed them, already typeset), comments, substitution definitions, targets,
and the API reference (``book/api``, English docstrings shown by autodoc).

Text split over several nodes (« **Grolk**: ») is typeset with one character of each
neighbour as context (:func:`escarmouche.text.typo.in_context`), so the space goes
where it belongs even across inline markup.
"""

from __future__ import annotations

import hashlib
import html
import re
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform

from escarmouche.text.typo import (
    RAW_ELEMENTS,
    html_pieces,
    in_context,
    typographie,
    typographie_html,
)

#: Changes to this file (or to the function) must rebuild every page.
VERSION = hashlib.sha256(
    Path(__file__).read_bytes()
    + Path(__file__).resolve().parents[2].joinpath(
        "src", "escarmouche", "text", "typo.py").read_bytes()
).hexdigest()[:12]

#: nodes whose text is not prose: left as they are, but seen as context
SKIP: tuple[type[nodes.Node], ...] = (
    nodes.literal_block,
    nodes.literal,
    nodes.math,
    nodes.math_block,
    nodes.raw,
    nodes.comment,
    nodes.doctest_block,
    nodes.substitution_definition,
    nodes.target,
    nodes.system_message,
    addnodes.desc_signature,
    addnodes.pending_xref_condition,
)
#: documents left alone (English docstrings)
SKIP_DOCS = ("book/api",)


def _skipped(node: nodes.Node) -> bool:
    parent: nodes.Node | None = node.parent
    while parent is not None:
        if isinstance(parent, SKIP):
            return True
        classes = parent.get("classes", []) if isinstance(parent, nodes.Element) else []
        if "code" in classes or "pre" in classes or "notranslate" in classes:
            return True
        parent = parent.parent
    return False


def _blocks(document: nodes.document) -> list[nodes.Element]:
    """The elements whose text runs as one line of prose (a paragraph, a title …): the
    innermost ``TextElement``s, plus any other element holding text directly."""
    blocks: list[nodes.Element] = []
    for element in document.findall(nodes.TextElement):
        if not any(isinstance(a, nodes.TextElement) for a in _ancestors(element)):
            blocks.append(element)
    return blocks


def _ancestors(node: nodes.Node) -> list[nodes.Node]:
    out = []
    parent = node.parent
    while parent is not None:
        out.append(parent)
        parent = parent.parent
    return out


def typeset_document(document: nodes.document) -> int:
    """Typeset every prose text node of ``document`` in place; the number changed."""
    changed = 0
    for block in _blocks(document):
        if isinstance(block, SKIP) or _skipped(block):
            continue
        texts = list(block.findall(nodes.Text))
        for i, text in enumerate(texts):
            if _skipped(text):
                continue
            before = texts[i - 1].astext()[-1:] if i else ""
            after = texts[i + 1].astext()[:1] if i + 1 < len(texts) else ""
            old = text.astext()
            new = in_context(old, before, after)
            if new != old:
                text.parent.replace(text, nodes.Text(new))
                texts[i] = nodes.Text(new)
                changed += 1
    return changed


def typeset_raw_html(document: nodes.document) -> int:
    """The HTML that extensions and notebook outputs put in a page, typeset with
    :func:`~escarmouche.text.typo.typographie_html` (text between tags only; scripts,
    styles, ``<code>`` and ``<pre>`` left alone; idempotent, so the engine's outputs,
    already typeset, do not change)."""
    changed = 0
    for raw in list(document.findall(nodes.raw)):
        if "html" not in raw.get("format", "").split():
            continue
        old = raw.astext()
        new = typographie_html(old)
        if new != old and raw.children:
            raw.replace(raw[0], nodes.Text(new))
            changed += 1
    return changed


class FrenchTypography(SphinxTransform):
    """Applied to every page when it is read (after MyST and myst-nb made its nodes),
    just before ``doctree-read`` (priority 880), so that the titles and tables of
    contents the environment collects then are typeset too."""

    default_priority = 870

    def apply(self, **kwargs: Any) -> None:
        if self.env.docname in SKIP_DOCS:
            return
        typeset_document(self.document)


class FrenchTypographyResolved(SphinxPostTransform):
    """Again once references are resolved (their text is made then: glossary terms,
    section titles), and on the page's raw HTML, for the HTML builders."""

    default_priority = 990
    formats = ("html",)

    def run(self, **kwargs: Any) -> None:
        if self.env.docname in SKIP_DOCS:
            return
        typeset_document(self.document)
        typeset_raw_html(self.document)


_TITLE = re.compile(r"(<title>)(.*?)(</title>)", re.DOTALL)


def typeset_page_titles(app: Sphinx, exception: Exception | None) -> None:
    """``build-finished``: the ``<title>`` of every page, which the theme's template
    passes through Jinja's ``striptags`` (it turns no-break spaces into spaces)."""
    if exception is not None or app.builder.format != "html":
        return
    for page in Path(app.outdir).rglob("*.html"):
        if "lite" in page.relative_to(app.outdir).parts[:1]:
            continue
        text = page.read_text(encoding="utf-8")

        def fix(match: re.Match[str]) -> str:
            title = html.escape(typographie(html.unescape(match.group(2))), quote=False)
            return match.group(1) + title + match.group(3)

        new = _TITLE.sub(fix, text, count=1)
        if new != text:
            page.write_text(new, encoding="utf-8")


#: a rule ID (« D100-PARRY-2 », « RB-SURPRISE-2 »): capitals and digits joined by hyphens
_RULE_ID = re.compile(r"(?<![\w-])[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+(?![\w-])")
#: elements whose text is not wrapped: the typography's (code, scripts…) and SVG, whose
#: text cannot hold a ``<span>``
_NO_WRAP = (*RAW_ELEMENTS, "svg", "title", "option", "select")
RULE_ID_CLASS = "esc-rule-id"


def keep_rule_ids_whole(markup: str) -> str:
    """Each rule ID in the text of an HTML page, in a ``<span class="esc-rule-id">`` that
    CSS keeps on one line (``white-space: nowrap``): at 390 px, « RB-SURPRISE-2 » broke
    at its hyphens (« RB- » at the end of a line, « SURPRISE-2 » on the next). Tags,
    attributes and the text of ``_NO_WRAP`` elements are left alone. Idempotent.

    >>> keep_rule_ids_whole('<p title="RB-A-1">RB-A-1</p><pre>RB-A-1</pre>')
    '<p title="RB-A-1"><span class="esc-rule-id">RB-A-1</span></p><pre>RB-A-1</pre>'
    """
    wrapped = f'<span class="{RULE_ID_CLASS}">'
    out: list[str] = []
    for kind, piece in html_pieces(markup, _NO_WRAP):
        # a span already there (a second pass) keeps its text as it is
        if kind == "text" and "-" in piece and not (out and out[-1] == wrapped):
            piece = _RULE_ID.sub(lambda m: f"{wrapped}{m.group(0)}</span>", piece)
        out.append(piece)
    return "".join(out)


def keep_rule_ids_whole_in_pages(app: Sphinx, exception: Exception | None) -> None:
    """``build-finished``: every page of the book (not JupyterLite's), last of all.
    The head is left alone."""
    if exception is not None or app.builder.format != "html":
        return
    for page in Path(app.outdir).rglob("*.html"):
        if page.relative_to(app.outdir).parts[0] in ("lite", "_static"):
            continue
        text = page.read_text(encoding="utf-8")
        body = text.find("<body")
        if body < 0:
            continue
        new = text[:body] + keep_rule_ids_whole(text[body:])
        if new != text:
            page.write_text(new, encoding="utf-8")


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_transform(FrenchTypography)
    app.add_post_transform(FrenchTypographyResolved)
    return {"version": VERSION, "parallel_read_safe": True, "parallel_write_safe": True}
