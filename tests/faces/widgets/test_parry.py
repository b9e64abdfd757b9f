"""Demo « Parade et esquive » (d100), driven through its Python API."""

from __future__ import annotations

from escarmouche_widgets.parry import ParryDodgeDemo, odds_html, setup_of

from escarmouche.systems import d100
from escarmouche.text.fmt import percent


def manual(demo: ParryDodgeDemo, dice: str) -> str:
    demo.dice.manual.value = True
    demo.dice.dice.value = dice
    demo.roll_button.click()
    return demo.result_text


def test_parried_step_by_step() -> None:
    demo = ParryDodgeDemo()
    text = manual(demo, "30, 20")
    assert demo.error_text == ""
    assert "Seuil d’attaque\u00a0: CC 45." in text
    assert "Seuil de parade (parade préparée)\u00a0: CC 38." in text
    assert "1. Jet d’attaque\u00a0: 30 → touche (D100-ATK-1)." in text
    assert "Jet de parade\u00a0: 20 → la parade réussit (D100-PARRY-2)." in text
    assert "mais Défenseur pare (jet 20 ≤ 38)\u00a0: aucun dégât." in text
    assert "d100 = 30 (attaque)\u202f; d100 = 20 (parade)" in text
    assert "D100-PARRY-2" in text


def test_blow_lands_location_and_damage() -> None:
    demo = ParryDodgeDemo()
    text = manual(demo, "30, 77, 4")
    assert "2. Localisation\u00a0: 30 inversé → 03, tête (D100-ATK-2)." in text
    assert "3. Dégâts\u00a0: d10 4 + arme 3 = 7 (D100-ATK-3)." in text
    assert "4. Protection\u00a0: 7 − BE 4 − armure 1 = 2 blessures" in text
    assert "5. Bilan\u00a0: il reste 10 B (D100-ATK-4)." in text
    demo.head_armour.value = "5"
    text = manual(demo, "30, 77, 4")
    assert "armure 5 = 0 blessure" in text


def test_dodge_and_its_conditions() -> None:
    demo = ParryDodgeDemo()
    demo.defence.value = "esquive"
    text = manual(demo, "30, 40")
    assert "Jet d’esquive\u00a0: 40 → l’esquive réussit (D100-DODGE-1)." in text
    assert "esquive (jet 40 ≤ 42)" in text
    demo.dodge_skill.value = False
    assert "n’a pas la compétence «\u00a0esquive\u00a0» (D100-DODGE-1)" in demo.error_text
    demo.dodge_skill.value = True
    demo.surprised.value = True
    # the widget plays the engine's rules: the refusal follows the ruling in force
    refused = "ne peut ni parer ni esquiver pendant le premier round, son camp étant surpris"
    if d100.Rules().surprised_can_defend:
        assert demo.error_text == ""
    else:
        assert refused in demo.error_text  # B106


def test_parry_needs_preparation_or_two_weapons() -> None:
    demo = ParryDodgeDemo()
    demo.parry_prepared.value = False
    assert ("ne peut pas parer sans une parade préparée (demi-action) ou une arme dans "
            "chaque main") in demo.error_text
    demo.two_weapons.value = True
    assert demo.error_text == ""
    text = manual(demo, "30, 20")
    assert "Seuil de parade (parade de la main non directrice)" in text
    demo.off_weapon.value = "arc"
    assert "D100-TWO-1" in demo.error_text


def test_ranged_attack_cannot_be_defended_and_has_range_bands() -> None:
    demo = ParryDodgeDemo()
    demo.weapon.value = "arc"
    assert "on ne peut ni parer ni esquiver un projectile" in demo.error_text
    demo.defence.value = "aucune"
    assert demo.error_text == ""
    assert demo.ranged_box.layout.display == ""
    text = manual(demo, "10, 5")
    assert "Seuil d’attaque\u00a0: CT 35." in text
    demo.distance.value = 30
    text = manual(demo, "10, 5")
    # the modifier in force (the text's −20 by default)
    beyond = d100.Rules().beyond_short_range_modifier
    sign = "−" if beyond < 0 else "+"
    assert f"CT 35 {sign} {abs(beyond)} (au-delà de la courte portée) = {35 + beyond}." in text
    demo.distance.value = 200
    assert "le tir est impossible (D100-RANGED-5)" in demo.error_text


def test_exact_outcome_distribution() -> None:
    demo = ParryDodgeDemo()
    out = d100.attack_distribution(setup_of(demo.fighters()))
    text = demo.odds_text
    assert f"manquée {percent(out.miss)}\u202f; parée {percent(out.parried)}" in text
    assert f"touchée (tête) {percent(out.location_odds['tête'])}" in text
    assert "Zone touchée | Chance | Blessures | Moyenne si touchée" in text
    assert demo.odds.value.count("<svg") == 2
    assert out.miss + out.parried + out.landed == 1


def test_bad_stats_and_dice_in_french() -> None:
    demo = ParryDodgeDemo()
    shown = demo.output.value
    demo.att_cc.value = 140
    assert ("Valeur 140 refusée pour «\u00a0CC de l’attaquant\u00a0»\u00a0: un nombre entier "
            "entre 0 et 100 est attendu (D100-ATK-1)") in demo.error_text
    demo.att_cc.value = 45
    demo.head_armour.value = "beaucoup"
    assert "«\u00a0beaucoup\u00a0» refusée pour «\u00a0armure de la tête\u00a0»" in demo.error_text
    demo.head_armour.value = ""
    manual(demo, "30")
    assert "plus aucun résultat prévu pour le jet n° 2" in demo.error_text
    assert demo.output.value == shown


def test_odds_cached_per_setup() -> None:
    odds_html.cache_clear()
    demo = ParryDodgeDemo()
    demo.roll_button.click()
    assert odds_html.cache_info().misses == 1
