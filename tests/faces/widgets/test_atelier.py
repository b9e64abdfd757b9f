"""The Atelier's whole fights: a roster file without and with the designer's changes,
played step by step (progress, « Arrêter ») on the same dice (CORE-RNG)."""

from __future__ import annotations

import asyncio

from escarmouche_widgets import Atelier, text_of
from escarmouche_widgets._stepper import STEP

from escarmouche import simulation as sim
from escarmouche.roster import example_rosters, load_roster
from escarmouche.text.fmt import number, percent
from tests.helpers.proofreading import (
    page_outputs,
    unbreak,
)


def test_fights_without_and_with_the_changes_are_simulate_s_d100_atk_3() -> None:
    """D100-ATK-3: two-handed weapons by default in the Atelier; the fights shown are
    simulate() of the roster file without and with that option, seed 1 (CORE-RNG)."""
    atelier = Atelier("d100")
    assert atelier.fights.integer >= 20_000  # per rule set, in the page
    assert atelier.roster.value in example_rosters()
    atelier.roster.value = "d100-esquive"
    atelier.controls["default_weapon"].value = "arme_a_deux_mains"
    atelier.fights.value = 60
    atelier.stepper.run_button.click()
    assert atelier.error_text == ""
    roster = load_roster(example_rosters()["d100-esquive"])
    before = sim.simulate(roster, 60, seed=1)
    after = sim.simulate(roster.with_options(arme_par_defaut="arme_a_deux_mains"), 60, seed=1)
    assert after != before
    text = atelier.fights_text
    for bal in (before, after):
        rate, _, _ = bal.win_rate("héros")
        assert percent(rate) in text
    assert "60 combats par jeu de règles" in text
    assert atelier.stepper.progress.value == atelier.stepper.progress.max == 120


def test_a_live_run_stops_with_the_fights_played_core_rng() -> None:
    atelier = Atelier("d20")
    atelier.precision.value = None  # exactly the fights asked: only « Arrêter » stops it
    atelier.fights.value = 4 * STEP

    async def live() -> None:
        assert atelier.launch()
        while atelier.stepper.progress.value < 2 * STEP:
            await asyncio.sleep(0)
        atelier.stepper.stop_button.click()
        while atelier.stepper.running:
            await asyncio.sleep(0)

    asyncio.run(live())
    text = atelier.fights_text
    assert f"Arrêté après {number(STEP)} combats par jeu de règles sur {number(4 * STEP)}" \
        in text
    roster = load_roster(example_rosters()[str(atelier.roster.value)])
    rate, _, _ = sim.simulate(roster, STEP, seed=1).win_rate(roster.sides[0])
    assert percent(rate) in text


def test_bad_fight_counts_are_french_refusals_core_err() -> None:
    atelier = Atelier("rulebook")
    atelier.fights.value = 0
    atelier.stepper.run_button.click()
    assert atelier.error_text.startswith("Valeur 0 refusée pour «\u00a0combats\u00a0»") and (
        "(CORE-ERR)" in atelier.error_text)
    assert "Appuyez sur" in atelier.fights_text


def test_the_run_stops_at_the_precision_asked_and_says_the_paired_difference() -> None:
    """bench/README.md, « bench_designer.py »: ± 5 points asked; the run stops at the first
    step where the paired interval is that narrow, and leads with the paired headline: it is
    compare() of the same fights (one process), said in the one sentence of every face."""
    atelier = Atelier("rulebook")
    atelier.roster.value = "rulebook-duel"
    atelier.controls["crit_success_max"].value = 20
    atelier.precision.value = 5.0
    atelier.stepper.run_button.click()
    assert atelier.error_text == ""
    roster = load_roster(example_rosters()["rulebook-duel"])
    c = sim.compare(roster, roster.with_options(reussite_critique_max=20), 20_000, seed=1,
                    precision=5, processes=1)
    assert c.reached and c.a.n < 20_000
    text = atelier.fights_text.replace("\u00a0", " ").replace("\u202f", " ")
    head = c.headline("vos changements").replace("\u00a0", " ").replace("\u202f", " ")
    assert head in text
    assert "ont changé de vainqueur" in text
    assert f"{number(c.a.n)} combats par jeu de règles ont suffi".replace("\u202f", " ") \
        in text


# -- the tracker, the comparison, the Atelier -------------------------------------------------


def test_b78_a_chart_caption_leaves_with_its_chart() -> None:
    """B78: the Atelier's printed text ended with « avant » and « après », the captions of
    two charts the text leaves out."""
    markup = ("<p>x</p><figure><svg><text>a</text></svg><figcaption>avant</figcaption>"
              "</figure><figure><figcaption>Avant</figcaption><pre>texte</pre></figure>")
    assert text_of(markup) == "x\nAvant\ntexte"
    atelier = Atelier("rulebook")
    atelier.controls["crit_success_max"].value = 10
    lines = atelier.result_text.splitlines()
    assert "avant" not in lines and "après" not in lines
    stored = page_outputs("atelier.ipynb").splitlines()
    assert "avant" not in stored and "après" not in stored


def test_b80_a_fight_count_agrees_with_its_number() -> None:
    """B80: the progress label and the Atelier's fights wrote « 1 combats »."""
    from escarmouche_widgets._stepper import Stepper

    stepper = Stepper("Simuler")
    stepper.show(1, 1)
    assert unbreak(stepper.progress_label.value) == "1 combat sur 1"
    stepper.show(500, 1000)
    assert unbreak(stepper.progress_label.value) == "500 combats sur 1000"
    atelier = Atelier("d20")
    atelier.fights.value = 1
    assert atelier.play_fights()
    assert "1 combat par jeu de règles" in unbreak(atelier.fights_text)


def test_b93_the_atelier_fights_name_the_rulebook_variant() -> None:
    """B93: the Atelier played Rulebook rosters under the simulation variant (automatic
    hits of the declared die) without saying so, where spec/RELECTURE.md (R7) asks it be labelled
    wherever simulated fights show."""
    atelier = Atelier("rulebook")
    atelier.fights.value = 4
    assert atelier.play_fights()
    assert "Variante hors texte" in atelier.fights_text
    assert "Aldric 1d6 et Grolk 1d8" in unbreak(atelier.fights_text)
    other = Atelier("d20")
    other.fights.value = 4
    assert other.play_fights()
    assert "Variante hors texte" not in other.fights_text
