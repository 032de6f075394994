"""Hostile input to every public lab helper: given a wrong argument (``by=None``, a table
with no games, a missing column, a wrong type), each raises a GameError naming the problem,
or gives a well-formed empty result where an empty input means something."""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from typing import Any

os.environ.setdefault("MPLBACKEND", "Agg")

import pandas as pd
import pytest

import kum_widget as kum
from kum_widget.core import GameError

LIMIT_ERROR = kum.lab.ActionLimitError


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    return kum.simulate(6, game="bust", bots=("greedy", "random"), seed=1, progress=False)


def _finished() -> Any:
    return kum.lab.play_game(0, bots=("random", "random"), rules_of=kum.core.examples.Bust())


def _unfinished() -> Any:
    return kum.core.Session(kum.core.examples.Bust(), 2, seed=1)


def _ax() -> Any:
    from matplotlib.figure import Figure

    return Figure().subplots()


def _no_attrs(df: pd.DataFrame) -> pd.DataFrame:
    out = df.copy()
    out.attrs = {}
    return out


def _with_attrs(df: pd.DataFrame, **attrs: Any) -> pd.DataFrame:
    out = df.copy()
    out.attrs = {**df.attrs, **attrs}
    return out


def _empty(df: pd.DataFrame) -> pd.DataFrame:
    return df.iloc[0:0]


def _twice(df: pd.DataFrame) -> pd.DataFrame:
    return pd.concat([df, df[["win_0"]]], axis=1)


L = kum.lab
T = "table"  # stands for the module's table in the cases below
# (helper, call taking the table, words the GameError must hold)
HOSTILE: list[tuple[str, Callable[[pd.DataFrame], Any], str]] = [
    # win_rate
    ("win_rate", lambda t: L.win_rate(_empty(t)), "no games"),
    ("win_rate", lambda t: L.win_rate(pd.DataFrame()), "no per-seat columns"),
    ("win_rate", lambda t: L.win_rate([1, 2]), "expected the DataFrame"),
    ("win_rate", lambda t: L.win_rate(None), "expected the DataFrame"),
    ("win_rate", lambda t: L.win_rate(t, by=5), "by must be a column name"),
    ("win_rate", lambda t: L.win_rate(t, by=[]), "no such column"),
    ("win_rate", lambda t: L.win_rate(t, by=["seat", 3]), "by must be a column name"),
    ("win_rate", lambda t: L.win_rate(t, by=[["seat"]]), "by must be a column name"),
    ("win_rate", lambda t: L.win_rate(t, by={"seat": 1}), "by must be a column name"),
    ("win_rate", lambda t: L.win_rate(t, by=("seat", "seat")), "names a column twice"),
    ("win_rate", lambda t: L.win_rate(t, by="race"), "by='race': no such column"),
    ("win_rate", lambda t: L.win_rate(t.drop(columns="n_winners")), "no column n_winners"),
    ("win_rate", lambda t: L.win_rate(t.drop(columns="players")), "no column players"),
    ("win_rate", lambda t: L.win_rate(t.drop(columns="win_1")), "same seats"),
    ("win_rate", lambda t: L.win_rate(t.drop(columns=["win_0", "win_1"])), "no per-seat columns"),
    ("win_rate", lambda t: L.win_rate(t.assign(win_0="yes")), "win_0 must hold True or False"),
    ("win_rate", lambda t: L.win_rate(t.assign(players="two")), "players must hold numbers"),
    ("win_rate", lambda t: L.win_rate(t.assign(players=0)), "players must be above 0"),
    ("win_rate", lambda t: L.win_rate(_twice(t)), "more than one column named win_0"),
    ("win_rate", lambda t: L.win_rate(t, ax="x"), "ax must be None"),
    ("win_rate", lambda t: L.win_rate(t, ax=[_ax()]), "ax must be None"),
    # score_distribution
    ("score_distribution", lambda t: L.score_distribution(_empty(t)), "no games"),
    ("score_distribution", lambda t: L.score_distribution({"score_0": [1]}), "expected the DataFrame"),
    ("score_distribution", lambda t: L.score_distribution(t, by=7), "by must be"),
    ("score_distribution", lambda t: L.score_distribution(t, column=5), "column=5"),
    ("score_distribution", lambda t: L.score_distribution(t, column=["score"]), "column=['score']"),
    ("score_distribution", lambda t: L.score_distribution(t, column="bot"), "column='bot'"),
    ("score_distribution", lambda t: L.score_distribution(t, means=5), "means=5"),
    ("score_distribution", lambda t: L.score_distribution(t, means=[["score"]]), "means="),
    ("score_distribution", lambda t: L.score_distribution(t.assign(score_0="x", score_1="y")), "column='score'"),
    ("score_distribution", lambda t: L.score_distribution(t.drop(columns="n_winners")), "no column n_winners"),
    ("score_distribution", lambda t: L.score_distribution(t, ax=3), "ax must be None"),
    # game_length
    ("game_length", lambda t: L.game_length(_empty(t)), "no games"),
    ("game_length", lambda t: L.game_length(pd.DataFrame()), "no column 'actions'"),
    ("game_length", lambda t: L.game_length(t, column=[]), "column=[]"),
    ("game_length", lambda t: L.game_length(t, by=["bot_0"]), "by=['bot_0']"),
    ("game_length", lambda t: L.game_length(t, column="nope"), "no column 'nope'"),
    ("game_length", lambda t: L.game_length(t, column="bot_0"), "must hold numbers"),
    ("game_length", lambda t: L.game_length(t.assign(actions=math.inf)), "finite numbers"),
    ("game_length", lambda t: L.game_length(t.assign(actions=math.nan)), "holds no numbers"),
    ("game_length", lambda t: L.game_length(t.assign(tag=[[1]] * len(t)), by="tag"), "must be text or numbers"),
    ("game_length", lambda t: L.game_length(t.rename(columns={"seed": "actions"})), "more than one column"),
    ("game_length", lambda t: L.game_length(t, ax="x"), "ax must be None"),
    ("game_length", lambda t: L.game_length(3), "expected the DataFrame"),
    # matchup
    ("matchup", lambda t: L.matchup(results=_empty(t)), "no games"),
    ("matchup", lambda t: L.matchup(results=5), "results must be a table"),
    ("matchup", lambda t: L.matchup(results=[]), "results must be a table"),
    ("matchup", lambda t: L.matchup(results="table"), "results must be a table"),
    ("matchup", lambda t: L.matchup(results=[t, 5]), "expected the DataFrame"),
    ("matchup", lambda t: L.matchup(results=t.drop(columns="win_1")), "same seats"),
    ("matchup", lambda t: L.matchup(results=t.assign(win_1=2)), "win_1 must hold True or False"),
    ("matchup", lambda t: L.matchup(results=t, ax=[1]), "ax must be None"),
    ("matchup", lambda t: L.matchup(5), "bots must list"),
    ("matchup", lambda t: L.matchup("greedy"), "bots must list"),
    ("matchup", lambda t: L.matchup(("greedy", "greedy")), "two or more different bots"),
    ("matchup", lambda t: L.matchup(("random", "greedy"), self_play="yes"), "self_play must be True or False"),
    ("matchup", lambda t: L.matchup(("random", "greedy"), games=0, game="bust"), "games must be"),
    ("matchup", lambda t: L.matchup(("random", "greedy"), game="bust", executor=0), "executor must be"),
    ("matchup", lambda t: L.matchup(("random", "greedy"), game="bust", max_actions=0), "max_actions must be"),
    # compare
    ("compare", lambda t: L.compare(t, _empty(t)), "no games"),
    ("compare", lambda t: L.compare(_empty(t), _empty(t)), "no games"),
    ("compare", lambda t: L.compare(pd.DataFrame(), t), "no per-seat columns"),
    ("compare", lambda t: L.compare(t.drop(columns="score_0"), t), "no column score_0"),
    ("compare", lambda t: L.compare(t.drop(columns="seed"), t), "no column seed"),
    ("compare", lambda t: L.compare(t.assign(score_0="x"), t), "score_0 must hold numbers"),
    ("compare", lambda t: L.compare(t, t, labels=5), "labels must be two different names"),
    ("compare", lambda t: L.compare(t, t, labels=[1, 2]), "labels must be two different names"),
    ("compare", lambda t: L.compare(t, t, labels="ab"), "labels must be two different names"),
    ("compare", lambda t: L.compare(t, t, seat=[0]), "seat must be"),
    ("compare", lambda t: L.compare(t, t, seat=2), "seat must be"),
    ("compare", lambda t: L.compare(t, t, seat=t), "seat must be"),
    ("compare", lambda t: L.compare(t, t, seat=t["game"]), "seat must be"),
    ("compare", lambda t: L.compare(t, t, ax="x"), "ax must be None"),
    ("compare", lambda t: L.compare(t, t, ax=[_ax()]), "ax must be None"),
    ("compare", lambda t: L.compare(t, 5, games=2), "a variant is"),
    ("compare", lambda t: L.compare(t, {"limit": "x"}, games=2), "compare:"),
    ("compare", lambda t: L.compare(None, None, game="bust", games=2, executor="x"), "executor must be"),
    # score_by_feature, count_columns
    ("score_by_feature", lambda t: L.score_by_feature(_empty(t)), "no games"),
    ("score_by_feature", lambda t: L.score_by_feature(pd.DataFrame()), "no games"),
    ("score_by_feature", lambda t: L.score_by_feature(t), "no count column"),
    ("score_by_feature", lambda t: L.score_by_feature(t, columns=5), "columns must be a prefix"),
    ("score_by_feature", lambda t: L.score_by_feature(t, columns=[1]), "columns must be a prefix"),
    ("score_by_feature", lambda t: L.score_by_feature(t, columns=["actions"], score=5), "score must be a column's name"),
    ("score_by_feature", lambda t: L.score_by_feature(t, columns=["actions"], score="bot_0"), "score='bot_0'"),
    ("score_by_feature", lambda t: L.score_by_feature(t, columns=["bot_0"]), "numeric counts"),
    ("score_by_feature", lambda t: L.score_by_feature(_twice(t), columns=["actions"]), "more than one column"),
    ("score_by_feature", lambda t: L.score_by_feature(t, columns=["actions"], ax="x"), "ax must be None"),
    ("score_by_feature", lambda t: L.score_by_feature(None), "expected the DataFrame"),
    ("count_columns", lambda t: L.count_columns(None), "expected the DataFrame"),
    ("count_columns", lambda t: L.count_columns(_twice(t)), "more than one column"),
    # per_seat, rate_table
    ("per_seat", lambda t: L.per_seat(5), "expected the DataFrame"),
    ("per_seat", lambda t: L.per_seat(pd.DataFrame()), "no per-seat columns"),
    ("per_seat", lambda t: L.per_seat(t.drop(columns="n_winners")), "no column n_winners"),
    ("per_seat", lambda t: L.per_seat(t.assign(win_0=[[1]] * len(t))), "win_0 must hold True or False"),
    ("rate_table", lambda t: L.rate_table(5, ["seat"]), "expected the DataFrame"),
    ("rate_table", lambda t: L.rate_table(L.per_seat(t), None), "by must be"),
    ("rate_table", lambda t: L.rate_table(L.per_seat(t), ["nope"]), "no such column"),
    ("rate_table", lambda t: L.rate_table(L.per_seat(t).drop(columns="players"), ["seat"]), "no column players"),
    ("rate_table", lambda t: L.rate_table(L.per_seat(t).assign(win="x"), ["seat"]), "win must hold True or False"),
    # replay, play_game, game_row, columns, seeds, seats
    ("replay", lambda t: L.replay(t, 99), "game must be a game number 0..5"),
    ("replay", lambda t: L.replay(t, "0"), "game must be a game number"),
    ("replay", lambda t: L.replay(t, 0, bots=5), "bots must list"),
    ("replay", lambda t: L.replay(t, 0, bots=("greedy",)), "one bot per seat"),
    ("replay", lambda t: L.replay(_no_attrs(t), 0), "lost the attrs"),
    ("replay", lambda t: L.replay(_with_attrs(t, games="6"), 0), "lost the attrs"),
    ("replay", lambda t: L.replay(_with_attrs(t, rules={"limit": "x"}), 0), "replay:"),
    ("replay", lambda t: L.replay(_with_attrs(t, players=9), 0), "players must be"),
    ("replay", lambda t: L.replay([1], 0), "expected the DataFrame"),
    ("play_game", lambda t: L.play_game("x"), "game must be a whole number"),
    ("play_game", lambda t: L.play_game(0, bots=("greedy",)), "one bot per seat"),
    ("play_game", lambda t: L.play_game(0, bots=5), "bots must be"),
    ("play_game", lambda t: L.play_game(0, players=9, rules_of=kum.core.examples.Bust()), "players must be"),
    ("play_game", lambda t: L.play_game(0, rules_of=5), "game must be a game's name"),
    ("play_game", lambda t: L.play_game(0, seed=-1), "seed must be"),
    ("play_game", lambda t: L.play_game(0, max_actions=0), "max_actions must be"),
    ("play_game", lambda t: L.play_game(0, rotate="yes"), "rotate must be True or False"),
    ("game_row", lambda t: L.game_row(None, 0, ("a", "b")), "expected a finished game"),
    ("game_row", lambda t: L.game_row(_unfinished(), 0, ("a", "b")), "has not ended"),
    ("game_row", lambda t: L.game_row(_finished(), "x", ("a", "b")), "game must be a whole number"),
    ("game_row", lambda t: L.game_row(_finished(), 0, ("a",)), "seated must list"),
    ("game_row", lambda t: L.game_row(_finished(), 0, "ab"), "seated must list"),
    ("columns", lambda t: L.columns("x"), "players must be"),
    ("columns", lambda t: L.columns(9), "players must be"),
    ("columns", lambda t: L.columns(2, "nope"), "no game named 'nope'"),
    ("game_seed", lambda t: L.game_seed("a", 0), "seed must be a whole number"),
    ("game_seed", lambda t: L.game_seed(0, 1.5), "game must be a whole number"),
    ("bot_seed", lambda t: L.bot_seed(None, 0), "seed_of_game must be a whole number"),
    ("bot_seed", lambda t: L.bot_seed(1, True), "seat must be a whole number"),
    ("seat_bots", lambda t: L.seat_bots([], 0, True), "bots must list"),
    ("seat_bots", lambda t: L.seat_bots("ab", 0, True), "bots must list"),
    ("seat_bots", lambda t: L.seat_bots(("a", "b"), "x", True), "game must be a whole number"),
    ("seat_bots", lambda t: L.seat_bots(("a", "b"), 0, "yes"), "rotate must be True or False"),
    # simulate, worker_pool, decks
    ("simulate", lambda t: L.simulate(2, game="bust", bots=[], progress=False), "one bot per seat"),
    ("simulate", lambda t: L.simulate(2, game=5, progress=False), "game must be a game's name"),
    ("simulate", lambda t: L.simulate(2, game="bust", rules=5, progress=False), "simulate:"),
    ("simulate", lambda t: L.simulate(2, game="bust", bots=lambda seed: 1 / 0, progress=False), "ZeroDivisionError"),
    ("simulate", lambda t: L.simulate("2", game="bust", progress=False), "games must be"),
    ("worker_pool", lambda t: L.worker_pool(0), "workers must be"),
    ("worker_pool", lambda t: L.worker_pool("2"), "workers must be"),
    ("worker_pool", lambda t: L.worker_pool(10**30), "workers must be a whole number 1..1024"),
    ("simulate", lambda t: L.simulate(2, game="bust", executor=10**30, progress=False), "at most 1024"),
    ("deck_table", lambda t: L.deck_table("standard"), "expected a kum.Deck"),
    ("face_table", lambda t: L.face_table(5), "expected a kum.Deck"),
    # the design report and its parts (a simulate table has no course of its games)
    ("balance", lambda t: L.balance(_empty(t)), "no games"),
    ("balance", lambda t: L.balance([1, 2]), "game must be a game's name"),
    ("length", lambda t: L.length(t), "no course of its games"),
    ("length", lambda t: L.length(t, target=(5, 1)), "target must be None or (low, high)"),
    ("decisions", lambda t: L.decisions(t), "no course of its games"),
    ("drama", lambda t: L.drama(t), "no course of its games"),
    ("associations", lambda t: L.associations(t, by="x"), "by must be 'actions' or 'columns'"),
    ("associations", lambda t: L.associations(t), "no course of its games"),
    ("associations", lambda t: L.associations(t, top=0), "top must be a whole number"),
    ("what_wins", lambda t: L.what_wins(t), "the table must come from kum.lab.traced"),
    ("what_wins", lambda t: L.what_wins("bust", games=1), "games must be a whole number >= 2"),
    ("what_wins", lambda t: L.what_wins("bust", max_kinds=0), "max_kinds must be a whole number >= 1"),
    ("what_wins", lambda t: L.what_wins("bust", bots=("greedy", "random")), "bots is the one reference bot"),
    ("restricted", lambda t: L.restricted("greedy", never=5), "never must be an action kind"),
    ("restricted", lambda t: L.restricted("greedy", never=[]), "never must name one or more action kinds"),
    ("restricted", lambda t: L.restricted(42, never="draw"), "bot must be a bot name or a factory"),
    ("luck", lambda t: L.luck("bust", replays=1), "replays must be a whole number 2..20"),
    ("luck", lambda t: L.luck("bust", games=1), "games must be a whole number >= 2"),
    ("luck", lambda t: L.luck("bust", bots={"a": 1}), "bots must be a bot name"),
    ("Noisy", lambda t: L.Noisy("greedy", 0), "share must be a number between 0 and 1"),
    ("Noisy", lambda t: L.Noisy(3.5), "bot must be a bot name or a factory"),
    ("design_map", lambda t: L.design_map("bust", x=("nope", [1]), y=("hand", [2])), "x's option must be one of"),
    ("design_map", lambda t: L.design_map("bust", x=("limit", [21]), y=("hand", [2]), measure="fun"), "measure must be one of"),
    ("clopper_pearson", lambda t: L.clopper_pearson(3, 2), "wins (3) must not be more than games (2)"),
    ("clopper_pearson", lambda t: L.clopper_pearson(1, None), "games must be a finite number"),
    ("clopper_pearson", lambda t: L.clopper_pearson(1, 2, z=0), "z must be above 0"),
    ("traced", lambda t: L.traced("bust", 0), "games must be a whole number"),
    ("traced", lambda t: L.traced("bust", 2, evaluator="x"), "evaluator must be one of"),
    ("traced", lambda t: L.traced("bust", 2, every=0), "every must be a whole number"),
    ("report", lambda t: L.report("bust", ladder="x"), "ladder must be True, False or a list"),
    ("report", lambda t: L.report("bust", sweep_option="limit"), "a sweep needs both"),
    ("sweep", lambda t: L.sweep("nope", [1, 2], "bust"), "option must be one of"),
    ("sweep", lambda t: L.sweep("limit", [21], "bust"), "values must list two values"),
    ("load", lambda t: L.load([]), "give a folder, a file, or a list of files"),
    ("load", lambda t: L.load([t]), "each file is a path"),
    ("skill_ladder", lambda t: L.skill_ladder("bust", rungs=["random"]), "rungs must list two or more bots"),
    ("ISMCTSAt", lambda t: L.ISMCTSAt(0), "iterations must be a whole number"),
    # the intervals
    ("wilson", lambda t: L.wilson("a", 10), "wins must be a finite number"),
    ("wilson", lambda t: L.wilson(11, 10), "must not be more than games"),
    ("wilson", lambda t: L.wilson(-1, 10), "wins must be 0 or more"),
    ("wilson", lambda t: L.wilson(1, math.inf), "games must be a finite number"),
    ("wilson", lambda t: L.wilson(math.nan, 10), "wins must be a finite number"),
    ("wilson", lambda t: L.wilson(1, 10, z=0), "z must be above 0"),
    ("wilson", lambda t: L.wilson(1, None), "games must be a finite number"),
    ("newcombe", lambda t: L.newcombe(1, 2, 3, "4"), "games_b must be a finite number"),
    ("newcombe", lambda t: L.newcombe(3, 2, 1, 2), "wins_a (3) must not be more than games_a (2)"),
    ("newcombe_paired", lambda t: L.newcombe_paired(-1, 0, 0, 0), "both must be 0 or more"),
    ("newcombe_paired", lambda t: L.newcombe_paired(1, 2, None, 0), "only_b must be a finite number"),
    ("mean_interval", lambda t: L.mean_interval(None), "values must be a list of numbers"),
    ("mean_interval", lambda t: L.mean_interval("abc"), "values must be a list of numbers"),
    ("mean_interval", lambda t: L.mean_interval([1, "x"]), "values must hold finite numbers"),
    ("mean_interval", lambda t: L.mean_interval([math.inf, 1.0]), "values must hold finite numbers"),
    ("mean_interval", lambda t: L.mean_interval([math.nan, 1.0]), "values must hold finite numbers"),
    ("mean_difference", lambda t: L.mean_difference([1.0], [1.0, 2.0], paired=True), "same length"),
    ("mean_difference", lambda t: L.mean_difference([1.0, 2.0], None), "b must be a list of numbers"),
    ("mean_difference", lambda t: L.mean_difference([1.0, 2.0], [1.0, 3.0], paired="yes"), "paired must be True or False"),
]


@pytest.mark.parametrize(("name", "call", "words"), HOSTILE, ids=[f"{c[0]}-{i}" for i, c in enumerate(HOSTILE)])
def test_hostile_input_to_a_lab_helper_is_a_game_error(table: pd.DataFrame, name: str, call: Callable[[pd.DataFrame], Any],
                                                       words: str) -> None:
    kept, attrs = table.copy(), dict(table.attrs)
    with pytest.raises(GameError) as caught:
        call(table)
    assert words in str(caught.value), str(caught.value)
    assert len(str(caught.value)) < 1200
    pd.testing.assert_frame_equal(table, kept)  # left as it was
    assert table.attrs.keys() == attrs.keys()


# Empty input that means something: a well-formed empty result.
def test_empty_input_where_it_means_something_gives_an_empty_result(table: pd.DataFrame) -> None:
    long = L.per_seat(_empty(table))
    assert len(long) == 0 and list(long.columns) == list(L.per_seat(table).columns)
    rates = L.rate_table(long, ["seat"])
    assert len(rates) == 0 and list(rates.columns) == ["games", "wins", "shared", "win_rate", "low", "high", "fair"]
    assert L.count_columns(_empty(table)) == [] and L.count_columns(pd.DataFrame()) == []
    assert all(math.isnan(x) for x in L.mean_interval([]))
    assert all(math.isnan(x) for x in L.wilson(0, 0))
    assert all(math.isnan(x) for x in L.newcombe(0, 0, 1, 2))
    assert all(math.isnan(x) for x in L.newcombe_paired(0, 0, 0, 0))
    assert math.isnan(L.mean_difference([], [1.0])[0])
    # None where a default is meant: by seat
    pd.testing.assert_frame_equal(L.win_rate(table, by=None).table, L.win_rate(table).table)
    # numbers from a table (numpy's) are numbers
    assert L.wilson(table["win_0"].sum(), len(table)) == L.wilson(int(table["win_0"].sum()), len(table))
    assert L.game_seed(table["seed"].iloc[0] * 0, table["game"].iloc[1]) == L.game_seed(0, 1)
    assert L.mean_interval(table["score_0"])[0] == pytest.approx(table["score_0"].mean())


def test_helpers_draw_into_axes_given() -> None:
    from matplotlib.figure import Figure

    df = kum.simulate(6, game="bust", bots=("greedy", "random"), seed=1, progress=False)
    ax = Figure().subplots()
    assert L.win_rate(df, ax=ax).axes is ax
    pair = Figure().subplots(1, 2)  # an array of Axes, as plt.subplots gives
    assert list(L.compare(df, df, ax=pair).axes) == list(pair)


EXEMPT = {"LabResult": "a result class (what the helpers return), not a helper that takes input",
          "Report": "a result class (what report returns), not a helper that takes input",
          "ActionLimitError": "an exception class",
          "HandIn": "a result class (what load returns), not a helper that takes input",
          "Outcome": "a result class (a game of what load returns), not a helper that takes input"}


def test_the_hostile_table_covers_every_public_helper() -> None:
    covered = {name for name, _, _ in HOSTILE}
    public = set(kum.lab.__all__) - {n for n in kum.lab.__all__ if not callable(getattr(kum.lab, n))}
    assert public - covered - set(EXEMPT) == set()


def test_lab_errors_are_game_errors_that_stay_value_errors() -> None:
    """Old code catching ValueError still catches what the lab raises."""
    with pytest.raises(ValueError):
        L.win_rate(5)
    assert issubclass(LIMIT_ERROR, GameError) and issubclass(GameError, ValueError)
