"""The d100 rules as pure functions of dice already rolled, with thin rolling wrappers.

Initiative (D100-INIT-*), hit location (D100-ATK-2, D100-ATK-6), damage (D100-ATK-3),
target numbers with every modifier (D100-ATK-1/5, D100-TWO-2, D100-RANGED-*), defences
(D100-PARRY-*, D100-DODGE-*, D100-SURPRISE-1), two-weapon legality (D100-TWO-1) and the
resolution of one attack from end to end (D100-ATK-1..7).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from enum import StrEnum
from types import MappingProxyType

from escarmouche._rng import Rng
from escarmouche.errors import EscarmoucheError, IllegalActionError, RuleBoundError
from escarmouche.model import Combatant, DieRecord, Json, check_roster
from escarmouche.systems._d100.narration import attack_sentence, fr_int
from escarmouche.systems._d100.tables import (
    DEFENCES,
    HAND_LABELS,
    HANDS,
    LOCATION_ARMOUR_KEYS,
    LOCATION_TABLE,
    LOCATIONS,
    MAIN_HAND_WEAPONS,
    NEAREST_LOCATIONS,
    OFF_HAND_WEAPONS,
    WEAPONS,
    Weapon,
    fold,
)

__all__ = [
    "AIMS",
    "DEFAULT_RULES",
    "DEFENCES",
    "MAX_ROLLOFF_ROUNDS",
    "STATS",
    "AttackResult",
    "AttackSetup",
    "Guard",
    "Initiative",
    "InitiativeEntry",
    "Modifier",
    "Outcome",
    "Rules",
    "TargetNumber",
    "TwoWeapons",
    "armour_at",
    "attack_setup",
    "bonus",
    "check_two_weapons",
    "damage",
    "defence_target",
    "get_weapon",
    "hand_label",
    "hit_location",
    "initiative",
    "initiative_from_dice",
    "location_of",
    "resolve_attack",
    "reverse_digits",
    "roll_attack",
    "roll_initiative",
    "stat",
    "substitute_location",
    "target_number",
    "validate_combatant",
]

#: D100-INIT-2: bound on roll-off rounds (a scripted rng repeating one value would loop)
MAX_ROLLOFF_ROUNDS = 100

#: D100-ATK-7: who the attacker aims at when the target is mounted
AIMS: tuple[str, ...] = ("cavalier", "monture")


# -- options -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rules:
    """The d100 options: the modifiers of the text and the rulings of RULES.md.

    RULES.md marks no d100 ruling *(option)*; the modifiers (all −20 in the text) and the
    rulings a designer may want to switch are fields here, with the RULES.md defaults.
    """

    #: D100-ATK-5 / D100-TWO-2: attack with the off hand (melee or ranged)
    off_hand_modifier: int = -20
    #: D100-RANGED-4: shooting at a target engaged in melee
    shooting_into_melee_modifier: int = -20
    #: D100-RANGED-5: shooting beyond the short range
    beyond_short_range_modifier: int = -20
    #: D100-RANGED-5 *(ruling)*: extra modifier beyond the long range (desperate shot);
    #: 0 = « still −20, the only penalty the text gives »
    desperate_shot_modifier: int = 0
    #: D100-RANGED-5: a shot may reach this many times the long range, not farther
    max_range_factor: int = 2
    #: D100-SURPRISE-1 *(ruling)*: whether the surprised may parry or dodge in round 1
    surprised_can_defend: bool = False
    #: D100-PARRY-3 / D100-DODGE-2: parries and dodges per round
    parries_per_round: int = 1
    dodges_per_round: int = 1
    #: D100-JUMP-1 *(ruling)*: one Ag test per started step of this many metres
    drop_step: int = 3
    #: D100-JUMP-2: minimum run-up (metres) for a long jump
    long_jump_run_up: int = 4
    #: D100-JUMP-2 *(ruling)*: one degree of failure per started step of this size
    failure_degree: int = 10
    #: the weapon a fighter holds in the main hand when the encounter is given none
    default_weapon: str = "arme_a_une_main"

    def __post_init__(self) -> None:
        bounds: dict[str, tuple[int, int]] = {
            "off_hand_modifier": (-100, 100),
            "shooting_into_melee_modifier": (-100, 100),
            "beyond_short_range_modifier": (-100, 100),
            "desperate_shot_modifier": (-100, 100),
            "max_range_factor": (1, 10),
            "parries_per_round": (0, 10),
            "dodges_per_round": (0, 10),
            "drop_step": (1, 100),
            "long_jump_run_up": (0, 100),
            "failure_degree": (1, 100),
        }
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "surprised_can_defend":
                if not isinstance(value, bool):
                    raise EscarmoucheError(
                        f"{f.name} = {value!r} : vrai ou faux attendu (D100-SURPRISE-1)",
                        field=f.name, value=value, rule="D100-SURPRISE-1",
                    )
            elif f.name == "default_weapon":
                if value not in WEAPONS:
                    raise EscarmoucheError(
                        f"default_weapon = {value!r} : arme inconnue ; armes connues : "
                        f"{', '.join(WEAPONS)} (D100-ATK-3)",
                        field=f.name, value=value, rule="D100-ATK-3",
                    )
            else:
                lo, hi = bounds[f.name]
                if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                    raise EscarmoucheError(
                        f"{f.name} = {value!r} : un entier entre {lo} et {hi} est attendu "
                        "(option du système d100)",
                        field=f.name, value=value, rule="CORE-ERR",
                    )


#: the defaults of RULES.md (a module-level value, usable as a default argument)
DEFAULT_RULES = Rules()


# -- stats -------------------------------------------------------------------------------

#: the d100 stats, their bounds and the rule that uses them
STATS: Mapping[str, tuple[int, int, str]] = MappingProxyType({
    "CC": (0, 100, "D100-ATK-1"),
    "CT": (0, 100, "D100-ATK-1"),
    "F": (0, 100, "D100-JUMP-2"),
    "E": (0, 100, "D100-ATK-3"),
    "Ag": (0, 100, "D100-INIT-1"),
    "M": (0, 100, "D100-JUMP-2"),
    "B": (0, 1000, "D100-ATK-3"),
})
ARMOUR_MAX = 100


def _bounded(name: str, key: str, value: int, lo: int, hi: int, rule: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise EscarmoucheError(
            f"{key} = {value!r} pour « {name} » : une valeur entre {lo} et {hi} est attendue "
            f"({rule})",
            field=key, value=value, rule=rule,
        )
    return value


def stat(combatant: Combatant, key: str) -> int:
    """A d100 stat of ``combatant``, checked against its bounds (0–100 for percentages)."""
    lo, hi, rule = STATS[key]
    if key not in combatant.stats:
        raise EscarmoucheError(
            f"{key} manquant pour « {combatant.name} » : le système d100 demande cette "
            f"caractéristique ({rule})",
            field=key, value=None, rule=rule,
        )
    return _bounded(combatant.name, key, combatant.stats[key], lo, hi, rule)


def bonus(value: int) -> int:
    """The bonus of a percentage: BF = F // 10, BE = E // 10."""
    return value // 10


def armour_at(combatant: Combatant, location: str) -> int:
    """Armour points on ``location`` (D100-ATK-3).

    A combatant carries armour as stats: ``PA_<zone>`` (``PA_tete``, ``PA_bras_droit``,
    ``PA_bras_gauche``, ``PA_corps``, ``PA_jambe_droite``, ``PA_jambe_gauche``) for one
    zone, and ``PA`` for every zone without its own key; none means 0.
    """
    key = LOCATION_ARMOUR_KEYS[_location(location, "zone")]
    for k in (key, "PA"):
        if k in combatant.stats:
            return _bounded(combatant.name, k, combatant.stats[k], 0, ARMOUR_MAX, "D100-ATK-3")
    return 0


def validate_combatant(combatant: Combatant) -> None:
    """Every stat the encounter needs, in its bounds, and well-named armour keys."""
    for key in STATS:
        stat(combatant, key)
    if combatant.stats["B"] < 1:
        raise EscarmoucheError(
            f"B = {combatant.stats['B']} pour « {combatant.name} » : au moins 1 blessure est "
            "attendue pour entrer en combat (D100-ATK-3)",
            field="B", value=combatant.stats["B"], rule="D100-ATK-3",
        )
    armour_keys = {"PA", *LOCATION_ARMOUR_KEYS.values()}
    for key in combatant.stats:
        if key.startswith("PA") and key not in armour_keys:
            raise EscarmoucheError(
                f"{key} pour « {combatant.name} » : clé d’armure inconnue ; clés : "
                f"{', '.join(sorted(armour_keys))} (D100-ATK-3)",
                field=key, value=combatant.stats[key], rule="D100-ATK-3",
            )
    for zone in LOCATIONS:
        armour_at(combatant, zone)


def _die(value: object, faces: int, what: str, rule: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= faces:
        raise EscarmoucheError(
            f"{what} = {value!r} : un résultat de d{faces} entre 1 et {faces} est attendu "
            f"({rule})",
            field=what, value=value, rule=rule,
        )
    return value


def _flag(value: object, what: str, rule: str) -> bool:
    if not isinstance(value, bool):
        raise EscarmoucheError(
            f"{what} = {value!r} : vrai ou faux attendu ({rule})",
            field=what, value=value, rule=rule,
        )
    return value


# -- initiative (D100-INIT-1/2) ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class InitiativeEntry:
    """One combatant's initiative: Ag + 1d10 (D100-INIT-1)."""

    name: str
    ag: int
    d10: int

    @property
    def score(self) -> int:
        return self.ag + self.d10


@dataclass(frozen=True, slots=True)
class Initiative:
    """The initiative of a fight, kept for its whole length (D100-INIT-1/2).

    ``entries`` in the given order; ``rolloffs`` one tuple per roll-off round of
    ``(name, d10)`` in draw order; ``order`` the acting order.
    """

    entries: tuple[InitiativeEntry, ...]
    rolloffs: tuple[tuple[tuple[str, int], ...], ...]
    order: tuple[str, ...]
    rules: tuple[str, ...] = ("D100-INIT-1", "D100-INIT-2")

    def score(self, name: str) -> int:
        return next(e.score for e in self.entries if e.name == name)

    @property
    def dice(self) -> tuple[DieRecord, ...]:
        first = [DieRecord(10, e.d10, f"initiative de {e.name}") for e in self.entries]
        more = [DieRecord(10, r, f"départage de {n}") for rnd in self.rolloffs for n, r in rnd]
        return (*first, *more)

    def to_json(self) -> dict[str, Json]:
        return {
            "scores": {e.name: e.score for e in self.entries},
            "d10": {e.name: e.d10 for e in self.entries},
            "rolloffs": [[[n, r] for n, r in rnd] for rnd in self.rolloffs],
            "order": list(self.order),
        }


def _initiative(combatants: Iterable[Combatant], draw: Callable[[str, bool], int]) -> Initiative:
    roster = check_roster(combatants, rule="D100-INIT-1")
    names = [c.name for c in roster]
    ags = {c.name: stat(c, "Ag") for c in roster}
    entries = tuple(InitiativeEntry(n, ags[n], draw(n, False)) for n in names)
    score = {e.name: e.score for e in entries}
    groups: dict[tuple[int, int], list[str]] = {}
    for n in names:
        groups.setdefault((score[n], ags[n]), []).append(n)
    tied = [g for g in groups.values() if len(g) > 1]
    tiebreak: dict[str, list[int]] = {n: [] for n in names}
    rounds: list[tuple[tuple[str, int], ...]] = []
    while tied:
        if len(rounds) >= MAX_ROLLOFF_ROUNDS:
            raise RuleBoundError(
                f"départages = {MAX_ROLLOFF_ROUNDS} : l’égalité d’initiative n’est pas "
                "rompue après ce nombre de tours de départage (D100-INIT-2)",
                field="départages", value=MAX_ROLLOFF_ROUNDS, rule="D100-INIT-2",
            )
        rolling = {n for g in tied for n in g}
        this_round = tuple((n, draw(n, True)) for n in names if n in rolling)
        rounds.append(this_round)
        rolls = dict(this_round)
        still: list[list[str]] = []
        for g in tied:
            sub: dict[int, list[str]] = {}
            for n in g:
                tiebreak[n].append(rolls[n])
                sub.setdefault(rolls[n], []).append(n)
            still.extend(s for s in sub.values() if len(s) > 1)
        tied = still
    order = sorted(
        names, key=lambda n: (-score[n], -ags[n], tuple(-r for r in tiebreak[n]))
    )
    return Initiative(entries, tuple(rounds), tuple(order))


def initiative_from_dice(combatants: Iterable[Combatant], dice: Sequence[int]) -> Initiative:
    """Initiative from dice already rolled (D100-INIT-1/2).

    ``dice``: one d10 per combatant in the given order, then the roll-off d10s in draw
    order (each round, every still-tied combatant of every tie group, in the given order).
    Order: score descending, then higher Ag, then the roll-offs, higher roll first.
    Dice beyond those needed are ignored.
    """
    it: Iterator[int] = iter(dice)

    def draw(name: str, rolloff: bool) -> int:
        what = f"départage de « {name} »" if rolloff else f"initiative de « {name} »"
        value = next(it, None)
        if value is None:
            raise EscarmoucheError(
                f"{what} = manquant : un d10 de plus est nécessaire "
                f"({'D100-INIT-2' if rolloff else 'D100-INIT-1'})",
                field="dés", value=None, rule="D100-INIT-2" if rolloff else "D100-INIT-1",
            )
        return _die(value, 10, what, "D100-INIT-2" if rolloff else "D100-INIT-1")

    return _initiative(combatants, draw)


def roll_initiative(combatants: Iterable[Combatant], rng: Rng) -> Initiative:
    """Roll initiative: one d10 per combatant in the given order, then the roll-offs
    (one d10 per still-tied combatant, in the given order, round after round, at most
    :data:`MAX_ROLLOFF_ROUNDS`)."""
    return _initiative(combatants, lambda _n, _r: rng.randint(1, 10))


def initiative(combatants: Iterable[Combatant], rng: Rng) -> list[str]:
    """API.md: the names in acting order (D100-INIT-1/2); see :func:`roll_initiative`."""
    return list(roll_initiative(combatants, rng).order)


# -- hit location and damage (D100-ATK-2/3/6) ---------------------------------------------


def reverse_digits(roll: int) -> int:
    """D100-ATK-2: the d100 roll read with tens and units swapped: 37 → 73, 5 (« 05 »)
    → 50, 10 (« 10 ») → 1, 100 (« 00 ») → 100."""
    _die(roll, 100, "jet d’attaque", "D100-ATK-2")
    if roll == 100:
        return 100
    tens, units = divmod(roll, 10)
    return units * 10 + tens


def location_of(value: int) -> str:
    """The zone of a (reversed) value 1–100 in the location table (D100-ATK-2)."""
    _die(value, 100, "localisation", "D100-ATK-2")
    return next(zone for top, zone in LOCATION_TABLE if value <= top)


def hit_location(roll: int) -> str:
    """API.md: the zone hit by an attack roll of ``roll`` (reversed digits, D100-ATK-2)."""
    return location_of(reverse_digits(roll))


_LOCATION_BY_FOLD = {fold(z): z for z in LOCATIONS}


def _location(name: object, what: str) -> str:
    if isinstance(name, str) and fold(name) in _LOCATION_BY_FOLD:
        return _LOCATION_BY_FOLD[fold(name)]
    raise EscarmoucheError(
        f"{what} = {name!r} : zone inconnue ; zones : {', '.join(LOCATIONS)} (D100-ATK-6)",
        field=what, value=name, rule="D100-ATK-6",
    )


def _unreachable(zones: Iterable[str]) -> frozenset[str]:
    if isinstance(zones, str):
        zones = [zones]
    out = frozenset(_location(z, "zone inaccessible") for z in zones)
    if out == frozenset(LOCATIONS):
        raise EscarmoucheError(
            "zones inaccessibles = toutes : l’attaquant ne peut atteindre aucune zone de sa "
            "cible (D100-ATK-6)",
            field="zones inaccessibles", value=sorted(out), rule="D100-ATK-6",
        )
    return out


def substitute_location(location: str, unreachable: Iterable[str] = ()) -> str:
    """D100-ATK-6: an unreachable zone becomes the nearest reachable one
    (:data:`NEAREST_LOCATIONS`); a reachable zone is kept."""
    zone = _location(location, "zone")
    blocked = _unreachable(unreachable)
    if zone not in blocked:
        return zone
    return next(z for z in NEAREST_LOCATIONS[zone] if z not in blocked)


def damage(d10: int, weapon: int, be: int, armour: int) -> int:
    """API.md, D100-ATK-3: 1d10 + weapon damage − BE − armour points, never below 0
    *(ruling)*: the wounds (B) the target loses."""
    _die(d10, 10, "d10 de dégâts", "D100-ATK-3")
    for what, value, lo in (("dégâts de l’arme", weapon, -20), ("BE", be, 0),
                            ("armure", armour, 0)):
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= 1000:
            raise EscarmoucheError(
                f"{what} = {value!r} : un entier entre {lo} et 1000 est attendu (D100-ATK-3)",
                field=what, value=value, rule="D100-ATK-3",
            )
    return max(0, d10 + weapon - be - armour)


# -- weapons (D100-TWO-1) ------------------------------------------------------------------


def get_weapon(weapon: str | Weapon, weapons: Mapping[str, Weapon] = WEAPONS) -> Weapon:
    """A weapon of the catalogue by id or French name (« arme à une main », « fléau »)."""
    if isinstance(weapon, Weapon):
        return weapon
    if isinstance(weapon, str) and fold(weapon) in weapons:
        return weapons[fold(weapon)]
    raise EscarmoucheError(
        f"arme = {weapon!r} : arme inconnue ; armes connues : {', '.join(weapons)} "
        "(D100-ATK-3)",
        field="arme", value=weapon, rule="D100-ATK-3",
    )


@dataclass(frozen=True, slots=True)
class TwoWeapons:
    """A legal two-weapon pair (D100-TWO-1)."""

    main: str
    off: str
    rules: tuple[str, ...] = ("D100-TWO-1",)


def check_two_weapons(
    main: str | Weapon, off: str | Weapon, weapons: Mapping[str, Weapon] = WEAPONS
) -> TwoWeapons:
    """D100-TWO-1: the main hand holds one of :data:`MAIN_HAND_WEAPONS` and the off hand
    one of :data:`OFF_HAND_WEAPONS`; otherwise two-weapon fighting is refused."""
    m, o = get_weapon(main, weapons), get_weapon(off, weapons)
    if m.id not in MAIN_HAND_WEAPONS:
        raise IllegalActionError(
            f"main directrice = « {m.label} » : pour combattre à deux armes, la main "
            f"directrice tient une de ces armes : {_labels(MAIN_HAND_WEAPONS)} (D100-TWO-1)",
            field="main directrice", value=m.id, rule="D100-TWO-1",
        )
    if o.id not in OFF_HAND_WEAPONS:
        raise IllegalActionError(
            f"main non directrice = « {o.label} » : pour combattre à deux armes, l’autre main "
            f"tient une de ces armes : {_labels(OFF_HAND_WEAPONS)} (D100-TWO-1)",
            field="main non directrice", value=o.id, rule="D100-TWO-1",
        )
    return TwoWeapons(m.id, o.id)


def _labels(ids: Iterable[str]) -> str:
    return ", ".join(sorted(WEAPONS[i].label if i in WEAPONS else i for i in ids))


# -- target numbers (D100-ATK-1/5, D100-TWO-2, D100-RANGED-2..6) ---------------------------


@dataclass(frozen=True, slots=True)
class Modifier:
    """One modifier of a target number, with its French label and rule IDs."""

    label: str
    value: int
    rules: tuple[str, ...]

    def to_json(self) -> dict[str, Json]:
        return {"label": self.label, "value": self.value, "rules": list(self.rules)}


@dataclass(frozen=True, slots=True)
class TargetNumber:
    """A d100 target: the stat, every modifier, the total (which may leave 0–100).

    A roll succeeds when ``roll <= total``: a total ≤ 0 never succeeds and one ≥ 100
    always does (CORE-ERR). ``range_band`` is « courte », « longue » or « désespérée »
    for a shot (D100-RANGED-5).
    """

    stat: str
    base: int
    modifiers: tuple[Modifier, ...] = ()
    range_band: str | None = None
    rules: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        return self.base + sum(m.value for m in self.modifiers)

    @property
    def chance(self) -> int:
        """The total clamped to 0–100: the number of d100 faces that succeed."""
        return min(100, max(0, self.total))

    def succeeds(self, roll: int) -> bool:
        return roll <= self.total

    def to_json(self) -> dict[str, Json]:
        return {
            "stat": self.stat, "base": self.base, "total": self.total,
            "modifiers": [m.to_json() for m in self.modifiers],
            "range_band": self.range_band, "rules": list(self.rules),
        }


def _hand(hand: object) -> str:
    if hand in HANDS:
        return str(hand)
    raise EscarmoucheError(
        f"main = {hand!r} : « directrice » ou « non_directrice » attendu (D100-ATK-5)",
        field="main", value=hand, rule="D100-ATK-5",
    )


def target_number(
    attacker: Combatant,
    weapon: str | Weapon | None = None,
    *,
    hand: str = "directrice",
    distance: float | None = None,
    target_engaged: bool = False,
    shooter_engaged: bool = False,
    line_of_sight: bool = True,
    gm_modifier: int = 0,
    rules: Rules = Rules(),
    weapons: Mapping[str, Weapon] = WEAPONS,
) -> TargetNumber:
    """The attack's target number with each modifier (D100-ATK-1).

    Melee: CC; off hand −20 (D100-ATK-5, D100-TWO-2). Ranged: CT; off hand −20
    (D100-ATK-5); target engaged in melee −20 (D100-RANGED-4); beyond short range −20,
    up to twice the long range (D100-RANGED-5); the GM's modifier (D100-RANGED-6; for a
    melee attack it is cited as D100-ATK-1 « after modifiers »).

    Impossible attacks raise :class:`IllegalActionError`: a shot beyond twice the long
    range (D100-RANGED-5), by a shooter engaged in melee without a pistol or a hand
    crossbow (D100-RANGED-2), without a line of sight (D100-RANGED-3); a ``distance``
    given for a melee weapon (the attacker must be adjacent, D100-ATK-1).
    """
    w = get_weapon(rules.default_weapon if weapon is None else weapon, weapons)
    hand = _hand(hand)
    _flag(target_engaged, "cible engagée", "D100-RANGED-4")
    _flag(shooter_engaged, "tireur engagé", "D100-RANGED-2")
    _flag(line_of_sight, "ligne de vue", "D100-RANGED-3")
    gm_rule = "D100-RANGED-6" if w.ranged else "D100-ATK-1"
    if isinstance(gm_modifier, bool) or not isinstance(gm_modifier, int) \
            or not -100 <= gm_modifier <= 100:
        raise EscarmoucheError(
            f"modificateur du MJ = {gm_modifier!r} : un entier entre −100 et 100 est attendu "
            f"({gm_rule})",
            field="modificateur du MJ", value=gm_modifier, rule=gm_rule,
        )
    mods: list[Modifier] = []
    band: str | None = None
    if w.ranged:
        base_stat, rules_ids = "CT", ["D100-ATK-1"]
        if not line_of_sight:
            raise IllegalActionError(
                f"ligne de vue = non : « {attacker.name} » doit voir sa cible pour tirer "
                "(D100-RANGED-3)",
                field="ligne de vue", value=False, rule="D100-RANGED-3",
            )
        if shooter_engaged and not w.engaged_ok:
            raise IllegalActionError(
                f"tireur engagé = oui : « {attacker.name} » combat au corps à corps et ne "
                f"peut pas tirer avec « {w.label} » (seuls le pistolet et l’arbalète de poing "
                "le permettent) (D100-RANGED-2)",
                field="tireur engagé", value=True, rule="D100-RANGED-2",
            )
        if distance is None:
            raise EscarmoucheError(
                f"distance = manquante : un tir à « {w.label} » demande la distance de la "
                f"cible en mètres (portée {w.short_range}/{w.long_range}) (D100-RANGED-5)",
                field="distance", value=None, rule="D100-RANGED-5",
            )
        if isinstance(distance, bool) or not isinstance(distance, int | float) \
                or not distance >= 0:
            raise EscarmoucheError(
                f"distance = {distance!r} : une distance positive ou nulle en mètres est "
                "attendue (D100-RANGED-5)",
                field="distance", value=distance, rule="D100-RANGED-5",
            )
        reach = rules.max_range_factor * w.long_range
        if distance > reach:
            raise IllegalActionError(
                f"distance = {fr_int(distance)} m : au-delà de {rules.max_range_factor} fois la "
                f"longue portée de « {w.label} » ({w.short_range}/{w.long_range}, au plus "
                f"{reach} m), le tir est impossible (D100-RANGED-5)",
                field="distance", value=distance, rule="D100-RANGED-5",
            )
        if hand == "non_directrice":
            mods.append(Modifier("main non directrice", rules.off_hand_modifier,
                                 ("D100-ATK-5",)))
        if target_engaged:
            mods.append(Modifier("cible engagée au corps à corps",
                                 rules.shooting_into_melee_modifier, ("D100-RANGED-4",)))
        if distance <= w.short_range:
            band = "courte"
        else:
            band = "longue" if distance <= w.long_range else "désespérée"
            mods.append(Modifier("au-delà de la courte portée",
                                 rules.beyond_short_range_modifier, ("D100-RANGED-5",)))
            if band == "désespérée" and rules.desperate_shot_modifier:
                mods.append(Modifier("tir désespéré", rules.desperate_shot_modifier,
                                     ("D100-RANGED-5",)))
        rules_ids.append("D100-RANGED-5")
    else:
        base_stat, rules_ids = "CC", ["D100-ATK-1"]
        if distance is not None:
            raise IllegalActionError(
                f"distance = {distance!r} : sans objet pour « {w.label} », une arme de corps "
                "à corps ; l’attaquant doit être au contact de sa cible (D100-ATK-1)",
                field="distance", value=distance, rule="D100-ATK-1",
            )
        if hand == "non_directrice":
            mods.append(Modifier("main non directrice", rules.off_hand_modifier,
                                 ("D100-ATK-5", "D100-TWO-2")))
    if gm_modifier:
        mods.append(Modifier("modificateur du MJ", gm_modifier, (gm_rule,)))
    for m in mods:
        rules_ids.extend(r for r in m.rules if r not in rules_ids)
    return TargetNumber(base_stat, stat(attacker, base_stat), tuple(mods), band,
                        tuple(rules_ids))



# -- defences (D100-PARRY-*, D100-DODGE-*, D100-SURPRISE-1, D100-RANGED-1) -------------------


@dataclass(frozen=True, slots=True)
class Guard:
    """What the defender is entitled to when the attack comes (the encounter fills it in).

    ``parry_prepared``: a parry prepared beforehand (half action, D100-PARRY-2);
    ``two_weapons``: a weapon in each hand, so an off-hand parry as a free action
    (D100-PARRY-2); ``parries_used``/``dodges_used`` this round (D100-PARRY-3,
    D100-DODGE-2); ``surprised``: round 1 of a surprise, no defence (D100-SURPRISE-1).
    When both a prepared parry and two weapons are available, the prepared parry is the
    one used (``AttackSetup.parry_source``), and the encounter spends it.
    """

    parry_prepared: bool = False
    two_weapons: bool = False
    parries_used: int = 0
    dodges_used: int = 0
    surprised: bool = False


def defence_target(defender: Combatant, defence: str) -> TargetNumber | None:
    """The defence roll's target: CC for a parry (D100-PARRY-2), Ag for a dodge
    (D100-DODGE-1), ``None`` for « aucune »."""
    if defence == "parade":
        return TargetNumber("CC", stat(defender, "CC"), rules=("D100-PARRY-2",))
    if defence == "esquive":
        return TargetNumber("Ag", stat(defender, "Ag"), rules=("D100-DODGE-1",))
    if defence == "aucune":
        return None
    raise EscarmoucheError(
        f"défense = {defence!r} : « aucune », « parade » ou « esquive » attendu (D100-PARRY-1)",
        field="défense", value=defence, rule="D100-PARRY-1",
    )


def _check_defence(defender: Combatant, defence: str, guard: Guard, ranged: bool,
                   rules: Rules) -> str | None:
    """Raise unless ``defender`` may use ``defence``; return the parry's source."""
    defence_target(defender, defence)  # validates the name
    if defence == "aucune":
        return None
    who = f"« {defender.name} »"
    label = "parer" if defence == "parade" else "esquiver"
    if ranged:
        rule = "D100-PARRY-4" if defence == "parade" else "D100-DODGE-2"
        raise IllegalActionError(
            f"défense = {defence} : on ne peut ni parer ni esquiver un projectile "
            f"(D100-RANGED-1, {rule})",
            field="défense", value=defence, rule="D100-RANGED-1",
        )
    if guard.surprised and not rules.surprised_can_defend:
        raise IllegalActionError(
            f"défense = {defence} : {who} est surpris et ne peut ni parer ni esquiver pendant "
            "le premier round (D100-SURPRISE-1)",
            field="défense", value=defence, rule="D100-SURPRISE-1",
        )
    if defence == "parade":
        if guard.parries_used >= rules.parries_per_round:
            raise IllegalActionError(
                f"défense = parade : {who} a déjà paré {guard.parries_used} fois ce round ; "
                f"{rules.parries_per_round} parade(s) par round au plus (D100-PARRY-3)",
                field="défense", value=defence, rule="D100-PARRY-3",
            )
        if guard.parry_prepared:
            return "preparee"
        if guard.two_weapons:
            return "main_non_directrice"
        raise IllegalActionError(
            f"défense = parade : {who} ne peut pas {label} : il faut une parade préparée "
            "(demi-action) ou une arme dans chaque main (D100-PARRY-2)",
            field="défense", value=defence, rule="D100-PARRY-2",
        )
    if "esquive" not in defender.skills:
        raise IllegalActionError(
            f"défense = esquive : {who} n’a pas la compétence « esquive » (D100-DODGE-1)",
            field="défense", value=defence, rule="D100-DODGE-1",
        )
    if guard.dodges_used >= rules.dodges_per_round:
        raise IllegalActionError(
            f"défense = esquive : {who} a déjà esquivé {guard.dodges_used} fois ce round ; "
            f"{rules.dodges_per_round} esquive(s) par round au plus (D100-DODGE-2)",
            field="défense", value=defence, rule="D100-DODGE-2",
        )
    return None


# -- one attack, end to end (D100-ATK-1..7) -------------------------------------------------


@dataclass(frozen=True, slots=True)
class AttackSetup:
    """Every decision of one attack, checked, before any die is rolled.

    ``defender`` is the combatant the blow is aimed at after the rider-or-mount choice
    (D100-ATK-7); ``rider`` names the rider when the attacker aimed at the mount.
    ``wounds`` are the defender's B before the attack.
    """

    attacker: Combatant
    defender: Combatant
    weapon: Weapon
    hand: str
    target: TargetNumber
    defence: str
    defence_target: TargetNumber | None
    parry_source: str | None
    be: int
    wounds: int
    unreachable: frozenset[str]
    rider: str | None
    rules: tuple[str, ...]

    @property
    def ranged(self) -> bool:
        return self.weapon.ranged

    def armour(self, location: str) -> int:
        return armour_at(self.defender, location)

    def to_json(self) -> dict[str, Json]:
        return {
            "attacker": self.attacker.name,
            "defender": self.defender.name,
            "rider": self.rider,
            "weapon": self.weapon.id,
            "hand": self.hand,
            "ranged": self.ranged,
            "target": self.target.to_json(),
            "defence": self.defence,
            "defence_target": None if self.defence_target is None
            else self.defence_target.to_json(),
            "parry_source": self.parry_source,
            "be": self.be,
            "wounds": self.wounds,
            "unreachable": sorted(self.unreachable),
        }


def attack_setup(
    attacker: Combatant,
    defender: Combatant,
    weapon: str | Weapon | None = None,
    *,
    hand: str = "directrice",
    defence: str = "aucune",
    guard: Guard = Guard(),
    distance: float | None = None,
    target_engaged: bool = False,
    shooter_engaged: bool = False,
    line_of_sight: bool = True,
    gm_modifier: int = 0,
    unreachable: Iterable[str] = (),
    mount: Combatant | None = None,
    aim: str = "cavalier",
    wounds: int | None = None,
    rules: Rules = Rules(),
    weapons: Mapping[str, Weapon] = WEAPONS,
) -> AttackSetup:
    """Check and gather one attack's decisions (no dice): see :func:`target_number` for
    the modifiers, :class:`Guard` for the defence's conditions.

    ``defence`` is what the defender will try *if* the attack succeeds (D100-PARRY-1):
    « aucune », « parade » or « esquive »; its legality is checked now (a parry needs a
    prepared parry or two weapons, D100-PARRY-2; once per round, D100-PARRY-3; a dodge
    needs the skill « esquive », D100-DODGE-1, once per round, D100-DODGE-2; never
    against a projectile, D100-RANGED-1; never when surprised, D100-SURPRISE-1).
    ``mount``: ``defender``'s mount, and ``aim`` « cavalier » or « monture » the
    attacker's choice (D100-ATK-7). ``unreachable``: the zones the attacker cannot reach
    (D100-ATK-6). ``wounds``: the defender's current B (default: its stat B).
    """
    if attacker.name == defender.name:
        raise IllegalActionError(
            f"cible = « {defender.name} » : un combattant ne peut pas s’attaquer lui-même "
            "(D100-ATK-1)",
            field="cible", value=defender.name, rule="D100-ATK-1",
        )
    rule_ids = ["D100-ATK-1"]
    rider: str | None = None
    if aim not in AIMS:
        raise EscarmoucheError(
            f"visée = {aim!r} : « cavalier » ou « monture » attendu (D100-ATK-7)",
            field="visée", value=aim, rule="D100-ATK-7",
        )
    struck = defender
    if mount is not None:
        rule_ids.append("D100-ATK-7")
        if aim == "monture":
            rider, struck = defender.name, mount
            if mount.name == attacker.name:
                raise IllegalActionError(
                    f"cible = « {mount.name} » : un combattant ne peut pas s’attaquer lui-même "
                    "(D100-ATK-7)",
                    field="cible", value=mount.name, rule="D100-ATK-7",
                )
    elif aim == "monture":
        raise IllegalActionError(
            f"visée = monture : « {defender.name} » n’est pas monté (D100-ATK-7)",
            field="visée", value=aim, rule="D100-ATK-7",
        )
    target = target_number(
        attacker, weapon, hand=hand, distance=distance, target_engaged=target_engaged,
        shooter_engaged=shooter_engaged, line_of_sight=line_of_sight,
        gm_modifier=gm_modifier, rules=rules, weapons=weapons,
    )
    w = get_weapon(rules.default_weapon if weapon is None else weapon, weapons)
    rule_ids.extend(r for r in target.rules if r not in rule_ids)
    if not isinstance(guard, Guard):
        raise EscarmoucheError(
            f"garde = {guard!r} : une Guard est attendue (D100-PARRY-2)",
            field="garde", value=guard, rule="D100-PARRY-2",
        )
    source = _check_defence(struck, defence, guard, w.ranged, rules)
    if w.ranged:
        rule_ids.append("D100-RANGED-1")
    blocked = _unreachable(unreachable)
    for zone in LOCATIONS:
        armour_at(struck, zone)
    be = bonus(stat(struck, "E"))
    if wounds is None:
        wounds = stat(struck, "B")
    wounds = _bounded(struck.name, "B", wounds, 0, 1000, "D100-ATK-3")
    return AttackSetup(
        attacker=attacker, defender=struck, weapon=w, hand=_hand(hand), target=target,
        defence=defence, defence_target=defence_target(struck, defence),
        parry_source=source, be=be, wounds=wounds, unreachable=blocked, rider=rider,
        rules=tuple(rule_ids),
    )


class Outcome(StrEnum):
    """How an attack ends."""

    MISS = "manquee"
    PARRIED = "paree"
    DODGED = "esquivee"
    HIT = "touchee"


@dataclass(frozen=True, slots=True)
class AttackResult:
    """One attack resolved: every die, every step, the rule IDs and the GM's sentence.

    ``location_value`` is the reversed roll (D100-ATK-2), ``rolled_location`` its zone,
    ``location`` the zone hit after substitution (D100-ATK-6); ``raw_damage`` = d10 +
    weapon damage, ``armour`` the points on ``location``, ``wounds_lost`` the B lost
    (D100-ATK-3), ``wounds_left`` what remains. ``sentence`` is D100-ATK-4.
    """

    setup: AttackSetup
    attack_roll: int
    hit: bool
    defence_roll: int | None
    defended: bool
    location_value: int | None
    rolled_location: str | None
    location: str | None
    damage_roll: int | None
    raw_damage: int | None
    armour: int | None
    wounds_lost: int
    wounds_left: int
    outcome: Outcome
    rules: tuple[str, ...]
    sentence: str

    @property
    def substituted(self) -> bool:
        return self.location != self.rolled_location

    @property
    def dice(self) -> tuple[DieRecord, ...]:
        out = [DieRecord(100, self.attack_roll, "attaque")]
        if self.defence_roll is not None:
            out.append(DieRecord(100, self.defence_roll, self.setup.defence))
        if self.damage_roll is not None:
            out.append(DieRecord(10, self.damage_roll, "dégâts"))
        return tuple(out)

    def to_json(self) -> dict[str, Json]:
        return {
            **self.setup.to_json(),
            "attack_roll": self.attack_roll,
            "hit": self.hit,
            "defence_roll": self.defence_roll,
            "defended": self.defended,
            "location_value": self.location_value,
            "rolled_location": self.rolled_location,
            "location": self.location,
            "damage_roll": self.damage_roll,
            "weapon_damage": self.setup.weapon.damage,
            "raw_damage": self.raw_damage,
            "armour": self.armour,
            "wounds_lost": self.wounds_lost,
            "wounds_left": self.wounds_left,
            "outcome": self.outcome.value,
            "rules": list(self.rules),
            "sentence": self.sentence,
        }


def resolve_attack(
    setup: AttackSetup,
    attack_roll: int,
    defence_roll: int | None = None,
    damage_roll: int | None = None,
) -> AttackResult:
    """Resolve one attack from dice already rolled (D100-ATK-1..7, D100-PARRY-*, D100-DODGE-*).

    The attack d100 hits when ``attack_roll <= setup.target.total`` (D100-ATK-1). On a
    hit with a defence, the defence d100 succeeds when ``≤`` the defender's CC (parry,
    D100-PARRY-2: no damage) or Ag (dodge, D100-DODGE-1: the attack misses, no damage
    roll). Otherwise the zone is the attack roll reversed (D100-ATK-2), substituted when
    unreachable (D100-ATK-6), and the d10 gives the damage (D100-ATK-3). A die the
    resolution needs and that is missing raises; dice it does not need are ignored.
    """
    roll = _die(attack_roll, 100, "jet d’attaque", "D100-ATK-1")
    rule_ids = list(setup.rules)
    hit = setup.target.succeeds(roll)
    used_defence: int | None = None
    defended = False
    outcome = Outcome.HIT
    if not hit:
        outcome = Outcome.MISS
    elif setup.defence_target is not None:
        rule = "D100-PARRY-2" if setup.defence == "parade" else "D100-DODGE-1"
        if defence_roll is None:
            raise EscarmoucheError(
                f"jet de {setup.defence} = manquant : l’attaque touche ({roll} pour "
                f"{setup.target.total}) et « {setup.defender.name} » tente une "
                f"{setup.defence} ; un d100 est nécessaire ({rule})",
                field=f"jet de {setup.defence}", value=None, rule=rule,
            )
        used_defence = _die(defence_roll, 100, f"jet de {setup.defence}", rule)
        rule_ids += ["D100-PARRY-1", rule]
        rule_ids.append("D100-PARRY-3" if setup.defence == "parade" else "D100-DODGE-2")
        defended = setup.defence_target.succeeds(used_defence)
        if defended:
            outcome = Outcome.PARRIED if setup.defence == "parade" else Outcome.DODGED
    value = rolled = zone = None
    used_damage = raw = armour = None
    lost = 0
    if outcome is Outcome.HIT:
        value = reverse_digits(roll)
        rolled = location_of(value)
        zone = substitute_location(rolled, setup.unreachable)
        rule_ids.append("D100-ATK-2")
        if zone != rolled:
            rule_ids.append("D100-ATK-6")
        if damage_roll is None:
            raise EscarmoucheError(
                f"d10 de dégâts = manquant : l’attaque touche « {setup.defender.name} » "
                f"{zone} ; un d10 est nécessaire (D100-ATK-3)",
                field="d10 de dégâts", value=None, rule="D100-ATK-3",
            )
        used_damage = _die(damage_roll, 10, "d10 de dégâts", "D100-ATK-3")
        armour = setup.armour(zone)
        raw = used_damage + setup.weapon.damage
        lost = damage(used_damage, setup.weapon.damage, setup.be, armour)
        rule_ids.append("D100-ATK-3")
    rule_ids.append("D100-ATK-4")
    left = max(0, setup.wounds - lost)
    draft = AttackResult(
        setup=setup, attack_roll=roll, hit=hit, defence_roll=used_defence, defended=defended,
        location_value=value, rolled_location=rolled, location=zone, damage_roll=used_damage,
        raw_damage=raw, armour=armour, wounds_lost=lost, wounds_left=left, outcome=outcome,
        rules=tuple(dict.fromkeys(rule_ids)), sentence="",
    )
    return _with_sentence(draft)


def _with_sentence(result: AttackResult) -> AttackResult:
    return replace(result, sentence=attack_sentence(result))


def roll_attack(setup: AttackSetup, rng: Rng) -> AttackResult:
    """Roll and resolve one attack. Draw order: the attack d100; then, if it hits and the
    defender defends, the defence d100; then, if the blow lands, the damage d10."""
    roll = rng.randint(1, 100)
    defence_roll = damage_roll = None
    hit = setup.target.succeeds(roll)
    if hit and setup.defence_target is not None:
        defence_roll = rng.randint(1, 100)
    if hit and (defence_roll is None or setup.defence_target is None
                or not setup.defence_target.succeeds(defence_roll)):
        damage_roll = rng.randint(1, 10)
    return resolve_attack(setup, roll, defence_roll, damage_roll)


def hand_label(hand: str) -> str:
    return HAND_LABELS[_hand(hand)]

