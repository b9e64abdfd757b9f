"""System d100 (seed 001), RULES.md: the package shape, French parameters,
error kinds, the odds for the widgets (D100-INIT-1/2, D100-JUMP-1/2), the
notebook display and the French descriptions (D100-ATK-3).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import pytest

from escarmouche import Combatant, EscarmoucheError
from escarmouche.dice import ScriptedRolls
from escarmouche.errors import IllegalActionError, ParameterError
from escarmouche.systems import d100
from escarmouche.systems.d100 import (
    ACTIONS,
    Rules,
    attack_distribution,
    attack_odds,
    attack_setup,
    check_turn,
    resolve_attack,
)
from escarmouche.text.fmt import percent
from tests.helpers.d100 import ALDRIC, BRUNE, GROLK, fighter, started

# -- the package's shape, French parameters, error kinds, notebook display ---------------------


def test_catalogue_is_documented_action_specs_with_french_parameters() -> None:
    """Every action is an ActionSpec with a French doc and French parameter names; the
    attack action is « attaquer »; every kind has a resolver (D100-ACT-3)."""
    from escarmouche.systems.base import ActionSpec

    assert "attaquer" in ACTIONS and "attaque_standard" not in ACTIONS
    assert ACTIONS["attaquer"].required == ("cible",)
    english = {"target", "hand", "defence", "target_engaged", "shooter_engaged",
               "line_of_sight", "modifier", "aim", "unreachable", "weapon", "steps",
               "spell", "height", "run_up"}
    for spec in ACTIONS.values():
        assert isinstance(spec, ActionSpec) and spec.doc and spec.label and spec.cost
        assert not english & set(spec.params), spec.id
        assert set(spec.required) <= set(spec.params)
        assert spec.resolver_key in d100.RESOLVERS
        assert spec.rules and all(r.startswith("D100-") for r in spec.rules)
    assert d100.SYSTEM.start_options == ("surpris", "equipement", "montures", "armes", "tirs",
                                         "terrain")
    assert {o.name for o in d100.SYSTEM.options()} == set(d100.SYSTEM.rules_to_json(Rules()))


def test_english_names_are_refused_in_french() -> None:
    """CORE-ERR: the old English parameters and start options are unknown now."""
    enc = started([ALDRIC, GROLK], [4, 10])
    before = enc.to_json()
    with pytest.raises(ParameterError, match=("ne prend pas ce paramètre\u202f; elle prend "
                                              "«\u00a0cible\u00a0»")):  # B126
        enc.act("Aldric", "attaquer", ScriptedRolls([30, 4]), target="Grolk")
    with pytest.raises(ParameterError, match="a besoin de ce paramètre"):
        enc.act("Aldric", "attaquer", ScriptedRolls([30, 4]))
    assert enc.to_json() == before
    with pytest.raises(EscarmoucheError, match="option"):
        started([ALDRIC, GROLK], [4, 10], surprised="héros")


def test_error_kinds_bad_value_or_forbidden_now() -> None:
    """A bad value raises ParameterError; a well-formed action the rules forbid now raises
    IllegalActionError (the same class as in every system)."""
    enc = started([ALDRIC, GROLK], [4, 10])
    rng = ScriptedRolls([30, 4])
    with pytest.raises(ParameterError, match="D100-PARRY-1"):
        enc.act("Aldric", "attaquer", rng, cible="Grolk", defense="contre")
    with pytest.raises(ParameterError, match="D100-ATK-5"):
        enc.act("Aldric", "attaquer", rng, cible="Grolk", main="gauche")
    with pytest.raises(ParameterError, match="D100-ATK-1"):
        enc.act("Aldric", "attaquer", rng, cible="Personne")
    with pytest.raises(ParameterError, match="D100-ATK-1"):
        enc.act("Aldric", "attaquer", rng, cible="Grolk", modificateur=True)
    with pytest.raises(IllegalActionError, match="D100-PARRY-2"):
        enc.act("Aldric", "attaquer", rng, cible="Grolk", defense="parade")
    with pytest.raises(IllegalActionError, match="D100-ROUND-1"):
        enc.act("Grolk", "attaquer", rng, cible="Aldric")
    with pytest.raises(IllegalActionError, match="D100-DODGE-1"):
        enc.act("Aldric", "esquive", rng)
    with pytest.raises(ParameterError, match="D100-ACT-4"):
        enc.act("Aldric", "incantation", rng, etapes=0)
    assert rng.used == 0
    enc.act("Aldric", "viser", details="la gorge")
    enc.act("Aldric", "se_deplacer")
    with pytest.raises(IllegalActionError, match="D100-ACT-1"):
        enc.act("Aldric", "attaquer", rng, cible="Grolk")
    with pytest.raises(ParameterError):
        Rules(parries_per_round=-1)
    with pytest.raises(ParameterError, match="D100-INIT-1"):
        d100.resolve_initiative([ALDRIC, GROLK], [0, 5])


def test_new_names_and_compatibility_names() -> None:
    """The naming rule (resolve_/roll_/_odds/_distribution), with the older names kept."""
    assert d100.initiative_from_dice is d100.resolve_initiative
    assert d100.drop_jump is d100.resolve_drop_jump
    assert d100.long_jump is d100.resolve_long_jump
    assert d100.attack_outcomes is d100.attack_distribution
    assert callable(d100.initiative)  # spec/API.md: the function, not the module


def brute_first(roster: Sequence[Combatant]) -> dict[str, Fraction]:
    """Every joint d10 and every roll-off enumerated (small rosters)."""
    from itertools import product

    out = dict.fromkeys((c.name for c in roster), Fraction(0))
    p = Fraction(1, 10 ** len(roster))
    for rolls in product(range(1, 11), repeat=len(roster)):
        scores = {c.name: c.stats["Ag"] + r for c, r in zip(roster, rolls, strict=True)}
        best = max((scores[c.name], c.stats["Ag"]) for c in roster)
        tied = [c.name for c in roster if (scores[c.name], c.stats["Ag"]) == best]
        for name in tied:  # a fair roll-off among the tied
            out[name] += p / len(tied)
    return out


@pytest.mark.parametrize("ags", [(40, 30), (35, 35), (30, 35, 35), (40, 31, 39)])
def test_first_to_act_odds_d100_init_2(ags: tuple[int, ...]) -> None:
    """D100-INIT-1/2: exact chance to act first, Ag + 1d10, ties to Ag then a fair
    roll-off; equal to a brute-force count."""
    roster = [fighter(f"F{i}", "x" if i % 2 else "y", Ag=ag) for i, ag in enumerate(ags)]
    odds = d100.first_to_act_odds(roster)
    assert odds == brute_first(roster)
    assert sum(odds.values()) == 1


def test_results_display_themselves_in_french() -> None:
    """Results and odds the book shows have a French ``_repr_html_``, never a repr."""
    setup = attack_setup(ALDRIC, GROLK, "arme_a_une_main")
    result = resolve_attack(setup, 63, damage_roll=4)
    html = result._repr_html_()
    assert ("Aldric touche Grolk au bras "
            "gauche") in html and "Seuil d’attaque\u00a0: CC 65." in html
    assert "2. Localisation : 63 inversé → 36, bras gauche (D100-ATK-2)." in result.steps()
    assert "AttackResult(" not in html
    odds = attack_odds(65, defence="parade", defence_target=45)
    assert "<table" in odds._repr_html_() and "porte" in odds._repr_html_()
    out = attack_distribution(setup)
    assert "Zone touchée" in out._repr_html_() and "manquée" in out._repr_html_()
    plan = check_turn(["viser", "attaquer"])
    assert plan.describe() == ("viser et attaque standard : permis (2 demi-actions, "
                               "1 action d’attaque).")
    assert "<p>" in plan._repr_html_()
    init = d100.resolve_initiative([ALDRIC, GROLK], [4, 10])
    assert "<table" in init._repr_html_() and "Ordre de chaque round\u00a0: Aldric puis Grolk." in (
        init._repr_html_())
    assert "Malus de la main non directrice" in Rules()._repr_html_()
    assert "saute de 7 m" in d100.resolve_drop_jump(7, 40, [20, 35, 90])._repr_html_()


@pytest.mark.parametrize(("height", "ag"), [(7, 35), (6, 60), (0, 50), (10, 100), (4, 0)])
def test_drop_jump_distribution_d100_jump_1(height: int, ag: int) -> None:
    """D100-JUMP-1: the exact law of the height fallen equals a walk of every roll."""
    from itertools import product

    tests = d100.resolve_drop_jump(height, 100, [1] * 10).tests
    law: dict[float, Fraction] = {}
    for rolls in product(range(1, 101), repeat=min(tests, 2)):
        jump = d100.resolve_drop_jump(height, ag, [*rolls, *([1] * tests)][:max(tests, 1)])
        if tests > 2 and jump.success:  # past two tests: a closed form for the rest
            continue
        p = Fraction(1, 100 ** min(tests, 2))
        law[jump.fall_height] = law.get(jump.fall_height, Fraction(0)) + p
    got = d100.drop_jump_distribution(height, ag)
    assert sum(got.values()) == 1
    if tests <= 2:
        assert got == {h: p for h, p in law.items() if p}


def test_long_jump_distribution_d100_jump_2() -> None:
    """D100-JUMP-2: M 4, F 40 (BF 4): 8 m on 1–40, 7 m on 41–50, 6 m on 51–60 … (10
    points a degree of failure, a run-up of 4 m: the text's, pinned)"""
    text = d100.Rules(failure_degree=10, long_jump_run_up=4)
    law = d100.long_jump_distribution(4, 40, 5, text)
    assert law[8] == Fraction(40, 100) and law[7] == Fraction(10, 100)
    assert law[2] == Fraction(10, 100) and sum(law.values()) == 1
    with pytest.raises(IllegalActionError, match="D100-JUMP-2"):
        d100.long_jump_distribution(4, 40, 3, text)


def test_weapon_descriptions_are_french_d100_atk_3() -> None:
    """The ``armes`` start option (and the save) describe a weapon with French keys; an
    English key is refused, naming the French ones."""
    bow = d100.WEAPONS["arc"]
    assert d100.Weapon.from_json(bow.to_json()) == bow
    assert set(bow.to_json()) == set(d100.WEAPON_KEYS)
    with pytest.raises(ParameterError, match="degats"):
        started([BRUNE, GROLK], [9, 1], armes={"javelot": {"damage": 2}})
    with pytest.raises(ParameterError, match="D100-ATK-3"):
        started([BRUNE, GROLK], [9, 1], armes={"javelot": {"nom": "javelot"}})


def test_summary_tells_a_landing_blow_from_a_wound_d100_atk_3() -> None:
    """D100-ATK-3: a blow that lands may cost 0 wounds (BE and armour). The summary
    names the two chances apart: « le coup porte » (5 %) and « au moins une blessure »
    (CC 5 on Grolk, BE 3: head and right arm 3 % × 7/10, left arm, armour 1, 2 % × 6/10:
    2,1 % + 1,2 % = 3,3 %)."""
    o = attack_distribution(attack_setup(fighter("A", "x", CC=5), GROLK, "mains_nues"))
    assert o.landed == Fraction(5, 100)
    assert o.wounding == 1 - o.wounds[0] == Fraction(33, 1000)
    text = o.summary()
    assert f"le coup porte : {percent(Fraction(5, 100))}" in text
    assert f"au moins une blessure : {percent(Fraction(33, 1000))}" in text
    assert "blessures infligées" not in text
