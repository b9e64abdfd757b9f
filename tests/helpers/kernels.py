"""What every rules kernel's equivalence test (``tests/rules/<system>/test_kernel.py``)
does the same way: a fight played by the full engine and by a kernel on the same dice,
each written as the engine's state (the log aside) with the dice left after; a roster
prepared on its system's kernel; a range of seeds compared, under the turn limit too."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from escarmouche import simulation as sim
from escarmouche.encounter import Encounter
from escarmouche.roster import Roster

__all__ = ["as_roster", "check_equal", "covered", "engine_fight", "kernel_fight",
           "narrated_against_engine"]


def engine_fight(prepared: sim.Prepared, seed: int, max_turns: int) -> tuple[str, Any]:
    """The full engine's fight (``Encounter.run``, atomic, narrated) and its dice after."""
    enc = prepared.template.copy()
    dice = sim.stream(seed, 0, sim.DICE)
    if prepared.start_options:
        enc.start(dice, **prepared.start_options)
    enc.run(dice, max_turns=max_turns, policy=prepared.policies,
            tactics_rng=sim.stream(seed, 0, sim.TACTICS))
    state = enc.state.to_json()
    del state["log"]
    return json.dumps(state, sort_keys=True, ensure_ascii=False), dice.getstate()


def kernel_fight(prepared: sim.Prepared, seed: int, max_turns: int, *, kernel: Any,
                 kernel_doors: Any, tactics: bool = False) -> tuple[tuple[str, Any], Any]:
    """``kernel``'s fight (``kernel.run``) on the streams of :func:`engine_fight` (the
    tactics stream too with ``tactics``, for a kernel whose policies may draw), written
    back as the engine's state (``kernel_doors.write_back``, the log aside), its dice
    after; and the kernel's state."""
    sheet = prepared.kernel
    dice = sim.stream(seed, 0, sim.DICE)
    if tactics:
        st = kernel.run(sheet, dice.randint, max_turns, sim.stream(seed, 0, sim.TACTICS))
    else:
        st = kernel.run(sheet, dice.randint, max_turns)
    state = kernel_doors.write_back(sheet, st).state.to_json()
    del state["log"]
    return (json.dumps(state, sort_keys=True, ensure_ascii=False), dice.getstate()), st


def covered(system: Any, roster: Any, start: dict[str, Any], policy: Any,
            max_turns: int = 30, rules: Any = None) -> sim.Prepared:
    """``roster`` prepared with ``system``'s kernel for ``start`` and ``policy`` (asserted
    to be covered), under ``rules`` when given."""
    prepared = sim.prepare(roster, policy=policy, max_turns=max_turns)
    template = prepared.template
    if rules is not None:
        template = Encounter(system, [f.combatant for f in template.state.fighters.values()],
                             rules=rules, end_conditions=template.state.end_conditions)
    options = {**prepared.start_options, **start}
    sheet = system.kernel(template, options, prepared.policies)
    assert sheet is not None
    return sim.Prepared(template, options, prepared.policies, max_turns, sheet)


def check_equal(prepared: sim.Prepared, seeds: Iterable[int], fight: Any,
                label: str = "") -> int:
    """Fights ``seeds`` by the kernel (``fight``: the system's :func:`kernel_fight`) and
    by the full engine: the same state, dice consumed and tallies; how many were
    compared (every tenth seed under a limit of 2 turns)."""
    engine = sim.Prepared(prepared.template, prepared.start_options, prepared.policies,
                          prepared.max_turns)
    n = 0
    for seed in seeds:
        max_turns = 2 if seed % 10 == 3 else prepared.max_turns  # the limit too
        kernel, _ = fight(prepared, seed, max_turns)
        assert kernel == engine_fight(prepared, seed, max_turns), (label, seed)
        assert prepared.play(seed, 5) == engine.play(seed, 5), (label, seed)
        n += 1
    return n


def as_roster(roster: Any, start: dict[str, Any] | None = None) -> Roster | None:
    """``roster`` (a roster, or an unstarted fight seen as one: ``sim.as_roster``) as a
    :class:`~escarmouche.roster.Roster` with the start options ``start`` (its own when
    ``None``), what ``Roster.play`` plays; ``None`` for a fight with effects (no roster
    file holds them)."""
    if isinstance(roster, Roster):
        return roster if start is None else Roster(
            roster.title, roster.system, roster.rules, roster.combatants, dict(start),
            roster.end_conditions, roster.policies)
    template = roster.template
    if template.state.effects:
        return None
    return Roster("t", template.system.name, template.rules,
                  tuple(f.combatant for f in template.state.fighters.values()),
                  dict(start if start is not None else roster.start_options),
                  tuple(template.state.end_conditions), {})


def narrated_against_engine(roster: Roster, seed: int, max_turns: int, policy: Any
                            ) -> tuple[bool, bool]:
    """``Roster.play`` of fight ``seed`` against the engine's own ``Encounter.start`` and
    ``Encounter.run`` on the same dice: whether the two saves (state and log, every
    event's sentence, rules, dice and data) and the dice left are equal, and whether the
    system's rules kernel played it (``System.narrated_run``)."""
    chosen = roster.policies if policy is None else policy
    sheet = roster._kernel(chosen, max_turns)
    narrated = sheet is not None and roster._template.system.narrated_run(
        sheet, sim.stream(seed, 1, sim.DICE), max_turns) is not None
    dice = sim.stream(seed, 0, sim.DICE)
    played = roster.play(dice, max_turns=max_turns, policy=policy)
    engine_dice = sim.stream(seed, 0, sim.DICE)
    enc = roster.encounter()
    enc.start(engine_dice, **dict(roster.start_options))
    enc.run(engine_dice, max_turns=max_turns, policy=chosen)
    same = played.to_json() == enc.to_json() and dice.getstate() == engine_dice.getstate()
    return same, narrated
