"""Exact odds of the d20 system (:class:`~fractions.Fraction`), from the same rules as
play: the saving throw and the duration of a save-ends effect (D20-END-1), who acts
first (D20-INIT-1). Each result displays itself in a notebook (a French table)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from escarmouche import checks, dice
from escarmouche.errors import EscarmoucheError
from escarmouche.model import Combatant, check_roster
from escarmouche.odds import OddsTable, all_equal, exact_json, first_odds, uniform
from escarmouche.render.table import Table
from escarmouche.systems.d20.actions import resolve_attack
from escarmouche.systems.d20.rules import (
    ATTACK_DIE,
    BONUS_RANGE,
    INITIATIVE_DIE,
    MAX_ACTION_POINTS,
    MAX_DURATION_TURNS,
    MINOR,
    MOVE,
    SAVE_DIE,
    SIMPLE,
    Rules,
    action_points_of,
    check_rules,
    defence_of,
    immediate_resets,
    refunded,
    speed_of,
)
from escarmouche.systems.d20.saves import check_bonus
from escarmouche.systems.d20.turn import plan_turn
from escarmouche.systems.describe import Chances, Situation
from escarmouche.text.fmt import number, percent, plural, signed

__all__ = [
    "DurationOdds",
    "SaveOdds",
    "duration_odds",
    "first_to_act_chances",
    "first_to_act_odds",
    "immediate_chances",
    "lasts_exactly",
    "most_actions",
    "opportunity_odds",
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
        op = "+" if self.bonus >= 0 else "−"
        return Table(("Résultat", "Chance"), [(k, percent(p)) for k, p in self.bars()],
                     f"Jet de sauvegarde : 1d20 {op} {number(abs(self.bonus))} ≥ "
                     f"{number(self.target)} (D20-END-1)")

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()


def save_odds(bonus: int = 0, *, rules: Rules | None = None) -> SaveOdds:
    """The exact probability that a saving throw with ``bonus`` succeeds (D20-END-1),
    from the exact law of 1d20 (:func:`escarmouche.dice.distribution`).

    >>> save_odds(5, rules=Rules(save_target=10)).success
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
    checks.integer("tours", turns, lo=1, hi=MAX_DURATION_TURNS, rule="D20-END-1")
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
    checks.integer("max_turns", max_turns, lo=1, hi=MAX_DURATION_TURNS, rule="D20-END-1")
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
        mod = checks.integer("init", c.stat("init", 0), lo=BONUS_RANGE[0], hi=BONUS_RANGE[1],
                             rule="D20-INIT-1", who=c.name)
        entries.append((c.name, mod, uniform(INITIATIVE_DIE, mod)))
    return first_odds(entries)


def first_to_act_chances(combatants: Iterable[Combatant], *, rules: Rules | None = None
                         ) -> tuple[Chances, ...]:
    """What the initiative demo charts: :func:`first_to_act_odds` (D20-INIT-1)."""
    first = first_to_act_odds(combatants, rules=rules)
    return (Chances("Agir en premier (D20-INIT-1)", tuple(first.items()),
                    "Agir en premier : 1d20 + modificateur d’initiative, égalités au "
                    "plus haut modificateur puis jet de départage (D20-INIT-1)."),)


# -- the standard situations (edition pages, the Atelier, ``escarmouche cotes``) ----


def most_actions(category: str, *, used: tuple[str, ...] = (), action_points: int = 0,
                 rules: Rules | None = None) -> int:
    """How many more actions of ``category`` fit in a turn that already used ``used``
    and spends ``action_points``, as :func:`~escarmouche.systems.d20.turn.plan_turn`
    fits them (D20-ACT-1/2/3); 0 when the points themselves are refused.

    >>> most_actions("mouvement"), most_actions("simple", action_points=2)
    (2, 3)
    """
    n = 0
    while n < MAX_ACTION_POINTS + 3:
        try:
            plan_turn([*used, *[category] * (n + 1)], action_points=action_points,
                      rules=rules)
        except EscarmoucheError:
            break
        n += 1
    return n


def _points_allowed(points: int, rules: Rules) -> int:
    """The most of ``points`` action points one turn may spend (D20-ACT-3)."""
    for k in range(points, 0, -1):
        try:
            plan_turn([], action_points=k, rules=rules)
        except EscarmoucheError:
            continue
        return k
    return 0


def opportunity_odds(bonus: int, rules: Rules | None = None, *, damage_at_least: int = 0
                     ) -> Fraction:
    """The exact chance that an attack with ``bonus`` and the default weapon hits a
    creature with no ``defense`` of its own (:func:`~escarmouche.systems.d20.rules.
    defence_of`, D20-OPP-2) and deals at least ``damage_at_least`` damage (never below
    0), from :func:`~escarmouche.systems.d20.actions.resolve_attack` at every d20 face.

    >>> opportunity_odds(2, Rules(default_defence=10))
    Fraction(13, 20)
    """
    r = check_rules(rules)
    defence = defence_of(Combatant("Cible", "b"), r)
    hits = sum(1 for roll in range(1, ATTACK_DIE + 1)
               if resolve_attack(roll, bonus, defence).hit)
    law = dice.distribution(r.default_weapon)
    enough = sum((p for total, p in law.items() if max(0, total) >= damage_at_least),
                 Fraction(0))
    return Fraction(hits, ATTACK_DIE) * enough


def immediate_chances(rank: int, size: int, rules: Rules | None = None) -> int:
    """A creature ``rank``-th of ``size`` in the order used its immediate action after
    its own turn in round 1: how many turns of the others, in round 2 before its own,
    find its immediate action available again (D20-IMM-1,
    :func:`~escarmouche.systems.d20.rules.immediate_resets` at each moment the engine
    checks it).

    >>> immediate_chances(3, 4, Rules(immediate_reset="debut_du_round"))
    2
    """
    r = check_rules(rules)
    size = checks.integer("effectif", size, lo=1, hi=100, rule="D20-IMM-1")
    rank = checks.integer("rang", rank, lo=1, hi=size, rule="D20-IMM-1")
    # used in round 1: it comes back before round 2's first turn only at the round's
    # start; at its own turn's start (the other reset) it is too late for these turns
    return rank - 1 if immediate_resets(r, "debut_du_round") else 0


def standard_odds(rules: Rules) -> list[OddsTable]:
    """The standard situations of the system and their exact values under ``rules``:
    what an edition page and the Atelier compare before and after a change. Each
    declared option with a value to change changes at least one value
    (``tests/faces/editions/test_measured.py``)."""
    saves = []
    for bonus in (-2, 0, 2, 5):
        law = duration_odds(bonus, max_turns=5, rules=rules).exactly
        saves.append((f"bonus {signed(bonus)}", tuple(
            sum((law[k] for k in range(1, n + 1)), Fraction(0)) for n in (1, 2, 3, 5))))
    budget = []
    for label, who in (("Sans PA noté (valeur par défaut)", Combatant("X", "a")),
                       ("2 PA", Combatant("X", "a", {"PA": 2})),
                       ("5 PA", Combatant("X", "a", {"PA": 5}))):
        points = _points_allowed(action_points_of(who, rules), rules)
        moves = most_actions(MOVE, action_points=points, rules=rules)
        budget.append((label, (
            Fraction(points), Fraction(most_actions(SIMPLE, action_points=points, rules=rules)),
            Fraction(moves), Fraction(most_actions(MINOR, action_points=points, rules=rules)),
            Fraction(moves * speed_of(Combatant("X", "a"), rules)))))
    opportunity = tuple((f"attaque {signed(bonus)}", (
        opportunity_odds(bonus, rules), opportunity_odds(bonus, rules, damage_at_least=4)))
        for bonus in (0, 2, 5))
    cancelled = []
    for label, category in (("Déplacement annulé", MOVE), ("Attaque annulée", SIMPLE)):
        left = tuple(refunded(rules, [category], category))
        cancelled.append((label, (Fraction(most_actions(SIMPLE, used=left, rules=rules)),
                                  Fraction(most_actions(MOVE, used=left, rules=rules)))))
    immediate = tuple((f"{rank}e sur 4", (Fraction(immediate_chances(rank, 4, rules)),))
                      for rank in (2, 3, 4))
    roll_off = all_equal(uniform(INITIATIVE_DIE), 2) ** rules.max_roll_off_rounds
    return [
        OddsTable("d20.save", "Sauvegarde réussie en 1, 2, 3 ou 5 tours au plus", ("D20-END-1",),
                  ("Bonus", "1 tour", "2 tours", "3 tours", "5 tours"), tuple(saves)),
        OddsTable("d20.actions", "Un tour complet : ce que permettent les points d’action",
                  ("D20-ACT-1", "D20-ACT-2", "D20-ACT-3"),
                  ("Créature", "Points dépensés au plus", "Actions simples au plus",
                   "Actions de mouvement au plus", "Actions mineures au plus",
                   "Cases parcourues au plus, vitesse par défaut"), tuple(budget), "number"),
        OddsTable("d20.opportunity", "Attaque d’opportunité contre une créature de "
                  "défense par défaut, arme par défaut", ("D20-OPP-2",),
                  ("Attaquant", "Touche", "Touche et inflige 4 dégâts ou plus"), opportunity),
        OddsTable("d20.cancelled", "Action annulée par une réaction : ce qui reste du tour",
                  ("D20-OPP-1", "D20-IMM-2"),
                  ("Action annulée", "Actions simples encore possibles",
                   "Actions de mouvement encore possibles"), tuple(cancelled), "number"),
        OddsTable("d20.immediate", "Action immédiate prise après son tour au round 1 : "
                  "tours des autres où elle est de nouveau possible au round 2, avant le sien",
                  ("D20-IMM-1",), ("Rang d’initiative", "Tours"), immediate, "number"),
        OddsTable("d20.caps", "Borne atteinte\u00a0: chance qu’une égalité répétée se règle "
                  "au sort", ("D20-INIT-1", "D20-INIT-2"), ("Jet répété", "Chance"),
                  (("Départage de deux créatures à égalité", (roll_off,)),), "rare"),
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
