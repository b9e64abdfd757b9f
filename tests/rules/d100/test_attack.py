"""System d100 (seed 001), RULES.md: the melee attack, D100-ATK-1..7, and the two weapons,
D100-TWO-1/2 (its defence, D100-PARRY-* and D100-DODGE-*, is in ``test_parry.py``).

Expected values are derived by hand from the rules in the comments next to them.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from escarmouche import Combatant, EscarmoucheError
from escarmouche.dice import ScriptedRolls
from escarmouche.systems import d100
from escarmouche.systems.d100 import (
    LOCATIONS,
    NEAREST_LOCATIONS,
    Guard,
    Outcome,
    Rules,
    attack_setup,
    check_two_weapons,
    damage,
    hit_location,
    resolve_attack,
    reverse_digits,
    target_number,
)
from tests.helpers.d100 import ALDRIC, BRUNE, GROLK, events, fighter, started
from tests.helpers.proofreading import assert_refusal_shape

# -- D100-ATK-1..7 ---------------------------------------------------------------------------


def test_attack_roll_at_most_cc_or_ct_d100_atk_1() -> None:
    """D100-ATK-1: the attack hits when d100 <= CC (melee) or CT (ranged)."""
    setup = attack_setup(ALDRIC, GROLK)
    assert setup.target.stat == "CC" and setup.target.total == 65
    assert resolve_attack(setup, 65, damage_roll=1).hit
    assert resolve_attack(setup, 66).outcome is Outcome.MISS
    shot = attack_setup(BRUNE, GROLK, "arc", distance=10)
    assert shot.target.stat == "CT" and shot.target.total == 50
    assert resolve_attack(shot, 50, damage_roll=1).hit
    assert not resolve_attack(shot, 51).hit
    # after modifiers, a total <= 0 never hits, one >= 100 always does (CORE-ERR)
    # pinned: the text's −20 for the off hand (D100-ATK-5), whatever the default
    hopeless = attack_setup(fighter("X", "x", CC=10), GROLK, hand="non_directrice",
                            rules=Rules(off_hand_modifier=-20))
    assert hopeless.target.total == -10 and not resolve_attack(hopeless, 1).hit
    sure = attack_setup(ALDRIC, GROLK, gm_modifier=40)
    assert sure.target.total == 105 and resolve_attack(sure, 100, damage_roll=1).hit
    with pytest.raises(EscarmoucheError, match="D100-ATK-1"):
        target_number(ALDRIC, "dague", distance=3)  # melee: no distance
    with pytest.raises(EscarmoucheError, match="D100-ATK-1"):
        attack_setup(ALDRIC, ALDRIC)


def test_hit_location_reversed_digits_d100_atk_2() -> None:
    """D100-ATK-2: the text's own example, 37 -> 73 (the body), and the table's edges."""
    assert reverse_digits(37) == 73 and hit_location(37) == "corps"
    assert reverse_digits(5) == 50 and hit_location(5) == "bras gauche"
    assert reverse_digits(100) == 100 and hit_location(100) == "jambe gauche"
    assert reverse_digits(10) == 1 and hit_location(10) == "tête"
    edges = {15: "tête", 16: "bras droit", 35: "bras droit", 36: "bras gauche",
             55: "bras gauche", 56: "corps", 80: "corps", 81: "jambe droite",
             90: "jambe droite", 91: "jambe gauche", 100: "jambe gauche", 1: "tête"}
    for value, zone in edges.items():
        assert d100.location_of(value) == zone
    for bad in (0, 101):
        with pytest.raises(EscarmoucheError, match="D100-ATK-2"):
            hit_location(bad)
    # the example as a whole attack: Aldric rolls 37 (<= 65) and hits Grolk's body
    result = resolve_attack(attack_setup(ALDRIC, GROLK), 37, damage_roll=5)
    assert (result.location_value, result.location) == (73, "corps")
    assert "(jet 37 → 73)" in result.sentence


@given(st.integers(1, 100))
def test_location_is_reversed_roll_d100_atk_2(roll: int) -> None:
    value = reverse_digits(roll)
    assert 1 <= value <= 100
    assert hit_location(roll) == d100.location_of(value)
    if roll % 10:
        assert reverse_digits(value) == roll  # swapping twice gives the roll back


def test_damage_with_be_and_armour_d100_atk_3() -> None:
    """D100-ATK-3: 1d10 + weapon − BE − armour on the zone, never below 0."""
    assert damage(4, 3, 3, 1) == 3
    assert damage(1, 0, 3, 2) == 0
    assert damage(10, 5, 0, 0) == 15
    with pytest.raises(EscarmoucheError, match="D100-ATK-3"):
        damage(11, 3, 3, 1)
    knight = fighter("K", "x", PA=2, PA_tete=4)
    assert d100.armour_at(knight, "tête") == 4 and d100.armour_at(knight, "corps") == 2
    assert d100.armour_at(GROLK, "bras gauche") == 1 and d100.armour_at(GROLK, "tête") == 0
    with pytest.raises(EscarmoucheError, match="D100-ATK-3"):
        d100.validate_combatant(fighter("K", "x", PA_casque=2))
    with pytest.raises(EscarmoucheError, match="D100-ATK-3"):
        attack_setup(ALDRIC, GROLK, "épée")


def test_gm_sentence_d100_atk_4() -> None:
    """D100-ATK-4: the GM's sentence, for a hit, a miss, a parry, a dodge, 0 damage
    (an unarmed blow is a one-handed weapon's, pinned: the text's default weapon)."""
    text = Rules(default_weapon="arme_a_une_main")
    setup = attack_setup(ALDRIC, GROLK, "arme_a_une_main")
    # 63 <= 65; 63 -> 36: left arm (armour 1); 4 + 3 = 7; 7 - 3 - 1 = 3; 11 - 3 = 8
    hit = resolve_attack(setup, 63, damage_roll=4)
    assert hit.sentence == ("Aldric touche Grolk au bras gauche (jet 63 → 36) : 7 dégâts − "
                            "BE 3 − armure 1 = 3 blessures ; il lui en reste 8.")
    assert (hit.raw_damage, hit.armour, hit.wounds_lost, hit.wounds_left) == (7, 1, 3, 8)
    assert resolve_attack(setup, 72).sentence == "Aldric manque Grolk (jet 72 > 65)."
    parry = attack_setup(ALDRIC, GROLK, defence="parade", guard=Guard(parry_prepared=True))
    assert resolve_attack(parry, 30, 45).sentence == (
        "Aldric touche Grolk (jet 30 ≤ 65), mais Grolk pare (jet 45 ≤ 45) : aucun dégât.")
    dodge = attack_setup(GROLK, ALDRIC, defence="esquive", rules=text)
    assert resolve_attack(dodge, 30, 12).sentence == (
        "Grolk touche Aldric (jet 30 ≤ 45), mais Aldric esquive (jet 12 ≤ 40) : l’attaque "
        "est manquée, pas de jet de dégâts.")
    # 30 -> 03: head; Aldric's armour 1, BE 4; dagger 1 + d10 1 = 2 -> 2 - 4 - 1 < 0 -> 0
    nothing = resolve_attack(attack_setup(GROLK, ALDRIC, "dague"), 30, damage_roll=1)
    assert nothing.sentence == ("Grolk touche Aldric à la tête (jet 30 → 03) : 2 dégâts − "
                                "BE 4 − armure 1 = 0 blessure ; il lui en reste 12.")
    failed = resolve_attack(dodge, 30, 41, 5)
    assert failed.sentence == (
        "Grolk touche Aldric à la tête (jet 30 → 03) malgré son esquive (jet 41 > 40) : "
        "8 dégâts − BE 4 − armure 1 = 3 blessures ; il lui en reste 9.")
    last = resolve_attack(attack_setup(ALDRIC, GROLK, wounds=2, rules=text), 63,
                          damage_roll=4)
    assert last.sentence.endswith("= 3 blessures ; il ne lui en reste aucune.")


def test_off_hand_minus_20_d100_atk_5() -> None:
    """D100-ATK-5: the off hand has −20, in melee and at range (the text's value, pinned)."""
    text = Rules(off_hand_modifier=-20)
    melee = target_number(ALDRIC, "dague", hand="non_directrice", rules=text)
    assert melee.total == 45 and [m.value for m in melee.modifiers] == [-20]
    assert "D100-ATK-5" in melee.modifiers[0].rules
    shot = target_number(BRUNE, "pistolet", hand="non_directrice", distance=4, rules=text)
    assert shot.total == 30 and shot.modifiers[0].rules == ("D100-ATK-5",)
    setup = attack_setup(ALDRIC, GROLK, "dague", hand="non_directrice", rules=text)
    assert resolve_attack(setup, 45, damage_roll=1).hit and not resolve_attack(setup, 46).hit
    assert target_number(ALDRIC, "dague", hand="non_directrice",
                         rules=Rules(off_hand_modifier=-10)).total == 55


def test_unreachable_zone_substituted_d100_atk_6() -> None:
    """D100-ATK-6: a halfling cannot reach a troll's head: the blow hits its body."""
    halfling = fighter("Pip", "héros", CC=60)
    troll = fighter("Troll", "monstres", E=50, B=30, PA_corps=2)
    # pinned: bare hands strike as the text's default one-handed weapon (+3)
    setup = attack_setup(halfling, troll, unreachable=["tête"],
                         rules=Rules(default_weapon="arme_a_une_main"))
    # 51 -> 15: head, unreachable -> body (armour 2); 6 + 3 - BE 5 - 2 = 2
    result = resolve_attack(setup, 51, damage_roll=6)
    assert (result.rolled_location, result.location) == ("tête", "corps")
    assert result.substituted and result.wounds_lost == 2 and "D100-ATK-6" in result.rules
    assert "tête hors d’atteinte" in result.sentence
    # agreement: the head is replaced, the blow lands on the body (not « tête …
    # remplacé par corps »); the steps carry the text's numbers 1–5 (D100-ATK-1..4)
    steps = result.steps()
    assert ("2. Localisation : 51 inversé → 15, tête, hors d’atteinte ; le coup porte sur "
            "le corps (D100-ATK-2, D100-ATK-6).") in steps  # B104
    assert [line[:2] for line in steps if line[:1].isdigit()] == ["1.", "2.", "3.", "4.", "5."]
    assert not any("remplacé par" in line for line in steps)
    assert d100.substitute_location("tête", ["tête", "corps"]) == "bras droit"
    assert d100.substitute_location("bras gauche", ["tete"]) == "bras gauche"
    for zone, order in NEAREST_LOCATIONS.items():
        assert sorted(order) == sorted(z for z in LOCATIONS if z != zone)
    with pytest.raises(EscarmoucheError, match="D100-ATK-6"):
        attack_setup(halfling, troll, unreachable=LOCATIONS)
    with pytest.raises(EscarmoucheError, match="D100-ATK-6"):
        attack_setup(halfling, troll, unreachable=["queue"])


def test_rider_or_mount_d100_atk_7() -> None:
    """D100-ATK-7: against a mounted character the attacker chooses rider or mount."""
    rider = fighter("Hugues", "héros", E=30, B=10, Ag=20)
    horse = fighter("Destrier", "héros", E=50, B=20, Ag=10)
    at_rider = attack_setup(GROLK, rider, mount=horse)
    assert at_rider.defender.name == "Hugues" and "D100-ATK-7" in at_rider.rules
    # pinned: the text's default one-handed weapon (+3)
    at_horse = attack_setup(GROLK, rider, mount=horse, aim="monture",
                            rules=Rules(default_weapon="arme_a_une_main"))
    assert at_horse.defender.name == "Destrier" and at_horse.rider == "Hugues"
    # 37 -> 73: body; 5 + 3 - BE 5 = 3; 20 - 3 = 17
    result = resolve_attack(at_horse, 37, damage_roll=5)
    assert result.sentence == ("Grolk touche Destrier (monture de Hugues) au corps (jet 37 → "
                               "73) : 8 dégâts − BE 5 − armure 0 = 3 blessures ; il lui en "
                               "reste 17.")
    with pytest.raises(EscarmoucheError, match="D100-ATK-7"):
        attack_setup(GROLK, rider, aim="monture")
    with pytest.raises(EscarmoucheError, match="D100-ATK-7"):
        attack_setup(GROLK, rider, mount=horse, aim="selle")


def test_rider_or_mount_in_encounter_d100_atk_7() -> None:
    rider = fighter("Hugues", "héros", E=30, B=10, Ag=20)
    horse = fighter("Destrier", "héros", E=50, B=20, Ag=10)
    # Grolk 30 + 10 = 40 first; Hugues 20 + 1 = 21, Destrier 10 + 1 = 11
    enc = started([GROLK, rider, horse], [10, 1, 1], montures={"Hugues": "Destrier"},
                  rules=Rules(default_weapon="arme_a_une_main"))  # pinned: +3
    enc.act("Grolk", "attaquer", ScriptedRolls([37, 5]), cible="Hugues",
            visee="monture")
    assert enc.fighter("Destrier").tracks["B"] == 17
    assert enc.fighter("Hugues").tracks["B"] == 10
    with pytest.raises(EscarmoucheError, match="D100-ATK-7"):
        started([GROLK, rider, horse], [10, 1, 1], montures={"Hugues": "Hugues"})


# -- D100-TWO-1/2 ------------------------------------------------------------------------------


def test_two_weapon_lists_d100_two_1() -> None:
    """D100-TWO-1: main hand among six weapons, off hand among six; else refused."""
    assert check_two_weapons("rapière", "main gauche").main == "rapiere"
    assert check_two_weapons("fléau", "brise-lame").off == "brise_lame"
    with pytest.raises(EscarmoucheError, match="D100-TWO-1"):
        check_two_weapons("arme_a_deux_mains", "dague")
    with pytest.raises(EscarmoucheError, match="D100-TWO-1"):
        check_two_weapons("dague", "rapiere")
    with pytest.raises(EscarmoucheError, match="D100-TWO-1"):
        started([ALDRIC, GROLK], [4, 10],
                equipement={"Aldric": {"directrice": "arc", "non_directrice": "dague"}})
    with pytest.raises(EscarmoucheError, match="D100-ATK-3"):
        started([ALDRIC, GROLK], [4, 10], equipement={"Aldric": {"directrice": "épée"}})
    enc = started([ALDRIC, GROLK], [4, 10], equipement={"Aldric": {"directrice": "fleau"}})
    before = enc.to_json()
    with pytest.raises(EscarmoucheError, match="D100-TWO-1"):
        enc.act("Aldric", "degainer", arme="fleuret", main="non_directrice")
    assert enc.to_json() == before
    enc.act("Aldric", "degainer", arme="bouclier", main="non_directrice")
    assert enc.fighter("Aldric").flags["hands"] == {"directrice": "fleau",
                                                    "non_directrice": "bouclier"}


def test_either_hand_no_extra_attack_d100_two_2() -> None:
    """D100-TWO-2: either hand may attack, the off hand at −20 CC (pinned), no extra attack."""
    enc = started([ALDRIC, GROLK], [4, 10], equipement={
        "Aldric": {"directrice": "arme_a_une_main", "non_directrice": "dague"}},
        rules=Rules(off_hand_modifier=-20))
    # off hand: 65 - 20 = 45; 45 hits; 45 -> 54 left arm (Grolk armour 1); 4 + 1 - 3 - 1 = 1
    enc.act("Aldric", "attaquer", ScriptedRolls([45, 4]), cible="Grolk",
            main="non_directrice")
    attack = events(enc, "attaque")[-1]
    assert attack.data["target"]["total"] == 45 and attack.data["wounds_lost"] == 1
    assert "D100-TWO-2" in attack.rules
    with pytest.raises(EscarmoucheError, match="D100-ACT-2"):
        enc.act("Aldric", "attaquer", ScriptedRolls([10, 4]), cible="Grolk")


# -- d100 attack (D100-ATK-*): `d100/attaque` ---------------------------------------------


def test_b104_a_substituted_location_cites_its_rules_once_d100_atk_6() -> None:
    """B104: the location step of a blow on an unreachable zone ended with two rule
    citations in a row, « … le coup porte sur le corps (D100-ATK-6) (D100-ATK-2). »"""
    from escarmouche.systems import d100

    def perso(name: str, cc: int) -> Combatant:
        return Combatant(name, "x", {"CC": cc, "CT": 40, "F": 20, "E": 45, "Ag": 30,
                                     "M": 4, "B": 14})

    result = d100.resolve_attack(d100.attack_setup(perso("Pippo", 40), perso("Grolk", 40),
                                                   "dague", unreachable={"tête"}),
                                 1, damage_roll=5)
    step = next(line for line in result.steps() if line.startswith("2."))
    assert step.endswith("le coup porte sur le corps (D100-ATK-2, D100-ATK-6)."), step
    for line in result.steps():
        assert not re.search(r"\)\s*\(", line), line


# -- the simulation pages (`d100/simulation`, `d12/simulation`, `d20/simulation`) ---------


def test_b124_a_two_weapon_refusal_states_a_requirement_and_a_choice_d100_two_1() -> None:
    """B124: « la main directrice tient l’une de ces armes, arme à une main, dague, … et
    rapière »: a requirement written as a fact, and a choice listed with « et »."""
    from escarmouche.systems import d100

    for main, off in (("arme_a_deux_mains", "bouclier"), ("rapiere", "arme_a_deux_mains")):
        with pytest.raises(EscarmoucheError) as caught:
            d100.check_two_weapons(main, off)
        text = assert_refusal_shape(caught.value)
        assert "doit tenir une arme à choisir parmi «\u00a0" in text, text
        assert "\u00a0» ou «\u00a0" in text and " tient " not in text, text


def test_b130_an_unknown_weapon_is_refused_with_a_choice_of_names_d100_atk_3() -> None:
    """B130: « arme inconnue ; armes connues : mains_nues, dague, … et pistolet »: a second
    colon, engine ids the reader never types (the catalogue reads the French names)."""
    from escarmouche.systems import d100

    with pytest.raises(EscarmoucheError) as caught:
        d100.get_weapon("bazooka")
    text = assert_refusal_shape(caught.value)
    assert "arme inconnue, à choisir parmi «\u00a0mains nues\u00a0», «\u00a0dague\u00a0»" in text
    assert "\u00a0» ou «\u00a0pistolet\u00a0»" in text, text


# -- the edition pages ---------------------------------------------------------------------


def test_b178_an_attack_line_says_how_a_modified_threshold_is_made_d100_two_2() -> None:
    """B178: D100-TWO-2, D100-RANGED-4/5: « Corbin manque Aubert (jet 35 > 30) » in a log,
    beside a CC of 50, read as a mistake; a threshold with modifiers now says how it is
    made, and a bare one says nothing more."""
    from escarmouche import Combatant
    from escarmouche.systems.d100.attack import attack_setup, resolve_attack
    from escarmouche.systems.d100.narration import logged_attack_sentence

    corbin = Combatant("Corbin", "a", {"CC": 50, "CT": 30, "F": 30, "E": 30, "Ag": 30,
                                        "M": 4, "B": 10})
    aubert = Combatant("Aubert", "b", {"CC": 40, "CT": 30, "F": 30, "E": 30, "Ag": 30,
                                        "M": 4, "B": 10})
    from escarmouche.systems.d100 import Rules

    malus = -Rules().off_hand_modifier  # the rules' declaration, not a typed value
    off = resolve_attack(attack_setup(corbin, aubert, hand="non_directrice"), 35)
    text = logged_attack_sentence(off)
    assert "Seuil" not in off.sentence  # the result's display has it among its steps
    assert text.endswith(f"Seuil d’attaque : CC 50 − {malus} (main non directrice) = "
                         f"{50 - malus}."), text
    plain = logged_attack_sentence(resolve_attack(attack_setup(corbin, aubert), 55))
    assert "Seuil" not in plain, plain
