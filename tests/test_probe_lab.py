"""Hostile probe of the lab (issue 32, items 7 and 11).

Item 7: a game that never ends stops at ``max_actions`` with an error naming the game and
its seed, in this process, on worker processes and on dask, through every entry point
that plays games; Ctrl-C ends a run on worker processes at once, its workers terminated.

Item 11: every public lab helper, given a wrong argument (``by=None``, a table with no
games, a missing column, a wrong type), raises a GameError naming the problem, or gives
a well-formed empty result where an empty input means something.
"""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

os.environ.setdefault("MPLBACKEND", "Agg")

import pandas as pd
import pytest
from _endless_game import Endless
from _lab_helpers import FirstLegal, SigintAt

import kum_widget as kum
from kum_widget.core import GameError
from kum_widget.lab import bot_seed, game_seed

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
LIMIT_ERROR = getattr(kum.lab, "ActionLimitError", GameError)  # GameError before the fix, so the tests fail, not error


class Overdue(Exception):
    """A call ran past its deadline (before the fix, a game that never ends ran for ever)."""


@pytest.fixture
def deadline() -> Iterator[Callable[[float], None]]:
    """``deadline(s)``: a call still running ``s`` seconds from now fails the test with
    :class:`Overdue` (raised again every second, so it also leaves a wait inside the
    standard library) instead of hanging the suite."""

    def overdue(signum: int, frame: Any) -> None:
        raise Overdue("still running at the deadline")

    before = signal.signal(signal.SIGALRM, overdue)
    try:
        yield lambda seconds: signal.setitimer(signal.ITIMER_REAL, seconds, 1.0)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)



def _proc_stat(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command name (state first), or None."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def children(pid: int) -> dict[int, str]:
    """The live processes whose parent is ``pid``, with their command lines."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            stat = _proc_stat(int(entry.name))
            if stat and stat[0] != "Z" and int(stat[1]) == pid:
                try:
                    found[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                except OSError:
                    continue
    return found


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, ended but not yet reaped, does not)."""
    stat = _proc_stat(pid)
    return stat is not None and stat[0] != "Z"


def workers_of_mine() -> set[int]:
    """This process's spawned children (lab workers, a dask nanny...; not multiprocessing's
    resource tracker, which lives as long as this process)."""
    return {pid for pid, cmd in children(os.getpid()).items() if "spawn_main" in cmd}


def gone_by(condition: Callable[[], bool], what: str, within: float = 30.0) -> None:
    """Wait until ``condition()`` holds (a terminated process takes a moment to go), failing
    with ``what`` after ``within`` seconds."""
    end = time.monotonic() + within
    while not condition():
        assert time.monotonic() < end, f"still waiting, after {within:g} s, for: {what}"
        time.sleep(0.05)


def _end(pids: set[int]) -> None:
    """Kill what a failed test left running: only processes it started, by their id."""
    for pid in pids:
        if alive(pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


# -- item 7: a step limit ---------------------------------------------------------------------


def _names_the_game(exc: BaseException, number: int, run_seed: int, limit: int) -> None:
    text = str(exc)
    assert isinstance(exc, LIMIT_ERROR) and isinstance(exc, GameError)
    assert "Endless" in text and f"game {number}" in text and f"seed {game_seed(run_seed, number)}" in text, text
    assert f"max_actions={limit}" in text, text
    assert (exc.game, exc.number, exc.seed, exc.max_actions) == ("endless", number, game_seed(run_seed, number), limit)  # type: ignore[attr-defined]


def test_a_game_that_never_ends_stops_at_max_actions_in_process(deadline: Callable[[float], None]) -> None:
    deadline(20)
    with pytest.raises(GameError) as caught:
        kum.simulate(3, game=Endless(), bots="random", seed=4, progress=False, max_actions=50)
    _names_the_game(caught.value, 0, 4, 50)


def test_the_default_limit_is_generous_and_still_stops_a_game_that_never_ends(deadline: Callable[[float], None]) -> None:
    deadline(60)
    limit = kum.lab.DEFAULT_MAX_ACTIONS
    assert limit >= 10 * int(kum.simulate(50, bots="random", progress=False)["actions"].max())
    with pytest.raises(GameError) as caught:
        kum.simulate(2, game=Endless(), bots="random", seed=1, progress=False)
    _names_the_game(caught.value, 0, 1, limit)


def test_a_game_that_never_ends_stops_at_max_actions_on_worker_processes(deadline: Callable[[float], None]) -> None:
    deadline(60)
    before = workers_of_mine()
    with pytest.raises(GameError) as caught:
        kum.simulate(6, game=Endless(), bots="random", seed=9, executor=2, chunksize=1, progress=False, max_actions=40)
    exc = caught.value
    _names_the_game(exc, exc.number, 9, 40)  # type: ignore[attr-defined]  # whichever game came back first
    assert workers_of_mine() <= before  # the run's own workers are gone


def test_the_limit_on_worker_processes_ends_them_at_once(deadline: Callable[[float], None]) -> None:
    """A run on its own workers that fails (a game past the limit) terminates them: a game
    still running on the other worker (slow here) is not waited for."""
    deadline(60)
    slow = Endless(share=0.5, pause=0.005)  # its endless games take 50 s to reach the limit
    first = next(i for i in range(50) if _endless(slow, 7, i))
    started = time.perf_counter()
    with pytest.raises(GameError):
        kum.simulate(first + 2, game=Endless(share=0.5, pause=0.005, length=2), bots="random", seed=7, executor=2,
                     chunksize=1, progress=False, max_actions=3)
    assert time.perf_counter() - started < 20


def _endless(game: Endless, seed: int, number: int) -> bool:
    """Whether game ``number`` of a run with ``seed`` never ends (its deal says so)."""
    from kum_widget.core import Session

    return bool(Session(game, 2, seed=game_seed(seed, number))._state.endless)


@pytest.fixture(scope="module")
def dask_client() -> Iterator[Any]:
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            yield client


def test_the_limit_applies_on_dask(dask_client: Any, deadline: Callable[[float], None]) -> None:
    deadline(60)
    for executor in (dask_client, dask_client.get_executor()):
        with pytest.raises(GameError) as caught:
            kum.simulate(3, game=Endless(), bots="random", seed=2, executor=executor, chunksize=1, progress=False,
                         max_actions=30)
        _names_the_game(caught.value, caught.value.number, 2, 30)  # type: ignore[attr-defined]
    # and unfinished="skip" there too: the same table as in this process
    half = Endless(share=0.5)
    with pytest.warns(UserWarning, match="did not end within max_actions=30"):
        here = kum.simulate(12, game=half, bots="random", seed=3, progress=False, max_actions=30, unfinished="skip")
    with pytest.warns(UserWarning, match="did not end within max_actions=30"):
        there = kum.simulate(12, game=half, bots="random", seed=3, executor=dask_client, chunksize=2, progress=False,
                             max_actions=30, unfinished="skip")
    pd.testing.assert_frame_equal(here, there)
    assert here.attrs["unfinished"] == there.attrs["unfinished"]


class CancelsOnce(Executor):
    """An executor whose first task comes back cancelled though nobody cancelled it, as a
    dask task does when an earlier run cancelled a task of the same key."""

    def __init__(self) -> None:
        self.submitted = 0

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        self.submitted += 1
        fut: Future[Any] = Future()
        if self.submitted == 1:
            fut.cancel()
            fut.set_running_or_notify_cancel()  # as an executor does: only then does wait() see it done
        else:
            fut.set_result(fn(*args, **kwargs))
        return fut


def test_a_chunk_that_comes_back_cancelled_is_played_again(deadline: Callable[[float], None]) -> None:
    deadline(60)
    pool = CancelsOnce()
    df = kum.simulate(6, game="bust", bots="random", seed=4, executor=pool, chunksize=2, progress=False)
    assert list(df["game"]) == list(range(6)) and pool.submitted == 4  # 3 chunks, the first twice
    pd.testing.assert_frame_equal(df, kum.simulate(6, game="bust", bots="random", seed=4, progress=False))


def test_a_dask_client_runs_the_same_simulation_twice(dask_client: Any, deadline: Callable[[float], None]) -> None:
    """Dask names a pure task by its arguments: the lab submits impure tasks, so a second
    identical run never meets the first run's (cancelled) tasks."""
    deadline(60)
    for _ in range(2):
        with pytest.raises(GameError):
            kum.simulate(3, game=Endless(), bots="random", seed=2, executor=dask_client, chunksize=1, progress=False,
                         max_actions=30)
    first = kum.simulate(4, game="bust", bots="random", seed=1, executor=dask_client, chunksize=1, progress=False)
    again = kum.simulate(4, game="bust", bots="random", seed=1, executor=dask_client, chunksize=1, progress=False)
    pd.testing.assert_frame_equal(first, again)


def test_unfinished_skip_leaves_those_games_out_and_names_them(deadline: Callable[[float], None]) -> None:
    deadline(60)
    half = Endless(share=0.5)
    endless = tuple(i for i in range(20) if _endless(half, 5, i))
    assert 0 < len(endless) < 20
    with pytest.warns(UserWarning, match=rf"{len(endless)} of 20 games did not end within max_actions=25"):
        df = kum.simulate(20, game=half, bots="random", seed=5, progress=False, max_actions=25, unfinished="skip")
    assert df.attrs["unfinished"] == endless and df.attrs["max_actions"] == 25
    assert list(df["game"]) == [i for i in range(20) if i not in endless] and df.attrs["finished"] == len(df)
    assert (df["actions"] == 6).all()
    with pytest.warns(UserWarning, match="did not end"):
        procs = kum.simulate(20, game=half, bots="random", seed=5, executor=2, chunksize=3, progress=False,
                             max_actions=25, unfinished="skip")
    pd.testing.assert_frame_equal(df, procs)
    assert procs.attrs["unfinished"] == endless
    # the analysis reads the table as any other
    assert kum.lab.win_rate(df).table["games"].tolist() == [len(df), len(df)]


def test_the_limit_is_exact_and_none_means_no_limit() -> None:
    game = Endless(share=0.0, length=60)  # every game ends, after 60 actions
    assert kum.simulate(2, game=game, bots="random", progress=False, max_actions=60)["actions"].tolist() == [60, 60]
    with pytest.raises(GameError, match="max_actions=59"):
        kum.simulate(2, game=game, bots="random", progress=False, max_actions=59)
    assert kum.simulate(2, game=Endless(share=0.0, length=12_000), bots="random", progress=False,
                        max_actions=None)["actions"].tolist() == [12_000, 12_000]


@pytest.mark.parametrize("max_actions", [0, -1, 1.5, "100", True, [10]])
def test_a_bad_max_actions_is_named(max_actions: Any) -> None:
    with pytest.raises(GameError, match="max_actions must be a whole number >= 1"):
        kum.simulate(2, game="bust", progress=False, max_actions=max_actions)


@pytest.mark.parametrize("unfinished", ["keep", None, 1, ["skip"]])
def test_a_bad_unfinished_is_named(unfinished: Any) -> None:
    with pytest.raises(GameError, match="unfinished must be 'raise'"):
        kum.simulate(2, game="bust", progress=False, unfinished=unfinished)


def test_every_entry_point_that_plays_games_gets_the_limit(deadline: Callable[[float], None]) -> None:
    deadline(60)
    never = Endless()
    with pytest.raises(GameError) as caught:
        kum.lab.play_game(3, seed=2, bots=("random", "random"), rules_of=never, max_actions=20)
    _names_the_game(caught.value, 3, 2, 20)
    with pytest.raises(GameError) as caught:
        kum.lab.compare(None, {"length": 8}, games=4, game=never, bots="random", seed=1, progress=False, max_actions=20)
    _names_the_game(caught.value, 0, 1, 20)
    with pytest.raises(GameError) as caught:
        kum.lab.matchup(("random", FirstLegal), games=4, game=never, seed=6, progress=False, max_actions=20)
    _names_the_game(caught.value, 0, 6, 20)
    with pytest.raises(GameError):
        kum.lab.compare(None, {"share": 0.0}, games=4, game=never, bots="random", executor=2, progress=False, max_actions=20)
    # replay plays within the run's limit: the table of games that end, replayed as a game that does not
    ended = kum.simulate(3, game=Endless(share=0.0), bots="random", seed=8, progress=False, max_actions=15)
    assert ended.attrs["max_actions"] == 15 and kum.lab.replay(ended, 2).move_number == 6
    ended.attrs["rules"] = {**ended.attrs["rules"], "share": 1.0}
    with pytest.raises(GameError) as caught:
        kum.lab.replay(ended, 2)
    _names_the_game(caught.value, 2, 8, 15)
    # unfinished="skip" goes through compare and matchup as well
    with pytest.warns(UserWarning, match="did not end"):
        res = kum.lab.compare(None, {"length": 8}, games=10, game=Endless(share=0.5), bots="random", seed=5,
                              progress=False, max_actions=20, unfinished="skip")
    assert res.data is not None and set(res.data["actions"]) == {6, 8}
    with pytest.warns(UserWarning, match="did not end"):
        res = kum.lab.matchup(("random", FirstLegal), games=10, game=Endless(share=0.5), seed=5, progress=False,
                              max_actions=20, unfinished="skip")
    assert res.data is not None and 0 < len(res.data) < 10


def test_the_limit_error_pickles() -> None:
    import pickle

    with pytest.raises(GameError) as caught:
        kum.lab.play_game(1, rules_of=Endless(), bots=("random", "random"), max_actions=5)
    back = pickle.loads(pickle.dumps(caught.value))
    assert type(back) is type(caught.value) and str(back) == str(caught.value)
    assert back.__dict__ == caught.value.__dict__


# -- item 7: Ctrl-C ends a run on worker processes, its workers terminated ----------------------


def _python(code: str, tmp_path: Path, *args: str) -> subprocess.Popen[str]:
    script = tmp_path / "run.py"
    script.write_text(textwrap.dedent(code))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(HERE)])}
    return subprocess.Popen([sys.executable, str(script), *args], cwd=tmp_path, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_ctrl_c_ends_a_script_on_worker_processes_at_once(tmp_path: Path) -> None:
    """The issue's script: simulate(executor=2) on a game that never ends, Ctrl-C once its
    workers play. It stops within seconds, no worker left, with the KeyboardInterrupt
    (no game ended: nothing to return)."""
    marks = tmp_path / "marks"
    marks.mkdir()
    proc = _python("""
        import signal, sys
        import kum_widget as kum
        from _endless_game import Endless

        if __name__ == "__main__":
            signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a terminal, whatever started pytest
            df = kum.simulate(8, game=Endless(pause=0.01, mark=sys.argv[1]), bots="random", executor=2, progress=False)
            print("returned", len(df), df.attrs["interrupted"], flush=True)
    """, tmp_path, str(marks))
    seen: set[int] = set()
    try:
        start = time.monotonic()
        while len(list(marks.iterdir())) < 2:  # both workers are playing
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() - start < 90, "the workers did not start"
            time.sleep(0.1)
        seen = set(children(proc.pid))
        workers = {pid for pid, cmd in children(proc.pid).items() if "spawn_main" in cmd}
        assert {int(p.name) for p in marks.iterdir()} <= workers, (children(proc.pid), list(marks.iterdir()))
        os.kill(proc.pid, signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running 10 s after Ctrl-C (children: {children(proc.pid)})")
        assert proc.returncode != 0 and "returned" not in out, (out, err[-2000:])
        assert err.rstrip().endswith("KeyboardInterrupt: simulate: stopped before any game ended"), err[-2000:]
        gone_by(lambda: not [pid for pid in seen if alive(pid)], f"the workers end ({seen})")
    finally:
        _end({proc.pid, *seen})


def test_ctrl_c_on_workers_returns_what_ended_and_ends_them(ctrl_c: None, deadline: Callable[[float], None]) -> None:
    """Games that ended come back, the games still running (which would never end) are
    dropped, and their workers are gone when simulate returns."""
    deadline(60)  # waiting for the endless game (200 s to reach the default limit) fails here
    game = Endless(share=0.5, pause=0.02)
    first = 5  # games 0-4 end (each worker has played two before game 5 starts), game 5 never does
    seed = next(s for s in range(2000) if not any(_endless(game, s, i) for i in range(first)) and _endless(game, s, first))
    before = workers_of_mine()
    bots = SigintAt(bot_seed(game_seed(seed, first), 0), os.getpid())  # game 5 sends Ctrl-C on its first move
    with pytest.warns(UserWarning, match="simulate interrupted"):
        df = kum.simulate(16, game=game, bots=bots, seed=seed, executor=2, chunksize=1, progress=False)
    assert df.attrs["interrupted"] is True and first not in set(df["game"]) and len(df) >= 1
    assert set(df["game"]) <= set(range(12)) - {first}  # ended games only, none past the window of chunks
    assert workers_of_mine() <= before


@pytest.mark.parametrize("helper", ["compare", "matchup"])
def test_ctrl_c_ends_the_pool_compare_and_matchup_start(helper: str, ctrl_c: None, deadline: Callable[[float], None]) -> None:
    """compare and matchup keep one pool for their runs: Ctrl-C ends it at once too (it
    waited for a game that never ends)."""
    deadline(60)  # waiting for a game that never ends (200 s to reach the limit) fails here
    game = Endless(pause=0.02)
    before = workers_of_mine()
    bots = SigintAt(bot_seed(game_seed(0, 0), 0), os.getpid())
    with pytest.raises(KeyboardInterrupt):
        if helper == "compare":
            kum.lab.compare(None, {"length": 5}, games=6, game=game, bots=bots, executor=2, progress=False)
        else:
            kum.lab.matchup((bots, FirstLegal), games=6, game=game, executor=2, progress=False)
    gone_by(lambda: workers_of_mine() <= before, "the pool's workers end")


# -- item 11: hostile input to every public lab helper --------------------------------------------


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
    ("class_games", lambda t: L.class_games([]), "games must list finished games"),
    ("class_games", lambda t: L.class_games([t]), "must be a session or its record"),
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
          "ActionLimitError": "an exception class"}


def test_the_hostile_table_covers_every_public_helper() -> None:
    covered = {name for name, _, _ in HOSTILE}
    public = set(kum.lab.__all__) - {n for n in kum.lab.__all__ if not callable(getattr(kum.lab, n))}
    assert public - covered - set(EXEMPT) == set()


def test_lab_errors_are_game_errors_that_stay_value_errors() -> None:
    """Old code catching ValueError still catches what the lab raises."""
    with pytest.raises(ValueError):
        L.win_rate(5)
    assert issubclass(LIMIT_ERROR, GameError) and issubclass(GameError, ValueError)
