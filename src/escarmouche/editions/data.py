"""Editions as data: the edition file (``editions/<n>.toml``), its schema, the snapshot
of what an edition published (``editions/<n>/``), and the differences between two
snapshots.

An edition file holds ``format``, ``number``, ``date``, ``summary`` and ``changes``;
each change gives its ``kind`` (:data:`KINDS`), the rule IDs it touches
(``spec/RULES.md``), a French ``text`` and, for an option default, ``system``,
``option``, ``before`` and ``after``. It is checked against
``escarmouche/schemas/edition-1.schema.json`` (fastjsonschema, through
:mod:`escarmouche._schema` like the saves and the roster files), with French errors
that name the field.

A snapshot (:class:`Snapshot`) is what the next edition is diffed against: every
system's default rules (``System.rules_to_json``), the text of every rule ID and the
stored outputs of the book's examples.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import difflib
import json
import re
import tomllib
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from escarmouche import _schema
from escarmouche.errors import SaveError, invalid, os_reason
from escarmouche.model import Json
from escarmouche.text.fmt import join, quote

__all__ = [
    "CLARIFICATIONS",
    "FLAGS",
    "FORMAT",
    "KINDS",
    "NONE_WORD",
    "SUMMARY_PLACEHOLDER",
    "Change",
    "Edition",
    "Snapshot",
    "book_rule_texts",
    "edition_to_toml",
    "is_bound",
    "load_edition",
    "option_changes",
    "option_rules",
    "parse_edition",
    "parse_rules_text",
    "role_text",
    "rule_text_changes",
    "rulings",
    "schema",
]

#: the newest edition format this engine reads and writes (the schema's version): 2 adds
#: the « clarification » kind and the ``reviewed`` examples; a format-1 file still loads,
#: and a file is written in format 1 when it needs nothing of format 2
FORMAT = 2

#: the kinds of change, with their French labels
KINDS: Mapping[str, str] = {
    "new-rule": "règle nouvelle",
    "revised-rule": "règle révisée",
    "removed-rule": "règle retirée",
    "new-ruling": "interprétation nouvelle",
    "changed-ruling": "interprétation changée",
    "option-default": "valeur par défaut d’une option",
    "clarification": "clarification",
}

#: the kinds printed on the errata sheet under « Clarifications », apart from errata,
#: and that mark no rule « Modifié dans l’édition n » (a rewording, not a change of rule)
CLARIFICATIONS = frozenset({"clarification"})

#: the marks the drafting tool leaves on a change for the designer to re-read (the
#: ``flag`` of a change), with their French labels; an edition is not published with one
FLAGS: Mapping[str, str] = {
    "no-longer-applies": "ce changement ne s’applique plus, l’option a retrouvé sa "
                         "valeur de l’édition précédente, ou la règle n’a plus changé",
    "values-changed": "les valeurs de ce changement ont changé depuis que son texte a été "
                      "écrit",
}

_RULE_LINE = re.compile(r"^- ([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)\b")
#: RULES.md's marks of a ruling: « *(ruling…)* », « *(option…)* », « *(facts…)* »
_RULING = re.compile(r"\*\((?:ruling|option|facts?)\b|\((?:ruling|option)\b")
_RULE_ID = re.compile(r"\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+\b")


@dataclasses.dataclass(frozen=True, slots=True)
class Change:
    """One change of an edition (see the module docstring)."""

    kind: str
    rules: tuple[str, ...]
    text: str
    system: str | None = None
    option: str | None = None
    before: Json = None
    after: Json = None
    #: a mark of the drafting tool for the designer (:data:`FLAGS`), else ``None``
    flag: str | None = None

    @property
    def kind_label(self) -> str:
        return KINDS[self.kind]

    @property
    def key(self) -> tuple[str, str]:
        """What identifies the change across drafts: the option, else the rule IDs."""
        if self.system and self.option:
            return (self.kind, f"{self.system}.{self.option}")
        return (self.kind, ",".join(self.rules))

    def to_json(self) -> dict[str, Json]:
        out: dict[str, Json] = {"kind": self.kind, "rules": list(self.rules),
                                "text": self.text}
        if self.system is not None:
            out["system"] = self.system
        if self.option is not None:
            out["option"] = self.option
            out["before"] = self.before
            out["after"] = self.after
        if self.flag is not None:
            out["flag"] = self.flag
        return out


@dataclasses.dataclass(frozen=True, slots=True)
class Edition:
    """An edition: its number, date, French summary and changes."""

    number: int
    date: _dt.date
    summary: str
    changes: tuple[Change, ...] = ()
    #: the examples (``page#n``) whose changed output the designer re-read (format 2)
    reviewed: tuple[str, ...] = ()

    @property
    def format(self) -> int:
        """1 unless the edition needs format 2 (a clarification, reviewed examples)."""
        needs = self.reviewed or any(c.kind in CLARIFICATIONS for c in self.changes)
        return 2 if needs else 1

    def to_json(self) -> dict[str, Json]:
        out: dict[str, Json] = {"format": self.format, "number": self.number,
                                "date": self.date.isoformat(), "summary": self.summary,
                                "changes": [c.to_json() for c in self.changes]}
        if self.reviewed:
            out["reviewed"] = list(self.reviewed)
        return out


def schema(version: int = 1) -> dict[str, Any]:
    """The published JSON Schema of an edition file (format 1, or 2)."""
    return _schema.load(f"edition-{version}")


def _fail(field: str, value: object, why: str) -> SaveError:
    err = invalid(field, value, "CORE-ERR", why, kind=SaveError)
    assert isinstance(err, SaveError)
    return err


def parse_edition(data: Mapping[str, Any]) -> Edition:
    """Check a parsed edition file against the schema and build the :class:`Edition`.

    A TOML date is accepted for ``date``. A wrong field raises a French
    :class:`~escarmouche.errors.SaveError` that names it:

    >>> try:
    ...     parse_edition({"format": 1, "number": 0, "date": "2026-11-30",
    ...                    "summary": "x", "changes": []})
    ... except ValueError as err:
    ...     print(err)
    Édition, champ « number », valeur 0 : au moins 1 (CORE-ERR).
    """
    if not isinstance(data, Mapping):
        raise _fail("édition", type(data).__name__, "une table TOML est attendue")
    plain: dict[str, Any] = dict(data)
    if isinstance(plain.get("date"), _dt.date):
        plain["date"] = plain["date"].isoformat()
    name = "edition-2" if plain.get("format") == 2 else "edition-1"
    problem = _schema.validate(name, plain)
    if problem is not None:
        raise SaveError(problem.message("CORE-ERR", root="édition"),
                        field=problem.path or "édition", value=problem.value,
                        rule="CORE-ERR")
    try:
        date = _dt.date.fromisoformat(plain["date"])
    except ValueError:
        raise _fail("date", plain["date"], "date inexistante") from None
    changes = []
    for i, c in enumerate(plain["changes"]):
        option = (c.get("system"), c.get("option"))
        if c["kind"] == "option-default" and None in option:
            raise _fail(f"changes[{i}]", c["kind"],
                        "un changement d’option donne « system » et « option »")
        if c["kind"] == "option-default" and ("before" not in c or "after" not in c):
            raise _fail(f"changes[{i}]", c["kind"],
                        "un changement d’option donne « before » et « after »")
        before, after = c.get("before"), c.get("after")
        if c["kind"] == "option-default":
            before, after = _check_option_change(f"changes[{i}]", c)
        changes.append(Change(c["kind"], tuple(c["rules"]), c["text"], c.get("system"),
                              c.get("option"), before, after, c.get("flag")))
    return Edition(plain["number"], date, plain["summary"], tuple(changes),
                   tuple(plain.get("reviewed", ())))


#: how an edition file writes ``None`` (TOML has no null): « aucune » valeur
NONE_WORD = "aucune"

#: the summary the drafting tool writes; an edition is not published with it
SUMMARY_PLACEHOLDER = "À rédiger : le résumé de cette édition."


def _check_option_change(where: str, change: Mapping[str, Any]) -> tuple[Any, Any]:
    """An option change names a registered system, one of its options by its French key,
    and values that option accepts (``after``; ``before`` may be ``None`` for a new
    option); the declaration says which (:mod:`escarmouche.options`). Returns
    ``(before, after)``, an old value renamed in French read as its new one, with a
    note (``Option.renamed``)."""
    from escarmouche.errors import EscarmoucheError
    from escarmouche.systems import available, get

    name = change["system"]
    if name not in available():
        raise _fail(f"{where}.system", name, "système inconnu, à choisir parmi "
                    + join([quote(n) for n in available()], last="ou"))
    system = get(name)
    keys = [o.key for o in system.options()]
    spec = next((o for o in system.options() if o.key == change["option"]), None)
    if spec is None:
        close = difflib.get_close_matches(str(change["option"]), keys, n=1, cutoff=0.6)
        hint = (f"vouliez-vous dire {quote(close[0])} ?" if close
                else "les options sont " + join([quote(k) for k in keys], empty="aucune"))
        raise _fail(f"{where}.option", change["option"],
                    f"option inconnue du système {name} ; {hint}")
    values = {"before": change["before"], "after": change["after"]}
    for side, value in values.items():
        if value == NONE_WORD and (spec.optional or spec.default is None):
            continue  # TOML has no null: « aucune » stands for None
        if value in (None, NONE_WORD) and side == "before":
            continue  # a new option had no value before
        try:
            values[side] = spec.new_value(value)
            spec.check_value(spec.from_json(values[side], field=spec.key))
        except EscarmoucheError as err:
            why = f"{err.why or str(err)} pour l’option {quote(spec.key)}"
            refused = invalid(f"{where}.{side}", value, err.rule or "CORE-ERR", why,
                              kind=SaveError)
            raise refused from None
    return values["before"], values["after"]


def load_edition(path: Path | str) -> Edition:
    """Read and check ``editions/<n>.toml``; the file name must be its number."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except OSError as err:
        raise _fail(path.name, str(path), f"fichier illisible ({os_reason(err)})") from None
    except tomllib.TOMLDecodeError as err:
        raise SaveError(_schema.toml_message(path.name, err, "CORE-ERR"), field=path.name,
                        value=None, rule="CORE-ERR") from None
    try:
        edition = parse_edition(data)
    except SaveError as err:
        raise _located(err, path.name, text) from None
    if path.stem != str(edition.number):
        raise _fail("number", edition.number,
                    f"le fichier {quote(path.name)} doit porter le numéro de l’édition")
    return edition


def _located(err: SaveError, source: str, text: str) -> SaveError:
    """``err`` with the file and the line of its field first (« 2.toml, ligne 9 — … »)."""
    line = _schema.line_of(_schema.line_map(text), err.field or "")
    where = f"{source}, ligne {line}" if line is not None else source
    return SaveError(f"{where} — {err}", field=err.field, value=err.value, rule=err.rule)


def _toml_value(value: Json) -> str:
    if value is None:
        return f'"{NONE_WORD}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return json.dumps(value)
    if isinstance(value, str):
        if "\n" not in value:
            return '"' + "".join(_toml_char(c) for c in value) + '"'
        # a text of several lines stays readable: a TOML multi-line basic string
        return '"""\n' + "".join(_toml_char(c) for c in value) + '"""'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return "{ " + ", ".join(f"{_toml_value(str(k))} = {_toml_value(v)}"
                            for k, v in value.items()) + " }"


def _toml_char(c: str) -> str:
    if c == "\n":
        return c
    if c in '\\"':
        return "\\" + c
    if ord(c) < 0x20 or ord(c) == 0x7F:
        return f"\\u{ord(c):04x}"
    return c


def change_to_toml(change: Change) -> str:
    """One change as a TOML ``[[changes]]`` block (the Atelier's export, the draft)."""
    lines = ["[[changes]]", f"kind = {_toml_value(change.kind)}",
             f"rules = {_toml_value(list(change.rules))}"]
    if change.system is not None:
        lines.append(f"system = {_toml_value(change.system)}")
    if change.option is not None:
        lines.append(f"option = {_toml_value(change.option)}")
        lines.append(f"before = {_toml_value(change.before)}")
        lines.append(f"after = {_toml_value(change.after)}")
    if change.flag is not None:
        lines.append(f"# À relire : {FLAGS[change.flag]}.")
        lines.append(f"flag = {_toml_value(change.flag)}")
    lines.append(f"text = {_toml_value(change.text)}")
    return "\n".join(lines) + "\n"


def edition_to_toml(edition: Edition) -> str:
    """The edition file, as ``tools/edition.py`` writes it (TOML, French comments)."""
    head = [
        "# Une fiche par édition du livre ; le plus grand numéro est l’édition en cours.",
        f"# Format : escarmouche/schemas/edition-{edition.format}.schema.json ;"
        " la page « Ce qui a changé »",
        "# est produite depuis cette fiche (tools/edition.py, make edition).",
        f"format = {edition.format}",
        f"number = {edition.number}",
        f"date = {edition.date.isoformat()}",
        f"summary = {_toml_value(edition.summary)}",
    ]
    if edition.reviewed:
        head.append("# Exemples relus : leur sortie a changé, leur texte reste juste.")
        head.append(f"reviewed = {_toml_value(list(edition.reviewed))}")
    if not edition.changes:
        head.append("changes = []")
    blocks = [change_to_toml(c) for c in edition.changes]
    return "\n".join(head) + "\n" + "".join("\n" + b for b in blocks)


# -- the rule texts ----------------------------------------------------------------------


def parse_rules_text(text: str) -> dict[str, str]:
    """The text of every rule ID of ``spec/RULES.md``, one line each (a rule is a list
    item ``- ID: …`` and its continuation lines).

    >>> parse_rules_text("- RB-X-1: one\\n  two\\n- RB-X-2 *(ruling)*: three\\n")
    {'RB-X-1': 'one two', 'RB-X-2': '*(ruling)*: three'}
    """
    rules: dict[str, list[str]] = {}
    current: str | None = None
    for line in text.splitlines():
        m = _RULE_LINE.match(line)
        if m:
            current = m.group(1)
            rest = line[m.end():].lstrip()
            rules[current] = [rest[1:].lstrip() if rest.startswith(":") else rest]
        elif current and line.startswith("  ") and line.strip():
            rules[current].append(line.strip())
        else:
            current = None
    return {k: " ".join(v) for k, v in rules.items()}


def rulings(texts: Mapping[str, str]) -> list[str]:
    """The rule IDs whose text records a ruling, an option or a fact of the original
    edition (RULES.md's marks of what the book shows as « Interprétation retenue »), in
    order.

    >>> rulings({"A-B-1": "plain", "A-B-2": "x *(ruling: y)*"})
    ['A-B-2']
    """
    return [k for k, v in texts.items() if _RULING.search(v)]


# -- the options -------------------------------------------------------------------------


def option_rules(system: str, option: str) -> tuple[str, ...]:
    """The rule IDs an option stands for, as its ``Rules`` field declares them; an option
    that declares none falls back to the system's prefix (``D100-OPTION``)."""
    from escarmouche.systems import get

    found = get(system).option(option).rules if _known(system, option) else ()
    if found:
        return found
    prefix = get(system).rule_prefix
    return (f"{prefix}-OPTION",) if prefix else ("CORE-ERR",)


def option_changes(old: Mapping[str, Mapping[str, Json]],
                   new: Mapping[str, Mapping[str, Json]]) -> list[Change]:
    """The option defaults that differ between two rule sets (``{system: rules JSON}``,
    keyed by engine names as the snapshots keep them), one :class:`Change` each, named by
    the option's French key, with a French text to review."""
    from escarmouche.editions.odds import option_label, value_label

    out = []
    for system in new:
        before, after = old.get(system, {}), new[system]
        for option in after:
            if option in before and before[option] == after[option]:
                continue
            b = before.get(option)
            a = after[option]
            key = _key(system, option)
            if key == option and not _known(system, option):
                text = f"Nouvelle option : {option} (système {system})."
            elif option not in before:
                text = (f"Nouvelle option : {option_label(system, option)}, par défaut "
                        f"{value_label(system, option, a)}.")
            else:
                # one colon at most per clause: the labels are quoted, whatever they hold
                shown = [value_label(system, option, v) for v in (b, a)]
                if isinstance(a, str) or isinstance(b, str):
                    shown = [quote(v) for v in shown]
                text = (f"La valeur par défaut de l’option {quote(option_label(system, option))} "
                        f"passe de {shown[0]} à {shown[1]}.")
            out.append(Change("option-default", option_rules(system, option), text,
                              system, key, b, a))
        for option in before:
            if option not in after:
                text = f"Option retirée : {option} (système {system})."
                out.append(Change("option-default", option_rules(system, option), text,
                                  system, option, before[option], None))
    return out


def is_bound(change: Change) -> bool:
    """Whether ``change`` sets an option that is a safety bound of the engine
    (``option(bound=…)``), not a rule: listed apart from the rules' changes."""
    if change.kind != "option-default" or not (change.system and change.option):
        return False
    from escarmouche.errors import EscarmoucheError
    from escarmouche.systems import get

    try:
        return bool(get(change.system).option(change.option).bound)
    except EscarmoucheError:
        return False


def _known(system: str, option: str) -> bool:
    from escarmouche.errors import EscarmoucheError
    from escarmouche.systems import get

    try:
        get(system).option(option)
    except EscarmoucheError:
        return False
    return True


def _key(system: str, option: str) -> str:
    """The French key of an option (the option itself when this engine no longer, or not
    yet, knows it)."""
    from escarmouche.systems import get

    return get(system).option(option).key if _known(system, option) else option


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def rule_text_changes(old: Mapping[str, str], new: Mapping[str, str]) -> list[Change]:
    """The rules added, revised or removed between two sets of rule texts."""
    out = []
    for rule, text in new.items():
        if rule not in old:
            kind = "new-ruling" if _RULING.search(text) else "new-rule"
            out.append(Change(kind, (rule,), f"Nouvelle règle {rule}."))
        elif old[rule] != text:
            kind = ("changed-ruling" if _RULING.search(text + old[rule])
                    else "revised-rule")
            out.append(Change(kind, (rule,), f"Texte de {rule} révisé."))
    out += [Change("removed-rule", (rule,), f"La règle {rule} est retirée.")
            for rule in old if rule not in new]
    return out


# -- snapshots ---------------------------------------------------------------------------


def _renewed(rules: Mapping[str, Any]) -> dict[str, Any]:
    """A snapshot's rules with the option values renamed since in French read as their
    new names (``Option.renamed``): a published snapshot stays as written, and a draft
    does not take a renaming for a changed default. Silent: the tool wrote it."""
    from escarmouche.options import renewed
    from escarmouche.systems import available, get

    return {name: renewed(get(name).rules_type, values)
            if name in available() and isinstance(values, Mapping) else values
            for name, values in rules.items()}


@dataclasses.dataclass(frozen=True, slots=True)
class Snapshot:
    """What an edition published: ``rules`` (``{system: rules JSON}``), ``texts``
    (``{rule ID: text}``) and ``outputs`` (``{"page#cell": text output}`` of the book's
    examples)."""

    rules: Mapping[str, Mapping[str, Json]]
    texts: Mapping[str, str]
    outputs: Mapping[str, str]

    FILES = ("rules.json", "rules-text.json", "outputs.json")

    @classmethod
    def read(cls, folder: Path | str) -> Snapshot:
        folder = Path(folder)
        parts = []
        for name in cls.FILES:
            path = folder / name
            try:
                parts.append(json.loads(path.read_text(encoding="utf-8")))
            except FileNotFoundError:
                raise _fail("instantané", str(path), "fichier manquant") from None
            except json.JSONDecodeError:
                raise _fail("instantané", str(path), "JSON illisible") from None
        return cls(_renewed(parts[0]), parts[1], parts[2])

    def write(self, folder: Path | str) -> None:
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in zip(self.FILES, (self.rules, self.texts, self.outputs),
                              strict=True):
            # rule texts keep the order of RULES.md; the rest is sorted
            (folder / name).write_text(
                json.dumps(data, ensure_ascii=False, indent=1,
                           sort_keys=data is not self.texts) + "\n", encoding="utf-8")


def current_rules(systems: Sequence[str] | None = None) -> dict[str, dict[str, Json]]:
    """Every built-in system's default rules as JSON (what the engine plays today)."""
    from escarmouche import systems as registry

    out = {}
    for name in systems or registry.NAMES:
        system = registry.get(name)
        out[name] = json.loads(json.dumps(system.rules_to_json(system.default_rules()),
                                          default=_jsonable))
    return out


def _jsonable(value: object) -> Json:
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        result: Json = to_json()
        return result
    return str(value)


def book_notebooks(book: Path | str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every notebook of ``book`` (build and checkpoint folders aside), parsed, with its
    page name (``d100/attaque``), in the order of the paths."""
    book = Path(book)
    for path in sorted(book.rglob("*.ipynb")):
        if "_build" in path.parts or ".ipynb_checkpoints" in path.parts:
            continue
        page = path.relative_to(book).with_suffix("").as_posix()
        yield page, json.loads(path.read_text(encoding="utf-8"))


def notebook_outputs(book: Path | str) -> dict[str, str]:
    """The stored text output of every code cell of the book's notebooks, by
    ``"page#n"`` (``n``: the code cell's rank); cells tagged ``nbval-ignore-output``
    (widgets) are left out. HTML outputs are reduced to their text."""
    out: dict[str, str] = {}
    for page, nb in book_notebooks(book):
        rank = 0
        for cell in nb.get("cells", []):
            if cell.get("cell_type") != "code":
                continue
            rank += 1
            if "nbval-ignore-output" in cell.get("metadata", {}).get("tags", []):
                continue
            text = _cell_text(cell.get("outputs", []))
            if text:
                out[f"{page}#{rank}"] = text
    return out


def _cell_text(outputs: Sequence[Mapping[str, Any]]) -> str:
    parts = []
    for o in outputs:
        if o.get("output_type") == "stream":
            parts.append(_joined(o.get("text", "")))
        elif o.get("output_type") in ("execute_result", "display_data"):
            data = o.get("data", {})
            if "text/html" in data:
                parts.append(_html_text(_joined(data["text/html"])))
            elif "image/svg+xml" in data or "image/png" in data:
                parts.append("[graphique]")  # not its repr (« <…SVG object> »)
            elif "text/plain" in data:
                parts.append(_joined(data["text/plain"]))
    return "\n".join(p.strip("\n") for p in parts if p.strip())


def _joined(value: str | Sequence[str]) -> str:
    return value if isinstance(value, str) else "".join(value)


def _html_text(html_text: str) -> str:
    """The readable text of an HTML output: SVG charts dropped, cells separated."""
    import html as _html

    text = re.sub(r"(?s)<svg.*?</svg>", " [graphique] ", html_text)
    text = re.sub(r"(?s)<(script|style).*?</\1>", "", text)
    text = re.sub(r"</(td|th)>", " | ", text)
    text = re.sub(r"</(tr|p|div|caption|li|h\d)>|<br\s*/?>", "\n", text)
    text = re.sub(r"<[^>]+>", "", text)
    lines = [" ".join(_html.unescape(line).split()) for line in text.splitlines()]
    return "\n".join(line.rstrip(" |") for line in lines if line.strip(" |"))


#: a rule stated in the book: ``**RB-D100-1** — Pour un test D100, …``, its first
#: paragraph; the lists and tables right after it belong to it (:func:`_rule_blocks`)
_BOOK_RULE = re.compile(r"^\*\*([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)\*\* — ", re.M)
#: a block that goes on a rule's statement: a list (``1.``, ``-``, ``*``) or a table
_RULE_BLOCK = re.compile(r"(?:\d+\.|[-*]|\|)(?:\s|$)")
#: MyST roles inside a rule: {term}`PV`, {term}`texte <terme>`, {ref}`RB-X-1 <rb-x-1>`
_ROLE = re.compile(r"\{[a-z]+\}`([^`<]+?)\s*(?:<[^`>]*>)?`")


def role_text(text: str) -> str:
    """``text`` with each MyST role reduced to what it shows.

    >>> role_text("le {term}`test <test D100>` et {ref}`RB-X-1 <rb-x-1>`")
    'le test et RB-X-1'
    """
    return _ROLE.sub(r"\1", text)


def book_rule_texts(root: Path | str,
                    substitute: Callable[[str], str] | None = None) -> dict[str, str]:
    """The French statement of every rule the book states (``**ID** — …`` in
    ``book_src/`` and the Markdown pages of ``book/``), whole, as one line of plain
    text, in the order of the pages: its paragraph and the lists and tables that follow
    it (:func:`_rule_blocks`), up to the first block of another kind (a box, a code
    cell, the page's prose). MyST roles keep their text; ``substitute`` fills the
    engine's values (``{{ name }}``, :mod:`escarmouche_facts` of the book) so that a
    changed default shows in the rule's text.

    >>> import tempfile
    >>> root = Path(tempfile.mkdtemp())
    >>> (root / "book_src").mkdir()
    >>> _ = (root / "book_src" / "p.md").write_text(
    ...     "(x-a-1)=\\n**X-A-1** — Le {term}`test <test D100>` réussit\\n"
    ...     "sous {{ seuil }} :\\n\\n1. au d100 ;\\n2. au d20.\\n\\nSuite.",
    ...     encoding="utf-8")
    >>> book_rule_texts(root, lambda t: t.replace("{{ seuil }}", "5"))
    {'X-A-1': 'Le test réussit sous 5 : 1. au d100 ; 2. au d20.'}
    """
    root = Path(root)
    pages = sorted((root / "book_src").rglob("*.md"))
    pages += sorted(p for p in (root / "book").rglob("*.md")
                    if "editions" not in p.relative_to(root / "book").parts[:1])
    texts: dict[str, str] = {}
    for page in pages:
        source = page.read_text(encoding="utf-8")
        for m in _BOOK_RULE.finditer(source):
            text = role_text(_rule_blocks(source[m.end():]))
            texts.setdefault(m.group(1), substitute(text) if substitute else text)
    return texts


def _rule_blocks(source: str) -> str:
    """A rule's statement from the text after its ``**ID** — ``: the first paragraph,
    then each list or table right after it, on one line. A list item keeps its number
    (``1.``) or takes a dash (``–``); a table keeps its header and its rows, cells
    between ``|``, rows between `` ; `` (the alignment row dropped).

    >>> _rule_blocks("Deux cas :\\n\\n- l’un ;\\n  suite\\n- l’autre.\\n\\nProse.")
    'Deux cas : – l’un ; suite – l’autre.'
    >>> _rule_blocks("La table.\\n\\n| Jet | Zone |\\n|:---|:---|\\n| 1–5 | tête |\\n\\n```")
    'La table. Jet | Zone ; 1–5 | tête'
    """
    blocks = re.split(r"\n[ \t]*\n", source)
    kept = [" ".join(blocks[0].split())]
    for block in blocks[1:]:
        block = block.strip("\n")
        if not block.strip():
            continue
        if not _RULE_BLOCK.match(block):
            break
        if block.startswith("|"):
            rows = [[" ".join(c.split()) for c in line.strip().strip("|").split("|")]
                    for line in block.splitlines() if line.strip()]
            kept.append(" ; ".join(" | ".join(r) for r in rows
                                   if not all(re.fullmatch(r":?-+:?", c) for c in r)))
        else:
            items = re.split(r"\n(?=(?:\d+\.|[-*])\s)", block)
            kept += [re.sub(r"^[-*]\s", "– ", " ".join(item.split())) for item in items]
    return " ".join(kept)


def _book_facts(root: Path) -> Callable[[str], str] | None:
    """The book's ``substitute`` (``book/_ext/escarmouche_facts.py``), if present."""
    import importlib.util

    path = root / "book" / "_ext" / "escarmouche_facts.py"
    spec = importlib.util.spec_from_file_location("_escarmouche_facts_for_editions", path)
    if spec is None or spec.loader is None or not path.exists():
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    values = module.facts()
    return lambda text: str(module.substitute(text, values))


def take_snapshot(root: Path | str) -> Snapshot:
    """The snapshot of the repository at ``root`` now: engine defaults, the French text
    of every rule as the book states it (:func:`book_rule_texts`, the engine's values
    filled in) and the stored outputs of ``book/``."""
    root = Path(root)
    texts = book_rule_texts(root, _book_facts(root))
    return Snapshot(current_rules(), texts, notebook_outputs(root / "book"))

