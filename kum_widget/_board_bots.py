"""The board's bots: each bot seat's move, made at once (``run_bots``) or on the event
loop's timer after ``bot_delay``. ``GameWidget`` mixes this in. Nothing a bot or the game
does wrong escapes onto the loop: the board says what failed and stays usable.
"""

from __future__ import annotations

import asyncio
import random
from typing import TYPE_CHECKING, Any

from .bots import bot_move
from .core.errors import GameError, GameFault, cut, shown

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from .core.session import Session

__all__ = ["BoardBots"]


class BoardBots:
    """Bot turns for :class:`GameWidget`."""

    if TYPE_CHECKING:  # provided by GameWidget (and ipywidgets)
        _game: Session
        _bots: dict[int, Any]
        _closed: bool
        _pending: asyncio.TimerHandle | None
        _running_bots: bool
        error: str
        thinking: bool
        bot_delay: float

        def hold_sync(self) -> AbstractContextManager[None]: ...
        def _sync(self) -> None: ...

    def run_bots(self, max_moves: int = 10_000) -> int:
        """Let bot seats move now, synchronously, until a human is to move (a redo list
        is given up, as by any new move); return how many moves they made. A move the
        game refuses stops them (the board says why)."""
        if type(max_moves) is not int or max_moves < 0:
            raise GameError(f"max_moves must be a whole number >= 0, got {shown(max_moves)}")
        self._cancel_bots()
        moves = 0
        self._running_bots = True
        try:
            while moves < max_moves and self._bot_to_move():
                if not self._bot_step():
                    break
                moves += 1
        finally:
            self._running_bots = False
        return moves

    def _bot_to_move(self) -> bool:
        return not self._closed and not self._game.is_over and self._game.current_player in self._bots

    def _cancel_bots(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        self.thinking = False

    def _schedule_bots(self) -> None:
        # Bots wait while a redo list exists (a replay, or an undo from a cell).
        if self._pending is not None or self._running_bots or self._game.can_redo or not self._bot_to_move():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None  # no event loop (a script or a test): bots move at once
        if loop is None or self.bot_delay == 0:
            self.run_bots()
            return
        self._pending = loop.call_later(self.bot_delay, self._bot_step)
        self.thinking = True
        self._sync()  # the status says who is thinking

    def _bot_step(self) -> bool:
        """One bot move (the loop's timer calls it, and ``run_bots``); False when none was
        made. Nothing escapes: on the timer an exception would only reach the loop's log,
        leaving a board that says the bot is thinking and offers nothing."""
        self._pending = None
        self.thinking = False
        if not self._bot_to_move():
            return False
        game = self._game
        seat = game.current_player
        name = game.players[seat]  # the seat's name: checked text (a bot's own name may be anything)
        try:
            try:
                action = bot_move(game, self._bots[seat])
            except Exception as exc:  # a broken bot must not stop the game
                action = random.Random(game.state_id).choice(game.legal_actions())
                self.error = f"{name} failed ({self._fault(exc)}); it played a random legal move instead"
            game.apply(action)  # listeners re-sync and schedule the next step
        except Exception as exc:  # the game refused the move (a bug in the game): the position is as it was
            with self.hold_sync():
                self.error = f"{name} could not move ({self._fault(exc)}); the game is as it was: Undo, or start a New game"
                self._sync_quietly()
            return False
        return True

    @staticmethod
    def _fault(exc: BaseException) -> str:
        """What failed in a bot's or a game's own code, for the board, which every seat
        reads: the error's type and message, cut, but never the move it was about (a
        bot's move names cards of its hidden hand). A game's fault is told by the game's
        own error; the core's refusal of a bot's move by its type alone."""
        if isinstance(exc, GameFault) and exc.__cause__ is not None:
            exc = exc.__cause__  # the game's own error, not the move it failed on
        elif isinstance(exc, GameError):
            return f"{type(exc).__name__}: its move was not a legal action now"
        return f"{type(exc).__name__}: {cut(str(exc))}"

    def _sync_quietly(self) -> None:
        try:
            self._sync()  # the status no longer says the bot is thinking
        except Exception:  # a board that cannot be drawn: the error already says what failed
            pass

