"""Checking ``kum.simulate``'s arguments: each bad one is a ``ValueError`` that names it.

Standard library only (the bots load on first use).
"""

from __future__ import annotations

import pickle
import secrets
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from ..core.errors import shown
from ..core.game import CardGame
from .play import BotSpec, Spec, bot_label, new_session, the_game, with_rules

__all__ = ["check", "need_frame", "whole"]


def need_frame(results: Any) -> None:
    import pandas as pd

    if not isinstance(results, pd.DataFrame):
        raise ValueError(f"expected the DataFrame kum.simulate returns, got {type(results).__name__}")


def whole(name: str, value: Any, low: int, high: int | None = None, where: str = "simulate") -> None:
    if type(value) is not int or value < low or (high is not None and value > high):
        span = f"{low}..{high}" if high is not None else f">= {low}"
        raise ValueError(f"{where}: {name} must be a whole number {span}, got {value!r:.60}")


def _seats(bots: Any, game: CardGame) -> Any:
    """The number of players when none is given: one per bot listed (when the game allows
    that many), else 2 if the game allows it, else its smallest number."""
    if isinstance(bots, Sequence) and not isinstance(bots, str) and game.min_players <= len(bots) <= game.max_players:
        return len(bots)
    return 2 if game.min_players <= 2 <= game.max_players else game.min_players


def _bot_specs(bots: Any, players: int) -> tuple[BotSpec, ...]:
    if isinstance(bots, str) or (callable(bots) and not isinstance(bots, (list, tuple))):
        specs: tuple[BotSpec, ...] = (bots,) * players
    elif isinstance(bots, Iterable) and not isinstance(bots, Mapping):
        specs = tuple(bots)
        if len(specs) != players:
            raise ValueError(f"simulate: bots needs one bot per seat ({players}), got {len(specs)}: {specs!r:.80}")
    else:
        raise ValueError(f"simulate: bots must be a bot name, a factory f(seed) -> bot, or one per seat; got {bots!r:.60}")
    from ..bots import make_bot

    for spec in specs:
        if isinstance(spec, str):
            make_bot(spec, seed=0)  # an unknown name raises ValueError, naming the known ones
        elif callable(spec):
            try:
                make_bot(spec(0))
            except ValueError as exc:
                raise ValueError(f"simulate: bot factory {bot_label(spec)!r}: f(seed) must return a bot ({exc})") from None
        else:
            raise ValueError(
                f"simulate: a bot is a name or a factory f(seed) -> bot (such as a bot class), got {spec!r:.60}; "
                "a bot object would carry its state from game to game"
            )
    return specs


def check(games: Any, players: Any, bots: Any, rules: Any, seed: Any, executor: Any, progress: Any,
           races: Any, rotate: Any, chunksize: Any, game: Any = None) -> Spec:
    the = the_game(game)
    whole("games", games, 1)
    if players is None:
        players = _seats(bots, the)
    whole("players", players, the.min_players, the.max_players)
    if seed is None:
        seed = secrets.randbelow(2**31)
    whole("seed", seed, 0)
    if chunksize is not None:
        whole("chunksize", chunksize, 1)
    for name, flag in (("progress", progress), ("rotate", rotate)):
        if not isinstance(flag, bool):
            raise ValueError(f"simulate: {name} must be True or False, got {shown(flag)}")
    the = with_rules(the, rules)
    if executor is not None and not (
        type(executor) is int or isinstance(executor, Executor) or callable(getattr(executor, "get_executor", None))
    ):
        raise ValueError(
            "simulate: executor must be None (this process), a number of worker processes, a "
            f"concurrent.futures.Executor or a dask.distributed Client; got {shown(executor)}"
        )
    if type(executor) is int and executor < 1:
        raise ValueError(f"simulate: executor must be at least 1 worker process, got {executor}")
    if races is not None:
        if isinstance(races, str) or not isinstance(races, Sequence):
            raise ValueError(f"simulate: races must list one value per seat (for the game's new_session), got {shown(races)}")
        races = tuple(races)
    specs = _bot_specs(bots, players)
    try:  # one deal checks that the rules (a deck...) and the setup fit this many players
        new_session(the, players, 0, races)
    except ValueError as exc:
        raise ValueError(f"simulate: {exc}") from None
    spec = Spec(seed, players, specs, the, races, rotate)
    if type(executor) is int or isinstance(executor, ProcessPoolExecutor):
        if type(the).__module__ == "__main__":
            raise ValueError(
                f"simulate: the game {type(the).__name__} is defined in __main__ (a notebook cell), which worker "
                "processes cannot import: move it to a module, or use executor=None"
            )
        _check_pickles(spec)
    return spec


def _check_pickles(spec: Spec) -> None:
    for b in spec.bots:
        if not isinstance(b, str) and getattr(b, "__module__", None) == "__main__":
            raise ValueError(
                f"simulate: bot factory {bot_label(b)!r} is defined in __main__ (a notebook cell), which worker "
                "processes cannot import: move it to a module, or use executor=None"
            )
    try:
        pickle.dumps(spec)
    except Exception as exc:
        raise ValueError(f"simulate: the bots and rules must pickle to go to worker processes ({exc})") from None

