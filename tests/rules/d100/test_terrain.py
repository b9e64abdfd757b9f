"""The start option ``terrain`` and the rulings of automated play that cross it: a drop
(D100-JUMP-1) and a ditch (D100-JUMP-2) between a fighter and the melee; and the hand
automated play strikes with when each holds a weapon (D100-TWO-2, D100-ATK-5). Dice are
scripted; expected values come from the rules in force (their declarations), not typed.
Rule IDs: D100-JUMP-1, D100-JUMP-2, D100-TWO-2, D100-ATK-5, CORE-ERR."""

from __future__ import annotations

import json
import math
import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import Combatant, systems
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter
from escarmouche.errors import EscarmoucheError, IllegalActionError
from escarmouche.systems.d100.rules import Rules
from tests.helpers import ROOT
from tests.helpers.d100 import BASE, events, fighter, started

# Rask: Ag 40, CC 50, F 40 (BF 4), M 4: a long jump of at most 8 m
RASK = fighter("Rask", "brigands")
# Grolk: CC 45, Ag 35
GROLK = fighter("Grolk", "gardes", CC=45, Ag=35)
#: Rask acts first: 40 + 9 against 35 + 1 (D100-INIT-1); Grolk: 40 + 1 against 35 + 10
RASK_FIRST = [9, 1]
GROLK_FIRST = [1, 10]
MISS = 99  # above every CC here: an attack that misses (no defence, no damage die)


def _round(terrain: dict[str, Any], dice: list[int], rules: Rules | None = None,
           turns: int = 1, order: list[int] = RASK_FIRST) -> Encounter:
    enc = started([RASK, GROLK], order, rules=rules, terrain=terrain)
    enc.run(ScriptedRolls(dice), max_turns=turns)
    return enc


def _attacks(enc: Encounter, who: str) -> list[int]:
    """The rounds in which ``who`` attacked."""
    return [e.turn for e in events(enc, "attaque") if e.actor == who]


# -- D100-JUMP-1: a drop ahead ----------------------------------------------------------------


def test_a_drop_taken_leaves_the_half_action_to_attack_d100_jump_1() -> None:
    """D100-JUMP-1 *(ruling, automated play)*: the drop is a half action; every Ag test
    passed, the fighter is in melee and attacks with its other half action."""
    tests = math.ceil(4 / Rules().drop_step)
    enc = _round({"Rask": {"hauteur": 4}}, [10] * tests + [MISS, MISS])
    (jump,) = events(enc, "saut")
    assert jump.data["success"] and jump.data["tests"] == tests
    assert _attacks(enc, "Rask") == [1] and _attacks(enc, "Grolk") == [1]
    assert not events(enc, "terrain")


def test_a_failed_drop_costs_the_rest_of_the_turn_not_wounds_d100_jump_1() -> None:
    """D100-JUMP-1 *(ruling, automated play)*: at the first failed test the fighter is
    at the bottom, in melee (Grolk attacks it), but loses the rest of its turn; the
    fall costs no wounds (left to the GM); it attacks from its next turn, without
    jumping again."""
    enc = _round({"Rask": {"hauteur": 4}}, [MISS] * 4, turns=2)
    (jump,) = events(enc, "saut")
    assert jump.data["failed_test"] == 1
    (fall,) = events(enc, "terrain")
    assert fall.rules == ("D100-JUMP-1",) and "MJ" in fall.text
    assert _attacks(enc, "Rask") == [2] and _attacks(enc, "Grolk") == [1, 2]
    assert enc.state.fighters["Rask"].tracks["B"] == RASK.stats["B"]


def test_the_drop_step_sets_the_tests_of_the_drop_d100_jump_1() -> None:
    """D100-JUMP-1: a drop of 4 m takes one test per started step: with steps of 4 m a
    single passed test brings Rask down, with steps of 3 m the second test fails."""
    one = _round({"Rask": {"hauteur": 4}}, [10, 90, MISS], rules=Rules(drop_step=4))
    two = _round({"Rask": {"hauteur": 4}}, [10, 90, MISS], rules=Rules(drop_step=3))
    assert _attacks(one, "Rask") == [1] and not events(one, "terrain")
    assert _attacks(two, "Rask") == [] and len(events(two, "terrain")) == 1


def test_no_one_fights_across_the_ground_still_to_cross_d100_jump_1() -> None:
    """D100-JUMP-1 *(ruling)*: Grolk, first to act, has no one in melee while Rask is on
    the wall: automated play passes, and a melee attack asked by hand is refused in
    French, the fight and the dice untouched."""
    enc = started([RASK, GROLK], GROLK_FIRST, terrain={"Rask": {"hauteur": 4}})
    before = enc.to_json()
    rng = ScriptedRolls([1, 1, 1])
    with pytest.raises(IllegalActionError) as refusal:
        enc.act("Grolk", "attaquer", rng, cible="Rask")
    assert refusal.value.rule == "D100-JUMP-1" and "au contact" in str(refusal.value)
    assert rng.used == 0 and enc.to_json() == before
    tests = math.ceil(4 / Rules().drop_step)
    enc.run(ScriptedRolls([10] * tests + [MISS]), max_turns=1)
    assert _attacks(enc, "Grolk") == [] and _attacks(enc, "Rask") == [1]


# -- D100-JUMP-2: a ditch ahead ----------------------------------------------------------------


def test_a_ditch_leapt_then_a_blow_d100_jump_2() -> None:
    """D100-JUMP-2 *(ruling, automated play)*: with room for the minimal run-up, the
    ditch is leapt with all of it; the F test passed (8 m at most, M 4 + BF 4), Rask is
    across and attacks in the same turn."""
    room = Rules().long_jump_run_up
    enc = _round({"Rask": {"fosse": 6, "elan": room}}, [40, MISS, MISS])
    (jump,) = events(enc, "saut_en_longueur")
    assert jump.data["run_up"] == room and jump.data["distance"] == 8
    assert _attacks(enc, "Rask") == [1]


@pytest.mark.parametrize("degree", [9, 10, 11])
def test_a_jump_short_of_the_ditch_costs_the_rest_of_the_turn_d100_jump_2(degree: int
                                                                          ) -> None:
    """D100-JUMP-2: F 40, a ditch of 7 m, 8 m at most: a roll failing by one degree
    (``failure_degree`` points) still clears it; one point more is two degrees, 6 m:
    Rask lands in the ditch, climbs out on the far side and loses the rest of its turn
    *(ruling)*."""
    rules = Rules(failure_degree=degree)
    ground = {"Rask": {"fosse": 7, "elan": rules.long_jump_run_up}}
    clear = _round(ground, [40 + degree, MISS, MISS], rules=rules)
    short = _round(ground, [40 + degree + 1, MISS, MISS], rules=rules)
    assert events(clear, "saut_en_longueur")[0].data["distance"] == 7
    assert _attacks(clear, "Rask") == [1]
    (across,) = events(clear, "terrain")  # the log says the ditch is crossed (B175)
    assert not across.data["fall"] and "franchit le fossé de 7 m" in across.text
    assert events(short, "saut_en_longueur")[0].data["distance"] == 6
    (fall,) = events(short, "terrain")
    assert fall.rules == ("D100-JUMP-2",) and fall.data["fall"]
    assert "fossé de 7 m (saut de 6 m)" in fall.text
    assert _attacks(short, "Rask") == [] and _attacks(short, "Grolk") == [1]


def test_without_room_for_a_run_up_the_ditch_is_gone_round_d100_jump_2() -> None:
    """D100-JUMP-2 *(ruling, automated play)*: room shorter than the minimal run-up: no
    long jump (no die drawn); Rask runs round the ditch (« course », a full action) and
    attacks at its next turn. With the minimum lowered to that room, it jumps."""
    room = Rules().long_jump_run_up - 1
    enc = _round({"Rask": {"fosse": 3, "elan": room}}, [MISS] * 3, turns=2)
    assert not events(enc, "saut_en_longueur")
    assert [e.data["action"] for e in events(enc, "action")] == ["course"]
    (detour,) = events(enc, "terrain")
    assert detour.rules == ("D100-JUMP-2",) and "élan" in detour.text
    assert _attacks(enc, "Rask") == [2]
    jumped = _round({"Rask": {"fosse": 3, "elan": room}}, [40, MISS, MISS],
                    rules=Rules(long_jump_run_up=room))
    assert len(events(jumped, "saut_en_longueur")) == 1 and _attacks(jumped, "Rask") == [1]


def test_a_drop_then_a_ditch_in_that_order_d100_jump_1_2() -> None:
    """D100-JUMP-1, D100-JUMP-2: the drop first, then the ditch, each a half action: the
    turn is spent, and Rask attacks at its next turn."""
    tests = math.ceil(3 / Rules().drop_step)
    enc = _round({"Rask": {"hauteur": 3, "fosse": 3, "elan": 6}},
                 [10] * tests + [40] + [MISS] * 3, turns=2)
    kinds = [e.kind for e in enc.log if e.actor == "Rask" and e.turn == 1
             and e.kind != "activation"]
    assert kinds == ["saut", "saut_en_longueur", "terrain"]
    assert _attacks(enc, "Rask") == [2]


def test_the_ground_left_survives_a_save_d100_jump_1() -> None:
    """CORE-LOG: a saved fight keeps the ground still to cross; a tampered entry is
    refused when the save is loaded, naming the jump rule."""
    enc = started([RASK, GROLK], GROLK_FIRST, terrain={"Rask": {"hauteur": 4}})
    again = Encounter.from_json(enc.to_json())
    assert again.state.system_state["terrain"] == enc.state.system_state["terrain"]
    assert again.state.system_state["terrain"]["Rask"]["hauteur"] == 4
    save = json.loads(enc.to_json())
    save["system_state"]["terrain"]["Rask"]["hauteur"] = -4
    with pytest.raises(EscarmoucheError) as refusal:
        Encounter.from_json(save)
    assert refusal.value.rule == "CORE-LOG" and "D100-JUMP-1" in str(refusal.value)


_metres = st.integers(min_value=0, max_value=12)


@settings(max_examples=40, deadline=None)
@given(drop=_metres, ditch=_metres, room=_metres, seed=st.integers(0, 10**6))
def test_no_melee_blow_crosses_ground_and_everyone_arrives_d100_jump_1_2(
        drop: int, ditch: int, room: int, seed: int) -> None:
    """D100-JUMP-1, D100-JUMP-2 *(rulings, automated play)*: whatever the ground, no
    melee blow is struck by or at a fighter before its last crossing move (the drop,
    the leap or the run round the ditch), each fighter crosses within two rounds (one
    lost to a fall at most, the run round a full turn), and the same seed replays the
    same fight."""
    ground = {"Rask": {"hauteur": drop, **({"fosse": ditch, "elan": room} if ditch
                                             else {})}}
    logs = []
    for _ in range(2):
        enc = Encounter("d100", [RASK, GROLK])
        rng = random.Random(seed)
        enc.start(rng, terrain=ground)
        enc.run(rng, max_turns=2)
        logs.append([(e.kind, e.text) for e in enc.log])
        crossing = [i for i, e in enumerate(enc.log) if e.actor == "Rask" and (
            e.kind in {"saut", "saut_en_longueur"} or (e.kind == "action"
                                                       and e.data["action"] == "course"))]
        blows = [i for i, e in enumerate(enc.log) if e.kind == "attaque"]
        if drop or ditch:
            assert crossing and all(i > crossing[-1] for i in blows)
            assert enc.state.system_state["terrain"]["Rask"]["hauteur"] == 0
            assert enc.state.system_state["terrain"]["Rask"]["fosse"] == 0
        else:
            assert not crossing and not enc.state.system_state["terrain"]
    assert logs[0] == logs[1]


# -- the start option, checked at the door ----------------------------------------------------


@pytest.mark.parametrize(("terrain", "field"), [
    ({"Personne": {"hauteur": 4}}, "terrain"),
    ({"Rask": {"hauter": 4}}, "terrain"),
    ({"Rask": {"hauteur": -1}}, "hauteur"),
    ({"Rask": {"fosse": "large"}}, "fosse"),
    ({"Rask": {"fosse": 3}}, "elan"),
    ({"Rask": {"elan": 4}}, "elan"),
    ({"Rask": 4}, "terrain"),
    (["Rask"], "terrain"),
])
def test_a_bad_terrain_is_refused_in_french_core_err(terrain: object, field: str) -> None:
    """CORE-ERR: an unknown fighter or key, a negative or non-numeric distance, a ditch
    without its run-up room or room without a ditch: a French refusal naming the field
    and a jump rule, and the fight does not start."""
    enc = Encounter("d100", [RASK, GROLK])
    with pytest.raises(EscarmoucheError) as refusal:
        enc.start(ScriptedRolls(RASK_FIRST), terrain=terrain)
    assert refusal.value.field == field
    assert refusal.value.rule in {"D100-JUMP-1", "D100-JUMP-2"}
    assert not enc.state.started


# -- D100-TWO-2: which hand strikes -----------------------------------------------------------

#: a dagger in the main hand, a sword (arme à une main) in the other (D100-TWO-1)
DAGGER_AND_SWORD = {"Corbin": {"directrice": "dague", "non_directrice": "arme_a_une_main"}}


def _first_blow(target_stats: dict[str, int], rules: Rules | None = None) -> dict[str, Any]:
    corbin = fighter("Corbin", "coupe-jarrets", CC=50)
    target = Combatant("Aubert", "chevaliers",
                       {**BASE, "CC": 40, "E": 35, "Ag": 30, **target_stats})
    enc = started([corbin, target], RASK_FIRST, rules=rules, equipement=DAGGER_AND_SWORD)
    enc.run(ScriptedRolls([MISS] * 4), max_turns=1)
    data: dict[str, Any] = next(e.data for e in events(enc, "attaque")
                                if e.actor == "Corbin")
    return data


def test_the_off_hand_strikes_when_its_blow_wounds_more_d100_two_2() -> None:
    """D100-TWO-2, D100-ATK-5: either hand may strike, the off hand at its modifier.
    Against armour 4 and BE 3, the dagger at CC 50 hits half the time for a mean of
    1 wound (d10 + 1 − 7: 1 to 4 on a 7 to 10), the sword at CC 30 for 2,1 (d10 + 3 − 7:
    1 to 6): 0,5 against 0,63 a blow, so the sword, in the off hand."""
    rules = Rules()
    blow = _first_blow({"PA": 4}, rules)
    assert blow["hand"] == "non_directrice" and blow["weapon"] == "arme_a_une_main"
    assert blow["target"]["total"] == 50 + rules.off_hand_modifier


def test_the_main_hand_strikes_otherwise_d100_two_2() -> None:
    """D100-TWO-2: without armour the dagger's blow wounds more (0,5 × 3,6 against
    0,3 × 5,5 at the modifier's −20), so the main hand strikes; with no malus at all
    for the off hand, the better sword strikes from the off hand again."""
    assert _first_blow({})["hand"] == "directrice"
    free = _first_blow({}, Rules(off_hand_modifier=0))
    assert free["hand"] == "non_directrice" and free["target"]["total"] == 50


# -- the start option, documented where roster files are ------------------------------------


@pytest.mark.parametrize("system", systems.NAMES)
def test_every_start_option_is_named_where_roster_files_are_described(system: str
                                                                      ) -> None:
    """CORE-ERR: each start option a system declares (``System.start_options``, the
    engine refuses any other) is named in the roster schema's « depart » and in the
    format page, so a new one (``terrain``) cannot be left out of either."""
    schema = json.loads((ROOT / "src" / "escarmouche" / "schemas"
                         / "roster-1.schema.json").read_text(encoding="utf-8"))
    described = schema["properties"]["depart"]["description"]
    listed = described[described.index(f"{system} :"):].split(";")[0]
    page = (ROOT / "book" / "format-effectifs.md").read_text(encoding="utf-8")
    row = next(line for line in page.splitlines() if line.startswith("| `[depart]`"))
    for option in systems.get(system).start_options:
        assert option in re.findall(r"\w+", listed), (system, option)
        assert f"`{option}`" in row, (system, option)


_GROUND = st.tuples(st.sampled_from([0, 1.5, 3]), st.sampled_from([0, 2, 4.5]),
                    st.sampled_from([0, 3, 6]), st.booleans())


@given(_GROUND, st.sampled_from(["saut", "saut_en_longueur", "course", "attaque"]),
       st.one_of(st.booleans(), st.sampled_from([0.0, 2.0, 5.0])))
@settings(max_examples=200, deadline=None)
def test_crossed_the_rulings_of_the_ground_once(ground: Any, step: str,
                                                landed: Any) -> None:
    """D100-JUMP-1, D100-JUMP-2: what a step leaves of the ground, one function for the
    engine's resolvers and the kernel (terrain.crossed). Ground is only ever crossed,
    never added; a fall is never forgotten within the turn; a step of another kind,
    or with nothing of its kind ahead, changes nothing."""
    from escarmouche.systems.d100.terrain import crossed

    height, width, room, fell = ground
    after = crossed(ground, step, landed)
    assert after[0] <= height and after[1] <= width and after[2] == room
    assert after[3] >= fell
    if step == "saut":
        assert after == ((0, width, room, fell or not landed) if height else ground)
    elif step == "saut_en_longueur":
        assert after == ((height, 0, room, fell or float(landed) < width) if width
                         else ground)
    elif step == "course":
        assert after == ((height, 0, room, fell) if width and not height else ground)
    else:
        assert after == ground


def test_defended_and_loaded_after_as_the_engine_keeps_them() -> None:
    """D100-PARRY-2, D100-PARRY-3, D100-DODGE-2, D100-ACT-4: a parry counts against the
    round's parries and uses the prepared parry only when it was the one opposed; a
    dodge counts against the dodges; a shot empties a weapon that reloads."""
    from escarmouche.systems.d100.core import defended, loaded_after

    assert defended(True, True, 0, 1, True) == (1, 1, False)
    assert defended(True, False, 1, 0, True) == (2, 0, True)
    assert defended(False, False, 1, 0, True) == (1, 1, True)
    assert loaded_after(True, 2, True) is False
    assert loaded_after(True, 0, True) is True
    assert loaded_after(False, 2, True) is True
