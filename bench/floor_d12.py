"""The floor of a d12 duel: the example roster ``d12-duel`` played by a plain Python loop,
no engine.

Aldric (PV 12, attaque 3, defense 12, init 2, « héros ») against Grolk (PV 14, attaque 2,
defense 13, init 1, « orques »), the default weapon (« 1d6 »), under the default policy
« agressif »: each turn, one attack on the enemy, declaring the critical option the
engine finds best, (b) « dé supplémentaire explosif » here. The dice and the arithmetic
are the rules' own: D12-INIT-1/2/3 (1d12 + init each, in roster order; one member a
group, so the higher acts first and equal results are a perfect tie: both reroll),
D12-CRIT-1 (1d12 + attaque ≥ defense hits, then 1d6), D12-CRIT-2 (b) and D12-EXPLODE-1
(a natural 12 hits; 2d6 where each 6 rolls again and adds, at most 1 + 20 draws a die),
drawn in the engine's order from the same stream (``simulation.stream(seed, i, DICE)``).
Past 20 rerolls of a perfect tie the engine draws a lot (D12-INIT-6), which the floor
does not: the odds are 12⁻²⁰. ``bench_simulation`` checks that it gives the kernel's and
the engine's result for the same seeds before timing it.
"""

from __future__ import annotations

from typing import Any

#: (PV, attaque, defense, init) of Aldric and Grolk
ALDRIC = (12, 3, 12, 2)
GROLK = (14, 2, 13, 1)
SIDES = ("héros", "orques")
#: an exploding die is drawn at most 1 + 20 times (``escarmouche.dice.MAX_EXPLODE_DEPTH``)
DEPTH = 20


def fight(rng: Any, max_turns: int = 50) -> tuple[str | None, int, tuple[int, int]]:
    """One duel: (the winning side or ``None`` at the turn limit, its turns, each PV)."""
    randint = rng.randint
    bonus = (ALDRIC[1], GROLK[1])
    defence = (GROLK[2], ALDRIC[2])  # the other one's
    pv = [ALDRIC[0], GROLK[0]]
    while True:
        a = randint(1, 12) + ALDRIC[3]
        g = randint(1, 12) + GROLK[3]
        if a != g:
            break
    order = (0, 1) if a > g else (1, 0)
    for turn in range(1, max_turns + 1):
        for x in order:
            roll = randint(1, 12)
            if roll == 12:  # critical, option (b): one more die, every die exploding
                damage = 0
                for _ in range(2):
                    for _ in range(DEPTH + 1):
                        face = randint(1, 6)
                        damage += face
                        if face < 6:
                            break
            elif roll + bonus[x] >= defence[x]:
                damage = randint(1, 6)
            else:
                continue
            d = 1 - x
            pv[d] = max(0, pv[d] - damage)
            if pv[d] == 0:
                return SIDES[x], turn, (pv[0], pv[1])
    return None, max_turns, (pv[0], pv[1])
