"""The exact effect of a change on a duel, in French (``escarmouche.text.exact_text``):
two exact solutions compared, each side's chance before and after and the difference in
signed percentage points, with French typography (CORE-DICE: nothing sampled, so no
interval; CORE-ERR: two different duels are refused)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from escarmouche.errors import EscarmoucheError
from escarmouche.exact import ExactDuel
from escarmouche.text.exact_text import effect_clause, effect_points, effect_sentence
from tests.helpers.typography import problems

NBSP, NNBSP, MINUS = "\u00a0", "\u202f", "\u2212"


def solved(heroes: F | float, *, draw: F | float = F(0), cap: F | float = F(0),
           sides: tuple[str, str] = ("héros", "orques"), turn_word: str = "round"
           ) -> ExactDuel:
    """A hand-built solution: the first side wins ``heroes``, the second the rest."""
    rest = 1 - heroes - draw - cap
    return ExactDuel("Duel", sides, {sides[0]: heroes, sides[1]: rest}, draw, cap,
                     {3: F(1)}, 10, 50, turn_word)


def plain(text: str) -> str:
    return text.replace(NBSP, " ").replace(NNBSP, " ")


def test_the_sentence_core_dice() -> None:
    """CORE-DICE: both sides, after then before, the signed difference in points, and
    « calcul exact » once, on the first side."""
    text = effect_sentence(solved(F(443, 1000)), solved(F(471, 1000)), "1d8")
    assert plain(text) == ("Avec « 1d8 », « héros » gagne 47,1 % au lieu de 44,3 % "
                           "(+2,8 points, calcul exact) ; « orques », 52,9 % au lieu de "
                           f"55,7 % ({MINUS}2,8 points).")
    assert text.count("calcul exact") == 1


def test_the_sentence_is_french_typography_core_dice() -> None:
    """CORE-DICE: no plain space before ; : % nor inside « », a minus sign, no « (s) »."""
    pairs: list[tuple[F | float, F | float]] = [
        (F(443, 1000), F(471, 1000)), (F(1, 2), F(1, 2)), (0.5, 0.5004), (F(1, 3), F(1, 4))]
    for before, after in pairs:
        for duel_before, duel_after in [
                (solved(before), solved(after)),
                (solved(before, draw=F(1, 50)), solved(after, draw=F(1, 40))),
                (solved(before, cap=F(1, 100)), solved(after, cap=F(1, 200)))]:
            text = effect_sentence(duel_before, duel_after, "critique à 10")
            assert problems(text) == [], text
            assert " ;" not in text and " %" not in text and "« " not in text
            assert " »" not in text and " :" not in text
            assert "-" not in text.replace("calcul exact", "")  # no hyphen-minus sign


def test_points_are_signed_and_agreed_core_dice() -> None:
    """CORE-DICE: « point » singular below 2, plural from 2 (French), the minus sign,
    two decimals when one would show 0, nothing when the chances are the same."""
    assert effect_points(F(1, 2), F(52, 100)) == "+2,0 points"
    assert effect_points(F(1, 2), F(515, 1000)) == "+1,5 point"
    assert effect_points(F(1, 2), F(4, 10)) == f"{MINUS}10,0 points"
    assert effect_points(F(1, 2), F(4996, 10_000)) == f"{MINUS}0,04 point"
    assert effect_points(F(1, 2), F(1, 2) + F(1, 10**6)) == "moins de 0,01 point d’écart"
    assert effect_points(F(1, 3), F(1, 3)) == ""


def test_floats_agreeing_to_1e12_are_the_same_core_dice() -> None:
    """CORE-DICE: two float solutions of one law differ by about 10⁻¹² (exact=False):
    not a change; a change that moves nothing is said in one clause."""
    text = effect_sentence(solved(0.578), solved(0.578 + 3e-13), "deux mains")
    assert plain(text) == ("Avec « deux mains », rien ne change dans ce duel : « héros » "
                           "57,8 % et « orques » 42,2 % de victoires, comme avant "
                           "(calcul exact).")
    assert problems(text) == []


def test_one_side_unmoved_is_said_as_before_core_dice() -> None:
    """CORE-DICE: when only the draw moves, each side still says « comme avant »."""
    text = plain(effect_sentence(solved(F(1, 2), draw=F(1, 10)),
                                 solved(F(1, 2), draw=F(1, 5)), "x"))
    assert text.startswith("Avec « x », « héros » gagne 50,0 % comme avant (calcul exact)")
    assert "le nul (personne debout) vaut 20,0 % au lieu de 10,0 % (+10,0 points)" in text


def test_a_draw_and_the_cap_show_when_they_count_core_end_1() -> None:
    """CORE-END-1: a draw or the turn cap is said when one of the two solutions gives it
    0,05 % or more, in the system's word for a round; not otherwise."""
    text = plain(effect_sentence(solved(F(1, 2), draw=F(1, 50), cap=F(1, 100),
                                        turn_word="tour"),
                                 solved(F(1, 2), draw=F(1, 40), cap=F(0), turn_word="tour"),
                                 "1d8"))
    assert "le nul (personne debout) vaut 2,5 % au lieu de 2,0 % (+0,5 point)" in text
    assert ("l’arrêt à la limite de 50 tours vaut 0,0 % au lieu de 1,0 % "
            f"({MINUS}1,0 point)") in text
    quiet = effect_sentence(solved(F(1, 2), cap=F(1, 10**5)), solved(F(1, 2)), "1d8")
    assert "nul" not in quiet and "limite" not in quiet


def test_a_clause_alone_core_dice() -> None:
    """CORE-DICE: the clause other sentences are made of."""
    assert plain(effect_clause(F(1, 4), F(1, 2), "« orques »")) == (
        "« orques » gagne 50,0 % au lieu de 25,0 % (+25,0 points)")
    assert plain(effect_clause(F(1, 4), F(1, 2), "« orques »", "")) == (
        "« orques », 50,0 % au lieu de 25,0 % (+25,0 points)")


def test_two_different_duels_are_refused_core_err() -> None:
    """CORE-ERR: the sides must be the same, else a French refusal naming them."""
    with pytest.raises(EscarmoucheError, match="autres camps") as err:
        effect_sentence(solved(F(1, 2)), solved(F(1, 2), sides=("elfes", "nains")), "x")
    assert err.value.rule == "CORE-ERR"
