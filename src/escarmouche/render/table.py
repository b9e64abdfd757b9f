"""Values that display themselves in a notebook: a French table, a French text.

Results and odds of every system return these (or define ``_repr_html_`` with them), so
the book shows tables and sentences, never reprs, without helpers of its own.
"""

from __future__ import annotations

import dataclasses
import html
from collections.abc import Mapping, Sequence
from typing import ClassVar

from escarmouche.render.svg import html_table
from escarmouche.text.typo import typographie

__all__ = ["OptionsTable", "ShownAsTable", "Table", "Text", "options_table"]


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


def options_table(rules: object, title: str, shown: Mapping[str, str] | None = None) -> Table:
    """The one shape of every system's options table (``Rules.table()``), read from the
    options' declarations (:mod:`escarmouche.options`): the option's French label with
    its rule IDs, its value as a reader sees it (or ``shown``), and, last, for designers,
    its French key (what a roster file, ``--option`` and an edition file use) with its
    name in the engine when it differs. Three columns, so that it reads on a phone."""
    from escarmouche.options import options_of

    rows = []
    for spec in options_of(rules):
        value = (shown or {}).get(spec.name)
        if value is None:
            value = spec.value_label(getattr(rules, spec.name))
        name = spec.key if spec.key == spec.name else f"{spec.key} (moteur : {spec.name})"
        rows.append((spec.title, value, name))
    return Table(("Option", "Valeur", "Clé"), rows, title)


class ShownAsTable:
    """A result that shows itself as its French :meth:`table`: in a notebook (HTML) and
    as text (``str`` and ``repr``: never a dataclass repr). Declare the dataclass with
    ``repr=False``."""

    __slots__ = ()

    def table(self) -> Table:
        raise NotImplementedError

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()

    def __str__(self) -> str:
        return str(self.table())

    def __repr__(self) -> str:
        return str(self.table())


class OptionsTable:
    """A system's ``Rules``: its options as the one French table read from their
    declarations (:func:`options_table`), titled :attr:`options_title`; in a notebook
    the rules show as that table (their ``repr`` stays the dataclass one, for code)."""

    __slots__ = ()

    #: the table's title (« Options du système d100 »)
    options_title: ClassVar[str] = "Options"

    def shown_options(self) -> Mapping[str, str] | None:
        """Values shown otherwise than by their declaration, by field (default: none)."""
        return None

    def table(self) -> Table:
        """Every option: its French label, its value as a reader sees it, its French key
        and its name in the engine (:func:`options_table`)."""
        return options_table(self, self.options_title, self.shown_options())

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()
