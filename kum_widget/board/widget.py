"""``GameWidget``: the clickable board, synced both ways with a live ``kum.Game``.

The kernel is the only writer of what the board shows. Traitlets carry the view for
the viewer the kernel chose, the legal actions of the human to move (and why the other
parts take none), the log, what a bot weighed, an error text and the state id; the browser may not write any of them (a write is
refused and reverted). It sends one custom message per click (a move names its action by id), checked (``router``) before
anything changes, and every message gets an answer (``{"kind": "answer", "id": ...}``)
so the page never waits for a change that will not come.

The widget is a small anywidget around two plain objects: the seats
(``seats.Seats``: who sits where, whose view the board shows, the pass screen,
when bots move) and the router (``router.Router``: the page's messages). It keeps the
traits, the private part below and the bots' timer.

What may be kept: the synced traits outlive the moment (nbclient's ``store_widget_state``
and JupyterLab's "Save widget state" write them into the notebook), so they hold what
the board's picture and a replay file hold (``Seats.kept``): in a hot seat the public
table, always. The hand of the seat at the screen (its board, legal actions and log) goes
to the page in a custom message, ``{"kind": "private", "id": n, "traits": {...}}``, sent
after the traits it goes with, which name it (``private_id``: n, or 0 for none); the page
keeps it in the view's memory, never on the model, and a view that has not got it (a new
view, a reloaded page) asks with ``{"kind": "view"}``. A one-human board syncs the human's
own seat as before: its picture and replay file show that seat too, and a page that waits
for no message renders at once (static exports, other hosts).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import anywidget
import traitlets as t

from ..bots import BOT_NAMES, Analysis
from ..bots.bot import run_through
from ..core.errors import GameError, cut, shown
from ..core.files import HAND_IN_KINDS, hand_in_name, read_text_file, write_text_file
from ..core.session import Session
from .bot_driver import SEARCH_SECONDS, BotDriver, fault
from .dealing import dealt_again, first_deal
from .drawing import Viewer, drawn_frame, frame_for, static_text
from .insight import Decision, check_pace, drawn, hinting, pace_delay
from .replay import replay_page, save_replay, snapshot_forms
from .router import Router
from .seats import Seats, check_delay
from .text import board_text

__all__ = ["CONTROLS", "BoardView", "GameWidget"]

CONTROLS = ("undo", "redo", "new-game", "save-replay", "save-for-lab", "hint", "pace")


class _Checked(t.Any):
    """A trait whose every value, None too, goes to the widget's own validator, so
    that a bad value is named in a GameError (not traitlets' TraitError)."""

    allow_none = False


class BoardView(anywidget.AnyWidget):
    """What every board sends its page: the front-end and the traits it draws from. A
    board's kernel side (``GameWidget``, or ``seat_board.SeatBoard`` for a seat at a referee's
    table) is the only writer: a write from the browser is refused and reverted."""

    _esm = static_text("widget.js")  # text, not a Path: see static_text (a closed board must be freed)
    _css = static_text("widget.css")

    board = t.Dict().tag(sync=True)
    legal = t.Dict().tag(sync=True)
    log_lines: t.List[str] = t.List().tag(sync=True)
    """The board's log: one sentence per action, newest last, as the viewer may read it."""
    error = t.Unicode("").tag(sync=True)
    state_id = t.Int(0).tag(sync=True)
    # seat, reveal, bot_delay and step are set from cells: Any, so that our checks (not
    # traitlets' TraitError) name what is wrong.
    seat = _Checked(0).tag(sync=True)
    reveal = _Checked(False).tag(sync=True)
    bot_seats = t.Dict().tag(sync=True)
    """``{"1": {"name": "Greedy bot", "kind": "greedy"}}``; kind is None for a bot object."""
    last_move = t.Dict().tag(sync=True)
    pass_to = t.Unicode("").tag(sync=True)
    thinking = t.Bool(False).tag(sync=True)
    bot_choices = t.List(list(BOT_NAMES)).tag(sync=True)
    bot_delay = _Checked(0.6).tag(sync=True)
    step = _Checked(0).tag(sync=True)
    """Actions applied so far. Set it (or ``ipywidgets.link`` a slider to it) to move through
    the game's history: lower undoes, higher redoes (up to ``max_step``), as for a replay.
    Bots wait while there is something to redo."""
    max_step = t.Int(0).tag(sync=True)
    private_id = t.Int(0).tag(sync=True)
    """Hot seat: the id of the private part (the hand of the seat at the screen) the page
    shows over these traits; it comes in a message of its own (0: none, the traits are all)."""
    why_not = t.Dict().tag(sync=True)
    """``{part id: reason}``: why each part the shown seat sees takes no move now, in the
    game's words (empty but on that seat's turn)."""
    analysis = t.Dict(allow_none=True, default_value=None).tag(sync=True)
    """What a bot weighed at its last decision (shown where that seat's view may be), or the
    hint last asked for on this position; None: nothing to show (``insight``)."""
    pace = _Checked("normal").tag(sync=True)
    """How fast the bots move: "slow" (twice ``bot_delay``), "normal", "fast" (a quarter)
    or "instant"; the board's speed control sets it."""

    controls = t.List(list(CONTROLS)).tag(sync=True)
    """The board's buttons this kernel answers (undo, redo, new-game, save-replay,
    save-for-lab, hint, pace); the page shows only these (and its help)."""

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """A trait write from the browser: refused, and the kernel's values sent back.
        What the board shows is the kernel's to decide (a page could otherwise set
        ``reveal`` or ``seat`` and read every hand)."""
        names = sorted(str(k)[:30] for k in sync_data)[:4]
        with self.hold_sync():
            self.error = f"refused a change of {', '.join(names)} from the browser: the board's state is the kernel's to set"
        known = [k for k in sync_data if k in self.keys]
        if known:
            self.send_state(known)  # a plain update: the page takes the kernel's values back


class GameWidget(BoardView):
    """A board for ``game``; ``bots`` maps seats to bots (names or objects).

    ``GameWidget(bots={1: "greedy"}, seed=3)`` deals a new game of the default game
    (``core.registry.default_game()``: Kings Under Mountains);
    ``GameWidget(MyGame(), bots={1: "ismcts"})`` (or ``GameWidget("my-game")``, by its
    registered or installed name) deals one of any game on the core. The
    options ``players``, ``seed`` and ``rules`` (changes to the game's rule options) go to
    every game; a game with its own ``new_session`` takes its own setup options too
    (``kum.Game``'s ``first_player``). ``GameWidget(game, seat=1)`` shows an
    existing game (a ``kum.Game`` or any ``core.Session``). Seats without a bot are human;
    with several, the board is passed between them behind a pass screen. ``seat``
    (default: the first human seat) is whose hand a one-human board shows;
    ``reveal=True`` shows every hand (for teaching); ``bot_delay`` is the pause, in
    seconds, before each bot move, so a reader can follow it (``pace`` scales it: the
    board's speed control); at 0 the bots answer a cell's move before the cell goes on, and
    a click after its answer when their search outlasts a slice of the event loop.
    ``hint()`` shows what the search would play, and the board
    says why a part takes no move (``why_not``) and what a bot weighed (``analysis``,
    where its seat's cards may be seen): ``insight``.
    """

    def __init__(self, game: Any = None, seat: int | None = None, bots: dict[int, Any] | None = None,
                 reveal: bool = False, bot_delay: float = 0.6, **game_options: Any) -> None:
        session, specs = first_deal(game, bots, game_options)  # every check before anything is built
        check_delay(bot_delay)
        self._game = session
        self._seats = Seats(session, specs, seat=seat, reveal=reveal)  # checks seat and reveal, then seats the bots
        self._router = Router(self, self._seats)
        self._bots_driver = BotDriver(session, self._seats, self, self._sync, self._sync_quietly,
                                      lambda: pace_delay(self.bot_delay, self.pace))
        self._closed = False
        self._offered: tuple[int, list[int]] = (-1, [])  # (state id, the action ids offered on it)
        self._hinted: tuple[Any, Analysis, Any] | None = None  # the last hint: (state id, seat, bot), its table, its drawing
        self._private: dict[str, Any] | None = None  # the private part the traits name (never a trait)
        self._private_serial = 0
        self._private_due = False  # to be sent after the traits that name it
        super().__init__(seat=self._seats.seat, reveal=reveal, bot_delay=float(bot_delay))
        self.bot_seats = self._seats.bot_seats()
        session.on_change(self._on_game_change)
        self.on_msg(self._on_browser_msg)
        self.observe(self._on_display_change, names=["seat", "reveal"])
        self.observe(self._on_step, names=["step"])
        self.observe(self._on_pace, names=["pace"])
        self._sync()
        self._bots_driver.schedule()

    # -- public API ------------------------------------------------------------------

    @property
    def game(self) -> Any:
        """The live game: change it from a cell and the board follows."""
        return self._game

    @property
    def bots(self) -> dict[int, Any]:
        return self._seats.bots

    @property
    def _bots(self) -> dict[int, Any]:  # (the JupyterLab tests read a board's bots from a cell by this name)
        return self._seats.bots

    @property
    def offered(self) -> list[str]:
        """The action texts the board offers now (empty when no human here may act)."""
        return [self._game.action_text(a) for a in self.offered_ids]

    @property
    def offered_ids(self) -> list[int]:
        """The ids of the actions the board offers now, as the page clicks them (``legal``'s
        ``id``): a click is one of these, on the state they were offered on."""
        state_id, ids = self._offered
        return list(ids) if state_id == self._game.state_id else []

    def act(self, action: Any) -> list[Any]:
        """Apply an action (text, object or id) for the player to move, as from a cell."""
        self.error = ""  # before: bots answering inside apply may report their own
        return self._game.apply(action)

    def ready(self) -> None:
        """Say "I am <the player to act>" on the pass screen, as its button does (hot seat)."""
        self._seats.ready()
        self.error = ""
        self._sync()

    def undo(self) -> int:
        """Back to the previous decision of a human seat (bot replies included), in one
        step; return how many actions were taken back (0: no earlier human decision)."""
        steps = self._seats.undo_steps()
        if steps:
            self._bots_driver.cancel()
            self._game.undo(steps)
        return steps

    def redo(self) -> int:
        """Forward to the next decision of a human seat (or the end of the redo list),
        in one step; return how many actions were redone."""
        steps = self._seats.redo_steps()
        if steps:
            self._bots_driver.cancel()
            self._game.redo(steps)
        return steps

    def new_game(self, seed: int | None = None, *, bots: dict[int, Any] | None = None, **game_options: Any) -> None:
        """Start over on the same Game object (so every board on it follows). ``bots``
        replaces the bots (a seat named after its old bot takes the new bot's name);
        the game options default to this game's players and rules."""
        fresh, specs = dealt_again(self._game, self._seats.specs, seed, bots, game_options)  # all checked first
        if bots is not None:
            self._seats.seat_bots(specs, seed=fresh.seed)
        self._bots_driver.cancel()
        self._seats.start_over()
        self._bots_driver.decision = None
        with self.hold_sync():
            self.error = ""
            self.bot_seats = self._seats.bot_seats()
            self._game.load(fresh)

    def hint(self, bot: Any = "ismcts") -> Analysis:
        """What ``bot`` (ISMCTS by default) would play for the seat this board lets act now,
        weighed from that seat's view alone (``kum.bots.analyse``): the board shows it (the
        ``analysis`` trait, kind "hint") and nothing is played. Refused when no seat may act
        here. The search runs to its budget, here and now (Ctrl-C stops it, the board as it
        was); the board's Hint button runs it a slice at a time instead (:meth:`start_hint`)."""
        seat, asked = self._hint_asked(bot)
        key = None if asked is None else (*asked, "to its budget")  # (never the Hint button's, which a deadline may cut)
        if key is not None and self._hinted is not None and self._hinted[0] == key:
            self._show_hint(key, self._hinted[1:])  # the same search on the same position: asked again, not run again
            return self._hinted[1]
        self._bots_driver.stop_search()  # a hint from a cell answers in place of the Hint button's
        try:
            found = run_through(hinting(self._game, seat, bot, before=self._bots_driver.decision))
        except NotImplementedError as exc:  # a game with hidden cards and no determinize: nothing to search
            raise GameError(f"no hint: {exc}") from None
        self._show_hint(key, found)
        return found[0]

    def start_hint(self, bot: Any = "ismcts") -> None:
        """The board's Hint button: :meth:`hint`, its search run a slice at a time on the
        event loop where one runs (the board answers clicks, Undo and ``close()`` meanwhile,
        and a change of the game stops it), and by ``SEARCH_SECONDS`` with the best it has
        found; the board shows it when done. With no event loop, at once."""
        seat, asked = self._hint_asked(bot)
        driver = self._bots_driver
        key = None if asked is None else (*asked, "by a deadline")
        if asked is not None and self._hinted is not None and self._hinted[0][:-1] == asked:  # (a cell's, to its budget, too)
            self._show_hint(self._hinted[0], self._hinted[1:])
            return
        if driver.search is not None and driver.search.kind == "hint":
            return  # being searched already (a double click)
        steps = hinting(self._game, seat, bot, before=driver.decision, deadline=time.perf_counter() + SEARCH_SECONDS)
        try:
            driver.begin("hint", steps, lambda found: self._show_hint(key, found), self._hint_failed)
        except NotImplementedError as exc:
            raise GameError(f"no hint: {exc}") from None

    @property
    def searching(self) -> str | None:
        """What the board is searching a slice at a time now: "bot" (a bot's move), "hint"
        (the Hint button's), or None."""
        search = self._bots_driver.search
        return None if search is None else search.kind

    def _hint_asked(self, bot: Any) -> tuple[int, Any]:
        """The seat a hint is for, and the key of its search (None: a bot object, which may change between calls)."""
        if not self._seats.screen().actions:
            raise GameError("no hint: it is not the turn of a player at this board")
        seat = self._game.current_player
        return seat, (self._game.state_id, seat, bot) if isinstance(bot, str) else None

    def _show_hint(self, key: Any, found: tuple[Analysis, Decision]) -> None:
        self._hinted = (key, *found) if key is not None else None
        self._bots_driver.decision = found[1]
        self._sync()

    def _hint_failed(self, exc: BaseException) -> None:
        """The page's Hint failed after its first slice: the board says so (as the router would)."""
        why = str(exc) if isinstance(exc, (GameError, NotImplementedError)) else fault(exc)
        with self.hold_sync():
            self.error = cut(f"no hint: {why}")
            self._sync_quietly()

    def run_bots(self, max_moves: int = 10_000) -> int:
        """Let bot seats move now, synchronously, until a human is to move (a redo list
        is given up, as by any new move); return how many moves they made. A move the
        game refuses stops them (the board says why)."""
        return self._bots_driver.run(max_moves)

    def save_replay(self, path: Any, *, title: str | None = None) -> Path:
        """Save the game as one HTML file that replays it offline (``kum.save_replay``),
        drawn as this board draws it: one human's seat, the public table for a hot seat,
        the full table with ``reveal``. The board's "Save replay" button saves the same."""
        viewer = self._seats.kept()
        return save_replay(self._game, path, seat=viewer.seat, public=viewer.kind == "public", title=title)

    def save_for_lab(self, folder: Any = ".") -> Path:
        """Hand the finished game in: write its whole record (``game.record()``: the game is
        over, so no card is secret any more) into ``folder`` (default: the working folder,
        the notebook's) under a name with the game, the players and the date
        (``core.files.hand_in_name``), and return its path. ``kum.lab.load`` reads it. A file of
        that name holding another game is kept: the new one gets "-2" (or "-3"...) before its
        ending; the same game saved again is the same file. The board's "Save for the lab"
        button (shown at game over) saves the same. Refused before the game is over."""
        game = self._game
        if not game.is_over:
            raise GameError("Save for the lab: the game is not over yet (a record written now would show every hidden "
                            "card); it can be saved once the game ends")
        try:
            where = Path(os.fspath(folder)) if isinstance(folder, (str, os.PathLike)) else None
            found = where is not None and where.is_dir()
        except (TypeError, ValueError, OSError):  # a path of bytes, a NUL in it, a name too long
            where, found = None, False
        if where is None or not found:
            raise GameError(f"Save for the lab: folder must be an existing folder, got {shown(folder)}")
        record = game.record()  # (refused here, before any file is touched, for a game that cannot write one)
        name = hand_in_name(game)
        stem = name.removesuffix(HAND_IN_KINDS["record"])
        for k in range(1, 100):
            path = where / (name if k == 1 else f"{stem}-{k}{HAND_IN_KINDS['record']}")
            if not path.exists():
                break
            try:
                if read_text_file(path, what="record", limit=4 * len(record.encode()) + 1024)[1] == record:
                    return Path(os.path.abspath(path))  # this game, saved already
            except GameError:
                continue  # another file, or one not to read: never written over
        else:
            raise GameError(f"Save for the lab: {shown(str(where))} holds 99 files named {stem}...: choose another folder")
        return Path(os.path.abspath(write_text_file(path, record, example=name)))

    def close(self) -> None:
        """Close the board: it stops following the game and its bots stop; the board, its
        game (unless held elsewhere) and its bots can then be freed."""
        if getattr(self, "_closed", True) is False:  # (a half-built board has nothing to undo)
            self._closed = self._bots_driver.closed = True
            self._bots_driver.cancel()
            self._game.on_change(self._on_game_change, remove=True)
            self.layout.close()  # the board's own Layout widget, which ipywidgets would keep open for ever
        super().close()

    # -- what the kernel side sets: checked by the seats, and the page may set nothing ----

    @t.validate("seat")
    def _valid_seat(self, proposal: Any) -> int:
        self._seats.seat = proposal["value"]  # checked there: the seats decide whose view shows
        return int(proposal["value"])

    @t.validate("reveal")
    def _valid_reveal(self, proposal: Any) -> bool:
        self._seats.reveal = proposal["value"]  # checked there
        return bool(proposal["value"])

    @t.validate("bot_delay")
    def _valid_delay(self, proposal: Any) -> float:
        check_delay(proposal["value"])
        return float(proposal["value"])

    @t.validate("pace")
    def _valid_pace(self, proposal: Any) -> str:
        return check_pace(proposal["value"])

    @t.validate("step")
    def _valid_step(self, proposal: Any) -> int:
        value = proposal["value"]
        if type(value) is not int:
            raise GameError(f"step must be a whole number 0..{self.max_step}, got {shown(value)}")
        return max(0, min(value, self.max_step))  # clamp to the record

    def _on_browser_msg(self, widget: Any, content: Any, buffers: Any) -> None:
        """A message from the page: routed (``router``), and always answered."""
        with self.hold_sync(), self._bots_driver.on_loop():  # one update per click, whatever it changes
            reply = self._router.route(content)
            if reply.error is not None:
                self.error = reply.error
            if reply.broke:
                self._sync_quietly()  # whatever half-happened, the board shows the kernel's state
            if reply.resend_private:
                self._private_due = True
        self._send_private()  # (hold_sync sent it, unless nothing at all changed)
        self.send(reply.answer(self.state_id))

    # -- syncing ---------------------------------------------------------------------

    def _sync(self) -> None:
        game = self._game
        screen = self._seats.screen(thinking=self._bots_driver.busy)
        self._offered = (game.state_id, list(screen.actions))
        traits = self._drawn(screen.viewer, screen.status, screen.actions)
        private = None
        if screen.kept != screen.viewer:  # a hot seat's seat at the screen
            private, traits = traits, self._drawn(screen.kept, screen.status, [])  # the traits: what a save may keep
        with self.hold_sync():
            self.max_step = game.move_number + game.redo_count
            self.step = game.move_number  # after max_step, which bounds it
            self.last_move = traits["last_move"]
            self.board = traits["board"]
            self.legal = traits["legal"]
            self.log_lines = traits["log_lines"]
            self.why_not = traits["why_not"]
            self.analysis = traits["analysis"]
            self.pass_to = screen.pass_to
            self.state_id = game.state_id
            if private != self._private:
                self._private = private
                self._private_serial += private is not None
                self._private_due = True  # sent when the traits are (send_state)
            self.private_id = self._private_serial if private is not None else 0

    def _drawn(self, viewer: Viewer, status: str | None, actions: list[int]) -> dict[str, Any]:
        """The traits that draw the board for ``viewer`` (``insight.drawn``)."""
        return drawn(self._game, viewer, status, actions, self._seats.bots, self._bots_driver.decision)

    def _sync_quietly(self) -> None:
        try:
            self._sync()
        except Exception:  # a board that cannot be drawn: the error already says what failed
            pass

    def send_state(self, key: Any = None) -> None:
        """ipywidgets' sending of the traits (at the end of every ``hold_sync``); then the
        private part they name, if it changed: the page gets it after them, before any answer."""
        super().send_state(key)
        self._send_private()

    def _send_private(self) -> None:
        if self._private_due and getattr(self, "comm", None) is not None and not self._holding_sync:
            self._private_due = False
            self.send({"kind": "private", "id": self.private_id, "traits": self._private})

    def _on_display_change(self, change: Any) -> None:
        self._sync()

    def _on_pace(self, change: Any) -> None:
        # the bot on its way: at the new pace, for what is left of its wait
        self._bots_driver.repace(pace_delay(self.bot_delay, change["old"]), pace_delay(self.bot_delay, change["new"]))

    def _on_step(self, change: Any) -> None:
        done = self._game.move_number
        target = change["new"]
        if target != done:
            self._bots_driver.cancel()
            if target < done:
                self._game.undo(done - target)
            else:
                self._game.redo(target - done)

    def _on_game_change(self, game: Session) -> None:
        try:
            self._sync()
            self._bots_driver.schedule()
        except Exception as exc:  # the game has changed: say so on the board, never split silently
            self.error = f"the board could not follow the game ({type(exc).__name__}: {cut(str(exc))}); run a cell to refresh"
            raise

    # -- the forms that outlive the kernel (a picture, the text board, a replay file) ------

    def _replay_page(self) -> str:
        """The "Save replay" button's file (the tests compare it byte for byte)."""
        return replay_page(self._game, self._seats.kept(), self._seats.bots)

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        """The live board, and for viewers without a kernel the board as it is now, drawn
        for whom a replay file would be (``Seats.kept``): in a hot seat the public table,
        never a hand that only the player at the screen may see."""
        bundle = super()._repr_mimebundle_(**kwargs)
        if bundle is None:
            return None
        data, metadata = bundle  # the metadata too: Colab needs it
        return {**data, **snapshot_forms(self._game, self._seats.kept(), self._seats.bots, self.state_id)}, metadata

    def text(self) -> str:
        """The board as text, as it shows its viewer: the seat at the screen, every hand with
        ``reveal=True``, in a hot seat the public table (``Seats.kept``, as a saved notebook's
        picture). ``str(board.game)`` is the full table: the scripter's own, every hand in it."""
        viewer = self._seats.kept()
        drawn = drawn_frame(frame_for(self._game, viewer), bots=self._seats.bots)
        return board_text(drawn["board"], drawn["log_lines"], last=3)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        bots = self._seats.bots
        seats = ", ".join(f"{name} (bot)" if s in bots else name for s, name in enumerate(self._game.players))
        return f"<GameWidget: {self._game.title}; {seats}; state {self.state_id}>"
