"""Exact odds of the Rulebook system (:class:`~fractions.Fraction` only), computed from
the same pure functions as play (:func:`~escarmouche.systems.rulebook.rules.d100_test`,
:func:`~escarmouche.systems.rulebook.surprise.group_values`); the widgets and the book
only lay them out."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from escarmouche import checks
from escarmouche.model import Combatant, check_roster
from escarmouche.odds import OddsTable, exact_json, first_odds
from escarmouche.render.table import Table
from escarmouche.systems.describe import Chances, Situation
from escarmouche.systems.rulebook.rules import DEFAULT_RULES, Rules, check_stat, d100_test
from escarmouche.systems.rulebook.speed import apply_speed
from escarmouche.systems.rulebook.surprise import group_values
from escarmouche.text import fmt

__all__ = [
    "D100Odds",
    "d100_odds",
    "first_to_act_chances",
    "first_to_act_odds",
    "hyperactive_slots",
    "initiative_score_distribution",
    "surprise_chance",
    "surprise_chances",
    "surprise_odds",
    "turn_zero_odds",
]

#: the bonus that puts every critical success above every margin (RB-INIT-2)
_CRITICAL_FIRST = 10_000


@dataclasses.dataclass(frozen=True, slots=True)
class D100Odds:
    """Exact odds of a D100 test (RB-D100-1); the four outcomes sum to 1."""

    critical_success: Fraction
    success: Fraction  # every success, critical ones included
    failure: Fraction  # every failure, critical ones included
    critical_failure: Fraction
    stat: int | None = dataclasses.field(default=None, compare=False)

    def table(self) -> Table:
        """The four outcomes as a French table (exact fraction and percentage)."""
        rows = [
            ("réussite critique", self.critical_success),
            ("réussite ordinaire", self.success - self.critical_success),
            ("échec ordinaire", self.failure - self.critical_failure),
            ("échec critique", self.critical_failure),
        ]
        on = "" if self.stat is None else f" sur {fmt.number(self.stat)}"
        return Table(("Résultat", "Chance", "Fraction"),
                     [(label, fmt.percent(p), fmt.fraction(p)) for label, p in rows],
                     title=f"Chances d’un test D100{on} (RB-D100-1)")

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()


def d100_odds(stat: int, rules: Rules = DEFAULT_RULES) -> D100Odds:
    """The exact probabilities of a D100 test on ``stat`` (RB-D100-1).

    >>> d100_odds(55).success
    Fraction(11, 20)
    """
    stat = checks.integer("stat", stat, lo=-10_000, hi=10_000, rule="RB-D100-1")
    cs = min(rules.crit_success_max, 100)
    cf = max(0, 101 - rules.crit_failure_min)
    # plain successes: rolls in (crit_success_max, crit_failure_min) with roll ≤ stat
    plain = max(0, min(stat, rules.crit_failure_min - 1) - cs)
    success = Fraction(cs + plain, 100)
    return D100Odds(Fraction(cs, 100), success, 1 - success, Fraction(cf, 100), stat)


def initiative_score_distribution(hab: int, rules: Rules = DEFAULT_RULES
                                  ) -> dict[int, Fraction]:
    """The law of one combatant's initiative score (RB-INIT-1/2): the margin of its HAB
    test, every critical success above every margin (:data:`_CRITICAL_FIRST` added)."""
    law: dict[int, Fraction] = {}
    for roll in range(1, 101):
        t = d100_test(hab, roll, rules)
        score = t.margin + (_CRITICAL_FIRST if t.critical == "success" else 0)
        law[score] = law.get(score, Fraction(0)) + Fraction(1, 100)
    return law


def first_to_act_odds(combatants: Iterable[Combatant], rules: Rules = DEFAULT_RULES
                      ) -> dict[str, Fraction]:
    """Each combatant's exact chance to head the initiative order (RB-INIT-1/2, before
    the speed effects): critical successes first, then the higher margin, ties to the
    higher HAB, then a fair d100 roll-off.

    >>> from escarmouche import Combatant
    >>> odds = first_to_act_odds([Combatant("A", "x", {"HAB": 50}),
    ...                           Combatant("B", "y", {"HAB": 50})])
    >>> odds["A"], sum(odds.values())
    (Fraction(1, 2), Fraction(1, 1))
    """
    roster = check_roster(combatants, rule="RB-INIT-1", non_empty=True)
    entries = []
    for c in roster:
        hab = check_stat(c, "HAB", "RB-INIT-1")
        entries.append((c.name, hab, initiative_score_distribution(hab, rules)))
    return first_odds(entries)


def surprise_odds(attack_stat: int, defence_stat: int) -> Fraction:
    """The exact probability that the attackers win the opposed test (RB-SURPRISE-2),
    given the two group values: ``P(attack_stat − a > defence_stat − d)`` for two
    independent d100 ``a``, ``d`` (the difference ``d − a = j`` has ``100 − |j|`` cases).

    >>> surprise_odds(50, 50)
    Fraction(99, 200)
    """
    a = checks.integer("DIS", attack_stat, lo=-10_000, hi=10_000, rule="RB-SURPRISE-2")
    d = checks.integer("PMR", defence_stat, lo=-10_000, hi=10_000, rule="RB-SURPRISE-2")
    k = d - a  # attackers win when d_roll − a_roll > k
    wins = sum(100 - abs(j) for j in range(max(k + 1, -99), 100))
    return Fraction(wins, 10_000)


def surprise_chance(
    attackers: Iterable[Combatant],
    defenders: Iterable[Combatant],
    *,
    unaware: bool,
    rules: Rules = DEFAULT_RULES,
) -> Fraction:
    """The exact probability that a surprise attack succeeds (RB-SURPRISE-1/2): 0 when
    the defenders are aware, else :func:`surprise_odds` of the two group values
    (``rules.surprise_aggregate``)."""
    a_stat, _, d_stat, _ = group_values(attackers, defenders, unaware=unaware, rules=rules)
    return surprise_odds(a_stat, d_stat) if unaware else Fraction(0)


def turn_zero_odds(
    combatants: Iterable[Combatant],
    surprise_by: str,
    *,
    unaware: bool,
    rules: Rules = DEFAULT_RULES,
) -> dict[str, Fraction]:
    """Each combatant's exact chance to act in turn 0 when the side ``surprise_by``
    attempts a surprise attack (RB-SURPRISE-1..3, RB-INIT-3/4): when it succeeds, the
    attackers and the defenders with ``anti_surprise`` are in turn 0 unless they fail
    critically; anyone with a critical success is in it anyway."""
    roster = check_roster(combatants, rule="RB-SURPRISE-1", non_empty=True)
    sides = list(dict.fromkeys(c.side for c in roster))
    checks.name_in("surprise_by", surprise_by, sides, "RB-SURPRISE-1", what="camp")
    attackers = [c for c in roster if c.side == surprise_by]
    defenders = [c for c in roster if c.side != surprise_by]
    success = surprise_chance(attackers, defenders, unaware=unaware, rules=rules)
    out: dict[str, Fraction] = {}
    for c in roster:
        o = d100_odds(check_stat(c, "HAB", "RB-INIT-1"), rules)
        favoured = c.side == surprise_by or "anti_surprise" in c.traits
        if_success = 1 - o.critical_failure if favoured else o.critical_success
        out[c.name] = success * if_success + (1 - success) * o.critical_success
    return out


def first_to_act_chances(combatants: Iterable[Combatant], rules: Rules = DEFAULT_RULES
                         ) -> tuple[Chances, ...]:
    """What the initiative demo charts (RB-INIT-1..4): each combatant's chance to head
    the order (:func:`first_to_act_odds`) and to pass its HAB test, and the critical
    results that put anyone in turn 0 or keep them out until turn 2."""
    roster = check_roster(combatants, rule="RB-INIT-1", non_empty=True)
    for c in roster:
        check_stat(c, "HAB", "RB-INIT-1")
    first = first_to_act_odds(roster, rules)
    success = tuple((c.name, d100_odds(c.stat("HAB"), rules).success) for c in roster)
    crit = d100_odds(roster[0].stat("HAB"), rules)
    return (
        Chances("En tête de l’ordre (RB-INIT-2)", tuple(first.items()),
                "En tête de l’ordre d’initiative (RB-INIT-2, avant les effets de vitesse) "
                "et réussite du test de HAB (RB-D100-1)."),
        Chances("Réussit son test de HAB (RB-D100-1)", success, notes=(
            f"Pour chacun, quelle que soit sa HAB : réussite critique, donc tour 0, "
            f"{fmt.percent(crit.critical_success)} (RB-INIT-3) ; échec critique, donc rien "
            f"avant le tour 2, {fmt.percent(crit.critical_failure)} (RB-INIT-4).",)),
    )


def surprise_chances(combatants: Iterable[Combatant], attackers: str, *, unaware: bool,
                     rules: Rules = DEFAULT_RULES) -> Chances:
    """What the surprise demo charts (RB-SURPRISE-1..3): the chance that the attack
    succeeds and each combatant's chance to act in turn 0."""
    roster = check_roster(combatants, rule="RB-SURPRISE-1", non_empty=True)
    att = [c for c in roster if c.side == attackers]
    dfd = [c for c in roster if c.side != attackers]
    items: list[tuple[str, Fraction]] = [
        ("attaque surprise réussie", surprise_chance(att, dfd, unaware=unaware, rules=rules))]
    turn_zero = turn_zero_odds(roster, attackers, unaware=unaware, rules=rules)
    items += [(f"{name} au tour 0", p) for name, p in turn_zero.items()]
    return Chances("Rulebook : surprise et tour 0 (RB-SURPRISE-1/2/3)", tuple(items))


# -- the standard situations (edition pages, the Atelier, ``escarmouche cotes``) ----


def hyperactive_slots(rank: int, size: int, rules: Rules = DEFAULT_RULES
                      ) -> tuple[int, int]:
    """The places (1-based) of the two activations of a character with Hyperactivité who
    is ``rank``-th of ``size`` in the initiative order, as
    :func:`~escarmouche.systems.rulebook.speed.apply_speed` lays out the turn (RB-SPEED-3,
    ``rules.hyperactive_slot``).

    >>> hyperactive_slots(2, 4, Rules(hyperactive_slot="juste_apres"))
    (2, 3)
    """
    size = checks.integer("effectif", size, lo=1, hi=100, rule="RB-SPEED-3")
    rank = checks.integer("rang", rank, lo=1, hi=size, rule="RB-SPEED-3")
    names = [f"P{i}" for i in range(1, size + 1)]
    hyper = names[rank - 1]
    slots = apply_speed(names, {hyper: {"hyperactivite"}}, rules).slots()
    first = slots.index(hyper)
    return first + 1, slots.index(hyper, first + 1) + 1


#: a surprise attack by three against three whose leader, mean and weakest differ
#: (RB-SURPRISE-2, ``surprise_aggregate``); the leader is named first
_SURPRISE_GROUPS = (
    (Combatant("Cheffe", "a", {"DIS": 55}), Combatant("Éclaireur", "a", {"DIS": 70}),
     Combatant("Recrue", "a", {"DIS": 30})),
    (Combatant("Sergent", "d", {"PMR": 40}), Combatant("Guetteuse", "d", {"PMR": 60}),
     Combatant("Garde", "d", {"PMR": 35})),
)


def standard_odds(rules: Rules) -> list[OddsTable]:
    """The standard situations of the system and their exact values under ``rules``:
    what an edition page and the Atelier compare before and after a change. Each
    declared option with a value to change changes at least one value
    (``tests/faces/editions/test_measured.py``)."""
    rows = []
    for hab in (20, 35, 50, 65, 80):
        o = d100_odds(hab, rules)
        rows.append((f"HAB {hab}", (o.success, o.critical_success, o.critical_failure)))
    surprise = [
        (f"DIS {dis} contre PMR {pmr}", (surprise_odds(dis, pmr),))
        for dis, pmr in ((30, 50), (40, 40), (50, 40), (70, 30))]
    attackers, defenders = _SURPRISE_GROUPS
    surprise.append(("3 contre 3 (DIS 55/70/30, PMR 40/60/35)", (
        surprise_chance(attackers, defenders, unaware=True, rules=rules),)))
    slots = tuple((f"Hyperactif {fmt.ordinal(rank)} sur 4",
                   tuple(Fraction(s) for s in hyperactive_slots(rank, 4, rules)))
                  for rank in (1, 2, 3))
    return [
        OddsTable("rulebook.test", "Test D100 selon la HAB", ("RB-D100-1",),
                  ("Caractéristique", "Réussite", "Réussite critique", "Échec critique"),
                  tuple(rows)),
        OddsTable("rulebook.surprise", "Attaque surprise réussie (test opposé)",
                  ("RB-SURPRISE-2",), ("Situation", "Surprise réussie"), tuple(surprise)),
        OddsTable("rulebook.speed", "Hyperactivité : places des deux activations dans un "
                  "tour de quatre personnages", ("RB-SPEED-3",),
                  ("Rang d’initiative", "Première activation", "Seconde activation"),
                  slots, "number"),
    ]


def _situation(value: int, params: Mapping[str, Any]
               ) -> tuple[dict[str, Any], Any, list[tuple[str, Fraction]], str]:
    """``escarmouche cotes --test-rulebook``: the JSON, the table, the bars, the title."""
    odds = d100_odds(value)
    data = {"situation": "test_rulebook", "caracteristique": value,
            "reussite_critique": exact_json(odds.critical_success),
            "reussite": exact_json(odds.success), "echec": exact_json(odds.failure),
            "echec_critique": exact_json(odds.critical_failure), "regles": ["RB-D100-1"]}
    bars = [("réussite critique", odds.critical_success),
            ("réussite ordinaire", odds.success - odds.critical_success),
            ("échec ordinaire", odds.failure - odds.critical_failure),
            ("échec critique", odds.critical_failure)]
    return data, odds.table(), bars, f"Test D100 sous {value} (RB-D100-1)"


#: the standard roll of this system whose exact odds ``escarmouche cotes`` gives
SITUATIONS: tuple[Situation, ...] = (
    Situation("test-rulebook", "HAB",
              "un test D100 sous une caractéristique (RB-D100-1)",
              _situation, (),
              example='--test-rulebook 55'),
)
