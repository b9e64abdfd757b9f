"""Roster files: an encounter described in TOML, with French keys (docs/cli.md).

A roster file gives the system and its options, the start options, the sides (camps)
with their tactics policy and their combatants, and optional end conditions. It is read
in four steps, and nothing runs unless all pass (CORE-ERR):

1. **the text**: at most :data:`MAX_ROSTER_CHARS` characters, parsed by the standard
   library's ``tomllib`` (a syntax error names its line and column, in French);
2. **the shape**: the published, versioned JSON Schema
   (``escarmouche/schemas/roster-2.schema.json``, :func:`roster_schema`), checked with
   fastjsonschema like the saves and the edition files (:mod:`escarmouche.filecheck`);
   a file of format 1 (``version = 1``, the key's old name) is still read, against
   ``roster-1.schema.json``, with a French note (:class:`~escarmouche.errors.OldNameWarning`);
3. **the meaning**: the system exists, the French option keys are those its ``Rules``
   fields declare (:mod:`escarmouche.options`), the policies are registered, each
   combatant is a valid
   :class:`~escarmouche.model.Combatant` for the system (``System.validate``);
4. **a trial start** on a throwaway copy, so that bad start options (an unknown weapon,
   a square taken twice …) are refused now, not in the middle of a run.

Every fault raises :class:`~escarmouche.errors.RosterError` naming the **line** and the
field (``camps[0].combattants[1].caracteristiques.CC``):

>>> text = '''
... format = 2
... titre = "Duel"
... systeme = "d20"
...
... [[camps]]
... nom = "héros"
... politique = "prudent"
... [[camps.combattants]]
... nom = "Brune"
... caracteristiques = { PV = 12 }
...
... [[camps]]
... nom = "orques"
... [[camps.combattants]]
... nom = "Grolk"
... caracteristiques = { PV = "huit" }
... '''
>>> parse_roster(text)  # doctest: +NORMALIZE_WHITESPACE
Traceback (most recent call last):
  ...
escarmouche.errors.RosterError: <texte>, ligne 17, champ «
camps[1].combattants[0].caracteristiques.PV », valeur « huit » : un nombre entier est attendu
(CORE-ERR).
>>> roster = parse_roster(text.replace('"huit"', "8"))
>>> roster.title, roster.system, [c.name for c in roster.combatants]
('Duel', 'd20', ['Brune', 'Grolk'])
>>> dict(roster.policies)
{'héros': 'prudent', 'orques': 'agressif'}
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import gc
import random
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from escarmouche import filecheck
from escarmouche.encounter import MAX_RUN_TURNS, Encounter, EndCondition
from escarmouche.errors import (
    EscarmoucheError,
    RosterError,
    old_name,
    os_reason,
    sentence,
    shown,
)
from escarmouche.filecheck import line_map as line_map
from escarmouche.filecheck import toml_problem as toml_problem
from escarmouche.model import Combatant
from escarmouche.policies import POLICIES
from escarmouche.rng import checked_dice, rng_state, set_rng_state
from escarmouche.systems import available
from escarmouche.systems import get as get_system
from escarmouche.text.fmt import join, number, quote

__all__ = [
    "FORMAT",
    "MAX_ROSTER_CHARS",
    "OLD_FORMATS",
    "Roster",
    "example_rosters",
    "load_roster",
    "open_roster",
    "parse_roster",
    "roster_schema",
]

#: the roster format this engine writes and reads (the schema's ``format``; format 1
#: named it ``version``, and is still read)
FORMAT = 2
#: the old formats still read: number → the key that held it
OLD_FORMATS: Mapping[int, str] = {1: "version"}
#: the longest roster file accepted, in characters
MAX_ROSTER_CHARS = 1_000_000
#: how many compiled kernels (one per policy) a roster keeps
_MAX_KERNELS = 16

#: the per-combatant keys the roster schema knows that become start options; each
#: system says which of them it takes (``System.combatant_keys``)
_COMBATANT_START_KEYS = ("arme", "arme_secondaire", "position")


def roster_schema(number: int = FORMAT) -> dict[str, Any]:
    """The published JSON Schema of roster format ``number`` (draft-07)."""
    return filecheck.load(f"roster-{number}")


@dataclass(frozen=True)
class Roster:
    """An encounter read from a roster file (immutable and picklable: it crosses process
    boundaries). :meth:`encounter` gives a fresh, unstarted fight; :meth:`play` starts it
    with :attr:`start_options` and runs it with :attr:`policies`."""

    title: str
    system: str
    rules: Any
    combatants: tuple[Combatant, ...]
    start_options: Mapping[str, Any]
    end_conditions: tuple[EndCondition, ...]
    policies: Mapping[str, str]
    source: str = "<texte>"
    _lines: Mapping[str, int] = field(default_factory=dict, repr=False, compare=False)
    _paths: Mapping[str, str] = field(default_factory=dict, repr=False, compare=False)

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c.side for c in self.combatants))

    def encounter(self) -> Encounter:
        """A fresh fight, not started (start it with ``**start_options``): a copy of the
        roster's own unstarted fight, built and checked once."""
        return self._template.copy()

    @functools.cached_property
    def _template(self) -> Encounter:
        return Encounter(self.system, self.combatants, rules=self.rules,
                         end_conditions=self.end_conditions)

    @functools.cached_property
    def _kernels(self) -> dict[Any, Any]:
        """The system's rules kernel compiled for this roster's fights, by policy
        (``System.kernel``; ``None`` where it does not cover them)."""
        return {}

    def __getstate__(self) -> dict[str, Any]:
        """What a pickle keeps (a roster crosses process boundaries): the fields, not
        the unstarted fight built from them nor its compiled kernels."""
        state = dict(self.__dict__)
        state.pop("_template", None)
        state.pop("_kernels", None)
        return state

    def _kernel(self, policy: Any, max_turns: Any) -> Any:
        """The rules kernel that plays this roster's fights under ``policy`` (a name, or
        side → name), compiled once; ``None`` when there is none, or when the engine
        must say what is wrong (a bad ``max_turns`` or policy)."""
        from escarmouche.policies import resolve_policies

        if type(max_turns) is not int or not 1 <= max_turns <= MAX_RUN_TURNS:
            return None
        if isinstance(policy, Mapping):
            if not all(isinstance(v, str) for v in policy.values()):
                return None
            key: Any = tuple(sorted(policy.items()))
        elif policy is None or isinstance(policy, str):
            key = policy
        else:
            return None  # a policy object: the engine plays it
        kernels = self._kernels
        if key not in kernels:
            template = self._template
            try:
                policies = resolve_policies(self.system, list(self.sides), policy)
            except EscarmoucheError:
                return None
            if len(kernels) >= _MAX_KERNELS:
                kernels.clear()
            kernels[key] = template.system.kernel(template, dict(self.start_options),
                                                  policies)
        return kernels[key]

    def play(self, rng: Any, *, max_turns: int = 50, policy: Any = None,
             tactics_rng: Any = None) -> Encounter:
        """A fresh fight, started with the start options and played to its end with the
        roster's policies (or ``policy``, see ``Encounter.run``).

        Where the system's rules kernel narrates the fight (``System.narrated_run``: every
        fight a kernel covers, but d100 ground to cross), the kernel
        plays it and the engine's log is narrated from the kernel's: the same fight,
        state and log, event for event, for the same dice; otherwise the engine plays
        it (``Encounter.start``, ``Encounter.run``)."""
        sheet = self._kernel(self.policies if policy is None else policy, max_turns)
        if sheet is not None:
            snapshot = rng_state(rng)
            # the cyclic garbage collector paused for the fight, which makes no cycle but
            # many small objects, each of which would count towards a collection that
            # walks everything the process keeps (the kernels' kept words included)
            paused = gc.isenabled()
            gc.disable()
            try:
                # (the kernel trusts its dice: an rng of the caller's own is checked)
                played = self._template.system.narrated_run(
                    sheet, checked_dice(rng), max_turns,
                    None if tactics_rng is None else checked_dice(tactics_rng))
            except BaseException as err:  # all or nothing, as Encounter.run
                set_rng_state(rng, snapshot)
                if not isinstance(err, EscarmoucheError):
                    raise  # a fault, not a refusal: never hidden by the engine's replay
                played = None  # the engine plays it again, and words the refusal
            finally:
                if paused:
                    gc.enable()
            if played is not None:
                return played  # type: ignore[no-any-return]
        enc = self.encounter()
        enc.start(rng, **dict(self.start_options))
        enc.run(rng, max_turns=max_turns, policy=self.policies if policy is None else policy,
                tactics_rng=tactics_rng)
        return enc

    def with_rules(self, rules: Any) -> Roster:
        """The same roster under other rules (checked like a file's options)."""
        system = get_system(self.system)
        if not isinstance(rules, system.rules_type):
            raise RosterError(f"{self.source} : une instance de {self.system}.Rules est "
                              "attendue pour les règles (CORE-ERR).", field="rules",
                              rule="CORE-ERR")
        out = dataclasses.replace(self, rules=rules)
        _trial(out, self._lines)
        return out

    def with_options(self, **changes: Any) -> Roster:
        """The same roster with some options replaced, named by their French keys (those
        of a roster file's ``[options]``, :mod:`escarmouche.options`)."""
        system = get_system(self.system)
        try:
            rules = system.rules_from_keys(changes, base=self.rules)
        except EscarmoucheError as err:
            key = str(err.field) if err.field in changes else ""
            raise _wrapped(self.source, self._lines, f"options.{key}" if key else "options",
                           err, key or None) from None
        return self.with_rules(rules)


# -- errors that name the line (line_map, the line of each key: escarmouche.filecheck) -----


def _error(source: str, lines: Mapping[str, int], path: str, message: str,
           rule: str = "CORE-ERR", value: object = None) -> RosterError:
    line = filecheck.line_of(lines, path)
    # « fichier, ligne N, champ « x », valeur V : pourquoi (RÈGLE). »: one colon
    return RosterError(filecheck.located(source, line, path, message, rule), field=path or None,
                       value=value, rule=rule, line=line)


def _wrapped(source: str, lines: Mapping[str, int], path: str, err: EscarmoucheError,
             key: str | None = None) -> RosterError:
    """An engine refusal (a sentence) met while reading ``path``: the file, the line and
    the path come first, as a sentence of their own; the refusal names the field by its
    label (an option's, ``key`` being its French key in the file)."""
    line = filecheck.line_of(lines, path)
    where = f"{source}, ligne {line}" if line is not None else source
    return RosterError(f"{where}, champ « {path} ». {sentence(str(err))}", field=path,
                       value=err.value, rule=err.rule or "CORE-ERR", line=line)


# -- parsing -------------------------------------------------------------------------------


def parse_roster(text: str, *, source: str = "<texte>") -> Roster:
    """Read a roster from TOML text (see the module docstring); ``source`` names it in
    the errors."""
    if not isinstance(text, str):
        raise RosterError(f"{source} : un texte TOML est attendu (CORE-ERR).", rule="CORE-ERR")
    if len(text) > MAX_ROSTER_CHARS:
        raise RosterError(f"{source} : fichier trop long, {number(len(text))} caractères "
                          f"pour au plus {number(MAX_ROSTER_CHARS)} (CORE-ERR).",
                          rule="CORE-ERR")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        line, _, _ = toml_problem(err)
        raise RosterError(filecheck.toml_message(source, err, "CORE-ERR"), field="toml",
                          rule="CORE-ERR", line=line) from None
    except RecursionError:
        raise RosterError(f"{source} : texte TOML imbriqué trop profondément (CORE-ERR).",
                          rule="CORE-ERR") from None
    lines = line_map(text)
    problem = filecheck.validate(f"roster-{_format(data, source, lines)}", data, lines=lines)
    if problem is not None:
        raise _error(source, lines, problem.path, problem.reason, value=problem.value)
    roster = _build(data, source, lines)
    _trial(roster, lines)
    return roster


def _format(data: dict[str, Any], source: str, lines: Mapping[str, int]) -> int:
    """The format of a roster file: ``format`` (2), or format 1's ``version = 1``, read
    with a French note naming the new key; any other number is refused (CORE-ERR)."""
    found = [(FORMAT, "format")] if "format" in data else [
        (old, key) for old, key in OLD_FORMATS.items() if key in data]
    for wanted, key in found[:1]:
        if data[key] != wanted:
            raise _error(source, lines, key,
                         f"{shown(data[key])} : format de fichier inconnu (ce moteur lit le "
                         f"format {FORMAT}, et le format 1 écrit « version = 1 »)")
        if key != "format":
            old_name(key, f"{key} = {wanted}", f"format = {FORMAT}", "CORE-ERR",
                     what="clé", where=source, stacklevel=4)
            return wanted
    return FORMAT


def _build(data: dict[str, Any], source: str, lines: Mapping[str, int]) -> Roster:
    name = data["systeme"]
    try:
        system = get_system(name)
    except EscarmoucheError:
        raise _error(source, lines, "systeme",
                     f"{quote(name)} : système inconnu, à choisir parmi "
                     f"{join([quote(n) for n in available()], last='ou')}") from None
    options: dict[str, Any] = dict(data.get("options", {}))
    keys = {o.key for o in system.options()}
    for key in options:
        if key not in keys:
            close = difflib.get_close_matches(key, sorted(keys), n=1, cutoff=0.6)
            hint = (f"vouliez-vous dire {quote(close[0])} ?" if close else "les options sont "
                    + join([quote(k) for k in sorted(keys)], empty="aucune"))
            raise _error(source, lines, f"options.{key}",
                         f"option inconnue du système {system.name} ; {hint}")
    try:
        rules = system.rules_from_keys(options)
    except EscarmoucheError as err:
        key = str(err.field) if err.field in keys else ""
        raise _wrapped(source, lines, f"options.{key}" if key else "options", err,
                       key or None) from None
    start: dict[str, Any] = dict(data.get("depart", {}))
    unknown = sorted(set(start) - set(system.start_options))
    if unknown:
        raise _error(source, lines, f"depart.{unknown[0]}",
                     f"option de départ inconnue du système {system.name} ; les options de "
                     "départ sont "
                     f"{join([quote(o) for o in system.start_options], empty='aucune')}")
    combatants: list[Combatant] = []
    policies: dict[str, str] = {}
    seen: dict[str, str] = {}
    entry_keys = system.combatant_keys
    for i, camp in enumerate(data["camps"]):
        side = camp["nom"]
        where = f"camps[{i}]"
        if side in policies:
            raise _error(source, lines, f"{where}.nom", f"{quote(side)} : ce camp est déjà "
                         "décrit plus haut ; un camp par nom")
        chosen = camp.get("politique", system.default_policy)
        if chosen not in POLICIES:
            raise _error(source, lines, f"{where}.politique",
                         f"{quote(chosen)} : politique inconnue, à choisir parmi "
                         f"{join([quote(p) for p in sorted(POLICIES)], last='ou')}")
        policies[side] = chosen
        for j, entry in enumerate(camp["combattants"]):
            path = f"{where}.combattants[{j}]"
            who = entry["nom"]
            if who in seen:
                raise _error(source, lines, f"{path}.nom",
                             f"{quote(who)} : deux combattants portent ce nom ; chaque nom "
                             "doit être unique")
            seen[who] = path
            for key in _COMBATANT_START_KEYS:
                if key in entry and key not in entry_keys:
                    raise _error(source, lines, f"{path}.{key}",
                                 f"cette clé ne s’emploie pas avec le système {system.name}")
            try:
                c = Combatant(who, side, entry["caracteristiques"],
                              skills=frozenset(entry.get("competences", ())),
                              traits=frozenset(entry.get("traits", ())))
                system.validate(c, rules)
            except EscarmoucheError as err:
                sub = f"{path}.caracteristiques"
                if err.field in _stats(entry):
                    sub = f"{path}.caracteristiques.{err.field}"
                elif err.field in ("compétences", "traits"):
                    sub = f"{path}.{'competences' if err.field == 'compétences' else 'traits'}"
                elif err.field in ("nom", "camp"):
                    sub = f"{path}.nom"
                raise _wrapped(source, lines, sub, err) from None
            combatants.append(c)
            system.start_entry(start, who, {k: entry[k] for k in entry_keys if k in entry})
    if len(policies) < 2:
        raise _error(source, lines, "camps", "au moins deux camps sont attendus pour qu’il "
                     f"y ait combat ; ce fichier en décrit {len(policies)}", "CORE-END-1",
                     value=len(policies))
    conditions: list[EndCondition] = []
    for k, end in enumerate(data.get("fin", ())):
        path = f"fin[{k}]"
        try:
            cond = EndCondition(end["condition"], end["issue"], side=end.get("camp"),
                                name=end.get("nom"), turns=end.get("tours"),
                                label=end.get("libelle", ""))
        except EscarmoucheError as err:
            raise _wrapped(source, lines, path, err) from None
        if cond.side is not None and cond.side not in policies:
            raise _error(source, lines, f"{path}.camp",
                         f"{quote(cond.side)} : aucun camp de ce nom", _end_rule(system))
        if cond.name is not None and cond.name not in seen:
            raise _error(source, lines, f"{path}.nom",
                         f"{quote(cond.name)} : aucun combattant de ce nom", _end_rule(system))
        conditions.append(cond)
    return Roster(
        title=data.get("titre", ""), system=system.name, rules=rules,
        combatants=tuple(combatants), start_options=start,
        end_conditions=tuple(conditions), policies=policies, source=source,
        _lines=dict(lines), _paths=seen,
    )


def _stats(entry: Mapping[str, Any]) -> Mapping[str, Any]:
    stats = entry.get("caracteristiques", {})
    return stats if isinstance(stats, Mapping) else {}


def _trial(roster: Roster, lines: Mapping[str, int]) -> None:
    """Build and start a throwaway fight, so that a roster that cannot start is refused
    now (the error names the start option's line)."""
    try:
        enc = roster.encounter()
    except EscarmoucheError as err:
        raise _wrapped(roster.source, lines, "camps", err) from None
    try:
        enc.start(random.Random(0), **dict(roster.start_options))
    except EscarmoucheError as err:
        # the message already names the option (« surpris = … »): the path says where
        path = "depart"
        options = get_system(roster.system).start_options
        for key in (*roster.start_options, *options):
            if err.field == key or (err.field or "").startswith(key):
                path = f"depart.{key}"
                break
        if path not in lines:
            path = _combatant_key(roster, lines, str(err)) or path
        raise _wrapped(roster.source, lines, path, err) from None


def _combatant_key(roster: Roster, lines: Mapping[str, int], message: str) -> str | None:
    """The path of the per-combatant key (``arme``, ``arme_secondaire``, ``position``)
    whose value, or whose combatant, the error message names."""
    start = roster.start_options
    # messages are typeset (no-break spaces inside « »): compare with plain spaces
    message = message.replace("\u00a0", " ").replace("\u202f", " ")
    for by_value in (True, False):
        for name, base in roster._paths.items():
            hands = (start.get("equipement") or {}).get(name) or {}
            values = {"arme": hands.get("directrice", (start.get("armes") or {}).get(name)),
                      "arme_secondaire": hands.get("non_directrice"),
                      "position": (start.get("positions") or {}).get(name)}
            for key, value in values.items():
                if f"{base}.{key}" not in lines or value is None:
                    continue
                named = shown(value) in message if by_value \
                    else (f"« {name} »" in message or f" {name} " in f" {message} ")
                if named:
                    return f"{base}.{key}"
    return None


def _end_rule(system: Any) -> str:
    """The rule an end condition of the file answers to: the system's end rule
    (RB-END-1 in the Rulebook), else the engine's (CORE-END-1)."""
    return next(iter(system.end_rules), "CORE-END-1")


def load_roster(path: str | Path) -> Roster:
    """Read a roster file (UTF-8 TOML); its name appears in the errors."""
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > 4 * MAX_ROSTER_CHARS:
            raise RosterError(f"{p.name} : fichier trop grand ({number(size)} octets) "
                              "(CORE-ERR).", rule="CORE-ERR")
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise RosterError(f"{p.name} : le fichier n’est pas du texte UTF-8 (CORE-ERR).",
                          rule="CORE-ERR") from None
    except OSError as err:
        raise RosterError(f"{p} : fichier illisible ({os_reason(err)}) (CORE-ERR).",
                          rule="CORE-ERR") from None
    return parse_roster(text, source=p.name)


def open_roster(source: str | Path) -> Roster:
    """The roster file at ``source`` (:func:`load_roster`), or, when there is no such
    file, the example roster of that name (``"d100-duel"``, :func:`example_rosters`)."""
    examples = example_rosters()
    if isinstance(source, str) and source in examples and not Path(source).exists():
        return load_roster(examples[source])
    return load_roster(source)


def example_rosters() -> dict[str, Path]:
    """The example roster files shipped with the package, by name (file stem)."""
    folder = resources.files("escarmouche").joinpath("rosters")
    out: dict[str, Path] = {}
    for item in sorted(folder.iterdir(), key=lambda t: t.name):
        if item.name.endswith(".toml"):
            out[item.name.removesuffix(".toml")] = Path(str(item))
    return out
