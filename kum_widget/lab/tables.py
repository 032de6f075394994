"""Reading a results table of ``kum.simulate`` (any game's): its per-seat columns, the game's
own columns, the game it was played with, its checks, and its long form (:func:`per_seat`).

pandas loads inside the functions, so importing this module stays light.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..core.errors import GameError, cut, shown, shown_names
from ..core.game import CardGame
from .checks import need_frame
from .play import FIRST_COLUMN, LAB_COLUMNS, the_game, with_rules

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["game_columns", "game_of", "length_column", "need_results", "per_seat", "seat_columns"]


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


def length_column(results: pd.DataFrame) -> str:
    """How a game's length is counted: ``turns`` when the game gives them, else ``actions``."""
    return "turns" if "turns" in results.columns else "actions"
