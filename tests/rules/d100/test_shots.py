"""The start option ``tirs``: how far, and whether into a melee, a fighter's automated
shots go (a d100 fight has no positions; the GM declares them once). Rule IDs:
D100-RANGED-4, D100-RANGED-5, CORE-ERR."""

from __future__ import annotations

import pytest

from escarmouche.dice import ScriptedRolls
from escarmouche.errors import EscarmoucheError
from escarmouche.systems.d100.rules import Rules, get_weapon
from tests.helpers.d100 import BRUNE, GROLK, events, started

BOW = {"Brune": {"directrice": "arc"}}
#: the bow's short and long ranges, as the catalogue declares them (D100-RANGED-5)
SHORT, LONG = get_weapon("arc").short_range, get_weapon("arc").long_range


def _first_shot(rules: Rules | None = None, **shot: object) -> dict[str, object] | None:
    """Brune (CT 50, bow 24/48) acts first (d10 9 against 1) and plays one round."""
    enc = started([BRUNE, GROLK], [9, 1], rules=rules, equipement=BOW,
                  tirs={"Brune": shot})
    enc.run(ScriptedRolls([99] * 8), max_turns=1)
    shots = [e.data for e in events(enc, "attaque") if e.data["attacker"] == "Brune"]
    return shots[0] if shots else None


def test_shots_go_at_the_declared_distance_into_the_melee_d100_ranged_4_5() -> None:
    """D100-RANGED-4/5: between the bow's short and long range, into a melee: CT 50 with
    the long-range and the melee modifiers the rules declare."""
    rules = Rules()
    shot = _first_shot(distance=(SHORT + LONG) // 2, cible_engagee=True)
    assert shot is not None
    target = shot["target"]
    assert isinstance(target, dict)
    assert target["total"] == (50 + rules.shooting_into_melee_modifier
                               + rules.beyond_short_range_modifier)
    assert target["range_band"] == "longue"
    assert [m["rules"] for m in target["modifiers"]] == [["D100-RANGED-4"], ["D100-RANGED-5"]]


def test_without_the_option_shots_stay_at_short_range_d100_ranged_5() -> None:
    """D100-RANGED-5: with no declared distance a shot is at the bow's short range."""
    shot = _first_shot()
    assert shot is not None and shot["target"]["total"] == 50  # type: ignore[index]


def test_a_shot_out_of_reach_is_not_taken_d100_ranged_5() -> None:
    """D100-RANGED-5: past the long range, the bow reaches only as far as the rules'
    factor allows; at once the long range, Brune takes no shot (the fight goes on)."""
    beyond = LONG + 12
    assert _first_shot(Rules(max_range_factor=2), distance=beyond) is not None
    assert _first_shot(Rules(max_range_factor=1), distance=beyond) is None


@pytest.mark.parametrize(("tirs", "field"), [
    ({"Personne": {"distance": 5}}, "tirs"),
    ({"Brune": {"distanse": 5}}, "tirs"),
    ({"Brune": {"distance": -1}}, "distance"),
    ({"Brune": {"cible_engagee": "oui"}}, "cible_engagee"),
    ({"Brune": 12}, "tirs"),
])
def test_a_bad_shot_declaration_is_refused_in_french_core_err(tirs: object,
                                                               field: str) -> None:
    """CORE-ERR: an unknown shooter or key, a negative distance, a flag that is not one:
    a French refusal naming the field, and the fight does not start."""
    with pytest.raises(EscarmoucheError) as refusal:
        started([BRUNE, GROLK], [9, 1], equipement=BOW, tirs=tirs)
    assert refusal.value.field == field
    assert refusal.value.rule in {"D100-RANGED-4", "D100-RANGED-5"}
