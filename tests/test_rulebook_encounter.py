"""System « Rulebook » (RULES.md): the encounter, start, surprise, turn 0 and
turns (RB-INIT-1/3/4, RB-SURPRISE-1/3, RB-TURN-1, RB-TIME-1..3, RB-ACT-1/2,
RB-MOVE-1, RB-SPEED-1..3, RB-END-1..3).

Every expected value is derived by hand from the rules (the comments show how);
the dice are fixed with ``ScriptedRolls``. The golden fights are in
``tests/golden/rulebook.json``, played by the generic runner
(``tests/test_golden.py``).
"""

from __future__ import annotations

import collections
import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import Combatant, Effect, EscarmoucheError, Timing
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter, EndCondition
from escarmouche.errors import IllegalActionError, ParameterError
from escarmouche.systems import rulebook as rb
from tests._rulebook_helpers import begin, events, fighter, party

# =======================================================================================
# The encounter: start, surprise, turn 0, turns (RB-TURN-1, RB-TIME-*, RB-ACT-*, ...)
# =======================================================================================


def end(enc: Encounter, n: int = 1, rng: ScriptedRolls | None = None) -> None:
    for _ in range(n):
        enc.end_activation(rng)


def activations(enc: Encounter) -> dict[int, list[str]]:
    out: dict[int, list[str]] = collections.defaultdict(list)
    for e in enc.log:
        if e.kind == "activation":
            out[e.turn].append(e.actor or "")
    return dict(out)


def test_encounter_start_order_rb_init_1() -> None:
    """RB-INIT-1: at the start every character rolls; the log shows each roll."""
    enc = begin()
    assert enc.turn == 1 and enc.current == "Aldric"
    assert enc.state.order == ["Aldric", "Vif", "Brune", "Grolk"]
    inits = events(enc, "initiative")
    assert [(e.actor, [d.value for d in e.dice]) for e in inits] == [
        ("Aldric", [30]), ("Brune", [30]), ("Grolk", [30]), ("Vif", [30])]
    assert all("RB-INIT-1" in e.rules for e in inits)
    assert rb.encounter_initiative(enc).order == ("Aldric", "Vif", "Brune", "Grolk")


def test_encounter_roster_errors() -> None:
    """Bad input names the combatant and the stat (HAB, DIS, PMR, PV, Esprit, trait)."""
    base = {"HAB": 50, "DIS": 50, "PMR": 50, "PV": 10, "Esprit": 10}
    for missing in ("HAB", "DIS", "PMR", "PV", "Esprit"):
        stats = {k: v for k, v in base.items() if k != missing}
        with pytest.raises(EscarmoucheError,
                           match=f"Aucune valeur pour «\u00a0{missing}\u00a0»\u00a0: "
                                 "caractéristique requise pour Zed"):
            Encounter("rulebook", [Combatant("Zed", "x", stats)])
    with pytest.raises(EscarmoucheError, match=r"101 refusée pour «\u00a0HAB\u00a0»\u00a0: .* pour"
                                               r" Zed"):
        Encounter("rulebook", [Combatant("Zed", "x", {**base, "HAB": 101})])
    with pytest.raises(EscarmoucheError, match=r"0 refusée pour «\u00a0PV\u00a0»\u00a0: .* pour"
                                               r" Zed"):
        Encounter("rulebook", [Combatant("Zed", "x", {**base, "PV": 0})])
    with pytest.raises(EscarmoucheError, match=r"Trait «\u00a0alerte\u00a0» refusé\u00a0: .* "
                                               r"pour Zed"):
        Encounter("rulebook", [Combatant("Zed", "x", base, traits={"alerte"})])
    with pytest.raises(EscarmoucheError, match=r"1 refusée pour «\u00a0éclat maximal\u00a0»"
                                               r"\u00a0: .* pour Zed"):
        Encounter("rulebook", [Combatant("Zed", "x", {**base, "eclat": 2, "eclat_max": 1})])
    with pytest.raises(EscarmoucheError, match="sans son éclat actuel"):
        Encounter("rulebook", [Combatant("Zed", "x", {**base, "eclat_max": 1})])


def test_encounter_start_options_checked_rb_surprise_1() -> None:
    enc = Encounter("rulebook", party())
    before = enc.to_json()
    rng = ScriptedRolls([10, 60, 30, 30, 30, 30])
    with pytest.raises(EscarmoucheError, match="précisez si les défenseurs ignorent"):
        enc.start(rng, surprise_par="monstres")
    with pytest.raises(EscarmoucheError, match="«\u00a0dragons\u00a0» refusée pour"
                                               " «\u00a0surprise par\u00a0»"):
        enc.start(rng, surprise_par="dragons", non_avertis=True)
    with pytest.raises(EscarmoucheError, match="Option «\u00a0embuscade\u00a0» refusée"):
        enc.start(rng, embuscade=True)
    with pytest.raises(EscarmoucheError, match="non_avertis est donné sans surprise_par"):
        enc.start(rng, non_avertis=True)
    assert enc.to_json() == before and rng.used == 0


def test_encounter_surprise_then_turn_0_rb_surprise_3() -> None:
    """RB-SURPRISE-1..3 in an encounter: the surprise dice first (attackers', then
    defenders'), then the initiative; turn 0 holds the attackers only."""
    enc = Encounter("rulebook", party(), rules=rb.Rules(surprise_aggregate="plus_faible"))
    # weakest: Grolk's DIS 40 rolls 10 (margin 30) vs Aldric's PMR 70 rolls 60 (10)
    enc.start(ScriptedRolls([10, 60, 30, 30, 30, 30]), surprise_par="monstres", non_avertis=True)
    (s,) = events(enc, "surprise")
    assert [d.value for d in s.dice] == [10, 60]
    assert s.data["success"] is True and s.data["attack_from"] == ["Grolk"]
    assert enc.turn == 0 and enc.state.order == ["Vif", "Grolk"]
    assert enc.current == "Vif"
    # a defender has no slot in turn 0: not even an out-of-turn movement
    before = enc.to_json()
    with pytest.raises(IllegalActionError, match="RB-SURPRISE-3"):
        enc.act("Aldric", "deplacement")
    assert enc.to_json() == before
    end(enc, 2)
    assert enc.turn == 1 and enc.state.order == ["Aldric", "Vif", "Brune", "Grolk"]
    assert activations(enc)[0] == ["Vif", "Grolk"]


def test_encounter_failed_surprise_no_turn_0_rb_surprise_1() -> None:
    enc = Encounter("rulebook", party())
    enc.start(ScriptedRolls([60, 10, 30, 30, 30, 30]), surprise_par="monstres", non_avertis=True)
    assert events(enc, "surprise")[0].data["success"] is False
    assert enc.turn == 1
    aware = Encounter("rulebook", party())
    aware.start(ScriptedRolls([30, 30, 30, 30]), surprise_par="monstres", non_avertis=False)
    assert aware.turn == 1
    assert events(aware, "surprise")[0].dice == ()


def test_encounter_critical_success_turn_0_rb_init_3() -> None:
    """RB-INIT-3: turn 0 with the critical success only, then turn 1 for all."""
    enc = begin(rolls=(30, 4, 30, 30))  # Brune critical
    assert enc.turn == 0 and enc.state.order == ["Brune"]
    assert [e.actor for e in events(enc, "tour_0")] == ["Brune"]
    end(enc)
    assert enc.turn == 1 and enc.state.order == ["Brune", "Aldric", "Vif", "Grolk"]


def test_encounter_critical_failure_waits_turn_2_rb_init_4() -> None:
    """RB-INIT-4: no activation in turns 0 and 1, none out of turn either."""
    enc = begin(rolls=(3, 30, 99, 30))  # Aldric critical, Grolk critical failure
    assert enc.state.order == ["Aldric"]
    with pytest.raises(IllegalActionError, match="RB-INIT-4"):
        enc.act("Grolk", "deplacement")
    end(enc)
    assert enc.turn == 1 and "Grolk" not in enc.state.order
    with pytest.raises(IllegalActionError, match="RB-INIT-4"):
        enc.act("Grolk", "deplacement")
    end(enc, 3)
    assert enc.turn == 2 and enc.state.order[-1] == "Grolk"
    enc.act("Grolk", "deplacement")  # from turn 2 on, an out-of-turn move is fine
    assert activations(enc) == {0: ["Aldric"], 1: ["Aldric", "Vif", "Brune"],
                                2: ["Aldric"]}


def test_turn_begins_and_ends_with_activations_rb_turn_1() -> None:
    """RB-TURN-1: a turn starts with the first activation and ends after the last one;
    the GM's count of turns is what the conditions read."""
    enc = begin(end_conditions=[EndCondition("tours", "victoire", turns=2,
                                             label="tenir deux tours")])
    end(enc, 4)
    kinds = [(e.kind, e.turn, e.actor) for e in enc.log
             if e.kind in ("debut_tour", "fin_tour", "activation")]
    assert kinds[:6] == [("debut_tour", 1, None), ("activation", 1, "Aldric"),
                         ("activation", 1, "Vif"), ("activation", 1, "Brune"),
                         ("activation", 1, "Grolk"), ("fin_tour", 1, None)]
    assert enc.turn == 2 and not enc.finished
    end(enc, 4)
    assert enc.finished and enc.outcome == "victoire (tenir deux tours)"


def test_global_countdown_at_turn_start_rb_time_1() -> None:
    """RB-TIME-1: a global countdown ticks at the start of each global turn."""
    enc = begin()
    enc.add_effect(Effect("", "Renforts", Timing.TURN_START, remaining=2))
    end(enc, 4)
    (tick,) = events(enc, "effet_decompte")
    first = next(e for e in enc.log if e.kind == "activation" and e.turn == 2)
    assert tick.turn == 2 and tick.seq < first.seq
    end(enc, 4)
    (gone,) = [e for e in events(enc, "effet_fin") if "Renforts" in e.text]
    assert gone.turn == 3 and "RB-TIME-1" in gone.rules


def test_character_effect_at_its_activation_rb_time_2() -> None:
    """RB-TIME-2: a poison ticks at the start of its bearer's activation."""
    enc = begin()
    enc.add_effect(Effect("", "Poison", Timing.ACTIVATION_START, bearer="Brune",
                          remaining=2, per_tick={"PV": -1}))
    end(enc, 1)  # Vif acts: nothing yet
    assert enc.fighter("Brune").tracks["PV"] == 10
    end(enc, 1)  # Brune's activation starts
    assert enc.fighter("Brune").tracks["PV"] == 9
    (tick,) = events(enc, "effet_applique")
    assert tick.actor == "Brune" and "RB-TIME-2" in tick.rules


def test_environment_at_turn_end_rb_time_3() -> None:
    """RB-TIME-3: an environment effect resolves at the end of the global turn."""
    enc = begin()
    enc.add_effect(Effect("", "Flèches perdues", Timing.TURN_END, bearer="Grolk",
                          remaining=1, per_tick={"PV": -3}))
    end(enc, 3)
    assert enc.fighter("Grolk").tracks["PV"] == 10 and enc.current == "Grolk"
    end(enc, 1)
    hit = events(enc, "effet_applique")[0]
    fin = events(enc, "fin_tour")[0]
    assert hit.seq < fin.seq and hit.turn == 1 and "RB-TIME-3" in hit.rules
    assert enc.fighter("Grolk").tracks["PV"] == 7


def test_hyperactive_effects_tick_once_per_turn_rb_speed_3() -> None:
    """RB-SPEED-3: per-character effects tick only at the first activation of a turn."""
    enc = begin(party(Brune={"hyperactivite"}),
                rules=rb.Rules(hyperactive_slot="juste_apres"))
    assert enc.state.order == ["Aldric", "Vif", "Brune", "Brune", "Grolk"]
    enc.add_effect(Effect("", "Poison", Timing.ACTIVATION_START, bearer="Brune",
                          remaining=5, per_tick={"PV": -1}))
    end(enc, 5)
    assert enc.turn == 2
    assert enc.fighter("Brune").tracks["PV"] == 9  # two activations, one tick


def test_one_action_one_posture_free_actions_rb_act_1() -> None:
    """RB-ACT-1: one movement (before or after the action), one action, one posture
    change; short actions with an item in hand are free, in addition."""
    enc = begin()
    enc.act("Aldric", "action_libre", description="boire une potion")
    enc.act("Aldric", "attaquer", cible="Grolk", degats=2)
    enc.act("Aldric", "action_libre", description="mettre ses lunettes")
    before = enc.to_json()
    with pytest.raises(IllegalActionError, match=r"action de cette activation.*RB-ACT-1"):
        enc.act("Aldric", "sort", cible="Vif", degats=1)
    assert enc.to_json() == before
    enc.act("Aldric", "posture", posture="défensive")
    with pytest.raises(IllegalActionError, match="RB-ACT-1"):
        enc.act("Aldric", "posture", posture="offensive")
    enc.act("Aldric", "deplacement")  # the movement after the action
    assert enc.fighter("Aldric").flags["posture"] == "défensive"
    assert [a.id for a in enc.actions("Aldric")] == ["action_libre"]
    end(enc)
    enc.act("Vif", "deplacement")  # the movement before the action
    enc.act("Vif", "attaquer", cible="Aldric", degats=1)
    assert enc.fighter("Aldric").tracks["PV"] == 9


def test_each_activation_its_own_action_rb_act_1() -> None:
    """RB-ACT-1 / RB-SPEED-3: under Hyperactivité each activation has its own action and
    posture change; the movement stays one per global turn (RB-MOVE-1)."""
    enc = begin(party(Brune={"hyperactivite"}),
                rules=rb.Rules(hyperactive_slot="juste_apres"))
    end(enc, 2)
    assert enc.current == "Brune"
    enc.act("Brune", "deplacement")
    enc.act("Brune", "attaquer", cible="Grolk", degats=1)
    enc.act("Brune", "posture", posture="garde haute")
    end(enc)
    assert enc.current == "Brune"
    enc.act("Brune", "attaquer", cible="Grolk", degats=1)
    enc.act("Brune", "posture", posture="garde basse")
    with pytest.raises(IllegalActionError, match="RB-MOVE-1"):
        enc.act("Brune", "deplacement")
    assert enc.fighter("Grolk").tracks["PV"] == 8


def test_spells_abilities_equipment_use_the_action_rb_act_2() -> None:
    """RB-ACT-2: spells, abilities and equipment from the bag use the action; some
    abilities also use the movement."""
    cases: list[tuple[str, dict[str, Any]]] = [
        ("sort", {"nom": "Boule de feu", "cible": "Grolk", "degats": 3}),
        ("capacite", {"nom": "Cri"}),
        ("equipement", {"objet": "épée"}),
    ]
    for action, params in cases:
        enc = begin()
        enc.act("Aldric", action, **params)
        with pytest.raises(IllegalActionError, match="RB-ACT-1"):
            enc.act("Aldric", "equipement")
    enc = begin()
    enc.act("Aldric", "capacite", nom="Charge", cible="Grolk", degats=4,
            avec_deplacement=True)
    (ev,) = events(enc, "capacite")
    assert "RB-ACT-2" in ev.rules and "Charge" in ev.text
    with pytest.raises(IllegalActionError, match="RB-MOVE-1"):
        enc.act("Aldric", "deplacement")
    enc2 = begin()
    enc2.act("Aldric", "deplacement")
    with pytest.raises(IllegalActionError, match="RB-MOVE-1"):
        enc2.act("Aldric", "capacite", nom="Charge", avec_deplacement=True)


def test_movement_regenerates_at_global_turn_rb_move_1() -> None:
    """RB-MOVE-1: the movement regenerates at the start of the global turn, not at the
    start of the activation; an unspent one can be used out of turn."""
    enc = begin()
    assert enc.current == "Aldric"
    enc.act("Grolk", "deplacement", description="se met à couvert")  # out of turn
    (mv,) = events(enc, "deplacement")
    assert mv.data["out_of_turn"] is True and "hors de son activation" in mv.text
    with pytest.raises(IllegalActionError, match="RB-MOVE-1"):
        enc.act("Grolk", "deplacement")
    with pytest.raises(IllegalActionError, match="RB-MOVE-1"):
        enc.act("Grolk", "attaquer", cible="Aldric", degats=1)  # only a movement
    end(enc, 3)
    assert enc.current == "Grolk"
    assert "deplacement" not in [a.id for a in enc.actions()]  # not regenerated
    with pytest.raises(IllegalActionError, match="RB-MOVE-1"):
        enc.act("Grolk", "deplacement")
    end(enc)
    assert enc.turn == 2
    enc.act("Grolk", "deplacement")  # a new global turn: a new movement
    assert len(events(enc, "deplacements")) == 2


def test_hypoactivity_roll_each_activation_rb_speed_1() -> None:
    """RB-SPEED-1: Hypoactivité rolls 1d4 at each activation (logged); a 4: no action."""
    enc = begin(party(Vif={"hypoactivite"}))
    end(enc, 1, ScriptedRolls([4]))  # Vif's d4: 4, skipped
    assert enc.current == "Brune"
    (hypo,) = events(enc, "hypoactivite")
    assert [(d.faces, d.value) for d in hypo.dice] == [(4, 4)]
    assert hypo.data["can_act"] is False and "ne peut pas agir" in hypo.text
    with pytest.raises(IllegalActionError):
        enc.act("Vif", "attaquer", cible="Aldric", degats=1)
    rng = ScriptedRolls([2])
    end(enc, 3, rng)  # Brune → Grolk → (turn 2) Aldric → Vif rolls its d4: 2
    assert rng.used == 1
    assert enc.current == "Vif" and enc.turn == 2
    assert [e.data["roll"] for e in events(enc, "hypoactivite")] == [4, 2]
    # the d4 of a first activation comes from the start's rng, after the initiative
    first = begin(party(Aldric={"hypoactivite"}), rolls=(30, 30, 30, 30, 3))
    assert first.current == "Aldric" and events(first, "hypoactivite")[0].data["roll"] == 3
    end(first, 3)
    before = first.to_json()
    with pytest.raises(EscarmoucheError, match="Aucune valeur pour «\u00a0rng\u00a0»"):
        end(first)  # turn 2: Aldric's d4 needs dice
    assert first.to_json() == before


def test_speed_effect_gained_in_fight_rb_speed_1() -> None:
    """RB-SPEED-1: an attack can change the turn order, from the next global turn."""
    enc = begin()
    enc.act("Aldric", "attaquer", cible="Vif", degats=1, vitesse="toujours_dernier",
            duree=1)
    (v,) = events(enc, "vitesse")
    assert v.data == {"vitesse": "toujours_dernier", "debut": 2, "fin": 2,
                      "source": "Aldric"}
    assert enc.state.order == ["Aldric", "Vif", "Brune", "Grolk"]  # this turn: unchanged
    end(enc, 4)
    assert enc.turn == 2 and enc.state.order == ["Aldric", "Brune", "Grolk", "Vif"]
    (note,) = [e for e in events(enc, "ordre_tour") if e.turn == 2]
    assert "Vif agit en dernier" in note.text and "RB-SPEED-3" in note.rules
    end(enc, 4)
    assert enc.turn == 3 and enc.state.order == ["Aldric", "Vif", "Brune", "Grolk"]
    assert any(e.kind == "effet_fin" and e.turn == 2 for e in enc.log)
    assert not [e for e in enc.state.effects if e.kind == "vitesse"]


def test_speed_effect_cancels_a_trait_rb_speed_2() -> None:
    """RB-SPEED-2: a Hypoactivité inflicted on a Hyperactivité bearer cancels both."""
    enc = begin(party(Brune={"hyperactivite"}))
    enc.act("Aldric", "sort", nom="Lenteur", cible="Brune", vitesse="hypoactivite",
            duree=2)
    end(enc, 5)
    assert enc.turn == 2 and enc.state.order == ["Aldric", "Vif", "Brune", "Grolk"]
    (note,) = [e for e in events(enc, "ordre_tour") if e.turn == 2]
    assert "s’annulent pour Brune" in note.text and "RB-SPEED-2" in note.rules
    end(enc, 2)  # no d4 for Brune: nothing remains of either effect
    assert enc.current == "Brune" and not events(enc, "hypoactivite")


def test_speed_effect_added_by_the_gm_rb_speed_3() -> None:
    """A GM-made speed effect (``speed_effect``) counts from the next order it meets."""
    enc = begin()
    enc.add_effect(rb.speed_effect("Grolk", "depassement", last_turn=2))
    end(enc, 4)
    # Grolk (last) overtakes Brune
    assert enc.state.order == ["Aldric", "Vif", "Grolk", "Brune"]
    end(enc, 4)
    assert enc.state.order == ["Aldric", "Vif", "Brune", "Grolk"]
    with pytest.raises(EscarmoucheError, match="RB-SPEED-1"):
        rb.speed_effect("Grolk", "rapide")
    with pytest.raises(EscarmoucheError, match="last_turn"):
        rb.speed_effect("Grolk", "depasse", first_turn=3, last_turn=2)


def test_bad_speed_effect_keyword_is_refused_rb_speed_1() -> None:
    """RB-SPEED-1: a speed effect with an unknown keyword is refused when it is added."""
    enc = begin()
    before = enc.to_json()
    with pytest.raises(EscarmoucheError, match=r"«\u00a0rapide\u00a0».*RB-SPEED-1"):
        enc.add_effect(Effect("", "Étrange", Timing.TURN_START, bearer="Vif",
                              kind="vitesse", keywords=frozenset({"rapide"})))
    assert enc.to_json() == before
    enc.add_effect(Effect("", "Vif-argent", Timing.TURN_START, bearer="Vif",
                          kind="vitesse", keywords=frozenset({"toujours_premier"})))


def test_attack_on_pv_or_esprit_rb_end_2() -> None:
    """RB-END-2: an attack targets PV or Esprit; 0 on either track puts out of the fight;
    the amount is given (``degats``) or rolled (``des``)."""
    enc = begin()
    enc.act("Aldric", "attaquer", cible="Grolk", piste="Esprit", des="2d6+1",
            rng=ScriptedRolls([6, 5]))
    (atk,) = events(enc, "attaquer")
    assert [d.value for d in atk.dice] == [6, 5]
    assert atk.data["degats"] == 12 and atk.data["piste"] == "Esprit"
    assert enc.fighter("Grolk").tracks == {"PV": 10, "Esprit": 0}
    assert enc.fighter("Grolk").out
    out = events(enc, "hors_combat")[0]
    assert out.actor == "Grolk" and atk.seq < out.seq
    end(enc)
    enc.act("Vif", "attaquer", cible="Brune", degats=10)
    assert enc.fighter("Brune").out and enc.fighter("Brune").tracks["PV"] == 0
    end(enc)
    assert enc.current == "Aldric" and enc.turn == 2  # Brune and Grolk are skipped


@pytest.mark.parametrize(
    ("params", "pattern"),
    [
        ({"cible": "Grolk"}, "donnez les dégâts de l’attaque"),
        ({"cible": "Grolk", "degats": 2, "des": "1d6"}, "pas les deux"),
        ({"cible": "Grolk", "degats": -1}, "−1 refusée pour «\u00a0dégâts\u00a0»"),
        ({"cible": "Grolk", "degats": 2, "piste": "Mana"}, "«\u00a0Mana\u00a0» refusée pour"
                                                           " «\u00a0piste\u00a0»"),
        ({"cible": "Personne", "degats": 2}, "Personne"),
        ({"cible": "Grolk", "des": "2d"}, "2d"),
        ({"cible": "Grolk", "degats": 1, "vitesse": "rapide"},
                "«\u00a0rapide\u00a0» refusée pour «\u00a0vitesse\u00a0»"),
        ({"cible": "Grolk", "degats": 1, "duree": 2}, "une durée ne sert qu’à un effet de vitesse"),
        ({"cible": "Grolk", "degats": 1, "vitesse": "depasse", "duree": 0},
                "0 refusée pour «\u00a0durée\u00a0»"),
        ({"cible": "Grolk", "degats": 1, "arme": "épée"}, "Paramètre «\u00a0arme\u00a0» refusé"),
        ({"cible": "Grolk", "degats": 1, "avec_deplacement": "oui"}, "avec déplacement"),
    ],
)
def test_bad_attack_is_atomic_rb_end_2(params: dict[str, Any], pattern: str) -> None:
    """CORE-ERR: a rejected action changes nothing (state and rng)."""
    enc = begin()
    before = enc.to_json()
    rng = ScriptedRolls([3, 3])
    with pytest.raises(EscarmoucheError, match=pattern):
        enc.act("Aldric", "attaquer", rng, **params)
    assert enc.to_json() == before and rng.used == 0


def test_other_bad_actions() -> None:
    enc = begin()
    with pytest.raises(ParameterError, match="Action «\u00a0voler\u00a0» refusée"):
        enc.act("Aldric", "voler")
    with pytest.raises(ParameterError, match=(r"Aucune valeur pour «\u00a0posture\u00a0»"
                                              r"\u00a0: .* a besoin")):
        enc.act("Aldric", "posture")
    with pytest.raises(ParameterError, match=r"refusée pour «\u00a0posture\u00a0».* texte non"
                                             r" vide"):
        enc.act("Aldric", "posture", posture="  ")
    with pytest.raises(ParameterError, match="des dégâts s’appliquent à une cible"):
        enc.act("Aldric", "sort", degats=2)
    with pytest.raises(IllegalActionError, match="pas d’éclat"):
        enc.act("Aldric", "depenser_eclat")
    enc.act("Aldric", "attaquer", cible="Grolk", degats=10)
    with pytest.raises(IllegalActionError, match="hors de combat"):
        enc.act("Grolk", "deplacement")


def test_gm_end_conditions_rb_end_1() -> None:
    """RB-END-1: the GM's victory and defeat conditions, checked by the engine."""
    conds = [EndCondition("combattant_hors_combat", "victoire", name="Grolk",
                          label="le chef Grolk est à terre"),
             EndCondition("camp_hors_combat", "défaite", side="héros")]
    enc = begin(end_conditions=conds)
    enc.act("Aldric", "attaquer", cible="Grolk", piste="Esprit", degats=10)
    assert enc.finished and enc.outcome == "victoire (le chef Grolk est à terre)"
    assert enc.fighter("Vif").standing  # the fight ends though Vif still stands
    with pytest.raises(EscarmoucheError, match="RB-END-1"):
        enc.act("Vif", "deplacement")
    fled = begin(end_conditions=[EndCondition("camp_en_fuite", "victoire", side="monstres")])
    fled.flee("Grolk")
    fled.flee("Vif")
    assert fled.finished and "a fui" in (fled.outcome or "")


def test_eclat_restored_only_at_the_end_rb_end_3() -> None:
    """RB-END-3: éclat spent before the fight is not restored at its start; spent during
    the fight it is restored only at its end."""
    roster = party()
    roster[0] = fighter("Aldric", "héros", 60, eclat=1, eclat_max=3)
    enc = begin(roster)
    assert enc.fighter("Aldric").tracks["eclat"] == 1  # not restored at the start
    enc.act("Aldric", "depenser_eclat")
    assert enc.fighter("Aldric").tracks["eclat"] == 0
    with pytest.raises(IllegalActionError, match="RB-END-3"):
        enc.act("Aldric", "depenser_eclat")
    end(enc, 4)
    assert enc.fighter("Aldric").tracks["eclat"] == 0  # a new turn does not restore it
    assert not enc.fighter("Aldric").out  # éclat at 0 is not a damage track
    enc.finish("les monstres se rendent")
    assert enc.fighter("Aldric").tracks["eclat"] == 3
    (ev,) = events(enc, "eclat_regenere")
    assert ev.rules == ("RB-END-3",) and ev.data == {"before": 0, "after": 3}
    assert enc.log[-2].kind == "fin_combat"


def test_actions_listed_for_widgets() -> None:
    enc = begin(party(Aldric=set()))
    ids = [a.id for a in enc.actions("Aldric")]
    assert ids == ["attaquer", "sort", "capacite", "equipement", "deplacement", "posture",
                   "action_libre"]
    assert [a.id for a in enc.actions("Grolk")] == ["deplacement"]  # out of turn


def test_run_json_round_trip_and_determinism() -> None:
    """CORE-LOG / CORE-RNG: an automated fight is reproducible and survives JSON."""
    roster = party(Brune={"hyperactivite"}, Vif={"hypoactivite"}, Grolk={"depassement"})

    def fight(seed: int) -> Encounter:
        enc = Encounter("rulebook", roster)
        enc.start(random.Random(seed), surprise_par="monstres", non_avertis=True)
        enc.run(random.Random(seed + 1), max_turns=30)
        return enc

    a, b = fight(11), fight(11)
    assert a.to_json() == b.to_json() and a.finished
    again = Encounter.from_json(a.to_json())
    assert again.to_json() == a.to_json()
    assert rb.encounter_initiative(again) == rb.encounter_initiative(a)


def test_resume_after_restore_mid_fight() -> None:
    enc = begin(party(Vif={"hypoactivite"}))
    enc.act("Aldric", "attaquer", cible="Vif", degats=1, vitesse="depasse", duree=2)
    copy = Encounter.from_json(enc.to_json())
    enc.run(random.Random(4), max_turns=20)
    copy.run(random.Random(4), max_turns=20)
    assert enc.to_json() == copy.to_json()


def test_rules_round_trip_through_a_save() -> None:
    rules = rb.Rules(hyperactive_slot="fin_du_tour", surprise_aggregate="moyenne",
                     crit_success_max=3, extra_traits=frozenset({"nain"}))
    roster = [fighter("A", "x", 50, traits={"nain"}), fighter("B", "y", 40)]
    enc = Encounter("rulebook", roster, rules=rules)
    enc.start(ScriptedRolls([10, 20]))
    again = Encounter.from_json(enc.to_json())
    assert again.rules == rules and again.to_json() == enc.to_json()


def test_encounter_initiative_needs_a_rulebook_fight() -> None:
    with pytest.raises(EscarmoucheError, match="RB-INIT-1"):
        rb.encounter_initiative(Encounter("rulebook", party()))


def is_subsequence(sub: Sequence[str], seq: Sequence[str]) -> bool:
    it = iter(seq)
    return all(x in it for x in sub)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["juste_apres", "fin_du_tour"]))
def test_encounter_turn_orders_rb_speed_3(seed: int, slot: str) -> None:
    """Each turn's slots: RB-SPEED-3 applied to the initiative order of the fighters
    still standing, then the turn's participants (RB-INIT-3/4); the activations of a
    turn follow its slots."""
    roster = party(Brune={"hyperactivite"}, Grolk={"depassement"},
                   Aldric={"toujours_dernier"})
    rules = rb.Rules(hyperactive_slot=slot)
    enc = Encounter("rulebook", roster, rules=rules)
    enc.run(random.Random(seed), max_turns=15)
    init = rb.encounter_initiative(enc)
    outs = {e.actor: e.seq for e in events(enc, "hors_combat")}
    for e in events(enc, "debut_tour"):
        standing = [n for n in init.order if outs.get(n, e.seq + 1) > e.seq]
        speed = rb.apply_speed(standing, rb.speed_profiles(roster), rules)
        if e.turn == 0:
            expected = speed.slots(set(init.turn_zero), twice=False)
        elif e.turn == 1:
            expected = speed.slots(exclude=set(init.late))
        else:
            expected = speed.slots()
        assert e.data["order"] == expected
        if not outs:
            assert expected == init.turn(e.turn)
        acts = activations(enc).get(e.turn, [])
        assert is_subsequence(acts, expected)


def test_a_fighter_cannot_attack_himself_rb_act_1() -> None:
    """RB-ACT-1: the text's attack is on « un ennemi » (seed 000); the Rulebook accepted
    « Aldric attaque Aldric » where the three other systems refuse it. The refusal is the
    others' sentence, names the field, the value and the rule, and leaves the fight and
    the dice as they were; a spell or an ability on oneself stays allowed (RB-ACT-2)."""
    enc = begin()
    assert enc.current == "Aldric"
    before = enc.to_json()
    rng = ScriptedRolls([4, 5])
    with pytest.raises(IllegalActionError) as refusal:
        enc.act("Aldric", "attaquer", rng, cible="Aldric", des="1d6")
    assert str(refusal.value) == ("Cible «\u00a0Aldric\u00a0» refusée\u00a0: un combattant "
                                  "ne s’attaque pas lui-même (RB-ACT-1).")
    assert (refusal.value.field, refusal.value.value, refusal.value.rule) == (
        "cible", "Aldric", "RB-ACT-1")
    assert enc.to_json() == before
    assert rng.remaining == 2
    enc.act("Aldric", "attaquer", rng, cible="Grolk", des="1d6")
    assert enc.fighter("Grolk").tracks["PV"] == 6
    end(enc)
    enc.act("Vif", "capacite", rng, cible="Vif", vitesse="hyperactivite")
    assert rng.remaining == 1
