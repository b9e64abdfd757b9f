"""How sure a simulated answer is: intervals of a win rate or of a difference of win
rates, a run that stops at the precision asked, and the one French sentence that says it.

A designer asks « is my variant better, and by how much? ». Played on the same dice
(fight ``i`` of both rule sets draws from the same streams), the two rule sets give
*paired* fights: per fight and per side, ``D = [B won] − [A won]`` is −1, 0 or 1, and
``D`` varies far less than two independent win rates do whenever the change alters a
minority of fights. Everything here is computed from three exact counts: ``n`` fights,
``a_only`` (A won and B did not) and ``b_only`` (the reverse), so that ``ΣD = b_only −
a_only`` and ``ΣD² = a_only + b_only``.

Two kinds of interval, both at 95 %:

* **a fixed number of fights** (``--combats``): the Wald interval of the mean of ``D``
  (:func:`wald_half`), exact in its arithmetic (``tests/test_precision.py`` checks a case
  computed by hand), the one :meth:`Comparison.difference` has always given;
* **stopping at a precision** (``--precision``, the default): the run checks its
  interval after every :data:`BATCH` fights and stops as soon as its half-width is at
  most the precision asked. Checking as it goes would make a fixed-n interval lie (one
  stops on a lucky narrow moment), so the interval then is an **always-valid confidence
  sequence** (:func:`sequence_half`): Robbins' normal mixture boundary, in the form of
  the asymptotic confidence sequences of Waudby-Smith, Arbour, Sinha, Kennedy and
  Ramdas (2021, « Time-uniform central limit theory and asymptotic confidence
  sequences »; the boundary is Howard, Ramdas, McAuliffe and Sekhon, 2021, eq. 14):

      half(n) = σ̂ · √( 2 (nρ² + 1) / (n² ρ²) · ln( √(nρ² + 1) / α ) )

  which covers the true difference at *every* n at once with probability ≥ 95 %
  (asymptotically; checked by simulation in ``tests/test_precision.py``), so stopping
  whenever it is narrow enough, or when « Arrêter » is pressed, stays honest. ``ρ`` is
  fixed before the run from the precision asked (:func:`tuned_for`), never from the
  data. Why this one rather than a pilot run that fixes n: it lets the page stop at
  any batch (« Arrêter ») with an honest interval, needs no second phase, and its cost,
  about 2,4 times the fights of a fixed-n interval of the same width at the time it is
  tuned for, is small next to what pairing saves (5 to 15 times). Why not a betting
  confidence sequence: tighter for tiny n, but it needs a numeric search per check and
  per side, where this one is a closed formula (the same in Pyodide).

``σ̂²`` is the sample variance of ``D`` with a floor of ``1/n``: a change that altered no
fight yet is not declared exact to the last decimal (with no discordant fight among
``n``, the difference is still only known to about ``3/n``).

:func:`difference_sentence` writes the headline every face shows (the command line,
the Atelier, the balance widget, the edition pages): « Avec la variante, « héros »
gagne 4,1 points de plus (± 1,2). »

>>> round(wald_half(20, 3, 7), 4)  # n = 20: 3 fights only A won, 7 only B won
0.2972
>>> sequence_half(3_000, 0.1, tuned_for(0.02)) > wald_half(3_000, 150, 150)
True
>>> print(difference_sentence([("héros", 0.041, 0.012)], "la variante"))
Avec la variante, « héros » gagne 4,1 points de plus (± 1,2).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from escarmouche import _check
from escarmouche.simulation.balance import Z95
from escarmouche.text.fmt import fixed, number, percent
from escarmouche.text.typo import typographie

__all__ = ["BATCH", "DEFAULT_PRECISION", "MAX_PRECISION_FIGHTS", "PRECISIONS", "changed_sentence",
           "check_precision", "difference_sentence", "independent_half", "points",
           "sequence_half", "tuned_for", "wald_half"]

#: fights played between two looks at the interval when stopping at a precision: the
#: stopping point is a multiple of it, whatever the number of processes or workers
BATCH = 500
#: the precision asked by default: ± 2 points (half-width of the 95 % interval)
DEFAULT_PRECISION = 0.02
#: the precisions a page offers, in points
PRECISIONS = (1, 2, 5)
#: the most fights a run stopping at a precision plays when no cap is given
MAX_PRECISION_FIGHTS = 200_000
#: the error rate of every interval (95 %)
ALPHA = 0.05
#: the variance of ``D`` the confidence sequence is tuned for: a change that alters the
#: winner of about 15 % of fights (the README duel: CC 40 → 45 alters 12 %, B 11 → 12
#: alters 4 %, a new weapon 20 to 30 %)
TUNING_VARIANCE = 0.15


def check_precision(value: object) -> float:
    """A precision in points (``2`` for « ± 2 points ») as a rate (``0.02``), checked:
    between 0,1 and 25 points (CORE-ERR)."""
    given = _check.real("précision", value, lo=0.1, hi=25, rule="CORE-ERR")
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


def tuned_for(precision: float) -> float:
    """The ``ρ²`` of the confidence sequence, fixed before the run from the precision
    asked: narrowest near the n at which a change of variance :data:`TUNING_VARIANCE`
    would reach it (Howard et al. 2021, eq. 15: ``ρ² = (−2 ln α + ln(1 − 2 ln α)) /
    t*``)."""
    log_term = -2 * math.log(ALPHA)
    t_star = max(float(BATCH), 2.4 * Z95 * Z95 * TUNING_VARIANCE / (precision * precision))
    return (log_term + math.log(1 + log_term)) / t_star


def sequence_half(n: int, variance: float, rho2: float) -> float:
    """Half-width at ``n`` of the always-valid 95 % confidence sequence of a mean whose
    sample variance is ``variance`` (floored at ``1/n``): valid at every n at once, so
    a run may stop whenever it is narrow enough."""
    if n <= 1:
        return 1.0
    var = max(variance, 1 / n)
    tr = n * rho2 + 1
    return math.sqrt(var) * math.sqrt(2 * tr / (n * n * rho2) * math.log(math.sqrt(tr) / ALPHA))


def paired_sequence_half(n: int, a_only: int, b_only: int, rho2: float) -> float:
    """:func:`sequence_half` of the paired difference of ``n`` fights."""
    return sequence_half(n, _variance(n, a_only, b_only), rho2) if n > 1 else 1.0


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
