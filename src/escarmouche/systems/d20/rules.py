"""The options of the d20 system (:class:`Rules`) and the constants and tables of its
rules (rules as data: a designer changes a table, not the code)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import ClassVar, Final

from escarmouche import dice
from escarmouche.errors import invalid
from escarmouche.model import Combatant
from escarmouche.options import check_options, option
from escarmouche.render.table import OptionsTable

__all__ = [
    "ACTION_POINT_SLOT",
    "ATTACK_DIE",
    "ATTACK_RANGES",
    "BASE_SLOTS",
    "BONUS_RANGE",
    "CATEGORIES",
    "CATEGORY_LABELS",
    "DEFAULT_RULES",
    "DEFENCE_RANGE",
    "FREE",
    "GRID_LIMIT",
    "HP_RANGE",
    "IMMEDIATE_EFFECTS",
    "IMMEDIATE_POWERS",
    "IMMEDIATE_RESETS",
    "INITIATIVE_DIE",
    "KEYWORD_SYNONYMS",
    "MAX_ACTION_POINTS",
    "MAX_DURATION_TURNS",
    "MAX_PLANNED_ACTIONS",
    "MINOR",
    "MOVE",
    "OPPORTUNITY_TRIGGERS",
    "OTHER_START_EFFECTS",
    "PHASE_ONLY",
    "RACIAL_SAVE_BONUSES",
    "REACTION_KEYS",
    "REACTION_TYPES",
    "ROLL_OFF_RANGE",
    "ROUND_SECONDS",
    "SAVE_DIE",
    "SAVE_TARGET_RANGE",
    "SIMPLE",
    "SPEED_RANGE",
    "START_PHASE_LABELS",
    "START_PHASE_ORDER",
    "SUBSTITUTES",
    "TRACK",
    "ImmediatePower",
    "ReactionType",
    "Rules",
    "action_points_of",
    "check_rules",
    "check_weapon",
    "defence_of",
    "immediate_resets",
    "refunded",
    "speed_of",
]

#: the die of initiative (D20-INIT-1), saving throws (D20-END-1) and attacks
INITIATIVE_DIE: Final = 20
SAVE_DIE: Final = 20
ATTACK_DIE: Final = 20

#: a round lasts 6 seconds (D20-TIME-1)
ROUND_SECONDS: Final = 6

#: the one damage track
TRACK: Final = "PV"

#: bounds on inputs (CORE-ERR)
GRID_LIMIT: Final = 1000
MAX_ACTION_POINTS: Final = 100
MAX_PLANNED_ACTIONS: Final = 1000
MAX_DURATION_TURNS: Final = 1000
BONUS_RANGE: Final = (-100, 100)
DEFENCE_RANGE: Final = (0, 100)
SPEED_RANGE: Final = (0, 100)
HP_RANGE: Final = (1, 1000)
SAVE_TARGET_RANGE: Final = (1, 40)
#: the bound of roll-off rounds a designer may set; past it, a lot (D20-INIT-2). 2 is
#: the lowest the book runs: its scripted example rolls off twice (7 and 7, then 15, 3)
ROLL_OFF_RANGE: Final = (2, 1000)

SIMPLE: Final = "simple"
MOVE: Final = "mouvement"
MINOR: Final = "mineure"
FREE: Final = "libre"

#: the action categories of a turn (D20-ACT-1)
CATEGORIES: tuple[str, ...] = (SIMPLE, MOVE, MINOR, FREE)

CATEGORY_LABELS: Mapping[str, str] = MappingProxyType({
    SIMPLE: "action simple",
    MOVE: "action de mouvement",
    MINOR: "action mineure",
    FREE: "action libre",
})

#: the slots of one turn: one of each (D20-ACT-1); free actions take none
BASE_SLOTS: tuple[str, ...] = (SIMPLE, MOVE, MINOR)

#: the slots each category may take, its own first (D20-ACT-1), then its substitutes
#: (D20-ACT-2: a move action instead of the standard one; a minor action instead of
#: the move or the standard one)
SUBSTITUTES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    SIMPLE: (SIMPLE,),
    MOVE: (MOVE, SIMPLE),
    MINOR: (MINOR, MOVE, SIMPLE),
})

#: the slot one action point buys (D20-ACT-3, ruling: a standard action, substitutable)
ACTION_POINT_SLOT: Final = SIMPLE

#: racial saving-throw bonuses by trait and effect keyword (D20-END-1)
RACIAL_SAVE_BONUSES: Mapping[str, Mapping[str, int]] = MappingProxyType({
    "nain": MappingProxyType({"poison": 5}),
    "halfelin": MappingProxyType({"terreur": 5}),
})

#: keywords read as another one (D20-END-1: « terreur », also written « peur »)
KEYWORD_SYNONYMS: Mapping[str, str] = MappingProxyType({"peur": "terreur"})

#: the order of the start-of-turn effects by ``Effect.kind`` (D20-START-1); any other
#: kind comes after (« autres effets »)
START_PHASE_ORDER: Mapping[str, int] = MappingProxyType({
    "degats_continus": 0,
    "regeneration": 1,
})
OTHER_START_EFFECTS: Final = 2

START_PHASE_LABELS: Mapping[str, str] = MappingProxyType({
    "degats_continus": "dégâts continus",
    "regeneration": "régénération",
})

#: the three cases of the opportunity attack (D20-OPP-2)
OPPORTUNITY_TRIGGERS: Mapping[str, str] = MappingProxyType({
    "quitte_case_adjacente": "un ennemi quitte une case qui vous est adjacente",
    "attaque_distance": "un ennemi qui vous est adjacent fait une attaque à distance",
    "attaque_zone": "un ennemi qui vous est adjacent fait une attaque de zone",
})

#: attack kinds: (the opportunity trigger it is, or None; French label)
ATTACK_RANGES: Mapping[str, tuple[str | None, str]] = MappingProxyType({
    "corps_a_corps": (None, "au corps à corps"),
    "distance": ("attaque_distance", "à distance"),
    "zone": ("attaque_zone", "de zone"),
})


@dataclass(frozen=True, slots=True)
class ReactionType:
    """An action taken during another combatant's turn (D20-OPP-*, D20-IMM-*).

    ``allowance`` names what it uses (``"opportunite"``: once per other combatant's
    turn; ``"immediate"``: once per round); ``before`` says whether it resolves before
    its trigger (and may cancel it) or after it.
    """

    id: str
    label: str
    allowance: str
    before: bool
    rules: tuple[str, ...]


REACTION_TYPES: Mapping[str, ReactionType] = MappingProxyType({
    "attaque_opportunite": ReactionType(
        "attaque_opportunite", "attaque d’opportunité", "opportunite", True,
        ("D20-OPP-1", "D20-OPP-2"),
    ),
    "interruption": ReactionType(
        "interruption", "interruption immédiate", "immediate", True,
        ("D20-IMM-1", "D20-IMM-2"),
    ),
    "reaction": ReactionType(
        "reaction", "réaction immédiate", "immediate", False, ("D20-IMM-1", "D20-IMM-2"),
    ),
})

#: what an immediate action does in the engine: an attack, invalidate its trigger
#: (an interruption only), or a described effect the GM applies by hand
IMMEDIATE_EFFECTS: Mapping[str, str] = MappingProxyType({
    "attaque": "attaque",
    "arret": "invalide l’action qui l’a déclenchée",
    "autre": "effet décrit, appliqué par le MJ",
})

@dataclass(frozen=True, slots=True)
class ImmediatePower:
    """An immediate action the d20 text names (D20-IMM-2) that automated play takes: who
    has it (``trait``), what it is (``reaction``, a key of :data:`REACTION_TYPES`), what
    triggers it (``trigger``: ``"attaque_subie"``, an enemy's attack action aimed at its
    bearer) and what the engine does with it (``effect``, a key of
    :data:`IMMEDIATE_EFFECTS`)."""

    id: str
    label: str
    trait: str
    reaction: str
    trigger: str
    effect: str
    rules: tuple[str, ...]


#: the immediate powers automated play offers, by id. The text names two examples
#: (D20-IMM-2): the halfling's racial power « Deuxième chance », an interruption, and the
#: fighter's « Indestructible », a reaction. Only the first has a bearer the rosters can
#: name (the trait « halfelin »). Its own text (p. 42 of the original) is not in our
#: source; the engine gives it the effect the book's example of D20-IMM-2 gives it: it
#: invalidates the attack that triggers it, which is cancelled (ruling of D20-IMM-2).
IMMEDIATE_POWERS: Mapping[str, ImmediatePower] = MappingProxyType({
    "deuxieme_chance": ImmediatePower(
        "deuxieme_chance", "Deuxième chance", "halfelin", "interruption", "attaque_subie",
        "arret", ("D20-IMM-1", "D20-IMM-2")),
})

#: when the immediate-action allowance comes back (D20-IMM-1)
IMMEDIATE_RESETS: Mapping[str, str] = MappingProxyType({
    "debut_de_son_tour": "au début de son propre tour (édition originale)",
    "debut_du_round": "au début de chaque round",
})

#: the keys of one declared reaction (parameter ``reactions`` of an action)
REACTION_KEYS: Final = ("par", "type", "effet", "cible", "bonus", "arme", "nom")

#: things that happen in a phase, never as an action: (when, rule)
PHASE_ONLY: Mapping[str, tuple[str, str]] = MappingProxyType({
    "jet_de_sauvegarde": ("automatiquement à la fin du tour", "D20-END-1"),
    "fin_d_effet": ("automatiquement à la fin du tour", "D20-END-2"),
    "degats_continus": ("automatiquement au début du tour", "D20-START-1"),
    "regeneration": ("automatiquement au début du tour", "D20-START-1"),
})


def check_weapon(weapon: object, who: str = "") -> str:
    """A damage expression (``1d8+2``), checked by the dice module (CORE-DICE)."""
    return dice.check_expression(weapon, who=who)


@dataclass(frozen=True, slots=True)
class Rules(OptionsTable):
    """The d20 system's options and modifiers (RULES.md has no *(option)* ruling for d20;
    these are its rulings and the engine's conveniences, which a designer may change).

    ``save_target``
        a saving throw succeeds on 1d20 + bonus ≥ this (D20-END-1, 10).
    ``immediate_reset``
        when the immediate-action allowance comes back (D20-IMM-1): at the start of
        one's own turn (``"debut_de_son_tour"``, the original edition's ruling) or at the
        start of each round (``"debut_du_round"``).
    ``max_action_points_per_turn``
        how many action points one turn may spend (D20-ACT-3); ``None``: no cap, as in
        the text (the original edition allows 1).
    ``cancelled_action_spent``
        whether an action cancelled by an opportunity action or an interruption still
        uses its slot (D20-OPP-1, D20-IMM-2; ``True``: « annulée », not given back).
    ``default_speed``, ``default_defence``, ``default_weapon``, ``default_action_points``
        the value used when a combatant lacks the stat ``VD``, ``defense``, a weapon, or
        ``PA`` (engine conveniences: 6 squares, 10, ``1d6``, 0).
    ``max_roll_off_rounds``
        the bound on initiative roll-off rounds (D20-INIT-1); beyond, the tie is
        settled by lot (D20-INIT-2).

    In a notebook, the options show as a French table (:meth:`table`).
    """

    options_title: ClassVar[str] = "Options du système d20"

    save_target: int = option(
        10, label="seuil du jet de sauvegarde", key="seuil_sauvegarde",
        rules=("D20-END-1",), lo=SAVE_TARGET_RANGE[0], hi=SAVE_TARGET_RANGE[1])
    immediate_reset: str = option(
        "debut_de_son_tour", label="retour du droit à une action immédiate",
        key="retour_action_immediate", rules=("D20-IMM-1",), choices=IMMEDIATE_RESETS)
    max_action_points_per_turn: int | None = option(
        None, label="plafond de points d’action par tour",
        key="points_action_max_par_tour", rules=("D20-ACT-3",), lo=1, hi=MAX_ACTION_POINTS,
        optional=True, labels={None: "aucun plafond"})
    cancelled_action_spent: bool = option(
        True, label="une action annulée reste dépensée", key="action_annulee_depensee",
        rules=("D20-OPP-1", "D20-IMM-2"), labels={
            True: "oui (l’action annulée est perdue)",
            False: "non (l’action annulée est rendue)",
        })
    default_speed: int = option(
        6, label="vitesse par défaut, en cases, faute de VD",
        key="vitesse_par_defaut", rules=("D20-ACT-1",), lo=SPEED_RANGE[0], hi=SPEED_RANGE[1])
    default_defence: int = option(
        10, label="défense par défaut", key="defense_par_defaut", rules=("D20-OPP-2",),
        lo=DEFENCE_RANGE[0], hi=DEFENCE_RANGE[1])
    default_weapon: str = option(
        "1d6", label="dégâts d’une arme non précisée", key="arme_par_defaut",
        rules=("D20-OPP-2",), check=lambda w: check_weapon(w, "arme par défaut"))
    default_action_points: int = option(
        0, label="points d’action par défaut, faute de PA", key="points_action_par_defaut",
        rules=("D20-ACT-3",), lo=0, hi=MAX_ACTION_POINTS)
    max_roll_off_rounds: int = option(
        100, label="jets de départage d’initiative au plus", key="departages_max",
        rules=("D20-INIT-1", "D20-INIT-2"), lo=ROLL_OFF_RANGE[0], hi=ROLL_OFF_RANGE[1],
        bound="les jets de départage se répètent tant que l’égalité demeure\u202f; au-delà "
        "de ce nombre, les ex æquo sont départagés au sort, avec les mêmes dés "
        "(D20-INIT-2), et le combat continue")

    def __post_init__(self) -> None:
        check_options(self)


#: the rules by default (a module-level value, so that defaults are not rebuilt)
DEFAULT_RULES: Final = Rules()


def check_rules(rules: object) -> Rules:
    """``rules`` (``None``: :data:`DEFAULT_RULES`), checked to be a :class:`Rules`."""
    if rules is None:
        return DEFAULT_RULES
    if not isinstance(rules, Rules):
        raise invalid("rules", rules, "CORE-ERR", "une instance de d20.Rules est attendue")
    return rules


# -- what the options decide, as pure functions (the engine and the odds both call them) --


def speed_of(combatant: Combatant, rules: Rules = DEFAULT_RULES) -> int:
    """The squares one move action covers: ``VD``, else :attr:`Rules.default_speed`
    (D20-ACT-1)."""
    return combatant.stat("VD", rules.default_speed)


def defence_of(combatant: Combatant, rules: Rules = DEFAULT_RULES) -> int:
    """The defence an attack must reach: ``defense``, else :attr:`Rules.default_defence`
    (D20-OPP-2)."""
    return combatant.stat("defense", rules.default_defence)


def action_points_of(combatant: Combatant, rules: Rules = DEFAULT_RULES) -> int:
    """The action points a creature starts with: ``PA``, else
    :attr:`Rules.default_action_points` (D20-ACT-3)."""
    return combatant.stat("PA", rules.default_action_points)


def refunded(rules: Rules, used: Sequence[str], category: str) -> list[str]:
    """The categories still counted as used this turn after an action of ``category``
    was cancelled by a reaction (D20-OPP-1, D20-IMM-2): all of them while
    :attr:`Rules.cancelled_action_spent`, else without the last one of ``category``.

    >>> refunded(Rules(cancelled_action_spent=False), ["simple", "mouvement"], "mouvement")
    ['simple']
    """
    out = list(used)
    if rules.cancelled_action_spent:
        return out
    for i in range(len(out) - 1, -1, -1):
        if out[i] == category:
            del out[i]
            break
    return out


def immediate_resets(rules: Rules, moment: str) -> bool:
    """Whether the allowance of one immediate action comes back at ``moment``:
    ``"debut_du_round"`` or ``"debut_de_son_tour"`` (D20-IMM-1,
    :attr:`Rules.immediate_reset`)."""
    return rules.immediate_reset == moment
