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

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from ..bots import BOT_NAMES
from ..core.chance import measure_chance
from ..core.errors import GameError, shown
from ..core.frame import MAX_ACTION_ID, PUBLIC
from ..core.game import game_type
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
    a seat whose pick is not asked for yet is told whose is.

    ``stand_ins``: seats a bot plays for a while (a person away, :meth:`hand_over`), until
    the person takes the seat back (:meth:`take_back`)."""

    def __init__(self, name: str, session: Session, *, bots: Mapping[int, str] | None = None) -> None:
        if not isinstance(name, str) or not name.strip() or len(name) > 80 or not name.isprintable():
            raise GameError(f"a table's name is text of 1 to 80 printable characters, got {shown(name)}")
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
        self.stand_ins: dict[int, str] = {}  # seat -> the bot playing for its person while away
        self.sequence = 0
        self._chance: Any = None  # the game's chance, measured at the first undo asked for

    def setup(self) -> dict[str, Any]:
        """What deals this table again (its journal entry): name, game, rules, players, seed
        and bots, as JSON values. Only the referee keeps it: the seed deals every hand."""
        s = self._session
        return {"name": self.name, "game": s.game.name, "rules": s.game.options(), "players": list(s.players), "seed": s.seed,
                "bots": {str(k): v for k, v in self.bots.items()}}

    @property
    def moves(self) -> int:
        """Actions taken so far."""
        return self._session.move_number

    @property
    def current_player(self) -> int | None:
        return None if self._session.is_over else self._session.current_player

    def record(self) -> str:
        """The full record of the game, once it is over (before, it holds every hidden card)."""
        if not self._session.is_over:
            raise Refused(f"the record of {self.name} holds every hand: it is written when the game is over")
        return self._session.record()

    def finished(self) -> Session:
        """A copy of the finished game (for its replay); refused before the end, as :meth:`record`."""
        self.record()
        return self._session.clone()

    @property
    def game(self) -> Any:
        """The game's rules (its CardGame): its name and options, for a client to match."""
        return self._session.game

    @property
    def title(self) -> str:
        """The game's title, as its board shows it."""
        return self._session.title

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
        return {**self._session.frame(seat).to_json(), "at_table": self.name, "table_sequence": self.sequence,
                "stand_ins": {str(k): v for k, v in self.stand_ins.items()}}

    def bot_to_act(self) -> int | None:
        """The seat to act if a bot plays it (None: a person's turn, or the game over)."""
        if self._session.is_over:
            return None
        current = self._session.current_player
        return current if current in self.bots or current in self.stand_ins else None

    def hand_over(self, seat: int, bot: str = "greedy") -> None:
        """A bot (``bot``) plays ``seat`` for its person from now, until :meth:`take_back`."""
        self._seat(seat)
        if seat in self.bots:
            raise Refused(f"the {self.bots[seat]} bot plays {self.players[seat]}'s seat already ({self.name})")
        if bot not in BOT_NAMES:
            raise Refused(f"a stand-in is one of the bots {', '.join(BOT_NAMES)}, not {shown(bot)}")
        self.stand_ins[seat] = bot
        self.sequence += 1

    def take_back(self, seat: int) -> bool:
        """``seat``'s person plays it again; False if no bot stood in for it."""
        self._seat(seat)
        if self.stand_ins.pop(seat, None) is None:
            return False
        self.sequence += 1
        return True

    def _seat(self, seat: Any) -> None:
        if type(seat) is not int or not 0 <= seat < self._session.num_players:
            raise Refused(f"there is no seat {shown(seat)} at {self.name}")

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
        self._fresh(seat, state_id)
        if type(action_id) is not int or not 0 <= action_id <= MAX_ACTION_ID:
            raise Refused(f"an action id is a whole number from 0 to {MAX_ACTION_ID}, got {shown(action_id)} ({self.name})")
        if seat in self.bots and not by_bot:
            raise Refused(f"the {self.bots[seat]} bot plays {session.players[seat]}'s seat ({self.name})")
        if seat in self.stand_ins and not by_bot:
            raise Refused(f"a {self.stand_ins[seat]} bot plays for {session.players[seat]} while away: take your seat back first ({self.name})")
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

    def undo(self, seat: int, *, state_id: Any, replaying: bool = False) -> None:
        """Take back ``seat``'s own last action, made on the state before ``state_id``: only
        when no other seat has acted since, the action showed its mover nothing it did not
        know, and the game draws no chance during play (measured as the lab measures it).
        Refused otherwise, with the reason. ``replaying``: an undo the journal holds, allowed
        when it was made (only the seat and the state are checked)."""
        session = self._session
        self._fresh(seat, state_id)
        names = session.players
        if seat in self.bots or seat in self.stand_ins:
            raise Refused(f"a bot plays {names[seat]}'s seat: it takes nothing back ({self.name})")
        movers = session.movers
        if not movers or movers[-1] != seat:
            last = "nothing has been played" if not movers else f"the last move was {names[movers[-1]]}'s"
            raise Refused(f"you can take back only your own last move, and {last} ({self.name})")
        if not replaying and self._shows_last(seat):
            raise Refused(f"your last move showed you what you did not know (a card drawn or a choice revealed): it stands ({self.name})")
        if not replaying and self._draws_chance():
            raise Refused(f"{session.title} draws chance during play ({self._chance.words}): a move cannot be taken back ({self.name})")
        session.undo(1)
        self.sequence += 1

    def _shows_last(self, seat: int) -> bool:
        session = self._session
        before = session.clone()
        before.undo(1)
        return self._shows(before.state, seat, session.history_ids[-1], before.state_id)

    def _draws_chance(self) -> bool:
        if self._chance is None:
            session = self._session
            self._chance = measure_chance(session.game, session.num_players, games=4)
        return bool(self._chance.during_play)

    def _fresh(self, seat: Any, state_id: Any) -> None:
        """Refuse a request of no seat here, on a game over or on a state not the current one."""
        session = self._session
        self._seat(seat)
        if type(state_id) is not int:
            raise Refused(f"a state id is a whole number, got {shown(state_id)} ({self.name})")
        if session.is_over:
            raise Refused(f"the game is over ({self.name})", resync=state_id != session.state_id)
        if state_id != session.state_id:
            raise Refused(f"the game has moved on since state {state_id} (now {session.state_id}): your board is drawn again ({self.name})",
                          resync=True)

    def _shows(self, state: Any, seat: int, action_id: int, state_id: int, samples: int = 8) -> bool:
        """Would taking ``action_id`` on ``state`` show ``seat`` anything it did not know (a card
        drawn, a sealed pick revealed)? With the game's ``determinize``: the same action on
        positions dealt from the seat's view must leave the seat the same view. Without it:
        any secret new to the seat, or gone from another seat's, counts as shown."""
        session = self._session
        game = session.game
        after = game.clone(state)
        game.apply(after, action_id)
        mine = game.view(after, seat)
        if game_type(game).has("determinize"):
            view = game.view(state, seat)
            rng = random.Random(f"{self.name}/{state_id}")
            for _ in range(samples):
                dealt = game.determinize(view, seat, rng)
                if action_id not in game.legal_actions(dealt):
                    return True
                game.apply(dealt, action_id)
                if game.view(dealt, seat) != mine:
                    return True
            return False
        seats = range(session.num_players)
        held = [Counter(repr(v) for v in game.secrets(state, s)) for s in seats]
        now = [Counter(repr(v) for v in game.secrets(after, s)) for s in seats]
        return bool(now[seat] - held[seat]) or any(held[s] - now[s] for s in seats if s != seat)

    def __repr__(self) -> str:
        return f"<Table {self.name!r}: {self._session.title}, {', '.join(self.players)}, state {self.state_id}>"
