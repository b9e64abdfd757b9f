"""Sweeps over an option grid: one balance per point of a grid of rule options.

:func:`sweep` plays the same roster at every point of the product of the option values
it is given, ``n`` fights each on the same streams, and sends every fight of every
point to the executor at once. A :class:`Sweep` holds one balance per point, and reads
as a table whose first columns are the options, labelled for a reader. Every point is
played on the same dice as the first, so each is compared with it *paired*
(:meth:`Sweep.comparison`, the headline of :meth:`Sweep.headline`); by default the run
stops when every such difference is known to ± 2 points
(:mod:`escarmouche.simulation.precision`).

>>> from escarmouche import Combatant
>>> from escarmouche.encounter import Encounter
>>> from escarmouche.systems import d20
>>> duel = Encounter(d20.SYSTEM, [Combatant("Brune", "héros", {"PV": 12}),
...                          Combatant("Grolk", "orques", {"PV": 9})])
>>> grid = sweep(duel, {"save_target": [10, 15]}, 10, seed=1)
>>> grid.points, [bilan.n for bilan in grid.balances]
(((10,), (15,)), [10, 10])
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

from escarmouche import checks
from escarmouche.errors import EscarmoucheError, invalid
from escarmouche.options import Option, find
from escarmouche.render.simsvg import stack_svg
from escarmouche.render.svg import outcome_bars_svg
from escarmouche.render.table import ShownAsTable, Table
from escarmouche.simulation.balance import Balance, _balance, _col, _mean, _pct
from escarmouche.simulation.comparison import Comparison, fixed_batch, run_plan, stop_at
from escarmouche.simulation.fight import as_roster
from escarmouche.simulation.precision import BATCH
from escarmouche.simulation.runner import (
    Progress,
    _check_dask,
    _check_run,
    _first_fight,
    _workers,
)
from escarmouche.simulation.sequential import default_processes, run_batches
from escarmouche.text.fmt import plural

__all__ = ["MAX_GRID_POINTS", "Sweep", "grid_variants", "point_label", "sweep"]

#: the most points of a sweep grid
MAX_GRID_POINTS = 1_000


def _option(system: str, field: str) -> Option | None:
    from escarmouche.systems import get

    try:
        return get(system).option(field)
    except EscarmoucheError:
        return None


def _option_label(system: str, field: str) -> str:
    """A ``Rules`` field by its declared French label and rule IDs, capitalised."""
    spec = _option(system, field)
    return spec.title if spec is not None else field


def _value_label(system: str, field: str, value: Any) -> object:
    """An option value as a reader sees it (:meth:`escarmouche.options.Option.value_label`)."""
    spec = _option(system, field)
    if spec is not None:
        return spec.value_label(value)
    return value if isinstance(value, str | int) else json.dumps(value, ensure_ascii=False)


def point_label(system: str, fields: Sequence[str], point: Sequence[Any]) -> str:
    """A grid's point as a reader names it, by the options' labels: « plus haut jet de
    réussite critique du test D100 = 10 »."""

    def label(field: str) -> str:
        spec = _option(system, field)
        return spec.label if spec is not None else field

    return ", ".join(f"{label(f)} = {_value_label(system, f, v)}"
                     for f, v in zip(fields, point, strict=True))


@dataclasses.dataclass(frozen=True, repr=False)
class Sweep(ShownAsTable):
    """One :class:`Balance` per point of an option grid, in grid order."""

    fields: tuple[str, ...]
    points: tuple[tuple[Any, ...], ...]
    balances: tuple[Balance, ...]
    #: per point after the first, its paired counts against the first (``"a:<side>"``,
    #: ``"b:<side>"``, ``"changed"``); empty when not counted (a Dask run)
    pairs: tuple[Mapping[str, int], ...] = ()
    #: the precision the run stopped at (a rate), ``None`` for a fixed number of fights
    precision: float | None = None

    def point_label(self, k: int) -> str:
        """Point ``k`` as a reader names it, by the options' labels: « plus haut jet de
        réussite critique du test D100 = 10 »."""
        return point_label(self.balances[0].system, self.fields, self.points[k])

    def comparison(self, k: int) -> Comparison:
        """Point ``k`` (≥ 1) against the first point, paired (the same dice)."""
        counts = self.pairs[k - 1]
        return Comparison(self.balances[0], self.balances[k],
                          {key[2:]: v for key, v in counts.items() if key.startswith("a:")},
                          {key[2:]: v for key, v in counts.items() if key.startswith("b:")},
                          ("1er point", f"point {k + 1}"), counts.get("changed", 0), True,
                          self.precision)

    def headline(self) -> str:
        """Per point after the first, what it changes against the first, in points
        (:func:`~escarmouche.simulation.precision.difference_sentence`), one line each,
        then how many fights it took; ``""`` without pairs."""
        if not self.pairs:
            return ""
        lines = [f"Chaque point comparé au premier ({self.point_label(0)}), sur les mêmes "
                 f"dés :"]
        for k in range(1, len(self.points)):
            c = self.comparison(k)
            lines.append("– " + c.headline(self.point_label(k)).replace(c.how_many(), "")
                         .rstrip())
        lines.append(self.comparison(1).how_many().replace("par jeu de règles",
                                                           "par point"))
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        from html import escape

        text = self.headline()
        return ("".join(f"<p>{escape(line)}</p>" for line in text.splitlines())
                + self.table()._repr_html_())

    def __str__(self) -> str:
        return "\n".join(x for x in (self.headline(), str(self.table())) if x)

    def __repr__(self) -> str:
        return str(self)

    def table(self) -> Table:
        sides = self.balances[0].sides if self.balances else ()
        rows = []
        for k, (point, bal) in enumerate(zip(self.points, self.balances, strict=True)):
            cells: list[object] = [_value_label(bal.system, f, v)
                                   for f, v in zip(self.fields, point, strict=True)]
            shown = bal.shown_rates()
            for side in sides:
                _, low, high = bal.win_rate(side)
                cells.append(f"{shown[side]} [{_pct(low)} ; {_pct(high)}]")
            if self.pairs and sides:
                if k == 0:
                    cells.append("—")
                else:
                    diff, lo, hi = self.comparison(k).interval(sides[0])
                    cells.append(f"{'+' if diff > 0 else ''}{_col(diff * 100, 1)} "
                                 f"[{_col(lo * 100, 1)} ; {_col(hi * 100, 1)}]")
            cells.append(_col(_mean(bal.rounds)))
            rows.append(tuple(cells))
        word = self.balances[0].turn_word if self.balances else "tour"
        system = self.balances[0].system if self.balances else ""
        gap = ((f"Écart « {sides[0]} » avec le 1er point, en points (IC 95 % "
                f"apparié)",) if self.pairs and sides else ())
        headers = (*(_option_label(system, f) for f in self.fields),
                   *(f"Victoires « {s} »" for s in sides), *gap,
                   f"{word.capitalize()}s en moyenne")
        n = self.balances[0].n if self.balances else 0
        note = self.balances[0].note if self.balances else ""
        return Table(headers, rows, title=f"Balayage : {plural(len(self.points), 'point')}"
                     f" × {plural(n, 'combat')}" + (f". {note}" if note else ""))


    def svg(self) -> str:
        """The win rate of each side at each point of the grid (bars, one document)."""
        sides = self.balances[0].sides if self.balances else ()
        charts = []
        for side in sides:
            system = self.balances[0].system
            items = [(", ".join(f"{_option_label(system, f)} : {_value_label(system, f, v)}"
                                for f, v in zip(self.fields, p, strict=True)),
                      Fraction(b.wins.get(side, 0), b.n))
                     for p, b in zip(self.points, self.balances, strict=True)]
            charts.append(outcome_bars_svg(items, title=f"Victoires « {side} »"))
        return stack_svg(charts, title="Balayage")

    def to_json(self) -> dict[str, Any]:
        return {"champs": list(self.fields),
                "points": [dict(zip(self.fields, p, strict=True)) for p in self.points],
                "bilans": [b.to_json() for b in self.balances]}


def _grid(grid: Mapping[str, Sequence[Any]], rules: Any) -> Iterator[tuple[Any, ...]]:
    checks.mapping("grille", grid, "CORE-ERR", max_len=20)
    for key, values in grid.items():
        find(rules, key, field="grille")
        checks.sequence(f"grille.{key}", values, "CORE-ERR", max_len=MAX_GRID_POINTS)
    size = math.prod(len(v) for v in grid.values())
    if size < 1 or size > MAX_GRID_POINTS:
        raise invalid("grille", size, "CORE-ERR",
                      f"entre 1 et {MAX_GRID_POINTS} points sont attendus")
    yield from itertools.product(*grid.values())


def grid_variants(roster: object, grid: Mapping[str, Sequence[Any]]
                  ) -> tuple[tuple[str, ...], tuple[tuple[Any, ...], ...], list[Any]]:
    """The grid checked (CORE-ERR) and read against ``roster``'s rules: its fields (the
    ``Rules`` names), its points (the product of the values, in order) and the roster
    under each point's rules."""
    base = as_roster(roster)
    rules = base.rules
    points = tuple(_grid(grid, rules))
    fields = tuple(find(rules, key).name for key in grid)
    variants = []
    for point in points:
        try:
            new_rules = dataclasses.replace(rules, **dict(zip(fields, point, strict=True)))
        except (TypeError, ValueError) as err:
            raise invalid("grille", json.dumps(point, ensure_ascii=False, default=str),
                          "CORE-ERR", f"options refusées : {err}") from None
        variants.append(base.with_rules(new_rules))
    return fields, points, variants


def sweep(roster: object, grid: Mapping[str, Sequence[Any]], n: int | None = None, *,
          seed: int = 0, policy: Any = None, processes: int | None = None,
          dask: Any = None, progress: Progress | None = None, max_turns: int = 50,
          precision: float | None = None) -> Sweep:
    """Simulate ``roster`` at every point of ``grid`` (option → values, the option named
    by its ``Rules`` field or its French key; the product of all) on the same streams,
    each point paired with the first. ``n`` alone: exactly ``n`` fights per point;
    ``precision`` (points; ± 2 when neither is given): stop once every point's
    difference with the first is known that well (``n`` fights at most), as
    :func:`~escarmouche.simulation.compare` does. On Dask (a fixed ``n``), every fight of
    every point is sent at once (a cluster stays busy). ``progress(done, total)`` counts
    the fights of every point."""
    cap, rate = run_plan(n, precision)
    if dask is not None and rate is not None:
        raise invalid("precision", precision, "CORE-ERR", "une grappe Dask joue un nombre "
                      "de combats fixé (combats=N) ; la précision se joue en local")
    if processes is None:
        processes = 1 if dask is not None else default_processes(cap)
    _check_run(cap, seed, processes, max_turns)
    _check_dask(dask)
    fields, points, variants = grid_variants(roster, grid)
    sides = _first_fight(variants[0], seed, policy, max_turns)
    if len(variants) == 1 and rate is not None:  # nothing to compare: a fixed run
        cap, rate = (n if n is not None else 1_000), None
    stop = stop_at(rate, sides, [True] * (len(variants) - 1)) if rate is not None else None
    batch = BATCH if rate is not None else fixed_batch(cap, _workers(processes, dask))
    tallies, pairs = run_batches(variants, seed, policy, max_turns, fights=cap,
                                 batch=batch, processes=processes, stop=stop,
                                 progress=progress, dask=dask, weight=len(variants))
    return Sweep(fields, points, tuple(_balance(v, t, seed, sides)
                                       for v, t in zip(variants, tallies, strict=True)),
                 tuple(dict(p) for p in pairs), rate)
