"""Simulation benchmark: fights per second of the full engine and of the simulation mode.

For each system, in this same run and on this same machine (best of several repeats):

- ``complet``: ``Encounter(...)`` then ``start`` and ``run`` per fight (the full engine:
  atomic copies, rng snapshots, the log with its dice);
- ``simulation``: what :func:`escarmouche.simulation.simulate` does per fight
  (``template.simulated()``, ``start``, ``run``, the fight's result);
- ``simulate``: :func:`escarmouche.simulation.simulate` itself, per fight (it uses the
  dedicated d100 resolver where it applies, :mod:`escarmouche.systems.d100.duel`);
- ``dés seuls``: a loop of ``rng.randint(1, faces)`` drawing the very dice those fights
  drew (same count, same faces), from streams seeded the same way.

Ratios: ``simulation / complet`` and ``simulate / complet`` (the target is ≥ 20 on the
d100 duel), ``simulate / dés seuls`` (how far from the cost of the dice themselves). Before
timing, the simulation mode is checked against the full engine on ``EQUIV`` seeds per
system (same state, same rng state after): a mismatch fails the benchmark.
"""

from __future__ import annotations

import dataclasses
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from escarmouche import Combatant  # noqa: E402
from escarmouche import simulation as sim  # noqa: E402
from escarmouche.encounter import Encounter  # noqa: E402
from escarmouche.systems import get  # noqa: E402
from tests import golden_runner  # noqa: E402

FIGHTS = 200
EQUIV = 300
if "--quick" in sys.argv:
    FIGHTS, EQUIV = 40, 20
MAX_TURNS = 50


class Counting:
    """An rng that records the faces of every die drawn (to replay them alone)."""

    def __init__(self, inner: random.Random) -> None:
        self.inner = inner
        self.faces: list[int] = []

    def randint(self, a: int, b: int) -> int:
        self.faces.append(b)
        return self.inner.randint(a, b)

    def getstate(self) -> object:
        return self.inner.getstate()

    def setstate(self, state: Any) -> None:
        self.inner.setstate(state)


def readme_duel() -> tuple[Callable[[], Encounter], dict[str, Any]]:
    def build() -> Encounter:
        return Encounter("d100", [
            Combatant("Aldric", "héros", {"CC": 45, "CT": 30, "F": 35, "E": 30, "Ag": 40,
                                           "M": 4, "B": 12}),
            Combatant("Grolk", "orques", {"CC": 40, "CT": 20, "F": 40, "E": 40, "Ag": 25,
                                          "M": 4, "B": 11}),
        ])
    return build, {}


def golden(system: str) -> tuple[Callable[[], Encounter], dict[str, Any]]:
    fight = golden_runner.load(system)["fights"][0]
    return (lambda: golden_runner.build(get(system), fight)), dict(fight.get("start", {}))


CASES: list[tuple[str, Callable[[], tuple[Callable[[], Encounter], dict[str, Any]]]]] = [
    ("d100 (duel du README)", readme_duel),
    ("d100 (1er combat golden)", lambda: golden("d100")),
    ("rulebook (1er combat golden)", lambda: golden("rulebook")),
    ("d12 (1er combat golden)", lambda: golden("d12")),
    ("d20 (1er combat golden)", lambda: golden("d20")),
]


def best(fn: Callable[[], object], repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def full_run(build: Callable[[], Encounter], start: dict[str, Any]) -> None:
    for i in range(FIGHTS):
        enc = build()
        rng = sim.stream(0, i, sim.DICE)
        enc.start(rng, **start)
        enc.run(rng, max_turns=MAX_TURNS)


def fast_run(build: Callable[[], Encounter], start: dict[str, Any]) -> None:
    template = build()
    for i in range(FIGHTS):
        enc = template.simulated()
        rng = sim.stream(0, i, sim.DICE)
        enc.start(rng, **start)
        enc.run(rng, max_turns=MAX_TURNS)
        sim.result_of(enc, i)


def simulate_run(build: Callable[[], Encounter], start: dict[str, Any]) -> None:
    roster = dataclasses.replace(sim.as_roster(build()), start_options=start)
    sim.simulate(roster, FIGHTS, seed=0, max_turns=MAX_TURNS)


def dice_of(build: Callable[[], Encounter], start: dict[str, Any]) -> list[list[int]]:
    out = []
    template = build()
    for i in range(FIGHTS):
        enc = template.simulated()
        rng = Counting(sim.stream(0, i, sim.DICE))
        enc.start(rng, **start)
        enc.run(rng, max_turns=MAX_TURNS)
        out.append(rng.faces)
    return out


def dice_alone(faces: list[list[int]]) -> Callable[[], None]:
    def run() -> None:
        for i, fight in enumerate(faces):
            rng = sim.stream(0, i, sim.DICE)
            for b in fight:
                rng.randint(1, b)
    return run


def equivalent(build: Callable[[], Encounter], start: dict[str, Any], seeds: int) -> int:
    """How many of ``seeds`` fights differ between the two modes (0 expected)."""
    bad = 0
    for seed in range(seeds):
        states = []
        for fast in (False, True):
            enc = build()
            if fast:
                enc = enc.simulated()
            rng = random.Random(seed)
            enc.start(rng, **start)
            enc.run(rng, max_turns=MAX_TURNS)
            state = enc.state.to_json()
            del state["log"]
            states.append((json.dumps(state, sort_keys=True), rng.getstate()))
        bad += states[0] != states[1]
    return bad


def main() -> int:
    print(f"{FIGHTS} combats par mesure, meilleur de 3 ; équivalence vérifiée sur {EQUIV} "
          "graines par cas")
    print(f"{'cas':<30} {'complet/s':>10} {'mode simul./s':>14} {'simulate/s':>11} "
          f"{'mode/complet':>13} {'simulate/complet':>17} {'dés/combat':>11} "
          f"{'simulate/dés seuls':>19} {'écarts':>7}")
    failed = False
    for label, make in CASES:
        build, start = make()
        mismatches = equivalent(build, start, EQUIV)
        failed |= mismatches > 0
        faces = dice_of(build, start)
        t_full = best(lambda: full_run(build, start))  # noqa: B023
        t_fast = best(lambda: fast_run(build, start))  # noqa: B023
        t_sim = best(lambda: simulate_run(build, start))  # noqa: B023
        t_dice = best(dice_alone(faces))
        per_fight = sum(len(f) for f in faces) / FIGHTS
        print(f"{label:<30} {FIGHTS / t_full:>10.0f} {FIGHTS / t_fast:>14.0f} "
              f"{FIGHTS / t_sim:>11.0f} {t_full / t_fast:>13.1f} {t_full / t_sim:>17.1f} "
              f"{per_fight:>11.1f} {t_sim / t_dice:>19.0f} {mismatches:>7}")
    print("mode/complet, simulate/complet : combien de fois plus de combats par seconde ; "
          "simulate/dés seuls : temps d’un combat simulé / temps de tirer ses seuls dés")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
