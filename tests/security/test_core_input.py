"""Hostile input to the core and to Kings Under Mountains' public calls: each input that once
escaped as a bare Python error or changed a session it was refused on is refused by name, the
session as it was. (The files the library reads and writes: test_files.py; a session
interrupted or failed by its game's own code: test_session_faults.py.)"""

from __future__ import annotations

import re
from typing import Any

import pytest
from game_from_docs import Expeditions

import kum_widget as kum
from kum_widget import core
from kum_widget.core.session import new_session


def test_describe_takes_only_an_event() -> None:
    game = kum.Game(seed=1)
    for bad in (None, 3, "Played", object()):
        with pytest.raises(kum.KumError, match="describe takes an event"):
            game.describe(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("call", [
    lambda g: g.discard(10**5000), lambda g: g.play(10**5000, 1), lambda g: g.discard(-1), lambda g: g.play(80, 1),
])
def test_a_card_id_out_of_range_is_named_before_it_is_written_out(call: Any) -> None:
    game = kum.Game(seed=1)
    before = game.to_dict()
    with pytest.raises(kum.InvalidActionError, match=r"card id must be 0\.\.79"):
        call(game)
    assert game.to_dict() == before


@pytest.mark.parametrize("seed", ["1" * 40, str(2**64)])
def test_a_record_s_seed_is_in_the_range_game_takes(seed: str) -> None:
    record = re.sub(r'\[Seed "\d+"\]', f'[Seed "{seed}"]', kum.Game(seed=1).record())
    with pytest.raises(kum.KumError, match=r"seed must be a whole number 0\.\.2\*\*64-1"):
        kum.Game.from_record(record)
    assert kum.Game.from_record(record.replace(seed, str(2**64 - 1))).seed == 2**64 - 1


def test_a_saved_game_s_seed_is_in_the_range_game_takes() -> None:
    data = kum.Game(seed=1).to_dict()
    data["seed"] = 10**40
    with pytest.raises(kum.KumError, match=r"seed must be a whole number 0\.\.2\*\*64-1"):
        kum.Game.from_dict(data)  # it said the position did not match


def test_an_option_name_that_is_not_text_is_named() -> None:
    rules = kum.Court(seed=1).game
    for bad in ({1: 2}, {None: 2}, {("a",): 1}):
        with pytest.raises(core.InvalidOptionError, match="an option's name is text"):
            rules.with_options(bad)


def test_a_long_unknown_option_is_cut_in_the_message() -> None:
    rules = kum.Court(seed=1).game
    long = "z" * 20_000
    for call in (lambda: rules.with_options({long: 1}), lambda: new_session(rules, **{long: 1})):
        with pytest.raises(core.InvalidOptionError, match="unknown option 'zzz") as err:
            call()
        assert len(str(err.value)) < 400


def test_a_saved_option_a_game_s_own_init_fails_on_is_a_save_error() -> None:
    """Expeditions (written from GAMES.md) formats a bad 'hand' into its message: a 5001-digit
    one raised Python's bare ValueError through Session.from_dict."""
    data = core.Session(Expeditions(), 2, seed=3).to_dict()
    data["options"]["hand"] = 10**5000
    with pytest.raises(core.InvalidSaveError, match=r"options: Expeditions\(\.\.\.\) refused them \(ValueError"):
        core.Session.from_dict(data, game=Expeditions())


@pytest.mark.parametrize("bad", [5, None, "stuck=draw", [("stuck", "draw")]])
def test_kum_rules_with_options_takes_a_mapping_or_rules(bad: Any) -> None:
    rules = kum.Game(seed=1).game
    with pytest.raises(kum.KumError, match=r"options must be a kum\.Rules or a mapping"):
        rules.with_options(bad)  # dict(5) raised TypeError


@pytest.mark.parametrize("bad", [5, "expeditions", int, object()])
def test_a_loader_s_game_must_be_a_card_game(bad: Any) -> None:
    data = core.Session(Expeditions(), 2, seed=3).to_dict()
    with pytest.raises(core.InvalidSaveError, match="game: a CardGame or its class"):
        core.Session.from_dict(data, game=bad)  # AttributeError: type object 'int' has no attribute 'name'
