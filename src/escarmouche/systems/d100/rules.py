"""The options of the d100 system and its rules as data (seed 001).

Everything a designer may want to edit is a module-level value here, not an if-chain:
the options (:class:`Rules`, each declared on its field), the stats
(:data:`STATS`), the hit-location table (D100-ATK-2), the nearest-location substitution
order (D100-ATK-6), the hands, the weapon catalogue (D100-ATK-3, D100-RANGED-2/5), the
two weapon lists (D100-TWO-1) and the costs of the actions (D100-ACT-1..4). The tables
are read-only (``MappingProxyType`` / ``frozenset`` / tuples); build a changed copy and
pass it where a function accepts a ``catalogue=`` or ``weapons=`` argument.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar

from escarmouche import checks
from escarmouche.errors import invalid
from escarmouche.memo import Memo
from escarmouche.model import Combatant, Json
from escarmouche.options import check_options, option
from escarmouche.render.table import OptionsTable
from escarmouche.text.fmt import join, quote

__all__ = [
    "ACTION_DEFS",
    "AIMS",
    "ARMOUR_MAX",
    "COSTS",
    "COST_HALVES",
    "COST_LABELS",
    "DEFAULT_RULES",
    "DEFENCES",
    "HANDS",
    "HAND_LABELS",
    "LOCATIONS",
    "LOCATION_ARMOUR_KEYS",
    "LOCATION_AT",
    "LOCATION_TABLE",
    "MAIN_HAND_WEAPONS",
    "NEAREST_LOCATIONS",
    "OFF_HAND_WEAPONS",
    "STATS",
    "TRACK",
    "WEAPONS",
    "WEAPON_KEYS",
    "ActionDef",
    "Rules",
    "Weapon",
    "armour_at",
    "bonus",
    "fold",
    "get_weapon",
    "hand_label",
    "stat",
    "validate_combatant",
    "zone",
]


def fold(text: str) -> str:
    """An ASCII identifier for a French name: « Arme à une main » → ``arme_a_une_main``.

    >>> fold("Arme à une main")
    'arme_a_une_main'
    """
    return _fold(text) if type(text) is str else _fold.__wrapped__(text)


@functools.lru_cache(maxsize=4096)
def _fold(text: str) -> str:
    # cached: zones and weapons are looked up by name on every attack (simulation speed)
    decomposed = unicodedata.normalize("NFKD", text)
    ascii_only = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return re.sub(r"[^a-z0-9]+", "_", ascii_only.casefold()).strip("_")


#: the damage track: B, the wounds (D100-ATK-3)
TRACK = "B"


# -- hit locations (D100-ATK-2, D100-ATK-3, D100-ATK-6) ------------------------------------

#: the location table: (highest reversed value, zone), in ascending order (D100-ATK-2)
LOCATION_TABLE: tuple[tuple[int, str], ...] = (
    (15, "tête"),
    (35, "bras droit"),
    (55, "bras gauche"),
    (80, "corps"),
    (90, "jambe droite"),
    (100, "jambe gauche"),
)

#: the six zones, in table order
LOCATIONS: tuple[str, ...] = tuple(z for _, z in LOCATION_TABLE)

#: « au bras gauche », « à la tête »: the zone as the GM's sentence says it (D100-ATK-4)
LOCATION_AT: Mapping[str, str] = MappingProxyType({
    "tête": "à la tête",
    "bras droit": "au bras droit",
    "bras gauche": "au bras gauche",
    "corps": "au corps",
    "jambe droite": "à la jambe droite",
    "jambe gauche": "à la jambe gauche",
})

#: the stat key holding a zone's own armour points; ``PA`` covers every zone that has no
#: key of its own (D100-ATK-3)
LOCATION_ARMOUR_KEYS: Mapping[str, str] = MappingProxyType(
    {z: "PA_" + fold(z) for z in LOCATIONS}
)

#: D100-ATK-6: for each zone, the other zones from nearest to farthest. An unreachable
#: zone is replaced by the first reachable one of its list (a halfling's blow to a
#: giant's head lands on the body). Anatomical adjacency: head, arms and legs all join
#: the body; an arm is then nearer the head than the legs.
NEAREST_LOCATIONS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "tête": ("corps", "bras droit", "bras gauche", "jambe droite", "jambe gauche"),
    "bras droit": ("corps", "tête", "bras gauche", "jambe droite", "jambe gauche"),
    "bras gauche": ("corps", "tête", "bras droit", "jambe gauche", "jambe droite"),
    "corps": ("bras droit", "bras gauche", "jambe droite", "jambe gauche", "tête"),
    "jambe droite": ("corps", "jambe gauche", "bras droit", "bras gauche", "tête"),
    "jambe gauche": ("corps", "jambe droite", "bras gauche", "bras droit", "tête"),
})

_LOCATION_BY_FOLD = {fold(z): z for z in LOCATIONS}


def zone(name: object, field: str = "zone") -> str:
    """A zone of the table by its name, accents and case ignored (« tete » → « tête »)."""
    if isinstance(name, str) and fold(name) in _LOCATION_BY_FOLD:
        return _LOCATION_BY_FOLD[fold(name)]
    raise invalid(field, name, "D100-ATK-6",
                  f"zone inconnue ; zones : {join(quote(z) for z in LOCATIONS)}")


# -- hands, defences, aims ------------------------------------------------------------------

#: the two hands: « main directrice » and « main non directrice » (D100-ATK-5, D100-TWO-*)
HANDS: tuple[str, ...] = ("directrice", "non_directrice")
HAND_LABELS: Mapping[str, str] = MappingProxyType({
    "directrice": "main directrice",
    "non_directrice": "main non directrice",
})

#: the defence choices after a successful attack (D100-PARRY-1, spec/API.md ``attack_odds``)
DEFENCES: tuple[str, ...] = ("aucune", "parade", "esquive")

#: D100-ATK-7: who the attacker aims at when the target is mounted
AIMS: tuple[str, ...] = ("cavalier", "monture")


def hand_label(hand: str) -> str:
    """« main directrice » or « main non directrice » (D100-ATK-5)."""
    return HAND_LABELS[checks.choice("main", hand, HANDS, "D100-ATK-5", labels=HAND_LABELS)]


# -- weapons (D100-ATK-3, D100-RANGED-2/5, D100-TWO-1, D100-ACT-4) --------------------------


@dataclass(frozen=True, slots=True)
class Weapon:
    """One entry of the weapon catalogue.

    ``damage`` is the weapon damage added to the d10 (D100-ATK-3). A ranged weapon has
    ``short_range``/``long_range`` in metres (written « 24/48 », D100-RANGED-5), may be fired
    while engaged in melee only if ``engaged_ok`` (pistol, hand crossbow, D100-RANGED-2),
    and needs ``reload`` half actions to reload after each shot (0: none; more than 1 makes
    « recharger » an extended action, D100-ACT-4).
    """

    id: str
    label: str
    damage: int
    ranged: bool = False
    short_range: int = 0
    long_range: int = 0
    engaged_ok: bool = False
    reload: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not self.id or fold(self.id) != self.id:
            raise invalid("arme", self.id, "D100-ATK-3",
                          "un identifiant ASCII en minuscules est attendu, par exemple "
                          "« arme_a_une_main »")
        who = f"l’arme {quote(self.label)}"
        checks.integer("dégâts", self.damage, lo=-20, hi=50, rule="D100-ATK-3", who=who)
        for key, what in (("short_range", "courte portée"), ("long_range", "longue portée")):
            checks.integer(what, getattr(self, key), lo=0, hi=10_000, rule="D100-RANGED-5",
                           who=who)
        checks.integer("rechargement", self.reload, lo=0, hi=20, rule="D100-ACT-4", who=who)
        if self.ranged and not 0 < self.short_range <= self.long_range:
            raise invalid("portée", f"{self.short_range}/{self.long_range}", "D100-RANGED-5",
                          f"une courte portée positive, au plus égale à la longue, est "
                          f"attendue pour {who}")

    @property
    def extended_reload(self) -> bool:
        """Reloading takes more than one half action: an extended action (D100-ACT-4)."""
        return self.reload > 1

    def to_json(self) -> dict[str, Json]:
        """The description with the French keys of :data:`WEAPON_KEYS` (the ``armes``
        start option takes the same form)."""
        return {key: getattr(self, attr) for key, attr in WEAPON_KEYS.items()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Weapon:
        """A weapon from its French description: ``id`` and ``degats`` are required;
        ``nom``, ``tir``, ``courte_portee``, ``longue_portee``, ``tir_en_melee`` and
        ``rechargement`` are optional (:data:`WEAPON_KEYS`)."""
        checks.mapping("arme", data, "D100-ATK-3")
        for key in data:
            checks.choice("champ d’arme", key, tuple(WEAPON_KEYS), "D100-ATK-3")
        if "id" not in data or "degats" not in data:
            raise invalid("arme", data.get("id"), "D100-ATK-3",
                          "description incomplète : « id » et « degats » sont requis")
        return cls(
            id=data["id"], label=str(data.get("nom", data["id"])),
            damage=data["degats"], ranged=checks.flag("tir", data.get("tir", False),
                                                      "D100-RANGED-5"),
            short_range=data.get("courte_portee", 0), long_range=data.get("longue_portee", 0),
            engaged_ok=checks.flag("tir_en_melee", data.get("tir_en_melee", False),
                                   "D100-RANGED-2"),
            reload=data.get("rechargement", 0),
        )


#: the French keys of a weapon description (``armes`` start option, saves) → the
#: :class:`Weapon` field each one fills
WEAPON_KEYS: Mapping[str, str] = MappingProxyType({
    "id": "id", "nom": "label", "degats": "damage", "tir": "ranged",
    "courte_portee": "short_range", "longue_portee": "long_range",
    "tir_en_melee": "engaged_ok", "rechargement": "reload",
})


def _weapons(*weapons: Weapon) -> Mapping[str, Weapon]:
    return MappingProxyType({w.id: w for w in weapons})


#: The weapon catalogue. The seed gives no weapon values: these damage bonuses, ranges
#: (the bow's 24/48 included: the text only says that a range is written as two
#: numbers) and reload times are illustrative
#: defaults in the spirit of the original edition, meant to be edited.
WEAPONS: Mapping[str, Weapon] = _weapons(
    Weapon("mains_nues", "mains nues", 0),
    Weapon("dague", "dague", 1),
    Weapon("main_gauche", "main gauche", 1),
    Weapon("brise_lame", "brise-lame", 1),
    Weapon("rondache", "rondache", 0),
    Weapon("bouclier", "bouclier", 1),
    Weapon("fleuret", "fleuret", 2),
    Weapon("rapiere", "rapière", 3),
    Weapon("arme_a_une_main", "arme à une main", 3),
    Weapon("morgenstern", "morgenstern", 4),
    Weapon("fleau", "fléau", 5),
    Weapon("arme_a_deux_mains", "arme à deux mains", 5),
    Weapon("arc", "arc", 3, ranged=True, short_range=24, long_range=48, reload=1),
    Weapon("arc_long", "arc long", 3, ranged=True, short_range=30, long_range=60, reload=1),
    Weapon("fronde", "fronde", 2, ranged=True, short_range=16, long_range=32, reload=1),
    Weapon("arbalete", "arbalète", 4, ranged=True, short_range=30, long_range=60, reload=2),
    Weapon("arbalete_de_poing", "arbalète de poing", 2, ranged=True, short_range=8,
           long_range=16, engaged_ok=True, reload=2),
    Weapon("pistolet", "pistolet", 4, ranged=True, short_range=8, long_range=16,
           engaged_ok=True, reload=4),
)

#: D100-TWO-1: to fight with two weapons, the main hand holds one of these …
MAIN_HAND_WEAPONS: frozenset[str] = frozenset(
    {"dague", "fleau", "fleuret", "arme_a_une_main", "morgenstern", "rapiere"}
)
#: … and the off hand one of these.
OFF_HAND_WEAPONS: frozenset[str] = frozenset(
    {"rondache", "dague", "arme_a_une_main", "main_gauche", "bouclier", "brise_lame"}
)


def get_weapon(weapon: str | Weapon, weapons: Mapping[str, Weapon] = WEAPONS) -> Weapon:
    """A weapon of the catalogue by id or French name (« arme à une main », « fléau »)."""
    if isinstance(weapon, Weapon):
        return weapon
    if isinstance(weapon, str):
        found = weapons.get(fold(weapon))
        if found is not None:
            return found
    raise invalid("arme", weapon, "D100-ATK-3",
                  "arme inconnue, à choisir parmi "
                  f"{join([quote(w.label) for w in weapons.values()], last='ou')}")


# -- the costs of the actions (D100-ACT-1..4) -------------------------------------------------

#: the three costs of D100-ACT-1 and what each uses of the turn's two half actions
COSTS: tuple[str, ...] = ("complete", "demi", "gratuite")
COST_HALVES: Mapping[str, int] = MappingProxyType({"complete": 2, "demi": 1, "gratuite": 0})
COST_LABELS: Mapping[str, str] = MappingProxyType({
    "complete": "action complète",
    "demi": "demi-action",
    "gratuite": "action gratuite",
})


@dataclass(frozen=True, slots=True)
class ActionDef:
    """The rules data of one action (D100-ACT-3): what a turn plan needs to know.

    ``cost`` is ``"complete"``, ``"demi"`` or ``"gratuite"``. An action counts as an attack
    action when its French name contains « attaque » or when ``attack`` is set (Charge)
    (D100-ACT-2); ``casting`` marks incantation actions. ``extended`` actions may take
    several half actions in a row, which must not be interrupted (D100-ACT-4).
    ``reaction`` actions are only taken in answer to an attack (dodge, off-hand parry).
    ``kind`` names the resolver that plays it; ``ranged_ok`` whether a shot may use it.
    """

    id: str
    label: str
    cost: str
    kind: str = "generique"
    attack: bool = False
    casting: bool = False
    extended: bool = False
    reaction: bool = False
    ranged_ok: bool = False
    rules: tuple[str, ...] = ("D100-ACT-3",)

    def __post_init__(self) -> None:
        checks.choice("coût", self.cost, COSTS, "D100-ACT-1", labels=COST_LABELS)

    @property
    def is_attack(self) -> bool:
        """D100-ACT-2: « attaque » in the name, or Charge."""
        return self.attack or "attaque" in fold(self.label)

    @property
    def halves(self) -> int:
        return COST_HALVES[self.cost]


def _defs(*defs: ActionDef) -> Mapping[str, ActionDef]:
    return MappingProxyType({d.id: d for d in defs})


#: The costs of the actions (D100-ACT-3), from the original edition. Jumps are not in
#: the text's list; they are half actions here (*ruling*: a jump is a movement). The
#: catalogue of :mod:`~escarmouche.systems.d100.actions` is built from this table.
ACTION_DEFS: Mapping[str, ActionDef] = _defs(
    ActionDef("attaquer", "attaque standard", "demi", "attaquer", ranged_ok=True),
    ActionDef("viser", "viser", "demi"),
    ActionDef("se_deplacer", "se déplacer", "demi"),
    ActionDef("degainer", "dégainer", "demi", "degainer"),
    ActionDef("preparer_parade", "préparer une parade", "demi", "preparer_parade",
              rules=("D100-ACT-3", "D100-PARRY-2")),
    ActionDef("recharger", "recharger", "demi", "recharger", extended=True,
              rules=("D100-ACT-3", "D100-ACT-4")),
    ActionDef("incantation", "incantation", "demi", "incantation", casting=True, extended=True,
              rules=("D100-ACT-3", "D100-ACT-2")),
    ActionDef("charge", "charge", "complete", "attaquer", attack=True,
              rules=("D100-ACT-3", "D100-ACT-2")),
    ActionDef("attaque_brutale", "attaque brutale", "complete", "attaquer"),
    ActionDef("attaque_prudente", "attaque prudente", "complete", "attaquer"),
    ActionDef("attaque_rapide", "attaque rapide", "complete", "attaquer"),
    ActionDef("course", "course", "complete"),
    ActionDef("saut", "saut (descente contrôlée)", "demi", "saut",
              rules=("D100-ACT-3", "D100-JUMP-1")),
    ActionDef("saut_en_longueur", "saut en longueur", "demi", "saut_en_longueur",
              rules=("D100-ACT-3", "D100-JUMP-2")),
    ActionDef("parler", "parler", "gratuite"),
    ActionDef("crier", "crier", "gratuite"),
    ActionDef("lacher", "lâcher un objet", "gratuite", "lacher"),
    ActionDef("abandonner", "abandonner l’action étendue", "gratuite", "abandonner",
              rules=("D100-ACT-4",)),
    ActionDef("esquive", "esquive", "gratuite", "reaction", reaction=True,
              rules=("D100-ACT-3", "D100-DODGE-1")),
    ActionDef("parade_main_non_directrice", "parade à la main non directrice", "gratuite",
              "reaction", reaction=True, rules=("D100-ACT-3", "D100-PARRY-2")),
)


# -- options ---------------------------------------------------------------------------------

#: the bounds of each integer option, and the rule it belongs to
@dataclass(frozen=True, slots=True)
class Rules(OptionsTable):
    """The d100 options: the modifiers of the text and the rulings of RULES.md.

    RULES.md marks no d100 ruling *(option)*; the modifiers (all −20 in the text) and the
    rulings a designer may want to switch are fields here, with the RULES.md defaults.
    Each option is declared once, on its field (:func:`escarmouche.options.option`);
    in a notebook, the options show as a French table (:meth:`table`).
    """

    options_title: ClassVar[str] = "Options du système d100"

    #: D100-ATK-5 / D100-TWO-2: attack with the off hand (melee or ranged)
    off_hand_modifier: int = option(
        -20, label="malus de la main non directrice", key="malus_main_non_directrice",
        rules=("D100-ATK-5",), lo=-100, hi=100)
    #: D100-RANGED-4: shooting at a target engaged in melee
    shooting_into_melee_modifier: int = option(
        -20, label="malus de tir sur une cible engagée", key="malus_tir_sur_engage",
        rules=("D100-RANGED-4",), lo=-100, hi=100)
    #: D100-RANGED-5: shooting beyond the short range
    beyond_short_range_modifier: int = option(
        -20, label="malus au-delà de la courte portée", key="malus_au_dela_courte_portee",
        rules=("D100-RANGED-5",), lo=-100, hi=100)
    #: D100-RANGED-5 *(ruling)*: extra modifier beyond the long range (desperate shot);
    #: 0 = « still −20, the only penalty the text gives »
    desperate_shot_modifier: int = option(
        0, label="malus propre au tir désespéré", key="malus_tir_desespere",
        rules=("D100-RANGED-5",), lo=-100, hi=100)
    #: D100-RANGED-5: a shot may reach this many times the long range, not farther
    max_range_factor: int = option(
        2, label="portée maximale, en multiple de la longue portée",
        key="facteur_portee_max", rules=("D100-RANGED-5",), lo=1, hi=10)
    #: D100-SURPRISE-1 *(ruling)*: whether the surprised may parry or dodge in round 1
    surprised_can_defend: bool = option(
        False, label="un surpris peut parer ou esquiver", key="surpris_peut_se_defendre",
        rules=("D100-SURPRISE-1",))
    #: D100-PARRY-3 / D100-DODGE-2: parries and dodges per round
    parries_per_round: int = option(
        1, label="parades par round", key="parades_par_round", rules=("D100-PARRY-3",),
        lo=0, hi=10)
    dodges_per_round: int = option(
        1, label="esquives par round", key="esquives_par_round", rules=("D100-DODGE-2",),
        lo=0, hi=10)
    #: D100-JUMP-1 *(ruling)*: one Ag test per started step of this many metres
    drop_step: int = option(
        3, label="mètres par test d’Ag d’une descente", key="metres_par_test_descente",
        rules=("D100-JUMP-1",), lo=1, hi=100)
    #: D100-JUMP-2: minimum run-up (metres) for a long jump
    long_jump_run_up: int = option(
        4, label="élan minimal d’un saut en longueur, en mètres",
        key="elan_saut_en_longueur", rules=("D100-JUMP-2",), lo=0, hi=100)
    #: D100-JUMP-2 *(ruling)*: one degree of failure per started step of this size
    failure_degree: int = option(
        10, label="points d’échec par degré d’échec", key="points_par_degre_echec",
        rules=("D100-JUMP-2",), lo=1, hi=100)
    #: the weapon a fighter holds in the main hand when the encounter is given none
    default_weapon: str = option(
        "arme_a_une_main", label="arme en main par défaut", key="arme_par_defaut",
        rules=("D100-ATK-3",), choices={w.id: w.label for w in WEAPONS.values()})

    def __post_init__(self) -> None:
        check_options(self)


#: the defaults of RULES.md (a module-level value, usable as a default argument)
DEFAULT_RULES = Rules()


# -- stats -----------------------------------------------------------------------------------

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
#: the most armour points on one zone
ARMOUR_MAX = 100


#: the answers already given about a combatant (frozen, so each a pure function of it,
#: which owns them by identity): its stats, its armour by zone, the defences it may use
#: (:func:`~escarmouche.systems.d100.actions.allowed_defences`); a refusal is never kept
COMBATANT_ANSWERS: Memo[Any] = Memo(4096)


def stat(combatant: Combatant, key: str) -> int:
    """A d100 stat of ``combatant``, checked against its bounds (0–100 for percentages)."""
    if type(key) is str:
        known: int | None = COMBATANT_ANSWERS.get(key, combatant)
        if known is None:
            known = COMBATANT_ANSWERS.put(key, _stat(combatant, key), combatant)
        return known
    return _stat(combatant, key)


def _stat(combatant: Combatant, key: str) -> int:
    lo, hi, rule = STATS[key]
    if key not in combatant.stats:
        raise invalid(key, None, rule,
                      f"caractéristique manquante pour {combatant.name} ; le système d100 "
                      "la demande")
    return checks.integer(key, combatant.stats[key], lo=lo, hi=hi, rule=rule,
                          who=combatant.name)


def bonus(value: int) -> int:
    """The bonus of a percentage: BF = F // 10, BE = E // 10.

    >>> bonus(45)
    4
    """
    return value // 10


def armour_at(combatant: Combatant, location: str) -> int:
    """Armour points on ``location`` (D100-ATK-3).

    A combatant carries armour as stats: ``PA_<zone>`` (``PA_tete``, ``PA_bras_droit``,
    ``PA_bras_gauche``, ``PA_corps``, ``PA_jambe_droite``, ``PA_jambe_gauche``) for one
    zone, and ``PA`` for every zone without its own key; none means 0.
    """
    if type(location) is not str:
        return _armour_at(combatant, location)
    known: int | None = COMBATANT_ANSWERS.get(("PA", location), combatant)
    if known is None:
        known = COMBATANT_ANSWERS.put(("PA", location), _armour_at(combatant, location),
                                      combatant)
    return known


def _armour_at(combatant: Combatant, location: str) -> int:
    key = LOCATION_ARMOUR_KEYS[zone(location)]
    for k in (key, "PA"):
        if k in combatant.stats:
            return checks.integer(k, combatant.stats[k], lo=0, hi=ARMOUR_MAX,
                                  rule="D100-ATK-3", who=combatant.name)
    return 0


def validate_combatant(combatant: Combatant) -> None:
    """Every stat the encounter needs, in its bounds, and well-named armour keys."""
    for key in STATS:
        stat(combatant, key)
    checks.integer("B", combatant.stats["B"], lo=1, hi=STATS["B"][1], rule="D100-ATK-3",
                   who=combatant.name)
    armour_keys = ("PA", *LOCATION_ARMOUR_KEYS.values())
    for key in combatant.stats:
        if key.startswith("PA"):
            checks.choice("clé d’armure", key, armour_keys, "D100-ATK-3")
    for z in LOCATIONS:
        armour_at(combatant, z)
