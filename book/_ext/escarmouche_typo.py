"""Local Sphinx extension: French typography on every text of the book, by one function.

Authors write ordinary spaces (« Attention: »); this transform gives every text node of
every page the spaces of French typography (:func:`escarmouche.render.typo.typographie`:
U+202F before ``; ! ?`` and ``%``, U+00A0 before ``:`` and inside « », ’ between two
letters). It runs when a page is read, before the table of contents and the search
index are made, so titles in the menus and the search results are typeset too.

What it touches: prose, titles, admonitions, tables, lists, the glossary, captions,
Markdown outputs of notebooks. What it leaves as it is: literal and code blocks, inline
code, math, raw HTML (so a notebook's HTML outputs: the engine typesets them itself),
stream and ``text/plain`` outputs of notebooks (they are shown in ``<pre>`` as the
engine printed them, already typeset), comments, substitution definitions, targets,
and the API reference (``book/api``, English docstrings shown by autodoc).

Text split over several nodes (« **Grolk**: ») is typeset with one character of each
neighbour as context (:func:`escarmouche.render.typo.in_context`), so the space goes
where it belongs even across inline markup.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform

from escarmouche.render.typo import in_context

#: Changes to this file (or to the function) must rebuild every page.
VERSION = hashlib.sha256(
    Path(__file__).read_bytes()
    + Path(__file__).resolve().parents[2].joinpath(
        "src", "escarmouche", "render", "typo.py").read_bytes()
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


class FrenchTypography(SphinxTransform):
    """Applied to every page when it is read (after MyST and myst-nb made its nodes)."""

    default_priority = 880

    def apply(self, **kwargs: Any) -> None:
        if self.env.docname in SKIP_DOCS:
            return
        typeset_document(self.document)


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_transform(FrenchTypography)
    return {"version": VERSION, "parallel_read_safe": True, "parallel_write_safe": True}
