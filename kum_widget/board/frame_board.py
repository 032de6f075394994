"""A board that draws the frames it is handed (``core.frame``: what one viewer may know) and
holds no game: a seat at a referee's table (``seat_board``), a table in the teacher's view
(``tables_view``). Its page gets an answer to every message; what this board cannot do is
refused with the reason (``not_here``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from ..core.errors import shown
from .widget import BoardView

__all__ = ["FrameBoard", "KernelLoop"]


class KernelLoop:
    """The loop of the kernel that made a board (None in a script): news from a referee's
    connection, which comes on the connection's own thread, is handed to it, so that a widget's
    traits change on the thread that owns them; in a script, at once."""

    def __init__(self) -> None:
        try:
            self.loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            self.loop = None

    def call(self, call: Callable[..., None], *args: Any) -> None:
        """``call(*args)``: on the kernel's loop if it runs, else now."""
        if self.loop is not None and self.loop.is_running():
            self.loop.call_soon_threadsafe(call, *args)
        else:
            call(*args)


class FrameBoard(BoardView):
    """``FrameBoard(not_here={kind: why}, controls=[...], seat=...)``: draws each frame given
    to :meth:`show`; a message from its page of a kind in ``not_here`` is answered with its
    reason, an action with :meth:`on_act` (by default refused: nobody plays here)."""

    def __init__(self, *, not_here: dict[str, str], controls: list[str] | None = None, seat: int | None = None) -> None:
        super().__init__(controls=list(controls or []), reveal=False, bot_delay=0.0, pace="normal", seat=seat)
        self._not_here = dict(not_here)
        self.on_msg(self._on_page)

    def show(self, frame: dict[str, Any], *, newer_only: bool = False) -> None:
        """Draw ``frame`` (a frame's JSON); ``newer_only``: not if it is older than the one
        shown (frames may cross on the way)."""
        if not frame or (newer_only and frame.get("state_id", -1) < self.state_id):
            return
        with self.hold_sync():
            self.board = frame["board"]
            self.legal = {"actions": frame["actions"]}
            self.log_lines = list(frame["log"])
            self.last_move = dict(frame["last_move"])
            self.state_id = int(frame["state_id"])
            self.step = self.max_step = int(frame["sequence"])

    def _on_page(self, widget: Any, content: Any, buffers: Any) -> None:
        token = content.get("id") if isinstance(content, dict) else None
        kind = content.get("kind") if isinstance(content, dict) else None
        if kind == "act":
            action, state = content.get("action_id"), content.get("state_id")
            if type(action) is not int:
                self.answer(token, f"an action id is a whole number, got {shown(action)}")
            elif state != self.state_id:
                self.answer(token, "the game has moved on: your board is drawn again")
            else:
                self.on_act(token, action, state)
        elif isinstance(kind, str) and kind in self._not_here:
            self.on_other(token, kind)
        else:
            self.answer(token, None)  # ready, view, pace: nothing to do here

    def on_act(self, token: Any, action: int, state: int) -> None:
        """The page's click on ``action`` at ``state`` (fresh): answer it (:meth:`answer`)."""
        self.answer(token, self._not_here.get("act", "nobody plays at this board"))

    def on_other(self, token: Any, kind: str) -> None:
        """The page asked for ``kind`` (one of ``not_here``): by default, its reason."""
        self.answer(token, self._not_here[kind])

    def answer(self, token: Any, error: str | None) -> None:
        """Answer the page's message ``token``: done, or refused with ``error``."""
        self.error = error or ""
        self.send({"kind": "answer", "id": token, "state_id": self.state_id})
