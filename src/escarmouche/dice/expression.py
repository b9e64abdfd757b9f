"""Dice expressions as values (CORE-DICE): the bounds and the immutable AST.

An :class:`Expression` is a non-empty tuple of terms, each a :class:`Constant` or a
:class:`DiceTerm`, summed with their signs. Every value checks the bounds of CORE-DICE
when it is built and raises :class:`~escarmouche.errors.DiceError` (French message)
otherwise; the parser (:mod:`escarmouche.dice.notation`), which reports a position,
applies the same checks through the ``_*_problem`` helpers below. The notation and its
bounds are described in :mod:`escarmouche.dice`.

>>> str(Expression((DiceTerm(2, 8, explode=True), Constant(2))))
'2d8!+2'
>>> DiceTerm(4, 6, keep=("h", 3)).kept
3
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, TypeAlias

from escarmouche.errors import DiceError, shown
from escarmouche.text.fmt import plural

__all__ = [
    "MAX_CONSTANT",
    "MAX_DICE",
    "MAX_EXPLODE_DEPTH",
    "MAX_EXPRESSION_LENGTH",
    "MAX_FACES",
    "MAX_TERMS",
    "MIN_FACES",
    "Constant",
    "DiceTerm",
    "Expression",
    "Term",
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

_KEEP_NAMES: Final = {"h": "plus hauts", "l": "plus bas"}


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

