"""The duels of an edition page measure the change, not the noise (book/concepteurs.md): the same
duels are played under both rule sets on the same dice, and the page says in how many
the change acted, the paired difference with its interval, and, when it cannot
conclude, about how many duels would. Rule IDs: RB-D100-1, D100-PARRY-3, CORE-RNG."""

from __future__ import annotations

import math

from escarmouche import systems
from escarmouche.editions.duels import Paired, paired_duels


def test_a_change_the_duel_never_meets_says_so_d100_parry_3() -> None:
    """D100-PARRY-3: in a one-against-one duel each fighter attacks once a round, so a
    second parry never comes up: the limit changes no duel, and the page says so instead
    of « pas d’écart établi »."""
    d100 = systems.get("d100")
    one, two = (d100.rules_from_json({"parries_per_round": k}) for k in (1, 2))
    paired = paired_duels(d100, one, two, 30, seed=3)
    assert (paired.acted, paired.diff, paired.needed) == (0, 0.0, None)
    assert "n’a joué dans aucun des 30 duels" in paired.verdict()


def test_a_change_that_acts_is_counted_and_paired_rb_d100_1() -> None:
    """RB-D100-1: wider critical successes change some duels on the same dice; the
    count, the paired difference and its interval are reported; the same seed gives the
    same report (CORE-RNG)."""
    rb = systems.get("rulebook")
    low, high = (rb.rules_from_json({"crit_success_max": k}) for k in (1, 30))
    paired = paired_duels(rb, low, high, 60, seed=5)
    assert 0 < paired.acted <= 60
    assert paired == paired_duels(rb, low, high, 60, seed=5)
    text = paired.verdict().replace("\u00a0", " ").replace("\u202f", " ")
    assert f"a joué dans {paired.acted} des 60 duels" in text


def test_the_fights_needed_follow_the_paired_variance() -> None:
    """CORE-RNG: when the interval holds 0 while the change acted, the page gives about
    how many duels would separate a difference of that size from 0 (z² s² / d²)."""
    p = Paired(n=100, acted=12, diff=0.02, half=0.05, needed=math.ceil(1.96**2 * 0.04 / 0.02**2))
    text = p.verdict().replace("\u00a0", " ").replace("\u202f", " ")
    assert "intervalle trop large pour conclure" in text
    assert f"environ {p.needed} duels" in text.replace("\u202f", " ")
    sure = Paired(n=100, acted=40, diff=0.2, half=0.05, needed=None)
    assert sure.established and "**écart établi**" in sure.verdict()
    flat = Paired(n=100, acted=5, diff=0.0, half=0.0, needed=None)
    assert "sans changer le taux de victoire" in flat.verdict()
