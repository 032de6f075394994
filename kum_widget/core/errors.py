"""Errors every game shares: flat ``ValueError`` subclasses (as in python-chess).

Every error a user can cause is one of these, names what is wrong, and leaves the
session exactly as it was. A game's own errors subclass them (Kings Under
Mountains' ``KumError`` is a :class:`GameError`).
"""

from __future__ import annotations

import reprlib
from collections.abc import Iterable

__all__ = ["GameError", "GameFault", "IllegalMoveError", "InvalidOptionError", "InvalidSaveError", "cut", "shown", "shown_names"]


class GameError(ValueError):
    """Base class of every error the public API raises for bad input."""


class IllegalMoveError(GameError):
    """An action that is not legal now (or text that names none); the message says why."""


class InvalidOptionError(GameError):
    """A rule option, player list or seed that the game does not take."""


class GameFault(GameError):
    """The game's own code failed on an action (a bug in the game, not in the input);
    the session put the position back as it was."""


class InvalidSaveError(GameError):
    """A saved game (dict or record) that does not read or does not replay."""


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


def cut(text: str, width: int = 200) -> str:
    """``text`` cut to ``width`` characters (a message quoting another error's text)."""
    return text if len(text) <= width else text[: width - 3] + "..."


def shown_names(names: Iterable[object], most: int = 8) -> str:
    """Names (e.g. unknown keys) for a message: text as it is, anything else by
    :func:`shown`, sorted, at most ``most`` of them."""
    items = sorted(n if isinstance(n, str) and len(n) <= 40 else shown(n, 40) for n in names)
    return ", ".join(items[:most]) + (f" and {len(items) - most} more" if len(items) > most else "")
