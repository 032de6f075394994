"""Checking ``kum.simulate``'s arguments: each bad one is a ``GameError`` that names it.

Standard library only (the bots load on first use).
"""

from __future__ import annotations

import pickle
import secrets
import sys
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from ..core.errors import GameError, cut, shown
from ..core.game import CardGame, game_type
from .play import DEFAULT_MAX_ACTIONS, BotSpec, Spec, bot_label, new_session, the_game, title_of, with_rules

__all__ = ["MAX_WORKERS", "UNFINISHED", "check", "default_players", "in_browser_only_in_process", "in_browser_tables", "need_frame", "whole"]

MAX_WORKERS = 1024
"""The most worker processes ``simulate`` starts (``executor=n``, ``worker_pool(n)``)."""

UNFINISHED = ("raise", "skip")
"""What ``simulate`` does with a game past ``max_actions``: raise an ``ActionLimitError``
(the default), or leave it out of the table (named in ``df.attrs["unfinished"]``)."""


def need_frame(results: Any, where: str = "") -> None:
    import pandas as pd

    if not isinstance(results, pd.DataFrame):
        raise GameError(f"{where + ': ' if where else ''}expected the DataFrame kum.simulate returns, got {type(results).__name__}")


def whole(name: str, value: Any, low: int, high: int | None = None, where: str = "simulate") -> None:
    if type(value) is not int or value < low or (high is not None and value > high):
        span = f"{low}..{high}" if high is not None else f">= {low}"
        raise GameError(f"{where}: {name} must be a whole number {span}, got {shown(value)}")


def default_players(bots: Any, game: CardGame) -> int:
    """The number of players when none is given: one per bot listed (when the game allows
    that many), else 2 if the game allows it, else its smallest number."""
    lo, hi = game_type(game).players
    if isinstance(bots, Sequence) and not isinstance(bots, str) and lo <= len(bots) <= hi:
        return len(bots)
    return 2 if lo <= 2 <= hi else lo


def _bot_specs(bots: Any, players: int, where: str) -> tuple[BotSpec, ...]:
    if isinstance(bots, str) or (callable(bots) and not isinstance(bots, (list, tuple))):
        specs: tuple[BotSpec, ...] = (bots,) * players
    elif isinstance(bots, Iterable) and not isinstance(bots, Mapping):
        specs = tuple(bots)
        if len(specs) != players:
            raise GameError(f"{where}: bots needs one bot per seat ({players}), got {len(specs)}: {shown(specs, 80)}")
    else:
        raise GameError(f"{where}: bots must be a bot name, a factory f(seed) -> bot, or one per seat; got {shown(bots)}")
    from ..bots import make_bot

    for spec in specs:
        if isinstance(spec, str):
            try:
                make_bot(spec, seed=0)
            except ValueError as exc:  # an unknown name: the message names the known ones
                raise GameError(f"{where}: {exc}") from None
        elif callable(spec):
            try:
                make_bot(spec(0))
            except Exception as exc:  # whatever the factory raises, or a GameError from make_bot
                raise GameError(f"{where}: bot factory {bot_label(spec)!r}: f(seed) must return a bot "
                                f"({type(exc).__name__}: {cut(str(exc))})") from None
        else:
            raise GameError(
                f"{where}: a bot is a name or a factory f(seed) -> bot (such as a bot class), got {shown(spec)}; "
                "a bot object would carry its state from game to game"
            )
    return specs


def in_browser_only_in_process(executor: Any, where: str) -> None:
    """In a browser's Python (Pyodide, as in the course site `make site` builds) the lab plays in
    this process only: say so before any game is played."""
    if sys.platform == "emscripten" and executor is not None:
        raise GameError(f"{where}: in a browser (Pyodide) the lab plays in this process only, as no worker process "
                        f"or dask cluster can start there: use executor=None, not {shown(executor)}")


def in_browser_tables(where: str) -> None:
    """A browser's Python without pandas (the course site offline) cannot make the lab's tables:
    say so before any game is played, naming where pandas comes from."""
    if sys.platform != "emscripten":
        return
    try:
        import pandas  # noqa: F401
    except ImportError:
        raise GameError(f"{where}: the lab's tables need pandas, which a browser's Python (Pyodide) gets only from "
                        "Pyodide's own distribution online, not from this site (README, \"A course in the browser\")") from None


def check(games: Any, players: Any, bots: Any, rules: Any, seed: Any, executor: Any, progress: Any,
          rotate: Any, chunksize: Any, game: Any = None, max_actions: Any = DEFAULT_MAX_ACTIONS,
          unfinished: Any = "raise", *, where: str = "simulate") -> Spec:
    in_browser_only_in_process(executor, where)
    the = the_game(game, where)
    whole("games", games, 1, where=where)
    if players is None:
        players = default_players(bots, the)
    whole("players", players, *game_type(the).players, where=where)
    if seed is None:
        seed = secrets.randbelow(2**31)
    whole("seed", seed, 0, where=where)
    if chunksize is not None:
        whole("chunksize", chunksize, 1, where=where)
    if max_actions is not None:
        whole("max_actions", max_actions, 1, where=where)
    if not isinstance(unfinished, str) or unfinished not in UNFINISHED:
        raise GameError(f"{where}: unfinished must be 'raise' (an ActionLimitError) or 'skip' (leave the game out "
                        f"of the table), got {shown(unfinished)}")
    for name, flag in (("progress", progress), ("rotate", rotate)):
        if not isinstance(flag, bool):
            raise GameError(f"{where}: {name} must be True or False, got {shown(flag)}")
    the = with_rules(the, rules, where)
    if executor is not None and not (
        type(executor) is int or isinstance(executor, Executor) or callable(getattr(executor, "get_executor", None))
    ):
        raise GameError(
            f"{where}: executor must be None (this process), a number of worker processes, a "
            f"concurrent.futures.Executor or a dask.distributed Client; got {shown(executor)}"
        )
    if type(executor) is int and not 1 <= executor <= MAX_WORKERS:
        raise GameError(f"{where}: executor must be at least 1 worker process (at most {MAX_WORKERS}), got {shown(executor)}")
    specs = _bot_specs(bots, players, where)
    try:  # one deal checks that the rules (a deck...) fit this many players
        new_session(the, players, 0)
    except ValueError as exc:
        raise GameError(f"{where}: {exc}") from None
    except Exception as exc:  # a game that fails on an option of a wrong type, say
        raise GameError(f"{where}: {title_of(the)} cannot deal a game with players={players} "
                        f"({type(exc).__name__}: {cut(str(exc))})") from None
    spec = Spec(seed, players, specs, the, rotate, max_actions, unfinished)
    if type(executor) is int or isinstance(executor, ProcessPoolExecutor):
        if type(the).__module__ == "__main__":
            raise GameError(
                f"{where}: the game {type(the).__name__} is defined in __main__ (a notebook cell), which worker "
                "processes cannot import: move it to a module, or use executor=None"
            )
        _check_pickles(spec, where)
    return spec


def _check_pickles(spec: Spec, where: str) -> None:
    for b in spec.bots:
        if not isinstance(b, str) and getattr(b, "__module__", None) == "__main__":
            raise GameError(
                f"{where}: bot factory {bot_label(b)!r} is defined in __main__ (a notebook cell), which worker "
                "processes cannot import: move it to a module, or use executor=None"
            )
    try:
        pickle.dumps(spec)
    except Exception as exc:
        raise GameError(f"{where}: the bots and rules must pickle to go to worker processes ({exc})") from None

