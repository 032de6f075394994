"""Errors raised by the engine.

Every error a user can cause is a ``ValueError`` subclass (flat, as in
python-chess), and every one leaves the game exactly as it was.
"""

from __future__ import annotations

import reprlib
from collections.abc import Iterable

__all__ = [
    "KumError",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidDeckError",
    "InvalidRecordError",
    "InvalidStateError",
    "InvalidCardError",
    "InvalidRulesError",
]


class KumError(ValueError):
    """Base class of every error the public API raises for bad input."""


class InvalidActionError(KumError):
    """Text that does not parse as an action (or names no card of this game)."""


class IllegalActionError(KumError):
    """A well-formed action that the rules forbid in the current position.

    The message names the rule, e.g. ``goblin 3 cannot go on mine 2: top card is goblin 5``.
    """


class InvalidCardError(KumError):
    """Text that does not parse as a card."""


class InvalidDeckError(KumError):
    """A deck table (CSV or list of rows) with a bad row; the message names row and field."""


class InvalidStateError(KumError):
    """A state dict or scenario that is malformed or describes an impossible position."""


class InvalidRecordError(KumError):
    """A game record that does not parse or does not replay; the message names the line."""


class InvalidRulesError(KumError):
    """A rule option with an unknown name or an out-of-range value."""


class _Brief(reprlib.Repr):
    """``repr`` for error messages: a few items and levels of any value, so a deeply
    nested value cannot exhaust the stack and a huge one cannot fill the message."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel, self.maxstring, self.maxother, self.maxlong = 3, 48, 48, 48

    def repr_int(self, x: int, level: int) -> str:
        # str() refuses ints past 4300 digits (sys.get_int_max_str_digits), and a long
        # one tells a reader nothing anyway: give its size.
        if x.bit_length() > 160:
            digits = int(x.bit_length() * 0.30102999566398)  # its digits, or one fewer
            digits += abs(x) >= 10**digits
            return f"<a {'negative ' if x < 0 else ''}number of {digits} digits>"
        return str(x)


_BRIEF = _Brief()


def shown(value: object, width: int = 60) -> str:
    """``repr(value)`` cut to ``width`` characters, safe for any value (messages quote it)."""
    text = _BRIEF.repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def shown_names(names: Iterable[object], most: int = 8) -> str:
    """Names (e.g. unknown keys) for a message: text as it is, anything else by
    :func:`shown`, sorted, at most ``most`` of them."""
    items = sorted(n if isinstance(n, str) and len(n) <= 40 else shown(n, 40) for n in names)
    return ", ".join(items[:most]) + (f" and {len(items) - most} more" if len(items) > most else "")
