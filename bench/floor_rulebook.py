"""The floor of a Rulebook duel: the example roster ``rulebook-bretteur`` played by a
plain Python loop, no engine.

Aldric (HAB 60, PV 12, hit 1d6) against Grolk (HAB 50, PV 10, hit 1d8), no speed trait,
no surprise, the default options, under the default policy « agressif »: each
activation one automatic hit of the fighter's declared die (the simulation variant,
RB-END-2). The dice and the arithmetic are the rules' own (RB-INIT-1, RB-D100-1: one
d100 each, a critical success at 5 or less, a critical failure at 96 or more;
RB-INIT-2: critical successes first, then the higher margin, ties by the higher HAB,
which differ here, so no roll-off; RB-INIT-3: a critical success plays alone in a turn
0, which the fight's length counts; RB-INIT-4: a critical failure waits for turn 2),
drawn in the engine's order from the same stream (``simulation.stream(seed, i,
DICE)``). ``bench_simulation`` checks that it gives the engine's and the kernel's
result for the same seeds before timing it.
"""

from __future__ import annotations

from typing import Any

#: (HAB, PV, faces of the hit) of Aldric and Grolk
ALDRIC = (60, 12, 6)
GROLK = (50, 10, 8)
SIDES = ("héros", "orques")


def fight(rng: Any, max_turns: int = 50) -> tuple[str | None, int, tuple[int, int]]:
    """One duel: (the winning side or ``None`` at the turn limit, its global turns, a
    turn 0 counted, each PV)."""
    randint = rng.randint
    hab = (ALDRIC[0], GROLK[0])
    faces = (ALDRIC[2], GROLK[2])
    rolls = (randint(1, 100), randint(1, 100))
    crit = (rolls[0] <= 5, rolls[1] <= 5)
    late = (rolls[0] >= 96, rolls[1] >= 96)
    order = sorted((0, 1), key=lambda i: (not crit[i], rolls[i] - hab[i], -hab[i]))
    pv = [ALDRIC[1], GROLK[1]]
    first = 0 if crit[0] or crit[1] else 1
    for turn in range(first, max_turns + 1):
        for a in order:
            if (turn == 0 and not crit[a]) or (turn == 1 and late[a]):
                continue
            d = 1 - a
            pv[d] = max(0, pv[d] - randint(1, faces[a]))
            if pv[d] == 0:
                return SIDES[a], turn - first + 1, (pv[0], pv[1])
    return None, max_turns - first + 1, (pv[0], pv[1])
