"""Exact odds of the d12 system (:class:`~fractions.Fraction`), from the same rules as play.

* the attack (D12-CRIT-1, -2, D12-ADV-1, D12-EXPLODE-1): :func:`hit_odds`,
  :func:`critical_odds`, :func:`damage_distribution`,
  :func:`critical_damage_distribution` (spec/API.md), :func:`attack_damage_distribution`, and
  the value of each critical option (:func:`critical_option_values`, cached: the
  automated fights ask for it at every activation);
* the group initiative (D12-INIT-2, -3, -5): :func:`group_order_odds` (every acting
  order of the groups) and :func:`group_odds` (first group, before the environment, a
  perfect tie), both from the one exact algorithm :func:`_order_weights`;
* the ambush's bonus turn (D12-SURPRISE-2): :func:`bonus_turn_odds`, through
  :func:`escarmouche.odds.first_odds`.

The values the book shows display themselves in a notebook (``_repr_html_``: French
tables), and :func:`hit_odds_table`, :func:`critical_damage_table` and
:func:`attack_die_table` give the book's tables.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import operator
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from escarmouche import checks, dice
from escarmouche.errors import RuleBoundError, invalid
from escarmouche.memo import Memo
from escarmouche.model import Combatant
from escarmouche.odds import OddsTable, all_equal, exact_json, first_odds, uniform
from escarmouche.render.table import Table, Text
from escarmouche.state import ENVIRONMENT
from escarmouche.systems.d12.critical import (
    attack_expression,
    combine_modes,
    damage_expression,
)
from escarmouche.systems.d12.initiative import (
    bonus_turn_participants,
    check_initiative_roster,
)
from escarmouche.systems.d12.rules import (
    ATTACK_DIE,
    CRITICAL_OPTIONS,
    DEFAULT_RULES,
    ENVIRONMENT_INITIATIVE,
    MODE_LABELS,
    Mode,
    Rules,
    check_bonus,
    check_defence,
    check_mode,
    check_option,
    check_weapon,
)
from escarmouche.systems.describe import Chances, Situation, SituationParam
from escarmouche.text.fmt import number, percent, signed

__all__ = [
    "MAX_ODDS_GROUPS",
    "MAX_ODDS_STATES",
    "BonusTurnOdds",
    "GroupOdds",
    "OptionValue",
    "OptionValues",
    "attack_damage_distribution",
    "attack_die_table",
    "best_critical_option",
    "bonus_turn_chances",
    "bonus_turn_odds",
    "cap_odds",
    "critical_chance",
    "critical_damage_distribution",
    "critical_damage_table",
    "critical_odds",
    "critical_option_values",
    "damage_distribution",
    "expected",
    "first_to_act_chances",
    "group_odds",
    "group_order_odds",
    "hit_chance",
    "hit_odds",
    "hit_odds_table",
]


# -- the attack ---------------------------------------------------------------------------


def _floored(dist: Mapping[int, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for v, p in dist.items():
        k = max(v, 0)
        out[k] = out.get(k, Fraction(0)) + p
    return dict(sorted(out.items()))


def expected(dist: Mapping[int, Fraction]) -> Fraction:
    """The mean of an exact distribution.

    >>> expected({1: Fraction(1, 2), 4: Fraction(1, 2)})
    Fraction(5, 2)
    """
    return sum((Fraction(v) * p for v, p in dist.items()), Fraction(0))


def _kept_distribution(mode: Mode | str) -> Mapping[int, Fraction]:
    return dice.distribution(attack_expression(mode))


def critical_odds(mode: Mode | str = Mode.NORMAL) -> Fraction:
    """The exact chance of a natural 12 on the kept die (D12-CRIT-2, D12-ADV-1).

    >>> critical_odds(), critical_odds("avantage"), critical_odds("desavantage")
    (Fraction(1, 12), Fraction(23, 144), Fraction(1, 144))
    """
    return _kept_distribution(mode).get(ATTACK_DIE, Fraction(0))


def hit_odds(*, bonus: int = 0, defence: int, mode: Mode | str = Mode.NORMAL) -> Fraction:
    """The exact chance that an attack hits, criticals included (D12-CRIT-1, -2).

    >>> hit_odds(bonus=3, defence=10)
    Fraction(1, 2)
    """
    check_bonus(bonus)
    check_defence(defence)
    return sum(
        (p for k, p in _kept_distribution(mode).items()
         if k == ATTACK_DIE or k + bonus >= defence),
        Fraction(0),
    )


@functools.lru_cache(maxsize=256)
def _damage_distribution_cached(weapon: str, option: str | None) -> Mapping[int, Fraction]:
    expr = damage_expression(weapon, option)
    if option == "maximum":
        return {max(dice.max_dice_total(expr), 0): Fraction(1)}
    return _floored(dice.distribution(expr))


def damage_distribution(weapon: str, option: str | None = None) -> Mapping[int, Fraction]:
    """The exact damage of one hit (floored at 0): a normal hit (``option=None``) or a
    critical with ``option`` (D12-CRIT-2, D12-EXPLODE-1 with the dice module's cap)."""
    w = check_weapon(weapon)
    if option is not None:
        check_option(option)
    return dict(_damage_distribution_cached(w, option))


def critical_damage_distribution(weapon: str, option: str) -> Mapping[int, Fraction]:
    """The exact damage distribution of a critical hit (spec/API.md; D12-CRIT-2).

    ``"maximum"``: the weapon's dice at their maximum (one value); ``"explosif"``: one
    more die, every die exploding (``1d8+2`` → ``2d8!+2``; explosion capped at
    :data:`escarmouche.dice.MAX_EXPLODE_DEPTH` extra draws, D12-EXPLODE-1);
    ``"avantage"``: the weapon's normal damage (its benefit is on the next attack, see
    :func:`critical_option_values`). Damage is floored at 0.

    >>> dict(critical_damage_distribution("1d8+2", "maximum"))
    {10: Fraction(1, 1)}
    """
    check_option(option)
    return damage_distribution(weapon, option)


def attack_damage_distribution(
    weapon: str,
    *,
    bonus: int = 0,
    defence: int,
    option: str = "maximum",
    mode: Mode | str = Mode.NORMAL,
) -> Mapping[int, Fraction]:
    """The exact damage of one attack against ``defence``: a miss deals 0, a normal hit
    the weapon, a critical the weapon with ``option`` (D12-CRIT-1, -2, D12-ADV-1).

    Only this attack's damage: the benefit of option ``"avantage"`` for the next attack
    is valued separately by :func:`critical_option_values`.
    """
    check_bonus(bonus)
    check_defence(defence)
    check_option(option)
    branches = {"critique": damage_distribution(weapon, option),
                "touche": damage_distribution(weapon), "manque": {0: Fraction(1)}}
    out: dict[int, Fraction] = {}
    for branch, weight in _attack_branches(bonus, defence, mode):
        for v, p in branches[branch].items():
            out[v] = out.get(v, Fraction(0)) + weight * p
    return dict(sorted(out.items()))


def _attack_branches(bonus: int, defence: int, mode: Mode | str
                     ) -> Iterator[tuple[str, Fraction]]:
    """Each kept d12 of an attack as its branch and its chance (D12-CRIT-1, -2): a
    natural 12 is a critical (« critique »), else ``die + bonus ≥ defence`` hits
    (« touche »), else a miss (« manque »)."""
    for k, p in _kept_distribution(mode).items():
        if k == ATTACK_DIE:
            yield "critique", p
        elif k + bonus >= defence:
            yield "touche", p
        else:
            yield "manque", p


@functools.lru_cache(maxsize=256)
def _mean_damage(weapon: str, option: str | None) -> Fraction:
    return expected(_damage_distribution_cached(weapon, option))


@dataclass(frozen=True, slots=True)
class OptionValue:
    """What one critical option is worth (D12-CRIT-2), in expected damage points.

    ``critical_damage``
        the mean damage of the critical hit itself with this option;
    ``next_attack_gain``
        (option ``"avantage"`` only, else 0) the mean extra damage of the next attack
        against the target thanks to the advantage, under the model of
        :func:`critical_option_values`;
    ``decision_value``
        ``critical_damage + next_attack_gain``: what the attacker compares once the 12
        is rolled;
    ``attack_damage``
        the mean damage of the whole attack (before rolling) when this option is taken on
        a critical, this attack only;
    ``critical_chance``
        the chance that this attack is critical.
    """

    option: str
    label: str
    critical_damage: Fraction
    next_attack_gain: Fraction
    attack_damage: Fraction
    critical_chance: Fraction

    @property
    def decision_value(self) -> Fraction:
        return self.critical_damage + self.next_attack_gain

    @property
    def attack_value(self) -> Fraction:
        """The mean damage of this attack plus, on a critical, the next attack's gain."""
        return self.attack_damage + self.critical_chance * self.next_attack_gain


class OptionValues(tuple[OptionValue, ...]):
    """The three options' values, in the text's order; a French table in a notebook."""

    __slots__ = ()

    @property
    def best(self) -> OptionValue:
        """The option of highest decision value (ties: the text's order a, b, c)."""
        return max(self, key=lambda v: v.decision_value)

    def table(self) -> Table:
        rows = [(f"({CRITICAL_OPTIONS[v.option].letter}) {v.label}", number(v.critical_damage),
                 number(v.next_attack_gain), number(v.decision_value)) for v in self]
        return Table(("Option", "Dégâts du coup critique", "Gain sur l’attaque suivante",
                      "Total"), rows, "Valeur des options critiques (dégâts moyens)")

    def _repr_html_(self) -> str:
        best = self.best
        return self.table()._repr_html_() + Text(
            f"Meilleure option : ({CRITICAL_OPTIONS[best.option].letter}) "
            f"{best.label} (D12-CRIT-2).")._repr_html_()


def _mean_attack(weapon: str, bonus: int, defence: int, mode: Mode, option: str) -> Fraction:
    """The mean of :func:`attack_damage_distribution`, by linearity: each branch's
    chance times its mean damage (exact, without building the distribution)."""
    means = {"critique": _mean_damage(weapon, option), "touche": _mean_damage(weapon, None),
             "manque": Fraction(0)}
    return sum((p * means[branch] for branch, p in _attack_branches(bonus, defence, mode)),
               Fraction(0))


def critical_option_values(
    weapon: str,
    *,
    bonus: int = 0,
    defence: int,
    mode: Mode | str = Mode.NORMAL,
    next_mode: Mode | str = Mode.NORMAL,
    next_attack_chance: Fraction | int = 1,
    next_weapon: str | None = None,
    next_bonus: int | None = None,
) -> OptionValues:
    """Value the three critical options against ``defence`` (exact; D12-CRIT-2).

    Options (a) and (b) pay on this hit only. Option (c) deals the weapon's normal damage
    and gives advantage to the next attack against the target. **Model** for (c): with
    probability ``next_attack_chance`` an attack is made against the target before its
    next turn; that attack uses ``next_weapon`` and ``next_bonus`` (by default the same as
    this one), against the same defence, with ``next_mode`` before the advantage (an
    advantage cancels one disadvantage, D12-ADV-1; advantages do not stack); on its own
    critical it takes the better of ``"maximum"`` and ``"explosif"`` (no chain of
    advantages is valued). The gain is
    ``next_attack_chance × (E[next attack with the advantage] − E[next attack without])``.

    The values are cached (a pure function of its arguments): an automated fight asks
    for them at every activation (``D12System.auto_action``).
    """
    w = check_weapon(weapon)
    m = check_mode(mode)
    nm = check_mode(next_mode)
    if isinstance(next_attack_chance, bool) or not isinstance(next_attack_chance,
                                                              int | Fraction) or not (
            0 <= next_attack_chance <= 1):
        raise invalid("next_attack_chance", next_attack_chance, "D12-CRIT-2",
                      "une probabilité entre 0 et 1 (Fraction) est attendue")
    nw = check_weapon(next_weapon) if next_weapon is not None else w
    check_bonus(bonus)
    nb = check_bonus(next_bonus) if next_bonus is not None else bonus
    check_defence(defence)
    return _option_values(w, bonus, defence, m, nm, Fraction(next_attack_chance), nw, nb)


@functools.lru_cache(maxsize=1024)
def _option_values(weapon: str, bonus: int, defence: int, mode: Mode, next_mode: Mode,
                   chance: Fraction, next_weapon: str, next_bonus: int) -> OptionValues:
    next_option = max(("maximum", "explosif"),
                      key=lambda o: _mean_damage(next_weapon, o))
    boosted = combine_modes(next_mode, Mode.AVANTAGE) if next_mode is not Mode.AVANTAGE \
        else next_mode
    gain = chance * (_mean_attack(next_weapon, next_bonus, defence, boosted, next_option)
                     - _mean_attack(next_weapon, next_bonus, defence, next_mode, next_option))
    crit_p = critical_odds(mode)
    return OptionValues(
        OptionValue(
            o.id, o.label,
            _mean_damage(weapon, o.id),
            gain if o.id == "avantage" else Fraction(0),
            _mean_attack(weapon, bonus, defence, mode, o.id),
            crit_p,
        )
        for o in CRITICAL_OPTIONS.values()
    )


#: :func:`best_critical_option`'s answers, by its arguments (each with its type)
_BEST: Memo[str] = Memo(4096)


def best_critical_option(weapon: str, *, defence: int, bonus: int = 0, **model: Any) -> str:
    """The critical option of highest :attr:`OptionValue.decision_value` (ties: the
    text's order a, b, c). ``model`` is passed to :func:`critical_option_values`. A pure
    function of its arguments, answered once per set of arguments (automated play asks
    at every activation); arguments are checked the first time."""
    try:
        key = tuple((type(v), v) for v in (weapon, defence, bonus, *sorted(model.items())))
        known = _BEST.get(key)
    except TypeError:  # an argument that cannot be a key: checked and computed each time
        return critical_option_values(weapon, bonus=bonus, defence=defence,
                                      **model).best.option
    if known is None:
        known = _BEST.put(key, critical_option_values(weapon, bonus=bonus, defence=defence,
                                                      **model).best.option)
    return known


def hit_odds_table(bonus: int, defences: Iterable[int]) -> Table:
    """The chance to hit of ``bonus`` against each defence, in each mode (D12-CRIT-1,
    D12-ADV-1), criticals included."""
    rows = [(d, *(percent(hit_odds(bonus=bonus, defence=d, mode=m)) for m in Mode))
            for d in defences]
    return Table(("Défense", *MODE_LABELS.values()), rows,
                 f"Chances de toucher, bonus {signed(bonus)}")


def critical_damage_table(weapon: str) -> Table:
    """Each critical option of ``weapon``: the dice rolled, the mean and the least damage
    (D12-CRIT-2)."""
    rows = []
    for o in CRITICAL_OPTIONS.values():
        law = critical_damage_distribution(weapon, o.id)
        rolled = "aucun (maximum)" if o.id == "maximum" else damage_expression(weapon, o.id)
        rows.append((f"({o.letter}) {o.label}", rolled, number(expected(law)), min(law)))
    return Table(("Option", "Dés lancés", "Dégâts moyens", "Minimum"), rows,
                 f"Dégâts critiques d’une arme à {weapon}")


def attack_die_table() -> Table:
    """The attack die in each mode: its expression, the mean kept die and the chance of a
    critical (D12-ADV-1, D12-CRIT-2)."""
    rows = [(label, attack_expression(m), number(expected(_kept_distribution(m))),
             percent(critical_odds(m))) for m, label in MODE_LABELS.items()]
    return Table(("Mode", "Dés", "Dé gardé moyen", "Réussite critique (12 naturel)"), rows,
                 "Le dé d’attaque selon le mode")


# -- the group initiative -----------------------------------------------------------------

#: bounds of the exact group odds (the computation is exact, so it is bounded)
MAX_ODDS_GROUPS = 5
MAX_ODDS_STATES = 100_000

#: the environment as a group result: above every list starting below 12, below every
#: list starting at 12 or more (it loses ties, D12-INIT-5); results never exceed 52
_ENV_KEY = (ENVIRONMENT_INITIATIVE - 1, 10**6)


def _sorted_results_law(bonuses: Sequence[int]) -> dict[tuple[int, ...], int]:
    """How many of the 12^k dice outcomes give each descending list of results (integer
    counts: exact and fast; cached by the group's bonuses)."""
    return dict(_results_law(tuple(sorted(bonuses))))


@functools.lru_cache(maxsize=64)
def _results_law(bonuses: tuple[int, ...]) -> Mapping[tuple[int, ...], int]:
    law: dict[tuple[int, ...], int] = {(): 1}
    for b in bonuses:
        nxt: dict[tuple[int, ...], int] = {}
        get = nxt.get
        values = range(1 + b, ATTACK_DIE + 1 + b)
        for key, n in law.items():  # ascending tuples: bisect finds the place
            for v in values:
                i = bisect.bisect_right(key, v)
                new = (*key[:i], v, *key[i:])
                nxt[new] = get(new, 0) + n
        if len(nxt) > MAX_ODDS_STATES:
            raise invalid("combattants", len(bonuses), "D12-INIT-3",
                          f"calcul exact trop coûteux pour un groupe de cette taille (plus "
                          f"de {number(MAX_ODDS_STATES)} listes de résultats possibles)",
                          kind=RuleBoundError)
        law = nxt
    return {k[::-1]: n for k, n in law.items()}


def _order_weights(combatants: Iterable[Combatant], environment: bool
                   ) -> tuple[dict[tuple[str, ...], int], int]:
    """The one exact algorithm of the group order (D12-INIT-2, -3, -5).

    Returns, for each acting order of the groups (the environment included when asked),
    the number of dice outcomes (out of the second value, every outcome) that give that
    order without a perfect tie. A group's law is the count of each descending list of
    results; for an order ``(g1, …, gn)`` the count is the sum over strictly decreasing
    lists ``k1 > … > kn`` of the product of the counts, computed suffix by suffix with
    prefix sums over the lists sorted in the order of D12-INIT-3 (each suffix once).
    Integers only; at most :data:`MAX_ODDS_GROUPS` groups.
    """
    roster = check_initiative_roster(combatants)
    sides = list(dict.fromkeys(c.side for c in roster))
    if len(sides) > MAX_ODDS_GROUPS:
        raise invalid("groupes", len(sides), "D12-INIT-2",
                      f"calcul exact limité à {MAX_ODDS_GROUPS} groupes", kind=RuleBoundError)
    laws: dict[str, dict[tuple[int, ...], int]] = {}
    everything = 1
    for side in sides:
        bonuses = [c.stat("init", 0) for c in roster if c.side == side]
        laws[side] = _sorted_results_law(bonuses)
        everything *= ATTACK_DIE ** len(bonuses)
    if environment:
        laws[ENVIRONMENT] = {_ENV_KEY: 1}
    keys = sorted({k for law in laws.values() for k in law})
    dense = {s: [law.get(k, 0) for k in keys] for s, law in laws.items()}
    ones = [1] * (len(keys) + 1)

    @functools.cache
    def below(suffix: tuple[str, ...]) -> list[int]:
        """below(suffix)[i]: the outcomes of the groups of ``suffix`` in this strict order,
        all below ``keys[i]`` (``i = len(keys)``: no bound)."""
        if not suffix:
            return ones
        rest = below(suffix[1:])
        return [0, *itertools.accumulate(map(operator.mul, dense[suffix[0]], rest))]

    weights: dict[tuple[str, ...], int] = {}
    for order in itertools.permutations(laws):
        n = below(order)[-1]
        if n:
            weights[order] = n
    return weights, everything


def group_order_odds(
    combatants: Iterable[Combatant], *, environment: bool = False
) -> dict[tuple[str, ...], Fraction]:
    """The exact probability of each acting order of the groups (D12-INIT-2, -3, -5).

    Each order is a tuple of sides (``"environnement"`` included when
    ``environment=True``), most likely first. A perfect tie makes everyone reroll
    (D12-INIT-3), so the result is conditional on no perfect tie: exact for unbounded
    rerolls (the bound :attr:`Rules.max_initiative_rerolls` is reached with a negligible
    probability, below (1/12)^20 per pair of one-member groups). At most
    :data:`MAX_ODDS_GROUPS` groups (a bounded, exact computation).

    With A (1d12) against B (1d12 + 1): B ahead in 78 of 144 cases, A in 55, a perfect
    tie in 11, rerolled:

    >>> odds = group_order_odds([Combatant("A", "x"), Combatant("B", "y", {"init": 1})])
    >>> odds[("y", "x")]
    Fraction(78, 133)
    """
    weights, _ = _order_weights(combatants, environment)
    no_tie = sum(weights.values())
    return {o: Fraction(n, no_tie) for o, n in sorted(weights.items(), key=lambda kv: -kv[1])}


@dataclass(frozen=True, slots=True)
class GroupOdds:
    """Exact group-initiative odds (D12-INIT-2, -3, -5), conditioned on no perfect tie
    (a perfect tie rerolls everyone): ``first`` (the group acts first), ``before_environment``
    (it acts before the environment at 12) and ``reroll`` (the chance of one reroll)."""

    first: dict[str, Fraction]
    before_environment: dict[str, Fraction]
    reroll: Fraction

    def table(self) -> Table:
        rows = [(side, percent(p), percent(self.before_environment[side]))
                for side, p in self.first.items()]
        return Table(("Groupe", "Agit en premier", "Agit avant l’environnement"), rows,
                     "Chances de l’initiative de groupe (D12-INIT-2, -3, -5)")

    def _repr_html_(self) -> str:
        return self.table()._repr_html_() + Text(
            f"Égalité parfaite (tout le monde relance) : {percent(self.reroll)} ; les "
            "chances ci-dessus portent sur le tirage retenu (D12-INIT-3).")._repr_html_()


def group_odds(combatants: Iterable[Combatant]) -> GroupOdds:
    """Each group's chance to act first and to act before the environment, and the chance
    of a perfect tie (D12-INIT-2, -3, -5), from :func:`group_order_odds`' algorithm.

    >>> odds = group_odds([Combatant("A", "x"), Combatant("B", "y", {"init": 1})])
    >>> odds.first["y"], odds.reroll
    (Fraction(78, 133), Fraction(11, 144))
    """
    roster = check_initiative_roster(combatants)
    weights, everything = _order_weights(roster, True)
    no_tie = sum(weights.values())
    sides = list(dict.fromkeys(c.side for c in roster))
    first = dict.fromkeys(sides, 0)
    before = dict.fromkeys(sides, 0)
    for order, n in weights.items():
        groups = [s for s in order if s != ENVIRONMENT]
        first[groups[0]] += n
        for s in order[:order.index(ENVIRONMENT)]:
            before[s] += n
    return GroupOdds({s: Fraction(n, no_tie) for s, n in first.items()},
                     {s: Fraction(n, no_tie) for s, n in before.items()},
                     1 - Fraction(no_tie, everything))


# -- the ambush's bonus turn ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BonusTurnOdds:
    """Each bonus-turn participant's chance to act first (D12-SURPRISE-2, D12-INIT-4)."""

    first: dict[str, Fraction]

    def _repr_html_(self) -> str:
        rows = [(n, percent(p)) for n, p in self.first.items()]
        return Table(("Combattant", "Agit en premier au tour bonus"), rows,
                     "Chances au tour bonus (D12-SURPRISE-2)")._repr_html_()


def bonus_turn_odds(combatants: Iterable[Combatant], ambush_by: str) -> BonusTurnOdds:
    """The exact chance that each participant of the ambush's bonus turn (the attackers
    and the « alerte » defenders) acts first in it: 1d12 + ``init``, ties to the higher
    bonus, then a fair roll-off (D12-SURPRISE-2, D12-INIT-4).

    >>> odds = bonus_turn_odds([Combatant("A", "x", {"init": 1}), Combatant("B", "y")], "x")
    >>> odds.first
    {'A': Fraction(1, 1)}
    """
    roster = check_initiative_roster(combatants)
    checks.name_in("ambush_by", ambush_by, {c.side for c in roster}, "D12-SURPRISE-1",
                   what="camp")
    participants = bonus_turn_participants(roster, ambush_by)
    return BonusTurnOdds(first_odds([(c.name, c.stat("init", 0),
                                      uniform(ATTACK_DIE, c.stat("init", 0)))
                                     for c in participants]))


def first_to_act_chances(combatants: Iterable[Combatant], *, environment: bool = False
                         ) -> tuple[Chances, ...]:
    """What the initiative demo charts (D12-INIT-2/3/5): each group's chance to act
    first and, with the environment, before it (:func:`group_odds`); with more than
    :data:`MAX_ODDS_GROUPS` sides, only why they are not computed."""
    roster = list(combatants)
    if len({c.side for c in roster}) > MAX_ODDS_GROUPS:
        return (Chances("Chances exactes", (), (
            f"Plus de {MAX_ODDS_GROUPS} camps : les chances exactes ne sont pas calculées "
            "ici (le calcul croît très vite avec le nombre de camps).")),)
    odds = group_odds(roster)
    reroll = (f" Une égalité parfaite (tout le monde relance) survient avec une "
              f"probabilité de {percent(odds.reroll)} ; les chances ci-dessous portent sur "
              "le tirage retenu." if odds.reroll else "")
    out = [Chances("Le groupe agit en premier (D12-INIT-2/3)", tuple(odds.first.items()),
                   "Chaque groupe prend son meilleur résultat (1d12 + bonus d’initiative)"
                   " ; à égalité, le deuxième meilleur, etc. (D12-INIT-2, D12-INIT-3)." + reroll)]
    if environment:
        out.append(Chances("Le groupe agit avant l’environnement (D12-INIT-5)",
                           tuple(odds.before_environment.items())))
    return tuple(out)


def bonus_turn_chances(combatants: Iterable[Combatant], ambush_by: str) -> tuple[Chances, ...]:
    """What the surprise demo charts (D12-SURPRISE-2): each bonus-turn participant's
    chance to act first in it (:func:`bonus_turn_odds`); none without participants."""
    first = bonus_turn_odds(combatants, ambush_by).first
    if not first:
        return ()
    return (Chances("d12 : agit en premier au tour bonus (D12-SURPRISE-2)",
                    tuple((f"{name} en tête du tour bonus", p) for name, p in first.items())),)


#: the names before the naming rule (odds are ``<thing>_odds``), kept for compatibility
hit_chance = hit_odds
critical_chance = critical_odds


# -- the standard situations (edition pages, the Atelier, ``escarmouche cotes``) ----


#: the camps of the situation in which the bound of rerolls is measured: six one-member
#: camps tie far more often than a duel (any two equal d12 make a perfect tie)
CAP_CAMPS = 6


def cap_odds(rules: Rules = DEFAULT_RULES) -> dict[str, Fraction]:
    """The exact chance that each capped loop of the initiative reaches its cap, so that
    the tie is settled by lot (D12-INIT-6):

    * ``"relances"``: :data:`CAP_CAMPS` one-member camps with the same bonus tie
      perfectly (two equal d12) at the first roll and at each of
      ``max_initiative_rerolls`` rerolls (D12-INIT-3, ``draw_initiative``);
    * ``"relances_duel"``: the same for two one-member camps;
    * ``"departage"``: two fighters tied in their group roll ``max_roll_off_rounds``
      equal d12 in a row (D12-INIT-4, ``_roll_off``).

    >>> cap_odds(Rules(max_roll_off_rounds=20))["departage"] == Fraction(1, 12) ** 20
    True
    >>> f"{float(cap_odds(Rules(max_initiative_rerolls=5))['relances']):.3f}"
    '0.220'
    """
    distinct = Fraction(1)
    for k in range(CAP_CAMPS):
        distinct *= Fraction(ATTACK_DIE - k, ATTACK_DIE)
    tie = group_odds([Combatant("A", "x"), Combatant("B", "y")]).reroll
    return {"relances": (1 - distinct) ** (rules.max_initiative_rerolls + 1),
            "relances_duel": tie ** (rules.max_initiative_rerolls + 1),
            "departage": all_equal(uniform(ATTACK_DIE), 2) ** rules.max_roll_off_rounds}


def standard_odds(rules: Rules) -> list[OddsTable]:
    """The standard situations of the system and their exact values under ``rules``:
    what an edition page and the Atelier compare before and after a change. Each
    declared option with a value to change changes at least one value
    (``tests/faces/editions/test_measured.py``)."""
    groups = []
    for label, roster in (
        ("1 contre 1, même bonus", [Combatant("A", "x"), Combatant("B", "y")]),
        ("1 contre 1, bonus +2 en face", [Combatant("A", "x"),
                                          Combatant("B", "y", {"init": 2})]),
        ("2 contre 1", [Combatant("A", "x"), Combatant("A2", "x"), Combatant("B", "y")]),
    ):
        g = group_odds(roster)
        groups.append((label, (g.first["x"], g.before_environment["x"], g.reroll)))
    values = []
    for defence in (10, 14, 18):
        v = {o.option: o for o in critical_option_values(rules.default_weapon,
                                                                defence=defence)}
        chosen = v[rules.critical_option]
        values.append((f"défense {defence}", (
            v["maximum"].decision_value, v["explosif"].decision_value,
            v["avantage"].decision_value, chosen.attack_damage)))
    caps = cap_odds(rules)
    return [
        OddsTable("d12.groups", "Initiative de groupe : les chances du groupe nommé en "
                  "premier", ("D12-INIT-2", "D12-INIT-3", "D12-INIT-5"),
                  ("Situation", "Agit en premier", "Avant l’environnement", "Égalité parfaite"),
                  tuple(groups)),
        OddsTable("d12.critical", "Valeur des options critiques, arme par défaut, sans "
                  "bonus d’attaque (dégâts moyens)", ("D12-CRIT-2",),
                  ("Défense", "Maximum", "Dé explosif", "Avantage",
                   "Dégâts moyens de l’attaque, option par défaut"), tuple(values), "number"),
        OddsTable("d12.caps", "Borne atteinte\u00a0: chance qu’une égalité répétée se règle "
                  "au sort", ("D12-INIT-3", "D12-INIT-4", "D12-INIT-6"),
                  ("Jet répété", "Chance"), (
                      (f"Égalité parfaite à chaque relance ({CAP_CAMPS} camps d’un "
                       "combattant, même bonus)", (caps["relances"],)),
                      ("Égalité parfaite à chaque relance (un contre un, même bonus)",
                       (caps["relances_duel"],)),
                      ("Départage de deux combattants à égalité", (caps["departage"],))),
                  "rare"),
    ]


def _situation(value: int, params: Mapping[str, Any]
               ) -> tuple[dict[str, Any], Any, list[tuple[str, Fraction]], str]:
    """``escarmouche cotes --attaque-d12``: the JSON, the table, the bars, the title."""
    chances = {m: hit_odds(bonus=value, defence=params["contre"], mode=m) for m in Mode}
    data = {"situation": "attaque_d12", "bonus": value, "defense": params["contre"],
            "touche": {m.value: exact_json(p) for m, p in chances.items()},
            "modes": {m.value: MODE_LABELS[m] for m in Mode},
            "regles": ["D12-CRIT-1", "D12-CRIT-2", "D12-ADV-1"]}
    bars = [(f"touche, {MODE_LABELS[m]}", p) for m, p in chances.items()]
    against = params["contre"]
    title = f"Attaque d12, bonus {value} contre défense {against} (D12-CRIT-1)"
    return data, hit_odds_table(value, [params["contre"]]), bars, title


#: the standard roll of this system whose exact odds ``escarmouche cotes`` gives
SITUATIONS: tuple[Situation, ...] = (
    Situation("attaque-d12", "BONUS",
              "une attaque d12 de bonus BONUS (D12-CRIT-1)",
              _situation, (
    SituationParam("contre", "la défense visée par l’attaque d12", "DÉFENSE", required=True),
),
              example='--attaque-d12 3 --contre 12'),
)
