"""Private implementation of the ``d100`` system (seed 001); the public surface is
:mod:`escarmouche.systems.d100`."""
