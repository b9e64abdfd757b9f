"""The hooks that plug the Rulebook rules into the encounter engine, and ``SYSTEM``.

In an :class:`~escarmouche.encounter.Encounter`, ``start`` draws the surprise dice (if
``surprise_by`` is given and ``unaware`` is true), then the initiative dice, then the
roll-offs. During the fight: a 1d4 at each activation of a character under
Hypoactivité (RB-SPEED-1), and the damage dice of an action that rolls them.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from types import MappingProxyType
from typing import Any, ClassVar

from escarmouche import checks, systems
from escarmouche.errors import IllegalActionError, invalid
from escarmouche.model import Combatant, DieRecord, Effect, Json, Timing
from escarmouche.odds import OddsTable
from escarmouche.state import Ctx, EncounterState, FighterState, parsed
from escarmouche.systems.base import ActionSpec, EffectPreset, SituationDuel, System
from escarmouche.systems.describe import Chances, InitiativeReport, Situation, SurpriseReport
from escarmouche.systems.rulebook.actions import (
    ACTIONS,
    FLAG_ACTION,
    FLAG_MOVE,
    FLAG_POSTURE,
    FLAG_POSTURE_USED,
    RESOLVERS,
    refusal,
)
from escarmouche.systems.rulebook.initiative import (
    Initiative,
    explain_initiative,
    initiative,
    resolve_initiative_with,
    turn_filter,
)
from escarmouche.systems.rulebook.narration import (
    MOVEMENT_BACK_SENTENCE,
    SIMULATED_HIT,
    SURPRISE_DICE,
    cited_rules,
    eclat_regenerated_sentence,
    hypoactivity_die,
    hypoactivity_sentence,
    initiative_roll_sentence,
    order_sentence,
    simulation_variant_sentence,
    turn_order_notes,
    turn_order_sentence,
)
from escarmouche.systems.rulebook.odds import (
    SITUATIONS,
    first_to_act_chances,
    standard_odds,
    surprise_chances,
)
from escarmouche.systems.rulebook.rules import (
    DECLARED_DAMAGE,
    DECLARED_DAMAGE_FACES,
    ECLAT,
    ECLAT_MAX,
    KNOWN_TRAITS,
    MAX_ROLLOFF_ROUNDS,
    REQUIRED_STATS,
    SPEED_EFFECTS,
    SPEED_KIND,
    TRACKS,
    Rules,
    check_stat,
    check_traits,
    knocked_out,
)
from escarmouche.systems.rulebook.speed import (
    HypoactivityCheck,
    SpeedOrder,
    SpeedSource,
    apply_speed,
    effect_active,
    resolve_hypoactivity,
    resolve_speed,
)
from escarmouche.systems.rulebook.surprise import (
    SurpriseResult,
    explain_surprise,
    roll_surprise,
)
from escarmouche.text import fmt

__all__ = [
    "START_OPTIONS",
    "SYSTEM",
    "RulebookSystem",
    "emit_eclat_regenerated",
    "emit_hypoactivity",
    "emit_initiative",
    "emit_surprise",
    "emit_turn_order",
]

#: the options of ``Encounter.start`` (RB-SURPRISE-1)
START_OPTIONS: tuple[str, ...] = ("surprise_par", "non_avertis")


# -- the events the engine and the rules kernel's narration both write ------------------
# (``kernel_doors.narrated_run`` tells a kernel's fight with them: the engine's dice are
# recorded by its rng, the narration's given, as ``DieRecord`` tuples)

def emit_surprise(ctx: Ctx[Rules], surprise_by: str, res: SurpriseResult,
                  dice: tuple[DieRecord, ...] | None = None) -> None:
    """The surprise attempt (RB-SURPRISE-1/2) and its two d100 (``dice``; by default
    those drawn since the last event)."""
    ctx.emit("surprise", res.text + ".", rules=res.rules,
             data={"surprise_by": surprise_by, **res.to_json()}, dice=dice,
             purpose=SURPRISE_DICE)


def emit_initiative(ctx: Ctx[Rules], init: Initiative) -> None:
    """The initiative (RB-INIT-1..4, RB-SURPRISE-3): each roll and its d100, each tie and
    its roll-offs, the order, who plays turn 0 and why."""
    for r in init.rolls:
        rules = ["RB-INIT-1", "RB-D100-1"]
        if r.test.critical == "success":
            rules.append("RB-INIT-3")
        elif r.test.critical == "failure":
            rules.append("RB-INIT-4")
        ctx.emit("initiative", functools.partial(initiative_roll_sentence, r.name, r.test),
                 actor=r.name,
                 rules=rules, data=r.to_json(),
                 dice=(DieRecord(100, r.test.roll, fmt.die_of("initiative", r.name)),))
    for t in init.ties:
        dice = tuple(DieRecord(100, v, f"{fmt.die_of('départage', n)}, manche {i + 1}")
                     for i, rnd in enumerate(t.rounds) for n, v in rnd)
        ctx.emit("departage", t.text + ".", rules=t.rules, data=t.to_json(), dice=dice)
    ctx.emit("ordre_initiative", lambda: order_sentence(init.order), rules=("RB-INIT-2",),
             data={"order": list(init.order), "late": list(init.late),
                   "turn_zero": list(init.turn_zero)}, dice=())
    for z in init.turn_zero_reasons:
        ctx.emit("tour_0", z.text + ".", actor=z.name, rules=z.rules, data=z.to_json(),
                 dice=())


def emit_turn_order(ctx: Ctx[Rules], turn: int, slots: Sequence[str],
                    notes: Sequence[str], speed: Json) -> None:
    """A global turn's start (RB-TURN-1): its order explained when it needs a word
    (``notes``, :func:`.narration.turn_order_notes`: RB-SPEED-3, RB-INIT-4,
    RB-SURPRISE-3), then everyone's movement back (RB-MOVE-1)."""
    if notes:
        ctx.emit("ordre_tour", lambda: turn_order_sentence(turn, slots, notes),
                 rules=cited_rules(notes), data={"slots": list(slots), "speed": speed})
    ctx.emit("deplacements", MOVEMENT_BACK_SENTENCE, rules=("RB-MOVE-1",))


def emit_hypoactivity(ctx: Ctx[Rules], actor: str, check: HypoactivityCheck,
                      dice: tuple[DieRecord, ...] | None = None) -> None:
    """Hypoactivité's d4 at an activation (RB-SPEED-1): ``dice`` (by default the one
    drawn since the last event)."""
    ctx.emit("hypoactivite", hypoactivity_sentence(actor, check.roll, check.can_act),
             actor=actor, rules=check.rules,
             data={"roll": check.roll, "can_act": check.can_act}, dice=dice,
             purpose=hypoactivity_die(actor))


def emit_eclat_regenerated(ctx: Ctx[Rules], name: str, before: int, after: int) -> None:
    """« Éclat » regenerated at the end of the fight (RB-END-3)."""
    ctx.emit("eclat_regenere", eclat_regenerated_sentence(name, before, after),
             actor=name, rules=("RB-END-3",), data={"before": before, "after": after})


class RulebookSystem(System[Rules]):
    """The Rulebook rules plugged into the encounter engine.

    Roster: stats ``HAB``, ``DIS``, ``PMR`` (0–100), ``PV`` and ``Esprit`` (≥ 1), optional
    ``eclat`` (current) and ``eclat_max``; traits of ``KNOWN_TRAITS``.
    ``Encounter("rulebook", combatants, end_conditions=[EndCondition(...)])`` (RB-END-1);
    ``start(rng)``, or ``start(rng, surprise_par=side, non_avertis=True)`` which first resolves
    the surprise attempt (RB-SURPRISE-1/2), then rolls the initiative; turn 0 is played
    when somebody is in it (RB-INIT-3, RB-SURPRISE-3).

    Actions (``enc.act(name, action, rng, **params)``): the catalogue ``ACTIONS``
    (:mod:`escarmouche.systems.rulebook.actions`, each action documented). Each
    activation gives a fresh action and posture change; Hypoactivité's 1d4 is rolled at
    each activation (RB-SPEED-1). Out of its activation a fighter may only move (or
    spend éclat), and only if it has a slot in the current global turn (RB-INIT-4,
    RB-SURPRISE-3).
    """

    name: ClassVar[str] = "rulebook"
    title: ClassVar[str] = "Système Rulebook (D100, HAB)"
    rule_prefix: ClassVar[str] = "RB"
    #: HAB, DIS, PMR in 0–100; PV and Esprit at least 1; éclat from 0 (one declaration:
    #: :meth:`validate` and the roster editors read it)
    stat_bounds: ClassVar[Mapping[str, tuple[int, int, str]]] = {
        **{key: ((1, 1000) if key in TRACKS else (0, 100)) + (rule,)
           for key, (_, rule) in REQUIRED_STATS.items()},
        ECLAT: (0, 1000, "RB-END-3"), ECLAT_MAX: (0, 1000, "RB-END-3")}
    combatant_keys: ClassVar[Mapping[str, str]] = {}
    start_hint: ClassVar[str] = 'surprise_par=monstres, non_avertis=oui'
    sample_roster: ClassVar[tuple[Combatant, ...]] = (
        Combatant("Aldric", "héros", {"HAB": 60, "DIS": 45, "PMR": 50, "PV": 12, "Esprit": 8}),
        Combatant("Brune", "héros", {"HAB": 45, "DIS": 60, "PMR": 40, "PV": 10, "Esprit": 10}),
        Combatant("Grolk", "monstres", {"HAB": 40, "DIS": 30, "PMR": 55, "PV": 14,
                                        "Esprit": 6}),
    )
    initiative_rules: ClassVar[tuple[str, ...]] = ("place_hyperactivite",)
    surprise_rules: ClassVar[tuple[str, ...]] = ("valeur_groupe_surprise",)
    initiative_stats: ClassVar[str] = (
        "HAB (test D100) ; traits de vitesse : hyperactivité, hypoactivité, toujours "
        "premier, toujours dernier, dépassement, dépassé")
    traits: ClassVar[Mapping[str, str]] = KNOWN_TRAITS
    rules_type = Rules
    tracks: ClassVar[tuple[str, ...]] = TRACKS
    #: the simulation variant hits PV only (``auto_action``): Esprit never moves, so a
    #: simulation's remaining health does not count it
    played_tracks: ClassVar[tuple[str, ...] | None] = ("PV",)
    #: effects tied to one character (poison, regeneration), ticking at its first
    #: activation of each turn (RB-TIME-2)
    effect_presets: ClassVar[tuple[EffectPreset, ...]] = (
        EffectPreset("Poison", Timing.ACTIVATION_START, 3, {"PV": -2},
                     keywords=frozenset({"poison"}), rules=("RB-TIME-2",)),
        EffectPreset("Régénération", Timing.ACTIVATION_START, 3, {"PV": 2},
                     rules=("RB-TIME-2",)),
    )
    turn_word: ClassVar[str] = "tour"
    #: in the Rulebook « tour » is the global turn; a character's moment is an activation
    activation_word: ClassVar[str] = "activation"
    next_label: ClassVar[str] = "Activation suivante"
    situation_duels: ClassVar[tuple[SituationDuel, ...]] = (
        SituationDuel(
            "embuscade", "Embuscade à deux contre deux",
            "deux vétéranes, dont une hyperactive, tentent une attaque surprise sur deux "
            "recrues non averties\u00a0: le test de groupe, le tour 0 et la seconde activation "
            "comptent (RB-SURPRISE-1, RB-SURPRISE-2, RB-SPEED-3)",
            (Combatant("Aube", "vétérans", {"HAB": 60, "DIS": 60, "PMR": 55, "PV": 10,
                                            "Esprit": 10, "variante_degats": 6}),
             Combatant("Brune", "vétérans", {"HAB": 45, "DIS": 30, "PMR": 25, "PV": 10,
                                             "Esprit": 10, "variante_degats": 6},
                       traits=frozenset({"hyperactivite"})),
             Combatant("Carl", "recrues", {"HAB": 50, "DIS": 40, "PMR": 50, "PV": 10,
                                           "Esprit": 10, "variante_degats": 6}),
             Combatant("Dama", "recrues", {"HAB": 40, "DIS": 40, "PMR": 70, "PV": 10,
                                           "Esprit": 10, "variante_degats": 6})),
            {"surprise_par": "vétérans", "non_avertis": True}),
    )
    #: the Rulebook's own turn, timing and end rules (the engine's CORE-TURN-1,
    #: CORE-TIME-1..3 and CORE-END-1 as its text words them); it has no rule for
    #: effects at the end of an activation: those cite the engine's (CORE-TIME-2)
    turn_rules: ClassVar[tuple[str, ...]] = ("RB-TURN-1",)
    tick_rules: ClassVar[Mapping[Timing, tuple[str, ...]]] = MappingProxyType({
        Timing.TURN_START: ("RB-TIME-1",),
        Timing.ACTIVATION_START: ("RB-TIME-2",),
        Timing.ACTIVATION_END: ("CORE-TIME-2",),
        Timing.TURN_END: ("RB-TIME-3",),
    })
    end_rules: ClassVar[tuple[str, ...]] = ("RB-END-1",)
    start_options: ClassVar[tuple[str, ...]] = START_OPTIONS
    action_specs = ACTIONS
    resolvers = RESOLVERS

    # -- roster ----------------------------------------------------------------------

    def validate(self, combatant: Combatant, rules: Rules) -> None:
        """HAB, DIS, PMR in 0–100; PV and Esprit ≥ 1; éclat ≥ 0; known traits."""
        for key in REQUIRED_STATS:
            low, high, rule = self.stat_bounds[key]
            check_stat(combatant, key, rule, low=low, high=high)
        if ECLAT in combatant.stats:
            low, high, rule = self.stat_bounds[ECLAT]
            eclat = check_stat(combatant, ECLAT, rule, low=low, high=high)
            if ECLAT_MAX in combatant.stats:
                check_stat(combatant, ECLAT_MAX, rule, low=eclat,
                           high=self.stat_bounds[ECLAT_MAX][1])
        elif ECLAT_MAX in combatant.stats:
            raise invalid(ECLAT, None, "RB-END-3",
                          f"{combatant.name} a un éclat maximal (« {ECLAT_MAX} ») sans son "
                          f"éclat actuel (« {ECLAT} »)")
        if DECLARED_DAMAGE in combatant.stats:
            check_stat(combatant, DECLARED_DAMAGE, "RB-END-2", low=DECLARED_DAMAGE_FACES[0],
                       high=DECLARED_DAMAGE_FACES[1])
        check_traits(combatant, rules)

    def initial_tracks(self, combatant: Combatant, rules: Rules) -> dict[str, int]:
        tracks = {t: combatant.stats[t] for t in TRACKS}
        if ECLAT in combatant.stats:
            tracks[ECLAT] = combatant.stats[ECLAT]
        return tracks

    def track_maxima(self, combatant: Combatant, rules: Rules) -> dict[str, int]:
        """Starting values, except éclat: ``eclat_max`` when given (what the end of the
        fight restores, RB-END-3)."""
        maxima = self.initial_tracks(combatant, rules)
        if ECLAT in maxima:
            maxima[ECLAT] = combatant.stats.get(ECLAT_MAX, maxima[ECLAT])
        return maxima

    def is_out(self, fighter: FighterState, rules: Rules) -> bool:
        """0 PV or 0 Esprit: out of the fight (RB-END-2); éclat does not count."""
        tracks = fighter.tracks
        return knocked_out(tracks.get("PV", 1), tracks.get("Esprit", 1))

    # -- start -----------------------------------------------------------------------

    # -- what the system says of itself -------------------------------------------------

    def standard_odds(self, rules: Rules) -> list[OddsTable]:
        return standard_odds(rules)

    def situations(self) -> tuple[Situation, ...]:
        return SITUATIONS

    def _sharing(self, rules: Rules) -> Rules:
        """``rules`` that also accept, without effect, the traits of the other systems
        (the demos show one roster to every system)."""
        others = {t for name in systems.available() if name != self.name
                  for t in systems.get(name).traits} - set(KNOWN_TRAITS)
        return dataclasses.replace(rules, extra_traits=rules.extra_traits | others)

    def explain_initiative(self, combatants: Sequence[Combatant], rng: Any, rules: Rules,
                           options: Mapping[str, Any]) -> InitiativeReport:
        return explain_initiative(combatants, rng, rules=self._sharing(rules))

    def first_to_act(self, combatants: Sequence[Combatant], rules: Rules,
                     options: Mapping[str, Any]) -> tuple[Chances, ...]:
        return first_to_act_chances(combatants, self._sharing(rules))

    def explain_surprise(self, combatants: Sequence[Combatant], attackers: str,
                         unaware: bool, rng: Any, rules: Rules) -> SurpriseReport:
        rules = self._sharing(rules)
        report = explain_surprise(combatants, attackers, unaware, rng, rules=rules)
        return dataclasses.replace(report, chances=(
            surprise_chances(combatants, attackers, unaware=unaware, rules=rules),))

    def start(self, ctx: Ctx[Rules], options: Mapping[str, Any]) -> None:
        rules = ctx.rules
        roster = [f.combatant for f in ctx.state.fighters.values()]
        surprise_by = options.get("surprise_par")
        succeeded: str | None = None
        if surprise_by is None:
            if "non_avertis" in options:
                raise invalid("surprise_par", None, "RB-SURPRISE-1",
                              "non_avertis est donné sans surprise_par ; nommez le camp qui "
                              "tente l’attaque surprise")
        else:
            sides = list(dict.fromkeys(c.side for c in roster))
            checks.name_in("surprise_par", surprise_by, sides, "RB-SURPRISE-1", what="camp")
            if "non_avertis" not in options:
                raise invalid("non_avertis", None, "RB-SURPRISE-1",
                              "précisez si les défenseurs ignorent la présence des "
                              "attaquants (« non_avertis », oui ou non)")
            attackers = [c for c in roster if c.side == surprise_by]
            defenders = [c for c in roster if c.side != surprise_by]
            if not defenders:
                raise invalid("surprise_par", surprise_by, "RB-SURPRISE-1",
                              "aucun défenseur à surprendre")
            unaware = checks.flag("non_avertis", options["non_avertis"], "RB-SURPRISE-1")
            res = roll_surprise(attackers, defenders, ctx.rng, unaware=unaware, rules=rules)
            emit_surprise(ctx, surprise_by, res)
            succeeded = surprise_by if res.success else None
            ctx.state.system_state["surprise"] = {"surprise_by": surprise_by,
                                                  **res.to_json()}
        init = initiative(roster, ctx.rng, surprise_by=succeeded, rules=rules)
        ctx.state.system_state["initiative"] = init.to_json()
        emit_initiative(ctx, init)
        for f in ctx.state.fighters.values():
            f.flags.update({FLAG_ACTION: False, FLAG_POSTURE_USED: False, FLAG_MOVE: False,
                            FLAG_POSTURE: None})

    def first_turn(self, ctx: Ctx[Rules]) -> int:
        """Turn 0 exists when somebody is in it (RB-INIT-3, RB-SURPRISE-3)."""
        init = self.initiative_of(ctx)
        return 0 if any(ctx.state.fighters[n].standing for n in init.turn_zero) else 1

    def validate_state(self, state: EncounterState, rules: Rules) -> None:
        """A loaded save (CORE-LOG): the stored initiative must be exactly what its dice
        give under these rules (it is recomputed from them, RB-INIT-1..4), and each
        fighter's activation flags must be true or false (RB-ACT-1, RB-MOVE-1)."""
        for f in state.fighters.values():
            for key in (FLAG_ACTION, FLAG_POSTURE_USED, FLAG_MOVE):
                if key in f.flags:
                    checks.flag(f"flags.{key}", f.flags[key], "RB-ACT-1")
            posture = f.flags.get(FLAG_POSTURE)
            if posture is not None:
                checks.text(f"flags.{FLAG_POSTURE}", posture, "RB-ACT-1", max_len=100)
        if "pending_order" in state.system_state:
            raise invalid("system_state.pending_order", "…", "RB-TURN-1",
                          "ordre en attente : ce champ n’existe qu’au milieu d’une opération")
        data = state.system_state.get("initiative")
        if not state.started and data is None:
            return
        stored = checks.mapping("system_state.initiative", data, "RB-INIT-1")
        roster = [f.combatant for f in state.fighters.values()]
        rolls = checks.sequence("system_state.initiative.rolls", stored.get("rolls"),
                                "RB-INIT-1", min_len=len(roster), max_len=len(roster))
        values: list[int] = []
        rolloffs: dict[str, list[int]] = {}
        for i, (c, r) in enumerate(zip(roster, rolls, strict=True)):
            where = f"system_state.initiative.rolls[{i}]"
            entry = checks.mapping(where, r, "RB-INIT-1")
            if entry.get("name") != c.name:
                raise invalid(f"{where}.name", entry.get("name"), "RB-INIT-1",
                              f"{c.name} est attendu (ordre du groupe)")
            test = checks.mapping(f"{where}.test", entry.get("test"), "RB-INIT-1")
            values.append(checks.die(f"{where}.test.roll", test.get("roll"), 100, "RB-INIT-1"))
            offs = checks.sequence(f"{where}.rolloffs", entry.get("rolloffs"), "RB-INIT-2",
                                   max_len=MAX_ROLLOFF_ROUNDS)
            rolloffs[c.name] = [checks.die(f"{where}.rolloffs", v, 100, "RB-INIT-2")
                                for v in offs]
        surprise_by = stored.get("surprise_by")
        if surprise_by is not None:
            surprise_by = checks.name_in("system_state.initiative.surprise_by", surprise_by,
                           {c.side for c in roster}, "RB-SURPRISE-3", what="camp")

        def draw(name: str, rnd: int) -> int:
            if rnd > len(rolloffs[name]):
                raise invalid("system_state.initiative.rolls", name, "RB-INIT-2",
                              "un jet de départage manque")
            return rolloffs[name][rnd - 1]

        again = resolve_initiative_with(roster, values, draw, surprise_by, rules)
        if again.to_json() != dict(stored):
            raise invalid("system_state.initiative", "…", "RB-INIT-1",
                          "l’initiative enregistrée ne correspond pas à ses dés")

    # -- the order of each global turn -----------------------------------------------

    def initiative_of(self, ctx: Ctx[Rules]) -> Initiative:
        """The initiative rolled at the start of the fight."""
        data = ctx.state.system_state["initiative"]
        assert isinstance(data, Mapping)
        return parsed(data, Initiative.from_json)

    def validate_effect(self, effect: Effect, rules: Rules) -> None:
        """A ``"vitesse"`` effect must name known speed effects (RB-SPEED-1): refused
        when added rather than at the next turn start."""
        if effect.kind != SPEED_KIND:
            return
        unknown = sorted(k for k in effect.keywords if k not in SPEED_EFFECTS)
        if unknown or not effect.keywords:
            raise invalid("vitesse", unknown[0] if unknown else None, "RB-SPEED-1",
                          f"mot-clé de vitesse inconnu ou absent dans l’effet "
                          f"{fmt.quote(effect.name)} ; effets : {fmt.join(SPEED_EFFECTS)}")

    def speed_sources(self, ctx: Ctx[Rules], name: str, turn: int) -> list[SpeedSource]:
        """A fighter's speed effects in global turn ``turn``: its traits, then its active
        ``"vitesse"`` effects (RB-SPEED-1)."""
        f = ctx.fighter(name)
        out = [SpeedSource(t, "trait", "trait") for t in SPEED_EFFECTS
               if t in f.combatant.traits]
        for e in ctx.state.effects:
            if e.kind != SPEED_KIND or e.bearer != name or not effect_active(e, turn):
                continue
            for k in sorted(e.keywords):
                if k not in SPEED_EFFECTS:
                    raise invalid("vitesse", k, "RB-SPEED-1",
                                  f"mot-clé de vitesse inconnu dans l’effet {e.id} "
                                  f"{fmt.quote(e.name)} ; effets : {fmt.join(SPEED_EFFECTS)} ; "
                                  "retirez cet effet")
                out.append(SpeedSource(k, e.id, f"effet {fmt.quote(e.name)} ({e.id})"))
        return out

    def speed_order(self, ctx: Ctx[Rules], turn: int) -> SpeedOrder:
        """RB-SPEED-3 applied to the initiative order of the fighters still standing."""
        init = self.initiative_of(ctx)
        standing = [n for n in init.order if ctx.state.fighters[n].standing]
        profiles = {}
        for n in standing:
            srcs = self.speed_sources(ctx, n, turn)
            if srcs:
                profiles[n] = resolve_speed(n, srcs)
        return apply_speed(standing, profiles, ctx.rules)

    def turn_order(self, ctx: Ctx[Rules], turn: int) -> list[str]:
        init = self.initiative_of(ctx)
        speed = self.speed_order(ctx, turn)
        include, exclude = turn_filter(turn, init.turn_zero, init.late)
        slots = speed.slots(include, exclude=exclude, twice=turn > 0)
        notes = turn_order_notes(turn, speed, slots, init.late, init.surprise_by)
        pending: dict[str, Json] = {"turn": turn, "slots": list(slots), "notes": notes,
                                    "speed": speed.to_json()}
        ctx.state.system_state["pending_order"] = pending
        return slots

    # -- hooks -----------------------------------------------------------------------

    def on_turn_start(self, ctx: Ctx[Rules]) -> None:
        """Emit the explained order; movement regenerates for everyone (RB-MOVE-1)."""
        pending = ctx.state.system_state.pop("pending_order", None)
        for f in ctx.state.fighters.values():
            f.flags[FLAG_MOVE] = f.standing
        if isinstance(pending, Mapping):
            emit_turn_order(ctx, int(pending["turn"]), [str(n) for n in pending["slots"]],
                            [str(n) for n in pending["notes"]], pending["speed"])
        else:
            emit_turn_order(ctx, ctx.state.turn, (), (), None)

    def on_activation_start(self, ctx: Ctx[Rules], actor: str) -> bool:
        """A fresh action and posture change (RB-ACT-1); Hypoactivité's d4 (RB-SPEED-1)."""
        f = ctx.fighter(actor)
        f.flags[FLAG_ACTION] = False
        f.flags[FLAG_POSTURE_USED] = False
        srcs = self.speed_sources(ctx, actor, ctx.state.turn)
        if srcs and "hypoactivite" in resolve_speed(actor, srcs).active:
            check = resolve_hypoactivity(ctx.rng.randint(1, 4))
            emit_hypoactivity(ctx, actor, check)
            return check.can_act
        return True

    def on_turn_end(self, ctx: Ctx[Rules]) -> None:
        """Speed effects whose last turn is this one end (RB-SPEED-1)."""
        turn = ctx.state.turn
        for e in list(ctx.state.effects):
            if e.kind == SPEED_KIND and e.data.get("fin", turn + 1) <= turn:
                ctx.remove_effect(e.id, why=f"prend fin à la fin du tour {turn}",
                                  rules=("RB-SPEED-1",))

    def on_end(self, ctx: Ctx[Rules]) -> None:
        """« Éclat » regenerates only now, at the end of the fight (RB-END-3)."""
        for f in ctx.state.fighters.values():
            if ECLAT not in f.tracks:
                continue
            before, full = f.tracks[ECLAT], f.maxima.get(ECLAT, f.tracks[ECLAT])
            f.tracks[ECLAT] = max(before, full)
            emit_eclat_regenerated(ctx, f.name, before, f.tracks[ECLAT])

    # -- actions ---------------------------------------------------------------------

    def _refusal(self, ctx: Ctx[Rules], actor: str, spec: ActionSpec) -> tuple[str, str] | None:
        init = self.initiative_of(ctx)
        return refusal(ctx, actor, spec, late=init.late, in_turn=actor in ctx.state.order,
                       surprise=init.surprise_by is not None)

    def actions(self, ctx: Ctx[Rules], actor: str) -> list[ActionSpec]:
        """The actions ``actor`` may take now, in its activation or out of it."""
        if not ctx.state.started or ctx.state.finished:
            return []
        return [spec for spec in self.catalogue(ctx.rules).values()
                if self._refusal(ctx, actor, spec) is None]

    def offered(self, ctx: Ctx[Rules], actor: str, ids: AbstractSet[str]
                ) -> AbstractSet[str]:
        """:meth:`actions`' test, on the action ids ``ids`` only."""
        if not ctx.state.started or ctx.state.finished:
            return set()
        catalogue = self.catalogue(ctx.rules)
        return {i for i in ids
                if i in catalogue and self._refusal(ctx, actor, catalogue[i]) is None}

    def check_legal(self, ctx: Ctx[Rules], actor: str, spec: ActionSpec) -> None:
        """Refuse what the rules forbid now (RB-ACT-1, RB-MOVE-1, RB-INIT-4,
        RB-SURPRISE-3, RB-END-2/3), with :class:`IllegalActionError`."""
        why = self._refusal(ctx, actor, spec)
        if why is not None:
            raise invalid("action", spec.id, why[1], why[0], kind=IllegalActionError,
                          display=spec.label)

    def auto_action(self, ctx: Ctx[Rules], actor: str) -> tuple[str, dict[str, Any]] | None:
        """Automated fights, under the simulation variant (not in the text, whose RB-END-2
        leaves the effect of an attack to the GM): attack the first standing enemy, an
        automatic hit of 1dN PV, N being the actor's declared ``variante_degats``
        (nothing when the action of this activation is already used). A fighter without
        that stat cannot be played automatically: :class:`ParameterError`."""
        enemies = ctx.enemies(actor)
        if not enemies or ctx.fighter(actor).flags.get(FLAG_ACTION, False):
            return None
        faces = ctx.fighter(actor).combatant.stats.get(DECLARED_DAMAGE)
        if faces is None:
            raise invalid(DECLARED_DAMAGE, None, "RB-END-2",
                          f"le texte laisse au MJ l’effet d’une attaque ; pour jouer {actor} "
                          "automatiquement, déclarez le dé de ses dégâts dans sa fiche "
                          f"(« {DECLARED_DAMAGE} = 6 » pour 1d6)")
        return "attaquer", {"cible": enemies[0].name, "des": f"1d{faces}",
                            "nom": SIMULATED_HIT}

    def kernel(self, template: Any, start_options: Mapping[str, Any],
               policies: Mapping[str, Any]) -> Any:
        """The Rulebook rules kernel's sheet for these fights, when it covers them
        (:func:`escarmouche.systems.rulebook.kernel.compile_sheet`); ``None``: the
        engine plays them."""
        from escarmouche.systems.rulebook.kernel import compile_sheet

        return compile_sheet(template, start_options, policies)

    def narrated_run(self, kernel: Any, rng: Any, max_turns: int, tactics_rng: Any = None
                     ) -> Any:
        """The full engine's fight on the Rulebook rules kernel
        (:func:`escarmouche.systems.rulebook.kernel_doors.narrated_run`)."""
        from escarmouche.systems.rulebook.kernel_doors import narrated_run

        return narrated_run(kernel, rng, max_turns)

    def automation_note(self, roster: Sequence[Combatant], rules: Rules) -> str:
        """The simulation variant (not in the text), named wherever automated fights
        are shown."""
        declared = [f"{c.name} 1d{c.stats[DECLARED_DAMAGE]}" for c in roster
                    if DECLARED_DAMAGE in c.stats]
        return simulation_variant_sentence(declared)


SYSTEM = RulebookSystem()
