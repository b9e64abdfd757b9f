"""The « Jouet » rules kernel seen from the engine (as
``escarmouche.systems.d100.kernel_doors`` for d100): a kernel's fight written back as the
engine's ``Encounter`` in today's save format (:func:`write_back`), and a log tuple told
as the engine's sentence (:func:`narrate`). Neither is on the simulation path: the
equivalence tests (``tests/rules/jouet/test_kernel.py``) and a reader of the log call them.
"""

from __future__ import annotations

from typing import Any

from escarmouche.text.typo import typographie
from tests.toy_system.kernel import Sheet, State
from tests.toy_system.narration import strike_sentence
from tests.toy_system.rules import TRACK

__all__ = ["narrate", "write_back"]


def write_back(sheet: Sheet, st: State) -> Any:
    """The fight ``st`` as the engine's ``Encounter`` (simulation mode), every track and
    counter as the engine writes them, with the system's state of ``ToySystem.start``
    and ``on_activation_start`` (« ordre », « a_frappe »); the log is not narrated (an
    empty log)."""
    enc = sheet.template.simulated()
    state = enc.state
    state.started, state.turn, state.cursor = True, st.turn, st.cursor
    state.finished, state.outcome = st.finished, st.outcome
    state.order = [sheet.names[i] for i in st.order]
    state.activations = {sheet.names[i]: n for i, n in st.activations.items()}
    state.system_state = {"ordre": list(state.order),
                          "a_frappe": sheet.names[st.struck] if st.struck >= 0 else None}
    for i, f in enumerate(state.fighters.values()):
        f.tracks[TRACK], f.out = st.health[i], st.out[i]
    return enc


def narrate(sheet: Sheet, entry: tuple[int, ...]) -> str:
    """The French sentence of a blow of the kernel's log, as the engine's log holds it
    (``actions.frapper``'s words, typeset as ``Ctx.emit`` does; JOUET-ATK-1)."""
    _, _, actor, target, _, damage, left = entry
    return typographie(strike_sentence(sheet.names[actor], sheet.names[target], damage,
                                       left))
