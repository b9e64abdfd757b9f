"""Paired comparisons, stopping at a precision, every core (bench/README.md, « bench_designer.py »).

* the paired interval against a case computed by hand, and against its definition
  (the mean and variance of the per-fight differences);
* the coverage of the interval under sequential stopping at a precision (Chow–Robbins
  after a pilot), by simulation of a synthetic model of paired fights (Bernoulli
  discordances, fixed seed): ≥ 94 % for a nominal 95 %;
* the same result, and the same stopping point, with 1 and N processes;
* rosters that cannot be paired say so and fall back to independent intervals;
* the headline sentence, and the command line's ``--precision``.
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from escarmouche import Combatant
from escarmouche import simulation as sim
from escarmouche.cli import main
from escarmouche.encounter import Encounter
from escarmouche.errors import EscarmoucheError
from escarmouche.roster import example_rosters, load_roster
from escarmouche.simulation.balance import Z95
from escarmouche.simulation.precision import (
    BATCH,
    PILOT,
    changed_sentence,
    conservative_variance,
    difference_sentence,
    exact_difference_sentence,
    exact_differences,
    independent_half,
    precise_enough,
    signed_points,
    wald_half,
)
from escarmouche.simulation.sequential import default_processes, play_batch, run_batches


def _plain(text: str) -> str:
    return text.replace("\u00a0", " ").replace("\u202f", " ")


# -- the paired interval, exactly -------------------------------------------------------


def test_paired_interval_by_hand() -> None:
    """n = 20 paired fights: 3 won under A only, 7 under B only, 10 alike. By hand:
    d̄ = (7 − 3)/20 = 1/5; s² = (3 + 7)/20 − (1/5)² = 23/50; half = z·√(s²/n) =
    z·√(23/1000) = 1,959964 × 0,151658 = 0,297243."""
    var = Fraction(10, 20) - Fraction(1, 5) ** 2
    assert var == Fraction(23, 50)
    assert wald_half(20, 3, 7) == pytest.approx(Z95 * math.sqrt(23 / 1000), abs=1e-15)
    assert wald_half(20, 3, 7) == pytest.approx(0.297243, abs=1e-6)


def test_paired_interval_is_the_mean_and_variance_of_the_differences() -> None:
    rng = random.Random(40)
    for _ in range(50):
        n = rng.randint(2, 300)
        diffs = [rng.choice((-1, 0, 0, 1)) for _ in range(n)]
        a_only, b_only = diffs.count(-1), diffs.count(1)
        expected = Z95 * math.sqrt(statistics.pvariance(diffs) / n)
        assert wald_half(n, a_only, b_only) == pytest.approx(expected, abs=1e-12)


def _comparison(n: int, a_wins: int, b_wins: int, a_only: int, b_only: int,
                **extra: object) -> sim.Comparison:
    def bal(wins: int) -> sim.Balance:
        return sim.Balance("Duel", "d20", n, 0, ("héros", "orques"),
                           {"héros": wins, "orques": n - wins}, 0, 0, {3: n}, {}, {}, {}, {})

    return sim.Comparison(bal(a_wins), bal(b_wins), {"héros": a_only, "orques": b_only},
                          {"héros": b_only, "orques": a_only}, **extra)  # type: ignore[arg-type]


def test_comparison_difference_and_interval_agree_on_a_fixed_run() -> None:
    """A: 12 wins of 20, B: 16 (3 fights only A won, 7 only B won): + 20 points
    ± 29,7, the same through ``difference`` (API) and ``interval`` (what is shown)."""
    c = _comparison(20, 12, 16, 3, 7, changed=10)
    diff, low, high = c.difference("héros")
    assert diff == pytest.approx(0.2)
    assert (high - low) / 2 == pytest.approx(0.297243, abs=1e-6)
    assert c.interval("héros") == pytest.approx((diff, low, high))
    text = _plain(c.headline("la variante"))
    assert text.startswith("Avec la variante, « héros » gagne 20,0 points de plus (± 29,7), "
                           "écart non établi, et « orques » 20,0 points de moins (± 29,7), "
                           "écart non établi.")
    assert "10 combats sur 20 (50,0 %) ont changé de vainqueur." in text


def test_unpaired_interval_is_wider_than_paired() -> None:
    paired = _comparison(1000, 500, 540, 20, 60)
    unpaired = _comparison(1000, 500, 540, 20, 60, paired=False)
    assert unpaired.half("héros") == pytest.approx(independent_half(1000, 500, 540))
    assert unpaired.half("héros") > 2 * paired.half("héros")
    assert "n’alignent pas le même nombre de combattants" in _plain(unpaired.headline())
    assert "changé de vainqueur" not in unpaired.headline()


def test_sentences() -> None:
    assert _plain(difference_sentence([("héros", 0.041, 0.012)], "la variante")) == (
        "Avec la variante, « héros » gagne 4,1 points de plus (± 1,2).")
    assert _plain(difference_sentence([("héros", -0.008, 0.012)], "B")) == (
        "Avec B, « héros » gagne 0,8 point de moins (± 1,2), écart non établi.")
    assert _plain(changed_sentence(412, 3000)) == (
        "412 combats sur 3000 (13,7 %) ont changé de vainqueur.")


# -- stopping at a precision: coverage by simulation ---------------------------------


def _run(rng: random.Random, qa: float, qb: float, precision: float,
         n_max: int) -> tuple[bool, int, float]:
    """One synthetic run of paired fights (a fight is « only A won » with probability
    ``qa``, « only B won » with ``qb``), looked at every :data:`BATCH` fights after the
    pilot, as the engine does: (its Wald interval at the stopping point covers the
    truth, the stopping point, the half-width there)."""
    truth = qb - qa
    a_only = b_only = n = 0
    while True:
        batch = Counter(rng.choices((0, 1, 2), (qa, qb, 1 - qa - qb), k=BATCH))
        a_only, b_only, n = a_only + batch[0], b_only + batch[1], n + BATCH
        diff = (b_only - a_only) / n
        if precise_enough(n, (a_only + b_only) / n - diff * diff, precision) or n >= n_max:
            half = wald_half(n, a_only, b_only)
            return abs(diff - truth) <= half, n, half


@pytest.mark.parametrize(("qa", "qb", "precision"),
                         [(0.08, 0.12, 0.02), (0.01, 0.025, 0.02), (0.2, 0.2, 0.025),
                          (0.3, 0.1, 0.05)])
def test_stopping_at_a_precision_keeps_95_percent_coverage(qa: float, qb: float,
                                                           precision: float) -> None:
    """At the stopping point the interval covers the true difference in ≥ 94 % of 2 000
    runs (a coverage of 95 % would fall under 94 % about once in 50 seeds), is at most
    the precision asked, and the stop is a multiple of the batch."""
    rng = random.Random(2026)
    runs = [_run(rng, qa, qb, precision, 50_000) for _ in range(2_000)]
    coverage = sum(r[0] for r in runs) / len(runs)
    assert coverage >= 0.94, coverage
    assert all(r[1] % BATCH == 0 and r[1] >= PILOT and r[2] <= precision for r in runs)


def test_the_pilot_fixes_about_the_fights_a_fixed_interval_needs() -> None:
    """The price of stopping at a precision: about z²·s²/h² fights (what a fixed-n
    interval of that width needs, had s² been known), +8 % for the variance's upper
    bound at the pilot's size, and the batch."""
    rng = random.Random(3)
    n_stop = statistics.median(_run(rng, 0.08, 0.12, 0.02, 50_000)[1] for _ in range(60))
    known = Z95 ** 2 * (0.2 - 0.04 ** 2) / 0.02 ** 2  # 1 905
    assert known <= n_stop <= 1.1 * known + BATCH
    assert 1.07 < conservative_variance(1_000, 0.2) / 0.2 < 1.09


def test_stopping_on_the_difference_itself_would_not_be_honest() -> None:
    """Why the rule looks at the spread only: a rule that stops as soon as a plain
    interval leaves 0 out (« the variant is better ») declares a difference that does
    not exist far more often than 5 % of the time."""
    rng = random.Random(7)
    false_alarms = 0
    for _ in range(200):
        a_only = b_only = n = 0
        for _ in range(40):
            for _ in range(100):
                u = rng.random()
                a_only += u < 0.1
                b_only += 0.1 <= u < 0.2
            n += 100
            if abs((b_only - a_only) / n) > wald_half(n, a_only, b_only):
                false_alarms += 1
                break
    assert false_alarms / 200 > 0.1


# -- the engine: same result with 1 and N processes -----------------------------------


@pytest.fixture(scope="module")
def duel() -> object:
    return load_roster(example_rosters()["rulebook-duel"])


def test_compare_stops_at_the_same_fight_with_one_and_two_processes(duel: object) -> None:
    variant = duel.with_options(reussite_critique_max=20)  # type: ignore[attr-defined]
    one = sim.compare(duel, variant, precision=3, seed=3, processes=1)
    two = sim.compare(duel, variant, precision=3, seed=3, processes=2)
    assert one == two
    assert one.a.n % BATCH == 0 and one.a.n >= PILOT and one.reached
    assert all(one.half(s) <= 0.03 for s in one.a.sides)
    fixed = sim.compare(duel, variant, 300, seed=3, processes=1)
    assert fixed == sim.compare(duel, variant, 300, seed=3, processes=2)
    assert fixed.precision is None and fixed.a.n == 300


def test_sweep_and_simulate_identical_across_processes(duel: object) -> None:
    grid = {"reussite_critique_max": [5, 20]}
    assert (sim.sweep(duel, grid, 600, seed=1, processes=1)
            == sim.sweep(duel, grid, 600, seed=1, processes=2))
    assert (sim.simulate(duel, 900, seed=1, processes=1)
            == sim.simulate(duel, 900, seed=1, processes=2))


def test_run_batches_stopping_point_does_not_depend_on_processes(duel: object) -> None:
    variant = duel.with_options(reussite_critique_max=20)  # type: ignore[attr-defined]

    def after_three(tallies: object, _pairs: object) -> bool:
        return tallies[0].n >= 150  # type: ignore[index, no-any-return]

    runs = [run_batches((duel, variant), 0, None, 50, fights=1_000, batch=50,
                        processes=p, stop=after_three) for p in (1, 2)]
    assert runs[0][0][0].n == runs[1][0][0].n == 150
    assert runs[0] == runs[1]
    # and the paired counts are those of the fights, one by one
    batch = sim.runner._Job((duel, variant), 0, 0, 150, None, 50)
    assert play_batch(batch)[1][0] == runs[0][1][0]


def test_default_processes() -> None:
    assert default_processes(10) == 1
    assert default_processes(10**6) >= 1


def test_precision_is_checked() -> None:
    d = Encounter("d20", [Combatant("Brune", "héros", {"PV": 12}),
                          Combatant("Grolk", "orques", {"PV": 9})])
    with pytest.raises(EscarmoucheError, match="précision"):
        sim.compare(d, d, precision=0)


def test_rosters_that_do_not_pair_fall_back_to_independent_intervals() -> None:
    one = Encounter("d20", [Combatant("Brune", "héros", {"PV": 12}),
                            Combatant("Grolk", "orques", {"PV": 9})])
    two = Encounter("d20", [Combatant("Brune", "héros", {"PV": 12}),
                            Combatant("Grolk", "orques", {"PV": 9}),
                            Combatant("Snaga", "orques", {"PV": 5})])
    c = sim.compare(one, two, 200, seed=1, processes=1)
    assert not c.paired
    assert c.half("héros") == pytest.approx(
        independent_half(200, c.a.wins.get("héros", 0), c.b.wins.get("héros", 0)))
    assert "dés non appariés" in _plain(str(c.table()))
    assert c.to_json()["apparie"] is False


def test_changed_counts_fights_whose_winner_differs(duel: object) -> None:
    variant = duel.with_options(reussite_critique_max=20)  # type: ignore[attr-defined]
    c = sim.compare(duel, variant, 300, seed=2, processes=1)
    prep_a = sim.prepare(duel)
    prep_b = sim.prepare(variant)
    changed = Counter(prep_a.play(i, 2).winner != prep_b.play(i, 2).winner
                      for i in range(300))
    assert c.changed == changed[True]


# -- the command line --------------------------------------------------------------------


def test_cli_compare_precision(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "rulebook-duel", "--avec", "reussite_critique_max=20",
                 "--precision", "5", "--processus", "1"]) == 0
    out = _plain(capsys.readouterr().out)
    first = out.splitlines()[0]
    assert first.startswith("Avec reussite_critique_max = 20, « héros » gagne ")
    assert "ont changé de vainqueur" in first
    assert "ont suffi pour la précision demandée (± 5 points)" in first


def test_cli_compare_fixed_fights(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "rulebook-duel", "--avec", "reussite_critique_max=20",
                 "-n", "40", "--processus", "1"]) == 0
    out = _plain(capsys.readouterr().out)
    assert "40 combats par jeu de règles, sur les mêmes dés ; intervalle de confiance " \
           "à 95 % apparié." in out


# -- the exact difference of two solved duels ------------------------------------------


def test_exact_difference_sentence_by_hand() -> None:
    """The headline of two exact duels says the difference in points as the sampled one
    does, « calcul exact » in place of the intervals; a difference under 0,1 point is not
    rounded to « autant », kept for none at all."""
    assert _plain(exact_difference_sentence([("héros", 0.041), ("orques", -0.041)],
                                            "vos changements")) == (
        "Avec vos changements, « héros » gagne 4,1 points de plus et « orques » 4,1 points "
        "de moins (calcul exact).")
    assert _plain(exact_difference_sentence([("héros", -0.008)], "B")) == (
        "Avec B, « héros » gagne 0,8 point de moins (calcul exact).")
    assert _plain(exact_difference_sentence([("héros", 0.0), ("orques", 1e-13)], "B")) == (
        "Avec B, « héros » gagne autant et « orques » autant (calcul exact).")
    assert _plain(exact_difference_sentence([("héros", -0.0004)], "B")) == (
        "Avec B, « héros » gagne moins de 0,1 point de moins (calcul exact).")
    # French typography: narrow no-break space nowhere needed, no-break inside « »
    text = exact_difference_sentence([("héros", 0.125)], "la variante")
    assert "«\u00a0héros\u00a0»" in text and "12,5 points de plus" in text
    assert [signed_points(d) for d in (0.041, -0.008, 0.0, 1e-12, 0.1234)] == [
        "+4,1", "−0,8", "0,0", "0,0", "+12,3"]


@given(st.lists(st.floats(min_value=-1, max_value=1), min_size=1, max_size=3))
def test_exact_difference_sentence_says_each_side_s_way(diffs: list[float]) -> None:
    """Whatever the differences: one clause per side in order, « plus » for a gain,
    « moins » for a loss, « autant » for none, never an interval, one sentence."""
    sides = [f"camp {k}" for k in range(len(diffs))]
    text = _plain(exact_difference_sentence(list(zip(sides, diffs, strict=True)), "B"))
    assert text.startswith("Avec B, ") and text.endswith(" (calcul exact).")
    assert "±" not in text and text.count("(calcul exact)") == 1
    clauses = [text.index(f"« {side} »") for side in sides]
    assert clauses == sorted(clauses)
    for k, d in enumerate(diffs):
        end = clauses[k + 1] if k + 1 < len(diffs) else len(text)
        clause = text[clauses[k]:end]
        if abs(d) < 1e-9:
            assert "autant" in clause
        else:
            assert ("de plus" if d > 0 else "de moins") in clause


def test_exact_differences_of_two_solved_duels() -> None:
    """Two exact duels of one roster: the variant's chance minus the base's, per side,
    in the base's order of sides (CORE-END-1)."""
    from escarmouche.exact import duel

    base = duel("d100-duel", max_turns=2, exact=False)
    roster = load_roster(example_rosters()["d100-duel"])
    other = duel(roster.with_options(parades_par_round=0), max_turns=2, exact=False)
    diffs = exact_differences(base, other)
    assert [s for s, _ in diffs] == list(base.sides)
    for side, d in diffs:
        assert d == pytest.approx(float(other.wins[side]) - float(base.wins[side]))
    assert exact_differences(base, base) == [(s, 0.0) for s in base.sides]
