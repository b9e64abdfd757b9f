"""JOUET-INIT-1: 1d6 + ``init``, highest first, ties in roster order."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from escarmouche import _check
from escarmouche._rng import Rng
from escarmouche.model import Combatant, check_roster
from tests.toy_system.rules import INITIATIVE_DIE

__all__ = ["Initiative", "resolve_initiative", "roll_initiative"]


@dataclasses.dataclass(frozen=True, slots=True)
class Initiative:
    """The order, with each score (the audit trail a GM reads)."""

    order: tuple[str, ...]
    scores: tuple[tuple[str, int], ...]


def resolve_initiative(combatants: Sequence[Combatant], rolls: Sequence[int]) -> Initiative:
    """The order from dice already rolled, one d6 per combatant in roster order.

    >>> from escarmouche import Combatant
    >>> resolve_initiative([Combatant("A", "x", {"init": 1}), Combatant("B", "y")], [2, 5]).order
    ('B', 'A')
    """
    roster = check_roster(combatants, rule="JOUET-INIT-1", non_empty=True)
    _check.sequence("dés", rolls, "JOUET-INIT-1", min_len=len(roster), max_len=len(roster))
    scores = [(c.name, _check.die("dé", r, INITIATIVE_DIE, "JOUET-INIT-1", who=c.name)
               + c.stat("init", 0)) for c, r in zip(roster, rolls, strict=True)]
    order = sorted(range(len(scores)), key=lambda i: (-scores[i][1], i))
    return Initiative(tuple(scores[i][0] for i in order), tuple(scores))


def roll_initiative(combatants: Sequence[Combatant], rng: Rng) -> Initiative:
    """Draw order: one d6 per combatant, in roster order (JOUET-INIT-1)."""
    roster = check_roster(combatants, rule="JOUET-INIT-1", non_empty=True)
    return resolve_initiative(roster, [rng.randint(1, INITIATIVE_DIE) for _ in roster])
