"""Exact initiative odds for the demos (pure, :class:`~fractions.Fraction` only).

The systems give each fighter's score law (a die plus a stat); what the demos add is
the chance of *acting first*, with each system's tie rules:

* individual initiative (d100, d20): higher score first; ties by a higher tie-break
  stat, then a fair roll-off (:func:`first_odds`);
* group initiative (d12): the engine computes it
  (:func:`escarmouche.systems.d12.group_odds`).

Both are exact and never enumerate the joint rolls of the whole roster, so that a page
never freezes in the browser.
"""

from __future__ import annotations

from escarmouche.odds import first_odds, uniform

__all__ = ["first_odds", "uniform"]
