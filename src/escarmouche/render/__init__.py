"""Pure renderers (no Jupyter): French number formats, SVG charts and HTML tables.

Everything here is a pure function returning a string; the widgets and the book
display those strings. See :mod:`escarmouche.render.fmt` for the formatting
conventions (decimal comma, U+202F before ``%``) and :mod:`escarmouche.render.svg`
for the charts.
"""

from __future__ import annotations

from escarmouche.render.fmt import fraction, number, percent
from escarmouche.render.svg import distribution_svg, html_table, outcome_bars_svg, timeline_svg
from escarmouche.render.table import Table, Text

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
]
