"""What the edition tests share: another value an option's declaration accepts, so that
a test changes a default without stating the default it assumes (tests follow editions:
a published change of default leaves them meaningful)."""

from __future__ import annotations

from typing import Any

__all__ = ["other_value"]


def other_value(option: Any, value: object) -> object:
    """A value other than ``value`` that ``option`` (:class:`escarmouche.options.Option`)
    accepts: the other boolean, the next or previous whole number within bounds (3 or 1
    for an optional number left unset), another declared choice; ``None`` when there is
    no scalar one (a set of traits, a weapon, the action catalogue)."""
    if isinstance(value, bool):
        return not value
    if value is None or isinstance(value, int):
        for v in ((3, 1) if value is None else (value + 1, value - 1)):
            try:
                option.check_value(v)
            except ValueError:
                continue
            return v
    return next((c for c in option.choices or () if c != value), None)
