"""Exact initiative odds for the demos (pure, :class:`~fractions.Fraction` only).

The systems give each fighter's score law (a die plus a stat); what the demos add is
the chance of *acting first*, with each system's tie rules:

* individual initiative (d100, d20): higher score first; ties by a higher tie-break
  stat, then a fair roll-off (:func:`first_odds`);
* group initiative (d12): a group's results compared as descending lists, a perfect
  tie of two groups rerolls everyone (:func:`group_odds`).

Both are exact (:class:`~fractions.Fraction`; integer counts inside :func:`group_odds`)
and never enumerate the joint rolls of the whole roster, so that a page never freezes
in the browser.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from escarmouche.odds import first_odds, uniform

__all__ = ["MAX_GROUPS", "GroupOdds", "first_odds", "group_odds", "uniform"]

#: the most groups :func:`group_odds` handles (inclusion–exclusion over Bell(n) set
#: partitions: 52 for 5 groups)
MAX_GROUPS = 5


def _group_states(bonuses: Sequence[int], faces: int) -> dict[tuple[int, ...], int]:
    """How many of the ``faces ** len(bonuses)`` rolls give each descending tuple of
    results (each member 1dfaces + its bonus). Integer counts: exact and fast."""
    states: dict[tuple[int, ...], int] = {(): 1}
    for b in bonuses:
        nxt: dict[tuple[int, ...], int] = {}
        for state, n in states.items():
            for v in range(1 + b, faces + 1 + b):
                i = 0
                while i < len(state) and state[i] >= v:
                    i += 1
                key = (*state[:i], v, *state[i:])
                nxt[key] = nxt.get(key, 0) + n
        states = nxt
    return states


def _partitions(items: list[int]) -> list[list[list[int]]]:
    """Every set partition of ``items`` (Bell(len) of them)."""
    if not items:
        return [[]]
    first, rest = items[0], items[1:]
    out: list[list[list[int]]] = []
    for part in _partitions(rest):
        out.append([[first], *part])
        for i in range(len(part)):
            out.append([*part[:i], [first, *part[i]], *part[i + 1:]])
    return out


def _mobius(partition: list[list[int]]) -> int:
    """The Möbius function of the partition lattice: Π (−1)^(|B|−1) (|B|−1)!."""
    out = 1
    for block in partition:
        k = len(block)
        out *= (-1) ** (k - 1) * math.factorial(k - 1)
    return out


@dataclass(frozen=True, slots=True)
class GroupOdds:
    """Exact group-initiative odds, conditioned on no perfect tie (ties reroll)."""

    first: dict[str, Fraction]
    before_environment: dict[str, Fraction]
    reroll: Fraction


def group_odds(groups: Mapping[str, Sequence[int]], *, faces: int = 12,
               environment_at: int = 12) -> GroupOdds | None:
    """``groups`` = side → its members' bonuses. The chance that each group acts first,
    and that it acts before the environment (a value of at least ``environment_at``),
    given the rolls that stand: a perfect tie of two groups rerolls everyone, so the odds
    are conditioned on no perfect tie; ``reroll`` is the chance of one reroll.

    Exact, without enumerating the joint rolls: the chance that the groups' results are
    pairwise distinct is an inclusion–exclusion over the set partitions of the groups
    (Möbius function of the partition lattice), with prefix sums over the results sorted
    in the order of D12-INIT-3. ``None`` beyond :data:`MAX_GROUPS` groups."""
    sides = list(groups)
    if len(sides) > MAX_GROUPS:
        return None
    laws = [_group_states(groups[s], faces) for s in sides]
    totals = [faces ** len(groups[s]) for s in sides]
    keys = sorted({t for law in laws for t in law})
    index = {t: i for i, t in enumerate(keys)}
    g_all = list(range(len(sides)))

    @functools.cache
    def prefix(block: tuple[int, ...]) -> list[int]:
        """prefix[i] = Σ over results u < keys[i] of Π_{h in block} count_h(u)."""
        out = [0]
        acc = 0
        for t in keys:
            prod = 1
            for h in block:
                prod *= laws[h].get(t, 0)
                if not prod:
                    break
            acc += prod
            out.append(acc)
        return out

    def distinct_weight(members: list[int], below: int | None) -> int:
        """Σ over the rolls of ``members`` with every result < keys[below] (all when
        ``None``) and pairwise distinct, counted with integer weights."""
        total = 0
        for part in _partitions(members):
            term = _mobius(part)
            for block in part:
                term *= prefix(tuple(block))[len(keys) if below is None else below]
                if not term:
                    break
            total += term
        return total

    everyone = distinct_weight(g_all, None)
    weight = 1
    for t in totals:
        weight *= t
    reroll = 1 - Fraction(everyone, weight)
    first: dict[str, Fraction] = {}
    before: dict[str, Fraction] = {}
    for g, side in enumerate(sides):
        others = [h for h in g_all if h != g]
        wins = 0
        early = 0
        for t, n in laws[g].items():
            wins += n * distinct_weight(others, index[t])
            if t and t[0] >= environment_at:
                # g shows t: the others pairwise distinct and none equal to t
                total = 0
                for part in _partitions(g_all):
                    term = _mobius(part)
                    for block in part:
                        if g in block:
                            for h in block:
                                if h != g:
                                    term *= laws[h].get(t, 0)
                        else:
                            term *= prefix(tuple(block))[len(keys)]
                        if not term:
                            break
                    total += term
                early += n * total
        first[side] = Fraction(wins, everyone) if everyone else Fraction(0)
        before[side] = Fraction(early, everyone) if everyone else Fraction(0)
    return GroupOdds(first, before, reroll)
