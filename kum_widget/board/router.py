"""The page's messages to a board: one per click, each checked before anything changes,
and each answered (``{"kind": "answer", "id": ...}``), so the page never waits for a
change that will not come. The page can write nothing else (``GameWidget.set_state``).

A message is ``{"kind": ..., "state_id": ..., "id": ...}`` and the fields of its kind
(``_FIELDS``); ``id`` is the page's token for the answer. A click names the state it was
made on: a stale ``state_id`` is refused (the game has moved on). A move is ``{"kind":
"act", "action_id": n}``: the id of an action the board offered on that state (the
``legal`` trait's ``id``, the page's ``data-action-id``), applied by id: no text is read. Two messages are not
clicks on the position, so they come from any state: ``{"kind": "view"}``, from a view
that has not got the private part the traits name (a hot seat's hand), which changes
nothing (the private part is sent again before its answer), and ``{"kind": "pace",
"value": ...}``, the bots' speed. ``{"kind": "hint"}`` asks what the search would play
for the seat that may act here (``GameWidget.start_hint``): it plays nothing.
``{"kind": "replay"}`` gets the replay file in its answer, to save as a download;
``{"kind": "save_for_lab"}`` asks the kernel to write the finished game's record into its
working folder (``GameWidget.save_for_lab``): the page names nothing, the kernel chooses the
name (``core.files.hand_in_name``) and answers where it wrote it.

The router does what a message asks through the board's public methods (``Board``: what
a cell may call too) and reads the game through public ``Session`` methods only, so it
can be tested with any object that has them, without a browser.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ..bots import BOT_NAMES
from ..core.errors import GameError, GameFault, cut, shown, shown_names
from ..core.files import hand_in_name
from ..core.frame import MAX_ACTION_ID
from ..core.session import Session
from .bot_driver import fault
from .replay import replay_page

if TYPE_CHECKING:
    from .seats import Seats

__all__ = ["Board", "Reply", "Router"]

# What each message may carry besides "kind", "state_id" and "id".
_FIELDS = {
    "act": {"action_id"},
    "undo": set(),
    "redo": set(),
    "ready": set(),
    "new_game": {"seed", "bot"},
    "replay": set(),
    "view": set(),  # a new view (or a reloaded page) asks for the private part it shows
    "hint": set(),
    "pace": {"value"},
    "save_for_lab": set(),  # no name, no folder: the kernel chooses both
}


class Board(Protocol):
    """What a message may ask of a board: ``GameWidget``'s public methods, as from a cell."""

    @property
    def game(self) -> Session: ...
    @property
    def offered_ids(self) -> list[int]: ...
    def act(self, action: Any) -> list[Any]: ...
    def ready(self) -> None: ...
    def undo(self) -> int: ...
    def redo(self) -> int: ...
    def new_game(self, seed: int | None = None, *, bots: dict[int, Any] | None = None) -> None: ...
    def start_hint(self) -> None: ...
    def save_for_lab(self) -> Path: ...
    pace: Any


ERROR_CHARS = 500  # a refusal is a sentence or two; a game's longer message is cut


@dataclass(frozen=True)
class Reply:
    """What the board does after a message: show ``error`` (None: leave the error line as it
    is), draw itself again from the kernel's state if the message ``broke`` something
    unexpectedly, send its private part again if asked (``resend_private``), and answer."""

    token: str | None
    error: str | None = None
    broke: bool = False
    resend_private: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    def answer(self, state_id: int) -> dict[str, Any]:
        """The answer the page waits for (its token, the state now, and what was asked for)."""
        return {"kind": "answer", "id": self.token, "state_id": state_id, **self.extra}


class Router:
    """Routes each of the page's messages to ``board``; ``seats`` say what a replay file
    may show and which seats are bots."""

    def __init__(self, board: Board, seats: Seats) -> None:
        self.board = board
        self.seats = seats

    def route(self, content: Any) -> Reply:
        """Do what ``content`` asks, if it may; never raises (every message is answered)."""
        token = content.get("id") if isinstance(content, dict) else None
        if not isinstance(token, str) or len(token) > 64:
            token = None  # the page's own tokens are short text; anything else comes back as null
        try:
            return self._route(content, token)
        except GameFault as exc:  # the game's own bug: the synced error may be a hot seat's public table, so not the move
            return Reply(token, error=f"the game's own code failed on that move ({fault(exc)}); nothing changed")
        except GameError as exc:  # a refusal, in words: a line of it (a game's message may be any length)
            return Reply(token, error=cut(str(exc), ERROR_CHARS))
        except Exception as exc:  # never a traceback in the notebook for a click
            return Reply(token, error=f"internal error ({type(exc).__name__}): {cut(str(exc))}", broke=True)

    def _route(self, content: Any, token: str | None) -> Reply:
        if not isinstance(content, dict):
            raise GameError("refused a message from the board: not an object")
        kind = content.get("kind")
        if not isinstance(kind, str) or kind not in _FIELDS:
            raise GameError(f"refused a message from the board: unknown kind {shown(kind, 50)}")
        extra = set(content) - _FIELDS[kind] - {"kind", "state_id", "id"}
        if extra:
            moved = " (a move names its action by id: 'action_id')" if kind == "act" and "action" in extra else ""
            raise GameError(f"refused a {shown(kind)} message: unknown field {shown_names(extra, 1)}{moved}")
        if kind == "view":  # changes nothing, so it may come from any state
            return Reply(token, resend_private=True)
        if kind == "pace":  # the bots' speed, not a move: whatever the state
            self.board.pace = content.get("value")  # checked by the board: a bad value changes nothing
            return Reply(token, error="")
        sid = content.get("state_id")
        if type(sid) is not int or sid != self.board.game.state_id:
            raise GameError("that click was on an old board (the game has moved on); try again")
        board = self.board
        if kind == "ready":
            board.ready()
        elif kind == "undo":
            if not board.undo():
                raise GameError("nothing to undo: no earlier decision of a player at this board")
            return Reply(token, error="")
        elif kind == "redo":
            if not board.redo():
                raise GameError("nothing to redo")
            return Reply(token, error="")
        elif kind == "hint":
            board.start_hint()  # in slices: the page's next click is answered while it searches
            return Reply(token, error="")
        elif kind == "new_game":
            board.new_game(seed=self._seed(content.get("seed")), bots=self._bots(content.get("bot")))
        elif kind == "replay":  # a one-off: the file comes back in the answer, nothing changes
            session, seats = board.game, self.seats
            return Reply(token, extra={"replay": replay_page(session, seats.kept(), seats.bots),
                                       "filename": hand_in_name(session, kind="replay")})
        elif kind == "save_for_lab":  # the record, in the kernel's folder, under the kernel's name
            return Reply(token, error="", extra={"saved": str(board.save_for_lab())})
        else:
            board.act(self._action(content.get("action_id")))
        return Reply(token)

    def _action(self, aid: Any) -> int:
        """An action the board offers now, by its id (the page sends nothing else)."""
        if type(aid) is not int or not -MAX_ACTION_ID <= aid <= MAX_ACTION_ID:  # (a bool, a float, text: none is an id)
            got = "a number beyond ±(2**53 - 1)" if type(aid) is int else shown(aid, 40)
            raise GameError(f"refused a message from the board: 'action_id' must be the id of an action the board offers, got {got}")
        offered = self.board.offered_ids
        if aid not in offered:
            if not offered:
                raise GameError("it is not your turn to act on this board")
            raise GameError(f"refused action id {aid}: not an action the board offers now")
        return aid

    @staticmethod
    def _seed(seed: Any) -> int | None:
        if seed is not None and (type(seed) is not int or not 0 <= seed < 2**31):
            raise GameError("new game: seed must be a whole number 0..2^31-1 or empty")
        return seed

    def _bots(self, bot: Any) -> dict[int, Any] | None:
        """New game's "bot": every bot seat gets that bot (None: the bots stay)."""
        if bot is None:
            return None
        if not isinstance(bot, str) or bot not in BOT_NAMES:
            raise GameError(f"new game: unknown bot {shown(bot, 30)}")
        bots = self.seats.bots
        if not bots:
            raise GameError("new game: this board has no bot seat to change")
        return dict.fromkeys(bots, bot)
