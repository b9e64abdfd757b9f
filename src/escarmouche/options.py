"""Rule options, each declared once, on its ``Rules`` field.

A system's options are the fields of its frozen ``Rules`` dataclass. Each field is made
with :func:`option`, which records everything a reader, a file or a designer needs to
know about it, next to its default:

- ``label``: its French label (« parades par round »);
- ``key``: its French key, the one a person types: in a roster file's ``[options]``,
  with ``escarmouche simule --option``, in an edition file and in the Atelier
  (``parades_par_round``);
- ``rules``: the rule IDs it stands for (``D100-PARRY-3``);
- ``lo``/``hi`` (integers), ``choices`` (the allowed values, with the French label of
  each), ``labels`` (French labels of particular values, such as ``None`` → « aucun
  plafond ») and ``check`` (a validator of the system's own, such as a dice
  expression); ``parse`` reads a JSON value of the system's own shape (d12's action
  list);
- ``renamed``: old values still read (old → new), for a value renamed in French
  (``"weakest"`` → ``"plus_faible"``); an old value given anywhere (``Rules(...)``, a
  roster or edition file, ``--option``, a save) is converted, with a French note
  naming the new one (:class:`~escarmouche.errors.OldNameWarning`);
- ``bound``: for a safety bound of the engine rather than a rule (the text repeats a
  step without limit, the engine stops after so many times), the French reason; such a
  value changes a fight only once it is reached, so no duel measures it: the edition
  page says so, and its exact odds give the chance of reaching it.

Everything else is derived from that one declaration (:class:`Option`): the bounds
check of ``Rules.__post_init__`` (:func:`check_options`), reading the rules from JSON and
from French keys (:func:`rules_from_json`, :func:`rules_from_keys`), the options table
of the book (:func:`escarmouche.render.table.options_table`), the widgets' controls,
the edition diff and the sweep columns (:meth:`Option.value_label`,
:attr:`Option.title`).

>>> import dataclasses
>>> @dataclasses.dataclass(frozen=True)
... class Rules:
...     bonus: int = option(2, label="bonus d’attaque", key="bonus_attaque",
...                         rules=("X-ATK-1",), lo=0, hi=10)
...     def __post_init__(self) -> None:
...         check_options(self)
>>> spec = find(Rules, "bonus_attaque")
>>> spec.name, spec.default, spec.title
('bonus', 2, 'Bonus d’attaque (X-ATK-1)')
>>> rules_from_keys(Rules, {"bonus_attaque": 4})
Rules(bonus=4)
>>> try:
...     Rules(bonus=11)
... except ValueError as err:
...     print(err.field, err.value, err.rule)
bonus 11 X-ATK-1
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any, Literal

from escarmouche import checks
from escarmouche.errors import HIDDEN, EscarmoucheError, ParameterError, invalid, old_name
from escarmouche.text.fmt import join, number, quote

__all__ = [
    "META_KEY",
    "Option",
    "another_value",
    "check_options",
    "find",
    "option",
    "options_of",
    "renewed",
    "rules_from_json",
    "rules_from_keys",
    "rules_to_json",
    "value_label",
]

#: the key of a field's ``metadata`` that holds its :class:`Option`
META_KEY = "escarmouche.option"

Kind = Literal["bool", "int", "choice", "text", "set", "list", "other"]

_EMPTY: Mapping[Any, str] = MappingProxyType({})


@dataclasses.dataclass(frozen=True, slots=True)
class Option:
    """One rule option, as its ``Rules`` field declares it (see the module docstring).

    ``name`` (the field's name in the engine) and ``default`` are filled in from the
    field by :func:`options_of`.
    """

    label: str
    key: str
    rules: tuple[str, ...]
    lo: int | None = None
    hi: int | None = None
    choices: Mapping[Any, str] | None = None
    labels: Mapping[Any, str] = dataclasses.field(default_factory=lambda: _EMPTY)
    optional: bool = False
    check: Callable[[Any], Any] | None = None
    parse: Callable[[Any], Any] | None = None
    #: a safety bound of the engine, not a rule: why, in French (``""``: a rule)
    bound: str = ""
    #: old values still read, each converted to its new value with a French note
    renamed: Mapping[Any, Any] = dataclasses.field(default_factory=lambda: _EMPTY)
    name: str = ""
    default: Any = None

    # -- what it is --------------------------------------------------------------------

    @property
    def rule(self) -> str:
        """The first rule ID, cited by a refusal."""
        return self.rules[0] if self.rules else "CORE-ERR"

    @property
    def title(self) -> str:
        """The label, capitalised, with its rule IDs: « Parades par round (D100-PARRY-3) »."""
        text = self.label[:1].upper() + self.label[1:]
        return f"{text} ({', '.join(self.rules)})" if self.rules else text

    @property
    def cited(self) -> str:
        """The label with its rule IDs, not capitalised (inside a sentence)."""
        return f"{self.label} ({', '.join(self.rules)})" if self.rules else self.label

    @property
    def kind(self) -> Kind:
        """What sort of value it takes, for controls: ``"bool"``, ``"int"`` (with
        ``lo``/``hi``), ``"choice"`` (one of ``choices``), ``"text"``, ``"set"`` (of
        identifiers), ``"list"`` or ``"other"``."""
        if self.choices is not None:
            return "choice"
        default = self.default
        if isinstance(default, bool):
            return "bool"
        if checks.is_int(default) or (default is None and self.lo is not None):
            return "int"
        if isinstance(default, str):
            return "text"
        if isinstance(default, frozenset):
            return "set"
        if isinstance(default, tuple):
            return "list"
        return "other"

    # -- its values --------------------------------------------------------------------

    def value_label(self, value: object) -> str:
        """A value of this option as a reader sees it: the French label the declaration
        gives it, « oui »/« non », « aucun », numbers in French (minus sign), sets and
        lists joined with « et », an object by its ``label``."""
        named = self.choices if self.choices is not None else self.labels
        if self.choices is not None and self.labels:
            named = {**self.labels, **self.choices}
        return value_label(value, named)

    def new_value(self, value: object) -> Any:
        """``value``, or its new name when it is an old one (``renamed``), with a French
        note (:class:`~escarmouche.errors.OldNameWarning`) naming the new one."""
        try:
            new = self.renamed.get(value, value) if self.renamed else value
        except TypeError:  # an unhashable value has no old name
            return value
        if new is not value and new != value:
            old_name(self.key, value, new, self.rule, stacklevel=5)
        return new

    def check_value(self, value: object) -> Any:
        """``value`` if this option accepts it (its type, bounds, choices, the system's
        own check), else a French :class:`~escarmouche.errors.ParameterError` naming the
        option and its rule. An old value (``renamed``) is accepted as its new one, which
        is returned."""
        value = self.new_value(value)
        if value is None and (self.optional or self.default is None):
            return None
        if self.choices is not None:
            try:
                ok = value in self.choices
            except TypeError:
                ok = False
            if not ok:
                shown = [f"{quote(str(v))} ({label})" for v, label in self.choices.items()]
                raise invalid(self.name, value, self.rule,
                              f"à choisir parmi {join(shown, last='ou')}", label=self.label)
        elif isinstance(self.default, bool):
            checks.flag(self.name, value, self.rule, label=self.label)
        elif self.lo is not None and self.hi is not None:
            checks.integer(self.name, value, lo=self.lo, hi=self.hi, rule=self.rule,
                           label=self.label)
        if self.check is not None:
            try:
                return self.check(value)
            except EscarmoucheError as err:
                if err.field != self.name or err.why is None:
                    raise
                # the system's own check names the field: the reader reads its label
                raise invalid(self.name, err.value, err.rule or self.rule, err.why,
                              kind=type(err), label=self.label) from None
        return value

    def from_json(self, value: object, *, field: str | None = None) -> Any:
        """A value read from JSON or TOML, turned into the kind of the default (lists
        become tuples or frozensets); a value of the wrong kind is refused, naming
        ``field`` (default: the engine name)."""
        name = field or self.name
        default = self.default
        if self.parse is not None:
            return self.parse(value)
        if value is None and (self.optional or default is None):
            return None
        if isinstance(default, bool):
            ok, what = isinstance(value, bool), "oui ou non (true ou false) est attendu"
        elif checks.is_int(default) or (default is None and self.lo is not None):
            ok, what = checks.is_int(value), "un nombre entier est attendu"
        elif isinstance(default, str):
            ok, what = isinstance(value, str), "un texte est attendu"
        elif isinstance(default, tuple | frozenset):
            ok, what = isinstance(value, list | tuple), "une liste est attendue"
        elif isinstance(default, Mapping):
            ok, what = isinstance(value, dict), "un dictionnaire est attendu"
        else:
            ok, what = True, ""
        if not ok:
            raise invalid(name, value, self.rule, what, label=self.label)
        if isinstance(default, tuple):
            return tuple(value)  # type: ignore[arg-type]
        if isinstance(default, frozenset):
            try:
                return frozenset(value)  # type: ignore[call-overload]
            except TypeError:
                raise invalid(name, HIDDEN, self.rule, "une liste de valeurs simples est "
                              "attendue", label=self.label) from None
        return value

    def to_json(self, value: object) -> Any:
        """A value of this option as JSON (sets sorted, tuples as lists)."""
        if isinstance(value, Mapping):
            return {str(k): v for k, v in value.items()}
        if isinstance(value, frozenset | set):
            return sorted(value)
        if isinstance(value, tuple):
            return [v.to_json() if hasattr(v, "to_json") else v for v in value]
        return value


def another_value(option: Option, value: object) -> object:
    """A value other than ``value`` that ``option`` accepts: the other boolean, the next
    or previous whole number within bounds (3 or 1 for an optional number left unset),
    another declared choice; ``None`` when there is no scalar one (a set of traits, a
    weapon, the action catalogue). What the moved-defaults run and the edition tests
    change a default to.

    >>> from escarmouche.systems import d12
    >>> another_value(d12.SYSTEM.option("max_initiative_rerolls"), 20)
    21
    """
    if isinstance(value, bool):
        return not value
    if value is None or isinstance(value, int):
        for v in ((3, 1) if value is None else (value + 1, value - 1)):
            try:
                option.check_value(v)
            except ValueError:
                continue
            return v
    return next((c for c in option.choices or () if c != value), None)


def option(default: Any, *, label: str, key: str, rules: Iterable[str] = (),
           lo: int | None = None, hi: int | None = None,
           choices: Mapping[Any, str] | None = None, labels: Mapping[Any, str] | None = None,
           optional: bool = False, check: Callable[[Any], Any] | None = None,
           parse: Callable[[Any], Any] | None = None, bound: str = "",
           renamed: Mapping[Any, Any] | None = None) -> Any:
    """A ``Rules`` field with its :class:`Option` declaration (see the module docstring).
    Use it as the field's default: ``parries_per_round: int = option(1, label=…, …)``."""
    if renamed and choices is not None:
        unknown = sorted(str(new) for new in renamed.values() if new not in choices)
        if unknown:
            raise invalid("renamed", unknown[0], "CORE-ERR",
                          f"nouveau nom absent des valeurs de l’option {key}")
    spec = Option(label, key, tuple(rules), lo, hi,
                  MappingProxyType(dict(choices)) if choices is not None else None,
                  MappingProxyType(dict(labels or {})), optional, check, parse, bound,
                  MappingProxyType(dict(renamed or {})))
    return dataclasses.field(default=default, metadata={META_KEY: spec})


@functools.cache
def _options(rules_type: type) -> tuple[Option, ...]:
    out = []
    for f in dataclasses.fields(rules_type):
        spec = f.metadata.get(META_KEY)
        default = f.default if f.default is not dataclasses.MISSING else None
        if not isinstance(spec, Option):
            # a field declared without option(): its name is its key and its label
            spec = Option(f.name.replace("_", " "), f.name, ())
        out.append(dataclasses.replace(spec, name=f.name, default=default))
    keys = [o.key for o in out]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:
        raise invalid("clé", twice[0], "CORE-ERR",
                      f"deux options de {rules_type.__qualname__} portent cette clé française")
    return tuple(out)


def options_of(rules: object) -> tuple[Option, ...]:
    """The declared options of a ``Rules`` class (or instance), in field order."""
    rules_type = rules if isinstance(rules, type) else type(rules)
    if not dataclasses.is_dataclass(rules_type):
        raise invalid("règles", rules_type.__qualname__, "CORE-ERR",
                      "une classe Rules (dataclass) est attendue")
    return _options(rules_type)


def find(rules: object, name: str, *, system: str = "", field: str = "option") -> Option:
    """The option named ``name``: its French key or its engine name; an unknown one is
    refused with the list of French keys (the error names ``field``)."""
    for spec in options_of(rules):
        if name in (spec.key, spec.name):
            return spec
    where = f" du système {system}" if system else ""
    known = [o.key for o in options_of(rules)]
    close = difflib.get_close_matches(str(name), known, n=1, cutoff=0.6)
    if close:
        raise invalid(field, name, "CORE-ERR",
                      f"option inconnue{where} ; vouliez-vous dire {quote(close[0])} ?")
    raise invalid(field, name, "CORE-ERR", f"option inconnue{where} ; les options sont "
                  f"{join([quote(k) for k in known], empty='aucune')}")


def check_options(rules: object) -> None:
    """Check every declared option of a ``Rules`` instance (bounds, choices, the
    system's own check) and store the value the check returns; call it first in
    ``Rules.__post_init__``."""
    for spec in options_of(rules):
        value = getattr(rules, spec.name)
        try:
            checked = spec.check_value(value)
        except EscarmoucheError as err:
            _declared_fault(rules, spec, value, err)
            raise
        if checked is not value:
            object.__setattr__(rules, spec.name, checked)


def _declared_fault(rules: object, spec: Option, value: object,
                    err: EscarmoucheError) -> None:
    """When the refused value is the option's own declared default, the declaration is
    at fault, not the caller: stop with one French line that names its file and line
    (``SystemExit``, no traceback), since every command imports the declarations."""
    import inspect

    fields = dataclasses.fields(type(rules))  # type: ignore[arg-type]
    field = next((f for f in fields if f.name == spec.name), None)
    if field is None or field.default is dataclasses.MISSING or field.default != value:
        return
    try:
        source = inspect.getsourcefile(type(rules)) or ""
        lines, start = inspect.getsourcelines(type(rules))
    except (OSError, TypeError):
        return
    line = next((start + i for i, text in enumerate(lines)
                 if text.lstrip().startswith(f"{spec.name}:")), start)
    raise SystemExit(f"escarmouche\u00a0: {source}, ligne {line} — la valeur par défaut "
                     f"déclarée pour l’option {spec.key} est refusée par sa propre "
                     f"déclaration\u00a0: {err}")


def _build(rules_type: type, kwargs: Mapping[str, Any], system: str, first: str) -> Any:
    try:
        return rules_type(**kwargs)
    except EscarmoucheError:
        raise
    except (TypeError, ValueError):
        where = f" pour le système {system}" if system else ""
        raise invalid("options", first, "CORE-ERR", f"valeurs incohérentes{where}") from None


def rules_from_json(rules_type: type, data: Mapping[str, Any], *, system: str = "") -> Any:
    """A ``Rules`` from JSON keyed by engine names (saves, snapshots)."""
    names = {o.name: o for o in options_of(rules_type)}
    unknown = sorted(set(data) - set(names))
    if unknown:
        where = f" pour le système {system}" if system else ""
        raise invalid("option", unknown[0], "CORE-ERR",
                      f"option inconnue{where} ; les options sont {join(sorted(names))}")
    kwargs = {k: names[k].from_json(v) for k, v in data.items()}
    return _build(rules_type, kwargs, system, sorted(data)[0] if data else "")


def rules_from_keys(rules_type: type, data: Mapping[str, Any], *, system: str = "",
                    base: object = None) -> Any:
    """A ``Rules`` from values keyed by French keys (roster files, ``--option``, edition
    files, the Atelier), starting from ``base`` (default: the defaults). A refusal names
    the French key."""
    kwargs: dict[str, Any] = {}
    for key, value in data.items():
        spec = find(rules_type, key, system=system)
        if spec.key != key:
            # a person types French keys: an engine name is refused with its key
            raise invalid("option", key, "CORE-ERR",
                          f"option inconnue ; sa clé française est {quote(spec.key)}")
        converted = spec.from_json(value, field=spec.key)
        try:
            # an old value becomes its new one here, with one note (spec.renamed)
            converted = spec.new_value(converted)
            spec.check_value(converted)
        except ParameterError as err:
            # the same sentence (it names the option by its label), keyed by the French key
            raise ParameterError(str(err), field=spec.key, value=converted, rule=err.rule,
                                 why=err.why, label=err.label) from None
        kwargs[spec.name] = converted
    if base is not None:
        kwargs = {**{o.name: getattr(base, o.name) for o in options_of(rules_type)},
                  **kwargs}
    return _build(rules_type, kwargs, system, next(iter(data), ""))


def renewed(rules_type: type, data: Mapping[str, Any]) -> dict[str, Any]:
    """JSON keyed by engine names, each old value (``Option.renamed``) replaced by its
    new name, silently: for the engine's own records (an edition snapshot), where no
    person typed the old value.

    >>> from escarmouche.systems import rulebook
    >>> renewed(rulebook.Rules, {"surprise_aggregate": "weakest", "crit_success_max": 5})
    {'surprise_aggregate': 'plus_faible', 'crit_success_max': 5}
    """
    names = {o.name: o for o in options_of(rules_type)}
    out = dict(data)
    for name, value in data.items():
        spec = names.get(name)
        if spec is not None and spec.renamed and isinstance(value, str | int | bool):
            out[name] = spec.renamed.get(value, value)
    return out


def rules_to_json(rules: object) -> dict[str, Any]:
    """A ``Rules`` as JSON keyed by engine names."""
    return {o.name: o.to_json(getattr(rules, o.name)) for o in options_of(rules)}



def value_label(value: object, named: Mapping[Any, str] | None = None) -> str:
    """A value as a reader sees it: its label in ``named``, « oui »/« non », « aucun »,
    numbers in French with a minus sign, sets and lists joined with « et », an object by
    its ``label`` (the one renderer of option values).

    >>> value_label(True), value_label(None), value_label(1500), value_label(-10)
    ('oui', 'aucun', '1500', '−10')
    >>> value_label("weakest", {"weakest": "la plus faible"})
    'la plus faible'
    >>> value_label(frozenset({"b", "a"})), value_label(())
    ('a et b', 'aucun')
    """
    try:
        if named and value in named:
            return named[value]
    except TypeError:  # an unhashable value has no label
        pass
    if isinstance(value, bool):
        return "oui" if value else "non"
    if value is None:
        return "aucun"
    if isinstance(value, int | float):
        return number(value).replace("-", "−")
    if isinstance(value, frozenset | set):
        return join(sorted(value_label(v, named) for v in value), empty="aucun")
    if isinstance(value, list | tuple):
        return join([value_label(v, named) for v in value], empty="aucun")
    if isinstance(value, Mapping):
        label = value.get("label", value.get("id"))
        return str(label) if label is not None else "…"
    label = getattr(value, "label", None)
    return str(label) if label is not None else str(value)
