"""The encounter engine: a fight that any of the four systems plugs into.

State is data (:class:`EncounterState`, JSON round-trip exact); :class:`Encounter` wraps it
with the operations a GM performs (``start``, ``act``, ``end_activation``, effects, GM
adjustments). Every operation is **atomic**: it runs on a copy of the state with the rng
snapshotted, and commits only if no :class:`EscarmoucheError` was raised — a rejected
action leaves the state *and the rng* as they were (CORE-ERR).

The system (``escarmouche.systems.<name>.SYSTEM``) is called through the hooks of
:class:`escarmouche.systems.base.System`; see that module for the call sequence.
Everything a GM can see is an :class:`~escarmouche.model.Event` of the ordered log
(CORE-LOG), with every die drawn since the previous event.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from escarmouche._rng import RecordingRng, Rng, rng_state, set_rng_state
from escarmouche.errors import EscarmoucheError, IllegalActionError, RuleBoundError
from escarmouche.model import (
    TIMING_LABELS,
    Combatant,
    DieRecord,
    Effect,
    Event,
    Json,
    Timing,
    check_roster,
)
from escarmouche.render.fmt import de
from escarmouche.systems import NAMES, register
from escarmouche.systems import system as lookup_system
from escarmouche.systems.base import ENVIRONMENT, ActionSpec, System

__all__ = [
    "CONDITIONS",
    "Ctx",
    "Encounter",
    "EncounterState",
    "EndCondition",
    "FighterState",
]

FORMAT_VERSION = 1
#: bound on consecutive slots skipped while looking for the next activation
MAX_SKIPPED_SLOTS = 10_000
#: bound on automated fights (``Encounter.run``)
MAX_RUN_TURNS = 1_000

T = TypeVar("T")


@dataclass(slots=True)
class FighterState:
    """A combatant during a fight: its value plus what changes (tracks, flags)."""

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
    """A victory or defeat condition the GM sets before the fight (RB-END-1).

    ``kind`` names a predicate of :data:`CONDITIONS`: ``"camp_hors_combat"`` (every
    fighter of ``side`` is out or fled), ``"combattant_hors_combat"`` (``name`` is
    out), ``"camp_en_fuite"`` (every standing fighter of ``side`` fled), ``"tours"``
    (``turns`` global turns survived). ``outcome`` is what the GM announces
    (« victoire », « défaite » …).
    """

    kind: str
    outcome: str
    side: str | None = None
    name: str | None = None
    turns: int | None = None
    label: str = ""

    def __post_init__(self) -> None:
        if self.kind not in CONDITIONS:
            raise EscarmoucheError(
                f"condition = {self.kind!r} : condition de fin inconnue ; conditions : "
                f"{', '.join(sorted(CONDITIONS))} (RB-END-1)",
                field="condition", value=self.kind, rule="RB-END-1",
            )

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

    def draft(self) -> EncounterState:
        """A working copy for an atomic operation. Events and effects are immutable, so
        the log and the effect list are copied shallowly (a long fight stays cheap)."""
        log, effects = self.log, self.effects
        self.log, self.effects = [], []
        try:
            copied = copy.deepcopy(self)
        finally:
            self.log, self.effects = log, effects
        copied.log, copied.effects = list(log), list(effects)
        return copied

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
            raise EscarmoucheError(
                f"format = {data.get('format')!r} : sauvegarde d’un format inconnu "
                f"(attendu : {FORMAT_VERSION}) (CORE-LOG)",
                field="format", value=data.get("format"), rule="CORE-LOG",
            )
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


class Ctx:
    """What a system's hooks get: the (draft) state, the recording rng, the rules, helpers.

    Hooks change ``ctx.state`` freely: the engine works on a copy and commits it only when
    the whole operation succeeded.
    """

    def __init__(self, state: EncounterState, system: System, rules: Any, rng: Rng | None):
        self.state = state
        self.system = system
        self.rules = rules
        self._rng = RecordingRng(rng) if rng is not None else None
        self.events: list[Event] = []

    @property
    def rng(self) -> RecordingRng:
        if self._rng is None:
            raise EscarmoucheError(
                "rng = None : cette opération lance des dés ; passez un random.Random ou "
                "des ScriptedRolls (CORE-RNG)",
                field="rng", value=None, rule="CORE-RNG",
            )
        return self._rng

    # -- log ---------------------------------------------------------------------------

    def emit(
        self,
        kind: str,
        text: str,
        *,
        actor: str | None = None,
        rules: Iterable[str] = (),
        data: Mapping[str, Json] | None = None,
        dice: Iterable[DieRecord] | None = None,
        purpose: str = "",
    ) -> Event:
        """Append an event; ``dice`` defaults to every die drawn since the last event."""
        drawn = tuple(dice) if dice is not None else (
            self._rng.take(purpose) if self._rng is not None else ()
        )
        if dice is not None and self._rng is not None:
            self._rng.take()
        event = Event(
            seq=len(self.state.log) + 1,
            turn=self.state.turn,
            actor=actor,
            kind=kind,
            text=text,
            rules=tuple(rules),
            dice=drawn,
            data=dict(data or {}),
        )
        self.state.log.append(event)
        self.events.append(event)
        return event

    # -- fighters ----------------------------------------------------------------------

    def fighter(self, name: str, *, rule: str = "CORE-ERR") -> FighterState:
        f = self.state.fighters.get(name)
        if f is None:
            raise EscarmoucheError(
                f"combattant = {name!r} : inconnu dans ce combat ; présents : "
                f"{', '.join(self.state.fighters)} ({rule})",
                field="combattant", value=name, rule=rule,
            )
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
            raise EscarmoucheError(
                f"piste = {track!r} : « {name} » n’a pas cette piste ; pistes : "
                f"{', '.join(f.tracks) or 'aucune'} (CORE-ERR)",
                field="piste", value=track, rule="CORE-ERR",
            )
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
                f"{name} est hors de combat ({track} à {after}).",
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
        if effect.timing is Timing.UNTIL_NEXT_TURN_OF:
            when = f"{TIMING_LABELS[effect.timing]} {effect.until_turn_of}"
        else:
            length = f", {effect.remaining} fois" if effect.remaining is not None else ""
            when = f"{TIMING_LABELS[effect.timing]}{length}"
        self.emit(
            "effet_ajoute",
            f"Effet « {effect.name} »{where} ({when}).",
            actor=effect.bearer, data={"effect": effect.to_json()},
        )
        return effect

    def remove_effect(self, effect_id: str, *, why: str = "retiré", rules: Iterable[str] = ()
                      ) -> Effect:
        for i, e in enumerate(self.state.effects):
            if e.id == effect_id:
                del self.state.effects[i]
                where = f" sur {e.bearer}" if e.bearer else ""
                self.emit(
                    "effet_fin", f"Effet « {e.name} »{where} : {why}.",
                    actor=e.bearer, rules=tuple(rules), data={"effect": e.id},
                )
                return e
        raise EscarmoucheError(
            f"effet = {effect_id!r} : aucun effet de ce nom en cours (CORE-ERR)",
            field="effet", value=effect_id, rule="CORE-ERR",
        )

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
            self.remove_effect(effect.id, why="expire", rules=rules)
        else:
            self.state.effects[idx] = dataclasses.replace(effect, remaining=left)
            self.emit(
                "effet_decompte",
                f"« {effect.name} » : encore {left}.",
                actor=effect.bearer, rules=rules, data={"effect": effect.id, "remaining": left},
            )


RuleSource = Callable[[], Any]


class Encounter:
    """A fight under one system. All operations are atomic (see the module docstring).

    >>> import random
    >>> from escarmouche import Combatant
    >>> enc = Encounter("d20", [Combatant("A", "x", {"PV": 10}), Combatant("B", "y", {"PV": 8})])
    """

    def __init__(
        self,
        system: str | System,
        combatants: Iterable[Combatant],
        *,
        rules: Any = None,
        end_conditions: Iterable[EndCondition] = (),
    ) -> None:
        if isinstance(system, System):
            if system.name not in NAMES:
                register(system)
            self._system: System = system
        else:
            self._system = lookup_system(system)
        rules_obj = rules if rules is not None else self._system.default_rules()
        if not isinstance(rules_obj, self._system.rules_type):
            raise EscarmoucheError(
                f"rules = {rules_obj!r} : une instance de {self._system.name}.Rules est "
                "attendue (CORE-ERR)",
                field="rules", value=rules_obj, rule="CORE-ERR",
            )
        fighters: dict[str, FighterState] = {}
        for c in check_roster(combatants, rule="CORE-ERR"):
            if c.name == ENVIRONMENT:
                raise EscarmoucheError(
                    f"nom = {c.name!r} : ce nom est réservé aux effets d’environnement "
                    "(CORE-ERR)",
                    field="nom", value=c.name, rule="CORE-ERR",
                )
            self._system.validate(c, rules_obj)
            tracks = self._system.initial_tracks(c, rules_obj)
            maxima = self._system.track_maxima(c, rules_obj)
            fighters[c.name] = FighterState(c, dict(tracks), dict(maxima))
        if not fighters:
            raise EscarmoucheError(
                "combattants = [] : un combat demande au moins un combattant (CORE-ERR)",
                field="combattants", value=[], rule="CORE-ERR",
            )
        self._rules = rules_obj
        self.state = EncounterState(
            system=self._system.name,
            rules=self._system.rules_to_json(rules_obj),
            fighters=fighters,
            end_conditions=list(end_conditions),
        )

    # -- read-only views ---------------------------------------------------------------

    @property
    def system(self) -> System:
        return self._system

    @property
    def rules(self) -> Any:
        return self._rules

    @property
    def log(self) -> list[Event]:
        return list(self.state.log)

    @property
    def turn(self) -> int:
        return self.state.turn

    @property
    def current(self) -> str | None:
        return self.state.current

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def outcome(self) -> str | None:
        return self.state.outcome

    def fighter(self, name: str) -> FighterState:
        return Ctx(self.state, self._system, self._rules, None).fighter(name)

    def actions(self, actor: str | None = None) -> list[ActionSpec]:
        name = actor or self.current
        if name is None:
            return []
        ctx = Ctx(self.state.draft(), self._system, self._rules, None)
        return list(self._system.actions(ctx, name))

    def narration(self, since: int = 0) -> str:
        """The log as French text, one line per event, with turn headers."""
        lines: list[str] = []
        for e in self.state.log[since:]:
            if e.kind == "debut_tour":
                lines.append(f"— {e.text}")
            else:
                lines.append(f"  {e.text}")
        return "\n".join(lines)

    # -- atomic operations -------------------------------------------------------------

    def _atomic(self, rng: Rng | None, op: Callable[[Ctx], None]) -> list[Event]:
        draft = self.state.draft()
        snapshot = rng_state(rng) if rng is not None else None
        ctx = Ctx(draft, self._system, self._rules, rng)
        try:
            op(ctx)
            if ctx._rng is not None and ctx._rng.draws:
                ctx.emit("des", "Dés lancés.")
        except BaseException:
            if rng is not None:
                set_rng_state(rng, snapshot)
            raise
        self.state = draft
        return ctx.events

    def _require_running(self, ctx: Ctx) -> None:
        if not ctx.state.started:
            raise IllegalActionError(
                "combat = non commencé : appelez start() d’abord (CORE-ERR)",
                field="combat", value="non commencé", rule="CORE-ERR",
            )
        if ctx.state.finished:
            raise IllegalActionError(
                f"combat = terminé ({ctx.state.outcome}) : plus aucune action possible "
                "(RB-END-1)",
                field="combat", value="terminé", rule="RB-END-1",
            )

    def start(self, rng: Rng, **options: Any) -> list[Event]:
        """Roll initiative (system options such as ``surprise_by`` go in ``options``) and
        start the first activation."""

        def op(ctx: Ctx) -> None:
            if ctx.state.started:
                raise IllegalActionError(
                    "combat = déjà commencé : start() ne s’appelle qu’une fois (CORE-ERR)",
                    field="combat", value="commencé", rule="CORE-ERR",
                )
            unknown = sorted(set(options) - set(self._system.start_options))
            if unknown:
                known = ", ".join(self._system.start_options) or "aucune"
                raise EscarmoucheError(
                    f"option = {unknown[0]!r} : option de départ inconnue pour le système "
                    f"{self._system.name} ; options : {known} (CORE-ERR)",
                    field="option", value=unknown[0], rule="CORE-ERR",
                )
            ctx.state.started = True
            self._system.start(ctx, options)
            ctx.state.turn = self._system.first_turn(ctx)
            self._begin_turn(ctx)
            self._advance(ctx)

        return self._atomic(rng, op)

    def act(self, actor: str, action: str, rng: Rng | None = None, **params: Any) -> list[Event]:
        """``actor`` takes ``action`` (the system checks legality, in turn or out of turn)."""

        def op(ctx: Ctx) -> None:
            self._require_running(ctx)
            ctx.fighter(actor)
            self._system.act(ctx, actor, action, params)
            self._check_end(ctx, at_turn_end=False)

        return self._atomic(rng, op)

    def end_activation(self, rng: Rng | None = None) -> list[Event]:
        """End the current activation and start the next one (ending turns as needed)."""

        def op(ctx: Ctx) -> None:
            self._require_running(ctx)
            self._end_activation(ctx)
            self._advance(ctx)

        return self._atomic(rng, op)

    def add_effect(self, effect: Effect) -> list[Event]:
        """Add a lasting effect (its timing says when it ticks and expires)."""

        def op(ctx: Ctx) -> None:
            ctx.add_effect(effect)

        return self._atomic(None, op)

    def remove_effect(self, effect_id: str) -> list[Event]:
        """Remove an effect by id (the GM's call, or a save that succeeded)."""

        def op(ctx: Ctx) -> None:
            ctx.remove_effect(effect_id)

        return self._atomic(None, op)

    def adjust(self, name: str, track: str, delta: int, reason: str = "ajustement du MJ"
               ) -> list[Event]:
        """A GM adjustment of a track (damage or healing typed by hand)."""

        def op(ctx: Ctx) -> None:
            if isinstance(delta, bool) or not isinstance(delta, int):
                raise EscarmoucheError(
                    f"variation = {delta!r} : un nombre entier est attendu (CORE-ERR)",
                    field="variation", value=delta, rule="CORE-ERR",
                )
            value = ctx.change_track(name, track, delta)
            ctx.emit(
                "ajustement", f"{name} : {delta:+d} {track} ({reason}) ; reste {value}.",
                actor=name, data={"track": track, "delta": delta, "value": value},
            )
            if ctx.state.started:
                self._check_end(ctx, at_turn_end=False)

        return self._atomic(None, op)

    def flee(self, name: str) -> list[Event]:
        """``name`` leaves the fight (RB-END-1: enemies fled)."""

        def op(ctx: Ctx) -> None:
            f = ctx.fighter(name)
            f.fled = True
            ctx.emit("fuite", f"{name} prend la fuite.", actor=name, rules=("RB-END-1",))
            if ctx.state.started:
                self._check_end(ctx, at_turn_end=False)

        return self._atomic(None, op)

    def finish(self, outcome: str = "fin décidée par le MJ") -> list[Event]:
        """End the fight now (the GM's call, RB-END-1)."""

        def op(ctx: Ctx) -> None:
            self._require_running(ctx)
            self._finish(ctx, outcome)

        return self._atomic(None, op)

    def run(self, rng: Rng, *, max_turns: int = 50) -> list[Event]:
        """Play the fight automatically with the system's ``auto_action`` until an end
        condition holds or ``max_turns`` global turns have passed (bounded)."""
        if not 1 <= max_turns <= MAX_RUN_TURNS:
            raise EscarmoucheError(
                f"max_turns = {max_turns} : entre 1 et {MAX_RUN_TURNS} (CORE-ERR)",
                field="max_turns", value=max_turns, rule="CORE-ERR",
            )
        events: list[Event] = []
        if not self.state.started:
            events += self.start(rng)
        while not self.state.finished:
            if self.state.turn > max_turns:
                events += self.finish(f"limite de {max_turns} tours atteinte")
                break
            actor = self.state.current
            if actor is not None and actor in self.state.fighters:
                choice = self._system.auto_action(
                    Ctx(self.state.draft(), self._system, self._rules, None), actor
                )
                if choice is not None:
                    action, params = choice
                    events += self.act(actor, action, rng, **params)
                    if self.state.finished:
                        break
            events += self.end_activation(rng)
        return events

    # -- the turn machinery (runs inside _atomic) --------------------------------------

    def _begin_turn(self, ctx: Ctx) -> None:
        st = ctx.state
        st.order = list(self._system.turn_order(ctx, st.turn))
        st.cursor = -1
        st.activations = {}
        word = self._system.turn_word
        ctx.emit(
            "debut_tour",
            f"Début du {word} {st.turn} : " + (", ".join(st.order) or "personne n’agit") + ".",
            rules=self._system.turn_rules, data={"order": list(st.order)},
        )
        for e in [e for e in st.effects if e.timing is Timing.TURN_START]:
            ctx.tick(e, rules=self._system.tick_rules.get(Timing.TURN_START, ()))
        self._system.on_turn_start(ctx)

    def _end_turn(self, ctx: Ctx) -> None:
        st = ctx.state
        for e in [e for e in st.effects if e.timing is Timing.TURN_END]:
            ctx.tick(e, rules=self._system.tick_rules.get(Timing.TURN_END, ()))
        self._system.on_turn_end(ctx)
        ctx.emit("fin_tour", f"Fin du {self._system.turn_word} {st.turn}.")
        self._check_end(ctx, at_turn_end=True)

    def _start_activation(self, ctx: Ctx, actor: str) -> bool:
        st = ctx.state
        first = st.activations.get(actor, 0) == 0
        st.activations[actor] = st.activations.get(actor, 0) + 1
        whose = "de l’environnement" if actor == ENVIRONMENT else de(actor)
        ctx.emit("activation", f"Au tour {whose}.", actor=actor,
                 data={"activation": st.activations[actor]})
        for e in [e for e in st.effects
                  if e.timing is Timing.UNTIL_NEXT_TURN_OF and e.until_turn_of == actor]:
            ctx.remove_effect(e.id, why=f"prend fin au début du tour {whose}")
        if first:
            # the bearer's effects (or the environment's, D12-INIT-5) tick once per turn,
            # at its first activation (RB-SPEED-3)
            mine = sorted(
                ctx.effects_of(actor, Timing.ACTIVATION_START), key=self._system.effect_sort_key
            )
            rules = self._system.tick_rules.get(Timing.ACTIVATION_START, ())
            for e in mine:
                if actor in st.fighters and not st.fighters[actor].standing:
                    break  # knocked out by an earlier tick: the rest no longer applies
                if any(x.id == e.id for x in st.effects):
                    ctx.tick(e, rules=rules)
            if actor in st.fighters and not st.fighters[actor].standing:
                return False
        return self._system.on_activation_start(ctx, actor)

    def _end_activation(self, ctx: Ctx) -> None:
        actor = ctx.state.current
        if actor is None:
            return
        self._system.on_activation_end(ctx, actor)
        for e in ctx.effects_of(actor, Timing.ACTIVATION_END):
            ctx.tick(e, rules=self._system.tick_rules.get(Timing.ACTIVATION_END, ()))

    def _advance(self, ctx: Ctx) -> None:
        """Move the cursor to the next slot that can act, ending/starting turns."""
        st = ctx.state
        for _ in range(MAX_SKIPPED_SLOTS):
            if st.finished:
                return
            st.cursor += 1
            if st.cursor >= len(st.order):
                self._end_turn(ctx)
                if st.finished:
                    return
                st.turn += 1
                self._begin_turn(ctx)
                continue
            actor = st.order[st.cursor]
            fighter = st.fighters.get(actor)
            if fighter is not None and not fighter.standing:
                continue
            if self._start_activation(ctx, actor):
                return
            self._end_activation(ctx)
        raise RuleBoundError(
            f"activations = {MAX_SKIPPED_SLOTS} : personne ne peut agir ; le combat est "
            "bloqué (CORE-ERR)",
            field="activations", value=MAX_SKIPPED_SLOTS, rule="CORE-ERR",
        )

    def _check_end(self, ctx: Ctx, *, at_turn_end: bool) -> None:
        st = ctx.state
        if st.finished:
            return
        for cond in st.end_conditions:
            if CONDITIONS[cond.kind](st, cond, at_turn_end):
                self._finish(ctx, f"{cond.outcome} : {cond.describe()}")
                return
        if not st.end_conditions:
            sides = {f.side for f in st.fighters.values() if f.standing}
            if len(sides) <= 1 and len({f.side for f in st.fighters.values()}) > 1:
                winner = next(iter(sides), None)
                text = f"victoire du camp « {winner} »" if winner else "aucun survivant"
                self._finish(ctx, text)

    def _finish(self, ctx: Ctx, outcome: str) -> None:
        ctx.state.finished = True
        ctx.state.outcome = outcome
        ctx.emit("fin_combat", f"Fin du combat : {outcome}.", rules=("RB-END-1",),
                 data={"outcome": outcome})
        self._system.on_end(ctx)

    # -- save and restore --------------------------------------------------------------

    def to_json(self) -> str:
        """The whole fight as JSON text (round-trips exactly with :meth:`from_json`)."""
        return json.dumps(self.state.to_json(), ensure_ascii=False, sort_keys=True, indent=1)

    @classmethod
    def from_json(cls, text: str | Mapping[str, Json]) -> Encounter:
        try:
            data = json.loads(text) if isinstance(text, str) else dict(text)
        except json.JSONDecodeError as err:
            raise EscarmoucheError(
                f"sauvegarde = JSON invalide : {err.msg} (ligne {err.lineno}, colonne "
                f"{err.colno}) (CORE-LOG)",
                field="sauvegarde", value=text[:40] if isinstance(text, str) else None,
                rule="CORE-LOG",
            ) from None
        try:
            state = EncounterState.from_json(data)
        except (KeyError, TypeError, ValueError) as err:
            if isinstance(err, EscarmoucheError):
                raise
            raise EscarmoucheError(
                f"sauvegarde = incomplète ou corrompue ({err!r}) (CORE-LOG)",
                field="sauvegarde", value=None, rule="CORE-LOG",
            ) from None
        system = lookup_system(state.system)
        self = cls.__new__(cls)
        self._system = system
        self._rules = system.rules_from_json(state.rules)
        self.state = state
        return self
