"""The bots at a referee's tables, in a worker process: a search never holds the referee's event
loop, so the other tables go on while a bot thinks. A bot reads only its seat's view
(``bots.bot_move``); the copy of the game it is handed stays in the referee's own worker."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor

from ..bots import bot_move, make_bot
from ..core.session import Session

__all__ = ["decide", "worker_pool"]


def decide(session: Session, bot: str, seed: int) -> int:
    """(In the worker) the move of the bot named ``bot`` for the seat to act: its action id."""
    return int(bot_move(session, make_bot(bot, seed=seed)))


def worker_pool(workers: int = 1) -> ProcessPoolExecutor:
    """The referee's bot workers: spawned (no copy of the referee's loop or sockets in them)."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
