"""System d12 (seed 002) through the encounter engine: atomic rejections (CORE-ERR) and
reproducible automated fights (CORE-RNG, CORE-LOG), with dice fixed by ScriptedRolls.

A rule's own fights are filed with the rule: the ambush in ``test_surprise.py``, the
environment and the group's order in ``test_initiative.py``, critical options and
advantage in ``test_attack.py``, the action economy and the duration in
``test_actions.py``.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import Combatant, EscarmoucheError
from escarmouche.encounter import Encounter
from escarmouche.errors import DiceError, IllegalActionError, ParameterError
from tests.helpers.d12 import ambushed, fighter, party

# =====================================================================================
# Through the encounter engine
# =====================================================================================


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
