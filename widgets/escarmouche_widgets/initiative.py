"""Demo « Initiative »: one roster, any of the four systems, rolled or typed dice.

Shows the order as a timeline (turns 0, 1 and 2 for the rulebook; the group order, with
the environment, for d12; the round order for d100 and d20), the French lines that
explain it and its ties, the dice, the rule IDs and the exact odds (charts).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import ipywidgets as widgets

from escarmouche.systems import NAMES, TITLES
from escarmouche_widgets import _html as h
from escarmouche_widgets._controls import WIDE, Demo, DiceControls, RosterEditor, button, labelled
from escarmouche_widgets._initiative_views import DEMO_ROSTER, initiative_odds, roll_initiative
from escarmouche_widgets._parse import RosterRow
from escarmouche_widgets._record import Recorder

__all__ = ["InitiativeDemo"]

#: what each system reads from the roster (shown under the system's name)
READS: dict[str, str] = {
    "rulebook": "HAB (test D100) ; traits de vitesse : hyperactivité, hypoactivité, "
                "toujours premier, toujours dernier, dépassement, dépassé",
    "d100": "Ag (Ag + 1d10)",
    "d12": "init (1d12 + init) et le camp (initiative de groupe)",
    "d20": "init (1d20 + init)",
}


class InitiativeDemo(Demo):
    """Controls: ``system``, ``roster`` (a :class:`RosterEditor`), ``environment``
    (d12), ``hyperactive_slot`` (rulebook option), ``dice``; ``roll_button``."""

    def __init__(self, system: str = "rulebook", rows: Iterable[RosterRow] | None = None,
                 *, seed: int = 1) -> None:
        super().__init__()
        self.system = widgets.Dropdown(
            options=[(TITLES[n], n) for n in NAMES], value=system,
            description="Système :", style=WIDE, layout=widgets.Layout(width="30em"),
        )
        self.reads = widgets.HTML()
        self.roster = RosterEditor(DEMO_ROSTER if rows is None else rows,
                                   stats_hint="HAB=60, Ag=40, init=2")
        self.environment = widgets.Checkbox(
            value=False, description="environnement (à 12, en dernier en cas d’égalité)",
            indent=False,
        )
        self.hyperactive_slot = widgets.Dropdown(
            options=[("juste après la première", "consecutive"),
                     ("à la fin du tour", "end_of_turn")],
            value="consecutive", description="2e activation (Hyperactivité) :", style=WIDE,
        )
        self.dice = DiceControls(seed)
        self.roll_button = button("Lancer l’initiative",
                                          button_style="primary", icon="random")
        self.odds = widgets.HTML()
        self.system.observe(self._on_system, names="value")
        self.environment.observe(lambda _c: self.roll(), names="value")
        self.hyperactive_slot.observe(lambda _c: self.roll(), names="value")
        self.roll_button.on_click(lambda _b: self.roll())
        self.dice.new_seed_button.on_click(lambda _b: self.reroll())
        self.options = widgets.HBox([self.environment, self.hyperactive_slot])
        self.widget = widgets.VBox([
            widgets.HTML("<b>Initiative</b>"),
            self.system, self.reads,
            self.roster.widget,
            self.options,
            labelled("Dés", self.dice.widget),
            self.roll_button,
            self.banner.widget,
            self.output,
            self.odds,
        ])
        self._show_options()
        self.roll()

    def _show_options(self) -> None:
        system = self.system.value
        self.reads.value = f"<small>Lu dans le groupe : {h.esc(READS[system])}.</small>"
        self.environment.layout.display = "" if system == "d12" else "none"
        self.hyperactive_slot.layout.display = "" if system == "rulebook" else "none"

    def _on_system(self, change: Any = None) -> None:
        self._show_options()
        self.roll()

    def _options(self) -> dict[str, object]:
        return {"environment": bool(self.environment.value),
                "hyperactive_slot": str(self.hyperactive_slot.value)}

    def roll(self) -> bool:
        """Roll (or read the typed dice of) the chosen system's initiative, and show the
        exact odds for this roster (computed once per roster and options)."""

        def compute() -> tuple[str, str]:
            combatants = self.roster.combatants()
            rng = Recorder(self.dice.rng())
            system = str(self.system.value)
            view = roll_initiative(system, combatants, rng, self._options())
            odds = initiative_odds(system, tuple(combatants), bool(self.environment.value))
            return (h.join(view.html(self.dice.describe(), self.dice.leftover(rng.inner))),
                    h.join(odds))

        return self._show_with_odds(compute)

    def update_odds(self) -> bool:
        """The exact odds for the roster as typed (computed once per roster)."""

        def compute() -> str:
            combatants = tuple(self.roster.combatants())
            return h.join(initiative_odds(str(self.system.value), combatants,
                                          bool(self.environment.value)))

        html = self.banner.guard(compute)
        if html is None:
            return False
        self.odds.value = html
        return True
