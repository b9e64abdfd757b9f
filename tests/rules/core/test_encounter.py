"""The encounter engine (CORE-LOG, CORE-ERR, CORE-RNG, CORE-TURN-1, CORE-END-1,
CORE-TIME-1..3), driven by a toy system, which cites the engine's own rules where its
text has none."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any, ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escarmouche import Combatant, Effect, EscarmoucheError, Timing, systems
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Ctx, Encounter, EndCondition
from escarmouche.systems.base import ENVIRONMENT, System
from tests.toy_system import TOY, ToySystem

#: saves name their system: loading one of the toy system needs it registered (the
#: fixture ``toy`` of tests/conftest.py, for every test here)
pytestmark = pytest.mark.usefixtures("toy")


def roster() -> list[Combatant]:
    return [
        Combatant("Aldric", "héros", {"PV": 12, "init": 2}),
        Combatant("Brune", "héros", {"PV": 9}),
        Combatant("Grolk", "monstres", {"PV": 10, "init": 1}),
    ]


def started(rolls: list[int]) -> Encounter:
    enc = Encounter(TOY, roster())
    enc.start(ScriptedRolls(rolls))
    return enc


def activations(enc: Encounter) -> list[tuple[int, str]]:
    return [(e.turn, e.actor or "") for e in enc.log if e.kind == "activation"]


def test_start_orders_and_activates_first() -> None:
    # Aldric 3+2=5, Brune 6, Grolk 1+1=2
    enc = started([3, 6, 1])
    assert enc.state.order == ["Brune", "Aldric", "Grolk"]
    assert enc.current == "Brune"
    assert enc.turn == 1
    kinds = [e.kind for e in enc.log]
    assert kinds[:3] == ["initiative", "debut_tour", "activation"]
    assert enc.log[0].dice[0].value == 3


def test_turns_advance_and_wrap() -> None:
    enc = started([3, 6, 1])
    for _ in range(3):
        enc.end_activation()
    assert enc.turn == 2 and enc.current == "Brune"
    assert [a for t, a in activations(enc) if t == 1] == ["Brune", "Aldric", "Grolk"]


class _PlainSystem(ToySystem):
    """The toy system without its own turn rule: the engine's defaults apply."""

    turn_rules: ClassVar[tuple[str, ...]] = System.turn_rules


def test_the_turn_loop_core_turn_1() -> None:
    """CORE-TURN-1: a system without a turn rule of its own cites the engine's turn loop;
    a fighter out of the fight is skipped, the turn ends after the last slot."""
    enc = Encounter(_PlainSystem(), roster())
    enc.start(ScriptedRolls([3, 6, 1]))
    enc.adjust("Aldric", "PV", -12)
    for _ in range(2):
        enc.end_activation()
    starts = [e for e in enc.log if e.kind == "debut_tour"]
    assert [(e.turn, e.rules) for e in starts] == [(1, ("CORE-TURN-1",)),
                                                   (2, ("CORE-TURN-1",))]
    assert [a for t, a in activations(enc) if t == 1] == ["Brune", "Grolk"]
    assert enc.current == "Brune" and enc.turn == 2


def test_rejected_action_changes_nothing_core_err() -> None:
    """CORE-ERR: a rejected action leaves the state and the rng as they were."""
    enc = started([3, 6, 1])
    before = enc.to_json()
    rng = random.Random(5)
    rng_before = rng.getstate()
    with pytest.raises(EscarmoucheError) as err:
        enc.act("Aldric", "frapper", rng, cible="Grolk")  # not Aldric's turn
    assert "JOUET-ATK-1" in str(err.value)
    assert enc.to_json() == before
    assert rng.getstate() == rng_before
    with pytest.raises(EscarmoucheError):
        enc.act("Brune", "frapper", rng, cible="Personne")
    assert enc.to_json() == before and rng.getstate() == rng_before


def test_scripted_rolls_rewound_after_rejection() -> None:
    enc = started([3, 6, 1])
    rng = ScriptedRolls([4])
    with pytest.raises(EscarmoucheError):
        enc.act("Brune", "voler", rng)
    assert rng.used == 0
    enc.act("Brune", "frapper", rng, cible="Grolk")
    assert enc.fighter("Grolk").tracks["PV"] == 6
    last = [e for e in enc.log if e.kind == "attaque"][-1]
    assert [d.value for d in last.dice] == [4]


def test_default_end_last_side_standing_core_end_1() -> None:
    """CORE-END-1: without conditions, the fight ends when one side is left standing;
    a finished fight accepts no action."""
    enc = started([3, 6, 1])
    enc.act("Brune", "frapper", ScriptedRolls([6]), cible="Grolk")
    enc.end_activation()
    enc.act("Aldric", "frapper", ScriptedRolls([5]), cible="Grolk")
    assert enc.finished
    assert enc.outcome == "victoire du camp « héros »"
    assert enc.log[-1].kind == "fin_combat" and enc.log[-1].rules == ("CORE-END-1",)
    with pytest.raises(EscarmoucheError, match=r"\(CORE-END-1\)"):
        enc.end_activation()


def test_end_conditions_are_data_core_end_1() -> None:
    """CORE-END-1: the GM's conditions, checked after actions and at the end of a turn."""
    conds = [EndCondition("tours", "victoire", turns=2, label="tenir deux tours")]
    enc = Encounter(TOY, roster(), end_conditions=conds)
    enc.start(ScriptedRolls([3, 6, 1]))
    for _ in range(5):
        enc.end_activation()
    assert not enc.finished and enc.turn == 2
    enc.end_activation()
    assert enc.finished and enc.outcome == "victoire (tenir deux tours)"
    with pytest.raises(EscarmoucheError, match="CORE-END-1"):
        EndCondition("inconnue", "victoire")


def test_flee_ends_fight_core_end_1() -> None:
    conds = [EndCondition("camp_en_fuite", "victoire", side="monstres")]
    enc = Encounter(TOY, roster(), end_conditions=conds)
    enc.start(ScriptedRolls([3, 6, 1]))
    enc.flee("Grolk")
    assert enc.finished and "a fui" in (enc.outcome or "")
    assert [(e.kind, e.rules) for e in enc.log[-2:]] == [("fuite", ("CORE-END-1",)),
                                                         ("fin_combat", ("CORE-END-1",))]


# -- effect timings (CORE-TIME-1..3, the encounter's countdowns) -------------------------


def expiry_turn(enc: Encounter, name: str) -> tuple[int, str | None]:
    ends = [e for e in enc.log if e.kind == "effet_fin" and name in e.text]
    assert len(ends) == 1
    e = ends[0]
    # the activation in progress when it expired
    acts = [x for x in enc.log if x.kind == "activation" and x.seq < e.seq]
    return e.turn, acts[-1].actor if acts and acts[-1].turn == e.turn else None


def play_turns(enc: Encounter, n: int) -> None:
    for _ in range(n * len(enc.state.order)):
        enc.end_activation()


def cited(enc: Encounter, name: str) -> set[tuple[str, ...]]:
    """The rule IDs of the events of effect ``name`` as it ticks (applied, counted down,
    expired)."""
    return {e.rules for e in enc.log
            if e.kind in ("effet_applique", "effet_decompte", "effet_fin") and name in e.text}


def test_turn_start_countdown_core_time_1() -> None:
    """CORE-TIME-1: a global countdown ticks at the start of each global turn."""
    enc = started([3, 6, 1])
    enc.add_effect(Effect("", "Renforts", Timing.TURN_START, remaining=2))
    play_turns(enc, 2)
    turn, during = expiry_turn(enc, "Renforts")
    assert turn == 3 and during is None  # ticks at the start of turns 2 and 3
    assert cited(enc, "Renforts") == {("CORE-TIME-1",)}


def test_activation_start_poison_core_time_2() -> None:
    """CORE-TIME-2: per-fighter effects tick at the start of the bearer's activation."""
    enc = started([3, 6, 1])
    enc.add_effect(Effect("", "Poison", Timing.ACTIVATION_START, bearer="Grolk",
                          remaining=2, per_tick={"PV": -1}))
    play_turns(enc, 2)
    turn, during = expiry_turn(enc, "Poison")
    assert (turn, during) == (2, "Grolk")
    assert enc.fighter("Grolk").tracks["PV"] == 8
    assert cited(enc, "Poison") == {("CORE-TIME-2",)}


def test_activation_end_effect_core_time_2() -> None:
    """CORE-TIME-2: an effect timed at the end of an activation ticks at its end."""
    enc = started([3, 6, 1])
    enc.add_effect(Effect("", "Garde", Timing.ACTIVATION_END, bearer="Brune", remaining=1))
    enc.end_activation()
    turn, _ = expiry_turn(enc, "Garde")
    assert turn == 1
    assert cited(enc, "Garde") == {("CORE-TIME-2",)}


def test_environment_at_turn_end_core_time_3() -> None:
    """CORE-TIME-3: environment effects resolve at the end of the global turn."""
    enc = started([3, 6, 1])
    enc.add_effect(Effect("", "Pluie de flèches", Timing.TURN_END, remaining=1))
    play_turns(enc, 1)
    ends = [e for e in enc.log if e.kind == "effet_fin"]
    fin = next(e for e in enc.log if e.kind == "fin_tour")
    assert ends[0].seq < fin.seq and ends[0].turn == 1
    assert cited(enc, "Pluie de flèches") == {("CORE-TIME-3",)}


def test_until_next_turn_of() -> None:
    enc = started([3, 6, 1])
    enc.end_activation()  # Aldric
    enc.add_effect(Effect("", "Avantage contre Grolk", Timing.UNTIL_NEXT_TURN_OF,
                          bearer="Grolk", until_turn_of="Grolk"))
    enc.end_activation()  # Grolk's activation starts: it expires
    assert enc.current == "Grolk"
    assert expiry_turn(enc, "Avantage") == (1, "Grolk")


def test_bad_effect_duration() -> None:
    with pytest.raises(EscarmoucheError, match="durée"):
        Effect("", "x", Timing.TURN_START, remaining=0)
    enc = started([3, 6, 1])
    before = enc.to_json()
    with pytest.raises(EscarmoucheError, match="Personne"):
        enc.add_effect(Effect("", "x", Timing.TURN_START, bearer="Personne"))
    assert enc.to_json() == before


# -- save and restore, determinism (CORE-LOG, CORE-RNG) -----------------------------------


def test_json_round_trip_core_log() -> None:
    """CORE-LOG: the log and the state survive a JSON round trip without loss."""
    enc = started([3, 6, 1])
    enc.add_effect(Effect("", "Poison", Timing.ACTIVATION_START, bearer="Grolk", remaining=3,
                          per_tick={"PV": -1}))
    enc.run(random.Random(1), max_turns=3)
    text = enc.to_json()
    again = Encounter.from_json(text)
    assert again.to_json() == text
    assert json.loads(text)["log"][0]["kind"] == "initiative"


def test_resume_after_restore_matches() -> None:
    a = Encounter(TOY, roster())
    a.start(random.Random(3))
    b = Encounter.from_json(a.to_json())
    a.run(random.Random(9), max_turns=10)
    b.run(random.Random(9), max_turns=10)
    assert a.to_json() == b.to_json()


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32))
def test_same_seed_same_log_core_rng(seed: int) -> None:
    """CORE-RNG: same seed and same inputs ⇒ the same event log."""
    def fight() -> str:
        enc = Encounter(TOY, roster())
        enc.run(random.Random(seed), max_turns=20)
        return json.dumps([e.to_json() for e in enc.log])

    assert fight() == fight()


def test_run_is_bounded() -> None:
    enc = Encounter(TOY, [Combatant("Seul", "a", {"PV": 3})])
    enc.run(random.Random(1), max_turns=3)
    assert enc.finished and "limite" in (enc.outcome or "")
    with pytest.raises(EscarmoucheError):
        Encounter(TOY, roster()).run(random.Random(1), max_turns=0)


def test_roster_errors_core_err() -> None:
    with pytest.raises(EscarmoucheError, match="unique"):
        Encounter(TOY, [Combatant("A", "x"), Combatant("A", "y")])
    with pytest.raises(EscarmoucheError, match="réservé"):
        Encounter(TOY, [Combatant("environnement", "x")])
    with pytest.raises(EscarmoucheError, match="au moins"):
        Encounter(TOY, [])
    with pytest.raises(EscarmoucheError, match="inconnu"):
        Encounter("d30", roster())


def test_restore_rejects_garbage() -> None:
    with pytest.raises(EscarmoucheError, match="Texte JSON refusé"):
        Encounter.from_json("{pas du json")
    with pytest.raises(EscarmoucheError, match="format"):
        Encounter.from_json("{}")


def test_gm_adjust_is_atomic() -> None:
    enc = started([3, 6, 1])
    enc.adjust("Grolk", "PV", -4)
    assert enc.fighter("Grolk").tracks["PV"] == 6
    before = enc.to_json()
    with pytest.raises(EscarmoucheError, match="piste"):
        enc.adjust("Grolk", "Mana", -4)
    assert enc.to_json() == before
    enc.adjust("Grolk", "PV", 100)
    assert enc.fighter("Grolk").tracks["PV"] == 10  # healing stops at the maximum


def test_environment_slot_effects_tick_at_its_activation() -> None:
    """D12-INIT-5 (core side): an environment slot's own effects tick when it activates."""
    from tests.toy_system import ToySystem

    class WithEnvironment(ToySystem):
        name = "jouet_env"

        def turn_order(self, ctx: Ctx[Any], turn: int) -> list[str]:
            return [*super().turn_order(ctx, turn), ENVIRONMENT]

    enc = Encounter(WithEnvironment(), roster())
    enc.start(ScriptedRolls([3, 6, 1]))
    enc.add_effect(Effect("", "Boules de feu", Timing.ACTIVATION_START, bearer=ENVIRONMENT,
                          remaining=1))
    for _ in range(3):
        enc.end_activation()
    assert enc.current == ENVIRONMENT
    assert expiry_turn(enc, "Boules de feu") == (1, ENVIRONMENT)


def test_system_hooks_validate_effect_and_cite_its_rules() -> None:
    """A system rejects meaningless effects and names the rules cited for core events."""
    from tests.toy_system import ToySystem

    class Strict(ToySystem):
        name: ClassVar[str] = "jouet_strict"
        turn_rules: ClassVar[tuple[str, ...]] = ("JOUET-TOUR",)
        tick_rules: ClassVar[Mapping[Timing, tuple[str, ...]]] = {
            Timing.ACTIVATION_START: ("JOUET-EFFET",)
        }

        def validate_effect(self, effect: Effect, rules: object) -> None:
            if any(v > 0 for v in effect.per_tick.values()):
                raise EscarmoucheError("soins interdits (JOUET-EFFET)", rule="JOUET-EFFET")

    enc = Encounter(Strict(), roster())
    enc.start(ScriptedRolls([3, 6, 1]))
    assert enc.log[1].kind == "debut_tour" and enc.log[1].rules == ("JOUET-TOUR",)
    before = enc.to_json()
    with pytest.raises(EscarmoucheError, match="soins interdits"):
        enc.add_effect(Effect("", "Soin", Timing.ACTIVATION_START, bearer="Grolk",
                              per_tick={"PV": 2}))
    assert enc.to_json() == before
    enc.add_effect(Effect("", "Poison", Timing.ACTIVATION_START, bearer="Grolk",
                          per_tick={"PV": -1}))
    enc.end_activation()
    enc.end_activation()
    tick = next(e for e in enc.log if e.kind == "effet_applique")
    assert tick.rules == ("JOUET-EFFET",)


def test_out_bearer_stops_ticking() -> None:
    """Once a start-of-activation tick knocks the bearer out, its later effects don't tick."""
    enc = started([3, 6, 1])
    enc.add_effect(Effect("", "Brûlure", Timing.ACTIVATION_START, bearer="Grolk",
                          per_tick={"PV": -10}))
    enc.add_effect(Effect("", "Régénération", Timing.ACTIVATION_START, bearer="Grolk",
                          per_tick={"PV": 3}))
    enc.end_activation()
    enc.end_activation()
    grolk = enc.fighter("Grolk")
    assert grolk.out and grolk.tracks["PV"] == 0


ALL_STATS = {"HAB": 50, "DIS": 40, "PMR": 40, "PV": 10, "Esprit": 10, "CC": 40, "CT": 40,
             "F": 30, "E": 30, "Ag": 30, "M": 4, "B": 10, "defense": 12}


@pytest.mark.parametrize("system", systems.NAMES)
def test_unknown_start_option_is_refused_core_err(system: str) -> None:
    """CORE-ERR: every system declares its start options; the engine refuses others,
    naming the system and its options, and nothing changes."""
    from escarmouche.systems import system as lookup

    enc = Encounter(system, [Combatant("A", "x", ALL_STATS), Combatant("B", "y", ALL_STATS)])
    before = enc.to_json()
    rng = random.Random(1)
    state = rng.getstate()
    with pytest.raises(EscarmoucheError) as err:
        enc.start(rng, suprise_by="x")
    for option in lookup(system).start_options:
        assert option in str(err.value)
    assert f"inconnue pour le système {system}" in str(err.value)
    assert enc.to_json() == before and rng.getstate() == state


def test_track_maxima_hook_caps_healing() -> None:
    """A system may give a track a maximum above its starting value (RB-END-3's éclat)."""
    from tests.toy_system import ToySystem

    class Roomy(ToySystem):
        name: ClassVar[str] = "jouet_max"

        def track_maxima(self, combatant: Combatant, rules: object) -> dict[str, int]:
            return {"PV": combatant.stat("PV") + 5}

    enc = Encounter(Roomy(), roster())
    enc.adjust("Grolk", "PV", 100)
    assert enc.fighter("Grolk").tracks["PV"] == 15


def test_registry_get_returns_registered_systems_core_err() -> None:
    """CORE-ERR: a registered system is found by name, an unknown name lists those known,
    and building an encounter registers nothing as a side effect."""
    assert systems.get("jouet") is TOY
    systems.unregister("jouet")
    Encounter(TOY, roster())
    with pytest.raises(EscarmoucheError, match="«\u00a0rulebook\u00a0», «\u00a0d100\u00a0»,"
                                               " «\u00a0d12\u00a0» ou «\u00a0d20\u00a0»") as err:
        systems.get("jouet")
    assert "jouet" not in str(err.value).split(":", 1)[1]


def test_parameters_are_plain_bounded_values_core_err() -> None:
    """Whatever a widget or a notebook passes, a parameter is a plain value: bounded
    texts (no lone surrogate, which no save could hold), numbers, lists; checked at the
    door, before any rule reads it, and nothing changes when refused."""
    enc = started([3, 6, 1])
    rng = ScriptedRolls([4])
    before = enc.to_json()
    nested: object = "Grolk"
    for _ in range(20):
        nested = [nested]
    for bad in ("Grolk\ud800", "G" * 20_000, nested, 10**40, float("nan"), object()):
        with pytest.raises(EscarmoucheError):
            enc.act(enc.current or "", "frapper", rng, cible=bad)
    with pytest.raises(EscarmoucheError):
        enc.act(["Aldric"], "frapper", rng, cible="Grolk")  # type: ignore[arg-type]
    with pytest.raises(EscarmoucheError):
        enc.act(enc.current or "", {"frapper": 1}, rng)  # type: ignore[arg-type]
    assert enc.to_json() == before and rng.remaining == 1


def test_end_of_fight_sentences_hold_one_colon_per_clause_rb_end_1() -> None:
    """RB-END-1 and the narration style: « Fin du combat : victoire (…). », never
    « Fin du combat : victoire : … »; a refusal after the end keeps one colon."""
    from escarmouche.state import EndCondition

    roster = [Combatant("A", "x", {"HAB": 60, "DIS": 50, "PMR": 50, "PV": 1, "Esprit": 5}),
              Combatant("B", "y", {"HAB": 40, "DIS": 50, "PMR": 50, "PV": 1, "Esprit": 5})]
    enc = Encounter("rulebook", roster,
                    end_conditions=[EndCondition("camp_hors_combat", "victoire", side="y")])
    enc.start(ScriptedRolls([10, 90]))
    actor = enc.current
    assert actor is not None
    target = "B" if actor == "A" else "A"
    enc.act(actor, "attaquer", cible=target, degats=1)
    if not enc.finished:
        enc.end_activation(ScriptedRolls([]))
    end = next(e for e in enc.log if e.kind == "fin_combat")
    assert end.text.count(":") == 1, end.text
    with pytest.raises(EscarmoucheError) as err:
        enc.act(actor, "attaquer", cible=target, degats=1)
    assert str(err.value).count(":") == 1, str(err.value)


def test_a_run_that_fails_midway_changes_nothing_core_err() -> None:
    """CORE-ERR: :meth:`Encounter.run` is one atomic operation. Its operations work in
    the run's own copy of the fight (no copy per operation); dice running out after
    several actions leave the fight, its log and the dice as they were before the run."""
    def fight() -> Encounter:
        enc = Encounter("d20", [Combatant("Brune", "héros", {"PV": 30}),
                                Combatant("Grolk", "orques", {"PV": 30})])
        enc.start(ScriptedRolls([12, 7]))
        return enc

    rolls = [11, 4, 15, 6, 3, 2, 18, 5, 9, 1, 14, 3, 20, 6, 8, 2]
    partial = fight()
    short = ScriptedRolls(rolls)
    before, position = partial.to_json(), short.getstate()
    with pytest.raises(EscarmoucheError):
        partial.run(short, max_turns=50)
    assert partial.to_json() == before and short.getstate() == position
    # the same dice, enough of them: the failed run had played attacks with its dice
    enough = fight()
    enough.run(ScriptedRolls(rolls * 200), max_turns=50)
    drawn, played = 0, []
    for event in enough.log[len(partial.log):]:
        drawn += len(event.dice)
        if drawn > len(rolls):
            break
        played.append(event.kind)
    assert played.count("attaque") >= 3, played
