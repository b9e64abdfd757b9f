"""Old name of :mod:`escarmouche.rng` (``Rng``, ``ScriptedRolls``, …), kept so that a
system written outside the repository against it still imports. New code imports
``escarmouche.rng``."""

from escarmouche.rng import *  # noqa: F403
from escarmouche.rng import __all__ as __all__
