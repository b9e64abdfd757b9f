"""The balance of a simulation: exact counts of many fights, and their French report.

Each batch of fights is tallied in exact integer counts, and the tallies are merged in
fight order. A :class:`Balance` is what a reader sees: per side, the win rate with its
Wilson 95 % interval (:func:`wilson`), survivors, health left, damage per round; the
duration of the fights; as a table (:meth:`Balance.table`), JSON or SVG.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from escarmouche.errors import EscarmoucheError
from escarmouche.render.simsvg import stack_svg
from escarmouche.render.svg import distribution_svg, outcome_bars_svg
from escarmouche.render.table import ShownAsTable, Table
from escarmouche.simulation.fight import FightResult
from escarmouche.systems import display_name
from escarmouche.systems import get as get_system
from escarmouche.text.fmt import fixed, number, percent, plural
from escarmouche.text.typo import typographie

__all__ = ["REPORT_FORMAT", "Z95", "Balance", "shares", "wilson"]

#: the format of the JSON report (``schemas/bilan-2.schema.json``): 2 adds the ``format``
#: field itself, named as in every file (format 1 had no number)
REPORT_FORMAT = 2

#: the z value of a two-sided 95 % interval
Z95 = 1.959963984540054


@dataclasses.dataclass
class _Tally:
    n: int = 0
    wins: Counter[str] = dataclasses.field(default_factory=Counter)
    draws: int = 0
    timeouts: int = 0
    by_lot: int = 0
    rounds: Counter[int] = dataclasses.field(default_factory=Counter)
    survivors: dict[str, Counter[int]] = dataclasses.field(default_factory=dict)
    health: dict[str, Counter[int]] = dataclasses.field(default_factory=dict)
    health_max: Counter[str] = dataclasses.field(default_factory=Counter)
    damage_taken: Counter[str] = dataclasses.field(default_factory=Counter)

    def add(self, r: FightResult) -> None:
        self.n += 1
        if r.winner is not None:
            self.wins[r.winner] += 1
        elif r.timed_out:
            self.timeouts += 1
        else:
            self.draws += 1
        if r.lots:
            self.by_lot += 1
        self.rounds[r.rounds] += 1
        top = dict(r.health_max)
        survivors, health = self.survivors, self.health
        for side, count in r.survivors:
            # (a side's counter made once: ``setdefault(side, Counter())`` would build
            # one per fight, a third of this method's time)
            counts = survivors.get(side)
            if counts is None:
                counts = survivors[side] = Counter()
            counts[count] += 1
        for side, value in r.health:
            counts = health.get(side)
            if counts is None:
                counts = health[side] = Counter()
            counts[value] += 1
            self.health_max[side] += top[side]
            self.damage_taken[side] += top[side] - value

    def merge(self, other: _Tally) -> None:
        self.n += other.n
        self.wins.update(other.wins)
        self.draws += other.draws
        self.timeouts += other.timeouts
        self.by_lot += other.by_lot
        self.rounds.update(other.rounds)
        for side, c in other.survivors.items():
            self.survivors.setdefault(side, Counter()).update(c)
        for side, c in other.health.items():
            self.health.setdefault(side, Counter()).update(c)
        self.health_max.update(other.health_max)
        self.damage_taken.update(other.damage_taken)


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default).

    >>> low, high = wilson(50, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    >>> wilson(0, 10)[0]
    0.0
    """
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return (low, high)


def _pct(x: float) -> str:
    return percent(Fraction(x).limit_denominator(10**9))


def shares(counts: Sequence[int], n: int) -> list[str]:
    """``counts`` out of ``n`` as French percentages with one decimal that add up to
    100,0 % when the counts add up to ``n`` (largest remainder, ties to the first): two
    sides at 49,05 % and 50,95 % read 49,1 % and 50,9 %, never 49,1 % and 51,0 %. A
    non-zero share never reads 0,0 %, a share below 1 never 100,0 % (:func:`percent`).

    >>> shares([4905, 5095], 10_000)
    ['49,1\u202f%', '50,9\u202f%']
    >>> shares([1, 9_999, 0], 10_000)
    ['<\u202f0,1\u202f%', '>\u202f99,9\u202f%', '0,0\u202f%']
    """
    if n <= 0 or sum(counts) != n or any(k < 0 for k in counts):
        return [percent(Fraction(k, max(n, 1))) for k in counts]
    exact = [Fraction(1000 * k, n) for k in counts]
    units = [int(e) for e in exact]
    order = sorted(range(len(counts)), key=lambda i: (units[i] - exact[i], i))
    for i in order[: 1000 - sum(units)]:
        units[i] += 1
    return [percent(Fraction(k, n)) if (k and not u) or (k < n and u == 1000)
            else percent(Fraction(u, 1000)) for k, u in zip(counts, units, strict=True)]


def _num(x: float, digits: int = 2) -> str:
    return number(Fraction(x).limit_denominator(10**9), digits)


def _col(x: float, digits: int = 2) -> str:
    """A figure of a simulation table or of the figures its title compares, with exactly
    ``digits`` decimals (B112: « 1 » under « 1,67 » read as another precision)."""
    return fixed(Fraction(x).limit_denominator(10**9), digits)


def _points(points: float) -> str:
    """« 0,8 point », « 2 points » (French: plural from 2 on), one decimal."""
    shown = _num(points, 1)
    return f"{shown} {'points' if round(points, 1) >= 2 else 'point'}"


def _count(n: int, singular: str, plural_form: str) -> str:
    """« aucun match nul », « 1 match nul », « 3 matchs nuls »."""
    return f"aucun {singular}" if n == 0 else plural(n, singular, plural_form)


def _mean(counts: Mapping[int, int]) -> float:
    total = sum(counts.values())
    return sum(k * v for k, v in counts.items()) / total if total else 0.0


def _quantile(counts: Mapping[int, int], q: float) -> int:
    total = sum(counts.values())
    seen = 0
    for k in sorted(counts):
        seen += counts[k]
        if seen >= q * total:
            return k
    return max(counts, default=0)


@dataclasses.dataclass(frozen=True, repr=False)
class Balance(ShownAsTable):
    """The balance of ``n`` fights of one roster (exact counts; see :meth:`table`).

    Per side: ``wins`` (count; :meth:`win_rate` with its Wilson 95 % interval),
    ``survivors`` and ``health`` (distributions: value → number of fights), damage
    taken in total (``damage_taken``, over the system's damage tracks); ``rounds``
    (distribution), ``draws`` (no one standing), ``timeouts`` (turn limit reached).
    """

    title: str
    system: str
    n: int
    seed: int
    sides: tuple[str, ...]
    wins: Mapping[str, int]
    draws: int
    timeouts: int
    rounds: Mapping[int, int]
    survivors: Mapping[str, Mapping[int, int]]
    health: Mapping[str, Mapping[int, int]]
    health_max: Mapping[str, int]
    damage_taken: Mapping[str, int]
    #: the system's word for one global turn (« tour », « round »)
    turn_word: str = "tour"
    #: what automated play adds to the text (``System.automation_note``), shown under
    #: the title; ``""`` when nothing
    note: str = ""
    #: fights in which a safety bound settled a tie by lot (D12-INIT-6)
    by_lot: int = 0

    def win_rate(self, side: str) -> tuple[float, float, float]:
        """(rate, low, high): the win rate of ``side`` and its Wilson 95 % interval."""
        k = self.wins.get(side, 0)
        low, high = wilson(k, self.n)
        return (k / self.n, low, high)

    def shown_rates(self) -> dict[str, str]:
        """Each side's win rate as the tables show it: with the draws and the fights
        stopped at the turn limit, the shares add up to 100,0 % (:func:`shares`)."""
        counts = [self.wins.get(side, 0) for side in self.sides]
        return dict(zip(self.sides, shares([*counts, self.draws, self.timeouts], self.n),
                        strict=False))

    def precision(self) -> str:
        """How precise the win rates are, in one French sentence: the number of fights
        and the widest Wilson 95 % interval of a side's wins, in points.

        >>> bal = Balance("Duel", "d20", 10_000, 1, ("héros", "orques"),
        ...               {"héros": 5_000, "orques": 5_000}, 0, 0, {3: 10_000}, {}, {},
        ...               {}, {})
        >>> sentence = bal.precision()
        >>> sentence.startswith("10\u202f000 combats\u00a0:")
        True
        >>> "large d’au plus 2 points (±\u00a00,98)" in sentence
        True
        """
        width = max((high - low for _, low, high in map(self.win_rate, self.sides)),
                    default=0.0)
        points = 100 * width
        return typographie(
            f"{plural(self.n, 'combat')} : l’intervalle de confiance à 95 % des victoires "
            f"de chaque camp est large d’au plus {_points(points)} "
            f"(±\u00a0{_num(points / 2, 2)}).")

    @property
    def total_rounds(self) -> int:
        return sum(k * v for k, v in self.rounds.items())

    def damage_dealt(self, side: str) -> int:
        """Damage dealt by ``side`` over all fights: what every other side lost."""
        return sum(v for s, v in self.damage_taken.items() if s != side)

    def damage_per_round(self, side: str) -> float:
        """Damage dealt by ``side`` per round, over the rounds of all fights."""
        dealt = self.damage_dealt(side)
        return dealt / self.total_rounds if self.total_rounds else 0.0

    def damage_taken_per_round(self, side: str) -> float:
        """Damage taken by ``side`` per round, over the rounds of all fights."""
        taken = self.damage_taken.get(side, 0)
        return taken / self.total_rounds if self.total_rounds else 0.0

    def table(self) -> Table:
        """The balance per side, in French."""
        rows: list[tuple[object, ...]] = []
        shown = self.shown_rates()
        for side in self.sides:
            _, low, high = self.win_rate(side)
            surv = self.survivors.get(side, {})
            health = self.health.get(side, {})
            top = self.health_max.get(side, 0)
            remaining = sum(k * v for k, v in health.items())
            rows.append((
                side,
                f"{shown[side]} [{_pct(low)} ; {_pct(high)}]",
                _col(_mean(surv)),
                _pct(remaining / top) if top else "—",
                _col(self.damage_per_round(side)),
            ))
        title = (f"{self.title} : {plural(self.n, 'combat')} ({display_name(self.system)}, graine "
                 f"{self.seed}) ; durée moyenne {_col(_mean(self.rounds))} "
                 f"{self.turn_word}s (médiane {_quantile(self.rounds, 0.5)}, 90 % en "
                 f"{_quantile(self.rounds, 0.9)} au plus) ; "
                 f"{_count(self.draws, 'match nul', 'matchs nuls')}, "
                 f"{_count(self.timeouts, 'combat', 'combats')} à la limite de "
                 f"{self.turn_word}s" + self._by_lot_text()
                 + (f". {self.note}" if self.note else ""))
        return Table(("Camp", "Victoires (IC 95 % de Wilson)", "Survivants en moyenne",
                      "Santé restante", f"Dégâts infligés par {self.turn_word}"), rows, title=title)


    def _by_lot_text(self) -> str:
        """« ; 3 combats dont une égalité s’est réglée au sort (borne de sûreté,
        D12-INIT-6) », only when there are some."""
        if not self.by_lot:
            return ""
        return (f" ; {_count(self.by_lot, 'combat', 'combats')} dont une égalité s’est "
                "réglée au sort (borne de sûreté atteinte, D12-INIT-6)")

    def to_json(self) -> dict[str, Any]:
        """Everything, JSON-ready (``--json``), with the rates and intervals computed:
        the report of ``schemas/bilan-<REPORT_FORMAT>.schema.json``."""
        sides: dict[str, Any] = {}
        for side in self.sides:
            rate, low, high = self.win_rate(side)
            sides[side] = {
                "victoires": self.wins.get(side, 0), "taux": rate, "ic95": [low, high],
                "survivants": {str(k): v for k, v in sorted(self.survivors.get(side,
                                                                               {}).items())},
                "sante": {str(k): v for k, v in sorted(self.health.get(side, {}).items())},
                "sante_max_totale": self.health_max.get(side, 0),
                "degats_subis": self.damage_taken.get(side, 0),
                "degats_infliges": self.damage_dealt(side),
                "degats_subis_par_tour": self.damage_taken_per_round(side),
                "degats_infliges_par_tour": self.damage_per_round(side),
            }
        return {"format": REPORT_FORMAT, "titre": self.title, "systeme": self.system,
                "combats": self.n,
                "graine": self.seed, "nuls": self.draws, "limite_de_tours": self.timeouts,
                "tours": {str(k): v for k, v in sorted(self.rounds.items())},
                "camps": sides, "intervalle": "Wilson 95 %",
                **({"variante": self.note} if self.note else {}),
                **({"egalites_au_sort": self.by_lot} if self.by_lot else {})}

    def svg(self) -> str:
        """One SVG document: the outcomes (bars) over the distribution of the number of
        rounds (:func:`escarmouche.render.simsvg.stack_svg`)."""
        return stack_svg([self.outcome_svg(), self.rounds_svg()],
                         title=f"Bilan de {plural(self.n, 'combat')}")

    def outcome_svg(self) -> str:
        items = [(f"victoire « {s} »", Fraction(self.wins.get(s, 0), self.n))
                 for s in self.sides]
        items += [("match nul", Fraction(self.draws, self.n)),
                  (f"limite de {self.turn_word}s", Fraction(self.timeouts, self.n))]
        return outcome_bars_svg(items, title=f"Issues sur {plural(self.n, 'combat')}")

    def rounds_svg(self) -> str:
        dist = {k: Fraction(v, self.n) for k, v in sorted(self.rounds.items())}
        return distribution_svg(dist, title="Durée des combats",
                                xlabel=f"{self.turn_word.capitalize()}s")


def _balance(roster: Any, tally: _Tally, seed: int, sides: Sequence[str]) -> Balance:
    return Balance(
        title=str(getattr(roster, "title", "") or "Combat"),
        system=str(getattr(roster, "system", "")),
        n=tally.n, seed=seed, sides=tuple(sides), wins=dict(tally.wins),
        draws=tally.draws, timeouts=tally.timeouts, rounds=dict(sorted(tally.rounds.items())),
        survivors={s: dict(sorted(c.items())) for s, c in tally.survivors.items()},
        health={s: dict(sorted(c.items())) for s, c in tally.health.items()},
        health_max=dict(tally.health_max), damage_taken=dict(tally.damage_taken),
        turn_word=_turn_word(str(getattr(roster, "system", ""))),
        note=automation_note(roster), by_lot=tally.by_lot,
    )


def automation_note(roster: Any) -> str:
    """What automated play adds to the text for ``roster`` (``System.automation_note``,
    e.g. the Rulebook's declared damage, a variant not in its text), or ``""``."""
    enc = roster.encounter()
    fighters = [f.combatant for f in enc.state.fighters.values()]
    return str(enc.system.automation_note(fighters, enc.rules))




def _turn_word(system: str) -> str:
    try:
        return get_system(system).turn_word
    except EscarmoucheError:
        return "tour"
