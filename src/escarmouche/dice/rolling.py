"""Rolling a dice expression (CORE-RNG): :func:`roll` and its result.

Every die is drawn with ``rng.randint(1, faces)``, in a documented order (terms from
left to right, the dice of a term in order, each exploding die's extra draws right
after it); a ``random.Random`` seeded at the edge or a :class:`ScriptedRolls` can be
passed. The :class:`Roll` keeps every die, dropped ones included, and reads as the
French summary a GM sees.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from escarmouche.dice.expression import MAX_EXPLODE_DEPTH, Constant, Expression, Term
from escarmouche.dice.notation import parse
from escarmouche.errors import DiceError, invalid
from escarmouche.memo import Memo
from escarmouche.model import DieRecord
from escarmouche.rng import Rng, ScriptedRolls

__all__ = ["DieRoll", "Rng", "Roll", "ScriptedRolls", "TermRoll", "roll"]


@dataclass(frozen=True, slots=True)
class DieRoll:
    """One die of a roll: its faces, its explosion chain of draws, kept or dropped.

    ``draws`` has one value for a die that did not explode; an exploding die that
    showed its maximum has the whole chain (``(8, 8, 3)`` reads ``8!+8!+3``).
    """

    faces: int
    draws: tuple[int, ...]
    kept: bool = True

    @property
    def value(self) -> int:
        """The die's value: the sum of its explosion chain."""
        return sum(self.draws)

    @property
    def capped(self) -> bool:
        """Whether the explosion stopped at :data:`MAX_EXPLODE_DEPTH` (D12-EXPLODE-1)."""
        return len(self.draws) > MAX_EXPLODE_DEPTH and self.draws[-1] == self.faces

    def __str__(self) -> str:
        text = "+".join([f"{v}!" for v in self.draws[:-1]] + [str(self.draws[-1])])
        return text if self.kept else f"({text})"


@dataclass(frozen=True, slots=True)
class TermRoll:
    """The result of one term: its dice (none for a constant) and its signed total."""

    term: Term
    dice: tuple[DieRoll, ...]
    total: int

    def __str__(self) -> str:
        if isinstance(self.term, Constant):
            return str(self.term.value)
        return "[" + ", ".join(str(d) for d in self.dice) + "]"


@dataclass(frozen=True, slots=True)
class Roll:
    """A rolled expression: the total and every die (kept, dropped, exploded).

    ``str(roll)`` is the French summary a GM reads, e.g. ``2d12kh1 : [7, (3)] = 7``
    (dropped dice in parentheses, explosion chains as ``8!+8!+3``).
    """

    expression: Expression
    terms: tuple[TermRoll, ...]
    total: int

    @property
    def dice(self) -> tuple[DieRoll, ...]:
        """Every die of every dice term, in draw order."""
        return tuple([d for t in self.terms for d in t.dice])

    @property
    def draws(self) -> tuple[tuple[int, int], ...]:
        """Every draw as ``(faces, value)``, in draw order (explosions included)."""
        return tuple([(d.faces, v) for t in self.terms for d in t.dice for v in d.draws])

    def records(self, purpose: str = "") -> tuple[DieRecord, ...]:
        """The draws as :class:`~escarmouche.model.DieRecord` for the event log."""
        return tuple(DieRecord(f, v, purpose) for f, v in self.draws)

    def __str__(self) -> str:
        parts: list[str] = []
        for i, term_roll in enumerate(self.terms):
            if term_roll.term.sign < 0:  # the true minus sign in shown arithmetic
                parts.append("\u2212" if i == 0 else " \u2212 ")
            elif i:
                parts.append(" + ")
            parts.append(str(term_roll))
        total = f"\u2212{-self.total}" if self.total < 0 else str(self.total)
        return f"{self.expression} : {''.join(parts)} = {total}"


def roll(expr: str | Expression, rng: Rng) -> Roll:
    """Roll an expression with ``rng`` (CORE-RNG): every die is ``rng.randint(1, faces)``.

    Draw order: terms left to right, the dice of a term in order, each exploding
    die's extra draws right after it. A die of an exploding term showing its maximum
    is drawn again and added, at most :data:`MAX_EXPLODE_DEPTH` extra times; the last
    allowed draw is kept as it is (D12-EXPLODE-1). ``kh``/``kl`` keep the highest /
    lowest die values; among equal values the earlier dice are kept.

    An expression is worked out once (parsed, its dice listed); the roll of an
    expression with few possible draws (no exploding term, at most
    :data:`_MEMO_OUTCOMES` sets of values: ``1d12``, ``2d12kh1``, ``1d8+2``…) is the same
    frozen :class:`Roll` for the same draws, built once (automated play rolls the same
    few expressions again and again).

    >>> str(roll("2d12kh1", ScriptedRolls([3, 7])))
    '2d12kh1 : [(3), 7] = 7'
    >>> roll("1d8!+2", ScriptedRolls([8, 8, 3])).total
    21
    """
    plan = _text_plan(expr) if type(expr) is str else _plan(parse(expr))
    randint = getattr(rng, "randint", None)
    if randint is None:
        raise invalid("rng", rng, "CORE-RNG", "un générateur ayant randint(a, b) est attendu, "
                      "par exemple random.Random(graine) ou ScriptedRolls([...])",
                      kind=DiceError)
    faces = plan.faces
    if faces is None:  # an exploding term: each die draws a chain
        return _roll_of(plan.expression, _draw_chains(plan.expression, randint))
    values = (randint(1, faces[0]),) if len(faces) == 1 else tuple([randint(1, f)
                                                                     for f in faces])
    if plan.memo:
        for v in values:
            if type(v) is not int:  # an rng of its own answering 5.0 or True: not a key
                break
        else:
            known = _ROLLS.get(values, plan)
            if known is None:
                known = _ROLLS.put(values, _roll_of(plan.expression, [(v,) for v in values]),
                                   plan)
            return known
    return _roll_of(plan.expression, [(v,) for v in values])


#: the most sets of draws an expression may have for its rolls to be kept (:func:`roll`)
_MEMO_OUTCOMES = 1024


@dataclass(frozen=True, slots=True)
class _Plan:
    """How :func:`roll` rolls one expression: ``faces`` lists the faces of every die in
    draw order when no term explodes (one draw per die), ``None`` otherwise; ``memo``
    says whether its rolls are kept by their draws (few possible draws)."""

    expression: Expression
    faces: tuple[int, ...] | None
    memo: bool


@functools.lru_cache(maxsize=1024)
def _plan(expression: Expression) -> _Plan:
    """The :class:`_Plan` of ``expression`` (a pure function of it, cached)."""
    dice_terms = expression.dice_terms
    if any(t.explode for t in dice_terms):
        return _Plan(expression, None, False)
    faces = tuple([t.faces for t in dice_terms for _ in range(t.count)])
    return _Plan(expression, faces, math.prod(faces) <= _MEMO_OUTCOMES)


@functools.lru_cache(maxsize=1024)
def _text_plan(text: str) -> _Plan:
    """The :class:`_Plan` of a text (parsed: a malformed one is refused, never kept)."""
    return _plan(parse(text))


#: the rolls already built, by their draws and their plan (by identity)
_ROLLS: Memo[Roll] = Memo(4096)


def forget_rolls() -> None:
    """Forget the roll plans and the rolls kept (:func:`escarmouche.dice.clear_caches`)."""
    _text_plan.cache_clear()
    _plan.cache_clear()
    _ROLLS.clear()


def _draw_chains(expression: Expression, randint: Callable[[int, int], int]
                 ) -> list[tuple[int, ...]]:
    """Draw every die of ``expression`` in order: one chain of draws per die (an exploding
    die showing its maximum draws again, at most :data:`MAX_EXPLODE_DEPTH` times)."""
    chains: list[tuple[int, ...]] = []
    for term in expression.dice_terms:
        faces = term.faces
        explode = term.explode
        for _ in range(term.count):
            v = randint(1, faces)
            if explode and v == faces:
                chain = [v]
                while v == faces and len(chain) <= MAX_EXPLODE_DEPTH:
                    v = randint(1, faces)
                    chain.append(v)
                chains.append(tuple(chain))
            else:
                chains.append((v,))
    return chains


def _roll_of(expression: Expression, chains: Sequence[tuple[int, ...]]) -> Roll:
    """The :class:`Roll` of ``expression`` whose dice drew ``chains`` (one chain per die,
    in draw order): kept and dropped dice, each term's total and the sum."""
    term_rolls: list[TermRoll] = []
    total = 0
    at = 0
    for term in expression.terms:
        if isinstance(term, Constant):
            value = term.value if term.sign > 0 else -term.value
            term_rolls.append(TermRoll(term, (), value))
            total += value
            continue
        faces = term.faces
        mine = chains[at:at + term.count]
        at += term.count
        if term.keep is None:
            dice = tuple([DieRoll(faces, c) for c in mine])
            subtotal = sum([sum(c) for c in mine])
        else:
            values = [sum(c) for c in mine]
            kind, m = term.keep
            if kind == "h":
                order = sorted(range(len(values)), key=lambda j: (-values[j], j))
            else:
                order = sorted(range(len(values)), key=lambda j: (values[j], j))
            kept = set(order[:m])
            dice = tuple([DieRoll(faces, c, j in kept) for j, c in enumerate(mine)])
            subtotal = sum([values[j] for j in kept])
        value = subtotal if term.sign > 0 else -subtotal
        term_rolls.append(TermRoll(term, dice, value))
        total += value
    return Roll(expression, tuple(term_rolls), total)
