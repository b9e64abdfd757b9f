"""The state of a fight, as data, and the context a system's hooks receive.

This module sits below both the encounter engine (:mod:`escarmouche.encounter`) and the
system contract (:mod:`escarmouche.systems.base`), so neither imports the other's
internals: there is no import cycle, and the hook signatures resolve at run time
(``typing.get_type_hints(System.start)`` works).

:class:`EncounterState` is everything about a fight (JSON round-trip exact);
:class:`Ctx` wraps a *draft* of it for one atomic operation, with the recording rng,
the rules (typed: ``Ctx[Rules]``) and the helpers hooks use (``emit``, ``fighter``,
``change_track``, effects).

A fight is usually made by :class:`escarmouche.encounter.Encounter`; by hand, with a
system reduced to the two hooks :class:`Ctx` needs:

>>> from escarmouche.model import Combatant, Effect, Timing
>>> class Jouet:
...     name, turn_word, activation_word = "jouet", "tour", "activation"
...     def is_out(self, fighter, rules):
...         return fighter.tracks["PV"] == 0
...     def validate_effect(self, effect, rules):
...         pass
>>> brune = FighterState(Combatant("Brune", "héros", {"PV": 6}), {"PV": 6}, {"PV": 6})
>>> grolk = FighterState(Combatant("Grolk", "orques", {"PV": 5}), {"PV": 5}, {"PV": 5})
>>> state = EncounterState("jouet", {}, {"Brune": brune, "Grolk": grolk})
>>> ctx = Ctx(state, Jouet(), None, None)
>>> ctx.change_track("Brune", "PV", -4), ctx.change_track("Brune", "PV", +9)
(2, 6)
>>> poison = ctx.add_effect(Effect("", "poison", Timing.ACTIVATION_START, bearer="Grolk",
...                                remaining=2, per_tick={"PV": -3}))
>>> ctx.tick(poison)
>>> ctx.tick(ctx.effects_of("Grolk")[0])
>>> for event in ctx.events:
...     print(event.seq, event.text)
1 Effet « poison » sur Grolk (au début de l’activation du porteur, 2 fois).
2 « poison » : Grolk −3 PV (reste 2).
3 « poison » : encore 1 décompte avant la fin.
4 Grolk est hors de combat (PV à 0).
5 « poison » : Grolk −3 PV (reste 0).
6 L’effet « poison » sur Grolk prend fin.
>>> grolk.standing, [f.name for f in ctx.enemies("Brune")]
(False, [])
>>> EncounterState.from_json(state.to_json()).to_json() == state.to_json()
True
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from escarmouche import checks
from escarmouche.errors import SaveError, invalid
from escarmouche.memo import Memo
from escarmouche.model import (
    Combatant,
    DieRecord,
    Effect,
    Event,
    Json,
    Timing,
    make_event,
    timing_label,
)
from escarmouche.rng import RecordingRng, Rng
from escarmouche.text.fmt import de, join, plural
from escarmouche.text.typo import typographie

__all__ = [
    "CONDITIONS",
    "ENVIRONMENT",
    "FORMAT_VERSION",
    "Ctx",
    "EncounterState",
    "EndCondition",
    "FighterState",
    "SystemHooks",
    "end_outcome",
    "limit_outcome",
    "out_sentence",
    "parsed",
]

#: the version of the save format (``EncounterState.to_json``)
FORMAT_VERSION = 1

#: the name of the environment's pseudo-activation (D12-INIT-5); no fighter may use it
ENVIRONMENT = "environnement"

R = TypeVar("R")
T = TypeVar("T")
R_contra = TypeVar("R_contra", contravariant=True)


class SystemHooks(Protocol[R_contra]):
    """What :class:`Ctx` needs of a system (``System`` satisfies it)."""

    @property
    def name(self) -> str: ...

    @property
    def turn_word(self) -> str: ...

    @property
    def activation_word(self) -> str: ...

    def is_out(self, fighter: FighterState, rules: R_contra) -> bool: ...

    def validate_effect(self, effect: Effect, rules: R_contra) -> None: ...


@dataclass(slots=True)
class FighterState:
    """A combatant during a fight: its value plus what changes (tracks, flags).

    >>> brune = FighterState(Combatant("Brune", "héros", {"PV": 6}), {"PV": 6}, {"PV": 6})
    >>> brune.name, brune.side, brune.standing
    ('Brune', 'héros', True)
    >>> brune.fled = True
    >>> brune.standing
    False
    """

    combatant: Combatant
    tracks: dict[str, int]
    maxima: dict[str, int]
    out: bool = False
    fled: bool = False
    #: per-system, per-fighter state (JSON values): parries used, movement left …
    flags: dict[str, Json] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.combatant.name

    @property
    def side(self) -> str:
        return self.combatant.side

    @property
    def standing(self) -> bool:
        return not self.out and not self.fled

    def to_json(self) -> dict[str, Json]:
        return {
            "combatant": self.combatant.to_json(),
            "tracks": dict(self.tracks),
            "maxima": dict(self.maxima),
            "out": self.out,
            "fled": self.fled,
            "flags": copy.deepcopy(self.flags),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> FighterState:
        return cls(
            combatant=Combatant.from_json(data["combatant"]),
            tracks=dict(data["tracks"]),
            maxima=dict(data["maxima"]),
            out=bool(data["out"]),
            fled=bool(data["fled"]),
            flags=copy.deepcopy(dict(data["flags"])),
        )


@dataclass(frozen=True, slots=True)
class EndCondition:
    """A victory or defeat condition the GM sets before the fight (CORE-END-1).

    ``kind`` names a predicate of :data:`CONDITIONS`: ``"camp_hors_combat"`` (every
    fighter of ``side`` is out or fled), ``"combattant_hors_combat"`` (``name`` is
    out), ``"camp_en_fuite"`` (every standing fighter of ``side`` fled), ``"tours"``
    (``turns`` global turns survived). ``outcome`` is what the GM announces
    (« victoire », « défaite » …).

    >>> EndCondition("camp_hors_combat", "victoire", side="orques").describe()
    'tout le camp « orques » est hors de combat'
    >>> EndCondition("tours", "les héros ont tenu", turns=5).describe()
    '5 tours ont été tenus'
    >>> EndCondition("massacre", "victoire")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
      ...
    escarmouche.errors.ParameterError: Valeur « massacre » refusée pour « condition » : à
    choisir parmi « camp_en_fuite », « camp_hors_combat », « combattant_hors_combat » ou « tours
    » (CORE-END-1).
    """

    kind: str
    outcome: str
    side: str | None = None
    name: str | None = None
    turns: int | None = None
    label: str = ""

    def __post_init__(self) -> None:
        checks.choice("condition", self.kind, sorted(CONDITIONS), "CORE-END-1")
        checks.text("issue", self.outcome, "CORE-END-1", max_len=200)
        for label, value in (("camp", self.side), ("nom", self.name)):
            if value is not None:
                checks.text(label, value, "CORE-END-1", max_len=100)
        if self.turns is not None:
            checks.integer("tours", self.turns, lo=1, hi=100_000, rule="CORE-END-1")
        if not isinstance(self.label, str) or len(self.label) > 200:
            raise invalid("libellé", self.label, "CORE-END-1", "un texte court est attendu")
        needed = {"camp_hors_combat": ("camp", self.side), "camp_en_fuite": ("camp", self.side),
                  "combattant_hors_combat": ("nom", self.name), "tours": ("tours", self.turns)}
        missing_label, missing = needed[self.kind]
        if missing is None:
            raise invalid(missing_label, None, "CORE-END-1",
                          f"la condition « {self.kind} » a besoin de ce champ")

    def describe(self) -> str:
        if self.label:
            return self.label
        match self.kind:
            case "camp_hors_combat":
                return f"tout le camp « {self.side} » est hors de combat"
            case "combattant_hors_combat":
                return f"« {self.name} » est hors de combat"
            case "camp_en_fuite":
                return f"le camp « {self.side} » a fui"
            case "tours":
                return f"{self.turns} tours ont été tenus"
        return self.kind

    def to_json(self) -> dict[str, Json]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> EndCondition:
        return cls(**dict(data))


def _side_out(state: EncounterState, cond: EndCondition, at_turn_end: bool) -> bool:
    members = [f for f in state.fighters.values() if f.side == cond.side]
    return bool(members) and all(not f.standing for f in members)


def _fighter_out(state: EncounterState, cond: EndCondition, at_turn_end: bool) -> bool:
    f = state.fighters.get(cond.name or "")
    return f is not None and not f.standing


def _side_fled(state: EncounterState, cond: EndCondition, at_turn_end: bool) -> bool:
    members = [f for f in state.fighters.values() if f.side == cond.side and not f.out]
    return bool(members) and all(f.fled for f in members)


def _turns(state: EncounterState, cond: EndCondition, at_turn_end: bool) -> bool:
    return at_turn_end and cond.turns is not None and state.turn >= cond.turns


#: the end-condition predicates, by kind (extensible: add a key and a function)
CONDITIONS: dict[str, Callable[[EncounterState, EndCondition, bool], bool]] = {
    "camp_hors_combat": _side_out,
    "combattant_hors_combat": _fighter_out,
    "camp_en_fuite": _side_fled,
    "tours": _turns,
}
#: the kinds whose predicate reads only who is out or fled and the turn (never a
#: track): a rules kernel may keep :func:`end_outcome`'s answer per such state
STANDING_ONLY: frozenset[str] = frozenset(CONDITIONS)


def end_outcome(state: EncounterState, at_turn_end: bool) -> str | None:
    """What the fight's end conditions say now (CORE-END-1): the outcome announced when
    one holds (« victoire (tous les ennemis hors de combat) »: one colon per clause), or,
    without conditions, the last side standing (« victoire du camp « héros » », « aucun
    survivant »); ``None`` while the fight goes on. ``at_turn_end``: checked at the end
    of a global turn (the condition « tours »). The engine's end check and the rules
    kernels both ask this.

    >>> one = FighterState(Combatant("Brune", "héros", {"PV": 6}), {"PV": 6}, {"PV": 6})
    >>> two = FighterState(Combatant("Grolk", "orques", {"PV": 5}), {"PV": 0}, {"PV": 5},
    ...                    out=True)
    >>> end_outcome(EncounterState("jouet", {}, {"Brune": one, "Grolk": two}), False)
    'victoire du camp « héros »'
    """
    for cond in state.end_conditions:
        if CONDITIONS[cond.kind](state, cond, at_turn_end):
            return f"{cond.outcome} ({cond.describe()})"
    if not state.end_conditions:
        sides = {f.side for f in state.fighters.values() if f.standing}
        if len(sides) <= 1 and len({f.side for f in state.fighters.values()}) > 1:
            winner = next(iter(sides), None)
            return f"victoire du camp « {winner} »" if winner else "aucun survivant"
    return None


def limit_outcome(max_turns: int) -> str:
    """The outcome of an automated fight stopped by its turn limit (``Encounter.run``).

    >>> limit_outcome(50)
    'limite de 50 tours atteinte'
    """
    return f"limite de {plural(max_turns, 'tour')} atteinte"


_ATOMS = frozenset({str, int, bool, float, type(None)})


def _copy_json(value: T) -> T:
    """A copy of nested JSON containers (dicts and lists copied, the rest shared: str,
    numbers, ``None`` and tuples are immutable); what ``copy.deepcopy`` gives on JSON
    data, without its memo and reduce machinery.

    >>> flags = {"plan": [["attaque", 1]], "hands": {"directrice": "epee"}, "n": 2}
    >>> copied = _copy_json(flags)
    >>> copied == flags, copied["plan"][0] is flags["plan"][0]
    (True, False)
    """
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None or kind is float:
        return value
    data: Any = value
    if kind is dict:
        return {k: v if type(v) in _ATOMS else _copy_json(v)  # type: ignore[return-value]
                for k, v in data.items()}
    if kind is list:
        return [v if type(v) in _ATOMS else _copy_json(v)  # type: ignore[return-value]
                for v in data]
    if isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, tuple):
        return tuple(_copy_json(v) for v in value)  # type: ignore[return-value]
    return copy.deepcopy(value)


#: what :func:`parsed` computed, by the value's identity
_PARSED: Memo[Any] = Memo(256)


def parsed(value: object, parse: Callable[[Any], T]) -> T:
    """``parse(value)``, computed once per value **never changed in place** (a new value
    replaces it): a JSON value a system writes once in its state and reads at every turn
    or activation (an initiative; a copy of the state, a draft, shares such a value rather
    than copying it, so it stays parsed), or a frozen object asked the same questions
    again and again (a combatant's stats, a rule set's action list). The engine's memo
    by identity (:class:`~escarmouche.memo.Memo`, bounded); one ``parse`` per value:
    the answer is kept by the value alone.

    >>> calls = []
    >>> data = {"ordre": ["Brune"]}
    >>> first = parsed(data, lambda d: calls.append(1) or tuple(d["ordre"]))
    >>> parsed(data, lambda d: calls.append(1) or tuple(d["ordre"])) is first, len(calls)
    (True, 1)
    """
    result: T = _PARSED.of(value, parse)
    return result


def _is_parsed(value: object) -> bool:
    return _PARSED.holds(value)


@dataclass(slots=True)
class EncounterState:
    """Everything about a fight, as data (serialisable to JSON and back exactly)."""

    system: str
    rules: dict[str, Json]
    fighters: dict[str, FighterState]
    end_conditions: list[EndCondition] = field(default_factory=list)
    turn: int = 0
    started: bool = False
    finished: bool = False
    outcome: str | None = None
    order: list[str] = field(default_factory=list)
    cursor: int = -1
    #: how many activations each fighter has had in the current global turn
    activations: dict[str, int] = field(default_factory=dict)
    effects: list[Effect] = field(default_factory=list)
    log: list[Event] = field(default_factory=list)
    system_state: dict[str, Json] = field(default_factory=dict)
    next_effect_id: int = 1
    #: simulation mode (:mod:`escarmouche.simulation`): the fight is throwaway, so
    #: operations work in place (no draft, no rng snapshot) and the log holds bare
    #: events (no dice); never saved, not part of equality
    fast: bool = field(default=False, compare=False, repr=False)

    def draft(self) -> EncounterState:
        """A working copy for an atomic operation. Events and effects are immutable, so
        the log and the effect list are copied shallowly (a long fight stays cheap).

        >>> brune = FighterState(Combatant("Brune", "héros", {"PV": 6}), {"PV": 6}, {"PV": 6})
        >>> state = EncounterState("jouet", {}, {"Brune": brune})
        >>> draft = state.draft()
        >>> draft.fighters["Brune"].tracks["PV"] = 1
        >>> state.fighters["Brune"].tracks, draft.fighters["Brune"].tracks
        ({'PV': 6}, {'PV': 1})

        In simulation mode (``fast``) there is no copy: the fight is throwaway and owns
        its state, so a draft is the state itself (what reads a draft, such as
        ``auto_action`` or the policies, must not change it; the equivalence test of
        ``tests/rules/core/test_simulation.py`` would see it).

        >>> state.fast = True
        >>> state.draft() is state
        True
        """
        if self.fast:
            return self
        return self._copy(fast=False)

    def _quick_copy(self) -> EncounterState:
        """A copy in simulation mode (``Encounter.simulated``)."""
        return self._copy(fast=True)

    def _copy(self, *, fast: bool) -> EncounterState:
        """A copy that shares only what never changes in place: combatants, end
        conditions, effects and events (frozen), and strings; every container of JSON
        values (tracks, flags, the rules, the system's state) is copied
        (:func:`_copy_json`)."""
        fighters = {
            name: FighterState(f.combatant, dict(f.tracks), dict(f.maxima), f.out, f.fled,
                               _copy_json(f.flags))
            for name, f in self.fighters.items()
        }
        # a value of the system's state read through :func:`parsed` is never changed in
        # place (its contract): the copy shares it, and it stays parsed
        system_state = {k: v if _is_parsed(v) else _copy_json(v)
                        for k, v in self.system_state.items()}
        return EncounterState(
            self.system, self.rules if fast else _copy_json(self.rules), fighters,
            list(self.end_conditions), self.turn, self.started, self.finished,
            self.outcome, list(self.order), self.cursor, dict(self.activations),
            list(self.effects), list(self.log), system_state, self.next_effect_id, fast,
        )

    @property
    def current(self) -> str | None:
        """The slot now acting (a fighter's name or ``"environnement"``), or ``None``."""
        if self.started and not self.finished and 0 <= self.cursor < len(self.order):
            return self.order[self.cursor]
        return None

    def to_json(self) -> dict[str, Json]:
        return {
            "format": FORMAT_VERSION,
            "system": self.system,
            "rules": copy.deepcopy(self.rules),
            "fighters": [f.to_json() for f in self.fighters.values()],
            "end_conditions": [c.to_json() for c in self.end_conditions],
            "turn": self.turn,
            "started": self.started,
            "finished": self.finished,
            "outcome": self.outcome,
            "order": list(self.order),
            "cursor": self.cursor,
            "activations": dict(self.activations),
            "effects": [e.to_json() for e in self.effects],
            "log": [e.to_json() for e in self.log],
            "system_state": copy.deepcopy(self.system_state),
            "next_effect_id": self.next_effect_id,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> EncounterState:
        if data.get("format") != FORMAT_VERSION:
            raise invalid("format", data.get("format"), "CORE-LOG",
                          f"sauvegarde d’un format inconnu (attendu : {FORMAT_VERSION})",
                          kind=SaveError)
        fighters = [FighterState.from_json(f) for f in data["fighters"]]
        return cls(
            system=str(data["system"]),
            rules=copy.deepcopy(dict(data["rules"])),
            fighters={f.name: f for f in fighters},
            end_conditions=[EndCondition.from_json(c) for c in data["end_conditions"]],
            turn=int(data["turn"]),
            started=bool(data["started"]),
            finished=bool(data["finished"]),
            outcome=data["outcome"],
            order=list(data["order"]),
            cursor=int(data["cursor"]),
            activations=dict(data["activations"]),
            effects=[Effect.from_json(e) for e in data["effects"]],
            log=[Event.from_json(e) for e in data["log"]],
            system_state=copy.deepcopy(dict(data["system_state"])),
            next_effect_id=int(data["next_effect_id"]),
        )


class _PassThroughRng(RecordingRng):
    """Simulation mode: the rng itself, drawn from directly, nothing recorded."""

    def __init__(self, inner: Rng) -> None:
        super().__init__(inner)
        self.randint = inner.randint  # type: ignore[method-assign]


class _LazyData(Mapping[str, Json]):
    """An event's data in simulation mode, built from its function when first read."""

    __slots__ = ("_data", "_make")

    def __init__(self, make: Callable[[], Mapping[str, Json]]) -> None:
        self._make: Callable[[], Mapping[str, Json]] | None = make
        self._data: Mapping[str, Json] = {}

    def _read(self) -> Mapping[str, Json]:
        if self._make is not None:
            self._data, self._make = dict(self._make()), None
        return self._data

    def __getitem__(self, key: str) -> Json:
        return self._read()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._read())

    def __len__(self) -> int:
        return len(self._read())

    def __repr__(self) -> str:
        return repr(self._read())


def out_sentence(name: str, track: str, value: int) -> str:
    """« Grolk est hors de combat (B à 0). » (CORE-END-1)"""
    return f"{name} est hors de combat ({track} à {value})."


class Ctx(Generic[R]):
    """What a system's hooks get: the (draft) state, the recording rng, the rules, helpers.

    Hooks change ``ctx.state`` freely: the engine works on a copy and commits it only when
    the whole operation succeeded.

    When ``state.fast`` (simulation mode), the dice are not recorded and :meth:`emit`
    appends a bare event (no dice, ``data`` not copied): the same decisions, less
    bookkeeping; the system code runs unchanged.
    """

    def __init__(self, state: EncounterState, system: SystemHooks[R], rules: R, rng: Rng | None):
        self.state = state
        self.system = system
        self.rules = rules
        self.fast: bool = getattr(state, "fast", False)
        if rng is None:
            self._rng: RecordingRng | None = None
        else:
            self._rng = _PassThroughRng(rng) if self.fast else RecordingRng(rng)
        self.events: list[Event] = []

    @property
    def rng(self) -> RecordingRng:
        if self._rng is None:
            raise invalid("rng", None, "CORE-RNG", "cette opération lance des dés ; passez "
                          "un random.Random ou des ScriptedRolls")
        return self._rng

    # -- log ---------------------------------------------------------------------------

    def emit(
        self,
        kind: str,
        text: str | Callable[[], str],
        *,
        actor: str | None = None,
        rules: Iterable[str] = (),
        data: Mapping[str, Json] | Callable[[], Mapping[str, Json]] | None = None,
        dice: Iterable[DieRecord] | None = None,
        purpose: str = "",
    ) -> Event:
        """Append an event; ``dice`` defaults to every die drawn since the last event.

        ``text`` and ``data`` may be given as functions of no argument, for what costs
        to write (an attack's sentence, its result as JSON): the full engine calls them
        at once; simulation mode (``state.fast``), whose log nobody reads as text, never
        writes such a text (the event's ``text`` is empty) and builds such data only if
        something reads it. A function given here must read only values that no longer
        change (frozen results, numbers, names), since in simulation mode it may run
        later.

        >>> ctx = Ctx(EncounterState("jouet", {}, {}, fast=True), None, None, None)
        >>> event = ctx.emit("coup", lambda: "Un coup.", data=lambda: {"degats": 3})
        >>> event.text, dict(event.data)
        ('', {'degats': 3})
        """
        if self.fast:
            log = self.state.log
            event = Event(len(log) + 1, self.state.turn, actor, kind,
                          text if type(text) is str else "",
                          rules if isinstance(rules, tuple) else tuple(rules), (),
                          {} if data is None else _LazyData(data) if callable(data)
                          else data)
            log.append(event)
            return event
        if callable(text):
            text = text()
        if callable(data):
            data = data()
        drawn = tuple(dice) if dice is not None else (
            self._rng.take(purpose) if self._rng is not None else ()
        )
        if dice is not None and self._rng is not None:
            self._rng.take()
        # French typography, once (escarmouche.text.typo)
        return self.record(kind, typographie(text), actor, tuple(rules), drawn,
                           dict(data or {}))

    def record(self, kind: str, text: str, actor: str | None = None,
               rules: tuple[str, ...] = (), dice: tuple[DieRecord, ...] = (),
               data: dict[str, Json] | None = None) -> Event:
        """Append an event written already, as :meth:`emit` appends it in the full engine
        (the next number, the state's turn): ``text`` typeset, ``data`` a dict of its own.
        What a rules kernel's narration calls with the words it kept per shape
        (``kernel_doors.narrated_run``)."""
        log = self.state.log
        event = make_event(len(log) + 1, self.state.turn, actor, kind, text, rules, dice,
                           {} if data is None else data)
        log.append(event)
        self.events.append(event)
        return event

    # -- fighters ----------------------------------------------------------------------

    def fighter(self, name: str, *, rule: str = "CORE-ERR") -> FighterState:
        """The fighter ``name``; a French error names those present when it is unknown.

        >>> brune = FighterState(Combatant("Brune", "héros", {"PV": 6}), {"PV": 6}, {"PV": 6})
        >>> ctx = Ctx(EncounterState("jouet", {}, {"Brune": brune}), None, None, None)
        >>> ctx.fighter("Brune").tracks
        {'PV': 6}
        >>> ctx.fighter("Aldric")  # doctest: +NORMALIZE_WHITESPACE
        Traceback (most recent call last):
          File "/root/.pyenv/versions/3.11.7/lib/python3.11/doctest.py", line 1353, in __run
            exec(compile(example.source, filename, "single",
          File "<doctest escarmouche.state.Ctx.fighter[3]>", line 1, in <module>
            ctx.fighter("Aldric")  # doctest: +NORMALIZE_WHITESPACE
            ^^^^^^^^^^^^^^^^^^^^^
          File "/work/wt-messages/src/escarmouche/state.py", line 505, in fighter
            raise invalid("combattant", name, rule, f"inconnu dans ce combat, qui compte "
        escarmouche.errors.ParameterError: Combattant « Aldric » refusé : inconnu dans ce
        combat, qui compte Brune (CORE-ERR).
        """
        f = self.state.fighters.get(name) if isinstance(name, str) else None
        if f is None:
            raise invalid("combattant", name, rule, f"inconnu dans ce combat, qui compte "
                          f"{join(self.state.fighters)}")
        return f

    def enemies(self, name: str) -> list[FighterState]:
        side = self.fighter(name).side
        return [f for f in self.state.fighters.values() if f.side != side and f.standing]

    def change_track(
        self, name: str, track: str, delta: int, *, rules: Iterable[str] = (), reason: str = ""
    ) -> int:
        """Add ``delta`` to a track (never below 0 nor above its maximum when healing);
        mark the fighter out when the system says so. Returns the new value."""
        f = self.fighter(name)
        if track not in f.tracks:
            raise invalid("piste", track, "CORE-ERR", f"« {name} » n’a pas cette piste ; "
                          f"pistes : {join(f.tracks, empty='aucune')}")
        before = f.tracks[track]
        after = before + delta
        if delta > 0:
            after = min(after, max(f.maxima.get(track, after), before))
        after = max(after, 0)
        f.tracks[track] = after
        was_out = f.out
        if not f.out and self.system.is_out(f, self.rules):
            f.out = True
        if not was_out and f.out:
            self.emit(
                "hors_combat",
                lambda: out_sentence(name, track, after),
                actor=name, rules=tuple(rules), data={"track": track, "value": after},
            )
        return after

    # -- effects -----------------------------------------------------------------------

    def add_effect(self, effect: Effect) -> Effect:
        """Add an effect (a fresh id is given when ``effect.id`` is empty)."""
        if effect.bearer is not None and effect.bearer != ENVIRONMENT:
            self.fighter(effect.bearer)
        if effect.until_turn_of is not None:
            self.fighter(effect.until_turn_of)
        self.system.validate_effect(effect, self.rules)
        if not effect.id or any(e.id == effect.id for e in self.state.effects):
            effect = dataclasses.replace(effect, id=f"e{self.state.next_effect_id}")
            self.state.next_effect_id += 1
        self.state.effects.append(effect)
        where = f" sur {effect.bearer}" if effect.bearer else ""
        label = timing_label(effect.timing, turn_word=self.system.turn_word,
                             activation_word=self.system.activation_word)
        if effect.timing is Timing.UNTIL_NEXT_TURN_OF and effect.until_turn_of is not None:
            when = f"{label.removesuffix(' de')} {de(effect.until_turn_of)}"
        else:
            length = f", {effect.remaining} fois" if effect.remaining is not None else ""
            when = f"{label}{length}"
        self.emit(
            "effet_ajoute",
            f"Effet « {effect.name} »{where} ({when}).",
            actor=effect.bearer, data={"effect": effect.to_json()},
        )
        return effect

    def remove_effect(self, effect_id: str, *, why: str = "est retiré", rules: Iterable[str] = (),
                      announce: bool = True) -> Effect:
        """Remove an effect and log it, « L’effet « poison » sur Grolk prend fin. »
        (``why`` is the predicate: « prend fin », « est retiré »); ``announce=False``
        when the caller's own event already says that the effect ends (one event, one
        sentence)."""
        for i, e in enumerate(self.state.effects):
            if e.id == effect_id:
                del self.state.effects[i]
                where = f" sur {e.bearer}" if e.bearer else ""
                if not announce:
                    return e
                self.emit(
                    "effet_fin", f"L’effet « {e.name} »{where} {why}.",
                    actor=e.bearer, rules=tuple(rules), data={"effect": e.id},
                )
                return e
        raise invalid("effet", effect_id, "CORE-ERR", "aucun effet de ce nom en cours")

    def effects_of(self, bearer: str | None, timing: Timing | None = None) -> list[Effect]:
        return [
            e for e in self.state.effects
            if e.bearer == bearer and (timing is None or e.timing is timing)
        ]

    def tick(self, effect: Effect, *, rules: Iterable[str] = ()) -> None:
        """One tick of an effect: apply ``per_tick`` to the bearer, count down, expire."""
        rules = tuple(rules)
        if effect.bearer and effect.bearer in self.state.fighters and effect.per_tick:
            for track, delta in effect.per_tick.items():
                value = self.change_track(effect.bearer, track, delta, rules=rules)
                sign = "+" if delta > 0 else "−"
                self.emit(
                    "effet_applique",
                    f"« {effect.name} » : {effect.bearer} {sign}{abs(delta)} {track} "
                    f"(reste {value}).",
                    actor=effect.bearer, rules=rules,
                    data={"effect": effect.id, "track": track, "delta": delta, "value": value},
                )
        if effect.remaining is None:
            return
        left = effect.remaining - 1
        idx = next(i for i, e in enumerate(self.state.effects) if e.id == effect.id)
        if left <= 0:
            self.remove_effect(effect.id, why="prend fin", rules=rules)
        else:
            self.state.effects[idx] = dataclasses.replace(effect, remaining=left)
            self.emit(
                "effet_decompte",
                f"« {effect.name} » : encore {plural(left, 'décompte')} avant la fin.",
                actor=effect.bearer, rules=rules, data={"effect": effect.id, "remaining": left},
            )
