"""Reading files that users keep (saves, and the same checks for any JSON they type).

A save is checked in three steps before anything is loaded (CORE-LOG, CORE-ERR):

1. **the text**: a bounded size, a bounded nesting depth, integers of at most
   :data:`MAX_INT_DIGITS` digits, no ``NaN``/``Infinity``, no lone surrogate;
2. **the shape**: the published, versioned JSON Schema of the format
   (``escarmouche/schemas/save-1.schema.json``, see :func:`schema`), checked with
   `fastjsonschema <https://horejsek.github.io/python-fastjsonschema/>`_ — pure Python,
   no dependency, already in the book's toolchain (nbformat uses it) and loadable in
   Pyodide offline, where ``jsonschema`` ≥ 4.18 needs the compiled ``rpds-py``; the
   loading, the checking and the French messages are shared with the roster and
   edition files (:mod:`escarmouche.filecheck`);
3. **the consistency** (:func:`check_consistency`): names, activation order, cursor and
   effects refer to fighters that exist; then the system checks its options.

Any fault raises :class:`~escarmouche.errors.SaveError` in French, naming the path in the
file (``fighters[2].stats.PV``); nothing is loaded.

>>> parse_json('{"a": [1, 2]}')
{'a': [1, 2]}
>>> try:
...     parse_json('[' * 3000)
... except SaveError as err:
...     print(err)
Texte JSON refusé pour « sauvegarde » : imbrication trop profonde (au plus 64 niveaux) (CORE-LOG).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from escarmouche import filecheck
from escarmouche.errors import SaveError, field_label
from escarmouche.model import Json
from escarmouche.text.fmt import number, quote

__all__ = [
    "FORMAT",
    "MAX_DEPTH",
    "MAX_INT_DIGITS",
    "MAX_SAVE_CHARS",
    "check_consistency",
    "parse_json",
    "schema",
    "validate_save",
]

#: the save format this engine writes (the schema's version)
FORMAT = 1
#: the longest save accepted, in characters
MAX_SAVE_CHARS = 20_000_000
#: the deepest nesting of arrays and objects accepted
MAX_DEPTH = 64
#: the most digits in an integer (Python refuses 4,300 anyway, and no rule needs 30)
MAX_INT_DIGITS = 30

_ENVIRONMENT = "environnement"


def _fail(path: str, why: str, rule: str = "CORE-LOG") -> SaveError:
    where = path or "sauvegarde"
    if not path:
        return _json_error("sauvegarde", why, rule)
    return SaveError(filecheck.said("Sauvegarde", where, why, rule), field=where, value=None,
                     rule=rule)


def _json_error(what: str, why: str, rule: str = "CORE-LOG") -> SaveError:
    """« Texte JSON refusé pour « sauvegarde » : pourquoi (CORE-LOG). »"""
    return SaveError(f"Texte JSON refusé pour « {field_label(what)} » : {why} ({rule}).",
                     field=what, value=None, rule=rule, why=why)


def _int(text: str) -> int:
    digits = text.lstrip("-")
    if len(digits) > MAX_INT_DIGITS:
        raise _fail("", f"un nombre de {number(len(digits))} chiffres (au plus "
                        f"{MAX_INT_DIGITS})")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _fail("", f"le nombre {text[:20]} est infini")
    return value


def _constant(text: str) -> float:
    raise _fail("", f"{text} n’est pas un nombre")


def parse_json(text: object, *, what: str = "sauvegarde", max_chars: int = MAX_SAVE_CHARS,
               max_depth: int = MAX_DEPTH) -> Json:
    """Parse JSON text typed or loaded by a user, within the bounds above; a French
    :class:`SaveError` (naming ``what``) otherwise."""
    if not isinstance(text, str):
        raise _json_error(what, "un texte JSON est attendu")
    if len(text) > max_chars:
        raise _json_error(what, f"{number(len(text))} caractères, au plus {number(max_chars)}")
    try:
        data = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except RecursionError:
        raise _too_deep(what, max_depth) from None
    except json.JSONDecodeError as err:
        raise _json_error(what, f"{_decode_reason(err.msg)} à la ligne {err.lineno}, "
                          f"colonne {err.colno}") from None
    except SaveError as err:
        raise _json_error(what, err.why or str(err)) from None
    _check_tree(data, what, max_depth)
    return data


_DECODE_REASONS = {
    "Expecting value": "une valeur est attendue",
    "Expecting property name enclosed in double quotes":
        "un nom de champ entre guillemets droits est attendu",
    "Expecting ',' delimiter": "une virgule est attendue",
    "Expecting ':' delimiter": "un deux-points est attendu",
    "Extra data": "du texte suit la fin du JSON",
    "Unterminated string starting at": "une chaîne n’est pas refermée",
    "Invalid control character at": "caractère de contrôle dans une chaîne",
    "Invalid \\escape": "séquence d’échappement invalide",
    "Invalid \\uXXXX escape": "séquence \\u invalide",
}


def _decode_reason(msg: str) -> str:
    return _DECODE_REASONS.get(msg, "syntaxe JSON incorrecte")


def _too_deep(what: str, max_depth: int) -> SaveError:
    return _json_error(what, f"imbrication trop profonde (au plus {max_depth} niveaux)")


def _check_tree(data: Json, what: str, max_depth: int) -> None:
    """Depth and lone surrogates, iteratively (no recursion on user data)."""
    stack: list[tuple[Json, int]] = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, str):
            _check_text(node, what)
        elif isinstance(node, list | dict):
            if depth > max_depth:
                raise _too_deep(what, max_depth)
            items = node.items() if isinstance(node, dict) else enumerate(node)
            for key, value in items:
                if isinstance(key, str):
                    _check_text(key, what)
                stack.append((value, depth + 1))


def _check_text(text: str, what: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise _json_error(what, "un caractère invalide (demi-paire UTF-16 isolée)"
                          ) from None


def schema() -> dict[str, Any]:
    """The published JSON Schema of the save format (draft-07)."""
    return filecheck.load("save-1")


def validate_save(data: Json) -> dict[str, Json]:
    """Check a parsed save against the schema, then its consistency; return it."""
    if isinstance(data, dict) and "format" in data and data["format"] != FORMAT:
        raise _fail("format", f"{filecheck.shown(data['format'])} : format de sauvegarde "
                              f"inconnu (ce moteur lit le format {FORMAT})")
    problem = filecheck.validate("save-1", data)
    if problem is not None:
        raise SaveError(problem.message("CORE-LOG", root="sauvegarde"),
                        field=problem.path or "sauvegarde", value=problem.value,
                        rule="CORE-LOG")
    assert isinstance(data, dict)
    result: dict[str, Json] = _integral(data)
    check_consistency(result)
    return result


def _integral(data: dict[str, Json]) -> dict[str, Json]:
    """JSON Schema counts ``2.0`` as an integer: once the schema has bounded every
    integer field, integral floats become ints, so that « 2.0 PV » never reaches a rule."""
    def fix(node: Json) -> Json:
        if isinstance(node, float) and node.is_integer() and abs(node) < 2**53:
            return int(node)
        return node

    stack: list[Json] = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                node[key] = fix(value)
                stack.append(node[key])
        elif isinstance(node, list):
            for i, value in enumerate(node):
                node[i] = fix(value)
                stack.append(node[i])
    return data


def check_consistency(data: Mapping[str, Any]) -> None:
    """What the schema cannot say: every name refers to a fighter that exists."""
    names: list[str] = [f["combatant"]["name"] for f in data["fighters"]]
    seen: set[str] = set()
    for i, name in enumerate(names):
        if name in seen:
            raise _fail(f"fighters[{i}].combatant.name", f"{quote(name)} : deux combattants "
                                                         "portent ce nom", "CORE-ERR")
        if name == _ENVIRONMENT:
            raise _fail(f"fighters[{i}].combatant.name",
                        f"{quote(name)} : nom réservé à l’environnement", "CORE-ERR")
        seen.add(name)
    slots = seen | {_ENVIRONMENT}
    for i, slot in enumerate(data["order"]):
        if slot not in slots:
            raise _fail(f"order[{i}]", f"{quote(slot)} : aucun combattant de ce nom")
    order_len = len(data["order"])
    cursor = data["cursor"]
    if data["started"] and not data["finished"] and not 0 <= cursor < order_len:
        raise _fail("cursor", f"{number(cursor)} : hors de l’ordre du tour (0 à "
                              f"{number(max(order_len - 1, 0))})")
    if cursor > order_len:
        raise _fail("cursor", f"{number(cursor)} : au plus {number(order_len)}")
    if data["finished"] and not data["started"]:
        raise _fail("finished", "true : un combat terminé a forcément commencé")
    for key in data["activations"]:
        if key not in slots:
            raise _fail(f"activations.{key}", "aucun combattant de ce nom")
    ids: set[str] = set()
    for i, e in enumerate(data["effects"]):
        for field in ("bearer", "until_turn_of"):
            who = e.get(field)
            if who is not None and who not in slots:
                raise _fail(f"effects[{i}].{field}", f"{quote(who)} : aucun combattant de ce nom")
        if e.get("timing") == "jusqu_au_prochain_tour_de" and not e.get("until_turn_of"):
            raise _fail(f"effects[{i}].until_turn_of", "ce champ doit nommer un combattant")
        if e["id"] in ids:
            raise _fail(f"effects[{i}].id", f"{quote(e['id'])} : deux effets portent cet id")
        ids.add(e["id"])
    for i, f in enumerate(data["fighters"]):
        extra = sorted(set(f["maxima"]) - set(f["tracks"]))
        if extra:
            raise _fail(f"fighters[{i}].maxima.{extra[0]}", "cette piste n’existe pas")
    for i, c in enumerate(data["end_conditions"]):
        if c["kind"] == "combattant_hors_combat" and c.get("name") not in seen:
            raise _fail(f"end_conditions[{i}].name", "aucun combattant de ce nom")
        if c["kind"] in ("camp_hors_combat", "camp_en_fuite") and not c.get("side"):
            raise _fail(f"end_conditions[{i}].side", "cette condition doit nommer un camp")
        if c["kind"] == "tours" and not c.get("turns"):
            raise _fail(f"end_conditions[{i}].turns", "cette condition doit donner un nombre "
                                                      "de tours")
    for i, ev in enumerate(data["log"]):
        if ev["seq"] != i + 1:
            raise _fail(f"log[{i}].seq", f"{number(ev['seq'])} : {number(i + 1)} est attendu")
