"""The random streams of a simulation (CORE-RNG): one per fight and purpose.

Fight ``i`` of a run seeded ``seed`` draws from its own streams, one per purpose
(:data:`DICE` « dés », :data:`TACTICS` « tactique »), derived from ``(seed, i,
purpose)`` by SHA-256 (:func:`stream`): fights are independent of each other and of
the order they are played in, so results are identical whatever the executor and the
number of workers.
"""

from __future__ import annotations

import hashlib
import random

__all__ = ["DICE", "TACTICS", "stream"]

#: the purposes of the random streams of one fight (one independent stream each)
DICE = "dés"
TACTICS = "tactique"


def stream(seed: int, index: int, purpose: str) -> random.Random:
    """The random stream of fight ``index`` for ``purpose``: a ``random.Random`` seeded
    with the first 8 bytes of SHA-256(« seed:index:purpose ») (stable across machines
    and Python versions).

    >>> a, b = stream(1, 0, DICE), stream(1, 0, TACTICS)
    >>> a.randint(1, 10**9) != b.randint(1, 10**9)
    True
    >>> stream(1, 0, DICE).random() == stream(1, 0, DICE).random()
    True
    """
    digest = hashlib.sha256(f"{seed}:{index}:{purpose}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))
