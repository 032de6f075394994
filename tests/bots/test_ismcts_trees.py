"""ISMCTS's trees: several trees share a decision's budget, their roots summed or (split)
each weighing its share of the root's moves; each has its own seed and its own deals, and
all grow in the bot's own process."""

from __future__ import annotations

from typing import Any

import pytest

import kum_widget as kum
from kum_widget.bots import ISMCTSBot
from kum_widget.bots.common import game_of_view
from kum_widget.core.errors import GameError
from kum_widget.games.court.card_game import CourtOfTheThreeClans


def positions(court: bool, count: int) -> list[tuple[Any, Any, int, list[int]]]:
    """``count`` decisions from real games: (rules, view, seat, legal ids)."""
    out = []
    seed = 0
    while len(out) < count:
        game = kum.Court(seed=seed) if court else kum.Game(2, seed=seed)
        for turn in range(200):
            if game.is_over:
                break
            legal = game.legal_action_ids()
            if turn % 7 == 3 and len(legal) > 1:
                seat = game.current_player
                view = game.view(seat)
                out.append((game_of_view(view), view, seat, legal))
            game.apply(game.legal_actions()[(turn * 5) % len(legal)])
        seed += 1
    return out[:count]


def decide_all(bot: ISMCTSBot, cases: list[tuple[Any, Any, int, list[int]]], rules: Any = None) -> list[Any]:
    out = []
    for game, view, seat, legal in cases:
        move = bot.decide(rules or game, view, seat, legal)
        stats = bot.last_stats
        out.append((move, stats["iterations"], sorted(stats["visits"].items()), stats["root_children"]))
    return out


def test_two_trees_share_the_budget_and_differ_from_one() -> None:
    game, view, seat, legal = positions(False, 1)[0]
    one = ISMCTSBot(iterations=200, trees=1, seed=5)
    two = ISMCTSBot(iterations=200, trees=2, seed=5)
    one.decide(game, view, seat, legal)
    two.decide(game, view, seat, legal)
    assert one.last_stats["trees"] == 1 and two.last_stats["trees"] == 2
    assert one.last_stats["visits"] != two.last_stats["visits"]
    assert two.last_stats["iterations"] <= 200


@pytest.mark.parametrize("court", [False, True], ids=["kum", "court"])
def test_the_games_grow_two_trees_by_default(court: bool) -> None:
    court_settings, kum_settings = ISMCTSBot().settings(CourtOfTheThreeClans()), ISMCTSBot().settings(kum.KingsUnderMountains())
    assert (court_settings["trees"], court_settings["split"]) == (2, False)  # summed
    assert (kum_settings["trees"], kum_settings["split"]) == (2, True)  # split
    assert (ISMCTSBot.defaults["trees"], ISMCTSBot.defaults["split"]) == (1, False)
    game, view, seat, legal = next(p for p in positions(court, 4) if len(p[3]) >= 4)
    bot = ISMCTSBot(seed=1)
    bot.decide(game, view, seat, legal)
    assert bot.last_stats["trees"] == 2 and bot.last_stats["iterations"] <= 400 and bot.last_stats["split"] is not court


@pytest.mark.parametrize("options", [{"trees": 0}, {"trees": 65}, {"trees": 2.0}, {"trees": "2"}, {"trees": True}])
def test_bad_tree_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(GameError, match=next(iter(options))):
        ISMCTSBot(**options)


def test_a_bad_search_trees_on_a_game_is_refused_by_name() -> None:
    _, view, seat, legal = positions(False, 1)[0]

    class Odd(kum.KingsUnderMountains):
        search_hints = {**kum.KingsUnderMountains.search_hints, "trees": 0}

    with pytest.raises(GameError, match=r"Odd\.search_hints\['trees'\]"):
        ISMCTSBot(seed=1).decide(Odd(), view, seat, legal)


def _bust() -> Any:
    from kum_widget.core.examples import Bust

    class Open(Bust):
        perfect_information = True

    return Open


@pytest.mark.parametrize(("trees", "iterations"), [(3, 150), (4, 3), (2, 1)])
def test_more_trees_or_fewer_iterations_than_trees_replay_for_a_seed(trees: int, iterations: int) -> None:
    cases = positions(True, 3) + positions(False, 3)
    first = decide_all(ISMCTSBot(iterations=iterations, trees=trees, seed=2), cases)
    assert decide_all(ISMCTSBot(iterations=iterations, trees=trees, seed=2), cases) == first
    assert all(iterations_run <= iterations for _, iterations_run, _, _ in first)


def test_a_perfect_information_game_grows_its_trees_from_the_position() -> None:
    from kum_widget.bots import bot_move

    moves = []
    for _ in range(2):
        session = kum.core.Session(_bust()(), 3, seed=5)
        bot = ISMCTSBot(iterations=90, trees=2, seed=5)
        got = []
        while not session.is_over and len(got) < 6:
            action = bot_move(session, bot)
            got.append((action, sorted(bot.last_stats["visits"].items())))
            assert bot.last_stats["trees"] == 2
            session.apply(action)
        moves.append(got)
    assert moves[0] == moves[1] and moves[0]


def test_cards_pickle_as_themselves_and_subclasses_too() -> None:
    import pickle
    from dataclasses import dataclass

    from kum_widget.games.court.cards import Card as CourtCard
    from kum_widget.games.kum.cards import Card, MineFace, Race

    card = Card(3, Race.GOBLIN, 7, MineFace(3, 2, 4, True))
    shiny = Shiny(3, Race.GOBLIN, 7, MineFace(3, 2, 4), 9)
    court = CourtCard(1, "sun", "poet", 4, 2, 0)
    for thing in (card, card.mine, shiny, court):
        back = pickle.loads(pickle.dumps(thing))
        assert back == thing and type(back) is type(thing)
    assert pickle.loads(pickle.dumps(shiny)).shine == 9
    assert dataclass  # (the subclass below is one)


from dataclasses import dataclass as _dataclass  # noqa: E402 (for the subclass just below)

from kum_widget.games.kum.cards import Card as _Card  # noqa: E402


@_dataclass(frozen=True, slots=True)
class Shiny(_Card):
    shine: int = 0


def test_split_trees_deal_out_the_moves_and_play_the_best_on_average_of_their_favourites() -> None:
    split = 0
    for game, view, seat, legal in positions(False, 12):
        bot = ISMCTSBot(iterations=200, trees=2, split=True, seed=11)
        move = bot.decide(game, view, seat, legal)
        stats = bot.last_stats
        if len(legal) < 4:  # two moves a tree at least: fewer are not split
            assert not stats["split"]
            continue
        split += 1
        assert stats["split"] and set(stats["visits"]) <= set(legal)
        scores = game.view_heuristic(view, list(legal))  # what the deal's heuristic says (it reads only the view)
        order = [a for _, a in sorted(zip((-x for x in scores), legal, strict=True), key=lambda p: p[0])]
        tops = []
        for share in (order[0::2], order[1::2]):
            seen = [a for a in share if a in stats["visits"]]
            tops.append(max(seen, key=lambda a: (stats["visits"][a], stats["means"][a], a)))
        assert move == max(tops, key=lambda a: (stats["means"][a], stats["visits"][a], -tops.index(a)))
        assert tops == stats["tops"]
    assert split >= 6


@pytest.mark.parametrize("value", [1, "yes", None])
def test_a_bad_split_is_refused(value: Any) -> None:
    if value is not None:
        with pytest.raises(GameError, match="split"):
            ISMCTSBot(split=value)
    _, view, seat, legal = positions(False, 1)[0]
    Odd = type("Odd", (kum.KingsUnderMountains,), {"search_hints": {"split": value if value is not None else "no"}})
    with pytest.raises(GameError, match=r"Odd\.search_hints\['split'\]"):
        ISMCTSBot(seed=1, trees=2).decide(Odd(), view, seat, legal)


def test_a_time_limit_gives_every_tree_grown_here_its_share() -> None:
    game, view, seat, legal = next(p for p in positions(False, 6) if len(p[3]) >= 6)
    bot = ISMCTSBot(iterations=10**6, time_limit=0.2, trees=2, split=True, seed=1)
    bot.decide(game, view, seat, legal)
    assert len(bot.last_stats["visits"]) == len(legal)  # both trees' shares weighed, not the first's alone


def test_with_no_iteration_run_every_kind_of_search_plays_the_heuristics_favourite() -> None:
    for game, view, seat, legal in positions(False, 6):
        scores = game.view_heuristic(view, list(legal))  # the game's heuristic reads only the view: any deal agrees
        favourite = legal[max(range(len(legal)), key=lambda i: (scores[i], -i))]
        for trees, split in ((1, False), (2, False), (2, True)):
            bot = ISMCTSBot(iterations=10**6, time_limit=1e-9, trees=trees, split=split, seed=4)
            assert bot.decide(game, view, seat, legal) == favourite
            assert bot.last_stats["iterations"] == 0


def test_with_no_heuristic_and_no_iteration_run_the_move_is_any_legal_one() -> None:
    from kum_widget.core.game import CardGame

    class Plain(_bust()):  # type: ignore[misc,valid-type]
        heuristic = CardGame.heuristic  # no opinion

    session = kum.core.Session(Plain(), 3, seed=5)
    game, legal = session.game, session.legal_action_ids()
    moves = {ISMCTSBot(iterations=50, time_limit=1e-9, trees=2, seed=s).decide(game, session.view(0), 0, legal, position=session.state)
             for s in range(30)}
    assert moves <= set(legal) and len(moves) > 1


def test_last_stats_names_each_split_trees_favourite_and_the_move_is_one_of_them() -> None:
    game, view, seat, legal = next(p for p in positions(True, 12) if len(p[3]) >= 9)
    bot = ISMCTSBot(iterations=300, trees=3, split=True, seed=6)
    move = bot.decide(game, view, seat, legal)
    stats = bot.last_stats
    assert stats["split"] and len(stats["tops"]) == 3 and move in stats["tops"]
    means = stats["means"]
    assert move == max((a for a in stats["tops"] if a is not None), key=lambda a: means[a])
    unsplit = ISMCTSBot(iterations=300, trees=3, seed=6)
    unsplit.decide(game, view, seat, legal)
    assert unsplit.last_stats["tops"] == [] and not unsplit.last_stats["split"]


def test_split_trees_tied_on_mean_and_visits_play_the_first_trees_move() -> None:
    ties = 0
    for game, view, seat, legal in positions(False, 12):
        if len(legal) < 6:
            continue
        for seed in range(20):
            bot = ISMCTSBot(iterations=4, trees=3, split=True, seed=seed)
            move = bot.decide(game, view, seat, legal)
            stats = bot.last_stats
            tops = [a for a in stats["tops"] if a is not None]
            best = max((stats["means"][a], stats["visits"][a]) for a in tops)
            tied = [a for a in tops if (stats["means"][a], stats["visits"][a]) == best]
            assert move == tied[0]  # the earliest tree's: the heuristic's favourites come first
            ties += len(tied) > 1
    assert ties > 5
