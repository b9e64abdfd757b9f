"""The registry of rule systems (like python-chess's variants).

``get("d100")`` returns the module of that system; each module has the same shape: a
frozen ``Rules`` dataclass of options, the reference functions of API.md, and a
``SYSTEM`` object that plugs the rules into the encounter engine.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from escarmouche.systems.base import System

from escarmouche.errors import EscarmoucheError

__all__ = ["NAMES", "TITLES", "get", "register", "system"]

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
        known = [*NAMES, *_EXTRA]
        raise EscarmoucheError(
            f"système = {name!r} : système inconnu ; systèmes disponibles : "
            f"{', '.join(known)} (CORE-ERR)",
            field="système", value=name, rule="CORE-ERR",
        )
    return importlib.import_module(f"escarmouche.systems.{name}")


#: systems added at run time (a designer's fifth system, a test's toy system)
_EXTRA: dict[str, System] = {}


def register(system_obj: System) -> None:
    """Make a :class:`~escarmouche.systems.base.System` instance known by its ``name``."""
    if system_obj.name in NAMES:
        raise EscarmoucheError(
            f"système = {system_obj.name!r} : ce nom est celui d’un système intégré (CORE-ERR)",
            field="système", value=system_obj.name, rule="CORE-ERR",
        )
    _EXTRA[system_obj.name] = system_obj


def system(name: str) -> System:
    """The ``SYSTEM`` object (hooks for the encounter engine) of system ``name``."""
    if name in _EXTRA:
        return _EXTRA[name]
    obj: System = get(name).SYSTEM
    return obj
