"""The design report's measures on games whose answers are known by construction (issue 34).

Each game in tests/_design_games.py decides its result at the deal (or scripts it), so
the figures the lab should find are known before a game is played: a coin flip is even,
a built-in edge has its size, a scripted comeback has one lead change, a card that always
wins ranks first. Then: the report is the same table on every executor, people's games
pool in, a sweep follows its option, and bad input is a GameError naming the argument.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("MPLBACKEND", "Agg")

import pandas as pd
import pytest
from _design_games import Coin, Gems, Gold, GoldSolitaire

import kum_widget as kum
from kum_widget.core import GameError, Session
from kum_widget.lab import game_seed
from kum_widget.lab.drama import course_of

RANDOM = "random"  # the random bot: the deal decides, and it is fast


def run(**kw: Any) -> dict[str, Any]:
    return {"bots": RANDOM, "progress": False, **kw}


def row(result: Any, measure: str) -> pd.Series:
    """The row of a result's table whose ``measure`` is ``measure``."""
    table = result.table
    found = table[table["measure"] == measure]
    assert len(found) == 1, f"no single row {measure!r} in {list(table['measure'])}"
    return found.iloc[0]


def contains(r: pd.Series, x: float) -> bool:
    return bool(r["low"] <= x <= r["high"])


@pytest.fixture(scope="module")
def coin_table() -> pd.DataFrame:
    return kum.lab.traced(Coin(), 40, **run())


# -- balance: who wins ---------------------------------------------------------------------


def test_a_coin_flip_is_even() -> None:
    r = kum.lab.balance(Coin(), games=400, **run())
    first = row(r, "first player's share of decisive games")
    assert contains(first, 0.5) and first["games"] == 400
    assert row(r, "balance (1 - the largest gap between seats)")["value"] > 0.85
    draws = row(r, "draws and shared wins")
    assert draws["value"] == 0 and draws["low"] == 0
    assert row(r, "seat 0's share of decisive games")["value"] + row(r, "seat 1's share of decisive games")["value"] == 1
    assert "no clear edge" in r.reading
    assert r.table.attrs["first_share"] == first["value"]


@pytest.mark.parametrize(("edge", "first", "share", "verdict"), [
    (0.65, 0, 0.65, "a real edge"),
    (0.35, 0, 0.35, "a real handicap"),
    (0.65, 1, 0.35, "a real handicap"),  # seat 1 moves first: the first player is found from the moves
])
def test_a_built_in_first_player_edge_is_measured(edge: float, first: int, share: float, verdict: str) -> None:
    r = kum.lab.balance(Coin(edge=edge, first=first), games=400, **run())
    measured = row(r, "first player's share of decisive games")
    assert contains(measured, share) and not contains(measured, 0.5)
    assert verdict in r.reading
    assert contains(row(r, f"seat {first}'s share of decisive games"), share)


def test_draws_are_counted_apart_from_decisive_games() -> None:
    r = kum.lab.balance(Coin(draw=0.25), games=300, **run())
    draws = row(r, "draws and shared wins")
    assert contains(draws, 0.25) and draws["games"] == 300
    first = row(r, "first player's share of decisive games")
    assert first["games"] == round(300 * (1 - draws["value"])) and contains(first, 0.5)


def test_a_solitaire_is_read_by_its_scores() -> None:
    r = kum.lab.balance(GoldSolitaire(), games=300, **run())
    mean = row(r, "mean score")  # three picks of three, a gold scores 5: 5 on average
    assert contains(mean, 5.0) and 3.0 < mean["value"] < 7.0
    assert row(r, "games won")["value"] == 1.0
    assert r.reading.startswith("Scores average")


# -- length ----------------------------------------------------------------------------------


def test_a_game_of_a_known_length() -> None:
    t = kum.lab.traced(Coin(length=12, per_turn=2), 40, **run())  # 12 decisions, two a turn: 6 turns
    r = kum.lab.length(t)
    turns, decided = row(r, "turns per game"), row(r, "decisions per game")
    assert (turns["value"], turns["fewest"], turns["most"], turns["median"]) == (6, 6, 6, 6)
    assert (decided["value"], decided["fewest"], decided["most"]) == (12, 12, 12)
    assert row(r, "games past the action limit (left out)")["value"] == 0
    for target, inside, below, above in (((6, 6), 1, 0, 0), ((5, 7), 1, 0, 0), ((7, 20), 0, 1, 0), ((1, 5), 0, 0, 1)):
        r = kum.lab.length(t, target=target)
        assert row(r, "games within the target")["value"] == inside, target
        assert row(r, "games shorter than the target")["value"] == below, target
        assert row(r, "games longer than the target")["value"] == above, target
        assert f"{100 * inside}%" in r.reading


def test_games_past_the_action_limit_are_counted() -> None:
    game = Coin(never=0.3)  # the deal decides which games never end
    endless = [i for i in range(60) if Session(game, 2, seed=game_seed(0, i)).state.endless]
    assert 5 < len(endless) < 40
    with pytest.warns(UserWarning, match="did not end within max_actions=30"):
        t = kum.lab.traced(game, 60, max_actions=30, unfinished="skip", **run())
    assert tuple(t.attrs["unfinished"]) == tuple(endless) and len(t) == 60 - len(endless)
    r = kum.lab.length(t)
    past = row(r, "games past the action limit (left out)")
    assert past["value"] == len(endless) and past["games"] == 60
    assert row(r, "turns per game")["value"] == 10  # the games that ended, alone
    assert f"{len(endless)} games ran past the limit of 30 actions" in r.reading


# -- decisions -------------------------------------------------------------------------------


def test_branching_by_part_of_the_game() -> None:
    r = kum.lab.decisions(Coin(early=3, late=1), games=40, **run())  # 10 decisions: 3 actions, then 1
    t = r.table
    assert t["legal actions (mean)"].tolist() == [3.0] * 5 + [1.0] * 5
    assert t["more than one action"].tolist() == [1.0] * 5 + [0.0] * 5
    assert (t["games"] == 40).all()
    assert t.attrs["branching"] == 2.0 and t.attrs["forced"] == 0.5
    # Coin's "say 0", "say 1", "say 2" all only count the move: three names for one move, never a real choice
    assert t.attrs["real"] == 0 and t.attrs["one_position"] == 1.0 and t.attrs["proven_none"]
    assert r.reading.startswith("No decision matters: in all 40 games every option of every decision led to the same position")


def test_a_table_without_options_reads_its_branching_and_says_where_real_choices_are_measured() -> None:
    """A table traced without the option analysis has no real choices to count: the reading
    gives the share of decisions with more than one action instead, and says how to get them."""
    t = kum.lab.traced(Gems(), games=10, options=False, **run())
    reading = kum.lab.decisions(t, games=10, progress=False).reading
    assert "3.0 legal actions on average" in reading and "100% of decisions offer more than one action and 0% are forced" in reading
    assert reading.endswith("(real choices are measured on a table from traced(options=True)).")


def test_real_choices_are_options_that_change_the_chances() -> None:
    r = kum.lab.decisions(Gems(), games=40, **run())  # a gem is a point; a stone or a shell is nothing
    a = r.table.attrs
    assert not a["proven_none"] and a["sampled"] > 0
    assert 0 < a["real"] < 1  # taking the gem or not changes the chances, unless the game is settled already
    assert "decisions looked at are real choices" in r.reading
    # In Gold the winner is dealt: which card is played changes the position, never the chances.
    gold = kum.lab.decisions(Gold(), games=40, **run()).table.attrs
    assert gold["real"] == 0 and not gold["proven_none"]


# -- drama -----------------------------------------------------------------------------------


def test_a_scripted_comeback_is_one_lead_change() -> None:
    # Seat 0 leads in the first half, seat 1 in the second, and seat 1 always wins.
    r = kum.lab.drama(Coin(edge=0.0, story="comeback"), games=60, **run())
    assert row(r, "lead changes per game")[["value", "low", "high"]].tolist() == [1.0, 1.0, 1.0]
    assert row(r, "games with a lead change")["value"] == 1.0
    assert row(r, "games the winner came from behind")["value"] == 1.0
    assert row(r, "how far behind the winner was (drama)")["value"] == pytest.approx(0.6)
    assert row(r, "share of the game before the winner was settled (decisiveness)")["value"] == pytest.approx(0.5)
    assert r.table["games"].tolist() == [60] * 5
    assert r.data is not None and (r.data["lead_changes"] == 1).all()
    assert "came from behind in 100%" in r.reading


def test_a_winner_who_leads_throughout_is_no_drama() -> None:
    r = kum.lab.drama(Coin(edge=0.3, story="wire"), games=60, **run())
    assert row(r, "lead changes per game")["value"] == 0
    assert row(r, "games with a lead change")["value"] == 0
    assert row(r, "games the winner came from behind")["value"] == 0
    assert row(r, "share of the game before the winner was settled (decisiveness)")["value"] == 0
    assert "changes 0.0 times" in r.reading


@pytest.mark.parametrize(("evals", "decisions", "winner", "expected"), [
    # the docstring's game: seat 0 ahead, then the winner, seat 1
    ([(0, (0.6, 0.4)), (5, (0.3, 0.7)), (10, (0.0, 1.0))], 10, 1, (1, 0.2, 0.5)),
    # the winner ahead at every sample: nothing to settle
    ([(0, (0.3, 0.7)), (5, (0.4, 0.6)), (10, (0.0, 1.0))], 10, 1, (0, 0.0, 0.0)),
    # a tie leads nobody: no change, and the winner led for good from decision 5
    ([(0, (0.5, 0.5)), (5, (0.3, 0.7)), (10, (0.0, 1.0))], 10, 1, (0, 0.0, 0.5)),
    # back and forth: three changes; the worst gap is 0.5; settled from decision 6 of 8
    ([(0, (0.6, 0.4)), (2, (0.3, 0.7)), (4, (0.75, 0.25)), (6, (0.2, 0.8)), (8, (0.0, 1.0))], 8, 1, (3, 0.5, 0.75)),
    # three seats: 0 leads, then 2, then the winner 1, who led only at the end: settled at 100%
    ([(0, (0.5, 0.3, 0.2)), (4, (0.2, 0.3, 0.5)), (8, (0.0, 1.0, 0.0))], 8, 1, (2, 0.2, 1.0)),
])
def test_course_of(evals: list[tuple[int, tuple[float, ...]]], decisions: int, winner: int,
                   expected: tuple[int, float, float]) -> None:
    got = course_of(evals, decisions, winner)
    assert (got["lead_changes"], got["behind"], got["settled"]) == pytest.approx(expected)


# -- what goes with winning (associations) ---------------------------------------------------


@pytest.mark.parametrize(("by", "gold"), [("actions", "play gold"), ("columns", "gold")])
def test_a_card_that_wins_when_it_is_played_ranks_first(by: Any, gold: str) -> None:
    # The gold card is dealt in half the games, and its holder wins; silver is dealt with it, to either seat.
    r = kum.lab.associations(Gold(gold=0.5, silver=0.5), by=by, games=300, **run())
    best = r.table.iloc[0]
    assert best["what"] == gold and best["low"] > 0
    assert r.table.attrs["best"] == gold
    assert r.reading.startswith("Associations, not causes: winners")
    assert f"“{gold}”" in r.reading and "adjusted for game length and who moved first and last" in r.reading
    assert r.title == "Which plays go with winning? (associations, not causes)"


@pytest.mark.filterwarnings("error::RuntimeWarning")  # an infinite bar would draw with "invalid value" warnings
@pytest.mark.parametrize(("by", "gold"), [("actions", "play gold"), ("columns", "gold")])
def test_a_card_that_always_wins_ranks_first(by: Any, gold: str) -> None:
    # Every game: the gold card's holder wins, and holds the silver card 70% of the time (a
    # weaker sign). Gold ranks first.
    r = kum.lab.associations(Gold(gold=1.0, silver=0.7), by=by, games=300, **run())
    best = r.table.iloc[0]
    assert best["what"] == gold, r.table[["what", "difference", "low", "high"]]
    assert best["low"] > 0
    if by == "columns":  # the winner played it, the loser did not: exactly 1, every game
        assert best["low"] == best["high"] == best["difference"] == 1.0
    assert r.table.attrs["best"] == gold
    r.png()  # its plot draws


def test_what_scores_in_a_solitaire() -> None:
    r = kum.lab.associations(GoldSolitaire(), games=300, **run())
    best = r.table.iloc[0]
    assert best["what"] == "play gold" and best["low"] > 0
    assert (r.table.iloc[1:]["difference"] < 0).all()  # lead and iron take a gold's place
    assert r.reading.startswith("Associations, not causes: games with more “play gold” score higher")


# -- the report: the same on every executor ---------------------------------------------------


REPORT: dict[str, Any] = {"games": 60, "ladder": False, "progress": False, "seed": 3}


@pytest.fixture(scope="module")
def bust_report() -> kum.lab.Report:
    return kum.lab.report("bust", **REPORT)


def test_the_report_is_the_same_on_every_executor(bust_report: kum.lab.Report, dask_client: Any) -> None:
    here = bust_report
    assert [s.key for s in here.sections] == ["balance", "length", "decisions", "luck", "drama", "what_wins",
                                              "associations"]
    for executor in (2, dask_client):
        there = kum.lab.report("bust", executor=executor, **REPORT)
        assert [s.key for s in there.sections] == [s.key for s in here.sections]
        for s in here.sections:
            pd.testing.assert_frame_equal(s.result.table, there[s.key].table, obj=f"{s.key} on {executor!r}")
        pd.testing.assert_frame_equal(here.tables["games"], there.tables["games"])
        assert there.readings() == here.readings()
        assert there.tables["games"].attrs["executor"] != "in process"  # it did go to the workers


# -- people's games --------------------------------------------------------------------------


def played(seed: int, actions: int | None = None) -> Session:
    """A game of Coin played by hand (always the last legal action), to its end or for ``actions``."""
    s = Session(Coin(), ["Ada", "Bo"], seed=seed)
    while not s.is_over and (actions is None or s.move_number < actions):
        s.apply(s.legal_actions()[-1])
    return s


def test_games_people_played_pool_into_the_report_as_sessions_and_records() -> None:
    games = [played(seed) for seed in range(6)]
    given = [games[0], games[1].record(), *games[2:]]
    before = [g.record() for g in games]
    t = kum.lab.HandIn(Coin(), tuple(games)).traced()
    assert [g.record() for g in games] == before  # read, not changed
    assert len(t) == 6 and set(t["bot_0"]) == {"class"}
    assert t["winners"].tolist() == [tuple(g.winners()) for g in games]
    assert t["trace_legal"].tolist() == [(2,) * 10] * 6 and (t["trace_turns"] == 10).all()
    assert all(kinds == ("say",) * 10 for kinds in t["trace_kinds"])
    assert row(kum.lab.length(t), "turns per game")["value"] == 10
    r = kum.lab.report(Coin(), games=40, ladder=False, bots=RANDOM, progress=False, pooled=given)
    assert [g.record() for g in games] == before
    assert [s.key for s in r.sections][-1] == "pooled"
    pooled = r["pooled"].table
    assert set(pooled["games of"]) == {"bots", "class"}
    ours = pooled[pooled["games of"] == "class"].set_index("measure")
    assert (ours["games"] == 6).all() and ours.loc["turns", "value"] == 10
    assert ours.loc["real decisions", "value"] == 0.0  # two legal actions at every decision, but one position
    assert "6 games" in r["pooled"].reading and "10 turns" in r["pooled"].reading


@pytest.mark.parametrize(("make", "match"), [
    pytest.param(lambda done, going: [done, going], "pooled game 1 has not ended", id="unfinished"),
    pytest.param(lambda done, going: [done, 42], "pooled game 1 must be a session or its record", id="a number"),
    pytest.param(lambda done, going: [done, "not a record"], "pooled game 1", id="text that is no record"),
    pytest.param(lambda done, going: [done, {"not": "a game"}], "pooled game 1", id="a dict that is no game"),
    pytest.param(lambda done, going: done, "pooled must list finished games", id="a session, not a list"),
    pytest.param(lambda done, going: [], "pooled must list finished games", id="none"),
])
def test_pooled_games_that_are_not_finished_games_are_refused(make: Callable[[Session, Session], Any], match: str) -> None:
    done, going = played(1), played(2, actions=3)
    before = done.record(), going.record()
    with pytest.raises(GameError, match=match):
        kum.lab.report(Coin(), games=3, ladder=False, pooled=make(done, going), **run())
    assert (done.record(), going.record()) == before and going.move_number == 3


def test_a_hand_in_refuses_a_label_that_is_no_text() -> None:
    with pytest.raises(GameError, match="label"):
        kum.lab.HandIn(Coin(), (played(1),)).traced(label="")


# -- sweep -----------------------------------------------------------------------------------


def test_a_sweep_follows_the_option_it_changes() -> None:
    r = kum.lab.sweep("edge", [0.5, 0.8], Coin(), games=200, **run())
    t = r.table
    assert t["edge"].tolist() == [0.5, 0.8] and (t["games"] == 200).all()
    for i, edge in enumerate((0.5, 0.8)):
        assert t["first player's share low"].iloc[i] <= edge <= t["first player's share high"].iloc[i]
    assert t["first player's share high"].iloc[0] < t["first player's share low"].iloc[1]
    assert (t["turns"] == 10).all() and (t["real decisions"] == 0.0).all()  # what the option does not touch
    assert "first player's share" in r.reading and "move beyond" in r.reading


@pytest.mark.parametrize(("kw", "match"), [
    ({"option": "edg", "values": [0.5, 0.8]}, "option must be one of"),
    ({"option": "edge", "values": [0.5]}, "values must list two values"),
    ({"option": "edge", "values": "ab"}, "values must list two values"),
    ({"option": "edge", "values": [0.5, "high"]}, "edge"),
    ({"option": "edge", "values": [0.5, 0.8], "rules": "x"}, "rules"),
])
def test_sweep_refuses_bad_input(kw: dict[str, Any], match: str) -> None:
    option, values = kw.pop("option"), kw.pop("values")
    with pytest.raises(GameError, match=match):
        kum.lab.sweep(option, values, Coin(), games=5, **run(), **kw)


# -- bad input: a GameError that names the argument -------------------------------------------


def _plain(coin: pd.DataFrame) -> pd.DataFrame:
    return kum.simulate(5, game=Coin(), bots=RANDOM, progress=False)  # a table without the games' course


def _fails(*args: Any) -> Any:
    nothing: dict[Any, Any] = {}
    return nothing[repr(args[-1])]  # a user's function that raises KeyError


BAD: list[tuple[str, Callable[[pd.DataFrame], Any], str]] = [
    ("length target backwards", lambda coin: kum.lab.length(coin, target=(5, 1)), "target"),
    ("length target of text", lambda coin: kum.lab.length(coin, target="ab"), "target"),
    ("length target of three", lambda coin: kum.lab.length(coin, target=(1, 2, 3)), "target"),
    ("associations by", lambda coin: kum.lab.associations(coin, by="x"), "by must be"),
    ("associations top", lambda coin: kum.lab.associations(coin, top=0), "top must be"),
    ("associations kinds", lambda coin: kum.lab.associations(coin, kinds=5), "kinds must be"),
    ("associations kinds that fail", lambda coin: kum.lab.associations(coin, kinds=_fails), "kinds"),
    ("drama evaluator", lambda coin: kum.lab.drama(Coin(), games=3, evaluator="x", **run()), "evaluator must be"),
    ("drama of a solitaire", lambda coin: kum.lab.drama(GoldSolitaire(), games=3, **run()), "solitaire"),
    ("drama without evaluations", lambda coin: kum.lab.drama(kum.lab.traced(Coin(), 3, evaluator="none", **run())),
     "evaluator"),
    ("decisions of a plain table", lambda coin: kum.lab.decisions(_plain(coin)), "trace_"),
    ("decisions of an empty table", lambda coin: kum.lab.decisions(pd.DataFrame()), "decisions"),
    ("balance games", lambda coin: kum.lab.balance(Coin(), games=0, **run()), "games"),
    ("balance of no game", lambda coin: kum.lab.balance("no such game", **run()), "no such game"),
    ("balance of a list", lambda coin: kum.lab.balance([1, 2], **run()), "game"),
    ("traced evaluator", lambda coin: kum.lab.traced(Coin(), 3, evaluator="x", **run()), "evaluator must be"),
    ("traced evaluator game", lambda coin: kum.lab.traced(GoldSolitaire(), 3, evaluator="game", **run()), "evaluate"),
    ("traced every", lambda coin: kum.lab.traced(Coin(), 3, every=0, **run()), "every"),
    ("traced playouts", lambda coin: kum.lab.traced(Coin(), 3, playouts=0, **run()), "playouts"),
    ("traced kinds", lambda coin: kum.lab.traced(Coin(), 3, kinds=5, **run()), "kinds"),
    ("traced unfinished", lambda coin: kum.lab.traced(Coin(), 3, unfinished="x", **run()), "unfinished"),
    ("traced evaluator of one number", lambda coin: kum.lab.traced(Coin(), 3, evaluator=lambda g, s: [0.5], **run()),
     "evaluator"),
    ("traced evaluator of NaN",
     lambda coin: kum.lab.traced(Coin(), 3, evaluator=lambda g, s: [float("nan")] * 2, **run()), "evaluator"),
    ("traced evaluator to workers",
     lambda coin: kum.lab.traced(Coin(), 3, evaluator=lambda g, s: [0.5, 0.5], executor=2, **run()), "pickle"),
    ("traced evaluator that fails", lambda coin: kum.lab.traced(Coin(), 3, evaluator=_fails, **run()), "evaluator"),
    ("traced kinds that fail", lambda coin: kum.lab.traced(Coin(), 3, kinds=_fails, **run()), "kinds"),
    ("report ladder", lambda coin: kum.lab.report(Coin(), games=3, ladder="x", **run()), "ladder"),
    ("report sweep half given",
     lambda coin: kum.lab.report(Coin(), games=3, ladder=False, sweep_option="edge", **run()), "sweep_values"),
    ("report target", lambda coin: kum.lab.report(Coin(), games=3, ladder=False, target=(5, 1), **run()), "target"),
    ("report players", lambda coin: kum.lab.report(Coin(), games=3, ladder=False, players="x", **run()), "players"),
    ("report no players", lambda coin: kum.lab.report(Coin(), games=3, ladder=False, players=[], **run()), "players"),
    ("report evaluator", lambda coin: kum.lab.report(Coin(), games=3, ladder=False, evaluator="x", **run()), "evaluator"),
    ("report evaluator of a solitaire",
     lambda coin: kum.lab.report(GoldSolitaire(), games=3, ladder=False, evaluator="x", **run()), "evaluator"),
    ("report pooled", lambda coin: kum.lab.report(Coin(), games=3, ladder=False, pooled=[42], **run()), "game 0"),
    ("report section", lambda coin: kum.lab.report(Coin(), games=3, ladder=False, **run())["skill"], "no section"),
]


@pytest.mark.parametrize(("call", "match"), [case[1:] for case in BAD], ids=[case[0] for case in BAD])
def test_bad_input_is_a_game_error_naming_the_argument(coin_table: pd.DataFrame, call: Callable[[pd.DataFrame], Any],
                                                       match: str) -> None:
    with pytest.raises(GameError) as caught:  # a KeyError, TypeError... escaping fails the test
        call(coin_table)
    assert match.lower() in str(caught.value).lower()


# -- saving the report -----------------------------------------------------------------------


def test_the_report_saves_as_one_html_file(bust_report: kum.lab.Report, tmp_path: Path) -> None:
    path = bust_report.save(tmp_path / "report.html")
    assert path == tmp_path / "report.html"
    text = path.read_text(encoding="utf-8")
    assert text.lstrip().lower().startswith("<!doctype html")
    for s in bust_report.sections:
        assert s.title.split(":")[0] in text
    assert "<script src" not in text.lower() and "<link" not in text.lower()  # one file: nothing fetched
    with pytest.raises(GameError, match=r"must end in \.html"):
        bust_report.save(tmp_path / "x.txt")
    assert not (tmp_path / "x.txt").exists()


def test_a_report_is_saved_whole_or_not_at_all(bust_report: kum.lab.Report, tmp_path: Path) -> None:
    import os
    import stat

    old = tmp_path / "old.html"
    old.write_text("the class's copy")
    old.chmod(0o644)
    bust_report.save(old)  # replaced, its permissions kept (a course's readers can still open it)
    assert stat.S_IMODE(old.stat().st_mode) == 0o644 and old.read_text().lstrip().lower().startswith("<!doctype")
    fifo = tmp_path / "pipe.html"
    os.mkfifo(fifo)
    with pytest.raises(GameError, match="not a regular file"):
        bust_report.save(fifo)  # never opened: a FIFO would block for ever
    folder = tmp_path / "out.html"
    folder.mkdir()
    with pytest.raises(GameError, match="is a folder"):
        bust_report.save(folder)
    with pytest.raises(GameError, match="there is no folder"):
        bust_report.save(tmp_path / "missing" / "r.html")
    with pytest.raises(GameError, match=r"must end in \.html"):
        bust_report.save(5)  # type: ignore[arg-type]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.html", "out.html", "pipe.html"]  # no temporary left
