"""Old name of :mod:`escarmouche.checks` (the validators), kept so that a system written outside
the repository against it still imports. New code imports ``escarmouche.checks``."""

from escarmouche.checks import *  # noqa: F403
from escarmouche.checks import __all__ as __all__
