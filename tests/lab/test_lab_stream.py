"""simulate streams its games (a window of chunks out at a time, whatever ``games`` is), and
a script without its ``__main__`` guard gets a clear error at once from ``executor=2``."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future, InvalidStateError, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from _lab_helpers import SigintAt
from _paths import ROOT, TESTS

import kum_widget as kum
from kum_widget.lab import bot_seed, game_seed
from kum_widget.lab.workers import UNGUARDED, UNGUARDED_EXIT, WINDOW_PER_WORKER, chunks, window_of


class _Counted(Future[Any]):
    """A future that tells its executor when its result has been read."""

    def __init__(self, owner: Counting) -> None:
        super().__init__()
        self.owner, self.read = owner, False

    def result(self, timeout: float | None = None) -> Any:
        value = super().result(timeout)
        with self.owner.lock:
            if not self.read:
                self.read = True
                self.owner.out -= 1
        return value


class Counting(Executor):
    """Two threads, counting the chunks out (submitted, result not yet read): the most
    at once, and all submitted. ``stop_after``: the submit after that many is a Ctrl-C."""

    def __init__(self, stop_after: int | None = None) -> None:
        self._max_workers = 2  # what simulate reads to size its window
        self.inner = ThreadPoolExecutor(2)
        self.lock = threading.Lock()
        self.out = self.most = self.submitted = 0
        self.stop_after = stop_after

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        if self.submitted == self.stop_after:
            raise KeyboardInterrupt
        outer = _Counted(self)
        with self.lock:
            self.submitted += 1
            self.out += 1
            self.most = max(self.most, self.out)
        self.inner.submit(fn, *args, **kwargs).add_done_callback(lambda f: _copy(f, outer))
        return outer

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.inner.shutdown(wait, cancel_futures=cancel_futures)


def _copy(inner: Future[Any], outer: Future[Any]) -> None:
    try:
        error = inner.exception()
        outer.set_exception(error) if error is not None else outer.set_result(inner.result())
    except InvalidStateError:  # simulate cancelled it
        pass



def test_chunks_are_made_as_needed() -> None:
    made = chunks(10**12, 50)
    assert [next(made), next(made)] == [range(0, 50), range(50, 100)]
    assert list(chunks(7, 3)) == [range(0, 3), range(3, 6), range(6, 7)]


def test_a_window_of_chunks_is_out_at_a_time() -> None:
    with Counting() as ex:
        df = kum.simulate(300, game="bust", bots=("greedy", "random"), seed=4, executor=ex, chunksize=2, progress=False)
    assert window_of(ex) == 2 * WINDOW_PER_WORKER
    assert ex.submitted == 150 and ex.out == 0
    assert ex.most == window_of(ex)  # filled, never more
    pd.testing.assert_frame_equal(df, kum.simulate(300, game="bust", bots=("greedy", "random"), seed=4, progress=False))


def test_a_billion_games_start_at_once() -> None:
    """The chunks are not all made first: a Ctrl-C at the 11th submit of a 10**9-game run
    returns the games of the first chunks (and the same games as a run in process)."""
    with Counting(stop_after=10) as ex, pytest.warns(UserWarning, match="interrupted"):
        df = kum.simulate(10**9, game="bust", bots="random", seed=2, executor=ex, progress=False)
    assert df.attrs["interrupted"] is True and df.attrs["games"] == 10**9
    assert ex.submitted == 10 and ex.most <= window_of(ex)
    assert 0 < len(df) <= 10 * 50 and df["game"].is_unique and df["game"].is_monotonic_increasing
    full = kum.simulate(int(df["game"].max()) + 1, game="bust", bots="random", seed=2, progress=False)
    pd.testing.assert_frame_equal(df.set_index("game"), full.set_index("game").loc[df["game"]])


def test_a_billion_games_in_process(ctrl_c: None) -> None:
    k = 7
    bots = SigintAt(bot_seed(game_seed(3, k), 0), os.getpid())
    with pytest.warns(UserWarning, match=f"returning the {k} of 1000000000 games"):
        df = kum.simulate(10**9, game="bust", bots=bots, seed=3, progress=False)
    assert list(df["game"]) == list(range(k))


def _python(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(TESTS)])}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          cwd=cwd, env=env, timeout=120)


def test_peak_memory_of_a_huge_run_on_workers(tmp_path: Path) -> None:
    """10**9 games on 2 worker processes, stopped by Ctrl-C near game 600: the parent's
    peak memory is that of a small run (the old way made every chunk first: gigabytes)."""
    code = textwrap.dedent("""
        import os, signal, warnings
        import kum_widget as kum
        from _lab_helpers import SigintAt
        signal.signal(signal.SIGINT, signal.default_int_handler)
        warnings.simplefilter("ignore")
        bots = SigintAt(kum.lab.bot_seed(kum.lab.game_seed(0, 600), 0), os.getpid())
        df = kum.simulate(10**9, game="bust", bots=bots, executor=2, progress=False)
        # VmHWM: ru_maxrss would keep the peak of the pytest process that started this one
        peak = [int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:")]
        print(df.attrs["interrupted"], len(df), peak[0] // 1024)
    """)
    out = _python(["-c", code], tmp_path)
    assert out.returncode == 0, out.stderr[-3000:]
    interrupted, rows, peak_mb = out.stdout.split()
    assert interrupted == "True" and 0 < int(rows) < 1000
    assert int(peak_mb) < 250, f"peak RSS {peak_mb} MB"


def _script(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "play.py"
    path.write_text(textwrap.dedent(body))
    return path


def test_a_script_without_its_guard_stops_at_once_and_says_why(tmp_path: Path) -> None:
    path = _script(tmp_path, """
        import kum_widget as kum
        df = kum.simulate(games=20, executor=2, game="bust")
        print("rows", len(df))
    """)
    out = _python([str(path)], tmp_path)
    assert out.returncode == 1 and "rows" not in out.stdout
    assert UNGUARDED in out.stderr and out.stderr.count(UNGUARDED) == 1  # the workers stay quiet
    assert out.stderr.rstrip().endswith(f"RuntimeError: {UNGUARDED}")
    for noise in ("BrokenProcessPool", "bootstrapping", "spawn.py", "runpy"):
        assert noise not in out.stderr, out.stderr


def test_a_kept_pool_in_a_script_without_its_guard(tmp_path: Path) -> None:
    path = _script(tmp_path, """
        import kum_widget as kum
        pool = kum.lab.worker_pool(2)
        df = kum.simulate(games=20, executor=pool, game="bust", progress=False)
    """)
    out = _python([str(path)], tmp_path)
    # A kept pool's semaphore may draw a warning from multiprocessing's resource tracker as the
    # interpreter exits, after the traceback (a race in the standard library, not our message).
    stderr = "\n".join(line for line in out.stderr.splitlines() if "resource_tracker" not in line)
    assert out.returncode == 1 and stderr.rstrip().endswith(f"RuntimeError: {UNGUARDED}")
    assert "BrokenProcessPool" not in out.stderr


def test_the_same_script_with_its_guard_works(tmp_path: Path) -> None:
    path = _script(tmp_path, """
        import kum_widget as kum
        if __name__ == "__main__":
            df = kum.simulate(games=20, executor=2, game="bust", progress=False)
            print("rows", len(df), df.attrs["executor"])
    """)
    out = _python([str(path)], tmp_path)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.strip() == "rows 20 2 worker processes"


def test_another_spawned_process_of_an_unguarded_script_says_why(tmp_path: Path) -> None:
    """Not a lab worker: a process the script starts itself stops at simulate (even one in
    process, which would otherwise play its games in every such child) and says why."""
    path = _script(tmp_path, """
        import multiprocessing
        import kum_widget as kum
        df = kum.simulate(games=4, game="bust", progress=False)
        child = multiprocessing.get_context("spawn").Process(target=print, args=("child ran",))
        child.start()
        child.join()
        print("child exit", child.exitcode)
    """)
    out = _python([str(path)], tmp_path)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.split() == ["child", "exit", str(UNGUARDED_EXIT)]
    assert out.stderr.strip() == UNGUARDED
