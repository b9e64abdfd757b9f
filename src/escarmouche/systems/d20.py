"""System d20 (seed 003): the turn sequence — start of turn, action economy, end of turn
with saving throws, opportunity and immediate actions (RULES.md « System d20 », ``D20-*``).

Dice in, decisions out: every rule is a pure function of dice already rolled
(:func:`initiative_order`, :func:`plan_turn` / :func:`check_turn`, :func:`resolve_save`
/ :func:`saving_throw`, :func:`save_bonus`, :func:`opportunity_attack_allowed`,
:func:`resolve_attack`), with thin wrappers that draw every die with
``rng.randint(1, faces)`` in a documented order (:func:`initiative`, :func:`roll_save`).
Exact odds (:func:`save_odds`, :func:`duration_odds`, :func:`lasts_exactly`) are
:class:`fractions.Fraction` computed from :func:`escarmouche.dice.distribution`.

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
* D20-ACT-1..3 — the budget of a turn is one slot of each of :data:`BASE_SLOTS`;
  :data:`SUBSTITUTES` says which slots an action category may take (a move action in
  the standard slot; a minor action in the move or standard slot); each action point
  adds one standard slot (:data:`ACTION_POINT_SLOT`, the ruling of D20-ACT-3), itself
  substitutable. Free actions take no slot. The check is an exact bipartite matching,
  so any order of the same actions gives the same verdict.
* D20-END-1 — at the end of the turn, one saving throw per effect with
  ``save_ends=True`` (in the order the effects were added): 1d20 + :func:`save_bonus`
  ≥ :attr:`Rules.save_target` (10) ends it. Racial bonuses are data
  (:data:`RACIAL_SAVE_BONUSES`, :data:`KEYWORD_SYNONYMS`: « peur » reads « terreur »).
  A bonus of a trait counts once per effect, whatever the number of matching keywords.
* D20-END-2 — effects timed ``ACTIVATION_END`` with one tick left end after the saves
  (the engine removes them; this module announces them with the rule ID).
* D20-OPP-1 — one opportunity action per other combatant's turn: the allowance is
  keyed by the activation in progress, so it is fresh at the start of every turn.
* D20-OPP-2 — an opportunity attack exactly in the three cases of
  :data:`OPPORTUNITY_TRIGGERS`, by an enemy, on a square grid where adjacent means one
  of the 8 neighbouring squares (:func:`is_adjacent`).
* D20-IMM-1 — one immediate action per round, never during one's own turn; the
  allowance comes back at the start of one's own turn (:attr:`Rules.immediate_reset`,
  the ruling from the original edition).
* D20-IMM-2 — an interruption (and an opportunity attack) resolves before its trigger;
  if it invalidates it (the actor is out, or the power stops it: ``effet="arret"``),
  the trigger is cancelled. A reaction resolves after the trigger has fully resolved.

Rulings of this module where the text is silent (« Interprétation retenue »):

* **A cancelled action stays spent** (:attr:`Rules.cancelled_action_spent`): the text
  says the triggering action is « annulée », not given back.
* **Where a cancelled move stops**: an opportunity attack is triggered when the mover
  *leaves* a square adjacent to the attacker, so a move cancelled by it leaves the
  mover on the square it was about to leave (its start square when the trigger is the
  first step); an interruption resolves before the first step, so a move it cancels
  leaves the mover on its start square.
* **Action points per turn** are not capped by the text
  (:attr:`Rules.max_action_points_per_turn` = ``None``; the original edition allows 1).

Engine conveniences (no rule ID of their own; the text has no attack resolution):

* an attack hits when 1d20 + ``attaque`` (or the ``bonus`` given) ≥ the target's
  ``defense`` (:attr:`Rules.default_defence` when absent); it then deals the ``arme``
  damage expression (:attr:`Rules.default_weapon`), never below 0. Draw order: the d20,
  then the damage dice when it hits. A zone attack rolls once per target, in order.
* a move action moves up to ``VD`` squares (:attr:`Rules.default_speed`), one of the 8
  neighbouring squares per step; enemies' squares cannot be entered; allies' squares
  can be crossed but not ended on. Positions are ``FighterState.flags["pos"]``
  (``[x, y]``), given by the ``positions`` option of ``Encounter.start`` or placed by the
  GM (action ``placer``); without them, each side stands on a column (side *i* at
  x = *i*, its members at y = 0, 1, 2 … in roster order).
* action points come from the stat ``PA`` (:attr:`Rules.default_action_points`).
* reactions are declared with the action that triggers them (parameter ``reactions``)
  and resolved in one atomic operation; a reaction that has become impossible (its
  author or its target is out, the trigger was cancelled) does not happen and uses no
  allowance. Reactions do not trigger reactions.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Final

from escarmouche import dice
from escarmouche._rng import Rng
from escarmouche.errors import EscarmoucheError, IllegalActionError, RuleBoundError
from escarmouche.model import Combatant, DieRecord, Effect, Json, Timing, check_roster
from escarmouche.render.fmt import de
from escarmouche.systems.base import ActionSpec, System

if TYPE_CHECKING:
    from escarmouche.encounter import Ctx, FighterState

__all__ = [
    "ACTIONS",
    "ACTION_POINT_SLOT",
    "ATTACK_DIE",
    "ATTACK_RANGES",
    "BASE_SLOTS",
    "CATEGORIES",
    "CATEGORY_LABELS",
    "IMMEDIATE_EFFECTS",
    "IMMEDIATE_RESETS",
    "INITIATIVE_DIE",
    "KEYWORD_SYNONYMS",
    "OPPORTUNITY_TRIGGERS",
    "PHASE_ONLY",
    "RACIAL_SAVE_BONUSES",
    "REACTION_TYPES",
    "ROUND_SECONDS",
    "SAVE_DIE",
    "START_PHASE_ORDER",
    "SUBSTITUTES",
    "SYSTEM",
    "ActionDef",
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
    "check_turn",
    "duration_odds",
    "elapsed_seconds",
    "initiative",
    "initiative_order",
    "is_adjacent",
    "lasts_exactly",
    "opportunity_attack_allowed",
    "plan_turn",
    "resolve_attack",
    "resolve_save",
    "roll_save",
    "save_bonus",
    "save_odds",
    "saving_throw",
]

# ---------------------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------------------

#: the die of initiative (D20-INIT-1), saving throws (D20-END-1) and attacks
INITIATIVE_DIE: Final = 20
SAVE_DIE: Final = 20
ATTACK_DIE: Final = 20

#: a round lasts 6 seconds (D20-TIME-1)
ROUND_SECONDS: Final = 6

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
ROLL_OFF_RANGE: Final = (1, 1000)

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

#: when the immediate-action allowance comes back (D20-IMM-1)
IMMEDIATE_RESETS: Mapping[str, str] = MappingProxyType({
    "debut_de_son_tour": "au début de son propre tour (édition originale)",
    "debut_du_round": "au début de chaque round",
})

REACTION_KEYS: Final = ("par", "type", "effet", "cible", "bonus", "arme", "nom")


@dataclass(frozen=True, slots=True)
class ActionDef:
    """An entry of the action catalogue: id, French label, what kind of action it is.

    ``kind`` is ``"tour"`` (on one's own turn, in the slot of ``category``), ``"libre"``
    (free, any time), ``"point_action"`` (D20-ACT-3), ``"immediate"`` (D20-IMM-*, out of
    turn), ``"opportunite"`` (D20-OPP-*, only declared with its trigger) or ``"mj"`` (a
    GM operation, no action of the fighter).
    """

    id: str
    label: str
    kind: str
    category: str | None = None
    params: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()


_ATTACK_PARAMS = ("cible", "cibles", "portee", "bonus", "arme", "reactions")
_IMMEDIATE_PARAMS = ("declencheur", "effet", "cible", "bonus", "arme", "nom")

#: the action catalogue (D20-ACT-1): named actions and their category
ACTIONS: Mapping[str, ActionDef] = MappingProxyType({
    "attaque": ActionDef("attaque", "Attaquer", "tour", SIMPLE, _ATTACK_PARAMS,
                         ("D20-ACT-1",)),
    "deplacement": ActionDef("deplacement", "Se déplacer", "tour", MOVE,
                             ("chemin", "reactions"), ("D20-ACT-1",)),
    "degainer": ActionDef("degainer", "Dégainer une arme", "tour", MINOR, ("description",),
                          ("D20-ACT-1",)),
    "ouvrir_porte": ActionDef("ouvrir_porte", "Ouvrir une porte", "tour", MINOR,
                              ("description",), ("D20-ACT-1",)),
    SIMPLE: ActionDef(SIMPLE, "Action simple (autre)", "tour", SIMPLE, ("description",),
                      ("D20-ACT-1",)),
    MOVE: ActionDef(MOVE, "Action de mouvement (autre)", "tour", MOVE, ("description",),
                    ("D20-ACT-1",)),
    MINOR: ActionDef(MINOR, "Action mineure (autre)", "tour", MINOR, ("description",),
                     ("D20-ACT-1",)),
    "parler": ActionDef("parler", "Parler", "libre", FREE, ("description",),
                        ("D20-ACT-1",)),
    "lacher_objet": ActionDef("lacher_objet", "Lâcher un objet", "libre", FREE,
                              ("description",), ("D20-ACT-1",)),
    FREE: ActionDef(FREE, "Action libre (autre)", "libre", FREE, ("description",),
                    ("D20-ACT-1",)),
    "point_action": ActionDef("point_action", "Dépenser un point d’action", "point_action",
                              None, (), ("D20-ACT-3",)),
    "interruption": ActionDef("interruption", "Interruption immédiate", "immediate", None,
                              _IMMEDIATE_PARAMS, ("D20-IMM-1", "D20-IMM-2")),
    "reaction": ActionDef("reaction", "Réaction immédiate", "immediate", None,
                          _IMMEDIATE_PARAMS, ("D20-IMM-1", "D20-IMM-2")),
    "attaque_opportunite": ActionDef("attaque_opportunite", "Attaque d’opportunité",
                                     "opportunite", None, (), ("D20-OPP-1", "D20-OPP-2")),
    "placer": ActionDef("placer", "Placer sur la grille (MJ)", "mj", None, ("case",)),
})

#: things that happen in a phase, never as an action: (when, rule)
PHASE_ONLY: Mapping[str, tuple[str, str]] = MappingProxyType({
    "jet_de_sauvegarde": ("automatiquement à la fin du tour", "D20-END-1"),
    "fin_d_effet": ("automatiquement à la fin du tour", "D20-END-2"),
    "degats_continus": ("automatiquement au début du tour", "D20-START-1"),
    "regeneration": ("automatiquement au début du tour", "D20-START-1"),
})


@dataclass(frozen=True, slots=True)
class Rules:
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
        the bound on initiative roll-off rounds (D20-INIT-1); beyond,
        :class:`RuleBoundError`.
    """

    save_target: int = 10
    immediate_reset: str = "debut_de_son_tour"
    max_action_points_per_turn: int | None = None
    cancelled_action_spent: bool = True
    default_speed: int = 6
    default_defence: int = 10
    default_weapon: str = "1d6"
    default_action_points: int = 0
    max_roll_off_rounds: int = 100

    def __post_init__(self) -> None:
        _check_int("save_target", self.save_target, *SAVE_TARGET_RANGE, "D20-END-1")
        if self.immediate_reset not in IMMEDIATE_RESETS:
            raise EscarmoucheError(
                f"immediate_reset = {self.immediate_reset!r} : valeurs possibles : "
                f"{', '.join(IMMEDIATE_RESETS)} (D20-IMM-1)",
                field="immediate_reset", value=self.immediate_reset, rule="D20-IMM-1",
            )
        if self.max_action_points_per_turn is not None:
            _check_int("max_action_points_per_turn", self.max_action_points_per_turn,
                       1, MAX_ACTION_POINTS, "D20-ACT-3")
        if not isinstance(self.cancelled_action_spent, bool):
            raise EscarmoucheError(
                f"cancelled_action_spent = {self.cancelled_action_spent!r} : True ou False "
                "est attendu (D20-OPP-1)",
                field="cancelled_action_spent", value=self.cancelled_action_spent,
                rule="D20-OPP-1",
            )
        _check_int("default_speed", self.default_speed, *SPEED_RANGE, "D20-ACT-1")
        _check_int("default_defence", self.default_defence, *DEFENCE_RANGE, "CORE-ERR")
        _check_weapon(self.default_weapon, "arme par défaut")
        _check_int("default_action_points", self.default_action_points, 0,
                   MAX_ACTION_POINTS, "D20-ACT-3")
        _check_int("max_roll_off_rounds", self.max_roll_off_rounds, *ROLL_OFF_RANGE,
                   "D20-INIT-1")


# ---------------------------------------------------------------------------------------
# Validation helpers (CORE-ERR)
# ---------------------------------------------------------------------------------------


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_int(field_name: str, value: object, lo: int, hi: int, rule: str, who: str = ""
               ) -> int:
    of = f" pour « {who} »" if who else ""
    if not _is_int(value):
        raise EscarmoucheError(
            f"{field_name} = {value!r}{of} : un nombre entier est attendu ({rule})",
            field=field_name, value=value, rule=rule,
        )
    assert isinstance(value, int)
    if not lo <= value <= hi:
        raise EscarmoucheError(
            f"{field_name} = {value}{of} : une valeur entre {_num(lo)} et {_num(hi)} est "
            f"attendue ({rule})",
            field=field_name, value=value, rule=rule,
        )
    return value


def _check_weapon(weapon: object, who: str = "") -> str:
    """A damage expression (``1d8+2``), checked by the dice module (CORE-DICE)."""
    return dice.check_expression(weapon, who=who)


_DEFAULT_RULES: Final = Rules()


def _rules(rules: Rules | None) -> Rules:
    if rules is None:
        return _DEFAULT_RULES
    if not isinstance(rules, Rules):
        raise EscarmoucheError(
            f"rules = {rules!r} : une instance de d20.Rules est attendue (CORE-ERR)",
            field="rules", value=rules, rule="CORE-ERR",
        )
    return rules


def _num(n: int) -> str:
    """French integer: thin no-break space as thousands separator, « − » for minus."""
    text = f"{abs(n):,}".replace(",", "\u202f")
    return f"−{text}" if n < 0 else text


def _signed(n: int) -> str:
    """« + 5 » / « − 2 » for a modifier written after a die."""
    return f"+ {_num(n)}" if n >= 0 else f"− {_num(-n)}"


def _ordinal(n: int) -> str:
    return "1re" if n == 1 else f"{n}e"


def _square_text(square: Sequence[int]) -> str:
    return f"({_num(square[0])} ; {_num(square[1])})"


def _check_square(value: object, field_name: str, rule: str, who: str = "") -> tuple[int, int]:
    of = f" pour « {who} »" if who else ""
    if (
        isinstance(value, list | tuple) and len(value) == 2
        and all(_is_int(v) for v in value)
    ):
        x, y = int(value[0]), int(value[1])
        if -GRID_LIMIT <= x <= GRID_LIMIT and -GRID_LIMIT <= y <= GRID_LIMIT:
            return x, y
        raise EscarmoucheError(
            f"{field_name} = {list(value)!r}{of} : coordonnées entre {_num(-GRID_LIMIT)} et "
            f"{_num(GRID_LIMIT)} attendues ({rule})",
            field=field_name, value=value, rule=rule,
        )
    raise EscarmoucheError(
        f"{field_name} = {value!r}{of} : une case [x, y] (deux entiers) est attendue ({rule})",
        field=field_name, value=value, rule=rule,
    )


# ---------------------------------------------------------------------------------------
# D20-TIME-1
# ---------------------------------------------------------------------------------------


def elapsed_seconds(rounds: int) -> int:
    """The game time of ``rounds`` rounds, in seconds: 6 s each (D20-TIME-1)."""
    return _check_int("rounds", rounds, 0, 1_000_000, "D20-TIME-1") * ROUND_SECONDS


# ---------------------------------------------------------------------------------------
# Initiative (D20-INIT-1)
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class InitiativeRoll:
    """One combatant's initiative: the d20, the ``init`` modifier, the roll-off d20s."""

    name: str
    die: int
    modifier: int
    roll_offs: tuple[int, ...] = ()

    @property
    def total(self) -> int:
        return self.die + self.modifier

    def key(self) -> tuple[int, ...]:
        """Sort key, descending: total, then modifier, then each roll-off (D20-INIT-1)."""
        return (self.total, self.modifier, *self.roll_offs)

    def to_json(self) -> dict[str, Json]:
        return {"name": self.name, "die": self.die, "modifier": self.modifier,
                "roll_offs": list(self.roll_offs)}

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> InitiativeRoll:
        return cls(str(data["name"]), int(data["die"]), int(data["modifier"]),
                   tuple(int(v) for v in data.get("roll_offs", ())))


def initiative_order(rolls: Sequence[InitiativeRoll]) -> tuple[str, ...]:
    """The acting order from initiative rolls already made (D20-INIT-1): higher total
    first, ties by the higher modifier, then by the roll-offs in order (higher first).
    Combatants still tied keep the given order (the rolling wrapper never leaves any)."""
    indexed = list(enumerate(rolls))
    indexed.sort(key=lambda ir: (tuple(-v for v in ir[1].key()), ir[0]))
    return tuple(r.name for _, r in indexed)


@dataclass(frozen=True, slots=True)
class D20Initiative:
    """Initiative of a fight (D20-INIT-1): the rolls (given order) and the acting order.

    The same order holds every round (D20-TIME-1: a round is everyone's turn once).
    """

    rolls: tuple[InitiativeRoll, ...]
    order: tuple[str, ...]
    rules: tuple[str, ...] = ("D20-INIT-1",)

    def turn(self, n: int) -> list[str]:
        """The names in acting order for round ``n`` (the same every round)."""
        _check_int("round", n, 1, 1_000_000, "D20-TIME-1")
        return list(self.order)

    def roll_of(self, name: str) -> InitiativeRoll:
        for r in self.rolls:
            if r.name == name:
                return r
        raise EscarmoucheError(
            f"combattant = {name!r} : absent de l’initiative (D20-INIT-1)",
            field="combattant", value=name, rule="D20-INIT-1",
        )

    def to_json(self) -> dict[str, Json]:
        return {"rolls": [r.to_json() for r in self.rolls], "order": list(self.order)}

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> D20Initiative:
        return cls(tuple(InitiativeRoll.from_json(r) for r in data["rolls"]),
                   tuple(str(n) for n in data["order"]))


def _tie_groups(rolls: Mapping[str, InitiativeRoll], names: Sequence[str]
                ) -> list[list[str]]:
    """Groups (rank order, members in given order) of combatants with equal keys."""
    by_key: dict[tuple[int, ...], list[str]] = {}
    for n in names:
        by_key.setdefault(rolls[n].key(), []).append(n)
    return [by_key[k] for k in sorted(by_key, reverse=True) if len(by_key[k]) > 1]


def initiative(combatants: Iterable[Combatant], rng: Rng, *, rules: Rules | None = None
               ) -> D20Initiative:
    """Roll initiative (D20-INIT-1, from the original edition): 1d20 + ``init``.

    Draw order: one d20 per combatant in the given order; then, while some combatants
    share both total and modifier, one roll-off round: for each tied group from the
    highest, one d20 per member in the given order (higher first; still-tied members
    roll again). More than :attr:`Rules.max_roll_off_rounds` rounds raise
    :class:`RuleBoundError`.
    """
    r = _rules(rules)
    roster = _check_roster(combatants)
    names = [c.name for c in roster]
    rolls: dict[str, InitiativeRoll] = {}
    for c in roster:
        modifier = c.stat("init", 0)
        rolls[c.name] = InitiativeRoll(c.name, rng.randint(1, INITIATIVE_DIE), modifier)
    groups = _tie_groups(rolls, names)
    rounds = 0
    while groups:
        rounds += 1
        if rounds > r.max_roll_off_rounds:
            raise RuleBoundError(
                f"départages = {r.max_roll_off_rounds} : égalité d’initiative toujours pas "
                f"rompue entre {', '.join(groups[0])} (D20-INIT-1)",
                field="départages", value=r.max_roll_off_rounds, rule="D20-INIT-1",
            )
        for group in groups:
            for n in group:
                old = rolls[n]
                rolls[n] = dataclasses.replace(
                    old, roll_offs=(*old.roll_offs, rng.randint(1, INITIATIVE_DIE))
                )
        groups = _tie_groups(rolls, names)
    ordered = tuple(rolls[n] for n in names)
    return D20Initiative(ordered, initiative_order(ordered))


def _check_roster(combatants: Iterable[Combatant]) -> list[Combatant]:
    return check_roster(combatants, rule="D20-INIT-1")


# ---------------------------------------------------------------------------------------
# The action budget of a turn (D20-ACT-1..3)
# ---------------------------------------------------------------------------------------


def _category(action: object, index: int) -> str:
    if isinstance(action, str):
        if action in CATEGORIES:
            return action
        spec = ACTIONS.get(action)
        if spec is not None and spec.category is not None:
            return spec.category
    known = ", ".join([*CATEGORIES, *(a for a, s in ACTIONS.items()
                                      if s.category and a not in CATEGORIES)])
    raise EscarmoucheError(
        f"actions[{index}] = {action!r} : catégorie d’action inconnue ; attendues : "
        f"{known} (D20-ACT-1)",
        field="actions", value=action, rule="D20-ACT-1",
    )


@dataclass(frozen=True, slots=True)
class TurnPlan:
    """How a list of actions fits one turn (D20-ACT-1..3).

    ``slots`` are the turn's slots (the base ones, then one standard slot per action
    point); ``assignment[i]`` is the slot index taken by action ``i`` (``None`` for a
    free action). ``rules`` lists the rules that applied (D20-ACT-2 when an action took
    another category's slot, D20-ACT-3 when action points were spent).
    """

    actions: tuple[str, ...]
    action_points: int
    slots: tuple[str, ...]
    assignment: tuple[int | None, ...]
    rules: tuple[str, ...]

    def slot_of(self, index: int) -> str | None:
        """The kind of slot action ``index`` takes (``None`` for a free action)."""
        s = self.assignment[index]
        return None if s is None else self.slots[s]

    @property
    def substitutions(self) -> tuple[int, ...]:
        """Indexes of the actions taken in another category's slot (D20-ACT-2)."""
        return tuple(i for i, a in enumerate(self.actions)
                     if self.assignment[i] is not None and self.slot_of(i) != a)

    def free_slots(self) -> tuple[str, ...]:
        """The kinds of the slots still unused."""
        used = {s for s in self.assignment if s is not None}
        return tuple(k for i, k in enumerate(self.slots) if i not in used)

    def allows(self, category: str) -> bool:
        """Whether one more action of ``category`` still fits this turn."""
        if category == FREE:
            return True
        try:
            plan_turn([*self.actions, category], action_points=self.action_points)
        except EscarmoucheError:
            return False
        return True


def _match(categories: Sequence[str], slots: Sequence[str]) -> tuple[list[int | None], int]:
    """Assign actions to slots (exact bipartite matching by augmenting paths). Each action
    takes a free slot if it can, its own kind first, then its substitutes in
    :data:`SUBSTITUTES` order; only if none is free does it move earlier actions to other
    slots they may take. Returns the assignment and the index of the first action that
    cannot be placed (-1 if none)."""
    owner: list[int | None] = [None] * len(slots)
    assign: list[int | None] = [None] * len(categories)

    def place(i: int, seen: set[int]) -> bool:
        kinds = SUBSTITUTES[categories[i]]
        # a free slot first (earlier actions keep theirs), in order of preference …
        for kind in kinds:
            for s, slot_kind in enumerate(slots):
                if slot_kind == kind and owner[s] is None and s not in seen:
                    seen.add(s)
                    owner[s] = i
                    assign[i] = s
                    return True
        # … else move an earlier action to another slot it may take (augmenting path)
        for kind in kinds:
            for s, slot_kind in enumerate(slots):
                other = owner[s]
                if slot_kind != kind or s in seen or other is None:
                    continue
                seen.add(s)
                if place(other, seen):
                    owner[s] = i
                    assign[i] = s
                    return True
        return False

    for i, c in enumerate(categories):
        if c == FREE:
            continue
        if not place(i, set()):
            return assign, i
    return assign, -1


def plan_turn(actions: Sequence[str], *, action_points: int = 0, rules: Rules | None = None,
              who: str = "") -> TurnPlan:
    """Fit ``actions`` (categories ``"simple"``, ``"mouvement"``, ``"mineure"``,
    ``"libre"``, or named actions of :data:`ACTIONS`) into one turn, in any order
    (D20-ACT-1), with the substitutions of D20-ACT-2 and ``action_points`` spent, each
    buying one more standard slot (D20-ACT-3). Raises :class:`IllegalActionError` naming
    the first action that finds no slot."""
    r = _rules(rules)
    if isinstance(actions, str) or not isinstance(actions, Sequence):
        raise EscarmoucheError(
            f"actions = {actions!r} : une liste d’actions est attendue, par exemple "
            "[\"simple\", \"mouvement\"] (D20-ACT-1)",
            field="actions", value=actions, rule="D20-ACT-1",
        )
    if len(actions) > MAX_PLANNED_ACTIONS:
        raise EscarmoucheError(
            f"actions = {len(actions)} actions : au plus {_num(MAX_PLANNED_ACTIONS)} "
            "(D20-ACT-1)",
            field="actions", value=len(actions), rule="D20-ACT-1",
        )
    cap = MAX_ACTION_POINTS if r.max_action_points_per_turn is None else (
        r.max_action_points_per_turn
    )
    _check_int("action_points", action_points, 0, cap, "D20-ACT-3", who)
    categories = tuple(_category(a, i) for i, a in enumerate(actions))
    slots = (*BASE_SLOTS, *([ACTION_POINT_SLOT] * action_points))
    assign, failed = _match(categories, slots)
    if failed >= 0:
        cat = categories[failed]
        extra = (f" (+ {action_points} action(s) simple(s) par point d’action)"
                 if action_points else "")
        of = f"« {who} » : " if who else ""
        rules_cited = "D20-ACT-1, D20-ACT-2" + (", D20-ACT-3" if action_points else "")
        raise IllegalActionError(
            f"{of}actions = {list(categories)!r} : la {_ordinal(failed + 1)} action "
            f"({CATEGORY_LABELS[cat]}) ne trouve plus de place ; un tour offre une action "
            f"simple, une de mouvement et une mineure{extra}, une action de mouvement "
            "pouvant remplacer l’action simple et une action mineure l’une ou l’autre "
            f"({rules_cited})",
            field="actions", value=list(categories), rule="D20-ACT-2",
        )
    plan_rules = ["D20-ACT-1"]
    if any(a is not None and slots[a] != categories[i] for i, a in enumerate(assign)):
        plan_rules.append("D20-ACT-2")
    if action_points:
        plan_rules.append("D20-ACT-3")
    return TurnPlan(categories, action_points, slots, tuple(assign), tuple(plan_rules))


def check_turn(actions: Sequence[str], *, action_points: int = 0,
               rules: Rules | None = None) -> None:
    """Raise :class:`EscarmoucheError` unless ``actions`` fit one turn under D20-ACT-1..3
    with ``action_points`` spent (see :func:`plan_turn`, which also says how)."""
    plan_turn(actions, action_points=action_points, rules=rules)


# ---------------------------------------------------------------------------------------
# Saving throws (D20-END-1)
# ---------------------------------------------------------------------------------------


def _check_bonus(bonus: object, rule: str, name: str = "bonus") -> int:
    return _check_int(name, bonus, *BONUS_RANGE, rule)


@dataclass(frozen=True, slots=True)
class SaveResult:
    """A saving throw: the d20, the bonus, the total, the target (10) and the outcome."""

    roll: int
    bonus: int
    total: int
    target: int
    success: bool
    rules: tuple[str, ...] = ("D20-END-1",)


def resolve_save(roll: int, bonus: int = 0, *, rules: Rules | None = None) -> SaveResult:
    """A saving throw from its d20 (D20-END-1): success when ``roll + bonus`` is at least
    :attr:`Rules.save_target` (10)."""
    r = _rules(rules)
    _check_int("jet de sauvegarde", roll, 1, SAVE_DIE, "D20-END-1")
    _check_bonus(bonus, "D20-END-1")
    total = roll + bonus
    return SaveResult(roll, bonus, total, r.save_target, total >= r.save_target)


def saving_throw(roll: int, bonus: int = 0, *, rules: Rules | None = None) -> bool:
    """Whether a saving throw with d20 ``roll`` and ``bonus`` succeeds (D20-END-1)."""
    return resolve_save(roll, bonus, rules=rules).success


def roll_save(rng: Rng, bonus: int = 0, *, rules: Rules | None = None) -> SaveResult:
    """Roll a saving throw: draws one d20 (D20-END-1)."""
    _check_bonus(bonus, "D20-END-1")
    return resolve_save(rng.randint(1, SAVE_DIE), bonus, rules=rules)


def _normalise_keywords(effect_keywords: Iterable[str]) -> frozenset[str]:
    if isinstance(effect_keywords, str) or not isinstance(effect_keywords, Iterable):
        raise EscarmoucheError(
            f"mots-clés = {effect_keywords!r} : un ensemble de mots-clés est attendu, par "
            "exemple {\"poison\"} (D20-END-1)",
            field="mots-clés", value=effect_keywords, rule="D20-END-1",
        )
    out: set[str] = set()
    for kw in effect_keywords:
        if not isinstance(kw, str) or not kw.strip():
            raise EscarmoucheError(
                f"mot-clé = {kw!r} : un mot non vide est attendu (D20-END-1)",
                field="mot-clé", value=kw, rule="D20-END-1",
            )
        k = kw.strip().lower()
        out.add(KEYWORD_SYNONYMS.get(k, k))
    return frozenset(out)


def save_bonus(combatant: Combatant, effect_keywords: Iterable[str]) -> int:
    """The saving-throw bonus of ``combatant`` against an effect with these keywords
    (D20-END-1): for each trait of :data:`RACIAL_SAVE_BONUSES` it has, the bonus of a
    matching keyword (synonyms of :data:`KEYWORD_SYNONYMS` read as their entry; one
    bonus per trait even when several keywords match).

    >>> save_bonus(Combatant("Thorin", "nains", traits={"nain"}), {"poison"})
    5
    """
    if not isinstance(combatant, Combatant):
        raise EscarmoucheError(
            f"combattant = {combatant!r} : un Combatant est attendu (D20-END-1)",
            field="combattant", value=combatant, rule="D20-END-1",
        )
    keywords = _normalise_keywords(effect_keywords)
    total = 0
    for trait, table in RACIAL_SAVE_BONUSES.items():
        if trait in combatant.traits:
            matching = [b for kw, b in table.items() if kw in keywords]
            if matching:
                total += max(matching)
    return total


@dataclass(frozen=True, slots=True)
class SaveOdds:
    """Exact odds of one saving throw with ``bonus`` (D20-END-1)."""

    bonus: int
    target: int
    success: Fraction
    failure: Fraction
    rules: tuple[str, ...] = ("D20-END-1",)

    def bars(self) -> list[tuple[str, Fraction]]:
        """(French label, probability) pairs for
        :func:`escarmouche.render.svg.outcome_bars_svg`."""
        return [("sauvegarde réussie", self.success), ("sauvegarde ratée", self.failure)]


def save_odds(bonus: int = 0, *, rules: Rules | None = None) -> SaveOdds:
    """The exact probability that a saving throw with ``bonus`` succeeds (D20-END-1),
    from the exact law of 1d20 (:func:`escarmouche.dice.distribution`)."""
    r = _rules(rules)
    _check_bonus(bonus, "D20-END-1")
    law = dice.distribution(f"1d{SAVE_DIE}")
    success = sum((p for face, p in law.items() if face + bonus >= r.save_target),
                  Fraction(0))
    return SaveOdds(bonus, r.save_target, success, 1 - success)


def lasts_exactly(turns: int, bonus: int = 0, *, rules: Rules | None = None) -> Fraction:
    """The exact probability that a save-ends effect lasts exactly ``turns`` of its
    bearer's turns: ``turns − 1`` failed saves, then a success (D20-END-1)."""
    _check_int("tours", turns, 1, MAX_DURATION_TURNS, "D20-END-1")
    p = save_odds(bonus, rules=rules).success
    return (1 - p) ** (turns - 1) * p


@dataclass(frozen=True, slots=True)
class DurationOdds:
    """The exact law of how long a save-ends effect lasts (D20-END-1).

    ``exactly[n]`` is the probability that it ends at the end of the bearer's ``n``-th
    turn (the ``n``-th save is the first success), for ``n`` from 1 to ``max_turns``;
    ``beyond`` is the probability that it is still there after ``max_turns`` saves, so
    that ``sum(exactly.values()) + beyond == 1``. ``mean`` is the expected number of
    turns (``1 / save``), ``None`` when no save can succeed.
    """

    bonus: int
    save: Fraction
    max_turns: int
    exactly: Mapping[int, Fraction]
    beyond: Fraction
    mean: Fraction | None
    rules: tuple[str, ...] = ("D20-END-1",)

    def bars(self) -> list[tuple[str, Fraction]]:
        """(French label, probability) pairs for a bar chart such as
        :func:`escarmouche.render.svg.outcome_bars_svg`: « 1 tour », « 2 tours » …
        « plus de N tours » (``exactly`` itself suits ``distribution_svg``)."""
        out = [(f"{n} tour{'s' if n > 1 else ''}", p) for n, p in self.exactly.items()]
        out.append((f"plus de {_num(self.max_turns)} tours", self.beyond))
        return out


def duration_odds(bonus: int = 0, *, max_turns: int = 10, rules: Rules | None = None
                  ) -> DurationOdds:
    """The exact law of the duration of a save-ends effect with ``bonus`` (geometric:
    each end of turn, one save, success probability :func:`save_odds`; D20-END-1)."""
    _check_int("max_turns", max_turns, 1, MAX_DURATION_TURNS, "D20-END-1")
    p = save_odds(bonus, rules=rules).success
    q = 1 - p
    exactly = {n: q ** (n - 1) * p for n in range(1, max_turns + 1)}
    return DurationOdds(bonus, p, max_turns, MappingProxyType(exactly), q ** max_turns,
                        (1 / p) if p else None)


# ---------------------------------------------------------------------------------------
# Opportunity (D20-OPP-*) and the grid
# ---------------------------------------------------------------------------------------


def is_adjacent(a: Sequence[int], b: Sequence[int]) -> bool:
    """Whether two squares are adjacent: one of the 8 neighbouring squares (D20-OPP-2)."""
    ax, ay = _check_square(a, "case", "D20-OPP-2")
    bx, by = _check_square(b, "case", "D20-OPP-2")
    return max(abs(ax - bx), abs(ay - by)) == 1


def _dist(a: Sequence[int], b: Sequence[int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def opportunity_attack_allowed(trigger: str, adjacent: bool) -> bool:
    """Whether an enemy's action allows an opportunity attack (D20-OPP-2): only one of the
    three :data:`OPPORTUNITY_TRIGGERS` (``"quitte_case_adjacente"``,
    ``"attaque_distance"``, ``"attaque_zone"``) by an enemy adjacent to you (for the
    first, the square it leaves is adjacent to you). Anything else never allows one."""
    if not isinstance(adjacent, bool):
        raise EscarmoucheError(
            f"adjacent = {adjacent!r} : True ou False est attendu (D20-OPP-2)",
            field="adjacent", value=adjacent, rule="D20-OPP-2",
        )
    return isinstance(trigger, str) and trigger in OPPORTUNITY_TRIGGERS and adjacent


# ---------------------------------------------------------------------------------------
# Attack resolution (engine convenience: the text has none)
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AttackRoll:
    """An attack roll (engine convenience): hits when ``roll + bonus ≥ defence``."""

    roll: int
    bonus: int
    defence: int
    total: int
    hit: bool


def resolve_attack(roll: int, bonus: int, defence: int) -> AttackRoll:
    """The engine's minimal attack: 1d20 + bonus against the target's defence (no rule ID
    of its own; the d20 text has no attack resolution)."""
    _check_int("jet d’attaque", roll, 1, ATTACK_DIE, "CORE-ERR")
    _check_bonus(bonus, "CORE-ERR", "attaque")
    _check_int("defense", defence, *DEFENCE_RANGE, "CORE-ERR")
    total = roll + bonus
    return AttackRoll(roll, bonus, defence, total, total >= defence)


# ---------------------------------------------------------------------------------------
# The encounter plug-in
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Trigger:
    """An action others may react to: a move (``squares`` from the start) or an attack."""

    kind: str  # "deplacement" | "attaque" | "libre" (a standalone immediate action)
    actor: str
    squares: tuple[tuple[int, int], ...] = ()
    opportunity: str | None = None  # the D20-OPP-2 case of an attack, if any
    targets: tuple[str, ...] = ()
    text: str = ""


@dataclass(frozen=True, slots=True)
class _Reaction:
    by: str
    type: ReactionType
    effect: str
    target: str | None
    bonus: int | None
    weapon: str | None
    name: str
    step: int | None = None  # opportunity on a move: index of the square left


@dataclass(frozen=True, slots=True)
class _Outcome:
    """What a resolved reaction did to its trigger: ``stopped`` invalidates it."""

    stopped: bool = False


def _pos(f: FighterState) -> tuple[int, int] | None:
    p = f.flags.get("pos")
    if p is None:
        return None
    return int(p[0]), int(p[1])


def _need_pos(f: FighterState, rule: str) -> tuple[int, int]:
    p = _pos(f)
    if p is None:
        raise IllegalActionError(
            f"position de « {f.name} » = inconnue : placez-le sur la grille (option "
            f"positions de start() ou action « placer ») ({rule})",
            field="position", value=None, rule=rule,
        )
    return p


def _turn_key(ctx: Ctx) -> list[Json]:
    return [ctx.state.turn, ctx.state.cursor]


def _budget(f: FighterState) -> dict[str, Json]:
    b = f.flags.setdefault("budget", {"actions": [], "points": 0})
    assert isinstance(b, dict)
    return b


def _occupant(ctx: Ctx, square: tuple[int, int], exclude: str) -> FighterState | None:
    for f in ctx.state.fighters.values():
        if f.name != exclude and f.standing and _pos(f) == square:
            return f
    return None


def _defence(f: FighterState, rules: Rules) -> int:
    return f.combatant.stat("defense", rules.default_defence)


def _speed(f: FighterState, rules: Rules) -> int:
    return f.combatant.stat("VD", rules.default_speed)


def _find_effect(ctx: Ctx, effect_id: str) -> Effect | None:
    for e in ctx.state.effects:
        if e.id == effect_id:
            return e
    for ev in reversed(ctx.state.log):
        if ev.kind == "effet_ajoute":
            data = ev.data.get("effect")
            if isinstance(data, Mapping) and data.get("id") == effect_id:
                return Effect.from_json(data)
    return None


class D20System(System):
    """The d20 rules plugged into the encounter engine (see the module docstring).

    Actions (``Encounter.act(actor, action, rng, **params)``), from :data:`ACTIONS`:

    * on one's own turn, using the budget (D20-ACT-*): ``attaque`` (standard; ``cible``,
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
    rules_type: ClassVar[type[Any]] = Rules
    tracks: ClassVar[tuple[str, ...]] = ("PV",)
    turn_word: ClassVar[str] = "round"
    turn_rules: ClassVar[tuple[str, ...]] = ("D20-TIME-1",)
    start_options: ClassVar[tuple[str, ...]] = ("positions",)
    tick_rules: ClassVar[Mapping[Timing, tuple[str, ...]]] = {
        Timing.TURN_START: (),
        Timing.ACTIVATION_START: ("D20-START-1",),
        Timing.ACTIVATION_END: ("D20-END-2",),
        Timing.TURN_END: (),
    }

    # -- roster ----------------------------------------------------------------------

    def validate(self, combatant: Combatant, rules: Any) -> None:
        who = combatant.name
        if "PV" not in combatant.stats:
            raise EscarmoucheError(
                f"PV manquant pour « {who} » : les points de vie sont requis (CORE-ERR)",
                field="PV", value=None, rule="CORE-ERR",
            )
        _check_int("PV", combatant.stats["PV"], *HP_RANGE, "CORE-ERR", who)
        checks: tuple[tuple[str, tuple[int, int], str], ...] = (
            ("init", BONUS_RANGE, "D20-INIT-1"),
            ("attaque", BONUS_RANGE, "CORE-ERR"),
            ("defense", DEFENCE_RANGE, "CORE-ERR"),
            ("VD", SPEED_RANGE, "D20-ACT-1"),
            ("PA", (0, MAX_ACTION_POINTS), "D20-ACT-3"),
        )
        for stat, (lo, hi), rule in checks:
            if stat in combatant.stats:
                _check_int(stat, combatant.stats[stat], lo, hi, rule, who)

    def initial_tracks(self, combatant: Combatant, rules: Any) -> dict[str, int]:
        return {"PV": combatant.stat("PV")}

    # -- the fight -------------------------------------------------------------------

    def start(self, ctx: Ctx, options: Mapping[str, Any]) -> None:
        rules: Rules = ctx.rules
        fighters = list(ctx.state.fighters.values())
        positions = self._initial_positions(ctx, options.get("positions"))
        ini = initiative([f.combatant for f in fighters], ctx.rng, rules=rules)
        ctx.state.system_state["initiative"] = ini.to_json()
        for f in fighters:
            square = positions.get(f.name)
            f.flags["pos"] = list(square) if square is not None else None
            f.flags["pa"] = f.combatant.stat("PA", rules.default_action_points)
            f.flags["budget"] = {"actions": [], "points": 0}
            f.flags["opportunite"] = None
            f.flags["immediate"] = False
        parts = []
        for r in ini.rolls:
            text = f"{r.name} {_num(r.total)} ({r.die} {_signed(r.modifier)})"
            if r.roll_offs:
                text += " ; départage : " + ", ".join(str(v) for v in r.roll_offs)
            parts.append(text)
        ctx.emit(
            "initiative",
            "Initiative (1d20 + initiative ; règle de l’édition originale, absente du "
            f"texte) : {' ; '.join(parts)}. Ordre : {', '.join(ini.order)}.",
            rules=("D20-INIT-1",), data=ini.to_json(), purpose="initiative",
        )
        placed = [f"{n} {_square_text(p)}" for n, p in positions.items()]
        if placed:
            ctx.emit("placement", "Positions : " + ", ".join(placed) + ".",
                     rules=("D20-OPP-2",),
                     data={"positions": {n: list(p) for n, p in positions.items()}})

    def _initial_positions(self, ctx: Ctx, raw: object) -> dict[str, tuple[int, int]]:
        out: dict[str, tuple[int, int]] = {}
        if raw is None:
            sides: list[str] = []
            counts: dict[str, int] = {}
            for f in ctx.state.fighters.values():
                if f.side not in sides:
                    sides.append(f.side)
                out[f.name] = (sides.index(f.side), counts.get(f.side, 0))
                counts[f.side] = counts.get(f.side, 0) + 1
            return out
        if not isinstance(raw, Mapping):
            raise EscarmoucheError(
                f"positions = {raw!r} : un dictionnaire nom → [x, y] est attendu (D20-OPP-2)",
                field="positions", value=raw, rule="D20-OPP-2",
            )
        taken: dict[tuple[int, int], str] = {}
        for name, square in raw.items():
            ctx.fighter(name, rule="D20-OPP-2")
            sq = _check_square(square, "positions", "D20-OPP-2", str(name))
            if sq in taken:
                raise EscarmoucheError(
                    f"positions = {list(sq)!r} : case déjà occupée par « {taken[sq]} », "
                    f"« {name} » ne peut pas s’y placer (D20-OPP-2)",
                    field="positions", value=list(sq), rule="D20-OPP-2",
                )
            taken[sq] = str(name)
            out[str(name)] = sq
        return out

    def turn_order(self, ctx: Ctx, turn: int) -> list[str]:
        """Every round, the initiative order: each creature's turn once (D20-TIME-1)."""
        return [str(n) for n in ctx.state.system_state["initiative"]["order"]]

    def effect_sort_key(self, effect: Effect) -> int:
        """Ongoing damage, then regeneration, then other effects (D20-START-1)."""
        return START_PHASE_ORDER.get(effect.kind, OTHER_START_EFFECTS)

    def on_turn_start(self, ctx: Ctx) -> None:
        n = ctx.state.turn
        ctx.emit(
            "round",
            f"Round {_num(n)} : {ROUND_SECONDS} secondes (de {_num(elapsed_seconds(n - 1))} s "
            f"à {_num(elapsed_seconds(n))} s) ; chaque créature joue son tour une fois.",
            rules=("D20-TIME-1",),
            data={"round": n, "start_s": elapsed_seconds(n - 1), "end_s": elapsed_seconds(n)},
        )
        if ctx.rules.immediate_reset == "debut_du_round":
            for f in ctx.state.fighters.values():
                f.flags["immediate"] = False

    def on_activation_start(self, ctx: Ctx, actor: str) -> bool:
        f = ctx.fighter(actor)
        f.flags["budget"] = {"actions": [], "points": 0}
        if ctx.rules.immediate_reset == "debut_de_son_tour":
            f.flags["immediate"] = False
        self._start_summary(ctx, actor)
        return True

    def _start_summary(self, ctx: Ctx, actor: str) -> None:
        """Announce the start phase (D20-START-1): the engine has just ticked the actor's
        start-of-turn effects in :meth:`effect_sort_key` order."""
        log = ctx.state.log
        start = max(i for i, e in enumerate(log) if e.kind == "activation" and e.actor == actor)
        applied: list[dict[str, Json]] = []
        parts: list[str] = []
        for ev in log[start + 1:]:
            if ev.kind != "effet_applique" or ev.actor != actor:
                continue
            effect = _find_effect(ctx, str(ev.data.get("effect")))
            kind = effect.kind if effect else "generique"
            label = START_PHASE_LABELS.get(kind, effect.name if effect else "effet")
            delta = int(ev.data.get("delta", 0))
            track = str(ev.data.get("track", ""))
            sign = "+" if delta > 0 else "−"
            parts.append(f"{label} {sign}{_num(abs(delta))} {track}")
            applied.append({"effect": ev.data.get("effect"), "kind": kind, "track": track,
                            "delta": delta})
        done = ", puis ".join(parts) if parts else "aucun effet à appliquer"
        out = "" if ctx.fighter(actor).standing else f" ; {actor} est hors de combat"
        ctx.emit(
            "debut_de_tour",
            f"Début du tour {de(actor)} : {done}{out} ; aucune action possible pendant cette "
            "phase.",
            actor=actor, rules=("D20-START-1",), data={"applied": applied},
        )

    def on_activation_end(self, ctx: Ctx, actor: str) -> None:
        f = ctx.state.fighters.get(actor)
        if f is None:
            return
        if not f.standing:
            # Knocked out by its own start-of-turn effects: the engine skipped
            # on_activation_start, so announce the start phase here.
            log = ctx.state.log
            last = max(i for i, e in enumerate(log) if e.kind == "activation"
                       and e.actor == actor)
            if not any(e.kind == "debut_de_tour" for e in log[last + 1:]):
                self._start_summary(ctx, actor)
            return
        rules: Rules = ctx.rules
        for e in [e for e in ctx.state.effects if e.bearer == actor and e.save_ends]:
            bonus = save_bonus(f.combatant, e.keywords)
            res = roll_save(ctx.rng, bonus, rules=rules)
            verdict = ("réussi : l’effet prend fin" if res.success
                       else "raté : l’effet continue")
            ctx.emit(
                "jet_de_sauvegarde",
                f"{actor} : jet de sauvegarde contre « {e.name} » : 1d20 = {res.roll} "
                f"{_signed(bonus)} = {_num(res.total)} ({_num(res.target)} requis) : "
                f"{verdict}.",
                actor=actor, rules=("D20-END-1",), purpose="sauvegarde",
                data={"effect": e.id, "roll": res.roll, "bonus": bonus, "total": res.total,
                      "target": res.target, "success": res.success},
            )
            if res.success:
                ctx.remove_effect(e.id, why="jet de sauvegarde réussi", rules=("D20-END-1",))
        ending = [e for e in ctx.effects_of(actor, Timing.ACTIVATION_END) if e.remaining == 1]
        names = ", ".join(f"« {e.name} »" for e in ending)
        what = f"{names} prend{'nent' if len(ending) > 1 else ''} fin" if ending else (
            "aucun effet ne s’achève")
        ctx.emit(
            "fin_de_tour",
            f"Fin du tour {de(actor)} : {what} ; aucune action possible pendant cette phase.",
            actor=actor, rules=("D20-END-2",), data={"ending": [e.id for e in ending]},
        )

    # -- actions -----------------------------------------------------------------------

    def actions(self, ctx: Ctx, actor: str) -> Sequence[ActionSpec]:
        f = ctx.state.fighters.get(actor)
        if f is None or not f.standing or not ctx.state.started or ctx.state.finished:
            return []
        out: list[ActionSpec] = []
        own = ctx.state.current == actor
        budget = _budget(f)
        points = int(budget["points"])
        plan = plan_turn(list(budget["actions"]), action_points=points, rules=ctx.rules)
        for spec in ACTIONS.values():
            cost = CATEGORY_LABELS[spec.category] if spec.category else ""
            if spec.kind == "tour":
                if not own or spec.category is None or not plan.allows(spec.category):
                    continue
            elif spec.kind == "point_action":
                if not own or not self._can_spend_point(ctx, f):
                    continue
            elif spec.kind == "immediate":
                if own or f.flags.get("immediate"):
                    continue
                cost = "action immédiate"
            elif spec.kind == "opportunite":
                continue  # declared with its trigger only
            out.append(ActionSpec(spec.id, spec.label, cost, spec.rules, spec.params))
        return out

    def _can_spend_point(self, ctx: Ctx, f: FighterState) -> bool:
        cap = ctx.rules.max_action_points_per_turn
        points = int(_budget(f)["points"])
        return int(f.flags.get("pa", 0)) > 0 and (cap is None or points < cap)

    def act(self, ctx: Ctx, actor: str, action: str, params: Mapping[str, Any]) -> None:
        if isinstance(action, str) and action in PHASE_ONLY:
            when, rule = PHASE_ONLY[action]
            raise IllegalActionError(
                f"action = {action!r} : ce n’est pas une action, cela se fait {when} "
                f"({rule})",
                field="action", value=action, rule=rule,
            )
        spec = ACTIONS.get(action) if isinstance(action, str) else None
        if spec is None:
            raise IllegalActionError(
                f"action = {action!r} : action inconnue ; actions : {', '.join(ACTIONS)} "
                "(D20-ACT-1)",
                field="action", value=action, rule="D20-ACT-1",
            )
        extra = sorted(set(params) - set(spec.params))
        if extra:
            allowed = ", ".join(spec.params) or "aucun"
            raise EscarmoucheError(
                f"paramètre = {extra[0]!r} : inconnu pour l’action « {action} » ; "
                f"paramètres : {allowed} ({spec.rules[0] if spec.rules else 'CORE-ERR'})",
                field="paramètre", value=extra[0],
                rule=spec.rules[0] if spec.rules else "CORE-ERR",
            )
        handler = {
            "tour": self._act_turn,
            "libre": self._act_free,
            "point_action": self._act_point,
            "immediate": self._act_immediate,
            "opportunite": self._act_opportunity,
            "mj": self._act_place,
        }[spec.kind]
        handler(ctx, actor, spec, params)

    # -- helpers for own-turn actions -----------------------------------------------

    def _require_standing(self, ctx: Ctx, actor: str, rule: str) -> FighterState:
        f = ctx.fighter(actor, rule=rule)
        if not f.standing:
            raise IllegalActionError(
                f"combattant = {actor!r} : ce combattant est hors de combat et ne peut plus "
                f"agir ({rule})",
                field="combattant", value=actor, rule=rule,
            )
        return f

    def _require_own_turn(self, ctx: Ctx, actor: str, spec: ActionDef) -> FighterState:
        f = self._require_standing(ctx, actor, "D20-ACT-1")
        current = ctx.state.current
        if current != actor:
            raise IllegalActionError(
                f"acteur = {actor!r} : c’est le tour de « {current} » ; « {spec.label} » ne "
                "se fait que pendant son propre tour (hors de son tour : actions libres, "
                "d’opportunité et immédiates seulement) (D20-ACT-1)",
                field="acteur", value=actor, rule="D20-ACT-1",
            )
        return f

    def _spend(self, ctx: Ctx, f: FighterState, spec: ActionDef, detail: str) -> None:
        """Take a slot for ``spec`` (D20-ACT-1..3) and announce the action."""
        assert spec.category is not None
        budget = _budget(f)
        actions = [*budget["actions"], spec.category]
        plan = plan_turn(actions, action_points=int(budget["points"]), rules=ctx.rules,
                         who=f.name)
        budget["actions"] = actions
        slot = plan.slot_of(len(actions) - 1)
        rules = ["D20-ACT-1"]
        text = f"{f.name} : {spec.label} ({CATEGORY_LABELS[spec.category]}"
        if slot is not None and slot != spec.category:
            rules.append("D20-ACT-2")
            text += f", à la place d’une {CATEGORY_LABELS[slot]}"
        taken = plan.assignment[-1]
        if taken is not None and taken >= len(BASE_SLOTS):
            rules.append("D20-ACT-3")
            text += ", grâce au point d’action"
        text += ")" + (f" : {detail}" if detail else "") + "."
        ctx.emit("action", text, actor=f.name, rules=rules,
                 data={"action": spec.id, "category": spec.category, "slot": slot,
                       "used": list(actions)})

    def _refund(self, ctx: Ctx, f: FighterState, category: str) -> None:
        if ctx.rules.cancelled_action_spent:
            return
        actions = list(_budget(f)["actions"])
        for i in range(len(actions) - 1, -1, -1):
            if actions[i] == category:
                del actions[i]
                break
        _budget(f)["actions"] = actions

    def _act_turn(self, ctx: Ctx, actor: str, spec: ActionDef, params: Mapping[str, Any]
                  ) -> None:
        f = self._require_own_turn(ctx, actor, spec)
        if spec.id == "attaque":
            self._act_attack(ctx, f, spec, params)
        elif spec.id == "deplacement":
            self._act_move(ctx, f, spec, params)
        else:
            self._spend(ctx, f, spec, _description(params))

    def _act_free(self, ctx: Ctx, actor: str, spec: ActionDef, params: Mapping[str, Any]
                  ) -> None:
        self._require_standing(ctx, actor, "D20-ACT-1")
        detail = _description(params)
        when = "" if ctx.state.current == actor else " pendant le tour d’un autre combattant"
        ctx.emit(
            "action",
            f"{actor} : {spec.label} (action libre{when})" + (f" : {detail}" if detail else "")
            + ".",
            actor=actor, rules=("D20-ACT-1",),
            data={"action": spec.id, "category": FREE, "slot": None},
        )

    def _act_point(self, ctx: Ctx, actor: str, spec: ActionDef, params: Mapping[str, Any]
                   ) -> None:
        f = self._require_own_turn(ctx, actor, spec)
        left = int(f.flags.get("pa", 0))
        if left <= 0:
            raise IllegalActionError(
                f"points d’action de « {actor} » = 0 : aucun point à dépenser (D20-ACT-3)",
                field="PA", value=0, rule="D20-ACT-3",
            )
        cap = ctx.rules.max_action_points_per_turn
        budget = _budget(f)
        if cap is not None and int(budget["points"]) >= cap:
            raise IllegalActionError(
                f"points d’action ce tour = {budget['points']} : au plus {cap} par tour "
                "avec ces règles (D20-ACT-3)",
                field="PA", value=budget["points"], rule="D20-ACT-3",
            )
        budget["points"] = int(budget["points"]) + 1
        f.flags["pa"] = left - 1
        ctx.emit(
            "point_action",
            f"{actor} dépense un point d’action : une action simple de plus ce tour "
            f"(reste {left - 1} point{'s' if left - 1 > 1 else ''}).",
            actor=actor, rules=("D20-ACT-3",),
            data={"left": left - 1, "spent_this_turn": budget["points"]},
        )

    def _act_place(self, ctx: Ctx, actor: str, spec: ActionDef, params: Mapping[str, Any]
                   ) -> None:
        f = ctx.fighter(actor, rule="D20-OPP-2")
        if "case" not in params:
            raise EscarmoucheError(
                "case = absente : indiquez case=[x, y] (D20-OPP-2)",
                field="case", value=None, rule="D20-OPP-2",
            )
        sq = _check_square(params["case"], "case", "D20-OPP-2", actor)
        other = _occupant(ctx, sq, actor)
        if other is not None:
            raise IllegalActionError(
                f"case = {list(sq)!r} : déjà occupée par « {other.name} » (D20-OPP-2)",
                field="case", value=list(sq), rule="D20-OPP-2",
            )
        f.flags["pos"] = list(sq)
        ctx.emit("placement", f"Le MJ place {actor} en {_square_text(sq)}.", actor=actor,
                 rules=("D20-OPP-2",), data={"positions": {actor: list(sq)}})

    def _act_opportunity(self, ctx: Ctx, actor: str, spec: ActionDef,
                         params: Mapping[str, Any]) -> None:
        raise IllegalActionError(
            f"action = 'attaque_opportunite' pour « {actor} » : une attaque d’opportunité se "
            "déclare avec l’action qui la déclenche, dans son paramètre reactions, par "
            "exemple reactions=[{\"par\": \"" + actor + "\", \"type\": "
            "\"attaque_opportunite\"}] (D20-OPP-1)",
            field="action", value="attaque_opportunite", rule="D20-OPP-1",
        )

    # -- moves -------------------------------------------------------------------------

    def _check_path(self, ctx: Ctx, mover: FighterState, raw: object
                    ) -> tuple[tuple[int, int], ...]:
        """The squares of a move, start included (D20-ACT-1; grid: D20-OPP-2)."""
        start = _need_pos(mover, "D20-ACT-1")
        speed = _speed(mover, ctx.rules)
        if isinstance(raw, str) or not isinstance(raw, Sequence) or not raw:
            raise EscarmoucheError(
                f"chemin = {raw!r} : la liste des cases traversées est attendue, par exemple "
                "[[1, 0], [2, 0]] (D20-ACT-1)",
                field="chemin", value=raw, rule="D20-ACT-1",
            )
        if len(raw) > speed:
            raise IllegalActionError(
                f"chemin = {len(raw)} cases pour « {mover.name} » : une action de mouvement "
                f"le déplace d’au plus sa vitesse, {speed} case{'s' if speed > 1 else ''} "
                "(D20-ACT-1)",
                field="chemin", value=len(raw), rule="D20-ACT-1",
            )
        squares = [start]
        for i, item in enumerate(raw):
            sq = _check_square(item, f"chemin[{i}]", "D20-ACT-1", mover.name)
            if _dist(squares[-1], sq) != 1:
                raise IllegalActionError(
                    f"chemin[{i}] = {list(sq)!r} : pas voisin de {_square_text(squares[-1])} ; "
                    "chaque pas mène à l’une des 8 cases voisines (D20-OPP-2)",
                    field="chemin", value=list(sq), rule="D20-OPP-2",
                )
            other = _occupant(ctx, sq, mover.name)
            if other is not None and (other.side != mover.side or i == len(raw) - 1):
                why = ("un ennemi l’occupe" if other.side != mover.side
                       else "on ne finit pas son déplacement sur un allié")
                raise IllegalActionError(
                    f"chemin[{i}] = {list(sq)!r} : case de « {other.name} », {why} "
                    "(D20-ACT-1)",
                    field="chemin", value=list(sq), rule="D20-ACT-1",
                )
            squares.append(sq)
        return tuple(squares)

    def _act_move(self, ctx: Ctx, f: FighterState, spec: ActionDef,
                  params: Mapping[str, Any]) -> None:
        if "chemin" not in params:
            raise EscarmoucheError(
                "chemin = absent : indiquez les cases traversées, chemin=[[x, y], …] "
                "(D20-ACT-1)",
                field="chemin", value=None, rule="D20-ACT-1",
            )
        squares = self._check_path(ctx, f, params["chemin"])
        trigger = _Trigger("deplacement", f.name, squares=squares,
                           text=f"le déplacement de {f.name}")
        reactions = self._parse_reactions(ctx, trigger, params.get("reactions", ()))
        route = " → ".join(_square_text(s) for s in squares)
        self._spend(ctx, f, spec, route)
        done: set[int] = set()
        stop_at: int | None = None
        cause = ""
        for i, r in enumerate(reactions):
            if r.type.id == "interruption":
                done.add(i)
                out = self._resolve_reaction(ctx, r, trigger)
                if out.stopped or not f.standing:
                    stop_at, cause = 0, f"{r.type.label} de {r.by}"
                    break
        if stop_at is None:
            for step in range(1, len(squares)):
                for i, r in enumerate(reactions):
                    if r.type.id == "attaque_opportunite" and r.step == step - 1:
                        done.add(i)
                        out = self._resolve_reaction(ctx, r, trigger)
                        if out.stopped or not f.standing:
                            stop_at, cause = step - 1, f"{r.type.label} de {r.by}"
                            break
                if stop_at is not None:
                    break
                f.flags["pos"] = list(squares[step])
        for i, r in enumerate(reactions):
            if r.type.before and i not in done:
                self._emit_moot(ctx, r, f"{trigger.text} est annulé")
        if stop_at is None:
            ctx.emit(
                "deplacement",
                f"{f.name} se déplace de {_square_text(squares[0])} à "
                f"{_square_text(squares[-1])}.",
                actor=f.name, rules=("D20-ACT-1",),
                data={"from": list(squares[0]), "to": list(squares[-1]),
                      "path": [list(s) for s in squares], "cancelled": False},
            )
        else:
            rule = "D20-OPP-1" if cause.startswith("attaque") else "D20-IMM-2"
            where = squares[stop_at]
            state = "hors de combat" if not f.standing else "arrêté"
            ctx.emit(
                "action_annulee",
                f"Le déplacement de {f.name} est annulé par l’{cause} : {f.name}, {state}, "
                f"reste en {_square_text(where)}"
                + ("" if ctx.rules.cancelled_action_spent
                   else " ; son action de mouvement lui est rendue") + ".",
                actor=f.name, rules=(rule,),
                data={"from": list(squares[0]), "to": list(where),
                      "path": [list(s) for s in squares[: stop_at + 1]], "cancelled": True,
                      "spent": ctx.rules.cancelled_action_spent},
            )
            self._refund(ctx, f, MOVE)
        for r in reactions:
            if not r.type.before:
                self._resolve_reaction(ctx, r, trigger)

    # -- attacks -----------------------------------------------------------------------

    def _act_attack(self, ctx: Ctx, f: FighterState, spec: ActionDef,
                    params: Mapping[str, Any]) -> None:
        rules: Rules = ctx.rules
        portee = params.get("portee", "corps_a_corps")
        if not isinstance(portee, str) or portee not in ATTACK_RANGES:
            raise EscarmoucheError(
                f"portee = {portee!r} : valeurs possibles : {', '.join(ATTACK_RANGES)} "
                "(D20-OPP-2)",
                field="portee", value=portee, rule="D20-OPP-2",
            )
        targets = self._attack_targets(ctx, f, portee, params)
        bonus = params.get("bonus", f.combatant.stat("attaque", 0))
        _check_bonus(bonus, "CORE-ERR", "bonus")
        weapon = _check_weapon(params.get("arme", rules.default_weapon), f.name)
        opp_case, label = ATTACK_RANGES[portee]
        trigger = _Trigger("attaque", f.name, opportunity=opp_case, targets=tuple(targets),
                           text=f"l’attaque de {f.name}")
        reactions = self._parse_reactions(ctx, trigger, params.get("reactions", ()))
        self._spend(ctx, f, spec, f"attaque {label} contre {', '.join(targets)}")
        cancelled = ""
        done: set[int] = set()
        for i, r in enumerate(reactions):
            if not r.type.before:
                continue
            done.add(i)
            out = self._resolve_reaction(ctx, r, trigger)
            if out.stopped or not f.standing:
                cancelled = f"{r.type.label} de {r.by}"
            elif not any(ctx.fighter(t).standing for t in targets):
                cancelled = f"{r.type.label} de {r.by} (plus aucune cible)"
            if cancelled:
                break
        for i, r in enumerate(reactions):
            if r.type.before and i not in done:
                self._emit_moot(ctx, r, f"{trigger.text} est annulée")
        if cancelled:
            rule = "D20-OPP-1" if cancelled.startswith("attaque") else "D20-IMM-2"
            ctx.emit(
                "action_annulee",
                f"L’attaque de {f.name} est annulée par l’{cancelled}"
                + ("" if rules.cancelled_action_spent
                   else " ; son action simple lui est rendue") + ".",
                actor=f.name, rules=(rule,),
                data={"cancelled": True, "spent": rules.cancelled_action_spent},
            )
            self._refund(ctx, f, SIMPLE)
        else:
            for t in targets:
                if ctx.fighter(t).standing:
                    self._attack(ctx, f.name, t, bonus, weapon, f"Attaque {label}", ())
        for r in reactions:
            if not r.type.before:
                self._resolve_reaction(ctx, r, trigger)

    def _attack_targets(self, ctx: Ctx, f: FighterState, portee: str,
                        params: Mapping[str, Any]) -> list[str]:
        if portee == "zone" and "cibles" in params:
            raw = params["cibles"]
            if isinstance(raw, str) or not isinstance(raw, Sequence) or not raw:
                raise EscarmoucheError(
                    f"cibles = {raw!r} : une liste non vide de noms est attendue (CORE-ERR)",
                    field="cibles", value=raw, rule="CORE-ERR",
                )
            names = list(raw)
        elif "cibles" in params:
            raise EscarmoucheError(
                f"cibles = {params['cibles']!r} : seule une attaque de zone vise plusieurs "
                "cibles ; utilisez cible=… (CORE-ERR)",
                field="cibles", value=params["cibles"], rule="CORE-ERR",
            )
        elif "cible" in params:
            names = [params["cible"]]
        else:
            raise EscarmoucheError(
                "cible = absente : indiquez cible=\"nom\" (CORE-ERR)",
                field="cible", value=None, rule="CORE-ERR",
            )
        seen: set[str] = set()
        for n in names:
            if not isinstance(n, str):
                raise EscarmoucheError(
                    f"cible = {n!r} : un nom de combattant est attendu (CORE-ERR)",
                    field="cible", value=n, rule="CORE-ERR",
                )
            t = ctx.fighter(n)
            if n == f.name or n in seen:
                why = "on ne s’attaque pas soi-même" if n == f.name else "cible en double"
                raise EscarmoucheError(
                    f"cible = {n!r} : {why} (CORE-ERR)",
                    field="cible", value=n, rule="CORE-ERR",
                )
            seen.add(n)
            if not t.standing:
                raise IllegalActionError(
                    f"cible = {n!r} : déjà hors de combat (CORE-ERR)",
                    field="cible", value=n, rule="CORE-ERR",
                )
            if portee == "corps_a_corps" and not is_adjacent(
                _need_pos(f, "D20-OPP-2"), _need_pos(t, "D20-OPP-2")
            ):
                raise IllegalActionError(
                    f"cible = {n!r} : une attaque au corps à corps vise une créature adjacente "
                    "(l’une des 8 cases voisines) (D20-OPP-2)",
                    field="cible", value=n, rule="D20-OPP-2",
                )
        return names

    def _attack(self, ctx: Ctx, attacker: str, target: str, bonus: int, weapon: str,
                label: str, rule_ids: tuple[str, ...]) -> bool:
        """Resolve one attack (engine convenience). Draws the d20, then the damage dice
        on a hit."""
        t = ctx.fighter(target)
        defence = _defence(t, ctx.rules)
        d = ctx.rng.randint(1, ATTACK_DIE)
        res = resolve_attack(d, bonus, defence)
        records = [DieRecord(ATTACK_DIE, d, "attaque")]
        head = (f"{label} de {attacker} contre {target} : 1d20 = {d} {_signed(bonus)} = "
                f"{_num(res.total)} contre défense {_num(defence)} : ")
        data: dict[str, Json] = {"attacker": attacker, "target": target, "roll": d,
                                 "bonus": bonus, "total": res.total, "defence": defence,
                                 "hit": res.hit}
        if not res.hit:
            ctx.emit("attaque", head + "raté.", actor=attacker, rules=rule_ids,
                     dice=records, data=data)
            return False
        dmg_roll = dice.roll(weapon, ctx.rng)
        records += dmg_roll.records("dégâts")
        damage = max(0, dmg_roll.total)
        left = max(0, t.tracks["PV"] - damage)
        data.update({"weapon": weapon, "damage": damage, "hp": left})
        ctx.emit(
            "attaque",
            head + f"touché, {_num(damage)} dégât{'s' if damage > 1 else ''} ({weapon}) ; "
            f"{target} : {_num(left)} PV.",
            actor=attacker, rules=rule_ids, dice=records, data=data,
        )
        ctx.change_track(target, "PV", -damage, rules=rule_ids)
        return True

    # -- reactions -------------------------------------------------------------------

    def _parse_reactions(self, ctx: Ctx, trigger: _Trigger, raw: object
                         ) -> list[_Reaction]:
        if isinstance(raw, Mapping):
            raw = [raw]
        if isinstance(raw, str) or not isinstance(raw, Sequence):
            raise EscarmoucheError(
                f"reactions = {raw!r} : une liste de déclarations est attendue, par exemple "
                "[{\"par\": \"Thorin\", \"type\": \"attaque_opportunite\"}] (D20-OPP-1)",
                field="reactions", value=raw, rule="D20-OPP-1",
            )
        used: set[tuple[str, str]] = set()
        return [self._parse_reaction(ctx, trigger, item, used) for item in raw]

    def _parse_reaction(self, ctx: Ctx, trigger: _Trigger, item: object,
                        used: set[tuple[str, str]]) -> _Reaction:
        """Check one declared reaction before any die is rolled (D20-OPP-*, D20-IMM-*)."""
        if not isinstance(item, Mapping):
            raise EscarmoucheError(
                f"reaction = {item!r} : un dictionnaire {{\"par\": …, \"type\": …}} est "
                "attendu (D20-OPP-1)",
                field="reaction", value=item, rule="D20-OPP-1",
            )
        extra = sorted(set(item) - set(REACTION_KEYS))
        if extra:
            raise EscarmoucheError(
                f"clé de réaction = {extra[0]!r} : inconnue ; clés : "
                f"{', '.join(REACTION_KEYS)} (D20-OPP-1)",
                field="reaction", value=extra[0], rule="D20-OPP-1",
            )
        kind = item.get("type")
        rtype = REACTION_TYPES.get(kind) if isinstance(kind, str) else None
        if rtype is None:
            raise EscarmoucheError(
                f"type = {item.get('type')!r} : types possibles : "
                f"{', '.join(REACTION_TYPES)} (D20-IMM-2)",
                field="type", value=item.get("type"), rule="D20-IMM-2",
            )
        rule = rtype.rules[0]
        by = item.get("par")
        if not isinstance(by, str):
            raise EscarmoucheError(
                f"par = {by!r} : le nom de qui agit est attendu ({rule})",
                field="par", value=by, rule=rule,
            )
        reactor = self._require_standing(ctx, by, rule)
        current = ctx.state.current
        if by == trigger.actor or by == current:
            if rtype.allowance == "immediate":
                raise IllegalActionError(
                    f"par = {by!r} : une action immédiate ne se prend jamais pendant son "
                    "propre tour (D20-IMM-1)",
                    field="par", value=by, rule="D20-IMM-1",
                )
            raise IllegalActionError(
                f"par = {by!r} : une action d’opportunité se prend pendant le tour d’un autre "
                "combattant (D20-OPP-1)",
                field="par", value=by, rule="D20-OPP-1",
            )
        if (by, rtype.allowance) in used:
            once = ("action d’opportunité par tour" if rtype.allowance == "opportunite"
                    else "action immédiate par round")
            raise IllegalActionError(
                f"par = {by!r} : une seule {once} ({rule})",
                field="par", value=by, rule=rule,
            )
        if rtype.allowance == "opportunite":
            if reactor.flags.get("opportunite") == _turn_key(ctx):
                raise IllegalActionError(
                    f"par = {by!r} : a déjà pris son action d’opportunité pendant le tour de "
                    f"« {current} » (D20-OPP-1)",
                    field="par", value=by, rule="D20-OPP-1",
                )
        elif reactor.flags.get("immediate"):
            reset = IMMEDIATE_RESETS[ctx.rules.immediate_reset]
            raise IllegalActionError(
                f"par = {by!r} : a déjà pris son action immédiate de ce round ; elle revient "
                f"{reset} (D20-IMM-1)",
                field="par", value=by, rule="D20-IMM-1",
            )
        used.add((by, rtype.allowance))
        effect = item.get("effet", "attaque")
        if not isinstance(effect, str) or effect not in IMMEDIATE_EFFECTS:
            raise EscarmoucheError(
                f"effet = {effect!r} : effets possibles : {', '.join(IMMEDIATE_EFFECTS)} "
                f"({rule})",
                field="effet", value=effect, rule=rule,
            )
        step: int | None = None
        if rtype.id == "attaque_opportunite":
            if effect != "attaque":
                raise EscarmoucheError(
                    f"effet = {effect!r} : une attaque d’opportunité est une attaque "
                    "(D20-OPP-2)",
                    field="effet", value=effect, rule="D20-OPP-2",
                )
            step = self._opportunity_step(ctx, reactor, trigger)
        elif effect == "arret":
            if not rtype.before:
                raise IllegalActionError(
                    f"effet = 'arret' pour « {by} » : une réaction se résout après l’action "
                    "qui l’a déclenchée et ne peut pas l’annuler ; prenez une interruption "
                    "(D20-IMM-2)",
                    field="effet", value=effect, rule="D20-IMM-2",
                )
            if trigger.kind == "libre":
                raise IllegalActionError(
                    f"effet = 'arret' pour « {by} » : le déclencheur n’est pas une action du "
                    "moteur ; déclarez l’interruption dans les reactions de cette action "
                    "(D20-IMM-2)",
                    field="effet", value=effect, rule="D20-IMM-2",
                )
        target: str | None = None
        if effect == "attaque":
            target = item.get("cible", trigger.actor if trigger.kind != "libre" else None)
            if rtype.id == "attaque_opportunite" and target != trigger.actor:
                raise EscarmoucheError(
                    f"cible = {target!r} : une attaque d’opportunité vise l’ennemi qui la "
                    f"déclenche, « {trigger.actor} » (D20-OPP-2)",
                    field="cible", value=target, rule="D20-OPP-2",
                )
            if not isinstance(target, str):
                raise EscarmoucheError(
                    f"cible = {target!r} : le nom de la cible est attendu ({rule})",
                    field="cible", value=target, rule=rule,
                )
            self._require_standing(ctx, target, rule)
            if target == by:
                raise EscarmoucheError(
                    f"cible = {target!r} : on ne s’attaque pas soi-même ({rule})",
                    field="cible", value=target, rule=rule,
                )
        bonus = item.get("bonus")
        if bonus is not None:
            _check_bonus(bonus, rule)
        weapon = item.get("arme")
        if weapon is not None:
            _check_weapon(weapon, by)
        name = item.get("nom", rtype.label)
        if not isinstance(name, str) or not name.strip():
            raise EscarmoucheError(
                f"nom = {name!r} : le nom du pouvoir est attendu ({rule})",
                field="nom", value=name, rule=rule,
            )
        return _Reaction(by, rtype, effect, target, bonus, weapon, name, step)

    def _opportunity_step(self, ctx: Ctx, reactor: FighterState, trigger: _Trigger) -> int:
        """The D20-OPP-2 case of a declared opportunity attack; for a move, the index of
        the square whose leaving triggers it (the first one adjacent to the reactor)."""
        actor = ctx.fighter(trigger.actor)
        if reactor.side == actor.side:
            raise IllegalActionError(
                f"par = {reactor.name!r} : une attaque d’opportunité vise un ennemi, et "
                f"« {actor.name} » est de son camp (D20-OPP-2)",
                field="par", value=reactor.name, rule="D20-OPP-2",
            )
        where = _need_pos(reactor, "D20-OPP-2")
        if trigger.kind == "deplacement":
            for i, sq in enumerate(trigger.squares[:-1]):
                if opportunity_attack_allowed("quitte_case_adjacente", is_adjacent(sq, where)):
                    return i
            raise IllegalActionError(
                f"par = {reactor.name!r} : {actor.name} ne quitte aucune case adjacente à "
                f"{reactor.name} {_square_text(where)} ; une attaque d’opportunité n’est "
                "permise que dans 3 cas (D20-OPP-2)",
                field="par", value=reactor.name, rule="D20-OPP-2",
            )
        adjacent = is_adjacent(_need_pos(actor, "D20-OPP-2"), where)
        case = trigger.opportunity or "attaque_corps_a_corps"
        if not opportunity_attack_allowed(case, adjacent):
            why = ("une attaque au corps à corps ne permet pas d’attaque d’opportunité"
                   if trigger.opportunity is None
                   else f"{actor.name} n’est pas adjacent à {reactor.name}")
            raise IllegalActionError(
                f"par = {reactor.name!r} : {why} ; seuls 3 cas la permettent : "
                f"{' ; '.join(OPPORTUNITY_TRIGGERS.values())} (D20-OPP-2)",
                field="par", value=reactor.name, rule="D20-OPP-2",
            )
        return 0

    def _emit_moot(self, ctx: Ctx, r: _Reaction, why: str) -> None:
        ctx.emit(
            "reaction_sans_objet",
            f"L’{r.type.label} de {r.by} n’a pas lieu : {why}.",
            actor=r.by, rules=r.type.rules, data={"by": r.by, "type": r.type.id},
        )

    def _resolve_reaction(self, ctx: Ctx, r: _Reaction, trigger: _Trigger) -> _Outcome:
        """Resolve one reaction now; it uses its allowance only if it happens."""
        reactor = ctx.fighter(r.by)
        if not reactor.standing:
            self._emit_moot(ctx, r, f"{r.by} est hors de combat")
            return _Outcome()
        if r.target is not None and not ctx.fighter(r.target).standing:
            self._emit_moot(ctx, r, f"{r.target} est déjà hors de combat")
            return _Outcome()
        if r.type.allowance == "opportunite":
            reactor.flags["opportunite"] = _turn_key(ctx)
        else:
            reactor.flags["immediate"] = True
        rule_ids = r.type.rules
        timing = "avant" if r.type.before else "après"
        about = trigger.text or "son déclencheur"
        if r.effect == "attaque":
            assert r.target is not None
            label = r.type.label.capitalize() if r.name == r.type.label else (
                f"{r.type.label.capitalize()} « {r.name} »")
            ctx.emit(
                r.type.id,
                f"{label} de {r.by} ({timing} {about}).",
                actor=r.by, rules=rule_ids,
                data={"by": r.by, "type": r.type.id, "effect": r.effect, "name": r.name},
            )
            bonus = r.bonus if r.bonus is not None else reactor.combatant.stat("attaque", 0)
            weapon = r.weapon or ctx.rules.default_weapon
            self._attack(ctx, r.by, r.target, bonus, weapon, "Attaque", rule_ids)
            return _Outcome()
        if r.effect == "arret":
            ctx.emit(
                r.type.id,
                f"{r.type.label.capitalize()} de {r.by} : « {r.name} » invalide {about}.",
                actor=r.by, rules=rule_ids,
                data={"by": r.by, "type": r.type.id, "effect": r.effect, "name": r.name},
            )
            return _Outcome(stopped=True)
        ctx.emit(
            r.type.id,
            f"{r.type.label.capitalize()} de {r.by} ({timing} {about}) : « {r.name} » (effet "
            "appliqué par le MJ).",
            actor=r.by, rules=rule_ids,
            data={"by": r.by, "type": r.type.id, "effect": r.effect, "name": r.name},
        )
        return _Outcome()

    def _act_immediate(self, ctx: Ctx, actor: str, spec: ActionDef,
                       params: Mapping[str, Any]) -> None:
        """A standalone immediate action, against a trigger the engine does not model
        (D20-IMM-1: never during one's own turn, once per round)."""
        trig = params.get("declencheur")
        if not isinstance(trig, str) or not trig.strip():
            raise EscarmoucheError(
                f"declencheur = {trig!r} : décrivez ce qui déclenche l’action immédiate "
                "(D20-IMM-1)",
                field="declencheur", value=trig, rule="D20-IMM-1",
            )
        if ctx.state.current == actor:
            raise IllegalActionError(
                f"acteur = {actor!r} : une action immédiate ne se prend jamais pendant son "
                "propre tour (D20-IMM-1)",
                field="acteur", value=actor, rule="D20-IMM-1",
            )
        item: dict[str, Any] = {"par": actor, "type": spec.id}
        for key in ("effet", "cible", "bonus", "arme", "nom"):
            if key in params:
                item[key] = params[key]
        item.setdefault("effet", "attaque" if "cible" in params else "autre")
        trigger = _Trigger("libre", str(ctx.state.current), text=trig.strip())
        r = self._parse_reaction(ctx, trigger, item, set())
        self._resolve_reaction(ctx, r, trigger)

    # -- automated fights --------------------------------------------------------------

    def auto_action(self, ctx: Ctx, actor: str) -> tuple[str, dict[str, Any]] | None:
        """Attack the weakest adjacent enemy; else move towards the nearest one, with
        every opportunity attack its enemies may take declared (a GM's default)."""
        f = ctx.fighter(actor)
        here = _pos(f)
        if here is None or not f.standing:
            return None
        enemies = [(e, p) for e in ctx.enemies(actor) if (p := _pos(e)) is not None]
        if not enemies:
            return None
        adjacent = [e for e, p in enemies if _dist(here, p) == 1]
        if adjacent:
            target = min(adjacent, key=lambda e: (e.tracks["PV"], e.name))
            return "attaque", {"cible": target.name}
        goal = min(enemies, key=lambda ep: (_dist(here, ep[1]), ep[0].name))[1]
        path: list[tuple[int, int]] = []
        cur = here
        for _ in range(_speed(f, ctx.rules)):
            if _dist(cur, goal) <= 1:
                break
            options = [
                (cur[0] + dx, cur[1] + dy)
                for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1),
                               (-1, -1))
            ]
            free = [s for s in options
                    if _occupant(ctx, s, actor) is None and _dist(s, goal) < _dist(cur, goal)
                    and all(abs(v) <= GRID_LIMIT for v in s)]
            if not free:
                break
            cur = min(free, key=lambda s: (_dist(s, goal),
                                           abs(s[0] - goal[0]) + abs(s[1] - goal[1])))
            path.append(cur)
        if not path:
            return None
        squares = [here, *path]
        key = _turn_key(ctx)
        reactions: list[dict[str, Any]] = []
        for e, p in enemies:
            if e.flags.get("opportunite") == key:
                continue
            if any(_dist(s, p) == 1 for s in squares[:-1]):
                reactions.append({"par": e.name, "type": "attaque_opportunite"})
        params: dict[str, Any] = {"chemin": [list(s) for s in path]}
        if reactions:
            params["reactions"] = reactions
        return "deplacement", params


def _description(params: Mapping[str, Any]) -> str:
    d = params.get("description", "")
    if not isinstance(d, str):
        raise EscarmoucheError(
            f"description = {d!r} : un texte est attendu (CORE-ERR)",
            field="description", value=d, rule="CORE-ERR",
        )
    return d.strip()


SYSTEM: Final = D20System()
