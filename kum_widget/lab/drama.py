"""The design report's measures of a game's course: drama and decisiveness (how the lead
moved on the way to the result), and what wins (which kinds of play winners make more
than losers). For any game on the shell; each returns a
:class:`~kum_widget.lab.result.LabResult` with its ``reading`` and ``about``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..core.errors import GameError
from .measure import MEAN_LINE, WILSON_LINE, players_of, run_args, table_of
from .result import LabResult, axes_of
from .stats import mean_interval, wilson
from .words import percent, span_after

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["drama", "course_of", "BEHIND", "NEWCOMBE_LINE"]

BEHIND = 0.1
"""The winner "came from behind" when it trailed by more than this, in estimated chance of
winning (a smaller gap is within an evaluator's noise)."""

NEWCOMBE_LINE = ("A difference of two shares measured on the same games gets Newcombe's interval for paired shares "
                 "(1998): where it stays above 0, winners really do it more.")


def _leader(values: Sequence[float]) -> int | None:
    top = max(values)
    leaders = [s for s, v in enumerate(values) if v == top]
    return leaders[0] if len(leaders) == 1 else None


def course_of(evals: Sequence[tuple[int, Sequence[float]]], decisions: int, winner: int) -> dict[str, float]:
    """One decisive game's course from its sampled evaluations (the last is the result):
    ``lead_changes``, ``behind`` (how far behind the winner was at worst, in estimated
    chance of winning: 0 when it never trailed) and ``settled`` (the share of the game
    after which the winner led at every sample to the end).

    >>> course_of([(0, (0.6, 0.4)), (5, (0.3, 0.7)), (10, (0.0, 1.0))], 10, 1)
    {'lead_changes': 1, 'behind': 0.19999999999999996, 'settled': 0.5}
    """
    leaders = [_leader(v) for _, v in evals]
    changes, last = 0, None
    for who in leaders:
        if who is not None:
            if last is not None and who != last:
                changes += 1
            last = who
    behind = 0.0
    settled_at = 0.0
    for k, ((_, values), who) in enumerate(zip(evals, leaders, strict=True)):
        if who != winner:
            if who is not None:
                behind = max(behind, values[who] - values[winner])
            nxt = evals[k + 1][0] if k + 1 < len(evals) else decisions
            settled_at = min(1.0, nxt / decisions) if decisions else 1.0
    return {"lead_changes": changes, "behind": behind, "settled": settled_at}


def drama(source: Any = None, *, games: int = 400, players: int | None = None, bots: Any = "greedy", rules: Any = None,
          seed: int = 0, executor: Any = None, progress: Any = True, evaluator: Any = "auto", every: int | None = None,
          playouts: int = 8, ax: Axes | None = None) -> LabResult:
    """Drama and decisiveness, from a position evaluator at sampled decisions of each game
    (``evaluator``, ``every``, ``playouts``: see :func:`~kum_widget.lab.traced`): how
    often the lead changed, how far behind the eventual winner was (drama) and how early
    the winner was settled (decisiveness). Decisive games only (one winner); a solitaire
    has no lead to change."""
    run = run_args(games, players, bots, rules, seed, executor, progress, evaluator=evaluator, every=every, playouts=playouts)
    t = table_of(source, "drama", run)
    import pandas as pd

    if players_of(t) < 2:
        raise GameError("drama: a solitaire has no lead to change (drama needs two players or more)")
    if not any(len(e) for e in t["trace_evals"]):
        raise GameError("drama: this table's games were played with evaluator='none': play them with an evaluator")
    rows: list[dict[str, float]] = []
    curves_w: list[list[float]] = [[] for _ in range(10)]
    curves_r: list[list[float]] = [[] for _ in range(10)]
    for evals, n_win, won, acts in zip(t["trace_evals"], t["n_winners"], t["winners"], t["actions"], strict=True):
        if n_win != 1 or len(evals) < 2:
            continue
        w = int(won[0])
        rows.append(course_of(evals, int(acts), w))
        seen: set[int] = set()
        for i, values in evals[:-1]:  # the winner's and the best loser's chances, by tenth of the game
            b = min(9, 10 * i // max(1, int(acts)))
            if b not in seen:
                seen.add(b)
                curves_w[b].append(values[w])
                curves_r[b].append(max(v for s, v in enumerate(values) if s != w))
    per = pd.DataFrame(rows, columns=["lead_changes", "behind", "settled"])
    g = len(per)
    changes = mean_interval(per["lead_changes"].tolist()) if g else (math.nan,) * 3
    changed = int((per["lead_changes"] > 0).sum())
    trailed = per[per["behind"] > BEHIND]
    deficit = mean_interval(trailed["behind"].tolist()) if len(trailed) else (0.0, math.nan, math.nan)
    settled = mean_interval(per["settled"].tolist()) if g else (math.nan,) * 3
    table = pd.DataFrame([
        {"measure": "lead changes per game", "value": changes[0], "low": changes[1], "high": changes[2], "games": g},
        {"measure": "games with a lead change", "value": changed / g if g else math.nan, "low": wilson(changed, g)[0],
         "high": wilson(changed, g)[1], "games": g},
        {"measure": "games the winner came from behind", "value": len(trailed) / g if g else math.nan,
         "low": wilson(len(trailed), g)[0], "high": wilson(len(trailed), g)[1], "games": g},
        {"measure": "how far behind the winner was (drama)", "value": deficit[0], "low": deficit[1], "high": deficit[2],
         "games": len(trailed)},
        {"measure": "share of the game before the winner was settled (decisiveness)", "value": settled[0],
         "low": settled[1], "high": settled[2], "games": g},
    ]).astype({"games": "int64"})
    if not g:
        reading = "No game had a single winner, so there is no winner's course to read."
    else:
        reading = f"The lead changes {changes[0]:.1f} times a game; "
        if len(trailed):
            reading += (f"the winner came from behind in {percent(len(trailed) / g)}{span_after(*wilson(len(trailed), g))} of games, "
                        f"at worst {deficit[0]:.2f} behind in estimated chance on average, ")
        else:
            reading += "the winner never came from behind, "
        reading += f"and led for good from {percent(settled[0])} of the game on."
    fig, a = axes_of(ax)
    xs = list(range(10))
    for curves, label, colour in ((curves_w, "eventual winner", "#27ae60"), (curves_r, "best of the others", "#c0392b")):
        stats = [mean_interval(c) if len(c) > 1 else (math.nan,) * 3 for c in curves]
        a.plot(xs, [s[0] for s in stats], marker="o", color=colour, label=label)
        a.fill_between(xs, [s[1] for s in stats], [s[2] for s in stats], color=colour, alpha=0.15)
    a.set_xticks(xs, [f"{10 * i}%" for i in xs])
    a.set_ylim(0, 1)
    a.set_xlabel("part of the game")
    a.set_ylabel("estimated chance of winning")
    a.set_title("How the result came about")
    a.legend()
    about = (f"Each seat's chance of winning is estimated by {t.attrs.get('evaluator', 'the evaluator')} at sampled "
             "decisions, seeing every card (an observer's view, after the fact); a game that keeps its generator in "
             "the position is estimated as if its coming draws were known too. The leader is the seat with the best "
             f"chance; the winner came from behind when it trailed by more than {BEHIND:.0%} at some point; drama is how "
             "far the eventual winner trailed at worst, decisiveness how early it took the lead for good (Browne & Maire 2010's drama and lead-change criteria; TAG's DramaMetrics). " + MEAN_LINE + " "
             + WILSON_LINE)
    table.attrs.update(lead_changes=changes[0], came_from_behind=len(trailed) / g if g else math.nan, settled=settled[0],
                       percent_rows=[1, 2, 4])
    return LabResult(table, fig, a, "Drama: how did the winner get there?", per, reading=reading, about=about)
