"""``kum.simulate``: many bot-vs-bot games of any game, in this process or on any executor.

pandas and tqdm load inside the functions, so importing this module stays light.
"""

from __future__ import annotations

import re
import time
import warnings
from collections.abc import Sequence
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any

from ..core.game import CardGame
from .checks import check as _check
from .checks import need_frame as _need_frame
from .play import (
    LAB_COLUMNS,
    BotSpec,
    Spec,
    bot_label,
    changed_options,
    play_game,
    table_columns,
    the_game,
    with_rules,
)
from .workers import refuse_in_starting_worker, run_on, worker_pool

if TYPE_CHECKING:
    import pandas as pd

    from ..core.session import Session

__all__ = ["simulate", "per_seat", "replay", "worker_pool", "seat_columns", "game_columns", "game_of"]


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
) -> pd.DataFrame:
    """Play ``games`` games between bots and return one row per game (a DataFrame).

    Arguments:

    - ``game``: the game: a registered name (``"bust"``), a ``core.CardGame`` (its rule
      options as given) or its class; default Kings Under Mountains.
    - ``players``: how many seats (2-4 for Kings Under Mountains, 1 for a solitaire such
      as ``"court"``; the game says). Default: one per bot when ``bots`` lists them, else
      2 (or the game's only number). ``bots``: one bot for every seat (``"greedy"``) or one per seat (``("greedy",
      "random")``). A bot is a name (``"random"``, ``"greedy"``, any name
      ``kum.bots.make_bot`` knows) or a factory ``f(seed) -> bot`` such as a bot class;
      every game gets fresh bots, seeded from the game.
    - ``rules``: the options to change, through the game's ``with_options``: a dict of
      them (``{"limit": 25}``), a rules object with an ``options()`` method giving that
      dict (``kum.CourtRules(price="printed")`` for ``game="court"``), or for Kings Under
      Mountains also a ``kum.Rules``.
    - ``seed``: game ``i`` is dealt with ``kum.lab.game_seed(seed, i)`` and the bot at
      ``seat`` is seeded with ``kum.lab.bot_seed(that, seat)``: the same seed gives the
      identical table whatever the executor and the number of workers. ``None`` draws a
      seed (kept in ``df.attrs["seed"]``).
    - ``rotate`` (default True): the bot list turns one seat per game, so ``bots[0]``
      sits at seat ``i % players`` in game ``i`` and every bot plays every seat equally
      often. With ``rotate=False`` seat ``s`` always has ``bots[s]``.
    - ``races``: a list with one value per seat, passed to the game's
      ``new_session(races=...)``: Kings Under Mountains takes a King race per seat
      (default: dealt from each game's seed).
    - ``executor``: ``None`` plays in this process; an int starts that many worker
      processes; any ``concurrent.futures.Executor`` is used as it is (for a cluster:
      ``dask.distributed.Client(...).get_executor()``, or the ``Client`` itself). Games
      go out in chunks of ``chunksize`` (default: up to 50, about 8 chunks per worker), a
      few per worker at a time: memory holds the rows, not the run, whatever ``games``
      is. Worker processes run a script again to start: in a script, call ``simulate``
      with workers under ``if __name__ == "__main__":`` (without it, a ``RuntimeError``
      says so).
    - ``progress``: a progress bar (``tqdm.auto``: a widget in Jupyter).

    Ctrl-C (KeyboardInterrupt, the notebook's stop button) stops the run at once and
    returns the games finished so far, with ``df.attrs["interrupted"] = True`` and a
    warning. Chunks not started are cancelled (or never sent); chunks already running on
    workers finish in the background and are dropped.

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
    (the options that differ from the defaults, as the game names them).
    """
    refuse_in_starting_worker()  # a worker running a script again, that has no __main__ guard
    spec = _check(games, players, bots, rules, seed, executor, progress, races, rotate, chunksize, game)
    start = time.perf_counter()
    bar = _bar(games) if progress else None
    try:
        if executor is None:
            rows, interrupted = _run_here(spec, games, bar)
        else:
            rows, interrupted = run_on(executor, spec, games, chunksize, bar)
    finally:
        if bar is not None:
            bar.close()
    df = _frame(rows, table_columns(spec.game, spec.players))
    df.attrs.update(
        seed=spec.seed, games=games, finished=len(df), interrupted=interrupted, players=spec.players,
        bots=tuple(bot_label(b) for b in spec.bots), bot_specs=spec.bots, rotate=rotate,
        races=spec.races, rules=spec.game.options(), rules_changed=changed_options(spec.game),
        seconds=time.perf_counter() - start, executor=_describe(executor),
        game=spec.game.name, game_class=type(spec.game),
    )
    if interrupted:
        warnings.warn(f"simulate interrupted: returning the {len(df)} of {games} games finished", stacklevel=2)
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
    skip = {*LAB_COLUMNS, "first_player"}
    return [
        str(c) for c in results.columns
        if c not in per and c not in skip and pd.api.types.is_numeric_dtype(results[c]) and not pd.api.types.is_bool_dtype(results[c])
    ]


def game_of(results: pd.DataFrame, where: str = "replay") -> CardGame:
    """The game a results table was played with, its options as they were (from its attrs)."""
    a = results.attrs
    cls = a.get("game_class")
    game = the_game(cls if isinstance(cls, type) and issubclass(cls, CardGame) else a.get("game") or None, where)
    return with_rules(game, a.get("rules"), where) if a.get("rules") is not None else game


def per_seat(results: pd.DataFrame) -> pd.DataFrame:
    """The long form of a results table: one row per (game, seat), for any game.

    Columns: the game-level ones (those sharing a name with a per-seat one renamed
    ``game_claims``...), ``seat``, ``first`` (this seat moved first: only when the game
    gives ``first_player``), ``shared`` (a shared win), and the per-seat ones (every
    column ending in ``_<seat>``) without their seat number: ``bot``, ``score``, ``win``
    and the game's (``race``...). Extra columns (such as ``variant`` from
    :func:`kum.lab.compare`) are kept.
    """
    import pandas as pd

    _need_frame(results)
    names = seat_columns(results)
    if not {"bot", "win"} <= set(names):
        have = ", ".join(map(str, results.columns)) or "none"
        raise ValueError(f"per_seat: no per-seat columns (bot_0, score_0, win_0...): pass a table from kum.simulate (columns: {have})")
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
    if "first_player" in long.columns:
        long["first"] = long["seat"] == long["first_player"]
        marks.append("first")
    long["shared"] = long["win"].astype(bool) & (long["n_winners"] > 1)
    order = [c for c in base.columns if c != "_row"] + [*marks, "shared"] + [n for n in names if n in long.columns]
    return long[order].reset_index(drop=True)


def replay(results: pd.DataFrame, game: int, *, bots: Sequence[BotSpec] | None = None) -> Session:
    """Play game number ``game`` of a ``simulate`` run again and return its session (a
    ``kum.Game`` for Kings Under Mountains, a ``core.Session`` for another game; history
    and log included: put it on a board with ``kum.GameWidget(session)``). ``bots``
    overrides the bot specs kept in ``results.attrs``."""
    _need_frame(results)
    a = results.attrs
    if "seed" not in a or "rules" not in a:
        raise ValueError("replay: this table has lost the attrs of its kum.simulate run")
    if type(game) is not int or not 0 <= game < a["games"]:
        raise ValueError(f"replay: game must be a game number 0..{a['games'] - 1}, got {game!r}")
    return play_game(game, seed=a["seed"], players=a["players"], bots=tuple(bots or a["bot_specs"]),
                     races=a.get("races"), rotate=a["rotate"], rules_of=game_of(results))


# -- running -----------------------------------------------------------------------------


def _run_here(spec: Spec, games: int, bar: Any) -> tuple[list[dict[str, Any]], bool]:
    rows: list[dict[str, Any]] = []
    try:
        for i in range(games):
            rows.append(spec.play(i))
            if bar is not None:
                bar.update(1)
    except KeyboardInterrupt:
        return rows, True
    return rows, False


def _bar(games: int) -> Any:
    from tqdm.auto import tqdm

    return tqdm(total=games, unit="game", desc="simulate", smoothing=0.1)


def _describe(executor: Any) -> str:
    if executor is None:
        return "in process"
    if type(executor) is int:
        return f"{executor} worker processes"
    return type(executor).__name__


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
