"""System d100 (seed 001), RULES.md: the defence against a blow, the parry and the dodge:
D100-PARRY-1..4 and D100-DODGE-1/2 (the engine, its kernel, and what it writes).

Expected values are derived by hand from the rules in the comments next to them.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from escarmouche import Combatant, EscarmoucheError
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter
from escarmouche.systems import d100
from escarmouche.systems.d100 import (
    Guard,
    Outcome,
    Rules,
    attack_odds,
    attack_setup,
    resolve_attack,
    roll_attack,
)
from escarmouche.systems.d100 import kernel as K
from escarmouche.text.fmt import plural
from tests.helpers.d100 import (
    ALDRIC,
    BRUNE,
    GROLK,
    events,
    fighter,
    readme_duel,
    started,
    two_weapon_grolk,
)
from tests.helpers.proofreading import assert_refusal_shape

# -- D100-PARRY-1..4, D100-DODGE-1/2 -------------------------------------------------------


def test_defence_only_after_a_hit_d100_parry_1() -> None:
    """D100-PARRY-1: the defence is rolled only after a successful attack, and one
    attack is never both parried and dodged."""
    grolk = fighter("Grolk", "monstres", ["esquive"], CC=45, E=35, Ag=30, B=11)
    setup = attack_setup(ALDRIC, grolk, defence="parade", guard=Guard(parry_prepared=True))
    rng = ScriptedRolls([80])
    result = roll_attack(setup, rng)  # 80 > 65: no defence die
    assert rng.remaining == 0 and result.defence_roll is None
    with pytest.raises(EscarmoucheError, match="D100-PARRY-1"):
        attack_setup(ALDRIC, grolk, defence="parade et esquive")
    enc = started([ALDRIC, grolk], [4, 10], equipement=two_weapon_grolk())
    enc.act("Aldric", "attaquer", ScriptedRolls([80]), cible="Grolk",
            defense="parade")
    assert enc.fighter("Grolk").flags["parries"] == 0  # a miss uses no parry
    odds = attack_odds(65, defence="parade", defence_target=45)
    assert odds.defended == Fraction(65, 100) * Fraction(45, 100)


def test_parry_needs_preparation_or_two_weapons_d100_parry_2() -> None:
    """D100-PARRY-2: a prepared parry or a weapon in each hand; d100 <= CC: no damage."""
    with pytest.raises(EscarmoucheError, match="D100-PARRY-2"):
        attack_setup(ALDRIC, GROLK, defence="parade")
    prepared = attack_setup(ALDRIC, GROLK, defence="parade", guard=Guard(parry_prepared=True),
                            rules=Rules(default_weapon="arme_a_une_main"))  # pinned: +3
    assert prepared.parry_source == "preparee"
    off_hand = attack_setup(ALDRIC, GROLK, defence="parade", guard=Guard(two_weapons=True))
    assert off_hand.parry_source == "main_non_directrice"
    rng = ScriptedRolls([30, 45])
    result = roll_attack(prepared, rng)  # 45 <= CC 45: parried, no d10
    assert result.outcome is Outcome.PARRIED and result.wounds_lost == 0
    assert rng.remaining == 0 and result.damage_roll is None
    failed = resolve_attack(prepared, 30, 46, 2)  # 46 > 45: the blow lands
    assert failed.outcome is Outcome.HIT and failed.wounds_lost == 2  # 30->03 head: 5-3
    # in a fight: Grolk prepares a parry (round 1), uses it in round 2
    enc = started([ALDRIC, GROLK], [4, 10])
    enc.end_activation()
    enc.act("Grolk", "preparer_parade")
    enc.end_activation()
    enc.act("Aldric", "attaquer", ScriptedRolls([30, 45]), cible="Grolk",
            defense="parade")
    assert enc.fighter("Grolk").flags["parry_prepared"] is False
    assert events(enc, "attaque")[-1].data["outcome"] == "paree"


def test_one_parry_per_round_d100_parry_3() -> None:
    """D100-PARRY-3: one parry per round (the text's rule, stated here whatever the
    edition's default; count reset at each round); a second one is refused and changes
    nothing; a prepared parry lasts until the defender's next turn."""
    # Aldric 44, Brune 35 + 9 = 44 (lower Ag), Grolk 40
    enc = started([ALDRIC, BRUNE, GROLK], [4, 9, 10], equipement=two_weapon_grolk(),
                  rules=d100.Rules(parries_per_round=1))
    enc.act("Aldric", "attaquer", ScriptedRolls([30, 20]), cible="Grolk",
            defense="parade")
    assert enc.fighter("Grolk").flags["parries"] == 1
    enc.end_activation()
    before = enc.to_json()
    rng = ScriptedRolls([30, 20, 3])
    with pytest.raises(EscarmoucheError, match="D100-PARRY-3"):
        enc.act("Brune", "attaquer", rng, cible="Grolk", defense="parade")
    assert enc.to_json() == before and rng.used == 0
    enc.end_activation()
    enc.end_activation()  # round 2: the count is reset
    assert enc.fighter("Grolk").flags["parries"] == 0
    enc.act("Aldric", "attaquer", ScriptedRolls([30, 20]), cible="Grolk",
            defense="parade")
    # a prepared parry that is not used ends at the start of its owner's next turn
    enc2 = started([ALDRIC, GROLK], [4, 10])
    enc2.end_activation()
    enc2.act("Grolk", "preparer_parade")
    enc2.end_activation()
    enc2.end_activation()  # Grolk's round-2 turn starts
    assert enc2.fighter("Grolk").flags["parry_prepared"] is False
    assert "D100-PARRY-3" in events(enc2, "parade_expiree")[0].rules


def test_only_melee_can_be_parried_d100_parry_4() -> None:
    """D100-PARRY-4: a ranged attack cannot be parried."""
    with pytest.raises(EscarmoucheError, match="D100-PARRY-4"):
        attack_setup(BRUNE, GROLK, "arc", distance=10, defence="parade",
                     guard=Guard(parry_prepared=True))


def test_dodge_needs_the_skill_d100_dodge_1() -> None:
    """D100-DODGE-1: only with « esquive »; d100 <= Ag: no damage roll at all."""
    with pytest.raises(EscarmoucheError, match="D100-DODGE-1"):
        attack_setup(ALDRIC, GROLK, defence="esquive")
    setup = attack_setup(GROLK, ALDRIC, defence="esquive")
    rng = ScriptedRolls([30, 40])
    result = roll_attack(setup, rng)  # 40 <= Ag 40
    assert result.outcome is Outcome.DODGED and rng.remaining == 0
    assert resolve_attack(setup, 30, 41, 5).outcome is Outcome.HIT


def test_one_dodge_per_round_d100_dodge_2() -> None:
    """D100-DODGE-2: one dodge per round (the text's count, pinned); a projectile cannot
    be dodged."""
    text = Rules(dodges_per_round=1)
    with pytest.raises(EscarmoucheError, match="D100-DODGE-2"):
        attack_setup(GROLK, ALDRIC, defence="esquive", guard=Guard(dodges_used=1), rules=text)
    with pytest.raises(EscarmoucheError, match="D100-DODGE-2"):
        attack_setup(BRUNE, ALDRIC, "arc", distance=5, defence="esquive")
    # Grolk 40 + 10 = 50, Troll 40 + 9 = 49, Aldric 40 + 1 = 41
    grolk = fighter("Grolk", "monstres", CC=45, E=35)
    troll = fighter("Troll", "monstres", CC=45, E=35)
    enc = started([grolk, troll, ALDRIC], [10, 9, 1], rules=text)
    enc.act("Grolk", "attaquer", ScriptedRolls([30, 12]), cible="Aldric",
            defense="esquive")
    enc.end_activation()
    before = enc.to_json()
    with pytest.raises(EscarmoucheError, match="D100-DODGE-2"):
        enc.act("Troll", "attaquer", ScriptedRolls([30, 12]), cible="Aldric",
                defense="esquive")
    assert enc.to_json() == before


def test_prepare_parry_door_is_the_kernels_d100_parry_3() -> None:
    """« préparer une parade » is played by the kernel through ``Encounter.act``: the
    fighter's flags are the kernel's (:func:`kernel_doors.commit`), the journal line is its log
    tuple narrated; a second one is refused (``PREPARED``, D100-PARRY-3) in French and
    nothing changes."""
    enc = readme_duel()
    enc.start(ScriptedRolls([9, 1]))
    actor = enc.state.current
    assert actor is not None
    events = enc.act(actor, "preparer_parade", ScriptedRolls([]))
    assert [e.kind for e in events] == ["parade_preparee"]
    assert "prépare une parade" in events[0].text
    flags = enc.state.fighters[actor].flags
    assert flags["parry_prepared"] is True and flags["plan"] == [["preparer_parade", 1]]
    before = enc.state.to_json()
    with pytest.raises(EscarmoucheError, match="déjà une parade préparée") as err:
        enc.act(actor, "preparer_parade", ScriptedRolls([]))
    assert err.value.rule == "D100-PARRY-3" == K.REFUSALS[K.PREPARED]
    assert enc.state.to_json() == before


# -- d100 parry and dodge (D100-PARRY-*, D100-DODGE-*, D100-SURPRISE-1) ---------------------


def test_b106_a_defence_refusal_counts_attempts_and_needs_no_gender() -> None:
    """B106: the text limits the parries and dodges a character may *attempt* per round;
    the refusal said « Grolk a déjà paré 1 fois » (a failed parry counts too), and the
    surprise refusal « Bertille est surpris » (the engine cannot know a name's gender)."""
    from escarmouche.systems import d100

    def perso(name: str) -> Combatant:
        return Combatant(name, "x", {"CC": 40, "CT": 40, "F": 40, "E": 40, "Ag": 40,
                                     "M": 4, "B": 10}, skills={"esquive"})

    # The limits are read from the rules in force, so that a revision of them (the CI's
    # rehearsal raises D100-PARRY-2 to two parries) still meets a refusal.
    parries, dodges = d100.Rules().parries_per_round, d100.Rules().dodges_per_round
    texts = []
    for defence, guard in (("parade", d100.Guard(parry_prepared=True, parries_used=parries)),
                           ("esquive", d100.Guard(dodges_used=dodges))):
        with pytest.raises(EscarmoucheError) as caught:
            d100.attack_setup(perso("Grolk"), perso("Bertille"), "dague", defence=defence,
                              guard=guard)
        texts.append(assert_refusal_shape(caught.value))
    assert f"Bertille a déjà tenté {plural(parries, 'parade')} ce round" in texts[0], texts[0]
    assert f"Bertille a déjà tenté {plural(dodges, 'esquive')} ce round" in texts[1], texts[1]
    assert not any("paré " in t or "esquivé " in t for t in texts), texts
    enc = Encounter("d100", [perso("Grolk"), Combatant("Bertille", "y", {
        "CC": 40, "CT": 40, "F": 40, "E": 40, "Ag": 40, "M": 4, "B": 10},
        skills={"esquive"})], rules=d100.Rules(surprised_can_defend=False))  # the ruling, pinned
    from escarmouche.dice import ScriptedRolls

    enc.start(ScriptedRolls([9, 1]), surpris="y")
    with pytest.raises(EscarmoucheError) as caught:
        enc.act("Grolk", "attaquer", ScriptedRolls([30, 4]), cible="Bertille",
                defense="esquive")
    text = assert_refusal_shape(caught.value)
    assert ("Bertille ne peut ni parer ni esquiver pendant le premier round, son camp étant "
            "surpris") in text, text
