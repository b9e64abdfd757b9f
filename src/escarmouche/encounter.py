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

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from escarmouche import checks
from escarmouche.errors import (
    EscarmoucheError,
    IllegalActionError,
    RuleBoundError,
    SaveError,
    invalid,
    sentence,
)
from escarmouche.model import (
    Combatant,
    Effect,
    Event,
    Json,
    Timing,
    check_roster,
)
from escarmouche.render.table import Text
from escarmouche.rng import RecordingRng, Rng, rng_state, set_rng_state
from escarmouche.savefile import parse_json, validate_save
from escarmouche.state import (
    CONDITIONS,
    ENVIRONMENT,
    Ctx,
    EncounterState,
    EndCondition,
    FighterState,
    end_outcome,
    limit_outcome,
)
from escarmouche.systems import get as lookup_system
from escarmouche.systems.base import ActionSpec, Move, System
from escarmouche.text.fmt import de, join, number, quote, signed

__all__ = [
    "CONDITIONS",
    "Ctx",
    "Encounter",
    "EncounterState",
    "EndCondition",
    "FighterState",
    "activation_words",
    "emit_end",
    "end_sentence",
    "turn_end_sentence",
    "turn_start_sentence",
]

#: bound on consecutive slots skipped while looking for the next activation
MAX_SKIPPED_SLOTS = 10_000
#: bound on automated fights (``Encounter.run``)
MAX_RUN_TURNS = 1_000

T = TypeVar("T")


RuleSource = Callable[[], Any]


def turn_start_sentence(system: System[Any], turn: int, acting: Sequence[str]) -> str:
    """« Début du round 2 : Aldric, Grolk. », in the system's word for a turn; ``acting``
    the fighters with an activation in it (CORE-TURN-1)."""
    return f"Début du {system.turn_word} {turn} : " + (", ".join(acting)
                                                       or "personne n’agit") + "."


def turn_end_sentence(system: System[Any], turn: int) -> str:
    """« Fin du round 2. »"""
    return f"Fin du {system.turn_word} {turn}."


def end_sentence(outcome: str) -> str:
    """« Fin du combat : victoire des orques (…). » (CORE-END-1)"""
    return f"Fin du combat : {outcome}."


def emit_end(ctx: Ctx[Any], system: System[Any], outcome: str) -> None:
    """The event « fin_combat » of ``outcome`` (CORE-END-1), as ``Encounter`` and a rules
    kernel's narration write it."""
    ctx.emit("fin_combat", lambda: end_sentence(outcome), rules=system.end_rules,
             data={"outcome": outcome})


def activation_words(system: System[Any], actor: str) -> tuple[str, str]:
    """« Au tour d’Aube. » and « au début du tour d’Aube » (or « Activation d’Aube. »
    and « au début de l’activation d’Aube », in the system's words)."""
    whose = "de l’environnement" if actor == ENVIRONMENT else de(actor)
    if system.activation_word == "tour":
        return f"Au tour {whose}.", f"au début du tour {whose}"
    word = system.activation_word
    start = f"au début de l’{word} {whose}" if word[:1] in "aeéiou" else \
        f"au début de la {word} {whose}"
    return f"{word[:1].upper()}{word[1:]} {whose}.", start


class _AtomicRng(RecordingRng):
    """The recording rng of one atomic operation: the rng's state is snapshotted just
    before its first die (an operation that draws nothing snapshots nothing), so that a
    refusal puts it back (CORE-ERR). Every die of an operation is drawn through it."""

    def __init__(self, inner: Rng) -> None:
        super().__init__(inner)
        self.drew = False
        self.before: Any = None
        self.randint = self._first_randint  # type: ignore[method-assign]

    def _first_randint(self, a: int, b: int) -> int:
        if not self.drew:  # (a caller may hold this bound method and call it again)
            self.before = rng_state(self.inner)
            self.drew = True
            del self.randint  # the plain recording draw from now on
        return RecordingRng.randint(self, a, b)


class Encounter:
    """A fight under one system. All operations are atomic (see the module docstring).

    >>> import random
    >>> from escarmouche import Combatant
    >>> from escarmouche.systems import d20
    >>> combat = Encounter(d20.SYSTEM, [Combatant("Brune", "héros", {"PV": 10}),
    ...                            Combatant("Grolk", "orques", {"PV": 8})])
    >>> combat.fighter("Grolk").tracks
    {'PV': 8}

    Nothing happens before :meth:`start`; a refused operation changes nothing:

    >>> combat.act("Brune", "attaque", cible="Grolk")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
      ...
    escarmouche.errors.IllegalActionError: Le combat n’a pas commencé : appelez start() d’abord
    (CORE-ERR).
    >>> combat.log
    []

    The GM's own operations need no dice. Each one returns its events, also added to
    the log, which :meth:`journal` shows with the rules applied:

    >>> for event in combat.adjust("Grolk", "PV", -3, "chute dans l’escalier"):
    ...     print(event.text)
    Grolk : −3 PV (chute dans l’escalier) ; reste 5.
    >>> events = combat.start(random.Random(1))
    >>> combat.turn, combat.finished, combat.current in ("Brune", "Grolk")
    (1, False, True)
    >>> _ = combat.flee("Grolk")
    >>> print(combat.journal(since=len(combat.log) - 2))
    Grolk prend la fuite. [CORE-END-1]
    Fin du combat : victoire du camp « héros ». [CORE-END-1]
    >>> combat.finished, combat.outcome
    (True, 'victoire du camp « héros »')

    A fight saves to JSON and comes back exactly (CORE-LOG):

    >>> saved = combat.to_json()
    >>> Encounter.from_json(saved).to_json() == saved
    True

    :meth:`run` plays a whole fight with each system's automatic choices; see the
    README's example.
    """

    #: inside :meth:`run` (full engine): the run owns one working copy of the fight and
    #: restores the whole fight if anything fails, so its operations work in that copy
    #: (no draft, no rng snapshot per operation), with every die and sentence recorded
    _in_run: bool = False

    def __init__(
        self,
        system: str | System[Any],
        combatants: Iterable[Combatant],
        *,
        rules: Any = None,
        end_conditions: Iterable[EndCondition] = (),
    ) -> None:
        if isinstance(system, System):
            self._system: System[Any] = system
        else:
            self._system = lookup_system(system)
        rules_obj = rules if rules is not None else self._system.default_rules()
        if not isinstance(rules_obj, self._system.rules_type):
            raise invalid("rules", type(rules_obj).__name__, "CORE-ERR",
                          f"une instance de {self._system.name}.Rules est attendue")
        fighters: dict[str, FighterState] = {}
        for c in check_roster(combatants, rule="CORE-ERR"):
            if c.name == ENVIRONMENT:
                raise invalid("nom", c.name, "CORE-ERR",
                              "ce nom est réservé aux effets d’environnement")
            self._system.validate(c, rules_obj)
            tracks = self._system.initial_tracks(c, rules_obj)
            maxima = self._system.track_maxima(c, rules_obj)
            fighters[c.name] = FighterState(c, dict(tracks), dict(maxima))
        if not fighters:
            raise invalid("combattants", "aucun", "CORE-ERR",
                          "un combat demande au moins un combattant")
        self._rules = rules_obj
        self.state = EncounterState(
            system=self._system.name,
            rules=self._system.rules_to_json(rules_obj),
            fighters=fighters,
            end_conditions=list(end_conditions),
        )

    # -- read-only views ---------------------------------------------------------------

    @property
    def system(self) -> System[Any]:
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
    def fast(self) -> bool:
        """Simulation mode (:mod:`escarmouche.simulation`): operations run in place, with
        no copy, no rng snapshot, no dice in the log; the same dice give the same fight.
        A refused operation may leave the fight half-changed: only for throwaway fights
        (``Encounter.simulated`` makes one)."""
        return self.state.fast

    def simulated(self) -> Encounter:
        """A copy of this fight (not started, or where it stands) in simulation mode.

        >>> import random
        >>> from escarmouche import Combatant
        >>> from escarmouche.systems import d20
        >>> duel = Encounter(d20.SYSTEM, [Combatant("Brune", "héros", {"PV": 10}),
        ...                          Combatant("Grolk", "orques", {"PV": 8})])
        >>> full, fast = duel.simulated(), duel.simulated()
        >>> full.state.fast = False
        >>> _ = full.run(random.Random(3)); _ = fast.run(random.Random(3))
        >>> fast.fast, fast.outcome == full.outcome, fast.turn == full.turn
        (True, True, True)
        >>> duel.started
        False
        """
        return self._twin(self.state._quick_copy())

    def copy(self, *, fast: bool | None = None) -> Encounter:
        """An independent copy of this fight where it stands (same rules and log; in
        this fight's mode, or simulation mode when ``fast``, the full engine's when
        ``fast`` is false): what is played in one never changes the other. Cheaper than
        building the fight again (its combatants were checked once).

        >>> import random
        >>> from escarmouche import Combatant
        >>> duel = Encounter("d20", [Combatant("Brune", "héros", {"PV": 10}),
        ...                          Combatant("Grolk", "orques", {"PV": 8})])
        >>> played = duel.copy()
        >>> _ = played.run(random.Random(3))
        >>> played.finished, duel.started, duel.fighter("Grolk").tracks
        (True, False, {'PV': 8})
        """
        return self._twin(self.state._copy(fast=self.state.fast if fast is None else fast))

    def _twin(self, state: EncounterState) -> Encounter:
        """This fight's system and rules (checked already) with ``state``."""
        twin = Encounter.__new__(Encounter)
        twin._system = self._system
        twin._rules = self._rules
        twin.state = state
        return twin

    @property
    def started(self) -> bool:
        return self.state.started

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

    def choice_values(self, actor: str, param: str, **params: Any) -> tuple[str, ...]:
        """The values of the one-tap parameter ``param`` of ``actor``'s action that fit
        now, given the other ``params`` (its target): :meth:`System.choice_values`, the
        default first (the d100 defence: « aucune », then what the target may do)."""
        if actor not in self.state.fighters:
            return tuple(self._system.param_choices.get(param, ("", ()))[1])
        ctx = Ctx(self.state.draft(), self._system, self._rules, None)
        return self._system.choice_values(ctx, actor, param, params)

    def narration(self, since: int = 0) -> str:
        """The log as French text, one line per event, with turn headers."""
        lines: list[str] = []
        for e in self.state.log[since:]:
            if e.kind == "debut_tour":
                lines.append(f"— {e.text}")
            else:
                lines.append(f"  {e.text}")
        return "\n".join(lines)

    def journal(self, since: int = 0, *, rules: bool = True) -> Text:
        """The log from event ``since`` on, one French line per event, with the rule IDs
        applied (``rules``), each once: those the sentence already cites are not repeated
        in brackets; it displays itself in a notebook."""
        lines = []
        for e in self.state.log[since:]:
            more = [r for r in e.rules
                    if not re.search(rf"(?<![\w-]){re.escape(r)}(?![\w-])", e.text)]
            cited = f" [{', '.join(more)}]" if rules and more else ""
            lines.append(f"{e.text}{cited}")
        return Text("\n".join(lines))

    # -- atomic operations -------------------------------------------------------------

    def _atomic(self, rng: Rng | None, op: Callable[[Ctx[Any]], None]) -> list[Event]:
        if self.state.fast or self._in_run:
            # in place, with no copy and no rng snapshot: in simulation mode the fight is
            # throwaway (a refusal leaves it as it is, the caller drops it); inside run()
            # it is the run's own copy, which run() drops (and puts the rngs back) if
            # anything fails. The full engine records dice and sentences as ever (dice
            # left out of every event get their own); simulation mode records no dice.
            ctx = Ctx(self.state, self._system, self._rules, rng)
            op(ctx)
            if ctx._rng is not None and ctx._rng.draws:
                ctx.emit("des", "Dés lancés.")
            return ctx.events
        draft = self.state.draft()
        ctx = Ctx(draft, self._system, self._rules, None)
        recording = ctx._rng = _AtomicRng(rng) if rng is not None else None
        try:
            op(ctx)
            if recording is not None and recording.draws:
                ctx.emit("des", "Dés lancés.")
        except BaseException:
            if recording is not None and recording.drew:
                set_rng_state(recording.inner, recording.before)
            raise
        self.state = draft
        return ctx.events

    def _require_running(self, ctx: Ctx[Any]) -> None:
        if not ctx.state.started:
            raise IllegalActionError(
                "Le combat n’a pas commencé : appelez start() d’abord (CORE-ERR).",
                field="combat", value="non commencé", rule="CORE-ERR",
            )
        if ctx.state.finished:
            rule = self._end_rule()
            raise IllegalActionError(
                f"Combat terminé, issue : {ctx.state.outcome} ; plus aucune action n’est "
                f"possible ({rule}).",
                field="combat", value="terminé", rule=rule,
            )

    def _end_rule(self) -> str:
        """The rule of the end of the fight in this system (CORE-END-1 by default)."""
        return next(iter(self._system.end_rules), "CORE-END-1")

    def start(self, rng: Rng, /, **options: Any) -> list[Event]:
        """Roll initiative (system options such as ``surprise_by`` go in ``options``) and
        start the first activation."""

        def op(ctx: Ctx[Any]) -> None:
            if ctx.state.started:
                raise IllegalActionError(
                    "Le combat a déjà commencé : start() ne s’appelle qu’une fois (CORE-ERR).",
                    field="combat", value="commencé", rule="CORE-ERR",
                )
            for key, value in options.items():
                checks.plain_value(key, value, "CORE-ERR")
            unknown = sorted(set(options) - set(self._system.start_options))
            if unknown:
                offered = self._system.start_options
                known = ("il n’en a aucune" if not offered else
                         f"la seule est {quote(offered[0])}" if len(offered) == 1 else
                         f"elles sont {join([quote(k) for k in offered])}")
                raise invalid("option", unknown[0], "CORE-ERR",
                              f"option de départ inconnue pour le système "
                              f"{self._system.name} ; {known}")
            ctx.state.started = True
            self._system.start(ctx, options)
            ctx.state.turn = self._system.first_turn(ctx)
            self._begin_turn(ctx)
            self._advance(ctx)

        return self._atomic(rng, op)

    def act(self, actor: str, action: str, rng: Rng | None = None, **params: Any) -> list[Event]:
        """``actor`` takes ``action`` (the system checks legality, in turn or out of turn)."""

        def op(ctx: Ctx[Any]) -> None:
            self._require_running(ctx)
            ctx.fighter(actor)
            self._system.act(ctx, actor, action, params)
            self._check_end(ctx, at_turn_end=False)

        return self._atomic(rng, op)

    def end_activation(self, rng: Rng | None = None) -> list[Event]:
        """End the current activation and start the next one (ending turns as needed)."""

        def op(ctx: Ctx[Any]) -> None:
            self._require_running(ctx)
            self._end_activation(ctx)
            self._advance(ctx)

        return self._atomic(rng, op)

    def add_effect(self, effect: Effect) -> list[Event]:
        """Add a lasting effect (its timing says when it ticks and expires)."""

        def op(ctx: Ctx[Any]) -> None:
            ctx.add_effect(effect)

        return self._atomic(None, op)

    def remove_effect(self, effect_id: str) -> list[Event]:
        """Remove an effect by id (the GM's call, or a save that succeeded)."""

        def op(ctx: Ctx[Any]) -> None:
            ctx.remove_effect(effect_id)

        return self._atomic(None, op)

    def adjust(self, name: str, track: str, delta: int, reason: str = "ajustement du MJ"
               ) -> list[Event]:
        """A GM adjustment of a track (damage or healing typed by hand)."""

        def op(ctx: Ctx[Any]) -> None:
            checks.integer("variation", delta, lo=-100_000, hi=100_000, rule="CORE-ERR")
            checks.text("raison", reason, "CORE-ERR")
            value = ctx.change_track(name, track, delta)
            ctx.emit(
                "ajustement", f"{name} : {signed(delta)} {track} ({reason}) ; reste {value}.",
                actor=name, data={"track": track, "delta": delta, "value": value},
            )
            if ctx.state.started:
                self._check_end(ctx, at_turn_end=False)

        return self._atomic(None, op)

    def flee(self, name: str) -> list[Event]:
        """``name`` leaves the fight (CORE-END-1, RB-END-1: enemies fled)."""

        def op(ctx: Ctx[Any]) -> None:
            f = ctx.fighter(name)
            f.fled = True
            ctx.emit("fuite", f"{name} prend la fuite.", actor=name,
                     rules=self._system.end_rules)
            if ctx.state.started:
                self._check_end(ctx, at_turn_end=False)

        return self._atomic(None, op)

    def finish(self, outcome: str = "fin décidée par le MJ") -> list[Event]:
        """End the fight now (the GM's call, CORE-END-1)."""

        def op(ctx: Ctx[Any]) -> None:
            self._require_running(ctx)
            self._finish(ctx, outcome)

        return self._atomic(None, op)

    def run(self, rng: Rng, *, max_turns: int = 50, policy: Any = None,
            tactics_rng: Any = None) -> list[Event]:
        """Play the fight automatically until an end condition holds or ``max_turns``
        global turns have passed (bounded).

        Each fighter's tactics policy (:mod:`escarmouche.policies`) chooses, again and
        again during its activation, among the candidate moves of the system
        (``System.moves``) until it passes: the whole action budget is used (d100 half
        actions and reloads, d20 move + attack and action points …). ``policy`` is a
        policy name, a :class:`~escarmouche.policies.Policy`, or a mapping side → name;
        ``None`` gives every side the system's default policy
        (:func:`~escarmouche.policies.default_policy`, « agressif »). ``tactics_rng``
        feeds the random policies (« au hasard »): a stream of its own, never the dice;
        by default it is seeded from the dice rng's state (read, not drawn), so the same
        seed gives the same fight.

        All or nothing, like every operation (CORE-ERR): if anything is refused on the
        way (manual dice running out, an illegal automated choice), the fight and the rng
        are left exactly as they were before the call.
        """
        from escarmouche.policies import resolve_policies, tactics_rng_for

        checks.integer("max_turns", max_turns, lo=1, hi=MAX_RUN_TURNS, rule="CORE-ERR")
        sides = list(dict.fromkeys(f.side for f in self.state.fighters.values()))
        policies = resolve_policies(self._system.name, sides, policy)
        if self.state.fast and tactics_rng is not None:
            # simulation mode: a throwaway fight, played in place (no snapshot to restore)
            return self._run(rng, max_turns, policies, tactics_rng)
        before = self.state
        snapshot = rng_state(rng)
        trng = tactics_rng if tactics_rng is not None else tactics_rng_for(snapshot)
        tactics_snapshot = rng_state(trng)
        # the whole run is one atomic operation: one working copy, played in place
        # (_atomic), committed by leaving it in place, dropped on any failure
        self.state = before.draft()
        self._in_run = True
        try:
            return self._run(rng, max_turns, policies, trng)
        except BaseException:
            self.state = before
            set_rng_state(rng, snapshot)
            set_rng_state(trng, tactics_snapshot)
            raise
        finally:
            self._in_run = False

    def _run(self, rng: Rng, max_turns: int, policies: Mapping[str, Any],
             tactics_rng: Any) -> list[Event]:
        """The automated loop: all decisions here and in the policies; the fight changes
        only through the public atomic operations (``start``, ``act``,
        ``end_activation``)."""

        from escarmouche.policies import MAX_CHOICES

        events: list[Event] = []
        fighters = self.state.fighters
        fast = self.state.fast

        def react(name: str, kind: str, options: Sequence[str]) -> str:
            chosen = policies[fighters[name].side].react(kind, options, tactics_rng)
            if chosen not in options:
                raise invalid("réaction", chosen, "CORE-ERR",
                              f"la politique de {name} a choisi une option absente")
            return str(chosen)

        if not self.state.started:
            events += self.start(rng)
        while not self.state.finished:
            if self.state.turn > max_turns:
                events += self.finish(limit_outcome(max_turns))
                break
            actor = self.state.current
            if actor is not None and actor in self.state.fighters:
                fighters = self.state.fighters
                policy = policies[fighters[actor].side]
                done: list[str] = []
                for _ in range(MAX_CHOICES):
                    # the moves are read from the fight itself, not from a copy: a system's
                    # moves (and the reactions they ask for) change nothing, which the
                    # equivalence tests hold them to (tests/rules/core/test_simulation.py)
                    ctx = Ctx(self.state, self._system, self._rules, None)
                    fighters = ctx.state.fighters
                    moves = self._system.moves(ctx, actor, tuple(done), react)
                    if moves and not self._system.legal_moves:
                        # only what the system offers now (its turn plan, its budget),
                        # asked of the rules for the moves' own actions
                        offered = self._system.offered(
                            ctx, actor, {m.action for m in moves})
                        moves = [m for m in moves if m.action in offered]
                    move = policy.choose(moves, tactics_rng) if moves else None
                    if move is None:
                        break
                    if fast:
                        self._play_offered(actor, move, rng)
                    else:
                        events += self.act(actor, move.action, rng, **dict(move.params))
                    done.append(move.action)
                    if self.state.finished:
                        break
                if self.state.finished:
                    break
            events += self.end_activation(rng)
        return events

    def _play_offered(self, actor: str, move: Move, rng: Rng) -> None:
        """Simulation mode: play a move the system built and offered just now (``act``
        without checking again what the system itself checked: ``System.act`` with
        ``offered``); in place, like every operation of this mode."""
        ctx = Ctx(self.state, self._system, self._rules, rng)
        self._system.act(ctx, actor, move.action, move.params, offered=True)
        self._check_end(ctx, at_turn_end=False)

    # -- the turn machinery (runs inside _atomic) --------------------------------------

    def _begin_turn(self, ctx: Ctx[Any]) -> None:
        st = ctx.state
        st.order = list(self._system.turn_order(ctx, st.turn))
        st.cursor = -1
        st.activations = {}
        # the announced order leaves out the fighters already out of the fight: they
        # have no activation in it (their slots are skipped)
        acting = [n for n in st.order if n not in st.fighters or st.fighters[n].standing]
        system, turn = self._system, st.turn
        ctx.emit("debut_tour", lambda: turn_start_sentence(system, turn, acting),
                 rules=system.turn_rules, data={"order": acting})
        for e in [e for e in st.effects if e.timing is Timing.TURN_START]:
            ctx.tick(e, rules=self._system.tick_rules.get(Timing.TURN_START, ()))
        self._system.on_turn_start(ctx)

    def _end_turn(self, ctx: Ctx[Any]) -> None:
        st = ctx.state
        for e in [e for e in st.effects if e.timing is Timing.TURN_END]:
            ctx.tick(e, rules=self._system.tick_rules.get(Timing.TURN_END, ()))
        self._system.on_turn_end(ctx)
        system, turn = self._system, st.turn
        ctx.emit("fin_tour", lambda: turn_end_sentence(system, turn))
        self._check_end(ctx, at_turn_end=True)

    def _start_activation(self, ctx: Ctx[Any], actor: str) -> bool:
        st = ctx.state
        first = st.activations.get(actor, 0) == 0
        st.activations[actor] = st.activations.get(actor, 0) + 1
        ctx.emit("activation", lambda: activation_words(self._system, actor)[0], actor=actor,
                 data={"activation": st.activations[actor]})
        ending = [e for e in st.effects
                  if e.timing is Timing.UNTIL_NEXT_TURN_OF and e.until_turn_of == actor]
        if ending:
            start = activation_words(self._system, actor)[1]
            for e in ending:
                ctx.remove_effect(e.id, why=f"prend fin {start}")
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

    def _end_activation(self, ctx: Ctx[Any]) -> None:
        actor = ctx.state.current
        if actor is None:
            return
        self._system.on_activation_end(ctx, actor)
        for e in ctx.effects_of(actor, Timing.ACTIVATION_END):
            ctx.tick(e, rules=self._system.tick_rules.get(Timing.ACTIVATION_END, ()))

    def _advance(self, ctx: Ctx[Any]) -> None:
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
            f"Combat bloqué : personne n’a pu agir en {number(MAX_SKIPPED_SLOTS)} "
            "activations (CORE-ERR).",
            field="activations", value=MAX_SKIPPED_SLOTS, rule="CORE-ERR",
        )

    def _check_end(self, ctx: Ctx[Any], *, at_turn_end: bool) -> None:
        if ctx.state.finished:
            return
        outcome = end_outcome(ctx.state, at_turn_end)
        if outcome is not None:
            self._finish(ctx, outcome)

    def _finish(self, ctx: Ctx[Any], outcome: str) -> None:
        ctx.state.finished = True
        ctx.state.outcome = outcome
        emit_end(ctx, self._system, outcome)
        self._system.on_end(ctx)

    # -- save and restore --------------------------------------------------------------

    def to_json(self) -> str:
        """The whole fight as JSON text (round-trips exactly with :meth:`from_json`)."""
        return json.dumps(self.state.to_json(), ensure_ascii=False, sort_keys=True, indent=1)

    @classmethod
    def from_json(cls, text: str | Mapping[str, Json]) -> Encounter:
        """Load a save written by :meth:`to_json` (or by another tool following the
        published schema, :func:`escarmouche.savefile.schema`). Everything is checked
        before anything is loaded: the text, the schema, the consistency of names, then
        the system's own options and roster rules; a fault raises a French
        :class:`~escarmouche.errors.SaveError` naming the path in the file (CORE-LOG)."""
        if isinstance(text, str):
            data = parse_json(text)
        elif isinstance(text, Mapping):
            try:
                dumped = json.dumps(dict(text), ensure_ascii=False)
            except (TypeError, ValueError, RecursionError):
                raise SaveError("Sauvegarde refusée : une valeur n’est pas du JSON (nombre, "
                                "texte, liste, objet) (CORE-LOG).", field="sauvegarde", value=None,
                                rule="CORE-LOG") from None
            data = parse_json(dumped)
        else:
            raise SaveError("Sauvegarde refusée : un texte JSON est attendu (CORE-LOG).",
                            field="sauvegarde", value=None, rule="CORE-LOG")
        checked = validate_save(data)
        try:
            system = lookup_system(str(checked["system"]))
        except EscarmoucheError:
            raise SaveError(
                f"Sauvegarde refusée : système inconnu « {checked['system']} » ; s’il est "
                "ajouté, enregistrez-le avec escarmouche.systems.register (CORE-LOG).",
                field="system", value=checked["system"], rule="CORE-LOG") from None
        try:
            state = EncounterState.from_json(checked)
        except EscarmoucheError as err:
            raise SaveError(f"Sauvegarde refusée (CORE-LOG). {err}", field="sauvegarde",
                            value=None, rule="CORE-LOG") from None
        try:
            rules = system.rules_from_json(state.rules)
            for f in state.fighters.values():
                system.validate(f.combatant, rules)
                allowed = set(system.initial_tracks(f.combatant, rules)) | set(system.tracks)
                unknown = sorted(set(f.tracks) - allowed)
                if unknown:
                    raise SaveError(
                        f"Sauvegarde refusée : piste inconnue « {unknown[0]} » pour "
                        f"« {f.name} » dans le système {system.name} (CORE-LOG).",
                        field="tracks", value=unknown[0], rule="CORE-LOG")
            system.validate_state(state, rules)
        except SaveError:
            raise
        except (EscarmoucheError, TypeError, KeyError, AttributeError) as err:
            reason = str(err) if isinstance(err, EscarmoucheError) else "valeur invalide"
            raise SaveError(f"Sauvegarde incohérente pour le système {system.name} "
                            f"(CORE-LOG). {sentence(reason)}", field="sauvegarde", value=None,
                            rule="CORE-LOG") from None
        self = cls.__new__(cls)
        self._system = system
        self._rules = rules
        self.state = state
        return self
