"""Initiative as the demos show it (pure: a system's report → HTML).

For one roster, a system explains its own initiative
(:meth:`~escarmouche.systems.base.System.explain_initiative`) with a (recorded) rng;
its report becomes an :class:`InitiativeView`: the timeline rows, the French lines that
explain the order and its ties, the dice and the rule IDs.
:func:`initiative_odds` lays out the exact chances the system gives
(:meth:`~escarmouche.systems.base.System.first_to_act`) as HTML charts, cached per
roster, rules and options.

The roster is shared by every system (each reads its own stats: ``HAB`` for the
rulebook, ``Ag`` for d100, ``init`` for d12 and d20), so one roster compares them.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from escarmouche import Combatant, systems
from escarmouche.systems.base import System
from escarmouche.systems.describe import Chances
from escarmouche.text.fmt import percent
from escarmouche_widgets import _charts
from escarmouche_widgets import _html as h
from escarmouche_widgets._parse import RosterRow
from escarmouche_widgets._record import Recorder

__all__ = [
    "DEMO_ROSTER",
    "InitiativeView",
    "chances_html",
    "initiative_odds",
    "roll_initiative",
]

#: a roster every system can read (each system uses its own stats and traits)
DEMO_ROSTER: list[RosterRow] = [
    RosterRow("Aldric", "héros", "HAB=62, DIS=40, PMR=55, Ag=38, init=2", "hyperactivité"),
    RosterRow("Brune", "héros", "HAB=48, DIS=65, PMR=45, Ag=45, init=3", "alerte"),
    RosterRow("Grolk", "monstres", "HAB=40, DIS=30, PMR=50, Ag=25, init=1",
              "toujours dernier"),
    RosterRow("Vex", "monstres", "HAB=55, DIS=60, PMR=40, Ag=40, init=2", "dépassement"),
]


@dataclass
class InitiativeView:
    """What a demo shows of one initiative roll."""

    system: str
    turns: list[tuple[str, list[str]]]
    lines: list[str]
    dice: list[tuple[int, int, str]]
    rules: list[str]
    sides: dict[str, str] = field(default_factory=dict)
    timeline_title: str = "Ordre d’activation"

    def html(self, source: str, note: str = "") -> str:
        """The result block: timeline, order per turn, explanations, dice, rules."""
        order = [f"{label} : {', '.join(names) if names else '(personne)'}"
                 for label, names in self.turns]
        title = systems.get(self.system).title or self.system
        parts = [
            h.section(f"{title} — initiative ({source})",
                      _charts.timeline(self.turns, self.timeline_title, self.sides)),
            h.bullet_list(order),
            h.section("Pourquoi cet ordre", h.bullet_list(self.lines)),
            h.dice_line(self.dice),
            h.rules_line(self.rules),
        ]
        if note:
            parts.append(h.notice(note))
        return "".join(parts)


def roll_initiative(system: str, combatants: Sequence[Combatant], rec: Recorder,
                    options: Mapping[str, Any] | None = None, rules: Any = None
                    ) -> InitiativeView:
    """Roll ``system``'s initiative for ``combatants`` with the recorded rng (``rules``:
    default, the system's defaults; ``options``: its :attr:`initiative_options`)."""
    sys_obj = systems.get(system)
    start = rec.mark()
    report = sys_obj.explain_initiative(
        combatants, rec, sys_obj.default_rules() if rules is None else rules,
        dict(options or {}))
    dice = rec.labelled([(start + i, label) for i, label in report.steps])[start:]
    sides = {c.name: c.side for c in combatants}
    sides.update(report.sides)
    return InitiativeView(system, [(label, list(names)) for label, names in report.turns],
                          list(report.lines), dice, list(report.rules), sides,
                          report.timeline_title)


# -- exact odds ---------------------------------------------------------------------------

#: a chart's title without its rule IDs, for the sentence that repeats its numbers
_RULES_SUFFIX = re.compile(r"\s*\([^()]*\)$")


def _in_words(title: str, items: Iterable[tuple[str, Fraction]]) -> str:
    """The chart's numbers as text too (screen readers, tests, the book's checks)."""
    return h.paragraph(f"{title} : " + " ; ".join(f"{n} {percent(p)}" for n, p in items)
                       + ".")


def chances_html(chances: Sequence[Chances]) -> str:
    """Exact chances as the demos show them: « Chances exactes » and how they are
    computed, the charts side by side, their numbers in words, then the notes."""
    if not chances:
        return ""
    intro = " ".join(c.intro for c in chances if c.intro)
    drawn = [c for c in chances if c.values]
    charts = [_charts.bars(list(c.values), c.title) for c in drawn]
    parts = [h.section("Chances exactes", h.paragraph(intro))]
    if len(charts) > 1:
        parts.append(_charts.side_by_side(*charts))
    else:
        parts += charts
    parts += [_in_words(_RULES_SUFFIX.sub("", c.title), c.values) for c in drawn]
    parts += [h.paragraph(note) for c in chances for note in c.notes]
    return "".join(parts)


#: the last odds computed (the exact computations cost; a roster is often rolled again)
_CACHE: OrderedDict[tuple[Any, ...], str] = OrderedDict()
_CACHE_SIZE = 32


def initiative_odds(system: str | System[Any], combatants: Sequence[Combatant],
                    rules: Any = None, options: Mapping[str, Any] | None = None) -> str:
    """The exact chances the system (a name, or the object itself) gives for this
    roster's initiative, as HTML charts (``""`` when it gives none)."""
    sys_obj = system if isinstance(system, System) else systems.get(system)
    rules = sys_obj.default_rules() if rules is None else rules
    options = dict(options or {})
    key = (id(sys_obj), sys_obj.name, tuple(combatants), repr(rules),
           tuple(sorted((k, repr(v)) for k, v in options.items())))
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    html = chances_html(sys_obj.first_to_act(list(combatants), rules, options))
    _CACHE[key] = html
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return html
