"""Dice benchmark: escarmouche.dice against icepool (exact odds) and d20 (rolls).

Every ratio compares two timings taken in this same run, on this same machine:
``ratio = ours / peer`` (below 1: we are faster). Each timing is the best of several
repeats. Caches are defeated on both sides: our distribution cache is cleared before
each repeat, and icepool's per-die sum cache (``icepool.d20`` keeps the sums it has
computed) is avoided by building a fresh die for each repeat.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

import d20
import icepool

from escarmouche import dice

ROLLS = 100_000


def best(fn: Callable[[], object], repeat: int) -> float:
    """The best wall-clock time of ``repeat`` calls of ``fn``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def ours_distribution(expr: str) -> Callable[[], Mapping[int, Fraction]]:
    def run() -> Mapping[int, Fraction]:
        dice.clear_caches()
        return dice.distribution(expr)

    return run


def peer_exploding() -> object:
    return 10 @ icepool.Die(range(1, 11)).explode(depth=dice.MAX_EXPLODE_DEPTH)


def peer_sum() -> object:
    return 20 @ icepool.Die(range(1, 21))


def ours_rolls(expr: str) -> Callable[[], object]:
    def run() -> object:
        rng = random.Random(1)
        for _ in range(ROLLS):
            dice.roll(expr, rng)
        return None

    return run


def peer_rolls(expr: str) -> Callable[[], object]:
    def run() -> object:
        for _ in range(ROLLS):
            d20.roll(expr)
        return None

    return run


def same_law(ours: Mapping[int, Fraction], peer: Any) -> bool:
    """Sanity check outside the timings: both sides computed the same law."""
    denominator = peer.denominator()
    theirs = {o: Fraction(q, denominator) for o, q in peer.items() if q}
    return dict(ours) == theirs


def main() -> None:
    assert same_law(ours_distribution("10d10!")(), peer_exploding())
    assert same_law(ours_distribution("20d20")(), peer_sum())
    rows = [
        ("distribution 10d10!", best(ours_distribution("10d10!"), 3),
         best(peer_exploding, 3), "icepool 10 @ d10.explode(depth=20) (dé neuf)"),
        ("distribution 20d20", best(ours_distribution("20d20"), 5),
         best(peer_sum, 5), "icepool 20 @ d20 (dé neuf)"),
        (f"roll 1d100 × {ROLLS}", best(ours_rolls("1d100"), 3),
         best(peer_rolls("1d100"), 3), "d20.roll('1d100')"),
        (f"roll 4d6kh3 × {ROLLS}", best(ours_rolls("4d6kh3"), 3),
         best(peer_rolls("4d6kh3"), 3), "d20.roll('4d6kh3')"),
    ]  # fmt: skip
    print(f"{'cas':<26} {'nous (s)':>9} {'pair (s)':>9} {'ratio':>6}  pair")
    for name, ours, peer, label in rows:
        print(f"{name:<26} {ours:>9.4f} {peer:>9.4f} {ours / peer:>6.2f}  {label}")
    print("ratio = nous / pair (< 1 : plus rapide que le pair)")


if __name__ == "__main__":
    main()
