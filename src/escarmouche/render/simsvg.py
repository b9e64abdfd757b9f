"""Charts of balance simulations (:mod:`escarmouche.simulation`): one SVG document.

:func:`stack_svg` puts several charts of :mod:`escarmouche.render.svg` one under the
other in a single SVG document (nested ``<svg>`` elements), so that a balance writes to
one ``.svg`` file (``--sortie``) and shows as one image.

>>> from fractions import Fraction
>>> from escarmouche.render.svg import outcome_bars_svg
>>> bars = outcome_bars_svg([("victoire", Fraction(3, 4))], title="Issues")
>>> doc = stack_svg([bars, bars], title="Bilan")
>>> doc.startswith("<svg") and doc.count("<svg") == 3 and doc.rstrip().endswith("</svg>")
True
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from escarmouche.errors import invalid
from escarmouche.render.svg import _esc, _n

__all__ = ["stack_svg"]

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
