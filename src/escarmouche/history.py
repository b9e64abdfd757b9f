"""Undo and redo of a fight's steps, along its event log (book_src/demos/suivi-combat.md; CORE-LOG).

Every operation of an :class:`~escarmouche.encounter.Encounter` is atomic and appends
its events to the ordered log. A :class:`History` records, for each step a GM takes, the
position of the log where it began and the state just before it (without the log, which
only grows): undoing a step puts that state back with the log cut at that position, so
that the fight is exactly as it was, a finished fight reopened included; redoing puts
back the state after the step and the events it had added. Both are atomic (the new
state is built in full, then swapped in) and a history saves to JSON with the fight
(:meth:`History.to_json`), so undo and redo survive a reload.

>>> import random
>>> from escarmouche import Combatant
>>> from escarmouche.encounter import Encounter
>>> combat = Encounter("d20", [Combatant("Brune", "héros", {"PV": 10}),
...                            Combatant("Grolk", "orques", {"PV": 8})])
>>> history = History()
>>> _ = history.run(combat, "Début du combat", lambda: combat.start(random.Random(1)))
>>> _ = history.run(combat, "Fin du combat", combat.finish)
>>> combat.finished, history.undo_label
(True, 'Fin du combat')
>>> history.undo(combat)
'Fin du combat'
>>> combat.finished, history.redo_label
(False, 'Fin du combat')
>>> history.redo(combat)
'Fin du combat'
>>> combat.finished
True
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from escarmouche.errors import EscarmoucheError, SaveError
from escarmouche.model import Json
from escarmouche.state import EncounterState

__all__ = ["MAX_STEPS", "History", "Step"]

#: how many steps a history keeps (the oldest are dropped beyond: a bounded, named limit)
MAX_STEPS = 300
FORMAT = 1

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the GM: its French ``label``, the log position where it began
    (``at``), the state before it (``before``, without its log) and, once undone, the
    state after it (``after``, without its log) with the events it had added
    (``added``)."""

    label: str
    at: int
    before: Mapping[str, Json]
    after: Mapping[str, Json] | None = None
    added: Sequence[Json] = ()

    def to_json(self) -> dict[str, Json]:
        out: dict[str, Json] = {"label": self.label, "at": self.at,
                                "before": dict(self.before)}
        if self.after is not None:
            out["after"] = dict(self.after)
            out["added"] = list(self.added)
        return out


def _without_log(state: EncounterState) -> dict[str, Json]:
    data = state.to_json()
    del data["log"]
    return data


def _state(data: Mapping[str, Json], log: Sequence[Json]) -> EncounterState:
    full = dict(copy.deepcopy(data))
    full["log"] = list(log)
    return EncounterState.from_json(full)


class History:
    """The steps that can be undone (latest last) and those that can be redone."""

    def __init__(self) -> None:
        self.done: list[Step] = []
        self.undone: list[Step] = []

    @property
    def undo_label(self) -> str | None:
        """What « Annuler » would undo (``None``: nothing)."""
        return self.done[-1].label if self.done else None

    @property
    def redo_label(self) -> str | None:
        """What « Rétablir » would redo (``None``: nothing)."""
        return self.undone[-1].label if self.undone else None

    def clear(self) -> None:
        self.done.clear()
        self.undone.clear()

    def run(self, encounter: Any, label: str, operation: Callable[[], T]) -> T:
        """Run one atomic operation of ``encounter`` as a step: if it is refused, nothing
        is recorded (and the fight is unchanged); if it changes nothing, neither."""
        at = len(encounter.state.log)
        before = _without_log(encounter.state)
        result = operation()
        if len(encounter.state.log) != at or _without_log(encounter.state) != before:
            self.done.append(Step(label, at, before))
            del self.done[:-MAX_STEPS]
            self.undone.clear()
        return result

    def undo(self, encounter: Any) -> str:
        """Put the fight back as it was before the last step; returns its label."""
        if not self.done:
            raise EscarmoucheError("annuler = rien : aucune étape à annuler (CORE-LOG)",
                                   field="annuler", value=None, rule="CORE-LOG")
        step = self.done[-1]
        log = [e.to_json() for e in encounter.state.log]
        restored = _state(step.before, log[: step.at])
        undone = Step(step.label, step.at, step.before, _without_log(encounter.state),
                      log[step.at:])
        encounter.state = restored
        self.done.pop()
        self.undone.append(undone)
        return step.label

    def redo(self, encounter: Any) -> str:
        """Put back the last step undone; returns its label."""
        if not self.undone:
            raise EscarmoucheError("rétablir = rien : aucune étape annulée à rétablir "
                                   "(CORE-LOG)", field="rétablir", value=None,
                                   rule="CORE-LOG")
        step = self.undone[-1]
        assert step.after is not None
        log = [e.to_json() for e in encounter.state.log]
        restored = _state(step.after, [*log, *step.added])
        encounter.state = restored
        self.undone.pop()
        self.done.append(Step(step.label, step.at, step.before))
        return step.label

    # -- save and restore ------------------------------------------------------------

    def to_json(self) -> dict[str, Json]:
        return {"format": FORMAT, "done": [s.to_json() for s in self.done],
                "undone": [s.to_json() for s in self.undone]}

    @classmethod
    def from_json(cls, data: object, log_length: int) -> History:
        """A history saved by :meth:`to_json`, for a fight whose log has ``log_length``
        events; a damaged one raises a French :class:`~escarmouche.errors.SaveError`."""
        history = cls()
        try:
            if not isinstance(data, Mapping) or data.get("format") != FORMAT:
                raise ValueError
            for key, into in (("done", history.done), ("undone", history.undone)):
                for item in data[key]:
                    after = item.get("after")
                    step = Step(str(item["label"]), int(item["at"]), dict(item["before"]),
                                dict(after) if after is not None else None,
                                list(item.get("added", ())))
                    # the log is cut where the earliest undone step began
                    fits = (step.at >= log_length if key == "undone"
                            else 0 <= step.at <= log_length)
                    if not fits or (key == "undone") != (after is not None):
                        raise ValueError
                    _state(step.before, [])  # every saved state must load
                    if step.after is not None:
                        _state(step.after, [])
                    into.append(step)
        except (EscarmoucheError, ValueError, TypeError, KeyError, AttributeError):
            raise SaveError(
                "historique = illisible : la sauvegarde des étapes à annuler est abîmée ; "
                "le combat se reprend, sans pouvoir annuler (CORE-LOG)",
                field="historique", value=None, rule="CORE-LOG") from None
        return history
