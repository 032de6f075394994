"""``GameWidget``: the clickable board, synced both ways with a live ``kum.Game``.

The kernel is the only writer of what the board shows. Traitlets carry the view for
the viewer the kernel chose, the legal actions of the human to move, the log, an
error text and the state id; the browser may not write any of them (a write is
refused and reverted). It sends one custom message per click, checked (``_board_messages``) before
anything changes, and every message gets an answer (``{"kind": "answer", "id": ...}``)
so the page never waits for a change that will not come.

Who sees what (D6): one human and bots, the human's seat (``seat``); two or more
humans on one screen (hot seat), the seat that last said "I am X" on the pass
screen, and only the public table while the pass screen shows, during a bot's turn
nobody has claimed, and at game over; ``reveal=True``, the full table.

What may be kept: the synced traits outlive the moment (nbclient's ``store_widget_state``
and JupyterLab's "Save widget state" write them into the notebook), so they hold what
the board's picture and a replay file hold (``_replay_viewer``): in a hot seat the public
table, always. The hand of the seat at the screen (its board, legal actions and log) goes
to the page in a custom message, ``{"kind": "private", "id": n, "traits": {...}}``, sent
after the traits it goes with, which name it (``private_id``: n, or 0 for none); the page
keeps it in the view's memory, never on the model, and a view that has not got it (a new
view, a reloaded page) asks with ``{"kind": "view"}``. A one-human board syncs the human's
own seat as before: its picture and replay file show that seat too, and a page that waits
for no message renders at once (static exports, other hosts).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import anywidget
import traitlets as t

from ._board_bots import BoardBots
from ._board_data import Viewer, board_payload, bot_label, last_move, legal_payload, log_lines, static_text
from ._board_forms import BoardForms
from ._board_messages import BrowserMessages
from ._seating import board_game, bot_kind, check_bots, check_game_options, default_names
from .bots import BOT_NAMES, make_bot
from .core.errors import GameError, cut, shown, shown_names
from .core.game import CardGame
from .core.session import Session, new_session

__all__ = ["GameWidget"]

class _Checked(t.Any):
    """A trait whose every value, None too, goes to the widget's own validator, so
    that a bad value is named in a GameError (not traitlets' TraitError)."""

    allow_none = False


class GameWidget(BoardForms, BrowserMessages, BoardBots, anywidget.AnyWidget):
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
    seconds, before each bot move, so a reader can follow it.
    """

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

    def __init__(
        self,
        game: Any = None,
        seat: int | None = None,
        bots: dict[int, Any] | None = None,
        reveal: bool = False,
        bot_delay: float = 0.6,
        **game_options: Any,
    ) -> None:
        # Every check before anything is built, so a refused call leaves nothing behind.
        game = board_game(game)
        if isinstance(game, Session):
            if game_options:
                raise GameError(f"pass either a game or game options, not both ({shown_names(game_options, 3)})")
            specs = check_bots(bots, game.num_players)
        elif isinstance(game, CardGame):
            rules = game
            check_game_options(game_options, "GameWidget", rules)
            specs = check_bots(bots, None)
            if game_options.get("rules") is not None:
                rules = rules.with_options(game_options.pop("rules"))
            game_options.pop("rules", None)
            if "players" not in game_options:
                game_options["players"] = default_names(specs, max(rules.min_players, max(specs, default=0) + 1))
            game = new_session(rules, **game_options)
            check_bots(specs, game.num_players)
        else:
            raise GameError(f"game must be a game (a core.CardGame such as MyGame()) or a session such as kum.Game, got {cut(type(game).__name__, 60)}")
        assert isinstance(game, Session)
        humans = [s for s in range(game.num_players) if s not in specs]
        if seat is None:
            seat = humans[0] if humans else 0
        self._check_seat(seat, game)
        self._check_reveal(reveal)
        self._check_delay(bot_delay)
        self._game = game
        self._specs = specs
        self._bots = {s: make_bot(spec, seed=(game.seed or 0) + s) for s, spec in specs.items()}
        self._kinds = {s: bot_kind(spec) for s, spec in specs.items()}
        self._pending: asyncio.TimerHandle | None = None
        self._running_bots = False
        self._closed = False
        self._at_screen: int | None = None  # hot seat: who said "I am X" since the last pass screen
        self._offered: list[str] = []
        self._private: dict[str, Any] | None = None  # the private part the traits name (never a trait)
        self._private_serial = 0
        self._private_due = False  # to be sent after the traits that name it
        super().__init__(seat=seat, reveal=reveal, bot_delay=float(bot_delay))
        self._set_bot_seats()
        game.on_change(self._on_game_change)
        self.on_msg(self._on_browser_msg)
        self.observe(self._on_display_change, names=["seat", "reveal"])
        self.observe(self._on_step, names=["step"])
        self._sync()
        self._schedule_bots()

    # -- public API ------------------------------------------------------------------

    @property
    def game(self) -> Any:
        """The live game: change it from a cell and the board follows."""
        return self._game

    @property
    def bots(self) -> dict[int, Any]:
        return dict(self._bots)

    @property
    def offered(self) -> list[str]:
        """The action texts the board offers now (empty when no human here may act)."""
        return list(self._offered)

    def act(self, action: Any) -> list[Any]:
        """Apply an action (text, object or id) for the player to move, as from a cell."""
        self.error = ""  # before: bots answering inside apply may report their own
        return self._game.apply(action)

    def ready(self) -> None:
        """Say "I am <the player to act>" on the pass screen, as its button does (hot seat)."""
        if not self.pass_to:
            raise GameError("there is no pass screen to confirm")
        self._at_screen = self._game.current_player
        self.error = ""
        self._sync()

    def undo(self) -> int:
        """Back to the previous decision of a human seat (bot replies included), in one
        step; return how many actions were taken back (0: no earlier human decision)."""
        movers, humans = self._game.movers, set(self._humans())
        if humans:
            steps = next((k for k in range(1, len(movers) + 1) if movers[-k] in humans), 0)
        else:
            steps = min(1, len(movers))
        if steps:
            self._cancel_bots()
            self._game.undo(steps)
        return steps

    def redo(self) -> int:
        """Forward to the next decision of a human seat (or the end of the redo list),
        in one step; return how many actions were redone."""
        ahead, humans = self._game.redo_movers, set(self._humans())
        if humans:
            steps = next((k for k in range(1, len(ahead)) if ahead[k] in humans), len(ahead))
        else:
            steps = min(1, len(ahead))
        if steps:
            self._cancel_bots()
            self._game.redo(steps)
        return steps

    def new_game(self, seed: int | None = None, *, bots: dict[int, Any] | None = None, **game_options: Any) -> None:
        """Start over on the same Game object (so every board on it follows). ``bots``
        replaces the bots (a seat named after its old bot takes the new bot's name);
        the game options default to this game's players and rules."""
        rules = self._game.game
        check_game_options(game_options, "new_game", rules)
        if "rules" in game_options:
            rules = self._new_rules(rules, game_options.pop("rules"))
        if "players" in game_options:
            fresh = new_session(rules, seed=seed, **game_options)  # the players, seed and rules are checked first
            specs = check_bots(self._specs if bots is None else bots, fresh.num_players)
        else:
            names = list(self._game.players)
            specs = check_bots(self._specs if bots is None else bots, len(names))
            if bots is not None:  # seats still named as the old bots were take the new bots' names
                old, new = default_names(self._specs, len(names)), default_names(specs, len(names))
                names = [new[s] if names[s] == old[s] else names[s] for s in range(len(names))]
            fresh = new_session(rules, names, seed=seed, **game_options)
        if bots is not None:
            self._specs = specs
            self._bots = {s: make_bot(spec, seed=(fresh.seed or 0) + s) for s, spec in specs.items()}
            self._kinds = {s: bot_kind(spec) for s, spec in specs.items()}
        self._cancel_bots()
        self._at_screen = None
        with self.hold_sync():
            self.error = ""
            self._set_bot_seats()
            self._game.load(fresh)

    def close(self) -> None:
        """Close the board: it stops following the game and its bots stop; the board, its
        game (unless held elsewhere) and its bots can then be freed."""
        if getattr(self, "_closed", True) is False:  # (a half-built board has nothing to undo)
            self._closed = True
            self._cancel_bots()
            self._game.on_change(self._on_game_change, remove=True)
            self.layout.close()  # the board's own Layout widget, which ipywidgets would keep open for ever
        super().close()

    # -- validation of what the kernel side sets -------------------------------------

    @staticmethod
    def _check_seat(seat: Any, game: Session) -> None:
        if type(seat) is not int or not 0 <= seat < game.num_players:
            raise GameError(f"seat must be 0..{game.num_players - 1}, got {shown(seat)}")

    @staticmethod
    def _check_reveal(reveal: Any) -> None:
        if type(reveal) is not bool:
            raise GameError(f"reveal must be True or False, got {shown(reveal)}")

    @staticmethod
    def _check_delay(delay: Any) -> None:
        # compared as it is (NaN compares false): float() of a huge whole number overflows
        if type(delay) not in (int, float) or not 0 <= delay <= 60:
            raise GameError(f"bot_delay must be a number of seconds from 0 to 60, got {shown(delay)}")

    @staticmethod
    def _new_rules(game: CardGame, changes: Any) -> CardGame:
        """``game`` with the rule changes ``new_game(rules=...)`` was given: a mapping of
        option names to values, the game's rules object (``kum.Rules``, ``kum.CourtRules``)
        or None (the rules as they are)."""
        if changes is None:
            return game.with_options({})
        if callable(getattr(changes, "options", None)) and not isinstance(changes, Mapping):
            changes = changes.options()  # a game's rules object (kum.CourtRules): its options
        elif not isinstance(changes, Mapping) and not callable(getattr(changes, "to_dict", None)):
            raise GameError(f"new_game: rules must map rule options to values (or be the game's rules object), got {shown(changes)}")
        try:
            return game.with_options(changes)
        except GameError:
            raise
        except Exception as exc:  # a game's own with_options or __init__ refusing them its own way
            raise GameError(f"new_game: the rules {shown(changes)} were refused ({type(exc).__name__}: {cut(str(exc))})") from exc

    @t.validate("seat")
    def _valid_seat(self, proposal: Any) -> int:
        self._check_seat(proposal["value"], self._game)
        return int(proposal["value"])

    @t.validate("bot_delay")
    def _valid_delay(self, proposal: Any) -> float:
        self._check_delay(proposal["value"])
        return float(proposal["value"])

    @t.validate("reveal")
    def _valid_reveal(self, proposal: Any) -> bool:
        self._check_reveal(proposal["value"])
        return bool(proposal["value"])

    @t.validate("step")
    def _valid_step(self, proposal: Any) -> int:
        value = proposal["value"]
        if type(value) is not int:
            raise GameError(f"step must be a whole number 0..{self.max_step}, got {shown(value)}")
        return max(0, min(value, self.max_step))  # clamp to the record

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

    # -- syncing ---------------------------------------------------------------------

    def _humans(self) -> list[int]:
        return [s for s in range(self._game.num_players) if s not in self._bots]

    def _viewer(self) -> tuple[Viewer, str]:
        """Whom the board is drawn for now, and whom to pass it to (hot seat)."""
        game, humans = self._game, self._humans()
        if self.reveal:
            return Viewer("full"), ""
        if len(humans) < 2:
            return Viewer("seat", self.seat), ""
        cur = game.current_player
        if game.is_over:
            self._at_screen = None  # everyone gathers round: the public table
            return Viewer("public"), ""
        if cur in humans and self._at_screen != cur:
            self._at_screen = None  # whoever is at the screen now, nobody has said who
            return Viewer("public"), game.players[cur]
        if self._at_screen is None:
            return Viewer("public"), ""
        return Viewer("seat", self._at_screen), ""

    def _sync(self) -> None:
        game = self._game
        viewer, pass_to = self._viewer()
        cur = game.current_player
        may_act = (
            not game.is_over and cur not in self._bots and not pass_to
            and (viewer.kind == "full" or viewer.seat == cur)
        )
        actions = game.legal_action_ids() if may_act else []
        self._offered = [game.action_text(a) for a in actions]
        status = self._status(pass_to)
        drawn = self._drawn(viewer, status, actions)
        kept = self._replay_viewer()  # whom the traits may be drawn for: a save keeps them
        private = None
        if (kept.kind, kept.seat) != (viewer.kind, viewer.seat):  # a hot seat's seat at the screen
            private, drawn = drawn, self._drawn(kept, status, [])
        with self.hold_sync():
            self.max_step = game.move_number + game.redo_count
            self.step = game.move_number  # after max_step, which bounds it
            self.last_move = drawn["last_move"]
            self.board = drawn["board"]
            self.legal = drawn["legal"]
            self.log_lines = drawn["log_lines"]
            self.pass_to = pass_to
            self.state_id = game.state_id
            if private != self._private:
                self._private = private
                self._private_serial += private is not None
                self._private_due = True  # sent when the traits are (send_state)
            self.private_id = self._private_serial if private is not None else 0

    def _drawn(self, viewer: Viewer, status: str | None, actions: list[int]) -> dict[str, Any]:
        """The traits that draw the board for ``viewer``: its board, legal actions, log, last move."""
        game = self._game
        board = board_payload(game, viewer, bots=self._bots, status=status)
        return {"board": board, "legal": {"actions": legal_payload(game, actions)},
                "log_lines": log_lines(game, viewer), "last_move": last_move(game, self._bots, board)}

    def send_state(self, key: Any = None) -> None:
        """ipywidgets' sending of the traits (at the end of every ``hold_sync``); then the
        private part they name, if it changed: the page gets it after them, before any answer."""
        super().send_state(key)
        self._send_private()

    def _send_private(self) -> None:
        if self._private_due and getattr(self, "comm", None) is not None and not self._holding_sync:
            self._private_due = False
            self.send({"kind": "private", "id": self.private_id, "traits": self._private})

    def _status(self, pass_to: str) -> str | None:
        """The board's status line when the widget knows better than the game."""
        game = self._game
        if game.is_over:
            return None
        name = game.players[game.current_player]
        if pass_to:
            return f"Pass the board to {pass_to}."
        if game.current_player in self._bots:
            if game.can_redo:
                return f"{name} waits: you are replaying (step {game.move_number} of {game.move_number + game.redo_count}). Redo to go on."
            if self._pending is not None:
                return f"{name} is thinking…"
        return None

    def _set_bot_seats(self) -> None:
        self.bot_seats = {str(s): {"name": bot_label(b), "kind": self._kinds[s]} for s, b in self._bots.items()}

    def _on_display_change(self, change: Any) -> None:
        self._sync()

    def _on_step(self, change: Any) -> None:
        done = self._game.move_number
        target = change["new"]
        if target != done:
            self._cancel_bots()
            if target < done:
                self._game.undo(done - target)
            else:
                self._game.redo(target - done)

    def _on_game_change(self, game: Session) -> None:
        try:
            self._sync()
            self._schedule_bots()
        except Exception as exc:  # the game has changed: say so on the board, never split silently
            self.error = f"the board could not follow the game ({type(exc).__name__}: {cut(str(exc))}); run a cell to refresh"
            raise
