"""System ``d100`` (seed 001): « Système d100 (CC/CT, localisation) ».

Initiative Ag + 1d10 kept for the whole fight (D100-INIT-*), a surprise round
(D100-SURPRISE-1), turn plans of one full or two half actions (D100-ACT-*), attacks on CC
or CT with every modifier (D100-ATK-*, D100-TWO-*, D100-RANGED-*), parry and dodge
(D100-PARRY-*, D100-DODGE-*), hit location by reversed digits, damage with BE and armour
per location, the GM's French sentence, jumps (D100-JUMP-*), and exact odds.

The package has the files of every system, plus three topic modules:

================= ==========================================================================
``rules.py``      the options (:class:`Rules`, each declared once on its field), the
                  stats and the tables: locations, weapons, hands, action costs
``initiative.py`` Ag + 1d10 and the roll-offs (``resolve_initiative``, ``roll_initiative``)
``actions.py``    turn plans (:func:`check_turn`), the catalogue (:data:`ACTIONS`, one
                  documented ``ActionSpec`` per action) and one resolver per kind of action
``attack.py``     target numbers, defences, two weapons, location, damage and one attack
                  from end to end (``resolve_attack``, ``roll_attack``)
``jumps.py``      the controlled drop and the long jump (D100-JUMP-1/2)
``terrain.py``    the start option ``terrain`` (a drop, then a ditch, between a fighter
                  and the melee) and the rulings of automated play that cross it
``odds.py``       exact odds: who acts first, ``attack_odds``, ``attack_distribution``
``narration.py``  the French sentences (the GM's sentence of an attack, D100-ATK-4)
``system.py``     the hooks that plug the rules into the encounter engine, and ``SYSTEM``
================= ==========================================================================

Dice in, decisions out: every rule is a pure function of dice already rolled
(:func:`hit_location`, :func:`damage`, :func:`resolve_attack`, :func:`resolve_drop_jump`
…) with a thin rolling wrapper documenting its draw order (:func:`roll_attack`: the attack
d100, then the defence d100 if the attack hits and the defender defends, then the damage
d10 if the blow lands). A typical attack::

    setup = attack_setup(aldric, grolk, "arme_a_une_main", defence="parade",
                         guard=Guard(parry_prepared=True))
    result = resolve_attack(setup, attack_roll=63, defence_roll=77, damage_roll=4)
    result                       # the GM's sentence and every step (D100-ATK-4)
    attack_distribution(setup)   # the exact distribution of the outcome

Combatants carry the stats ``CC``, ``CT``, ``F``, ``E``, ``Ag``, ``M`` (0–100) and ``B``
(wounds), the skill ``esquive``, and their armour as stats: ``PA`` for every location
and ``PA_tete``, ``PA_bras_droit``, ``PA_bras_gauche``, ``PA_corps``, ``PA_jambe_droite``,
``PA_jambe_gauche`` for one location (these win over ``PA``).

In an encounter (``Encounter("d100", combatants)``), ``start(rng, surpris=camp,
equipement={nom: {"directrice": arme, "non_directrice": arme}}, montures={cavalier:
monture}, armes={id: {...}})``; then ``act(nom, action, rng, **paramètres)`` with the
actions of :data:`ACTIONS` and their French parameters (``cible``, ``main``, ``defense``,
``distance``, ``cible_engagee``, ``tireur_engage``, ``ligne_de_vue``, ``modificateur``,
``visee``, ``inaccessibles``, ``arme``, ``etapes``, ``sort``, ``hauteur``, ``elan``,
``details``).
"""

from __future__ import annotations

from escarmouche.systems.d100.actions import (
    ACTION_PARAMS,
    ACTIONS,
    RESOLVERS,
    Extended,
    TurnPlan,
    catalogue_table,
    check_turn,
)
from escarmouche.systems.d100.attack import (
    AttackResult,
    AttackSetup,
    Guard,
    Modifier,
    Outcome,
    TargetNumber,
    TwoWeapons,
    attack_setup,
    check_defence,
    check_two_weapons,
    damage,
    defence_target,
    hit_location,
    location_of,
    resolve_attack,
    reverse_digits,
    roll_attack,
    substitute_location,
    target_number,
)
from escarmouche.systems.d100.initiative import (
    MAX_ROLLOFF_ROUNDS,
    Initiative,
    InitiativeEntry,
    initiative,
    initiative_from_dice,
    resolve_initiative,
    roll_initiative,
)
from escarmouche.systems.d100.jumps import (
    DropJump,
    LongJump,
    drop_jump,
    long_jump,
    resolve_drop_jump,
    resolve_long_jump,
    roll_drop_jump,
    roll_long_jump,
)
from escarmouche.systems.d100.narration import (
    ROUND_SECONDS,
    ROUNDS_PER_MINUTE,
    attack_sentence,
    elapsed_time,
)
from escarmouche.systems.d100.odds import (
    AttackOutcomes,
    Odds,
    attack_distribution,
    attack_odds,
    attack_outcomes,
    drop_jump_distribution,
    first_to_act_odds,
    long_jump_distribution,
)
from escarmouche.systems.d100.rules import (
    ACTION_DEFS,
    AIMS,
    COST_HALVES,
    COST_LABELS,
    DEFAULT_RULES,
    DEFENCES,
    HANDS,
    LOCATION_ARMOUR_KEYS,
    LOCATION_AT,
    LOCATION_TABLE,
    LOCATIONS,
    MAIN_HAND_WEAPONS,
    NEAREST_LOCATIONS,
    OFF_HAND_WEAPONS,
    STATS,
    WEAPON_KEYS,
    WEAPONS,
    ActionDef,
    Rules,
    Weapon,
    armour_at,
    bonus,
    get_weapon,
    hand_label,
    stat,
    validate_combatant,
)
from escarmouche.systems.d100.system import START_OPTIONS, SYSTEM, D100System

__all__ = [
    "ACTIONS",
    "ACTION_DEFS",
    "ACTION_PARAMS",
    "AIMS",
    "COST_HALVES",
    "COST_LABELS",
    "DEFAULT_RULES",
    "DEFENCES",
    "HANDS",
    "LOCATIONS",
    "LOCATION_ARMOUR_KEYS",
    "LOCATION_AT",
    "LOCATION_TABLE",
    "MAIN_HAND_WEAPONS",
    "MAX_ROLLOFF_ROUNDS",
    "NEAREST_LOCATIONS",
    "OFF_HAND_WEAPONS",
    "RESOLVERS",
    "ROUNDS_PER_MINUTE",
    "ROUND_SECONDS",
    "START_OPTIONS",
    "STATS",
    "SYSTEM",
    "WEAPONS",
    "WEAPON_KEYS",
    "ActionDef",
    "AttackOutcomes",
    "AttackResult",
    "AttackSetup",
    "D100System",
    "DropJump",
    "Extended",
    "Guard",
    "Initiative",
    "InitiativeEntry",
    "LongJump",
    "Modifier",
    "Odds",
    "Outcome",
    "Rules",
    "TargetNumber",
    "TurnPlan",
    "TwoWeapons",
    "Weapon",
    "armour_at",
    "attack_distribution",
    "attack_odds",
    "attack_outcomes",
    "attack_sentence",
    "attack_setup",
    "bonus",
    "catalogue_table",
    "check_defence",
    "check_turn",
    "check_two_weapons",
    "damage",
    "defence_target",
    "drop_jump",
    "drop_jump_distribution",
    "elapsed_time",
    "first_to_act_odds",
    "get_weapon",
    "hand_label",
    "hit_location",
    "initiative",
    "initiative_from_dice",
    "location_of",
    "long_jump",
    "long_jump_distribution",
    "resolve_attack",
    "resolve_drop_jump",
    "resolve_initiative",
    "resolve_long_jump",
    "reverse_digits",
    "roll_attack",
    "roll_drop_jump",
    "roll_initiative",
    "roll_long_jump",
    "stat",
    "substitute_location",
    "target_number",
    "validate_combatant",
]
