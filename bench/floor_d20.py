"""The floor of a d20 duel: the example roster ``d20-duel`` played by a plain Python loop,
no engine.

Thorin (PV 20, attaque 5, defense 16, init 2) against Gob (PV 24, attaque 4, defense 13,
init 1), side by side on the default columns (adjacent from the start), the default
weapon (« 1d6 »), no action point, under the default policy « agressif »: each turn,
one attack on the enemy. The dice and the arithmetic are the rules' own (D20-INIT-1:
1d20 + init, higher first, ties by the higher init, which differ here, so no roll-off;
the attack: 1d20 + attaque ≥ defense hits, then 1d6 of damage), drawn in the engine's
order from the same stream (``simulation.stream(seed, i, DICE)``). ``bench_simulation``
checks that it gives the engine's result for the same seeds before timing it.
"""

from __future__ import annotations

from typing import Any

#: (PV, attaque, defense, init) of Thorin and Gob
THORIN = (20, 5, 16, 2)
GOB = (24, 4, 13, 1)
SIDES = ("héros", "gobelins")


def fight(rng: Any, max_turns: int = 50) -> tuple[str | None, int, tuple[int, int]]:
    """One duel: (the winning side or ``None`` at the turn limit, its rounds, each PV)."""
    randint = rng.randint
    bonus = (THORIN[1], GOB[1])
    defence = (GOB[2], THORIN[2])  # the other one's
    pv = [THORIN[0], GOB[0]]
    first = 0 if THORIN[3] + randint(1, 20) >= GOB[3] + randint(1, 20) else 1
    order = (first, 1 - first)
    for turn in range(1, max_turns + 1):
        for a in order:
            if randint(1, 20) + bonus[a] >= defence[a]:
                d = 1 - a
                pv[d] = max(0, pv[d] - randint(1, 6))
                if pv[d] == 0:
                    return SIDES[a], turn, (pv[0], pv[1])
    return None, max_turns, (pv[0], pv[1])
