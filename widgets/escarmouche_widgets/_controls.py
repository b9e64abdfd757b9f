"""Shared controls of the demos: error banner, dice source (seed or manual dice),
roster editor, and the small base class every demo builds on.

Widgets are thin (STYLE.md lesson 9): controls hold what the user typed, a pure compute
step (engine functions + :mod:`escarmouche_widgets._html`) returns an HTML string, and an
``HTML`` widget shows it. Bad input never shows a traceback: an
:class:`~escarmouche.EscarmoucheError` is caught, its French message goes to the banner
and the previous result stays on screen.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

import ipywidgets as widgets
import traitlets
from ipywidgets.widgets.widget_string import TextStyle

from escarmouche import Combatant, EscarmoucheError
from escarmouche.dice import ScriptedRolls
from escarmouche.options import Option
from escarmouche.text.typo import typographie, typographie_html
from escarmouche_widgets._html import banner, text_of
from escarmouche_widgets._parse import (
    NumberField,
    RosterRow,
    build_roster,
    parse_dice_list,
    parse_number,
)

__all__ = [
    "SEED",
    "Demo",
    "DiceControls",
    "ErrorBanner",
    "NumberBox",
    "RosterEditor",
    "button",
    "fresh_seed",
    "number_box",
    "option_control",
    "option_labels",
    "option_value",
    "typeset_labels",
]

T = TypeVar("T")

WIDE = {"description_width": "initial"}


#: the widget traits a reader sees as text (option labels are written typeset)
_LABEL_TRAITS = ("description", "placeholder", "tooltip")


def _typeset_value(change: dict[str, Any]) -> None:
    owner = change["owner"]
    value = change["new"]
    if isinstance(value, str):
        typeset = typographie_html(value)
        if typeset != value:
            owner.value = typeset  # idempotent: this second change fires nothing more


def typeset_labels(root: widgets.Widget) -> None:
    """French typography on what ``root`` and every widget inside it show: labels
    (``description``, ``placeholder``, ``tooltip``: « Résultats : », « graine : ») now,
    and every value an ``HTML`` widget will show (results, odds, banners, logs), as it
    is set. :class:`Demo` calls it when a demo sets its ``widget``, so the code writes
    ordinary spaces: this is the widgets' one place for typography."""
    todo = [root]
    seen: set[int] = set()
    while todo:
        w = todo.pop()
        if id(w) in seen:
            continue
        seen.add(id(w))
        for trait in _LABEL_TRAITS:
            value = getattr(w, trait, None)
            if isinstance(value, str) and value:
                typeset = typographie(value)
                if typeset != value:
                    setattr(w, trait, typeset)
        if isinstance(w, widgets.HTML):
            w.observe(_typeset_value, names="value")
            _typeset_value({"owner": w, "new": w.value})
        todo.extend(c for c in getattr(w, "children", ()) if isinstance(c, widgets.Widget))


class NumberBox(widgets.Text):  # type: ignore[misc]
    """A text box for one number, read by :func:`~escarmouche_widgets._parse.parse_number`
    against its declared :class:`~escarmouche_widgets._parse.NumberField` (its label, its
    one pair of bounds, its rule). Unlike ``IntText``, whose browser side drops what it
    cannot read (« 12,5 » became 125) and ``BoundedIntText``, which clamps in silence
    (−3 became 0), what the user typed reaches the parser, which refuses it in French.
    A number assigned from Python is kept as its text."""

    value = traitlets.CUnicode("", help="String value").tag(sync=True)

    def __init__(self, field: NumberField, value: object = "", **kwargs: Any) -> None:
        super().__init__(value="" if value is None else str(value), **kwargs)
        self.field = field

    @property
    def number(self) -> int | float | None:
        """The number typed, checked (``None`` for an empty box that may be empty)."""
        return parse_number(self.value, self.field)

    @property
    def integer(self) -> int:
        """The whole number typed, checked (a field that holds whole numbers only)."""
        value = self.number
        assert isinstance(value, int), self.field
        return value


def number_box(field: NumberField, value: object, description: str = "", *,
               width: str = "9em") -> NumberBox:
    """A :class:`NumberBox` labelled ``description`` (default: the field's label), as wide
    as ``width``, updated when the user leaves it or presses Entrée."""
    label = description or f"{field.label[:1].upper()}{field.label[1:]} :"
    return NumberBox(field, value, description=label, style=WIDE,
                     layout=widgets.Layout(width=width), continuous_update=False)


#: the seed box: a whole number of at most 9 digits (CORE-RNG: same seed, same result)
SEED = NumberField("graine", 0, 999_999_999, "CORE-RNG")


def button(description: str, **kwargs: Any) -> widgets.Button:
    """A button as wide as its French label (ipywidgets' default width cuts it)."""
    return widgets.Button(description=description,
                          layout=widgets.Layout(width="auto", min_width="6em"), **kwargs)


def option_labels(options: Iterable[Option]) -> dict[str, str]:
    """The French label of each option by its engine name and by its French key: what
    a refusal names (:meth:`~escarmouche.errors.EscarmoucheError.refusal`)."""
    out: dict[str, str] = {}
    for spec in options:
        out[spec.name] = out[spec.key] = spec.label
    return out


def option_control(spec: Option, value: Any, *, description: str | None = None,
                   layout: widgets.Layout | None = None) -> widgets.Widget | None:
    """One control for a declared option (:class:`~escarmouche.options.Option`), set to
    ``value``: a dropdown of its French ``choices``, a checkbox (yes/no), an integer box
    (a text box when it may be empty: empty means the label of ``None``, such as
    « aucun plafond »), a text box; ``None`` for sets, lists and tables. Labelled with
    ``description`` (default: :attr:`Option.title`). Bounds are not enforced by the
    control: the rules refuse a value out of them, in French (:func:`option_value`)."""
    label = spec.title if description is None else description
    layout = layout or widgets.Layout(width="auto", max_width="100%")
    kind = spec.kind
    if kind == "choice" and spec.choices is not None:
        # a dropdown's labels are not typeset by typeset_labels: typeset them here
        return widgets.Dropdown(options=[(typographie(text), v)
                                         for v, text in spec.choices.items()],
                                value=value, description=f"{label} :", style=WIDE,
                                layout=layout)
    if kind == "bool":
        return widgets.Checkbox(value=bool(value), description=label, indent=False,
                                layout=layout)
    if kind == "int":
        # a text box read by the one number parser, against the declaration's bounds
        field = NumberField.of_option(spec)
        box = NumberBox(field, value, description=f"{label} :", style=WIDE, layout=layout,
                        continuous_update=False)
        if field.empty is not None:
            box.placeholder = f"vide : {field.empty}"
        return box
    if kind == "text":
        return widgets.Text(value=str(value), description=f"{label} :", style=WIDE,
                            layout=layout, continuous_update=False)
    return None


def option_value(spec: Option, control: widgets.Widget) -> Any:
    """The value an :func:`option_control` holds: a number box is read by the one number
    parser against the option's declaration (an empty box of an option that may be
    empty is ``None``; a decimal, a text or a value out of bounds is refused in French,
    naming the option by its label, with its bounds and rule)."""
    if isinstance(control, NumberBox):
        return control.number
    value = control.value
    return value.strip() if isinstance(value, str) else value


def fresh_seed() -> int:
    """A new seed for « nouvelle graine » (from the OS; never a module-level rng)."""
    return random.SystemRandom().randrange(1, 1_000_000)


class ErrorBanner:
    """An ``HTML`` widget showing the last error's French message (empty when none)."""

    def __init__(self) -> None:
        self.widget = widgets.HTML(value="")
        self._message = ""
        #: French labels of the fields a refusal may name (e.g. a system's options)
        self.labels: dict[str, str] = {}

    @property
    def message(self) -> str:
        """The French message shown, ``""`` when there is none."""
        return self._message

    def show(self, message: str) -> None:
        self._message = message
        self.widget.value = banner(message)

    def clear(self) -> None:
        self.show("")

    def guard(self, compute: Callable[[], T]) -> T | None:
        """Run ``compute``; on an :class:`EscarmoucheError` show its refusal as a reader
        reads it (:meth:`EscarmoucheError.refusal`: a sentence naming the field by its
        French label) and return ``None`` (the caller keeps its previous state), else
        clear the banner."""
        try:
            result = compute()
        except EscarmoucheError as err:
            self.show(err.refusal(self.labels))
            return None
        self.clear()
        return result


class DiceControls:
    """Where the dice come from: a seed (« graine », reproducible and shareable) or the
    results of physical dice typed by the user (« dés manuels »)."""

    def __init__(self, seed: int = 1) -> None:
        self.manual = widgets.Checkbox(value=False, description="dés manuels", indent=False,
                                       layout=widgets.Layout(width="auto"))
        self.dice = widgets.Text(
            value="", description="Résultats :", placeholder="ex. 37, 4, 12",
            style=WIDE, layout=widgets.Layout(width="22em", display="none"),
        )
        self.seed = number_box(SEED, seed, "graine :", width="11em")
        self.new_seed_button = button("Nouvelle graine", icon="refresh",
                                              tooltip="tire une nouvelle graine et relance")
        self.manual.observe(self._toggle, names="value")
        self.widget = widgets.HBox(
            [self.manual, self.seed, self.new_seed_button, self.dice],
            layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
        )

    def _toggle(self, change: Any = None) -> None:
        manual = bool(self.manual.value)
        self.dice.layout.display = "" if manual else "none"
        self.seed.layout.display = "none" if manual else ""
        self.new_seed_button.layout.display = "none" if manual else ""

    def rng(self) -> random.Random | ScriptedRolls:
        """A fresh rng for one computation: the typed dice, or ``Random(seed)``."""
        if self.manual.value:
            return ScriptedRolls(parse_dice_list(self.dice.value))
        return random.Random(self.seed_value())

    def seed_value(self) -> int:
        """The seed typed, checked (a whole number of at most 9 digits, CORE-RNG)."""
        return self.seed.integer

    def describe(self) -> str:
        """Where the dice of the result came from, in French."""
        if self.manual.value:
            return "dés manuels : " + ", ".join(str(v) for v in parse_dice_list(self.dice.value))
        return f"graine {self.seed_value()}"

    def new_seed(self) -> int:
        self.seed.value = str(fresh_seed())
        return self.seed_value()

    @staticmethod
    def leftover(rng: object) -> str:
        """A French remark when typed dice were left unused (``""`` otherwise)."""
        if isinstance(rng, ScriptedRolls) and rng.remaining:
            n = rng.remaining
            return f"{n} résultat{'s' if n > 1 else ''} saisi{'s' if n > 1 else ''} non utilisé" \
                   f"{'s' if n > 1 else ''} (il y en avait {rng.used + n}, {rng.used} lu" \
                   f"{'s' if rng.used > 1 else ''})."
        return ""


def close_widget(w: widgets.Widget) -> None:
    """Close a widget and its layout and style models."""
    for part in (getattr(w, "layout", None), getattr(w, "style", None)):
        if isinstance(part, widgets.Widget):
            part.close()
    w.close()


class _Shared:
    """The layout and style models every line of one roster editor shares: one model
    per column instead of two per field (a line was 20 models, now 7), so that a demo
    reaches the page sooner (each model is a message and a view; a Layout or a Style
    may be shared by several widgets)."""

    def __init__(self) -> None:
        self.layouts: dict[str, widgets.Layout] = {}
        self.text = TextStyle()
        self.button = widgets.ButtonStyle()

    def layout(self, width: str) -> widgets.Layout:
        if width not in self.layouts:
            self.layouts[width] = widgets.Layout(width=width)
        return self.layouts[width]

    def close(self) -> None:
        for part in (*self.layouts.values(), self.text, self.button):
            part.close()


class _Row:
    def __init__(self, row: RosterRow, with_skills: bool, on_remove: Callable[[_Row], None],
                 shared: _Shared):
        def text(value: str, placeholder: str, width: str) -> widgets.Text:
            return widgets.Text(value=value, placeholder=placeholder,
                                layout=shared.layout(width), style=shared.text)

        self.name = text(row.name, "nom", "9em")
        self.side = text(row.side, "camp", "7em")
        self.stats = text(row.stats, "HAB=60, DIS=40", "16em")
        self.traits = text(row.traits, "traits", "13em")
        self.skills = text(row.skills, "compétences", "9em")
        self.remove = widgets.Button(icon="times", tooltip="retirer ce combattant",
                                     layout=shared.layout("2.5em"), style=shared.button)
        self.remove.on_click(lambda _b: on_remove(self))
        parts: list[widgets.Widget] = [self.name, self.side, self.stats, self.traits]
        if with_skills:
            parts.append(self.skills)
        parts.append(self.remove)
        self.box = widgets.HBox(parts, layout=shared.layout("auto"))

    def value(self) -> RosterRow:
        return RosterRow(self.name.value, self.side.value, self.stats.value,
                         self.traits.value, self.skills.value)

    def close(self) -> None:
        """Free the line's widget models (a removed line leaves nothing in the kernel
        nor in a notebook's stored widget state)."""
        for w in (self.name, self.side, self.stats, self.traits, self.skills, self.remove,
                  self.box):
            w.close()  # its layout and style are the editor's (_Shared), kept


class RosterEditor:
    """A small roster: one line per combatant (nom, camp, caractéristiques, traits
    and, optionally, compétences), with « Ajouter » and a remove button per line."""

    def __init__(self, rows: Iterable[RosterRow] = (), *, with_skills: bool = False,
                 stats_hint: str = "HAB=60, DIS=40") -> None:
        self.with_skills = with_skills
        self.stats_hint = stats_hint
        self._rows: list[_Row] = []
        self._shared = _Shared()
        self.rows_box = widgets.VBox([])
        self.add_button = button("Ajouter un combattant", icon="plus")
        self.add_button.on_click(lambda _b: self.add_row(RosterRow("", "")))
        head = "nom · camp · caractéristiques (NOM=valeur, …) · traits"
        if with_skills:
            head += " · compétences"
        self.widget = widgets.VBox([
            widgets.HTML(f"<small>{head}</small>"), self.rows_box, self.add_button,
        ])
        self.set_rows(rows)

    @property
    def lines(self) -> list[_Row]:
        """The editable lines (their ``name``, ``side``, ``stats`` … ``Text`` widgets)."""
        return list(self._rows)

    def add_row(self, row: RosterRow) -> None:
        line = _Row(row, self.with_skills, self.remove_row, self._shared)
        line.stats.placeholder = self.stats_hint
        self._rows.append(line)
        self.rows_box.children = tuple(r.box for r in self._rows)

    def remove_row(self, line: _Row | int) -> None:
        target = self._rows[line] if isinstance(line, int) else line
        self._rows = [r for r in self._rows if r is not target]
        self.rows_box.children = tuple(r.box for r in self._rows)
        target.close()

    def set_rows(self, rows: Iterable[RosterRow]) -> None:
        old = self._rows
        self._rows = []
        for row in rows:
            self.add_row(row)
        self.rows_box.children = tuple(r.box for r in self._rows)
        for line in old:
            line.close()

    def rows(self) -> list[RosterRow]:
        return [r.value() for r in self._rows]

    def combatants(self, system: Any = None) -> list[Combatant]:
        """The combatants typed (French :class:`EscarmoucheError` on bad input); with a
        ``system``, each stat it declares is checked against its own bounds first."""
        return build_roster(self.rows(), system)


class Demo:
    """What every demo has: an error banner, a result ``HTML`` and ``result_text``; dice
    controls (seed or typed dice) and a ``roll``; most also show exact odds in ``odds``."""

    widget: widgets.Widget
    dice: DiceControls
    odds: widgets.HTML

    def __init__(self) -> None:
        self.banner = ErrorBanner()
        self.output = widgets.HTML(value="")
        # the answer to a tap: what the page script brings into view
        # (book_src/demos/suivi-combat.md)
        self.output.add_class("esc-result")

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "widget" and isinstance(value, widgets.Widget):
            typeset_labels(value)  # the one place for labels (escarmouche.text.typo)
        super().__setattr__(name, value)

    @property
    def result_text(self) -> str:
        """The result as the reader sees it, in plain text (charts left out)."""
        return text_of(self.output.value)

    @property
    def error_text(self) -> str:
        """The French error message shown in the banner (``""`` when none)."""
        return self.banner.message

    @property
    def odds_text(self) -> str:
        """The exact odds as the reader sees them, in plain text (charts left out)."""
        return text_of(self.odds.value)

    def roll(self) -> bool:
        """Compute and show a new result from the seed or the typed dice."""
        raise NotImplementedError

    def reroll(self) -> bool:
        """« Nouvelle graine » : draw a new seed, then roll with it."""
        self.dice.new_seed()
        return self.roll()

    def _show(self, compute: Callable[[], str]) -> bool:
        """Compute a new result; show it, or show the error and keep the old result."""
        html = self.banner.guard(compute)
        if html is None:
            return False
        self.output.value = html
        return True

    def _show_with_odds(self, compute: Callable[[], tuple[str, str]]) -> bool:
        """Like :meth:`_show`, for a computation that gives the result and the odds."""
        shown = self.banner.guard(compute)
        if shown is None:
            return False
        self.output.value, self.odds.value = shown
        return True

    def _ipython_display_(self) -> None:
        from IPython.display import display

        # IPython's display() carries no annotations.
        display(self.widget)  # type: ignore[no-untyped-call]


def labelled(label: str, *children: widgets.Widget) -> widgets.HBox:
    """A row of controls with a bold label in front."""
    return widgets.HBox(
        [widgets.HTML(f"<b>{label}</b>", layout=widgets.Layout(width="9em")), *children],
        layout=widgets.Layout(flex_flow="row wrap", align_items="center"),
    )


def options_of(values: Sequence[str]) -> list[tuple[str, str]]:
    return [(v, v) for v in values]
