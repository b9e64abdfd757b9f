"""System ``d100`` (seed 001): « Système d100 (CC/CT, localisation) ».

Initiative Ag + 1d10 kept for the whole fight (D100-INIT-*), a surprise round
(D100-SURPRISE-1), turn plans of one full or two half actions (D100-ACT-*), attacks on CC
or CT with every modifier (D100-ATK-*, D100-TWO-*, D100-RANGED-*), parry and dodge
(D100-PARRY-*, D100-DODGE-*), hit location by reversed digits, damage with BE and armour
per location, the GM's French sentence, jumps (D100-JUMP-*), and exact odds.

Dice in, decisions out: every rule is a pure function of dice already rolled
(:func:`hit_location`, :func:`damage`, :func:`resolve_attack`, :func:`drop_jump` …) with
a thin rolling wrapper documenting its draw order (:func:`roll_attack`: the attack d100,
then the defence d100 if the attack hits and the defender defends, then the damage d10
if the blow lands). A typical attack::

    setup = attack_setup(aldric, grolk, "arme_a_une_main", defence="parade",
                         guard=Guard(parry_prepared=True))
    result = resolve_attack(setup, attack_roll=63, defence_roll=77, damage_roll=4)
    result.sentence        # D100-ATK-4
    attack_outcomes(setup) # the exact distribution of the outcome

Combatants carry the stats ``CC``, ``CT``, ``F``, ``E``, ``Ag``, ``M`` (0–100) and ``B``
(wounds), the skill ``esquive``, and their armour as stats: ``PA`` for every location
and ``PA_tete``, ``PA_bras_droit``, ``PA_bras_gauche``, ``PA_corps``, ``PA_jambe_droite``,
``PA_jambe_gauche`` for one location (these win over ``PA``).

In an encounter (``Encounter("d100", combatants)``), ``start(rng, surprised=side,
equipment={name: {"directrice": weapon, "non_directrice": weapon}}, mounts={rider:
mount}, weapons={id: {...}})``; then ``act(name, action, rng, **params)`` with the actions
of :data:`ACTIONS` and the parameters of :data:`ACTION_PARAMS`.
"""

from __future__ import annotations

from escarmouche.systems._d100.core import (
    AIMS,
    DEFENCES,
    MAX_ROLLOFF_ROUNDS,
    STATS,
    AttackResult,
    AttackSetup,
    Guard,
    Initiative,
    InitiativeEntry,
    Modifier,
    Outcome,
    Rules,
    TargetNumber,
    TwoWeapons,
    armour_at,
    attack_setup,
    bonus,
    check_two_weapons,
    damage,
    defence_target,
    get_weapon,
    hand_label,
    hit_location,
    initiative,
    initiative_from_dice,
    location_of,
    resolve_attack,
    reverse_digits,
    roll_attack,
    roll_initiative,
    stat,
    substitute_location,
    target_number,
    validate_combatant,
)
from escarmouche.systems._d100.jumps import (
    DropJump,
    LongJump,
    drop_jump,
    long_jump,
    roll_drop_jump,
    roll_long_jump,
)
from escarmouche.systems._d100.narration import attack_sentence
from escarmouche.systems._d100.odds import AttackOutcomes, Odds, attack_odds, attack_outcomes
from escarmouche.systems._d100.system import (
    ACTION_PARAMS,
    ROUND_SECONDS,
    ROUNDS_PER_MINUTE,
    SYSTEM,
    D100System,
    elapsed_time,
)
from escarmouche.systems._d100.tables import (
    ACTIONS,
    COST_HALVES,
    COST_LABELS,
    HANDS,
    LOCATION_ARMOUR_KEYS,
    LOCATION_AT,
    LOCATION_TABLE,
    LOCATIONS,
    MAIN_HAND_WEAPONS,
    NEAREST_LOCATIONS,
    OFF_HAND_WEAPONS,
    WEAPONS,
    ActionDef,
    Weapon,
)
from escarmouche.systems._d100.turns import Extended, TurnPlan, check_turn

__all__ = [
    "ACTIONS",
    "ACTION_PARAMS",
    "AIMS",
    "COST_HALVES",
    "COST_LABELS",
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
    "ROUNDS_PER_MINUTE",
    "ROUND_SECONDS",
    "STATS",
    "SYSTEM",
    "WEAPONS",
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
    "attack_odds",
    "attack_outcomes",
    "attack_sentence",
    "attack_setup",
    "bonus",
    "check_turn",
    "check_two_weapons",
    "damage",
    "defence_target",
    "drop_jump",
    "elapsed_time",
    "get_weapon",
    "hand_label",
    "hit_location",
    "initiative",
    "initiative_from_dice",
    "location_of",
    "long_jump",
    "resolve_attack",
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
