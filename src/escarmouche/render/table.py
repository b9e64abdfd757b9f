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
    """An option value as a reader sees it: its French label when the system names it
    (``OPTION_VALUE_LABELS``), « oui »/« non », « aucun », numbers in French, lists
    joined with « et ».

    >>> option_value(True), option_value(None), option_value(1500), option_value(-10)
    ('oui', 'aucun', '1500', '−10')
    >>> option_value("weakest", {"weakest": "la plus faible"})
    'la plus faible'
    >>> option_value(frozenset({"b", "a"}))
    'a et b'
    """
    from escarmouche.text.fmt import join, number

    try:
        if named and value in named:
            return named[value]
    except TypeError:  # an unhashable value has no label
        pass
    if isinstance(value, bool):
        return "oui" if value else "non"
    if value is None:
        return "aucun"
    if isinstance(value, int | float):
        return number(value).replace("-", "−")
    if isinstance(value, frozenset | set):
        return join(sorted(option_value(v, named) for v in value), empty="aucun")
    if isinstance(value, list | tuple):
        return join([option_value(v, named) for v in value], empty="aucun")
    label = getattr(value, "label", None)
    return str(label) if label is not None else str(value)


def options_table(rules: object, labels: Mapping[str, str], title: str,
                  value_labels: Mapping[str, Mapping[Any, str]] | None = None,
                  shown: Mapping[str, str] | None = None) -> Table:
    """The one shape of every system's options table (``Rules.table()``): the option's
    French label, its value as a reader sees it (:func:`option_value`, or ``shown``),
    and the engine's name for it, last, for designers."""
    rows = []
    for f in dataclasses.fields(rules):  # type: ignore[arg-type]
        label = labels.get(f.name, f.name)
        value = (shown or {}).get(f.name)
        if value is None:
            value = option_value(getattr(rules, f.name), (value_labels or {}).get(f.name))
        rows.append((label[:1].upper() + label[1:], value, f.name))
    return Table(("Option", "Valeur", "Nom dans le moteur"), rows, title)
