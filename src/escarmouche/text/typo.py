"""French typography, by one function: :func:`typographie` (alias :func:`typeset`).

Every text a reader sees goes through it once, at one place per channel: an event of the
log when it is emitted (:meth:`escarmouche.state.Ctx.emit`), an error message when it is
built (:class:`escarmouche.errors.EscarmoucheError`), a :class:`~escarmouche.render.Table`
or :class:`~escarmouche.render.Text` when it renders, an SVG chart's text, the widgets'
result HTML (:func:`typographie_html`), and every text node of the book (the Sphinx
extension ``book/_ext/escarmouche_typo.py``). Authors write ordinary spaces (or none):
« Attention: tour 2; Grolk tombe! » becomes « Attention : tour 2 ; Grolk tombe ! ».

The rules (Lexique des règles typographiques en usage à l’Imprimerie nationale):

* ``;`` ``!`` ``?`` take a narrow no-break space before them, U+202F (:data:`NNBSP`);
  a group such as ``?!`` takes one space, before the group;
* ``:`` takes a no-break space (word width) before it, U+00A0 (:data:`NBSP`);
* ``«`` is followed and ``»`` preceded by a no-break space, U+00A0;
* ``%`` after a number takes a narrow no-break space, U+202F, as
  :func:`escarmouche.text.fmt.percent` writes it (``12,5 %``): the project's choice,
  so that every percentage of the book looks the same;
* an apostrophe between two letters is the typographic one, ’ (« l’Orque »).

An ordinary space (or a wrong kind of space, or several) before the sign is replaced;
a missing one is inserted when the sign ends a word of prose (it is followed by a
space, the end of the text, or a closing quote or bracket), except inside « … », which
quotes a value as it was given (an error message shows « 5! » as typed). What is not
prose is left as it is: URLs (``http://…``, ``www.…``), e-mail addresses, HTML entities (``&lt;``),
inline code in backquotes, ``::``, emoticons (``:)``, ``;-)``), exploding dice
(``1d6!``), and any sign followed by something else than a space, so times and ratios
(``12:30``, ``3:1``), query strings (``?q=1``), ``!=`` and ``a:b`` are untouched.
Newlines are never joined or removed. The function is idempotent.

>>> typographie("Attention: tour 2; Grolk tombe!") == (
...     "Attention\u00a0: tour 2\u202f; Grolk tombe\u202f!")
True
>>> typographie("« Thorin »") == "«\u00a0Thorin\u00a0»"
True
>>> typographie("« Æ\x1f »") == "«\u00a0Æ\x1f\u00a0»"  # a control character typed is text
True
>>> typographie("12:30, 3:1, http://x.fr/?q=1, 1d6! et :)")
'12:30, 3:1, http://x.fr/?q=1, 1d6! et :)'
>>> typographie("50% de l'Orque") == "50\u202f% de l’Orque"
True
>>> t = typographie("Vraiment ?! Oui:  « non » .")
>>> t == "Vraiment\u202f?! Oui\u00a0:  «\u00a0non\u00a0» ."
True
>>> typographie(t) == t
True
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection, Iterator
from typing import Final

__all__ = [
    "NBSP",
    "NNBSP",
    "RAW_ELEMENTS",
    "html_pieces",
    "in_context",
    "typeset",
    "typeset_html",
    "typeset_print",
    "typographie",
    "typographie_html",
    "typographie_markdown",
]

NBSP: Final = "\u00a0"
"""No-break space (word width): before ``:`` and inside « »."""
NNBSP: Final = "\u202f"
"""Narrow no-break space: before ``;`` ``!`` ``?`` and ``%``."""

#: stands for a protected span (URL, code…) while the rules run: a word character
_MARK: Final = "\ue000"

#: what every dice token holds, and every emoticon (:data:`_PROTECTED_PARTS`)
_DIE = re.compile(r"[dD](?:[0-9]|%)")
_EMOTICON = re.compile(r"[:;]-?[()\[\]DPpOo|/\\]")
#: the tokens that are not prose, each with a cheap test of whether the text may hold
#: one (most texts hold none, and one regular expression per token is faster than
#: an alternation tried at every position)
_PROTECTED_PARTS: tuple[tuple[Callable[[str], object], str], ...] = (
    (lambda t: _MARK in t, _MARK),
    (lambda t: "`" in t, r"`[^`\n]*`"),                                       # inline code
    (lambda t: "://" in t, r"\b[A-Za-z][A-Za-z0-9+.\-]*://[^\s<>«»\"]*[^\s<>«»\".,;:!?)]"),
    (lambda t: "www." in t, r"\bwww\.[^\s<>«»\"]*[^\s<>«»\".,;:!?)]"),
    (lambda t: "@" in t, r"[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+"),                 # e-mail
    (lambda t: "&" in t, r"&(?:[A-Za-z][A-Za-z0-9]*|\#[0-9]+|\#[xX][0-9A-Fa-f]+);"),
    (lambda t: "::" in t, r"::+"),                                              # reST, C++
    # (the last two are tested by a search of what any match holds, a sign then a
    # face, a d then a digit or %: one scan in C, where the token's own pattern tried
    # at every word was most of the cost of typesetting a sentence of the log)
    (lambda t: _EMOTICON.search(t),
     r"(?<![\w\ue000])[:;]-?[()\[\]DPpOo|/\\](?![\w])"),                       # emoticon
    (lambda t: ("!" in t or "%" in t or "k" in t or "K" in t) and _DIE.search(t) is not None,
     r"\b[0-9]*[dD](?:[0-9]+|%)!*(?:[kK][hHlL]?[0-9]*)?!*"),                 # dice: 1d6!
)
_PROTECTED_CACHE: dict[tuple[bool, ...], re.Pattern[str] | None] = {}


def _may_protect(text: str) -> bool:
    """Whether ``text`` holds something every token of :data:`_PROTECTED_PARTS` holds
    (false for most sentences, told by a few scans in C)."""
    return ("\ue000" in text or "`" in text or "://" in text or "www." in text
            or "@" in text or "&" in text or "::" in text
            or (("!" in text or "%" in text or "k" in text or "K" in text)
                and _DIE.search(text) is not None)
            or ((":" in text or ";" in text) and _EMOTICON.search(text) is not None))


def _protected(text: str) -> re.Pattern[str] | None:
    """The one pattern of the non-prose tokens ``text`` may hold (``None``: none)."""
    if not _may_protect(text):
        return None
    key = tuple(bool(test(text)) for test, _ in _PROTECTED_PARTS)
    if key not in _PROTECTED_CACHE:
        parts = [part for (_, part), on in zip(_PROTECTED_PARTS, key, strict=True) if on]
        _PROTECTED_CACHE[key] = re.compile("|".join(parts)) if parts else None
    return _PROTECTED_CACHE[key]


_SP = "[ \t\u00a0\u202f\u2009\u2007]"
_SPACES = frozenset(" \t\u00a0\u202f\u2009\u2007")
#: what a sign of prose is followed by: a space, the end, a closing quote or bracket
_FOLLOWERS = frozenset("»”\"’)]")
#: what a word may end with besides a letter or a digit, for a missing space to be put
_WORD_ENDS = frozenset("»)]’”…%*\ue000")
#: the signs that take a space before them (a group such as « ?! » counts as one)
_SIGNS = re.compile(r"[;!?]+|:|%")
_APOSTROPHE = re.compile(r"(?<=[^\W\d_])'(?=[^\W\d_])")
_QUOTED = re.compile(r"«[^«»\n]*»")
#: a quote's edges: any character but a space or a line break is quoted text, a control
#: character a user typed included (« Æ\x1f » is still « Æ\x1f », CORE-ERR)
_TEXT_CHAR = "[^ \t\u00a0\u202f\u2009\u2007\n\r]"
_OPEN_QUOTE = re.compile(rf"«{_SP}*(?={_TEXT_CHAR})")
_CLOSE_QUOTE = re.compile(rf"(?<={_TEXT_CHAR}){_SP}*»")


def _inside(at: int, quoted: list[tuple[int, int]]) -> bool:
    return any(a < at < b for a, b in quoted)


def _spaces_before_signs(text: str, quoted: list[tuple[int, int]]) -> str:
    """The space before each ``: ; ! ? %`` of prose: the spaces already there replaced by
    the right one, or the missing one put (not inside « », which quotes a value)."""
    out: list[str] = []
    done = 0  # text[:done] is in out
    for match in _SIGNS.finditer(text):
        sign, at, end = match.group(0), match.start(), match.end()
        if at < done:
            continue
        start = at  # the spaces before the sign: text[start:at]
        while start > done and text[start - 1] in _SPACES:
            start -= 1
        before = text[start - 1] if start > 0 else ""
        after = text[end] if end < len(text) else ""
        spaces = text[start:at]
        put = None
        if sign == "%":
            if before.isdigit() and len(spaces) <= 1 and not (after.isalnum() or after == "_") \
                    and not _inside(at, quoted):
                put = NNBSP
        elif not after or after.isspace() or after in _FOLLOWERS:
            if spaces:
                if before and not before.isspace():
                    put = NBSP if sign == ":" else NNBSP
            elif before and (before.isalnum() or before in _WORD_ENDS) \
                    and not _inside(at, quoted):
                put = NBSP if sign == ":" else NNBSP
        if put is not None:
            out.append(text[done:start])
            out.append(put + sign)
            done = end
    out.append(text[done:])
    return "".join(out)


def typographie(text: str) -> str:
    """``text`` with French typography (see the module for the rules); idempotent.

    >>> typographie("Aldric touche Grolk; 3 dégâts: il tombe!") == (
    ...     "Aldric touche Grolk\u202f; 3 dégâts\u00a0: il tombe\u202f!")
    True
    >>> typographie("`a: b` et www.escarmouche.fr: voir")  == (
    ...     "`a: b` et www.escarmouche.fr\u00a0: voir")
    True
    """
    return _typeset(text)


#: typeset texts, by their source (a pure function of the text: the same sentences and
#: refusals come back fight after fight)
@functools.lru_cache(maxsize=20_000)
def _typeset(text: str) -> str:
    if not text:
        return text
    saved: list[str] = []

    def keep(match: re.Match[str]) -> str:
        saved.append(match.group(0))
        return _MARK

    pattern = _protected(text)
    masked = pattern.sub(keep, text) if pattern else text
    quoted = [m.span() for m in _QUOTED.finditer(masked)] if "«" in masked else []
    if any(c in masked for c in ":;!?%"):
        masked = _spaces_before_signs(masked, quoted)
    if "'" in masked:
        masked = _APOSTROPHE.sub(
            lambda m: m.group(0) if _inside(m.start(), quoted) else "’", masked)
    if "«" in masked or "»" in masked:
        masked = _OPEN_QUOTE.sub("«" + NBSP, masked)
        masked = _CLOSE_QUOTE.sub(NBSP + "»", masked)
    if not saved:
        return masked
    restored = iter(saved)
    return re.sub(_MARK, lambda _m: next(restored), masked)


typeset: Callable[[str], str] = typographie
"""English alias of :func:`typographie`."""

#: elements whose text is not prose (or not shown): left as it is
#: elements whose text is not prose: left as typed
RAW_ELEMENTS: Final = ("script", "style", "code", "pre", "kbd", "samp", "textarea")
_TAG = re.compile(
    r"<(?P<close>/?)(?P<name>[A-Za-z][A-Za-z0-9-]*)[^>]*>|<!--.*?-->|<![^>]*>",
    re.DOTALL,
)
_ATTRS_READ = re.compile(r'(?P<name>\b(?:title|alt|aria-label|placeholder))="(?P<value>[^"]*)"')


def _attr(match: re.Match[str]) -> str:
    # imported on the first attribute typeset: html's table of entities takes ~90 ms to
    # build in the browser's Python, which a live page need not wait for at its start
    import html

    value = html.escape(typographie(html.unescape(match.group("value"))), quote=True)
    return f'{match.group("name")}="{value}"'


def html_pieces(markup: str, raw_elements: Collection[str] = RAW_ELEMENTS
                ) -> Iterator[tuple[str, str]]:
    """``markup`` cut into its pieces, in order: ``("text", …)`` for text a reader sees
    as prose, ``("raw", …)`` for text inside ``raw_elements`` (code, scripts, styles…),
    ``("tag", …)`` for an element's tag outside them (its readable attributes may be
    rewritten) and ``("other", …)`` for any other markup (tags inside them, comments,
    declarations). Empty texts are left out; joining the pieces gives ``markup`` back.

    >>> list(html_pieces("<p>a<code>b</code></p>"))  # doctest: +NORMALIZE_WHITESPACE
    [('tag', '<p>'), ('text', 'a'), ('other', '<code>'), ('raw', 'b'), ('tag', '</code>'),
     ('tag', '</p>')]
    """
    raw: list[str] = []  # the raw elements open around the current position
    pos = 0
    for match in _TAG.finditer(markup):
        if match.start() > pos:
            yield ("raw" if raw else "text"), markup[pos:match.start()]
        tag = match.group(0)
        name = (match.group("name") or "").lower()
        if name in raw_elements:
            if match.group("close"):
                if name in raw:
                    del raw[len(raw) - 1 - raw[::-1].index(name)]
            elif not tag.endswith("/>"):
                raw.append(name)
        yield ("tag" if name and not raw else "other"), tag
        pos = match.end()
    if pos < len(markup):
        yield ("raw" if raw else "text"), markup[pos:]


def typographie_html(markup: str) -> str:
    """:func:`typographie` applied to the text of an HTML (or SVG) fragment: to the
    text between tags and to the attributes a reader sees (``title``, ``alt``,
    ``aria-label``, ``placeholder``); tags, styles, scripts and ``<code>``/``<pre>``
    are left as they are. Idempotent.

    >>> out = typographie_html('<p style="color: red; width: 50%">Note: 50% !</p>')
    >>> out == '<p style="color: red; width: 50%">Note\u00a0: 50\u202f% !</p>'.replace(
    ...     " !", "\u202f!")
    True
    >>> typographie_html("<code>a: b</code> &lt; c") == "<code>a: b</code> &lt; c"
    True
    """
    if not markup:
        return markup
    out: list[str] = []
    texts: list[tuple[int, str]] = []  # (index in out, text) of prose to typeset
    for kind, piece in html_pieces(markup):
        if kind == "text":
            texts.append((len(out), piece))
        elif kind == "tag":
            piece = _ATTRS_READ.sub(_attr, piece)
        out.append(piece)
    # The text of one element may be split by inline tags (« <b>3</b> : »): typeset
    # each chunk with one character of its neighbours as context.
    for k, (index, chunk) in enumerate(texts):
        before = _last_char(out, index)
        after = texts[k + 1][1][:1] if k + 1 < len(texts) and texts[k + 1][0] == index + 2 \
            else ""
        out[index] = in_context(chunk, before, after)
    return "".join(out)


def _last_char(out: list[str], index: int) -> str:
    """The last character of prose before ``out[index]`` if only one inline tag sits
    between them (else no context)."""
    if index >= 2 and out[index - 1].startswith("<") and out[index - 2] \
            and not out[index - 2].startswith("<"):
        return out[index - 2][-1:]
    return ""


def in_context(text: str, before: str = "", after: str = "") -> str:
    """:func:`typographie` of ``text`` seen between the character ``before`` and the
    character ``after`` (one character each, or empty), which are not returned: for text
    split across nodes or tags (« <b>Grolk</b>: » gets its space before the colon).

    >>> in_context(": il tombe", before="k") == "\u00a0: il tombe"
    True
    >>> in_context("Grolk ", after=":") == "Grolk\u00a0"
    True
    """
    if not text:
        return text
    before, after = before[-1:], after[:1]
    # A context character that is part of an entity or a mark must not glue to the text.
    if before == _MARK:
        before = "x"
    elif before.isspace():
        before = ""
    full = typographie(before + text + after)
    return full[len(before) : len(full) - len(after)]


typeset_html: Callable[[str], str] = typographie_html
"""English alias of :func:`typographie_html`."""


_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})")
_MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$", re.DOTALL)


def typographie_markdown(source: str) -> str:
    r""":func:`typographie` applied to Markdown prose: fenced code blocks, inline code,
    math (``$…$``), HTML tags and link targets are left as they are. For the live
    (JupyterLite) copies of the book's pages, whose Markdown Sphinx does not see.

    >>> md = "**Note**: voir `a: b`.\n\n```python\nx = {1: 2}\n```\n[lien](page.md)!"
    >>> print(typographie_markdown(md).replace("\u00a0", "~").replace("\u202f", "^"))
    **Note**~: voir `a: b`.
    <BLANKLINE>
    ```python
    x = {1: 2}
    ```
    [lien](page.md)^!
    """
    out: list[str] = []
    prose: list[str] = []
    fence = ""

    def flush() -> None:
        if prose:
            text = "".join(prose)
            maths: list[str] = []

            def keep(match: re.Match[str]) -> str:
                maths.append(match.group(0))
                return f"`\ue001{len(maths) - 1}`"

            text = typographie_html(_MATH.sub(keep, text))
            out.append(re.sub(r"`\ue001(\d+)`", lambda m: maths[int(m.group(1))], text))
            prose.clear()

    for line in source.splitlines(keepends=True):
        match = _FENCE.match(line)
        if fence:
            out.append(line)
            if match and match.group(2)[0] == fence[0] and len(match.group(2)) >= len(fence):
                fence = ""
        elif match:
            flush()
            fence = match.group(2)
            out.append(line)
        else:
            prose.append(line)
    flush()
    return "".join(out)


def typeset_print(*values: object, sep: str = " ", end: str = "\n") -> None:
    """:func:`print`, with French typography: what a book page prints is typeset like
    everything else a reader sees (its pages import it as ``print``).

    >>> typeset_print("Ordre :", "Aldric, Brune") is None
    Ordre\u00a0: Aldric, Brune
    True
    """
    print(typographie(sep.join(str(v) for v in values)), end=end)
