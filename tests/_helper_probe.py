"""A helper program for tests/test_ismcts_trees.py: each job makes reference cycles of
``Litter`` (garbage only the cyclic collector frees) and answers how many are alive."""

from __future__ import annotations

import gc
from typing import Any

from kum_widget.bots.helper import serve


class Litter:
    def __init__(self) -> None:
        self.me = self  # a cycle: reference counting never frees it


def count(_first: Any, litter: int) -> tuple[int]:
    alive = sum(1 for o in gc.get_objects() if type(o) is Litter)  # before this job's litter
    for _ in range(litter):
        Litter()
    return (alive,)


def serve_helper(answers_fd: int) -> None:
    serve(answers_fd, count)
