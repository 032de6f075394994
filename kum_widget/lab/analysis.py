"""Analysis helpers: a table and a plot for each design question.

Each returns a :class:`~kum_widget.lab.result.LabResult` (``table, figure = ...``) and
works on the results of any game: per-seat columns are those ending in ``_<seat>``, and
``first_player``, ``race`` and ``turns`` are used when the game gives them. Win rates
count a shared win (a tie on the top score) as a win for every seat in the tie, so the
rates of the seats of one game can add up to more than 1; their 95% intervals are
Wilson's. pandas and matplotlib load inside the functions.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .checks import need_frame as _need_frame
from .play import BotSpec, bot_label, the_game, with_rules
from .result import LabResult, axes_of
from .simulate import per_seat, seat_columns, simulate, worker_pool
from .stats import Z95, wilson

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

__all__ = ["win_rate", "score_distribution", "game_length", "matchup", "rate_table"]


def rate_table(long: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    """Games, wins, shared wins, win rate and its Wilson interval (``low``, ``high``)
    per group of a :func:`per_seat` table; ``fair`` is the rate of an even game (1/players)."""
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


def _keys(long: pd.DataFrame, by: str | Sequence[str]) -> list[str]:
    keys = [by] if isinstance(by, str) else list(by)
    missing = [k for k in keys if k not in long.columns]
    if not keys or missing:
        raise ValueError(f"by={by!r}: no such column; choose among the columns of per_seat(results): {', '.join(map(str, long.columns))}")
    return keys


def _fair_line(ax: Axes, fair: pd.Series) -> None:
    values = fair.dropna().unique()
    if len(values) == 1:
        ax.axhline(values[0], color="0.4", linestyle="--", linewidth=1, label=f"even game ({values[0]:.0%})")
        ax.legend(loc="upper right", fontsize="small")


def win_rate(results: pd.DataFrame, by: str | Sequence[str] = "seat", *, ax: Axes | None = None) -> LabResult:
    """Win rate per ``seat`` (or ``"bot"``, any per-seat column such as Kings Under
    Mountains' ``"race"``, ``"first"`` when the game gives ``first_player``, or a list of
    them) with 95% Wilson intervals, as a table and a bar chart.

    >>> import kum_widget as kum
    >>> r = kum.lab.win_rate(kum.simulate(20, bots="random", progress=False))
    >>> list(r.table.columns)
    ['games', 'wins', 'shared', 'win_rate', 'low', 'high', 'fair']
    """
    long = per_seat(results)
    keys = _keys(long, by)
    t = rate_table(long, keys)
    fig, ax = axes_of(ax)
    x = list(range(len(t)))
    rate = t["win_rate"].to_numpy()
    err = [rate - t["low"].to_numpy(), t["high"].to_numpy() - rate]
    ax.bar(x, rate, yerr=err, capsize=5, color="#4C72B0", alpha=0.85)
    for xi, r, hi in zip(x, rate, t["high"], strict=True):
        ax.annotate(f"{r:.1%}", (xi, hi), xytext=(0, 3), textcoords="offset points", ha="center", fontsize="small")
    ax.set_xticks(x, [_label(i) for i in t.index])
    ax.set_xlabel(" / ".join(keys))
    ax.set_ylabel("win rate (ties count as wins)")
    ax.set_ylim(0, min(1.1, max(0.1, float(t["high"].max()) * 1.2)))  # room for the labels
    _fair_line(ax, t["fair"])
    title = f"Win rate by {' / '.join(keys)} ({int(results.shape[0])} games, 95% Wilson intervals)"
    ax.set_title(title, fontsize="medium")
    return LabResult(t, fig, ax, title)


def score_distribution(
    results: pd.DataFrame,
    by: str | Sequence[str] | None = None,
    *,
    column: str = "score",
    means: Sequence[str] | None = None,
    ax: Axes | None = None,
) -> LabResult:
    """Final scores (or another numeric per-seat ``column``) per ``by``: ``"race"`` when
    the game has it (Kings Under Mountains), else ``"bot"`` (or ``"seat"``, any per-seat
    column): summary table with a 95% interval of the mean, and box plots (the triangle
    is the mean). ``means``: per-seat columns whose mean joins the table (default: every
    numeric per-seat column of the game's own), then ``win_rate``."""
    import pandas as pd

    long = per_seat(results)
    if by is None:
        by = "race" if "race" in long.columns else "bot"
    keys = _keys(long, by)
    per = [n for n in seat_columns(results) if n in long.columns]
    numeric = [n for n in per if pd.api.types.is_numeric_dtype(long[n]) and not pd.api.types.is_bool_dtype(long[n])]
    if column not in numeric:
        raise ValueError(f"score_distribution: column={column!r}: choose among the numeric per-seat columns {', '.join(numeric)}")
    if means is None:
        means = [n for n in numeric if n not in ("score", column)]
    elif isinstance(means, str) or [m for m in means if m not in numeric]:
        raise ValueError(f"score_distribution: means={means!r}: give a list among the numeric per-seat columns {', '.join(numeric)}")
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
    ax.boxplot(groups, tick_labels=[_label(i) for i in t.index], showmeans=True, widths=0.6)
    ax.axhline(0, color="0.6", linewidth=0.8)
    ax.set_xlabel(" / ".join(keys))
    ax.set_ylabel("final score" if column == "score" else column)
    title = f"{'Scores' if column == 'score' else column} by {' / '.join(keys)} ({int(results.shape[0])} games)"
    ax.set_title(title, fontsize="medium")
    return LabResult(t, fig, ax, title)


def _length_column(results: pd.DataFrame) -> str:
    """How a game's length is counted: ``turns`` when the game gives them, else ``actions``."""
    return "turns" if "turns" in results.columns else "actions"


def game_length(results: pd.DataFrame, by: str | None = None, *, column: str | None = None, ax: Axes | None = None) -> LabResult:
    """How long games last: ``turns`` when the game gives them, else ``actions`` (or
    another game-level ``column``) summarised, overall or per group of ``by`` (a
    game-level column such as ``"variant"``), with histograms."""
    _need_frame(results)
    if column is None:
        column = _length_column(results)
    missing = [repr(v) for v in (column, by) if v is not None and v not in results.columns]
    if missing:
        raise ValueError(f"game_length: choose column and by among {', '.join(map(str, results.columns))} "
                         f"(there is no column {' or '.join(missing)})")
    groups = [("all games", results)] if by is None else [(_label(k), grp) for k, grp in results.groupby(by, sort=True)]
    import pandas as pd

    t = pd.DataFrame(
        {name: grp[column].describe(percentiles=[0.1, 0.5, 0.9]) for name, grp in groups}
    ).T.rename(columns={"count": "games"})
    t.index.name = by or ""
    fig, ax = axes_of(ax)
    lo, hi = int(results[column].min()), int(results[column].max())
    bins = range(lo, hi + 2, max(1, (hi - lo + 1) // 30 or 1))
    for name, grp in groups:
        ax.hist(grp[column], bins=list(bins), histtype="stepfilled" if len(groups) == 1 else "step",
                density=len(groups) > 1, alpha=0.8 if len(groups) == 1 else 1.0, linewidth=1.5, label=name)
    ax.set_xlabel(column)
    ax.set_ylabel("share of games" if len(groups) > 1 else "games")
    if len(groups) > 1:
        ax.legend(fontsize="small")
    title = f"Game length: {column}" + (f" by {by}" if by else "") + f" ({len(results)} games)"
    ax.set_title(title, fontsize="medium")
    return LabResult(t, fig, ax, title)


def _pair_rows(results: pd.DataFrame) -> pd.DataFrame:
    import pandas as pd

    seats = sorted(int(c.split("_")[1]) for c in results.columns if c.startswith("bot_") and c[4:].isdigit())
    parts = []
    for i, j in itertools.permutations(seats, 2):
        part = pd.DataFrame({"bot": results[f"bot_{i}"], "opponent": results[f"bot_{j}"], "win": results[f"win_{i}"]})
        parts.append(part.dropna(subset=["bot", "opponent"]))
    if not parts:
        raise ValueError("matchup: the results need at least two seats (bot_0, bot_1...)")
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
    """
    import numpy as np
    import pandas as pd

    if results is None:
        specs = list(bots)
        labels = [bot_label(b) for b in specs]
        if len(specs) < 2 or len(set(labels)) != len(labels):
            raise ValueError(f"matchup: give two or more different bots, got {labels}")
        the = with_rules(the_game(game, "matchup"), rules, "matchup")
        pairs = list(itertools.combinations(range(len(specs)), 2))
        if self_play:
            pairs += [(i, i) for i in range(len(specs))]
        frames = []
        pool = worker_pool(executor) if type(executor) is int else None
        try:
            for i, j in pairs:
                df = simulate(games, 2, (specs[i], specs[j]), None, seed, pool or executor, progress, game=the)
                frames.append(df.assign(pairing=f"{labels[i]} vs {labels[j]}"))
                if df.attrs.get("interrupted"):
                    break
        finally:
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)
        data = pd.concat(frames, ignore_index=True)
    else:
        frames = [results] if isinstance(results, pd.DataFrame) else list(results)
        for f in frames:
            _need_frame(f)
        data = pd.concat(frames, ignore_index=True)
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
    return LabResult(t, fig, ax, title, data)
