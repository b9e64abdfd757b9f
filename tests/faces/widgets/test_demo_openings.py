"""Every demo opens in the state its page describes (book_src/demos/suivi-combat.md).

A demo page shows its widget in one cell, then drives a copy of it in the cells of
« Le même calcul, sans cliquer ». Live mode (« Activer ») runs every cell of the page
again, and the static book stores a snapshot of the widget: both must show the state
the page promises, not what a later cell did. Three checks per page:

- the page's text makes the promise (a phrase of the twin ``book_src/X.md``), and the
  widget right after the cell that shows it keeps it (system, seed, dice, no banner…);
- running every later cell of the page (as « Activer » does) leaves the shown widget's
  controls and outputs exactly as they were;
- the notebook's stored snapshot (the static page) holds the same control values.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ipywidgets as widgets
import pytest

from tools import book_notebooks as tool

ROOT = tool.ROOT
WIDGET_STATE = tool.WIDGET_STATE

Check = Callable[[Any], bool]


def _not_manual(demo: Any) -> bool:
    return demo.dice.manual.value is False


def _no_banner(demo: Any) -> bool:
    return bool(demo.error_text == "")


#: page → (name of the shown demo, [(phrase of the page, what it promises, check)])
PROMISES: dict[str, tuple[str, list[tuple[str, str, Check]]]] = {
    "demos/initiative.md": ("demo", [
        ("s’ouvre sur le système Rulebook, avec\nla graine 7",
         "le système Rulebook, graine 7, dés tirés de la graine",
         lambda d: d.system.value == "rulebook" and d.dice.seed_value() == 7
         and _not_manual(d)),
        ("lancez\nl’initiative", "aucune erreur affichée", _no_banner),
    ]),
    "demos/tour-d20.md": ("demo", [
        ("Le tour de Brune", "le tour de Brune, sans bandeau d’erreur",
         lambda d: _no_banner(d) and "Brune" in d.result_text),
        ("un budget dépassé est refusé", "les actions d’un tour qui tient dans le budget",
         lambda d: "attaquer, attaquer" not in d.actions.value and _not_manual(d)),
    ]),
    "demos/suivi-combat.md": ("suivi", [
        ("aucun combat n’est encore en cours",
         "aucun combat en cours : le groupe d’exemple, prêt à commencer",
         lambda d: d.encounter is None and "Aucun combat en cours" in d.status_text),
        ("Deux façons de lancer les dés", "les dés tirés de la graine",
         lambda d: _not_manual(d) and _no_banner(d)),
    ]),
    "demos/parade-esquive.md": ("demo", [
        ("parade", "graine 5, dés tirés de la graine, aucune erreur",
         lambda d: d.dice.seed_value() == 5 and _not_manual(d) and _no_banner(d)),
    ]),
    "demos/critiques.md": ("demo", [
        ("critique", "graine 2, dés tirés de la graine, aucune erreur",
         lambda d: d.dice.seed_value() == 2 and _not_manual(d) and _no_banner(d)),
    ]),
    "demos/surprise.md": ("demo", [
        ("surprise", "les quatre systèmes côte à côte, graine 3",
         lambda d: all(box.value for box in d.systems.values()) and d.dice.seed_value() == 3
         and _not_manual(d) and _no_banner(d)),
    ]),
    "atelier.md": ("atelier", [
        ("sous les règles de l’édition en cours (avant)",
         "les règles de l’édition, aucune option changée",
         lambda d: "Aucune option changée" in d.result_text),
    ]),
}


def _cells(twin: Path) -> list[str]:
    nb = tool.convert(twin)
    return [c.source for c in nb.cells if c.cell_type == "code"]


def _closure(root: widgets.Widget) -> list[widgets.Widget]:
    """The widget and every widget its state references, in a stable order."""
    seen: dict[str, widgets.Widget] = {}
    todo = [root]
    while todo:
        w = todo.pop(0)
        if w.model_id in seen:
            continue
        seen[w.model_id] = w
        for key in w.keys:
            value = getattr(w, key, None)
            items = value if isinstance(value, (list, tuple)) else [value]
            todo.extend(v for v in items if isinstance(v, widgets.Widget))
    return list(seen.values())


def _controls(states: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    """The value of every control and output, as (model, description, value)."""
    out = []
    for s in states:
        if "value" in s and not isinstance(s["value"], (dict, list)):
            out.append((s.get("_model_name", ""), str(s.get("description", "")),
                        str(s["value"])))
    return sorted(out)


def _short(rows: list[tuple[str, str, str]]) -> str:
    return "; ".join(f"{m} {d} = {v[:60]!r}" for m, d, v in rows[:3])


def _fingerprint(root: widgets.Widget) -> list[tuple[str, str, str]]:
    return _controls([json.loads(json.dumps(w.get_state(), default=str))
                      for w in _closure(root)])


def _stored(notebook: Path) -> list[tuple[str, str, str]]:
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    states = nb["metadata"]["widgets"][WIDGET_STATE]["state"]
    return _controls([entry["state"] for entry in states.values()])


def _opened(page: str) -> tuple[Path, str, list[str], int, dict[str, Any]]:
    """Run a demo page's cells up to the one that shows its demo: (twin, its text, its
    cells, the rank of that cell, the page's scope)."""
    twin = ROOT / "book_src" / page
    text = twin.read_text(encoding="utf-8")
    name = PROMISES[page][0]
    cells = _cells(twin)
    shows = next(i for i, c in enumerate(cells) if re.search(rf"^{name}\.widget$", c, re.M))
    scope: dict[str, Any] = {}
    with contextlib.redirect_stdout(io.StringIO()):
        for source in cells[: shows + 1]:
            exec(compile(source, str(twin), "exec"), scope)  # the page's own code
    return twin, text, cells, shows, scope


@pytest.mark.parametrize("page", sorted(PROMISES))
def test_demo_opens_as_its_page_says(page: str) -> None:
    twin, text, cells, shows, scope = _opened(page)
    name, promises = PROMISES[page]
    demo = scope[name]
    for phrase, promise, check in promises:
        assert phrase in text, f"{page} ne promet plus « {phrase} »"
        assert check(demo), f"{page} : la démonstration ne s’ouvre pas sur {promise}"
    opening = _fingerprint(demo.widget)
    with contextlib.redirect_stdout(io.StringIO()):
        for source in cells[shows + 1:]:
            exec(compile(source, str(twin), "exec"), scope)
    changed = [c for c in _fingerprint(demo.widget) if c not in opening]
    assert not changed, (f"{page} : une cellule suivante change la démonstration affichée "
                         f"(« Activer » la montrerait ainsi) : {_short(changed)}")


@pytest.mark.published
@pytest.mark.parametrize("page", sorted(PROMISES))
def test_demo_stored_snapshot_is_its_opening(page: str) -> None:
    """The committed notebook's snapshot (the static page) holds the opening state: the
    book as published against the engine (left out when the defaults are moved)."""
    twin, _, _, _, scope = _opened(page)
    opening = _fingerprint(scope[PROMISES[page][0]].widget)
    stored = _stored(tool.target(twin))
    missing = [c for c in opening if c not in stored]
    assert not missing, (f"{page} : l’instantané enregistré n’est pas l’état d’ouverture : "
                         f"{_short(missing)} (lancez tools/book_notebooks.py)")


def test_the_check_sees_a_demo_driven_after_it_is_shown() -> None:
    """The fingerprint does see a control changed after the cell that shows the demo."""
    from escarmouche_widgets import InitiativeDemo

    demo = InitiativeDemo(seed=7)
    before = _fingerprint(demo.widget)
    demo.dice.manual.value = True
    assert _fingerprint(demo.widget) != before
