"""The exact effect of a change on a duel, in French: two exact solutions of the same
duel (:func:`escarmouche.exact.duel`, before and after a change of rules or of a
weapon) compared side by side, each side's chance of winning before and after and the
difference in percentage points (« +2,8 points »), with no interval: nothing was
sampled, every die was enumerated (CORE-DICE).

The sides are named in quotes, as every comparison of the engine names them
(:func:`escarmouche.simulation.precision.difference_sentence`: « « héros » gagne … »).
A draw or the turn cap is mentioned only when one of the two solutions gives it a
chance that shows (0,1 % or more, rounded). A change that moves no chance at all is
said in one clause (« rien ne change dans ce duel »).

>>> from fractions import Fraction as F
>>> from escarmouche.exact import ExactDuel
>>> def solved(heroes: F) -> ExactDuel:
...     return ExactDuel("Duel", ("héros", "orques"), {"héros": heroes, "orques": 1 - heroes},
...                      F(0), F(0), {3: F(1)}, 10, 50)
>>> plain = lambda text: text.replace("\u00a0", " ").replace("\u202f", " ")
>>> print(plain(effect_sentence(solved(F(443, 1000)), solved(F(471, 1000)), "1d8")))
... # doctest: +NORMALIZE_WHITESPACE
Avec « 1d8 », « héros » gagne 47,1 % au lieu de 44,3 % (+2,8 points, calcul exact) ;
« orques », 52,9 % au lieu de 55,7 % (−2,8 points).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from escarmouche.errors import invalid
from escarmouche.simulation.precision import EXACT_ZERO
from escarmouche.text.fmt import MINUS, fixed, join, percent, plural, quote
from escarmouche.text.typo import typographie

if TYPE_CHECKING:
    from escarmouche.exact import Chance, ExactDuel

__all__ = ["effect_clause", "effect_points", "effect_sentence"]



def effect_points(before: Chance, after: Chance) -> str:
    """The difference ``after − before`` of two chances in percentage points, signed,
    French (« +2,8 points », « −0,4 point »); a difference too small for one decimal
    gets two (« +0,04 point »), a smaller one is said so; ``""`` when there is none
    (below :data:`~escarmouche.simulation.precision.EXACT_ZERO`).

    >>> from fractions import Fraction as F
    >>> effect_points(F(1, 4), F(3, 10)), effect_points(F(1, 2), F(49, 100))
    ('+5,0 points', '−1,0 point')
    >>> effect_points(F(1, 2), F(5004, 10_000)), effect_points(0.5, 0.500001)
    ('+0,04 point', 'moins de 0,01 point d’écart')
    >>> effect_points(0.5, 0.5 + 1e-13)
    ''
    """
    diff = Fraction(after) - Fraction(before)
    if abs(diff) < EXACT_ZERO:
        return ""
    points = diff * 100
    for digits in (1, 2):
        shown = fixed(abs(points), digits)
        if shown.strip("0,"):
            sign = "+" if points > 0 else MINUS
            word = "points" if round(abs(points), digits) >= 2 else "point"  # as shown
            return f"{sign}{shown} {word}"
    return "moins de 0,01 point d’écart"


def effect_clause(before: Chance, after: Chance, who: str, verb: str = "gagne") -> str:
    """One outcome's chance after and before, and its difference in points:
    « « héros » gagne 47,1 % au lieu de 44,3 % (+2,8 points) »; ``verb`` empty writes
    the clause that follows a first one (« « orques », 52,9 % au lieu de 55,7 % »);
    an outcome that does not move says so (« comme avant »).

    >>> from fractions import Fraction as F
    >>> effect_clause(F(1, 2), F(1, 2), "« héros »") == "« héros » gagne 50,0\u202f% comme avant"
    True
    """
    head = f"{who} {verb} " if verb else f"{who}, "
    points = effect_points(before, after)
    if not points:
        return f"{head}{percent(after)} comme avant"
    return f"{head}{percent(after)} au lieu de {percent(before)} ({points})"


def _shows(chance: Chance) -> bool:
    """Whether a chance shows as a percent with one decimal (0,05 % or more)."""
    return Fraction(chance) >= Fraction(1, 2000)


def effect_sentence(before: ExactDuel, after: ExactDuel, label: str) -> str:
    """The exact effect of a change (``label``: « critique à 10 », « 1d8 ») on the duel
    solved as ``before`` and as ``after``: each side's chance of winning after and
    before, and the difference in points, in one French sentence (French typography,
    ``typographie``); a change that moves nothing says so. Both must be the same sides'
    duel (else refused, CORE-ERR)."""
    if tuple(before.sides) != tuple(after.sides):
        raise invalid("camps", ", ".join(after.sides), "CORE-ERR",
                      f"le duel comparé oppose d’autres camps ({', '.join(before.sides)})")
    outcomes = [(before.wins[s], after.wins[s]) for s in after.sides]
    outcomes += [(before.draw, after.draw), (before.timed_out, after.timed_out)]
    if not any(effect_points(old, new) for old, new in outcomes):
        shares = join([f"{quote(side)} {percent(after.wins[side])}" for side in after.sides])
        return typographie(f"Avec {quote(label)}, rien ne change dans ce duel : {shares} "
                           "de victoires, comme avant (calcul exact).")
    clauses = []
    for k, side in enumerate(after.sides):
        clause = effect_clause(before.wins[side], after.wins[side], quote(side),
                               "gagne" if k == 0 else "")
        if k == 0:  # the first clause says where its numbers come from
            clause = (clause[:-1] + ", calcul exact)" if clause.endswith(")")
                      else clause + " (calcul exact)")
        clauses.append(clause)
    if _shows(before.draw) or _shows(after.draw):
        clauses.append(effect_clause(before.draw, after.draw, "le nul (personne debout)",
                                     "vaut"))
    if _shows(before.timed_out) or _shows(after.timed_out):
        cap = plural(after.max_turns, after.turn_word)
        clauses.append(effect_clause(before.timed_out, after.timed_out,
                                     f"l’arrêt à la limite de {cap}", "vaut"))
    return typographie(f"Avec {quote(label)}, " + " ; ".join(clauses) + ".")
