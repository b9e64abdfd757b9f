"""Balance simulation: many automated fights of one roster, in simulation mode.

A fight is played by the encounter engine itself in simulation mode
(:meth:`escarmouche.encounter.Encounter.simulated`: no copies, no rng snapshots, no dice
in the log), which gives exactly the outcome of the full engine for the same dice
(``tests/rules/core/test_simulation.py`` checks it on thousands of seeds per system).

Fight ``i`` of a run seeded ``seed`` draws from its own streams, one per purpose
(:data:`DICE` « dés », :data:`TACTICS` « tactique »), derived from ``(seed, i,
purpose)`` by SHA-256 (:func:`stream`): fights are independent of each other and of
the order they are played in, so results are identical whatever the executor (this
process, local processes, a Dask cluster) and the number of workers; counts are exact
integers, merged in fight order. :func:`compare` plays two rule sets on the same
streams (common random numbers) and reports paired differences.

The package holds one module per concern; every name is importable from
``escarmouche.simulation`` itself:

* :mod:`escarmouche.simulation.streams`: the random streams of each fight
  (:func:`stream`);
* :mod:`escarmouche.simulation.fight`: one fight (:func:`play_fight`,
  :class:`FightResult`) and the roster it is played from (:func:`as_roster`);
* :mod:`escarmouche.simulation.balance`: the exact counts of many fights and their
  French report (:class:`Balance`, :func:`wilson`);
* :mod:`escarmouche.simulation.runner`: fights in batches, here, in local processes or
  on Dask (:func:`simulate`);
* :mod:`escarmouche.simulation.comparison`: two rule sets on the same dice
  (:func:`compare`, :func:`compare_steps`, :class:`Comparison`), paired, stopping at
  the precision asked;
* :mod:`escarmouche.simulation.precision`: the intervals (paired, independent), the
  rule that stops a run at a precision and stays honest, and the one French headline
  of a comparison (sampled, or solved exactly: :func:`exact_difference_sentence`);
* :mod:`escarmouche.simulation.sequential`: fights in batches, paired, on every core,
  stopping at the same fight whatever the number of processes;
* :mod:`escarmouche.simulation.sweeps`: one balance per point of an option grid
  (:func:`sweep`, :class:`Sweep`);
* :mod:`escarmouche.simulation.exact_sweep`: a duel solved exactly at every point of an
  option grid (:func:`exact_sweep`, :class:`ExactSweep`), drawn as a curve;

>>> from escarmouche import Combatant
>>> from escarmouche.encounter import Encounter
>>> from escarmouche.systems import d20
>>> duel = Encounter(d20.SYSTEM, [Combatant("Brune", "héros", {"PV": 12}),
...                          Combatant("Grolk", "orques", {"PV": 9})])
>>> bilan = simulate(duel, 40, seed=1)
>>> bilan.n, sum(bilan.wins.values()) + bilan.draws + bilan.timeouts
(40, 40)
>>> bilan == simulate(duel, 40, seed=1)
True
>>> print(bilan.table().headers[0])
Camp
>>> simulate(duel, 0)  # doctest: +NORMALIZE_WHITESPACE
Traceback (most recent call last):
  ...
escarmouche.errors.ParameterError: Valeur 0 refusée pour « combats » : un nombre entier entre 1
et 10 000 000 est attendu (CORE-ERR).
"""

from __future__ import annotations

from escarmouche.simulation.balance import Z95 as Z95
from escarmouche.simulation.balance import Balance, wilson
from escarmouche.simulation.balance import _Tally as _Tally
from escarmouche.simulation.comparison import CompareRun, Comparison, compare, compare_steps
from escarmouche.simulation.exact_sweep import ExactSweep, exact_sweep
from escarmouche.simulation.fight import FightResult, Prepared, play_fight, prepare
from escarmouche.simulation.fight import RosterLike as RosterLike
from escarmouche.simulation.fight import as_roster as as_roster
from escarmouche.simulation.fight import result_of as result_of
from escarmouche.simulation.inert import OptionEffects, inert_sentence, option_effects
from escarmouche.simulation.precision import (
    BATCH,
    PRECISIONS,
    difference_sentence,
    exact_difference_sentence,
)
from escarmouche.simulation.runner import DASK_TIMEOUT as DASK_TIMEOUT
from escarmouche.simulation.runner import MAX_FIGHTS, SimulateRun, simulate, simulate_steps
from escarmouche.simulation.runner import Progress as Progress
from escarmouche.simulation.runner import _chunks as _chunks
from escarmouche.simulation.runner import _execute as _execute
from escarmouche.simulation.runner import _Job as _Job
from escarmouche.simulation.streams import DICE, TACTICS, stream
from escarmouche.simulation.sweeps import MAX_GRID_POINTS as MAX_GRID_POINTS
from escarmouche.simulation.sweeps import Sweep, sweep
from escarmouche.simulation.sweeps import _option_label as _option_label
from escarmouche.simulation.sweeps import _value_label as _value_label

__all__ = [
    "BATCH",
    "DICE",
    "MAX_FIGHTS",
    "PRECISIONS",
    "TACTICS",
    "Balance",
    "CompareRun",
    "Comparison",
    "ExactSweep",
    "FightResult",
    "OptionEffects",
    "Prepared",
    "SimulateRun",
    "Sweep",
    "compare",
    "compare_steps",
    "difference_sentence",
    "exact_difference_sentence",
    "exact_sweep",
    "inert_sentence",
    "option_effects",
    "play_fight",
    "prepare",
    "simulate",
    "simulate_steps",
    "stream",
    "sweep",
    "wilson",
]
