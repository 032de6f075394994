"""The board's forms that outlive the kernel: its display (a picture and the text board
beside the live view), and the replay file it saves. ``GameWidget`` mixes this in.

Both outlast the moment (a saved notebook keeps its outputs; a file is sent on), so they are
drawn for whom a replay may be: one human's seat, the full table with ``reveal``, and in a
hot seat the public table, never a hand only the player at the screen may see.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._board_data import Viewer, board_payload, last_move, log_lines
from ._board_text import board_text
from .replay import document, replay_data, save_replay, snapshot_html

if TYPE_CHECKING:
    from .core.session import Session

__all__ = ["BoardForms"]


class BoardForms:
    """Display forms and replay files for a board (see :class:`GameWidget`)."""

    if TYPE_CHECKING:  # provided by GameWidget
        _game: Session
        _bots: dict[int, Any]
        reveal: bool
        seat: int
        state_id: int

        def _humans(self) -> list[int]: ...

    def save_replay(self, path: Any, *, title: str | None = None) -> Path:
        """Save the game as one HTML file that replays it offline (``kum.save_replay``),
        drawn as this board draws it: one human's seat, the public table for a hot seat,
        the full table with ``reveal``. The board's "Save replay" button saves the same."""
        viewer = self._replay_viewer()
        return save_replay(self._game, path, seat=viewer.seat, public=viewer.kind == "public", title=title)

    def _replay_viewer(self) -> Viewer:
        # What this page may hold at every step: never a hand the board would hide.
        if self.reveal:
            return Viewer("full")
        if len(self._humans()) < 2:
            return Viewer("seat", self.seat)
        return Viewer("public")

    def _replay_page(self) -> str:
        return document(replay_data(self._game, self._replay_viewer(), bots=self._bots))

    def _replay_name(self) -> str:
        words = "".join(ch if ch.isalnum() else " " for ch in self._game._title().lower()).split()
        return f"{'-'.join(words) or 'game'}-replay.html"

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The live board, and for viewers without a kernel the board as it is now: a
        picture drawn by its renderer (HTML) and the text board (plain text). They outlive
        the moment (a saved notebook keeps them), so they are drawn for whom a replay file
        would be (``_replay_viewer``): in a hot seat the public table, never a hand that
        only the player at the screen may see."""
        bundle = super()._repr_mimebundle_(**kwargs)  # type: ignore[misc]  # anywidget.AnyWidget, next in the MRO
        if bundle is None:
            return None
        data, metadata = bundle  # the metadata too: Colab needs it
        try:
            viewer = self._replay_viewer()
            board = board_payload(self._game, viewer, bots=self._bots)
            lines = log_lines(self._game, viewer)
            forms = {"text/plain": board_text(board, lines, last=3),
                     "text/html": snapshot_html(board, lines, last_move(self._game, self._bots, board), state_id=self.state_id)}
        except Exception:  # a board these forms cannot carry: the live view still shows it
            forms = {}
        return {**data, **forms}, metadata

    def __repr__(self) -> str:
        seats = ", ".join(f"{name} (bot)" if s in self._bots else name for s, name in enumerate(self._game.players))
        return f"<GameWidget: {self._game._title()}; {seats}; state {self.state_id}>"
