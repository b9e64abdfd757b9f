"""Demo « Options de critique » (d12), driven through its Python API."""

from __future__ import annotations

from fractions import Fraction

from escarmouche_widgets.critical import CriticalDemo, odds_html

from escarmouche.systems import d12
from escarmouche.text.fmt import number, percent


def test_initial_state_shows_a_roll_and_the_odds() -> None:
    demo = CriticalDemo(seed=1)
    assert demo.error_text == ""
    assert "Attaque lancée (graine 1)" in demo.result_text
    assert "Dés lancés\u00a0: d12 = " in demo.result_text
    hit = d12.hit_chance(bonus=3, defence=14)
    assert f"Touché\u00a0: {percent(hit)} (dont critique\u00a0: {percent(Fraction(1, 12))})" in (
        demo.odds_text)
    # three charts (one per option) plus the outcome bars
    assert demo.odds.value.count("<svg") == 4


def test_the_three_options_and_the_best() -> None:
    demo = CriticalDemo(weapon="1d8+2", bonus=3, defence=14)
    values = {v.option: v for v in d12.critical_option_values("1d8+2", bonus=3, defence=14)}
    text = demo.odds_text
    assert f"(a) dégâts maximum | {number(values['maximum'].critical_damage)} | 0" in text
    assert "(b) dé supplémentaire explosif" in text
    assert f"(c) avantage | {number(values['avantage'].critical_damage)} | " \
           f"{number(values['avantage'].next_attack_gain)}" in text
    best = d12.best_critical_option("1d8+2", bonus=3, defence=14)
    assert f"L’option qui rapporte le plus\u00a0: ({d12.CRITICAL_OPTIONS[best].letter})" in text


def test_manual_dice_critical_explosive() -> None:
    demo = CriticalDemo(defence=14)
    demo.option.value = "explosif"
    demo.dice.manual.value = True
    demo.dice.dice.value = "12, 8, 8, 3, 5"
    demo.roll_button.click()
    text = demo.result_text
    assert demo.error_text == ""
    assert "12 naturel, réussite critique" in text
    assert "Option choisie\u00a0: (b) dé supplémentaire explosif." in text
    assert ", soit 26 points de dégâts." in text
    assert "d12 = 12 (attaque)\u202f; d8 = 8 (dégâts)\u202f; d8 = 8 (dégâts)" in text
    assert "D12-EXPLODE-1" in text


def test_advantage_option_and_two_attack_dice() -> None:
    demo = CriticalDemo(defence=20)
    demo.mode.value = "avantage"
    demo.option.value = "avantage"
    demo.dice.manual.value = True
    demo.dice.dice.value = "4 12 6"
    demo.roll_button.click()
    text = demo.result_text
    assert "4 et 12, on garde le plus haut, 12" in text
    assert "se fera avec avantage" in text
    assert "d12 = 4 (attaque)\u202f; d12 = 12 (attaque)\u202f; d8 = 6 (dégâts)" in text
    assert "D12-ADV-1" in text
    assert "D12-ADV-1" in demo.odds_text


def test_too_few_dice_shows_the_engine_message_and_keeps_the_result() -> None:
    demo = CriticalDemo()
    before = demo.output.value
    demo.option.value = "explosif"
    demo.dice.manual.value = True
    demo.dice.dice.value = "12"
    demo.roll_button.click()
    assert "plus aucun résultat prévu pour le jet n° 2" in demo.error_text
    assert demo.output.value == before
    demo.dice.dice.value = "12, x"
    demo.roll_button.click()
    assert "«\u00a0x\u00a0» refusée pour «\u00a0dés manuels\u00a0»" in demo.error_text
    demo.dice.dice.value = "13"
    demo.roll_button.click()
    assert "hors de 1–12" in demo.error_text


def test_bad_inputs_keep_the_odds() -> None:
    demo = CriticalDemo()
    odds = demo.odds.value
    demo.weapon.value = "1d8+"
    assert "«\u00a01d8+\u00a0» refusée pour «\u00a0arme\u00a0»" in demo.error_text
    assert "D12-CRIT-2" in demo.error_text
    assert demo.odds.value == odds
    demo.weapon.value = "1d8+2"
    assert demo.error_text == ""
    demo.defence.value = 99
    assert ("Valeur 99 refusée pour «\u00a0défense de la cible\u00a0»\u00a0: un nombre entier "
            "entre 0 et 40") in demo.error_text
    assert demo.odds.value == odds
    demo.defence.value = 14
    demo.bonus.value = 200
    assert "Valeur 200 refusée pour «\u00a0bonus d’attaque\u00a0»" in demo.error_text


def test_unused_dice_and_seed_reproducibility() -> None:
    demo = CriticalDemo(defence=0)
    demo.dice.manual.value = True
    demo.dice.dice.value = "5 3 1"
    demo.roll_button.click()
    assert "1 résultat saisi non utilisé" in demo.result_text
    demo.dice.manual.value = False
    demo.dice.seed.value = 99
    demo.roll_button.click()
    first = demo.result_text
    demo.roll_button.click()
    assert demo.result_text == first
    demo.dice.new_seed_button.click()
    assert f"graine {demo.dice.seed.value}" in demo.result_text


def test_odds_are_cached_per_input() -> None:
    odds_html.cache_clear()
    CriticalDemo(weapon="1d6", defence=10)
    CriticalDemo(weapon="1d6", defence=10)
    info = odds_html.cache_info()
    assert info.hits >= 1 and info.misses == 1
