"""Bad saved games, records and scenarios for Kings Under Mountains get a clear error: a dict
from ``to_dict`` with a field missing, wrong or tampered with, a record with a bad tag, move or
header, a scenario's layout that could not go on or loses a card, and hostile values at every
field of a save; a layout that is accepted keeps every card and can go on. Every refusal is a
``kum.KumError`` naming what is wrong (tests/_kum_helpers.py, ``expect_error``)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from _hostile_helpers import paths
from _kum_helpers import (
    ALL_RULE_COMBOS,
    FUZZ,
    HOSTILE,
    action_like,
    brief_kum_error,
    check_conservation,
    expect_error,
    finished,
    fresh,
    only_kum_errors,
    play_out,
)
from hypothesis import given
from hypothesis import strategies as st

import kum_widget as kum

# -- from_dict -------------------------------------------------------------------------------------

def saved(turns: int = 4) -> dict[str, Any]:
    return json.loads(json.dumps(fresh(turns=turns).to_dict()))


def edited(d: dict[str, Any], path: tuple[str, ...], value: Any) -> dict[str, Any]:
    """A copy of saved game ``d`` with ``value`` at ``path``; a start position given to a
    dealt game makes it one built by hand (no seed, no setup)."""
    d = json.loads(json.dumps(d))
    node = d
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    if path[0] == "start":
        d["seed"] = None
        d.pop("setup", None)
    return d


@pytest.mark.parametrize("bad", [None, [], "x", 5, 3.5, True, b"{}"], ids=repr)
def test_from_dict_not_a_dict(bad: Any) -> None:
    expect_error(lambda: kum.Game.from_dict(bad), kum.InvalidStateError)


@pytest.mark.parametrize(("field", "words"), [("players", ["players"]), ("actions", ["actions"]), ("game", ["game"]),
                                            ("format", ["format"]), ("version", ["version"]), ("seed", ["seed"])])
def test_from_dict_missing_field(field: str, words: list[str]) -> None:
    d = saved()
    del d[field]
    expect_error(lambda: kum.Game.from_dict(d), kum.InvalidStateError, *words)


@pytest.mark.parametrize(("path", "value", "words"), [
    (("format",), "chess", ["format"]),
    (("format",), None, ["format"]),
    (("version",), 2, ["version"]),
    (("version",), "1", ["version"]),
    (("version",), None, ["version"]),
    (("game",), "bust", ["game", "bust"]),
    (("players",), 1, ["players"]),
    (("players",), ["Ada"], ["players"]),
    (("players",), ["Ada", "Ada"], ["players"]),
    (("players",), "Ada", ["players"]),
    (("setup", "races"), ["orc"], ["races"]),
    (("setup", "races"), ["elf", "orc"], ["elf"]),
    (("setup", "races"), "orc dwarf", ["races"]),
    (("setup", "races"), 5, ["races"]),
    (("setup", "first_player"), 5, ["first_player"]),
    (("setup", "first_player"), "0", ["first_player"]),
    (("setup", "bogus"), 1, ["setup", "bogus"]),
    (("setup",), 5, ["setup"]),
    (("options",), {"refill": "x"}, ["refill"]),
    (("options",), {"bogus": 1}, ["bogus"]),
    (("options",), "x", ["options"]),
    (("options",), None, ["options"]),
    (("options",), {"deck": 5}, ["deck"]),
    (("options",), {"deck": "id,race\n0,orc\n"}, ["deck"]),
    (("seed",), -1, ["seed"]),
    (("seed",), "11", ["seed"]),
    (("seed",), None, ["seed"]),
    (("seed",), 1.5, ["seed"]),
    (("actions",), "draw deck", ["actions"]),
    (("actions",), {"0": "draw deck"}, ["actions"]),
    (("actions",), [5], ["actions[0]"]),
    (("actions",), [None], ["actions[0]"]),
    (("redo",), "x", ["redo"]),
    (("redo",), ["play nonsense"], ["actions"]),
    (("start",), 5, ["start position"]),
    (("start",), {"hands": "x"}, ["start position"]),
], ids=lambda v: ".".join(v) if isinstance(v, tuple) else repr(v)[:30])
def test_from_dict_bad_field(path: tuple[str, ...], value: Any, words: list[str]) -> None:
    d = edited(saved(), path, value)
    expect_error(lambda: kum.Game.from_dict(d), kum.InvalidStateError, *words)


def test_from_dict_bad_action_names_its_index() -> None:
    d = saved(turns=4)
    good = d["actions"][3]
    d["actions"][3] = "play goblin 99 on mine 1"
    expect_error(lambda: kum.Game.from_dict(d), kum.InvalidStateError, "actions[3]", "goblin 99")
    d["actions"][3] = "draw deck" if good.startswith("play") else good.replace("draw", "play", 1)
    e = expect_error(lambda: kum.Game.from_dict(d), kum.InvalidStateError, "actions[3]")
    assert "draw deck" in str(e) or "play" in str(e)
    d["actions"][3] = good
    d["actions"].insert(0, "draw deck")  # Ada must play first
    expect_error(lambda: kum.Game.from_dict(d), kum.InvalidStateError, "actions[0]", "must play")


def test_from_dict_tampered_state() -> None:
    d = saved(turns=4)
    d2 = json.loads(json.dumps(d))
    d2["state"]["hands"][0][0], d2["state"]["hands"][1][0] = d2["state"]["hands"][1][0], d2["state"]["hands"][0][0]
    expect_error(lambda: kum.Game.from_dict(d2), kum.InvalidStateError, "state")
    d3 = json.loads(json.dumps(d))
    d3["state"]["deck"] = d3["state"]["deck"][::-1]
    expect_error(lambda: kum.Game.from_dict(d3), kum.InvalidStateError, "state")
    d4 = json.loads(json.dumps(d))
    d4["state"]["turn"] += 1
    expect_error(lambda: kum.Game.from_dict(d4), kum.InvalidStateError, "state")
    d5 = json.loads(json.dumps(d))
    d5["seed"] += 1  # a different deal: the stored actions or the state no longer fit
    expect_error(lambda: kum.Game.from_dict(d5), kum.InvalidStateError)
    assert kum.Game.from_dict(d) == kum.Game.from_dict(json.loads(json.dumps(d)))


def test_from_dict_bad_scenario_layout() -> None:
    game = kum.Game.from_scenario(["Ada", "Bo"], races=["orc", "dwarf"], hands=[["goblin 7"], None])
    d = json.loads(json.dumps(game.to_dict()))
    assert d["seed"] is None and isinstance(d["start"], dict)
    bad = json.loads(json.dumps(d))
    del bad["start"]["deck"]
    expect_error(lambda: kum.Game.from_dict(bad), kum.InvalidStateError, "deck")
    bad = json.loads(json.dumps(d))
    bad["start"]["hands"][0].append(bad["start"]["hands"][1][0])  # a card in two hands
    expect_error(lambda: kum.Game.from_dict(bad), kum.InvalidStateError, "already placed")
    bad = json.loads(json.dumps(d))
    bad["start"]["bogus"] = 1
    expect_error(lambda: kum.Game.from_dict(bad), kum.InvalidStateError, "bogus")
    bad = json.loads(json.dumps(d))
    bad["start"]["current"] = 7
    expect_error(lambda: kum.Game.from_dict(bad), kum.InvalidStateError, "current")


# -- positions a layout may describe: one that can go on, with every card in one place -------------

_EVERY_CARD = {"hands": [list(range(38)), list(range(38, 76))], "mines": [76, 77, 78, 79]}  # the deck empty


def strict_dict(rules: kum.Rules, layout: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """A saved scenario game (its layout strict: every field present, every card placed)
    with ``changes`` made to its start layout, as a file edited by hand would be."""
    game = kum.Game.from_scenario(["Ada", "Bo"], races=["orc", "dwarf"], rules=rules, **layout)
    d = json.loads(json.dumps(game.to_dict()))
    d["start"].update(changes)
    del d["state"]
    return d


def layout_record(d: dict[str, Any]) -> str:
    """The record of saved game ``d``, with its (edited) start position in the Start tag."""
    rules = kum.KingsUnderMountains(**d["options"]).kum_rules
    lines = kum.Game.from_scenario(["Ada", "Bo"], races=["orc", "dwarf"], rules=rules).record().splitlines()
    n = next(i for i, line in enumerate(lines) if line.startswith("[Start "))
    text = json.dumps(d["start"], separators=(",", ":")).replace("\\", "\\\\").replace('"', '\\"')
    lines[n] = f'[Start "{text}"]'
    return "\n".join(lines) + "\n"


def test_dead_position_is_refused() -> None:
    """Not over, and no legal action: under end="finish_round" the deck may be empty, so a
    draw phase with an empty Camp (or a stuck draw, which must come from the deck) has
    nothing to draw from. Bots and the board could not go on: refuse it when loaded."""
    rules = kum.Rules(end="finish_round")
    one_in_camp = {"hands": [list(range(1, 38)), list(range(38, 76))], "camp": {"orc": [0]}}
    for changes in ({"phase": "draw"}, {"phase": "draw", "current": 1},
                    {**one_in_camp, "phase": "draw", "deck_only": True}):
        layout = {**_EVERY_CARD, **changes}
        seat = layout.get("current", 0)
        expect_error(lambda layout=layout: kum.Game.from_scenario(["Ada", "Bo"], races=["orc", "dwarf"], rules=rules, **layout),
                     kum.InvalidStateError, "no legal action", f"seat {seat}", ["Ada", "Bo"][seat], "draw")
    d = strict_dict(rules, _EVERY_CARD, phase="draw")
    expect_error(lambda: kum.Game.from_dict(d), kum.InvalidStateError, "no legal action", "seat 0", "draw")  # (read before its names)
    expect_error(lambda: kum.Game.from_record(layout_record(d)), kum.InvalidRecordError, "no legal action", "seat 0")
    # With a card in the Camp the same draw can go on: it is accepted, and plays to the end.
    game = kum.Game.from_scenario(["Ada", "Bo"], races=["orc", "dwarf"], rules=rules,
                                  **{**_EVERY_CARD, **one_in_camp, "phase": "draw"})
    assert [game.action_text(a) for a in game.legal_action_ids()] == ["draw camp orc"]
    play_out(game, random.Random(1), each=check_conservation)


def test_scenario_camp_with_two_names_for_one_pile_is_refused() -> None:
    """'orc' and 'orcs' both name the orc pile: one must not silently replace the other
    (that lost the first pile's cards: 79 cards left)."""
    for first, second in (("orc", "orcs"), ("goblin", "G"), ("dwarf", "Dwarves")):
        race = kum.Race.parse(first).value
        camp = {first: [f"{race} 1"], second: [f"{race} 2"]}
        expect_error(lambda camp=camp: kum.Game.from_scenario(["Ada", "Bo"], camp=camp),
                     kum.InvalidStateError, "camp", repr(first), repr(second))
    # strict from_dict: the orc pile split over two names for it
    d = strict_dict(kum.Rules(), {"camp": {"orc": ["orc 1", "orc 2"]}})
    d["start"]["camp"]["orcs"] = [d["start"]["camp"]["orc"].pop()]
    expect_error(lambda: kum.Game.from_dict(d), kum.InvalidStateError, "camp", "'orc'", "'orcs'")


@pytest.mark.parametrize(("rules", "layout", "words"), [
    # the same slot twice: refilled twice, the first new mine would be lost
    (kum.Rules(refill="end_of_turn"), {"pending": [0, 0]}, ["pending", "twice"]),
    (kum.Rules(refill="end_of_turn"), {"pending": [1]}, ["pending", "mine 2"]),
    # slots wait for a refill only under refill="end_of_turn", in the draw after the claim
    (kum.Rules(), {"pending": [0]}, ["pending", "end_of_turn"]),
    (kum.Rules(refill="end_of_turn"), {"pending": [0], "phase": "play"}, ["pending", "draw"]),
    (kum.Rules(refill="end_of_turn"), {"pending": [0], "phase": None}, ["pending", "draw"]),
    (kum.Rules(refill="end_of_turn"), {"pending": [0], "deck_only": True}, ["pending", "stuck"]),
    (kum.Rules(refill="end_of_turn"), {"pending": "0"}, ["pending"]),
    (kum.Rules(refill="end_of_turn"), {"pending": [True]}, ["pending"]),
    (kum.Rules(refill="end_of_turn"), {"pending": [4]}, ["pending"]),
    (kum.Rules(refill="end_of_turn"), {"pending": [-1]}, ["pending"]),
    # an empty slot that waits for no refill while the deck has cards, under either end rule
    (kum.Rules(refill="end_of_turn"), {"pending": []}, ["mine 1", "empty"]),
    (kum.Rules(end="finish_round"), {"phase": "play"}, ["mine 1", "empty"]),
], ids=lambda v: ",".join(f"{k}={x}" for k, x in v.diff().items()) if isinstance(v, kum.Rules) else repr(v)[:40])
def test_scenario_pending_slots_are_checked(rules: kum.Rules, layout: dict[str, Any], words: list[str]) -> None:
    layout = {"mines": [None, 10, 11, 12], "phase": "draw", **layout}
    if layout["phase"] is None:
        del layout["phase"]
    expect_error(lambda: kum.Game.from_scenario(["Ada", "Bo"], rules=rules, **layout), kum.InvalidStateError, *words)


def test_scenario_turn_is_bounded() -> None:
    """A record numbers its turns with at most six digits: a turn counter far beyond any
    game (each turn or claim spends the deck) is refused, the largest allowed reads back."""
    for turn in (100_000, 10**6, 10**5000, -1, 1.0, True):
        expect_error(lambda turn=turn: kum.Game.from_scenario(["Ada", "Bo"], turn=turn), kum.InvalidStateError, "turn")
    game = kum.Game.from_scenario(["Ada", "Bo"], turn=99_999)
    play_out(game, random.Random(4))
    assert kum.Game.from_record(game.record()) == game
    assert kum.Game.from_dict(json.loads(json.dumps(game.to_dict()))) == game


def test_scenario_pending_slots_are_refilled_once_each_and_keep_every_card() -> None:
    rules = kum.Rules(refill="end_of_turn")
    game = kum.Game.from_scenario(["Ada", "Bo"], rules=rules, mines=[None, None, 11, 12], pending=[1, 0], phase="draw")
    check_conservation(game)
    deck = game.to_dict()["state"]["deck"]  # top first
    events = game.apply("draw deck")
    assert events == [kum.Drew(0, deck[0], None), kum.Refilled(1, deck[1]), kum.Refilled(0, deck[2])]
    check_conservation(game)
    play_out(game, random.Random(2), each=check_conservation)
    assert kum.Game.from_dict(json.loads(json.dumps(game.to_dict()))) == game
    assert kum.Game.from_record(game.record()) == game


# -- records ---------------------------------------------------------------------------------------

def record_lines(turns: int = 4) -> tuple[kum.Game, list[str]]:
    game = fresh(turns=turns)
    return game, game.record().splitlines()


def tag(value: Any) -> str:
    """``value`` as JSON in a record's tag (its quotes escaped)."""
    return json.dumps(value).replace("\\", "\\\\").replace('"', '\\"')


def line_of(lines: list[str], prefix: str) -> int:
    """1-based line number of the first line starting with ``prefix``."""
    return next(i for i, line in enumerate(lines, start=1) if line.startswith(prefix))


@pytest.mark.parametrize("bad", [None, 5, b"[Game]", ["x"], {}], ids=repr)
def test_record_not_text(bad: Any) -> None:
    expect_error(lambda: kum.Game.from_record(bad), kum.InvalidRecordError)


def test_record_bad_tag_names_the_line() -> None:
    _, lines = record_lines()
    n = line_of(lines, "[Seed ")
    lines[n - 1] = "[Seed 11]"
    expect_error(lambda: kum.Game.from_record("\n".join(lines)), kum.InvalidRecordError, f"line {n}", "tag")
    _, lines = record_lines()
    lines[0] = '[Game "Kings Under Mountains"'
    expect_error(lambda: kum.Game.from_record("\n".join(lines)), kum.InvalidRecordError, "line 1")


def test_record_wrong_players_turn() -> None:
    _, lines = record_lines()
    n = line_of(lines, "2. Bo:")
    lines[n - 1] = lines[n - 1].replace("2. Bo:", "2. Ada:")
    expect_error(lambda: kum.Game.from_record("\n".join(lines)), kum.InvalidRecordError, f"line {n}", "Bo")


def test_record_illegal_move_names_the_line() -> None:
    game, lines = record_lines(turns=4)
    n = line_of(lines, "3. Ada:")
    foreign = game.deck[game._state.deck[0]]  # the bottom card of the deck: nobody holds it yet
    rest = lines[n - 1].split(";", 1)[1]
    lines[n - 1] = f"3. Ada: play {foreign.label} on mine 1;{rest}"
    e = expect_error(lambda: kum.Game.from_record("\n".join(lines)), kum.InvalidRecordError, f"line {n}")
    assert "not in" in str(e) or "cannot" in str(e)
    # A draw before the play.
    _, lines = record_lines(turns=4)
    lines[n - 1] = "3. Ada: draw deck"
    expect_error(lambda: kum.Game.from_record("\n".join(lines)), kum.InvalidRecordError, f"line {n}", "must play")
    # Text that is no action at all.
    _, lines = record_lines(turns=4)
    lines[n - 1] = "3. Ada: fly away"
    expect_error(lambda: kum.Game.from_record("\n".join(lines)), kum.InvalidRecordError, f"line {n}", "fly away")


def test_record_unreadable_move_line() -> None:
    _, lines = record_lines()
    lines.append("Ada plays something")
    n = len(lines)
    expect_error(lambda: kum.Game.from_record("\n".join(lines)), kum.InvalidRecordError, f"line {n}")


def test_record_move_after_the_end() -> None:
    game = finished()
    lines = game.record().splitlines()
    lines.append(f"999. {game.players[game.current_player]}: draw deck")
    expect_error(lambda: kum.Game.from_record("\n".join(lines)), kum.InvalidRecordError, f"line {len(lines)}", "over")


_SETUP = {"races": ["orc", "dwarf"], "first_player": 0}


@pytest.mark.parametrize(("name", "value", "words"), [
    ("Setup", tag({**_SETUP, "races": ["orc", "orc"]}), ["races"]),
    ("Setup", tag({**_SETUP, "races": ["elf", "dwarf"]}), ["elf"]),
    ("Setup", tag({**_SETUP, "races": ["orc"]}), ["races"]),
    ("Setup", tag({**_SETUP, "first_player": 7}), ["first_player"]),
    ("Setup", tag({**_SETUP, "first_player": "x"}), ["first_player"]),
    ("Setup", tag({**_SETUP, "x": 1}), ["setup", "'x'"]),
    ("Setup", tag([1]), ["setup"]),
    ("Setup", "{", ["Setup", "JSON"]),
    ("Seed", "-1", ["seed"]),
    ("Seed", "abc", ["seed"]),
    ("Seed", "", ["seed"]),
    ("Seed", "\u00b2", ["seed"]),  # str.isdigit accepts it, int does not
    ("Seed", "\u0663", ["seed"]),  # an Arabic-Indic 3: int() reads it, a record must not
    ("Seed", "\uff13", ["seed"]),  # a full-width 3
    ("Options", tag({"hand_size": "\u0666"}), ["hand_size"]),
    ("Player1", "Ada", ["differ"]),
    ("Player1", "", ["players[1]"]),
    ("Game", "chess", ["game", "chess"]),
    ("Format", "kum-widget-session 9", ["Format"]),
    ("Options", "{", ["Options", "JSON"]),
    ("Options", tag({"stuck": "sometimes"}), ["stuck"]),
    ("Options", tag({"bogus": 1}), ["bogus"]),
    ("Options", tag({"hand_size": 0}), ["hand_size"]),
    ("Options", tag({"deck": "goblin 7 #0 [d1 s1 p1], nonsense"}), ["deck"]),
], ids=lambda v: v[:30] if isinstance(v, str) else repr(v)[:30])
def test_record_bad_header_values(name: str, value: str, words: list[str]) -> None:
    _, lines = record_lines()
    n = line_of(lines, f"[{name} ")
    lines[n - 1] = f'[{name} "{value}"]'
    expect_error(lambda: kum.Game.from_record("\n".join(lines)), kum.InvalidRecordError, *words)


def test_record_missing_header_parts() -> None:
    _, lines = record_lines()
    for missing, words in (("[Player", ["players"]), ("[Game ", ["game"]), ("[Format ", ["Format"]), ("[Seed ", ["Seed"])):
        text = "\n".join(line for line in lines if not line.startswith(missing))
        expect_error(lambda text=text: kum.Game.from_record(text), kum.InvalidRecordError, *words)
    expect_error(lambda: kum.Game.from_record(""), kum.InvalidRecordError)


def test_record_bad_start_tags() -> None:
    _, lines = record_lines(turns=0)
    dealt = [line for line in lines if line.startswith("[") and not line.startswith(("[Seed ", "[Setup "))]
    start = {"races": ["orc", "dwarf"], "first_player": 0}
    for value, words in [("{", ["Start", "JSON"]), ("[]", ["start position"]), (tag({**start, "bogus": 1}), ["bogus"]),
                         (tag({**start, "races": ["orc"]}), ["races"]), ("NaN", ["start position"])]:
        text = "\n".join([*dealt, f'[Start "{value}"]'])
        expect_error(lambda text=text: kum.Game.from_record(text), kum.InvalidRecordError, *words)
    both = "\n".join([*lines[:line_of(lines, "[Seed ")], f'[Start "{tag(start)}"]'])  # a Seed and a Start
    expect_error(lambda: kum.Game.from_record(both), kum.InvalidRecordError, "Seed", "Start")


def test_record_deep_brackets_and_huge_numbers_in_the_start_tag() -> None:
    """json.loads raises RecursionError on deep nesting and a bare ValueError on a number
    past Python's int-conversion limit (4300 digits): both must read as a bad Start tag."""
    _, lines = record_lines(turns=0)
    head = [line for line in lines if line.startswith("[") and not line.startswith(("[Seed ", "[Setup "))]
    for start in ("[" * 100_000 + "]" * 100_000, "[" * 100_000, '{\\"turn\\": ' + "9" * 5000 + "}",
                  '{\\"turn\\": -' + "9" * 5000 + "}", '{\\"mines\\": [' + "1" * 5000 + "]}", '{\\"turn\\": 1e999}',
                  '{\\"hands\\": ' + "[" * 50_000 + "]" * 50_000 + "}", "NaN"):
        text = "\n".join([*head, f'[Start "{start}"]'])
        expect_error(lambda text=text: kum.Game.from_record(text), kum.InvalidRecordError, "start")


@pytest.mark.parametrize("name", ["Options", "Seed", "Setup"])
def test_record_5000_digit_numbers_in_tags(name: str) -> None:
    """Past Python's int-conversion limit (4300 digits) int() raises a bare ValueError,
    and so does an error message that prints the number."""
    _, lines = record_lines(turns=0)
    value = {"Options": '{\\"hand_size\\": ' + "9" * 5000 + "}", "Setup": '{\\"first_player\\": ' + "9" * 5000 + "}"}.get(name, "9" * 5000)
    lines = [line for line in lines if not line.startswith(f"[{name} ")] + [f'[{name} "{value}"]']
    e = expect_error(lambda: kum.Game.from_record("\n".join(lines)), kum.InvalidRecordError, name)
    assert len(str(e)) < 200


def test_record_hostile_lines() -> None:
    """NUL bytes, very long lines, brackets and digits where the record has text."""
    _, lines = record_lines(turns=3)
    n = line_of(lines, "1. Ada:")
    hostile = ["\x00", "a\x00b", "x" * 1_000_000, "[" * 100_000, '[Seed "' + "9" * 100_000 + '"]',
               "1. Ada: play #" + "9" * 5000 + " on mine 1", "1. Ada: " + "draw deck; " * 10_000,
               "9" * 5000 + ". Ada: draw deck", '[Player0 "' + "A" * 100_000 + '"]', '[Start "' + "[" * 100_000 + '"]',
               '[Setup "' + tag({"races": ["orc"] * 100_000}) + '"]', '[Options "' + tag({"deck": "orc 1 #0 [d1 s1 p1], " * 10_000}) + '"]']
    for text in hostile:
        for where in (0, n - 1, len(lines)):
            for replace in (False, True):
                edited = list(lines)
                if replace and where < len(edited):
                    edited[where] = text
                else:
                    edited.insert(where, text)
                only_kum_errors(lambda edited=edited: kum.Game.from_record("\n".join(edited)))
    only_kum_errors(lambda: kum.Game.from_record("\x00" * 100_000))
    only_kum_errors(lambda: kum.Game.from_record("\n" * 100_000))


@pytest.mark.parametrize("seed", [2**64, 10**100, 10**5000 + 7, -1, 1.5, True, "7"],
                         ids=["2**64", "10**100", "10**5000+7", "-1", "1.5", "True", "text"])
def test_seeds_past_the_range_are_refused(seed: object) -> None:
    for make in (kum.Game, kum.Game.from_scenario):
        with pytest.raises(kum.InvalidStateError, match=r"seed must be a whole number 0\.\.2"):
            make(["Ada", "Bo"], seed=seed)  # type: ignore[operator]


# -- names that a record must carry ----------------------------------------------------------------

def test_scenario_first_player_is_validated() -> None:
    """from_scenario must refuse a first_player that its own record cannot load."""
    try:
        game = kum.Game.from_scenario(["Ada", "Bo"], first_player=5, current=0)
    except kum.KumError:
        return
    game.apply(game.legal_action_ids()[0])
    assert kum.Game.from_record(game.record()) == game


# -- hostile values in a saved game ----------------------------------------------------------------

def _saved_games() -> list[dict[str, Any]]:
    seeded = fresh(turns=4)
    scenario = kum.Game.from_scenario(["Ada", "Bo"], rules=kum.Rules(refill="end_of_turn"), hands=[["goblin 7"], None],
                                      claimed=[[{"mine": "orc 3", "stack": ["dwarf 1"]}], []], developed=[["orc 4"], []])
    rng = random.Random(3)
    for _ in range(6):
        scenario.apply(rng.choice(scenario.legal_action_ids()))
    return [json.loads(json.dumps(g.to_dict())) for g in (seeded, scenario)]


def test_from_dict_hostile_value_at_every_field() -> None:
    """Deep nesting (repr and json recurse), numbers past Python's int-to-text limit (an
    error message that shows them fails), NUL bytes, huge and wrong-typed values at every
    field of a saved game, and as the whole dict: only KumErrors, with short messages."""
    for saved_game in _saved_games():
        for path in [(), *[p for p in paths(saved_game) if p][:400]]:
            for name, value in HOSTILE.items():
                d = json.loads(json.dumps(saved_game))
                if path:
                    node = d
                    for key in path[:-1]:
                        node = node[key]
                    node[path[-1]] = value
                else:
                    d = value
                brief_kum_error(f"{path} = {name}", lambda d=d: kum.Game.from_dict(d))


def test_scenario_hostile_value_at_every_field() -> None:
    fields = ["current", "phase", "deck_only", "turn", "hands", "known", "mines", "claimed", "developed", "camp",
              "deck", "pending", "seed"]
    for field in fields:
        for name, value in HOSTILE.items():
            brief_kum_error(f"{field} = {name}", lambda kw={field: value}: kum.Game.from_scenario(["Ada", "Bo"], **kw))


# -- fuzzing ---------------------------------------------------------------------------------------

_RECORD_LINES = fresh(seed=23, turns=5).record().splitlines()


@FUZZ
@given(index=st.integers(0, len(_RECORD_LINES) - 1), text=st.text(max_size=40) | action_like, mode=st.integers(0, 2))
def test_fuzz_from_record_mutated(index: int, text: str, mode: int) -> None:
    lines = list(_RECORD_LINES)
    line = lines[index]
    if mode == 0:
        lines[index] = text
    elif mode == 1 and (m := re.fullmatch(r'\[(\w+) "(.*)"\]', line)):
        lines[index] = f'[{m[1]} "{text}"]'  # a tag with another value
    elif mode == 1 and ":" in line:
        lines[index] = line.split(":", 1)[0] + ": " + text  # a move line with other actions
    else:
        lines.insert(index, text)
    only_kum_errors(lambda: kum.Game.from_record("\n".join(lines)))


_RACE_NAMES = ["orc", "orcs", "O", "dwarf", "dwarves", "D", "goblin", "Goblins", "giant", "T"]


_SMALL_DECK = kum.Deck([kum.Card(i, kum.RACES[i % 4], i // 4 % 10, kum.MineFace(1 + i % 3, 1 + i % 2, 1 + i % 5))
                        for i in range(44)], name="small")


@st.composite
def loose_layouts(draw: st.DrawFn) -> tuple[kum.Rules, dict[str, Any]]:
    """Rule options and a scenario layout with cards in random places: often refused, and
    often not (the rest goes to the deck, or with ``everything`` into the last hand)."""
    deck = draw(st.sampled_from([kum.Deck.standard(), _SMALL_DECK]))
    pool = list(draw(st.permutations(range(len(deck)))))
    layout: dict[str, Any] = {}

    def take(k: int) -> list[int]:
        return [pool.pop() for _ in range(min(k, len(pool)))]

    if draw(st.booleans()):
        layout["mines"] = [None if draw(st.integers(0, 2)) == 0 else pool.pop() for _ in range(4)]
    camp: dict[str, list[int]] = {}
    for name in draw(st.lists(st.sampled_from(_RACE_NAMES), max_size=3)):
        race = kum.Race.parse(name).index
        pile = [c for c in pool if deck.races[c] == race][:draw(st.integers(0, 3))]
        pool[:] = [c for c in pool if c not in pile]
        camp[name] = pile
    if camp:
        layout["camp"] = camp
    if draw(st.booleans()):
        layout["hands"] = [None if draw(st.integers(0, 3)) == 0 else take(draw(st.integers(0, 8))) for _ in range(2)]
    if draw(st.booleans()):
        layout["deck"] = take(draw(st.integers(0, 3)))
    if draw(st.integers(0, 3)) == 0:  # no card left for the deck
        layout["hands"] = [h or [] for h in layout.get("hands", [[], []])]
        layout["hands"][1] = layout["hands"][1] + pool
    for key, values in (("pending", st.lists(st.integers(0, 4), max_size=3)),
                        ("phase", st.sampled_from(["play", "draw", "discard", "over"])),
                        ("deck_only", st.booleans()), ("current", st.integers(0, 1))):
        if draw(st.booleans()):
            layout[key] = draw(values)
    return kum.Rules(**draw(st.sampled_from(ALL_RULE_COMBOS)), deck=deck), layout


@FUZZ
@given(case=loose_layouts(), seed=st.integers(0, 2**20))
def test_fuzz_any_accepted_layout_keeps_every_card_and_can_go_on(case: tuple[kum.Rules, dict[str, Any]], seed: int) -> None:
    """Whatever layout a scenario accepts, each card of the deck table lies in exactly one
    place, the player to move has a legal action (or the game is over), and both stay so
    through random play to the end; the game then reads back from its dict and its record."""
    rules, layout = case
    try:
        game = kum.Game.from_scenario(["Ada", "Bo"], races=["orc", "goblin"], rules=rules, seed=seed, **layout)
    except kum.KumError:
        return
    play_out(game, random.Random(seed), each=check_conservation)  # asserts a legal action at every step
    assert kum.Game.from_dict(json.loads(json.dumps(game.to_dict()))) == game
    assert kum.Game.from_record(game.record()) == game
