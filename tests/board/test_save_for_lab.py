"""The board's "Save for the lab" (issue 45, point 5), its kernel side: at game over the board
writes the game's whole record into the working folder (or the folder given) under a name
the kernel chooses (``core.files.hand_in_name``), says where, and ``kum.lab.load`` reads it.
Before the game is over it is refused, and nothing is written; the page only asks."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from _board_helpers import Recorded, send

import kum_widget as kum
from kum_widget.board.seat_board import NOT_HERE
from kum_widget.board.widget import CONTROLS
from kum_widget.core import GameError

NAME = r"kings-under-mountains_Ada-Greedy-bot_\d{4}-\d\d-\d\d-\d{4}\.kum\.txt"


def finished(**kw: Any) -> Recorded:
    w = Recorded(bots={1: "greedy"}, seed=9, bot_delay=0, **kw)
    while not w.game.is_over:
        w.act(w.game.legal_actions()[0])
    return w


def test_the_finished_game_is_written_whole_under_its_hand_in_name(tmp_path: Path) -> None:
    w = finished()
    path = w.save_for_lab(tmp_path)
    assert path.parent == tmp_path and re.fullmatch(NAME, path.name), path
    assert path.read_text(encoding="utf-8") == w.game.record()  # every card: the game is over
    hand = kum.lab.load(tmp_path)
    assert len(hand) == 1 and hand.sessions[0].record() == w.game.record() and hand.outcomes == ()
    assert w.save_for_lab(tmp_path) == path and len(list(tmp_path.iterdir())) == 1  # the same game: the same file
    path.write_text("another game's notes")  # a file of that name holding something else is never written over
    again = w.save_for_lab(tmp_path)
    assert again.name == path.name.replace(".kum.txt", "-2.kum.txt") and again.read_text() == w.game.record()
    assert path.read_text() == "another game's notes"


def test_before_game_over_nothing_is_written_and_the_board_says_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    w = Recorded(bots={1: "greedy"}, seed=9, bot_delay=0)
    with pytest.raises(GameError, match="Save for the lab: the game is not over yet"):
        w.save_for_lab()
    send(w, "save_for_lab", token="s1")
    answer = w.answers()[-1]
    assert answer["id"] == "s1" and "saved" not in answer and "the game is not over yet" in w.error
    assert list(tmp_path.iterdir()) == []


def test_the_page_asks_and_the_kernel_chooses_the_folder_and_the_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # the notebook's working folder
    w = finished()
    for fields in ({"name": "../evil.kum.txt"}, {"folder": "/tmp"}, {"path": str(tmp_path / "x")}):
        send(w, "save_for_lab", token="bad", **fields)
        assert "saved" not in w.answers()[-1] and "unknown field" in w.error
    assert list(tmp_path.iterdir()) == [] and not (tmp_path.parent / "evil.kum.txt").exists()
    send(w, "save_for_lab", token="s2")
    answer = w.answers()[-1]
    (written,) = tmp_path.iterdir()
    assert answer["id"] == "s2" and answer["saved"] == str(written) and w.error == ""
    assert re.fullmatch(NAME, written.name) and written.read_text() == w.game.record()


def test_a_folder_that_is_none_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a-file.txt").write_text("x")
    w = finished()
    for folder in (42, None, b"bytes", "no-such-folder", "a-file.txt", "nul\0in-it"):
        with pytest.raises(GameError, match="Save for the lab: folder must be an existing folder"):
            w.save_for_lab(folder)
    assert [p.name for p in tmp_path.iterdir()] == ["a-file.txt"]


def test_the_board_offers_it_and_a_seat_at_a_referees_table_does_not() -> None:
    assert "save-for-lab" in CONTROLS and "save-for-lab" in finished().controls
    assert NOT_HERE["save_for_lab"] == "the referee hands in the table's games"
