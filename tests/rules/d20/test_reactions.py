"""System d20 (seed 003), reactions: D20-OPP-1/2, D20-IMM-1/2.

Opportunity attacks: the three cases and the grid (D20-OPP-2), one per other
combatant's turn, resolved before the move they cancel (D20-OPP-1); immediate actions:
one per round, never on one's own turn (D20-IMM-1), interruptions before their trigger
and reactions after it (D20-IMM-2), with dice fixed by ScriptedRolls.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from escarmouche import Combatant, EscarmoucheError
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter
from escarmouche.systems import d20
from tests.helpers.d20 import (
    INIT_ROLLS,
    assert_rejected,
    kinds,
    last,
    pos,
    roster,
    started,
    to_gob,
)
from tests.helpers.proofreading import (
    assert_refusal_shape,
    d20_trio,
    refused,
)

# -- D20-OPP-2: the three cases, the grid ------------------------------------------------


def test_opportunity_attack_three_cases_d20_opp_2() -> None:
    """D20-OPP-2: exactly three cases, and only by an adjacent enemy."""
    for trigger in ("quitte_case_adjacente", "attaque_distance", "attaque_zone"):
        assert d20.opportunity_attack_allowed(trigger, True) is True
        assert d20.opportunity_attack_allowed(trigger, False) is False
    for other in ("attaque_corps_a_corps", "se_relever", "", "Attaque_distance"):
        assert d20.opportunity_attack_allowed(other, True) is False
    with pytest.raises(EscarmoucheError, match="D20-OPP-2"):
        d20.opportunity_attack_allowed("attaque_zone", 1)  # type: ignore[arg-type]


@given(st.text(max_size=25), st.booleans())
def test_opportunity_allowed_only_in_the_list_d20_opp_2(trigger: str, adjacent: bool) -> None:
    """D20-OPP-2 (property): anything outside the three cases never allows one."""
    expected = adjacent and trigger in {
        "quitte_case_adjacente", "attaque_distance", "attaque_zone"}
    assert d20.opportunity_attack_allowed(trigger, adjacent) is expected


def test_adjacency_is_the_eight_neighbours_d20_opp_2() -> None:
    """D20-OPP-2: adjacent = the 8 neighbouring squares of the grid."""
    around = [(x, y) for x in range(-3, 4) for y in range(-3, 4)
              if d20.is_adjacent((0, 0), (x, y))]
    assert sorted(around) == sorted(
        (dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0))
    assert not d20.is_adjacent([4, 4], [4, 4])
    with pytest.raises(EscarmoucheError, match="D20-OPP-2"):
        d20.is_adjacent([0], [1, 1])


@given(st.tuples(st.integers(-50, 50), st.integers(-50, 50)),
       st.tuples(st.integers(-50, 50), st.integers(-50, 50)))
def test_adjacency_symmetric_d20_opp_2(a: tuple[int, int], b: tuple[int, int]) -> None:
    """D20-OPP-2 (property): adjacency is symmetric and never reflexive."""
    assert d20.is_adjacent(a, b) == d20.is_adjacent(b, a)
    assert not d20.is_adjacent(a, a)


# -- D20-OPP-1 / D20-IMM-2: interrupts that cancel a move (the required test) -------------


def test_opportunity_attack_kills_mover_move_cancelled_d20_opp_1() -> None:
    """D20-OPP-1: Gob leaves (1, 1), adjacent to Thorin; Thorin's opportunity attack
    resolves first: 15 + 5 = 20 ≥ 12, 1d6 = 5 ≥ Gob's 5 PV. The move is cancelled: Gob
    is at its start square, dead."""
    enc = to_gob(started())
    rng = ScriptedRolls([15, 5])
    events = enc.act("Gob", "deplacement", rng, chemin=[[2, 1], [3, 1]],
                     reactions=[{"par": "Thorin", "type": "attaque_opportunite"}])
    assert rng.remaining == 0
    gob = enc.fighter("Gob")
    assert gob.out and gob.tracks["PV"] == 0
    assert pos(enc, "Gob") == [1, 1]
    assert kinds(events) == ["action", "attaque_opportunite", "attaque", "hors_combat",
                             "action_annulee"]
    cancel = last(enc, "action_annulee")
    assert cancel.rules == ("D20-OPP-1",) and cancel.data["to"] == [1, 1]
    assert not any(e.kind == "deplacement" for e in enc.log)
    assert "D20-OPP-2" in last(enc, "attaque").rules


def test_interrupt_kills_mover_move_cancelled_d20_imm_2() -> None:
    """D20-IMM-2: Pip's immediate interruption resolves before Gob's move: 10 + 4 = 14 ≥
    12, 2d6 = 3 + 4 = 7 ≥ 5 PV. The move is cancelled: Gob stays at (1, 1), dead; the
    move action stays spent (Rules.cancelled_action_spent, pinned)."""
    enc = to_gob(started(d20.Rules(cancelled_action_spent=True)))
    rng = ScriptedRolls([10, 3, 4])
    enc.act("Gob", "deplacement", rng, chemin=[[2, 2]],
            reactions=[{"par": "Pip", "type": "interruption", "arme": "2d6",
                        "nom": "Fronde éclair"}])
    assert rng.remaining == 0
    assert enc.fighter("Gob").out
    assert pos(enc, "Gob") == [1, 1]
    cancel = last(enc, "action_annulee")
    assert cancel.rules == ("D20-IMM-2",)
    assert enc.fighter("Gob").flags["budget"]["actions"] == ["mouvement"]
    interrupt = last(enc, "interruption")
    assert interrupt.seq < cancel.seq and "Fronde éclair" in interrupt.text
    assert enc.fighter("Pip").flags["immediate"] is True


def test_opportunity_attack_on_the_square_left_mid_path_d20_opp_1() -> None:
    """D20-OPP-1: the attack comes when the mover leaves a square adjacent to the
    attacker; cancelled there, the mover stays on that square.

    Gob (3, 0) → (2, 1) → (1, 1) → (0, 2): (1, 1) is the first square adjacent to
    Thorin (0, 0) that it leaves. Thorin: 18 + 5 = 23 ≥ 12, 1d6 = 6 ≥ 5 PV.
    """
    enc = Encounter("d20", roster())
    enc.start(ScriptedRolls(INIT_ROLLS),
              positions={"Thorin": [0, 0], "Gob": [3, 0], "Pip": [-5, 5], "Grik": [5, 5]})
    to_gob(enc)
    enc.act("Gob", "deplacement", ScriptedRolls([18, 6]), chemin=[[2, 1], [1, 1], [0, 2]],
            reactions=[{"par": "Thorin", "type": "attaque_opportunite"}])
    assert enc.fighter("Gob").out
    assert pos(enc, "Gob") == [1, 1]
    # the same move, missed: Gob completes it
    enc = Encounter("d20", roster())
    enc.start(ScriptedRolls(INIT_ROLLS),
              positions={"Thorin": [0, 0], "Gob": [3, 0], "Pip": [-5, 5], "Grik": [5, 5]})
    to_gob(enc)
    enc.act("Gob", "deplacement", ScriptedRolls([2]), chemin=[[2, 1], [1, 1], [0, 2]],
            reactions=[{"par": "Thorin", "type": "attaque_opportunite"}])
    assert pos(enc, "Gob") == [0, 2]
    assert last(enc, "deplacement").data["cancelled"] is False


def test_opportunity_attack_requires_one_of_the_cases_d20_opp_2() -> None:
    """D20-OPP-2: no square left adjacent to the attacker, an ally, or a melee attack:
    no opportunity attack (rejected before any die)."""
    enc = to_gob(started())
    # Pip (-3, 3) is not adjacent to any square Gob leaves
    assert_rejected(enc, "D20-OPP-2", "Gob", "deplacement", chemin=[[2, 2]],
                    reactions=[{"par": "Pip", "type": "attaque_opportunite"}])
    # Grik is Gob's ally
    assert_rejected(enc, "D20-OPP-2", "Gob", "deplacement", chemin=[[2, 2]],
                    reactions=[{"par": "Grik", "type": "attaque_opportunite"}])
    # a melee attack by an adjacent enemy is not one of the three cases
    assert_rejected(enc, "D20-OPP-2", "Gob", "attaquer", cible="Thorin",
                    reactions=[{"par": "Thorin", "type": "attaque_opportunite"}])
    # a ranged attack by an enemy that is not adjacent to the would-be attacker
    assert_rejected(enc, "D20-OPP-2", "Gob", "attaquer", cible="Thorin", portee="distance",
                    reactions=[{"par": "Pip", "type": "attaque_opportunite"}])
    # an opportunity attack is no standalone action
    assert_rejected(enc, "D20-OPP-1", "Thorin", "attaque_opportunite")


def test_opportunity_attack_on_ranged_and_area_attacks_d20_opp_2() -> None:
    """D20-OPP-2: an adjacent enemy making a ranged or an area attack provokes one; it
    resolves before the attack. Thorin 2 + 5 = 7 < 12 (miss); Gob 10 + 3 = 13 < 14
    against Pip (miss)."""
    enc = to_gob(started())
    events = enc.act("Gob", "attaquer", ScriptedRolls([2, 10]), cible="Pip",
                     portee="distance",
                     reactions=[{"par": "Thorin", "type": "attaque_opportunite"}])
    attacks = [e for e in events if e.kind == "attaque"]
    assert [(a.actor, a.data["roll"]) for a in attacks] == [("Thorin", 2), ("Gob", 10)]
    enc = to_gob(started())
    # area: Thorin misses (3 + 5 = 8); Gob rolls against Pip (4 + 3 = 7 < 14) and
    # Thorin (19 + 3 = 22 ≥ 16, 1d6 = 2)
    enc.act("Gob", "attaquer", ScriptedRolls([3, 4, 19, 2]), cibles=["Pip", "Thorin"],
            portee="zone", reactions=[{"par": "Thorin", "type": "attaque_opportunite"}])
    assert enc.fighter("Thorin").tracks["PV"] == 18


def test_opportunity_once_per_other_combatant_turn_d20_opp_1() -> None:
    """D20-OPP-1: one opportunity action per other combatant's turn; it comes back at
    the start of the next combatant's turn."""
    enc = to_gob(started())
    assert d20.can_react(enc.state, "Thorin", "attaque_opportunite")
    assert not d20.can_react(enc.state, "Gob", "attaque_opportunite")  # its own turn
    enc.act("Gob", "deplacement", ScriptedRolls([2]), chemin=[[1, 0]],
            reactions=[{"par": "Thorin", "type": "attaque_opportunite"}])  # 7 < 12
    assert pos(enc, "Gob") == [1, 0]
    assert not d20.can_react(enc.state, "Thorin", "attaque_opportunite")
    assert d20.can_react(enc.state, "Thorin", "interruption")  # another allowance
    # Gob's second move (in its standard slot) leaves (1, 0), adjacent to Thorin again
    assert_rejected(enc, "D20-OPP-1", "Gob", "deplacement", chemin=[[2, 0]],
                    reactions=[{"par": "Thorin", "type": "attaque_opportunite"}])
    enc.act("Gob", "deplacement", chemin=[[2, 0]])
    enc.end_activation(ScriptedRolls([]))  # Pip
    enc.end_activation(ScriptedRolls([]))  # Grik
    assert enc.current == "Grik"
    assert d20.can_react(enc.state, "Thorin", "attaque_opportunite")
    enc.act("Grik", "deplacement", ScriptedRolls([2]), chemin=[[1, -2]],
            reactions=[{"par": "Thorin", "type": "attaque_opportunite"}])
    assert last(enc, "attaque").actor == "Thorin"
    # twice in one declaration is refused too
    enc2 = to_gob(started())
    assert_rejected(enc2, "D20-OPP-1", "Gob", "deplacement", chemin=[[2, 1], [3, 1]],
                    reactions=[{"par": "Thorin", "type": "attaque_opportunite"},
                               {"par": "Thorin", "type": "attaque_opportunite"}])


def test_moot_reactions_use_no_allowance_d20_opp_1() -> None:
    """D20-OPP-1: after the mover is dead, the other declared opportunity attacks do not
    happen and use no allowance. Thorin kills Gob (15 + 5, 1d6 = 6)."""
    enc = Encounter("d20", roster())
    enc.start(ScriptedRolls(INIT_ROLLS),
              positions={"Thorin": [0, 0], "Gob": [1, 1], "Pip": [2, 2], "Grik": [5, 5]})
    to_gob(enc)
    enc.act("Gob", "deplacement", ScriptedRolls([15, 6]), chemin=[[1, 2]],
            reactions=[{"par": "Thorin", "type": "attaque_opportunite"},
                       {"par": "Pip", "type": "attaque_opportunite"}])
    moot = last(enc, "reaction_sans_objet")
    assert moot.actor == "Pip"
    assert enc.fighter("Pip").flags["opportunite"] is None


# -- D20-IMM-1 / D20-IMM-2 ----------------------------------------------------------------


def test_immediate_never_on_own_turn_d20_imm_1() -> None:
    """D20-IMM-1: no immediate action during one's own turn."""
    enc = started()
    assert_rejected(enc, "D20-IMM-1", "Thorin", "interruption", declencheur="un bruit")
    assert_rejected(enc, "D20-IMM-1", "Thorin", "deplacement", chemin=[[-1, 0]],
                    reactions=[{"par": "Thorin", "type": "reaction", "effet": "autre"}])


def test_one_immediate_per_round_reset_on_own_turn_d20_imm_1() -> None:
    """D20-IMM-1: one immediate action per round; it comes back at the start of one's own
    turn (the original edition's ruling, pinned)."""
    enc = to_gob(started(d20.Rules(immediate_reset="debut_de_son_tour")))
    enc.act("Pip", "interruption", declencheur="Gob bande son arc", nom="Deuxième chance")
    assert last(enc, "interruption").rules == ("D20-IMM-1", "D20-IMM-2")
    assert_rejected(enc, "D20-IMM-1", "Pip", "reaction", declencheur="encore")
    enc.end_activation(ScriptedRolls([]))  # Pip's turn starts: the allowance is back
    assert enc.current == "Pip" and enc.fighter("Pip").flags["immediate"] is False
    enc.end_activation(ScriptedRolls([]))  # Grik
    enc.act("Pip", "reaction", declencheur="Grik s’enfuit")
    assert_rejected(enc, "D20-IMM-1", "Pip", "reaction", declencheur="encore")


def test_immediate_reset_each_round_option_d20_imm_1() -> None:
    """D20-IMM-1, alternative ruling: the allowance comes back at each round's start."""
    enc = to_gob(started(d20.Rules(immediate_reset="debut_du_round")))
    enc.act("Pip", "interruption", declencheur="Gob bande son arc")
    enc.end_activation(ScriptedRolls([]))  # Pip's turn: not back under this option
    enc.end_activation(ScriptedRolls([]))  # Grik
    assert_rejected(enc, "D20-IMM-1", "Pip", "reaction", declencheur="Grik s’enfuit")
    enc.end_activation(ScriptedRolls([]))  # round 2, Thorin
    enc.act("Pip", "reaction", declencheur="Thorin crie")
    with pytest.raises(EscarmoucheError, match="D20-IMM-1"):
        d20.Rules(immediate_reset="jamais")


def test_interruption_before_and_reaction_after_d20_imm_2() -> None:
    """D20-IMM-2: an interruption resolves before its trigger (and cancels it when it
    kills the attacker); a reaction resolves after the trigger has fully resolved."""
    # Interruption: Pip 15 + 4 = 19 ≥ 12, 1d8 = 5 ≥ 5 PV: Gob's ranged attack is cancelled
    enc = to_gob(started())
    events = enc.act("Gob", "attaquer", ScriptedRolls([15, 5]), cible="Pip",
                     portee="distance",
                     reactions=[{"par": "Pip", "type": "interruption", "arme": "1d8"}])
    assert enc.fighter("Gob").out
    assert [e.actor for e in events if e.kind == "attaque"] == ["Pip"]
    assert last(enc, "action_annulee").rules == ("D20-IMM-2",)
    # Reaction: Gob 10 + 3 = 13 < 14 (miss), then Pip 1 + 4 = 5 < 12 (miss)
    enc = to_gob(started())
    events = enc.act("Gob", "attaquer", ScriptedRolls([10, 1]), cible="Pip",
                     portee="distance",
                     reactions=[{"par": "Pip", "type": "reaction", "nom": "Riposte"}])
    seq = [(e.kind, e.actor) for e in events if e.kind in ("attaque", "reaction")]
    assert seq == [("attaque", "Gob"), ("reaction", "Pip"), ("attaque", "Pip")]
    # a reaction cannot cancel its trigger
    enc = to_gob(started())
    assert_rejected(enc, "D20-IMM-2", "Gob", "deplacement", chemin=[[2, 2]],
                    reactions=[{"par": "Pip", "type": "reaction", "effet": "arret"}])


def test_reaction_after_a_trigger_that_knocks_out_its_author_d20_imm_2() -> None:
    """D20-IMM-2: the trigger resolves fully first; when it knocks out the one who
    declared a reaction, the reaction does not happen and uses no allowance.
    Gob 20 + 3 = 23 ≥ 14, 2d6 = 6 + 6 = 12 = Pip's 12 PV."""
    enc = to_gob(started())
    rng = ScriptedRolls([20, 6, 6])
    enc.act("Gob", "attaquer", rng, cible="Pip", portee="distance", arme="2d6",
            reactions=[{"par": "Pip", "type": "reaction", "nom": "Riposte"}])
    assert rng.remaining == 0
    assert enc.fighter("Pip").out
    moot = last(enc, "reaction_sans_objet")
    assert moot.actor == "Pip" and "hors de combat" in moot.text
    assert moot.seq > last(enc, "hors_combat").seq
    assert enc.fighter("Pip").flags["immediate"] is False


def test_interruption_that_stops_a_move_d20_imm_2() -> None:
    """D20-IMM-2: an interruption that invalidates the move (« arret ») cancels it: Gob
    stays on its square, alive. The move action stays spent by default, and is given
    back with Rules(cancelled_action_spent=False)."""
    decl = [{"par": "Pip", "type": "interruption", "effet": "arret", "nom": "Entrave"}]
    enc = to_gob(started(d20.Rules(cancelled_action_spent=True)))
    enc.act("Gob", "deplacement", chemin=[[2, 2]], reactions=decl)
    assert pos(enc, "Gob") == [1, 1] and not enc.fighter("Gob").out
    assert enc.fighter("Gob").flags["budget"]["actions"] == ["mouvement"]
    enc = to_gob(started(d20.Rules(cancelled_action_spent=False)))
    enc.act("Gob", "deplacement", chemin=[[2, 2]], reactions=decl)
    assert enc.fighter("Gob").flags["budget"]["actions"] == []
    assert "rendue" in last(enc, "action_annulee").text


# -- the two refusals a fuzz sample found ---------------------------------------------------


def test_b100_the_opportunity_attack_refusal_quotes_no_python_d20_opp_1() -> None:
    """B100: taken on its own, an opportunity attack was refused with Python in the
    sentence, « par exemple reactions=[{"par": "A", "type": "attaque_opportunite"}] »
    (and the dict's colons made three in one sentence)."""
    enc = Encounter("d20", [Combatant("A", "x", {"PV": 5}), Combatant("B", "y", {"PV": 5})])
    enc.start(random.Random(1), positions={"A": [0, 0], "B": [1, 0]})
    other = next(name for name in ("A", "B") if name != enc.current)
    with pytest.raises(EscarmoucheError) as caught:
        enc.act(other, "attaque_opportunite", random.Random(2))
    text = assert_refusal_shape(caught.value)
    assert text.startswith("Action «\u00a0Attaque d’opportunité\u00a0» refusée"), text
    assert "«\u00a0réactions\u00a0»" in text and f"faite par {other}" in text, text
    assert "D20-OPP-1" in text


# -- what the engine writes on the d20 pages (`d20/tour`, `d20/hors-tour`) ------------------


@pytest.mark.parametrize("reset, back", [
    ("debut_de_son_tour", "Pipin a déjà pris son action immédiate, qui ne lui revient qu’au "
                          "début de son propre tour, comme dans l’édition originale (D20-IMM-1)."),
    ("debut_du_round", "Pipin a déjà pris son action immédiate de ce round, qui ne lui revient "
                       "qu’au début du round suivant (D20-IMM-1)."),
])
def test_b118_a_second_immediate_action_is_refused_in_the_terms_of_its_option_d20_imm_1(
        reset: str, back: str) -> None:
    """B118: the refusal said « … de ce round ; elle revient au début de son propre tour
    (édition originale) (D20-IMM-1). » under the default, where the allowance is not
    counted by round, with two parentheses in a row."""
    from escarmouche.dice import ScriptedRolls
    from escarmouche.systems import d20

    roster = [Combatant("Thorin", "PJ", {"PV": 30, "init": 2}),
              Combatant("Pipin", "PJ", {"PV": 20}),
              Combatant("Orque", "Orques", {"PV": 25, "init": 1})]
    enc = Encounter("d20", roster, rules=d20.Rules(immediate_reset=reset))
    enc.start(ScriptedRolls([5, 4, 18]),
              positions={"Thorin": [0, 0], "Pipin": [0, 1], "Orque": [1, 0]})
    assert enc.current == "Orque"
    enc.act("Pipin", "interruption", declencheur="un cri", effet="autre", nom="Esquive")
    with pytest.raises(EscarmoucheError) as caught:
        enc.act("Pipin", "reaction", declencheur="un autre cri", effet="autre", nom="Esquive")
    text = assert_refusal_shape(caught.value)
    assert text.endswith(back), text


def test_b119_an_unknown_reaction_key_is_refused_with_a_choice_d20_opp_1() -> None:
    """B119: an unknown key in a declared reaction was refused with a second colon,
    « … : clé inconnue ; clés : par, type, … » (B35 fixed the other « inconnu » ones)."""
    from escarmouche.dice import ScriptedRolls

    roster = [Combatant("Thorin", "PJ", {"PV": 30, "init": 2}),
              Combatant("Orque", "Orques", {"PV": 25, "init": 1})]
    enc = Encounter("d20", roster)
    enc.start(ScriptedRolls([5, 18]), positions={"Thorin": [0, 0], "Orque": [1, 0]})
    with pytest.raises(EscarmoucheError) as caught:
        enc.act("Orque", "attaquer", ScriptedRolls([12, 5]), cible="Thorin",
                portee="distance", reactions=[{"par": "Thorin", "type": "attaque_opportunite",
                                               "vitesse": 3}])
    text = assert_refusal_shape(caught.value)
    assert "clé inconnue, à choisir parmi «\u00a0par\u00a0»" in text, text


# -- the simulation pages (`d100/simulation`, `d12/simulation`, `d20/simulation`) ---------


def test_b129_an_opportunity_attack_refusal_speaks_of_the_reactor_d20_opp_2() -> None:
    """B129: « Brune n’est pas adjacent à … » (a woman; the engine cannot know a name's
    gender), then « seuls 3 cas la permettent : un ennemi quitte une case qui vous est
    adjacente ; … » (a second colon, and « vous » in a sentence about Brune)."""
    melee = refused(d20_trio(), "Orque", "attaquer", cible="Thorin",
                     reactions=[{"par": "Brune", "type": "attaque_opportunite"}])
    assert "une attaque au corps à corps ne permet pas d’attaque d’opportunité" in melee
    assert " vous " not in melee and "seuls trois cas la permettent, quand" in melee, melee
    enc = d20_trio()
    enc.act("Orque", "deplacement", chemin=[[2, 0], [3, 0]])
    enc.end_activation()
    far = refused(enc, str(enc.current), "attaquer", cible="Orque", portee="distance",
                   reactions=[{"par": "Orque", "type": "attaque_opportunite"}])
    assert "ne sont pas sur des cases adjacentes" in far and "adjacent à" not in far, far


# -- D20-ACT-*: the budget in the encounter ------------------------------------------------


def test_melee_needs_adjacency_d20_opp_2() -> None:
    """D20-OPP-2 (adjacency): a melee attack needs a target on one of the 8 neighbouring
    squares; a ranged attack does not."""
    enc = started()
    assert_rejected(enc, "D20-OPP-2", "Thorin", "attaquer", cible="Pip")
    enc2 = started()
    assert_rejected(enc2, "CORE-ERR", "Thorin", "attaquer", cible="Thorin")
