"""What the board is sent: the payloads ``GameWidget`` syncs, built from one viewer's
frame (``Session.frame``: the view that viewer may see as the game draws it, that viewer's
own legal actions and the log as that viewer may read it) and the board's own settings
(which seats are bots, a status line of its own). Nothing else of the position reaches the
page. Kept apart from the seats so the rules of *who sees what* (``seats``) read on their own.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..core.frame import LOG_LINES, PUBLIC, Frame
from ..core.session import Session

__all__ = ["Viewer", "board_payload", "bot_label", "drawn_frame", "frame_for", "static_path", "static_text"]
_STATIC = Path(__file__).parent.parent / "static"  # kum_widget/static, where the build puts the bundle


def static_path(name: str) -> Path:
    """A file of the built front-end (kum_widget/static/), which every page of the board loads."""
    path = _STATIC / name
    if not path.exists():
        raise RuntimeError(f"{path} is missing: build the front-end with `make js` (or `make lab`)")
    return path


def static_text(name: str) -> str:
    """The text of a built front-end file, read once. A widget class holds its ``_esm`` and
    ``_css`` as text, not as a Path: anywidget watches a Path's file and keeps every widget
    made from it alive for ever (a closed board, its game and its bots were never freed).
    The text has a line break, so anywidget never takes it for a file name."""
    text = static_path(name).read_text(encoding="utf-8")
    return text if "\n" in text else text + "\n"


def bot_label(bot: Any) -> str:
    """A bot's name as the board shows it: text, at most 40 characters (a bot object's
    ``name`` may be anything)."""
    name = getattr(bot, "name", None)
    text = name if isinstance(name, str) and name.strip() else type(bot).__name__
    return text if len(text) <= 40 else text[:37] + "..."


class Viewer:
    """Whom the board is drawn for: the full table (reveal), one seat, or the public
    (a spectator: a pass screen, a hot-seat game over, a bot's turn nobody watches)."""

    __slots__ = ("kind", "seat")

    def __init__(self, kind: str, seat: int | None = None) -> None:
        self.kind, self.seat = kind, seat  # kind: "full", "seat" or "public"

    def __repr__(self) -> str:
        return f"Viewer({self.kind!r}, {self.seat!r})"

    def __eq__(self, other: object) -> bool:  # the same viewer: the same board
        return isinstance(other, Viewer) and (self.kind, self.seat) == (other.kind, other.seat)

    def __hash__(self) -> int:
        return hash((self.kind, self.seat))

    @property
    def frame_viewer(self) -> int | str | None:
        """The viewer as ``Session.frame`` takes it: a seat, None (the full table) or "public"."""
        return None if self.kind == "full" else PUBLIC if self.kind == "public" else self.seat


def frame_for(session: Session, viewer: Viewer, actions: Sequence[int] | None = (), log_lines: int = LOG_LINES) -> Frame:
    """``session``'s frame for ``viewer``, offering ``actions`` of its own (None: all of them;
    by default none: a board offers actions only where a human may act now)."""
    return session.frame(viewer.frame_viewer, offer=actions, log_lines=log_lines)


def drawn_frame(frame: Frame, *, bots: dict[int, Any] | None = None, status: str | None = None) -> dict[str, Any]:
    """The traits that draw ``frame``: ``board`` (with the bots named on their seats, and the
    board's own ``status`` line if it has one: at game over only a line that starts "Game
    over" replaces the game's), ``legal``, ``log_lines`` and ``last_move`` (whether a bot made it)."""
    bots = bots or {}
    board = dict(frame.board)
    if status and (not frame.over or status.startswith("Game over")):
        board["status"] = status
    board["players"] = [{**p, "bot": bot_label(bots[p["seat"]])} if p["seat"] in bots else p for p in frame.board["players"]]
    last = dict(frame.last_move)
    if last:
        last["bot"] = last["seat"] in bots
    return {"board": board, "legal": {"actions": [a.to_json() for a in frame.actions]}, "log_lines": list(frame.log), "last_move": last}


def board_payload(session: Session, viewer: Viewer, *, bots: dict[int, Any] | None = None, status: str | None = None) -> dict[str, Any]:
    """The board trait alone, for ``viewer`` (what ``drawn_frame`` gives as ``board``)."""
    board: dict[str, Any] = drawn_frame(frame_for(session, viewer, log_lines=0), bots=bots, status=status)["board"]
    return board
