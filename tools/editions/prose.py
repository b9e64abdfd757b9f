"""Prose that contradicts its edition: what the edition check finds in the book before
an edition is published.

The book's numbers come from the engine (``{{ name }}`` substitutions, filled from the
option declarations), so a changed default reaches a rule's statement by itself. What
a person typed by hand does not. Two faults are found by comparing the last published
snapshot with the book now (:class:`~escarmouche.editions.data.Snapshot`):

- **a stale statement**: an option changed, and the statement of one of its rules, as
  the book gives it, writes the old value and never the new one (« qu’une parade »
  when the option went from 1 to 2);
- **a refusal that is gone**: a book example printed a refusal in the last edition and
  prints none now, while the text just before it still announces one.

>>> from escarmouche.editions.data import Change, Snapshot
>>> change = Change("option-default", ("D100-PARRY-3",), "Deux parades.", "d100",
...                 "parades_par_round", 1, 2)
>>> text = {"D100-PARRY-3": "Un personnage ne peut tenter qu’une parade par round."}
>>> old = Snapshot({}, text, {})
>>> [p.rule for p in contradictions(old, old, [change])]
['D100-PARRY-3']
>>> new = Snapshot({}, {"D100-PARRY-3": "… que deux parades par round."}, {})
>>> contradictions(old, new, [change])
[]
>>> contradictions(new, new, [change])
[]
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path

from escarmouche.editions.data import Change, Snapshot
from escarmouche.text.fmt import WORDS, de, quote

__all__ = ["Contradiction", "ToReview", "announces_refusal", "box_forms", "contradictions",
           "example_lead_ins", "examples_to_review", "label_forms", "old_value_forms"]


@dataclasses.dataclass(frozen=True, slots=True)
class Contradiction:
    """A place of the book that contradicts the edition: the rule ID or the example
    (``page#n``), and the French reason with what to do."""

    rule: str
    reason: str

    def __str__(self) -> str:
        return f"{self.rule}\u00a0: {self.reason}"


def _phrase(words: str) -> re.Pattern[str]:
    """``words`` as a whole phrase: no letter or digit just before or after it (``\\b``
    would never match after a label ending in « ) »)."""
    return re.compile(rf"(?<![\w]){re.escape(words)}(?![\w])", re.I)


def label_forms(label: str) -> list[str]:
    """The ways a sentence writes a value label: whole, without its letter « (a) », its
    head before « : » and without a closing parenthesis (« au début de son propre tour
    (édition originale) » → « au début de son propre tour »); forms shorter than six
    letters are left out (too common to tell).

    >>> label_forms("au début de son propre tour (édition originale)")
    ['au début de son propre tour (édition originale)', 'au début de son propre tour']
    >>> label_forms("(a) dégâts maximum")
    ['dégâts maximum']
    >>> label_forms("le meneur : le premier nommé de chaque groupe")[1:]
    ['le meneur', 'le premier nommé de chaque groupe']
    """
    whole = re.sub(r"^\([a-z]\)\s*", "", label).strip()
    forms = [whole]
    if " : " in whole:
        forms += [part.strip() for part in whole.split(" : ", 1)]
    forms += [re.sub(r"\s*\([^()]*\)$", "", f).strip() for f in list(forms)]
    out: list[str] = []
    for f in forms:
        if len(f) >= 6 and f not in out:
            out.append(f)
    return out


def box_forms(value: object, box: str, label: str = "") -> list[str]:
    """The words an « Interprétation retenue » box uses for a text value: in the item or
    sentence of the box that names the value's key (« (`"plus_faible"`) ») or sets one of
    its ``label``'s forms in bold (« **défavorable aux attaquants** », since reader text
    names no engine value), its bold words and its runs of four words (« la plus faible
    DIS »).

    >>> box = '- par défaut, **défavorable** : la plus faible DIS (`"plus_faible"`) ;\\n- ou x.'
    >>> box_forms("plus_faible", box)[:2]
    ['défavorable', 'par défaut, défavorable :']
    >>> box_forms("plus_faible", "- **défavorable** : la plus faible DIS ;", "défavorable (x)")[1]
    'défavorable : la plus'
    """
    if not isinstance(value, str) or len(value) < 3:
        return []
    heads = [f"**{form}**" for form in label_forms(label)] if label else []
    out: list[str] = []
    for part in re.split(r"\n\s*-\s+|(?<=[.;])\s+", box):
        part = re.sub(r"^\s*-\s+", "", part)
        if not (re.search(rf"[`\"]{re.escape(value)}[`\"]", part)
                or any(head in part for head in heads)):
            continue
        out += re.findall(r"\*\*([^*]{6,})\*\*", part)
        plain = re.sub(r"\([^()]*\)|[*`]", "", part)
        words = plain.split()
        out += [" ".join(words[i:i + 4]) for i in range(len(words) - 3)
                if sum(len(w) for w in words[i:i + 4]) >= 14]
    return list(dict.fromkeys(out))


def old_value_forms(value: object, label: str = "", box: str = ""
                    ) -> list[re.Pattern[str]]:
    """How the prose may write ``value`` by hand: a whole number in figures, in words
    from two on (« deux »), and one as « qu’une », « un seul » or « une seule » (plain
    « un » is an article too often to tell); a text value by its key in quotes
    (`` `"moyenne"` ``), by its French ``label`` and the label's short forms
    (:func:`label_forms`), and by the words the rule's ``box`` uses for it
    (:func:`box_forms`). Booleans have no form.

    >>> [p.pattern for p in old_value_forms(2)]
    ['(?<![\\\\w,])2(?![\\\\w,])', '\\\\bdeux\\\\b']
    >>> old_value_forms(True)
    []
    >>> bool(old_value_forms("debut_de_son_tour",
    ...      "au début de son propre tour (édition originale)")[1].search(
    ...      "revient au début de son propre tour (édition originale)."))
    True
    """
    if isinstance(value, bool) or value is None:
        return []
    if isinstance(value, int):
        forms = [re.compile(rf"(?<![\w,]){abs(value)}(?![\w,])")]
        if value == 1:
            forms.append(re.compile(r"\bqu[’']une?\b|\bune? seule?\b", re.I))
        elif 2 <= value < len(WORDS):
            forms.append(re.compile(rf"\b{WORDS[value]}\b", re.I))
        return forms
    if not isinstance(value, str):
        return []
    out = [re.compile(rf"[`\"]{re.escape(value)}[`\"]")]
    out += [_phrase(f) for f in label_forms(label) + box_forms(value, box, label)]
    return out


def _default_clauses(text: str) -> str:
    """The items and sentences of ``text`` that say what is done « par défaut », or the
    whole text when none does: where a box or a statement names the default."""
    parts = [p for p in re.split(r"\n\s*-\s+|(?<=[.;])\s+", text)
             if re.search(r"\bpar défaut\b", p, re.I)]
    return " ".join(parts) if parts else text


#: a text that announces a refusal: « est refusé », « refusée », « un refus »
_REFUSAL_ANNOUNCED = re.compile(r"\brefus(?:é|ée|és|ées)?\b", re.I)
#: how the engine prints a refusal in an example's output
_REFUSAL_SHOWN = re.compile(r"\bRefus\b|\brefusé", re.I)


def announces_refusal(text: str) -> bool:
    """Whether a paragraph says that the example after it is refused.

    >>> announces_refusal("La seconde parade est refusée :"), announces_refusal("Il pare.")
    (True, False)
    """
    return bool(_REFUSAL_ANNOUNCED.search(text))


def contradictions(before: Snapshot, after: Snapshot, changes: Sequence[Change],
                   lead_ins: Mapping[str, str] | None = None,
                   boxes: Mapping[str, str] | None = None) -> list[Contradiction]:
    """The places of the book that contradict ``changes`` (see the module docstring):
    ``before`` is the last published snapshot, ``after`` the book now; ``lead_ins``
    gives, by example (``page#n``), the paragraph the book prints just before it;
    ``boxes``, by rule ID, the text of its « Interprétation retenue » box as the book
    prints it now (values filled in), checked like the statement."""
    from escarmouche.editions.odds import value_label

    out = []
    for change in changes:
        if change.kind != "option-default" or not (change.system and change.option):
            continue
        if change.before == change.after or change.flag == "no-longer-applies":
            continue
        for rule in change.rules:
            box = (boxes or {}).get(rule, "")
            old_forms = old_value_forms(change.before, value_label(
                change.system, change.option, change.before), box)
            new_forms = old_value_forms(change.after, value_label(
                change.system, change.option, change.after), box)
            for where, new in (("l’énoncé", after.texts.get(rule)), ("l’encadré", box)):
                if not new:
                    continue
                said = _default_clauses(new)
                stale = next((m.group(0) for p in old_forms if (m := p.search(said))), None)
                if stale and not any(p.search(said) for p in new_forms):
                    label = f"{change.system}.{change.option}"
                    out.append(Contradiction(rule, (
                        f"l’option {quote(label)} passe {_from_to(change, value_label)}, "
                        f"mais {where} de la règle dans le livre semble écrire l’ancienne "
                        f"valeur à la main ({quote(stale)}) et jamais la nouvelle "
                        f"({quote(_around(said, stale))})\u202f; faites-le lire la valeur du "
                        "moteur (une substitution {{ … }} de book/_ext/escarmouche_facts.py) "
                        "ou récrivez-le")))
    for cell, text in after.outputs.items():
        old_text = before.outputs.get(cell)
        if old_text is None or not _REFUSAL_SHOWN.search(old_text):
            continue
        if _REFUSAL_SHOWN.search(text):
            continue
        lead = (lead_ins or {}).get(cell, "")
        if announces_refusal(lead):
            out.append(Contradiction(cell, (
                "cet exemple affichait un refus et n’en affiche plus, mais le texte qui le "
                f"présente l’annonce toujours ({quote(lead[-90:])}) ; récrivez l’exemple "
                "ou son texte dans le jumeau book_src/")))
    return out


def _around(text: str, found: str, width: int = 90) -> str:
    """About ``width`` characters of ``text`` around ``found``."""
    at = text.find(found)
    start = max(0, at - (width - len(found)) // 2) if at >= 0 else 0
    return text[start:start + width].strip()


def _from_to(change: Change, label: object) -> str:
    """« de 1 à 2 », « de « juste après la première » à « à la fin du tour » »."""
    assert callable(label) and change.system and change.option
    before, after = (label(change.system, change.option, v)
                     for v in (change.before, change.after))
    if isinstance(change.after, str):
        return f"de {quote(before)} à {quote(after)}"
    return f"{de(before)} à {after}"


@dataclasses.dataclass(frozen=True, slots=True)
class ToReview:
    """An example (``page#n``) whose output changed on a page whose text the edition did
    not touch: its old and new output lines, for the designer to re-read (« à relire »)."""

    cell: str
    old: tuple[str, ...]
    new: tuple[str, ...]

    def __str__(self) -> str:
        def lines(side: tuple[str, ...]) -> str:
            shown = [quote(line[:120]) for line in side[:3]]
            more = len(side) - len(shown)
            return (" / ".join(shown) or "rien") + (f" (et {more} de plus)" if more > 0
                                                    else "")

        return (f"{self.cell}\u00a0: la sortie a changé, le texte de la page non ; avant "
                f"{lines(self.old)}\u202f; après {lines(self.new)}")


def examples_to_review(before: Snapshot, after: Snapshot, *,
                       touched: Collection[str] = (), reviewed: Collection[str] = ()
                       ) -> list[ToReview]:
    """Every example whose stored output differs between ``before`` (the last published
    snapshot) and ``after`` (the book now), on a page not in ``touched`` (the pages whose
    source the designer edited since), and not ``reviewed`` (marked read in the edition
    file): the changed lines only, old and new (charts left out).

    >>> old = Snapshot({}, {}, {"p#1": "DIS 40\\nmarge 20\\nsurprise", "q#1": "x"})
    >>> new = Snapshot({}, {}, {"p#1": "DIS 50\\nmarge 30\\nsurprise", "q#1": "y"})
    >>> [(r.cell, r.old, r.new) for r in examples_to_review(old, new, touched={"q"})]
    [('p#1', ('DIS 40', 'marge 20'), ('DIS 50', 'marge 30'))]
    >>> examples_to_review(old, new, reviewed={"p#1", "q#1"})
    []
    """
    out = []
    for cell, text in sorted(after.outputs.items()):
        old = before.outputs.get(cell)
        if old is None or old == text or cell in reviewed or cell.split("#")[0] in touched:
            continue
        diff = list(difflib.ndiff(old.splitlines(), text.splitlines()))
        gone = tuple(line[2:] for line in diff if line.startswith("- ")
                     and line[2:].strip() != "[graphique]")
        came = tuple(line[2:] for line in diff if line.startswith("+ ")
                     and line[2:].strip() != "[graphique]")
        if gone or came:
            out.append(ToReview(cell, gone, came))
    return out


def example_lead_ins(book: Path) -> dict[str, str]:
    """The paragraph the book prints just before each example (``page#n``, as
    :func:`~tools.editions.book.notebook_outputs` names them): the last paragraph
    of the Markdown cell above the code cell, when there is one."""
    from tools.editions.book import book_notebooks

    out: dict[str, str] = {}
    for page, nb in book_notebooks(book):
        rank, lead = 0, ""
        for cell in nb.get("cells", []):
            source = cell.get("source", "")
            source = source if isinstance(source, str) else "".join(source)
            if cell.get("cell_type") == "markdown":
                lead = source.strip().split("\n\n")[-1] if source.strip() else ""
            elif cell.get("cell_type") == "code":
                rank += 1
                if lead:
                    out[f"{page}#{rank}"] = " ".join(lead.split())
                lead = ""
    return out
