"""Exact odds of the d100 system: who acts first (D100-INIT-1/2), one attack's odds
(spec/API.md ``attack_odds``) and its whole outcome distribution.

Nothing is sampled: every d100 and d10 face is enumerated and counted with integers, and
the counts become :class:`fractions.Fraction` at the end. The dice are single d100/d10,
so plain enumeration is exact without a dice-expression library. Results display
themselves as French tables in a notebook.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from escarmouche import checks
from escarmouche.errors import IllegalActionError, invalid
from escarmouche.model import Combatant, Json, check_roster
from escarmouche.odds import OddsTable, exact_json, first_odds, uniform
from escarmouche.render.table import Table
from escarmouche.systems.d100 import attack
from escarmouche.systems.d100.attack import (
    AttackSetup,
    Guard,
    check_defence,
    damage,
    location_of,
    reverse_digits,
    substitute_location,
    target_number,
)
from escarmouche.systems.d100.initiative import INITIATIVE_DIE
from escarmouche.systems.d100.jumps import resolve_drop_jump, resolve_long_jump
from escarmouche.systems.d100.rules import (
    DEFAULT_RULES,
    DEFENCES,
    LOCATIONS,
    Rules,
    get_weapon,
    stat,
)
from escarmouche.systems.describe import Chances, Situation, SituationParam
from escarmouche.text.fmt import number, percent

__all__ = [
    "AttackOutcomes",
    "Odds",
    "attack_distribution",
    "attack_odds",
    "attack_outcomes",
    "blow_mean_wounds",
    "drop_jump_distribution",
    "first_to_act_chances",
    "first_to_act_odds",
    "long_jump_distribution",
    "shot_odds",
    "unharmed_odds",
]


def first_to_act_odds(combatants: Iterable[Combatant]) -> dict[str, Fraction]:
    """D100-INIT-1/2: each combatant's exact chance to act first in every round
    (Ag + 1d10; ties to the higher Ag, then a fair 1d10 roll-off).

    >>> from escarmouche import Combatant
    >>> stats = {"CC": 40, "CT": 40, "F": 40, "E": 40, "M": 4, "B": 10}
    >>> first_to_act_odds([Combatant("A", "x", {**stats, "Ag": 40}),
    ...                    Combatant("B", "y", {**stats, "Ag": 31})])
    {'A': Fraction(1, 1), 'B': Fraction(0, 1)}
    """
    roster = check_roster(combatants, rule="D100-INIT-1", non_empty=True)
    entries = [(c.name, stat(c, "Ag"), uniform(INITIATIVE_DIE, stat(c, "Ag")))
               for c in roster]
    return first_odds(entries)


def first_to_act_chances(combatants: Iterable[Combatant]) -> tuple[Chances, ...]:
    """What the initiative demo charts: :func:`first_to_act_odds` (D100-INIT-2)."""
    first = first_to_act_odds(combatants)
    return (Chances("Agir en premier (D100-INIT-2)", tuple(first.items()),
                    "Agir en premier : 1d10 + Ag, égalités au plus haut Ag puis jet de "
                    "départage (D100-INIT-2)."),)


@dataclass(frozen=True, slots=True)
class Odds:
    """spec/API.md: ``hit`` (the attack roll succeeds), ``defended`` (it hits and the parry or
    dodge succeeds), ``lands`` (it hits and is not defended); ``miss`` = 1 − hit."""

    hit: Fraction
    defended: Fraction
    lands: Fraction

    @property
    def miss(self) -> Fraction:
        return 1 - self.hit

    def to_json(self) -> dict[str, Json]:
        return {k: str(getattr(self, k)) for k in ("hit", "defended", "lands", "miss")}

    def table(self, title: str | None = None) -> Table:
        rows = [("touche", percent(self.hit)), ("défendue", percent(self.defended)),
                ("porte", percent(self.lands)), ("manquée", percent(self.miss))]
        return Table(("Issue", "Chance"), rows, title or "Chances exactes de l’attaque")

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()


def _chance(value: object, field: str) -> Fraction:
    v = checks.integer(field, value, lo=-10**6, hi=10**6, rule="D100-ATK-1")
    return Fraction(min(100, max(0, v)), 100)


def attack_odds(
    target: int, *, defence: str = "aucune", defence_target: int = 0, ranged: bool = False
) -> Odds:
    """spec/API.md: exact odds of one attack with final target numbers (after modifiers;
    ≤ 0 never succeeds, ≥ 100 always does). D100-ATK-1, D100-PARRY-1/2, D100-DODGE-1;
    a ranged attack cannot be defended (D100-RANGED-1: a defence other than « aucune »
    raises).

    >>> attack_odds(65, defence="parade", defence_target=45).lands
    Fraction(143, 400)
    """
    hit = _chance(target, "seuil d’attaque")
    checks.choice("defense", defence, DEFENCES, "D100-PARRY-1")
    checks.flag("tir", ranged, "D100-RANGED-1")
    if ranged and defence != "aucune":
        raise invalid("defense", defence, "D100-RANGED-1",
                      "on ne peut ni parer ni esquiver un projectile", kind=IllegalActionError)
    q = _chance(defence_target, "seuil de défense") if defence != "aucune" else Fraction(0)
    defended = hit * q
    return Odds(hit, defended, hit - defended)


@dataclass(frozen=True, slots=True)
class AttackOutcomes:
    """The exact distribution of one attack's outcome against one defender.

    ``miss``, ``parried``, ``dodged``: probabilities; ``by_location[zone][w]``: the
    probability that the blow lands on ``zone`` (after D100-ATK-6) and costs ``w`` wounds
    (with the defender's BE and that zone's armour, D100-ATK-3). They sum to 1. In a
    notebook: the outcomes, then the zones, as French tables.
    """

    setup: AttackSetup
    miss: Fraction
    parried: Fraction
    dodged: Fraction
    by_location: Mapping[str, Mapping[int, Fraction]]

    @property
    def landed(self) -> Fraction:
        return sum((sum(d.values(), Fraction(0)) for d in self.by_location.values()),
                   Fraction(0))

    @property
    def odds(self) -> Odds:
        defended = self.parried + self.dodged
        return Odds(1 - self.miss, defended, self.landed)

    @property
    def location_odds(self) -> Mapping[str, Fraction]:
        """The probability that the blow lands on each zone."""
        return MappingProxyType({z: sum(d.values(), Fraction(0))
                                 for z, d in self.by_location.items()})

    @property
    def wounds(self) -> Mapping[int, Fraction]:
        """The distribution of wounds lost (a miss or a defence counts as 0)."""
        out: dict[int, Fraction] = {0: self.miss + self.parried + self.dodged}
        for d in self.by_location.values():
            for w, p in d.items():
                out[w] = out.get(w, Fraction(0)) + p
        return MappingProxyType(dict(sorted((w, p) for w, p in out.items() if p)))

    @property
    def expected_wounds(self) -> Fraction:
        return sum((w * p for w, p in self.wounds.items()), Fraction(0))

    def mean_wounds_at(self, location: str) -> Fraction:
        """The mean wounds of a blow that lands on ``location`` (0 if it never does)."""
        law = self.by_location.get(location, {})
        total = sum(law.values(), Fraction(0))
        if not total:
            return Fraction(0)
        return sum((w * p for w, p in law.items()), Fraction(0)) / total

    def items(self) -> list[tuple[str, Fraction]]:
        """Each outcome with its French label: « manquée », « parée » or « esquivée »
        (with that defence), then « touchée (zone) » for each zone that can be hit (one
        colon in « Issues : … », the sentence that lists them)."""
        out: list[tuple[str, Fraction]] = [("manquée", self.miss)]
        if self.setup.defence == "parade":
            out.append(("parée", self.parried))
        elif self.setup.defence == "esquive":
            out.append(("esquivée", self.dodged))
        out += [(f"touchée ({z})", p) for z, p in self.location_odds.items()]
        return out

    @property
    def wounding(self) -> Fraction:
        """The probability of at least one wound (a blow that lands may cost none:
        armour and BE, D100-ATK-3)."""
        return 1 - self.wounds.get(0, Fraction(0))

    def summary(self) -> str:
        """One French sentence: hit, defended, the blow lands, at least one wound, mean
        wounds. « Le coup porte » is :attr:`landed`, not a wound: armour and BE may
        leave it at 0 (:attr:`wounding`)."""
        return (f"Touche : {percent(self.odds.hit)} ; défendue : "
                f"{percent(self.odds.defended)} ; le coup porte : "
                f"{percent(self.landed)} ; au moins une blessure : "
                f"{percent(self.wounding)} ; blessures en moyenne : "
                f"{number(self.expected_wounds)}.")

    def table(self) -> Table:
        """Each outcome and its exact chance."""
        return Table(("Issue", "Chance"), [(n, percent(p)) for n, p in self.items()],
                     "Issue de l’attaque")

    def location_table(self) -> Table:
        """Each zone that can be hit: its chance, the wounds range and mean if hit."""
        zones = self.location_odds
        rows = [(z, percent(zones[z]), f"{min(law)}–{max(law)}",
                 number(self.mean_wounds_at(z)))
                for z, law in self.by_location.items()]
        return Table(("Zone touchée", "Chance", "Blessures", "Moyenne si touchée"), rows)

    def _repr_html_(self) -> str:
        from escarmouche.render.table import Text

        return (Text(self.summary())._repr_html_() + self.table()._repr_html_()
                + self.location_table()._repr_html_())

    def to_json(self) -> dict[str, Json]:
        return {
            "miss": str(self.miss), "parried": str(self.parried), "dodged": str(self.dodged),
            "by_location": {z: {str(w): str(p) for w, p in d.items()}
                            for z, d in self.by_location.items()},
        }


def attack_distribution(setup: AttackSetup) -> AttackOutcomes:
    """Enumerate every attack d100, defence d100 and damage d10 of ``setup`` exactly
    (D100-ATK-1/2/3/6, D100-PARRY-2, D100-DODGE-1): the same resolution as
    :func:`~escarmouche.systems.d100.attack.resolve_attack`, counted over 100 × 100 × 10
    equally likely dice."""
    total = 100 * 100 * 10
    defence = setup.defence_target
    saves = 0 if defence is None else sum(1 for r in range(1, 101) if defence.succeeds(r))
    miss = defended = 0
    counts: dict[str, dict[int, int]] = {z: {} for z in LOCATIONS}
    for roll in range(1, 101):
        if not setup.target.succeeds(roll):
            miss += 100 * 10
            continue
        defended += saves * 10
        where = substitute_location(location_of(reverse_digits(roll)), setup.unreachable)
        armour = setup.armour(where)
        for d10 in range(1, 11):
            w = damage(d10, setup.weapon.damage, setup.be, armour)
            counts[where][w] = counts[where].get(w, 0) + (100 - saves)
    by_location = MappingProxyType({
        z: MappingProxyType({w: Fraction(c, total) for w, c in sorted(d.items())})
        for z, d in counts.items() if d
    })
    parried = Fraction(defended, total) if setup.defence == "parade" else Fraction(0)
    dodged = Fraction(defended, total) if setup.defence == "esquive" else Fraction(0)
    return AttackOutcomes(setup, Fraction(miss, total), parried, dodged, by_location)


#: the name used before the naming rule (``<thing>_distribution``)
attack_outcomes = attack_distribution


@functools.lru_cache(maxsize=4096)
def blow_mean_wounds(target: int, weapon_damage: int, be: int, armour: tuple[int, ...]
                     ) -> Fraction:
    """The mean wounds of one undefended melee blow, exactly (D100-ATK-1/2/3): a d100 ≤
    ``target`` hits, the reversed roll gives the zone, whose armour is ``armour`` (one
    value per zone, in :data:`LOCATIONS` order), and 1d10 + ``weapon_damage`` − ``be`` −
    armour, never below 0, is lost. Automated play compares the two hands with it
    (D100-TWO-2); a defence would scale both alike.

    >>> blow_mean_wounds(50, 3, 3, (0,) * 6)
    Fraction(11, 4)
    """
    total = 0
    for roll in range(1, min(100, target) + 1):
        armour_here = armour[LOCATIONS.index(location_of(reverse_digits(roll)))]
        total += sum(max(0, d10 + weapon_damage - be - armour_here) for d10 in range(1, 11))
    return Fraction(total, 1000)


def drop_jump_distribution(height: float, ag: int, rules: Rules = DEFAULT_RULES
                           ) -> dict[float, Fraction]:
    """D100-JUMP-1: the height fallen, exactly (0: a perfect jump), for a drop of
    ``height`` metres with Ag ``ag``; from :func:`resolve_drop_jump` at every roll.

    >>> drop_jump_distribution(4, 35, Rules(drop_step=3))[0]
    Fraction(49, 400)
    """
    first = resolve_drop_jump(height, ag, [1] * 10_000, rules=rules)
    ok = Fraction(min(100, max(0, ag)), 100)
    out: dict[float, Fraction] = {}
    for k in range(1, first.tests + 1):  # fails first at test k
        p = ok ** (k - 1) * (1 - ok)
        if p:  # then a roll of 100 fails the k-th test
            fall = resolve_drop_jump(height, ag, [1] * (k - 1) + [100], rules=rules).fall_height
            out[fall] = out.get(fall, Fraction(0)) + p
    out[0] = out.get(0, Fraction(0)) + ok ** first.tests
    return {h: p for h, p in sorted(out.items()) if p}


def long_jump_distribution(m: int, f: int, run_up: float, rules: Rules = DEFAULT_RULES
                           ) -> dict[int, Fraction]:
    """D100-JUMP-2: the distance jumped, exactly, every F test roll counted (the same
    :func:`resolve_long_jump` as play).

    >>> long_jump_distribution(4, 40, 5)[8]
    Fraction(2, 5)
    """
    out: dict[int, Fraction] = {}
    for roll in range(1, 101):
        metres = resolve_long_jump(m, f, run_up, roll, rules=rules).distance
        out[metres] = out.get(metres, Fraction(0)) + Fraction(1, 100)
    return dict(sorted(out.items()))


# -- the standard situations (edition pages, the Atelier, ``escarmouche cotes``) ----


#: the standard fighters: an attacker (CC 45, CT 35) and a defender with a weapon in each
#: hand (an off-hand parry, D100-PARRY-2) and the skill « esquive » (D100-DODGE-1)
_ATTACKER = Combatant("Attaquant", "a", {"CC": 45, "CT": 35, "F": 35, "E": 30, "Ag": 40,
                                         "M": 4, "B": 12})
_DEFENDER = Combatant("Défenseur", "b", {"CC": 40, "CT": 20, "F": 40, "E": 40, "Ag": 40,
                                         "M": 4, "B": 11}, skills={"esquive"})


def unharmed_odds(attacks: int, defence: str, rules: Rules = DEFAULT_RULES, *,
                  surprised: bool = False) -> Fraction:
    """The exact chance that :data:`_DEFENDER` takes no blow from ``attacks`` attacks of
    :data:`_ATTACKER` (CC 45) in one round, answering each blow with ``defence`` while
    :func:`~escarmouche.systems.d100.attack.check_defence` allows it (D100-PARRY-3,
    D100-DODGE-2, D100-SURPRISE-1): a defence is spent when it is rolled, that is when
    the attack hits (as in play).

    >>> unharmed_odds(2, "parade", Rules(parries_per_round=1))
    Fraction(1001, 2000)
    """
    kind = checks.choice("defense", defence, ("parade", "esquive"), "D100-PARRY-1")
    attacks = checks.integer("attaques", attacks, lo=0, hi=20, rule="D100-PARRY-3")
    target = _ATTACKER.stat("CC")
    used: dict[int, Fraction] = {0: Fraction(1)}  # defences spent → P(no blow so far)
    for _ in range(attacks):
        nxt: dict[int, Fraction] = {}
        for spent, p in used.items():
            guard = (Guard(two_weapons=True, parries_used=spent, surprised=surprised)
                     if kind == "parade" else Guard(dodges_used=spent, surprised=surprised))
            try:
                check_defence(_DEFENDER, kind, guard, False, rules)
            except IllegalActionError:
                o = attack_odds(target)
                nxt[spent] = nxt.get(spent, Fraction(0)) + p * o.miss
                continue
            o = attack_odds(target, defence=kind, defence_target=_DEFENDER.stat(
                "CC" if kind == "parade" else "Ag"))
            nxt[spent] = nxt.get(spent, Fraction(0)) + p * o.miss
            nxt[spent + 1] = nxt.get(spent + 1, Fraction(0)) + p * o.defended
        used = nxt
    return sum(used.values(), Fraction(0))


#: the bow of the standard shots (short range 24 m, long range 48 m) and the distances
_SHOTS = (("Courte portée (20 m)", 20, False), ("Cible engagée (20 m)", 20, True),
          ("Longue portée (40 m)", 40, False), ("Tir désespéré (72 m)", 72, False),
          ("À 120 m", 120, False))


def shot_odds(ct: int, distance: float, rules: Rules = DEFAULT_RULES, *,
              target_engaged: bool = False) -> Fraction:
    """The exact chance that a bow shot (« arc », 24/48 m) with CT ``ct`` at ``distance``
    metres hits, with every modifier of :func:`~escarmouche.systems.d100.attack.
    target_number` (D100-RANGED-4/5); 0 when the shot is impossible (beyond
    ``max_range_factor`` times the long range).

    >>> shot_odds(45, 40, Rules(beyond_short_range_modifier=-20))
    Fraction(1, 4)
    """
    shooter = Combatant("Tireur", "a", {"CT": ct})
    try:
        target = target_number(shooter, "arc", distance=distance,
                               target_engaged=target_engaged, rules=rules)
    except IllegalActionError:
        return Fraction(0)
    return attack_odds(target.total, ranged=True).hit


def _melee(rules: Rules) -> OddsTable:
    melee = []
    for cc in (30, 45, 60):
        for label, hand in (("main directrice", "directrice"),
                            ("main non directrice", "non_directrice")):
            # the modifiers as play applies them (D100-ATK-5), with a one-handed weapon
            target = target_number(Combatant("Attaquant", "a", {"CC": cc}),
                                   "arme_a_une_main", hand=hand, rules=rules)
            o = attack_odds(target.total, defence="parade", defence_target=40)
            melee.append((f"CC {cc}, {label}", (o.hit, o.defended, o.lands)))
    return OddsTable("d100.melee", "Attaque au corps à corps contre une parade à 40",
                     ("D100-ATK-1", "D100-ATK-5", "D100-PARRY-2"),
                     ("Attaquant", "Touche", "Parée", "Porte"), tuple(melee))


def _defences(rules: Rules) -> OddsTable:
    rows = []
    for label, attacks, surprised in (("Attaqué une fois", 1, False),
                                      ("Attaqué deux fois dans le round", 2, False),
                                      ("Attaqué trois fois dans le round", 3, False),
                                      ("Surpris, attaqué une fois au 1er round", 1, True)):
        rows.append((label, tuple(unharmed_odds(attacks, kind, rules, surprised=surprised)
                                  for kind in ("parade", "esquive"))))
    return OddsTable("d100.defences", "Aucun coup ne porte : CC 45 contre un défenseur "
                     "armé des deux mains (parade à 40) ou qui esquive (Ag 40)",
                     ("D100-PARRY-2", "D100-PARRY-3", "D100-DODGE-1", "D100-DODGE-2",
                      "D100-SURPRISE-1"),
                     ("Défenseur", "En parant", "En esquivant"), tuple(rows))


def _shots(rules: Rules) -> OddsTable:
    rows = tuple((f"CT {ct}", tuple(shot_odds(ct, d, rules, target_engaged=engaged)
                                    for _, d, engaged in _SHOTS))
                 for ct in (30, 45, 60))
    return OddsTable("d100.shot", "Tir à l’arc (portées 24 m et 48 m) : chance de toucher",
                     ("D100-RANGED-4", "D100-RANGED-5"),
                     ("Tireur", *(label for label, _, _ in _SHOTS)), rows)


def _wounds(rules: Rules) -> OddsTable:
    wounds = []
    weapon = get_weapon(rules.default_weapon)
    # a ranged default weapon shoots at short range (D100-RANGED-5 needs a distance)
    distance = weapon.short_range if weapon.ranged else None
    for armour in (0, 2, 4):
        defender = Combatant("Défenseur", "b", {"CC": 40, "CT": 20, "F": 40, "E": 40,
                                                "Ag": 25, "M": 4, "B": 11, "PA": armour})
        setup = attack.attack_setup(_ATTACKER, defender, weapon, distance=distance,
                                    rules=rules)
        dist = attack_distribution(setup)
        wounds.append((f"armure {armour}", (
            dist.expected_wounds,
            *(dist.mean_wounds_at(z) for z in ("tête", "bras droit", "corps",
                                               "jambe droite")))))
    return OddsTable("d100.wounds", "Blessures d’une attaque (CC 45 ou, au tir, CT 35 ; "
                     "arme par défaut ; défenseur E 40)", ("D100-ATK-2", "D100-ATK-3"),
                     ("Armure", "Moyenne par attaque", "Si tête", "Si bras droit", "Si corps",
                      "Si jambe droite"), tuple(wounds), "number")


def _jumps(rules: Rules) -> list[OddsTable]:
    drops = tuple((f"Descente de {h} m", tuple(drop_jump_distribution(h, ag, rules).get(
        0, Fraction(0)) for ag in (30, 50, 70))) for h in (4, 7, 10))
    longs = []
    for run_up in (3, 4, 8):
        cells = []
        for f in (30, 45, 60):
            try:
                law = long_jump_distribution(4, f, run_up, rules)
            except IllegalActionError:  # too short a run-up: no jump at all
                law = {0: Fraction(1)}
            cells.append(sum((p for metres, p in law.items() if metres >= 6), Fraction(0)))
        longs.append((f"Élan de {run_up} m", tuple(cells)))
    return [
        OddsTable("d100.drop", "Descente contrôlée : chance d’un saut parfait",
                  ("D100-JUMP-1",), ("Hauteur", "Ag 30", "Ag 50", "Ag 70"), drops),
        OddsTable("d100.long_jump", "Saut en longueur (M 4) : chance de franchir 6 m au moins",
                  ("D100-JUMP-2",), ("Élan", "F 30", "F 45", "F 60"), tuple(longs)),
    ]


def standard_odds(rules: Rules) -> list[OddsTable]:
    """The standard situations of the system and their exact values under ``rules``:
    what an edition page and the Atelier compare before and after a change. Each
    declared option changes at least one value (``tests/faces/editions/test_measured.py``)."""
    return [_melee(rules), _defences(rules), _shots(rules), _wounds(rules), *_jumps(rules)]


def _situation(value: int, params: Mapping[str, Any]
               ) -> tuple[dict[str, Any], Any, list[tuple[str, Fraction]], str]:
    """``escarmouche cotes --attaque-d100``: the JSON, the table, the bars, the title."""
    result = attack_odds(value, defence=params["defense"],
                         defence_target=params["seuil_defense"], ranged=params["tir"])
    data = {"situation": "attaque_d100", "seuil": value, "defense": params["defense"],
            "seuil_defense": params["seuil_defense"], "tir": params["tir"],
            "touche": exact_json(result.hit), "defendue": exact_json(result.defended),
            "porte": exact_json(result.lands), "manquee": exact_json(result.miss),
            "regles": ["D100-ATK-1", "D100-PARRY-1", "D100-DODGE-1"]}
    kind, target = params["defense"], params["seuil_defense"]
    defence = "" if kind == "aucune" else f", {kind} à {target}"
    title = f"Attaque d100 à {value}{defence} (D100-ATK-1)"
    bars = [("manquée", result.miss), ("défendue", result.defended), ("porte", result.lands)]
    return data, result.table(title), bars, title


#: the standard roll of this system whose exact odds ``escarmouche cotes`` gives
SITUATIONS: tuple[Situation, ...] = (
    Situation("attaque-d100", "SEUIL",
              "une attaque d100 de seuil final SEUIL (D100-ATK-1)",
              _situation, (
    SituationParam("defense", "la défense opposée (défaut : aucune)", "DÉFENSE", "aucune",
                   choices=DEFENCES),
    SituationParam("seuil-defense", "le seuil de la parade ou de l’esquive", "SEUIL", 0),
    SituationParam("tir", "l’attaque est un tir", flag=True, default=False),
),
              example='--attaque-d100 45 --defense parade --seuil-defense 40'),
)
