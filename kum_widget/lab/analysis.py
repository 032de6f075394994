"""Analysis helpers: a table and a plot for each design question.

Each returns a :class:`~kum_widget.lab.result.LabResult` (``table, figure = ...``) and
works on the results of any game: per-seat columns are those ending in ``_<seat>``, and
``first_player`` and ``turns`` are used when the game gives them, and a per-seat column of
the game's that holds text (a side the seat plays) groups scores by default. Win rates
count a shared win (a tie on the top score) as a win for every seat in the tie, so the
rates of the seats of one game can add up to more than 1; their 95% intervals are
Wilson's. pandas and matplotlib load inside the functions.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from ..core.errors import GameError, cut, shown
from . import readings as say
from .checks import need_frame as _need_frame
from .play import DEFAULT_MAX_ACTIONS, LAB_PER_SEAT, BotSpec, bot_label, the_game, with_rules
from .render import column_words
from .result import LabResult, axes_of, check_axes
from .simulate import simulate
from .stats import Z95, wilson
from .tables import length_column, need_results, per_seat, seat_columns
from .workers import pool_for

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

__all__ = ["win_rate", "score_distribution", "game_length", "matchup", "rate_table"]


def rate_table(long: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    """Games, wins, shared wins, win rate and its Wilson interval (``low``, ``high``)
    per group of a :func:`per_seat` table; ``fair`` is the rate of an even game (1/players).
    A table with no rows gives a table with no rows."""
    import pandas as pd

    _need_frame(long, "rate_table")
    missing = [c for c in ("win", "shared", "players") if c not in long.columns]
    if missing:
        raise GameError(f"rate_table: expected a per_seat(results) table, with no column {', '.join(missing)}")
    keys = _keys(long, keys, "rate_table")
    if not long["win"].dropna().isin([True, False]).all() or not pd.api.types.is_numeric_dtype(long["players"]):
        raise GameError("rate_table: column win must hold True or False and players numbers, as per_seat(results) gives them")
    g = long.groupby(list(keys), sort=True, dropna=False)
    t = g.agg(games=("win", "size"), wins=("win", "sum"), shared=("shared", "sum"))
    t["fair"] = g["players"].agg(lambda s: float((1 / s).mean()))
    t["win_rate"] = t["wins"] / t["games"]
    bounds = [wilson(w, n) for w, n in zip(t["wins"], t["games"], strict=True)]
    t["low"] = [b[0] for b in bounds]
    t["high"] = [b[1] for b in bounds]
    return t[["games", "wins", "shared", "win_rate", "low", "high", "fair"]]


def _label(value: Any) -> str:
    if isinstance(value, tuple):
        return " / ".join(map(_label, value))
    if isinstance(value, bool):
        return "first" if value else "not first"
    return str(value)


def _tick(keys: Sequence[str], value: Any) -> str:
    """A group's name under its bar: "seat 0", "first", "greedy" (a line per key)."""
    values = value if isinstance(value, tuple) and len(keys) > 1 else (value,)
    return "\n".join(f"seat {v}" if k == "seat" else _label(v) for k, v in zip(keys, values, strict=False))


def _percent_axis(axis: Any) -> None:
    axis.set_major_formatter(lambda x, _: f"{x:.0%}")


def _keys(long: pd.DataFrame, by: Any, where: str) -> list[str]:
    """``by`` (a column of ``long`` or a list of them) as a list, or a GameError naming the problem."""
    choose = f"choose among the columns of per_seat(results): {cut(', '.join(map(str, long.columns)), 300)}"
    if isinstance(by, str):
        keys = [by]
    elif isinstance(by, Sequence) and all(isinstance(k, str) for k in by):
        keys = list(by)
    else:
        raise GameError(f"{where}: by must be a column name or a list of them, got {shown(by)}; {choose}")
    missing = [k for k in keys if k not in long.columns]
    if not keys or missing:
        raise GameError(f"{where}: by={shown(by)}: no such column; {choose}")
    if len(set(keys)) != len(keys):
        raise GameError(f"{where}: by={shown(by)} names a column twice")
    return keys


def _fair_line(ax: Axes, fair: pd.Series) -> None:
    values = fair.dropna().unique()
    if len(values) == 1:
        ax.axhline(values[0], color="0.4", linestyle="--", linewidth=1, label=f"even game ({values[0]:.0%})")
        ax.legend(loc="upper right", fontsize="small")


def win_rate(results: pd.DataFrame, by: str | Sequence[str] | None = "seat", *, ax: Axes | None = None) -> LabResult:
    """Win rate per ``seat`` (or ``"bot"``, any per-seat column of the game's, ``"first"`` when the game gives ``first_player``, or a list of
    them; None: by seat) with 95% Wilson intervals, as a table and a bar chart. The
    table must hold games (a GameError says so otherwise).

    >>> import kum_widget as kum
    >>> r = kum.lab.win_rate(kum.simulate(20, bots="random", progress=False))
    >>> list(r.table.columns)
    ['games', 'wins', 'shared', 'win_rate', 'low', 'high', 'fair']
    """
    need_results(results, "win_rate", game_level=("n_winners", "players"))
    check_axes(ax, 1, "win_rate")
    long = per_seat(results)
    keys = _keys(long, "seat" if by is None else by, "win_rate")
    t = rate_table(long, keys)
    ticks = [_tick(keys, i) for i in t.index]
    longest = max((len(line) for name in ticks for line in name.split("\n")), default=0)
    fig, ax = axes_of(ax, width=max(6.0, len(t) * max(1.0, 0.1 * longest)))  # room for each group's name
    x = list(range(len(t)))
    rate = t["win_rate"].to_numpy()
    err = [rate - t["low"].to_numpy(), t["high"].to_numpy() - rate]
    ax.bar(x, rate, yerr=err, capsize=5, color="#4C72B0", alpha=0.85)
    for xi, r, hi in zip(x, rate, t["high"], strict=True):
        ax.annotate(f"{r:.1%}", (xi, hi), xytext=(0, 3), textcoords="offset points", ha="center", fontsize="small")
    ax.set_xticks(x, ticks)
    ax.set_xlabel(say.by_words(keys))
    ax.set_ylabel("win rate (ties count as wins)")
    ax.set_ylim(0, 1.1)  # a rate's whole scale, 0 to 100% (and room above for the labels)
    _percent_axis(ax.yaxis)
    _fair_line(ax, t["fair"])
    title = f"Win rate by {say.by_words(keys)} ({int(results.shape[0])} games, 95% Wilson intervals)"
    ax.set_title(title, fontsize="medium")
    return LabResult(t, fig, ax, title, reading=say.win_rate_reading(t, keys),
                     about=say.win_rate_about(sorted({int(p) for p in results["players"]})))


def _side_column(results: pd.DataFrame, long: pd.DataFrame) -> str:
    """The game's first per-seat column of text (the side a seat plays), else ``"bot"``."""
    import pandas as pd

    for name in seat_columns(results):
        if name not in LAB_PER_SEAT and name in long.columns and pd.api.types.is_object_dtype(long[name]) \
                and long[name].dropna().map(lambda v: isinstance(v, str)).all() and long[name].notna().any():
            return str(name)
    return "bot"


def score_distribution(
    results: pd.DataFrame,
    by: str | Sequence[str] | None = None,
    *,
    column: str = "score",
    means: Sequence[str] | None = None,
    ax: Axes | None = None,
) -> LabResult:
    """Final scores (or another numeric per-seat ``column``) per ``by``: by default the
    game's first per-seat column that holds text (the side a seat plays, such as Kings Under
    Mountains' King), else ``"bot"`` (or ``"seat"``, any per-seat column): summary table with a 95% interval of the mean, and box plots (the triangle
    is the mean). ``means``: per-seat columns whose mean joins the table (default: every
    numeric per-seat column of the game's own), then ``win_rate``. The table must hold
    games."""
    import pandas as pd

    need_results(results, "score_distribution")
    check_axes(ax, 1, "score_distribution")
    long = per_seat(results)
    if by is None:
        by = _side_column(results, long)
    keys = _keys(long, by, "score_distribution")
    per = [n for n in seat_columns(results) if n in long.columns]
    numeric = [n for n in per if pd.api.types.is_numeric_dtype(long[n]) and not pd.api.types.is_bool_dtype(long[n])]
    if not isinstance(column, str) or column not in numeric:
        raise GameError(f"score_distribution: column={shown(column)}: choose among the numeric per-seat columns {', '.join(numeric)}")
    if means is None:
        means = [n for n in numeric if n not in ("score", column)]
    elif (isinstance(means, str) or not isinstance(means, Sequence)
          or [m for m in means if not isinstance(m, str) or m not in numeric]):
        raise GameError(f"score_distribution: means={shown(means)}: give a list among the numeric per-seat columns {', '.join(numeric)}")
    g = long.groupby(keys, sort=True, dropna=False)
    t = g[column].agg(games="size", mean="mean", std="std", min="min", median="median", max="max")
    t["q25"] = g[column].quantile(0.25)
    t["q75"] = g[column].quantile(0.75)
    half = Z95 * t["std"].fillna(0) / t["games"].pow(0.5)
    t["mean_low"], t["mean_high"] = t["mean"] - half, t["mean"] + half
    for name in means:
        t[name] = g[name].mean()
    t["win_rate"] = g["win"].mean()
    t = t[["games", "mean", "mean_low", "mean_high", "std", "min", "q25", "median", "q75", "max", *means, "win_rate"]]
    fig, ax = axes_of(ax)
    groups = [grp[column].to_numpy() for _, grp in g]
    ax.boxplot(groups, tick_labels=[_tick(keys, i) for i in t.index], showmeans=True, widths=0.6)
    ax.axhline(0, color="0.6", linewidth=0.8)
    ax.set_xlabel(say.by_words(keys))
    what = "score" if column == "score" else column_words(column)
    ax.set_ylabel("final score" if column == "score" else what)
    title = f"{'Final scores' if column == 'score' else say.cap(what)} by {say.by_words(keys)} ({int(results.shape[0])} games)"
    ax.set_title(title, fontsize="medium")
    several = bool((long["players"] > 1).any()) if "players" in long.columns else long["seat"].nunique() > 1
    columns = ("games", "mean", "mean_low", "mean_high", "q25", "median", "q75", *(("win_rate",) if several else ()))
    return LabResult(t, fig, ax, title, reading=say.score_reading(t, keys, what), about=say.SCORE_ABOUT,
                     shown=columns, labels={"win_rate": "win rate (ties count)"})


def game_length(results: pd.DataFrame, by: str | None = None, *, column: str | None = None, ax: Axes | None = None) -> LabResult:
    """How long games last: ``turns`` when the game gives them, else ``actions`` (or
    another game-level ``column``) summarised, overall or per group of ``by`` (a
    game-level column such as ``"variant"``), with histograms. The table must hold games."""
    import numpy as np
    import pandas as pd

    _need_frame(results, "game_length")
    check_axes(ax, 1, "game_length")
    if column is None:
        column = length_column(results)
    wrong = [f"{name}={shown(v)}" for name, v in (("column", column), ("by", by)) if v is not None and not isinstance(v, str)]
    if wrong:
        raise GameError(f"game_length: {' and '.join(wrong)}: give a column's name")
    missing = [repr(v) for v in (column, by) if v is not None and v not in results.columns]
    if missing:
        raise GameError(f"game_length: choose column and by among {cut(', '.join(map(str, results.columns)), 300)} "
                        f"(there is no column {' or '.join(missing)})")
    if not results.columns.is_unique:
        raise GameError("game_length: the table has more than one column of the same name")
    values = results[column]
    if not pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
        raise GameError(f"game_length: column {column!r} must hold numbers, not {values.dtype}")
    if not values.notna().any():
        raise GameError("game_length: the table has no games (a run stopped before its first game ended?)"
                        if len(values) == 0 else f"game_length: column {column!r} holds no numbers")
    if not np.isfinite(values.dropna().to_numpy(dtype=float)).all():
        raise GameError(f"game_length: column {column!r} must hold finite numbers")
    try:
        groups = [("all games", results)] if by is None else [(_label(k), grp) for k, grp in results.groupby(by, sort=True)]
    except TypeError as exc:  # values that do not group (lists...)
        raise GameError(f"game_length: by={by!r}: its values must be text or numbers ({exc})") from None

    t = pd.DataFrame(
        {name: grp[column].describe(percentiles=[0.1, 0.5, 0.9]) for name, grp in groups}
    ).T.rename(columns={"count": "games"})
    t["games"] = t["games"].astype(int)
    t.index.name = by or ""
    fig, ax = axes_of(ax)
    lo, hi = math.floor(values.min()), math.ceil(values.max())
    bins = range(lo, hi + 2, max(1, (hi - lo + 1) // 30 or 1))
    for name, grp in groups:
        ax.hist(grp[column].dropna(), bins=list(bins), histtype="stepfilled" if len(groups) == 1 else "step",
                density=len(groups) > 1, alpha=0.8 if len(groups) == 1 else 1.0, linewidth=1.5, label=name)
    unit = column_words(column)
    ax.set_xlabel(unit)
    ax.set_ylabel("share of games" if len(groups) > 1 else "games")
    if len(groups) > 1:
        ax.legend(fontsize="small")
    title = f"Game length: {unit}" + (f" by {column_words(by)}" if by else "") + f" ({len(results)} games)"
    ax.set_title(title, fontsize="medium")
    return LabResult(t, fig, ax, title, reading=say.length_reading(t, unit), about=say.length_about(unit))


def _pair_rows(results: pd.DataFrame) -> pd.DataFrame:
    import pandas as pd

    seats = sorted(seat_columns(results).get("bot", {}))
    parts = []
    for i, j in itertools.permutations(seats, 2):
        part = pd.DataFrame({"bot": results[f"bot_{i}"], "opponent": results[f"bot_{j}"], "win": results[f"win_{i}"]})
        parts.append(part.dropna(subset=["bot", "opponent"]))
    if not parts:
        raise GameError("matchup: the results need at least two seats (bot_0, bot_1...)")
    out = pd.concat(parts, ignore_index=True)
    out["win"] = out["win"].astype(bool)
    return out


def matchup(
    bots: Sequence[BotSpec] = ("random", "greedy"),
    games: int = 200,
    *,
    rules: Any = None,
    game: Any = None,
    seed: int = 0,
    executor: Any = None,
    progress: bool = True,
    results: pd.DataFrame | Sequence[pd.DataFrame] | None = None,
    self_play: bool = False,
    ax: Axes | None = None,
    max_actions: int | None = DEFAULT_MAX_ACTIONS,
    unfinished: Literal["raise", "skip"] = "raise",
) -> LabResult:
    """Bot against bot: the win rate of each bot (rows) against each opponent (columns),
    as a heatmap with 95% intervals.

    Without ``results`` it plays ``games`` two-player games of ``game`` (a name, a
    CardGame or its class, as for ``simulate``; default Kings Under Mountains) under
    ``rules`` for every pair of ``bots`` (seats rotating, so each bot sits first half
    the time; ``self_play=True`` adds the diagonal). With ``results`` (a ``simulate``
    table or a list of them, of any game and number of players) it only counts: the
    rate of a bot is over the games where the opponent sat at another seat. ``table`` is long (``bot``, ``opponent``, ``games``, ``wins``,
    ``win_rate``, ``low``, ``high``); ``table.pivot(index="bot", columns="opponent",
    values="win_rate")`` is the matrix. ``data`` holds the games played.
    ``max_actions`` and ``unfinished`` go to ``simulate`` (a game that does not end).
    Ctrl-C stops after the pairing being played (counting the games that ended);
    before any game ended, the KeyboardInterrupt goes on.
    """
    import numpy as np
    import pandas as pd

    check_axes(ax, 1, "matchup")
    if results is None:
        if isinstance(bots, (str, Mapping)) or not isinstance(bots, Sequence):
            raise GameError(f"matchup: bots must list two or more different bots, got {shown(bots)}")
        if not isinstance(self_play, bool):
            raise GameError(f"matchup: self_play must be True or False, got {shown(self_play)}")
        specs = list(bots)
        labels = [bot_label(b) for b in specs]
        if len(specs) < 2 or len(set(labels)) != len(labels):
            raise GameError(f"matchup: give two or more different bots, got {shown(labels)}")
        the = with_rules(the_game(game, "matchup"), rules, "matchup")
        pairs = list(itertools.combinations(range(len(specs)), 2))
        if self_play:
            pairs += [(i, i) for i in range(len(specs))]
        frames: list[pd.DataFrame] = []
        with pool_for(executor, "matchup") as pool:
            for i, j in pairs:
                try:
                    df = simulate(games, 2, (specs[i], specs[j]), None, seed, pool, progress, game=the,
                                  max_actions=max_actions, unfinished=unfinished)
                except KeyboardInterrupt:
                    if not frames:
                        raise  # stopped before any game ended: nothing to count
                    break
                frames.append(df.assign(pairing=f"{labels[i]} vs {labels[j]}"))
                if df.attrs.get("interrupted"):
                    break
        data = pd.concat(frames, ignore_index=True)
    else:
        if isinstance(results, pd.DataFrame):
            frames = [results]
        elif isinstance(results, Sequence) and not isinstance(results, str) and results:
            frames = list(results)
        else:
            raise GameError(f"matchup: results must be a table from kum.simulate or a list of them, got {shown(results)}")
        for f in frames:
            need_results(f, "matchup", game_level=(), games=False)
        data = pd.concat(frames, ignore_index=True)
        if len(data) == 0:
            raise GameError("matchup: the tables have no games (a run stopped before its first game ended?)")
    pairs_df = _pair_rows(data)
    g = pairs_df.groupby(["bot", "opponent"], sort=True)
    t = g.agg(games=("win", "size"), wins=("win", "sum")).reset_index()
    t["win_rate"] = t["wins"] / t["games"]
    bounds = [wilson(w, n) for w, n in zip(t["wins"], t["games"], strict=True)]
    t["low"], t["high"] = [b[0] for b in bounds], [b[1] for b in bounds]
    names = sorted(set(t["bot"]) | set(t["opponent"]))
    matrix = t.pivot(index="bot", columns="opponent", values="win_rate").reindex(index=names, columns=names)
    fig, ax = axes_of(ax, width=1.6 * len(names) + 3.2, height=1.3 * len(names) + 1.6)
    image = ax.imshow(np.ma.masked_invalid(matrix.to_numpy(dtype=float)), cmap="RdYlGn", vmin=0, vmax=1)
    cells = {(r.bot, r.opponent): r for r in t.itertuples()}
    for yi, row_bot in enumerate(names):
        for xi, col_bot in enumerate(names):
            c = cells.get((row_bot, col_bot))
            text = "not played" if c is None else f"{c.win_rate:.0%}\n[{c.low:.0%}, {c.high:.0%}]\nn={c.games}"
            ax.text(xi, yi, text, ha="center", va="center", fontsize="small")
    ax.set_xticks(range(len(names)), names)
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("opponent")
    ax.set_ylabel("bot")
    fig.colorbar(image, ax=ax, label="win rate of the row bot", shrink=0.8)
    title = "Bot vs bot: win rate of the row bot (95% intervals)"
    ax.set_title(title, fontsize="medium")
    return LabResult(t, fig, ax, title, data, reading=say.matchup_reading(t), about=say.MATCHUP_ABOUT)
