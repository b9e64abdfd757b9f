"""``make refresh`` stores each widget as the cell that shows it left it (bench/README-pages.md).

A demo shown in one cell and driven by later cells must appear, in the static book, as
it was at the end of its own cell; models that no cell shows are not stored.
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat

from tools.book_notebooks import WIDGET_STATE
from tools.book_notebooks import execute as refresh


def test_widget_state_is_the_showing_cells(tmp_path: Path) -> None:
    nb = nbformat.v4.new_notebook()  # type: ignore[no-untyped-call]
    nb.cells = [
        nbformat.v4.new_code_cell(  # type: ignore[no-untyped-call]
            "import ipywidgets as w\nslider = w.IntSlider(value=1, description='dé')\nslider"),
        nbformat.v4.new_code_cell("slider.value = 5\nhidden = w.Text('jamais montré')"),  # type: ignore[no-untyped-call]
        nbformat.v4.new_code_cell("print(slider.value)"),  # type: ignore[no-untyped-call]
    ]
    path = tmp_path / "demo.ipynb"
    path.write_text(nbformat.writes(nb), encoding="utf-8")  # type: ignore[no-untyped-call]
    assert refresh(path)
    stored = json.loads(path.read_text(encoding="utf-8"))
    states = stored["metadata"]["widgets"][WIDGET_STATE]["state"]
    shown = stored["cells"][0]["outputs"][0]["data"][
        "application/vnd.jupyter.widget-view+json"]["model_id"]
    assert states[shown]["state"]["value"] == 1
    names = sorted(s["model_name"] for s in states.values())
    assert "TextModel" not in names
    assert names == ["IntSliderModel", "LayoutModel", "SliderStyleModel"]
    assert "".join(stored["cells"][2]["outputs"][0]["text"]) == "5\n"
