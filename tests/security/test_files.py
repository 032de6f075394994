"""The files the library reads and writes. Files a user's own code names (a KUM deck, a court
card table) are read only when they are regular files, and only up to a cap: a FIFO blocked for
ever, /dev/zero filled memory. Each such case runs in a child process with a memory cap and a
time limit, so a regression fails the test instead of hurting the machine. The replay file
``save_replay`` writes gets the user's umask's mode (or keeps the file's own), goes through a
link, and never replaces what is not a regular file (a FIFO, a device, a socket).
(The court's card table named by a saved game or record: test_court_tables.py.)"""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from _paths import ROOT

import kum_widget as kum
from kum_widget import core
from kum_widget.core.errors import GameError
from kum_widget.core.files import read_text_file

_CHILD = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (768 * 2**20, 768 * 2**20))
import kum_widget as kum
path = sys.argv[1]
try:
    {call}
except kum.KumError as exc:
    print("refused:", exc)
"""


@pytest.mark.parametrize("call", ["kum.Deck.from_csv(path)", "kum.court.CardTable.from_csv(path)"])
@pytest.mark.parametrize("node", ["fifo", "/dev/zero", "folder"])
def test_a_file_that_is_not_regular_is_refused_before_it_is_read(tmp_path: Path, call: str, node: str) -> None:
    if node == "fifo":
        path = str(tmp_path / "pipe")
        os.mkfifo(path)
    elif node == "folder":
        path = str(tmp_path)
    else:
        path = node
    code = _CHILD.replace("{call}", call).replace("except kum.KumError", "except ValueError")
    done = subprocess.run([sys.executable, "-c", code, path], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "refused:" in done.stdout and ("not a regular file" in done.stdout or "Is a directory" in done.stdout), done.stdout


def test_a_deck_file_past_the_cap_is_named(tmp_path: Path) -> None:
    big = tmp_path / "deck.csv"
    big.write_text("race,value,defense,size,points,overseer\n" + "orc,1,1,1,1,no\n" * 80_000)
    with pytest.raises(kum.InvalidDeckError, match="larger than the 1,000,000 bytes"):
        kum.Deck.from_csv(big)
    with pytest.raises(kum.InvalidDeckError, match="more than the 1,000,000"):
        kum.Deck.from_csv_text(big.read_text())


def test_a_deck_file_is_read_as_before(tmp_path: Path) -> None:
    path = tmp_path / "mine.csv"
    path.write_text(kum.Deck.standard().to_csv_text())
    deck = kum.Deck.from_csv(path)
    assert len(deck) == len(kum.Deck.standard()) and deck.name == "mine"


@pytest.mark.parametrize("bad", [None, 3, b"deck.csv", ["a"]])
def test_read_text_file_names_a_path_that_is_not_one(bad: object) -> None:
    with pytest.raises(GameError, match="a deck file is a path"):
        read_text_file(bad, what="deck", limit=10)


# -- save_replay: the file it writes, and what it refuses to replace ----------------------------


def _umask(mask: int) -> int:
    return os.umask(mask)


@pytest.mark.parametrize("mask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_save_replay_gives_a_new_file_the_umask_s_mode(tmp_path: Path, mask: int, mode: int) -> None:
    old = _umask(mask)
    try:
        path = kum.save_replay(kum.Game(seed=1), tmp_path / "game.html")
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == mode  # mkstemp's 0600 made a course page unreadable


def test_save_replay_keeps_an_existing_file_s_mode(tmp_path: Path) -> None:
    path = tmp_path / "game.html"
    path.write_text("old")
    path.chmod(0o640)
    kum.save_replay(kum.Game(seed=1), path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert "old" != path.read_text()[:3]


def test_save_replay_writes_through_a_link_and_keeps_it(tmp_path: Path) -> None:
    real = tmp_path / "real.html"
    real.write_text("old")
    link = tmp_path / "link.html"
    link.symlink_to(real)
    kum.save_replay(kum.Game(seed=1), link)
    assert link.is_symlink() and real.read_text().startswith("<!DOCTYPE html>")


def test_save_replay_refuses_a_fifo_and_leaves_it(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(core.InvalidOptionError, match="not a regular file"):
        kum.save_replay(kum.Game(seed=1), fifo)
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["pipe"]  # no temporary file left beside it


def test_save_replay_refuses_a_device_and_a_socket(tmp_path: Path) -> None:
    """As root, save_replay(g, os.devnull) replaced /dev/null. The device here is a copy of
    /dev/null made in a temporary folder (as root), so a regression cannot touch the real one;
    without root nothing in /dev can be replaced anyway, and /dev/null itself is tried."""
    if os.geteuid() == 0:
        device = tmp_path / "null"
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    else:
        device = Path(os.devnull)
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(tmp_path / "sock"))
    try:
        for node in (device, tmp_path / "sock"):
            before = node.lstat()
            with pytest.raises(core.InvalidOptionError, match="not a regular file"):
                kum.save_replay(kum.Game(seed=1), node)
            after = node.lstat()
            assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)
    finally:
        sock.close()


def test_save_replay_cuts_a_long_path_in_its_message(tmp_path: Path) -> None:
    with pytest.raises(core.InvalidOptionError) as err:
        kum.save_replay(kum.Game(seed=1), tmp_path / "nowhere" / ("z" * 20_000))
    assert len(str(err.value)) < 400
