"""``score_by_feature``: how often a game has something, and how it scores with and without.

For count columns of a results table (the court solitaire's ``bought_minister`` ...
``bought_courtesan``, any game's counts), per column: the share of games where the count
is above 0, with its 95% Wilson interval, and the mean score of those games against the
others, with the difference and its 95% interval. pandas and matplotlib load inside.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..core.errors import GameError, cut, shown
from . import readings as say
from .checks import need_frame as _need_frame
from .render import column_words
from .result import LabResult, axes_of, check_axes
from .stats import mean_difference, mean_interval, wilson
from .tables import game_columns

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

__all__ = ["score_by_feature"]

TABLE_COLUMNS = ["games", "with", "rate", "rate_low", "rate_high", "mean_count", "score_with", "score_without",
                 "difference", "diff_low", "diff_high"]


def count_columns(results: pd.DataFrame) -> list[str]:
    """The game-level columns that count something a game may lack: whole numbers, never
    below 0, 0 in some games and not in others (what ``columns=None`` picks). None in a
    table with no games."""
    import pandas as pd

    _need_frame(results, "count_columns")
    if not results.columns.is_unique:
        raise GameError("count_columns: the table has more than one column of the same name")
    out = []
    for c in game_columns(results):
        s = results[c]
        if pd.api.types.is_integer_dtype(s) and len(s) and s.min() >= 0 and (s == 0).any() and (s > 0).any():
            out.append(c)
    return out


def _chosen(results: pd.DataFrame, columns: str | Sequence[str] | None, score: str) -> tuple[list[str], str]:
    """The columns to measure and the prefix their labels drop."""
    import pandas as pd

    names = [c for c in results.columns if isinstance(c, str)]  # the lab reads columns named by text
    if not results.columns.is_unique:
        raise GameError("score_by_feature: the table has more than one column of the same name")
    if not isinstance(score, str):
        raise GameError(f"score_by_feature: score must be a column's name, got {shown(score)}")
    if columns is None:
        chosen, prefix = count_columns(results), ""
        if not chosen:
            raise GameError(f"score_by_feature: no count column (whole numbers >= 0, 0 in some games and not in "
                            f"others) to measure: name them with columns= (columns: {cut(', '.join(names), 300)})")
    elif isinstance(columns, str):
        chosen, prefix = [c for c in names if c.startswith(columns) and c != columns], columns
        if not chosen:
            raise GameError(f"score_by_feature: no column starts with {columns!r} (columns: {cut(', '.join(names), 300)})")
    elif isinstance(columns, Sequence) and all(isinstance(c, str) for c in columns):
        chosen, prefix = list(columns), ""
        missing = [c for c in chosen if c not in names]
        if missing or not chosen:
            raise GameError(f"score_by_feature: columns={shown(columns)}: no column {cut(', '.join(map(repr, missing)), 200) or 'given'} "
                            f"(columns: {cut(', '.join(names), 300)})")
    else:
        raise GameError(f"score_by_feature: columns must be a prefix, a list of column names or None, got {shown(columns)}")
    bad = [c for c in chosen if not pd.api.types.is_numeric_dtype(results[c])]
    if bad:
        raise GameError(f"score_by_feature: columns must be numeric counts, not {', '.join(map(repr, bad))}")
    if score not in names or not pd.api.types.is_numeric_dtype(results[score]) or pd.api.types.is_bool_dtype(results[score]):
        raise GameError(f"score_by_feature: score={shown(score)} must be a numeric column (columns: {cut(', '.join(names), 300)})")
    return chosen, prefix


def score_by_feature(
    results: pd.DataFrame,
    columns: str | Sequence[str] | None = None,
    *,
    score: str = "score_0",
    ax: Sequence[Axes] | None = None,
) -> LabResult:
    """Per count column: how often games have it (count > 0) and how they score with and without.

    ``columns``: a prefix (``"bought_"``: every column starting with it, the labels without
    it), a list of columns, or None: every game-level count column (whole numbers >= 0,
    0 in some games and not in others; see :func:`count_columns`). ``score``: the column
    to average (default ``score_0``, the first seat's: a solitaire's score).

    The table has a row per column: ``games``, ``with`` (games with a count above 0),
    ``rate`` (their share) with its 95% Wilson interval (``rate_low``, ``rate_high``),
    ``mean_count`` (per game), ``score_with`` and ``score_without`` (mean score of the
    games with and without), and ``difference`` (with minus without) with its 95%
    interval (``diff_low``, ``diff_high``: Welch's, independent samples; NaN when a side
    has fewer than 2 games). The figure: the rates, and the differences.

    It measures an association, not a cause: a bot may buy a card in the games that go
    well anyway. To measure a card's effect, change the rules and :func:`compare`.

    >>> import kum_widget as kum
    >>> df = kum.simulate(20, game="court", bots=("greedy",), progress=False)
    >>> r = kum.lab.score_by_feature(df, "bought_")
    >>> list(r.table.index)
    ['minister', 'tax_collector', 'general', 'poet', 'courtesan']
    >>> list(r.table.columns[:4]), bool((r.table["games"] == 20).all())
    (['games', 'with', 'rate', 'rate_low'], True)
    """
    import pandas as pd

    _need_frame(results, "score_by_feature")
    check_axes(ax, 2, "score_by_feature")
    if len(results) == 0:
        raise GameError("score_by_feature: the table has no games (a run stopped before its first game ended?)")
    chosen, prefix = _chosen(results, columns, score)
    values = results[score].astype(float)
    rows: dict[str, dict[str, Any]] = {}
    for c in chosen:
        has = results[c].fillna(0) > 0
        with_, without = values[has].tolist(), values[~has].tolist()
        n, k = len(values), len(with_)
        low, high = wilson(k, n)
        d, dlow, dhigh = mean_difference(without, with_) if with_ and without else (math.nan, math.nan, math.nan)
        rows[c[len(prefix):] if prefix else c] = {
            "games": n, "with": k, "rate": k / n if n else math.nan, "rate_low": low, "rate_high": high,
            "mean_count": float(results[c].mean()) if n else math.nan,
            "score_with": mean_interval(with_)[0], "score_without": mean_interval(without)[0],
            "difference": d, "diff_low": dlow, "diff_high": dhigh,
        }
    t = pd.DataFrame.from_dict(rows, orient="index", columns=TABLE_COLUMNS)
    t.index.name = "feature"
    words = {name: column_words(prefix + name if prefix else name) for name in t.index}  # "bought general"
    players = int(results["players"].max()) if "players" in results.columns and len(results) else None
    score_text = say.score_words(score, players)
    fig, axes = axes_of(ax, 2)
    left, right = axes[0], axes[1]
    y = list(range(len(t)))[::-1]
    names = [words[name] for name in t.index]
    rate = t["rate"].to_numpy()
    left.barh(y, rate, xerr=[rate - t["rate_low"].to_numpy(), t["rate_high"].to_numpy() - rate],
              capsize=4, color="#4C72B0", alpha=0.85)
    left.set_yticks(y, names)
    left.set_xlim(0, 1.05)
    left.xaxis.set_major_formatter(lambda x, _: f"{x:.0%}")
    left.set_xlabel("share of games with it (count above 0)")
    left.set_title("How often (95% Wilson intervals)", fontsize="medium")
    diff = t["difference"].to_numpy()
    drawn = ~t["diff_low"].isna().to_numpy()
    err = [(diff - t["diff_low"].to_numpy())[drawn], (t["diff_high"].to_numpy() - diff)[drawn]]
    right.errorbar(diff[drawn], [yi for yi, s in zip(y, drawn, strict=True) if s], xerr=err, fmt="o", capsize=4, color="#C44E52")
    for yi, s in zip(y, drawn, strict=True):
        if not s:
            right.annotate("fewer than 2 games on a side", (0, yi), xytext=(4, 0), textcoords="offset points",
                           va="center", fontsize="small", color="0.4")
    right.axvline(0, color="0.5", linewidth=0.8)
    right.set_yticks(y, names)
    right.set_xlabel(f"mean {score_text}: with minus without")
    right.set_title(f"{say.cap(score_text)} with minus without (95% intervals)", fontsize="medium")
    title = f"{say.cap(score_text)} of games with and without each feature ({len(results)} games)"
    fig.suptitle(title, fontsize="medium")
    return LabResult(t, fig, axes, title, reading=say.feature_reading(t, words, len(results)), about=say.FEATURE_ABOUT,
                     shown=("with", "rate", "rate_low", "rate_high", "score_with", "score_without", "difference",
                            "diff_low", "diff_high"),
                     labels=words)
