"""ISMCTS's helper: a second Python process that grows one of a decision's trees while
this process grows the other, so a player waits about half as long on a machine with
two cores or more.

A tree grown here or there is the same tree (its own seed, the same code, the same
Python), so the move chosen never depends on where the trees grew, only the wait does:
whenever the helper cannot take a tree (one core; a lab worker, which has a core of its
own already; a game the helper cannot import, such as one written in a notebook cell; a
host with no processes; the helper busy with another thread's search, or gone), this
process grows it too.

The helper is a fresh interpreter (``python -c``, running :func:`serve`, with this
process's ``sys.path``), not a multiprocessing child: it never runs the user's script or
notebook again, so a script needs no ``if __name__ == "__main__":`` guard. It imports the
game's module (as pickle does), so what that module runs on import runs there too, but
no search there starts another helper. It reads jobs on its stdin and answers on a pipe
of its own (its stdout is its stderr, so a game that prints cannot garble the answers); it
ignores Ctrl-C and ends when this process closes its stdin, at exit or on its death; a
helper silent far beyond the job's time is stopped. Only a seat's view (what the bot may
see), the game and the search's settings go to it.

The helper knows a game's code as its module was when the helper first imported it: a
class patched at run time, a module reloaded or edited since, or a game whose moves
depend on the order of a set of strings (each process hashes strings its own way) would
grow a different tree there. So by default (``parallel=None``) only the games that ship
with kum_widget use it; ``parallel=True`` opens it to any game it can import;
``parallel=False`` keeps a bot's trees in its own process, and the environment variable
``KUM_WIDGET_PARALLEL=0`` turns the default off for every bot not given ``parallel=True``.
"""

from __future__ import annotations

import atexit
import gc
import os
import pickle
import select
import struct
import sys
import threading
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any, BinaryIO

if TYPE_CHECKING:
    import subprocess

__all__ = ["Helper", "serve"]

_HEADER = struct.Struct("<Q")
_GIVE_UP = 3  # helpers lost before this process stops starting new ones
_KEEP = 8  # the games a helper keeps, read
_IDLE = 0.05  # seconds without a job after which the helper collects its garbage
_COLLECT_AT = 500_000  # objects the collector tracks, made and not yet freed, after which it collects anyway (the court's caches swing by 200,000)
_INSIDE = "KUM_WIDGET_HELPER"  # set in a helper's environment: it starts no helper of its own
SWITCH = "KUM_WIDGET_PARALLEL"  # the user's switch for the default: 0/false/no/off, or 1/true/yes/on (the default)
_OFF, _ON = ("0", "false", "no", "off"), ("", "1", "true", "yes", "on")


def _frame(stream: IO[bytes], data: bytes) -> None:
    """Write one message: its length, then its bytes."""
    stream.write(_HEADER.pack(len(data)) + data)
    stream.flush()


def _read(stream: BinaryIO, size: int) -> bytes:
    parts, left = [], size
    while left:  # an unbuffered pipe may give less than asked
        part = stream.read(left)
        if not part:
            raise EOFError("the other side closed the pipe")
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def _receive(stream: BinaryIO) -> bytes:
    (size,) = _HEADER.unpack(_read(stream, _HEADER.size))
    return _read(stream, size)


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


class Helper:
    """A helper process (started on first use), for one job at a time: it runs
    ``serve_helper`` from ``module``, which calls :func:`serve`."""

    def __init__(self, module: str) -> None:
        self._module = module  # its program: ``serve_helper(fd)`` from this module
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._answers: BinaryIO | None = None
        self._failures = 0  # helpers that could not start or broke: after a few, no more
        self._refused: set[type] = set()  # games whose jobs failed there (it cannot import them)
        self._job: type | None = None
        self._registered = False  # close() runs at exit
        if hasattr(os, "register_at_fork"):  # a forked child must not share its parent's helper
            os.register_at_fork(after_in_child=self._forget)

    def _forget(self) -> None:
        """In a forked child: the helper is the parent's. Close this process's copies of
        its pipes (the parent's stay open) and start afresh."""
        for stream in (self._proc.stdin if self._proc is not None else None, self._answers):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass
        self._lock = threading.Lock()
        self._proc, self._answers, self._job = None, None, None

    @staticmethod
    def worth_it() -> bool:
        """Should a bot left to decide (``parallel=None``) use a helper? Not when the
        environment variable ``KUM_WIDGET_PARALLEL`` is ``0``, ``false``, ``no`` or ``off``
        (another value than those and ``1``, ``true``, ``yes``, ``on`` is ignored, with a
        warning); else when there are two cores or more, and this is neither a worker
        process of the lab (or of anything multiprocessing starts: there every core already
        has a process of its own) nor a helper (a game's module that searches when imported
        must not start helpers of helpers), nor a frozen application (its ``sys.executable``
        is not a Python)."""
        import multiprocessing  # here: the import costs milliseconds, and only a search asks

        switch = os.environ.get(SWITCH, "").strip().lower()
        if switch in _OFF:
            return False
        if switch not in _ON:
            import warnings

            warnings.warn(f"{SWITCH}={os.environ[SWITCH]!r} is neither 0/false/no/off nor 1/true/yes/on: ignored",
                          RuntimeWarning, stacklevel=2)
        return (_cores() >= 2 and multiprocessing.parent_process() is None and not os.environ.get(_INSIDE)
                and not getattr(sys, "frozen", False))

    def acquire(self, game: object) -> bool:
        """Take the helper for one job on ``game`` (False: it is busy, broken, cannot start,
        or cannot import the game: a class from a notebook cell is in ``__main__``)."""
        kind = type(game)
        if self._failures >= _GIVE_UP or kind in self._refused or kind.__module__ == "__main__" or os.environ.get(_INSIDE):
            return False
        if not self._lock.acquire(blocking=False):
            return False
        try:
            if self._proc is None or self._proc.poll() is not None:
                self._start()
        except Exception:  # no processes in this host (Pyodide), no pipes, no interpreter...
            self._failures += 1
            self._lock.release()
            return False
        except BaseException:  # Ctrl-C while it starts
            self.close(kill=True)
            self._lock.release()
            raise
        self._job = kind
        return True

    def release(self) -> None:
        self._job = None
        self._lock.release()

    def _start(self) -> None:
        self.close()  # one that ended
        if not sys.executable:  # an embedded Python with no interpreter to start
            raise RuntimeError("no sys.executable")
        import subprocess  # here: bots that never search in parallel never import it

        # sys.path exactly as here (str(): a notebook may add a Path), set before the first import
        # from it, so the helper imports the very modules this process did (not a copy in its cwd).
        path = [os.fsdecode(p) if isinstance(p, (str, bytes, os.PathLike)) else str(p) for p in sys.path]
        path = [p or os.getcwd() for p in path]
        read, write = os.pipe()  # the helper's answers: a pipe of its own, not its stdout
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-c", f"import sys; sys.path[:] = {path!r}; from {self._module} import serve_helper; serve_helper({write})"],
                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, pass_fds=(write,), env={**os.environ, _INSIDE: "1"},
                start_new_session=True,  # Ctrl-C in a terminal stops this process's search, not its helper
            )
        except BaseException:
            os.close(read)
            raise
        finally:
            os.close(write)
        self._answers = os.fdopen(read, "rb", buffering=0)  # unbuffered: select() sees all there is
        if not self._registered:
            atexit.register(self.close)
            self._registered = True

    @staticmethod
    def pack(first: Any, rest: tuple[Any, ...]) -> bytes | None:
        """One job, ``work(first, *rest)``, as bytes; None when pickle cannot carry it.
        ``first`` (the game) is usually the same from job to job: the helper keeps the
        last few it read, by their bytes, and reads each only once."""
        try:
            return pickle.dumps((pickle.dumps(first, protocol=pickle.HIGHEST_PROTOCOL), rest), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # whatever a game's objects raise: the caller does the job itself
            return None

    def send(self, job: bytes) -> bool:
        """Send a packed job; False when the helper is gone (the caller does it)."""
        try:
            assert self._proc is not None and self._proc.stdin is not None
            _frame(self._proc.stdin, job)
            return True
        except (OSError, ValueError):
            self._broke()
            return False

    def answer(self, timeout: float) -> Any:
        """The answer to the job sent, or None when the helper could not do it (the caller
        does it: an error then shows in this process) or gave no answer in ``timeout``
        seconds (it is stopped: something is wrong with it)."""
        try:
            assert self._answers is not None
            ready, _, _ = select.select([self._answers], [], [], max(0.0, timeout))
            if not ready:
                raise TimeoutError("the helper did not answer")
            out = pickle.loads(_receive(self._answers))
        except Exception:  # gone, silent or garbled: a new helper next time
            self._broke()
            return None
        if isinstance(out, tuple):
            return out
        if self._job is not None:  # its error: it cannot import this game, or the game failed there
            self._refused.add(self._job)
        return None

    def _broke(self) -> None:
        self._failures += 1
        self.close(kill=True)

    def restart(self) -> None:
        """Forget every failure: the next job starts a new helper."""
        self.close()
        self._failures = 0
        self._refused.clear()

    def close(self, *, kill: bool = False) -> None:
        """Stop the helper: at once with ``kill`` (a job's answer is no longer wanted),
        else by closing its input, when it has finished what it is doing."""
        import subprocess

        proc, self._proc = self._proc, None
        if proc is not None:
            try:
                if kill:
                    proc.kill()
                if proc.stdin is not None:
                    proc.stdin.close()  # its end of the stream: it exits
                proc.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                proc.kill()
                proc.wait()
        if self._answers is not None:
            self._answers.close()
            self._answers = None


def serve(answers_fd: int, work: Callable[..., Any]) -> None:
    """The helper's loop: ``work(first, *rest)`` for each job, its value (or its error's
    repr) the answer.

    Its cyclic garbage collector runs only when no job has come for a moment, or when
    jobs in a row have left many objects behind (``gc.get_count()``: made and not yet
    freed since the last collection): a collection costs milliseconds (the court's caches
    are large) that the parent would wait for."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # an interrupt is its parent's to handle: it closes our input
    sys.stdout = sys.stderr  # a game that prints writes to stderr, never into the answers
    gc.disable()
    answers = os.fdopen(answers_fd, "wb")
    jobs = os.fdopen(os.dup(0), "rb", buffering=0)  # unbuffered: select() sees all there is
    nothing = os.open(os.devnull, os.O_RDONLY)
    os.dup2(nothing, 0)  # a game that reads its input reads nothing, and never swallows a job
    os.close(nothing)
    firsts: dict[bytes, Any] = {}
    since = False  # a job since the last collection
    while True:
        if since and (gc.get_count()[0] >= _COLLECT_AT or not select.select([jobs], [], [], _IDLE)[0]):
            gc.collect()
            since = False
        try:
            job = _receive(jobs)
        except EOFError:
            return
        since = True
        try:
            head, rest = pickle.loads(job)
            first = firsts.get(head)
            if first is None:
                first = pickle.loads(head)  # a game it cannot import fails here
                if len(firsts) >= _KEEP:
                    del firsts[next(iter(firsts))]
                firsts[head] = first
            answer = pickle.dumps(work(first, *rest), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # (the parent does the work again and sees the error itself)
            answer = pickle.dumps(repr(error), protocol=pickle.HIGHEST_PROTOCOL)
        _frame(answers, answer)
