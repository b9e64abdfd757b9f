"""« Jouet », a fifth system: the model a newcomer copies to add a system.

It is deliberately tiny, but it has every file a built-in system has, in the same roles:

============== ===========================================================================
``rules.py``   the frozen ``Rules`` dataclass (the options, each declared once with
               ``escarmouche.options.option``: French label and key, rule IDs, bounds)
               and the constants and tables of the rules (rules as data)
``initiative.py`` the initiative: pure functions of the dice (``resolve_initiative``, which
               checks them, and its arithmetic ``order_by_initiative``) and
               the rolling wrapper (``roll_initiative``) that documents its draw order
``actions.py`` the action catalogue (:class:`~escarmouche.systems.base.ActionSpec`, one per
               action, each documented) and one resolver per action
``odds.py``    exact odds (``Fraction``), computed from the same pure functions
``narration.py`` the French sentences the log shows
``system.py``  the hooks that plug the rules into the encounter engine, what the system
               says of itself (title, sample roster …), and ``SYSTEM``
``kernel.py``  the rules kernel that simulation mode plays (sheet, state, ``refusal``,
               ``candidates``, ``play``, ``run``): its docstring is the recipe
``kernel_doors.py`` the kernel seen from the engine: ``write_back``, ``narrate``
============== ===========================================================================

Its rules, numbered as in RULES.md (code, tests and book cite these IDs):

* **JOUET-INIT-1** — each combatant rolls 1d6 + ``init``; the highest acts first; a
  tie keeps the roster order.
* **JOUET-ATK-1** — « frapper » a standing enemy deals 1d``faces`` PV (option
  ``faces``, 6 by default); one blow per activation.
* **JOUET-END-1** — a combatant at 0 PV is out of the fight.

To add a system: copy this package into ``src/escarmouche/systems/<nom>/``, rename,
write the rules as pure functions with their rule IDs, then add the name to
``escarmouche.systems.NAMES`` (built-in) or call ``escarmouche.systems.register(SYSTEM)``
(a designer's own). The contract test (``tests/contract/test_contract.py``) then checks it like
the four others.
"""

from tests.toy_system.actions import ACTIONS, Strike, resolve_strike
from tests.toy_system.initiative import Initiative, resolve_initiative, roll_initiative
from tests.toy_system.odds import initiative_odds, strike_distribution
from tests.toy_system.rules import Rules
from tests.toy_system.system import SYSTEM, ToySystem

#: the name the older tests used
TOY = SYSTEM
ToyRules = Rules

__all__ = [
    "ACTIONS",
    "SYSTEM",
    "TOY",
    "Initiative",
    "Rules",
    "Strike",
    "ToyRules",
    "ToySystem",
    "initiative_odds",
    "resolve_initiative",
    "resolve_strike",
    "roll_initiative",
    "strike_distribution",
]
