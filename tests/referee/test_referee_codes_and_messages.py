"""A referee's codes (128 random bits, bound to a table and seat, checked against every code held,
written to a file only the teacher can read) and what it reads from a client (a size cap, one
JSON object of a known kind, each field of its type): anything else refused by name."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from kum_widget.core.errors import GameError
from kum_widget.referee import TEACHER, Codes, Refused, Seat
from kum_widget.referee.codes import CODE_CHARS, write_private
from kum_widget.referee.messages import KINDS, MAX_MESSAGE_BYTES, Message, parse

# -- codes ---------------------------------------------------------------------------------------


def test_each_code_is_128_random_bits_bound_to_its_table_and_seat() -> None:
    codes = Codes()
    given = {(t, s): codes.new(t, s) for t in ("table 1", "table 2") for s in range(4)}
    teacher = codes.new(None, TEACHER)
    assert len(set(given.values()) | {teacher}) == 9
    for (table, seat), code in given.items():
        assert len(code) == CODE_CHARS and int(code, 16) >= 0
        assert codes.check(code) == Seat(table, seat)
    assert codes.check(teacher) == Seat(None, TEACHER)
    assert codes.of_table("table 1") == {s: [given["table 1", s]] for s in range(4)} and codes.teacher() == [teacher]
    assert teacher not in repr(codes) and repr(codes) == "Codes(9 codes)"


@pytest.mark.parametrize("guess", ["", "0" * 32, "0" * 31, "0" * 33, "é" * 32, None, 12, b"0" * 32, ["x"], "G" * 32])
def test_anything_but_a_code_given_is_no_seat(guess: Any) -> None:
    codes = Codes()
    codes.new("table 1", 0)
    assert codes.check(guess) is None


def test_a_code_one_character_off_is_no_seat_and_a_revoked_code_is_none() -> None:
    codes = Codes()
    code = codes.new("table 1", 2)
    near = code[:-1] + ("0" if code[-1] != "0" else "1")
    assert codes.check(near) is None and codes.check(code.upper()) is None
    codes.revoke(code)
    assert codes.check(code) is None and len(codes) == 0
    with pytest.raises(GameError, match="a code is text"):
        codes.revoke(None)  # type: ignore[arg-type]


def test_the_codes_file_is_readable_by_its_owner_alone_from_the_start(tmp_path: Path) -> None:
    path = write_private(tmp_path / "codes.txt", "table 1 seat 0: abc\n")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and path.read_text() == "table 1 seat 0: abc\n"
    path.chmod(0o644)
    write_private(path, "again\n")  # written anew: 0600 again, whatever the old file's mode
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and path.read_text() == "again\n"
    assert [p.name for p in tmp_path.iterdir()] == ["codes.txt"]  # no temporary file left
    with pytest.raises(GameError, match="is a folder"):
        write_private(tmp_path, "x")
    old = os.umask(0)
    try:  # a permissive umask does not loosen it
        assert stat.S_IMODE(write_private(tmp_path / "other.txt", "x").stat().st_mode) == 0o600
    finally:
        os.umask(old)


# -- messages ------------------------------------------------------------------------------------


def test_each_kind_reads_with_its_fields() -> None:
    assert parse('{"kind": "ping"}') == Message("ping", {})
    assert parse(b'{"kind": "frame", "id": 4}') == Message("frame", {"id": 4})
    hello = parse(json.dumps({"kind": "hello", "code": "a" * 32, "game": "undercut", "version": "0.1.0", "rules": {"x": 1}}))
    assert hello.fields == {"code": "a" * 32, "game": "undercut", "version": "0.1.0", "rules": {"x": 1}}
    assert set(KINDS) == {"hello", "act", "frame", "ping", "record", "undo", "back", "bot", "add_table", "hand_over"}


@pytest.mark.parametrize(("raw", "says"), [
    ("", "one JSON object"),
    ("[1, 2]", "one JSON object, got list"),
    ("null", "one JSON object, got NoneType"),
    ('{"kind": "act", "action_id": NaN, "state_id": 1}', "one JSON object: NaN is not a JSON number"),
    ('{"kind": "act", "action_id": Infinity, "state_id": 1}', "Infinity is not a JSON number"),
    ("{" * 100_00, "one JSON object|nests too deep"),
    ("[" * 5000 + "]" * 5000, "nests too deep|one JSON object"),
    (b"\xff\xfe", "one JSON object"),
    ('{"kind": "shutdown"}', "kind is one of hello, act, frame, ping, record, undo, back, bot, add_table, hand_over, got 'shutdown'"),
    ('{"kind": 3}', "kind is one of"),
    ('{"state_id": 1}', "kind is one of"),
    ('{"kind": "act", "state_id": 1}', "act: action_id is missing"),
    ('{"kind": "act", "action_id": 1, "state_id": 1, "seat": 0}', r"act: no field seat \(it takes action_id, state_id, id\)"),
    ('{"kind": "act", "action_id": -1, "state_id": 1}', "action_id is a whole number, got -1"),
    ('{"kind": "act", "action_id": 1.5, "state_id": 1}', "action_id is a whole number, got 1.5"),
    ('{"kind": "act", "action_id": 9007199254740992, "state_id": 1}', "action_id is a whole number"),
    ('{"kind": "act", "action_id": "3", "state_id": 1}', "action_id is a whole number, got '3'"),
    ('{"kind": "act", "action_id": 3, "state_id": false}', "state_id is a whole number, got False"),
    ('{"kind": "hello", "code": "", "game": "g", "version": "1"}', "code is text of 1 to 80 characters"),
    ('{"kind": "hello", "code": 5, "game": "g", "version": "1"}', "code is text of 1 to 80 characters"),
    ('{"kind": "hello", "code": "c", "game": "g", "version": "1", "rules": [1]}', "rules is an object, got list"),
    ('{"kind": "hello", "code": "c", "game": "g", "version": "1", "rules": {"a": "' + "x" * 5000 + '"}}', "rules is at most 4096"),
    ('{"kind": "ping", "id": {"a": 1}}', "id is a short text or a whole number"),
    ('{"kind": "ping", "id": "' + "x" * 81 + '"}', "id is a short text or a whole number"),
])
def test_bad_input_is_refused_by_name(raw: str | bytes, says: str) -> None:
    with pytest.raises(Refused, match=says) as refused:
        parse(raw)
    assert refused.value.resync is False and len(str(refused.value)) < 300


def test_a_message_over_the_cap_is_refused_before_it_is_read() -> None:
    raw = '{"kind": "ping", "id": "' + "x" * MAX_MESSAGE_BYTES + '"}'
    with pytest.raises(Refused, match=f"at most {MAX_MESSAGE_BYTES} bytes, this one has {len(raw)}"):
        parse(raw)
    with pytest.raises(Refused, match="this one has"):
        parse("é" * (MAX_MESSAGE_BYTES // 2 + 1))  # counted in bytes, not characters
    with pytest.raises(Refused, match="a message is text, got int"):
        parse(5)  # type: ignore[arg-type]


def test_a_refusal_repeats_no_long_value_sent() -> None:
    secret = "s3cr3t" * 20
    with pytest.raises(Refused) as refused:
        parse(json.dumps({"kind": "act", "action_id": secret, "state_id": 1}))
    assert secret not in str(refused.value)
