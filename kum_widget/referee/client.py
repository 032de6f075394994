"""A seat's end of a referee's table: the connection (``SeatClient``) and the game as that seat
knows it (``SeatGame``), built from its frames alone. Nothing the referee does not send the seat
is here to find: the deal, the seed and the other seats' hands stay in the referee.

The connection runs its own event loop on a thread of its own, so a cell, a script or a board
can wait for an answer without blocking a kernel's loop. Every wait has a deadline.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
from collections.abc import Callable
from typing import Any

from ..core.errors import GameError, shown
from .delta import DeltaError, patched
from .table import Refused

__all__ = ["Connection", "SeatClient", "SeatGame", "TeacherClient"]

TIMEOUT = 30.0  # seconds to wait for the referee's answer


class Connection:
    """A connection to a referee (``url``) with ``code``, for the game ``game`` (and its
    ``rules``; None: whatever the table plays) under kum_widget ``version``, on a thread of
    its own; ``joined`` is what the referee said it joined. Each message the referee sends
    goes to :meth:`take` (on the connection's thread); :meth:`request` sends one and waits for
    its answer."""

    def __init__(self, url: str, code: str, *, game: str | None, version: str, rules: dict[str, Any] | None = None,
                 ssl: Any = None, timeout: float = TIMEOUT) -> None:
        if not isinstance(url, str) or not url.startswith(("ws://", "wss://")):
            raise GameError(f"a referee's address starts with ws:// or wss://, got {shown(url)}")
        if not isinstance(code, str):
            raise GameError(f"a code is text (32 hex digits, from the teacher), got {type(code).__name__}")
        self.url, self.timeout = url, timeout
        self.taken_over = False
        self._resyncing = False
        self.on_taken_over: Callable[[], None] | None = None  # called (on the connection's thread) when told
        self._hello = {"kind": "hello", "code": code, "version": version, **({"game": game} if game else {}),
                       **({"rules": rules} if rules else {})}
        self.joined: dict[str, Any] = {}  # the referee's welcome: the table, the seat, its game and rules
        self._ssl = ssl
        self._answers: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._next = 0
        self._changed = threading.Condition()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name=f"kum-widget referee {url}", daemon=True)
        self._thread.start()
        self._socket: Any = None
        try:
            self._call(self._connect())
        except BaseException:
            self.close()
            raise

    def _call(self, coroutine: Any) -> Any:
        if self._loop.is_closed() or not self._thread.is_alive():
            coroutine.close()
            raise GameError(f"this connection to the referee at {self.url} is closed: join again with your code")
        future = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        try:
            return future.result(self.timeout)
        except TimeoutError:
            future.cancel()
            raise GameError(f"the referee at {self.url} did not answer within {self.timeout:.0f} s") from None
        except (GameError, Refused):
            raise
        except Exception as exc:  # the connection's end, whichever way (websockets' own errors): said as ours
            raise GameError(self._gone(exc)) from None

    def _gone(self, exc: BaseException) -> str:
        if self.taken_over:
            return "another connection took this seat with your code: this one is closed"
        return f"the connection to the referee at {self.url} ended ({type(exc).__name__}): join again with your code"

    async def _connect(self) -> None:
        from websockets.asyncio.client import connect
        from websockets.exceptions import InvalidHandshake

        secure = {"ssl": self._ssl} if self._ssl is not None else {}  # (wss:// without ssl=: the system's trust)
        try:
            self._socket = await connect(self.url, proxy=None, open_timeout=self.timeout, **secure)
        except OSError as exc:
            raise GameError(f"cannot reach the referee at {self.url}: {exc.strerror or exc}") from None
        except (InvalidHandshake, EOFError) as exc:
            hint = " (a referee serving wss:// is reached with wss://)" if self.url.startswith("ws://") else ""
            raise GameError(f"no referee answered at {self.url}{hint}: {str(exc)[:120]}") from None
        await self._socket.send(json.dumps(self._hello))
        answer = json.loads(await self._socket.recv())
        if not answer.get("ok"):
            raise Refused(str(answer.get("error", "the referee refused")))
        self.joined = answer
        self._received(json.loads(await self._socket.recv()))  # its first frame, before the hello returns
        self._loop.create_task(self._listen())

    async def _listen(self) -> None:
        try:
            async for raw in self._socket:
                self._received(json.loads(raw))
        except Exception:  # the connection ended: a wait still pending says so
            pass
        for future in self._answers.values():
            if not future.done():
                future.set_exception(GameError(f"the connection to the referee at {self.url} closed"))

    def _received(self, message: dict[str, Any]) -> None:
        kind = message.get("kind")
        if kind == "answer" and message.get("id") in self._answers:
            self._answers.pop(message["id"]).set_result(message)
        else:
            with self._changed:
                if kind == "taken_over":
                    self.taken_over = True
                else:
                    self.take(message)
            listener = self.on_taken_over if kind == "taken_over" else self.taken
            try:
                if listener is not None:
                    listener()
            finally:
                with self._changed:  # after the listeners: a waiter sees what they drew too
                    self._changed.notify_all()

    def take(self, message: dict[str, Any]) -> None:
        """A message from the referee (under the lock :meth:`wait_until` waits on)."""

    def next_frame(self, held: dict[str, Any] | None, message: dict[str, Any]) -> dict[str, Any] | None:
        """The frame a ``frame`` or ``delta`` message makes of ``held`` (the last one of its
        table); None if the changes do not fit it (then the whole frame is asked for, once)."""
        if message["kind"] == "frame":
            self._resyncing = False
            return dict(message["frame"])
        if self._resyncing:
            return None  # changes to a frame we do not hold: the whole one is on its way
        try:
            if held is None or message.get("base") != [held.get("state_id"), held.get("table_sequence")]:
                raise DeltaError("changes to another frame than the one held")
            return dict(patched(held, message.get("changes")))
        except DeltaError:
            self._resyncing = True
            self._loop.create_task(self._socket.send(json.dumps({"kind": "frame"})))
            return None

    def taken(self) -> None:
        """After :meth:`take`, outside the lock (a listener's call)."""

    async def _send(self, message: dict[str, Any]) -> dict[str, Any]:
        self._next += 1
        token = self._next
        self._answers[token] = self._loop.create_future()
        await self._socket.send(json.dumps({**message, "id": token}))
        return await self._answers[token]

    def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Send a message of ``kind`` and wait for its answer; :class:`Refused` (the
        referee's reason) when refused."""
        answer: dict[str, Any] = self._call(self._send({"kind": kind, **fields}))
        if not answer.get("ok"):
            raise Refused(str(answer.get("error")), resync=bool(answer.get("resync")))
        return answer

    def submit(self, kind: str, fields: dict[str, Any], done: Callable[[str | None], None]) -> None:
        """Send a message of ``kind`` without waiting (a board's click): ``done(None)``, or
        ``done(the referee's reason)``, on the connection's thread."""
        async def send() -> None:
            try:
                answer = await self._send({"kind": kind, **fields})
                done(None if answer.get("ok") else str(answer.get("error")))
            except Exception as exc:  # the connection gone: said, not raised on a thread no one reads
                done(self._gone(exc))

        if self._loop.is_closed() or not self._thread.is_alive():
            done(f"this connection to the referee at {self.url} is closed: join again with your code")
            return
        asyncio.run_coroutine_threadsafe(send(), self._loop)

    def wait_until(self, condition: Callable[[], bool], what: str) -> None:
        """Until ``condition()`` holds (checked after each message and its listeners), within the timeout."""
        with self._changed:
            if not self._changed.wait_for(condition, self.timeout):
                raise GameError(f"no {what} from the referee at {self.url} within {self.timeout:.0f} s")

    def close(self) -> None:
        """Leave: the connection closed, its thread and loop ended. Again: nothing more."""
        if self._loop.is_closed() or sys.is_finalizing():  # (at the interpreter's exit the OS closes the socket)
            return
        if self._socket is not None and self._loop.is_running():
            try:
                self._call(self._socket.close())
            except Exception:
                pass  # a connection already gone
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(self.timeout)
        if not self._thread.is_alive() and not self._loop.is_running():
            self._loop.close()


class SeatClient(Connection):
    """``SeatClient(url, code, game=..., version=...)``: a seat's connection (see
    :class:`Connection`). ``frame`` is the seat's latest frame; ``on_frame(frame)`` is called
    (on the connection's thread) with each new one; ``act`` sends an action and waits for the
    frame after it."""

    def __init__(self, url: str, code: str, *, game: str | None, version: str, rules: dict[str, Any] | None = None,
                 ssl: Any = None, timeout: float = TIMEOUT, on_frame: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.frame: dict[str, Any] = {}
        self.on_frame = on_frame
        super().__init__(url, code, game=game, version=version, rules=rules, ssl=ssl, timeout=timeout)

    def take(self, message: dict[str, Any]) -> None:
        if message.get("kind") in ("frame", "delta"):
            self.frame = self.next_frame(self.frame, message) or self.frame

    def taken(self) -> None:
        if self.on_frame is not None and self.frame:
            self.on_frame(self.frame)

    def act(self, action_id: int) -> dict[str, Any]:
        """Send the action ``action_id`` on the state of the latest frame; the new frame once
        the referee sent it. Refused (``Refused``, the referee's reason) changes nothing."""
        return self._and_then("state_id", "act", action_id=action_id, state_id=self.frame.get("state_id", -1))

    def undo(self) -> dict[str, Any]:
        """Take back this seat's own last action (the referee says when it may); the new frame."""
        return self._and_then("state_id", "undo", state_id=self.frame.get("state_id", -1))

    def play_with(self, bot: str) -> dict[str, Any]:
        """The referee's ``bot`` plays this seat from now (until :meth:`take_back`); the frame
        that says so."""
        return self._and_then("table_sequence", "bot", bot=bot)

    def take_back(self) -> dict[str, Any]:
        """This seat's person plays it again (a bot stood in); the frame that says so."""
        return self._and_then("table_sequence", "back")

    def _and_then(self, counter: str, kind: str, **fields: Any) -> dict[str, Any]:
        """Send ``kind`` (refused: :class:`Refused`), then the frame whose ``counter`` (the state
        id, or the table's sequence) is past the latest one's."""
        before = self.frame.get(counter, -1)
        self.request(kind, **fields)
        return self.wait_for(lambda f: f.get(counter, -1) > before)

    def wait_for(self, condition: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The latest frame once ``condition(frame)`` holds (within the timeout)."""
        self.wait_until(lambda: bool(self.frame) and condition(self.frame), "such frame")
        return self.frame


class TeacherClient(Connection):
    """The teacher's connection (the teacher's code): every table's public ``frames``, its
    ``status`` (who sits, who is connected, moves so far) and, once over, its ``records``, by
    table; ``on_change(table)`` is called (on the connection's thread) after each news of one."""

    def __init__(self, url: str, code: str, *, version: str, ssl: Any = None, timeout: float = TIMEOUT,
                 on_change: Callable[[str], None] | None = None) -> None:
        self.frames: dict[str, dict[str, Any]] = {}
        self.status: dict[str, dict[str, Any]] = {}
        self.records: dict[str, str] = {}
        self.on_change = on_change
        self._news: list[str] = []
        super().__init__(url, code, game=None, version=version, ssl=ssl, timeout=timeout)
        if self.joined.get("table") is not None:
            self.close()
            raise GameError("that is a seat's code; the teacher's code watches every table")
        tables = list(self.joined.get("tables", ()))
        self.wait_until(lambda: all(name in self.status for name in tables), "news of every table")

    def take(self, message: dict[str, Any]) -> None:
        kind = message.get("kind")
        if kind in ("frame", "delta"):
            name = str(message["frame"].get("at_table") if kind == "frame" else message.get("table"))
            frame = self.next_frame(self.frames.get(name), message)
            if frame is None:
                return
            self.frames[name] = frame
        elif kind == "table":
            name = str(message["table"])
            self.status[name] = message
        elif kind == "over":
            name = str(message["table"])
            self.records[name] = str(message["record"])
        else:
            return
        self._news.append(name)

    def taken(self) -> None:
        news, self._news = self._news, []
        if self.on_change is not None:
            for name in news:
                self.on_change(name)

    def add_table(self, **table: Any) -> dict[str, str]:
        """A table more (a class file's ``[[table]]`` keys: name, game, players, rules, seed,
        bots); the codes of its seats, by seat."""
        answer = self.request("add_table", table=table)
        return dict(answer["codes"])

    def hand_over(self, table: str, seat: int, bot: str | None = None) -> None:
        """A bot plays ``seat`` at ``table`` until its person takes it back."""
        self.request("hand_over", table=table, seat=seat, **({"bot": bot} if bot else {}))


class SeatGame:
    """The game as one seat at a referee's table knows it: its view (the board it is drawn
    from), its legal actions, the log it may read, whose turn, the state id, and the scores at
    the end; ``act`` plays for this seat. Anything else a game can do is the referee's (undo,
    the record before the end, another seat's hand): asked for, it says so."""

    def __init__(self, client: SeatClient) -> None:
        self._client = client

    @property
    def _frame(self) -> dict[str, Any]:
        return self._client.frame

    @property
    def seat(self) -> int:
        return int(self._frame["viewer"])

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(p["name"] for p in self._frame["board"]["players"])

    @property
    def view(self) -> dict[str, Any]:
        """The board as this seat sees it (the game's drawing of its view)."""
        return dict(self._frame["board"])

    @property
    def state_id(self) -> int:
        return int(self._frame["state_id"])

    @property
    def is_over(self) -> bool:
        return bool(self._frame["over"])

    @property
    def current_player(self) -> int | None:
        current = self._frame["current"]
        return None if current is None else int(current)

    @property
    def log(self) -> list[str]:
        """The last actions, as this seat may read them."""
        return list(self._frame["log"])

    def legal_actions(self) -> list[str]:
        """What this seat may do now (nothing when it is not its turn), as text."""
        return [a["text"] for a in self._frame["actions"]]

    def legal_action_ids(self) -> list[int]:
        return [int(a["id"]) for a in self._frame["actions"]]

    def act(self, action: int | str) -> None:
        """Play ``action`` (one of ``legal_actions()``'s texts, or its id) for this seat."""
        offered = self._frame["actions"]
        if isinstance(action, str):
            ids = [a["id"] for a in offered if a["text"] == action]
            if not ids:
                raise GameError(f"{shown(action)} is not one of this seat's actions now: {', '.join(a['text'] for a in offered) or 'none (not its turn)'}")
            action = int(ids[0])
        if type(action) is not int:
            raise GameError(f"an action is one of legal_actions()'s texts or its id, got {shown(action)}")
        self._client.act(action)

    def wait_turn(self) -> bool:
        """Wait until this seat may act (True) or the game is over (False): what a script
        playing a seat does between its moves. Within the connection's timeout."""
        frame = self._client.wait_for(lambda f: bool(f["over"]) or bool(f["actions"]))
        return not frame["over"]

    def wait_state(self, state_id: int) -> None:
        """Wait until this seat's frame shows the state ``state_id`` or a later one."""
        self._client.wait_for(lambda f: f["state_id"] >= state_id)

    def scores(self) -> list[Any]:
        """Each seat's score, once the game is over."""
        if not self.is_over:
            raise GameError("the scores are the referee's until the game is over")
        return [p.get("score") for p in self._frame["board"]["players"]]

    @property
    def stand_in(self) -> str | None:
        """The bot playing this seat while its person is away (None: its person plays it)."""
        bot = self._frame.get("stand_ins", {}).get(str(self.seat))
        return None if bot is None else str(bot)

    def undo(self, steps: int = 1) -> int:
        """Take back this seat's own last move: only when no other seat has acted since, the
        move showed this seat nothing new, and the game draws no chance during play (the
        referee says why not otherwise). One step: the others' moves are theirs."""
        if steps != 1:
            raise GameError(f"at a table you take back one move, your own last, not {shown(steps)}")
        self._client.undo()
        return 1

    def play_with(self, bot: str = "greedy") -> None:
        """Let the referee's ``bot`` (random, greedy, ismcts) play this seat from now on, as a
        script would: it sees only this seat's view. :meth:`take_back` ends it."""
        if not isinstance(bot, str):
            raise GameError(f"a bot is named by text (random, greedy, ismcts), got {shown(bot)}")
        self._client.play_with(bot)

    def take_back(self) -> None:
        """Play this seat again, after a bot stood in for you."""
        self._client.take_back()

    def wait_over(self) -> list[Any]:
        """Wait until the game is over (within the connection's timeout); the scores."""
        self._client.wait_for(lambda f: bool(f["over"]))
        return self.scores()

    def record(self) -> str:
        """The game's whole record (every hand: ``kum.core.Session.from_record`` reads it),
        once the game is over; before, it is the referee's."""
        if not self.is_over:
            raise GameError("the record of a game at a table holds every hand: the referee gives it once the game is over")
        return str(self._client.request("record")["record"])

    def view_of(self, seat: int) -> dict[str, Any]:
        """A seat's view: this seat's own (``view``); another seat's hand is that seat's to see."""
        if seat != self.seat:
            raise GameError(f"seat {shown(seat)}'s view holds what only that seat may see; this is seat {self.seat} "
                            f"({self.players[self.seat]}): its view is game.view")
        return self.view

    def close(self) -> None:
        """Leave the table (the seat stays the code's: join again to take it back)."""
        self._client.close()

    def __repr__(self) -> str:
        return f"<SeatGame seat {self._frame.get('viewer')} at {self._frame.get('at_table')!r}, state {self._frame.get('state_id')}>"
