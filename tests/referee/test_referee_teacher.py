"""The teacher's code at a real referee: every table's public frame, who sits and who is connected,
moves so far; a table's record only once its game is over; a table added while the referee runs
(its codes written to the codes file); a seat handed to a bot, and taken back by its person; a
person silent on their turn stood in for; a game written in a file served with ``--game``."""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

import pytest
from _referee_helpers import DEADLINE, TEACHER, RefereeProcess, referee

import kum_widget as kum
from kum_widget.core.errors import GameError
from kum_widget.referee import Refused
from kum_widget.referee.client import SeatClient, SeatGame, TeacherClient

ONE_TABLE = """
[[table]]
name = "table 1"
game = "bust"
players = ["Ada", "Bo"]
seed = 3
"""


def seat(url: str, code: str, game: str | None = "bust") -> SeatGame:
    return SeatGame(SeatClient(url, code, game=game, version=kum.__version__, timeout=DEADLINE))


def teacher_of(url: str, code: str) -> TeacherClient:
    return TeacherClient(url, code, version=kum.__version__, timeout=DEADLINE)


def test_the_teacher_watches_every_table_and_gets_its_record_only_at_its_end(tmp_path: Path) -> None:
    with referee(tmp_path, classfile=ONE_TABLE) as (url, codes, _):
        teacher = teacher_of(url, codes[("every table", TEACHER)])
        status = teacher.status["table 1"]
        assert status["players"] == ["Ada", "Bo"] and status["connected"] == [] and status["moves"] == 0 and status["handed_in"] is None
        assert teacher.frames["table 1"]["viewer"] == "public" and teacher.records == {}
        ada = seat(url, codes[("table 1", 0)])
        teacher.wait_until(lambda: teacher.status["table 1"]["connected"] == [0], "Ada connected")
        bo = seat(url, codes[("table 1", 1)])
        rng = random.Random(1)
        while not ada.is_over:
            mover = ada if ada.current_player == 0 else bo
            mover.act(rng.choice(mover.legal_action_ids()))
            for game in (ada, bo):
                game.wait_state(mover.state_id)
            if not ada.is_over:
                assert teacher.records == {}  # the record holds every hand: not before the end
        teacher.wait_until(lambda: "table 1" in teacher.records, "the record")
        assert teacher.status["table 1"]["over"]  # the status that says so came before the record
        assert teacher.status["table 1"]["moves"] == ada.state_id
        teacher.wait_until(lambda: teacher.status["table 1"]["handed_in"] is not None, "the hand-in")  # its files written, then said
        files = teacher.status["table 1"]["handed_in"]
        assert [f.endswith(".kum.txt") for f in files] == [True, False] and files[1].endswith(".html") and all((tmp_path / "private" / "games" / f).exists() for f in files)
        assert kum.core.Session.from_record(teacher.records["table 1"]).scores() == ada.scores()
        bo.close()
        teacher.wait_until(lambda: teacher.status["table 1"]["connected"] == [0], "Bo gone")
        with pytest.raises(GameError, match="that is a seat's code; the teacher's code watches"):
            teacher_of(url, codes[("table 1", 0)])
        for client in (ada, teacher):
            client.close()


def test_the_teacher_adds_a_table_while_the_referee_runs_and_its_codes_join_it(tmp_path: Path) -> None:
    process = RefereeProcess(tmp_path, classfile=ONE_TABLE)
    try:
        teacher = teacher_of(process.url, process.codes[("every table", TEACHER)])
        codes = teacher.add_table(name="late table", game="undercut", players=["Cy", "Di"], seed=9, bots={"1": "random"})
        assert set(codes) == {"0"}  # the bot's seat has no code
        assert f"late table\tseat 0 (Cy)\t{codes['0']}" in process.codes_file.read_text()
        cy = seat(process.url, codes["0"], game="undercut")
        assert cy.players == ("Cy", "Di") and cy.legal_actions()
        cy.act("pick 3")
        cy.wait_turn()  # the bot picked
        assert cy.state_id >= 2
        with pytest.raises(Refused, match="there is a table named late table already"):
            teacher.add_table(name="late table", game="bust", players=2)
        with pytest.raises(Refused, match="no key colour"):
            teacher.add_table(name="odd", game="bust", colour="red")
        ada = seat(process.url, process.codes[("table 1", 0)])
        with pytest.raises(Refused, match="add table is the teacher's to do"):
            ada._client.request("add_table", table={"name": "mine", "game": "bust"})
        for client in (cy, ada, teacher):
            client.close()
    finally:
        process.stop()
    again = RefereeProcess(tmp_path, classfile=ONE_TABLE)  # the added table is in the journal too
    try:
        cy = seat(again.url, codes["0"], game="undercut")
        assert cy.players == ("Cy", "Di") and cy.state_id >= 2
        cy.close()
    finally:
        again.stop()


def test_a_seat_handed_to_a_bot_is_played_and_its_person_takes_it_back(tmp_path: Path) -> None:
    with referee(tmp_path, classfile=ONE_TABLE) as (url, codes, _):
        teacher = teacher_of(url, codes[("every table", TEACHER)])
        ada, bo = seat(url, codes[("table 1", 0)]), seat(url, codes[("table 1", 1)])
        teacher.hand_over("table 1", 0, "random")
        bo.wait_state(1)  # the bot played Ada's turn
        assert ada._client.wait_for(lambda f: f["stand_ins"] == {"0": "random"}) and ada.stand_in == "random"
        if not bo.is_over:
            bo.act(bo.legal_action_ids()[0])
        ada.take_back()
        assert ada.stand_in is None
        teacher.wait_until(lambda: teacher.status["table 1"]["stand_ins"] == {}, "Ada back")
        with pytest.raises(Refused, match="no bot stands in for Ada: the seat is yours"):
            ada.take_back()
        with pytest.raises(Refused, match="there is no table 'table 9'"):
            teacher.hand_over("table 9", 0)
        for client in (ada, bo, teacher):
            client.close()


def test_a_person_silent_on_their_turn_is_stood_in_for_until_they_say_back(tmp_path: Path) -> None:
    with referee(tmp_path, "--silent", "1", "--stand-in", "random", classfile=ONE_TABLE) as (url, codes, _):
        ada = seat(url, codes[("table 1", 0)])
        ada._client.wait_for(lambda f: f["stand_ins"] == {"0": "random"} and f["state_id"] >= 1)  # silent 1 s: a bot played
        bo = seat(url, codes[("table 1", 1)])
        ada.close()
        ada = seat(url, codes[("table 1", 0)])  # joining again takes the seat back
        assert ada.stand_in is None
        for client in (ada, bo):
            client.close()


def test_a_game_in_a_file_is_served_with_a_warning(tmp_path: Path) -> None:
    (tmp_path / "mine.py").write_text(textwrap.dedent("""
        from kum_widget.core.examples import Bust

        class ShortBust(Bust):
            name = "short-bust"
            title = "Short Bust"
            defaults = {"limit": 9, "hand": 3}
    """))
    classfile = ONE_TABLE.replace('game = "bust"', 'game = "short-bust"')
    with referee(tmp_path, "--game", f"{tmp_path / 'mine.py'}:ShortBust", classfile=classfile) as (url, codes, out):
        assert "--game runs the code in" in "".join(out) and "give it only a file you trust" in "".join(out)
        ada = seat(url, codes[("table 1", 0)], game="short-bust")
        assert ada.legal_actions()
        ada.close()


@pytest.mark.parametrize(("spec", "says"), [
    ("nowhere.py:Game", "there is no file"),
    ("mine.py", "takes path/file.py:Class"),
    ("mine.py:Nothing", "has no CardGame class named Nothing"),
])
def test_a_bad_game_file_stops_the_referee_with_a_sentence(tmp_path: Path, spec: str, says: str) -> None:
    import subprocess
    import sys

    (tmp_path / "mine.py").write_text("x = 1\n")
    (tmp_path / "class.toml").write_text(ONE_TABLE)
    done = subprocess.run([sys.executable, "-m", "kum_widget.serve", str(tmp_path / "class.toml"), "--port", "0",
                           "--folder", str(tmp_path / "private"), "--game", spec], capture_output=True, text=True,
                          timeout=DEADLINE, cwd=tmp_path)
    assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr


def test_the_teachers_widget_shows_each_table_live_and_reveals_it_only_at_its_end(tmp_path: Path) -> None:
    with referee(tmp_path, classfile=ONE_TABLE) as (url, codes, _):
        view = kum.tables(url, codes[("every table", TEACHER)])
        row = view.children[0]
        assert "table 1: Bust, 0 moves so far" in row.facts.value and "Ada: not connected" in row.facts.value
        board = view.board("table 1")
        assert board.board["shown_seat"] is None and board.legal["actions"] == []  # the public table: nothing to play
        ada, bo = seat(url, codes[("table 1", 0)]), seat(url, codes[("table 1", 1)])
        ada.act(next(a for a in ada.legal_actions() if a.startswith("play")))
        bo.wait_state(ada.state_id)  # Bo acts next: on his frame of Ada's move, which may come after hers
        view._client.wait_until(lambda: view.status["table 1"]["moves"] == 1 and view.status["table 1"]["connected"] == [0, 1], "a move")
        assert "1 move so far" in row.facts.value and "Bo: connected (to play)" in row.facts.value
        assert board.state_id == ada.state_id and row.replay.layout.display == "none"  # no replay before the end
        rng = random.Random(4)
        while not ada.is_over:
            mover = ada if ada.current_player == 0 else bo
            mover.act(rng.choice(mover.legal_action_ids()))
            for game in (ada, bo):
                game.wait_state(mover.state_id)
        view._client.wait_until(lambda: "table 1" in view.records, "the record")
        assert "game over: every hand shown" in row.facts.value and row.replay.max == ada.state_id
        assert board.board["shown_seat"] is None and board.step == row.replay.max
        row.replay.value = 1  # the replay: the table after the first move, every hand shown
        assert board.step == 1
        with pytest.raises(GameError, match="there is no table 'table 9' here"):
            view.board("table 9")
        with pytest.raises(GameError, match=r"tables: the referee at .* refused: that is not a code"):
            kum.tables(url, "0" * 32)
        for client in (ada, bo, view):
            client.close()


def test_a_script_plays_its_seat_with_the_referees_bot_to_the_end(tmp_path: Path) -> None:
    with referee(tmp_path, classfile=ONE_TABLE.replace('players = ["Ada", "Bo"]', 'players = ["Ada", "Bo"]\nbots = { 1 = "random" }')) as (url, codes, _):
        board = kum.join(url, codes[("table 1", 0)])
        with pytest.raises(Refused, match="a stand-in is one of the bots"):
            board.play_with("oracle")
        board.play_with("greedy")  # a script's seat, played by the referee's greedy bot (it sees only this seat's view)
        assert board.game.stand_in == "greedy"
        scores = board.game.wait_over()
        assert board.game.is_over and len(scores) == 2 and board.state_id == board.game.state_id
        board.close()


def test_a_record_this_kernel_cannot_replay_is_said_so_and_stays_said() -> None:
    from kum_widget.board.tables_view import TableRow

    row = TableRow("t")
    status = {"table": "t", "game": "mine", "players": ["Ada", "Bo"], "connected": [], "moves": 7, "over": True}
    row.update(status, None, "not a record")
    assert "game over</h3>" in row.facts.value and "Its record cannot be replayed here:" in row.facts.value
    row.update({**status, "connected": [0]}, None, None)  # news after it keeps the note
    assert "Ada: connected" in row.facts.value and "Its record cannot be replayed here:" in row.facts.value
    assert row.replay.layout.display == "none"
