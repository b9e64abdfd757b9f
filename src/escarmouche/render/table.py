"""Values that display themselves in a notebook: a French table, a French text.

Results and odds of every system return these (or define ``_repr_html_`` with them), so
the book shows tables and sentences, never reprs, without helpers of its own.
"""

from __future__ import annotations

import dataclasses
import html
from collections.abc import Mapping, Sequence
from typing import Any

from escarmouche.render.svg import html_table
from escarmouche.text.typo import typographie

__all__ = ["Table", "Text", "option_value", "options_table"]


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
        # French typography once, when the text is made (escarmouche.text.typo)
        object.__setattr__(self, "text", typographie(self.text))

    def _repr_html_(self) -> str:
        return "".join(f"<p>{html.escape(line)}</p>" for line in self.text.splitlines())

    def __str__(self) -> str:
        return self.text

    __repr__ = __str__


def option_value(value: object, named: Mapping[Any, str] | None = None) -> str:
    """An option value as a reader sees it (:func:`escarmouche.options.value_label`, the
    one renderer of option values).

    >>> option_value(True), option_value(None), option_value(1500), option_value(-10)
    ('oui', 'aucun', '1500', '−10')
    """
    from escarmouche.options import value_label

    return value_label(value, named)


def options_table(rules: object, title: str, shown: Mapping[str, str] | None = None) -> Table:
    """The one shape of every system's options table (``Rules.table()``), read from the
    options' declarations (:mod:`escarmouche.options`): the option's French label with
    its rule IDs, its value as a reader sees it (or ``shown``), its French key (the one a
    roster file, ``--option`` and an edition file use), and the engine's name for it,
    last, for designers."""
    from escarmouche.options import options_of

    rows = []
    for spec in options_of(rules):
        value = (shown or {}).get(spec.name)
        if value is None:
            value = spec.value_label(getattr(rules, spec.name))
        rows.append((spec.title, value, spec.key, spec.name))
    return Table(("Option", "Valeur", "Clé des fichiers", "Nom dans le moteur"), rows, title)
