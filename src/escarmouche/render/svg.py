"""Pure renderers: data in, a self-contained SVG (or HTML) string out.

No Jupyter, no numpy, no matplotlib: the strings can be shown by a notebook
(``IPython.display.SVG``/``HTML``), an ipywidgets ``HTML`` or written to a file.
Every text is escaped with :func:`html.escape` (characters that XML cannot carry
become U+FFFD); the output is deterministic (the same
input gives the same string: no random ids, no clock, coordinates rounded to 0.01).
Labels are French and percentages come from :func:`escarmouche.text.fmt.percent`.

>>> from escarmouche.dice import distribution
>>> svg = distribution_svg(distribution("2d6"), title="Deux d6")
>>> svg.startswith("<svg "), svg == distribution_svg(distribution("2d6"), title="Deux d6")
(True, True)

In a notebook: ``IPython.display.SVG(svg)``; in a widget: ``ipywidgets.HTML(svg)``.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Callable, Mapping, Sequence, Sized
from fractions import Fraction
from typing import Final

from escarmouche.errors import invalid
from escarmouche.text.fmt import fraction, number, percent, plural
from escarmouche.text.typo import typographie

__all__ = ["distribution_svg", "html_table", "outcome_bars_svg", "timeline_svg"]

FONT: Final = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"
TEXT: Final = "#222222"
MUTED: Final = "#666666"
GRID: Final = "#dddddd"
BAR: Final = "#4e79a7"
ACCENT: Final = "#e15759"
TRACK: Final = "#eeeeee"
PALETTE: Final = (
    "#4e79a7", "#e15759", "#59a14f", "#f28e2b", "#b07aa1",
    "#76b7b2", "#edc948", "#9c755f", "#ff9da7", "#bab0ac",
)  # fmt: skip
"""Side colours, given in order of first appearance (Tableau 10)."""
NO_SIDE: Final = "#9e9e9e"
MAX_SHOWN_DENOMINATOR: Final = 10**6
"""Tooltips show the exact fraction only up to this denominator (explosions make huge
ones)."""
CHAR_WIDTH: Final = 0.6
"""Average glyph width as a fraction of the font size (layout estimate)."""
PHONE_COLUMN: Final = 340.0
"""Width (CSS px) of the text column on a 390 px phone: the book scales every chart
down to its column, keeping proportions."""
MIN_TEXT_PX: Final = 12.0
"""The smallest text a reader sees on a chart, in CSS px, once it is scaled to
:data:`PHONE_COLUMN` (tests/faces/book/test_render.py)."""


# Characters XML 1.0 cannot carry, even escaped: replaced by U+FFFD.
_NOT_XML: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _esc(text: object) -> str:
    return html.escape(_NOT_XML.sub("\ufffd", str(text)), quote=True)


def _prose(text: object) -> str:
    """Text a reader sees (a label, a title, a tooltip, a cell): French typography
    (:func:`escarmouche.text.typo.typographie`), then escaped."""
    return _esc(typographie(str(text)))


def _n(value: float) -> str:
    """A coordinate: at most two decimals, no trailing zeros, never ``-0``."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _probability(p: Fraction) -> str:
    """« 12,5 % (1/8) »; the fraction is left out when it is too long to read."""
    if p.denominator <= MAX_SHOWN_DENOMINATOR:
        return f"{percent(p)} ({fraction(p)})"
    return percent(p)


#: the most bars, rows or boxes a chart draws: its cost is bounded by its output
MAX_ITEMS: Final = 2000
#: the widest range of outcomes a distribution chart spans (one slot per integer)
MAX_SPAN: Final = 10_000
#: the longest label or title
MAX_LABEL: Final = 200


def _chance(value: object, field: str) -> Fraction:
    """A probability in [0, 1] (int, float or Fraction; no bool, NaN or infinity)."""
    if (isinstance(value, bool) or not isinstance(value, int | float | Fraction)
            or (isinstance(value, float) and not math.isfinite(value))
            or not 0 <= value <= 1):
        shown = value if isinstance(value, int | float | Fraction) else "…"
        raise invalid(field, shown, "CORE-ERR", "une probabilité entre 0 et 1 est attendue")
    return Fraction(value)


def _label(value: object, field: str) -> str:
    if not isinstance(value, str) or len(value) > MAX_LABEL:
        raise invalid(field, value, "CORE-ERR",
                      f"un texte d’au plus {MAX_LABEL} caractères est attendu")
    return value


def _count(items: Sized, field: str) -> None:
    if len(items) > MAX_ITEMS:
        raise invalid(field, len(items), "CORE-ERR",
                      f"au plus {number(MAX_ITEMS)} éléments sur un graphique")


def _size(value: object, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 100 <= value <= 4000:
        raise invalid(field, value, "CORE-ERR", "une taille entre 100 et 4000 pixels est "
                      "attendue")
    return value


def _ink(background: str) -> str:
    """Black or white text, whichever reads better on ``background`` (``#rrggbb``)."""
    r, g, b = (int(background[i : i + 2], 16) for i in (1, 3, 5))
    return TEXT if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def legible_scale(width: float, smallest: float = 11.0) -> float:
    """The factor by which a chart ``width`` units wide multiplies its font sizes (and
    the room around its text) so that its ``smallest`` text still renders at
    :data:`MIN_TEXT_PX` once the chart is scaled down to :data:`PHONE_COLUMN` (and
    at least that size on a chart narrower than the column); rounded up to 0.01.

    >>> legible_scale(300), legible_scale(400), legible_scale(300, smallest=12)
    (1.1, 1.29, 1.0)
    """
    raw = MIN_TEXT_PX * max(width, PHONE_COLUMN) / (PHONE_COLUMN * smallest)
    return max(1.0, math.ceil(round(raw * 100, 6)) / 100)


def _text_width(text: str, size: float) -> float:
    return len(text) * size * CHAR_WIDTH


def _wrap(text: str, size: float, room: float) -> list[str]:
    """``text`` cut between words into lines of at most ``room`` (estimated) width."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and _text_width(f"{lines[-1]} {word}", size) <= room:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines or [""]


def _svg_open(width: float, height: float, title: str) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" height="{_n(height)}" '
        f'viewBox="0 0 {_n(width)} {_n(height)}" role="img" aria-label="{_prose(title)}" '
        f'font-family="{_esc(FONT)}" fill="{TEXT}">',
        f"<title>{_prose(title)}</title>",
        f'<rect x="0" y="0" width="{_n(width)}" height="{_n(height)}" fill="#ffffff"/>',
    ]


def _text(
    x: float,
    y: float,
    text: str,
    *,
    size: float = 12,
    anchor: str = "start",
    fill: str | None = None,
    weight: str | None = None,
    extra: str = "",
) -> str:
    attrs = f'x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}"'
    if anchor != "start":
        attrs += f' text-anchor="{anchor}"'
    if fill:
        attrs += f' fill="{fill}"'
    if weight:
        attrs += f' font-weight="{weight}"'
    if extra:
        attrs += " " + extra
    return f"<text {attrs}>{_prose(text)}</text>"


def _nice_percent_step(top: Fraction, max_ticks: int = 5) -> Fraction:
    """A step (as a probability) for the y grid: 0,1 / 0,2 / 0,5 / 1 / 2 / 2,5 / 5 … %."""
    for pct in ("0.1", "0.2", "0.5", "1", "2", "2.5", "5", "10", "20", "25", "50"):
        step = Fraction(pct) / 100
        if top / step <= max_ticks:
            return step
    return Fraction(1, 2)


def _nice_int_step(span: int, room: int) -> int:
    """The smallest 1, 2, 5 × 10^k step giving at most ``room`` labels over ``span``."""
    room = max(room, 1)
    scale = 1
    while True:
        for m in (1, 2, 5):
            step = m * scale
            if math.ceil(span / step) <= room:
                return step
        scale *= 10


def _clip_tails(
    items: list[tuple[int, Fraction]], tail: Fraction
) -> tuple[list[tuple[int, Fraction]], Fraction]:
    """Drop outcomes from each end while the mass dropped on that side stays <= tail."""
    lo, hi = 0, len(items)
    dropped = Fraction(0)
    mass = Fraction(0)
    while lo < hi - 1 and mass + items[lo][1] <= tail:
        mass += items[lo][1]
        lo += 1
    dropped += mass
    mass = Fraction(0)
    while hi - 1 > lo and mass + items[hi - 1][1] <= tail:
        mass += items[hi - 1][1]
        hi -= 1
    dropped += mass
    return items[lo:hi], dropped


def distribution_svg(
    dist: Mapping[int, Fraction],
    *,
    title: str,
    xlabel: str = "Résultat",
    highlight: Callable[[int], bool] | None = None,
    width: int = 400,
    height: int = 320,
    tail: Fraction | None = None,
) -> str:
    """A vertical bar chart of an exact distribution (outcome -> probability).

    One bar per integer between the smallest and the largest outcome (missing totals,
    such as those an exploding die skips, leave a gap), each with a ``<title>``
    tooltip ``« 7 : 16,7 % (1/6) »``. Bars whose outcome satisfies ``highlight`` are
    drawn in the accent colour and their total probability is written under the
    title (« En évidence : … »). X labels are thinned to a 1/2/5 × 10^k step so that
    they never overlap, even for hundreds of outcomes. A non-zero bar is at least
    1 px high so that its tooltip can be reached.

    ``tail`` (e.g. ``Fraction(1, 1000)``) drops the extreme outcomes of each side as
    long as their mass on that side stays within ``tail`` (long explosion tails); the
    mass not shown is then stated on the chart.

    >>> from escarmouche.dice import distribution
    >>> svg = distribution_svg(distribution("1d6"), title="Un d6", highlight=lambda v: v >= 5)
    >>> import re
    >>> bars = re.findall(r'fill="(#[0-9a-f]+)"><title>(\\d)\\s: ', svg)
    >>> [(face, "accent" if colour == ACCENT else "barre") for colour, face in bars]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('1', 'barre'), ('2', 'barre'), ('3', 'barre'), ('4', 'barre'), ('5', 'accent'),
     ('6', 'accent')]
    >>> "En évidence\u00a0: 33,3" in svg  # typeset: a no-break space before « : »
    True
    """
    _label(title, "titre")
    _label(xlabel, "légende")
    _size(width, "largeur")
    _size(height, "hauteur")
    if not isinstance(dist, Mapping):
        raise invalid("distribution", dist, "CORE-ERR", "un dictionnaire valeur → "
                      "probabilité est attendu")
    _count(dist, "distribution")
    for k in dist:
        if isinstance(k, bool) or not isinstance(k, int) or abs(k) > 10**9:
            raise invalid("distribution", k, "CORE-ERR", "des valeurs entières sont attendues")
    items = sorted((k, _chance(v, f"probabilité de {number(k) if isinstance(k, int) else k}"))
                   for k, v in dist.items())
    if items and items[-1][0] - items[0][0] >= MAX_SPAN:
        raise invalid("distribution", items[-1][0] - items[0][0], "CORE-ERR",
                      f"l’écart entre la plus petite et la plus grande valeur dépasse "
                      f"{number(MAX_SPAN)}")
    if tail is not None:
        tail = _chance(tail, "queues")
    hidden = Fraction(0)
    if tail is not None and items:
        items, hidden = _clip_tails(items, Fraction(tail))
    zoom = legible_scale(width)  # every text at least MIN_TEXT_PX on a phone
    top_margin = (34.0 + (18 if highlight is not None else 0) + (16 if hidden else 0)) * zoom
    left, right, bottom = 58.0 * zoom, 16.0, 50.0 * zoom
    plot_w = max(width - left - right, 10.0)
    plot_h = max(height - top_margin - bottom, 10.0)
    out = _svg_open(width, height, title)
    out.append(_text(width / 2, 22 * zoom, title, size=15 * zoom, anchor="middle", weight="bold"))
    line_y = 22.0 * zoom
    if highlight is not None:
        line_y += 18 * zoom
        chosen = sum((p for k, p in items if highlight(k)), Fraction(0))
        out.append(
            _text(width / 2, line_y, f"En évidence : {percent(chosen)}", size=12 * zoom,
                  anchor="middle", fill=ACCENT)
        )  # fmt: skip
    if hidden:
        line_y += 16 * zoom
        out.append(
            _text(width / 2, line_y, f"Non affiché (queues) : {percent(hidden)}", size=11 * zoom,
                  anchor="middle", fill=MUTED)
        )  # fmt: skip
    if not items:
        out.append(_text(width / 2, top_margin + plot_h / 2, "Aucun résultat", anchor="middle",
                         size=12 * zoom, fill=MUTED))  # fmt: skip
        out.append("</svg>")
        return "\n".join(out)

    lo, hi = items[0][0], items[-1][0]
    slots = hi - lo + 1
    pmax = max(p for _, p in items)
    step = _nice_percent_step(pmax if pmax > 0 else Fraction(1, 100))
    ticks = max(1, math.ceil(pmax / step)) if pmax > 0 else 1
    ymax = step * ticks
    y0 = top_margin + plot_h
    tick_digits = 0 if (step * 100).denominator == 1 else 1

    # Horizontal grid and y labels.
    out.append('<g class="axe-y">')
    for i in range(ticks + 1):
        y = y0 - plot_h * i / ticks
        out.append(
            f'<line x1="{_n(left)}" y1="{_n(y)}" x2="{_n(left + plot_w)}" y2="{_n(y)}" '
            f'stroke="{GRID}" stroke-width="1"/>'
        )
        out.append(_text(left - 6, y + 4 * zoom, percent(step * i, tick_digits), size=11 * zoom,
                         anchor="end", fill=MUTED))  # fmt: skip
    out.append("</g>")

    # Bars.
    slot_w = plot_w / slots
    bar_w = slot_w * 0.8 if slot_w >= 4 else slot_w
    out.append('<g class="barres">')
    for outcome, p in items:
        h = float(p / ymax) * plot_h if ymax else 0.0
        if p > 0:
            h = max(h, 1.0)
        x = left + (outcome - lo) * slot_w + (slot_w - bar_w) / 2
        fill = ACCENT if highlight is not None and highlight(outcome) else BAR
        tip = f"{number(outcome)} : {_probability(p)}"
        out.append(
            f'<rect x="{_n(x)}" y="{_n(y0 - h)}" width="{_n(bar_w)}" height="{_n(h)}" '
            f'fill="{fill}"><title>{_prose(tip)}</title></rect>'
        )
    out.append("</g>")

    # X axis, thinned labels and axis title.
    out.append('<g class="axe-x">')
    out.append(
        f'<line x1="{_n(left)}" y1="{_n(y0)}" x2="{_n(left + plot_w)}" y2="{_n(y0)}" '
        f'stroke="{MUTED}" stroke-width="1"/>'
    )
    label_w = max(len(str(lo)), len(str(hi))) * 11 * zoom * CHAR_WIDTH + 10
    xstep = _nice_int_step(slots, int(plot_w // label_w))
    labelled = list(range(lo + (-lo) % xstep, hi + 1, xstep)) or [lo]
    for v in labelled:
        x = left + (v - lo + 0.5) * slot_w
        out.append(
            f'<line x1="{_n(x)}" y1="{_n(y0)}" x2="{_n(x)}" y2="{_n(y0 + 4)}" '
            f'stroke="{MUTED}" stroke-width="1"/>'
        )
        out.append(_text(x, y0 + 16 * zoom, number(v), size=11 * zoom, anchor="middle",
                         fill=MUTED))  # fmt: skip
    out.append(_text(left + plot_w / 2, y0 + 38 * zoom, xlabel, size=12 * zoom, anchor="middle"))
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)


def outcome_bars_svg(
    items: Sequence[tuple[str, Fraction]],
    *,
    title: str,
    width: int = 400,
) -> str:
    """Horizontal bars for named outcomes (« raté », « paré », « touché à la tête » …).

    Each bar is drawn on a 0–100 % track (so bars of a partition add up visually),
    with its percentage written after it and a ``<title>`` tooltip
    ``« paré : 12,5 % (1/8) »``. A value outside 0–1 is refused (CORE-ERR).

    >>> import re
    >>> svg = outcome_bars_svg([("raté", Fraction(3, 4)), ("touché", Fraction(1, 4))],
    ...                        title="Issue de l’attaque")
    >>> [t.replace("\u202f", " ") for t in re.findall(r"<title>([^<]*)</title>", svg)]
    ['Issue de l’attaque', 'raté : 75,0 % (3/4)', 'touché : 25,0 % (1/4)']
    """
    _label(title, "titre")
    _size(width, "largeur")
    _count(items, "issues")
    items = [(_label(label, "issue"), _chance(value, f"probabilité de « {label} »"))
             for label, value in items]
    k = legible_scale(width, smallest=12.0)  # every text at least MIN_TEXT_PX on a phone
    size = 12.0 * k
    row_h, bar_h = 28.0 * k, 18.0 * k
    # a title wider than the chart wraps between words (never cut at both ends)
    title_lines = _wrap(title, 15 * k, width - 24)
    top = 40.0 * k + 20 * k * (len(title_lines) - 1)
    longest = max((_text_width(label, size) for label, _ in items), default=0.0)
    label_w = min(longest + 12, width * 0.45)
    value_w = 70.0 * k
    track_x = 12 + label_w
    track_w = max(width - track_x - value_w - 12, 20.0)
    height = top + row_h * max(len(items), 1) + 12
    out = _svg_open(width, height, title)
    for i, line in enumerate(title_lines):
        out.append(_text(width / 2, (22 + 20 * i) * k, line, size=15 * k, anchor="middle",
                         weight="bold"))
    if not items:
        out.append(_text(width / 2, top + row_h / 2, "Aucun résultat", anchor="middle",
                         size=size, fill=MUTED))  # fmt: skip
    for i, (label, value) in enumerate(items):
        p = Fraction(value)  # a float is taken at its exact binary value
        y = top + i * row_h
        bar_y = y + (row_h - bar_h) / 2
        share = min(max(p, Fraction(0)), Fraction(1))
        tip = f"{label} : {_probability(p)}"
        out.append(f'<g class="issue"><title>{_prose(tip)}</title>')
        out.append(_text(track_x - 8, bar_y + 13 * k, label, size=size, anchor="end"))
        out.append(
            f'<rect x="{_n(track_x)}" y="{_n(bar_y)}" width="{_n(track_w)}" '
            f'height="{_n(bar_h)}" fill="{TRACK}"/>'
        )
        out.append(
            f'<rect x="{_n(track_x)}" y="{_n(bar_y)}" width="{_n(float(share) * track_w)}" '
            f'height="{_n(bar_h)}" fill="{BAR}"/>'
        )
        out.append(_text(track_x + track_w + 6, bar_y + 13 * k, percent(p), size=size))
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)


def timeline_svg(
    turns: Sequence[tuple[str, Sequence[str]]],
    *,
    title: str,
    sides: Mapping[str, str] | None = None,
) -> str:
    """One row per turn (« Tour 0 », « Tour 1 » …), one box per activation, in order.

    ``sides`` maps an actor's name to its side: boxes are coloured by side (colours
    given in order of first appearance, a legend lists them); actors without a side
    are grey. Each box has a ``<title>`` tooltip (« Tour 1, rang 2 : Alice,
    camp PJ »). An empty turn shows « (personne) ». Made for a phone
    (tests/faces/book/test_render.py): a turn's boxes wrap onto more lines past
    :data:`PHONE_COLUMN`, long turn labels stand on a line above their boxes and a long
    title wraps, so that the chart is not scaled down there and its text stays at 12 px.

    >>> import re
    >>> svg = timeline_svg([("Tour 0", ["Aldric"]), ("Tour 1", ["Grolk", "Aldric"])],
    ...                    title="Ordre d’action", sides={"Aldric": "PJ", "Grolk": "Orques"})
    >>> for tip in re.findall(r"<title>([^<]*)</title>", svg)[1:]:
    ...     print(tip)
    Tour 0, rang 1 : Aldric, camp PJ
    Tour 1, rang 1 : Grolk, camp Orques
    Tour 1, rang 2 : Aldric, camp PJ
    """
    _label(title, "titre")
    _count(turns, "tours")
    _count([a for _, actors in turns for a in actors], "activations")
    for label, actors in turns:
        _label(label, "tour")
        for actor in actors:
            _label(actor, "activation")
    sides = sides or {}
    size = 12.0
    row_h, box_h, gap = 34.0, 24.0, 6.0
    top = 40.0
    label_w = max((_text_width(label, size) for label, _ in turns), default=0.0) + 16
    # long turn labels (a system's title) go on a line of their own, above the boxes
    stacked = label_w > PHONE_COLUMN * 0.35
    indent = 0.0 if stacked else label_w

    colours: dict[str, str] = {}
    for _, actors in turns:
        for actor in actors:
            side = sides.get(actor)
            if side is not None and side not in colours:
                colours[side] = PALETTE[len(colours) % len(PALETTE)]

    # a turn's boxes wrap onto more lines past the width of a phone column, so that
    # the chart is never scaled down there (its text stays at 12 px)
    limit = max(PHONE_COLUMN, 12 + indent + max(
        (_text_width(a, size) + 16 for _, actors in turns for a in actors), default=0.0) + 12)
    title_lines = _wrap(title, 15, limit - 24)
    top += 20 * (len(title_lines) - 1)
    rows: list[list[tuple[float, int, float, str]]] = []
    lines: list[int] = []
    widest = 0.0
    for _, actors in turns:
        x, line = 12 + indent, 1 if stacked else 0
        row: list[tuple[float, int, float, str]] = []
        for actor in actors:
            w = _text_width(actor, size) + 16
            if row and x + w + 12 > limit:
                x, line = 12 + indent, line + 1
            row.append((x, line, w, actor))
            x += w + gap
            widest = max(widest, x - gap)
        rows.append(row)
        lines.append(line + 1)
    legend: list[tuple[float, int, str, str]] = []
    x, line = 12.0, 0
    for side, colour in colours.items():
        w = 16 + _text_width(side, 12) + 16
        if legend and x + w > limit:
            x, line = 12.0, line + 1
        legend.append((x, line, side, colour))
        x += w
    width = max(widest + 12, *(_text_width(t, 15) + 24 for t in title_lines), 320.0)
    legend_h = 22.0 * (line + 1) + 8 if colours else 0.0
    body_h = row_h * max(sum(lines), 1)
    height = top + body_h + legend_h + 10

    out = _svg_open(width, height, title)
    for i, text in enumerate(title_lines):
        out.append(_text(width / 2, 22 + 20 * i, text, size=15, anchor="middle",
                         weight="bold"))  # fmt: skip
    y = top
    for (label, _), row, height_in_lines in zip(turns, rows, lines, strict=True):
        first_y = y + (row_h - box_h) / 2
        out.append('<g class="tour">')
        out.append(_text(12, first_y + 16, label, size=size, weight="bold"))
        if not row:
            out.append(_text(12 + indent, first_y + 16 + (row_h if stacked else 0),
                             "(personne)", size=size, fill=MUTED,
                             extra='font-style="italic"'))  # fmt: skip
        for j, (x, line, w, actor) in enumerate(row):
            box_y = first_y + line * row_h
            side = sides.get(actor)
            fill = colours[side] if side is not None else NO_SIDE
            tip = f"{label}, rang {j + 1} : {actor}"
            if side is not None:
                tip += f", camp {side}"
            out.append(f"<g><title>{_prose(tip)}</title>")
            out.append(
                f'<rect x="{_n(x)}" y="{_n(box_y)}" width="{_n(w)}" height="{_n(box_h)}" '
                f'rx="4" fill="{fill}"/>'
            )
            out.append(_text(x + w / 2, box_y + 16, actor, size=size, anchor="middle",
                             fill=_ink(fill)))  # fmt: skip
            out.append("</g>")
        out.append("</g>")
        y += row_h * height_in_lines
    if colours:
        base = top + body_h + 8
        out.append('<g class="legende">')
        for x, line, side, colour in legend:
            ly = base + 22 * line
            out.append(
                f'<rect x="{_n(x)}" y="{_n(ly)}" width="12" height="12" rx="2" fill="{colour}"/>'
            )
            out.append(_text(x + 16, ly + 10, side, size=12))
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)


def _cell(value: object) -> tuple[str, bool]:
    """(escaped text, is numeric) of a table cell."""
    if isinstance(value, bool):
        return ("oui" if value else "non"), False
    if isinstance(value, int | float | Fraction):
        return _esc(number(value)), True
    return _prose(value), False


def html_table(
    headers: Sequence[str],
    rows: Sequence[Sequence[object]],
    *,
    caption: str | None = None,
) -> str:
    """A small escaped HTML table (class ``escarmouche-table``).

    Cells: text as is (escaped); ``bool`` as « oui »/« non »; numbers through
    :func:`~escarmouche.text.fmt.number` and right-aligned (format probabilities
    with :func:`~escarmouche.text.fmt.percent` first). Every row must have as many
    cells as there are headers.

    >>> print(html_table(["Nom", "PV", "Debout"], [["Aldric", 12, True], ["<Grolk>", 0, False]],
    ...                  caption="État"))
    <table class="escarmouche-table">
    <caption>État</caption>
    <thead><tr><th>Nom</th><th>PV</th><th>Debout</th></tr></thead>
    <tbody>
    <tr><td>Aldric</td><td style="text-align:right">12</td><td>oui</td></tr>
    <tr><td>&lt;Grolk&gt;</td><td style="text-align:right">0</td><td>non</td></tr>
    </tbody>
    </table>
    >>> html_table(["Nom", "PV"], [["Aldric"]])  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
      ...
    escarmouche.errors.ParameterError: Valeur « 1 cellule » refusée pour « ligne 1 du tableau »
    : 2 cellules sont attendues, une par en-tête (CORE-ERR).
    """
    out = ['<table class="escarmouche-table">']
    if caption is not None:
        out.append(f"<caption>{_prose(caption)}</caption>")
    out.append("<thead><tr>" + "".join(f"<th>{_prose(h)}</th>" for h in headers) + "</tr></thead>")
    out.append("<tbody>")
    for i, row in enumerate(rows):
        if len(row) != len(headers):
            raise invalid(f"ligne {i + 1} du tableau", plural(len(row), "cellule"), "CORE-ERR",
                          f"{plural(len(headers), 'cellule')} sont attendues, une par "
                          "en-tête")
        cells = []
        for value in row:
            text, numeric = _cell(value)
            style = ' style="text-align:right"' if numeric else ""
            cells.append(f"<td{style}>{text}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody>")
    out.append("</table>")
    return "\n".join(out)
