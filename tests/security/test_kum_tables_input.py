"""Bad deck tables and rule options for Kings Under Mountains get a clear error: a deck's CSV
with a column missing or a bad row (named by row and field), a file that is not one, cards that
are not cards; a rule option with a bad choice, value or name, or a hostile value. Every refusal
is a ``kum.KumError`` naming what is wrong (tests/_kum_helpers.py, ``expect_error``)."""

from __future__ import annotations

from typing import Any

import pytest
from _kum_helpers import (
    FUZZ,
    HOSTILE,
    brief_kum_error,
    expect_error,
    json_values,
    only_kum_errors,
)
from hypothesis import given
from hypothesis import strategies as st

import kum_widget as kum
from kum_widget.games.kum.ruleset import _CHOICES

# -- deck tables -----------------------------------------------------------------------------------

STANDARD_CSV = kum.Deck.standard().to_csv_text()


def csv_with(row: int, field: str, value: str) -> str:
    """The standard CSV with data ``row`` (1-based, header excluded) ``field`` replaced."""
    lines = STANDARD_CSV.splitlines()
    header = lines[0].split(",")
    cells = lines[row].split(",")
    cells[header.index(field)] = value
    lines[row] = ",".join(cells)
    return "\n".join(lines) + "\n"


def test_standard_csv_round_trips() -> None:
    assert kum.Deck.from_csv_text(STANDARD_CSV) == kum.Deck.standard()


@pytest.mark.parametrize("column", ["race", "value", "defense", "size", "points", "overseer"])
def test_deck_missing_column(column: str) -> None:
    lines = [line.split(",") for line in STANDARD_CSV.splitlines()]
    i = lines[0].index(column)
    text = "\n".join(",".join(cells[:i] + cells[i + 1:]) for cells in lines) + "\n"
    if column == "overseer":
        # The overseer column may be absent only if it is optional; either way no crash.
        only_kum_errors(lambda: kum.Deck.from_csv_text(text))
        return
    expect_error(lambda: kum.Deck.from_csv_text(text), kum.InvalidDeckError, "missing column", column)


@pytest.mark.parametrize(("row", "field", "value", "words"), [
    (3, "race", "elf", ["row 3", "race", "elf"]),
    (3, "race", "", ["row 3", "race"]),
    (5, "value", "seven", ["row 5", "value", "seven"]),
    (5, "value", "3.5", ["row 5", "value"]),
    (2, "value", "12", ["row 2", "value", "12"]),
    (2, "value", "-1", ["row 2", "value"]),
    (7, "defense", "0", ["row 7", "defense"]),
    (7, "defense", "x", ["row 7", "defense"]),
    (8, "size", "10", ["row 8", "size"]),
    (9, "points", "many", ["row 9", "points"]),
    (10, "overseer", "maybe", ["row 10", "overseer"]),
    (11, "id", "99", ["row 11", "id"]),
    (11, "id", "x", ["row 11", "id"]),
])
def test_deck_bad_row_names_row_and_field(row: int, field: str, value: str, words: list[str]) -> None:
    text = csv_with(row, field, value)
    expect_error(lambda: kum.Deck.from_csv_text(text), kum.InvalidDeckError, *words)


def test_deck_other_bad_tables() -> None:
    expect_error(lambda: kum.Deck.from_csv_text(""), kum.InvalidDeckError, "missing column")
    expect_error(lambda: kum.Deck.from_csv_text("hello\n"), kum.InvalidDeckError, "missing column")
    header = STANDARD_CSV.splitlines()[0]
    expect_error(lambda: kum.Deck.from_csv_text(header + "\n"), kum.InvalidDeckError, "cards")
    one = "\n".join(STANDARD_CSV.splitlines()[:2]) + "\n"
    expect_error(lambda: kum.Deck.from_csv_text(one), kum.InvalidDeckError, "cards")
    text = STANDARD_CSV.splitlines()[0] + "\n" + STANDARD_CSV.splitlines()[1] + ",surplus\n"
    expect_error(lambda: kum.Deck.from_csv_text(text), kum.InvalidDeckError, "row 1", "fields")
    short = STANDARD_CSV.splitlines()[0] + "\n0,orc,1\n"
    expect_error(lambda: kum.Deck.from_csv_text(short), kum.InvalidDeckError, "row 1")


def test_deck_from_missing_file(tmp_path: Any) -> None:
    expect_error(lambda: kum.Deck.from_csv(tmp_path / "nope.csv"), kum.InvalidDeckError, "nope.csv")
    binary = tmp_path / "bin.csv"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    expect_error(lambda: kum.Deck.from_csv(binary), kum.InvalidDeckError)
    bad = tmp_path / "bad.csv"
    bad.write_text(csv_with(4, "race", "elf"), encoding="utf-8")
    expect_error(lambda: kum.Deck.from_csv(bad), kum.InvalidDeckError, "row 4", "race")


@pytest.mark.parametrize("bad", [None, 5, b"id,race", ["id,race"], {"race": "orc"}], ids=repr)
def test_deck_csv_text_wrong_type(bad: Any) -> None:
    expect_error(lambda: kum.Deck.from_csv_text(bad), kum.InvalidDeckError)


def test_deck_csv_with_carriage_return_in_a_field() -> None:
    """A stray '\\r' inside a field (e.g. a file saved on an old Mac) must be a KumError."""
    text = csv_with(3, "race", "or\rc")
    expect_error(lambda: kum.Deck.from_csv_text(text), kum.InvalidDeckError, "row")


def test_deck_constructor_bad_cards() -> None:
    expect_error(lambda: kum.Deck([]), kum.InvalidDeckError, "cards")
    expect_error(lambda: kum.Deck(["goblin 7"]), kum.InvalidDeckError, "row 1")  # type: ignore[list-item]
    c0 = kum.Card(0, kum.Race.ORC, 1, kum.MineFace(1, 1, 1))
    c5 = kum.Card(5, kum.Race.ORC, 1, kum.MineFace(1, 1, 1))
    expect_error(lambda: kum.Deck([c0, c5]), kum.InvalidDeckError, "row 2", "id")
    c1 = kum.Card(1, kum.Race.ORC, 12, kum.MineFace(1, 1, 1))
    expect_error(lambda: kum.Deck([c0, c1]), kum.InvalidDeckError, "row 2", "value")


def test_deck_csv_with_a_byte_order_mark_reads(tmp_path: Any) -> None:
    """Spreadsheets save UTF-8 CSV with a byte-order mark: the header's first column must
    still be found (it was read as '\\ufeffid', so the id column went unchecked)."""
    assert kum.Deck.from_csv_text("\ufeff" + STANDARD_CSV) == kum.Deck.standard()
    expect_error(lambda: kum.Deck.from_csv_text("\ufeff" + csv_with(11, "id", "99")), kum.InvalidDeckError, "row 11", "id")
    no_id = "\n".join(line.split(",", 1)[1] for line in STANDARD_CSV.splitlines()) + "\n"
    assert kum.Deck.from_csv_text("\ufeff" + no_id) == kum.Deck.standard()
    path = tmp_path / "excel.csv"
    path.write_bytes(b"\xef\xbb\xbf" + no_id.encode("utf-8"))
    assert kum.Deck.from_csv(path) == kum.Deck.standard()


@pytest.mark.parametrize("bad", [None, 5, 3.5, b"deck.csv", ["deck.csv"], {"path": "x"}, object(), "deck\x00.csv", "x" * 5000],
                         ids=["None", "int", "float", "bytes", "list", "dict", "object", "nul", "long"])
def test_deck_from_csv_bad_paths(bad: Any) -> None:
    expect_error(lambda: kum.Deck.from_csv(bad), kum.InvalidDeckError)


# -- rules -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("option", sorted(_CHOICES))
def test_rules_bad_choice(option: str) -> None:
    for bad in ("sometimes", "", None, 1, ["immediate"], "IMMEDIATE"):
        expect_error(lambda bad=bad: kum.Rules(**{option: bad}), kum.InvalidRulesError, option)


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"hand_size": 0}, ["hand_size"]),
    ({"hand_size": 21}, ["hand_size"]),
    ({"hand_size": "6"}, ["hand_size"]),
    ({"hand_size": 6.0}, ["hand_size"]),
    ({"hand_size": True}, ["hand_size"]),
    ({"mines": 0}, ["mines"]),
    ({"camp_cards": -1}, ["camp_cards"]),
    ({"first_player": 4}, ["first_player"]),
    ({"first_player": -1}, ["first_player"]),
    ({"first_player": "first"}, ["first_player"]),
    ({"first_player": 1.5}, ["first_player"]),
    ({"deck": "standard"}, ["deck"]),
    ({"deck": None}, ["deck"]),
])
def test_rules_bad_values(kwargs: dict[str, Any], words: list[str]) -> None:
    expect_error(lambda: kum.Rules(**kwargs), kum.InvalidRulesError, *words)


def test_rules_unknown_option_names() -> None:
    expect_error(lambda: kum.Rules().with_(bogus=1), kum.InvalidRulesError, "bogus")
    expect_error(lambda: kum.Rules().with_(refill="x"), kum.InvalidRulesError, "refill")
    expect_error(lambda: kum.Rules.from_dict({"bogus": 1}), kum.InvalidRulesError, "bogus")
    expect_error(lambda: kum.Rules.from_dict("x"), kum.InvalidRulesError, "mapping")  # type: ignore[arg-type]
    expect_error(lambda: kum.Rules.from_dict({"deck": 5}), kum.InvalidRulesError, "deck")
    expect_error(lambda: kum.Rules.from_dict({"deck": "not,a,deck\n1,2,3\n"}), kum.InvalidRulesError, "deck")


def test_rules_constructor_unknown_option_is_a_rules_error() -> None:
    """errors.py: InvalidRulesError is 'a rule option with an unknown name'."""
    expect_error(lambda: kum.Rules(bogus=1), kum.InvalidRulesError, "bogus")  # type: ignore[call-arg]


def test_rules_hostile_values() -> None:
    for option in ("hand_size", "mines", "camp_cards", "refill", "end", "stuck", "ties", "first_player", "visibility", "deck"):
        for name, value in HOSTILE.items():
            brief_kum_error(f"Rules({option}={name})", lambda kw={option: value}: kum.Rules(**kw))
            brief_kum_error(f"Rules.from_dict({option}={name})", lambda kw={option: value}: kum.Rules.from_dict(kw))


# -- fuzzing ---------------------------------------------------------------------------------------

@FUZZ
@given(text=st.text(max_size=200))
def test_fuzz_deck_csv_arbitrary_text(text: str) -> None:
    only_kum_errors(lambda: kum.Deck.from_csv_text(text))


@FUZZ
@given(value=json_values)
def test_fuzz_deck_csv_json_values(value: Any) -> None:
    only_kum_errors(lambda: kum.Deck.from_csv_text(value))


_CSV_LINES = STANDARD_CSV.splitlines()


@FUZZ
@given(row=st.integers(0, len(_CSV_LINES) - 1), col=st.integers(0, 6), text=st.text(max_size=12))
def test_fuzz_deck_csv_mutated_cell(row: int, col: int, text: str) -> None:
    lines = list(_CSV_LINES)
    cells = lines[row].split(",")
    cells[col] = text
    lines[row] = ",".join(cells)
    only_kum_errors(lambda: kum.Deck.from_csv_text("\n".join(lines) + "\n"))
