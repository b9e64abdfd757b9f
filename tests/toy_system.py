"""A fifth, toy system written only against the public hooks (no change to the core).

It proves the encounter engine's plug-in design and drives its tests: initiative is
1d6 + ``init``, « frapper » deals 1d6 PV to a target.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from escarmouche.encounter import Ctx
from escarmouche.errors import IllegalActionError
from escarmouche.systems.base import ActionSpec, System


@dataclass(frozen=True, slots=True)
class ToyRules:
    damage_faces: int = 6


class ToySystem(System):
    name: ClassVar[str] = "jouet"
    title: ClassVar[str] = "Système jouet"
    rules_type: ClassVar[type[Any]] = ToyRules
    tracks: ClassVar[tuple[str, ...]] = ("PV",)

    def start(self, ctx: Ctx, options: Mapping[str, Any]) -> None:
        scores: dict[str, int] = {}
        for name, f in ctx.state.fighters.items():
            scores[name] = ctx.rng.randint(1, 6) + f.combatant.stat("init", 0)
        order = sorted(scores, key=lambda n: -scores[n])
        ctx.state.system_state["order"] = order
        ctx.emit("initiative", "Initiative : " + ", ".join(order) + ".", data={"scores": scores})

    def turn_order(self, ctx: Ctx, turn: int) -> list[str]:
        return list(ctx.state.system_state["order"])

    def actions(self, ctx: Ctx, actor: str) -> list[ActionSpec]:
        return [ActionSpec("frapper", "Frapper", params=("cible",))]

    def act(self, ctx: Ctx, actor: str, action: str, params: Mapping[str, Any]) -> None:
        if action != "frapper":
            raise IllegalActionError(f"action = {action!r} : inconnue (JOUET-1)",
                                     field="action", value=action, rule="JOUET-1")
        if ctx.state.current != actor:
            raise IllegalActionError(f"acteur = {actor!r} : ce n’est pas son tour (JOUET-1)",
                                     field="acteur", value=actor, rule="JOUET-1")
        target = ctx.fighter(params["cible"])
        dmg = ctx.rng.randint(1, ctx.rules.damage_faces)
        left = ctx.change_track(target.name, "PV", -dmg)
        ctx.emit("attaque", f"{actor} frappe {target.name} : {dmg} dégâts, reste {left}.",
                 actor=actor, data={"damage": dmg})

    def auto_action(self, ctx: Ctx, actor: str) -> tuple[str, dict[str, Any]] | None:
        enemies = ctx.enemies(actor)
        return ("frapper", {"cible": enemies[0].name}) if enemies else None


TOY = ToySystem()
