"""The court's card table, from a file or as text (issue 32, items 3 and 11): a saved game or
record that named a file as its card table (the library read it whole: /dev/zero exhausted
memory, a FIFO blocked for ever) opens nothing, a path is read once at the user's call, and a
table's text that escaped as a bare Python error (a Unicode digit, a table that is not text, a
header of many fields) is refused by name. The court's other public calls with hostile values:
test_court_hostile.py.

A test that must meet a device or a FIFO runs the call in a child process with a memory
limit and a timeout, so that a regression fails the test instead of the machine."""

from __future__ import annotations

import builtins
import io
import json
import math
import os
import resource
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from _paths import ROOT

import kum_widget as kum
from kum_widget.core import InvalidOptionError, InvalidSaveError
from kum_widget.games.court import CardTable, CourtOfTheThreeClans, CourtRules, table_for

STANDARD_CSV = table_for("standard").to_csv()
MINE_CSV = STANDARD_CSV.replace("\n0,sun,minister,3,1,0\n", "\n0,sun,minister,9,1,0\n")  # a table of its own: card 0 costs 9
BIG = 10**5000


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every path the library opens while the test runs (io.open, builtins.open, os.open)."""
    paths: list[str] = []

    def spy(real: Callable[..., Any]) -> Callable[..., Any]:
        def call(file: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(file, (str, os.PathLike)):
                paths.append(os.path.realpath(os.fspath(file)))
            return real(file, *args, **kwargs)
        return call

    monkeypatch.setattr(io, "open", spy(io.open))
    monkeypatch.setattr(builtins, "open", spy(builtins.open))
    monkeypatch.setattr(os, "open", spy(os.open))
    yield paths


def _mine(tmp_path: Path) -> Path:
    assert MINE_CSV != STANDARD_CSV
    path = tmp_path / "mine.csv"
    path.write_text(MINE_CSV, encoding="utf-8")
    return path


def _isolated(code: str, timeout: float = 60) -> str:
    """Run ``code`` in a child Python with 768 MB of address space; its stdout (the test
    fails, instead of the machine, if the call reads a device whole or blocks on a FIFO)."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (768 * 2**20, 768 * 2**20))

    prelude = "import kum_widget as kum\nfrom kum_widget.core import GameError\nfrom kum_widget.games.court import *\n"
    try:
        done = subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)], cwd=ROOT, capture_output=True, text=True,
                              timeout=timeout, preexec_fn=limit)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the call did not return within {timeout} s (it blocked on a FIFO?)")
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


# -- item 3: a saved game or record never makes the library open a file -------------------------


def test_item3_a_saved_game_naming_a_file_as_its_table_is_refused_and_opens_nothing(tmp_path: Path, opened: list[str]) -> None:
    path = _mine(tmp_path)
    opened.clear()  # (writing it opened it)
    data = kum.Court(seed=5).to_dict()
    data["options"]["table"] = str(path)
    before = json.dumps(data)
    with pytest.raises(InvalidSaveError, match="option 'table'") as info:
        kum.Court.from_dict(data)  # it loaded the file's table (card 0 at cost 9)
    assert "never names a file" in str(info.value) and len(str(info.value)) < 500
    assert str(path.resolve()) not in opened
    assert json.dumps(data) == before
    with pytest.raises(InvalidOptionError, match="option 'table'"):
        CourtOfTheThreeClans(table=str(path))  # the rules class takes the options a save holds
    with pytest.raises(InvalidOptionError, match="option 'table'"):
        CourtRules.from_options({**data["options"]})
    with pytest.raises(InvalidOptionError, match="option 'table'"):
        table_for(str(path))
    with pytest.raises(InvalidOptionError, match="option 'table'"):
        CourtRules.from_options({"table": path})  # a path object in the options is not a table either
    assert str(path.resolve()) not in opened


def test_item3_a_record_naming_a_file_as_its_table_is_refused_and_opens_nothing(tmp_path: Path, opened: list[str]) -> None:
    path = _mine(tmp_path)
    opened.clear()  # (writing it opened it)
    game = kum.Court(seed=5)
    game.apply(game.legal_actions()[0])
    record = game.record()
    assert '\\"table\\": \\"standard\\"' in record
    named = record.replace('\\"table\\": \\"standard\\"', '\\"table\\": ' + json.dumps(json.dumps(str(path)))[1:-1])
    with pytest.raises(InvalidSaveError, match="option 'table'"):
        kum.Court.from_record(named)
    with pytest.raises(InvalidSaveError, match="option 'table'"):
        kum.core.Session.from_record(named)  # the core's own loader, by the game's registered name
    assert str(path.resolve()) not in opened


def test_item3_saved_options_carry_a_table_as_its_csv_text(tmp_path: Path) -> None:
    path = _mine(tmp_path)
    rules = CourtRules(table=str(path))  # user code names the file: read once, here
    assert rules.options()["table"] == MINE_CSV
    game = kum.Court(seed=5, rules=rules)
    data, record = game.to_dict(), game.record()
    assert data["options"]["table"] == MINE_CSV and str(path) not in record
    path.unlink()  # the saves do not need the file
    for loaded in (kum.Court.from_dict(data), kum.Court.from_record(record)):
        assert loaded == game and loaded.table[0].cost == 9 and loaded.rules == rules
    same = CourtRules(table=CardTable.from_csv_text(MINE_CSV))
    assert same == rules and same.options() == rules.options() and hash(same) == hash(rules)


def test_item3_a_path_is_read_once_at_the_users_call(tmp_path: Path) -> None:
    path = _mine(tmp_path)
    rules = CourtRules(table=path)  # a pathlib.Path too
    path.write_text(STANDARD_CSV, encoding="utf-8")  # later edits do not reach these rules
    assert kum.Court(seed=1, rules=rules).table[0].cost == 9 and rules.with_(price="printed").options()["table"] == MINE_CSV
    assert CourtRules(table=path).options()["table"] == STANDARD_CSV  # a file's table travels as its text, even the standard one's
    assert CourtRules(table=table_for("standard")).options()["table"] == "standard" == CourtRules().options()["table"]
    assert CardTable.from_csv(path) == table_for("standard") and CardTable.from_csv(path).name == "mine"


def test_item3_table_text_past_the_cap_is_named(tmp_path: Path) -> None:
    huge = STANDARD_CSV + "#" * 1_000_000 + "\n"
    with pytest.raises(InvalidOptionError, match="1,000,000 characters") as info:
        CardTable.from_csv_text(huge)
    assert len(str(info.value)) < 300
    with pytest.raises(InvalidOptionError, match="1,000,000 characters"):
        CourtRules(table=huge)
    data = kum.Court(seed=5).to_dict()
    with pytest.raises(InvalidSaveError, match="1,000,000 characters"):
        kum.Court.from_dict({**data, "options": {**data["options"], "table": huge}})
    big = tmp_path / "big.csv"
    big.write_text(huge, encoding="utf-8")
    with pytest.raises(InvalidOptionError, match="1,000,000 bytes"):
        CardTable.from_csv(big)
    with pytest.raises(InvalidOptionError, match="1,000,000 bytes"):
        CourtRules(table=str(big))
    assert CardTable.from_csv_text(STANDARD_CSV + "\n" * (999_000 - len(STANDARD_CSV))) == table_for("standard")  # under the cap


def test_item3_card_table_from_csv_refuses_what_is_not_a_regular_file(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    out = _isolated(f"""
        for path in ({str(fifo)!r}, "/dev/zero", {str(tmp_path)!r}):
            for call in (lambda: CardTable.from_csv(path), lambda: CourtRules(table=path)):
                try:
                    call()
                except GameError as exc:
                    print(type(exc).__name__, exc)
        """)
    lines = out.splitlines()
    assert len(lines) == 6 and all(line.startswith("InvalidOptionError cannot read card table") for line in lines), out
    assert all("not a regular file" in line for line in lines), out


def test_item3_saves_naming_a_device_or_a_fifo_open_nothing(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    out = _isolated(f"""
        import json
        for path in ("/dev/zero", {str(fifo)!r}, "/dev/stdin"):
            d = kum.Court(seed=5).to_dict()
            d["options"]["table"] = path
            g = kum.Court(seed=5)
            g.apply(g.legal_actions()[0])
            record = g.record().replace('\\\\"table\\\\": \\\\"standard\\\\"', '\\\\"table\\\\": ' + json.dumps(json.dumps(path))[1:-1])
            assert path in record
            for call in (lambda: kum.Court.from_dict(d), lambda: kum.Court.from_record(record),
                         lambda: CourtRules.from_options(d["options"]), lambda: CourtOfTheThreeClans(table=path)):
                try:
                    call()
                except GameError as exc:
                    print(type(exc).__name__, "option 'table'" in str(exc))
        """)
    assert out.splitlines() == ["InvalidSaveError True", "InvalidSaveError True", "InvalidOptionError True", "InvalidOptionError True"] * 3


def test_item3_saves_naming_the_standard_table_or_holding_csv_text_still_load() -> None:
    game = kum.Court(seed=5)
    game.apply(game.legal_actions()[2])
    assert kum.Court.from_dict(game.to_dict()) == game and kum.Court.from_record(game.record()) == game
    old = kum.Court(seed=5, rules=CourtRules(table=CardTable.from_csv_text(MINE_CSV)))
    data = old.to_dict()
    assert data["options"]["table"] == MINE_CSV and kum.Court.from_dict(data).table[0].cost == 9
    assert CourtRules(table=STANDARD_CSV).options()["table"] == STANDARD_CSV and CourtRules(table="standard") == CourtRules()
    assert CourtRules(table=kum.Court(seed=1).table) == CourtRules()  # the shipped table itself travels by its name


# -- item 11: a table's text that escaped as bare Python errors ---------------------------------


@pytest.mark.parametrize("digit", ["\u00b2", "\u0663", "\U0001d7d1"])  # superscript two, Arabic-Indic three, bold three
@pytest.mark.parametrize("field", ["id", "cost", "vp", "strength"])
def test_item11_unicode_digits_in_a_table_are_named(digit: str, field: str) -> None:
    header, first, *rest = STANDARD_CSV.splitlines()
    row = dict(zip(header.split(","), first.split(","), strict=True))
    row[field] = digit
    text = "\n".join([header, ",".join(row.values()), *rest]) + "\n"
    with pytest.raises(InvalidOptionError, match=f"row 1, field '{field}'"):
        CardTable.from_csv_text(text)
    data = kum.Court(seed=5).to_dict()
    with pytest.raises(InvalidSaveError, match=f"row 1, field '{field}'"):
        kum.Court.from_dict({**data, "options": {**data["options"], "table": text}})


@pytest.mark.parametrize("text", [None, b"id,clan", 5, ["id,clan"], BIG, math.nan], ids=range(6))
def test_item11_a_table_that_is_not_text_is_named(text: Any) -> None:
    with pytest.raises(InvalidOptionError, match="card table") as info:
        CardTable.from_csv_text(text)
    assert len(str(info.value)) < 300
    with pytest.raises(InvalidOptionError, match="table"):
        CourtRules(table=text)
    with pytest.raises(InvalidOptionError, match="table"):
        table_for(text)




def test_a_table_header_of_many_fields_is_refused_before_the_rows_are_read() -> None:
    """Each row is padded out to the header's width: a saved game holding a 1 MB table whose
    header line is 980,000 commas over 1,000 rows took 28 s of CPU to load. A table has 6 columns;
    a few more (notes) are read and ignored, 64 at most."""
    header, *rows = STANDARD_CSV.splitlines()
    notes = "\n".join([header + ",note" * 58, *(row + ",x" * 58 for row in rows)]) + "\n"  # 64 columns: fine
    assert CardTable.from_csv_text(notes) == table_for("standard")
    wide = "\n".join([header + "," * 59, *rows]) + "\n"  # 65
    with pytest.raises(InvalidOptionError, match=r"header line has 65 fields.*at most 64") as info:
        CardTable.from_csv_text(wide)
    assert len(str(info.value)) < 300
    data = kum.Court(seed=5).to_dict()
    huge = "\n".join([header + "," * 400_000, *rows]) + "\n"
    with pytest.raises(InvalidSaveError, match="header line has 400,006 fields"):
        kum.Court.from_dict({**data, "options": {**data["options"], "table": huge}})
