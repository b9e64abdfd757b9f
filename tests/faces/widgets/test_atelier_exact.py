"""The Atelier's « Calcul exact »: the chosen duel solved without sampling
(escarmouche.exact, in floats) without then with the designer's changes, beside the
simulated fights, with the exact difference in points; kept per (system, roster,
options); a refusal in French, inline (CORE-END-1, CORE-ERR)."""

from __future__ import annotations

import asyncio

from escarmouche_widgets import Atelier

from escarmouche.exact import duel
from escarmouche.roster import example_rosters, load_roster
from escarmouche.simulation.precision import exact_difference_sentence, exact_differences
from escarmouche.text.fmt import percent
from tests.helpers.proofreading import unbreak
from tests.helpers.typography import problems


def test_exact_answer_is_duel_without_and_with_the_changes_core_end_1() -> None:
    """CORE-END-1: « Calcul exact » shows each side's exact chance under the edition's
    rules and under the options changed, the difference in points (« calcul exact », no
    interval), the draw, the cap and the mean length; the numbers are duel()'s."""
    atelier = Atelier("d100")
    atelier.roster.value = "d100-duel"
    assert "Ce combat est un duel" in unbreak(atelier.exact_text)
    atelier.controls["parries_per_round"].value = 0
    assert atelier.exact_answer()
    roster = load_roster(example_rosters()["d100-duel"])
    before = duel(roster, exact=False)
    after = duel(roster.with_options(parades_par_round=0), exact=False)
    text = unbreak(atelier.exact_text)
    head = unbreak(exact_difference_sentence(exact_differences(before, after),
                                             "vos changements"))
    assert head in text and "(calcul exact)" in text and "±" not in text
    assert "points de moins" in head  # no parry: the prudent heroes lose their guard
    for side in before.sides:
        assert f"Victoires « {side} » | {unbreak(percent(before.wins[side]))} | " \
               f"{unbreak(percent(after.wins[side]))}" in text
    assert "Nul (personne debout)" in text and "Limite de 50 rounds atteinte" in text
    assert "Durée moyenne (rounds)" in text
    default = atelier.defaults["parries_per_round"]  # the edition's, whatever it is
    assert f"Options changées : parades par round ({default} → 0, D100-PARRY-3)." in text
    assert problems(atelier.exact_text) == []


def test_exact_answers_are_kept_per_system_roster_and_options_core_end_1() -> None:
    """An answer worked out once shows again at once when its options come back; other
    options show what the button would do until it is pressed."""
    atelier = Atelier("d100")
    atelier.roster.value = "d100-esquive"
    assert atelier.exact_answer()
    solved = atelier.exact_text
    default = atelier.defaults["parries_per_round"]  # the edition's, whatever it is
    atelier.controls["parries_per_round"].value = 3 if default == 2 else 2
    assert "Ce combat est un duel" in unbreak(atelier.exact_text)
    atelier.controls["parries_per_round"].value = default
    assert atelier.exact_text == solved  # shown again without a solve
    atelier.roster.value = "d100-duel"
    atelier.roster.value = "d100-esquive"
    assert atelier.exact_text == solved


def test_a_crowd_is_refused_inline_in_french_core_err() -> None:
    """CORE-ERR: a fight of more than two fighters turns the button off with the reason;
    asked all the same, the solver's French refusal shows inline, naming the page's
    button instead of the command line, never a traceback."""
    atelier = Atelier("d100")
    atelier.roster.value = "d100-escarmouche"
    assert atelier.exact_button.disabled
    assert "pour un duel seulement" in unbreak(atelier.exact_text)
    assert not atelier.exact_answer()
    text = unbreak(atelier.exact_text)
    assert text.startswith("Calcul exact refusé : 5 combattants, au plus 2 (CORE-ERR)")
    assert "« Simuler les combats » l’estime par simulation" in text
    assert "escarmouche simule" not in text and "Traceback" not in text
    assert atelier.error_text == "" and problems(atelier.exact_text) == []
    atelier.roster.value = "d100-duel"
    assert not atelier.exact_button.disabled


def test_a_live_exact_answer_hands_the_page_back_core_end_1() -> None:
    """In a live page the solve is a task: the button is off and the page says what is
    being solved while it runs; the answer is the same as at once."""
    atelier = Atelier("d20")
    atelier.roster.value = "d20-duel"
    atelier.controls["save_target"].value = 12
    seen: list[str] = []

    async def live() -> None:
        assert atelier.launch_exact()
        assert atelier.exact_button.disabled and not atelier.launch_exact()
        while atelier.exact_task is not None:
            seen.append(unbreak(atelier.exact_text))
            await asyncio.sleep(0.01)

    asyncio.run(live())
    assert any(line.startswith("Calcul exact en cours") for line in seen)
    assert not atelier.exact_button.disabled
    text = unbreak(atelier.exact_text)
    assert "(calcul exact)" in text and "Sans vos changements" in text
    again = Atelier("d20")
    again.roster.value = "d20-duel"
    again.controls["save_target"].value = 12
    assert unbreak(again.exact_text) == text  # kept: shown at once
