"""Exact initiative odds for the demos (pure, :class:`~fractions.Fraction` only).

The systems give each fighter's score law (a die plus a stat); what the demos add is
the chance of *acting first*, with each system's tie rules:

* individual initiative (d100, d20): higher score first; ties by a higher tie-break
  stat, then a fair roll-off (:func:`first_odds`);
* group initiative (d12): a group's results compared as descending lists, a perfect
  tie of two groups rerolls everyone (:func:`group_odds`).

Both are exact and polynomial in the roster size; :func:`group_odds` enumerates the
groups' joint results and refuses (``None``) beyond :data:`MAX_JOINT_STATES`, so that
a page never freezes in the browser.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["MAX_JOINT_STATES", "GroupOdds", "first_odds", "group_odds", "uniform"]

#: the largest joint enumeration :func:`group_odds` accepts (≈ 0.5 s in Pyodide)
MAX_JOINT_STATES = 150_000


def uniform(faces: int, plus: int = 0) -> dict[int, Fraction]:
    """The law of ``1dfaces + plus``."""
    return {v + plus: Fraction(1, faces) for v in range(1, faces + 1)}


def first_odds(entries: Sequence[tuple[str, int, Mapping[int, Fraction]]]
               ) -> dict[str, Fraction]:
    """``entries`` = ``(name, tie_break, score law)``: the exact chance that each fighter
    acts first (highest score; ties by higher ``tie_break``, then a fair roll-off)."""

    def below(dist: Mapping[int, Fraction], s: int, *, inclusive: bool) -> Fraction:
        return sum((p for v, p in dist.items() if v < s or (inclusive and v == s)),
                   Fraction(0))

    out: dict[str, Fraction] = {}
    for i, (name, key, dist) in enumerate(entries):
        total = Fraction(0)
        for s, p in dist.items():
            if not p:
                continue
            weight = p
            # polynomial in x: the same-key rivals still tied with i at s
            poly = [Fraction(1)]
            for j, (_, key_j, dist_j) in enumerate(entries):
                if j == i:
                    continue
                if key_j > key:
                    weight *= below(dist_j, s, inclusive=False)
                elif key_j < key:
                    weight *= below(dist_j, s, inclusive=True)
                else:
                    lose = below(dist_j, s, inclusive=False)
                    tie = dist_j.get(s, Fraction(0))
                    nxt = [Fraction(0)] * (len(poly) + 1)
                    for m, c in enumerate(poly):
                        nxt[m] += c * lose
                        nxt[m + 1] += c * tie
                    poly = nxt
                if not weight:
                    break
            if weight:
                total += weight * sum((c / (m + 1) for m, c in enumerate(poly)),
                                      Fraction(0))
        out[name] = total
    return out


def _group_states(bonuses: Sequence[int], faces: int) -> dict[tuple[int, ...], Fraction]:
    """The law of a group's results as a descending tuple (each member 1dfaces + bonus)."""
    states: dict[tuple[int, ...], Fraction] = {(): Fraction(1)}
    for b in bonuses:
        nxt: dict[tuple[int, ...], Fraction] = {}
        p = Fraction(1, faces)
        for state, q in states.items():
            for v in range(1, faces + 1):
                key = tuple(sorted((*state, v + b), reverse=True))
                nxt[key] = nxt.get(key, Fraction(0)) + q * p
        states = nxt
    return states


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
    given the rolls that stand (a perfect tie of two groups rerolls everyone, so the
    odds are conditioned on no perfect tie); ``reroll`` is the chance of one reroll.
    ``None`` when the joint enumeration would exceed :data:`MAX_JOINT_STATES`."""
    sides = list(groups)
    laws = [_group_states(groups[s], faces) for s in sides]
    size = 1
    for law in laws:
        size *= len(law)
    if size > MAX_JOINT_STATES:
        return None
    first = dict.fromkeys(sides, Fraction(0))
    before = dict.fromkeys(sides, Fraction(0))
    tie = Fraction(0)
    if len(sides) == 1:
        only = sides[0]
        first[only] = Fraction(1)
        before[only] = sum((p for t, p in laws[0].items() if t[0] >= environment_at),
                           Fraction(0))
        return GroupOdds(first, before, tie)
    if len(sides) == 2:
        # two groups: sorted CDFs instead of the product
        a, b = laws
        keys_b = sorted(b)
        cum = list(itertools.accumulate(b[k] for k in keys_b))
        win_a = Fraction(0)
        for t, p in a.items():
            i = bisect.bisect_left(keys_b, t)
            less = cum[i - 1] if i else Fraction(0)
            equal = b.get(t, Fraction(0))
            win_a += p * less
            tie += p * equal
        first[sides[0]] = win_a
        first[sides[1]] = 1 - win_a - tie
        for k, (s, law) in enumerate(zip(sides, laws, strict=True)):
            other = laws[1 - k]
            before[s] = sum(
                (p * (1 - other.get(t, Fraction(0)))
                 for t, p in law.items() if t[0] >= environment_at),
                Fraction(0),
            )
    else:
        items = [list(law.items()) for law in laws]
        for combo in itertools.product(*items):
            p = Fraction(1)
            for _, q in combo:
                p *= q
            tuples = [t for t, _ in combo]
            if len(set(tuples)) < len(tuples):
                tie += p
                continue
            top = max(range(len(sides)), key=lambda k: tuples[k])
            first[sides[top]] += p
            for k, t in enumerate(tuples):
                if t[0] >= environment_at:
                    before[sides[k]] += p
    keep = 1 - tie
    if keep == 0:
        return GroupOdds(first, before, tie)
    return GroupOdds(
        {s: v / keep for s, v in first.items()},
        {s: v / keep for s, v in before.items()},
        tie,
    )
