"""The options of the d12 system and the constants of its rules (rules as data).

RULES.md has no *(option)* ruling for d12: :class:`Rules` holds the choices and the
safety caps a designer may change (the default critical option, the default weapon, the
action list of D12-ACT-1, the reroll and roll-off bounds). The validators of the values
every d12 function takes (defence, bonuses, mode, critical option, weapon) live here too,
so that each is checked the same way everywhere.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from enum import StrEnum
from fractions import Fraction
from typing import Any, ClassVar

from escarmouche import checks, dice
from escarmouche.errors import HIDDEN, invalid
from escarmouche.options import check_options, option
from escarmouche.render.table import OptionsTable
from escarmouche.systems.base import ActionSpec
from escarmouche.text.fmt import join, quote

__all__ = [
    "ADVANTAGE_EFFECT_KIND",
    "ALERT_TRAIT",
    "ATTACK_DIE",
    "BONUS_RANGE",
    "CAP_RANGE",
    "CRITICAL_OPTIONS",
    "DECLARED",
    "DEFAULT_ACTIONS",
    "DEFAULT_RULES",
    "DEFENCE_RANGE",
    "ENVIRONMENT_INITIATIVE",
    "FREE_COST",
    "HP_RANGE",
    "MODE_LABELS",
    "REQUIRED_ACTIONS",
    "RESOLVER_KINDS",
    "TRACK",
    "TURNS_PER_MINUTE",
    "TURN_SECONDS",
    "CriticalOption",
    "Mode",
    "Rules",
    "check_bonus",
    "check_defence",
    "check_mode",
    "check_option",
    "check_weapon",
    "elapsed_minutes",
    "elapsed_seconds",
]

#: faces of the initiative and attack die (D12-INIT-1, D12-CRIT-1)
ATTACK_DIE = 12
#: the initiative of passive events (D12-INIT-5)
ENVIRONMENT_INITIATIVE = 12
#: a turn lasts 5 to 10 seconds; 10 turns make one minute (D12-TIME-1)
TURN_SECONDS = (5, 10)
TURNS_PER_MINUTE = 10
#: accepted range of a defence (D12-CRIT-1): beyond 40 only a natural 12 could ever hit
#: even with a +28 bonus, which no table needs
DEFENCE_RANGE = (0, 40)
#: accepted range of the bonuses ``init`` and ``attaque`` (D12-INIT-1, D12-CRIT-1)
BONUS_RANGE = (-40, 40)
#: accepted range of the hit points ``PV`` in an encounter
HP_RANGE = (1, 1000)
#: the one damage track
TRACK = "PV"
#: the trait of a defender who acts in the ambush's bonus turn (D12-SURPRISE-2)
ALERT_TRAIT = "alerte"
#: bounds on the caps a designer may set (every loop is bounded); past a cap the tie is
#: settled by lot (D12-INIT-6). 1 is the lowest the book runs: its scripted perfect tie
#: rerolls once and its roll-offs take one round (a lot would draw other dice)
CAP_RANGE = (1, 1000)
#: the kind of the encounter effect created by option (c)
ADVANTAGE_EFFECT_KIND = "avantage_contre"


class Mode(StrEnum):
    """How the attack die is rolled (D12-ADV-1)."""

    NORMAL = "normal"
    AVANTAGE = "avantage"
    DESAVANTAGE = "desavantage"


MODE_LABELS: dict[Mode, str] = {
    Mode.NORMAL: "sans avantage",
    Mode.AVANTAGE: "avec avantage",
    Mode.DESAVANTAGE: "avec désavantage",
}


@dataclasses.dataclass(frozen=True, slots=True)
class CriticalOption:
    """One critical damage option (D12-CRIT-2), as data."""

    id: str
    letter: str
    label: str
    description: str


#: the three critical damage options, in the text's order (D12-CRIT-2 (a), (b), (c))
CRITICAL_OPTIONS: dict[str, CriticalOption] = {
    o.id: o
    for o in (
        CriticalOption(
            "maximum", "a", "dégâts maximum",
            "les dés de dégâts de l’arme infligent leur maximum",
        ),
        CriticalOption(
            "explosif", "b", "dé supplémentaire explosif",
            "un dé de dégâts de plus, et tous les dés de l’arme deviennent explosifs",
        ),
        CriticalOption(
            "avantage", "c", "avantage",
            "dégâts normaux ; jusqu’au début du prochain tour de la cible, la prochaine "
            "attaque contre elle se fait avec avantage",
        ),
    )
}

#: the resolver shared by the actions a designer declares (D12-ACT-1): logged, with their
#: parameters; their effects are the GM's call
DECLARED = "declaree"
#: the resolvers an action of the list may name in its ``kind`` (``actions.py``)
RESOLVER_KINDS = ("attaquer", "se_deplacer", "communiquer", DECLARED)
#: the cost of a free action (« Communiquer », D12-ACT-1, D12-INIT-4)
FREE_COST = "libre"

#: the minimal action list (D12-ACT-1); a designer edits it through ``Rules.actions``.
#: ``cost`` is ``"libre"`` for a free action, ``"action"`` otherwise (information only:
#: the text defines no action economy).
DEFAULT_ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec(
        "attaquer", "Attaquer", "action",
        ("D12-CRIT-1", "D12-CRIT-2", "D12-ADV-1", "D12-EXPLODE-1"),
        ("cible", "arme", "option", "avantage", "desavantage"), ("cible",),
        "Attaque un ennemi debout : 1d12 + attaque contre sa défense ; un 12 naturel est "
        "un critique et l’attaquant choisit une option de dégâts (D12-CRIT-1, D12-CRIT-2).",
    ),
    ActionSpec(
        "se_deplacer", "Se déplacer", "action", ("D12-ACT-1",), ("description",), (),
        "Se déplace ; le texte ne fixe ni distance ni coût, le déplacement est noté "
        "(D12-ACT-1).",
    ),
    ActionSpec(
        "communiquer", "Communiquer", FREE_COST, ("D12-ACT-1", "D12-INIT-4"), ("message",),
        (),
        "Action libre : partage ses intentions avec son groupe, aussi pendant qu’un allié "
        "agit (D12-ACT-1, D12-INIT-4).",
    ),
)
#: the action ids every action list must keep (D12-ACT-1)
REQUIRED_ACTIONS = ("attaquer", "se_deplacer", "communiquer")

_DECLARED_DOC = ("Action ajoutée par le concepteur : elle est notée avec ses paramètres, le "
                 "MJ en décide les effets (D12-ACT-1).")


def check_defence(value: object, who: str = "") -> int:
    """A defence, 0–40 (D12-CRIT-1)."""
    return checks.integer("defense", value, lo=DEFENCE_RANGE[0], hi=DEFENCE_RANGE[1],
                          rule="D12-CRIT-1", who=who)


def check_bonus(value: object, who: str = "", *, stat: str = "attaque",
                rule: str = "D12-CRIT-1") -> int:
    """A bonus (``attaque`` or ``init``), −40–40."""
    return checks.integer(stat, value, lo=BONUS_RANGE[0], hi=BONUS_RANGE[1], rule=rule,
                          who=who)


def check_option(option: object) -> str:
    """A critical option id (D12-CRIT-2)."""
    if not isinstance(option, str) or option not in CRITICAL_OPTIONS:
        raise invalid("option", option, "D12-CRIT-2",
                      "option critique inconnue, à choisir parmi "
                      + join([quote(o) for o in CRITICAL_OPTIONS], last="ou"))
    return option


def check_mode(mode: object) -> Mode:
    """A roll mode (D12-ADV-1): ``"normal"``, ``"avantage"`` or ``"desavantage"``."""
    if isinstance(mode, str) and mode in _MODE_VALUES:
        return Mode(mode)
    raise invalid("mode", mode, "D12-ADV-1",
                  "mode de jet inconnu ; modes : "
                  + join([quote(m.value) for m in Mode], last="ou"))


_MODE_VALUES = frozenset(m.value for m in Mode)


@functools.lru_cache(maxsize=256)
def _parsed_weapon(weapon: str) -> str:
    """Check a weapon's damage expression and return it unchanged (cached)."""
    dice.parse(weapon)
    dice.add_exploding_die(weapon)  # option (b) must be possible on any weapon
    return weapon


def check_weapon(weapon: object, who: str = "") -> str:
    """A weapon's damage expression (``1d8+2``), checked by the dice module (D12-CRIT-2);
    a malformed one raises :class:`~escarmouche.errors.DiceError` naming the weapon and
    the rule."""
    return dice.check_expression(weapon, who=who, rule="D12-CRIT-2", check=_parsed_weapon)


def _check_action(action: object) -> ActionSpec:
    """One action of the list: an :class:`ActionSpec` whose ``kind`` names a resolver. An
    action a designer adds without ``kind`` is a declared one (:data:`DECLARED`)."""
    if not isinstance(action, ActionSpec):
        raise invalid("actions", action, "D12-ACT-1", "une ActionSpec est attendue")
    if not action.kind and action.id not in RESOLVER_KINDS:
        action = dataclasses.replace(action, kind=DECLARED)
    checks.choice("kind", action.resolver_key, RESOLVER_KINDS, "D12-ACT-1")
    if not action.doc:
        action = dataclasses.replace(action, doc=_DECLARED_DOC)
    return action


def action_from_json(data: object) -> ActionSpec:
    """One action of the list read from JSON (a save, a roster file) (D12-ACT-1)."""
    rule = "D12-ACT-1"
    item = checks.mapping("actions", data, rule, max_len=20)
    known = {f.name for f in dataclasses.fields(ActionSpec)}
    for key in item:
        checks.choice("actions", key, sorted(known), rule)
    for key in ("id", "label"):
        if key not in item:
            raise invalid("actions", HIDDEN, rule,
                          f"chaque action donne son « {key} » (champ manquant)")
    texts = {k: checks.text(k, item[k], rule, max_len=500) for k in ("id", "label")}
    extra: dict[str, Any] = {}
    for key in ("cost", "kind", "doc"):
        value = item.get(key, "")
        if not isinstance(value, str):
            raise invalid(key, value, rule, "un texte est attendu")
        extra[key] = value
    for key in ("rules", "params", "required"):
        values = checks.sequence(key, item.get(key, []), rule, max_len=50)
        extra[key] = tuple(checks.text(key, v, rule) for v in values)
    return ActionSpec(texts["id"], texts["label"], **extra)



def _actions_from_json(data: object) -> tuple[ActionSpec, ...]:
    if isinstance(data, tuple) and all(isinstance(a, ActionSpec) for a in data):
        return data
    actions = checks.sequence("actions", data, "D12-ACT-1", max_len=100)
    return tuple(action_from_json(a) for a in actions)


@dataclasses.dataclass(frozen=True, slots=True)
class Rules(OptionsTable):
    """The d12 system's options (RULES.md has no *(option)* ruling for d12; these are
    the choices and caps a designer may change).

    ``critical_option``
        the critical option (D12-CRIT-2) used when an attack does not name one.
    ``default_weapon``
        the damage expression of a fighter whose weapon was not given (``1d6``).
    ``max_initiative_rerolls``
        how many times a perfect tie of group initiative may make everyone reroll
        (D12-INIT-3); one more perfect tie is settled by lot (D12-INIT-6).
    ``max_roll_off_rounds``
        how many roll-off rounds one tie of individual initiative may take (D12-INIT-4,
        D12-SURPRISE-2); beyond, the tie is settled by lot (D12-INIT-6).
    ``actions``
        the action list (D12-ACT-1), editable data; it must keep ``attaquer``,
        ``se_deplacer`` and ``communiquer``. An action added without ``kind`` is a
        declared one (:data:`DECLARED`: logged, its effects are the GM's call).
    """

    options_title: ClassVar[str] = "Options du système d12"

    critical_option: str = option(
        "maximum", label="option critique par défaut", key="option_critique",
        rules=("D12-CRIT-2",),
        choices={o.id: f"({o.letter}) {o.label}" for o in CRITICAL_OPTIONS.values()})
    default_weapon: str = option(
        "1d6", label="dégâts de l’arme par défaut", key="arme_par_defaut",
        rules=("D12-CRIT-1",), check=lambda w: check_weapon(w, "arme par défaut"))
    max_initiative_rerolls: int = option(
        20, label="relances au plus après une égalité parfaite",
        key="relances_initiative_max", rules=("D12-INIT-3", "D12-INIT-6"), lo=CAP_RANGE[0],
        hi=CAP_RANGE[1], bound="le texte fait relancer tout le monde tant que l’égalité "
        "parfaite demeure\u202f; au-delà de ce nombre de relances, les groupes encore à "
        "égalité sont départagés au sort, avec les mêmes dés (D12-INIT-6), et le combat "
        "continue")
    max_roll_off_rounds: int = option(
        20, label="jets de départage au plus pour une égalité", key="departages_max",
        rules=("D12-INIT-4", "D12-INIT-6"), lo=CAP_RANGE[0], hi=CAP_RANGE[1],
        bound="les jets de départage se répètent tant que l’égalité demeure\u202f; au-delà "
        "de ce nombre, les ex æquo sont départagés au sort, avec les mêmes dés "
        "(D12-INIT-6), et le combat continue")
    actions: tuple[ActionSpec, ...] = option(
        DEFAULT_ACTIONS, label="liste des actions", key="actions", rules=("D12-ACT-1",),
        parse=_actions_from_json)

    def __post_init__(self) -> None:
        check_options(self)
        checks.sequence("actions", self.actions, "D12-ACT-1", max_len=100)
        actions = tuple(_check_action(a) for a in self.actions)
        object.__setattr__(self, "actions", actions)
        ids = [a.id for a in actions]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise invalid("actions", dup[0], "D12-ACT-1",
                          "cette action figure deux fois dans la liste")
        for required in REQUIRED_ACTIONS:
            if required not in ids:
                raise invalid("actions", required, "D12-ACT-1",
                              "cette action est exigée par le texte ; la liste doit garder "
                              + join([quote(r) for r in REQUIRED_ACTIONS]))

    def shown_options(self) -> Mapping[str, str]:
        """The action list by its French labels, free actions marked."""
        return {"actions": join([a.label + (" (libre)" if a.cost == FREE_COST else "")
                                 for a in self.actions])}


#: the rules by default (a module-level value, so that defaults are not rebuilt)
DEFAULT_RULES = Rules()


def elapsed_minutes(turns: int) -> Fraction:
    """The conventional duration of ``turns`` combat turns, in minutes: 10 turns = 1 minute
    (D12-TIME-1).

    >>> elapsed_minutes(4)
    Fraction(2, 5)
    """
    checks.integer("tours", turns, lo=0, hi=1_000_000, rule="D12-TIME-1")
    return Fraction(turns, TURNS_PER_MINUTE)


def elapsed_seconds(turns: int) -> tuple[int, int]:
    """The real-time range of ``turns`` turns, in seconds: 5 to 10 s each (D12-TIME-1).

    >>> elapsed_seconds(10)
    (50, 100)
    """
    checks.integer("tours", turns, lo=0, hi=1_000_000, rule="D12-TIME-1")
    return turns * TURN_SECONDS[0], turns * TURN_SECONDS[1]
