"""Bad input to Kings Under Mountains' own calls gets a clear error and leaves the game exactly
as it was: its action notation, its own calls (play, draw, discard, hand...), their wrong types
and out-of-range ids, the game's arguments, and huge or hostile values fuzzed into each.

Every error the public API raises for bad input must be a ``kum.KumError`` (a
``ValueError``) whose message names what is wrong, never a bare KeyError, IndexError,
TypeError or AttributeError; and a refused call must not change the game
(tests/_kum_helpers.py, ``expect_error`` and ``refused``). Saved games, records and scenarios:
test_kum_saves_input.py; deck tables and rule options: test_kum_tables_input.py. The same
promise for the calls every game's session has is tests/security/test_conformance_input.py's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from _hostile_helpers import HOSTILE as HOSTILE_VALUES
from _kum_helpers import (
    FUZZ,
    action_like,
    expect_error,
    finished,
    fresh,
    json_values,
    max_action_id,
    only_kum_errors,
    refused,
)
from hypothesis import given
from hypothesis import strategies as st

import kum_widget as kum

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


def test_the_games_encode_takes_an_id_as_itself_and_never_a_bool() -> None:
    """Kings Under Mountains' encode (an action object to its id) passes an id through for
    the session to check, and refuses a bool, which Python counts as an int."""
    rules = fresh().game
    assert rules.encode({}, 5) == 5
    with pytest.raises(kum.InvalidActionError, match="an action is text, an action object or an id, got bool"):
        rules.encode({}, True)


def test_card_text_that_is_no_card_is_named() -> None:
    with pytest.raises(kum.InvalidCardError, match=r"^cannot read card 'goblin': expected like 'goblin 7 #34 \[d3 s2 p4\]'$"):
        kum.Card.parse("goblin")


def test_rules_from_a_dict_take_a_deck_object_as_it_is() -> None:
    deck = kum.Deck.standard()
    rules = kum.Rules.from_dict({"deck": deck})
    assert rules.deck is deck and rules == kum.Rules(deck=deck)


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


# (hostile values at every field are test_from_dict_hostile_value_at_every_field's, below)


# (the records of the game are fuzzed below too, test_fuzz_from_record_mutated)


# -- fuzzing -----------------------------------------------------------------------------------

_GAME = fresh(seed=23, turns=5)


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


@FUZZ
@given(kwargs=st.dictionaries(
    st.sampled_from(["players", "seed", "races", "rules", "first_player"]), json_values, max_size=5))
def test_fuzz_game_constructor(kwargs: dict[str, Any]) -> None:
    players = kwargs.pop("players", 2)
    only_kum_errors(lambda: kum.Game(players, **kwargs))


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
