"""Demo « Surprise »: the four systems' surprise rules on the same roster.

Who acts in the surprise round — turn 0 (rulebook), round 1 without the surprised side
(d100), the bonus turn (d12), nobody in particular (d20, whose text has no surprise
rule) — and why, with the dice, the rule IDs and the exact odds.

Dice are drawn system after system, in book order (rulebook, d100, d12, d20), from one
seed or from one list of typed dice; untick a system to leave it out.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import ipywidgets as widgets

from escarmouche import Combatant, EscarmoucheError
from escarmouche.errors import shown
from escarmouche.systems import NAMES, TITLES, d12, d20, d100, rulebook
from escarmouche.text.fmt import percent
from escarmouche_widgets import _charts
from escarmouche_widgets import _html as h
from escarmouche_widgets._controls import WIDE, Demo, DiceControls, RosterEditor, button, labelled
from escarmouche_widgets._initiative_views import DEMO_ROSTER, SYSTEM_TRAITS
from escarmouche_widgets._parse import RosterRow
from escarmouche_widgets._record import Recorder

__all__ = ["SurpriseDemo", "SurpriseView", "surprise_views"]


@dataclass
class SurpriseView:
    """One system's surprise round: when, who, why, dice, rules, odds (HTML)."""

    system: str
    when: str
    who: list[str]
    why: list[str]
    dice: list[tuple[int, int, str]]
    rules: list[str]
    odds: str = ""

    def html(self) -> str:
        who = ", ".join(self.who) if self.who else "personne"
        return "".join([
            h.section(TITLES[self.system], h.paragraph(
                f"<b>{h.esc(self.when)}</b> : {h.esc(who)}.", raw=True)),
            h.bullet_list(self.why),
            h.dice_line(self.dice),
            h.rules_line(self.rules),
            self.odds,
        ])


def _sides(roster: Sequence[Combatant], attackers: str) -> tuple[list[Combatant],
                                                                  list[Combatant]]:
    sides = list(dict.fromkeys(c.side for c in roster))
    if attackers not in sides:
        raise EscarmoucheError(
            f"camp attaquant = {shown(attackers)} : aucun combattant de ce camp ; camps : "
            f"{', '.join(sides)} (RB-SURPRISE-1)",
            field="camp attaquant", value=attackers, rule="RB-SURPRISE-1",
        )
    att = [c for c in roster if c.side == attackers]
    dfd = [c for c in roster if c.side != attackers]
    if not dfd:
        raise EscarmoucheError(
            f"camp attaquant = {shown(attackers)} : personne à surprendre, tous les combattants "
            "sont de ce camp (RB-SURPRISE-1)",
            field="camp attaquant", value=attackers, rule="RB-SURPRISE-1",
        )
    return att, dfd


@functools.lru_cache(maxsize=32)
def _rulebook_odds(roster: tuple[Combatant, ...], attackers: str, unaware: bool,
                   aggregate: str) -> str:
    rules = rulebook.Rules(surprise_aggregate=aggregate,
                           extra_traits=SYSTEM_TRAITS - set(rulebook.KNOWN_TRAITS))
    att, dfd = _sides(roster, attackers)
    success = rulebook.surprise_chance(att, dfd, unaware=unaware, rules=rules)
    items: list[tuple[str, Fraction]] = [("attaque surprise réussie", success)]
    turn_zero = rulebook.turn_zero_odds(roster, attackers, unaware=unaware, rules=rules)
    items += [(f"{name} au tour 0", p) for name, p in turn_zero.items()]
    words = " ; ".join(f"{n} {percent(p)}" for n, p in items)
    return (_charts.bars(items, "Rulebook : surprise et tour 0 (RB-SURPRISE-1/2/3)")
            + h.paragraph(f"Chances exactes : {words}."))


@functools.lru_cache(maxsize=32)
def _d12_odds(roster: tuple[Combatant, ...], attackers: str) -> str:
    first = d12.bonus_turn_odds(roster, attackers).first
    if not first:
        return ""
    words = " ; ".join(f"{n} {percent(p)}" for n, p in first.items())
    return (_charts.bars(list(first.items()),
                         "d12 : agit en premier au tour bonus (D12-SURPRISE-2)")
            + h.paragraph(f"Chances exactes : {words}."))


def _rulebook(roster: list[Combatant], attackers: str, unaware: bool, aggregate: str,
              rng: Recorder) -> SurpriseView:
    rules = rulebook.Rules(surprise_aggregate=aggregate,
                           extra_traits=SYSTEM_TRAITS - set(rulebook.KNOWN_TRAITS))
    att, dfd = _sides(roster, attackers)
    start = rng.mark()
    res = rulebook.roll_surprise(att, dfd, rng, unaware=unaware, rules=rules)
    after_test = rng.mark()
    init = rulebook.initiative(roster, rng, surprise_by=attackers if res.success else None,
                               rules=rules)
    steps = [(start, "surprise : DIS des attaquants"), (start + 1,
                                                         "surprise : PMR des défenseurs")]
    steps += [(after_test + i, f"initiative : {c.name}") for i, c in enumerate(roster)]
    steps.append((after_test + len(roster), "départage"))
    why = [res.text + "."]
    why += [f"{z.text} ({', '.join(z.rules)})." for z in init.turn_zero_reasons]
    if not init.turn_zero:
        why.append("Personne ne qualifie pour le tour 0 : le combat commence au tour 1 "
                   "(RB-INIT-3, RB-SURPRISE-3).")
    rules_ids = [*res.rules, *init.rules]
    return SurpriseView(
        "rulebook", "Tour 0", init.turn(0), why, rng.labelled(steps)[start:], rules_ids,
        _rulebook_odds(tuple(roster), attackers, unaware, aggregate),
    )


def _d100(roster: list[Combatant], attackers: str, unaware: bool, rng: Recorder
          ) -> SurpriseView:
    _, dfd = _sides(roster, attackers)
    init = d100.roll_initiative(roster, rng)
    surprised = {c.side for c in dfd} if unaware else set()
    who = [n for n in init.order
           if not any(c.name == n and c.side in surprised for c in roster)]
    dice = [(d.faces, d.value, d.purpose) for d in init.dice]
    scores = ", ".join(f"{e.name} {e.ag} + {e.d10} = {e.score}" for e in init.entries)
    why = [f"Initiative (Ag + 1d10) : {scores} ; ordre : {', '.join(init.order)} "
           "(D100-INIT-1, D100-INIT-2)."]
    if unaware:
        names = ", ".join(f"« {s} »" for s in sorted(surprised))
        why.append(f"Le MJ décide que le camp {names} est surpris : au round 1, seuls ses "
                   "adversaires agissent, et les surpris ne peuvent ni parer ni esquiver "
                   "(D100-SURPRISE-1). Aucun dé pour la surprise elle-même.")
        when = "Round 1 (les surpris n’agissent pas)"
    else:
        why.append("Personne n’est surpris : tout le monde agit au round 1 "
                   "(D100-SURPRISE-1).")
        when = "Round 1 (sans surprise)"
    return SurpriseView("d100", when, who, why, dice,
                        [*init.rules, "D100-SURPRISE-1"])


def _d12(roster: list[Combatant], attackers: str, unaware: bool, rng: Recorder
         ) -> SurpriseView:
    _sides(roster, attackers)
    start = rng.mark()
    participants = d12.bonus_turn_participants(roster, attackers if unaware else None)
    if unaware:
        # the bonus turn only: group initiative is rolled when it ends, by those still
        # standing (D12-SURPRISE-1)
        init = d12.roll_bonus_turn(roster, rng, ambush_by=attackers)
        steps = [(start + i, f"tour bonus : {c.name}") for i, c in enumerate(participants)]
        steps.append((start + len(participants), "départage du tour bonus"))
    else:
        init = d12.initiative(roster, rng)
        steps = [(start + i, f"initiative de groupe : {c.name}")
                 for i, c in enumerate(roster)]
        steps.append((start + len(roster), "relance ou départage"))
    why = list(init.narration())
    if not unaware:
        why.insert(0, "Pas d’embuscade : pas de tour bonus (D12-SURPRISE-1).")
    alert = [c.name for c in participants if c.side != attackers]
    if len(alert) == 1:
        why.append(f"{alert[0]} : défenseur « alerte », joue au tour bonus à son initiative "
                   "individuelle (D12-SURPRISE-2).")
    elif alert:
        why.append(f"{', '.join(alert)} : défenseurs « alertes », jouent au tour bonus à "
                   "leur initiative individuelle (D12-SURPRISE-2).")
    when = "Tour bonus (tour 0)" if unaware else "Pas de tour bonus"
    return SurpriseView(
        "d12", when, list(init.bonus_turn), why,
        rng.labelled(steps)[start:], list(init.rules),
        _d12_odds(tuple(roster), attackers) if unaware else "",
    )


def _d20(roster: list[Combatant], attackers: str, unaware: bool, rng: Recorder
         ) -> SurpriseView:
    _sides(roster, attackers)
    start = rng.mark()
    init = d20.roll_initiative(roster, rng)
    steps = [(start + i, f"initiative : {c.name}") for i, c in enumerate(roster)]
    steps.append((start + len(roster), "départage"))
    why = [
        "Le texte du système d20 ne prévoit pas de surprise : personne ne joue avant les "
        "autres, le round 1 suit l’ordre d’initiative (D20-INIT-1, D20-TIME-1).",
        "Ordre : " + ", ".join(f"{r.name} ({r.total})" for r in
                               sorted(init.rolls, key=lambda r: init.order.index(r.name)))
        + ".",
    ]
    return SurpriseView("d20", "Pas de round de surprise", [], why,
                        rng.labelled(steps)[start:], list(init.rules))


def surprise_views(systems: Iterable[str], roster: list[Combatant], attackers: str,
                   unaware: bool, aggregate: str, rng: Recorder) -> list[SurpriseView]:
    """Each chosen system's surprise round, drawing from ``rng`` in book order."""
    out: list[SurpriseView] = []
    chosen = set(systems)
    for name in NAMES:
        if name not in chosen:
            continue
        if name == "rulebook":
            out.append(_rulebook(roster, attackers, unaware, aggregate, rng))
        elif name == "d100":
            out.append(_d100(roster, attackers, unaware, rng))
        elif name == "d12":
            out.append(_d12(roster, attackers, unaware, rng))
        else:
            out.append(_d20(roster, attackers, unaware, rng))
    return out


def summary_html(views: Sequence[SurpriseView]) -> str:
    rows = [(TITLES[v.system], v.when, ", ".join(v.who) if v.who else "personne")
            for v in views]
    return h.table(("Système", "Round de surprise", "Qui agit"), rows)


class SurpriseDemo(Demo):
    """Controls: ``roster``, ``attackers`` (the side that attacks), ``unaware`` (the
    defenders do not know), ``aggregate`` (rulebook option), ``systems`` (one checkbox
    per system), ``dice``; ``roll_button``."""

    def __init__(self, rows: Iterable[RosterRow] | None = None, *, attackers: str = "monstres",
                 seed: int = 1) -> None:
        super().__init__()
        self.roster = RosterEditor(DEMO_ROSTER if rows is None else rows,
                                   stats_hint="HAB=60, DIS=40, PMR=50, Ag=40, init=2")
        self.attackers = widgets.Text(value=attackers, description="Camp qui attaque :",
                                      style=WIDE)
        self.unaware = widgets.Checkbox(
            value=True, indent=False,
            description="les défenseurs ignorent la présence des attaquants",
        )
        self.aggregate = widgets.Dropdown(
            options=[(label, key) for key, label in rulebook.SURPRISE_AGGREGATES.items()],
            value="weakest", description="Rulebook, valeur du groupe :", style=WIDE,
            layout=widgets.Layout(width="40em"),
        )
        self.systems = {n: widgets.Checkbox(value=True, description=TITLES[n], indent=False,
                                            layout=widgets.Layout(width="auto"))
                        for n in NAMES}
        self.dice = DiceControls(seed)
        self.roll_button = button("Tenter la surprise",
                                          button_style="primary", icon="eye-slash")
        self.roll_button.on_click(lambda _b: self.roll())
        self.dice.new_seed_button.on_click(lambda _b: self.reroll())
        for control in (self.unaware, self.aggregate, *self.systems.values()):
            control.observe(self._changed, names="value")
        self.widget = widgets.VBox([
            widgets.HTML("<b>Rounds de surprise : les quatre systèmes</b>"),
            self.roster.widget,
            widgets.HBox([self.attackers, self.unaware]),
            self.aggregate,
            labelled("Systèmes", *self.systems.values()),
            labelled("Dés", self.dice.widget),
            self.roll_button,
            self.banner.widget,
            self.output,
        ])
        self.roll()

    def _changed(self, change: Any = None) -> None:
        self.roll()

    def roll(self) -> bool:
        """Resolve the surprise in every chosen system (same roster, one dice source)."""

        def compute() -> str:
            chosen = [n for n, box in self.systems.items() if box.value]
            if not chosen:
                raise EscarmoucheError(
                    "systèmes = aucun : cochez au moins un système à comparer (CORE-ERR)",
                    field="systèmes", value=[], rule="CORE-ERR",
                )
            roster = self.roster.combatants()
            rng = Recorder(self.dice.rng())
            views = surprise_views(chosen, roster, self.attackers.value.strip(),
                                   bool(self.unaware.value), str(self.aggregate.value), rng)
            parts = [h.section(f"Qui agit avant les autres ({self.dice.describe()})",
                               summary_html(views))]
            parts += [v.html() for v in views]
            note = self.dice.leftover(rng.inner)
            if note:
                parts.append(h.notice(note))
            return h.join(*parts)

        return self._show(compute)
