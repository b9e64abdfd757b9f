"""Light demo pages (docs/hebergement.md, book/_ext/escarmouche_static_widgets.py): a
stored widget is drawn as plain HTML at build, and the page no longer holds the widget
state."""

from __future__ import annotations

import json
from typing import Any

from book._ext import escarmouche_static_widgets as light
from tests.helpers.widgets import load_light

PAGE = """<html><head>
</head><body>
<script type="application/vnd.jupyter.widget-state+json">{state}</script>
<div class="cell_output">
<script type="application/vnd.jupyter.widget-view+json">{view}</script></div>
</body></html>"""


def _m(name: str, **state: object) -> dict[str, object]:
    return {"model_name": name, "state": {"_model_name": name, **state}}


STATE = {"state": {
    "box": _m("VBoxModel", children=["IPY_MODEL_row", "IPY_MODEL_out", "IPY_MODEL_gone"]),
    "row": _m("HBoxModel", children=["IPY_MODEL_text", "IPY_MODEL_go", "IPY_MODEL_pick",
                                     "IPY_MODEL_tick"]),
    "text": _m("TextModel", description="Résultats\u00a0:", value="9, 9, 12, 2",
               placeholder="ex. 37"),
    "go": _m("ButtonModel", description="Lancer l’initiative"),
    "pick": _m("DropdownModel", description="Système\u00a0:", index=1,
               _options_labels=["d100", "d12"]),
    "tick": _m("CheckboxModel", description="dés manuels", value=True),
    "out": _m("HTMLModel", value="<svg><text>Aldric agit</text></svg>"),
    "gone": _m("HTMLModel", value="caché", layout="IPY_MODEL_lay"),
    "lay": _m("LayoutModel", display="none"),
}, "version_major": 2, "version_minor": 0}


def test_a_stored_widget_is_drawn_as_html_without_the_widget_library() -> None:
    page = PAGE.format(state=json.dumps(STATE),
                       view=json.dumps({"model_id": "box", "version_major": 2}))
    new, unknown = light.lighten(page)
    assert unknown == set()
    for gone in ("widget-state+json", "widget-view+json"):
        assert gone not in new
    assert '<div class="widget-html-content"><svg><text>Aldric agit</text></svg></div>' in new
    assert 'value="9, 9, 12, 2"' in new and "Résultats\u00a0:" in new
    assert 'aria-label="ex. 37 (activer pour jouer)"' not in new  # it has a label
    drawn = light.Drawer({"t": _m("TextModel", value="Aldric", placeholder="nom")}).draw("t")
    assert 'aria-label="nom (activer pour jouer)" disabled' in drawn
    assert ">Lancer l’initiative</button>" in new
    assert "<option selected>d12</option>" in new
    assert 'type="checkbox" checked disabled' in new
    assert "caché" not in new  # a widget laid out as hidden stays hidden
    assert new.count("▶ Activer pour jouer") == 1
    assert new.count('disabled title="Activer pour jouer"') == 4
    assert light.lighten(new) == (new, set())  # idempotent


def test_tabs_are_drawn_one_after_the_other_under_bold_titles_not_headings() -> None:
    drawer = light.Drawer({
        "tabs": _m("TabModel", children=["IPY_MODEL_a", "IPY_MODEL_b"], titles=["Un", "Deux"]),
        "a": _m("HTMLModel", value="premier"),
        "b": _m("HTMLModel", value="second"),
    })
    drawn = drawer.draw("tabs")
    assert "<h" not in drawn
    assert drawn.index("<strong>Un</strong>") < drawn.index("premier") < drawn.index(
        "<strong>Deux</strong>") < drawn.index("second")


def test_a_page_without_widgets_is_left_alone_and_unknown_widgets_are_named() -> None:
    assert light.lighten("<html><head></head><body>texte</body></html>")[1] == set()
    state = {"state": {"x": _m("ColorPickerModel", value="#fff")}}
    page = PAGE.format(state=json.dumps(state), view=json.dumps({"model_id": "x"}))
    assert light.lighten(page)[1] == {"ColorPickerModel"}


def test_a_progress_bar_is_drawn_as_html() -> None:
    """The balance demo's and the Atelier's progress bars (IntProgress) are drawn as an
    HTML ``progress`` element with their value, named for screen readers."""
    module = load_light("esc_light_progress")
    state = {"p": {"model_name": "IntProgressModel", "state": {
        "_model_name": "IntProgressModel", "value": 30, "max": 120, "description": ""}}}
    drawer = module.Drawer(state) if hasattr(module, "Drawer") else None
    assert drawer is not None, "escarmouche_static_widgets has no Drawer"
    out = drawer.draw("p")
    assert '<progress max="120" value="30" aria-label="progression"></progress>' in out
    assert not drawer.unknown
