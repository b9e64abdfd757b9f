"""A GM's combat tracker for any rule system: the view of a
:class:`~escarmouche_widgets.session.TableSession`.

Roster, initiative (rolled with a seed or typed as manual dice), the next activation,
actions, effects with their timing, damage and healing, the French log, and a JSON
export/import so that nothing is lost on a reload (``Encounter.to_json``/``from_json``).

Made for a phone at the table: the turn order comes first, one row per fighter with
its points and − / + buttons; the current fighter's actions next, with one-tap choices
(the d100 defence) and a target list without the actor; the odds, damage, effects (the
system's presets) and the save are folded below. « Annuler » and « Rétablir » undo and
redo any step, a finished fight included, and the autosave keeps them
(:meth:`CombatTracker.save_text`). A player view, in a second window of the same
device, follows the fight through a ``BroadcastChannel``
(:func:`~escarmouche_widgets._table.player_view`).

The widget holds no fight and decides nothing: each button reads its controls into one
call of the session, then draws the session's :class:`~escarmouche_widgets.session.
Outcome` (the result, or the French refusal in the banner, nothing changed).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import ipywidgets as widgets

from escarmouche import systems as _systems
from escarmouche.dice import Rng
from escarmouche.encounter import Encounter
from escarmouche.history import History
from escarmouche_widgets import _html as h
from escarmouche_widgets._controls import Demo, button
from escarmouche_widgets._parse import RosterRow, parse_params
from escarmouche_widgets._table import PLAYER_CHANNEL
from escarmouche_widgets._tracker_effects import AMOUNT, DURATION, TrackerEffects, set_options
from escarmouche_widgets._tracker_model import HideSteps, engine_keys
from escarmouche_widgets._tracker_setup import TrackerSetup
from escarmouche_widgets._tracker_turn import TrackerTurn
from escarmouche_widgets._tracker_views import download_link, log_html, status_html
from escarmouche_widgets.session import Outcome, TableSession, load_encounter

__all__ = ["AMOUNT", "DURATION", "CombatTracker", "engine_keys", "load_encounter"]

#: the player view: a page of the site (``_static``), opened in a second window; the
#: site script resolves the link (escarmouche-site.js)
PLAYER_LINK = (
    '<a class="esc-player-link" href="#vue-des-joueurs" target="_blank" rel="noopener">'
    "Ouvrir la vue des joueurs</a> (une seconde fenêtre de cet appareil : l’ordre du "
    "tour et l’état de chacun, sans les points exacts ni les combattants cachés)"
)


class CombatTracker(TrackerSetup, TrackerTurn, TrackerEffects, Demo):
    """The GM's tracker. Controls are attributes (``system``, ``roster``, ``dice``,
    ``start_button``, ``next_button``, ``act_button``, ``undo_button`` …) so a test can
    drive it; the fight is its ``session``'s."""

    def __init__(self, system: str = _systems.DEFAULT, rows: Iterable[RosterRow] | None = None,
                 *, systems: Sequence[str] | None = None, seed: int = 1) -> None:
        super().__init__()
        self.session = TableSession(system, seed=seed)
        self._channel: Any = None
        self._build_controls(system, rows, systems, seed)
        self._connect()
        self._build_layout()
        self._refresh()

    # -- the session's state, as the tracker always showed it ----------------------------

    @property
    def encounter(self) -> Encounter | None:
        return self.session.encounter

    @property
    def history(self) -> History:
        return self.session.history

    @property
    def hidden(self) -> set[str]:
        """The fighters kept from the player view."""
        return self.session.hidden

    @property
    def hide_steps(self) -> HideSteps:
        return self.session.hide_steps

    @property
    def previous(self) -> tuple[Encounter, History, set[str]] | None:
        """The fight a new one replaced (« Annuler » brings it back)."""
        return self.session.previous

    @property
    def status_text(self) -> str:
        """The fight at a glance, as text (turn, order, fighters, effects)."""
        return h.text_of(self.status.value)

    @property
    def log_text(self) -> str:
        """The French log of the fight, as text."""
        return h.text_of(self.log.value)

    @property
    def player_json(self) -> str:
        """What the player view shows (JSON): order, current fighter, looks."""
        return self.session.player_json

    def save_text(self) -> str:
        """The tracker's own save (the autosave): the fight, its undo history and the
        fighters hidden from the players; « Importer » reads it back."""
        saved = self.session.save()
        if saved.error is not None:
            raise saved.error
        return saved.saved

    # -- building ------------------------------------------------------------------------

    def _build_controls(self, system: str, rows: Iterable[RosterRow] | None,
                        systems: Sequence[str] | None, seed: int) -> None:
        self._build_setup(system, rows, systems, seed)
        self._build_turn()
        self.act_button = button("Agir", icon="bolt", button_style="primary")
        self.next_button = button(_systems.get(system).next_label, icon="step-forward")
        self.undo_button = button("Annuler", icon="undo",
                                  tooltip="annule la dernière étape (même la fin du combat)")
        self.redo_button = button("Rétablir", icon="repeat",
                                  tooltip="rétablit la dernière étape annulée")
        self.finish_button = button("Terminer le combat", icon="flag")
        self._damage_box, self._effects_box = self._build_effects(system)
        # save and restore
        self.json = widgets.Textarea(
            placeholder="la sauvegarde JSON du combat", layout=widgets.Layout(
                width="100%", height="8em"),
        )
        self.export_button = button("Exporter (JSON)", icon="download")
        self.import_button = button("Importer (JSON)", icon="upload")
        self.upload = widgets.FileUpload(accept=".json,application/json", multiple=False,
                                         description="Importer un fichier")
        self.download = widgets.HTML("")
        # views
        self.status = widgets.HTML(status_html(None))
        self.chart = widgets.HTML("")
        self.log = widgets.HTML("")
        self.player_link = widgets.HTML(PLAYER_LINK)

    def _connect(self) -> None:
        for control, step in (
                (self.start_button, self.start), (self.next_button, self.next_activation),
                (self.act_button, self.do_action), (self.undo_button, self.undo),
                (self.redo_button, self.redo), (self.finish_button, self.finish),
                (self.damage_button, self.apply_damage),
                (self.effect_preset_button, self.add_preset),
                (self.effect_button, self.add_effect),
                (self.effect_remove_button, self.remove_effect),
                (self.export_button, self.export), (self.import_button, self.import_json)):
            control.on_click(lambda _b, step=step: step())
        self.upload.observe(self._on_upload, names="value")
        self.actor.observe(self._on_actor, names="value")
        self.target.observe(self._on_target, names="value")
        self.action.observe(self._on_action, names="value")
        self.damage_who.observe(self._on_damage_who, names="value")

    def _build_layout(self) -> None:
        self.output.add_class("esc-tracker-result")
        steps = widgets.HBox([self.act_button, self.next_button, self.undo_button,
                              self.redo_button])
        steps.add_class("esc-tracker-steps")
        turn = widgets.VBox([
            self.turn_line,
            self.order_box,
            widgets.HBox([self.actor, self.action]),
            widgets.HBox([self.target, self.choice_box]),
            self.params,
            steps,
        ])
        folded = [
            (self.chart, "Chances d’agir en premier"),
            (self.status, "Pistes et effets en détail"),
            (self._damage_box, "Dégâts et soins"),
            (self._effects_box, "Effets"),
            (widgets.VBox([
                widgets.HBox([self.export_button, self.import_button, self.upload]),
                self.download, self.json,
            ]), "Sauvegarde"),
            (widgets.VBox([self.player_link, self.finish_button]),
             "Vue des joueurs et fin du combat"),
        ]
        self.tabs = widgets.Accordion(children=[w for w, _ in folded],
                                      titles=tuple(title for _, title in folded),
                                      selected_index=None)
        turn.add_class("esc-tracker-turn")
        self.widget = widgets.VBox([
            self.setup,
            self.banner.widget,
            turn,
            self.output,
            self.tabs,
            self.log,
        ])

    # -- drawing the session -------------------------------------------------------------

    def _dice(self) -> Rng | None:
        """The typed dice (« dés manuels »), else ``None``: the session rolls with the
        seed typed, step by step (CORE-RNG)."""
        if self.dice.manual.value:
            return self.dice.rng()
        self.session.seed = self.dice.seed_value()
        return None

    def _call(self, step: Callable[[Any], Outcome], *, dice: bool = False) -> bool:
        """Read the controls into one call of the session (``step`` gets the dice), then
        draw its outcome: the result, or the French refusal with nothing changed. A
        control that cannot be read is refused the same way."""
        rng: Rng | None = None

        def call() -> Outcome:
            nonlocal rng
            rng = self._dice() if dice else None
            return step(rng)

        outcome = self.banner.guard(call)
        if outcome is None:
            return False
        if not outcome.ok:
            self.banner.show(outcome.message)
            return False
        if outcome.html:
            note = self.dice.leftover(rng)
            self.output.value = (outcome.html[:-len("</div>")] + h.notice(note) + "</div>"
                                 if note else outcome.html)
        if outcome.rows is not None:
            self.roster.set_rows(outcome.rows)
        self._refresh()
        return True

    def _refresh(self) -> None:
        """Bring every view and every choice list in line with the session."""
        session = self.session
        enc = session.encounter
        self.status.value = status_html(enc)
        self.log.value = log_html(enc)
        self.chart.value = session.chart
        self._refresh_rows()
        names = list(enc.state.fighters) if enc is not None else []
        current = enc.current if enc is not None and enc.current in names else None
        set_options(self.actor, names, current)
        self._refresh_effects(enc, names, current)
        undo, redo = session.undo_label, session.redo_label
        self.undo_button.disabled = undo is None
        self.redo_button.disabled = redo is None
        self.undo_button.tooltip = f"annule : {undo}" if undo else "rien à annuler"
        self.redo_button.tooltip = f"rétablit : {redo}" if redo else "rien à rétablir"
        self._on_actor()
        self._broadcast()

    def _broadcast(self) -> None:
        """Send the player view to the second window (in the browser only: Pyodide's
        ``js.BroadcastChannel``; elsewhere nothing listens)."""
        try:
            import js  # type: ignore[import-not-found]  # Pyodide's bridge to the page
        except ImportError:
            return
        try:
            if self._channel is None:
                self._channel = js.BroadcastChannel.new(PLAYER_CHANNEL)
            self._channel.postMessage(self.player_json)
        except Exception:  # a browser without the channel: no player view
            self._channel = None

    def _on_upload(self, change: Any = None) -> None:
        files = self.upload.value
        if not files:
            return
        item = files[0] if isinstance(files, (tuple, list)) else next(iter(files.values()))
        content = item["content"]
        raw = content.tobytes() if isinstance(content, memoryview) else bytes(content)
        self._imported(self.session.import_file(raw, item.get("name")))

    # -- the operations (one per button) -------------------------------------------------

    def start(self, replace: bool = False) -> bool:
        """Build the roster, roll (or read) initiative and start the first activation.
        A fight under way is replaced only once the GM said so (``replace``, or
        « Remplacer le combat »); « Annuler » then brings it back."""
        asked = False

        def step(rng: Rng | None) -> Outcome:
            nonlocal asked
            outcome = self.session.start(
                self.roster.combatants(self.session.system),
                parse_params(self.start_options.value), rng=rng, replace=replace,
                source=self.dice.describe())
            asked = outcome.asked is not None
            return outcome

        if not self._call(step, dice=True):
            return False
        if asked:
            self._ask()
        else:
            self.json.value = self.download.value = ""
            self.setup.selected_index = None  # the setup folds away: the fight comes first
        return True

    def next_activation(self) -> bool:
        """End the current activation and start the next one."""
        return self._call(lambda rng: self.session.next_activation(rng=rng), dice=True)

    def do_action(self) -> bool:
        """The chosen actor takes the chosen action (target, choices and parameters)."""

        def step(rng: Rng | None) -> Outcome:
            actor, action = str(self.actor.value or ""), self.action.value
            params = parse_params(engine_keys(self.params.value,
                                              self.session.action_params(actor, action)))
            for choice in self.choice_box.children:
                param = next(k for k, w in self.choices.items() if w is choice)
                params.setdefault(param, choice.value)
            return self.session.act(actor, action, params, target=self.target.value, rng=rng)

        return self._call(step, dice=True)

    def undo(self) -> bool:
        """Undo the last step (a finished fight is reopened)."""
        return self._call(lambda _rng: self.session.undo())

    def redo(self) -> bool:
        """Redo the last step undone."""
        return self._call(lambda _rng: self.session.redo())

    def finish(self) -> bool:
        return self._call(lambda _rng: self.session.finish())

    def adjust_points(self, who: str, delta: int) -> bool:
        """− / + on a fighter's row: its first track loses or gains ``delta``."""
        return self._call(lambda _rng: self.session.adjust_points(who, delta))

    def set_hidden(self, who: str, hidden: bool) -> None:
        """Keep a fighter from the player view (or show it again): an undoable step."""
        if (who in self.session.hidden) != hidden and self.session.set_hidden(who, hidden).ok:
            self._refresh()  # (a row set back by « Annuler » changes nothing: no redraw)

    def export(self) -> bool:
        """Write the fight as JSON in the text box and offer it as a file."""
        exported = self.session.export()
        if exported.ok:
            self.json.value = exported.saved
            self.download.value = download_link(exported.saved)
        return self._call(lambda _rng: exported)

    def import_json(self) -> bool:
        """Restore the fight from the JSON in the text box (an export, or the tracker's
        own save with its undo history)."""
        return self._imported(self.session.import_text(self.json.value))

    def _imported(self, outcome: Outcome) -> bool:
        if outcome.ok:
            self.json.value = outcome.saved
            for row in self.rows.values():
                row.close()
            self.rows.clear()
            self._show_system()
            self.setup.selected_index = None
        return self._call(lambda _rng: outcome)
