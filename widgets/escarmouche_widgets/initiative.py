"""Demo « Initiative »: one roster, any registered system, rolled or typed dice.

Shows the order as a timeline (turns 0, 1 and 2 for the rulebook; the group order, with
the environment, for d12; the round order for d100 and d20), the French lines that
explain it and its ties, the dice, the rule IDs and the exact odds (charts).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import ipywidgets as widgets

from escarmouche import systems
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
    typeset_labels,
)
from escarmouche_widgets._initiative_views import DEMO_ROSTER, initiative_odds, roll_initiative
from escarmouche_widgets._parse import RosterRow
from escarmouche_widgets._record import Recorder

__all__ = ["InitiativeDemo"]


class InitiativeDemo(Demo):
    """Controls: ``system`` (every registered system), ``roster`` (a
    :class:`RosterEditor`), ``options`` (the chosen system's controls that change its
    initiative: a box per :attr:`System.initiative_options`, such as d12's
    « environnement », and a control per option of :attr:`System.initiative_rules`, such
    as the Rulebook's « place_hyperactivite »; by name or French key), ``dice``;
    ``roll_button``."""

    def __init__(self, system: str = systems.DEFAULT, rows: Iterable[RosterRow] | None = None,
                 *, seed: int = 1) -> None:
        super().__init__()
        systems.get(system)
        self.system = widgets.Dropdown(
            options=[(systems.get(n).title or n, n) for n in systems.available()],
            value=system, description="Système :", style=WIDE,
            layout=widgets.Layout(width="30em"),
        )
        self.reads = widgets.HTML()
        self.roster = RosterEditor(DEMO_ROSTER if rows is None else rows,
                                   stats_hint="HAB=60, Ag=40, init=2")
        #: each system's option controls, built when the system is first chosen
        self._controls: dict[str, dict[str, widgets.Widget]] = {}
        self.dice = DiceControls(seed)
        self.roll_button = button("Lancer l’initiative",
                                          button_style="primary", icon="random")
        self.odds = widgets.HTML()
        self.system.observe(self._on_system, names="value")
        self.roll_button.on_click(lambda _b: self.roll())
        self.dice.new_seed_button.on_click(lambda _b: self.reroll())
        self.options_box = widgets.HBox([])
        self.widget = widgets.VBox([
            widgets.HTML("<b>Initiative</b>"),
            self.system, self.reads,
            self.roster.widget,
            self.options_box,
            labelled("Dés", self.dice.widget),
            self.roll_button,
            self.banner.widget,
            self.output,
            self.odds,
        ])
        self._show_options()
        self.roll()

    @property
    def options(self) -> dict[str, widgets.Widget]:
        """The chosen system's controls, by start option name or French option key."""
        name = str(self.system.value)
        if name not in self._controls:
            self._controls[name] = self._build_controls(name)
        return self._controls[name]

    def _build_controls(self, name: str) -> dict[str, widgets.Widget]:
        sys_obj = systems.get(name)
        controls: dict[str, widgets.Widget] = {}
        for option, label in sys_obj.initiative_options.items():
            controls[option] = widgets.Checkbox(value=False, description=label,
                                                indent=False)
        defaults = sys_obj.default_rules()
        for key in sys_obj.initiative_rules:
            spec = sys_obj.option(key)
            control = option_control(spec, getattr(defaults, spec.name))
            if control is not None:
                controls[key] = control
        for control in controls.values():
            control.observe(lambda _c: self.roll(), names="value")
            typeset_labels(control)  # built after the demo's widget: typeset here
        return controls

    def _show_options(self) -> None:
        sys_obj = systems.get(str(self.system.value))
        reads = sys_obj.initiative_stats
        self.reads.value = (f"<small>Lu dans le groupe : {h.esc(reads)}.</small>"
                            if reads else "")
        self.options_box.children = list(self.options.values())

    def _on_system(self, change: Any = None) -> None:
        self._show_options()
        self.roll()

    def _rules_and_options(self) -> tuple[Any, dict[str, Any]]:
        """The chosen system's rules (its defaults, with the options set here) and the
        start options set here."""
        sys_obj = systems.get(str(self.system.value))
        controls = self.options
        keys = {key: option_value(sys_obj.option(key), controls[key])
                for key in sys_obj.initiative_rules if key in controls}
        rules = sys_obj.rules_from_keys(keys) if keys else sys_obj.default_rules()
        start = {option: bool(controls[option].value)
                 for option in sys_obj.initiative_options if option in controls}
        return rules, start

    def roll(self) -> bool:
        """Roll (or read the typed dice of) the chosen system's initiative, and show the
        exact odds for this roster (computed once per roster and options)."""

        def compute() -> tuple[str, str]:
            system = str(self.system.value)
            combatants = self.roster.combatants(system)
            rng = Recorder(self.dice.rng())
            rules, options = self._rules_and_options()
            view = roll_initiative(system, combatants, rng, options, rules)
            odds = initiative_odds(system, tuple(combatants), rules, options)
            return (h.join(view.html(self.dice.describe(), self.dice.leftover(rng.inner))),
                    h.join(odds) if odds else "")

        return self._show_with_odds(compute)

    def update_odds(self) -> bool:
        """The exact odds for the roster as typed (computed once per roster)."""

        def compute() -> str:
            combatants = tuple(self.roster.combatants(str(self.system.value)))
            rules, options = self._rules_and_options()
            odds = initiative_odds(str(self.system.value), combatants, rules, options)
            return h.join(odds) if odds else ""

        html = self.banner.guard(compute)
        if html is None:
            return False
        self.odds.value = html
        return True
