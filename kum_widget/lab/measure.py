"""What every design measure shares: the games it reads (:func:`traced`: ``simulate``'s games
with their course kept, or a table given), the run's arguments, and the words of its intervals.

>>> import kum_widget as kum
>>> t = kum.lab.traced("bust", 30, bots=("random", "greedy"), progress=False)
>>> {"trace_turns", "trace_legal", "trace_movers"} <= set(t.columns)
True
"""

from __future__ import annotations

import math
import pickle
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from ..core.errors import GameError, shown
from .checks import check as _check
from .checks import whole
from .play import DEFAULT_MAX_ACTIONS, BotSpec
from .runs import run_spec
from .stats import mean_interval
from .tables import need_results
from .trace import OPTION_EVERY, TraceSpec, evaluator_of
from .workers import refuse_in_starting_worker

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["MEAN_LINE", "WILSON_LINE", "players_of", "run_args", "share_interval", "table_of", "traced"]

WILSON_LINE = ("[low, high] is a 95% interval: the range the true rate lies in, 19 times in 20, given the games played "
               "(Wilson's interval for a share, which stays within 0..100%).")

MEAN_LINE = "[low, high] is a 95% interval for the mean (the mean plus or minus 1.96 standard errors)."


def share_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """:func:`~kum_widget.lab.stats.mean_interval` of shares (each in 0..1), its bounds kept within 0..1."""
    m, lo, hi = mean_interval(values) if values else (math.nan,) * 3
    return m, (lo if lo != lo else max(0.0, lo)), (hi if hi != hi else min(1.0, hi))


def traced(game: Any = None, games: int = 400, *, players: int | None = None, bots: BotSpec | Sequence[BotSpec] = "greedy",
           rules: Any = None, seed: int = 0, executor: Any = None, progress: bool | Any = True, evaluator: Any = "auto",
           every: int | None = None, playouts: int = 8, kinds: Callable[[str], Any] | None = None,
           max_actions: int | None = DEFAULT_MAX_ACTIONS, unfinished: Literal["raise", "skip"] = "skip",
           chunksize: int | None = None, options: bool = False, start: int = 0) -> pd.DataFrame:
    """``simulate``'s table (same arguments, same seeds: the same games) with each game's
    course kept: ``trace_turns``, ``trace_legal``, ``trace_movers``, ``trace_kinds``,
    ``trace_evals`` (see :mod:`kum_widget.lab.trace`).

    ``evaluator``: how each seat stands at sampled decisions (for :func:`drama`):
    ``"auto"`` (the game's ``evaluate``; else playouts), ``"game"``, ``"ismcts"`` (a
    64-iteration search by the seat to act, seeing the whole position: about ten times
    the work of playouts), ``"playouts"`` (``playouts`` games played on from the position,
    each at most :data:`~kum_widget.lab.trace.ROLLOUT_STEPS` moves), ``"none"``, or a function
    ``f(game, state) -> [chance per seat]``; it looks every ``every`` decisions (default
    1 with the game's evaluate, else 5). ``kinds``: a function from an action's text to
    what the associations count it as (default: the game's kinds, ``core.game.action_kinds``).
    ``options``: also analyse the options of one decision in
    :data:`~kum_widget.lab.trace.OPTION_EVERY` of the first
    :data:`~kum_widget.lab.trace.OPTION_GAMES` games (``trace_options``, for
    :func:`decisions`' real choices). A game past ``max_actions`` is left out
    (``unfinished="skip"``, counted by :func:`length`, and never measured) unless
    ``unfinished="raise"``. ``start``: the number of the first game (the games played are
    ``start`` to ``start + games - 1``, each dealt as in a run from 0).
    """
    refuse_in_starting_worker()  # a script without its __main__ guard, run again in a worker
    spec = _check(games, players, bots, rules, seed, executor, progress if isinstance(progress, bool) else False, True, chunksize, game, max_actions, unfinished, where="traced")
    if every is not None and (type(every) is not int or every < 1):
        raise GameError(f"traced: every must be a whole number >= 1 (or None), got {shown(every)}")
    if type(playouts) is not int or not 1 <= playouts <= 10_000:
        raise GameError(f"traced: playouts must be a whole number 1..10000, got {shown(playouts)}")
    if kinds is not None and not callable(kinds):
        raise GameError(f"traced: kinds must be None or a function from an action's text to its kind, got {shown(kinds)}")
    words, resolved = evaluator_of(spec.game, evaluator, playouts, "traced", spec.players)
    if not isinstance(options, bool):
        raise GameError(f"traced: options must be True or False, got {shown(options)}")
    tspec = TraceSpec.of(spec, evaluator=resolved, every=every or (1 if resolved == "game" else 5), playouts=playouts,
                         kinds=kinds, option_every=OPTION_EVERY if options else 0)
    if executor is not None and (callable(resolved) or kinds is not None):
        try:
            pickle.dumps(tspec)
        except Exception as exc:
            raise GameError(f"traced: the evaluator and kinds must pickle to go to workers ({exc}); "
                            "define them in a module, or use executor=None") from None
    whole("start", start, 0, where="traced")
    df = run_spec(tspec, games, executor, chunksize, progress, desc="traced", stacklevel=3, start=start)
    df.attrs.update(evaluator=words, source="bots", kinds="game" if kinds is None else "yours",
                    option_every=tspec.option_every, option_games=tspec.option_games)
    return df


def table_of(source: Any, where: str, run: dict[str, Any], *, trace: bool = True) -> pd.DataFrame:
    """The table a measure reads: ``source`` itself when it is a table (checked: with the
    course of its games when ``trace``), else :func:`traced` of it with ``run``."""
    import pandas as pd

    if isinstance(source, pd.DataFrame):
        need_results(source, where)
        if trace and "trace_legal" not in source.columns:
            raise GameError(f"{where}: this table has no course of its games (trace_... columns): pass the game, "
                            "or a table from kum.lab.traced(...)")
        return source
    return traced(source, **run)


def players_of(t: pd.DataFrame) -> int:
    """The number of seats of a results table."""
    return int(t["players"].max()) if len(t) else int(t.attrs.get("players", 0))


def run_args(games: int, players: int | None, bots: Any, rules: Any, seed: int, executor: Any, progress: Any,
         **more: Any) -> dict[str, Any]:
    """The keywords of :func:`traced` a measure was given, for :func:`table_of`."""
    return dict(games=games, players=players, bots=bots, rules=rules, seed=seed, executor=executor, progress=progress, **more)
