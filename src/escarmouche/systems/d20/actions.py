"""The actions of the d20 system: the catalogue (one
:class:`~escarmouche.systems.base.ActionSpec` each, documented), the action budget of a
turn (D20-ACT-1..3: :func:`plan_turn`, :func:`check_turn`) and one resolver per action.

* D20-ACT-1..3 — the budget of a turn is one slot of each of :data:`BASE_SLOTS`;
  :data:`SUBSTITUTES` says which slots an action category may take (a move action in
  the standard slot; a minor action in the move or standard slot); each action point
  adds one standard slot (:data:`ACTION_POINT_SLOT`, the ruling of D20-ACT-3), itself
  substitutable. Free actions take no slot. The check is an exact bipartite matching,
  so any order of the same actions gives the same verdict.
* the attack (engine convenience; the text has none): it hits when 1d20 + ``attaque``
  (or the ``bonus`` given) ≥ the target's ``defense`` (:attr:`Rules.default_defence`);
  it then deals the ``arme`` damage (:attr:`Rules.default_weapon`), never below 0.
  Draw order: the d20, then the damage dice when it hits. A zone attack rolls once per
  target, in order.
* reactions declared with an attack or a move (parameter ``reactions``) are checked
  before any die is rolled and resolved in the same atomic operation
  (:mod:`escarmouche.systems.d20.reactions`): opportunity attacks and interruptions
  before the trigger (a cancelled move stops on the square it was about to leave, or
  on its start square for an interruption), reactions after it.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from escarmouche import checks, dice
from escarmouche.dice.rolling import Roll
from escarmouche.errors import IllegalActionError, invalid, self_attack
from escarmouche.model import DieRecord, Json
from escarmouche.state import Ctx, FighterState
from escarmouche.systems.base import ActionSpec, Resolver
from escarmouche.systems.d20 import grid
from escarmouche.systems.d20.narration import (
    attack_detail,
    attack_label,
    attack_sentence,
    attack_trigger_text,
    cancelled_attack_sentence,
    cancelled_move_sentence,
    cancelled_text,
    declared_sentence,
    move_sentence,
    move_trigger_text,
    path_text,
    point_sentence,
    reaction_cause,
    square_text,
)
from escarmouche.systems.d20.reactions import (
    Outcome,
    Reaction,
    Trigger,
    can_react,
    emit_moot,
    parse_reaction,
    parse_reactions,
    require_standing,
    resolve_reaction,
)
from escarmouche.systems.d20.rules import (
    ATTACK_DIE,
    ATTACK_RANGES,
    CATEGORY_LABELS,
    DEFENCE_RANGE,
    FREE,
    MOVE,
    PHASE_ONLY,
    SIMPLE,
    TRACK,
    Rules,
    check_weapon,
    defence_of,
    refunded,
)
from escarmouche.systems.d20.saves import check_bonus
from escarmouche.systems.d20.turn import (
    ACTION_CATEGORIES,
    ACTION_TIMINGS,
    ACTIONS,
    TurnPlan,
    check_turn,
    plan_turn,
)
from escarmouche.text.fmt import de, plural, quote

__all__ = [
    "ACTIONS",
    "ACTION_CATEGORIES",
    "ACTION_TIMINGS",
    "RESOLVERS",
    "AttackRoll",
    "TurnPlan",
    "attack_hits",
    "available_actions",
    "check_legal",
    "check_turn",
    "plan_turn",
    "resolve_attack",
    "slot_cost",
    "weapon_damage",
]

# -- the attack (engine convenience: the text has none) -----------------------------------


@dataclass(frozen=True, slots=True)
class AttackRoll:
    """An attack roll (engine convenience): hits when ``roll + bonus ≥ defence``."""

    roll: int
    bonus: int
    defence: int
    total: int
    hit: bool


def resolve_attack(roll: int, bonus: int, defence: int) -> AttackRoll:
    """The engine's minimal attack: 1d20 + bonus against the target's defence (no rule ID
    of its own; the d20 text has no attack resolution).

    >>> resolve_attack(14, 5, 12).hit
    True
    """
    checks.die("jet d’attaque", roll, ATTACK_DIE, "CORE-ERR")
    check_bonus(bonus, "CORE-ERR", "attaque")
    checks.integer("defense", defence, lo=DEFENCE_RANGE[0], hi=DEFENCE_RANGE[1],
                   rule="CORE-ERR")
    return AttackRoll(roll, bonus, defence, roll + bonus, attack_hits(roll, bonus, defence))


def attack_hits(roll: int, bonus: int, defence: int) -> bool:
    """Whether an attack hits: ``roll + bonus ≥ defence`` (engine convenience), on values
    already checked; :func:`resolve_attack` checks them, the rules kernel
    (:mod:`.kernel`) compiled them once.

    >>> attack_hits(7, 5, 12), attack_hits(6, 5, 12)
    (True, False)
    """
    return roll + bonus >= defence


def weapon_damage(roll: Roll) -> int:
    """The damage of a hit: the weapon's roll, never below 0 (engine convenience)."""
    return max(0, roll.total)


def slot_cost(plan: TurnPlan, index: int) -> tuple[str, tuple[str, ...]]:
    """What action ``index`` of a turn ``plan`` costs, in French (« action de mouvement,
    à la place d’une action simple », « action simple, grâce au point d’action »), and
    the rules it applies: D20-ACT-1, D20-ACT-2 when it takes another category's slot,
    D20-ACT-3 when its slot was bought with an action point.

    >>> slot_cost(plan_turn(["mouvement", "mouvement"]), 1)
    ('action de mouvement, à la place d’une action simple', ('D20-ACT-1', 'D20-ACT-2'))
    """
    category = plan.actions[index]
    slot = plan.slot_of(index)
    rules = ["D20-ACT-1"]
    cost = CATEGORY_LABELS[category]
    if slot is not None and slot != category:
        rules.append("D20-ACT-2")
        cost += f", à la place d’une {CATEGORY_LABELS[slot]}"
    if plan.by_action_point(index):
        rules.append("D20-ACT-3")
        cost += ", grâce au point d’action"
    return cost, tuple(rules)


def _strike(ctx: Ctx[Rules], attacker: str, target: str, bonus: int, weapon: str,
            label: str, rule_ids: tuple[str, ...], cost: str = "",
            info: Mapping[str, Json] | None = None) -> bool:
    """Roll one attack in a fight: draws the d20, then the damage dice on a hit.
    ``cost`` is the action's cost when no earlier line announced it."""
    t = ctx.fighter(target)
    defence = defence_of(t.combatant, ctx.rules)
    d = ctx.rng.randint(1, ATTACK_DIE)
    res = resolve_attack(d, bonus, defence)
    records = [DieRecord(ATTACK_DIE, d, "attaque")]
    data: dict[str, Json] = {"attacker": attacker, "target": target, "roll": d,
                             "bonus": bonus, "total": res.total, "defence": defence,
                             "hit": res.hit, **(info or {})}
    if not res.hit:
        hp = t.tracks[TRACK]
        ctx.emit("attaque", lambda: attack_sentence(label, attacker, target, d, bonus, defence,
                                                    None, weapon, hp, cost=cost),
                 actor=attacker, rules=rule_ids, dice=records, data=data)
        return False
    dmg_roll = dice.roll(weapon, ctx.rng)
    records += dmg_roll.records("dégâts")
    damage = weapon_damage(dmg_roll)
    left = max(0, t.tracks[TRACK] - damage)
    data.update({"weapon": weapon, "damage": damage, "hp": left})
    ctx.emit("attaque", lambda: attack_sentence(label, attacker, target, d, bonus, defence,
                                                damage, weapon, left, cost=cost),
             actor=attacker, rules=rule_ids, dice=records, data=data)
    ctx.change_track(target, TRACK, -damage, rules=rule_ids)
    return True


def _react(ctx: Ctx[Rules], r: Reaction, trigger: Trigger) -> Outcome:
    """Resolve one reaction, with its attack if it makes one."""
    out = resolve_reaction(ctx, r, trigger)
    if out.attack is not None:
        by, target, bonus, weapon = out.attack
        _strike(ctx, by, target, bonus, weapon, attack_label(), r.type.rules)
    return out


# -- the budget in a fight ----------------------------------------------------------------


def budget(f: FighterState) -> dict[str, Json]:
    """The actions and action points used this turn (``flags["budget"]``)."""
    b = f.flags.setdefault("budget", {"actions": [], "points": 0})
    assert isinstance(b, dict)
    return b


def can_spend_point(rules: Rules, f: FighterState) -> bool:
    """Whether ``f`` has an action point left and may spend one more this turn."""
    cap = rules.max_action_points_per_turn
    points = int(budget(f)["points"])
    return int(f.flags.get("pa", 0)) > 0 and (cap is None or points < cap)


def _spend(ctx: Ctx[Rules], f: FighterState, spec: ActionSpec, detail: str, *,
           announce: bool = True) -> tuple[str, tuple[str, ...], dict[str, Json]]:
    """Take a slot for ``spec`` (D20-ACT-1..3); returns its cost in French (« action
    simple, grâce au point d’action »), the rules applied and the budget data (``action``,
    ``category``, ``slot``, ``used``: on the announcing event). With ``announce`` the
    action is logged now (« Thorin déclare « Dégainer une arme » (action mineure) : sa
    hache de jet. »); without it, the caller's own sentence carries the cost (an attack
    or a move that nothing interrupts: one action, one sentence)."""
    category = ACTION_CATEGORIES[spec.id]
    b = budget(f)
    used = [*b["actions"], category]
    try:
        plan = plan_turn(used, action_points=int(b["points"]), rules=ctx.rules, who=f.name)
    except IllegalActionError as err:
        # the action refused, by its label, not the list of categories (B135)
        raise invalid("action", spec.id, err.rule or "D20-ACT-2", err.why or str(err),
                      kind=IllegalActionError, display=spec.label) from None
    b["actions"] = used
    slot = plan.slot_of(len(used) - 1)
    cost, rules = slot_cost(plan, len(used) - 1)
    info: dict[str, Json] = {"action": spec.id, "category": category, "slot": slot,
                             "used": list(used)}
    if announce:
        ctx.emit("action", declared_sentence(f.name, spec.label, cost, detail), actor=f.name,
                 rules=rules, data=info)
    return cost, rules, info


def _refund(ctx: Ctx[Rules], f: FighterState, category: str) -> None:
    budget(f)["actions"] = refunded(ctx.rules, [str(a) for a in budget(f)["actions"]],
                                    category)


def _description(params: Mapping[str, Any]) -> str:
    d = params.get("description", "")
    if isinstance(d, str) and not d.strip():
        return ""
    return checks.text("description", d, "CORE-ERR").strip()


# -- legality (the ``check_legal`` and ``actions`` hooks) ---------------------------------


def check_legal(ctx: Ctx[Rules], actor: str, spec: ActionSpec) -> None:
    """Refuse what the rules forbid ``actor`` now (IllegalActionError)."""
    timing = ACTION_TIMINGS[spec.id]
    if timing == "phase":
        when, rule = PHASE_ONLY[spec.id]
        raise invalid("action", spec.id, rule, f"ce n’est pas une action, cela se fait {when}",
                      kind=IllegalActionError, display=spec.label)
    if timing == "opportunite":
        raise invalid("action", spec.id, "D20-OPP-1",
                      "elle ne se joue pas seule, elle se déclare parmi les « réactions » de "
                      "l’action ennemie qui la déclenche, comme une réaction « Attaque "
                      f"d’opportunité » faite par {actor}", kind=IllegalActionError,
                      display=spec.label)
    if timing == "mj":
        checks.name_in("combattant", actor, ctx.state.fighters, "D20-OPP-2")
        return
    if timing == "immediate":
        require_standing(ctx, actor, "D20-IMM-1")
        if ctx.state.current == actor:
            raise invalid("acteur", actor, "D20-IMM-1",
                          "une action immédiate ne se prend jamais pendant son propre tour",
                          kind=IllegalActionError)
        return
    f = require_standing(ctx, actor, "D20-ACT-1")
    if timing == "libre":
        return
    current = ctx.state.current
    if current != actor:
        raise invalid("acteur", actor, "D20-ACT-1",
                      f"c’est le tour {de(str(current))} ; {quote(spec.label)} ne se "
                      "fait que pendant son propre tour, et hors de son tour seules les actions "
                      "libres, d’opportunité et immédiates sont possibles",
                      kind=IllegalActionError)
    if timing == "point_action":
        left = int(f.flags.get("pa", 0))
        if left <= 0:
            raise invalid("PA", 0, "D20-ACT-3", f"{actor} n’a aucun point d’action à dépenser",
                          kind=IllegalActionError)
        cap = ctx.rules.max_action_points_per_turn
        spent = int(budget(f)["points"])
        if cap is not None and spent >= cap:
            raise invalid("PA", spent, "D20-ACT-3",
                          f"au plus {plural(cap, 'point')} d’action par tour avec ces règles",
                          kind=IllegalActionError)


def available_actions(ctx: Ctx[Rules], actor: str) -> list[ActionSpec]:
    """The actions ``actor`` may take now (the ``actions`` hook)."""
    f = ctx.state.fighters.get(actor)
    if f is None or not f.standing or not ctx.state.started or ctx.state.finished:
        return []
    own = ctx.state.current == actor
    b = budget(f)
    plan = plan_turn(list(b["actions"]), action_points=int(b["points"]), rules=ctx.rules)
    return [spec for spec in ACTIONS.values() if _offers(ctx, actor, f, own, plan, spec.id)]


def offered_actions(ctx: Ctx[Rules], actor: str, ids: AbstractSet[str]) -> set[str]:
    """Which of the action ids ``ids`` :func:`available_actions` offers (the same test,
    on those ids only: the ``offered`` hook)."""
    f = ctx.state.fighters.get(actor)
    if f is None or not f.standing or not ctx.state.started or ctx.state.finished:
        return set()
    own = ctx.state.current == actor
    b = budget(f)
    plan = plan_turn(list(b["actions"]), action_points=int(b["points"]), rules=ctx.rules)
    return {i for i in ids if i in ACTIONS and _offers(ctx, actor, f, own, plan, i)}


def _offers(ctx: Ctx[Rules], actor: str, f: FighterState, own: bool, plan: Any,
            action: str) -> bool:
    timing = ACTION_TIMINGS[action]
    if timing == "tour":
        return own and bool(plan.allows(ACTION_CATEGORIES[action]))
    if timing == "point_action":
        return own and bool(can_spend_point(ctx.rules, f))
    if timing == "immediate":
        return bool(can_react(ctx.state, actor, action))
    # « opportunite »: declared with its trigger only; « phase »: never an action
    return timing not in ("opportunite", "phase")


# -- resolvers ----------------------------------------------------------------------------


def _attack_targets(ctx: Ctx[Rules], f: FighterState, portee: str,
                    params: Mapping[str, Any]) -> list[str]:
    if "cibles" in params:
        if portee != "zone":
            raise invalid("cibles", params["cibles"], "CORE-ERR",
                          "seule une attaque de zone vise plusieurs cibles ; utilisez cible=…")
        names = list(checks.sequence("cibles", params["cibles"], "CORE-ERR", min_len=1))
    elif "cible" in params:
        names = [params["cible"]]
    else:
        raise invalid("cible", None, "CORE-ERR", "indiquez la cible de l’attaque, "
                      "« cible=Grolk » par exemple")
    seen: set[str] = set()
    out: list[str] = []
    for n in names:
        name = checks.name_in("cible", n, ctx.state.fighters, "CORE-ERR")
        if name == f.name:
            raise self_attack(name, "CORE-ERR")
        if name in seen:
            raise invalid("cible", name, "CORE-ERR", "cible en double")
        seen.add(name)
        t = ctx.fighter(name)
        if not t.standing:
            raise invalid("cible", name, "CORE-ERR", "déjà hors de combat",
                          kind=IllegalActionError)
        if portee == "corps_a_corps" and not grid.is_adjacent(
            grid.need_position(f, "D20-OPP-2"), grid.need_position(t, "D20-OPP-2")
        ):
            raise invalid("cible", name, "D20-OPP-2",
                          "une attaque au corps à corps vise une créature adjacente (l’une "
                          "des 8 cases voisines)", kind=IllegalActionError)
        out.append(name)
    return out


def attaquer(ctx: Ctx[Rules], actor: str, spec: ActionSpec, params: Mapping[str, Any]
             ) -> None:
    """An attack (standard action), with its declared reactions."""
    f = ctx.fighter(actor)
    rules = ctx.rules
    portee = checks.choice("portee", params.get("portee", "corps_a_corps"), ATTACK_RANGES,
                           "D20-OPP-2")
    targets = _attack_targets(ctx, f, portee, params)
    bonus = check_bonus(params.get("bonus", f.combatant.stat("attaque", 0)), "CORE-ERR")
    weapon = check_weapon(params.get("arme", rules.default_weapon), f.name)
    opp_case, label = ATTACK_RANGES[portee]
    trigger = Trigger("attaque", f.name, opportunity=opp_case, targets=tuple(targets),
                      text=attack_trigger_text(f.name))
    reactions = parse_reactions(ctx, trigger, params.get("reactions", ()))
    # announced apart only when a reaction comes before the blow
    announce = any(r.type.before for r in reactions)
    cost, cost_rules, info = _spend(ctx, f, spec, attack_detail(label, targets),
                                    announce=announce)
    cancelled = ""
    done: set[int] = set()
    for i, r in enumerate(reactions):
        if not r.type.before:
            continue
        done.add(i)
        out = _react(ctx, r, trigger)
        if out.stopped or not f.standing:
            cancelled = reaction_cause(r.type.label, r.by)
        elif not any(ctx.fighter(t).standing for t in targets):
            cancelled = f"{reaction_cause(r.type.label, r.by)} (plus aucune cible)"
        if cancelled:
            break
    if cancelled:
        rule = "D20-OPP-1" if cancelled.startswith("attaque") else "D20-IMM-2"
        ctx.emit(
            "action_annulee",
            cancelled_attack_sentence(f.name, cancelled, rules.cancelled_action_spent),
            actor=f.name, rules=(rule,),
            data={"cancelled": True, "spent": rules.cancelled_action_spent},
        )
        _refund(ctx, f, SIMPLE)
        # the reactions it would have triggered come after the cancellation, their cause
        for i, r in enumerate(reactions):
            if r.type.before and i not in done:
                emit_moot(ctx, r, f"{trigger.text} vient d’être annulée")
    else:
        for i, t in enumerate(targets):
            if ctx.fighter(t).standing:
                first = i == 0 and not announce
                _strike(ctx, f.name, t, bonus, weapon, attack_label(label),
                        cost_rules if first else (), cost if first else "",
                        info if first else None)
    for r in reactions:
        if not r.type.before:
            _react(ctx, r, trigger)


def deplacement(ctx: Ctx[Rules], actor: str, spec: ActionSpec, params: Mapping[str, Any]
                ) -> None:
    """A move (move action) along ``chemin``, with its declared reactions."""
    f = ctx.fighter(actor)
    squares = grid.check_path(ctx, f, params["chemin"])
    trigger = Trigger("deplacement", f.name, squares=squares,
                      text=move_trigger_text(f.name))
    reactions = parse_reactions(ctx, trigger, params.get("reactions", ()))
    announce = any(r.type.before for r in reactions)
    cost, cost_rules, info = _spend(ctx, f, spec, path_text(squares), announce=announce)
    done: set[int] = set()
    stop_at: int | None = None
    cause = ""
    for i, r in enumerate(reactions):
        if r.type.id == "interruption":
            done.add(i)
            out = _react(ctx, r, trigger)
            if out.stopped or not f.standing:
                stop_at, cause = 0, reaction_cause(r.type.label, r.by)
                break
    if stop_at is None:
        for step in range(1, len(squares)):
            for i, r in enumerate(reactions):
                if r.type.id == "attaque_opportunite" and r.step == step - 1:
                    done.add(i)
                    out = _react(ctx, r, trigger)
                    if out.stopped or not f.standing:
                        stop_at, cause = step - 1, reaction_cause(r.type.label, r.by)
                        break
            if stop_at is not None:
                break
            f.flags["pos"] = list(squares[step])
    for i, r in enumerate(reactions):
        if r.type.before and i not in done:
            emit_moot(ctx, r, cancelled_text(trigger.text))
    if stop_at is None:
        ctx.emit(
            "deplacement", move_sentence(f.name, squares, announce, cost),
            actor=f.name, rules=("D20-ACT-1",) if announce else cost_rules,
            data={"from": list(squares[0]), "to": list(squares[-1]),
                  "path": [list(s) for s in squares], "cancelled": False,
                  **({} if announce else info)},
        )
    else:
        rule = "D20-OPP-1" if cause.startswith("attaque") else "D20-IMM-2"
        where = squares[stop_at]
        ctx.emit(
            "action_annulee",
            cancelled_move_sentence(f.name, cause, not f.standing, where,
                                    ctx.rules.cancelled_action_spent),
            actor=f.name, rules=(rule,),
            data={"from": list(squares[0]), "to": list(where),
                  "path": [list(s) for s in squares[: stop_at + 1]], "cancelled": True,
                  "spent": ctx.rules.cancelled_action_spent},
        )
        _refund(ctx, f, MOVE)
    for r in reactions:
        if not r.type.before:
            _react(ctx, r, trigger)


def action_du_tour(ctx: Ctx[Rules], actor: str, spec: ActionSpec, params: Mapping[str, Any]
                   ) -> None:
    """A described action of the turn (dégainer, ouvrir une porte, simple …): its slot."""
    _spend(ctx, ctx.fighter(actor), spec, _description(params))


def action_libre(ctx: Ctx[Rules], actor: str, spec: ActionSpec, params: Mapping[str, Any]
                 ) -> None:
    """A free action (D20-ACT-1), on one's turn or another's."""
    detail = _description(params)
    when = "" if ctx.state.current == actor else " pendant le tour d’un autre combattant"
    ctx.emit(
        "action",
        f"{actor} déclare {quote(spec.label)} (action libre{when})"
        + (f" : {detail}" if detail else "") + ".",
        actor=actor, rules=("D20-ACT-1",),
        data={"action": spec.id, "category": FREE, "slot": None},
    )


def point_action(ctx: Ctx[Rules], actor: str, spec: ActionSpec, params: Mapping[str, Any]
                 ) -> None:
    """D20-ACT-3: one more standard slot this turn."""
    f = ctx.fighter(actor)
    left = int(f.flags.get("pa", 0)) - 1
    b = budget(f)
    b["points"] = int(b["points"]) + 1
    f.flags["pa"] = left
    ctx.emit(
        "point_action", point_sentence(actor, left),
        actor=actor, rules=("D20-ACT-3",),
        data={"left": left, "spent_this_turn": b["points"]},
    )


def action_immediate(ctx: Ctx[Rules], actor: str, spec: ActionSpec,
                     params: Mapping[str, Any]) -> None:
    """A standalone immediate action, against a trigger the engine does not model
    (D20-IMM-1: never during one's own turn, once per round)."""
    trig = checks.text("declencheur", params["declencheur"], "D20-IMM-1").strip()
    item: dict[str, Any] = {"par": actor, "type": spec.id}
    for key in ("effet", "cible", "bonus", "arme", "nom"):
        if key in params:
            item[key] = params[key]
    item.setdefault("effet", "attaque" if "cible" in params else "autre")
    trigger = Trigger("libre", str(ctx.state.current), text=trig)
    _react(ctx, parse_reaction(ctx, trigger, item, set()), trigger)


def placer(ctx: Ctx[Rules], actor: str, spec: ActionSpec, params: Mapping[str, Any]) -> None:
    """The GM places a fighter on a free square."""
    f = ctx.fighter(actor)
    sq = grid.check_square(params["case"], "case", "D20-OPP-2", actor)
    other = grid.occupant(ctx, sq, actor)
    if other is not None:
        raise invalid("case", list(sq), "D20-OPP-2", f"déjà occupée par {quote(other.name)}",
                      kind=IllegalActionError)
    f.flags["pos"] = list(sq)
    ctx.emit("placement", f"Le MJ place {actor} en {square_text(sq)}.", actor=actor,
             rules=("D20-OPP-2",), data={"positions": {actor: list(sq)}})


def _never(ctx: Ctx[Rules], actor: str, spec: ActionSpec, params: Mapping[str, Any]
           ) -> None:
    """Phases and opportunity attacks are refused by :func:`check_legal` first."""
    raise invalid("action", spec.id, spec.rules[0], "ce n’est pas une action à jouer seule",
                  kind=IllegalActionError, display=spec.label)


#: one resolver per action, by :attr:`ActionSpec.resolver_key`
RESOLVERS: Mapping[str, Resolver[Rules]] = MappingProxyType({
    "attaquer": attaquer,
    "deplacement": deplacement,
    "action_du_tour": action_du_tour,
    "action_libre": action_libre,
    "point_action": point_action,
    "action_immediate": action_immediate,
    "attaque_opportunite": _never,
    "phase": _never,
    "placer": placer,
})
