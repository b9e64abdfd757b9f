"""The hooks that plug the d20 rules into the encounter engine, and ``SYSTEM``.

Only the hooks live here; the rules they apply are in the other modules of the package
(initiative, actions and their budget, reactions, grid, saves, narration).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any, ClassVar

from escarmouche import checks
from escarmouche.errors import invalid
from escarmouche.model import Combatant, Effect, Json, Timing
from escarmouche.odds import OddsTable
from escarmouche.state import Ctx, EncounterState, FighterState
from escarmouche.systems.base import ActionSpec, EffectPreset, Move, Reactor, SituationDuel, System
from escarmouche.systems.d20 import actions, grid, kernel, kernel_doors
from escarmouche.systems.d20.initiative import (
    InitiativeRoll,
    explain_initiative,
    explain_surprise,
    initiative_dice,
    initiative_order,
    initiative_sentence,
    roll_initiative,
    tie_groups,
)
from escarmouche.systems.d20.narration import (
    announce_start_phase,
    end_of_turn_sentence,
    last_activation,
    placement_sentence,
    round_sentence,
)
from escarmouche.systems.d20.odds import SITUATIONS, first_to_act_chances, standard_odds
from escarmouche.systems.d20.reactions import can_react, turn_key
from escarmouche.systems.d20.rules import (
    BONUS_RANGE,
    CATEGORIES,
    DEFENCE_RANGE,
    HP_RANGE,
    IMMEDIATE_POWERS,
    INITIATIVE_DIE,
    MAX_ACTION_POINTS,
    MAX_PLANNED_ACTIONS,
    OTHER_START_EFFECTS,
    RACIAL_SAVE_BONUSES,
    ROUND_SECONDS,
    SPEED_RANGE,
    START_PHASE_ORDER,
    TRACK,
    Rules,
    action_points_of,
    immediate_resets,
)
from escarmouche.systems.d20.saves import end_of_turn_saves
from escarmouche.systems.describe import Chances, InitiativeReport, Situation, SurpriseReport
from escarmouche.text.fmt import de, signed

__all__ = ["SYSTEM", "D20System"]

#: the stats a combatant may have, with their bounds and rule
_STATS: tuple[tuple[str, tuple[int, int], str], ...] = (
    ("init", BONUS_RANGE, "D20-INIT-1"),
    ("attaque", BONUS_RANGE, "CORE-ERR"),
    ("defense", DEFENCE_RANGE, "CORE-ERR"),
    ("VD", SPEED_RANGE, "D20-ACT-1"),
    ("PA", (0, MAX_ACTION_POINTS), "D20-ACT-3"),
)


class D20System(System[Rules]):
    """The d20 rules plugged into the encounter engine (see the package docstring).

    Actions (``Encounter.act(actor, action, rng, **params)``), from :data:`ACTIONS`:

    * on one's own turn, using the budget (D20-ACT-*): ``attaquer`` (standard; ``cible``,
      or ``cibles`` for ``portee="zone"``; ``portee`` among :data:`ATTACK_RANGES`,
      default ``"corps_a_corps"``, which needs an adjacent target; ``bonus``, ``arme``,
      ``reactions``), ``deplacement`` (move; ``chemin``: the squares entered, in order;
      ``reactions``), ``degainer``, ``ouvrir_porte`` (minor), and the generic
      ``simple``, ``mouvement``, ``mineure`` (``description``); ``point_action`` spends an
      action point for one more standard slot (D20-ACT-3);
    * any time: ``parler``, ``lacher_objet``, ``libre`` (free actions, GM permitting);
    * out of one's turn: ``interruption`` / ``reaction`` (D20-IMM-*; ``declencheur``: the
      trigger, in words; ``effet`` ``"attaque"`` with ``cible`` or ``"autre"``); an
      immediate action or opportunity attack against an engine action is declared in
      that action's ``reactions``: a list of ``{"par": name, "type":
      "attaque_opportunite" | "interruption" | "reaction", "effet": "attaque" | "arret"
      | "autre", "cible", "bonus", "arme", "nom"}``;
    * the GM: ``placer`` (``case=[x, y]``).
    """

    name: ClassVar[str] = "d20"
    title: ClassVar[str] = "Système d20 (séquence de tour)"
    rule_prefix: ClassVar[str] = "D20"
    #: the moves are the rules kernel's candidates, legal by construction
    legal_moves: ClassVar[bool] = True
    stat_bounds: ClassVar[Mapping[str, tuple[int, int, str]]] = {
        name: (lo, hi, rule) for name, (lo, hi), rule in _STATS}
    combatant_keys: ClassVar[Mapping[str, str]] = {
        "position": "sa case de départ, [colonne, ligne] (D20-OPP-1)",
    }
    start_hint: ClassVar[str] = 'positions={"Aldric": [0, 0], "Grolk": [1, 0]}'
    sample_roster: ClassVar[tuple[Combatant, ...]] = (
        Combatant("Aldric", "héros", {"init": 2, "attaque": 5, "defense": 15, "PV": 24},
                  traits=frozenset({"nain"})),
        Combatant("Brune", "héros", {"init": 4, "attaque": 4, "defense": 14, "PV": 18},
                  traits=frozenset({"halfelin"})),
        Combatant("Grolk", "monstres", {"init": 1, "attaque": 4, "defense": 12, "PV": 30}),
    )
    initiative_stats: ClassVar[str] = "init (1d20 + init)"
    traits: ClassVar[Mapping[str, str]] = {
        trait: f"{trait} : " + ", ".join(f"{signed(bonus)} aux sauvegardes ({keyword})"
                                         for keyword, bonus in bonuses.items())
        + " (D20-END-1)"
        for trait, bonuses in RACIAL_SAVE_BONUSES.items()}
    rules_type = Rules
    tracks: ClassVar[tuple[str, ...]] = (TRACK,)
    #: ongoing damage and regeneration at the start of the turn (D20-START-1), ended by
    #: a saving throw (D20-END-1); « hébété » ends at the end of the turn (D20-END-2)
    effect_presets: ClassVar[tuple[EffectPreset, ...]] = (
        EffectPreset("Dégâts continus", Timing.ACTIVATION_START, None, {TRACK: -5},
                     save_ends=True, rules=("D20-START-1", "D20-END-1")),
        EffectPreset("Poison", Timing.ACTIVATION_START, None, {TRACK: -3}, save_ends=True,
                     keywords=frozenset({"poison"}), rules=("D20-START-1", "D20-END-1")),
        EffectPreset("Terreur", Timing.ACTIVATION_END, None, save_ends=True,
                     keywords=frozenset({"terreur"}), rules=("D20-END-1",)),
        EffectPreset("Régénération", Timing.ACTIVATION_START, None, {TRACK: 2},
                     rules=("D20-START-1",)),
        EffectPreset("Hébété", Timing.ACTIVATION_END, 1, rules=("D20-END-2",)),
    )
    turn_word: ClassVar[str] = "round"
    situation_duels: ClassVar[tuple[SituationDuel, ...]] = (
        SituationDuel(
            "a-quinze-cases", "Duel à quinze cases contre une recrue empoisonnée",
            "une vétérane et une recrue sans défense déclarée, empoisonnée, partent à quinze "
            "cases l’une de l’autre, avec trois points d’action chacune\u00a0: la vitesse, "
            "la défense par défaut, les points d’action dépensés par tour et le jet de "
            "sauvegarde qui met fin au poison comptent (D20-ACT-1, D20-ACT-3, D20-OPP-2, "
            "D20-END-1)",
            (Combatant("Vétérane", "vétérans", {"PV": 20, "attaque": 5, "defense": 14,
                                                "init": 2, "PA": 3}),
             Combatant("Recrue", "recrues", {"PV": 20, "attaque": 4, "PA": 3})),
            {"positions": {"Vétérane": [0, 0], "Recrue": [15, 0]}},
            effects=(("Poison", "Recrue"),)),
        SituationDuel(
            "halfeline-entre-deux", "Une halfeline prise entre deux pillards",
            "une halfeline, au contact de deux pillards qui l’encadrent, oppose sa "
            "Deuxième chance (une interruption immédiate) à la première attaque qui la vise "
            "chaque fois que son action immédiate lui revient : le moment où ce droit "
            "revient compte (D20-IMM-1), et aussi ce que devient l’action simple du pillard "
            "dont l’attaque est annulée, perdue ou rendue pour frapper encore (D20-IMM-2, "
            "D20-ACT-1)",
            (Combatant("Halfeline", "halfelins", {"PV": 16, "attaque": 6, "defense": 13,
                                                 "init": 3},
                       traits=frozenset({"halfelin"})),
             Combatant("Pillard A", "pillards", {"PV": 16, "attaque": 6, "defense": 12,
                                                 "init": 2}),
             Combatant("Pillard B", "pillards", {"PV": 16, "attaque": 6, "defense": 12,
                                                 "init": 2})),
            {"positions": {"Halfeline": [1, 0], "Pillard A": [0, 0], "Pillard B": [2, 0]}}),
    )
    turn_rules: ClassVar[tuple[str, ...]] = ("D20-TIME-1",)
    start_options: ClassVar[tuple[str, ...]] = ("positions",)
    #: the d20 text times effects at the start and the end of a creature's turn; effects
    #: of the whole round follow the engine (CORE-TIME-1, CORE-TIME-3)
    tick_rules: ClassVar[Mapping[Timing, tuple[str, ...]]] = {
        Timing.TURN_START: ("CORE-TIME-1",),
        Timing.ACTIVATION_START: ("D20-START-1",),
        Timing.ACTIVATION_END: ("D20-END-2",),
        Timing.TURN_END: ("CORE-TIME-3",),
    }
    action_specs = actions.ACTIONS
    resolvers = actions.RESOLVERS

    # -- roster ----------------------------------------------------------------------

    def validate(self, combatant: Combatant, rules: Rules) -> None:
        who = combatant.name
        if TRACK not in combatant.stats:
            raise invalid(TRACK, None, "CORE-ERR",
                          f"les points de vie sont requis pour {who}")
        checks.integer(TRACK, combatant.stats[TRACK], lo=HP_RANGE[0], hi=HP_RANGE[1],
                       rule="CORE-ERR", who=who)
        for stat, (lo, hi), rule in _STATS:
            if stat in combatant.stats:
                checks.integer(stat, combatant.stats[stat], lo=lo, hi=hi, rule=rule, who=who)

    def initial_tracks(self, combatant: Combatant, rules: Rules) -> dict[str, int]:
        return {TRACK: combatant.stat(TRACK)}

    # -- the fight -------------------------------------------------------------------

    def ties_drawn_by_lot(self, state: EncounterState) -> int:
        """The ties of this fight's initiative settled by lot (D20-INIT-2)."""
        init = state.system_state.get("initiative")
        rolls = init.get("rolls", ()) if isinstance(init, dict) else ()
        return len({(r.get("die", 0) + r.get("modifier", 0), r.get("modifier"),
                     tuple(r.get("roll_offs", ()))) for r in rolls if r.get("lot")})

    def validate_state(self, state: EncounterState, rules: Rules) -> None:
        """A loaded save (CORE-LOG): the initiative's dice are d20s, its modifiers the
        combatants' ``init``, no tie is left and the order is the one its dice give
        (D20-INIT-1); each fighter's square, action points, turn budget and reactions
        are what the rules read (D20-ACT-*, D20-OPP-*, D20-IMM-*)."""
        if not state.started and not state.system_state:
            return
        roster = [f.combatant for f in state.fighters.values()]
        names = [c.name for c in roster]
        stored = checks.mapping("system_state.initiative", state.system_state.get("initiative"),
                                "D20-INIT-1")
        entries = checks.sequence("system_state.initiative.rolls", stored.get("rolls"),
                                  "D20-INIT-1", min_len=len(roster), max_len=len(roster))
        rolls = []
        for i, (c, raw) in enumerate(zip(roster, entries, strict=True)):
            where = f"system_state.initiative.rolls[{i}]"
            entry = checks.mapping(where, raw, "D20-INIT-1")
            if entry.get("name") != c.name or entry.get("modifier") != c.stat("init", 0):
                raise invalid(where, entry.get("name"), "D20-INIT-1",
                              f"le jet {de(c.name)} avec son modificateur d’initiative est "
                              "attendu")
            offs = checks.sequence(f"{where}.roll_offs", entry.get("roll_offs"), "D20-INIT-1",
                                   max_len=rules.max_roll_off_rounds)
            rolls.append(InitiativeRoll(
                c.name, checks.die(f"{where}.die", entry.get("die"), INITIATIVE_DIE,
                                   "D20-INIT-1"), c.stat("init", 0),
                tuple(checks.die(f"{where}.roll_offs", v, INITIATIVE_DIE, "D20-INIT-1")
                      for v in offs),
                checks.integer(f"{where}.lot", entry.get("lot", 0), lo=0, hi=len(roster),
                               rule="D20-INIT-2")))
        if (stored.get("order") != list(initiative_order(rolls))
                or tie_groups({r.name: r for r in rolls}, names)):
            raise invalid("system_state.initiative.order", "…", "D20-INIT-1",
                          "l’ordre enregistré ne correspond pas aux dés")
        if state.started:
            for f in state.fighters.values():
                self._validate_flags(f.name, f.flags)

    @staticmethod
    def _validate_flags(name: str, flags: Mapping[str, Json]) -> None:
        where = f"flags {de(name)}"
        missing = sorted({"pos", "pa", "budget", "opportunite", "immediate"} - set(flags))
        if missing:
            raise invalid(f"{where}.{missing[0]}", None, "D20-ACT-1", "champ manquant")
        pos = flags["pos"]
        if pos is not None:
            grid.check_square(pos, f"{where}.pos", "D20-OPP-2")
        checks.integer(f"{where}.pa", flags["pa"], lo=0, hi=MAX_ACTION_POINTS, rule="D20-ACT-3")
        budget = checks.mapping(f"{where}.budget", flags["budget"], "D20-ACT-1")
        for i, category in enumerate(checks.sequence(f"{where}.budget.actions",
                                                     budget.get("actions"), "D20-ACT-1",
                                                     max_len=MAX_PLANNED_ACTIONS)):
            checks.choice(f"{where}.budget.actions[{i}]", category, CATEGORIES, "D20-ACT-1")
        checks.integer(f"{where}.budget.points", budget.get("points"), lo=0,
                       hi=MAX_ACTION_POINTS, rule="D20-ACT-3")
        if set(budget) != {"actions", "points"}:
            raise invalid(f"{where}.budget", "…", "D20-ACT-1", "champs inattendus")
        opportunity = flags["opportunite"]
        if opportunity is not None:
            pair = checks.sequence(f"{where}.opportunite", opportunity, "D20-OPP-1",
                                   min_len=2, max_len=2)
            for v in pair:
                checks.integer(f"{where}.opportunite", v, lo=-1, hi=1_000_000,
                               rule="D20-OPP-1")
        checks.flag(f"{where}.immediate", flags["immediate"], "D20-IMM-1")

    # -- what the system says of itself -------------------------------------------------

    def standard_odds(self, rules: Rules) -> list[OddsTable]:
        return standard_odds(rules)

    def situations(self) -> tuple[Situation, ...]:
        return SITUATIONS

    def explain_initiative(self, combatants: Sequence[Combatant], rng: Any, rules: Rules,
                           options: Mapping[str, Any]) -> InitiativeReport:
        return explain_initiative(combatants, rng, rules=rules)

    def first_to_act(self, combatants: Sequence[Combatant], rules: Rules,
                     options: Mapping[str, Any]) -> tuple[Chances, ...]:
        return first_to_act_chances(combatants, rules=rules)

    def explain_surprise(self, combatants: Sequence[Combatant], attackers: str,
                         unaware: bool, rng: Any, rules: Rules) -> SurpriseReport:
        return explain_surprise(combatants, attackers, unaware, rng, rules=rules)

    def start_entry(self, start: dict[str, Any], who: str, entry: Mapping[str, Any]
                    ) -> None:
        if "position" in entry:
            squares = dict(start.get("positions") or {})
            squares[who] = list(entry["position"])
            start["positions"] = squares

    def start(self, ctx: Ctx[Rules], options: Mapping[str, Any]) -> None:
        fighters = list(ctx.state.fighters.values())
        positions = grid.initial_positions(ctx, options.get("positions"))
        ini = roll_initiative([f.combatant for f in fighters], ctx.rng, rules=ctx.rules)
        ctx.state.system_state["initiative"] = ini.to_json()
        for f in fighters:
            square = positions.get(f.name)
            f.flags["pos"] = list(square) if square is not None else None
            f.flags["pa"] = action_points_of(f.combatant, ctx.rules)
            f.flags["budget"] = {"actions": [], "points": 0}
            f.flags["opportunite"] = None
            f.flags["immediate"] = False
        dice = initiative_dice(ini.rolls, [(d.faces, d.value) for d in ctx.rng.take()])
        ctx.emit("initiative", lambda: initiative_sentence(ini.rolls, ini.order),
                 rules=("D20-INIT-1",), data=ini.to_json(), dice=dice)
        if positions:
            ctx.emit("placement", placement_sentence(positions), rules=("D20-OPP-2",),
                     data={"positions": {n: list(p) for n, p in positions.items()}})

    def turn_order(self, ctx: Ctx[Rules], turn: int) -> list[str]:
        """Every round, the initiative order: each creature's turn once (D20-TIME-1)."""
        return [str(n) for n in ctx.state.system_state["initiative"]["order"]]

    def effect_sort_key(self, effect: Effect) -> int:
        """Ongoing damage, then regeneration, then other effects (D20-START-1)."""
        return START_PHASE_ORDER.get(effect.kind, OTHER_START_EFFECTS)

    def on_turn_start(self, ctx: Ctx[Rules]) -> None:
        n = ctx.state.turn
        ctx.emit("round", lambda: round_sentence(n), rules=("D20-TIME-1",),
                 data={"round": n, "start_s": (n - 1) * ROUND_SECONDS,
                       "end_s": n * ROUND_SECONDS})
        if immediate_resets(ctx.rules, "debut_du_round"):
            for f in ctx.state.fighters.values():
                f.flags["immediate"] = False

    def on_activation_start(self, ctx: Ctx[Rules], actor: str) -> bool:
        f = ctx.fighter(actor)
        f.flags["budget"] = {"actions": [], "points": 0}
        if immediate_resets(ctx.rules, "debut_de_son_tour"):
            f.flags["immediate"] = False
        announce_start_phase(ctx, actor)
        return True

    def on_activation_end(self, ctx: Ctx[Rules], actor: str) -> None:
        f = ctx.state.fighters.get(actor)
        if f is None:
            return
        if not f.standing:
            # Knocked out by its own start-of-turn effects: the engine skipped
            # on_activation_start, so announce the start phase here.
            log = ctx.state.log
            last = last_activation(log, actor)
            if not any(e.kind == "debut_de_tour" for e in log[last + 1:]):
                announce_start_phase(ctx, actor)
            return
        end_of_turn_saves(ctx, actor)
        ending = [e for e in ctx.effects_of(actor, Timing.ACTIVATION_END) if e.remaining == 1]
        names = [e.name for e in ending]
        ctx.emit("fin_de_tour", lambda: end_of_turn_sentence(actor, names),
                 actor=actor, rules=("D20-END-2",), data={"ending": [e.id for e in ending]})
        for e in ending:
            if not e.per_tick:
                # the end-of-turn sentence already says it ends: one event, one sentence
                # (an effect with a last tick to apply is left to the engine's tick)
                ctx.remove_effect(e.id, why="prend fin", rules=("D20-END-2",), announce=False)

    # -- actions ---------------------------------------------------------------------

    def actions(self, ctx: Ctx[Rules], actor: str) -> Sequence[ActionSpec]:
        return actions.available_actions(ctx, actor)

    def offered(self, ctx: Ctx[Rules], actor: str, ids: AbstractSet[str]
                ) -> AbstractSet[str]:
        return actions.offered_actions(ctx, actor, ids)

    def check_legal(self, ctx: Ctx[Rules], actor: str, spec: ActionSpec) -> None:
        actions.check_legal(ctx, actor, spec)

    def auto_action(self, ctx: Ctx[Rules], actor: str) -> tuple[str, dict[str, Any]] | None:
        """Attack the weakest adjacent enemy; else move towards the nearest one, with
        every opportunity attack its enemies may take declared (a GM's default)."""
        f = ctx.fighter(actor)
        here = grid.position(f)
        if here is None or not f.standing:
            return None
        enemies = [(e, p) for e in ctx.enemies(actor) if (p := grid.position(e)) is not None]
        if not enemies:
            return None
        adjacent = [e for e, p in enemies if grid.distance(here, p) == 1]
        if adjacent:
            target = min(adjacent, key=lambda e: (e.tracks[TRACK], e.name))
            return "attaquer", {"cible": target.name}
        goal = min(enemies, key=lambda ep: (grid.distance(here, ep[1]), ep[0].name))[1]
        path = grid.path_towards(ctx, f, goal)
        if not path:
            return None
        squares = [here, *path]
        key = turn_key(ctx)
        reactions = [{"par": e.name, "type": "attaque_opportunite"} for e, p in enemies
                     if e.flags.get("opportunite") != key
                     and any(grid.distance(s, p) == 1 for s in squares[:-1])]
        params: dict[str, Any] = {"chemin": [list(s) for s in path]}
        if reactions:
            params["reactions"] = reactions
        return "deplacement", params

    def kernel(self, template: Any, start_options: Mapping[str, Any],
               policies: Mapping[str, Any]) -> Any:
        """The d20 rules kernel's sheet for these fights, when it covers them
        (:func:`escarmouche.systems.d20.kernel.compile_sheet`); ``None``: the engine
        plays them."""
        from escarmouche.systems.d20.kernel import compile_sheet

        return compile_sheet(template, start_options, policies)

    def narrated_run(self, kernel: Any, rng: Any, max_turns: int, tactics_rng: Any = None
                     ) -> Any:
        """The full engine's fight on the d20 rules kernel
        (:func:`escarmouche.systems.d20.kernel_doors.narrated_run`)."""
        return kernel_doors.narrated_run(kernel, rng, max_turns)

    def moves(self, ctx: Ctx[Rules], actor: str, done: Sequence[str], react: Reactor
              ) -> list[Move]:
        """The turn's action economy for the policies (D20-ACT-1..3): the rules kernel's
        legal moves (:func:`escarmouche.systems.d20.kernel.candidates`, the only list of
        them, on :func:`~escarmouche.systems.d20.kernel_doors.view` of the fight): next
        to an enemy, attack (the weakest first); when the turn's actions allow no more
        attack, spend an action point for one more (« effort », D20-ACT-3); else move
        towards the nearest enemy (a move action, or the standard action used as a
        move, D20-ACT-2), each enemy's policy saying whether it takes its opportunity
        attack (D20-OPP-1/2). An attacked enemy with an immediate power of
        :data:`IMMEDIATE_POWERS` (a halfling's « Deuxième chance ») and its immediate
        action still unused is asked whether it takes it (kind ``"action_immediate"``,
        D20-IMM-1/2); an attack it cancels gives its standard action back when the rules
        say so (``cancelled_action_spent``), and the next call offers the attack again.
        Legal by construction (:attr:`legal_moves`)."""
        sheet, st, me = kernel_doors.view(ctx, actor)
        if me < 0:
            return []
        out: list[Move] = []
        for _, action, target, path in kernel.candidates(sheet, st, me):
            if action == kernel.ATTACK:
                e = ctx.fighter(sheet.names[target])
                out.append(Move("attaquer", _with_reactions(
                    {"cible": e.name}, _immediate_against(ctx, e, react)),
                    frozenset({"attaque"})))
            elif action == kernel.POINT:
                out.append(Move("point_action", {}, frozenset({"effort"})))
            else:
                out.append(Move("deplacement", _with_reactions(
                    {"chemin": [list(sq) for sq in path]},
                    _opportunities(ctx, actor, path, react)), frozenset({"deplacement"})))
        return out


def _opportunities(ctx: Ctx[Rules], actor: str, path: Sequence[grid.Square], react: Reactor
                   ) -> list[dict[str, Any]]:
    """The opportunity attacks declared with ``actor``'s move along ``path`` (D20-OPP-1/2):
    each standing enemy on the grid, in roster order, with its allowance of this turn
    unused and next to a square the move leaves, if its policy takes it (kind
    ``"attaque_opportunite"``)."""
    f = ctx.fighter(actor)
    here = grid.position(f)
    assert here is not None  # (a move of the kernel starts from a square)
    squares = [here, *path]
    key = turn_key(ctx)
    reactions = []
    for e in ctx.enemies(actor):
        p = grid.position(e)
        if p is None or e.flags.get("opportunite") == key:
            continue
        if not any(grid.distance(sq, p) == 1 for sq in squares[:-1]):
            continue
        options = ["attaque_opportunite", "aucune"]
        if react(e.name, "attaque_opportunite", options) == "attaque_opportunite":
            reactions.append({"par": e.name, "type": "attaque_opportunite"})
    return reactions


def _with_reactions(params: dict[str, Any], reactions: list[dict[str, Any]]
                    ) -> dict[str, Any]:
    """``params``, with ``reactions`` declared when there are any."""
    if reactions:
        params["reactions"] = reactions
    return params


def _immediate_against(ctx: Ctx[Rules], target: FighterState, react: Reactor
                       ) -> list[dict[str, Any]]:
    """The immediate action ``target`` takes against an enemy's attack aimed at it, as a
    declared reaction (D20-IMM-1/2): the first of :data:`IMMEDIATE_POWERS` it has (by its
    trait) and may still take now, if its policy takes it (kind ``"action_immediate"``,
    options: the power's id, then ``"aucune"``)."""
    for power in IMMEDIATE_POWERS.values():
        if (power.trigger != "attaque_subie" or power.trait not in target.combatant.traits
                or not can_react(ctx.state, target.name, power.reaction)):
            continue
        if react(target.name, "action_immediate", [power.id, "aucune"]) != power.id:
            return []
        return [{"par": target.name, "type": power.reaction, "effet": power.effect,
                 "nom": power.label}]
    return []


SYSTEM = D20System()
