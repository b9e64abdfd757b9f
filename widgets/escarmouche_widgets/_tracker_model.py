"""The tracker's choices and its « caché » steps, without any widget.

Plain functions of the encounter that the tracker's view (:mod:`.tracker`) calls: which
action and which target a tap on « Agir » plays when the GM changes nothing, which
values a one-tap parameter offers now (the d100 defence), and :class:`HideSteps`, the
« caché » toggles of the turn order as undoable steps interleaved with the fight's
:class:`~escarmouche.history.History`.

>>> import random
>>> from escarmouche import systems
>>> from escarmouche.encounter import Encounter
>>> enc = Encounter("d100", list(systems.get("d100").sample_roster))
>>> _ = enc.start(random.Random(1))
>>> enc.current, preferred_action(enc, enc.current, None, same_actor=False)
('Brune', 'attaquer')
>>> preferred_target(enc, "Brune", "Aldric")  # an ally is never kept: the first enemy
'Grolk'
>>> choice_values(enc, "Brune", "defense", {"cible": "Grolk"})  # no parry prepared
('aucune',)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from escarmouche.encounter import Encounter
from escarmouche.errors import FIELD_LABELS
from escarmouche.history import History

__all__ = ["HideSteps", "choice_values", "engine_keys", "preferred_action", "preferred_target"]


def preferred_action(enc: Encounter, actor: str, kept: str | None, *,
                     same_actor: bool) -> str | None:
    """The action preselected for ``actor``: the one kept while the same fighter goes on
    acting and may still take it, else the first of the system's preferred actions
    (:attr:`System.preferred_actions`, its standard attack first) that is offered, else
    the first offered (``None``: nothing is offered)."""
    offered = [spec.id for spec in enc.actions(actor)]
    if same_actor and kept in offered:
        return kept
    preferred = next((a for a in enc.system.preferred_actions if a in offered), None)
    return preferred or (offered[0] if offered else None)


def preferred_target(enc: Encounter, actor: str, kept: str | None) -> str | None:
    """The target preselected for ``actor``: the one kept while it is a standing enemy,
    else the first standing enemy in the fighters' order, else ``None``."""
    fighters = enc.state.fighters
    if actor not in fighters:
        return None
    side = fighters[actor].side
    enemies = [n for n, f in fighters.items()
               if n != actor and f.side != side and not f.out and not f.fled]
    if kept in enemies:
        return kept
    return enemies[0] if enemies else None


def choice_values(enc: Encounter, actor: str, param: str,
                  params: Mapping[str, Any]) -> tuple[str, ...]:
    """The values the one-tap ``param`` offers now (:meth:`Encounter.choice_values`),
    the default first; every declared value when the engine cannot say."""
    try:
        values = enc.choice_values(actor, param, **params)
    except Exception:  # a half-typed target: every declared value, the engine refuses later
        values = ()
    return values or tuple(enc.system.param_choices.get(param, ("", ()))[1])


@dataclass(frozen=True, slots=True)
class _Hide:
    at: int  # the number of the history's done steps when it was taken
    name: str
    hidden: bool  # the value after the step


@dataclass
class HideSteps:
    """« caché » as undoable steps beside a fight's :class:`History`: each toggle
    remembers how many fight steps came before it, so that « Annuler » and « Rétablir »
    take the toggles and the fight's steps back in the order they were made. The
    tracker's save keeps them (``masquages``, suivi-4.schema.json): after a reload
    « Annuler » still takes a « caché » step back."""

    done: list[_Hide] = field(default_factory=list)
    undone: list[_Hide] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The steps in the engine's names (the tracker's save renames the keys:
        ``masquages``, :data:`~escarmouche_widgets._table.STEP_KEYS`)."""
        def rows(steps: list[_Hide]) -> list[dict[str, Any]]:
            return [{"at": s.at, "nom": s.name, "cache": s.hidden} for s in steps]
        return {"done": rows(self.done), "undone": rows(self.undone)}

    @classmethod
    def from_json(cls, data: Any, history: History, fighters: Sequence[str]) -> HideSteps:
        """The steps of a save checked by its schema (:meth:`to_json`); a step about a
        fighter the fight does not have, or made after the fight's last step, is
        dropped (nothing could take it back)."""
        if not isinstance(data, Mapping):
            return cls()
        known = set(fighters)

        def steps(key: str, bound: int) -> list[_Hide]:
            return [_Hide(int(row["at"]), str(row["nom"]), bool(row["cache"]))
                    for row in data.get(key, ())
                    if isinstance(row, Mapping) and row.get("nom") in known
                    and 0 <= int(row.get("at", -1)) <= bound]
        done = len(history.done)
        return cls(steps("done", done), steps("undone", done + len(history.undone)))

    def record(self, history: History, name: str, hidden: bool) -> None:
        """A toggle made now: a new branch, so nothing can be redone any more."""
        self.done.append(_Hide(len(history.done), name, hidden))
        self.undone.clear()
        history.undone.clear()

    def fight_step_taken(self) -> None:
        """A fight step made now: the toggles undone cannot be redone any more."""
        self.undone.clear()

    def next_undo(self, history: History) -> _Hide | None:
        """The toggle « Annuler » takes back now, or ``None`` (a fight step)."""
        if self.done and self.done[-1].at >= len(history.done):
            return self.done[-1]
        return None

    def next_redo(self, history: History) -> _Hide | None:
        if self.undone and self.undone[-1].at <= len(history.done):
            return self.undone[-1]
        return None

    def undo(self, history: History, hidden: set[str]) -> str | None:
        step = self.next_undo(history)
        if step is None:
            return None
        self.done.pop()
        self.undone.append(step)
        (hidden.discard if step.hidden else hidden.add)(step.name)
        return label(step)

    def redo(self, history: History, hidden: set[str]) -> str | None:
        step = self.next_redo(history)
        if step is None:
            return None
        self.undone.pop()
        self.done.append(step)
        (hidden.add if step.hidden else hidden.discard)(step.name)
        return label(step)

    def undo_label(self, history: History) -> str | None:
        step = self.next_undo(history)
        return label(step) if step is not None else history.undo_label

    def redo_label(self, history: History) -> str | None:
        step = self.next_redo(history)
        return label(step) if step is not None else history.redo_label


def label(step: _Hide) -> str:
    """« Caché aux joueurs : Grolk », « Montré aux joueurs : Grolk »."""
    return f"{'Caché' if step.hidden else 'Montré'} aux joueurs\u00a0: {step.name}"


#: the French name of a parameter → the engine's (« cible engagée » → ``cible_engagee``)
_ENGINE_KEYS = {label: key for key, label in FIELD_LABELS.items() if label != key}


def engine_keys(text: str, keys: Sequence[str]) -> str:
    """Typed parameters with their French names (« cible engagée=oui », as the
    placeholder shows them) read with the engine's keys, for the action's ``keys``.

    >>> engine_keys("distance=30, cible engagée=oui", ("distance", "cible_engagee"))
    'distance=30, cible_engagee=oui'
    """
    parts = []
    for item in text.split(","):
        key, sep, value = item.partition("=")
        name = key.strip()
        if sep and _ENGINE_KEYS.get(name) in keys:
            key = key.replace(name, _ENGINE_KEYS[name])
        parts.append(key + sep + value)
    return ",".join(parts)
