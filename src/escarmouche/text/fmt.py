"""French number and word formatting shared by the renderers, the narration, the
errors, the widgets and the book: the one copy of each helper (numbers, percentages,
ordinals, plurals, lists, quotes, elision).

Conventions (the tests and the book compare these strings exactly):

* decimal comma: ``3,5``;
* the space before ``%`` and between groups of thousands is a narrow no-break space,
  U+202F (:data:`NNBSP`): ``12,5 %``, ``10 000``; numbers of four digits or fewer
  are not grouped (``1000``), as in French typographic usage;
* negative numbers use the minus sign U+2212 (:data:`MINUS`): ``−3``;
* rounding is exact (values are converted to :class:`~fractions.Fraction`; a float is
  taken at its exact binary value) and halves round away from zero;
* :func:`percent` always shows ``digits`` decimals (``50,0 %``), so that columns
  line up; a non-zero probability that would round to ``0`` shows as ``< 0,1 %``
  and one below 1 that would round to ``100`` as ``> 99,9 %`` (with ``digits`` = 1),
  so that a GM never reads « impossible » or « certain » by mistake;
* :func:`number` strips trailing zeros (``3,5``, not ``3,50``): it is meant for prose.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Final, TypeAlias

from escarmouche.errors import HIDDEN, invalid

__all__ = [
    "MINUS",
    "NNBSP",
    "cite",
    "de",
    "die_of",
    "fixed",
    "fraction",
    "grouped",
    "join",
    "number",
    "ordinal",
    "percent",
    "plural",
    "quote",
    "signed",
]

NNBSP: Final = "\u202f"
"""Narrow no-break space, before ``%`` and between groups of thousands."""
MINUS: Final = "\u2212"
"""The minus sign used for negative numbers."""

Number: TypeAlias = Fraction | float | int


#: the largest magnitude written (beyond it, a number is a mistake, not a statistic)
MAX_MAGNITUDE: Final = 10**60


def _exact(x: Number) -> Fraction:
    if isinstance(x, bool) or not isinstance(x, Fraction | float | int):
        raise invalid("nombre", type(x).__name__, "CORE-ERR", "un nombre est attendu")
    try:
        value = Fraction(x)
    except (ValueError, OverflowError):  # nan, inf
        raise invalid("nombre", x, "CORE-ERR", "un nombre fini est attendu") from None
    if abs(value) >= MAX_MAGNITUDE:
        raise invalid("nombre", HIDDEN, "CORE-ERR", "un nombre d’au plus 60 chiffres est attendu")
    return value


def _check_digits(digits: int) -> None:
    if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= 12:
        raise invalid("décimales", digits, "CORE-ERR", "un nombre entier de 0 à 12 est attendu")


def _round_half_away(x: Fraction) -> int:
    """The nearest integer to ``x``; halves away from zero."""
    n, d = abs(x.numerator), x.denominator
    q, r = divmod(n, d)
    if 2 * r >= d:
        q += 1
    return -q if x < 0 else q


def _group(digits: str) -> str:
    if len(digits) <= 4:
        return digits
    head = len(digits) % 3 or 3
    parts = [digits[:head]] + [digits[i : i + 3] for i in range(head, len(digits), 3)]
    return NNBSP.join(parts)


def _fixed(scaled: int, digits: int, *, strip: bool) -> str:
    """``scaled / 10**digits`` written in French with ``digits`` decimals."""
    sign = MINUS if scaled < 0 else ""
    whole, frac = divmod(abs(scaled), 10**digits)
    text = _group(str(whole))
    if digits:
        decimals = str(frac).rjust(digits, "0")
        if strip:
            decimals = decimals.rstrip("0")
        if decimals:
            text += "," + decimals
    return sign + text


def number(x: Number, digits: int = 2) -> str:
    """``x`` in French: decimal comma, at most ``digits`` decimals, no trailing zeros.

    >>> number(Fraction(7, 2)), number(Fraction(10, 3)), number(12345), number(-2)
    ('3,5', '3,33', '12\u202f345', '−2')
    """
    _check_digits(digits)
    if type(x) is int and -MAX_MAGNITUDE < x < MAX_MAGNITUDE:
        # the common case (narration writes wounds, rolls, thresholds), without Fraction
        return (MINUS if x < 0 else "") + _group(str(abs(x)))
    value = _exact(x)
    return _fixed(_round_half_away(value * 10**digits), digits, strip=True)


def grouped(x: Number, digits: int = 2) -> str:
    """:func:`number`, with a four-digit whole part grouped too: how a refusal writes a
    value or a bound (« entre 1 et 1 000 », « Valeur 5 000 refusée »), so that
    every number of one sentence reads alike.

    >>> grouped(5000), grouped(-1000), grouped(999), grouped(12345), grouped(Fraction(5001, 2))
    ('5 000', '−1 000', '999', '12 345', '2 500,5')
    """
    text = number(x, digits)
    sign = MINUS if text.startswith(MINUS) else ""
    body = text.removeprefix(MINUS)
    whole, comma, rest = body.partition(",")
    if len(whole) == 4 and whole.isdigit():
        whole = f"{whole[0]}{NNBSP}{whole[1:]}"
    return f"{sign}{whole}{comma}{rest}"


def fixed(x: Number, digits: int = 2) -> str:
    """``x`` in French with exactly ``digits`` decimals, trailing zeros kept: the figures
    of one table column read alike (« 1,00 » under « 1,67 », spec/relecture-journal.md B112).

    >>> fixed(1), fixed(Fraction(21, 10)), fixed(Fraction(-3), 1)
    ('1,00', '2,10', '−3,0')
    """
    _check_digits(digits)
    return _fixed(_round_half_away(_exact(x) * 10**digits), digits, strip=False)


def percent(x: Number, digits: int = 1) -> str:
    """The probability ``x`` (``0..1``) as a French percentage with ``digits`` decimals.

    >>> percent(Fraction(1, 8)), percent(Fraction(1, 2)), percent(1, digits=0)
    ('12,5\u202f%', '50,0\u202f%', '100\u202f%')
    >>> percent(Fraction(1, 10**6))
    '<\u202f0,1\u202f%'
    """
    _check_digits(digits)
    value = _exact(x)
    scaled = _round_half_away(value * 100 * 10**digits)
    full = 100 * 10**digits
    if scaled == 0 and value > 0:
        return f"<{NNBSP}{_fixed(1, digits, strip=False)}{NNBSP}%"
    if scaled == full and 0 < value < 1:
        return f">{NNBSP}{_fixed(full - 1, digits, strip=False)}{NNBSP}%"
    return f"{_fixed(scaled, digits, strip=False)}{NNBSP}%"


def fraction(x: Fraction | int) -> str:
    """An exact fraction as text: ``1/8``, ``3`` for a whole number, ``−1/8``.

    >>> fraction(Fraction(2, 16)), fraction(Fraction(4, 2))
    ('1/8', '2')
    """
    if isinstance(x, bool) or not isinstance(x, Fraction | int):
        raise invalid("fraction", type(x).__name__, "CORE-ERR",
                      "une Fraction ou un entier est attendu")
    value = _exact(x)
    sign = MINUS if value < 0 else ""
    n, d = abs(value.numerator), value.denominator
    return f"{sign}{n}" if d == 1 else f"{sign}{n}/{d}"


_VOWELS = frozenset("AEIOUYÀÂÄÉÈÊËÎÏÔÖÙÛÜaeiouyàâäéèêëîïôöùûü")


def de(name: str) -> str:
    """« de » before a name, elided before a vowel: ``de("Brune")`` → « de Brune »,
    ``de("Aldric")`` → « d’Aldric » (an initial h is left alone: it may be aspirated).
    """
    return f"d’{name}" if name[:1] in _VOWELS else f"de {name}"


def die_of(what: str, name: str) -> str:
    """What a die is rolled for and whose it is, the one form of every system's log and
    demos: ``die_of("initiative", "Aldric")`` → « initiative d’Aldric »,
    ``die_of("départage", "Brune")`` → « départage de Brune ».

    >>> die_of("initiative", "Aldric"), die_of("tour bonus", "Brune")
    ('initiative d’Aldric', 'tour bonus de Brune')
    """
    return f"{what} {de(name)}"


def signed(n: int) -> str:
    """An integer with its sign, for modifiers: « +2 », « −3 », « +0 ».

    >>> signed(2), signed(-3), signed(0)
    ('+2', '−3', '+0')
    """
    return number(n) if n < 0 else f"+{number(n)}"


def ordinal(n: int, *, feminine: bool = False) -> str:
    """A French ordinal in figures: « 1er », « 1re » (``feminine``), « 2e ».

    >>> ordinal(1), ordinal(1, feminine=True), ordinal(3)
    ('1er', '1re', '3e')
    """
    if n == 1:
        return "1re" if feminine else "1er"
    return f"{number(n)}e"


def plural(n: int, singular: str, plural_form: str | None = None) -> str:
    """``n`` and the noun agreed with it (French: plural from 2 on, 0 and 1 singular).

    >>> plural(1, "parade"), plural(3, "test"), plural(0, "dé"), plural(2, "oeil", "yeux")
    ('1 parade', '3 tests', '0 dé', '2 yeux')
    """
    word = singular if abs(n) < 2 else (plural_form or singular + "s")
    return f"{number(n)} {word}"


#: the French words of the small whole numbers (the prose writes « deux parades »)
WORDS = ("zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf",
         "dix", "onze", "douze", "treize", "quatorze", "quinze", "seize", "dix-sept",
         "dix-huit", "dix-neuf", "vingt")


def counted(n: int, singular: str, plural_form: str | None = None, *,
            feminine: bool = False) -> str:
    """``n`` in words (up to twenty, figures beyond) and the noun agreed with it, as
    running prose writes a count: « une parade », « deux parades », « aucune esquive ».

    >>> counted(1, "parade", feminine=True), counted(2, "parade"), counted(0, "dé")
    ('une parade', 'deux parades', 'aucun dé')
    >>> counted(0, "esquive", feminine=True), counted(25, "test")
    ('aucune esquive', '25 tests')
    """
    if n == 0:
        return f"{'aucune' if feminine else 'aucun'} {singular}"
    if n == 1:
        return f"{'une' if feminine else 'un'} {singular}"
    word = WORDS[n] if 0 <= n < len(WORDS) else number(n)
    return f"{word} {plural_form or singular + 's'}"


def join(items: Iterable[str], *, empty: str = "personne", last: str = "et") -> str:
    """A French list: « A », « A et B », « A, B et C » (``empty`` when there is none).

    >>> join(["Aldric"]), join(["Aldric", "Brune", "Grolk"]), join([])
    ('Aldric', 'Aldric, Brune et Grolk', 'personne')
    """
    names = list(items)
    if not names:
        return empty
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + f" {last} " + names[-1]


def cite(text: str, rules: str) -> str:
    """``text`` citing ``rules`` in one parenthesis: folded into the parenthesis that
    ends ``text`` (a reason), never two in a row (spec/RELECTURE.md, house style).

    >>> cite("Brune joue au tour 0 (réussite critique)", "RB-INIT-3")
    'Brune joue au tour 0 (réussite critique, RB-INIT-3)'
    >>> cite("Ordre : Aube, Brune", "RB-INIT-2")
    'Ordre : Aube, Brune (RB-INIT-2)'
    """
    if text.endswith(")") and "(" in text:
        return f"{text[:-1]}, {rules})"
    return f"{text} ({rules})"


def quote(text: str) -> str:
    """French quotation marks: « text ».

    >>> quote("attaquer")
    '« attaquer »'
    """
    return f"« {text} »"
