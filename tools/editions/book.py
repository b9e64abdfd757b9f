"""The book of a repository checkout, read for its editions: the stored outputs of its
notebooks, the statement of every rule it states (with the engine's values filled in,
:mod:`book._ext.escarmouche_facts`), its « Interprétation retenue » boxes, and the
snapshot of all three with the engine's defaults
(:class:`~escarmouche.editions.data.Snapshot`). Repository tooling: the installable
package reads and writes snapshots, never the book.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from escarmouche.editions.data import Snapshot, current_rules, role_text

__all__ = ["book_facts", "book_notebooks", "book_rule_texts", "notebook_outputs",
           "ruling_texts", "take_snapshot"]

_ANCHOR = re.compile(r"^\(([a-z][a-z0-9]*(?:-[a-z0-9]+)+)\)=\s*$", flags=re.M)
_ADMONITION = re.compile(
    r"^(`{3,}|:{3,})\{admonition\} Interprétation retenue([^\n]*)\n(.*?)^\1\s*$",
    flags=re.M | re.S)




def book_notebooks(book: Path | str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every notebook of ``book`` (build and checkpoint folders aside), parsed, with its
    page name (``d100/attaque``), in the order of the paths."""
    book = Path(book)
    for path in sorted(book.rglob("*.ipynb")):
        if "_build" in path.parts or ".ipynb_checkpoints" in path.parts:
            continue
        page = path.relative_to(book).with_suffix("").as_posix()
        yield page, json.loads(path.read_text(encoding="utf-8"))


def notebook_outputs(book: Path | str) -> dict[str, str]:
    """The stored text output of every code cell of the book's notebooks, by
    ``"page#n"`` (``n``: the code cell's rank); cells tagged ``nbval-ignore-output``
    (widgets) are left out. HTML outputs are reduced to their text."""
    out: dict[str, str] = {}
    for page, nb in book_notebooks(book):
        rank = 0
        for cell in nb.get("cells", []):
            if cell.get("cell_type") != "code":
                continue
            rank += 1
            if "nbval-ignore-output" in cell.get("metadata", {}).get("tags", []):
                continue
            text = _cell_text(cell.get("outputs", []))
            if text:
                out[f"{page}#{rank}"] = text
    return out


def _cell_text(outputs: Sequence[Mapping[str, Any]]) -> str:
    parts = []
    for o in outputs:
        if o.get("output_type") == "stream":
            parts.append(_joined(o.get("text", "")))
        elif o.get("output_type") in ("execute_result", "display_data"):
            data = o.get("data", {})
            if "text/html" in data:
                parts.append(_html_text(_joined(data["text/html"])))
            elif "image/svg+xml" in data or "image/png" in data:
                parts.append("[graphique]")  # not its repr (« <…SVG object> »)
            elif "text/plain" in data:
                parts.append(_joined(data["text/plain"]))
    return "\n".join(p.strip("\n") for p in parts if p.strip())


def _joined(value: str | Sequence[str]) -> str:
    return value if isinstance(value, str) else "".join(value)


def _html_text(html_text: str) -> str:
    """The readable text of an HTML output: SVG charts dropped, cells separated."""
    import html as _html

    text = re.sub(r"(?s)<svg.*?</svg>", " [graphique] ", html_text)
    text = re.sub(r"(?s)<(script|style).*?</\1>", "", text)
    text = re.sub(r"</(td|th)>", " | ", text)
    text = re.sub(r"</(tr|p|div|caption|li|h\d)>|<br\s*/?>", "\n", text)
    text = re.sub(r"<[^>]+>", "", text)
    lines = [" ".join(_html.unescape(line).split()) for line in text.splitlines()]
    return "\n".join(line.rstrip(" |") for line in lines if line.strip(" |"))


#: a rule stated in the book: ``**RB-D100-1** — Pour un test D100, …``, its first
#: paragraph; the lists and tables right after it belong to it (:func:`_rule_blocks`)
_BOOK_RULE = re.compile(r"^\*\*([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)\*\* — ", re.M)
#: a block that goes on a rule's statement: a list (``1.``, ``-``, ``*``) or a table
_RULE_BLOCK = re.compile(r"(?:\d+\.|[-*]|\|)(?:\s|$)")
def book_rule_texts(root: Path | str,
                    substitute: Callable[[str], str] | None = None) -> dict[str, str]:
    """The French statement of every rule the book states (``**ID** — …`` in
    ``book_src/`` and the Markdown pages of ``book/``), whole, as one line of plain
    text, in the order of the pages: its paragraph and the lists and tables that follow
    it (:func:`_rule_blocks`), up to the first block of another kind (a box, a code
    cell, the page's prose). MyST roles keep their text; ``substitute`` fills the
    engine's values (``{{ name }}``, :mod:`escarmouche_facts` of the book) so that a
    changed default shows in the rule's text.

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> (root / "book_src").mkdir()
    >>> _ = (root / "book_src" / "p.md").write_text(
    ...     "(x-a-1)=\\n**X-A-1** — Le {term}`test <test D100>` réussit\\n"
    ...     "sous {{ seuil }} :\\n\\n1. au d100 ;\\n2. au d20.\\n\\nSuite.",
    ...     encoding="utf-8")
    >>> book_rule_texts(root, lambda t: t.replace("{{ seuil }}", "5"))
    {'X-A-1': 'Le test réussit sous 5 : 1. au d100 ; 2. au d20.'}
    """
    root = Path(root)
    pages = sorted((root / "book_src").rglob("*.md"))
    pages += sorted(p for p in (root / "book").rglob("*.md")
                    if "editions" not in p.relative_to(root / "book").parts[:1])
    texts: dict[str, str] = {}
    for page in pages:
        source = page.read_text(encoding="utf-8")
        for m in _BOOK_RULE.finditer(source):
            text = role_text(_rule_blocks(source[m.end():]))
            texts.setdefault(m.group(1), substitute(text) if substitute else text)
    return texts


def _rule_blocks(source: str) -> str:
    """A rule's statement from the text after its ``**ID** — ``: the first paragraph,
    then each list or table right after it, on one line. A list item keeps its number
    (``1.``) or takes a dash (``–``); a table keeps its header and its rows, cells
    between ``|``, rows between `` ; `` (the alignment row dropped).

    >>> _rule_blocks("Deux cas :\\n\\n- l’un ;\\n  suite\\n- l’autre.\\n\\nProse.")
    'Deux cas : – l’un ; suite – l’autre.'
    >>> _rule_blocks("La table.\\n\\n| Jet | Zone |\\n|:---|:---|\\n| 1–5 | tête |\\n\\n```")
    'La table. Jet | Zone ; 1–5 | tête'
    """
    blocks = re.split(r"\n[ \t]*\n", source)
    kept = [" ".join(blocks[0].split())]
    for block in blocks[1:]:
        block = block.strip("\n")
        if not block.strip():
            continue
        if not _RULE_BLOCK.match(block):
            break
        if block.startswith("|"):
            rows = [[" ".join(c.split()) for c in line.strip().strip("|").split("|")]
                    for line in block.splitlines() if line.strip()]
            kept.append(" ; ".join(" | ".join(r) for r in rows
                                   if not all(re.fullmatch(r":?-+:?", c) for c in r)))
        else:
            items = re.split(r"\n(?=(?:\d+\.|[-*])\s)", block)
            kept += [re.sub(r"^[-*]\s", "– ", " ".join(item.split())) for item in items]
    return " ".join(kept)


def book_facts(root: Path, rules: Mapping[str, Any] | None = None
               ) -> Callable[[str], str] | None:
    """The book's ``substitute`` (:mod:`book._ext.escarmouche_facts`), its values read
    from the engine's default rules, or from ``rules`` (by system name) for the systems
    given (an earlier edition's rules, passed by argument); ``None`` when ``root``'s book
    has no facts (a folder that is not a checkout of the book)."""
    if not (root / "book" / "_ext" / "escarmouche_facts.py").is_file():
        return None
    from book._ext import escarmouche_facts

    values = escarmouche_facts.facts(rules)
    return lambda text: escarmouche_facts.substitute(text, values)


def take_snapshot(root: Path | str) -> Snapshot:
    """The snapshot of the repository at ``root`` now: engine defaults, the French text
    of every rule as the book states it (:func:`book_rule_texts`, the engine's values
    filled in) and the stored outputs of ``book/``."""
    root = Path(root)
    texts = book_rule_texts(root, book_facts(root))
    return Snapshot(current_rules(), texts, notebook_outputs(root / "book"))


def ruling_texts(root: Path) -> dict[str, str]:
    """The French text of each « Interprétation retenue » box of the book sources
    (``book_src/**.md`` and ``book/**.md``), by the rule ID of the anchor it follows
    (``(rb-d100-1)=``); the box's options (``:class:``) are left out."""
    out: dict[str, str] = {}
    files = sorted((root / "book_src").rglob("*.md")) + sorted((root / "book").rglob("*.md"))
    for path in files:
        text = path.read_text(encoding="utf-8")
        anchors = list(_ANCHOR.finditer(text))
        for i, m in enumerate(anchors):
            end = anchors[i + 1].start() if i + 1 < len(anchors) else len(text)
            # every box of the rule, in order (D12-CRIT-2 has three): an edition
            # declares every ruling the book boxes, not only the first (spec/relecture-journal.md)
            boxes = list(_ADMONITION.finditer(text, m.end(), end))
            if not boxes:
                continue
            bodies = []
            for box in boxes:
                body = "\n".join(line for line in box.group(3).splitlines()
                                  if not line.startswith(":")).strip()
                subject = box.group(2).strip(" —-")
                if len(boxes) > 1 and subject:
                    body = f"**{subject[:1].upper()}{subject[1:]}.** {body}"
                bodies.append(body)
            out.setdefault(m.group(1).upper(),
                           _absolute_docs("\n\n".join(bodies), _docname(root, path)))
    return out


def _docname(root: Path, path: Path) -> str:
    """``book_src/d100/actions.md`` and ``book/d100/actions.md`` → ``book/d100/actions``."""
    rel = path.relative_to(root).with_suffix("").as_posix()
    return "book/" + rel.split("/", 1)[1]


def _absolute_docs(text: str, docname: str) -> str:
    """Relative ``{doc}`` targets made absolute, so that the text reads the same on any
    page (``{doc}`sauts``` on ``book/d100/actions`` → ``{doc}`/book/d100/sauts```)."""
    import posixpath

    folder = posixpath.dirname(docname)

    def fix(m: re.Match[str]) -> str:
        label, target = m.group(2), m.group(3)
        if target.startswith("/"):
            return m.group(0)
        full = "/" + posixpath.normpath(posixpath.join(folder, target))
        return f"{{doc}}`{label} <{full}>`" if label else f"{{doc}}`{full}`"

    return re.sub(r"\{doc\}`((.*?)\s*)?<?([^<>`]+)>?`", lambda m: fix(m), text)
