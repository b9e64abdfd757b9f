"""The GM's table session (:mod:`escarmouche_widgets.session`), driven directly: no
widget, one call per GM step, refusals as values that change nothing (CORE-ERR).

The generic behaviour uses the d100 system and the toy system of ``tests/toy_system/``;
the target parameter and the effect kind come from the System, so a variant of the toy
system that declares others is followed without touching the session.
"""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping
from typing import Any, ClassVar

import pytest
from escarmouche_widgets._tracker_model import preferred_target
from escarmouche_widgets.session import Outcome, TableSession

from escarmouche import EscarmoucheError, savefile, systems
from escarmouche.dice import ScriptedRolls
from escarmouche.errors import SaveError
from tests.toy_system import TOY
from tests.toy_system.system import ToySystem

D100 = systems.get("d100").sample_roster


def started(seed: int = 3) -> TableSession:
    table = TableSession("d100", seed=seed)
    assert table.start(D100).ok
    return table


def snapshot(table: TableSession) -> tuple[str, int, int, frozenset[str], int]:
    """Everything a refused step must leave as it was."""
    enc = table.encounter
    return (enc.to_json() if enc is not None else "", len(table.history.done),
            len(table.history.undone), frozenset(table.hidden), len(table.hide_steps.done))


def test_the_session_imports_no_widget() -> None:
    """The model runs where ipywidgets is absent (a CLI, a test, another face)."""
    code = ("import sys, escarmouche_widgets.session as s; "
            "s.TableSession('d100'); assert 'ipywidgets' not in sys.modules, 'ipywidgets'")
    subprocess.run([sys.executable, "-c", code], check=True)


def _play(table: TableSession, rng: Callable[[], Any]) -> list[Outcome]:
    """A whole d100 fight, step by step: each fighter attacks the first standing enemy
    (D100-ATK-1) while it may, then hands over (« Au suivant »)."""
    outcomes: list[Outcome] = []
    for _ in range(400):
        enc = table.encounter
        assert enc is not None
        if enc.finished:
            break
        actor = str(enc.current)
        offered = [s.id for s in enc.actions(actor)]
        target = preferred_target(enc, actor, None)
        if "attaquer" in offered and target is not None:
            outcome = table.act(actor, "attaquer", target=target, rng=rng())
            if not outcome.ok:  # no half action left for a second attack: hand over
                assert outcome.error is not None and outcome.error.rule, outcome.message
                outcome = table.next_activation(rng=rng())
        else:
            outcome = table.next_activation(rng=rng())
        assert outcome.ok, outcome.message
        outcomes.append(outcome)
    return outcomes


def test_a_whole_d100_fight_step_by_step_d100_atk_1() -> None:
    """D100-ATK-1: every attack rolls its d100 and cites the rule; the fight ends
    (CORE-END-1) and each step is one undoable step of the history."""
    table = TableSession("d100", seed=11)
    first = table.start(D100, rng=random.Random(11), source="graine 11")
    assert first.ok and first.asked is None
    assert first.result_text.startswith("Début du combat (graine 11)")
    dice = random.Random(12)
    outcomes = _play(table, lambda: dice)
    enc = table.encounter
    assert enc is not None and enc.finished and enc.outcome
    attacks = [o for o in outcomes if "D100-ATK-1" in o.html]
    assert attacks and all("d100 =" in o.result_text for o in attacks)
    assert len(table.history.done) == len(outcomes) + 1  # and the start
    assert table.turn_sentence().startswith("Combat terminé")
    assert table.undo_label == table.history.done[-1].label
    # « Annuler » reopens the finished fight
    assert table.undo().ok and not enc.finished


def test_the_same_seed_replays_the_same_fight_core_rng() -> None:
    """CORE-RNG: with no rng given, step n rolls with the seed and n; two sessions with
    the same seed play the same fight."""
    played = []
    for _ in range(2):
        table = started(seed=5)
        _play(table, lambda: None)
        assert table.encounter is not None
        played.append(table.encounter.to_json())
    assert played[0] == played[1]


def test_scripted_dice_are_read_in_order() -> None:
    """D100-ATK-1 with typed dice: the attack reads the d100 then the damage die."""
    table = TableSession("d100")
    assert table.start(D100, rng=random.Random(1)).ok  # Brune first
    rolls = ScriptedRolls([8, 2])
    outcome = table.act("Brune", "attaquer", target="Grolk", rng=rolls)
    assert outcome.ok, outcome.message
    assert "d100 = 8 (attaque)\u202f; d10 = 2 (dégâts)" in outcome.result_text
    assert rolls.used == 2 and rolls.remaining == 0


@pytest.mark.parametrize("rng", [random.Random(5), ScriptedRolls([3, 3, 3])],
                         ids=["seeded", "scripted"])
def test_a_refusal_changes_neither_the_fight_nor_the_dice(rng: Any) -> None:
    """CORE-ERR: an attack out of turn (D100-ACT-1: not Grolk's turn) is a refusal, a
    value: the fight, the history and the rng are as they were."""
    table = started()
    before, state = snapshot(table), rng.getstate()
    outcome = table.act("Grolk", "attaquer", target="Brune", rng=rng)
    assert not outcome.ok and outcome.html == ""
    assert outcome.error is not None and outcome.error.field == "acteur"
    assert outcome.message == outcome.error.refusal()
    assert "Grolk" in outcome.message and "(D100-" in outcome.message
    assert snapshot(table) == before and rng.getstate() == state


def test_too_few_typed_dice_refuse_the_step_and_keep_them() -> None:
    """CORE-ERR: an attack whose damage die is missing draws nothing at all."""
    table = TableSession("d100")
    assert table.start(D100, rng=random.Random(1)).ok
    before, rolls = snapshot(table), ScriptedRolls([8])
    outcome = table.act("Brune", "attaquer", target="Grolk", rng=rolls)
    assert not outcome.ok and "plus aucun résultat prévu" in outcome.message
    assert snapshot(table) == before and rolls.used == 0


def _no_fight(table: TableSession) -> Outcome:
    return table.next_activation(rng=random.Random(1))


@pytest.mark.parametrize(("step", "field", "rule", "words"), [
    (_no_fight, "combat", "CORE-ERR", "Commencer le combat"),
    (lambda t: t.act("Grolk", None), "action", "CORE-ERR", "ne peut rien faire maintenant"),
    (lambda t: t.adjust(None, None, 2), "combattant", "CORE-ERR", "inconnu dans ce combat"),
    (lambda t: t.adjust("Grolk", None, 2), "piste", "CORE-ERR", "pistes\u00a0: B"),
    (lambda t: t.add_preset("Peste", "Grolk"), "effet", "CORE-ERR", "Saignement et Poison"),
    (lambda t: t.add_preset("Poison", None), "porteur", "CORE-ERR", "qui porte l’effet"),
    (lambda t: t.add_effect(" "), "effet", "CORE-ERR", "un texte non vide"),
    (lambda t: t.remove_effect(None), "effet", "CORE-ERR", "aucun effet de ce nom"),
    (lambda t: t.import_file(b"\xff\xfe", "combat.json"), "sauvegarde", "CORE-LOG",
     "UTF-8"),
    (lambda t: t.import_text(""), "sauvegarde", "CORE-LOG", "collez le JSON"),
])
def test_each_refusal_names_field_and_rule_and_changes_nothing(
        step: Callable[[TableSession], Outcome], field: str, rule: str, words: str) -> None:
    """CORE-ERR: the refusals a GM meets are the engine's errors (field, value, rule
    named), one sentence each, never raised to the view."""
    table = TableSession("d100", seed=3) if step is _no_fight else started()
    before = snapshot(table)
    outcome = step(table)
    assert not outcome.ok
    assert isinstance(outcome.error, EscarmoucheError)
    assert (outcome.error.field, outcome.error.rule) == (field, rule)
    assert words in outcome.message and outcome.message.endswith(f"({rule}).")
    assert snapshot(table) == before


def test_a_new_fight_asks_first_and_undo_brings_the_old_one_back() -> None:
    """Replacing a fight under way is asked first (the question kept as data); once
    replaced, « Annuler » brings the old fight back whole, then undoes its own steps."""
    table = started()
    assert table.act("Brune", "attaquer", target="Grolk").ok
    old = table.encounter
    assert old is not None
    saved, rng = old.to_json(), random.Random(9)
    state = rng.getstate()
    asked = table.start(D100, rng=rng)
    assert asked.ok and asked.asked is table.asking and asked.asked is not None
    assert asked.asked.what == "start" and "combat est en cours" in asked.asked.text
    assert table.encounter is old and rng.getstate() == state  # nothing rolled
    assert table.dismiss() is asked.asked and table.asking is None
    replaced = table.start(D100, rng=rng, replace=True)
    assert replaced.ok and table.encounter is not old and table.previous is not None
    assert table.undo_label == "le nouveau combat"  # its start taken back: the old one
    back = table.undo()
    assert back.ok and "combat qu’il remplaçait" in back.result_text
    assert table.encounter is old and old.to_json() == saved and table.previous is None
    assert table.undo().ok and len(old.state.log) < len(json.loads(saved)["log"])


def test_hidden_is_an_undoable_step_in_order_with_the_fight() -> None:
    """« caché » is a step « Annuler » and « Rétablir » take back in order, and the
    save keeps it."""
    table = started()
    assert table.set_hidden("Grolk", True).ok
    assert "Grolk" not in table.player_json
    assert table.undo_label == "Caché aux joueurs\u00a0: Grolk"
    assert table.act("Brune", "attaquer", target="Grolk").ok
    assert table.undo().ok  # the attack first
    assert "Grolk" not in table.player_json
    undone = table.undo()  # then « caché »
    assert "Annulé\u00a0: Caché aux joueurs\u00a0: Grolk" in undone.result_text
    assert "Grolk" in table.player_json and table.hidden == set()
    assert table.redo().ok and table.hidden == {"Grolk"}
    assert table.redo().ok and table.redo_label is None
    assert json.loads(table.save().saved)["caches"] == ["Grolk"]
    assert not table.set_hidden("Personne", True).ok


def test_a_system_change_during_a_fight_asks_first() -> None:
    table = started()
    asked = table.change_system("d12")
    assert asked.ok and asked.asked is not None and asked.asked.system == "d12"
    assert table.system == "d100" and asked.rows is None
    assert table.dismiss() is not None and table.system == "d100"
    changed = table.change_system("d12", confirmed=True)
    assert changed.ok and table.system == "d12" and changed.rows
    assert "defense=" in changed.rows[0].stats
    assert table.encounter is not None and table.encounter.system.name == "d100"
    assert not table.change_system("d7").ok and table.system == "d12"


def test_export_and_import_restore_the_fight_and_its_system() -> None:
    table = started()
    assert table.act("Brune", "attaquer", target="Grolk").ok
    exported = table.export()
    assert exported.ok and "Combat exporté" in exported.result_text
    saved = table.save().saved
    other = TableSession("rulebook")
    restored = other.import_text(saved)
    assert restored.ok and other.system == "d100"
    assert restored.rows is not None and [r.name for r in restored.rows] == [
        c.name for c in D100]
    assert other.encounter is not None
    assert savefile.dumps(other.encounter) == exported.saved  # save-2 (CORE-LOG)
    assert other.undo_label == table.undo_label and other.chart == table.chart
    assert other.import_file(exported.saved.encode(), "combat.json").ok


def test_effects_and_points_are_undoable_steps_core_time_2() -> None:
    table = started()
    poison = table.add_preset("Poison", "Grolk")
    assert poison.ok and "Effet ajouté\u00a0: Poison (Grolk)" in poison.result_text
    free = table.add_effect("brûlure", bearer="Grolk", duration=2, per_tick={"B": -1})
    assert free.ok
    enc = table.encounter
    assert enc is not None
    kinds = {e.name: e.kind for e in enc.state.effects}
    assert kinds["brûlure"] == "degats_continus"
    assert table.remove_effect(enc.state.effects[-1].id).ok
    wounds = enc.fighter("Grolk").tracks["B"]
    assert table.adjust_points("Grolk", -1).ok
    assert enc.fighter("Grolk").tracks["B"] == wounds - 1
    assert table.undo().ok and enc.fighter("Grolk").tracks["B"] == wounds


# -- what the System declares: the target parameter and the effect kinds -------------------


class _Aimless(ToySystem):
    """The toy system whose actions name no target parameter for the tracker, and
    whose free effects are all of one kind."""

    name: ClassVar[str] = "jouet_sans_cible"
    target_params: ClassVar[tuple[str, ...]] = ()

    def effect_kind(self, per_tick: Mapping[str, int]) -> str:
        return "malediction"


@pytest.fixture
def toys(toy: ToySystem) -> Iterator[None]:
    """The toy system (tests/conftest.py) and a system that declares no target."""
    systems.register(_Aimless())
    try:
        yield
    finally:
        systems.unregister(_Aimless.name)


def test_the_target_parameter_is_the_systems_jouet_atk_1(toys: None) -> None:
    """JOUET-ATK-1: « frapper » takes « cible »; the session fills it from the target
    only because the System says « cible » names one (:attr:`System.target_params`)."""
    for name, param in ((TOY.name, "cible"), (_Aimless.name, None)):
        table = TableSession(name)
        assert table.start(TOY.sample_roster, rng=ScriptedRolls([3, 6, 1])).ok
        actor = table.encounter.current if table.encounter else None
        assert actor == "Brune"  # 6 + 1 against Aldric's 3 + 2 (JOUET-INIT-1)
        assert table.target_param(actor, "frapper") == param
        outcome = table.act(actor, "frapper", target="Grolk", rng=ScriptedRolls([4]))
        if param is None:  # the target chosen is not a parameter the system declared
            assert not outcome.ok and outcome.error is not None
            assert outcome.error.field == "cible"
        else:
            assert outcome.ok, outcome.message
            assert "Brune frappe Grolk" in outcome.result_text


def test_the_effect_kind_is_the_systems(toys: None) -> None:
    """CORE-TIME-2: the kind of a free effect is what its System says
    (:meth:`System.effect_kind`), the engine's rule by default."""
    for name, kind in ((TOY.name, "regeneration"), (_Aimless.name, "malediction")):
        table = TableSession(name)
        assert table.start(TOY.sample_roster, rng=random.Random(1)).ok
        assert table.add_effect("baume", bearer="Brune", per_tick={"PV": 1}).ok
        enc = table.encounter
        assert enc is not None and enc.state.effects[-1].kind == kind


@pytest.mark.parametrize("name", systems.available())
def test_every_systems_target_parameter_is_an_action_parameter(name: str) -> None:
    """Each registered system's target parameters are taken by one of its actions:
    the tracker's target list always fills a parameter the rules know."""
    system = systems.get(name)
    taken = {p for spec in system.catalogue(system.default_rules()).values()
             for p in spec.params}
    assert system.target_params and set(system.target_params) <= taken


def test_an_outcome_is_a_plain_value() -> None:
    refused = Outcome.refused(SaveError("x (CORE-LOG)", field="f", rule="CORE-LOG"))
    assert dataclasses.replace(refused, html="<p>a</p>").result_text == "a"
    assert not refused.ok and refused.message == "X (CORE-LOG)."
