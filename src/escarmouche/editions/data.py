"""Editions as data: the edition file (``editions/<n>.toml``), its schema, the snapshot
of what an edition published (``editions/<n>/``), and the differences between two
snapshots.

An edition file holds ``format``, ``number``, ``date``, ``summary`` and ``changes``;
each change gives its ``kind`` (:data:`KINDS`), the rule IDs it touches
(``spec/RULES.md``), a French ``text`` and, for an option default, ``system``,
``option``, ``before`` and ``after``. It is checked against
``escarmouche/schemas/edition-1.schema.json`` (fastjsonschema, through
:mod:`escarmouche.filecheck` like the saves and the roster files), with French errors
that name the field.

A snapshot (:class:`Snapshot`) is what the next edition is diffed against: every
system's default rules (``System.rules_to_json``), the text of every rule ID and the
stored outputs of the book's examples. Taking one reads the book of a repository
checkout: that is the repository's tooling (``tools/editions/book.py``), not this
package, which only reads and writes the snapshot's files.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import difflib
import json
import re
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from escarmouche import filecheck
from escarmouche.errors import SaveError, invalid, os_reason
from escarmouche.model import Json, jsonable
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
    return filecheck.load(f"edition-{version}")


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
    problem = filecheck.validate(name, plain)
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
        if c["kind"] == "option-default":
            _check_option_change(f"changes[{i}]", c)
        changes.append(Change(c["kind"], tuple(c["rules"]), c["text"], c.get("system"),
                              c.get("option"), c.get("before"), c.get("after"),
                              c.get("flag")))
    return Edition(plain["number"], date, plain["summary"], tuple(changes),
                   tuple(plain.get("reviewed", ())))


#: how an edition file writes ``None`` (TOML has no null): « aucune » valeur
NONE_WORD = "aucune"

#: the summary the drafting tool writes; an edition is not published with it
SUMMARY_PLACEHOLDER = "À rédiger : le résumé de cette édition."


def _check_option_change(where: str, change: Mapping[str, Any]) -> None:
    """An option change names a registered system, one of its options by its French key,
    and values that option accepts (``after``; ``before`` may be ``None`` for a new
    option); the declaration says which (:mod:`escarmouche.options`)."""
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
    for side in ("before", "after"):
        value = change[side]
        if value == NONE_WORD and (spec.optional or spec.default is None):
            continue  # TOML has no null: « aucune » stands for None
        if value in (None, NONE_WORD) and side == "before":
            continue  # a new option had no value before
        try:
            spec.check_value(spec.from_json(value, field=spec.key))
        except EscarmoucheError as err:
            why = f"{err.why or str(err)} pour l’option {quote(spec.key)}"
            refused = invalid(f"{where}.{side}", value, err.rule or "CORE-ERR", why,
                              kind=SaveError)
            raise refused from None


def load_edition(path: Path | str) -> Edition:
    """Read and check ``editions/<n>.toml``; the file name must be its number."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except OSError as err:
        raise _fail(path.name, str(path), f"fichier illisible ({os_reason(err)})") from None
    except tomllib.TOMLDecodeError as err:
        raise SaveError(filecheck.toml_message(path.name, err, "CORE-ERR"), field=path.name,
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
    line = filecheck.line_of(filecheck.line_map(text), err.field or "")
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
        return cls(parts[0], parts[1], parts[2])

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
                                          default=jsonable))
    return out


#: MyST roles inside a rule: {term}`PV`, {term}`texte <terme>`, {ref}`RB-X-1 <rb-x-1>`
_ROLE = re.compile(r"\{[a-z]+\}`([^`<]+?)\s*(?:<[^`>]*>)?`")


def role_text(text: str) -> str:
    """``text`` with each MyST role reduced to what it shows.

    >>> role_text("le {term}`test <test D100>` et {ref}`RB-X-1 <rb-x-1>`")
    'le test et RB-X-1'
    """
    return _ROLE.sub(r"\1", text)
