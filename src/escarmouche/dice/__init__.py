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

Layout
------
The package holds one module per concern; every name is importable from
``escarmouche.dice`` itself:

* :mod:`escarmouche.dice.expression`: the bounds and the immutable values
  (:class:`Constant`, :class:`DiceTerm`, :class:`Expression`);
* :mod:`escarmouche.dice.notation`: the tokenizer and parser (:func:`parse`,
  :class:`DiceSyntaxError`) and :func:`check_expression` for user input;
* :mod:`escarmouche.dice.rolling`: :func:`roll` and its result (:class:`Roll`,
  :class:`TermRoll`, :class:`DieRoll`);
* :mod:`escarmouche.dice.exact`: the exact odds (:func:`distribution`,
  :func:`probability`, :func:`mean`, :func:`minimum`, :func:`maximum`) and their cost
  guard (:func:`exact_cost`);
* :mod:`escarmouche.dice.transform`: advantage, disadvantage and the critical
  helpers of D12-CRIT-2 (:func:`with_advantage`, :func:`add_exploding_die`…).

>>> expression = parse("1d8!+2")
>>> str(roll(expression, ScriptedRolls([8, 3]))), minimum(expression)
('1d8!+2 : [8!+3] + 2 = 13', 3)
"""

from __future__ import annotations

from escarmouche.dice.exact import (
    MAX_EXACT_COST,
    MAX_POOL_OUTCOMES,
    clear_caches,
    distribution,
    draw_law,
    exact_cost,
    maximum,
    mean,
    minimum,
    probability,
)
from escarmouche.dice.expression import (
    MAX_CONSTANT,
    MAX_DICE,
    MAX_EXPLODE_DEPTH,
    MAX_EXPRESSION_LENGTH,
    MAX_FACES,
    MAX_TERMS,
    MIN_FACES,
    Constant,
    DiceTerm,
    Expression,
    Term,
)
from escarmouche.dice.expression import RULE as RULE
from escarmouche.dice.notation import DiceSyntaxError, check_expression, parse
from escarmouche.dice.rolling import DieRoll, Roll, TermRoll, roll
from escarmouche.dice.transform import (
    add_exploding_die,
    max_dice_total,
    with_advantage,
    with_disadvantage,
)
from escarmouche.errors import DiceError
from escarmouche.rng import Rng, ScriptedRolls

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
    "draw_law",
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
