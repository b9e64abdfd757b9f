"""Duel outcomes under a rule set, simulated: the win probability of a veteran against a
recruit and the expected number of rounds, each with a 95 % interval.

A whole fight has no exact law in the engine, so :func:`duel_outcomes` plays ``n`` duels
with :func:`escarmouche.simulation.simulate`, fight ``i`` on the dice stream (``seed``,
``i``) (common random numbers: two rule sets compared with the same seed see the same
dice streams). The win probability has a Wilson score interval, the
mean rounds a normal interval (1,96 standard errors). The same seed gives the same
result.

>>> from escarmouche.systems import d20
>>> d = duel_outcomes(d20.SYSTEM, d20.Rules(), 20, seed=1)
>>> d == duel_outcomes(d20.SYSTEM, d20.Rules(), 20, seed=1), 0 <= d.win_low <= d.win <= d.win_high
(True, True)
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from escarmouche import checks
from escarmouche.model import Combatant, Json
from escarmouche.simulation.precision import difference_sentence
from escarmouche.systems.base import SituationDuel, System
from escarmouche.text.fmt import fixed, number, percent

__all__ = ["MAX_DUELS", "Duels", "Paired", "duel_note", "duel_outcomes", "duel_roster",
           "paired_duels", "situation_duels", "situation_paired", "situation_roster",
           "wilson"]

#: the most duels one call plays (bounded work)
MAX_DUELS = 5000
#: the turn limit of one duel; a duel still running then counts as not won
MAX_TURNS = 50
_Z = 1.959963984540054

#: ``variante_degats``: the Rulebook's declared damage die, 1d6 for both (the simulation
#: variant, not in the text, RB-END-2; :func:`duel_note` names it wherever duels show)
_BASE = {"HAB": 50, "DIS": 40, "PMR": 40, "PV": 10, "Esprit": 10, "CC": 40, "CT": 40,
         "F": 30, "E": 30, "Ag": 30, "M": 4, "B": 10, "defense": 12, "variante_degats": 6}
_VETERAN = {**_BASE, "HAB": 60, "CC": 50, "F": 35, "Ag": 40, "init": 1, "attaque": 1}


def duel_roster() -> list[Combatant]:
    """The standard duel: « Vétérane » (side « vétérans ») against « Recrue »."""
    return [Combatant("Vétérane", "vétérans", _VETERAN), Combatant("Recrue", "recrues", _BASE)]


def duel_note(system: str | System[Any], rules: Any) -> str:
    """What automated play adds to ``system``'s text in the standard duel (a variant,
    ``System.automation_note``), or ``""``.

    >>> from escarmouche.systems import rulebook
    >>> "RB-END-2" in duel_note(rulebook.SYSTEM, rulebook.Rules())
    True
    """
    from escarmouche.systems import get

    return get(system).automation_note(duel_roster(), rules)


def wilson(successes: int, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion.

    >>> [round(x, 3) for x in wilson(50, 100)]
    [0.404, 0.596]
    """
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = _Z * _Z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = _Z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # the interval always holds the estimate (rounding at p = 0 or 1 could leave it out)
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


@dataclasses.dataclass(frozen=True, slots=True)
class Duels:
    """``n`` simulated duels: ``win`` (the veteran wins) and its Wilson interval, the
    mean ``rounds`` and its normal interval, counted in the system's ``turn_word``
    (« tour », « round »)."""

    n: int
    seed: int
    win: float
    win_low: float
    win_high: float
    rounds: float
    rounds_low: float
    rounds_high: float
    turn_word: str = "tour"

    def summary(self) -> str:
        """One colon per clause; an interval's bounds with the decimals of its
        estimate (« entre 2,8 et 3,0 », spec/RELECTURE.md).

        >>> text = Duels(200, 0, 0.54, 0.471, 0.608, 2.9, 2.8, 3.0, "round").summary()
        >>> text.split("\u202f; ")[1]
        'durée moyenne\xa0: 2,9 rounds (IC 95\u202f% entre 2,8 et 3,0)'
        """
        return (f"victoire de la vétérane : {percent(self.win)} (IC 95\u202f% entre "
                f"{percent(self.win_low)} et {percent(self.win_high)}) ; durée moyenne : "
                f"{fixed(self.rounds, 1)} {plural_word(self.rounds, self.turn_word)} "
                f"(IC 95\u202f% entre {fixed(self.rounds_low, 1)} et "
                f"{fixed(self.rounds_high, 1)}) ; {number(self.n)} duels simulés")

    def to_json(self) -> dict[str, Json]:
        return dataclasses.asdict(self)


def duel_outcomes(system: str | System[Any], rules: Any, n: int, seed: int = 0) -> Duels:
    """Play ``n`` standard duels (:func:`duel_roster`) under ``rules`` with
    :func:`escarmouche.simulation.simulate` (the simulation mode, held to the full
    engine; fight ``i`` draws its dice from the stream (``seed``, ``i``), so two rule
    sets compared with the same seed see the same dice: common random numbers); at most
    :data:`MAX_DUELS`."""
    from escarmouche.encounter import Encounter
    from escarmouche.simulation import simulate

    n = checks.integer("duels", n, lo=1, hi=MAX_DUELS, rule="CORE-RNG")
    seed = checks.integer("graine", seed, lo=0, hi=2**62, rule="CORE-RNG")
    balance = simulate(Encounter(system, duel_roster(), rules=rules), n, seed=seed,
                       max_turns=MAX_TURNS)
    wins = balance.wins.get("vétérans", 0)
    mean = sum(k * v for k, v in balance.rounds.items()) / n
    var = (sum(v * (k - mean) ** 2 for k, v in balance.rounds.items()) / (n - 1)
           if n > 1 else 0.0)
    half = _Z * math.sqrt(var / n)
    low, high = wilson(wins, n)
    from escarmouche.systems import get

    return Duels(n, seed, wins / n, low, high, mean, max(0.0, mean - half), mean + half,
                 get(system).turn_word)


@dataclasses.dataclass(frozen=True, slots=True)
class Paired:
    """The same ``n`` standard duels played under two rule sets on the same dice: in how
    many the change ``acted`` (the fight went otherwise: its winner, length or wounds),
    the paired difference of the veteran's win rate (after − before) with its 95 %
    half-width, and, when that interval holds 0 while the change acted, about how many
    duels would tell the difference apart (``needed``, ``None`` when the observed
    difference is 0)."""

    n: int
    acted: int
    diff: float
    half: float
    needed: int | None
    #: the side whose wins are counted (named in the headline sentence)
    side: str = "vétérans"

    @property
    def established(self) -> bool:
        """Whether the paired interval of the difference leaves 0 out."""
        return self.acted > 0 and abs(self.diff) > self.half

    def verdict(self, who: str = "de la vétérane") -> str:
        """The French sentence of an edition page (``who``: whose wins are counted)."""
        duels = "duel" if self.n < 2 else "duels"
        if self.acted == 0:
            return (f"Le changement n’a joué dans aucun des {number(self.n)} {duels} : "
                    "sur les mêmes dés, chaque duel s’est déroulé à l’identique. Le duel "
                    "type ne fait pas intervenir cette règle ; les chances exactes "
                    "ci-dessus en mesurent l’effet.")
        acted = (f"Le changement a joué dans {number(self.acted)} des {number(self.n)} "
                 f"{duels} (sur les mêmes dés, leur déroulement a changé)")
        # the headline every face shows (escarmouche.simulation.precision, bench/README.md,
        # « bench_designer.py »)
        gap = difference_sentence([(self.side, self.diff, self.half)], "la nouvelle règle")
        if self.established:
            return f"{acted} ; **écart établi**. {gap}"
        if self.needed is None:
            return f"{acted}, sans changer le taux de victoire. {gap}"
        return (f"{acted}. {gap} L’écart reste dans un intervalle trop large pour "
                f"conclure ; il faudrait "
                f"environ {number(self.needed)} duels pour trancher un écart de cette "
                "taille.")


def plural_word(x: float, word: str) -> str:
    """``word`` agreeing with the decimal ``x`` as shown to one decimal (French: the
    plural from 2 on): « 1,5 tour », « 3,5 rounds »."""
    return f"{word}s" if round(x, 1) >= 2 else word


def paired_duels(system: str | System[Any], before: Any, after: Any, n: int,
                 seed: int = 0) -> Paired:
    """Play the standard duel ``n`` times under ``before`` and under ``after``, fight
    ``i`` of both on the same dice streams (``seed``, ``i``), and pair them
    (:class:`Paired`). At most :data:`MAX_DUELS`.

    >>> from escarmouche.systems import d20
    >>> same = paired_duels(d20.SYSTEM, d20.Rules(), d20.Rules(), 10, seed=1)
    >>> same.acted, same.diff, same.needed
    (0, 0.0, None)
    """
    from escarmouche.encounter import Encounter
    from escarmouche.simulation.fight import as_roster

    old = as_roster(Encounter(system, duel_roster(), rules=before))
    return _paired(old, old.with_rules(after), "vétérans", n, seed)


def situation_roster(system: str | System[Any], duel: SituationDuel, rules: Any) -> Any:
    """The situation duel ``duel`` of ``system`` as a roster under ``rules`` (its start
    options and policies with it), ready for :mod:`escarmouche.simulation`."""
    from escarmouche.encounter import Encounter
    from escarmouche.simulation.fight import as_roster

    enc = Encounter(system, list(duel.combatants), rules=rules)
    presets = {p.name: p for p in enc.system.effect_presets}
    for name, bearer in duel.effects:
        enc.add_effect(presets[name].effect(bearer))
    return dataclasses.replace(as_roster(enc), start_options=dict(duel.start_options),
                               policies=dict(duel.policies))


def situation_duels(system: str | System[Any], before: Any, after: Any, n: int,
                    seed: int = 0) -> list[tuple[SituationDuel, Paired]]:
    """Each situation duel of ``system`` (``System.situation_duels``) played ``n`` times
    under ``before`` and ``after`` on the same dice, paired as :func:`paired_duels` does
    (the first side's wins counted).

    >>> from escarmouche.systems import d100
    >>> [(d.key, p.acted > 0) for d, p in situation_duels(
    ...     d100.SYSTEM, d100.Rules(parries_per_round=1), d100.Rules(parries_per_round=2),
    ...     200)]  # doctest: +NORMALIZE_WHITESPACE
    [('seule-contre-trois', True), ('tir-dans-la-melee', False),
     ('dague-et-epee-contre-armure', False), ('du-haut-du-mur', False)]
    """
    from escarmouche.systems import get

    target = get(system)
    return [(duel, situation_paired(target, duel, before, after, n, seed))
            for duel in target.situation_duels]


def situation_paired(system: str | System[Any], duel: SituationDuel, before: Any,
                     after: Any, n: int, seed: int = 0) -> Paired:
    """One situation duel of ``system`` played ``n`` times under ``before`` and ``after``
    on the same dice (:func:`situation_duels` plays each of them)."""
    from escarmouche.systems import get

    target = get(system)
    old = situation_roster(target, duel, before)
    return _paired(old, old.with_rules(after), duel.counted_side, n, seed)


def _paired(old: Any, new: Any, side: str, n: int, seed: int) -> Paired:
    from escarmouche.simulation.fight import prepare

    n = checks.integer("duels", n, lo=1, hi=MAX_DUELS, rule="CORE-RNG")
    seed = checks.integer("graine", seed, lo=0, hi=2**62, rule="CORE-RNG")
    play_old = prepare(old, max_turns=MAX_TURNS).play
    play_new = prepare(new, max_turns=MAX_TURNS).play
    acted, diffs = 0, []
    for i in range(n):
        a = play_old(i, seed)
        b = play_new(i, seed)
        acted += a != b
        diffs.append((b.winner == side) - (a.winner == side))
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    half = _Z * math.sqrt(var / n)
    needed = None
    if acted and mean and abs(mean) <= half:
        needed = math.ceil(_Z * _Z * var / (mean * mean))
    return Paired(n, acted, mean, half, needed, side)
