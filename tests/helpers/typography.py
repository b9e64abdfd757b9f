"""The typography checker of the tests: what is wrong with a text as French typography
and narration style (spec/RELECTURE.md, R3). It is written apart from the function under
test (``escarmouche.text.typo``), so that it checks it rather than repeats it; the
typography tests (``tests/faces/book/test_typography.py``) and the proofreading tests
read every text through it.
"""

from __future__ import annotations

import re

#: tokens that are not prose: dice expressions, URLs, rule IDs, emoticons, ``::``
_NOT_PROSE = re.compile(
    r"\b\d*[dD](?:\d+|%)!*(?:[kK][hHlL]?\d*)?!*|https?://\S+|www\.\S+|\[[A-Z0-9, -]+\]"
    r"|::+|[:;]-?[()DPp](?!\w)"
)
#: the words of the rules that begin with a mute h (elided: « l’habileté »); « héros »
#: has an aspirated h (« le héros »), so a general rule on h cannot be written
_MUTE_H = "habileté|[Hh]yperactivité|[Hh]ypoactivité|heure|homme|humain"
#: words before which French does not elide (« que oui », « le onze »)
_NO_ELISION = r"(?!(?:oui|onze|onzième|yaourt|yoga)\b)"
_ELISION = re.compile(
    r"\b(?:[Dd]e|[Ll]e|[Ll]a|[Qq]ue|[Nn]e|[Ss]e|[Jj]usque|[Ll]orsque|[Pp]uisque) "
    rf"{_NO_ELISION}(?:[AEIOUYÉÈÊÀÂÎÔÛaeiouyéèêàâîôû]|(?:{_MUTE_H})\b)"
)
_QUOTED = re.compile(r"«[^«»]*»")


def problems(text: str) -> list[str]:
    """What is wrong with ``text`` as French typography and narration style (empty if
    nothing). Values quoted in « » are shown as given, so only their quotes count."""
    found: list[str] = []
    prose = _NOT_PROSE.sub("x", text)
    inner = _QUOTED.sub(lambda m: "«\u00a0x\u00a0»" if len(m.group(0)) > 2 else m.group(0),
                        prose)
    inner = re.sub(r"«\u00a0[^»]*$", "«\u00a0x", inner)  # a quotation that goes on
    if re.search(r"[^\s\u202f;!?(«][;!?]+(?=[\s»)]|$)", inner):
        found.append("no space before ; ! ?")
    if re.search(r"[ \t\u00a0][;!?]+(?=[\s»)]|$)", inner):
        found.append("a wrong space before ; ! ?")
    if re.search(r"[^\s\u00a0:][:](?=[\s»]|$)", inner):
        found.append("no space before :")
    if re.search(r"[ \t\u202f]:(?=[\s»]|$)", inner):
        found.append("a wrong space before :")
    if re.search(r"«(?!\u00a0)", prose) or re.search(r"(?<!\u00a0)»", prose):
        found.append("no no-break space inside « »")
    if re.search(r"\d[ \u00a0]?%", prose):
        found.append("no narrow no-break space before %")
    if "(s)" in text:
        found.append("« (s) » instead of agreement")
    if _ELISION.search(inner):
        found.append(f"no elision: {_ELISION.search(inner).group(0)!r}")  # type: ignore[union-attr]
    if re.search(r"= '|'\s*[:\u00a0]", inner):
        found.append("a Python quote")
    if re.search(r":[^:;.()\[\]—→«»\n]*:", inner):
        found.append("chained colons")
    if re.search(r"(?<![\w\-−+=])-\d", inner):
        found.append("hyphen-minus for a negative number")
    return found
