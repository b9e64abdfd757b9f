"""The single error type of the engine (RULES.md CORE-ERR).

Every invalid input raises :class:`EscarmoucheError` (a :class:`ValueError`), with a
French message that names the field, the bad value and the rule ID.
"""

from __future__ import annotations

__all__ = [
    "DiceError",
    "EscarmoucheError",
    "IllegalActionError",
    "RuleBoundError",
    "invalid",
]


class EscarmoucheError(ValueError):
    """Invalid input for the engine.

    ``field``, ``value`` and ``rule`` are kept as attributes so that widgets and tests can
    read them; the message (``str(err)``) is French and ready to show to a user.
    """

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        value: object = None,
        rule: str | None = None,
    ) -> None:
        self.field = field
        self.value = value
        self.rule = rule
        parts = [message]
        if rule and rule not in message:
            parts.append(f"[{rule}]")
        super().__init__(" ".join(parts))


class DiceError(EscarmoucheError):
    """A malformed or out-of-bounds dice expression (CORE-DICE)."""


class IllegalActionError(EscarmoucheError):
    """An action that the rules forbid at this point of the fight."""


class RuleBoundError(EscarmoucheError):
    """A documented bound was reached (roll-offs, rerolls, explosions)."""


def invalid(field: str, value: object, rule: str, why: str) -> EscarmoucheError:
    """Build the standard French message « champ « x » = v : why (RULE) »."""
    return EscarmoucheError(
        f"{field} = {value!r} : {why}", field=field, value=value, rule=rule
    )
