"""The d12 initiative and ambush explained for a reader (D12-INIT-1..5, D12-SURPRISE-1/2):
:func:`explain_initiative` and :func:`explain_surprise`, what ``D12System.explain_initiative``
and ``D12System.explain_surprise`` answer. They roll with the rules of
:mod:`escarmouche.systems.d12.initiative` and only word the result.
"""

from __future__ import annotations

from collections.abc import Sequence

from escarmouche.model import Combatant, check_roster
from escarmouche.rng import Rng
from escarmouche.state import ENVIRONMENT
from escarmouche.systems.d12.initiative import (
    bonus_turn_participants,
    initiative,
    roll_bonus_turn,
)
from escarmouche.systems.d12.rules import DEFAULT_RULES, Rules
from escarmouche.systems.describe import InitiativeReport, SurpriseReport
from escarmouche.text.fmt import die_of

__all__ = ["PASSIVE_EVENTS", "explain_initiative", "explain_surprise"]


#: the timeline's name for the environment's slot (D12-INIT-5)
PASSIVE_EVENTS = "événements passifs"


def explain_initiative(combatants: Sequence[Combatant], rng: Rng, *,
                       environment: bool = False, rules: Rules = DEFAULT_RULES
                       ) -> InitiativeReport:
    """Roll the group initiative (:func:`initiative`) and explain it for a reader: the
    groups in acting order with their value (the environment's slot holds « événements
    passifs »), the sentences of :meth:`D12Initiative.narration`, the dice named (one
    d12 per combatant per attempt, then the roll-offs)."""
    init = initiative(combatants, rng, environment=environment, rules=rules)
    values = {g.side: g.value for g in init.group_results}
    turns = tuple(
        (f"{side} ({values[side]})" if side in values else side,
         tuple(members if members or side != ENVIRONMENT else [PASSIVE_EVENTS]))
        for side, members in init.groups)
    names = [c.name for c in combatants]
    steps = [(i, die_of("initiative", n)) for i, n in enumerate(names)]
    for k in range(1, len(init.attempts)):
        steps += [(k * len(names) + i, die_of("relance", n)) for i, n in enumerate(names)]
    steps.append((len(init.attempts) * len(names), "départage"))
    return InitiativeReport(turns, tuple(init.narration()), tuple(init.rules), tuple(steps),
                            "Ordre des groupes (chaque tour)", {PASSIVE_EVENTS: ENVIRONMENT})


def explain_surprise(combatants: Sequence[Combatant], attackers: str, unaware: bool,
                     rng: Rng, *, rules: Rules = DEFAULT_RULES) -> SurpriseReport:
    """The side ``attackers`` ambushes the others (``unaware``) or not: the bonus turn
    (:func:`roll_bonus_turn`; group initiative comes when it ends, D12-SURPRISE-1) or,
    without an ambush, the group initiative (:func:`initiative`), explained for a reader
    (without the exact chances)."""
    roster = check_roster(combatants, rule="D12-SURPRISE-1")
    ambush = attackers if unaware else None
    participants = bonus_turn_participants(roster, ambush)
    if unaware:
        # the bonus turn only: group initiative is rolled when it ends, by those still
        # standing (D12-SURPRISE-1)
        init = roll_bonus_turn(roster, rng, ambush_by=attackers, rules=rules)
        steps = [(i, die_of("tour bonus", c.name))
                 for i, c in enumerate(participants)]
        steps.append((len(participants), "départage du tour bonus"))
    else:
        init = initiative(roster, rng, rules=rules)
        steps = [(i, die_of("initiative", c.name)) for i, c in enumerate(roster)]
        steps.append((len(roster), "relance ou départage"))
    why = list(init.narration())
    if not unaware:
        why.insert(0, "Pas d’embuscade : pas de tour bonus (D12-SURPRISE-1).")
    alert = [c.name for c in participants if c.side != attackers]
    if len(alert) == 1:
        why.append(f"{alert[0]} : défenseur « alerte », joue au tour bonus à son initiative "
                   "individuelle (D12-SURPRISE-2).")
    elif alert:
        why.append(f"{', '.join(alert)} : défenseurs « alertes », jouent au tour bonus à "
                   "leur initiative individuelle (D12-SURPRISE-2).")
    when = "Tour bonus (tour 0)" if unaware else "Pas de tour bonus"
    return SurpriseReport(when, tuple(init.bonus_turn), tuple(why), tuple(init.rules),
                          tuple(steps))
