"""System d100 (seed 001), RULES.md: the encounter, scripted and automated
fights, bad input, rules round trip, turn plans (D100-ACT-1..4) and custom
weapons (D100-RANGED-5).

Expected values are derived by hand from the rules in the comments next to them.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import Combatant, EscarmoucheError
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter
from escarmouche.errors import ParameterError
from escarmouche.systems import d100
from escarmouche.systems.d100 import ACTION_DEFS, ACTIONS, Rules, check_turn
from tests.helpers.d100 import ALDRIC, BRUNE, GROLK, events, fighter, started

# -- the encounter ----------------------------------------------------------------------------


def test_scripted_fight() -> None:
    """A whole fight with fixed dice, from initiative to the last blow (unarmed fighters
    strike as the text's default one-handed weapon, +3: pinned)."""
    enc = started([ALDRIC, GROLK], [4, 10], rules=d100.Rules(default_weapon="arme_a_une_main"))
    init = events(enc, "initiative")[0]
    assert [d.value for d in init.dice] == [4, 10] and enc.current == "Aldric"
    enc.act("Aldric", "attaquer", ScriptedRolls([63, 4]), cible="Grolk")
    first = events(enc, "attaque")[0]
    assert first.text == ("Aldric touche Grolk au bras gauche (jet 63 → 36)\u00a0: 7 dégâts − "
                          "BE 3 − armure 1 = 3 blessures\u202f; il lui en reste 8.")
    assert [(d.faces, d.value) for d in first.dice] == [(100, 63), (10, 4)]
    assert enc.fighter("Grolk").tracks["B"] == 8
    enc.end_activation()
    # 30 <= 45; Aldric dodges 41 > 40: fails; 30 -> 03 head; 5 + 3 - 4 - 1 = 3: 12 - 3 = 9
    enc.act("Grolk", "attaquer", ScriptedRolls([30, 41, 5]), cible="Aldric",
            defense="esquive")
    assert enc.fighter("Aldric").tracks["B"] == 9
    assert enc.fighter("Aldric").flags["dodges"] == 1
    enc.end_activation()
    # round 2: 12 <= 65, 12 -> 21: right arm, no armour; 10 + 3 - 3 = 10 >= 8: out
    enc.act("Aldric", "attaquer", ScriptedRolls([12, 10]), cible="Grolk")
    assert enc.fighter("Grolk").tracks["B"] == 0 and enc.fighter("Grolk").out
    assert enc.finished and enc.outcome == "victoire du camp « héros »"
    assert Encounter.from_json(enc.to_json()).to_json() == enc.to_json()


def test_bad_input_is_french_and_changes_nothing() -> None:
    with pytest.raises(EscarmoucheError) as err:
        Encounter("d100", [fighter("Aldric", "héros", CC=140), GROLK])
    assert str(err.value) == ("Valeur 140 refusée pour «\u00a0CC\u00a0»\u00a0: un nombre entier "
                              "entre 0 et 100 est attendu pour Aldric (D100-ATK-1).")
    with pytest.raises(ParameterError, match="Aucune valeur pour «\u00a0CT\u00a0»\u00a0:"
                                             " caractéristique manquante"):
        Encounter("d100", [Combatant("X", "x", {"CC": 50}), GROLK])
    enc = started([BRUNE, GROLK], [9, 1], equipement={"Brune": {"directrice": "arc"}})
    before = enc.to_json()
    rng = ScriptedRolls([10, 5])
    for params in ({"cible": "Grolk", "distance": -3},
                   {"cible": "Grolk", "distance": 200},
                   {"cible": "Grolk"},
                   {"cible": "Personne", "distance": 5},
                   {"cible": "Grolk", "distance": 5, "defense": "parade"},
                   {"cible": "Grolk", "distance": 5, "defence": "parade"},
                   {"target": "Grolk", "distance": 5},
                   {"cible": "Grolk", "distance": 5, "main": "gauche"}):
        with pytest.raises(EscarmoucheError):
            enc.act("Brune", "attaquer", rng, **params)
        assert enc.to_json() == before and rng.used == 0
    with pytest.raises(EscarmoucheError, match="D100-ACT-3"):
        enc.act("Brune", "charge", rng, cible="Grolk", distance=5)  # a shot is standard
    with pytest.raises(EscarmoucheError, match="option"):
        started([BRUNE, GROLK], [9, 1], surprise="héros")


def test_automated_fight_round_trips_and_is_deterministic() -> None:
    roster = [ALDRIC, BRUNE, GROLK, fighter("Troll", "monstres", ["esquive"], B=15)]
    equipment = {"Brune": {"directrice": "pistolet"},
                 "Grolk": {"directrice": "arme_a_une_main", "non_directrice": "bouclier"}}

    def fight(seed: int) -> Encounter:
        enc = Encounter("d100", roster)
        enc.start(random.Random(seed), equipement=equipment)
        enc.run(random.Random(seed + 1), max_turns=40)
        return enc

    for seed in range(5):
        a, b = fight(seed), fight(seed)
        assert a.to_json() == b.to_json()
        assert a.finished
        text = a.to_json()
        assert Encounter.from_json(text).to_json() == text
        assert json.loads(text)["system"] == "d100"
        kinds = {e.kind for e in a.log}
        assert "attaque" in kinds


def test_rules_round_trip_and_validation() -> None:
    rules = Rules(off_hand_modifier=-10, surprised_can_defend=True)
    enc = Encounter("d100", [ALDRIC, GROLK], rules=rules)
    enc.start(ScriptedRolls([4, 10]))
    again = Encounter.from_json(enc.to_json())
    assert again.rules == rules
    with pytest.raises(EscarmoucheError):
        Rules(max_range_factor=0)
    with pytest.raises(EscarmoucheError):
        Rules(default_weapon="épée")


# actions whose legality depends on the plan alone (a second « préparer une parade »
# is refused by the state: a parry is already prepared, D100-PARRY-3)
_SIMPLE = ["viser", "se_deplacer", "course", "parler", "crier", "incantation", "charge",
           "attaque_brutale", "abandonner"]


@given(st.lists(st.sampled_from(sorted(ACTIONS)), max_size=6))
def test_turn_plan_invariants_d100_act_1(actions: list[str]) -> None:
    """D100-ACT-1/2: an accepted plan never exceeds two half actions, one attack, one
    casting; a refused one names D100-ACT-1, -2 or -4."""
    try:
        plan = check_turn(actions)
    except EscarmoucheError as err:
        assert err.rule in {"D100-ACT-1", "D100-ACT-2", "D100-ACT-4"}
        return
    assert plan.halves == sum(ACTION_DEFS[a].halves for a in actions) <= 2
    assert plan.attacks <= 1 and plan.castings <= 1
    assert plan.full == any(ACTION_DEFS[a].cost == "complete" for a in actions)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(_SIMPLE), max_size=5))
def test_encounter_checks_actions_one_by_one_like_the_whole_plan_d100_act_1(
    actions: list[str]
) -> None:
    """D100-ACT-1..4: the encounter accepts an action exactly when the plan so far plus
    that action passes ``check_turn``; a refused action changes nothing."""
    enc = started([ALDRIC, GROLK], [4, 10])
    accepted: list[str] = []
    for action in actions:
        params: dict[str, Any] = {"cible": "Grolk"} if action in ("charge",
                                                                   "attaque_brutale") else {}
        try:
            check_turn([*accepted, action])
            legal = True
        except EscarmoucheError:
            legal = False
        before = enc.to_json()
        if legal:
            enc.act("Aldric", action, ScriptedRolls([99]), **params)  # 99 > 65: a miss
            accepted.append(action)
        else:
            with pytest.raises(EscarmoucheError):
                enc.act("Aldric", action, ScriptedRolls([99]), **params)
            assert enc.to_json() == before


def test_custom_weapons_start_option_d100_ranged_5() -> None:
    """Weapons are data: a fight may add its own; a negative range is refused."""
    javelin = {"nom": "javelot", "degats": 2, "tir": True, "courte_portee": 8,
               "longue_portee": 16}
    enc = started([BRUNE, GROLK], [9, 1], armes={"javelot": javelin},
                  equipement={"Brune": {"directrice": "javelot"}})
    # 16 m: beyond short range (-20): CT 50 - 20 = 30; 30 hits; 30 -> 03 head: 5 + 2 - 3 = 4
    enc.act("Brune", "attaquer", ScriptedRolls([30, 5]), cible="Grolk", distance=16)
    assert enc.fighter("Grolk").tracks["B"] == 7
    with pytest.raises(EscarmoucheError, match="D100-RANGED-5"):
        started([BRUNE, GROLK], [9, 1],
                armes={"javelot": {**javelin, "courte_portee": -8}})
    with pytest.raises(EscarmoucheError, match="D100-RANGED-5"):
        d100.Weapon("fronde2", "fronde", 1, ranged=True, short_range=10, long_range=5)
