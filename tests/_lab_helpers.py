"""Bot factories for the lab tests (a module, so worker processes can import them)."""

from __future__ import annotations

import os
import random
import signal
from collections.abc import Hashable, Sequence
from typing import Any


class SigintAt:
    """A bot factory whose bot, in the game whose bot seed is ``target``, sends a real
    SIGINT (what Ctrl-C sends) to process ``pid`` on its first move, then plays on.
    Every other bot it makes plays uniformly at random."""

    label = "sigint"

    def __init__(self, target: int, pid: int) -> None:
        self.target, self.pid = target, pid

    def __call__(self, seed: int) -> _SigintBot:
        return _SigintBot(seed, fire=seed == self.target, pid=self.pid)


class _SigintBot:
    name = "sigint bot"

    def __init__(self, seed: int, *, fire: bool, pid: int) -> None:
        self._rng = random.Random(seed)
        self._fire, self._pid = fire, pid

    def choose(self, view: dict[str, Any], legal: Sequence[Hashable]) -> Hashable:
        if self._fire:
            self._fire = False
            os.kill(self._pid, signal.SIGINT)
        return legal[self._rng.randrange(len(legal))]


class FirstLegal:
    """A deterministic bot class (a factory: ``FirstLegal(seed)``)."""

    name = "first legal"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def choose(self, view: dict[str, Any], legal: Sequence[Hashable]) -> Hashable:
        return legal[0]
