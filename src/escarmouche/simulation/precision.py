"""How sure a simulated answer is: intervals of a win rate or of a difference of win
rates, a run that stops at the precision asked, and the one French sentence that says it.

A designer asks « is my variant better, and by how much? ». Played on the same dice
(fight ``i`` of both rule sets draws from the same streams), the two rule sets give
*paired* fights: per fight and per side, ``D = [B won] − [A won]`` is −1, 0 or 1, and
``D`` varies far less than two independent win rates do whenever the change alters a
minority of fights. Everything here is computed from three exact counts: ``n`` fights,
``a_only`` (A won and B did not) and ``b_only`` (the reverse), so that ``ΣD = b_only −
a_only`` and ``ΣD² = a_only + b_only``.

Both ways of running give a 95 % Wald interval of the mean of ``D``
(:func:`wald_half`; ``tests/rules/core/test_precision.py`` checks it on a case computed by hand,
and it is the one :meth:`Comparison.difference` has always given):

* **a fixed number of fights** (``--combats``): played in full;
* **stopping at a precision** (``--precision``, ± 2 points by default): the run plays a
  pilot of :data:`PILOT` fights, then looks after every :data:`BATCH` fights and stops
  at the first look where a *conservative* interval, one whose variance is the upper
  95 % bound of the variance measured so far (:func:`conservative_variance`), is at
  most the precision asked; the interval reported is then the plain Wald interval of
  all the fights played, which is narrower still. The stopping rule looks at the
  *spread* of the differences, never at their mean: this is the Chow–Robbins
  fixed-width sequential interval (Chow and Robbins, 1965, « On the asymptotic theory
  of fixed-width sequential confidence intervals for the mean »), a pilot run that
  fixes n and fixes it again as the variance becomes better known. Its coverage stays
  at 95 % (checked by simulation in ``tests/rules/core/test_precision.py``), because stopping
  depends only on the variance, which says nothing about which way the difference
  goes. Stopping when the *difference* looks established, or when a plain interval
  first looks narrow enough, would not be honest; this rule does neither.

  Why not an always-valid confidence sequence (Robbins' normal mixture; Howard et al.
  2021)? It was tried first (see ``bench/README.md``): it holds at every n at once,
  which this use does not need, and pays for it with about 2,4 times the fights of a
  fixed-n interval of the same width; on the d20 skirmish (a change that alters 21 %
  of fights) the designer's answer then took 5 000 fights per rule set instead of
  2 500, four times fewer than today's 20 000 instead of eight. The pilot run keeps
  the price of stopping small (the variance's upper bound, +8 % of fights at the
  pilot's size).

``s²`` has a floor of ``1/n``: a change that altered no fight yet is not declared
exact to the last decimal (with no discordant fight among ``n``, the difference is
still only known to about ``2/n``).

:func:`difference_sentence` writes the headline every face shows (the command line,
the Atelier, the balance widget, the edition pages): « Avec la variante, « héros »
gagne 4,1 points de plus (± 1,2). »

>>> round(wald_half(20, 3, 7), 4)  # n = 20: 3 fights only A won, 7 only B won
0.2972
>>> conservative_variance(1_000, 0.1) > 0.1
True
>>> print(difference_sentence([("héros", 0.041, 0.012)], "la variante"))
Avec la variante, « héros » gagne 4,1 points de plus (± 1,2).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from escarmouche import checks
from escarmouche.simulation.balance import Z95
from escarmouche.text.fmt import fixed, number, percent
from escarmouche.text.typo import typographie

if TYPE_CHECKING:
    from escarmouche.exact import ExactDuel

__all__ = [
    "BATCH",
    "DEFAULT_PRECISION",
    "EXACT_ZERO",
    "MAX_PRECISION_FIGHTS",
    "PILOT",
    "PRECISIONS",
    "changed_sentence",
    "check_precision",
    "conservative_variance",
    "difference_sentence",
    "exact_difference_sentence",
    "exact_differences",
    "independent_half",
    "points",
    "precise_enough",
    "signed_points",
    "wald_half",
]

#: fights played between two looks at the interval when stopping at a precision: the
#: stopping point is a multiple of it, whatever the number of processes or workers
BATCH = 500
#: the precision asked by default: ± 2 points (half-width of the 95 % interval)
DEFAULT_PRECISION = 0.02
#: the precisions a page offers, in points
PRECISIONS = (1, 2, 5)
#: the most fights a run stopping at a precision plays when no cap is given
MAX_PRECISION_FIGHTS = 200_000
#: fights played before the first look, when stopping at a precision (two batches)
PILOT = 2 * BATCH
#: an exact difference smaller than this is none: the floats of a solve
#: (``duel(..., exact=False)``) are within about 10⁻¹² of the fractions
EXACT_ZERO = 1e-9
#: the z of the one-sided 95 % upper bound of a variance (Wilson–Hilferty)
_Z_UPPER = 1.6448536269514722


def check_precision(value: object) -> float:
    """A precision in points (``2`` for « ± 2 points ») as a rate (``0.02``), checked:
    between 0,1 and 25 points (CORE-ERR)."""
    given = checks.real("précision", value, lo=0.1, hi=25, rule="CORE-ERR")
    return float(given) / 100


def _variance(n: int, a_only: int, b_only: int) -> float:
    mean = (b_only - a_only) / n
    return max(0.0, (a_only + b_only) / n - mean * mean)


def wald_half(n: int, a_only: int, b_only: int) -> float:
    """Half-width of the 95 % Wald interval of a paired difference over a fixed ``n``:
    ``z·√(s²/n)``, ``s²`` the variance of ``D`` (``(a_only + b_only)/n − d̄²``)."""
    if n <= 1:
        return 1.0
    return Z95 * math.sqrt(_variance(n, a_only, b_only) / n)


def independent_half(n: int, wins_a: int, wins_b: int) -> float:
    """Half-width of the 95 % interval of a difference of two win rates measured on
    ``n`` fights each, *not* paired: ``z·√(p_A(1−p_A)/n + p_B(1−p_B)/n)``."""
    if n <= 1:
        return 1.0
    pa, pb = wins_a / n, wins_b / n
    return Z95 * math.sqrt((pa * (1 - pa) + pb * (1 - pb)) / n)


def conservative_variance(n: int, variance: float) -> float:
    """An upper 95 % bound of the variance of ``D`` from ``n`` fights whose sample
    variance is ``variance`` (floored at ``1/n``): ``s²·(n − 1)/χ²₀.₀₅(n − 1)``, the
    chi-square quantile by Wilson and Hilferty's approximation. At 1 000 fights, +8 %.
    """
    var = max(variance, 1 / max(n, 1))
    k = max(n - 1, 1)
    c = 2 / (9 * k)
    chi2 = k * (1 - c - _Z_UPPER * math.sqrt(c)) ** 3
    return var * k / chi2 if chi2 > 0 else 1.0


def precise_enough(n: int, variance: float, precision: float) -> bool:
    """The stopping rule of a run at ``precision``: at least :data:`PILOT` fights, and a
    95 % interval of ``D`` with the :func:`conservative_variance` at most ``precision``
    wide on each side (Chow–Robbins: it looks at the spread, never at the mean)."""
    return n >= PILOT and Z95 * math.sqrt(conservative_variance(n, variance) / n) <= precision


def points(rate: float, digits: int = 1) -> str:
    """A difference of rates in points, French: « 4,1 points », « 0,8 point »."""
    value = round(abs(rate) * 100, digits)
    return f"{fixed(value, digits)} {'points' if value >= 2 else 'point'}"


def _clause(side: str, diff: float, half: float, first: bool) -> str:
    verb = "gagne " if first else ""
    margin = f"(± {fixed(round(half * 100, 1), 1)})"
    if round(diff * 100, 1) == 0:
        what = f"{verb}autant" if first else "autant"
    else:
        what = f"{verb}{points(diff)} de {'plus' if diff > 0 else 'moins'}"
    unsure = "" if abs(diff) > half else ", écart non établi"
    return f"« {side} » {what} {margin}{unsure}"


def difference_sentence(diffs: Sequence[tuple[str, float, float]], variant: str) -> str:
    """The headline of a comparison, in French: per side ``(side, B − A, half-width of
    its 95 % interval)``, what the variant ``variant`` (« la variante », « B », « vos
    changements ») changes, in points; a difference whose interval holds 0 is said « non
    établi ». One function for every face.

    >>> print(difference_sentence([("héros", -0.004, 0.012), ("orques", 0.0, 0.003)],
    ...                           "B"))  # doctest: +NORMALIZE_WHITESPACE
    Avec B, « héros » gagne 0,4 point de moins (± 1,2), écart non établi, et
    « orques » autant (± 0,3), écart non établi.
    """
    clauses = [_clause(side, d, h, k == 0) for k, (side, d, h) in enumerate(diffs)]
    body = clauses[-1]
    if len(clauses) > 1:  # « …, écart non établi, et … » reads better with its comma
        glue = ", et " if clauses[-2].endswith("non établi") else " et "
        body = ", ".join(clauses[:-1]) + glue + clauses[-1]
    return typographie(f"Avec {variant}, {body}.")


def signed_points(rate: float, digits: int = 1) -> str:
    """A difference of rates in points with its sign, for a table's cell: « +4,1 »,
    « −0,8 », « 0,0 » (no sign only when there is no difference at all).

    >>> signed_points(0.041), signed_points(-0.008), signed_points(0.0)
    ('+4,1', '−0,8', '0,0')
    """
    sign = "" if abs(rate) < EXACT_ZERO else "+" if rate > 0 else "−"
    return f"{sign}{fixed(round(abs(rate) * 100, digits), digits)}"


def _exact_clause(side: str, diff: float, first: bool) -> str:
    verb = "gagne " if first else ""
    way = "plus" if diff > 0 else "moins"
    if abs(diff) < EXACT_ZERO:
        what = f"{verb}autant"
    elif round(abs(diff) * 100, 1) == 0:  # not nothing, but under what one decimal says
        what = f"{verb}moins de 0,1 point de {way}"
    else:
        what = f"{verb}{points(diff)} de {way}"
    return f"« {side} » {what}"


def exact_difference_sentence(diffs: Sequence[tuple[str, float]], variant: str) -> str:
    """The headline of two duels solved exactly (:func:`escarmouche.exact.duel`), in
    French: per side ``(side, B − A)``, what the variant ``variant`` changes, in points,
    as :func:`difference_sentence` says a sampled one, with « calcul exact » in place of
    the intervals (there is no sampling error to give). A difference under 0,1 point is
    said so, never rounded to « autant », which is kept for none at all.

    >>> print(exact_difference_sentence([("héros", 0.0412), ("orques", -0.0412)],
    ...                                 "vos changements"))  # doctest: +NORMALIZE_WHITESPACE
    Avec vos changements, « héros » gagne 4,1 points de plus et « orques » 4,1 points
    de moins (calcul exact).
    >>> print(exact_difference_sentence([("héros", 0.0), ("orques", 0.0004)], "B"))
    Avec B, « héros » gagne autant et « orques » moins de 0,1 point de plus (calcul exact).
    """
    clauses = [_exact_clause(side, d, k == 0) for k, (side, d) in enumerate(diffs)]
    body = clauses[-1]
    if len(clauses) > 1:
        body = ", ".join(clauses[:-1]) + " et " + clauses[-1]
    return typographie(f"Avec {variant}, {body} (calcul exact).")


def exact_differences(base: ExactDuel, variant: ExactDuel) -> list[tuple[str, float]]:
    """Per side of ``base``, the variant's exact chance of winning minus the base's (two
    :class:`escarmouche.exact.ExactDuel` of the same roster under two rule sets), as
    floats: what :func:`exact_difference_sentence` reads."""
    return [(side, float(variant.wins.get(side, 0)) - float(base.wins[side]))
            for side in base.sides]


def changed_sentence(changed: int, n: int) -> str:
    """How many paired fights changed winner: « 412 combats sur 3 000 (13,7 %) ont
    changé de vainqueur. »

    >>> print(changed_sentence(0, 500))
    Aucun des 500 combats n’a changé de vainqueur.
    >>> print(changed_sentence(1, 500))
    1 combat sur 500 (0,2 %) a changé de vainqueur.
    """
    if changed == 0:
        return typographie(f"Aucun des {number(n)} combats n’a changé de vainqueur.")
    verb = "a" if changed < 2 else "ont"
    noun = "combat" if changed < 2 else "combats"
    return typographie(f"{number(changed)} {noun} sur {number(n)} ({percent(changed / n)}) "
                       f"{verb} changé de vainqueur.")
