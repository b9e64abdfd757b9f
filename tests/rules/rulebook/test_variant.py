"""System « Rulebook » (RULES.md): the simulation variant, not in the text
(RB-END-2): the damage each fighter declares for automated play.
"""

from __future__ import annotations

import random

import pytest

from escarmouche.encounter import Encounter
from escarmouche.errors import ParameterError
from escarmouche.systems import rulebook as rb
from tests.helpers.rulebook import events, fighter

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


def test_simulated_health_counts_only_the_pv_the_variant_takes_rb_end_2() -> None:
    """RB-END-2, simulation variant (spec/relecture-journal.md): automated play hits PV only, so a
    balance's « Santé restante » measures PV: Esprit, which no simulated fight removes,
    would show health left on a side that lost every fight."""
    from escarmouche.simulation import result_of

    roster = [fighter("Brune", "héros", 60, pv=10, esprit=90, variante_degats=6),
              fighter("Grolk", "orques", 40, pv=10, esprit=1, variante_degats=6)]
    enc = Encounter("rulebook", roster)
    enc.run(random.Random(4), max_turns=30)
    result = result_of(enc)
    assert dict(result.health_max) == {"héros": 10, "orques": 10}
    pv = {f.side: f.tracks["PV"] for f in enc.state.fighters.values()}
    assert dict(result.health) == pv
    assert rb.SYSTEM.played_tracks == ("PV",)


def test_a_fight_with_a_turn_0_counts_it_in_its_duration_rb_init_3() -> None:
    """RB-INIT-3 (spec/relecture-journal.md): turn 0 is a turn (seed 000, the book's box),
    so a fight that began with one and ended in turn N lasted N + 1 turns in a balance, and
    its damage per turn divides by those N + 1; without a turn 0, N turns."""
    from escarmouche.simulation import result_of

    roster = [fighter("Brune", "héros", 60, variante_degats=6),
              fighter("Grolk", "orques", 40, variante_degats=6)]
    seen = set()
    for seed in range(200):
        enc = Encounter("rulebook", roster)
        enc.run(random.Random(seed), max_turns=30)
        zero = any(e.kind == "debut_tour" and e.turn == 0 for e in enc.log)
        assert result_of(enc).rounds == enc.state.turn + (1 if zero else 0)
        seen.add(zero)
        if seen == {True, False}:
            break
    assert seen == {True, False}
