"""The exact solver of a duel (``escarmouche.exact.duel``) over the d100 rules kernel:
the law sums to exactly 1, matches sampled fights, and its refusals are worded in French
(CORE-ERR)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

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
    text = two_rounds.text()
    assert "victoire des héros\u00a0: 7,3\u202f%" in text
    assert "limite de 2 rounds atteinte" in text


def test_refuses_too_many_fighters() -> None:
    with pytest.raises(EscarmoucheError, match=r"au plus 2.*CORE-ERR.*simule") as err:
        duel("d100-escarmouche")
    assert err.value.rule == "CORE-ERR" and MAX_FIGHTERS == 2


def test_refuses_a_system_without_solver() -> None:
    with pytest.raises(EscarmoucheError, match=r"système d20.*CORE-ERR.*simule"):
        duel("d20-duel")


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
        actor = st.turn_order[st.cursor]
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
        kernel.advance(sheet, st)
    assert compared > 10
    assert defended == (roster == "d100-duel")  # a parry or a dodge rolled there


def test_the_readme_duel_exactly() -> None:
    """The README's d100 duel to 50 rounds, as ``simule`` plays it: the héros win
    0,5492862891… (the value of the issue's independent spike)."""
    got = duel(readme_duel(), RULES)
    assert round(float(got.wins["héros"]), 10) == 0.5492862891
    assert got.total == 1
