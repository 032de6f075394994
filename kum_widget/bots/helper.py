"""ISMCTS's helper: a second Python process that grows one of a decision's trees while
this process grows the other, so a player waits about half as long on a machine with
two cores or more.

A tree grown here or there is the same tree (its own seed, the same code, the same
Python), so the move chosen never depends on where the trees grew, only the wait does:
whenever the helper cannot take a tree (one core; a lab worker, which has a core of its
own already; a game the helper cannot import, such as one written in a notebook cell; a
host with no processes; the helper busy with another thread's search, or gone), this
process grows it too.

The helper is a fresh interpreter (``python -c``, running :func:`serve`), not a
multiprocessing child: it never runs the user's script or notebook again, so a script
needs no ``if __name__ == "__main__":`` guard. It reads jobs on its stdin and answers on
a pipe of its own (its stdout is its stderr, so a game that prints cannot garble the
answers), and it ends when this process closes its stdin, at exit or on its death.
Only a seat's view (what the bot may see) and the game's rules go to it.
"""

from __future__ import annotations

import atexit
import os
import pickle
import struct
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, BinaryIO

if TYPE_CHECKING:
    import subprocess

__all__ = ["Helper", "serve"]

_HEADER = struct.Struct("<Q")
_GIVE_UP = 3  # helpers lost before this process stops starting new ones
_KEEP = 8  # the games a helper keeps, read


def _send(stream: BinaryIO, obj: Any) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(data)) + data)
    stream.flush()


def _receive(stream: BinaryIO) -> bytes:
    head = stream.read(_HEADER.size)
    if len(head) < _HEADER.size:
        raise EOFError("the other side closed the pipe")
    (size,) = _HEADER.unpack(head)
    data = stream.read(size)
    if len(data) < size:
        raise EOFError("the other side closed the pipe")
    return data


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
        self._failures = 0  # it could not start, or broke: after a few, this process grows every tree
        self._refused: set[type] = set()  # games whose trees it could not grow (it cannot import them)
        self._job: type | None = None
        self._registered = False  # close() runs at exit
        if hasattr(os, "register_at_fork"):  # a forked child must not share its parent's helper
            os.register_at_fork(after_in_child=self._forget)

    def _forget(self) -> None:
        """In a forked child: the helper and its pipes are the parent's, to leave alone."""
        self._lock = threading.Lock()
        self._proc, self._answers, self._job = None, None, None

    @staticmethod
    def worth_it() -> bool:
        """Two cores or more, and this is not a worker process of the lab (or of anything
        multiprocessing starts): there every core already has a process of its own."""
        import multiprocessing  # here: the import costs milliseconds, and only a search asks

        return _cores() >= 2 and multiprocessing.parent_process() is None

    def acquire(self, game: object) -> bool:
        """Take the helper for one search of ``game`` (False: it is busy, broken, cannot
        start, or cannot import the game: a class from a notebook cell is in ``__main__``)."""
        kind = type(game)
        if self._failures >= _GIVE_UP or kind in self._refused or kind.__module__ == "__main__":
            return False
        if not self._lock.acquire(blocking=False):
            return False
        if self._proc is None or self._proc.poll() is not None:
            try:
                self._start()
            except (OSError, ValueError, RuntimeError):  # no processes in this host (Pyodide), no pipes...
                self._failures = _GIVE_UP
                self._lock.release()
                return False
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

        read, write = os.pipe()  # the helper's answers: a pipe of its own, not its stdout
        try:
            self._proc = subprocess.Popen(
                [sys.executable, "-c", f"from {self._module} import serve_helper; serve_helper({write})"],
                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, pass_fds=(write,),
                env={**os.environ, "PYTHONPATH": os.pathsep.join(p or os.getcwd() for p in sys.path)},  # imports as here
            )
        except BaseException:
            os.close(read)
            raise
        finally:
            os.close(write)
        self._answers = os.fdopen(read, "rb")
        if not self._registered:
            atexit.register(self.close)
            self._registered = True

    def submit(self, first: Any, rest: tuple[Any, ...]) -> bool:
        """Send one job, ``work(first, *rest)``; False when it cannot go (the caller does
        it). ``first`` (the game) is usually the same from job to job: the helper keeps
        the last few it read, by their bytes, and reads each only once."""
        try:
            data = pickle.dumps((pickle.dumps(first, protocol=pickle.HIGHEST_PROTOCOL), rest), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # (whatever a game's objects raise: that tree grows here instead)
            return False
        try:
            assert self._proc is not None and self._proc.stdin is not None
            self._proc.stdin.write(_HEADER.pack(len(data)) + data)
            self._proc.stdin.flush()
            return True
        except (OSError, ValueError):  # the helper is gone
            self._broke()
            return False

    def answer(self) -> Any:
        """The tree sent: ``(stats, iterations, children)``, or None when the helper could
        not grow it (the caller grows it: an error then shows in this process)."""
        try:
            assert self._answers is not None
            out = pickle.loads(_receive(self._answers))
        except Exception:  # (gone, or garbled: a new helper next time)
            self._broke()
            return None
        if isinstance(out, tuple):
            return out
        if self._job is not None:  # its error: it cannot import this game, or the game failed there
            self._refused.add(self._job)
        return None

    def _broke(self) -> None:
        self._failures += 1
        self.close()

    def restart(self) -> None:
        """Forget every failure: the next search starts a new helper."""
        self.close()
        self._failures = 0
        self._refused.clear()

    def close(self) -> None:
        import subprocess

        proc, self._proc = self._proc, None
        if proc is not None:
            try:
                if proc.stdin is not None:
                    proc.stdin.close()  # its end of the stream: it exits
                proc.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                proc.kill()
        if self._answers is not None:
            self._answers.close()
            self._answers = None


def serve(answers_fd: int, work: Callable[..., Any]) -> None:
    """The helper's loop: ``work(first, *rest)`` for each job, its value (or its error's
    repr) the answer."""
    sys.stdout = sys.stderr  # a game that prints writes to stderr, never into the answers
    answers = os.fdopen(answers_fd, "wb")
    jobs = sys.stdin.buffer
    firsts: dict[bytes, Any] = {}
    while True:
        try:
            job = _receive(jobs)
        except EOFError:
            return
        try:
            head, rest = pickle.loads(job)
            first = firsts.get(head)
            if first is None:
                first = pickle.loads(head)  # a game it cannot import fails here
                if len(firsts) >= _KEEP:
                    del firsts[next(iter(firsts))]
                firsts[head] = first
            out: Any = work(first, *rest)
        except Exception as error:  # (the parent does the work again and sees the error itself)
            out = repr(error)
        _send(answers, out)
