"""One fight of a simulation: the roster it is played from, and what is kept of it.

A simulation plays a roster (:class:`RosterLike`: anything with ``encounter()``, such
as :class:`escarmouche.roster.Roster`; an unstarted encounter is wrapped by
:func:`as_roster`). :func:`play_fight` plays fight ``i`` of a run in simulation mode,
on its own streams (:mod:`escarmouche.simulation.streams`); :func:`result_of` keeps
what a balance needs of a finished fight, a :class:`FightResult`.

>>> from escarmouche import Combatant
>>> from escarmouche.encounter import Encounter
>>> from escarmouche.systems import d20
>>> duel = Encounter(d20.SYSTEM, [Combatant("Brune", "héros", {"PV": 12}),
...                          Combatant("Grolk", "orques", {"PV": 9})])
>>> result = play_fight(as_roster(duel), 0, seed=1)
>>> result == play_fight(as_roster(duel), 0, seed=1), dict(result.health_max)
(True, {'héros': 12, 'orques': 9})
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Protocol

from escarmouche.encounter import Encounter
from escarmouche.errors import invalid
from escarmouche.simulation.streams import DICE, TACTICS, stream

__all__ = ["FightResult", "Prepared", "RosterLike", "as_roster", "play_fight", "prepare",
           "result_of", "verdict"]


class RosterLike(Protocol):
    """What a simulation needs of a roster (``escarmouche.roster.Roster`` satisfies it;
    an unstarted :class:`~escarmouche.encounter.Encounter` is wrapped by
    :func:`as_roster`)."""

    def encounter(self) -> Encounter: ...


@dataclasses.dataclass(frozen=True)
class _FixedRoster:
    """An unstarted encounter seen as a roster (the book's pages before roster files)."""

    template: Encounter
    start_options: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    policies: Mapping[str, str] = dataclasses.field(default_factory=dict)

    @property
    def rules(self) -> Any:
        return self.template.rules

    @property
    def system(self) -> str:
        return self.template.system.name

    @property
    def title(self) -> str:
        return " contre ".join(dict.fromkeys(f.side for f in
                                             self.template.state.fighters.values()))

    def encounter(self) -> Encounter:
        return self.template.simulated()

    def with_rules(self, rules: Any) -> _FixedRoster:
        state = self.template.state
        fresh = Encounter(self.template.system, [f.combatant for f in state.fighters.values()],
                          rules=rules, end_conditions=state.end_conditions)
        for effect in state.effects:  # the effects set before the fight, as they were
            fresh.add_effect(effect)
        fresh.state.next_effect_id = state.next_effect_id
        return dataclasses.replace(self, template=fresh)


def as_roster(roster: object) -> Any:
    """``roster`` itself when it has ``encounter()``; an unstarted encounter wrapped."""
    if isinstance(roster, Encounter):
        if roster.started:
            raise invalid("combat", "commencé", "CORE-ERR",
                          "une simulation part d’un combat qui n’a pas commencé")
        return _FixedRoster(roster)
    if not callable(getattr(roster, "encounter", None)):
        raise invalid("roster", type(roster).__name__, "CORE-ERR",
                      "une feuille de combat (Roster) ou un combat non commencé est attendu")
    return roster


@dataclasses.dataclass(frozen=True, slots=True)
class FightResult:
    """What a balance keeps of one fight (everything an exact integer).

    ``winner`` is the only side with fighters still standing, ``None`` for a draw (no
    one standing) or a time-out (several sides standing when the turn limit came).
    ``health`` and ``health_max`` are per side, summed over the system's damage tracks;
    ``survivors`` per side too.
    """

    index: int
    winner: str | None
    timed_out: bool
    rounds: int
    survivors: tuple[tuple[str, int], ...]
    health: tuple[tuple[str, int], ...]
    health_max: tuple[tuple[str, int], ...]
    #: ties a safety bound of the engine settled by lot in this fight (D12-INIT-6)
    lots: int = 0


def _sides(enc: Encounter) -> list[str]:
    return list(dict.fromkeys(f.side for f in enc.state.fighters.values()))


@dataclasses.dataclass(frozen=True)
class Prepared:
    """A roster ready to play many fights in simulation mode: its unstarted template,
    start options and policies read and checked once, at the door (not once per fight).
    :meth:`play` plays fight ``index`` of the run seeded ``seed``."""

    template: Encounter
    start_options: Mapping[str, Any]
    policies: Mapping[str, Any]
    max_turns: int
    #: the system's rules kernel for these fights (``System.kernel``), or ``None``: the
    #: engine plays them
    kernel: Any = None

    def play(self, index: int, seed: int) -> FightResult:
        """Fight ``index``: dice from ``stream(seed, index, DICE)``, tactics from
        ``stream(seed, index, TACTICS)``."""
        dice = stream(seed, index, DICE)
        if self.kernel is not None:
            # a kernel whose policies draw (« au hasard ») is given the tactics stream
            played = (self.kernel.play(dice, self.max_turns, stream(seed, index, TACTICS))
                      if getattr(self.kernel, "tactics", False)
                      else self.kernel.play(dice, self.max_turns))
            # a kernel that may settle ties by lot (d20, D20-INIT-2) counts them third;
            # one whose fights may begin in a turn 0 (Rulebook, RB-INIT-3) gives the
            # first turn fourth (else turn 1), counted as ``result_of`` counts it
            lots = played[2] if len(played) > 2 else 0
            first = played[3] if len(played) > 3 else 1
            return _tally(index, self.kernel.side_names, played[0],
                          min(played[1], self.max_turns) - first + 1, lots)
        enc = self.template.simulated()
        if self.start_options:
            enc.start(dice, **self.start_options)
        enc.run(dice, max_turns=self.max_turns, policy=self.policies,
                tactics_rng=stream(seed, index, TACTICS))
        return result_of(enc, index, max_turns=self.max_turns)


def prepare(roster: Any, template: Encounter | None = None, *, policy: Any = None,
            max_turns: int = 50) -> Prepared:
    """``roster`` ready for :meth:`Prepared.play` (``template``: an unstarted
    ``roster.encounter()``, built here when not given). The policy is ``policy``, else
    the roster's own, else each system's default; it is resolved once, here."""
    from escarmouche.policies import resolve_policies

    base = template if template is not None else roster.encounter()
    options = dict(getattr(roster, "start_options", None) or {})
    chosen = policy if policy is not None else (getattr(roster, "policies", None) or None)
    policies = resolve_policies(base.system.name, _sides(base), chosen)
    return Prepared(base, options, policies, max_turns,
                    base.system.kernel(base, options, policies))


def play_fight(roster: Any, index: int, seed: int, *, policy: Any = None,
               max_turns: int = 50, template: Encounter | None = None) -> FightResult:
    """Play fight ``index`` of the run seeded ``seed`` in simulation mode: its dice from
    ``stream(seed, index, DICE)``, its tactics from ``stream(seed, index, TACTICS)``.
    ``template`` (an unstarted ``roster.encounter()``) saves rebuilding it each fight;
    many fights of one roster are cheaper through :func:`prepare`."""
    return prepare(roster, template, policy=policy, max_turns=max_turns).play(index, seed)


def result_of(enc: Encounter, index: int = 0, *, max_turns: int | None = None
              ) -> FightResult:
    """The :class:`FightResult` of a finished fight (any mode). Its duration counts
    every global turn played, a turn 0 included (RB-INIT-3, RB-SURPRISE-3; the d12
    bonus turn, D12-SURPRISE-2): a fight that began with a turn 0 and ended in turn 3
    lasted 4 turns. A fight stopped by the limit of ``max_turns`` ended in turn
    ``max_turns`` (the engine's counter has already moved to the next one when it
    stops). Health is summed over the tracks automated play can take from
    (``System.played_tracks``): the Rulebook's simulation variant never touches
    Esprit, so counting it would show health that no fight can lose."""
    system = enc.system
    tracks = system.tracks if system.played_tracks is None else system.played_tracks
    rows = [(f.side, f.standing, sum(f.tracks[t] for t in tracks if t in f.tracks),
             sum(f.maxima.get(t, f.tracks[t]) for t in tracks if t in f.tracks))
            for f in enc.state.fighters.values()]
    last = enc.state.turn if max_turns is None else min(enc.state.turn, max_turns)
    return _tally(index, _sides(enc), rows, last - _first_turn(enc) + 1,
                  system.ties_drawn_by_lot(enc.state))


def _first_turn(enc: Encounter) -> int:
    """The number of the fight's first global turn: 0 when a turn 0 was played, from
    its « Début du tour » event (emitted in every mode), else 1."""
    for event in enc.state.log:
        if event.kind == "debut_tour":
            return event.turn
    return 1


def verdict(alive: Sequence[str]) -> tuple[str | None, bool]:
    """The result of a fight where the sides ``alive`` still stand: the winner (the only
    side standing, else ``None``), and whether more than one side stands (stopped by the
    turn cap or an end condition, not decided). The tally of a played fight and the
    exact solver (``escarmouche.exact``) both read it."""
    return (alive[0] if len(alive) == 1 else None), len(alive) > 1


def _tally(index: int, sides: Sequence[str], rows: Iterable[tuple[str, bool, int, int]],
           turns: int, lots: int = 0) -> FightResult:
    """The :class:`FightResult` of fighters ``rows`` (side, standing, health, most
    health) after ``turns`` global turns, ``lots`` ties of them settled by lot, however
    the fight was played (the engine, a rules kernel)."""
    standing = dict.fromkeys(sides, 0)
    health = dict.fromkeys(sides, 0)
    health_max = dict.fromkeys(sides, 0)
    for side, up, value, top in rows:
        if up:
            standing[side] += 1
        health[side] += value
        health_max[side] += top
    winner, undecided = verdict([s for s, n in standing.items() if n])
    return FightResult(index, winner, undecided, turns,
                       tuple(standing.items()), tuple(health.items()),
                       tuple(health_max.items()), lots)
