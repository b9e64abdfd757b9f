"""Shared fixtures of the System « Rulebook » tests (RULES.md RB-*): a fighter, the
initiative order as names, the events of one kind, the example party and a started fight.

A plain module imported by ``tests/rules/rulebook/`` (not a conftest).
"""

from __future__ import annotations

import collections
from collections.abc import Iterable, Sequence
from typing import Any

from escarmouche import Combatant
from escarmouche.dice import ScriptedRolls
from escarmouche.encounter import Encounter
from escarmouche.model import Event
from escarmouche.systems import rulebook as rb


def fighter(
    name: str,
    side: str,
    hab: int,
    *,
    dis: int = 50,
    pmr: int = 50,
    pv: int = 10,
    esprit: int = 10,
    traits: Iterable[str] = (),
    **extra: int,
) -> Combatant:
    stats = {"HAB": hab, "DIS": dis, "PMR": pmr, "PV": pv, "Esprit": esprit, **extra}
    return Combatant(name, side, stats, traits=frozenset(traits))


def names(init: rb.Initiative) -> list[str]:
    return list(init.order)


def events(enc: Encounter, kind: str) -> list[Event]:
    return [e for e in enc.log if e.kind == kind]


def party(**traits: set[str]) -> list[Combatant]:
    """Aldric (HAB 60), Brune (50), Grolk (40), Vif (55); with start rolls 30 each the
    margins are 30, 20, 10, 25: order Aldric, Vif, Brune, Grolk. Each declares a 1d6
    hit for automated play (the simulation variant, not in the text)."""
    t = {k: frozenset(v) for k, v in traits.items()}
    return [
        fighter("Aldric", "héros", 60, pmr=70, traits=t.get("Aldric", ()), variante_degats=6),
        fighter("Brune", "héros", 50, traits=t.get("Brune", ()), variante_degats=6),
        fighter("Grolk", "monstres", 40, dis=40, traits=t.get("Grolk", ()), variante_degats=6),
        fighter("Vif", "monstres", 55, dis=60, traits=t.get("Vif", ()), variante_degats=6),
    ]


def begin(roster: list[Combatant] | None = None, rolls: Sequence[int] = (30, 30, 30, 30),
          **kwargs: Any) -> Encounter:
    enc = Encounter("rulebook", roster or party(), **kwargs)
    enc.start(ScriptedRolls(rolls))
    return enc


def end(enc: Encounter, n: int = 1, rng: ScriptedRolls | None = None) -> None:
    """End ``n`` activations (with ``rng`` for the rolls they need)."""
    for _ in range(n):
        enc.end_activation(rng)


def activations(enc: Encounter) -> dict[int, list[str]]:
    """Who was activated in each turn, in order, read from the log."""
    out: dict[int, list[str]] = collections.defaultdict(list)
    for e in enc.log:
        if e.kind == "activation":
            out[e.turn].append(e.actor or "")
    return dict(out)
