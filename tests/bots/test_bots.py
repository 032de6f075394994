"""Bots: they answer with legal actions from their seat's view alone, and GreedyBot beats RandomBot."""

from __future__ import annotations

import copy

import pytest

import kum_widget as kum
from kum_widget.bots import GreedyBot, ISMCTSBot, RandomBot, bot_move, make_bot


def play_out(game: kum.Game, bots: list) -> kum.Game:
    while not game.is_over:
        game.apply(bot_move(game, bots[game.current_player]))
    return game


def test_a_bot_says_its_settings_and_has_no_thoughts_before_its_first_decision() -> None:
    """ISMCTSBot's repr names every setting a search depends on (a notebook shows it); the
    greedy bot has no analysis to show before it has weighed a decision."""
    text = repr(ISMCTSBot(iterations=50, seed=1))
    assert text.startswith("ISMCTSBot(iterations=50, time_limit=None, ") and text.endswith(")")
    assert all(f"{name}=" in text for name in ("prior", "exploration", "breadth", "trees", "split"))
    assert GreedyBot(seed=1).analysis() is None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_finish_games(players: int) -> None:
    game = play_out(kum.Game(players, seed=11), [GreedyBot(1), RandomBot(2), GreedyBot(3), RandomBot(4)][:players])
    assert game.is_over and game.winners()


def test_bots_see_only_the_view() -> None:
    seen: list[dict] = []

    class Spy:
        name = "spy"

        def choose(self, view, legal):
            seen.append(copy.deepcopy(view))
            return legal[0]

    game = kum.Game(2, seed=4)
    for _ in range(6):
        game.apply(bot_move(game, Spy()))
    for view in seen:
        other = view["players"][1 - view["seat"]]
        assert all(card["id"] is None for card in other["hand"])


def test_greedy_is_deterministic_for_a_seed() -> None:
    a = play_out(kum.Game(2, seed=5), [GreedyBot(1), GreedyBot(2)])
    b = play_out(kum.Game(2, seed=5), [GreedyBot(1), GreedyBot(2)])
    assert a.record() == b.record()


def test_greedy_beats_random() -> None:
    wins = 0
    for g in range(20):
        greedy_seat = g % 2
        bots = [RandomBot(g), RandomBot(g)]
        bots[greedy_seat] = GreedyBot(g)
        game = play_out(kum.Game(2, seed=100 + g), bots)
        wins += game.winners() == [greedy_seat]
    assert wins >= 16


def test_make_bot() -> None:
    assert isinstance(make_bot("greedy"), GreedyBot)
    assert isinstance(make_bot("Random"), RandomBot)
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("alphazero")
    with pytest.raises(ValueError):
        make_bot(42)


def test_bot_answering_illegal_action_is_refused() -> None:
    class Bad:
        name = "bad"

        def choose(self, view, legal):
            return "draw camp orc"

    game = kum.Game(2, seed=1)
    before = game.to_dict()
    with pytest.raises(ValueError, match="not a legal action"):
        bot_move(game, Bad())
    assert game.to_dict() == before


@pytest.mark.parametrize("visibility", ["physical", "hidden", "open"])
@pytest.mark.parametrize("players", [2, 3])
def test_bots_play_whole_games_under_every_visibility(visibility: str, players: int) -> None:
    """D6's variants change what a view holds ("hidden": other hands show nothing at all;
    "open": every card with its id); the bots deal positions from any of them."""
    rules = kum.Rules(visibility=visibility)
    bots = [GreedyBot(1), ISMCTSBot(iterations=6, seed=2), RandomBot(3)][:players]
    game = play_out(kum.Game(players, seed=21 + players, rules=rules), bots)
    assert game.is_over and game.winners()


@pytest.mark.parametrize("wrap", ["noisy", "restricted"])
def test_a_wrapped_bot_in_steps_decides_as_at_once(wrap: str) -> None:
    """A board runs a wrapped bot in steps (``deciding``): the same choices as its ``decide``,
    NoisyBot's coin drawn first in both, so the same draws of its generator."""
    from kum_widget.bots.bot import run_through
    from kum_widget.bots.noisy import NoisyBot
    from kum_widget.bots.restricted import RestrictedBot

    def wrapped() -> NoisyBot | RestrictedBot:
        inner = ISMCTSBot(iterations=40, seed=3)
        return NoisyBot(inner, 0.4, seed=5) if wrap == "noisy" else RestrictedBot(inner, never="draw deck")

    at_once, in_steps = wrapped(), wrapped()
    game = kum.Game(2, seed=6)
    for _ in range(12):
        seat, ids = game.current_player, game.legal_action_ids()
        view = game.view(seat)
        expected = at_once.decide(game.game, view, seat, ids)
        assert run_through(in_steps.deciding(game.game, view, seat, ids)) == expected
        game.apply(game.legal_actions()[ids.index(expected)])
