"""The design report's measures of who wins, how long a game lasts and what a player
decides, for any game on the shell.

Each function takes a game (a name, a CardGame or its class; None: the default game) and
plays it with the lab (:func:`~kum_widget.lab.measure.traced`: ``simulate``'s games with their course kept), or
takes a table ``traced`` (or for :func:`balance`, ``simulate``) already gave; each
returns a :class:`~kum_widget.lab.result.LabResult` with a one-line ``reading``, an
``about`` saying what the measure is and where it comes from, the table and a plot.

>>> import kum_widget as kum
>>> t = kum.lab.traced("bust", 30, bots=("random", "greedy"), progress=False)
>>> print(kum.lab.balance(t).table["measure"].iloc[0])
first player's share of decisive games
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..core.errors import GameError, shown
from .measure import MEAN_LINE, WILSON_LINE, players_of, run_args, table_of
from .play import FIRST_COLUMN
from .result import LabResult, axes_of
from .stats import Z95, mean_interval, wilson
from .trace import OPTION_EVERY, OPTION_GAMES
from .words import percent, span_after

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

__all__ = ["balance", "decisions", "length", "target_of"]


def _first_seats(t: pd.DataFrame) -> tuple[list[int], str]:
    """The seat that moved first in each game, and how it is known."""
    if FIRST_COLUMN in t.columns:
        return [int(x) for x in t[FIRST_COLUMN]], f"the game's {FIRST_COLUMN} column"
    if "trace_movers" in t.columns:
        return [int(m[0]) if len(m) else 0 for m in t["trace_movers"]], "the first decision"
    return [0] * len(t), "assumed seat 0 (the table does not say)"


def _frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame(rows, columns=["measure", "value", "low", "high", "games"]).astype({"games": "int64"})


def _bootstrap(winners: list[int], n: int, stat: Callable[[list[float]], float], seed: int = 0) -> tuple[float, float]:
    """A 95% percentile bootstrap interval of ``stat`` (of the seats' shares) over the
    decisive games (each a winning seat); seeded, so the same table gives the same interval."""
    import numpy as np

    if len(winners) < 2:
        return math.nan, math.nan
    rng = np.random.default_rng(seed)
    w = np.asarray(winners)
    draws = rng.integers(0, len(w), size=(500, len(w)))
    counts = np.stack([(w[draws] == s).sum(axis=1) for s in range(n)], axis=1) / len(w)
    values = sorted(stat(list(row)) for row in counts)
    return values[12], values[487]


def _balance_of(shares: list[float]) -> float:
    return 1.0 - (max(shares) - min(shares))


def _uniformity(shares: list[float]) -> float:
    n = len(shares)
    return -sum(p * math.log(p) for p in shares if p > 0) / math.log(n) if n > 1 else math.nan


def balance(source: Any = None, *, games: int = 400, players: int | None = None, bots: Any = "greedy", rules: Any = None,
            seed: int = 0, executor: Any = None, progress: Any = True, ax: Axes | None = None) -> LabResult:
    """Who wins: each seat's share of the decisive games (one winner) and the first
    player's edge; balance (1 - the largest gap between two seats' shares), draws and
    shared wins, and outcome uniformity (how evenly wins spread over seats: 1 is even).
    For a solitaire: the score distribution, the share of games won and of each rank
    (any text column of the game's summary)."""
    t = table_of(source, "balance", run_args(games, players, bots, rules, seed, executor, progress), trace=False)
    n = players_of(t)
    if n == 1:
        return _solitaire(t, ax)
    import pandas as pd

    decisive = t[t["n_winners"] == 1]
    d = len(decisive)
    winners = [int(w[0]) for w in decisive["winners"]]
    shares = [winners.count(s) / d if d else math.nan for s in range(n)]
    firsts, known = _first_seats(t)
    first_wins = sum(1 for w, f, k in zip(t["winners"], firsts, t["n_winners"], strict=True) if k == 1 and int(w[0]) == f)
    fp, (flo, fhi) = (first_wins / d if d else math.nan), wilson(first_wins, d)
    fair = 1 / n
    bal = _balance_of(shares) if d else math.nan
    blo, bhi = _bootstrap(winners, n, _balance_of)
    uni = _uniformity(shares) if d else math.nan
    ulo, uhi = _bootstrap(winners, n, _uniformity, seed=1)
    undecided = int((t["n_winners"] != 1).sum())
    dlo, dhi = wilson(undecided, len(t))
    rows = [
        {"measure": "first player's share of decisive games", "value": fp, "low": flo, "high": fhi, "games": d},
        {"measure": "balance (1 - the largest gap between seats)", "value": bal, "low": blo, "high": bhi, "games": d},
        {"measure": "draws and shared wins", "value": undecided / len(t) if len(t) else math.nan, "low": dlo, "high": dhi,
         "games": len(t)},
        {"measure": "outcome uniformity (1: wins spread evenly)", "value": uni, "low": ulo, "high": uhi, "games": d},
    ]
    for s in range(n):
        lo, hi = wilson(winners.count(s), d)
        rows.append({"measure": f"seat {s}'s share of decisive games", "value": shares[s], "low": lo, "high": hi, "games": d})
    table = _frame(rows)
    if fp != fp:
        verdict = "no game had a single winner"
    elif flo > fair:
        verdict = "a real edge"
    elif fhi < fair:
        verdict = "a real handicap: moving first is a disadvantage"
    else:
        verdict = "no clear edge at this number of games"
    reading = (f"The first player wins {percent(fp)}{span_after(flo, fhi)} of decisive games (an even game: {percent(fair)}): {verdict}; "
               f"balance {bal:.2f}, and {percent(undecided / len(t))} of games end without a single winner.")
    fig, a = axes_of(ax)
    x = list(range(n))
    bounds = [wilson(winners.count(s), d) for s in x]
    lows = [max(0.0, shares[s] - bounds[s][0]) if d else 0.0 for s in x]
    highs = [max(0.0, bounds[s][1] - shares[s]) if d else 0.0 for s in x]
    a.bar(x, shares, yerr=[lows, highs], capsize=4, color=["#c0392b" if s == (firsts[0] if firsts else 0) else "#2e86c1" for s in x])
    a.axhline(fair, ls="--", color="grey", label=f"even ({percent(fair)})")
    a.set_xticks(x, [f"seat {s}" for s in x])
    a.set_ylim(0, 1)  # a share's whole scale
    a.set_yticks([0, 0.25, 0.5, 0.75, 1.0], ["0%", "25%", "50%", "75%", "100%"])
    a.set_ylabel("share of decisive games won")
    a.set_title(f"Wins by seat ({d} decisive games)")
    a.legend()
    about = ("A decisive game has one winner. The first player is found from " + known + ". Balance is 1 minus the largest gap "
             "between two seats' shares (1: every seat wins as often); outcome uniformity is the entropy of the winners' "
             "seats over its largest value (Browne & Maire 2010's balance and uniformity; Ludii's Balance metric). "
             + WILSON_LINE + " Balance and uniformity get a bootstrap interval (500 resamples of the games).")
    table.attrs.update(first_share=fp, balance=bal, draws=undecided / len(t) if len(t) else math.nan,
                       percent_rows=[0, 2, *range(4, 4 + n)])
    return LabResult(table, fig, a, "Balance: who wins?", pd.DataFrame({"winner": winners}), reading=reading, about=about)


def _solitaire(t: pd.DataFrame, ax: Any) -> LabResult:
    import pandas as pd

    scores = [float(x) for x in t["score_0"]]
    mean, lo, hi = mean_interval(scores) if scores else (math.nan,) * 3
    wins = int(t["win_0"].astype(bool).sum())
    wlo, whi = wilson(wins, len(t))
    rows = [{"measure": "mean score", "value": mean, "low": lo, "high": hi, "games": len(t)},
            {"measure": "games won", "value": wins / len(t), "low": wlo, "high": whi, "games": len(t)}]
    ranks = [c for c in t.columns if isinstance(c, str) and not c.startswith("trace_") and t[c].dtype == object
             and c not in ("winners", "bot_0") and t[c].map(lambda v: isinstance(v, str)).all()]
    top = ""
    for col in ranks[:2]:
        counts = t[col].value_counts()
        for value, k in counts.items():
            rlo, rhi = wilson(int(k), len(t))
            rows.append({"measure": f"{col}: {value}", "value": k / len(t), "low": rlo, "high": rhi, "games": len(t)})
        if not top:
            top = f"; the most common {col} is {counts.index[0]} ({percent(counts.iloc[0] / len(t))})"
    table = _frame(rows)
    fig, a = axes_of(ax)
    a.hist(scores, bins=min(30, max(5, len(set(scores)))), color="#2e86c1", edgecolor="white")
    a.axvline(mean, color="#c0392b", label=f"mean {mean:.1f}")
    a.set_xlabel("final score")
    a.set_ylabel("games")
    a.set_title(f"Scores of {len(t)} games")
    a.legend()
    won = f"; {percent(wins / len(t))}{span_after(wlo, whi)} of games are won" if 0 < wins < len(t) else \
        ("; every game is won" if wins else "; no game is won")
    reading = f"Scores average {mean:.1f} [{lo:.1f}, {hi:.1f}]{won}{top}."
    about = ("A solitaire has no seats to balance: what matters is how scores spread and how often the game is won. "
             + MEAN_LINE + " " + WILSON_LINE)
    table.attrs.update(mean_score=mean, won=wins / len(t), percent_rows=list(range(1, len(table))))
    return LabResult(table, fig, a, "Balance: how do games end?", pd.DataFrame({"score": scores}), reading=reading, about=about)


def length(source: Any = None, *, target: tuple[float, float] | None = None, games: int = 400, players: int | None = None,
           bots: Any = "greedy", rules: Any = None, seed: int = 0, executor: Any = None, progress: Any = True,
           ax: Axes | None = None) -> LabResult:
    """How long a game lasts: turns and decisions per game, against ``target`` (the range of
    turns you want, as ``(low, high)``: Ludii's ideal duration), and the games that ran
    past the action limit (left out of the table)."""
    target = target_of(target)
    t = table_of(source, "length", run_args(games, players, bots, rules, seed, executor, progress))
    import pandas as pd

    turns = [int(x) for x in t["trace_turns"]]
    acts = [int(x) for x in t["actions"]]
    rows = []
    for name, values in (("turns per game", turns), ("decisions per game", acts)):
        m, lo, hi = mean_interval(values) if values else (math.nan,) * 3
        rows.append({"measure": name, "value": m, "low": lo, "high": hi, "games": len(values),
                     "median": float(pd.Series(values).median()) if values else math.nan,
                     "fewest": min(values, default=0), "most": max(values, default=0)})
    past = len(t.attrs.get("unfinished", ()))
    reading = f"Games last {rows[0]['value']:.0f} turns on average [{rows[0]['low']:.0f}, {rows[0]['high']:.0f}] " \
              f"({rows[1]['value']:.0f} decisions), from {rows[0]['fewest']} to {rows[0]['most']} turns"
    if target is not None:
        inside = sum(1 for x in turns if target[0] <= x <= target[1])
        below = sum(1 for x in turns if x < target[0])
        for name, k in (("games within the target", inside), ("games shorter than the target", below),
                        ("games longer than the target", len(turns) - inside - below)):
            lo, hi = wilson(k, len(turns))
            rows.append({"measure": name, "value": k / len(turns) if turns else math.nan, "low": lo, "high": hi,
                         "games": len(turns)})
        reading += f"; {percent(inside / len(turns))}{span_after(*wilson(inside, len(turns)))} fall within the target of " \
                   f"{target[0]:g} to {target[1]:g} turns"
    if past:
        reading += f"; {past} games ran past the limit of {t.attrs.get('max_actions')} actions and are left out"
    rows.append({"measure": "games past the action limit (left out)", "value": float(past), "low": math.nan, "high": math.nan,
                 "games": len(t) + past})
    table = pd.DataFrame(rows, columns=["measure", "value", "low", "high", "games", "median", "fewest", "most"])
    table = table.astype({"games": "int64"})
    fig, a = axes_of(ax)
    if target is not None:
        a.axvspan(target[0], target[1], color="#27ae60", alpha=0.15, label="target")
    a.hist(turns, bins=min(30, max(5, len(set(turns)))), color="#2e86c1", edgecolor="white")
    a.set_xlabel("turns")
    a.set_ylabel("games")
    a.set_title(f"Game length ({len(turns)} games)")
    if target is not None:
        a.legend()
    about = ("A turn is the game's own count when it keeps one, else a run of one seat's decisions; a decision is every "
             "action a player (or bot) chose. Browne & Maire (2010) and Ludii score a game lower when it is often shorter "
             "or longer than a designer's ideal duration. " + MEAN_LINE)
    table.attrs.update(mean_turns=rows[0]["value"], past_limit=past, percent_rows=list(range(2, len(table) - 1)),
                       count_rows=[len(table) - 1])
    return LabResult(table, fig, a, "Length: how long is a game?", pd.DataFrame({"turns": turns, "decisions": acts}),
                     reading=reading + ".", about=about)


def target_of(target: Any) -> tuple[float, float] | None:
    """``target=`` checked: None, or (low, high), a range of turns."""
    if target is None:
        return None
    try:
        lo, hi = target
        ok = all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in (lo, hi)) and 0 <= lo <= hi
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise GameError(f"length: target must be None or (low, high), a range of turns with 0 <= low <= high, got {shown(target)}")
    return float(lo), float(hi)


TENTHS = [f"{10 * i}-{10 * i + 10}%" for i in range(10)]


REAL_MARGIN = 0.05
"""A decision is a real choice when its options' estimated chances of winning differ by
more than this (a solitaire: this share of the spread of final scores), beyond the
estimates' noise."""


def decisions(source: Any = None, *, games: int = 400, players: int | None = None, bots: Any = "greedy",
              rules: Any = None, seed: int = 0, executor: Any = None, progress: Any = True,
              ax: Axes | None = None) -> LabResult:
    """What a player decides: legal actions per decision (the branching factor) over the
    course of a game, by tenth of the game; forced moves (one legal action); and, from the
    decisions the option analysis looked at (:func:`traced` with ``options=True``; a game
    given here is traced so), the share of real choices: options that lead to different
    positions (two names for one move are one option) whose estimated chances differ by
    more than :data:`REAL_MARGIN` beyond the estimates' noise. "No decision matters" is
    said only when it is proven: every option of every decision of every game led to the
    same position, or the move was forced."""
    run = run_args(games, players, bots, rules, seed, executor, progress, options=True)
    t = table_of(source, "decisions", run)
    import pandas as pd

    n = players_of(t)
    per_tenth: list[list[float]] = [[] for _ in range(10)]
    open_tenth: list[list[float]] = [[] for _ in range(10)]
    everything: list[int] = []
    for legal in t["trace_legal"]:
        m = len(legal)
        if not m:
            continue
        everything.extend(legal)
        buckets: list[list[int]] = [[] for _ in range(10)]
        for i, k in enumerate(legal):
            buckets[min(9, 10 * i // m)].append(k)
        for b, ks in enumerate(buckets):
            if ks:
                per_tenth[b].append(sum(ks) / len(ks))
                open_tenth[b].append(sum(1 for k in ks if k > 1) / len(ks))
    sampled, real, one, real_tenth = _options(t, n)
    rows: list[dict[str, Any]] = []
    means: list[float] = []
    for b in range(10):
        mb, lo, hi = mean_interval(per_tenth[b]) if per_tenth[b] else (math.nan,) * 3
        means.append(mb)
        rows.append({"part of the game": TENTHS[b], "legal actions (mean)": mb, "low": lo, "high": hi,
                     "more than one action": sum(open_tenth[b]) / len(open_tenth[b]) if open_tenth[b] else math.nan,
                     "real decisions": real_tenth[b][0] / real_tenth[b][1] if real_tenth[b][1] else math.nan,
                     "games": len(per_tenth[b])})
    table = pd.DataFrame(rows).astype({"games": "int64"})
    mean_b: float = sum(everything) / len(everything) if everything else math.nan
    forced = sum(1 for k in everything if k == 1) / len(everything) if everything else math.nan
    rshare, (rlo, rhi) = (real / sampled if sampled else math.nan), wilson(real, sampled)
    proven = bool(len(t)) and "trace_same" in t.columns and bool(t["trace_same"].all())
    peak = max(range(10), key=lambda b: -1.0 if means[b] != means[b] else means[b])
    if proven:
        reading = (f"No decision matters: in all {len(t)} games every option of every decision led to the same "
                   "position, or the move was forced (proven on these games, not estimated).")
    else:
        reading = (f"A player chooses among {mean_b:.1f} legal actions on average (most at {TENTHS[peak]} of the game: "
                   f"{rows[peak]['legal actions (mean)']:.1f}); ")
        if sampled:
            reading += (f"{percent(rshare)}{span_after(rlo, rhi)} of {sampled} decisions looked at are real choices (options "
                        "leading to positions whose estimated chances differ by more than "
                        f"{100 * REAL_MARGIN:.0f} points beyond the estimates' noise), {percent(one / sampled)} offer options "
                        f"that all lead to one position, and {percent(forced)} of all decisions are forced.")
        else:
            reading += (f"{percent(1 - forced)} of decisions offer more than one action and {percent(forced)} are forced "
                        "(real choices are measured on a table from traced(options=True)).")
    fig, a = axes_of(ax)
    xs = list(range(10))
    a.plot(xs, [r["legal actions (mean)"] for r in rows], marker="o", color="#2e86c1", label="legal actions (mean)")
    a.fill_between(xs, [r["low"] for r in rows], [r["high"] for r in rows], color="#2e86c1", alpha=0.2)
    a.set_xticks(xs, [f"{10 * i}%" for i in xs])
    a.set_xlabel("part of the game (by tenth of its decisions)")
    a.set_ylabel("legal actions per decision")
    a.set_title("Branching factor over a game")
    a.set_ylim(bottom=0)
    a2 = a.twinx()
    a2.plot(xs, [r["real decisions"] for r in rows], ls="--", marker=".", color="#c0392b", label="share of real decisions")
    a2.set_ylim(0, 1.05)
    a2.set_yticks([0, 0.25, 0.5, 0.75, 1.0], ["0%", "25%", "50%", "75%", "100%"])
    a2.set_ylabel("share of real decisions")
    lines = a.get_legend_handles_labels(), a2.get_legend_handles_labels()
    a.legend(lines[0][0] + lines[1][0], lines[0][1] + lines[1][1], loc="lower center")
    about = ("The branching factor is the number of legal actions a player chose among; a forced move has exactly one "
             "(Browne & Maire 2010's decisiveness of moves; Ludii's branching-factor metrics). Each game is cut into "
             "tenths of its decisions, so short and long games line up. " + MEAN_LINE + " "
             f"Real choices: at one decision in {t.attrs.get('option_every') or OPTION_EVERY} of the first "
             f"{t.attrs.get('option_games') or OPTION_GAMES} games, every legal action is played on a copy; actions that "
             "lead to the same position are one option; each option's position is estimated for the player who chooses "
             "(the game's evaluate, else playouts); the decision is real when the best and the worst estimate differ "
             f"by more than {100 * REAL_MARGIN:.0f} points of a chance of winning (a solitaire: of the spread of final "
             "scores) plus 1.96 times the standard error of their difference. From playouts, the best and the worst "
             "option are picked on one set of playouts and compared on a fresh one (picked options look further apart "
             "than they are), a share's error counting two more wins and two more losses (Agresti and Coull). "
             + WILSON_LINE + " 'No decision matters' is said only when every decision of every game played led to one "
             "position.")
    table.attrs.update(branching=mean_b, real=rshare, real_low=rlo, real_high=rhi, forced=forced, sampled=sampled,
                       one_position=one / sampled if sampled else math.nan, proven_none=proven,
                       percent_rows=[])
    return LabResult(table, fig, a, "Decisions: how much is there to choose?", reading=reading, about=about,
                     percent=("more than one action", "real decisions"))


def _options(t: pd.DataFrame, n: int) -> tuple[int, int, int, list[list[int]]]:
    """From the option analysis: decisions looked at, real choices among them, those whose
    options all lead to one position, and (real, looked at) by tenth of the game."""
    by_tenth = [[0, 0] for _ in range(10)]
    if "trace_options" not in t.columns:
        return 0, 0, 0, by_tenth
    margin = REAL_MARGIN
    if n == 1 and len(t):
        scores = sorted(float(x) for x in t["score_0"])
        spread = scores[int(0.95 * (len(scores) - 1))] - scores[int(0.05 * (len(scores) - 1))]
        margin = REAL_MARGIN * (spread or max(1.0, abs(scores[-1] - scores[0])))
    sampled = real = one = 0
    for options, legal in zip(t["trace_options"], t["trace_legal"], strict=True):
        m = max(1, len(legal))
        for i, _seat, values, errors, count in options:
            sampled += 1
            tenth = by_tenth[min(9, 10 * int(i) // m)]
            tenth[1] += 1
            if count < 2:
                one += 1
                continue
            if any(errors):  # playouts: the best and the worst option, compared on their fresh estimates
                best, worst, noise = values[2], values[3], Z95 * math.sqrt(errors[2] ** 2 + errors[3] ** 2)
            else:
                best, worst, noise = max(values), min(values), 0.0
            if best - worst - noise > margin:
                real += 1
                tenth[0] += 1
    return sampled, real, one, by_tenth
