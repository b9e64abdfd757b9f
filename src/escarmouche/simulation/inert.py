"""Which options change nothing in a simulated fight: measured, not asserted.

A simulation page offers every simple option of its system (the balance demo's
controls), while its duel may never meet the rule an option governs (no surprise, no
hyperactive fighter, nobody who parries). :func:`option_effects` plays the same fights,
on the same dice, under each other value of each option, and sorts the options into
those that changed no fight and those that changed at least one; :func:`inert_sentence`
says it in French, each option by its label and its French key (what a roster file's
``[options]`` and ``--option`` take).

>>> from escarmouche.roster import example_rosters, load_roster
>>> effects = option_effects(load_roster(example_rosters()["d20-duel"]), 20, seed=1)
>>> [o.key for o in effects.inert][:2]
['seuil_sauvegarde', 'retour_action_immediate']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

from escarmouche.options import Option
from escarmouche.text.fmt import join, plural
from escarmouche.text.typo import typographie

__all__ = ["OptionEffects", "alternatives", "inert_sentence", "option_effects"]


def alternatives(option: Option, value: Any) -> Iterator[Any]:
    """The other values of ``option`` a probe plays: the other boolean; every other
    declared choice; for a whole number, the next and previous values and both bounds
    (an option that acts only far from its default shows there); nothing for a set,
    a list or a text without choices."""
    kind = option.kind
    if kind == "bool":
        yield not value
    elif kind == "choice" and option.choices is not None:
        yield from (c for c in option.choices if c != value)
    elif kind == "int":
        seen: set[Any] = {value}
        start = 3 if value is None else value
        for v in (start + 1, start - 1, option.lo, option.hi, start):
            if v is None or v in seen:
                continue
            try:
                option.check_value(v)
            except ValueError:
                continue
            seen.add(v)
            yield v


@dataclasses.dataclass(frozen=True)
class OptionEffects:
    """The options of a roster's system sorted by what they did to ``n`` fights played
    on the same dice (seed ``seed``): ``inert`` changed none under any probed value,
    ``active`` changed at least one; ``probed`` counts the options tried."""

    n: int
    seed: int
    inert: tuple[Option, ...]
    active: tuple[Option, ...]

    @property
    def probed(self) -> int:
        return len(self.inert) + len(self.active)


def _fingerprint(balance: Any) -> tuple[Any, ...]:
    return (dict(balance.wins), balance.draws, balance.timeouts, dict(balance.rounds),
            {s: dict(v) for s, v in balance.health.items()},
            {s: dict(v) for s, v in balance.survivors.items()},
            dict(balance.damage_taken))


def option_effects(roster: Any, n: int = 200, *, seed: int = 1,
                   policy: Any = None) -> OptionEffects:
    """Play ``n`` fights of ``roster`` (:func:`~escarmouche.simulation.simulate`) under
    its own options, then under each other value of each option (:func:`alternatives`),
    every run on the same dice: an option is inert when no value changed any count of
    the balance (wins, draws, durations, health, survivors, damage)."""
    from escarmouche.simulation.runner import simulate
    from escarmouche.systems import get

    system = get(roster.system)
    base = _fingerprint(simulate(roster, n, seed=seed, policy=policy))
    inert: list[Option] = []
    active: list[Option] = []
    for option in system.options():
        values = list(alternatives(option, getattr(roster.rules, option.name)))
        if not values:
            continue
        changed = any(
            _fingerprint(simulate(roster.with_options(**{option.key: option.to_json(v)}),
                                  n, seed=seed, policy=policy)) != base
            for v in values)
        (active if changed else inert).append(option)
    return OptionEffects(n, seed, tuple(inert), tuple(active))


def _named(option: Option) -> str:
    return f"« {option.label} » ({option.key})"


def inert_sentence(effects: OptionEffects) -> str:
    """The French sentence a simulation page prints under its duel: which options
    changed none of the fights, which changed some.

    >>> from escarmouche.systems import d100
    >>> a, b = (d100.SYSTEM.option(k) for k in ("surprised_can_defend", "parries_per_round"))
    >>> print(inert_sentence(OptionEffects(200, 1, (a,), (b,))).replace("\u00a0", " "))
    ... # doctest: +NORMALIZE_WHITESPACE
    Sur ce duel, 1 des 2 options proposées ne change aucun des 200 combats joués avec
    les mêmes dés, quelle que soit sa valeur : « un surpris peut parer ou esquiver »
    (surpris_peut_se_defendre). Seule « parades par round » (parades_par_round) en
    change.
    """
    total = effects.probed
    fights = plural(effects.n, "combat")
    if not effects.inert:
        return typographie(f"Sur ce duel, chacune des {total} options proposées change au "
                           f"moins un des {fights} joués avec les mêmes dés.")
    many = len(effects.inert) > 1
    head = (f"Sur ce duel, {len(effects.inert)} des {total} options proposées "
            f"{'ne changent' if many else 'ne change'} aucun des {fights} joués avec les "
            f"mêmes dés, quelle que soit {'leur' if many else 'sa'} valeur : "
            + join([_named(o) for o in effects.inert]) + ".")
    if not effects.active:
        tail = ""
    elif len(effects.active) == 1:
        tail = f" Seule {_named(effects.active[0])} en change."
    else:
        tail = f" Seules {join([_named(o) for o in effects.active])} en changent."
    return typographie(head + tail)
