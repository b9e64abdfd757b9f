"""Jumps: the controlled drop (D100-JUMP-1) and the long jump (D100-JUMP-2)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from escarmouche import checks
from escarmouche.errors import IllegalActionError, invalid
from escarmouche.model import Combatant, DieRecord, Json
from escarmouche.render.table import Text
from escarmouche.rng import Rng
from escarmouche.systems.d100.rules import DEFAULT_RULES, Rules, bonus, stat
from escarmouche.text.fmt import join, number, plural

__all__ = [
    "MAX_HEIGHT",
    "DropJump",
    "LongJump",
    "drop_jump",
    "long_jump",
    "resolve_drop_jump",
    "resolve_long_jump",
    "roll_drop_jump",
    "roll_long_jump",
]

#: the longest drop or run-up, in metres
MAX_HEIGHT = 10_000


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
    name: str = "Le personnage"

    @property
    def success(self) -> bool:
        return self.failed_test is None

    @property
    def dice(self) -> tuple[DieRecord, ...]:
        return tuple(DieRecord(100, r, f"test d’Ag n° {i}") for i, r in enumerate(self.rolls, 1))

    def describe(self, name: str | None = None) -> str:
        name = name or self.name
        rolls = join((str(r) for r in self.rolls), empty="aucun jet")
        head = (f"{name} saute de {number(self.height)} m : "
                f"{plural(self.tests, 'test')} d’Ag à {number(self.ag)} ({rolls})")
        if self.success:
            return f"{head} ; saut parfaitement réussi."
        return (f"{head} ; échec au test n° {self.failed_test} : {name} chute de "
                f"{number(self.fall_height)} m, le MJ calcule les dégâts.")

    def _repr_html_(self) -> str:
        return Text(self.describe())._repr_html_()

    def to_json(self) -> dict[str, Json]:
        return {"height": self.height, "ag": self.ag, "tests": self.tests,
                "rolls": list(self.rolls), "failed_test": self.failed_test,
                "fall_height": self.fall_height, "success": self.success}


def resolve_drop_jump(height: float, ag: int, rolls: Sequence[int], *,
                      rules: Rules = DEFAULT_RULES, name: str = "Le personnage") -> DropJump:
    """D100-JUMP-1 *(ruling)*: a drop of ``height`` metres needs ceil(height / 3) Ag tests
    (d100 ≤ Ag), taken in turn; at the first failure the character falls from the height
    still to go (``height − 3·(k − 1)`` at the k-th test). Rolls after a failure, or
    beyond the tests needed, are ignored; too few raise."""
    height = checks.real("hauteur", height, lo=0, hi=MAX_HEIGHT, rule="D100-JUMP-1")
    ag = checks.integer("Ag", ag, lo=0, hi=100, rule="D100-JUMP-1")
    checks.sequence("dés", rolls, "D100-JUMP-1")
    step = rules.drop_step
    tests = math.ceil(Fraction(height) / step)
    used: list[int] = []
    for k in range(1, tests + 1):
        if k > len(rolls):
            raise invalid(f"test d’Ag n° {k}", None, "D100-JUMP-1",
                          f"une descente de {number(height)} m demande "
                          f"{plural(tests, 'test')} d’Ag")
        roll = checks.die(f"test d’Ag n° {k}", rolls[k - 1], 100, "D100-JUMP-1")
        used.append(roll)
        if roll > ag:
            return DropJump(height, ag, tests, tuple(used), k, height - step * (k - 1),
                            name=name)
    return DropJump(height, ag, tests, tuple(used), None, 0, name=name)


def roll_drop_jump(combatant: Combatant, height: float, rng: Rng, *,
                   rules: Rules = DEFAULT_RULES) -> DropJump:
    """Roll a controlled drop. Draw order: one d100 per Ag test, in order, until the first
    failure."""
    height = checks.real("hauteur", height, lo=0, hi=MAX_HEIGHT, rule="D100-JUMP-1")
    ag = stat(combatant, "Ag")
    tests = math.ceil(Fraction(height) / rules.drop_step)
    rolls: list[int] = []
    for _ in range(tests):
        rolls.append(rng.randint(1, 100))
        if rolls[-1] > ag:
            break
    return resolve_drop_jump(height, ag, rolls, rules=rules, name=combatant.name)


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
    name: str = "Le personnage"

    @property
    def maximum(self) -> int:
        return self.m + self.bf

    @property
    def success(self) -> bool:
        return self.roll <= self.f

    @property
    def dice(self) -> tuple[DieRecord, ...]:
        return (DieRecord(100, self.roll, "test de F"),)

    def describe(self, name: str | None = None) -> str:
        name = name or self.name
        # the sum in the house style: labels, then values, then the total (B48, B175)
        head = (f"{name} saute en longueur (élan {number(self.run_up)} m ; au plus M + BF = "
                f"{number(self.m)} + {number(self.bf)} = {number(self.maximum)} m)")
        if self.success:
            return (f"{head} : test de F réussi ({self.roll} ≤ {self.f}), "
                    f"{number(self.distance)} m.")
        return (f"{head} : test de F raté ({self.roll} > {self.f}), "
                f"{plural(self.degrees, 'degré')} d’échec, {number(self.distance)} m.")

    def _repr_html_(self) -> str:
        return Text(self.describe())._repr_html_()

    def to_json(self) -> dict[str, Json]:
        return {"run_up": self.run_up, "m": self.m, "bf": self.bf, "maximum": self.maximum,
                "f": self.f, "roll": self.roll, "success": self.success,
                "degrees": self.degrees, "distance": self.distance}


def resolve_long_jump(
    m: int, f: int, run_up: float, roll: int, *, rules: Rules = DEFAULT_RULES,
    name: str = "Le personnage",
) -> LongJump:
    """D100-JUMP-2: needs a run-up of at least 4 m (else :class:`IllegalActionError`);
    maximum M + BF (BF = F // 10); a F test (d100 ≤ F) keeps it, a failure loses 1 m per
    degree of failure, ceil((roll − F) / 10) *(ruling)*, never below 0 m."""
    run_up = checks.real("elan", run_up, lo=0, hi=MAX_HEIGHT, rule="D100-JUMP-2")
    m = checks.integer("M", m, lo=0, hi=100, rule="D100-JUMP-2")
    f = checks.integer("F", f, lo=0, hi=100, rule="D100-JUMP-2")
    if run_up < rules.long_jump_run_up:
        raise invalid("elan", run_up, "D100-JUMP-2",
                      f"un saut en longueur demande une course d’au moins "
                      f"{number(rules.long_jump_run_up)} m", kind=IllegalActionError)
    roll = checks.die("test de F", roll, 100, "D100-JUMP-2")
    maximum = m + bonus(f)
    degrees = 0 if roll <= f else -((f - roll) // rules.failure_degree)
    return LongJump(run_up, m, bonus(f), f, roll, degrees, max(0, maximum - degrees),
                    name=name)


def roll_long_jump(combatant: Combatant, run_up: float, rng: Rng, *,
                   rules: Rules = DEFAULT_RULES) -> LongJump:
    """Roll a long jump. Draw order: the run-up is checked first (no die on a refusal),
    then one d100 for the F test."""
    m, f = stat(combatant, "M"), stat(combatant, "F")
    resolve_long_jump(m, f, run_up, 1, rules=rules)  # checks the run-up before any die
    return resolve_long_jump(m, f, run_up, rng.randint(1, 100), rules=rules,
                             name=combatant.name)


#: the names used before the naming rule (``resolve_<thing>``)
drop_jump = resolve_drop_jump
long_jump = resolve_long_jump
