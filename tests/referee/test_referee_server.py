"""The referee's server on loopback, with real websockets clients: a hello with a seat's code and
the table's game gets that seat's frame; an action goes to the table and every connection at it
gets its own new frame (the teacher the public one); every message is answered; a wrong code, a
wrong game, bad input, a flood and a second connection with the same code are each handled
without changing any table."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from _referee_helpers import frame_after
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from kum_widget.core.examples import Bust
from kum_widget.core.session import Session
from kum_widget.referee import TEACHER, Codes, Table
from kum_widget.referee.server import Referee

VERSION = "0.1.0"
DEADLINE = 30.0  # seconds any one exchange may take on a loaded machine


def class_of_two(**settings: Any) -> tuple[Referee, dict[str, str]]:
    codes = Codes()
    tables = {"table 1": Table("table 1", Session(Bust(), ["Ada", "Bo"], seed=1)),
              "table 2": Table("table 2", Session(Bust(), ["Cy", "Di"], seed=2))}
    given = {f"{t} {s}": codes.new(t, s) for t in tables for s in (0, 1)}
    given["teacher"] = codes.new(None, TEACHER)
    return Referee(tables, codes, version=VERSION, **settings), given


def served(test: Callable[[Referee, dict[str, str], str], Awaitable[None]], **settings: Any) -> None:
    """Run ``test(referee, codes, url)`` against a referee (``settings``: its own) serving on
    127.0.0.1, port 0."""
    async def main() -> None:
        referee, codes = class_of_two(**settings)
        server = await referee.serve("127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        try:
            async with asyncio.timeout(DEADLINE * 4):
                await test(referee, codes, f"ws://127.0.0.1:{port}")
        finally:
            server.close()
            await server.wait_closed()

    asyncio.run(main())


async def hello(url: str, code: str, game: str = "bust", **more: Any) -> tuple[ClientConnection, dict[str, Any]]:
    """A connection that said hello; its answer."""
    ws = await connect(url, proxy=None)
    await ws.send(json.dumps({"kind": "hello", "code": code, "game": game, "version": VERSION, **more}))
    return ws, await received(ws)


async def received(ws: ClientConnection) -> dict[str, Any]:
    async with asyncio.timeout(DEADLINE):
        return dict(json.loads(await ws.recv()))


HELD: dict[tuple[int, str], dict[str, Any]] = {}  # the last frame each connection got, by table


async def frame_of(ws: ClientConnection) -> dict[str, Any]:
    """The next frame this connection gets, whole or as changes to the last (answers before it
    are skipped)."""
    while True:
        message = await received(ws)
        table = str(message.get("table") if message["kind"] == "delta" else message.get("frame", {}).get("at_table"))
        frame = frame_after(HELD.get((id(ws), table)), message)
        if frame is not None:
            HELD[id(ws), table] = frame
            return frame


def test_a_seat_joins_with_its_code_and_plays_and_the_other_seat_and_the_teacher_see_it() -> None:
    async def test(referee: Referee, codes: dict[str, str], url: str) -> None:
        ada, answer = await hello(url, codes["table 1 0"])
        assert answer == {"kind": "answer", "id": None, "ok": True, "table": "table 1", "seat": 0, "game": "bust", "rules": Bust().options()}
        mine = await frame_of(ada)
        assert mine["viewer"] == 0 and mine["at_table"] == "table 1" and mine["actions"]
        bo, _ = await hello(url, codes["table 1 1"])
        theirs = await frame_of(bo)
        assert theirs["viewer"] == 1 and theirs["actions"] == []
        teacher, _ = await hello(url, codes["teacher"], game="any")
        public = [await frame_of(teacher), await frame_of(teacher)]
        assert {f["at_table"] for f in public} == {"table 1", "table 2"} and {f["viewer"] for f in public} == {"public"}
        assert referee.connected("table 1") == [0, 1] and referee.connected("table 2") == []

        action = mine["actions"][0]["id"]
        await ada.send(json.dumps({"kind": "act", "action_id": action, "state_id": mine["state_id"], "id": "a1"}))
        assert await received(ada) == {"kind": "answer", "id": "a1", "ok": True}
        assert (await frame_of(ada))["state_id"] == mine["state_id"] + 1
        now = await frame_of(bo)
        assert now["state_id"] == mine["state_id"] + 1 and now["actions"]  # Bo's turn
        assert (await frame_of(teacher))["state_id"] == now["state_id"]
        for ws in (ada, bo, teacher):
            await ws.close()

    served(test)


@pytest.mark.parametrize(("code", "game", "rules", "says"), [
    ("0" * 32, "bust", None, "not a code of this referee"),
    ("nonsense", "bust", None, "not a code of this referee"),
    ("table 1 0", "kings-under-mountains", None, "table 1 plays bust"),
    ("table 1 0", "bust", {"target": 99}, "you asked for bust with the rules"),
])
def test_a_wrong_code_or_another_game_is_refused_and_the_connection_closed(code: str, game: str, rules: Any, says: str) -> None:
    async def test(referee: Referee, codes: dict[str, str], url: str) -> None:
        more = {} if rules is None else {"rules": rules}
        ws, answer = await hello(url, codes.get(code, code), game=game, **more)
        assert answer["ok"] is False and says in answer["error"]
        assert codes["table 1 0"] not in answer["error"]
        with pytest.raises(ConnectionClosed):
            await received(ws)
        assert referee.connected("table 1") == []

    served(test)


def test_another_version_is_refused_by_name() -> None:
    async def test(referee: Referee, codes: dict[str, str], url: str) -> None:
        ws = await connect(url, proxy=None)
        await ws.send(json.dumps({"kind": "hello", "code": codes["table 1 0"], "game": "bust", "version": "9.9"}))
        answer = await received(ws)
        assert answer["ok"] is False and "this referee runs kum_widget 0.1.0; you run 9.9" in answer["error"]

    served(test)


def test_bad_input_and_acting_out_of_turn_are_answered_and_change_nothing() -> None:
    async def test(referee: Referee, codes: dict[str, str], url: str) -> None:
        ada, _ = await hello(url, codes["table 1 0"])
        start = await frame_of(ada)
        bo, _ = await hello(url, codes["table 1 1"])
        await frame_of(bo)
        table = referee.tables["table 1"]
        before = json.dumps([table.frame(0), table.frame(1)], sort_keys=True)
        for raw, says in [("not json", "one JSON object"), ('{"kind": "act", "action_id": 0}', "state_id is missing"),
                          ('{"kind": "act", "action_id": 0, "state_id": 0, "seat": 0}', "no field seat"),
                          ('{"kind": "hello", "code": "x", "game": "bust", "version": "0.1.0"}', "you said hello already")]:
            await bo.send(raw)
            answer = await received(bo)
            assert answer["ok"] is False and says in answer["error"], answer
        # Bo acts for Ada's turn, with an id Ada's frame offered
        await bo.send(json.dumps({"kind": "act", "action_id": start["actions"][0]["id"], "state_id": start["state_id"], "id": 7}))
        answer = await received(bo)
        assert answer["id"] == 7 and answer["ok"] is False and "it is Ada's turn, not Bo's" in answer["error"]
        # Ada's stale click: refused, and her frame sent again
        await ada.send(json.dumps({"kind": "act", "action_id": start["actions"][0]["id"], "state_id": start["state_id"] + 5}))
        answer = await received(ada)
        assert answer["ok"] is False and answer["resync"] is True
        assert (await frame_of(ada))["state_id"] == start["state_id"]
        assert json.dumps([table.frame(0), table.frame(1)], sort_keys=True) == before
        await ada.send(json.dumps({"kind": "ping", "id": "p"}))
        assert await received(ada) == {"kind": "answer", "id": "p", "ok": True}
        # the teacher watches: its code does not play
        teacher, _ = await hello(url, codes["teacher"], game="any")
        await teacher.send(json.dumps({"kind": "act", "action_id": 0, "state_id": start["state_id"], "id": "t"}))
        while (answer := await received(teacher))["kind"] != "answer":
            pass
        assert answer["ok"] is False and "watches" in answer["error"]

    served(test)


def test_the_teachers_requests_from_a_seat_and_bad_ones_from_the_teacher_change_nothing() -> None:
    async def test(referee: Referee, codes: dict[str, str], url: str) -> None:
        bo, _ = await hello(url, codes["table 1 1"])
        await frame_of(bo)
        teacher, welcome = await hello(url, codes["teacher"], game="any")
        assert welcome["tables"] == ["table 1", "table 2"]

        def everything() -> str:
            return json.dumps({name: [t.frame(0), t.frame(1), t.stand_ins, t.sequence] for name, t in referee.tables.items()},
                              sort_keys=True)

        async def answer_of(ws: ClientConnection, message: dict[str, Any]) -> dict[str, Any]:
            await ws.send(json.dumps({**message, "id": "q"}))
            while (answer := await received(ws))["kind"] != "answer":
                pass
            return answer

        before = everything()
        for message, says in [
            ({"kind": "add_table", "table": {"name": "mine", "game": "bust"}}, "add table is the teacher's to do"),
            ({"kind": "hand_over", "table": "table 1", "seat": 0}, "hand over is the teacher's to do"),
            ({"kind": "undo", "state_id": 0}, "only your own last move, and nothing has been played"),
            ({"kind": "back"}, "no bot stands in for Bo"),
            ({"kind": "bot", "bot": "oracle"}, "a stand-in is one of the bots"),
        ]:
            answer = await answer_of(bo, message)
            assert answer["ok"] is False and says in answer["error"], answer
        for message, says in [
            ({"kind": "add_table", "table": {"name": "table 1", "game": "bust"}}, "there is a table named table 1 already"),
            ({"kind": "add_table", "table": {"name": "x", "game": "no-such-game"}}, "no-such-game"),
            ({"kind": "add_table", "table": {"name": "x", "game": "bust", "players": 9}}, "'x'"),
            ({"kind": "add_table", "table": {"name": "x" * 200, "game": "bust"}}, "1 to 80 printable characters"),
            ({"kind": "add_table", "table": {"game": "bust", "bots": {"0": "oracle"}}}, "a bot at a table is one of"),
            ({"kind": "hand_over", "table": "table 1", "seat": 5}, "there is no seat 5 at table 1"),
            ({"kind": "hand_over", "table": "nowhere", "seat": 0}, "there is no table 'nowhere'"),
            ({"kind": "hand_over", "table": "table 1", "seat": 0, "bot": "oracle"}, "a stand-in is one of the bots"),
            ({"kind": "undo", "state_id": 0}, "the teacher's code watches"),
            ({"kind": "bot", "bot": "greedy"}, "the teacher's code watches"),
        ]:
            answer = await answer_of(teacher, message)
            assert answer["ok"] is False and says in answer["error"], (message, answer)
        assert everything() == before and set(referee.tables) == {"table 1", "table 2"}

    served(test)


def test_a_second_connection_with_the_same_code_takes_the_seat_and_the_first_is_told() -> None:
    async def test(referee: Referee, codes: dict[str, str], url: str) -> None:
        first, _ = await hello(url, codes["table 1 0"])
        await frame_of(first)
        second, answer = await hello(url, codes["table 1 0"])
        assert answer["ok"] is True
        told = await received(first)
        assert told["kind"] == "taken_over"
        with pytest.raises(ConnectionClosed):
            await received(first)
        assert (await frame_of(second))["viewer"] == 0 and referee.connected("table 1") == [0]
        await second.close()
        async with asyncio.timeout(DEADLINE):
            while referee.connected("table 1"):
                await asyncio.sleep(0.01)  # (polling, within the deadline)

    served(test)


def test_a_flood_is_refused_then_closed_and_the_table_is_as_it_was() -> None:
    async def test(referee: Referee, codes: dict[str, str], url: str) -> None:
        ws, _ = await hello(url, codes["table 1 1"])
        await frame_of(ws)
        before = referee.tables["table 1"].state_id
        for _ in range(30):
            try:
                await ws.send('{"kind": "ping"}')
            except ConnectionClosed:
                break
        answers = []
        with pytest.raises(ConnectionClosed):
            while True:
                answers.append(await received(ws))
        assert sum(a.get("error") == "too many messages: slow down" for a in answers) == 2
        assert sum(a.get("ok") is True for a in answers) >= 5  # the burst, answered
        assert ws.close_code == 1008 and referee.tables["table 1"].state_id == before

    served(test, rate=1.0, burst=5, strikes=2)


def test_a_message_over_the_size_cap_closes_the_connection() -> None:
    async def test(referee: Referee, codes: dict[str, str], url: str) -> None:
        ws, _ = await hello(url, codes["table 1 0"])
        await frame_of(ws)
        await ws.send('{"kind": "ping", "id": "' + "x" * 100_000 + '"}')
        with pytest.raises(ConnectionClosed):
            while True:
                await received(ws)
        assert ws.close_code == 1009  # "message too big", from the websockets library's own cap

    served(test)


def test_a_connection_that_never_says_hello_is_closed() -> None:
    async def test(referee: Referee, codes: dict[str, str], url: str) -> None:
        ws = await connect(url, proxy=None)
        with pytest.raises(ConnectionClosed):
            await received(ws)
        assert ws.close_code == 1008

    served(test, hello_seconds=0.2)


def test_a_bot_seat_is_played_by_the_referees_worker_and_every_seat_sees_its_moves() -> None:
    async def main() -> None:
        codes = Codes()
        table = Table("table 1", Session(Bust(), ["Ada", "Greedy"], seed=4), bots={1: "greedy"})
        ada_code = codes.new("table 1", 0)
        referee = Referee({"table 1": table}, codes, version=VERSION)
        server = await referee.serve("127.0.0.1", 0)
        url = f"ws://127.0.0.1:{server.sockets[0].getsockname()[1]}"
        try:
            async with asyncio.timeout(DEADLINE * 4):
                ada, _ = await hello(url, ada_code)
                frame = await frame_of(ada)
                while not frame["over"]:
                    if frame["actions"]:
                        await ada.send(json.dumps({"kind": "act", "action_id": frame["actions"][0]["id"], "state_id": frame["state_id"]}))
                    frame = await frame_of(ada)  # after Ada's move, the bot's (frames arrive in order)
                assert table.is_over and any("Greedy" in line for line in frame["log"])
        finally:
            server.close()
            await server.wait_closed()
            referee.close()

    asyncio.run(main())


def test_a_connection_that_answers_no_heartbeat_is_closed_and_its_seat_freed() -> None:
    async def test(referee: Referee, codes: dict[str, str], url: str) -> None:
        ada, _ = await hello(url, codes["table 1 0"])
        await frame_of(ada)
        bo, _ = await hello(url, codes["table 1 1"])
        await frame_of(bo)
        assert referee.connected("table 1") == [0, 1]
        ada.transport.pause_reading()  # a laptop gone to sleep: it reads nothing, so answers no ping
        async with asyncio.timeout(DEADLINE):
            while referee.connected("table 1") != [1]:
                await asyncio.sleep(0.05)  # (polling, within the deadline)
        await bo.send(json.dumps({"kind": "ping", "id": "p"}))  # the other seat, answering its pings, stays
        assert await received(bo) == {"kind": "answer", "id": "p", "ok": True}
        assert referee.connected("table 1") == [1]

    served(test, heartbeat=0.3)
