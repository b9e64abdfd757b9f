"""Shared fixtures of the System d100 tests (RULES.md D100-*): a fighter, the three
example fighters (Aldric, Grolk, Brune), the events of one kind, a started fight and
Grolk's two weapons.

A plain module imported by ``tests/rules/d100/`` (not a conftest).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from escarmouche import Combatant
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter

# -- fixtures -------------------------------------------------------------------------------

BASE = {"CC": 50, "CT": 40, "F": 40, "E": 30, "Ag": 40, "M": 4, "B": 10}


def fighter(name: str, side: str, skills: Sequence[str] = (), **stats: int) -> Combatant:
    return Combatant(name, side, {**BASE, **stats}, skills=frozenset(skills))


# Aldric: CC 65, E 40 (BE 4), armour 1 everywhere, the skill « esquive »
ALDRIC = fighter("Aldric", "héros", ["esquive"], CC=65, E=40, Ag=40, B=12, PA=1)
# Grolk: CC 45, E 35 (BE 3), Ag 30, armour 1 on the left arm only, 11 wounds
GROLK = fighter("Grolk", "monstres", CC=45, E=35, Ag=30, F=45, B=11, PA_bras_gauche=1)
# Brune: CT 50, Ag 35
BRUNE = fighter("Brune", "héros", CT=50, Ag=35)


def events(enc: Encounter, kind: str) -> list[Any]:
    return [e for e in enc.log if e.kind == kind]


def started(roster: Sequence[Combatant], dice: Sequence[int], *, rules: Any = None,
            **options: Any) -> Encounter:
    """A d100 fight started on scripted dice, under ``rules`` (default: the engine's)."""
    enc = Encounter("d100", roster, rules=rules)
    enc.start(ScriptedRolls(dice), **options)
    return enc


def readme_duel() -> Encounter:
    """The README's d100 duel (Aldric against Grolk), unstarted: the kernel's tests and
    ``bench/bench_simulation.py`` (its floor) play it."""
    return Encounter("d100", [
        Combatant("Aldric", "héros", {"CC": 45, "CT": 30, "F": 35, "E": 30, "Ag": 40,
                                       "M": 4, "B": 12}),
        Combatant("Grolk", "orques", {"CC": 40, "CT": 20, "F": 40, "E": 40, "Ag": 25,
                                      "M": 4, "B": 11}),
    ])


def two_weapon_grolk() -> dict[str, Any]:
    return {"Grolk": {"directrice": "arme_a_une_main", "non_directrice": "dague"}}
