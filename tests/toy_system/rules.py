"""The options of « Jouet » and the constants of its rules (rules as data)."""

from __future__ import annotations

import dataclasses

from escarmouche import _check

__all__ = ["INITIATIVE_DIE", "OPTION_LABELS", "TRACK", "Rules"]

#: JOUET-INIT-1: the initiative die
INITIATIVE_DIE = 6
#: JOUET-END-1: the one damage track
TRACK = "PV"


@dataclasses.dataclass(frozen=True, slots=True)
class Rules:
    """The options of the system (each is a ruling a GM may change)."""

    #: JOUET-ATK-1: the faces of the damage die
    faces: int = 6

    def __post_init__(self) -> None:
        _check.integer("faces", self.faces, lo=2, hi=100, rule="JOUET-ATK-1")


#: the French label of each option, for the book, the widgets and edition pages
OPTION_LABELS: dict[str, str] = {"faces": "faces du dé de dégâts"}

#: the rules by default (a module-level value, so that defaults are not rebuilt)
DEFAULT_RULES = Rules()
