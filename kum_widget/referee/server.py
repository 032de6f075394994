"""The referee's server: every table of a class on one asyncio event loop, over websockets.

A client's first message is a ``hello`` with its code and the game it expects (name, rules,
kum_widget's version); the code names the seat (``Codes``), the game must be the table's. From
then on the connection holds that seat: every message it sends gets an answer (``{"kind":
"answer", "id": ..., "ok": ...}``, with ``error`` when refused), and after every change each
connection at the table gets its own seat's frame, the teacher the public one: whole at first
and when asked (``{"kind": "frame", ...}``), then as what changed since the last one that
connection got (``{"kind": "delta", ...}``, ``delta.changes``). A second connection with a seat's code takes the seat over (the first is told, then
closed). A connection that sends faster than its rate is refused, then closed.

A seat may take back its own last action (``undo``: ``Table.undo`` says when). A seat whose
person stays silent past ``silent`` seconds on their turn is played by a bot standing in, until
the person says ``back`` (or joins again). The teacher's code watches every table (``{"kind":
"table", ...}``: who sits, who is connected, moves so far; the public frame), gets a finished
table's record (``{"kind": "over", ...}``), adds a table (``add_table``) and hands a seat to a
bot (``hand_over``).

Every change is in the journal (``journal.Journal``) before any seat is told of it, and every
finished game is handed in (``hand_in(table)``: its record and replay, written by the caller).

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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import GameError
from ..core.frame import PUBLIC
from .classfile import MAX_TABLES, tables_of
from .codes import TEACHER, Codes, Seat, write_private
from .delta import changes
from .journal import Journal
from .messages import MAX_MESSAGE_BYTES, Message, parse
from .table import Refused, Table

__all__ = ["Referee"]

log = logging.getLogger("kum_widget.referee")

HELLO_SECONDS = 10.0  # a connection that does not say hello in time is closed
RATE = 20.0  # messages a second a connection may send, on average
BURST = 40  # and at once
STRIKES = 3  # refusals for sending too fast before the connection is closed
CLOSE_SECONDS = 2.0  # the time a closed client has to answer the close
HEARTBEAT_SECONDS = 20.0  # a ping every this often; a connection that does not answer one within it is closed
STAND_IN = "greedy"  # the bot that plays for a person away


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
    sent: dict[str, dict[str, Any]] = field(default_factory=dict)  # the last frame it got, by table

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
    closed after ``strikes`` refusals for sending faster.

    ``journal``: where every change is kept; ``codes_file``: where the codes are written
    again when the teacher adds a table; ``hand_in(table)``: called once a table's game is
    over, gives the names of the files it wrote; ``silent``: seconds a person may take on
    their turn before a ``stand_in`` bot plays for them (None: as long as they like);
    ``hand_in`` runs in a worker process (a function it can import, and a table it is sent);
    ``heartbeat``: seconds between pings (a connection that answers none within it is closed,
    its seat free for its code again)."""

    def __init__(self, tables: Mapping[str, Table], codes: Codes, *, version: str, hello_seconds: float = HELLO_SECONDS,
                 rate: float = RATE, burst: int = BURST, strikes: int = STRIKES, journal: Journal | None = None,
                 codes_file: Path | None = None, hand_in: Callable[[Table], list[str]] | None = None,
                 handed_in: Mapping[str, list[str]] | None = None, silent: float | None = None, stand_in: str = STAND_IN,
                 heartbeat: float = HEARTBEAT_SECONDS) -> None:
        self.tables = dict(tables)
        self.codes = codes
        self.version = version
        self.hello_seconds, self.rate, self.burst, self.strikes = hello_seconds, rate, burst, strikes
        self.journal, self.codes_file, self.hand_in = journal, codes_file, hand_in
        self.handed_in = dict(handed_in or {})  # a finished game's table: the files it was handed in as
        self._ended = set(self.handed_in)  # tables whose end was seen to (told, being handed in)
        self.silent, self.stand_in, self.heartbeat = silent, stand_in, heartbeat
        self._timers: dict[str, asyncio.Task[None]] = {}  # a table's silent seat's clock
        self._bot_turns: dict[str, asyncio.Task[None]] = {}  # a table's bots at play
        self._pool: Any = None  # the bots' worker process, started with the first bot's turn
        self._writer: Any = None  # the process that writes finished games (hand_in), started with the first
        self._handing: set[asyncio.Task[None]] = set()  # games being handed in
        self._holders: dict[tuple[str | None, int | str], Client] = {}  # a seat's connection
        self._teachers: set[Client] = set()

    async def serve(self, host: str = "127.0.0.1", port: int = 0, *, ssl: Any = None) -> Any:
        """Start serving; the websockets server (``.sockets`` has the port taken)."""
        from websockets.asyncio.server import serve
        from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory

        # websockets' own deflate settings, at zlib's fastest level: a frame of Kings Under Mountains (25 KB
        # of JSON) comes to a fifth of its size instead of a seventh, in half the time (compressing was the
        # referee's largest cost: bench/README.md, "referee.py")
        deflate = ServerPerMessageDeflateFactory(server_max_window_bits=12, client_max_window_bits=12,
                                                 compress_settings={"memLevel": 5, "level": 1})

        for table in self.tables.values():
            await self._over(table)  # (a game over as it was dealt, or ended just before a restart, is handed in)
            self._after_change(table)
        # A flood's unread messages hold back its close handshake: a client gets CLOSE_SECONDS to answer it.
        return await serve(self.connection, host, port, ssl=ssl, max_size=MAX_MESSAGE_BYTES, extensions=[deflate],
                           ping_interval=self.heartbeat, ping_timeout=self.heartbeat,
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
            await self._leave(client)

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
        else:
            welcome.update(tables=list(self.tables))
        await self._send(client, welcome)
        if seat.table is not None and isinstance(seat.seat, int) and seat.seat in self.tables[seat.table].stand_ins:
            await self._take_back(self.tables[seat.table], seat.seat)  # back at the table: the seat is theirs again
        await self._frames(client)
        if seat.table is not None:
            await self._tell_teachers(self.tables[seat.table])
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
        message: Message | None = None
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
            elif message.kind == "record":
                if client.seat.table is None:
                    raise Refused("the teacher's code gets each table's record at its end, unasked")
                table = self.tables[client.seat.table]
                await self._send(client, {"kind": "answer", "id": token, "ok": True, "record": table.record()})
            elif message.kind in ("add_table", "hand_over"):
                if client.seat.seat != TEACHER:
                    raise Refused(f"{message.kind.replace('_', ' ')} is the teacher's to do")
                answer = self._add_table(message.fields["table"]) if message.kind == "add_table" else self._hand_over(message)
                await self._send(client, {"kind": "answer", "id": token, "ok": True, **answer})
                await self._changed(self.tables[answer["table"]])
            else:  # act, undo, bot, back: a seat's
                if client.seat.seat == TEACHER or client.seat.table is None:
                    raise Refused("the teacher's code watches; it does not play")
                table = self.tables[client.seat.table]
                seat = client.seat.seat
                assert isinstance(seat, int)
                if message.kind == "act":
                    table.act(seat, message.fields["action_id"], state_id=message.fields["state_id"])
                    self._write({"kind": "act", "table": table.name, "seat": seat, "action": message.fields["action_id"]})
                elif message.kind == "undo":
                    table.undo(seat, state_id=message.fields["state_id"])
                    self._write({"kind": "undo", "table": table.name, "seat": seat})
                elif message.kind == "bot":
                    self._stand_in(table, seat, message.fields["bot"])
                elif not await self._take_back(table, seat):
                    raise Refused(f"no bot stands in for {table.players[seat]}: the seat is yours ({table.name})")
                await self._send(client, {"kind": "answer", "id": token, "ok": True})
                if message.kind != "back":
                    await self._changed(table)
        except Refused as refused:
            await self._send(client, {"kind": "answer", "id": token, "ok": False, "error": str(refused), "resync": refused.resync})
            if refused.resync:
                await self._frames(client)
        except GameError as error:  # a game's own refusal of an action it offered
            await self._send(client, {"kind": "answer", "id": token, "ok": False, "error": str(error)[:500]})
        except Exception as exc:  # a fault of ours: still an answer (every message gets one), and the connection stays
            log.error("a %s message failed (%s); answered", message.kind if message else "bad", type(exc).__name__)
            await self._send(client, {"kind": "answer", "id": token, "ok": False,
                                      "error": f"the referee could not do that ({type(exc).__name__}); nothing changed"})

    def _write(self, entry: dict[str, Any]) -> None:
        if self.journal is not None:
            self.journal.write(entry)

    def _add_table(self, entry: dict[str, Any]) -> dict[str, Any]:
        """The teacher's table more: dealt, journaled, its codes made (and written); its name and codes."""
        if len(self.tables) >= MAX_TABLES:
            raise Refused(f"a referee holds at most {MAX_TABLES} tables")
        (table,) = tables_of({"table": [entry]}, where="the table to add")
        if table.name in self.tables:
            raise Refused(f"there is a table named {table.name} already")
        self.tables[table.name] = table
        self._write({"kind": "table", "setup": table.setup()})
        codes = {seat: self.codes.new(table.name, seat) for seat in range(len(table.players)) if seat not in table.bots}
        self._write_codes()
        log.info("the teacher added %s", table.name)
        return {"table": table.name, "codes": {str(k): v for k, v in codes.items()}}

    def _write_codes(self) -> None:
        if self.codes_file is not None:
            write_private(self.codes_file, "\n".join(self.codes.lines({t.name: t.players for t in self.tables.values()})) + "\n")

    def _hand_over(self, message: Message) -> dict[str, Any]:
        name = message.fields["table"]
        if name not in self.tables:
            raise Refused(f"there is no table {name[:80]!r}")
        table = self.tables[name]
        self._stand_in(table, message.fields["seat"], message.fields.get("bot", self.stand_in))
        return {"table": table.name}

    def _stand_in(self, table: Table, seat: int, bot: str) -> None:
        """``bot`` plays ``seat`` at ``table`` until its person takes it back (journaled)."""
        table.hand_over(seat, bot)
        self._write({"kind": "away", "table": table.name, "seat": seat, "bot": bot})

    async def _take_back(self, table: Table, seat: int) -> bool:
        if not table.take_back(seat):
            return False
        self._write({"kind": "back", "table": table.name, "seat": seat})
        log.info("seat %s of %s is its person's again", seat, table.name)
        await self._changed(table)
        return True

    async def _changed(self, table: Table) -> None:
        """After a change at ``table``: everyone told (``_told``); then the bots play, the silent clock runs."""
        await self._told(table)
        self._after_change(table)

    async def _told(self, table: Table) -> None:
        """Every connection at ``table`` gets its new frame, the teacher hears of it, a finished game
        is handed in (its record after the status that says it is over)."""
        await self._frames_at(table)
        await self._tell_teachers(table)
        await self._over(table)

    def _after_change(self, table: Table) -> None:
        self._bots_play(table)
        self._watch_silence(table)

    def _watch_silence(self, table: Table) -> None:
        """A person on their turn gets ``silent`` seconds; then a bot stands in (they say ``back``)."""
        timer = self._timers.pop(table.name, None)
        if timer is not None:
            timer.cancel()
        seat = table.current_player
        if self.silent is None or seat is None or table.bot_to_act() is not None:
            return
        self._timers[table.name] = asyncio.get_running_loop().create_task(self._silent(table, seat, table.state_id))

    async def _silent(self, table: Table, seat: int, state: int) -> None:
        await asyncio.sleep(self.silent or 0)
        self._timers.pop(table.name, None)
        if table.state_id != state or table.current_player != seat or table.bot_to_act() is not None:
            return  # moved on meanwhile
        self._stand_in(table, seat, self.stand_in)
        log.info("a %s bot stands in for seat %s of %s (silent %.0f s)", self.stand_in, seat, table.name, self.silent or 0)
        await self._changed(table)

    async def _over(self, table: Table) -> None:
        """A table whose game just ended: its record to the teacher, and handed in (its files
        written, then the journal says so) while the other tables play on."""
        if not table.is_over or table.name in self._ended:
            return
        self._ended.add(table.name)
        log.info("the game of %s is over", table.name)
        for teacher in list(self._teachers):
            await self._send(teacher, self._record_of(table))
        task = asyncio.get_running_loop().create_task(self._hand_in(table))
        self._handing.add(task)
        task.add_done_callback(self._handing.discard)

    async def _hand_in(self, table: Table) -> None:
        files: list[str] = []
        if self.hand_in is not None:
            try:  # in a process of its own: a replay takes a fifth of a second to write, and the other tables play on
                if self._writer is None:
                    from .bot_seats import worker_pool

                    self._writer = worker_pool()
                files = await asyncio.get_running_loop().run_in_executor(self._writer, self.hand_in, table)
            except Exception as exc:  # (its kind and words only: a traceback's values may hold a hand)
                log.error("could not hand in the game of %s (it is in the journal): %s: %s", table.name, type(exc).__name__, str(exc)[:200])
        self._write({"kind": "over", "table": table.name, "files": files})  # (a referee stopped before this line hands it in again)
        if self.journal is not None:
            self.journal.sync()
        self.handed_in[table.name] = files
        log.info("the game of %s is handed in: %s", table.name, ", ".join(files) or "no files")
        await self._tell_teachers(table)

    async def finish(self) -> None:
        """Wait for the games being handed in (a stop waits for them: a restart would write them again)."""
        if self._handing:
            await asyncio.wait(set(self._handing))

    def _record_of(self, table: Table) -> dict[str, Any]:
        return {"kind": "over", "table": table.name, "record": table.record()}

    async def _tell_teachers(self, table: Table) -> None:
        if self._teachers:
            status = self._status(table)
            for teacher in list(self._teachers):
                await self._send(teacher, status)

    def _status(self, table: Table) -> dict[str, Any]:
        """What the teacher sees of ``table`` beside its public frame (nothing hidden)."""
        return {"kind": "table", "table": table.name, "game": table.game.name, "title": table.title, "rules": table.game.options(),
                "players": list(table.players), "bots": {str(k): v for k, v in table.bots.items()},
                "stand_ins": {str(k): v for k, v in table.stand_ins.items()}, "connected": self.connected(table.name),
                "moves": table.moves, "current": table.current_player, "over": table.is_over,
                "handed_in": self.handed_in.get(table.name)}  # the names of its files, once written

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
                bot = table.bots.get(seat) or table.stand_ins[seat]
                action = await asyncio.get_running_loop().run_in_executor(self._pool, decide, session, bot, seed)
                if table.state_id != state or table.bot_to_act() != seat:
                    continue  # the table changed while it thought (its person took the seat back)
                table.act(seat, action, state_id=state, by_bot=True)
                self._write({"kind": "act", "table": table.name, "seat": seat, "action": action})
                await self._told(table)
        except Exception as exc:  # (its kind only: a bot's error may name a card of the seat it plays)
            log.error("a bot at %s failed (%s); its seat waits", table.name, type(exc).__name__)
        finally:
            self._bot_turns.pop(table.name, None)
        self._watch_silence(table)

    async def _frames_at(self, table: Table) -> None:
        for (name, seat), holder in list(self._holders.items()):
            if name == table.name:
                await self._frame(holder, table, table.frame(seat))
        if self._teachers:
            public = table.frame(PUBLIC)
            for teacher in list(self._teachers):
                await self._frame(teacher, table, public)

    async def _frame(self, client: Client, table: Table, frame: dict[str, Any], *, whole: bool = False) -> None:
        """``frame`` of ``table`` to ``client``: what changed since the last it got, or ``whole``
        (its first, and when asked)."""
        last = None if whole else client.sent.get(table.name)
        client.sent[table.name] = frame
        if last is None:
            await self._send(client, {"kind": "frame", "frame": frame})
        else:
            base = [last["state_id"], last["table_sequence"]]
            await self._send(client, {"kind": "delta", "table": table.name, "base": base, "changes": changes(last, frame)})

    def close(self) -> None:
        """Stop the bots' worker and the writer (the server itself is closed by its own ``close``)."""
        for task in self._bot_turns.values():
            task.cancel()
        for timer in self._timers.values():
            timer.cancel()
        for pool in (self._pool, self._writer):
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)
        self._pool = self._writer = None

    async def _frames(self, client: Client) -> None:
        seat = client.seat
        if seat.seat == TEACHER:
            for table in self.tables.values():
                await self._frame(client, table, table.frame(PUBLIC), whole=True)
                if table.name in self._ended:
                    await self._send(client, self._record_of(table))
                await self._send(client, self._status(table))  # last: a teacher who has every status has everything
        elif seat.table is not None:
            table = self.tables[seat.table]
            await self._frame(client, table, table.frame(seat.seat), whole=True)

    async def _send(self, client: Client, message: dict[str, Any]) -> None:
        try:
            await client.socket.send(json.dumps(message, separators=(",", ":"), check_circular=False))
        except Exception as exc:
            if not _closed(exc):
                raise

    async def _leave(self, client: Client) -> None:
        self._teachers.discard(client)
        key = (client.seat.table, client.seat.seat)
        if self._holders.get(key) is client:
            del self._holders[key]
            log.info("%s left", _who(client.seat))
            if client.seat.table in self.tables:
                await self._tell_teachers(self.tables[client.seat.table])

    def connected(self, table: str) -> list[int]:
        """The seats of ``table`` with a connection now."""
        return sorted(s for (t, s), _ in self._holders.items() if t == table and isinstance(s, int))


def _who(seat: Seat) -> str:
    return "the teacher" if seat.seat == TEACHER else f"seat {seat.seat} of {seat.table}"


def _closed(exc: BaseException) -> bool:
    from websockets.exceptions import ConnectionClosed

    return isinstance(exc, ConnectionClosed)
