"""Which plays go with winning: associations, not causes, adjusted for what is known to
confound them.

A winner may do more of something because it wins (a longer game, an extra turn, the
winning move itself), not the other way round. So each kind of action is counted as a
share of the seat's own decisions, the move that ended the game left out (in Connect Four
the winner's extra "drop" is just the winning move); the winner's share is paired with
the losers' in the same game (the same deal), and that difference is adjusted by least
squares for the game's length and for whether the winner moved first and whether it
moved last. A solitaire's score is regressed on the kind's share and the game's length.
What causes a win is :func:`~kum_widget.lab.what_wins`'s to say (an experiment).

>>> import kum_widget as kum
>>> t = kum.lab.traced("bust", 60, progress=False)
>>> r = kum.lab.associations(t)
>>> r.title
'Which plays go with winning? (associations, not causes)'
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from ..core.errors import GameError, shown
from .measure import players_of, run_args, table_of
from .result import LabResult, axes_of
from .tables import seat_columns

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

__all__ = ["associations", "adjusted_mean"]

WHERE = "associations"


def adjusted_mean(y: Sequence[float], covariates: Sequence[Sequence[float]], at: Sequence[float | None] | None = None,
                  z: float = 1.959963984540054) -> tuple[float, float, float]:
    """The mean of ``y`` adjusted by least squares for ``covariates`` (each a column as long
    as ``y``): the fitted value where the covariates take the values ``at`` (default: their
    means, where the fit passes through the plain mean), with its 95% interval from the
    ordinary least-squares covariance. A covariate that does not vary is left out (the
    estimate is then at its one value). Returns (estimate, low, high); NaN with too few values.

    >>> adjusted_mean([1.0, 2.0, 3.0, 4.0], [[0.0, 0.0, 1.0, 1.0]])[0]
    2.5
    >>> round(adjusted_mean([1.0, 2.0, 3.0, 4.0], [[0.0, 0.0, 1.0, 1.0]], at=[0.0])[0], 2)
    1.5
    """
    import numpy as np

    yv = np.asarray(y, dtype=float)
    targets: list[float | None] = list(at) if at is not None else [None] * len(covariates)
    cols, point = [], [1.0]
    for c, target in zip(covariates, targets, strict=True):
        cv = np.asarray(c, dtype=float)
        if len(cv) != len(yv) or cv.std() <= 1e-12:
            continue
        cols.append(cv - cv.mean())
        point.append(0.0 if target is None else float(target) - float(cv.mean()))
    X = np.column_stack([np.ones(len(yv)), *cols]) if cols else np.ones((len(yv), 1))
    k = X.shape[1]
    if len(yv) <= k:
        return math.nan, math.nan, math.nan
    beta, _, rank, _ = np.linalg.lstsq(X, yv, rcond=None)
    if rank < k:  # covariates that say the same: none of them can be told apart, so the plain mean
        X, beta, point, k = X[:, :1], np.array([yv.mean()]), [1.0], 1
    resid = yv - X @ beta
    sigma2 = float(resid @ resid) / (len(yv) - k)
    where = np.asarray(point)
    se = math.sqrt(max(0.0, float(where @ (sigma2 * np.linalg.inv(X.T @ X)) @ where)))
    return _settled(float(where @ beta), se, z, float(yv.std()))


def _slope(y: Sequence[float], x: Sequence[float], covariates: Sequence[Sequence[float]], z: float = 1.959963984540054
           ) -> tuple[float, float, float]:
    """The least-squares slope of ``y`` on ``x`` adjusted for ``covariates``, with its 95% interval."""
    import numpy as np

    yv, xv = np.asarray(y, dtype=float), np.asarray(x, dtype=float)
    if len(yv) < 4 or xv.std() <= 1e-12:
        return math.nan, math.nan, math.nan
    cols = [np.asarray(c, dtype=float) for c in covariates]
    cols = [c - c.mean() for c in cols if c.std() > 1e-12]
    X = np.column_stack([np.ones(len(yv)), xv - xv.mean(), *cols])
    k = X.shape[1]
    beta, _, rank, _ = np.linalg.lstsq(X, yv, rcond=None)
    if rank < k or len(yv) <= k:
        return math.nan, math.nan, math.nan
    resid = yv - X @ beta
    cov = float(resid @ resid) / (len(yv) - k) * np.linalg.inv(X.T @ X)
    se = math.sqrt(max(0.0, float(cov[1, 1])))
    b = float(beta[1])
    return _settled(b, se, z, float(yv.std()))


def _settled(b: float, se: float, z: float, scale: float) -> tuple[float, float, float]:
    """``b`` with its interval, a coefficient that is 0 up to rounding (a model that fits
    exactly leaves no noise to measure it against) read as exactly 0."""
    if abs(b) < 1e-9 * (1.0 + scale) and se < 1e-9 * (1.0 + scale):
        return 0.0, 0.0, 0.0
    return b, b - z * se, b + z * se


def associations(source: Any = None, *, by: Literal["actions", "columns"] = "actions", games: int = 400,
                 players: int | None = None, bots: Any = "greedy", rules: Any = None, seed: int = 0, executor: Any = None,
                 progress: Any = True, kinds: Callable[[str], Any] | None = None, top: int = 12,
                 ax: Axes | None = None) -> LabResult:
    """Which plays go with winning, as associations (a table labelled so): for each kind of
    action (``by="actions"``: the game's kinds, or ``kinds(text)`` of each action's text
    when given) or each of the game's per-seat summary columns (``by="columns"``), how much
    more of it winners have than losers in the same game, adjusted for game length and for
    who moved first and last (see the module); for a solitaire, the change in score per 10
    points of its share of the decisions (a column: per unit), at equal length. ``source``:
    a game, or a table from :func:`~kum_widget.lab.traced`. ``top``: the rows the plot shows."""
    if by not in ("actions", "columns"):
        raise GameError(f"{WHERE}: by must be 'actions' or 'columns', got {shown(by)}")
    if type(top) is not int or top < 1:
        raise GameError(f"{WHERE}: top must be a whole number >= 1, got {shown(top)}")
    if kinds is not None and not callable(kinds):
        raise GameError(f"{WHERE}: kinds must be None or a function from an action's text to its kind, got {shown(kinds)}")
    t = table_of(source, WHERE, run_args(games, players, bots, rules, seed, executor, progress), trace=True)
    if len(t) < 2:
        raise GameError(f"{WHERE}: {len(t)} games ended (within max_actions): too few to compare")
    missing = [c for c in ("trace_kinds", "trace_movers", "actions", "winners") if c not in t.columns]
    if missing:
        raise GameError(f"{WHERE}: the table has no column {', '.join(missing)}: pass the game, or a table from kum.lab.traced")
    n = players_of(t)
    items = _items(t, n, by, kinds)
    if not items:
        raise GameError(f"{WHERE}: nothing to compare ({'no action kinds' if by == 'actions' else 'the game gives no per-seat columns'})")
    table = _holm_adjusted((_solitaire_rows if n == 1 else _paired_rows)(t, items, by))
    width = table["high"] - table["low"]  # ranked by the difference over its interval's width (exact: first)
    table = table.assign(_t=[abs(d) / w if w > 0 else (math.inf if d else 0.0) if d == d else math.nan
                             for d, w in zip(table["difference"], width, strict=True)])
    table = table.sort_values("_t", ascending=False, kind="stable", na_position="last").drop(columns="_t").reset_index(drop=True)
    return _result(table, n, by, top, ax)


def _holm_adjusted(table: pd.DataFrame) -> pd.DataFrame:
    """Each row's interval widened to the level Holm's procedure tests it at, over all the
    rows compared (as what_wins does): an item reads as differing clearly only when that
    interval leaves out 0, and the chance of naming one that does not differ is 5% in all."""
    from statistics import NormalDist

    from .restricted import holm

    z95 = NormalDist().inv_cdf(0.975)
    ses, ps = [], []
    for d, lo, hi in zip(table["difference"], table["low"], table["high"], strict=True):
        se = (hi - lo) / (2 * z95) if hi == hi and lo == lo else math.nan
        ses.append(se)
        ps.append(math.nan if se != se or d != d else (1.0 if d == 0 else 0.0) if se == 0 else
                  2 * (1 - NormalDist().cdf(abs(d) / se)))
    _, levels = holm(ps)
    out = table.copy()
    for i, (d, se, level) in enumerate(zip(table["difference"], ses, levels, strict=True)):
        if se == se and d == d:
            z = NormalDist().inv_cdf(1 - level / 2)
            out.loc[out.index[i], ["low", "high"]] = [d - z * se, d + z * se]
    out["level"] = levels
    return out


def _kind(kinds: Callable[[str], Any], text: str) -> str:
    try:
        kind = kinds(text)
    except Exception as exc:
        raise GameError(f"{WHERE}: kinds({text!r}) raised {type(exc).__name__}: {exc}") from None
    return "" if kind is None else str(kind)


def _items(t: pd.DataFrame, n: int, by: str, kinds: Callable[[str], Any] | None) -> dict[str, list[list[float]]]:
    """Per item (a kind, or a column): its amount per game and seat (a kind: its share of
    the seat's decisions, the game's last decision left out)."""
    out: dict[str, list[list[float]]] = {}
    if by == "actions":
        if kinds is not None and "trace_actions" not in t.columns:
            raise GameError(f"{WHERE}: kinds= needs the actions' texts (trace_actions): a table from kum.lab.traced")
        grouped = t["trace_kinds"] if kinds is None else [tuple(_kind(kinds, a) for a in texts) for texts in t["trace_actions"]]
        for g, (done, movers) in enumerate(zip(grouped, t["trace_movers"], strict=True)):
            done, movers = list(done)[:-1], list(movers)[:-1]  # the move that ended the game is the result, not a cause
            made = [movers.count(s) for s in range(n)]
            for kind, seat in zip(done, movers, strict=True):
                if kind:
                    if kind not in out:
                        out[kind] = [[0.0] * n for _ in range(len(t))]
                    out[kind][g][seat] += 1.0 / made[seat]
        return out
    import pandas as pd

    own = {"bot", "score", "win"}
    for name, seats in seat_columns(t).items():
        cols = [seats.get(s) for s in range(n)]
        if name in own or None in cols or not all(pd.api.types.is_numeric_dtype(t[c]) and not pd.api.types.is_bool_dtype(t[c]) for c in cols):
            continue
        out[name] = [[float(v) for v in row] for row in t[cols].itertuples(index=False)]
    if n == 1:  # a solitaire's summary is game-level: every numeric column of it
        skip = {"game", "seed", "players", "actions", "n_winners", "score_0", "trace_turns"}
        for c in t.columns:
            if isinstance(c, str) and c not in skip and c not in out and pd.api.types.is_numeric_dtype(t[c]) \
                    and not pd.api.types.is_bool_dtype(t[c]):
                out[c] = [[float(v)] for v in t[c]]
    return out


def _paired_rows(t: pd.DataFrame, items: dict[str, list[list[float]]], by: str) -> pd.DataFrame:
    import pandas as pd

    decisive = [(g, int(w[0])) for g, (k, w) in enumerate(zip(t["n_winners"], t["winners"], strict=True)) if k == 1]
    n = players_of(t)
    movers: list[Any] = list(t["trace_movers"]) if "trace_movers" in t.columns else [()] * len(t)
    first = [1.0 if len(movers[g]) and movers[g][0] == w else 0.0 for g, w in decisive]
    last = [1.0 if len(movers[g]) and movers[g][-1] == w else 0.0 for g, w in decisive]
    length = [float(t["actions"].iloc[g]) for g, _ in decisive]
    rows = []
    for name, amounts in items.items():
        mine = [amounts[g][w] for g, w in decisive]
        theirs = [sum(amounts[g][s] for s in range(n) if s != w) / (n - 1) for g, w in decisive]
        diffs = [a - b for a, b in zip(mine, theirs, strict=True)]
        # at a balanced seating: the winner moved first, and last, as often as an even share (1/n)
        d, lo, hi = adjusted_mean(diffs, [first, last, length], at=[1 / n, 1 / n, None]) if len(diffs) > 1 else (math.nan,) * 3
        rows.append({"what": name, "winner": statistics.fmean(mine) if mine else math.nan,
                     "a loser": statistics.fmean(theirs) if theirs else math.nan,
                     "unadjusted": statistics.fmean(diffs) if diffs else math.nan,
                     "difference": d, "low": lo, "high": hi, "games": len(decisive)})
    out = pd.DataFrame(rows, columns=["what", "winner", "a loser", "unadjusted", "difference", "low", "high",
                                      "games"]).astype({"games": "int64"})
    out.attrs["not_adjusted_for"] = [name for name, c in (("who moved first", first), ("who moved last", last),
                                                          ("game length", length)) if len(set(c)) < 2]
    return out


def _solitaire_rows(t: pd.DataFrame, items: dict[str, list[list[float]]], by: str) -> pd.DataFrame:
    import pandas as pd

    scores = [float(s) for s in t["score_0"]]
    length = [float(x) for x in t["actions"]]
    per = 0.1 if by == "actions" else 1.0  # a kind: per 10 points of the decisions' share
    rows = []
    for name, amounts in items.items():
        got = [a[0] for a in amounts]
        b, lo, hi = _slope(scores, got, [length])
        raw = _slope(scores, got, [])
        rows.append({"what": name, "share of decisions" if by == "actions" else "mean": statistics.fmean(got),
                     "unadjusted": raw[0] * per, "unadjusted low": raw[1] * per, "unadjusted high": raw[2] * per,
                     "difference": b * per, "low": lo * per, "high": hi * per, "games": len(scores)})
    first = "share of decisions" if by == "actions" else "mean"
    return pd.DataFrame(rows, columns=["what", first, "unadjusted", "unadjusted low", "unadjusted high", "difference",
                                       "low", "high", "games"]).astype({"games": "int64"})


def _result(table: pd.DataFrame, n: int, by: str, top: int, ax: Any) -> LabResult:
    shown_rows = table.dropna(subset=["difference"])
    head = shown_rows.head(top)
    fig, a = axes_of(ax, height=max(2.5, 0.32 * len(head) + 1))
    ys = list(range(len(head)))[::-1]
    scale = 100.0 if (by == "actions" and n > 1) else 1.0
    d, lo, hi = head["difference"] * scale, head["low"] * scale, head["high"] * scale
    a.barh(ys, d, xerr=[(d - lo).clip(lower=0).fillna(0), (hi - d).clip(lower=0).fillna(0)],
           color=["#27ae60" if x > 0 else "#c0392b" if y < 0 else "#95a5a6" for x, y in zip(lo, hi, strict=True)], capsize=3)
    a.set_yticks(ys, [str(w) for w in head["what"]])
    a.axvline(0, color="grey")
    if n == 1:
        a.set_xlabel("score per 10 more points of the decisions, at equal length" if by == "actions" else
                     "score per unit more, at equal length")
    else:
        a.set_xlabel("winner minus loser, points of their decisions (adjusted)" if by == "actions" else
                     "winner minus loser per game (adjusted)")
    a.set_title("Associations with winning (not causes)" if n > 1 else "Associations with the score (not causes)")
    unit = "points of their decisions" if by == "actions" else "per game"

    def told(row: Any) -> str:
        if n == 1:
            return f"{row['difference']:+.1f} [{row['low']:+.1f}, {row['high']:+.1f}]"
        return f"{scale * row['difference']:+.1f} [{scale * row['low']:+.1f}, {scale * row['high']:+.1f}] {unit}"

    clear = shown_rows[(shown_rows["low"] > 0) | (shown_rows["high"] < 0)]
    if not len(shown_rows):
        reading = "Nothing could be compared: no item varies enough between games."
    elif not len(clear):
        reading = (f"No association found: no kind of play differs clearly between winners and losers once game length "
                   f"and who moved first and last are taken into account ({len(shown_rows)} compared)." if n > 1 else
                   f"No association found: no kind of play goes clearly with a higher or lower score once game length "
                   f"is taken into account ({len(shown_rows)} compared).")
    else:
        best = clear.iloc[0]
        if n > 1 and by == "actions":
            more = "more" if best["difference"] > 0 else "less"
            reading = (f"Associations, not causes: winners' decisions are “{best['what']}” {more} often than losers' "
                       f"({told(best)}, adjusted for game length and who moved first and last)")
        elif n > 1:
            more = "more" if best["difference"] > 0 else "less"
            reading = (f"Associations, not causes: winners have {more} “{best['what']}” than losers "
                       f"({told(best)}, adjusted for game length and who moved first and last)")
        else:
            reading = (f"Associations, not causes: games with more “{best['what']}” score "
                       f"{'higher' if best['difference'] > 0 else 'lower'} ({told(best)} per 10 points more of the "
                       f"decisions, at equal length)" if by == "actions" else
                       f"Associations, not causes: games with more {best['what']} score "
                       f"{'higher' if best['difference'] > 0 else 'lower'} ({told(best)}, at equal length)")
        rest = len(clear) - 1
        reading += f"; {rest} more differ clearly." if rest else "."
        reading += " What causes a win is the experiment's to say (what_wins)."
    if n > 1:
        about = ("An association, not a cause. Each kind is counted as a share of the seat's own decisions (the move "
                 "that ended the game left out: it is the result, not a cause), so a longer game or an extra turn does "
                 "not count. Within each decisive game the winner's share is paired with the losers' average (the same "
                 "deal on both sides), and the difference is adjusted by least squares for the game's length and for "
                 "whether the winner moved first and whether it moved last: it is read at the mean length and a "
                 "balanced seating (a winner who moved first, and last, as often as an even share). The 95% interval is "
                 "the regression's, widened for the number of items compared (Holm's procedure, as in what_wins); "
                 "'unadjusted' is the plain mean difference."
                 if by == "actions" else
                 "An association, not a cause: each per-seat column of the game's summary, the winner's against the "
                 "losers' average in the same game, adjusted by least squares for the game's length and for whether "
                 "the winner moved first and last; the 95% interval is the regression's.")
    else:
        about = ("An association, not a cause: the score regressed on the item (a kind: its share of the decisions, "
                 "the last one left out) and on the game's length, so an item that only goes with longer games reads "
                 "near 0; the interval is the regression's, widened for the number of items compared (Holm's "
                 "procedure); 'unadjusted' is the slope without the length.")
    fixed = table.attrs.get("not_adjusted_for") or []
    if fixed:
        about += (f" Not adjusted for {' or '.join(fixed)}: it never varied in these games (every difference is read at "
                  "its one value).")
    about += " Strong players may simply get to play a strong card more: only restricted play (what_wins) shows a cause."
    cols = (("what", "winner", "a loser", "difference", "low", "high", "games") if n > 1 else
            ("what", "share of decisions" if by == "actions" else "mean", "difference", "low", "high", "games"))
    words = {"difference": "winner minus loser, adjusted" if n > 1 else "score per 10 points more" if by == "actions"
             else "score per unit more"}
    percent = (("winner", "a loser", "unadjusted", "difference", "low", "high") if (by == "actions" and n > 1) else
               ("share of decisions",) if by == "actions" else ())
    table.attrs.update(best=str(clear.iloc[0]["what"]) if len(shown_rows) and len(clear) else None, by=by,
                       associations=True)
    return LabResult(table, fig, a, "Which plays go with winning? (associations, not causes)" if n > 1 else
                     "Which plays go with the score? (associations, not causes)", reading=reading, about=about,
                     labels=words, shown=tuple(c for c in cols if c in table.columns), percent=percent)
