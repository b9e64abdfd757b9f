"""Shared helpers of the d20 tests (tests/rules/d20/), system d20 (seed 003).

The roster and the board every d20 test module plays on (:data:`INIT_ROLLS`,
:data:`POSITIONS`, :func:`roster`, :func:`started`, :func:`to_gob`) and the small
readers and checks of a fight (:func:`kinds`, :func:`last`, :func:`pos`,
:func:`assert_rejected`). A plain module, imported by the tests; it holds no test.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from escarmouche import Combatant, Effect, EscarmoucheError
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter
from escarmouche.model import Event
from escarmouche.systems import d20

# -- a roster and a board -----------------------------------------------------------------
#
# Initiative rolls, in roster order (Thorin, Pip, Gob, Grik): 15, 10, 14, 2
#   Thorin 15 + 2 = 17, Pip 10 + 4 = 14, Gob 14 + 1 = 15, Grik 2 + 0 = 2
#   → order Thorin, Gob, Pip, Grik.
# Board: Gob (1, 1) and Grik (1, -1) are adjacent to Thorin (0, 0); Pip is far away.

INIT_ROLLS = [15, 10, 14, 2]
POSITIONS: dict[str, list[int]] = {
    "Thorin": [0, 0], "Pip": [-3, 3], "Gob": [1, 1], "Grik": [1, -1],
}


def roster(**extra: dict[str, int]) -> list[Combatant]:
    stats = {
        "Thorin": {"PV": 20, "init": 2, "attaque": 5, "defense": 16},
        "Pip": {"PV": 12, "init": 4, "attaque": 4, "defense": 14},
        "Gob": {"PV": 5, "init": 1, "attaque": 3, "defense": 12},
        "Grik": {"PV": 6, "init": 0, "attaque": 3, "defense": 12},
    }
    for name, more in extra.items():
        stats[name] = {**stats[name], **more}
    return [
        Combatant("Thorin", "héros", stats["Thorin"], traits={"nain"}),
        Combatant("Pip", "héros", stats["Pip"], traits={"halfelin"}),
        Combatant("Gob", "gobelins", stats["Gob"]),
        Combatant("Grik", "gobelins", stats["Grik"]),
    ]


def started(rules: d20.Rules | None = None, effects: Sequence[Effect] = (),
            **extra: dict[str, int]) -> Encounter:
    enc = Encounter("d20", roster(**extra), rules=rules)
    for e in effects:
        enc.add_effect(e)
    enc.start(ScriptedRolls(INIT_ROLLS), positions=POSITIONS)
    return enc


def to_gob(enc: Encounter) -> Encounter:
    """End Thorin's turn: Gob's turn starts (no effect, no save: no die)."""
    assert enc.current == "Thorin"
    enc.end_activation(ScriptedRolls([]))
    assert enc.current == "Gob"
    return enc


def kinds(events: Sequence[Event]) -> list[str]:
    return [e.kind for e in events]


def last(enc: Encounter, kind: str) -> Event:
    return [e for e in enc.log if e.kind == kind][-1]


def pos(enc: Encounter, name: str) -> list[int]:
    p = enc.fighter(name).flags["pos"]
    assert isinstance(p, list)
    return p


def assert_rejected(enc: Encounter, rule: str, actor: str, action: str,
                    **params: Any) -> None:
    """The action raises a French error citing ``rule``; state and rng are unchanged."""
    before = enc.to_json()
    rng = ScriptedRolls([20] * 10)
    with pytest.raises(EscarmoucheError) as err:
        enc.act(actor, action, rng, **params)
    assert rule in str(err.value)
    assert enc.to_json() == before
    assert rng.used == 0
