"""ISMCTS think time as the speed benchmarks take it (peer.py, speedup.py): seconds per
decision of the default bot at every ``stride``-th turn with a real choice, RandomBot
playing the turns between, so the decisions spread over whole games.

It imports the package when called, not here: speedup.py's measuring child runs it against
an older revision's ``kum_widget`` (whichever is first on the path).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def decision_seconds(new: Callable[[int], Any], decisions: int, stride: int) -> list[float]:
    """``decisions`` timings on the games ``new(0)``, ``new(1)``... (``new(seed)`` makes a session)."""
    from kum_widget.bots import ISMCTSBot, RandomBot
    from kum_widget.bots.base import bot_move

    bot, filler = ISMCTSBot(seed=0), RandomBot(0)
    seed, turn, times = 0, 0, []
    session = new(seed)
    while len(times) < decisions:
        if session.is_over:
            seed += 1
            session = new(seed)
            continue
        if turn % stride == 0 and len(session.legal_actions()) > 1:
            start = time.perf_counter()
            action = bot_move(session, bot)
            times.append(time.perf_counter() - start)
        else:
            action = bot_move(session, filler)
        session.apply(action)
        turn += 1
    return times
