"""The exact solver of a duel (``escarmouche.exact.duel``) over the four rules kernels:
the law sums to exactly 1, matches sampled fights, a blow's law is every sequence of its
dice, a start's law is every sequence of its dice, and its refusals are worded in French
(CORE-ERR)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from escarmouche import Combatant
from escarmouche.encounter import Encounter
from escarmouche.errors import EscarmoucheError
from escarmouche.exact import MAX_FIGHTERS, duel
from escarmouche.simulation.balance import wilson
from escarmouche.simulation.fight import as_roster, prepare
from tests.helpers.d100 import readme_duel
from tests.helpers.editions import published_rules

#: the rules of the last published edition: what the README and these hand computations
#: assume, whatever the engine's defaults are today (make defauts-deplaces moves them)
RULES = published_rules("d100")


@pytest.fixture(scope="module")
def two_rounds():  # type: ignore[no-untyped-def]
    return duel(readme_duel(), RULES, max_turns=2)


def test_sums_to_one_exactly(two_rounds) -> None:  # type: ignore[no-untyped-def]
    # CORE-END-1: every fight ends with one winner, a draw, or at the cap
    assert two_rounds.total == 1
    assert sum(two_rounds.rounds.values()) == 1
    assert all(isinstance(p, Fraction) for p in two_rounds.wins.values())
    assert set(two_rounds.rounds) <= {1, 2}


def test_one_round_cannot_end_the_readme_duel() -> None:
    # D100-ATK-*: one blow each (at most 10 wounds from a d10 + F bonus - BE) cannot
    # take 11 or 12 wounds, so one round always reaches the cap
    one = duel(readme_duel(), RULES, max_turns=1)
    assert one.timed_out == 1 and one.rounds == {1: Fraction(1)}


def test_exact_lies_in_the_sampled_interval(two_rounds) -> None:  # type: ignore[no-untyped-def]
    # the kernel's own fights (CORE-DICE streams) against the exact law, 95 % Wilson
    prepared = prepare(as_roster(readme_duel()).with_rules(RULES), max_turns=2)
    n = 20_000
    counts = Counter(prepared.play(i, 7).winner for i in range(n))
    for side in ("héros", "orques"):
        low, high = wilson(counts[side], n, z=3.29)  # 99.9 %: a fixed seed, no flake
        assert low <= float(two_rounds.wins[side]) <= high, side
    low, high = wilson(counts[None], n, z=3.29)
    assert low <= float(two_rounds.timed_out) <= high


def test_text_is_french(two_rounds) -> None:  # type: ignore[no-untyped-def]
    # each side by its name in quotes, whatever the name (« victoire des héros » would
    # only suit a plural name); the cap in the system's word (« round », « tour »)
    text = two_rounds.text()
    assert "victoire du camp «\u00a0héros\u00a0»\u00a0: 7,3\u202f%" in text
    assert "limite de 2 rounds atteinte" in text
    assert "limite de 1 tour atteinte" in duel("d12-duel", max_turns=1, exact=False).text()


def test_refuses_too_many_fighters() -> None:
    with pytest.raises(EscarmoucheError, match=r"au plus 2.*CORE-ERR.*simule") as err:
        duel("d100-escarmouche")
    assert err.value.rule == "CORE-ERR" and MAX_FIGHTERS == 2


def test_refuses_a_system_without_solver() -> None:
    # the toy system's kernel (the model of tests/toy_system) has no solver's doors
    from tests.toy_system import SYSTEM as TOY

    fighters = [c for c in TOY.sample_roster if c.name in ("Aldric", "Grolk")]
    with pytest.raises(EscarmoucheError, match=r"système jouet.*CORE-ERR.*simule"):
        duel(Encounter(TOY, fighters))


def test_refuses_endless_initiative_roll_offs_rb_init_2() -> None:
    """RB-INIT-2: two fighters of the same HAB roll off as long as they tie, without
    bound: refused in French, naming the rule."""
    stats = {"HAB": 50, "DIS": 50, "PMR": 50, "PV": 6, "Esprit": 6, "variante_degats": 4}
    enc = Encounter("rulebook", [Combatant("Brune", "héros", stats),
                                 Combatant("Grishnakh", "orques", stats)])
    with pytest.raises(EscarmoucheError, match=r"même HAB.*RB-INIT-2.*simule"):
        duel(enc)


def test_refuses_a_random_policy() -> None:
    with pytest.raises(EscarmoucheError, match=r"tire au hasard.*CORE-ERR.*simule"):
        duel(readme_duel(), policy="au_hasard", max_turns=2)


def _one_blow_duel(grolk_e: int) -> Encounter:
    """Aldric (Ag 50) always acts first against Grolk (Ag 10) (D100-INIT-1); CC 50 hits
    on 1–50 (D100-ATK-1); one wound each (B 1), and no defence to take (no skill, no
    prepared parry): a blow that costs a wound ends the duel."""
    return Encounter("d100", [
        Combatant("Aldric", "héros", {"CC": 50, "CT": 30, "F": 30, "E": 0, "Ag": 50,
                                       "M": 4, "B": 1}),
        Combatant("Grolk", "orques", {"CC": 50, "CT": 20, "F": 30, "E": grolk_e, "Ag": 10,
                                      "M": 4, "B": 1})])


def test_a_duel_solved_by_hand_d100_atk_1() -> None:
    """D100-ATK-1, D100-ATK-3: every hit wounds (1d10 + 3 − BE 0 ≥ 4), so each round
    Aldric wins with 1/2, else Grolk with 1/2 of the rest: over N rounds the héros win
    Σ (1/4)^k · 1/2, the orques half as much, and (1/4)^N reach the cap."""
    for n in (1, 2, 3):
        got = duel(_one_blow_duel(0), RULES, max_turns=n)
        quarter = [Fraction(1, 4) ** k for k in range(n)]
        assert got.wins == {"héros": sum(quarter, Fraction(0)) / 2,
                            "orques": sum(quarter, Fraction(0)) / 4}
        assert got.timed_out == Fraction(1, 4) ** n and got.draw == 0


def test_a_duel_solved_by_hand_d100_atk_3() -> None:
    """D100-ATK-3: against Grolk's BE 6 (E 60) a hit costs 1d10 + 3 − 6 wounds, none on
    1–3: Aldric takes Grolk's only wound with 1/2 · 7/10 = 7/20 a round; Grolk his with
    1/2 of the rest."""
    got = duel(_one_blow_duel(60), RULES, max_turns=1)
    assert got.wins == {"héros": Fraction(7, 20), "orques": Fraction(13, 40)}
    assert got.timed_out == Fraction(13, 40)


@pytest.mark.parametrize("roster", ["readme", "d100-duel"])
def test_the_law_of_a_blow_is_every_sequence_of_dice_d100_atk_2(roster: str) -> None:
    """D100-ATK-1..3, D100-PARRY-3, D100-DODGE-2: the kernel's law of a blow
    (``move_law``, classes of dice) leaves exactly the states, with exactly the chances,
    that every one of its 100 × 100 × 10 sequences of dice leaves (the solver's
    ``outcomes`` both ways), on the first blows of the duel (a parry and a dodge in
    d100-duel)."""
    from escarmouche.exact import KernelSolver
    from escarmouche.policies import resolve_policies
    from escarmouche.roster import example_rosters, load_roster
    from escarmouche.systems.d100 import kernel

    base = as_roster(readme_duel() if roster == "readme"
                     else load_roster(example_rosters()[roster]))
    template = base.encounter()
    sides = list(dict.fromkeys(f.side for f in template.state.fighters.values()))
    policies = resolve_policies("d100", sides, getattr(base, "policies", None) or None)
    sheet = kernel.compile_sheet(template, dict(base.start_options), policies)
    assert sheet is not None
    solver = KernelSolver(kernel, sheet, 50)
    st = kernel.start(sheet, lambda _a, _b: 5)
    compared, defended = 0, False
    for _ in range(3):  # the first three blows, each on the state the last one left
        actor = kernel.acting(st)
        move = next(m for m in kernel.candidates(sheet, st, actor) if m[0] == "attaque")
        law = kernel.move_law(sheet, st, actor, move)
        assert law is not None and sum(p for p, _ in law) == 1
        defended = defended or any(len(dice) == 3 for _, dice in law)
        by_law = {key: p for _, p, key in solver.outcomes(st, actor, move)}
        every = {key: p for _, p, key in solver.outcomes(st, actor, move, by_law=False)}
        assert by_law == every
        compared += len(every)
        st = max(solver.outcomes(st, actor, move), key=lambda o: o[1])[0]
        if st.finished:
            break
        kernel.advance(sheet, st, lambda _a, _b: 5)
    assert compared > 10
    assert defended == (roster == "d100-duel")  # a parry or a dodge rolled there


def test_the_readme_duel_exactly() -> None:
    """The README's d100 duel to 50 rounds, as ``simule`` plays it: the héros win
    0,5492862891… (the value of the issue's independent spike)."""
    got = duel(readme_duel(), RULES)
    assert round(float(got.wins["héros"]), 10) == 0.5492862891
    assert got.total == 1


def _example(name: str) -> Any:
    from escarmouche.roster import example_rosters, load_roster

    return load_roster(example_rosters()[name])


def _solver(name: str, rules: Any = None) -> tuple[Any, Any, Any]:
    """The kernel module, sheet and solver of example roster ``name``."""
    import sys

    from escarmouche.exact import KernelSolver
    from escarmouche.policies import resolve_policies
    base = _example(name)
    if rules is not None:
        base = base.with_rules(rules)
    template = base.encounter()
    sides = list(dict.fromkeys(f.side for f in template.state.fighters.values()))
    policies = resolve_policies(template.system.name, sides,
                                getattr(base, "policies", None) or None)
    sheet = template.system.kernel(template, dict(base.start_options), policies)
    assert sheet is not None
    kernel = sys.modules[type(sheet).__module__]
    return kernel, sheet, KernelSolver(kernel, sheet, 50)


def _every(act: Any, depth: int) -> tuple[dict[Any, Fraction], Fraction]:
    """Every sequence of dice ``act(randint)`` can draw, up to ``depth`` dice: the
    chance of each state's key it leaves, and the chance of the sequences cut at
    ``depth`` (an exploding die's long chains), left out."""
    found: dict[Any, Fraction] = {}
    cut = Fraction(0)
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]

    class Deeper(Exception):
        pass

    while stack:
        prefix, p = stack.pop()
        drawn: list[int] = []

        def randint(low: int, high: int, prefix: tuple[int, ...] = prefix,
                    drawn: list[int] = drawn) -> int:
            if len(drawn) < len(prefix):
                drawn.append(prefix[len(drawn)])
                return drawn[-1]
            drawn.append(high - low + 1)
            drawn.append(low)
            raise Deeper

        try:
            key = act(randint).key()
        except Deeper:
            faces, low = drawn[-2], drawn[-1]
            if len(prefix) >= depth:
                cut += p
            else:
                stack.extend(((*prefix, v), p / faces) for v in range(low, low + faces))
            continue
        found[key] = found.get(key, Fraction(0)) + p
    return found, cut


@pytest.mark.parametrize(("name", "rules"), [("d20-duel", "D20-ATK-1, D20-DMG-1"),
                                             ("d12-duel", "D12-ATK-1, D12-EXPLODE-1"),
                                             ("rulebook-duel", "RB-END-2")])
def test_the_law_of_a_blow_is_every_sequence_of_dice(name: str, rules: str) -> None:
    """The d20 and d12 kernels' law of a blow (``move_law``: the attack's classes times
    :func:`escarmouche.dice.draw_law` of the damage), the Rulebook's (the automatic
    hit's faces grouped by the PV they leave) against every sequence of its dice
    (``rules`` names the rules it plays), on the duel's first blows: each state has at
    least the chance its sequences give, and no more than that plus the chance of the
    exploding chains longer than 7 dice (D12-EXPLODE-1), which are all the difference."""
    import random

    kernel, sheet, solver = _solver(name)
    draw = solver.dice(random.Random(3).randint)
    st = kernel.start(sheet, draw)
    compared = 0
    for _ in range(4):
        actor = kernel.acting(st)
        move = kernel.choose(sheet, st, actor)
        if move is not None:
            law = kernel.move_law(sheet, st, actor, move)
            assert law is not None and sum(p for p, _ in law) == 1
            by_law = {key: p for _, p, key in solver.outcomes(st, actor, move)}

            def act(randint: Any, st: Any = st, actor: int = actor, move: Any = move
                    ) -> Any:
                nxt = st.copy()
                kernel.play(sheet, nxt, actor, move, solver.dice(randint))
                return nxt

            every, cut = _every(act, 7)
            assert set(every) <= set(by_law)
            assert all(every[k] <= by_law[k] for k in every)
            assert sum(by_law.values()) - sum(every.values()) == cut
            assert (cut == 0) == (name != "d12-duel")  # the d12's damage explodes
            compared += len(every)
            st = max(solver.outcomes(st, actor, move), key=lambda o: o[1])[0]
            if st.finished:
                break
        kernel.advance(sheet, st, draw)
    assert compared > 10


def test_the_law_of_the_start_is_every_sequence_of_dice_d12_init_3() -> None:
    """D12-INIT-3, D12-INIT-6: the d12 kernel's ``start_law`` (one attempt, then the
    chances the bound of rerolls gives) leaves exactly the first states, with exactly
    the chances, that every sequence of the initiative's dice leaves, rerolls and lot
    included, under a bound of 2 rerolls (12⁶ sequences at most: played one by one)."""
    import dataclasses

    from escarmouche.exact import enumerate_dice

    rules = dataclasses.replace(_example("d12-duel").rules, max_initiative_rerolls=2)
    kernel, sheet, solver = _solver("d12-duel", rules)

    def grouped(pairs: list[tuple[Any, Any]]) -> dict[Any, Any]:
        out: dict[Any, Any] = {}
        for st, p in pairs:
            out[st.key()] = out.get(st.key(), 0) + p
        return out

    every = grouped(enumerate_dice(lambda randint: kernel.start(sheet, solver.dice(randint))))
    assert grouped(solver.started()) == every
    assert len(every) >= 2 and sum(every.values()) == 1


def test_the_law_of_the_start_is_every_sequence_of_dice_rb_surprise_2() -> None:
    """RB-SURPRISE-1/2, RB-INIT-1/2: the Rulebook kernel's ``start_law`` (the surprise's
    two d100 grouped by its success, then the initiative's d100 grouped by what the
    fight reads) leaves the first states, with the chances, that every sequence of the
    four d100 leaves; checked on each surprise outcome with the initiative's 100²
    sequences, the surprise's own law summed over its 100² sequences."""
    from escarmouche.exact import enumerate_dice

    kernel, sheet, solver = _solver("rulebook-duel")
    by_law: dict[Any, Any] = {}
    for st, p in solver.started():
        by_law[st.key()] = by_law.get(st.key(), 0) + p
    every: dict[Any, Any] = {}
    surprises = enumerate_dice(lambda randint: kernel._surprise(sheet, randint))
    success = sum(p for s, p in surprises if s.success)
    assert 0 < success < 1
    for won, weight in ((True, success), (False, 1 - success)):
        surprise = next(s for s, _ in surprises if s.success is won)
        def started(randint: Any, s: Any = surprise) -> Any:
            return kernel._started(sheet, randint, kernel._initiative(sheet, randint, s), s)

        for st, p in enumerate_dice(started):
            every[st.key()] = every.get(st.key(), 0) + weight * p
    assert by_law == every and sum(by_law.values()) == 1


@pytest.mark.sampling
@pytest.mark.parametrize("name", ["d100-duel", "d20-duel", "d12-duel", "rulebook-duel"])
def test_each_example_duel_lies_in_the_sampled_interval(name: str) -> None:
    """CORE-DICE: each system's example duel, solved (in floats, as a page shows it),
    against 100 000 of its sampled fights (the kernel's own, one seed): each side's
    exact chance lies in its 99,9 % Wilson interval."""
    got = duel(name, exact=False)
    assert abs(float(got.total) - 1) < 1e-9
    prepared = prepare(_example(name), max_turns=50)
    n = 100_000
    counts = Counter(prepared.play(i, 13).winner for i in range(n))
    for side in got.sides:
        low, high = wilson(counts[side], n, z=3.29)
        assert low <= float(got.wins[side]) <= high, (name, side)


def _golden_duels() -> list[tuple[str, Any]]:
    from tests.helpers.golden_runner import load

    return [(system, fight) for system in ("d100", "d20", "d12", "rulebook")
            for fight in load(system)["fights"] if len(fight["roster"]) == 2]


@pytest.mark.sampling
@pytest.mark.parametrize(("system", "fight"), _golden_duels(),
                         ids=lambda v: v if isinstance(v, str) else v["name"][:24])
def test_each_golden_duel_lies_in_the_sampled_interval(system: str, fight: Any) -> None:
    """CORE-DICE: each golden duel (two fighters, tests/golden), its rules and start
    options, played under the default policies: solved (floats) and within the 99,9 %
    interval of 100 000 sampled fights; or, where the rules kernel does not cover it
    (a Rulebook fight without ``variante_degats``: nothing plays it automatically),
    refused by both."""
    import dataclasses

    from escarmouche.systems import get as get_system
    from tests.helpers.golden_runner import build

    roster = dataclasses.replace(as_roster(build(get_system(system), fight)),
                                 start_options=fight.get("start", {}))
    try:
        got = duel(roster, exact=False)
    except EscarmoucheError as refused:
        assert "ne couvre pas" in str(refused)
        with pytest.raises(EscarmoucheError):
            prepare(roster, max_turns=50).play(0, 13)
        return
    prepared = prepare(roster, max_turns=50)
    n = 100_000
    counts = Counter(prepared.play(i, 13).winner for i in range(n))
    for side in got.sides:
        low, high = wilson(counts[side], n, z=3.29)
        assert low <= float(got.wins[side]) <= high, (fight["name"], side)
