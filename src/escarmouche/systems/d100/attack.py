"""One attack from end to end: target numbers with every modifier (D100-ATK-1/5,
D100-TWO-2, D100-RANGED-*), defences (D100-PARRY-*, D100-DODGE-*, D100-SURPRISE-1),
two-weapon legality (D100-TWO-1), hit location (D100-ATK-2, D100-ATK-6), damage
(D100-ATK-3), riders and mounts (D100-ATK-7) and the resolution itself (D100-ATK-1..7).

Pure functions of dice already rolled (:func:`hit_location`, :func:`damage`,
:func:`resolve_attack`) and the rolling wrapper :func:`roll_attack`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from escarmouche import checks
from escarmouche.errors import IllegalActionError, invalid, self_attack
from escarmouche.model import Combatant, DieRecord, Json
from escarmouche.render.table import Text
from escarmouche.rng import Rng
from escarmouche.systems.d100 import core
from escarmouche.systems.d100.narration import attack_sentence
from escarmouche.systems.d100.rules import (
    AIMS,
    DEFAULT_RULES,
    DEFENCES,
    HAND_LABELS,
    HANDS,
    LOCATIONS,
    MAIN_HAND_WEAPONS,
    NEAREST_LOCATIONS,
    OFF_HAND_WEAPONS,
    STATS,
    WEAPONS,
    Rules,
    Weapon,
    armour_at,
    bonus,
    get_weapon,
    stat,
    zone,
)
from escarmouche.text.fmt import join, number, plural, quote

__all__ = [
    "AttackResult",
    "AttackSetup",
    "Guard",
    "Modifier",
    "Outcome",
    "TargetNumber",
    "TwoWeapons",
    "attack_setup",
    "check_defence",
    "check_two_weapons",
    "damage",
    "defence_target",
    "hit_location",
    "location_of",
    "narrated",
    "resolve_attack",
    "reverse_digits",
    "roll_attack",
    "substitute_location",
    "target_number",
]

_ATTACK_DIE = core.ATTACK_DIE
_DAMAGE_DIE = core.DAMAGE_DIE


# -- hit location and damage (D100-ATK-2/3/6) ---------------------------------------------


def reverse_digits(roll: int) -> int:
    """D100-ATK-2: the d100 roll read with tens and units swapped: 37 → 73, 5 (« 05 »)
    → 50, 10 (« 10 ») → 1, 100 (« 00 ») → 100.

    >>> reverse_digits(37), reverse_digits(5), reverse_digits(100)
    (73, 50, 100)
    """
    return core.reversed_roll(checks.die("jet d’attaque", roll, _ATTACK_DIE, "D100-ATK-2"))


def location_of(value: int) -> str:
    """The zone of a (reversed) value 1–100 in the location table (D100-ATK-2)."""
    return core.zone_of(checks.die("localisation", value, 100, "D100-ATK-2"))


def hit_location(roll: int) -> str:
    """spec/API.md: the zone hit by an attack roll of ``roll`` (reversed digits, D100-ATK-2).

    >>> hit_location(37)
    'corps'
    """
    return location_of(reverse_digits(roll))


def _unreachable(zones: Iterable[str]) -> frozenset[str]:
    if isinstance(zones, str):
        zones = [zones]
    if not isinstance(zones, Iterable):
        raise invalid("inaccessibles", zones, "D100-ATK-6", "une liste de zones est attendue")
    out = frozenset(zone(z, "inaccessibles") for z in zones)
    if out == frozenset(LOCATIONS):
        raise invalid("inaccessibles", "toutes", "D100-ATK-6",
                      "l’attaquant ne peut atteindre aucune zone de sa cible")
    return out


def substitute_location(location: str, unreachable: Iterable[str] = ()) -> str:
    """D100-ATK-6: an unreachable zone becomes the nearest reachable one
    (:data:`~escarmouche.systems.d100.rules.NEAREST_LOCATIONS`); a reachable zone is kept."""
    z = zone(location)
    blocked = _unreachable(unreachable)
    if z not in blocked:
        return z
    return next(n for n in NEAREST_LOCATIONS[z] if n not in blocked)


def damage(d10: int, weapon: int, be: int, armour: int) -> int:
    """spec/API.md, D100-ATK-3: 1d10 + weapon damage − BE − armour points, never below 0
    *(ruling)*: the wounds (B) the target loses.

    >>> damage(4, 3, 3, 1)
    3
    """
    checks.die("d10 de dégâts", d10, _DAMAGE_DIE, "D100-ATK-3")
    checks.integer("dégâts de l’arme", weapon, lo=-20, hi=1000, rule="D100-ATK-3")
    checks.integer("BE", be, lo=0, hi=1000, rule="D100-ATK-3")
    checks.integer("armure", armour, lo=0, hi=1000, rule="D100-ATK-3")
    return core.wounds(d10, weapon, be, armour)


# -- two weapons (D100-TWO-1) --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TwoWeapons:
    """A legal two-weapon pair (D100-TWO-1)."""

    main: str
    off: str
    rules: tuple[str, ...] = ("D100-TWO-1",)


def _labels(ids: Iterable[str]) -> str:
    """The weapons ``ids`` as a choice, « « dague », « fleuret » ou « rapière » »."""
    return join([quote(w) for w in sorted(WEAPONS[i].label if i in WEAPONS else i
                                          for i in ids)], last="ou")


def check_two_weapons(
    main: str | Weapon, off: str | Weapon, weapons: Mapping[str, Weapon] = WEAPONS
) -> TwoWeapons:
    """D100-TWO-1: the main hand holds one of :data:`MAIN_HAND_WEAPONS` and the off hand
    one of :data:`OFF_HAND_WEAPONS`; otherwise two-weapon fighting is refused."""
    m, o = get_weapon(main, weapons), get_weapon(off, weapons)
    if m.id not in MAIN_HAND_WEAPONS:
        raise invalid("main directrice", m.label, "D100-TWO-1",
                      "pour combattre à deux armes, la main directrice doit tenir une arme à "
                      f"choisir parmi {_labels(MAIN_HAND_WEAPONS)}", kind=IllegalActionError)
    if o.id not in OFF_HAND_WEAPONS:
        raise invalid("main non directrice", o.label, "D100-TWO-1",
                      "pour combattre à deux armes, l’autre main doit tenir une arme à "
                      f"choisir parmi {_labels(OFF_HAND_WEAPONS)}", kind=IllegalActionError)
    return TwoWeapons(m.id, o.id)


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
        return core.succeeds(roll, self.total)

    def describe(self, label: str = "Seuil") -> str:
        """« Seuil d’attaque : CC 65 − 20 (main non directrice) = 45. »"""
        mods = "".join(f" {'+' if m.value >= 0 else '−'} {abs(m.value)} ({m.label})"
                       for m in self.modifiers)
        clamp = ""
        if self.total <= 0:
            clamp = " : aucun jet ne peut réussir"
        elif self.total >= 100:
            clamp = " : tout jet réussit"
        if not mods and not clamp:  # « CC 45 = 45 » said nothing the value does not
            return f"{label} : {self.stat} {self.base}."
        return f"{label} : {self.stat} {self.base}{mods} = {number(self.total)}{clamp}."

    def _repr_html_(self) -> str:
        return Text(self.describe())._repr_html_()

    def to_json(self) -> dict[str, Json]:
        return {
            "stat": self.stat, "base": self.base, "total": self.total,
            "modifiers": [m.to_json() for m in self.modifiers],
            "range_band": self.range_band, "rules": list(self.rules),
        }


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
    rules: Rules = DEFAULT_RULES,
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
    hand = checks.choice("main", hand, HANDS, "D100-ATK-5", labels=HAND_LABELS)
    checks.flag("cible_engagee", target_engaged, "D100-RANGED-4")
    checks.flag("tireur_engage", shooter_engaged, "D100-RANGED-2")
    checks.flag("ligne_de_vue", line_of_sight, "D100-RANGED-3")
    gm_rule = "D100-RANGED-6" if w.ranged else "D100-ATK-1"
    checks.integer("modificateur", gm_modifier, lo=-100, hi=100, rule=gm_rule)
    mods: list[Modifier] = []
    band: str | None = None
    if w.ranged:
        base_stat, rules_ids = "CT", ["D100-ATK-1"]
        if not line_of_sight:
            raise invalid("ligne_de_vue", False, "D100-RANGED-3",
                          f"{attacker.name} doit voir sa cible pour tirer",
                          kind=IllegalActionError)
        if shooter_engaged and not w.engaged_ok:
            raise invalid("tireur_engage", True, "D100-RANGED-2",
                          f"{attacker.name} combat au corps à corps et ne peut pas tirer "
                          f"avec {quote(w.label)} ; seuls le pistolet et l’arbalète de poing "
                          "le permettent", kind=IllegalActionError)
        if distance is None:
            raise invalid("distance", None, "D100-RANGED-5",
                          f"un tir à {quote(w.label)} demande la distance de la cible en "
                          f"mètres (portée {w.short_range}/{w.long_range})")
        dist = checks.real("distance", distance, lo=0, hi=1_000_000, rule="D100-RANGED-5")
        reach = rules.max_range_factor * w.long_range
        if dist > reach:
            raise invalid("distance", distance, "D100-RANGED-5",
                          f"au-delà de {rules.max_range_factor} fois la longue portée de "
                          f"{quote(w.label)} ({w.short_range}/{w.long_range}, au plus "
                          f"{number(reach)} m), le tir est impossible",
                          kind=IllegalActionError)
        if hand == "non_directrice":
            mods.append(Modifier("main non directrice", rules.off_hand_modifier,
                                 ("D100-ATK-5",)))
        if target_engaged:
            mods.append(Modifier("cible engagée au corps à corps",
                                 rules.shooting_into_melee_modifier, ("D100-RANGED-4",)))
        if dist <= w.short_range:
            band = "courte"
        else:
            band = "longue" if dist <= w.long_range else "désespérée"
            mods.append(Modifier("au-delà de la courte portée",
                                 rules.beyond_short_range_modifier, ("D100-RANGED-5",)))
            if band == "désespérée" and rules.desperate_shot_modifier:
                mods.append(Modifier("tir désespéré", rules.desperate_shot_modifier,
                                     ("D100-RANGED-5",)))
        rules_ids.append("D100-RANGED-5")
    else:
        base_stat, rules_ids = "CC", ["D100-ATK-1"]
        if distance is not None:
            raise invalid("distance", distance, "D100-ATK-1",
                          f"sans objet pour {quote(w.label)}, une arme de corps à corps ; "
                          "l’attaquant doit être au contact de sa cible",
                          kind=IllegalActionError)
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
    checks.choice("defense", defence, DEFENCES, "D100-PARRY-1")
    if defence == "parade":
        return TargetNumber("CC", stat(defender, "CC"), rules=("D100-PARRY-2",))
    if defence == "esquive":
        return TargetNumber("Ag", stat(defender, "Ag"), rules=("D100-DODGE-1",))
    return None


def check_defence(defender: Combatant, defence: str, guard: Guard, ranged: bool,
                  rules: Rules = DEFAULT_RULES) -> str | None:
    """Raise :class:`IllegalActionError` unless ``defender`` may use ``defence`` now;
    return the parry's source (« preparee » or « main_non_directrice »)."""
    defence_target(defender, defence)  # validates the name
    if defence == "aucune":
        return None
    who = defender.name

    illegal = IllegalActionError
    if ranged:
        rule = "D100-PARRY-4" if defence == "parade" else "D100-DODGE-2"
        raise invalid("defense", defence, "D100-RANGED-1",
                      f"on ne peut ni parer ni esquiver un projectile ; voir aussi {rule}",
                      kind=illegal)
    if guard.surprised and not rules.surprised_can_defend:
        raise invalid("defense", defence, "D100-SURPRISE-1",
                      f"{who} ne peut ni parer ni esquiver pendant le premier round, son camp "
                      "étant surpris, selon l’interprétation retenue de la règle", kind=illegal)
    if defence == "parade":
        if guard.parries_used >= rules.parries_per_round:
            raise invalid("defense", defence, "D100-PARRY-3",
                          f"{who} a déjà tenté {plural(guard.parries_used, 'parade')} ce "
                          f"round ; {plural(rules.parries_per_round, 'parade')} par round au "
                          "plus", kind=illegal)
        if guard.parry_prepared:
            return "preparee"
        if guard.two_weapons:
            return "main_non_directrice"
        raise invalid("defense", defence, "D100-PARRY-2",
                      f"{who} ne peut pas parer sans une parade préparée (demi-action) "
                      "ou une arme dans chaque main", kind=illegal)
    if "esquive" not in defender.skills:
        raise invalid("defense", defence, "D100-DODGE-1",
                      f"{who} n’a pas la compétence « esquive »", kind=illegal)
    if guard.dodges_used >= rules.dodges_per_round:
        raise invalid("defense", defence, "D100-DODGE-2",
                      f"{who} a déjà tenté {plural(guard.dodges_used, 'esquive')} ce "
                      f"round ; {plural(rules.dodges_per_round, 'esquive')} par round au plus",
                      kind=illegal)
    return None


# -- one attack, end to end (D100-ATK-1..7) -------------------------------------------------


#: each zone with its article, for sentences (« le coup porte sur le corps »)
_ZONE_ARTICLES = {"tête": "la tête", "bras droit": "le bras droit",
                  "bras gauche": "le bras gauche", "corps": "le corps",
                  "jambe droite": "la jambe droite", "jambe gauche": "la jambe gauche"}


def _the(zone: str) -> str:
    """« le corps », « la tête »; a zone of a designer's own table keeps its name."""
    return _ZONE_ARTICLES.get(zone, zone)


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

    def thresholds(self) -> list[str]:
        """The attack's target number and the defence's, each with its modifiers."""
        lines = [self.target.describe("Seuil d’attaque")]
        if self.defence_target is not None:
            source = {"preparee": "parade préparée", "main_non_directrice":
                      "parade de la main non directrice"}.get(self.parry_source or "", "")
            label = "Seuil de parade" if self.defence == "parade" else "Seuil d’esquive"
            lines.append(self.defence_target.describe(
                label + (f" ({source})" if source else "")))
        return lines

    def _repr_html_(self) -> str:
        return Text("\n".join(self.thresholds()))._repr_html_()

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
    rules: Rules = DEFAULT_RULES,
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
        raise self_attack(defender.name, "D100-ATK-1")
    rule_ids = ["D100-ATK-1"]
    rider: str | None = None
    checks.choice("visee", aim, AIMS, "D100-ATK-7")
    struck = defender
    if mount is not None:
        rule_ids.append("D100-ATK-7")
        if aim == "monture":
            rider, struck = defender.name, mount
            if mount.name == attacker.name:
                raise self_attack(mount.name, "D100-ATK-7")
    elif aim == "monture":
        raise invalid("visee", aim, "D100-ATK-7", f"{defender.name} n’est pas monté",
                      kind=IllegalActionError)
    target = target_number(
        attacker, weapon, hand=hand, distance=distance, target_engaged=target_engaged,
        shooter_engaged=shooter_engaged, line_of_sight=line_of_sight,
        gm_modifier=gm_modifier, rules=rules, weapons=weapons,
    )
    w = get_weapon(rules.default_weapon if weapon is None else weapon, weapons)
    rule_ids.extend(r for r in target.rules if r not in rule_ids)
    if not isinstance(guard, Guard):
        raise invalid("garde", guard, "D100-PARRY-2", "une Guard est attendue")
    source = check_defence(struck, defence, guard, w.ranged, rules)
    if w.ranged:
        rule_ids.append("D100-RANGED-1")
    blocked = _unreachable(unreachable)
    for z in LOCATIONS:
        armour_at(struck, z)
    be = bonus(stat(struck, "E"))
    if wounds is None:
        wounds = stat(struck, "B")
    wounds = checks.integer("B", wounds, lo=0, hi=STATS["B"][1], rule="D100-ATK-3",
                            who=struck.name)
    return AttackSetup(
        attacker=attacker, defender=struck, weapon=w, hand=hand, target=target,
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
    (D100-ATK-3), ``wounds_left`` what remains. ``sentence`` is D100-ATK-4. In a
    notebook it shows the sentence, then the steps (:meth:`steps`) and the rule IDs.
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
        out = [DieRecord(_ATTACK_DIE, self.attack_roll, "attaque")]
        if self.defence_roll is not None:
            out.append(DieRecord(100, self.defence_roll, self.setup.defence))
        if self.damage_roll is not None:
            out.append(DieRecord(_DAMAGE_DIE, self.damage_roll, "dégâts"))
        return tuple(out)

    def steps(self) -> list[str]:
        """The attack step by step, as a GM reads it: the thresholds, then the text's
        five steps, numbered as the text numbers them (D100-ATK-1 to D100-ATK-4: 1 jet
        d’attaque, 2 localisation, 3 dégâts, 4 protection, 5 bilan); a parry or a dodge,
        which the text describes apart (D100-PARRY-1), comes unnumbered after step 1."""
        s = self.setup
        lines = s.thresholds()
        verdict = "touche" if self.hit else "manque"
        lines.append(f"1. Jet d’attaque : {self.attack_roll} → {verdict} (D100-ATK-1).")
        if self.hit and s.defence_target is not None and self.defence_roll is not None:
            ok = "réussit" if self.defended else "échoue"
            jet, the = ("Jet de parade", "la parade") if s.defence == "parade" else (
                "Jet d’esquive", "l’esquive")
            rule = "D100-PARRY-2" if s.defence == "parade" else "D100-DODGE-1"
            lines.append(f"{jet} : {self.defence_roll} → {the} {ok} ({rule}).")
        elif self.hit and s.defence == "aucune":
            lines.append("Pas de défense.")
        if self.location is not None and self.location_value is not None:
            value = "00" if self.location_value == 100 else f"{self.location_value:02d}"
            where = f"{self.attack_roll} inversé → {value}, {self.rolled_location}"
            rules = "D100-ATK-2"
            if self.substituted:
                where += f", hors d’atteinte ; le coup porte sur {_the(self.location)}"
                rules += ", D100-ATK-6"
            lines.append(f"2. Localisation : {where} ({rules}).")
            lines.append(
                f"3. Dégâts : d10 {self.damage_roll} + arme {s.weapon.damage} = "
                f"{self.raw_damage} (D100-ATK-3).")
            lines.append(
                f"4. Protection : {self.raw_damage} − BE {s.be} − armure {self.armour} = "
                f"{plural(self.wounds_lost, 'blessure')}, jamais moins de 0 (D100-ATK-3).")
            lines.append(f"5. Bilan : il reste {self.wounds_left} B (D100-ATK-4).")
        return lines

    def _repr_html_(self) -> str:
        text = "\n".join([self.sentence, *self.steps(),
                          f"Règles appliquées : {join(self.rules)}."])
        return Text(text)._repr_html_()

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
    *,
    narrate: bool = True,
) -> AttackResult:
    """Resolve one attack from dice already rolled (D100-ATK-1..7, D100-PARRY-*, D100-DODGE-*).

    The attack d100 hits when ``attack_roll <= setup.target.total`` (D100-ATK-1). On a
    hit with a defence, the defence d100 succeeds when ``≤`` the defender's CC (parry,
    D100-PARRY-2: no damage) or Ag (dodge, D100-DODGE-1: the attack misses, no damage
    roll). Otherwise the zone is the attack roll reversed (D100-ATK-2), substituted when
    unreachable (D100-ATK-6), and the d10 gives the damage (D100-ATK-3). A die the
    resolution needs and that is missing raises; dice it does not need are ignored.
    ``narrate=False`` (simulation mode) leaves ``sentence`` empty (:func:`narrated`).
    """
    roll = checks.die("jet d’attaque", attack_roll, _ATTACK_DIE, "D100-ATK-1")
    rule_ids = list(setup.rules)
    hit = setup.target.succeeds(roll)
    used_defence: int | None = None
    defended = False
    outcome = Outcome.HIT
    if not hit:
        outcome = Outcome.MISS
    elif setup.defence_target is not None:
        rule = "D100-PARRY-2" if setup.defence == "parade" else "D100-DODGE-1"
        field = f"jet de {setup.defence}"
        if defence_roll is None:
            raise invalid(field, None, rule,
                          f"l’attaque touche ({roll} pour {number(setup.target.total)}) et "
                          f"{setup.defender.name} tente une {setup.defence}, un d100 est "
                          "nécessaire")
        used_defence = checks.die(field, defence_roll, 100, rule)
        rule_ids += ["D100-PARRY-1", rule]
        rule_ids.append("D100-PARRY-3" if setup.defence == "parade" else "D100-DODGE-2")
        defended = setup.defence_target.succeeds(used_defence)
        if defended:
            outcome = Outcome.PARRIED if setup.defence == "parade" else Outcome.DODGED
    value = rolled = where = None
    used_damage = raw = armour = None
    lost = 0
    if outcome is Outcome.HIT:
        # (the dice checked above, the setup checked when built: the arithmetic of
        # .core, as the documented reverse_digits, location_of, substitute_location and
        # damage give it)
        value = core.reversed_roll(roll)
        rolled = core.zone_of(value)
        where = rolled if rolled not in setup.unreachable else next(
            n for n in NEAREST_LOCATIONS[rolled] if n not in setup.unreachable)
        rule_ids.append("D100-ATK-2")
        if where != rolled:
            rule_ids.append("D100-ATK-6")
        if damage_roll is None:
            raise invalid("d10 de dégâts", None, "D100-ATK-3",
                          f"l’attaque touche {setup.defender.name} ({where}), un d10 est "
                          "nécessaire")
        used_damage = checks.die("d10 de dégâts", damage_roll, _DAMAGE_DIE, "D100-ATK-3")
        armour = setup.armour(where)
        raw = used_damage + setup.weapon.damage
        lost = core.wounds(used_damage, setup.weapon.damage, setup.be, armour)
        rule_ids.append("D100-ATK-3")
    rule_ids.append("D100-ATK-4")
    left = max(0, setup.wounds - lost)
    draft = AttackResult(
        setup=setup, attack_roll=roll, hit=hit, defence_roll=used_defence, defended=defended,
        location_value=value, rolled_location=rolled, location=where,
        damage_roll=used_damage, raw_damage=raw, armour=armour, wounds_lost=lost,
        wounds_left=left, outcome=outcome, rules=tuple(dict.fromkeys(rule_ids)), sentence="",
    )
    return narrated(draft) if narrate else draft


def narrated(result: AttackResult) -> AttackResult:
    """``result`` with its sentence (D100-ATK-4), written in if it has none yet."""
    if not result.sentence:  # the sentence reads its result: written in while fresh
        object.__setattr__(result, "sentence", attack_sentence(result))
    return result


def roll_attack(setup: AttackSetup, rng: Rng, *, narrate: bool = True) -> AttackResult:
    """Roll and resolve one attack. Draw order: the attack d100; then, if it hits and the
    defender defends, the defence d100; then, if the blow lands, the damage d10."""
    defence = None if setup.defence_target is None else setup.defence_target.total
    roll, defence_roll, damage_roll = core.attack_dice(rng.randint, setup.target.total,
                                                       defence)
    return resolve_attack(setup, roll, defence_roll, damage_roll, narrate=narrate)

