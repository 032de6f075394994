"""The board's browser messages: one per click, each checked before anything changes, and
each answered (``{"kind": "answer", "id": ...}``) so the page never waits for a change that
will not come. ``GameWidget`` mixes this in; the page can write nothing else (``set_state``).
One message is not a click: ``{"kind": "view"}``, from a view that has not got the private
part the traits name (a hot seat's hand, see ``widget.py``); it changes nothing, and the
private part is sent again before its answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .bots import BOT_NAMES
from .core.errors import GameError, cut, shown, shown_names

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from .core.session import Session

__all__ = ["BrowserMessages"]

# What each browser message may carry ("id" is the page's token for the answer).
_MSG_FIELDS = {
    "act": {"action"},
    "undo": set(),
    "redo": set(),
    "ready": set(),
    "new_game": {"seed", "bot"},
    "replay": set(),
    "view": set(),  # a new view (or a reloaded page) asks for the private part it shows
}


class BrowserMessages:
    """The page's messages, trusted in nothing (see :class:`GameWidget`)."""

    if TYPE_CHECKING:  # provided by GameWidget (and ipywidgets)
        _game: Session
        _bots: dict[int, Any]
        _offered: list[str]
        _private_due: bool
        error: str
        state_id: int

        def hold_sync(self) -> AbstractContextManager[None]: ...
        def send(self, content: dict[str, Any]) -> None: ...
        def _sync(self) -> None: ...
        def _send_private(self) -> None: ...
        def ready(self) -> None: ...
        def undo(self) -> int: ...
        def redo(self) -> int: ...
        def act(self, action: Any) -> list[Any]: ...
        def new_game(self, seed: int | None = None, *, bots: dict[int, Any] | None = None, **game_options: Any) -> None: ...
        def _replay_page(self) -> str: ...
        def _replay_name(self) -> str: ...

    def _on_browser_msg(self, widget: Any, content: Any, buffers: Any) -> None:
        token = content.get("id") if isinstance(content, dict) else None
        if not isinstance(token, str) or len(token) > 64:
            token = None
        extra: dict[str, Any] = {}
        with self.hold_sync():  # one update per click, whatever it changes
            try:
                extra = self._handle_browser(content) or {}
            except GameError as exc:
                self.error = str(exc)
            except Exception as exc:  # never a traceback in the notebook for a click
                self.error = f"internal error ({type(exc).__name__}): {cut(str(exc))}"
                self._sync()
        self._send_private()  # (hold_sync sent it, unless nothing at all changed)
        self.send({"kind": "answer", "id": token, "state_id": self.state_id, **extra})

    def _handle_browser(self, content: Any) -> dict[str, Any] | None:
        if not isinstance(content, dict):
            raise GameError("refused a message from the board: not an object")
        kind = content.get("kind")
        if not isinstance(kind, str) or kind not in _MSG_FIELDS:
            raise GameError(f"refused a message from the board: unknown kind {shown(kind, 50)}")
        extra = set(content) - _MSG_FIELDS[kind] - {"kind", "state_id", "id"}
        if extra:
            raise GameError(f"refused a {shown(kind)} message: unknown field {shown_names(extra, 1)}")
        sid = content.get("state_id")
        if kind == "view":  # changes nothing: the private part (if any) is sent again, before the answer
            self._private_due = True
            return None
        if type(sid) is not int or sid != self._game.state_id:
            raise GameError("that click was on an old board (the game has moved on); try again")
        if kind == "ready":
            self.ready()
        elif kind == "undo":
            if not self.undo():
                raise GameError("nothing to undo: no earlier decision of a player at this board")
            self.error = ""
        elif kind == "redo":
            if not self.redo():
                raise GameError("nothing to redo")
            self.error = ""
        elif kind == "new_game":
            self._browser_new_game(content)
        elif kind == "replay":  # a one-off: the file comes back in the answer, nothing changes
            return {"replay": self._replay_page(), "filename": self._replay_name()}
        else:
            text = content.get("action")
            if not isinstance(text, str) or len(text) > 200:
                raise GameError("refused a message from the board: 'action' must be action text")
            if text not in self._offered:
                if not self._offered:
                    raise GameError("it is not your turn to act on this board")
                raise GameError(f"refused {text[:80]!r}: not a legal action now")
            self.act(text)
        return None

    def _browser_new_game(self, content: dict[str, Any]) -> None:
        seed = content.get("seed")
        if seed is not None and (type(seed) is not int or not 0 <= seed < 2**31):
            raise GameError("new game: seed must be a whole number 0..2^31-1 or empty")
        bot = content.get("bot")
        bots = None
        if bot is not None:
            if not isinstance(bot, str) or bot not in BOT_NAMES:
                raise GameError(f"new game: unknown bot {shown(bot, 30)}")
            if not self._bots:
                raise GameError("new game: this board has no bot seat to change")
            bots = dict.fromkeys(self._bots, bot)
        self.new_game(seed=seed, bots=bots)
