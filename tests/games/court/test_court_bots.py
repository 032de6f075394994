"""The court solitaire's bots: the heuristic's quick power arithmetic agrees with the
rules' own count, the bots play whole games, and ISMCTS reads a solitaire by its score."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

import kum_widget as kum
from kum_widget import core
from kum_widget.bots import make_bot
from kum_widget.bots.base import bot_move
from kum_widget.core import top_actions
from kum_widget.games.court import CourtOfTheThreeClans
from kum_widget.games.court.heuristic import Worths, _fight_value, _power_delta, card_value
from kum_widget.games.court.state import BUY, FIGHT, PASS, SKIP, SPACES, START


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


def _plain_scores(game: CourtOfTheThreeClans, s: Any, legal: list[int]) -> list[float]:
    """The heuristic's scores by the plain formula: card_value less a third of the price;
    a pass by its Tax Collectors; a fight by its prince."""
    want = []
    for a in legal:
        if a == PASS:
            want.append((1 + game.tax_collectors(s)) / 3 + 0.2)
        elif a == SKIP:
            want.append(0.0)
        elif a >= FIGHT:
            want.append(_fight_value(game, s, s.row[a - FIGHT], game.strength(s)))
        else:
            p, x = divmod(a - (START if a < BUY else BUY), SPACES)
            worth = card_value(game, s, s.row[p], x)
            want.append(worth if a < BUY else worth - game.price(s.row[p], p + 1) / 3)
    return want


def test_the_heuristic_remembers_courts_without_mixing_them_up() -> None:
    # The heuristic keeps what it worked out about each Royal Court for the next time it
    # meets that court. Whatever the cache holds, every score must be the plain formula's
    # (card_value less a third of the price; a pass by its Tax Collectors; a fight by its
    # prince), to the last bit: the same courts come back here with other rows, other CP
    # and other phases.
    for rules in ({}, {"price": "printed"}, {"court_vp": False}):
        game, rng = CourtOfTheThreeClans(**rules), random.Random(8)
        Worths.LIMIT, limit = 64, Worths.LIMIT  # small, so clearing a full cache is crossed too
        try:
            for seed in range(60):
                s = game.setup(1, random.Random(seed))
                while not game.is_over(s):
                    legal = game.legal_actions(s)
                    for _ in range(2):  # the first call may fill the cache, the second reads it
                        assert game.heuristic(s, legal) == _plain_scores(game, s, legal), (s.court, s.row, legal)  # to the last bit
                    game.apply(s, rng.choice(legal))
            assert 0 < len(game.worths) <= 64
        finally:
            Worths.LIMIT = limit
    assert len(pickle.loads(pickle.dumps(game)).worths) == 0, "a pickled game's cache starts empty"


@pytest.mark.parametrize("rules", [{}, {"full_court": "closed"}, {"price": "printed", "fights_per_turn": 2}, {"court_vp": False}])
def test_best_actions_are_exactly_the_heuristics_favourites(rules: dict[str, Any]) -> None:
    # ISMCTS's rollouts play one of best_actions() at nearly every step; the court finds
    # them without scoring every buy. Whatever the cache holds, they must be the
    # actions the heuristic scores top (ties kept, in the legal order), in every phase,
    # in a court with gaps and in a full one (where a buy replaces a card, or is closed).
    game, rng = CourtOfTheThreeClans(**rules), random.Random(3)
    Worths.LIMIT, limit = 64, Worths.LIMIT
    full = ties = 0
    try:
        for seed in range(40):
            s = game.setup(1, random.Random(seed))
            while not game.is_over(s):
                legal = game.legal_actions(s)
                before = s.copy()
                want = top_actions(legal, game.heuristic(s, legal))
                assert game.best_actions(s, legal) == want, (s.court, s.row, s.cp, legal)
                assert s == before  # read, never written
                for other in (legal[::2], legal[::-1]):  # not the whole legal list in its order: scored in full
                    assert game.best_actions(s, other) == top_actions(other, game.heuristic(s, other))
                full += None not in s.court and s.phase == "buy"
                ties += len(want) > 1
                best = game.best_actions(s, legal)  # mostly the favourite, so the court fills up
                game.apply(s, rng.choice(best if best and rng.random() < 0.7 else legal))
        assert full > 50 and ties > 50, (full, ties)  # both cases were met
    finally:
        Worths.LIMIT = limit


def test_a_tie_between_two_spaces_names_both() -> None:
    # A Tax Collector gains the same wherever it goes in an empty row: every empty space
    # of that row ties, and the best_actions list holds them all, in the legal order.
    g = kum.Court.from_scenario(row=["sun tax collector 3", "daemon prince 7", None, None],
                                court=["moon general 4", None, None, None, None, None, None, None], phase="buy", cp=5)
    game, s = g.game, g._state
    legal = game.legal_actions(s)
    best = game.best_actions(s, legal)
    assert best == top_actions(legal, game.heuristic(s, legal))
    assert len(best) > 1 and best == sorted(best) and all(BUY <= a < BUY + SPACES for a in best), best


def test_a_court_that_writes_its_own_heuristic_takes_the_plain_best_actions_back() -> None:
    def passing(self: Any, s: Any, actions: list[int]) -> list[float]:
        return [float(a == PASS) for a in actions]

    stale = type("Stale", (CourtOfTheThreeClans,), {"heuristic": passing})  # the court's own best_actions: inherited
    assert "best actions agree" in core.check_game(stale(), games=3).failures

    class Mine(CourtOfTheThreeClans):
        heuristic = passing
        best_actions = core.CardGame.best_actions  # (GAMES.md: write both, or take the plain one back)

    game = Mine()
    s = game.setup(1, random.Random(1))
    while s.phase == "setup":
        game.apply(s, game.legal_actions(s)[0])
    legal = game.legal_actions(s)
    assert game.best_actions(s, legal) == [PASS]  # its own heuristic's favourite, not the court's
    assert core.check_game(game, games=3).ok


def test_a_court_with_its_own_powers_is_scored_by_the_plain_formula() -> None:
    # The per-court sums re-derive the Poets' and Courtesans' powers and a Minister's CP;
    # a subclass that changes them must still get card_value's scores and favourites.
    class DoublePoets(CourtOfTheThreeClans):
        def power_of(self, court: Any, space: int) -> int:
            card = court[space]
            return 2 * super().power_of(court, space) if card is not None and self.role_of[card] == "poet" else super().power_of(court, space)

        def minister_gain(self, court: Any, space: int) -> int:
            return 2 * super().minister_gain(court, space)

    game, rng, differs = DoublePoets(), random.Random(6), 0
    assert not game.plain_formulas and CourtOfTheThreeClans().plain_formulas
    for seed in range(25):
        s = game.setup(1, random.Random(seed))
        while not game.is_over(s):
            legal = game.legal_actions(s)
            scores = game.heuristic(s, legal)
            assert scores == _plain_scores(game, s, legal)
            assert game.best_actions(s, legal) == top_actions(legal, scores)
            differs += scores != _plain_scores(CourtOfTheThreeClans(), s, legal)
            game.apply(s, rng.choice(legal))
    assert differs > 20  # the doubled powers did change scores
    assert core.check_game(game, games=3).ok


def test_ismcts_plays_a_solitaire_by_its_score() -> None:
    # With one seat every game is a "win": the reward must come from the score, so a
    # short search already prefers defeating a prince (VP) to skipping the fight.
    g = kum.Court.from_scenario(row=["sun general 4", "daemon prince 7", None, None],
                                court=["moon general 4", "earth general 4", None, None, None, None, None, None],
                                phase="fight", cp=3)
    bot = make_bot("ismcts", seed=1)
    bot.iterations = 200
    assert bot_move(g, bot).text == "fight place 2"


def test_every_bot_finishes_games() -> None:
    for name in ("random", "greedy"):
        for seed in range(5):
            g, bot = kum.Court(seed=seed), make_bot(name, seed=seed)
            while not g.is_over:
                g.apply(bot_move(g, bot))
            assert g.scores()[0] == sum(g.score_breakdown().values())
