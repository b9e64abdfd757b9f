"""Tactics policies and full-budget automated play (docs/cli.md): each policy per system,
with fixed dice (ScriptedRolls) where a rule is checked, and invariants over seeds."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import Combatant, systems
from escarmouche.encounter import Encounter
from escarmouche.errors import EscarmoucheError, ParameterError
from escarmouche.policies import (
    MAX_CHOICES,
    POLICIES,
    Policy,
    TagPolicy,
    default_policy,
    get_policy,
    register_policy,
    resolve_policies,
)
from escarmouche.rng import ScriptedRolls
from escarmouche.systems.base import Move
from escarmouche.systems.d12.odds import best_critical_option
from escarmouche.systems.d12.rules import CRITICAL_OPTIONS

NAMES = ("agressif", "prudent", "au_hasard")

YSOLDE = Combatant("Ysolde", "héros", {"CC": 30, "CT": 50, "F": 25, "E": 30, "Ag": 45, "M": 4,
                                       "B": 10})
GROLK = Combatant("Grolk", "orques", {"CC": 40, "CT": 20, "F": 40, "E": 40, "Ag": 25, "M": 4,
                                      "B": 11})


def d100_pistol_fight(policy: Any, turns: int) -> Encounter:
    """Ysolde (pistol, 4 half actions to reload) against Grolk; initiative d10s 5 and 3
    (Ysolde acts first), then every d100 is 99: every attack misses, no damage die."""
    enc = Encounter("d100", [YSOLDE, GROLK])
    rng = ScriptedRolls([5, 3] + [99] * 40)
    enc.start(rng, equipement={"Ysolde": {"directrice": "pistolet"}})
    enc.run(rng, max_turns=turns, policy=policy)
    return enc


def steps(enc: Encounter, actor: str) -> dict[int, list[str]]:
    """The actions (event kinds) of ``actor`` in each round."""
    out: dict[int, list[str]] = {}
    for e in enc.log:
        if e.actor == actor and e.kind in ("attaque", "recharger", "parade_preparee"):
            out.setdefault(e.turn, []).append(e.kind)
    return out


@pytest.mark.parametrize("policy", ["agressif", "prudent"])
def test_d100_reload_uses_both_half_actions(policy: str) -> None:
    """D100-ACT-1, D100-ACT-4: a pistol fired in round 1 starts its 4-half-action reload
    with the second half action, goes on with both halves of round 2 and is loaded and
    fired again in round 3 (one half action per round would take until round 5)."""
    enc = d100_pistol_fight({"héros": policy}, 3)
    assert steps(enc, "Ysolde") == {
        1: ["attaque", "recharger"],
        2: ["recharger", "recharger"],
        3: ["recharger", "attaque"],
    }
    loaded = [e for e in enc.log if e.kind == "recharger"]
    assert "D100-ACT-4" in loaded[-1].rules and "chargée" in loaded[-1].text


def test_d100_prudent_prepares_a_parry_and_agressif_never_does() -> None:
    """D100-PARRY-2: « prudent » spends its second half action preparing a parry;
    « agressif » never does (Grolk has one weapon, so no off-hand parry)."""
    cautious = d100_pistol_fight({"orques": "prudent"}, 2)
    assert steps(cautious, "Grolk") == {1: ["attaque", "parade_preparee"],
                                        2: ["attaque", "parade_preparee"]}
    bold = d100_pistol_fight({"orques": "agressif"}, 2)
    assert steps(bold, "Grolk") == {1: ["attaque"], 2: ["attaque"]}


def test_d100_defender_policy_chooses_the_defence() -> None:
    """D100-PARRY-2 / D100-DODGE-1: the defence is the *defender's* choice: a policy
    that declines every reaction makes the attacks undefended."""
    declining = TagPolicy("sans_defense_test", "sans défense", "pour le test",
                          ("suite", "attaque", "recharge", "defense"),
                          decline=frozenset({"defense"}))
    enc = Encounter("d100", [Combatant("Aldric", "héros", {**dict(YSOLDE.stats)},
                                       skills={"esquive"}), GROLK])
    rng = ScriptedRolls([5, 3] + [10] * 6)   # Grolk's attack hits (10 ≤ 40)
    enc.start(rng)
    enc.run(rng, max_turns=1, policy={"héros": declining, "orques": "agressif"})
    grolk = [e for e in enc.log if e.kind == "attaque" and e.actor == "Grolk"]
    assert grolk and grolk[0].data["defence"] == "aucune"


def _d20(pa: int) -> Encounter:
    return Encounter("d20", [Combatant("Brune", "héros", {"PV": 30, "PA": pa}),
                             Combatant("Grolk", "orques", {"PV": 30})])


def test_d20_agressif_spends_an_action_point_prudent_keeps_it() -> None:
    """D20-ACT-1, D20-ACT-3: next to an enemy, « agressif » attacks with its standard
    action, then spends its action point for one more attack; « prudent » keeps it."""
    dice = [20, 1] + [15, 3] * 6        # initiative (Brune first), then d20 + 1d6 per attack
    for policy, attacks, left in (("agressif", 2, 0), ("prudent", 1, 1)):
        enc = _d20(1)
        rng = ScriptedRolls(dice)
        enc.start(rng)
        enc.run(rng, max_turns=1, policy={"héros": policy})
        mine = [e for e in enc.log if e.actor == "Brune" and e.kind == "attaque"]
        assert len(mine) == attacks, policy
        assert enc.fighter("Brune").flags["pa"] == left
        if left == 0:
            assert any("D20-ACT-3" in e.rules for e in enc.log if e.actor == "Brune")


def test_d20_move_then_attack_in_one_turn() -> None:
    """D20-ACT-1/2: a fighter out of reach moves (move action) then attacks (standard
    action) in the same turn (no action point for a third, the text's default, pinned)."""
    from escarmouche.systems import d20

    enc = Encounter("d20", [Combatant("Brune", "héros", {"PV": 30}),
                            Combatant("Grolk", "orques", {"PV": 30})],
                    rules=d20.Rules(default_action_points=0))
    rng = ScriptedRolls([20, 1] + [15, 3] * 6)
    enc.start(rng, positions={"Brune": [0, 0], "Grolk": [4, 0]})
    enc.run(rng, max_turns=1)
    kinds = [e.data.get("action") for e in enc.log if e.actor == "Brune" and "used" in e.data]
    assert kinds == ["deplacement", "attaquer"]


def test_d12_critical_option_per_policy() -> None:
    """D12-CRIT-2: « agressif » declares the option of best expected damage, « prudent »
    option (a) « dégâts maximum » (no damage roll), « au hasard » any of the three."""
    enc = Encounter("d12", [Combatant("Brune", "héros", {"PV": 12, "defense": 12, "attaque": 2}),
                            Combatant("Grolk", "orques", {"PV": 10, "defense": 11})])
    enc.start(random.Random(1))
    actor = enc.current
    assert actor is not None
    from escarmouche.state import Ctx

    ctx = Ctx(enc.state.draft(), enc.system, enc.rules, None)
    moves = enc.system.moves(ctx, actor, (), lambda who, kind, options: options[0])
    target = "Grolk" if actor == "Brune" else "Brune"
    attacker = enc.fighter(actor).combatant
    best = best_critical_option(enc.rules.default_weapon,
                                defence=enc.fighter(target).combatant.stat("defense"),
                                bonus=attacker.stat("attaque", 0))
    bold = get_policy("agressif").choose(moves, None)
    cautious = get_policy("prudent").choose(moves, None)
    assert bold is not None and bold.params == {"cible": target, "option": best}
    assert cautious is not None and cautious.params["option"] == "maximum"
    seen = {m.params["option"] for m in (get_policy("au_hasard").choose(moves, random.Random(s))
                                         for s in range(60)) if m is not None}
    assert seen == set(CRITICAL_OPTIONS)
    # one attack per activation in automated play (D12-ACT-1 gives no economy)
    assert enc.system.moves(ctx, actor, ("attaquer",), lambda *a: a[2][0]) == []


def test_rulebook_one_action_per_activation() -> None:
    """RB-ACT-1: one action per activation, whatever the policy."""
    for name in NAMES:
        enc = Encounter("rulebook", [
            Combatant("Brune", "héros", {"HAB": 55, "DIS": 60, "PMR": 45, "PV": 40, "Esprit": 9,
                                         "variante_degats": 6}),
            Combatant("Grolk", "orques", {"HAB": 45, "DIS": 30, "PMR": 40, "PV": 40,
                                          "Esprit": 9, "variante_degats": 6})])
        enc.run(random.Random(3), max_turns=4, policy=name)
        per: dict[tuple[int, str | None, int], int] = {}
        activation = 0
        for e in enc.log:
            if e.kind == "activation":
                activation += 1
            if e.kind == "attaquer":
                assert "RB-ACT-1" in e.rules
                key = (e.turn, e.actor, activation)
                per[key] = per.get(key, 0) + 1
        assert per and max(per.values()) == 1, name


# -- the registry -----------------------------------------------------------------------


def test_registry_and_defaults() -> None:
    assert set(NAMES) <= set(POLICIES)
    for system in systems.NAMES:
        assert default_policy(system) in POLICIES
    with pytest.raises(ParameterError, match="politique inconnue"):
        get_policy("furieux")
    with pytest.raises(ParameterError, match="camp"):
        resolve_policies("d100", ["héros"], {"elfes": "prudent"})
    with pytest.raises(ParameterError, match="déjà pris"):
        register_policy(TagPolicy("prudent", "autre", "", ()))
    mix = resolve_policies("d100", ["héros", "orques"], {"orques": "au_hasard"})
    assert mix["héros"] is get_policy(default_policy("d100"))
    assert mix["orques"] is get_policy("au_hasard")


class Passive:
    """A custom policy: never acts (and records what it was offered)."""

    name = "passif_test"
    label = "passif"

    def __init__(self) -> None:
        self.offered: list[int] = []

    def choose(self, moves: Sequence[Move], rng: Any) -> Move | None:
        self.offered.append(len(moves))
        return None

    def react(self, kind: str, options: Sequence[str], rng: Any) -> str:
        return options[-1]


def test_a_custom_policy_plugs_in() -> None:
    passive = Passive()
    assert isinstance(passive, Policy)
    register_policy(passive)
    try:
        enc = Encounter("d100", [YSOLDE, GROLK])
        enc.run(random.Random(2), max_turns=2, policy="passif_test")
        assert not [e for e in enc.log if e.kind == "attaque"]
        assert passive.offered and all(n > 0 for n in passive.offered)
    finally:
        del POLICIES["passif_test"]


class CountingRng(random.Random):
    """A dice rng that counts its draws."""

    draws = 0

    def randint(self, a: int, b: int) -> int:
        self.draws += 1
        return super().randint(a, b)


@pytest.mark.parametrize("system", ["d100", "d20", "d12"])
def test_au_hasard_never_draws_from_the_dice(system: str) -> None:
    """« au hasard » draws from its own rng: every die the dice rng gave is in the log
    (CORE-LOG), none went to the tactics; and the tactics rng was used."""
    roster = {
        "d100": [YSOLDE, GROLK],
        "d20": [Combatant("Brune", "héros", {"PV": 20, "PA": 1}),
                Combatant("Grolk", "orques", {"PV": 20})],
        "d12": [Combatant("Brune", "héros", {"PV": 12, "defense": 12}),
                Combatant("Grolk", "orques", {"PV": 10, "defense": 11})],
    }[system]
    enc = Encounter(system, roster)
    dice, tactics = CountingRng(5), random.Random(6)
    before = tactics.getstate()
    enc.run(dice, max_turns=5, policy="au_hasard", tactics_rng=tactics)
    assert dice.draws == sum(len(e.dice) for e in enc.log)
    assert tactics.getstate() != before


def test_a_refused_run_restores_both_rngs() -> None:
    """CORE-ERR: dice running out mid-run leave the fight, the dice and the tactics rng
    as they were."""
    enc = Encounter("d100", [YSOLDE, GROLK])
    rng = ScriptedRolls([5, 3, 99])
    tactics = random.Random(4)
    state = tactics.getstate()
    with pytest.raises(EscarmoucheError):
        enc.run(rng, max_turns=3, policy="au_hasard", tactics_rng=tactics)
    assert enc.log == [] and tactics.getstate() == state


ROSTERS: dict[str, list[Combatant]] = {
    "d100": [Combatant("Aldric", "héros", {**dict(YSOLDE.stats)}, skills={"esquive"}),
             GROLK, Combatant("Snaga", "orques", {**dict(GROLK.stats), "B": 6})],
    "d20": [Combatant("Brune", "héros", {"PV": 14, "PA": 1}),
            Combatant("Grolk", "orques", {"PV": 9}), Combatant("Snaga", "orques", {"PV": 6})],
    "d12": [Combatant("Brune", "héros", {"PV": 12, "defense": 12, "attaque": 2}),
            Combatant("Grolk", "orques", {"PV": 8, "defense": 11})],
    "rulebook": [
        Combatant("Brune", "héros", {"HAB": 55, "DIS": 60, "PMR": 45, "PV": 12, "Esprit": 9,
                                     "variante_degats": 6}),
        Combatant("Grolk", "orques", {"HAB": 45, "DIS": 30, "PMR": 40, "PV": 12, "Esprit": 9,
                                      "variante_degats": 6})],
}
EQUIPMENT = {"d100": {"equipement": {"Aldric": {"directrice": "pistolet"},
                                     "Snaga": {"directrice": "dague",
                                               "non_directrice": "dague"}}}}


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), system=st.sampled_from(sorted(ROSTERS)),
       heroes=st.sampled_from(NAMES), orcs=st.sampled_from(NAMES))
def test_every_policy_plays_legal_deterministic_fights(seed: int, system: str, heroes: str,
                                                       orcs: str) -> None:
    """Every policy, against every other, in every system: the fight ends or reaches its
    limit without an illegal action (each one went through System.act), an activation
    never exceeds MAX_CHOICES actions, and the same seed gives the same fight."""
    def fight() -> Encounter:
        enc = Encounter(system, ROSTERS[system])
        enc.start(random.Random(seed), **EQUIPMENT.get(system, {}))
        enc.run(random.Random(seed + 1), max_turns=15,
                policy={"héros": heroes, "orques": orcs})
        return enc

    a, b = fight(), fight()
    assert a.finished
    assert a.to_json() == b.to_json()
    count = 0
    for e in a.log:
        if e.kind == "activation":
            count = 0
        elif e.actor is not None and e.kind in ("attaque", "attaquer", "recharger",
                                                "parade_preparee", "action", "point_action"):
            count += 1
            assert count <= 2 * MAX_CHOICES
