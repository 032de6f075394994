"""A game written from GAMES.md alone (tests/game_from_docs.py) gets what the page promises:
the checker passes, the three bots play it, the lab runs it, records read back, bad input
is refused."""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest
from game_from_docs import DISCARD, Expeditions, color, rank

import kum_widget as kum
from kum_widget import core
from kum_widget.bots import GreedyBot, ISMCTSBot, RandomBot, bot_move

HAND, DECK_SIZE = 5, 36


def play_out(session: core.Session, bots: list[Any], *, limit: int = 200) -> core.Session:
    for _ in range(limit):
        if session.is_over:
            return session
        session.apply(bot_move(session, bots[session.current_player]))
    raise AssertionError(f"no end after {limit} actions")


def snapshot(session: core.Session) -> tuple[Any, ...]:
    return session.to_dict(), session.state_id, session.view(None), session.legal_actions()


# -- 1. the checker -------------------------------------------------------------------


@pytest.mark.parametrize("options", [{}, {"hand": 8, "cost": 0}, {"hand": 1}])
def test_check_game_passes(options: dict[str, Any]) -> None:
    report = core.check_game(Expeditions(**options), games=30)
    assert report.ok and report.skipped == {}, str(report)
    assert report.steps > 30 * 10, str(report)  # it really played


def test_check_game_catches_a_leak() -> None:
    """The checker is not vacuous on this game: a view that shows the other hand fails."""

    class Leaky(Expeditions):
        name = "expeditions-leaky"

        def view(self, s: Any, seat: int | None) -> dict[str, Any]:
            v = super().view(s, seat)
            v["peek"] = [{"id": c} for h in s.hands for c in h]
            return v

    report = core.check_game(Leaky(), games=3)
    assert not report.ok and "hidden cards stay hidden" in str(report), str(report)


# -- 2. the bots ----------------------------------------------------------------------


def bot(kind: str, seed: int) -> Any:
    return {"random": RandomBot, "greedy": GreedyBot}[kind](seed=seed) if kind != "ismcts" else ISMCTSBot(iterations=200, seed=seed)


@pytest.mark.parametrize("kinds", [("random", "greedy"), ("greedy", "random"), ("ismcts", "random"), ("greedy", "ismcts"), ("random", "random")])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_bots_play_to_the_end(kinds: tuple[str, str], seed: int) -> None:
    s = play_out(core.Session(Expeditions(), ["Ada", "Bo"], seed=seed), [bot(k, 10 * seed + i) for i, k in enumerate(kinds)])
    assert s.is_over and s.legal_actions() == []
    assert s.move_number == DECK_SIZE - 2 * HAND  # one draw per action until the deck is out
    assert len(s.scores()) == 2 and s.winners()
    assert s.view(None)["deck"] == 0


def win_rate(kind: str, games: int) -> int:
    wins = 0
    for i in range(games):
        seat = i % 2  # the bot under test sits first in half the games
        bots: list[Any] = [None, None]
        bots[seat], bots[1 - seat] = bot(kind, i), RandomBot(seed=1000 + i)
        scores = play_out(core.Session(Expeditions(), 2, seed=i), bots).scores()
        wins += scores[seat] > scores[1 - seat]
    return wins


def test_greedy_beats_random() -> None:
    wins = win_rate("greedy", 100)
    assert wins >= 75, f"greedy won {wins}/100 against random (about 93% over 1000 games)"


@pytest.mark.soak  # a match of ISMCTS games (about 18 s): a statistical check
def test_ismcts_beats_random() -> None:
    wins = win_rate("ismcts", 20)
    assert wins >= 14, f"ISMCTS won {wins}/20 against random"


# -- 3. the lab -----------------------------------------------------------------------


def test_simulate_in_workers_matches_in_process() -> None:
    df = kum.simulate(200, game=Expeditions(), bots=("greedy", "random"), executor=2, progress=False)
    assert isinstance(df, pd.DataFrame) and len(df) == 200
    assert {"expeditions", "margin", "score_0", "score_1", "win_0", "win_1"} <= set(df.columns)
    assert df.attrs["game"] == "expeditions" and df.attrs["rules_changed"] == {}
    assert (df["actions"] == DECK_SIZE - 2 * HAND).all()
    assert df["margin"].equals((df["score_0"] - df["score_1"]).abs())
    local = kum.simulate(200, game=Expeditions(), bots=("greedy", "random"), executor=None, progress=False)
    pd.testing.assert_frame_equal(df, local)
    greedy_wins = sum(row[f"win_{k}"] for _, row in df.iterrows() for k in (0, 1) if row[f"bot_{k}"] == "greedy")
    assert greedy_wins > 150, greedy_wins


def test_simulate_rule_option_changes_the_game() -> None:
    base = kum.simulate(200, game=Expeditions(), bots=("greedy", "random"), progress=False)
    free = kum.simulate(200, game=Expeditions(), bots=("greedy", "random"), rules={"cost": 0}, progress=False)
    assert free.attrs["rules_changed"] == {"cost": 0} and free.attrs["rules"] == {"hand": 5, "cost": 0}
    total = (free["score_0"] + free["score_1"]).mean() - (base["score_0"] + base["score_1"]).mean()
    assert total > 30, total  # no cost: every expedition is worth its cards
    assert free["expeditions"].mean() > base["expeditions"].mean()  # and greedy starts more of them
    # an option given on the game itself reaches the games too
    same = kum.simulate(200, game=Expeditions(cost=0), bots=("greedy", "random"), progress=False)
    pd.testing.assert_frame_equal(same, free)


# -- 4. records -----------------------------------------------------------------------


@pytest.mark.parametrize("moves", [0, 7, 100])
def test_records_round_trip(moves: int) -> None:
    s = core.Session(Expeditions(cost=3), ["Ada", "Bo"], seed=5)
    bots = [GreedyBot(seed=1), RandomBot(seed=2)]
    for _ in range(moves):
        if s.is_over:
            break
        s.apply(bot_move(s, bots[s.current_player]))
    if s.move_number >= 2:
        s.undo()
        s.undo()
    for back in (core.Session.from_record(s.record()), core.Session.from_dict(s.to_dict())):
        assert back == s
        assert back.history == s.history and back.view(None) == s.view(None) and back.scores() == s.scores()
        assert back.game.rules == {"hand": 5, "cost": 3} and back.players == ("Ada", "Bo") and back.seed == 5
    back = core.Session.from_dict(s.to_dict())
    assert back.to_dict() == s.to_dict() and back.redo_count == s.redo_count
    if back.can_redo:
        back.redo()
        s.redo()
        assert back == s


# -- 5. bad input ---------------------------------------------------------------------


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    s = core.Session(Expeditions(), 2, seed=1)
    hand = [c["id"] for c in s.view(0)["hands"][0]]
    foreign = next(c for c in range(DECK_SIZE) if c not in hand)
    before = snapshot(s)
    for bad in [foreign, DISCARD + foreign, 999, -1, "play", "", "draw", f"discard {foreign}", None, 2.0, True]:
        with pytest.raises(core.IllegalMoveError):
            s.apply(bad)
        assert snapshot(s) == before, bad
    with pytest.raises(core.IllegalMoveError, match="not in your hand"):
        s.apply(foreign)


def test_descending_play_is_refused_with_the_rule() -> None:
    s = core.Session(Expeditions(), 2, seed=3)
    bots = [GreedyBot(seed=1), GreedyBot(seed=2)]
    while not s.is_over:  # play on until the seat to act holds a card below its own expedition
        view = s.view(s.current_player)
        rows = view["rows"][s.current_player]
        low = [c["id"] for c in view["hands"][s.current_player] if rows[color(c["id"])] and rank(c["id"]) < rank(rows[color(c["id"])][-1])]
        if low:
            break
        s.apply(bot_move(s, bots[s.current_player]))
    assert low, "no position with a card below its expedition"
    before = snapshot(s)
    assert low[0] not in s.legal_action_ids() and DISCARD + low[0] in s.legal_action_ids()
    with pytest.raises(core.IllegalMoveError, match="expedition is at"):
        s.apply(low[0])
    assert snapshot(s) == before


def test_no_action_after_the_end() -> None:
    s = play_out(core.Session(Expeditions(), 2, seed=4), [RandomBot(seed=1), RandomBot(seed=2)])
    before = snapshot(s)
    with pytest.raises(core.IllegalMoveError, match="over"):
        s.apply(0)
    assert snapshot(s) == before


@pytest.mark.parametrize(("options", "match"), [
    ({"bogus": 1}, "unknown option 'bogus'"),
    ({"hand": "5"}, "'hand' must be a whole number"),
    ({"cost": 1.5}, "'cost' must be a whole number"),
    ({"cost": True}, "'cost' must be a whole number"),
    ({"hand": 0}, "'hand' must be 1..8"),
    ({"hand": 20}, "'hand' must be 1..8"),
])
def test_bad_options_are_refused(options: dict[str, Any], match: str) -> None:
    with pytest.raises(core.InvalidOptionError, match=match):
        Expeditions(**options)
    # the lab refuses them too, before playing (a ValueError there, not a GameError)
    with pytest.raises(ValueError, match=match):
        kum.simulate(2, game=Expeditions(), rules=options, progress=False)


@pytest.mark.parametrize("players", [1, 3, ["Ada"], ["Ada", "Bo", "Cy"]])
def test_bad_player_counts_are_refused(players: Any) -> None:
    with pytest.raises(core.GameError, match="for 2 players"):
        core.Session(Expeditions(), players)


def test_bad_saves_are_refused() -> None:
    s = core.Session(Expeditions(), ["Ada", "Bo"], seed=2)
    s.apply(s.legal_actions()[0])
    data = s.to_dict()
    for broken in [{**data, "actions": ["play 9Z"]}, {**data, "options": {"hand": 99, "cost": 12}}, {**data, "players": ["Ada"]}]:
        with pytest.raises(core.GameError):
            core.Session.from_dict(broken)
    with pytest.raises(core.GameError):
        core.Session.from_record(s.record().replace("1. ", "1. Ada: play 9Z\n2. "))
    assert core.Session.from_dict(data) == s  # the good one still reads
