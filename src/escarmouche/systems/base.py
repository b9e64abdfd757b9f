"""What a rule system provides to the encounter engine.

A system is one module with a frozen ``Rules`` dataclass, its reference functions and a
``SYSTEM`` instance of a :class:`System` subclass. The encounter engine
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
``finish``
    ``on_end`` (e.g. « éclat » regenerates, RB-END-3).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from escarmouche.errors import EscarmoucheError
from escarmouche.model import Combatant, Effect, Json, Timing

if TYPE_CHECKING:
    from escarmouche.encounter import Ctx, FighterState

__all__ = ["ENVIRONMENT", "ActionSpec", "System"]

#: the name of the environment's pseudo-activation (D12-INIT-5); no fighter may use it
ENVIRONMENT = "environnement"


@dataclasses.dataclass(frozen=True, slots=True)
class ActionSpec:
    """An action a system offers (for widgets and the tracker): id, French label, cost."""

    id: str
    label: str
    cost: str = ""
    rules: tuple[str, ...] = ()
    params: tuple[str, ...] = ()


class System:
    """Base class of a rule system: every hook has a neutral default."""

    #: the registry name (``"d100"`` …) and the French title
    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    #: the frozen dataclass of the system's options
    rules_type: ClassVar[type[Any]]
    #: the damage tracks (``"PV"``, ``"B"`` …) a fighter has in this system
    tracks: ClassVar[tuple[str, ...]] = ()
    #: the word for one global turn, in French (« tour », « round »)
    turn_word: ClassVar[str] = "tour"
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

    # -- rules (options) -------------------------------------------------------------

    def default_rules(self) -> Any:
        return self.rules_type()

    def rules_to_json(self, rules: Any) -> dict[str, Json]:
        out: dict[str, Json] = {}
        for f in dataclasses.fields(rules):
            value = getattr(rules, f.name)
            if isinstance(value, Mapping):
                value = {str(k): v for k, v in value.items()}
            elif isinstance(value, tuple | frozenset | set):
                value = list(value) if isinstance(value, tuple) else sorted(value)
            out[f.name] = value
        return out

    def rules_from_json(self, data: Mapping[str, Json]) -> Any:
        names = {f.name: f for f in dataclasses.fields(self.rules_type)}
        unknown = sorted(set(data) - set(names))
        if unknown:
            raise EscarmoucheError(
                f"option = {unknown[0]!r} : option inconnue pour le système {self.name} ; "
                f"options : {', '.join(sorted(names))} (CORE-ERR)",
                field="rules", value=unknown[0], rule="CORE-ERR",
            )
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            default = getattr(self.rules_type(), key)
            if isinstance(default, tuple) and isinstance(value, list):
                value = tuple(value)
            elif isinstance(default, frozenset) and isinstance(value, list):
                value = frozenset(value)
            kwargs[key] = value
        return self.rules_type(**kwargs)

    # -- roster ----------------------------------------------------------------------

    def validate(self, combatant: Combatant, rules: Any) -> None:
        """Raise a French :class:`EscarmoucheError` if ``combatant`` lacks what the rules need."""

    def initial_tracks(self, combatant: Combatant, rules: Any) -> dict[str, int]:
        """The starting value of each damage track (default: the stat of the same name)."""
        return {t: combatant.stat(t) for t in self.tracks if t in combatant.stats}

    def track_maxima(self, combatant: Combatant, rules: Any) -> dict[str, int]:
        """The most each track can be healed back to (default: its starting value)."""
        return self.initial_tracks(combatant, rules)

    def is_out(self, fighter: FighterState, rules: Any) -> bool:
        """Whether a fighter is out of the fight (default: a track at 0 or below)."""
        return any(v <= 0 for v in fighter.tracks.values())

    # -- the fight -------------------------------------------------------------------

    def start(self, ctx: Ctx, options: Mapping[str, Any]) -> None:
        """Roll initiative (and surprise); store what ``turn_order`` needs in
        ``ctx.state.system_state``; emit the events."""

    def first_turn(self, ctx: Ctx) -> int:
        """The number of the first global turn (0 when a turn 0 / surprise round exists)."""
        return 1

    def turn_order(self, ctx: Ctx, turn: int) -> list[str]:
        """The activation slots of global turn ``turn`` (names; a name may repeat)."""
        return [f.combatant.name for f in ctx.state.fighters.values()]

    def validate_effect(self, effect: Effect, rules: Any) -> None:
        """Raise a French :class:`EscarmoucheError` if ``effect`` makes no sense in this
        system (e.g. ongoing damage that heals); called before any effect is added."""

    def effect_sort_key(self, effect: Effect) -> int:
        """Order in which one bearer's effects tick at the same moment (stable)."""
        return 0

    def on_turn_start(self, ctx: Ctx) -> None: ...

    def on_turn_end(self, ctx: Ctx) -> None: ...

    def on_activation_start(self, ctx: Ctx, actor: str) -> bool:
        """Return ``False`` when ``actor`` cannot act in this activation."""
        return True

    def on_activation_end(self, ctx: Ctx, actor: str) -> None: ...

    def actions(self, ctx: Ctx, actor: str) -> Sequence[ActionSpec]:
        """The actions ``actor`` may take now (for widgets and the tracker)."""
        return ()

    def act(self, ctx: Ctx, actor: str, action: str, params: Mapping[str, Any]) -> None:
        """Validate and resolve one action; raise :class:`EscarmoucheError` if illegal
        (the engine then restores the state and the rng)."""
        raise EscarmoucheError(
            f"action = {action!r} : le système {self.name} ne définit aucune action "
            "(CORE-ERR)",
            field="action", value=action, rule="CORE-ERR",
        )

    def auto_action(self, ctx: Ctx, actor: str) -> tuple[str, dict[str, Any]] | None:
        """A simple default choice for automated fights (``Encounter.run``); ``None`` to pass."""
        return None

    def on_end(self, ctx: Ctx) -> None: ...
