"""The options of the Rulebook system, the constants and tables of its rules (rules as
data), the French labels of every option and option value, and the D100 test
(RB-D100-1) on which every other rule rests."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import ClassVar, Literal

from escarmouche import checks
from escarmouche.errors import invalid
from escarmouche.model import Combatant, Json
from escarmouche.options import check_options, find, option
from escarmouche.render.table import OptionsTable, Table
from escarmouche.rng import Rng
from escarmouche.text import fmt

__all__ = [
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
    "REQUIRED_STATS",
    "SPEED_EFFECTS",
    "SPEED_KIND",
    "SPEED_PAIRS",
    "SURPRISE_AGGREGATES",
    "TRACKS",
    "Critical",
    "Rules",
    "SpeedEffectDef",
    "TestResult",
    "check_stat",
    "check_traits",
    "d100_outcome",
    "d100_test",
    "knocked_out",
    "roll_d100_test",
    "track_after_damage",
]

#: bound on the initiative roll-off rounds (RB-INIT-2 « repeated until broken »); two
#: combatants tie a d100 roll-off with probability 1/100, so 100 rounds never happen
#: with real dice — reaching it raises :class:`~escarmouche.errors.RuleBoundError`.
MAX_ROLLOFF_ROUNDS = 100

#: The simulation variant (not in the text): the text leaves the effect of an attack to
#: the GM (in play the GM gives the amount, RB-END-2). Automated play needs one, so each
#: fighter declares in this stat the die of its automatic hit: ``variante_degats = 6``
#: makes every activation of the fighter a hit of 1d6 PV. Read only by
#: ``RulebookSystem.auto_action``; a fighter without it cannot be played automatically.
DECLARED_DAMAGE = "variante_degats"
#: the faces a declared damage die may have (the simulation variant)
DECLARED_DAMAGE_FACES = (1, 1000)

#: the damage tracks (RB-END-2): 0 on either one puts a character out of the fight
TRACKS: tuple[str, ...] = ("PV", "Esprit")

#: the resource « éclat » (RB-END-3): stat ``eclat`` (current value when the fight
#: starts) and optional ``eclat_max`` (what the end of the fight restores)
ECLAT = "eclat"
ECLAT_MAX = "eclat_max"

#: the stats a rulebook combatant needs, with their French names and rule
REQUIRED_STATS: dict[str, tuple[str, str]] = {
    "HAB": ("habileté", "RB-INIT-1"),
    "DIS": ("discrétion", "RB-SURPRISE-1"),
    "PMR": ("perception", "RB-SURPRISE-1"),
    "PV": ("points de vie", "RB-END-2"),
    "Esprit": ("esprit", "RB-END-2"),
}


@dataclasses.dataclass(frozen=True, slots=True)
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

#: the kind of an :class:`~escarmouche.model.Effect` that carries a speed effect gained
#: during the fight (RB-SPEED-1)
SPEED_KIND = "vitesse"

#: the traits this system knows (spec/API.md); ``Rules.extra_traits`` adds a designer's own
KNOWN_TRAITS: dict[str, str] = {
    **{k: v.label for k, v in SPEED_EFFECTS.items()},
    "anti_surprise": "capacité contre les attaques surprises",
}

#: ``Rules.surprise_aggregate`` values (RB-SURPRISE-2)
SURPRISE_AGGREGATES: dict[str, str] = {
    "plus_faible": "la DIS la plus basse des attaquants contre la PMR la plus haute des "
               "défenseurs",
    "meneur": "la valeur du meneur de chaque groupe (le premier nommé)",
    "moyenne": "la moyenne de chaque groupe, arrondie à l’inférieur",
}

#: the English values of ``Rules.surprise_aggregate`` before they were French, still
#: read (old → new, each with a French note: escarmouche.options, ``renamed``)
OLD_SURPRISE_AGGREGATES: dict[str, str] = {
    "weakest": "plus_faible", "leader": "meneur", "mean": "moyenne"}

#: ``Rules.hyperactive_slot`` values (RB-SPEED-3)
HYPERACTIVE_SLOTS: dict[str, str] = {
    "juste_apres": "la seconde activation suit immédiatement la première",
    "fin_du_tour": "la seconde activation a lieu à la fin du tour, après toutes les autres",
}

#: the English values of ``Rules.hyperactive_slot`` before they were French, still read
OLD_HYPERACTIVE_SLOTS: dict[str, str] = {
    "consecutive": "juste_apres", "end_of_turn": "fin_du_tour"}

Critical = Literal["success", "failure"]

#: the French names of the two critical results (RB-D100-1)
CRITICAL_LABELS: dict[str, str] = {"success": "réussite critique", "failure": "échec critique"}

#: the French names of what an action uses of the activation (RB-ACT-1, RB-MOVE-1)
COST_LABELS: dict[str, str] = {
    "action": "action",
    "deplacement": "déplacement",
    "posture": "changement de posture",
    "libre": "libre",
}


def check_stat(c: Combatant, key: str, rule: str, *, low: int = 0, high: int = 100) -> int:
    """The stat ``key`` of ``c``, which must exist and lie in ``low``–``high``."""
    label = REQUIRED_STATS.get(key, (key, rule))[0]
    if key not in c.stats:
        raise invalid(key, None, rule, f"caractéristique requise pour {c.name} ({label})")
    return checks.integer(key, c.stats[key], lo=low, hi=high, rule=rule, who=c.name)


def _trait_set(extra: object) -> frozenset[str]:
    """``Rules.extra_traits``: a set of trait identifiers (RB-SPEED-1)."""
    if isinstance(extra, str) or not isinstance(extra, Iterable) or not all(
            isinstance(t, str) for t in extra):
        raise invalid("extra_traits", extra, "RB-SPEED-1",
                      "un ensemble d’identifiants de traits est attendu")
    return frozenset(extra)


@dataclasses.dataclass(frozen=True, slots=True)
class Rules(OptionsTable):
    """The options of the Rulebook system (RULES.md rulings marked *(option)*).

    ``crit_success_max`` (default 5) and ``crit_failure_min`` (default 96): the critical
    thresholds of the D100 test (RB-D100-1), standing in for the missing D100 base page;
    0 disables critical successes, 101 disables critical failures.
    ``surprise_aggregate`` (default ``"plus_faible"``; or ``"meneur"``, ``"moyenne"``):
    the group value of the opposed DIS vs PMR test (RB-SURPRISE-2, see
    :data:`SURPRISE_AGGREGATES`; the old ``"weakest"``, ``"leader"``, ``"mean"`` are
    still read, with a note).
    ``hyperactive_slot`` (default ``"juste_apres"``; or ``"fin_du_tour"``): where the
    second Hyperactivité activation goes (RB-SPEED-3; the old ``"consecutive"``,
    ``"end_of_turn"`` are still read, with a note).
    ``extra_traits``: a designer's own trait identifiers, accepted without effect
    (any other unknown trait is an error).
    """

    options_title: ClassVar[str] = "Options du système Rulebook"

    crit_success_max: int = option(
        5, label="plus haut jet de réussite critique du test D100",
        key="reussite_critique_max", rules=("RB-D100-1",), lo=0, hi=100)
    crit_failure_min: int = option(
        96, label="plus bas jet d’échec critique du test D100", key="echec_critique_min",
        rules=("RB-D100-1",), lo=1, hi=101)
    surprise_aggregate: str = option(
        "plus_faible", label="valeur de groupe du test d’attaque surprise",
        key="valeur_groupe_surprise", rules=("RB-SURPRISE-2",),
        renamed=OLD_SURPRISE_AGGREGATES, choices={
            # no colon inside a value's label: « option : valeur » would chain two
            "plus_faible": ("défavorable aux attaquants (leur DIS la plus basse "
                        "contre la PMR la plus haute des défenseurs)"),
            "meneur": "le meneur (le premier nommé de chaque groupe)",
            "moyenne": "la moyenne de chaque groupe",
        })
    hyperactive_slot: str = option(
        "juste_apres", label="place de la seconde activation d’Hyperactivité",
        key="place_hyperactivite", rules=("RB-SPEED-3",), renamed=OLD_HYPERACTIVE_SLOTS,
        choices={
            "juste_apres": "juste après la première",
            "fin_du_tour": "à la fin du tour",
        })
    extra_traits: frozenset[str] = option(
        frozenset(), label="traits supplémentaires acceptés sans effet",
        key="traits_supplementaires", rules=("RB-SPEED-1",), check=_trait_set)

    def __post_init__(self) -> None:
        check_options(self)
        if self.crit_success_max >= self.crit_failure_min:
            low, high = find(self, "crit_success_max"), find(self, "crit_failure_min")
            raise invalid("crit_failure_min", self.crit_failure_min, "RB-D100-1",
                          f"il doit dépasser le {low.label} "
                          f"({fmt.number(self.crit_success_max)}), un jet ne peut être à la "
                          "fois réussite et échec critiques", label=high.label)


#: the default options (RULES.md defaults)
DEFAULT_RULES = Rules()


def check_traits(c: Combatant, rules: Rules) -> None:
    """Refuse a trait this system does not know (RB-SPEED-1)."""
    for t in sorted(c.traits):
        if t not in KNOWN_TRAITS and t not in rules.extra_traits:
            raise invalid("trait", t, "RB-SPEED-1",
                          f"trait inconnu du système Rulebook pour {c.name} ; les traits "
                          f"connus sont {fmt.join(sorted(KNOWN_TRAITS))}")


def track_after_damage(before: int, amount: int) -> int:
    """A damage track (PV or Esprit) after ``amount`` damage: never below 0 (RB-END-2).

    >>> track_after_damage(5, 8), track_after_damage(12, 4)
    (0, 8)
    """
    return max(before - amount, 0)


def knocked_out(pv: int, esprit: int) -> bool:
    """0 PV or 0 Esprit: out of the fight (RB-END-2); éclat does not count.

    >>> knocked_out(0, 10), knocked_out(3, 1)
    (True, False)
    """
    return pv <= 0 or esprit <= 0


# ---------------------------------------------------------------------------------------
# RB-D100-1: the D100 test
# ---------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
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
        """French: « 23 contre 60, réussite, marge 37 »."""
        return (f"{fmt.number(self.roll)} contre {fmt.number(self.stat)}, {self.label}, "
                f"marge {fmt.number(self.margin)}")

    def _repr_html_(self) -> str:
        return Table(("Caractéristique", "Jet", "Résultat", "Marge"),
                     [(self.stat, self.roll, self.label, self.margin)],
                     title=f"Test D100 ({', '.join(self.rules)})")._repr_html_()

    def to_json(self) -> dict[str, Json]:
        return {"stat": self.stat, "roll": self.roll, "success": self.success,
                "margin": self.margin, "critical": self.critical}

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> TestResult:
        critical = data["critical"]
        return cls(int(data["stat"]), int(data["roll"]), bool(data["success"]),
                   int(data["margin"]), critical)


def d100_test(stat: int, roll: int, rules: Rules = DEFAULT_RULES) -> TestResult:
    """Resolve a D100 test (RB-D100-1) from the die already rolled.

    Success if ``roll ≤ stat``; margin = ``stat − roll``; a roll ≤
    ``rules.crit_success_max`` is a critical success (always a success), a roll ≥
    ``rules.crit_failure_min`` a critical failure (always a failure), whatever the stat
    (any integer from −10 000 to 10 000; anything else is a ``ParameterError``).

    >>> d100_test(60, 23)
    TestResult(stat=60, roll=23, success=True, margin=37, critical=None, rules=('RB-D100-1',))
    >>> d100_test(0, 3).success, d100_test(100, 98).success
    (True, False)
    """
    stat = checks.integer("stat", stat, lo=-10_000, hi=10_000, rule="RB-D100-1")
    roll = checks.die("jet", roll, 100, "RB-D100-1")
    return d100_outcome(stat, roll, rules)


def d100_outcome(stat: int, roll: int, rules: Rules) -> TestResult:
    """The arithmetic of :func:`d100_test` on values already checked (the initiative
    of a roster checked once, the rules kernel's way in): RB-D100-1."""
    critical: Critical | None = None
    if roll <= rules.crit_success_max:
        critical = "success"
    elif roll >= rules.crit_failure_min:
        critical = "failure"
    success = critical == "success" or (critical is None and roll <= stat)
    return TestResult(stat, roll, success, stat - roll, critical)



def roll_d100_test(stat: int, rng: Rng, rules: Rules = DEFAULT_RULES) -> TestResult:
    """Roll one d100 (``rng.randint(1, 100)``) and resolve the test (RB-D100-1)."""
    stat = checks.integer("stat", stat, lo=-10_000, hi=10_000, rule="RB-D100-1")
    return d100_test(stat, rng.randint(1, 100), rules)
