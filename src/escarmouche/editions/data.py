"""Editions as data: the edition file (``editions/<n>.toml``), its schema, the snapshot
of what an edition published (``editions/<n>/``), and the differences between two
snapshots.

An edition file holds ``format``, ``numero``, ``date``, ``resume`` and ``changements``
(and ``relus``); each change gives its ``nature`` (:data:`KINDS`, written in French:
:data:`KIND_WORDS`), the rule IDs it touches (``regles``, ``spec/RULES.md``), a French
``texte`` and, for an option default, ``systeme``, ``option``, ``avant`` and ``apres``
(and ``marque``, :data:`FLAGS`). It is checked against
``escarmouche/schemas/edition-3.schema.json`` (fastjsonschema, through
:mod:`escarmouche.filecheck` like the saves and the roster files), with French errors
that name the field. Formats 1 and 2 wrote English keys and kinds (:data:`OLD_KEYS`);
they are still read, against their own schema, with one French note that names the new
keys (:class:`~escarmouche.errors.OldNameWarning`).

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
from escarmouche.errors import SaveError, invalid, old_keys, os_reason
from escarmouche.model import Json, jsonable
from escarmouche.options import renewed
from escarmouche.text.fmt import join, quote

__all__ = [
    "CLARIFICATIONS",
    "FLAGS",
    "FLAG_WORDS",
    "FORMAT",
    "KINDS",
    "KIND_WORDS",
    "NONE_WORD",
    "OLD_KEYS",
    "SUMMARY_PLACEHOLDER",
    "Change",
    "Edition",
    "Snapshot",
    "edition_to_toml",
    "file_key",
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

#: the edition format this engine writes (the schema's ``format``): 3, keys and kinds in
#: French; formats 1 and 2 (English keys; 2 added « clarification ») are still read
FORMAT = 3

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

#: how an edition file (format 3) writes each kind
KIND_WORDS: Mapping[str, str] = {
    "new-rule": "regle-nouvelle", "revised-rule": "regle-revisee",
    "removed-rule": "regle-retiree", "new-ruling": "interpretation-nouvelle",
    "changed-ruling": "interpretation-changee", "option-default": "defaut-option",
    "clarification": "clarification"}

#: the English keys of formats 1 and 2 → those of format 3 (``format``, ``date`` and
#: ``option`` keep theirs)
OLD_KEYS: Mapping[str, str] = {
    "number": "numero", "summary": "resume", "changes": "changements", "reviewed": "relus",
    "kind": "nature", "rules": "regles", "text": "texte", "system": "systeme",
    "before": "avant", "after": "apres", "flag": "marque"}


def file_key(name: str, format_number: int = 3) -> str:
    """The key an edition file of format ``format_number`` writes for the engine's
    ``name`` (English before format 3).

    >>> file_key("changes"), file_key("changes", 2)
    ('changements', 'changes')
    """
    return OLD_KEYS.get(name, name) if format_number >= 3 else name


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

#: how an edition file (format 3) writes each mark
FLAG_WORDS: Mapping[str, str] = {"no-longer-applies": "ne-s-applique-plus",
                                  "values-changed": "valeurs-changees"}

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
    #: the format of the file it was read from (:data:`FORMAT` for a new one): the
    #: names of its keys, for the errors that point into it (:func:`file_key`)
    format: int = FORMAT

    def to_json(self) -> dict[str, Json]:
        out: dict[str, Json] = {"format": self.format, "number": self.number,
                                "date": self.date.isoformat(), "summary": self.summary,
                                "changes": [c.to_json() for c in self.changes]}
        if self.reviewed:
            out["reviewed"] = list(self.reviewed)
        return out


def schema(version: int = 1) -> dict[str, Any]:
    """The published JSON Schema of an edition file (format 1, 2 or 3)."""
    return filecheck.load(f"edition-{version}")


def _fail(field: str, value: object, why: str) -> SaveError:
    err = invalid(field, value, "CORE-ERR", why, kind=SaveError)
    assert isinstance(err, SaveError)
    return err


def parse_edition(data: Mapping[str, Any], *, source: str = "") -> Edition:
    """Check a parsed edition file against the schema of its format and build the
    :class:`Edition`; a file of format 1 or 2 (English keys) gives one French note naming
    the new keys (``source`` names the file in it).

    A TOML date is accepted for ``date``. A wrong field raises a French
    :class:`~escarmouche.errors.SaveError` that names it:

    >>> try:
    ...     parse_edition({"format": 3, "numero": 0, "date": "2026-11-30",
    ...                    "resume": "x", "changements": []})
    ... except ValueError as err:
    ...     print(err)
    Édition, champ « numero », valeur 0 : au moins 1 (CORE-ERR).
    """
    if not isinstance(data, Mapping):
        raise _fail("édition", type(data).__name__, "une table TOML est attendue")
    plain: dict[str, Any] = dict(data)
    if isinstance(plain.get("date"), _dt.date):
        plain["date"] = plain["date"].isoformat()
    given = plain.get("format")
    known = type(given) is int and given in (1, 2, FORMAT)  # not True, not 2.0
    if "format" in plain and not known:
        raise _fail("format", given, "format inconnu (ce moteur lit les formats 1, 2 et "
                    f"{FORMAT})")
    number = given if known and isinstance(given, int) else FORMAT
    problem = filecheck.validate(f"edition-{number}", plain)
    if problem is not None:
        raise SaveError(problem.message("CORE-ERR", root="édition"),
                        field=problem.path or "édition", value=problem.value,
                        rule="CORE-ERR")
    if number < 3:
        plain = _from_old(plain, number, source)

    def key(name: str) -> str:
        return file_key(name, number)

    try:
        date = _dt.date.fromisoformat(plain["date"])
    except ValueError:
        raise _fail("date", plain["date"], "date inexistante") from None
    kinds = {word: kind for kind, word in KIND_WORDS.items()}
    flags = {word: flag for flag, word in FLAG_WORDS.items()}
    changes = []
    for i, c in enumerate(plain["changements"]):
        where, kind = f"{key('changes')}[{i}]", kinds[c["nature"]]
        option = (c.get("systeme"), c.get("option"))
        if kind == "option-default" and None in option:
            raise _fail(where, c["nature"], "un changement d’option donne "
                        f"« {key('system')} » et « option »")
        if kind == "option-default" and ("avant" not in c or "apres" not in c):
            raise _fail(where, c["nature"], "un changement d’option donne "
                        f"« {key('before')} » et « {key('after')} »")
        before, after = c.get("avant"), c.get("apres")
        if kind == "option-default":
            before, after = _check_option_change(where, c, number)
        flag = flags[c["marque"]] if "marque" in c else None
        changes.append(Change(kind, tuple(c["regles"]), c["texte"], c.get("systeme"),
                              c.get("option"), before, after, flag))
    return Edition(plain["numero"], date, plain["resume"], tuple(changes),
                   tuple(plain.get("relus", ())), number)


def _from_old(plain: Mapping[str, Any], number: int, source: str) -> dict[str, Any]:
    """A file of format 1 or 2 (valid under its schema) in the shape of format 3: keys
    and kinds in French; one note names the new keys (OldNameWarning)."""
    words = {"kind": KIND_WORDS, "flag": FLAG_WORDS}
    out = {OLD_KEYS.get(k, k): v for k, v in plain.items()}
    out["changements"] = [{OLD_KEYS.get(k, k): words[k][v] if k in words else v
                           for k, v in c.items()} for c in plain["changes"]]
    used = [k for k in OLD_KEYS if k in plain or any(k in c for c in plain["changes"])]
    old_keys(source or "édition", number, FORMAT, {k: OLD_KEYS[k] for k in used},
             "CORE-ERR", stacklevel=4)
    return out


#: how an edition file writes ``None`` (TOML has no null): « aucune » valeur
NONE_WORD = "aucune"

#: the summary the drafting tool writes; an edition is not published with it
SUMMARY_PLACEHOLDER = "À rédiger : le résumé de cette édition."


def _check_option_change(where: str, change: Mapping[str, Any], number: int = FORMAT
                         ) -> tuple[Any, Any]:
    """An option change names a registered system, one of its options by its French key,
    and values that option accepts (``after``; ``before`` may be ``None`` for a new
    option); the declaration says which (:mod:`escarmouche.options`). Returns
    ``(before, after)``, an old value renamed in French read as its new one, with a
    note (``Option.renamed``)."""
    from escarmouche.errors import EscarmoucheError
    from escarmouche.systems import available, get

    name = change["systeme"]
    if name not in available():
        raise _fail(f"{where}.{file_key('system', number)}", name,
                    "système inconnu, à choisir parmi "
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
    values = {"before": change["avant"], "after": change["apres"]}
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
            refused = invalid(f"{where}.{file_key(side, number)}", value,
                              err.rule or "CORE-ERR", why, kind=SaveError)
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
        raise SaveError(filecheck.toml_message(path.name, err, "CORE-ERR"), field=path.name,
                        value=None, rule="CORE-ERR") from None
    try:
        edition = parse_edition(data, source=path.name)
    except SaveError as err:
        raise _located(err, path.name, text) from None
    if path.stem != str(edition.number):
        raise _fail(file_key("number", edition.format), edition.number,
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
    """One change as a TOML ``[[changements]]`` block, in the current format (the
    Atelier's export, the draft)."""
    lines = ["[[changements]]", f"nature = {_toml_value(KIND_WORDS[change.kind])}",
             f"regles = {_toml_value(list(change.rules))}"]
    if change.system is not None:
        lines.append(f"systeme = {_toml_value(change.system)}")
    if change.option is not None:
        lines.append(f"option = {_toml_value(change.option)}")
        lines.append(f"avant = {_toml_value(change.before)}")
        lines.append(f"apres = {_toml_value(change.after)}")
    if change.flag is not None:
        lines.append(f"# À relire : {FLAGS[change.flag]}.")
        lines.append(f"marque = {_toml_value(FLAG_WORDS[change.flag])}")
    lines.append(f"texte = {_toml_value(change.text)}")
    return "\n".join(lines) + "\n"


def edition_to_toml(edition: Edition) -> str:
    """The edition file, as ``tools/edition.py`` writes it (TOML, French keys and
    comments, always the current :data:`FORMAT`, whatever format it was read from)."""
    head = [
        "# Une fiche par édition du livre ; le plus grand numéro est l’édition en cours.",
        f"# Format : escarmouche/schemas/edition-{FORMAT}.schema.json ;"
        " la page « Ce qui a changé »",
        "# est produite depuis cette fiche (tools/edition.py, make edition).",
        f"format = {FORMAT}",
        f"numero = {edition.number}",
        f"date = {edition.date.isoformat()}",
        f"resume = {_toml_value(edition.summary)}",
    ]
    if edition.reviewed:
        head.append("# Exemples relus : leur sortie a changé, leur texte reste juste.")
        head.append(f"relus = {_toml_value(list(edition.reviewed))}")
    if not edition.changes:
        head.append("changements = []")
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
    """A snapshot's rules, old option values read as their French names, silently
    (``Option.renamed``): a draft does not take a renaming for a changed default."""
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
