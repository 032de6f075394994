"""A board's bots: when they move (``BotDriver``: at once, or on the event loop's timer
after ``bot_delay`` scaled by the pace), which move (``bot_choice``), what each weighed
(kept for the ``analysis`` trait), and what the board says when a bot or the game fails,
in words every seat may read. Nothing a bot does wrong stops the game.

Where an event loop runs (a notebook's kernel), a board's search (a bot's move, the Hint
button's) runs a slice at a time (:class:`Search`): the loop answers clicks, Undo and
``close()`` between two slices, which stop it; and it answers by :data:`SEARCH_SECONDS`
with the best it has found, the time looked at inside rollouts too (a variant whose games
loop would otherwise search for minutes). With no loop (a script), and from a cell
(``run_bots``, ``hint()``), the search runs at once, to its iteration budget, as the lab's.
At ``bot_delay=0`` a bot answers a cell's move at once, before the cell reads the game (by
:data:`SEARCH_SECONDS`), and the page's click a slice at a time, as the loop's own timer.
"""

from __future__ import annotations

import asyncio
import inspect
import random
import sys
import time
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ..bots.base import bot_moving
from ..bots.bot import run_through
from ..core.errors import GameError, GameFault, cut, shown
from ..core.session import Session
from .insight import Decision, bot_decision

if TYPE_CHECKING:
    from .seats import Seats

__all__ = ["SEARCH_SECONDS", "SLICE_SECONDS", "BotDriver", "Search", "bot_choice", "fault"]

SLICE_SECONDS = 0.02  # a board's search between two turns of the event loop: a click waits no longer than this
SEARCH_SECONDS = 3.0  # a board's search answers by then (a usual one takes a tenth of that); the lab's never stop early


def running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None  # a script or a test: things happen at once


class Search:
    """A search on the board (``kind`` "bot" or "hint", on the position ``state_id``): a
    generator of steps (``bots.bot_moving``, ``insight.hinting``) run a slice of
    :data:`SLICE_SECONDS` at a time."""

    def __init__(self, kind: str, state_id: int, steps: Generator[None, None, Any]) -> None:
        self.kind, self.state_id, self.steps = kind, state_id, steps
        self.handle: asyncio.Handle | None = None  # the next slice, on the loop
        self.over = False

    def run_slice(self) -> tuple[bool, Any]:
        """One slice: (True, what the search returns) once it is over, else (False, None).
        Raises what the search raises."""
        end = time.perf_counter() + SLICE_SECONDS
        try:
            while not self.over and time.perf_counter() < end:  # (stopped meanwhile: see stop)
                next(self.steps)
        except StopIteration as stop:
            self.over = True
            return True, stop.value
        except BaseException:
            self.over = True
            raise
        return False, None

    def stop(self) -> None:
        self.over = True
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None
        if inspect.getgeneratorstate(self.steps) != inspect.GEN_RUNNING:  # (a kernel may handle a message on another thread while a slice runs: it ends that slice)
            self.steps.close()  # (raises GeneratorExit inside the search, at its last yield: it keeps nothing)


class BotDriver:
    """The bots of ``board`` (a ``GameWidget``: its traits ``thinking`` and ``error`` and
    its ``hold_sync``) on ``session``, seated by ``seats``. ``redraw`` draws the board again
    (``quietly``: never raising); ``delay()`` is the pause before a bot's move now.
    ``decision`` is the last bot decision or hint, for the ``analysis`` trait."""

    def __init__(self, session: Session, seats: Seats, board: Any, redraw: Callable[[], None], quietly: Callable[[], None],
                 delay: Callable[[], float]) -> None:
        self.session, self.seats, self.board = session, seats, board
        self.redraw, self.quietly, self.delay = redraw, quietly, delay
        self.pending: asyncio.TimerHandle | None = None  # a bot's move on the loop's timer
        self.search: Search | None = None  # a bot's move or a hint being searched, a slice at a time
        self.running = False
        self.closed = False
        self.answering = False  # the page's message or the loop's own call is being handled: the board keeps answering
        self.decision: Decision | None = None

    @contextmanager
    def on_loop(self) -> Iterator[None]:
        """Within: the page's message (or the loop's timer) is handled, so bots at no delay
        search a slice at a time (a cell's call, outside, wants the bot's answer at once)."""
        was, self.answering = self.answering, True
        try:
            yield
        finally:
            self.answering = was

    def to_move(self) -> bool:
        return not self.closed and self.seats.bot_to_move()

    @property
    def busy(self) -> bool:
        """Is a bot's move on its way (on the timer, or being searched)?"""
        return self.pending is not None or (self.search is not None and self.search.kind == "bot")

    def cancel(self) -> None:
        """No bot's move on its way, and no search running (a hint's too)."""
        if self.pending is not None:
            self.pending.cancel()
            self.pending = None
        self.stop_search()
        self.board.thinking = False

    def stop_search(self) -> None:
        search, self.search = self.search, None
        if search is not None:
            search.stop()

    def begin(self, kind: str, steps: Generator[None, None, Any], finish: Callable[[Any], None],
              fail: Callable[[BaseException], None]) -> bool:
        """Run the search ``steps`` (``kind`` "bot" or "hint") for the position now: its
        first slice at once (raising what it raises), the rest a slice per turn of the event
        loop, if one runs (else all at once); ``finish`` gets what it returns, ``fail`` what
        it raises after the first slice. True when it is over already."""
        self.stop_search()
        search = Search(kind, self.session.state_id, steps)
        loop = running_loop()
        if loop is None:
            finish(run_through(steps))
            return True
        over, found = search.run_slice()
        if over:
            finish(found)
            return True
        self.search = search
        search.handle = loop.call_soon(self._go_on, search, finish, fail)
        return False

    def _go_on(self, search: Search, finish: Callable[[Any], None], fail: Callable[[BaseException], None]) -> None:
        """The next slice of ``search`` (on the loop). Nothing but Ctrl-C escapes onto the
        loop, and the board is left usable whatever happens."""
        search.handle = None
        if self.search is not search or search.over:
            return  # stopped meanwhile
        try:
            over, found = search.run_slice()
        except BaseException as exc:  # (Ctrl-C too: the board stops searching, then it goes on up)
            self.search = None
            fail(exc)
            if not isinstance(exc, Exception):
                raise
            return
        if not over:
            search.handle = asyncio.get_running_loop().call_soon(self._go_on, search, finish, fail)
            return
        self.search = None
        if search.state_id == self.session.state_id:  # (a change of the game stops a search: this is a last guard)
            with self.on_loop():
                finish(found)

    def drop_stale(self) -> None:
        """The game changed: a search on the position before is of no use now."""
        if self.search is not None and self.search.state_id != self.session.state_id:
            self.stop_search()
            self.board.thinking = self.pending is not None

    def schedule(self) -> None:
        """The next bot's move, if a bot is to move and none is on its way."""
        self.drop_stale()
        if self.busy or self.running or self.seats.bots_wait() or not self.to_move():
            return
        loop = running_loop()
        delay = self.delay()
        if loop is None or delay == 0:  # at once: for a cell, the reply is there when it returns; for the page, in slices
            self.run(sys.maxsize if loop is not None else 10_000, sliced=loop is not None and self.answering,
                     bounded=loop is not None)  # (bounded: by time, the rest on the loop after)
            return
        self.pending = loop.call_later(delay, self.step)
        self.board.thinking = True
        self.redraw()  # the status says who is thinking

    def repace(self, was: float, now: float) -> None:
        """The bot on its way, at a new pace: the share of the wait still to come is kept
        (``was`` and ``now``: the whole delays before and after), so changing the speed
        again and again never holds a bot back."""
        pending = self.pending
        if pending is None:
            return
        pending.cancel()
        self.pending = None
        loop = running_loop() if was > 0 and now > 0 else None  # (none: as schedule, the bot moves now)
        share = max(0.0, min(1.0, (pending.when() - loop.time()) / was)) if loop is not None else 0.0
        if loop is None or share * now <= 0:
            self.board.thinking = False
            self.step()
            return
        self.pending = loop.call_later(share * now, self.step)

    def run(self, max_moves: int = 10_000, *, sliced: bool = False, bounded: bool = False) -> int:
        """``GameWidget.run_bots`` (and, ``bounded``, the bots' moves at no delay where an
        event loop runs: each search answers by SEARCH_SECONDS, and the moves after that
        long go on on the loop; ``sliced``, for the page: a search that takes longer than a
        slice goes on a slice at a time, and so do the moves after a slice's worth of them)."""
        if type(max_moves) is not int or max_moves < 0:
            raise GameError(f"max_moves must be a whole number >= 0, got {shown(max_moves)}")
        self.cancel()
        moves = 0
        self.running = True
        start = time.perf_counter()
        try:
            while moves < max_moves and self.to_move():
                if bounded and time.perf_counter() - start > (SLICE_SECONDS if sliced else SEARCH_SECONDS):  # on and on (a game that loops)
                    self.pending = asyncio.get_running_loop().call_later(0, self.step)  # the rest after the loop's next turn
                    self.board.thinking = True
                    self.redraw()
                    break
                if not self.move(sliced=sliced, bounded=bounded):
                    break
                moves += 1
        finally:
            self.running = False
        return moves

    def step(self) -> None:
        """The loop's timer: the bot's move, its search a slice at a time."""
        self.pending = None
        with self.on_loop():
            self.move(sliced=True)

    def move(self, sliced: bool, bounded: bool = False) -> bool:
        """One bot move (``sliced``: its search a slice at a time on the running loop, if
        it takes longer than one; ``bounded``: at once, by SEARCH_SECONDS); False when none
        was made, or it is still being searched.
        Nothing escapes: on the loop an exception would only reach the loop's log, leaving
        a board that says the bot is thinking and offers nothing."""
        if not self.to_move():
            self.board.thinking = False
            return False
        game = self.session
        seat = game.current_player
        bot = self.seats.bots[seat]
        if not sliced:
            deadline = time.perf_counter() + SEARCH_SECONDS if bounded else None
            return self._moved(seat, bot, *run_through(choosing(game, bot, deadline)))
        made: list[bool] = []

        def finish(chosen: tuple[Any, str]) -> None:
            made.append(self._moved(seat, bot, *chosen))

        def fail(exc: BaseException) -> None:  # Ctrl-C, or the board's own failure (a bot's own is a random move: choosing)
            with self.board.hold_sync():
                self.board.thinking = False
                self.board.error = f"{game.players[seat]} stopped thinking ({type(exc).__name__}); Undo, or start a New game"
                self.quietly()

        try:
            if self.begin("bot", choosing(game, bot, time.perf_counter() + SEARCH_SECONDS), finish, fail):
                return bool(made and made[0])
        except Exception as exc:  # (choosing catches a bot's failure: this is the board's own)
            fail(exc)
            return False
        if not self.board.thinking:  # still searching: the status says who is thinking
            self.board.thinking = True
            self.redraw()
        return False

    def _moved(self, seat: int, bot: Any, action: Any, failed: str) -> bool:
        """Play the bot's ``action`` (``failed``: what the board says of a bot that failed)."""
        game = self.session
        name = game.players[seat]  # the seat's name: checked text (a bot's own name may be anything)
        self.board.thinking = False
        try:
            if failed:
                self.board.error = failed
            self.decision = None if failed else bot_decision(game, seat, bot, int(action))  # what it weighed
            game.apply(action)  # listeners re-sync and schedule the next step
        except Exception as exc:  # the game refused the move (a bug in the game): the position is as it was
            with self.board.hold_sync():
                self.board.error = f"{name} could not move ({fault(exc)}); the game is as it was: Undo, or start a New game"
                self.quietly()
            return False
        return True


def choosing(session: Session, bot: Any, deadline: float | None = None) -> Generator[None, None, tuple[Any, str]]:
    """:func:`bot_choice` in steps (``bots.bot_moving``), answering by ``deadline``."""
    try:
        return (yield from bot_moving(session, bot, deadline=deadline)), ""
    except Exception as exc:  # a broken bot must not stop the game
        name = session.players[session.current_player]  # the seat's name: checked text (a bot's own name may be anything)
        action = random.Random(session.state_id).choice(session.legal_actions())
        return action, f"{name} failed ({fault(exc)}); it played a random legal move instead"


def bot_choice(session: Session, bot: Any) -> tuple[Any, str]:
    """The move of ``bot`` for the seat to act, and "" ; when the bot fails, a random legal
    move instead (the same one for the same position) and what the board says about it."""
    return run_through(choosing(session, bot))


def fault(exc: BaseException) -> str:
    """What failed in a bot's or a game's own code, for the board, which every seat
    reads: the error's type and message, cut, but never the move it was about (a
    bot's move names cards of its hidden hand). A game's fault is told by the game's
    own error; the core's refusal of a bot's move by its type alone."""
    if isinstance(exc, GameFault) and exc.__cause__ is not None:
        exc = exc.__cause__  # the game's own error, not the move it failed on
    elif isinstance(exc, GameError):
        return f"{type(exc).__name__}: its move was not a legal action now"
    return f"{type(exc).__name__}: {cut(str(exc))}"
