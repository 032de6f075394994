"""``simulate`` on an executor: its games go out as a stream of chunks, and the lab's own
worker processes (standard library only).

- A stream: the chunks are numbered ranges made as they are needed, and at most
  :data:`WINDOW_PER_WORKER` chunks per worker are out at a time (submitted, their rows
  not yet read back); another goes out as each comes back. Memory holds the rows and a
  few chunks in flight, whatever the number of games (``games=10**9`` starts at once).
- The lab's worker processes are spawned (fresh interpreters: forking a kernel with
  threads is unsafe) and leave Ctrl-C to the parent. When a run on workers it started
  itself (``executor=n``) stops early (Ctrl-C, an error), the parent terminates them at
  once: a game running there may never end, and the standard library's shutdown (also
  the one at interpreter exit) would wait for it.
- A spawned worker runs the parent's script again, as ``__mp_main__``, to start: a
  script that calls ``simulate`` outside ``if __name__ == "__main__":`` would call it
  again in every worker. ``simulate`` calls :func:`refuse_in_starting_worker` first, so
  such a worker stops at once (exit status :data:`UNGUARDED_EXIT`), and the parent, which
  reads how its workers ended, raises :data:`UNGUARDED` instead of a bare
  ``BrokenProcessPool`` with the standard library's bootstrapping text.
"""

from __future__ import annotations

import math
import multiprocessing
import signal
import sys
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from multiprocessing.context import SpawnContext, SpawnProcess
from typing import Any

from .checks import MAX_WORKERS, in_browser_only_in_process, whole
from .play import Spec, run_chunk

__all__ = ["MAX_CHUNK", "UNGUARDED", "UNGUARDED_EXIT", "WINDOW_PER_WORKER", "chunks", "pool_for", "refuse_in_starting_worker",
           "run_on", "window_of", "worker_pool", "workers_of"]

MAX_CHUNK = 50
"""The most games in one chunk when ``chunksize`` is not given."""

WINDOW_PER_WORKER = 3
"""Chunks out at a time per worker: enough to keep every worker busy while the parent
reads rows back, few enough that memory does not grow with the number of games."""

UNGUARDED_EXIT = 87
"""A lab worker's exit status when it found itself running the script's ``simulate``."""

UNGUARDED = (
    "simulate: this script runs again in every worker process (they start as fresh interpreters), and there "
    "it calls simulate again: put the script's code under `if __name__ == \"__main__\":` (see \"Safe importing "
    "of main module\" in Python's multiprocessing docs), or play in this process with executor=None"
)
"""What ``simulate`` says to a script without its ``__main__`` guard that asks for worker processes."""

_WORKER_NAME = "kum-lab-worker"


def refuse_in_starting_worker() -> None:
    """Stop this process if multiprocessing is still starting it: then it is running the
    parent's script again (``__mp_main__``) and reached a ``simulate`` that the script
    should have kept under ``if __name__ == "__main__":``. A lab worker exits quietly with
    :data:`UNGUARDED_EXIT` (its parent, ``simulate``, explains); any other says why on
    stderr first."""
    me = multiprocessing.current_process()
    # ``_inheriting`` is the flag multiprocessing itself checks before refusing to start
    # a process from a process still starting ("bootstrapping phase"); it is set while
    # the parent's script runs again (parent_process() is not set yet then).
    if not getattr(me, "_inheriting", False):
        return
    if not me.name.startswith(_WORKER_NAME):
        print(UNGUARDED, file=sys.stderr)
    raise SystemExit(UNGUARDED_EXIT)


def _ignore_sigint() -> None:
    # Worker processes leave Ctrl-C to the parent, which cancels what is pending.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class _LabContext(SpawnContext):
    """The spawn context, naming the processes it makes and keeping them, so the pool can
    tell how they ended."""

    def __init__(self) -> None:
        self.started: list[SpawnProcess] = []

    # What ProcessPoolExecutor calls to make a worker (a class in SpawnContext).
    def Process(self, *args: Any, **kwargs: Any) -> SpawnProcess:  # type: ignore[override]
        process = SpawnProcess(*args, **kwargs)
        process.name = f"{_WORKER_NAME}-{len(self.started) + 1}"
        self.started.append(process)
        return process


class _LabPool(ProcessPoolExecutor):
    """A process pool of the lab's own workers (see :func:`worker_pool`)."""

    def __init__(self, workers: int) -> None:
        self.lab_context = _LabContext()
        self.abandoned = False  # a run on it stopped early, leaving chunks running
        super().__init__(workers, mp_context=self.lab_context, initializer=_ignore_sigint)

    def stop(self) -> None:
        """Shut the pool down at once: what is pending cancelled, its workers terminated
        (whatever they are running: a game there may never end), then its own thread
        joined, so nothing is left to wait for (not even at interpreter exit)."""
        self.shutdown(wait=False, cancel_futures=True)
        for process in self.lab_context.started:
            try:
                if process.pid is not None and process.exitcode is None:
                    process.terminate()
            except (ValueError, OSError):  # closed, or already gone
                pass
        for process in self.lab_context.started:
            try:
                if process.pid is not None:
                    process.join(5)
                    if process.exitcode is None:  # a worker that does not end on SIGTERM
                        process.kill()
                        process.join(5)
            except (ValueError, OSError, AssertionError):
                pass
        self.shutdown(wait=True)  # its manager thread sees the workers gone, fails what is left, and ends

    def unguarded(self) -> bool:
        """Whether this (broken) pool broke because its workers ran an unguarded script."""
        self.shutdown(wait=True, cancel_futures=True)  # its processes joined: their exit codes are final
        return any(p.exitcode == UNGUARDED_EXIT for p in self.lab_context.started)


def worker_pool(workers: int = 2) -> ProcessPoolExecutor:
    """A process pool like the one ``simulate(executor=n)`` starts, to keep across many
    runs (start-up paid once): ``pool = kum.lab.worker_pool(2)``, then
    ``kum.simulate(..., executor=pool)``; ``pool.shutdown()`` when done.

    Workers are fresh interpreters ("spawn": safe from a kernel with threads, the same
    on every OS) that leave Ctrl-C to this process, which cancels what is pending. From
    a script, keep the code that uses them under ``if __name__ == "__main__":``.
    """
    whole("workers", workers, 1, MAX_WORKERS, where="worker_pool")
    in_browser_only_in_process(workers, "worker_pool")
    return _LabPool(workers)


def workers_of(executor: Any) -> int:
    """How many games an executor plays at once (a guess for one that does not say)."""
    if type(executor) is int:
        return executor
    n = getattr(executor, "_max_workers", None)
    if type(n) is int:
        return n
    client = getattr(executor, "_client", None) or (executor if hasattr(executor, "get_executor") else None)
    if client is not None:
        try:
            return max(1, int(sum(client.nthreads().values())))
        except Exception:  # a client without a cluster yet: any guess will do
            pass
    return 4


def window_of(executor: Any) -> int:
    """The most chunks ``simulate`` has out at a time on ``executor``."""
    return WINDOW_PER_WORKER * max(1, workers_of(executor))


def chunks(games: int, size: int, start: int = 0) -> Iterator[range]:
    """Games ``start..start+games-1`` in ranges of ``size``, made one at a time."""
    return (range(start + a, start + min(a + size, games)) for a in range(0, games, size))


Rows = list[dict[str, Any]]


@contextmanager
def pool_for(executor: Any, where: str = "simulate") -> Iterator[Any]:
    """The executor for a helper that calls ``simulate`` several times (``compare``,
    ``matchup``): for a number, one pool of the lab's own workers for all the runs,
    stopped at once (its workers terminated) if a run is interrupted or fails, else shut
    down when they are done; anything else as it is."""
    if type(executor) is not int:
        yield executor
        return
    whole("executor", executor, 1, MAX_WORKERS, where=where)
    pool = _LabPool(executor)
    try:
        yield pool
    except BaseException:
        pool.stop()
        raise
    if pool.abandoned:
        pool.stop()
    else:
        pool.shutdown(wait=True, cancel_futures=True)


def run_on(executor: Any, spec: Spec, games: int, chunksize: int | None, bar: Any, start: int = 0) -> tuple[Rows, bool]:
    """Play ``games`` games of ``spec`` (numbered from ``start``) on ``executor`` (a number
    of lab workers, an Executor or a dask Client), a window of chunks at a time. The rows in game order, and
    whether Ctrl-C stopped the run (then: the chunks that had finished). A pool it starts
    itself is stopped at once (workers terminated) if the run does not complete."""
    size = chunksize or max(1, min(MAX_CHUNK, math.ceil(games / (8 * workers_of(executor)))))
    flight: dict[Future[Rows], int] = {}  # out on the executor: chunk number
    done: dict[int, Rows] = {}
    own: _LabPool | None = None
    interrupted = completed = False
    pool: Any = None
    try:
        if type(executor) is int:
            pool = own = _LabPool(executor)
        elif isinstance(executor, Executor):
            pool = executor
        else:
            # A dask.distributed Client. Impure: dask names a pure task by its arguments, so the
            # same chunk in a later run would share the key of one an earlier run cancelled
            # (and come back cancelled).
            pool = executor.get_executor(pure=False)
        _stream(pool, spec, enumerate(chunks(games, size, start)), window_of(executor), flight, done, bar)
        completed = True
    except KeyboardInterrupt:
        # Return at once: cancel what has not started; chunks already running are dropped
        # (on workers of our own: terminated, in the finally below).
        interrupted = True
        for fut in flight:
            fut.cancel()
        for fut, k in flight.items():
            if fut.done() and not fut.cancelled() and fut.exception() is None:
                done[k] = fut.result()
    except BrokenProcessPool:
        for fut in flight:
            fut.cancel()
        if isinstance(pool, _LabPool) and pool.unguarded():
            raise RuntimeError(UNGUARDED) from None
        raise
    except BaseException:
        for fut in flight:
            fut.cancel()
        raise
    finally:
        if isinstance(pool, _LabPool) and not completed and pool is not own:
            pool.abandoned = True  # a kept pool: its owner (compare, matchup...) may stop it
        if own is not None:
            if completed:
                own.shutdown(wait=True)
            else:
                own.stop()
    return [row for k in sorted(done) for row in done[k]], interrupted


def _stream(pool: Any, spec: Spec, todo: Iterator[tuple[int, range]], window: int,
            flight: dict[Future[Rows], int], done: dict[int, Rows], bar: Any) -> None:
    """Keep up to ``window`` chunks of ``todo`` out on ``pool`` until all are back in
    ``done`` (``flight`` holds those out, for the caller to cancel)."""
    ranges: dict[int, range] = {}  # each chunk out, by number: to submit again
    while True:
        while len(flight) < window:
            nxt = next(todo, None)
            if nxt is None:
                break
            fut = pool.submit(run_chunk, spec, nxt[1])
            flight[fut] = nxt[0]
            ranges[nxt[0]] = nxt[1]
        if not flight:
            return
        back, _ = wait(flight, return_when=FIRST_COMPLETED)
        for fut in back:
            if fut.cancelled():  # not by us (we cancel only on the way out): a dask task of the same key, cancelled by an earlier run
                k = flight.pop(fut)
                flight[pool.submit(run_chunk, spec, ranges[k])] = k
                continue
            rows = fut.result()
            done[flight[fut]] = rows  # before it leaves flight: Ctrl-C here loses nothing
            del ranges[flight.pop(fut)]
            if bar is not None:
                bar.update(len(rows))
