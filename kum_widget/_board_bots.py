"""A bot seat's move on a board, and what the board says when a bot or the game fails.

The board (``GameWidget``) decides when a bot moves (``Seats.bot_to_move``, at once or on the
event loop's timer after ``bot_delay``); these say which move, and what failed, in words
every seat may read. Nothing a bot does wrong stops the game.
"""

from __future__ import annotations

import random
from typing import Any

from .bots import bot_move
from .core.errors import GameError, GameFault, cut
from .core.session import Session

__all__ = ["bot_choice", "fault"]


def bot_choice(session: Session, bot: Any) -> tuple[Any, str]:
    """The move of ``bot`` for the seat to act, and "" ; when the bot fails, a random legal
    move instead (the same one for the same position) and what the board says about it."""
    try:
        return bot_move(session, bot), ""
    except Exception as exc:  # a broken bot must not stop the game
        name = session.players[session.current_player]  # the seat's name: checked text (a bot's own name may be anything)
        action = random.Random(session.state_id).choice(session.legal_actions())
        return action, f"{name} failed ({fault(exc)}); it played a random legal move instead"


def fault(exc: BaseException) -> str:
    """What failed in a bot's or a game's own code, for the board, which every seat
    reads: the error's type and message, cut, but never the move it was about (a
    bot's move names cards of its hidden hand). A game's fault is told by the game's
    own error; the core's refusal of a bot's move by its type alone."""
    if isinstance(exc, GameFault) and exc.__cause__ is not None:
        exc = exc.__cause__  # the game's own error, not the move it failed on
    elif isinstance(exc, GameError):
        return f"{type(exc).__name__}: its move was not a legal action now"
    return f"{type(exc).__name__}: {cut(str(exc))}"
