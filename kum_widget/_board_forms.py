"""The board's forms that outlive the kernel: its display beside the live view (a picture
and the text board), and the replay file it saves.

Both outlast the moment (a saved notebook keeps its outputs; a file is sent on), so a board
draws them for whom a replay may be (``Seats.kept``): one human's seat, the full table with
``reveal``, and in a hot seat the public table, never a hand only the player at the screen
may see. Everything is read through public ``Session`` methods.
"""

from __future__ import annotations

from typing import Any

from ._board_data import Viewer, board_payload, last_move, log_lines
from ._board_text import board_text
from .core.session import Session
from .replay import document, replay_data, snapshot_html

__all__ = ["board_repr", "replay_name", "replay_page", "snapshot_forms"]


def replay_page(session: Session, viewer: Viewer, bots: dict[int, Any]) -> str:
    """The replay file of the game, drawn for ``viewer`` (the board's "Save replay" button)."""
    return document(replay_data(session, viewer, bots=bots))


def replay_name(session: Session) -> str:
    """A file name for the game's replay: its title in lower-case words ("kings-under-mountains-replay.html")."""
    words = "".join(ch if ch.isalnum() else " " for ch in session.title.lower()).split()
    return f"{'-'.join(words) or 'game'}-replay.html"


def snapshot_forms(session: Session, viewer: Viewer, bots: dict[int, Any], state_id: int) -> dict[str, str]:
    """The board as it is now for viewers without a kernel: a picture drawn by its renderer
    (HTML) and the text board (plain text); none for a board these forms cannot carry (the
    live view still shows it)."""
    try:
        board = board_payload(session, viewer, bots=bots)
        lines = log_lines(session, viewer)
        return {"text/plain": board_text(board, lines, last=3),
                "text/html": snapshot_html(board, lines, last_move(session, bots, board), state_id=state_id)}
    except Exception:  # a display must never fail: the live view is still there
        return {}


def board_repr(session: Session, bots: dict[int, Any], state_id: int) -> str:
    seats = ", ".join(f"{name} (bot)" if s in bots else name for s, name in enumerate(session.players))
    return f"<GameWidget: {session.title}; {seats}; state {state_id}>"
