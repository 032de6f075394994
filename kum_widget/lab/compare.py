"""``compare``: two rule variants of any game side by side, with 95% intervals.

pandas and matplotlib load inside the function.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from ..core.errors import GameError, shown
from ..core.game import CardGame
from . import readings as say
from .analysis import rate_table
from .play import DEFAULT_MAX_ACTIONS, BotSpec, changed_options, the_game, title_of, with_rules
from .render import column_words
from .result import LabResult, axes_of
from .simulate import simulate
from .stats import mean_difference, mean_interval, newcombe, newcombe_paired, wilson
from .tables import game_columns, length_column, need_results, per_seat
from .workers import pool_for

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

__all__ = ["compare"]


def _options_text(game: CardGame) -> str:
    """A game's changed options in words ("stuck=draw"), or "standard rules"."""
    return ", ".join(f"{k}={v}" for k, v in changed_options(game).items()) or "standard rules"


def _describe(variant: CardGame | pd.DataFrame) -> str:
    """A variant in words: its changed rules (a table: as kept in its attrs)."""
    if isinstance(variant, CardGame):
        return _options_text(variant)
    changed = variant.attrs.get("rules_changed")
    if not isinstance(changed, dict):
        return "given table"
    return ", ".join(f"{k}={v}" for k, v in changed.items()) or "standard rules"


def _variant(value: Any, game: CardGame) -> CardGame:
    """A variant (rules for ``game``) as the game it plays."""
    if value is None:
        return game
    if isinstance(value, CardGame):
        return value
    try:
        return with_rules(game, value, "compare")
    except ValueError as exc:
        if isinstance(value, Mapping):
            raise
        why = str(exc).removeprefix("compare: ")
        raise GameError(
            f"compare: a variant is a dict of {title_of(game)} options, None, a simulate table or what the "
            f"game's with_options takes; got {shown(value)} ({why})"
        ) from None


def _paired(fa: pd.DataFrame, fb: pd.DataFrame) -> tuple[int, int, int, int] | None:
    """(both, only A, only B, neither) wins when the two runs played the same games
    (the same game numbers dealt from the same seeds), else None."""
    if len(fa) != len(fb) or fa["game"].duplicated().any() or fb["game"].duplicated().any():
        return None
    m = fa[["game", "seed", "win"]].merge(fb[["game", "seed", "win"]], on="game", suffixes=("_a", "_b"))
    if len(m) != len(fa) or not (m["seed_a"] == m["seed_b"]).all():
        return None
    wa, wb = m["win_a"].astype(bool), m["win_b"].astype(bool)
    return int((wa & wb).sum()), int((wa & ~wb).sum()), int((~wa & wb).sum()), int((~wa & ~wb).sum())


def compare(
    a: Any,
    b: Any,
    games: int = 1000,
    *,
    players: int | None = None,
    bots: BotSpec | Sequence[BotSpec] = "greedy",
    seed: int = 0,
    executor: Any = None,
    progress: bool = True,
    labels: Sequence[str] | None = None,
    seat: int | str = "first",
    game: Any = None,
    ax: Sequence[Axes] | None = None,
    max_actions: int | None = DEFAULT_MAX_ACTIONS,
    unfinished: Literal["raise", "skip"] = "raise",
) -> LabResult:
    """Two rule variants side by side: "does changing X move the first-player advantage?"

    ``a`` and ``b`` are rules of ``game`` (a name, a CardGame or its class, as for
    ``simulate``; default: the game of a table given, else Kings Under Mountains): a dict
    of changed options, ``None`` for the game as given, what its ``with_options`` takes
    (a ``kum.Rules``) or a game (``Bust(limit=25)``); or tables ``simulate`` already
    returned. Both variants play
    the same game seeds (so where the setup is unchanged they start from the same deals).
    ``seat`` is the seat whose win rate is compared: ``"first"`` (whoever moved first, by
    the game's ``first_player`` column; seat 0 for a game without one) or a seat number.

    The table has a row per variant and a ``B - A`` row: ``win_rate`` with its 95%
    interval (Wilson per variant; Newcombe's for the difference: for paired data when
    both runs played the same game seeds, so games the rule change does not touch
    narrow it; for independent samples otherwise), the share of shared wins, mean score
    of that seat with its 95% interval (``score_low``, ``score_high``; for ``B - A`` the
    interval of the difference, paired by game seed when the runs share their seeds),
    and per game the mean length (``turns``, else ``actions``) and of the
    game's own numeric columns (Kings Under Mountains: ``claims``, ``claims_by_other``,
    ``stuck``...). ``games`` and ``wins`` are whole numbers (``<NA>`` in the ``B - A`` row);
    ``table.attrs["interrupted"]`` says, per variant, whether Ctrl-C stopped its run. A
    notebook shows the rules, the counts, the win rate and the mean score, the rest under
    "all N columns". ``data`` is both runs in one table, with a ``variant`` column. The
    figure: win rate of every seat under each variant, and game lengths. For a solitaire
    (one seat, which always wins: ``game="court"``) the question is the score, so the
    left plot shows the two score distributions instead.

    ``max_actions`` and ``unfinished`` go to ``simulate`` (a game that does not end).
    A table given must hold games. Ctrl-C during A's run stops there (B is not played:
    its row is NaN); before any game of A ended, the KeyboardInterrupt goes on.
    """
    import pandas as pd

    inputs = [a, b]
    tables = [v for v in inputs if isinstance(v, pd.DataFrame)]
    for t in tables:
        need_results(t, "compare", game_level=("game", "seed", "players", "n_winners"), per=("bot", "score", "win"))
    if game is None and tables:  # the game of the table given (each variant says its own rules)
        game = tables[0].attrs.get("game_class") or tables[0].attrs.get("game") or None
    the = the_game(game, "compare")
    if not ((isinstance(seat, str) and seat == "first")
            or (type(seat) is int and seat >= 0 and (len(tables) == 2 or players is None or seat < players))):
        span = f"0..{players - 1}" if isinstance(players, int) else ">= 0"
        raise GameError(f"compare: seat must be 'first' or a seat number {span}, got {shown(seat)}")
    variants = [v if isinstance(v, pd.DataFrame) else _variant(v, the) for v in inputs]
    if labels is None:
        names = [_describe(v) for v in variants]
        labels = [f"A: {names[0]}", f"B: {names[1]}"]
    elif (isinstance(labels, str) or not isinstance(labels, Sequence) or len(labels) != 2
          or not all(isinstance(x, str) for x in labels) or len(set(labels)) != 2):
        raise GameError(f"compare: labels must be two different names, got {shown(labels)}")
    frames: list[pd.DataFrame] = []
    with pool_for(executor if len(tables) < 2 else None, "compare") as pool:
        for v, label in zip(variants, labels, strict=True):
            if isinstance(v, pd.DataFrame):
                df = v
            elif frames and frames[-1].attrs.get("interrupted"):
                df = frames[-1].iloc[0:0].drop(columns="variant")  # Ctrl-C: do not start the next run
                df.attrs = {"interrupted": True}
            else:
                try:
                    df = simulate(games, players, bots, None, seed, pool or executor, progress, game=v,
                                  max_actions=max_actions, unfinished=unfinished)
                except KeyboardInterrupt:
                    if not frames or len(frames[-1]) == 0:
                        raise  # stopped before any game of either variant ended: nothing to compare
                    df = frames[-1].iloc[0:0].drop(columns="variant")  # B stopped before a game ended
                    df.attrs = {"interrupted": True}
            frames.append(df.assign(variant=label))
    data = pd.concat(frames, ignore_index=True)
    data["variant"] = pd.Categorical(data["variant"], categories=list(labels))
    long = per_seat(data)
    seats = sorted(long["seat"].unique())
    if seat == "first" and "first" in long.columns:
        focus, who = long[long["first"]], "the first player"
    else:
        chosen = 0 if seat == "first" else seat
        if chosen not in seats:
            raise GameError(f"compare: seat must be 'first' or a seat of these games ({', '.join(map(str, seats))}), got {seat!r}")
        focus, who = long[long["seat"] == chosen], f"seat {chosen}"
    length = length_column(data)
    per_game = [length, *(c for c in game_columns(data.drop(columns="variant")) if c != length)]
    rows: dict[str, dict[str, Any]] = {}
    stopped: dict[str, bool] = {}
    for v, label, frame in zip(variants, labels, frames, strict=True):
        f = focus[focus["variant"] == label]
        wins, n = int(f["win"].sum()), len(f)
        low, high = wilson(wins, n)
        rows[label] = {
            "rules": _describe(v),
            "games": n, "wins": wins, "win_rate": wins / n if n else math.nan, "low": low, "high": high,
            "shared_rate": float(f["shared"].mean()) if n else math.nan,
            **dict(zip(("mean_score", "score_low", "score_high"), mean_interval(f["score"].astype(float).tolist()), strict=True)),
            **{c: float(frame[c].mean()) if n and c in frame.columns else math.nan for c in per_game},
        }
        stopped[label] = bool(frame.attrs.get("interrupted", False))
    ra, rb = rows[labels[0]], rows[labels[1]]
    pairs = _paired(focus[focus["variant"] == labels[0]], focus[focus["variant"] == labels[1]])
    if pairs is not None:
        d, dlow, dhigh = newcombe_paired(*pairs)
    else:
        d, dlow, dhigh = newcombe(ra["wins"], ra["games"], rb["wins"], rb["games"])
    method = "paired by game seed" if pairs is not None else "independent samples"
    sd, slow, shigh = _score_difference(focus, labels, paired=pairs is not None)
    rows["B - A"] = {
        "rules": f"difference ({method})", "games": math.nan, "wins": math.nan, "win_rate": d, "low": dlow, "high": dhigh,
        **{k: rb[k] - ra[k] for k in ("shared_rate", *per_game)},
        "mean_score": sd, "score_low": slow, "score_high": shigh,
    }
    t = pd.DataFrame.from_dict(rows, orient="index")
    t = t.astype({"games": "Int64", "wins": "Int64"})  # counts (none for the difference)
    t.index.name = "variant"
    t.attrs["interrupted"] = stopped  # per variant: a run stopped by Ctrl-C
    solitaire = int(data["players"].max()) == 1
    words = {"win_rate": f"win rate of {who}", "mean_score": "mean score" if solitaire else f"mean score of {who}"}
    columns = ("rules", "games", *(() if solitaire else ("wins", "win_rate", "low", "high")),
             "mean_score", "score_low", "score_high", length)
    about = say.compare_about(method, solitaire)

    fig, axes = axes_of(ax, 2)
    left, right = axes[0], axes[1]
    if solitaire:  # a solitaire: its one seat always wins, so its score is the question
        _score_panel(left, focus, labels)
        s_text = f"{sd:+.2f} [{slow:+.2f}, {shigh:+.2f}]" if not math.isnan(slow) else f"{sd:+.2f}"
        _length_panel(right, data, labels, length)
        title = f"Mean score: B - A = {s_text} (95% interval)"
        fig.suptitle(title, fontsize="medium")
        return LabResult(t, fig, axes, title, data, reading=say.compare_score_reading(t, labels), about=about,
                         shown=columns, labels=words)
    per = rate_table(long, ["variant", "seat"])
    mine = set(focus.loc[focus["variant"] == labels[1], "seat"])  # the seats the compared player sat at
    width = 0.8 / len(labels)
    for k, label in enumerate(labels):
        if label not in per.index.get_level_values("variant"):
            continue
        sub = per.xs(label, level="variant").reindex(seats)
        x = [s + (k - (len(labels) - 1) / 2) * width for s in seats]
        r = sub["win_rate"].to_numpy()
        left.bar(x, r, width=width * 0.95, yerr=[r - sub["low"].to_numpy(), sub["high"].to_numpy() - r],
                 capsize=4, label=label, color=f"C{k}", alpha=0.85)
    left.set_xticks(seats, [f"seat {s}" for s in seats])
    left.set_ylabel("win rate (ties count as wins)")
    left.set_ylim(0, 1.1)  # a rate's whole scale, 0 to 100% (and room above)
    left.yaxis.set_major_formatter(lambda x, _: f"{x:.0%}")
    fair = per["fair"].dropna().unique()
    if len(fair) == 1:
        left.axhline(fair[0], color="0.4", linestyle="--", linewidth=1)
    left.legend(fontsize="small", loc="upper right")
    left.set_title("Win rate by seat, 95% intervals", fontsize="medium")
    _length_panel(right, data, labels, length)
    d_text = f"{d:+.1%} [{dlow:+.1%}, {dhigh:+.1%}]" if not math.isnan(d) else "n/a"
    title = f"Win rate of {who}: B - A = {d_text}"
    fig.suptitle(title, fontsize="medium")
    return LabResult(t, fig, axes, title, data, reading=say.compare_reading(t, labels, who, per, mine), about=about,
                     shown=columns, labels=words)


def _score_difference(focus: pd.DataFrame, labels: Sequence[str], *, paired: bool) -> tuple[float, float, float]:
    """Mean score under B minus under A with its 95% interval (paired by game number)."""
    fa, fb = (focus[focus["variant"] == label] for label in labels)
    if paired:
        m = fa[["game", "score"]].merge(fb[["game", "score"]], on="game", suffixes=("_a", "_b"))
        return mean_difference(m["score_a"].astype(float).tolist(), m["score_b"].astype(float).tolist(), paired=True)
    return mean_difference(fa["score"].astype(float).tolist(), fb["score"].astype(float).tolist())


def _score_panel(ax: Axes, focus: pd.DataFrame, labels: Sequence[str]) -> None:
    scores = focus["score"].astype(float)
    lo, hi = math.floor(scores.min()), math.ceil(scores.max())
    bins = list(range(lo, hi + 2, max(1, (hi - lo + 1) // 30 or 1)))
    for k, label in enumerate(labels):
        mine = focus.loc[focus["variant"] == label, "score"].astype(float)
        ax.hist(mine, bins=bins, histtype="step", density=True, linewidth=1.5, color=f"C{k}", label=label)
        if len(mine):
            ax.axvline(float(mine.mean()), color=f"C{k}", linestyle="--", linewidth=1)
    ax.set_xlabel("final score (dashed: the mean)")
    ax.set_ylabel("share of games")
    ax.legend(fontsize="small")
    ax.set_title("Score", fontsize="medium")


def _length_panel(ax: Axes, data: pd.DataFrame, labels: Sequence[str], length: str) -> None:
    lo, hi = int(data[length].min()), int(data[length].max())
    bins = list(range(lo, hi + 2, max(1, (hi - lo + 1) // 30 or 1)))
    for k, label in enumerate(labels):
        ax.hist(data.loc[data["variant"] == label, length], bins=bins, histtype="step", density=True,
                linewidth=1.5, color=f"C{k}", label=label)
    ax.set_xlabel(column_words(length))
    ax.set_ylabel("share of games")
    ax.set_title("Game length", fontsize="medium")
    ax.legend(fontsize="small")
