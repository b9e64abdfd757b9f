"""The rules kernels' sheets of live engine fights, kept for the engine's doors (each
system's ``kernel_doors.view``: ``System.moves`` and the other doors read a live
``Encounter`` as its kernel's sheet and state, spec/KERNEL.md).

A sheet is compiled once per *shape* of a fight and kept in a :class:`LiveSheets`: its
rules and combatants, compared by identity (the entry holds them, so no ``id`` is
reused while it is kept), and what else the sheet reads of the fight (``also``: the
weapons in hand, the start options it depends on), compared by value and kept as a
deep copy. At most ``maxsize`` shapes are kept; when full, every one is forgotten (as
:class:`escarmouche.memo.Memo`). A view's sheet plays nothing: it keeps no fight alive
(``probe`` is ``None``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from escarmouche.state import Ctx

__all__ = ["LiveSheets"]

S = TypeVar("S")


class LiveSheets(Generic[S]):
    """A system's kept sheets of live fights, built by ``build`` (a kernel's ``Sheet``
    from a ``Ctx`` of the fight, with no policies)."""

    def __init__(self, build: Callable[[Ctx[Any]], S], maxsize: int = 64) -> None:
        self._build = build
        self._maxsize = maxsize
        self._known: dict[tuple[int, ...], tuple[S, Any, tuple[Any, ...]]] = {}

    def sheet(self, ctx: Ctx[Any], also: Any = None) -> S:
        """The sheet of ``ctx``'s fight, compiled the first time its shape is seen."""
        fighters = ctx.state.fighters.values()
        owners = (ctx.rules, *[f.combatant for f in fighters])
        key = tuple(id(o) for o in owners)
        known = self._known.get(key)
        if known is not None and known[1] == also:
            return known[0]
        if len(self._known) >= self._maxsize:
            self._known.clear()
        sheet = self._build(Ctx(ctx.state, ctx.system, ctx.rules, None))
        sheet.probe = None  # type: ignore[attr-defined]  # (no fight kept alive)
        self._known[key] = (sheet, copy.deepcopy(also), owners)
        return sheet
