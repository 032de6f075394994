"""Files a user's own code names (a KUM deck, a court card table) are read only when they are
regular files, and only up to a cap: a FIFO blocked for ever, /dev/zero filled memory. Each
case runs in a child process with a memory cap and a time limit, so a regression fails the
test instead of hurting the machine."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import kum_widget as kum
from kum_widget.core.errors import GameError
from kum_widget.core.files import read_text_file

ROOT = Path(__file__).resolve().parent.parent

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
