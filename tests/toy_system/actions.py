"""The actions of « Jouet »: the catalogue (one :class:`ActionSpec` each, documented) and
one resolver per action. Resolvers check their parameters with the shared validators
(:mod:`escarmouche.checks`), draw their dice through ``ctx.rng`` (recorded in the log)
and call the pure functions of the rules."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from escarmouche import checks
from escarmouche.errors import IllegalActionError, invalid
from escarmouche.state import Ctx
from escarmouche.systems.base import ActionSpec, Resolver
from tests.toy_system.narration import strike_sentence
from tests.toy_system.rules import DEFAULT_RULES, TRACK, Rules

__all__ = ["ACTIONS", "RESOLVERS", "Strike", "resolve_strike"]


@dataclasses.dataclass(frozen=True, slots=True)
class Strike:
    """One blow (JOUET-ATK-1): the die and the damage it deals."""

    roll: int
    damage: int
    rules: tuple[str, ...] = ("JOUET-ATK-1",)


def resolve_strike(damage_roll: int, rules: Rules = DEFAULT_RULES) -> Strike:
    """JOUET-ATK-1, a pure function of the die already rolled.

    >>> resolve_strike(4).damage
    4
    """
    roll = checks.die("dé de dégâts", damage_roll, rules.faces, "JOUET-ATK-1")
    return Strike(roll, roll)


ACTIONS: Mapping[str, ActionSpec] = {
    "frapper": ActionSpec(
        "frapper", "Frapper", cost="action", rules=("JOUET-ATK-1",),
        params=("cible",), required=("cible",),
        doc="Frappe un ennemi debout : 1d6 points de dégâts (JOUET-ATK-1).",
    ),
}


def frapper(ctx: Ctx[Rules], actor: str, spec: ActionSpec, params: Mapping[str, Any]) -> None:
    """JOUET-ATK-1: one blow per activation, on a standing enemy."""
    enemies = [f.name for f in ctx.enemies(actor)]
    target = checks.name_in("cible", params["cible"], enemies, "JOUET-ATK-1",
                            what="ennemi debout")
    if ctx.state.system_state.get("a_frappe") == actor:
        raise invalid("action", "frapper", "JOUET-ATK-1",
                      f"{actor} a déjà frappé pendant cette activation",
                      kind=IllegalActionError)
    strike = resolve_strike(ctx.rng.randint(1, ctx.rules.faces), ctx.rules)
    left = max(ctx.fighter(target).tracks[TRACK] - strike.damage, 0)
    ctx.state.system_state["a_frappe"] = actor
    ctx.emit("attaque", strike_sentence(actor, target, strike.damage, left), actor=actor,
             rules=strike.rules, data={"cible": target, "degats": strike.damage})
    # the blow is told first, then its consequence (JOUET-END-1)
    ctx.change_track(target, TRACK, -strike.damage, rules=("JOUET-END-1",))


RESOLVERS: Mapping[str, Resolver[Rules]] = {"frapper": frapper}
