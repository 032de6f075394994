"""``kum.simulate``: many bot-vs-bot games of any game, in this process or on any executor.

pandas and tqdm load inside the functions, so importing this module stays light.
"""

from __future__ import annotations

import re
import time
import warnings
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any, Literal

from ..core.errors import GameError, cut, shown, shown_names
from ..core.game import CardGame
from .checks import check as _check
from .checks import need_frame
from .play import (
    DEFAULT_MAX_ACTIONS,
    FIRST_COLUMN,
    LAB_COLUMNS,
    BotSpec,
    Spec,
    Unfinished,
    bot_label,
    changed_options,
    integer,
    play_spec,
    table_columns,
    the_game,
    with_rules,
)
from .workers import refuse_in_starting_worker, run_on, worker_pool

if TYPE_CHECKING:
    import pandas as pd

    from ..core.session import Session

__all__ = ["simulate", "run_spec", "per_seat", "play_game", "replay", "worker_pool", "seat_columns", "game_columns", "game_of", "need_results", "run_here"]


def simulate(
    games: int = 1000,
    players: int | None = None,
    bots: BotSpec | Sequence[BotSpec] = "greedy",
    rules: Any = None,
    seed: int | None = 0,
    executor: int | Executor | Any | None = None,
    progress: bool = True,
    *,
    races: Sequence[str] | None = None,
    rotate: bool = True,
    chunksize: int | None = None,
    game: Any = None,
    max_actions: int | None = DEFAULT_MAX_ACTIONS,
    unfinished: Literal["raise", "skip"] = "raise",
) -> pd.DataFrame:
    """Play ``games`` games between bots and return one row per game (a DataFrame).

    Arguments:

    - ``game``: the game: a registered or installed name (``"bust"``), a ``core.CardGame``
      (its rule options as given) or its class; default ``core.registry.default_game()``
      (Kings Under Mountains).
    - ``players``: how many seats (2-4 for Kings Under Mountains, 1 for a solitaire such
      as ``"court"``; the game says). Default: one per bot when ``bots`` lists them, else
      2 (or the game's only number). ``bots``: one bot for every seat (``"greedy"``) or one per seat (``("greedy",
      "random")``). A bot is a name (``"random"``, ``"greedy"``, any name
      ``kum.bots.make_bot`` knows) or a factory ``f(seed) -> bot`` such as a bot class;
      every game gets fresh bots, seeded from the game.
    - ``rules``: the options to change, through the game's ``with_options``: a dict of
      them (``{"limit": 25}``), a rules object with an ``options()`` method giving that
      dict (``kum.CourtRules(price="printed")`` for ``game="court"``), or for Kings Under
      Mountains also a ``kum.Rules``. Its Kings are a rule option too:
      ``rules={"races": "giant,orc"}``.
    - ``seed``: game ``i`` is dealt with ``kum.lab.game_seed(seed, i)`` and the bot at
      ``seat`` is seeded with ``kum.lab.bot_seed(that, seat)``: the same seed gives the
      identical table whatever the executor and the number of workers. ``None`` draws a
      seed (kept in ``df.attrs["seed"]``).
    - ``rotate`` (default True): the bot list turns one seat per game, so ``bots[0]``
      sits at seat ``i % players`` in game ``i`` and every bot plays every seat equally
      often. With ``rotate=False`` seat ``s`` always has ``bots[s]``.
    - ``races`` (deprecated, with a ``DeprecationWarning``): a list with one value per
      seat, the game's rule option of that name (``races=["giant", "orc"]`` is
      ``rules={"races": "giant,orc"}`` in Kings Under Mountains).
    - ``executor``: ``None`` plays in this process; an int starts that many worker
      processes; any ``concurrent.futures.Executor`` is used as it is (for a cluster:
      ``dask.distributed.Client(...).get_executor()``, or the ``Client`` itself). Games
      go out in chunks of ``chunksize`` (default: up to 50, about 8 chunks per worker), a
      few per worker at a time: memory holds the rows, not the run, whatever ``games``
      is. Worker processes run a script again to start: in a script, call ``simulate``
      with workers under ``if __name__ == "__main__":`` (without it, a ``RuntimeError``
      says so).
    - ``progress``: a progress bar (``tqdm.auto``: a widget in Jupyter).
    - ``max_actions`` (default 10,000, :data:`~kum_widget.lab.play.DEFAULT_MAX_ACTIONS`):
      the most actions a game may take, far more than a card game needs; ``None``: no
      limit. A game still going at the limit never ends, most likely (a bug in the game,
      or a bot that keeps it going: ``core.check_game`` finds out), and by default
      (``unfinished="raise"``) it stops the run with a
      :class:`~kum_widget.lab.play.ActionLimitError` naming the game, its number and its
      seed, on every executor. ``unfinished="skip"`` leaves such games out of the table
      instead, with a warning: their numbers are in ``df.attrs["unfinished"]`` (the
      table then holds only the games that ended, which may bias it).

    Ctrl-C (KeyboardInterrupt, the notebook's stop button) stops the run at once and
    returns the games finished so far, with ``df.attrs["interrupted"] = True`` and a
    warning; before any game finished there is nothing to return, and the
    KeyboardInterrupt goes on (a script stops there). Chunks not started are cancelled
    (or never sent). Worker processes that ``simulate`` started itself (``executor=n``)
    are terminated at once, games running on them dropped, so a script ends promptly
    even if a game there never would; on a pool or cluster of yours, chunks already
    running finish in the background (within ``max_actions``) and are dropped.

    Columns of every game: ``game`` (number in the run, the table is sorted by it),
    ``seed`` (the game's own seed: the game's ``new_session(players, seed=...)`` deals
    it again), ``players``, ``actions``, ``n_winners``, ``winners`` (tuple of seats; a
    tie shares the win) and per seat ``s``: ``bot_s``, ``score_s``, ``win_s`` (also when
    shared). The game's ``summary()`` adds its own (a column per seat ends in ``_s``),
    in the order of its ``columns()`` hook if it has one.

    Kings Under Mountains adds: ``first_player``, ``turns`` (completed), and totals over
    seats of ``claims``, ``developments``, ``claims_by_other``, ``stuck``, ``discards``;
    per seat ``race_s`` (its King), ``developed_s`` and ``undeveloped_s`` (points of
    developed mines, of claimed but undeveloped ones: ``score_s`` is their difference),
    ``claims_s`` (mines claimed for seat s), ``developments_s``, ``claims_by_other_s``
    and ``claims_by_other_points_s`` (mines seat s got through another player's card: a
    ``Claimed`` event with ``seat == s != by``), ``claims_for_other_s`` (mines seat s's
    cards won for someone else), ``stuck_s`` (turns with no legal play, D3) and
    ``discards_s`` (cards discarded when stuck).

    :func:`per_seat` gives the long form. ``df.attrs`` keeps the run's arguments: ``game``
    (its name), ``game_class``, ``rules`` (the game's ``options()``), ``rules_changed``
    (the options that differ from the defaults, as the game names them), ``max_actions``;
    and ``finished`` (the games in the table), ``unfinished`` (the numbers of the games
    left out at ``max_actions``), ``interrupted``.
    """
    refuse_in_starting_worker()  # a worker running a script again, that has no __main__ guard
    spec = _check(games, players, bots, rules, seed, executor, progress, races, rotate, chunksize, game, max_actions,
                  unfinished)
    return run_spec(spec, games, executor, chunksize, progress, stacklevel=3)


def run_spec(spec: Spec, games: int, executor: Any, chunksize: int | None, progress: bool | Any, *,
             desc: str = "simulate", stacklevel: int = 2, start: int = 0) -> pd.DataFrame:
    """Play ``games`` games of the checked run ``spec`` (a :class:`Spec`, or a subclass that
    plays its games its own way), numbered from ``start``, on ``executor`` and return the
    table, its attrs filled. ``progress``: True (a bar of its own), False, or a bar to
    update (a caller that runs several parts under one bar)."""
    t0 = time.perf_counter()
    own_bar = progress is True
    bar: Any = _bar(games, desc) if own_bar else (progress or None)
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
    df = _frame([r for r in rows if not isinstance(r, Unfinished)], table_columns(spec.game, spec.players))
    df.attrs.update(
        seed=spec.seed, games=games, finished=len(df), unfinished=skipped, max_actions=spec.max_actions,
        interrupted=interrupted, players=spec.players,
        bots=tuple(bot_label(b) for b in spec.bots), bot_specs=spec.bots, rotate=spec.rotate,
        rules=spec.game.options(), rules_changed=changed_options(spec.game),
        seconds=time.perf_counter() - t0, executor=_describe(executor),
        game=spec.game.name, game_class=type(spec.game),
    )
    if skipped:
        listed = ", ".join(map(str, skipped[:8])) + (f" and {len(skipped) - 8} more" if len(skipped) > 8 else "")
        warnings.warn(f"{desc}: {len(skipped)} of {games} games did not end within max_actions={spec.max_actions} "
                      f"actions and are left out of the table (games {listed}: df.attrs['unfinished'])", stacklevel=stacklevel)
    if interrupted:
        warnings.warn(f"{desc} interrupted: returning the {len(df)} of {games} games finished", stacklevel=stacklevel)
    return df


# -- reading a results table -------------------------------------------------------------


def seat_columns(results: pd.DataFrame) -> dict[str, dict[int, str]]:
    """The per-seat columns of a results table, by name then seat: every column named
    ``<name>_<seat>`` (the lab's ``bot_s``, ``score_s``, ``win_s`` and the game's), for
    names that have seat 0 and no gap (so a lone ``top_10`` is not one). In the order the
    table has them."""
    found: dict[str, dict[int, str]] = {}
    for col in results.columns:
        m = re.fullmatch(r"(.+)_(0|[1-9]\d*)", str(col))
        if m:
            found.setdefault(m[1], {})[int(m[2])] = col
    return {name: seats for name, seats in found.items() if sorted(seats) == list(range(len(seats)))}


def game_columns(results: pd.DataFrame) -> list[str]:
    """The game's own numeric columns about the whole game (not per seat, not the lab's,
    not ``first_player``): what :func:`~kum_widget.lab.compare` averages per game."""
    import pandas as pd

    per = {c for seats in seat_columns(results).values() for c in seats.values()}
    skip = {*LAB_COLUMNS, FIRST_COLUMN}
    return [  # columns named by text only: a game's summary names its columns so
        c for c in results.columns
        if isinstance(c, str) and c not in per and c not in skip
        and pd.api.types.is_numeric_dtype(results[c]) and not pd.api.types.is_bool_dtype(results[c])
    ]


def game_of(results: pd.DataFrame, where: str = "replay") -> CardGame:
    """The game a results table was played with, its options as they were (from its attrs)."""
    a = results.attrs
    cls = a.get("game_class")
    game = the_game(cls if isinstance(cls, type) and issubclass(cls, CardGame) else a.get("game") or None, where)
    return with_rules(game, a.get("rules"), where) if a.get("rules") is not None else game


def need_results(results: Any, where: str, *, game_level: Sequence[str] = ("n_winners",),
                 per: Sequence[str] = ("bot", "win"), games: bool = True) -> dict[str, dict[int, str]]:
    """Check that ``results`` is a results table as ``kum.simulate`` makes one, else raise
    a GameError saying what is wrong: a DataFrame, its column names unique, with the
    per-seat columns ``per`` (``bot_0``...) and the game-level ones ``game_level``, of
    usable types (numbers; ``win_s`` True or False; ``players`` above 0), and with
    ``games``, at least one game. Returns :func:`seat_columns`."""
    import pandas as pd

    need_frame(results, where)
    if not results.columns.is_unique:
        twice = shown_names(set(results.columns[results.columns.duplicated()]))
        raise GameError(f"{where}: the table has more than one column named {twice}")
    names = seat_columns(results)
    have = cut(", ".join(map(str, results.columns)) or "none", 300)
    if not {"bot", "win"} & set(per) <= set(names):
        raise GameError(f"{where}: no per-seat columns (bot_0, score_0, win_0...): pass a table from kum.simulate (columns: {have})")
    missing = [f"{n}_0" for n in per if n not in names] + [str(c) for c in game_level if c not in results.columns]
    if missing:
        raise GameError(f"{where}: expected a table from kum.simulate, with no column {', '.join(missing)} (columns: {have})")
    seats = {n: sorted(names[n]) for n in per}
    if len({tuple(v) for v in seats.values()}) > 1:
        listed = "; ".join(f"{n}_{', '.join(map(str, v))}" for n, v in seats.items())
        raise GameError(f"{where}: the per-seat columns must cover the same seats, got {listed}")
    for name in per:
        for col in names[name].values():
            values = results[col].dropna()
            if name == "win" and not values.isin([True, False]).all():
                raise GameError(f"{where}: column {col} must hold True or False (a win), got {shown(values[~values.isin([True, False])].iloc[0])}")
            if name == "score" and not pd.api.types.is_numeric_dtype(values):
                raise GameError(f"{where}: column {col} must hold numbers (scores), not {values.dtype}")
    for col in game_level:
        if col != "winners" and not pd.api.types.is_numeric_dtype(results[col]):
            raise GameError(f"{where}: column {col} must hold numbers, not {results[col].dtype}")
    if "players" in game_level and not (results["players"] > 0).all():
        raise GameError(f"{where}: column players must be above 0 in every game")
    if games and len(results) == 0:
        raise GameError(f"{where}: the table has no games (a run stopped before its first game ended?)")
    return names


def per_seat(results: pd.DataFrame) -> pd.DataFrame:
    """The long form of a results table: one row per (game, seat), for any game.

    Columns: the game-level ones (those sharing a name with a per-seat one renamed
    ``game_claims``...), ``seat``, ``first`` (this seat moved first: only when the game
    gives ``first_player``), ``shared`` (a shared win), and the per-seat ones (every
    column ending in ``_<seat>``) without their seat number: ``bot``, ``score``, ``win``
    and the game's (``race``...). Extra columns (such as ``variant`` from
    :func:`kum.lab.compare`) are kept. A table with no games gives one with no rows.
    """
    import pandas as pd

    names = need_results(results, "per_seat", games=False)
    by_seat: dict[int, dict[str, str]] = {}
    for name, seats in names.items():
        for seat, col in seats.items():
            by_seat.setdefault(seat, {})[col] = name
    per = {col for cols in by_seat.values() for col in cols}
    base = results[[c for c in results.columns if c not in per]]
    base = base.rename(columns={c: f"game_{c}" for c in base.columns if c in names})
    base = base.assign(_row=range(len(base)))
    parts = []
    for seat in sorted(by_seat):
        part = results[list(by_seat[seat])].rename(columns=by_seat[seat])
        part = pd.concat([base, part], axis=1).assign(seat=seat)
        parts.append(part[part["bot"].notna()])
    long = pd.concat(parts, ignore_index=True).sort_values(["_row", "seat"], kind="stable")
    marks = ["seat"]
    if FIRST_COLUMN in long.columns:
        long["first"] = long["seat"] == long[FIRST_COLUMN]
        marks.append("first")
    long["shared"] = long["win"].astype(bool) & (long["n_winners"] > 1)
    order = [c for c in base.columns if c != "_row"] + [*marks, "shared"] + [n for n in names if n in long.columns]
    return long[order].reset_index(drop=True)


def play_game(
    game: int,
    *,
    seed: int = 0,
    players: int = 2,
    bots: Sequence[BotSpec] = ("greedy", "greedy"),
    rules: Any = None,
    races: Sequence[str] | None = None,
    rotate: bool = True,
    rules_of: CardGame | None = None,
    max_actions: int | None = DEFAULT_MAX_ACTIONS,
) -> Session:
    """Play game number ``game`` of a run to its end and return it: the session the
    game's ``new_session`` makes (a ``kum.Game`` for Kings Under Mountains, a
    ``core.Session`` for most games), history included: open it on a board, read its
    ``log`` or ``record()``.

    ``rules_of`` is the game (a CardGame, default Kings Under Mountains), ``rules``
    changes its options (see :func:`with_rules`); ``races`` is deprecated (a rule option:
    ``rules={"races": "giant,orc"}``). ``bots`` gives one bot per seat before rotation;
    see :func:`seat_bots`. A game that has not ended after ``max_actions`` actions
    raises :class:`ActionLimitError` (``None``: no limit).
    """
    spec = _check(1, players, bots, rules, seed, None, False, races, rotate, None, rules_of, max_actions, "raise",
                 where="play_game")
    return play_spec(spec, integer("game", game, "play_game"))


def replay(results: pd.DataFrame, game: int, *, bots: Sequence[BotSpec] | None = None) -> Session:
    """Play game number ``game`` of a ``simulate`` run again and return its session (a
    ``kum.Game`` for Kings Under Mountains, a ``core.Session`` for another game; history
    and log included: put it on a board with ``kum.GameWidget(session)``). ``bots``
    overrides the bot specs kept in ``results.attrs``. The game is played within the
    run's ``max_actions``."""
    need_frame(results, "replay")
    a = results.attrs
    kept = ("seed", "rules", "games", "players", "bot_specs", "rotate")
    if any(k not in a for k in kept) or type(a["games"]) is not int:
        raise GameError(f"replay: this table has lost the attrs of its kum.simulate run (it needs {', '.join(kept)})")
    if type(game) is not int or not 0 <= game < a["games"]:
        raise GameError(f"replay: game must be a game number 0..{a['games'] - 1}, got {shown(game)}")
    if bots is not None and (isinstance(bots, (str, Mapping)) or not isinstance(bots, Sequence)):
        raise GameError(f"replay: bots must list one bot per seat, got {shown(bots)}")
    spec = _check(1, a["players"], tuple(bots or a["bot_specs"]), None, a["seed"], None, False, None,
                  a["rotate"], None, game_of(results), a.get("max_actions", DEFAULT_MAX_ACTIONS), "raise", where="replay")
    return play_spec(spec, game)


# -- running -----------------------------------------------------------------------------


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


def _bar(games: int, desc: str = "simulate") -> Any:
    from tqdm.auto import tqdm

    return tqdm(total=games, unit="game", desc=desc, smoothing=0.1)


def _describe(executor: Any) -> str:
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


def _frame(rows: list[dict[str, Any]], order: Sequence[str]) -> pd.DataFrame:
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
