"""The design map (kum.lab.design_map) and the sweep built on it, on small games whose answers are known.

Coin (tests/_design_games.py) draws its winner at the deal: seat 0 with probability
``edge``, and ``first`` says which seat moves first, so the first player's edge of a cell
is ``edge - 1/2`` when seat 0 moves first and ``1/2 - edge`` when seat 1 does, and the
exact share of a run is read off its deals. Its length, branching and scripted lead changes
are known too. Endless (tests/_endless_game.py) never ends when its ``share`` is 1.
"""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("MPLBACKEND", "Agg")

import _endless_game  # noqa: F401  (registers "endless": a game whose option makes games never end)
import pandas as pd
import pytest
from _design_games import Coin

import kum_widget as kum
from kum_widget.core import GameError, Session
from kum_widget.lab import game_seed

RANDOM = {"bots": "random", "progress": False}  # the deal decides Coin's winner: the random bot is enough, and fast


def cell(table: pd.DataFrame, **where: Any) -> pd.Series:
    """The one row of a map's table at the given option values."""
    found = table
    for option, value in where.items():
        found = found[found[option] == value]
    assert len(found) == 1, where
    return found.iloc[0]


def exact_edge(edge: float, first: int, games: int, seed: int, draw: float) -> float:
    """The first player's share of decisive games minus 1/2, from Coin's deals themselves."""
    winners = [Session(Coin(edge=edge, first=first, draw=draw), 2, seed=game_seed(seed, i)).state.winner for i in range(games)]
    decisive = [w for w in winners if w is not None]
    return sum(1 for w in decisive if w == first) / len(decisive) - 0.5


# -- the first player's edge: known cells ------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_each_cell_is_the_edge_its_rules_deal(seed: int) -> None:
    edges, firsts = [0.2, 0.5, 0.8], [0, 1]
    r = kum.lab.design_map(Coin(draw=0.2), x=("edge", edges), y=("first", firsts), games=120, seed=seed, **RANDOM)
    t = r.table
    assert t[["edge", "first"]].values.tolist() == [[e, f] for e in edges for f in firsts]  # x-major, y-minor
    for e in edges:
        for f in firsts:
            c = cell(t, edge=e, first=f)
            assert c["value"] == pytest.approx(exact_edge(e, f, 120, seed, 0.2), abs=1e-12)  # the deals' own share
            truth = (e - 0.5) if f == 0 else (0.5 - e)
            assert c["low"] <= c["value"] <= c["high"] and c["high"] - c["low"] < 0.4
            assert abs(c["value"] - truth) < 0.15  # near the rule's edge (its interval: see below)
            assert c["games"] == 120 and c["unfinished"] == 0 and pd.isna(c["failed"])
            assert c["decisive games"] < 120  # draws are not decisive
    inside = [cell(t, edge=e, first=f) for e in edges for f in firsts]
    truth = [(e - 0.5) * (1 if f == 0 else -1) for e in edges for f in firsts]
    assert sum(c["low"] <= x <= c["high"] for c, x in zip(inside, truth, strict=True)) >= 5  # 95% intervals: 1 miss at most
    a = t.attrs
    assert (a["game"], a["options"], a["measure"], a["seed"], a["executor"]) == ("design-coin", ("edge", "first"),
                                                                                  "first_player_edge", seed, "in process")
    assert a["values"] == {"edge": edges, "first": firsts} and a["seconds"] > 0


def test_the_same_deals_in_every_cell() -> None:
    # story changes only what Coin's evaluate says, not who wins: its cells are the same games
    r = kum.lab.design_map(Coin(), x=("edge", [0.3, 0.7]), y=("story", ["wire", "comeback"]), games=80, seed=4, **RANDOM)
    t = r.table
    for e in (0.3, 0.7):
        wire, comeback = cell(t, edge=e, story="wire"), cell(t, edge=e, story="comeback")
        assert wire[["value", "low", "high", "decisive games"]].tolist() == comeback[["value", "low", "high", "decisive games"]].tolist()
        # and they are simulate's games: game i dealt from game_seed(seed, i)
        alone = kum.lab.balance(kum.simulate(80, game=Coin(edge=e), seed=4, bots="random", progress=False))
        assert wire["value"] == alone.table["value"].iloc[0] - 0.5
    data = r.data
    assert data is not None and len(data) == 4 * 80 and list(data.columns[:2]) == ["edge", "story"]
    assert (data.groupby(["edge", "story"])["seed"].apply(list).map(tuple).nunique()) == 1  # every cell: the same seeds


def test_cells_whose_interval_includes_the_goal_are_marked() -> None:
    r = kum.lab.design_map(Coin(), x=("edge", [0.5, 0.95]), y=("draw", [0.0, 0.1]), games=150, **RANDOM)
    t = r.table
    for _, c in t.iterrows():
        assert c["goal inside interval"] == (c["low"] <= 0 <= c["high"])
    assert cell(t, edge=0.5, draw=0.0)["goal inside interval"] and not cell(t, edge=0.95, draw=0.0)["goal inside interval"]
    marked = int(sum(bool(m) for m in t["goal inside interval"]))
    rings = [line for line in r.axes.lines if line.get_marker() == "o"]
    assert len(rings) == marked  # one ring a marked cell
    assert f"{marked} of 4 cells' 95% intervals include 0" in r.reading
    assert "best" not in r.reading and "adjusted" in r.about and "same games" in r.about
    legend = " ".join(text.get_text() for lg in r.figure.legends for text in lg.get_texts())
    assert "includes 0, an even game" in legend and "not adjusted for multiple comparisons" in legend
    other = kum.lab.design_map(Coin(), x=("edge", [0.5, 0.95]), y=("draw", [0.0, 0.1]), games=150, goal=0.45, **RANDOM)
    assert cell(other.table, edge=0.95, draw=0.0)["goal inside interval"]  # an edge of 45 points is that cell's


def test_the_figure_is_labelled() -> None:
    r = kum.lab.design_map(Coin(), x=("edge", [0.4, 0.6]), y=("first", [0, 1]), games=40, **RANDOM)
    a = r.axes
    assert (a.get_xlabel(), a.get_ylabel()) == ("edge", "first")
    assert [x.get_text() for x in a.get_xticklabels()] == ["0.4", "0.6"]
    assert [y.get_text() for y in a.get_yticklabels()] == ["0", "1"]
    bar = r.figure.axes[-1]
    assert "first player's edge" in bar.get_ylabel() and "percentage points" in bar.get_ylabel()
    texts = [x.get_text() for x in a.texts]
    assert len(texts) == 4 and all("[" in x for x in texts)  # every cell: its figure and its interval


# -- the other measures ---------------------------------------------------------------------------


def test_length_against_a_target() -> None:
    # length decisions, per_turn a turn: length / per_turn turns, every game alike
    r = kum.lab.design_map(Coin(), x=("length", [6, 12]), y=("per_turn", [1, 2]), measure="length", target=(5, 7),
                           games=30, **RANDOM)
    t = r.table
    for n, p in ((6, 1), (6, 2), (12, 1), (12, 2)):
        c = cell(t, length=n, per_turn=p)
        assert (c["value"], c["low"], c["high"]) == (n / p, n / p, n / p)
        assert c["goal inside interval"] == (5 <= n / p <= 7)
    assert "2 of 4 cells' 95% intervals overlap the target of 5 to 7 turns" in r.reading


def test_decisions_are_the_design_reports_own() -> None:
    r = kum.lab.design_map(Coin(), x=("early", [1, 3]), y=("late", [1, 3]), measure="decisions", games=20, **RANDOM)
    for _, c in r.table.iterrows():
        alone = kum.lab.decisions(Coin(early=int(c["early"]), late=int(c["late"])), games=20, **RANDOM).table.attrs
        assert pd.Series([c["value"], c["low"], c["high"]]).equals(pd.Series([alone[k] for k in ("real", "real_low", "real_high")]))
    assert cell(r.table, early=1, late=1)["failed"] == "every move was forced"  # nothing to choose: no share to give
    assert r.table["goal inside interval"].isna().all()
    assert "no goal given" in r.reading


def test_drama_counts_the_scripted_lead_changes() -> None:
    r = kum.lab.design_map(Coin(), x=("story", ["wire", "comeback"]), y=("edge", [0.0, 1.0]), measure="drama", goal=1,
                           games=20, **RANDOM)
    t = r.table
    for e in (0.0, 1.0):
        assert cell(t, story="wire", edge=e)["value"] == 0 and cell(t, story="comeback", edge=e)["value"] == 1
        assert cell(t, story="comeback", edge=e)["goal inside interval"]
    assert "the game's own evaluate" in t.attrs["evaluator"]


# -- the same map on every executor ----------------------------------------------------------------


@pytest.mark.parametrize("measure", ["first_player_edge", "length"])
def test_the_map_is_the_same_on_every_executor(measure: str, dask_client: Any) -> None:
    kw: dict[str, Any] = {"x": ("edge", [0.3, 0.6, 0.9]), "y": ("never", [0.0, 0.2]), "games": 40, "seed": 2,
                          "measure": measure, "max_actions": 30, **RANDOM}
    if measure == "length":
        kw["target"] = (8, 12)
    with pytest.warns(UserWarning, match="did not end within max_actions=30"):
        here = kum.lab.design_map(Coin(), **kw)
    assert here.table["unfinished"].iloc[1] > 0  # never=0.2: some games never end, on every executor alike
    for executor in (2, dask_client):
        with pytest.warns(UserWarning, match="did not end"):
            there = kum.lab.design_map(Coin(), executor=executor, **kw)
        pd.testing.assert_frame_equal(here.table, there.table)
        assert there.reading == here.reading and there.table.attrs["unfinished"] == here.table.attrs["unfinished"]
        assert there.table.attrs["executor"] != "in process"


# -- failures: a cell fails, the others keep their work ----------------------------------------------


def test_a_failed_cell_keeps_the_others() -> None:
    # early=0: no legal action at the first decision (the game raises); never=1.0: no game ends
    with pytest.warns(UserWarning, match="did not end within max_actions=40"):
        r = kum.lab.design_map(Coin(), x=("early", [0, 2]), y=("never", [0.0, 0.3, 1.0]), games=30, max_actions=40,
                               **RANDOM)
    t = r.table
    for never in (0.0, 0.3, 1.0):
        c = cell(t, early=0, never=never)
        assert pd.isna(c["value"]) and c["games"] == 0 and "30 of its 30 games raised an error" in c["failed"]
    endless = cell(t, early=2, never=1.0)
    assert pd.isna(endless["value"]) and endless["unfinished"] == 30
    assert "none of its 30 games ended within max_actions=40" in endless["failed"]
    fine = cell(t, early=2, never=0.0)
    assert fine["games"] == 30 and fine["value"] == fine["value"] and pd.isna(fine["failed"])
    some = cell(t, early=2, never=0.3)
    assert some["unfinished"] + some["games"] == 30 and 0 < some["unfinished"] < 30 and pd.isna(some["failed"])
    assert set(t.attrs["failed"]) == {(0, 0.0), (0, 0.3), (0, 1.0), (2, 1.0)}
    assert t.attrs["unfinished"][(2, 0.3)] == tuple(
        i for i in range(30) if Session(Coin(never=0.3), 2, seed=game_seed(0, i)).state.endless)
    assert "4 cells are blank" in r.reading and "(early=2, never=1.0): none of its 30 games ended" in r.reading
    assert f"{some['unfinished']} games ran past max_actions=40" in r.reading
    assert sum(1 for x in r.axes.texts if x.get_text() == "failed") == 4  # drawn blank, and said so


def test_rules_the_game_refuses_together_make_a_blank_cell() -> None:
    r = kum.lab.design_map(Coin(), x=("length", [4, 10]), y=("per_turn", [1, 0]), games=10, **RANDOM)
    t = r.table  # per_turn=0: Coin divides by it when it asks who is to act
    assert t["failed"].isna().tolist() == [True, False, True, False]
    assert "ZeroDivisionError" in cell(t, length=4, per_turn=0)["failed"]
    assert (t["games"] == [10, 0, 10, 0]).all()


# -- bad input: a GameError naming the argument -------------------------------------------------------


@pytest.mark.parametrize(("kw", "match"), [
    pytest.param({"x": ("edge", [i / 20 for i in range(11)])}, "x lists more than 10 values of edge", id="over 10 x 10"),
    pytest.param({"y": ("first", [0, 1] * 6)}, "y lists", id="y over 10"),
    pytest.param({"x": ("edg", [0.5])}, "x's option must be one of Coin's rule options", id="unknown option"),
    pytest.param({"y": (3, [0.5])}, "y's option must be one of", id="an option that is no text"),
    pytest.param({"x": ("edge", [0.5, "high"])}, "x: .*edge", id="a value the game refuses"),
    pytest.param({"y": ("first", [])}, "y lists no values of first", id="no values"),
    pytest.param({"x": ("edge", 0.5)}, "x's values must list", id="values that are no list"),
    pytest.param({"x": ("edge", "0.5")}, "x's values must list", id="values as text"),
    pytest.param({"x": ("edge", [0.5, 0.5])}, "x lists edge=0.5 twice", id="a value twice"),
    pytest.param({"x": None}, "x must be \\(option, values\\)", id="no x"),
    pytest.param({"x": ("edge",)}, "x must be \\(option, values\\)", id="x without values"),
    pytest.param({"y": ("edge", [0.4])}, "x and y must be two different options", id="the same option"),
    pytest.param({"measure": "fun"}, "measure must be one of 'first_player_edge', 'length', 'decisions', 'drama'",
                 id="unknown measure"),
    pytest.param({"measure": "length"}, "target=\\(low, high\\)", id="length without a target"),
    pytest.param({"measure": "length", "target": (5, 2)}, "target", id="a target upside down"),
    pytest.param({"target": (5, 9)}, "target=\\(low, high\\) is the goal of measure='length'", id="a target elsewhere"),
    pytest.param({"measure": "length", "target": (5, 9), "goal": 7}, "goal", id="a goal for length"),
    pytest.param({"measure": "decisions", "goal": 80}, "goal must be None or a finite number in 0..1", id="a share over 1"),
    pytest.param({"goal": True}, "goal", id="a goal that is no number"),
    pytest.param({"games": 0}, "games must be a whole number", id="no games"),
    pytest.param({"executor": "many"}, "executor", id="an executor that is none"),
    pytest.param({"max_actions": 0}, "max_actions", id="max_actions"),
    pytest.param({"ax": "here"}, "ax must be None", id="ax"),
    pytest.param({"progress": "yes"}, "progress", id="progress"),
])
def test_bad_input_is_a_game_error_naming_it(kw: dict[str, Any], match: str) -> None:
    args: dict[str, Any] = {"x": ("edge", [0.5, 0.6]), "y": ("first", [0, 1]), "games": 5, **RANDOM, **kw}
    with pytest.raises(GameError, match=match):
        kum.lab.design_map(Coin(), **args)


HOSTILE = [None, -1, 0, 1.5, True, float("nan"), float("inf"), "", "x" * 5000, b"ab", [], [[]], {}, {1: 2}, object(),
           ("edge",), ("edge", None), ("edge", [float("nan")]), ("edge", [object()]), ("edge", {"a": 1}), (None, [1]),
           ("edge", iter(range(100)))]


@pytest.mark.parametrize("name", ["x", "y", "measure", "games", "bots", "players", "seed", "executor", "progress",
                                  "target", "goal", "max_actions", "ax"])
def test_no_bare_error_escapes(name: str) -> None:
    for value in HOSTILE:  # refused by name, or (a value that is fine there) a map
        args: dict[str, Any] = {"x": ("edge", [0.5, 0.6]), "y": ("first", [0, 1]), "games": 2, **RANDOM, name: value}
        try:
            kum.lab.design_map(Coin(), **args)
        except GameError as exc:
            assert len(str(exc)) < 1200, str(exc)[:200]


@pytest.mark.parametrize(("measure", "why"), [("first_player_edge", "no first player to have an edge"),
                                              ("drama", "no lead to change")])
def test_a_solitaire_has_no_edge_and_no_drama(measure: str, why: str) -> None:
    with pytest.raises(GameError, match=f"a solitaire \\(1 player\\) has {why}"):
        kum.lab.design_map("endless", x=("length", [4, 6]), y=("share", [0.0]), players=1, measure=measure, games=3,
                           **RANDOM)
    r = kum.lab.design_map("endless", x=("length", [4, 6]), y=("share", [0.0]), players=1, measure="length",
                           target=(3, 5), games=3, **RANDOM)
    for n, value in zip((4, 6), r.table["value"], strict=True):  # the design report's own count of turns
        alone = kum.lab.length("endless", rules={"length": n, "share": 0.0}, players=1, games=3, **RANDOM).table
        assert value == alone[alone["measure"] == "turns per game"]["value"].iloc[0]
    assert (r.table["games"] == 3).all()


def test_an_unknown_game_is_named() -> None:
    with pytest.raises(GameError, match="design_map"):
        kum.lab.design_map("no-such-game", x=("a", [1]), y=("b", [1]))


# -- the sweep: a one-row map --------------------------------------------------------------------------


def test_a_sweep_keeps_the_values_that_finished_when_one_never_ends() -> None:
    with pytest.warns(UserWarning, match="max_actions"):
        r = kum.lab.sweep("share", [0.0, 1.0], "endless", games=4, max_actions=50, **RANDOM)
    t = r.table
    assert t["share"].tolist() == [0.0, 1.0]
    assert t["games"].tolist() == [4, 0] and t["unfinished"].tolist() == [0, 4]
    assert t["turns"].iloc[0] == 6 and pd.isna(t["turns"].iloc[1])
    assert pd.isna(t["failed"].iloc[0]) and "none of its 4 games ended within max_actions=50" in t["failed"].iloc[1]
    assert "share=1.0" in r.reading and "none of its 4 games ended" in r.reading
    assert t.attrs["failed"] == {1.0: t["failed"].iloc[1]} and t.attrs["unfinished"] == {1.0: (0, 1, 2, 3)}


def test_a_sweep_names_a_value_whose_games_raise() -> None:
    r = kum.lab.sweep("early", [2, 0, 3], Coin(), games=10, **RANDOM)
    t = r.table
    assert t["games"].tolist() == [10, 0, 10] and t["real decisions"].notna().tolist() == [True, False, True]
    assert "10 of its 10 games raised an error" in t["failed"].iloc[1]
    assert "early=0 (10 of its 10 games raised" in r.reading
    assert "From early=2 to early=3" in r.reading  # the values that finished are still compared


def test_a_sweeps_rates_run_from_0_to_100_percent() -> None:
    r = kum.lab.sweep("length", [10, 12], Coin(), games=30, **RANDOM)
    for a in r.axes:
        if a.get_title() in ("first player's share", "draws and shared wins", "real decisions"):
            assert a.get_ylim() == (0.0, 1.0), a.get_title()
            assert "%" in a.yaxis.get_major_formatter()(0.5, 0)
        if a.get_title() == "turns":
            assert a.get_ylim()[0] == 0
    # the same deals at both lengths: who wins does not move, and the reading says no difference is found there
    assert "no difference found in" in r.reading and "first player's share" in r.reading.split("no difference found in")[1]
    assert "turns (10.0 to 12.0)" in r.reading


@pytest.mark.parametrize(("kw", "match"), [
    ({"ax": "here"}, "sweep: ax must be None"),
    ({"max_actions": 0}, "max_actions"),
    ({"games": 0}, "games must be a whole number"),
])
def test_a_sweep_refuses_bad_input_before_playing(kw: dict[str, Any], match: str) -> None:
    with pytest.raises(GameError, match=match):
        kum.lab.sweep("edge", [0.5, 0.8], Coin(), **{"games": 5, **RANDOM, **kw})
