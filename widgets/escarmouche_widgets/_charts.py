"""The demos' charts: thin wrappers over :mod:`escarmouche.render.svg` (pure strings)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

from escarmouche.render import svg

__all__ = ["bars", "distribution", "side_by_side", "timeline"]

#: explosion tails thinner than this are left out of the charts (and said so)
TAIL = Fraction(1, 10_000)


def bars(items: Sequence[tuple[str, Fraction]], title: str, *, width: int = 400) -> str:
    """Named outcomes with their exact probability (horizontal bars)."""
    return svg.outcome_bars_svg(list(items), title=title, width=width)


def distribution(dist: Mapping[int, Fraction], title: str, *, xlabel: str = "Dégâts",
                 width: int = 320, height: int = 240,
                 highlight: Callable[[int], bool] | None = None) -> str:
    """An exact distribution as vertical bars (long explosion tails clipped)."""
    return svg.distribution_svg(dist, title=title, xlabel=xlabel, width=width,
                                height=height, highlight=highlight, tail=TAIL)


def timeline(turns: Sequence[tuple[str, Sequence[str]]], title: str,
             sides: Mapping[str, str] | None = None) -> str:
    return svg.timeline_svg(list(turns), title=title, sides=sides)


def side_by_side(*charts: str) -> str:
    """Charts in a row that wraps on a narrow screen."""
    cells = "".join(f'<div style="flex: 0 1 auto; max-width: 100%; overflow-x: auto">{c}'
                    "</div>" for c in charts)
    return f'<div style="display: flex; flex-wrap: wrap; gap: 8px">{cells}</div>'
