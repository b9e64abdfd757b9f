"""Combatants, the registry and the error type (CORE-ERR)."""

from __future__ import annotations

import pytest

from escarmouche import Combatant, EscarmoucheError, systems
from escarmouche.dice import ScriptedRolls


def test_combatant_is_immutable_and_hashable() -> None:
    c = Combatant("Aldric", "héros", {"CC": 45}, skills={"esquive"}, traits={"nain"})
    assert c.stats["CC"] == 45
    with pytest.raises(AttributeError):
        c.name = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        c.stats["CC"] = 3  # type: ignore[index]
    assert hash(c) == hash(Combatant("Aldric", "héros", {"CC": 45}, {"esquive"}, {"nain"}))
    assert Combatant.from_json(c.to_json()) == c


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"name": "", "side": "a"}, "nom"),
        ({"name": "A", "side": " "}, "camp"),
        ({"name": "A\ud800", "side": "a"}, "nom"),
        ({"name": "A" * 101, "side": "a"}, "nom"),
        ({"name": "A", "side": "a", "skills": None}, "compétences"),
        ({"name": "A", "side": "a", "stats": None}, "caractéristiques"),
        ({"name": "A", "side": "a", "stats": {"PV": 10**50}}, "PV"),
        ({"name": "A", "side": "a", "stats": {"CC": "45"}}, "CC"),
        ({"name": "A", "side": "a", "stats": {"CC": True}}, "CC"),
        ({"name": "A", "side": "a", "traits": {"Nain"}}, "traits"),
        ({"name": "A", "side": "a", "skills": "esquive"}, "compétences"),
    ],
)
def test_combatant_errors_core_err(kwargs: dict[str, object], field: str) -> None:
    """CORE-ERR: a French message naming the field and the value, a ValueError."""
    with pytest.raises(EscarmoucheError) as err:
        Combatant(**kwargs)  # type: ignore[arg-type]
    assert isinstance(err.value, ValueError)
    assert err.value.field == field
    assert err.value.rule == "CORE-ERR"


def test_missing_stat_message() -> None:
    with pytest.raises(EscarmoucheError, match=("Aucune valeur pour «\u00a0HAB\u00a0»\u00a0:"
                                                " cette caractéristique est "
                                                "requise")):
        Combatant("A", "a").stat("HAB")
    assert Combatant("A", "a").stat("init", 0) == 0


def test_registry_lists_the_four_systems() -> None:
    assert systems.NAMES == ("rulebook", "d100", "d12", "d20")
    with pytest.raises(EscarmoucheError) as err:
        systems.get("d6")
    for name in systems.NAMES:
        assert name in str(err.value)


def test_scripted_rolls_core_rng() -> None:
    """CORE-RNG: ScriptedRolls is a stand-in for random.Random."""
    rng = ScriptedRolls([37, 4])
    assert rng.randint(1, 100) == 37
    with pytest.raises(EscarmoucheError, match="hors de 1–3"):
        rng.randint(1, 3)
    assert rng.randint(1, 10) == 4
    with pytest.raises(EscarmoucheError, match="plus aucun"):
        rng.randint(1, 6)


def test_check_roster_core_err() -> None:
    """CORE-ERR: one roster check for the engine and the four systems."""
    from escarmouche.model import check_roster

    a = Combatant("A", "x")
    assert check_roster((a,), rule="X-1") == [a]
    with pytest.raises(EscarmoucheError, match=r"unique \(X-1\)"):
        check_roster([a, Combatant("A", "y")], rule="X-1")
    with pytest.raises(EscarmoucheError, match="Combatant est attendu"):
        check_roster([a, "B"], rule="X-1")
    with pytest.raises(EscarmoucheError, match="liste de Combatant"):
        check_roster(a, rule="X-1")  # type: ignore[arg-type]
    with pytest.raises(EscarmoucheError, match="non vide"):
        check_roster([], rule="X-1", non_empty=True)
