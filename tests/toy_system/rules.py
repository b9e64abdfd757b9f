"""The options of « Jouet » and the constants of its rules (rules as data)."""

from __future__ import annotations

import dataclasses

from escarmouche.options import check_options, option

__all__ = ["DEFAULT_RULES", "INITIATIVE_DIE", "TRACK", "Rules", "knocked_out"]

#: JOUET-INIT-1: the initiative die
INITIATIVE_DIE = 6
#: JOUET-END-1: the one damage track
TRACK = "PV"


def knocked_out(pv: int) -> bool:
    """JOUET-END-1: a combatant at 0 PV is out of the fight (``ToySystem.is_out`` and the
    rules kernel both ask it).

    >>> knocked_out(0), knocked_out(3)
    (True, False)
    """
    return pv <= 0


@dataclasses.dataclass(frozen=True, slots=True)
class Rules:
    """The options of the system (each is a ruling a GM may change), each declared once
    with :func:`~escarmouche.options.option`: its French label and key, its rule IDs,
    its bounds. The book, the widgets, roster files and edition files read them there."""

    #: JOUET-ATK-1: the faces of the damage die
    faces: int = option(6, label="faces du dé de dégâts", key="faces_degats",
                        rules=("JOUET-ATK-1",), lo=2, hi=100)

    def __post_init__(self) -> None:
        check_options(self)


#: the rules by default (a module-level value, so that defaults are not rebuilt)
DEFAULT_RULES = Rules()
