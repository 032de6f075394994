"""``kum.join``: the board of one seat at a real referee process. It draws that seat's frames, a
click goes to the referee with its state id and is answered with the referee's answer, the other
seat's board follows, and what only the referee may do is answered with why; the page writes
nothing; a wrong code is refused by name."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from _referee_helpers import DEADLINE, referee

import kum_widget as kum
from kum_widget.board.seat_board import SeatBoard
from kum_widget.core.errors import GameError


class RecordedSeat(SeatBoard):
    """A seat's board that keeps what it sends to the page."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.sent: list[dict[str, Any]] = []
        self.arrived = threading.Condition()
        super().__init__(*args, **kwargs)

    def _send(self, msg: dict[str, Any], buffers: Any = None) -> None:
        with self.arrived:
            self.sent.append(json.loads(json.dumps(msg)))
            self.arrived.notify_all()

    def page_sends(self, content: dict[str, Any]) -> dict[str, Any]:
        """The page's message, and the board's answer to it (waited for: an action's comes from the referee)."""
        token = f"t{len(self.sent)}-{time.monotonic_ns()}"
        self._handle_msg({"content": {"data": {"method": "custom", "content": {**content, "id": token}}}, "buffers": []})
        with self.arrived:
            assert self.arrived.wait_for(lambda: any(self._answer_of(m) == token for m in self.sent), DEADLINE)
        return next(m["content"] for m in self.sent if self._answer_of(m) == token)

    @staticmethod
    def _answer_of(msg: dict[str, Any]) -> Any:
        content = msg.get("content") if msg.get("method") == "custom" else None
        return content.get("id") if isinstance(content, dict) and content.get("kind") == "answer" else None


def caught_up(board: RecordedSeat, state: int) -> None:
    """Until ``board``'s traits show ``state`` (its connection's frame reaches them just after, on the same thread)."""
    board.game.wait_state(state)
    deadline = time.monotonic() + DEADLINE
    while board.state_id < state:
        assert time.monotonic() < deadline, f"the board never showed state {state}"
        time.sleep(0.01)  # (polling, within the deadline)


def test_a_seats_board_plays_through_the_referee_and_the_other_seat_follows(tmp_path: Path) -> None:
    with referee(tmp_path) as (url, codes, _):
        ada = RecordedSeat(url, codes[("table 1", 0)], timeout=DEADLINE)
        bo = RecordedSeat(url, codes[("table 1", 1)], timeout=DEADLINE)
        assert (ada.seat, bo.seat) == (0, 1) and ada.controls == ["undo"] and "SeatBoard" in repr(ada)
        offered = [a["id"] for a in ada.legal["actions"]]
        assert offered and bo.legal["actions"] == [] and ada.board["shown_seat"] == 0
        start = ada.state_id
        # stale: refused at once, nothing sent on
        assert ada.page_sends({"kind": "act", "action_id": offered[0], "state_id": start + 3})["state_id"] == start
        assert "moved on" in ada.error
        for kind in ("undo", "redo", "new_game", "hint", "replay"):
            ada.page_sends({"kind": kind})
            assert ada.error, kind
        ada.page_sends({"kind": "act", "action_id": offered[0], "state_id": start})
        assert ada.error == ""
        caught_up(bo, start + 1)
        assert bo.state_id == start + 1 and bo.legal["actions"]
        # the page writes nothing
        ada._handle_msg({"content": {"data": {"method": "update", "state": {"seat": 1}}}, "buffers": []})
        assert ada.seat == 0 and "refused a change of seat" in ada.error
        with pytest.raises(GameError, match="the last move was Ada's"):
            bo.undo()
        bo.act(bo.game.legal_actions()[0])
        assert bo.game.state_id == start + 2
        caught_up(ada, start + 2)  # the page's Undo is sent on the state its board shows
        ada.page_sends({"kind": "undo"})  # the page's Undo: the referee's answer
        assert "the last move was Bo's" in ada.error and ada.game.state_id == start + 2
        for board in (ada, bo):
            board.close()


def test_join_with_a_wrong_code_says_so(tmp_path: Path) -> None:
    with referee(tmp_path) as (url, _, _):
        with pytest.raises(GameError, match=r"join: the referee at .* refused: that is not a code of this referee"):
            kum.join(url, "f" * 32)
        with pytest.raises(GameError, match="join: your code is the text the teacher gave you"):
            kum.join(url, 42)  # type: ignore[arg-type]
