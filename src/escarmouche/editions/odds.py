"""The standard situations of each system and their exact odds under a rule set: what an
edition page and the Atelier compare before and after a change.

:func:`standard_odds` returns a list of :class:`OddsTable` (exact ``Fraction`` cells,
computed by each system's ``odds`` module from the same pure functions as play,
``System.standard_odds``);
:func:`compare` pairs two such lists cell by cell and flags the differences above
:data:`THRESHOLD`.

>>> from escarmouche.systems import rulebook
>>> old = standard_odds(rulebook.SYSTEM, rulebook.Rules())
>>> new = standard_odds(rulebook.SYSTEM, rulebook.Rules(crit_success_max=10))
>>> [(t.key, len(t.rows)) for t in old]
[('rulebook.test', 5), ('rulebook.surprise', 5), ('rulebook.speed', 3)]
>>> d = compare(old, new)[0]
>>> d.highlighted
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from escarmouche.errors import EscarmoucheError
from escarmouche.model import Json
from escarmouche.odds import OddsTable
from escarmouche.systems import get
from escarmouche.systems.base import System

__all__ = [
    "THRESHOLD",
    "Cell",
    "OddsTable",
    "TableDiff",
    "compare",
    "option_label",
    "standard_odds",
    "value_label",
]

#: a change is highlighted from one percentage point (a probability), 5 % of the old
#: value (an expected value) or 5 % of the old chance (a rare event, « 1 sur N »)
THRESHOLD: Mapping[str, Fraction] = {"percent": Fraction(1, 100), "number": Fraction(5, 100),
                                     "rare": Fraction(5, 100)}

def option_label(system: str | System[Any], option: str) -> str:
    """The French label of an option with the rule IDs it stands for, as its ``Rules``
    field declares them (:mod:`escarmouche.options`); ``option`` is its French key or
    its engine name.

    >>> from escarmouche.systems import rulebook
    >>> option_label(rulebook.SYSTEM, "reussite_critique_max")
    'plus haut jet de réussite critique du test D100 (RB-D100-1)'
    """
    return get(system).option(option).cited


def value_label(system: str | System[Any], option: str, value: Json) -> str:
    """An option value in French, as its declaration names it
    (:meth:`escarmouche.options.Option.value_label`, the one renderer of option values).

    >>> from escarmouche.systems import d20, d100
    >>> value_label(d20.SYSTEM, "points_action_max_par_tour", None)
    'aucun plafond'
    >>> value_label(d100.SYSTEM, "surpris_peut_se_defendre", False)
    'non'
    """
    spec = get(system).option(option)
    try:
        shown = spec.from_json(value)
    except EscarmoucheError:
        shown = value
    return spec.value_label(shown)


Cell = tuple[Fraction, Fraction, bool]


@dataclasses.dataclass(frozen=True, slots=True)
class TableDiff:
    """A table before and after: ``cells[r][c]`` = (before, after, highlighted)."""

    before: OddsTable
    after: OddsTable
    cells: tuple[tuple[Cell, ...], ...]

    @property
    def changed(self) -> bool:
        return any(b != a for row in self.cells for b, a, _ in row)

    @property
    def highlighted(self) -> bool:
        return any(h for row in self.cells for _, _, h in row)


def _above(table: OddsTable, before: Fraction, after: Fraction) -> bool:
    if before == after:
        return False
    limit = THRESHOLD[table.kind]
    if table.kind == "percent":
        return abs(after - before) >= limit
    if table.kind == "rare":
        return abs(after - before) >= limit * abs(before)
    return abs(after - before) >= limit * max(abs(before), Fraction(1, 10))


def compare(before: Sequence[OddsTable], after: Sequence[OddsTable]) -> list[TableDiff]:
    """Pair the tables of two rule sets by key and compare them cell by cell."""
    old = {t.key: t for t in before}
    out = []
    for table in after:
        prev = old.get(table.key)
        if prev is None or len(prev.rows) != len(table.rows):
            continue
        cells = tuple(
            tuple((b, a, _above(table, b, a)) for b, a in zip(bv, av, strict=True))
            for (_, bv), (_, av) in zip(prev.rows, table.rows, strict=True))
        out.append(TableDiff(prev, table, cells))
    return out


def standard_odds(system: str | System[Any], rules: Any) -> list[OddsTable]:
    """The standard situations of ``system`` and their exact values under ``rules``, as
    the system gives them (``System.standard_odds``, in its ``odds.py``)."""
    return get(system).standard_odds(rules)
