"""Escarmouche: the reference engine of four French combat-rule systems.

Dice in, decisions out: every rule is a pure function of dice already rolled, and every
die is drawn with ``rng.randint(1, faces)`` from an rng passed in (CORE-RNG).

>>> import random
>>> from escarmouche import Combatant, dice
>>> aldric = Combatant("Aldric", "héros", {"CC": 45, "B": 12})
>>> str(dice.roll("2d6+1", random.Random(7)))
'2d6+1 : [3, 2] + 1 = 6'
>>> dice.mean("2d6+1"), dice.probability("2d6", (">=", 10))
(Fraction(8, 1), Fraction(1, 6))

A fight is an :class:`escarmouche.encounter.Encounter` under one of the systems of
:mod:`escarmouche.systems`; the renderers of :mod:`escarmouche.render` show the results.
"""

from __future__ import annotations

from escarmouche import dice
from escarmouche.errors import EscarmoucheError
from escarmouche.model import Combatant, Effect, Event, Timing

__all__ = ["Combatant", "Effect", "EscarmoucheError", "Event", "Timing", "dice"]
__version__ = "0.1.0"
