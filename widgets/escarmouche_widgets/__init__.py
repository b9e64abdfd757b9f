"""ipywidgets demos of Escarmouche (French labels). Depends on the engine, never the reverse.

Each demo is a class whose ``widget`` attribute is the root box to display; its controls
are attributes (set them, press the buttons with ``button.click()``) and
``result_text`` is the text it shows. The demos:

* :class:`InitiativeDemo` — initiative of any registered system;
* :class:`SurpriseDemo` — every registered system's surprise round on one roster;
* :class:`ParryDodgeDemo` — one d100 attack, parry or dodge, step by step;
* :class:`CriticalDemo` — the three d12 critical options side by side;
* :class:`D20TurnDemo` — one d20 turn, phase by phase;
* :class:`CombatTracker` — a GM's tracker for any system, saved as JSON: the view of a
  :class:`TableSession`, the fight and its history with one method per GM step and no
  widget (:mod:`escarmouche_widgets.session`);
* :class:`Atelier` — the designer's workshop: options changed, odds before and after,
  whole fights simulated, and a duel solved exactly (« Calcul exact »);
* :class:`BalanceDemo` — a small balance simulation of a roster (N fights).

:class:`RosterRow` is one line of a roster as typed (strings), what the tracker, the
Atelier and the demos take as their roster.

The demos that take a system (initiative, surprise, tracker, Atelier, balance) read all
they show from its :class:`~escarmouche.systems.base.System` (``systems.get(name)``):
a fifth system registered with ``escarmouche.systems.register`` is offered like the
four built-in ones.

Modules are imported on first use (a page loads only the demo it shows).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from escarmouche_widgets._html import text_of
    from escarmouche_widgets._parse import RosterRow
    from escarmouche_widgets.atelier import Atelier
    from escarmouche_widgets.balance import BalanceDemo
    from escarmouche_widgets.critical import CriticalDemo
    from escarmouche_widgets.d20_turn import D20TurnDemo
    from escarmouche_widgets.initiative import InitiativeDemo
    from escarmouche_widgets.parry import ParryDodgeDemo
    from escarmouche_widgets.session import TableSession
    from escarmouche_widgets.surprise import SurpriseDemo
    from escarmouche_widgets.tracker import CombatTracker

__all__ = [
    "Atelier",
    "BalanceDemo",
    "CombatTracker",
    "CriticalDemo",
    "D20TurnDemo",
    "InitiativeDemo",
    "ParryDodgeDemo",
    "RosterRow",
    "SurpriseDemo",
    "TableSession",
    "text_of",
]

_MODULES = {
    "Atelier": "atelier",
    "BalanceDemo": "balance",
    "CombatTracker": "tracker",
    "CriticalDemo": "critical",
    "D20TurnDemo": "d20_turn",
    "InitiativeDemo": "initiative",
    "ParryDodgeDemo": "parry",
    "RosterRow": "_parse",
    "SurpriseDemo": "surprise",
    "TableSession": "session",
    #: the text a reader sees in a widget's HTML (tests and notebooks read results so)
    "text_of": "_html",
}


def __getattr__(name: str) -> Any:
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module 'escarmouche_widgets' has no attribute {name!r}")
    return getattr(importlib.import_module(f"escarmouche_widgets.{module}"), name)
