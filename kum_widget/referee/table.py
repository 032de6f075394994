"""One table of a referee: the authoritative session of one game, and what each seat may ask of
it. Every request is checked before anything changes (the seat, its turn, the state it was made
on, the action's id among the seat's legal ones); a refusal says why, leaves the game exactly as
it was, and never says anything the seat may not know. A seat sees the game only through its own
frame (:meth:`Table.frame`): the same value a board draws from.

>>> from kum_widget.core.examples import Bust
>>> from kum_widget.core.session import Session
>>> table = Table("table 1", Session(Bust(), ["Ada", "Bo"], seed=1))
>>> table.frame(0)["actions"][0]
{'id': 2, 'text': 'play 3', 'source': 'card 2', 'target': 'pile'}
>>> table.act(1, 2, state_id=0)
Traceback (most recent call last):
...
kum_widget.referee.table.Refused: it is Ada's turn, not Bo's (table 1)
>>> table.act(0, 2, state_id=0)
[0, 1]
>>> try:
...     table.act(0, 2, state_id=0)
... except Refused as refused:
...     print(refused, "| resync:", refused.resync)
the game has moved on since state 0 (now 1): your board is drawn again (table 1) | resync: True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..bots import BOT_NAMES
from ..core.errors import GameError, shown
from ..core.frame import MAX_ACTION_ID, PUBLIC
from ..core.session import Session

__all__ = ["Refused", "Table"]


class Refused(GameError):
    """A request a table refused; nothing changed. ``resync``: the seat's view is out of
    date (send it its frame again)."""

    def __init__(self, message: str, *, resync: bool = False) -> None:
        super().__init__(message)
        self.resync = resync


class Table:
    """``Table(name, session)``: the referee's game at one table. Seats act through
    :meth:`act`; each reads :meth:`frame` of its own seat, a spectator (and the teacher,
    before the end) the public frame. ``sequence`` grows with every change.

    In a step where several seats choose (sealed picks), they choose in the session's order:
    a seat whose pick is not asked for yet is told whose is."""

    def __init__(self, name: str, session: Session, *, bots: Mapping[int, str] | None = None) -> None:
        if not isinstance(name, str) or not name.strip() or len(name) > 80:
            raise GameError(f"a table's name is text of 1 to 80 characters, got {shown(name)}")
        if not isinstance(session, Session):
            raise GameError(f"a table holds a core Session, got {type(session).__name__}")
        bots = dict(bots or {})
        for seat, bot in bots.items():
            if type(seat) is not int or not 0 <= seat < session.num_players:
                raise GameError(f"{name}: a bot sits at a seat from 0 to {session.num_players - 1}, not {shown(seat)}")
            if bot not in BOT_NAMES:
                raise GameError(f"{name}: a bot at a table is one of {', '.join(BOT_NAMES)}, not {shown(bot)}")
        self.name = name
        self._session = session
        self.bots = bots  # seat -> the bot's name: the referee plays these seats
        self.sequence = 0

    @property
    def game(self) -> Any:
        """The game's rules (its CardGame): its name and options, for a client to match."""
        return self._session.game

    @property
    def players(self) -> tuple[str, ...]:
        return self._session.players

    @property
    def is_over(self) -> bool:
        return self._session.is_over

    @property
    def state_id(self) -> int:
        return self._session.state_id

    def frame(self, seat: int | str) -> dict[str, Any]:
        """What ``seat`` may know now (``"public"``: a spectator), as JSON values, with the
        table's name and sequence number."""
        if seat != PUBLIC and not (type(seat) is int and 0 <= seat < self._session.num_players):
            raise GameError(f"{self.name} has seats 0 to {self._session.num_players - 1} and the public view, not {shown(seat)}")
        return {**self._session.frame(seat).to_json(), "at_table": self.name, "table_sequence": self.sequence}

    def bot_to_act(self) -> int | None:
        """The seat to act if a bot plays it (None: a person's turn, or the game over)."""
        if self._session.is_over:
            return None
        current = self._session.current_player
        return current if current in self.bots else None

    def for_bot(self) -> tuple[Session, int]:
        """A copy of the game for the bot to act (it reads only its seat's view: ``bot_move``)
        and the state id its move is for."""
        return self._session.clone(), self._session.state_id

    def act(self, seat: int, action_id: Any, *, state_id: Any, by_bot: bool = False) -> list[int]:
        """Seat ``seat`` takes the action ``action_id`` on the state ``state_id`` its frame
        showed; the seats whose frames changed (all of them). Refused (nothing changes) for a
        seat not at the table, a game over, a seat not to act, a stale state, an id not among
        the seat's legal actions."""
        session = self._session
        if type(seat) is not int or not 0 <= seat < session.num_players:
            raise Refused(f"there is no seat {shown(seat)} at {self.name}")
        if type(state_id) is not int:
            raise Refused(f"a state id is a whole number, got {shown(state_id)} ({self.name})")
        if type(action_id) is not int or not 0 <= action_id <= MAX_ACTION_ID:
            raise Refused(f"an action id is a whole number from 0 to {MAX_ACTION_ID}, got {shown(action_id)} ({self.name})")
        if session.is_over:
            raise Refused(f"the game is over ({self.name})", resync=state_id != session.state_id)
        if state_id != session.state_id:
            raise Refused(f"the game has moved on since state {state_id} (now {session.state_id}): your board is drawn again ({self.name})",
                          resync=True)
        if seat in self.bots and not by_bot:
            raise Refused(f"the {self.bots[seat]} bot plays {session.players[seat]}'s seat ({self.name})")
        current = session.current_player
        if seat != current:
            names = session.players
            to_act = session.to_act
            if seat in to_act and to_act.index(seat) < to_act.index(current):
                raise Refused(f"{names[seat]} has chosen already; {names[current]} chooses now ({self.name})")
            raise Refused(f"it is {names[current]}'s turn, not {names[seat]}'s ({self.name})")
        if action_id not in session.legal_action_ids():
            raise Refused(f"action {action_id} is not one of {session.players[seat]}'s legal actions at state {state_id} ({self.name})",
                          resync=True)
        session.apply(action_id)
        self.sequence += 1
        return list(range(session.num_players))

    def __repr__(self) -> str:
        return f"<Table {self.name!r}: {self._session.title}, {', '.join(self.players)}, state {self.state_id}>"
