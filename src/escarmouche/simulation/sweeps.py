"""Sweeps over an option grid: one balance per point of a grid of rule options.

:func:`sweep` plays the same roster at every point of the product of the option values
it is given, ``n`` fights each on the same streams, and sends every fight of every
point to the executor at once. A :class:`Sweep` holds one balance per point, and reads
as a table whose first columns are the options, labelled for a reader.

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

from escarmouche import _check
from escarmouche.errors import EscarmoucheError, invalid
from escarmouche.options import Option, find
from escarmouche.render.simsvg import stack_svg
from escarmouche.render.svg import outcome_bars_svg
from escarmouche.render.table import ShownAsTable, Table
from escarmouche.simulation.balance import Balance, _balance, _col, _mean, _pct, _Tally
from escarmouche.simulation.fight import as_roster
from escarmouche.simulation.runner import (
    Progress,
    _check_dask,
    _check_run,
    _first_fight,
    _Job,
    _jobs,
    _results,
    _workers,
)
from escarmouche.text.fmt import plural

__all__ = ["MAX_GRID_POINTS", "Sweep", "sweep"]

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


@dataclasses.dataclass(frozen=True, repr=False)
class Sweep(ShownAsTable):
    """One :class:`Balance` per point of an option grid, in grid order."""

    fields: tuple[str, ...]
    points: tuple[tuple[Any, ...], ...]
    balances: tuple[Balance, ...]

    def table(self) -> Table:
        sides = self.balances[0].sides if self.balances else ()
        rows = []
        for point, bal in zip(self.points, self.balances, strict=True):
            cells: list[object] = [_value_label(bal.system, f, v)
                                   for f, v in zip(self.fields, point, strict=True)]
            shown = bal.shown_rates()
            for side in sides:
                _, low, high = bal.win_rate(side)
                cells.append(f"{shown[side]} [{_pct(low)} ; {_pct(high)}]")
            cells.append(_col(_mean(bal.rounds)))
            rows.append(tuple(cells))
        word = self.balances[0].turn_word if self.balances else "tour"
        system = self.balances[0].system if self.balances else ""
        headers = (*(_option_label(system, f) for f in self.fields),
                   *(f"Victoires « {s} »" for s in sides),
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
            items = [(", ".join(f"{_option_label(system, f)} : {_value_label(system, f, v)}"
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
    _check.mapping("grille", grid, "CORE-ERR", max_len=20)
    for key, values in grid.items():
        find(rules, key, field="grille")
        _check.sequence(f"grille.{key}", values, "CORE-ERR", max_len=MAX_GRID_POINTS)
    size = math.prod(len(v) for v in grid.values())
    if size < 1 or size > MAX_GRID_POINTS:
        raise invalid("grille", size, "CORE-ERR",
                      f"entre 1 et {MAX_GRID_POINTS} points sont attendus")
    yield from itertools.product(*grid.values())


def sweep(roster: object, grid: Mapping[str, Sequence[Any]], n: int, *, seed: int = 0,
          policy: Any = None, processes: int = 1, dask: Any = None,
          progress: Progress | None = None, max_turns: int = 50) -> Sweep:
    """Simulate ``roster`` at every point of ``grid`` (option → values, the option named
    by its ``Rules`` field or its French key; the product of all), ``n`` fights each on
    the same streams; every fight of every point is sent to the executor at once (a
    cluster stays busy)."""
    _check_run(n, seed, processes, max_turns)
    _check_dask(dask)
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
    sides = _first_fight(variants[0], seed, policy, max_turns)
    workers = _workers(processes, dask)
    jobs: list[_Job] = []
    owner: list[int] = []
    for k, v in enumerate(variants):
        for job in _jobs((v,), n, seed, policy, max_turns, max(1, workers // len(variants))):
            jobs.append(job)
            owner.append(k)
    tallies = [_Tally() for _ in variants]
    for k, (tally,) in _results(jobs, processes, dask, progress):
        tallies[owner[k]].merge(tally)
    return Sweep(fields, points, tuple(_balance(v, t, seed, sides)
                                       for v, t in zip(variants, tallies, strict=True)))
