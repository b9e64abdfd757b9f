"""System « Rulebook » (RULES.md): the simulation variant, not in the text
(RB-END-2): the damage each fighter declares for automated play.
"""

from __future__ import annotations

import random

import pytest

from escarmouche.encounter import Encounter
from escarmouche.errors import ParameterError
from escarmouche.systems import rulebook as rb
from tests._rulebook_helpers import events, fighter

# =====================================================================================
# The simulation variant (not in the text, RB-END-2): the declared damage of automated play
# =====================================================================================


def test_automated_hit_is_the_declared_die_variant_rb_end_2() -> None:
    """RB-END-2 and its simulation variant: the text leaves the effect of an attack to
    the GM; automated play hits
    for the die each fighter declares (``variante_degats``), and says so in the log."""
    roster = [fighter("Brune", "héros", 60, variante_degats=6),
              fighter("Grolk", "orques", 40, variante_degats=8)]
    enc = Encounter("rulebook", roster)
    enc.run(random.Random(4), max_turns=30)
    hits = events(enc, "attaquer")
    assert hits
    for e in hits:
        assert "frappe automatique, variante hors texte" in e.text
        die = "1d6" if e.actor == "Brune" else "1d8"
        assert f"{die} →" in e.text and 1 <= e.data["degats"] <= int(die[2:])


def test_automated_play_needs_declared_damage_variant_rb_end_2() -> None:
    """RB-END-2, simulation variant: no silent default: a fighter without
    ``variante_degats`` cannot be played
    automatically; a declared die outside 1–1000 is refused at the roster."""
    enc = Encounter("rulebook", [fighter("Brune", "héros", 60),
                                 fighter("Grolk", "orques", 40, variante_degats=8)])
    with pytest.raises(ParameterError, match=r"variante_degats.*RB-END-2"):
        enc.run(random.Random(4), max_turns=5)
    with pytest.raises(ParameterError, match="RB-END-2"):
        Encounter("rulebook", [fighter("Brune", "héros", 60, variante_degats=0),
                               fighter("Grolk", "orques", 40)])


def test_simulation_outputs_name_the_variant_rb_end_2() -> None:
    """The simulation variant (not in the text) is named wherever automated Rulebook
    fights show: the balance table (``simule``, the book's simulation pages), its
    JSON, and the editions' duels."""
    from escarmouche.editions.duels import duel_note
    from escarmouche.roster import example_rosters, load_roster
    from escarmouche.simulation import simulate

    balance = simulate(load_roster(example_rosters()["rulebook-bretteur"]), 20, seed=1)
    assert "Variante hors texte" in str(balance.table())
    assert "Aldric 1d6 et Grolk 1d8" in balance.note
    assert balance.to_json()["variante"] == balance.note
    from escarmouche.simulation import compare

    roster = load_roster(example_rosters()["rulebook-bretteur"])
    both = compare(roster, roster.with_options(reussite_critique_max=10), 10, seed=1)
    assert "Variante hors texte" in str(both.table())
    assert "RB-END-2" in duel_note("rulebook", rb.Rules())
    d12_balance = simulate(load_roster(example_rosters()["d12-duel"]), 5, seed=1)
    assert d12_balance.note == "" and "variante" not in d12_balance.to_json()
