"""Demo « Surprise »: the four systems on the same roster, driven through its Python API."""

from __future__ import annotations

from escarmouche_widgets import text_of
from escarmouche_widgets._record import Recorder
from escarmouche_widgets.surprise import SurpriseDemo, summary_html, surprise_views

from escarmouche import Combatant
from escarmouche.dice import ScriptedRolls
from escarmouche.systems import rulebook
from escarmouche.text.fmt import percent
from tests.helpers.proofreading import (
    page_outputs,
    page_source,
    unbreak,
)


def only(demo: SurpriseDemo, *systems: str) -> None:
    for name, box in demo.systems.items():
        box.value = name in systems


def test_the_four_systems_side_by_side() -> None:
    demo = SurpriseDemo(seed=1)
    text = demo.result_text
    assert demo.error_text == ""
    assert "Système | Quand | Qui agit" in text
    for when in ("| Tour 0 |", "| Round 1 (les surpris n’agissent pas) |",
                 "| Tour bonus (tour 0) |", "| Pas de round de surprise | personne"):
        assert when in text
    assert "Le texte du système d20 ne prévoit pas de surprise" in text
    assert demo.output.value.count("<svg") == 2  # rulebook and d12 odds


def test_rulebook_surprise_turn_0_and_why() -> None:
    demo = SurpriseDemo()
    only(demo, "rulebook")
    # pinned: the group value this case states, whatever the default
    demo.options["rulebook"]["valeur_groupe_surprise"].value = "plus_faible"
    demo.dice.manual.value = True
    # DIS 30 (Grolk, the weakest) rolls 10: margin 20; PMR 55 (Aldric) rolls 90: −35.
    # Initiative: Aldric 20, Brune 30, Grolk 97 (critical failure), Vex 40.
    demo.dice.dice.value = "10, 90, 20, 30, 97, 40"
    demo.roll_button.click()
    text = demo.result_text
    assert demo.error_text == ""
    assert "Tour 0\u00a0: Vex." in text
    assert "attaque surprise réussie" in text
    assert "Grolk ne joue pas au tour 0 malgré l’attaque surprise (échec critique, " in text
    assert ("d100 = 10 (surprise\u00a0: DIS des attaquants)\u202f; d100 = 90 (surprise\u00a0: "
            "PMR des défenseurs)\u202f; d100 = 20 (initiative d’Aldric)") in text
    assert "RB-SURPRISE-3" in text and "RB-INIT-4" in text
    p = rulebook.surprise_odds(30, 55)
    assert f"attaque surprise réussie {percent(p)}" in text
    # Grolk, an attacker: in turn 0 if the surprise works and he does not fail critically
    odds = rulebook.d100_odds(40)
    grolk = p * (1 - odds.critical_failure) + (1 - p) * odds.critical_success
    assert f"Grolk au tour 0 {percent(grolk)}" in text


def test_rulebook_aggregate_option_and_aware_defenders() -> None:
    demo = SurpriseDemo()
    only(demo, "rulebook")
    demo.options["rulebook"]["valeur_groupe_surprise"].value = "meneur"
    assert "DIS 40 (Aldric)" not in demo.result_text
    assert "DIS 30 (Grolk)" in demo.result_text  # Grolk is listed first among the monsters
    demo.unaware.value = False
    text = demo.result_text
    assert "condition (a) non remplie" in text
    assert "attaque surprise réussie 0,0" in text


def test_d100_round_1_without_the_surprised() -> None:
    demo = SurpriseDemo()
    only(demo, "d100")
    demo.options["d100"]["surpris_peut_se_defendre"].value = False  # pinned: the ruling
    demo.dice.manual.value = True
    demo.dice.dice.value = "5 5 5 5"  # Aldric 43, Brune 50, Grolk 30, Vex 45
    demo.roll_button.click()
    text = demo.result_text
    assert "Round 1 (les surpris n’agissent pas)\u00a0: Vex, Grolk." in text
    assert "ordre\u00a0: Brune, Vex, Aldric, Grolk" in text
    assert "agissent (D100-SURPRISE-1)\u202f; selon l’interprétation retenue, que le texte ne " \
        "tranche pas, les surpris ne peuvent pas non plus parer ni esquiver" in text
    demo.unaware.value = False
    assert "Round 1 (sans surprise)\u00a0: Brune, Vex, Aldric, Grolk." in demo.result_text


def test_d12_bonus_turn_with_the_alert_defender() -> None:
    demo = SurpriseDemo()
    only(demo, "d12")
    demo.dice.manual.value = True
    demo.dice.dice.value = "5 9 2"  # bonus turn: Brune 8, Grolk 10, Vex 4
    demo.roll_button.click()
    text = demo.result_text
    assert "Tour bonus (tour 0)\u00a0: Grolk, Brune, Vex." in text
    assert "Brune\u00a0: défenseur «\u00a0alerte\u00a0», joue au tour bonus" in text
    assert "d12 = 5 (tour bonus de Brune)" in text
    # group initiative is rolled when the bonus turn ends (D12-SURPRISE-1), not here
    assert "initiative de groupe\u00a0: Aldric" not in text
    assert "à la fin du tour bonus" in text
    assert "Chances exactes\u00a0: Brune " in text


def test_bad_input_keeps_the_result() -> None:
    demo = SurpriseDemo()
    shown = demo.output.value
    demo.attackers.value = "dragons"
    demo.roll_button.click()
    assert "«\u00a0dragons\u00a0» refusée pour «\u00a0camp attaquant\u00a0»" in demo.error_text
    assert demo.output.value == shown
    demo.attackers.value = "monstres"
    demo.roster.lines[1].stats.value = "HAB=48, DIS=65, PMR=145, Ag=45, init=3"
    demo.roll_button.click()
    assert "Valeur 145 refusée pour «\u00a0PMR\u00a0»" in demo.error_text
    demo.roster.lines[1].stats.value = "HAB=48, DIS=65, PMR=45, Ag=45, init=3"
    only(demo, "rulebook")
    shown = demo.output.value
    demo.systems["rulebook"].value = False
    assert "cochez au moins un système" in demo.error_text
    assert demo.output.value == shown
    only(demo, "rulebook")
    demo.dice.manual.value = True
    demo.dice.dice.value = "10 90 20"
    demo.roll_button.click()
    assert "plus aucun résultat prévu pour le jet n° 4" in demo.error_text


def test_d100_option_surprised_can_defend() -> None:
    """D100-SURPRISE-1 *(ruling)*: the option that lets the surprised parry or dodge has
    its control, read from the system's declaration, and changes the explanation."""
    demo = SurpriseDemo()
    only(demo, "d100")
    box = demo.options["d100"]["surpris_peut_se_defendre"]
    assert "un surpris peut parer ou esquiver" in box.description
    box.value = True
    assert demo.error_text == ""
    assert ("avec l’option «\u00a0un surpris peut parer ou esquiver\u00a0», les surpris "
            "peuvent tout de même parer ou esquiver") in demo.result_text


def _recorder() -> Recorder:
    return Recorder(ScriptedRolls([5, 9]))


# -- the surprise demo ---------------------------------------------------------------------


def test_b70_the_surprise_demo_speaks_of_rounds_only_where_there_are() -> None:
    """B70: the title « les rounds de surprise », the widget's « Rounds de surprise » and
    the column « Round de surprise » over the Rulebook's turn 0 and the d12 bonus turn;
    the glossary keeps « round » for d100 and d20."""
    heading = next(line for line in page_source("demos/surprise.md").splitlines()
                   if line.startswith("# "))
    assert "round" not in heading
    demo = SurpriseDemo(seed=3)
    title = text_of(demo.widget.children[0].value)
    assert "round" not in title.lower()
    head = text_of(summary_html([])).splitlines()[0]
    assert head == "Système | Quand | Qui agit"
    assert "Round de surprise" not in page_outputs("demos/surprise.ipynb")


def test_b71_the_d12_surprise_odds_say_what_they_count() -> None:
    """B71: « Chances exactes : Brune 49,7 % ; … » did not say of what."""
    roster = [Combatant("Brune", "héros", {"init": 3}, traits={"alerte"}),
              Combatant("Grolk", "monstres", {"init": 1})]
    views = surprise_views(["d12"], roster, "monstres", True, _recorder())
    text = text_of(views[0].odds)
    assert "Brune en tête du tour bonus" in text and "Grolk en tête du tour bonus" in text
    assert "en tête du tour bonus" in page_outputs("demos/surprise.ipynb")


# -- the tracker, the comparison, the Atelier -------------------------------------------------


def test_b86_an_empty_turn_0_is_said_in_french() -> None:
    """B86: « Personne ne qualifie pour le tour 0 » (« qualifier » wants an object, or
    « se qualifier »): the surprise demo, defenders aware."""
    demo = SurpriseDemo(seed=3)
    demo.unaware.value = False
    demo.roll_button.click()
    text = unbreak(demo.result_text)
    assert "qualifie" not in text
    assert "Personne ne joue au tour 0 : le combat commence au tour 1" in text
