"""Kings Under Mountains' Kings as a rule option, ``races`` (text such as ``"giant,orc"``):
declared with the other options, so ``with_options``, records, the lab and the board carry it;
``kum.Game(races=[...])`` overrides it, and a record keeps the Kings it was dealt."""

from __future__ import annotations

import json

import pytest

import kum_widget as kum
from kum_widget.core import Session
from kum_widget.core.records import split_record

GIANT, ORC, DWARF = kum.Race.GIANT, kum.Race.ORC, kum.Race.DWARF


def test_the_rule_deals_the_kings_and_leaves_the_deck_as_the_seed_deals_it() -> None:
    rules = kum.Rules(races="giant,orc")
    assert rules.races == "giant,orc" and rules.to_dict()["races"] == "giant,orc" and rules.diff() == {"races": "giant,orc"}
    assert kum.Rules().races == "" and "races" not in kum.Rules().diff()
    for seed in range(6):
        ruled, plain = kum.Game(2, seed=seed, rules=rules), kum.Game(2, seed=seed)
        assert ruled.kings == (GIANT, ORC)
        assert ruled.to_dict()["state"]["deck"] == plain.to_dict()["state"]["deck"]
    assert kum.Game(2, seed=1, rules=rules, races=["dwarf", "orc"]).kings == (DWARF, ORC)  # the argument wins
    assert kum.Game.from_scenario(2, rules=rules).kings == (GIANT, ORC)


@pytest.mark.parametrize("given", ["Giants, O", "giant orc", ["giant", "orc"], ("giant", kum.Race.ORC)])
def test_the_rule_reads_names_and_lists_as_one_text(given: object) -> None:
    assert kum.Rules(races=given).races == "giant,orc"  # type: ignore[arg-type]
    assert kum.KingsUnderMountains(races=given).options()["races"] == "giant,orc"
    assert kum.KingsUnderMountains().with_options({"races": given}).options()["races"] == "giant,orc"


@pytest.mark.parametrize(("given", "words"), [
    ("giant,elf", "rule 'races': unknown race 'elf'"),
    ("orc,orc", "rule 'races' must name 2-4 different King races"),
    ("orc", "rule 'races' must name 2-4"),
    ("orc,dwarf,goblin,giant,orc", "rule 'races' must name 2-4"),
    (5, "rule 'races' must be text like 'giant,orc'"),
    ([1, 2], "rule 'races': a race must be text"),
])
def test_bad_races_are_named(given: object, words: str) -> None:
    with pytest.raises(kum.InvalidRulesError, match=words):
        kum.Rules(races=given)  # type: ignore[arg-type]
    with pytest.raises(kum.InvalidRulesError, match=words):
        kum.KingsUnderMountains().with_options({"races": given})


def test_a_rule_for_another_number_of_players_is_refused_when_dealt() -> None:
    with pytest.raises(kum.InvalidStateError, match=r"rule 'races' names 2 King races \(giant,orc\): a game of 3 players needs 3"):
        kum.Game(3, rules=kum.Rules(races="giant,orc"))
    with pytest.raises(ValueError, match="a game of 3 players needs 3"):
        kum.simulate(2, players=3, rules={"races": "giant,orc"}, progress=False)


def test_records_dicts_and_sessions_carry_the_rule() -> None:
    game = kum.Game(["Ada", "Bo"], seed=4, rules=kum.Rules(races="dwarf,giant"))
    for action in game.legal_actions()[:1]:
        game.apply(action)
    record = game.record()
    tags, _ = split_record(record)  # the rule among the options, the Kings dealt in the setup
    assert json.loads(tags["Options"])["races"] == "dwarf,giant" and json.loads(tags["Setup"])["races"] == ["dwarf", "giant"]
    for back in (kum.Game.from_record(record), kum.Game.from_dict(game.to_dict())):
        assert back == game and back.rules.races == "dwarf,giant"
    session = Session(kum.KingsUnderMountains(races="dwarf,giant"), 2, seed=4)  # the core's session of the game
    assert session.game.options()["races"] == "dwarf,giant"
    assert Session.from_record(session.record()).game.options()["races"] == "dwarf,giant"


def test_a_record_of_kings_given_by_hand_reads_back() -> None:
    game = kum.Game(["Ada", "Bo"], seed=9, races=["giant", "orc"])  # races given by hand: no rule in the record
    record = game.record()
    tags, _ = split_record(record)
    assert json.loads(tags["Options"])["races"] == "" and json.loads(tags["Setup"])["races"] == ["giant", "orc"]
    back = kum.Game.from_record(record)
    assert back == game and back.kings == (GIANT, ORC) and back.rules.races == ""


def test_the_board_deals_under_the_rule() -> None:
    board = kum.GameWidget(rules={"races": "giant,orc"}, seed=2, bot_delay=0)
    assert board.game.kings == (GIANT, ORC) and board.game.rules.races == "giant,orc"
    board.new_game(seed=3)
    assert board.game.kings == (GIANT, ORC)
    board.new_game(seed=3, rules={"races": "dwarf,orc"})
    assert board.game.kings == (DWARF, ORC)
    assert kum.GameWidget(races=["orc", "giant"], seed=2, bot_delay=0).game.kings == (ORC, GIANT)  # kum.Game's own option
