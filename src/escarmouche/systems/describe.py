"""What a system says of itself to a reader: the data its descriptive hooks return.

A :class:`~escarmouche.systems.base.System` explains its own initiative
(:class:`InitiativeReport`), its surprise rules (:class:`SurpriseReport`) and who is
likely to act first (:class:`Chances`); the widgets, the book and the command line show
these as French text, tables and charts, without knowing which system made them. Every
field is French text or exact numbers (:class:`~fractions.Fraction`), never HTML.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

__all__ = ["Chances", "InitiativeReport", "Situation", "SituationParam", "SurpriseReport"]


@dataclasses.dataclass(frozen=True, slots=True)
class InitiativeReport:
    """One initiative roll, explained (``System.explain_initiative``).

    ``turns`` are the rows of the timeline (a French label, the names that act, in
    order); ``lines`` the French sentences that explain the order and its ties, each
    citing its rule; ``steps`` label the dice drawn (index of the first draw of a step,
    counted from the first die of the roll, and its French label: « initiative
    d’Aldric », ``fmt.die_of``); ``sides`` the side of any pseudo-fighter of the timeline (d12's
    environment).
    """

    turns: tuple[tuple[str, tuple[str, ...]], ...]
    lines: tuple[str, ...]
    rules: tuple[str, ...]
    steps: tuple[tuple[int, str], ...] = ()
    timeline_title: str = "Ordre d’activation"
    sides: Mapping[str, str] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass(frozen=True, slots=True)
class SurpriseReport:
    """What a surprise attack does in a system (``System.explain_surprise``): ``when``
    names the surprise round (« Tour 0 », « Pas de round de surprise »), ``who`` acts in
    it, ``lines`` explain why, ``steps`` label the dice (as in
    :class:`InitiativeReport`), ``chances`` give exact odds when the system has any."""

    when: str
    who: tuple[str, ...]
    lines: tuple[str, ...]
    rules: tuple[str, ...]
    steps: tuple[tuple[int, str], ...] = ()
    chances: tuple[Chances, ...] = ()


@dataclasses.dataclass(frozen=True, slots=True)
class Chances:
    """Exact chances to show as one chart: a French ``title`` (with its rule IDs), an
    ``intro`` sentence saying how they are computed, and ``(label, probability)``
    rows; ``notes`` are French sentences shown after the chart."""

    title: str
    values: tuple[tuple[str, Fraction], ...]
    intro: str = ""
    notes: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True, slots=True)
class SituationParam:
    """One parameter of a :class:`Situation`: its French command-line name
    (``seuil-defense``), its metavar, its help, its default and, for a choice, its
    values; ``flag`` makes it a yes/no switch; a ``required`` one must be given with
    the situation. Other values are whole numbers."""

    name: str
    help: str
    metavar: str = ""
    default: Any = None
    choices: tuple[str, ...] = ()
    flag: bool = False
    required: bool = False


@dataclasses.dataclass(frozen=True, slots=True)
class Situation:
    """One standard roll of a system whose exact odds ``escarmouche cotes`` gives
    (``--test-rulebook 55``): its French option name, the metavar and help of its main
    value, its other parameters, and ``compute(value, params)``, which returns the JSON
    result, the French table, the chart's bars and the title; ``example`` is a command
    line that shows it (« --attaque-d12 3 --contre 12 »)."""

    name: str
    metavar: str
    help: str
    compute: Callable[[int, Mapping[str, Any]], tuple[dict[str, Any], Any,
                                                    list[tuple[str, Fraction]], str]]
    params: tuple[SituationParam, ...] = ()
    example: str = ""
