"""The court solitaire's bots: the heuristic's quick power arithmetic agrees with the
rules' own count, the bots play whole games, and ISMCTS reads a solitaire by its score."""

from __future__ import annotations

import random

import kum_widget as kum
from kum_widget.bots import make_bot
from kum_widget.bots.base import bot_move
from kum_widget.games.court import CourtOfTheThreeClans
from kum_widget.games.court.heuristic import _power_delta


def test_the_power_delta_matches_a_full_recount() -> None:
    game = CourtOfTheThreeClans()
    rng = random.Random(5)
    cards = list(game.table.court_cards)
    for _ in range(3000):
        court: list[int | None] = [None] * 8
        picks = rng.sample(cards, 9)
        for x in range(8):
            if rng.random() < 0.7:
                court[x] = picks[x]
        card, space = picks[8], rng.randrange(8)
        before = sum(game.power_of(court, y) for y in range(8))
        trial = court[:]
        trial[space] = card
        after = sum(game.power_of(trial, y) for y in range(8))
        assert _power_delta(game, court, card, space) == after - before, (court, card, space)
        assert court == [c for c in court]  # unchanged


def test_ismcts_plays_a_solitaire_by_its_score() -> None:
    # With one seat every game is a "win": the reward must come from the score, so a
    # short search already prefers defeating a prince (VP) to skipping the fight.
    g = kum.Court.from_scenario(row=["sun general 4", "daemon prince 7", None, None],
                                court=["moon general 4", "earth general 4", None, None, None, None, None, None],
                                phase="fight", cp=3)
    bot = make_bot("ismcts", seed=1)
    bot.iterations = 200
    assert bot_move(g, bot) == "fight place 2"


def test_every_bot_finishes_games() -> None:
    for name in ("random", "greedy"):
        for seed in range(5):
            g, bot = kum.Court(seed=seed), make_bot(name, seed=seed)
            while not g.is_over:
                g.apply(bot_move(g, bot))
            assert g.scores()[0] == sum(g.score_breakdown().values())
