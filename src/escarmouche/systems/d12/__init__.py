"""System d12 (seed 002): group initiative, environment at 12, ambush bonus turn,
critical options (RULES.md « System d12 », rules ``D12-*``).

Dice in, decisions out: every rule is a pure function of dice already rolled
(``resolve_<thing>``), with rolling functions (``roll_<thing>``, and the spec/API.md name
:func:`initiative`) that draw every die with ``rng.randint(1, faces)`` in a documented
order; exact odds (``<thing>_odds``, ``<thing>_distribution``) use
:class:`fractions.Fraction`.

The package has the files of every system, plus one topic module:

================= =========================================================================
``rules.py``      :class:`Rules` (the options, each declared once on its field),
                  :class:`Mode`, the critical options, the constants and validators,
                  the duration of a turn (D12-TIME-1)
``initiative.py`` group initiative, the environment, the ambush's bonus turn
                  (D12-INIT-1..5, D12-SURPRISE-1/2): pure :func:`rank_groups`,
                  :func:`member_order`, :func:`resolve_initiative`; rolling
                  :func:`initiative` (spec/API.md), whose core on a checked roster,
                  ``draw_initiative``, the rules kernel calls
``explain.py``    the initiative and the ambush explained for a reader
                  (``D12System.explain_initiative`` and ``explain_surprise``)
``critical.py``   the attack and its critical options (D12-CRIT-1/2, D12-ADV-1,
                  D12-EXPLODE-1): pure :func:`resolve_attack_roll`,
                  :func:`resolve_damage`; rolling :func:`roll_attack`,
                  :func:`roll_damage`, :func:`roll_attack_outcome`
``actions.py``    the action catalogue (D12-ACT-1, :attr:`Rules.actions`) and one
                  resolver per kind of action
``odds.py``       exact odds: attack, damage, critical options (cached), the group order
                  (one exact algorithm), the bonus turn
``narration.py``  the French sentences of the log and of the explanations
``system.py``     :class:`D12System`, the hooks of the encounter engine, and ``SYSTEM``
================= =========================================================================

Every name of the former single module is still importable from here; the names before
the naming rule are kept as aliases (:func:`attack_roll` = :func:`resolve_attack_roll`,
:func:`damage_roll` = :func:`resolve_damage`, :func:`resolve_attack` =
:func:`roll_attack_outcome`, :func:`hit_chance` = :func:`hit_odds`,
:func:`critical_chance` = :func:`critical_odds`).
"""

from escarmouche.state import ENVIRONMENT
from escarmouche.systems.base import ActionSpec
from escarmouche.systems.d12.actions import ACTIONS, RESOLVERS, catalogue
from escarmouche.systems.d12.critical import (
    AttackOutcome,
    AttackRoll,
    DamageRoll,
    attack_expression,
    attack_roll,
    combine_modes,
    damage_expression,
    damage_roll,
    net_mode,
    resolve_attack,
    resolve_attack_roll,
    resolve_damage,
    roll_attack,
    roll_attack_outcome,
    roll_damage,
)
from escarmouche.systems.d12.initiative import (
    BONUS_SCOPE,
    BonusTie,
    D12Initiative,
    GroupResult,
    GroupTie,
    InitiativeRoll,
    PerfectTie,
    RollOff,
    bonus_turn_participants,
    compare_groups,
    initiative,
    member_order,
    rank_groups,
    resolve_initiative,
    roll_bonus_turn,
    roll_groups_after_bonus,
    roll_initiative,
)
from escarmouche.systems.d12.odds import (
    MAX_ODDS_GROUPS,
    MAX_ODDS_STATES,
    BonusTurnOdds,
    GroupOdds,
    OptionValue,
    OptionValues,
    attack_damage_distribution,
    attack_die_table,
    best_critical_option,
    bonus_turn_odds,
    critical_chance,
    critical_damage_distribution,
    critical_damage_table,
    critical_odds,
    critical_option_values,
    damage_distribution,
    expected,
    group_odds,
    group_order_odds,
    hit_chance,
    hit_odds,
    hit_odds_table,
)
from escarmouche.systems.d12.rules import (
    ADVANTAGE_EFFECT_KIND,
    ALERT_TRAIT,
    ATTACK_DIE,
    BONUS_RANGE,
    CAP_RANGE,
    CRITICAL_OPTIONS,
    DECLARED,
    DEFAULT_ACTIONS,
    DEFAULT_RULES,
    DEFENCE_RANGE,
    ENVIRONMENT_INITIATIVE,
    FREE_COST,
    HP_RANGE,
    MODE_LABELS,
    REQUIRED_ACTIONS,
    RESOLVER_KINDS,
    TRACK,
    TURN_SECONDS,
    TURNS_PER_MINUTE,
    CriticalOption,
    Mode,
    Rules,
    elapsed_minutes,
    elapsed_seconds,
)
from escarmouche.systems.d12.system import START_OPTIONS, SYSTEM, D12System

__all__ = [
    "ACTIONS",
    "ADVANTAGE_EFFECT_KIND",
    "ALERT_TRAIT",
    "ATTACK_DIE",
    "BONUS_RANGE",
    "BONUS_SCOPE",
    "CAP_RANGE",
    "CRITICAL_OPTIONS",
    "DECLARED",
    "DEFAULT_ACTIONS",
    "DEFAULT_RULES",
    "DEFENCE_RANGE",
    "ENVIRONMENT",
    "ENVIRONMENT_INITIATIVE",
    "FREE_COST",
    "HP_RANGE",
    "MAX_ODDS_GROUPS",
    "MAX_ODDS_STATES",
    "MODE_LABELS",
    "REQUIRED_ACTIONS",
    "RESOLVERS",
    "RESOLVER_KINDS",
    "START_OPTIONS",
    "SYSTEM",
    "TRACK",
    "TURNS_PER_MINUTE",
    "TURN_SECONDS",
    "ActionSpec",
    "AttackOutcome",
    "AttackRoll",
    "BonusTie",
    "BonusTurnOdds",
    "CriticalOption",
    "D12Initiative",
    "D12System",
    "DamageRoll",
    "GroupOdds",
    "GroupResult",
    "GroupTie",
    "InitiativeRoll",
    "Mode",
    "OptionValue",
    "OptionValues",
    "PerfectTie",
    "RollOff",
    "Rules",
    "attack_damage_distribution",
    "attack_die_table",
    "attack_expression",
    "attack_roll",
    "best_critical_option",
    "bonus_turn_odds",
    "bonus_turn_participants",
    "catalogue",
    "combine_modes",
    "compare_groups",
    "critical_chance",
    "critical_damage_distribution",
    "critical_damage_table",
    "critical_odds",
    "critical_option_values",
    "damage_distribution",
    "damage_expression",
    "damage_roll",
    "elapsed_minutes",
    "elapsed_seconds",
    "expected",
    "group_odds",
    "group_order_odds",
    "hit_chance",
    "hit_odds",
    "hit_odds_table",
    "initiative",
    "member_order",
    "net_mode",
    "rank_groups",
    "resolve_attack",
    "resolve_attack_roll",
    "resolve_damage",
    "resolve_initiative",
    "roll_attack",
    "roll_attack_outcome",
    "roll_bonus_turn",
    "roll_damage",
    "roll_groups_after_bonus",
    "roll_initiative",
]
