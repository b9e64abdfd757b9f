"""Every input checked at the door (CORE-ERR): one test per class of fault that fuzzing
found, each named after it. A refusal is an EscarmoucheError in French naming the
field, and nothing changes (neither the fight nor the rng)."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction

import pytest
from escarmouche_widgets import _parse
from escarmouche_widgets.tracker import load_encounter

from escarmouche import Combatant, Effect, EscarmoucheError, dice
from escarmouche.encounter import Encounter
from escarmouche.errors import ParameterError
from escarmouche.state import EndCondition
from escarmouche.systems import d12, d20, rulebook
from escarmouche.systems import d100 as d100_system

RB = {"HAB": 50, "DIS": 40, "PMR": 40, "PV": 10, "Esprit": 10}
D100 = {"CC": 45, "CT": 30, "F": 35, "E": 30, "Ag": 40, "M": 4, "B": 12}
D12 = {"PV": 12, "attaque": 3, "defense": 12, "init": 1}


def refused_without_change(enc: Encounter, rng: random.Random, op: Callable[[], object],
                           match: str | None = None) -> None:
    before, state = enc.to_json(), rng.getstate()
    with pytest.raises(EscarmoucheError, match=match):
        op()
    assert enc.to_json() == before and rng.getstate() == state


def test_huge_integers_typed_anywhere_core_err() -> None:
    """More than 4,300 digits used to raise Python's int-string ValueError."""
    for parse in (_parse.parse_dice_list, _parse.parse_stats, _parse.parse_params):
        with pytest.raises(EscarmoucheError, match=r"chiffres|caractères"):
            parse("PV=" + "9" * 5000)
    with pytest.raises(EscarmoucheError, match="chiffres"):
        Encounter.from_json("9" * 5000)


def test_deeply_nested_json_core_err() -> None:
    """'[' * 3000 used to raise RecursionError in the tracker import and parameters."""
    with pytest.raises(EscarmoucheError, match="imbrication"):
        load_encounter("[" * 3000)
    with pytest.raises(EscarmoucheError, match="imbrication"):
        _parse.parse_params("chemin=" + "[" * 3000)


def test_wrong_shape_parameters_never_reach_rules_code_core_err() -> None:
    """Parameters of the wrong shape are refused before any rule reads them."""
    rng = random.Random(1)
    enc = Encounter("rulebook", [Combatant("Aldric", "h", RB), Combatant("Grolk", "m", RB)])
    assert enc.actions("Aldric") == []  # before start: nothing, and no KeyError
    enc.start(rng)
    actor = enc.current or ""
    other = "Grolk" if actor == "Aldric" else "Aldric"
    refused_without_change(enc, rng, lambda: enc.act(actor, "attaquer", rng, cible=other,
                                                     degats=1, vitesse=[1]), "vitesse")
    refused_without_change(enc, rng, lambda: enc.act(actor, "attaquer", rng, cible=None,
                                                     degats=1), "cible")
    refused_without_change(enc, rng, lambda: enc.act([actor], "attaquer", rng))  # type: ignore[arg-type]
    refused_without_change(enc, rng, lambda: enc.act(actor, {"x": 1}, rng))  # type: ignore[arg-type]

    fight = Encounter("d100", [Combatant("Aldric", "h", D100), Combatant("Grolk", "m", D100)])
    refused_without_change(fight, rng, lambda: fight.start(rng, armes={"x": 1}), "armes")
    refused_without_change(fight, rng, lambda: fight.start(rng, montures={"Aldric": [1]}),
                           "montures")
    fight.start(rng)
    actor = fight.current or ""
    other = "Grolk" if actor == "Aldric" else "Aldric"
    refused_without_change(fight, rng, lambda: fight.act(actor, "attaquer", rng, cible=other,
                                                         inaccessibles=0), "inaccessibles")


@pytest.mark.parametrize("build", [
    lambda: Combatant("A", "x", skills=None),  # type: ignore[arg-type]
    lambda: dice.ScriptedRolls(["a"]),  # type: ignore[list-item]
    lambda: dice.probability("1d6", ("<",)),  # type: ignore[arg-type]
    lambda: rulebook.Rules(surprise_aggregate=[]),  # type: ignore[arg-type]
    lambda: d100_system.Rules(default_weapon=3),  # type: ignore[arg-type]
    lambda: d12.Rules(actions=3),  # type: ignore[arg-type]
    lambda: d20.Rules(max_roll_off_rounds="x"),  # type: ignore[arg-type]
    lambda: Effect("", "Poison", "bogus"),  # type: ignore[arg-type]
    lambda: EndCondition({}, "victoire"),  # type: ignore[arg-type]
], ids=["Combatant", "ScriptedRolls", "probability", "rulebook.Rules", "d100.Rules",
        "d12.Rules", "d20.Rules", "Effect", "EndCondition"])
def test_public_constructors_check_their_arguments_core_err(build: Callable[[], object]
                                                             ) -> None:
    with pytest.raises(EscarmoucheError):
        build()


def test_lone_surrogates_never_reach_an_export_core_log() -> None:
    """A lone surrogate used to make the log export raise UnicodeEncodeError: it is now
    refused where it comes in (names, texts, parameters), so every export encodes."""
    with pytest.raises(ParameterError):
        Combatant("Al\ud800", "h", RB)
    enc = Encounter("d12", [Combatant("Aldric", "h", D12), Combatant("Grolk", "m", D12)])
    rng = random.Random(2)
    enc.start(rng)
    actor = enc.current or ""
    refused_without_change(enc, rng, lambda: enc.act(actor, "communiquer", rng,
                                                     description="\udcff"))
    enc.to_json().encode("utf-8")


def test_json_import_errors_are_french_core_log() -> None:
    with pytest.raises(EscarmoucheError) as err:
        load_encounter("{pas du json")
    assert "Expecting" not in str(err.value) and "ligne 1" in str(err.value)


def test_automated_fight_is_all_or_nothing_core_err() -> None:
    """Manual dice running out mid-fight used to leave start and the first steps
    committed."""
    enc = Encounter("d12", [Combatant("Aldric", "h", D12), Combatant("Grolk", "m", D12)])
    rng = dice.ScriptedRolls([5, 8, 12, 3])
    before = enc.to_json()
    with pytest.raises(EscarmoucheError, match="plus aucun résultat"):
        enc.run(rng, max_turns=20)
    assert enc.to_json() == before and rng.remaining == 4


def test_d12_critical_option_odds_are_cached_d12_crit_2() -> None:
    """An automated d12 fight used to recompute the exact option odds at every
    activation (12 s for 1000 turns): the same question is answered from the cache."""
    d12.odds._option_values.cache_clear()
    for _ in range(3):
        d12.critical_option_values("1d8+2", bonus=3, defence=12)
    info = d12.odds._option_values.cache_info()
    assert info.misses == 1 and info.hits == 2


def test_renderer_cost_is_bounded_by_output_core_err() -> None:
    from escarmouche.render import distribution_svg

    with pytest.raises(EscarmoucheError, match="probabilité"):
        distribution_svg({0: Fraction(10**6)}, title="t")
