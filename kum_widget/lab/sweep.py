"""One rule option over a range of values, with the report's headline measures plotted
against it (all values on the same seeds), and a class's own games made into the lab's
tables."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..core.errors import GameError, shown
from .design import MEAN_LINE, WILSON_LINE, _first_seats, players_of, share_interval, traced
from .play import _row, bot_label, the_game, title_of, with_rules
from .result import LabResult, axes_of
from .stats import mean_interval, wilson
from .trace import trace_session
from .workers import pool_for, refuse_in_starting_worker

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["sweep", "headline", "class_games", "HEADLINES"]

HEADLINES = {
    "first player's share": "share of decisive games the first player wins",
    "draws and shared wins": "share of games without a single winner",
    "turns": "turns per game",
    "real decisions": "share of decisions with more than one legal action",
    "mean score": "final score (a solitaire)",
    "games won": "share of games won (a solitaire)",
}
"""The headline measures, by name: what each one is."""


def headline(t: pd.DataFrame) -> dict[str, tuple[float, float, float]]:
    """The headline measures of a traced table, each (value, low, high)."""
    n, out = players_of(t), {}
    if n > 1:
        firsts, _ = _first_seats(t)
        decisive = [(int(w[0]), f) for w, f, k in zip(t["winners"], firsts, t["n_winners"], strict=True) if k == 1]
        k = sum(1 for w, f in decisive if w == f)
        out["first player's share"] = (k / len(decisive) if decisive else math.nan, *wilson(k, len(decisive)))
        draws = int((t["n_winners"] != 1).sum())
        out["draws and shared wins"] = (draws / len(t), *wilson(draws, len(t)))
    else:
        out["mean score"] = mean_interval([float(x) for x in t["score_0"]])
        won = int(t["win_0"].astype(bool).sum())
        out["games won"] = (won / len(t), *wilson(won, len(t)))
    out["turns"] = mean_interval([float(x) for x in t["trace_turns"]])
    shares = [sum(1 for k in legal if k > 1) / len(legal) for legal in t["trace_legal"] if len(legal)]
    out["real decisions"] = share_interval(shares)
    return out


def sweep(option: str, values: Sequence[Any], game: Any = None, *, games: int = 200, players: int | None = None,
          bots: Any = "greedy", rules: Any = None, seed: int = 0, executor: Any = None, progress: bool = True,
          ax: Any = None) -> LabResult:
    """The game with its rule option ``option`` at each of ``values`` (``sweep("hand_size",
    range(4, 9), "kings-under-mountains")``), ``games`` games each on the same seeds, and
    the headline measures (:data:`HEADLINES`) plotted against the value."""
    import pandas as pd

    refuse_in_starting_worker()  # a script without its __main__ guard, run again in a worker
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
    rows, measures = [], []
    with pool_for(executor, "sweep") as pool:
        for v in values:
            t = traced(the, games, players=players, bots=bots, rules={**base, option: v}, seed=seed, executor=pool,
                       progress=progress, evaluator="none")
            h = headline(t)
            measures = list(h)
            row: dict[str, Any] = {option: v}
            for name, (m, lo, hi) in h.items():
                row[name], row[f"{name} low"], row[f"{name} high"] = m, lo, hi
            row["games"] = len(t)
            rows.append(row)
    table = pd.DataFrame(rows).astype({"games": "int64"})
    fig, axes = axes_of(ax, len(measures), width=3.4, height=3.0)
    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
    xs = values if numeric else list(range(len(values)))
    for a, name in zip(axes, measures, strict=True):
        a.errorbar(xs, table[name], yerr=[(table[name] - table[f"{name} low"]).fillna(0),
                                          (table[f"{name} high"] - table[name]).fillna(0)], marker="o", capsize=3)
        if not numeric:
            a.set_xticks(xs, [str(v) for v in values])
        a.set_title(name)
        a.set_xlabel(option)
    moved = []
    for name in measures:
        lo0, hi0 = table[f"{name} low"].iloc[0], table[f"{name} high"].iloc[0]
        lo1, hi1 = table[f"{name} low"].iloc[-1], table[f"{name} high"].iloc[-1]
        if hi0 < lo1 or hi1 < lo0:
            moved.append(f"{name} ({_fmt(table[name].iloc[0])} to {_fmt(table[name].iloc[-1])})")
    reading = (f"From {option}={values[0]} to {option}={values[-1]}, " +
               (", ".join(moved) + " move beyond their intervals." if moved else "no headline measure moves beyond its interval."))
    about = (f"Each value of {option} plays {games} games dealt from the same seeds, so the values differ only by the rule. "
             + "; ".join(f"{k}: {HEADLINES[k]}" for k in measures) + ". " + WILSON_LINE + " " + MEAN_LINE)
    shares = ("first player's share", "draws and shared wins", "real decisions", "games won")
    return LabResult(table, fig, axes, f"Sweep: {option}", reading=reading, about=about,
                     percent=tuple(f"{m}{end}" for m in shares for end in ("", " low", " high")))


def _fmt(x: float) -> str:
    return f"{100 * x:.0f}%" if 0 <= x <= 1 else f"{x:.1f}"


def class_games(games: Sequence[Any], *, game: Any = None, label: str = "class", evaluator: Any = "auto") -> pd.DataFrame:
    """A table like :func:`~kum_widget.lab.traced`'s from games people played: finished
    sessions (``widget.game``), or their records (``session.record()`` text, or
    ``to_dict()``; ``game`` names the game when the record is of an unregistered one).
    Every seat's "bot" is ``label``; the course of each game is measured as a bot's is.
    All must be games of one game with one number of players."""
    import pandas as pd

    from ..core.session import Session

    if isinstance(games, (str, bytes, dict)) or not isinstance(games, Sequence) or not games:
        raise GameError(f"class_games: games must list finished games (sessions or records), got {shown(games)}")
    if not isinstance(label, str) or not label.strip():
        raise GameError(f"class_games: label must be a non-empty text, got {shown(label)}")
    rows = []
    kinds: set[tuple[str, int]] = set()
    for i, item in enumerate(games):
        if isinstance(item, (str, dict)):
            try:
                s = Session.from_record(item, game=game) if isinstance(item, str) else Session.from_dict(item, game=game)
            except GameError as exc:  # which of the games, in the record's own words
                raise GameError(f"class_games: game {i} is not a record of a game ({exc})") from None
        elif isinstance(item, Session):
            s = item
        else:
            raise GameError(f"class_games: game {i} must be a session or its record, got {shown(item)}")
        if not s.is_over:
            raise GameError(f"class_games: game {i} has not ended ({s.move_number} actions played)")
        kinds.add((type(s.game).__name__, s.num_players))
        row = _row(s, i, (label,) * s.num_players)
        row.update(trace_session(s, evaluator=evaluator, where="class_games"))
        rows.append(row)
    if len(kinds) > 1:
        raise GameError(f"class_games: the games must be of one game and one number of players, got {sorted(kinds)}")
    df = pd.DataFrame(rows)
    first = games[0] if isinstance(games[0], Session) else None
    df.attrs.update(players=rows[0]["players"], bots=(bot_label(label),), source=label, games=len(df),
                    game=(first.game.name if first else None), unfinished=())
    return df
