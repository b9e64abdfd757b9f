"""Sphinx extension for the book's « Référence de l’API » page (``book/api.md``).

The engine's docstrings are written for ``help()`` and editors first: plain English with
``literals`` and the odd rule ID such as ``RB-TIME-*``. Read as reStructuredText, a few
of them are not valid markup (a lone ``*`` opens an emphasis), and the book is built
with ``-W``: one such docstring would break the whole build. So, before autodoc inserts
a docstring, this extension parses it with plain docutils (roles such as ``:func:`` are
read as literals for the check); when docutils would complain, the docstring is shown
verbatim, as a literal block, instead of being interpreted. Clean docstrings keep their
markup.

The book is also built in nitpicky mode (``-n``): every cross-reference must resolve,
and offline there is no intersphinx to resolve ``fractions.Fraction`` or
``collections.abc.Mapping``, nor a target for every private helper a docstring names.
So the API page shows names as literals, not links: signatures without type hints
(``autodoc_typehints = "none"``, set here) and docstring roles (``:func:`x```) turned
into literals (````x````). The book's own references (``{ref}``, ``{doc}``, ``{term}``)
stay checked.
"""

from __future__ import annotations

import io
import re
from typing import Any

# docutils ships no type information (types-docutils is not among the pinned tools).
from docutils import nodes  # type: ignore[import-untyped]
from docutils.core import publish_doctree  # type: ignore[import-untyped]

#: ``:func:`x``` / ``:py:class:`~a.B``` → ````x```` for the check only
ROLE = re.compile(r":[\w.:+-]+:`([^`]*)`")


def clean_rst(text: str) -> bool:
    """Would plain docutils parse ``text`` without a warning?"""
    probe = ROLE.sub(lambda m: "``" + (m.group(1).lstrip("~") or " ") + "``", text)
    tree = publish_doctree(
        probe,
        settings_overrides={
            "report_level": 5,
            "halt_level": 5,
            "warning_stream": io.StringIO(),
            "file_insertion_enabled": False,
            "raw_enabled": False,
        },
    )
    return not any(
        msg["level"] >= 2 for msg in tree.findall(nodes.system_message)
    )


def literal_roles(line: str) -> str:
    """``:func:`~a.b``` → ````a.b````: the name, shown, without a link to resolve."""
    return ROLE.sub(lambda m: "``" + (m.group(1).lstrip("~") or " ") + "``", line)


def guard_docstring(
    app: Any, what: str, name: str, obj: object, options: Any, lines: list[str]
) -> None:
    """``autodoc-process-docstring``: roles become literals; a docstring that is still
    not clean reStructuredText is shown verbatim."""
    text = "\n".join(lines)
    if not text.strip():
        return
    if clean_rst(text):
        lines[:] = [literal_roles(line) for line in lines]
        return
    lines[:] = ["::", "", *("   " + line if line else "" for line in lines), ""]


def no_typehints(app: Any, config: Any) -> None:
    """``config-inited``: signatures without type hints (see the module docstring)."""
    config.autodoc_typehints = "none"


def setup(app: Any) -> dict[str, Any]:
    app.setup_extension("sphinx.ext.autodoc")
    app.connect("config-inited", no_typehints)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
