"""``kum.lab.design_map``: one measure of a game over a grid of two rule options, as a heat map.

Every cell is the game under one pair of the two options' values, played by the same bots
on the same deals: game ``i`` of every cell is dealt from ``game_seed(seed, i)``, as
:func:`~kum_widget.lab.simulate` deals it, so the cells differ by their rules alone. All the
cells' games go out as one stream on the executor (a :class:`GridSpec`); a cell whose
games fail (its rules are refused, its games never end, the game raises) is left blank
and named, and every other cell keeps its work. Each cell's figure comes from the design
report's own function (:func:`~kum_widget.lab.balance`, :func:`~kum_widget.lab.length`,
:func:`~kum_widget.lab.decisions`, :func:`~kum_widget.lab.drama`) run on the cell's games.

:func:`~kum_widget.lab.sweep` is a one-row map of the same machinery.

>>> import kum_widget as kum
>>> r = kum.lab.design_map("bust", x=("limit", [18, 21]), y=("hand", [2, 3]), games=20, bots="random", progress=False)
>>> r.table[["limit", "hand", "games"]].values.tolist()
[[18, 2, 20], [18, 3, 20], [21, 2, 20], [21, 3, 20]]
"""

from __future__ import annotations

import math
import pickle
import time
import warnings
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, fields, replace
from itertools import islice
from typing import TYPE_CHECKING, Any

from ..core.errors import GameError, cut, shown
from ..core.game import CardGame
from .checks import check as _check
from .design import balance, decisions, length
from .drama import drama
from .measure import MEAN_LINE, WILSON_LINE
from .play import (
    DEFAULT_MAX_ACTIONS,
    FIRST_COLUMN,
    Spec,
    Unfinished,
    bot_label,
    changed_options,
    new_session,
    table_columns,
    the_game,
    title_of,
    with_rules,
)
from .result import LabResult, axes_of, check_axes
from .runs import executor_words, progress_bar, rows_table, run_here
from .trace import OPTION_EVERY, TraceSpec, evaluator_of
from .workers import refuse_in_starting_worker, run_on

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["design_map", "MEASURES", "MAX_SIDE", "Cell", "Failed", "GridSpec", "grid_cells", "play_grid", "cell_table",
           "real_share"]

MEASURES = {
    "first_player_edge": "the first player's share of decisive games minus the even share (1 / players)",
    "length": "turns per game (the mean)",
    "decisions": "the share of decisions that are real choices",
    "drama": "lead changes per game (the mean)",
}
"""What :func:`design_map` can draw, by name: what each one is."""

MAX_SIDE = 10
"""The most values of an option on one side of a map (10 x 10 cells at most)."""

_LABELS = {"first_player_edge": "first player's edge", "length": "turns per game", "decisions": "real decisions",
           "drama": "lead changes per game"}
_UNITS = {"first_player_edge": "percentage points", "length": "mean", "decisions": "% of decisions", "drama": "mean"}
_RATES = ("first_player_edge", "decisions")  # shown in per cent


# -- the stream: every cell's games as one run ------------------------------------------------------


class Failed(dict[str, Any]):
    """In place of a row: a game of a cell that raised (``cell``, ``game``, ``error``)."""


@dataclass(frozen=True)
class GridSpec(Spec):
    """Every cell's games as one run for an executor: game ``i`` of the stream is game
    ``i % per`` of cell ``i // per``, played as ``run`` plays a game (a Spec, or a TraceSpec
    that keeps the game's course) under the cell's options. It pickles small: the cells
    are their options, each cell's game made where its games are played."""

    run: Spec | None = None
    cells: tuple[tuple[tuple[str, Any], ...], ...] = ()
    per: int = 1
    made: dict[int, Spec] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, run: Spec, cells: Sequence[Mapping[str, Any]], per: int) -> GridSpec:
        return cls(**{f.name: getattr(run, f.name) for f in fields(Spec)}, run=run,
                   cells=tuple(tuple(c.items()) for c in cells), per=per)

    def cell(self, c: int) -> Spec:
        """How the games of cell ``c`` are played (made once per chunk a process plays)."""
        spec = self.made.get(c)
        if spec is None:
            if self.run is None:
                raise GameError("GridSpec: no run to play (make it with GridSpec.of)")
            spec = self.made[c] = replace(self.run, game=self.run.game.with_options(dict(self.cells[c])))
        return spec

    def play(self, game: int) -> dict[str, Any]:
        c, j = divmod(game, self.per)
        try:
            row = self.cell(c).play(j)
        except Exception as exc:  # this cell's failure, kept as a row: the other cells' games play on
            return Failed(cell=c, game=j, error=f"{type(exc).__name__}: {cut(str(exc), 300)}")
        row["cell"] = c
        return row


@dataclass(frozen=True)
class FirstSpec(Spec):
    """A plain run (no course kept: tracing costs more) whose rows say who moved first: the
    game's own first-player column when its summary gives one, else the seat to act when
    the game is dealt (what a traced run's first decision says), for balance to read."""

    @classmethod
    def of(cls, spec: Spec) -> FirstSpec:
        return cls(**{f.name: getattr(spec, f.name) for f in fields(Spec)})

    def play(self, game: int) -> dict[str, Any]:
        row = super().play(game)
        if FIRST_COLUMN not in row and not isinstance(row, Unfinished):
            row[FIRST_COLUMN] = new_session(self.game, self.players, int(row["seed"])).current_player  # dealt again: cheap
        return row


@dataclass
class Cell:
    """One cell of a map: its ``options``, its ``game`` (None when the game refused them),
    and what the stream brought back: finished ``rows``, the numbers of the games past
    ``max_actions`` (``unfinished``), the games that raised (``failed``); ``refused``: why
    its games were never played."""

    options: dict[str, Any]
    game: CardGame | None = None
    refused: str | None = None
    rows: list[dict[str, Any]] = field(default_factory=list)
    unfinished: list[int] = field(default_factory=list)
    failed: list[Failed] = field(default_factory=list)

    def why_blank(self, games: int, max_actions: int | None) -> str | None:
        """Why the cell has no games to measure (None: it has)."""
        if self.refused:
            return self.refused
        if self.failed:
            first = self.failed[0]
            return f"{len(self.failed)} of its {games} games raised an error (game {first['game']}: {first['error']})"
        played = len(self.rows) + len(self.unfinished)
        if played < games:
            return f"stopped (Ctrl-C) after {played} of its {games} games"
        if not self.rows:
            return f"none of its {games} games ended within max_actions={max_actions} actions"
        return None


def grid_cells(base: CardGame, options: Sequence[Mapping[str, Any]], players: int, where: str) -> list[Cell]:
    """A cell for each of ``options`` (the options to change in ``base``), its game made and
    one game dealt: a pair of values the game refuses together, or cannot deal, makes a
    cell refused (blank, with the game's reason), not an error of the whole map."""
    cells = []
    for opts in options:
        cell = Cell(dict(opts))
        try:
            cell.game = with_rules(base, dict(opts), where)
            new_session(cell.game, players, 0)
        except Exception as exc:  # the game's own words, whatever it raises
            text = str(exc).removeprefix(f"{where}: ")
            cell.refused = f"{title_of(base)} refuses these rules ({type(exc).__name__}: {cut(text, 300)})"
            cell.game = None
        cells.append(cell)
    return cells


def play_grid(run: Spec, cells: list[Cell], games: int, executor: Any, progress: bool, desc: str) -> bool:
    """Play ``games`` games of every cell not refused, as one stream (in this process, or
    on ``executor`` as :func:`~kum_widget.lab.simulate` uses one: a pool started once for
    all the cells), and give each cell its rows. Returns whether Ctrl-C stopped it."""
    todo = [k for k, cell in enumerate(cells) if cell.refused is None]
    if not todo:
        return False
    grid = GridSpec.of(run, [cells[k].options for k in todo], games)
    if executor is not None and not isinstance(executor, ThreadPoolExecutor):  # threads share it: nothing to pickle
        try:
            pickle.dumps(grid)
        except Exception as exc:
            raise GameError(f"{desc}: the options' values must pickle to go to workers ({exc})") from None
    total = games * len(todo)
    bar = progress_bar(total, desc) if progress else None
    try:
        if executor is None:
            rows, interrupted = run_here(grid, range(total), bar)
        else:
            rows, interrupted = run_on(executor, grid, total, None, bar)
    finally:
        if bar is not None:
            bar.close()
    if interrupted and not rows:
        raise KeyboardInterrupt(f"{desc}: stopped before any game ended")
    for row in rows:
        cell = cells[todo[int(row.pop("cell"))]]
        if isinstance(row, Failed):
            cell.failed.append(row)
        elif isinstance(row, Unfinished):
            cell.unfinished.append(int(row["game"]))
        else:
            cell.rows.append(row)
    return interrupted


def cell_table(cell: Cell, run: Spec, games: int, executor: Any, **attrs: Any) -> pd.DataFrame:
    """A cell's finished games as ``simulate``'s (or ``traced``'s) table, its attrs filled
    as theirs are, so the design report's functions read it as one of theirs."""
    game = cell.game if cell.game is not None else run.game
    df = rows_table(cell.rows, table_columns(game, run.players))
    df.attrs.update(seed=run.seed, games=games, finished=len(df), unfinished=tuple(cell.unfinished),
                    max_actions=run.max_actions, interrupted=False, players=run.players,
                    bots=tuple(bot_label(b) for b in run.bots), bot_specs=run.bots, rotate=run.rotate,
                    rules=game.options(), rules_changed=changed_options(game), executor=executor_words(executor),
                    game=game.name, game_class=type(game), **attrs)
    return df


def real_share(result: LabResult) -> tuple[float, float, float]:
    """The share of real decisions and its 95% interval, as :func:`~kum_widget.lab.decisions`'s
    table gives them (``attrs["real"]``, ``["real_low"]``, ``["real_high"]``; NaN where it has none)."""
    a = result.table.attrs
    return float(a.get("real", math.nan)), float(a.get("real_low", math.nan)), float(a.get("real_high", math.nan))


# -- the map -----------------------------------------------------------------------------------------


def _axis(name: str, given: Any, the: CardGame, where: str) -> tuple[str, list[Any]]:
    """``x=`` or ``y=`` checked: (option, its values), each value one the game takes."""
    known = the.options()
    listing = ", ".join(sorted(known)) or "none"
    if not isinstance(given, (tuple, list)) or len(given) != 2:
        raise GameError(f"{where}: {name} must be (option, values): one of {title_of(the)}'s rule options ({listing}) "
                        f"and the values to try, got {shown(given)}")
    option, values = given
    if not isinstance(option, str) or option not in known:
        raise GameError(f"{where}: {name}'s option must be one of {title_of(the)}'s rule options ({listing}), got {shown(option)}")
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Iterable):
        raise GameError(f"{where}: {name}'s values must list values of {option}, got {shown(values)}")
    listed = list(islice(values, MAX_SIDE + 1))  # never more than a side can hold: a generator may not end
    if not listed or len(listed) > MAX_SIDE:
        many = "no" if not listed else f"more than {MAX_SIDE}"
        raise GameError(f"{where}: {name} lists {many} values of {option}: a map takes 1 to {MAX_SIDE} values a side "
                        f"(at most {MAX_SIDE} x {MAX_SIDE} cells), got {shown(values)}")
    for i, v in enumerate(listed):
        try:
            twice = any(v == w for w in listed[:i])
        except Exception:  # a value that cannot be compared is not a duplicate we can tell
            twice = False
        if twice:
            raise GameError(f"{where}: {name} lists {option}={shown(v)} twice: each value once")
        with_rules(the, {option: v}, f"{where}: {name}")  # the game's own words, the axis named
    return option, listed


def _number(name: str, value: Any, where: str, low: float | None = None, high: float | None = None) -> float | None:
    if value is None:
        return None
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if not ok or (low is not None and value < low) or (high is not None and value > high):
        span = f" in {low:g}..{high:g}" if low is not None and high is not None else f" >= {low:g}" if low is not None else ""
        raise GameError(f"{where}: {name} must be None or a finite number{span}, got {shown(value)}")
    return float(value)


def _target(target: Any, where: str) -> tuple[float, float]:
    try:
        lo, hi = target
        ok = all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in (lo, hi)) \
            and 0 <= lo <= hi
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise GameError(f"{where}: measure='length' needs target=(low, high), the range of turns wanted with "
                        f"0 <= low <= high, got {shown(target)}")
    return float(lo), float(hi)


def design_map(game: Any = None, x: Any = None, y: Any = None, measure: str = "first_player_edge", *, games: int = 200,
               bots: Any = "greedy", players: int | None = None, seed: int = 0, executor: Any = None,
               progress: bool = True, target: tuple[float, float] | None = None, goal: float | None = None,
               max_actions: int | None = DEFAULT_MAX_ACTIONS, ax: Any = None) -> LabResult:
    """A heat map of ``measure`` over every pair of ``x``'s and ``y``'s values
    (``design_map("kum", x=("hand_size", range(4, 9)), y=("mines", [3, 4, 5]))``): each is
    ``(option, values)``, one of the game's rule options and up to 10 values the game
    takes; ``games`` games a cell between ``bots``, the same deals in every cell.

    ``measure``: ``"first_player_edge"`` (the first player's share of decisive games minus
    1/players, from :func:`~kum_widget.lab.balance`; its goal 0, or ``goal``),
    ``"length"`` (turns per game, :func:`~kum_widget.lab.length`; ``target=(low, high)``
    turns is its goal: the cell's interval overlaps it), ``"decisions"`` (the share of
    real decisions, :func:`~kum_widget.lab.decisions`) or ``"drama"`` (lead changes per
    game, :func:`~kum_widget.lab.drama`, from the game's position evaluator); these two
    mark cells only with a ``goal`` (a share such as 0.8; a number of lead changes).

    Every cell shows its figure and 95% interval; a cell whose interval includes the goal is
    marked with a ring (not adjusted for multiple comparisons: ``about`` says what that means). A
    cell whose games fail is blank and named (``table["failed"]``, the reading); games past
    ``max_actions`` are left out of their cell and counted (``table["unfinished"]``).
    ``executor``: as :func:`~kum_widget.lab.simulate` takes it, the same table on each.
    The table has one row per cell: the two options' values, ``value``, ``low``, ``high``,
    ``goal inside interval``, ``games`` (ended and measured), ``unfinished``, ``failed``.
    """
    where = "design_map"
    refuse_in_starting_worker()  # a script without its __main__ guard, run again in a worker
    start = time.perf_counter()
    the = the_game(game, where)
    if not isinstance(measure, str) or measure not in MEASURES:
        raise GameError(f"{where}: measure must be one of {', '.join(map(repr, MEASURES))}, got {shown(measure)}")
    xo, xs = _axis("x", x, the, where)
    yo, ys = _axis("y", y, the, where)
    if xo == yo:
        raise GameError(f"{where}: x and y must be two different options, both are {xo!r}")
    run = _check(games, players, bots, None, seed, executor, progress, True, None, the, max_actions, "skip",
                 where=where)
    n = run.players
    if n == 1 and measure in ("first_player_edge", "drama"):
        why = "no first player to have an edge" if measure == "first_player_edge" else "no lead to change"
        raise GameError(f"{where}: a solitaire (1 player) has {why}: measure must be 'length' or 'decisions'")
    span = _target(target, where) if measure == "length" else None
    if measure != "length" and target is not None:
        raise GameError(f"{where}: target=(low, high) is the goal of measure='length', not of {measure!r}; "
                        f"got {shown(target)}")
    if measure == "length" and goal is not None:
        raise GameError(f"{where}: measure='length' takes its goal as target=(low, high), not goal={shown(goal)}")
    goal = _number("goal", goal, where, *((0.0, 1.0) if measure == "decisions" else (0.0, None) if measure == "drama"
                                          else (-1.0, 1.0)))
    if measure == "first_player_edge" and goal is None:
        goal = 0.0
    check_axes(ax, 1, where)
    words = ""
    if measure == "first_player_edge":
        run = FirstSpec.of(run)
    else:  # what the measure reads is in the game's course
        words, resolved = evaluator_of(the, "auto" if measure == "drama" else "none", 8, where, n)
        run = TraceSpec.of(run, evaluator=resolved, every=1 if resolved == "game" else 5, playouts=8, kinds=None,
                           option_every=OPTION_EVERY if measure == "decisions" else 0)  # decisions' real choices
    cells = grid_cells(the, [{xo: a, yo: b} for a in xs for b in ys], n, where)
    interrupted = play_grid(run, cells, games, executor, progress, where)
    table, measured = _measured(cells, run, games, executor, measure, n, goal, span, xo, yo, words)
    seconds = time.perf_counter() - start
    table.attrs.update(game=the.name, title=title_of(the), options=(xo, yo), values={xo: xs, yo: ys}, measure=measure,
                       goal=goal, target=span, seed=run.seed, players=n, bots=tuple(bot_label(b) for b in run.bots),
                       games=games, max_actions=run.max_actions, executor=executor_words(executor), seconds=seconds,
                       interrupted=interrupted, evaluator=words or None,
                       failed={(c.options[xo], c.options[yo]): r for c, r in zip(cells, table["failed"], strict=True)
                               if isinstance(r, str)},
                       unfinished={(c.options[xo], c.options[yo]): tuple(c.unfinished) for c in cells if c.unfinished})
    _warn(cells, games, run.max_actions, interrupted, where)
    fig, a = axes_of(ax, width=max(6.5, 0.78 * len(xs) + 3.2), height=max(4.0, 0.56 * len(ys) + 2.8))
    _draw(a, fig, table, measure, xo, xs, yo, ys, goal, span, n, own=ax is None)
    a.set_title(f"{_LABELS[measure][0].upper()}{_LABELS[measure][1:]}: {title_of(the)}\n{xo} by {yo}, {games} games a "
                "cell, the same deals in each", fontsize=10)
    reading = _reading(table, measure, xo, yo, len(xs), len(ys), goal, span, run.max_actions)
    about = _about(measure, games, run, the, len(cells), goal, span, words, n)
    return LabResult(table, fig, a, f"Design map: {_LABELS[measure]} by {xo} and {yo}", measured, reading=reading,
                     about=about, percent=("value", "low", "high") if measure in _RATES else (),
                     labels={"value": _LABELS[measure], **{str(c): str(c) for c in table.columns[:2]}})  # options by name


def _measured(cells: list[Cell], run: Spec, games: int, executor: Any, measure: str, n: int, goal: float | None,
              span: tuple[float, float] | None, xo: str, yo: str, words: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The map's table (one row per cell) and every cell's games (their option values in front)."""
    import pandas as pd

    rows, parts = [], []
    xc, yc = _free(xo, _COLUMNS), _free(yo, _COLUMNS)
    for cell in cells:
        why = blank = cell.why_blank(games, run.max_actions)
        value = low = high = math.nan
        decisive = 0
        if why is None:
            t = cell_table(cell, run, games, executor, **({"evaluator": words} if words else {}))
            try:
                value, low, high, decisive, why = _value(measure, t, n, span)
            except Exception as exc:  # a measure that cannot read this cell's games: the cell, not the map, is lost
                why = f"measuring its games failed ({type(exc).__name__}: {cut(str(exc), 200)})"
            kept = t.drop(columns=[c for c in t.columns if str(c).startswith("trace_") and c != "trace_turns"])
            kept.insert(0, _free(yo, kept.columns), [cell.options[yo]] * len(t))
            kept.insert(0, _free(xo, kept.columns), [cell.options[xo]] * len(t))
            parts.append(kept)
        inside: bool | None = None  # None: no goal, or no value to hold against it
        if why is None and span is not None:
            inside = bool(low <= span[1] and high >= span[0])  # NaN bounds (one game): False, no claim
        elif why is None and goal is not None:
            inside = bool(low <= goal <= high)
        row: dict[str, Any] = {xc: cell.options[xo], yc: cell.options[yo], "value": value, "low": low, "high": high,
                               "goal inside interval": inside, "games": 0 if blank else len(cell.rows),
                               "unfinished": len(cell.unfinished)}
        if measure == "first_player_edge":
            row["decisive games"] = decisive
        row["failed"] = why
        rows.append(row)
    table = pd.DataFrame(rows)
    table = table.astype({"games": "int64", "unfinished": "int64", **({"decisive games": "int64"} if measure ==
                                                                       "first_player_edge" else {})})
    return table, pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


_COLUMNS = ("value", "low", "high", "goal inside interval", "games", "unfinished", "decisive games", "failed")
"""The map's own columns; an option of the same name gets the column "rule <name>"."""


def _free(name: str, taken: Iterable[Any]) -> str:
    return f"rule {name}" if name in set(taken) else name


def _value(measure: str, t: pd.DataFrame, n: int,
           span: tuple[float, float] | None) -> tuple[float, float, float, int, str | None]:
    """(value, low, high, decisive games, why there is none) of a cell's games, from the
    design report's own function for the measure."""
    if measure == "first_player_edge":
        table = balance(t).table
        r = table[table["measure"] == "first player's share of decisive games"].iloc[0]
        fair = 1 / n
        v, lo, hi, d = float(r["value"]), float(r["low"]), float(r["high"]), int(r["games"])
        return v - fair, lo - fair, hi - fair, d, None if v == v else "no game had a single winner"
    if measure == "length":
        table = length(t, target=span).table
        r = table[table["measure"] == "turns per game"].iloc[0]
        return float(r["value"]), float(r["low"]), float(r["high"]), 0, None
    if measure == "decisions":
        r = decisions(t)
        v, lo, hi = real_share(r)
        forced = r.table.attrs.get("forced") == 1
        why = "every move was forced" if forced else "kum.lab.decisions gives no share of real decisions for these games"
        return v, lo, hi, 0, None if v == v else why
    table = drama(t).table
    r = table[table["measure"] == "lead changes per game"].iloc[0]
    v = float(r["value"])
    return v, float(r["low"]), float(r["high"]), 0, None if v == v else "no game had a single winner"


def _warn(cells: list[Cell], games: int, max_actions: int | None, interrupted: bool, where: str) -> None:
    past = [c for c in cells if c.unfinished]
    if past:
        k = sum(len(c.unfinished) for c in past)
        warnings.warn(f"{where}: {k} games in {len(past)} cells did not end within max_actions={max_actions} actions "
                      "and are left out of their cells (table['unfinished'], attrs['unfinished'])", stacklevel=3)
    if interrupted:
        warnings.warn(f"{where} interrupted: the cells not played to the end are blank", stacklevel=3)


# -- words ------------------------------------------------------------------------------------------


def _fmt(measure: str, v: float, sign: bool = True) -> str:
    """A figure of the measure in words: per cent (points, signed) for rates, else a number."""
    if v != v:
        return "n/a"
    if measure == "first_player_edge":
        r = round(100 * v)
        if not r and abs(v) >= 0.0005:  # a bound just off 0 keeps its side: "+0.5", not "0"
            return f"{100 * v:+.1f}"
        return f"{r:+d}" if sign and r else f"{r:d}"
    if measure == "decisions":
        return f"{100 * v:.0f}"
    if measure == "length":
        return f"{v:.0f}"
    return f"{v:.2f}" if abs(v) < 10 else f"{v:.1f}"


def _with_interval(measure: str, v: float, lo: float, hi: float) -> str:
    unit = {"first_player_edge": " points", "decisions": "%", "length": " turns", "drama": " lead changes"}[measure]
    inside = "" if lo != lo else f" [{_fmt(measure, lo)}, {_fmt(measure, hi)}]"
    return f"{_fmt(measure, v)}{unit}{inside}"


def _goal_short(measure: str, goal: float | None, span: tuple[float, float] | None) -> str:
    if span is not None:
        return f"the target, {span[0]:g} to {span[1]:g} turns"
    if measure == "first_player_edge":
        return "0, an even game" if not goal else f"{_fmt(measure, goal or 0.0)} points"
    return f"{100 * (goal or 0.0):g}%" if measure == "decisions" else f"{goal:g} lead change{'' if goal == 1 else 's'} a game"


def _goal_words(measure: str, goal: float | None, span: tuple[float, float] | None, n: int) -> str:
    if span is not None:
        return f"the target of {span[0]:g} to {span[1]:g} turns"
    if goal is None:
        return "no goal"
    if measure == "first_player_edge":
        return f"an edge of {_fmt(measure, goal)} points" if goal else f"0 (an even game: the first player wins 1 in {n})"
    if measure == "decisions":
        return f"{100 * goal:g}% real decisions"
    return f"{goal:g} lead change{'' if goal == 1 else 's'} a game"


def _marked(m: Any) -> bool:
    """A cell's "goal inside interval" (True, False, or None without a goal) as a mark."""
    return m is not None and m == m and bool(m)


def _cell_words(t: pd.DataFrame, i: int, xo: str, yo: str) -> str:
    return f"{xo}={t.iloc[i, 0]}, {yo}={t.iloc[i, 1]}"  # the option columns come first


def _cells(names: list[str], most: int = 2) -> str:
    """Cells in words: "(a=1, b=2), (a=1, b=3) and 4 more"."""
    shown_ = ", ".join(f"({n})" for n in names[:most])
    return shown_ + (f" and {len(names) - most} more" if len(names) > most else "")


def _listed(items: list[str], most: int = 3) -> str:
    return "; ".join(items[:most]) + (f"; and {len(items) - most} more" if len(items) > most else "")


def _reading(t: pd.DataFrame, measure: str, xo: str, yo: str, nx: int, ny: int, goal: float | None,
             span: tuple[float, float] | None, max_actions: int | None) -> str:
    label = _LABELS[measure]
    have = t[t["value"].notna()]
    head = f"{label[0].upper()}{label[1:]} over {nx} x {ny} cells ({xo} by {yo})"
    if not len(have):
        text = f"{head}: no cell has a value"
    else:
        lo_i, hi_i = have["value"].idxmin(), have["value"].idxmax()
        low, high = t.loc[lo_i], t.loc[hi_i]
        text = (f"{head}: from {_with_interval(measure, low['value'], low['low'], low['high'])} to "
                f"{_with_interval(measure, high['value'], high['low'], high['high'])}")
        marked = t["goal inside interval"]
        if goal is None and span is None:
            text += "; no goal given (goal=...), so no cell is marked"
        else:
            k = sum(1 for m in marked if _marked(m))
            text += (f"; {k} of {len(have)} cells' 95% intervals {'overlap' if span else 'include'} "
                     f"{_goal_words(measure, goal, span, 2)}")
            chance, missed = 0.05 * len(have), len(have) - k  # misses by chance alone, were every cell at the goal
            if 0 < missed <= chance + 2 * math.sqrt(chance * 0.95):
                text += (f" (about 1 cell in 20 misses it by chance alone even where no rule moves the measure: {missed} "
                         f"of {len(have)} is no clear difference)")
    blank = [i for i in range(len(t)) if isinstance(t["failed"].iloc[i], str)]
    if blank:
        by_reason: dict[str, list[str]] = {}  # cells that failed alike, named together
        for i in blank:
            by_reason.setdefault(cut(t["failed"].iloc[i], 160), []).append(_cell_words(t, i, xo, yo))
        text += (f"; {len(blank)} cell{'s are' if len(blank) > 1 else ' is'} blank: "
                 + _listed([f"{_cells(where)}: {why}" for why, where in by_reason.items()]))
    past = [i for i in range(len(t)) if t["unfinished"].iloc[i] and not isinstance(t["failed"].iloc[i], str)]
    if past:
        text += (f"; {int(t['unfinished'].iloc[past].sum())} games ran past max_actions={max_actions} and are left out "
                 f"of their cells: " + _listed([f"{_cell_words(t, i, xo, yo)} ({t['unfinished'].iloc[i]})" for i in past]))
    return text + "."


def _about(measure: str, games: int, run: Spec, the: CardGame, cells: int, goal: float | None,
           span: tuple[float, float] | None, words: str, n: int) -> str:
    source = {"first_player_edge": "kum.lab.balance's first player's share of decisive games (a decisive game has one "
                                   f"winner) minus {100 / n:.0f}%, the share of an even game; in percentage points",
              "length": "kum.lab.length's turns per game (the game's own count of turns when it keeps one)",
              "decisions": "kum.lab.decisions's share of real decisions (table.attrs['real'], its interval "
                           "attrs['real_low'] and ['real_high']), from the decisions its option analysis looks at",
              "drama": f"kum.lab.drama's lead changes per decisive game, the lead read from {words}"}[measure]
    line = {"first_player_edge": WILSON_LINE + " The edge's interval is that interval moved by the even share.",
            "decisions": WILSON_LINE}.get(measure, MEAN_LINE)
    bots = ", ".join(dict.fromkeys(bot_label(b) for b in run.bots))
    adjusted = 100 - 5 / cells
    marks = ("No goal was given, so no cell is marked." if goal is None and span is None else
             f"A cell is marked (a ring in its corner) when its 95% interval {'overlaps' if span else 'includes'} "
             f"{_goal_words(measure, goal, span, n)}. The marks are not adjusted for multiple comparisons: among {cells} cells, about 1 in 20 of those whose "
             "true value is the goal misses its mark by chance, and some cells far from it may get one; to call one cell "
             f"the best of the map needs an adjusted interval (Bonferroni's: {adjusted:.2f}% for each of {cells} cells) "
             "or that cell played again on new seeds.")
    scale = {"first_player_edge": "run both ways from an even game, as far as the largest edge and at least 10 points",
             "decisions": "run from 0 to 100%", "length": "run from 0", "drama": "run from 0"}[measure]
    return (f"Each cell is {title_of(the)} with the two options at its values, {games} games of {bots} "
            f"({run.players} players). The figure: {source}. Every cell is dealt the same games (game i of every cell from "
            f"kum.lab.game_seed({run.seed}, i), as simulate deals them), so cells differ by their rules alone; their "
            f"errors are not independent. {line} {marks} The lowest and highest figures of many cells are spread apart by "
            "chance alone: their intervals may not overlap even where the rules make no difference. Games past "
            f"max_actions={run.max_actions} are left out of their cell and counted (unfinished); a cell is blank when its "
            f"games failed (failed says why). The colours {scale}, so a small difference looks small.")


# -- the heat map -----------------------------------------------------------------------------------


def _limits(measure: str, t: pd.DataFrame, n: int) -> tuple[float, float]:
    values = [float(v) for v in t["value"] if v == v]
    if measure == "decisions":
        return 0.0, 1.0
    if measure == "first_player_edge":
        # Symmetric about an even game: at least +-10 points, so a small edge looks small; at most the edge's range.
        top = max([0.1, *(abs(v) for v in values)])
        top = min(max(1 - 1 / n, 1 / n), math.ceil(top * 20) / 20)
        return -top, top
    return 0.0, max([1.0, *values]) * 1.05


def _draw(a: Any, fig: Any, t: pd.DataFrame, measure: str, xo: str, xs: list[Any], yo: str, ys: list[Any],
          goal: float | None, span: tuple[float, float] | None, n: int, own: bool) -> None:
    import matplotlib
    import numpy as np
    from matplotlib.colors import Normalize
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch, Rectangle
    from matplotlib.ticker import FuncFormatter

    grid = np.full((len(ys), len(xs)), np.nan)
    for k in range(len(t)):
        grid[k % len(ys), k // len(ys)] = t["value"].iloc[k]  # the table goes x-major, y-minor
    lo, hi = _limits(measure, t, n)
    cmap = matplotlib.colormaps["RdBu_r" if measure == "first_player_edge" else "viridis"].with_extremes(bad="#eeeeee")
    norm = Normalize(lo, hi)
    image = a.imshow(np.ma.masked_invalid(grid), origin="lower", cmap=cmap, norm=norm, aspect="auto",
                     extent=(-0.5, len(xs) - 0.5, -0.5, len(ys) - 0.5))
    small = 7 if max(len(xs), len(ys)) > 6 else 8.5
    for k in range(len(t)):
        cx, cy = k // len(ys), k % len(ys)
        v = t["value"].iloc[k]
        if v != v:
            a.add_patch(Rectangle((cx - 0.5, cy - 0.5), 1, 1, fill=False, hatch="xx", edgecolor="#a0a0a0", lw=0))
            failed = t["games"].iloc[k] == 0  # its games failed; else they ended but give nothing to measure
            a.text(cx, cy, "failed" if failed else "no value", ha="center", va="center", fontsize=small, color="#444444",
                   bbox={"boxstyle": "round,pad=0.15", "fc": "#eeeeee", "ec": "none"})
            continue
        r, g, b, _ = cmap(norm(v))
        ink = "black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else "white"
        low, high = t["low"].iloc[k], t["high"].iloc[k]
        text = _fmt(measure, v) + ("" if low != low else f"\n[{_fmt(measure, low)}, {_fmt(measure, high)}]")
        a.text(cx, cy, text, ha="center", va="center", fontsize=small, color=ink, linespacing=1.15)
        if _marked(t["goal inside interval"].iloc[k]):  # a mark in the corner, the figure left readable
            a.plot([cx + 0.36], [cy + 0.3], marker="o", ms=6, mfc="none", mec=ink, mew=1.4, ls="none")
    slanted = max(len(str(v)) for v in xs) > 5  # long values would run into each other
    a.set_xticks(range(len(xs)), [str(v) for v in xs], rotation=30 if slanted else 0, ha="right" if slanted else "center")
    a.set_yticks(range(len(ys)), [str(v) for v in ys])
    a.set_xlabel(xo)
    a.set_ylabel(yo)
    a.tick_params(length=0)
    bar = fig.colorbar(image, ax=a, fraction=0.05, pad=0.02)
    if measure in _RATES:
        step = 0.25 if measure == "decisions" or hi > 0.5 else 0.1 if hi > 0.2 else 0.05
        bar.set_ticks([k * step for k in range(math.ceil(lo / step - 1e-9), math.floor(hi / step + 1e-9) + 1)])
        bar.formatter = FuncFormatter(lambda v, _: f"{100 * v:+.0f}" if measure == "first_player_edge" and round(100 * v)
                                      else f"{100 * v:.0f}%" if measure == "decisions" else "0")
        bar.update_ticks()
    bar.set_label(f"{_LABELS[measure]} ({_UNITS[measure]})")
    handles: list[Any] = []
    if goal is not None or span is not None:
        handles.append(Line2D([], [], marker="o", ms=6, mfc="none", mec="black", mew=1.4, ls="none",
                              label=f"95% interval {'overlaps' if span else 'includes'} {_goal_short(measure, goal, span)}"))
    handles.append(Line2D([], [], ls="none", label="in each cell: the figure, [its 95% interval]"
                          + ("; marks not adjusted for multiple comparisons" if goal is not None or span is not None else "")))
    if t["value"].isna().any():
        handles.append(Patch(facecolor="#eeeeee", hatch="xx", edgecolor="#a0a0a0", label="blank: no value (table['failed'] says why)"))
    if own:  # below the whole figure, clear of the colour bar
        fig.legend(handles=handles, loc="outside lower center", ncol=1, frameon=False, fontsize=8)
    else:
        a.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.22 if slanted else -0.13), ncol=1,
                 frameon=False, fontsize=8)
