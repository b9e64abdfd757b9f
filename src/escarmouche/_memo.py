"""Old name of :mod:`escarmouche.memo` (``Memo``), kept so that a system written outside
the repository against it still imports. New code imports ``escarmouche.memo``."""

from escarmouche.memo import *  # noqa: F403
from escarmouche.memo import __all__ as __all__
