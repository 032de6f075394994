"""The words of the lab's results: each helper's answer in one plain sentence (its
``reading``) and what its figures mean and where they come from (its ``about``).

A reading says what the numbers show, with the 95% interval that says how sure they are;
it calls a difference real only when the interval leaves out "no difference".
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

from .render import column_words
from .stats import wilson

WILSON = ("The 95% interval in brackets is Wilson's (1927): the range of rates these games are consistent with; "
          "unlike the plain plus-or-minus it stays inside 0-100% and is honest for small counts.")
NEWCOMBE = ("The interval of a difference of two rates is Newcombe's (1998), built from the two Wilson intervals "
            "(paired game by game when both variants played the same seeds, which narrows it): when it leaves out 0, "
            "the change is real, not chance.")
MEAN = ("A mean's 95% interval is the mean plus or minus 1.96 standard errors (a normal approximation, "
        "good from a few dozen games).")
TIES = "A shared win (a tie on the top score) counts as a win for every seat in the tie."


def pc(x: float, sign: bool = False) -> str:
    """A rate in per cent ("52.4%", or "+4.9%" with ``sign``)."""
    return "n/a" if x is None or math.isnan(x) else (f"{x:+.1%}" if sign else f"{x:.1%}")


def num(x: float, sign: bool = False) -> str:
    """A mean or a difference of means, to one decimal."""
    return "n/a" if x is None or math.isnan(x) else (f"{x:+.1f}" if sign else f"{x:.1f}")


def bracket(low: float, high: float, fmt: Any = pc, sign: bool = False) -> str:
    """" [low, high]", or nothing when there is no interval."""
    return "" if math.isnan(low) or math.isnan(high) else f" [{fmt(low, sign)}, {fmt(high, sign)}]"


def by_words(keys: Sequence[str]) -> str:
    """What a table is grouped by, in words ("seat", "bot", "who moved first")."""
    return " and ".join("who moved first" if k == "first" else column_words(k) for k in keys)


def group_name(keys: Sequence[str], value: Any) -> str:
    """One group of a table in words: "seat 0", "the greedy bot", "the first player"."""
    values = value if isinstance(value, tuple) and len(keys) > 1 else (value,)
    words = []
    for k, v in zip(keys, values, strict=False):
        if k == "seat":
            words.append(f"seat {v}")
        elif k == "first":
            words.append("the first player" if v else "the players who did not move first")
        elif k == "bot":
            words.append(f"the {v} bot")
        elif k == "variant":  # compare's data: the rules a game was played under
            words.append(f"under {v}")
        elif isinstance(v, str):
            words.append(f"{v} ({column_words(k)})")
        else:
            words.append(f"{column_words(k)} {v}")
    return ", ".join(words)


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def score_words(column: str, players: int | None = None) -> str:
    """A score column in words: "score" (a solitaire's ``score_0``), "seat 1's score"."""
    m = re.fullmatch(r"score_(\d+)", column)
    if m:
        return "score" if players == 1 else f"seat {m[1]}'s score"
    return "score" if column == "score" else column_words(column)


# -- one helper each -------------------------------------------------------------------------


def win_rate_reading(t: Any, keys: Sequence[str]) -> str:
    """The group farthest from an even game, and whether its interval leaves the even rate out."""
    if len(t) == 0:
        return "No games to count."
    fair = t["fair"].dropna().unique()
    if len(fair) != 1:
        hi, lo = t["win_rate"].idxmax(), t["win_rate"].idxmin()
        return (f"{cap(group_name(keys, hi))} wins most often, {pc(t.loc[hi, 'win_rate'])}"
                f"{bracket(t.loc[hi, 'low'], t.loc[hi, 'high'])}, and {group_name(keys, lo)} least, "
                f"{pc(t.loc[lo, 'win_rate'])}{bracket(t.loc[lo, 'low'], t.loc[lo, 'high'])}.")
    even = float(fair[0])
    far = (t["win_rate"] - even).abs().idxmax()
    row = t.loc[far]
    told = f"{pc(row['win_rate'])} of {int(row['games'])} games{bracket(row['low'], row['high'])}"
    if row["low"] > even or row["high"] < even:
        side = "more" if row["low"] > even else "less"
        return (f"{cap(group_name(keys, far))} wins {told}, {side} often than the {even:.0%} of an even game: "
                f"the interval leaves {even:.0%} out, so the difference is real, not chance.")
    if len(t) == 1:
        return f"{cap(group_name(keys, far))} wins {told}: the interval includes the {even:.0%} of an even game."
    noun = keys[0] if list(keys) in (["seat"], ["bot"]) else "group"
    return (f"No {noun} wins clearly more or less often than in an even game ({even:.0%}): every interval "
            f"includes it (the farthest, {group_name(keys, far)}, wins {told}).")


def win_rate_about(players: Sequence[int]) -> str:
    even = f"1 in {players[0]}" if len(set(players)) == 1 else "1 in the number of players"
    return (f"Win rate: the share of its games each group won. {TIES} {WILSON} "
            f"The dashed line is an even game ({even}).")


def score_reading(t: Any, keys: Sequence[str], what: str) -> str:
    if len(t) == 1:
        only = t.iloc[0]
        return (f"The mean {what} is {num(only['mean'])}{bracket(only['mean_low'], only['mean_high'], num)} over "
                f"{int(only['games'])} games; half of the games end between {num(only['q25'])} and {num(only['q75'])}.")
    hi, lo = t["mean"].idxmax(), t["mean"].idxmin()
    a, b = t.loc[hi], t.loc[lo]
    verdict = ("their intervals do not overlap, so the difference is real" if a["mean_low"] > b["mean_high"]
               else "their intervals overlap, so the difference may be chance")
    return (f"{cap(group_name(keys, hi))} has the highest mean {what}, {num(a['mean'])}"
            f"{bracket(a['mean_low'], a['mean_high'], num)}, and {group_name(keys, lo)} the lowest, "
            f"{num(b['mean'])}{bracket(b['mean_low'], b['mean_high'], num)}: {verdict}.")


SCORE_ABOUT = (f"In the box plot the box holds the middle half of the games (from the lower to the upper quartile), "
               f"the line in it is the median, the whiskers reach the rest but the outliers (circles), and the "
               f"triangle is the mean. {MEAN} The other columns are per-seat means of the game's own counts.")


def length_reading(t: Any, unit: str) -> str:
    if len(t) == 1:
        row = t.iloc[0]
        return (f"A game lasts {num(row['mean'])} {unit} on average; 8 games in 10 last between "
                f"{row['10%']:.0f} and {row['90%']:.0f} {unit}.")
    means = "; ".join(f"{name}: {num(row['mean'])}" for name, row in t.iterrows())
    return f"Mean length in {unit} by {column_words(t.index.name or 'group')}: {means}."


def length_about(unit: str) -> str:
    return (f"Length in {unit}: the game's own count of turns when it keeps one, else every action taken "
            "(each play, draw or choice). The 10th and 90th percentiles bound the middle 8 games in 10.")


def matchup_reading(t: Any) -> str:
    if len(t) == 0:
        return "No games to count."
    others = t[t["bot"] != t["opponent"]]
    if len(others) == 0:
        return "Each bot played only itself."
    names = sorted(set(others["bot"]))
    if len(names) == 2:
        row = others[others["bot"] == names[0]].iloc[0]
        if row["win_rate"] < 0.5:
            row = others[others["bot"] == names[1]].iloc[0]
        clear = "a clear edge" if row["low"] > 0.5 else "not clearly better than even"
        return (f"The {row['bot']} bot wins {pc(row['win_rate'])}{bracket(row['low'], row['high'])} of its "
                f"{int(row['games'])} games against the {row['opponent']} bot: {clear}.")
    pooled = others.groupby("bot")[["wins", "games"]].sum()
    best = (pooled["wins"] / pooled["games"]).idxmax()
    w, n = int(pooled.loc[best, "wins"]), int(pooled.loc[best, "games"])
    low, high = wilson(w, n)
    return f"The {best} bot is the strongest here: it wins {pc(w / n)}{bracket(low, high)} of its {n} games against the others."


MATCHUP_ABOUT = ("Each cell: the row bot's win rate against the column bot, over the games where they met "
                 f"(seats alternating). {TIES} So the two rates of a pair can add up to more than 100%. {WILSON}")


def compare_reading(t: Any, labels: Sequence[str], who: str, per: Any = None, mine: Any = ()) -> str:
    """A rate compared: its two values, the change with Newcombe's interval, and another
    seat (not one of ``mine``, the seats ``who`` sat at) that wins clearly more than an
    even game under B: an edge the change hands over."""
    a, b, d = t.loc[labels[0]], t.loc[labels[1]], t.loc["B - A"]
    if math.isnan(d["win_rate"]):
        return f"{cap(who)}'s win rate could not be compared: a variant has no games."
    change = ("rule B clearly raises it" if d["low"] > 0 else "rule B clearly lowers it" if d["high"] < 0
              else "too close to tell from no change")
    text = (f"{cap(who)} wins {pc(a['win_rate'])} of games under A and {pc(b['win_rate'])} under B: "
            f"B - A = {pc(d['win_rate'], True)}{bracket(d['low'], d['high'], pc, True)}, {change}")
    if per is not None and labels[1] in per.index.get_level_values("variant"):
        under_b = per.xs(labels[1], level="variant")
        ahead = under_b[(under_b["low"] > under_b["fair"]) & ~under_b.index.isin(list(mine))]
        if len(ahead):
            seat, row = next(iter(ahead.iterrows()))
            text += (f"; under B seat {seat} wins {pc(row['win_rate'])}{bracket(row['low'], row['high'])}, "
                     f"more than the {row['fair']:.0%} of an even game")
    return text + "."


def compare_score_reading(t: Any, labels: Sequence[str]) -> str:
    a, b, d = t.loc[labels[0]], t.loc[labels[1]], t.loc["B - A"]
    change = ("B clearly scores higher" if d["score_low"] > 0 else "B clearly scores lower" if d["score_high"] < 0
              else "too close to tell from no change")
    return (f"The mean score is {num(a['mean_score'])} under A and {num(b['mean_score'])} under B: B - A = "
            f"{num(d['mean_score'], True)}{bracket(d['score_low'], d['score_high'], num, True)} points, {change}.")


def compare_about(method: str, solitaire: bool) -> str:
    same = ("Both variants played the same game seeds, so they start from the same deals where the rules leave "
            "the setup alone" if method.startswith("paired") else "The two variants played different games")
    rates = "" if solitaire else f" {WILSON} {NEWCOMBE}"
    return (f"{same}.{rates} {MEAN} The difference of two mean scores is paired game by game when the seeds match "
            "(Welch's otherwise). The other columns are means per game; the B - A row gives their differences.")


def feature_reading(t: Any, labels: dict[str, str], n: int) -> str:
    clear = t[(t["diff_low"] > 0) | (t["diff_high"] < 0)]
    if len(clear) == 0:
        return (f"No feature goes with a clearly higher or lower score: every interval of the difference includes 0 "
                f"({len(t)} features, {n} games).")
    name = clear["difference"].abs().idxmax()
    row = t.loc[name]
    more = f"; {len(clear)} of the {len(t)} differ clearly" if len(clear) > 1 else ""
    return (f"Games with {labels.get(name, column_words(name))} score {num(row['difference'], True)}"
            f"{bracket(row['diff_low'], row['diff_high'], num, True)} points against games without it, "
            f"the largest clear difference{more} (an association, not a cause).")


FEATURE_ABOUT = (f"Share: the games in which the count is above 0. {WILSON} Difference: the mean score of the games "
                 "with it minus that of the games without, with a 95% interval (Welch's: two groups of different "
                 "sizes). It measures an association, not a cause: a bot may buy a card in the games that go well "
                 "anyway. To measure a card's effect, change the rules and compare the variants.")
