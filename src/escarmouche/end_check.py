"""The end check of the rules kernels (``escarmouche.systems.*.kernel``):
:func:`escarmouche.state.end_outcome` asked of a kernel's compact state, its answers
kept (CORE-END-1)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from escarmouche.state import STANDING_ONLY, EncounterState, FighterState, end_outcome

__all__ = ["END_ANSWERS", "EndCheck"]


class EndCheck:
    """:func:`end_outcome` as a rules kernel asks it (one per compiled sheet): the
    fighters of ``probe`` (the sheet's fight, started once) on one view, their track
    ``track`` and out flags and the turn written from the kernel's state before each
    question. When every end condition reads only who is out and the turn
    (:data:`STANDING_ONLY`), the answer is kept per state it reads (the out flags, and
    the turn only at a turn's end under a condition « tours »), at most
    :data:`END_ANSWERS` of them: a kernel asks it whenever a fighter falls.

    >>> from escarmouche.model import Combatant
    >>> one = FighterState(Combatant("Brune", "héros", {"PV": 6}), {"PV": 6}, {"PV": 6})
    >>> two = FighterState(Combatant("Grolk", "orques", {"PV": 5}), {"PV": 5}, {"PV": 5})
    >>> check = EndCheck(EncounterState("jouet", {}, {"Brune": one, "Grolk": two}), "PV")
    >>> check([False, True], [6, 0], 1, False)
    'victoire du camp « héros »'
    >>> check([False, False], [6, 5], 1, False) is None
    True
    """

    __slots__ = ("_answers", "_fighters", "_keep", "_track", "_turns", "_view")

    def __init__(self, probe: EncounterState, track: str) -> None:
        fighters = {f.name: FighterState(f.combatant, dict(f.tracks), f.maxima, False)
                    for f in probe.fighters.values()}
        conditions = list(probe.end_conditions)
        self._view = EncounterState(probe.system, probe.rules, fighters, conditions,
                                    probe.turn, True)
        self._fighters = tuple(fighters.values())
        self._track = track
        self._keep = all(c.kind in STANDING_ONLY for c in conditions)
        self._turns = any(c.kind == "tours" for c in conditions)
        self._answers: dict[tuple[Any, ...], str | None] = {}

    def __call__(self, out: Sequence[bool], values: Sequence[int], turn: int,
                 at_turn_end: bool) -> str | None:
        """The outcome when the fighters (in the probe's order) are ``out`` with
        ``values`` on the track, in turn ``turn``; ``None`` while the fight goes on."""
        key: tuple[Any, ...] = ()
        if self._keep:
            key = (*out, at_turn_end, turn if at_turn_end and self._turns else 0)
            answers = self._answers
            if key in answers:
                return answers[key]
        view = self._view
        view.turn = turn
        track = self._track
        for f, gone, value in zip(self._fighters, out, values, strict=True):
            f.out = gone
            f.tracks[track] = value
        outcome = end_outcome(view, at_turn_end)
        if key:
            if len(self._answers) >= END_ANSWERS:
                self._answers.clear()
            self._answers[key] = outcome
        return outcome


#: the most answers an :class:`EndCheck` keeps (then it forgets them all)
END_ANSWERS = 4096
