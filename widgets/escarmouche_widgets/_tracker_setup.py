"""The tracker's « Préparation du combat » (:class:`TrackerSetup`, a part of
:class:`~escarmouche_widgets.tracker.CombatTracker`): the system, the group, the dice,
the start options, and the question put before a fight under way is replaced (the
table session's :attr:`~escarmouche_widgets.session.TableSession.asking`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from escarmouche import systems as _systems
from escarmouche_widgets import _html as h
from escarmouche_widgets._controls import WIDE, DiceControls, RosterEditor, button, labelled
from escarmouche_widgets._parse import RosterRow
from escarmouche_widgets._tracker_views import example_rows, stats_hint
from escarmouche_widgets.session import Outcome, TableSession, timings

__all__ = ["TrackerSetup"]


class TrackerSetup:
    """« Préparation du combat »: the tracker's controls of that section, and the
    question before a fight under way is replaced (« Remplacer » or « Garder »)."""

    session: TableSession
    next_button: widgets.Button
    effect_timing: widgets.Dropdown

    if TYPE_CHECKING:
        def _call(self, step: Callable[[Any], Outcome], *, dice: bool = False) -> bool: ...
        def start(self, replace: bool = False) -> bool: ...

    def _build_setup(self, system: str, rows: Iterable[RosterRow] | None,
                     systems: Sequence[str] | None, seed: int) -> None:
        offered = _systems.available() if systems is None else tuple(systems)
        self.system = widgets.Dropdown(
            options=[(_systems.get(n).title or n, n) for n in offered], value=system,
            description="Système :", style=WIDE, layout=widgets.Layout(width="28em"),
        )
        self.roster = RosterEditor(
            rows if rows is not None else example_rows(system), with_skills=True,
            stats_hint=stats_hint(system),
        )
        self.dice = DiceControls(seed)
        self.start_options = widgets.Text(
            description="Options de départ :", style=WIDE,
            placeholder=_systems.get(system).start_hint, layout=widgets.Layout(width="30em"),
        )
        self.start_button = button("Commencer le combat",
                                   button_style="primary", icon="play")
        #: « a fight is under way: replace it? », asked before a new fight or a new
        #: system replaces it
        self.confirm_text = widgets.HTML("")
        self.confirm_yes = button("Remplacer le combat", icon="check", button_style="danger")
        self.confirm_no = button("Garder le combat en cours", icon="times")
        self.confirm = widgets.VBox(
            [self.confirm_text, widgets.HBox([self.confirm_yes, self.confirm_no],
                                             layout=widgets.Layout(flex_flow="row wrap"))],
            layout=widgets.Layout(display="none"))
        self.confirm.add_class("esc-tracker-confirm")
        self.load_roster_button = button("Groupe d’exemple",
                                         tooltip="le groupe d’exemple du système")
        #: the system dropdown set back by the view itself (no question asked)
        self._reverting = False
        self.confirm_yes.on_click(lambda _b: self._confirmed(True))
        self.confirm_no.on_click(lambda _b: self._confirmed(False))
        self.system.observe(self._on_system, names="value")
        self.load_roster_button.on_click(lambda _b: self.load_example())
        setup = widgets.VBox([
            self.system,
            self.confirm,
            self.roster.widget,
            self.load_roster_button,
            labelled("Dés", self.dice.widget),
            widgets.HTML("<small>Avec les dés manuels, tapez avant chaque opération "
                         "(début du combat, action, passage au suivant) les dés qu’elle "
                         "lance, dans l’ordre de la règle ; avec une graine, le même combat "
                         "se rejoue à l’identique, même après un export et un import."
                         "</small>"),
            widgets.HBox([self.start_options, self.start_button]),
        ])
        self.setup = widgets.Accordion(children=[setup], titles=("Préparation du combat",),
                                       selected_index=0)

    def load_example(self) -> None:
        """Replace the roster by the example roster of the chosen system."""
        self._call(lambda _rng: self.session.load_example())

    def _ask(self) -> None:
        """Show the session's question: « Remplacer » or « Garder »."""
        asked = self.session.asking
        if asked is None:
            return
        self.confirm_text.value = h.paragraph(asked.text)
        self.confirm_yes.description = asked.yes
        self.confirm.layout.display = ""
        self.setup.selected_index = 0

    def _confirmed(self, yes: bool) -> None:
        asked = self.session.dismiss()
        self.confirm.layout.display = "none"
        self.confirm_text.value = ""
        if asked is None:
            return
        if asked.what == "start":
            if yes:
                self.start(replace=True)
            else:
                self.setup.selected_index = None
        elif yes and asked.system is not None:
            self._change_system(asked.system, confirmed=True)
        else:  # the dropdown back on the chosen system
            self._show_system()

    def _on_system(self, change: Any = None) -> None:
        if not self._reverting:
            self._change_system(str(self.system.value))

    def _change_system(self, system: str, *, confirmed: bool = False) -> None:
        done = self._call(lambda _rng: self.session.change_system(system, confirmed=confirmed))
        if done and self.session.asking is not None:
            self._ask()  # the dropdown shows the system asked for until the answer
            return
        self._show_system()

    def _show_system(self) -> None:
        """The dropdown, the hints and the labels of the session's chosen system."""
        name = self.session.system
        if self.system.value != name and name in [v for _, v in self.system.options]:
            self._reverting = True
            try:
                self.system.value = name
            finally:
                self._reverting = False
        chosen = _systems.get(name)
        self.start_options.placeholder = chosen.start_hint
        self.roster.stats_hint = stats_hint(name)
        self.next_button.description = chosen.next_label
        moment = self.effect_timing.value
        self.effect_timing.options = timings(name)
        self.effect_timing.value = moment
