"""Shared helpers of the d12 tests (tests/rules/d12/), system d12 (seed 002).

A brute-force enumerator of every sequence of dice a rolling function can draw (the
exact odds of the tests are checked against it), the rosters (:func:`fighter`,
:func:`party`) and the ambushed fight (:func:`ambushed`, :data:`AFTER_BONUS`) that
several test modules play. A plain module, imported by the tests; it holds no test.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import TypeVar

from escarmouche import Combatant
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter

T = TypeVar("T", bound=Hashable)


# -- brute force: run a rolling function on every possible sequence of dice --------------


class _NeedDie(Exception):
    def __init__(self, faces: int) -> None:
        self.faces = faces


class _Replay:
    """An rng replaying a prefix of dice, then asking for the next one (to branch)."""

    def __init__(self, prefix: tuple[int, ...]) -> None:
        self.prefix = prefix
        self.pos = 0

    def randint(self, a: int, b: int) -> int:
        if self.pos < len(self.prefix):
            self.pos += 1
            return self.prefix[self.pos - 1]
        raise _NeedDie(b)


def enumerate_outcomes(fn: Callable[[_Replay], T]) -> dict[T, Fraction]:
    """The exact law of ``fn(rng)`` by running it on every sequence of dice it can draw
    (each sequence weighs 1/faces per die)."""
    out: dict[T, Fraction] = {}
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        prefix, p = stack.pop()
        try:
            result = fn(_Replay(prefix))
        except _NeedDie as need:
            stack.extend(((*prefix, v), p / need.faces) for v in range(1, need.faces + 1))
            continue
        out[result] = out.get(result, Fraction(0)) + p
    return out


# -- rosters --------------------------------------------------------------------------


def fighter(name: str, side: str, *, init: int = 0, pv: int = 10, defense: int = 12,
            attaque: int = 0, alerte: bool = False) -> Combatant:
    stats = {"PV": pv, "defense": defense, "attaque": attaque}
    if init:
        stats["init"] = init
    return Combatant(name, side, stats, traits={"alerte"} if alerte else frozenset())


def party() -> list[Combatant]:
    return [
        fighter("Aldric", "héros", init=2, pv=12, defense=13, attaque=3, alerte=True),
        fighter("Brune", "héros", pv=9, defense=11, attaque=2),
        fighter("Grolk", "monstres", init=1, pv=15, defense=12, attaque=4),
    ]


#: the group-initiative dice of :func:`ambushed`, rolled when its bonus turn ends
#: (D12-SURPRISE-1): Aldric 4 + 2 = 6, Brune 10, Grolk 11 + 1 = 12
AFTER_BONUS = (4, 10, 11)


def ambushed(extra: Sequence[int] = ()) -> Encounter:
    """The fight of test_ambush_bonus_turn_then_groups_d12_surprise_1, with the
    environment: the bonus turn (Grolk, Aldric) first; ending it with the dice
    :data:`AFTER_BONUS` makes monstres (12) tie the environment and act first; order
    Grolk, env, Brune, Aldric."""
    enc = Encounter("d12", party())
    enc.start(ScriptedRolls([5, 8, *extra]), embuscade_par="monstres",
              environnement=True, armes={"Grolk": "1d8+2"})
    return enc
