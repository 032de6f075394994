"""The workloads the speed benchmarks time (engine.py, peer.py, speedup.py, against.py):
whole games of random play or bots, counted as games and actions, ISMCTS think time, and
``import kum_widget`` in a fresh interpreter.

Each imports the package when called, not here: speedup.py's and against.py's measuring
children run them against another revision's ``kum_widget`` (whichever is first on the
path), so they use only what every revision since the speed issue has.
"""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

Step = Callable[[int], int]  # plays game number i to the end, returns its actions (decisions)


class Rate:
    """Whole games of one step, timed over several runs: games/s and actions/s."""

    def __init__(self, step: Step) -> None:
        self.step, self.games, self.actions, self.seconds = step, 0, 0, 0.0
        step(10**6)  # warm-up, untimed: first imports, first deal, caches

    def run(self, seconds: float) -> None:
        start = time.perf_counter()
        while True:
            self.actions += self.step(self.games)  # seeds go on across rounds: no game is played twice
            self.games += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                break
        self.seconds += elapsed

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds

    @property
    def per_game(self) -> float:
        return self.actions / self.games


def bots_step(bot: Any) -> Step:
    """Kings Under Mountains, 2 players, two bots of class ``bot`` through the lab's path (bot_move)."""
    import kum_widget as kum
    from kum_widget.bots.base import bot_move

    def step(i: int) -> int:
        g = kum.Game(2, seed=i)
        bots = [bot(2 * i), bot(2 * i + 1)]
        n = 0
        while not g.is_over:
            g.apply(bot_move(g, bots[g.current_player]))
            n += 1
        return n

    return step


def session_step(new: Callable[[int], Any], rng: random.Random, *, ids: bool = False) -> Step:
    """Random play through a public session (kum.Game, kum.Court): action objects, events,
    history; ``ids=True`` through the session's integer ids (legal_action_ids, apply(id))."""

    def step(i: int) -> int:
        g = new(i)
        legal = g.legal_action_ids if ids else g.legal_actions
        n = 0
        while not g.is_over:
            g.apply(rng.choice(legal()))
            n += 1
        return n

    return step


def rules_step(rules: Any, players: int, rng: random.Random) -> Step:
    """Random play on the core protocol: rules.legal_actions(state) / rules.apply(state, id)."""

    def step(i: int) -> int:
        s = rules.setup(players, random.Random(i))
        n = 0
        while not rules.is_over(s):
            rules.apply(s, rng.choice(rules.legal_actions(s)))
            n += 1
        return n

    return step


def decision_times(new: Callable[[int], Any], stride: int, **options: Any) -> Iterator[float]:
    """ISMCTS think times, one decision at a time, on the games ``new(0)``, ``new(1)``...
    (``new(seed)`` makes a session): the default bot (or one with ``options``) decides every
    ``stride``-th turn that has a real choice, RandomBot plays the turns between, so
    decisions spread over whole games."""
    from kum_widget.bots import ISMCTSBot, RandomBot
    from kum_widget.bots.base import bot_move

    bot, filler = ISMCTSBot(seed=0, **options), RandomBot(0)
    seed, turn = 0, 0
    session = new(seed)
    while True:
        if session.is_over:
            seed += 1
            session = new(seed)
            continue
        if turn % stride == 0 and len(session.legal_actions()) > 1:
            start = time.perf_counter()
            action = bot_move(session, bot)
            yield time.perf_counter() - start
        else:
            action = bot_move(session, filler)
        session.apply(action)
        turn += 1


def decision_seconds(new: Callable[[int], Any], decisions: int, stride: int, **options: Any) -> list[float]:
    """The first ``decisions`` of :func:`decision_times`."""
    return list(itertools.islice(decision_times(new, stride, **options), decisions))


def import_ms(pairs: int = 7, cwd: str | None = None, python: str = sys.executable, warm: bool = True) -> list[float]:
    """``import kum_widget`` in a fresh interpreter less a bare start-up, in milliseconds, one
    figure a pair (a bare start, then an import, in turn, so drift falls on both), after one
    untimed import unless ``warm`` is false (the first may compile the package's bytecode)."""

    def run(code: str) -> float:
        t = time.perf_counter()
        subprocess.run([python, "-c", code], check=True, cwd=cwd)
        return time.perf_counter() - t

    if warm:
        run("import kum_widget")
    return [(-run("pass") + run("import kum_widget")) * 1000 for _ in range(pairs)]
