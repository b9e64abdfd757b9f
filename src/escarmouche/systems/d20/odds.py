"""Exact odds of the d20 system (:class:`~fractions.Fraction`), from the same rules as
play: the saving throw and the duration of a save-ends effect (D20-END-1), who acts
first (D20-INIT-1). Each result displays itself in a notebook (a French table)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from escarmouche import _check, dice
from escarmouche.model import Combatant, check_roster
from escarmouche.odds import OddsTable, exact_json, first_odds, uniform
from escarmouche.render.table import Table
from escarmouche.systems.d20.rules import (
    BONUS_RANGE,
    INITIATIVE_DIE,
    MAX_DURATION_TURNS,
    SAVE_DIE,
    Rules,
    check_rules,
)
from escarmouche.systems.d20.saves import check_bonus
from escarmouche.systems.describe import Chances, Situation
from escarmouche.text.fmt import number, percent, plural, signed

__all__ = [
    "DurationOdds",
    "SaveOdds",
    "duration_odds",
    "first_to_act_chances",
    "first_to_act_odds",
    "lasts_exactly",
    "save_odds",
]


@dataclass(frozen=True, slots=True)
class SaveOdds:
    """Exact odds of one saving throw with ``bonus`` (D20-END-1)."""

    bonus: int
    target: int
    success: Fraction
    failure: Fraction
    rules: tuple[str, ...] = ("D20-END-1",)

    def bars(self) -> list[tuple[str, Fraction]]:
        """(French label, probability) pairs for
        :func:`escarmouche.render.svg.outcome_bars_svg`."""
        return [("sauvegarde réussie", self.success), ("sauvegarde ratée", self.failure)]

    def table(self) -> Table:
        return Table(("Résultat", "Chance"), [(k, percent(p)) for k, p in self.bars()],
                     f"Jet de sauvegarde : 1d20 {signed(self.bonus)} ≥ {number(self.target)} "
                     "(D20-END-1)")

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()


def save_odds(bonus: int = 0, *, rules: Rules | None = None) -> SaveOdds:
    """The exact probability that a saving throw with ``bonus`` succeeds (D20-END-1),
    from the exact law of 1d20 (:func:`escarmouche.dice.distribution`).

    >>> save_odds(5).success
    Fraction(4, 5)
    """
    r = check_rules(rules)
    check_bonus(bonus, "D20-END-1")
    law = dice.distribution(f"1d{SAVE_DIE}")
    success = sum((p for face, p in law.items() if face + bonus >= r.save_target),
                  Fraction(0))
    return SaveOdds(bonus, r.save_target, success, 1 - success)


def lasts_exactly(turns: int, bonus: int = 0, *, rules: Rules | None = None) -> Fraction:
    """The exact probability that a save-ends effect lasts exactly ``turns`` of its
    bearer's turns: ``turns − 1`` failed saves, then a success (D20-END-1)."""
    _check.integer("tours", turns, lo=1, hi=MAX_DURATION_TURNS, rule="D20-END-1")
    p = save_odds(bonus, rules=rules).success
    return (1 - p) ** (turns - 1) * p


@dataclass(frozen=True, slots=True)
class DurationOdds:
    """The exact law of how long a save-ends effect lasts (D20-END-1).

    ``exactly[n]`` is the probability that it ends at the end of the bearer's ``n``-th
    turn (the ``n``-th save is the first success), for ``n`` from 1 to ``max_turns``;
    ``beyond`` is the probability that it is still there after ``max_turns`` saves, so
    that ``sum(exactly.values()) + beyond == 1``. ``mean`` is the expected number of
    turns (``1 / save``), ``None`` when no save can succeed.
    """

    bonus: int
    save: Fraction
    max_turns: int
    exactly: Mapping[int, Fraction]
    beyond: Fraction
    mean: Fraction | None
    rules: tuple[str, ...] = ("D20-END-1",)

    def bars(self) -> list[tuple[str, Fraction]]:
        """(French label, probability) pairs for a bar chart such as
        :func:`escarmouche.render.svg.outcome_bars_svg`: « 1 tour », « 2 tours » …
        « plus de N tours » (``exactly`` itself suits ``distribution_svg``)."""
        out = [(plural(n, "tour"), p) for n, p in self.exactly.items()]
        out.append((f"plus de {plural(self.max_turns, 'tour')}", self.beyond))
        return out

    def mean_text(self) -> str:
        """The mean duration in French (« 1,82 tour », « jamais de fin »)."""
        if self.mean is None:
            return "jamais de fin"
        return f"{number(self.mean)} tour{'s' if self.mean >= 2 else ''}"

    def table(self) -> Table:
        return Table(("Fin de l’effet", "Chance"),
                     [(k, percent(p)) for k, p in self.bars()],
                     f"Durée d’un effet terminé par une sauvegarde, bonus "
                     f"{signed(self.bonus)} : en moyenne {self.mean_text()} (D20-END-1)")

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()


def duration_odds(bonus: int = 0, *, max_turns: int = 10, rules: Rules | None = None
                  ) -> DurationOdds:
    """The exact law of the duration of a save-ends effect with ``bonus`` (geometric:
    each end of turn, one save, success probability :func:`save_odds`; D20-END-1)."""
    _check.integer("max_turns", max_turns, lo=1, hi=MAX_DURATION_TURNS, rule="D20-END-1")
    p = save_odds(bonus, rules=rules).success
    q = 1 - p
    exactly = {n: q ** (n - 1) * p for n in range(1, max_turns + 1)}
    return DurationOdds(bonus, p, max_turns, MappingProxyType(exactly), q ** max_turns,
                        (1 / p) if p else None)


def first_to_act_odds(combatants: Iterable[Combatant], *, rules: Rules | None = None
                      ) -> dict[str, Fraction]:
    """D20-INIT-1: each combatant's exact chance to act first in every round — 1d20 +
    ``init`` (0 when absent), ties to the higher ``init``, then a fair roll-off
    (:func:`escarmouche.odds.first_odds`; no roster-wide enumeration).

    >>> from escarmouche import Combatant
    >>> first_to_act_odds([Combatant("A", "x", {"init": 0}), Combatant("B", "y")])
    {'A': Fraction(1, 2), 'B': Fraction(1, 2)}
    """
    check_rules(rules)
    roster = check_roster(combatants, rule="D20-INIT-1", non_empty=True)
    entries = []
    for c in roster:
        mod = _check.integer("init", c.stat("init", 0), lo=BONUS_RANGE[0], hi=BONUS_RANGE[1],
                             rule="D20-INIT-1", who=c.name)
        entries.append((c.name, mod, uniform(INITIATIVE_DIE, mod)))
    return first_odds(entries)


def first_to_act_chances(combatants: Iterable[Combatant], *, rules: Rules | None = None
                         ) -> tuple[Chances, ...]:
    """What the initiative demo charts: :func:`first_to_act_odds` (D20-INIT-1)."""
    first = first_to_act_odds(combatants, rules=rules)
    return (Chances("Agir en premier (D20-INIT-1)", tuple(first.items()),
                    "Agir en premier : 1d20 + init, égalités au plus haut init puis jet de "
                    "départage (D20-INIT-1)."),)


# -- the standard situations (edition pages, the Atelier, ``escarmouche cotes``) ----


def standard_odds(rules: Rules) -> list[OddsTable]:
    """The standard situations of the system and their exact values under ``rules``:
    what an edition page and the Atelier compare before and after a change."""
    saves = []
    for bonus in (-2, 0, 2, 5):
        law = duration_odds(bonus, max_turns=5, rules=rules).exactly
        saves.append((f"bonus {signed(bonus)}", tuple(
            sum((law[k] for k in range(1, n + 1)), Fraction(0)) for n in (1, 2, 3, 5))))
    cap = rules.max_action_points_per_turn
    subs = []
    for spent in (0, 1, 2):
        used = spent if cap is None else min(spent, cap)
        standard = 1 + used
        subs.append((f"{spent} point{'s' if spent > 1 else ''} d’action offert"
                     f"{'s' if spent > 1 else ''}", (
                         Fraction(standard), Fraction(standard + 1),
                         Fraction(standard + 2), Fraction(used))))
    return [
        OddsTable("d20.save", "Sauvegarde réussie en n tours au plus", ("D20-END-1",),
                  ("Bonus", "1 tour", "2 tours", "3 tours", "5 tours"), tuple(saves)),
        OddsTable("d20.actions", "Substitutions : actions possibles en un tour",
                  ("D20-ACT-1", "D20-ACT-2", "D20-ACT-3"),
                  ("Points d’action", "Actions simples au plus", "Actions de mouvement au plus",
                   "Actions mineures au plus", "Points dépensés"), tuple(subs), "number"),
    ]


def _situation(value: int, params: Mapping[str, Any]
               ) -> tuple[dict[str, Any], Any, list[tuple[str, Fraction]], str]:
    """``escarmouche cotes --sauvegarde-d20``: the JSON, the table, the bars, the title."""
    save = save_odds(value)
    data = {"situation": "sauvegarde_d20", "bonus": save.bonus, "seuil": save.target,
            "reussite": exact_json(save.success), "echec": exact_json(save.failure),
            "regles": list(save.rules)}
    title = f"Jet de sauvegarde d20, bonus {value} (D20-END-1)"
    return data, save.table(), save.bars(), title


#: the standard roll of this system whose exact odds ``escarmouche cotes`` gives
SITUATIONS: tuple[Situation, ...] = (
    Situation("sauvegarde-d20", "BONUS",
              "un jet de sauvegarde d20 avec ce bonus (D20-END-1)",
              _situation, (),
              example='--sauvegarde-d20 2'),
)
