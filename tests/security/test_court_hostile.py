"""Court of the Three Clans through the public API: hostile input. Every refusal is a
``kum_widget.core.GameError`` (a ValueError) whose message names what is wrong, and it
leaves the game exactly as it was (``to_dict``, ``state_id``, ``str``). The rules through
the same API are in ``test_court_api.py``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from _court_helpers import card, midgame, prince, refused, spaces
from _hostile_helpers import DEEP

import kum_widget as kum
from kum_widget import core
from kum_widget.core import GameError, IllegalMoveError, InvalidOptionError, InvalidSaveError
from kum_widget.core.examples import Bust
from kum_widget.games.court import CardTable, CourtOfTheThreeClans, CourtRules, table_for

# -- hostile input: refused with a GameError, the game unchanged --------------------------------------

HOSTILE: list[Any] = [None, -1, 2**200, -(2**200), math.nan, math.inf, 1.5, True, "x" * 100_000, "", "\x00", b"pass",
                      [], {}, (), DEEP, {"a": DEEP}, object(), Ellipsis, float, kum.Court]


@pytest.mark.parametrize("value", HOSTILE, ids=lambda v: type(v).__name__)
def test_hostile_constructor_values_are_named(value: Any) -> None:
    if value is not None:
        with pytest.raises(InvalidOptionError, match="seed"):
            kum.Court(seed=value)
        with pytest.raises(InvalidOptionError, match="rules"):
            kum.Court(rules=value)
    with pytest.raises(InvalidOptionError, match="player"):
        kum.Court(seed=1, player=value)
    for option in ("table", "first_refill", "price", "full_court", "empty_pass_pays", "fights_per_turn", "last_prince_ends",
                   "court_vp", "row_princes_subtract", "ranks", "start_cp"):
        if value is True and option in ("empty_pass_pays", "last_prince_ends", "court_vp", "row_princes_subtract"):
            continue
        with pytest.raises(InvalidOptionError, match=option) as info:
            kum.CourtRules(**{option: value})
        assert len(str(info.value)) < 400


def test_bad_rule_options_are_named() -> None:
    cases = {"wizards": 1, "price": "cheap", "full_court": "open", "first_refill": "x", "fights_per_turn": 5,
             "start_cp": 101, "ranks": (3, 2, 1), "table": "no/such/table.csv"}
    for option, value in cases.items():
        with pytest.raises(InvalidOptionError, match=r"wizards|price|full_court|first_refill|fights_per_turn|start_cp|ranks|table"):
            kum.CourtRules(**{option: value})
    for call in (lambda: kum.CourtRules().with_(wizards=1), lambda: kum.CourtRules.from_options("price=printed"),
                 lambda: kum.CourtRules.from_options({"ranks": "1,2"}), lambda: kum.CourtRules(ranks=(1, 2)),
                 lambda: kum.CourtRules(ranks=(1.0, 2, 3)), lambda: kum.CourtRules(ranks="25,40,60"),
                 lambda: kum.Court(seed=2**64), lambda: kum.Court(seed=1, player=" Ada"), lambda: kum.Court(seed=1, player="A\nB")):
        with pytest.raises(InvalidOptionError):
            call()


def test_hostile_calls_to_the_courts_own_api_leave_the_game_exactly_as_it_was() -> None:
    """fight_cost, the court's action ids past each kind's range, describe (this session's
    refusal names the event) and load. (Hostile values to the calls every session has are
    test_conformance.py's.)"""
    g = midgame()
    for value in HOSTILE:
        refused(g, lambda v=value: g.fight_cost(v), InvalidOptionError, "place must be 1..4")
        if not isinstance(value, str):
            refused(g, lambda v=value: g.describe(v), InvalidOptionError, "event")
    for aid in (-1, 32, 99, 132, 201, 214, 221, 10**9):
        refused(g, lambda a=aid: g.apply(a), IllegalMoveError, "action")
    for place in (0, 5):
        refused(g, lambda p=place: g.fight_cost(p), InvalidOptionError, "place")
    refused(g, lambda: g.load(core.Session(Bust(), 2, seed=1)), InvalidOptionError, "same game")
    refused(g, lambda: g.apply("x" * 501), IllegalMoveError, "too long")


def test_hostile_scenarios_are_refused_by_name() -> None:
    row = [card("sun", "poet"), None, None, None]
    cases: list[tuple[dict[str, Any], str]] = [
        ({"row": "abcd"}, "row is a list of 4"), ({"row": row[:3]}, "row is a list of 4"), ({"court": [None] * 9}, "court is a list of 8"),
        ({"court": None}, "court is a list"), ({"cp": -1}, "cp must be"), ({"cp": math.nan}, "cp must be"), ({"cp": 1.5}, "cp must be"),
        ({"cp": 10**7}, "cp must be"), ({"turn": 0}, "turn must be"), ({"fights": 2}, "fights must be"), ({"phase": "over"}, "phase"),
        ({"phase": DEEP}, "phase"), ({"pile": "abc"}, "pile is a list"), ({"pile": []}, "nowhere"), ({"discarded": 5}, "discarded is a list"),
        ({"wizards": []}, "unknown field 'wizards'"), ({"row": [DEEP, None, None, None]}, "row: .* is not a card"),
        ({"row": [999, None, None, None]}, "999 is not a card"), ({"row": ["#-1", None, None, None]}, "not a card"),
        ({"row": ["sun poet 99", None, None, None]}, "not a card"), ({"row": ["x" * 10**5, None, None, None]}, "not a card"),
        ({"court": [card("sun", "poet"), *[None] * 7]}, "in two places"), ({"court": [prince(0), *[None] * 7]}, "Daemon Prince"),
        ({"discarded": [prince(0)]}, "Daemon Prince"), ({"defeated": [card("moon", "poet")]}, "only Daemon Princes"),
        ({"aside": [prince(0)]}, "set aside only during setup"), ({"bought": [card("moon", "poet")]}, "bought"),
        ({"rules": "printed"}, "rules must be"),
        ({"player": ""}, "player"), ({"row": [prince(1), None, None, None], "phase": "setup"}, "setup row"),
        ({"row": [prince(0), prince(1), prince(2), prince(3)]}, "four Daemon Princes in the row at the start of a turn"),
    ]
    for changes, match in cases:
        args = {"row": row, "court": [None] * 8, **changes}
        with pytest.raises(InvalidOptionError, match=match) as info:
            kum.Court.from_scenario(**args)
        assert len(str(info.value)) < 400, changes


def test_four_princes_in_the_row_are_a_position_of_the_fight_phase() -> None:
    """A buy's refill can bring the fourth prince: the game ends only at the end check, after the fights."""
    g = kum.Court.from_scenario([prince(0), prince(1), prince(2), prince(3)], [None] * 8, phase="fight", cp=3)
    assert g.phase == "fight" and not g.is_over and g.action_id("skip") in g.legal_action_ids()
    g.apply("skip")
    assert g.is_over


def edited(rows: list[str], n: int, new: str) -> list[str]:
    return [*rows[:n], new, *rows[n + 1:]]


STANDARD_CSV = (Path(kum.court.__file__).parent / "data" / "court_cards.csv").read_text(encoding="utf-8")


@pytest.mark.parametrize(("edit", "match"), [
    (lambda rows: edited(rows, 1, rows[1].replace("sun", "wizard")), r"row 1, field 'clan'"),
    (lambda rows: edited(rows, 2, rows[2].replace("minister", "jester")), r"row 2, field 'role'"),
    (lambda rows: edited(rows, 1, "0,sun,minister,-3,1,0"), r"row 1, field 'cost'"),
    (lambda rows: edited(rows, 1, "0,sun,minister,3,1e9,0"), r"row 1, field 'vp'"),
    (lambda rows: edited(rows, 1, "0,sun,minister,99999,1,0"), r"row 1, field 'cost'"),
    (lambda rows: edited(rows, 1, "0,sun,minister,3,1,2"), r"row 1, field 'strength'"),
    (lambda rows: edited(rows, 1, "0,sun,minister,3,1"), r"row 1, field 'strength': missing"),
    (lambda rows: edited(rows, 1, "7,sun,minister,3,1,0"), r"row 1, field 'id': expected 0"),
    (lambda rows: [*rows[:-1], rows[-1].replace("fire", "sun")], r"row 54, field 'clan'"),
    (lambda rows: [*rows[:-1], rows[-1].rsplit(",", 1)[0] + ",0"], r"row 54, field 'strength'"),
    (lambda rows: edited(rows, 0, "id,clan,role,cost"), "missing column"),
    (lambda rows: [], "missing column"),
    (lambda rows: rows[:4], "at least 4 court cards"),
    (lambda rows: rows[:10], "at least one daemon prince"),
    (lambda rows: edited(rows, 1, '0,"sun,minister,3,1,0'), "card table"),
])
def test_bad_csv_rows_are_named(tmp_path: Path, edit: Any, match: str) -> None:
    path = tmp_path / "table.csv"
    path.write_text("\n".join(edit(STANDARD_CSV.splitlines())) + "\n", encoding="utf-8")
    with pytest.raises(InvalidOptionError, match=match):
        kum.CourtRules(table=str(path))
    with pytest.raises(InvalidOptionError, match=match):
        kum.CourtRules(table=path.read_text(encoding="utf-8") or "\n")  # the table as CSV text


def test_unreadable_tables_are_named(tmp_path: Path) -> None:
    (tmp_path / "binary.csv").write_bytes(b"\xff\xfe\x00garbage\x00")
    for path in (tmp_path / "none.csv", tmp_path, tmp_path / "binary.csv", "x" * 5000):
        with pytest.raises(InvalidOptionError, match="card table") as info:
            kum.CourtRules(table=str(path))
        assert len(str(info.value)) < 400


def test_hostile_records_are_refused_by_name() -> None:
    g = midgame()
    record = g.record()  # (that every cut of it reads or is refused is test_conformance.py's)
    scenario = kum.Court.from_scenario([card("sun", "poet"), prince(2), None, None], spaces(s1_1=card("sun", "general")), cp=4)
    scenario.apply("pass")
    srecord = scenario.record()
    start = srecord.split('[Start "', 1)[1].split('"]\n', 1)[0]
    bust = core.Session(Bust(), 2, seed=1)
    cases = [
        (record.replace('[Game "court"]', '[Game "kum"]'), "not 'court'"),
        (record.replace('[Game "court"]\n', ""), "not 'court'"),
        (bust.record(), "this save is of 'bust', not 'court'"),
        (record.replace('[Format "kum-widget-session 1"]', '[Format "kum-widget-session 9"]'), "tag Format"),
        (record.replace('[Seed "5"]', '[Seed "-5"]'), "tag Seed"), (record.replace('[Seed "5"]', '[Seed "1e3"]'), "tag Seed"),
        (record.replace('[Seed "5"]', '[Seed "' + "9" * 20 + '"]'), "seed must be"),
        (record.replace('[Player0 "Ruler"]', '[Player0 "Ruler"]\n[Player1 "Bo"]'), "solitaire"),
        (record.replace('[Player0 "Ruler"]\n', ""), "solitaire"),
        (record.replace('\\"price\\": \\"descending\\"', '\\"price\\": \\"cheap\\"'), "option 'price'"),
        (record.replace('{\\"court_vp', '{\\"wizard\\": 1, \\"court_vp'), "unknown option 'wizard'"),
        (record.replace('\\"table\\": \\"standard\\"', '\\"table\\": \\"/no/such.csv\\"'), "option 'table'.*never names a file"),
        (record.replace('[Options "{', '[Options "[' * 5000), "cannot read tag|tag Options"),
        (record.split("[Options")[0] + '[Options "' + "[" * 50_000 + "]" * 50_000 + '"]\n', "tag Options"),
        (record + "99. Ruler: fight place 9\n", "line"), (record + "99. Ruler: wizardry\n", "'wizardry'"),
        (record + "99. Ada: pass\n", "expected Ruler's turn"), (record + "garbage line\n", "cannot read"),
        (record + '[Broken "tag\n', "cannot read tag"),
        (srecord.replace(start, "{"), "tag Start: not valid JSON"), (srecord.replace(start, "[]"), "a position is a dict"),
        (srecord.replace(start, "null"), "a position is a dict"), (srecord.replace(start, "[" * 50_000), "tag Start"),
        (srecord.replace(start, '{\\"row\\": [1,2,3], \\"court\\": []}'), "row is a list of 4"),
        (srecord.replace(start, start.replace('\\"cp\\": 4', '\\"cp\\": NaN')), "cp must be"),
        (srecord.replace(start, start.replace('\\"cp\\": 4', '\\"cp\\": 1' + "0" * 30)), "not valid JSON"),
        (srecord.replace(start, start.replace('\\"phase\\": \\"buy\\"', '\\"phase\\": \\"over\\"')), "phase"),
        (srecord.replace(start, start.replace('\\"aside\\": []', '\\"wizard\\": []')), "unknown field 'wizard'"),
        (srecord.replace("pass", "fight place 2"), "fight place 2"),
    ]
    for text, match in cases:
        with pytest.raises(core.InvalidSaveError, match=match) as info:
            kum.Court.from_record(text)
        assert len(str(info.value)) < 500, match
    over = kum.Court(seed=2)
    while not over.is_over:
        over.apply(over.legal_actions()[-1])
    with pytest.raises(core.InvalidSaveError, match="already over"):
        kum.Court.from_record(over.record() + "99. Ruler: pass\n")


def test_hostile_dicts_are_refused_by_name() -> None:
    g = midgame()
    data = g.to_dict()
    for key in data:  # a dict with a field left out
        trimmed = {k: v for k, v in data.items() if k != key}
        try:
            assert kum.Court.from_dict(trimmed) is not None and key in ("redo", "options", "state")
        except core.InvalidSaveError as exc:
            assert str(exc)
    # (hostile values at every field are test_conformance.py's)
    bust = core.Session(Bust(), 2, seed=1)
    for bad, match in [({**data, "game": "kum"}, "not 'court'"), (bust.to_dict(), "'bust', not 'court'"),
                       ({**data, "players": ["A", "B"]}, "solitaire"), ({**data, "players": "Ruler"}, "solitaire"),
                       ({**data, "actions": [*data["actions"], "fight place 9"]}, r"actions\[10\]"),
                       ({**data, "actions": [*data["actions"], 7]}, "expected action text"),
                       ({**data, "redo": ["pass"] * 3}, "actions"), ({**data, "extra": 1}, "unknown field"),
                       ({**data, "options": {**data["options"], "ranks": "3,2,1"}}, "ranks"),
                       ({**data, "start": {"row": [None] * 4}}, "start position")]:
        with pytest.raises(core.InvalidSaveError, match=match):
            kum.Court.from_dict(bad)
    assert kum.Court.from_dict(data) == g


# -- inputs that escaped as bare Python errors (issue 32, item 11), and a sweep of hostile values ----

BIG = 10**5000
STANDARD_TABLE = table_for("standard").to_csv()


def test_item11_huge_ints_are_refused_before_they_are_formatted() -> None:
    for option in ("start_cp", "fights_per_turn"):
        for value in (BIG, -BIG):
            with pytest.raises(InvalidOptionError, match=f"'{option}'.*number of 5001 digits"):
                CourtRules(**{option: value})
            with pytest.raises(InvalidOptionError, match=option):
                CourtOfTheThreeClans(**{option: value})
            data = kum.Court(seed=5).to_dict()
            with pytest.raises(InvalidSaveError, match=option):
                kum.Court.from_dict({**data, "options": {**data["options"], option: value}})
    with pytest.raises(InvalidOptionError, match="ranks"):
        CourtRules(ranks=(BIG, BIG + 1, BIG + 2))
    with pytest.raises(InvalidOptionError, match="ranks"):
        CourtRules.from_options({"ranks": BIG})
    for where in range(4):
        with pytest.raises(InvalidOptionError, match="scenario: row: <a number of 5001 digits> is not a card"):
            kum.Court.from_scenario([BIG if i == where else None for i in range(4)], [None] * 8)
    for pile in ("pile", "discarded", "defeated", "captured", "aside", "bought"):
        with pytest.raises(InvalidOptionError, match=f"scenario: {pile}: <a negative number of 5001 digits>"):
            kum.Court.from_scenario(["sun poet 3", None, None, None], [None] * 8, **{pile: [-BIG]})
    with pytest.raises(InvalidOptionError, match="5001 digits"):
        table_for("standard").find(BIG)


def test_item11_from_options_refuses_keys_that_are_not_text() -> None:
    for options in ({1: 2}, {None: "x"}, {("table",): "standard"}, {b"price": "printed"}):
        with pytest.raises(InvalidOptionError, match="option's name is text"):
            CourtRules.from_options(options)
    with pytest.raises(InvalidOptionError, match="unknown rule option 'xxxx") as info:
        CourtRules.from_options({"x" * 20_000: 1})
    assert len(str(info.value)) < 300


@pytest.mark.parametrize("call, match", [
    (lambda: table_for("standard").find("#\u00b2"), "is not a card"),
    (lambda: table_for("standard").find("#\u0663"), "is not a card"),
    (lambda: CourtRules.from_options({"ranks": "--5,1,2"}), "ranks"),
    (lambda: CourtRules.from_options({"ranks": "\u00b2,5,6"}), "ranks"),
    (lambda: CourtRules.from_options({"ranks": "-\u00b2,5,6"}), "ranks"),
    (lambda: CourtRules.from_options({"ranks": ["1", "2", "3"]}), "ranks"),
    (lambda: CourtOfTheThreeClans(ranks="--5,1,2"), "ranks"),
    (lambda: CardTable(None), "list of Cards"),  # type: ignore[arg-type]
    (lambda: CardTable("x" * 20_000), "list of Cards"),  # type: ignore[arg-type]
    (lambda: CardTable([*table_for("standard").cards, "sun poet 3"]), "card 54"),  # type: ignore[list-item]
    (lambda: CardTable(list(table_for("standard").cards), None), "name"),  # type: ignore[arg-type]
    (lambda: CardTable(list(table_for("standard").cards), "x" * 20_000), "name"),
    (lambda: CardTable.from_csv_text(STANDARD_TABLE, name=[1]), "name"),  # type: ignore[arg-type]
    (lambda: CardTable([kum.court.Card(0, "sun", "poet", BIG, 1, 0)] * 5), "card 0"),
    (lambda: CardTable([kum.court.Card(i, "sun", "poet", 3, 1, 0) for i in range(4)] + [kum.court.Card(4, "fire", "wizard", 3, 1, 3)]),
     "card 4"),
    (lambda: CardTable([kum.court.Card(i, "sun", "poet", 3, 1, 0) for i in (1, 0, 2, 3)]), "card 0"),
    (lambda: CardTable.from_csv(None), "path"),  # type: ignore[arg-type]
    (lambda: CardTable.from_csv(b"/dev/zero"), "path"),  # type: ignore[arg-type]
    (lambda: CardTable.from_csv("x" * 20_000), "cannot read card table"),
    (lambda: CardTable.from_csv("a\x00b"), "cannot read card table"),
    (lambda: CourtRules(table=["standard"]), "table"),
    (lambda: CourtRules(table="x\x00y"), "table"),
])
def test_hostile_court_calls_are_named(call: Callable[[], Any], match: str) -> None:
    with pytest.raises(InvalidOptionError, match=match) as info:
        call()
    assert len(str(info.value)) < 500


SWEPT = [None, BIG, -BIG, 2**64, math.nan, math.inf, 1.5, True, "x" * 20_000, "\u00b2", "#\u00b2", "--5,1,2", "", [[[]]],
           [1] * 5, {}, {1: 2}, b"abc", object(), ("a",), "\n", "standard\n", -1, 10**30, [BIG] * 4]


OPTIONS = ["table", "first_refill", "price", "full_court", "empty_pass_pays", "fights_per_turn", "last_prince_ends", "court_vp",
           "row_princes_subtract", "ranks", "start_cp"]


def _named_or_fine(call: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
    try:
        call(*args, **kwargs)
    except GameError as exc:
        assert len(str(exc)) < 600, str(exc)[:200]


@pytest.mark.parametrize("value", SWEPT, ids=range(len(SWEPT)))
def test_the_court_sweep_lets_no_bare_error_escape(value: Any) -> None:
    std = table_for("standard")
    data = kum.Court(seed=5).to_dict()
    game = kum.Court(seed=1)
    before = game.to_dict()
    for option in OPTIONS:
        if option == "table" and isinstance(value, str) and "\n" not in value and value != "standard":
            _named_or_fine(CourtRules.from_options, {option: value})  # refused without a look at the disk
            continue
        _named_or_fine(CourtRules, **{option: value})
        _named_or_fine(CourtRules.from_options, {option: value})
        _named_or_fine(CourtOfTheThreeClans, **{option: value})
        _named_or_fine(CourtRules().with_, **{option: value})
        _named_or_fine(kum.Court.from_dict, {**data, "options": {**data["options"], option: value}})
    for call in (lambda: CourtRules.from_options(value), lambda: kum.Court(seed=value), lambda: kum.Court(rules=value),
                 lambda: kum.Court(player=value), lambda: CardTable.from_csv_text(value), lambda: CardTable(value),
                 lambda: CardTable.from_csv_text(STANDARD_TABLE, name=value), lambda: CardTable(list(std.cards), value),
                 lambda: std.find(value), lambda: std.find(999, where=value), lambda: std[value],
                 lambda: kum.Court.from_record(value), lambda: kum.Court.from_dict(value),
                 lambda: game.apply(value), lambda: game.fight_cost(value), lambda: game.describe(value),
                 lambda: CourtOfTheThreeClans().with_options(value) if isinstance(value, dict) else None,
                 lambda: kum.Court.from_scenario(value, [None] * 8),
                 lambda: kum.Court.from_scenario(["sun poet 3", None, None, None], value)):
        _named_or_fine(call)
    for place in range(4):
        _named_or_fine(kum.Court.from_scenario, [value if i == place else None for i in range(4)], [None] * 8)
    for key in ("cp", "pile", "phase", "turn", "fights", "discarded", "defeated", "captured", "aside", "bought"):
        _named_or_fine(kum.Court.from_scenario, ["sun poet 3", None, None, None], [None] * 8, **{key: value})
        _named_or_fine(kum.Court.from_scenario, ["sun poet 3", None, None, None], [None] * 8, **{key: [value]})
    for key in data:
        _named_or_fine(kum.Court.from_dict, {**data, key: value})
    assert game.to_dict() == before


@pytest.mark.parametrize("game", [5, "court", None.__class__, str, object(), [], {}, kum.Court, Bust, Bust()], ids=range(10))
def test_from_dict_and_from_record_name_a_game_that_is_not_the_courts_rules(game: Any) -> None:
    """``game=`` is the rules (the class or an instance); anything else escaped as an AttributeError
    from the core's loader (``type object 'int' has no attribute 'name'``)."""
    played = kum.Court(seed=5)
    played.apply(played.legal_actions()[0])
    data, record = played.to_dict(), played.record()
    for call in (lambda: kum.Court.from_dict(data, game=game), lambda: kum.Court.from_record(record, game=game)):
        with pytest.raises(InvalidOptionError, match=r"game: .*CourtOfTheThreeClans") as info:
            call()
        assert len(str(info.value)) < 300
    for rules in (None, CourtOfTheThreeClans, CourtOfTheThreeClans(price="printed")):
        assert kum.Court.from_dict(data, game=rules) == played == kum.Court.from_record(record, game=rules)
