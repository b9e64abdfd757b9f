"""Dice notation, rolls and exact distributions (RULES.md CORE-DICE, CORE-RNG).

Notation
--------
An expression is a sum of terms separated by ``+`` or ``-`` (a leading sign is
allowed; ``−``, U+2212, is read as ``-``). A term is either an integer constant or a
dice term ``[N]dX`` where:

* ``N`` (optional, default 1) is the number of dice and ``X`` the number of faces;
  ``d%`` means ``d100``; ``d`` may be upper case;
* ``!`` (optional) makes every die of the term explode (D12-EXPLODE-1);
* ``khM`` / ``klM`` (optional, after ``!``) keeps the ``M`` highest / lowest dice
  (D12-ADV-1), ``1 <= M <= N``; ``k``, ``h`` and ``l`` may be upper case.

Whitespace is ignored between tokens (``2d8! + 2``). :func:`parse` turns a text into
an immutable :class:`Expression`; ``str(expression)`` is the canonical notation
(``2d8!+2``, ``2d12kh1``, ``1d100``), and ``parse(str(e)) == e``.

Errors
------
Every malformed or out-of-bounds expression raises :class:`DiceError` (a subclass of
:class:`~escarmouche.errors.EscarmoucheError`, hence of ``ValueError``) with a French
message. Syntax errors raise its subclass :class:`DiceSyntaxError`, whose message ends
with ``(position P)``: **P is the 0-based index, in the text exactly as given
(leading spaces included), of the character where the problem was found**; when the
text ends too early, P is the length of the text. Example::

    « 3d » : nombre de faces manquant après « d » (position 2) (CORE-DICE)

Bounds (CORE-DICE)
------------------
* :data:`MAX_EXPRESSION_LENGTH` = 200 characters of text;
* :data:`MAX_TERMS` = 100 terms (a text within the length bound has at most 100);
* :data:`MAX_DICE` = 1000 dice in the whole expression;
* faces from :data:`MIN_FACES` = 1 to :data:`MAX_FACES` = 1000;
* constants: absolute value at most :data:`MAX_CONSTANT` = 1 000 000;
* :data:`MAX_EXPLODE_DEPTH` = 20: an exploding die is drawn at most 1 + 20 times. Each
  draw showing the maximum adds one more draw, until the 20th extra draw, which is
  kept as it is even when it shows the maximum (D12-EXPLODE-1). A ``d1`` cannot
  explode (every draw would be a maximum): ``1d1!`` is rejected.
* :data:`MAX_EXACT_COST`: exact distributions are refused, with « calcul exact trop
  coûteux », when their estimated cost (:func:`exact_cost`) exceeds 5 000 000 units.
  One unit is about 0.15–0.25 µs on the reference machine (CPython 3.11), so an
  accepted expression is computed in well under 2 s (``10d10!`` ≈ 0.3 s,
  ``20d20`` ≈ 0.02 s); ``100d100`` or ``1000d1000`` are refused.

Randomness (CORE-RNG)
---------------------
:func:`roll` draws every die with ``rng.randint(1, faces)``. **Draw order**: terms
from left to right, the dice of a term in order, and each exploding die's extra draws
immediately after it (before the next die). A ``random.Random`` seeded at the edge or
a :class:`ScriptedRolls` can be passed. Dice dropped by ``kh``/``kl`` are drawn too
and kept in the :class:`Roll` (a GM sees every die).

Exact odds
----------
:func:`distribution` computes the exact law of an expression with icepool, with the
same explosion semantics as :func:`roll` (``icepool.Die.explode(depth=20)``: at most
20 additional dice, the last one counted as it is), and caches the result.
"""

from __future__ import annotations

import functools
import operator
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Final, TypeAlias

import icepool

from escarmouche._rng import Rng, ScriptedRolls
from escarmouche.errors import DiceError, shown
from escarmouche.model import DieRecord
from escarmouche.text.fmt import plural

__all__ = [
    "MAX_CONSTANT",
    "MAX_DICE",
    "MAX_EXACT_COST",
    "MAX_EXPLODE_DEPTH",
    "MAX_EXPRESSION_LENGTH",
    "MAX_FACES",
    "MAX_POOL_OUTCOMES",
    "MAX_TERMS",
    "MIN_FACES",
    "Constant",
    "DiceError",
    "DiceSyntaxError",
    "DiceTerm",
    "DieRoll",
    "Expression",
    "Rng",
    "Roll",
    "ScriptedRolls",
    "Term",
    "TermRoll",
    "add_exploding_die",
    "check_expression",
    "clear_caches",
    "distribution",
    "exact_cost",
    "max_dice_total",
    "maximum",
    "mean",
    "minimum",
    "parse",
    "probability",
    "roll",
    "with_advantage",
    "with_disadvantage",
]

RULE: Final = "CORE-DICE"

MAX_EXPRESSION_LENGTH: Final = 200
"""Longest text accepted by :func:`parse` (characters)."""
MAX_TERMS: Final = 100
"""Most terms (dice terms and constants) in one expression."""
MAX_DICE: Final = 1000
"""Most dice in one expression (sum of the dice counts of its terms)."""
MIN_FACES: Final = 1
MAX_FACES: Final = 1000
"""Faces of a die: from 1 to 1000."""
MAX_CONSTANT: Final = 1_000_000
"""Largest absolute value of a constant term."""
MAX_EXPLODE_DEPTH: Final = 20
"""Extra draws an exploding die may make (D12-EXPLODE-1): at most 1 + 20 draws; the
20th extra draw is kept as it is, even when it shows the maximum."""
MAX_EXACT_COST: Final = 5_000_000
"""Largest :func:`exact_cost` accepted by :func:`distribution` (≈ 1 s at most)."""
MAX_POOL_OUTCOMES: Final = 500
"""Keeping ``M`` of ``N`` dice with ``1 < M < N`` uses an icepool pool, whose
evaluation recurses once per outcome of a die: such a term is refused (« calcul exact
trop coûteux ») when one die has more outcomes than this (an exploding ``d20`` has
400, an exploding ``d30`` 610), far from Python's default recursion limit."""

_KEEP_NAMES: Final = {"h": "plus hauts", "l": "plus bas"}


class DiceSyntaxError(DiceError):
    """A dice expression that does not follow the notation (CORE-DICE).

    ``position`` is the 0-based index in the text of the character where the problem
    was found (the length of the text when it ends too early).
    """

    def __init__(self, text: str, position: int, why: str) -> None:
        self.position = position
        super().__init__(
            f"« {_show(text)} » : {why} (position {position}) ({RULE})",
            field="dés",
            value=text,
            rule=RULE,
        )


def _show(text: str, limit: int = 60) -> str:
    """The text as quoted in a message: printable, and shortened when long."""
    shown = "".join(c if c.isprintable() else "\N{REPLACEMENT CHARACTER}" for c in text)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def _error(subject: str, why: str, value: object = None) -> DiceError:
    return DiceError(f"{subject} : {why} ({RULE})", field="dés", value=value, rule=RULE)


# --------------------------------------------------------------------------------------
# Bounds shared by the parser (which reports a position) and the AST (which does not).


def _count_problem(count: int) -> str | None:
    if count < 1:
        return f"il faut au moins un dé par terme, pas {count}"
    if count > MAX_DICE:
        return f"{count} dés, au plus {MAX_DICE} dés par expression"
    return None


def _faces_problem(faces: int) -> str | None:
    if not MIN_FACES <= faces <= MAX_FACES:
        return f"un dé a de {MIN_FACES} à {MAX_FACES} faces, pas {faces}"
    return None


def _explode_problem(faces: int) -> str | None:
    if faces < 2:
        return "un d1 ne peut pas exploser (il exploserait sans fin, D12-EXPLODE-1)"
    return None


def _keep_problem(kind: str, n: int, count: int) -> str | None:
    if kind not in _KEEP_NAMES:
        return f"garder « k{kind} » n'existe pas : « kh » (plus hauts) ou « kl » (plus bas)"
    if not 1 <= n <= count:
        return (f"impossible de garder {plural(n, 'dé')} sur {count} (« k{kind}N » : N de 1 "
                f"à {count})")
    return None


def _constant_problem(value: int) -> str | None:
    if not 0 <= value <= MAX_CONSTANT:
        return f"constante {value} hors des bornes 0–{MAX_CONSTANT}"
    return None


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# --------------------------------------------------------------------------------------
# The AST: small immutable values.


@dataclass(frozen=True, slots=True)
class Constant:
    """An integer constant term: ``value >= 0`` and ``sign`` is ``1`` or ``-1``."""

    value: int
    sign: int = 1

    def __post_init__(self) -> None:
        if not _is_int(self.value):
            raise _error("constante", f"un entier est attendu, pas {shown(self.value)}",
                         self.value)
        if self.sign not in (1, -1) or isinstance(self.sign, bool):
            raise _error("constante", f"signe 1 ou -1 attendu, pas {shown(self.sign)}", self.sign)
        problem = _constant_problem(self.value)
        if problem:
            raise _error("constante", problem, self.value)

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True, slots=True)
class DiceTerm:
    """``count`` dice with ``faces`` faces, maybe exploding, maybe keeping some.

    ``keep`` is ``None`` (keep every die) or ``("h", m)`` / ``("l", m)``: keep the
    ``m`` highest / lowest dice (by die value, explosion included), ``1 <= m <= count``.
    """

    count: int
    faces: int
    sign: int = 1
    explode: bool = False
    keep: tuple[str, int] | None = None

    def __post_init__(self) -> None:
        for name, value in (("nombre de dés", self.count), ("nombre de faces", self.faces)):
            if not _is_int(value):
                raise _error(f"terme de dés, {name}", f"un entier est attendu, pas {shown(value)}")
        if self.sign not in (1, -1) or isinstance(self.sign, bool):
            raise _error("terme de dés", f"signe 1 ou −1 attendu, pas {shown(self.sign)}",
                         self.sign)
        if not isinstance(self.explode, bool):
            raise _error("terme de dés",
                         f"explode doit être un booléen, pas {shown(self.explode)}")
        problem = _count_problem(self.count) or _faces_problem(self.faces)
        if not problem and self.explode:
            problem = _explode_problem(self.faces)
        if not problem and self.keep is not None:
            keep = self.keep
            if (
                not isinstance(keep, tuple)
                or len(keep) != 2
                or not isinstance(keep[0], str)
                or not _is_int(keep[1])
            ):
                problem = f"keep doit valoir None, ('h', n) ou ('l', n), pas {shown(keep)}"
            else:
                problem = _keep_problem(keep[0], keep[1], self.count)
        if problem:
            raise _error(f"terme de dés {self._notation()}", problem, self)

    @property
    def kept(self) -> int:
        """How many dice count towards the total."""
        return self.count if self.keep is None else self.keep[1]

    def _notation(self) -> str:
        text = f"{self.count}d{self.faces}{'!' if self.explode else ''}"
        if self.keep is not None:
            text += f"k{self.keep[0]}{self.keep[1]}"
        return text

    def __str__(self) -> str:
        return self._notation()


Term: TypeAlias = Constant | DiceTerm


@dataclass(frozen=True, slots=True)
class Expression:
    """A parsed dice expression: a non-empty tuple of terms, summed with their signs.

    ``str(expression)`` is the canonical notation, e.g. ``2d8!+2`` or ``-1d4+3``.
    """

    terms: tuple[Term, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.terms, tuple):
            object.__setattr__(self, "terms", tuple(self.terms))
        if not self.terms:
            raise _error("expression", "il faut au moins un terme")
        if len(self.terms) > MAX_TERMS:
            raise _error("expression", f"{len(self.terms)} termes, au plus {MAX_TERMS}")
        for term in self.terms:
            if not isinstance(term, Constant | DiceTerm):
                raise _error("expression", f"terme inattendu {shown(term)}", term)
        total = self.dice_count
        if total > MAX_DICE:
            raise _error(
                f"expression {self}", f"{total} dés au total, au plus {MAX_DICE} par expression"
            )

    @property
    def dice_count(self) -> int:
        """How many dice the expression rolls (before explosions)."""
        return sum(t.count for t in self.terms if isinstance(t, DiceTerm))

    @property
    def dice_terms(self) -> tuple[DiceTerm, ...]:
        """The dice terms, in order."""
        return tuple(t for t in self.terms if isinstance(t, DiceTerm))

    def __str__(self) -> str:
        parts: list[str] = []
        for i, term in enumerate(self.terms):
            if term.sign < 0:
                parts.append("-")
            elif i:
                parts.append("+")
            parts.append(str(term))
        return "".join(parts)


# --------------------------------------------------------------------------------------
# Tokenizer and recursive-descent parser.

_NUM, _D, _PCT, _BANG, _KH, _KL, _K, _PLUS, _MINUS, _END, _BAD = range(11)


@dataclass(frozen=True, slots=True)
class _Token:
    kind: int
    pos: int
    text: str


def _tokens(text: str) -> Iterator[_Token]:
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif "0" <= c <= "9":
            j = i
            while j < n and "0" <= text[j] <= "9":
                j += 1
            yield _Token(_NUM, i, text[i:j])
            i = j
        elif c in "dD":
            yield _Token(_D, i, c)
            i += 1
        elif c in "kK":
            nxt = text[i + 1] if i + 1 < n else ""
            if nxt and nxt in "hHlL":
                yield _Token(_KH if nxt in "hH" else _KL, i, text[i : i + 2])
                i += 2
            else:
                yield _Token(_K, i, c)
                i += 1
        else:
            kind = {"%": _PCT, "!": _BANG, "+": _PLUS, "-": _MINUS, "\u2212": _MINUS}.get(c, _BAD)
            yield _Token(kind, i, c)
            i += 1
    yield _Token(_END, n, "")


class _Parser:
    """expression := [sign] term (sign term)* END
    term := NUM [dice] | dice ;  dice := D (NUM | '%') ['!'] [(KH | KL) NUM]
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = list(_tokens(text))
        self.i = 0
        self.dice = 0

    @property
    def tok(self) -> _Token:
        return self.toks[self.i]

    def fail(self, pos: int, why: str) -> DiceSyntaxError:
        return DiceSyntaxError(self.text, pos, why)

    def expression(self) -> Expression:
        if self.tok.kind == _END:
            raise self.fail(self.tok.pos, "expression de dés vide")
        terms: list[Term] = []
        sign, after = 1, ""
        if self.tok.kind in (_PLUS, _MINUS):
            sign = -1 if self.tok.kind == _MINUS else 1
            after = self.tok.text
            self.i += 1
        while True:
            terms.append(self.term(sign, after))
            tok = self.tok
            if tok.kind == _END:
                return Expression(tuple(terms))
            if tok.kind in (_PLUS, _MINUS):
                sign = -1 if tok.kind == _MINUS else 1
                after = tok.text
                self.i += 1
                continue
            raise self.fail(tok.pos, self.unexpected_after_term(tok))

    def unexpected_after_term(self, tok: _Token) -> str:
        if tok.kind == _BANG:
            previous = self.toks[self.i - 1]
            if previous.kind == _BANG:
                return "« ! » en double : un dé explose au plus une fois par terme"
            if self.i >= 2 and self.toks[self.i - 2].kind in (_KH, _KL):
                return "« ! » doit précéder « kh »/« kl » (par exemple « 2d8!kh1 »)"
            return "« ! » inattendu : seul un dé peut exploser"
        if tok.kind == _K:
            return "« k » doit être suivi de « h » (plus hauts) ou « l » (plus bas)"
        if tok.kind in (_KH, _KL):
            return f"« {tok.text} » inattendu : un seul « kh »/« kl » par terme de dés"
        if tok.kind == _NUM:
            return f"nombre « {tok.text} » inattendu : « + » ou « - » attendu"
        return f"« {_show(tok.text)} » inattendu : « + », « - » ou la fin attendu"

    def number(self, tok: _Token, why: str) -> int:
        if len(tok.text) > 9:  # any such number is out of every bound
            raise self.fail(tok.pos, f"{why}, nombre {_show(tok.text, 20)} trop grand")
        return int(tok.text)

    def term(self, sign: int, after: str) -> Term:
        tok = self.tok
        start = tok.pos
        if tok.kind == _NUM:
            self.i += 1
            if self.tok.kind != _D:
                value = self.number(tok, "constante")
                problem = _constant_problem(value)
                if problem:
                    raise self.fail(tok.pos, problem)
                return Constant(value, sign)
            count = self.number(tok, "nombre de dés")
            problem = _count_problem(count)
            if problem:
                raise self.fail(tok.pos, problem)
        elif tok.kind == _D:
            count = 1
        elif tok.kind == _END:
            raise self.fail(tok.pos, f"terme manquant après « {after} »")
        else:
            raise self.fail(
                tok.pos,
                f"« {_show(tok.text)} » inattendu : un nombre ou un dé (« d6 », « 2d8 ») attendu",
            )
        d_tok = self.tok
        self.i += 1
        face_tok = self.tok
        if face_tok.kind == _NUM:
            faces = self.number(face_tok, "nombre de faces")
            problem = _faces_problem(faces)
            if problem:
                raise self.fail(face_tok.pos, problem)
        elif face_tok.kind == _PCT:
            faces = 100
        else:
            raise self.fail(face_tok.pos, f"nombre de faces manquant après « {d_tok.text} »")
        self.i += 1
        explode = False
        if self.tok.kind == _BANG:
            problem = _explode_problem(faces)
            if problem:
                raise self.fail(self.tok.pos, problem)
            explode = True
            self.i += 1
        keep: tuple[str, int] | None = None
        if self.tok.kind in (_KH, _KL):
            k_tok = self.tok
            self.i += 1
            n_tok = self.tok
            if n_tok.kind != _NUM:
                raise self.fail(
                    n_tok.pos, f"nombre de dés à garder manquant après « {k_tok.text} »"
                )
            kind = "h" if k_tok.kind == _KH else "l"
            n = self.number(n_tok, "nombre de dés à garder")
            problem = _keep_problem(kind, n, count)
            if problem:
                raise self.fail(n_tok.pos, problem)
            keep = (kind, n)
            self.i += 1
        self.dice += count
        if self.dice > MAX_DICE:
            raise self.fail(
                start, f"{self.dice} dés au total, au plus {MAX_DICE} dés par expression"
            )
        return DiceTerm(count, faces, sign, explode, keep)


def check_expression(
    value: object,
    *,
    field: str = "arme",
    who: str = "",
    rule: str = RULE,
    check: Callable[[str], object] = lambda text: parse(text),
) -> str:
    """A dice expression typed by a user (a weapon's damage, say), checked: returned
    unchanged, or a :class:`DiceError` naming the field, the owner ``who``, the value and
    ``rule`` (besides CORE-DICE). ``check`` may add a system's own requirement."""
    of = f" de « {who} »" if who else ""
    cite = f" ({rule})" if rule != RULE else ""
    if not isinstance(value, str):
        raise DiceError(
            f"{field}{of} = {shown(value)} : une expression de dés est attendue, par exemple "
            f"« 1d8+2 » ({rule})",
            field=field, value=value, rule=rule,
        )
    try:
        check(value)
    except DiceError as err:
        # the parser's message begins with the expression itself (« « 1d8+ » : … »):
        # said once, with one colon (« arme = « 1d8+ » : terme manquant … »)
        why = re.sub(r"^«[^»]*»[\s\u00a0]*:\s*", "", str(err))
        raise DiceError(
            f"{field}{of} = {shown(value)} : {why}{cite}", field=field, value=value, rule=rule,
        ) from None
    return value


def parse(expr: str | Expression) -> Expression:
    """Parse dice notation into an :class:`Expression` (an ``Expression`` is returned as is).

    >>> str(parse("2D8! + 2")), str(parse("d%")), str(parse("2d12KH1"))
    ('2d8!+2', '1d100', '2d12kh1')

    Raises :class:`DiceSyntaxError` for malformed text and :class:`DiceError` for a
    text longer than :data:`MAX_EXPRESSION_LENGTH`. Results are cached.
    """
    if isinstance(expr, Expression):
        return expr
    if not isinstance(expr, str):
        raise _error(
            "expression de dés",
            f"un texte est attendu, pas {shown(expr)} ({type(expr).__name__})",
            expr,
        )
    return _parse_cached(expr)


@functools.lru_cache(maxsize=1024)
def _parse_cached(text: str) -> Expression:
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise _error(
            f"« {_show(text)} »",
            f"expression trop longue ({len(text)} caractères, au plus {MAX_EXPRESSION_LENGTH})",
            text,
        )
    return _Parser(text).expression()


# --------------------------------------------------------------------------------------
# Rolling.


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
        return tuple(d for t in self.terms for d in t.dice)

    @property
    def draws(self) -> tuple[tuple[int, int], ...]:
        """Every draw as ``(faces, value)``, in draw order (explosions included)."""
        return tuple((d.faces, v) for t in self.terms for d in t.dice for v in d.draws)

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

    >>> str(roll("2d12kh1", ScriptedRolls([3, 7])))
    '2d12kh1 : [(3), 7] = 7'
    >>> roll("1d8!+2", ScriptedRolls([8, 8, 3])).total
    21
    """
    expression = expr if isinstance(expr, Expression) else parse(expr)
    randint = getattr(rng, "randint", None)
    if randint is None:
        raise DiceError(
            f"rng = {shown(rng)} : un générateur ayant randint(a, b) est attendu, par exemple "
            "random.Random(graine) ou ScriptedRolls([...]) (CORE-RNG)",
            field="rng",
            value=rng,
            rule="CORE-RNG",
        )
    term_rolls: list[TermRoll] = []
    total = 0
    for term in expression.terms:
        if isinstance(term, Constant):
            value = term.value if term.sign > 0 else -term.value
            term_rolls.append(TermRoll(term, (), value))
            total += value
            continue
        faces = term.faces
        chains: list[tuple[int, ...]] = []
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
        if term.keep is None:
            dice = tuple([DieRoll(faces, c) for c in chains])
            subtotal = sum([sum(c) for c in chains])
        else:
            values = [sum(c) for c in chains]
            kind, m = term.keep
            if kind == "h":
                order = sorted(range(len(values)), key=lambda j: (-values[j], j))
            else:
                order = sorted(range(len(values)), key=lambda j: (values[j], j))
            kept = set(order[:m])
            dice = tuple([DieRoll(faces, c, j in kept) for j, c in enumerate(chains)])
            subtotal = sum([values[j] for j in kept])
        value = subtotal if term.sign > 0 else -subtotal
        term_rolls.append(TermRoll(term, dice, value))
        total += value
    return Roll(expression, tuple(term_rolls), total)


# --------------------------------------------------------------------------------------
# Exact distributions (icepool).

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


def clear_caches() -> None:
    """Forget the cached parses and distributions (for benchmarks and tests)."""
    _parse_cached.cache_clear()
    _distribution_cached.cache_clear()


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
            raise DiceError(
                f"condition = {shown(condition)} : une paire (comparaison, nombre "
                f"entier) est attendue, par exemple (\">=\", 12) ({RULE})",
                field="condition", value=None, rule=RULE)
        op, value = condition
        if op not in _OPERATORS:
            raise DiceError(
                f"comparaison « {op} » inconnue : {', '.join(_OPERATORS)} attendus ({RULE})",
                field="opérateur",
                value=op,
                rule=RULE,
            )
        compare = _OPERATORS[op]
        predicate: Callable[[int], bool] = lambda total: compare(total, value)  # noqa: E731
    elif callable(condition):
        predicate = condition
    else:
        raise DiceError(
            f"condition = {shown(condition)} : une fonction ou une paire (comparaison, "
            f"nombre) est attendue ({RULE})", field="condition", value=None, rule=RULE)
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


# --------------------------------------------------------------------------------------
# Transformations of an expression (STYLE.md lesson 6): pure, returning new values.


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
