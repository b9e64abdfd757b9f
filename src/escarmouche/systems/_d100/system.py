"""The d100 system plugged into the encounter engine (hooks of
:class:`escarmouche.systems.base.System`).

Per-fight data is JSON in ``ctx.state.system_state`` (initiative, surprised side, mounts,
extra weapons) and in each ``FighterState.flags``:

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

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from escarmouche.errors import EscarmoucheError, IllegalActionError
from escarmouche.model import Combatant, Json, Timing
from escarmouche.systems._d100.core import (
    Guard,
    Rules,
    _check_defence,
    attack_setup,
    check_two_weapons,
    get_weapon,
    roll_attack,
    roll_initiative,
    validate_combatant,
)
from escarmouche.systems._d100.jumps import roll_drop_jump, roll_long_jump
from escarmouche.systems._d100.narration import fr_int, plural
from escarmouche.systems._d100.tables import (
    ACTIONS,
    COST_LABELS,
    HAND_LABELS,
    HANDS,
    WEAPONS,
    ActionDef,
    Weapon,
)
from escarmouche.systems._d100.turns import Extended, PlanStep, check_turn
from escarmouche.systems.base import ActionSpec, System

if TYPE_CHECKING:
    from escarmouche.encounter import Ctx, FighterState

__all__ = ["ACTION_PARAMS", "ROUNDS_PER_MINUTE", "ROUND_SECONDS", "SYSTEM", "D100System",
           "elapsed_time"]

#: D100-TIME-1: a round lasts about 10 seconds; 6 rounds make a minute
ROUND_SECONDS = 10
ROUNDS_PER_MINUTE = 6

#: the options ``Encounter.start`` accepts for d100
START_OPTIONS: tuple[str, ...] = ("surprised", "equipment", "mounts", "weapons")

#: the parameters each kind of action accepts in ``Encounter.act`` (first: required ones)
ACTION_PARAMS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "attaque": ("target", "hand", "defence", "distance", "target_engaged",
                "shooter_engaged", "line_of_sight", "modifier", "aim", "unreachable"),
    "degainer": ("weapon", "hand"),
    "lacher": ("hand",),
    "preparer_parade": (),
    "recharger": ("hand",),
    "incantation": ("steps", "spell"),
    "abandonner": (),
    "saut": ("height",),
    "saut_en_longueur": ("run_up",),
    "generique": ("details",),
})
_REQUIRED: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "attaque": ("target",), "degainer": ("weapon",), "saut": ("height",),
    "saut_en_longueur": ("run_up",),
})


def elapsed_time(rounds: int) -> str:
    """D100-TIME-1: the time ``rounds`` rounds take, in French (« 1 min 20 s »)."""
    seconds = rounds * ROUND_SECONDS
    minutes, rest = divmod(seconds, ROUND_SECONDS * ROUNDS_PER_MINUTE)
    parts = ([f"{fr_int(minutes)} min"] if minutes else []) + ([f"{rest} s"] if rest else [])
    return " ".join(parts) or "0 s"


def _err(field: str, value: object, rule: str, text: str) -> IllegalActionError:
    return IllegalActionError(f"{field} = {text} ({rule})", field=field, value=value, rule=rule)


class D100System(System):
    """Initiative once for the fight, one turn per fighter per round, attacks with parry
    and dodge, two weapons, shots, extended actions and jumps."""

    name: ClassVar[str] = "d100"
    title: ClassVar[str] = "Système d100 (CC/CT, localisation)"
    rules_type: ClassVar[type[Any]] = Rules
    tracks: ClassVar[tuple[str, ...]] = ("B",)
    turn_word: ClassVar[str] = "round"
    turn_rules: ClassVar[tuple[str, ...]] = ("D100-ROUND-1",)
    start_options: ClassVar[tuple[str, ...]] = tuple(START_OPTIONS)
    #: the d100 text has no rule on lasting effects: their ticks cite no rule ID
    tick_rules: ClassVar[Mapping[Timing, tuple[str, ...]]] = MappingProxyType({})

    # -- roster ----------------------------------------------------------------------

    def validate(self, combatant: Combatant, rules: Any) -> None:
        validate_combatant(combatant)

    # -- helpers ---------------------------------------------------------------------

    @staticmethod
    def weapons(ctx: Ctx) -> dict[str, Weapon]:
        """The catalogue of this fight: :data:`WEAPONS` plus the ``weapons`` start option."""
        extra = ctx.state.system_state.get("weapons", {})
        return {**WEAPONS, **{k: Weapon.from_json({**v, "id": k}) for k, v in extra.items()}}

    @staticmethod
    def _extended(value: Json) -> Extended | None:
        return None if value is None else Extended.from_json(value)

    def guard(self, ctx: Ctx, name: str) -> Guard:
        """What ``name`` may do against an attack now (D100-PARRY-2/3, D100-DODGE-2,
        D100-SURPRISE-1)."""
        f = ctx.fighter(name)
        hands = f.flags["hands"]
        surprised = (ctx.state.system_state.get("surprised") == f.side and ctx.state.turn == 1)
        return Guard(
            parry_prepared=bool(f.flags["parry_prepared"]),
            two_weapons=all(hands[h] is not None for h in HANDS),
            parries_used=int(f.flags["parries"]),
            dodges_used=int(f.flags["dodges"]),
            surprised=surprised,
        )

    def _mount(self, ctx: Ctx, rider: str) -> FighterState | None:
        mount = ctx.state.system_state.get("mounts", {}).get(rider)
        if mount is None:
            return None
        f = ctx.fighter(mount)
        return f if f.standing else None

    def best_defence(self, ctx: Ctx, defender: str, ranged: bool) -> str:
        """The defence an automated defender chooses: a parry if allowed, else a dodge."""
        f = ctx.fighter(defender)
        guard = self.guard(ctx, defender)
        for defence in ("parade", "esquive"):
            try:
                _check_defence(f.combatant, defence, guard, ranged, ctx.rules)
            except EscarmoucheError:
                continue
            return defence
        return "aucune"

    # -- the fight -------------------------------------------------------------------

    def start(self, ctx: Ctx, options: Mapping[str, Any]) -> None:
        """Options: ``surprised`` (a side: in round 1 only the others act,
        D100-SURPRISE-1), ``equipment`` (``{name: {"directrice": weapon,
        "non_directrice": weapon}}``, default ``Rules.default_weapon`` in the main hand;
        both hands filled must be a legal pair, D100-TWO-1), ``mounts`` (``{rider:
        mount}``, D100-ATK-7), ``weapons`` (extra catalogue entries ``{id: {...}}``).
        Draw order: one d10 per fighter in roster order, then the roll-offs (D100-INIT-*)."""
        st = ctx.state
        extra = options.get("weapons") or {}
        if not isinstance(extra, Mapping):
            raise EscarmoucheError(
                f"weapons = {extra!r} : un dictionnaire {{id: description}} est attendu "
                "(D100-ATK-3)",
                field="weapons", value=extra, rule="D100-ATK-3",
            )
        st.system_state["weapons"] = {
            str(k): Weapon.from_json({**dict(v), "id": k}).to_json() for k, v in extra.items()
        }
        catalogue = self.weapons(ctx)
        self._start_equipment(ctx, options.get("equipment") or {}, catalogue)
        self._start_mounts(ctx, options.get("mounts") or {})
        surprised = options.get("surprised")
        sides = list(dict.fromkeys(f.side for f in st.fighters.values()))
        if surprised is not None and (surprised not in sides or len(sides) < 2):
            raise EscarmoucheError(
                f"surprised = {surprised!r} : le camp surpris doit être un des camps présents "
                f"({', '.join(sides)}), face à au moins un autre camp (D100-SURPRISE-1)",
                field="surprised", value=surprised, rule="D100-SURPRISE-1",
            )
        st.system_state["surprised"] = surprised
        for f in st.fighters.values():
            f.flags.update({
                "parry_prepared": False, "parries": 0, "dodges": 0, "plan": [],
                "extended": None, "extended_at_start": None, "extended_hand": None,
            })
        init = roll_initiative([f.combatant for f in st.fighters.values()], ctx.rng)
        st.system_state["initiative"] = init.to_json()
        st.system_state["order"] = list(init.order)
        parts = [f"{e.name} {e.score} ({e.ag} + {e.d10})" for e in init.entries]
        text = "Initiative (Ag + 1d10) : " + ", ".join(parts)
        if init.rolloffs:
            text += " ; départage : " + " / ".join(
                ", ".join(f"{n} {r}" for n, r in rnd) for rnd in init.rolloffs)
        text += " ; ordre : " + ", ".join(init.order) + "."
        ctx.emit("initiative", text, rules=init.rules, data=init.to_json(), dice=init.dice)
        if surprised is not None:
            ctx.emit(
                "surprise",
                f"Le camp « {surprised} » est surpris : au round 1, seuls ses adversaires "
                "agissent"
                + ("." if ctx.rules.surprised_can_defend
                   else ", et les surpris ne peuvent ni parer ni esquiver."),
                rules=("D100-SURPRISE-1",), data={"surprised": surprised},
            )

    def _start_equipment(self, ctx: Ctx, equipment: Any, catalogue: Mapping[str, Weapon]
                         ) -> None:
        if not isinstance(equipment, Mapping):
            raise EscarmoucheError(
                f"equipment = {equipment!r} : un dictionnaire {{nom: {{main: arme}}}} est "
                "attendu (D100-TWO-1)",
                field="equipment", value=equipment, rule="D100-TWO-1",
            )
        for name in equipment:
            ctx.fighter(name, rule="D100-TWO-1")
        for name, f in ctx.state.fighters.items():
            given = equipment.get(name)
            hands: dict[str, Json] = {"directrice": ctx.rules.default_weapon,
                                      "non_directrice": None}
            if given is not None:
                if not isinstance(given, Mapping) or set(given) - set(HANDS):
                    raise EscarmoucheError(
                        f"equipment = {given!r} pour « {name} » : clés « directrice » et "
                        "« non_directrice » attendues (D100-TWO-1)",
                        field="equipment", value=given, rule="D100-TWO-1",
                    )
                hands = {h: None for h in HANDS}
                for h, w in given.items():
                    hands[h] = None if w is None else get_weapon(w, catalogue).id
            if hands["directrice"] is not None and hands["non_directrice"] is not None:
                check_two_weapons(str(hands["directrice"]), str(hands["non_directrice"]),
                                  catalogue)
            f.flags["hands"] = hands
            f.flags["loaded"] = {h: True for h in HANDS}

    def _start_mounts(self, ctx: Ctx, mounts: Any) -> None:
        if not isinstance(mounts, Mapping):
            raise EscarmoucheError(
                f"mounts = {mounts!r} : un dictionnaire {{cavalier: monture}} est attendu "
                "(D100-ATK-7)",
                field="mounts", value=mounts, rule="D100-ATK-7",
            )
        seen: set[str] = set()
        for rider, mount in mounts.items():
            ctx.fighter(rider, rule="D100-ATK-7")
            ctx.fighter(mount, rule="D100-ATK-7")
            if rider == mount or mount in seen or mount in mounts:
                raise EscarmoucheError(
                    f"mounts = {rider!r} → {mount!r} : une monture porte un seul cavalier, "
                    "distinct d’elle, et ne chevauche pas elle-même (D100-ATK-7)",
                    field="mounts", value=mount, rule="D100-ATK-7",
                )
            seen.add(mount)
        ctx.state.system_state["mounts"] = {str(k): str(v) for k, v in mounts.items()}

    def turn_order(self, ctx: Ctx, turn: int) -> list[str]:
        """D100-ROUND-1: every fighter once, by initiative; D100-SURPRISE-1: in round 1
        the surprised side does not act."""
        order = list(ctx.state.system_state["order"])
        surprised = ctx.state.system_state.get("surprised")
        if turn == 1 and surprised is not None:
            order = [n for n in order if ctx.state.fighters[n].side != surprised]
        return order

    def on_turn_start(self, ctx: Ctx) -> None:
        """D100-PARRY-3 / D100-DODGE-2: the parry and dodge counts reset each round."""
        for f in ctx.state.fighters.values():
            f.flags["parries"] = 0
            f.flags["dodges"] = 0
        surprised = ctx.state.system_state.get("surprised")
        if ctx.state.turn == 2 and surprised is not None:
            ctx.emit("fin_surprise",
                     f"Le camp « {surprised} » n’est plus surpris : tout le monde agit.",
                     rules=("D100-SURPRISE-1",))

    def on_turn_end(self, ctx: Ctx) -> None:
        """D100-TIME-1: a round lasts about 10 s."""
        ctx.emit("temps", f"Temps écoulé : environ {elapsed_time(ctx.state.turn)}.",
                 rules=("D100-TIME-1",), data={"seconds": ctx.state.turn * ROUND_SECONDS})

    def on_activation_start(self, ctx: Ctx, actor: str) -> bool:
        """A new turn plan; a prepared parry lasts until the start of the fighter's next
        turn (D100-PARRY-3)."""
        f = ctx.fighter(actor)
        f.flags["plan"] = []
        f.flags["extended_at_start"] = f.flags["extended"]
        if f.flags["parry_prepared"]:
            f.flags["parry_prepared"] = False
            ctx.emit("parade_expiree", f"La parade préparée de {actor} n’a pas servi : elle "
                     "prend fin.", actor=actor, rules=("D100-PARRY-3",))
        return True

    # -- actions ---------------------------------------------------------------------

    def actions(self, ctx: Ctx, actor: str) -> Sequence[ActionSpec]:
        """The actions ``actor`` may still add to this turn's plan (D100-ACT-1..4)."""
        if ctx.state.current != actor:
            return []
        f = ctx.fighter(actor)
        out: list[ActionSpec] = []
        for d in ACTIONS.values():
            if d.reaction:
                continue
            try:
                self._plan(ctx, f, d, 1)
            except EscarmoucheError:
                continue
            out.append(ActionSpec(d.id, d.label, COST_LABELS[d.cost], d.rules,
                                  ACTION_PARAMS[d.kind]))
        return out

    def _plan(self, ctx: Ctx, f: FighterState, d: ActionDef, n: int) -> Any:
        steps: list[PlanStep] = [(str(a), int(k)) for a, k in f.flags["plan"]]
        return check_turn([*steps, (d.id, n)],
                          in_progress=self._extended(f.flags["extended_at_start"]))

    def act(self, ctx: Ctx, actor: str, action: str, params: Mapping[str, Any]) -> None:
        """Validate ``action`` against the turn plan (D100-ACT-*), then resolve it."""
        d = ACTIONS.get(action)
        if d is None:
            raise _err("action", action, "D100-ACT-3",
                       f"{action!r} : action inconnue ; actions : {', '.join(ACTIONS)}")
        if d.reaction:
            raise _err("action", action, d.rules[-1],
                       f"« {d.label} » : une réaction se déclare avec l’attaque qu’elle "
                       "contre (paramètre « defence » de l’attaque)")
        current = ctx.state.current
        if current != actor:
            raise _err("acteur", actor, "D100-ROUND-1",
                       f"« {actor} » : ce n’est pas son tour (c’est celui de "
                       f"« {current} »)")
        allowed = ACTION_PARAMS[d.kind]
        unknown = sorted(set(params) - set(allowed))
        if unknown:
            raise EscarmoucheError(
                f"paramètre = {unknown[0]!r} : inconnu pour « {d.label} » ; paramètres : "
                f"{', '.join(allowed) or 'aucun'} ({d.rules[0]})",
                field="paramètre", value=unknown[0], rule=d.rules[0],
            )
        missing = [p for p in _REQUIRED.get(d.kind, ()) if p not in params]
        if missing:
            raise EscarmoucheError(
                f"paramètre = {missing[0]!r} : requis pour « {d.label} » ({d.rules[0]})",
                field="paramètre", value=missing[0], rule=d.rules[0],
            )
        f = ctx.fighter(actor)
        n = self._steps(ctx, f, d, params)
        plan = self._plan(ctx, f, d, n)
        handler = getattr(self, f"_do_{d.kind}")
        handler(ctx, f, d, params, plan)
        f.flags["plan"] = [*f.flags["plan"], [d.id, n]]
        f.flags["extended"] = None if plan.extended is None else plan.extended.to_json()
        if plan.extended is None:
            f.flags["extended_hand"] = None

    def _steps(self, ctx: Ctx, f: FighterState, d: ActionDef, params: Mapping[str, Any]
               ) -> int:
        """How many half actions ``d`` needs when it starts (D100-ACT-4)."""
        ext = self._extended(f.flags["extended"])
        if ext is not None and ext.action == d.id:
            return 1  # a continuation step
        if d.kind == "recharger":
            hand = self._hand_param(params)
            w = self._held(ctx, f, hand)
            if w is None or not w.ranged or w.reload == 0:
                raise _err("main", hand, "D100-ACT-4",
                           f"{HAND_LABELS[hand]} : rien à recharger")
            if f.flags["loaded"][hand]:
                raise _err("main", hand, "D100-ACT-4",
                           f"{HAND_LABELS[hand]} : « {w.label} » est déjà chargé")
            return w.reload
        if d.kind == "incantation":
            steps = params.get("steps", 1)
            if isinstance(steps, bool) or not isinstance(steps, int) or not 1 <= steps <= 100:
                raise EscarmoucheError(
                    f"steps = {steps!r} : un nombre de demi-actions entre 1 et 100 est "
                    "attendu (D100-ACT-4)",
                    field="steps", value=steps, rule="D100-ACT-4",
                )
            return steps
        return 1

    @staticmethod
    def _hand_param(params: Mapping[str, Any]) -> str:
        hand = params.get("hand", "directrice")
        if hand not in HANDS:
            raise EscarmoucheError(
                f"hand = {hand!r} : « directrice » ou « non_directrice » attendu (D100-ATK-5)",
                field="hand", value=hand, rule="D100-ATK-5",
            )
        return str(hand)

    def _held(self, ctx: Ctx, f: FighterState, hand: str) -> Weapon | None:
        wid = f.flags["hands"][hand]
        return None if wid is None else get_weapon(wid, self.weapons(ctx))

    def _do_attaque(self, ctx: Ctx, f: FighterState, d: ActionDef,
                    params: Mapping[str, Any], plan: Any) -> None:
        """D100-ATK-1..7, D100-PARRY-*, D100-DODGE-*, D100-TWO-2, D100-RANGED-*."""
        hand = self._hand_param(params)
        weapon = self._held(ctx, f, hand) or get_weapon("mains_nues")
        if weapon.ranged and not d.ranged_ok:
            raise _err("action", d.id, "D100-ACT-3",
                       f"« {d.label} » : un tir se fait par une attaque standard")
        if weapon.ranged and weapon.reload and not f.flags["loaded"][hand]:
            raise _err("arme", weapon.id, "D100-ACT-4",
                       f"« {weapon.label} » n’est pas chargé : rechargez-le d’abord")
        target_name = params["target"]
        if not isinstance(target_name, str):
            raise EscarmoucheError(
                f"target = {target_name!r} : le nom d’un combattant est attendu (D100-ATK-1)",
                field="target", value=target_name, rule="D100-ATK-1",
            )
        target = ctx.fighter(target_name, rule="D100-ATK-1")
        if not target.standing:
            raise _err("target", target_name, "D100-ATK-1",
                       f"« {target_name} » est hors de combat ou a fui")
        aim = params.get("aim", "cavalier")
        mount = self._mount(ctx, target_name)
        struck = mount if (aim == "monture" and mount is not None) else target
        unreachable = params.get("unreachable", ())
        setup = attack_setup(
            f.combatant, target.combatant, weapon, hand=hand,
            defence=params.get("defence", "aucune"), guard=self.guard(ctx, struck.name),
            distance=params.get("distance"),
            target_engaged=params.get("target_engaged", False),
            shooter_engaged=params.get("shooter_engaged", False),
            line_of_sight=params.get("line_of_sight", True),
            gm_modifier=params.get("modifier", 0),
            unreachable=unreachable,
            mount=None if mount is None else mount.combatant, aim=aim,
            wounds=struck.tracks["B"], rules=ctx.rules, weapons=self.weapons(ctx),
        )
        result = roll_attack(setup, ctx.rng)
        if result.defence_roll is not None:
            key = "parries" if setup.defence == "parade" else "dodges"
            struck.flags[key] = int(struck.flags[key]) + 1
            if setup.parry_source == "preparee":
                struck.flags["parry_prepared"] = False
        if weapon.ranged and weapon.reload:
            f.flags["loaded"][hand] = False
        ctx.emit(
            "attaque", result.sentence, actor=f.name, rules=result.rules,
            data={"action": d.id, **result.to_json()}, dice=result.dice,
        )
        if result.wounds_lost:
            ctx.change_track(struck.name, "B", -result.wounds_lost, rules=("D100-ATK-3",))

    def _do_degainer(self, ctx: Ctx, f: FighterState, d: ActionDef,
                     params: Mapping[str, Any], plan: Any) -> None:
        """Draw a weapon into one hand; two filled hands must be a legal pair (D100-TWO-1).
        A drawn ranged weapon is carried loaded."""
        hand = self._hand_param(params)
        catalogue = self.weapons(ctx)
        w = get_weapon(params["weapon"], catalogue)
        hands = dict(f.flags["hands"])
        hands[hand] = w.id
        rules: tuple[str, ...] = d.rules
        if all(hands[h] is not None for h in HANDS):
            check_two_weapons(str(hands["directrice"]), str(hands["non_directrice"]), catalogue)
            rules = (*rules, "D100-TWO-1")
        f.flags["hands"] = hands
        f.flags["loaded"] = {**f.flags["loaded"], hand: True}
        ctx.emit("degainer", f"{f.name} dégaine : {w.label} ({HAND_LABELS[hand]}).",
                 actor=f.name, rules=rules, data={"hand": hand, "weapon": w.id})

    def _do_lacher(self, ctx: Ctx, f: FighterState, d: ActionDef,
                   params: Mapping[str, Any], plan: Any) -> None:
        hand = self._hand_param(params)
        w = self._held(ctx, f, hand)
        if w is None:
            raise _err("hand", hand, "D100-ACT-3", f"{HAND_LABELS[hand]} : elle est vide")
        f.flags["hands"] = {**f.flags["hands"], hand: None}
        ctx.emit("lacher", f"{f.name} lâche : {w.label} ({HAND_LABELS[hand]}).",
                 actor=f.name, rules=d.rules, data={"hand": hand, "weapon": w.id})

    def _do_preparer_parade(self, ctx: Ctx, f: FighterState, d: ActionDef,
                            params: Mapping[str, Any], plan: Any) -> None:
        """D100-PARRY-2: a prepared parry (half action), until used or the start of the
        fighter's next turn (D100-PARRY-3)."""
        if f.flags["parry_prepared"]:
            raise _err("action", d.id, "D100-PARRY-3",
                       f"« {d.label} » : {f.name} a déjà une parade préparée")
        f.flags["parry_prepared"] = True
        ctx.emit("parade_preparee",
                 f"{f.name} prépare une parade (demi-action) : elle vaut jusqu’à son "
                 "prochain tour.", actor=f.name, rules=(*d.rules, "D100-PARRY-3"))

    def _do_recharger(self, ctx: Ctx, f: FighterState, d: ActionDef,
                      params: Mapping[str, Any], plan: Any) -> None:
        """D100-ACT-3/4: one half action of reloading; a weapon needing more is an
        extended action that must not be interrupted."""
        hand = self._hand_param(params)
        ext_hand = f.flags["extended_hand"]
        if ext_hand is not None and ext_hand != hand:
            raise _err("hand", hand, "D100-ACT-4",
                       f"{HAND_LABELS[hand]} : le rechargement en cours est celui de la "
                       f"{HAND_LABELS[str(ext_hand)]}")
        w = self._held(ctx, f, hand)
        assert w is not None
        done = d.id in plan.completed or plan.extended is None
        if done:
            f.flags["loaded"] = {**f.flags["loaded"], hand: True}
            text = f"{f.name} recharge son arme ({w.label}) : elle est chargée."
        else:
            f.flags["extended_hand"] = hand
            ext = plan.extended
            text = (f"{f.name} recharge son arme ({w.label}) : "
                    f"{plural(ext.total - ext.remaining, 'demi-action')} sur {ext.total}, "
                    "action étendue.")
        ctx.emit("recharger", text, actor=f.name, rules=d.rules,
                 data={"hand": hand, "weapon": w.id, "loaded": done})

    def _do_incantation(self, ctx: Ctx, f: FighterState, d: ActionDef,
                        params: Mapping[str, Any], plan: Any) -> None:
        """D100-ACT-2/4: one casting action per turn; a long one is extended."""
        spell = params.get("spell", "sort")
        if not isinstance(spell, str):
            raise EscarmoucheError(
                f"spell = {spell!r} : le nom du sort est attendu (D100-ACT-2)",
                field="spell", value=spell, rule="D100-ACT-2",
            )
        if plan.extended is None:
            text = f"{f.name} incante « {spell} » : l’incantation est achevée."
        else:
            ext = plan.extended
            text = (f"{f.name} incante « {spell} » : "
                    f"{plural(ext.total - ext.remaining, 'demi-action')} sur {ext.total}, "
                    "action étendue.")
        ctx.emit("incantation", text, actor=f.name, rules=d.rules,
                 data={"spell": spell, "done": plan.extended is None})

    def _do_abandonner(self, ctx: Ctx, f: FighterState, d: ActionDef,
                       params: Mapping[str, Any], plan: Any) -> None:
        """D100-ACT-4: abandoning an extended action loses the time spent on it."""
        lost = self._extended(f.flags["extended"])
        assert lost is not None
        label = ACTIONS[lost.action].label
        f.flags["extended_hand"] = None
        ctx.emit("abandon",
                 f"{f.name} abandonne « {label} » : "
                 f"{plural(lost.total - lost.remaining, 'demi-action')} "
                 f"perdue{'s' if lost.total - lost.remaining >= 2 else ''}.",
                 actor=f.name, rules=d.rules, data={"action": lost.action})

    def _do_saut(self, ctx: Ctx, f: FighterState, d: ActionDef,
                 params: Mapping[str, Any], plan: Any) -> None:
        """D100-JUMP-1; the GM applies the fall's damage (``Encounter.adjust``)."""
        jump = roll_drop_jump(f.combatant, params["height"], ctx.rng, rules=ctx.rules)
        ctx.emit("saut", jump.describe(f.name), actor=f.name, rules=d.rules,
                 data=jump.to_json(), dice=jump.dice)

    def _do_saut_en_longueur(self, ctx: Ctx, f: FighterState, d: ActionDef,
                             params: Mapping[str, Any], plan: Any) -> None:
        """D100-JUMP-2."""
        jump = roll_long_jump(f.combatant, params["run_up"], ctx.rng, rules=ctx.rules)
        ctx.emit("saut_en_longueur", jump.describe(f.name), actor=f.name, rules=d.rules,
                 data=jump.to_json(), dice=jump.dice)

    def _do_generique(self, ctx: Ctx, f: FighterState, d: ActionDef,
                      params: Mapping[str, Any], plan: Any) -> None:
        details = params.get("details")
        if details is not None and not isinstance(details, str):
            raise EscarmoucheError(
                f"details = {details!r} : un texte est attendu (D100-ACT-3)",
                field="details", value=details, rule="D100-ACT-3",
            )
        suffix = f" : {details}" if details else ""
        ctx.emit("action", f"{f.name} : {d.label} ({COST_LABELS[d.cost]}){suffix}.",
                 actor=f.name, rules=d.rules, data={"action": d.id, "details": details})

    # -- automation ------------------------------------------------------------------

    def auto_action(self, ctx: Ctx, actor: str) -> tuple[str, dict[str, Any]] | None:
        """Automated fights: carry on an extended action, reload an empty ranged weapon,
        else an « attaque standard » on the first standing enemy (ranged: at short range),
        the defender parrying when it may, else dodging when it may."""
        f = ctx.fighter(actor)
        ext = self._extended(f.flags["extended"])
        if ext is not None:
            if ext.action == "recharger":
                return "recharger", {"hand": f.flags["extended_hand"]}
            return ext.action, {}
        enemies = ctx.enemies(actor)
        if not enemies:
            return None
        weapon = self._held(ctx, f, "directrice") or get_weapon("mains_nues")
        if weapon.ranged and weapon.reload and not f.flags["loaded"]["directrice"]:
            return "recharger", {"hand": "directrice"}
        target = enemies[0].name
        params: dict[str, Any] = {"target": target,
                                  "defence": self.best_defence(ctx, target, weapon.ranged)}
        if weapon.ranged:
            params["distance"] = weapon.short_range
        return "attaque_standard", params


SYSTEM = D100System()
