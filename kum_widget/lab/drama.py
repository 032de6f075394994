"""The design report's measures of a game's course: drama and decisiveness (how the lead
moved on the way to the result), and what wins (which kinds of play winners make more
than losers). For any game on the shell; each returns a
:class:`~kum_widget.lab.result.LabResult` with its ``reading`` and ``about``.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from ..core.errors import GameError, shown
from .design import MEAN_LINE, WILSON_LINE, _run, _span, pct, players_of, table_of
from .result import LabResult, axes_of
from .simulate import seat_columns
from .stats import mean_difference, mean_interval, newcombe_paired, wilson

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

__all__ = ["drama", "what_wins", "course_of", "BEHIND", "NEWCOMBE_LINE"]

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
    run = _run(games, players, bots, rules, seed, executor, progress, evaluator=evaluator, every=every, playouts=playouts)
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
            reading += (f"the winner came from behind in {pct(len(trailed) / g)}{_span(*wilson(len(trailed), g))} of games, "
                        f"at worst {deficit[0]:.2f} behind in estimated chance on average, ")
        else:
            reading += "the winner never came from behind, "
        reading += f"and led for good from {pct(settled[0])} of the game on."
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
             "decisions, seeing every card (an observer's view, after the fact). The leader is the seat with the best "
             f"chance; the winner came from behind when it trailed by more than {BEHIND:.0%} at some point; drama is how "
             "far the eventual winner trailed at worst, decisiveness how early it took the lead for good (Browne & Maire 2010's drama and lead-change criteria; TAG's DramaMetrics). " + MEAN_LINE + " "
             + WILSON_LINE)
    table.attrs.update(lead_changes=changes[0], came_from_behind=len(trailed) / g if g else math.nan, settled=settled[0],
                       percent_rows=[1, 2, 4])
    return LabResult(table, fig, a, "Drama: how did the winner get there?", per, reading=reading, about=about)


def _kind(kinds: Callable[[str], Any], text: str) -> str:
    try:
        kind = kinds(text)
    except Exception as exc:
        raise GameError(f"what_wins: kinds({text!r}) raised {type(exc).__name__}: {exc}") from None
    return "" if kind is None else str(kind)


def _kinds_by_seat(kinds: Sequence[str], movers: Sequence[int], n: int) -> list[dict[str, int]]:
    out: list[dict[str, int]] = [{} for _ in range(n)]
    for kind, seat in zip(kinds, movers, strict=True):
        if kind:
            out[seat][kind] = out[seat].get(kind, 0) + 1
    return out


def what_wins(source: Any = None, *, by: Literal["actions", "columns"] = "actions", games: int = 400,
              players: int | None = None, bots: Any = "greedy", rules: Any = None, seed: int = 0, executor: Any = None,
              progress: Any = True, kinds: Callable[[str], Any] | None = None, top: int = 12,
              ax: Axes | None = None) -> LabResult:
    """What wins: for each kind of play (``by="actions"``: the kinds of the actions played:
    ``kinds(text)`` of each action's text when given, such as ``lambda text: " ".join(text.split()[:3])``,
    else as the run grouped them, see :func:`~kum_widget.lab.traced`) or each of the game's own per-seat
    summary columns (``by="columns"``), how much more winners did it than losers, paired
    within each game (the winner against each loser), ranked, with 95% intervals. For a
    solitaire: the score of games with it against games without it."""
    if by not in ("actions", "columns"):
        raise GameError(f"what_wins: by must be 'actions' or 'columns', got {shown(by)}")
    if type(top) is not int or top < 1:
        raise GameError(f"what_wins: top must be a whole number >= 1, got {shown(top)}")
    t = table_of(source, "what_wins", _run(games, players, bots, rules, seed, executor, progress),
                 trace=by == "actions")
    n = players_of(t)
    if kinds is not None and not callable(kinds):
        raise GameError(f"what_wins: kinds must be None or a function from an action's text to its kind, got {shown(kinds)}")
    items = _items(t, n, by, kinds)
    if not items:
        raise GameError(f"what_wins: nothing to compare ({'no action kinds' if by == 'actions' else 'the game gives no per-seat columns'})")
    table = (_solitaire_rows if n == 1 else _paired_rows)(t, items)
    table = table.sort_values("effect size", ascending=False, kind="stable").reset_index(drop=True)
    return _wins_result(table, n, by, top, ax)


def _items(t: pd.DataFrame, n: int, by: str, kinds: Callable[[str], Any] | None) -> dict[str, list[list[float]]]:
    """Per item (a kind, or a column): its amount per game and seat."""
    out: dict[str, list[list[float]]] = {}
    if by == "actions":
        if kinds is not None and "trace_actions" not in t.columns:
            raise GameError("what_wins: kinds= needs the actions' texts (trace_actions): a table from kum.lab.traced")
        grouped = t["trace_kinds"] if kinds is None else [tuple(_kind(kinds, a) for a in texts) for texts in t["trace_actions"]]
        for g, (done, movers) in enumerate(zip(grouped, t["trace_movers"], strict=True)):
            for seat, counts in enumerate(_kinds_by_seat(done, movers, n)):
                for kind, k in counts.items():
                    out.setdefault(kind, [[0.0] * n for _ in range(len(t))])[g][seat] = float(k)
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


def _paired_rows(t: pd.DataFrame, items: dict[str, list[list[float]]]) -> pd.DataFrame:
    import pandas as pd

    decisive = [(g, int(w[0])) for g, (k, w) in enumerate(zip(t["n_winners"], t["winners"], strict=True)) if k == 1]
    n = players_of(t)
    rows = []
    for name, amounts in items.items():
        both = only_w = only_l = neither = 0
        diffs, mine, theirs = [], [], []
        for g, w in decisive:
            for loser in range(n):
                if loser == w:
                    continue
                a, b = amounts[g][w] > 0, amounts[g][loser] > 0
                both += a and b
                only_w += a and not b
                only_l += b and not a
                neither += not a and not b
            rest = sum(amounts[g][s] for s in range(n) if s != w) / (n - 1)
            diffs.append(amounts[g][w] - rest)
            mine.append(amounts[g][w])
            theirs.append(rest)
        pairs = both + only_w + only_l + neither
        d, lo, hi = mean_interval(diffs) if len(diffs) > 1 else (math.nan,) * 3
        sd = statistics.stdev(diffs) if len(diffs) > 1 else 0.0
        share = newcombe_paired(both, only_l, only_w, neither)
        rows.append({"what": name, "winner (per game)": sum(mine) / len(mine) if mine else math.nan,
                     "a loser (per game)": sum(theirs) / len(theirs) if theirs else math.nan, "difference": d, "low": lo,
                     "high": hi, "effect size": d / sd if sd > 0 else math.copysign(math.inf, d) if d else 0.0,
                     "winner did it": (both + only_w) / pairs if pairs else math.nan,
                     "a loser did it": (both + only_l) / pairs if pairs else math.nan, "share difference": share[0],
                     "share low": share[1], "share high": share[2], "games": len(decisive)})
    return pd.DataFrame(rows).astype({"games": "int64"})


def _solitaire_rows(t: pd.DataFrame, items: dict[str, list[list[float]]]) -> pd.DataFrame:
    import pandas as pd

    scores = [float(s) for s in t["score_0"]]
    rows = []
    for name, amounts in items.items():
        got = [a[0] for a in amounts]
        # Present in most games: "more of it" (above the median) against the rest.
        cut = statistics.median(got) if sum(1 for x in got if x > 0) >= 0.8 * len(got) else 0.0
        yes = [s for s, x in zip(scores, got, strict=True) if x > cut]
        no = [s for s, x in zip(scores, got, strict=True) if x <= cut]
        if not yes or not no:  # every game alike: nothing to compare
            continue
        d, lo, hi = mean_difference(no, yes)
        sd = statistics.pstdev(scores) if len(scores) > 1 else 0.0
        rows.append({"what": name if cut == 0 else f"{name} (more than {cut:g})", "games with it": len(yes),
                     "score with it": sum(yes) / len(yes),
                     "score without it": sum(no) / len(no), "difference": d, "low": lo, "high": hi,
                     "effect size": d / sd if sd > 0 and d == d else 0.0})
    columns = ["what", "games with it", "score with it", "score without it", "difference", "low", "high", "effect size"]
    return pd.DataFrame(rows, columns=columns).astype({"games with it": "int64"})


def _wins_result(table: pd.DataFrame, n: int, by: str, top: int, ax: Any) -> LabResult:
    shown_rows = table.dropna(subset=["difference"])
    import pandas as pd

    head = shown_rows if len(shown_rows) <= top else pd.concat([shown_rows.head((top + 1) // 2), shown_rows.tail(top // 2)])
    fig, a = axes_of(ax, height=max(2.5, 0.32 * len(head) + 1))
    ys = list(range(len(head)))[::-1]
    col = "effect size" if by == "columns" and n > 1 else "difference"
    bars = head[col]
    if col == "effect size":  # a difference without spread (an infinite effect size) is drawn at the plot's edge
        finite = bars[bars.abs() != math.inf].abs()
        edge = 1.25 * (float(finite.max()) if len(finite) and finite.max() > 0 else 1.0)
        bars = bars.clip(-edge, edge)
    scale = bars / head["difference"].where(head["difference"] != 0) if col == "effect size" else 1.0
    low, high = (head["low"] * scale).fillna(0), (head["high"] * scale).fillna(0)
    a.barh(ys, bars, xerr=[(bars - low).clip(lower=0), (high - bars).clip(lower=0)],
           color=["#27ae60" if lo > 0 else "#c0392b" if hi < 0 else "#95a5a6" for lo, hi in zip(head["low"], head["high"], strict=True)],
           capsize=3)
    a.set_yticks(ys, [str(w) for w in head["what"]])
    a.axvline(0, color="grey")
    a.set_xlabel("score with it minus without" if n == 1 else
                 "times a game, winner minus loser" if by == "actions" else "effect size: winner minus loser, over its spread")
    a.set_title("What wins" if n > 1 else "What scores")
    if len(shown_rows):
        best, worst = shown_rows.iloc[0], shown_rows.iloc[-1]
        if n == 1:
            if best["low"] > 0:
                reading = (f"Games with “{best['what']}” score {best['difference']:+.1f} [{best['low']:+.1f}, "
                           f"{best['high']:+.1f}] more than games without it")
            else:
                reading = "Nothing goes clearly with a higher score"
            reading += (f"; “{worst['what']}” goes with lower scores ({worst['difference']:+.1f})." if worst["high"] < 0
                        else "; nothing goes clearly with a lower score.")
        else:
            unit = "times a game" if by == "actions" else "per game"
            if best["low"] > 0:
                reading = (f"Winners have more “{best['what']}” than losers: {best['winner (per game)']:.1f} against "
                           f"{best['a loser (per game)']:.1f} {unit} ({best['difference']:+.2f} [{best['low']:+.2f}, "
                           f"{best['high']:+.2f}])")
            else:
                reading = "Nothing goes clearly with winning (every interval reaches 0 or below)"
            if worst["high"] < 0:
                reading += (f"; “{worst['what']}” goes most with losing ({worst['a loser (per game)']:.1f} {unit} for a "
                            f"loser against {worst['winner (per game)']:.1f} for the winner).")
            else:
                reading += "; nothing goes clearly with losing."
    else:
        reading = "Nothing could be compared: too few games with and without each item."
    about = ("Paired within each decisive game: the winner against the losers' average, so the deal is the same on both "
             "sides; ranked by effect size (the difference over its spread), so rare and common items compare. "
             "The share columns say how many winners and losers did it at all; " + NEWCOMBE_LINE + " " + MEAN_LINE if n > 1 else
             "A solitaire's games with an item against those without it (Welch's difference of means). " + MEAN_LINE)
    about += " An association, not a cause: strong players may simply get to play a strong card more."
    table.attrs.update(best=str(shown_rows.iloc[0]["what"]) if len(shown_rows) else None)
    shown = (("what", "winner (per game)", "a loser (per game)", "difference", "low", "high", "games") if n > 1 else
             ("what", "games with it", "score with it", "score without it", "difference", "low", "high"))
    words = {"difference": "winner minus loser" if n > 1 else "with minus without"}
    return LabResult(table, fig, a, "What wins?" if n > 1 else "What scores?", reading=reading, about=about, labels=words,
                     shown=tuple(c for c in shown if c in table.columns),
                     percent=("winner did it", "a loser did it", "share difference", "share low", "share high"))
