"""System d12 (seed 002): group initiative, environment at 12, ambush bonus turn,
critical options (RULES.md « System d12 », rules ``D12-*``).

Dice in, decisions out: every rule is a pure function of dice already rolled
(:func:`rank_groups`, :func:`member_order`, :func:`attack_roll`, :func:`damage_roll`),
with thin wrappers that draw every die with ``rng.randint(1, faces)`` in a documented
order (:func:`initiative`, :func:`roll_attack`, :func:`roll_damage`). Exact odds use
:class:`fractions.Fraction` through :func:`escarmouche.dice.distribution`.

Rulings (RULES.md) implemented here, with their ID:

* D12-INIT-3 — groups are compared as descending lists of results (Python tuple
  order: when one list runs out, the group with a result left wins); a perfect tie
  (two groups with identical lists) makes everyone reroll, at most
  :attr:`Rules.max_initiative_rerolls` times (then :class:`RuleBoundError`).
* D12-INIT-4 — inside a group, ties of individual initiative go to the higher bonus,
  then to a roll-off (one d12 each, higher first; still-tied fighters roll again, at
  most :attr:`Rules.max_roll_off_rounds` rounds per tie).
* Group initiative is rolled **once for the fight**: the text has it rolled when the
  fight (or the ambush's bonus turn) ends — « Une fois leur tour terminé, vous pouvez
  lancer votre initiative de groupe et dérouler les règles normales » — and never
  mentions rolling it again each turn.
* D12-INIT-5 — the environment slot ``"environnement"`` sits at 12 and loses every tie:
  groups at 12 or above act before it.
* D12-SURPRISE-2 — the bonus turn (turn 0) orders the attackers and the defenders with
  the trait ``alerte`` together by individual initiative (its own d12 each); the
  environment does not act in it.
* D12-CRIT-1 — attack = 1d12 + ``attaque`` against the target's ``defense``
  (0–40); hits when the total is at least the defence.
* D12-ADV-1 — advantage rolls 2d12 and keeps the highest, disadvantage keeps the
  lowest; each advantage cancels one disadvantage (they do not stack: what is left
  is one advantage, one disadvantage or neither).
* D12-CRIT-2 — a natural 12 on the kept die always hits and the attacker picks one of
  :data:`CRITICAL_OPTIONS`. Damage never goes below 0 (a ``1d4-2`` weapon deals 0, it
  does not heal).
* D12-ACT-1 — the action list is data (:data:`DEFAULT_ACTIONS`, editable through
  :attr:`Rules.actions`); no action economy is invented: a fighter may take any number
  of actions in its activation, « Communiquer » (free) also while any ally of its
  group acts.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from escarmouche import dice
from escarmouche._rng import Rng
from escarmouche.errors import EscarmoucheError, IllegalActionError, RuleBoundError
from escarmouche.model import Combatant, DieRecord, Effect, Json, Timing, check_roster
from escarmouche.systems.base import ENVIRONMENT, ActionSpec, System

if TYPE_CHECKING:
    from escarmouche.encounter import Ctx

__all__ = [
    "ADVANTAGE_EFFECT_KIND",
    "ALERT_TRAIT",
    "ATTACK_DIE",
    "BONUS_RANGE",
    "CRITICAL_OPTIONS",
    "DEFAULT_ACTIONS",
    "DEFENCE_RANGE",
    "ENVIRONMENT",
    "ENVIRONMENT_INITIATIVE",
    "FREE_COST",
    "HP_RANGE",
    "MAX_ODDS_GROUPS",
    "MAX_ODDS_STATES",
    "MODE_LABELS",
    "REQUIRED_ACTIONS",
    "START_OPTIONS",
    "SYSTEM",
    "TURNS_PER_MINUTE",
    "TURN_SECONDS",
    "AttackOutcome",
    "AttackRoll",
    "BonusTie",
    "CriticalOption",
    "D12Initiative",
    "D12System",
    "DamageRoll",
    "GroupResult",
    "GroupTie",
    "InitiativeRoll",
    "Mode",
    "OptionValue",
    "PerfectTie",
    "RollOff",
    "Rules",
    "attack_damage_distribution",
    "attack_expression",
    "attack_roll",
    "best_critical_option",
    "combine_modes",
    "compare_groups",
    "critical_chance",
    "critical_damage_distribution",
    "critical_option_values",
    "damage_distribution",
    "damage_expression",
    "damage_roll",
    "elapsed_minutes",
    "elapsed_seconds",
    "expected",
    "group_order_odds",
    "hit_chance",
    "initiative",
    "member_order",
    "net_mode",
    "rank_groups",
    "resolve_attack",
    "roll_attack",
    "roll_damage",
]

# ---------------------------------------------------------------------------------------
# Data
# ---------------------------------------------------------------------------------------

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
#: the trait of a defender who acts in the ambush's bonus turn (D12-SURPRISE-2)
ALERT_TRAIT = "alerte"
#: bounds on the caps a designer may set (every loop is bounded, STYLE « bounded »)
CAP_RANGE = (1, 1000)


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


@dataclass(frozen=True, slots=True)
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

#: the kind of the encounter effect created by option (c)
ADVANTAGE_EFFECT_KIND = "avantage_contre"

#: the minimal action list (D12-ACT-1); a designer edits it through ``Rules.actions``.
#: ``cost`` is ``"libre"`` for a free action, ``"action"`` otherwise (information only:
#: the text defines no action economy).
DEFAULT_ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec(
        "attaquer", "Attaquer", "action",
        ("D12-CRIT-1", "D12-CRIT-2", "D12-ADV-1", "D12-EXPLODE-1"),
        ("cible", "arme", "option", "avantage", "desavantage"),
    ),
    ActionSpec("se_deplacer", "Se déplacer", "action", ("D12-ACT-1",), ("description",)),
    ActionSpec("communiquer", "Communiquer", "libre", ("D12-ACT-1", "D12-INIT-4"),
               ("message",)),
)
#: the action ids every action list must keep (D12-ACT-1)
REQUIRED_ACTIONS = ("attaquer", "se_deplacer", "communiquer")
FREE_COST = "libre"


@dataclass(frozen=True, slots=True)
class Rules:
    """The d12 system's options (RULES.md has no *(option)* ruling for d12; these are
    the modifiers and caps a designer may change).

    ``critical_option``
        the critical option (D12-CRIT-2) used when an attack does not name one.
    ``default_weapon``
        the damage expression of a fighter whose weapon was not given (``1d6``).
    ``max_initiative_rerolls``
        how many times a perfect tie of group initiative may make everyone reroll
        (D12-INIT-3); one more perfect tie raises :class:`RuleBoundError`.
    ``max_roll_off_rounds``
        how many roll-off rounds one tie of individual initiative may take (D12-INIT-4,
        D12-SURPRISE-2); beyond, :class:`RuleBoundError`.
    ``actions``
        the action list (D12-ACT-1), editable data; it must keep ``attaquer``,
        ``se_deplacer`` and ``communiquer``.
    """

    critical_option: str = "maximum"
    default_weapon: str = "1d6"
    max_initiative_rerolls: int = 20
    max_roll_off_rounds: int = 20
    actions: tuple[ActionSpec, ...] = DEFAULT_ACTIONS

    def __post_init__(self) -> None:
        _check_option(self.critical_option)
        _check_weapon(self.default_weapon, "arme par défaut")
        for name, value, rule in (
            ("max_initiative_rerolls", self.max_initiative_rerolls, "D12-INIT-3"),
            ("max_roll_off_rounds", self.max_roll_off_rounds, "D12-INIT-4"),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or not (
                CAP_RANGE[0] <= value <= CAP_RANGE[1]
            ):
                raise EscarmoucheError(
                    f"{name} = {value!r} : un entier entre {CAP_RANGE[0]} et {CAP_RANGE[1]} "
                    f"est attendu ({rule})",
                    field=name, value=value, rule=rule,
                )
        actions = tuple(self.actions)
        object.__setattr__(self, "actions", actions)
        ids = [a.id if isinstance(a, ActionSpec) else None for a in actions]
        for a in actions:
            if not isinstance(a, ActionSpec):
                raise EscarmoucheError(
                    f"actions = {a!r} : une ActionSpec est attendue (D12-ACT-1)",
                    field="actions", value=a, rule="D12-ACT-1",
                )
        dup = sorted({i for i in ids if ids.count(i) > 1 and i is not None})
        if dup:
            raise EscarmoucheError(
                f"actions = {dup[0]!r} : cette action figure deux fois dans la liste "
                "(D12-ACT-1)",
                field="actions", value=dup[0], rule="D12-ACT-1",
            )
        for required in REQUIRED_ACTIONS:
            if required not in ids:
                raise EscarmoucheError(
                    f"actions = {ids!r} : l’action « {required} » est exigée par le texte "
                    "(D12-ACT-1)",
                    field="actions", value=required, rule="D12-ACT-1",
                )


# ---------------------------------------------------------------------------------------
# Validation helpers (CORE-ERR)
# ---------------------------------------------------------------------------------------


def _check_int(field_name: str, value: object, lo: int, hi: int, rule: str, who: str = ""
               ) -> int:
    of = f" pour « {who} »" if who else ""
    if isinstance(value, bool) or not isinstance(value, int):
        raise EscarmoucheError(
            f"{field_name} = {value!r}{of} : un nombre entier est attendu ({rule})",
            field=field_name, value=value, rule=rule,
        )
    if not lo <= value <= hi:
        raise EscarmoucheError(
            f"{field_name} = {value}{of} : une valeur entre {lo} et {hi} est attendue ({rule})",
            field=field_name, value=value, rule=rule,
        )
    return value


def _check_defence(value: object, who: str = "") -> int:
    return _check_int("defense", value, *DEFENCE_RANGE, "D12-CRIT-1", who)


def _check_bonus(value: object, who: str = "", *, stat: str = "attaque",
                 rule: str = "D12-CRIT-1") -> int:
    return _check_int(stat, value, *BONUS_RANGE, rule, who)


def _check_option(option: object) -> str:
    if not isinstance(option, str) or option not in CRITICAL_OPTIONS:
        raise EscarmoucheError(
            f"option = {option!r} : option critique inconnue ; options : "
            f"{', '.join(CRITICAL_OPTIONS)} (D12-CRIT-2)",
            field="option", value=option, rule="D12-CRIT-2",
        )
    return option


def _check_mode(mode: object) -> Mode:
    if isinstance(mode, str) and mode in _MODE_VALUES:
        return Mode(mode)
    raise EscarmoucheError(
        f"mode = {mode!r} : mode de jet inconnu ; modes : "
        f"{', '.join(m.value for m in Mode)} (D12-ADV-1)",
        field="mode", value=mode, rule="D12-ADV-1",
    )


_MODE_VALUES = frozenset(m.value for m in Mode)


@functools.lru_cache(maxsize=256)
def _parsed_weapon(weapon: str) -> str:
    """Check a weapon's damage expression and return it unchanged (cached)."""
    dice.parse(weapon)
    dice.add_exploding_die(weapon)  # option (b) must be possible on any weapon
    return weapon


def _check_weapon(weapon: object, who: str = "") -> str:
    """A weapon's damage expression (``1d8+2``), checked by the dice module (D12-CRIT-2);
    a malformed one raises :class:`DiceError` naming the weapon and the rule."""
    return dice.check_expression(weapon, who=who, rule="D12-CRIT-2", check=_parsed_weapon)


# ---------------------------------------------------------------------------------------
# D12-TIME-1
# ---------------------------------------------------------------------------------------


def elapsed_minutes(turns: int) -> Fraction:
    """The conventional duration of ``turns`` combat turns, in minutes: 10 turns = 1 minute
    (D12-TIME-1)."""
    _check_int("tours", turns, 0, 1_000_000, "D12-TIME-1")
    return Fraction(turns, TURNS_PER_MINUTE)


def elapsed_seconds(turns: int) -> tuple[int, int]:
    """The real-time range of ``turns`` turns, in seconds: 5 to 10 s each (D12-TIME-1)."""
    _check_int("tours", turns, 0, 1_000_000, "D12-TIME-1")
    return turns * TURN_SECONDS[0], turns * TURN_SECONDS[1]


# ---------------------------------------------------------------------------------------
# Initiative (D12-INIT-*, D12-SURPRISE-*)
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class InitiativeRoll:
    """One combatant's initiative: the d12 shown plus its ``init`` bonus (D12-INIT-1)."""

    name: str
    side: str
    die: int
    bonus: int

    @property
    def total(self) -> int:
        return self.die + self.bonus

    def to_json(self) -> dict[str, Json]:
        return {"name": self.name, "side": self.side, "die": self.die, "bonus": self.bonus}

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> InitiativeRoll:
        return cls(str(data["name"]), str(data["side"]), int(data["die"]), int(data["bonus"]))


@dataclass(frozen=True, slots=True)
class GroupResult:
    """A group's results in descending order; its initiative is the first (D12-INIT-2).
    The environment group has no member and the value 12 (D12-INIT-5)."""

    side: str
    results: tuple[int, ...]
    environment: bool = False

    @property
    def value(self) -> int:
        return ENVIRONMENT_INITIATIVE if self.environment else self.results[0]

    def to_json(self) -> dict[str, Json]:
        return {"side": self.side, "results": list(self.results),
                "environment": self.environment}

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> GroupResult:
        return cls(str(data["side"]), tuple(int(x) for x in data["results"]),
                   bool(data["environment"]))


@dataclass(frozen=True, slots=True)
class GroupTie:
    """How two consecutive groups with the same initiative were ordered.

    ``rule`` is ``"D12-INIT-3"`` (decided by the ``rank``-th highest results,
    ``before_result`` against ``after_result``; ``None`` when that group's list ran out)
    or ``"D12-INIT-5"`` (the environment loses the tie; ``rank`` is ``None``).
    """

    before: str
    after: str
    value: int
    rule: str
    rank: int | None = None
    before_result: int | None = None
    after_result: int | None = None

    def explain(self) -> str:
        """The French sentence a GM reads."""
        if self.rule == "D12-INIT-5":
            return (f"« {self.before} » et l’environnement sont à {self.value} : "
                    "l’environnement perd l’égalité (D12-INIT-5)")
        assert self.rank is not None
        which = _ordinal(self.rank)
        if self.after_result is None:
            return (f"« {self.before} » et « {self.after} » sont à {self.value} ; au "
                    f"{which} résultat, seul « {self.before} » en a encore un "
                    f"({self.before_result}) et passe devant (D12-INIT-3)")
        return (f"« {self.before} » et « {self.after} » sont à {self.value} ; départagés au "
                f"{which} résultat : {self.before_result} contre {self.after_result} "
                "(D12-INIT-3)")

    def to_json(self) -> dict[str, Json]:
        return {"before": self.before, "after": self.after, "value": self.value,
                "rule": self.rule, "rank": self.rank, "before_result": self.before_result,
                "after_result": self.after_result}

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> GroupTie:
        return cls(**{k: data[k] for k in (
            "before", "after", "value", "rule", "rank", "before_result", "after_result")})


@dataclass(frozen=True, slots=True)
class PerfectTie:
    """A perfect tie of group initiative: the ``attempt``-th set of rolls (1-based) gave
    ``sides`` the same list ``results``, so everyone rerolled (D12-INIT-3)."""

    attempt: int
    sides: tuple[str, ...]
    results: tuple[int, ...]

    def to_json(self) -> dict[str, Json]:
        return {"attempt": self.attempt, "sides": list(self.sides),
                "results": list(self.results)}

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> PerfectTie:
        return cls(int(data["attempt"]), tuple(data["sides"]),
                   tuple(int(x) for x in data["results"]))


@dataclass(frozen=True, slots=True)
class BonusTie:
    """Fighters with the same individual initiative ordered by their bonus (D12-INIT-4).
    ``order`` is ``(name, bonus)`` in the resulting order; ``scope`` is the side, or
    ``"tour bonus"``."""

    scope: str
    total: int
    order: tuple[tuple[str, int], ...]

    def to_json(self) -> dict[str, Json]:
        return {"scope": self.scope, "total": self.total,
                "order": [list(x) for x in self.order]}

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> BonusTie:
        return cls(str(data["scope"]), int(data["total"]),
                   tuple((str(n), int(b)) for n, b in data["order"]))


@dataclass(frozen=True, slots=True)
class RollOff:
    """A roll-off between fighters tied on initiative *and* bonus (D12-INIT-4).

    Each round is ``((name, die), …)`` in draw order; fighters still tied after a round
    roll again (the higher sub-tie first), each such round appended to ``rounds``.
    ``order`` is the result."""

    scope: str
    total: int
    bonus: int
    rounds: tuple[tuple[tuple[str, int], ...], ...]
    order: tuple[str, ...]

    def to_json(self) -> dict[str, Json]:
        return {"scope": self.scope, "total": self.total, "bonus": self.bonus,
                "rounds": [[list(d) for d in r] for r in self.rounds],
                "order": list(self.order)}

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> RollOff:
        return cls(
            str(data["scope"]), int(data["total"]), int(data["bonus"]),
            tuple(tuple((str(n), int(v)) for n, v in r) for r in data["rounds"]),
            tuple(data["order"]),
        )


BONUS_SCOPE = "tour bonus"


@dataclass(frozen=True, slots=True)
class D12Initiative:
    """The whole initiative of a d12 fight, with everything a GM wants to see.

    ``groups``
        ``(side, member names in execution order)`` in acting order; the environment
        is ``("environnement", [])`` (API.md).
    ``bonus_turn``
        the ambush's bonus turn (turn 0) participants in order, else ``[]``.
    ``rolls``
        the group-initiative rolls used (the last attempt), in the given order.
    ``attempts``
        every set of group-initiative rolls, perfect ties included (the last is
        ``rolls``); ``perfect_ties`` says why each earlier one was rerolled.
    ``bonus_rolls``
        the individual rolls of the bonus turn (D12-SURPRISE-2).
    ``group_results``
        each group's descending results, in acting order (environment included).
    ``group_ties``, ``bonus_ties``, ``roll_offs``
        how every tie was broken (D12-INIT-3/4/5).
    """

    groups: list[tuple[str, list[str]]]
    bonus_turn: list[str]
    rolls: tuple[InitiativeRoll, ...]
    attempts: tuple[tuple[InitiativeRoll, ...], ...]
    perfect_ties: tuple[PerfectTie, ...]
    bonus_rolls: tuple[InitiativeRoll, ...]
    group_results: tuple[GroupResult, ...]
    group_ties: tuple[GroupTie, ...]
    bonus_ties: tuple[BonusTie, ...]
    roll_offs: tuple[RollOff, ...]
    environment: bool = False
    ambush_by: str | None = None
    rules: tuple[str, ...] = ()

    def order(self) -> list[str]:
        """The activation slots of a normal turn (members, ``"environnement"``)."""
        out: list[str] = []
        for side, members in self.groups:
            out.extend(members if members or side != ENVIRONMENT else [ENVIRONMENT])
        return out

    def turn(self, n: int) -> list[str]:
        """The activation slots of global turn ``n`` (``0`` = the bonus turn)."""
        return list(self.bonus_turn) if n == 0 else self.order()

    def total(self, name: str) -> int:
        """The individual group-initiative result of ``name`` (D12-INIT-1)."""
        for r in self.rolls:
            if r.name == name:
                return r.total
        raise EscarmoucheError(
            f"combattant = {name!r} : absent de cette initiative (D12-INIT-1)",
            field="combattant", value=name, rule="D12-INIT-1",
        )

    def narration(self) -> list[str]:
        """French sentences: bonus turn, rerolls, group values, how each tie was broken."""
        lines: list[str] = []
        if self.ambush_by is not None:
            lines.append(
                f"Embuscade de « {self.ambush_by} » : tour bonus pour "
                + ", ".join(f"{r.name} ({_fmt_roll(r)})" for r in _by_names(
                    self.bonus_rolls, self.bonus_turn))
                + " (D12-SURPRISE-1, D12-SURPRISE-2)."
            )
        for pt in self.perfect_ties:
            lines.append(
                f"Égalité parfaite entre {_quoted(pt.sides)} ({_fmt_list(pt.results)}) : "
                "tout le monde relance (D12-INIT-3)."
            )
        for g in self.group_results:
            if g.environment:
                lines.append(f"Environnement : initiative {ENVIRONMENT_INITIATIVE} "
                             "(D12-INIT-5).")
            else:
                lines.append(f"Groupe « {g.side} » : initiative {g.value} "
                             f"(résultats {_fmt_list(g.results)}) (D12-INIT-2).")
        lines.extend(t.explain() + "." for t in self.group_ties)
        for b in self.bonus_ties:
            names = ", ".join(f"{n} (bonus {s:+d})" for n, s in b.order)
            lines.append(f"{_scope_label(b.scope)} : égalité à {b.total}, départagée au "
                         f"bonus : {names} (D12-INIT-4).")
        for ro in self.roll_offs:
            rounds = " ; ".join(", ".join(f"{n} {v}" for n, v in r) for r in ro.rounds)
            lines.append(f"{_scope_label(ro.scope)} : égalité à {ro.total} (bonus "
                         f"{ro.bonus:+d}), jet de départage : {rounds} → "
                         f"{', '.join(ro.order)} (D12-INIT-4).")
        order = " ; ".join(
            "environnement" if side == ENVIRONMENT and not members
            else f"« {side} » : {', '.join(members)}"
            for side, members in self.groups
        )
        lines.append(f"Ordre des groupes : {order}.")
        return lines

    def to_json(self) -> dict[str, Json]:
        return {
            "groups": [[s, list(m)] for s, m in self.groups],
            "bonus_turn": list(self.bonus_turn),
            "attempts": [[r.to_json() for r in a] for a in self.attempts],
            "perfect_ties": [p.to_json() for p in self.perfect_ties],
            "bonus_rolls": [r.to_json() for r in self.bonus_rolls],
            "group_results": [g.to_json() for g in self.group_results],
            "group_ties": [t.to_json() for t in self.group_ties],
            "bonus_ties": [t.to_json() for t in self.bonus_ties],
            "roll_offs": [r.to_json() for r in self.roll_offs],
            "environment": self.environment,
            "ambush_by": self.ambush_by,
            "rules": list(self.rules),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> D12Initiative:
        attempts = tuple(tuple(InitiativeRoll.from_json(r) for r in a)
                         for a in data["attempts"])
        return cls(
            groups=[(str(s), [str(n) for n in m]) for s, m in data["groups"]],
            bonus_turn=[str(n) for n in data["bonus_turn"]],
            rolls=attempts[-1],
            attempts=attempts,
            perfect_ties=tuple(PerfectTie.from_json(p) for p in data["perfect_ties"]),
            bonus_rolls=tuple(InitiativeRoll.from_json(r) for r in data["bonus_rolls"]),
            group_results=tuple(GroupResult.from_json(g) for g in data["group_results"]),
            group_ties=tuple(GroupTie.from_json(t) for t in data["group_ties"]),
            bonus_ties=tuple(BonusTie.from_json(t) for t in data["bonus_ties"]),
            roll_offs=tuple(RollOff.from_json(r) for r in data["roll_offs"]),
            environment=bool(data["environment"]),
            ambush_by=data["ambush_by"],
            rules=tuple(data["rules"]),
        )


def _ordinal(n: int) -> str:
    return "premier" if n == 1 else f"{n}e"


def _fmt_list(values: Iterable[int]) -> str:
    return ", ".join(str(v) for v in values)


def _quoted(names: Iterable[str]) -> str:
    return ", ".join(f"« {n} »" for n in names)


def _plus(n: int) -> str:
    """`` + 3`` or `` − 3`` (French typography: spaced operators, true minus sign)."""
    return f" + {n}" if n >= 0 else f" − {-n}"


def _fmt_roll(r: InitiativeRoll) -> str:
    return f"{r.die}{_plus(r.bonus)} = {r.total}" if r.bonus else str(r.total)


def _scope_label(scope: str) -> str:
    return "Tour bonus" if scope == BONUS_SCOPE else f"Groupe « {scope} »"


def _by_names(rolls: Iterable[InitiativeRoll], names: Iterable[str]) -> list[InitiativeRoll]:
    index = {r.name: r for r in rolls}
    return [index[n] for n in names]


# -- pure rules ---------------------------------------------------------------------------


def compare_groups(a: Sequence[int], b: Sequence[int]) -> int:
    """Compare two groups' results (any order): ``1`` when ``a`` acts first, ``-1`` when
    ``b`` does, ``0`` for a perfect tie (D12-INIT-2, D12-INIT-3).

    The highest results are compared first, then the second highest, and so on; when
    one list runs out, the group with a result left wins (ruling).

    >>> compare_groups([9, 3], [9, 7]), compare_groups([9, 7, 1], [7, 9]), compare_groups([5], [5])
    (-1, 1, 0)
    """
    ka, kb = tuple(sorted(a, reverse=True)), tuple(sorted(b, reverse=True))
    return (ka > kb) - (ka < kb)


def rank_groups(
    rolls: Sequence[InitiativeRoll], *, environment: bool = False
) -> tuple[tuple[GroupResult, ...], tuple[GroupTie, ...], tuple[str, ...]]:
    """Order the groups from their members' rolls (pure; D12-INIT-2, -3, -5).

    Returns ``(group results in acting order, ties explained, perfectly tied sides)``;
    the last is empty unless two groups have identical lists (then everyone rerolls,
    D12-INIT-3, and the first two are meaningless). Sides keep the order of first
    appearance when nothing separates them (only a perfect tie, which is rerolled).
    """
    by_side: dict[str, list[int]] = {}
    for r in rolls:
        by_side.setdefault(r.side, []).append(r.total)
    groups = [GroupResult(s, tuple(sorted(v, reverse=True))) for s, v in by_side.items()]
    groups.sort(key=lambda g: g.results, reverse=True)
    perfect: list[str] = []
    for a, b in itertools.pairwise(groups):
        if a.results == b.results:
            perfect += [s for s in (a.side, b.side) if s not in perfect]
    ties: list[GroupTie] = []
    for a, b in itertools.pairwise(groups):
        if a.value == b.value and a.results != b.results:
            rank = next(
                (i for i, (x, y) in enumerate(zip(a.results, b.results, strict=False))
                 if x != y),
                min(len(a.results), len(b.results)),
            )
            ties.append(GroupTie(
                a.side, b.side, a.value, "D12-INIT-3", rank + 1,
                a.results[rank],
                b.results[rank] if rank < len(b.results) else None,
            ))
    if environment:
        env = GroupResult(ENVIRONMENT, (), environment=True)
        pos = sum(1 for g in groups if g.value >= ENVIRONMENT_INITIATIVE)
        if pos and groups[pos - 1].value == ENVIRONMENT_INITIATIVE:
            ties.append(GroupTie(groups[pos - 1].side, ENVIRONMENT, ENVIRONMENT_INITIATIVE,
                                 "D12-INIT-5"))
        groups.insert(pos, env)
    return tuple(groups), tuple(ties), tuple(perfect)


def member_order(
    rolls: Sequence[InitiativeRoll],
) -> tuple[list[list[InitiativeRoll]], list[BonusTie]]:
    """Sort fighters by individual initiative, ties by the higher bonus (pure;
    D12-INIT-4, D12-SURPRISE-2).

    Returns the fighters as a list of *blocks* in order: a block of one is placed; a
    block of several is still tied (same total, same bonus) and needs a roll-off. The
    second value lists the ties the bonus broke. The given order is kept inside a block.
    """
    ranked = sorted(rolls, key=lambda r: (-r.total, -r.bonus))
    blocks: list[list[InitiativeRoll]] = []
    for r in ranked:
        if blocks and (blocks[-1][0].total, blocks[-1][0].bonus) == (r.total, r.bonus):
            blocks[-1].append(r)
        else:
            blocks.append([r])
    bonus_ties: list[BonusTie] = []
    by_total: dict[int, list[InitiativeRoll]] = {}
    for r in ranked:
        by_total.setdefault(r.total, []).append(r)
    for total, same in by_total.items():
        if len({r.bonus for r in same}) > 1:
            bonus_ties.append(BonusTie("", total, tuple((r.name, r.bonus) for r in same)))
    return blocks, bonus_ties


# -- the rolling wrapper -----------------------------------------------------------------


def _check_roster(combatants: Iterable[Combatant]) -> list[Combatant]:
    roster = check_roster(combatants, rule="D12-INIT-1", non_empty=True)
    for c in roster:
        if c.name == ENVIRONMENT or c.side == ENVIRONMENT:
            raise EscarmoucheError(
                f"nom = {ENVIRONMENT!r} : ce nom est réservé à l’environnement (D12-INIT-5)",
                field="nom", value=ENVIRONMENT, rule="D12-INIT-5",
            )
        _check_bonus(c.stat("init", 0), c.name, stat="init", rule="D12-INIT-1")
    return roster


def _roll(c: Combatant, rng: Rng) -> InitiativeRoll:
    return InitiativeRoll(c.name, c.side, rng.randint(1, ATTACK_DIE), c.stat("init", 0))


def _roll_off(
    block: list[InitiativeRoll], scope: str, rng: Rng, cap: int
) -> tuple[list[str], RollOff]:
    """Break a tie by rolling off: one d12 each in the given order, higher first; a
    sub-tie rolls again at once (the higher sub-tie first). At most ``cap`` rounds."""
    rounds: list[tuple[tuple[str, int], ...]] = []

    def settle(names: list[str]) -> list[str]:
        if len(rounds) >= cap:
            raise RuleBoundError(
                f"départages = {cap} : {', '.join(names)} restent à égalité après {cap} "
                "jets de départage ; la borne est atteinte (D12-INIT-4)",
                field="max_roll_off_rounds", value=cap, rule="D12-INIT-4",
            )
        draws = tuple((n, rng.randint(1, ATTACK_DIE)) for n in names)
        rounds.append(draws)
        out: list[str] = []
        for value in sorted({v for _, v in draws}, reverse=True):
            same = [n for n, v in draws if v == value]
            out += same if len(same) == 1 else settle(same)
        return out

    order = settle([r.name for r in block])
    return order, RollOff(scope, block[0].total, block[0].bonus, tuple(rounds), tuple(order))


def _order_with_roll_offs(
    rolls: Sequence[InitiativeRoll], scope: str, rng: Rng, cap: int
) -> tuple[list[str], list[BonusTie], list[RollOff]]:
    blocks, bonus_ties = member_order(rolls)
    names: list[str] = []
    roll_offs: list[RollOff] = []
    for block in blocks:
        if len(block) == 1:
            names.append(block[0].name)
        else:
            order, ro = _roll_off(block, scope, rng, cap)
            names += order
            roll_offs.append(ro)
    return names, [dataclasses.replace(b, scope=scope) for b in bonus_ties], roll_offs


def initiative(
    combatants: Iterable[Combatant],
    rng: Rng,
    *,
    environment: bool = False,
    ambush_by: str | None = None,
    rules: Rules | None = None,
) -> D12Initiative:
    """Roll the initiative of a d12 fight (D12-INIT-1..5, D12-SURPRISE-1/2).

    Each combatant rolls 1d12 + ``init`` (0 when absent); a group's initiative is its
    highest result; groups are compared as descending lists; a perfect tie makes
    everyone reroll (at most ``rules.max_initiative_rerolls`` times, then
    :class:`RuleBoundError`). Inside a group, fighters act in individual order (ties:
    higher bonus, then roll-off). With ``environment=True`` a memberless group
    ``"environnement"`` sits at 12 and loses ties. With ``ambush_by`` (a side of the
    roster) the attackers and the defenders with the trait ``alerte`` get a bonus turn
    (turn 0), ordered by their own individual roll; group initiative is rolled for the
    turns after, once for the whole fight.

    Draw order (API.md): with ``ambush_by``, one d12 per bonus-turn participant (given
    order); then one d12 per combatant (given order); after a perfect tie, one d12 per
    combatant again (given order); then the roll-offs — the bonus turn's first, then
    each group's in acting order — the tie at the higher result first, one d12 per
    tied fighter in the given order, a sub-tie rolled again at once (higher first).
    """
    rules = rules if rules is not None else Rules()
    roster = _check_roster(combatants)
    if not isinstance(environment, bool):
        raise EscarmoucheError(
            f"environment = {environment!r} : vrai ou faux est attendu (D12-INIT-5)",
            field="environment", value=environment, rule="D12-INIT-5",
        )
    sides = list(dict.fromkeys(c.side for c in roster))
    if ambush_by is not None and ambush_by not in sides:
        raise EscarmoucheError(
            f"ambush_by = {ambush_by!r} : aucun camp de ce nom ; camps : "
            f"{', '.join(sides)} (D12-SURPRISE-1)",
            field="ambush_by", value=ambush_by, rule="D12-SURPRISE-1",
        )
    applied = ["D12-INIT-1", "D12-INIT-2", "D12-INIT-4"]
    bonus_participants = [
        c for c in roster
        if ambush_by is not None and (c.side == ambush_by or ALERT_TRAIT in c.traits)
    ]
    bonus_rolls = tuple(_roll(c, rng) for c in bonus_participants)
    if ambush_by is not None:
        applied += ["D12-SURPRISE-1", "D12-SURPRISE-2"]

    attempts: list[tuple[InitiativeRoll, ...]] = []
    perfect_ties: list[PerfectTie] = []
    while True:
        rolls = tuple(_roll(c, rng) for c in roster)
        attempts.append(rolls)
        results, ties, perfect = rank_groups(rolls, environment=environment)
        if not perfect:
            break
        tied = next(g.results for g in results if g.side == perfect[0])
        perfect_ties.append(PerfectTie(len(attempts), perfect, tied))
        if len(perfect_ties) > rules.max_initiative_rerolls:
            raise RuleBoundError(
                f"relances = {rules.max_initiative_rerolls} : égalité parfaite entre "
                f"{_quoted(perfect)} à chaque relance ; la borne est atteinte (D12-INIT-3)",
                field="max_initiative_rerolls", value=rules.max_initiative_rerolls,
                rule="D12-INIT-3",
            )
    if perfect_ties or any(t.rule == "D12-INIT-3" for t in ties):
        applied.append("D12-INIT-3")
    if environment:
        applied.append("D12-INIT-5")

    cap = rules.max_roll_off_rounds
    bonus_turn, bonus_ties, roll_offs = _order_with_roll_offs(
        bonus_rolls, BONUS_SCOPE, rng, cap
    )
    groups: list[tuple[str, list[str]]] = []
    for g in results:
        if g.environment:
            groups.append((ENVIRONMENT, []))
            continue
        members, bt, ro = _order_with_roll_offs(
            [r for r in rolls if r.side == g.side], g.side, rng, cap
        )
        groups.append((g.side, members))
        bonus_ties += bt
        roll_offs += ro
    return D12Initiative(
        groups=groups,
        bonus_turn=bonus_turn,
        rolls=rolls,
        attempts=tuple(attempts),
        perfect_ties=tuple(perfect_ties),
        bonus_rolls=bonus_rolls,
        group_results=results,
        group_ties=ties,
        bonus_ties=tuple(bonus_ties),
        roll_offs=tuple(roll_offs),
        environment=environment,
        ambush_by=ambush_by,
        rules=tuple(applied),
    )


# ---------------------------------------------------------------------------------------
# The attack (D12-CRIT-1, D12-CRIT-2, D12-ADV-1, D12-EXPLODE-1)
# ---------------------------------------------------------------------------------------


def net_mode(advantages: int = 0, disadvantages: int = 0) -> Mode:
    """The mode left once each advantage has cancelled one disadvantage (D12-ADV-1).

    Advantages do not stack: two advantages and no disadvantage still roll 2d12kh1.

    >>> net_mode(1, 1), net_mode(2, 1), net_mode(0, 3)
    (<Mode.NORMAL: 'normal'>, <Mode.AVANTAGE: 'avantage'>, <Mode.DESAVANTAGE: 'desavantage'>)
    """
    for name, n in (("avantages", advantages), ("désavantages", disadvantages)):
        _check_int(name, n, 0, 100, "D12-ADV-1")
    if advantages > disadvantages:
        return Mode.AVANTAGE
    if disadvantages > advantages:
        return Mode.DESAVANTAGE
    return Mode.NORMAL


def combine_modes(*modes: Mode | str) -> Mode:
    """Combine several sources (each a mode): one advantage cancels one disadvantage."""
    checked = [_check_mode(m) for m in modes]
    return net_mode(checked.count(Mode.AVANTAGE), checked.count(Mode.DESAVANTAGE))


#: the attack die as a dice expression per mode: the mode is a transformation of the
#: dice specification (STYLE lesson 6), so the roll and the exact odds agree
_BASE_ATTACK = f"1d{ATTACK_DIE}"


def attack_expression(mode: Mode | str = Mode.NORMAL) -> str:
    """The attack die of ``mode``: ``1d12``, ``2d12kh1`` or ``2d12kl1`` (D12-ADV-1)."""
    m = _check_mode(mode)
    if m is Mode.AVANTAGE:
        return str(dice.with_advantage(_BASE_ATTACK))
    if m is Mode.DESAVANTAGE:
        return str(dice.with_disadvantage(_BASE_ATTACK))
    return _BASE_ATTACK


@dataclass(frozen=True, slots=True)
class AttackRoll:
    """An attack roll (D12-CRIT-1): the d12 shown (two under advantage or disadvantage),
    the one kept, the total against the defence, and whether it is a critical
    (natural 12 on the kept die, D12-CRIT-2: hits whatever the defence)."""

    dice: tuple[int, ...]
    mode: Mode
    kept: int
    bonus: int
    defence: int
    total: int
    hit: bool
    critical: bool
    rules: tuple[str, ...]

    def explain(self) -> str:
        if len(self.dice) > 1:
            how = "le plus haut" if self.mode is Mode.AVANTAGE else "le plus bas"
            shown = f"{' et '.join(map(str, self.dice))}, on garde {how} : {self.kept}"
        else:
            shown = str(self.kept)
        if self.critical:
            return (f"{shown} naturel : réussite critique, touché quelle que soit la défense "
                    f"{self.defence} (D12-CRIT-2)")
        verdict = "touché" if self.hit else "raté"
        return (f"{shown}{_plus(self.bonus)} = {self.total} contre défense {self.defence} : "
                f"{verdict} (D12-CRIT-1)")

    def to_json(self) -> dict[str, Json]:
        return {"dice": list(self.dice), "mode": self.mode.value, "kept": self.kept,
                "bonus": self.bonus, "defence": self.defence, "total": self.total,
                "hit": self.hit, "critical": self.critical, "rules": list(self.rules)}


def attack_roll(
    dice_shown: Sequence[int], *, bonus: int = 0, defence: int, mode: Mode | str = Mode.NORMAL
) -> AttackRoll:
    """Decide an attack from the d12 already rolled (pure; D12-CRIT-1, -2, D12-ADV-1).

    ``dice_shown`` holds one d12 (``normal``) or two (``avantage``: the higher is
    kept; ``desavantage``: the lower). Hits when ``kept + bonus >= defence``, or on a
    natural 12 on the kept die (critical).

    >>> attack_roll([12], bonus=0, defence=40).critical
    True
    >>> attack_roll([3, 12], defence=14, mode="desavantage").hit
    False
    """
    m = _check_mode(mode)
    _check_bonus(bonus)
    _check_defence(defence)
    shown = tuple(dice_shown)
    need = 1 if m is Mode.NORMAL else 2
    if len(shown) != need or any(
        isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= ATTACK_DIE
        for v in shown
    ):
        raise EscarmoucheError(
            f"dés d’attaque = {list(shown)!r} : {need} d12 (1 à 12) attendu(s) "
            f"{MODE_LABELS[m]} (D12-ADV-1)",
            field="dés d’attaque", value=list(shown), rule="D12-ADV-1",
        )
    kept = max(shown) if m is Mode.AVANTAGE else min(shown)
    total = kept + bonus
    critical = kept == ATTACK_DIE
    rules = ["D12-CRIT-1"]
    if m is not Mode.NORMAL:
        rules.append("D12-ADV-1")
    if critical:
        rules.append("D12-CRIT-2")
    return AttackRoll(shown, m, kept, bonus, defence, total, critical or total >= defence,
                      critical, tuple(rules))


def roll_attack(rng: Rng, *, bonus: int = 0, defence: int, mode: Mode | str = Mode.NORMAL
                ) -> AttackRoll:
    """Roll an attack: draws the dice of :func:`attack_expression` (one d12, or two in
    order under advantage or disadvantage), then :func:`attack_roll`."""
    m = _check_mode(mode)
    _check_bonus(bonus)
    _check_defence(defence)
    r = dice.roll(attack_expression(m), rng)
    return attack_roll([v for _, v in r.draws], bonus=bonus, defence=defence, mode=m)


def damage_expression(weapon: str, option: str | None = None) -> str:
    """The dice rolled for the damage of a hit (canonical notation).

    A normal hit and option ``"avantage"`` roll the weapon; ``"explosif"`` rolls one
    more die of the first dice term, every dice term exploding (``1d8+2`` → ``2d8!+2``,
    D12-CRIT-2 (b), D12-EXPLODE-1); ``"maximum"`` rolls nothing (the weapon's maximum,
    see :func:`damage_roll`).
    """
    w = _check_weapon(weapon)
    if option is not None:
        _check_option(option)
    if option == "explosif":
        return str(dice.add_exploding_die(w))
    return str(dice.parse(w))


@dataclass(frozen=True, slots=True)
class DamageRoll:
    """The damage of one hit. ``option`` is ``None`` for a normal hit, else the critical
    option (D12-CRIT-2). ``expression`` is what was rolled (nothing for ``"maximum"``),
    ``detail`` the dice as a GM reads them, ``raw`` the total and ``damage`` the points
    lost (``raw`` floored at 0: damage never heals)."""

    weapon: str
    option: str | None
    expression: str
    dice: tuple[int, ...]
    detail: str
    raw: int
    damage: int
    rules: tuple[str, ...]

    def to_json(self) -> dict[str, Json]:
        return {"weapon": self.weapon, "option": self.option, "expression": self.expression,
                "dice": list(self.dice), "detail": self.detail, "raw": self.raw,
                "damage": self.damage, "rules": list(self.rules)}


def _option_rules(option: str | None) -> tuple[str, ...]:
    if option is None:
        return ()
    return ("D12-CRIT-2", "D12-EXPLODE-1") if option == "explosif" else ("D12-CRIT-2",)


def damage_roll(weapon: str, dice_shown: Sequence[int], *, option: str | None = None
                ) -> DamageRoll:
    """Decide the damage of a hit from the damage dice already rolled (pure).

    ``dice_shown`` are the draws of :func:`damage_expression` in its draw order (for an
    exploding die, its extra draws right after it); none for ``"maximum"``, whose damage
    is the weapon with every die at its maximum, without explosion
    (``1d8+2`` → 10, D12-CRIT-2 (a)).

    >>> damage_roll("1d8+2", [8, 8, 3, 5], option="explosif").raw
    26
    """
    expr = damage_expression(weapon, option)
    shown = tuple(dice_shown)
    if option == "maximum":
        if shown:
            raise EscarmoucheError(
                f"dés de dégâts = {list(shown)!r} : l’option « maximum » ne lance aucun dé "
                "(D12-CRIT-2)",
                field="dés de dégâts", value=list(shown), rule="D12-CRIT-2",
            )
        raw = dice.max_dice_total(expr)
        detail = f"{expr} au maximum = {raw}"
    else:
        from escarmouche._rng import ScriptedRolls

        scripted = ScriptedRolls(shown)
        r = dice.roll(expr, scripted)
        if scripted.remaining:
            raise EscarmoucheError(
                f"dés de dégâts = {list(shown)!r} : {scripted.used} dé(s) attendu(s) pour "
                f"« {expr} », {len(shown)} fourni(s) (D12-CRIT-2)",
                field="dés de dégâts", value=list(shown), rule="D12-CRIT-2",
            )
        raw = r.total
        detail = str(r)
    return DamageRoll(weapon, option, expr, shown, detail, raw, max(raw, 0),
                      _option_rules(option))


def roll_damage(weapon: str, rng: Rng, *, option: str | None = None) -> DamageRoll:
    """Roll the damage of a hit: the dice of :func:`damage_expression` (terms left to
    right, an exploding die's extra draws right after it); none for ``"maximum"``."""
    expr = damage_expression(weapon, option)
    if option == "maximum":
        return damage_roll(weapon, (), option=option)
    r = dice.roll(expr, rng)
    return damage_roll(weapon, [v for _, v in r.draws], option=option)


@dataclass(frozen=True, slots=True)
class AttackOutcome:
    """A whole attack: the roll, the damage (``None`` on a miss), the critical option
    applied (``None`` unless critical) and whether the next attack against the target
    gains advantage (option (c), D12-CRIT-2)."""

    attack: AttackRoll
    damage: DamageRoll | None
    option: str | None
    grants_advantage: bool

    @property
    def dealt(self) -> int:
        return self.damage.damage if self.damage is not None else 0

    @property
    def rules(self) -> tuple[str, ...]:
        extra = self.damage.rules if self.damage is not None else ()
        return tuple(dict.fromkeys(self.attack.rules + extra))


def resolve_attack(
    rng: Rng,
    *,
    weapon: str,
    bonus: int = 0,
    defence: int,
    mode: Mode | str = Mode.NORMAL,
    option: str = "maximum",
) -> AttackOutcome:
    """Roll one attack and its damage (D12-CRIT-1, -2, D12-ADV-1, D12-EXPLODE-1).

    Draw order: the attack d12 (two, in order, under advantage or disadvantage); on a
    hit, the damage dice of :func:`damage_expression` (none for a ``"maximum"``
    critical). ``option`` is the critical option chosen if the attack is critical.
    """
    _check_weapon(weapon)
    _check_option(option)
    att = roll_attack(rng, bonus=bonus, defence=defence, mode=mode)
    if not att.hit:
        return AttackOutcome(att, None, None, False)
    chosen = option if att.critical else None
    dmg = roll_damage(weapon, rng, option=chosen)
    return AttackOutcome(att, dmg, chosen, chosen == "avantage")


# ---------------------------------------------------------------------------------------
# Exact odds
# ---------------------------------------------------------------------------------------


def _floored(dist: Mapping[int, Fraction]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for v, p in dist.items():
        k = max(v, 0)
        out[k] = out.get(k, Fraction(0)) + p
    return dict(sorted(out.items()))


def expected(dist: Mapping[int, Fraction]) -> Fraction:
    """The mean of an exact distribution."""
    return sum((Fraction(v) * p for v, p in dist.items()), Fraction(0))


def critical_chance(mode: Mode | str = Mode.NORMAL) -> Fraction:
    """The exact chance of a natural 12 on the kept die (D12-CRIT-2, D12-ADV-1):
    1/12, 23/144 with advantage, 1/144 with disadvantage."""
    return dice.distribution(attack_expression(mode)).get(ATTACK_DIE, Fraction(0))


def _kept_distribution(mode: Mode | str) -> Mapping[int, Fraction]:
    return dice.distribution(attack_expression(mode))


def hit_chance(*, bonus: int = 0, defence: int, mode: Mode | str = Mode.NORMAL) -> Fraction:
    """The exact chance that an attack hits, criticals included (D12-CRIT-1, -2)."""
    _check_bonus(bonus)
    _check_defence(defence)
    return sum(
        (p for k, p in _kept_distribution(mode).items()
         if k == ATTACK_DIE or k + bonus >= defence),
        Fraction(0),
    )


@functools.lru_cache(maxsize=256)
def _damage_distribution_cached(weapon: str, option: str | None) -> Mapping[int, Fraction]:
    expr = damage_expression(weapon, option)
    if option == "maximum":
        return {max(dice.max_dice_total(expr), 0): Fraction(1)}
    return _floored(dice.distribution(expr))


def damage_distribution(weapon: str, option: str | None = None) -> Mapping[int, Fraction]:
    """The exact damage of one hit (floored at 0): a normal hit (``option=None``) or a
    critical with ``option`` (D12-CRIT-2, D12-EXPLODE-1 with the dice module's cap)."""
    w = _check_weapon(weapon)
    if option is not None:
        _check_option(option)
    return dict(_damage_distribution_cached(w, option))


def critical_damage_distribution(weapon: str, option: str) -> Mapping[int, Fraction]:
    """The exact damage distribution of a critical hit (API.md; D12-CRIT-2).

    ``"maximum"``: the weapon's dice at their maximum (one value); ``"explosif"``: one
    more die, every die exploding (``1d8+2`` → ``2d8!+2``; explosion capped at
    :data:`escarmouche.dice.MAX_EXPLODE_DEPTH` extra draws, D12-EXPLODE-1);
    ``"avantage"``: the weapon's normal damage (its benefit is on the next attack, see
    :func:`critical_option_values`). Damage is floored at 0.

    >>> dict(critical_damage_distribution("1d8+2", "maximum"))
    {10: Fraction(1, 1)}
    """
    _check_option(option)
    return damage_distribution(weapon, option)


def attack_damage_distribution(
    weapon: str,
    *,
    bonus: int = 0,
    defence: int,
    option: str = "maximum",
    mode: Mode | str = Mode.NORMAL,
) -> Mapping[int, Fraction]:
    """The exact damage of one attack against ``defence``: a miss deals 0, a normal hit
    the weapon, a critical the weapon with ``option`` (D12-CRIT-1, -2, D12-ADV-1).

    Only this attack's damage: the benefit of option ``"avantage"`` for the next attack
    is valued separately by :func:`critical_option_values`.
    """
    _check_bonus(bonus)
    _check_defence(defence)
    _check_option(option)
    normal = damage_distribution(weapon)
    crit = damage_distribution(weapon, option)
    out: dict[int, Fraction] = {}

    def add(dist: Mapping[int, Fraction], weight: Fraction) -> None:
        for v, p in dist.items():
            out[v] = out.get(v, Fraction(0)) + weight * p

    for k, p in _kept_distribution(mode).items():
        if k == ATTACK_DIE:
            add(crit, p)
        elif k + bonus >= defence:
            add(normal, p)
        else:
            add({0: Fraction(1)}, p)
    return dict(sorted(out.items()))


@dataclass(frozen=True, slots=True)
class OptionValue:
    """What one critical option is worth (D12-CRIT-2), in expected damage points.

    ``critical_damage``
        the mean damage of the critical hit itself with this option;
    ``next_attack_gain``
        (option ``"avantage"`` only, else 0) the mean extra damage of the next attack
        against the target thanks to the advantage, under the model of
        :func:`critical_option_values`;
    ``decision_value``
        ``critical_damage + next_attack_gain``: what the attacker compares once the 12
        is rolled;
    ``attack_damage``
        the mean damage of the whole attack (before rolling) when this option is taken on
        a critical, this attack only;
    ``critical_chance``
        the chance that this attack is critical.
    """

    option: str
    label: str
    critical_damage: Fraction
    next_attack_gain: Fraction
    attack_damage: Fraction
    critical_chance: Fraction

    @property
    def decision_value(self) -> Fraction:
        return self.critical_damage + self.next_attack_gain

    @property
    def attack_value(self) -> Fraction:
        """The mean damage of this attack plus, on a critical, the next attack's gain."""
        return self.attack_damage + self.critical_chance * self.next_attack_gain


def _mean_attack(weapon: str, bonus: int, defence: int, mode: Mode, option: str) -> Fraction:
    return expected(attack_damage_distribution(
        weapon, bonus=bonus, defence=defence, option=option, mode=mode))


def critical_option_values(
    weapon: str,
    *,
    bonus: int = 0,
    defence: int,
    mode: Mode | str = Mode.NORMAL,
    next_mode: Mode | str = Mode.NORMAL,
    next_attack_chance: Fraction | int = 1,
    next_weapon: str | None = None,
    next_bonus: int | None = None,
) -> tuple[OptionValue, ...]:
    """Value the three critical options against ``defence`` (exact; D12-CRIT-2).

    Options (a) and (b) pay on this hit only. Option (c) deals the weapon's normal damage
    and gives advantage to the next attack against the target. **Model** for (c): with
    probability ``next_attack_chance`` an attack is made against the target before its
    next turn; that attack uses ``next_weapon`` and ``next_bonus`` (by default the same as
    this one), against the same defence, with ``next_mode`` before the advantage (an
    advantage cancels one disadvantage, D12-ADV-1; advantages do not stack); on its own
    critical it takes the better of ``"maximum"`` and ``"explosif"`` (no chain of
    advantages is valued). The gain is
    ``next_attack_chance × (E[next attack with the advantage] − E[next attack without])``.
    """
    w = _check_weapon(weapon)
    m = _check_mode(mode)
    nm = _check_mode(next_mode)
    chance = Fraction(next_attack_chance)
    if not 0 <= chance <= 1:
        raise EscarmoucheError(
            f"next_attack_chance = {next_attack_chance!r} : une probabilité entre 0 et 1 est "
            "attendue (D12-CRIT-2)",
            field="next_attack_chance", value=next_attack_chance, rule="D12-CRIT-2",
        )
    nw = _check_weapon(next_weapon) if next_weapon is not None else w
    nb = _check_bonus(next_bonus) if next_bonus is not None else _check_bonus(bonus)
    _check_bonus(bonus)
    _check_defence(defence)
    next_option = max(("maximum", "explosif"),
                      key=lambda o: expected(damage_distribution(nw, o)))
    boosted = combine_modes(nm, Mode.AVANTAGE) if nm is not Mode.AVANTAGE else nm
    gain = chance * (_mean_attack(nw, nb, defence, boosted, next_option)
                     - _mean_attack(nw, nb, defence, nm, next_option))
    crit_p = critical_chance(m)
    out: list[OptionValue] = []
    for o in CRITICAL_OPTIONS.values():
        out.append(OptionValue(
            o.id, o.label,
            expected(damage_distribution(w, o.id)),
            gain if o.id == "avantage" else Fraction(0),
            _mean_attack(w, bonus, defence, m, o.id),
            crit_p,
        ))
    return tuple(out)


def best_critical_option(weapon: str, *, defence: int, bonus: int = 0, **model: Any) -> str:
    """The critical option of highest :attr:`OptionValue.decision_value` (ties: the
    text's order a, b, c). ``model`` is passed to :func:`critical_option_values`."""
    values = critical_option_values(weapon, bonus=bonus, defence=defence, **model)
    best = max(values, key=lambda v: v.decision_value)
    return best.option



# -- exact odds of the group order (D12-INIT-2, -3, -5) ---------------------------------

#: bounds of :func:`group_order_odds` (the computation is exact, so it is bounded)
MAX_ODDS_GROUPS = 5
MAX_ODDS_STATES = 20_000

#: the environment as a group result: above every list starting below 12, below every
#: list starting at 12 or more (it loses ties, D12-INIT-5); results never exceed 52
_ENV_KEY = (ENVIRONMENT_INITIATIVE - 1, 10**6)


def _sorted_results_law(bonuses: Sequence[int]) -> dict[tuple[int, ...], int]:
    """How many of the 12^k dice outcomes give each descending list of results."""
    law: dict[tuple[int, ...], int] = {(): 1}
    for b in bonuses:
        nxt: dict[tuple[int, ...], int] = {}
        for key, n in law.items():
            for d in range(1, ATTACK_DIE + 1):
                new = tuple(sorted((*key, d + b), reverse=True))
                nxt[new] = nxt.get(new, 0) + n
        if len(nxt) > MAX_ODDS_STATES:
            raise EscarmoucheError(
                f"combattants = {len(bonuses)} dans un groupe : calcul exact trop coûteux "
                f"(plus de {MAX_ODDS_STATES} listes de résultats possibles) (D12-INIT-3)",
                field="combattants", value=len(bonuses), rule="D12-INIT-3",
            )
        law = nxt
    return law


def group_order_odds(
    combatants: Iterable[Combatant], *, environment: bool = False
) -> dict[tuple[str, ...], Fraction]:
    """The exact probability of each acting order of the groups (D12-INIT-2, -3, -5).

    Each order is a tuple of sides (``"environnement"`` included when
    ``environment=True``). A perfect tie makes everyone reroll (D12-INIT-3), so the
    result is conditional on no perfect tie: exact for unbounded rerolls (the bound
    :attr:`Rules.max_initiative_rerolls` is reached with a negligible probability,
    below (1/12)^20 per pair of one-member groups). At most :data:`MAX_ODDS_GROUPS`
    groups (a bounded, exact computation).

    With A (1d12) against B (1d12 + 1): B ahead in 78 of 144 cases, A in 55, a perfect
    tie in 11, rerolled:

    >>> odds = group_order_odds([Combatant("A", "x"), Combatant("B", "y", {"init": 1})])
    >>> odds[("y", "x")]
    Fraction(78, 133)
    """
    roster = _check_roster(combatants)
    sides = list(dict.fromkeys(c.side for c in roster))
    if len(sides) > MAX_ODDS_GROUPS:
        raise EscarmoucheError(
            f"groupes = {len(sides)} : calcul exact limité à {MAX_ODDS_GROUPS} groupes "
            "(D12-INIT-2)",
            field="groupes", value=len(sides), rule="D12-INIT-2",
        )
    laws: dict[str, dict[tuple[int, ...], Fraction]] = {}
    for side in sides:
        bonuses = [c.stat("init", 0) for c in roster if c.side == side]
        counts = _sorted_results_law(bonuses)
        total = ATTACK_DIE ** len(bonuses)
        laws[side] = {k: Fraction(n, total) for k, n in counts.items()}
    if environment:
        laws[ENVIRONMENT] = {_ENV_KEY: Fraction(1)}
    values = sorted({k for law in laws.values() for k in law})
    index = {v: i for i, v in enumerate(values)}
    dense = {s: [Fraction(0)] * len(values) for s in laws}
    for s, law in laws.items():
        for k, p in law.items():
            dense[s][index[k]] = p
    out: dict[tuple[str, ...], Fraction] = {}
    for order in itertools.permutations(laws):
        # below[i]: P(the groups after this one are in this strict order, all < values[i])
        below = [Fraction(1)] * len(values)
        for side in reversed(order):
            weights = dense[side]
            acc = Fraction(0)
            nxt = [Fraction(0)] * len(values)
            for i in range(len(values)):
                nxt[i] = acc  # strictly below values[i]
                acc += weights[i] * below[i]
            below = nxt
        prob = acc
        if prob:
            out[order] = prob
    no_tie = sum(out.values(), Fraction(0))
    return {o: p / no_tie for o, p in sorted(out.items(), key=lambda kv: -kv[1])}


# ---------------------------------------------------------------------------------------
# The encounter (hooks of escarmouche.systems.base.System)
# ---------------------------------------------------------------------------------------

#: the options ``Encounter.start`` accepts for d12
START_OPTIONS = ("ambush_by", "environment", "weapons")


def _action_to_json(a: ActionSpec) -> dict[str, Json]:
    return {"id": a.id, "label": a.label, "cost": a.cost, "rules": list(a.rules),
            "params": list(a.params)}


def _action_from_json(data: object) -> ActionSpec:
    if not isinstance(data, Mapping) or not isinstance(data.get("id"), str) or not isinstance(
        data.get("label"), str
    ):
        raise EscarmoucheError(
            f"actions = {data!r} : une action {{id, label, cost, rules, params}} est "
            "attendue (D12-ACT-1)",
            field="actions", value=data, rule="D12-ACT-1",
        )
    return ActionSpec(
        str(data["id"]), str(data["label"]), str(data.get("cost", "")),
        tuple(str(x) for x in data.get("rules", ())),
        tuple(str(x) for x in data.get("params", ())),
    )


def _group_line(init: D12Initiative) -> str:
    values = {g.side: g.value for g in init.group_results}
    parts = []
    for side, members in init.groups:
        if side == ENVIRONMENT and not members:
            parts.append(f"environnement ({ENVIRONMENT_INITIATIVE})")
        else:
            parts.append(f"« {side} » ({values[side]}) : {', '.join(members)}")
    return "Ordre des groupes : " + " ; ".join(parts) + " (D12-INIT-2)."


class D12System(System):
    """The d12 rules in the encounter engine.

    Start options (``Encounter.start(rng, **options)``): ``ambush_by`` (the side that
    ambushes: a bonus turn 0, D12-SURPRISE-*), ``environment`` (``True`` adds the
    ``"environnement"`` slot at 12, D12-INIT-5) and ``weapons`` (``{name: "1d8+2"}``;
    others use :attr:`Rules.default_weapon`). Initiative is rolled once, at the start,
    with :func:`initiative` (its draw order).

    Each member of a group activates in the group's execution order (D12-INIT-4): the
    engine resolves each member's action when its turn in that order comes (the
    members decide together; « Communiquer » lets them share intentions while their
    group acts). The environment slot is activated like a fighter: the effects borne
    by ``"environnement"`` and timed at the start of an activation tick then (the GM
    resolves the event, then ends the activation).

    Actions (:attr:`Rules.actions`, D12-ACT-1): ``attaquer`` (``cible``; optional
    ``arme`` as a dice expression, ``option`` among :data:`CRITICAL_OPTIONS`,
    ``avantage`` and ``desavantage`` booleans for circumstances), ``se_deplacer``
    (optional ``description``), ``communiquer`` (free; optional ``message``), and any
    action a designer adds (logged as declared). Fighters need ``PV`` (1–1000) and
    ``defense`` (0–40); ``attaque`` and ``init`` default to 0.
    """

    name: ClassVar[str] = "d12"
    title: ClassVar[str] = "Système d12 (initiative de groupe)"
    rules_type: ClassVar[type[Any]] = Rules
    tracks: ClassVar[tuple[str, ...]] = ("PV",)
    turn_word: ClassVar[str] = "tour"
    turn_rules: ClassVar[tuple[str, ...]] = ("D12-TIME-1", "D12-INIT-2")
    start_options: ClassVar[tuple[str, ...]] = tuple(START_OPTIONS)
    #: the d12 text gives no effect timing: effect ticks cite no rule of another system
    tick_rules: ClassVar[Mapping[Timing, tuple[str, ...]]] = MappingProxyType({})

    # -- rules (options) -----------------------------------------------------------------

    def rules_to_json(self, rules: Any) -> dict[str, Json]:
        out: dict[str, Json] = {}
        for f in dataclasses.fields(rules):
            value = getattr(rules, f.name)
            out[f.name] = ([_action_to_json(a) for a in value] if f.name == "actions"
                           else value)
        return out

    def rules_from_json(self, data: Mapping[str, Json]) -> Any:
        plain = {k: v for k, v in data.items() if k != "actions"}
        rules = super().rules_from_json(plain)
        if "actions" in data:
            actions = data["actions"]
            if not isinstance(actions, list):
                raise EscarmoucheError(
                    f"actions = {actions!r} : une liste d’actions est attendue (D12-ACT-1)",
                    field="actions", value=actions, rule="D12-ACT-1",
                )
            rules = dataclasses.replace(
                rules, actions=tuple(_action_from_json(a) for a in actions))
        return rules

    # -- roster --------------------------------------------------------------------------

    def validate(self, combatant: Combatant, rules: Any) -> None:
        c = combatant
        _check_int("PV", c.stat("PV"), *HP_RANGE, "CORE-ERR", c.name)
        _check_defence(c.stat("defense"), c.name)
        _check_bonus(c.stat("attaque", 0), c.name)
        _check_bonus(c.stat("init", 0), c.name, stat="init", rule="D12-INIT-1")

    # -- the fight -----------------------------------------------------------------------

    def start(self, ctx: Ctx, options: Mapping[str, Any]) -> None:
        weapons = options.get("weapons") or {}
        if not isinstance(weapons, Mapping):
            raise EscarmoucheError(
                f"weapons = {weapons!r} : un dictionnaire {{nom: dégâts}} est attendu "
                "(D12-CRIT-2)",
                field="weapons", value=weapons, rule="D12-CRIT-2",
            )
        for name, expr in weapons.items():
            ctx.fighter(name, rule="D12-CRIT-2")
            _check_weapon(expr, name)
        roster = [f.combatant for f in ctx.state.fighters.values()]
        init = initiative(
            roster, ctx.rng,
            environment=options.get("environment", False),
            ambush_by=options.get("ambush_by"),
            rules=ctx.rules,
        )
        st = ctx.state.system_state
        st["initiative"] = init.to_json()
        st["weapons"] = {str(k): str(v) for k, v in weapons.items()}
        st["order"] = init.order()
        st["bonus_turn"] = list(init.bonus_turn)
        st["group_of"] = {n: side for side, members in init.groups for n in members}
        st["acting_group"] = None
        self._emit_initiative(ctx, init)

    def _emit_initiative(self, ctx: Ctx, init: D12Initiative) -> None:
        def rolls_text(rolls: Iterable[InitiativeRoll]) -> str:
            return ", ".join(f"{r.name} {_fmt_roll(r)}" for r in rolls)

        if init.ambush_by is not None:
            ctx.emit(
                "surprise",
                f"Embuscade du camp « {init.ambush_by} » : tour bonus (tour 0) ; initiative "
                f"individuelle : {rolls_text(init.bonus_rolls)} (D12-SURPRISE-1, "
                "D12-SURPRISE-2).",
                rules=("D12-SURPRISE-1", "D12-SURPRISE-2", "D12-INIT-1"),
                dice=[DieRecord(ATTACK_DIE, r.die, f"initiative (tour bonus) de {r.name}")
                      for r in init.bonus_rolls],
                data={"ambush_by": init.ambush_by,
                      "rolls": [r.to_json() for r in init.bonus_rolls]},
            )
        for i, attempt in enumerate(init.attempts, 1):
            again = " (relance)" if i > 1 else ""
            ctx.emit(
                "initiative",
                f"Initiative de groupe{again} : {rolls_text(attempt)} (D12-INIT-1).",
                rules=("D12-INIT-1",),
                dice=[DieRecord(ATTACK_DIE, r.die, f"initiative de {r.name}") for r in attempt],
                data={"attempt": i, "rolls": [r.to_json() for r in attempt]},
            )
            for pt in init.perfect_ties:
                if pt.attempt == i:
                    ctx.emit(
                        "egalite_parfaite",
                        f"Égalité parfaite entre {_quoted(pt.sides)} "
                        f"({_fmt_list(pt.results)}) : tout le monde relance (D12-INIT-3).",
                        rules=("D12-INIT-3",), dice=(), data=pt.to_json(),
                    )
        for ro in init.roll_offs:
            rounds = " ; ".join(", ".join(f"{n} {v}" for n, v in r) for r in ro.rounds)
            ctx.emit(
                "departage",
                f"{_scope_label(ro.scope)} : égalité à {ro.total} (bonus {ro.bonus:+d}), jet "
                f"de départage : {rounds} → {', '.join(ro.order)} (D12-INIT-4).",
                rules=("D12-INIT-4",),
                dice=[DieRecord(ATTACK_DIE, v, f"départage de {n}")
                      for r in ro.rounds for n, v in r],
                data=ro.to_json(),
            )
        lines = [_group_line(init)]
        lines += [t.explain() + "." for t in init.group_ties]
        for b in init.bonus_ties:
            names = ", ".join(f"{n} (bonus {s:+d})" for n, s in b.order)
            lines.append(f"{_scope_label(b.scope)} : égalité à {b.total}, départagée au "
                         f"bonus : {names} (D12-INIT-4).")
        if init.bonus_turn:
            lines.insert(0, f"Tour bonus : {', '.join(init.bonus_turn)} (D12-SURPRISE-2).")
        ctx.emit("ordre_initiative", " ".join(lines), rules=init.rules, dice=(),
                 data=init.to_json())

    def first_turn(self, ctx: Ctx) -> int:
        return 0 if ctx.state.system_state.get("bonus_turn") else 1

    def turn_order(self, ctx: Ctx, turn: int) -> list[str]:
        st = ctx.state.system_state
        return list(st["bonus_turn"]) if turn == 0 else list(st["order"])

    def on_turn_start(self, ctx: Ctx) -> None:
        st = ctx.state.system_state
        st["acting_group"] = None
        turn = ctx.state.turn
        if turn == 0:
            ctx.emit(
                "tour_bonus",
                f"Tour bonus de l’embuscade : seuls agissent {', '.join(st['bonus_turn'])}, "
                "dans l’ordre de leur initiative individuelle (D12-SURPRISE-1, "
                "D12-SURPRISE-2).",
                rules=("D12-SURPRISE-1", "D12-SURPRISE-2"),
            )
        elif turn == 1 and st.get("bonus_turn"):
            ctx.emit(
                "fin_surprise",
                "Le tour bonus est terminé : l’initiative de groupe s’applique "
                "(D12-SURPRISE-1).",
                rules=("D12-SURPRISE-1",),
            )

    def on_activation_start(self, ctx: Ctx, actor: str) -> bool:
        st = ctx.state.system_state
        if actor == ENVIRONMENT:
            st["acting_group"] = ENVIRONMENT
            current = [e.name for e in ctx.effects_of(ENVIRONMENT)]
            what = ", ".join(f"« {n} »" for n in current) if current else "aucun effet"
            ctx.emit(
                "environnement",
                f"L’environnement agit à l’initiative {ENVIRONMENT_INITIATIVE}, après les "
                f"groupes à égalité (D12-INIT-5) : {what}.",
                actor=ENVIRONMENT, rules=("D12-INIT-5",), data={"effects": current},
            )
            return True
        if ctx.state.turn >= 1:
            side = st["group_of"].get(actor)
            if side is not None and st.get("acting_group") != side:
                st["acting_group"] = side
                init = D12Initiative.from_json(st["initiative"])
                members = next(m for s, m in init.groups if s == side)
                standing = [n for n in members if ctx.state.fighters[n].standing]
                value = next(g.value for g in init.group_results if g.side == side)
                ctx.emit(
                    "groupe",
                    f"Le groupe « {side} » agit (initiative {value}) : ses membres décident "
                    f"ensemble puis exécutent dans l’ordre {', '.join(standing)} "
                    "(D12-INIT-4).",
                    actor=actor, rules=("D12-INIT-2", "D12-INIT-4"),
                    data={"side": side, "value": value, "order": standing},
                )
        return True

    # -- actions -------------------------------------------------------------------------

    def _group_acting(self, ctx: Ctx, actor: str) -> bool:
        current = ctx.state.current
        f = ctx.state.fighters.get(current or "")
        return f is not None and f.side == ctx.fighter(actor).side

    def actions(self, ctx: Ctx, actor: str) -> Sequence[ActionSpec]:
        f = ctx.state.fighters.get(actor)
        if f is None or not f.standing or not ctx.state.started or ctx.state.finished:
            return ()
        actions: tuple[ActionSpec, ...] = ctx.rules.actions
        if ctx.state.current == actor:
            return actions
        if self._group_acting(ctx, actor):
            return tuple(a for a in actions if a.cost == FREE_COST)
        return ()

    def act(self, ctx: Ctx, actor: str, action: str, params: Mapping[str, Any]) -> None:
        specs = {a.id: a for a in ctx.rules.actions}
        spec = specs.get(action)
        if spec is None:
            raise IllegalActionError(
                f"action = {action!r} : action inconnue ; actions : {', '.join(specs)} "
                "(D12-ACT-1)",
                field="action", value=action, rule="D12-ACT-1",
            )
        fighter = ctx.fighter(actor)
        if not fighter.standing:
            raise IllegalActionError(
                f"acteur = {actor!r} : ce combattant est hors de combat et ne peut plus agir "
                "(D12-ACT-1)",
                field="acteur", value=actor, rule="D12-ACT-1",
            )
        unknown = sorted(set(params) - set(spec.params))
        if unknown:
            raise EscarmoucheError(
                f"paramètre = {unknown[0]!r} : inconnu pour « {spec.label} » ; paramètres : "
                f"{', '.join(spec.params) or 'aucun'} (D12-ACT-1)",
                field="paramètre", value=unknown[0], rule="D12-ACT-1",
            )
        if spec.cost == FREE_COST:
            if ctx.state.current != actor and not self._group_acting(ctx, actor):
                raise IllegalActionError(
                    f"acteur = {actor!r} : « {spec.label} » est une action libre, possible "
                    "pendant que son groupe agit, pas maintenant (D12-ACT-1, D12-INIT-4)",
                    field="acteur", value=actor, rule="D12-ACT-1",
                )
        elif ctx.state.current != actor:
            raise IllegalActionError(
                f"acteur = {actor!r} : ce n’est pas son tour (c’est celui de "
                f"{ctx.state.current}) (D12-ACT-1, D12-INIT-4)",
                field="acteur", value=actor, rule="D12-ACT-1",
            )
        resolver = _RESOLVERS.get(action, _act_declared)
        resolver(ctx, actor, spec, params)

    def auto_action(self, ctx: Ctx, actor: str) -> tuple[str, dict[str, Any]] | None:
        """Attack a standing enemy: preferably one that an advantage effect targets,
        else the one with the fewest PV; the critical option is the best one against
        its defence (:func:`best_critical_option`)."""
        if actor not in ctx.state.fighters:
            return None
        enemies = ctx.enemies(actor)
        if not enemies:
            return None
        marked = {e.bearer for e in ctx.state.effects if e.kind == ADVANTAGE_EFFECT_KIND}
        target = min(enemies, key=lambda f: (f.name not in marked, f.tracks.get("PV", 0)))
        weapon = ctx.state.system_state.get("weapons", {}).get(actor, ctx.rules.default_weapon)
        attacker = ctx.fighter(actor).combatant
        option = best_critical_option(
            weapon, defence=target.combatant.stat("defense"), bonus=attacker.stat("attaque", 0)
        )
        return "attaquer", {"cible": target.name, "option": option}

    def on_end(self, ctx: Ctx) -> None:
        """Give the fight's conventional duration (D12-TIME-1): the turns begun, bonus
        turn included."""
        turns = sum(1 for e in ctx.state.log if e.kind == "debut_tour")
        lo, hi = elapsed_seconds(turns)
        minutes = elapsed_minutes(turns)
        ctx.emit(
            "duree",
            f"Durée : {turns} tour(s) de combat, soit de {lo} à {hi} secondes, ou "
            f"{_fmt_fraction(minutes)} minute(s) par convention (10 tours = 1 minute) "
            "(D12-TIME-1).",
            rules=("D12-TIME-1",),
            data={"turns": turns, "seconds": [lo, hi],
                  "minutes": [minutes.numerator, minutes.denominator]},
        )


def _fmt_fraction(x: Fraction) -> str:
    if x.denominator == 1:
        return str(x.numerator)
    return f"{float(x):.1f}".replace(".", ",") if (x * 10).denominator == 1 else str(x)


def _bool_param(params: Mapping[str, Any], key: str) -> bool:
    value = params.get(key, False)
    if not isinstance(value, bool):
        raise EscarmoucheError(
            f"{key} = {value!r} : vrai ou faux est attendu (D12-ADV-1)",
            field=key, value=value, rule="D12-ADV-1",
        )
    return value


def _act_attack(ctx: Ctx, actor: str, spec: ActionSpec, params: Mapping[str, Any]) -> None:
    """« Attaquer » (D12-CRIT-1, -2, D12-ADV-1, D12-EXPLODE-1).

    Draw order: the attack d12 (two under advantage or disadvantage), then on a hit the
    damage dice (:func:`resolve_attack`). Advantage effects of option (c) on the target
    are consumed by this attack, whatever its result (D12-CRIT-2 (c)).
    """
    if "cible" not in params:
        raise EscarmoucheError(
            "cible = None : « Attaquer » demande une cible (D12-CRIT-1)",
            field="cible", value=None, rule="D12-CRIT-1",
        )
    target_name = params["cible"]
    if not isinstance(target_name, str):
        raise EscarmoucheError(
            f"cible = {target_name!r} : le nom d’un combattant est attendu (D12-CRIT-1)",
            field="cible", value=target_name, rule="D12-CRIT-1",
        )
    target = ctx.fighter(target_name, rule="D12-CRIT-1")
    if target_name == actor:
        raise IllegalActionError(
            f"cible = {target_name!r} : un combattant ne s’attaque pas lui-même (D12-CRIT-1)",
            field="cible", value=target_name, rule="D12-CRIT-1",
        )
    if not target.standing:
        raise IllegalActionError(
            f"cible = {target_name!r} : déjà hors de combat (D12-CRIT-1)",
            field="cible", value=target_name, rule="D12-CRIT-1",
        )
    weapons = ctx.state.system_state.get("weapons", {})
    weapon = _check_weapon(params.get("arme") or weapons.get(actor, ctx.rules.default_weapon),
                           actor)
    option = _check_option(params.get("option", ctx.rules.critical_option))
    advantages = int(_bool_param(params, "avantage"))
    disadvantages = int(_bool_param(params, "desavantage"))
    attacker = ctx.fighter(actor).combatant
    bonus = attacker.stat("attaque", 0)
    defence = target.combatant.stat("defense")

    marks = [e for e in ctx.state.effects
             if e.kind == ADVANTAGE_EFFECT_KIND and e.bearer == target_name]
    for e in marks:
        ctx.remove_effect(e.id, why=f"consommé par l’attaque de {actor}", rules=("D12-CRIT-2",))
    if marks:
        advantages += 1
    mode = net_mode(advantages, disadvantages)

    att = roll_attack(ctx.rng, bonus=bonus, defence=defence, mode=mode)
    sources = []
    if marks:
        sources.append("avantage du critique précédent")
    if advantages - bool(marks):
        sources.append("avantage")
    if disadvantages:
        sources.append("désavantage")
    why = f" [{', '.join(sources)} → {MODE_LABELS[mode]}]" if sources else ""
    ctx.emit(
        "attaque",
        f"{actor} attaque {target_name} ({attack_expression(mode)}{why}) : {att.explain()}.",
        actor=actor, rules=att.rules, purpose="attaque",
        data={"target": target_name, "weapon": weapon, "attack": att.to_json(),
              "advantages": advantages, "disadvantages": disadvantages,
              "consumed": [e.id for e in marks]},
    )
    if not att.hit:
        return
    chosen = option if att.critical else None
    dmg = roll_damage(weapon, ctx.rng, option=chosen)
    label = (f"dégâts critiques, option « {CRITICAL_OPTIONS[chosen].label} »"
             if chosen else "dégâts")
    left = target.tracks["PV"] - dmg.damage
    ctx.emit(
        "degats",
        f"{actor} : {label} : {dmg.detail} → {target_name} perd {dmg.damage} PV "
        f"(reste {max(left, 0)}).",
        actor=actor, rules=dmg.rules or ("D12-CRIT-1",), purpose="dégâts",
        data={"target": target_name, "damage": dmg.to_json()},
    )
    ctx.change_track(target_name, "PV", -dmg.damage, rules=dmg.rules or ("D12-CRIT-1",))
    if chosen == "avantage":
        if ctx.fighter(target_name).standing:
            ctx.add_effect(Effect(
                "", f"Avantage contre {target_name}", Timing.UNTIL_NEXT_TURN_OF,
                bearer=target_name, until_turn_of=target_name, kind=ADVANTAGE_EFFECT_KIND,
                source=actor,
            ))
        else:
            ctx.emit(
                "avantage_sans_objet",
                f"{target_name} est hors de combat : l’avantage de l’option (c) est sans "
                "objet (D12-CRIT-2).",
                actor=actor, rules=("D12-CRIT-2",),
            )


def _text_param(params: Mapping[str, Any], key: str) -> str:
    value = params.get(key, "")
    if not isinstance(value, str) or len(value) > 500:
        raise EscarmoucheError(
            f"{key} = {value!r} : un texte d’au plus 500 caractères est attendu (D12-ACT-1)",
            field=key, value=value, rule="D12-ACT-1",
        )
    return value.strip()


def _act_move(ctx: Ctx, actor: str, spec: ActionSpec, params: Mapping[str, Any]) -> None:
    """« Se déplacer » (D12-ACT-1): logged; the text gives no distance or cost."""
    where = _text_param(params, "description")
    ctx.emit("deplacement", f"{actor} se déplace" + (f" : {where}." if where else "."),
             actor=actor, rules=("D12-ACT-1",), data={"description": where})


def _act_communicate(ctx: Ctx, actor: str, spec: ActionSpec, params: Mapping[str, Any]
                     ) -> None:
    """« Communiquer », free (D12-ACT-1, D12-INIT-4): allies share their intentions."""
    message = _text_param(params, "message")
    text = f"{actor} communique avec son groupe (action libre)"
    ctx.emit("communication", text + (f" : « {message} »." if message else "."),
             actor=actor, rules=("D12-ACT-1", "D12-INIT-4"), data={"message": message})


def _act_declared(ctx: Ctx, actor: str, spec: ActionSpec, params: Mapping[str, Any]) -> None:
    """An action a designer added to the list (D12-ACT-1): logged as declared, with its
    parameters; its effects are the GM's call."""
    shown = {k: v for k, v in params.items() if isinstance(v, str | int | float | bool)}
    detail = ", ".join(f"{k} = {v}" for k, v in shown.items())
    ctx.emit("action", f"{actor} : « {spec.label} »" + (f" ({detail})." if detail else "."),
             actor=actor, rules=spec.rules or ("D12-ACT-1",),
             data={"action": spec.id, "params": shown})


#: how each action of the list is resolved (others: :func:`_act_declared`)
_RESOLVERS = {
    "attaquer": _act_attack,
    "se_deplacer": _act_move,
    "communiquer": _act_communicate,
}

SYSTEM = D12System()
