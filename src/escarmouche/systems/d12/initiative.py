"""Initiative of the d12 system (D12-INIT-1..5, D12-SURPRISE-1/2).

Pure rules of dice already rolled (:func:`compare_groups`, :func:`rank_groups`,
:func:`member_order`, :func:`resolve_initiative`) and the rolling function
:func:`initiative` (spec/API.md; also named :func:`roll_initiative`), which documents its draw
order.

Rulings (RULES.md):

* D12-INIT-3 — groups are compared as descending lists of results (Python tuple
  order: when one list runs out, the group with a result left wins); a perfect tie
  (two groups with identical lists) makes everyone reroll, at most
  :attr:`Rules.max_initiative_rerolls` times (then by lot, D12-INIT-6).
* D12-INIT-4 — inside a group, ties of individual initiative go to the higher bonus,
  then to a roll-off (one d12 each, higher first; still-tied fighters roll again, at
  most :attr:`Rules.max_roll_off_rounds` rounds per tie, then by lot, D12-INIT-6).
* Group initiative is rolled **once for the fight**: the text has it rolled when the
  fight starts, or when the ambush's bonus turn ends, and never mentions rolling it
  again each turn.
* D12-SURPRISE-1 — after an ambush, group initiative is rolled **after** the bonus turn
  (« Une fois leur tour terminé, vous pouvez lancer votre initiative de groupe »), by the
  fighters still in the fight: one knocked out in the bonus turn rolls nothing and sets
  no group's initiative (:func:`roll_bonus_turn`, then :func:`roll_groups_after_bonus`;
  the engine rolls the second part at the start of turn 1).
* D12-INIT-5 — the environment slot ``"environnement"`` sits at 12 and loses every tie:
  groups at 12 or above act before it.
* D12-SURPRISE-2 — the bonus turn (turn 0) orders the attackers and the defenders with
  the trait ``alerte`` together by individual initiative (its own d12 each); the
  environment does not act in it.
"""

from __future__ import annotations

import dataclasses
import itertools
import operator
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from escarmouche import checks
from escarmouche.errors import invalid
from escarmouche.memo import Memo
from escarmouche.model import Combatant, Json, check_roster
from escarmouche.render.table import Table, Text
from escarmouche.rng import Rng, ScriptedRolls
from escarmouche.state import ENVIRONMENT
from escarmouche.systems.d12 import narration
from escarmouche.systems.d12.lots import Lot, by_lot, draw
from escarmouche.systems.d12.narration import BONUS_SCOPE
from escarmouche.systems.d12.rules import (
    ALERT_TRAIT,
    ATTACK_DIE,
    DEFAULT_RULES,
    ENVIRONMENT_INITIATIVE,
    Rules,
    check_bonus,
)
from escarmouche.text.fmt import join, plural

__all__ = [
    "BONUS_SCOPE",
    "BonusTie",
    "D12Initiative",
    "GroupResult",
    "GroupTie",
    "InitiativeRoll",
    "PerfectTie",
    "RollOff",
    "bonus_turn_participants",
    "check_initiative_roster",
    "compare_groups",
    "draw_initiative",
    "initiative",
    "member_order",
    "rank_groups",
    "resolve_initiative",
    "roll_bonus_turn",
    "roll_groups_after_bonus",
    "roll_initiative",
]


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
        return narration.group_tie_sentence(self)

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
    #: the sub-ties settled by lot once the bound of rounds was reached (D12-INIT-6)
    lots: tuple[Lot, ...] = field(default=(), repr=False)

    def to_json(self) -> dict[str, Json]:
        out: dict[str, Json] = {"scope": self.scope, "total": self.total,
                                "bonus": self.bonus,
                                "rounds": [[list(d) for d in r] for r in self.rounds],
                                "order": list(self.order)}
        if self.lots:
            out["lots"] = [lot.to_json() for lot in self.lots]
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> RollOff:
        return cls(
            str(data["scope"]), int(data["total"]), int(data["bonus"]),
            tuple(tuple((str(n), int(v)) for n, v in r) for r in data["rounds"]),
            tuple(data["order"]), tuple(Lot.from_json(x) for x in data.get("lots", [])),
        )


@dataclass(frozen=True, slots=True)
class D12Initiative:
    """The whole initiative of a d12 fight, with everything a GM wants to see.

    ``groups``
        ``(side, member names in execution order)`` in acting order; the environment
        is ``("environnement", [])`` (spec/API.md).
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
        how every tie was broken (D12-INIT-3/4/5); the bonus turn's roll-offs first.
    ``out``
        the fighters knocked out in the bonus turn, who rolled no group initiative
        (D12-SURPRISE-1).

    After an ambush, until group initiative is rolled at the end of the bonus turn,
    :attr:`pending` is true: ``groups``, ``rolls``, ``attempts`` and ``group_results``
    are empty.
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
    out: tuple[str, ...] = ()
    #: perfect ties still there after the bound of rerolls, settled by lot (D12-INIT-6)
    lots: tuple[Lot, ...] = field(default=(), repr=False)

    @property
    def pending(self) -> bool:
        """True between the ambush and the end of its bonus turn: group initiative is
        not rolled yet (D12-SURPRISE-1)."""
        return not self.attempts

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
        raise invalid("combattant", name, "D12-INIT-1", "absent de cette initiative, qui compte "
                      + join([r.name for r in self.rolls]))

    def narration(self) -> list[str]:
        """French sentences: bonus turn, rerolls, group values, how each tie was broken."""
        return narration.initiative_lines(self)

    def table(self) -> Table:
        """The groups in acting order: initiative, members in execution order."""
        values = {g.side: g for g in self.group_results}
        rows: list[tuple[object, ...]] = []
        if self.bonus_turn:
            rows.append(("Tour bonus (tour 0)", "—", ", ".join(self.bonus_turn)))
        for side, members in self.groups:
            g = values[side]
            if g.environment:
                rows.append(("environnement", ENVIRONMENT_INITIATIVE, "événements passifs"))
            else:
                rows.append((side, g.value, ", ".join(members)))
        return Table(("Groupe", "Initiative", "Ordre d’exécution"), rows,
                     "Initiative de groupe (système d12)")

    def _repr_html_(self) -> str:
        return (self.table()._repr_html_()
                + Text("\n".join(self.narration()))._repr_html_())

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
            "out": list(self.out),
            **({"lots": [lot.to_json() for lot in self.lots]} if self.lots else {}),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> D12Initiative:
        attempts = tuple(tuple(InitiativeRoll.from_json(r) for r in a)
                         for a in data["attempts"])
        return cls(
            groups=[(str(s), [str(n) for n in m]) for s, m in data["groups"]],
            bonus_turn=[str(n) for n in data["bonus_turn"]],
            rolls=attempts[-1] if attempts else (),
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
            out=tuple(str(n) for n in data.get("out", [])),
            lots=tuple(Lot.from_json(x) for x in data.get("lots", [])),
        )


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
        totals = by_side.get(r.side)
        if totals is None:
            by_side[r.side] = [r.total]
        else:
            totals.append(r.total)
    groups = [GroupResult(s, tuple(sorted(v, reverse=True))) for s, v in by_side.items()]
    groups.sort(key=_results_of, reverse=True)
    perfect: list[str] = []
    ties: list[GroupTie] = []
    for a, b in itertools.pairwise(groups):
        if a.results == b.results:
            perfect += [s for s in (a.side, b.side) if s not in perfect]
        elif a.results[0] == b.results[0]:  # the same value, not the same list
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


#: the key :func:`rank_groups` sorts groups by: their descending results
_results_of = operator.attrgetter("results")


def member_order(
    rolls: Sequence[InitiativeRoll],
) -> tuple[list[list[InitiativeRoll]], list[BonusTie]]:
    """Sort fighters by individual initiative, ties by the higher bonus (pure;
    D12-INIT-4, D12-SURPRISE-2).

    Returns the fighters as a list of *blocks* in order: a block of one is placed; a
    block of several is still tied (same total, same bonus) and needs a roll-off. The
    second value lists the ties the bonus broke. The given order is kept inside a block.
    """
    if len(rolls) == 1:
        return [[rolls[0]]], []
    ranked = sorted(rolls, key=_member_key)
    blocks: list[list[InitiativeRoll]] = []
    last: tuple[int, int] | None = None
    shared = False  # two fighters with the same total
    for r in ranked:
        key = (r.total, r.bonus)
        if key == last:
            blocks[-1].append(r)
        else:
            if last is not None and key[0] == last[0]:
                shared = True
            blocks.append([r])
            last = key
    bonus_ties: list[BonusTie] = []
    if len(blocks) == len(ranked) and not shared:
        return blocks, bonus_ties  # every total different: no tie at all
    by_total: dict[int, list[InitiativeRoll]] = {}
    for r in ranked:
        by_total.setdefault(r.total, []).append(r)
    for total, same in by_total.items():
        if len({r.bonus for r in same}) > 1:
            bonus_ties.append(BonusTie("", total, tuple((r.name, r.bonus) for r in same)))
    return blocks, bonus_ties


def _member_key(r: InitiativeRoll) -> tuple[int, int]:
    """:func:`member_order`'s order: the higher total first, then the higher bonus."""
    return (-r.total, -r.bonus)


# -- the rolling wrapper -----------------------------------------------------------------


def check_initiative_roster(combatants: Iterable[Combatant]) -> list[Combatant]:
    """The roster, checked: Combatants, unique names, none named like the environment,
    ``init`` in −40–40 (D12-INIT-1, D12-INIT-5)."""
    roster = check_roster(combatants, rule="D12-INIT-1", non_empty=True)
    for c in roster:
        if c.name == ENVIRONMENT or c.side == ENVIRONMENT:
            raise invalid("nom", ENVIRONMENT, "D12-INIT-5", "ce nom est réservé à l’environnement")
        check_bonus(c.stat("init", 0), c.name, stat="init", rule="D12-INIT-1")
    return roster


def bonus_turn_participants(roster: Sequence[Combatant], ambush_by: str | None
                            ) -> list[Combatant]:
    """Who acts in the ambush's bonus turn: the attackers and the defenders with the trait
    ``alerte``, in roster order (D12-SURPRISE-1, D12-SURPRISE-2); nobody without ambush."""
    if ambush_by is None:
        return []
    return [c for c in roster if c.side == ambush_by or ALERT_TRAIT in c.traits]


def _rolls(roster: Iterable[Combatant], rng: Rng) -> tuple[InitiativeRoll, ...]:
    """One d12 + ``init`` each, in the given order (D12-INIT-1, D12-SURPRISE-2)."""
    randint = rng.randint
    return tuple([_roll(c, randint(1, ATTACK_DIE)) for c in roster])


#: the initiative rolls already built, by die and combatant (by identity): a fight's
#: fighters roll the same twelve values again and again
_ROLLS: Memo[InitiativeRoll] = Memo(4096)


def _roll(c: Combatant, die: int) -> InitiativeRoll:
    """``c``'s initiative roll of ``die`` (D12-INIT-1: its ``init`` bonus, 0 when absent),
    a frozen value kept per die and combatant (a die that is not an int, from an rng of
    its own, is never a key: 5.0 would read back as 5)."""
    known = _ROLLS.get(die, c) if type(die) is int else None
    if known is None:
        known = InitiativeRoll(c.name, c.side, die, c.stat("init", 0))
        if type(die) is int:
            _ROLLS.put(die, known, c)
    return known


def _roll_off(
    block: list[InitiativeRoll], scope: str, rng: Rng, cap: int
) -> tuple[list[str], RollOff]:
    """Break a tie by rolling off: one d12 each in the given order, higher first; a
    sub-tie rolls again at once (the higher sub-tie first). After ``cap`` rounds, a tie
    still there is settled by lot (D12-INIT-6)."""
    rounds: list[tuple[tuple[str, int], ...]] = []
    lots: list[Lot] = []

    def settle(names: list[str]) -> list[str]:
        if len(rounds) >= cap:
            lots.append(draw(names, rng, scope=scope, after=cap))
            return list(lots[-1].order)
        draws = tuple((n, rng.randint(1, ATTACK_DIE)) for n in names)
        rounds.append(draws)
        out: list[str] = []
        for value in sorted({v for _, v in draws}, reverse=True):
            same = [n for n, v in draws if v == value]
            out += same if len(same) == 1 else settle(same)
        return out

    order = settle([r.name for r in block])
    return order, RollOff(scope, block[0].total, block[0].bonus, tuple(rounds), tuple(order),
                          tuple(lots))


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
    if bonus_ties:
        bonus_ties = [dataclasses.replace(b, scope=scope) for b in bonus_ties]
    return names, bonus_ties, roll_offs


def _check_rules(rules: object) -> None:
    if not isinstance(rules, Rules):
        raise invalid("rules", rules, "CORE-ERR", "un objet d12.Rules est attendu")


def roll_bonus_turn(
    combatants: Iterable[Combatant],
    rng: Rng,
    *,
    ambush_by: str,
    environment: bool = False,
    rules: Rules = DEFAULT_RULES,
) -> D12Initiative:
    """Roll the ambush's bonus turn only (D12-SURPRISE-1, D12-SURPRISE-2): the attackers
    and the defenders with the trait ``alerte`` roll 1d12 + ``init`` each and act in that
    order in turn 0. Group initiative is not rolled yet (:attr:`D12Initiative.pending`):
    :func:`roll_groups_after_bonus` rolls it once the bonus turn is over.

    Draw order: one d12 per participant (given order), then the bonus turn's roll-offs
    (the tie at the higher result first, one d12 per tied fighter in the given order).
    """
    roster = check_initiative_roster(combatants)
    checks.flag("environment", environment, "D12-INIT-5")
    sides = list(dict.fromkeys(c.side for c in roster))
    checks.name_in("ambush_by", ambush_by, sides, "D12-SURPRISE-1", what="camp")
    _check_rules(rules)
    bonus_rolls = _rolls(bonus_turn_participants(roster, ambush_by), rng)
    bonus_turn, bonus_ties, roll_offs = _order_with_roll_offs(
        bonus_rolls, BONUS_SCOPE, rng, rules.max_roll_off_rounds
    )
    return D12Initiative(
        groups=[], bonus_turn=bonus_turn, rolls=(), attempts=(), perfect_ties=(),
        bonus_rolls=bonus_rolls, group_results=(), group_ties=(),
        bonus_ties=tuple(bonus_ties), roll_offs=tuple(roll_offs), environment=environment,
        ambush_by=ambush_by,
        rules=("D12-SURPRISE-1", "D12-SURPRISE-2", "D12-INIT-1", "D12-INIT-4"),
    )


def roll_groups_after_bonus(
    init: D12Initiative,
    combatants: Iterable[Combatant],
    rng: Rng,
    *,
    out: Iterable[str] = (),
    rules: Rules = DEFAULT_RULES,
) -> D12Initiative:
    """Roll group initiative once the bonus turn of ``init`` is over (D12-SURPRISE-1:
    « Une fois leur tour terminé, vous pouvez lancer votre initiative de groupe »).

    ``out`` names the fighters knocked out in the bonus turn: they roll nothing and set
    no group's initiative. Draw order: that of :func:`initiative` without an ambush,
    over the fighters still in the fight.
    """
    if not isinstance(init, D12Initiative) or init.ambush_by is None or not init.pending:
        raise invalid("initiative", "…", "D12-SURPRISE-1",
                      "il faut le tour bonus d’une embuscade dont l’initiative de groupe "
                      "n’est pas encore lancée")
    roster = check_initiative_roster(combatants)
    _check_rules(rules)
    names = [c.name for c in roster]
    gone = tuple(checks.name_in("hors de combat", n, names, "D12-SURPRISE-1")
                 for n in dict.fromkeys(out))
    present = [c for c in roster if c.name not in gone]
    part = draw_initiative(present, rng, environment=init.environment, rules=rules)
    return dataclasses.replace(
        part,
        bonus_turn=init.bonus_turn, bonus_rolls=init.bonus_rolls,
        bonus_ties=init.bonus_ties + part.bonus_ties,
        roll_offs=init.roll_offs + part.roll_offs, ambush_by=init.ambush_by,
        rules=(*part.rules[:3], "D12-SURPRISE-1", "D12-SURPRISE-2", *part.rules[3:]),
        out=tuple(n for n in names if n in gone),
    )


def draw_initiative(
    roster: Sequence[Combatant], rng: Rng, *, environment: bool, rules: Rules
) -> D12Initiative:
    """Group initiative of ``roster`` without an ambush, its draws and result those of
    :func:`initiative`, on a roster, flag and rules already checked
    (:func:`check_initiative_roster`): :func:`initiative`'s core, and the rules kernel's
    way in (``escarmouche.systems.d12.kernel``, which checks them once per roster)."""
    applied = ["D12-INIT-1", "D12-INIT-2", "D12-INIT-4"]
    attempts: list[tuple[InitiativeRoll, ...]] = []
    perfect_ties: list[PerfectTie] = []
    lots: list[Lot] = []
    while True:
        rolls = _rolls(roster, rng)
        attempts.append(rolls)
        results, ties, perfect = rank_groups(rolls, environment=environment)
        if not perfect:
            break
        if len(perfect_ties) >= rules.max_initiative_rerolls:
            # the bound is reached: the groups still tied are ordered by lot
            results, lots = by_lot(results, rng, len(perfect_ties))
            break
        tied = next(g.results for g in results if g.side == perfect[0])
        perfect_ties.append(PerfectTie(len(attempts), perfect, tied))
    if perfect_ties or lots or (ties and any(t.rule == "D12-INIT-3" for t in ties)):
        applied.append("D12-INIT-3")
    if environment:
        applied.append("D12-INIT-5")

    by_side: dict[str, list[InitiativeRoll]] = {}  # each side's rolls, in the given order
    for r in rolls:
        mine = by_side.get(r.side)
        if mine is None:
            by_side[r.side] = [r]
        else:
            mine.append(r)
    bonus_ties: list[BonusTie] = []
    roll_offs: list[RollOff] = []
    groups: list[tuple[str, list[str]]] = []
    for g in results:
        if g.environment:
            groups.append((ENVIRONMENT, []))
            continue
        members, bt, ro = _order_with_roll_offs(by_side[g.side], g.side, rng,
                                                rules.max_roll_off_rounds)
        groups.append((g.side, members))
        if bt:
            bonus_ties += bt
        if ro:
            roll_offs += ro
    if lots or (roll_offs and any(r.lots for r in roll_offs)):
        applied.append("D12-INIT-6")
    return D12Initiative(
        groups=groups,
        bonus_turn=[],
        rolls=rolls,
        attempts=tuple(attempts),
        perfect_ties=tuple(perfect_ties),
        bonus_rolls=(),
        group_results=results,
        group_ties=ties,
        bonus_ties=tuple(bonus_ties),
        roll_offs=tuple(roll_offs),
        environment=environment,
        rules=tuple(applied),
        lots=tuple(lots),
    )


def initiative(
    combatants: Iterable[Combatant],
    rng: Rng,
    *,
    environment: bool = False,
    ambush_by: str | None = None,
    out: Iterable[str] = (),
    rules: Rules = DEFAULT_RULES,
) -> D12Initiative:
    """Roll the initiative of a d12 fight (spec/API.md; D12-INIT-1..5, D12-SURPRISE-1/2).

    Each combatant rolls 1d12 + ``init`` (0 when absent); a group's initiative is its
    highest result; groups are compared as descending lists; a perfect tie makes
    everyone reroll (at most ``rules.max_initiative_rerolls`` times, then the groups
    still tied are ordered by lot, D12-INIT-6). Inside a group, fighters act in
    individual order (ties: higher bonus, then roll-off). With ``environment=True`` a
    memberless group ``"environnement"`` sits at 12 and loses ties. With ``ambush_by``
    (a side of the roster) the attackers and the defenders with the trait ``alerte`` get
    a bonus turn (turn 0), ordered by their own individual roll; group initiative is
    rolled after it, once for the whole fight, by everyone but ``out`` (the fighters
    knocked out in the bonus turn, D12-SURPRISE-1). This function rolls both parts at
    once; a fight rolls the second one when the bonus turn ends
    (:func:`roll_bonus_turn`, :func:`roll_groups_after_bonus`).

    Draw order (spec/API.md): with ``ambush_by``, one d12 per bonus-turn participant (given
    order), then the bonus turn's roll-offs; then one d12 per combatant (given order);
    after a perfect tie, one d12 per combatant again (given order); past the bound of
    rerolls, the lot's dice (D12-INIT-6); then each group's roll-offs in acting order. A
    roll-off takes the tie at the higher result first, one d12 per tied fighter in the
    given order, a sub-tie rolled again at once (higher first).
    """
    if ambush_by is not None:
        bonus = roll_bonus_turn(combatants, rng, ambush_by=ambush_by,
                                environment=environment, rules=rules)
        return roll_groups_after_bonus(bonus, combatants, rng, out=out, rules=rules)
    roster = check_initiative_roster(combatants)
    checks.flag("environment", environment, "D12-INIT-5")
    _check_rules(rules)
    if tuple(out):
        raise invalid("hors de combat", list(out), "D12-SURPRISE-1",
                      "seule une embuscade a un tour bonus où tomber avant l’initiative")
    return draw_initiative(roster, rng, environment=environment, rules=rules)



#: the rolling function's name under the naming rule (``roll_<thing>``); ``initiative``
#: is the spec/API.md name
roll_initiative = initiative


def resolve_initiative(
    combatants: Iterable[Combatant],
    dice: Sequence[int],
    *,
    environment: bool = False,
    ambush_by: str | None = None,
    out: Iterable[str] = (),
    rules: Rules = DEFAULT_RULES,
) -> D12Initiative:
    """The initiative from d12 already rolled, in the draw order of :func:`initiative`
    (pure; every die must be used).

    >>> from escarmouche import Combatant
    >>> resolve_initiative([Combatant("A", "x"), Combatant("B", "y")], [3, 9]).groups
    [('y', ['B']), ('x', ['A'])]
    """
    shown = checks.sequence("dés", dice, "D12-INIT-1", min_len=1)
    for v in shown:
        checks.die("dé", v, ATTACK_DIE, "D12-INIT-1")
    scripted = ScriptedRolls([v for v in shown if isinstance(v, int)])
    init = initiative(combatants, scripted, environment=environment, ambush_by=ambush_by,
                      out=out, rules=rules)
    if scripted.remaining:
        raise invalid("dés", list(shown), "D12-INIT-1",
                      f"{plural(scripted.remaining, 'dé')} de trop pour cette initiative")
    return init
