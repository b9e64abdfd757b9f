"""Exact odds of « Jouet », from the same pure functions as play."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from itertools import product
from typing import Any

from escarmouche.model import Combatant, check_roster
from escarmouche.odds import OddsTable, exact_json
from escarmouche.systems.describe import Situation
from tests.toy_system.actions import resolve_strike
from tests.toy_system.initiative import resolve_initiative
from tests.toy_system.rules import DEFAULT_RULES, INITIATIVE_DIE, Rules

__all__ = ["SITUATIONS", "initiative_odds", "standard_odds", "strike_distribution"]


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


def standard_odds(rules: Rules) -> list[OddsTable]:
    """JOUET-ATK-1: the standard situation an edition page and the Atelier compare: a
    blow deals at least 1, 3 or 5 PV, and its mean."""
    dist = strike_distribution(rules)
    at_least = tuple(sum((p for v, p in dist.items() if v >= n), Fraction(0)) for n in (1, 3, 5))
    mean = sum((v * p for v, p in dist.items()), Fraction(0))
    return [
        OddsTable("jouet.coup", "Dégâts d’un coup", ("JOUET-ATK-1",),
                  ("Coup", "Au moins 1", "Au moins 3", "Au moins 5"), (("un coup", at_least),)),
        OddsTable("jouet.moyenne", "Dégâts moyens d’un coup", ("JOUET-ATK-1",),
                  ("Coup", "Moyenne"), (("un coup", (mean,)),), "number"),
    ]


def _blow(faces: int, params: Mapping[str, Any]
          ) -> tuple[dict[str, Any], Any, list[tuple[str, Fraction]], str]:
    """``escarmouche cotes --coup-jouet FACES``: the damage of one blow (JOUET-ATK-1)."""
    from escarmouche.render.table import Table
    from escarmouche.text.fmt import percent

    dist = strike_distribution(Rules(faces=faces))
    data = {"situation": "coup_jouet", "faces": faces,
            "degats": {str(v): exact_json(p) for v, p in dist.items()},
            "regles": ["JOUET-ATK-1"]}
    title = f"Coup du système jouet, 1d{faces} (JOUET-ATK-1)"
    table = Table(("Dégâts", "Chance"), [(v, percent(p)) for v, p in dist.items()], title)
    return data, table, [(f"{v} PV", p) for v, p in dist.items()], title


#: the standard roll whose exact odds ``escarmouche cotes`` gives
SITUATIONS: tuple[Situation, ...] = (
    Situation("coup-jouet", "FACES", "les dégâts d’un coup du système jouet (JOUET-ATK-1)",
              _blow, example="--coup-jouet 8"),
)
