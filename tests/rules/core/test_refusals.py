"""The refusals every system writes (CORE-ERR), read as a French rules editor would
(spec/RELECTURE.md, R2 and R4): one sentence, one colon per clause, the field by its French
label, no Python. Each test names the entry of ``spec/relecture-journal.md`` it holds
(« B88: … »).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from escarmouche import Combatant, EscarmoucheError, systems
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter
from escarmouche.errors import FIELD_LABELS, FIELD_NOUNS, field_label, invalid
from tests.helpers.proofreading import (
    assert_refusal_shape,
    clauses,
    d20_trio,
    refused,
    sentences,
    top_level_colons,
    unbreak,
    unquoted,
)
from tests.helpers.typography import problems

# -- the simulation pages (`d100/simulation`, `d12/simulation`, `d20/simulation`) ---------


def test_b126_an_unknown_parameter_is_refused_with_the_names_it_takes_quoted() -> None:
    """B126: « l’action « Parler » ne prend pas ce paramètre ; elle prend description »:
    the names a reader may type, run into the sentence unquoted."""
    from escarmouche.dice import ScriptedRolls

    enc = Encounter("d100", [Combatant(n, s, {"CC": 40, "CT": 40, "F": 40, "E": 40,
                                              "Ag": 40, "M": 4, "B": 10})
                             for n, s in (("Aldric", "PJ"), ("Grolk", "Orques"))])
    enc.start(ScriptedRolls([9, 1]))
    with pytest.raises(EscarmoucheError) as caught:
        enc.act("Aldric", "parler", vitesse=3)
    text = assert_refusal_shape(caught.value)
    assert text.endswith("elle prend «\u00a0details\u00a0» (D100-ACT-3)."), text


def test_b127_an_unknown_action_is_refused_with_a_quoted_choice_core_err() -> None:
    """B127: « action inconnue du système d20, à choisir parmi attaquer, deplacement, …
    et regeneration »: engine ids unquoted, a choice listed with « et »."""
    text = refused(d20_trio(), "Orque", "charge")
    assert "à choisir parmi «\u00a0attaquer\u00a0», «\u00a0deplacement\u00a0»" in text, text
    assert "\u00a0» ou «\u00a0" in text, text


def test_b131_a_missing_parameter_is_said_missing_not_refused() -> None:
    """B131: « Paramètre « arme » refusé : l’action « Dégainer » a besoin de ce
    paramètre »: a parameter nobody gave was said refused."""
    from escarmouche.dice import ScriptedRolls

    enc = Encounter("d100", [Combatant(n, s, {"CC": 40, "CT": 40, "F": 40, "E": 40,
                                              "Ag": 40, "M": 4, "B": 10})
                             for n, s in (("Aldric", "PJ"), ("Grolk", "Orques"))])
    enc.start(ScriptedRolls([9, 1]))
    with pytest.raises(EscarmoucheError) as caught:
        enc.act("Aldric", "degainer")
    text = assert_refusal_shape(caught.value)
    assert text == ("Aucune valeur pour «\u00a0arme\u00a0»\u00a0: l’action «\u00a0Dégainer\u00a0» "
                    "a besoin de ce paramètre (D100-ACT-3)."), text


# -- seventh pass (spec/relecture-journal.md): the refusals a GM meets in the tracker --------------


@pytest.mark.parametrize("name", systems.NAMES)
def test_every_system_refuses_a_self_attack_in_one_sentence_rb_act_1(name: str) -> None:
    """RB-ACT-1 (and D100-ATK-1, D12-CRIT-1, CORE-ERR in d20): a fighter who attacks
    himself is refused by every system with one sentence (``errors.self_attack``),
    naming the field « cible », the value and the rule; the Rulebook accepted it
    (spec/relecture-journal.md). The fight and the dice are left as they were."""
    from escarmouche.dice import ScriptedRolls
    from tests.helpers import golden_runner

    fight = golden_runner.load(name)["fights"][0]
    enc = Encounter(name, [Combatant.from_json(c) for c in fight["roster"]])
    enc.start(random.Random(1))
    actor = enc.current
    assert actor is not None
    before = enc.to_json()
    rng = ScriptedRolls([3, 3, 3])
    extra = {"des": "1d6"} if name == "rulebook" else {}
    rule = {"rulebook": "RB-ACT-1", "d100": "D100-ATK-1", "d12": "D12-CRIT-1",
            "d20": "CORE-ERR"}[name]
    with pytest.raises(EscarmoucheError) as refusal:
        enc.act(actor, "attaquer", rng, cible=actor, **extra)
    assert str(refusal.value) == (f"Cible «\u00a0{actor}\u00a0» refusée\u00a0: un combattant "
                                  f"ne s’attaque pas lui-même ({rule}).")
    assert (refusal.value.field, refusal.value.value) == ("cible", actor)
    assert enc.to_json() == before and rng.remaining == 3


# -- the tracker, the comparison, the Atelier -------------------------------------------------


def test_b88_missing_values_are_refused_in_one_clause() -> None:
    """B88: « Aucune valeur pour « dégâts » : degats manquant : donnez … (des="1d6") »,
    « cible manquante : … », « duree sans vitesse : … », « eclat manquant pour Z : … »,
    « (non_avertis=True ou False) »: a second colon, engine words without their accents,
    Python's booleans; the d100 « manquant : » refusals of missing dice likewise."""
    from escarmouche.systems.d100.attack import Guard, attack_setup, resolve_attack
    from escarmouche.systems.d100.initiative import resolve_initiative

    base = {"HAB": 50, "DIS": 40, "PMR": 40, "PV": 10, "Esprit": 5}
    messages = []

    def refused(call: Callable[[], object]) -> None:
        with pytest.raises(EscarmoucheError) as err:
            call()
        messages.append(unbreak(str(err.value)))

    def begun() -> Encounter:
        enc = Encounter("rulebook", [Combatant("A", "x", base), Combatant("B", "y", base)])
        enc.start(ScriptedRolls([10, 60]))
        return enc

    def act(action: str, **params: object) -> Callable[[], object]:
        enc = begun()
        return lambda: enc.act(str(enc.current), action, ScriptedRolls([3]), **params)

    refused(act("attaquer", cible="B"))
    refused(act("attaquer", cible="B", degats=1, duree=2))
    refused(act("sort", degats=2))
    refused(lambda: Encounter("rulebook", [Combatant("Z", "x", {**base, "eclat_max": 1})]))
    fresh = Encounter("rulebook", [Combatant("A", "x", base), Combatant("B", "y", base)])
    refused(lambda: fresh.start(ScriptedRolls([1]), surprise_par="y"))
    duel = [Combatant("A", "x", {"Ag": 30}), Combatant("C", "y", {"Ag": 30})]
    refused(lambda: resolve_initiative(duel, [5, 5, 7]))
    attacker = Combatant("A", "x", {"CC": 45, "CT": 30})
    defender = Combatant("D", "y", {"CC": 40, "Ag": 30, "E": 30, "B": 10})
    parried = attack_setup(attacker, defender, defence="parade",
                           guard=Guard(parry_prepared=True))
    refused(lambda: resolve_attack(parried, 30))
    refused(lambda: resolve_attack(attack_setup(attacker, defender), 30))
    assert len(messages) == 8
    for text in messages:
        _, _, why = text.partition(" : ")
        assert why and top_level_colons(why) == 0, text
        assert not re.search(r"manquant|True|False|\"", text), text
    assert "« degats=4 »" in messages[0] and "« des=1d6 »" in messages[0]


def _refusals() -> list[EscarmoucheError]:
    errors: list[EscarmoucheError] = []
    cases: list[Callable[[], Any]] = [
        lambda: invalid("ligne_de_vue", False, "D100-RANGED-3", "il faut voir sa cible"),
        lambda: invalid("elan", 3, "D100-JUMP-2", "il faut 4 m d’élan"),
        lambda: invalid("cible_engagee", True, "D100-RANGED-4", "exemple"),
    ]
    for make in cases:
        errors.append(make())
    enc = Encounter("d20", [Combatant("A", "x", {"PV": 5}), Combatant("B", "y", {"PV": 5})])
    enc.start(random.Random(1), positions={"A": [0, 0], "B": [3, 0]})
    for action, params in (("attaquer", {"cible": "B"}), ("voler", {}),
                           ("attaquer", {"cible": "Personne"})):
        try:
            enc.act(str(enc.current), action, random.Random(2), **params)
        except EscarmoucheError as err:
            errors.append(err)
    return errors


def _fuzzed_refusals() -> list[EscarmoucheError]:
    """The refusals of a broad, fixed sample: every fuzz target (dice, saves, rosters,
    edition files, widget boxes, actions, start options, rules) on 25 generated inputs
    (``tests.helpers.fuzz_targets.sampled_refusals``, shared with the typography test), and the
    widgets' number boxes on what a reader types."""
    from escarmouche_widgets._parse import NumberField, parse_number

    from tests.helpers.fuzz_targets import sampled_refusals

    errors = list(sampled_refusals())
    field = NumberField("blessures (B)", 0, 1000, "D100-ATK-3")
    for typed in ("12,5", "12.5", "-3", "99999999999", "abc", "", "1e3"):
        try:
            parse_number(typed, field)
        except EscarmoucheError as err:
            errors.append(err)
    return errors


# -- R2: refusals read as sentences ----------------------------------------------------------


def test_r2_refusals_read_as_sentences_with_french_labels() -> None:
    """R2: a refusal shown to a reader names the field by its French label, in one
    sentence with one colon, never « champ = valeur : »."""
    errors = _refusals()
    assert len(errors) >= 5
    for err in errors:
        text = err.refusal()
        assert text[:1].isupper() and text.endswith("."), text
        assert " = " not in text, text
        assert top_level_colons(next(clauses(text))) == 1, text
        assert all(top_level_colons(c) <= 1 for c in clauses(text)), text
        if err.field:
            assert "_" not in field_label(err.field), err.field
            noun = FIELD_NOUNS.get(err.field, ("",))[0]
            assert f"«\u00a0{field_label(err.field)}\u00a0»" in text or (
                noun and text.lower().startswith(noun)), text
        assert str(err) == text  # the message is the sentence itself (spec/RELECTURE.md)
        assert not problems(text), (text, problems(text))


def test_r2_no_refusal_keeps_the_debugging_shape() -> None:
    """R2 over a broad sample (the fuzz targets' refusals): no « champ = valeur : », and
    no sentence with two colons (« Refusé : combat = terminé (victoire : …) : … »), in
    the message or in the refusal a widget shows; each names its rule."""
    errors = _fuzzed_refusals()
    assert len(errors) > 300
    kinds = {type(err).__name__ for err in errors}
    assert {"ParameterError", "DiceError", "SaveError", "RosterError"} <= kinds, kinds
    bad: list[str] = []
    for err in errors:
        for text in {str(err), err.refusal()}:
            plain = unquoted(text)
            if " = " in plain or any(top_level_colons(s) > 1 for s in sentences(plain)):
                bad.append(text)
            elif err.rule and err.rule not in text:
                bad.append(f"{text} [no {err.rule}]")
        if not err.refusal().endswith((".", "?", "!")):
            bad.append(err.refusal())
    assert not bad, "\n".join(sorted(set(bad))[:30])


# -- R7: figures that the engine can check ---------------------------------------------------


def test_r2_weapon_refusals_say_the_expression_once() -> None:
    """R2 (B21): a malformed weapon is named once, with one colon per clause."""
    from escarmouche.systems.d12.rules import check_weapon

    with pytest.raises(EscarmoucheError) as err:
        check_weapon("1d8+", "Grolk")
    text = err.value.refusal()
    assert text.count("1d8+") == 1, text
    assert all(top_level_colons(c) <= 1 for c in clauses(text)), text


def test_r4_refusals_name_engine_fields_by_a_french_label() -> None:
    """R4 in the refusals (B31): a field whose engine name is an identifier with an
    underscore (« action_points », « surprise_by ») is named by a French label — its
    option's declared label, an explicit one, or ``errors.FIELD_LABELS`` — never by the
    engine name with spaces (« action points »), nor by an English word."""
    english = re.compile(r"\b(unaware|environment|stat|slot|weapon|default|by|max|min)\b")
    bad: set[str] = set()
    for err in _fuzzed_refusals():
        field, label = err.field, err.label
        if not isinstance(field, str) or not label:
            continue
        if re.fullmatch(r"[a-z][a-z0-9_]*_[a-z0-9_]*", field) and label == field.replace(
                "_", " ") and field not in FIELD_LABELS:
            bad.add(f"{field} → {label}")
        if re.fullmatch(r"[a-z][a-z0-9_ ]*", label) and english.search(label):
            bad.add(f"{field} → {label}")
    assert not bad, sorted(bad)


def test_r2_option_kind_and_speed_effect_refusals_read_right() -> None:
    """R2 (B29, B32): a list option given a number says « une liste est attendue »
    (agreement), and a speed effect ending before it starts names no engine field
    (« avant first_turn = 3 » before)."""
    from escarmouche.systems import rulebook as rb

    with pytest.raises(EscarmoucheError) as err:
        rb.SYSTEM.rules_from_json({"extra_traits": 3})
    assert "une liste est attendue" in str(err.value), str(err.value)
    with pytest.raises(EscarmoucheError) as err:
        rb.speed_effect("Grolk", "depasse", first_turn=3, last_turn=2)
    text = str(err.value)
    assert "first_turn" not in text.replace("(last_turn)", "") and " = " not in text, text
    assert "le dernier tour ne peut précéder le premier" in text
