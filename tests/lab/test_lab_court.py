"""The design lab on the court solitaire (``game="court"``): rules as a ``kum.CourtRules``
or a dict, the table's columns, the analysis helpers, and ``score_by_feature`` (generic
over any game's count columns)."""

from __future__ import annotations

import math
from typing import Any

import pandas as pd
import pytest
from matplotlib.figure import Figure

import kum_widget as kum

ROLES = ["minister", "tax_collector", "general", "poet", "courtesan"]


@pytest.fixture(scope="module")
def court() -> pd.DataFrame:
    return kum.simulate(40, game="court", bots=("greedy",), seed=3, progress=False)


def test_a_solitaire_needs_no_players_argument(court: pd.DataFrame) -> None:
    assert len(court) == 40 and court.attrs["players"] == 1 and (court["players"] == 1).all()
    assert (court["bot_0"] == "greedy").all() and court["win_0"].all()
    again = kum.simulate(3, game="court", bots="random", progress=False)  # one bot named: the game's only seat count
    assert again.attrs["players"] == 1
    with pytest.raises(ValueError, match=r"players must be a whole number 1\.\.1"):
        kum.simulate(2, game="court", players=2, progress=False)
    # Kings Under Mountains keeps its two seats by default, and a bot list of the wrong length still says so
    assert kum.simulate(2, bots="random", progress=False).attrs["players"] == 2
    with pytest.raises(ValueError, match="one bot per seat"):
        kum.simulate(2, bots=("random",), progress=False)


def test_columns_follow_the_games_hook(court: pd.DataFrame) -> None:
    listed = kum.lab.columns(1, "court")
    assert list(court.columns[: len(listed)]) == listed
    assert listed[:5] == ["game", "seed", "bot_0", "score_0", "rank"]
    assert {f"bought_{r}" for r in ROLES} | {f"court_{r}" for r in ROLES} <= set(court.columns)
    parts = court[[c for c in court.columns if c.startswith("vp_")]].sum(axis=1)
    assert (parts == court["score_0"]).all()


def test_rules_as_court_rules_or_a_dict_are_the_same_run() -> None:
    by_object = kum.simulate(6, game="court", bots=("greedy",), rules=kum.CourtRules(price="printed"), progress=False)
    by_dict = kum.simulate(6, game="court", bots=("greedy",), rules={"price": "printed"}, progress=False)
    pd.testing.assert_frame_equal(by_object, by_dict)
    assert by_object.attrs["rules_changed"] == {"price": "printed"}
    assert by_object.attrs["rules"]["price"] == "printed"
    assert kum.CourtRules.from_options(by_object.attrs["rules"]) == kum.CourtRules(price="printed")
    replayed = kum.lab.replay(by_object, 2)
    assert replayed.scores()[0] == by_object.loc[2, "score_0"]
    with pytest.raises(ValueError, match="unknown option 'limit'"):
        kum.simulate(2, game="court", rules={"limit": 3}, progress=False)
    with pytest.raises(ValueError, match="options must be a mapping"):
        kum.simulate(2, game="court", rules="printed", progress=False)


def test_any_rules_object_with_options_is_read_as_its_options() -> None:
    class Limit:  # duck typing: the lab names no game's rules class
        def options(self) -> dict[str, Any]:
            return {"limit": 25}

    a = kum.simulate(4, game="bust", rules=Limit(), progress=False)
    assert a.attrs["rules_changed"] == {"limit": 25}
    # Kings Under Mountains' Rules (no options() method) still go to its with_options as they are
    assert kum.simulate(2, rules=kum.Rules(stuck="draw"), progress=False).attrs["rules_changed"] == {"stuck": "draw"}


def test_score_distribution_and_game_length_on_the_court(court: pd.DataFrame) -> None:
    dist = kum.lab.score_distribution(court)
    assert list(dist.table.index) == ["greedy"] and dist.table.loc["greedy", "games"] == 40
    assert dist.table.loc["greedy", "mean"] == pytest.approx(court["score_0"].mean())
    length = kum.lab.game_length(court)
    assert length.title.startswith("Game length: turns")


def test_compare_two_court_rule_sets_by_score(court: pd.DataFrame) -> None:
    res = kum.lab.compare(court, kum.CourtRules(price="printed"), games=40, bots=("greedy",), seed=3, progress=False)
    t = res.table
    assert list(t.index) == ["A: standard rules", "B: price=printed", "B - A"]
    assert t.loc["B - A", "rules"] == "difference (paired by game seed)"
    data = res.data
    assert data is not None
    a, b = (data[data["variant"] == v].sort_values("game")["score_0"].to_numpy(dtype=float) for v in t.index[:2])
    d, low, high = kum.lab.mean_difference(list(a), list(b), paired=True)
    assert tuple(t.loc["B - A", ["mean_score", "score_low", "score_high"]]) == pytest.approx((d, low, high))
    for v in t.index[:2]:
        assert t.loc[v, "score_low"] <= t.loc[v, "mean_score"] <= t.loc[v, "score_high"]
    assert res.title.startswith("Mean score: B - A") and isinstance(res.figure, Figure)
    # the same from rules alone (the game named), and from two tables
    direct = kum.lab.compare(None, {"price": "printed"}, games=40, game="court", bots=("greedy",), seed=3, progress=False)
    pd.testing.assert_frame_equal(direct.table, t)


def test_score_by_feature_on_the_roles(court: pd.DataFrame) -> None:
    res = kum.lab.score_by_feature(court, "bought_")
    t = res.table
    assert list(t.index) == ROLES and t.index.name == "feature"
    assert list(t.columns) == ["games", "with", "rate", "rate_low", "rate_high", "mean_count", "score_with",
                               "score_without", "difference", "diff_low", "diff_high"]
    for role in ROLES:
        has = court[f"bought_{role}"] > 0
        row = t.loc[role]
        assert row["with"] == has.sum() and row["rate"] == pytest.approx(has.mean())
        assert (row["rate_low"], row["rate_high"]) == pytest.approx(kum.lab.wilson(int(has.sum()), 40))
        if 2 <= has.sum() <= 38:
            with_, without = court.loc[has, "score_0"], court.loc[~has, "score_0"]
            assert row["score_with"] == pytest.approx(with_.mean()) and row["score_without"] == pytest.approx(without.mean())
            half = 1.959963984540054 * math.sqrt(with_.var() / len(with_) + without.var() / len(without))
            assert (row["diff_low"], row["difference"], row["diff_high"]) == pytest.approx(
                (with_.mean() - without.mean() - half, with_.mean() - without.mean(), with_.mean() - without.mean() + half))
    assert isinstance(res.figure, Figure) and len(res.axes) == 2
    # in words: the title, the rows of the plot and of the table shown
    assert res.title == "Score of games with and without each feature (40 games)"
    assert [t.get_text() for t in res.axes[0].get_yticklabels()] == [f"bought {r.replace('_', ' ')}" for r in ROLES]  # top to bottom
    assert res.labels["tax_collector"] == "bought tax collector" and "bought tax collector" in res._repr_mimebundle_()["text/html"]
    listed = kum.lab.score_by_feature(court, ["bought_poet", "court_poet"]).table
    assert list(listed.index) == ["bought_poet", "court_poet"]
    pd.testing.assert_series_equal(listed.loc["bought_poet"], t.loc["poet"], check_names=False)


def test_score_by_feature_is_generic() -> None:
    df = pd.DataFrame({"game": range(6), "score_0": [1.0, 2, 3, 4, 5, 6], "bot_0": ["x"] * 6, "win_0": [True] * 6,
                       "n_winners": [1] * 6, "gems": [0, 0, 1, 2, 0, 3], "always": [1] * 6, "debt": [0, -1, 0, 0, 0, 0],
                       "label": list("abcdef")})
    assert kum.lab.count_columns(df) == ["gems"]  # whole numbers >= 0, zero in some games and not in others
    t = kum.lab.score_by_feature(df).table
    assert list(t.index) == ["gems"]
    assert t.loc["gems", "with"] == 3 and t.loc["gems", "score_with"] == pytest.approx(13 / 3)
    assert t.loc["gems", "score_without"] == pytest.approx(8 / 3)
    one = kum.lab.score_by_feature(df, ["always"]).table  # nobody without: no difference to give
    assert one.loc["always", "rate"] == 1 and math.isnan(one.loc["always", "difference"])


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"columns": "nope_"}, "no column starts with 'nope_'"),
        ({"columns": ["bought_poet", "nope"]}, "no column 'nope'"),
        ({"columns": ["rank"]}, "must be numeric counts"),
        ({"columns": "bought_", "score": "nope"}, "score='nope' must be a numeric column"),
    ],
)
def test_score_by_feature_bad_arguments(court: pd.DataFrame, kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        kum.lab.score_by_feature(court, **kwargs)


def test_score_by_feature_needs_a_table() -> None:
    with pytest.raises(ValueError, match="expected the DataFrame"):
        kum.lab.score_by_feature([1, 2, 3])  # type: ignore[arg-type]


def test_mean_intervals() -> None:
    m, low, high = kum.lab.mean_interval([2.0, 4.0, 6.0])
    assert m == 4 and low < 4 < high and high - 4 == pytest.approx(4 - low)
    assert all(math.isnan(x) for x in kum.lab.mean_interval([]))
    assert kum.lab.mean_interval([3.0])[0] == 3 and math.isnan(kum.lab.mean_interval([3.0])[1])
    d, low, high = kum.lab.mean_difference([1.0, 2.0, 3.0], [2.0, 3.0, 5.0], paired=True)
    assert d == pytest.approx(4 / 3) and low < d < high
    with pytest.raises(ValueError, match="same length"):
        kum.lab.mean_difference([1.0], [1.0, 2.0], paired=True)
