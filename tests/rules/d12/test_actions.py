"""System d12 (seed 002), the turn and the action list: D12-TIME-1, D12-ACT-1.

The turn's duration (D12-TIME-1), the action list as data with its catalogue and
resolvers (D12-ACT-1), the French labels of the options and the kinds of error; in the
encounter, no invented action economy and the fight's duration.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from escarmouche import EscarmoucheError
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter
from escarmouche.errors import IllegalActionError, ParameterError
from escarmouche.systems import d12
from escarmouche.systems.base import ActionSpec
from tests.helpers.d12 import ambushed, party

# =====================================================================================
# D12-TIME-1
# =====================================================================================


def test_turn_duration_d12_time_1() -> None:
    """D12-TIME-1: 5 to 10 s a turn, 10 turns = 1 minute."""
    assert d12.elapsed_minutes(10) == 1
    assert d12.elapsed_minutes(3) == Fraction(3, 10)
    assert d12.elapsed_seconds(3) == (15, 30)
    with pytest.raises(EscarmoucheError, match="D12-TIME-1"):
        d12.elapsed_minutes(-1)


# =====================================================================================
# D12-ACT-1: the action list as data
# =====================================================================================


def test_action_list_is_data_d12_act_1() -> None:
    """D12-ACT-1: at least Attaquer, Se déplacer, Communiquer (free); editable."""
    ids = {a.id: a for a in d12.DEFAULT_ACTIONS}
    assert set(ids) == {"attaquer", "se_deplacer", "communiquer"}
    assert ids["communiquer"].cost == "libre"
    assert ids["attaquer"].cost != "libre"
    custom = d12.Rules(actions=(*d12.DEFAULT_ACTIONS,
                                ActionSpec("se_cacher", "Se cacher", "action")))
    assert [a.id for a in custom.actions][-1] == "se_cacher"
    with pytest.raises(EscarmoucheError, match=r"communiquer.*D12-ACT-1"):
        d12.Rules(actions=d12.DEFAULT_ACTIONS[:2])


def test_catalogue_and_resolvers_d12_act_1() -> None:
    """D12-ACT-1: the catalogue is read from the rules; every action names a resolver
    through ``kind``; an action a designer adds without one shares the declared resolver
    and gets a French doc; an unknown kind is refused (ParameterError)."""
    rules = d12.Rules(actions=(*d12.DEFAULT_ACTIONS, ActionSpec("se_cacher", "Se cacher")))
    catalogue = d12.SYSTEM.catalogue(rules)
    assert list(catalogue) == ["attaquer", "se_deplacer", "communiquer", "se_cacher"]
    assert catalogue["se_cacher"].resolver_key == d12.DECLARED
    assert catalogue["se_cacher"].doc
    assert all(a.doc for a in catalogue.values())
    assert {a.resolver_key for a in catalogue.values()} <= set(d12.RESOLVERS)
    assert d12.SYSTEM.catalogue(d12.Rules()) == d12.ACTIONS
    with pytest.raises(ParameterError, match="kind"):
        d12.Rules(actions=(*d12.DEFAULT_ACTIONS, ActionSpec("voler", "Voler", kind="magie")))
    with pytest.raises(ParameterError, match="deux fois"):
        d12.Rules(actions=(*d12.DEFAULT_ACTIONS, d12.DEFAULT_ACTIONS[0]))
    again = d12.SYSTEM.rules_from_json(d12.SYSTEM.rules_to_json(rules))
    assert again == rules


def test_option_labels_and_rules_display() -> None:
    """Every option and every option value has a French label; the rules display as a
    French table in a notebook."""
    import dataclasses

    assert [o.name for o in d12.SYSTEM.options()] == [
        f.name for f in dataclasses.fields(d12.Rules)]
    assert all(o.label and o.rules for o in d12.SYSTEM.options())
    critical = d12.SYSTEM.option("option_critique")
    assert set(critical.choices or {}) == set(d12.CRITICAL_OPTIONS)
    assert critical.value_label("explosif").startswith("(b)")
    assert set(d12.MODE_LABELS) == set(d12.Mode)
    rules = d12.Rules()
    html = rules._repr_html_()
    assert "Options du système d12" in html
    assert critical.value_label(rules.critical_option) in html


def test_error_kinds_d12() -> None:
    """One error class per kind of refusal: a bad value is a ParameterError, a
    documented bound a RuleBoundError, a forbidden action an IllegalActionError."""
    with pytest.raises(ParameterError):
        d12.hit_odds(bonus=3, defence=41)
    with pytest.raises(ParameterError):
        d12.net_mode(-1, 0)
    with pytest.raises(ParameterError):
        d12.initiative(party(), ScriptedRolls([1, 2, 3]), ambush_by="dragons")
    with pytest.raises(ParameterError):
        d12.Rules(max_roll_off_rounds=0)
    with pytest.raises(ParameterError):
        d12.critical_option_values("1d8", defence=10, next_attack_chance=2)
    enc = ambushed()
    with pytest.raises(IllegalActionError):
        enc.act("Brune", "attaquer", ScriptedRolls([5]), cible="Grolk")
    with pytest.raises(IllegalActionError, match="action libre"):
        enc.act("Brune", "communiquer")


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
