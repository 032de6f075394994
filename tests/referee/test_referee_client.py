"""A seat's end of a table (``SeatClient``, ``SeatGame``) against a real referee process: two
seats play a whole game from their own frames, by text and by id; a move out of turn is refused
with the referee's reason and changes nothing; what only the referee may do (another's undo, the
record, the scores before the end) is refused with why; a wrong code, another game and another
version are refused before any frame arrives; a client process killed mid-game rejoins with its
code and gets the same snapshot."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from _referee_helpers import DEADLINE, referee

import kum_widget as kum
from kum_widget.core.errors import GameError
from kum_widget.referee import Refused
from kum_widget.referee.client import SeatClient, SeatGame


def seat(url: str, code: str, **more: object) -> SeatGame:
    return SeatGame(SeatClient(url, code, game=more.pop("game", "bust"), version=str(more.pop("version", kum.__version__)),
                               timeout=DEADLINE, **more))  # type: ignore[arg-type]


def test_two_seats_play_a_whole_game_each_from_its_own_frames(tmp_path: Path) -> None:
    with referee(tmp_path) as (url, codes, _):
        ada, bo = seat(url, codes[("table 1", 0)]), seat(url, codes[("table 1", 1)])
        assert (ada.seat, bo.seat, ada.players) == (0, 1, ("Ada", "Bo"))
        assert ada.current_player == 0 and ada.legal_actions() and bo.legal_actions() == []
        with pytest.raises(Refused, match="it is Ada's turn, not Bo's") as refused:
            bo.act(ada.legal_action_ids()[0])  # Bo sends an id Ada was offered
        assert refused.value.resync is False and ada.state_id == bo.state_id == 0
        with pytest.raises(GameError, match="not one of this seat's actions now: none"):
            bo.act("play 3")
        with pytest.raises(Refused, match="only your own last move, and nothing has been played"):
            ada.undo()
        offered = ada.legal_action_ids()
        play = next(a for a in ada.legal_actions() if a.startswith("play"))
        ada.act(play)  # a card from her hand: it showed her nothing new, so she may take it back
        bo.wait_state(ada.state_id)
        with pytest.raises(Refused, match="the last move was Ada's"):
            bo.undo()
        with pytest.raises(GameError, match="one move, your own last, not 2"):
            ada.undo(2)
        assert ada.undo() == 1 and ada.current_player == 0 and ada.legal_action_ids() == offered and ada.state_id == 2
        bo.wait_state(2)
        with pytest.raises(GameError, match="the record of a game at a table"):
            ada.record()
        with pytest.raises(GameError, match="the scores are the referee's until the game is over"):
            ada.scores()
        rng = random.Random(2)
        moves = 0
        while not ada.is_over:
            mover = ada if ada.current_player == 0 else bo
            assert mover.wait_turn()
            if moves % 2:
                mover.act(rng.choice(mover.legal_actions()))  # by text
            else:
                mover.act(rng.choice(mover.legal_action_ids()))  # by id
            moves += 1
            (bo if mover is ada else ada).wait_state(mover.state_id)
        assert not ada.wait_turn() and moves >= 2 and bo.is_over and ada.scores() == bo.scores() and len(ada.scores()) == 2
        whole = kum.core.Session.from_record(ada.record())  # over: the whole record is the seat's to ask for
        assert whole.is_over and whole.scores() == ada.scores() and bo.record() == ada.record()
        with pytest.raises(GameError, match="seat 1's view holds what only that seat may see; this is seat 0"):
            ada.view_of(1)
        assert ada.view_of(0) == ada.view
        assert "SeatGame seat 0 at 'table 1'" in repr(ada)
        for game in (ada, bo):
            game.close()


@pytest.mark.parametrize(("code", "more", "says"), [
    ("0" * 32, {}, "not a code of this referee"),
    (("table 1", 0), {"game": "undercut"}, "table 1 plays bust"),
    (("table 1", 0), {"version": "0.0.1"}, "this referee runs kum_widget"),
])
def test_a_wrong_code_another_game_or_version_is_refused_before_any_frame(tmp_path: Path, code: object, more: dict[str, str],
                                                                           says: str) -> None:
    with referee(tmp_path) as (url, codes, _):
        with pytest.raises(Refused, match=says):
            seat(url, codes[code] if isinstance(code, tuple) else str(code), **more)


def test_a_referee_that_is_not_there_is_said_so(tmp_path: Path) -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # a port nothing listens on (closed again below)
    with pytest.raises(GameError, match=f"cannot reach the referee at ws://127.0.0.1:{port}"):
        seat(f"ws://127.0.0.1:{port}", "0" * 32)
    with pytest.raises(GameError, match="starts with ws:// or wss://"):
        seat("http://127.0.0.1:1", "0" * 32)
    with pytest.raises(GameError, match="a code is text"):
        SeatClient("ws://127.0.0.1:1", 5, game="bust", version="0")  # type: ignore[arg-type]


def test_a_seat_plays_the_referees_bot_to_the_end_and_the_bot_seat_has_no_code(tmp_path: Path) -> None:
    classfile = '[[table]]\nname = "duel"\ngame = "bust"\nplayers = ["Ada", "Greedy"]\nbots = { 1 = "greedy" }\n'
    with referee(tmp_path, classfile=classfile) as (url, codes, out):
        assert set(codes) == {("duel", 0), ("every table", "teacher")} and "seat 1" not in "".join(out)
        ada = seat(url, codes[("duel", 0)])
        while ada.wait_turn():
            ada.act(ada.legal_action_ids()[0])
        assert ada.is_over and len(ada.scores()) == 2 and any("Greedy" in line for line in ada.log)
        ada.close()


def test_a_client_killed_mid_game_rejoins_with_its_code_and_gets_the_same_snapshot(tmp_path: Path) -> None:
    script = textwrap.dedent("""
        import json, sys
        import kum_widget as kum
        from kum_widget.referee.client import SeatClient, SeatGame
        ada = SeatGame(SeatClient(sys.argv[1], sys.argv[2], game="bust", version=kum.__version__, timeout=60))
        ada.act(ada.legal_action_ids()[0])
        print(json.dumps(ada._client.frame), flush=True)
        sys.stdin.read()  # until killed
    """)
    with referee(tmp_path) as (url, codes, _):
        bo = seat(url, codes[("table 1", 1)])
        proc = subprocess.Popen([sys.executable, "-c", script, url, codes[("table 1", 0)]], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True)
        try:
            assert proc.stdout is not None
            seen = json.loads(proc.stdout.readline())  # (the first line comes within the client's own 60 s)
            bo.wait_state(1)  # (Ada had her frame of it; Bo's may come a moment later)
            bo.act(bo.legal_action_ids()[0])  # the table moves on while Ada's laptop is alive
            bo.wait_state(2)
        finally:
            proc.kill()  # the laptop's kernel dies: no goodbye
            proc.wait(timeout=DEADLINE)
        ada = seat(url, codes[("table 1", 0)])  # the same code, a new kernel
        now = ada._client.frame
        assert seen["state_id"] == 1 and now["state_id"] == 2 and now["viewer"] == 0 and ada.legal_actions()
        assert now["log"][-1] == bo.log[-1] and now["table_sequence"] == 2  # (Bo's move, as both may read it)
        again = seat(url, codes[("table 1", 0)])  # and a second tab takes the seat over: the first is told
        assert again._client.frame == now
        ada._client.wait_until(lambda: ada._client.taken_over, "the news it was taken over")
        for game in (ada, again, bo):
            game.close()


def test_a_closed_or_taken_over_connection_says_so_as_a_game_error(tmp_path: Path) -> None:
    with referee(tmp_path) as (url, codes, _):
        board = kum.join(url, codes[("table 1", 0)])
        other = kum.join(url, codes[("table 1", 0)])  # a second tab with the same code
        board._client.wait_until(lambda: board._client.taken_over, "the news")
        assert "another connection took this seat" in board.error
        with pytest.raises(GameError, match="another connection took this seat with your code"):
            board.act(board.game.legal_action_ids()[0])
        other.close()
        with pytest.raises(GameError, match="is closed: join again with your code"):
            other.act(0)
        answers: list[str | None] = []
        other.game._client.submit("act", {"action_id": 0, "state_id": 0}, answers.append)  # a click after the close
        assert answers and "is closed" in str(answers[0])
        board.close()
