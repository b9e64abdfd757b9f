"""System « Rulebook » (seed 000): D100 on HAB, turn 0, surprise, speed effects (RB-*).

The rules are those of RULES.md, section ``rulebook``; every public function cites the
rule IDs it implements. **Dice in, decisions out**: each rule is a pure function of dice
already rolled (:func:`d100_test`, :func:`resolve_initiative`, :func:`resolve_surprise`,
:func:`apply_speed`, :func:`resolve_hypoactivity`) with a thin wrapper that draws every
die with ``rng.randint(1, faces)`` in a documented order (:func:`initiative`, also named
:func:`roll_initiative`; :func:`roll_surprise`; :func:`surprise`). Exact odds are
``<thing>_odds`` (:func:`d100_odds`, :func:`first_to_act_odds`, :func:`surprise_odds`,
:func:`turn_zero_odds`).

The package has the files of every system, plus two topic modules:

================ =========================================================================
``rules.py``     the ``Rules`` options (each declared once on its field, French label and key),
                 the constants and tables of the rules, and the D100 test (RB-D100-1)
``initiative.py`` the initiative, turn 0 and the order of each turn (RB-INIT-1..4,
                 RB-SURPRISE-3)
``speed.py``     the speed effects (RB-SPEED-1..3)
``surprise.py``  the surprise attack (RB-SURPRISE-1/2)
``actions.py``   the action catalogue (:data:`ACTIONS`, one ``ActionSpec`` each) and one
                 resolver per action (RB-ACT-1/2, RB-MOVE-1, RB-END-2/3)
``odds.py``      exact odds (``Fraction``), from the same pure functions as play
``narration.py`` the French sentences of the log
``system.py``    the hooks that plug the rules into the encounter engine, and ``SYSTEM``
================ =========================================================================

Draw orders
-----------
* :func:`initiative`: one d100 per combatant (HAB test, RB-INIT-1) in the given order;
  then the roll-offs (RB-INIT-2): in each round, one d100 for every combatant still tied,
  whatever its tie group, in the given order; rounds repeat until every tie is broken
  (at most :data:`MAX_ROLLOFF_ROUNDS` rounds, then :class:`RuleBoundError`).
* :func:`surprise` / :func:`roll_surprise`: the attackers' d100, then the defenders'
  d100 (RB-SURPRISE-2); nothing when ``unaware`` is false.
* In an :class:`~escarmouche.encounter.Encounter`: ``start`` draws the surprise dice (if
  ``surprise_by`` is given and ``unaware`` is true), then the initiative dice, then the
  roll-offs. During the fight: a 1d4 at each activation of a character under
  Hypoactivité (RB-SPEED-1), and the damage dice of an action that rolls them.

Rulings (the book shows them as « Interprétation retenue »)
-----------------------------------------------------------
* RB-D100-1 wins over CORE-ERR's clamping: a critical success always succeeds and a
  critical failure always fails, even when the stat is ≤ 0 or ≥ 100.
* Speed effects (RB-SPEED-3) are applied to the initiative order of the characters still
  in the fight; the participants of the turn are picked afterwards (turn 0: RB-INIT-3 /
  RB-SURPRISE-3; turn 1: without the critical failures of RB-INIT-4). « Moved » in the
  Dépassement / Dépassé step means « already swapped in that step ».
* Several copies of one speed effect do not stack (one Hyperactivité at most, one extra
  activation); copies only matter for cancelling pair by pair (RB-SPEED-2).
* A speed effect gained during the fight (:func:`speed_effect`, or an action's
  ``vitesse`` parameter) counts for the order of each global turn that starts while it
  is active; one inflicted by an action starts with the next global turn (the order of
  the current turn is already fixed) and lasts ``duree`` global turns.
* Turn 0 has no second Hyperactivité activation (RB-SURPRISE-3), with or without a
  surprise attack; it is skipped when nobody qualifies.
* Only fighters who have a slot in the current global turn can act at all: a surprised
  defender outside turn 0 and a critical failure before turn 2 cannot even move out of
  turn (RB-INIT-4, RB-SURPRISE-3).
* The surprise group value (``surprise_aggregate``): ``"plus_faible"`` = the attackers'
  lowest DIS against the defenders' highest PMR; ``"meneur"`` = the first listed member
  of each group (roster order in an encounter); ``"moyenne"`` = each group's mean,
  rounded down. The English values of earlier versions (``"weakest"``, ``"leader"``,
  ``"mean"``; ``"consecutive"``, ``"end_of_turn"`` for ``hyperactive_slot``) are still
  read, with a French note naming the new one.
"""

from __future__ import annotations

from escarmouche.systems.rulebook.actions import (
    ACTIONS,
    COSTS,
    OUT_OF_TURN,
    RESOLVERS,
)
from escarmouche.systems.rulebook.initiative import (
    Initiative,
    InitiativeRoll,
    TieBreak,
    TurnZeroEntry,
    encounter_initiative,
    initiative,
    resolve_initiative,
    roll_initiative,
)
from escarmouche.systems.rulebook.odds import (
    D100Odds,
    d100_odds,
    first_to_act_odds,
    initiative_score_distribution,
    surprise_chance,
    surprise_odds,
    turn_zero_odds,
)
from escarmouche.systems.rulebook.rules import (
    COST_LABELS,
    CRITICAL_LABELS,
    DECLARED_DAMAGE,
    DECLARED_DAMAGE_FACES,
    DEFAULT_RULES,
    ECLAT,
    ECLAT_MAX,
    HYPERACTIVE_SLOTS,
    KNOWN_TRAITS,
    MAX_ROLLOFF_ROUNDS,
    OLD_HYPERACTIVE_SLOTS,
    OLD_SURPRISE_AGGREGATES,
    REQUIRED_STATS,
    SPEED_EFFECTS,
    SPEED_KIND,
    SPEED_PAIRS,
    SURPRISE_AGGREGATES,
    TRACKS,
    Rules,
    SpeedEffectDef,
    TestResult,
    d100_test,
    roll_d100_test,
)
from escarmouche.systems.rulebook.speed import (
    HypoactivityCheck,
    SpeedOrder,
    SpeedProfile,
    SpeedSource,
    SpeedStep,
    apply_speed,
    resolve_hypoactivity,
    resolve_speed,
    speed_effect,
    speed_profiles,
)
from escarmouche.systems.rulebook.surprise import (
    SurpriseResult,
    group_values,
    resolve_surprise,
    roll_surprise,
    surprise,
)
from escarmouche.systems.rulebook.system import (
    SYSTEM,
    RulebookSystem,
)

#: names of the rulebook before the one naming rule (kept for compatibility)
initiative_from_rolls = resolve_initiative
surprise_from_rolls = resolve_surprise
surprise_test = roll_surprise
hypoactivity_check = resolve_hypoactivity

__all__ = [
    "ACTIONS",
    "COSTS",
    "COST_LABELS",
    "CRITICAL_LABELS",
    "DECLARED_DAMAGE",
    "DECLARED_DAMAGE_FACES",
    "DEFAULT_RULES",
    "ECLAT",
    "ECLAT_MAX",
    "HYPERACTIVE_SLOTS",
    "KNOWN_TRAITS",
    "MAX_ROLLOFF_ROUNDS",
    "OLD_HYPERACTIVE_SLOTS",
    "OLD_SURPRISE_AGGREGATES",
    "OUT_OF_TURN",
    "REQUIRED_STATS",
    "RESOLVERS",
    "SPEED_EFFECTS",
    "SPEED_KIND",
    "SPEED_PAIRS",
    "SURPRISE_AGGREGATES",
    "SYSTEM",
    "TRACKS",
    "D100Odds",
    "HypoactivityCheck",
    "Initiative",
    "InitiativeRoll",
    "RulebookSystem",
    "Rules",
    "SpeedEffectDef",
    "SpeedOrder",
    "SpeedProfile",
    "SpeedSource",
    "SpeedStep",
    "SurpriseResult",
    "TestResult",
    "TieBreak",
    "TurnZeroEntry",
    "apply_speed",
    "d100_odds",
    "d100_test",
    "encounter_initiative",
    "first_to_act_odds",
    "group_values",
    "hypoactivity_check",
    "initiative",
    "initiative_from_rolls",
    "initiative_score_distribution",
    "resolve_hypoactivity",
    "resolve_initiative",
    "resolve_speed",
    "resolve_surprise",
    "roll_d100_test",
    "roll_initiative",
    "roll_surprise",
    "speed_effect",
    "speed_profiles",
    "surprise",
    "surprise_chance",
    "surprise_from_rolls",
    "surprise_odds",
    "surprise_test",
    "turn_zero_odds",
]
