"""Exact odds shared by the systems (pure, :class:`~fractions.Fraction` only).

Who acts first under an individual initiative (rulebook, d100, d20, d12's bonus turn):
each fighter has a score law (a die plus a stat); the higher score acts first, ties go
to the higher tie-break stat, then to a fair roll-off (:func:`first_odds`). Exact, and
without enumerating the joint rolls of the whole roster, so that a page never freezes
in the browser. Each system's ``odds.py`` builds the laws with its own rules.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, Literal

from escarmouche.text.fmt import NNBSP, number, percent

__all__ = ["OddsTable", "all_equal", "exact_json", "first_odds", "one_in", "uniform"]

#: no-break space (after « 1 » and around « sur »)
_NBSP = "\u00a0"
_SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


def one_in(p: Fraction) -> str:
    """A small probability in French as « 1 sur N », ``N = 1/p`` rounded to two
    significant digits, in scientific notation from a million on (« 1 sur 3,8 × 10²¹ »);
    0 is « jamais », 1 « toujours ». For the rare events of a capped loop, where a
    percentage would only say « < 0,1 % ».

    >>> one_in(Fraction(1, 12)), one_in(Fraction(3, 400))
    ('1\xa0sur\xa012', '1\xa0sur\xa0133')
    >>> one_in(Fraction(1, 12) ** 21)
    '1\xa0sur\xa04,6\u202f×\u202f10²²'
    >>> one_in(Fraction(0)), one_in(Fraction(1))
    ('jamais', 'toujours')
    """
    if p <= 0:
        return "jamais"
    if p >= 1:
        return "toujours"
    inverse = 1 / p
    if inverse < 1_000_000:
        return f"1{_NBSP}sur{_NBSP}{number(round(inverse))}"
    exponent = len(str(int(inverse))) - 1
    mantissa = inverse / Fraction(10) ** exponent  # in [1, 10)
    tenths = round(mantissa * 10)
    if tenths == 100:  # 9,96… rounds up to the next power of ten
        tenths, exponent = 10, exponent + 1
    head = number(Fraction(tenths, 10), digits=1)
    power = f"10{str(exponent).translate(_SUPERSCRIPTS)}"
    return f"1{_NBSP}sur{_NBSP}{head}{NNBSP}×{NNBSP}{power}"


def exact_json(p: Fraction) -> dict[str, Any]:
    """A probability as JSON: its exact fraction and its value.

    >>> exact_json(Fraction(1, 8))
    {'fraction': '1/8', 'valeur': 0.125}
    """
    return {"fraction": f"{p.numerator}/{p.denominator}", "valeur": float(p)}


@dataclasses.dataclass(frozen=True, slots=True)
class OddsTable:
    """One standard situation of a system (``System.standard_odds``): a French
    ``title``, the ``rules`` it applies, column headers (the first one names the rows)
    and rows of exact values; ``kind`` is ``"percent"`` (probabilities), ``"rare"``
    (tiny probabilities, shown « 1 sur N », :func:`one_in`) or ``"number"`` (expected
    values, counts). ``key`` pairs the same situation under two rule sets
    (``system.situation``)."""

    key: str
    title: str
    rules: tuple[str, ...]
    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[Fraction, ...]], ...]
    kind: Literal["percent", "rare", "number"] = "percent"

    def show(self, value: Fraction) -> str:
        if self.kind == "rare":
            return one_in(value)
        return percent(value) if self.kind == "percent" else number(value)

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "title": self.title, "columns": list(self.columns),
                "rows": [[label, [str(v) for v in values]] for label, values in self.rows]}


def uniform(faces: int, plus: int = 0) -> dict[int, Fraction]:
    """The law of ``1dfaces + plus``.

    >>> uniform(2, 3)
    {4: Fraction(1, 2), 5: Fraction(1, 2)}
    """
    return {v + plus: Fraction(1, faces) for v in range(1, faces + 1)}


def all_equal(law: Mapping[int, Fraction], size: int) -> Fraction:
    """The chance that ``size`` independent draws of ``law`` all show the same value: a
    roll-off round that leaves ``size`` tied fighters still tied.

    >>> all_equal(uniform(12), 2)
    Fraction(1, 12)
    """
    return sum((p ** size for p in law.values()), Fraction(0))


def first_odds(entries: Sequence[tuple[str, int, Mapping[int, Fraction]]]
               ) -> dict[str, Fraction]:
    """``entries`` = ``(name, tie_break, score law)``: the exact chance that each fighter
    acts first (highest score; ties by higher ``tie_break``, then a fair roll-off).

    >>> first_odds([("A", 0, uniform(2)), ("B", 0, uniform(2))])
    {'A': Fraction(1, 2), 'B': Fraction(1, 2)}
    """
    scores = sorted({v for _, _, law in entries for v in law})
    # below[j][s] = P(score_j < s), at[j][s] = P(score_j == s), for every score s
    below: list[dict[int, Fraction]] = []
    at: list[dict[int, Fraction]] = []
    for _, _, law in entries:
        acc = Fraction(0)
        lt: dict[int, Fraction] = {}
        for v in scores:
            lt[v] = acc
            acc += law.get(v, Fraction(0))
        below.append(lt)
        at.append({v: law.get(v, Fraction(0)) for v in scores})
    out: dict[str, Fraction] = {}
    for i, (name, key, law) in enumerate(entries):
        total = Fraction(0)
        for s, p in law.items():
            if not p:
                continue
            weight = p
            # a polynomial in x: the same-key rivals still tied with i at s
            poly = [Fraction(1)]
            for j, (_, key_j, _) in enumerate(entries):
                if j == i:
                    continue
                if key_j > key:
                    weight *= below[j][s]
                elif key_j < key:
                    weight *= below[j][s] + at[j][s]
                else:
                    lose, tie = below[j][s], at[j][s]
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
