"""Golden fights of every system through one runner (tests/helpers/golden_runner.py).

Each file is ``tests/golden/<système>.json``; the toy system has one too, as the model.
"""

from __future__ import annotations

from typing import Any

import pytest

from escarmouche import systems
from escarmouche.systems.base import System
from tests.helpers import golden_runner
from tests.toy_system import SYSTEM as TOY

SYSTEMS: dict[str, System[Any]] = {name: systems.get(name) for name in systems.NAMES}
SYSTEMS[TOY.name] = TOY

CASES = [
    pytest.param(name, i, id=f"{name}-{i}")
    for name in SYSTEMS
    if (golden_runner.GOLDEN / f"{name}.json").exists()
    for i in range(len(golden_runner.load(name)["fights"]))
]


@pytest.mark.parametrize(("name", "index"), CASES)
def test_golden_fight(name: str, index: int) -> None:
    """CORE-LOG, CORE-RNG: fixed dice give exactly the recorded log, outcome and tracks."""
    fight = golden_runner.load(name)["fights"][index]
    golden_runner.check(SYSTEMS[name], fight)


def test_every_system_has_a_golden_file() -> None:
    missing = [n for n in SYSTEMS if not (golden_runner.GOLDEN / f"{n}.json").exists()]
    assert not missing, f"no golden fight file for {missing}"


OPTION_CASES = [
    pytest.param(name, i, option.name, id=f"{name}-{i}-{option.name}")
    for name in systems.NAMES
    if (golden_runner.GOLDEN / f"{name}.json").exists()
    for i, fight in enumerate(golden_runner.load(name)["fights"])
    for option in systems.get(name).options()
    if option.name not in fight.get("rules", {})
]


@pytest.mark.parametrize(("name", "index", "option"), OPTION_CASES)
def test_golden_fights_state_the_rules_they_assume(name: str, index: int, option: str,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """CORE-LOG: a golden fight holds under another default of every option it does not
    state in its ``rules``: a new edition that changes a default leaves the golden
    fights green, or the fight names the option it depends on (tests follow editions)."""
    from tests.helpers.editions import other_value

    system = systems.get(name)
    spec = system.option(option)
    other = other_value(spec, getattr(system.default_rules(), option))
    if other is None:
        pytest.skip(f"{name}.{option}: pas de valeur scalaire de remplacement")
    original = system.rules_from_json
    monkeypatch.setattr(system, "rules_from_json",
                        lambda data: original({option: spec.to_json(other), **data}))
    golden_runner.check(system, golden_runner.load(name)["fights"][index])
