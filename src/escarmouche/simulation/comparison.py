"""Two rule sets (or editions) compared on the same dice: :func:`compare`.

Both rosters play fight ``i`` on the same streams (common random numbers), so their
difference is measured on paired fights: per side, the difference of win rates B − A
with its 95 % interval (Wald, on the paired differences), in a :class:`Comparison`.

>>> from escarmouche import Combatant
>>> from escarmouche.encounter import Encounter
>>> from escarmouche.systems import d20
>>> duel = Encounter(d20.SYSTEM, [Combatant("Brune", "héros", {"PV": 12}),
...                          Combatant("Grolk", "orques", {"PV": 9})])
>>> same = compare(duel, duel, 20, seed=1)
>>> same.a == same.b, same.difference("héros")
(True, (0.0, 0.0, 0.0))
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from escarmouche import _check
from escarmouche.errors import invalid
from escarmouche.render.svg import outcome_bars_svg
from escarmouche.render.table import ShownAsTable, Table
from escarmouche.simulation.balance import Z95, Balance, _balance, _col, _mean, _Tally
from escarmouche.simulation.fight import as_roster
from escarmouche.simulation.runner import (
    Progress,
    _check_dask,
    _check_run,
    _first_fight,
    _jobs,
    _results,
    _workers,
)
from escarmouche.text.fmt import plural

__all__ = ["Comparison", "compare"]


@dataclasses.dataclass(frozen=True, repr=False)
class Comparison(ShownAsTable):
    """Two balances played on the same streams (common random numbers) and, per side,
    the paired difference of win rates B − A with its 95 % interval (Wald, on the
    paired differences: fights A won and B did not, and the reverse)."""

    a: Balance
    b: Balance
    a_only: Mapping[str, int]
    b_only: Mapping[str, int]
    labels: tuple[str, str] = ("A", "B")

    def difference(self, side: str) -> tuple[float, float, float]:
        """(B − A, low, high) for the win rate of ``side``."""
        n = self.a.n
        d10, d01 = self.a_only.get(side, 0), self.b_only.get(side, 0)
        diff = (d01 - d10) / n
        var = max(0.0, (d10 + d01) / n - diff * diff)
        half = Z95 * math.sqrt(var / n) if n > 1 else 1.0
        return (diff, max(-1.0, diff - half), min(1.0, diff + half))

    def table(self) -> Table:
        la, lb = self.labels
        rows: list[tuple[object, ...]] = []
        shown_a, shown_b = self.a.shown_rates(), self.b.shown_rates()
        for side in self.a.sides:
            diff, low, high = self.difference(side)
            sign = "+" if diff > 0 else ""
            rows.append((side, shown_a[side], shown_b[side],
                         f"{sign}{_col(diff * 100, 1)} [{_col(low * 100, 1)} ; "
                         f"{_col(high * 100, 1)}]",
                         _col(self.a.damage_per_round(side)),
                         _col(self.b.damage_per_round(side))))
        title = (f"{self.a.title} : {la} contre {lb}, {plural(self.a.n, 'combat')} sur les "
                 f"mêmes dés (graine {self.a.seed}) ; durée moyenne "
                 f"{_col(_mean(self.a.rounds))} contre {_col(_mean(self.b.rounds))} "
                 f"{self.a.turn_word}s" + (f". {self.a.note}" if self.a.note else ""))
        return Table(("Camp", f"Victoires {la}", f"Victoires {lb}",
                      f"Écart {lb} − {la}, en points (IC 95 % apparié)",
                      f"Dégâts par {self.a.turn_word} {la}",
                      f"Dégâts par {self.a.turn_word} {lb}"), rows, title=title)


    def to_json(self) -> dict[str, Any]:
        diffs = {}
        for side in self.a.sides:
            d, low, high = self.difference(side)
            diffs[side] = {"ecart": d, "ic95": [low, high],
                           "seulement_a": self.a_only.get(side, 0),
                           "seulement_b": self.b_only.get(side, 0)}
        return {"a": self.a.to_json(), "b": self.b.to_json(), "libelles": list(self.labels),
                "ecarts": diffs, "intervalle": "Wald apparié 95 %"}

    def svg(self) -> str:
        items = []
        for side in self.a.sides:
            for label, bal in zip(self.labels, (self.a, self.b), strict=True):
                items.append((f"{label} : victoire « {side} »",
                              Fraction(bal.wins.get(side, 0), bal.n)))
        return outcome_bars_svg(items, title=f"Victoires sur {plural(self.a.n, 'combat')}")


def compare(roster_a: object, roster_b: object, n: int, *, seed: int = 0, policy: Any = None,
            processes: int = 1, dask: Any = None, progress: Progress | None = None,
            max_turns: int = 50, labels: tuple[str, str] = ("A", "B")) -> Comparison:
    """Play ``n`` fights of each roster on the same streams (fight ``i`` of both draws
    from ``stream(seed, i, …)``) and compare them; typically the same roster under two
    option sets or two editions (``roster.with_rules(...)``)."""
    _check_run(n, seed, processes, max_turns)
    _check_dask(dask)
    ra, rb = as_roster(roster_a), as_roster(roster_b)
    sides_a = _first_fight(ra, seed, policy, max_turns)
    sides_b = _first_fight(rb, seed, policy, max_turns)
    if sides_a != sides_b:
        raise invalid("camps", ", ".join(sides_b), "CORE-ERR",
                      "les deux combats comparés doivent opposer les mêmes camps")
    for i, label in enumerate(labels):
        _check.text(f"libellé {i + 1}", label, "CORE-ERR", max_len=60)
    jobs = _jobs((ra, rb), n, seed, policy, max_turns, _workers(processes, dask))
    ta, tb, pairs = _Tally(), _Tally(), Counter[str]()
    for _, (a, b, p) in _results(jobs, processes, dask, progress):
        ta.merge(a)
        tb.merge(b)
        pairs.update(p)
    a_only = {k[2:]: v for k, v in pairs.items() if k.startswith("a:")}
    b_only = {k[2:]: v for k, v in pairs.items() if k.startswith("b:")}
    return Comparison(_balance(ra, ta, seed, sides_a), _balance(rb, tb, seed, sides_b),
                      a_only, b_only, labels)
