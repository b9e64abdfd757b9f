"""The hooks that plug the d12 rules into the encounter engine, and ``SYSTEM``."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from escarmouche import checks
from escarmouche.errors import IllegalActionError, invalid
from escarmouche.model import Combatant, DieRecord, Timing
from escarmouche.odds import OddsTable
from escarmouche.rng import ScriptedRolls
from escarmouche.state import ENVIRONMENT, Ctx, EncounterState, parsed
from escarmouche.systems.base import ActionSpec, EffectPreset, Move, Reactor, SituationDuel, System
from escarmouche.systems.d12 import kernel, kernel_doors, narration
from escarmouche.systems.d12.actions import RESOLVERS, catalogue
from escarmouche.systems.d12.explain import explain_initiative, explain_surprise
from escarmouche.systems.d12.initiative import (
    D12Initiative,
    InitiativeRoll,
    RollOff,
    initiative,
    roll_bonus_turn,
    roll_groups_after_bonus,
)
from escarmouche.systems.d12.lots import lot_sentence
from escarmouche.systems.d12.narration import BONUS_SCOPE
from escarmouche.systems.d12.odds import (
    SITUATIONS,
    bonus_turn_chances,
    first_to_act_chances,
    standard_odds,
)
from escarmouche.systems.d12.rules import (
    ALERT_TRAIT,
    ATTACK_DIE,
    BONUS_RANGE,
    DEFENCE_RANGE,
    FREE_COST,
    HP_RANGE,
    TRACK,
    Rules,
    check_bonus,
    check_defence,
    check_weapon,
    elapsed_minutes,
    elapsed_seconds,
)
from escarmouche.systems.describe import Chances, InitiativeReport, Situation, SurpriseReport
from escarmouche.text.fmt import de, die_of, join, quote

__all__ = ["DURATION_RULES", "START_OPTIONS", "SYSTEM", "D12System", "duration_event",
           "emit_groups", "emit_roll_offs", "initiative_event"]

#: the options ``Encounter.start`` accepts for d12
START_OPTIONS = ("embuscade_par", "environnement", "armes")
#: the attack parameter the rules fill when an attack names none (D12-CRIT-2: the
#: default critical option): the policy « par défaut » leaves it to them
_LEFT_TO_RULES = frozenset({"option"})


def _whose(current: str | None) -> str:
    """« de Grolk », « de l’environnement », « de personne »."""
    if current is None:
        return "de personne"
    return "de l’environnement" if current == ENVIRONMENT else de(current)


class D12System(System[Rules]):
    """The d12 rules in the encounter engine.

    Start options (``Encounter.start(rng, **options)``): ``embuscade_par`` (the side that
    ambushes: a bonus turn 0, D12-SURPRISE-1/2), ``environnement`` (``True`` adds the
    ``"environnement"`` slot at 12, D12-INIT-5) and ``armes`` (``{name: "1d8+2"}``;
    others use :attr:`Rules.default_weapon`). Initiative is rolled once, at the start,
    with :func:`~escarmouche.systems.d12.initiative.initiative` (its draw order).

    Each member of a group activates in the group's execution order (D12-INIT-4): the
    engine resolves each member's action when its turn in that order comes (the
    members decide together; « Communiquer » lets them share intentions while their
    group acts). The environment slot is activated like a fighter: the effects borne
    by ``"environnement"`` and timed at the start of an activation tick then (the GM
    resolves the event, then ends the activation).

    Actions: the catalogue is :attr:`Rules.actions` (D12-ACT-1, :meth:`catalogue`), each
    resolved by the resolver its ``kind`` names (``actions.RESOLVERS``). Fighters need
    ``PV`` (1–1000) and ``defense`` (0–40); ``attaque`` and ``init`` default to 0.
    """

    name: ClassVar[str] = "d12"
    title: ClassVar[str] = "Système d12 (initiative de groupe)"
    rule_prefix: ClassVar[str] = "D12"
    stat_bounds: ClassVar[Mapping[str, tuple[int, int, str]]] = {
        "PV": (*HP_RANGE, "CORE-ERR"), "defense": (*DEFENCE_RANGE, "D12-CRIT-1"),
        "attaque": (*BONUS_RANGE, "D12-CRIT-1"), "init": (*BONUS_RANGE, "D12-INIT-1")}
    combatant_keys: ClassVar[Mapping[str, str]] = MappingProxyType({
        "arme": "l’expression de dégâts de son arme, par exemple « 1d8+2 » (D12-CRIT-1)",
    })
    start_hint: ClassVar[str] = 'environnement=oui, embuscade_par=monstres'
    sample_roster: ClassVar[tuple[Combatant, ...]] = (
        Combatant("Aldric", "héros", {"init": 2, "attaque": 3, "defense": 12, "PV": 12}),
        Combatant("Brune", "héros", {"init": 1, "attaque": 2, "defense": 13, "PV": 10},
                  traits=frozenset({"alerte"})),
        Combatant("Grolk", "monstres", {"init": 0, "attaque": 4, "defense": 11, "PV": 14}),
    )
    initiative_options: ClassVar[Mapping[str, str]] = MappingProxyType({
        "environnement": "environnement (à 12, en dernier en cas d’égalité)",
    })
    initiative_stats: ClassVar[str] = "init (1d12 + init) et le camp (initiative de groupe)"
    traits: ClassVar[Mapping[str, str]] = MappingProxyType({
        ALERT_TRAIT: "alerte : joue au tour bonus d’une embuscade (D12-SURPRISE-2)",
    })
    rules_type = Rules
    tracks: ClassVar[tuple[str, ...]] = (TRACK,)
    #: effects tied to one fighter, ticking at the start of its turn (CORE-TIME-2)
    effect_presets: ClassVar[tuple[EffectPreset, ...]] = (
        EffectPreset("Poison", Timing.ACTIVATION_START, 3, {TRACK: -2},
                     keywords=frozenset({"poison"}), rules=("CORE-TIME-2",)),
        EffectPreset("Régénération", Timing.ACTIVATION_START, 3, {TRACK: 2},
                     rules=("CORE-TIME-2",)),
    )
    turn_word: ClassVar[str] = "tour"
    situation_duels: ClassVar[tuple[SituationDuel, ...]] = (
        SituationDuel(
            "option-par-defaut", "Duel où l’on garde l’option critique par défaut",
            "une vétérane contre une recrue\u202f; ni l’une ni l’autre ne choisit son option "
            "critique, les règles appliquent celle par défaut à chaque 12 naturel "
            "(politique «\u00a0par défaut\u00a0», D12-CRIT-2)",
            (Combatant("Vétérane", "vétérans", {"PV": 10, "defense": 12, "attaque": 1,
                                                "init": 1}),
             Combatant("Recrue", "recrues", {"PV": 10, "defense": 12})),
            policies={"vétérans": "par_defaut", "recrues": "par_defaut"}),
    )
    turn_rules: ClassVar[tuple[str, ...]] = ("D12-TIME-1", "D12-INIT-2")
    start_options: ClassVar[tuple[str, ...]] = START_OPTIONS
    # the d12 text gives no effect timing: effect ticks cite the engine's
    # (System.tick_rules, CORE-TIME-1..3)
    action_specs = catalogue(Rules())
    resolvers = RESOLVERS

    # -- rules (options) -----------------------------------------------------------------

    # -- roster --------------------------------------------------------------------------

    def validate(self, combatant: Combatant, rules: Rules) -> None:
        c = combatant
        checks.integer("PV", c.stat("PV"), lo=HP_RANGE[0], hi=HP_RANGE[1], rule="CORE-ERR",
                       who=c.name)
        check_defence(c.stat("defense"), c.name)
        check_bonus(c.stat("attaque", 0), c.name)
        check_bonus(c.stat("init", 0), c.name, stat="init", rule="D12-INIT-1")

    # -- the fight -----------------------------------------------------------------------

    # -- what the system says of itself -------------------------------------------------

    def standard_odds(self, rules: Rules) -> list[OddsTable]:
        return standard_odds(rules)

    def situations(self) -> tuple[Situation, ...]:
        return SITUATIONS

    def explain_initiative(self, combatants: Sequence[Combatant], rng: Any, rules: Rules,
                           options: Mapping[str, Any]) -> InitiativeReport:
        environment = checks.flag("environnement", options.get("environnement", False),
                                  "D12-INIT-5")
        return explain_initiative(combatants, rng, environment=environment, rules=rules)

    def first_to_act(self, combatants: Sequence[Combatant], rules: Rules,
                     options: Mapping[str, Any]) -> tuple[Chances, ...]:
        environment = checks.flag("environnement", options.get("environnement", False),
                                  "D12-INIT-5")
        return first_to_act_chances(combatants, environment=environment)

    def initiative_options_of(self, state: EncounterState) -> dict[str, Any]:
        init = state.system_state.get("initiative")
        return {"environnement": isinstance(init, dict)
                and bool(init.get("environment", False))}

    def explain_surprise(self, combatants: Sequence[Combatant], attackers: str,
                         unaware: bool, rng: Any, rules: Rules) -> SurpriseReport:
        report = explain_surprise(combatants, attackers, unaware, rng, rules=rules)
        if not unaware:
            return report
        return dataclasses.replace(report, chances=bonus_turn_chances(combatants, attackers))

    def start_entry(self, start: dict[str, Any], who: str, entry: Mapping[str, Any]
                    ) -> None:
        if "arme" in entry:
            weapons = dict(start.get("armes") or {})
            weapons[who] = entry["arme"]
            start["armes"] = weapons

    def start(self, ctx: Ctx[Rules], options: Mapping[str, Any]) -> None:
        """Roll initiative. After an ambush only the bonus turn is rolled now; group
        initiative is rolled when the bonus turn ends (:meth:`turn_order`,
        D12-SURPRISE-1)."""
        weapons = options.get("armes") or {}
        checks.mapping("armes", weapons, "D12-CRIT-2")
        for name, expr in weapons.items():
            checks.name_in("armes", name, ctx.state.fighters, "D12-CRIT-2")
            check_weapon(expr, str(name))
        roster = [f.combatant for f in ctx.state.fighters.values()]
        environment = checks.flag("environnement", options.get("environnement", False),
                                  "D12-INIT-5")
        ambush_by = options.get("embuscade_par")
        if ambush_by is None:
            init = initiative(roster, ctx.rng, environment=environment, rules=ctx.rules)
        else:
            init = roll_bonus_turn(roster, ctx.rng, ambush_by=ambush_by,
                                   environment=environment, rules=ctx.rules)
        st = ctx.state.system_state
        st["initiative"] = init.to_json()
        st["weapons"] = {str(k): str(v) for k, v in weapons.items()}
        st["order"] = init.order()
        st["bonus_turn"] = list(init.bonus_turn)
        st["group_of"] = {c.name: c.side for c in roster}
        st["acting_group"] = None
        if init.ambush_by is not None:
            ctx.emit(
                "surprise", narration.ambush_sentence(init),
                rules=("D12-SURPRISE-1", "D12-SURPRISE-2", "D12-INIT-1"),
                dice=[DieRecord(ATTACK_DIE, r.die, die_of("tour bonus", r.name))
                      for r in init.bonus_rolls],
                data={"ambush_by": init.ambush_by,
                      "rolls": [r.to_json() for r in init.bonus_rolls]},
            )
            emit_roll_offs(ctx, init.roll_offs)
        else:
            emit_groups(ctx, init)

    def ties_drawn_by_lot(self, state: EncounterState) -> int:
        """The lots of this fight's initiative (D12-INIT-6): perfect ties past the bound
        of rerolls and roll-offs past theirs."""
        init = state.system_state.get("initiative")
        if not isinstance(init, dict):
            return 0
        return len(init.get("lots", ())) + sum(len(ro.get("lots", ()))
                                               for ro in init.get("roll_offs", ()))

    def validate_state(self, state: EncounterState, rules: Rules) -> None:
        """A loaded save (CORE-LOG): the initiative is recomputed from its d12s, in their
        draw order (bonus turn, attempts, roll-offs), and must match; the weapons, the
        activation order, the bonus turn and the groups must be those it gives."""
        ss = state.system_state
        if not state.started and not ss:
            return
        roster = [f.combatant for f in state.fighters.values()]
        names = [c.name for c in roster]
        weapons = checks.mapping("system_state.weapons", ss.get("weapons", {}), "D12-CRIT-2")
        for name, expr in weapons.items():
            checks.name_in("system_state.weapons", name, names, "D12-CRIT-2")
            check_weapon(expr, str(name))
        stored = checks.mapping("system_state.initiative", ss.get("initiative"), "D12-INIT-1")
        where = "system_state.initiative"

        def dies(field: str, entries: object) -> list[int]:
            out = []
            for i, raw in enumerate(checks.sequence(f"{where}.{field}", entries, "D12-INIT-1")):
                entry = checks.mapping(f"{where}.{field}[{i}]", raw, "D12-INIT-1")
                out.append(checks.die(f"{where}.{field}[{i}].die", entry.get("die"),
                                      ATTACK_DIE, "D12-INIT-1"))
            return out

        bonus_dice = dies("bonus_rolls", stored.get("bonus_rolls"))
        group_dice: list[int] = []
        for i, attempt in enumerate(checks.sequence(f"{where}.attempts", stored.get("attempts"),
                                                    "D12-INIT-3")):
            group_dice += dies(f"attempts[{i}]", attempt)
        group_dice += _lot_dice(f"{where}.lots", stored.get("lots", []))
        for i, raw in enumerate(checks.sequence(f"{where}.roll_offs", stored.get("roll_offs"),
                                                "D12-INIT-4")):
            ro = checks.mapping(f"{where}.roll_offs[{i}]", raw, "D12-INIT-4")
            target = bonus_dice if ro.get("scope") == BONUS_SCOPE else group_dice
            for rnd in checks.sequence(f"{where}.roll_offs[{i}].rounds", ro.get("rounds"),
                                       "D12-INIT-4"):
                for pair in checks.sequence(f"{where}.roll_offs[{i}].rounds", rnd,
                                            "D12-INIT-4"):
                    two = checks.sequence(f"{where}.roll_offs[{i}].rounds", pair,
                                          "D12-INIT-4", min_len=2, max_len=2)
                    target.append(checks.die(f"{where}.roll_offs[{i}]", two[1], ATTACK_DIE,
                                             "D12-INIT-4"))
            target += _lot_dice(f"{where}.roll_offs[{i}].lots", ro.get("lots", []))
        environment = checks.flag(f"{where}.environment", stored.get("environment"),
                                  "D12-INIT-5")
        ambush_by = stored.get("ambush_by")
        out = [checks.name_in(f"{where}.out", n, names, "D12-SURPRISE-1")
               for n in checks.sequence(f"{where}.out", stored.get("out", []), "D12-SURPRISE-1")]
        bonus_rng, group_rng = ScriptedRolls(bonus_dice), ScriptedRolls(group_dice)
        if ambush_by is None:
            if out or bonus_dice:
                raise invalid(where, "…", "D12-SURPRISE-1",
                              "sans embuscade, pas de tour bonus ni de combattant absent")
            init = initiative(roster, group_rng, environment=environment, rules=rules)
        else:
            ambush_by = checks.name_in(f"{where}.ambush_by", ambush_by,
                                       {c.side for c in roster}, "D12-SURPRISE-1", what="camp")
            init = roll_bonus_turn(roster, bonus_rng, ambush_by=ambush_by,
                                   environment=environment, rules=rules)
            if group_dice:
                init = roll_groups_after_bonus(init, roster, group_rng, out=out, rules=rules)
        group_of = {c.name: c.side for c in roster}
        if (bonus_rng.remaining or group_rng.remaining or init.to_json() != dict(stored)
                or ss.get("order") != init.order()
                or ss.get("bonus_turn") != list(init.bonus_turn)
                or ss.get("group_of") != group_of):
            raise invalid(where, "…", "D12-INIT-1",
                          "l’initiative enregistrée ne correspond pas à ses dés")
        acting = ss.get("acting_group")
        if acting is not None and acting != ENVIRONMENT:
            checks.name_in("system_state.acting_group", acting, set(group_of.values()),
                           "D12-INIT-2", what="groupe")

    def first_turn(self, ctx: Ctx[Rules]) -> int:
        return 0 if ctx.state.system_state.get("bonus_turn") else 1

    def turn_order(self, ctx: Ctx[Rules], turn: int) -> list[str]:
        """The slots of ``turn``. At the first turn after an ambush's bonus turn, group
        initiative is rolled here, before « Début du tour 1 », by the fighters still in
        the fight (D12-SURPRISE-1: « Une fois leur tour terminé, vous pouvez lancer
        votre initiative de groupe »)."""
        st = ctx.state.system_state
        if turn >= 1:
            init = parsed(st["initiative"], D12Initiative.from_json)
            if init.pending:
                self._roll_groups_after_bonus(ctx, init)
        slots = st["bonus_turn"] if turn == 0 else st["order"]
        assert isinstance(slots, list)
        return [str(n) for n in slots]

    def _roll_groups_after_bonus(self, ctx: Ctx[Rules], init: D12Initiative) -> None:
        fighters = ctx.state.fighters
        roster = [f.combatant for f in fighters.values()]
        out = [n for n, f in fighters.items() if not f.standing]
        ctx.emit("fin_surprise", narration.bonus_turn_over_sentence(out),
                 rules=("D12-SURPRISE-1",), data={"out": out})
        init = roll_groups_after_bonus(init, roster, ctx.rng, out=out, rules=ctx.rules)
        st = ctx.state.system_state
        st["initiative"] = init.to_json()
        st["order"] = init.order()
        emit_groups(ctx, init)

    def on_turn_start(self, ctx: Ctx[Rules]) -> None:
        st = ctx.state.system_state
        st["acting_group"] = None
        bonus = st.get("bonus_turn")
        assert isinstance(bonus, list)
        if ctx.state.turn == 0:
            ctx.emit(
                "tour_bonus",
                f"Tour bonus de l’embuscade : seuls agissent {join(map(str, bonus))}, "
                "dans l’ordre de leur initiative individuelle ; l’initiative de groupe se "
                "lancera à la fin de ce tour (D12-SURPRISE-1, D12-SURPRISE-2).",
                rules=("D12-SURPRISE-1", "D12-SURPRISE-2"),
            )

    def on_activation_start(self, ctx: Ctx[Rules], actor: str) -> bool:
        st = ctx.state.system_state
        if actor == ENVIRONMENT:
            st["acting_group"] = ENVIRONMENT
            current = [e.name for e in ctx.effects_of(ENVIRONMENT)]
            init = parsed(st["initiative"], D12Initiative.from_json)
            tied = any(t.rule == "D12-INIT-5" for t in init.group_ties)
            ctx.emit("environnement", narration.environment_sentence(current, tied),
                     actor=ENVIRONMENT, rules=("D12-INIT-5",), data={"effects": current})
            return True
        if ctx.state.turn >= 1:
            group_of = st["group_of"]
            assert isinstance(group_of, dict)
            side = group_of.get(actor)
            if side is not None and st.get("acting_group") != side:
                st["acting_group"] = side
                init = parsed(st["initiative"], D12Initiative.from_json)
                members = next(m for s, m in init.groups if s == side)
                standing = [n for n in members if ctx.state.fighters[n].standing]
                value = next(g.value for g in init.group_results if g.side == side)
                ctx.emit(
                    "groupe",
                    lambda: narration.group_acts_sentence(str(side), value, standing),
                    actor=actor, rules=("D12-INIT-2", "D12-INIT-4"),
                    data={"side": side, "value": value, "order": standing},
                )
        return True

    # -- actions -------------------------------------------------------------------------

    def catalogue(self, rules: Rules) -> Mapping[str, ActionSpec]:
        """The action list of ``rules`` (D12-ACT-1: editable data), by id (read-only; built
        once per list of actions, a tuple of frozen specs, asked at every action)."""
        if type(rules.actions) is not tuple:
            return catalogue(rules)
        return parsed(rules.actions, lambda _: MappingProxyType(catalogue(rules)))

    def _group_acting(self, ctx: Ctx[Rules], actor: str) -> bool:
        current = ctx.state.current
        f = ctx.state.fighters.get(current or "")
        return f is not None and f.side == ctx.fighter(actor).side

    def actions(self, ctx: Ctx[Rules], actor: str) -> Sequence[ActionSpec]:
        """Every action on the actor's own activation; only the free ones (« Communiquer »)
        while an ally of its group acts (D12-ACT-1, D12-INIT-4)."""
        f = ctx.state.fighters.get(actor)
        if f is None or not f.standing or not ctx.state.started or ctx.state.finished:
            return ()
        actions = tuple(self.catalogue(ctx.rules).values())
        if ctx.state.current == actor:
            return actions
        if self._group_acting(ctx, actor):
            return tuple(a for a in actions if a.cost == FREE_COST)
        return ()

    def check_legal(self, ctx: Ctx[Rules], actor: str, spec: ActionSpec) -> None:
        """No action economy is invented (D12-ACT-1): any number of actions on one's own
        activation; a free action also while an ally of the group acts (D12-INIT-4)."""
        fighter = ctx.fighter(actor)
        if not fighter.standing:
            raise invalid("acteur", actor, "D12-ACT-1",
                          "ce combattant est hors de combat et ne peut plus agir",
                          kind=IllegalActionError)
        if ctx.state.current == actor:
            return
        if spec.cost == FREE_COST:
            if not self._group_acting(ctx, actor):
                raise invalid("acteur", actor, "D12-ACT-1",
                              f"{quote(spec.label)} est une action libre, possible pendant "
                              "que son groupe agit, pas maintenant (D12-INIT-4)",
                              kind=IllegalActionError)
            return
        # one parenthesis: the turn's owner said in the clause, the rule once (B118)
        raise invalid("acteur", actor, "D12-INIT-4",
                      "ce n’est pas son tour, c’est celui "
                      f"{_whose(ctx.state.current)}", kind=IllegalActionError)

    def auto_action(self, ctx: Ctx[Rules], actor: str) -> tuple[str, dict[str, Any]] | None:
        """Attack a standing enemy: preferably one that an advantage effect targets,
        else the one with the fewest PV; the critical option is the best one against
        its defence (:func:`~escarmouche.systems.d12.odds.best_critical_option`, cached):
        the first of the rules kernel's :func:`~escarmouche.systems.d12.kernel.choices`
        on a view of the live fight (:func:`.kernel_doors.view`)."""
        sheet, st, me = kernel_doors.view(ctx, actor, attacked=False)
        if me < 0:
            return None
        for _, target, option in kernel.choices(sheet, st, me):
            return "attaquer", {"cible": sheet.names[target], "option": option}
        return None

    def moves(self, ctx: Ctx[Rules], actor: str, done: Sequence[str], react: Reactor
              ) -> list[Move]:
        """Candidate moves: one attack per activation in automated play (D12-ACT-1
        invents no action economy; this is the GM's convention), the critical option
        declared with it (D12-CRIT-2): the rules kernel's legal moves
        (:func:`escarmouche.systems.d12.kernel.candidates`, the only list of them, on
        :func:`.kernel_doors.view` of the fight). First the :meth:`auto_action` choice
        (target and best option by expected damage), then the other options on that
        target, then the other targets with their best option. The attack with option
        (a) « dégâts maximum » is also tagged ``"sur"`` (no damage roll: what a cautious
        policy plays)."""
        sheet, st, me = kernel_doors.view(ctx, actor, attacked="attaquer" in done)
        if me < 0:
            return []
        names = sheet.names
        return [Move("attaquer", {"cible": names[target], "option": option},
                     frozenset(tags), _LEFT_TO_RULES)
                for tags, target, option in kernel.candidates(sheet, st, me)]

    def kernel(self, template: Any, start_options: Mapping[str, Any],
               policies: Mapping[str, Any]) -> Any:
        """The d12 rules kernel's sheet for these fights, when it covers them
        (:func:`escarmouche.systems.d12.kernel.compile_sheet`); ``None``: the engine
        plays them."""
        from escarmouche.systems.d12.kernel import compile_sheet

        return compile_sheet(template, start_options, policies)

    def narrated_run(self, kernel: Any, rng: Any, max_turns: int, tactics_rng: Any = None
                     ) -> Any:
        """The full engine's fight on the d12 rules kernel
        (:func:`escarmouche.systems.d12.kernel_doors.narrated_run`: every fight the kernel
        covers); ``tactics_rng``, the tactics stream of the policy « au hasard », as
        ``Encounter.run`` takes it."""
        return kernel_doors.narrated_run(kernel, rng, max_turns, tactics_rng)

    def on_end(self, ctx: Ctx[Rules]) -> None:
        """Give the fight's conventional duration (D12-TIME-1): the turns begun, bonus
        turn included."""
        turns = sum(1 for e in ctx.state.log if e.kind == "debut_tour")
        text, data = duration_event(turns)
        ctx.emit("duree", text, rules=DURATION_RULES, data=data)


SYSTEM = D12System()


#: the rules of the fight's duration (``D12System.on_end``)
DURATION_RULES = ("D12-TIME-1",)


def duration_event(turns: int) -> tuple[str, dict[str, Any]]:
    """The sentence and data of the fight's conventional duration after ``turns`` turns
    begun, bonus turn included (D12-TIME-1: ``D12System.on_end``)."""
    seconds = elapsed_seconds(turns)
    minutes = elapsed_minutes(turns)
    return (narration.duration_sentence(turns, seconds, minutes),
            {"turns": turns, "seconds": list(seconds),
             "minutes": [minutes.numerator, minutes.denominator]})


def initiative_event(attempt: int, rolls: Sequence[InitiativeRoll]
                     ) -> tuple[Callable[[], str], tuple[str, ...], list[DieRecord],
                                dict[str, Any]]:
    """The event of the ``attempt``-th set of group-initiative rolls (D12-INIT-1, a
    reroll after a perfect tie, D12-INIT-3): its sentence (a function: written only in
    the full engine), rules, dice and data."""
    return (functools.partial(narration.initiative_rolls_sentence, rolls, attempt > 1),
            ("D12-INIT-1",),
            [DieRecord(ATTACK_DIE, r.die, die_of("initiative", r.name)) for r in rolls],
            {"attempt": attempt, "rolls": [r.to_json() for r in rolls]})


def emit_roll_offs(ctx: Ctx[Rules], roll_offs: Sequence[RollOff]) -> None:
    """The roll-offs' events (D12-INIT-4), each with its dice (the lots' too, D12-INIT-6)."""
    for ro in roll_offs:
        ctx.emit(
            "departage", narration.roll_off_sentence(ro), rules=("D12-INIT-4",),
            dice=[DieRecord(ATTACK_DIE, v, die_of("départage", n))
                  for r in ro.rounds for n, v in r]
            + [DieRecord(f, d, "tirage au sort")
               for lot in ro.lots for f, d in zip(lot.faces(), lot.dice, strict=True)],
            data=ro.to_json(),
        )


def emit_groups(ctx: Ctx[Rules], init: D12Initiative) -> None:
    """The group-initiative events (``D12System.start``, and the narration of the rules
    kernel's fights, :func:`.kernel_doors.narrated_run`): rolls (and rerolls), lots,
    roll-offs, the order, each with its dice."""
    for i, attempt in enumerate(init.attempts, 1):
        text, rules, dice, data = initiative_event(i, attempt)
        ctx.emit("initiative", text, rules=rules, dice=dice, data=data)
        for pt in init.perfect_ties:
            if pt.attempt == i:
                ctx.emit("egalite_parfaite", narration.perfect_tie_sentence(pt),
                         rules=("D12-INIT-3",), dice=(), data=pt.to_json())
    for lot in init.lots:
        ctx.emit("tirage_au_sort", lot_sentence(lot), rules=("D12-INIT-3", "D12-INIT-6"),
                 dice=[DieRecord(f, d, "tirage au sort")
                       for f, d in zip(lot.faces(), lot.dice, strict=True)],
                 data=lot.to_json())
    emit_roll_offs(ctx, [ro for ro in init.roll_offs if ro.scope != BONUS_SCOPE])
    ctx.emit("ordre_initiative", lambda: narration.group_order_sentence(init),
             rules=init.rules, dice=(), data=init.to_json)


def _lot_dice(where: str, lots: object) -> list[int]:
    """The dice of the lots of a stored initiative (D12-INIT-6), in draw order: each has
    as many faces as tied names were left."""
    out: list[int] = []
    for i, raw in enumerate(checks.sequence(where, lots, "D12-INIT-6")):
        lot = checks.mapping(f"{where}[{i}]", raw, "D12-INIT-6")
        tied = checks.sequence(f"{where}[{i}].tied", lot.get("tied"), "D12-INIT-6")
        dice = checks.sequence(f"{where}[{i}].dice", lot.get("dice"), "D12-INIT-6",
                               max_len=max(len(tied) - 1, 0))
        out += [checks.die(f"{where}[{i}].dice", d, len(tied) - k, "D12-INIT-6")
                for k, d in enumerate(dice)]
    return out
