"""Errors raised by Kings Under Mountains.

Every error a user can cause is a ``ValueError`` subclass (flat, as in
python-chess), and every one leaves the game exactly as it was. ``KumError`` is a
``core.GameError``, so code written for any game catches these too.
"""

from __future__ import annotations

from ...core.errors import GameError, IllegalMoveError, InvalidOptionError, InvalidSaveError, shown, shown_names

__all__ = [
    "KumError",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidDeckError",
    "InvalidRecordError",
    "InvalidStateError",
    "InvalidCardError",
    "InvalidRulesError",
    "shown",
    "shown_names",
]


class KumError(GameError):
    """Base class of every error the public API raises for bad input (a ``core.GameError``)."""


class InvalidActionError(KumError, IllegalMoveError):
    """Text that does not parse as an action (or names no card of this game)."""


class IllegalActionError(KumError, IllegalMoveError):
    """A well-formed action that the rules forbid in the current position.

    The message names the rule, e.g. ``goblin 3 cannot go on mine 2: top card is goblin 5``.
    """


class InvalidCardError(KumError):
    """Text that does not parse as a card."""


class InvalidDeckError(KumError):
    """A deck table (CSV or list of rows) with a bad row; the message names row and field."""


class InvalidStateError(KumError, InvalidOptionError):
    """A state dict or scenario that is malformed or describes an impossible position."""


class InvalidRecordError(KumError, InvalidSaveError):
    """A game record that does not parse or does not replay; the message names the line."""


class InvalidRulesError(KumError, InvalidOptionError):
    """A rule option with an unknown name or an out-of-range value."""
