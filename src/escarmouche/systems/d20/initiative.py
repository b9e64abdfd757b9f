"""D20-INIT-1 (initiative, from the original edition) and D20-TIME-1 (the round).

The pure function :func:`initiative_order` orders rolls already made; the rolling
function :func:`roll_initiative` draws the dice (its draw order is documented) and
breaks every tie. :class:`D20Initiative` displays itself in a notebook.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from escarmouche import checks
from escarmouche.errors import invalid
from escarmouche.model import Combatant, DieRecord, Json, check_roster
from escarmouche.render.table import Table
from escarmouche.rng import Rng, draw_lots
from escarmouche.systems.d20.narration import d20_text, plus_text
from escarmouche.systems.d20.rules import (
    BONUS_RANGE,
    INITIATIVE_DIE,
    ROUND_SECONDS,
    Rules,
    check_rules,
)
from escarmouche.systems.describe import InitiativeReport, SurpriseReport
from escarmouche.text.fmt import die_of, join, number, signed

__all__ = [
    "D20Initiative",
    "InitiativeRoll",
    "draw_initiative",
    "elapsed_seconds",
    "explain_initiative",
    "explain_surprise",
    "initiative",
    "initiative_dice",
    "initiative_order",
    "initiative_sentence",
    "roll_initiative",
]


def elapsed_seconds(rounds: int) -> int:
    """The game time of ``rounds`` rounds, in seconds: 6 s each (D20-TIME-1).

    >>> elapsed_seconds(10)
    60
    """
    return checks.integer("rounds", rounds, lo=0, hi=1_000_000, rule="D20-TIME-1") * (
        ROUND_SECONDS)


@dataclass(frozen=True, slots=True)
class InitiativeRoll:
    """One combatant's initiative: the d20, the ``init`` modifier, the roll-off d20s;
    ``lot``, its rank in a tie still there past the bound of roll-offs (D20-INIT-2:
    the higher first), 0 when none."""

    name: str
    die: int
    modifier: int
    roll_offs: tuple[int, ...] = ()
    lot: int = field(default=0, repr=False)

    @property
    def total(self) -> int:
        return self.die + self.modifier

    def key(self) -> tuple[int, ...]:
        """Sort key, descending: total, then modifier, then each roll-off (D20-INIT-1),
        then the lot (D20-INIT-2)."""
        return (self.total, self.modifier, *self.roll_offs, self.lot)

    def to_json(self) -> dict[str, Json]:
        out: dict[str, Json] = {"name": self.name, "die": self.die,
                                "modifier": self.modifier, "roll_offs": list(self.roll_offs)}
        if self.lot:
            out["lot"] = self.lot
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> InitiativeRoll:
        offs = data.get("roll_offs", ())
        assert isinstance(offs, list | tuple)
        return cls(str(data["name"]), int(str(data["die"])), int(str(data["modifier"])),
                   tuple(int(str(v)) for v in offs), int(str(data.get("lot", 0))))


def initiative_order(rolls: Sequence[InitiativeRoll]) -> tuple[str, ...]:
    """The acting order from initiative rolls already made (D20-INIT-1): higher total
    first, ties by the higher modifier, then by the roll-offs in order (higher first).
    Combatants still tied keep the given order (the rolling function never leaves any).

    >>> initiative_order([InitiativeRoll("A", 10, 1), InitiativeRoll("B", 9, 2)])
    ('B', 'A')
    """
    indexed = list(enumerate(rolls))
    indexed.sort(key=lambda ir: (tuple(-v for v in ir[1].key()), ir[0]))
    return tuple(r.name for _, r in indexed)


def initiative_sentence(rolls: Sequence[InitiativeRoll], order: Sequence[str]) -> str:
    """The log line of the initiative (D20-INIT-1).

    >>> initiative_sentence([InitiativeRoll("A", 15, 2)], ["A"]).split(" : ")[1]
    'A 17 (15 + 2). Ordre'
    """
    parts = []
    for r in rolls:
        text = f"{r.name} {number(r.total)} ({plus_text(r.die, r.modifier)})"
        if r.roll_offs:
            text += " ; départage : " + ", ".join(str(v) for v in r.roll_offs)
        if r.lot:
            text += f" ; tirage au sort : rang {r.lot} (D20-INIT-2)"
        parts.append(text)
    return ("Initiative (1d20 + modificateur d’initiative ; règle de l’édition originale, "
            f"absente du texte) : {' ; '.join(parts)}. Ordre : {', '.join(order)}.")


def initiative_dice(rolls: Sequence[InitiativeRoll], drawn: Sequence[tuple[int, int]]
                    ) -> tuple[DieRecord, ...]:
    """The dice of the initiative's event, each named: ``drawn`` the (faces, value) of
    every die :func:`roll_initiative` drew, in order; one d20 per fighter in the given
    order, then the roll-offs, round after round, the still-tied fighters in the given
    order (D20-INIT-1), then past the bound of roll-offs the lot's dice (D20-INIT-2).

    >>> [d.purpose for d in initiative_dice([InitiativeRoll("Aube", 3, 0)], [(20, 3)])]
    ['initiative d’Aube']
    """
    labels = [die_of("initiative", r.name) for r in rolls]
    for k in range(max((len(r.roll_offs) for r in rolls), default=0)):
        labels += [die_of("départage", r.name) for r in rolls if len(r.roll_offs) > k]
    labels += ["tirage au sort"] * (len(drawn) - len(labels))
    return tuple(DieRecord(faces, value, labels[i] if len(labels) == len(drawn)
                           else "initiative") for i, (faces, value) in enumerate(drawn))


@dataclass(frozen=True, slots=True)
class D20Initiative:
    """Initiative of a fight (D20-INIT-1): the rolls (given order) and the acting order.

    The same order holds every round (D20-TIME-1: a round is everyone's turn once). In a
    notebook it shows as a French table.
    """

    rolls: tuple[InitiativeRoll, ...]
    order: tuple[str, ...]
    rules: tuple[str, ...] = ("D20-INIT-1",)

    def turn(self, n: int) -> list[str]:
        """The names in acting order for round ``n`` (the same every round)."""
        checks.integer("round", n, lo=1, hi=1_000_000, rule="D20-TIME-1")
        return list(self.order)

    def roll_of(self, name: str) -> InitiativeRoll:
        for r in self.rolls:
            if r.name == name:
                return r
        raise invalid("combattant", name, "D20-INIT-1", "absent de l’initiative")

    def explain(self) -> list[str]:
        """The order in French, one line per roll, then each tie and how it was broken
        (D20-INIT-1), then the order of every round (D20-TIME-1)."""
        lines = [f"{r.name} : {d20_text(r.die, r.modifier)} (D20-INIT-1)."
                 for r in self.rolls]
        totals: dict[int, list[InitiativeRoll]] = {}
        by_key: dict[tuple[int, int], list[InitiativeRoll]] = {}
        for r in self.rolls:
            totals.setdefault(r.total, []).append(r)
            by_key.setdefault((r.total, r.modifier), []).append(r)
        for total, same in totals.items():
            if len(same) > 1 and len({r.modifier for r in same}) > 1:
                who = ", ".join(f"{r.name} ({signed(r.modifier)})"
                                for r in sorted(same, key=lambda r: -r.modifier))
                lines.append(f"Égalité à {number(total)} départagée par le modificateur : "
                             f"{who} (D20-INIT-1).")
        for (total, mod), same in by_key.items():
            if len(same) > 1:
                rolls = " ; ".join(f"{r.name} fait " + ", puis ".join(map(str, r.roll_offs))
                                   for r in same)
                names = {r.name for r in same}
                order = [n for n in self.order if n in names]
                lot = (", puis au sort, la borne des départages atteinte (D20-INIT-2)"
                       if any(r.lot for r in same) else "")
                lines.append(f"Égalité à {number(total)} (modificateur {signed(mod)}), "
                             f"départagée au d20, le plus haut d’abord ({rolls}){lot}, "
                             f"d’où l’ordre {', '.join(order)} (D20-INIT-1).")
        lines.append(f"Ordre : {', '.join(self.order)}, le même à chaque round (D20-TIME-1).")
        return lines

    def table(self) -> Table:
        rows = [(r.name, r.die, signed(r.modifier), r.total,
                 ", ".join(map(str, r.roll_offs)) or "—") for r in self.rolls]
        return Table(("Créature", "d20", "Modificateur", "Total", "Départage"), rows,
                     f"Initiative (D20-INIT-1) — ordre de chaque round : {join(self.order)}")

    def _repr_html_(self) -> str:
        return self.table()._repr_html_()

    def __str__(self) -> str:
        return initiative_sentence(self.rolls, self.order)

    def to_json(self) -> dict[str, Json]:
        return {"rolls": [r.to_json() for r in self.rolls], "order": list(self.order)}

    @classmethod
    def from_json(cls, data: Mapping[str, Json]) -> D20Initiative:
        rolls, order = data["rolls"], data["order"]
        assert isinstance(rolls, list) and isinstance(order, list)
        return cls(tuple(InitiativeRoll.from_json(r) for r in rolls if isinstance(r, dict)),
                   tuple(str(n) for n in order))


def tie_groups(rolls: Mapping[str, InitiativeRoll], names: Sequence[str]
                ) -> list[list[str]]:
    """Groups (rank order, members in given order) of combatants with equal keys."""
    by_key: dict[tuple[int, ...], list[str]] = {}
    for n in names:
        by_key.setdefault(rolls[n].key(), []).append(n)
    return [by_key[k] for k in sorted(by_key, reverse=True) if len(by_key[k]) > 1]


def roll_initiative(combatants: Iterable[Combatant], rng: Rng, *, rules: Rules | None = None
                    ) -> D20Initiative:
    """Roll initiative (D20-INIT-1, from the original edition): 1d20 + ``init``.

    Draw order: one d20 per combatant in the given order; then, while some combatants
    share both total and modifier, one roll-off round: for each tied group from the
    highest, one d20 per member in the given order (higher first; still-tied members
    roll again). Past :attr:`Rules.max_roll_off_rounds` rounds, each group still tied
    is ordered by lot (D20-INIT-2, :func:`~escarmouche.rng.draw_lots`: a die with as
    many faces as names left picks the next one), groups from the highest.
    """
    r = check_rules(rules)
    roster = check_roster(combatants, rule="D20-INIT-1")
    modifiers = [checks.integer("init", c.stat("init", 0), lo=BONUS_RANGE[0],
                                hi=BONUS_RANGE[1], rule="D20-INIT-1", who=c.name)
                 for c in roster]
    return draw_initiative([c.name for c in roster], modifiers, rng, r.max_roll_off_rounds)


def draw_initiative(names: Sequence[str], modifiers: Sequence[int], rng: Rng,
                    max_roll_off_rounds: int) -> D20Initiative:
    """:func:`roll_initiative` on a roster already checked: ``names`` and their
    ``init`` ``modifiers``, in the given order, the bound of roll-off rounds
    (:attr:`Rules.max_roll_off_rounds`); the same draws in the same order. The rules
    kernel (:mod:`.kernel`) calls it with the values its sheet checked once.

    >>> from escarmouche.dice import ScriptedRolls
    >>> draw_initiative(["A", "B"], [1, 2], ScriptedRolls([10, 9]), 100).order
    ('B', 'A')
    """
    rolls: dict[str, InitiativeRoll] = {}
    for name, modifier in zip(names, modifiers, strict=True):
        rolls[name] = InitiativeRoll(name, rng.randint(1, INITIATIVE_DIE), modifier)
    groups = tie_groups(rolls, names)
    rounds = 0
    while groups:
        rounds += 1
        if rounds > max_roll_off_rounds:
            for group in groups:
                order, _ = draw_lots(group, rng)
                for rank, n in enumerate(order):
                    rolls[n] = dataclasses.replace(rolls[n], lot=len(order) - rank)
            break
        for group in groups:
            for n in group:
                old = rolls[n]
                rolls[n] = dataclasses.replace(
                    old, roll_offs=(*old.roll_offs, rng.randint(1, INITIATIVE_DIE))
                )
        groups = tie_groups(rolls, names)
    ordered = tuple(rolls[n] for n in names)
    return D20Initiative(ordered, initiative_order(ordered))


#: the name used before the naming rule (``roll_<thing>``); kept for compatibility
initiative = roll_initiative


def _steps(combatants: Sequence[Combatant]) -> tuple[tuple[int, str], ...]:
    """The dice of :func:`roll_initiative`: one d20 per combatant, then the roll-offs."""
    return (*((i, die_of("initiative", c.name)) for i, c in enumerate(combatants)),
            (len(combatants), "départage"))


def explain_initiative(combatants: Sequence[Combatant], rng: Rng, *,
                       rules: Rules | None = None) -> InitiativeReport:
    """Roll the initiative (:func:`roll_initiative`) and explain it for a reader: the
    order of every round and :meth:`D20Initiative.explain`, each die named."""
    init = roll_initiative(combatants, rng, rules=rules)
    return InitiativeReport((("Chaque round", init.order),), tuple(init.explain()),
                            ("D20-INIT-1", "D20-TIME-1"), _steps(combatants),
                            "Ordre des tours (chaque round)")


def explain_surprise(combatants: Sequence[Combatant], attackers: str, unaware: bool,
                     rng: Rng, *, rules: Rules | None = None) -> SurpriseReport:
    """The d20 text has no surprise rule: the initiative (:func:`roll_initiative`) orders
    round 1, whoever attacks."""
    init = roll_initiative(combatants, rng, rules=rules)
    why = (
        "Le texte du système d20 ne prévoit pas de surprise : personne ne joue avant les "
        "autres, le round 1 suit l’ordre d’initiative (D20-INIT-1, D20-TIME-1).",
        "Ordre : " + ", ".join(f"{r.name} ({r.total})" for r in
                               sorted(init.rolls, key=lambda r: init.order.index(r.name)))
        + ".",
    )
    return SurpriseReport("Pas de round de surprise", (), why, init.rules,
                          _steps(combatants))
