"""The GM's tracker save file (``escarmouche/schemas/suivi-4.schema.json``): what
« Exporter » writes and « Importer » reads back, for tools and tests.

- :func:`tracker_save`: the fight, its undo history and the fighters hidden from the
  players, as the JSON text of a ``suivi`` file of format 4 (French keys, the fight
  and the states of its history in the save format 2);
- :func:`load_tracker_save` / :func:`load_tracker_save_steps`: a save of any format read
  back (formats 1 to 3 with a French note naming the new keys), refused in French
  (:class:`~escarmouche.errors.SaveError`) with nothing changed;
- :data:`STEP_KEYS`: the step keys of format 2 and their French names since format 3;
- :class:`HideSteps`: the « caché » steps kept beside the fight's history.

The implementation lives with the tracker's model (``_table``, ``_tracker_model``); this
module is the public door to it.
"""

from __future__ import annotations

from escarmouche_widgets._table import (
    STEP_KEYS,
    load_tracker_save,
    load_tracker_save_steps,
    tracker_save,
)
from escarmouche_widgets._tracker_model import HideSteps

__all__ = ["STEP_KEYS", "HideSteps", "load_tracker_save", "load_tracker_save_steps",
           "tracker_save"]
