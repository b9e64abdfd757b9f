"""A GM's combat tracker for any rule system, on top of :class:`escarmouche.encounter.Encounter`.

Roster, initiative (rolled with a seed or typed as manual dice), the next activation,
actions, effects with their timing, damage and healing, the French log, and a JSON
export/import so that nothing is lost on a reload (``Encounter.to_json``/``from_json``).

Made for a phone at the table (issue 27): the turn order comes first, one row per
fighter with its points and − / + buttons; the current fighter's actions next, with
one-tap choices (the d100 defence) and a target list without the actor; the odds,
damage, effects (the system's presets) and the save are folded below. « Annuler » and
« Rétablir » undo and redo any step (:class:`escarmouche.history.History`), a finished
fight included, and the autosave keeps them (:meth:`CombatTracker.save_text`). A player
view, in a second window of the same device, follows the fight through a
``BroadcastChannel`` (:func:`~escarmouche_widgets._table.player_view`).

The widget holds no fight logic: every button calls one atomic operation of the
encounter; a rejected operation shows the engine's French message and changes nothing.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import ipywidgets as widgets

from escarmouche import Combatant, EscarmoucheError, Event, Timing
from escarmouche import systems as _systems
from escarmouche.encounter import Encounter
from escarmouche.errors import FIELD_LABELS
from escarmouche.history import History
from escarmouche.model import timing_label
from escarmouche.systems.base import ENVIRONMENT
from escarmouche.text.fmt import de
from escarmouche_widgets import _html as h
from escarmouche_widgets._controls import (
    WIDE,
    Demo,
    DiceControls,
    RosterEditor,
    button,
    labelled,
    number_box,
    typeset_labels,
)
from escarmouche_widgets._parse import (
    RosterRow,
    parse_params,
    roster_rows,
)
from escarmouche_widgets._table import (
    PLAYER_CHANNEL,
    load_tracker_save,
    load_tracker_save_steps,
    player_view,
    tracker_save,
)
from escarmouche_widgets._tracker_effects import (
    AMOUNT,
    DURATION,
    NO_ONE,
    TrackerEffects,
    set_options,
)
from escarmouche_widgets._tracker_model import (
    HideSteps,
    choice_values,
    engine_keys,
    preferred_action,
    preferred_target,
)
from escarmouche_widgets._tracker_views import (
    FighterRow,
    action_label,
    download_link,
    events_html,
    example_rows,
    log_html,
    odds_chart,
    stats_hint,
    status_html,
)

__all__ = ["AMOUNT", "DURATION", "CombatTracker", "engine_keys", "load_encounter"]

#: the parameter that names an action's target (« cible », in every system)
TARGET_PARAMS = ("cible",)


def _timings(system: str) -> list[tuple[str, str]]:
    """The effect moments in ``system``'s words (« au début du tour du porteur », « au
    début de l’activation du porteur » in the Rulebook)."""
    chosen = _systems.get(system)
    return [(timing_label(t, turn_word=chosen.turn_word,
                          activation_word=chosen.activation_word), t.value) for t in Timing]


def load_encounter(text: str) -> Encounter:
    """An encounter from its JSON save (an export, or the tracker's own save); a
    corrupted save raises a French :class:`~escarmouche.errors.SaveError` that says
    what is wrong in a GM's words."""
    # the text, the published schema and the consistency are all checked there
    return load_tracker_save(text)[0]


#: the player view: a page of the site (``_static``), opened in a second window; the
#: site script resolves the link (escarmouche-site.js)
PLAYER_LINK = (
    '<a class="esc-player-link" href="#vue-des-joueurs" target="_blank" rel="noopener">'
    "Ouvrir la vue des joueurs</a> (une seconde fenêtre de cet appareil : l’ordre du "
    "tour et l’état de chacun, sans les points exacts ni les combattants cachés)"
)


class CombatTracker(TrackerEffects, Demo):
    """The GM's tracker. Controls are attributes (``system``, ``roster``, ``dice``,
    ``start_button``, ``next_button``, ``act_button``, ``undo_button`` …) so a test can
    drive it."""

    def __init__(self, system: str = _systems.DEFAULT, rows: Iterable[RosterRow] | None = None,
                 *, systems: Sequence[str] | None = None, seed: int = 1) -> None:
        super().__init__()
        self.encounter: Encounter | None = None
        self.history = History()
        #: fighters kept from the player view
        self.hidden: set[str] = set()
        #: the « caché » toggles as undoable steps, beside ``history``
        self.hide_steps = HideSteps()
        #: the fight a new one replaced, with its history and hidden fighters: « Annuler »
        #: brings it back (issue 45)
        self.previous: tuple[Encounter, History, set[str]] | None = None
        #: the fighter the action list was last drawn for (a new one gets the standard
        #: action again)
        self._choices_for: str | None = None
        self._system_shown = system
        self._asking: str | None = None
        self._target_param: str | None = None
        self._channel: Any = None
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
        #: system replaces it (issue 45)
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
        # the turn order, then the current fighter's actions
        self.turn_line = widgets.HTML("")
        self.rows: dict[str, FighterRow] = {}
        self.order_box = widgets.VBox([])
        self.actor = widgets.Dropdown(description="Acteur :", style=WIDE, options=[])
        self.action = widgets.Dropdown(description="Action :", style=WIDE, options=[])
        self.target = widgets.Dropdown(description="Cible :", style=WIDE, options=[])
        #: one-tap values of the action's parameters (System.param_choices)
        self.choices: dict[str, widgets.ToggleButtons] = {}
        self.choice_box = widgets.VBox([])
        self.params = widgets.Text(description="Paramètres :", style=WIDE,
                                   placeholder="clé=valeur, …")
        self.act_button = button("Agir", icon="bolt", button_style="primary")
        self.next_button = button(_systems.get(system).next_label, icon="step-forward")
        self.undo_button = button("Annuler", icon="undo",
                                  tooltip="annule la dernière étape (même la fin du combat)")
        self.redo_button = button("Rétablir", icon="repeat",
                                  tooltip="rétablit la dernière étape annulée")
        self.finish_button = button("Terminer le combat", icon="flag")
        # damage and healing
        self.damage_who = widgets.Dropdown(description="Qui :", style=WIDE, options=[])
        self.damage_track = widgets.Dropdown(description="Piste :", style=WIDE, options=[])
        self.damage_amount = number_box(AMOUNT, 1, "Valeur :", width="10em")
        self.damage_kind = widgets.ToggleButtons(style={"button_width": "auto"},
                                                 options=["dégâts", "soins"], value="dégâts")
        self.damage_button = button("Appliquer", icon="heartbeat")
        # effects: the system's presets, then a free effect
        self.effect_preset = widgets.Dropdown(description="Effet prêt :", style=WIDE,
                                              options=[])
        self.effect_preset_who = widgets.Dropdown(description="Sur :", style=WIDE,
                                                  options=[])
        self.effect_preset_button = button("Poser l’effet", icon="plus")
        self.effect_name = widgets.Text(description="Effet :", style=WIDE,
                                        placeholder="poison")
        self.effect_bearer = widgets.Dropdown(description="Porteur :", style=WIDE,
                                              options=[])
        self.effect_timing = widgets.Dropdown(description="Moment :", style=WIDE,
                                              options=_timings(system),
                                              value=Timing.ACTIVATION_START.value)
        self.effect_until = widgets.Dropdown(description="Jusqu’au tour de :", style=WIDE,
                                             options=[])
        self.effect_duration = number_box(DURATION, 3, "Durée (0 = sans fin) :", width="14em")
        self.effect_per_tick = widgets.Text(description="À chaque fois :", style=WIDE,
                                            placeholder="PV=-2")
        self.effect_save = widgets.Checkbox(description="prend fin sur un jet de sauvegarde",
                                            indent=False)
        self.effect_keywords = widgets.Text(description="Mots-clés :", style=WIDE,
                                            placeholder="poison, terreur")
        self.effect_button = button("Ajouter l’effet", icon="plus")
        self.effect_remove = widgets.Dropdown(description="Effet en cours :", style=WIDE,
                                              options=[])
        self.effect_remove_button = button("Retirer l’effet", icon="minus")
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

        self.confirm_yes.on_click(lambda _b: self._confirmed(True))
        self.confirm_no.on_click(lambda _b: self._confirmed(False))
        self.system.observe(self._on_system, names="value")
        self.load_roster_button.on_click(lambda _b: self.load_example())
        self.start_button.on_click(lambda _b: self.start())
        self.next_button.on_click(lambda _b: self.next_activation())
        self.act_button.on_click(lambda _b: self.do_action())
        self.undo_button.on_click(lambda _b: self.undo())
        self.redo_button.on_click(lambda _b: self.redo())
        self.finish_button.on_click(lambda _b: self.finish())
        self.damage_button.on_click(lambda _b: self.apply_damage())
        self.effect_preset_button.on_click(lambda _b: self.add_preset())
        self.effect_button.on_click(lambda _b: self.add_effect())
        self.effect_remove_button.on_click(lambda _b: self.remove_effect())
        self.export_button.on_click(lambda _b: self.export())
        self.import_button.on_click(lambda _b: self.import_json())
        self.upload.observe(self._on_upload, names="value")
        self.actor.observe(self._on_actor, names="value")
        self.target.observe(self._on_target, names="value")
        self.action.observe(self._on_action, names="value")
        self.damage_who.observe(self._on_damage_who, names="value")

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
        self.output.add_class("esc-tracker-result")
        self.setup = widgets.Accordion(children=[setup], titles=("Préparation du combat",),
                                       selected_index=0)
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
            (widgets.VBox([
                widgets.HBox([self.damage_who, self.damage_track]),
                widgets.HBox([self.damage_amount, self.damage_kind, self.damage_button]),
            ]), "Dégâts et soins"),
            (widgets.VBox([
                widgets.HBox([self.effect_preset, self.effect_preset_who,
                              self.effect_preset_button]),
                widgets.HTML("<small>Ou un effet libre :</small>"),
                widgets.HBox([self.effect_name, self.effect_bearer]),
                widgets.HBox([self.effect_timing, self.effect_until]),
                widgets.HBox([self.effect_duration, self.effect_per_tick]),
                widgets.HBox([self.effect_keywords, self.effect_save]),
                self.effect_button,
                widgets.HBox([self.effect_remove, self.effect_remove_button]),
            ]), "Effets"),
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
        self._refresh()

    @property
    def status_text(self) -> str:
        """The fight at a glance, as text (turn, order, fighters, effects)."""
        return h.text_of(self.status.value)

    @property
    def log_text(self) -> str:
        """The French log of the fight, as text."""
        return h.text_of(self.log.value)

    @property
    def order_text(self) -> str:
        """The turn order as the GM sees it on a phone: one line per fighter."""
        return "\n".join(h.text_of(self.rows[n].label.value)
                         for n in self._row_names() if n in self.rows)

    # -- helpers -------------------------------------------------------------------------

    def _running(self) -> Encounter:
        if self.encounter is None:
            raise EscarmoucheError(
                "Aucun combat en cours : composez le groupe et cliquez d’abord sur "
                "« Commencer le combat » (CORE-ERR).",
                field="combat", value=None, rule="CORE-ERR",
            )
        return self.encounter

    def _rng(self, enc: Encounter | None) -> random.Random | Any:
        """Manual dice, or a rng derived from the seed and the log's length: the same
        seed replays the same fight, even after an export and an import."""
        if self.dice.manual.value:
            return self.dice.rng()
        step = len(enc.state.log) if enc is not None else 0
        return random.Random(f"{self.dice.seed_value()}:{step}")

    def _step(self, label: str, operation: Callable[[Encounter], Sequence[Event]],
              rng: object = None) -> str:
        """Run one atomic operation of the fight as an undoable step; its events shown."""
        enc = self._running()
        done = len(self.history.done)
        events = self.history.run(enc, label, lambda: operation(enc))
        if len(self.history.done) != done:
            self.hide_steps.fight_step_taken()
        return self._after(events, label, rng)

    def _after(self, events: Sequence[Event], heading: str, rng: object = None) -> str:
        note = self.dice.leftover(rng)
        html = events_html(events, heading)
        if note:
            html = html[:-len("</div>")] + h.notice(note) + "</div>"
        self._refresh()
        return html

    def _row_names(self) -> list[str]:
        """The fighters in turn order (then those the order leaves out)."""
        enc = self.encounter
        if enc is None:
            return []
        names = list(dict.fromkeys(n for n in enc.state.order if n in enc.state.fighters))
        return names + [n for n in enc.state.fighters if n not in names]

    def _refresh(self) -> None:
        """Bring every view and every choice list in line with the encounter."""
        enc = self.encounter
        self.status.value = status_html(enc)
        self.log.value = log_html(enc)
        self._refresh_rows()
        names = list(enc.state.fighters) if enc is not None else []
        current = enc.current if enc is not None else None
        set_options(self.actor, names, current if current in names else None)
        set_options(self.damage_who, names, None)
        set_options(self.effect_preset_who, names, current if current in names else None)
        set_options(self.effect_bearer, [NO_ONE, *names, ENVIRONMENT], None)
        set_options(self.effect_until, [NO_ONE, *names], None)
        effects = [(f"{e.id} · {e.name}" + (f" ({e.bearer})" if e.bearer else ""), e.id)
                   for e in (enc.state.effects if enc is not None else [])]
        set_options(self.effect_remove, effects, None)
        presets = _systems.get(str(self.system.value)).effect_presets
        if enc is not None:
            presets = enc.system.effect_presets
        set_options(self.effect_preset, [(p.label, p.name) for p in presets], None)
        undo = self.hide_steps.undo_label(self.history)
        redo = self.hide_steps.redo_label(self.history)
        if undo is None and self.previous is not None:
            undo = "le nouveau combat"
        self.undo_button.disabled = undo is None
        self.redo_button.disabled = redo is None
        self.undo_button.tooltip = f"annule : {undo}" if undo else "rien à annuler"
        self.redo_button.tooltip = f"rétablit : {redo}" if redo else "rien à rétablir"
        self._on_actor()
        self._on_damage_who()
        self._broadcast()

    def _refresh_rows(self) -> None:
        enc = self.encounter
        names = self._row_names()
        for name in [n for n in self.rows if n not in names]:
            self.rows.pop(name).close()
        for name in names:
            if name not in self.rows:
                self.rows[name] = FighterRow(name, name in self.hidden, self.adjust_points,
                                             self.set_hidden)
        children = tuple(self.rows[n].widget for n in names)
        if self.order_box.children != children:
            self.order_box.children = children
        if enc is None:
            self.turn_line.value = status_html(None)  # « Aucun combat en cours : … »
            return
        st = enc.state
        for name in names:
            self.rows[name].show(enc, name == st.current and not st.finished,
                                 name in self.hidden)
        if not st.started:
            line = "Combat pas encore commencé."
        elif st.finished:
            line = f"Combat terminé : {st.outcome}. « Annuler » le rouvre."
        else:
            line = (f"{enc.system.turn_word.capitalize()} {st.turn} : au tour "
                    f"{de(st.current) if st.current else 'de —'}.")
        self.turn_line.value = h.paragraph(line)

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

    @property
    def player_json(self) -> str:
        """What the player view shows (JSON): order, current fighter, looks."""
        return json.dumps({"type": "etat", **player_view(self.encounter, self.hidden)},
                          ensure_ascii=False)

    def save_text(self) -> str:
        """The tracker's own save (the autosave): the fight, its undo history and the
        fighters hidden from the players; « Importer » reads it back."""
        return tracker_save(self._running(), self.history, self.hidden, self.hide_steps)

    def _on_actor(self, change: Any = None) -> None:
        """The actor's actions, its system's standard action preselected for a fighter
        whose turn begins (issue 45); the action kept while the same one goes on."""
        enc = self.encounter
        actor = str(self.actor.value) if self.actor.value else None
        specs = enc.actions(actor) if enc is not None and actor else []
        options = [(action_label(s.label, s.cost), s.id) for s in specs]
        prefer = None
        if enc is not None and actor:
            prefer = preferred_action(enc, actor, self.action.value,
                                      same_actor=actor == self._choices_for)
        self._choices_for = actor
        set_options(self.action, options, prefer)
        self._set_targets()
        self._on_action()

    def _set_targets(self) -> None:
        """The target list: every fighter but the actor; the target kept while it still
        stands, else the first standing opponent."""
        enc = self.encounter
        if enc is None or self.actor.value not in enc.state.fighters:
            set_options(self.target, [], None)
            return
        actor = str(self.actor.value)
        others = [n for n in enc.state.fighters if n != actor]
        kept = str(self.target.value) if self.target.value else None
        set_options(self.target, others, preferred_target(enc, actor, kept))

    def _on_target(self, change: Any = None) -> None:
        self._reset_choices()

    def _reset_choices(self) -> None:
        """Each one-tap choice back to its default, offering only what fits now: the
        d100 defence is « aucune », then what the target may do (issue 45)."""
        enc = self.encounter
        if enc is None or not self.actor.value:
            return
        for hidden in self.choices.values():  # offered again later: from the default
            if hidden not in self.choice_box.children and hidden.options:
                hidden.value = hidden.options[0]
        target = self.target.value if self._target_param else None
        params = {self._target_param: target} if self._target_param and target else {}
        for choice in self.choice_box.children:
            param = next(k for k, w in self.choices.items() if w is choice)
            values = choice_values(enc, str(self.actor.value), param, params)
            if tuple(choice.options) != values:
                choice.options = list(values)
            choice.value = values[0]

    def _on_action(self, change: Any = None) -> None:
        enc = self.encounter
        params: tuple[str, ...] = ()
        if enc is not None and self.actor.value:
            for spec in enc.actions(self.actor.value):
                if spec.id == self.action.value:
                    params = spec.params
        self._target_param = next((p for p in TARGET_PARAMS if p in params), None)
        self.target.layout.display = "" if self._target_param else "none"
        choices = enc.system.param_choices if enc is not None else {}
        shown = []
        for param in params:
            if param not in choices:
                continue
            if param not in self.choices:
                label, values = choices[param]
                self.choices[param] = widgets.ToggleButtons(
                    options=list(values), value=values[0], description=f"{label} :",
                    style={"button_width": "auto"})
                typeset_labels(self.choices[param])
            shown.append(self.choices[param])
        if tuple(shown) != self.choice_box.children:
            self.choice_box.children = tuple(shown)
        self._reset_choices()
        others = [p for p in params if p != self._target_param and p not in choices]
        # the French names (« cible engagée »), which the box also reads (issue 45)
        self.params.placeholder = (", ".join(f"{FIELD_LABELS.get(p, p)}=…" for p in others)
                                   or "clé=valeur, …")

    def _under_way(self) -> bool:
        enc = self.encounter
        return enc is not None and enc.state.started and not enc.state.finished

    def _ask(self, what: str, question: str, yes: str) -> None:
        """Ask before a fight under way is replaced: « Remplacer » or « Garder »."""
        self._asking = what
        self.confirm_text.value = h.paragraph(question)
        self.confirm_yes.description = yes
        self.confirm.layout.display = ""
        self.setup.selected_index = 0

    def _confirmed(self, yes: bool) -> None:
        what, self._asking = self._asking, None
        self.confirm.layout.display = "none"
        self.confirm_text.value = ""
        if what == "start":
            if yes:
                self.start(replace=True)
            else:
                self.setup.selected_index = None
        elif what == "system":
            if yes:
                self._system_changed()
            else:  # the dropdown back on the fight's system
                self._asking = "revert"
                self.system.value = self._system_shown
                self._asking = None

    def _on_system(self, change: Any = None) -> None:
        if self._asking == "revert" or self.system.value == self._system_shown:
            return
        if self._under_way():
            self._ask("system", "Un combat est en cours : changer de système remplace le "
                      "groupe par celui du nouveau système. Le combat en cours reste jouable "
                      "jusqu’à « Commencer le combat ».", "Changer de système")
            return
        self._system_changed()

    def _system_changed(self) -> None:
        self._system_shown = str(self.system.value)
        chosen = _systems.get(self.system.value)
        self.start_options.placeholder = chosen.start_hint
        self.roster.stats_hint = stats_hint(str(self.system.value))
        self.next_button.description = chosen.next_label
        moment = self.effect_timing.value
        self.effect_timing.options = _timings(str(self.system.value))
        self.effect_timing.value = moment
        self.load_example()

    def _on_upload(self, change: Any = None) -> None:
        files = self.upload.value
        if not files:
            return
        item = files[0] if isinstance(files, (tuple, list)) else next(iter(files.values()))
        content = item["content"]
        raw = content.tobytes() if isinstance(content, memoryview) else bytes(content)

        def compute() -> str:
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise EscarmoucheError(
                    "Fichier de sauvegarde illisible : un fichier JSON en UTF-8 est attendu "
                    "(CORE-LOG).", field="sauvegarde", value=item.get("name"), rule="CORE-LOG",
                ) from None
            self.json.value = text
            return self._import(text)

        self._show(compute)

    # -- the operations (one per button) -------------------------------------------------

    def load_example(self) -> None:
        """Replace the roster by the example roster of the chosen system."""
        self.roster.set_rows(example_rows(str(self.system.value)))

    def start(self, replace: bool = False) -> bool:
        """Build the roster, roll (or read) initiative and start the first activation.
        A fight under way is replaced only once the GM said so (``replace``, or
        « Remplacer le combat »); « Annuler » then brings it back (issue 45)."""

        def compute() -> str:
            combatants: list[Combatant] = self.roster.combatants(self.system.value)
            options = parse_params(self.start_options.value)
            enc = Encounter(self.system.value, combatants)
            if self._under_way() and not replace:
                # the roster and the options are sound: now ask
                self._ask("start", "Un combat est en cours : en commencer un nouveau ? "
                          "« Annuler » pourra ramener le combat en cours.",
                          "Remplacer le combat")
                return h.paragraph("Un combat est en cours : confirmez ou gardez-le "
                                   "(en haut du suivi).")
            rng = self._rng(None)
            history = History()
            events = history.run(enc, "Début du combat", lambda: enc.start(rng, **options))
            chart = odds_chart(enc)
            if self.encounter is not None and self.encounter.state.started:
                self.previous = (self.encounter, self.history, self.hidden)
            self.encounter, self.history, self.hidden = enc, history, set()
            self.hide_steps = HideSteps()
            self.chart.value = chart
            self.json.value = ""
            self.download.value = ""
            self.setup.selected_index = None  # the setup folds away: the fight comes first
            return self._after(events, f"Début du combat ({self.dice.describe()})", rng)

        return self._show(compute)

    def next_activation(self) -> bool:
        """End the current activation and start the next one."""

        def compute() -> str:
            rng = self._rng(self.encounter)
            return self._step(self.next_button.description,
                              lambda enc: enc.end_activation(rng), rng)

        return self._show(compute)

    def do_action(self) -> bool:
        """The chosen actor takes the chosen action (target, choices and parameters)."""

        def compute() -> str:
            enc = self._running()
            if not self.action.value:
                raise EscarmoucheError(
                    f"Aucune action possible : « {self.actor.value} » ne peut rien faire "
                    "maintenant (CORE-ERR).", field="action", value=None, rule="CORE-ERR",
                )
            spec = next((s for s in enc.actions(str(self.actor.value))
                         if s.id == self.action.value), None)
            params = parse_params(engine_keys(self.params.value,
                                              spec.params if spec is not None else ()))
            if self._target_param and self.target.value:
                params.setdefault(self._target_param, self.target.value)
            for choice in self.choice_box.children:
                param = next(k for k, w in self.choices.items() if w is choice)
                params.setdefault(param, choice.value)
            rng = self._rng(enc)
            actor, action = str(self.actor.value), str(self.action.value)
            return self._step(f"{actor} : {self.action.label}",
                              lambda e: e.act(actor, action, rng, **params), rng)

        return self._show(compute)

    def undo(self) -> bool:
        """Undo the last step (a finished fight is reopened)."""

        def compute() -> str:
            enc = self._running()
            hidden = self.hide_steps.undo(self.history, self.hidden)
            if hidden is not None:
                self._refresh()
                return h.paragraph(f"Annulé : {hidden}. « Rétablir » le refait.")
            if self.previous is not None and len(self.history.done) <= 1:
                # the new fight's start undone: the fight it replaced comes back whole
                self.encounter, self.history, self.hidden = self.previous
                self.previous = None
                self.hide_steps = HideSteps()
                self.chart.value = odds_chart(self.encounter)
                self._refresh()
                return h.paragraph("Annulé : le nouveau combat. Le combat qu’il remplaçait "
                                   "est revenu tel qu’il était.")
            label = self.history.undo(enc)
            self._refresh()
            return h.paragraph(f"Annulé : {label}. « Rétablir » la refait.")

        return self._show(compute)

    def redo(self) -> bool:
        """Redo the last step undone."""

        def compute() -> str:
            enc = self._running()
            label = self.hide_steps.redo(self.history, self.hidden)
            if label is None:
                label = self.history.redo(enc)
            self._refresh()
            return h.paragraph(f"Rétabli : {label}.")

        return self._show(compute)

    def finish(self) -> bool:
        return self._show(lambda: self._step("Fin du combat", lambda enc: enc.finish()))

    def adjust_points(self, who: str, delta: int) -> bool:
        """− / + on a fighter's row: its first track loses or gains ``delta``."""

        def compute() -> str:
            enc = self._running()
            tracks = list(enc.state.fighters[who].tracks)
            known = [t for t in enc.system.tracks if t in tracks] or tracks
            track = known[0]
            kind = "dégâts" if delta < 0 else "soins"
            return self._step(f"{kind.capitalize()} : {who}",
                              lambda e: e.adjust(who, track, delta, reason=kind))

        return self._show(compute)

    def set_hidden(self, who: str, hidden: bool) -> None:
        """Keep a fighter from the player view (or show it again): an undoable step."""
        if (who in self.hidden) == hidden:
            return
        if hidden:
            self.hidden.add(who)
        else:
            self.hidden.discard(who)
        self.hide_steps.record(self.history, who, hidden)
        self._refresh()

    def export(self) -> bool:
        """Write the fight as JSON in the text box and offer it as a file."""

        def compute() -> str:
            enc = self._running()
            text = enc.to_json()
            self.json.value = text
            self.download.value = download_link(text)
            return h.join(h.paragraph(
                f"Combat exporté ({len(enc.state.log)} événements) : copiez le JSON ci-dessous "
                "ou téléchargez le fichier ; « Importer » le restaure tel quel."))

        return self._show(compute)

    def import_json(self) -> bool:
        """Restore the fight from the JSON in the text box (an export, or the tracker's
        own save with its undo history)."""
        return self._show(lambda: self._import(self.json.value))

    def _import(self, text: str) -> str:
        enc, history, hidden, hide_steps = load_tracker_save_steps(text)
        self.chart.value = odds_chart(enc)
        if enc.state.system in [v for _, v in self.system.options]:
            self.system.value = enc.state.system
        self.encounter, self.history, self.hidden = enc, history, hidden
        self.hide_steps, self.previous = hide_steps, None
        for row in self.rows.values():
            row.close()
        self.rows.clear()
        self.roster.set_rows(roster_rows(f.combatant for f in enc.state.fighters.values()))
        self.setup.selected_index = None
        self._refresh()
        return h.join(h.paragraph(
            f"Combat restauré : {len(enc.state.fighters)} combattants, "
            f"{len(enc.state.log)} événements, {enc.system.turn_word} {enc.turn}."))
