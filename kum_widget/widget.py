"""``GameWidget``: the clickable board, synced both ways with a live ``kum.Game``.

The kernel is the source of truth. Traitlets carry what the browser shows (the view
for the displayed seat, the legal actions of the human to move, the log, an error
text, the state id); the browser sends back one custom message per click, which is
checked here before anything changes. Nothing private to another seat is ever synced.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import anywidget
import traitlets as t

from .bots import BOT_NAMES, bot_move, make_bot
from .engine import Game, KumError
from .engine.actions import Discard, Draw, Play

__all__ = ["GameWidget"]

_STATIC = Path(__file__).parent / "static"
_LOG_LINES = 20  # the board shows this many; fewer bytes per move
_MSG_KINDS = {"act", "undo", "redo", "new_game", "ready"}
_HUMAN_NAMES = ("Ada", "Bo", "Cy", "Di")


def _compact(value: Any) -> Any:
    """Drop null and false fields (the front-end reads a missing field as empty):
    hidden cards and plain mines then cost a third of the bytes."""
    if isinstance(value, dict):
        return {k: _compact(v) for k, v in value.items() if v is not None and v is not False}
    if isinstance(value, list):
        return [_compact(v) for v in value]
    return value


def _target(action: Any) -> str:
    """The board key of an action's target: "mine 2", "claimed 1", "deck", "camp orc", "hand"."""
    if isinstance(action, Play):
        return f"mine {action.slot + 1}" if action.slot is not None else f"claimed {(action.claim or 0) + 1}"
    if isinstance(action, Draw):
        return "deck" if action.race is None else f"camp {action.race.value}"
    return "hand"


def _static(name: str) -> Path:
    path = _STATIC / name
    if not path.exists():
        raise RuntimeError(f"{path} is missing: build the front-end with `make js` (or `make lab`)")
    return path


class GameWidget(anywidget.AnyWidget):  # type: ignore[misc]
    """A board for ``game`` shown from ``seat``; ``bots`` maps seats to bots.

    ``GameWidget(bots={1: "greedy"}, seed=3)`` deals a new game (extra keyword
    arguments go to ``kum.Game``); ``GameWidget(game, seat=1)`` shows an existing one.
    Seats without a bot are human; with several, the board is passed between them.
    ``reveal=True`` shows every hand (for teaching); ``bot_delay`` is the pause, in
    seconds, before each bot move, so a reader can follow it.
    """

    _esm = _static("widget.js")
    _css = _static("widget.css")

    board = t.Dict().tag(sync=True)
    legal = t.Dict().tag(sync=True)
    log = t.List().tag(sync=True)
    error = t.Unicode("").tag(sync=True)
    state_id = t.Int(0).tag(sync=True)
    seat = t.Int(0).tag(sync=True)
    reveal = t.Bool(False).tag(sync=True)
    bot_seats = t.Dict().tag(sync=True)
    last_move = t.Dict().tag(sync=True)
    pass_to = t.Unicode("").tag(sync=True)
    thinking = t.Bool(False).tag(sync=True)
    bot_choices = t.List(list(BOT_NAMES)).tag(sync=True)
    bot_delay = t.Float(0.6).tag(sync=True)
    step = t.Int(0).tag(sync=True)
    """Actions applied so far. Set it (or link a slider to it) to move through the game's
    history: lower undoes, higher redoes (up to ``max_step``), as for a replay."""
    max_step = t.Int(0).tag(sync=True)

    def __init__(
        self,
        game: Game | None = None,
        seat: int = 0,
        bots: dict[int, Any] | None = None,
        reveal: bool = False,
        bot_delay: float = 0.6,
        **game_kwargs: Any,
    ) -> None:
        bots = dict(bots or {})
        if game is None:
            if "players" not in game_kwargs:
                count = max([1, *bots.keys()]) + 1
                game_kwargs["players"] = [
                    f"{getattr(bots[s], 'name', str(bots[s]).title() + ' bot')}" if s in bots else _HUMAN_NAMES[s]
                    for s in range(count)
                ]
            game = Game(**game_kwargs)
        elif game_kwargs:
            raise ValueError(f"pass either game= or game options, not both ({', '.join(game_kwargs)})")
        if not isinstance(game, Game):
            raise ValueError(f"game must be a kum.Game, got {type(game).__name__}")
        if type(seat) is not int or not 0 <= seat < game.num_players:
            raise ValueError(f"seat must be 0..{game.num_players - 1}, got {seat!r}")
        if not isinstance(bot_delay, (int, float)) or bot_delay < 0:
            raise ValueError(f"bot_delay must be a number of seconds >= 0, got {bot_delay!r}")
        self._bots = {}
        for s, spec in bots.items():
            if type(s) is not int or not 0 <= s < game.num_players:
                raise ValueError(f"bots: seat must be 0..{game.num_players - 1}, got {s!r}")
            self._bots[s] = make_bot(spec, seed=(game.seed or 0) + s)
        self._game = game
        self._pending: asyncio.TimerHandle | None = None
        self._stepping = False
        self._ready_seat: int | None = None
        self._offered: list[str] = []
        super().__init__(seat=seat, reveal=reveal, bot_delay=float(bot_delay))
        self.bot_seats = {str(s): b.name for s, b in self._bots.items()}
        game.on_change(self._on_game_change)
        self.on_msg(self._on_browser_msg)
        self.observe(self._on_display_change, names=["seat", "reveal"])
        self.observe(self._on_step, names=["step"])
        self._sync()
        self._schedule_bots()

    # -- public API ------------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The live game: change it from a cell and the board follows."""
        return self._game

    @property
    def bots(self) -> dict[int, Any]:
        return dict(self._bots)

    def act(self, action: Any) -> list[Any]:
        """Apply an action (text, object or id) for the player to move, as from a cell."""
        self.error = ""  # before: bots answering inside apply may report their own
        return self._game.apply(action)

    def undo(self) -> int:
        """Back to the previous decision of a human seat (bot replies included)."""
        self._cancel_bots()
        undone = 0
        self._stepping = True  # bots must not answer half-way through the undo
        try:
            if self._game.can_undo:
                undone = 1
                self._game.undo(1)
                while self._game.can_undo and self._game.current_player in self._bots:
                    self._game.undo(1)
                    undone += 1
        finally:
            self._stepping = False
        self._ready_seat = self._game.current_player
        self.error = ""
        self._sync()
        return undone

    def redo(self) -> int:
        return self._game.redo(1)

    def new_game(self, seed: int | None = None, *, bots: dict[int, Any] | None = None, **game_kwargs: Any) -> None:
        """Start over on the same Game object (so every board on it follows)."""
        names = list(self._game.players)
        for s, spec in (bots or {}).items():  # a seat named after its old bot takes the new bot's name
            old = self._bots.get(s)
            if old is not None and 0 <= s < len(names) and names[s] == getattr(old, "name", None):
                names[s] = getattr(make_bot(spec, seed=0), "name", names[s])
        game_kwargs.setdefault("players", names)
        game_kwargs.setdefault("rules", self._game.rules)
        fresh = Game(seed=seed, **game_kwargs)
        if bots is not None:
            self._bots = {s: make_bot(spec, seed=(fresh.seed or 0) + s) for s, spec in bots.items()}
            self.bot_seats = {str(s): b.name for s, b in self._bots.items()}
        self._cancel_bots()
        self._ready_seat = None
        self.error = ""
        self._game.load(fresh)

    def run_bots(self, max_moves: int = 10_000) -> int:
        """Let bot seats move now, synchronously, until a human is to move."""
        self._cancel_bots()
        moves = 0
        self._stepping = True
        try:
            while moves < max_moves and self._bot_to_move():
                self._bot_step()
                moves += 1
        finally:
            self._stepping = False
        return moves

    # -- syncing ---------------------------------------------------------------------

    def _humans(self) -> list[int]:
        return [s for s in range(self._game.num_players) if s not in self._bots]

    def _displayed_seat(self) -> int:
        humans = self._humans()
        cur = self._game.current_player
        if cur in humans and len(humans) > 1 and not self._game.is_over:
            return cur  # hot seat: the board follows the human to move
        return self.seat

    def _on_display_change(self, change: Any) -> None:
        self._sync()

    @t.validate("step")
    def _valid_step(self, proposal: Any) -> int:
        return max(0, min(int(proposal["value"]), self.max_step))  # clamp to the record

    def _on_step(self, change: Any) -> None:
        game = self._game
        target = change["new"]
        done = len(game._history)
        if target == done:
            return
        self._cancel_bots()
        self._stepping = True  # replaying: bots must not answer in between
        try:
            if target < done:
                game.undo(done - target)
            else:
                game.redo(target - done)
        finally:
            self._stepping = False

    def _on_game_change(self, game: Game) -> None:
        self._sync()
        self._schedule_bots()

    def _sync(self) -> None:
        game = self._game
        shown = self._displayed_seat()
        humans = self._humans()
        hot_seat = len(humans) > 1 and not self.reveal and not game.is_over
        cur = game.current_player
        pass_to = ""
        if hot_seat and cur in humans and self._ready_seat != cur:
            pass_to = game.players[cur]
        if self.reveal:
            board = game.view(None)
        elif pass_to:
            board = game.public_view()
        else:
            board = game.view(shown)
        board["shown_seat"] = None if self.reveal else shown
        del board["rules"]  # public, but the board does not draw it: fewer bytes per move
        self._offered: list[str] = []
        if not game.is_over and cur in humans and not pass_to and (self.reveal or cur == shown):
            self._offered = [game.action_text(a) for a in game.legal_actions()]
        legal = self._legal_payload(game.legal_actions() if self._offered else [])
        viewer = None if self.reveal else shown
        logs = game.logs
        lines = []
        for events in logs[-_LOG_LINES:]:
            lines.append(" ".join(game.describe(e, viewer) for e in events))
        last: dict[str, Any] = {}
        if game._history:
            seat = next((e.seat for e in logs[-1] if hasattr(e, "seat")), None)
            action = game.history[-1]
            last = {"seat": seat, "bot": seat in self._bots, "text": game.action_text(action), "target": _target(action)}
        with self.hold_sync():
            self.max_step = len(game._history) + len(game._future)
            self.step = len(game._history)  # after max_step, which bounds it
            self.last_move = last
            self.board = _compact(board)
            self.legal = legal
            self.log = lines
            self.pass_to = pass_to
            self.state_id = game.state_id

    @property
    def offered(self) -> list[str]:
        """The action texts the board offers now (empty when no human here may act)."""
        return list(self._offered)

    def _legal_payload(self, actions: list[Any]) -> dict[str, Any]:
        """The legal actions, grouped so each card's label is sent once: the board
        builds each text as ``play <label> on <target>``, ``draw <target>``,
        ``discard <label>``, and the kernel checks it against ``offered``."""
        plays: dict[int, dict[str, Any]] = {}
        draws: list[str] = []
        discards: list[dict[str, Any]] = []
        for action in actions:
            if isinstance(action, Play):
                entry = plays.setdefault(action.card, {"card": action.card, "label": self._game.deck[action.card].label, "targets": []})
                entry["targets"].append(_target(action))
            elif isinstance(action, Draw):
                draws.append(_target(action))
            elif isinstance(action, Discard):
                discards.append({"card": action.card, "label": self._game.deck[action.card].label})
        return {"plays": list(plays.values()), "draws": draws, "discards": discards}

    # -- browser messages (trust nothing) -------------------------------------------------

    def _on_browser_msg(self, widget: Any, content: Any, buffers: Any) -> None:
        try:
            self._handle_browser(content)
        except KumError as exc:
            self.error = str(exc)
        except Exception as exc:  # never a traceback in the notebook for a click
            self.error = f"internal error ({type(exc).__name__}): {exc}"
            self._sync()

    def _handle_browser(self, content: Any) -> None:
        if not isinstance(content, dict):
            raise KumError("refused a message from the board: not an object")
        kind = content.get("kind")
        if kind not in _MSG_KINDS:
            raise KumError(f"refused a message from the board: unknown kind {str(kind)[:40]!r}")
        sid = content.get("state_id")
        if type(sid) is not int or sid != self._game.state_id:
            self._sync()
            raise KumError("that click was on an old board (the game has moved on); try again")
        if kind == "ready":
            self._ready_seat = self._game.current_player
            self.error = ""
            self._sync()
            return
        if kind == "undo":
            self.undo()
            return
        if kind == "redo":
            self.redo()
            return
        if kind == "new_game":
            self._browser_new_game(content)
            return
        text = content.get("action")
        if not isinstance(text, str) or len(text) > 200:
            raise KumError("refused a message from the board: 'action' must be action text")
        if text not in self._offered:
            if not self._offered:
                raise KumError("it is not your turn to act on this board")
            raise KumError(f"refused {text[:80]!r}: not a legal action now")
        self.act(text)

    def _browser_new_game(self, content: dict[str, Any]) -> None:
        seed = content.get("seed")
        if seed is not None and (type(seed) is not int or not 0 <= seed < 2**31):
            raise KumError("new game: seed must be a whole number 0..2^31-1 or empty")
        bot = content.get("bot")
        bots = None
        if bot is not None:
            if bot not in BOT_NAMES:
                raise KumError(f"new game: unknown bot {str(bot)[:20]!r}")
            bots = dict.fromkeys(self._bots, bot)
        self.new_game(seed=seed, bots=bots)

    # -- bots ------------------------------------------------------------------------

    def _bot_to_move(self) -> bool:
        return not self._game.is_over and self._game.current_player in self._bots

    def _cancel_bots(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        self.thinking = False

    def _schedule_bots(self) -> None:
        if self._pending is not None or self._stepping or not self._bot_to_move():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None  # no event loop (a script or a test): bots move at once
        if loop is None or self.bot_delay == 0:
            self.run_bots()
            return
        self.thinking = True
        self._pending = loop.call_later(self.bot_delay, self._bot_step)

    def _bot_step(self) -> None:
        self._pending = None
        self.thinking = False
        if not self._bot_to_move():
            return
        game = self._game
        seat = game.current_player
        bot = self._bots[seat]
        try:
            action = bot_move(game, bot)
        except Exception as exc:  # a broken bot must not stop the game
            action = random.Random(game.state_id).choice(game.legal_actions())
            self.error = f"{bot.name} failed ({type(exc).__name__}: {exc}); it played a random legal move instead"
        game.apply(action)  # listeners re-sync and schedule the next step
