"""The tracker's « Dégâts et soins » and « Effets » (:class:`TrackerEffects`, a part of
:class:`~escarmouche_widgets.tracker.CombatTracker`), and the dropdown helper.

Each button reads its controls into one call of the table session
(:class:`~escarmouche_widgets.session.TableSession`), which plays it as an undoable
step or refuses it in French, changing nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from escarmouche import Timing
from escarmouche import systems as _systems
from escarmouche.encounter import Encounter
from escarmouche.systems.base import ENVIRONMENT
from escarmouche_widgets._controls import WIDE, button, number_box
from escarmouche_widgets._parse import NumberField, parse_idents, parse_stats
from escarmouche_widgets.session import Outcome, TableSession, timings

__all__ = ["AMOUNT", "DURATION", "NO_ONE", "TrackerEffects", "set_options"]

#: the damage or healing box: what ``Encounter.adjust`` accepts (CORE-ERR), never clamped
AMOUNT = NumberField("valeur des dégâts ou des soins", 0, 100_000, "CORE-ERR")
#: the duration box: 0 (no end) or what an effect accepts, 1–10 000 (CORE-ERR)
DURATION = NumberField("durée de l’effet", 0, 10_000, "CORE-ERR")
#: « nobody » in the bearer and « until the turn of » lists
NO_ONE = "(aucun)"


class TrackerEffects:
    """« Dégâts et soins » and « Effets »: the tracker's controls of those names."""

    session: TableSession

    if TYPE_CHECKING:
        def _call(self, step: Callable[[Any], Outcome], *, dice: bool = False) -> bool: ...

    def _build_effects(self, system: str) -> tuple[widgets.Widget, widgets.Widget]:
        """The controls of « Dégâts et soins » and « Effets » (the system's presets,
        then a free effect), and their two boxes."""
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
                                              options=timings(system),
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
        damage = widgets.VBox([
            widgets.HBox([self.damage_who, self.damage_track]),
            widgets.HBox([self.damage_amount, self.damage_kind, self.damage_button]),
        ])
        effects = widgets.VBox([
            widgets.HBox([self.effect_preset, self.effect_preset_who,
                          self.effect_preset_button]),
            widgets.HTML("<small>Ou un effet libre :</small>"),
            widgets.HBox([self.effect_name, self.effect_bearer]),
            widgets.HBox([self.effect_timing, self.effect_until]),
            widgets.HBox([self.effect_duration, self.effect_per_tick]),
            widgets.HBox([self.effect_keywords, self.effect_save]),
            self.effect_button,
            widgets.HBox([self.effect_remove, self.effect_remove_button]),
        ])
        return damage, effects

    def _on_damage_who(self, change: Any = None) -> None:
        enc = self.session.encounter
        tracks: list[str] = []
        if enc is not None and self.damage_who.value in enc.state.fighters:
            tracks = list(enc.state.fighters[self.damage_who.value].tracks)
        set_options(self.damage_track, tracks, None)

    def apply_damage(self) -> bool:
        """Damage (or heal) a track by the value typed (a GM adjustment)."""
        return self._call(lambda _rng: self.session.adjust(
            self.damage_who.value, self.damage_track.value, self.damage_amount.integer,
            heal=self.damage_kind.value == "soins"))

    def add_preset(self) -> bool:
        """Put the chosen preset (the system's conditions and effects) on a fighter."""
        return self._call(lambda _rng: self.session.add_preset(
            self.effect_preset.value, self.effect_preset_who.value))

    def add_effect(self) -> bool:
        """Add the effect described by the « Effets » controls."""

        def chosen(value: Any) -> str | None:
            return None if value in (NO_ONE, None) else str(value)

        def call(_rng: Any) -> Outcome:
            name = self.effect_name.value.strip()
            return self.session.add_effect(
                name, timing=self.effect_timing.value, bearer=chosen(self.effect_bearer.value),
                duration=self.effect_duration.integer,
                until_turn_of=chosen(self.effect_until.value),
                per_tick=parse_stats(self.effect_per_tick.value, name),
                save_ends=bool(self.effect_save.value),
                keywords=parse_idents(self.effect_keywords.value))

        return self._call(call)

    def remove_effect(self) -> bool:
        return self._call(lambda _rng: self.session.remove_effect(self.effect_remove.value))

    def _refresh_effects(self, enc: Encounter | None, names: list[str],
                         current: str | None) -> None:
        """The lists of « Dégâts et soins » and « Effets », in line with the fight."""
        set_options(self.damage_who, names, None)
        set_options(self.effect_preset_who, names, current)
        set_options(self.effect_bearer, [NO_ONE, *names, ENVIRONMENT], None)
        set_options(self.effect_until, [NO_ONE, *names], None)
        effects = [(f"{e.id} · {e.name}" + (f" ({e.bearer})" if e.bearer else ""), e.id)
                   for e in (enc.state.effects if enc is not None else [])]
        set_options(self.effect_remove, effects, None)
        system = enc.system if enc is not None else _systems.get(self.session.system)
        presets = system.effect_presets
        set_options(self.effect_preset, [(p.label, p.name) for p in presets], None)
        self._on_damage_who()


def set_options(dropdown: widgets.Dropdown, options: Sequence[str | tuple[str, str]],
                 prefer: str | None) -> None:
    """Replace a dropdown's options (values or ``(label, value)`` pairs), keeping its
    value when still offered, else ``prefer``, else the first option."""
    old = dropdown.value
    options = list(options)
    values = [o[1] if isinstance(o, tuple) else o for o in options]
    if list(dropdown.options) != options:
        dropdown.options = options
    if prefer is not None and prefer in values:
        dropdown.value = prefer
    elif old in values:
        dropdown.value = old
    elif values:
        dropdown.value = values[0]
