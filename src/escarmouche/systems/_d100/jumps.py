"""Jumps: the controlled drop (D100-JUMP-1) and the long jump (D100-JUMP-2)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from escarmouche._rng import Rng
from escarmouche.errors import EscarmoucheError, IllegalActionError
from escarmouche.model import Combatant, DieRecord, Json
from escarmouche.systems._d100.core import DEFAULT_RULES, Rules, _bounded, _die, bonus, stat
from escarmouche.systems._d100.narration import fr_int

__all__ = [
    "DropJump",
    "LongJump",
    "drop_jump",
    "long_jump",
    "roll_drop_jump",
    "roll_long_jump",
]

MAX_HEIGHT = 10_000


def _metres(value: object, what: str, rule: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) \
            or not 0 <= value <= MAX_HEIGHT:
        raise EscarmoucheError(
            f"{what} = {value!r} : une longueur en mètres entre 0 et {MAX_HEIGHT} est "
            f"attendue ({rule})",
            field=what, value=value, rule=rule,
        )
    return value


@dataclass(frozen=True, slots=True)
class DropJump:
    """A controlled drop (D100-JUMP-1): ``tests`` Ag tests (one per started step of
    ``Rules.drop_step`` metres); ``rolls`` the d100s used, up to the first failure;
    ``failed_test`` (1-based) and ``fall_height`` (the height still to go when it failed,
    from which the character falls; the GM computes the damage), or a perfect jump."""

    height: float
    ag: int
    tests: int
    rolls: tuple[int, ...]
    failed_test: int | None
    fall_height: float
    rules: tuple[str, ...] = ("D100-JUMP-1",)

    @property
    def success(self) -> bool:
        return self.failed_test is None

    @property
    def dice(self) -> tuple[DieRecord, ...]:
        return tuple(DieRecord(100, r, f"test d’Ag n° {i}") for i, r in enumerate(self.rolls, 1))

    def describe(self, name: str) -> str:
        rolls = ", ".join(str(r) for r in self.rolls) or "aucun jet"
        head = (f"{name} saute de {fr_int(self.height)} m : {self.tests} test(s) d’Ag à "
                f"{fr_int(self.ag)} ({rolls})")
        if self.success:
            return f"{head} ; saut parfaitement réussi."
        return (f"{head} ; échec au test n° {self.failed_test} : {name} chute de "
                f"{fr_int(self.fall_height)} m, le MJ calcule les dégâts.")

    def to_json(self) -> dict[str, Json]:
        return {"height": self.height, "ag": self.ag, "tests": self.tests,
                "rolls": list(self.rolls), "failed_test": self.failed_test,
                "fall_height": self.fall_height, "success": self.success}


def drop_jump(height: float, ag: int, rolls: Sequence[int], *, rules: Rules = DEFAULT_RULES
              ) -> DropJump:
    """D100-JUMP-1 *(ruling)*: a drop of ``height`` metres needs ceil(height / 3) Ag tests
    (d100 ≤ Ag), taken in turn; at the first failure the character falls from the height
    still to go (``height − 3·(k − 1)`` at the k-th test). Rolls after a failure, or
    beyond the tests needed, are ignored; too few raise."""
    height = _metres(height, "hauteur", "D100-JUMP-1")
    ag = _bounded("sauteur", "Ag", ag, 0, 100, "D100-JUMP-1")
    step = rules.drop_step
    tests = math.ceil(Fraction(height) / step)
    used: list[int] = []
    for k in range(1, tests + 1):
        if k > len(rolls):
            raise EscarmoucheError(
                f"test d’Ag n° {k} = manquant : une descente de {fr_int(height)} m demande "
                f"{tests} test(s) d’Ag (D100-JUMP-1)",
                field="dés", value=None, rule="D100-JUMP-1",
            )
        roll = _die(rolls[k - 1], 100, f"test d’Ag n° {k}", "D100-JUMP-1")
        used.append(roll)
        if roll > ag:
            return DropJump(height, ag, tests, tuple(used), k, height - step * (k - 1))
    return DropJump(height, ag, tests, tuple(used), None, 0)


def roll_drop_jump(combatant: Combatant, height: float, rng: Rng, *, rules: Rules = DEFAULT_RULES
                   ) -> DropJump:
    """Roll a controlled drop: one d100 per Ag test, in order, until the first failure."""
    height = _metres(height, "hauteur", "D100-JUMP-1")
    ag = stat(combatant, "Ag")
    tests = math.ceil(Fraction(height) / rules.drop_step)
    rolls: list[int] = []
    for _ in range(tests):
        rolls.append(rng.randint(1, 100))
        if rolls[-1] > ag:
            break
    return drop_jump(height, ag, rolls, rules=rules)


@dataclass(frozen=True, slots=True)
class LongJump:
    """A long jump (D100-JUMP-2): ``maximum`` = M + BF metres; the F test ``roll``; on a
    failure ``degrees`` = ceil((roll − F) / 10) metres are lost, never below 0."""

    run_up: float
    m: int
    bf: int
    f: int
    roll: int
    degrees: int
    distance: int
    rules: tuple[str, ...] = ("D100-JUMP-2",)

    @property
    def maximum(self) -> int:
        return self.m + self.bf

    @property
    def success(self) -> bool:
        return self.roll <= self.f

    @property
    def dice(self) -> tuple[DieRecord, ...]:
        return (DieRecord(100, self.roll, "test de F"),)

    def describe(self, name: str) -> str:
        head = (f"{name} saute en longueur (élan {fr_int(self.run_up)} m, au plus "
                f"{fr_int(self.maximum)} m = M {fr_int(self.m)} + BF {fr_int(self.bf)})")
        if self.success:
            return f"{head} : test de F réussi ({self.roll} ≤ {self.f}), {self.distance} m."
        return (f"{head} : test de F raté ({self.roll} > {self.f}), {self.degrees} degré(s) "
                f"d’échec, {fr_int(self.distance)} m.")

    def to_json(self) -> dict[str, Json]:
        return {"run_up": self.run_up, "m": self.m, "bf": self.bf, "maximum": self.maximum,
                "f": self.f, "roll": self.roll, "success": self.success,
                "degrees": self.degrees, "distance": self.distance}


def long_jump(
    m: int, f: int, run_up: float, roll: int, *, rules: Rules = DEFAULT_RULES
) -> LongJump:
    """D100-JUMP-2: needs a run-up of at least 4 m (else :class:`IllegalActionError`);
    maximum M + BF (BF = F // 10); a F test (d100 ≤ F) keeps it, a failure loses 1 m per
    degree of failure, ceil((roll − F) / 10) *(ruling)*, never below 0 m."""
    run_up = _metres(run_up, "élan", "D100-JUMP-2")
    m = _bounded("sauteur", "M", m, 0, 100, "D100-JUMP-2")
    f = _bounded("sauteur", "F", f, 0, 100, "D100-JUMP-2")
    if run_up < rules.long_jump_run_up:
        raise IllegalActionError(
            f"élan = {fr_int(run_up)} m : un saut en longueur demande une course d’au moins "
            f"{rules.long_jump_run_up} m (D100-JUMP-2)",
            field="élan", value=run_up, rule="D100-JUMP-2",
        )
    roll = _die(roll, 100, "test de F", "D100-JUMP-2")
    maximum = m + bonus(f)
    degrees = 0 if roll <= f else -((f - roll) // rules.failure_degree)
    return LongJump(run_up, m, bonus(f), f, roll, degrees, max(0, maximum - degrees))


def roll_long_jump(combatant: Combatant, run_up: float, rng: Rng, *, rules: Rules = DEFAULT_RULES
                   ) -> LongJump:
    """Roll a long jump: the run-up is checked first (no die on a refusal), then one d100
    for the F test."""
    m, f = stat(combatant, "M"), stat(combatant, "F")
    long_jump(m, f, run_up, 1, rules=rules)  # checks the run-up before any die is drawn
    return long_jump(m, f, run_up, rng.randint(1, 100), rules=rules)
