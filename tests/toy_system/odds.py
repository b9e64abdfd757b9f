"""Exact odds of « Jouet », from the same pure functions as play."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from escarmouche.model import Combatant, check_roster
from tests.toy_system.actions import resolve_strike
from tests.toy_system.initiative import resolve_initiative
from tests.toy_system.rules import DEFAULT_RULES, INITIATIVE_DIE, Rules

__all__ = ["initiative_odds", "strike_distribution"]


def strike_distribution(rules: Rules = DEFAULT_RULES) -> dict[int, Fraction]:
    """JOUET-ATK-1: the damage of one blow.

    >>> strike_distribution(Rules(faces=2))
    {1: Fraction(1, 2), 2: Fraction(1, 2)}
    """
    p = Fraction(1, rules.faces)
    return {resolve_strike(d, rules).damage: p for d in range(1, rules.faces + 1)}


def initiative_odds(combatants: list[Combatant]) -> dict[str, Fraction]:
    """JOUET-INIT-1: each combatant's chance to act first (every die enumerated; small
    rosters only: at most 6 combatants)."""
    roster = check_roster(combatants, rule="JOUET-INIT-1", non_empty=True)[:6]
    first = dict.fromkeys((c.name for c in roster), Fraction(0))
    weight = Fraction(1, INITIATIVE_DIE ** len(roster))
    for rolls in product(range(1, INITIATIVE_DIE + 1), repeat=len(roster)):
        first[resolve_initiative(roster, rolls).order[0]] += weight
    return first
