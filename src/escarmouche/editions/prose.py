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
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from escarmouche.editions.data import Change, Snapshot
from escarmouche.text.fmt import WORDS, de, quote

__all__ = ["Contradiction", "announces_refusal", "contradictions", "example_lead_ins",
           "old_value_forms"]


@dataclasses.dataclass(frozen=True, slots=True)
class Contradiction:
    """A place of the book that contradicts the edition: the rule ID or the example
    (``page#n``), and the French reason with what to do."""

    rule: str
    reason: str

    def __str__(self) -> str:
        return f"{self.rule}\u00a0: {self.reason}"


def old_value_forms(value: object, label: str = "") -> list[re.Pattern[str]]:
    """How the prose may write ``value`` by hand: a whole number in figures, in words
    from two on (« deux »), and one as « qu’une », « un seul » or « une seule » (plain
    « un » is an article too often to tell); a text value by its French ``label`` (the
    declaration's, without a leading « (a) »: « dégâts maximum »), not by its key, a
    common word (« maximum »). Booleans and compound values have no form.

    >>> [p.pattern for p in old_value_forms(2)]
    ['(?<![\\\\w,])2(?![\\\\w,])', '\\\\bdeux\\\\b']
    >>> old_value_forms(True)
    []
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
    words = re.sub(r"^\([a-z]\)\s*", "", label).strip()
    if isinstance(value, str) and len(words) >= 6:
        return [re.compile(rf"\b{re.escape(words)}\b", re.I)]
    return []


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
            for where, new in (("l’énoncé", after.texts.get(rule)),
                               ("l’encadré", (boxes or {}).get(rule))):
                if new is None:
                    continue
                old_forms = old_value_forms(change.before, value_label(
                    change.system, change.option, change.before))
                new_forms = old_value_forms(change.after, value_label(
                    change.system, change.option, change.after))
                stale = any(p.search(new) for p in old_forms)
                if stale and not any(p.search(new) for p in new_forms):
                    label = f"{change.system}.{change.option}"
                    out.append(Contradiction(rule, (
                        f"l’option {quote(label)} passe {_from_to(change, value_label)}, "
                        f"mais {where} de la règle dans le livre semble écrire l’ancienne "
                        f"valeur à la main et jamais la nouvelle ({quote(new[:90])}) ; "
                        "faites-le lire la valeur du moteur (une substitution {{ … }} de "
                        "book/_ext/escarmouche_facts.py) ou récrivez-le")))
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


def _from_to(change: Change, label: object) -> str:
    assert callable(label) and change.system and change.option
    return (f"{de(label(change.system, change.option, change.before))} à "
            f"{label(change.system, change.option, change.after)}")


def example_lead_ins(book: Path) -> dict[str, str]:
    """The paragraph the book prints just before each example (``page#n``, as
    :func:`~escarmouche.editions.data.notebook_outputs` names them): the last paragraph
    of the Markdown cell above the code cell, when there is one."""
    from escarmouche.editions.data import book_notebooks

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
