"""The designer's workshop « Atelier » (issue 17): pick a system, change any of its
options (French labels), see the standard odds before (the edition's defaults) and after
(your options) side by side, with charts, and export the option set as the
``[[changes]]`` blocks of an edition file.

Every number comes from :mod:`escarmouche.editions` (the same tables as the « Ce qui a
changé » pages). A value the rules refuse shows its French message above the result,
which stays as it was.

>>> atelier = Atelier("d20")
>>> atelier.controls["save_target"].value = 12
>>> [line for line in atelier.snippet_text.splitlines() if line.startswith("after")]
['after = 12']
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping
from typing import Any

import ipywidgets as widgets

from escarmouche import systems
from escarmouche.editions.data import _jsonable, change_to_toml, option_changes
from escarmouche.editions.odds import option_label, value_label
from escarmouche.editions.page import comparison_html
from escarmouche.errors import EscarmoucheError, invalid
from escarmouche.model import Json
from escarmouche_widgets import _html as h
from escarmouche_widgets._controls import WIDE, ErrorBanner, button

__all__ = ["Atelier"]


def _defaults(system: str) -> dict[str, Json]:
    sys_obj = systems.get(system)
    data: dict[str, Json] = json.loads(json.dumps(
        sys_obj.rules_to_json(sys_obj.default_rules()), default=_jsonable))
    return data


def _choices(system: str, option: str, default: Json) -> list[tuple[str, Json]] | None:
    """The named values of an option (a dropdown), ``None`` for a free value."""
    module = importlib.import_module(f"escarmouche.systems.{system}.rules")
    named: Mapping[Any, str] = getattr(module, "OPTION_VALUE_LABELS", {}).get(option, {})
    labels: Mapping[str, str] = getattr(module, "OPTION_LABELS", {})
    values: list[Json] = [v for v in named if isinstance(v, str)]
    values += [k.split(".", 1)[1] for k in labels if k.startswith(f"{option}.")]
    if not isinstance(default, str) or not values:
        return None
    values = list(dict.fromkeys(values))
    return [(value_label(system, option, v), v) for v in values]


class Atelier:
    """Controls: ``system`` (dropdown), ``controls`` (one widget per option, by name),
    ``reset_button``; ``result_text`` (the odds as text), ``snippet_text`` (the TOML
    export), ``error_text`` (the French message shown, ``""`` when none)."""

    def __init__(self, system: str = "rulebook") -> None:
        systems.get(system)
        self.banner = ErrorBanner()
        self.system = widgets.Dropdown(
            options=[(title, name) for name, title in systems.TITLES.items()],
            value=system, description="Système :", style=WIDE)
        self.controls: dict[str, widgets.Widget] = {}
        self.options_box = widgets.VBox()
        self.reset_button = button("Revenir aux règles de l’édition", icon="undo")
        self.output = widgets.HTML()
        self.snippet = widgets.Textarea(
            value="", description="Fiche d’édition (TOML) :", style=WIDE,
            layout=widgets.Layout(width="100%", height="12em"))
        self.fixed = widgets.HTML()
        self.system.observe(lambda _c: self._build(), names="value")
        self.reset_button.on_click(lambda _b: self._build())
        self.widget = widgets.VBox([
            widgets.HTML("<b>Atelier du concepteur : les règles de l’édition, puis les "
                         "vôtres</b>"),
            self.system, self.options_box, self.fixed, self.reset_button,
            self.banner.widget, self.output, self.snippet,
        ])
        self._build()

    # -- the option controls -------------------------------------------------------------

    def _control(self, system: str, option: str, default: Json) -> widgets.Widget | None:
        label = option_label(system, option) + " :"
        choices = _choices(system, option, default)
        layout = widgets.Layout(width="auto", max_width="100%")
        if choices is not None:
            return widgets.Dropdown(options=choices, value=default, description=label,
                                    style=WIDE, layout=layout)
        if isinstance(default, bool):
            return widgets.Checkbox(value=default, description=label, indent=False,
                                    layout=layout)
        if isinstance(default, int):
            return widgets.IntText(value=default, description=label, style=WIDE,
                                   layout=layout)
        if default is None:
            return widgets.Text(value="", description=label, style=WIDE, layout=layout,
                                placeholder="vide : aucune limite")
        if isinstance(default, str):
            return widgets.Text(value=default, description=label, style=WIDE, layout=layout,
                                continuous_update=False)
        return None

    def _build(self) -> None:
        name = str(self.system.value)
        module = importlib.import_module(f"escarmouche.systems.{name}.rules")
        self.banner.labels = {k: v for k, v in getattr(module, "OPTION_LABELS", {}).items()
                              if "." not in k}
        self.defaults = _defaults(name)
        self.controls = {}
        skipped = []
        for option, default in self.defaults.items():
            control = self._control(name, option, default)
            if control is None:
                skipped.append(option_label(name, option))
                continue
            control.observe(lambda _c: self.update(), names="value")
            self.controls[option] = control
        self.options_box.children = list(self.controls.values())
        self.fixed.value = h.notice(
            "Options non modifiables ici (des tables) : " + ", ".join(skipped) + "."
        ) if skipped else ""
        self.update()

    # -- computing -------------------------------------------------------------------------

    def options(self) -> dict[str, Json]:
        """The option values set in the controls (JSON, as ``Rules.rules_to_json``)."""
        out: dict[str, Json] = {}
        for option, control in self.controls.items():
            value = control.value
            if self.defaults[option] is None and isinstance(value, str):
                text = value.strip()
                if not text:
                    out[option] = None
                    continue
                try:
                    out[option] = int(text)
                except ValueError:
                    raise invalid(option, text, "CORE-ERR",
                                  "un nombre entier, ou rien pour aucune limite, est "
                                  "attendu") from None
                continue
            out[option] = value
        return out

    def update(self) -> bool:
        """Recompute the comparison and the export; on a refused value show its French
        message and keep the previous result."""
        name = str(self.system.value)
        sys_obj = systems.get(name)

        def compute() -> tuple[str, str]:
            chosen = self.options()
            changed = {k: v for k, v in chosen.items() if v != self.defaults[k]}
            after = sys_obj.rules_from_json(changed)
            before = sys_obj.default_rules()
            changes = option_changes({name: self.defaults}, {name: {**self.defaults,
                                                                     **changed}})
            snippet = "\n".join(change_to_toml(c) for c in changes)
            head = (h.paragraph("Aucune option changée : les deux colonnes sont les "
                                "règles de l’édition.") if not changes else
                    h.paragraph("Options changées : " + ", ".join(
                        f"{option_label(name, c.option or '')} "
                        f"({value_label(name, c.option or '', c.before)} → "
                        f"{value_label(name, c.option or '', c.after)})"
                        for c in changes) + "."))
            return head + comparison_html(name, before, after), snippet

        try:
            shown = self.banner.guard(compute)
        except (TypeError, ValueError) as err:  # a value the rules object itself refuses
            if isinstance(err, EscarmoucheError):
                raise
            self.banner.show(f"Valeur refusée par les règles ({err}).")
            return False
        if shown is None:
            return False
        self.output.value, self.snippet.value = shown
        return True

    # -- what the reader sees ----------------------------------------------------------------

    @property
    def result_text(self) -> str:
        return h.text_of(self.output.value)

    @property
    def snippet_text(self) -> str:
        return str(self.snippet.value)

    @property
    def error_text(self) -> str:
        return self.banner.message

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)  # type: ignore[no-untyped-call]
