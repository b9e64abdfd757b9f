"""System d20 (seed 003): the turn sequence — start of turn, action economy, end of turn
with saving throws, opportunity and immediate actions (RULES.md « System d20 », ``D20-*``).

The package has the files of every system, plus four topic modules:

================= ========================================================================
``rules.py``      :class:`Rules` (the options, each declared once on its field with its
                  French label, key and value labels) and the tables of the rules
``initiative.py`` D20-INIT-1 and D20-TIME-1: :func:`initiative_order` (pure),
                  :func:`roll_initiative` (draws the dice), :func:`elapsed_seconds`
``actions.py``    the attack, legality, and one resolver per action
``turn.py``       the catalogue :data:`ACTIONS` (one ``ActionSpec`` each) and the budget of
                  a turn (:func:`plan_turn`, :func:`check_turn`, D20-ACT-1..3), pure
``reactions.py``  opportunity and immediate actions (D20-OPP-*, D20-IMM-*),
                  :func:`opportunity_attack_allowed`, :func:`can_react`
``grid.py``       squares, adjacency (:func:`is_adjacent`) and movement
``saves.py``      saving throws (D20-END-1): :func:`resolve_save`, :func:`saving_throw`,
                  :func:`roll_save`, :func:`save_bonus`
``odds.py``       exact odds: :func:`save_odds`, :func:`duration_odds`,
                  :func:`lasts_exactly`, :func:`first_to_act_odds`
``narration.py``  the French sentences of the log
``kernel.py``     the rules kernel: simulation mode's fast path (``D20System.kernel``),
                  a sheet compiled once, a compact state, refusal codes, the moves of
                  automated play, calling the functions above; ``kernel_doors.py``
                  writes its fight back as the engine's and narrates its log
``system.py``     the hooks of :class:`D20System`, and ``SYSTEM``
================= ========================================================================

Dice in, decisions out: every rule is a pure function of dice already rolled, with thin
wrappers that draw every die with ``rng.randint(1, faces)`` in a documented order. The
results and odds the book shows (:class:`TurnPlan`, :class:`SaveResult`,
:class:`SaveOdds`, :class:`DurationOdds`, :class:`D20Initiative`, :class:`Rules`)
display themselves in a notebook as French tables or sentences.

Rules and rulings implemented here, with their ID:

* D20-TIME-1 — a round is 6 s and every creature's turn once (:data:`ROUND_SECONDS`,
  :func:`elapsed_seconds`); the encounter calls a global turn a « round ».
* D20-INIT-1 — *from the original edition, absent from the text*: 1d20 + ``init``
  (0 when absent), descending; ties by the higher modifier, then roll-offs (one d20 per
  still-tied combatant, higher first), at most :attr:`Rules.max_roll_off_rounds` rounds.
* D20-START-1 — at the start of a turn the engine ticks the bearer's effects timed
  ``ACTIVATION_START`` in the order of :data:`START_PHASE_ORDER`: ongoing damage
  (``kind="degats_continus"``), regeneration (``kind="regeneration"``), then the other
  effects. The phase runs inside the engine's operation, so no action can be slipped in.
* D20-ACT-1..3 — the budget of a turn (:mod:`~escarmouche.systems.d20.actions`).
* D20-END-1 — at the end of the turn, one saving throw per effect with
  ``save_ends=True`` (in the order the effects were added): 1d20 + :func:`save_bonus`
  ≥ :attr:`Rules.save_target` (10) ends it.
* D20-END-2 — effects timed ``ACTIVATION_END`` with one tick left end after the saves
  (the engine removes them; this package announces them with the rule ID).
* D20-OPP-1/2, D20-IMM-1/2 — :mod:`~escarmouche.systems.d20.reactions`.

Rulings where the text is silent (« Interprétation retenue »):

* **A cancelled action stays spent** (:attr:`Rules.cancelled_action_spent`): the text
  says the triggering action is « annulée », not given back.
* **Where a cancelled move stops**: an opportunity attack is triggered when the mover
  *leaves* a square adjacent to the attacker, so a move cancelled by it leaves the
  mover on the square it was about to leave (its start square when the trigger is the
  first step); an interruption resolves before the first step, so a move it cancels
  leaves the mover on its start square.
* **Action points per turn** are not capped by the text
  (:attr:`Rules.max_action_points_per_turn` = ``None``; the original edition allows 1).

Engine conveniences (no rule ID of their own; the text has no attack resolution): the
attack (1d20 + ``attaque`` ≥ ``defense``, then the ``arme`` damage), movement on the
grid (:mod:`~escarmouche.systems.d20.grid`), action points from the stat ``PA``
(:attr:`Rules.default_action_points`), reactions declared with the action that
triggers them (parameter ``reactions``), resolved in one atomic operation; a reaction
that has become impossible does not happen and uses no allowance; reactions do not
trigger reactions.
"""

from escarmouche.systems.d20.actions import (
    ACTION_CATEGORIES,
    ACTION_TIMINGS,
    ACTIONS,
    RESOLVERS,
    AttackRoll,
    TurnPlan,
    check_turn,
    plan_turn,
    resolve_attack,
)
from escarmouche.systems.d20.grid import is_adjacent
from escarmouche.systems.d20.initiative import (
    D20Initiative,
    InitiativeRoll,
    elapsed_seconds,
    initiative,
    initiative_order,
    roll_initiative,
)
from escarmouche.systems.d20.odds import (
    DurationOdds,
    SaveOdds,
    duration_odds,
    first_to_act_odds,
    lasts_exactly,
    save_odds,
)
from escarmouche.systems.d20.reactions import can_react, opportunity_attack_allowed
from escarmouche.systems.d20.rules import (
    ACTION_POINT_SLOT,
    ATTACK_DIE,
    ATTACK_RANGES,
    BASE_SLOTS,
    BONUS_RANGE,
    CATEGORIES,
    CATEGORY_LABELS,
    DEFAULT_RULES,
    FREE,
    IMMEDIATE_EFFECTS,
    IMMEDIATE_RESETS,
    INITIATIVE_DIE,
    KEYWORD_SYNONYMS,
    MINOR,
    MOVE,
    OPPORTUNITY_TRIGGERS,
    PHASE_ONLY,
    RACIAL_SAVE_BONUSES,
    REACTION_TYPES,
    ROUND_SECONDS,
    SAVE_DIE,
    SIMPLE,
    START_PHASE_ORDER,
    SUBSTITUTES,
    ReactionType,
    Rules,
)
from escarmouche.systems.d20.saves import (
    SaveResult,
    resolve_save,
    roll_save,
    save_bonus,
    saving_throw,
)
from escarmouche.systems.d20.system import SYSTEM, D20System

__all__ = [
    "ACTIONS",
    "ACTION_CATEGORIES",
    "ACTION_POINT_SLOT",
    "ACTION_TIMINGS",
    "ATTACK_DIE",
    "ATTACK_RANGES",
    "BASE_SLOTS",
    "BONUS_RANGE",
    "CATEGORIES",
    "CATEGORY_LABELS",
    "DEFAULT_RULES",
    "FREE",
    "IMMEDIATE_EFFECTS",
    "IMMEDIATE_RESETS",
    "INITIATIVE_DIE",
    "KEYWORD_SYNONYMS",
    "MINOR",
    "MOVE",
    "OPPORTUNITY_TRIGGERS",
    "PHASE_ONLY",
    "RACIAL_SAVE_BONUSES",
    "REACTION_TYPES",
    "RESOLVERS",
    "ROUND_SECONDS",
    "SAVE_DIE",
    "SIMPLE",
    "START_PHASE_ORDER",
    "SUBSTITUTES",
    "SYSTEM",
    "AttackRoll",
    "D20Initiative",
    "D20System",
    "DurationOdds",
    "InitiativeRoll",
    "ReactionType",
    "Rules",
    "SaveOdds",
    "SaveResult",
    "TurnPlan",
    "can_react",
    "check_turn",
    "duration_odds",
    "elapsed_seconds",
    "first_to_act_odds",
    "initiative",
    "initiative_order",
    "is_adjacent",
    "lasts_exactly",
    "opportunity_attack_allowed",
    "plan_turn",
    "resolve_attack",
    "resolve_save",
    "roll_initiative",
    "roll_save",
    "save_bonus",
    "save_odds",
    "saving_throw",
]
