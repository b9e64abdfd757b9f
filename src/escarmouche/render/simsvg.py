"""Charts of balance simulations (:mod:`escarmouche.simulation`): one SVG document.

:func:`stack_svg` puts several charts of :mod:`escarmouche.render.svg` one under the
other in a single SVG document (nested ``<svg>`` elements), so that a balance writes to
one ``.svg`` file (``--sortie``) and shows as one image. :func:`curve_svg` draws chances
known exactly along a grid of values (an exact sweep): one line per side, no interval.

>>> from fractions import Fraction
>>> from escarmouche.render.svg import outcome_bars_svg
>>> bars = outcome_bars_svg([("victoire", Fraction(3, 4))], title="Issues")
>>> doc = stack_svg([bars, bars], title="Bilan")
>>> doc.startswith("<svg") and doc.count("<svg") == 3 and doc.rstrip().endswith("</svg>")
True
>>> curve = curve_svg(["0", "1", "2"], [("héros", [0.5, 0.6, 0.75])],
...                   title="Victoires", x_title="Parades par round")
>>> curve.count("<polyline"), curve.count("<circle")
(1, 3)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction

from escarmouche.errors import invalid
from escarmouche.render.svg import (
    GRID,
    MUTED,
    PALETTE,
    _chance,
    _count,
    _esc,
    _label,
    _n,
    _probability,
    _prose,
    _size,
    _svg_open,
    _text,
    _text_width,
    _wrap,
    legible_scale,
)
from escarmouche.text.fmt import percent

__all__ = ["curve_svg", "stack_svg"]

_SIZE = re.compile(r'^<svg [^>]*?width="([0-9.]+)" height="([0-9.]+)"')


def stack_svg(parts: Sequence[str], *, title: str, gap: float = 12.0) -> str:
    """The charts ``parts`` (SVG documents from :mod:`escarmouche.render.svg`) stacked
    vertically, left-aligned, ``gap`` pixels apart, in one SVG document titled
    ``title``."""
    if not parts or len(parts) > 20:
        raise invalid("graphiques", len(parts), "CORE-ERR", "entre 1 et 20 graphiques")
    sizes = []
    for part in parts:
        m = _SIZE.match(part)
        if m is None:
            raise invalid("graphique", part[:20], "CORE-ERR", "un document SVG est attendu")
        sizes.append((float(m.group(1)), float(m.group(2))))
    width = max(w for w, _ in sizes)
    height = sum(h for _, h in sizes) + gap * (len(parts) - 1)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" '
           f'height="{_n(height)}" viewBox="0 0 {_n(width)} {_n(height)}" role="img" '
           f'aria-label="{_esc(title)}">', f"<title>{_esc(title)}</title>"]
    y = 0.0
    for part, (_, h) in zip(parts, sizes, strict=True):
        out.append(part.replace("<svg ", f'<svg x="0" y="{_n(y)}" ', 1))
        y += h + gap
    out.append("</svg>")
    return "\n".join(out)


def curve_svg(xs: Sequence[str], series: Sequence[tuple[str, Sequence[float | Fraction]]],
              *, title: str, x_title: str, width: int = 400) -> str:
    """Chances known exactly at each of the values ``xs`` (labels, evenly spaced, in
    order), one line per ``(name, chances)`` of ``series`` in the sides' colours, on a
    0–100 % axis, each point with its ``<title>`` tooltip (« héros, 2 : 75,0 % (3/4) »);
    no interval band, as nothing was sampled. A chance outside 0–1 is refused
    (CORE-ERR)."""
    _label(title, "titre")
    _label(x_title, "titre de l’axe")
    _size(width, "largeur")
    _count(xs, "valeurs")
    if not xs or not series or len(series) > len(PALETTE):
        raise invalid("courbes", len(series), "CORE-ERR",
                      f"entre 1 et {len(PALETTE)} courbes sur au moins une valeur")
    labels = [_label(x, "valeur") for x in xs]
    lines = []
    for name, values in series:
        if len(values) != len(xs):
            raise invalid("courbe", _label(name, "courbe"), "CORE-ERR",
                          f"{len(xs)} chances attendues, une par valeur")
        lines.append((name, [_chance(v, f"chance de « {name} »") for v in values]))
    k = legible_scale(width, smallest=12.0)
    size = 12.0 * k
    title_lines = _wrap(title, 15 * k, width - 24)
    legend_y = (22 + 20 * len(title_lines)) * k
    top = legend_y + 22 * k
    left, right = 12 + _text_width("100 %", size) + 8, 16 * k
    plot_w = width - left - right
    plot_h = 160.0 * k
    bottom = top + plot_h
    height = bottom + 48 * k + 20 * k * (len(_wrap(x_title, size, width - 24)) - 1)
    out = _svg_open(width, height, title)
    for i, line in enumerate(title_lines):
        out.append(_text(width / 2, (22 + 20 * i) * k, line, size=15 * k, anchor="middle",
                         weight="bold"))
    x_legend = 12.0
    for i, (name, _) in enumerate(lines):  # the legend: a stroke and the side's name
        colour = PALETTE[i]
        out.append(f'<line x1="{_n(x_legend)}" y1="{_n(legend_y - 4 * k)}" '
                   f'x2="{_n(x_legend + 18 * k)}" y2="{_n(legend_y - 4 * k)}" '
                   f'stroke="{colour}" stroke-width="{_n(3 * k)}"/>')
        out.append(_text(x_legend + 24 * k, legend_y, name, size=size))
        x_legend += 24 * k + _text_width(name, size) + 16 * k
    for tick in range(5):  # 0, 25, 50, 75, 100 %
        y = bottom - plot_h * tick / 4
        out.append(f'<line x1="{_n(left)}" y1="{_n(y)}" x2="{_n(left + plot_w)}" '
                   f'y2="{_n(y)}" stroke="{GRID}"/>')
        out.append(_text(left - 6, y + 4 * k, percent(Fraction(tick, 4), digits=0),
                         size=size, anchor="end", fill=MUTED))

    widest = max(_text_width(x, size) for x in labels)
    pad = min(max(widest / 2 - right, 8 * k), plot_w / 4)  # the end labels stay inside

    def x_at(i: int) -> float:
        span = plot_w - 2 * pad
        return left + pad + (span / 2 if len(xs) == 1 else span * i / (len(xs) - 1))

    room = max(int((plot_w - 2 * pad) // (widest + 8 * k)) + 1, 1)
    every = -(-len(xs) // room)  # a label every that many values, none overlapping
    for i, x in enumerate(labels):
        if i % every == 0:
            out.append(_text(x_at(i), bottom + 16 * k, x, size=size, anchor="middle",
                             fill=MUTED))
    for i, line in enumerate(_wrap(x_title, size, width - 24)):
        out.append(_text(left + plot_w / 2, bottom + (36 + 20 * i) * k, line, size=size,
                         anchor="middle"))
    for s_i, (name, chances) in enumerate(lines):
        colour = PALETTE[s_i]
        points = " ".join(f"{_n(x_at(i))},{_n(bottom - plot_h * float(p))}"
                          for i, p in enumerate(chances))
        out.append(f'<g class="courbe"><polyline points="{points}" fill="none" '
                   f'stroke="{colour}" stroke-width="{_n(2.5 * k)}" '
                   'stroke-linejoin="round" stroke-linecap="round"/>')
        for i, p in enumerate(chances):
            tip = f"{name}, {labels[i]} : {_probability(p)}"
            out.append(f'<circle cx="{_n(x_at(i))}" cy="{_n(bottom - plot_h * float(p))}" '
                       f'r="{_n(3.5 * k)}" fill="{colour}"><title>{_prose(tip)}</title>'
                       "</circle>")
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)
