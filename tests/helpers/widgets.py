"""What the widget tests share: the toy system's roster as the tracker's rows
(:data:`ROWS`), and a fresh copy of the book's static-widget extension
(:func:`load_light`, ``book/_ext/escarmouche_static_widgets.py``)."""

from __future__ import annotations

import importlib.util
from typing import Any

from escarmouche_widgets import RosterRow

__all__ = ["ROWS", "load_light"]

#: three fighters of the toy system, two sides, as the tracker's roster rows
ROWS = [
    RosterRow("Aldric", "héros", "PV=12, init=2"),
    RosterRow("Brune", "héros", "PV=9"),
    RosterRow("Grolk", "monstres", "PV=10, init=1"),
]


def load_light(name: str) -> Any:
    """A fresh copy of ``book/_ext/escarmouche_static_widgets.py`` under module ``name``."""
    spec = importlib.util.find_spec("book._ext.escarmouche_static_widgets")
    assert spec and spec.origin
    fresh = importlib.util.spec_from_file_location(name, spec.origin)
    assert fresh and fresh.loader
    module = importlib.util.module_from_spec(fresh)
    fresh.loader.exec_module(module)
    return module
