"""The designer's workshop « Atelier » (issue 17): pick a system, change any of its
options (French labels), see the standard odds before (the edition's defaults) and after
(your options) side by side, with charts, and export the option set as the
``[[changes]]`` blocks of an edition file.

Every number comes from :mod:`escarmouche.editions` (the same tables as the « Ce qui a
changé » pages). A value the rules refuse shows its French message above the result,
which stays as it was.

>>> atelier = Atelier("d20")
>>> atelier.controls["save_target"].value = 12
>>> [line for line in atelier.snippet_text.splitlines()
...  if line.startswith(("option", "after"))]
['option = "seuil_sauvegarde"', 'after = 12']
"""

from __future__ import annotations

import json

import ipywidgets as widgets

from escarmouche import systems
from escarmouche.editions.data import Change, _jsonable, change_to_toml
from escarmouche.editions.page import comparison_html
from escarmouche.errors import EscarmoucheError
from escarmouche.model import Json
from escarmouche.options import Option
from escarmouche.text.fmt import de
from escarmouche_widgets import _html as h
from escarmouche_widgets._controls import (
    WIDE,
    ErrorBanner,
    button,
    option_control,
    option_labels,
    option_value,
)

__all__ = ["Atelier"]


def _defaults(system: str) -> dict[str, Json]:
    sys_obj = systems.get(system)
    data: dict[str, Json] = json.loads(json.dumps(
        sys_obj.rules_to_json(sys_obj.default_rules()), default=_jsonable))
    return data


def _change(system: str, spec: Option, before: Json, after: Json) -> Change:
    """One option changed, as an edition file's ``[[changes]]`` block names it: its
    French key, its rule IDs and a French text to review."""
    text = (f"{spec.title} : la valeur par défaut passe {de(spec.value_label(before))} à "
            f"{spec.value_label(after)}.")
    return Change("option-default", spec.rules, text, system, spec.key, before, after)


def _changed_text(spec: Option, before: Json, after: Json) -> str:
    """« seuil du jet de sauvegarde (10 → 12, D20-END-1) »."""
    rules = "".join(f", {r}" for r in spec.rules)
    return f"{spec.label} ({spec.value_label(before)} → {spec.value_label(after)}{rules})"


class Atelier:
    """Controls: ``system`` (dropdown), ``controls`` (one widget per option, by its
    engine name), ``reset_button``; ``result_text`` (the odds as text), ``snippet_text``
    (the TOML export, options named by their French key), ``error_text`` (the French
    message shown, ``""`` when none)."""

    def __init__(self, system: str = systems.DEFAULT) -> None:
        systems.get(system)
        self.banner = ErrorBanner()
        self.system = widgets.Dropdown(
            options=[(systems.get(name).title or name, name) for name in systems.available()],
            value=system, description="Système :", style=WIDE)
        self.controls: dict[str, widgets.Widget] = {}
        self.specs: dict[str, Option] = {}
        self.options_box = widgets.VBox()
        self.reset_button = button("Revenir aux règles de l’édition", icon="undo")
        self.output = widgets.HTML()
        self.snippet = widgets.Textarea(
            value="", description="Fiche d’édition (TOML) :", style=WIDE,
            layout=widgets.Layout(width="100%", height="12em"))
        self.fixed = widgets.HTML()
        self.system.observe(lambda _c: self._build(), names="value")
        self.reset_button.on_click(lambda _b: self._build())
        self.widget = widgets.VBox([
            widgets.HTML("<b>Atelier du concepteur : les règles de l’édition, puis les "
                         "vôtres</b>"),
            self.system, self.options_box, self.fixed, self.reset_button,
            self.banner.widget, self.output, self.snippet,
        ])
        self._build()

    # -- the option controls -------------------------------------------------------------

    def _build(self) -> None:
        name = str(self.system.value)
        sys_obj = systems.get(name)
        self.banner.labels = option_labels(sys_obj.options())
        self.defaults = _defaults(name)
        self.controls = {}
        self.specs = {}
        skipped = []
        for spec in sys_obj.options():
            control = option_control(spec, self.defaults[spec.name])
            if control is None:
                skipped.append(spec.label)
                continue
            control.observe(lambda _c: self.update(), names="value")
            self.controls[spec.name] = control
            self.specs[spec.name] = spec
        self.options_box.children = list(self.controls.values())
        self.fixed.value = h.notice(
            "Options non modifiables ici (des tables) : " + ", ".join(skipped) + "."
        ) if skipped else ""
        self.update()

    # -- computing -------------------------------------------------------------------------

    def options(self) -> dict[str, Json]:
        """The option values set in the controls (JSON keyed by engine names, as
        ``System.rules_to_json``)."""
        out: dict[str, Json] = {}
        for option, control in self.controls.items():
            out[option] = option_value(self.specs[option], control)
        return out

    def update(self) -> bool:
        """Recompute the comparison and the export; on a refused value show its French
        message and keep the previous result."""
        name = str(self.system.value)
        sys_obj = systems.get(name)

        def compute() -> tuple[str, str]:
            chosen = self.options()
            changed = {k: v for k, v in chosen.items() if v != self.defaults[k]}
            after = sys_obj.rules_from_keys({self.specs[k].key: v for k, v in changed.items()})
            before = sys_obj.default_rules()
            changes = [_change(name, self.specs[k], self.defaults[k], v)
                       for k, v in changed.items()]
            snippet = "\n".join(change_to_toml(c) for c in changes)
            head = (h.paragraph("Aucune option changée : les deux colonnes sont les "
                                "règles de l’édition.") if not changes else
                    h.paragraph("Options changées : " + ", ".join(
                        _changed_text(self.specs[k], self.defaults[k], v)
                        for k, v in changed.items()) + "."))
            if not sys_obj.standard_odds(before):
                return head + h.paragraph(
                    "Ce système ne décrit aucune situation type : pas de chances à "
                    "comparer."), snippet
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
