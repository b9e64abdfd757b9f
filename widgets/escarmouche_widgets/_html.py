"""Pure HTML assembly for the demos (strings in, strings out; no ipywidgets).

Each demo renders its result as one HTML string shown by an ``ipywidgets.HTML``;
:func:`text_of` turns that string back into the plain text a reader sees (SVG charts
left out), which is what the tests and the book's checked cells print.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence
from html.parser import HTMLParser

from escarmouche.text.typo import typographie_html

__all__ = [
    "banner",
    "dice_line",
    "esc",
    "join",
    "paragraph",
    "rules_line",
    "section",
    "table",
    "text_of",
]

BOX = (
    "font-family: system-ui, sans-serif; font-size: 14px; line-height: 1.45; "
    "max-width: 760px"
)


def esc(text: object) -> str:
    """HTML-escape any value shown to the user."""
    return html.escape(str(text), quote=True)


def join(*parts: str) -> str:
    """The demo's result block: the parts one under the other, with French typography
    (:func:`escarmouche.text.typo.typographie_html`: the one place for results)."""
    return typographie_html(
        f'<div class="escarmouche-demo" style="{BOX}">' + "".join(parts) + "</div>")


def paragraph(text: str, *, raw: bool = False) -> str:
    return f"<p>{text if raw else esc(text)}</p>"


def section(title: str, body: str) -> str:
    """A titled part of a result (a bold line, not a heading: the book's theme styles
    headings large and lists them in the page's table of contents)."""
    return (f'<div style="font-weight: 600; font-size: 1.05em; margin: 0.8em 0 0.3em">'
            f"{esc(title)}</div>{body}")


def banner(message: str) -> str:
    """The error banner: the engine's French message, never a traceback."""
    if not message:
        return ""
    return typographie_html(
        '<div role="alert" style="border: 1px solid #c0392b; background: #fdecea; '
        'color: #7b1f16; padding: 0.4em 0.7em; border-radius: 4px; '
        'font-family: system-ui, sans-serif; font-size: 14px">'
        f"⚠ {esc(message)}</div>"
    )


def notice(message: str) -> str:
    """A neutral remark (e.g. unused manual dice)."""
    return typographie_html(
        '<p style="color: #555; font-style: italic; margin: 0.3em 0">'
        f"{esc(message)}</p>"
    )


def dice_line(dice: Iterable[tuple[int, int, str]], *, label: str = "Dés lancés") -> str:
    """``[(100, 37, "initiative d’Aldric"), …]`` → « Dés lancés : d100 = 37 (…) ; … »."""
    items = [
        f"d{faces} = <b>{value}</b>" + (f" ({esc(purpose)})" if purpose else "")
        for faces, value, purpose in dice
    ]
    body = " ; ".join(items) if items else "aucun"
    return f"<p>{esc(label)} : {body}</p>"


def rules_line(rule_ids: Iterable[str], *, label: str = "Règles appliquées") -> str:
    """The rule IDs that applied, in first-seen order, without repeats."""
    seen: list[str] = []
    for r in rule_ids:
        if r and r not in seen:
            seen.append(r)
    chips = " ".join(
        '<code style="background: #eef; padding: 0 0.3em; border-radius: 3px">'
        f"{esc(r)}</code>"
        for r in seen
    )
    return f"<p>{esc(label)} : {chips or 'aucune'}</p>"


def table(headers: Sequence[str], rows: Iterable[Sequence[object]], *, raw: bool = False
          ) -> str:
    """A small table; cells are escaped unless ``raw``."""
    cell = (lambda v: str(v)) if raw else esc
    head = "".join(
        f'<th style="text-align: left; padding: 2px 8px; border-bottom: 1px solid #999">'
        f"{esc(h)}</th>"
        for h in headers
    )
    body = "".join(
        "<tr>" + "".join(
            f'<td style="padding: 2px 8px; border-bottom: 1px solid #ddd">{cell(v)}</td>'
            for v in row
        ) + "</tr>"
        for row in rows
    )
    return (
        '<table style="border-collapse: collapse; margin: 0.3em 0">'
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    )


def bullet_list(items: Iterable[str], *, raw: bool = False) -> str:
    lis = "".join(f"<li>{i if raw else esc(i)}</li>" for i in items)
    return f'<ul style="margin: 0.2em 0">{lis}</ul>'


_BLOCKS = {"p", "div", "li", "tr", "h1", "h2", "h3", "h4", "h5", "table", "ul", "ol", "pre",
           "figure", "figcaption", "br", "details", "summary"}


class _TextExtractor(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0
        self._cells = 0
        #: per open <figure>: whether it holds a chart (then its caption goes with it)
        self._figures: list[bool] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "figure":
            self._figures.append(False)
        elif tag == "svg" and self._figures:
            self._figures[-1] = True
        if tag in {"svg", "style", "script"} or (
                tag == "figcaption" and self._figures and self._figures[-1]):
            self._skip += 1
        elif not self._skip:
            if tag == "li":
                self.parts.append("\n- ")
            elif tag in _BLOCKS:
                self.parts.append("\n")
                self._cells = 0
            elif tag in {"td", "th"}:
                if self._cells:
                    self.parts.append(" | ")
                self._cells += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br" and not self._skip:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag == "figure" and self._figures:
            self._figures.pop()
        if tag in {"svg", "style", "script"} or (
                tag == "figcaption" and self._figures and self._figures[-1]):
            self._skip = max(0, self._skip - 1)
        elif not self._skip and tag in _BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def text_of(markup: str) -> str:
    """The plain text a reader sees in ``markup`` (SVG, styles and scripts left out, and
    the caption of a chart left out with it)."""
    parser = _TextExtractor()
    parser.feed(markup)
    parser.close()
    # Only ASCII blanks are collapsed: U+202F (before « % ») and U+00A0 are kept.
    lines = (re.sub(r"[ \t\r\f\v]+", " ", line).strip()
             for line in "".join(parser.parts).split("\n"))
    return "\n".join(line for line in lines if line)
