"""Demo « Le tour d20 », driven through its Python API."""

from __future__ import annotations

import pytest
from escarmouche_widgets import text_of
from escarmouche_widgets._parse import fold_ident
from escarmouche_widgets.d20_turn import TURN_ACTIONS, TYPED, D20TurnDemo, parse_actions

from escarmouche import EscarmoucheError
from escarmouche.systems import d20
from escarmouche.text.fmt import percent
from tests.helpers import ROOT
from tests.helpers.proofreading import (
    page_outputs,
    unbreak,
)

# initiative Brune 15+2, Grolk 5+1, Vex 4+3: Brune first; Grolk's opportunity attack
# 20 (hit) for 3; Vex stops the attack (no die); the save against poison 12 + 5.
DICE = "15 5 4 20 3 12"


def play(demo: D20TurnDemo, dice: str = DICE) -> str:
    demo.dice.manual.value = True
    demo.dice.dice.value = dice
    demo.roll_button.click()
    return demo.result_text


def test_the_turn_phase_by_phase() -> None:
    demo = D20TurnDemo()
    text = play(demo)
    assert demo.error_text == ""
    start = text.index("1. Début du tour")
    actions = text.index("2. Actions")
    end = text.index("3. Fin du tour")
    assert start < actions < end
    assert "«\u00a0Poison (3 par tour)\u00a0»\u00a0: Brune −3 PV (reste 17)." in text[start:actions]
    assert "«\u00a0Régénération\u00a0»\u00a0: Brune +2 PV (reste 19)." in text[start:actions]
    assert "Attaque d’opportunité de Grolk (avant le déplacement de Brune)." in (
        text[actions:end])
    assert "«\u00a0Bouclier de force\u00a0» invalide l’attaque de Brune." in text[actions:end]
    assert ("Jet de sauvegarde de Brune contre «\u00a0Poison (3 par tour)\u00a0»\u00a0: "
            "1d20 + 5 = 12 + 5 = 17") in (
        text[end:])
    assert "«\u00a0Hébété (jusqu’à la fin de son tour)\u00a0» prend fin" in text[end:]
    assert "Brune finit son tour à 16 PV." in text
    assert "d20 = 20 (attaque)\u202f; d6 = 3 (dégâts)\u202f; d20 = 12 (sauvegarde)" in text
    for rule in ("D20-START-1", "D20-OPP-2", "D20-IMM-2", "D20-END-1", "D20-END-2"):
        assert rule in text


def test_interrupt_that_strikes_first() -> None:
    demo = D20TurnDemo()
    demo.interrupt.value = "attaque"
    text = play(demo, "15 5 4 20 3 18 6 10 4 12")
    assert ("Interruption immédiate «\u00a0Trait de feu\u00a0» de Vex (avant l’attaque de "
            "Brune).") in text
    assert "Attaque à distance de Brune contre Vex" in text


def test_budget_and_action_points() -> None:
    demo = D20TurnDemo()
    demo.actions.value = "attaquer, attaquer"
    play(demo)
    assert "la 2e action (action simple) ne trouve plus de place" in demo.error_text
    demo.points_spent.value = 1
    text = play(demo, "15 5 4 2 20 3 12")
    assert demo.error_text == ""
    assert "action simple (point d’action)" in text
    assert "Brune dépense un point d’action" in text
    # the interrupted first attack used no opportunity: Grolk attacks the second one
    assert "Attaque d’opportunité de Grolk (avant l’attaque de Brune)." in text
    demo.points_spent.value = 2
    play(demo)
    assert "D20-ACT-3" in demo.error_text
    demo.points_spent.value = 0
    demo.actions.value = "mouvement, mineure, mineure"
    text = play(demo, "15 5 4 12")
    assert demo.error_text == ""
    assert "3 | action mineure | action simple" in text


def test_halfling_saves_against_terror_and_odds() -> None:
    demo = D20TurnDemo()
    demo.trait.value = "halfelin"
    demo.keyword.value = "terreur"
    save = d20.save_odds(5)
    assert f"réussit avec {percent(save.success)}" in demo.odds_text
    demo.trait.value = ""
    assert f"réussit avec {percent(d20.save_odds(0).success)}" in demo.odds_text
    assert demo.odds.value.count("<svg") == 2


def test_unknown_action_and_too_few_dice() -> None:
    demo = D20TurnDemo()
    shown = demo.output.value
    demo.actions.value = "voler"
    demo.roll_button.click()
    assert "«\u00a0voler\u00a0» refusée pour «\u00a0actions\u00a0»\u00a0: action inconnue" in (
        demo.error_text)
    assert demo.output.value == shown
    demo.actions.value = "déplacement, attaquer"
    play(demo, "15 5 4 20")
    assert "plus aucun résultat prévu" in demo.error_text
    assert demo.output.value == shown


def test_parse_actions_folds_accents() -> None:
    assert parse_actions("Déplacement ; dégainer, ATTAQUER") == (
        "deplacement", "degainer", "attaquer")
    with pytest.raises(EscarmoucheError):
        parse_actions("danser")


def test_a_turn_without_room_names_the_action_point_it_could_spend_d20_act_3() -> None:
    """D20-ACT-3 (spec/relecture-journal.md): seed 003 gives an extra action for an action
    point, so the refusal of a second attack in a turn names that way out (with no point
    spent) and the rule, and the page shows the two attacks passing once Brune spends hers."""
    demo = D20TurnDemo()
    demo.actions.value = "attaquer, attaquer"
    play(demo)
    text = demo.error_text
    assert ("une action simple de plus par point d’action dépensé, aucun ici (D20-ACT-3)"
            in text), text
    page = (ROOT / "book_src" / "demos" / "tour-d20.md").read_text(
        encoding="utf-8")
    assert "ne tiennent pas dans le budget" not in page
    assert 'calcul.points_spent.value = "1"' in page
    stored = (ROOT / "book" / "demos" / "tour-d20.ipynb").read_text(
        encoding="utf-8")
    assert "action simple (point d’action)" in stored  # the two attacks, played


def test_a_cancelled_attack_is_said_before_the_reaction_it_spares_d20_imm_2() -> None:
    """D20-IMM-2, D20-OPP-1 (seventh pass): when Vex's interruption cancels Brune's
    attack, the log said « L’attaque d’opportunité de Grolk n’a pas lieu : l’attaque de
    Brune est annulée. » before « L’attaque de Brune est annulée par l’interruption
    immédiate de Vex. »: the consequence before its cause, the cancellation twice."""
    demo = D20TurnDemo(seed=4)  # Grolk is adjacent when Brune first shoots
    demo.actions.value = "attaquer, attaquer"
    demo.points_spent.value = 1
    demo.roll_button.click()
    text = demo.result_text
    cause = text.index("L’attaque de Brune est annulée par l’interruption immédiate de Vex")
    spared = text.index("L’attaque d’opportunité de Grolk n’a pas lieu")
    assert cause < spared, text
    assert "l’attaque de Brune vient d’être annulée" in text


def _all(widget: object) -> list[object]:
    out = [widget]
    for child in getattr(widget, "children", ()) or ():
        out += _all(child)
    return out


# -- the d20 turn demo -----------------------------------------------------------------------


def test_b72_the_d20_demo_lists_actions_as_a_reader_types_them() -> None:
    """B72: the help listed « deplacement, …, ouvrir_porte, lacher_objet » and the box
    held « deplacement, attaquer, degainer »: engine ids, without their accents."""
    demo = D20TurnDemo(seed=4)
    assert demo.actions.value == "déplacement, attaquer, dégainer"
    texts = [text_of(w.value) for w in _all(demo.widget) if hasattr(w, "value")
             and isinstance(w.value, str) and "Actions possibles" in w.value]
    assert texts and all("_" not in t and "deplacement" not in t for t in texts)
    assert set(TYPED) == set(TURN_ACTIONS)
    for ident, typed in TYPED.items():
        assert fold_ident(typed) == ident
        assert parse_actions(typed) == (ident,)
    assert parse_actions("Ouvrir une porte, Lâcher un objet") == ("ouvrir_porte",
                                                                   "lacher_objet")
    with pytest.raises(EscarmoucheError) as err:
        parse_actions("danser")
    assert "« lâcher objet »" in unbreak(str(err.value)) and "_" not in str(err.value)


def test_b73_a_turn_over_budget_names_its_actions_not_a_list() -> None:
    """B73: « Valeur [« simple », « simple »] refusée pour « actions » »: a Python list,
    and the categories of what the reader typed instead of the actions."""
    with pytest.raises(EscarmoucheError) as err:
        d20.plan_turn(["attaquer", "attaquer"], who="Brune")
    text = unbreak(str(err.value))
    assert text.startswith("Valeur « attaquer, attaquer » refusée pour « actions »")
    assert err.value.value == ["simple", "simple"]
    with pytest.raises(EscarmoucheError) as err:
        d20.check_turn(["simple", "deplacement", "simple"])
    assert "« action simple, se déplacer, action simple »" in unbreak(str(err.value))
    for page in ("demos/tour-d20.ipynb", "d20/tour.ipynb"):
        assert "Valeur [" not in page_outputs(page)
