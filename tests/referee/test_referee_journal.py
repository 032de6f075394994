"""The referee's journal: every change appended as it happens, readable by the teacher alone; a
referee killed with SIGKILL starts again from it with every table where it was, every code the
same and no finished game lost; each finished game handed in as its record and its replay."""

from __future__ import annotations

import json
import os
import random
import re
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from _referee_helpers import DEADLINE, TEACHER, RefereeProcess

import kum_widget as kum
from kum_widget.core.errors import GameError
from kum_widget.core.session import Session
from kum_widget.referee.client import SeatClient, SeatGame, TeacherClient
from kum_widget.referee.journal import Journal, read_journal, tables_from

TWO_TABLES = """
[[table]]
name = "table 1"
game = "bust"
players = ["Ada", "Bo"]
seed = 3

[[table]]
name = "table 2"
game = "bust"
players = ["Cy", "Di"]
seed = 4
"""


def seat(url: str, code: str) -> SeatGame:
    return SeatGame(SeatClient(url, code, game="bust", version=kum.__version__, timeout=DEADLINE))


def play(games: list[SeatGame], moves: int | None, rng: random.Random) -> None:
    """``moves`` moves (None: to the end) at one table, each seat on its turn."""
    done = 0
    while not games[0].is_over and (moves is None or done < moves):
        mover = games[games[0].current_player or 0]
        assert mover.wait_turn()
        mover.act(rng.choice(mover.legal_action_ids()))
        done += 1
        for game in games:
            game.wait_state(mover.state_id)


def handed_in(games: Path, files: int) -> list[str]:
    """The names in ``games`` once it holds ``files`` files (a game is handed in by a process of the
    referee's own, just after its end)."""
    deadline = time.monotonic() + DEADLINE
    while len(names := sorted(p.name for p in games.glob("*") if not p.name.startswith("."))) < files:
        assert time.monotonic() < deadline, f"{files} files never came to {games}: {names}"
        time.sleep(0.05)  # (polling, within the deadline)
    return names


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_referee_killed_mid_game_starts_again_from_its_journal(tmp_path: Path) -> None:
    first = RefereeProcess(tmp_path, classfile=TWO_TABLES)
    codes = first.codes
    rng = random.Random(5)
    ada, bo = seat(first.url, codes[("table 1", 0)]), seat(first.url, codes[("table 1", 1)])
    play([ada, bo], None, rng)  # table 1 to its end: handed in
    cy, di = seat(first.url, codes[("table 2", 0)]), seat(first.url, codes[("table 2", 1)])
    play([cy, di], 3, rng)  # table 2 mid-game
    snapshot = [dict(g._client.frame) for g in (cy, di)]
    finished = dict(ada._client.frame)
    for game in (ada, bo, cy, di):
        game.close()
    handed_in(tmp_path / "private" / "games", 2)
    first.kill()
    assert first.output_ended  # its workers (the writer of finished games) ended with it

    folder = tmp_path / "private"
    assert mode(folder) == 0o700 and mode(folder / "journal.jsonl") == 0o600 and mode(folder / "codes.txt") == 0o600
    journal = (folder / "journal.jsonl").read_text()
    assert not any(code in journal for code in codes.values())
    said = "".join(first.out[first.out.index(next(line for line in first.out if line.startswith("serving at"))):])
    assert "joined" in said and "is over" in said and not any(code in said for code in codes.values())  # its log: no code
    handed = handed_in(folder / "games", 2)
    assert len(handed) == 2 and all(mode(folder / "games" / name) == 0o600 for name in handed)
    record = next(name for name in handed if name.endswith(".kum.txt"))
    assert record.startswith("bust_table-1_Ada-Bo_") and next(n for n in handed if n.endswith(".html")) == record.replace(".kum.txt", ".html")
    done = Session.from_record((folder / "games" / record).read_text())
    assert done.is_over and [p["score"] for p in finished["board"]["players"]] == done.scores()

    again = RefereeProcess(tmp_path, classfile=TWO_TABLES)
    try:
        assert again.codes == codes  # every code the same: students join as they did
        assert "resumed from its journal (1 finished)" in "".join(again.out)
        cy, di = seat(again.url, codes[("table 2", 0)]), seat(again.url, codes[("table 2", 1)])
        assert [g._client.frame for g in (cy, di)] == snapshot  # each seat's frame as it was: state id, sequence, log
        ada = seat(again.url, codes[("table 1", 0)])
        assert ada.is_over and ada._client.frame == finished
        teacher = TeacherClient(again.url, codes[("every table", TEACHER)], version=kum.__version__, timeout=DEADLINE)
        assert set(teacher.records) == {"table 1"}  # the finished table's record; table 2's only at its end
        play([cy, di], None, rng)
        teacher.wait_until(lambda: "table 2" in teacher.records, "record of table 2")
        assert Session.from_record(teacher.records["table 2"]).is_over
        assert len(handed_in(folder / "games", 4)) == 4 and len(handed) == 2  # nothing of table 1's written twice
        hand = kum.lab.load(folder / "games")  # the class's games, handed in: straight into report(pooled=...)
        assert len(hand.sessions) == 2 and hand.outcomes == () and len(hand.same) == 2  # each replay repeats its record
        for client in (cy, di, ada, teacher):
            client.close()
    finally:
        again.stop()


def test_the_journal_is_the_teachers_alone_and_a_line_cut_short_is_left_out(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    journal = Journal(path)
    journal.write({"kind": "table", "setup": {"name": "t", "game": "bust", "players": ["Ada", "Bo"], "seed": 1}})
    journal.write({"kind": "act", "table": "t", "seat": 0, "action": 100})
    journal.close()
    assert mode(path) == 0o600
    with path.open("a") as out:
        out.write('{"kind": "act", "table": "t", "se')  # killed while writing
    entries, cut = read_journal(path)
    assert [e["kind"] for e in entries] == ["table", "act"] and cut is not None and "line 3" in cut and "cut short" in cut
    Journal(path).write({"kind": "undo", "table": "t", "seat": 0})  # the cut line goes; the next starts afresh
    entries, cut = read_journal(path)
    assert [e["kind"] for e in entries] == ["table", "act", "undo"] and cut is None
    tables, over = tables_from(entries)
    assert tables["t"].moves == 0 and tables["t"].state_id == 2 and over == {}  # a card drawn, taken back as the journal says
    os.chmod(path, 0o644)
    with pytest.raises(GameError, match="readable by others: it holds every deal"):
        Journal(path)


@pytest.mark.parametrize(("lines", "says"), [
    (['{"kind": "table", "setup": {"name": "t", "game": "bust", "players": 2, "seed": 1}}', "not json", "{}"],
     "line 2: not a journal entry"),
    (['{"kind": "act", "table": "nowhere", "seat": 0, "action": 1}'], "entry 1 ('act'): a field is missing or wrong"),
    (['{"kind": "table", "setup": {"name": "t", "game": "bust", "players": 2, "seed": 1}}',
      '{"kind": "act", "table": "t", "seat": 1, "action": 100}'], "entry 2 ('act') cannot be played again: it is"),
    (['{"kind": "party"}'], "no entry of the kind 'party'"),
])
def test_a_journal_that_does_not_play_again_says_where(tmp_path: Path, lines: list[str], says: str) -> None:
    path = tmp_path / "journal.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(GameError, match=re.escape(says)):
        tables_from(read_journal(path)[0])


def test_a_journal_without_its_codes_file_refuses_to_start(tmp_path: Path) -> None:
    first = RefereeProcess(tmp_path, classfile=TWO_TABLES)
    first.stop()
    (tmp_path / "private" / "codes.txt").unlink()
    with pytest.raises(AssertionError, match=r"codes file .* is gone"):
        RefereeProcess(tmp_path, classfile=TWO_TABLES)


def test_journal_entries_are_json_lines_without_codes(tmp_path: Path) -> None:
    first = RefereeProcess(tmp_path, classfile=TWO_TABLES)
    try:
        ada = seat(first.url, first.codes[("table 1", 0)])
        ada.act(ada.legal_action_ids()[0])
        ada.close()
    finally:
        first.stop()
    kinds = [json.loads(line)["kind"] for line in (tmp_path / "private" / "journal.jsonl").read_text().splitlines()]
    assert kinds == ["table", "table", "act"]


def test_two_tables_whose_names_read_alike_hand_in_two_games_and_one_folder_has_one_referee(tmp_path: Path) -> None:
    classfile = "".join(f'[[table]]\nname = "{name}"\ngame = "undercut"\nplayers = ["Ada", "Bo"]\nrules = {{ rounds = 1 }}\n'
                        for name in ("x", "table x"))
    first = RefereeProcess(tmp_path, classfile=classfile)
    try:
        for table in ("x", "table x"):  # one round each: both over within the minute, their names alike
            ada = SeatGame(SeatClient(first.url, first.codes[(table, 0)], game="undercut", version=kum.__version__, timeout=DEADLINE))
            bo = SeatGame(SeatClient(first.url, first.codes[(table, 1)], game="undercut", version=kum.__version__, timeout=DEADLINE))
            ada.act("pick 2")
            assert bo.wait_turn()
            bo.act("pick 3")
            ada.wait_over()
            for game in (ada, bo):
                game.close()
        games = tmp_path / "private" / "games"
        teacher = TeacherClient(first.url, first.codes[("every table", TEACHER)], version=kum.__version__, timeout=DEADLINE)
        assert set(teacher.records) == {"x", "table x"}
        teacher.close()
        names = handed_in(games, 4)
        assert len(names) == 4 and len({n.split("_2026")[0] for n in names}) == 1, names  # alike, and none written over
        assert kum.lab.load(games).files and len(kum.lab.load(games).sessions) == 2
        (tmp_path / "second").mkdir()
        (tmp_path / "second" / "class.toml").write_text(classfile)
        second = subprocess.run([sys.executable, "-m", "kum_widget.serve", str(tmp_path / "second" / "class.toml"), "--port", "0",
                                 "--folder", str(tmp_path / "private")], capture_output=True, text=True, timeout=DEADLINE)
        assert second.returncode == 2 and "another referee is using" in second.stderr, second.stderr
    finally:
        first.stop()
