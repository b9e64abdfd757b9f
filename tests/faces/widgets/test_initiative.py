"""Demo « Initiative » and the exact odds behind it, checked against brute force."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from escarmouche_widgets import RosterRow
from escarmouche_widgets.initiative import InitiativeDemo

from escarmouche import Combatant
from escarmouche.odds import first_odds, uniform
from escarmouche.systems import d12, rulebook
from escarmouche.text.fmt import percent

# -- exact odds ----------------------------------------------------------------------------


def brute_first(entries: list[tuple[str, int, int, int]]) -> dict[str, Fraction]:
    """(name, key, faces, plus): enumerate every roll; a fair roll-off splits ties."""
    out = {e[0]: Fraction(0) for e in entries}
    ranges = [range(1, faces + 1) for _, _, faces, _ in entries]
    weight = Fraction(1)
    for _, _, faces, _ in entries:
        weight /= faces
    for rolls in itertools.product(*ranges):
        keys = [(r + plus, key) for r, (_, key, _, plus) in zip(rolls, entries, strict=True)]
        best = max(keys)
        top = [e[0] for e, k in zip(entries, keys, strict=True) if k == best]
        for n in top:
            out[n] += weight / len(top)
    return out


@pytest.mark.parametrize(
    "entries",
    [
        [("A", 2, 20, 2), ("B", 3, 20, 3), ("C", 2, 20, 2)],
        [("A", 40, 10, 40), ("B", 45, 10, 45), ("C", 38, 10, 38)],
        [("A", 1, 6, 1), ("B", 1, 6, 1), ("C", 1, 6, 1), ("D", 0, 6, 2)],
    ],
)
def test_first_odds_matches_brute_force(entries: list[tuple[str, int, int, int]]) -> None:
    odds = first_odds([(n, k, uniform(f, p)) for n, k, f, p in entries])
    assert odds == brute_first(entries)
    assert sum(odds.values()) == 1


def test_first_odds_rulebook_against_the_engine() -> None:
    """RB-INIT-2: the engine's first-to-act odds (rulebook.first_to_act_odds, which the
    demo shows) against its order for each pair of d100 rolls."""
    a = Combatant("A", "x", {"HAB": 50})
    b = Combatant("B", "y", {"HAB": 50})
    wins = Fraction(0)
    for ra, rb_ in itertools.product(range(1, 101), repeat=2):
        if rulebook.d100_test(50, ra).margin == rulebook.d100_test(50, rb_).margin and (
            (ra <= 5) == (rb_ <= 5)
        ):
            wins += Fraction(1, 2) / 10_000  # same key, same HAB: a fair roll-off
            continue
        init = rulebook.resolve_initiative([a, b], [ra, rb_])
        if init.order[0] == "A":
            wins += Fraction(1, 10_000)
    assert rulebook.first_to_act_odds([a, b])["A"] == wins == Fraction(1, 2)


# -- the demo --------------------------------------------------------------------------------


def test_rulebook_timeline_turns_0_1_2_with_manual_dice() -> None:
    demo = InitiativeDemo("rulebook")
    demo.options["place_hyperactivite"].value = "juste_apres"  # pinned: the original ruling
    demo.dice.manual.value = True
    # Aldric 3 (critical success), Brune 40, Grolk 98 (critical failure), Vex 20
    demo.dice.dice.value = "3, 40, 98, 20"
    demo.roll_button.click()
    text = demo.result_text
    assert demo.error_text == ""
    assert "- Tour 0\u00a0: Aldric" in text
    assert "- Tour 1\u00a0: Vex, Aldric, Aldric, Brune" in text  # Grolk: RB-INIT-4
    assert "- Tour 2\u00a0: Vex, Aldric, Aldric, Brune, Grolk" in text
    assert "Aldric\u00a0: initiative 3 contre 62, réussite critique" in text
    assert "d100 = 98 (initiative de Grolk)" in text
    assert "RB-INIT-3" in text and "RB-INIT-4" in text and "RB-SPEED-3" in text
    assert demo.output.value.count("<svg") == 1


def test_rulebook_ties_are_explained() -> None:
    rows = [RosterRow("A", "x", "HAB=50"), RosterRow("B", "y", "HAB=50"),
            RosterRow("C", "y", "HAB=60")]
    demo = InitiativeDemo("rulebook", rows)
    demo.dice.manual.value = True
    # A and B both margin 10 with the same HAB → roll-off (A 30, B 70); C margin 10 too
    # but a higher HAB, so C first.
    demo.dice.dice.value = "40 40 50 30 70"
    demo.roll_button.click()
    text = demo.result_text
    assert demo.error_text == ""
    assert "Ordre d’initiative\u00a0: C, B, A (RB-INIT-2)." in text
    assert ("Égalité à la marge 10 entre A, B et C, départagée par la HAB, la plus haute "
            "d’abord (A a 50, B a 50, C a 60), puis au d100, le plus haut d’abord (manche "
            "1\u00a0: A fait 30, B fait 70), d’où l’ordre C, B, A (RB-INIT-2).") in text
    assert "d100 = 30 (départage)\u202f; d100 = 70 (départage)" in text


def test_rulebook_hyperactive_slot_option() -> None:
    demo = InitiativeDemo("rulebook")
    demo.options["place_hyperactivite"].value = "juste_apres"  # pinned: the original ruling
    demo.dice.manual.value = True
    demo.dice.dice.value = "30, 40, 50, 20"
    demo.roll_button.click()
    assert "- Tour 1\u00a0: Vex, Aldric, Aldric, Brune, Grolk" in demo.result_text
    demo.options["place_hyperactivite"].value = "fin_du_tour"
    assert "- Tour 1\u00a0: Vex, Aldric, Brune, Grolk, Aldric" in demo.result_text


def test_d12_group_order_environment_and_odds() -> None:
    demo = InitiativeDemo("d12")
    demo.options["environnement"].value = True
    demo.dice.manual.value = True
    demo.dice.dice.value = "9, 9, 12, 2"  # héros 11, 12 ; monstres 13, 4
    demo.roll_button.click()
    text = demo.result_text
    assert demo.error_text == ""
    assert "- monstres (13)\u00a0: Grolk, Vex" in text
    assert "- héros (12)\u00a0: Brune, Aldric" in text
    assert "- environnement (12)\u00a0: événements passifs" in text
    assert "en cas d’égalité, l’environnement passe en dernier (D12-INIT-5)" in text
    odds = d12.group_odds([Combatant("Aldric", "héros", {"init": 2}),
                           Combatant("Brune", "héros", {"init": 3}),
                           Combatant("Grolk", "monstres", {"init": 1}),
                           Combatant("Vex", "monstres", {"init": 2})])
    assert f"héros {percent(odds.first['héros'])}" in demo.odds_text
    assert "Le groupe agit avant l’environnement" in demo.odds_text


def test_d12_perfect_tie_rerolls_and_labels_dice() -> None:
    rows = [RosterRow("A", "x", "init=0"), RosterRow("B", "y", "init=0")]
    demo = InitiativeDemo("d12", rows)
    demo.dice.manual.value = True
    demo.dice.dice.value = "5 5 7 3"
    demo.roll_button.click()
    text = demo.result_text
    assert "Égalité parfaite" in text
    assert "d12 = 7 (relance d’A)\u202f; d12 = 3 (relance de B)" in text
    assert "- x (7)\u00a0: A" in text


def test_d20_order_and_ties() -> None:
    rows = [RosterRow("A", "x", "init=2"), RosterRow("B", "y", "init=2"),
            RosterRow("C", "y", "init=4")]
    demo = InitiativeDemo("d20", rows)
    demo.dice.manual.value = True
    demo.dice.dice.value = "10 10 8 4 15"  # A 12, B 12, C 12 (init 4 first); A/B roll off
    demo.roll_button.click()
    text = demo.result_text
    assert demo.error_text == ""
    assert "- Chaque round\u00a0: C, B, A" in text
    assert "Égalité à 12 départagée par le modificateur\u00a0: C (+4)" in text
    assert "départagée au d20" in text
    odds = first_odds([("A", 2, uniform(20, 2)), ("B", 2, uniform(20, 2)),
                       ("C", 4, uniform(20, 4))])
    assert f"C {percent(odds['C'])}" in demo.odds_text


def test_bad_input_is_answered_in_french_and_the_result_kept() -> None:
    demo = InitiativeDemo("rulebook")
    shown = demo.output.value
    demo.roster.lines[0].name.value = ""
    demo.roll_button.click()
    assert "nom non vide" in demo.error_text
    assert demo.output.value == shown
    demo.roster.lines[0].name.value = "Aldric"
    demo.roster.lines[0].stats.value = "HAB=160"
    demo.roll_button.click()
    assert "Valeur 160 refusée pour «\u00a0HAB\u00a0»" in demo.error_text
    assert "RB-INIT-1" in demo.error_text
    demo.roster.lines[0].stats.value = "HAB=6O"
    demo.roll_button.click()
    assert "HAB=6O" in demo.error_text
    demo.roster.lines[0].stats.value = "HAB=60"
    demo.roster.lines[0].traits.value = "volant"
    demo.roll_button.click()
    assert "Trait «\u00a0volant\u00a0» refusé" in demo.error_text
    demo.roster.lines[0].traits.value = ""
    demo.dice.manual.value = True
    demo.dice.dice.value = "5, 6"
    demo.roll_button.click()
    assert "plus aucun résultat prévu pour le jet n° 3" in demo.error_text
    assert demo.output.value == shown
    demo.system.value = "d20"
    demo.roster.lines[0].stats.value = "init=500"
    demo.dice.manual.value = False
    demo.roll_button.click()
    # the engine's own check (D20-INIT-1), naming the combatant
    assert demo.error_text.startswith("Valeur 500 refusée pour «\u00a0init\u00a0»\u00a0:")
    assert "pour Aldric (D20-INIT-1)" in demo.error_text


def test_seed_is_reproducible_and_shared_between_rolls() -> None:
    demo = InitiativeDemo("d20", seed=42)
    first = demo.result_text
    assert "(graine 42)" in first
    demo.roll_button.click()
    assert demo.result_text == first
    other = InitiativeDemo("d20", seed=42)
    assert other.result_text == first
    demo.dice.new_seed_button.click()
    assert f"(graine {demo.dice.seed.value})" in demo.result_text


def test_d100_order_ag_ties_and_roll_off() -> None:
    rows = [RosterRow("A", "x", "Ag=40"), RosterRow("B", "y", "Ag=40"),
            RosterRow("C", "y", "Ag=42")]
    demo = InitiativeDemo("d100", rows)
    demo.dice.manual.value = True
    demo.dice.dice.value = "5 5 3 7 2"  # all at 45: C by Ag, then A and B roll off
    demo.roll_button.click()
    text = demo.result_text
    assert demo.error_text == ""
    assert "- Chaque round\u00a0: C, A, B" in text
    assert "Égalité à 45, départagée par l’Ag\u00a0: C (Ag 42)" in text
    assert ("Égalité à 45, départagée au d10, le plus haut d’abord (A fait 7, B fait 2), "
            "d’où l’ordre A, B (D100-INIT-2)") in text  # B102
    assert "d10 = 7 (départage d’A)" in text
    odds = first_odds([("A", 40, uniform(10, 40)), ("B", 40, uniform(10, 40)),
                       ("C", 42, uniform(10, 42))])
    assert f"C {percent(odds['C'])}" in demo.odds_text
    demo.roster.lines[0].stats.value = "Ag=140"
    demo.roll_button.click()
    assert "Valeur 140 refusée pour «\u00a0Ag\u00a0»" in demo.error_text


def test_too_many_sides_for_the_d12_odds_is_said() -> None:
    rows = [RosterRow(f"C{i}", f"camp{i}", "init=0") for i in range(6)]
    demo = InitiativeDemo("d12", rows)
    assert demo.error_text == ""
    assert "Plus de 5 camps" in demo.odds_text
