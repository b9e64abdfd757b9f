"""A recording wrapper around any rng: every die drawn, for the « dés lancés » line."""

from __future__ import annotations

from escarmouche.dice import Rng

__all__ = ["Recorder"]


class Recorder:
    """Wraps an rng (``random.Random`` or ``ScriptedRolls``) and keeps each draw as
    ``(faces, value)``; :meth:`labelled` names them for the reader."""

    def __init__(self, inner: Rng) -> None:
        self.inner = inner
        self.draws: list[tuple[int, int]] = []

    def randint(self, a: int, b: int) -> int:
        value = self.inner.randint(a, b)
        self.draws.append((b, value))
        return value

    def mark(self) -> int:
        """The number of draws so far (to label the draws of one step)."""
        return len(self.draws)

    def labelled(self, steps: list[tuple[int, str]]) -> list[tuple[int, int, str]]:
        """``steps`` = ``[(start, label), …]`` from :meth:`mark`: each draw gets the label
        of the last step that started before it."""
        out: list[tuple[int, int, str]] = []
        for i, (faces, value) in enumerate(self.draws):
            label = ""
            for start, name in steps:
                if start <= i:
                    label = name
            out.append((faces, value, label))
        return out
