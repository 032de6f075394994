"""A run of games, wherever it plays: :func:`run_spec` plays the games of a checked run (a
:class:`~kum_widget.lab.play.Spec`) in this process (:func:`run_here`) or on an executor
(:func:`~kum_widget.lab.workers.run_on`) and makes their rows the results table, its attrs
filled. ``simulate``, ``traced``, ``luck``, ``what_wins`` and the skill ladder all run this way.

pandas and tqdm load inside the functions, so importing this module stays light.
"""

from __future__ import annotations

import re
import time
import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .play import Spec, Unfinished, bot_label, changed_options, table_columns
from .workers import run_on

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["executor_words", "progress_bar", "rows_table", "run_here", "run_spec"]


def run_spec(spec: Spec, games: int, executor: Any, chunksize: int | None, progress: bool | Any, *,
             desc: str = "simulate", stacklevel: int = 2, start: int = 0) -> pd.DataFrame:
    """Play ``games`` games of the checked run ``spec`` (a :class:`Spec`, or a subclass that
    plays its games its own way), numbered from ``start``, on ``executor`` and return the
    table, its attrs filled. ``progress``: True (a bar of its own), False, or a bar to
    update (a caller that runs several parts under one bar)."""
    t0 = time.perf_counter()
    own_bar = progress is True
    bar: Any = progress_bar(games, desc) if own_bar else (progress or None)
    try:
        if executor is None:
            rows, interrupted = run_here(spec, range(start, start + games), bar)
        else:
            rows, interrupted = run_on(executor, spec, games, chunksize, bar, start)
    finally:
        if own_bar and bar is not None:
            bar.close()
    if interrupted and not rows:
        raise KeyboardInterrupt(f"{desc}: stopped before any game ended")
    skipped = tuple(int(r["game"]) for r in rows if isinstance(r, Unfinished))
    df = rows_table([r for r in rows if not isinstance(r, Unfinished)], table_columns(spec.game, spec.players))
    df.attrs.update(
        seed=spec.seed, games=games, finished=len(df), unfinished=skipped, max_actions=spec.max_actions,
        interrupted=interrupted, players=spec.players,
        bots=tuple(bot_label(b) for b in spec.bots), bot_specs=spec.bots, rotate=spec.rotate,
        rules=spec.game.options(), rules_changed=changed_options(spec.game),
        seconds=time.perf_counter() - t0, executor=executor_words(executor),
        game=spec.game.name, game_class=type(spec.game),
    )
    if skipped:
        listed = ", ".join(map(str, skipped[:8])) + (f" and {len(skipped) - 8} more" if len(skipped) > 8 else "")
        warnings.warn(f"{desc}: {len(skipped)} of {games} games did not end within max_actions={spec.max_actions} "
                      f"actions and are left out of the table (games {listed}: df.attrs['unfinished'])", stacklevel=stacklevel)
    if interrupted:
        warnings.warn(f"{desc} interrupted: returning the {len(df)} of {games} games finished", stacklevel=stacklevel)
    return df


def run_here(spec: Spec, games: range, bar: Any) -> tuple[list[dict[str, Any]], bool]:
    """Play the games numbered ``games`` of ``spec`` in this process, one after the other; the
    rows, and whether Ctrl-C stopped them (then: the rows of the games that ended)."""
    rows: list[dict[str, Any]] = []
    try:
        for i in games:
            rows.append(spec.play(i))
            if bar is not None:
                bar.update(1)
    except KeyboardInterrupt:
        return rows, True
    return rows, False


def progress_bar(games: int, desc: str = "simulate") -> Any:
    """A progress bar of ``games`` games (``tqdm.auto``: a widget in Jupyter)."""
    from tqdm.auto import tqdm

    return tqdm(total=games, unit="game", desc=desc, smoothing=0.1)


def executor_words(executor: Any) -> str:
    """Where a run played, in words (``df.attrs["executor"]``): "in process", "2 worker
    processes" (a number, a pool of ``worker_pool`` or any process pool), "4 threads", or
    the executor's class ("distributed.Client")."""
    from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

    if executor is None:
        return "in process"
    n = executor if type(executor) is int else getattr(executor, "_max_workers", None)
    if type(n) is int and (type(executor) is int or isinstance(executor, ProcessPoolExecutor)):
        return f"{n} worker process{'' if n == 1 else 'es'}"
    if type(n) is int and isinstance(executor, ThreadPoolExecutor):
        return f"{n} thread{'' if n == 1 else 's'}"
    cls = type(executor)
    return f"{cls.__module__.split('.')[0]}.{cls.__name__.lstrip('_')}"


def rows_table(rows: list[dict[str, Any]], order: Sequence[str]) -> pd.DataFrame:
    """The rows as a table: the columns in ``order`` first, then any others as they come;
    text as ``object`` columns (what the lab's tables have always had), sorted by game."""
    import pandas as pd

    names = dict.fromkeys(order)
    for row in rows:
        names.update(dict.fromkeys(row))
    df = pd.DataFrame.from_records(rows, columns=list(names))
    text = [c for c in df.columns if isinstance(df[c].dtype, pd.StringDtype)]
    if text:
        df = df.astype(dict.fromkeys(text, object))
    if df.empty:  # nothing to infer from: the lab's own columns at least get their kinds
        wins = [c for c in df.columns if re.fullmatch(r"win_\d+", str(c))]
        ints = [c for c in ("game", "seed", "players", "actions", "n_winners") if c in df.columns]
        df = df.astype({**dict.fromkeys(ints, "int64"), **dict.fromkeys(wins, bool)})
    return df.sort_values("game", kind="stable").reset_index(drop=True)
