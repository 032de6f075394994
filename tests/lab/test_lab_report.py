"""The design report on the games that ship and the gallery, and what it refuses: readings
that once said more than their data showed (each test failed on the code before it), and
questions the lab cannot answer, refused with the reason."""

from __future__ import annotations

import time
import warnings
from typing import Any

import pytest
from _design_games import Coin
from _endless_game import Endless

import kum_widget as kum
from kum_widget.core import Session
from kum_widget.core.errors import GameError
from kum_widget.gallery.connect_four import ConnectFour

# -- Connect Four: no chance, so no luck; what wins, column by column ----------------------------


@pytest.fixture(scope="module")
def four() -> kum.lab.Report:
    return kum.lab.report(ConnectFour, games=60, seed=0, progress=False, what_wins_games=60, luck_games=20,
                          evaluator="none", ladder_games=40)


def test_connect_four_has_no_luck(four: kum.lab.Report) -> None:
    luck = four["luck"]
    assert not luck.table.attrs["has_chance"] and luck.table.attrs["luck"] == 0
    assert luck.reading.startswith("No luck: no chance: every deal is the same")
    for key in ("skill", "decisions", "balance"):  # the word comes from the luck measurement, nowhere else
        assert "luck" not in four[key].reading.lower(), four[key].reading


def test_connect_four_what_wins_is_an_experiment_column_by_column(four: kum.lab.Report) -> None:
    t = four["what_wins"].table
    assert set(t["what"]) <= {"column 4", "column 1 / 7 (mirror images)", "column 2 / 6 (mirror images)",
                              "column 3 / 5 (mirror images)"}
    assert "column 4" in set(t["what"]) and len(t) >= 2
    assert t["low"].notna().all() and t["high"].notna().all() and (t["low"] <= t["high"]).all()
    assert t.attrs["compared"] == len(t) and "Holm" in four["what_wins"].about
    assert "drop in column" not in " ".join(t["what"])  # the text's words were one kind: a column each now
    # the winner's extra drop (the move that wins) is left out of the associations
    assert "the move that ended the game left out" in four["associations"].about


# -- the court: what wins by experiment; associations adjusted for length -------------------------


@pytest.fixture(scope="module")
def court() -> kum.lab.Report:
    return kum.lab.report("court", games=80, seed=0, progress=False, what_wins_games=80, luck_games=40, ladder_games=40)


def test_the_courts_what_wins_is_an_experiment(court: kum.lab.Report) -> None:
    t = court["what_wins"].table
    assert "pass" in set(t["what"]) and "start" not in set(t["what"])  # a starting card is no choice between kinds
    row = t.set_index("what").loc["pass"]
    assert row["low"] <= row["difference"] <= row["high"] and row["games"] == 80
    assert court["what_wins"].title == "What wins? (an experiment)"
    assert court["what_wins"].reading.startswith(("Never taking", "No difference found"))


def test_the_courts_associations_are_labelled_and_adjusted_for_length(court: kum.lab.Report) -> None:
    a = court["associations"]
    assert a.title == "Which plays go with the score? (associations, not causes)"
    assert "length" in a.about and "not a cause" in a.about
    pass_ = a.table.set_index("what").loc["pass"]
    # a longer reign has more passes and more points: the raw slope is far from the adjusted one
    assert abs(pass_["unadjusted"] - pass_["difference"]) > 0.5
    assert "(more than" not in " ".join(a.table["what"])  # no count cut at a median: a share of the decisions


# -- Kings Under Mountains: four races, one question -------------------------------------------


def test_kum_camp_piles_are_one_mirror_question() -> None:
    r = kum.lab.what_wins("kum", games=40, progress=False)
    camp = [w for w in r.table["what"] if "draw camp" in w]
    assert camp == ["draw camp orc / dwarf / goblin / giant (mirror images)"]
    assert not any(w in {"draw camp orc", "draw camp goblin", "draw camp giant", "draw camp dwarf"} for w in r.table["what"])


# -- pooled games: only this game under these rules -----------------------------------------------


def _played(game: Any, seed: int) -> Session:
    s = Session(game, 2, seed=seed)
    while not s.is_over:
        s.apply(s.legal_actions()[0])
    return s


@pytest.mark.parametrize(("pooled", "words"), [
    pytest.param(lambda: [_played(kum.lab.play.the_game("bust"), 1)], "is a game of Bust, not of Coin", id="another game"),
    pytest.param(lambda: [_played(Coin(length=12), 1)], "played under other rules: length=12 (the report's: 10)",
                 id="other rules"),
    pytest.param(lambda: [_played(Coin(length=12), 1).record()], "played under other rules", id="a record of other rules"),
    pytest.param(lambda: [_played(kum.lab.play.the_game("bust"), 1).record()], "pooled game 0", id="a record of another game"),
    pytest.param(lambda: [Session(Coin(), 2, seed=1)], "pooled game 0 has not ended", id="unfinished"),
    pytest.param(lambda: "not a list", "pooled must list finished games", id="text"),
])
def test_pooled_games_of_another_game_or_rules_are_refused_before_anything_is_played(pooled: Any, words: str) -> None:
    t0 = time.perf_counter()
    with pytest.raises(GameError, match=r"^report: ") as err:
        kum.lab.report(Coin(), games=2000, progress=False, pooled=pooled())
    assert words in str(err.value)
    assert time.perf_counter() - t0 < 30  # refused before 2000 games were played (a bound, not a timing)


# -- games that never end ---------------------------------------------------------------------


def test_a_game_that_never_ends_is_refused_at_once() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # refused, and not also warned of ("left out of the table")
        with pytest.raises(GameError, match=r"report: Endless does not end: 10 of its first 10 games ran past "
                                            r"max_actions=300 actions \(check it"):
            kum.lab.report(Endless(), games=400, progress=False, max_actions=300)


def test_games_past_the_cap_are_counted_and_named_in_the_report() -> None:
    with pytest.warns(UserWarning, match="did not end within max_actions"):
        r = kum.lab.report(Endless(share=0.2), games=60, progress=False, max_actions=40, ladder=False)
    past = r.tables["games"].attrs["unfinished"]
    assert 0 < len(past) < 30
    assert r.settings["games past the action limit"].startswith(f"{len(past)} (games {past[0]}")
    assert f"({len(past)} more ran past 40 actions and are left out)" in r.subtitle
    assert f"{len(past)} games ran past the limit of 40 actions" in r["length"].reading


def test_the_time_limit_is_a_safety_stop_that_says_what_was_cut() -> None:
    r = kum.lab.report(Coin(), games=40, progress=False, time_limit=1e-9, ladder=False)
    assert r.sections == [] and "the time limit" in r.settings["cut short"] and "balance" in r.settings["cut short"]
    with pytest.raises(GameError, match="time_limit must be a number of seconds above 0"):
        kum.lab.report(Coin(), games=40, progress=False, time_limit=0)


def test_an_estimate_keeps_its_step_budget() -> None:
    """The ISMCTS and playout estimates of a position stop their rollouts after a fixed number
    of moves, so a game that goes on costs the same, bounded work on every executor."""
    from kum_widget.lab.trace import ROLLOUT_STEPS, ismcts_estimate, playout_values

    game = Endless()
    state = game.setup(2, __import__("random").Random(0))
    values, errors = playout_values(game, state, 2, 4, __import__("random").Random(1))
    assert values == [0.5, 0.5] and errors == [0.0, 0.0]  # every playout cut at the budget: even
    assert ismcts_estimate(game, state, 2, __import__("random").Random(1)) == pytest.approx([0.5, 0.5])
    assert ROLLOUT_STEPS <= 1000


# -- honest pictures --------------------------------------------------------------------------


def test_rates_are_drawn_on_their_whole_scale() -> None:
    """A rate near 50% on an axis from 40% to 60% looks like a landslide: every rate's axis runs
    from 0 to 100% (a little more for labels)."""
    df = kum.simulate(30, game="bust", bots="greedy", progress=False)
    t = kum.lab.traced("bust", 30, progress=False)
    for axes in (kum.lab.win_rate(df).axes, kum.lab.balance(t).axes, kum.lab.compare(df, df).axes[0],
                 kum.lab.skill_ladder("bust", rungs=("random", "greedy"), games=20, progress=False).axes):
        low, high = axes.get_ylim()
        assert low == 0 and high >= 1, axes.get_title()
    luck = kum.lab.luck("bust", games=20, progress=False).axes
    assert luck.get_xlim() == (0.0, 1.0)


# -- what a review found (each test failed on the code before its fix) ------------------------------


def test_many_equal_options_are_not_read_as_real_choices() -> None:
    """The best and the worst of ten noisy estimates of equal options are far apart by chance:
    they are compared on fresh playouts, so Wide's choices (none matters) read as not real."""
    from _design_games import Wide

    t = kum.lab.traced(Wide, 40, progress=False, options=True, evaluator="none")
    a = kum.lab.decisions(t).table.attrs
    assert a["sampled"] >= 20 and a["real"] <= 0.1, a


def test_luck_refuses_bots_that_differ_by_seat() -> None:
    """Which bot sits where follows the game's number, the same in both plays of a deal: it
    would read as luck."""
    from _design_games import Gems

    with pytest.raises(GameError, match="luck compares plays of one deal by the same bot at every seat"):
        kum.lab.luck(Gems(), bots=("random", "greedy"), games=20, progress=False)
    r = kum.lab.report(Gems(), games=40, bots=("random", "greedy"), progress=False, ladder=False)
    assert r["luck"].table.attrs["luck_high"] <= 1 and "random bots" in r["luck"].reading  # one bot at every seat


def test_associations_are_read_at_a_balanced_seating() -> None:
    """A kind winners play more only because the winner mostly moved first: at a balanced
    seating the difference is what is left (the plain mean would keep the seating's share)."""
    import importlib

    associations = importlib.import_module("kum_widget.lab.associations")
    first = [1.0] * 80 + [0.0] * 20
    diffs = [0.09 * f - 0.008 for f in first]
    est, _, _ = associations.adjusted_mean(diffs, [first], at=[0.5])
    assert est == pytest.approx(0.037) and sum(diffs) / len(diffs) == pytest.approx(0.064)


@pytest.mark.parametrize(("kw", "words"), [
    ({"ladder_games": "x"}, "report: ladder_games must be a whole number >= 2"),
    ({"ladder": []}, "rungs must list two or more bots"),
    ({"target": "5"}, "target must be None or (low, high)"),
    ({"sweep_option": "edge", "sweep_values": 5}, "report: sweep_values must list 1 to 10 values of edge"),
    ({"sweep_option": "edge", "sweep_values": [0.5, "x"]}, "report: Coin refuses edge='x'"),
    ({"sweep_option": "edge", "sweep_values": [0.5], "sweep_games": 0}, "sweep_games must be a whole number >= 1"),
    ({"progress": "x"}, "report: progress must be True or False"),
])
def test_the_report_refuses_bad_settings_before_playing(kw: dict[str, Any], words: str) -> None:
    t0 = time.perf_counter()
    with pytest.raises(GameError) as err:
        kum.lab.report(Coin(), games=4000, **kw)
    assert words in str(err.value)
    assert time.perf_counter() - t0 < 30  # before 4000 games were played (a bound, not a timing)


def test_pooled_games_of_a_subclass_are_another_game() -> None:
    class Twisted(Coin):
        def apply(self, s: Any, a: int) -> list[Any]:
            s.moves += 2
            return ["twisted"]

    with pytest.raises(GameError, match=r"pooled game 0 is a game of Twisted, not of Coin \(Coin\)"):
        kum.lab.report(Coin(), games=2000, progress=False, pooled=[_played(Twisted(), 1)])


def test_a_ladder_looks_ten_times_at_most_when_planned() -> None:
    assert kum.lab.ladder.plan(200) == (200, 20) and kum.lab.ladder.plan(37) == (40, 4)
    with pytest.raises(GameError, match="at most 20 looks a match"):
        kum.lab.skill_ladder(Coin, rungs=("random", "greedy"), games=1000, batch=1, progress=False)


def test_an_interval_that_straddles_zero_is_read_with_its_signs() -> None:
    import pandas as pd

    from kum_widget.lab.restricted import _reading

    table = pd.DataFrame([{"what": "bank", "difference": -0.14, "low": -0.33, "high": 0.04, "named": False,
                           "changed": 0.3}])
    table.attrs.update(bot="greedy")
    reading = _reading(table, 2)
    assert "-14 points of win share [-33, +4], an interval that includes 0" in reading
