"""Exact sweeps: a duel solved without sampling at every point of an option grid.

:func:`exact_sweep` is :func:`~escarmouche.simulation.sweep` with
:func:`escarmouche.exact.duel` in place of the fights: at each point of the grid (the
same grid, checked the same way) each side's chance of winning is known exactly, so the
chart is a curve without an interval band (:func:`escarmouche.render.simsvg.curve_svg`)
and each point's difference with the first is said in points, « calcul exact »
(:func:`~escarmouche.simulation.precision.exact_difference_sentence`). It solves in
floats by default (``exact=False``: what a page or the command line shows), one duel
per point; a grid of more than :data:`MAX_EXACT_POINTS` points is refused.

>>> grid = exact_sweep("d100-duel", {"parades_par_round": [0, 1]})
>>> [round(d.floats["héros"], 4) for d in grid.duels]
[0.5431, 0.5781]
>>> print(grid.headline().splitlines()[1])  # doctest: +NORMALIZE_WHITESPACE
– Avec parades par round = 1, « héros » gagne 3,5 points de plus et « orques » 3,5 points
de moins (calcul exact).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from escarmouche.errors import invalid
from escarmouche.exact import ExactDuel, duel
from escarmouche.render.simsvg import curve_svg
from escarmouche.render.table import ShownAsTable, Table
from escarmouche.simulation.fight import as_roster
from escarmouche.simulation.precision import (
    exact_difference_sentence,
    exact_differences,
    signed_points,
)
from escarmouche.simulation.runner import Progress
from escarmouche.simulation.sweeps import (
    _option_label,
    _value_label,
    grid_variants,
    point_label,
)
from escarmouche.text.fmt import fixed, percent, plural
from escarmouche.text.typo import typographie

__all__ = ["MAX_EXACT_POINTS", "ExactSweep", "exact_sweep"]

#: the most points an exact sweep solves (each a whole duel: up to a few seconds)
MAX_EXACT_POINTS = 50
#: a column of draws or of the cap is shown once one of its chances reaches this
_SHOWN = 0.0005


@dataclasses.dataclass(frozen=True, repr=False)
class ExactSweep(ShownAsTable):
    """One :class:`~escarmouche.exact.ExactDuel` per point of an option grid, in grid
    order: a table (:meth:`table`), a headline (:meth:`headline`), a curve
    (:meth:`svg`)."""

    system: str
    fields: tuple[str, ...]
    points: tuple[tuple[Any, ...], ...]
    duels: tuple[ExactDuel, ...]

    def point_label(self, k: int) -> str:
        """Point ``k`` as a reader names it: « parades par round = 2 »."""
        return point_label(self.system, self.fields, self.points[k])

    def value_label(self, k: int) -> str:
        """Point ``k``'s values alone, for the chart's axis: « 2 », « 2, oui »."""
        return ", ".join(str(_value_label(self.system, f, v))
                         for f, v in zip(self.fields, self.points[k], strict=True))

    def headline(self) -> str:
        """Per point after the first, what it changes against the first, in points
        (« calcul exact »), one line each, typeset; ``""`` for a grid of one point."""
        if len(self.points) < 2:
            return ""
        first = self.duels[0]
        lines = [f"Chaque point comparé au premier ({self.point_label(0)}), en calcul "
                 "exact :"]
        for k in range(1, len(self.points)):
            lines.append("– " + exact_difference_sentence(
                exact_differences(first, self.duels[k]), self.point_label(k)))
        return typographie("\n".join(lines))

    def table(self) -> Table:
        first = self.duels[0]
        word = first.turn_word
        sides = first.sides
        draws = any(float(d.draw) >= _SHOWN for d in self.duels)
        caps = any(float(d.timed_out) >= _SHOWN for d in self.duels)
        rows = []
        for k, (point, d) in enumerate(zip(self.points, self.duels, strict=True)):
            cells: list[object] = [_value_label(self.system, f, v)
                                   for f, v in zip(self.fields, point, strict=True)]
            cells.extend(percent(d.wins[side]) for side in sides)
            if len(self.points) > 1:
                cells.append("—" if k == 0 else signed_points(
                    float(d.wins[sides[0]]) - float(first.wins[sides[0]])))
            if draws:
                cells.append(percent(d.draw))
            if caps:
                cells.append(percent(d.timed_out))
            cells.append(fixed(d.mean_rounds, 2))
            rows.append(tuple(cells))
        headers = (*(_option_label(self.system, f) for f in self.fields),
                   *(f"Victoires « {s} »" for s in sides),
                   *((f"Écart « {sides[0]} » avec le 1er point, en points (calcul exact)",)
                     if len(self.points) > 1 else ()),
                   *(("Nul",) if draws else ()),
                   *((f"Limite de {plural(first.max_turns, word)}",) if caps else ()),
                   f"{word.capitalize()}s en moyenne")
        return Table(headers, rows, title=f"Balayage exact : {plural(len(self.points), 'point')}"
                     f", sans simulation ({first.title})")

    def svg(self) -> str:
        """Each side's exact chance of winning along the grid: one line per side, no
        interval band (:func:`~escarmouche.render.simsvg.curve_svg`)."""
        first = self.duels[0]
        return curve_svg(
            [self.value_label(k) for k in range(len(self.points))],
            [(side, [d.wins[side] for d in self.duels]) for side in first.sides],
            title="Balayage exact : victoires de chaque camp",
            x_title=" ; ".join(_option_label(self.system, f) for f in self.fields))

    def to_json(self) -> dict[str, Any]:
        return {"champs": list(self.fields),
                "points": [dict(zip(self.fields, p, strict=True)) for p in self.points],
                "duels": [d.to_json() for d in self.duels]}

    def _repr_html_(self) -> str:
        from html import escape

        return ("".join(f"<p>{escape(line)}</p>" for line in self.headline().splitlines())
                + self.table()._repr_html_())

    def __str__(self) -> str:
        return "\n".join(x for x in (self.headline(), str(self.table())) if x)

    def __repr__(self) -> str:
        return str(self)


def exact_sweep(roster: object, grid: Mapping[str, Sequence[Any]], *, policy: Any = None,
                max_turns: int = 50, exact: bool = False,
                progress: Progress | None = None) -> ExactSweep:
    """Solve ``roster``'s duel (a roster, an example's name, an unstarted encounter, as
    :func:`escarmouche.exact.duel` takes it) at every point of ``grid``
    (option → values, named by their ``Rules`` field or French key, the product of all,
    as :func:`~escarmouche.simulation.sweep` reads it): in floats unless ``exact``.
    ``progress(done, total)`` counts the points solved. Refused (CORE-ERR, in French):
    more than :data:`MAX_EXACT_POINTS` points, and whatever ``duel`` refuses (more than
    two fighters, a policy that draws, too many states)."""
    if isinstance(roster, str):  # an example's name or a roster file
        from escarmouche.roster import open_roster

        roster = open_roster(roster)
    fields, points, variants = grid_variants(roster, grid)
    if len(points) > MAX_EXACT_POINTS:
        raise invalid("grille", len(points), "CORE-ERR",
                      f"au plus {MAX_EXACT_POINTS} points pour un balayage exact (un duel "
                      "résolu par point) ; « escarmouche simule --grille » sans --exact "
                      "les estime")
    duels = []
    for k, variant in enumerate(variants):
        duels.append(duel(variant, max_turns=max_turns, policy=policy, exact=exact))
        if progress is not None:
            progress(k + 1, len(variants))
    return ExactSweep(as_roster(roster).system, fields, points, tuple(duels))
