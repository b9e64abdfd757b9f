"""The d100 rules as data: locations, weapons, two-weapon lists, actions (seed 001).

Everything a designer may want to edit is a module-level table here, not an if-chain:
the hit-location table (D100-ATK-2), the nearest-location substitution order
(D100-ATK-6), the weapon catalogue (D100-ATK-3, D100-RANGED-2/5), the two weapon lists
(D100-TWO-1) and the action catalogue (D100-ACT-1..4). The tables are read-only
(``MappingProxyType`` / ``frozenset`` / tuples); build a changed copy and pass it where a
function accepts a ``catalogue=`` or ``weapons=`` argument.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from escarmouche.errors import EscarmoucheError
from escarmouche.model import Json

__all__ = [
    "ACTIONS",
    "COSTS",
    "COST_HALVES",
    "COST_LABELS",
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
    "WEAPONS",
    "ActionDef",
    "Weapon",
    "fold",
]


def fold(text: str) -> str:
    """An ASCII identifier for a French name: « Arme à une main » → ``arme_a_une_main``."""
    decomposed = unicodedata.normalize("NFKD", text)
    ascii_only = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return re.sub(r"[^a-z0-9]+", "_", ascii_only.casefold()).strip("_")


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
LOCATIONS: tuple[str, ...] = tuple(zone for _, zone in LOCATION_TABLE)

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
    {zone: "PA_" + fold(zone) for zone in LOCATIONS}
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


# -- hands and defences ---------------------------------------------------------------------

#: the two hands: « main directrice » and « main non directrice » (D100-ATK-5, D100-TWO-*)
HANDS: tuple[str, ...] = ("directrice", "non_directrice")
HAND_LABELS: Mapping[str, str] = MappingProxyType({
    "directrice": "main directrice",
    "non_directrice": "main non directrice",
})

#: the defence choices after a successful attack (D100-PARRY-1, API.md ``attack_odds``)
DEFENCES: tuple[str, ...] = ("aucune", "parade", "esquive")


# -- weapons (D100-ATK-3, D100-RANGED-2/5, D100-TWO-1, D100-ACT-4) --------------------------


@dataclass(frozen=True, slots=True)
class Weapon:
    """One entry of the weapon catalogue.

    ``damage`` is the weapon damage added to the d10 (D100-ATK-3). A ranged weapon has
    ``short_range``/``long_range`` in metres (« 24/48 », D100-RANGED-5), may be fired
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
        if not self.id or fold(self.id) != self.id:
            raise EscarmoucheError(
                f"arme = {self.id!r} : identifiant ASCII en minuscules attendu, par exemple "
                "« arme_a_une_main » (D100-ATK-3)",
                field="arme", value=self.id, rule="D100-ATK-3",
            )
        for key in ("damage", "short_range", "long_range", "reload"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int):
                raise EscarmoucheError(
                    f"{key} = {value!r} pour l’arme « {self.label} » : un nombre entier est "
                    "attendu (D100-ATK-3)",
                    field=key, value=value, rule="D100-ATK-3",
                )
        if not -20 <= self.damage <= 50:
            raise EscarmoucheError(
                f"dégâts = {self.damage} pour l’arme « {self.label} » : entre −20 et 50 "
                "(D100-ATK-3)",
                field="damage", value=self.damage, rule="D100-ATK-3",
            )
        if self.ranged and not 0 < self.short_range <= self.long_range <= 10_000:
            raise EscarmoucheError(
                f"portée = {self.short_range}/{self.long_range} pour l’arme « {self.label} » : "
                "une portée courte positive, au plus égale à la longue (au plus 10 000 m), est "
                "attendue (D100-RANGED-5)",
                field="portée", value=(self.short_range, self.long_range), rule="D100-RANGED-5",
            )
        if not 0 <= self.reload <= 20:
            raise EscarmoucheError(
                f"rechargement = {self.reload} pour l’arme « {self.label} » : entre 0 et 20 "
                "demi-actions (D100-ACT-4)",
                field="reload", value=self.reload, rule="D100-ACT-4",
            )

    @property
    def extended_reload(self) -> bool:
        """Reloading takes more than one half action: an extended action (D100-ACT-4)."""
        return self.reload > 1

    def to_json(self) -> dict[str, Json]:
        return {
            "id": self.id, "label": self.label, "damage": self.damage, "ranged": self.ranged,
            "short_range": self.short_range, "long_range": self.long_range,
            "engaged_ok": self.engaged_ok, "reload": self.reload,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Weapon:
        known = {"id", "label", "damage", "ranged", "short_range", "long_range",
                 "engaged_ok", "reload"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise EscarmoucheError(
                f"arme = champ {unknown[0]!r} inconnu ; champs : {', '.join(sorted(known))} "
                "(D100-ATK-3)",
                field="arme", value=unknown[0], rule="D100-ATK-3",
            )
        if "id" not in data or "damage" not in data:
            raise EscarmoucheError(
                "arme = description incomplète : « id » et « damage » sont requis (D100-ATK-3)",
                field="arme", value=dict(data), rule="D100-ATK-3",
            )
        return cls(
            id=str(data["id"]), label=str(data.get("label", data["id"])),
            damage=data["damage"], ranged=bool(data.get("ranged", False)),
            short_range=data.get("short_range", 0), long_range=data.get("long_range", 0),
            engaged_ok=bool(data.get("engaged_ok", False)), reload=data.get("reload", 0),
        )


def _catalogue(*weapons: Weapon) -> Mapping[str, Weapon]:
    return MappingProxyType({w.id: w for w in weapons})


#: The weapon catalogue. The seed gives no weapon values: these damage bonuses, ranges
#: (the text's own example « 24/48 » for the bow) and reload times are illustrative
#: defaults in the spirit of the original edition, meant to be edited.
WEAPONS: Mapping[str, Weapon] = _catalogue(
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


# -- actions (D100-ACT-1..4) ----------------------------------------------------------------

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
    """One action of the catalogue (D100-ACT-3).

    ``cost`` is ``"complete"``, ``"demi"`` or ``"gratuite"``. An action counts as an attack
    action when its French name contains « attaque » or when ``attack`` is set (Charge)
    (D100-ACT-2); ``casting`` marks incantation actions. ``extended`` actions may take
    several half actions in a row, which must not be interrupted (D100-ACT-4).
    ``reaction`` actions are only taken in answer to an attack (dodge, off-hand parry).
    ``kind`` tells the encounter how to resolve it; ``ranged_ok`` whether a shot may use it.
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
        if self.cost not in COSTS:
            raise EscarmoucheError(
                f"coût = {self.cost!r} pour l’action « {self.label} » : "
                f"{', '.join(COSTS)} attendu (D100-ACT-1)",
                field="coût", value=self.cost, rule="D100-ACT-1",
            )

    @property
    def is_attack(self) -> bool:
        """D100-ACT-2: « attaque » in the name, or Charge."""
        return self.attack or "attaque" in fold(self.label)

    @property
    def halves(self) -> int:
        return COST_HALVES[self.cost]


def _actions(*defs: ActionDef) -> Mapping[str, ActionDef]:
    return MappingProxyType({d.id: d for d in defs})


#: The action catalogue (D100-ACT-3): costs from the original edition. Jumps are not in
#: the text's list; they are half actions here (*ruling*: a jump is a movement).
ACTIONS: Mapping[str, ActionDef] = _actions(
    ActionDef("attaque_standard", "attaque standard", "demi", "attaque", ranged_ok=True),
    ActionDef("viser", "viser", "demi"),
    ActionDef("se_deplacer", "se déplacer", "demi"),
    ActionDef("degainer", "dégainer", "demi", "degainer"),
    ActionDef("preparer_parade", "préparer une parade", "demi", "preparer_parade",
              rules=("D100-ACT-3", "D100-PARRY-2")),
    ActionDef("recharger", "recharger", "demi", "recharger", extended=True,
              rules=("D100-ACT-3", "D100-ACT-4")),
    ActionDef("incantation", "incantation", "demi", "incantation", casting=True, extended=True,
              rules=("D100-ACT-3", "D100-ACT-2")),
    ActionDef("charge", "charge", "complete", "attaque", attack=True,
              rules=("D100-ACT-3", "D100-ACT-2")),
    ActionDef("attaque_brutale", "attaque brutale", "complete", "attaque"),
    ActionDef("attaque_prudente", "attaque prudente", "complete", "attaque"),
    ActionDef("attaque_rapide", "attaque rapide", "complete", "attaque"),
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
    ActionDef("esquive", "esquive", "gratuite", reaction=True,
              rules=("D100-ACT-3", "D100-DODGE-1")),
    ActionDef("parade_main_non_directrice", "parade à la main non directrice", "gratuite",
              reaction=True, rules=("D100-ACT-3", "D100-PARRY-2")),
)
