"""The actions of the Rulebook system: the catalogue (one
:class:`~escarmouche.systems.base.ActionSpec` each, documented, RB-ACT-1/2, RB-MOVE-1,
RB-END-2/3), what each one uses of the activation, why one is forbidden now
(:func:`refusal`, used by ``RulebookSystem.check_legal``) and one resolver per action.

Resolvers check their parameters with the shared validators (:mod:`escarmouche.checks`:
a bad value raises :class:`~escarmouche.errors.ParameterError`), refuse what the rules
forbid now with :class:`~escarmouche.errors.IllegalActionError`, draw their dice through
``ctx.rng`` (recorded in the log) and call the pure functions of the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from escarmouche import checks, dice
from escarmouche.errors import IllegalActionError, invalid, self_attack
from escarmouche.model import Json
from escarmouche.state import Ctx, FighterState
from escarmouche.systems.base import ActionSpec, Resolver
from escarmouche.systems.rulebook.narration import (
    damage_sentence,
    dice_shown,
    eclat_spent_sentence,
    equipment_sentence,
    free_action_sentence,
    move_sentence,
    offensive_head,
    posture_sentence,
    speed_inflicted_sentence,
)
from escarmouche.systems.rulebook.rules import (
    COST_LABELS,
    ECLAT,
    SPEED_EFFECTS,
    TRACKS,
    Rules,
    track_after_damage,
)
from escarmouche.systems.rulebook.speed import speed_effect
from escarmouche.text import fmt

__all__ = [
    "ACTIONS",
    "COSTS",
    "FLAG_ACTION",
    "FLAG_MOVE",
    "FLAG_POSTURE",
    "FLAG_POSTURE_USED",
    "OUT_OF_TURN",
    "REFUSAL_RULES",
    "RESOLVERS",
    "refusal",
    "refusal_code",
    "refusal_reason",
]

#: the fighter flags of an activation (RB-ACT-1, RB-MOVE-1)
FLAG_ACTION = "action_utilisee"
FLAG_POSTURE_USED = "posture_changee"
FLAG_MOVE = "deplacement_disponible"
FLAG_POSTURE = "posture"

_OFFENSIVE_PARAMS = ("cible", "piste", "degats", "des", "vitesse", "duree",
                     "avec_deplacement", "nom")
_OFFENSIVE_DOC = (
    " Paramètres : cible ; degats (le montant du MJ) ou des (une expression de dés lancée "
    "maintenant) ; piste « PV » (par défaut) ou « Esprit » (RB-END-2) ; vitesse (un effet "
    "de vitesse infligé à la cible) et duree (en tours globaux, 1 par défaut), à partir "
    "du prochain tour global (RB-SPEED-1) ; avec_deplacement (utilise aussi le "
    "déplacement, RB-ACT-2) ; nom.")

#: what each action uses of the activation: ``"action"`` (one per activation),
#: ``"deplacement"`` (one per global turn, RB-MOVE-1), ``"posture"`` (one per
#: activation) or ``"libre"``
COSTS: dict[str, str] = {
    "attaquer": "action",
    "sort": "action",
    "capacite": "action",
    "equipement": "action",
    "deplacement": "deplacement",
    "posture": "posture",
    "action_libre": "libre",
    "depenser_eclat": "libre",
}

#: the actions a fighter may take out of its own activation (RB-MOVE-1, RB-END-3)
OUT_OF_TURN: frozenset[str] = frozenset({"deplacement", "depenser_eclat"})


def _spec(id: str, label: str, rules: tuple[str, ...], params: tuple[str, ...],
          required: tuple[str, ...], doc: str) -> ActionSpec:
    return ActionSpec(id, label, cost=COST_LABELS[COSTS[id]], rules=rules, params=params,
                      required=required, doc=doc)


#: the action catalogue (a designer can read and extend the data)
ACTIONS: dict[str, ActionSpec] = {
    "attaquer": _spec(
        "attaquer", "Attaquer (PV ou Esprit)", ("RB-ACT-1", "RB-END-2"), _OFFENSIVE_PARAMS,
        ("cible",), "L’action : attaque une cible, sur ses PV ou son Esprit (RB-ACT-1, "
        "RB-END-2)." + _OFFENSIVE_DOC),
    "sort": _spec(
        "sort", "Lancer un sort", ("RB-ACT-2",), _OFFENSIVE_PARAMS, (),
        "L’action : lance un sort, avec ou sans cible ni dégâts (RB-ACT-2)."
        + _OFFENSIVE_DOC),
    "capacite": _spec(
        "capacite", "Utiliser une capacité non passive", ("RB-ACT-2",), _OFFENSIVE_PARAMS,
        (), "L’action : utilise une capacité non passive, avec ou sans cible ni dégâts "
        "(RB-ACT-2)." + _OFFENSIVE_DOC),
    "equipement": _spec(
        "equipement", "Prendre ou changer un équipement du sac", ("RB-ACT-2",), ("objet",),
        (), "L’action : prend ou change un équipement du sac (objet) (RB-ACT-2)."),
    "deplacement": _spec(
        "deplacement", "Se déplacer", ("RB-ACT-1", "RB-MOVE-1"), ("description",), (),
        "Le déplacement : un par tour global, régénéré à son début, utilisable hors de "
        "son activation tant qu’il n’est pas dépensé (RB-MOVE-1)."),
    "posture": _spec(
        "posture", "Changer de posture", ("RB-ACT-1",), ("posture",), ("posture",),
        "Change de posture (posture), une fois par activation (RB-ACT-1)."),
    "action_libre": _spec(
        "action_libre", "Action courte avec un objet en main", ("RB-ACT-1",),
        ("description",), (),
        "Une action courte avec un objet en main, en plus de l’action, pendant sa propre "
        "activation (RB-ACT-1)."),
    "depenser_eclat": _spec(
        "depenser_eclat", "Dépenser de l’éclat", ("RB-END-3",), ("montant",), (),
        "Dépense de l’éclat (montant, 1 par défaut), même hors de son activation ; il ne se "
        "régénère qu’à la fin du combat (RB-END-3)."),
}


def _used(f: FighterState, key: str, default: bool) -> bool:
    return bool(f.flags.get(key, default))


#: the refusal codes of :func:`refusal_code` (0: allowed), each with the rule it cites
(OUT, LATE, NOT_IN_TURN, NOT_IN_SURPRISE_TURN, NOT_ACTING, ACTION_USED, POSTURE_USED,
 MOVE_SPENT, NO_ECLAT) = range(1, 10)
REFUSAL_RULES: Mapping[int, str] = {
    OUT: "RB-END-2",  # out of the fight: nothing more
    LATE: "RB-INIT-4",  # a critical failure at the initiative: nothing before turn 2
    NOT_IN_TURN: "RB-INIT-3",  # no slot in this global turn (turn 0)
    NOT_IN_SURPRISE_TURN: "RB-SURPRISE-3",  # no slot in the surprise's turn 0
    NOT_ACTING: "RB-MOVE-1",  # out of its activation, only a movement (or éclat)
    ACTION_USED: "RB-ACT-1",  # one action per activation
    POSTURE_USED: "RB-ACT-1",  # one change of posture per activation
    MOVE_SPENT: "RB-MOVE-1",  # one movement per global turn
    NO_ECLAT: "RB-END-3",  # no éclat left to spend
}


def refusal_code(action: str, *, standing: bool, acting: bool, before_turn_2: bool,
                 late: bool, in_turn: bool, surprise: bool, action_used: bool,
                 posture_used: bool, move_left: bool, eclat: int) -> int:
    """Why a fighter may not take ``action`` now, as a code of :data:`REFUSAL_RULES`, or
    0 (the one test of :func:`refusal` and of the rules kernel): standing (RB-END-2); out
    of its activation (``acting`` false), not before turn 2 after a critical failure
    (``late``, RB-INIT-4), only with a slot in this global turn (RB-INIT-3,
    RB-SURPRISE-3) and only a movement or éclat (RB-MOVE-1); one action and one change
    of posture per activation (RB-ACT-1); one movement per global turn (RB-MOVE-1);
    éclat to spend (RB-END-3).

    >>> refusal_code("attaquer", standing=True, acting=True, before_turn_2=False,
    ...              late=False, in_turn=True, surprise=False, action_used=True,
    ...              posture_used=False, move_left=True, eclat=0) == ACTION_USED
    True
    """
    if not standing:
        return OUT
    if not acting:
        if before_turn_2 and late:
            return LATE
        if not in_turn:
            return NOT_IN_SURPRISE_TURN if surprise else NOT_IN_TURN
        if action not in OUT_OF_TURN:
            return NOT_ACTING
    cost = COSTS[action]
    if cost == "action" and action_used:
        return ACTION_USED
    if cost == "posture" and posture_used:
        return POSTURE_USED
    if cost == "deplacement" and not move_left:
        return MOVE_SPENT
    if action == "depenser_eclat" and eclat <= 0:
        return NO_ECLAT
    return 0


def refusal(ctx: Ctx[Rules], actor: str, spec: ActionSpec, *, late: tuple[str, ...],
            in_turn: bool, surprise: bool) -> tuple[str, str] | None:
    """Why ``actor`` may not take ``spec`` now, as ``(French reason, rule ID)``, or
    ``None`` (:func:`refusal_code`, worded). ``late``: the critical failures of the
    initiative (RB-INIT-4); ``in_turn``: the actor has a slot in the current global turn;
    ``surprise``: turn 0 comes from a surprise attack (RB-SURPRISE-3)."""
    st = ctx.state
    f = ctx.fighter(actor)
    code = refusal_code(
        spec.id, standing=f.standing, acting=st.current == actor,
        before_turn_2=st.turn < 2, late=actor in late, in_turn=in_turn, surprise=surprise,
        action_used=_used(f, FLAG_ACTION, False),
        posture_used=_used(f, FLAG_POSTURE_USED, False),
        move_left=_used(f, FLAG_MOVE, False), eclat=f.tracks.get(ECLAT, 0))
    if code == 0:
        return None
    return refusal_reason(code, actor, st.turn), REFUSAL_RULES[code]


def refusal_reason(code: int, actor: str, turn: int) -> str:
    """The French reason of a refusal code of :func:`refusal_code` (nonzero)."""
    if code == OUT:
        return f"{actor} est hors de combat"
    if code == LATE:
        return (f"{actor} a fait un échec critique à l’initiative et ne peut rien faire "
                "avant le tour 2")
    if code in (NOT_IN_TURN, NOT_IN_SURPRISE_TURN):
        return f"{actor} ne participe pas au tour {turn}"
    if code == NOT_ACTING:
        return (f"{actor} n’est pas en train d’agir ; hors de son activation, seul un "
                "déplacement non dépensé est possible")
    if code == ACTION_USED:
        return f"{actor} a déjà utilisé son action de cette activation"
    if code == POSTURE_USED:
        return f"{actor} a déjà changé de posture pendant cette activation"
    if code == MOVE_SPENT:
        return (f"{actor} a déjà dépensé son déplacement de ce tour ; il se régénère au "
                "début du prochain tour global")
    return f"{actor} n’a pas d’éclat à dépenser"


def _text(params: Mapping[str, Any], key: str, rule: str) -> str:
    """An optional short text parameter (« » when absent or empty)."""
    value = params.get(key)
    if value is None or value == "":
        return ""
    return checks.text(key, value, rule).strip()


def _target(ctx: Ctx[Rules], params: Mapping[str, Any], rule: str) -> FighterState | None:
    if params.get("cible") is None:
        return None
    name = checks.name_in("cible", params["cible"], ctx.state.fighters, rule)
    target = ctx.fighter(name)
    if not target.standing:
        raise invalid("cible", name, "RB-END-2", "déjà hors de combat",
                      kind=IllegalActionError)
    return target


def _damage(ctx: Ctx[Rules], spec: ActionSpec, params: Mapping[str, Any],
            target: FighterState | None) -> tuple[int, str, str] | None:
    """The damage of an action (RB-END-2): ``degats`` (given by the GM) or ``des`` (a
    dice expression rolled now); on ``piste`` « PV » (default) or « Esprit ». Returns
    (amount, track, the roll shown: « 1d6 → 4 », or « » for a given amount)."""
    has_amount = "degats" in params
    has_dice = "des" in params
    track = checks.choice("piste", params.get("piste", "PV"), TRACKS, "RB-END-2")
    if has_amount and has_dice:
        raise invalid("degats", params["degats"], "RB-END-2",
                      "donnez soit le montant (degats), soit les dés (des), pas les deux")
    if not has_amount and not has_dice:
        if spec.id == "attaquer":
            raise invalid("degats", None, "RB-END-2",
                          "donnez les dégâts de l’attaque, que le texte laisse au MJ, en "
                          "montant (« degats=4 ») ou en dés (« des=1d6 »)")
        if "piste" in params:
            raise invalid("piste", track, "RB-END-2",
                          "une piste ne sert qu’avec des dégâts, donnez aussi « degats=… » "
                          "ou « des=… »")
        return None
    if target is None:
        raise invalid("cible", None, "RB-END-2",
                      "des dégâts s’appliquent à une cible, donnez « cible=… »")
    if has_amount:
        amount = checks.integer("degats", params["degats"], lo=0, hi=10_000, rule="RB-END-2")
        return amount, track, ""
    expr = checks.text("des", params["des"], "RB-END-2")
    total = dice.roll(expr, ctx.rng).total
    return max(total, 0), track, dice_shown(expr, total)


def _speed(params: Mapping[str, Any], target: FighterState | None) -> tuple[str, int] | None:
    """The speed effect an action inflicts (RB-SPEED-1): ``vitesse`` and ``duree``."""
    speed = params.get("vitesse")
    if speed is None:
        if "duree" in params:
            raise invalid("duree", params["duree"], "RB-SPEED-1",
                          "une durée ne sert qu’à un effet de vitesse, donnez aussi "
                          "« vitesse=… »")
        return None
    if target is None:
        raise invalid("cible", None, "RB-SPEED-1",
                      "un effet de vitesse s’applique à une cible, donnez « cible=… »")
    effect = checks.choice("vitesse", speed, SPEED_EFFECTS, "RB-SPEED-1",
                           labels={k: v.label for k, v in SPEED_EFFECTS.items()})
    duration = checks.integer("duree", params.get("duree", 1), lo=1, hi=1000,
                              rule="RB-SPEED-1")
    return effect, duration


def _use_action(ctx: Ctx[Rules], actor: str, params: Mapping[str, Any],
                rules: list[str]) -> None:
    """Mark the action of the activation used; with ``avec_deplacement``, the movement
    too (RB-ACT-2)."""
    f = ctx.fighter(actor)
    with_move = checks.flag("avec_deplacement", params.get("avec_deplacement", False),
                            "RB-ACT-2")
    if with_move:
        if not _used(f, FLAG_MOVE, False):
            raise invalid("avec_deplacement", True, "RB-MOVE-1",
                          f"{actor} a déjà dépensé son déplacement de ce tour (RB-ACT-2)",
                          kind=IllegalActionError)
        f.flags[FLAG_MOVE] = False
        rules.append("RB-ACT-2")
    f.flags[FLAG_ACTION] = True


def _offensive(ctx: Ctx[Rules], actor: str, spec: ActionSpec,
               params: Mapping[str, Any]) -> None:
    """« attaquer », « sort », « capacite »: the action of the activation (RB-ACT-1/2),
    with damage (RB-END-2) and a speed effect (RB-SPEED-1) when asked."""
    rules = list(spec.rules)
    label = _text(params, "nom", spec.rules[0])
    target = _target(ctx, params, spec.rules[-1])
    if spec.id == "attaquer" and target is not None and target.name == actor:
        # the text attacks « un ennemi » (seed 000); a spell or an ability may still
        # aim at its user (RB-ACT-2)
        raise self_attack(actor, "RB-ACT-1")
    speed = _speed(params, target)
    _use_action(ctx, actor, params, rules)
    damage = _damage(ctx, spec, params, target)
    target_name = target.name if target else None
    shown = damage[2] if damage else ""

    def head() -> str:
        return offensive_head(spec.id, actor, target_name, label, shown)

    if damage is None:
        ctx.emit(spec.id, lambda: head() + ".", actor=actor,
                 rules=tuple(dict.fromkeys(rules)),
                 data={"cible": target_name, "nom": label})
    else:
        assert target is not None
        amount, track, _ = damage
        before = target.tracks[track]
        after = track_after_damage(before, amount)
        ctx.emit(spec.id, lambda: damage_sentence(head(), amount, track, before, after),
                 actor=actor, rules=tuple(dict.fromkeys([*rules, "RB-END-2"])),
                 data={"cible": target.name, "piste": track, "degats": amount,
                       "avant": before, "apres": after, "nom": label})
        ctx.change_track(target.name, track, -amount, rules=("RB-END-2",))
    if speed is not None and target is not None and target.standing:
        effect, duration = speed
        first = ctx.state.turn + 1
        last = first + duration - 1
        ctx.add_effect(speed_effect(target.name, effect, first_turn=first, last_turn=last,
                                    source=actor))
        bearer = target.name
        ctx.emit("vitesse", lambda: speed_inflicted_sentence(bearer, effect, first, last),
                 actor=target.name, rules=("RB-SPEED-1", "RB-SPEED-3"),
                 data={"vitesse": effect, "debut": first, "fin": last, "source": actor})


def attaquer(ctx: Ctx[Rules], actor: str, spec: ActionSpec, params: Mapping[str, Any]
             ) -> None:
    """RB-ACT-1, RB-END-2: attack a target, on its PV or its Esprit."""
    _offensive(ctx, actor, spec, params)


def sort(ctx: Ctx[Rules], actor: str, spec: ActionSpec, params: Mapping[str, Any]) -> None:
    """RB-ACT-2: cast a spell (the action)."""
    _offensive(ctx, actor, spec, params)


def capacite(ctx: Ctx[Rules], actor: str, spec: ActionSpec, params: Mapping[str, Any]
             ) -> None:
    """RB-ACT-2: use an ability that is not passive (the action)."""
    _offensive(ctx, actor, spec, params)


def equipement(ctx: Ctx[Rules], actor: str, spec: ActionSpec, params: Mapping[str, Any]
               ) -> None:
    """RB-ACT-2: take or change an item from the bag (the action)."""
    rules = list(spec.rules)
    item = _text(params, "objet", "RB-ACT-2")
    _use_action(ctx, actor, params, rules)
    ctx.emit("equipement", equipment_sentence(actor, item), actor=actor, rules=rules,
             data={"objet": item})


def deplacement(ctx: Ctx[Rules], actor: str, spec: ActionSpec, params: Mapping[str, Any]
                ) -> None:
    """RB-MOVE-1: the movement of the global turn, also out of turn while unspent."""
    desc = _text(params, "description", "RB-MOVE-1")
    out_of_turn = ctx.state.current != actor
    ctx.fighter(actor).flags[FLAG_MOVE] = False
    ctx.emit("deplacement", move_sentence(actor, out_of_turn, desc), actor=actor,
             rules=spec.rules, data={"out_of_turn": out_of_turn, "description": desc})


def posture(ctx: Ctx[Rules], actor: str, spec: ActionSpec, params: Mapping[str, Any]
            ) -> None:
    """RB-ACT-1: one change of posture per activation."""
    chosen = checks.text("posture", params["posture"], "RB-ACT-1").strip()
    f = ctx.fighter(actor)
    f.flags[FLAG_POSTURE_USED] = True
    f.flags[FLAG_POSTURE] = chosen
    ctx.emit("posture", posture_sentence(actor, chosen), actor=actor, rules=spec.rules,
             data={"posture": chosen})


def action_libre(ctx: Ctx[Rules], actor: str, spec: ActionSpec, params: Mapping[str, Any]
                 ) -> None:
    """RB-ACT-1: a short action with an item in hand, besides the action."""
    desc = _text(params, "description", "RB-ACT-1")
    ctx.emit("action_libre", free_action_sentence(actor, desc), actor=actor,
             rules=spec.rules, data={"description": desc})


def depenser_eclat(ctx: Ctx[Rules], actor: str, spec: ActionSpec,
                   params: Mapping[str, Any]) -> None:
    """RB-END-3: spend éclat (also out of turn); it regenerates only at the end."""
    amount = checks.integer("montant", params.get("montant", 1), lo=1, hi=10_000,
                            rule="RB-END-3")
    f = ctx.fighter(actor)
    left = f.tracks[ECLAT]
    if amount > left:
        raise invalid("montant", amount, "RB-END-3",
                      f"{actor} n’a que {fmt.number(left)} éclat", kind=IllegalActionError)
    f.tracks[ECLAT] = left - amount
    data: dict[str, Json] = {"amount": amount, "left": left - amount}
    ctx.emit("eclat_depense", eclat_spent_sentence(actor, amount, left - amount),
             actor=actor, rules=spec.rules, data=data)


#: one resolver per action, by id
RESOLVERS: Mapping[str, Resolver[Rules]] = {
    "attaquer": attaquer,
    "sort": sort,
    "capacite": capacite,
    "equipement": equipement,
    "deplacement": deplacement,
    "posture": posture,
    "action_libre": action_libre,
    "depenser_eclat": depenser_eclat,
}
