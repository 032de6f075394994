"""Bad input to Kings Under Mountains' own API gets a clear error and leaves the game exactly
as it was: its action notation, its own calls (play, draw, discard, hand...), its error
classes and messages, its scenarios, deck tables, rule options and saved games.

Every error the public API raises for bad input must be a ``kum.KumError`` (a
``ValueError``) whose message names what is wrong, never a bare KeyError, IndexError,
TypeError or AttributeError; and a refused call must not change the game. The same promise
for the calls every game's session has, hostile and fuzzed values, every cut of a record,
every field of a saved dict, names, seeds, is tests/test_conformance.py's (with this
game's KumError).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from _hostile_helpers import HOSTILE as HOSTILE_VALUES
from _kum_helpers import ALL_RULE_COMBOS, FORBIDDEN, check_conservation, max_action_id, play_out
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kum_widget as kum
from kum_widget.games.kum.ruleset import _CHOICES

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# -- helpers ---------------------------------------------------------------------------------


def expect_error(fn: Callable[[], object], exc: type[Exception] = kum.KumError, *words: str) -> Exception:
    """Call ``fn``; it must raise ``exc`` (a KumError) whose message holds every word."""
    try:
        fn()
    except Exception as e:  # classified below
        assert isinstance(e, kum.KumError), f"expected a kum.KumError, got {type(e).__name__}: {e}"
        assert isinstance(e, ValueError)
        assert not isinstance(e, FORBIDDEN), f"{type(e).__name__} must not escape: {e}"
        assert isinstance(e, exc), f"expected {exc.__name__}, got {type(e).__name__}: {e}"
        msg = str(e).lower()
        assert msg.strip(), "the error message is empty"
        for w in words:
            assert w.lower() in msg, f"{w!r} not in message {str(e)!r}"
        return e
    pytest.fail("no error raised")


def refused(game: kum.Game, fn: Callable[[], object], exc: type[Exception] = kum.KumError, *words: str) -> Exception:
    """Like expect_error, and the game must be exactly as it was."""
    before, text, sid, twin = game.to_dict(), str(game), game.state_id, game.clone()
    hands = [game.hand(s) for s in range(game.num_players)]
    err = expect_error(fn, exc, *words)
    assert game.to_dict() == before
    assert str(game) == text
    assert game == twin
    assert game.state_id == sid
    assert [game.hand(s) for s in range(game.num_players)] == hands
    return err


def only_kum_errors(fn: Callable[[], object]) -> None:
    """For fuzzing: success or a KumError are fine; anything else escapes and fails."""
    try:
        fn()
    except kum.KumError:
        pass


def fresh(seed: int = 11, turns: int = 0) -> kum.Game:
    game = kum.Game(["Ada", "Bo"], seed=seed)
    rng = random.Random(seed)
    for _ in range(2 * turns):
        game.apply(rng.choice(game.legal_action_ids()))
    return game


def finished(seed: int = 11) -> kum.Game:
    game = kum.Game(["Ada", "Bo"], seed=seed)
    play_out(game, random.Random(seed))
    return game


WRONG_TYPES: list[Any] = [None, 3.5, {}, {"a": 1}, [], [1, 2], object(), b"draw deck", (1,), {1, 2}]


def _card_of(deck: kum.Deck, creature: str, avoid: set[int]) -> int:
    return next(c.id for c in deck if c.creature == creature and c.id not in avoid)


def stuck_scenario() -> kum.Game:
    """Ada holds both goblin 7s and an orc 5, every mine is topped by a 9 (only a 0 beats
    it), and she has no claimed mine: she is stuck and must discard (D3)."""
    deck = kum.Deck.standard()
    g7 = [c.id for c in deck if c.creature == "goblin 7"]
    o5 = _card_of(deck, "orc 5", set())
    used = set(g7) | {o5}
    nines = [c.id for c in deck if c.value == 9][:4]
    used |= set(nines)
    mines = [c.id for c in deck if c.defense >= 2 and c.id not in used][:4]
    game = kum.Game.from_scenario(
        ["Ada", "Bo"], races=["orc", "dwarf"], hands=[[*g7, o5], None],
        mines=[{"mine": m, "stack": [n]} for m, n in zip(mines, nines, strict=True)],
    )
    assert game.phase == "discard"
    return game


# -- actions: garbage text, wrong types, out-of-range ids ----------------------------------------

GARBAGE = [
    "", "   ", "hello", "play", "play on mine 1", "play goblin 7", "play goblin 7 on", "draw", "draw camp",
    "draw elf", "draw camp elf", "discard", "undo", "\x00", "play goblin 7 on mine", "play goblin 7 under mine 1",
    "play goblin 7 on mine -1", "play goblin 7 on mine 0", "play goblin 7 on claimed 0", "play #999 on mine 1",
    "play goblin 12 on mine 1", "play elf 3 on mine 1", "play #-1 on mine 1", "play goblin on mine 1",
    "play 7 on mine 1", "discard goblin", "discard #80", "drawdeck", "play #5 #6 on mine 1",
    "play goblin 7 [d9 s9 p9] on mine 1", "play goblin 7 [zzz] on mine 1", "draw deck deck",
]


@pytest.mark.parametrize("text", GARBAGE)
def test_garbage_action_text(text: str) -> None:
    game = fresh(turns=3)
    refused(game, lambda: game.apply(text))


def test_garbage_text_messages_say_what_is_expected() -> None:
    game = fresh()
    refused(game, lambda: game.apply("hello"), kum.InvalidActionError, "hello", "play", "draw")
    refused(game, lambda: game.apply("draw camp elf"), kum.InvalidActionError, "elf")
    refused(game, lambda: game.apply("play goblin 7 on mine 0"), kum.InvalidActionError, "numbered from 1")
    refused(game, lambda: game.apply("play #999 on mine 1"), kum.InvalidActionError, "#999")
    refused(game, lambda: game.apply("play goblin 12 on mine 1"), kum.InvalidActionError, "goblin 12")


# (a bare object's repr shows its address: pytest-xdist's workers must name every test alike)
@pytest.mark.parametrize("value", WRONG_TYPES, ids=lambda v: "object()" if type(v) is object else repr(v))
def test_wrong_types_to_apply(value: Any) -> None:
    game = fresh(turns=2)
    refused(game, lambda: game.apply(value), kum.InvalidActionError)


def test_bool_is_not_an_action_id() -> None:
    game = fresh()
    refused(game, lambda: game.apply(True), kum.InvalidActionError)  # type: ignore[arg-type]
    refused(game, lambda: game.apply(False), kum.InvalidActionError)  # type: ignore[arg-type]


def test_out_of_range_action_ids() -> None:
    game = fresh(turns=2)
    top = max_action_id(game)
    for aid in (-1, -(10**9), top + 1, top + 1000, 10**9, 2**64):
        refused(game, lambda aid=aid: game.apply(aid), kum.InvalidActionError, "action id")
    # Top of the range is well-formed (a discard) but illegal now.
    refused(game, lambda: game.apply(top), kum.IllegalActionError, "discard")


def test_out_of_range_action_objects() -> None:
    game = fresh(turns=2)
    card = game.hand(game.current_player)[0].id
    refused(game, lambda: game.apply(kum.Play(80, slot=0)), kum.InvalidActionError, "#80")
    refused(game, lambda: game.apply(kum.Play(10**6, slot=0)), kum.InvalidActionError)
    refused(game, lambda: game.apply(kum.Play(card, slot=4)), kum.IllegalActionError, "mine 5")
    refused(game, lambda: game.apply(kum.Play(card, slot=10**6)), kum.IllegalActionError)
    refused(game, lambda: game.apply(kum.Play(card, claim=0)), kum.IllegalActionError, "claimed mine 1")
    refused(game, lambda: game.apply(kum.Play(card, claim=10**6)), kum.IllegalActionError)
    refused(game, lambda: game.apply(kum.Discard(80)), kum.InvalidActionError, "#80")
    # Bad action objects are refused at construction.
    expect_error(lambda: kum.Play(-1, slot=0), kum.InvalidActionError)
    expect_error(lambda: kum.Play(1), kum.InvalidActionError, "exactly one")
    expect_error(lambda: kum.Play(1, slot=0, claim=0), kum.InvalidActionError)
    expect_error(lambda: kum.Play("1", slot=0), kum.InvalidActionError)  # type: ignore[arg-type]
    expect_error(lambda: kum.Play(1, slot=0.5), kum.InvalidActionError)  # type: ignore[arg-type]
    expect_error(lambda: kum.Draw("goblin"), kum.InvalidActionError)  # type: ignore[arg-type]
    expect_error(lambda: kum.Discard(-3), kum.InvalidActionError)
    expect_error(lambda: kum.Discard(None), kum.InvalidActionError)  # type: ignore[arg-type]


def test_play_draw_discard_wrong_types() -> None:
    game = fresh(turns=1)
    card = game.hand(game.current_player)[0]
    for bad in WRONG_TYPES:
        refused(game, lambda bad=bad: game.play(bad, 1), kum.InvalidActionError)
        refused(game, lambda bad=bad: game.play(card, bad), kum.InvalidActionError)
        refused(game, lambda bad=bad: game.discard(bad), kum.InvalidActionError)
    for bad in [None, 3.5, {}, [], object(), 7, True]:
        refused(game, lambda bad=bad: game.draw(bad), kum.InvalidActionError)
    for bad_target in (0, 5, -1, 99, "nowhere", "mine", "claimed", "mine 0", True):
        refused(game, lambda t=bad_target: game.play(card, t))
    refused(game, lambda: game.play(999, 1), kum.InvalidActionError)
    refused(game, lambda: game.play(-1, 1), kum.InvalidActionError)
    refused(game, lambda: game.play("", 1), kum.InvalidActionError)
    refused(game, lambda: game.draw("elf"), kum.InvalidActionError, "elf")
    refused(game, lambda: game.draw(""), kum.InvalidActionError)
    foreign = kum.Card(3, kum.Race.GIANT, 9, kum.MineFace(1, 1, 1))
    refused(game, lambda: game.play(foreign, 1), kum.InvalidActionError, "not a card of this game")
    big = kum.Card(500, kum.Race.GIANT, 9, kum.MineFace(1, 1, 1))
    refused(game, lambda: game.play(big, 1), kum.InvalidActionError)


@pytest.mark.parametrize("name", ["undo", "redo"])
def test_undo_redo_wrong_types(name: str) -> None:
    game = fresh(turns=3)
    game.undo(2)
    method = getattr(game, name)
    for bad in [None, 3.5, "1", -1, -100, True, [], {}, 1.0]:
        refused(game, lambda bad=bad: method(bad), kum.InvalidStateError, "steps")


@pytest.mark.parametrize("name", ["hand", "claimed", "developed", "king", "points", "view"])
def test_seat_arguments(name: str) -> None:
    game = kum.Game(3, seed=4)
    method = getattr(game, name)
    for bad in [3, 4, -1, 3.5, "0", [], {}, True, 1.0] + ([] if name == "view" else [None]):
        refused(game, lambda bad=bad: method(bad), kum.KumError, "seat")


def test_card_not_in_hand() -> None:
    game = fresh()
    other = game.hand(1)[0]
    e = refused(game, lambda: game.apply(f"play {other.label} on mine 1"), kum.IllegalActionError)
    assert "not in" in str(e) and "Ada" in str(e) and other.label in str(e)
    refused(game, lambda: game.play(other, 1), kum.IllegalActionError, "not in")
    refused(game, lambda: game.play(other.id, 1), kum.IllegalActionError, "not in")
    # A card lying on the table (a mine) is not in the hand either.
    mine_card = game.mines[0].card
    assert mine_card is not None
    refused(game, lambda: game.play(mine_card, 2), kum.IllegalActionError, "not in")


def test_ambiguous_card_text() -> None:
    deck = kum.Deck.standard()
    g7 = [c.id for c in deck if c.creature == "goblin 7"]
    game = kum.Game.from_scenario(["Ada", "Bo"], races=["orc", "dwarf"], hands=[[*g7, "orc 5"], None])
    e = refused(game, lambda: game.apply("play goblin 7 on mine 1"), kum.InvalidActionError, "ambiguous")
    for c in g7:
        assert f"#{c}" in str(e)  # names both copies, so the user can pick one
    refused(game, lambda: game.play("goblin 7", 1), kum.InvalidActionError, "ambiguous")
    # The full label is not ambiguous.
    game.apply(f"play goblin 7 #{g7[0]} on mine 1")


def test_ambiguous_discard_and_stuck_phase_errors() -> None:
    game = stuck_scenario()
    refused(game, lambda: game.apply("discard goblin 7"), kum.InvalidActionError, "ambiguous")
    refused(game, lambda: game.draw("deck"), kum.IllegalActionError, "discard")
    card = game.hand(0)[0]
    for mine in (1, 2, 3, 4):
        refused(game, lambda mine=mine: game.play(card, mine), kum.IllegalActionError, "discard")
    refused(game, lambda: game.discard(game.hand(1)[0]), kum.IllegalActionError, "not in")
    game.discard(card)
    assert game.phase == "draw"
    # After a stuck discard, the draw must come from the deck (D3).
    pile = next(race for race, cards in game.camp.items() if cards)
    refused(game, lambda: game.draw(pile), kum.IllegalActionError, "deck")
    refused(game, lambda: game.discard(game.hand(0)[0]), kum.IllegalActionError, "draw")


def test_wrong_phase() -> None:
    game = fresh()
    assert game.phase == "play"
    refused(game, lambda: game.draw("deck"), kum.IllegalActionError, "must play")
    refused(game, lambda: game.apply("draw deck"), kum.IllegalActionError, "must play")
    refused(game, lambda: game.discard(game.hand(0)[0]), kum.IllegalActionError, "may not discard")
    game.apply(game.legal_actions()[0])
    assert game.phase == "draw"
    refused(game, lambda: game.play(game.hand(0)[0], 1), kum.IllegalActionError, "must now draw")
    refused(game, lambda: game.discard(game.hand(0)[0]), kum.IllegalActionError, "draw")
    empty = [race for race, cards in game.camp.items() if not cards]
    for race in empty:
        refused(game, lambda race=race: game.draw(race), kum.IllegalActionError, "empty")


def test_wrong_target_messages_name_the_rule() -> None:
    game = fresh()
    # Ada (orc King) has no claimed mine yet: only the owner plays on a claimed mine.
    card = game.hand(0)[0]
    refused(game, lambda: game.play(card, "claimed 1"), kum.IllegalActionError, "no claimed mine")
    deck = kum.Deck.standard()
    plain = next(c.id for c in deck if c.defense >= 2 and not c.overseer and c.size >= 2)
    ov = next(c.id for c in deck if c.overseer and c.size == 2 and c.id != plain)
    ov2 = next(c.id for c in deck if c.overseer and c.size == 2 and c.id not in (plain, ov))
    fillers = [next(c.id for c in deck if c.creature == f"dwarf {v}" and c.id not in (plain, ov, ov2)) for v in (2, 3, 4)]
    game = kum.Game.from_scenario(
        ["Ada", "Bo"], races=["orc", "dwarf"],
        hands=[["giant 3", "orc 2", "giant 5"], None],
        mines=[{"mine": plain, "stack": ["goblin 8"]}, *fillers],
        claimed=[[{"mine": ov, "stack": ["giant 1", "giant 4"]}, {"mine": ov2, "stack": ["goblin 6"]}], []],
        deck=["dwarf 1"],
    )
    low = next(c for c in game.hand(0) if c.creature == "giant 3")
    own = next(c for c in game.hand(0) if c.creature == "orc 2")
    refused(game, lambda: game.play(low, 1), kum.IllegalActionError, "cannot go on mine 1", "top card is goblin 8")
    # A full overseer mine takes only the owner's own race ...
    refused(game, lambda: game.play(low, "claimed 1"), kum.IllegalActionError, "overseer", "own race")
    # ... and until it is full, the owner's own race may not go there.
    refused(game, lambda: game.play(own, "claimed 2"), kum.IllegalActionError, "own race")
    refused(game, lambda: game.play(low, "claimed 2"), kum.IllegalActionError, "top card is goblin 6")
    refused(game, lambda: game.play(low, "claimed 3"), kum.IllegalActionError, "claimed mine")
    game.play(low, 2)  # an empty stack takes any value


def test_everything_is_refused_once_the_game_is_over() -> None:
    game = finished()
    assert game.is_over
    refused(game, lambda: game.draw("deck"), kum.IllegalActionError, "over")
    refused(game, lambda: game.play(game.hand(0)[0], 1), kum.IllegalActionError, "over")
    refused(game, lambda: game.discard(game.hand(1)[0]), kum.IllegalActionError, "over")
    for aid in (0, 1, max_action_id(game)):
        refused(game, lambda aid=aid: game.apply(aid), kum.IllegalActionError, "over")


def test_huge_numbers_in_action_text_are_kum_errors() -> None:
    """Digit strings longer than Python's int-conversion limit (4300 digits)."""
    game = fresh()
    refused(game, lambda: game.apply("play #1 on mine " + "9" * 5000), kum.KumError)
    refused(game, lambda: game.apply("play goblin " + "9" * 5000 + " on mine 1"), kum.KumError)
    refused(game, lambda: game.apply("play #" + "9" * 5000 + " on mine 1"), kum.KumError)


# -- Game(...) arguments ---------------------------------------------------------------------

@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"players": 1}, ["players"]),
        ({"players": 5}, ["players"]),
        ({"players": 0}, ["players"]),
        ({"players": -2}, ["players"]),
        ({"players": 2.0}, ["players"]),
        ({"players": True}, ["players"]),
        ({"players": None}, ["players"]),
        ({"players": "AdaBo"}, ["players"]),
        ({"players": []}, ["players"]),
        ({"players": ["Ada"]}, ["players"]),
        ({"players": ["A", "B", "C", "D", "E"]}, ["players"]),
        ({"players": ["Ada", "Ada"]}, ["differ"]),
        ({"players": ["", "Bo"]}, ["players[0]"]),
        ({"players": ["   ", "Bo"]}, ["players[0]"]),
        ({"players": ["A\nB", "Bo"]}, ["players[0]"]),
        ({"players": ["Ada", None]}, ["players[1]"]),
        ({"players": ["Ada", 7]}, ["players[1]"]),
        ({"players": ["x" * 41, "Bo"]}, ["players[0]"]),
        ({"players": 2, "races": ["elf", "orc"]}, ["races", "elf"]),
        ({"players": 2, "races": ["orc", "orc"]}, ["races"]),
        ({"players": 2, "races": ["orc"]}, ["races"]),
        ({"players": 2, "races": ["orc", "dwarf", "goblin"]}, ["races"]),
        ({"players": 2, "races": "orc"}, ["races"]),
        ({"players": 2, "races": [None, "orc"]}, ["races"]),
        ({"players": 2, "races": [1, 2]}, ["races"]),
        ({"players": 2, "races": 5}, ["races"]),
        ({"players": 2, "seed": -1}, ["seed"]),
        ({"players": 2, "seed": "x"}, ["seed"]),
        ({"players": 2, "seed": 3.5}, ["seed"]),
        ({"players": 2, "seed": True}, ["seed"]),
        ({"players": 2, "seed": [1]}, ["seed"]),
        ({"players": 2, "first_player": 2}, ["first_player"]),
        ({"players": 2, "first_player": -1}, ["first_player"]),
        ({"players": 2, "first_player": "0"}, ["first_player"]),
        ({"players": 2, "first_player": 1.0}, ["first_player"]),
        ({"players": 2, "rules": "x"}, ["rules"]),
        ({"players": 2, "rules": {}}, ["rules"]),
        ({"players": 2, "rules": kum.Rules(first_player=3)}, ["first_player"]),
        ({"players": 4, "rules": kum.Rules(hand_size=20)}, ["need"]),
    ],
    ids=lambda v: repr(v)[:50],
)
def test_bad_game_arguments(kwargs: dict[str, Any], words: list[str]) -> None:
    players = kwargs.pop("players")
    expect_error(lambda: kum.Game(players, **kwargs), kum.InvalidStateError, *words)


def test_small_deck_is_refused_for_many_players() -> None:
    cards = [kum.Card(i, kum.RACES[i % 4], i % 10, kum.MineFace(1, 1, 1)) for i in range(24)]
    rules = kum.Rules(deck=kum.Deck(cards))
    kum.Game(2, seed=1, rules=rules)  # 4 mines + 4 camp + 2 x 6 + 1 = 21 <= 24
    expect_error(lambda: kum.Game(4, seed=1, rules=rules), kum.InvalidStateError, "24 cards", "need")


# -- from_dict ----------------------------------------------------------------------------------
# (hostile values at every field are test_from_dict_hostile_value_at_every_field's, below)

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


# -- positions a layout may describe: one that can go on, with every card in one place -----------

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


# -- records -----------------------------------------------------------------------------------
# (the records of the game are fuzzed below too, test_fuzz_from_record_mutated)

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


# -- deck tables ----------------------------------------------------------------------------

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


# -- rules ------------------------------------------------------------------------------------

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


# -- names that a record must carry ------------------------------------------------------------


def test_scenario_first_player_is_validated() -> None:
    """from_scenario must refuse a first_player that its own record cannot load."""
    try:
        game = kum.Game.from_scenario(["Ada", "Bo"], first_player=5, current=0)
    except kum.KumError:
        return
    game.apply(game.legal_action_ids()[0])
    assert kum.Game.from_record(game.record()) == game


# -- hostile values in a saved game --------------------------------------------------------------

def _nested(depth: int, make: Callable[[Any], Any]) -> Any:
    value: Any = []
    for _ in range(depth):
        value = make(value)
    return value


HOSTILE: dict[str, Any] = {
    "deep list": _nested(100_000, lambda v: [v]), "deep dict": _nested(100_000, lambda v: {"a": v}),
    "list of deep": [_nested(100_000, lambda v: [v])], "5000 digits": 10**5000, "-5000 digits": -(10**5000),
    "big int": 2**70, "nul": "a\x00b", "long text": "x" * 1_000_000, "nan": float("nan"), "inf": float("-inf"),
    "bool": True, "none": None, "bytes": b"\x00", "set": {1, 2}, "tuple": (1, 2), "object": object(),
    "int keys": {1: [2]}, "tuple key": {((1,),): 1}, "long list": list(range(100_000)), "float": 1.5,
}


def _saved_games() -> list[dict[str, Any]]:
    seeded = fresh(turns=4)
    scenario = kum.Game.from_scenario(["Ada", "Bo"], rules=kum.Rules(refill="end_of_turn"), hands=[["goblin 7"], None],
                                      claimed=[[{"mine": "orc 3", "stack": ["dwarf 1"]}], []], developed=[["orc 4"], []])
    rng = random.Random(3)
    for _ in range(6):
        scenario.apply(rng.choice(scenario.legal_action_ids()))
    return [json.loads(json.dumps(g.to_dict())) for g in (seeded, scenario)]


def brief_kum_error(where: str, fn: Callable[[], object]) -> None:
    """``fn`` succeeds or raises a KumError with a short message; nothing else escapes."""
    try:
        fn()
    except kum.KumError as e:
        assert len(str(e)) < 400, f"{where}: the message is {len(str(e))} characters"
    except Exception as e:  # the point of the test: anything else fails it, saying where
        pytest.fail(f"{where}: {type(e).__name__}: {str(e)[:200]}")


def test_from_dict_hostile_value_at_every_field() -> None:
    """Deep nesting (repr and json recurse), numbers past Python's int-to-text limit (an
    error message that shows them fails), NUL bytes, huge and wrong-typed values at every
    field of a saved game, and as the whole dict: only KumErrors, with short messages."""
    for saved_game in _saved_games():
        for path in [(), *[p for p in _paths(saved_game) if p][:400]]:
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


def test_rules_hostile_values() -> None:
    for option in ("hand_size", "mines", "camp_cards", "refill", "end", "stuck", "ties", "first_player", "visibility", "deck"):
        for name, value in HOSTILE.items():
            brief_kum_error(f"Rules({option}={name})", lambda kw={option: value}: kum.Rules(**kw))
            brief_kum_error(f"Rules.from_dict({option}={name})", lambda kw={option: value}: kum.Rules.from_dict(kw))


# -- fuzzing -----------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
action_like = st.from_regex(
    r"(play|draw|discard|PLAY|Draw)( +| *#)?[a-z#0-9 \[\]]{0,16}( (on|onto) (mine|claimed)? ?-?[0-9]{0,3})?",
    fullmatch=True,
)
_GAME = fresh(seed=23, turns=5)
_RECORD = _GAME.record()


@FUZZ
@given(text=st.text(max_size=60) | action_like)
def test_fuzz_apply_text(text: str) -> None:
    game = _GAME.clone()
    before = game.to_dict()
    try:
        game.apply(text)
    except kum.KumError:
        assert game.to_dict() == before
    else:
        assert game.to_dict() != before


@FUZZ
@given(value=json_values)
def test_fuzz_the_games_own_calls_with_json_values(value: Any) -> None:
    """(apply, undo, redo, view and action_id, every game's, are fuzzed in test_conformance.py.)"""
    calls: list[Callable[[kum.Game], object]] = [
        lambda g: g.discard(value), lambda g: g.draw(value), lambda g: g.hand(value),
        lambda g: g.play(value, 1), lambda g: g.play(g.hand(g.current_player)[0], value), lambda g: g.parse_action(value),
    ]
    for call in calls:
        game = _GAME.clone()
        before = game.to_dict()
        try:
            call(game)
        except kum.KumError:
            assert game.to_dict() == before


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*path, i))
    return out


_RECORD_LINES = _RECORD.splitlines()


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


@FUZZ
@given(kwargs=st.dictionaries(
    st.sampled_from(["players", "seed", "races", "rules", "first_player"]), json_values, max_size=5))
def test_fuzz_game_constructor(kwargs: dict[str, Any]) -> None:
    players = kwargs.pop("players", 2)
    only_kum_errors(lambda: kum.Game(players, **kwargs))


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


# -- a hostile probe of the game's own calls and its board (issue 42, item 8e) -----------------------


def _own_calls(game: kum.Game) -> dict[str, Callable[[Any], object]]:
    """Each public call of a kum.Game (and of a board on it) that takes a value, by name."""
    card = game.hand(game.current_player)[0]
    event = game.logs[-1][0]
    return {
        "play(card, target)": lambda v: game.play(card, v), "play(card)": lambda v: game.play(v, 1),
        "play(card, card)": lambda v: game.play(v, v), "draw": game.draw, "discard": game.discard,
        "hand": game.hand, "claimed": game.claimed, "developed": game.developed, "king": game.king, "points": game.points,
        "view": game.view, "describe(event, viewer)": lambda v: game.describe(event, v), "describe": game.describe,
        "parse_action": game.parse_action, "apply": game.apply, "action_text": game.action_text, "action_id": game.action_id,
        "undo": game.undo, "redo": game.redo, "recent_logs": game.recent_logs, "named": game.named,
        "named(text, seat)": lambda v: game.named("{player}", v), "action_kinds": game.action_kinds, "clicks": game.clicks,
        "heuristic_scores": game.heuristic_scores,
    }


# (drawn as small numbers, built in the test: hypothesis would write the values out to report them)
_FORMS: list[Callable[[int], Any]] = [lambda d: 10**d, lambda d: -(10**d), lambda d: "9" * d, lambda d: f"mine {'9' * d}",
                                      lambda d: f"#{'9' * d}", lambda d: f"play #{'9' * d} on mine 1"]


@FUZZ
@given(hostile=st.integers(0, len(HOSTILE_VALUES) - 1), digits=st.integers(300, 6000), form=st.integers(0, len(_FORMS) - 1))
def test_fuzz_every_own_call_with_huge_and_hostile_values_refuses_by_name(hostile: int, digits: int, form: int) -> None:
    """``play(card, 10**5000)`` once raised a bare ValueError (an int too long to write out)."""
    base = fresh(turns=3)
    for value in (HOSTILE_VALUES[hostile], _FORMS[form](digits)):
        for name in _own_calls(base):
            game = base.clone()
            before = game.to_dict()
            try:
                _own_calls(game)[name](value)
            except kum.core.GameError as exc:
                assert str(exc).strip() and len(str(exc)) < 2000, (name, str(exc)[:300])
                assert game.to_dict() == before, name
            except Exception as exc:  # the point: nothing else escapes a public call
                raise AssertionError(f"{name}: {type(exc).__name__} escaped: {str(exc)[:200]}") from exc


def test_a_huge_target_is_named() -> None:
    game = fresh(turns=1)
    card = game.hand(game.current_player)[0]
    for target in (10**5000, -(10**5000), 2**64):
        err = refused(game, lambda t=target: game.play(card, t), kum.InvalidActionError, "target")
        assert len(str(err)) < 300, str(err)[:300]
