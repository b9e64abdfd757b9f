"""System « Rulebook » (RULES.md): the package shape, its catalogue (RB-ACT-1/2,
RB-MOVE-1, RB-END-3), errors by kind (RB-ACT-1, RB-END-2), option labels
(RB-D100-1, RB-SURPRISE-2, RB-SPEED-3), the odds for the widgets (RB-INIT-2..4,
RB-SURPRISE-3) and the notebook display.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from escarmouche import Combatant
from escarmouche.errors import IllegalActionError, ParameterError
from escarmouche.systems import rulebook as rb
from tests.helpers.rulebook import begin, fighter

# =======================================================================================
# The package shape: catalogue, errors by kind, odds for the widgets, notebook display
# =======================================================================================


def test_catalogue_is_action_specs_with_one_resolver_each() -> None:
    """RB-ACT-1/2, RB-MOVE-1, RB-END-3: every action is an ActionSpec, documented in
    French, citing its rules, with one resolver; the attack is « attaquer »."""
    assert rb.SYSTEM.catalogue(rb.DEFAULT_RULES) is rb.ACTIONS
    assert set(rb.RESOLVERS) == set(rb.ACTIONS) and "attaquer" in rb.ACTIONS
    for spec in rb.ACTIONS.values():
        assert spec.doc and spec.rules and spec.cost in rb.COST_LABELS.values()
        assert set(spec.required) <= set(spec.params)
    assert "act" not in vars(rb.RulebookSystem)  # the shared System.act()


def test_bad_value_is_a_parameter_error_forbidden_now_is_illegal() -> None:
    """CORE-ERR: a bad value raises ParameterError, a well-formed action the rules
    forbid now raises IllegalActionError (RB-ACT-1, RB-END-3)."""
    enc = begin()
    with pytest.raises(ParameterError, match="RB-END-2"):
        enc.act("Aldric", "attaquer", cible="Grolk", degats="trois")
    with pytest.raises(ParameterError, match="RB-ACT-1"):
        enc.act("Aldric", "posture", posture=3)
    enc.act("Aldric", "attaquer", cible="Grolk", degats=1)
    with pytest.raises(IllegalActionError, match="RB-ACT-1"):
        enc.act("Aldric", "sort")
    with pytest.raises(IllegalActionError, match="RB-MOVE-1"):
        enc.act("Grolk", "attaquer", cible="Aldric", degats=1)


def test_option_labels_cover_every_option_and_value() -> None:
    """Every option, and every value of the options with a list of values, has a
    French label (RB-D100-1, RB-SURPRISE-2, RB-SPEED-3)."""
    import dataclasses

    assert [o.name for o in rb.SYSTEM.options()] == [f.name for f in dataclasses.fields(rb.Rules)]
    assert set(rb.SYSTEM.option("surprise_aggregate").choices or {}) == set(
        rb.SURPRISE_AGGREGATES)
    assert set(rb.SYSTEM.option("hyperactive_slot").choices or {}) == set(rb.HYPERACTIVE_SLOTS)
    with pytest.raises(ParameterError, match="«\u00a0bientôt\u00a0» refusée pour «\u00a0place de"
                                             " la seconde activation"):
        rb.Rules(hyperactive_slot="bientôt")


def test_first_to_act_odds_by_enumeration_rb_init_2() -> None:
    """RB-INIT-2: three fighters, every d100 triple enumerated through the engine
    (ties broken by HAB, then a fair roll-off: its share is split evenly)."""
    roster = [fighter("A", "x", 60), fighter("B", "y", 40), fighter("C", "y", 40)]
    odds = rb.first_to_act_odds(roster)
    assert sum(odds.values()) == 1
    # A against B alone, by hand: A heads the order unless B has a strictly better key
    duel = rb.first_to_act_odds(roster[:2])
    wins = Fraction(0)
    for ra in range(1, 101):
        for rb_ in range(1, 101):
            init = rb.resolve_initiative(roster[:2], [ra, rb_])
            wins += Fraction(init.order[0] == "A", 10_000)
    assert duel["A"] == wins
    assert odds["B"] == odds["C"]  # same HAB: symmetric


def test_turn_zero_odds_by_hand_rb_surprise_3() -> None:
    """RB-SURPRISE-3, RB-INIT-3/4: DIS 50 against PMR 50 succeeds with 99/200; the
    attacker is in turn 0 unless it fails critically (5/100), the defender only on a
    critical success (5/100), with the thresholds of the text's cases (5 and 96, stated
    here whatever the edition's defaults)."""
    t = rb.Rules(crit_success_max=5, crit_failure_min=96)
    rat = Combatant("Rat", "m", {"HAB": 50, "DIS": 50, "PMR": 50})
    garde = Combatant("Garde", "h", {"HAB": 50, "DIS": 50, "PMR": 50})
    s = Fraction(99, 200)
    assert rb.surprise_chance([rat], [garde], unaware=True, rules=t) == s
    odds = rb.turn_zero_odds([rat, garde], "m", unaware=True, rules=t)
    assert odds["Rat"] == s * Fraction(95, 100) + (1 - s) * Fraction(5, 100)
    assert odds["Garde"] == Fraction(5, 100)
    assert rb.turn_zero_odds([rat, garde], "m", unaware=False, rules=t)["Rat"] == \
        Fraction(5, 100)


def test_results_and_odds_display_themselves() -> None:
    """The book shows results and odds directly: French tables (RB-D100-1, RB-INIT-2,
    RB-SPEED-3, RB-SURPRISE-2)."""
    assert "réussite critique" in rb.d100_odds(55)._repr_html_()
    assert "Résultat" in rb.d100_test(55, 3)._repr_html_()
    init = rb.resolve_initiative([fighter("A", "x", 60), fighter("B", "y", 40)], [30, 20])
    html = init._repr_html_()
    assert "Départage" in html and "Ordre d’initiative\u00a0: A, B" in html
    assert "Dépassement" in rb.apply_speed(["A", "B"], {"B": {"depassement"}})._repr_html_()
    res = rb.resolve_surprise([fighter("A", "x", 50)], [fighter("B", "y", 50)], 10, 60,
                              unaware=True)
    assert "Attaque surprise réussie" in res._repr_html_()


def test_compatibility_names_remain() -> None:
    """The names of the rulebook before the one naming rule still work (aliases)."""
    assert rb.initiative_from_rolls is rb.resolve_initiative
    assert rb.roll_initiative is rb.initiative
    assert rb.surprise_from_rolls is rb.resolve_surprise
    assert rb.surprise_test is rb.roll_surprise
    assert rb.hypoactivity_check is rb.resolve_hypoactivity
