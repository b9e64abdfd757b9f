"""One runner for the golden fight files of every system (``tests/golden/<système>.json``).

Like python-chess's perft files: fixed dice in, the whole log out, compared line by line.
A file is::

    {
      "format": 1,
      "system": "d100",
      "about": "who wrote the expectations and how (hand-derived, or reviewed output)",
      "fights": [
        {
          "name": "a French title",
          "rules": {"option": value},          # optional: Rules options (rules_to_json form)
          "roster": [Combatant.to_json(), …],
          "start": {"option": value},          # optional: Encounter.start options
          "effects": [Effect.to_json(), …],    # optional: added before start
          "dice": [3, 5, …],                   # ScriptedRolls for the whole fight, in order
          "steps": [                           # played in order after start
            ["act", "Aldric", "attaquer", {"cible": "Grolk"}],
            ["refuse", "Aldric", "attaquer", {"cible": "Grolk"}, "a substring of the error"],
            ["end"],                           # end_activation
            ["run", 10]                        # Encounter.run(max_turns=10)
          ],
          "expect": {
            "log": ["event text [RULE-IDS]", …],  # Encounter.journal() lines, all of them
            "lines": ["…", …],                    # or: lines that appear, in this order
                                                  # (for hand-derived expectations)
            "outcome": "…",                       # optional
            "tracks": {"Grolk": {"PV": 3}},       # optional
            "dice_left": 0                        # optional: scripted dice not used
          }
        }
      ]
    }

``refuse`` steps check CORE-ERR on the way: the error is an EscarmoucheError containing
the substring, and neither the state nor the dice moved.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from escarmouche import Combatant, Effect, EscarmoucheError
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter
from escarmouche.systems.base import System
from tests.helpers import ROOT

GOLDEN = ROOT / "tests" / "golden"


def load(system: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((GOLDEN / f"{system}.json").read_text("utf-8"))
    assert data["format"] == 1 and data["system"] == system
    return data


def build(system: System[Any], fight: Mapping[str, Any]) -> Encounter:
    """The encounter of one golden fight, before start."""
    rules = system.rules_from_json(fight.get("rules", {}))
    roster = [Combatant.from_json(c) for c in fight["roster"]]
    enc = Encounter(system, roster, rules=rules)
    for e in fight.get("effects", []):
        enc.add_effect(Effect.from_json(e))
    return enc


def play(system: System[Any], fight: Mapping[str, Any]) -> tuple[Encounter, ScriptedRolls]:
    """Play a golden fight; ``refuse`` steps are checked as they come."""
    enc = build(system, fight)
    rng = ScriptedRolls(list(fight["dice"]))
    enc.start(rng, **fight.get("start", {}))
    for step in fight.get("steps", []):
        kind, *args = step
        if kind == "act":
            actor, action, params = args
            enc.act(actor, action, rng, **params)
        elif kind == "refuse":
            actor, action, params, message = args
            before, left = enc.to_json(), rng.remaining
            try:
                enc.act(actor, action, rng, **params)
            except EscarmoucheError as err:
                assert message in str(err), (message, str(err))
            else:
                raise AssertionError(f"{actor} {action} {params} was not refused")
            assert enc.to_json() == before and rng.remaining == left
        elif kind == "end":
            enc.end_activation(rng)
        elif kind == "run":
            enc.run(rng, max_turns=args[0])
        else:
            raise AssertionError(f"unknown step {kind!r}")
    return enc, rng


def observed(enc: Encounter, rng: ScriptedRolls) -> dict[str, Any]:
    """What a golden fight records of a played encounter (the ``expect`` form)."""
    return {
        "log": enc.journal().text.splitlines(),
        "outcome": enc.outcome,
        "tracks": {name: dict(f.tracks) for name, f in enc.state.fighters.items()},
        "dice_left": rng.remaining,
    }


def check(system: System[Any], fight: Mapping[str, Any]) -> None:
    enc, rng = play(system, fight)
    got = observed(enc, rng)
    expect: Mapping[str, Any] = fight["expect"]
    for key, want in expect.items():
        if key == "lines":
            log = iter(got["log"])
            for line in want:
                assert any(line == seen for seen in log), (
                    f"{fight['name']}: line missing or out of order:\n  {line}")
            continue
        assert got[key] == want, _diff(fight["name"], key, want, got[key])


def _diff(name: str, key: str, want: object, got: object) -> str:
    if isinstance(want, Sequence) and isinstance(got, Sequence) and not isinstance(want, str):
        for i, (a, b) in enumerate(zip(want, got, strict=False)):
            if a != b:
                return f"{name}: {key}[{i}]\n  attendu : {a}\n  obtenu  : {b}"
        return f"{name}: {key}: {len(want)} lignes attendues, {len(got)} obtenues"
    return f"{name}: {key}\n  attendu : {want}\n  obtenu  : {got}"
