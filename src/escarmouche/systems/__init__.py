"""The registry of rule systems (like python-chess's variants).

``get("d100")`` returns the module of that system; each module has the same shape: a
frozen ``Rules`` dataclass of options, the reference functions of API.md, and a
``SYSTEM`` object that plugs the rules into the encounter engine.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from escarmouche.errors import EscarmoucheError

__all__ = ["NAMES", "TITLES", "get"]

#: the four systems, in book order
NAMES: tuple[str, ...] = ("rulebook", "d100", "d12", "d20")

#: their French book titles (RULES.md)
TITLES: dict[str, str] = {
    "rulebook": "Système Rulebook (D100, HAB)",
    "d100": "Système d100 (CC/CT, localisation)",
    "d12": "Système d12 (initiative de groupe)",
    "d20": "Système d20 (séquence de tour)",
}


def get(name: str) -> ModuleType:
    """The module of system ``name``; an unknown name raises a French error listing the four."""
    if name not in NAMES:
        raise EscarmoucheError(
            f"système = {name!r} : système inconnu ; systèmes disponibles : "
            f"{', '.join(NAMES)} (CORE-ERR)",
            field="système", value=name, rule="CORE-ERR",
        )
    return importlib.import_module(f"escarmouche.systems.{name}")
