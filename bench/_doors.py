"""Worker of ``bench_doors.py``: the full engine and a GM's « Agir », with whichever
``escarmouche`` is importable (this tree, or main's source extracted from git).

``python bench/_doors.py FULL AGIR`` prints one JSON object: for each example roster,
µs of CPU per fight of ``Roster.play`` (the full engine: narration, dice records, atomic
operations; fights 0..FULL-1 of seed 0) and µs per « Agir » (one ``Encounter.act`` by
the fighter whose turn it is, as the tracker plays it, on AGIR started fights, each act
timed alone: in d100 an « attaque standard » on the first enemy, in the other systems
the action automated play would take, ``System.auto_action``);
and µs per fight of the plain-Python floor (``floor_d100.fight``), measured in the same
process, so that each ratio to the floor is of one run.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import floor_d100
from escarmouche import simulation as sim
from escarmouche.roster import example_rosters, load_roster
from escarmouche.state import Ctx
from escarmouche.systems.d100.rules import WEAPONS

RANGED = {k for k, w in WEAPONS.items() if w.ranged}


def _agir(enc: Any, actor: str) -> tuple[str, dict[str, object]]:
    """The « Agir » timed: a d100 « attaque standard » on the first enemy (a shot names
    its distance); elsewhere what automated play would do."""
    if enc.system.name == "d100":
        side = enc.state.fighters[actor].side
        target = next(f.name for f in enc.state.fighters.values() if f.side != side)
        params: dict[str, object] = {"cible": target}
        if enc.state.fighters[actor].flags["hands"]["directrice"] in RANGED:
            params["distance"] = 10
        return "attaquer", params
    choice = enc.system.auto_action(Ctx(enc.state, enc.system, enc.rules, None), actor)
    assert choice is not None
    return choice[0], dict(choice[1])


def main(argv: list[str]) -> None:
    n_full, n_act = int(argv[1]), int(argv[2])
    out: dict[str, float] = {}
    start = time.process_time()
    for i in range(20 * n_full):
        floor_d100.fight(sim.stream(0, i, sim.DICE))
    out["plancher"] = 1e6 * (time.process_time() - start) / (20 * n_full)
    for name, path in sorted(example_rosters().items()):
        roster = load_roster(path)
        start = time.process_time()
        for i in range(n_full):
            roster.play(sim.stream(0, i, sim.DICE), tactics_rng=sim.stream(0, i, sim.TACTICS))
        out[f"{name} complet"] = 1e6 * (time.process_time() - start) / n_full
        spent = 0.0
        for i in range(n_act):
            rng = sim.stream(1, i, sim.DICE)
            enc = roster.encounter()
            enc.start(rng, **dict(roster.start_options))
            actor = enc.state.current
            while actor is not None and actor not in enc.state.fighters:
                enc.end_activation(rng)  # (the d12 environment's slot)
                actor = enc.state.current
            assert actor is not None
            action, params = _agir(enc, actor)
            t0 = time.process_time()
            enc.act(actor, action, rng, **params)
            spent += time.process_time() - t0
        out[f"{name} agir"] = 1e6 * spent / n_act
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv)
