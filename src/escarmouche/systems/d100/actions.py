"""The actions of the d100 system: turn plans (one full action or two half actions, free
actions, at most one attack and one casting action, extended actions without
interruption, D100-ACT-1..4), the catalogue (one :class:`ActionSpec` per action, each
documented, with French parameter names) and one resolver per kind of action.

Resolvers check their parameters with the shared validators, draw their dice through
``ctx.rng`` (recorded in the log) and call the pure functions of the rules. Per-fight
data lives in ``ctx.state.system_state`` (initiative, surprised side, mounts, extra
weapons) and in each ``FighterState.flags``:

``hands``
    ``{"directrice": id | None, "non_directrice": id | None}``: the weapons in hand.
``loaded``
    ``{"directrice": bool, "non_directrice": bool}``: whether a ranged weapon is loaded.
``parry_prepared``, ``parries``, ``dodges``
    a prepared parry (until used or the start of the fighter's next turn), parries and
    dodges this round (reset at the start of each round) (D100-PARRY-3, D100-DODGE-2).
``plan``, ``extended``, ``extended_at_start``, ``extended_hand``
    this turn's actions as ``[id, n]`` steps, the extended action under way now and at the
    start of the turn, the hand being reloaded (D100-ACT-1..4).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from escarmouche import checks
from escarmouche.errors import EscarmoucheError, IllegalActionError, invalid
from escarmouche.memo import Memo
from escarmouche.model import Combatant, Json
from escarmouche.render.table import Table, Text
from escarmouche.state import Ctx, FighterState, parsed
from escarmouche.systems.base import ActionSpec, Resolver
from escarmouche.systems.d100 import core, terrain
from escarmouche.systems.d100.attack import (
    Guard,
    attack_setup,
    check_defence,
    check_two_weapons,
    narrated,
    roll_attack,
)
from escarmouche.systems.d100.jumps import roll_drop_jump, roll_long_jump
from escarmouche.systems.d100.narration import (
    abandon_sentence,
    hand_sentence,
    logged_attack_sentence,
    prepared_parry_sentence,
    reload_sentence,
    steps_sentence,
)
from escarmouche.systems.d100.rules import (
    ACTION_DEFS,
    COMBATANT_ANSWERS,
    COST_LABELS,
    DEFAULT_RULES,
    HAND_LABELS,
    HANDS,
    TRACK,
    WEAPONS,
    ActionDef,
    Rules,
    Weapon,
    get_weapon,
)
from escarmouche.text.fmt import join, plural, quote

__all__ = [
    "ACTIONS",
    "ACTION_PARAMS",
    "MAX_EXTENDED_STEPS",
    "RESOLVERS",
    "Extended",
    "PlanStep",
    "TurnPlan",
    "allowed_defences",
    "best_defence",
    "catalogue_table",
    "check_turn",
    "extended_of",
    "fight_weapons",
    "guard",
    "held",
    "plan_with",
]

#: one step of a plan: an action id, or ``(id, n)`` when that action starts an extended
#: action needing ``n`` half actions in all (« recharger » a pistol: ``("recharger", 4)``)
PlanStep = str | tuple[str, int]

#: bound on the half actions of one extended action
MAX_EXTENDED_STEPS = 100


# -- turn plans (D100-ACT-1..4) ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Extended:
    """An extended action under way (D100-ACT-4): ``remaining`` of ``total`` half actions."""

    action: str
    remaining: int
    total: int

    def to_json(self) -> dict[str, Json]:
        return {"action": self.action, "remaining": self.remaining, "total": self.total}

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> Extended:
        return cls(str(data["action"]), int(data["remaining"]), int(data["total"]))


@dataclass(frozen=True, slots=True)
class TurnPlan:
    """A legal turn (D100-ACT-1..4): the actions, the half actions used (a full action
    uses both), the attack and casting actions counted, and the extended action still
    under way at the end of the turn (``extended``), if any. In a notebook it shows as a
    French sentence (:meth:`describe`)."""

    actions: tuple[str, ...]
    halves: int
    full: bool
    attacks: int
    castings: int
    extended: Extended | None
    completed: tuple[str, ...]
    abandoned: tuple[str, ...]
    rules: tuple[str, ...]
    labels: tuple[str, ...] = ()

    def describe(self) -> str:
        """« viser, attaque standard : permis (2 demi-actions, 1 action d’attaque). »"""
        names = join(self.labels or self.actions, empty="aucune action")
        uses = "une action complète" if self.full else (
            plural(self.halves, "demi-action") if self.halves else "aucune demi-action")
        parts = [uses, plural(self.attacks, "action d’attaque", "actions d’attaque")
                 if self.attacks else "aucune action d’attaque"]
        if self.castings:
            parts.append(plural(self.castings, "incantation"))
        text = f"{names} : permis ({', '.join(parts)})"
        if self.extended is not None:
            label = ACTION_DEFS[self.extended.action].label \
                if self.extended.action in ACTION_DEFS else self.extended.action
            done = self.extended.total - self.extended.remaining
            text += f" ; {quote(label)} continue, {steps_sentence(done, self.extended.total)}"
        for action in self.completed:
            text += f" ; {quote(ACTION_DEFS[action].label)} achevée"
        for action in self.abandoned:
            text += f" ; {quote(ACTION_DEFS[action].label)} abandonnée, le temps passé est perdu"
        return text + "."

    def _repr_html_(self) -> str:
        return Text(self.describe())._repr_html_()


def _step(step: object, catalogue: Mapping[str, ActionDef]) -> tuple[ActionDef, int]:
    if isinstance(step, tuple) and len(step) == 2:
        name, n = step
    else:
        name, n = step, 1
    if not isinstance(name, str) or name not in catalogue:
        raise invalid("action", name, "D100-ACT-3",
                      f"action inconnue, à choisir parmi {join(catalogue)}")
    checks.integer("demi-actions", n, lo=1, hi=MAX_EXTENDED_STEPS, rule="D100-ACT-4")
    if n > 1 and not catalogue[name].extended:
        raise invalid("demi-actions", n, "D100-ACT-4",
                      f"{quote(catalogue[name].label)} n’est pas une action étendue",
                      kind=IllegalActionError)
    return catalogue[name], n


def check_turn(
    actions: Sequence[PlanStep],
    *,
    in_progress: Extended | None = None,
    catalogue: Mapping[str, ActionDef] = ACTION_DEFS,
) -> TurnPlan:
    """Check one character's turn plan; raise :class:`IllegalActionError` naming the rule.

    D100-ACT-1: one full action or two half actions (a full action excludes any half
    action), free actions in any number. D100-ACT-2: at most one attack action (name
    containing « attaque », or Charge) and one casting action. D100-ACT-3: the costs come
    from ``catalogue``. D100-ACT-4: an extended action (a step ``(id, n)`` with ``n > 1``,
    or ``in_progress`` from earlier turns) takes one half action per step and must be
    carried on without any other non-free action in between; the free action
    « abandonner » drops it (the time spent is lost).
    """
    if isinstance(actions, str):
        actions = [actions]
    checks.sequence("actions", actions, "D100-ACT-1")
    ext = in_progress
    halves = attacks = castings = 0
    full = False
    ext_cast_counted = False
    names: list[str] = []
    completed: list[str] = []
    abandoned: list[str] = []
    rule_ids = ["D100-ACT-1", "D100-ACT-2", "D100-ACT-3"]
    if ext is not None:
        rule_ids.append("D100-ACT-4")
    for raw in actions:
        d, n = _step(raw, catalogue)
        names.append(d.id)
        if ext is not None and d.id == ext.action:
            halves += 1
            if d.casting and not ext_cast_counted:
                castings += 1
                ext_cast_counted = True
            ext = Extended(ext.action, ext.remaining - 1, ext.total)
            if ext.remaining == 0:
                completed.append(ext.action)
                ext = None
        elif ext is not None and d.kind == "abandonner":
            abandoned.append(ext.action)
            ext = None
        elif ext is not None and d.halves > 0:
            raise invalid("action", d.id, "D100-ACT-4",
                          f"l’action étendue {quote(catalogue[ext.action].label)} est en "
                          f"cours (il en reste {plural(ext.remaining, 'demi-action')} sur "
                          f"{ext.total}) et ne peut pas être interrompue ; abandonnez-la "
                          "d’abord, le temps passé est perdu",
                          kind=IllegalActionError, display=d.label)
        elif d.kind == "abandonner" and ext is None:
            raise invalid("action", d.id, "D100-ACT-4", "aucune action étendue n’est en cours",
                          kind=IllegalActionError, display=d.label)
        else:
            if n > 1:
                ext = Extended(d.id, n - 1, n)
                if "D100-ACT-4" not in rule_ids:
                    rule_ids.append("D100-ACT-4")
                halves += 1
                ext_cast_counted = d.casting
            else:
                halves += d.halves
            full = full or d.cost == "complete"
            attacks += d.is_attack
            castings += d.casting
        if halves > 2:
            why = ("une action complète exclut toute autre action non gratuite" if full
                   else "deux demi-actions au plus par tour")
            raise invalid("action", d.id, "D100-ACT-1", why, kind=IllegalActionError,
                          display=d.label)
        if attacks > 1:
            raise invalid("action", d.id, "D100-ACT-2", "une seule action d’attaque par tour",
                          kind=IllegalActionError, display=d.label)
        if castings > 1:
            raise invalid("action", d.id, "D100-ACT-2",
                          "une seule action d’incantation par tour",
                          kind=IllegalActionError, display=d.label)
    return TurnPlan(
        actions=tuple(names), halves=halves, full=full, attacks=attacks, castings=castings,
        extended=ext, completed=tuple(completed), abandoned=tuple(abandoned),
        rules=tuple(rule_ids), labels=tuple(catalogue[a].label for a in names),
    )


# -- the catalogue ---------------------------------------------------------------------------

_ATTACK_PARAMS = ("cible", "main", "defense", "distance", "cible_engagee", "tireur_engage",
                  "ligne_de_vue", "modificateur", "visee", "inaccessibles")

#: the parameters of each kind of action (French names), then the required ones
_PARAMS: Mapping[str, tuple[tuple[str, ...], tuple[str, ...]]] = MappingProxyType({
    "attaquer": (_ATTACK_PARAMS, ("cible",)),
    "degainer": (("arme", "main"), ("arme",)),
    "lacher": (("main",), ()),
    "preparer_parade": ((), ()),
    "recharger": (("main",), ()),
    "incantation": (("etapes", "sort"), ()),
    "abandonner": ((), ()),
    "saut": (("hauteur",), ("hauteur",)),
    "saut_en_longueur": (("elan",), ("elan",)),
    "generique": (("details",), ()),
    "reaction": ((), ()),
})

_ATTACK_DOC = (" sur la cible (« cible ») : 1d100 ≤ CC au corps à corps, ≤ CT pour un tir, "
               "modificateurs compris ; « defense » dit ce que tente le défenseur si elle "
               "touche (« aucune », « parade » ou « esquive »).")

#: one French sentence per action (ActionSpec.doc)
_DOCS: Mapping[str, str] = MappingProxyType({
    "attaquer": "Attaque standard (demi-action), au corps à corps ou en tir" + _ATTACK_DOC,
    "viser": "Viser (demi-action) ; le MJ en tient compte avec « modificateur » au tir.",
    "se_deplacer": "Se déplacer (demi-action).",
    "degainer": "Dégainer une arme (« arme ») dans une main (« main », directrice par "
                "défaut) ; deux mains pleines doivent former une paire permise "
                "(D100-TWO-1).",
    "preparer_parade": "Préparer une parade (demi-action) : elle vaut jusqu’à ce qu’elle "
                       "serve ou jusqu’au prochain tour du personnage (D100-PARRY-2/3).",
    "recharger": "Recharger l’arme de tir d’une main (« main ») ; plus d’une demi-action "
                 "fait une action étendue (D100-ACT-4).",
    "incantation": "Incanter un sort (« sort ») en « etapes » demi-actions ; plus d’une "
                   "fait une action étendue (D100-ACT-2/4).",
    "charge": "Charge (action complète), une action d’attaque" + _ATTACK_DOC,
    "attaque_brutale": "Attaque brutale (action complète)" + _ATTACK_DOC,
    "attaque_prudente": "Attaque prudente (action complète)" + _ATTACK_DOC,
    "attaque_rapide": "Attaque rapide (action complète)" + _ATTACK_DOC,
    "course": "Course (action complète).",
    "saut": "Descente contrôlée de « hauteur » mètres : un test d’Ag par tranche de 3 m "
            "commencée (D100-JUMP-1).",
    "saut_en_longueur": "Saut en longueur avec « elan » mètres d’élan (au moins 4) : au plus "
                        "M + BF mètres, puis un test de F (D100-JUMP-2).",
    "parler": "Parler (action gratuite), avec « details » pour ce qui est dit.",
    "crier": "Crier (action gratuite), avec « details » pour ce qui est crié.",
    "lacher": "Lâcher l’objet d’une main (« main »), action gratuite.",
    "abandonner": "Abandonner l’action étendue en cours : le temps passé est perdu "
                  "(D100-ACT-4).",
    "esquive": "Esquive : une réaction, déclarée avec l’attaque qu’elle contre (paramètre "
               "« defense » de l’attaque, D100-DODGE-1).",
    "parade_main_non_directrice": "Parade à la main non directrice : une réaction, "
                                  "déclarée avec l’attaque qu’elle contre (paramètre "
                                  "« defense » de l’attaque, D100-PARRY-2).",
})


def _spec(d: ActionDef) -> ActionSpec:
    params, required = _PARAMS[d.kind]
    return ActionSpec(d.id, d.label[:1].upper() + d.label[1:], cost=COST_LABELS[d.cost],
                      rules=d.rules, params=params, required=required, doc=_DOCS[d.id],
                      kind=d.kind)


#: the action catalogue (D100-ACT-3), by id: one documented ActionSpec per action
ACTIONS: Mapping[str, ActionSpec] = MappingProxyType(
    {d.id: _spec(d) for d in ACTION_DEFS.values()})

#: the French parameters each action accepts in ``Encounter.act``, by action id
ACTION_PARAMS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {a.id: a.params for a in ACTIONS.values()})


def catalogue_table(catalogue: Mapping[str, ActionDef] = ACTION_DEFS) -> Table:
    """The catalogue as a French table: cost, attack, casting, extended, parameters, rules
    (D100-ACT-1..4)."""
    rows = []
    for d in catalogue.values():
        params = ACTIONS[d.id].params if d.id in ACTIONS else ()
        rows.append((d.id, d.label, COST_LABELS[d.cost], d.is_attack, d.casting, d.extended,
                     ", ".join(params) or "—", ", ".join(d.rules)))
    return Table(("Identifiant", "Action", "Coût", "Action d’attaque", "Incantation",
                  "Étendue", "Paramètres", "Règles"), rows, "Le catalogue des actions d100")


# -- helpers on the fight's state --------------------------------------------------------------


def fight_weapons(ctx: Ctx[Rules]) -> Mapping[str, Weapon]:
    """The catalogue of this fight (read-only): the built-in weapons plus the ``armes``
    start option."""
    extra: Mapping[str, Any] | None = ctx.state.system_state.get("weapons")
    if extra is None:
        return WEAPONS
    # written once at the start, never changed in place: built once per fight
    return parsed(extra, _catalogue)


def _catalogue(extra: Mapping[str, Any]) -> dict[str, Weapon]:
    return {**WEAPONS, **{k: Weapon.from_json({**v, "id": k}) for k, v in extra.items()}}


def extended_of(value: Json) -> Extended | None:
    """The extended action stored in a fighter's flags (JSON), or ``None``."""
    return None if value is None else Extended.from_json(value)


def guard(ctx: Ctx[Rules], name: str) -> Guard:
    """What ``name`` may do against an attack now (D100-PARRY-2/3, D100-DODGE-2,
    D100-SURPRISE-1)."""
    f = ctx.fighter(name)
    flags = f.flags
    hands = flags["hands"]
    st = ctx.state
    # positional, in Guard's field order: parry_prepared, two_weapons, parries_used,
    # dodges_used, surprised (asked for each target of each candidate move)
    return Guard(
        bool(flags["parry_prepared"]),
        hands[HANDS[0]] is not None and hands[HANDS[1]] is not None,
        int(flags["parries"]),
        int(flags["dodges"]),
        st.system_state.get("surprised") == f.side and st.turn == 1,
    )


def allowed_defences(defender: Combatant, guard: Guard, ranged: bool,
                     rules: Rules = DEFAULT_RULES) -> tuple[str, ...]:
    """The defences among « parade » and « esquive » (in that order) that
    :func:`check_defence` allows ``defender`` now: what automated play offers a defender's
    policy (D100-PARRY-2/3, D100-DODGE-1/2, D100-RANGED-1, D100-SURPRISE-1). A pure
    function of its arguments (a combatant is frozen, a guard too), answered once per
    set of them, among the combatant's other answers (:data:`COMBATANT_ANSWERS`).

    >>> aldric = Combatant("Aldric", "héros", {"CC": 45, "Ag": 40}, skills={"esquive"})
    >>> allowed_defences(aldric, Guard(parry_prepared=True), ranged=False)
    ('parade', 'esquive')
    """
    key = ("defences", guard, ranged, rules)
    try:
        known: tuple[str, ...] | None = COMBATANT_ANSWERS.get(key, defender)
    except TypeError:  # rules holding an unhashable value: answered without the memo
        return _allowed_defences(defender, guard, ranged, rules)
    if known is None:
        known = COMBATANT_ANSWERS.put(key, _allowed_defences(defender, guard, ranged, rules),
                                      defender)
    return known


def _allowed_defences(defender: Combatant, guard: Guard, ranged: bool, rules: Rules
                      ) -> tuple[str, ...]:
    """:func:`allowed_defences` computed afresh: each defence asked of
    :func:`check_defence`."""
    options = []
    for defence in ("parade", "esquive"):
        try:
            check_defence(defender, defence, guard, ranged, rules)
        except EscarmoucheError:
            continue
        options.append(defence)
    return tuple(options)


def best_defence(ctx: Ctx[Rules], defender: str, ranged: bool) -> str:
    """The defence an automated defender chooses: a parry if allowed, else a dodge."""
    f = ctx.fighter(defender)
    options = allowed_defences(f.combatant, guard(ctx, defender), ranged, ctx.rules)
    return options[0] if options else "aucune"


def _mount(ctx: Ctx[Rules], rider: str) -> FighterState | None:
    mount = ctx.state.system_state.get("mounts", {}).get(rider)
    if mount is None:
        return None
    f = ctx.fighter(mount)
    return f if f.standing else None


def _hand_param(params: Mapping[str, Any]) -> str:
    return checks.choice("main", params.get("main", "directrice"), HANDS, "D100-ATK-5",
                         labels=HAND_LABELS)


def held(ctx: Ctx[Rules], f: FighterState, hand: str) -> Weapon | None:
    """The weapon in ``hand`` of ``f``, or ``None``."""
    wid = f.flags["hands"][hand]
    return None if wid is None else get_weapon(wid, fight_weapons(ctx))


#: :func:`check_turn`'s answers (a plan, or a refusal kept as a value) by turn shape, for
#: the action catalogue they were computed with (a new one starts afresh)
_PLANS: Memo[TurnPlan | EscarmoucheError] = Memo(4096, (globals(), "ACTION_DEFS"))


def plan_with(f: FighterState, d: ActionDef, n: int) -> TurnPlan:
    """This turn's plan so far plus ``n`` half actions of ``d`` (D100-ACT-1..4).
    :func:`check_turn` is a pure function of the plan, the action and the extended action
    under way: its answer is computed once per turn shape (automated play asks the same
    question at every activation)."""
    steps = tuple((str(a), int(k)) for a, k in f.flags["plan"])
    ext = extended_of(f.flags["extended_at_start"])
    key = (steps, d.id, n, ext)
    answer = _PLANS.get(key)
    if answer is None:
        try:
            answer = check_turn([*steps, (d.id, n)], in_progress=ext)
        except EscarmoucheError as err:
            answer = err
        _PLANS.put(key, answer)
    if isinstance(answer, EscarmoucheError):
        raise answer.again()
    return answer


def _reloadable(ctx: Ctx[Rules], f: FighterState, hand: str) -> Weapon:
    """The ranged weapon in ``hand`` that a reload can load (D100-ACT-4), else the
    French refusal: nothing to reload, or already loaded."""
    w = held(ctx, f, hand)
    if w is None or not w.ranged or w.reload == 0:
        raise invalid("main", hand, "D100-ACT-4", f"{HAND_LABELS[hand]} : rien à recharger",
                      kind=IllegalActionError)
    if f.flags["loaded"][hand]:
        raise invalid("main", hand, "D100-ACT-4",
                      f"{HAND_LABELS[hand]} : {quote(w.label)} est déjà chargé",
                      kind=IllegalActionError)
    return w


def _steps(ctx: Ctx[Rules], f: FighterState, d: ActionDef, params: Mapping[str, Any]) -> int:
    """How many half actions ``d`` needs when it starts (D100-ACT-4)."""
    ext = extended_of(f.flags["extended"])
    if ext is not None and ext.action == d.id:
        return 1  # a continuation step
    if d.kind == "recharger":
        return _reloadable(ctx, f, _hand_param(params)).reload
    if d.kind == "incantation":
        return checks.integer("etapes", params.get("etapes", 1), lo=1, hi=MAX_EXTENDED_STEPS,
                              rule="D100-ACT-4")
    return 1


# -- resolvers ---------------------------------------------------------------------------------

_Body = Callable[[Ctx[Rules], FighterState, ActionDef, Mapping[str, Any], TurnPlan], None]


def _planned(body: _Body) -> Resolver[Rules]:
    """A resolver: the action's half actions are added to the turn plan (D100-ACT-1..4),
    the body resolves it, then the plan and the extended action are recorded."""

    @functools.wraps(body)
    def resolve(ctx: Ctx[Rules], actor: str, spec: ActionSpec, params: Mapping[str, Any]
                ) -> None:
        f = ctx.fighter(actor)
        d = ACTION_DEFS[spec.id]
        n = _steps(ctx, f, d, params)
        plan = plan_with(f, d, n)
        body(ctx, f, d, params, plan)
        f.flags["plan"] = [*f.flags["plan"], [d.id, n]]
        f.flags["extended"] = None if plan.extended is None else plan.extended.to_json()
        if plan.extended is None:
            f.flags["extended_hand"] = None

    return resolve


@_planned
def attaquer(ctx: Ctx[Rules], f: FighterState, d: ActionDef, params: Mapping[str, Any],
             plan: TurnPlan) -> None:
    """D100-ATK-1..7, D100-PARRY-*, D100-DODGE-*, D100-TWO-2, D100-RANGED-*."""
    hand = _hand_param(params)
    weapon = held(ctx, f, hand) or get_weapon("mains_nues")
    if weapon.ranged and not d.ranged_ok:
        raise invalid("action", d.id, "D100-ACT-3",
                      "un tir se fait par une attaque standard",
                      kind=IllegalActionError, display=d.label)
    if weapon.ranged and weapon.reload and not f.flags["loaded"][hand]:
        raise invalid("arme", weapon.label, "D100-ACT-4",
                      "l’arme n’est pas chargée : rechargez-la d’abord",
                      kind=IllegalActionError)
    name = checks.name_in("cible", params["cible"], list(ctx.state.fighters), "D100-ATK-1")
    target = ctx.fighter(name)
    if not target.standing:
        raise invalid("cible", name, "D100-ATK-1", f"{name} est hors de combat ou a fui",
                      kind=IllegalActionError)
    if not weapon.ranged:
        terrain.check_contact(ctx, f.name, name)
    aim = params.get("visee", "cavalier")
    mount = _mount(ctx, name)
    struck = mount if (aim == "monture" and mount is not None) else target
    setup = attack_setup(
        f.combatant, target.combatant, weapon, hand=hand,
        defence=params.get("defense", "aucune"), guard=guard(ctx, struck.name),
        distance=params.get("distance"),
        target_engaged=params.get("cible_engagee", False),
        shooter_engaged=params.get("tireur_engage", False),
        line_of_sight=params.get("ligne_de_vue", True),
        gm_modifier=params.get("modificateur", 0),
        unreachable=params.get("inaccessibles", ()),
        mount=None if mount is None else mount.combatant, aim=aim,
        wounds=struck.tracks[TRACK], rules=ctx.rules, weapons=fight_weapons(ctx),
    )
    # simulation mode writes no sentence (it is read only through the log's text and
    # data, given as functions below: the data writes it in when read)
    result = roll_attack(setup, ctx.rng, narrate=not ctx.fast)
    if result.defence_roll is not None:  # D100-PARRY-3, D100-DODGE-2
        flags = struck.flags
        flags["parries"], flags["dodges"], flags["parry_prepared"] = core.defended(
            setup.defence == "parade", setup.parry_source == "preparee",
            int(flags["parries"]), int(flags["dodges"]), bool(flags["parry_prepared"]))
    if weapon.ranged and weapon.reload:  # fired (D100-ACT-4)
        f.flags["loaded"][hand] = core.loaded_after(weapon.ranged, weapon.reload,
                                                    bool(f.flags["loaded"][hand]))
    ctx.emit(
        "attaque", lambda: logged_attack_sentence(result), actor=f.name,
        rules=result.rules,
        data=lambda: {"action": d.id, **narrated(result).to_json()}, dice=result.dice,
    )
    if result.wounds_lost:
        ctx.change_track(struck.name, TRACK, -result.wounds_lost, rules=("D100-ATK-3",))


@_planned
def degainer(ctx: Ctx[Rules], f: FighterState, d: ActionDef, params: Mapping[str, Any],
             plan: TurnPlan) -> None:
    """Draw a weapon into one hand; two filled hands must be a legal pair (D100-TWO-1).
    A drawn ranged weapon is carried loaded."""
    hand = _hand_param(params)
    catalogue = fight_weapons(ctx)
    w = get_weapon(params["arme"], catalogue)
    hands = dict(f.flags["hands"])
    hands[hand] = w.id
    rules: tuple[str, ...] = d.rules
    if all(hands[h] is not None for h in HANDS):
        check_two_weapons(str(hands["directrice"]), str(hands["non_directrice"]), catalogue)
        rules = (*rules, "D100-TWO-1")
    f.flags["hands"] = hands
    f.flags["loaded"] = {**f.flags["loaded"], hand: True}
    ctx.emit("degainer", hand_sentence(f.name, "dégaine", w.label, HAND_LABELS[hand]),
             actor=f.name, rules=rules, data={"hand": hand, "weapon": w.id})


@_planned
def lacher(ctx: Ctx[Rules], f: FighterState, d: ActionDef, params: Mapping[str, Any],
           plan: TurnPlan) -> None:
    """Drop what one hand holds (a free action, D100-ACT-3)."""
    hand = _hand_param(params)
    w = held(ctx, f, hand)
    if w is None:
        raise invalid("main", hand, "D100-ACT-3", f"{HAND_LABELS[hand]} : elle est vide",
                      kind=IllegalActionError)
    f.flags["hands"] = {**f.flags["hands"], hand: None}
    ctx.emit("lacher", hand_sentence(f.name, "lâche", w.label, HAND_LABELS[hand]),
             actor=f.name, rules=d.rules, data={"hand": hand, "weapon": w.id})


def preparer_parade(ctx: Ctx[Rules], actor: str, spec: ActionSpec,
                    params: Mapping[str, Any]) -> None:
    """D100-PARRY-2: a prepared parry (half action), until used or the start of the
    fighter's next turn (D100-PARRY-3). The rules kernel decides and plays it
    (:func:`.kernel.refusal`, :func:`.kernel.play`); this door words its refusals,
    writes the fighter back (:func:`.kernel_doors.commit`) and narrates its log tuple."""
    from escarmouche.systems.d100 import kernel, kernel_doors

    d = ACTION_DEFS[spec.id]
    sheet, st, me = kernel_doors.view(ctx, actor)
    move = ("defense", kernel.PREPARE, -1, -1)
    code = kernel.refusal(sheet, st, me, move)
    if code == kernel.PLAN:  # check_turn's own words, kept with its answer
        refused = sheet.turn(st.plan, kernel.PREPARE, 1, st.ext_start[me])
        assert isinstance(refused, EscarmoucheError)
        raise refused.again()
    if code == kernel.PREPARED:
        raise invalid("action", d.id, "D100-PARRY-3",
                      f"{actor} a déjà une parade préparée",
                      kind=IllegalActionError, display=d.label)
    kernel.play(sheet, st, me, move, _no_dice)
    kernel_doors.commit(st, me, ctx.fighter(actor))
    _, _, who = st.log[-1]
    name = sheet.names[who]
    ctx.emit("parade_preparee", lambda: prepared_parry_sentence(name), actor=name,
             rules=(*d.rules, "D100-PARRY-3"))


def _no_dice(low: int, high: int) -> int:
    raise AssertionError("no die is drawn here")  # pragma: no cover


def recharger(ctx: Ctx[Rules], actor: str, spec: ActionSpec, params: Mapping[str, Any]
              ) -> None:
    """D100-ACT-3/4: one half action of reloading; a weapon needing more is an
    extended action that must not be interrupted. The rules kernel plays it
    (:func:`.kernel.play`: the half actions, the extended action, the weapon loaded);
    this door checks the hand named, writes the fighter back (:func:`.kernel_doors.commit`)
    and narrates the kernel's log tuple."""
    from escarmouche.systems.d100 import kernel, kernel_doors

    d = ACTION_DEFS[spec.id]
    f = ctx.fighter(actor)
    hand = _hand_param(params)
    w = held(ctx, f, hand)
    ext = extended_of(f.flags["extended"])
    if ext is None or ext.action != d.id:
        _reloadable(ctx, f, hand)
    sheet, st, me = kernel_doors.view(ctx, actor)
    step = st.ext_hand[me]
    if ext is not None and ext.action == d.id and step is not None \
            and HANDS[step] != hand:
        raise invalid("main", hand, "D100-ACT-4",
                      f"le rechargement en cours est celui de la {HAND_LABELS[HANDS[step]]}",
                      kind=IllegalActionError)
    assert w is not None
    kernel.play(sheet, st, me, ("recharge", kernel.RELOAD, HANDS.index(hand), -1), _no_dice)
    kernel_doors.commit(st, me, f)
    _, _, who, h, steps = st.log[-1]
    name = sheet.names[who]
    ctx.emit("recharger", reload_sentence(name, w.label, steps), actor=name, rules=d.rules,
             data={"hand": HANDS[h], "weapon": w.id, "loaded": steps is None})


@_planned
def incantation(ctx: Ctx[Rules], f: FighterState, d: ActionDef, params: Mapping[str, Any],
                plan: TurnPlan) -> None:
    """D100-ACT-2/4: one casting action per turn; a long one is extended."""
    spell = checks.text("sort", params.get("sort", "sort"), "D100-ACT-2")
    if plan.extended is None:
        text = f"{f.name} incante {quote(spell)} : l’incantation est achevée."
    else:
        ext = plan.extended
        text = (f"{f.name} incante {quote(spell)} : "
                f"{steps_sentence(ext.total - ext.remaining, ext.total)}.")
    ctx.emit("incantation", text, actor=f.name, rules=d.rules,
             data={"spell": spell, "done": plan.extended is None})


@_planned
def abandonner(ctx: Ctx[Rules], f: FighterState, d: ActionDef, params: Mapping[str, Any],
               plan: TurnPlan) -> None:
    """D100-ACT-4: abandoning an extended action loses the time spent on it."""
    lost = extended_of(f.flags["extended"])
    assert lost is not None
    spent = lost.total - lost.remaining
    f.flags["extended_hand"] = None
    ctx.emit("abandon", abandon_sentence(f.name, ACTION_DEFS[lost.action].label, spent),
             actor=f.name, rules=d.rules, data={"action": lost.action})


@_planned
def saut(ctx: Ctx[Rules], f: FighterState, d: ActionDef, params: Mapping[str, Any],
         plan: TurnPlan) -> None:
    """D100-JUMP-1; the GM applies the fall's damage (``Encounter.adjust``). A fighter
    with a drop ahead (start option ``terrain``) is then at the bottom; a fall costs it
    the rest of its turn *(ruling)*."""
    jump = roll_drop_jump(f.combatant, params["hauteur"], ctx.rng, rules=ctx.rules)
    ctx.emit("saut", jump.describe(), actor=f.name, rules=d.rules, data=jump.to_json(),
             dice=jump.dice)
    terrain.after_drop(ctx, f, jump)


@_planned
def saut_en_longueur(ctx: Ctx[Rules], f: FighterState, d: ActionDef,
                     params: Mapping[str, Any], plan: TurnPlan) -> None:
    """D100-JUMP-2. A fighter with a ditch ahead (start option ``terrain``) is then
    across; short of the far side, it loses the rest of its turn *(ruling)*."""
    jump = roll_long_jump(f.combatant, params["elan"], ctx.rng, rules=ctx.rules)
    ctx.emit("saut_en_longueur", jump.describe(), actor=f.name, rules=d.rules,
             data=jump.to_json(), dice=jump.dice)
    terrain.after_long_jump(ctx, f, jump)


@_planned
def generique(ctx: Ctx[Rules], f: FighterState, d: ActionDef, params: Mapping[str, Any],
              plan: TurnPlan) -> None:
    """An action with no rule of its own (viser, se déplacer, course, parler, crier):
    it only takes its place in the turn plan (D100-ACT-3)."""
    details = params.get("details")
    if details is not None:
        details = checks.text("details", details, "D100-ACT-3")
    suffix = f", {quote(details)}" if details else ""  # one colon per clause
    ctx.emit("action", f"{f.name} : {d.label} ({COST_LABELS[d.cost]}){suffix}.",
             actor=f.name, rules=d.rules, data={"action": d.id, "details": details})
    if d.id == "course":
        terrain.after_run(ctx, f)


def reaction(ctx: Ctx[Rules], actor: str, spec: ActionSpec, params: Mapping[str, Any]
             ) -> None:
    """Dodge and off-hand parry are declared with the attack they answer (``defense``);
    :meth:`D100System.check_legal` refuses them on their own, so this never runs."""
    raise invalid("action", spec.id, spec.rules[-1],
                  "une réaction se déclare avec l’attaque qu’elle contre (paramètre "
                  "« defense » de l’attaque)",
                  kind=IllegalActionError, display=spec.label)


#: the resolver of each kind of action (``ActionSpec.resolver_key``)
RESOLVERS: Mapping[str, Resolver[Rules]] = MappingProxyType({
    "attaquer": attaquer,
    "degainer": degainer,
    "lacher": lacher,
    "preparer_parade": preparer_parade,
    "recharger": recharger,
    "incantation": incantation,
    "abandonner": abandonner,
    "saut": saut,
    "saut_en_longueur": saut_en_longueur,
    "generique": generique,
    "reaction": reaction,
})
