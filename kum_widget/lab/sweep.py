"""One rule option over a range of values, with the report's headline measures plotted
against it (all values on the same seeds: a one-row :func:`~kum_widget.lab.design_map`,
so a value whose games fail is named and the others keep their work)."""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..core.errors import GameError, shown
from .checks import check as _check
from .design import balance, decisions, length
from .design_map import cell_table, grid_cells, play_grid, real_share
from .measure import MEAN_LINE, WILSON_LINE, players_of
from .play import DEFAULT_MAX_ACTIONS, bot_label, the_game, title_of, with_rules
from .result import LabResult, axes_of, check_axes
from .runs import executor_words
from .trace import OPTION_EVERY, TraceSpec
from .workers import refuse_in_starting_worker

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["sweep", "headline", "HEADLINES"]

HEADLINES = {
    "first player's share": "share of decisive games the first player wins",
    "draws and shared wins": "share of games without a single winner",
    "turns": "turns per game",
    "real decisions": "share of decisions that are real choices (as kum.lab.decisions finds them)",
    "mean score": "final score (a solitaire)",
    "games won": "share of games won (a solitaire)",
}
"""The headline measures, by name: what each one is."""

RATES = ("first player's share", "draws and shared wins", "real decisions", "games won")
"""The headline measures that are shares (drawn on an axis from 0 to 100%)."""


def headline(t: pd.DataFrame) -> dict[str, tuple[float, float, float]]:
    """The headline measures of a traced table, each (value, low, high), as the design
    report's :func:`~kum_widget.lab.balance`, :func:`~kum_widget.lab.length` and
    :func:`~kum_widget.lab.decisions` give them."""
    out: dict[str, tuple[float, float, float]] = {}
    b = balance(t).table.set_index("measure")
    if players_of(t) > 1:
        out["first player's share"] = _triple(b.loc["first player's share of decisive games"])
        out["draws and shared wins"] = _triple(b.loc["draws and shared wins"])
    else:
        out["mean score"] = _triple(b.loc["mean score"])
        out["games won"] = _triple(b.loc["games won"])
    out["turns"] = _triple(length(t).table.set_index("measure").loc["turns per game"])
    out["real decisions"] = real_share(decisions(t))
    return out


def _triple(r: Any) -> tuple[float, float, float]:
    return float(r["value"]), float(r["low"]), float(r["high"])


def _names(players: int) -> list[str]:
    """The headline measures of a game of ``players`` seats, in order."""
    return (["first player's share", "draws and shared wins"] if players > 1 else ["mean score", "games won"]) + \
        ["turns", "real decisions"]


def sweep(option: str, values: Sequence[Any], game: Any = None, *, games: int = 200, players: int | None = None,
          bots: Any = "greedy", rules: Any = None, seed: int = 0, executor: Any = None, progress: bool = True,
          ax: Any = None, max_actions: int | None = DEFAULT_MAX_ACTIONS) -> LabResult:
    """The game with its rule option ``option`` at each of ``values`` (``sweep("hand_size",
    range(4, 9), "kings-under-mountains")``), ``games`` games each on the same seeds, all
    played as one run on ``executor``, and the headline measures (:data:`HEADLINES`)
    plotted against the value. A value whose games fail (refused rules, a game that raises,
    none ending within ``max_actions``) keeps its row, blank, with ``failed`` saying why;
    games past ``max_actions`` are left out of their value and counted (``unfinished``)."""
    import pandas as pd

    refuse_in_starting_worker()  # a script without its __main__ guard, run again in a worker
    start = time.perf_counter()
    the = the_game(game, "sweep")
    if isinstance(rules, dict) or rules is None:
        base = dict(rules or {})
    else:
        raise GameError(f"sweep: rules must be a dict of the other options to change, or None; got {shown(rules)}")
    known = the.options()
    if not isinstance(option, str) or option not in known:
        raise GameError(f"sweep: option must be one of {title_of(the)}'s rule options ({', '.join(sorted(known)) or 'none'}), "
                        f"got {shown(option)}")
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence | range) or len(values) < 2:
        raise GameError(f"sweep: values must list two values of {option} or more, got {shown(values)}")
    values = list(values)
    for v in values:  # every value refused before any game is played
        with_rules(the, {**base, option: v}, "sweep")
    the = with_rules(the, base, "sweep") if base else the
    check_axes(ax, 4, "sweep")  # refused before any game is played: a sweep draws its four measures
    run = _check(games, players, bots, None, seed, executor, progress, True, None, the, max_actions, "skip",
                 where="sweep")
    run = TraceSpec.of(run, evaluator="none", every=5, playouts=8, kinds=None, option_every=OPTION_EVERY)  # real decisions
    cells = grid_cells(the, [{option: v} for v in values], run.players, "sweep")
    interrupted = play_grid(run, cells, games, executor, progress, "sweep")
    measures = _names(run.players)
    rows = []
    for v, cell in zip(values, cells, strict=True):
        why = cell.why_blank(games, run.max_actions)
        h = headline(cell_table(cell, run, games, executor)) if why is None else {}
        row: dict[str, Any] = {option: v}
        for name in measures:
            row[name], row[f"{name} low"], row[f"{name} high"] = h.get(name, (math.nan,) * 3)
        row.update({"games": 0 if why else len(cell.rows), "unfinished": len(cell.unfinished), "failed": why})
        rows.append(row)
    table = pd.DataFrame(rows).astype({"games": "int64", "unfinished": "int64"})
    table.attrs.update(game=the.name, option=option, values=values, seed=run.seed, players=run.players,
                       bots=tuple(bot_label(b) for b in run.bots), games=games, max_actions=run.max_actions,
                       executor=executor_words(executor), seconds=time.perf_counter() - start, interrupted=interrupted,
                       failed={v: r for v, r in zip(values, table["failed"], strict=True) if isinstance(r, str)},
                       unfinished={v: tuple(c.unfinished) for v, c in zip(values, cells, strict=True) if c.unfinished})
    past = sum(len(c.unfinished) for c in cells)
    if past:
        warnings.warn(f"sweep: {past} games did not end within max_actions={run.max_actions} actions and are left out "
                      "of their values (table['unfinished'], attrs['unfinished'])", stacklevel=2)
    if interrupted:
        warnings.warn("sweep interrupted: the values not played to the end are blank", stacklevel=2)
    fig, axes = axes_of(ax, len(measures), width=3.4, height=3.0)
    _plot(axes, table, option, values, measures)
    reading = _reading(table, option, values, measures, run.max_actions)
    about = (f"Each value of {option} plays {games} games dealt from the same seeds, so the values differ only by the rule. "
             + "; ".join(f"{k}: {HEADLINES[k]}" for k in measures) + ". " + WILSON_LINE + " " + MEAN_LINE +
             " Two values differ when their intervals do not overlap; where they overlap, no difference is found at this "
             "number of games. Shares are drawn on an axis from 0 to 100%. Games past max_actions are left out of their "
             "value and counted (unfinished); a value is blank when its games failed (failed says why).")
    return LabResult(table, fig, axes, f"Sweep: {option}", reading=reading, about=about,
                     percent=tuple(f"{m}{end}" for m in RATES for end in ("", " low", " high")))


def _plot(axes: Any, table: pd.DataFrame, option: str, values: list[Any], measures: list[str]) -> None:
    from matplotlib.ticker import PercentFormatter

    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
    xs = values if numeric else list(range(len(values)))
    blank = [x for x, why in zip(xs, table["failed"], strict=True) if isinstance(why, str)]
    for a, name in zip(axes, measures, strict=True):
        a.errorbar(xs, table[name], yerr=[(table[name] - table[f"{name} low"]).fillna(0),
                                          (table[f"{name} high"] - table[name]).fillna(0)], marker="o", capsize=3)
        for k, x in enumerate(blank):  # a value without games: marked where its point would be
            a.axvline(x, color="#999999", ls=":", lw=1.2, label="failed (see the table)" if k == 0 else None)
        if blank:
            a.legend(fontsize=7, loc="best")
        if not numeric:
            a.set_xticks(xs, [str(v) for v in values])
        if name in RATES:  # never zoomed: a share's axis runs from 0 to 100%
            a.set_ylim(0, 1)
            a.yaxis.set_major_formatter(PercentFormatter(1.0))
        elif name == "turns":
            a.set_ylim(bottom=0)
        a.set_title(name)
        a.set_xlabel(option)


def _reading(table: pd.DataFrame, option: str, values: list[Any], measures: list[str], max_actions: int | None) -> str:
    done = [i for i in range(len(table)) if not isinstance(table["failed"].iloc[i], str)]
    parts = []
    if len(done) >= 2:
        i, j = done[0], done[-1]
        moved, same = [], []
        for name in measures:
            lo0, hi0 = table[f"{name} low"].iloc[i], table[f"{name} high"].iloc[i]
            lo1, hi1 = table[f"{name} low"].iloc[j], table[f"{name} high"].iloc[j]
            if hi0 < lo1 or hi1 < lo0:
                moved.append(f"{name} ({_fmt(name, table[name].iloc[i])} to {_fmt(name, table[name].iloc[j])})")
            else:
                same.append(name)
        text = f"From {option}={values[i]} to {option}={values[j]}, "
        if moved:
            text += "the measures that move beyond their 95% intervals: " + ", ".join(moved)
        if same:
            text += ("; " if moved else "") + "no difference found in " + ("any headline measure (each pair of intervals "
                                                                           "overlaps)" if not moved else ", ".join(same))
        parts.append(text)
    elif done:
        parts.append(f"Only {option}={values[done[0]]} has games to measure: nothing to compare")
    else:
        parts.append(f"No value of {option} has games to measure")
    failed = [i for i in range(len(table)) if isinstance(table["failed"].iloc[i], str)]
    if failed:
        parts.append("failed: " + "; ".join(f"{option}={values[i]} ({table['failed'].iloc[i]})" for i in failed))
    past = [i for i in done if table["unfinished"].iloc[i]]
    if past:
        parts.append(f"games past max_actions={max_actions}, left out: "
                     + ", ".join(f"{table['unfinished'].iloc[i]} at {option}={values[i]}" for i in past))
    return "; ".join(parts) + "."


def _fmt(name: str, x: float) -> str:
    return f"{100 * x:.0f}%" if name in RATES else f"{x:.1f}"
