"""Shared validators: every value that crosses the engine's boundary is checked here.

Each validator returns the value (narrowed for the type checker) or raises the shared
French refusal of :func:`escarmouche.errors.invalid`: « Valeur X refusée pour « champ » :
pourquoi (RÈGLE). » ``label`` names the field as a reader knows it (an option's label).
``who`` names the combatant concerned (« pour Aldric »). Systems call these instead of
writing their own checks, so that the same bad value gets the same error class
(:class:`~escarmouche.errors.ParameterError`) and the same wording in every system.

>>> integer("bonus", 3, lo=-40, hi=40, rule="D12-ATK-1")
3
>>> try:
...     integer("bonus", True, lo=-40, hi=40, rule="D12-ATK-1")
... except ParameterError as err:
...     print(err)
Valeur « oui » refusée pour « bonus » : un nombre entier entre −40 et 40 est attendu (D12-ATK-1).
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Mapping, Sequence
from typing import TypeVar

from escarmouche.errors import HIDDEN, EscarmoucheError, ParameterError, invalid
from escarmouche.text.fmt import grouped, join, quote

__all__ = [
    "MAX_ITEMS",
    "MAX_TEXT",
    "choice",
    "die",
    "flag",
    "identifiers",
    "integer",
    "is_int",
    "mapping",
    "name_in",
    "plain_value",
    "real",
    "sequence",
    "text",
]

K = TypeVar("K")

_IDENT = re.compile(r"[a-z][a-z0-9_]{0,59}")

#: the longest text accepted anywhere (names, parameters, typed dice lists)
MAX_TEXT = 10_000
#: the most items in any list or mapping passed in (rosters, action lists, dice)
MAX_ITEMS = 10_000


def _for(who: str) -> str:
    return f" pour {who}" if who else ""


def is_int(value: object) -> bool:
    """An ``int`` that is not a ``bool``."""
    return isinstance(value, int) and not isinstance(value, bool)


def integer(field: str, value: object, *, lo: int, hi: int, rule: str, who: str = "",
            kind: type[EscarmoucheError] = ParameterError, label: str | None = None) -> int:
    """An integer in ``lo``–``hi`` (a ``bool`` is refused)."""
    if not is_int(value) or not lo <= value <= hi:  # type: ignore[operator]
        raise invalid(field, value, rule,
                      f"un nombre entier entre {grouped(lo)} et {grouped(hi)} est attendu"
                      f"{_for(who)}", kind=kind, label=label)
    assert isinstance(value, int)
    return value


def real(field: str, value: object, *, lo: float, hi: float, rule: str, who: str = "") -> float:
    """A finite number (int or float) in ``lo``–``hi``."""
    ok = (is_int(value) or isinstance(value, float)) and math.isfinite(value)  # type: ignore[arg-type]
    if not ok or not lo <= value <= hi:  # type: ignore[operator]
        raise invalid(field, value, rule,
                      f"un nombre entre {grouped(lo)} et {grouped(hi)} est attendu{_for(who)}")
    assert isinstance(value, int | float)
    return value


def die(field: str, value: object, faces: int, rule: str, *, who: str = "") -> int:
    """A die result typed by hand: an integer in 1–``faces``."""
    if not is_int(value) or not 1 <= value <= faces:  # type: ignore[operator]
        raise invalid(field, value, rule,
                      f"un résultat de d{faces} entre 1 et {faces} est attendu{_for(who)}")
    assert isinstance(value, int)
    return value


def flag(field: str, value: object, rule: str, *, label: str | None = None) -> bool:
    """A ``bool`` (« oui » or « non »), nothing else."""
    if not isinstance(value, bool):
        raise invalid(field, value, rule, "oui ou non (True ou False) est attendu",
                      label=label)
    return value


def text(field: str, value: object, rule: str, *, max_len: int = 200) -> str:
    """A non-empty string of at most ``max_len`` characters, valid Unicode (no lone
    surrogate, which no file could hold), without control characters."""
    if (not isinstance(value, str) or not value.strip() or len(value) > max_len
            or not _printable(value)):
        raise invalid(field, value if isinstance(value, str) and _printable(value) else "…",
                      rule, f"un texte non vide d’au plus {grouped(max_len)} caractères "
                      "lisibles est attendu")
    return value


def _printable(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return _CONTROL.search(value) is None


#: the control characters a text may not hold (tab and line feed are allowed)
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f]")


def identifiers(field: str, value: object, rule: str, *, max_len: int = 100,
                who: str = "") -> frozenset[str]:
    """A set (or list) of lowercase ASCII identifiers such as « esquive »."""
    if isinstance(value, str | bytes) or not isinstance(value, Collection):
        raise invalid(field, value, rule, f"un ensemble d’identifiants est attendu{_for(who)}")
    if len(value) > max_len:
        raise invalid(field, len(value), rule, f"au plus {grouped(max_len)} éléments")
    for item in value:
        if not isinstance(item, str) or not _IDENT.fullmatch(item):
            raise invalid(field, item, rule, "identifiant en minuscules ASCII attendu, par "
                          f"exemple « esquive »{_for(who)}")
    return frozenset(value)


def choice(field: str, value: object, options: Collection[str], rule: str, *,
           labels: Mapping[str, str] | None = None) -> str:
    """One of ``options`` (listed in the message, with their French ``labels`` if given)."""
    if not isinstance(value, str) or value not in options:
        shown = [quote(o) + (f" ({labels[o]})" if labels and o in labels else "")
                 for o in options]
        raise invalid(field, value, rule, f"à choisir parmi {join(shown, last='ou')}")
    return value


def name_in(field: str, value: object, names: Collection[str], rule: str, *,
            what: str = "combattant") -> str:
    """The name of one of ``names`` (a combatant, a group …)."""
    if not isinstance(value, str) or value not in names:
        present = f"parmi {join(sorted(names))}" if names else "(il n’y en a aucun)"
        raise invalid(field, value, rule, f"aucun {what} de ce nom {present}")
    return value


def sequence(field: str, value: object, rule: str, *, max_len: int = MAX_ITEMS,
             min_len: int = 0) -> Sequence[object]:
    """A list or tuple (not a string) of ``min_len``–``max_len`` items."""
    if isinstance(value, str | bytes) or not isinstance(value, Sequence):
        raise invalid(field, value, rule, "une liste est attendue")
    if not min_len <= len(value) <= max_len:
        raise invalid(field, len(value), rule,
                      f"entre {grouped(min_len)} et {grouped(max_len)} éléments sont attendus")
    return value


def mapping(field: str, value: object, rule: str, *, max_len: int = MAX_ITEMS
            ) -> Mapping[object, object]:
    """A mapping of at most ``max_len`` entries."""
    if not isinstance(value, Mapping):
        raise invalid(field, value, rule, "un dictionnaire (nom → valeur) est attendu")
    if len(value) > max_len:
        raise invalid(field, len(value), rule, f"au plus {grouped(max_len)} entrées")
    return value


def plain_value(field: str, value: object, rule: str, *, max_depth: int = 8,
                max_items: int = 1000, max_text: int = MAX_TEXT) -> object:
    """A parameter value as a user can type it: numbers, texts, booleans, ``None``, and
    lists, tuples or dicts of them, bounded in depth, size and text length; integers of
    at most 30 digits, finite floats, valid Unicode. Checked before any rule reads it.

    >>> plain_value("cible", ["Grolk", 3], "CORE-ERR")
    ['Grolk', 3]
    """
    stack: list[tuple[object, int]] = [(value, 1)]
    seen = 0
    while stack:
        node, depth = stack.pop()
        seen += 1
        if seen > max_items or depth > max_depth:
            raise invalid(field, HIDDEN, rule, f"valeur trop grande ou trop imbriquée (au plus "
                          f"{grouped(max_items)} éléments sur {max_depth} niveaux)")
        if node is None or isinstance(node, bool):
            continue
        if isinstance(node, int):
            if abs(node) >= 10**30:
                raise invalid(field, HIDDEN, rule, "un nombre d’au plus 30 chiffres est attendu")
        elif isinstance(node, float):
            if not math.isfinite(node):
                raise invalid(field, node, rule, "un nombre fini est attendu")
        elif isinstance(node, str):
            if len(node) > max_text or not _printable(node):
                raise invalid(field, HIDDEN, rule, f"un texte lisible d’au plus "
                              f"{grouped(max_text)} caractères est attendu")
        elif isinstance(node, list | tuple):
            stack.extend((item, depth + 1) for item in node)
        elif isinstance(node, dict):
            for key, item in node.items():
                stack.append((key, depth + 1))
                stack.append((item, depth + 1))
        else:
            raise invalid(field, type(node).__name__, rule,
                          "un nombre, un texte, oui/non ou une liste de ces valeurs est "
                          "attendu")
    return value
