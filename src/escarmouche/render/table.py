"""Values that display themselves in a notebook: a French table, a French text.

Results and odds of every system return these (or define ``_repr_html_`` with them), so
the book shows tables and sentences, never reprs, without helpers of its own.
"""

from __future__ import annotations

import dataclasses
import html
from collections.abc import Sequence

from escarmouche.render.svg import html_table
from escarmouche.render.typo import typographie

__all__ = ["Table", "Text"]


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class Table:
    """A small table: shown as HTML in a notebook, as aligned text elsewhere.

    >>> print(Table(("Zone", "Chance"), [("tête", "10,0 %")]))
    Zone | Chance
    tête | 10,0 %

    Numbers and booleans are written the French way; in a notebook, the table is HTML:

    >>> print(Table(("Nom", "Moyenne", "Debout"), [("Grolk", 3.5, False)]))
    Nom | Moyenne | Debout
    Grolk | 3,5 | non
    >>> "<th>Moyenne</th>" in Table(("Nom", "Moyenne"), [("Grolk", 3.5)])._repr_html_()
    True
    """

    headers: tuple[str, ...]
    rows: Sequence[Sequence[object]]
    title: str | None = None

    def _repr_html_(self) -> str:
        return html_table(self.headers, self.rows, caption=self.title)

    def __str__(self) -> str:
        from escarmouche.render.svg import _cell

        lines = [typographie(self.title)] if self.title else []
        lines.append(" | ".join(typographie(h) for h in self.headers))
        for row in self.rows:
            lines.append(" | ".join(html.unescape(_cell(v)[0]) for v in row))
        return "\n".join(lines)

    #: the plain-text form a notebook stores next to the HTML: the table itself, never a
    #: Python repr
    __repr__ = __str__


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class Text:
    """French text (one paragraph per line): shown as paragraphs in a notebook.

    >>> recit = Text("Aldric touche Grolk.\\nGrolk tombe.")
    >>> print(recit)
    Aldric touche Grolk.
    Grolk tombe.
    >>> recit._repr_html_()
    '<p>Aldric touche Grolk.</p><p>Grolk tombe.</p>'
    """

    text: str

    def __post_init__(self) -> None:
        # French typography once, when the text is made (escarmouche.render.typo)
        object.__setattr__(self, "text", typographie(self.text))

    def _repr_html_(self) -> str:
        return "".join(f"<p>{html.escape(line)}</p>" for line in self.text.splitlines())

    def __str__(self) -> str:
        return self.text

    __repr__ = __str__
