"""Initiative: Ag + 1d10, kept for the whole fight (D100-INIT-1); order by score, then
higher Ag, then 1d10 roll-offs, the higher roll first, until broken (D100-INIT-2)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from escarmouche import checks
from escarmouche.errors import RuleBoundError, invalid
from escarmouche.model import Combatant, DieRecord, Json, check_roster
from escarmouche.render.table import Table
from escarmouche.rng import Rng
from escarmouche.systems.d100.rules import stat
from escarmouche.systems.describe import InitiativeReport, SurpriseReport
from escarmouche.text.fmt import die_of, join

__all__ = [
    "INITIATIVE_DIE",
    "MAX_ROLLOFF_ROUNDS",
    "Initiative",
    "InitiativeEntry",
    "explain_initiative",
    "explain_surprise",
    "initiative",
    "initiative_from_dice",
    "resolve_initiative",
    "roll_initiative",
]

#: D100-INIT-1: the initiative die (and the roll-off die, D100-INIT-2)
INITIATIVE_DIE = 10
#: D100-INIT-2: bound on roll-off rounds (a scripted rng repeating one value would loop)
MAX_ROLLOFF_ROUNDS = 100


@dataclass(frozen=True, slots=True)
class InitiativeEntry:
    """One combatant's initiative: Ag + 1d10 (D100-INIT-1)."""

    name: str
    ag: int
    d10: int

    @property
    def score(self) -> int:
        return self.ag + self.d10


@dataclass(frozen=True, slots=True)
class Initiative:
    """The initiative of a fight, kept for its whole length (D100-INIT-1/2).

    ``entries`` in the given order; ``rolloffs`` one tuple per roll-off round of
    ``(name, d10)`` in draw order; ``order`` the acting order. In a notebook it shows as a
    French table with the roll-offs and the order.
    """

    entries: tuple[InitiativeEntry, ...]
    rolloffs: tuple[tuple[tuple[str, int], ...], ...]
    order: tuple[str, ...]
    rules: tuple[str, ...] = ("D100-INIT-1", "D100-INIT-2")

    def score(self, name: str) -> int:
        return next(e.score for e in self.entries if e.name == name)

    @property
    def dice(self) -> tuple[DieRecord, ...]:
        first = [DieRecord(INITIATIVE_DIE, e.d10, die_of("initiative", e.name))
                 for e in self.entries]
        more = [DieRecord(INITIATIVE_DIE, r, die_of("départage", n))
                for rnd in self.rolloffs for n, r in rnd]
        return (*first, *more)

    def to_json(self) -> dict[str, Json]:
        return {
            "scores": {e.name: e.score for e in self.entries},
            "d10": {e.name: e.d10 for e in self.entries},
            "rolloffs": [[[n, r] for n, r in rnd] for rnd in self.rolloffs],
            "order": list(self.order),
        }

    def table(self) -> Table:
        """Each combatant's Ag, d10, score and rank (D100-INIT-1/2)."""
        rank = {n: i for i, n in enumerate(self.order, 1)}
        rows = [(e.name, e.ag, e.d10, e.score, rank[e.name])
                for e in sorted(self.entries, key=lambda e: rank[e.name])]
        return Table(("Personnage", "Ag", "d10", "Initiative", "Rang"), rows,
                     "Initiative (Ag + 1d10, D100-INIT-1)")

    def sentences(self) -> list[str]:
        """The roll-offs and the order, in French (D100-INIT-2)."""
        lines = [f"Départage au d10, manche {i} : "
                 + join(f"{n} fait {r}" for n, r in rnd) + "."
                 for i, rnd in enumerate(self.rolloffs, 1)]
        lines.append(f"Ordre de chaque round : {join(self.order, last='puis')}.")
        return lines

    def explain(self) -> list[str]:
        """The order in French, one line per combatant, then each tie and how it was
        broken (D100-INIT-2), then the order kept for the fight (D100-ROUND-1)."""
        lines = [f"{e.name} : Ag + 1d10 = {e.ag} + {e.d10} = {e.score} (D100-INIT-1)."
                 for e in self.entries]
        by_score: dict[int, list[InitiativeEntry]] = {}
        for e in self.entries:
            by_score.setdefault(e.score, []).append(e)
        for score, same in by_score.items():
            if len(same) < 2:
                continue
            if len({e.ag for e in same}) > 1:
                who = ", ".join(f"{e.name} (Ag {e.ag})" for e in
                                sorted(same, key=lambda e: -e.ag))
                lines.append(f"Égalité à {score}, départagée par l’Ag : {who} (D100-INIT-2).")
            names = {e.name for e in same}
            rounds = [[(n, v) for n, v in rnd if n in names] for rnd in self.rolloffs]
            rounds = [r for r in rounds if r]
            if rounds:
                each = [", ".join(f"{n} fait {v}" for n, v in r) for r in rounds]
                text = (each[0] if len(each) == 1 else " ; ".join(
                    f"manche {i} : {t}" for i, t in enumerate(each, 1)))
                rolled = {n for r in rounds for n, _ in r}
                order = [n for n in self.order if n in rolled]
                lines.append(f"Égalité à {score}, départagée au d10, le plus haut d’abord "
                             f"({text}), d’où l’ordre {', '.join(order)} (D100-INIT-2).")
        lines.append(f"Ordre : {', '.join(self.order)}, gardé pour tout le combat "
                     "(D100-INIT-1, D100-ROUND-1).")
        return lines

    def steps(self) -> tuple[tuple[int, str], ...]:
        """What each die drawn was for, as :class:`InitiativeReport` steps."""
        return tuple((i, d.purpose) for i, d in enumerate(self.dice))

    def _repr_html_(self) -> str:
        from escarmouche.render.table import Text

        return self.table()._repr_html_() + Text("\n".join(self.sentences()))._repr_html_()


def _initiative(combatants: Iterable[Combatant], draw: Callable[[str, bool], int]) -> Initiative:
    roster = check_roster(combatants, rule="D100-INIT-1")
    names = [c.name for c in roster]
    ags = [stat(c, "Ag") for c in roster]
    d10, rounds, order = initiative_order(names, ags, draw)
    entries = tuple(InitiativeEntry(n, a, d) for n, a, d in zip(names, ags, d10, strict=True))
    return Initiative(entries, rounds, order)


def initiative_order(names: Sequence[str], agility: Sequence[int],
                     draw: Callable[[str, bool], int]
                     ) -> tuple[tuple[int, ...], tuple[tuple[tuple[str, int], ...], ...],
                                tuple[str, ...]]:
    """D100-INIT-1/2 on checked values (the rules kernel calls it, the functions above
    check then call it): each one's d10 (``draw(name, False)``, in the given order), then
    the roll-off rounds (``draw(name, True)``); returns the d10s, the roll-offs and the
    acting order (score, then Ag, then the roll-offs, higher first)."""
    ags = dict(zip(names, agility, strict=True))
    d10 = tuple(draw(n, False) for n in names)
    score = {n: ags[n] + d for n, d in zip(names, d10, strict=True)}
    groups: dict[tuple[int, int], list[str]] = {}
    for n in names:
        groups.setdefault((score[n], ags[n]), []).append(n)
    tied = [g for g in groups.values() if len(g) > 1]
    tiebreak: dict[str, list[int]] = {n: [] for n in names}
    rounds: list[tuple[tuple[str, int], ...]] = []
    while tied:
        if len(rounds) >= MAX_ROLLOFF_ROUNDS:
            raise invalid("départages", MAX_ROLLOFF_ROUNDS, "D100-INIT-2",
                          "l’égalité d’initiative n’est pas rompue après ce nombre de tours "
                          "de départage", kind=RuleBoundError)
        rolling = {n for g in tied for n in g}
        this_round = tuple((n, draw(n, True)) for n in names if n in rolling)
        rounds.append(this_round)
        rolls = dict(this_round)
        still: list[list[str]] = []
        for g in tied:
            sub: dict[int, list[str]] = {}
            for n in g:
                tiebreak[n].append(rolls[n])
                sub.setdefault(rolls[n], []).append(n)
            still.extend(s for s in sub.values() if len(s) > 1)
        tied = still
    order = sorted(
        names, key=lambda n: (-score[n], -ags[n], tuple(-r for r in tiebreak[n]))
    )
    return d10, tuple(rounds), tuple(order)


def resolve_initiative(combatants: Iterable[Combatant], dice: Sequence[int]) -> Initiative:
    """Initiative from dice already rolled (D100-INIT-1/2).

    ``dice``: one d10 per combatant in the given order, then the roll-off d10s in draw
    order (each round, every still-tied combatant of every tie group, in the given order).
    Order: score descending, then higher Ag, then the roll-offs, higher roll first.
    Dice beyond those needed are ignored.
    """
    checks.sequence("dés", dice, "D100-INIT-1")
    it: Iterator[int] = iter(dice)

    def draw(name: str, rolloff: bool) -> int:
        rule = "D100-INIT-2" if rolloff else "D100-INIT-1"
        what = die_of("départage" if rolloff else "initiative", name)
        value = next(it, None)
        if value is None:
            raise invalid(what, None, rule, "un d10 de plus est nécessaire")
        return checks.die(what, value, INITIATIVE_DIE, rule)

    return _initiative(combatants, draw)


#: the name used before the naming rule (``resolve_<thing>``)
initiative_from_dice = resolve_initiative


def roll_initiative(combatants: Iterable[Combatant], rng: Rng) -> Initiative:
    """Roll initiative. Draw order: one d10 per combatant in the given order, then the
    roll-offs (one d10 per still-tied combatant, in the given order, round after round, at
    most :data:`MAX_ROLLOFF_ROUNDS`)."""
    return _initiative(combatants, lambda _n, _r: rng.randint(1, INITIATIVE_DIE))


def initiative(combatants: Iterable[Combatant], rng: Rng) -> list[str]:
    """spec/API.md: the names in acting order (D100-INIT-1/2); see :func:`roll_initiative`."""
    return list(roll_initiative(combatants, rng).order)


def explain_initiative(combatants: Iterable[Combatant], rng: Rng) -> InitiativeReport:
    """Roll the initiative (:func:`roll_initiative`) and explain it for a reader: the
    order of every round and :meth:`Initiative.explain`, each die named."""
    init = roll_initiative(combatants, rng)
    return InitiativeReport((("Chaque round", init.order),), tuple(init.explain()),
                            (*init.rules, "D100-ROUND-1"), init.steps(),
                            "Ordre des tours (chaque round)")


def explain_surprise(combatants: Sequence[Combatant], attackers: str, unaware: bool,
                     rng: Rng, *, can_defend: bool = False) -> SurpriseReport:
    """The side ``attackers`` attacks the others, who are surprised when ``unaware``
    (D100-SURPRISE-1: the GM decides; no die): round 1 without the surprised, after the
    initiative (:func:`roll_initiative`); ``can_defend``: ``Rules.surprised_can_defend``."""
    roster = check_roster(combatants, rule="D100-SURPRISE-1")
    init = roll_initiative(roster, rng)
    surprised = {c.side for c in roster if c.side != attackers} if unaware else set()
    side_of = {c.name: c.side for c in roster}
    who = tuple(n for n in init.order if side_of[n] not in surprised)
    scores = ", ".join(f"{e.name} {e.ag} + {e.d10} = {e.score}" for e in init.entries)
    why = [f"Initiative (Ag + 1d10) : {scores} ; ordre : {', '.join(init.order)} "
           "(D100-INIT-1, D100-INIT-2)."]
    if unaware:
        names = ", ".join(f"« {s} »" for s in sorted(surprised))
        defend = ("avec l’option « un surpris peut parer ou esquiver », les surpris peuvent "
                  "tout de même parer ou esquiver" if can_defend else
                  "selon l’interprétation retenue, que le texte ne tranche pas, les surpris ne "
                  "peuvent pas non plus parer ni esquiver")
        why.append(f"Le MJ décide que le camp {names} est surpris : au round 1, seuls ses "
                   f"adversaires agissent (D100-SURPRISE-1) ; {defend}. Aucun dé pour la "
                   "surprise elle-même.")
        when = "Round 1 (les surpris n’agissent pas)"
    else:
        why.append("Personne n’est surpris : tout le monde agit au round 1 "
                   "(D100-SURPRISE-1).")
        when = "Round 1 (sans surprise)"
    return SurpriseReport(when, who, tuple(why), (*init.rules, "D100-SURPRISE-1"),
                          init.steps())
