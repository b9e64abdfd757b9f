"""Two rule sets (or editions) compared on the same dice: :func:`compare`.

Both rosters play fight ``i`` on the same streams (common random numbers), so their
difference is measured on paired fights: per side, the difference of win rates B − A
with its 95 % interval, in a :class:`Comparison`, whose headline is one French sentence
(:meth:`Comparison.headline`: « Avec B plutôt qu’avec A, « héros » gagne 4,1 points de
plus (± 1,2) … »). By default the run stops as soon as that interval is as narrow as
the precision asked (± 2 points; :mod:`escarmouche.simulation.precision` says which
interval stays honest then, and why), on every core (identical results on one).
Rosters with different numbers of fighters draw their dice differently: their fights
do not pair, and the difference falls back to independent intervals (said so).

>>> from escarmouche import Combatant
>>> from escarmouche.encounter import Encounter
>>> from escarmouche.systems import d20
>>> duel = Encounter(d20.SYSTEM, [Combatant("Brune", "héros", {"PV": 12}),
...                          Combatant("Grolk", "orques", {"PV": 9})])
>>> same = compare(duel, duel, 20, seed=1)
>>> same.a == same.b, same.difference("héros")
(True, (0.0, 0.0, 0.0))
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any

from escarmouche import checks
from escarmouche.errors import invalid
from escarmouche.render.svg import outcome_bars_svg
from escarmouche.render.table import ShownAsTable, Table
from escarmouche.simulation.balance import Balance, _balance, _col, _mean, _Tally
from escarmouche.simulation.fight import as_roster
from escarmouche.simulation.precision import (
    BATCH,
    DEFAULT_PRECISION,
    MAX_PRECISION_FIGHTS,
    changed_sentence,
    check_precision,
    difference_sentence,
    independent_half,
    precise_enough,
    wald_half,
)
from escarmouche.simulation.runner import (
    MAX_FIGHTS,
    Progress,
    _check_dask,
    _check_run,
    _first_fight,
    _Job,
    _workers,
)
from escarmouche.simulation.sequential import default_processes, play_batch, run_batches
from escarmouche.text.fmt import number, percent, plural
from escarmouche.text.typo import typographie

__all__ = ["CompareRun", "Comparison", "compare", "compare_steps", "fighters", "run_plan",
           "stop_at"]


@dataclasses.dataclass(frozen=True, repr=False)
class Comparison(ShownAsTable):
    """Two balances played on the same streams (common random numbers) and, per side,
    the paired difference of win rates B − A with its 95 % interval.

    ``a_only``/``b_only``: per side, the fights A won and B did not, and the reverse;
    ``changed``: the fights whose winner differs (``None`` when not counted);
    ``touched``: the paired fights that end otherwise in any way (winner, length,
    survivors, wounds), ``None`` when not counted: 0 says that what differs never played;
    ``paired``: ``False`` when the rosters' fights do not pair (different numbers of
    fighters); ``precision``: the half-width asked (a rate, 0.02 for ± 2 points) when
    the run stopped at a precision, ``None`` for a fixed number of fights."""

    a: Balance
    b: Balance
    a_only: Mapping[str, int]
    b_only: Mapping[str, int]
    labels: tuple[str, str] = ("A", "B")
    changed: int | None = None
    paired: bool = True
    precision: float | None = None
    touched: int | None = None

    def difference(self, side: str) -> tuple[float, float, float]:
        """(B − A, low, high) for the win rate of ``side``: the paired Wald 95 %
        interval over this fixed number of fights (:meth:`interval` is the one to show:
        it stays honest when the run stopped at a precision)."""
        n = self.a.n
        d10, d01 = self.a_only.get(side, 0), self.b_only.get(side, 0)
        diff = (d01 - d10) / n
        half = wald_half(n, d10, d01)
        return (diff, max(-1.0, diff - half), min(1.0, diff + half))

    def half(self, side: str) -> float:
        """The half-width of the 95 % interval shown for ``side``: the Wald interval of
        the paired differences (of two independent rates when the fights do not pair),
        over the fights played, whether their number was fixed or set by the precision
        asked (:mod:`escarmouche.simulation.precision` says why it stays honest)."""
        n = self.a.n
        if self.paired:
            return wald_half(n, self.a_only.get(side, 0), self.b_only.get(side, 0))
        return independent_half(n, self.a.wins.get(side, 0), self.b.wins.get(side, 0))

    def interval(self, side: str) -> tuple[float, float, float]:
        """(B − A, low, high): the difference of ``side``'s win rate and the 95 %
        interval shown (:meth:`half`)."""
        diff = (self.b.wins.get(side, 0) - self.a.wins.get(side, 0)) / self.a.n
        half = self.half(side)
        return (diff, max(-1.0, diff - half), min(1.0, diff + half))

    @property
    def reached(self) -> bool:
        """Whether every side's interval is as narrow as the precision asked (always
        ``True`` for a fixed number of fights)."""
        return self.precision is None or all(self.half(s) <= self.precision
                                             for s in self.a.sides)

    def how_many(self) -> str:
        """How many fights it took and what the interval is, one French sentence."""
        n = plural(self.a.n, "combat")
        kind = "apparié" if self.paired else "des deux séries indépendantes"
        if self.precision is None:
            return typographie(f"{n} par jeu de règles, sur les mêmes dés ; intervalle de "
                               f"confiance à 95 % {kind}.")
        value = round(self.precision * 100, 1)
        asked = f"± {number(value, 1)} {'points' if value >= 2 else 'point'}"
        if self.reached:
            return typographie(
                f"{n} par jeu de règles ont suffi pour la précision demandée ({asked}) ; "
                f"intervalle de confiance à 95 % {kind} (la série s’arrête dès que "
                "l’écart est connu à cette précision, d’après la dispersion des combats, "
                "jamais d’après l’écart lui-même).")
        return typographie(
            f"Précision demandée ({asked}) non atteinte après {n} par jeu de règles : "
            f"l’intervalle de confiance à 95 % {kind} est celui des combats joués.")

    def headline(self, variant: str | None = None, *, touched: bool = False,
                 rules: bool = False) -> str:
        """What a designer reads first, in French: per side, how many points of wins
        the variant B gains or loses with its 95 % interval, how many fights changed
        winner, how many fights it took. ``variant`` names B in the sentence (default:
        « B plutôt qu’avec A », from the labels)."""
        la, lb = self.labels
        who = variant if variant is not None else f"{lb} plutôt qu’avec {la}"
        diffs = [(side, self.interval(side)[0], self.half(side)) for side in self.a.sides]
        # ``touched``: also say in how many fights what differs played (``escarmouche
        # compare``); ``rules``: what differs is rules (« les règles changées »)
        if touched and self.paired and self.touched == 0:
            what = ("les règles changées n’y ont jamais joué" if rules
                    else f"ce qui diffère entre {la} et {lb} n’y a jamais joué")
            return typographie(
                f"Aucun des {number(self.a.n)} combats ne finit autrement (même vainqueur, "
                f"même durée, mêmes blessures, sur les mêmes dés) : {what}, d’où un écart "
                f"nul. {self.how_many()}")
        parts = [difference_sentence(diffs, who)]
        if touched and self.paired and self.touched is not None:
            fights = (f"{number(self.touched)} {'combat' if self.touched < 2 else 'combats'} "
                      f"sur {number(self.a.n)} ({percent(self.touched / self.a.n)})")
            parts.append(typographie(
                f"Les règles changées ont joué dans {fights} : vainqueur, durée ou blessures "
                "y diffèrent." if rules else
                f"{la} et {lb} finissent autrement dans {fights} : vainqueur, durée ou "
                "blessures."))
        if not self.paired:
            parts.append(typographie(
                "Les deux combats n’alignent pas le même nombre de combattants : leurs dés "
                "ne se répondent pas combat par combat, l’écart est mesuré sans appariement "
                "(intervalles indépendants, plus larges)."))
        elif self.changed is not None:
            parts.append(changed_sentence(self.changed, self.a.n))
        parts.append(self.how_many())
        return " ".join(parts)

    def _repr_html_(self) -> str:
        from html import escape

        return f"<p>{escape(self.headline())}</p>\n{self.table()._repr_html_()}"

    def __str__(self) -> str:
        return f"{self.headline()}\n{self.table()}"

    def __repr__(self) -> str:
        return str(self)

    def table(self) -> Table:
        la, lb = self.labels
        rows: list[tuple[object, ...]] = []
        shown_a, shown_b = self.a.shown_rates(), self.b.shown_rates()
        for side in self.a.sides:
            diff, low, high = self.interval(side)
            sign = "+" if diff > 0 else ""
            rows.append((side, shown_a[side], shown_b[side],
                         f"{sign}{_col(diff * 100, 1)} [{_col(low * 100, 1)} ; "
                         f"{_col(high * 100, 1)}]",
                         _col(self.a.damage_per_round(side)),
                         _col(self.b.damage_per_round(side))))
        same = "sur les mêmes dés" if self.paired else "dés non appariés"
        title = (f"{self.a.title} : {la} contre {lb}, {plural(self.a.n, 'combat')} {same} "
                 f"(graine {self.a.seed}) ; durée moyenne "
                 f"{_col(_mean(self.a.rounds))} contre {_col(_mean(self.b.rounds))} "
                 f"{self.a.turn_word}s" + (f". {self.a.note}" if self.a.note else ""))
        kind = "apparié" if self.paired else "indépendant"
        return Table(("Camp", f"Victoires {la}", f"Victoires {lb}",
                      f"Écart {lb} − {la}, en points (IC 95 % {kind})",
                      f"Dégâts par {self.a.turn_word} {la}",
                      f"Dégâts par {self.a.turn_word} {lb}"), rows, title=title)

    def to_json(self) -> dict[str, Any]:
        diffs = {}
        for side in self.a.sides:
            d, low, high = self.interval(side)
            diffs[side] = {"ecart": d, "ic95": [low, high],
                           "seulement_a": self.a_only.get(side, 0),
                           "seulement_b": self.b_only.get(side, 0)}
        kind = ("Wald apparié 95 %" if self.paired else "Wald indépendant 95 %")
        if self.precision is not None:
            kind += ", arrêt à la précision (Chow–Robbins, pilote de 1 000 combats)"
        return {"a": self.a.to_json(), "b": self.b.to_json(), "libelles": list(self.labels),
                "ecarts": diffs, "intervalle": kind, "apparie": self.paired,
                "combats": self.a.n, "vainqueur_change": self.changed,
                "combats_touches": self.touched,
                "precision_demandee": self.precision, "precision_atteinte": self.reached,
                "phrase": self.headline()}

    def svg(self) -> str:
        items = []
        for side in self.a.sides:
            for label, bal in zip(self.labels, (self.a, self.b), strict=True):
                items.append((f"{label} : victoire « {side} »",
                              Fraction(bal.wins.get(side, 0), bal.n)))
        return outcome_bars_svg(items, title=f"Victoires sur {plural(self.a.n, 'combat')}")


def fighters(roster: Any) -> int:
    """The number of fighters of a roster's fight (two rosters pair only when equal)."""
    return len(roster.encounter().state.fighters)


def stop_at(precision: float, sides: Sequence[str], paired: Sequence[bool]
            ) -> Callable[[Sequence[_Tally], Sequence[Counter[str]]], bool]:
    """The stopping rule of a run at ``precision``: after a batch, whether every side's
    difference, for every roster against the first, is known to ``precision``
    (:func:`~escarmouche.simulation.precision.precise_enough`: the spread of the
    differences, never their mean)."""
    def stop(tallies: Sequence[_Tally], pairs: Sequence[Counter[str]]) -> bool:
        n = tallies[0].n
        for k, counts in enumerate(pairs):
            for side in sides:
                if paired[k]:
                    d10, d01 = counts.get(f"a:{side}", 0), counts.get(f"b:{side}", 0)
                    diff = (d01 - d10) / n
                    var = (d10 + d01) / n - diff * diff
                else:
                    pa = tallies[0].wins.get(side, 0) / n
                    pb = tallies[k + 1].wins.get(side, 0) / n
                    var = pa * (1 - pa) + pb * (1 - pb)
                if not precise_enough(n, var, precision):
                    return False
        return True

    return stop


def run_plan(n: int | None, precision: float | None) -> tuple[int, float | None]:
    """(the most fights to play, the precision to stop at as a rate, or ``None`` for
    exactly ``n`` fights): a number of fights alone is played in full; a precision
    (points) stops there, at ``n`` fights at most (default
    :data:`~escarmouche.simulation.precision.MAX_PRECISION_FIGHTS`); neither means ± 2
    points."""
    if precision is None and n is not None:
        return n, None
    rate = DEFAULT_PRECISION if precision is None else check_precision(precision)
    return (MAX_PRECISION_FIGHTS if n is None else n), rate


def fixed_batch(n: int, processes: int) -> int:
    """The batch of a run of a fixed number of fights: about 8 per process, at most
    2 000 fights (the tallies are exact: the result does not depend on it)."""
    per = n if processes <= 1 else -(-n // (processes * 8))
    return max(1, min(2_000, per))


def compare(roster_a: object, roster_b: object, n: int | None = None, *, seed: int = 0,
            policy: Any = None, processes: int | None = None, dask: Any = None,
            progress: Progress | None = None, max_turns: int = 50,
            labels: tuple[str, str] = ("A", "B"), precision: float | None = None
            ) -> Comparison:
    """Play the fights of each roster on the same streams (fight ``i`` of both draws
    from ``stream(seed, i, …)``) and compare them; typically the same roster under two
    option sets or two editions (``roster.with_rules(...)``).

    ``n`` alone: exactly ``n`` fights each. ``precision`` (in points, ``2`` for ± 2
    points; the default when ``n`` is not given either): stop after the first batch of
    :data:`~escarmouche.simulation.precision.BATCH` fights at which every side's 95 %
    interval is that narrow (Chow–Robbins, after a pilot: honest under this stopping), ``n``
    fights at most. ``processes``: local processes (default: every core when the run is
    long enough, :func:`~escarmouche.simulation.sequential.default_processes`); the
    result is the same for any number. ``dask``: a Dask cluster (a fixed ``n`` only)."""
    cap, rate = run_plan(n, precision)
    if processes is None:
        processes = 1 if dask is not None else default_processes(2 * cap)
    _check_run(cap, seed, processes, max_turns)
    _check_dask(dask)
    if dask is not None and rate is not None:
        raise invalid("precision", precision, "CORE-ERR", "une grappe Dask joue un nombre "
                      "de combats fixé (combats=N) ; la précision se joue en local")
    ra, rb = as_roster(roster_a), as_roster(roster_b)
    sides_a = _first_fight(ra, seed, policy, max_turns)
    sides_b = _first_fight(rb, seed, policy, max_turns)
    if sides_a != sides_b:
        raise invalid("camps", ", ".join(sides_b), "CORE-ERR",
                      "les deux combats comparés doivent opposer les mêmes camps")
    for i, label in enumerate(labels):
        checks.text(f"libellé {i + 1}", label, "CORE-ERR", max_len=60)
    paired = fighters(ra) == fighters(rb)
    stop = stop_at(rate, sides_a, [paired]) if rate is not None else None
    batch = BATCH if rate is not None else fixed_batch(cap, _workers(processes, dask))
    (ta, tb), (counts,) = run_batches((ra, rb), seed, policy, max_turns, fights=cap,
                                      batch=batch, processes=processes, stop=stop,
                                      progress=progress, dask=dask)
    changed = counts.get("changed", 0)
    a_only = {k[2:]: v for k, v in counts.items() if k.startswith("a:")}
    b_only = {k[2:]: v for k, v in counts.items() if k.startswith("b:")}
    return Comparison(_balance(ra, ta, seed, sides_a), _balance(rb, tb, seed, sides_b),
                      a_only, b_only, labels, changed, paired, rate,
                      counts.get("touched", 0) if paired else None)



def compare_steps(roster_a: object, roster_b: object, n: int | None = None, *,
                  seed: int = 0, policy: Any = None, max_turns: int = 50,
                  labels: tuple[str, str] = ("A", "B"), precision: float | None = None,
                  step: int = BATCH) -> Iterator[Comparison]:
    """:func:`compare` here, ``step`` fights at a time, yielding the :class:`Comparison`
    of the fights played so far after each step, and stopping as :func:`compare` does
    (the precision reached, or ``n`` fights): for a page that shows its progress, hands
    control back between steps, or stops on « Arrêter » (the browser: one core). The
    last one equals ``compare(..., processes=1)`` for ``step`` = :data:`BATCH`.

    >>> from escarmouche import Combatant
    >>> from escarmouche.encounter import Encounter
    >>> from escarmouche.systems import d20
    >>> duel = Encounter(d20.SYSTEM, [Combatant("Brune", "héros", {"PV": 12}),
    ...                          Combatant("Grolk", "orques", {"PV": 9})])
    >>> steps = list(compare_steps(duel, duel, 50, seed=2, step=20))
    >>> [c.a.n for c in steps], steps[-1] == compare(duel, duel, 50, seed=2)
    ([20, 40, 50], True)
    """
    run = CompareRun(roster_a, roster_b, n, seed=seed, policy=policy, max_turns=max_turns,
                     labels=labels, precision=precision, step=step)
    for job in run.jobs:
        yield run.add(play_batch(job))
        if run.over:
            return


class CompareRun:
    """The state of :func:`compare_steps`, for a caller that plays its batches itself
    (the browser's pool of workers): ``jobs`` (the batches, in fight order), ``add``
    (merge the next batch's tallies, in that order: the comparison so far) and ``over``
    (the precision reached, or every batch merged). Checked when made: a French error
    before anything is played."""

    def __init__(self, roster_a: object, roster_b: object, n: int | None = None, *,
                 seed: int = 0, policy: Any = None, max_turns: int = 50,
                 labels: tuple[str, str] = ("A", "B"), precision: float | None = None,
                 step: int = BATCH) -> None:
        cap, self.rate = run_plan(n, precision)
        _check_run(cap, seed, 1, max_turns)
        checks.integer("pas", step, lo=1, hi=MAX_FIGHTS, rule="CORE-ERR")
        ra, rb = as_roster(roster_a), as_roster(roster_b)
        self.sides = _first_fight(ra, seed, policy, max_turns)
        if _first_fight(rb, seed, policy, max_turns) != self.sides:
            raise invalid("camps", ", ".join(_first_fight(rb, seed, policy, max_turns)),
                          "CORE-ERR", "les deux combats comparés doivent opposer les mêmes "
                          "camps")
        for i, label in enumerate(labels):
            checks.text(f"libellé {i + 1}", label, "CORE-ERR", max_len=60)
        self.rosters, self.seed, self.labels = (ra, rb), seed, labels
        self.paired = fighters(ra) == fighters(rb)
        self.stop = stop_at(self.rate, self.sides, [self.paired]) if self.rate is not None \
            else None
        self.jobs = [_Job((ra, rb), seed, start, min(cap, start + step), policy, max_turns)
                     for start in range(0, cap, step)]
        self.tallies, self.counts = (_Tally(), _Tally()), Counter[str]()
        self.merged = 0
        self.over = not self.jobs

    def add(self, result: tuple[Sequence[_Tally], Sequence[Counter[str]]]) -> Comparison:
        """Merge the next batch (``jobs[merged]``'s tallies and paired counts)."""
        (a, b), (p,) = result
        ta, tb = self.tallies
        ta.merge(a)
        tb.merge(b)
        self.counts.update(p)
        self.merged += 1
        counts = self.counts
        self.over = self.merged >= len(self.jobs) or (
            self.stop is not None and self.stop(self.tallies, (counts,)))
        (ra, rb), seed, sides = self.rosters, self.seed, self.sides
        return Comparison(_balance(ra, ta, seed, sides), _balance(rb, tb, seed, sides),
                          {k[2:]: v for k, v in counts.items() if k.startswith("a:")},
                          {k[2:]: v for k, v in counts.items() if k.startswith("b:")},
                          self.labels, counts.get("changed", 0), self.paired, self.rate,
                          counts.get("touched", 0) if self.paired else None)
