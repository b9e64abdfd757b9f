"""System d12 (seed 002), the ambush: D12-SURPRISE-1/2, with dice fixed by ScriptedRolls.

The ambushers' bonus turn and the group initiative rolled after it (D12-SURPRISE-1),
the alert defender at its individual initiative in the bonus turn (D12-SURPRISE-2, with
the D12-INIT-4 roll-offs), in the pure functions and in the engine; the chance to act
first in the bonus turn against a brute-force enumeration of its dice.
"""

from __future__ import annotations

import json

import pytest

from escarmouche import Combatant, EscarmoucheError
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter
from escarmouche.errors import ParameterError
from escarmouche.systems import d12
from escarmouche.systems.base import ENVIRONMENT
from tests.helpers.d12 import AFTER_BONUS, _Replay, ambushed, enumerate_outcomes, fighter, party

# =====================================================================================
# Ambush: D12-SURPRISE-1/2
# =====================================================================================


def test_ambush_bonus_turn_then_groups_d12_surprise_1() -> None:
    """D12-SURPRISE-1: the ambushers get a bonus turn; Brune (not alert) does not act in
    it; group initiative is rolled for the turns after (dice after the bonus dice).
    Bonus: Aldric (alert) 5 + 2 = 7, Grolk 8 + 1 = 9 → Grolk, Aldric. Groups: Aldric
    4 + 2 = 6, Brune 10, Grolk 11 + 1 = 12 → monstres (12), héros (10, 6)."""
    rng = ScriptedRolls([5, 8, 4, 10, 11])
    init = d12.initiative(party(), rng, ambush_by="monstres")
    assert rng.remaining == 0
    assert init.bonus_turn == ["Grolk", "Aldric"]
    assert init.turn(0) == ["Grolk", "Aldric"]
    assert init.groups == [("monstres", ["Grolk"]), ("héros", ["Brune", "Aldric"])]
    assert {"D12-SURPRISE-1", "D12-SURPRISE-2"} <= set(init.rules)


def test_alert_defender_uses_individual_initiative_d12_surprise_2() -> None:
    """D12-SURPRISE-2: the alert defender acts in the bonus turn at its individual
    initiative, ordered with the attackers: Aldric 9 + 2 = 11 > Grolk 3 + 1 = 4."""
    init = d12.initiative(party(), ScriptedRolls([9, 3, 1, 1, 1]), ambush_by="monstres")
    assert init.bonus_turn == ["Aldric", "Grolk"]
    assert [(r.name, r.total) for r in init.bonus_rolls] == [("Aldric", 11), ("Grolk", 4)]


def test_bonus_turn_roll_off_before_groups_d12_surprise_2() -> None:
    """D12-SURPRISE-1/2 + API draw order: the bonus turn is settled (its roll-off
    included) before group initiative is rolled. Bonus: X 6, Y 6 (tied, bonus 0), the
    bonus roll-off X 1, Y 12 → Y first; then groups: X 2, Y 2, Z 7; then the monstres'
    roll-off X 8, Y 3 → X first."""
    roster = [fighter("X", "monstres"), fighter("Y", "monstres"), fighter("Z", "héros")]
    init = d12.initiative(roster, ScriptedRolls([6, 6, 1, 12, 2, 2, 7, 8, 3]),
                          ambush_by="monstres")
    assert init.bonus_turn == ["Y", "X"]
    assert init.groups == [("héros", ["Z"]), ("monstres", ["X", "Y"])]
    assert [ro.scope for ro in init.roll_offs] == ["tour bonus", "monstres"]


def test_knocked_out_in_bonus_turn_rolls_no_group_initiative_d12_surprise_1() -> None:
    """D12-SURPRISE-1: « Une fois leur tour terminé, vous pouvez lancer votre initiative
    de groupe » — group initiative comes after the bonus turn, so a defender knocked
    out in it sets nothing. Bonus: Aldric 5 + 2 = 7, Grolk 8 + 1 = 9. Had Brune rolled
    her 12, « héros » (12) would act first; out, she rolls nothing: Aldric 3 + 2 = 5,
    Grolk 8 + 1 = 9, « monstres » first."""
    standing = d12.resolve_initiative(party(), [5, 8, 3, 12, 8], ambush_by="monstres")
    assert [side for side, _ in standing.groups] == ["héros", "monstres"]
    out = d12.resolve_initiative(party(), [5, 8, 3, 8], ambush_by="monstres", out=["Brune"])
    assert out.groups == [("monstres", ["Grolk"]), ("héros", ["Aldric"])]
    assert [r.name for r in out.rolls] == ["Aldric", "Grolk"] and out.out == ("Brune",)
    assert "Brune, hors de combat, ne la lance pas" in " ".join(out.narration())
    with pytest.raises(ParameterError, match="D12-SURPRISE-1"):
        d12.initiative(party(), ScriptedRolls([1, 1]), out=["Brune"])  # no ambush
    with pytest.raises(ParameterError, match="Personne"):
        d12.initiative(party(), ScriptedRolls([1] * 5), ambush_by="monstres",
                       out=["Personne"])


def test_bonus_turn_alone_is_pending_d12_surprise_1() -> None:
    """D12-SURPRISE-1: the bonus turn is rolled alone; group initiative is pending
    until :func:`roll_groups_after_bonus`, which refuses to run twice."""
    bonus = d12.roll_bonus_turn(party(), ScriptedRolls([5, 8]), ambush_by="monstres")
    assert bonus.pending and bonus.groups == [] and bonus.order() == []
    assert bonus.bonus_turn == ["Grolk", "Aldric"]
    assert "à la fin du tour bonus" in " ".join(bonus.narration())
    assert d12.D12Initiative.from_json(bonus.to_json()) == bonus
    full = d12.roll_groups_after_bonus(bonus, party(), ScriptedRolls([4, 10, 11]))
    assert not full.pending and full.bonus_turn == bonus.bonus_turn
    assert full == d12.resolve_initiative(party(), [5, 8, 4, 10, 11], ambush_by="monstres")
    with pytest.raises(ParameterError, match="D12-SURPRISE-1"):
        d12.roll_groups_after_bonus(full, party(), ScriptedRolls([1, 1, 1]))


def test_engine_rolls_group_initiative_after_bonus_turn_d12_surprise_1() -> None:
    """D12-SURPRISE-1 in the engine, the log in the order of the table: the bonus
    turn's rolls, « Début du tour 0 », the bonus turn, « Fin du tour 0 », then only the
    group initiative (by the fighters still standing: Brune, knocked out by Grolk's 12
    with « maximum », 10 ≥ 9 PV, rolls nothing), its order, and « Début du tour 1 »."""
    enc = Encounter("d12", party())
    enc.start(ScriptedRolls([5, 8]), embuscade_par="monstres", armes={"Grolk": "1d8+2"})
    assert enc.state.system_state["order"] == []
    enc.act("Grolk", "attaquer", ScriptedRolls([12]), cible="Brune", option="maximum")
    assert enc.fighter("Brune").out
    saved = enc.to_json()  # a save in the bonus turn: group initiative still pending
    assert Encounter.from_json(saved).to_json() == saved
    enc.end_activation()
    rng = ScriptedRolls([3, 8])
    enc.end_activation(rng)
    assert rng.remaining == 0
    kinds = [e.kind for e in enc.log]
    texts = [e.text for e in enc.log]
    start0 = kinds.index("debut_tour")
    assert enc.log[start0].data["order"] == ["Grolk", "Aldric"]
    assert "initiative" not in kinds[:start0] and "ordre_initiative" not in kinds[:start0]
    end0 = kinds.index("fin_tour")
    assert kinds[end0:end0 + 5] == ["fin_tour", "fin_surprise", "initiative",
                                    "ordre_initiative", "debut_tour"]
    assert "Brune, hors de combat, ne la lance pas" in texts[end0 + 1]
    rolled = enc.log[end0 + 2]
    assert [(d.value, d.purpose) for d in rolled.dice] == [
        (3, "initiative d’Aldric"), (8, "initiative de Grolk")]
    assert enc.state.order == ["Grolk", "Aldric"]
    assert "Brune" not in texts[end0 + 4]
    again = Encounter.from_json(enc.to_json())
    assert again.to_json() == enc.to_json()
    tampered = json.loads(enc.to_json())
    tampered["system_state"]["initiative"]["out"] = []
    with pytest.raises(EscarmoucheError, match="incohérente"):
        Encounter.from_json(tampered)


def test_bonus_turn_odds_brute_force_d12_surprise_2() -> None:
    """D12-SURPRISE-2 with D12-INIT-4: the chance to act first in the bonus turn equals
    the enumeration of every bonus-turn die and roll-off (through ``initiative``)."""
    roster = [fighter("A", "héros", init=2, alerte=True), fighter("B", "héros"),
              fighter("G", "monstres", init=1), fighter("V", "monstres", init=3)]
    odds = d12.bonus_turn_odds(roster, "monstres").first
    assert list(odds) == ["A", "G", "V"]
    tie_free = [fighter("A", "héros", init=2, alerte=True), fighter("G", "monstres", init=1)]

    def first(rng: _Replay) -> str:
        return d12.initiative(tie_free, _Fixed(rng, len(tie_free)),
                              ambush_by="monstres").bonus_turn[0]

    law = enumerate_outcomes(first)
    assert d12.bonus_turn_odds(tie_free, "monstres").first == law
    assert sum(odds.values()) == 1
    assert "Agit en premier au tour bonus" in d12.bonus_turn_odds(roster, "monstres")._repr_html_()


class _Fixed:
    """Replays the bonus-turn dice, then answers 1 to every other draw (the group
    initiative does not change who acts first in the bonus turn)."""

    def __init__(self, inner: _Replay, n: int) -> None:
        self.inner, self.n = inner, n

    def randint(self, a: int, b: int) -> int:
        if self.n:
            self.n -= 1
            return self.inner.randint(a, b)
        return 1


# -- R7: figures that the engine can check ---------------------------------------------------


def test_r1_the_d12_ambush_names_the_attacking_side_b47() -> None:
    """B47: « Embuscade de « Gobelins » » (no article before a side's name) now reads
    « Embuscade du camp « Gobelins » », as the fight's log does."""
    from escarmouche.dice import ScriptedRolls
    from escarmouche.systems import d12
    from escarmouche.systems.d12.narration import initiative_lines

    roster = [Combatant("Bérénice", "Compagnie", {"init": 0}, traits={"alerte"}),
              Combatant("Gobelin 1", "Gobelins", {"init": 1})]
    init = d12.initiative(roster, ScriptedRolls([9, 7, 5, 2]), ambush_by="Gobelins")
    text = " ".join(initiative_lines(init)).replace("\u00a0", " ")
    assert ("Embuscade du camp « Gobelins » (D12-SURPRISE-1, D12-SURPRISE-2) : tour "
            "bonus") in text, text


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
