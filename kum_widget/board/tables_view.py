"""``kum.tables(url, teacher_code)``: the teacher's view of every table at a referee, live, in one
widget. Each table shows its public board (what a spectator sees: no hand, no sealed pick), who
sits there and who is connected, whose turn it is and the moves so far. Once its game is over
the referee sends its record: the table then shows the full reveal, every hand, with a slider
to replay it move by move. Nothing hidden reaches this kernel before a game's end.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets

from ..core import VERSION
from ..core.errors import GameError, shown
from ..core.session import Session
from ..referee.client import TeacherClient
from ..referee.table import Refused
from .frame_board import FrameBoard, KernelLoop

__all__ = ["TablesView", "tables"]

WATCHING = {  # what the teacher's boards cannot do, each with why
    "act": "the teacher's view watches: the seats play",
    "undo": "the teacher's view watches: a seat takes back its own move",
    "redo": "the teacher's view watches",
    "new_game": "add a table with tables.add_table(...)",
    "hint": "the teacher's view watches",
    "replay": "the replay of a table is shown here once its game is over",
    "save_for_lab": "the referee hands in each finished game (its folder's games/)",
}


class TableRow(ipywidgets.VBox):  # type: ignore[misc]  # (ipywidgets has no types)
    """One table in the teacher's view: its line of facts, its board, and once over its replay."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.facts = ipywidgets.HTML()
        self.board = FrameBoard(not_here=WATCHING, seat=None)
        self.replay = ipywidgets.IntSlider(description="Move", min=0, max=0, layout=ipywidgets.Layout(display="none"))
        self.replay.observe(self._step, names="value")
        self._finished: Session | None = None
        self._unreadable = ""  # why its record cannot be replayed here, if it cannot
        self._status: dict[str, Any] = {}
        super().__init__([self.facts, self.replay, self.board])
        self.add_class("kum-table-row")

    def update(self, status: dict[str, Any] | None, frame: dict[str, Any] | None, record: str | None) -> None:
        if record is not None and self._finished is None and not self._unreadable:
            self._reveal(record)
        if status is not None:
            self._status = status
        self.facts.value = facts_html(self._status, revealed=self._finished is not None) + self._unreadable
        if frame is not None and self._finished is None:
            self.board.show(frame, newer_only=True)

    def _reveal(self, record: str) -> None:
        try:
            self._finished = Session.from_record(record)
        except GameError as exc:  # a game this kernel does not have installed (served with --game)
            self._unreadable = f"<p role='note'>{html.escape(f'Its record cannot be replayed here: {exc}')}</p>"
            return
        moves = self._finished.move_number
        self.replay.max = moves
        self.replay.value = moves
        self.replay.layout.display = None
        self._draw(moves)

    def _step(self, change: dict[str, Any]) -> None:
        self._draw(int(change["new"]))

    def _draw(self, step: int) -> None:
        finished = self._finished
        if finished is None:
            return
        at = finished.clone()
        at.undo(finished.move_number - step)
        self.board.show(at.frame(None).to_json())  # the full table: every hand, the game being over


def facts_html(status: dict[str, Any], *, revealed: bool) -> str:
    """The table's line: its game, each seat (connected or not, a bot), whose turn, moves so
    far, and once handed in its files' names; as escaped HTML."""
    players = status.get("players", [])
    connected = set(status.get("connected", []))
    bots, stand_ins = status.get("bots", {}), status.get("stand_ins", {})
    seats = []
    for seat, name in enumerate(players):
        if str(seat) in bots:
            how = f"{bots[str(seat)]} bot"
        elif str(seat) in stand_ins:
            how = f"away: a {stand_ins[str(seat)]} bot stands in"
        else:
            how = "connected" if seat in connected else "not connected"
        turn = " (to play)" if status.get("current") == seat and not status.get("over") else ""
        seats.append(f"<li>{html.escape(str(name))}: {html.escape(how)}{turn}</li>")
    state = "game over" + (": every hand shown; the slider replays it" if revealed else "") if status.get("over") \
        else f"{int(status.get('moves', 0))} move{'' if status.get('moves') == 1 else 's'} so far"
    filed = status.get("handed_in")
    if filed:
        state += f"; handed in as {', '.join(str(name) for name in filed)}"
    # one line a table, its seats in a row (a list to a screen reader): ten tables fit a screen
    return (f"<h3 class='kum-table-name' style='margin:0.6em 0 0.2em'>{html.escape(str(status.get('table', '')))}: "
            f"{html.escape(str(status.get('title') or status.get('game', '')))}, {html.escape(state)}</h3>"
            f"<ul aria-label='Seats' style='list-style:none;padding:0;margin:0;display:flex;flex-wrap:wrap;gap:0.3em 1.5em'>"
            f"{''.join(seats)}</ul>")


class TablesView(ipywidgets.VBox):  # type: ignore[misc]
    """Every table at the referee at ``url``, as the holder of the teacher's ``code`` sees it
    (``kum.tables``). ``status`` and ``records`` are the referee's news by table;
    ``add_table`` and ``hand_over`` ask it for a table more, a seat played by a bot."""

    _client: TeacherClient | None = None

    def __init__(self, url: str, code: str, *, timeout: float = 30.0, ssl: Any = None) -> None:
        self._kernel = KernelLoop()  # (made here, on the kernel's thread)
        self._rows: dict[str, TableRow] = {}
        super().__init__([])
        self.add_class("kum-tables")
        self._client = TeacherClient(url, code, version=VERSION, ssl=ssl, timeout=timeout)  # joined, or refused
        self._client.on_change = lambda name: self._kernel.call(self._update, name)
        for name in list(self._client.status):  # what came before on_change was set
            self._update(name)

    def _update(self, name: str) -> None:
        client = self._client
        if client is None:
            return
        row = self._rows.get(name)
        if row is None:
            row = self._rows[name] = TableRow(name)
            self.children = tuple(self._rows.values())
        row.update(client.status.get(name), client.frames.get(name), client.records.get(name))

    @property
    def status(self) -> dict[str, dict[str, Any]]:
        """Each table's news: players, bots, stand-ins, connected seats, moves, whose turn, over."""
        return {} if self._client is None else {k: dict(v) for k, v in self._client.status.items()}

    @property
    def records(self) -> dict[str, str]:
        """Each finished table's full record (``kum.core.Session.from_record`` reads it)."""
        return {} if self._client is None else dict(self._client.records)

    def board(self, table: str) -> FrameBoard:
        """The board of ``table`` in this view."""
        if table not in self._rows:
            raise GameError(f"there is no table {shown(table)} here; the tables: {', '.join(self._rows) or 'none yet'}")
        return self._rows[table].board

    def add_table(self, **table: Any) -> dict[str, str]:
        """A table more, while the referee runs (the keys of a class file's ``[[table]]``:
        name, game, players, rules, seed, bots); its seats' codes, by seat."""
        assert self._client is not None
        return self._client.add_table(**table)

    def hand_over(self, table: str, seat: int, bot: str | None = None) -> None:
        """A bot plays ``seat`` at ``table`` until its person takes the seat back."""
        assert self._client is not None
        self._client.hand_over(table, seat, bot)

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
        for row in self._rows.values():
            row.board.close()
        super().close()

    def __repr__(self) -> str:
        return f"<TablesView: {len(self._rows)} tables>"


def tables(url: str, code: str, *, timeout: float = 30.0, ssl: Any = None) -> TablesView:
    """The teacher's view of every table at the referee at ``url`` (``ws://host:port/``), with
    the teacher's ``code`` (the last line ``kum-widget serve`` prints)."""
    if not isinstance(code, str) or not code.strip():
        raise GameError(f"tables: the teacher's code is the text kum-widget serve printed (32 hex digits), got {shown(code)}")
    try:
        return TablesView(url, code.strip(), timeout=timeout, ssl=ssl)
    except Refused as refused:
        raise GameError(f"tables: the referee at {url} refused: {refused}") from None
