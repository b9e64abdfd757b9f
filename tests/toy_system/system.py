"""The hooks that plug « Jouet » into the encounter engine."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from escarmouche import checks
from escarmouche.errors import invalid
from escarmouche.model import Combatant
from escarmouche.odds import OddsTable
from escarmouche.state import Ctx, EncounterState, FighterState
from escarmouche.systems.base import System
from escarmouche.systems.describe import Situation
from tests.toy_system.actions import ACTIONS, RESOLVERS
from tests.toy_system.initiative import roll_initiative
from tests.toy_system.kernel import Sheet, compile_sheet
from tests.toy_system.narration import initiative_sentence
from tests.toy_system.odds import SITUATIONS, standard_odds
from tests.toy_system.rules import TRACK, Rules, knocked_out

__all__ = ["SYSTEM", "ToySystem"]


class ToySystem(System[Rules]):
    """Initiative once for the fight (JOUET-INIT-1), one blow per activation."""

    name: ClassVar[str] = "jouet"
    title: ClassVar[str] = "Système jouet"
    rule_prefix: ClassVar[str] = "JOUET"
    #: a small roster that shows the system (the tracker's example)
    sample_roster: ClassVar[tuple[Combatant, ...]] = (
        Combatant("Aldric", "héros", {"init": 2, TRACK: 10}),
        Combatant("Brune", "héros", {"init": 1, TRACK: 8}),
        Combatant("Grolk", "monstres", {"init": 0, TRACK: 14}),
    )
    rules_type = Rules
    tracks: ClassVar[tuple[str, ...]] = (TRACK,)
    turn_rules: ClassVar[tuple[str, ...]] = ("JOUET-INIT-1",)
    action_specs = ACTIONS
    resolvers = RESOLVERS

    def standard_odds(self, rules: Rules) -> list[OddsTable]:
        return standard_odds(rules)

    def situations(self) -> tuple[Situation, ...]:
        return SITUATIONS

    def is_out(self, fighter: FighterState, rules: Rules) -> bool:
        """JOUET-END-1 (:func:`.rules.knocked_out`, which the rules kernel asks too)."""
        return TRACK in fighter.tracks and knocked_out(fighter.tracks[TRACK])

    def kernel(self, template: Any, start_options: Mapping[str, Any],
               policies: Mapping[str, Any]) -> Sheet | None:
        """The rules kernel's sheet for these fights, or ``None`` when it does not cover
        them (:func:`.kernel.compile_sheet`): simulation mode plays it."""
        return compile_sheet(template, start_options, policies)

    def start(self, ctx: Ctx[Rules], options: Mapping[str, Any]) -> None:
        roster = [f.combatant for f in ctx.state.fighters.values()]
        init = roll_initiative(roster, ctx.rng)
        ctx.state.system_state["ordre"] = list(init.order)
        ctx.emit("initiative", initiative_sentence(init.order), rules=("JOUET-INIT-1",),
                 data={"scores": dict(init.scores)})

    def validate_state(self, state: EncounterState, rules: Rules) -> None:
        """A loaded save's ``system_state``: the order rolled at start (JOUET-INIT-1)."""
        if not state.started:
            return
        names = list(state.fighters)
        order = checks.sequence("system_state.ordre", state.system_state.get("ordre"),
                                "JOUET-INIT-1", min_len=len(names), max_len=len(names))
        if sorted(map(str, order)) != sorted(names):
            raise invalid("system_state.ordre", "…", "JOUET-INIT-1",
                          "l’ordre doit nommer chaque combattant une fois")
        struck = state.system_state.get("a_frappe")
        if struck is not None:
            checks.name_in("system_state.a_frappe", struck, names, "JOUET-ATK-1")

    def turn_order(self, ctx: Ctx[Rules], turn: int) -> list[str]:
        order = ctx.state.system_state["ordre"]
        assert isinstance(order, list)
        return [str(name) for name in order]

    def on_activation_start(self, ctx: Ctx[Rules], actor: str) -> bool:
        ctx.state.system_state["a_frappe"] = None
        return True

    def auto_action(self, ctx: Ctx[Rules], actor: str) -> tuple[str, dict[str, Any]] | None:
        enemies = ctx.enemies(actor)
        return ("frapper", {"cible": enemies[0].name}) if enemies else None


SYSTEM = ToySystem()
