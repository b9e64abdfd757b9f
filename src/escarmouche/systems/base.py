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
``resolve_<thing>(…, <die>_roll=…)`` (or the spec/API.md name); the function that draws the
dice is ``roll_<thing>(…, rng)`` and documents its draw order; exact odds are
``<thing>_odds(…)`` (probabilities as :class:`~fractions.Fraction`) or
``<thing>_distribution(…)`` (a mapping value → probability).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any, ClassVar, Generic, TypeVar

from escarmouche import checks
from escarmouche.errors import IllegalActionError, ParameterError, invalid
from escarmouche.model import Combatant, Effect, Json, Timing
from escarmouche.odds import OddsTable
from escarmouche.options import (
    Option,
    options_of,
    rules_from_json,
    rules_from_keys,
    rules_to_json,
)
from escarmouche.options import find as find_option
from escarmouche.state import ENVIRONMENT, Ctx, EncounterState, FighterState
from escarmouche.systems.describe import Chances, InitiativeReport, Situation, SurpriseReport
from escarmouche.text.fmt import de, join, quote, signed

__all__ = ["ENVIRONMENT", "ActionSpec", "EffectPreset", "Move", "Reactor", "Resolver",
           "SituationDuel", "System", "effect_kind"]

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
            checks.plain_value(key, value, rule)
            if key not in self.params:
                raise invalid(
                    "paramètre", key, rule,
                    f"l’action {quote(self.label)} ne prend pas ce paramètre ; "
                    + (f"elle prend {join([quote(p) for p in self.params])}" if self.params
                       else "elle n’en prend aucun"),
                )
        for key in self.required:
            if key not in params:
                raise invalid(key, None, rule,
                              f"l’action {quote(self.label)} a besoin de ce paramètre")


def effect_kind(per_tick: Mapping[str, int]) -> str:
    """The kind of an effect from what it does at each tick (CORE-TIME-2): « dégâts
    continus » when it only hurts, « régénération » when it only heals, else generic;
    the kinds the d20 start of turn orders (D20-START-1). What a preset or the tracker's
    free effect gets when it declares no kind (:meth:`System.effect_kind`).

    >>> effect_kind({"PV": -2}), effect_kind({"PV": 3}), effect_kind({"PV": -1, "E": 1})
    ('degats_continus', 'regeneration', 'generique')
    """
    values = list(per_tick.values())
    if values and all(v < 0 for v in values):
        return "degats_continus"
    if values and all(v > 0 for v in values):
        return "regeneration"
    return "generique"


@dataclasses.dataclass(frozen=True, slots=True)
class EffectPreset:
    """A condition or effect the GM puts on a fighter in one tap (the tracker's
    presets), declared once on its system (:attr:`System.effect_presets`): its French
    ``name``, its ``timing`` and duration (``remaining`` ticks, ``None``: until removed
    or saved against), what it does at each tick (``per_tick``), whether a saving throw
    ends it, its keywords and ``kind``, and the rule IDs it follows.

    >>> poison = EffectPreset("Poison", Timing.ACTIVATION_START, 3, {"PV": -2},
    ...                       rules=("CORE-TIME-2",))
    >>> effect = poison.effect("Grolk")
    >>> effect.bearer, effect.remaining, dict(effect.per_tick), effect.kind
    ('Grolk', 3, {'PV': -2}, 'degats_continus')
    """

    name: str
    timing: Timing
    remaining: int | None = None
    per_tick: Mapping[str, int] = dataclasses.field(default_factory=dict)
    save_ends: bool = False
    keywords: frozenset[str] = frozenset()
    kind: str = ""
    rules: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """« Poison (PV −2, 3 fois, CORE-TIME-2) »: what the preset does, in French."""
        parts = [", ".join(f"{k} {signed(v)}" for k, v in self.per_tick.items())]
        parts.append("jusqu’au jet de sauvegarde" if self.save_ends
                     else f"{self.remaining} fois" if self.remaining else "sans fin")
        parts.extend(self.rules)
        return f"{self.name} ({', '.join(p for p in parts if p)})"

    def effect(self, bearer: str | None) -> Effect:
        """The :class:`~escarmouche.model.Effect` this preset puts on ``bearer``."""
        kind = self.kind or effect_kind(self.per_tick)
        return Effect("", self.name, self.timing, bearer=bearer, remaining=self.remaining,
                      kind=kind, per_tick=dict(self.per_tick), save_ends=self.save_ends,
                      keywords=self.keywords)


@dataclasses.dataclass(frozen=True, slots=True)
class Move:
    """One candidate action for automated play (``System.moves``): the action id, its
    parameters (ready for ``Encounter.act``) and French tags saying what kind of move it
    is, which the tactics policies (:mod:`escarmouche.policies`) rank: ``"attaque"``,
    ``"suite"`` (carry on an extended action), ``"recharge"``, ``"defense"``,
    ``"deplacement"``, ``"effort"`` (spend a limited resource), ``"sur"`` (the safe
    variant of a move). ``defaults`` names the parameters the rules fill themselves when
    the action leaves them out (the d12 critical option, D12-CRIT-2): the policy « par
    défaut » leaves them to the rules."""

    action: str
    params: Mapping[str, Any]
    tags: frozenset[str] = frozenset()
    defaults: frozenset[str] = frozenset()

    def by_default(self) -> Move:
        """This move with the parameters of :attr:`defaults` left to the rules."""
        if not self.defaults:
            return self
        return Move(self.action, {k: v for k, v in self.params.items()
                                  if k not in self.defaults}, self.tags, self.defaults)


@dataclasses.dataclass(frozen=True)
class SituationDuel:
    """A duel set up so that some rules act in it (``System.situation_duels``): the
    edition pages and their check play it beside the standard duel, on the same dice
    under the rules before and after a change, to measure options that the standard duel
    never meets (a second parry needs two attackers). ``title`` and ``situation`` are
    French; the first side is the one whose wins are counted; ``start_options`` and
    ``policies`` (side → policy name) are those of a roster file; ``effects`` are
    presets of the system laid on fighters before the fight."""

    key: str
    title: str
    situation: str
    combatants: tuple[Combatant, ...]
    start_options: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    policies: Mapping[str, str] = dataclasses.field(default_factory=dict)
    #: effects on fighters when the duel begins: (name of one of the system's
    #: ``effect_presets``, bearer)
    effects: tuple[tuple[str, str], ...] = ()

    @property
    def counted_side(self) -> str:
        """The side whose win rate the duel reports (the first one)."""
        return self.combatants[0].side


#: how a system asks a fighter's policy for an out-of-turn choice while it builds a
#: move: ``react(fighter, kind, options)`` returns one of ``options`` (listed in the
#: system's order of preference); ``kind`` is ``"defense"`` (d100 parry or dodge),
#: ``"attaque_opportunite"`` or ``"action_immediate"`` (d20) …
Reactor = Callable[[str, str, Sequence[str]], str]


#: a function that resolves one action: ``(ctx, actor, spec, params)``; it raises
#: :class:`~escarmouche.errors.EscarmoucheError` when the action is refused
Resolver = Callable[[Ctx[R], str, ActionSpec, Mapping[str, Any]], None]


class System(Generic[R]):
    """Base class of a rule system, generic over its ``Rules``; every hook has a neutral
    default, so a system overrides only what its rules need."""

    #: the registry name (``"d100"`` …) and the French title
    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    #: the prefix of the system's rule IDs in RULES.md (``"D100"`` for ``D100-ATK-1``)
    rule_prefix: ClassVar[str] = ""
    #: the tactics policy a side follows when its roster names none
    #: (:mod:`escarmouche.policies`)
    default_policy: ClassVar[str] = "agressif"
    #: :meth:`moves` lists only what the rules offer now (a rules kernel's candidates,
    #: filtered by its refusal): automated play then asks no :meth:`offered` of them
    legal_moves: ClassVar[bool] = False
    #: the per-combatant keys of a roster file that become start options, with what
    #: each holds, in French (folded in by :meth:`start_entry`)
    combatant_keys: ClassVar[Mapping[str, str]] = {}
    #: the stats this system reads, with their bounds and rule (``name → (lo, hi,
    #: rule)``): the roster editors check a typed stat against these, so a value out of
    #: bounds meets one pair of bounds with its rule, whatever its size (spec/RELECTURE.md, R8)
    stat_bounds: ClassVar[Mapping[str, tuple[int, int, str]]] = {}
    #: the yes/no start options that change the initiative (:meth:`explain_initiative`,
    #: :meth:`first_to_act`), with their French labels (the initiative demo's boxes)
    initiative_options: ClassVar[Mapping[str, str]] = {}
    #: the French keys of the options (:meth:`options`) that change the initiative (the
    #: initiative demo offers a control for each)
    initiative_rules: ClassVar[tuple[str, ...]] = ()
    #: the French keys of the options that change the surprise (:meth:`explain_surprise`;
    #: the surprise demo offers a control for each)
    surprise_rules: ClassVar[tuple[str, ...]] = ()
    #: what the initiative reads from a combatant, in French (« Ag (Ag + 1d10) »)
    initiative_stats: ClassVar[str] = ""
    #: the traits a combatant may have in this system, with their French labels; the
    #: demos show one roster to every system, so a system's descriptive hooks accept the
    #: traits of the other systems without effect
    traits: ClassVar[Mapping[str, str]] = {}
    #: what the start options may hold, as one French example (the tracker's hint)
    start_hint: ClassVar[str] = ""
    #: a small roster that shows the system (the tracker's default): combatants with
    #: the stats the system needs
    sample_roster: ClassVar[tuple[Combatant, ...]] = ()
    #: the frozen dataclass of the system's options
    rules_type: type[R]
    #: the damage tracks (``"PV"``, ``"B"`` …) a fighter has in this system
    tracks: ClassVar[tuple[str, ...]] = ()
    #: the tracks automated play can take from (``auto_action``), which a simulation's
    #: « Santé restante » measures; ``None``: every track of :attr:`tracks`
    played_tracks: ClassVar[tuple[str, ...] | None] = None
    #: the conditions and effects a GM puts on a fighter in one tap, with their
    #: durations (the tracker's presets); none by default
    effect_presets: ClassVar[tuple[EffectPreset, ...]] = ()
    #: the values an action parameter takes, where there are few, with the French label
    #: of the parameter: ``{param: (label, values)}`` (the tracker offers them as one-tap
    #: buttons, the first value chosen: the d100 defence); none by default
    param_choices: ClassVar[Mapping[str, tuple[str, tuple[str, ...]]]] = {}
    #: the actions the tracker preselects for the fighter whose turn it is, the first
    #: one offered (the system's standard attack first: « attaquer » in every built-in
    #: system; then what usually follows it in the same turn)
    preferred_actions: ClassVar[tuple[str, ...]] = ("attaquer",)
    #: the action parameters that name the one fighter an action aims at, the first
    #: one an action takes being its target: the tracker offers it as a list of the
    #: fighters (« cible », in the four built-in systems, which keep this default)
    target_params: ClassVar[tuple[str, ...]] = ("cible",)
    #: the word for one global turn, in French (« tour », « round »)
    turn_word: ClassVar[str] = "tour"
    #: the word for one fighter's moment to act (« tour », or « activation » where
    #: « tour » is the global turn, as in the Rulebook)
    activation_word: ClassVar[str] = "tour"
    #: the tracker's button that ends one fighter's moment to act (« Au suivant », or
    #: « Activation suivante » where the system has a word of its own for it)
    next_label: ClassVar[str] = "Au suivant"
    #: duels beside the standard one where options the standard duel never meets act
    #: (:class:`SituationDuel`); none by default
    situation_duels: ClassVar[tuple[SituationDuel, ...]] = ()
    #: the keyword options ``Encounter.start`` accepts (the engine refuses any other)
    start_options: ClassVar[tuple[str, ...]] = ()
    #: the rule IDs cited when a global turn starts (the turn structure of the system);
    #: the default is the engine's own turn loop (CORE-TURN-1): a system whose text has
    #: a turn rule cites it instead
    turn_rules: ClassVar[tuple[str, ...]] = ("CORE-TURN-1",)
    #: the rule IDs cited when effects tick at each timing (a system may override);
    #: the default is the engine's effect timing (CORE-TIME-1..3)
    tick_rules: ClassVar[Mapping[Timing, tuple[str, ...]]] = {
        Timing.TURN_START: ("CORE-TIME-1",),
        Timing.ACTIVATION_START: ("CORE-TIME-2",),
        Timing.ACTIVATION_END: ("CORE-TIME-2",),
        Timing.TURN_END: ("CORE-TIME-3",),
    }
    #: the rule IDs cited when the fight ends, when a fighter flees and when an action
    #: comes after the end (default: the engine's end conditions, CORE-END-1)
    end_rules: ClassVar[tuple[str, ...]] = ("CORE-END-1",)
    #: the system's action catalogue (``actions.py``), by id
    action_specs: Mapping[str, ActionSpec] = {}
    #: the resolver of each action, by :attr:`ActionSpec.resolver_key` (``actions.py``)
    resolvers: Mapping[str, Resolver[R]] = {}

    # -- rules (options) -------------------------------------------------------------

    def default_rules(self) -> R:
        return self.rules_type()

    def options(self) -> tuple[Option, ...]:
        """The declared options of :attr:`rules_type` (:mod:`escarmouche.options`): label,
        French key, rule IDs, bounds or choices, value labels; every face reads these."""
        return options_of(self.rules_type)

    def option(self, name: str) -> Option:
        """One option by its French key or engine name (refused with the list of keys)."""
        return find_option(self.rules_type, name, system=self.name)

    def rules_to_json(self, rules: R) -> dict[str, Json]:
        """The rules as JSON keyed by engine names (saves, snapshots)."""
        return rules_to_json(rules)

    def rules_from_json(self, data: Mapping[str, Json]) -> R:
        """Rules from JSON keyed by engine names (saves, snapshots)."""
        out: R = rules_from_json(self.rules_type, data, system=self.name)
        return out

    def rules_from_keys(self, data: Mapping[str, Json], base: R | None = None) -> R:
        """Rules from values keyed by French keys: what a person types in a roster file,
        after ``--option``, in an edition file or in the Atelier; ``base`` (default: the
        defaults) gives the other options."""
        out: R = rules_from_keys(self.rules_type, data, system=self.name, base=base)
        return out

    # -- what the system says of itself (the book, the widgets, the command line) ------

    def standard_odds(self, rules: R) -> list[OddsTable]:
        """The system's standard situations and their exact values under ``rules``
        (each system's ``odds.py``): what an edition page and the Atelier compare before
        and after a change. Default: none."""
        return []

    def situations(self) -> tuple[Situation, ...]:
        """The standard rolls whose exact odds ``escarmouche cotes`` gives (one option
        each, such as ``--attaque-d12``). Default: none."""
        return ()

    def explain_initiative(self, combatants: Sequence[Combatant], rng: Any, rules: R,
                           options: Mapping[str, Any]) -> InitiativeReport:
        """Roll the initiative of ``combatants`` with ``rng`` and explain it in French
        (the initiative demo). ``options`` are the start options that change it (see
        :attr:`initiative_options`). Default: the combatants in the order of the list,
        no dice, no rule cited (the system does not explain its initiative)."""
        names = tuple(c.name for c in combatants)
        return InitiativeReport(
            (("Ordre de la liste", names),),
            ("Ce système n’explique pas son initiative : les combattants sont montrés "
             "dans l’ordre de la liste.",), (), timeline_title="Ordre de la liste")

    def first_to_act(self, combatants: Sequence[Combatant], rules: R,
                     options: Mapping[str, Any]) -> tuple[Chances, ...]:
        """The exact chances that each fighter (or group) acts first, as charts with
        their explanation (``options`` as for :meth:`explain_initiative`). Default: none."""
        return ()

    def initiative_options_of(self, state: EncounterState) -> dict[str, Any]:
        """The :attr:`initiative_options` a started fight was begun with, read from its
        ``system_state`` (the tracker shows the chances of that initiative). Default:
        none."""
        return {}

    def explain_surprise(self, combatants: Sequence[Combatant], attackers: str,
                         unaware: bool, rng: Any, rules: R) -> SurpriseReport:
        """What happens when the side ``attackers`` attacks by surprise (``unaware``: the
        defenders do not know), rolled with ``rng`` and explained in French (the surprise
        demo). Default: the system has no surprise rule."""
        return SurpriseReport(
            "Pas de round de surprise", (),
            ("Le texte de ce système ne prévoit pas de surprise : tout le monde agit au "
             "premier tour, dans l’ordre d’initiative.",), ())

    def start_entry(self, start: dict[str, Any], who: str, entry: Mapping[str, Any]
                    ) -> None:
        """Fold the per-combatant keys of a roster file (:attr:`combatant_keys`, such as
        d100's ``arme``) of the combatant ``who`` into the start options ``start``.
        Default: none."""

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

    def ties_drawn_by_lot(self, state: EncounterState) -> int:
        """How many ties of this fight a safety bound settled by lot (D12-INIT-6): what a
        simulation counts. None by default."""
        return 0

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

    def offered(self, ctx: Ctx[R], actor: str, ids: AbstractSet[str]) -> AbstractSet[str]:
        """Which of the action ids ``ids`` :meth:`actions` offers ``actor`` now: what
        automated play asks of the rules for the moves it holds (``Encounter.run``),
        without listing the whole catalogue. Default: read from :meth:`actions`; a
        system overrides it with the same test applied to ``ids`` only."""
        return {spec.id for spec in self.actions(ctx, actor)} & ids

    def check_legal(self, ctx: Ctx[R], actor: str, spec: ActionSpec) -> None:
        """Raise :class:`~escarmouche.errors.IllegalActionError` if the rules forbid
        ``spec`` to ``actor`` now. Default: only on the actor's own activation."""
        if ctx.state.current != actor:
            raise invalid("acteur", actor, spec.rules[0] if spec.rules else "CORE-ERR",
                          "ce n’est pas son tour ; au tour "
                          f"{de(ctx.state.current) if ctx.state.current else 'de personne'}",
                          kind=IllegalActionError)

    def act(self, ctx: Ctx[R], actor: str, action: str, params: Mapping[str, Any], *,
            offered: bool = False) -> None:
        """Validate and resolve one action, the same way in every system (see the module
        docstring); the engine restores the state and the rng if anything raises.

        ``offered``: the action is a move this system built (:meth:`moves`) and its rules
        have just offered (:meth:`offered`, the legality test of :meth:`actions`), in
        simulation mode (``Encounter.run`` only): its parameters and its legality are
        not checked again, the resolver plays it (and still checks what it reads). The
        equivalence tests hold the full engine, which checks everything, to the same
        fights."""
        if offered:
            spec = self.catalogue(ctx.rules)[action]
            self.resolvers[spec.resolver_key](ctx, actor, spec, params)
            return
        catalogue = self.catalogue(ctx.rules)
        if not isinstance(action, str) or action not in catalogue:
            raise invalid("action", action, "CORE-ERR",
                          f"action inconnue du système {self.name}, à choisir parmi "
                          f"{join([quote(a) for a in catalogue], empty='aucune', last='ou')}",
                          kind=ParameterError)
        spec = catalogue[action]
        spec.check_params(params)
        self.check_legal(ctx, actor, spec)
        resolver = self.resolvers.get(spec.resolver_key)
        if resolver is None:
            raise invalid("action", action, "CORE-ERR",
                          f"le système {self.name} ne sait pas résoudre cette action")
        resolver(ctx, actor, spec, params)

    def choice_values(self, ctx: Ctx[R], actor: str, param: str,
                      params: Mapping[str, Any]) -> tuple[str, ...]:
        """The values of the one-tap parameter ``param`` (:attr:`param_choices`) that
        ``actor``'s action may take now, given the other ``params`` chosen (its target):
        the first one is the tracker's default. Default: every value, in order."""
        return tuple(self.param_choices[param][1]) if param in self.param_choices else ()

    def effect_kind(self, per_tick: Mapping[str, int]) -> str:
        """The kind of an effect the GM describes by what it does at each tick (the
        tracker's free effect): :func:`effect_kind` by default; a system whose rules
        know other kinds overrides it."""
        return effect_kind(per_tick)

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

    def kernel(self, template: Any, start_options: Mapping[str, Any],
               policies: Mapping[str, Any]) -> Any:
        """The system's rules kernel compiled for the fights of ``template`` (an unstarted
        ``Encounter``) with these start options and policies (side → policy), or
        ``None`` when the system has none or it does not cover these fights (then the
        engine plays them). A kernel has ``side_names`` (the sides in roster order) and
        ``play(dice, max_turns)``, which plays one fight on the rng ``dice`` and returns
        each fighter's ``(side, standing, health, most health)`` and the last turn (and,
        third, the ties settled by lot, when it may draw lots); the equivalence tests
        hold it to the engine.
        Default: none (see ``escarmouche.systems.d100.kernel``, the model)."""
        return None

    def narrated_run(self, kernel: Any, rng: Any, max_turns: int, tactics_rng: Any = None
                     ) -> Any:
        """The full engine's whole fight (``Encounter.start`` then ``Encounter.run``:
        what ``Roster.play`` does) played on ``kernel`` (:meth:`kernel`) with the dice of
        ``rng`` (and ``tactics_rng``, the tactics stream of a policy that draws, as
        ``Encounter.run`` takes it): an ``Encounter`` whose state and log, every event
        narrated, are the engine's for the same dice; or ``None`` when the kernel does
        not narrate these fights (then the engine plays them). Default: none (see
        ``escarmouche.systems.d100.kernel_doors.narrated_run``, the model)."""
        return None
