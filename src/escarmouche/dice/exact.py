"""Exact odds of a dice expression (CORE-DICE), with icepool.

:func:`distribution` computes the exact law of an expression with the same explosion
semantics as :func:`~escarmouche.dice.rolling.roll` (``icepool.Die.explode(depth=20)``:
at most 20 additional dice, the last one counted as it is), and caches the result. It
is guarded by a cost model (:func:`exact_cost`, :data:`MAX_EXACT_COST`,
:data:`MAX_POOL_OUTCOMES`): a computation that would be too long is refused with
« calcul exact trop coûteux ». :func:`mean`, :func:`minimum` and :func:`maximum` are
exact too, and cheap.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Final

from escarmouche.dice.expression import (
    MAX_EXPLODE_DEPTH,
    RULE,
    Constant,
    DiceTerm,
    Expression,
    Term,
    _error,
    _show,
)
from escarmouche.dice.notation import _parse_cached, parse
from escarmouche.dice.rolling import forget_rolls
from escarmouche.errors import HIDDEN, DiceError, invalid
from escarmouche.text.fmt import join, quote

__all__ = [
    "MAX_EXACT_COST",
    "MAX_POOL_OUTCOMES",
    "clear_caches",
    "distribution",
    "draw_law",
    "exact_cost",
    "maximum",
    "mean",
    "minimum",
    "probability",
]

MAX_EXACT_COST: Final = 5_000_000
"""Largest :func:`exact_cost` accepted by :func:`distribution` (≈ 1 s at most)."""
MAX_POOL_OUTCOMES: Final = 500
"""Keeping ``M`` of ``N`` dice with ``1 < M < N`` uses an icepool pool, whose
evaluation recurses once per outcome of a die: such a term is refused (« calcul exact
trop coûteux ») when one die has more outcomes than this (an exploding ``d20`` has
400, an exploding ``d30`` 610), far from Python's default recursion limit."""

# Weight of one outcome of an intermediate result, relative to one multiply-add of a
# convolution (building and sorting icepool's outcome tables); measured.
_SUPPORT_WEIGHT: Final = 8
# Weight of one unit of the pool (keep M of N, 1 < M < N) model; measured.
_POOL_WEIGHT: Final = 3
# Weight of each outcome of an exploding die when icepool builds it; measured.
_EXPLODE_BUILD_WEIGHT: Final = 100


def _die_shape(term: DiceTerm) -> tuple[int, int]:
    """(number of outcomes, max - min) of one die of the term, explosion included."""
    f = term.faces
    if term.explode:
        return (MAX_EXPLODE_DEPTH + 1) * (f - 1) + 1, (MAX_EXPLODE_DEPTH + 1) * f - 1
    return f, f - 1


def _term_cost(term: DiceTerm) -> tuple[int, int]:
    """(cost units, size of the value range) of computing one dice term alone."""
    k, r = _die_shape(term)
    n, m = term.count, term.kept
    # Building an exploding die costs about 100 units per outcome (measured).
    cost = k * (_EXPLODE_BUILD_WEIGHT if term.explode else 1)
    if m == n:
        # Sequential sum: adding die i+1 to the sum of i dice (i*r + 1 outcomes).
        pairs = k * (r * (n - 1) * n // 2 + (n - 1))
        support = r * ((n * (n + 1)) // 2 - 1) + (n - 1)
        return cost + pairs + _SUPPORT_WEIGHT * support, n * r + 1
    if m == 1:
        # Order statistic from the cumulative table: k integer powers of `bits` bits,
        # multiplied by Karatsuba (exponent log2(3)); constant measured.
        bits = n * term.faces.bit_length() * (MAX_EXPLODE_DEPTH + 1 if term.explode else 1)
        return cost + k * n + int(k * bits**1.585 / 15_000), r + 1
    if k > MAX_POOL_OUTCOMES:
        return MAX_EXACT_COST + 1, m * r + 1
    return cost + _POOL_WEIGHT * k * n * m * (m * r + 1), m * r + 1


def exact_cost(expr: str | Expression) -> int:
    """Estimated cost of :func:`distribution` for ``expr``, in units of about 0.2 µs.

    The model follows the computation: each die built, each addition of two
    distributions (product of their sizes plus the size of the result), each
    keep-``M``-of-``N``, and the final conversion to fractions (which grows with the
    square of the size of the common denominator). Above :data:`MAX_EXACT_COST` the
    exact computation is refused.
    """
    expression = parse(expr)
    cost = 0
    size = 0
    bits = 0
    for term in expression.dice_terms:
        term_cost, term_size = _term_cost(term)
        cost += term_cost
        bits += (
            term.count * term.faces.bit_length() * (MAX_EXPLODE_DEPTH + 1 if term.explode else 1)
        )
        if size:
            cost += size * term_size + _SUPPORT_WEIGHT * (size + term_size - 1)
            size += term_size - 1
        else:
            size = term_size
    # Each probability becomes a Fraction: a gcd with the common denominator, whose
    # cost grows with the square of its length in 64-bit words (measured).
    return cost + size * (2 + (bits // 64 + 1) ** 2 // 20)


def _check_cost(expression: Expression) -> None:
    cost = exact_cost(expression)
    if cost > MAX_EXACT_COST:
        pool_too_big = any(
            1 < t.kept < t.count and _die_shape(t)[0] > MAX_POOL_OUTCOMES
            for t in expression.dice_terms
        )
        detail = (
            f"garder une partie de dés ayant plus de {MAX_POOL_OUTCOMES} résultats possibles"
            if pool_too_big
            else f"coût estimé {_thousands(cost)} > limite {_thousands(MAX_EXACT_COST)}"
        )
        raise _error(
            f"« {_show(str(expression))} »",
            f"calcul exact trop coûteux ({detail}) ; réduisez le nombre de dés, de faces "
            "ou d'explosions, ou tirez les dés avec roll()",
            str(expression),
        )


def _thousands(n: int) -> str:
    return f"{n:,}".replace(",", "\u202f")


def _term_die(term: DiceTerm) -> Any:
    # icepool is imported on the first exact law asked for, not with the engine: a live
    # page whose first cells roll dice never waits for it (bench/README-browser.md).
    import icepool

    base = icepool.d(term.faces)
    if term.explode:
        # depth = extra draws; at the cap the last draw counts as it is ("end" = 0).
        base = base.explode(depth=MAX_EXPLODE_DEPTH)
    n, m = term.count, term.kept
    if m == n:
        die = base
        for _ in range(n - 1):  # iterative: icepool's `n @ die` recurses n times
            die = die + base
    elif term.keep is not None and term.keep[0] == "h":
        die = base.highest(n, m)
    else:
        die = base.lowest(n, m)
    return -die if term.sign < 0 else die


def _compute_distribution(expression: Expression) -> Mapping[int, Fraction]:
    """The exact distribution, uncached (the cost guard is applied)."""
    _check_cost(expression)
    offset = sum(t.value * t.sign for t in expression.terms if isinstance(t, Constant))
    acc: Any = None
    try:
        for term in expression.dice_terms:
            die = _term_die(term)
            acc = die if acc is None else acc + die
    except RecursionError:  # pragma: no cover - guarded by MAX_POOL_OUTCOMES
        raise _error(
            f"« {_show(str(expression))} »", "calcul exact trop coûteux (récursion trop profonde)"
        ) from None
    if acc is None:
        return MappingProxyType({offset: Fraction(1)})
    denominator = acc.denominator()
    table = {
        int(outcome) + offset: Fraction(quantity, denominator)
        for outcome, quantity in acc.items()
        if quantity
    }
    return MappingProxyType(dict(sorted(table.items())))


@functools.lru_cache(maxsize=128)
def _distribution_cached(expression: Expression) -> Mapping[int, Fraction]:
    return _compute_distribution(expression)


def distribution(expr: str | Expression) -> Mapping[int, Fraction]:
    """The exact probability of each total of ``expr`` (CORE-DICE).

    A read-only mapping ``total -> Fraction``, sorted by total, values summing to 1,
    only totals that can occur. Explosions follow :func:`roll` exactly
    (D12-EXPLODE-1). Cached per canonical expression; raises :class:`DiceError`
    « calcul exact trop coûteux » above :data:`MAX_EXACT_COST` (see :func:`exact_cost`).

    >>> dict(distribution("2d12kh1"))[12]
    Fraction(23, 144)
    """
    return _distribution_cached(parse(expr))


#: the most classes of draws one dice term's law with kept dice (``kh``/``kl``) may
#: enumerate (:func:`draw_law`: every combination of its dice's chains)
MAX_DRAW_COMBINATIONS: Final = 50_000


def _chain_law(term: DiceTerm) -> list[tuple[Fraction, int, tuple[int, ...]]]:
    """One die of ``term``: each value it can total, its chance, and the draws that
    make it (an exploding die: its maxima, then the draw that stops the chain, the
    last allowed draw kept as it is, D12-EXPLODE-1)."""
    f = term.faces
    one = Fraction(1, f)
    if not term.explode:
        return [(one, v, (v,)) for v in range(1, f + 1)]
    out: list[tuple[Fraction, int, tuple[int, ...]]] = []
    for k in range(MAX_EXPLODE_DEPTH + 1):
        last = range(1, f + 1) if k == MAX_EXPLODE_DEPTH else range(1, f)
        p = one ** (k + 1)
        out.extend((p, k * f + v, (f,) * k + (v,)) for v in last)
    return out


def _term_law(term: DiceTerm) -> dict[int, tuple[Fraction, tuple[int, ...]]]:
    """The law of a dice term's value (its sign applied), each value with its chance
    and one sequence of draws that gives it, in :func:`roll`'s draw order."""
    chain = _chain_law(term)
    if term.keep is None:
        acc: dict[int, tuple[Fraction, tuple[int, ...]]] = {0: (Fraction(1), ())}
        for _ in range(term.count):
            nxt: dict[int, tuple[Fraction, tuple[int, ...]]] = {}
            for total, (p, draws) in acc.items():
                for q, v, more in chain:
                    t = total + v
                    known = nxt.get(t)
                    nxt[t] = (p * q, draws + more) if known is None else \
                        (known[0] + p * q, known[1])
            acc = nxt
        return {term.sign * t: pd for t, pd in acc.items()}
    if len(chain) ** term.count > MAX_DRAW_COMBINATIONS:
        raise _error(str(term), "calcul exact trop coûteux : plus de "
                     f"{_thousands(MAX_DRAW_COMBINATIONS)} combinaisons de dés gardés",
                     term.count)
    kind, m = term.keep
    out: dict[int, tuple[Fraction, tuple[int, ...]]] = {}
    combos: list[tuple[Fraction, tuple[int, ...], tuple[int, ...]]] = [(Fraction(1), (), ())]
    for _ in range(term.count):
        combos = [(p * q, (*values, v), draws + more)
                  for p, values, draws in combos for q, v, more in chain]
    for p, values, draws in combos:
        kept = sorted(values, reverse=kind == "h")[:m]
        t = term.sign * sum(kept)
        known = out.get(t)
        out[t] = (p, draws) if known is None else (known[0] + p, known[1])
    return out


@functools.lru_cache(maxsize=128)
def _draw_law_cached(expression: Expression
                     ) -> tuple[tuple[Fraction, int, tuple[int, ...]], ...]:
    acc: dict[int, tuple[Fraction, tuple[int, ...]]] = {0: (Fraction(1), ())}
    for term in expression.terms:
        if isinstance(term, Constant):
            acc = {t + term.sign * term.value: pd for t, pd in acc.items()}
            continue
        law = _term_law(term)
        nxt: dict[int, tuple[Fraction, tuple[int, ...]]] = {}
        for total, (p, draws) in acc.items():
            for v, (q, more) in law.items():
                t = total + v
                known = nxt.get(t)
                nxt[t] = (p * q, draws + more) if known is None else \
                    (known[0] + p * q, known[1])
        acc = nxt
    return tuple((p, t, draws) for t, (p, draws) in sorted(acc.items()))


def draw_law(expr: str | Expression) -> tuple[tuple[Fraction, int, tuple[int, ...]], ...]:
    """The law of ``expr``'s total with, for each total, one sequence of draws that
    gives it: ``(chance, total, draws)`` by total, the chances summing to 1, and
    :func:`roll` on ``draws`` (scripted) totalling ``total`` (CORE-DICE, D12-EXPLODE-1).
    What a rules kernel hands the exact duel solver (``escarmouche.exact``): a hit's
    damage played once per total instead of once per sequence of dice. Cached per
    expression; a term keeping some of its dice is refused above
    :data:`MAX_DRAW_COMBINATIONS` combinations (« calcul exact trop coûteux »).

    >>> [(str(p), t, d) for p, t, d in draw_law("1d4+1")]
    [('1/4', 2, (1,)), ('1/4', 3, (2,)), ('1/4', 4, (3,)), ('1/4', 5, (4,))]
    >>> draw_law("1d2!")[:2]
    ((Fraction(1, 2), 1, (1,)), (Fraction(1, 4), 3, (2, 1)))
    """
    return _draw_law_cached(parse(expr))


def clear_caches() -> None:
    """Forget the cached parses, roll plans, rolls and distributions (for benchmarks and
    tests)."""
    _parse_cached.cache_clear()
    forget_rolls()
    _distribution_cached.cache_clear()
    _draw_law_cached.cache_clear()


def _die_mean(term: DiceTerm) -> Fraction:
    f = term.faces
    one = Fraction(f + 1, 2)
    if not term.explode:
        return one
    # Draw j+1 happens when the first j draws all showed the maximum (j <= the cap).
    return one * sum(Fraction(1, f**j) for j in range(MAX_EXPLODE_DEPTH + 1))


def mean(expr: str | Expression) -> Fraction:
    """The exact expected total (cheap: no distribution unless some dice are dropped)."""
    expression = parse(expr)
    total = Fraction(0)
    for term in expression.terms:
        if isinstance(term, Constant):
            total += term.sign * term.value
        elif term.kept == term.count:
            total += term.sign * term.count * _die_mean(term)
        else:
            alone = Expression((DiceTerm(term.count, term.faces, 1, term.explode, term.keep),))
            dist = distribution(alone)
            total += term.sign * sum((v * p for v, p in dist.items()), Fraction(0))
    return total


_OPERATORS: Final[dict[str, Callable[[int, int], bool]]] = {
    "<": operator.lt,
    "<=": operator.le,
    "≤": operator.le,
    "==": operator.eq,
    "=": operator.eq,
    "!=": operator.ne,
    "≠": operator.ne,
    ">=": operator.ge,
    "≥": operator.ge,
    ">": operator.gt,
}


#: how a refusal of ``probability`` names its ``condition`` (spec/RELECTURE.md: no Python in it)
CONDITION_LABEL: Final = "condition sur le total"
#: what a refusal of ``probability`` asks for instead
CONDITION_WANTED: Final = ("une comparaison suivie d’un nombre entier est attendue, par "
                           "exemple « >= » et 12")


def _condition_shown(condition: object) -> object:
    """The refused condition as a refusal shows it: a number or a text as it is, a
    container hidden (its repr would be Python, « » nested in « »)."""
    if isinstance(condition, str | int | float) and not isinstance(condition, bool):
        return condition
    return HIDDEN


def probability(
    expr: str | Expression, condition: Callable[[int], bool] | tuple[str, int]
) -> Fraction:
    """The exact probability that the total satisfies ``condition``.

    ``condition`` is a predicate on the total or a pair ``(op, value)`` with ``op``
    among ``<``, ``<=``, ``==``, ``!=``, ``>=``, ``>`` (also ``≤``, ``=``, ``≠``, ``≥``).

    >>> probability("1d12+3", (">=", 12))
    Fraction(1, 3)
    """
    if isinstance(condition, tuple):
        if len(condition) != 2 or isinstance(condition[1], bool) or not isinstance(
                condition[1], int) or not isinstance(condition[0], str):
            raise invalid("condition", HIDDEN, RULE, CONDITION_WANTED, kind=DiceError,
                          label=CONDITION_LABEL)
        op, value = condition
        if op not in _OPERATORS:
            raise invalid("comparaison", op, RULE, "comparaison inconnue, à choisir parmi "
                          f"{join([quote(o) for o in _OPERATORS], last='ou')}", kind=DiceError)
        compare = _OPERATORS[op]
        predicate: Callable[[int], bool] = lambda total: compare(total, value)  # noqa: E731
    elif callable(condition):
        predicate = condition
    else:
        raise invalid("condition", _condition_shown(condition), RULE,
                      "une fonction du total ou " + CONDITION_WANTED, kind=DiceError,
                      label=CONDITION_LABEL)
    return sum((p for total, p in distribution(expr).items() if predicate(total)), Fraction(0))


def _term_bounds(term: Term) -> tuple[int, int]:
    if isinstance(term, Constant):
        v = term.sign * term.value
        return v, v
    top = term.faces * (MAX_EXPLODE_DEPTH + 1 if term.explode else 1)
    low, high = term.kept, term.kept * top
    return (low, high) if term.sign > 0 else (-high, -low)


def minimum(expr: str | Expression) -> int:
    """The smallest possible total."""
    return sum(_term_bounds(t)[0] for t in parse(expr).terms)


def maximum(expr: str | Expression) -> int:
    """The largest possible total; an exploding die reaches at most the cap
    (``faces * (1 + MAX_EXPLODE_DEPTH)``)."""
    return sum(_term_bounds(t)[1] for t in parse(expr).terms)
