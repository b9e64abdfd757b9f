"""Ties settled by lot when a safety bound is reached (D12-INIT-6).

The text repeats two tie-breaks for as long as the tie lasts: everyone rerolls after a
perfect tie of group initiative (D12-INIT-3), and tied fighters roll off again
(D12-INIT-4). The engine bounds both (``Rules.max_initiative_rerolls``,
``Rules.max_roll_off_rounds``); when a bound is reached the fight does not stop: the
fighters or groups still tied are ordered **by lot**, with dice from the same rng
(:func:`~escarmouche.rng.draw_lots`: a die with as many faces as tied names left picks
the next one, in the given order). A :class:`Lot` records it.

>>> from escarmouche.rng import ScriptedRolls
>>> lot = draw(("x", "y", "z"), ScriptedRolls([2, 2]), scope="groupes", after=20)
>>> lot.order, lot.dice
(('y', 'z', 'x'), (2, 2))
>>> print(lot_sentence(lot))  # doctest: +NORMALIZE_WHITESPACE
Égalité parfaite encore après 20 relances (D12-INIT-3) : tirage au sort entre « x », « y »
et « z » (un dé à 3 faces donne 2, un dé à 2 faces donne 2), d’où l’ordre « y », « z »,
« x » (D12-INIT-6).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from escarmouche.model import Json
from escarmouche.rng import Rng, draw_lots
from escarmouche.text.fmt import join, plural, quote

__all__ = ["GROUPS_SCOPE", "Lot", "by_lot", "draw", "lot_sentence"]

G = TypeVar("G", bound=Any)

#: the scope of a lot between groups (a perfect tie of group initiative)
GROUPS_SCOPE = "groupes"


@dataclass(frozen=True, slots=True)
class Lot:
    """A tie settled by lot (D12-INIT-6): ``tied`` in the given order, the ``dice``
    drawn (the first has ``len(tied)`` faces, each next one a face less), the resulting
    ``order``; ``scope`` is :data:`GROUPS_SCOPE` or the roll-off's scope, ``after`` the
    rerolls or roll-off rounds already played (the bound)."""

    scope: str
    tied: tuple[str, ...]
    dice: tuple[int, ...]
    order: tuple[str, ...]
    after: int

    def faces(self) -> list[int]:
        """The faces of each die drawn, in order."""
        return [len(self.tied) - i for i in range(len(self.dice))]

    def to_json(self) -> dict[str, Json]:
        return {"scope": self.scope, "tied": list(self.tied), "dice": list(self.dice),
                "order": list(self.order), "after": self.after}

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> Lot:
        return cls(str(data["scope"]), tuple(str(n) for n in data["tied"]),
                   tuple(int(d) for d in data["dice"]),
                   tuple(str(n) for n in data["order"]), int(data["after"]))


def draw(tied: Sequence[str], rng: Rng, *, scope: str, after: int) -> Lot:
    """Order ``tied`` by lot (:func:`~escarmouche.rng.draw_lots`) and record it."""
    order, dice = draw_lots(tied, rng)
    return Lot(scope, tuple(tied), dice, tuple(order), after)


def lot_sentence(lot: Lot) -> str:
    """The lot in French, with the bound reached and the dice."""
    dice = ", ".join(f"un dé à {f} faces donne {d}" for f, d in zip(lot.faces(), lot.dice,
                                                                     strict=True))
    if lot.scope == GROUPS_SCOPE:
        head = (f"Égalité parfaite encore après {plural(lot.after, 'relance')} "
                "(D12-INIT-3)")
        names = [quote(n) for n in lot.tied]
        order = ", ".join(quote(n) for n in lot.order)
    else:
        head = (f"Égalité encore après {plural(lot.after, 'jet')} de départage "
                "(D12-INIT-4)")
        names = list(lot.tied)
        order = ", ".join(lot.order)
    return (f"{head} : tirage au sort entre {join(names)} ({dice}), d’où l’ordre "
            f"{order} (D12-INIT-6).")


def by_lot(results: Sequence[G], rng: Rng, after: int) -> tuple[tuple[G, ...], list[Lot]]:
    """The group results of a perfect tie past the bound (``GroupResult``, in acting
    order), with each run of perfectly tied groups (identical lists, side by side) ordered
    by lot, the highest run first (D12-INIT-6)."""
    out: list[G] = []
    lots: list[Lot] = []
    for key, run in itertools.groupby(results, key=lambda g: (g.environment, g.results)):
        same = list(run)
        if len(same) > 1 and not key[0]:
            lots.append(draw([g.side for g in same], rng, scope=GROUPS_SCOPE, after=after))
            by_side = {g.side: g for g in same}
            same = [by_side[side] for side in lots[-1].order]
        out += same
    return tuple(out), lots
