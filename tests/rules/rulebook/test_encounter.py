"""System « Rulebook » (RULES.md): the encounter and its turns (RB-TURN-1, RB-TIME-1..3,
RB-ACT-1/2, RB-MOVE-1, RB-END-1..3). The encounter's start, surprise and speed effects are
filed with their rules: ``test_initiative.py`` (RB-INIT-*), ``test_surprise.py``
(RB-SURPRISE-*), ``test_speed.py`` (RB-SPEED-*).

Every expected value is derived by hand from the rules (the comments show how);
the dice are fixed with ``ScriptedRolls``. The golden fights are in
``tests/golden/rulebook.json``, played by the generic runner
(``tests/contract/test_golden.py``).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from escarmouche import Combatant, Effect, EscarmoucheError, Timing
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter, EndCondition
from escarmouche.errors import (
    IllegalActionError,
    ParameterError,
)
from escarmouche.systems import rulebook as rb
from tests.helpers.proofreading import top_level_colons
from tests.helpers.rulebook import begin, end, events, fighter, party

# =======================================================================================
# The encounter: start, surprise, turn 0, turns (RB-TURN-1, RB-TIME-*, RB-ACT-*, ...)
# =======================================================================================


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


# -- R7: figures that the engine can check ---------------------------------------------------


def test_r1_the_end_of_fight_refusal_nests_no_parentheses_b54() -> None:
    """B54: « … (issue du combat, victoire (tout le camp … hors de combat)) (RB-END-1) »
    now reads « Combat terminé, issue : victoire (…) ; plus aucune action n’est possible
    (RB-END-1). »"""
    combat = Encounter("rulebook", [
        Combatant("Aube", "Héros", {"HAB": 60, "DIS": 50, "PMR": 50, "PV": 20, "Esprit": 10}),
        Combatant("Dague", "Bandits", {"HAB": 55, "DIS": 50, "PMR": 50, "PV": 5,
                                       "Esprit": 8}),
    ])
    combat.start(random.Random(1))
    while not combat.state.finished:
        actor = combat.state.current
        assert actor is not None
        if actor == "Aube":
            combat.act("Aube", "attaquer", cible="Dague", degats=5)
        else:
            combat.end_activation()
    with pytest.raises(EscarmoucheError) as refusal:
        combat.end_activation()
    text = str(refusal.value).replace("\u00a0", " ").replace("\u202f", " ")
    assert text.startswith("Combat terminé, issue : victoire"), text
    assert "))" not in text and top_level_colons(text.split(" ; ")[0]) == 1, text
