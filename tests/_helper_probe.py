"""A helper program for tests/test_ismcts_trees.py: each job makes reference cycles of
``Litter`` (garbage only the cyclic collector frees) and answers how many are alive,
and, asked to, what it reads on its standard input (as a game that reads input would)."""

from __future__ import annotations

import gc
import os
import select
import sys
from typing import Any

from kum_widget.bots.helper import serve


class Litter:
    def __init__(self) -> None:
        self.me = self  # a cycle: reference counting never frees it


def count(_first: Any, litter: int, read: bool = False) -> tuple[int, ...] | tuple[int, str, bytes]:
    alive = sum(1 for o in gc.get_objects() if type(o) is Litter)  # before this job's litter
    for _ in range(litter):
        Litter()
    if read:  # whatever waits on fd 0 within a second
        ready = select.select([0], [], [], 1.0)[0]
        return (alive, sys.stdin.readline() if ready else "(nothing)", os.read(0, 1 << 16) if ready else b"(nothing)")
    return (alive,)


def serve_helper(answers_fd: int) -> None:
    serve(answers_fd, count)
