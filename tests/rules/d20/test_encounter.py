"""System d20 (seed 003) through the encounter and as a package: CORE-ERR, CORE-LOG,
CORE-RNG, the golden round, names, catalogue, displays and error kinds.

Bad rosters and rejected declarations (CORE-ERR), JSON round trips and reproducible
automated fights (CORE-LOG, CORE-RNG, D20-TIME-1, D20-OPP-2), the hand-derived outcomes
of the golden round (every D20-* rule), the French displays and labels, the catalogue
(D20-ACT-1), the kinds of error and the doctests of the package's modules.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import Combatant, Effect, EscarmoucheError, Timing
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter
from escarmouche.errors import IllegalActionError, ParameterError
from escarmouche.systems import d20
from tests.helpers import golden_runner
from tests.helpers.d20 import INIT_ROLLS, assert_rejected, pos, roster, started, to_gob

# -- CORE-ERR, CORE-LOG, CORE-RNG through the encounter --------------------------------------


def test_bad_roster_and_options() -> None:
    with pytest.raises(EscarmoucheError, match="PV"):
        Encounter("d20", [Combatant("A", "x", {"init": 1})])
    with pytest.raises(EscarmoucheError, match="VD"):
        Encounter("d20", [Combatant("A", "x", {"PV": 5, "VD": 500})])
    enc = Encounter("d20", roster())
    with pytest.raises(EscarmoucheError, match="option"):
        enc.start(ScriptedRolls(INIT_ROLLS), placements={})
    with pytest.raises(EscarmoucheError, match="occupée"):
        enc.start(ScriptedRolls(INIT_ROLLS), positions={"Thorin": [0, 0], "Pip": [0, 0]})
    assert not enc.state.started
    with pytest.raises(EscarmoucheError, match="refusée pour") as err:
        d20.Rules(save_target=0)
    assert err.value.field == "save_target"


def test_rejected_declaration_leaves_state_unchanged() -> None:
    """CORE-ERR: a bad reaction anywhere in the declaration rejects the whole action."""
    enc = to_gob(started())
    assert_rejected(enc, "D20-IMM-2", "Gob", "deplacement", chemin=[[2, 2]],
                    reactions=[{"par": "Thorin", "type": "attaque_opportunite"},
                               {"par": "Pip", "type": "contre"}])
    assert_rejected(enc, "D20-OPP-1", "Gob", "deplacement", chemin=[[2, 2]],
                    reactions=[{"by": "Thorin", "type": "attaque_opportunite"}])
    assert_rejected(enc, "CORE-DICE", "Gob", "attaquer", cible="Thorin", arme="3d")


def test_gm_places_a_fighter() -> None:
    enc = started()
    enc.act("Pip", "placer", case=[2, 2])
    assert pos(enc, "Pip") == [2, 2]
    assert_rejected(enc, "D20-OPP-2", "Pip", "placer", case=[1, 1])


def test_json_round_trip_mid_fight() -> None:
    """CORE-LOG: a d20 fight (flags, budgets, allowances) survives a JSON round trip."""
    effect = Effect("", "Venin", Timing.ACTIVATION_START, bearer="Gob", save_ends=True,
                    kind="degats_continus", per_tick={"PV": -1},
                    keywords=frozenset({"poison"}))
    enc = to_gob(started(d20.Rules(immediate_reset="debut_du_round"), effects=[effect]))
    enc.act("Gob", "deplacement", ScriptedRolls([2]), chemin=[[1, 0]],
            reactions=[{"par": "Thorin", "type": "attaque_opportunite"}])
    text = enc.to_json()
    again = Encounter.from_json(text)
    assert again.to_json() == text
    assert again.rules == enc.rules
    a, b = random.Random(4), random.Random(4)
    enc.run(a, max_turns=30)
    again.run(b, max_turns=30)
    assert enc.to_json() == again.to_json()


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32))
def test_automated_fight_invariants(seed: int) -> None:
    """CORE-RNG, D20-TIME-1, D20-OPP-2 (property): an automated fight is reproducible,
    every round is everyone's turn at most once in initiative order, no two standing
    fighters share a square, and PV stay in range."""
    def fight() -> Encounter:
        enc = Encounter("d20", roster(Gob={"VD": 3}))
        enc.run(random.Random(seed), max_turns=25)
        return enc

    enc = fight()
    assert json.dumps([e.to_json() for e in enc.log]) == json.dumps(
        [e.to_json() for e in fight().log])
    assert enc.finished
    order = enc.state.order
    for n in range(1, enc.turn + 1):
        acts = [e.actor for e in enc.log if e.kind == "activation" and e.turn == n]
        assert acts == [a for a in order if a in acts]
    standing = [f for f in enc.state.fighters.values() if f.standing]
    squares = [tuple(f.flags["pos"]) for f in standing]
    assert len(set(squares)) == len(squares)
    for f in enc.state.fighters.values():
        assert 0 <= f.tracks["PV"] <= f.maxima["PV"]


# -- the golden round (tests/golden/d20.json, played by tests/helpers/golden_runner.py) -----------


def test_golden_round_outcomes_by_hand() -> None:
    """D20-START-1, D20-ACT-1..3, D20-END-1/2, D20-OPP-1/2, D20-IMM-1/2 in one round of
    the golden file (its log is checked by tests/contract/test_golden.py); here, the hand-derived
    outcomes. Dice: initiative 15, 10, 14, 2 (Thorin 17, Pip 14, Gob 15, Grik 2); Thorin
    → Gob 14 + 5 ≥ 12 for 3, then 3 + 5 < 12 (action point); Thorin's save against
    Venin 4 + 5 < 10; Gob leaves (1, 1): Thorin's opportunity attack 10 + 5 for 2; Gob
    shoots Pip 16 + 3 ≥ 14 for 4; Pip's reaction 5 + 4 < 12; Pip's save against Effroi
    (peur, halfling) 5 + 5 = 10; Grik leaves (1, −1): Thorin's opportunity attack 20 + 5
    for 6 ≥ 6 PV; round 2, Thorin's save 15 + 5."""
    fight = golden_runner.load("d20")["fights"][0]
    enc, rng = golden_runner.play(d20.SYSTEM, fight)
    assert rng.remaining == 0
    pv = {n: f.tracks["PV"] for n, f in enc.state.fighters.items()}
    # Thorin 20 − 2 − 2; Pip 12 − 4; Gob 8 − 3 + 1 − 2 + 1 (round 2); Grik 6 − 6
    assert pv == {"Thorin": 16, "Pip": 8, "Gob": 5, "Grik": 0}
    assert pos(enc, "Gob") == [2, 2] and pos(enc, "Grik") == [1, -1]
    assert [e.name for e in enc.state.effects] == ["Régénération"]
    assert enc.turn == 2 and enc.current == "Gob"
    rules = {r for e in enc.log for r in e.rules}
    assert {f"D20-{x}" for x in ("TIME-1", "INIT-1", "START-1", "ACT-1", "ACT-3", "END-1",
                                 "END-2", "OPP-1", "OPP-2", "IMM-1", "IMM-2")} <= rules


# -- the package: names, catalogue, displays, error kinds ------------------------------------


def test_results_and_odds_display_in_french() -> None:
    """The book shows results and odds directly: French tables and sentences, no repr
    (the save against the text's 10, pinned)."""
    text = d20.Rules(save_target=10)
    shown = {
        "plan": d20.plan_turn(["simple", "simple"], action_points=1)._repr_html_(),
        "save": d20.resolve_save(6, 5, rules=text)._repr_html_(),
        "save_odds": d20.save_odds(5, rules=text)._repr_html_(),
        "duration": d20.duration_odds(5, max_turns=3, rules=text)._repr_html_(),
        "initiative": d20.roll_initiative(roster(), ScriptedRolls(INIT_ROLLS))._repr_html_(),
        "rules": d20.Rules(max_action_points_per_turn=None)._repr_html_(),  # pinned: no cap
    }
    for name, html in shown.items():
        assert not any(w in html for w in ("TurnPlan(", "SaveOdds(", "Fraction(", "Rules(")), name
    assert "action simple (point d’action)" in shown["plan"]
    assert "1d20 + 5 = 6 + 5 = 11 (10 requis), réussi" in shown["save"]
    assert "80,0" in shown["save_odds"] and "1,25 tour" in shown["duration"]
    assert "Thorin, Gob, Pip et Grik" in shown["initiative"]
    assert "aucun plafond" in shown["rules"]


def test_every_option_and_option_value_has_a_french_label() -> None:
    import dataclasses

    names = [f.name for f in dataclasses.fields(d20.Rules)]
    assert [o.name for o in d20.SYSTEM.options()] == names
    assert all(o.label and o.rules for o in d20.SYSTEM.options())
    assert set(d20.SYSTEM.option("immediate_reset").choices or {}) == set(d20.IMMEDIATE_RESETS)
    assert set(d20.SYSTEM.option("cancelled_action_spent").labels) == {True, False}
    assert d20.SYSTEM.option("points_action_max_par_tour").value_label(None) == "aucun plafond"


def test_catalogue_every_action_documented_and_resolved() -> None:
    """D20-ACT-1: one ActionSpec per action, each with a French doc and a resolver; the
    attack is « attaquer » (no alias for the old id)."""
    for action_id, spec in d20.ACTIONS.items():
        assert spec.id == action_id and spec.doc and spec.label
        assert spec.resolver_key in d20.RESOLVERS
        assert action_id in d20.ACTION_TIMINGS
    assert "attaquer" in d20.ACTIONS and "attaque" not in d20.ACTIONS
    assert d20.SYSTEM.catalogue(d20.Rules()) is d20.ACTIONS


def test_error_kinds() -> None:
    """CORE-ERR: a bad value is a ParameterError, a forbidden move an IllegalActionError,
    whatever the system; both leave the fight unchanged (no action point to start with,
    the text's default, pinned)."""
    enc = started(d20.Rules(default_action_points=0))
    bad: list[tuple[type[EscarmoucheError], str, str, dict[str, Any]]] = [
        (ParameterError, "Thorin", "attaquer", {"cible": "Personne"}),
        (ParameterError, "Thorin", "attaquer", {"cible": "Gob", "portee": "loin"}),
        (ParameterError, "Thorin", "attaquer", {"cible": "Gob", "bonus": True}),
        (ParameterError, "Thorin", "deplacement", {"chemin": "nord"}),
        (ParameterError, "Thorin", "deplacement", {}),
        (ParameterError, "Thorin", "voler", {}),
        (IllegalActionError, "Gob", "attaquer", {"cible": "Thorin"}),
        (IllegalActionError, "Thorin", "point_action", {}),
        (IllegalActionError, "Thorin", "jet_de_sauvegarde", {}),
        (IllegalActionError, "Thorin", "attaque_opportunite", {}),
        (IllegalActionError, "Thorin", "interruption", {"declencheur": "un cri"}),
    ]
    for kind, actor, action, params in bad:
        before = enc.to_json()
        with pytest.raises(EscarmoucheError) as err:
            enc.act(actor, action, ScriptedRolls([20] * 5), **params)
        assert type(err.value) is kind, (action, params, err.value)
        assert enc.to_json() == before
    with pytest.raises(ParameterError):
        d20.check_turn(["danser"])
    with pytest.raises(IllegalActionError):
        d20.check_turn(["simple", "simple"])
    with pytest.raises(ParameterError):
        d20.Rules(immediate_reset="jamais")


@pytest.mark.parametrize("module", ["actions", "grid", "initiative", "narration", "odds",
                                    "reactions", "rules", "saves", "system"])
def test_doctests_of_the_package(module: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"escarmouche.systems.d20.{module}"))
    assert result.failed == 0
