"""The kernels' sheets of live fights (escarmouche.systems.views.LiveSheets), kept for the
engine's doors (spec/KERNEL.md): one per shape of a fight, bounded."""

from __future__ import annotations

import random
from typing import Any

from escarmouche import Combatant
from escarmouche.encounter import Encounter
from escarmouche.state import Ctx
from escarmouche.systems.views import LiveSheets


class _Sheet:
    def __init__(self, ctx: Ctx[Any]) -> None:
        self.names = tuple(ctx.state.fighters)
        self.probe: object = ctx


def _ctx(enc: Encounter) -> Ctx[Any]:
    return Ctx(enc.state, enc.system, enc.rules, None)


def test_a_sheet_per_shape_compared_by_identity_and_value() -> None:
    """The same fight and the same ``also`` give
    the same sheet, built once, holding no fight (``probe`` None); other ``also`` or
    other combatants give another; past ``maxsize`` shapes all are forgotten."""
    built: list[_Sheet] = []

    def build(ctx: Ctx[Any]) -> _Sheet:
        built.append(_Sheet(ctx))
        return built[-1]

    sheets: LiveSheets[_Sheet] = LiveSheets(build, maxsize=2)
    fighters = [Combatant("A", "x", {"PV": 5}), Combatant("B", "y", {"PV": 5})]
    enc = Encounter("d20", fighters)
    enc.start(random.Random(1))
    also = {"armes": ["épée"]}
    first = sheets.sheet(_ctx(enc), also)
    assert first.probe is None and first.names == ("A", "B")
    also["armes"].append("dague")  # the kept copy is not the caller's
    assert sheets.sheet(_ctx(enc), {"armes": ["épée"]}) is first
    assert sheets.sheet(_ctx(enc), also) is not first
    # one entry per fight: the other ``also`` took the place of the first
    again = sheets.sheet(_ctx(enc), {"armes": ["épée"]})
    assert again is not first and len(built) == 3
    assert sheets.sheet(_ctx(enc), {"armes": ["épée"]}) is again
    fights = []
    for _ in range(2):  # two other fights: past maxsize = 2, every shape is forgotten
        other = Encounter("d20", [Combatant("A", "x", {"PV": 5}),
                                  Combatant("B", "y", {"PV": 5})])
        other.start(random.Random(1))
        fights.append(other)
        sheets.sheet(_ctx(other))
    assert len(built) == 5
    assert sheets.sheet(_ctx(enc), {"armes": ["épée"]}) is not again
