"""RB-INIT-1..4 and RB-SURPRISE-3: the initiative (HAB tests, ties, roll-offs), turn 0,
and the order of each global turn after the speed effects (RB-SPEED-3).

Draw order of :func:`initiative` (``roll_initiative``): one d100 per combatant (HAB test,
RB-INIT-1) in the given order; then the roll-offs (RB-INIT-2): in each round, one d100
for every combatant still tied, whatever its tie group, in the given order; rounds
repeat until every tie is broken (at most
:data:`~escarmouche.systems.rulebook.rules.MAX_ROLLOFF_ROUNDS` rounds, then
:class:`~escarmouche.errors.RuleBoundError`). :func:`resolve_initiative` takes the same
dice already rolled.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from escarmouche import checks
from escarmouche.errors import RuleBoundError, invalid
from escarmouche.memo import Memo
from escarmouche.model import Combatant, Json, check_roster
from escarmouche.render.table import Table, Text
from escarmouche.rng import Rng
from escarmouche.systems.describe import InitiativeReport
from escarmouche.systems.rulebook.rules import (
    DEFAULT_RULES,
    MAX_ROLLOFF_ROUNDS,
    Rules,
    TestResult,
    check_stat,
    check_traits,
    d100_outcome,
    d100_test,
)
from escarmouche.systems.rulebook.speed import SpeedOrder, apply_speed, speed_profiles
from escarmouche.text import fmt

if TYPE_CHECKING:
    from escarmouche.encounter import Encounter

__all__ = [
    "Initiative",
    "InitiativeRoll",
    "TieBreak",
    "TurnZeroEntry",
    "draw_initiative",
    "encounter_initiative",
    "explain_initiative",
    "initiative",
    "resolve_initiative",
    "roll_initiative",
    "turn_filter",
]


@dataclasses.dataclass(frozen=True, slots=True)
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


@dataclasses.dataclass(frozen=True, slots=True)
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


@dataclasses.dataclass(frozen=True, slots=True)
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


@dataclasses.dataclass(frozen=True, slots=True)
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
        raise invalid("combattant", name, "RB-INIT-1", "absent de cette initiative")

    def turn(self, n: int) -> list[str]:
        """The names in activation order for global turn ``n`` (0 = turn 0).

        A name appears twice under Hyperactivité (not in turn 0), and is absent from turns
        0 and 1 after a critical failure (RB-INIT-4). A character under Hypoactivité has
        its slot: its 1d4 is rolled when the slot comes (RB-SPEED-1).
        """
        n = checks.integer("tour", n, lo=0, hi=1_000_000, rule="RB-TURN-1")
        include, exclude = turn_filter(n, self.turn_zero, self.late)
        return self.speed.slots(include, exclude=exclude, twice=n > 0)

    def explain(self) -> list[str]:
        """French lines a GM can read: each roll, each tie, turn 0, each speed effect."""
        lines = []
        for r in self.rolls:
            lines.append(f"{r.name} : initiative {r.test.describe()} (RB-INIT-1).")
        lines.extend(f"{t.text} (RB-INIT-2)." for t in self.ties)
        lines.append(f"Ordre d’initiative : {', '.join(self.order)} (RB-INIT-2).")
        for z in self.turn_zero_reasons:
            lines.append(f"{fmt.cite(z.text, ', '.join(z.rules))}.")
        lines.extend(f"{line}." for line in self.speed.explain())
        return lines

    def table(self) -> Table:
        """Each combatant's HAB test and roll-off dice, as a French table."""
        rows = [(r.name, r.hab, r.test.roll, r.test.label, r.test.margin,
                 ", ".join(fmt.number(v) for v in r.rolloffs) or "—") for r in self.rolls]
        return Table(("Combattant", "HAB", "Jet", "Résultat", "Marge", "Départage"), rows,
                     title="Initiative (RB-INIT-1, RB-INIT-2)")

    def _repr_html_(self) -> str:
        return (self.table()._repr_html_()
                + Text("\n".join(self.explain()[len(self.rolls):]))._repr_html_())

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


def turn_filter(n: int, turn_zero: Sequence[str], late: Sequence[str]
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
    keys = [_rank_key(r) for r in rolls]
    if len(set(keys)) == len(keys):  # no two at the same margin: nothing to break
        return ([given[i] for i in sorted(range(len(keys)), key=keys.__getitem__)], [],
                {n: [] for n in given})
    key = _rank_key
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
            raise invalid("départage", MAX_ROLLOFF_ROUNDS, "RB-INIT-2",
                          f"{fmt.join(tied)} sont encore à égalité après "
                          f"{fmt.plural(MAX_ROLLOFF_ROUNDS, 'manche')} ; la limite "
                          "documentée des départages est atteinte", kind=RuleBoundError)
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
        # the shape of the other systems' roll-offs (B24–B26, B102): a name never runs
        # into its number (« Dague a 50 », « Dague fait 12 »), one colon at most, in
        # the parentheses of the rounds
        text = (f"Égalité à la marge {fmt.number(g[0].test.margin)}{what} entre "
                f"{fmt.join(members)}, départagée par la HAB, la plus haute d’abord ("
                + ", ".join(f"{n} a {fmt.number(h)}" for n, h in habs) + ")")
        if g_rounds:
            parts = [
                f"manche {i + 1} : " + ", ".join(f"{n} fait {fmt.number(v)}" for n, v in r)
                for i, r in enumerate(g_rounds)
            ]
            text += ", puis au d100, le plus haut d’abord (" + " ; ".join(parts) + ")"
        text += f", d’où l’ordre {', '.join(resolved)}"
        ties.append(TieBreak(tuple(members), crit, g[0].test.margin, habs, g_rounds,
                             resolved, text))
    return order, ties, rolloffs


def _rank_key(r: InitiativeRoll) -> tuple[int, int]:
    """RB-INIT-2's order: critical successes first, then the margin, descending."""
    return (0 if r.test.critical == "success" else 1, -r.test.margin)


def _turn_zero(
    rolls: Sequence[InitiativeRoll], roster: Sequence[Combatant], surprise_by: str | None,
) -> list[TurnZeroEntry]:
    """Who is in turn 0 and why (RB-INIT-3, RB-INIT-4, RB-SURPRISE-3); ``rolls`` are
    ``roster``'s, in its order."""
    out: list[TurnZeroEntry] = []
    for r, c in zip(rolls, roster, strict=True):
        crit = r.test.critical
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
                                 f"{r.name} joue au tour 0 ({fmt.join(reasons)})"))
    return out


def resolve_initiative(
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
    roster = check_roster(combatants, rule="RB-INIT-1")
    checks.sequence("jets", rolls, "RB-INIT-1")
    values = list(rolls)
    if len(values) != len(roster):
        raise invalid("jets", len(values), "RB-INIT-1",
                      "un d100 par combattant est attendu, soit "
                      f"{fmt.plural(len(roster), 'valeur')}")
    queue = list(checks.sequence("départage", rolloffs, "RB-INIT-2"))
    used = 0

    def draw(name: str, rnd: int) -> int:
        nonlocal used
        if used >= len(queue):
            raise invalid("départage", len(queue), "RB-INIT-2",
                          f"il manque un d100 (manche {rnd}, pour {name})")
        value = checks.die("départage", queue[used], 100, "RB-INIT-2", who=name)
        used += 1
        return value

    init = resolve_initiative_with(roster, values, draw, surprise_by, rules)
    if used != len(queue):
        raise invalid("départage", len(queue), "RB-INIT-2",
                      f"seules {fmt.plural(used, 'valeur')} ont servi")
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
    roster = check_roster(combatants, rule="RB-INIT-1")
    _validate_for_initiative(roster, surprise_by, rules)
    return draw_initiative(roster, rng.randint, surprise_by, rules)


def draw_initiative(
    roster: Sequence[Combatant], randint: Callable[[int, int], int], surprise_by: str | None,
    rules: Rules, *, speed_of: Callable[[Sequence[str]], SpeedOrder] | None = None,
) -> Initiative:
    """The draws of :func:`initiative` on a roster already checked (the rules kernel's
    way in): one d100 per combatant in the given order, then each roll-off round's
    (RB-INIT-1/2), resolved by :func:`resolve_initiative_with` without checking again;
    ``speed_of`` gives the order after the traits' speed effects (RB-SPEED-3) when the
    caller keeps them (default: :func:`.speed.apply_speed` of the traits' profiles)."""
    values = [randint(1, 100) for _ in roster]
    return resolve_initiative_with(roster, values, lambda _n, _r: randint(1, 100),
                                   surprise_by, rules, speed_of=speed_of, checked=True)


def explain_initiative(combatants: Sequence[Combatant], rng: Rng, *,
                       rules: Rules = DEFAULT_RULES) -> InitiativeReport:
    """Roll the initiative (:func:`initiative`) and explain it for a reader: global
    turns 0, 1 and 2, each roll, tie, turn-0 reason and speed effect, the dice named
    (one d100 per combatant, then the roll-offs)."""
    init = initiative(combatants, rng, rules=rules)
    names = [c.name for c in combatants]
    steps = [(i, fmt.die_of("initiative", n)) for i, n in enumerate(names)]
    steps.append((len(names), "départage"))
    return InitiativeReport(
        tuple((f"Tour {n}", tuple(init.turn(n))) for n in (0, 1, 2)),
        tuple(init.explain()), tuple(init.rules), tuple(steps), "Tours 0, 1 et 2")


def _validate_for_initiative(
    roster: Sequence[Combatant], surprise_by: str | None, rules: Rules
) -> None:
    if not roster:
        raise invalid("combattants", [], "RB-INIT-1",
                      "l’initiative demande au moins un combattant")
    for c in roster:
        check_stat(c, "HAB", "RB-INIT-1")
        check_traits(c, rules)
    if surprise_by is not None:
        sides = list(dict.fromkeys(c.side for c in roster))
        checks.name_in("surprise_by", surprise_by, sides, "RB-SURPRISE-3", what="camp")


#: the initiative rolls without roll-offs already built, by (name, side, HAB, d100) and
#: rule set (a fight's fighters make the same few rolls again and again)
_ROLLS: Memo[InitiativeRoll] = Memo(4096)


def _checked_roll(c: Combatant, value: int, rules: Rules) -> InitiativeRoll:
    """``c``'s initiative roll of ``value`` before any roll-off, its HAB test resolved by
    :func:`.rules.d100_outcome` (RB-INIT-1: a checked combatant and die), kept per
    combatant, die and rule set (a frozen value). A die that is not an int from 1 to
    100, from an rng of its own, is checked by :func:`.rules.d100_test` and never a key
    (5.0 would read back as 5)."""
    hab = c.stats["HAB"]
    if type(value) is not int or not 1 <= value <= 100:  # checked, refused in French
        return InitiativeRoll(c.name, c.side, hab, d100_test(hab, value, rules))
    key = (c.name, c.side, hab, value)
    known = _ROLLS.get(key, rules)
    if known is None:
        known = _ROLLS.put(key, InitiativeRoll(c.name, c.side, hab,
                                               d100_outcome(hab, value, rules)), rules)
    return known


def resolve_initiative_with(
    roster: Sequence[Combatant], values: Sequence[int], draw: Callable[[str, int], int],
    surprise_by: str | None, rules: Rules, *,
    speed_of: Callable[[Sequence[str]], SpeedOrder] | None = None, checked: bool = False,
) -> Initiative:
    """The initiative from the first d100s (``values``, roster order) and a ``draw(name,
    round)`` that gives each roll-off die: the pure core of :func:`resolve_initiative`,
    also used to re-derive a saved initiative from its dice. ``checked``: the roster
    and ``surprise_by`` are already checked; ``speed_of``: as :func:`draw_initiative`."""
    if not checked:
        _validate_for_initiative(roster, surprise_by, rules)
    if checked:
        base = [_checked_roll(c, v, rules) for c, v in zip(roster, values, strict=True)]
    else:
        base = [InitiativeRoll(c.name, c.side, c.stats["HAB"], d100_test(c.stats["HAB"], v,
                                                                         rules))
                for c, v in zip(roster, values, strict=True)]
    order, ties, rolloffs = _rank(base, draw)
    rolls = tuple([
        InitiativeRoll(r.name, r.side, r.hab, r.test, tuple(rolloffs[r.name]))
        if rolloffs[r.name] else r for r in base
    ]) if ties else tuple(base)  # roll-offs only to break a tie
    criticals = [r.test.critical for r in rolls]
    zero = _turn_zero(rolls, roster, surprise_by)
    speed = (apply_speed(order, speed_profiles(roster), rules) if speed_of is None
             else speed_of(order))
    turn_zero: tuple[str, ...] = ()
    if zero:
        included = {z.name for z in zero if z.included}
        turn_zero = tuple([n for n in speed.order if n in included])
    late: tuple[str, ...] = ()
    if "failure" in criticals:
        failed = {r.name for r in rolls if r.test.critical == "failure"}
        late = tuple([n for n in order if n in failed])
    applied = ["RB-INIT-1", "RB-D100-1", "RB-INIT-2"]
    if "success" in criticals:
        applied.append("RB-INIT-3")
    if late:
        applied.append("RB-INIT-4")
    if surprise_by is not None:
        applied.append("RB-SURPRISE-3")
    if speed.steps:
        applied.extend(dict.fromkeys([s.rule for s in speed.steps]))
    return Initiative(rolls, tuple(order), tuple(ties), speed, turn_zero, tuple(zero), late,
                      surprise_by, tuple(dict.fromkeys(applied)))



def encounter_initiative(enc: Encounter) -> Initiative:
    """The :class:`Initiative` of a started rulebook encounter (for widgets and the book)."""
    data = enc.state.system_state.get("initiative")
    if enc.state.system != "rulebook" or data is None:
        raise invalid("combat", enc.state.system, "RB-INIT-1",
                      "pas d’initiative Rulebook ; lancez un combat « rulebook » avec start()")
    assert isinstance(data, Mapping)
    return Initiative.from_json(data)



#: the rolling function under the naming rule (``initiative`` is the spec/API.md name)
roll_initiative = initiative

