"""What a rule system provides to the encounter engine.

A system is one package with the same files (``rules.py`` options and tables,
``initiative.py``, ``actions.py`` catalogue and resolution, ``odds.py``, ``narration.py``,
``system.py`` hooks), a frozen ``Rules`` dataclass, its reference functions and a
``SYSTEM`` instance of a :class:`System` subclass, generic over its ``Rules``. The encounter engine
(:mod:`escarmouche.encounter`) calls the hooks below at fixed points of the fight; a
system overrides only what its rules need. Adding a fifth system never needs an
``if system == ...`` in the core: if it would, a hook is missing here.

Call sequence (``Encounter``):

``start``
    ``validate`` every combatant, ``initial_tracks``, then ``start`` (roll initiative,
    store it in ``ctx.state.system_state``), ``first_turn``.
each global turn ``n``
    ``turn_order(ctx, n)``; effects timed ``TURN_START`` tick; ``on_turn_start``;
    then for each slot of the order: activation start (effects ending « jusqu’au
    prochain tour de X » expire; ``ACTIVATION_START`` effects of the bearer tick in
    ``effect_sort_key`` order, only at the bearer's first activation of the turn;
    ``on_activation_start`` may return ``False`` when the actor cannot act); actions
    through ``act``; activation end (``on_activation_end``, then ``ACTIVATION_END``
    effects tick); after the last slot, ``TURN_END`` effects tick, ``on_turn_end``,
    and the end conditions are checked.
``act``
    :meth:`System.act` (here, the same for every system): the action is looked up in
    :meth:`System.catalogue`, its parameters are checked against the
    :class:`ActionSpec` (unknown or missing ones raise
    :class:`~escarmouche.errors.ParameterError`), :meth:`System.check_legal` refuses
    what the rules forbid now (:class:`~escarmouche.errors.IllegalActionError`), then
    the resolver of the action (:attr:`System.resolvers`) resolves it.
``finish``
    ``on_end`` (e.g. « éclat » regenerates, RB-END-3).

Naming rule, in every system: a pure function of dice already rolled is
``resolve_<thing>(…, <die>_roll=…)`` (or the API.md name); the function that draws the
dice is ``roll_<thing>(…, rng)`` and documents its draw order; exact odds are
``<thing>_odds(…)`` (probabilities as :class:`~fractions.Fraction`) or
``<thing>_distribution(…)`` (a mapping value → probability).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from escarmouche import _check
from escarmouche.errors import IllegalActionError, ParameterError, invalid
from escarmouche.model import Combatant, Effect, Json, Timing
from escarmouche.state import ENVIRONMENT, Ctx, EncounterState, FighterState
from escarmouche.text.fmt import de, join, quote

__all__ = ["ENVIRONMENT", "ActionSpec", "Move", "Reactor", "Resolver", "System"]

R = TypeVar("R")


@dataclasses.dataclass(frozen=True, slots=True)
class ActionSpec:
    """One action a system offers, the same type in every system (data, JSON-ready).

    ``id`` is the identifier passed to ``Encounter.act``; ``label`` and ``cost`` are
    French (« Attaquer », « demi-action »); ``rules`` the rule IDs it applies;
    ``params`` the French names of the parameters it accepts and ``required`` those it
    needs; ``doc`` one French sentence saying what it does (every action has one);
    ``kind`` the resolver that plays it (default: ``id``), so that several actions can
    share one resolver (d12's declared actions).
    """

    id: str
    label: str
    cost: str = ""
    rules: tuple[str, ...] = ()
    params: tuple[str, ...] = ()
    required: tuple[str, ...] = ()
    doc: str = ""
    kind: str = ""

    @property
    def resolver_key(self) -> str:
        return self.kind or self.id

    def to_json(self) -> dict[str, Json]:
        return {
            "id": self.id, "label": self.label, "cost": self.cost, "rules": list(self.rules),
            "params": list(self.params), "required": list(self.required), "doc": self.doc,
            "kind": self.kind,
        }

    def check_params(self, params: Mapping[str, object]) -> None:
        """Refuse a parameter the action does not take, or a missing required one."""
        rule = self.rules[0] if self.rules else "CORE-ERR"
        for key, value in params.items():
            _check.plain_value(key, value, rule)
            if key not in self.params:
                raise invalid(
                    "paramètre", key, rule,
                    f"l’action {quote(self.label)} ne prend pas ce paramètre ; paramètres : "
                    f"{join(self.params, empty='aucun')}",
                )
        for key in self.required:
            if key not in params:
                raise invalid("paramètre", key, rule,
                              f"l’action {quote(self.label)} a besoin de ce paramètre")


@dataclasses.dataclass(frozen=True, slots=True)
class Move:
    """One candidate action for automated play (``System.moves``): the action id, its
    parameters (ready for ``Encounter.act``) and French tags saying what kind of move it
    is, which the tactics policies (:mod:`escarmouche.policies`) rank: ``"attaque"``,
    ``"suite"`` (carry on an extended action), ``"recharge"``, ``"defense"``,
    ``"deplacement"``, ``"effort"`` (spend a limited resource), ``"sur"`` (the safe
    variant of a move)."""

    action: str
    params: Mapping[str, Any]
    tags: frozenset[str] = frozenset()


#: how a system asks a fighter's policy for an out-of-turn choice while it builds a
#: move: ``react(fighter, kind, options)`` returns one of ``options`` (listed in the
#: system's order of preference); ``kind`` is ``"defense"`` (d100 parry or dodge) or
#: ``"attaque_opportunite"`` (d20) …
Reactor = Callable[[str, str, Sequence[str]], str]


def _option_value(key: str, value: object, default: object, system: str) -> object:
    """An option read from JSON, of the same kind as its default (the default tells the
    type): lists become tuples or frozensets like the default; a mismatch is refused."""
    if isinstance(default, bool):
        ok, label = isinstance(value, bool), "true ou false"
    elif isinstance(default, int):
        ok, label = _check.is_int(value), "un nombre entier"
    elif isinstance(default, str):
        ok, label = isinstance(value, str), "un texte"
    elif isinstance(default, tuple | frozenset):
        ok, label = isinstance(value, list), "une liste"
    elif isinstance(default, Mapping):
        ok, label = isinstance(value, dict), "un dictionnaire"
    else:
        ok, label = True, ""
    if not ok:
        raise invalid(key, value, "CORE-ERR",
                      f"{label} est attendu pour cette option du système {system}")
    if isinstance(default, tuple):
        return tuple(value)  # type: ignore[arg-type]
    if isinstance(default, frozenset):
        try:
            return frozenset(value)  # type: ignore[call-overload]
        except TypeError:
            raise invalid(key, "…", "CORE-ERR",
                          "une liste de valeurs simples est attendue") from None
    return value


#: a function that resolves one action: ``(ctx, actor, spec, params)``; it raises
#: :class:`~escarmouche.errors.EscarmoucheError` when the action is refused
Resolver = Callable[[Ctx[R], str, ActionSpec, Mapping[str, Any]], None]


class System(Generic[R]):
    """Base class of a rule system, generic over its ``Rules``; every hook has a neutral
    default, so a system overrides only what its rules need."""

    #: the registry name (``"d100"`` …) and the French title
    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    #: the frozen dataclass of the system's options
    rules_type: type[R]
    #: the damage tracks (``"PV"``, ``"B"`` …) a fighter has in this system
    tracks: ClassVar[tuple[str, ...]] = ()
    #: the word for one global turn, in French (« tour », « round »)
    turn_word: ClassVar[str] = "tour"
    #: the word for one fighter's moment to act (« tour », or « activation » where
    #: « tour » is the global turn, as in the Rulebook)
    activation_word: ClassVar[str] = "tour"
    #: the keyword options ``Encounter.start`` accepts (the engine refuses any other)
    start_options: ClassVar[tuple[str, ...]] = ()
    #: the rule IDs cited when a global turn starts (the turn structure of the system)
    turn_rules: ClassVar[tuple[str, ...]] = ("RB-TURN-1",)
    #: the rule IDs cited when effects tick at each timing (a system may override);
    #: the default is the Rulebook's wording of effect timing (RB-TIME-1..3), the most
    #: general of the four texts
    tick_rules: ClassVar[Mapping[Timing, tuple[str, ...]]] = {
        Timing.TURN_START: ("RB-TIME-1",),
        Timing.ACTIVATION_START: ("RB-TIME-2",),
        Timing.ACTIVATION_END: (),
        Timing.TURN_END: ("RB-TIME-3",),
    }
    #: the system's action catalogue (``actions.py``), by id
    action_specs: Mapping[str, ActionSpec] = {}
    #: the resolver of each action, by :attr:`ActionSpec.resolver_key` (``actions.py``)
    resolvers: Mapping[str, Resolver[R]] = {}

    # -- rules (options) -------------------------------------------------------------

    def default_rules(self) -> R:
        return self.rules_type()

    def rules_to_json(self, rules: R) -> dict[str, Json]:
        out: dict[str, Json] = {}
        for f in dataclasses.fields(rules):  # type: ignore[arg-type]
            value = getattr(rules, f.name)
            if isinstance(value, Mapping):
                value = {str(k): v for k, v in value.items()}
            elif isinstance(value, tuple | frozenset | set):
                value = list(value) if isinstance(value, tuple) else sorted(value)
            out[f.name] = value
        return out

    def rules_from_json(self, data: Mapping[str, Json]) -> R:
        names = {f.name: f for f in dataclasses.fields(self.rules_type)}  # type: ignore[arg-type]
        unknown = sorted(set(data) - set(names))
        if unknown:
            raise invalid("option", unknown[0], "CORE-ERR",
                          f"option inconnue pour le système {self.name} ; options : "
                          f"{join(sorted(names))}")
        kwargs: dict[str, Any] = {}
        defaults = self.rules_type()
        for key, value in data.items():
            default = getattr(defaults, key)
            kwargs[key] = _option_value(key, value, default, self.name)
        try:
            return self.rules_type(**kwargs)
        except (TypeError, ValueError) as err:
            if isinstance(err, ParameterError):
                raise
            raise invalid("options", sorted(data)[0] if data else "", "CORE-ERR",
                          f"valeurs incohérentes pour le système {self.name}") from None

    # -- roster ----------------------------------------------------------------------

    def validate(self, combatant: Combatant, rules: R) -> None:
        """Raise a French :class:`EscarmoucheError` if ``combatant`` lacks what the rules need."""

    def initial_tracks(self, combatant: Combatant, rules: R) -> dict[str, int]:
        """The starting value of each damage track (default: the stat of the same name)."""
        return {t: combatant.stat(t) for t in self.tracks if t in combatant.stats}

    def track_maxima(self, combatant: Combatant, rules: R) -> dict[str, int]:
        """The most each track can be healed back to (default: its starting value)."""
        return self.initial_tracks(combatant, rules)

    def is_out(self, fighter: FighterState, rules: R) -> bool:
        """Whether a fighter is out of the fight (default: a track at 0 or below)."""
        return any(v <= 0 for v in fighter.tracks.values())

    def validate_state(self, state: EncounterState, rules: R) -> None:
        """Raise a French :class:`~escarmouche.errors.EscarmoucheError` if a loaded save's
        ``state.system_state`` (or fighters' ``flags``) makes no sense for this system;
        called by ``Encounter.from_json`` after the schema and consistency checks."""

    # -- the fight -------------------------------------------------------------------

    def start(self, ctx: Ctx[R], options: Mapping[str, Any]) -> None:
        """Roll initiative (and surprise); store what ``turn_order`` needs in
        ``ctx.state.system_state``; emit the events."""

    def first_turn(self, ctx: Ctx[R]) -> int:
        """The number of the first global turn (0 when a turn 0 / surprise round exists)."""
        return 1

    def turn_order(self, ctx: Ctx[R], turn: int) -> list[str]:
        """The activation slots of global turn ``turn`` (names; a name may repeat)."""
        return [f.combatant.name for f in ctx.state.fighters.values()]

    def validate_effect(self, effect: Effect, rules: R) -> None:
        """Raise a French :class:`EscarmoucheError` if ``effect`` makes no sense in this
        system (e.g. ongoing damage that heals); called before any effect is added."""

    def effect_sort_key(self, effect: Effect) -> int:
        """Order in which one bearer's effects tick at the same moment (stable)."""
        return 0

    def on_turn_start(self, ctx: Ctx[R]) -> None: ...

    def on_turn_end(self, ctx: Ctx[R]) -> None: ...

    def on_activation_start(self, ctx: Ctx[R], actor: str) -> bool:
        """Return ``False`` when ``actor`` cannot act in this activation."""
        return True

    def on_activation_end(self, ctx: Ctx[R], actor: str) -> None: ...

    def automation_note(self, roster: Sequence[Combatant], rules: R) -> str:
        """A French sentence naming what automated play adds to the text (a variant that
        is not a rule), shown wherever simulated fights are (``simule``, the book's
        simulation pages, the editions' duels); ``""`` when it adds nothing."""
        return ""

    # -- actions ---------------------------------------------------------------------

    def catalogue(self, rules: R) -> Mapping[str, ActionSpec]:
        """Every action these rules define, by id (default: :attr:`action_specs`)."""
        return self.action_specs

    def actions(self, ctx: Ctx[R], actor: str) -> Sequence[ActionSpec]:
        """The actions ``actor`` may take now (for widgets and the tracker); default: the
        whole catalogue on the actor's own activation, nothing otherwise."""
        if ctx.state.current != actor:
            return ()
        return tuple(self.catalogue(ctx.rules).values())

    def check_legal(self, ctx: Ctx[R], actor: str, spec: ActionSpec) -> None:
        """Raise :class:`~escarmouche.errors.IllegalActionError` if the rules forbid
        ``spec`` to ``actor`` now. Default: only on the actor's own activation."""
        if ctx.state.current != actor:
            raise invalid("acteur", actor, spec.rules[0] if spec.rules else "CORE-ERR",
                          "ce n’est pas son tour ; au tour "
                          f"{de(ctx.state.current) if ctx.state.current else 'de personne'}",
                          kind=IllegalActionError)

    def act(self, ctx: Ctx[R], actor: str, action: str, params: Mapping[str, Any]) -> None:
        """Validate and resolve one action, the same way in every system (see the module
        docstring); the engine restores the state and the rng if anything raises."""
        catalogue = self.catalogue(ctx.rules)
        if not isinstance(action, str) or action not in catalogue:
            raise invalid("action", action, "CORE-ERR",
                          f"action inconnue du système {self.name} ; actions : "
                          f"{join(catalogue, empty='aucune')}", kind=ParameterError)
        spec = catalogue[action]
        spec.check_params(params)
        self.check_legal(ctx, actor, spec)
        resolver = self.resolvers.get(spec.resolver_key)
        if resolver is None:
            raise invalid("action", action, "CORE-ERR",
                          f"le système {self.name} ne sait pas résoudre cette action")
        resolver(ctx, actor, spec, params)

    def auto_action(self, ctx: Ctx[R], actor: str) -> tuple[str, dict[str, Any]] | None:
        """A simple default choice for automated fights (``Encounter.run``); ``None`` to pass."""
        return None

    def moves(self, ctx: Ctx[R], actor: str, done: Sequence[str], react: Reactor
              ) -> list[Move]:
        """The candidate moves of ``actor`` now, for the tactics policies
        (``Encounter.run`` asks again after each action of the activation; ``done`` lists
        the actions already taken in it). The engine keeps only the moves whose action
        :meth:`actions` offers and plays them through :meth:`act`. Default: the
        :meth:`auto_action` choice, once per activation."""
        if done:
            return []
        choice = self.auto_action(ctx, actor)
        if choice is None:
            return []
        return [Move(choice[0], choice[1], frozenset({"attaque"}))]

    def on_end(self, ctx: Ctx[R]) -> None: ...
