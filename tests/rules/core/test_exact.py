"""The exact solver of a duel (``escarmouche.exact.duel``) over the d100 rules kernel:
the law sums to exactly 1, matches sampled fights, and its refusals are worded in French
(CORE-ERR)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from escarmouche.errors import EscarmoucheError
from escarmouche.exact import MAX_FIGHTERS, duel
from escarmouche.simulation.balance import wilson
from escarmouche.simulation.fight import as_roster, prepare
from tests.helpers.d100 import readme_duel


@pytest.fixture(scope="module")
def two_rounds():  # type: ignore[no-untyped-def]
    return duel(readme_duel(), max_turns=2)


def test_sums_to_one_exactly(two_rounds) -> None:  # type: ignore[no-untyped-def]
    # CORE-END-1: every fight ends with one winner, a draw, or at the cap
    assert two_rounds.total == 1
    assert sum(two_rounds.rounds.values()) == 1
    assert all(isinstance(p, Fraction) for p in two_rounds.wins.values())
    assert set(two_rounds.rounds) <= {1, 2}


def test_one_round_cannot_end_the_readme_duel() -> None:
    # D100-ATK-*: one blow each (at most 10 wounds from a d10 + F bonus - BE) cannot
    # take 11 or 12 wounds, so one round always reaches the cap
    one = duel(readme_duel(), max_turns=1)
    assert one.timed_out == 1 and one.rounds == {1: Fraction(1)}


def test_exact_lies_in_the_sampled_interval(two_rounds) -> None:  # type: ignore[no-untyped-def]
    # the kernel's own fights (CORE-DICE streams) against the exact law, 95 % Wilson
    prepared = prepare(as_roster(readme_duel()), max_turns=2)
    n = 20_000
    counts = Counter(prepared.play(i, 7).winner for i in range(n))
    for side in ("héros", "orques"):
        low, high = wilson(counts[side], n, z=3.29)  # 99.9 %: a fixed seed, no flake
        assert low <= float(two_rounds.wins[side]) <= high, side
    low, high = wilson(counts[None], n, z=3.29)
    assert low <= float(two_rounds.timed_out) <= high


def test_text_is_french(two_rounds) -> None:  # type: ignore[no-untyped-def]
    text = two_rounds.text()
    assert "victoire des héros : 7,3\u202f%" in text
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
