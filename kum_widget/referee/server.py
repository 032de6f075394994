"""The referee's server: every table of a class on one asyncio event loop, over websockets.

A client's first message is a ``hello`` with its code and the game it expects (name, rules,
kum_widget's version); the code names the seat (``Codes``), the game must be the table's. From
then on the connection holds that seat: every message it sends gets an answer (``{"kind":
"answer", "id": ..., "ok": ...}``, with ``error`` when refused), and after every change each
connection at the table gets its own seat's frame (``{"kind": "frame", ...}``), the teacher the
public one. A second connection with a seat's code takes the seat over (the first is told, then
closed). A connection that sends faster than its rate is refused, then closed.

Nothing a seat may not know is ever sent to it: its frames are the session's frames of that
seat, and a refusal is the table's sentence (``Table.act``) or the reader's (``messages.parse``).
Nothing is logged but connections and refusals, without codes or frames.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import GameError
from ..core.frame import PUBLIC
from .codes import TEACHER, Codes, Seat
from .messages import MAX_MESSAGE_BYTES, Message, parse
from .table import Refused, Table

__all__ = ["Referee"]

log = logging.getLogger("kum_widget.referee")

HELLO_SECONDS = 10.0  # a connection that does not say hello in time is closed
RATE = 20.0  # messages a second a connection may send, on average
BURST = 40  # and at once
STRIKES = 3  # refusals for sending too fast before the connection is closed
CLOSE_SECONDS = 2.0  # the time a closed client has to answer the close


@dataclass(eq=False)
class Client:
    """One connection: the seat its code named, and its allowance of messages (``rate`` a
    second on average, ``burst`` at once)."""

    socket: Any
    seat: Seat
    rate: float = RATE
    burst: int = BURST
    tokens: float = BURST
    last: float = field(default_factory=time.monotonic)
    strikes: int = 0

    def allowed(self) -> bool:
        """One more message within the rate (a token bucket)."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.strikes += 1
        return False


class Referee:
    """``Referee(tables, codes, version=...)``: serves ``tables`` (by name) to the holders of
    ``codes``; ``version`` is the kum_widget a client must run. A connection says hello
    within ``hello_seconds``, sends ``rate`` messages a second (``burst`` at once) and is
    closed after ``strikes`` refusals for sending faster."""

    def __init__(self, tables: Mapping[str, Table], codes: Codes, *, version: str, hello_seconds: float = HELLO_SECONDS,
                 rate: float = RATE, burst: int = BURST, strikes: int = STRIKES) -> None:
        self.tables = dict(tables)
        self.codes = codes
        self.version = version
        self.hello_seconds, self.rate, self.burst, self.strikes = hello_seconds, rate, burst, strikes
        self._bot_turns: dict[str, asyncio.Task[None]] = {}  # a table's bots at play
        self._pool: Any = None  # the bots' worker process, started with the first bot's turn
        self._holders: dict[tuple[str | None, int | str], Client] = {}  # a seat's connection
        self._teachers: set[Client] = set()

    async def serve(self, host: str = "127.0.0.1", port: int = 0, *, ssl: Any = None) -> Any:
        """Start serving; the websockets server (``.sockets`` has the port taken)."""
        from websockets.asyncio.server import serve

        for table in self.tables.values():
            self._bots_play(table)
        # A flood's unread messages hold back its close handshake: a client gets CLOSE_SECONDS to answer it.
        return await serve(self.connection, host, port, ssl=ssl, max_size=MAX_MESSAGE_BYTES, ping_interval=20, ping_timeout=20,
                           close_timeout=CLOSE_SECONDS)

    async def connection(self, socket: Any) -> None:
        """One client, from its hello to its close."""
        client = await self._hello(socket)
        if client is None:
            return
        try:
            async for raw in socket:
                if not client.allowed():
                    await self._send(client, {"kind": "answer", "id": None, "ok": False, "error": "too many messages: slow down"})
                    if client.strikes >= self.strikes:
                        log.info("closed a connection that sent too fast")
                        await socket.close(1008, "too many messages")
                        break
                    continue
                await self._message(client, raw)
        except Exception as exc:  # a connection's end, whichever way: the seat is free again
            if not _closed(exc):
                raise
        finally:
            self._leave(client)

    async def _hello(self, socket: Any) -> Client | None:
        try:
            raw = await asyncio.wait_for(socket.recv(), self.hello_seconds)
        except Exception:
            await socket.close(1008, "say hello first")
            return None
        try:
            hello = parse(raw)
            if hello.kind != "hello":
                raise Refused(f"say hello first (with your code), not {hello.kind}")
            seat = self.codes.check(hello.fields["code"])
            if seat is None:
                raise Refused("that is not a code of this referee")
            self._check_game(seat, hello)
        except Refused as refused:
            log.info("refused a hello: %s", refused)
            await socket.send(json.dumps({"kind": "answer", "id": None, "ok": False, "error": str(refused)}))
            await socket.close(1008, "refused")
            return None
        client = Client(socket, seat, rate=self.rate, burst=self.burst, tokens=self.burst)
        if seat.seat == TEACHER:
            self._teachers.add(client)
        else:
            old = self._holders.get((seat.table, seat.seat))
            self._holders[(seat.table, seat.seat)] = client
            if old is not None:
                await self._send(old, {"kind": "taken_over", "said": "another connection took your seat with your code"})
                await old.socket.close(1000, "taken over")
        log.info("%s joined", _who(seat))
        welcome: dict[str, Any] = {"kind": "answer", "id": hello.fields.get("id"), "ok": True}
        if seat.table is not None:  # what the seat joined: its table's game and rules
            table = self.tables[seat.table]
            welcome.update(table=table.name, seat=seat.seat, game=table.game.name, rules=table.game.options())
        await self._send(client, welcome)
        await self._frames(client)
        return client

    def _check_game(self, seat: Seat, hello: Message) -> None:
        if hello.fields["version"] != self.version:
            raise Refused(f"this referee runs kum_widget {self.version}; you run {hello.fields['version'][:20]}: install the same")
        if seat.table is None:  # the teacher's code: every table, whatever its game
            return
        table = self.tables[seat.table]
        game, options = table.game, table.game.options()
        asked = hello.fields.get("rules", {})
        named = hello.fields.get("game", game.name)  # a board that draws whatever the table plays names none
        if named != game.name or {**options, **asked} != options:
            raise Refused(f"{table.name} plays {game.name} with the rules {json.dumps(options, sort_keys=True)}; you asked for "
                          f"{named[:40]} with the rules {json.dumps(asked, sort_keys=True)[:200]}")

    async def _message(self, client: Client, raw: Any) -> None:
        token = None
        try:
            message = parse(raw)
            token = message.fields.get("id")
            if message.kind == "hello":
                raise Refused("you said hello already")
            if message.kind == "ping":
                await self._send(client, {"kind": "answer", "id": token, "ok": True})
            elif message.kind == "frame":
                await self._send(client, {"kind": "answer", "id": token, "ok": True})
                await self._frames(client)
            elif message.kind == "act":
                if client.seat.seat == TEACHER or client.seat.table is None:
                    raise Refused("the teacher's code watches; it does not play")
                table = self.tables[client.seat.table]
                seat = client.seat.seat
                assert isinstance(seat, int)
                table.act(seat, message.fields["action_id"], state_id=message.fields["state_id"])
                await self._send(client, {"kind": "answer", "id": token, "ok": True})
                await self._changed(table)
        except Refused as refused:
            await self._send(client, {"kind": "answer", "id": token, "ok": False, "error": str(refused), "resync": refused.resync})
            if refused.resync:
                await self._frames(client)
        except GameError as error:  # a game's own refusal of an action it offered
            await self._send(client, {"kind": "answer", "id": token, "ok": False, "error": str(error)[:500]})

    async def _changed(self, table: Table) -> None:
        """After a person's move: every connection at ``table`` gets its new frame, then the bots play."""
        await self._frames_at(table)
        self._bots_play(table)

    def _bots_play(self, table: Table) -> None:
        """If a bot is to act at ``table``, its turn (and the bots' after it) in the worker."""
        if table.bot_to_act() is not None and table.name not in self._bot_turns:
            self._bot_turns[table.name] = asyncio.get_running_loop().create_task(self._bot_turn(table))

    async def _bot_turn(self, table: Table) -> None:
        from .bot_seats import decide, worker_pool

        try:
            while (seat := table.bot_to_act()) is not None:
                if self._pool is None:
                    self._pool = worker_pool()
                session, state = table.for_bot()
                # the same seed for the same move of the same deal, in any process (str's hash() is not)
                seed = zlib.crc32(f"{session.seed}/{session.move_number}/{table.name}".encode())
                action = await asyncio.get_running_loop().run_in_executor(self._pool, decide, session, table.bots[seat], seed)
                table.act(seat, action, state_id=state, by_bot=True)
                await self._frames_at(table)
        except Exception:
            log.exception("a bot at %s failed; its seat waits", table.name)
        finally:
            self._bot_turns.pop(table.name, None)

    async def _frames_at(self, table: Table) -> None:
        for (name, _), holder in list(self._holders.items()):
            if name == table.name:
                await self._frames(holder)
        for teacher in list(self._teachers):
            await self._send(teacher, {"kind": "frame", "frame": table.frame(PUBLIC)})

    def close(self) -> None:
        """Stop the bots' worker (the server itself is closed by its own ``close``)."""
        for task in self._bot_turns.values():
            task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    async def _frames(self, client: Client) -> None:
        seat = client.seat
        if seat.seat == TEACHER:
            for table in self.tables.values():
                await self._send(client, {"kind": "frame", "frame": table.frame(PUBLIC)})
        elif seat.table is not None:
            await self._send(client, {"kind": "frame", "frame": self.tables[seat.table].frame(seat.seat)})

    async def _send(self, client: Client, message: dict[str, Any]) -> None:
        try:
            await client.socket.send(json.dumps(message))
        except Exception as exc:
            if not _closed(exc):
                raise

    def _leave(self, client: Client) -> None:
        self._teachers.discard(client)
        key = (client.seat.table, client.seat.seat)
        if self._holders.get(key) is client:
            del self._holders[key]
            log.info("%s left", _who(client.seat))

    def connected(self, table: str) -> list[int]:
        """The seats of ``table`` with a connection now."""
        return sorted(s for (t, s), _ in self._holders.items() if t == table and isinstance(s, int))


def _who(seat: Seat) -> str:
    return "the teacher" if seat.seat == TEACHER else f"seat {seat.seat} of {seat.table}"


def _closed(exc: BaseException) -> bool:
    from websockets.exceptions import ConnectionClosed

    return isinstance(exc, ConnectionClosed)
