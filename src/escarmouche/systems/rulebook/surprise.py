"""RB-SURPRISE-1/2: the surprise attack (the defenders are unaware, and the attackers'
DIS beats the defenders' PMR in an opposed D100 test).

Draw order of :func:`roll_surprise` and :func:`surprise`: the attackers' d100, then
the defenders' d100 (RB-SURPRISE-2); nothing when ``unaware`` is false.
:func:`resolve_surprise` takes the same dice already rolled.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence

from escarmouche import checks
from escarmouche.errors import invalid
from escarmouche.memo import Memo
from escarmouche.model import Combatant, Json, check_roster
from escarmouche.render.table import Table, Text
from escarmouche.rng import Rng
from escarmouche.systems.describe import SurpriseReport
from escarmouche.systems.rulebook.initiative import initiative
from escarmouche.systems.rulebook.rules import (
    DEFAULT_RULES,
    Rules,
    TestResult,
    check_stat,
    d100_outcome,
    d100_test,
)
from escarmouche.text import fmt

__all__ = [
    "SurpriseResult",
    "draw_surprise",
    "explain_surprise",
    "group_values",
    "resolve_surprise",
    "roll_surprise",
    "surprise",
    "surprise_from",
]


@dataclasses.dataclass(frozen=True, slots=True)
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
    rules: tuple[str, ...] = ("RB-SURPRISE-1", "RB-SURPRISE-2")

    @property
    def text(self) -> str:
        """The attempt in French, its dice and verdict (read from the fields, written
        only when asked: the exact solver draws ten thousand attempts and reads none;
        kept per attempt, as a fight's log and save both write it)."""
        known = _TEXTS.get(self)
        return _TEXTS.put(self, self._text()) if known is None else known

    def _text(self) -> str:
        a_test, d_test = self.attack, self.defence
        if not self.unaware or a_test is None or d_test is None:
            return ("Pas d’attaque surprise : les défenseurs savent que les attaquants sont "
                    "là (condition (a) non remplie)")
        verdict = "attaque surprise réussie" if self.success else (
            "égalité, les défenseurs l’emportent" if a_test.margin == d_test.margin
            else "les défenseurs ne sont pas surpris")
        return (f"Attaque surprise : DIS {fmt.number(self.attack_stat)} "
                f"({fmt.join(self.attack_from)}), jet {a_test.describe()} ; PMR "
                f"{fmt.number(self.defence_stat)} ({fmt.join(self.defence_from)}), jet "
                f"{d_test.describe()} ; {verdict}")

    def _repr_html_(self) -> str:
        rows = []
        for side, stat, value, names, test in (
                ("attaquants", "DIS", self.attack_stat, self.attack_from, self.attack),
                ("défenseurs", "PMR", self.defence_stat, self.defence_from, self.defence)):
            rows.append((side, f"{stat} {fmt.number(value)} ({fmt.join(names)})",
                         test.roll if test else "—", test.label if test else "—",
                         test.margin if test else "—"))
        verdict = "réussie" if self.success else "ratée"
        table = Table(("Groupe", "Valeur", "Jet", "Résultat", "Marge"), rows,
                      title=f"Attaque surprise {verdict} ({', '.join(self.rules)})")
        return table._repr_html_() + Text(self.text + ".")._repr_html_()

    def to_json(self) -> dict[str, Json]:
        return {
            "success": self.success, "unaware": self.unaware, "aggregate": self.aggregate,
            "attack_stat": self.attack_stat, "attack_from": list(self.attack_from),
            "defence_stat": self.defence_stat, "defence_from": list(self.defence_from),
            "attack": self.attack.to_json() if self.attack else None,
            "defence": self.defence.to_json() if self.defence else None,
            "text": self.text,
        }


#: the French texts of the surprise attempts (:attr:`SurpriseResult.text`), by attempt
_TEXTS: Memo[str] = Memo(4096)


def _group_value(
    group: Sequence[Combatant], stat: str, aggregate: str, lowest: bool
) -> tuple[int, tuple[str, ...]]:
    values = [(c.name, check_stat(c, stat, "RB-SURPRISE-2")) for c in group]
    if aggregate == "meneur":
        return values[0][1], (values[0][0],)
    if aggregate == "moyenne":
        return sum(v for _, v in values) // len(values), tuple(n for n, _ in values)
    target = min(v for _, v in values) if lowest else max(v for _, v in values)
    return target, (next(n for n, v in values if v == target),)


def _check_groups(attackers: Sequence[Combatant], defenders: Sequence[Combatant],
                  unaware: object) -> None:
    for label, group in (("attaquants", attackers), ("défenseurs", defenders)):
        if not group:
            raise invalid(label, [], "RB-SURPRISE-1",
                          "chaque groupe doit compter au moins un combattant")
    check_roster([*attackers, *defenders], rule="RB-SURPRISE-1")
    checks.flag("unaware", unaware, "RB-SURPRISE-1")


def group_values(
    attackers: Iterable[Combatant],
    defenders: Iterable[Combatant],
    *,
    unaware: bool = True,
    rules: Rules = DEFAULT_RULES,
) -> tuple[int, tuple[str, ...], int, tuple[str, ...]]:
    """The two group values of the opposed test (RB-SURPRISE-2, ``surprise_aggregate``):
    the attackers' DIS and who gives it, the defenders' PMR and who gives it. They do
    not depend on the dice.

    >>> from escarmouche import Combatant
    >>> a = Combatant("Rat", "v", {"DIS": 40})
    >>> group_values([a], [Combatant("Garde", "g", {"PMR": 55})])
    (40, ('Rat',), 55, ('Garde',))
    """
    att = list(attackers)
    dfd = list(defenders)
    _check_groups(att, dfd, unaware)
    a_stat, a_from = _group_value(att, "DIS", rules.surprise_aggregate, lowest=True)
    d_stat, d_from = _group_value(dfd, "PMR", rules.surprise_aggregate, lowest=False)
    return a_stat, a_from, d_stat, d_from


def resolve_surprise(
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
    values = group_values(attackers, defenders, unaware=unaware, rules=rules)
    return surprise_from(values, attack_roll, defence_roll, unaware=unaware, rules=rules)


def surprise_from(
    values: tuple[int, tuple[str, ...], int, tuple[str, ...]],
    attack_roll: int | None,
    defence_roll: int | None,
    *,
    unaware: bool,
    rules: Rules = DEFAULT_RULES,
) -> SurpriseResult:
    """:func:`resolve_surprise` from the group values already found (:func:`group_values`,
    which do not depend on the dice; the rules kernel finds them once per roster)."""
    a_stat, a_from, d_stat, d_from = values
    if not unaware:
        return SurpriseResult(False, False, rules.surprise_aggregate, a_stat, a_from,
                              d_stat, d_from, None, None, ("RB-SURPRISE-1",))
    a_test = d100_test(a_stat, checks.die("jet des attaquants", attack_roll, 100,
                                          "RB-SURPRISE-2"), rules)
    d_test = d100_test(d_stat, checks.die("jet des défenseurs", defence_roll, 100,
                                          "RB-SURPRISE-2"), rules)
    return _opposed(values, a_test, d_test, rules)


def _opposed(values: tuple[int, tuple[str, ...], int, tuple[str, ...]], a_test: TestResult,
             d_test: TestResult, rules: Rules) -> SurpriseResult:
    """The opposed test of unaware defenders (RB-SURPRISE-2): the higher margin wins, the
    defenders win ties."""
    a_stat, a_from, d_stat, d_from = values
    return SurpriseResult(a_test.margin > d_test.margin, True, rules.surprise_aggregate,
                          a_stat, a_from, d_stat, d_from, a_test, d_test)


def roll_surprise(
    attackers: Iterable[Combatant],
    defenders: Iterable[Combatant],
    rng: Rng,
    *,
    unaware: bool,
    rules: Rules = DEFAULT_RULES,
) -> SurpriseResult:
    """Roll the surprise attempt (RB-SURPRISE-1/2): the attackers' d100, then the
    defenders' d100; no dice when ``unaware`` is false."""
    att = check_roster(attackers, rule="RB-SURPRISE-1")
    dfd = check_roster(defenders, rule="RB-SURPRISE-1")
    unaware = checks.flag("unaware", unaware, "RB-SURPRISE-1")
    values = group_values(att, dfd, unaware=unaware, rules=rules)
    return draw_surprise(values, rng.randint, unaware=unaware, rules=rules)


def draw_surprise(
    values: tuple[int, tuple[str, ...], int, tuple[str, ...]],
    randint: Callable[[int, int], int],
    *,
    unaware: bool,
    rules: Rules = DEFAULT_RULES,
    checked: bool = False,
) -> SurpriseResult:
    """The draws of :func:`roll_surprise` from the group values already found
    (:func:`group_values`): the attackers' d100, then the defenders'; no dice when
    ``unaware`` is false (RB-SURPRISE-1/2, :func:`surprise_from`). ``checked``: the
    values need no check (the rules kernel's way in: it finds them once per roster), so
    two dice from 1 to 100 are resolved by :func:`.rules.d100_outcome` directly, as
    :func:`.rules.d100_test` resolves them once it has checked them; any other die goes
    through :func:`surprise_from`, which refuses it in French."""
    if not unaware:
        return surprise_from(values, None, None, unaware=False, rules=rules)
    a_roll = randint(1, 100)
    d_roll = randint(1, 100)
    if checked and type(a_roll) is int and type(d_roll) is int \
            and 1 <= a_roll <= 100 and 1 <= d_roll <= 100:
        return _opposed(values, d100_outcome(values[0], a_roll, rules),
                        d100_outcome(values[2], d_roll, rules), rules)
    return surprise_from(values, a_roll, d_roll, unaware=True, rules=rules)


def surprise(
    attackers: Iterable[Combatant],
    defenders: Iterable[Combatant],
    rng: Rng,
    *,
    unaware: bool,
    rules: Rules = DEFAULT_RULES,
) -> bool:
    """Whether the surprise attack succeeds (RB-SURPRISE-1/2); see :func:`roll_surprise`
    for the details a GM wants to see."""
    return roll_surprise(attackers, defenders, rng, unaware=unaware, rules=rules).success




def explain_surprise(combatants: Sequence[Combatant], attackers: str, unaware: bool,
                     rng: Rng, *, rules: Rules = DEFAULT_RULES) -> SurpriseReport:
    """The side ``attackers`` attempts a surprise attack on the others
    (RB-SURPRISE-1..3): the attempt (:func:`roll_surprise`), then the initiative with
    its turn 0, explained for a reader (without the exact chances)."""
    roster = check_roster(combatants, rule="RB-SURPRISE-1")
    att = [c for c in roster if c.side == attackers]
    dfd = [c for c in roster if c.side != attackers]
    res = roll_surprise(att, dfd, rng, unaware=unaware, rules=rules)
    after_test = 2 if res.attack is not None else 0
    init = initiative(roster, rng, surprise_by=attackers if res.success else None,
                      rules=rules)
    steps = [(0, "surprise : DIS des attaquants"), (1, "surprise : PMR des défenseurs")]
    steps += [(after_test + i, fmt.die_of("initiative", c.name)) for i, c in enumerate(roster)]
    steps.append((after_test + len(roster), "départage"))
    why = [res.text + "."]
    why += [f"{fmt.cite(z.text, ', '.join(z.rules))}." for z in init.turn_zero_reasons]
    if not init.turn_zero:
        why.append("Personne ne joue au tour 0 : le combat commence au tour 1 "
                   "(RB-INIT-3, RB-SURPRISE-3).")
    return SurpriseReport("Tour 0", tuple(init.turn(0)), tuple(why),
                          (*res.rules, *init.rules), tuple(steps))
