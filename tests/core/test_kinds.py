"""Action kinds (core.game.action_kinds, CardGame.action_kind, CardGame.mirror_kinds), what
check_game asks of them, and a bot that never takes a kind (bots.RestrictedBot through
bot_move, the lab's kum.lab.restricted)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import kum_widget as kum
from kum_widget import core
from kum_widget.bots import GreedyBot, RandomBot, RestrictedBot, bot_move
from kum_widget.core.errors import GameError, GameFault, InvalidOptionError
from kum_widget.core.examples import Bust
from kum_widget.core.game import action_kinds, declares_kinds
from kum_widget.core.kinds import kind_groups, text_kind


def test_a_kind_read_from_text_is_the_words_before_the_first_number() -> None:
    assert text_kind("play giant 1 #62 on mine 1") == "play giant"
    assert text_kind("Guard on {seat1}: guess Priest") == "Guard on"
    assert text_kind("draw deck") == "draw deck" and text_kind("7") == "7" and text_kind("  pass  ") == "pass"


def test_the_shipped_games_declare_their_kinds() -> None:
    kum_game = kum.lab.play.the_game("kum")
    assert declares_kinds(kum_game) and not declares_kinds(Bust())
    g = kum.lab.play_game(0, seed=3)
    state = g.game.setup(2, random.Random(0))
    kinds = set(action_kinds(g.game, state, g.game.legal_actions(state)))
    assert kinds <= {"play on a free mine", "play on a claimed mine", "draw deck", "discard",
                     "draw camp orc", "draw camp dwarf", "draw camp goblin", "draw camp giant"}
    assert type(kum_game).mirror_kinds == (("draw camp orc", "draw camp dwarf", "draw camp goblin", "draw camp giant"),)
    court = kum.lab.play.the_game("court")
    cs = court.setup(1, random.Random(0))
    assert set(action_kinds(court, cs, court.legal_actions(cs))) == {"start"}


def test_mirror_groups_gather_the_kinds_asked_of() -> None:
    class Four(Bust):
        mirror_kinds = (("west", "east"),)

    assert kind_groups(Four(), ["draw", "east", "play", "west"]) == [("draw",), ("west", "east"), ("play",)]
    assert kind_groups(Four(), ["east"]) == [("east",)]  # only the members that were seen
    assert kind_groups(Bust(), ["draw", "play"]) == [("draw",), ("play",)]


@pytest.mark.parametrize(("mirrors", "words"), [
    ("column 1", "must list groups of action kinds"),
    ((("a",),), "each group lists two or more kinds"),
    ((("a", 3),), "a kind is a short text"),
    ((("a", "b"), ("b", "c")), "the kind 'b' is in two groups"),
    ((("a", "x" * 81),), "a kind is a short text"),
])
def test_bad_mirror_kinds_are_named_when_the_class_is_defined(mirrors: Any, words: str) -> None:
    with pytest.raises(InvalidOptionError, match="mirror_kinds") as err:
        type("Bad", (Bust,), {"mirror_kinds": mirrors})
    assert words in str(err.value)


class Kinded(Bust):
    name = "kinded-bust"
    how = "good"

    def action_kind(self, state: Any, action: int) -> Any:
        if self.how == "number":
            return 7
        if self.how == "empty":
            return " "
        if self.how == "moody":
            self.calls = getattr(self, "calls", 0) + 1
            return f"kind {self.calls % 2}"
        return "draw" if self.action_text(state, action) == "draw" else "other"


@pytest.mark.parametrize(("how", "words"), [
    ("number", "action_kind() gave 7 for"),
    ("empty", "a kind is a short text, 1 to 80 characters"),
    ("moody", "then 'kind"),
])
def test_check_game_names_a_kind_that_is_no_short_text(how: str, words: str) -> None:
    game = type(f"Kinded{how}", (Kinded,), {"how": how})()
    report = core.check_game(game, games=2)
    assert "action kinds are text" in report.failures and words in report.failures["action kinds are text"]
    if how != "moody":  # the lab's reading of the kinds refuses them too, naming the method
        s = game.setup(2, random.Random(0))
        with pytest.raises(GameFault, match=r"action_kind\(\) must give a short text"):
            action_kinds(game, s, game.legal_actions(s))


def test_check_game_passes_good_kinds_and_a_game_without() -> None:
    assert core.check_game(Kinded(), games=3).ok
    report = core.check_game(Bust(), games=2)  # its kinds are read off its texts: text, as it stands
    assert report.ok and "action kinds are text" not in report.skipped and "action kinds are text" in report.ran


# -- a bot that never takes a kind --------------------------------------------------------


def test_a_restricted_bot_never_takes_the_kind_while_another_is_left() -> None:
    for seed in range(20):
        s = core.Session(Bust(), 2, seed=seed)
        bot = RestrictedBot(GreedyBot(seed), never="draw")
        while not s.is_over:
            kinds = s.action_kinds()
            action = bot_move(s, bot if s.current_player == 0 else RandomBot(seed))
            if s.current_player == 0:
                chosen = kinds[s.legal_action_ids().index(int(action))]
                assert chosen != "draw" or set(kinds) == {"draw"}
            s.apply(action)


def test_a_restriction_that_never_bites_changes_nothing() -> None:
    """With no restricted kind among the legal actions, the wrapped bot gets the same list and
    makes the same choices with the same draws: the games are the very same."""
    plain = kum.simulate(20, game="bust", bots="greedy", seed=4, progress=False)
    never = kum.simulate(20, game="bust", bots=kum.lab.restricted("greedy", never="no such kind"), seed=4, progress=False)
    assert plain["winners"].tolist() == never["winners"].tolist() and plain["actions"].tolist() == never["actions"].tolist()


def test_restricted_bots_go_to_worker_processes() -> None:
    bot = kum.lab.restricted("greedy", never=["draw", "pass"])
    assert bot.label == "greedy, never 'draw', 'pass'"
    here = kum.simulate(8, game="bust", bots=(bot, "greedy"), seed=1, progress=False)
    there = kum.simulate(8, game="bust", bots=(bot, "greedy"), seed=1, progress=False, executor=2)
    assert here["winners"].tolist() == there["winners"].tolist()


@pytest.mark.parametrize(("never", "words"), [(5, "never must be an action kind"), ([], "one or more action kinds"),
                                               ([3], "a short text"), ({"draw": 1}, "one or more action kinds")])
def test_bad_kinds_to_never_take_are_named(never: Any, words: str) -> None:
    with pytest.raises(GameError, match=words):
        kum.lab.restricted("greedy", never=never)
    with pytest.raises(GameError, match=words):
        RestrictedBot("greedy", never)
