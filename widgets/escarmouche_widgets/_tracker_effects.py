"""The tracker's damage, healing and effects (:class:`TrackerEffects`, a part of
:class:`~escarmouche_widgets.tracker.CombatTracker`), and the dropdown helper both use.

Every button calls one atomic operation of the encounter as an undoable step; a
rejected operation shows the engine's French message and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from escarmouche import Effect, EscarmoucheError, Event, Timing
from escarmouche.encounter import Encounter
from escarmouche_widgets._parse import NumberField, parse_idents, parse_stats

__all__ = ["AMOUNT", "DURATION", "NO_ONE", "TrackerEffects", "set_options"]

#: the damage or healing box: what ``Encounter.adjust`` accepts (CORE-ERR), never clamped
AMOUNT = NumberField("valeur des dégâts ou des soins", 0, 100_000, "CORE-ERR")
#: the duration box: 0 (no end) or what an effect accepts, 1–10 000 (CORE-ERR)
DURATION = NumberField("durée de l’effet", 0, 10_000, "CORE-ERR")
#: « nobody » in the bearer and « until the turn of » lists
NO_ONE = "(aucun)"


class TrackerEffects:
    """« Dégâts et soins » and « Effets »: the tracker's controls of those names."""

    encounter: Encounter | None
    damage_who: widgets.Dropdown
    damage_track: widgets.Dropdown
    damage_amount: Any
    damage_kind: widgets.ToggleButtons
    effect_preset: widgets.Dropdown
    effect_preset_who: widgets.Dropdown
    effect_name: widgets.Text
    effect_bearer: widgets.Dropdown
    effect_timing: widgets.Dropdown
    effect_until: widgets.Dropdown
    effect_duration: Any
    effect_per_tick: widgets.Text
    effect_save: widgets.Checkbox
    effect_keywords: widgets.Text
    effect_remove: widgets.Dropdown

    if TYPE_CHECKING:
        def _show(self, compute: Callable[[], str]) -> bool: ...
        def _running(self) -> Encounter: ...
        def _step(self, label: str, operation: Callable[[Encounter], Sequence[Event]],
                  rng: object = None) -> str: ...

    def _on_damage_who(self, change: Any = None) -> None:
        enc = self.encounter
        tracks: list[str] = []
        if enc is not None and self.damage_who.value in enc.state.fighters:
            tracks = list(enc.state.fighters[self.damage_who.value].tracks)
        set_options(self.damage_track, tracks, None)

    def apply_damage(self) -> bool:
        """Damage (or heal) a track by the value typed (a GM adjustment)."""

        def compute() -> str:
            who, track = self.damage_who.value, self.damage_track.value
            if not who or not track:
                self._running()
                raise EscarmoucheError(
                    "Aucune piste choisie : choisissez un combattant et une piste (CORE-ERR).",
                    field="piste", value=None, rule="CORE-ERR",
                )
            amount = self.damage_amount.integer
            delta = -amount if self.damage_kind.value == "dégâts" else amount
            kind = str(self.damage_kind.value)
            return self._step(f"{kind.capitalize()} : {who}",
                              lambda enc: enc.adjust(str(who), str(track), delta, reason=kind))

        return self._show(compute)

    def add_preset(self) -> bool:
        """Put the chosen preset (the system's conditions and effects) on a fighter."""

        def compute() -> str:
            enc = self._running()
            preset = next((p for p in enc.system.effect_presets
                           if p.name == self.effect_preset.value), None)
            if preset is None or not self.effect_preset_who.value:
                raise EscarmoucheError(
                    "effet = aucun : choisissez un effet prêt et son porteur (CORE-ERR)",
                    field="effet", value=None, rule="CORE-ERR")
            who = str(self.effect_preset_who.value)
            effect = preset.effect(who)
            return self._step(f"Effet ajouté : {preset.name} ({who})",
                              lambda e: e.add_effect(effect))

        return self._show(compute)

    def add_effect(self) -> bool:
        """Add the effect described by the « Effets » controls."""

        def compute() -> str:
            self._running()
            name = self.effect_name.value.strip()
            if not name:
                raise EscarmoucheError(
                    "Effet sans nom : donnez un nom à l’effet, par exemple « poison » "
                    "(CORE-ERR).", field="effet", value="", rule="CORE-ERR",
                )
            bearer = None if self.effect_bearer.value == NO_ONE else self.effect_bearer.value
            until = None if self.effect_until.value == NO_ONE else self.effect_until.value
            duration = self.effect_duration.integer
            effect = Effect(
                id="",
                name=name,
                timing=Timing(self.effect_timing.value),
                bearer=bearer,
                remaining=duration or None,
                until_turn_of=until,
                per_tick=parse_stats(self.effect_per_tick.value, name),
                save_ends=bool(self.effect_save.value),
                keywords=parse_idents(self.effect_keywords.value),
                kind=_effect_kind(parse_stats(self.effect_per_tick.value, name)),
            )
            return self._step(f"Effet ajouté : {name}", lambda enc: enc.add_effect(effect))

        return self._show(compute)

    def remove_effect(self) -> bool:
        def compute() -> str:
            self._running()
            if not self.effect_remove.value:
                raise EscarmoucheError(
                    "Aucun effet à retirer : aucun effet n’est en cours (CORE-ERR).",
                    field="effet", value=None, rule="CORE-ERR",
                )
            which = str(self.effect_remove.value)
            return self._step("Effet retiré", lambda enc: enc.remove_effect(which))

        return self._show(compute)


def _effect_kind(per_tick: Mapping[str, int]) -> str:
    """« dégâts continus » or « régénération » when the effect only hurts or only heals."""
    values = list(per_tick.values())
    if values and all(v < 0 for v in values):
        return "degats_continus"
    if values and all(v > 0 for v in values):
        return "regeneration"
    return "generique"


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
