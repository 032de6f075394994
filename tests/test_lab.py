"""The design lab: simulate's table, determinism on every executor, Ctrl-C, analysis helpers."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

os.environ.setdefault("MPLBACKEND", "Agg")

import pandas as pd
import pytest
from _lab_helpers import FirstLegal, SigintAt
from matplotlib.figure import Figure

import kum_widget as kum
from kum_widget.bots import bot_move, make_bot
from kum_widget.lab import bot_seed, game_seed, seat_bots, worker_pool

BOTS = ("random", "greedy")


@pytest.fixture(scope="module")
def results() -> pd.DataFrame:
    return kum.simulate(16, bots=BOTS, seed=7, progress=False)


@pytest.fixture(scope="module")
def pool() -> Iterator[object]:
    with worker_pool(2) as workers:  # the lab's own kind: spawned, Ctrl-C left to the parent
        yield workers


@pytest.fixture(scope="module")
def dask_client() -> Iterator[object]:
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            yield client


@pytest.fixture
def ctrl_c() -> Iterator[None]:
    """Ctrl-C raises KeyboardInterrupt in this process during the test, however pytest was
    started: a shell that starts a background job (``make test &``, nohup) makes it ignore
    SIGINT, the ignoring is inherited, and Python then installs no handler of its own."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


# -- the table ---------------------------------------------------------------------------


def test_columns_and_layout(results: pd.DataFrame) -> None:
    assert list(results.columns) == kum.lab.columns(2)
    assert list(results["game"]) == list(range(16))
    assert list(results["seed"]) == [game_seed(7, i) for i in range(16)]
    assert (results["players"] == 2).all() and (results["first_player"] == 0).all()
    # rotation: bots[0] sits at seat game % 2
    assert list(results["bot_0"]) == ["random", "greedy"] * 8
    assert list(results["bot_1"]) == ["greedy", "random"] * 8
    assert (results["race_0"] != results["race_1"]).all()
    assert set(results["race_0"]) | set(results["race_1"]) <= {"orc", "dwarf", "goblin", "giant"}
    a = results.attrs
    assert a["games"] == a["finished"] == 16 and a["interrupted"] is False and a["seed"] == 7
    assert a["bots"] == BOTS and a["rules_changed"] == {} and a["executor"] == "in process"


def test_values_are_consistent(results: pd.DataFrame) -> None:
    for seat in (0, 1):
        assert (results[f"score_{seat}"] == results[f"developed_{seat}"] - results[f"undeveloped_{seat}"]).all()
        assert (results[f"developments_{seat}"] <= results[f"claims_{seat}"]).all()
        assert (results[f"claims_by_other_{seat}"] <= results[f"claims_{seat}"]).all()
        assert (results[f"discards_{seat}"] <= results[f"stuck_{seat}"]).all()
    for row in results.itertuples():
        scores = [row.score_0, row.score_1]
        best = [s for s in (0, 1) if scores[s] == max(scores)]
        assert row.winners == tuple(best) and row.n_winners == len(best)  # D4: ties share
        assert [row.win_0, row.win_1] == [s in best for s in (0, 1)]
        assert row.claims == row.claims_0 + row.claims_1
        assert row.developments == row.developments_0 + row.developments_1
        assert row.claims_by_other == row.claims_by_other_0 + row.claims_by_other_1
        # in two-player games a mine won through another's card came from the other seat
        assert row.claims_by_other_0 == row.claims_for_other_1 and row.claims_by_other_1 == row.claims_for_other_0
        assert row.stuck == row.stuck_0 + row.stuck_1 and row.discards == row.discards_0 + row.discards_1
        assert row.turns > 20 and row.actions >= 2 * row.turns - 1  # the last turn may end on a refill
    assert results["claims"].sum() > 0 and results["claims_by_other"].sum() > 0


def test_a_row_matches_a_direct_replay(results: pd.DataFrame) -> None:
    k = 5
    row = results.iloc[k]
    seed = game_seed(7, k)
    game = kum.Game(2, seed=seed)
    bots = [make_bot(name, seed=bot_seed(seed, seat)) for seat, name in enumerate(("greedy", "random"))]
    while not game.is_over:
        game.apply(bot_move(game, bots[game.current_player]))
    log = game.log
    claims = Counter(e.seat for e in log if isinstance(e, kum.Claimed))
    by_other = [e for e in log if isinstance(e, kum.Claimed) and e.seat != e.by]
    developed = Counter(e.seat for e in log if isinstance(e, kum.Developed))
    stuck = Counter(e.seat for e in log if isinstance(e, kum.Stuck))
    assert (row.bot_0, row.bot_1) == ("greedy", "random") == seat_bots(BOTS, k, rotate=True)
    assert [row.score_0, row.score_1] == game.scores()
    assert [(row.developed_0, row.undeveloped_0), (row.developed_1, row.undeveloped_1)] == [game.points(0), game.points(1)]
    assert row.winners == tuple(game.winners()) and row.turns == game.turn and row.actions == len(game.history)
    assert [row.race_0, row.race_1] == [r.value for r in game.kings]
    assert [row.claims_0, row.claims_1] == [claims[0], claims[1]]
    assert [row.developments_0, row.developments_1] == [developed[0], developed[1]]
    assert [row.stuck_0, row.stuck_1] == [stuck[0], stuck[1]]
    assert row.claims_by_other == len(by_other)
    assert row.claims_by_other_points_0 == sum(game.deck[e.mine].points for e in by_other if e.seat == 0)
    assert kum.lab.replay(results, k) == game  # same start, same actions


def test_per_seat_long_view(results: pd.DataFrame) -> None:
    long = kum.lab.per_seat(results)
    assert len(long) == 32 and list(long["seat"][:4]) == [0, 1, 0, 1]
    assert {"seat", "first", "shared", "bot", "race", "score", "win", "game_claims", "claims"} <= set(long.columns)
    assert long["score"].sum() == results["score_0"].sum() + results["score_1"].sum()
    assert (long.groupby("game")["claims"].sum() == results.set_index("game")["claims"]).all()
    assert long["first"].sum() == 16


def test_three_players_and_fixed_seats(pool: object) -> None:
    df = kum.simulate(4, players=3, bots=("greedy", "random", FirstLegal), seed=1, rotate=False, progress=False)
    assert df.equals(kum.simulate(4, players=3, bots=("greedy", "random", FirstLegal), seed=1, rotate=False,
                                  executor=pool, chunksize=1, progress=False))
    assert list(df.columns) == kum.lab.columns(3)
    assert set(df["bot_2"]) == {"FirstLegal"} and set(df["bot_0"]) == {"greedy"}
    for s in range(3):
        assert (df[f"score_{s}"] == df[f"developed_{s}"] - df[f"undeveloped_{s}"]).all()
    assert (df["claims_for_other_0"] + df["claims_for_other_1"] + df["claims_for_other_2"] == df["claims_by_other"]).all()


def test_progress_bar(capsys: pytest.CaptureFixture[str]) -> None:
    kum.simulate(3, bots="random", seed=2, progress=True)
    err = capsys.readouterr().err
    assert "simulate" in err and "3/3" in err


# -- determinism -------------------------------------------------------------------------


def test_same_seed_same_table_on_every_executor(dask_client: object) -> None:
    from concurrent.futures import ThreadPoolExecutor

    here = kum.simulate(12, bots=BOTS, seed=11, progress=False)
    procs = kum.simulate(12, bots=BOTS, seed=11, executor=2, chunksize=3, progress=False)
    dask = kum.simulate(12, bots=BOTS, seed=11, executor=dask_client.get_executor(), progress=False)  # type: ignore[attr-defined]
    client = kum.simulate(12, bots=BOTS, seed=11, executor=dask_client, chunksize=1, progress=False)
    with ThreadPoolExecutor(3) as threads:
        threaded = kum.simulate(12, bots=BOTS, seed=11, executor=threads, chunksize=5, progress=False)
    for other in (procs, dask, client, threaded):
        pd.testing.assert_frame_equal(here, other)
    assert procs.attrs["executor"] == "2 worker processes"
    assert not here.equals(kum.simulate(12, bots=BOTS, seed=12, progress=False))


def test_custom_deck_csv_flows_through_simulate(tmp_path: Path, pool: object) -> None:
    table = kum.lab.deck_table()
    assert len(table) == 80 and table["overseer"].sum() == 16
    table["points"] *= 10
    path = tmp_path / "tenfold.csv"
    table.drop(columns="face").to_csv(path, index=False)
    deck = kum.Deck.from_csv(path)
    assert deck.name == "tenfold" and deck[3].points == 10 * kum.Deck.standard()[3].points
    rules = kum.Rules(deck=deck)
    here = kum.simulate(6, bots=BOTS, rules=rules, seed=3, progress=False)
    procs = kum.simulate(6, bots=BOTS, rules=rules, seed=3, executor=pool, progress=False)
    pd.testing.assert_frame_equal(here, procs)
    points = pd.concat([here[f"{k}_{s}"] for k in ("developed", "undeveloped") for s in (0, 1)])
    assert (points % 10 == 0).all() and points.max() > 0
    assert here.attrs["rules_changed"] == {"deck": "tenfold"}
    assert kum.lab.replay(here, 2).deck == deck
    standard = kum.simulate(6, bots=BOTS, seed=3, progress=False)
    assert not (pd.concat([standard[f"developed_{s}"] for s in (0, 1)]) % 10 == 0).all()


# -- Ctrl-C ------------------------------------------------------------------------------


def test_interrupt_in_process_returns_games_so_far(ctrl_c: None) -> None:
    k = 4
    bots = SigintAt(bot_seed(game_seed(9, k), 0), os.getpid())
    with pytest.warns(UserWarning, match="interrupted: returning the 4 of 30 games"):
        df = kum.simulate(30, bots=bots, seed=9, progress=True)
    assert df.attrs["interrupted"] is True and df.attrs["finished"] == k
    assert list(df["game"]) == list(range(k))
    full = kum.simulate(k, bots="random", seed=9, progress=False)
    pd.testing.assert_frame_equal(df.drop(columns=["bot_0", "bot_1"]), full.drop(columns=["bot_0", "bot_1"]))


def test_interrupt_with_worker_processes_cancels_the_rest(ctrl_c: None) -> None:
    games, k = 400, 23  # game 23 is in the fifth chunk: chunks 0, 1 and 2 or 3 are done when it starts
    bots = SigintAt(bot_seed(game_seed(9, k), 0), os.getpid())  # a worker signals this process
    with pytest.warns(UserWarning, match="simulate interrupted"):
        df = kum.simulate(games, bots=bots, seed=9, executor=2, chunksize=5, progress=False)
    assert df.attrs["interrupted"] is True
    assert 15 <= len(df) < games and k not in set(df["game"])  # the interrupted chunk is not waited for
    assert df["game"].is_monotonic_increasing and df["game"].is_unique
    # the games that finished are exactly the games of an uninterrupted run
    full = kum.simulate(int(df["game"].max()) + 1, bots="random", seed=9, progress=False).set_index("game")
    part = df.set_index("game").drop(columns=["bot_0", "bot_1"])
    pd.testing.assert_frame_equal(part, full.loc[part.index].drop(columns=["bot_0", "bot_1"]))


def test_ctrl_c_tests_pass_when_pytest_ignores_sigint() -> None:
    """As under ``make test &``: the Ctrl-C tests above, in a pytest started with SIGINT
    ignored (set, then inherited through exec, as a shell does for a background job),
    still see their KeyboardInterrupt."""
    tests = [f"{__file__}::{name}" for name in
             ("test_interrupt_in_process_returns_games_so_far", "test_interrupt_with_worker_processes_cancels_the_rest")]
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests]
    start = f"import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); os.execv(sys.executable, {argv!r})"
    out = subprocess.run([sys.executable, "-c", start], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                         cwd=Path(__file__).parent.parent, timeout=300)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert "2 passed" in out.stdout


@pytest.mark.parametrize("visibility", ["hidden", "open"])
def test_simulate_under_every_visibility(visibility: str) -> None:
    """The search bots deal hidden cards from a view: under D6's variants too."""
    from kum_widget.bots import ISMCTSBot

    def ismcts(seed: int) -> ISMCTSBot:
        return ISMCTSBot(iterations=5, seed=seed)

    df = kum.simulate(4, players=3, bots=("greedy", ismcts, "random"), rules={"visibility": visibility}, seed=5,
                      progress=False)
    assert len(df) == 4 and df.attrs["finished"] == 4 and (df["n_winners"] >= 1).all()
    assert df.attrs["rules"]["visibility"] == visibility


# -- analysis ----------------------------------------------------------------------------


def _sane_rates(t: pd.DataFrame) -> None:
    assert ((0 <= t["low"]) & (t["low"] <= t["win_rate"]) & (t["win_rate"] <= t["high"]) & (t["high"] <= 1)).all()
    assert (t["win_rate"] == t["wins"] / t["games"]).all()


def test_win_rate(results: pd.DataFrame) -> None:
    res = kum.lab.win_rate(results)
    table, fig = res
    assert isinstance(fig, Figure) and list(table.index) == [0, 1]
    assert table["games"].tolist() == [16, 16] and (table["fair"] == 0.5).all()
    assert table.loc[0, "wins"] == results["win_0"].sum()
    _sane_rates(table)
    assert len(res.axes.patches) == 2  # two bars
    bundle = res._repr_mimebundle_()
    assert "image/png;base64" in bundle["text/html"] and "Win rate by seat" in bundle["text/plain"]
    by_bot = kum.lab.win_rate(results, by="bot").table
    assert set(by_bot.index) == set(BOTS) and by_bot["games"].sum() == 32
    _sane_rates(by_bot)
    first = kum.lab.win_rate(results, by="first").table
    assert first.loc[True, "wins"] == results["win_0"].sum()


def test_score_distribution_and_game_length(results: pd.DataFrame) -> None:
    long = kum.lab.per_seat(results)
    table, fig = kum.lab.score_distribution(results, by="race")
    assert table["games"].sum() == 32 and isinstance(fig, Figure)
    for race, row in table.iterrows():
        scores = long.loc[long["race"] == race, "score"]
        assert row["mean"] == pytest.approx(scores.mean()) and row["min"] == scores.min()
        assert row["mean_low"] <= row["mean"] <= row["mean_high"]
        assert row["min"] <= row["q25"] <= row["median"] <= row["q75"] <= row["max"]
    assert kum.lab.score_distribution(results, by="seat").table["games"].tolist() == [16, 16]
    length, fig = kum.lab.game_length(results)
    assert length["games"].iloc[0] == 16 and length["mean"].iloc[0] == pytest.approx(results["turns"].mean())
    assert isinstance(fig, Figure)


def test_matchup_runs_pairings_and_reads_results() -> None:
    res = kum.lab.matchup(("random", "greedy", FirstLegal), games=6, seed=4, progress=False)
    t = res.table.set_index(["bot", "opponent"])
    assert len(t) == 6 and (t["games"] == 6).all()
    _sane_rates(t)
    for a, b in (("random", "greedy"), ("random", "FirstLegal"), ("greedy", "FirstLegal")):
        assert t.loc[(a, b), "wins"] + t.loc[(b, a), "wins"] >= 6  # ties count for both
    assert res.data is not None and len(res.data) == 18 and set(res.data["pairing"]) == {
        "random vs greedy", "random vs FirstLegal", "greedy vs FirstLegal"}
    again = kum.lab.matchup(results=res.data).table
    pd.testing.assert_frame_equal(again, res.table)
    assert isinstance(res.figure, Figure)


def test_compare_two_variants() -> None:
    a, b = kum.Rules(), kum.Rules(stuck="draw")
    res = kum.lab.compare(a, b, games=12, bots="random", seed=5, progress=False)
    t = res.table
    assert list(t.index) == ["A: standard rules", "B: stuck=draw", "B - A"]
    assert t["games"].iloc[:2].tolist() == [12, 12]
    _sane_rates(t.iloc[:2])
    assert t.loc["B - A", "win_rate"] == pytest.approx(t["win_rate"].iloc[1] - t["win_rate"].iloc[0])
    assert t.loc["B - A", "low"] <= t.loc["B - A", "win_rate"] <= t.loc["B - A", "high"]
    data = res.data
    assert data is not None and len(data) == 24
    # the same seeds, and (setup unchanged) the same deals: the same King races
    va, vb = (data[data["variant"] == v].reset_index(drop=True) for v in t.index[:2])
    assert va["seed"].equals(vb["seed"]) and va["race_0"].equals(vb["race_0"])
    assert (vb["discards"] == 0).all()  # under stuck="draw" nobody discards
    # same seeds: the difference is for paired data; games the rule did not touch agree
    assert t.loc["B - A", "rules"] == "difference (paired by game seed)"
    first = kum.lab.per_seat(data).query("first")
    wa = first.loc[first["variant"] == t.index[0], "win"].to_numpy()
    wb = first.loc[first["variant"] == t.index[1], "win"].to_numpy()
    counts = (int((wa & wb).sum()), int((wa & ~wb).sum()), int((~wa & wb).sum()), int((~wa & ~wb).sum()))
    assert tuple(t.loc["B - A", ["win_rate", "low", "high"]]) == pytest.approx(kum.lab.newcombe_paired(*counts))
    # the same comparison from tables already simulated
    ta = kum.simulate(12, bots="random", seed=5, progress=False)
    tb = kum.simulate(12, bots="random", rules={"stuck": "draw"}, seed=5, progress=False)
    again = kum.lab.compare(ta, tb).table
    pd.testing.assert_frame_equal(again, t)
    seat1 = kum.lab.compare(ta, tb, seat=1).table
    assert seat1["wins"].iloc[0] == ta["win_1"].sum()
    assert len(res.axes) == 2 and isinstance(res.figure, Figure)
    # different seeds: independent samples
    other = kum.lab.compare(ta, kum.simulate(10, bots="random", seed=6, progress=False), labels=["x", "y"]).table
    assert other.loc["B - A", "rules"] == "difference (independent samples)"
    d, low, high = kum.lab.newcombe(other.loc["x", "wins"], 12, other.loc["y", "wins"], 10)
    assert tuple(other.loc["B - A", ["win_rate", "low", "high"]]) == pytest.approx((d, low, high))


def test_intervals() -> None:
    assert kum.lab.wilson(0, 10)[0] == 0.0 and kum.lab.wilson(10, 10)[1] == 1.0
    low, high = kum.lab.wilson(50, 100)
    assert low == pytest.approx(1 - high) and 0.40 < low < 0.41
    assert kum.lab.newcombe_paired(30, 0, 0, 30)[0] == 0.0
    # discordant pairs only one way: a clear change, a narrower interval than unpaired
    d, low, high = kum.lab.newcombe_paired(30, 0, 10, 60)
    d2, low2, high2 = kum.lab.newcombe(30, 100, 40, 100)
    assert d == d2 == pytest.approx(0.1) and 0 < low and low2 < 0 and high - low < high2 - low2


# -- bad input ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"games": 0}, "games must be a whole number >= 1"),
        ({"games": "10"}, "games must be"),
        ({"games": True}, "games must be"),
        ({"players": 5}, "players must be a whole number 2..4"),
        ({"bots": ("greedy",)}, "one bot per seat"),
        ({"bots": ("nope", "greedy")}, "unknown bot 'nope'"),
        ({"bots": 42}, "bots must be"),
        ({"bots": [object(), "greedy"]}, "a bot is a name or a factory"),
        ({"bots": lambda seed: 42}, "must return a bot"),
        ({"rules": "fast"}, "rules must be a kum.Rules"),
        ({"rules": {"stuck": "maybe"}}, "rule 'stuck' must be one of"),
        ({"seed": -1}, "seed must be"),
        ({"seed": 1.5}, "seed must be"),
        ({"executor": 0}, "at least 1 worker"),
        ({"executor": "dask"}, "executor must be None"),
        ({"progress": "yes"}, "progress must be True or False"),
        ({"rotate": 1}, "rotate must be True or False"),
        ({"chunksize": 0}, "chunksize must be"),
        ({"races": ["orc", "orc"]}, "races"),
        ({"races": "orc"}, "races must list"),
        ({"players": 4, "rules": {"hand_size": 20}}, "simulate: "),
        ({"bots": lambda seed: make_bot("random", seed=seed), "executor": 2}, "must pickle"),
    ],
)
def test_bad_arguments(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        kum.simulate(**{"games": 2, "progress": False, **kwargs})


def test_bad_analysis_arguments(results: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match="by='nope'"):
        kum.lab.win_rate(results, by="nope")
    with pytest.raises(ValueError, match="expected the DataFrame"):
        kum.lab.win_rate([1, 2])
    with pytest.raises(ValueError, match="no per-seat columns"):
        kum.lab.per_seat(pd.DataFrame({"x": [1]}))
    with pytest.raises(ValueError, match="seat must be"):
        kum.lab.compare(results, results, seat=9)
    with pytest.raises(ValueError, match="labels must be two different"):
        kum.lab.compare(results, results, labels=["x", "x"])
    with pytest.raises(ValueError, match="a variant is"):
        kum.lab.compare("fast", None, games=2)
    with pytest.raises(ValueError, match="two or more different bots"):
        kum.lab.matchup(("greedy",), games=2)
    with pytest.raises(ValueError, match="game must be a game number"):
        kum.lab.replay(results, 99)
    with pytest.raises(ValueError, match="game_length: choose"):
        kum.lab.game_length(results, column="nope")
    with pytest.raises(ValueError, match=r"expected a kum\.Deck"):
        kum.lab.deck_table("standard")
    with pytest.raises(ValueError, match="worker_pool: workers must be"):
        worker_pool(0)


def test_lab_import_stays_light() -> None:
    code = (
        "import sys, kum_widget as kum\n"
        "kum.lab; f = kum.simulate; kum.lab.compare\n"
        "heavy = [m for m in ('pandas', 'matplotlib', 'dask', 'distributed', 'tqdm', 'numpy') if m in sys.modules]\n"
        "print(','.join(heavy), f.__name__)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["simulate"]
