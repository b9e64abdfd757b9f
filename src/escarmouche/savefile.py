"""Reading and writing the fight save file, and the same checks for any JSON users type.

A save file has French keys (format 2, ``save-2.schema.json``): :func:`dumps` writes one,
:func:`loads` reads one back. The engine's own shape (:meth:`EncounterState.to_json`,
what the undo history and the kernels compare) keeps the English keys of format 1; the
keys are renamed here, at the file boundary, by one table (:data:`FILE_KEYS`) read both
ways, and only the structural ones: the open maps keep their keys. A file of format 1
is still read, with one French note (:class:`~escarmouche.errors.OldNameWarning`).

A save is checked in three steps before anything is loaded (CORE-LOG, CORE-ERR):

1. **the text**: a bounded size, a bounded nesting depth, integers of at most
   :data:`MAX_INT_DIGITS` digits, no ``NaN``/``Infinity``, no lone surrogate;
2. **the shape**: the published, versioned JSON Schema of the format
   (``escarmouche/schemas/save-2.schema.json``, or ``save-1`` for an old file, see
   :func:`schema`), checked with
   `fastjsonschema <https://horejsek.github.io/python-fastjsonschema/>`_ — pure Python,
   no dependency, already in the book's toolchain (nbformat uses it) and loadable in
   Pyodide offline, where ``jsonschema`` ≥ 4.18 needs the compiled ``rpds-py``; the
   loading, the checking and the French messages are shared with the roster and
   edition files (:mod:`escarmouche.filecheck`);
3. **the consistency** (:func:`check_consistency`): names, activation order, cursor and
   effects refer to fighters that exist; then the system checks its options.

Any fault raises :class:`~escarmouche.errors.SaveError` in French, naming the path in the
file (``combattants[2].combattant.caracteristiques.PV``); nothing is loaded.

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
from collections.abc import Callable, Mapping
from typing import Any

from escarmouche import filecheck
from escarmouche.errors import SaveError, field_label, old_keys
from escarmouche.model import Json
from escarmouche.text.fmt import number, quote

__all__ = [
    "ENGINE_FORMAT",
    "FILE_KEYS",
    "FORMAT",
    "FORMATS",
    "MAX_DEPTH",
    "MAX_INT_DIGITS",
    "MAX_SAVE_CHARS",
    "check_consistency",
    "dumps",
    "file_path",
    "from_file",
    "loads",
    "old_note",
    "parse_json",
    "rename_keys",
    "schema",
    "to_file",
    "validate_save",
]

#: the save format this engine writes (the schema's version): French keys
#: (:data:`FILE_KEYS`); format 1, the engine's own English keys, is still read
FORMAT = 2
#: the formats read: 1 (``save-1.schema.json``, English keys, with a note) and 2
FORMATS = (1, 2)
#: the format of the engine's in-memory shape (``EncounterState.to_json``: save-1 keys)
ENGINE_FORMAT = 1

#: the keys of a save file, engine (format 1) → file (format 2), by kind of object
#: (CORE-LOG). Only these structural keys are renamed: the open maps (a fighter's
#: ``stats``, ``tracks``, ``maxima`` and ``flags``, ``rules``, ``system_state``,
#: ``activations``, an effect's ``per_tick`` and ``data``, an event's ``data``) keep
#: their keys, which are names a system or a person chose.
FILE_KEYS: Mapping[str, Mapping[str, str]] = {
    "save": {
        "format": "format", "system": "systeme", "rules": "regles",
        "fighters": "combattants", "end_conditions": "conditions_de_fin", "turn": "tour",
        "started": "commence", "finished": "termine", "outcome": "issue",
        "order": "ordre", "cursor": "curseur", "activations": "activations",
        "effects": "effets", "log": "journal", "system_state": "etat_du_systeme",
        "next_effect_id": "prochain_effet"},
    "fighter": {
        "combatant": "combattant", "tracks": "pistes", "maxima": "maxima",
        "out": "hors_de_combat", "fled": "en_fuite", "flags": "marques"},
    "combatant": {
        "name": "nom", "side": "camp", "stats": "caracteristiques",
        "skills": "competences", "traits": "traits"},
    "end_condition": {
        "kind": "nature", "outcome": "issue", "side": "camp", "name": "nom",
        "turns": "tours", "label": "libelle"},
    "effect": {
        "id": "id", "name": "nom", "timing": "moment", "bearer": "porteur",
        "remaining": "restant", "until_turn_of": "jusqu_au_tour_de", "kind": "nature",
        "per_tick": "par_application", "save_ends": "fin_par_sauvegarde",
        "keywords": "mots_cles", "source": "source", "data": "donnees"},
    "event": {
        "seq": "numero", "turn": "tour", "actor": "acteur", "kind": "nature",
        "text": "texte", "rules": "regles", "dice": "des", "data": "donnees"},
}
#: the structural objects inside an object: (kind, engine key) → kind of its value
#: (an object, or a list of them)
_INSIDE: Mapping[tuple[str, str], str] = {
    ("save", "fighters"): "fighter", ("save", "end_conditions"): "end_condition",
    ("save", "effects"): "effect", ("save", "log"): "event",
    ("fighter", "combatant"): "combatant"}
_BACK: Mapping[str, Mapping[str, str]] = {
    kind: {new: old for old, new in keys.items()} for kind, keys in FILE_KEYS.items()}
#: the longest save accepted, in characters
MAX_SAVE_CHARS = 20_000_000
#: the deepest nesting of arrays and objects accepted
MAX_DEPTH = 64
#: the most digits in an integer (Python refuses 4,300 anyway, and no rule needs 30)
MAX_INT_DIGITS = 30

_ENVIRONMENT = "environnement"


def _fail(path: str, why: str, rule: str = "CORE-LOG") -> SaveError:
    return _fail_at(path, why, rule)


def _fail_at(path: str, why: str, rule: str = "CORE-LOG") -> SaveError:
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


def schema(version: int = FORMAT) -> dict[str, Any]:
    """The published JSON Schema of the save format ``version`` (draft-07): 2 by
    default, 1 for the old files (English keys)."""
    return filecheck.load(f"save-{version}")


def _rename(node: Json, kind: str, forward: bool) -> Json:
    """``node`` (an object of ``kind``, or a list of them) with its structural keys
    renamed engine → file (``forward``) or back, the open maps untouched; an unknown
    key is kept as it is (the schema has named it already)."""
    if isinstance(node, list):
        return [_rename(item, kind, forward) for item in node]
    if not isinstance(node, dict):
        return node
    names = (FILE_KEYS if forward else _BACK)[kind]
    out: dict[str, Json] = {}
    for key, value in node.items():
        engine_key = key if forward else _BACK[kind].get(key)
        inner = _INSIDE.get((kind, engine_key)) if engine_key is not None else None
        out[names.get(key, key)] = _rename(value, inner, forward) if inner else value
    return out


def rename_keys(node: Json, kind: str, *, to_file: bool) -> Json:
    """Part of a fight (an object of ``kind`` of :data:`FILE_KEYS`, or a list of them)
    with its keys renamed engine → file (``to_file``) or file → engine; the open maps
    keep their keys. The tracker's save uses it for the fight states and events of its
    undo history."""
    return _rename(node, kind, to_file)


def to_file(plain: Mapping[str, Json]) -> dict[str, Json]:
    """A fight in the engine's shape (:meth:`EncounterState.to_json`, save-1 keys) as
    a save file of format 2: French keys (:data:`FILE_KEYS`), ``format`` 2."""
    out = _rename(dict(plain), "save", True)
    assert isinstance(out, dict)
    out["format"] = FORMAT
    return out


def from_file(data: Mapping[str, Json]) -> dict[str, Json]:
    """A save file of format 2 back in the engine's shape (save-1 keys, ``format`` 1);
    an engine-shaped save (format 1) is returned as it is."""
    if data.get("format") == ENGINE_FORMAT:
        return dict(data)
    out = _rename(dict(data), "save", False)
    assert isinstance(out, dict)
    out["format"] = ENGINE_FORMAT
    return out


def file_path(path: str) -> str:
    """A path in the engine's shape (``fighters[1].combatant.stats.PV``) as the same
    path in a file of format 2 (``combattants[1].combattant.caracteristiques.PV``):
    the names inside an open map are kept."""
    kind: str | None = "save"
    parts = []
    for part in path.split("."):
        name, bracket, rest = part.partition("[")
        if kind is None:
            parts.append(part)
            continue
        parts.append(FILE_KEYS[kind].get(name, name) + bracket + rest)
        kind = _INSIDE.get((kind, name))
    return ".".join(parts)


def dumps(enc: Any) -> str:
    """The text of a save file (format 2) of ``enc``, an
    :class:`~escarmouche.encounter.Encounter`: what an export writes (CORE-LOG)."""
    return json.dumps(to_file(enc.state.to_json()), ensure_ascii=False, sort_keys=True,
                      indent=1)


def loads(text: str | Mapping[str, Json], *, where: str = "sauvegarde") -> Any:
    """The :class:`~escarmouche.encounter.Encounter` of a save file (its text, or its
    parsed JSON): format 2, or format 1 (English keys) with one French note
    (:class:`~escarmouche.errors.OldNameWarning`) naming the new keys (CORE-LOG)."""
    from escarmouche.encounter import Encounter  # the engine imports this module

    data = parse_json(text) if isinstance(text, str) else text
    if isinstance(data, Mapping) and data.get("format") == ENGINE_FORMAT:
        old_note(data, where)
    return Encounter.from_json(data if isinstance(data, Mapping) else json.dumps(data))


def old_note(data: Mapping[str, Json], where: str = "sauvegarde", *,
             stacklevel: int = 4) -> None:
    """The French note (:class:`~escarmouche.errors.OldNameWarning`) for a save of
    format 1: its top-level keys and their new names."""
    renamed = {k: v for k, v in FILE_KEYS["save"].items() if k != v and k in data}
    old_keys(where, ENGINE_FORMAT, FORMAT, renamed, "CORE-LOG", stacklevel=stacklevel)


def validate_save(data: Json) -> dict[str, Json]:
    """Check a parsed save (format 2, or 1) against its schema, then its consistency;
    return it in the engine's shape (save-1 keys)."""
    version = data.get("format", FORMAT) if isinstance(data, dict) else FORMAT
    if version not in FORMATS or type(version) is not int:
        assert isinstance(data, dict)
        raise _fail("format", f"{filecheck.shown(data['format'])} : format de sauvegarde "
                              f"inconnu (ce moteur lit les formats 1 et {FORMAT})")
    problem = filecheck.validate(f"save-{version}", data)
    if problem is not None:
        raise SaveError(problem.message("CORE-LOG", root="sauvegarde"),
                        field=problem.path or "sauvegarde", value=problem.value,
                        rule="CORE-LOG")
    assert isinstance(data, dict)
    result: dict[str, Json] = _integral(from_file(data))
    check_consistency(result, path=file_path if version == FORMAT else None)
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


def check_consistency(data: Mapping[str, Any],
                      path: Callable[[str], str] | None = None) -> None:
    """What the schema cannot say: every name refers to a fighter that exists. ``data``
    has the engine's keys; ``path`` names a place as the file does (:func:`file_path`
    for a file of format 2)."""
    def _fail(where: str, why: str, rule: str = "CORE-LOG") -> SaveError:
        return _fail_at(path(where) if path else where, why, rule)

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
