"""A lab run ends: a game that never ends stops at ``max_actions`` with an error naming the
game and its seed, in this process, on worker processes and on dask, through every entry point
that plays games; Ctrl-C ends a run on worker processes at once, its workers terminated.
(Hostile input to the lab's helpers: tests/security/test_lab_input.py.)
"""

from __future__ import annotations

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
from _paths import ROOT, TESTS

import kum_widget as kum
from kum_widget.core import GameError
from kum_widget.lab import bot_seed, game_seed

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


def test_traced_with_unfinished_raise_stops_at_the_limit_and_names_the_game(deadline: Callable[[float], None]) -> None:
    """traced keeps its own play loop (the trace of every decision): its limit raises as simulate's does."""
    deadline(60)
    with pytest.raises(GameError) as caught:
        kum.lab.traced(Endless(), games=3, seed=4, progress=False, max_actions=20, unfinished="raise")
    _names_the_game(caught.value, 0, 4, 20)


def test_a_game_or_a_bot_of_a_notebook_cell_is_refused_for_worker_processes_before_any_starts() -> None:
    """Worker processes import a run's game and bots by their module: one defined in a cell
    (module ``__main__``) cannot be, and the error says what to do instead of a pickling trace."""

    class CellGame(Endless):
        pass

    def cell_bot(seed: int) -> Any:
        return kum.bots.RandomBot(seed)

    CellGame.__module__ = cell_bot.__module__ = "__main__"
    with pytest.raises(GameError, match=r"the game CellGame is defined in __main__ \(a notebook cell\).*executor=None"):
        kum.simulate(2, game=CellGame(share=0.0), executor=2, progress=False)
    with pytest.raises(GameError, match=r"bot factory .*cell_bot.* is defined in __main__ \(a notebook cell\).*executor=None"):
        kum.simulate(2, game=Endless(share=0.0), bots=cell_bot, executor=2, progress=False)


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
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(TESTS)])}
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
