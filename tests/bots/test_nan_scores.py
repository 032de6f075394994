"""A game whose heuristic scores NaN, or whose view holds NaN, in the bots and the checker
(issue 32, item 12).

A NaN score is a bug in the game's heuristic: in play it counts as the worst score (the
bots play on, as ISMCTS's tree already did), and ``check_game`` names the action it was
given for. A NaN in a view is not JSON: ``check_game`` says so, with the key's path,
and blames no other check."""

from __future__ import annotations

import math
from typing import Any

import pytest

from kum_widget.bots import GreedyBot, ISMCTSBot
from kum_widget.bots.base import bot_move
from kum_widget.core.checker import check_game
from kum_widget.core.errors import GameFault
from kum_widget.core.examples import DRAW, Bust
from kum_widget.core.game import top_actions
from kum_widget.core.session import Session

NAN, INF = math.nan, math.inf


@pytest.mark.parametrize(("scores", "best"), [
    ([NAN, 0.5], [2]),
    ([0.5, NAN], [1]),
    ([NAN, NAN], [1, 2]),  # no opinion at all: every action ties
    ([NAN, -INF], [2]),
    ([NAN, INF], [2]),
    ([-INF, -INF], [1, 2]),
    ([float("nan"), 0.5], [2]),  # a NaN made afresh, not the math module's
])
def test_top_actions_count_nan_as_the_worst_and_never_name_nothing(scores: list[float], best: list[int]) -> None:
    assert top_actions([1, 2], scores) == best


def test_top_actions_with_three_and_a_nan_first() -> None:
    assert top_actions([4, 5, 6], [NAN, 0.25, 0.25 + 1e-12]) == [5, 6]
    assert top_actions([4, 5, 6], [NAN, NAN, -1.0]) == [6]


@pytest.mark.parametrize("scores", [[None, 0.5], ["1", 0.5], [0.5, object()]])
def test_top_actions_refuse_scores_that_are_not_numbers_by_name(scores: list[Any]) -> None:
    with pytest.raises(GameFault, match="heuristic"):
        top_actions([1, 2], scores)


class NanFirst(Bust):
    """Bust whose heuristic scores the first legal action NaN (a game's bug)."""

    name = "bust-nan-first"

    def heuristic(self, s: Any, actions: list[int]) -> list[float]:
        return [NAN, *super().heuristic(s, actions)[1:]]


class NanDraw(Bust):
    """Bust whose heuristic scores drawing NaN, made afresh each time (0 * inf)."""

    name = "bust-nan-draw"

    def heuristic(self, s: Any, actions: list[int]) -> list[float]:
        return [0.0 * INF if a == DRAW else x for a, x in zip(actions, super().heuristic(s, actions), strict=True)]


class Unfair(NanFirst):
    fair_heuristic = False  # bot_move hands the greedy bot the view: its decide() path


@pytest.mark.parametrize("game", [NanFirst(), Unfair(), NanDraw()], ids=["fair", "view", "draw"])
def test_the_greedy_bot_plays_past_a_nan_score(game: Any) -> None:
    for seed in range(5):
        s = Session(game, 2, seed=seed)
        moves = 0
        while not s.is_over:
            legal = s.legal_action_ids()
            scores = game.heuristic(game.clone(s.state), legal)
            action = bot_move(s, GreedyBot(seed))
            aid = s.action_id(str(action)) if not isinstance(action, int) else action
            if len(legal) > 1 and any(not math.isnan(x) for x in scores):
                assert not math.isnan(scores[legal.index(aid)])  # never the NaN-scored action while another has a score
            s.apply(action)
            moves += 1
        assert moves


def test_ismcts_plays_past_a_nan_score() -> None:
    s = Session(NanFirst(), 2, seed=3)
    while not s.is_over:
        s.apply(bot_move(s, ISMCTSBot(iterations=30, seed=1)))


def test_check_game_names_the_action_a_heuristic_scores_nan() -> None:
    report = check_game(NanDraw(), games=4)
    assert set(report.failures) == {"best actions agree"}, report.failures
    message = report.failures["best actions agree"]
    assert "NaN" in message and "'draw'" in message, message


def test_check_game_names_a_nan_scored_first_action() -> None:
    report = check_game(NanFirst(), games=3)
    assert set(report.failures) == {"best actions agree"}, report.failures
    assert "NaN" in report.failures["best actions agree"] and "'play" in report.failures["best actions agree"]


class NanView(Bust):
    """Bust whose views hold a NaN, made afresh each time: not JSON."""

    name = "bust-nan-view"

    def view(self, s: Any, seat: int | None) -> dict[str, Any]:
        v = super().view(s, seat)
        v["odds"] = {"bust": [0.5, float("nan")]}
        return v


class InfView(Bust):
    name = "bust-inf-view"

    def view(self, s: Any, seat: int | None) -> dict[str, Any]:
        return {**super().view(s, seat), "limit": [INF]}


def test_check_game_says_a_nan_in_a_view_is_not_json_and_blames_nothing_else() -> None:
    report = check_game(NanView(), games=3)
    assert set(report.failures) == {"views are JSON-safe"}, report.failures
    message = report.failures["views are JSON-safe"]
    assert "NaN is not JSON" in message and "['odds']['bust'][1]" in message, message


def test_check_game_says_an_infinity_in_a_view_is_not_json() -> None:
    report = check_game(InfView(), games=2)
    assert set(report.failures) == {"views are JSON-safe"}, report.failures
    message = report.failures["views are JSON-safe"]
    assert "inf is not JSON" in message and "['limit'][0]" in message, message
