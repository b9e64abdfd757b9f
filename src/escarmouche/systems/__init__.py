"""The registry of rule systems (like python-chess's variants), explicit and in one place.

``get("d100")`` returns the :class:`~escarmouche.systems.base.System` of that system
(its hooks, its ``rules_type``, its action catalogue). The four built-in systems are
packages with the same files and are imported on first use; a fifth system (a
designer's, a test's toy system) is added with :func:`register` and removed with
:func:`unregister`. Nothing registers itself as a side effect: ``Encounter`` accepts a
``System`` object directly, and only a save that names an unregistered system needs it
registered to load.

>>> get("d20").title
'Système d20 (séquence de tour)'
>>> try:
...     get("d6")
... except ValueError as err:
...     print(err)  # doctest: +NORMALIZE_WHITESPACE
Système « d6 » refusé : système inconnu, à choisir parmi « rulebook », « d100 », « d12 » ou «
d20 » (CORE-ERR).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from escarmouche.errors import invalid
from escarmouche.text.fmt import join, quote

if TYPE_CHECKING:
    from escarmouche.systems.base import System

__all__ = [
    "DEFAULT",
    "NAMES",
    "TITLES",
    "available",
    "by_rule_prefix",
    "display_name",
    "get",
    "register",
    "system",
    "unregister",
]

#: the four built-in systems, in book order: a fifth built-in system is one more name
#: here (its package under ``systems/`` says everything else)
NAMES: tuple[str, ...] = ("rulebook", "d100", "d12", "d20")

class _Titles(Mapping[str, str]):
    """The French title of every available system, asked of the system itself
    (``System.title``): a live view of the registry, not a second list."""

    def __getitem__(self, name: str) -> str:
        if name not in available():
            raise KeyError(name)
        return get(name).title

    def __iter__(self) -> Iterator[str]:
        return iter(available())

    def __len__(self) -> int:
        return len(available())


#: their French book titles, read from each system (``System.title``)
TITLES: Mapping[str, str] = _Titles()


def by_rule_prefix(rule: str) -> str | None:
    """The name of the system whose rule IDs start like ``rule`` (``"D100-ATK-1"`` →
    ``"d100"``), asked of each system (``System.rule_prefix``); ``None`` for the engine's
    own ``CORE-*`` IDs or an unknown prefix."""
    head = rule.split("-", 1)[0] if isinstance(rule, str) else ""
    for name in available():
        if get(name).rule_prefix == head:
            return name
    return None


#: the system a demo opens on when it is given none: the first of the book
DEFAULT: str = NAMES[0]

#: systems added with :func:`register` (a designer's fifth system, a test's toy system)
_EXTRA: dict[str, System[Any]] = {}


def display_name(name: str | System[Any]) -> str:
    """The system as the book names it, from its title (« Système Rulebook (D100,
    HAB) » → « Rulebook »), never its registry name; a name no registry knows, or a
    system without a title, is given back as it is.

    >>> display_name("rulebook"), display_name("inconnu")
    ('Rulebook', 'inconnu')
    """
    if isinstance(name, str) and name not in available():
        return name
    target = get(name)
    return target.title.removeprefix("Système ").split(" (")[0].strip() or target.name


def available() -> tuple[str, ...]:
    """Every name :func:`get` accepts now: the four built-in systems, then the added ones."""
    return (*NAMES, *_EXTRA)


def get(name: str | System[Any]) -> System[Any]:
    """The :class:`~escarmouche.systems.base.System` named ``name`` (a ``System`` given
    itself is returned as it is, so every function keyed by a system accepts either); an
    unknown name raises a French :class:`~escarmouche.errors.ParameterError` listing
    :func:`available`."""
    from escarmouche.systems.base import System

    if isinstance(name, System):
        return name
    if isinstance(name, str) and name in _EXTRA:
        return _EXTRA[name]
    if not isinstance(name, str) or name not in NAMES:
        raise invalid("système", name, "CORE-ERR",
                      "système inconnu, à choisir parmi "
                      f"{join([quote(n) for n in available()], last='ou')}")
    obj: System[Any] = importlib.import_module(f"escarmouche.systems.{name}").SYSTEM
    return obj


#: the name used before the registry returned systems (kept for compatibility)
system = get


def register(system_obj: System[Any]) -> None:
    """Make a :class:`~escarmouche.systems.base.System` known by its ``name`` (again: the
    newer object replaces the older one)."""
    from escarmouche.systems.base import System

    if not isinstance(system_obj, System) or not system_obj.name:
        raise invalid("système", system_obj, "CORE-ERR",
                      "un objet System avec un nom est attendu")
    if system_obj.name in NAMES:
        raise invalid("système", system_obj.name, "CORE-ERR",
                      "ce nom est celui d’un système intégré")
    _EXTRA[system_obj.name] = system_obj


def unregister(name: str) -> None:
    """Forget a system added with :func:`register` (nothing happens for an unknown name)."""
    _EXTRA.pop(name, None)
