"""Transformations of a dice expression (spec/STYLE.md lesson 6): pure, returning new values.

Advantage and disadvantage (D12-ADV-1) and the two critical options of D12-CRIT-2
(:func:`max_dice_total`, :func:`add_exploding_die`).
"""

from __future__ import annotations

from escarmouche.dice.expression import Constant, DiceTerm, Expression, Term, _error
from escarmouche.dice.notation import parse

__all__ = ["add_exploding_die", "max_dice_total", "with_advantage", "with_disadvantage"]


def _first_dice_index(expression: Expression, what: str) -> int:
    for i, term in enumerate(expression.terms):
        if isinstance(term, DiceTerm):
            return i
    raise _error(f"« {expression} »", f"{what} : l'expression n'a aucun dé", str(expression))


def _replace_term(expression: Expression, index: int, term: Term) -> Expression:
    terms = list(expression.terms)
    terms[index] = term
    return Expression(tuple(terms))


def _with_keep_one(expr: str | Expression, kind: str, what: str) -> Expression:
    expression = parse(expr)
    i = _first_dice_index(expression, what)
    t = expression.terms[i]
    assert isinstance(t, DiceTerm)
    other = "l" if kind == "h" else "h"
    if t.count == 1 and t.keep is None:
        new = DiceTerm(2, t.faces, t.sign, t.explode, (kind, 1))
    elif t.count == 2 and t.keep == (other, 1):
        new = DiceTerm(1, t.faces, t.sign, t.explode, None)  # they cancel (D12-ADV-1)
    elif t.count == 2 and t.keep == (kind, 1):
        return expression  # does not stack
    else:
        raise _error(
            f"« {expression} »",
            f"{what} s'applique à un seul dé (« 1dX »), pas à « {t} » (D12-ADV-1)",
            str(expression),
        )
    return _replace_term(expression, i, new)


def with_advantage(expr: str | Expression) -> Expression:
    """Advantage (D12-ADV-1): the first dice term ``1dX`` becomes ``2dXkh1``.

    Applied to ``2dXkl1`` (disadvantage) it gives back ``1dX`` (they cancel); applied
    to ``2dXkh1`` it changes nothing (advantage does not stack). Any other first dice
    term raises :class:`DiceError`.

    >>> str(with_advantage("1d12+3"))
    '2d12kh1+3'
    """
    return _with_keep_one(expr, "h", "l'avantage")


def with_disadvantage(expr: str | Expression) -> Expression:
    """Disadvantage (D12-ADV-1): the first dice term ``1dX`` becomes ``2dXkl1``.

    The mirror of :func:`with_advantage` (``2dXkh1`` gives back ``1dX``).
    """
    return _with_keep_one(expr, "l", "le désavantage")


def max_dice_total(expr: str | Expression) -> int:
    """The total when every die shows its maximum, without explosion (D12-CRIT-2 (a)).

    Only the dice that count are summed (``kh``/``kl`` keep ``M`` dice); negative terms
    subtract their maximum. ``max_dice_total("1d8+2") == 10``.
    """
    total = 0
    for term in parse(expr).terms:
        if isinstance(term, Constant):
            total += term.sign * term.value
        else:
            total += term.sign * term.kept * term.faces
    return total


def add_exploding_die(expr: str | Expression) -> Expression:
    """D12-CRIT-2 (b): one more die in the first dice term, and every dice term explodes.

    ``1d8+2`` → ``2d8!+2``; ``1d6+1d4`` → ``2d6!+1d4!``. A ``kh``/``kl`` keeps its
    number of dice. Raises :class:`DiceError` without dice, or if a ``d1`` would have
    to explode, or beyond :data:`MAX_DICE`.
    """
    expression = parse(expr)
    first = _first_dice_index(expression, "le dé supplémentaire explosif")
    terms: list[Term] = []
    for i, t in enumerate(expression.terms):
        if isinstance(t, DiceTerm):
            count = t.count + 1 if i == first else t.count
            t = DiceTerm(count, t.faces, t.sign, True, t.keep)
        terms.append(t)
    return Expression(tuple(terms))
