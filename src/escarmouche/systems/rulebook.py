"""System « Rulebook » (seed 000): D100 on HAB, turn 0, surprise, speed effects (RB-*).

The rules are those of RULES.md, section ``rulebook``; every public function cites the
rule IDs it implements. **Dice in, decisions out**: each rule is a pure function of dice
already rolled (:func:`d100_test`, :func:`initiative_from_rolls`,
:func:`surprise_from_rolls`, :func:`apply_speed`, :func:`hypoactivity_check`) with a thin
wrapper that draws every die with ``rng.randint(1, faces)`` in a documented order
(:func:`initiative`, :func:`surprise_test`, :func:`surprise`).

Draw orders
-----------
* :func:`initiative`: one d100 per combatant (HAB test, RB-INIT-1) in the given order;
  then the roll-offs (RB-INIT-2): in each round, one d100 for every combatant still tied,
  whatever its tie group, in the given order; rounds repeat until every tie is broken
  (at most :data:`MAX_ROLLOFF_ROUNDS` rounds, then :class:`RuleBoundError`).
* :func:`surprise` / :func:`surprise_test`: the attackers' d100, then the defenders'
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
* The surprise group value (``surprise_aggregate``): ``"weakest"`` = the attackers'
  lowest DIS against the defenders' highest PMR; ``"leader"`` = the first listed member
  of each group (roster order in an encounter); ``"mean"`` = each group's mean, rounded
  down.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from escarmouche._rng import Rng
from escarmouche.errors import EscarmoucheError, IllegalActionError, RuleBoundError
from escarmouche.model import Combatant, DieRecord, Effect, Json, Timing, check_roster
from escarmouche.render import fmt
from escarmouche.systems.base import ActionSpec, System

if TYPE_CHECKING:
    from escarmouche.encounter import Ctx, Encounter, FighterState

__all__ = [
    "ACTIONS",
    "AUTO_DAMAGE",
    "COST_LABELS",
    "CRITICAL_LABELS",
    "DEFAULT_RULES",
    "ECLAT",
    "ECLAT_MAX",
    "HYPERACTIVE_SLOTS",
    "KNOWN_TRAITS",
    "MAX_ROLLOFF_ROUNDS",
    "REQUIRED_STATS",
    "SPEED_EFFECTS",
    "SPEED_KIND",
    "SPEED_PAIRS",
    "SURPRISE_AGGREGATES",
    "SYSTEM",
    "TRACKS",
    "ActionDef",
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
    "hypoactivity_check",
    "initiative",
    "initiative_from_rolls",
    "resolve_speed",
    "roll_d100_test",
    "speed_effect",
    "speed_profiles",
    "surprise",
    "surprise_chance",
    "surprise_from_rolls",
    "surprise_odds",
    "surprise_test",
]

# ---------------------------------------------------------------------------------------
# Data tables (rules as data)
# ---------------------------------------------------------------------------------------

#: bound on the initiative roll-off rounds (RB-INIT-2 « repeated until broken »); two
#: combatants tie a d100 roll-off with probability 1/100, so 100 rounds never happen
#: with real dice — reaching it raises :class:`RuleBoundError`.
MAX_ROLLOFF_ROUNDS = 100

#: the damage dice of :meth:`RulebookSystem.auto_action` (automated fights only; the
#: text gives no damage rule: in play the GM gives the amount, RB-END-2)
AUTO_DAMAGE = "1d6"

#: the damage tracks (RB-END-2): 0 on either one puts a character out of the fight
TRACKS: tuple[str, ...] = ("PV", "Esprit")

#: the resource « éclat » (RB-END-3): stat ``eclat`` (current value when the fight
#: starts) and optional ``eclat_max`` (what the end of the fight restores)
ECLAT = "eclat"
ECLAT_MAX = "eclat_max"

#: the stats a rulebook combatant needs, with their French names
REQUIRED_STATS: dict[str, tuple[str, str]] = {
    "HAB": ("habileté", "RB-INIT-1"),
    "DIS": ("discrétion", "RB-SURPRISE-1"),
    "PMR": ("perception", "RB-SURPRISE-1"),
    "PV": ("points de vie", "RB-END-2"),
    "Esprit": ("esprit", "RB-END-2"),
}


@dataclass(frozen=True, slots=True)
class SpeedEffectDef:
    """One speed effect of RB-SPEED-1: trait id, French label, opposite, description."""

    id: str
    label: str
    opposite: str
    description: str


#: the six speed effects (RB-SPEED-1) and their opposites (RB-SPEED-2), by trait id
SPEED_EFFECTS: dict[str, SpeedEffectDef] = {
    "hyperactivite": SpeedEffectDef(
        "hyperactivite", "Hyperactivité", "hypoactivite", "agit deux fois par tour"),
    "hypoactivite": SpeedEffectDef(
        "hypoactivite", "Hypoactivité", "hyperactivite",
        "lance 1d4 à chaque activation ; sur un 4, ne peut pas agir"),
    "toujours_premier": SpeedEffectDef(
        "toujours_premier", "Toujours premier", "toujours_dernier", "agit en premier"),
    "toujours_dernier": SpeedEffectDef(
        "toujours_dernier", "Toujours dernier", "toujours_premier", "agit en dernier"),
    "depassement": SpeedEffectDef(
        "depassement", "Dépassement", "depasse", "agit avant le personnage juste avant"),
    "depasse": SpeedEffectDef(
        "depasse", "Dépassé", "depassement", "agit après le personnage juste après"),
}

#: the opposite pairs, cancelled pair by pair (RB-SPEED-2)
SPEED_PAIRS: tuple[tuple[str, str], ...] = (
    ("hyperactivite", "hypoactivite"),
    ("toujours_premier", "toujours_dernier"),
    ("depassement", "depasse"),
)

#: the traits this system knows (API.md); ``Rules.extra_traits`` adds a designer's own
KNOWN_TRAITS: dict[str, str] = {
    **{k: v.label for k, v in SPEED_EFFECTS.items()},
    "anti_surprise": "capacité contre les attaques surprises",
}

#: ``Rules.surprise_aggregate`` values (RB-SURPRISE-2)
SURPRISE_AGGREGATES: dict[str, str] = {
    "weakest": "la DIS la plus basse des attaquants contre la PMR la plus haute des "
               "défenseurs",
    "leader": "la valeur du meneur de chaque groupe (le premier nommé)",
    "mean": "la moyenne de chaque groupe, arrondie à l’inférieur",
}

#: ``Rules.hyperactive_slot`` values (RB-SPEED-3)
HYPERACTIVE_SLOTS: dict[str, str] = {
    "consecutive": "la seconde activation suit immédiatement la première",
    "end_of_turn": "la seconde activation a lieu à la fin du tour, après toutes les autres",
}

Critical = Literal["success", "failure"]

CRITICAL_LABELS: dict[str, str] = {"success": "réussite critique", "failure": "échec critique"}


@dataclass(frozen=True, slots=True)
class ActionDef:
    """An entry of the action catalogue (RB-ACT-1/2, RB-MOVE-1, RB-END-2/3).

    ``cost`` is the resource of the activation it uses: ``"action"`` (one per
    activation), ``"deplacement"`` (one per global turn, RB-MOVE-1), ``"posture"`` (one
    per activation) or ``"libre"``. ``out_of_turn``: may be used outside the actor's own
    activation. ``params``: accepted parameters; ``required``: the mandatory ones.
    """

    id: str
    label: str
    cost: str
    rules: tuple[str, ...]
    params: tuple[str, ...] = ()
    required: tuple[str, ...] = ()
    out_of_turn: bool = False


_OFFENSIVE_PARAMS = ("cible", "piste", "degats", "des", "vitesse", "duree",
                     "avec_deplacement", "nom")

#: the action catalogue (a designer can read and extend the data)
ACTIONS: dict[str, ActionDef] = {
    "attaque": ActionDef(
        "attaque", "Attaquer (PV ou Esprit)", "action", ("RB-ACT-1", "RB-END-2"),
        _OFFENSIVE_PARAMS, ("cible",)),
    "sort": ActionDef(
        "sort", "Lancer un sort", "action", ("RB-ACT-2",), _OFFENSIVE_PARAMS),
    "capacite": ActionDef(
        "capacite", "Utiliser une capacité non passive", "action", ("RB-ACT-2",),
        _OFFENSIVE_PARAMS),
    "equipement": ActionDef(
        "equipement", "Prendre ou changer un équipement du sac", "action", ("RB-ACT-2",),
        ("objet",)),
    "deplacement": ActionDef(
        "deplacement", "Se déplacer", "deplacement", ("RB-ACT-1", "RB-MOVE-1"),
        ("description",), out_of_turn=True),
    "posture": ActionDef(
        "posture", "Changer de posture", "posture", ("RB-ACT-1",), ("posture",),
        ("posture",)),
    "action_libre": ActionDef(
        "action_libre", "Action courte avec un objet en main", "libre", ("RB-ACT-1",),
        ("description",)),
    "depenser_eclat": ActionDef(
        "depenser_eclat", "Dépenser de l’éclat", "libre", ("RB-END-3",), ("montant",),
        out_of_turn=True),
}

COST_LABELS: dict[str, str] = {
    "action": "action",
    "deplacement": "déplacement",
    "posture": "changement de posture",
    "libre": "libre",
}

# ---------------------------------------------------------------------------------------
# Formatting and validation helpers
# ---------------------------------------------------------------------------------------


def _num(n: int) -> str:
    """A French integer (``render.fmt.number``): « −3 », « 10 000 »."""
    return fmt.number(n)


def _names(names: Iterable[str]) -> str:
    items = list(names)
    if not items:
        return "personne"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " et " + items[-1]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _need_int(field_name: str, value: object, rule: str, why: str) -> int:
    if not _is_int(value):
        raise EscarmoucheError(
            f"{field_name} = {value!r} : {why} ({rule})",
            field=field_name, value=value, rule=rule,
        )
    assert isinstance(value, int)
    return value


def _stat(c: Combatant, key: str, rule: str, *, low: int = 0, high: int = 100) -> int:
    """The stat ``key`` of ``c``, which must exist and lie in ``low``–``high``."""
    label = REQUIRED_STATS.get(key, (key, rule))[0]
    if key not in c.stats:
        raise EscarmoucheError(
            f"{key} manquant pour « {c.name} » : la {label} est requise ({rule})",
            field=key, value=None, rule=rule,
        )
    value = c.stats[key]
    if not low <= value <= high:
        raise EscarmoucheError(
            f"{key} = {_num(value)} pour « {c.name} » : une valeur entre {_num(low)} et "
            f"{_num(high)} est attendue ({rule})",
            field=key, value=value, rule=rule,
        )
    return value


def _check_traits(c: Combatant, rules: Rules) -> None:
    for t in sorted(c.traits):
        if t not in KNOWN_TRAITS and t not in rules.extra_traits:
            raise EscarmoucheError(
                f"trait = {t!r} pour « {c.name} » : trait inconnu du système Rulebook ; "
                f"traits connus : {', '.join(sorted(KNOWN_TRAITS))} (RB-SPEED-1)",
                field="trait", value=t, rule="RB-SPEED-1",
            )


def _check_roster(combatants: Iterable[Combatant], rule: str) -> list[Combatant]:
    return check_roster(combatants, rule=rule)


def _roll_value(value: object, faces: int, what: str, rule: str) -> int:
    """A die result typed by hand: an integer in 1–faces."""
    if not _is_int(value) or not 1 <= value <= faces:  # type: ignore[operator]
        raise EscarmoucheError(
            f"{what} = {value!r} : un résultat de d{faces} entre 1 et {faces} est attendu "
            f"({rule})",
            field=what, value=value, rule=rule,
        )
    assert isinstance(value, int)
    return value


# ---------------------------------------------------------------------------------------
# Options
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rules:
    """The options of the Rulebook system (RULES.md rulings marked *(option)*).

    ``crit_success_max`` (default 5) and ``crit_failure_min`` (default 96): the critical
    thresholds of the D100 test (RB-D100-1), standing in for the missing D100 base page;
    0 disables critical successes, 101 disables critical failures.
    ``surprise_aggregate`` (default ``"weakest"``; or ``"leader"``, ``"mean"``): the
    group value of the opposed DIS vs PMR test (RB-SURPRISE-2, see
    :data:`SURPRISE_AGGREGATES`).
    ``hyperactive_slot`` (default ``"consecutive"``; or ``"end_of_turn"``): where the
    second Hyperactivité activation goes (RB-SPEED-3).
    ``extra_traits``: a designer's own trait identifiers, accepted without effect
    (any other unknown trait is an error).
    """

    crit_success_max: int = 5
    crit_failure_min: int = 96
    surprise_aggregate: str = "weakest"
    hyperactive_slot: str = "consecutive"
    extra_traits: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        lo = _need_int("crit_success_max", self.crit_success_max, "RB-D100-1",
                       "un nombre entier entre 0 et 100 est attendu")
        hi = _need_int("crit_failure_min", self.crit_failure_min, "RB-D100-1",
                       "un nombre entier entre 1 et 101 est attendu")
        if not 0 <= lo <= 100:
            raise EscarmoucheError(
                f"crit_success_max = {_num(lo)} : une valeur entre 0 et 100 est attendue "
                "(RB-D100-1)", field="crit_success_max", value=lo, rule="RB-D100-1")
        if not 1 <= hi <= 101:
            raise EscarmoucheError(
                f"crit_failure_min = {_num(hi)} : une valeur entre 1 et 101 est attendue "
                "(RB-D100-1)", field="crit_failure_min", value=hi, rule="RB-D100-1")
        if lo >= hi:
            raise EscarmoucheError(
                f"crit_failure_min = {_num(hi)} : doit dépasser crit_success_max "
                f"({_num(lo)}), un jet ne peut être à la fois réussite et échec critiques "
                "(RB-D100-1)", field="crit_failure_min", value=hi, rule="RB-D100-1")
        if self.surprise_aggregate not in SURPRISE_AGGREGATES:
            raise EscarmoucheError(
                f"surprise_aggregate = {self.surprise_aggregate!r} : valeurs possibles : "
                f"{', '.join(SURPRISE_AGGREGATES)} (RB-SURPRISE-2)",
                field="surprise_aggregate", value=self.surprise_aggregate,
                rule="RB-SURPRISE-2")
        if self.hyperactive_slot not in HYPERACTIVE_SLOTS:
            raise EscarmoucheError(
                f"hyperactive_slot = {self.hyperactive_slot!r} : valeurs possibles : "
                f"{', '.join(HYPERACTIVE_SLOTS)} (RB-SPEED-3)",
                field="hyperactive_slot", value=self.hyperactive_slot, rule="RB-SPEED-3")
        extra = self.extra_traits
        if isinstance(extra, str) or not all(isinstance(t, str) for t in extra):
            raise EscarmoucheError(
                f"extra_traits = {extra!r} : un ensemble d’identifiants est attendu "
                "(RB-SPEED-1)", field="extra_traits", value=extra, rule="RB-SPEED-1")
        object.__setattr__(self, "extra_traits", frozenset(extra))


#: the default options (RULES.md defaults)
DEFAULT_RULES = Rules()


# ---------------------------------------------------------------------------------------
# RB-D100-1: the D100 test
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TestResult:
    """A D100 test (RB-D100-1): the stat, the die, success, margin, critical."""

    __test__: ClassVar[bool] = False  # not a pytest test class

    stat: int
    roll: int
    success: bool
    margin: int
    critical: Critical | None
    rules: tuple[str, ...] = ("RB-D100-1",)

    @property
    def label(self) -> str:
        """« réussite », « échec », « réussite critique » or « échec critique »."""
        if self.critical is not None:
            return CRITICAL_LABELS[self.critical]
        return "réussite" if self.success else "échec"

    def describe(self) -> str:
        """French: « 23 contre 60 : réussite, marge 37 »."""
        return f"{_num(self.roll)} contre {_num(self.stat)} : {self.label}, marge " \
               f"{_num(self.margin)}"

    def to_json(self) -> dict[str, Json]:
        return {"stat": self.stat, "roll": self.roll, "success": self.success,
                "margin": self.margin, "critical": self.critical}

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> TestResult:
        return cls(int(data["stat"]), int(data["roll"]), bool(data["success"]),
                   int(data["margin"]), data["critical"])


def d100_test(stat: int, roll: int, rules: Rules = DEFAULT_RULES) -> TestResult:
    """Resolve a D100 test (RB-D100-1) from the die already rolled.

    Success if ``roll ≤ stat``; margin = ``stat − roll``; a roll ≤
    ``rules.crit_success_max`` is a critical success (always a success), a roll ≥
    ``rules.crit_failure_min`` a critical failure (always a failure), whatever the stat.

    >>> d100_test(60, 23)
    TestResult(stat=60, roll=23, success=True, margin=37, critical=None, rules=('RB-D100-1',))
    >>> d100_test(0, 3).success, d100_test(100, 98).success
    (True, False)
    """
    stat = _need_int("stat", stat, "RB-D100-1", "un nombre entier est attendu")
    roll = _roll_value(roll, 100, "jet", "RB-D100-1")
    critical: Critical | None = None
    if roll <= rules.crit_success_max:
        critical = "success"
    elif roll >= rules.crit_failure_min:
        critical = "failure"
    success = critical == "success" or (critical is None and roll <= stat)
    return TestResult(stat, roll, success, stat - roll, critical)


def roll_d100_test(stat: int, rng: Rng, rules: Rules = DEFAULT_RULES) -> TestResult:
    """Roll one d100 (``rng.randint(1, 100)``) and resolve the test (RB-D100-1)."""
    stat = _need_int("stat", stat, "RB-D100-1", "un nombre entier est attendu")
    return d100_test(stat, rng.randint(1, 100), rules)


@dataclass(frozen=True, slots=True)
class D100Odds:
    """Exact odds of a D100 test (RB-D100-1); the four outcomes sum to 1."""

    critical_success: Fraction
    success: Fraction  # every success, critical ones included
    failure: Fraction  # every failure, critical ones included
    critical_failure: Fraction


def d100_odds(stat: int, rules: Rules = DEFAULT_RULES) -> D100Odds:
    """The exact probabilities of a D100 test on ``stat`` (RB-D100-1)."""
    stat = _need_int("stat", stat, "RB-D100-1", "un nombre entier est attendu")
    cs = min(rules.crit_success_max, 100)
    cf = max(0, 101 - rules.crit_failure_min)
    # plain successes: rolls in (crit_success_max, crit_failure_min) with roll ≤ stat
    plain = max(0, min(stat, rules.crit_failure_min - 1) - cs)
    success = Fraction(cs + plain, 100)
    return D100Odds(Fraction(cs, 100), success, 1 - success, Fraction(cf, 100))


# ---------------------------------------------------------------------------------------
# RB-SPEED-1..3: speed effects
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SpeedSource:
    """Where a character's speed effect comes from: a trait or an effect of the fight."""

    effect: str  # a key of SPEED_EFFECTS
    origin: str  # "trait" or the id of the Effect
    label: str = ""  # French, e.g. « trait » or « effet « Ralenti » (e3) »

    def to_json(self) -> list[Json]:
        return [self.effect, self.origin, self.label]

    @classmethod
    def from_json(cls, data: Sequence[Json]) -> SpeedSource:
        return cls(str(data[0]), str(data[1]), str(data[2]))


@dataclass(frozen=True, slots=True)
class SpeedProfile:
    """A character's speed effects after RB-SPEED-2: what remains, what cancelled."""

    name: str
    sources: tuple[SpeedSource, ...]
    active: frozenset[str]
    #: (effect, opposite, number of pairs cancelled)
    cancelled: tuple[tuple[str, str, int], ...] = ()

    def to_json(self) -> dict[str, Json]:
        return {"name": self.name, "sources": [s.to_json() for s in self.sources],
                "active": sorted(self.active),
                "cancelled": [list(c) for c in self.cancelled]}

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> SpeedProfile:
        return cls(str(data["name"]), tuple(SpeedSource.from_json(s) for s in data["sources"]),
                   frozenset(data["active"]),
                   tuple((str(a), str(b), int(n)) for a, b, n in data["cancelled"]))


def resolve_speed(name: str, sources: Iterable[SpeedSource]) -> SpeedProfile:
    """Cancel opposite speed effects pair by pair (RB-SPEED-2).

    Each source counts once; for each opposite pair, ``min`` of the two counts cancel
    and the effect with more copies remains (copies of one effect do not stack).
    """
    srcs = tuple(sources)
    for s in srcs:
        if s.effect not in SPEED_EFFECTS:
            raise EscarmoucheError(
                f"effet de vitesse = {s.effect!r} pour « {name} » : inconnu ; effets : "
                f"{', '.join(SPEED_EFFECTS)} (RB-SPEED-1)",
                field="vitesse", value=s.effect, rule="RB-SPEED-1",
            )
    counts = {k: sum(1 for s in srcs if s.effect == k) for k in SPEED_EFFECTS}
    active: set[str] = set()
    cancelled: list[tuple[str, str, int]] = []
    for a, b in SPEED_PAIRS:
        pairs = min(counts[a], counts[b])
        if pairs:
            cancelled.append((a, b, pairs))
        if counts[a] > counts[b]:
            active.add(a)
        elif counts[b] > counts[a]:
            active.add(b)
    return SpeedProfile(name, srcs, frozenset(active), tuple(cancelled))


def speed_profiles(combatants: Iterable[Combatant]) -> dict[str, SpeedProfile]:
    """The speed profiles given by the combatants' traits alone (RB-SPEED-1/2)."""
    out: dict[str, SpeedProfile] = {}
    for c in combatants:
        srcs = [SpeedSource(t, "trait", "trait") for t in SPEED_EFFECTS if t in c.traits]
        if srcs:
            out[c.name] = resolve_speed(c.name, srcs)
    return out


@dataclass(frozen=True, slots=True)
class SpeedStep:
    """One step of RB-SPEED-2/3, explained: who, which effect, whom it passed, why."""

    rule: str
    effect: str
    name: str
    other: str | None
    applied: bool
    text: str

    def to_json(self) -> dict[str, Json]:
        return {"rule": self.rule, "effect": self.effect, "name": self.name,
                "other": self.other, "applied": self.applied, "text": self.text}

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> SpeedStep:
        return cls(str(data["rule"]), str(data["effect"]), str(data["name"]), data["other"],
                   bool(data["applied"]), str(data["text"]))


@dataclass(frozen=True, slots=True)
class SpeedOrder:
    """The initiative order after the speed effects (RB-SPEED-3), with its audit trail.

    ``base``: the order before; ``after_first_last``: after Toujours premier / dernier;
    ``order``: after Dépassement / Dépassé (one entry per character);
    ``hyperactive`` / ``hypoactive``: who has these effects after cancelling.
    """

    base: tuple[str, ...]
    after_first_last: tuple[str, ...]
    order: tuple[str, ...]
    hyperactive: frozenset[str]
    hypoactive: frozenset[str]
    hyperactive_slot: str
    steps: tuple[SpeedStep, ...]
    profiles: tuple[SpeedProfile, ...]

    def slots(self, include: AbstractSet[str] | None = None, *,
              exclude: AbstractSet[str] = frozenset(), twice: bool = True) -> list[str]:
        """The activation slots: ``order`` restricted to ``include`` (everyone when
        ``None``) minus ``exclude``, with a second slot for each Hyperactivité when
        ``twice`` (RB-SPEED-3, ``hyperactive_slot``)."""
        first = [n for n in self.order
                 if (include is None or n in include) and n not in exclude]
        if not twice:
            return first
        if self.hyperactive_slot == "consecutive":
            out: list[str] = []
            for n in first:
                out.append(n)
                if n in self.hyperactive:
                    out.append(n)
            return out
        return first + [n for n in first if n in self.hyperactive]

    def explain(self) -> list[str]:
        """French lines: every cancellation and every move, with its rule ID."""
        return [f"{s.text} ({s.rule})" for s in self.steps]

    def to_json(self) -> dict[str, Json]:
        return {
            "base": list(self.base), "after_first_last": list(self.after_first_last),
            "order": list(self.order), "hyperactive": sorted(self.hyperactive),
            "hypoactive": sorted(self.hypoactive), "hyperactive_slot": self.hyperactive_slot,
            "steps": [s.to_json() for s in self.steps],
            "profiles": [p.to_json() for p in self.profiles],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> SpeedOrder:
        return cls(
            tuple(data["base"]), tuple(data["after_first_last"]), tuple(data["order"]),
            frozenset(data["hyperactive"]), frozenset(data["hypoactive"]),
            str(data["hyperactive_slot"]),
            tuple(SpeedStep.from_json(s) for s in data["steps"]),
            tuple(SpeedProfile.from_json(p) for p in data["profiles"]),
        )


def _label(effect: str) -> str:
    return SPEED_EFFECTS[effect].label


def apply_speed(
    order: Sequence[str],
    profiles: Mapping[str, SpeedProfile] | Mapping[str, AbstractSet[str]],
    rules: Rules = DEFAULT_RULES,
) -> SpeedOrder:
    """Apply the speed effects to an initiative order (RB-SPEED-2, RB-SPEED-3).

    ``profiles`` maps a name to its :class:`SpeedProfile` (or directly to its set of
    active effects, already cancelled). In this order:

    1. Toujours premier characters go to the top, Toujours dernier to the bottom; several
       of them keep their relative order.
    2. Dépassement / Dépassé, one character at a time from the top: a Dépassement swaps
       with the character just before, a Dépassé with the character just after; a swap
       happens only if neither of the two has moved yet in this step (each moves at most
       one place); the first cannot overtake, the last cannot be overtaken.
    3. Hyperactivité: a second activation (see :meth:`SpeedOrder.slots`,
       ``rules.hyperactive_slot``).
    """
    names = list(order)
    if len(set(names)) != len(names):
        raise EscarmoucheError(
            f"ordre = {names!r} : un nom apparaît deux fois (RB-SPEED-3)",
            field="ordre", value=names, rule="RB-SPEED-3",
        )
    profs: dict[str, SpeedProfile] = {}
    for n, given in profiles.items():
        if isinstance(given, SpeedProfile):
            profs[n] = given
        else:
            profs[n] = resolve_speed(n, [SpeedSource(e, "direct", "") for e in sorted(given)])
    steps: list[SpeedStep] = []
    for n in names:
        p = profs.get(n)
        if p is None:
            continue
        for a, b, k in p.cancelled:
            times = "" if k == 1 else f" ({k} paires)"
            steps.append(SpeedStep(
                "RB-SPEED-2", a, n, None, True,
                f"{_label(a)} et {_label(b)} s’annulent pour {n}{times}"))

    def has(n: str, effect: str) -> bool:
        p = profs.get(n)
        return p is not None and effect in p.active

    # 1. Toujours premier / Toujours dernier
    first = [n for n in names if has(n, "toujours_premier")]
    last = [n for n in names if has(n, "toujours_dernier")]
    middle = [n for n in names if n not in first and n not in last]
    staged = first + middle + last
    for n in first:
        steps.append(SpeedStep("RB-SPEED-3", "toujours_premier", n, None, True,
                               f"{n} agit en premier (Toujours premier)"))
    for n in last:
        steps.append(SpeedStep("RB-SPEED-3", "toujours_dernier", n, None, True,
                               f"{n} agit en dernier (Toujours dernier)"))

    # 2. Dépassement / Dépassé, from the top, each character moves at most one place
    current = list(staged)
    moved: set[str] = set()
    for n in staged:
        for effect in ("depassement", "depasse"):
            if not has(n, effect):
                continue
            label = _label(effect)
            pos = current.index(n)
            if n in moved:
                steps.append(SpeedStep("RB-SPEED-3", effect, n, None, False,
                                       f"{n} a déjà changé de place : {label} sans effet"))
                continue
            if effect == "depassement":
                if pos == 0:
                    steps.append(SpeedStep(
                        "RB-SPEED-3", effect, n, None, False,
                        f"{n} est le premier de l’ordre et ne peut dépasser personne "
                        f"({label} sans effet)"))
                    continue
                other = current[pos - 1]
                lo = pos - 1
            else:
                if pos == len(current) - 1:
                    steps.append(SpeedStep(
                        "RB-SPEED-3", effect, n, None, False,
                        f"{n} est le dernier de l’ordre et ne peut pas être dépassé "
                        f"({label} sans effet)"))
                    continue
                other = current[pos + 1]
                lo = pos
            if other in moved:
                steps.append(SpeedStep(
                    "RB-SPEED-3", effect, n, other, False,
                    f"{other} a déjà changé de place : pas d’échange avec {n} "
                    f"({label} sans effet)"))
                continue
            current[lo], current[lo + 1] = current[lo + 1], current[lo]
            moved.update((n, other))
            if effect == "depassement":
                text = f"{n} passe devant {other} (Dépassement)"
            else:
                text = f"{n} passe derrière {other} (Dépassé)"
            steps.append(SpeedStep("RB-SPEED-3", effect, n, other, True, text))

    # 3. Hyperactivité (slots), Hypoactivité (a d4 at each activation)
    hyper = frozenset(n for n in names if has(n, "hyperactivite"))
    hypo = frozenset(n for n in names if has(n, "hypoactivite"))
    where = ("juste après la première" if rules.hyperactive_slot == "consecutive"
             else "à la fin du tour")
    for n in current:
        if n in hyper:
            steps.append(SpeedStep("RB-SPEED-3", "hyperactivite", n, None, True,
                                   f"{n} agit deux fois (Hyperactivité, seconde activation "
                                   f"{where})"))
        if n in hypo:
            steps.append(SpeedStep("RB-SPEED-1", "hypoactivite", n, None, True,
                                   f"{n} lance 1d4 à chaque activation et ne peut pas agir "
                                   "sur un 4 (Hypoactivité)"))
    return SpeedOrder(
        tuple(names), tuple(staged), tuple(current), hyper, hypo, rules.hyperactive_slot,
        tuple(steps), tuple(profs[n] for n in names if n in profs),
    )


@dataclass(frozen=True, slots=True)
class HypoactivityCheck:
    """The 1d4 of Hypoactivité at one activation (RB-SPEED-1): a 4 means no activation."""

    roll: int
    can_act: bool
    rules: tuple[str, ...] = ("RB-SPEED-1",)


def hypoactivity_check(d4: int) -> HypoactivityCheck:
    """Hypoactivité (RB-SPEED-1): on a 4 on the d4, the character cannot act."""
    d4 = _roll_value(d4, 4, "d4", "RB-SPEED-1")
    return HypoactivityCheck(d4, d4 != 4)


# ---------------------------------------------------------------------------------------
# RB-INIT-1..4, RB-SURPRISE-3: initiative and turn 0
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class InitiativeRoll:
    """One combatant's initiative: its HAB test (RB-INIT-1) and its roll-off dice."""

    name: str
    side: str
    hab: int
    test: TestResult
    rolloffs: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Json]:
        return {"name": self.name, "side": self.side, "hab": self.hab,
                "test": self.test.to_json(), "rolloffs": list(self.rolloffs)}

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> InitiativeRoll:
        return cls(str(data["name"]), str(data["side"]), int(data["hab"]),
                   TestResult.from_json(data["test"]), tuple(data["rolloffs"]))


@dataclass(frozen=True, slots=True)
class TieBreak:
    """A group tied on its result (RB-INIT-2) and how it was broken.

    ``names``: the tied combatants (given order); ``habs``: their HAB; ``rounds``: each
    roll-off round as ``(name, d100)`` pairs in draw order (only this group's members);
    ``order``: the resolved order.
    """

    names: tuple[str, ...]
    critical_success: bool
    margin: int
    habs: tuple[tuple[str, int], ...]
    rounds: tuple[tuple[tuple[str, int], ...], ...]
    order: tuple[str, ...]
    text: str
    rules: tuple[str, ...] = ("RB-INIT-2",)

    def to_json(self) -> dict[str, Json]:
        return {"names": list(self.names), "critical_success": self.critical_success,
                "margin": self.margin, "habs": [list(h) for h in self.habs],
                "rounds": [[list(x) for x in r] for r in self.rounds],
                "order": list(self.order), "text": self.text}

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> TieBreak:
        return cls(
            tuple(data["names"]), bool(data["critical_success"]), int(data["margin"]),
            tuple((str(n), int(h)) for n, h in data["habs"]),
            tuple(tuple((str(n), int(v)) for n, v in r) for r in data["rounds"]),
            tuple(data["order"]), str(data["text"]),
        )


@dataclass(frozen=True, slots=True)
class TurnZeroEntry:
    """Who is (or is not) in turn 0, and why (RB-INIT-3, RB-INIT-4, RB-SURPRISE-3)."""

    name: str
    included: bool
    rules: tuple[str, ...]
    text: str

    def to_json(self) -> dict[str, Json]:
        return {"name": self.name, "included": self.included, "rules": list(self.rules),
                "text": self.text}

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> TurnZeroEntry:
        return cls(str(data["name"]), bool(data["included"]), tuple(data["rules"]),
                   str(data["text"]))


@dataclass(frozen=True, slots=True)
class Initiative:
    """The initiative of a fight (RB-INIT-*, RB-SURPRISE-3, RB-SPEED-*), with its audit trail.

    ``rolls``: each combatant's HAB test and roll-off dice, in the given order;
    ``order``: the comparison order of RB-INIT-2; ``ties``: every tie and how it was
    broken; ``speed``: the order after the traits' speed effects (RB-SPEED-3);
    ``turn_zero``: the names in turn 0, in activation order; ``turn_zero_reasons``: why
    each one is in (or was kept out of) turn 0; ``late``: the critical failures, who act
    only from turn 2 (RB-INIT-4).
    """

    rolls: tuple[InitiativeRoll, ...]
    order: tuple[str, ...]
    ties: tuple[TieBreak, ...]
    speed: SpeedOrder
    turn_zero: tuple[str, ...]
    turn_zero_reasons: tuple[TurnZeroEntry, ...]
    late: tuple[str, ...]
    surprise_by: str | None
    rules: tuple[str, ...]

    def roll_of(self, name: str) -> InitiativeRoll:
        for r in self.rolls:
            if r.name == name:
                return r
        raise EscarmoucheError(
            f"combattant = {name!r} : absent de cette initiative (RB-INIT-1)",
            field="combattant", value=name, rule="RB-INIT-1",
        )

    def turn(self, n: int) -> list[str]:
        """The names in activation order for global turn ``n`` (0 = turn 0).

        A name appears twice under Hyperactivité (not in turn 0), and is absent from turns
        0 and 1 after a critical failure (RB-INIT-4). A character under Hypoactivité has
        its slot: its 1d4 is rolled when the slot comes (RB-SPEED-1).
        """
        n = _need_int("tour", n, "RB-TURN-1", "un numéro de tour entier est attendu")
        if n < 0:
            raise EscarmoucheError(
                f"tour = {_num(n)} : les tours sont numérotés à partir de 0 (RB-TURN-1)",
                field="tour", value=n, rule="RB-TURN-1",
            )
        include, exclude = _turn_filter(n, self.turn_zero, self.late)
        return self.speed.slots(include, exclude=exclude, twice=n > 0)

    def explain(self) -> list[str]:
        """French lines a GM can read: each roll, each tie, turn 0, each speed effect."""
        lines = []
        for r in self.rolls:
            lines.append(f"{r.name} : initiative {r.test.describe()} (RB-INIT-1).")
        lines.extend(f"{t.text} (RB-INIT-2)." for t in self.ties)
        lines.append(f"Ordre d’initiative : {', '.join(self.order)} (RB-INIT-2).")
        for z in self.turn_zero_reasons:
            lines.append(f"{z.text} ({', '.join(z.rules)}).")
        lines.extend(f"{line}." for line in self.speed.explain())
        return lines

    def to_json(self) -> dict[str, Json]:
        return {
            "rolls": [r.to_json() for r in self.rolls], "order": list(self.order),
            "ties": [t.to_json() for t in self.ties], "speed": self.speed.to_json(),
            "turn_zero": list(self.turn_zero),
            "turn_zero_reasons": [z.to_json() for z in self.turn_zero_reasons],
            "late": list(self.late), "surprise_by": self.surprise_by,
            "rules": list(self.rules),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> Initiative:
        return cls(
            tuple(InitiativeRoll.from_json(r) for r in data["rolls"]), tuple(data["order"]),
            tuple(TieBreak.from_json(t) for t in data["ties"]),
            SpeedOrder.from_json(data["speed"]), tuple(data["turn_zero"]),
            tuple(TurnZeroEntry.from_json(z) for z in data["turn_zero_reasons"]),
            tuple(data["late"]), data["surprise_by"], tuple(data["rules"]),
        )


def _turn_filter(n: int, turn_zero: Sequence[str], late: Sequence[str]
                 ) -> tuple[frozenset[str] | None, frozenset[str]]:
    """Who may act in global turn ``n``: (only these, or everyone when ``None``; minus
    these). Turn 0: its participants (RB-INIT-3, RB-SURPRISE-3); turn 1: everyone but
    the critical failures (RB-INIT-4); later turns: everyone."""
    if n == 0:
        return frozenset(turn_zero), frozenset()
    if n == 1:
        return None, frozenset(late)
    return None, frozenset()


def _rank(
    rolls: Sequence[InitiativeRoll], draw: Callable[[str, int], int]
) -> tuple[list[str], list[TieBreak], dict[str, list[int]]]:
    """RB-INIT-2: critical successes first, then margin descending; ties by HAB, then by
    d100 roll-offs (``draw(name, round)``), every still-tied combatant in the given order
    each round, until broken."""
    given = [r.name for r in rolls]

    def key(r: InitiativeRoll) -> tuple[int, int]:
        return (0 if r.test.critical == "success" else 1, -r.test.margin)

    by_key = sorted(rolls, key=key)
    groups = [list(g) for _, g in itertools.groupby(by_key, key=key)]
    blocks: list[list[str]] = []
    for g in groups:
        for _, sub in itertools.groupby(sorted(g, key=lambda r: -r.hab), key=lambda r: r.hab):
            blocks.append([r.name for r in sub])
    rounds: list[dict[str, int]] = []
    rolloffs: dict[str, list[int]] = {n: [] for n in given}
    while any(len(b) > 1 for b in blocks):
        if len(rounds) >= MAX_ROLLOFF_ROUNDS:
            tied = [n for b in blocks if len(b) > 1 for n in b]
            raise RuleBoundError(
                f"départage = {MAX_ROLLOFF_ROUNDS} manches : {_names(tied)} sont encore à "
                "égalité ; la limite documentée des départages est atteinte (RB-INIT-2)",
                field="départage", value=MAX_ROLLOFF_ROUNDS, rule="RB-INIT-2",
            )
        tied_now = {n for b in blocks if len(b) > 1 for n in b}
        rnd: dict[str, int] = {}
        for n in given:
            if n in tied_now:
                value = draw(n, len(rounds) + 1)
                rnd[n] = value
                rolloffs[n].append(value)
        rounds.append(rnd)
        new_blocks: list[list[str]] = []
        for b in blocks:
            if len(b) == 1:
                new_blocks.append(b)
                continue
            ranked = sorted(b, key=lambda n: -rnd[n])
            new_blocks.extend(list(s) for _, s in itertools.groupby(ranked, key=rnd.__getitem__))
        blocks = new_blocks
    order = [b[0] for b in blocks]
    pos = {n: i for i, n in enumerate(order)}
    ties: list[TieBreak] = []
    for g in groups:
        if len(g) < 2:
            continue
        members = sorted((r.name for r in g), key=given.index)
        habs = tuple((r.name, r.hab) for r in sorted(g, key=lambda r: given.index(r.name)))
        g_rounds = tuple(
            tuple((n, rnd[n]) for n in rnd if n in members) for rnd in rounds
        )
        g_rounds = tuple(r for r in g_rounds if r)
        resolved = tuple(sorted(members, key=pos.__getitem__))
        crit = g[0].test.critical == "success"
        what = " (réussites critiques)" if crit else ""
        text = (f"Égalité à la marge {_num(g[0].test.margin)}{what} entre "
                f"{_names(members)} : HAB " + ", ".join(f"{n} {_num(h)}" for n, h in habs))
        if g_rounds:
            parts = [
                f"manche {i + 1} : " + ", ".join(f"{n} {_num(v)}" for n, v in r)
                for i, r in enumerate(g_rounds)
            ]
            text += " ; départage au d100 (le plus haut d’abord) : " + " ; ".join(parts)
        text += f" → {', '.join(resolved)}"
        ties.append(TieBreak(tuple(members), crit, g[0].test.margin, habs, g_rounds,
                             resolved, text))
    return order, ties, rolloffs


def _turn_zero(
    rolls: Sequence[InitiativeRoll], combatants: Mapping[str, Combatant],
    surprise_by: str | None,
) -> list[TurnZeroEntry]:
    """Who is in turn 0 and why (RB-INIT-3, RB-INIT-4, RB-SURPRISE-3)."""
    out: list[TurnZeroEntry] = []
    for r in rolls:
        crit = r.test.critical
        c = combatants[r.name]
        if surprise_by is None:
            if crit == "success":
                out.append(TurnZeroEntry(r.name, True, ("RB-INIT-3",),
                                         f"{r.name} joue au tour 0 (réussite critique)"))
            continue
        reasons: list[str] = []
        rules: list[str] = []
        if c.side == surprise_by:
            reasons.append("membre du groupe attaquant")
            rules.append("RB-SURPRISE-3")
        if crit == "success":
            reasons.append("réussite critique")
            rules.append("RB-INIT-3")
        if "anti_surprise" in c.traits and c.side != surprise_by:
            reasons.append("capacité contre les attaques surprises")
            rules.append("RB-SURPRISE-3")
        if not reasons:
            continue
        if crit == "failure":
            out.append(TurnZeroEntry(
                r.name, False, ("RB-SURPRISE-3", "RB-INIT-4"),
                f"{r.name} ne joue pas au tour 0 malgré l’attaque surprise (échec critique)"))
            continue
        out.append(TurnZeroEntry(r.name, True, tuple(dict.fromkeys(rules)),
                                 f"{r.name} joue au tour 0 ({', '.join(reasons)})"))
    return out


def initiative_from_rolls(
    combatants: Iterable[Combatant],
    rolls: Sequence[int],
    rolloffs: Sequence[int] = (),
    *,
    surprise_by: str | None = None,
    rules: Rules = DEFAULT_RULES,
) -> Initiative:
    """The initiative from dice already rolled (RB-INIT-1..4, RB-SURPRISE-3, RB-SPEED-3).

    ``rolls``: one d100 per combatant, in the given order; ``rolloffs``: the roll-off
    d100s in the draw order of :func:`initiative`. Too few or too many roll-off values
    is an error.
    """
    roster = _check_roster(combatants, "RB-INIT-1")
    values = list(rolls)
    if len(values) != len(roster):
        raise EscarmoucheError(
            f"jets = {len(values)} valeurs : un d100 par combattant est attendu, soit "
            f"{len(roster)} (RB-INIT-1)",
            field="jets", value=len(values), rule="RB-INIT-1",
        )
    queue = list(rolloffs)
    used = 0

    def draw(name: str, rnd: int) -> int:
        nonlocal used
        if used >= len(queue):
            raise EscarmoucheError(
                f"départage = {len(queue)} valeur(s) : il manque un d100 (manche {rnd}, pour "
                f"{name}) (RB-INIT-2)",
                field="départage", value=len(queue), rule="RB-INIT-2",
            )
        value = _roll_value(queue[used], 100, "départage", "RB-INIT-2")
        used += 1
        return value

    init = _initiative(roster, values, draw, surprise_by, rules)
    if used != len(queue):
        raise EscarmoucheError(
            f"départage = {len(queue)} valeur(s) : seules {used} ont servi (RB-INIT-2)",
            field="départage", value=len(queue), rule="RB-INIT-2",
        )
    return init


def initiative(
    combatants: Iterable[Combatant],
    rng: Rng,
    *,
    surprise_by: str | None = None,
    rules: Rules = DEFAULT_RULES,
) -> Initiative:
    """Roll the initiative (RB-INIT-1..4; RB-SURPRISE-3 when ``surprise_by`` names the
    side whose surprise attack succeeded; the traits' speed effects, RB-SPEED-1..3).

    Draw order: one d100 per combatant (HAB test) in the given order, then the
    roll-offs: each round, one d100 per still-tied combatant, in the given order.
    """
    roster = _check_roster(combatants, "RB-INIT-1")
    _validate_for_initiative(roster, surprise_by, rules)
    values = [rng.randint(1, 100) for _ in roster]
    return _initiative(roster, values, lambda _n, _r: rng.randint(1, 100), surprise_by, rules)


def _validate_for_initiative(
    roster: Sequence[Combatant], surprise_by: str | None, rules: Rules
) -> None:
    if not roster:
        raise EscarmoucheError(
            "combattants = [] : l’initiative demande au moins un combattant (RB-INIT-1)",
            field="combattants", value=[], rule="RB-INIT-1",
        )
    for c in roster:
        _stat(c, "HAB", "RB-INIT-1")
        _check_traits(c, rules)
    if surprise_by is not None:
        sides = list(dict.fromkeys(c.side for c in roster))
        if surprise_by not in sides:
            raise EscarmoucheError(
                f"surprise_by = {surprise_by!r} : aucun combattant de ce camp ; camps : "
                f"{', '.join(sides)} (RB-SURPRISE-3)",
                field="surprise_by", value=surprise_by, rule="RB-SURPRISE-3",
            )


def _initiative(
    roster: Sequence[Combatant], values: Sequence[int], draw: Callable[[str, int], int],
    surprise_by: str | None, rules: Rules,
) -> Initiative:
    _validate_for_initiative(roster, surprise_by, rules)
    base = [
        InitiativeRoll(c.name, c.side, c.stats["HAB"], d100_test(c.stats["HAB"], v, rules))
        for c, v in zip(roster, values, strict=True)
    ]
    order, ties, rolloffs = _rank(base, draw)
    rolls = tuple(
        InitiativeRoll(r.name, r.side, r.hab, r.test, tuple(rolloffs[r.name])) for r in base
    )
    by_name = {c.name: c for c in roster}
    zero = _turn_zero(rolls, by_name, surprise_by)
    speed = apply_speed(order, speed_profiles(roster), rules)
    included = {z.name for z in zero if z.included}
    turn_zero = tuple(n for n in speed.order if n in included)
    failed = {r.name for r in rolls if r.test.critical == "failure"}
    late = tuple(n for n in order if n in failed)
    applied = ["RB-INIT-1", "RB-D100-1", "RB-INIT-2"]
    if any(r.test.critical == "success" for r in rolls):
        applied.append("RB-INIT-3")
    if late:
        applied.append("RB-INIT-4")
    if surprise_by is not None:
        applied.append("RB-SURPRISE-3")
    applied.extend(dict.fromkeys(s.rule for s in speed.steps))
    return Initiative(rolls, tuple(order), tuple(ties), speed, turn_zero, tuple(zero), late,
                      surprise_by, tuple(dict.fromkeys(applied)))


# ---------------------------------------------------------------------------------------
# RB-SURPRISE-1/2: the surprise attack
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SurpriseResult:
    """The surprise attempt (RB-SURPRISE-1/2): both conditions and the opposed test.

    ``attack_stat`` / ``defence_stat``: the group values (``surprise_aggregate``), given
    by ``attack_from`` / ``defence_from``; ``attack`` / ``defence``: the two D100 tests
    (``None`` when the defenders were aware: no dice).
    """

    success: bool
    unaware: bool
    aggregate: str
    attack_stat: int
    attack_from: tuple[str, ...]
    defence_stat: int
    defence_from: tuple[str, ...]
    attack: TestResult | None
    defence: TestResult | None
    text: str
    rules: tuple[str, ...] = ("RB-SURPRISE-1", "RB-SURPRISE-2")

    def to_json(self) -> dict[str, Json]:
        return {
            "success": self.success, "unaware": self.unaware, "aggregate": self.aggregate,
            "attack_stat": self.attack_stat, "attack_from": list(self.attack_from),
            "defence_stat": self.defence_stat, "defence_from": list(self.defence_from),
            "attack": self.attack.to_json() if self.attack else None,
            "defence": self.defence.to_json() if self.defence else None,
            "text": self.text,
        }


def _group_value(
    group: Sequence[Combatant], stat: str, aggregate: str, lowest: bool
) -> tuple[int, tuple[str, ...]]:
    values = [(c.name, _stat(c, stat, "RB-SURPRISE-2")) for c in group]
    if aggregate == "leader":
        return values[0][1], (values[0][0],)
    if aggregate == "mean":
        return sum(v for _, v in values) // len(values), tuple(n for n, _ in values)
    target = min(v for _, v in values) if lowest else max(v for _, v in values)
    return target, (next(n for n, v in values if v == target),)


def _check_groups(attackers: Sequence[Combatant], defenders: Sequence[Combatant],
                  unaware: object) -> None:
    for label, group in (("attaquants", attackers), ("défenseurs", defenders)):
        if not group:
            raise EscarmoucheError(
                f"{label} = [] : chaque groupe doit compter au moins un combattant "
                "(RB-SURPRISE-1)", field=label, value=[], rule="RB-SURPRISE-1")
    _check_roster([*attackers, *defenders], "RB-SURPRISE-1")
    if not isinstance(unaware, bool):
        raise EscarmoucheError(
            f"unaware = {unaware!r} : vrai ou faux attendu (les défenseurs ignorent-ils la "
            "présence des attaquants ?) (RB-SURPRISE-1)",
            field="unaware", value=unaware, rule="RB-SURPRISE-1")


def surprise_from_rolls(
    attackers: Iterable[Combatant],
    defenders: Iterable[Combatant],
    attack_roll: int | None,
    defence_roll: int | None,
    *,
    unaware: bool,
    rules: Rules = DEFAULT_RULES,
) -> SurpriseResult:
    """Resolve a surprise attempt from the dice already rolled (RB-SURPRISE-1/2).

    Both conditions: the defenders are ``unaware`` (GM flag) and the attackers win the
    opposed test, DIS (attackers) against PMR (defenders): each side makes a D100 test,
    the higher margin wins, the defenders win ties. The rolls are ``None`` (and ignored)
    when ``unaware`` is false.
    """
    att = list(attackers)
    dfd = list(defenders)
    _check_groups(att, dfd, unaware)
    a_stat, a_from = _group_value(att, "DIS", rules.surprise_aggregate, lowest=True)
    d_stat, d_from = _group_value(dfd, "PMR", rules.surprise_aggregate, lowest=False)
    if not unaware:
        text = ("Pas d’attaque surprise : les défenseurs savent que les attaquants sont là "
                "(condition (a) non remplie)")
        return SurpriseResult(False, False, rules.surprise_aggregate, a_stat, a_from,
                              d_stat, d_from, None, None, text, ("RB-SURPRISE-1",))
    a_test = d100_test(a_stat, _roll_value(attack_roll, 100, "jet des attaquants",
                                           "RB-SURPRISE-2"), rules)
    d_test = d100_test(d_stat, _roll_value(defence_roll, 100, "jet des défenseurs",
                                           "RB-SURPRISE-2"), rules)
    success = a_test.margin > d_test.margin
    verdict = "attaque surprise réussie" if success else (
        "égalité, les défenseurs l’emportent" if a_test.margin == d_test.margin
        else "les défenseurs ne sont pas surpris")
    text = (f"Attaque surprise : DIS {_num(a_stat)} ({_names(a_from)}) jet "
            f"{a_test.describe()} ; PMR {_num(d_stat)} ({_names(d_from)}) jet "
            f"{d_test.describe()} : {verdict}")
    return SurpriseResult(success, True, rules.surprise_aggregate, a_stat, a_from, d_stat,
                          d_from, a_test, d_test, text)


def surprise_test(
    attackers: Iterable[Combatant],
    defenders: Iterable[Combatant],
    rng: Rng,
    *,
    unaware: bool,
    rules: Rules = DEFAULT_RULES,
) -> SurpriseResult:
    """Roll the surprise attempt (RB-SURPRISE-1/2): the attackers' d100, then the
    defenders' d100; no dice when ``unaware`` is false."""
    att = list(attackers)
    dfd = list(defenders)
    _check_groups(att, dfd, unaware)
    _group_value(att, "DIS", rules.surprise_aggregate, lowest=True)
    _group_value(dfd, "PMR", rules.surprise_aggregate, lowest=False)
    if not unaware:
        return surprise_from_rolls(att, dfd, None, None, unaware=False, rules=rules)
    a_roll = rng.randint(1, 100)
    d_roll = rng.randint(1, 100)
    return surprise_from_rolls(att, dfd, a_roll, d_roll, unaware=True, rules=rules)


def surprise(
    attackers: Iterable[Combatant],
    defenders: Iterable[Combatant],
    rng: Rng,
    *,
    unaware: bool,
    rules: Rules = DEFAULT_RULES,
) -> bool:
    """Whether the surprise attack succeeds (RB-SURPRISE-1/2); see :func:`surprise_test`
    for the details a GM wants to see."""
    return surprise_test(attackers, defenders, rng, unaware=unaware, rules=rules).success


def surprise_odds(attack_stat: int, defence_stat: int) -> Fraction:
    """The exact probability that the attackers win the opposed test (RB-SURPRISE-2),
    given the two group values: ``P(attack_stat − a > defence_stat − d)`` for two
    independent d100 ``a``, ``d`` (the difference ``d − a = j`` has ``100 − |j|`` cases)."""
    a = _need_int("DIS", attack_stat, "RB-SURPRISE-2", "un nombre entier est attendu")
    d = _need_int("PMR", defence_stat, "RB-SURPRISE-2", "un nombre entier est attendu")
    k = d - a  # attackers win when d_roll − a_roll > k
    wins = sum(100 - abs(j) for j in range(max(k + 1, -99), 100))
    return Fraction(wins, 10_000)


def surprise_chance(
    attackers: Iterable[Combatant],
    defenders: Iterable[Combatant],
    *,
    unaware: bool,
    rules: Rules = DEFAULT_RULES,
) -> Fraction:
    """The exact probability that a surprise attack succeeds (RB-SURPRISE-1/2): 0 when
    the defenders are aware, else :func:`surprise_odds` of the two group values
    (``rules.surprise_aggregate``)."""
    att = list(attackers)
    dfd = list(defenders)
    _check_groups(att, dfd, unaware)
    a_stat, _ = _group_value(att, "DIS", rules.surprise_aggregate, lowest=True)
    d_stat, _ = _group_value(dfd, "PMR", rules.surprise_aggregate, lowest=False)
    return surprise_odds(a_stat, d_stat) if unaware else Fraction(0)


# ---------------------------------------------------------------------------------------
# Speed effects gained during the fight
# ---------------------------------------------------------------------------------------

SPEED_KIND = "vitesse"


def speed_effect(
    bearer: str,
    effect: str,
    *,
    first_turn: int | None = None,
    last_turn: int | None = None,
    name: str | None = None,
    source: str | None = None,
) -> Effect:
    """A speed effect gained during the fight (RB-SPEED-1; « les attaques peuvent changer
    l’ordre des tours »), as an :class:`~escarmouche.model.Effect` of kind ``"vitesse"``
    whose keyword names the effect.

    It counts for every global turn from ``first_turn`` to ``last_turn`` (both optional)
    while it exists; the system removes it at the end of ``last_turn``. Its timing is
    « début du tour global » because that is when the order it changes is computed
    (its duration is counted in global turns: *ruling*). Add it with
    ``Encounter.add_effect`` (or let an action's ``vitesse`` parameter do it).
    """
    if effect not in SPEED_EFFECTS:
        raise EscarmoucheError(
            f"vitesse = {effect!r} : effet de vitesse inconnu ; effets : "
            f"{', '.join(SPEED_EFFECTS)} (RB-SPEED-1)",
            field="vitesse", value=effect, rule="RB-SPEED-1",
        )
    data: dict[str, int] = {}
    for key, value in (("debut", first_turn), ("fin", last_turn)):
        if value is not None:
            data[key] = _need_int(key, value, "RB-SPEED-1", "un numéro de tour est attendu")
    if "debut" in data and "fin" in data and data["fin"] < data["debut"]:
        raise EscarmoucheError(
            f"last_turn = {data['fin']} : avant first_turn = {data['debut']} (RB-SPEED-1)",
            field="last_turn", value=data["fin"], rule="RB-SPEED-1",
        )
    return Effect("", name or SPEED_EFFECTS[effect].label, Timing.TURN_START,
                  bearer=bearer, kind=SPEED_KIND, keywords=frozenset({effect}), source=source,
                  data=data)


def _effect_active(e: Effect, turn: int) -> bool:
    return e.data.get("debut", turn) <= turn <= e.data.get("fin", turn)


# ---------------------------------------------------------------------------------------
# The encounter system
# ---------------------------------------------------------------------------------------

_F_ACTION = "action_utilisee"
_F_POSTURE_USED = "posture_changee"
_F_MOVE = "deplacement_disponible"
_F_POSTURE = "posture"
_START_OPTIONS = ("surprise_by", "unaware")


def _flag(f: FighterState, key: str, default: Json) -> Json:
    return f.flags.get(key, default)


class RulebookSystem(System):
    """The Rulebook rules plugged into the encounter engine (see the module docstring).

    Roster: stats ``HAB``, ``DIS``, ``PMR`` (0–100), ``PV`` and ``Esprit`` (≥ 1), optional
    ``eclat`` (current) and ``eclat_max``; traits of :data:`KNOWN_TRAITS`.
    ``Encounter("rulebook", combatants, end_conditions=[EndCondition(...)])`` (RB-END-1);
    ``start(rng)``, or ``start(rng, surprise_by=side, unaware=True)`` which first resolves
    the surprise attempt (RB-SURPRISE-1/2), then rolls the initiative; turn 0 is played
    when somebody is in it (RB-INIT-3, RB-SURPRISE-3).

    Actions (``enc.act(name, action, rng, **params)``, catalogue :data:`ACTIONS`):

    * ``attaque`` (the action): ``cible``; ``degats`` (the GM's amount) or ``des`` (a dice
      expression, rolled now); ``piste`` « PV » (default) or « Esprit » (RB-END-2);
      ``vitesse`` (a speed effect inflicted on the target) and ``duree`` (global turns,
      default 1), starting with the next global turn (RB-SPEED-1); ``avec_deplacement``
      (also uses the movement, RB-ACT-2); ``nom``.
    * ``sort``, ``capacite`` (the action, RB-ACT-2): the same parameters, all optional.
    * ``equipement`` (the action, RB-ACT-2): ``objet``.
    * ``deplacement`` (the movement: one per global turn, regenerated at its start, usable
      out of turn while unspent, RB-MOVE-1): ``description``.
    * ``posture`` (one change per activation, RB-ACT-1): ``posture``.
    * ``action_libre`` (free, in the actor's activation, RB-ACT-1): ``description``.
    * ``depenser_eclat`` (free, also out of turn, RB-END-3): ``montant`` (default 1).

    Each activation gives a fresh action and posture change; Hypoactivité's 1d4 is rolled
    at each activation (RB-SPEED-1). Out of its activation a fighter may only move (or
    spend éclat), and only if it has a slot in the current global turn (RB-INIT-4,
    RB-SURPRISE-3).
    """

    name: ClassVar[str] = "rulebook"
    title: ClassVar[str] = "Système Rulebook (D100, HAB)"
    rules_type: ClassVar[type[Any]] = Rules
    tracks: ClassVar[tuple[str, ...]] = TRACKS
    turn_word: ClassVar[str] = "tour"
    start_options: ClassVar[tuple[str, ...]] = tuple(_START_OPTIONS)

    # -- roster ----------------------------------------------------------------------

    def validate(self, combatant: Combatant, rules: Any) -> None:
        """HAB, DIS, PMR in 0–100; PV and Esprit ≥ 1; éclat ≥ 0; known traits."""
        for key, (_, rule) in REQUIRED_STATS.items():
            if key in TRACKS:
                _stat(combatant, key, rule, low=1, high=1000)
            else:
                _stat(combatant, key, rule)
        if ECLAT in combatant.stats:
            eclat = _stat(combatant, ECLAT, "RB-END-3", high=1000)
            if ECLAT_MAX in combatant.stats:
                _stat(combatant, ECLAT_MAX, "RB-END-3", low=eclat, high=1000)
        elif ECLAT_MAX in combatant.stats:
            raise EscarmoucheError(
                f"{ECLAT} manquant pour « {combatant.name} » : {ECLAT_MAX} est donné sans "
                "l’éclat actuel (RB-END-3)", field=ECLAT, value=None, rule="RB-END-3")
        _check_traits(combatant, rules)

    def initial_tracks(self, combatant: Combatant, rules: Any) -> dict[str, int]:
        tracks = {t: combatant.stats[t] for t in TRACKS}
        if ECLAT in combatant.stats:
            tracks[ECLAT] = combatant.stats[ECLAT]
        return tracks

    def track_maxima(self, combatant: Combatant, rules: Any) -> dict[str, int]:
        """Starting values, except éclat: ``eclat_max`` when given (what the end of the
        fight restores, RB-END-3)."""
        maxima = self.initial_tracks(combatant, rules)
        if ECLAT in maxima:
            maxima[ECLAT] = combatant.stats.get(ECLAT_MAX, maxima[ECLAT])
        return maxima

    def is_out(self, fighter: FighterState, rules: Any) -> bool:
        """0 PV or 0 Esprit: out of the fight (RB-END-2); éclat does not count."""
        return any(fighter.tracks.get(t, 1) <= 0 for t in TRACKS)

    # -- start -----------------------------------------------------------------------

    def start(self, ctx: Ctx, options: Mapping[str, Any]) -> None:
        rules: Rules = ctx.rules
        roster = [f.combatant for f in ctx.state.fighters.values()]
        surprise_by = options.get("surprise_by")
        succeeded: str | None = None
        if surprise_by is None:
            if "unaware" in options:
                raise EscarmoucheError(
                    "unaware sans surprise_by : nommez le camp qui tente l’attaque surprise "
                    "(RB-SURPRISE-1)", field="surprise_by", value=None, rule="RB-SURPRISE-1")
        else:
            sides = list(dict.fromkeys(c.side for c in roster))
            if surprise_by not in sides:
                raise EscarmoucheError(
                    f"surprise_by = {surprise_by!r} : aucun combattant de ce camp ; camps : "
                    f"{', '.join(sides)} (RB-SURPRISE-1)",
                    field="surprise_by", value=surprise_by, rule="RB-SURPRISE-1")
            if "unaware" not in options:
                raise EscarmoucheError(
                    "unaware manquant : précisez si les défenseurs ignorent la présence des "
                    "attaquants (unaware=True ou False) (RB-SURPRISE-1)",
                    field="unaware", value=None, rule="RB-SURPRISE-1")
            attackers = [c for c in roster if c.side == surprise_by]
            defenders = [c for c in roster if c.side != surprise_by]
            if not defenders:
                raise EscarmoucheError(
                    f"surprise_by = {surprise_by!r} : aucun défenseur à surprendre "
                    "(RB-SURPRISE-1)", field="surprise_by", value=surprise_by,
                    rule="RB-SURPRISE-1")
            res = surprise_test(attackers, defenders, ctx.rng, unaware=options["unaware"],
                                rules=rules)
            ctx.emit("surprise", res.text + ".", rules=res.rules,
                     data={"surprise_by": surprise_by, **res.to_json()},
                     purpose="surprise (DIS contre PMR)")
            succeeded = surprise_by if res.success else None
            ctx.state.system_state["surprise"] = {"surprise_by": surprise_by,
                                                  **res.to_json()}
        init = initiative(roster, ctx.rng, surprise_by=succeeded, rules=rules)
        ctx.state.system_state["initiative"] = init.to_json()
        self._emit_initiative(ctx, init)
        for f in ctx.state.fighters.values():
            f.flags.update({_F_ACTION: False, _F_POSTURE_USED: False, _F_MOVE: False,
                            _F_POSTURE: None})

    def _emit_initiative(self, ctx: Ctx, init: Initiative) -> None:
        for r in init.rolls:
            text = f"{r.name} : initiative {r.test.describe()}."
            if r.test.critical == "success":
                text = text[:-1] + " ; une activation de plus au tour 0 (RB-INIT-3)."
            elif r.test.critical == "failure":
                text = text[:-1] + " ; n’agira qu’à partir du tour 2 (RB-INIT-4)."
            rules = ["RB-INIT-1", "RB-D100-1"]
            if r.test.critical == "success":
                rules.append("RB-INIT-3")
            elif r.test.critical == "failure":
                rules.append("RB-INIT-4")
            ctx.emit("initiative", text, actor=r.name, rules=rules, data=r.to_json(),
                     dice=(DieRecord(100, r.test.roll, f"initiative : {r.name}"),))
        for t in init.ties:
            dice = tuple(DieRecord(100, v, f"départage, manche {i + 1} : {n}")
                         for i, rnd in enumerate(t.rounds) for n, v in rnd)
            ctx.emit("departage", t.text + ".", rules=t.rules, data=t.to_json(), dice=dice)
        summary = f"Ordre d’initiative : {', '.join(init.order)}."
        ctx.emit("ordre_initiative", summary, rules=("RB-INIT-2",),
                 data={"order": list(init.order), "late": list(init.late),
                       "turn_zero": list(init.turn_zero)}, dice=())
        for z in init.turn_zero_reasons:
            ctx.emit("tour_0", z.text + ".", actor=z.name, rules=z.rules, data=z.to_json(),
                     dice=())

    def first_turn(self, ctx: Ctx) -> int:
        """Turn 0 exists when somebody is in it (RB-INIT-3, RB-SURPRISE-3)."""
        init = self._initiative(ctx)
        return 0 if any(ctx.state.fighters[n].standing for n in init.turn_zero) else 1

    # -- the order of each global turn -----------------------------------------------

    def _initiative(self, ctx: Ctx) -> Initiative:
        return Initiative.from_json(ctx.state.system_state["initiative"])

    def validate_effect(self, effect: Effect, rules: Any) -> None:
        """A ``"vitesse"`` effect must name known speed effects (RB-SPEED-1): refused
        when added rather than at the next turn start."""
        if effect.kind != SPEED_KIND:
            return
        unknown = sorted(k for k in effect.keywords if k not in SPEED_EFFECTS)
        if unknown or not effect.keywords:
            raise EscarmoucheError(
                f"effet « {effect.name} » : mot-clé de vitesse "
                f"{unknown[0] if unknown else 'absent'!r} inconnu ; effets : "
                f"{', '.join(SPEED_EFFECTS)} (RB-SPEED-1)",
                field="vitesse", value=unknown[0] if unknown else None, rule="RB-SPEED-1")

    def speed_sources(self, ctx: Ctx, name: str, turn: int) -> list[SpeedSource]:
        """A fighter's speed effects in global turn ``turn``: its traits, then its active
        ``"vitesse"`` effects (RB-SPEED-1)."""
        f = ctx.fighter(name)
        out = [SpeedSource(t, "trait", "trait") for t in SPEED_EFFECTS
               if t in f.combatant.traits]
        for e in ctx.state.effects:
            if e.kind != SPEED_KIND or e.bearer != name or not _effect_active(e, turn):
                continue
            for k in sorted(e.keywords):
                if k not in SPEED_EFFECTS:
                    raise EscarmoucheError(
                        f"effet {e.id} « {e.name} » : mot-clé de vitesse {k!r} inconnu ; "
                        f"effets : {', '.join(SPEED_EFFECTS)} ; retirez cet effet "
                        "(RB-SPEED-1)", field="vitesse", value=k, rule="RB-SPEED-1")
                out.append(SpeedSource(k, e.id, f"effet « {e.name} » ({e.id})"))
        return out

    def speed_order(self, ctx: Ctx, turn: int) -> SpeedOrder:
        """RB-SPEED-3 applied to the initiative order of the fighters still standing."""
        init = self._initiative(ctx)
        standing = [n for n in init.order if ctx.state.fighters[n].standing]
        profiles = {}
        for n in standing:
            srcs = self.speed_sources(ctx, n, turn)
            if srcs:
                profiles[n] = resolve_speed(n, srcs)
        return apply_speed(standing, profiles, ctx.rules)

    def turn_order(self, ctx: Ctx, turn: int) -> list[str]:
        init = self._initiative(ctx)
        speed = self.speed_order(ctx, turn)
        include, exclude = _turn_filter(turn, init.turn_zero, init.late)
        slots = speed.slots(include, exclude=exclude, twice=turn > 0)
        present = set(slots)
        notes = []
        for s in speed.steps:
            if s.name not in present and not (s.applied and s.other in present):
                continue  # about a character who does not act in this turn
            if s.effect == "hyperactivite" and turn == 0:
                notes.append(f"{s.name} n’agit qu’une fois au tour 0 (RB-SURPRISE-3)")
                continue
            notes.append(f"{s.text} ({s.rule})")
        if turn in (0, 1):
            absent = [n for n in init.late if n in speed.order]
            if absent:
                notes.append(f"{_names(absent)} n’agi{'ssent' if len(absent) > 1 else 't'} "
                             "pas avant le tour 2 (échec critique, RB-INIT-4)")
        if turn == 0 and init.surprise_by is not None:
            notes.append(f"tour 0 de l’attaque surprise du camp « {init.surprise_by} » "
                         "(RB-SURPRISE-3)")
        ctx.state.system_state["pending_order"] = {
            "turn": turn, "slots": slots, "notes": notes, "speed": speed.to_json()}
        return slots

    # -- hooks -----------------------------------------------------------------------

    def on_turn_start(self, ctx: Ctx) -> None:
        """Emit the explained order; movement regenerates for everyone (RB-MOVE-1)."""
        pending = ctx.state.system_state.pop("pending_order", None)
        if pending and pending["notes"]:
            rules = sorted({r for n in pending["notes"] for r in _rule_ids(n)})
            ctx.emit("ordre_tour", f"Ordre du tour {pending['turn']} : "
                     + (", ".join(pending["slots"]) or "personne") + ". "
                     + " ; ".join(pending["notes"]) + ".",
                     rules=rules, data={"slots": pending["slots"], "speed": pending["speed"]})
        for f in ctx.state.fighters.values():
            f.flags[_F_MOVE] = f.standing
        ctx.emit("deplacements", "Chaque personnage récupère son déplacement (RB-MOVE-1).",
                 rules=("RB-MOVE-1",))

    def on_activation_start(self, ctx: Ctx, actor: str) -> bool:
        """A fresh action and posture change (RB-ACT-1); Hypoactivité's d4 (RB-SPEED-1)."""
        f = ctx.fighter(actor)
        f.flags[_F_ACTION] = False
        f.flags[_F_POSTURE_USED] = False
        srcs = self.speed_sources(ctx, actor, ctx.state.turn)
        if srcs and "hypoactivite" in resolve_speed(actor, srcs).active:
            check = hypoactivity_check(ctx.rng.randint(1, 4))
            if check.can_act:
                text = f"Hypoactivité : {actor} lance 1d4 : {check.roll} ; {actor} peut agir."
            else:
                text = f"Hypoactivité : {actor} lance 1d4 : 4 ; {actor} ne peut pas agir."
            ctx.emit("hypoactivite", text, actor=actor, rules=check.rules,
                     data={"roll": check.roll, "can_act": check.can_act},
                     purpose=f"Hypoactivité : {actor}")
            return check.can_act
        return True

    def on_turn_end(self, ctx: Ctx) -> None:
        """Speed effects whose last turn is this one end (RB-SPEED-1)."""
        turn = ctx.state.turn
        for e in list(ctx.state.effects):
            if e.kind == SPEED_KIND and e.data.get("fin", turn + 1) <= turn:
                ctx.remove_effect(e.id, why=f"prend fin à la fin du tour {turn}",
                                  rules=("RB-SPEED-1",))

    def on_end(self, ctx: Ctx) -> None:
        """« Éclat » regenerates only now, at the end of the fight (RB-END-3)."""
        for f in ctx.state.fighters.values():
            if ECLAT not in f.tracks:
                continue
            before, full = f.tracks[ECLAT], f.maxima.get(ECLAT, f.tracks[ECLAT])
            f.tracks[ECLAT] = max(before, full)
            ctx.emit("eclat_regenere",
                     f"Fin du combat : {f.name} régénère son éclat ({_num(before)} → "
                     f"{_num(f.tracks[ECLAT])}).",
                     actor=f.name, rules=("RB-END-3",),
                     data={"before": before, "after": f.tracks[ECLAT]})

    # -- actions ---------------------------------------------------------------------

    def _can_act_now(self, ctx: Ctx, actor: str, adef: ActionDef) -> str | None:
        """Why ``actor`` cannot take ``adef`` now (a French reason with a rule ID)."""
        st = ctx.state
        f = ctx.fighter(actor)
        if not f.standing:
            return f"{actor} est hors de combat (RB-END-2)"
        if st.current != actor:
            init = self._initiative(ctx)
            if st.turn < 2 and actor in init.late:
                return (f"{actor} a fait un échec critique à l’initiative et ne peut rien "
                        "faire avant le tour 2 (RB-INIT-4)")
            if actor not in st.order:
                rule = "RB-SURPRISE-3" if init.surprise_by is not None else "RB-INIT-3"
                return f"{actor} ne participe pas au tour {st.turn} ({rule})"
            if not adef.out_of_turn:
                return (f"{actor} n’est pas en train d’agir : hors de son activation, seul "
                        "un déplacement non dépensé est possible (RB-MOVE-1)")
        if adef.cost == "action" and _flag(f, _F_ACTION, False):
            return f"{actor} a déjà utilisé son action de cette activation (RB-ACT-1)"
        if adef.cost == "posture" and _flag(f, _F_POSTURE_USED, False):
            return f"{actor} a déjà changé de posture pendant cette activation (RB-ACT-1)"
        if adef.cost == "deplacement" and not _flag(f, _F_MOVE, False):
            return (f"{actor} a déjà dépensé son déplacement de ce tour ; il se régénère au "
                    "début du prochain tour global (RB-MOVE-1)")
        if adef.id == "depenser_eclat" and f.tracks.get(ECLAT, 0) <= 0:
            return f"{actor} n’a pas d’éclat à dépenser (RB-END-3)"
        return None

    def actions(self, ctx: Ctx, actor: str) -> list[ActionSpec]:
        out: list[ActionSpec] = []
        for adef in ACTIONS.values():
            if self._can_act_now(ctx, actor, adef) is None:
                out.append(ActionSpec(adef.id, adef.label, COST_LABELS[adef.cost], adef.rules,
                                      adef.params))
        return out

    def act(self, ctx: Ctx, actor: str, action: str, params: Mapping[str, Any]) -> None:
        adef = ACTIONS.get(action)
        if adef is None:
            raise IllegalActionError(
                f"action = {action!r} : inconnue ; actions : {', '.join(ACTIONS)} (RB-ACT-1)",
                field="action", value=action, rule="RB-ACT-1")
        unknown = sorted(set(params) - set(adef.params))
        if unknown:
            raise IllegalActionError(
                f"paramètre = {unknown[0]!r} : inconnu pour l’action « {action} » ; "
                f"paramètres : {', '.join(adef.params) or 'aucun'} ({adef.rules[0]})",
                field="paramètre", value=unknown[0], rule=adef.rules[0])
        for p in adef.required:
            if p not in params:
                raise IllegalActionError(
                    f"{p} manquant : l’action « {action} » le demande ({adef.rules[0]})",
                    field=p, value=None, rule=adef.rules[0])
        why = self._can_act_now(ctx, actor, adef)
        if why is not None:
            raise IllegalActionError(f"action = {action!r} : {why}", field="action",
                                     value=action, rule=_rule_ids(why)[-1])
        f = ctx.fighter(actor)
        out_of_turn = ctx.state.current != actor
        if adef.cost == "action":
            f.flags[_F_ACTION] = True
            self._resolve_action(ctx, actor, adef, params)
        elif adef.cost == "deplacement":
            f.flags[_F_MOVE] = False
            where = " hors de son tour" if out_of_turn else ""
            desc = _text_param(params, "description", "RB-MOVE-1")
            ctx.emit("deplacement",
                     f"{actor} se déplace{where}{f' ({desc})' if desc else ''}.",
                     actor=actor, rules=adef.rules,
                     data={"out_of_turn": out_of_turn, "description": desc})
        elif adef.cost == "posture":
            posture = _text_param(params, "posture", "RB-ACT-1")
            if not posture:
                raise IllegalActionError(
                    "posture = '' : nommez la posture choisie (RB-ACT-1)",
                    field="posture", value="", rule="RB-ACT-1")
            f.flags[_F_POSTURE_USED] = True
            f.flags[_F_POSTURE] = posture
            ctx.emit("posture", f"{actor} passe en posture « {posture} ».", actor=actor,
                     rules=adef.rules, data={"posture": posture})
        elif adef.id == "depenser_eclat":
            amount = params.get("montant", 1)
            if not _is_int(amount) or amount < 1:
                raise IllegalActionError(
                    f"montant = {amount!r} : un nombre entier d’au moins 1 est attendu "
                    "(RB-END-3)", field="montant", value=amount, rule="RB-END-3")
            left = f.tracks[ECLAT]
            if amount > left:
                raise IllegalActionError(
                    f"montant = {amount} : {actor} n’a que {_num(left)} éclat (RB-END-3)",
                    field="montant", value=amount, rule="RB-END-3")
            f.tracks[ECLAT] = left - amount
            ctx.emit("eclat_depense",
                     f"{actor} dépense {_num(amount)} éclat (reste {_num(left - amount)} ; "
                     "régénéré seulement à la fin du combat).",
                     actor=actor, rules=adef.rules,
                     data={"amount": amount, "left": left - amount})
        else:  # a free short action with an item in hand
            desc = _text_param(params, "description", "RB-ACT-1")
            ctx.emit("action_libre",
                     f"{actor} : {desc or 'action courte'} (action libre, en plus de "
                     "l’action).", actor=actor, rules=adef.rules, data={"description": desc})

    def _resolve_action(self, ctx: Ctx, actor: str, adef: ActionDef,
                        params: Mapping[str, Any]) -> None:
        f = ctx.fighter(actor)
        rules = list(adef.rules)
        with_move = params.get("avec_deplacement", False)
        if not isinstance(with_move, bool):
            raise IllegalActionError(
                f"avec_deplacement = {with_move!r} : vrai ou faux attendu (RB-ACT-2)",
                field="avec_deplacement", value=with_move, rule="RB-ACT-2")
        if with_move:
            if not _flag(f, _F_MOVE, False):
                raise IllegalActionError(
                    f"avec_deplacement = True : {actor} a déjà dépensé son déplacement de ce "
                    "tour (RB-ACT-2, RB-MOVE-1)",
                    field="avec_deplacement", value=True, rule="RB-MOVE-1")
            f.flags[_F_MOVE] = False
            rules.append("RB-ACT-2")
        if adef.id == "equipement":
            obj = _text_param(params, "objet", "RB-ACT-2")
            ctx.emit("equipement",
                     f"{actor} prend {f'« {obj} »' if obj else 'un équipement'} dans son sac "
                     "(action).", actor=actor, rules=rules, data={"objet": obj})
            return
        label = _text_param(params, "nom", adef.rules[0])
        target_name = params.get("cible")
        target: FighterState | None = None
        if target_name is not None:
            target = ctx.fighter(str(target_name), rule=adef.rules[-1])
            if not target.standing:
                raise IllegalActionError(
                    f"cible = {target_name!r} : déjà hors de combat (RB-END-2)",
                    field="cible", value=target_name, rule="RB-END-2")
        what = f" « {label} »" if label else ""
        if adef.id == "attaque":
            assert target is not None
            head = f"{actor} attaque {target.name}" + (f" ({what.strip()})" if label else "")
        else:
            noun = "lance un sort" if adef.id == "sort" else "utilise une capacité"
            head = f"{actor} {noun}{what}" + (f" sur {target.name}" if target else "")
        damage = self._damage(ctx, adef, params, target)
        speed = params.get("vitesse")
        if speed is not None and target is None:
            raise IllegalActionError(
                "cible manquante : un effet de vitesse s’applique à une cible (RB-SPEED-1)",
                field="cible", value=None, rule="RB-SPEED-1")
        duration = params.get("duree", 1)
        if speed is not None:
            if speed not in SPEED_EFFECTS:
                raise IllegalActionError(
                    f"vitesse = {speed!r} : effet de vitesse inconnu ; effets : "
                    f"{', '.join(SPEED_EFFECTS)} (RB-SPEED-1)",
                    field="vitesse", value=speed, rule="RB-SPEED-1")
            if not _is_int(duration) or not 1 <= duration <= 1000:
                raise IllegalActionError(
                    f"duree = {duration!r} : un nombre de tours entre 1 et 1000 est attendu "
                    "(RB-SPEED-1)", field="duree", value=duration, rule="RB-SPEED-1")
        elif "duree" in params:
            raise IllegalActionError(
                "duree sans vitesse : la durée ne concerne qu’un effet de vitesse "
                "(RB-SPEED-1)", field="duree", value=duration, rule="RB-SPEED-1")
        if damage is None:
            ctx.emit(adef.id, head + ".", actor=actor, rules=tuple(dict.fromkeys(rules)),
                     data={"cible": target.name if target else None, "nom": label})
        else:
            assert target is not None
            amount, track = damage
            before = target.tracks[track]
            after = max(before - amount, 0)
            ctx.emit(adef.id,
                     f"{head} : {_num(amount)} dégât{'s' if amount > 1 else ''} "
                     f"{'aux PV' if track == 'PV' else 'à l’Esprit'} ({_num(before)} → "
                     f"{_num(after)}).",
                     actor=actor, rules=tuple(dict.fromkeys([*rules, "RB-END-2"])),
                     data={"cible": target.name, "piste": track, "degats": amount,
                           "avant": before, "apres": after, "nom": label})
            ctx.change_track(target.name, track, -amount, rules=("RB-END-2",))
        if speed is not None and target is not None and target.standing:
            first = ctx.state.turn + 1
            last = first + duration - 1
            eff = speed_effect(target.name, speed, first_turn=first, last_turn=last,
                               source=actor)
            ctx.add_effect(eff)
            span = f"au tour {first}" if duration == 1 else f"des tours {first} à {last}"
            ctx.emit("vitesse",
                     f"{target.name} subit l’effet « {SPEED_EFFECTS[speed].label} » "
                     f"({SPEED_EFFECTS[speed].description}) {span} ; l’ordre en tient compte "
                     "à partir du prochain tour global.",
                     actor=target.name, rules=("RB-SPEED-1", "RB-SPEED-3"),
                     data={"vitesse": speed, "debut": first, "fin": last, "source": actor})

    def _damage(self, ctx: Ctx, adef: ActionDef, params: Mapping[str, Any],
                target: FighterState | None) -> tuple[int, str] | None:
        """The damage of an action (RB-END-2): ``degats`` (given by the GM) or ``des``
        (a dice expression rolled now); on ``piste`` « PV » (default) or « Esprit »."""
        has_amount = "degats" in params
        has_dice = "des" in params
        track = params.get("piste", "PV")
        if track not in TRACKS:
            raise IllegalActionError(
                f"piste = {track!r} : « PV » ou « Esprit » attendu (RB-END-2)",
                field="piste", value=track, rule="RB-END-2")
        if has_amount and has_dice:
            raise IllegalActionError(
                "degats et des : donnez soit le montant, soit les dés, pas les deux (RB-END-2)",
                field="degats", value=params["degats"], rule="RB-END-2")
        if not has_amount and not has_dice:
            if adef.id == "attaque":
                raise IllegalActionError(
                    "degats manquant : donnez le montant (degats=…) ou les dés (des=\"1d6\") "
                    "de l’attaque (RB-END-2)", field="degats", value=None, rule="RB-END-2")
            if "piste" in params:
                raise IllegalActionError(
                    "piste sans dégâts : donnez degats=… ou des=… (RB-END-2)",
                    field="piste", value=track, rule="RB-END-2")
            return None
        if target is None:
            raise IllegalActionError(
                "cible manquante : des dégâts s’appliquent à une cible (RB-END-2)",
                field="cible", value=None, rule="RB-END-2")
        if has_amount:
            amount = params["degats"]
            if not _is_int(amount) or not 0 <= amount <= 10_000:
                raise IllegalActionError(
                    f"degats = {amount!r} : un nombre entier entre 0 et 10 000 est attendu "
                    "(RB-END-2)", field="degats", value=amount, rule="RB-END-2")
            return int(amount), str(track)
        from escarmouche import dice

        expr = params["des"]
        if not isinstance(expr, str):
            raise IllegalActionError(
                f"des = {expr!r} : une expression de dés comme « 1d6+2 » est attendue "
                "(RB-END-2)", field="des", value=expr, rule="RB-END-2")
        total = dice.roll(expr, ctx.rng).total
        return max(total, 0), str(track)

    def auto_action(self, ctx: Ctx, actor: str) -> tuple[str, dict[str, Any]] | None:
        """Automated fights: attack the first standing enemy for :data:`AUTO_DAMAGE` PV
        (nothing when the action of this activation is already used)."""
        enemies = ctx.enemies(actor)
        if not enemies or _flag(ctx.fighter(actor), _F_ACTION, False):
            return None
        return "attaque", {"cible": enemies[0].name, "des": AUTO_DAMAGE}


def _text_param(params: Mapping[str, Any], key: str, rule: str) -> str:
    value = params.get(key, "")
    if value is None:
        return ""
    if not isinstance(value, str) or len(value) > 200:
        raise IllegalActionError(
            f"{key} = {value!r} : un texte court est attendu ({rule})",
            field=key, value=value, rule=rule,
        )
    return value.strip()


def _rule_ids(text: str) -> list[str]:
    """The rule IDs cited in a French text (``RB-XXX-n``)."""
    return re.findall(r"RB-[A-Z0-9]+-\d+", text)


def encounter_initiative(enc: Encounter) -> Initiative:
    """The :class:`Initiative` of a started rulebook encounter (for widgets and the book)."""
    data = enc.state.system_state.get("initiative")
    if enc.state.system != RulebookSystem.name or data is None:
        raise EscarmoucheError(
            f"combat = {enc.state.system!r} : pas d’initiative Rulebook ; lancez un combat "
            "« rulebook » avec start() (RB-INIT-1)",
            field="combat", value=enc.state.system, rule="RB-INIT-1",
        )
    return Initiative.from_json(data)


SYSTEM = RulebookSystem()
