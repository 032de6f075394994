"""The bots at a referee's tables, in a worker process: a search never holds the referee's event
loop, so the other tables go on while a bot thinks. A bot reads only its seat's view
(``bots.bot_move``); the copy of the game it is handed stays in the referee's own worker."""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor

from ..bots import bot_move, make_bot
from ..core.session import Session

__all__ = ["decide", "worker_pool"]


def decide(session: Session, bot: str, seed: int) -> int:
    """(In the worker) the move of the bot named ``bot`` for the seat to act: its action id."""
    return int(bot_move(session, make_bot(bot, seed=seed)))


def worker_pool(workers: int = 1) -> ProcessPoolExecutor:
    """The referee's workers (its bots, its writer of finished games): spawned (no copy of the
    referee's loop or sockets in them), and gone within a second of the referee, however it
    ends (SIGKILL too: nothing is left holding its output or its port's file)."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_end_with, initargs=(os.getpid(),))


def _end_with(referee: int) -> None:
    """(In a worker) exit as soon as the referee ``referee`` is gone (this process is then another's child)."""
    def watch() -> None:
        while os.getppid() == referee:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, name="kum-widget: the referee's end", daemon=True).start()
