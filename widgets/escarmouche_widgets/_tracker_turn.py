"""The tracker's turn (:class:`TrackerTurn`, a part of
:class:`~escarmouche_widgets.tracker.CombatTracker`): the turn order, one row per fighter
(:class:`FighterRow`), then the current fighter's action, target, one-tap choices and
typed parameters, preselected by the table session's rules
(:mod:`escarmouche_widgets._tracker_model`: the standard attack, the first standing
enemy, the d100 defence back to « aucune »).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from escarmouche.encounter import Encounter
from escarmouche.errors import FIELD_LABELS
from escarmouche_widgets import _html as h
from escarmouche_widgets._controls import WIDE, typeset_labels
from escarmouche_widgets._tracker_effects import set_options
from escarmouche_widgets._tracker_model import choice_values, preferred_action, preferred_target
from escarmouche_widgets._tracker_views import action_label, status_html
from escarmouche_widgets.session import TableSession

__all__ = ["FighterRow", "TrackerTurn"]


class TrackerTurn:
    """The turn order and the current fighter's action: the tracker's controls of
    those names, and how they follow the session."""

    session: TableSession

    if TYPE_CHECKING:
        def adjust_points(self, who: str, delta: int) -> bool: ...
        def set_hidden(self, who: str, hidden: bool) -> None: ...

    def _build_turn(self) -> None:
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
        #: the fighter the action list was last drawn for (a new one gets the standard
        #: action again)
        self._choices_for: str | None = None

    @property
    def order_text(self) -> str:
        """The turn order as the GM sees it on a phone: one line per fighter."""
        return "\n".join(h.text_of(self.rows[n].label.value)
                         for n in self.session.order() if n in self.rows)

    def _refresh_rows(self) -> None:
        enc = self.session.encounter
        names = self.session.order()
        for name in [n for n in self.rows if n not in names]:
            self.rows.pop(name).close()
        for name in names:
            if name not in self.rows:
                self.rows[name] = FighterRow(name, name in self.session.hidden, self.adjust_points,
                                             self.set_hidden)
        children = tuple(self.rows[n].widget for n in names)
        if self.order_box.children != children:
            self.order_box.children = children
        if enc is None:
            self.turn_line.value = status_html(None)  # « Aucun combat en cours : … »
            return
        for name in names:
            self.rows[name].show(enc, name == enc.state.current and not enc.state.finished,
                                 name in self.session.hidden)
        self.turn_line.value = h.paragraph(self.session.turn_sentence())

    def _on_actor(self, change: Any = None) -> None:
        """The actor's actions, its system's standard action preselected for a fighter
        whose turn begins; the action kept while the same one goes on."""
        enc = self.session.encounter
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
        enc = self.session.encounter
        if enc is None or self.actor.value not in enc.state.fighters:
            set_options(self.target, [], None)
            return
        actor = str(self.actor.value)
        others = [n for n in enc.state.fighters if n != actor]
        kept = str(self.target.value) if self.target.value else None
        set_options(self.target, others, preferred_target(enc, actor, kept))

    def _on_target(self, change: Any = None) -> None:
        self._reset_choices()

    def _target_param(self) -> str | None:
        return self.session.target_param(str(self.actor.value or ""), self.action.value)

    def _reset_choices(self) -> None:
        """Each one-tap choice back to its default, offering only what fits now: the
        d100 defence is « aucune », then what the target may do."""
        enc = self.session.encounter
        if enc is None or not self.actor.value:
            return
        for hidden in self.choices.values():  # offered again later: from the default
            if hidden not in self.choice_box.children and hidden.options:
                hidden.value = hidden.options[0]
        param = self._target_param()
        params = {param: self.target.value} if param and self.target.value else {}
        for choice in self.choice_box.children:
            name = next(k for k, w in self.choices.items() if w is choice)
            values = choice_values(enc, str(self.actor.value), name, params)
            if tuple(choice.options) != values:
                choice.options = list(values)
            choice.value = values[0]

    def _on_action(self, change: Any = None) -> None:
        enc = self.session.encounter
        params = self.session.action_params(str(self.actor.value or ""), self.action.value)
        target = self._target_param()
        self.target.layout.display = "" if target else "none"
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
        others = [p for p in params if p != target and p not in choices]
        # the French names (« cible engagée »), which the box also reads
        self.params.placeholder = (", ".join(f"{FIELD_LABELS.get(p, p)}=…" for p in others)
                                   or "clé=valeur, …")


class FighterRow:
    """One fighter in the turn order: its points, − / + on its first track, and
    « caché » (kept from the player view); the buttons call ``adjust(name, delta)``
    and ``hide(name, hidden)``."""

    def __init__(self, name: str, hidden: bool, adjust: Callable[[str, int], object],
                 hide: Callable[[str, bool], object]) -> None:
        self.name = name
        self.label = widgets.HTML("", layout=widgets.Layout(flex="1 1 9em", min_width="0"))
        self.minus = widgets.Button(description="−1", tooltip=f"{name} : −1 (dégâts)",
                                    layout=widgets.Layout(width="48px"))
        self.plus = widgets.Button(description="+1", tooltip=f"{name} : +1 (soins)",
                                   layout=widgets.Layout(width="48px"))
        self.hide = widgets.ToggleButton(value=hidden, description="caché",
                                         tooltip=f"{name} : caché aux joueurs",
                                         layout=widgets.Layout(width="auto"))
        self.minus.on_click(lambda _b: adjust(name, -1))
        self.plus.on_click(lambda _b: adjust(name, +1))
        self.hide.observe(lambda change: hide(name, bool(change["new"])), names="value")
        self.widget = widgets.HBox(
            [self.label, self.minus, self.plus, self.hide],
            layout=widgets.Layout(align_items="center", flex_flow="row nowrap",
                                  border_bottom="1px solid #8b949e"),
        )
        typeset_labels(self.widget)

    def show(self, enc: Encounter, current: bool, hidden: bool | None = None) -> None:
        f = enc.state.fighters[self.name]
        known = list(enc.system.tracks)
        keys = sorted(f.tracks, key=lambda k: (known.index(k) if k in known else len(known),
                                               k))
        points = " · ".join(f"{k} {f.tracks[k]}/{f.maxima.get(k, f.tracks[k])}" for k in keys)
        effects = ", ".join(e.name for e in enc.state.effects if e.bearer == self.name)
        state = " · hors de combat" if f.out else " · en fuite" if f.fled else ""
        name = f"<b>▶ {h.esc(self.name)}</b>" if current else h.esc(self.name)
        extra = f"<br><small>{h.esc(effects)}</small>" if effects else ""
        self.label.value = f"{name} <span>{h.esc(points)}{state}</span>{extra}"
        self.minus.disabled = self.plus.disabled = not keys or enc.state.finished
        if hidden is not None and self.hide.value != hidden:
            self.hide.value = hidden  # « Annuler » took a toggle back

    def close(self) -> None:
        self.widget.close()
        for w in (self.label, self.minus, self.plus, self.hide):
            w.close()
