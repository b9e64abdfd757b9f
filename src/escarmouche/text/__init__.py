"""Text, not pictures: French number formats (:mod:`escarmouche.text.fmt`) and French
typography (:mod:`escarmouche.text.typo`).

The engine's lowest layers (:mod:`escarmouche.errors`, :mod:`escarmouche.model`) format
their messages with these and nothing else; the presentation layer
(:mod:`escarmouche.render`: SVG charts, HTML tables) builds on them. Importing this
package loads no SVG code.

>>> from fractions import Fraction
>>> number(Fraction(7, 2)), percent(Fraction(1, 8)) == "12,5\u202f%"
('3,5', True)
>>> typographie("Touché : 3 blessures !") == "Touché\u00a0: 3 blessures\u202f!"
True
>>> typographie(f"Réussite : {percent(0.125)} !") == "Réussite\u00a0: 12,5\u202f%\u202f!"
True
"""

from __future__ import annotations

from escarmouche.text.fmt import fraction, number, percent
from escarmouche.text.typo import typographie, typographie_html

__all__ = ["fraction", "number", "percent", "typographie", "typographie_html"]
