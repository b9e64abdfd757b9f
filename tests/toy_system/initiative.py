"""JOUET-INIT-1: 1d6 + ``init``, highest first, ties in roster order."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from escarmouche import checks
from escarmouche.model import Combatant, check_roster
from escarmouche.rng import Rng
from tests.toy_system.rules import INITIATIVE_DIE

__all__ = ["Initiative", "order_by_initiative", "resolve_initiative", "roll_initiative"]


@dataclasses.dataclass(frozen=True, slots=True)
class Initiative:
    """The order, with each score (the audit trail a GM reads)."""

    order: tuple[str, ...]
    scores: tuple[tuple[str, int], ...]


def order_by_initiative(inits: Sequence[int], rolls: Sequence[int]
                        ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """JOUET-INIT-1, the arithmetic of dice already checked: each score (1d6 + ``init``)
    and the order as roster indices, highest first, a tie in roster order. The one
    implementation: :func:`resolve_initiative` checks the dice and calls it, the rules
    kernel (:mod:`tests.toy_system.kernel`) calls it with the dice it drew.

    >>> order_by_initiative([1, 0, 2], [2, 3, 1])
    ((3, 3, 3), (0, 1, 2))
    >>> order_by_initiative([0, 0], [2, 5])
    ((2, 5), (1, 0))
    """
    scores = tuple(roll + init for roll, init in zip(rolls, inits, strict=True))
    return scores, tuple(sorted(range(len(scores)), key=lambda i: (-scores[i], i)))


def resolve_initiative(combatants: Sequence[Combatant], rolls: Sequence[int]) -> Initiative:
    """The order from dice already rolled, one d6 per combatant in roster order.

    >>> from escarmouche import Combatant
    >>> resolve_initiative([Combatant("A", "x", {"init": 1}), Combatant("B", "y")], [2, 5]).order
    ('B', 'A')
    """
    roster = check_roster(combatants, rule="JOUET-INIT-1", non_empty=True)
    checks.sequence("dés", rolls, "JOUET-INIT-1", min_len=len(roster), max_len=len(roster))
    dice = [checks.die("dé", r, INITIATIVE_DIE, "JOUET-INIT-1", who=c.name)
            for c, r in zip(roster, rolls, strict=True)]
    scores, order = order_by_initiative([c.stat("init", 0) for c in roster], dice)
    names = [c.name for c in roster]
    return Initiative(tuple(names[i] for i in order), tuple(zip(names, scores, strict=True)))


def roll_initiative(combatants: Sequence[Combatant], rng: Rng) -> Initiative:
    """Draw order: one d6 per combatant, in roster order (JOUET-INIT-1)."""
    roster = check_roster(combatants, rule="JOUET-INIT-1", non_empty=True)
    return resolve_initiative(roster, [rng.randint(1, INITIATIVE_DIE) for _ in roster])
