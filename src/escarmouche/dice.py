"""Dice notation, rolls and exact distributions (CORE-DICE). PLACEHOLDER: being written."""

from __future__ import annotations

from escarmouche._rng import Rng, ScriptedRolls

__all__ = ["Rng", "ScriptedRolls"]
