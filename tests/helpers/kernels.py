"""What every rules kernel's equivalence test (``tests/rules/<system>/test_kernel.py``)
does the same way: a fight played by the full engine and by a kernel on the same dice,
each written as the engine's state (the log aside) with the dice left after; a roster
prepared on its system's kernel; a range of seeds compared, under the turn limit too; and
``Roster.play``, which plays on the kernel and narrates its log, against the engine's own
fight, save and dice (:func:`check_played`)."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from escarmouche import simulation as sim
from escarmouche.encounter import Encounter
from escarmouche.roster import Roster

__all__ = ["as_roster", "check_equal", "check_played", "covered", "engine_fight",
           "engine_play", "kernel_fight"]


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


def as_roster(roster: Any, start: Mapping[str, Any] | None = None, *, rules: Any = None,
              end_conditions: Any = None) -> Roster | None:
    """``roster`` (a roster, or an unstarted fight seen as one: ``sim.as_roster``) as a
    :class:`~escarmouche.roster.Roster`, what ``Roster.play`` plays: its start options
    with ``start`` over them, its rules or ``rules``, its end conditions or
    ``end_conditions``, the default policies for a fight; ``None`` for a fight with
    effects (no roster file holds them)."""
    options = {**dict(getattr(roster, "start_options", None) or {}), **dict(start or {})}
    if isinstance(roster, Roster):
        return Roster(roster.title, roster.system, roster.rules if rules is None else rules,
                      roster.combatants, options,
                      roster.end_conditions if end_conditions is None
                      else tuple(end_conditions), roster.policies)
    template = roster.template
    if template.state.effects:
        return None
    return Roster("t", template.system.name, template.rules if rules is None else rules,
                  tuple(f.combatant for f in template.state.fighters.values()), options,
                  tuple(template.state.end_conditions if end_conditions is None
                        else end_conditions), {})


def engine_play(roster: Roster, seed: int, max_turns: int, policy: Any
                ) -> tuple[Encounter, random.Random]:
    """The full engine's own fight of ``roster`` (``Encounter.start`` then
    ``Encounter.run``, what ``Roster.play`` did before the kernels) on
    ``random.Random(seed)``, and that rng after."""
    rng = random.Random(seed)
    enc = roster.encounter()
    enc.start(rng, **dict(roster.start_options))
    enc.run(rng, max_turns=max_turns, policy=roster.policies if policy is None else policy)
    return enc, rng


def check_played(roster: Roster, policy: Any, seeds: Iterable[int], *,
                 narrated: bool = True, max_turns: int | None = None) -> Counter[str]:
    """CORE-LOG / CORE-RNG: for each seed (under ``max_turns``, by default a limit of 3
    turns every tenth seed, else 50),
    ``Roster.play`` is the engine's fight (:func:`engine_play`): the whole save, every
    event's sentence, rules, dice and data, and the dice left. With ``narrated``, the
    system's kernel compiled for it narrates it (``System.narrated_run``: the same
    fight again, never ``None``); without, it has no kernel or does not narrate it.
    The kinds of the events of those fights."""
    chosen = roster.policies if policy is None else policy
    kinds: Counter[str] = Counter()
    for seed in seeds:
        limit = max_turns if max_turns is not None else 3 if seed % 10 == 0 else 50
        enc, rng = engine_play(roster, seed, limit, policy)
        expected = enc.to_json()
        dice = random.Random(seed)
        played = roster.play(dice, max_turns=limit, policy=policy)
        assert played.to_json() == expected and dice.getstate() == rng.getstate(), seed
        sheet = roster._kernel(chosen, limit)
        told = None if sheet is None else roster._template.system.narrated_run(
            sheet, random.Random(seed), limit)
        assert (told is not None) == narrated, (seed, policy)
        assert told is None or told.to_json() == expected, (seed, policy)
        kinds.update(e.kind for e in enc.log)
    return kinds
