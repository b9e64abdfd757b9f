"""The standard situations of each system and their exact odds under a rule set: what an
edition page and the Atelier compare before and after a change.

:func:`standard_odds` returns a list of :class:`OddsTable` (exact ``Fraction`` cells,
computed by each system's ``odds`` module from the same pure functions as play);
:func:`compare` pairs two such lists cell by cell and flags the differences above
:data:`THRESHOLD`.

>>> from escarmouche.systems import rulebook
>>> old = standard_odds("rulebook", rulebook.Rules())
>>> new = standard_odds("rulebook", rulebook.Rules(crit_success_max=10))
>>> [(t.key, len(t.rows)) for t in old]
[('rulebook.test', 5), ('rulebook.surprise', 4)]
>>> d = compare(old, new)[0]
>>> d.highlighted
True
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, Literal

from escarmouche.model import Combatant, Json
from escarmouche.text.fmt import join, number, percent, quote

__all__ = [
    "THRESHOLD",
    "Cell",
    "OddsTable",
    "TableDiff",
    "compare",
    "option_label",
    "standard_odds",
    "value_label",
]

#: a change is highlighted from one percentage point (a probability) or 5 % of the old
#: value (an expected value)
THRESHOLD: Mapping[str, Fraction] = {"percent": Fraction(1, 100), "number": Fraction(5, 100)}

#: the rule IDs of options whose French label cites none
_OPTION_RULES: Mapping[str, tuple[str, ...]] = {
    "rulebook.crit_success_max": ("RB-D100-1",),
    "rulebook.crit_failure_min": ("RB-D100-1",),
    "rulebook.surprise_aggregate": ("RB-SURPRISE-2",),
    "rulebook.hyperactive_slot": ("RB-SPEED-3",),
    "rulebook.extra_traits": ("RB-SPEED-1",),
    "d100.default_weapon": ("D100-ATK-3",),
    "d12.default_weapon": ("D12-CRIT-1",),
    "d20.default_speed": ("D20-ACT-1",),
    "d20.default_defence": ("D20-OPP-2",),
    "d20.default_weapon": ("D20-OPP-2",),
    "d20.default_action_points": ("D20-ACT-3",),
}


def _rules_module(system: str) -> Any:
    return importlib.import_module(f"escarmouche.systems.{system}.rules")


def option_label(system: str, option: str) -> str:
    """The French label of an option (``OPTION_LABELS`` of the system's ``rules.py``),
    with the rule IDs it stands for.

    >>> option_label("rulebook", "crit_success_max")
    'plus haut jet de réussite critique (test D100) (RB-D100-1)'
    """
    labels: Mapping[str, str] = getattr(_rules_module(system), "OPTION_LABELS", {})
    label = labels.get(option, option)
    extra = _OPTION_RULES.get(f"{system}.{option}")
    return f"{label} ({join(extra)})" if extra else label


def value_label(system: str, option: str, value: Json) -> str:
    """An option value in French: its label when the system names it, else the value.

    >>> value_label("d20", "max_action_points_per_turn", None)
    'aucun plafond'
    >>> value_label("d100", "surprised_can_defend", False)
    'non'
    """
    module = _rules_module(system)
    named: Mapping[Any, str] = getattr(module, "OPTION_VALUE_LABELS", {}).get(option, {})
    labels: Mapping[str, str] = getattr(module, "OPTION_LABELS", {})
    try:
        if value in named:
            return named[value]
    except TypeError:
        pass
    if isinstance(value, str) and f"{option}.{value}" in labels:
        return labels[f"{option}.{value}"]
    if value is None:
        return "aucune"
    if isinstance(value, bool):
        return "oui" if value else "non"
    if isinstance(value, int | float):
        return number(value)
    if isinstance(value, str):
        return quote(value)
    if isinstance(value, list):
        items = [str(v.get("label", v.get("id", "…"))) if isinstance(v, dict) else str(v)
                 for v in value]
        return join(items, empty="aucun")
    return "…"


@dataclasses.dataclass(frozen=True, slots=True)
class OddsTable:
    """One standard situation: a French ``title``, the ``rules`` it applies, column
    headers (the first one names the rows) and rows of exact values; ``kind`` is
    ``"percent"`` (probabilities) or ``"number"`` (expected values, counts)."""

    key: str
    title: str
    rules: tuple[str, ...]
    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[Fraction, ...]], ...]
    kind: Literal["percent", "number"] = "percent"

    def show(self, value: Fraction) -> str:
        return percent(value) if self.kind == "percent" else number(value)

    def to_json(self) -> dict[str, Json]:
        return {"key": self.key, "title": self.title, "columns": list(self.columns),
                "rows": [[label, [str(v) for v in values]] for label, values in self.rows]}


Cell = tuple[Fraction, Fraction, bool]


@dataclasses.dataclass(frozen=True, slots=True)
class TableDiff:
    """A table before and after: ``cells[r][c]`` = (before, after, highlighted)."""

    before: OddsTable
    after: OddsTable
    cells: tuple[tuple[Cell, ...], ...]

    @property
    def changed(self) -> bool:
        return any(b != a for row in self.cells for b, a, _ in row)

    @property
    def highlighted(self) -> bool:
        return any(h for row in self.cells for _, _, h in row)


def _above(table: OddsTable, before: Fraction, after: Fraction) -> bool:
    if before == after:
        return False
    limit = THRESHOLD[table.kind]
    if table.kind == "percent":
        return abs(after - before) >= limit
    return abs(after - before) >= limit * max(abs(before), Fraction(1, 10))


def compare(before: Sequence[OddsTable], after: Sequence[OddsTable]) -> list[TableDiff]:
    """Pair the tables of two rule sets by key and compare them cell by cell."""
    old = {t.key: t for t in before}
    out = []
    for table in after:
        prev = old.get(table.key)
        if prev is None or len(prev.rows) != len(table.rows):
            continue
        cells = tuple(
            tuple((b, a, _above(table, b, a)) for b, a in zip(bv, av, strict=True))
            for (_, bv), (_, av) in zip(prev.rows, table.rows, strict=True))
        out.append(TableDiff(prev, table, cells))
    return out


# -- the standard situations ---------------------------------------------------------------


def _rulebook(rules: Any) -> list[OddsTable]:
    from escarmouche.systems.rulebook import odds

    rows = []
    for hab in (20, 35, 50, 65, 80):
        o = odds.d100_odds(hab, rules)
        rows.append((f"HAB {hab}", (o.success, o.critical_success, o.critical_failure)))
    surprise = tuple(
        (f"DIS {dis} contre PMR {pmr}", (odds.surprise_odds(dis, pmr),))
        for dis, pmr in ((30, 50), (40, 40), (50, 40), (70, 30)))
    return [
        OddsTable("rulebook.test", "Test D100 selon la HAB", ("RB-D100-1",),
                  ("Stat", "Réussite", "Réussite critique", "Échec critique"), tuple(rows)),
        OddsTable("rulebook.surprise", "Attaque surprise réussie (test opposé)",
                  ("RB-SURPRISE-2",), ("Situation", "Surprise réussie"), surprise),
    ]


def _d100(rules: Any) -> list[OddsTable]:
    from escarmouche.systems.d100 import attack, odds

    melee = []
    for cc in (30, 45, 60):
        for label, mod in (("main directrice", 0),
                           ("main non directrice", rules.off_hand_modifier)):
            o = odds.attack_odds(cc + mod, defence="parade", defence_target=40)
            melee.append((f"CC {cc}, {label}", (o.hit, o.defended, o.lands)))
    shots = []
    for ct in (30, 45, 60):
        shots.append((f"CT {ct}", (
            odds.attack_odds(ct, ranged=True).hit,
            odds.attack_odds(ct + rules.shooting_into_melee_modifier, ranged=True).hit,
            odds.attack_odds(ct + rules.beyond_short_range_modifier, ranged=True).hit)))
    wounds = []
    attacker = Combatant("Attaquant", "a", {"CC": 45, "CT": 30, "F": 35, "E": 30, "Ag": 40,
                                             "M": 4, "B": 12})
    for armour in (0, 2, 4):
        defender = Combatant("Défenseur", "b", {"CC": 40, "CT": 20, "F": 40, "E": 40,
                                                "Ag": 25, "M": 4, "B": 11, "PA": armour})
        setup = attack.attack_setup(attacker, defender, rules.default_weapon, rules=rules)
        dist = odds.attack_distribution(setup)
        wounds.append((f"armure {armour}", (
            dist.expected_wounds,
            *(dist.mean_wounds_at(z) for z in ("tête", "bras droit", "corps",
                                               "jambe droite")))))
    return [
        OddsTable("d100.melee", "Attaque au corps à corps contre une parade à 40",
                  ("D100-ATK-1", "D100-ATK-5", "D100-PARRY-2"),
                  ("Attaquant", "Touche", "Parée", "Porte"), tuple(melee)),
        OddsTable("d100.shot", "Tir : chance de toucher", ("D100-RANGED-4", "D100-RANGED-5"),
                  ("Tireur", "Courte portée", "Cible engagée", "Au-delà de la courte portée"),
                  tuple(shots)),
        OddsTable("d100.wounds", "Blessures d’une attaque (CC 45, arme par défaut, "
                  "défenseur E 40)", ("D100-ATK-2", "D100-ATK-3"),
                  ("Armure", "Moyenne par attaque", "Si tête", "Si bras droit", "Si corps",
                   "Si jambe droite"), tuple(wounds), "number"),
    ]


def _d12(rules: Any) -> list[OddsTable]:
    from escarmouche.systems.d12 import odds

    groups = []
    for label, roster in (
        ("1 contre 1, même bonus", [Combatant("A", "x"), Combatant("B", "y")]),
        ("1 contre 1, bonus +2 en face", [Combatant("A", "x"),
                                          Combatant("B", "y", {"init": 2})]),
        ("2 contre 1", [Combatant("A", "x"), Combatant("A2", "x"), Combatant("B", "y")]),
    ):
        g = odds.group_odds(roster)
        groups.append((label, (g.first["x"], g.before_environment["x"], g.reroll)))
    values = []
    for defence in (10, 14, 18):
        v = {o.option: o for o in odds.critical_option_values(rules.default_weapon,
                                                                defence=defence)}
        chosen = v[rules.critical_option]
        values.append((f"défense {defence}", (
            v["maximum"].decision_value, v["explosif"].decision_value,
            v["avantage"].decision_value, chosen.attack_damage)))
    return [
        OddsTable("d12.groups", "Initiative de groupe : le groupe x", ("D12-INIT-2",
                  "D12-INIT-3", "D12-INIT-5"),
                  ("Situation", "Agit en premier", "Avant l’environnement", "Égalité parfaite"),
                  tuple(groups)),
        OddsTable("d12.critical", "Valeur des options critiques, arme par défaut "
                  "(dégâts moyens)", ("D12-CRIT-2",),
                  ("Défense", "Maximum", "Dé explosif", "Avantage",
                   "Part critique de l’attaque, option par défaut"), tuple(values), "number"),
    ]


def _d20(rules: Any) -> list[OddsTable]:
    from escarmouche.systems.d20 import odds

    saves = []
    for bonus in (-2, 0, 2, 5):
        p = odds.save_odds(bonus, rules=rules).success
        saves.append((f"bonus {bonus:+d}".replace("-", "−"),
                       tuple(1 - (1 - p) ** n for n in (1, 2, 3, 5))))
    cap = rules.max_action_points_per_turn
    subs = []
    for spent in (0, 1, 2):
        used = spent if cap is None else min(spent, cap)
        standard = 1 + used
        subs.append((f"{spent} point{'s' if spent > 1 else ''} d’action offert"
                     f"{'s' if spent > 1 else ''}", (
                         Fraction(standard), Fraction(standard + 1),
                         Fraction(standard + 2), Fraction(used))))
    return [
        OddsTable("d20.save", "Sauvegarde réussie en n tours au plus", ("D20-END-1",),
                  ("Bonus", "1 tour", "2 tours", "3 tours", "5 tours"), tuple(saves)),
        OddsTable("d20.actions", "Substitutions : actions possibles en un tour",
                  ("D20-ACT-1", "D20-ACT-2", "D20-ACT-3"),
                  ("Points d’action", "Actions simples au plus", "Actions de mouvement au plus",
                   "Actions mineures au plus", "Points dépensés"), tuple(subs), "number"),
    ]


_BUILDERS = {"rulebook": _rulebook, "d100": _d100, "d12": _d12, "d20": _d20}


def standard_odds(system: str, rules: Any) -> list[OddsTable]:
    """The standard situations of ``system`` and their exact values under ``rules``."""
    from escarmouche.errors import invalid

    if system not in _BUILDERS:
        raise invalid("système", system, "CORE-ERR",
                      f"pas de situations types ; systèmes : {join(list(_BUILDERS))}")
    return _BUILDERS[system](rules)
