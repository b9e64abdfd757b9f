"""Simulation mode and balance statistics (docs/grappe.md).

The simulation mode (``Encounter.simulated``) is held to the full engine: for the same
dice, the same fight (CORE-RNG, CORE-LOG): outcome, rounds, every track, every flag and
the rng state after. Balances are exact counts, the same whatever the chunking, and a
comparison plays both rule sets on the same streams (common random numbers).
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import Combatant, EscarmoucheError
from escarmouche import simulation as sim
from escarmouche.encounter import Encounter
from escarmouche.errors import ParameterError
from escarmouche.roster import example_rosters, load_roster
from escarmouche.systems import NAMES, get
from tests.helpers import golden_runner

#: seeds per golden fight in ``make test``; ``ESCARMOUCHE_EQUIV_SEEDS`` raises it
#: (``bench/bench_simulation.py`` runs thousands per system)
SEEDS = int(os.environ.get("ESCARMOUCHE_EQUIV_SEEDS", "40"))
#: the example roster files (``escarmouche simule d100-duel`` …)
ROSTERS = sorted(example_rosters())


def fights(system: str) -> list[dict[str, Any]]:
    return list(golden_runner.load(system)["fights"])


def play_both(system: str, fight: dict[str, Any], seed: int, max_turns: int = 30
              ) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The same golden roster played by the full engine and in simulation mode."""
    sys_ = get(system)
    out = []
    for fast in (False, True):
        enc = golden_runner.build(sys_, fight)
        if fast:
            enc = enc.simulated()
        rng = random.Random(seed)
        error = None
        try:
            enc.start(rng, **fight.get("start", {}))
            enc.run(rng, max_turns=max_turns)
        except EscarmoucheError as err:  # the same refusal in both modes counts as equal
            error = type(err).__name__
        state = enc.state.to_json()
        del state["log"]
        out.append((error, enc.fast, json.dumps(state, sort_keys=True, ensure_ascii=False),
                    rng.getstate()))
    return out[0][:1] + out[0][2:], out[1][:1] + out[1][2:]


@pytest.mark.parametrize("system", NAMES)
def test_fast_mode_equals_full_engine_core_rng(system: str) -> None:
    """CORE-RNG / CORE-LOG: same dice in, same fight out (outcome, turn, tracks, flags,
    effects, system state), and the same dice consumed (rng state after)."""
    checked = 0
    for k, fight in enumerate(fights(system)):
        for seed in range(SEEDS):
            full, fast = play_both(system, fight, 1_000 * k + seed)
            assert fast == full, (system, fight["name"], seed)
            checked += 1
    assert checked >= SEEDS


def test_fast_mode_really_is_fast_mode() -> None:
    """The simulated copy is in simulation mode (no dice recorded), the template is not
    touched, and the full engine still records dice (CORE-LOG)."""
    fight = fights("d100")[0]
    template = golden_runner.build(get("d100"), fight)
    fast = template.simulated()
    fast.start(random.Random(1), **fight.get("start", {}))
    assert fast.fast and not template.fast and not template.started
    assert all(e.dice == () for e in fast.log)
    assert "fast" not in fast.state.to_json()  # never saved (CORE-LOG)
    full = golden_runner.build(get("d100"), fight)
    full.start(random.Random(1), **fight.get("start", {}))
    assert any(e.dice for e in full.log)


@pytest.mark.parametrize("name", ROSTERS)
def test_moves_read_the_fight_and_change_nothing_core_log(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Automated play reads each activation's moves from the fight itself (no copy): a
    system's ``moves`` (and the reactions it asks the other policies for) must leave the
    fight exactly as it was, log included (CORE-LOG)."""
    r = load_roster(example_rosters()[name])
    system = type(get(r.system))
    original = system.moves
    calls = []

    def watched(self: Any, ctx: Any, actor: str, done: Any, react: Any) -> Any:
        before = json.dumps(ctx.state.to_json(), sort_keys=True, ensure_ascii=False)
        out = original(self, ctx, actor, done, react)
        calls.append(json.dumps(ctx.state.to_json(), sort_keys=True, ensure_ascii=False)
                     == before)
        return out

    monkeypatch.setattr(system, "moves", watched)
    for seed in range(3):  # the engine's own run (Roster.play may play on a kernel)
        rng = random.Random(seed)
        enc = r.encounter()
        enc.start(rng, **dict(r.start_options))
        enc.run(rng, max_turns=20, policy=r.policies)
    assert calls and all(calls)


def test_refusal_in_fast_mode_is_an_error_too_core_err() -> None:
    """A simulated fight refuses what the full one refuses (CORE-ERR)."""
    enc = duel().simulated()
    enc.start(random.Random(3))
    with pytest.raises(EscarmoucheError):
        enc.act("Aldric", "voler", random.Random(3))


# -- balance -----------------------------------------------------------------------------


def duel(cc: int = 45) -> Encounter:
    return Encounter("d100", [
        Combatant("Aldric", "héros", {"CC": cc, "CT": 30, "F": 35, "E": 30, "Ag": 40, "M": 4,
                                       "B": 12}),
        Combatant("Grolk", "orques", {"CC": 40, "CT": 20, "F": 40, "E": 40, "Ag": 25, "M": 4,
                                      "B": 11}),
    ])


@dataclasses.dataclass(frozen=True)
class FakeRoster:
    """A stand-in with the attributes of ``escarmouche.roster.Roster``."""

    title: str
    system: str
    rules: Any
    combatants: tuple[Combatant, ...]
    start_options: dict[str, Any] = dataclasses.field(default_factory=dict)
    end_conditions: tuple[Any, ...] = ()
    policies: dict[str, str] = dataclasses.field(default_factory=dict)
    source: str = ""

    def encounter(self) -> Encounter:
        return Encounter(self.system, self.combatants, rules=self.rules,
                         end_conditions=self.end_conditions)

    def with_rules(self, rules: Any) -> FakeRoster:
        return dataclasses.replace(self, rules=rules)


def roster(system: str = "d100") -> FakeRoster:
    fight = fights(system)[0]
    sys_ = get(system)
    return FakeRoster("Duel", system, sys_.rules_from_json(fight.get("rules", {})),
                      tuple(Combatant.from_json(c) for c in fight["roster"]),
                      dict(fight.get("start", {})))


def test_balance_counts_add_up_core_end_1() -> None:
    """CORE-END-1: every fight ends in a win of one side, a draw or the turn limit."""
    bal = sim.simulate(roster(), 60, seed=4)
    assert sum(bal.wins.values()) + bal.draws + bal.timeouts == bal.n == 60
    assert sum(bal.rounds.values()) == 60
    for side in bal.sides:
        assert sum(bal.survivors[side].values()) == 60
        rate, low, high = bal.win_rate(side)
        assert low <= rate <= high


def test_balance_matches_fight_by_fight_replay_core_rng() -> None:
    """Each fight of a balance is fight ``i`` of its seed: replaying them one by one with
    the same streams in the full engine gives the same counts (CORE-RNG)."""
    r = roster()
    bal = sim.simulate(r, 30, seed=9)
    wins: dict[str, int] = {}
    for i in range(30):
        enc = r.encounter()
        rng = sim.stream(9, i, sim.DICE)
        enc.start(rng, **r.start_options)
        enc.run(rng, max_turns=50)
        res = sim.result_of(enc, i)
        if res.winner:
            wins[res.winner] = wins.get(res.winner, 0) + 1
    assert wins == dict(bal.wins)


@given(st.integers(min_value=1, max_value=40), st.integers(min_value=0, max_value=2**32))
@settings(max_examples=10, deadline=None)
def test_same_result_whatever_the_chunking(n: int, seed: int) -> None:
    """Chunks are merged as exact counts: one job or many give the same balance."""
    r = sim.as_roster(duel())
    whole = sim._execute([sim._Job((r,), seed, 0, n, None, 20)], 1, None, None)[0][0]
    parts = sim._execute([sim._Job((r,), seed, a, b, None, 20) for a, b in
                          sim._chunks(n, 4)], 1, None, None)
    merged = sim._Tally()
    for (t,) in parts:
        merged.merge(t)
    assert merged == whole


def test_processes_give_the_same_result() -> None:
    r = roster()
    assert sim.simulate(r, 24, seed=2, processes=2) == sim.simulate(r, 24, seed=2)


def test_compare_uses_common_random_numbers() -> None:
    """The same rules on both sides: the same fights, so no paired difference at all;
    a better CC for Aldric cannot make him win less often here."""
    a = duel()
    same = sim.compare(a, duel(), 40, seed=5)
    assert same.a == dataclasses.replace(same.b) and not same.a_only and not same.b_only
    assert same.difference("héros") == (0.0, 0.0, 0.0)
    better = sim.compare(a, duel(cc=90), 80, seed=5)
    diff, low, high = better.difference("héros")
    assert low <= diff <= high and diff > 0
    assert "Écart B − A, en points" in str(better.table())


def test_wilson_interval_known_values() -> None:
    """Wilson 95 %: 50/100 → [40,4 % ; 59,6 %]; the interval always holds the rate."""
    low, high = sim.wilson(50, 100)
    assert (round(low, 3), round(high, 3)) == (0.404, 0.596)
    for k in range(0, 11):
        lo, hi = sim.wilson(k, 10)
        assert 0 <= lo <= k / 10 <= hi <= 1


def test_sweep_over_an_option_grid() -> None:
    """Each point of the grid is the roster under those rules (CORE-END-1 counts)."""
    r = roster()
    field = "parries_per_round"
    base = getattr(r.rules, field)
    res = sim.sweep(r, {field: [base, base + 1]}, 12, seed=1)
    assert res.points == ((base,), (base + 1,))
    assert res.balances[0] == sim.simulate(r, 12, seed=1)
    again = sim.simulate(r.with_rules(dataclasses.replace(r.rules, **{field: base + 1})), 12,
                         seed=1)
    assert res.balances[1] == again
    assert "Parades par round" in str(res.table())  # the option by its French label
    assert res.svg().count("<svg") == 1 + len(res.balances[0].sides)


def test_outputs_are_french_and_json() -> None:
    bal = sim.simulate(duel(), 20, seed=3)
    text = str(bal.table())
    assert "Victoires (IC 95 % de Wilson)" in text and "\u202f%" in text
    data = json.loads(json.dumps(bal.to_json()))
    assert data["combats"] == 20 and set(data["camps"]) == {"héros", "orques"}
    svg = bal.svg()
    assert svg.count("<svg") == 3 and "Durée des combats" in svg
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg)  # one well-formed document (``--sortie`` writes it)
    assert root.tag.endswith("svg") and len(root.findall("{http://www.w3.org/2000/svg}svg")) == 2


@pytest.mark.parametrize(("kwargs", "field"), [
    ({"n": 0}, "combats"), ({"n": 10**9}, "combats"), ({"n": 5, "seed": -1}, "graine"),
    ({"n": 5, "processes": 0}, "processus"), ({"n": 5, "max_turns": 0}, "max_turns"),
])
def test_bad_inputs_are_french_errors_core_err(kwargs: dict[str, Any], field: str) -> None:
    with pytest.raises(ParameterError) as err:
        sim.simulate(duel(), **kwargs)
    assert err.value.field == field and "(CORE-" in str(err.value)


def test_bad_roster_and_grid_core_err() -> None:
    with pytest.raises(ParameterError, match="roster"):
        sim.simulate("duel.toml", 5)
    with pytest.raises(ParameterError, match="grille"):
        sim.sweep(duel(), {"seuil_inconnu": [1]}, 5)
    started = duel()
    started.start(random.Random(1))
    with pytest.raises(ParameterError, match="commencé"):
        sim.simulate(started, 5)


def test_progress_reaches_the_total() -> None:
    seen: list[tuple[int, int]] = []
    sim.simulate(duel(), 50, seed=1, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (50, 50) and [d for d, _ in seen] == sorted(d for d, _ in seen)


# -- every example roster: the simulation mode is the full engine ---------------------


def roster_both(name: str, seed: int, max_turns: int = 50
                ) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """Fight ``seed`` of an example roster, with its start options and its policies,
    played by the full engine (``Encounter.start`` then ``Encounter.run``, what
    ``Roster.play`` does where no rules kernel narrates the fight) and by the simulation
    (``prepare``)."""
    r = load_roster(example_rosters()[name])
    full_dice = sim.stream(seed, 0, sim.DICE)
    full = r.encounter()
    full.start(full_dice, **dict(r.start_options))
    full.run(full_dice, max_turns=max_turns, policy=r.policies,
             tactics_rng=sim.stream(seed, 0, sim.TACTICS))
    prepared = sim.prepare(r, max_turns=max_turns)
    fast = prepared.template.simulated()
    fast_dice = sim.stream(seed, 0, sim.DICE)
    fast.start(fast_dice, **prepared.start_options)
    fast.run(fast_dice, max_turns=max_turns, policy=prepared.policies,
             tactics_rng=sim.stream(seed, 0, sim.TACTICS))
    out = []
    for enc, dice in ((full, full_dice), (fast, fast_dice)):
        state = enc.state.to_json()
        del state["log"]
        out.append((json.dumps(state, sort_keys=True, ensure_ascii=False), dice.getstate(),
                    sim.result_of(enc, 0, max_turns=max_turns)))
    assert out[1][2] == prepared.play(0, seed)  # what a balance counts, fight by fight
    return out[0], out[1]


@pytest.mark.parametrize("name", ROSTERS)
def test_example_roster_simulation_equals_full_engine_core_rng(name: str) -> None:
    """CORE-RNG / CORE-LOG: every example roster (start options, weapons, armour,
    policies), fight after fight: the simulation mode ends where the full engine ends
    (every track, flag and effect, the dice consumed) and counts the same result."""
    for seed in range(SEEDS):
        full, fast = roster_both(name, seed)
        assert fast == full, (name, seed)


def test_simulate_counts_the_full_engine_fights_of_a_roster_core_rng() -> None:
    """A balance of an example roster is its fights played one by one by the full
    engine, on the same streams (CORE-RNG)."""
    r = load_roster(example_rosters()["d100-duel"])
    n = 25
    total = sim._Tally()
    for i in range(n):
        enc = r.play(sim.stream(3, i, sim.DICE), tactics_rng=sim.stream(3, i, sim.TACTICS))
        total.add(sim.result_of(enc, i, max_turns=50))
    job = sim._Job((r,), 3, 0, n, None, 50)
    assert sim._execute([job], 1, None, None)[0][0] == total
    assert sim.simulate(r, n, seed=3).wins == total.wins


def test_with_rules_keeps_the_effects_set_before_the_fight() -> None:
    """RB-TIME-1..3: a sweep point is the same fight, effects included, under new rules."""
    fight = next(f for f in fights("rulebook") if f.get("effects"))
    enc = golden_runner.build(get("rulebook"), fight)
    base = sim.as_roster(enc)
    again = base.with_rules(enc.rules)
    assert [e.to_json() for e in again.template.state.effects] == [
        e.to_json() for e in enc.state.effects]
    assert again.template.state.to_json() == enc.state.to_json()


def test_bad_dask_address_is_a_french_error_core_err() -> None:
    with pytest.raises(ParameterError, match="ordonnanceur"):
        sim.simulate(duel(), 5, dask="grappe-du-bureau")


def test_the_engine_imports_without_dask_nor_processes() -> None:
    """The browser (Pyodide) has neither Dask nor processes: the module imports and a
    balance runs without them."""
    import subprocess
    import sys

    code = ("import sys; sys.modules['distributed'] = None; sys.modules['dask'] = None; "
            "sys.modules['concurrent.futures.process'] = None; "
            "from escarmouche import Combatant, simulation; "
            "from escarmouche.encounter import Encounter; "
            "d = Encounter('d20', [Combatant('A', 'x', {'PV': 5}), "
            "Combatant('B', 'y', {'PV': 5})]); "
            "print(simulation.simulate(d, 10).n)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "10"


# -- the simulation pages (`d100/simulation`, `d12/simulation`, `d20/simulation`) ---------


def test_b112_a_simulation_column_keeps_its_decimals() -> None:
    """B112: the balance and comparison tables dropped trailing zeros, « 1 » under
    « 1,67 », « 2,1 » beside « 1,26 », « −3 [−10 ; 4] » beside « +3 [−8,6 ; 14,6] »."""
    from escarmouche import simulation
    from escarmouche.roster import example_rosters, load_roster

    duel = load_roster(example_rosters()["d20-duel"])
    bilan = simulation.simulate(duel, 60, seed=1)
    for row in bilan.table().rows:
        assert re.fullmatch(r"\d+,\d\d", str(row[2])), row  # survivors
        assert re.fullmatch(r"\d+,\d\d", str(row[4])), row  # damage per round
    assert re.search(r"durée moyenne \d+,\d\d ", bilan.table().title or ""), bilan.table().title
    other = duel.with_options(arme_par_defaut="1d8")
    table = simulation.compare(duel, other, 60, seed=1, labels=("1d6", "1d8")).table()
    for row in table.rows:
        assert re.fullmatch(r"[+−]?\d+,\d \[−?\d+,\d\s;\s−?\d+,\d\]", str(row[3])), row
        assert all(re.fullmatch(r"\d+,\d\d", str(cell)) for cell in row[4:]), row
    assert re.search(r"durée moyenne \d+,\d\d contre \d+,\d\d ", table.title or ""), table.title


@pytest.mark.parametrize("name", ROSTERS)
def test_roster_play_takes_the_tactics_stream_core_rng(name: str) -> None:
    """CORE-RNG: ``Roster.play`` with a tactics stream of its own (the policy « au
    hasard » draws from it, never from the dice) plays the engine's fight, on a rules
    kernel or not: the same save, the same dice and tactics streams left."""
    r = load_roster(example_rosters()[name])
    for seed in range(4):
        for policy in ("au_hasard", None):
            dice, tactics = random.Random(seed), random.Random(100 + seed)
            played = r.play(dice, policy=policy, tactics_rng=tactics, max_turns=20)
            engine_dice, engine_tactics = random.Random(seed), random.Random(100 + seed)
            enc = r.encounter()
            enc.start(engine_dice, **dict(r.start_options))
            enc.run(engine_dice, max_turns=20, policy=r.policies if policy is None else policy,
                    tactics_rng=engine_tactics)
            assert played.to_json() == enc.to_json(), (name, seed, policy)
            assert dice.getstate() == engine_dice.getstate()
            assert tactics.getstate() == engine_tactics.getstate()


class _OffDice:
    """An rng of the caller's own that answers ``bad`` for its ``at``-th die (a float, a
    bool, a face past the die's), ``random.Random``'s dice otherwise; its state can be
    read and put back, as ``random.Random``'s."""

    def __init__(self, seed: int, at: int, bad: object) -> None:
        self._rng, self._at, self._bad, self._n = random.Random(seed), at, bad, 0

    def randint(self, a: int, b: int) -> Any:
        self._n += 1
        if self._n == self._at:
            return b + 1 if self._bad == "past" else self._bad
        return self._rng.randint(a, b)

    def getstate(self) -> Any:  # (what Roster.play puts back before the engine replays)
        return self._n, self._rng.getstate()

    def setstate(self, state: Any) -> None:
        self._n, inner = state
        self._rng.setstate(inner)


@pytest.mark.parametrize("name", ROSTERS)
def test_roster_play_refuses_dice_off_the_die_as_the_engine_core_rng(name: str) -> None:
    """CORE-RNG: an rng of the caller's own whose ``randint(a, b)`` answers something
    else than an int from ``a`` to ``b`` gets from ``Roster.play``, whose rules kernels
    trust their dice, what it gets from the engine: the same fight, or the same French
    refusal (never a ``TypeError`` or ``IndexError`` from a kernel's table)."""
    r = load_roster(example_rosters()[name])

    def outcome(play: Any, at: int, bad: object) -> Any:
        try:
            return play(_OffDice(at, at, bad)).to_json()
        except EscarmoucheError as err:
            return (type(err).__name__, str(err))

    def engine(dice: Any) -> Encounter:
        enc = r.encounter()
        enc.start(dice, **dict(r.start_options))
        enc.run(dice, max_turns=20, policy=r.policies)
        return enc

    for at in (1, 3, 6, 9):
        for bad in (5.0, True, "past"):
            assert outcome(lambda dice: r.play(dice, max_turns=20), at, bad) == outcome(
                engine, at, bad), (name, at, bad)
