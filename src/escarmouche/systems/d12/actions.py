"""The actions of the d12 system: the catalogue (D12-ACT-1) and one resolver per kind.

The catalogue is data: :attr:`Rules.actions` (by default :data:`DEFAULT_ACTIONS`), so
:meth:`D12System.catalogue` reads it from the rules. Each :class:`ActionSpec` names its
resolver through ``kind`` (default: its id): « attaquer », « se_deplacer »,
« communiquer », and :data:`DECLARED`, shared by every action a designer adds (logged
with its parameters; its effects are the GM's call). Resolvers check their parameters
with the shared validators, draw their dice through ``ctx.rng`` (recorded in the log) and
call the pure rules of ``critical.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from escarmouche import checks
from escarmouche.errors import IllegalActionError, invalid, self_attack
from escarmouche.model import Effect, Json, Timing
from escarmouche.state import Ctx
from escarmouche.systems.base import ActionSpec, Resolver
from escarmouche.systems.d12 import narration
from escarmouche.systems.d12.critical import attack_expression, net_mode, roll_attack, roll_damage
from escarmouche.systems.d12.rules import (
    ADVANTAGE_EFFECT_KIND,
    CRITICAL_OPTIONS,
    DECLARED,
    DEFAULT_ACTIONS,
    TRACK,
    Rules,
    check_option,
    check_weapon,
)
from escarmouche.text.fmt import quote

__all__ = ["ACTIONS", "DEFAULT_ACTIONS", "RESOLVERS", "catalogue"]

#: the default catalogue, by id (:attr:`Rules.actions` may change it)
ACTIONS: Mapping[str, ActionSpec] = {a.id: a for a in DEFAULT_ACTIONS}

#: the longest free text of « se déplacer » and « communiquer »
MAX_MESSAGE = 500


def catalogue(rules: Rules) -> dict[str, ActionSpec]:
    """The action list of ``rules``, by id (D12-ACT-1)."""
    return {a.id: a for a in rules.actions}


def _message(params: Mapping[str, Any], key: str) -> str:
    value = params.get(key, "")
    if value == "":
        return ""
    return checks.text(key, value, "D12-ACT-1", max_len=MAX_MESSAGE).strip()


def attaquer(ctx: Ctx[Rules], actor: str, spec: ActionSpec, params: Mapping[str, Any]
             ) -> None:
    """« Attaquer » (D12-CRIT-1, -2, D12-ADV-1, D12-EXPLODE-1).

    Draw order: the attack d12 (two under advantage or disadvantage), then on a hit the
    damage dice (:func:`~escarmouche.systems.d12.critical.roll_damage`). Advantage effects
    of option (c) on the target are consumed by this attack, whatever its result
    (D12-CRIT-2 (c)).
    """
    target_name = checks.name_in("cible", params.get("cible"), ctx.state.fighters,
                                  "D12-CRIT-1")
    target = ctx.fighter(target_name)
    if target_name == actor:
        raise self_attack(target_name, "D12-CRIT-1")
    if not target.standing:
        raise invalid("cible", target_name, "D12-CRIT-1", "déjà hors de combat",
                      kind=IllegalActionError)
    weapons = ctx.state.system_state.get("weapons", {})
    assert isinstance(weapons, dict)
    weapon = check_weapon(params.get("arme") or weapons.get(actor, ctx.rules.default_weapon),
                          actor)
    option = check_option(params.get("option", ctx.rules.critical_option))
    advantages = int(checks.flag("avantage", params.get("avantage", False), "D12-ADV-1"))
    disadvantages = int(checks.flag("desavantage", params.get("desavantage", False),
                                    "D12-ADV-1"))
    attacker = ctx.fighter(actor).combatant
    bonus = attacker.stat("attaque", 0)
    defence = target.combatant.stat("defense")

    marks = [e for e in ctx.state.effects
             if e.kind == ADVANTAGE_EFFECT_KIND and e.bearer == target_name]
    for e in marks:
        ctx.remove_effect(e.id, why=narration.consumed_words(actor), rules=("D12-CRIT-2",))
    if marks:
        advantages += 1
    mode = net_mode(advantages, disadvantages)

    att = roll_attack(ctx.rng, bonus=bonus, defence=defence, mode=mode)
    sources = narration.attack_sources(bool(marks), advantages > bool(marks),
                                       bool(disadvantages))
    consumed = [e.id for e in marks]
    ctx.emit(
        "attaque",
        lambda: narration.attack_sentence(actor, target_name, attack_expression(mode),
                                          sources, mode, att),
        actor=actor, rules=att.rules, purpose=narration.ATTACK_PURPOSE,
        data=lambda: {"target": target_name, "weapon": weapon, "attack": att.to_json(),
                      "advantages": advantages, "disadvantages": disadvantages,
                      "consumed": consumed},
    )
    if not att.hit:
        return
    chosen = option if att.critical else None
    dmg = roll_damage(weapon, ctx.rng, option=chosen)
    left = target.tracks[TRACK] - dmg.damage
    ctx.emit(
        "degats",
        lambda: narration.damage_sentence(
            actor, target_name, CRITICAL_OPTIONS[chosen].label if chosen else None, dmg,
            left, changes_damage=chosen != "avantage"),
        actor=actor, rules=dmg.rules or ("D12-CRIT-1",), purpose=narration.DAMAGE_PURPOSE,
        data=lambda: {"target": target_name, "damage": dmg.to_json()},
    )
    ctx.change_track(target_name, TRACK, -dmg.damage, rules=dmg.rules or ("D12-CRIT-1",))
    if chosen == "avantage":
        if ctx.fighter(target_name).standing:
            ctx.add_effect(Effect(
                "", narration.advantage_name(target_name), Timing.UNTIL_NEXT_TURN_OF,
                bearer=target_name, until_turn_of=target_name, kind=ADVANTAGE_EFFECT_KIND,
                source=actor,
            ))
        else:
            ctx.emit("avantage_sans_objet", narration.pointless_advantage_sentence(target_name),
                     actor=actor, rules=("D12-CRIT-2",))


def se_deplacer(ctx: Ctx[Rules], actor: str, spec: ActionSpec, params: Mapping[str, Any]
                ) -> None:
    """« Se déplacer » (D12-ACT-1): logged; the text gives no distance or cost."""
    where = _message(params, "description")
    ctx.emit("deplacement", f"{actor} se déplace" + (f" : {where}." if where else "."),
             actor=actor, rules=("D12-ACT-1",), data={"description": where})


def communiquer(ctx: Ctx[Rules], actor: str, spec: ActionSpec, params: Mapping[str, Any]
                ) -> None:
    """« Communiquer », free (D12-ACT-1, D12-INIT-4): allies share their intentions."""
    message = _message(params, "message")
    text = f"{actor} communique avec son groupe (action libre)"
    ctx.emit("communication", text + (f" : {quote(message)}." if message else "."),
             actor=actor, rules=("D12-ACT-1", "D12-INIT-4"), data={"message": message})


def declaree(ctx: Ctx[Rules], actor: str, spec: ActionSpec, params: Mapping[str, Any]
             ) -> None:
    """An action a designer added to the list (D12-ACT-1): logged as declared, with its
    parameters; its effects are the GM's call."""
    shown: dict[str, Json] = {}
    for key, value in params.items():
        if isinstance(value, str):
            shown[key] = checks.text(key, value, spec.rules[0] if spec.rules else "D12-ACT-1",
                                     max_len=MAX_MESSAGE)
        elif isinstance(value, int | float | bool):
            shown[key] = value
        else:
            raise invalid(key, value, spec.rules[0] if spec.rules else "D12-ACT-1",
                          "un texte, un nombre ou oui/non est attendu")
    detail = ", ".join(f"{k} = {v}" for k, v in shown.items())
    ctx.emit("action", f"{actor} : {quote(spec.label)}" + (f" ({detail})." if detail else "."),
             actor=actor, rules=spec.rules or ("D12-ACT-1",),
             data={"action": spec.id, "params": shown})


#: the resolver of each kind of action (:attr:`ActionSpec.resolver_key`)
RESOLVERS: Mapping[str, Resolver[Rules]] = {
    "attaquer": attaquer,
    "se_deplacer": se_deplacer,
    "communiquer": communiquer,
    DECLARED: declaree,
}
