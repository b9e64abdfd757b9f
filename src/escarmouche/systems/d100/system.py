"""The hooks that plug the d100 rules into the encounter engine (:class:`System`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from types import MappingProxyType
from typing import Any, ClassVar

from escarmouche import checks
from escarmouche.errors import EscarmoucheError, IllegalActionError, invalid
from escarmouche.model import Combatant, Json, Timing
from escarmouche.odds import OddsTable
from escarmouche.state import Ctx, EncounterState, FighterState
from escarmouche.systems.base import ActionSpec, EffectPreset, Move, Reactor, SituationDuel, System
from escarmouche.systems.d100 import kernel, kernel_doors, terrain
from escarmouche.systems.d100.actions import (
    ACTIONS,
    MAX_EXTENDED_STEPS,
    RESOLVERS,
    allowed_defences,
    fight_weapons,
    guard,
    held,
)
from escarmouche.systems.d100.attack import check_two_weapons, target_number
from escarmouche.systems.d100.initiative import (
    explain_initiative,
    explain_surprise,
    resolve_initiative,
    roll_initiative,
)
from escarmouche.systems.d100.narration import (
    ROUND_SECONDS,
    expired_parry_sentence,
    initiative_sentence,
    surprise_over_sentence,
    surprise_sentence,
    time_sentence,
)
from escarmouche.systems.d100.odds import (
    SITUATIONS,
    blow_mean_wounds,
    first_to_act_chances,
    standard_odds,
)
from escarmouche.systems.d100.rules import (
    ACTION_DEFS,
    DEFENCES,
    HANDS,
    LOCATIONS,
    STATS,
    TRACK,
    WEAPONS,
    Rules,
    Weapon,
    armour_at,
    bonus,
    get_weapon,
    stat,
    validate_combatant,
)
from escarmouche.systems.describe import Chances, InitiativeReport, Situation, SurpriseReport
from escarmouche.text.fmt import de, join, quote

__all__ = ["START_OPTIONS", "SYSTEM", "D100System"]

#: the options ``Encounter.start`` accepts for d100 (French names)
START_OPTIONS: tuple[str, ...] = ("surpris", "equipement", "montures", "armes", "tirs",
                                  "terrain")
#: the ground of the situation duel « Du haut du mur » (start option ``terrain``), read by
#: its French situation too: one declaration of each length
_WALL: Mapping[str, int] = {"hauteur": 4}
_DITCH: Mapping[str, int] = {"fosse": 3, "elan": 4}
#: the keys of one shooter's entry in the start option ``tirs`` (automated play)
SHOT_KEYS = ("distance", "cible_engagee")


#: what each fighter's flags hold once the fight has started (D100-ACT-*, D100-PARRY-*)
FLAG_KEYS = frozenset({"hands", "loaded", "parry_prepared", "parries", "dodges", "plan",
                       "extended", "extended_at_start", "extended_hand"})


class D100System(System[Rules]):
    """Initiative once for the fight, one turn per fighter per round, attacks with parry
    and dodge, two weapons, shots, extended actions and jumps."""

    name: ClassVar[str] = "d100"
    title: ClassVar[str] = "Système d100 (CC/CT, localisation)"
    rule_prefix: ClassVar[str] = "D100"
    stat_bounds: ClassVar[Mapping[str, tuple[int, int, str]]] = STATS
    combatant_keys: ClassVar[Mapping[str, str]] = MappingProxyType({
        "arme": "l’arme de la main directrice (D100-ATK-3)",
        "arme_secondaire": "l’arme de la main non directrice (D100-TWO-1)",
    })
    start_hint: ClassVar[str] = 'surpris=héros'
    sample_roster: ClassVar[tuple[Combatant, ...]] = (
        Combatant("Aldric", "héros", {"CC": 45, "CT": 35, "F": 35, "E": 40, "Ag": 38, "M": 4,
                                      "B": 12}, skills=frozenset({"esquive"})),
        Combatant("Brune", "héros", {"CC": 38, "CT": 50, "F": 30, "E": 30, "Ag": 45, "M": 4,
                                     "B": 10}),
        Combatant("Grolk", "monstres", {"CC": 40, "CT": 20, "F": 45, "E": 45, "Ag": 25, "M": 4,
                                        "B": 14}),
    )
    initiative_stats: ClassVar[str] = "Ag (Ag + 1d10)"
    surprise_rules: ClassVar[tuple[str, ...]] = ("surpris_peut_se_defendre",)
    rules_type = Rules
    tracks: ClassVar[tuple[str, ...]] = (TRACK,)
    #: a wound that bleeds at each of the bearer's next rounds (CORE-TIME-2)
    effect_presets: ClassVar[tuple[EffectPreset, ...]] = (
        EffectPreset("Saignement", Timing.ACTIVATION_START, 3, {TRACK: -1},
                     rules=("CORE-TIME-2",)),
        EffectPreset("Poison", Timing.ACTIVATION_START, 3, {TRACK: -2},
                     keywords=frozenset({"poison"}), rules=("CORE-TIME-2",)),
    )
    #: the defence the target opposes to an attack (D100-PARRY-1, D100-DODGE-1)
    param_choices: ClassVar[Mapping[str, tuple[str, tuple[str, ...]]]] = {
        "defense": ("Défense", DEFENCES)}
    #: an « attaque standard », then a parry prepared with the other half action
    #: (D100-ACT-1, D100-PARRY-2)
    preferred_actions: ClassVar[tuple[str, ...]] = ("attaquer", "preparer_parade")
    turn_word: ClassVar[str] = "round"
    situation_duels: ClassVar[tuple[SituationDuel, ...]] = (
        SituationDuel(
            "seule-contre-trois", "Seule contre trois, prise par surprise",
            "une bretteuse à la rapière et à la main gauche, surprise, affronte trois "
            "orques\u00a0: chaque round elle peut avoir à parer ou esquiver plus d’une attaque "
            "(D100-SURPRISE-1, D100-PARRY-3, D100-DODGE-2)",
            (Combatant("Ysolde", "vétérans", {"CC": 50, "CT": 30, "F": 35, "E": 35, "Ag": 40,
                                              "M": 4, "B": 14}, skills=frozenset({"esquive"})),
             Combatant("Grolk", "recrues", {"CC": 40, "CT": 20, "F": 35, "E": 35, "Ag": 25,
                                            "M": 4, "B": 10}),
             Combatant("Snaga", "recrues", {"CC": 35, "CT": 20, "F": 30, "E": 30, "Ag": 30,
                                            "M": 4, "B": 8}),
             Combatant("Ufthak", "recrues", {"CC": 35, "CT": 25, "F": 35, "E": 35, "Ag": 30,
                                             "M": 4, "B": 9})),
            {"surpris": "vétérans",
             "equipement": {"Ysolde": {"directrice": "rapiere",
                                       "non_directrice": "main_gauche"}}}),
        SituationDuel(
            "tir-dans-la-melee", "Tir à l’arc à 60 m dans une mêlée",
            "une archère et un bretteur contre un orque\u202f; l’archère tire à 60 m, "
            "au-delà de la longue portée de l’arc (24/48), sur une cible engagée au corps à "
            "corps (déclaré au départ par l’option «\u00a0tirs\u00a0», car un combat d100 "
            "n’a pas de positions)\u00a0: les malus de distance et de mêlée et la portée "
            "maximale comptent (D100-RANGED-4, D100-RANGED-5)",
            (Combatant("Ysolde", "vétérans", {"CC": 35, "CT": 50, "F": 30, "E": 30, "Ag": 45,
                                              "M": 4, "B": 12}),
             Combatant("Kael", "vétérans", {"CC": 45, "CT": 30, "F": 35, "E": 35, "Ag": 35,
                                            "M": 4, "B": 12}),
             Combatant("Grolk", "recrues", {"CC": 45, "CT": 20, "F": 40, "E": 40, "Ag": 25,
                                            "M": 4, "B": 18})),
            {"equipement": {"Ysolde": {"directrice": "arc"}},
             "tirs": {"Ysolde": {"distance": 60, "cible_engagee": True}}}),
        SituationDuel(
            "dague-et-epee-contre-armure", "Dague et épée contre un chevalier en armure",
            "un coupe-jarret tient sa dague de la main directrice et l’épée (arme à une "
            "main) ramassée sur un garde de l’autre main\u202f; contre un chevalier en "
            "armure sur tout le corps, la dague ne passe guère\u00a0: il frappe de l’épée, "
            "de la main non directrice, malgré le malus, parce que ce coup-là blesse le "
            "plus en moyenne (D100-TWO-2, D100-ATK-5)",
            (Combatant("Corbin", "coupe-jarrets", {"CC": 50, "CT": 25, "F": 35, "E": 35,
                                                   "Ag": 45, "M": 4, "B": 12},
                       skills=frozenset({"esquive"})),
             Combatant("Aubert", "chevaliers", {"CC": 40, "CT": 25, "F": 40, "E": 35,
                                                "Ag": 30, "M": 4, "B": 12, "PA": 4})),
            {"equipement": {"Corbin": {"directrice": "dague",
                                       "non_directrice": "arme_a_une_main"}}}),
        SituationDuel(
            "du-haut-du-mur", "Du haut du mur et par-dessus le fossé",
            "deux brigands fondent sur deux gardes\u00a0: l’un saute d’un mur de "
            f"{_WALL['hauteur']} m, un test d’Ag par tranche de hauteur entamée, l’autre "
            f"franchit d’un bond un fossé de {_DITCH['fosse']} m avec {_DITCH['elan']} m "
            "d’élan (déclarés au départ par l’option «\u00a0terrain\u00a0», "
            "car un combat d100 n’a pas de positions)\u202f; sans assez d’élan, il fait "
            "le tour en courant, et un saut raté coûte le reste du round, sans dégâts "
            "comptés (D100-JUMP-1, D100-JUMP-2)",
            (Combatant("Rask", "brigands", {"CC": 45, "CT": 25, "F": 35, "E": 35, "Ag": 50,
                                            "M": 4, "B": 12}),
             Combatant("Vesna", "brigands", {"CC": 40, "CT": 30, "F": 35, "E": 30,
                                             "Ag": 45, "M": 4, "B": 11}),
             Combatant("Barthe", "gardes", {"CC": 45, "CT": 30, "F": 40, "E": 40, "Ag": 35,
                                            "M": 4, "B": 12, "PA": 1}),
             Combatant("Guilhem", "gardes", {"CC": 40, "CT": 30, "F": 35, "E": 35,
                                             "Ag": 30, "M": 4, "B": 11, "PA": 1})),
            {"terrain": {"Rask": _WALL, "Vesna": _DITCH}}),
    )
    turn_rules: ClassVar[tuple[str, ...]] = ("D100-ROUND-1",)
    start_options: ClassVar[tuple[str, ...]] = START_OPTIONS
    # the d100 text has no rule on lasting effects: their ticks cite the engine's timing
    # (System.tick_rules, CORE-TIME-1..3)
    action_specs = ACTIONS
    resolvers = RESOLVERS
    #: the moves are the rules kernel's candidates, legal by construction
    legal_moves: ClassVar[bool] = True

    # -- roster ----------------------------------------------------------------------

    def validate(self, combatant: Combatant, rules: Rules) -> None:
        validate_combatant(combatant)

    # -- the fight -------------------------------------------------------------------

    # -- what the system says of itself -------------------------------------------------

    def standard_odds(self, rules: Rules) -> list[OddsTable]:
        return standard_odds(rules)

    def situations(self) -> tuple[Situation, ...]:
        return SITUATIONS

    def explain_initiative(self, combatants: Sequence[Combatant], rng: Any, rules: Rules,
                           options: Mapping[str, Any]) -> InitiativeReport:
        return explain_initiative(combatants, rng)

    def first_to_act(self, combatants: Sequence[Combatant], rules: Rules,
                     options: Mapping[str, Any]) -> tuple[Chances, ...]:
        return first_to_act_chances(combatants)

    def explain_surprise(self, combatants: Sequence[Combatant], attackers: str,
                         unaware: bool, rng: Any, rules: Rules) -> SurpriseReport:
        return explain_surprise(combatants, attackers, unaware, rng,
                                can_defend=rules.surprised_can_defend)

    def start_entry(self, start: dict[str, Any], who: str, entry: Mapping[str, Any]
                    ) -> None:
        if "arme" in entry or "arme_secondaire" in entry:
            equipment = dict(start.get("equipement") or {})
            equipment[who] = {"directrice": entry.get("arme"),
                              "non_directrice": entry.get("arme_secondaire")}
            start["equipement"] = equipment

    def start(self, ctx: Ctx[Rules], options: Mapping[str, Any]) -> None:
        """Options: ``surpris`` (a side: in round 1 only the others act,
        D100-SURPRISE-1), ``equipement`` (``{name: {"directrice": weapon,
        "non_directrice": weapon}}``, default ``Rules.default_weapon`` in the main hand;
        both hands filled must be a legal pair, D100-TWO-1), ``montures`` (``{rider:
        mount}``, D100-ATK-7), ``armes`` (extra catalogue entries ``{id: {...}}``), ``tirs``
        (``{shooter: {"distance": metres, "cible_engagee": bool}}``: how far, and whether
        into a melee, a fighter's automated shots go, D100-RANGED-4/5; without it a shot
        is at the weapon's short range at a target not engaged), ``terrain`` (``{name:
        {"hauteur": metres, "fosse": metres, "elan": metres}}``: a drop, then a ditch with
        the room for a run-up, between the fighter and the melee, D100-JUMP-1/2; see
        :mod:`~escarmouche.systems.d100.terrain`).
        Draw order: one d10 per fighter in roster order, then the roll-offs (D100-INIT-*)."""
        st = ctx.state
        extra = checks.mapping("armes", options.get("armes") or {}, "D100-ATK-3")
        weapons: dict[str, Json] = {}
        for k, v in extra.items():
            entry = {str(f): x for f, x in checks.mapping("armes", v, "D100-ATK-3").items()}
            weapons[str(k)] = Weapon.from_json({**entry, "id": k}).to_json()
        st.system_state["weapons"] = weapons
        self._start_equipment(ctx, options.get("equipement") or {}, fight_weapons(ctx))
        self._start_mounts(ctx, options.get("montures") or {})
        st.system_state["shots"] = self._start_shots(ctx, options.get("tirs") or {})
        st.system_state["terrain"] = terrain.start_terrain(ctx, options.get("terrain") or {})
        surprised = options.get("surpris")
        sides = list(dict.fromkeys(f.side for f in st.fighters.values()))
        if surprised is not None and (surprised not in sides or len(sides) < 2):
            raise invalid("surpris", surprised, "D100-SURPRISE-1",
                          f"le camp surpris doit être un des camps présents "
                          f"({join(quote(s) for s in sides)}), face à au moins un autre camp")
        st.system_state["surprised"] = surprised
        for f in st.fighters.values():
            f.flags.update({
                "parry_prepared": False, "parries": 0, "dodges": 0, "plan": [],
                "extended": None, "extended_at_start": None, "extended_hand": None,
            })
        init = roll_initiative([f.combatant for f in st.fighters.values()], ctx.rng)
        st.system_state["initiative"] = init.to_json()
        st.system_state["order"] = list(init.order)
        ctx.emit("initiative", lambda: initiative_sentence(init), rules=init.rules,
                 data=init.to_json(), dice=init.dice)
        if surprised is not None:
            ctx.emit("surprise", surprise_sentence(surprised, ctx.rules.surprised_can_defend),
                     rules=("D100-SURPRISE-1",), data={"surprised": surprised})

    def _start_equipment(self, ctx: Ctx[Rules], equipment: object,
                         catalogue: Mapping[str, Weapon]) -> None:
        given_all = checks.mapping("equipement", equipment, "D100-TWO-1")
        for name in given_all:
            checks.name_in("equipement", name, list(ctx.state.fighters), "D100-TWO-1")
        for name, f in ctx.state.fighters.items():
            given = given_all.get(name)
            hands: dict[str, Json] = {"directrice": ctx.rules.default_weapon,
                                      "non_directrice": None}
            if given is not None:
                for h in checks.mapping("equipement", given, "D100-TWO-1"):
                    checks.choice("main", h, HANDS, "D100-TWO-1")
                assert isinstance(given, Mapping)
                hands = {h: None for h in HANDS}
                for h, w in given.items():
                    hands[h] = None if w is None else get_weapon(w, catalogue).id
            if hands["directrice"] is not None and hands["non_directrice"] is not None:
                check_two_weapons(str(hands["directrice"]), str(hands["non_directrice"]),
                                  catalogue)
            f.flags["hands"] = hands
            f.flags["loaded"] = {h: True for h in HANDS}

    def _start_shots(self, ctx: Ctx[Rules], shots: object) -> dict[str, Json]:
        """``tirs``, checked: each shooter's distance (metres) and whether its target is
        engaged in melee, for the shots automated play takes (:meth:`moves`)."""
        given = checks.mapping("tirs", shots, "D100-RANGED-5")
        out: dict[str, Json] = {}
        for name, entry in given.items():
            checks.name_in("tirs", name, list(ctx.state.fighters), "D100-RANGED-5",
                           what="combattant")
            fields = checks.mapping("tirs", entry, "D100-RANGED-5")
            for key in fields:
                checks.choice("tirs", key, SHOT_KEYS, "D100-RANGED-5")
            distance = checks.real("distance", fields.get("distance", 0), lo=0,
                                   hi=1_000_000, rule="D100-RANGED-5", who=str(name))
            engaged = checks.flag("cible_engagee", fields.get("cible_engagee", False),
                                  "D100-RANGED-4")
            out[str(name)] = {"distance": distance or None, "cible_engagee": engaged}
        return out

    def _start_mounts(self, ctx: Ctx[Rules], mounts: object) -> None:
        given = checks.mapping("montures", mounts, "D100-ATK-7")
        names = list(ctx.state.fighters)
        seen: set[object] = set()
        for rider, mount in given.items():
            checks.name_in("montures", rider, names, "D100-ATK-7")
            checks.name_in("montures", mount, names, "D100-ATK-7")
            if rider == mount or mount in seen or mount in given:
                raise invalid("montures", mount, "D100-ATK-7",
                              f"une monture porte un seul cavalier ({rider}), distinct "
                              "d’elle, et ne chevauche pas elle-même")
            seen.add(mount)
        ctx.state.system_state["mounts"] = {str(k): str(v) for k, v in given.items()}

    def validate_state(self, state: EncounterState, rules: Rules) -> None:
        """A loaded save (CORE-LOG): extra weapons, mounts, the surprised side and the
        initiative are re-derived with the same checks as at start (the initiative from
        its d10s); each fighter's flags must be what the turn plan and the guard read."""
        ss = state.system_state
        if not state.started and not ss:
            return
        roster = [f.combatant for f in state.fighters.values()]
        names = [c.name for c in roster]
        extra = checks.mapping("system_state.weapons", ss.get("weapons", {}), "D100-ATK-3")
        catalogue = dict(WEAPONS)
        for k, v in extra.items():
            desc = {str(f): x for f, x in
                    checks.mapping(f"system_state.weapons.{k}", v, "D100-ATK-3").items()}
            weapon = Weapon.from_json({**desc, "id": k})
            if weapon.to_json() != desc:
                raise invalid(f"system_state.weapons.{k}", "…", "D100-ATK-3",
                              "description d’arme incohérente")
            catalogue[str(k)] = weapon
        mounts = checks.mapping("system_state.mounts", ss.get("mounts", {}), "D100-ATK-7")
        for rider, mount in mounts.items():
            checks.name_in("system_state.mounts", rider, names, "D100-ATK-7")
            checks.name_in(f"system_state.mounts.{rider}", mount, names, "D100-ATK-7")
        surprised = ss.get("surprised")
        if surprised is not None:
            checks.name_in("system_state.surprised", surprised, {c.side for c in roster},
                           "D100-SURPRISE-1", what="camp")
        stored = checks.mapping("system_state.initiative", ss.get("initiative"), "D100-INIT-1")
        d10s = checks.mapping("system_state.initiative.d10", stored.get("d10"), "D100-INIT-1")
        dice = [checks.die(f"system_state.initiative.d10.{n}", d10s.get(n), 10, "D100-INIT-1")
                for n in names]
        for i, rnd in enumerate(checks.sequence("system_state.initiative.rolloffs",
                                                stored.get("rolloffs"), "D100-INIT-2")):
            for pair in checks.sequence(f"system_state.initiative.rolloffs[{i}]", rnd,
                                        "D100-INIT-2"):
                two = checks.sequence(f"system_state.initiative.rolloffs[{i}]", pair,
                                      "D100-INIT-2", min_len=2, max_len=2)
                dice.append(checks.die(f"system_state.initiative.rolloffs[{i}]", two[1], 10,
                                       "D100-INIT-2"))
        again = resolve_initiative(roster, dice)
        if again.to_json() != dict(stored) or ss.get("order") != list(again.order):
            raise invalid("system_state.initiative", "…", "D100-INIT-1",
                          "l’initiative enregistrée ne correspond pas à ses dés")
        terrain.validate_terrain(state)
        if state.started:
            for f in state.fighters.values():
                self._validate_flags(f.name, f.flags, catalogue)

    @staticmethod
    def _validate_flags(name: str, flags: Mapping[str, Json],
                        catalogue: Mapping[str, Weapon]) -> None:
        where = f"flags {de(name)}"
        missing = sorted(FLAG_KEYS - set(flags))
        if missing:
            raise invalid(f"{where}.{missing[0]}", None, "D100-ACT-1", "champ manquant")
        hands = checks.mapping(f"{where}.hands", flags.get("hands"), "D100-TWO-1")
        loaded = checks.mapping(f"{where}.loaded", flags.get("loaded"), "D100-ACT-4")
        for h in HANDS:
            w = hands.get(h)
            if w is not None:
                checks.choice(f"{where}.hands.{h}", w, catalogue, "D100-TWO-1")
            checks.flag(f"{where}.loaded.{h}", loaded.get(h), "D100-ACT-4")
        if set(hands) != set(HANDS) or set(loaded) != set(HANDS):
            raise invalid(f"{where}.hands", "…", "D100-TWO-1",
                          f"les mains attendues sont {join(quote(h) for h in HANDS)}")
        checks.flag(f"{where}.parry_prepared", flags.get("parry_prepared"), "D100-PARRY-2")
        for key in ("parries", "dodges"):
            checks.integer(f"{where}.{key}", flags.get(key), lo=0, hi=100, rule="D100-PARRY-2")
        for i, step in enumerate(checks.sequence(f"{where}.plan", flags.get("plan"),
                                                 "D100-ACT-1", max_len=20)):
            pair = checks.sequence(f"{where}.plan[{i}]", step, "D100-ACT-1", min_len=2,
                                   max_len=2)
            checks.choice(f"{where}.plan[{i}]", pair[0], ACTION_DEFS, "D100-ACT-1")
            # an extended action that starts this turn records all its half actions
            # (a pistol's reload: 4, D100-ACT-4)
            checks.integer(f"{where}.plan[{i}]", pair[1], lo=0, hi=MAX_EXTENDED_STEPS,
                           rule="D100-ACT-1")
        for key in ("extended", "extended_at_start"):
            ext = flags.get(key)
            if ext is not None:
                entry = checks.mapping(f"{where}.{key}", ext, "D100-ACT-4")
                checks.choice(f"{where}.{key}.action", entry.get("action"), ACTION_DEFS,
                              "D100-ACT-4")
                total = checks.integer(f"{where}.{key}.total", entry.get("total"), lo=1,
                                       hi=1000, rule="D100-ACT-4")
                checks.integer(f"{where}.{key}.remaining", entry.get("remaining"), lo=0,
                               hi=total, rule="D100-ACT-4")
                if set(entry) != {"action", "remaining", "total"}:
                    raise invalid(f"{where}.{key}", "…", "D100-ACT-4", "champs inattendus")
        ext_hand = flags.get("extended_hand")
        if ext_hand is not None:
            checks.choice(f"{where}.extended_hand", ext_hand, HANDS, "D100-ACT-4")

    def turn_order(self, ctx: Ctx[Rules], turn: int) -> list[str]:
        """D100-ROUND-1: every fighter once, by initiative; D100-SURPRISE-1: in round 1
        the surprised side does not act."""
        order = [str(n) for n in ctx.state.system_state["order"]]
        surprised = ctx.state.system_state.get("surprised")
        if turn == 1 and surprised is not None:
            order = [n for n in order if ctx.state.fighters[n].side != surprised]
        return order

    def on_turn_start(self, ctx: Ctx[Rules]) -> None:
        """D100-PARRY-3 / D100-DODGE-2: the parry and dodge counts reset each round."""
        for f in ctx.state.fighters.values():
            f.flags["parries"] = 0
            f.flags["dodges"] = 0
        surprised = ctx.state.system_state.get("surprised")
        if ctx.state.turn == 2 and surprised is not None:
            ctx.emit("fin_surprise", surprise_over_sentence(str(surprised)),
                     rules=("D100-SURPRISE-1",))

    def on_turn_end(self, ctx: Ctx[Rules]) -> None:
        """D100-TIME-1: a round lasts about 10 s."""
        turn = ctx.state.turn
        ctx.emit("temps", lambda: time_sentence(turn),
                 rules=("D100-TIME-1",), data={"seconds": ctx.state.turn * ROUND_SECONDS})

    def on_activation_start(self, ctx: Ctx[Rules], actor: str) -> bool:
        """A new turn plan; a prepared parry lasts until the start of the fighter's next
        turn (D100-PARRY-3)."""
        f = ctx.fighter(actor)
        f.flags["plan"] = []
        f.flags["extended_at_start"] = f.flags["extended"]
        terrain.new_turn(ctx, actor)
        if f.flags["parry_prepared"]:
            f.flags["parry_prepared"] = False
            ctx.emit("parade_expiree", lambda: expired_parry_sentence(actor), actor=actor,
                     rules=("D100-PARRY-3",))
        return True

    # -- actions ---------------------------------------------------------------------

    def check_legal(self, ctx: Ctx[Rules], actor: str, spec: ActionSpec) -> None:
        """The rules kernel's :func:`~escarmouche.systems.d100.kernel.refusal` in
        French: only on the actor's own turn (D100-ROUND-1), not after a fall this turn
        (D100-JUMP-1/2), within this turn's plan (D100-ACT-1..4); a reaction only with
        the attack it answers."""
        d = ACTION_DEFS[spec.id]
        if d.reaction:
            raise invalid("action", spec.id, d.rules[-1],
                          f"{quote(d.label)} est une réaction : elle se déclare avec "
                          "l’attaque qu’elle contre (paramètre « defense » de l’attaque)",
                          kind=IllegalActionError, display=d.label)
        if not ctx.state.started:  # (no turn yet: nobody's)
            code = kernel.NOT_ITS_TURN
        else:
            sheet, st, me = kernel_doors.view(ctx, actor, everyone=False)
            code = _refusal(sheet, st, me, spec.id)
        if code == kernel.NOT_ITS_TURN:
            current = ctx.state.current
            raise invalid("acteur", actor, "D100-ROUND-1",
                          "ce n’est pas son tour ; au tour "
                          f"{de(current) if current else 'de personne'}",
                          kind=IllegalActionError)
        if code == kernel.FALLEN:
            raise terrain.fallen_error(actor, d)
        if code == kernel.PLAN:  # check_turn's own words, kept with its answer
            refused = sheet.turn(st.plan, kernel.ACTION_CODES[d.id], 1, st.ext_start[me])
            assert isinstance(refused, EscarmoucheError)
            raise refused.again()

    def actions(self, ctx: Ctx[Rules], actor: str) -> Sequence[ActionSpec]:
        """The actions ``actor`` may still add to this turn's plan (D100-ACT-1..4)."""
        allowed = self.offered(ctx, actor, set(ACTIONS))
        return [spec for spec in ACTIONS.values() if spec.id in allowed]

    def choice_values(self, ctx: Ctx[Rules], actor: str, param: str,
                      params: Mapping[str, Any]) -> tuple[str, ...]:
        """The defences the target may oppose now, « aucune » first (the tracker's
        default): a parry once prepared, a dodge with the skill, neither against a shot
        (D100-PARRY-2/3, D100-DODGE-1/2, D100-RANGED-1)."""
        target = params.get("cible")
        if param != "defense" or not isinstance(target, str) \
                or target not in ctx.state.fighters or actor not in ctx.state.fighters:
            return super().choice_values(ctx, actor, param, params)
        hand = params.get("main", "directrice")
        hand = hand if hand in ("directrice", "non_directrice") else "directrice"
        weapon = held(ctx, ctx.fighter(actor), hand) or get_weapon("mains_nues")
        options = allowed_defences(ctx.fighter(target).combatant, guard(ctx, target),
                                   weapon.ranged, ctx.rules)
        return ("aucune", *options)

    def offered(self, ctx: Ctx[Rules], actor: str, ids: AbstractSet[str]
                ) -> AbstractSet[str]:
        """:meth:`actions`' test, on the action ids ``ids`` only."""
        if not ctx.state.started:
            return set()  # no turn yet (D100-ROUND-1)
        sheet, st, me = kernel_doors.view(ctx, actor, everyone=False)
        return {i for i in ids if i in ACTIONS and not ACTION_DEFS[i].reaction
                and not _refusal(sheet, st, me, i)}

    # -- automation ------------------------------------------------------------------

    def auto_action(self, ctx: Ctx[Rules], actor: str) -> tuple[str, dict[str, Any]] | None:
        """Automated play's one choice (every system's hook): the default policy's pick
        among the rules kernel's moves (:meth:`moves`), each defender opposing the first
        defence it may use now (a parry, else a dodge, else none)."""
        from escarmouche.policies import POLICIES, default_policy

        moves = self.moves(ctx, actor, (), lambda _name, _kind, options: options[0])
        move = POLICIES[default_policy(self.name)].choose(moves, None) if moves else None
        return None if move is None else (move.action, dict(move.params))

    def kernel(self, template: Any, start_options: Mapping[str, Any],
               policies: Mapping[str, Any]) -> Any:
        """The d100 rules kernel's sheet for these fights, when it covers them
        (:func:`escarmouche.systems.d100.kernel.compile_sheet`)."""
        from escarmouche.systems.d100.kernel import compile_sheet

        return compile_sheet(template, start_options, policies)

    def narrated_run(self, kernel: Any, rng: Any, max_turns: int, tactics_rng: Any = None
                     ) -> Any:
        """The full engine's fight on the d100 rules kernel
        (:func:`escarmouche.systems.d100.kernel_doors.narrated_run`)."""
        return kernel_doors.narrated_run(kernel, rng, max_turns)

    def moves(self, ctx: Ctx[Rules], actor: str, done: Sequence[str], react: Reactor
              ) -> list[Move]:
        """The whole turn plan for the policies (D100-ACT-1..4): the rules kernel's legal
        moves (:func:`escarmouche.systems.d100.kernel.candidates`, the only list of them:
        carry on an extended action, cross the ground of the start option ``terrain``,
        reload an empty ranged weapon, an « attaque standard » with each hand that
        strikes on the first standing enemy then on the most wounded one, prepare a
        parry), as the engine's moves: French parameters, and for each attack the
        defence the target's policy chooses among those it may use now (parry, dodge or
        none: D100-PARRY-2/3, D100-DODGE-1/2, D100-RANGED-1), asked only of the attacks
        that can happen."""
        if not ctx.state.started:
            return []
        sheet, st, me = kernel_doors.view(ctx, actor)
        return [_move(ctx, sheet, st, me, m, react)
                for m in kernel.candidates(sheet, st, me)]


def _refusal(sheet: Any, st: Any, me: int, action: str) -> int:
    """The kernel's refusal code of ``action`` by fighter ``me`` now (-1: no such
    fighter), its hand and target not named yet
    (:func:`escarmouche.systems.d100.kernel.refusal`)."""
    if me < 0:
        return kernel.NOT_ITS_TURN
    return int(kernel.refusal(sheet, st, me, ("", kernel.ACTION_CODES[action], -1, -1)))


def _move(ctx: Ctx[Rules], sheet: Any, st: Any, me: int, move: tuple[str, int, int, int],
          react: Reactor) -> Move:
    """One of the kernel's moves (:data:`.kernel.Move`) as the engine's :class:`Move`."""
    tag, action, hand, j = move
    tags = frozenset({tag})
    name = kernel.ACTIONS[action]
    params: dict[str, Any] = {}
    if action == kernel.ATTACK:
        f, target = ctx.fighter(sheet.names[me]), ctx.fighter(sheet.names[j])
        weapon = held(ctx, f, HANDS[hand]) or get_weapon("mains_nues")
        options = allowed_defences(target.combatant, guard(ctx, target.name), weapon.ranged,
                                   ctx.rules)
        params = {"cible": target.name,
                  "defense": react(target.name, "defense", [*options, "aucune"]),
                  **(_shot_params(ctx, f.name, weapon) or {})}
        if hand:
            params["main"] = HANDS[hand]
    elif action == kernel.RELOAD:
        params = {"main": HANDS[hand]}
    elif action == kernel.DROP:
        params = {"hauteur": st.ground[me][0]}
    elif action == kernel.LEAP:
        params = {"elan": st.ground[me][2]}
    return Move(name, params, tags)


def _hand_order(ctx: Ctx[Rules], f: FighterState, target: FighterState) -> tuple[str, ...]:
    """D100-TWO-2: with a melee weapon in each hand, either hand may strike; the off hand
    comes first only when its blow, at the rules' off-hand modifier (D100-ATK-5), costs
    ``target`` more wounds on average than the main hand's (its armour and BE counted,
    :func:`blow_mean_wounds`): a dagger in the main hand against plate, a sword in the
    other. Otherwise the main hand first."""
    hands = f.flags["hands"]
    if hands["directrice"] is None or hands["non_directrice"] is None:
        return HANDS
    catalogue = fight_weapons(ctx)
    main, off = (get_weapon(str(hands[h]), catalogue) for h in HANDS)
    if main.ranged or off.ranged or (main.damage >= off.damage
                                     and ctx.rules.off_hand_modifier <= 0):
        return HANDS  # the off hand's blow hits no more often and wounds no more
    defender = target.combatant
    be = bonus(stat(defender, "E"))
    armour = tuple(armour_at(defender, z) for z in LOCATIONS)
    means = []
    for hand, weapon in zip(HANDS, (main, off), strict=True):
        total = target_number(f.combatant, weapon, hand=hand, rules=ctx.rules,
                              weapons=catalogue).total
        means.append(blow_mean_wounds(total, weapon.damage, be, armour))
    return (HANDS[1], HANDS[0]) if means[1] > means[0] else HANDS


def _shot_params(ctx: Ctx[Rules], actor: str, weapon: Weapon) -> dict[str, Any] | None:
    """What an automated attack with ``weapon`` adds to its parameters: nothing in
    melee; for a shot, its distance (the start option ``tirs``, else the weapon's short
    range) and whether its target is engaged (D100-RANGED-4); ``None`` when the distance
    is out of the weapon's reach (D100-RANGED-5)."""
    if not weapon.ranged:
        return {}
    shots = ctx.state.system_state.get("shots") or {}
    assert isinstance(shots, dict)
    shot = shots.get(actor) or {}
    distance = shot.get("distance") or weapon.short_range
    if distance > ctx.rules.max_range_factor * weapon.long_range:
        return None
    return {"distance": distance, **({"cible_engagee": True} if shot.get("cible_engagee")
                                     else {})}


SYSTEM = D100System()
