"""One record format for every game: each shipped game and the gallery write the core's
record and dict (``kum-widget-session 1``), and the core's reader reads any of them back (Kings
Under Mountains as a ``kum.Game``); what a game needs beyond the core's fields goes through
its extension points (options, Setup, Start, state). Kings Under Mountains' saves of three
kinds of game (dealt, dealt with rules and a deck of its own, built by hand) are pinned under
tests/golden/ (kum_save_*): they read back, and the same games write them again unchanged."""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from typing import Any

import pytest
from _paths import ROOT

import kum_widget as kum
from kum_widget import core
from kum_widget.core import InvalidSaveError, Session, records
from kum_widget.core.examples import Bust
from kum_widget.core.records import split_record
from kum_widget.gallery.connect_four import ConnectFour
from kum_widget.gallery.undercut import Undercut
from kum_widget.gallery.whispers import Whispers
from kum_widget.gallery.workers import Woodcutters

GOLDEN = ROOT / "tests" / "golden"



def played(s: Session, seed: int, moves: int = 14, undo: int = 3) -> Session:
    rng = random.Random(seed)
    for _ in range(moves):
        if s.is_over:
            break
        s.apply(rng.choice(s.legal_action_ids()))
    s.undo(undo)  # a redo list too
    return s


GAMES: dict[str, Callable[[], Session]] = {
    "bust": lambda: played(Session(Bust(limit=25), ["Ada", "Bo", "Cy"], seed=4), 1, moves=6, undo=1),
    "court": lambda: played(kum.Court(seed=5, player="Ada"), 2),
    "court-scenario": lambda: played(kum.Court.from_scenario(["sun poet 4", "daemon prince 3", None, None],
                                                             ["moon general 3", *[None] * 7], phase="fight", cp=2), 3, 4, 1),
    "kum": lambda: played(kum.Game(["Ada", "Bo", "Cy"], seed=6, races=["giant", "orc", "dwarf"], first_player=1,
                                   rules=kum.Rules(stuck="draw", end="finish_round")), 4),
    "kum-dealt": lambda: played(kum.Game(2, seed=7), 5),
    "kum-scenario": lambda: played(kum.Game.from_scenario(["Ada", "Bo"], races=["orc", "goblin"], hands=[["goblin 7"], None],
                                                          mines=[{"mine": "#0", "stack": ["dwarf 5"]}, 10, 11, 12]), 6),
    "kum-core-session": lambda: played(Session(kum.KingsUnderMountains(refill="end_of_turn"), 2, seed=8), 7),
    "undercut": lambda: played(Session(Undercut(), ["Ada", "Bo"], seed=9), 8),
    "connect-four": lambda: played(Session(ConnectFour(), ["Ada", "Bo"], seed=10), 9),
    "whispers": lambda: played(Session(Whispers(), ["Ada", "Bo", "Cy"], seed=11), 10, undo=1),
    "woodcutters": lambda: played(Session(Woodcutters(), ["Ada", "Bo"], seed=12), 11),
}


@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_writes_the_one_format(name: str) -> None:
    s = GAMES[name]()
    record, data = s.record(), s.to_dict()
    tags, moves = split_record(record)
    assert tags["Format"] == "kum-widget-session 1" and tags["Game"] == s.game.name and bool(moves) == bool(s.history)
    assert (data["format"], data["version"], data["game"]) == ("kum-widget-session", 1, s.game.name)
    assert record == Session.record(s) and data == Session.to_dict(s)  # a game's session writes what the core writes
    assert json.loads(json.dumps(data)) == data and data["actions"] and len(data["redo"]) == s.redo_count
    assert ("Seed" in tags) == (s.seed is not None) == ("Start" not in tags)


@pytest.mark.parametrize("name", list(GAMES))
def test_the_core_reader_reads_every_game_back(name: str) -> None:
    s = GAMES[name]()
    record, data = s.record(), json.loads(json.dumps(s.to_dict()))
    # The same game back: its history, its position (a dict's "state"), the same saves again.
    for back in (Session.from_record(record), records.session_from_record(Session, record)):
        assert back.history == s.history and back.record() == record and back.legal_action_ids() == s.legal_action_ids()
    own = type(s).from_record(record)  # and the game's own reader: the very game
    assert type(own) is type(s) and own == s
    back = Session.from_dict(data)
    assert back.history == s.history and back.redo_count == s.redo_count and back.to_dict() == data
    back.redo(back.redo_count), s.redo(s.redo_count)
    assert back.record() == s.record() and back.scores() == s.scores()
    # A kum.Game dealt from a seed reads back as a kum.Game (its Setup); the other saves as a
    # core Session, holding the same game.
    assert type(Session.from_record(record)) is (kum.Game if name in ("kum", "kum-dealt") else Session)


def test_kum_saves_carry_the_kings_the_first_player_the_rules_and_the_start_position() -> None:
    g = GAMES["kum"]()
    tags, _ = split_record(g.record())
    assert json.loads(tags["Setup"]) == g.to_dict()["setup"] == {"races": ["giant", "orc", "dwarf"], "first_player": 1}
    assert json.loads(tags["Options"]) == g.to_dict()["options"] == g.rules.to_dict()
    assert g.to_dict()["state"] == {"races": ["giant", "orc", "dwarf"], "first_player": 1, **g._state.layout()}
    sc = GAMES["kum-scenario"]()
    data = sc.to_dict()
    assert data["seed"] is None and "setup" not in data and "Setup" not in sc.record()
    start = kum.Game.from_scenario(list(sc.players), rules=sc.rules, **data["start"])  # the start is what from_scenario takes
    assert start._state == sc._initial and json.loads(split_record(sc.record())[0]["Start"]) == data["start"]


def _edited(data: dict[str, Any], **changes: Any) -> dict[str, Any]:
    out = json.loads(json.dumps(data))
    out.update(changes)
    return out


@pytest.mark.parametrize(("name", "changes", "words"), [
    ("kum", {"setup": {"races": ["orc"], "first_player": 1}}, ["setup", "races"]),
    ("kum", {"setup": {"races": ["elf", "orc", "dwarf"], "first_player": 1}}, ["elf"]),
    ("kum", {"setup": {"races": ["giant", "orc", "dwarf"], "first_player": 7}}, ["first_player"]),
    ("kum", {"setup": {"colour": "red"}}, ["setup", "colour"]),
    ("kum", {"setup": ["giant"]}, ["setup", "mapping"]),
    ("kum", {"setup": {"races": "x" * 100_000}}, ["races"]),
    ("kum", {"seed": 10**40}, ["seed"]),
    ("kum", {"options": {"stuck": "sometimes"}}, ["stuck"]),
    ("kum", {"state": {"hands": []}}, ["state", "does not match"]),
    ("kum", {"game": "bust"}, ["bust"]),
    ("kum-scenario", {"start": {"hands": [[1], [2]]}}, ["start", "races"]),
    ("kum-scenario", {"setup": {"races": ["orc", "goblin"]}}, ["setup"]),
    ("kum-scenario", {"start": {"races": ["orc", "goblin"], "first_player": 0}}, ["start", "missing layout field"]),
])
def test_hostile_kum_saves_in_the_one_format_are_named(name: str, changes: dict[str, Any], words: list[str]) -> None:
    data = _edited(GAMES[name]().to_dict(), **changes)
    for read in (kum.Game.from_dict, Session.from_dict):
        with pytest.raises(core.GameError) as err:
            read(data)
        assert isinstance(err.value, InvalidSaveError)  # what every game's loader raises ...
        if read is kum.Game.from_dict:  # ... and, from kum.Game, what it always raised
            assert isinstance(err.value, (kum.InvalidStateError, kum.InvalidRecordError))
        assert all(w.lower() in str(err.value).lower() for w in words), str(err.value)
        assert len(str(err.value)) < 400


def test_a_setup_goes_to_the_game_s_own_session_and_nowhere_else() -> None:
    bust = GAMES["bust"]().record().replace('[Seed "4"]', '[Seed "4"]\n[Setup "{\\"races\\": [\\"orc\\"]}"]')
    with pytest.raises(InvalidSaveError, match=r"setup.*unknown option 'races'"):
        Session.from_record(bust)
    court = kum.Court(seed=5).to_dict()
    with pytest.raises(InvalidSaveError, match=r"setup: Court of the Three Clans is dealt with no setup options, got .*x"):
        kum.Court.from_dict({**court, "setup": {"x": 1}})
    with pytest.raises(InvalidSaveError, match="setup: expected a mapping"):
        Session.from_dict({**court, "setup": {1: 2}})
    with pytest.raises(kum.InvalidRecordError, match="this save is of 'bust'"):
        kum.Game.from_record(GAMES["bust"]().record())
    with pytest.raises(kum.InvalidStateError, match=r"reads saves of Kings Under Mountains' rules, got <class 'kum_widget\.core\.examples\.Bust'>"):
        kum.Game.from_dict(GAMES["kum"]().to_dict(), game=Bust)


def test_a_dict_carries_the_position_now_where_the_game_can_save_one() -> None:
    court = GAMES["court"]()
    data = json.loads(json.dumps(court.to_dict()))
    assert data["state"] == court.game.save_position(court._state) and "state" not in GAMES["bust"]().to_dict()
    data["state"]["cp"] += 1
    with pytest.raises(InvalidSaveError, match="state: does not match"):
        kum.Court.from_dict(data)
    del data["state"]  # optional: a save without it reads too
    assert kum.Court.from_dict(data) == court


# -- Kings Under Mountains' saves pinned under tests/golden ----------------------------------------


def _custom_deck_game() -> kum.Game:
    """The game of kum_save_custom: three players, Kings and a first player by hand, two rules
    and a custom deck (the standard one, every third card a point richer), 40 actions, 3 undone."""
    cards = [kum.Card(c.id, c.race, c.value, kum.MineFace(c.mine.defense, c.mine.size, c.mine.points + (c.id % 3 == 0),
                                                          c.mine.overseer)) for c in kum.Deck.standard()]
    rules = kum.Rules(stuck="draw", end="finish_round", deck=kum.Deck(cards))
    g = kum.Game(["Ada", "Bo", "Cy"], seed=77, races=["giant", "orc", "goblin"], first_player=2, rules=rules)
    rng = random.Random(5)
    for _ in range(40):
        g.apply(rng.choice(g.legal_action_ids()))
    g.undo(3)
    return g


def _scenario_game() -> kum.Game:
    """The game of kum_save_scenario: built by hand (a Layout, no seed), 12 actions, 2 undone."""
    g = kum.Game.from_scenario(["Ada", "Bo"], races=["orc", "goblin"], rules=kum.Rules(refill="end_of_turn"),
                               hands=[["goblin 7", "orc 3"], None], mines=[{"mine": "#0", "stack": ["dwarf 5"]}, 10, 11, 12], seed=3)
    rng = random.Random(8)
    for _ in range(12):
        g.apply(rng.choice(g.legal_action_ids()))
    g.undo(2)
    return g


def _golden_game() -> kum.Game:
    """The game of kum_save_seed_2024: the golden playthrough (tests/golden/seed_2024_2p.txt)."""
    game, policy = kum.Game(["Ada", "Bo"], seed=2024), random.Random(7)
    while not game.is_over:
        game.apply(policy.choice(game.legal_action_ids()))
    return game


@pytest.mark.parametrize(("stem", "make"), [("seed_2024", _golden_game), ("custom", _custom_deck_game), ("scenario", _scenario_game)])
def test_pinned_kum_saves_read_back_and_are_written_again_unchanged(stem: str, make: Callable[[], kum.Game]) -> None:
    record, saved = GOLDEN / f"kum_save_{stem}.txt", GOLDEN / f"kum_save_{stem}.json"
    expected = make()
    if os.environ.get("KUM_REGEN_GOLDEN") == "1":  # as _golden_helpers.check_transcript: after a deliberate format change
        record.write_text(expected.record(), encoding="utf-8")
        saved.write_text(json.dumps(expected.to_dict(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    text, data = record.read_text(encoding="utf-8"), json.loads(saved.read_text(encoding="utf-8"))
    assert f'[Format "{records.FORMAT} {records.VERSION}"]' in text and data["format"] == records.FORMAT
    from_record, from_dict = kum.Game.from_record(text), kum.Game.from_dict(data)
    assert from_record == expected and from_dict == expected  # the same position and history
    assert from_dict.redo_count == expected.redo_count and from_record.redo_count == 0  # (a record holds no redo list)
    assert from_dict.rules == expected.rules and from_dict.kings == expected.kings and from_dict.seed == expected.seed
    assert expected.record() == text and json.loads(json.dumps(expected.to_dict())) == data  # written the same way
    from_dict.redo(from_dict.redo_count)
    expected.redo(expected.redo_count)
    assert from_dict == expected


def test_pinned_kum_saves_edited_are_refused_by_name() -> None:
    text = (GOLDEN / "kum_save_custom.txt").read_text(encoding="utf-8")
    setup = next(line for line in text.splitlines() if line.startswith("[Setup "))
    with pytest.raises(kum.InvalidRecordError, match=r"record header: .*races"):
        kum.Game.from_record(text.replace(setup, setup.replace(', \\"goblin\\"', "")))
    data = json.loads((GOLDEN / "kum_save_custom.json").read_text(encoding="utf-8"))
    with pytest.raises(kum.InvalidStateError, match="state: does not match"):
        kum.Game.from_dict({**data, "state": {**data["state"], "turn": data["state"]["turn"] + 1}})
