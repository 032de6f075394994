"""A board's bots: when they move (``BotDriver``: at once, or on the event loop's timer
after ``bot_delay`` scaled by the pace), which move (``bot_choice``), what each weighed
(kept for the ``analysis`` trait), and what the board says when a bot or the game fails,
in words every seat may read. Nothing a bot does wrong stops the game.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ._board_insight import Decision, bot_decision
from .bots import bot_move
from .core.errors import GameError, GameFault, cut, shown
from .core.session import Session

if TYPE_CHECKING:
    from ._seats_policy import Seats

__all__ = ["BotDriver", "bot_choice", "fault"]


class BotDriver:
    """The bots of ``board`` (a ``GameWidget``: its traits ``thinking`` and ``error`` and
    its ``hold_sync``) on ``session``, seated by ``seats``. ``redraw`` draws the board again
    (``quietly``: never raising); ``delay()`` is the pause before a bot's move now.
    ``decision`` is the last bot decision or hint, for the ``analysis`` trait."""

    def __init__(self, session: Session, seats: Seats, board: Any, redraw: Callable[[], None], quietly: Callable[[], None],
                 delay: Callable[[], float]) -> None:
        self.session, self.seats, self.board = session, seats, board
        self.redraw, self.quietly, self.delay = redraw, quietly, delay
        self.pending: asyncio.TimerHandle | None = None  # a bot's move on the loop's timer
        self.running = False
        self.closed = False
        self.decision: Decision | None = None

    def to_move(self) -> bool:
        return not self.closed and self.seats.bot_to_move()

    def cancel(self) -> None:
        if self.pending is not None:
            self.pending.cancel()
            self.pending = None
        self.board.thinking = False

    def schedule(self) -> None:
        """The next bot's move, if a bot is to move and none is on its way."""
        if self.pending is not None or self.running or self.seats.bots_wait() or not self.to_move():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None  # no event loop (a script or a test): bots move at once
        delay = self.delay()
        if loop is None or delay == 0:
            self.run()
            return
        self.pending = loop.call_later(delay, self.step)
        self.board.thinking = True
        self.redraw()  # the status says who is thinking

    def repace(self, was: float, now: float) -> None:
        """The bot on its way, at a new pace: the share of the wait still to come is kept
        (``was`` and ``now``: the whole delays before and after), so changing the speed
        again and again never holds a bot back."""
        pending = self.pending
        if pending is None:
            return
        pending.cancel()
        self.pending = None
        try:
            loop = asyncio.get_running_loop() if was > 0 and now > 0 else None
        except RuntimeError:
            loop = None  # no event loop here (as schedule: the bot moves at once)
        share = max(0.0, min(1.0, (pending.when() - loop.time()) / was)) if loop is not None else 0.0
        if loop is None or share * now <= 0:
            self.board.thinking = False
            self.step()
            return
        self.pending = loop.call_later(share * now, self.step)

    def run(self, max_moves: int = 10_000) -> int:
        """``GameWidget.run_bots``."""
        if type(max_moves) is not int or max_moves < 0:
            raise GameError(f"max_moves must be a whole number >= 0, got {shown(max_moves)}")
        self.cancel()
        moves = 0
        self.running = True
        try:
            while moves < max_moves and self.to_move():
                if not self.step():
                    break
                moves += 1
        finally:
            self.running = False
        return moves

    def step(self) -> bool:
        """One bot move (the loop's timer calls it, and ``run``); False when none was
        made. Nothing escapes: on the timer an exception would only reach the loop's log,
        leaving a board that says the bot is thinking and offers nothing."""
        self.pending = None
        self.board.thinking = False
        if not self.to_move():
            return False
        game = self.session
        seat = game.current_player
        name = game.players[seat]  # the seat's name: checked text (a bot's own name may be anything)
        try:
            bot = self.seats.bots[seat]
            action, failed = bot_choice(game, bot)
            if failed:
                self.board.error = failed
            self.decision = None if failed else bot_decision(game, seat, bot, int(action))  # what it weighed
            game.apply(action)  # listeners re-sync and schedule the next step
        except Exception as exc:  # the game refused the move (a bug in the game): the position is as it was
            with self.board.hold_sync():
                self.board.error = f"{name} could not move ({fault(exc)}); the game is as it was: Undo, or start a New game"
                self.quietly()
            return False
        return True


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
