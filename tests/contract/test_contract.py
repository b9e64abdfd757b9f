"""The contract every system passes: the four built-in ones and the toy fifth one.

Same shape (a package of the same files, a generic ``System[Rules]``, hooks whose type
hints resolve), rules that round-trip through JSON, one ``act()`` for all, every action
documented with its rule IDs, atomic refusal (CORE-ERR: neither the state nor the rng
moves), and a fight that saves and reloads exactly (CORE-LOG).
"""

from __future__ import annotations

import dataclasses
import importlib
import random
import re
import typing
from pathlib import Path
from typing import Any

import pytest

from escarmouche import systems
from escarmouche.encounter import Encounter
from escarmouche.errors import ParameterError
from escarmouche.systems.base import System
from tests.helpers import ROOT, RULE_PREFIX, golden_runner
from tests.toy_system import SYSTEM as TOY

SPEC_IDS = frozenset(re.findall(rf"\b{RULE_PREFIX}-[A-Z0-9]+(?:-\d+)?\b",
                                (ROOT / "spec" / "RULES.md").read_text("utf-8")))
TOY_IDS = frozenset(re.findall(r"\bJOUET-[A-Z]+-\d+\b",
                               importlib.import_module("tests.toy_system").__doc__ or ""))
#: the files every system package has, in the same roles (tests/toy_system/__init__.py)
PACKAGE_FILES = ("__init__.py", "rules.py", "initiative.py", "actions.py", "odds.py",
                 "narration.py", "system.py")
NAMES = (*systems.NAMES, TOY.name)


#: the toy system registered for every test here (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("toy")


def system_of(name: str) -> System[Any]:
    return TOY if name == TOY.name else systems.get(name)


def package_dir(name: str) -> Path:
    module = importlib.import_module(type(system_of(name)).__module__)
    return Path(module.__file__ or "").parent


def started(name: str) -> tuple[Encounter, random.Random]:
    """The first golden fight of the system, started with a seeded rng."""
    fight = golden_runner.load(name)["fights"][0]
    enc = golden_runner.build(system_of(name), fight)
    rng = random.Random(12)
    enc.start(rng, **fight.get("start", {}))
    return enc, rng


@pytest.mark.parametrize("name", NAMES)
def test_same_package_shape(name: str) -> None:
    """Every system is a package of the same files; its SYSTEM is found by the registry."""
    folder = package_dir(name)
    missing = [f for f in PACKAGE_FILES if not (folder / f).is_file()]
    assert not missing, f"{name}: missing {missing} in {folder}"
    assert systems.get(name) is system_of(name)
    assert system_of(name).name == name and system_of(name).title


@pytest.mark.parametrize("name", NAMES)
def test_generic_system_and_hook_hints_resolve(name: str) -> None:
    """The hook contract is typed: ``System[Rules]``, and no hint needs an import cycle."""
    cls = type(system_of(name))
    bases = [typing.get_origin(b) for b in getattr(cls, "__orig_bases__", ())]
    assert System in bases or any(issubclass(b, System) for b in cls.__mro__[1:]), name
    for hook in ("start", "turn_order", "act", "actions", "check_legal", "auto_action"):
        typing.get_type_hints(getattr(cls, hook))
    assert cls.act is System.act, f"{name} overrides act(): dispatch through resolvers"


@pytest.mark.parametrize("name", NAMES)
def test_rules_round_trip_json(name: str) -> None:
    """CORE-LOG: the options serialise and come back equal."""
    sys_ = system_of(name)
    rules = sys_.default_rules()
    assert dataclasses.is_dataclass(rules)
    assert sys_.rules_from_json(sys_.rules_to_json(rules)) == rules
    with pytest.raises(ParameterError, match="option inconnue"):
        sys_.rules_from_json({"pas_une_option": 1})


@pytest.mark.parametrize("name", NAMES)
def test_every_action_is_documented(name: str) -> None:
    """Every action says what it does, in French, and cites rule IDs that exist."""
    sys_ = system_of(name)
    known = TOY_IDS if name == TOY.name else SPEC_IDS
    catalogue = sys_.catalogue(sys_.default_rules())
    assert catalogue, f"{name}: no action"
    for action_id, spec in catalogue.items():
        assert spec.id == action_id and re.fullmatch(r"[a-z][a-z0-9_]*", action_id)
        assert spec.label and spec.doc.endswith("."), f"{name}.{action_id}: no doc"
        assert spec.rules and set(spec.rules) <= known, f"{name}.{action_id}: {spec.rules}"
        assert set(spec.required) <= set(spec.params)
        for param in spec.params:
            assert re.fullmatch(r"[a-z][a-z0-9_]*", param), f"{name}.{action_id}.{param}"
        assert spec.resolver_key in sys_.resolvers, f"{name}.{action_id}: no resolver"
    assert "attaquer" in catalogue or name == TOY.name, f"{name}: the attack is « attaquer »"


@pytest.mark.parametrize("name", NAMES)
def test_refusals_are_atomic_core_err(name: str) -> None:
    """CORE-ERR: an unknown action, an unknown parameter or a missing one is refused with
    a ParameterError; nothing changes, not even the rng."""
    enc, rng = started(name)
    actor = enc.current
    assert actor is not None
    spec = next(iter(enc.actions(actor)), None) or next(
        iter(system_of(name).catalogue(enc.rules).values()))
    before, state = enc.to_json(), rng.getstate()
    attempts: list[tuple[str, dict[str, Any]]] = [
        ("voler_dans_les_airs", {}),
        (spec.id, {"parametre_inconnu": 1}),
    ]
    if spec.required:
        attempts.append((spec.id, {}))
    for action, params in attempts:
        with pytest.raises(ParameterError):
            enc.act(actor, action, rng, **params)
        assert enc.to_json() == before and rng.getstate() == state, (action, params)


@pytest.mark.parametrize("name", NAMES)
def test_fight_saves_and_resumes_identically_core_log(name: str) -> None:
    """CORE-LOG: a fight saved mid-way reloads exactly and plays on to the same log."""
    enc, rng = started(name)
    enc.end_activation(rng)
    saved = enc.to_json()
    again = Encounter.from_json(saved)
    assert again.to_json() == saved
    seed = random.Random(5)
    other = random.Random(5)
    enc.run(seed, max_turns=4)
    again.run(other, max_turns=4)
    assert again.to_json() == enc.to_json()
    assert enc.finished


@pytest.mark.parametrize("name", NAMES)
def test_bad_action_parameter_type_is_a_parameter_error(name: str) -> None:
    """The same bad value gets the same error class in every system."""
    enc, rng = started(name)
    actor = enc.current
    assert actor is not None
    before = enc.to_json()
    attack = "attaquer" if name != TOY.name else "frapper"
    with pytest.raises(ParameterError, match=r"(?i)cible"):
        enc.act(actor, attack, rng, cible="Personne-de-ce-nom")
    with pytest.raises(ParameterError, match=r"(?i)cible"):
        enc.act(actor, attack, rng, cible=["une", "liste"])
    assert enc.to_json() == before


#: the engine's own numbered rules (RULES.md, CORE-TURN-, CORE-END-, CORE-TIME-): what a
#: system cites for the turn loop, the end of the fight and effect timing where its own
#: text has no rule
ENGINE_IDS = frozenset(i for i in SPEC_IDS if re.fullmatch(r"CORE-[A-Z]+-\d+", i))


@pytest.mark.parametrize("name", NAMES)
def test_engine_events_cite_the_systems_rules_or_the_engines(name: str) -> None:
    """The turn loop, effect ticks and the end of the fight cite the system's own rule
    where its text has one, the engine's (CORE-TURN-1, CORE-TIME-1..3, CORE-END-1)
    otherwise: only the Rulebook cites RB- rules."""
    sys_ = system_of(name)
    cited = {*sys_.turn_rules, *sys_.end_rules,
             *(rule for rules in sys_.tick_rules.values() for rule in rules)}
    known = (TOY_IDS | ENGINE_IDS) if name == TOY.name else SPEC_IDS
    assert cited and cited <= known, sorted(cited - known)
    assert ENGINE_IDS <= SPEC_IDS
    if name != "rulebook":
        assert not [r for r in cited if r.startswith("RB-")], sorted(cited)
        golden = " ".join(line for fight in golden_runner.load(name)["fights"]
                          for line in fight["expect"].get("log", fight["expect"].get(
                              "lines", [])))
        assert not re.findall(r"\bRB-[A-Z0-9]+-\d+", golden)


def test_the_rulebook_cites_its_own_turn_timing_and_end_rules() -> None:
    """RB-TURN-1, RB-TIME-1..3 and RB-END-1 are the Rulebook's wording of CORE-TURN-1,
    CORE-TIME-1..3 and CORE-END-1; it has no rule for the end of an activation."""
    from escarmouche.model import Timing

    rb = systems.get("rulebook")
    assert rb.turn_rules == ("RB-TURN-1",) and rb.end_rules == ("RB-END-1",)
    assert dict(rb.tick_rules) == {
        Timing.TURN_START: ("RB-TIME-1",), Timing.ACTIVATION_START: ("RB-TIME-2",),
        Timing.ACTIVATION_END: ("CORE-TIME-2",), Timing.TURN_END: ("RB-TIME-3",)}
    assert System.turn_rules == ("CORE-TURN-1",) and System.end_rules == ("CORE-END-1",)


def test_every_spec_rule_is_named_by_a_test() -> None:
    """Every rule ID of spec/RULES.md is named by at least one test (its name, docstring
    or assertions), outside the snapshot list of tests/faces/book/test_coverage.py."""
    spec = (ROOT / "spec" / "RULES.md").read_text("utf-8")
    ids = re.findall(rf"^- ({RULE_PREFIX}-[A-Z0-9]+(?:-\d+)?)\b", spec, flags=re.M)
    assert len(ids) == len(set(ids)) and len(ENGINE_IDS) == 5 and set(ids) >= ENGINE_IDS
    tests = "\n".join(p.read_text("utf-8") for p in sorted((ROOT / "tests").rglob("*.py"))
                      if p != ROOT / "tests" / "faces" / "book" / "test_coverage.py")
    named = set(re.findall(rf"\b{RULE_PREFIX}-[A-Z0-9]+(?:-\d+)?\b", tests))
    missing = [rid for rid in ids if rid not in named]
    assert not missing, "règles qu’aucun test ne nomme : " + ", ".join(missing)
