"""Demo « Surprise »: every system's surprise rules on the same roster.

Who acts in the surprise round — turn 0 (rulebook), round 1 without the surprised side
(d100), the bonus turn (d12), nobody in particular (d20, whose text has no surprise
rule) — and why, with the dice, the rule IDs and the exact odds: each system explains
its own (:meth:`~escarmouche.systems.base.System.explain_surprise`).

Dice are drawn system after system, in the registry's order (the book's for the four
built-in systems), from one seed or from one list of typed dice; untick a system to
leave it out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets

from escarmouche import Combatant, EscarmoucheError, systems
from escarmouche.errors import invalid
from escarmouche.systems.describe import Chances
from escarmouche.text.fmt import join, percent, quote
from escarmouche_widgets import _charts
from escarmouche_widgets import _html as h
from escarmouche_widgets._controls import (
    WIDE,
    Demo,
    DiceControls,
    RosterEditor,
    button,
    labelled,
    option_control,
    option_value,
)
from escarmouche_widgets._initiative_views import DEMO_ROSTER
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

    @property
    def title(self) -> str:
        return systems.get(self.system).title or self.system

    def html(self) -> str:
        who = ", ".join(self.who) if self.who else "personne"
        return "".join([
            h.section(self.title, h.paragraph(
                f"<b>{h.esc(self.when)}</b> : {h.esc(who)}.", raw=True)),
            h.bullet_list(self.why),
            h.dice_line(self.dice),
            h.rules_line(self.rules),
            self.odds,
        ])


#: small numbers in words, for the demo's title
_WORDS = ("", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix")


def _all_systems(n: int) -> str:
    """« les quatre systèmes » (every system registered)."""
    return f"les {_WORDS[n]} systèmes" if 2 <= n < len(_WORDS) else "chaque système"


def check_sides(roster: Sequence[Combatant], attackers: str) -> None:
    """The side that attacks must be in the roster, facing at least one other side."""
    sides = list(dict.fromkeys(c.side for c in roster))
    if attackers not in sides:
        raise invalid("camp attaquant", attackers, "CORE-ERR", "aucun combattant de ce "
                      f"camp ; les camps sont {join([quote(s) for s in sides])}")
    if all(c.side == attackers for c in roster):
        raise invalid("camp attaquant", attackers, "CORE-ERR", "personne à surprendre, tous "
                      "les combattants sont de ce camp")


def odds_html(chances: Sequence[Chances]) -> str:
    """A surprise's exact chances: one chart each, then its numbers in words."""
    parts = []
    for c in chances:
        words = " ; ".join(f"{n} {percent(p)}" for n, p in c.values)
        parts.append(_charts.bars(list(c.values), c.title)
                     + h.paragraph(f"Chances exactes : {words}."))
    return "".join(parts)


def surprise_views(chosen: Iterable[str], roster: list[Combatant], attackers: str,
                   unaware: bool, rng: Recorder,
                   rules: Mapping[str, Any] | None = None) -> list[SurpriseView]:
    """Each chosen system's surprise round (in the order of
    :func:`escarmouche.systems.available`), drawing from ``rng``; ``rules`` gives a
    system's rules by name (default: its defaults)."""
    check_sides(roster, attackers)
    out: list[SurpriseView] = []
    picked = set(chosen)
    given = dict(rules or {})
    for name in systems.available():
        if name not in picked:
            continue
        sys_obj = systems.get(name)
        start = rng.mark()
        report = sys_obj.explain_surprise(
            roster, attackers, unaware, rng, given.get(name) or sys_obj.default_rules())
        dice = rng.labelled([(start + i, label) for i, label in report.steps])[start:]
        out.append(SurpriseView(name, report.when, list(report.who), list(report.lines),
                                dice, list(report.rules), odds_html(report.chances)))
    return out


def summary_html(views: Sequence[SurpriseView]) -> str:
    rows = [(v.title, v.when, ", ".join(v.who) if v.who else "personne") for v in views]
    return h.table(("Système", "Quand", "Qui agit"), rows)


class SurpriseDemo(Demo):
    """Controls: ``roster``, ``attackers`` (the side that attacks), ``unaware`` (the
    defenders do not know), ``options`` (per system, by French key, a control for each
    option that changes its surprise: :attr:`System.surprise_rules`, such as the
    Rulebook's « valeur_groupe_surprise »), ``systems`` (one checkbox per registered
    system), ``dice``; ``roll_button``."""

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
        names = systems.available()
        self.options: dict[str, dict[str, widgets.Widget]] = {}
        for name in names:
            sys_obj = systems.get(name)
            defaults = sys_obj.default_rules()
            controls = {}
            for key in sys_obj.surprise_rules:
                spec = sys_obj.option(key)
                control = option_control(
                    spec, getattr(defaults, spec.name),
                    description=f"{sys_obj.title or name}, {spec.label}",
                    layout=widgets.Layout(width="auto", max_width="100%"))
                if control is not None:
                    controls[key] = control
            self.options[name] = controls
        self.systems = {n: widgets.Checkbox(value=True, description=systems.get(n).title or n,
                                            indent=False, layout=widgets.Layout(width="auto"))
                        for n in names}
        self.dice = DiceControls(seed)
        self.roll_button = button("Tenter la surprise",
                                          button_style="primary", icon="eye-slash")
        self.roll_button.on_click(lambda _b: self.roll())
        self.dice.new_seed_button.on_click(lambda _b: self.reroll())
        option_controls = [c for controls in self.options.values() for c in controls.values()]
        for control in (self.unaware, *option_controls, *self.systems.values()):
            control.observe(self._changed, names="value")
        self.widget = widgets.VBox([
            widgets.HTML(f"<b>La surprise : {_all_systems(len(names))}</b>"),
            self.roster.widget,
            widgets.HBox([self.attackers, self.unaware]),
            *option_controls,
            labelled("Systèmes", *self.systems.values()),
            labelled("Dés", self.dice.widget),
            self.roll_button,
            self.banner.widget,
            self.output,
        ])
        self.roll()

    def _changed(self, change: Any = None) -> None:
        self.roll()

    def rules(self, name: str) -> Any:
        """The rules of the system ``name``: its defaults, with the options set here."""
        sys_obj = systems.get(name)
        controls = self.options.get(name, {})
        if not controls:
            return sys_obj.default_rules()
        return sys_obj.rules_from_keys(
            {key: option_value(sys_obj.option(key), c) for key, c in controls.items()})

    def roll(self) -> bool:
        """Resolve the surprise in every chosen system (same roster, one dice source)."""

        def compute() -> str:
            chosen = [n for n, box in self.systems.items() if box.value]
            if not chosen:
                raise EscarmoucheError(
                    "Aucun système coché : cochez au moins un système à comparer (CORE-ERR).",
                    field="systèmes", value=[], rule="CORE-ERR",
                )
            roster = self.roster.combatants()
            rng = Recorder(self.dice.rng())
            views = surprise_views(chosen, roster, self.attackers.value.strip(),
                                   bool(self.unaware.value), rng,
                                   {n: self.rules(n) for n in chosen})
            parts = [h.section(f"Qui agit avant les autres ({self.dice.describe()})",
                               summary_html(views))]
            parts += [v.html() for v in views]
            note = self.dice.leftover(rng.inner)
            if note:
                parts.append(h.notice(note))
            return h.join(*parts)

        return self._show(compute)
