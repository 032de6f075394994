"""Who sits where at a board and who sees what (D6): the rules ``GameWidget`` follows, in
a plain object that reads the game through public ``Session`` methods only, so that it
can be read, and tested, without a browser.

- One human and bots: the board shows that human's seat (``seat``).
- Two or more humans on one screen (a hot seat): when a human's turn comes, a pass screen
  names them and shows only the public table, until they say "I am X" (``ready``); then
  their seat. During a bot's turn the board stays with whoever last said who they were
  (or shows the public table); at game over, the public table.
- ``reveal``: the full table, whoever is to act.

What may be kept (a notebook saved with its widget state, the board's picture, a replay
file) is drawn for ``kept()``: the one human's seat, the full table with ``reveal``, and
in a hot seat the public table, never a hand only the player at the screen may see.

>>> from kum_widget.core import Session
>>> from kum_widget.core.examples import Bust
>>> seats = Seats(Session(Bust(), ["Ada", "Bo"], seed=1), {})
>>> screen = seats.screen()
>>> screen.viewer, screen.pass_to, screen.actions
(Viewer('public', None), 'Ada', [])
>>> seats.ready(); seats.screen().viewer
Viewer('seat', 0)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..bots import make_bot
from ..core.errors import GameError, shown
from ..core.session import Session
from .dealing import bot_kind
from .drawing import Viewer, bot_label

__all__ = ["Screen", "Seats", "check_delay"]


def check_delay(delay: Any) -> None:
    """``bot_delay``: seconds a bot waits before its move, so a reader can follow it."""
    # compared as it is (NaN compares false): float() of a huge whole number overflows
    if type(delay) not in (int, float) or not 0 <= delay <= 60:
        raise GameError(f"bot_delay must be a number of seconds from 0 to 60, got {shown(delay)}")


@dataclass(frozen=True)
class Screen:
    """What the board shows now, as the seats decide it."""

    viewer: Viewer  # whom the board is drawn for
    kept: Viewer  # whom the synced traits (what a save keeps) are drawn for
    pass_to: str  # the name on the pass screen; "" when none shows
    actions: list[int]  # the legal action ids the board offers (empty: nobody here may act now)
    status: str | None  # the status line, when the seats know better than the game


class Seats:
    """The seats of a board on ``session``: ``bots`` maps seats to bot specs (names or
    objects; the other seats are human), ``seat`` is the seat a one-human board shows
    (default: the first human seat), ``reveal`` shows the full table."""

    def __init__(self, session: Session, bots: Mapping[int, Any], *, seat: int | None = None, reveal: bool = False) -> None:
        self.session = session
        # seat and reveal first: a refused board builds no bot
        self.seat = next((s for s in range(session.num_players) if s not in bots), 0) if seat is None else seat
        self.reveal = reveal
        self.specs: dict[int, Any] = {}
        self._bots: dict[int, Any] = {}
        self._kinds: dict[int, str | None] = {}
        self.seat_bots(bots, seed=session.seed)
        self.at_screen: int | None = None  # hot seat: who said "I am X" since the last pass screen

    # -- who sits where --------------------------------------------------------------

    @property
    def bots(self) -> dict[int, Any]:
        """The bot of each bot seat (a copy)."""
        return dict(self._bots)

    def seat_bots(self, specs: Mapping[int, Any], *, seed: int | None) -> None:
        """Seat new bots (checked specs, ``dealing.check_bots``), each seeded from the
        game's ``seed`` and its seat, so a game dealt again plays the same."""
        self.specs = dict(specs)
        self._bots = {s: make_bot(spec, seed=(seed or 0) + s) for s, spec in specs.items()}
        self._kinds = {s: bot_kind(spec) for s, spec in specs.items()}

    def humans(self) -> list[int]:
        return [s for s in range(self.session.num_players) if s not in self._bots]

    def bot_seats(self) -> dict[str, dict[str, Any]]:
        """The bot seats as the page lists them: ``{"1": {"name": "Greedy bot", "kind": "greedy"}}``
        (kind None for a bot object)."""
        return {str(s): {"name": bot_label(b), "kind": self._kinds[s]} for s, b in self._bots.items()}

    @property
    def seat(self) -> int:
        return self._seat

    @seat.setter
    def seat(self, seat: Any) -> None:
        count = self.session.num_players
        if type(seat) is not int or not 0 <= seat < count:
            raise GameError(f"seat must be 0..{count - 1}, got {shown(seat)}")
        self._seat = seat

    @property
    def reveal(self) -> bool:
        return self._reveal

    @reveal.setter
    def reveal(self, reveal: Any) -> None:
        if type(reveal) is not bool:
            raise GameError(f"reveal must be True or False, got {shown(reveal)}")
        self._reveal = reveal

    def start_over(self) -> None:
        """A new game: nobody has said who is at the screen."""
        self.at_screen = None

    # -- who sees what -----------------------------------------------------------------

    def screen(self, *, thinking: bool = False) -> Screen:
        """What the board shows now (``thinking``: a bot's move is on its way). In a hot
        seat, deciding forgets who was at the screen once the turn is another human's, or
        the game is over: whoever sits there now has not said who they are (so an undo
        that hands the turn back shows the pass screen again). The board asks at every
        change, so no turn goes by unseen."""
        session = self.session
        viewer, pass_to = self._look()
        over, cur = session.is_over, session.current_player
        may_act = (
            not over and cur not in self._bots and not pass_to
            and (viewer.kind == "full" or viewer.seat == cur)
        )
        actions = session.legal_action_ids() if may_act else []
        return Screen(viewer, self.kept(), pass_to, actions, self._status(pass_to, thinking))

    def _look(self) -> tuple[Viewer, str]:
        """Whom the board is drawn for now, and whom to pass it to (hot seat)."""
        session, humans = self.session, self.humans()
        if self._reveal:
            return Viewer("full"), ""
        if len(humans) < 2:
            return Viewer("seat", self._seat), ""
        if session.is_over:
            self.at_screen = None  # everyone gathers round: the public table
            return Viewer("public"), ""
        cur = session.current_player
        if cur in humans and self.at_screen != cur:
            self.at_screen = None  # whoever is at the screen now, nobody has said who
            return Viewer("public"), session.players[cur]
        if self.at_screen is None:
            return Viewer("public"), ""
        return Viewer("seat", self.at_screen), ""

    def pass_to(self) -> str:
        """The name on the pass screen now ("" when none shows), deciding nothing."""
        session, humans = self.session, self.humans()
        if self._reveal or len(humans) < 2 or session.is_over:
            return ""
        cur = session.current_player
        return session.players[cur] if cur in humans and self.at_screen != cur else ""

    def kept(self) -> Viewer:
        """Whom what outlives the moment is drawn for: never a hand the board would hide."""
        if self._reveal:
            return Viewer("full")
        if len(self.humans()) < 2:
            return Viewer("seat", self._seat)
        return Viewer("public")

    def ready(self) -> None:
        """The pass screen's "I am <the player to act>": the board shows their seat."""
        if not self.pass_to():
            raise GameError("there is no pass screen to confirm")
        self.at_screen = self.session.current_player

    def _status(self, pass_to: str, thinking: bool) -> str | None:
        session = self.session
        if session.is_over:
            return None
        if pass_to:
            return f"Pass the board to {pass_to}."
        cur = session.current_player
        if cur in self._bots:
            name = session.players[cur]
            if session.can_redo:
                done = session.move_number
                return f"{name} waits: you are replaying (step {done} of {done + session.redo_count}). Redo to go on."
            if thinking:
                return f"{name} is thinking…"
        return None

    # -- when bots move, and how far undo and redo go ---------------------------------------

    def bot_to_move(self) -> bool:
        return not self.session.is_over and self.session.current_player in self._bots

    def bots_wait(self) -> bool:
        """Bots wait while there is something to redo (a replay, or an undo from a cell)."""
        return self.session.can_redo

    def undo_steps(self) -> int:
        """How many actions undo takes back: to the previous decision of a human seat,
        over the bots' replies (with no human seat, one action); 0 when there is none."""
        movers, humans = self.session.movers, set(self.humans())
        if humans:
            return next((k for k in range(1, len(movers) + 1) if movers[-k] in humans), 0)
        return min(1, len(movers))

    def redo_steps(self) -> int:
        """How many actions redo plays again: up to the next decision of a human seat
        (or the end of the redo list); with no human seat, one action."""
        ahead, humans = self.session.redo_movers, set(self.humans())
        if humans:
            return next((k for k in range(1, len(ahead)) if ahead[k] in humans), len(ahead))
        return min(1, len(ahead))
