"""Pure renderers (no Jupyter): French number formats, SVG charts and HTML tables.

Everything here is a pure function returning a string; the widgets and the book
display those strings. French typography (no-break spaces before ``: ; ! ?``, inside
« ») is :func:`escarmouche.text.typo.typographie`, applied once per channel. See
:mod:`escarmouche.text.fmt` for the formatting conventions (decimal comma, U+202F
before ``%``) and :mod:`escarmouche.render.svg` for the charts.

>>> from fractions import Fraction
>>> number(Fraction(7, 2)), fraction(Fraction(2, 16)), percent(Fraction(1, 8)) == "12,5\u202f%"
('3,5', '1/8', True)
>>> print(Table(("Zone", "Chance"), [("tête", "10 %"), ("corps", "30 %")], title="Localisation"))
Localisation
Zone | Chance
tête | 10 %
corps | 30 %
"""

from __future__ import annotations

from escarmouche.render.svg import distribution_svg, html_table, outcome_bars_svg, timeline_svg
from escarmouche.render.table import Table, Text
from escarmouche.text.fmt import fraction, number, percent
from escarmouche.text.typo import typographie, typographie_html

__all__ = [
    "Table",
    "Text",
    "distribution_svg",
    "fraction",
    "html_table",
    "number",
    "outcome_bars_svg",
    "percent",
    "timeline_svg",
    "typographie",
    "typographie_html",
]
