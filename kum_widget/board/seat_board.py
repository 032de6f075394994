"""``kum.join(url, code)``: the board of one seat at a referee's table. The referee holds the
game; this board draws the frames it sends for this seat (the same frames a local board draws
from), sends each click to it with the state it was made on, and answers the page with the
referee's answer. ``board.game`` is the game as this seat knows it (``SeatGame``): nothing else
of the game is in this kernel to find.

Frames arrive on the connection's own thread; the board takes them on the kernel's event loop
when the kernel has one (a notebook), at once otherwise (a script).
"""

from __future__ import annotations

from typing import Any

from ..core import VERSION
from ..core.errors import GameError, shown
from ..referee.client import SeatClient, SeatGame
from ..referee.table import Refused
from .frame_board import FrameBoard, KernelLoop

__all__ = ["SeatBoard", "join"]

# What a seat at a table may not ask of its board: the referee's to do, each with why.
NOT_HERE = {
    "redo": "redo is the referee's: a game at a table is played forward",
    "new_game": "a new game at a table is the teacher's to start",
    "hint": "no hint in a game against other players",
    "replay": "the replay of a game at a table is the referee's to write, at the end",
    "save_for_lab": "the referee hands in the table's games",
}


class SeatBoard(FrameBoard):
    """The board of the seat ``code`` names at the referee at ``url`` (``join``)."""

    _client: SeatClient | None = None  # (None on a board whose joining was refused: nothing to close)

    def __init__(self, url: str, code: str, *, timeout: float = 30.0, ssl: Any = None) -> None:
        self._kernel = KernelLoop()  # (made here, on the kernel's thread)
        self._client = SeatClient(url, code, game=None, version=VERSION, ssl=ssl, timeout=timeout)  # joined, or refused
        self._game = SeatGame(self._client)
        super().__init__(not_here={**NOT_HERE, "undo": ""}, controls=["undo"], seat=self._game.seat)
        self._client.on_frame = self._frame_came
        self._client.on_taken_over = lambda: self._kernel.call(self._taken_over)
        self.show(self._client.frame, newer_only=True)  # the latest: any frame since came through _frame_came too

    @property
    def game(self) -> SeatGame:
        """The game as this seat knows it: its view, its legal actions, ``act``..."""
        return self._game

    def act(self, action: int | str) -> None:
        """Play ``action`` (a legal action's text or id) for this seat, as from a cell."""
        self._game.act(action)

    def undo(self) -> int:
        """Take back your own last move, when the referee allows it (``SeatGame.undo``)."""
        return self._game.undo()

    def play_with(self, bot: str = "greedy") -> None:
        """Let the referee's ``bot`` play your seat (``SeatGame.play_with``) until ``take_back``."""
        self._game.play_with(bot)

    def take_back(self) -> None:
        """Play your seat again after a bot stood in for you."""
        self._game.take_back()

    def _taken_over(self) -> None:
        self.error = "another connection took this seat with your code: this board no longer plays (join again to take it back)"

    def _frame_came(self, frame: dict[str, Any]) -> None:
        self._kernel.call(lambda: self.show(frame, newer_only=True))

    def on_act(self, token: Any, action: int, state: int) -> None:
        """A click: to the referee, whose answer answers the page."""
        if self._client is None:
            self.answer(token, "this board is not at a table")
            return
        self._client.submit("act", {"action_id": action, "state_id": state}, lambda error: self._kernel.call(self.answer, token, error))

    def on_other(self, token: Any, kind: str) -> None:
        if kind == "undo" and self._client is not None:  # the referee says whether it may
            self._client.submit("undo", {"state_id": self.state_id}, lambda error: self._kernel.call(self.answer, token, error))
        else:
            super().on_other(token, kind)

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
        super().close()

    def __repr__(self) -> str:
        return f"<SeatBoard {self._game!r}>"


def join(url: str, code: str, *, timeout: float = 30.0, ssl: Any = None) -> SeatBoard:
    """The board of your seat at a referee's table: ``url`` (``ws://host:port/``, from the
    teacher) and your ``code``. Clicks and ``board.act(...)`` go to the referee; ``board.game``
    is the game as your seat knows it."""
    if not isinstance(code, str) or not code.strip():
        raise GameError(f"join: your code is the text the teacher gave you (32 hex digits), got {shown(code)}")
    try:
        return SeatBoard(url, code.strip(), timeout=timeout, ssl=ssl)
    except Refused as refused:
        raise GameError(f"join: the referee at {url} refused: {refused}") from None
