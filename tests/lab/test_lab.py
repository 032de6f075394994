"""The design lab: simulate's table, determinism on every executor, Ctrl-C, analysis helpers."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("MPLBACKEND", "Agg")

import pandas as pd
import pytest
from _lab_helpers import FirstLegal, SigintAt
from _paths import ROOT
from matplotlib.figure import Figure

import kum_widget as kum
from kum_widget.bots import bot_move, make_bot
from kum_widget.core.examples import Bust
from kum_widget.lab import bot_seed, game_seed, seat_bots, worker_pool

BOTS = ("random", "greedy")


@pytest.fixture(scope="module")
def results() -> pd.DataFrame:
    return kum.simulate(16, bots=BOTS, seed=7, progress=False)


@pytest.fixture(scope="module")
def pool() -> Iterator[object]:
    with worker_pool(2) as workers:  # the lab's own kind: spawned, Ctrl-C left to the parent
        yield workers


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
                         cwd=ROOT, timeout=300)
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
    # by default, by the game's first per-seat column of text: the King each seat plays
    pd.testing.assert_frame_equal(kum.lab.score_distribution(results).table, table)
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
        ({"rules": "fast"}, "must be a kum.Rules"),  # the game's own words (KumRules.with_options)
        ({"rules": {"stuck": "maybe"}}, "rule 'stuck' must be one of"),
        ({"seed": -1}, "seed must be"),
        ({"seed": 1.5}, "seed must be"),
        ({"executor": 0}, "at least 1 worker"),
        ({"executor": "dask"}, "executor must be None"),
        ({"progress": "yes"}, "progress must be True or False"),
        ({"rotate": 1}, "rotate must be True or False"),
        ({"chunksize": 0}, "chunksize must be"),
        ({"rules": {"races": "orc,orc"}}, "rule 'races' must name 2-4 different King races"),
        ({"rules": {"races": "orc,elf"}}, "rule 'races': unknown race 'elf'"),
        ({"players": 3, "rules": {"races": "giant,orc"}}, "a game of 3 players needs 3"),
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


# -- any game: the lab knows none ------------------------------------------------------------

LAB = ROOT / "kum_widget" / "lab"


def games_imported(source: str, package: str = "kum_widget.lab") -> list[str]:
    """Every import of ``kum_widget.games`` in ``source`` (a module of ``package``), at
    module level or not: ``import``, ``from ... import`` (relative ones resolved) and
    ``importlib.import_module("...")``/``__import__("...")`` with a literal name."""
    import ast

    found = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            parts = package.split(".")
            base = parts[: len(parts) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            names = [module, *(f"{module}.{alias.name}" for alias in node.names)]
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if called in ("import_module", "__import__") and isinstance(node.args[0].value, str):
                names = [node.args[0].value]
        found += [n for n in names if n == "kum_widget.games" or n.startswith("kum_widget.games.")]
    return found


def test_the_import_check_catches_every_form() -> None:
    for source in ("from ..games.kum import Rules", "from .. import games", "import kum_widget.games.kum as k",
                   "from kum_widget.games import kum", "def f():\n    from ..games.kum.cards import Deck",
                   "if TYPE_CHECKING:\n    from ..games import kum", "importlib.import_module('kum_widget.games.kum')"):
        assert games_imported(source), source
    for source in ("from ..core.registry import game_class", "from .play import the_game", "from . import games",
                   "import kum_widget.core", "from ...kum_widget import core"):
        assert not games_imported(source), source


def test_no_lab_module_imports_a_game() -> None:
    files = sorted(LAB.glob("*.py"))
    assert {"play.py", "simulate.py", "analysis.py", "game_tables.py", "__init__.py"} <= {f.name for f in files}
    for path in files:
        assert games_imported(path.read_text()) == [], f"{path.name} imports kum_widget.games"


@pytest.fixture(scope="module")
def bust() -> pd.DataFrame:
    return kum.simulate(60, game="bust", bots=("greedy", "random"), progress=False)


@pytest.fixture(scope="module")
def expeditions() -> pd.DataFrame:
    from game_from_docs import Expeditions

    return kum.simulate(30, game=Expeditions(), bots=("greedy", "random"), seed=3, progress=False)


@pytest.fixture(params=["bust", "expeditions"])
def other(request: pytest.FixtureRequest) -> pd.DataFrame:
    df: pd.DataFrame = request.getfixturevalue(request.param)
    return df


LAB_OWN = ["game", "seed", "players", "actions", "n_winners", "winners", "bot_0", "bot_1", "score_0", "score_1", "win_0", "win_1"]


def test_other_games_tables(bust: pd.DataFrame, expeditions: pd.DataFrame) -> None:
    assert list(bust.columns) == LAB_OWN == kum.lab.columns(2, "bust")
    assert list(expeditions.columns) == [*LAB_OWN, "expeditions", "margin"]  # the summary's after the lab's own
    for df in (bust, expeditions):
        assert df["bot_0"].dtype == object and df["win_0"].dtype == bool and df["actions"].dtype == "int64"
    assert bust.attrs["game"] == "bust" and bust.attrs["rules"] == {"limit": 21, "hand": 3}
    assert expeditions.attrs["game"] == "expeditions" and expeditions.attrs["rules_changed"] == {}


def test_kings_under_mountains_goes_the_same_way(results: pd.DataFrame) -> None:
    """The default game is Kings Under Mountains from the registry: its name, its class,
    its columns hook; a kum.Rules (the Kings among its options) goes through with_options."""
    assert list(results.columns) == kum.KingsUnderMountains().columns(2) == kum.lab.columns(2, "kum")
    ints = [c for c in results.columns if c not in ("winners", "bot_0", "bot_1", "race_0", "race_1", "win_0", "win_1")]
    assert all(results[c].dtype == "int64" for c in ints)
    assert all(results[c].dtype == object for c in ("winners", "bot_0", "bot_1", "race_0", "race_1"))
    assert results["win_0"].dtype == bool and results.attrs["game"] == "kings-under-mountains"
    pd.testing.assert_frame_equal(kum.simulate(16, bots=BOTS, seed=7, progress=False, game="kum"), results)
    ruled = kum.simulate(4, bots="random", seed=2, rules=kum.Rules(stuck="draw", races="giant,orc"), progress=False)
    as_game = kum.simulate(4, bots="random", seed=2, game=kum.KingsUnderMountains(stuck="draw", races=("giant", "orc")),
                           progress=False)
    as_dict = kum.simulate(4, bots="random", seed=2, game="kum", rules={"stuck": "draw", "races": "Giants, O"}, progress=False)
    pd.testing.assert_frame_equal(ruled, as_game)
    pd.testing.assert_frame_equal(ruled, as_dict)
    assert set(ruled["race_0"]) == {"giant"} and set(ruled["race_1"]) == {"orc"} and (ruled["discards"] == 0).all()
    assert ruled.attrs["rules_changed"] == as_game.attrs["rules_changed"] == {"stuck": "draw", "races": "giant,orc"}
    assert ruled.attrs["rules"]["races"] == "giant,orc"
    assert kum.lab.replay(ruled, 1).kings == (kum.Race.parse("giant"), kum.Race.parse("orc"))


def test_the_kings_are_a_rule_option_only() -> None:
    """``races=`` is no keyword of the lab's: the Kings are the rule option ``races``."""
    for call in (lambda: kum.simulate(2, bots="random", races=["giant", "orc"], progress=False),
                 lambda: kum.lab.play_game(1, bots=("random", "random"), races=("giant", "orc")),
                 lambda: kum.lab.compare(None, {"stuck": "draw"}, games=2, races=["dwarf", "goblin"], progress=False)):
        with pytest.raises(TypeError, match="races"):
            call()
    game = kum.lab.play_game(1, seed=2, bots=("random", "random"), rules={"races": "giant,orc"})
    assert game.kings == (kum.Race.parse("giant"), kum.Race.parse("orc"))
    res = kum.lab.compare({"races": "dwarf,goblin"}, {"stuck": "draw", "races": "dwarf,goblin"}, games=2, bots="random",
                          progress=False)
    assert set(res.data["race_0"]) == {"dwarf"} and list(res.table.index[:2]) == [
        "A: races=dwarf,goblin", "B: stuck=draw, races=dwarf,goblin"]


def test_per_seat_of_other_games(other: pd.DataFrame) -> None:
    long = kum.lab.per_seat(other)
    n = len(other)
    assert len(long) == 2 * n and list(long["seat"][:4]) == [0, 1, 0, 1]
    assert {"seat", "shared", "bot", "score", "win"} <= set(long.columns)
    assert "first" not in long.columns and "race" not in long.columns  # the game gives no first_player, no race
    assert long["score"].sum() == pytest.approx(other["score_0"].sum() + other["score_1"].sum())
    assert list(long.loc[long["seat"] == 1, "bot"]) == list(other["bot_1"])
    game_level = [c for c in other.columns if not c.rsplit("_", 1)[-1].isdigit()]
    assert [c for c in long.columns if c in game_level] == game_level  # kept, in order (expeditions, margin...)


def test_win_rate_of_other_games(other: pd.DataFrame) -> None:
    n = len(other)
    table = kum.lab.win_rate(other).table
    assert list(table.index) == [0, 1] and table["games"].tolist() == [n, n]
    assert table.loc[1, "wins"] == other["win_1"].sum()
    _sane_rates(table)
    by_bot = kum.lab.win_rate(other, by="bot").table
    greedy = sum(other.loc[other[f"bot_{s}"] == "greedy", f"win_{s}"].sum() for s in (0, 1))
    assert by_bot.loc["greedy", "wins"] == greedy and by_bot["games"].sum() == 2 * n
    for by in ("race", "first"):
        with pytest.raises(ValueError, match=rf"by='{by}': no such column; choose among .*\bbot\b.*\bscore\b"):
            kum.lab.win_rate(other, by=by)


def test_score_distribution_of_other_games(other: pd.DataFrame) -> None:
    long = kum.lab.per_seat(other)
    res = kum.lab.score_distribution(other)  # no race: by bot
    table = res.table
    assert table.index.name == "bot" and set(table.index) == {"greedy", "random"} and "Final scores by bot" in res.title
    for bot, row in table.iterrows():
        scores = long.loc[long["bot"] == bot, "score"]
        assert row["games"] == len(scores) and row["mean"] == pytest.approx(scores.mean())
        assert row["min"] <= row["q25"] <= row["median"] <= row["q75"] <= row["max"] == scores.max()
    assert list(table.columns)[-1] == "win_rate" and "developed" not in table.columns
    assert kum.lab.score_distribution(other, by="seat").table["games"].tolist() == [len(other)] * 2
    with pytest.raises(ValueError, match="by='race': no such column"):
        kum.lab.score_distribution(other, by="race")
    with pytest.raises(ValueError, match="column='bot': choose among the numeric per-seat columns score"):
        kum.lab.score_distribution(other, column="bot")


def test_game_length_of_other_games(other: pd.DataFrame) -> None:
    res = kum.lab.game_length(other)  # no turns: actions
    assert res.title.startswith("Game length: actions")
    assert res.table["games"].iloc[0] == len(other) and res.table["mean"].iloc[0] == pytest.approx(other["actions"].mean())
    by_bot = kum.lab.game_length(other, by="bot_0").table
    assert by_bot["games"].sum() == len(other)
    with pytest.raises(ValueError, match=r"game_length: choose column and by among game, seed, players, actions.*no column 'turns'"):
        kum.lab.game_length(other, column="turns")


def test_matchup_of_other_games(other: pd.DataFrame) -> None:
    counted = kum.lab.matchup(results=other).table.set_index(["bot", "opponent"])
    assert counted.loc[("greedy", "random"), "games"] == len(other)
    assert counted.loc[("greedy", "random"), "wins"] == sum(
        other.loc[other[f"bot_{s}"] == "greedy", f"win_{s}"].sum() for s in (0, 1))
    game = other.attrs["game_class"]()
    played = kum.lab.matchup(("random", "greedy"), games=8, game=game, seed=2, progress=False)
    assert played.data is not None and set(played.data.columns) == set(other.columns) | {"pairing"}
    assert (played.table["games"] == 8).all()
    again = kum.simulate(8, game=game, bots=("random", "greedy"), seed=2, progress=False)
    pd.testing.assert_frame_equal(played.data.drop(columns="pairing"), again)


def test_compare_a_rule_option_of_bust() -> None:
    res = kum.lab.compare(None, {"limit": 25}, games=40, game="bust", bots=("greedy", "random"), progress=False)
    t = res.table
    assert list(t.index) == ["A: standard rules", "B: limit=25", "B - A"]
    assert t["games"].iloc[:2].tolist() == [40, 40] and t.loc["B - A", "rules"] == "difference (paired by game seed)"
    _sane_rates(t.iloc[:2])
    assert "actions" in t.columns and "turns" not in t.columns and "stuck" not in t.columns
    assert res.title.startswith("Win rate of seat 0")  # Bust has no first_player: seat 0
    data = res.data
    assert data is not None
    runs = [kum.simulate(40, game=Bust(limit=limit), bots=("greedy", "random"), progress=False) for limit in (21, 25)]
    for label, run in zip(t.index[:2], runs, strict=True):
        pd.testing.assert_frame_equal(data[data["variant"] == label].drop(columns="variant").reset_index(drop=True), run)
        assert t.loc[label, "wins"] == run["win_0"].sum() and t.loc[label, "actions"] == pytest.approx(run["actions"].mean())
    assert t.loc["B - A", "actions"] == pytest.approx(runs[1]["actions"].mean() - runs[0]["actions"].mean())
    assert runs[0].attrs["rules_changed"] == {} and runs[1].attrs["rules_changed"] == {"limit": 25}
    # the same from tables (the game read from their attrs), and a variant given as the game itself
    pd.testing.assert_frame_equal(kum.lab.compare(*runs).table, t)
    pd.testing.assert_frame_equal(kum.lab.compare(runs[0], Bust(limit=25), games=40, bots=("greedy", "random"),
                                                  progress=False).table, t)
    pd.testing.assert_frame_equal(kum.lab.compare(runs[0], {"limit": 25}, games=40, bots=("greedy", "random"),
                                                  progress=False).table, t)
    assert kum.lab.compare(*runs, seat=1).table["wins"].iloc[1] == runs[1]["win_1"].sum()
    with pytest.raises(ValueError, match=r"seat must be 'first' or a seat of these games \(0, 1\), got 2"):
        kum.lab.compare(*runs, seat=2)
    with pytest.raises(ValueError, match="unknown option 'limt'"):
        kum.lab.compare(None, {"limt": 25}, games=4, game="bust")
    with pytest.raises(ValueError, match="a variant is a dict of Bust options"):
        kum.lab.compare(None, "fast", games=4, game="bust")


def test_compare_on_expeditions(expeditions: pd.DataFrame) -> None:
    res = kum.lab.compare(expeditions, {"cost": 0}, games=30, seed=3, bots=("greedy", "random"), progress=False)
    t = res.table
    assert list(t.index) == ["A: standard rules", "B: cost=0", "B - A"]
    assert {"actions", "expeditions", "margin"} <= set(t.columns)
    assert t.loc["B - A", "mean_score"] > 20  # no cost: every expedition is worth its cards
    assert t.loc["B - A", "expeditions"] == pytest.approx(t["expeditions"].iloc[1] - t["expeditions"].iloc[0])


def test_replay_of_a_bust_game_is_its_row(bust: pd.DataFrame) -> None:
    from kum_widget.core import Session
    from kum_widget.lab.play import game_row

    for k in (0, 7, 59):
        session = kum.lab.replay(bust, k)
        assert type(session) is Session and session.game == Bust() and session.is_over
        row = game_row(session, k, seat_bots(("greedy", "random"), k, rotate=True))
        assert row == bust.iloc[k].to_dict()
        assert session.seed == bust.loc[k, "seed"] == game_seed(0, k) and session.move_number == bust.loc[k, "actions"]
    other_bots = kum.lab.replay(bust, 3, bots=("random", "random"))
    assert other_bots.seed == bust.loc[3, "seed"]
    ruled = kum.simulate(5, game="bust", rules={"limit": 30}, bots="random", seed=4, progress=False)
    again = kum.lab.replay(ruled, 4)
    assert again.game.rules["limit"] == 30 and again.scores() == [ruled.loc[4, "score_0"], ruled.loc[4, "score_1"]]


class _Ordered(Bust):
    """Bust with summary columns and a columns hook (unregistered: replay finds its class in the attrs)."""

    name = "bust-ordered"

    def summary(self, s: Any, logs: Any) -> dict[str, Any]:
        return {"pile": len(s.pile), **{f"held_{p}": len(h) for p, h in enumerate(s.hands)}, "events": sum(map(len, logs))}

    def columns(self, players: int) -> list[str]:
        return ["game", "pile", *(f"held_{p}" for p in range(players)), "winners"]


def test_a_columns_hook_orders_the_table() -> None:
    df = kum.simulate(6, game=_Ordered(), players=3, bots="random", progress=False)
    rest = ["seed", "players", "actions", "n_winners", *(f"{n}_{s}" for n in ("bot", "score", "win") for s in range(3)), "events"]
    assert list(df.columns) == ["game", "pile", "held_0", "held_1", "held_2", "winners", *rest]
    assert kum.lab.columns(3, _Ordered) == ["game", "pile", "held_0", "held_1", "held_2", "winners"]
    long = kum.lab.per_seat(df)
    assert {"held", "pile", "events"} <= set(long.columns) and len(long) == 18
    assert kum.lab.score_distribution(df, by="seat").table.columns.tolist()[-2:] == ["held", "win_rate"]
    replayed = kum.lab.replay(df, 5)
    assert type(replayed.game) is _Ordered and replayed.move_number == df.loc[5, "actions"]


def test_bad_arguments_for_other_games(bust: pd.DataFrame) -> None:
    with pytest.raises(ValueError, match="no game named 'nope'"):
        kum.simulate(2, game="nope", progress=False)
    with pytest.raises(ValueError, match="Bust: unknown option 'races'"):
        kum.simulate(2, game="bust", rules={"races": "orc,dwarf"}, progress=False)
    with pytest.raises(ValueError, match=r"players must be a whole number 2\.\.4"):
        kum.simulate(2, game="bust", players=5, progress=False)
    with pytest.raises(ValueError, match="options must be a mapping"):
        kum.simulate(2, game="bust", rules="fast", progress=False)
    with pytest.raises(ValueError, match="executor must be None"):
        kum.simulate(2, game="bust", executor="dask", progress=False)
    with pytest.raises(ValueError, match="no game named"):
        kum.lab.matchup(("random", "greedy"), games=2, game="nope")
    with pytest.raises(ValueError, match=r"per_seat: no per-seat columns .*\(columns: x\)"):
        kum.lab.per_seat(pd.DataFrame({"x": [1]}))


def test_deck_tables_are_tables_the_game_adds_to_the_lab() -> None:
    """The lab names no game: Kings Under Mountains declares its deck tables (entry points of
    the group kum_widget.tables) and the lab makes their rows DataFrames."""
    from kum_widget.games.kum import tables
    from kum_widget.lab import game_tables

    assert {"deck_table", "face_table"} <= set(game_tables.table_names()) and "deck_table" in dir(kum.lab)
    deck = kum.Deck.standard()
    pd.testing.assert_frame_equal(kum.lab.deck_table(deck), pd.DataFrame(tables.deck_table()))
    faces = kum.lab.face_table(deck)
    assert list(faces.columns) == ["face", "defense", "size", "points", "overseer", "cards"] and faces["cards"].sum() == 80
    assert list(faces["overseer"]) == sorted(faces["overseer"]) and kum.lab.deck_table.__doc__ == tables.deck_table.__doc__
    with pytest.raises(AttributeError, match="no attribute 'hand_table'"):
        kum.lab.hand_table  # noqa: B018


def test_a_table_function_that_gives_no_rows_is_refused_by_its_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's table function must give a list of dicts: anything else is an error naming the
    table and its function, not a DataFrame of something else."""
    import importlib.metadata

    from kum_widget.core import GameError
    from kum_widget.lab import game_tables

    point = importlib.metadata.EntryPoint(name="cwd_table", value="os:getcwd", group=game_tables.GROUP)
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda **select: [point] if select.get("group") == game_tables.GROUP else [])
    with pytest.raises(GameError, match=r"^cwd_table: the table's function \(os:getcwd\) must give a list of rows \(dicts\), got str$"):
        game_tables.game_table("cwd_table")()
