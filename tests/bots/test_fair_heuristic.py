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


@pytest.mark.parametrize("game", [pytest.param(kum.KingsUnderMountains(), marks=pytest.mark.soak),  # check_game of it in make test too (tests/test_conformance.py)
                                  kum.court.CourtOfTheThreeClans(), Bust()])
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
        assert move.text == twin.action_text(plain.decide(twin.game, twin.view(0), 0, twin.legal_action_ids()))
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


def test_a_subclass_that_writes_its_own_heuristic_keeps_fair_heuristic_and_the_checker_tests_it() -> None:
    class Mine(Bust):
        name = "mine-bust"

        def heuristic(self, s: Any, actions: list[int]) -> list[float]:
            return [0.0] * len(actions)

    class Peeks(Bust):  # inherits Bust's fair_heuristic = True, with a heuristic that reads a hidden hand
        name = "peeks-bust"
        heuristic = Peeking.heuristic

    class Said(Mine):
        fair_heuristic = False

    assert Mine.fair_heuristic and Peeks.fair_heuristic and not Said.fair_heuristic
    assert "heuristic reads only the view" not in check_game(Mine(), games=2).failures
    assert "cannot see" in check_game(Peeks(), games=4).failures["heuristic reads only the view"]


@pytest.mark.parametrize("bad", [5, "abc", [1.5], [-1], [10**6], [None], {"a": 1}, ["play 7"], [[1]], ({2},)])
def test_heuristic_scores_refuses_what_is_not_legal_ids_and_changes_nothing(bad: Any) -> None:
    g = kum.Game(2, seed=4)
    before, sid = g.to_dict(), g.state_id
    with pytest.raises(GameError, match="legal action ids"):
        g.heuristic_scores(bad)
    assert g.to_dict() == before and g.state_id == sid


def test_heuristic_scores_of_every_legal_action_by_default() -> None:
    g = kum.Game(2, seed=4)
    ids = g.legal_action_ids()
    assert g.heuristic_scores() == g.heuristic_scores(ids) and len(g.heuristic_scores()) == len(ids)
    illegal = next(a for a in range(10**4) if a not in ids)
    with pytest.raises(GameError, match=str(illegal)):
        g.heuristic_scores([ids[0], illegal])


def test_the_checker_catches_a_heuristic_that_changes_the_position() -> None:
    class Scribbling(Bust):
        name = "scribbling-bust"
        fair_heuristic = True

        def heuristic(self, s: Any, actions: list[int]) -> list[float]:
            s.pile.append(0)
            return [0.0] * len(actions)

    assert "changed the position" in check_game(Scribbling(), games=2).failures["heuristic reads only the view"]


def test_without_determinize_the_fairness_check_is_skipped_and_says_why() -> None:
    class Undealt(Bust):
        name = "undealt-bust"

        def determinize(self, view: dict[str, Any], seat: int, rng: Any) -> Any:
            raise NotImplementedError

    report = check_game(Undealt(), games=2)
    assert "unproven" in report.skipped["heuristic reads only the view"]


def test_a_bot_that_says_scores_only_but_has_no_pick_is_shown_its_view() -> None:
    class Odd:
        name, scores_only = "odd bot", True

        def choose(self, view: dict[str, Any], legal: list[Any]) -> Any:
            assert view["seat"] == 0
            return legal[0]

    g = kum.Game(2, seed=1, first_player=0)
    assert bot_move(g, Odd()) == g.legal_actions()[0]
