"""System d12 (seed 002) through the encounter engine: every D12-* rule in a fight.

The ambush and the environment (D12-SURPRISE-1/2, D12-INIT-4/5), critical options and
advantage (D12-CRIT-2, D12-ADV-1, D12-EXPLODE-1), no invented action economy
(D12-ACT-1), the fight's duration (D12-TIME-1), atomic rejections (CORE-ERR) and
reproducible automated fights (CORE-RNG, CORE-LOG), with dice fixed by ScriptedRolls.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import Combatant, Effect, EscarmoucheError, Timing
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter
from escarmouche.errors import DiceError, IllegalActionError, ParameterError
from escarmouche.systems import d12
from escarmouche.systems.base import ENVIRONMENT, ActionSpec
from tests.helpers.d12 import AFTER_BONUS, ambushed, fighter, party

# =====================================================================================
# Through the encounter engine
# =====================================================================================


def test_encounter_ambush_and_environment_d12_surprise_1() -> None:
    """D12-SURPRISE-1/2 and D12-INIT-5 in the engine: turn 0 = the bonus turn, then the
    group order with the environment after the tied monstres."""
    enc = ambushed()
    assert enc.turn == 0 and enc.current == "Grolk"
    assert enc.state.order == ["Grolk", "Aldric"]
    kinds = [e.kind for e in enc.log]
    assert kinds[:3] == ["surprise", "debut_tour", "tour_bonus"]
    assert "initiative" not in kinds and "ordre_initiative" not in kinds
    assert [d.value for d in enc.log[0].dice] == [5, 8]
    enc.end_activation()
    with pytest.raises(EscarmoucheError, match="CORE-RNG"):
        enc.end_activation()  # ending the bonus turn rolls group initiative
    assert enc.turn == 0 and enc.current == "Aldric"
    enc.end_activation(ScriptedRolls(AFTER_BONUS))
    assert enc.turn == 1
    assert enc.state.order == ["Grolk", ENVIRONMENT, "Brune", "Aldric"]
    kinds = [e.kind for e in enc.log]
    after = kinds[kinds.index("fin_tour"):]
    assert after[:5] == ["fin_tour", "fin_surprise", "initiative", "ordre_initiative",
                         "debut_tour"]
    rolled = next(e for e in enc.log if e.kind == "initiative")
    assert [d.value for d in rolled.dice] == [4, 10, 11]
    assert "l’environnement passe en dernier" in next(
        e for e in enc.log if e.kind == "ordre_initiative").text


def test_encounter_critical_advantage_consumed_d12_crit_2() -> None:
    """D12-CRIT-2 (c): Grolk rolls 12 on Brune (defence 11) and takes « avantage »:
    1d8+2 with a 3 deals 5 (Brune 9 → 4) and marks Brune. In turn 1 Grolk attacks
    Brune again: the mark is consumed, two d12 (2, 9) keep 9: 9 + 4 = 13 ≥ 11, hit;
    damage 1 + 2 = 3 (Brune 4 → 1)."""
    enc = ambushed()
    enc.act("Grolk", "attaquer", ScriptedRolls([12, 3]), cible="Brune", option="avantage")
    assert enc.fighter("Brune").tracks["PV"] == 4
    marks = [e for e in enc.state.effects if e.kind == "avantage_contre"]
    assert len(marks) == 1 and marks[0].timing is Timing.UNTIL_NEXT_TURN_OF
    assert marks[0].until_turn_of == "Brune" and marks[0].source == "Grolk"
    enc.end_activation()  # Aldric (bonus turn)
    enc.end_activation(ScriptedRolls(AFTER_BONUS))  # group initiative; turn 1: Grolk
    assert enc.current == "Grolk"
    rng = ScriptedRolls([2, 9, 1])
    events = enc.act("Grolk", "attaquer", rng, cible="Brune")
    assert rng.remaining == 0
    assert not [e for e in enc.state.effects if e.kind == "avantage_contre"]
    attack = next(e for e in events if e.kind == "attaque")
    assert attack.data["attack"]["mode"] == "avantage"
    assert [d.value for d in attack.dice] == [2, 9]
    assert any(e.kind == "effet_fin" and "consommé" in e.text for e in events)
    assert enc.fighter("Brune").tracks["PV"] == 1


def test_encounter_advantage_expires_at_targets_turn_d12_crit_2() -> None:
    """D12-CRIT-2 (c): unused, the mark ends at the start of Brune's next turn."""
    enc = ambushed()
    enc.act("Grolk", "attaquer", ScriptedRolls([12, 3]), cible="Brune", option="avantage")
    enc.end_activation()  # Aldric
    enc.end_activation(ScriptedRolls(AFTER_BONUS))  # group initiative; turn 1: Grolk
    enc.end_activation()  # the environment
    assert [e for e in enc.state.effects if e.kind == "avantage_contre"]
    enc.end_activation()  # Brune's activation starts
    assert enc.current == "Brune"
    assert not [e for e in enc.state.effects if e.kind == "avantage_contre"]
    assert any(e.kind == "effet_fin" and "Brune" in e.text for e in enc.log)


def test_encounter_advantage_cancels_disadvantage_d12_adv_1() -> None:
    """D12-ADV-1 in the engine: circumstances avantage + desavantage → one d12."""
    enc = ambushed()
    rng = ScriptedRolls([7])
    enc.act("Grolk", "attaquer", rng, cible="Aldric", avantage=True, desavantage=True)
    assert rng.used == 1  # 7 + 4 = 11 < 13: miss, no damage die
    assert enc.log[-1].data["attack"]["mode"] == "normal"


def test_encounter_explosive_critical_d12_explode_1() -> None:
    """D12-CRIT-2 (b): Grolk's 12, then 2d8!+2 with 8, 2, 4: 10 + 4 + 2 = 16 ≥ 12 PV."""
    enc = ambushed()
    enc.act("Grolk", "attaquer", ScriptedRolls([12, 8, 2, 4]), cible="Aldric",
            option="explosif")
    assert enc.fighter("Aldric").out
    dmg = next(e for e in enc.log if e.kind == "degats")
    assert dmg.data["damage"]["expression"] == "2d8!+2"
    assert [d.value for d in dmg.dice] == [8, 2, 4]


def test_encounter_environment_slot_d12_init_5() -> None:
    """D12-INIT-5: the environment activates like a fighter; effects borne by it tick."""
    enc = ambushed()
    enc.add_effect(Effect("", "Éboulement", Timing.ACTIVATION_START, bearer=ENVIRONMENT,
                          remaining=2))
    enc.end_activation()
    enc.end_activation(ScriptedRolls(AFTER_BONUS))
    enc.end_activation()
    assert enc.current == ENVIRONMENT
    assert enc.actions() == []
    assert any(e.kind == "effet_decompte" and "encore 1" in e.text for e in enc.log)
    assert enc.log[-1].kind == "environnement" and "Éboulement" in enc.log[-1].text


def test_encounter_group_acts_and_communicates_d12_init_4() -> None:
    """D12-INIT-4: at Brune's activation, Aldric (same group) may « Communiquer » (free);
    Grolk may not; Aldric may not attack out of his turn."""
    enc = ambushed()
    for dice in ((), AFTER_BONUS, (), ()):
        enc.end_activation(ScriptedRolls(dice))
    assert enc.current == "Brune"
    assert [e for e in enc.log if e.kind == "groupe"][-1].data["order"] == ["Brune", "Aldric"]
    assert [a.id for a in enc.actions("Aldric")] == ["communiquer"]
    enc.act("Aldric", "communiquer", message="Je prends le gobelin.")
    assert enc.log[-1].kind == "communication"
    before = enc.to_json()
    with pytest.raises(IllegalActionError, match="D12-ACT-1"):
        enc.act("Grolk", "communiquer")
    with pytest.raises(IllegalActionError, match="pas son tour"):
        enc.act("Aldric", "attaquer", ScriptedRolls([5]), cible="Grolk")
    assert enc.to_json() == before


def test_encounter_no_invented_economy_d12_act_1() -> None:
    """D12-ACT-1: no action economy: Grolk attacks, moves and attacks again in the
    same activation; a designer's action is logged as declared."""
    rules = d12.Rules(actions=(*d12.DEFAULT_ACTIONS,
                               ActionSpec("se_cacher", "Se cacher", "action",
                                          params=("ou",))))
    enc = Encounter("d12", party(), rules=rules)
    enc.start(ScriptedRolls([5, 8, 4, 10, 11]), embuscade_par="monstres")
    enc.act("Grolk", "attaquer", ScriptedRolls([1]), cible="Aldric")
    enc.act("Grolk", "se_deplacer", description="vers la porte")
    enc.act("Grolk", "attaquer", ScriptedRolls([2]), cible="Aldric")
    enc.act("Grolk", "se_cacher", ou="derrière le tonneau")
    assert [e.kind for e in enc.log[-4:]] == ["attaque", "deplacement", "attaque", "action"]
    assert "Se cacher" in enc.log[-1].text
    again = Encounter.from_json(enc.to_json())
    assert again.rules == rules and again.to_json() == enc.to_json()


def test_encounter_rejections_are_atomic_core_err() -> None:
    """CORE-ERR: a rejected action (bad weapon, unknown option, unknown target or
    action, dead target) leaves the state and the rng as they were."""
    enc = ambushed()
    before = enc.to_json()
    rng = random.Random(4)
    state = rng.getstate()
    bad: list[tuple[str, dict[str, object], type[Exception], str]] = [
        ("attaquer", {"cible": "Brune", "arme": "1d8+"}, DiceError, "D12-CRIT-2"),
        ("attaquer", {"cible": "Brune", "option": "double"}, ParameterError, "D12-CRIT-2"),
        ("attaquer", {"cible": "Personne"}, ParameterError, "Personne"),
        ("attaquer", {"cible": "Grolk"}, IllegalActionError, "lui-même"),
        ("attaquer", {}, ParameterError, "cible"),
        ("attaquer", {"cible": "Brune", "avantage": "oui"}, ParameterError, "D12-ADV-1"),
        ("attaquer", {"cible": "Brune", "portee": 3}, ParameterError, "portee"),
        ("voler", {}, ParameterError, "action inconnue"),
    ]
    for action, params, exc, text in bad:
        with pytest.raises(exc, match=text):
            enc.act("Grolk", action, rng, **params)
        assert enc.to_json() == before
        assert rng.getstate() == state


def test_encounter_roster_and_options_errors_core_err() -> None:
    with pytest.raises(EscarmoucheError, match="Défense 41 refusée"):
        Encounter("d12", [fighter("A", "x", defense=41)])
    with pytest.raises(EscarmoucheError, match="Aucune valeur pour «\u00a0défense\u00a0»\u00a0:"
                                               " cette caractéristique"):
        Encounter("d12", [Combatant("A", "x", {"PV": 3})])
    enc = Encounter("d12", party())
    with pytest.raises(EscarmoucheError, match="surprise_by"):
        enc.start(random.Random(1), surprise_by="monstres")
    with pytest.raises(DiceError, match="Grolk"):
        enc.start(random.Random(1), armes={"Grolk": "d"})
    with pytest.raises(EscarmoucheError, match="Personne"):
        enc.start(random.Random(1), armes={"Personne": "1d4"})
    assert not enc.state.started


def test_encounter_duration_d12_time_1() -> None:
    """D12-TIME-1 at the end of a fight: turns 0 and 1 begun = 2 turns, 10 to 20 s.
    Grolk's 12 with « maximum » on Brune: 10 ≥ 9 PV; Brune, out, rolls no group
    initiative (Aldric 4, Grolk 11); in turn 1, Grolk's 12 with « explosif » on
    Aldric: 2d8!+2 with 8, 8, 1 then 1: 17 + 1 + 2 = 20 ≥ 12 PV."""
    enc = ambushed()
    enc.act("Grolk", "attaquer", ScriptedRolls([12]), cible="Brune", option="maximum")
    assert enc.fighter("Brune").out
    enc.end_activation()  # Aldric (bonus turn)
    rng = ScriptedRolls([4, 11])
    enc.end_activation(rng)  # group initiative without Brune; turn 1: Grolk
    assert rng.remaining == 0
    enc.act("Grolk", "attaquer", ScriptedRolls([12, 8, 8, 1, 1]), cible="Aldric",
            option="explosif")
    assert enc.finished
    last = enc.log[-1]
    assert last.kind == "duree" and last.data["turns"] == 2
    assert last.data["seconds"] == [10, 20]


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.booleans(), st.sampled_from([None, "héros", "monstres"]))
def test_automated_fight_deterministic_and_round_trips(seed: int, env: bool,
                                                       ambush: str | None) -> None:
    """CORE-RNG / CORE-LOG: same seed ⇒ same log; the fight survives JSON exactly."""
    def fight() -> Encounter:
        enc = Encounter("d12", party())
        rng = random.Random(seed)
        enc.start(rng, environnement=env, embuscade_par=ambush)
        enc.run(rng, max_turns=30)
        return enc

    a, b = fight(), fight()
    assert a.to_json() == b.to_json()
    assert Encounter.from_json(a.to_json()).to_json() == a.to_json()
    assert a.finished


def test_environment_speaks_of_a_tie_only_when_there_is_one_d12_init_5() -> None:
    """D12-INIT-5: the environment's line names the group it follows only when a group
    is at exactly 12. Aldric 5 + 2 = 7, Brune 3, Grolk 9 + 1 = 10: nobody at 12."""
    enc = Encounter("d12", party())
    enc.start(ScriptedRolls([5, 3, 9]), environnement=True)
    assert enc.state.order == [ENVIRONMENT, "Grolk", "Aldric", "Brune"]
    line = next(e for e in enc.log if e.kind == "environnement")
    assert "égalité" not in line.text
