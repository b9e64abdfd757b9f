"""Injected randomness (CORE-RNG): the ``Rng`` protocol, scripted and recording rngs.

Every die in the engine is drawn with ``rng.randint(1, faces)``. A ``random.Random``
(seeded at the edge: a test, a book cell, a widget) or a :class:`ScriptedRolls` can be
passed anywhere an ``Rng`` is expected.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any, Protocol, runtime_checkable

from escarmouche.errors import HIDDEN, ParameterError, invalid
from escarmouche.model import DieRecord
from escarmouche.text.fmt import number, plural

__all__ = ["CheckedDice", "RandintOnly", "RecordingRng", "Rng", "ScriptedRolls",
           "checked_dice", "draw_lots", "rng_state", "set_rng_state"]

#: the most results a ScriptedRolls holds, and the largest magnitude of one (a value off
#: the die's faces is refused when drawn, with the die named)
MAX_SCRIPTED = 100_000
MAX_SCRIPTED_VALUE = 1_000_000


@runtime_checkable
class Rng(Protocol):
    """What the engine needs of a random source: ``randint(a, b)`` inclusive."""

    def randint(self, a: int, b: int) -> int: ...


class RandintOnly:
    """An :class:`Rng` made of a bare ``randint`` function: what a rules kernel, which
    draws through the function alone, hands to the engine's pure rule functions (the
    initiative, the lots, a weapon's or a jump's dice), which take an ``rng``.

    >>> RandintOnly(lambda a, b: b).randint(1, 6)
    6
    """

    __slots__ = ("randint",)

    def __init__(self, randint: Callable[[int, int], int]) -> None:
        self.randint = randint


class CheckedDice:
    """An rng whose every ``randint(a, b)`` is checked to be an int from ``a`` to ``b``
    (CORE-RNG), refused in French otherwise: what a rules kernel draws from when the
    caller's rng is one of its own (:func:`checked_dice`). The engine checks each die
    where a rule reads it; a kernel, which trusts its dice, is given checked ones.

    >>> CheckedDice(RandintOnly(lambda a, b: b + 1)).randint(1, 6)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
      ...
    escarmouche.errors.ParameterError: Valeur 7 refusée pour « dé » : un entier de 1 à 6 ...
    """

    __slots__ = ("_randint",)

    def __init__(self, rng: Rng) -> None:
        self._randint = rng.randint

    def randint(self, a: int, b: int) -> int:
        value = self._randint(a, b)
        if type(value) is not int or not a <= value <= b:
            raise invalid("dé", value, "CORE-RNG", f"un entier de {number(a)} à {number(b)} "
                          f"est attendu de randint({a}, {b})")
        return value


def checked_dice(rng: Rng) -> Rng:
    """``rng`` itself when its ``randint`` is ``random.Random``'s or
    :class:`ScriptedRolls`' (which give an int from ``a`` to ``b``, or refuse), else a
    :class:`CheckedDice` over it."""
    method = getattr(type(rng), "randint", None)
    if method is random.Random.randint or method is ScriptedRolls.randint:
        return rng
    return CheckedDice(rng)


class ScriptedRolls:
    """A stand-in for ``random.Random`` returning scripted values (spec/API.md « Dice »).

    >>> rng = ScriptedRolls([37, 4])
    >>> rng.randint(1, 100), rng.randint(1, 10)
    (37, 4)

    A value outside ``[a, b]``, or a draw when none is left, raises
    :class:`EscarmoucheError` (the die's faces and the position are named).
    """

    def __init__(self, values: Iterable[int]) -> None:
        if isinstance(values, str | bytes) or not isinstance(values, Iterable):
            raise invalid("dés manuels", values, "CORE-RNG",
                          "une liste de résultats entiers est attendue")
        checked: list[int] = []
        for i, v in enumerate(values):
            if i >= MAX_SCRIPTED:
                raise invalid("dés manuels", HIDDEN, "CORE-RNG",
                              f"au plus {number(MAX_SCRIPTED)} résultats sont acceptés")
            bound = MAX_SCRIPTED_VALUE
            if isinstance(v, bool) or not isinstance(v, int) or not -bound <= v <= bound:
                raise invalid("dés manuels", v, "CORE-RNG",
                              f"le résultat n° {i + 1} doit être un nombre entier")
            checked.append(v)
        self._values = checked
        self._pos = 0

    def randint(self, a: int, b: int) -> int:
        if self._pos >= len(self._values):
            given = "fourni" if len(self._values) < 2 else "fournis"
            raise ParameterError(
                f"Dés manuels épuisés : plus aucun résultat prévu pour le jet n° "
                f"{self._pos + 1} (un d{b} est demandé, {plural(len(self._values), 'résultat')} "
                f"{given}) (CORE-RNG).", field="dés manuels", value=len(self._values),
                rule="CORE-RNG")
        value = self._values[self._pos]
        if not a <= value <= b:
            raise invalid("dés manuels", value, "CORE-RNG",
                          f"le résultat n° {self._pos + 1} est hors de {a}–{b} pour ce d{b}")
        self._pos += 1
        return value

    @property
    def remaining(self) -> int:
        """How many scripted values are still unused."""
        return len(self._values) - self._pos

    @property
    def used(self) -> int:
        """How many scripted values were consumed."""
        return self._pos

    def getstate(self) -> int:
        return self._pos

    def setstate(self, state: int) -> None:
        self._pos = state

    def __repr__(self) -> str:
        return f"ScriptedRolls({self._values!r}, utilisés={self._pos})"


class RecordingRng:
    """Wraps an rng and records each die drawn (faces, value) for the event log."""

    def __init__(self, inner: Rng) -> None:
        self.inner = inner
        self.draws: list[DieRecord] = []

    def randint(self, a: int, b: int) -> int:
        value = self.inner.randint(a, b)
        self.draws.append(DieRecord(b, value))
        return value

    def take(self, purpose: str = "") -> tuple[DieRecord, ...]:
        """Return the dice drawn since the last ``take`` (labelled), and forget them."""
        out = tuple(DieRecord(d.faces, d.value, purpose or d.purpose) for d in self.draws)
        self.draws.clear()
        return out


def rng_state(rng: Rng) -> Any:
    """A snapshot of the rng's state (``None`` when it cannot be snapshotted)."""
    if isinstance(rng, RecordingRng):
        return ("rec", rng_state(rng.inner), len(rng.draws))
    if isinstance(rng, random.Random | ScriptedRolls):
        return rng.getstate()
    getstate = getattr(rng, "getstate", None)
    return getstate() if callable(getstate) else None


def set_rng_state(rng: Rng, state: Any) -> None:
    """Restore a snapshot taken by :func:`rng_state` (a rejected action draws nothing)."""
    if state is None:
        return
    if isinstance(rng, RecordingRng):
        _, inner, n = state
        set_rng_state(rng.inner, inner)
        del rng.draws[n:]
        return
    setstate = getattr(rng, "setstate", None)
    if callable(setstate):
        setstate(state)


def draw_lots(names: Iterable[str], rng: Rng) -> tuple[list[str], tuple[int, ...]]:
    """Order ``names`` by lot, with dice from ``rng``: a die with as many faces as names
    left picks the next one (counted in the given order), until one is left. It always
    ends, in ``len(names) - 1`` dice: what the engine does when a capped tie-break
    reaches its cap (D12-INIT-6, D20-INIT-2), instead of stopping the fight. Returns the
    order and the dice drawn.

    >>> draw_lots(["A", "B", "C"], ScriptedRolls([3, 1]))
    (['C', 'A', 'B'], (3, 1))
    """
    left = list(names)
    order: list[str] = []
    dice: list[int] = []
    while len(left) > 1:
        die = rng.randint(1, len(left))
        dice.append(die)
        order.append(left.pop(die - 1))
    return order + left, tuple(dice)
