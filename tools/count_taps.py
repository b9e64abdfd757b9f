"""Count the GM's taps for two rounds of a 4-fighter d100 fight in the tracker
(book_src/demos/suivi-combat.md).

The GM of the trial (``tests/test_widgets_tracker_slips.py`` holds its result): each
fighter, on its turn, makes a standard attack on the first standing enemy, the defender
opposing its best defence (a prepared parry, else a dodge, else none: the engine's own
choice, ``best_defence``), then « Au suivant ». The
tracker is driven through its Python API, and each control the GM has to change costs
what it costs on a phone: a list 2 taps (open, choose), a one-tap button 1, « Agir » and
« Au suivant » 1 each. Run against any version of the tracker (same control names):

    .venv/bin/python tools/count_taps.py            # this tree
    PYTHONPATH=/tmp/old/src:/tmp/old/widgets .venv/bin/python tools/count_taps.py

It prints the taps per round and per attack, as JSON.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))

#: the trial's fight: the d100 example group and a fourth fighter
FOURTH = ("Vex", "monstres", "CC=35, CT=30, F=30, E=35, Ag=40, M=4, B=10")


def count(rounds: int = 2, seed: int = 3) -> dict[str, Any]:
    from escarmouche_widgets.session import RosterRow, example_rows
    from escarmouche_widgets.tracker import CombatTracker

    from escarmouche.state import Ctx
    from escarmouche.systems.d100.actions import best_defence

    rows = [*example_rows("d100"), RosterRow(*FOURTH)]
    tracker = CombatTracker("d100", rows, seed=seed)
    tracker.start_button.click()
    assert tracker.error_text == "", tracker.error_text
    per_round: dict[int, int] = {}
    attacks: dict[int, int] = {}
    enc = tracker.encounter
    assert enc is not None
    while not enc.finished and enc.turn <= rounds:
        enc = tracker.encounter
        assert enc is not None
        turn, actor = enc.turn, str(enc.current)
        taps = 0
        fighters = enc.state.fighters
        foes = [n for n, f in fighters.items() if f.side != fighters[actor].side
                and not f.out and not f.fled]
        if foes and "attaquer" in [s.id for s in enc.actions(actor)]:
            if tracker.action.value != "attaquer":
                taps += 2
                tracker.action.value = "attaquer"
            if tracker.target.value != foes[0]:
                taps += 2
                tracker.target.value = foes[0]
            ctx = Ctx(enc.state.draft(), enc.system, enc.rules, None)
            wanted = best_defence(ctx, foes[0], ranged=False)
            defence = tracker.choices["defense"]
            if defence.value != wanted:
                taps += 1
                defence.value = wanted
            tracker.act_button.click()
            taps += 1
            assert tracker.error_text == "", tracker.error_text
            attacks[turn] = attacks.get(turn, 0) + 1
            if tracker.encounter is None or tracker.encounter.finished:
                per_round[turn] = per_round.get(turn, 0) + taps
                break
        tracker.next_button.click()
        taps += 1
        assert tracker.error_text == "", tracker.error_text
        per_round[turn] = per_round.get(turn, 0) + taps
        enc = tracker.encounter
        assert enc is not None
    total = sum(per_round.values())
    made = sum(attacks.values())
    return {"taps_par_round": per_round, "attaques": made, "taps": total,
            "taps_par_attaque": round(total / made, 2) if made else None}


if __name__ == "__main__":
    print(json.dumps(count(), ensure_ascii=False))
