"""Escarmouche: the reference engine of four French combat-rule systems.

Dice in, decisions out: every rule is a pure function of dice already rolled, and every
die is drawn with ``rng.randint(1, faces)`` from an rng passed in (CORE-RNG).
"""

from __future__ import annotations

from escarmouche import dice
from escarmouche.errors import EscarmoucheError
from escarmouche.model import Combatant, Effect, Event, Timing

__all__ = ["Combatant", "Effect", "EscarmoucheError", "Event", "Timing", "dice"]
__version__ = "0.1.0"
