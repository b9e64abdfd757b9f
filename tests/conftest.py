"""Fixtures every test folder shares.

``toy``: the toy fifth system (``tests/toy_system``, « jouet ») registered in the registry
(:func:`escarmouche.systems.register`) for one test, and forgotten after it. It is the one
place that registers it: a test module that needs it everywhere says
``pytestmark = pytest.mark.usefixtures("toy")``, a test or fixture asks for ``toy``. It is
not registered for the whole session on purpose: the other tests, and the doctests that
list the systems (``escarmouche.systems``), see the four built-in systems only.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from escarmouche import systems
from tests.toy_system import SYSTEM as TOY
from tests.toy_system import ToySystem


@pytest.fixture
def toy() -> Iterator[ToySystem]:
    """The toy system, registered under its name « jouet » for the test."""
    systems.register(TOY)
    try:
        yield TOY
    finally:
        systems.unregister(TOY.name)
