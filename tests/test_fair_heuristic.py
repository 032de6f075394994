"""A fair heuristic (``CardGame.fair_heuristic``) lets bot_move hand the greedy bot the
scores alone: no view, no dealt position. The checker proves a heuristic fair; a game
that does not say so, or a bot that decides for itself, keeps the view path."""

from __future__ import annotations

from typing import Any

import pytest
from _kum_helpers import play_twins

import kum_widget as kum
from kum_widget.bots import GreedyBot, bot_move
from kum_widget.core import Session
from kum_widget.core.checker import check_game
from kum_widget.core.errors import GameError
from kum_widget.core.examples import Bust


class Peeking(Bust):
    """A heuristic that reads the next seat's hand: a greedy bot would cheat with it."""

    name = "peeking-bust"
    fair_heuristic = False

    def heuristic(self, s: Any, actions: list[int]) -> list[float]:
        other = s.hands[(s.turn + 1) % len(s.hands)]
        return [float(sum(other)) if a < 100 else 0.0 for a in actions]


class Unsaid(Bust):
    """Bust's fair heuristic, but the game does not declare it."""

    name = "unsaid-bust"
    fair_heuristic = False


class ViewCounting(kum.Game):
    views = 0

    def view(self, seat: int | None = None) -> dict[str, Any]:
        type(self).views += 1
        return super().view(seat)


def test_the_checker_catches_a_heuristic_that_reads_hidden_cards() -> None:
    report = check_game(Peeking(), games=4)
    assert "heuristic reads only the view" in report.failures
    assert "cannot see" in report.failures["heuristic reads only the view"]


@pytest.mark.parametrize("game", [kum.KingsUnderMountains(), kum.court.CourtOfTheThreeClans(), Bust()])
def test_every_game_that_says_fair_passes_the_check(game: Any) -> None:
    assert game.fair_heuristic
    report = check_game(game, games=4)
    assert "heuristic reads only the view" not in report.failures, report.failures


def test_greedy_through_bot_move_builds_no_view_and_plays_as_from_the_view() -> None:
    ViewCounting.views = 0
    play_twins(ViewCounting(2, seed=11), kum.Game(2, seed=11), [GreedyBot(1), GreedyBot(2)], [GreedyBot(1), GreedyBot(2)])
    assert ViewCounting.views == 0


def test_court_greedy_plays_as_from_the_view() -> None:
    g, twin = kum.Court(seed=5), kum.Court(seed=5)
    fast, plain = GreedyBot(3), GreedyBot(3)
    while not g.is_over:
        move = bot_move(g, fast)
        assert move == twin.action_text(plain.decide(twin.game, twin.view(0), 0, twin.legal_action_ids()))
        g.apply(move)
        twin.apply(move)


def test_a_game_that_does_not_say_fair_keeps_the_view_path() -> None:
    s = Session(Unsaid(), seed=3)
    with pytest.raises(GameError, match="fair_heuristic"):
        s.heuristic_scores(s.legal_action_ids())
    twin = Session(Bust(), seed=3)
    a, b = GreedyBot(7), GreedyBot(7)
    while not s.is_over:
        move = bot_move(s, a)
        assert move == bot_move(twin, b)  # the same choice by either path
        s.apply(move)
        twin.apply(move)


def test_a_greedy_subclass_that_decides_for_itself_is_asked() -> None:
    class Last(GreedyBot):
        def decide(self, game: Any, view: dict[str, Any], seat: int, legal: Any, *, position: Any = None) -> int:
            assert view["seat"] == seat  # it is shown its view, as any deciding bot is
            return list(legal)[-1]

    g = kum.Game(2, seed=2)
    assert not Last(0).scores_only and GreedyBot(0).scores_only
    assert bot_move(g, Last(0)) == g.legal_actions()[-1]
