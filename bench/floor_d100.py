"""The floor of a d100 duel: the README's duel played by a plain Python loop, no engine.

Aldric (CC 45, F 35, E 30, Ag 40, B 12) against Grolk (CC 40, F 40, E 40, Ag 25, B 11),
both with the default weapon (« arme à une main », damage 3), no armour, no dodge skill,
under the default policy « agressif »: each activation, one « attaque standard » on the
enemy, who has no defence to take. The dice and the arithmetic are the rules' own
(D100-INIT-1: Ag + 1d10, higher first, ties by Ag, which differ here; D100-ATK-1: 1d100
≤ CC hits; D100-ATK-3: 1d10 + 3 − BE (E // 10), never below 0), drawn in the engine's
order from the same stream (``simulation.stream(seed, i, DICE)``). ``bench_simulation``
checks that it gives the engine's result for the same seeds before timing it.
"""

from __future__ import annotations

from typing import Any

#: (CC, damage of the weapon, BE, Ag, B) of Aldric and Grolk
ALDRIC = (45, 3, 3, 40, 12)
GROLK = (40, 3, 4, 25, 11)
SIDES = ("héros", "orques")


def fight(rng: Any, max_turns: int = 50) -> tuple[str | None, int, tuple[int, int]]:
    """One duel: (the winning side or ``None`` at the turn limit, its rounds, each B)."""
    randint = rng.randint
    cc = (ALDRIC[0], GROLK[0])
    hit = (ALDRIC[1] - GROLK[2], GROLK[1] - ALDRIC[2])  # weapon − the defender's BE
    b = [ALDRIC[4], GROLK[4]]
    first = 0 if ALDRIC[3] + randint(1, 10) >= GROLK[3] + randint(1, 10) else 1
    order = (first, 1 - first)
    for turn in range(1, max_turns + 1):
        for a in order:
            if randint(1, 100) <= cc[a]:
                lost = randint(1, 10) + hit[a]
                if lost > 0:
                    d = 1 - a
                    b[d] = max(0, b[d] - lost)
                    if b[d] == 0:
                        return SIDES[a], turn, (b[0], b[1])
    return None, max_turns, (b[0], b[1])
