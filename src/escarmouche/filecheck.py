"""The JSON Schemas of the files users keep, and their French errors: one place for the
saves (:mod:`escarmouche.savefile`), the roster files (:mod:`escarmouche.roster`) and
the edition files (:mod:`escarmouche.editions.data`).

A schema is loaded by name from the package (``escarmouche/schemas/<name>.schema.json``)
and compiled once with `fastjsonschema
<https://horejsek.github.io/python-fastjsonschema/>`_ (pure Python, loadable in Pyodide
offline). :func:`validate` checks a document and returns the first fault as a
:class:`Problem`: the JSON path (``camps[1].combattants[0].nom``), the value, the line
when a line map of the text is given (:func:`line_map`, TOML files), and the French
reason. The reader turns it into its own error type with :meth:`Problem.message`:

>>> problem = validate("roster-2", {"format": 2, "systeme": "d20", "camps": "deux"},
...                    lines={"camps": 3})
>>> problem.path, problem.line
('camps', 3)
>>> print(problem.message("CORE-ERR", source="duel.toml"))
duel.toml, ligne 3, champ « camps », valeur « deux » : une liste [ … ] est attendue (CORE-ERR).
>>> print(validate("save-1", []).message("CORE-LOG", root="sauvegarde"))
Sauvegarde : un objet { … } est attendu (CORE-LOG).

A TOML syntax error (``tomllib`` says it in English) reads in French with its line and
column (:func:`toml_problem`, :func:`toml_message`).
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import json
import math
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from importlib import resources
from typing import Any

import fastjsonschema

from escarmouche.text.fmt import join, number, plural, quote

__all__ = [
    "Problem",
    "line_map",
    "line_of",
    "load",
    "located",
    "reason",
    "shown",
    "toml_message",
    "toml_problem",
    "validate",
    "validator",
]


# -- schemas -----------------------------------------------------------------------------


@functools.cache
def load(name: str) -> dict[str, Any]:
    """The packaged JSON Schema ``name`` (``"save-1"``, ``"roster-1"``, ``"edition-1"``),
    read once."""
    text = resources.files("escarmouche").joinpath(f"schemas/{name}.schema.json").read_text(
        encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@functools.cache
def validator(name: str) -> Callable[[object], object]:
    """The compiled validator of schema ``name`` (compiled once)."""
    return fastjsonschema.compile(load(name))


@dataclasses.dataclass(frozen=True, slots=True)
class Problem:
    """The first fault of a document: where (``path``, ``""`` for the whole document,
    and the ``line`` of the text when known), the ``value`` found there and the French
    ``reason``."""

    path: str
    reason: str
    value: object = None
    line: int | None = None

    def message(self, rule: str, *, source: str | None = None, root: str = "document"
                ) -> str:
        """One sentence: the document named ``root`` (or, with a ``source``, the file and
        its line), the field, the value found, why (one colon), the rule."""
        if source is None:
            return said(root[:1].upper() + root[1:], self.path, self.reason, rule)
        return located(source, self.line, self.path, self.reason, rule)


def _split_value(why: str) -> tuple[str, str]:
    """``"« x » : pourquoi"`` → ``("« x »", "pourquoi")``: the value a reason starts with,
    before its first colon outside « » (``""`` when there is none)."""
    depth = 0
    for i, ch in enumerate(why):
        if ch == "«":
            depth += 1
        elif ch == "»":
            depth = max(0, depth - 1)
        elif why.startswith(" : ", i) and not depth:
            return why[:i], why[i + 3:]
    return "", why


def said(where: str, path: str, why: str, rule: str) -> str:
    """« où, champ « chemin », valeur X : pourquoi (RÈGLE). »: the place, the field and
    the value said once in the head, one colon, the rule once.

    >>> said("Sauvegarde", "cursor", "5 : au plus 3", "CORE-LOG")
    'Sauvegarde, champ « cursor », valeur 5 : au plus 3 (CORE-LOG).'
    """
    value, reason = _split_value(why)
    head = where + (f", champ « {path} »" if path else "") + (
        f", valeur {value}" if value else "")
    text = f"{head} : {reason}"
    text = text if f"({rule})" in text else f"{text} ({rule})"
    return text if text.endswith((".", "?", "!")) else text + "."


def located(source: str, line: int | None, path: str, why: str, rule: str) -> str:
    """« fichier, ligne N, champ « chemin », valeur X : pourquoi (RÈGLE). » (one colon),
    the line and the path left out when unknown; the rule is not repeated.

    >>> located("duel.toml", 7, "options.x", "option inconnue", "CORE-ERR")
    'duel.toml, ligne 7, champ « options.x » : option inconnue (CORE-ERR).'
    """
    where = f"{source}, ligne {line}" if line is not None else source
    return said(where, path, why, rule)


def validate(name: str, data: object, *, lines: Mapping[str, int] | None = None
             ) -> Problem | None:
    """Check ``data`` against schema ``name``: ``None`` when it is valid, else its first
    fault; ``lines`` (:func:`line_map`) gives the fault's line in the text."""
    try:
        validator(name)(data)
    except fastjsonschema.JsonSchemaValueException as err:
        path = _path(err.name or "")
        why = reason(err)
        value = err.value
        extra = _extra_keys(err) if err.rule in ("additionalProperties", "required") else []
        if extra:
            # an unknown key (a misspelt one is also why a required key seems missing):
            # the key itself is the place, its line is in the line map, and the nearest
            # known key is named
            path = f"{path}.{extra[0]}" if path else extra[0]
            why, value = "champ inconnu" + _nearest(extra[0], _known_keys(err)), None
        return Problem(path, why, value, line_of(lines or {}, path))
    return None


# -- French reasons ----------------------------------------------------------------------

_TYPES = {"object": "un objet { … }", "array": "une liste [ … ]", "string": "un texte",
          "integer": "un nombre entier", "number": "un nombre", "boolean": "true ou false",
          "null": "null"}
#: the feminine types (« une liste … est attendue »)
_FEMININE = ("array",)
#: the forms the schemas' ``pattern`` keywords ask for
_PATTERNS = {
    "^[a-z][a-z0-9_]*$": "identifiant en minuscules ASCII attendu",
    "^[0-9]{4}-[0-9]{2}-[0-9]{2}$": "date AAAA-MM-JJ attendue",
    "^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$": "identifiant de règle comme « D100-ATK-1 » attendu",
}


def _path(name: str) -> str:
    """fastjsonschema's ``data.camps[1].nom`` → ``camps[1].nom``."""
    return re.sub(r"^data\.?", "", name)


def _required_missing(err: fastjsonschema.JsonSchemaValueException) -> list[str]:
    want = err.rule_definition if isinstance(err.rule_definition, list) else []
    have = err.value if isinstance(err.value, dict) else {}
    return [str(k) for k in want if k not in have]


def _extra_keys(err: fastjsonschema.JsonSchemaValueException) -> list[str]:
    """The keys that ``additionalProperties: false`` refuses, in the document's order."""
    definition = err.definition if isinstance(err.definition, dict) else {}
    known = definition.get("properties", {})
    patterns = list(definition.get("patternProperties", {}))
    value = err.value if isinstance(err.value, dict) else {}
    return [str(k) for k in value
            if k not in known and not any(re.search(p, str(k)) for p in patterns)]


def _known_keys(err: fastjsonschema.JsonSchemaValueException) -> list[str]:
    definition = err.definition if isinstance(err.definition, dict) else {}
    return [str(k) for k in definition.get("properties", {})]


def _nearest(key: str, known: Sequence[str]) -> str:
    """« ; vouliez-vous dire « caracteristiques » ? » for the known key nearest to a
    misspelt one (``difflib``), or nothing when none is near.

    >>> _nearest("caracteristique", ["nom", "caracteristiques"])
    ' ; vouliez-vous dire « caracteristiques » ?'
    >>> _nearest("zzz", ["nom"])
    ''
    """
    close = difflib.get_close_matches(key, list(known), n=1, cutoff=0.6)
    return f" ; vouliez-vous dire {quote(close[0])} ?" if close else ""


def _is_scalar(value: object) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def reason(err: fastjsonschema.JsonSchemaValueException) -> str:
    """The French reason of a fastjsonschema error (without the path), naming the value
    found when it is a plain value (CORE-ERR)."""
    rule, want = err.rule, err.rule_definition
    if rule == "type":
        kinds = want if isinstance(want, list) else [want]
        verb = "attendue" if len(kinds) == 1 and kinds[0] in _FEMININE else "attendu"
        wanted = f"{join([_TYPES.get(str(k), str(k)) for k in kinds], last='ou')} est {verb}"
        return f"{shown(err.value)} : {wanted}" if _is_scalar(err.value) else wanted
    if rule == "required":
        return _fields("il manque le champ", "il manque les champs", _required_missing(err))
    if rule == "additionalProperties":
        return _fields("champ inconnu", "champs inconnus", _extra_keys(err))
    if rule in ("minimum", "maximum"):
        word = "au moins" if rule == "minimum" else "au plus"
        return f"{shown(err.value)} : {word} {number(want)}"
    if rule in ("exclusiveMinimum", "exclusiveMaximum"):
        word = "plus de" if rule == "exclusiveMinimum" else "moins de"
        return f"{shown(err.value)} : {word} {number(want)}"
    if rule in ("minLength", "maxLength"):
        word = "au moins" if rule == "minLength" else "au plus"
        size = "court" if rule == "minLength" else "long"
        return f"texte trop {size} ({word} {number(want)} caractères)"
    if rule in ("minItems", "maxItems"):
        word = "au moins" if rule == "minItems" else "au plus"
        return f"{word} {_expected(want, 'élément')}"
    if rule in ("minProperties", "maxProperties"):
        word = "au moins" if rule == "minProperties" else "au plus"
        return f"{word} {_expected(want, 'champ')}"
    if rule in ("enum", "const"):
        values = want if isinstance(want, list) and rule == "enum" else [want]
        allowed = join([shown(v) for v in values], last="ou")
        return f"{shown(err.value)} : à choisir parmi {allowed}"
    if rule == "pattern":
        form = _PATTERNS.get(str(want), f"forme attendue {quote(str(want)[:40])}")
        return f"{shown(err.value)} : forme invalide ({form})"
    if rule == "uniqueItems":
        return "une valeur apparaît deux fois"
    return "valeur invalide"


def _fields(one: str, several: str, keys: list[str]) -> str:
    """« il manque le champ « a » », « champs inconnus « a » et « b » »."""
    if not keys:
        return "champ manquant" if one.startswith("il manque") else one
    return f"{one if len(keys) == 1 else several} {join([quote(k) for k in keys])}"


def _expected(count: object, noun: str) -> str:
    """« 1 élément est attendu », « 3 éléments sont attendus »."""
    n = count if isinstance(count, int) else 0
    return f"{plural(n, noun)} {'est attendu' if abs(n) < 2 else 'sont attendus'}"


def shown(value: object) -> str:
    """A JSON value as a message shows it: text in « » (cut short), ``true``/``null`` as
    in the file, numbers in French, anything larger as « cette valeur ».

    >>> shown("a"), shown(True), shown(None), shown(2.5), shown([1])
    ('« a »', 'true', 'null', '2,5', 'cette valeur')
    """
    if isinstance(value, str):
        return quote(value[:40])
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int | float) and math.isfinite(value) and abs(value) < 10**15:
        return number(value)
    if isinstance(value, int | float):
        return "ce nombre"
    return "cette valeur"


# -- TOML texts: lines and syntax errors -------------------------------------------------

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*((?:[A-Za-z0-9_\-]+|\"[^\"]*\"|'[^']*')"
                  r"(?:\s*\.\s*(?:[A-Za-z0-9_\-]+|\"[^\"]*\"|'[^']*'))*)\s*=")


def _parts(dotted: str) -> list[str]:
    return [p.strip().strip("\"'") for p in re.findall(r"\"[^\"]*\"|'[^']*'|[^.]+", dotted)]


def line_map(text: str) -> dict[str, int]:
    """The line (1-based) of each table header and key of a TOML text, by its path in
    the parsed document (``camps[1].combattants[0].nom``). A best-effort scan of the text
    (tomllib gives no positions): an inline table's keys point to the line of its key.

    >>> line_map('titre = "x"\\n[[camps]]\\nnom = "a"\\n[[camps]]\\nnom = "b"\\n')
    {'titre': 1, 'camps[0]': 2, 'camps[0].nom': 3, 'camps[1]': 4, 'camps[1].nom': 5}
    """
    lines: dict[str, int] = {}
    counters: dict[str, int] = {}
    table = ""
    for number_, raw in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(raw)
        if header and not _KEY.match(raw):
            parts = _parts(header.group(2))
            path = ""
            for i, part in enumerate(parts):
                path = f"{path}.{part}" if path else part
                if i < len(parts) - 1 and path in counters:
                    path = f"{path}[{counters[path]}]"
            if header.group(1) == "[[":
                counters[path] = counters.get(path, -1) + 1
                path = f"{path}[{counters[path]}]"
            table = path
            lines.setdefault(table, number_)
            continue
        key = _KEY.match(raw)
        if key:
            path = table
            for part in _parts(key.group(1)):
                path = f"{path}.{part}" if path else part
            lines.setdefault(path, number_)
    return lines


def line_of(lines: Mapping[str, int], path: str) -> int | None:
    """The line of ``path`` in a :func:`line_map`, else of its nearest parent that has
    one (a missing key points to its table); an array of tables (``[[camps]]``) is at
    its first table."""
    while path:
        if path in lines:
            return lines[path]
        if f"{path}[0]" in lines:
            return lines[f"{path}[0]"]
        cut = max(path.rfind("."), path.rfind("["))
        path = path[:cut] if cut > 0 else ""
    return None


_TOML_REASONS = [
    (r"Invalid value", "valeur invalide"),
    (r"Expected '=' after a key", "un « = » est attendu après la clé"),
    (r"Invalid statement", "instruction invalide"),
    (r"Cannot overwrite a value", "cette clé est déjà définie"),
    (r"Cannot declare .* twice", "cette table est déclarée deux fois"),
    (r"Unterminated string", "une chaîne n’est pas refermée"),
    (r"Expected newline or end of document", "fin de ligne attendue après la valeur"),
    (r"Invalid initializer", "valeur de départ invalide"),
    (r"Unclosed array", "une liste [ … ] n’est pas refermée"),
    (r"Unclosed inline table", "une table { … } n’est pas refermée"),
    (r"Invalid key", "clé invalide"),
    (r"Illegal character", "caractère interdit"),
]


def toml_problem(err: tomllib.TOMLDecodeError) -> tuple[int | None, int | None, str]:
    """``tomllib``'s (English) error as (line, column, French reason)."""
    message = str(err)
    found = re.search(r"\(at line (\d+), column (\d+)\)", message)
    why = next((fr for pattern, fr in _TOML_REASONS if re.search(pattern, message)),
               "syntaxe TOML incorrecte")
    if found:
        return int(found.group(1)), int(found.group(2)), why
    return None, None, why


def toml_message(source: str, err: tomllib.TOMLDecodeError, rule: str) -> str:
    """« fichier, ligne N, colonne C : texte TOML invalide (pourquoi) (RÈGLE). »

    >>> for text in ('format = 2\\ntitre = Duel', 'titre = "Duel'):
    ...     try:
    ...         tomllib.loads(text)
    ...     except tomllib.TOMLDecodeError as err:
    ...         print(toml_message("duel.toml", err, "CORE-ERR"))
    duel.toml, ligne 2, colonne 9 : texte TOML invalide (valeur invalide) (CORE-ERR).
    duel.toml, à la fin du texte : texte TOML invalide (une chaîne n’est pas refermée) (CORE-ERR).
    """
    line, col, why = toml_problem(err)
    if line is not None:
        where = f"{source}, ligne {line}, colonne {col}"
    elif "at end of document" in str(err):
        where = f"{source}, à la fin du texte"
    else:
        where = source
    return f"{where} : texte TOML invalide ({why}) ({rule})."
