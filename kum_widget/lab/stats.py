"""Intervals for win rates and mean scores (standard library only).

Each checks its numbers: a count that is not a finite number >= 0 (or wins above games),
values that are not finite numbers, raise a GameError naming them.

>>> lo, hi = wilson(55, 100)
>>> round(lo, 3), round(hi, 3)
(0.452, 0.644)
"""

from __future__ import annotations

import math
import numbers
import statistics
from collections.abc import Iterable, Mapping, Sequence
from statistics import NormalDist
from typing import Any

from ..core.errors import GameError, shown

__all__ = ["Z95", "wilson", "clopper_pearson", "newcombe", "newcombe_paired", "mean_interval", "mean_difference"]

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


def _number(name: str, value: Any, where: str) -> float:
    """``value`` as a float when it is a finite number (an int, a float, a numpy number;
    not True or False), else a GameError naming it."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise GameError(f"{where}: {name} must be a finite number, got {shown(value)}")
    return float(value)


def _counts(where: str, **counts: Any) -> list[float]:
    """The counts (finite numbers >= 0) as floats, or a GameError naming the first that is not."""
    out = []
    for name, value in counts.items():
        x = _number(name, value, where)
        if x < 0:
            raise GameError(f"{where}: {name} must be 0 or more, got {shown(value)}")
        out.append(x)
    return out


def _z(z: Any, where: str) -> float:
    x = _number("z", z, where)
    if x <= 0:
        raise GameError(f"{where}: z must be above 0, got {shown(z)}")
    return x


def _wins(wins: Any, games: Any, where: str, side: str = "") -> tuple[float, float]:
    w, n = _counts(where, **{f"wins{side}": wins, f"games{side}": games})
    if w > n:
        raise GameError(f"{where}: wins{side} ({shown(wins)}) must not be more than games{side} ({shown(games)})")
    return w, n


def _values(name: str, values: Any, where: str) -> list[float]:
    """``values`` (any iterable of finite numbers, such as a list or a pandas Series) as a list."""
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Iterable):
        raise GameError(f"{where}: {name} must be a list of numbers, got {shown(values)}")
    out = list(values)
    bad = [v for v in out if isinstance(v, bool) or not isinstance(v, numbers.Real) or not math.isfinite(v)]
    if bad:
        raise GameError(f"{where}: {name} must hold finite numbers, got {shown(bad[0])} ({len(bad)} of {len(out)} values)")
    return [float(v) for v in out]


def wilson(wins: float, games: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion ``wins / games`` (NaN, NaN without games).

    Unlike ``p +- z * se`` it stays inside [0, 1] and is honest near 0 and 1.

    >>> wilson(0, 10)[0], round(wilson(0, 10)[1], 3)
    (0.0, 0.278)
    """
    wins, games = _wins(wins, games, "wilson")
    z = _z(z, "wilson")
    if games <= 0:
        return math.nan, math.nan
    p = wins / games
    denom = 1 + z * z / games
    center = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    # exact at the ends: no rounding puts the bound on the wrong side of p
    low = 0.0 if wins <= 0 else max(0.0, min(p, center - half))
    high = 1.0 if wins >= games else min(1.0, max(p, center + half))
    return low, high


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (Lentz's method, as Press et
    al.'s betacf): a fixed cost whatever the number of games."""
    tiny, qab, qap, qam = 1e-300, a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        for num in (m * (b - m) * x / ((qam + m2) * (a + m2)), -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def _tail_at_least(x: int, n: int, p: float) -> float:
    """P(X >= x) for X ~ Binomial(n, p): the regularized incomplete beta I_p(x, n - x + 1)."""
    if x <= 0:
        return 1.0
    if x > n or p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0
    a, b = float(x), float(n - x + 1)
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(p) + b * math.log1p(-p))
    if p < (a + 1.0) / (a + b + 2.0):
        return min(1.0, front * _beta_fraction(a, b, p) / a)
    return max(0.0, 1.0 - front * _beta_fraction(b, a, 1.0 - p) / b)


def clopper_pearson(wins: float, games: float, z: float = Z95) -> tuple[float, float]:
    """The exact (Clopper-Pearson, 1934) interval of a proportion, at the two-sided level a
    normal ``z`` stands for: never narrower than it should be. A share that is not a whole
    number (a shared win counting a half) is bounded from below by its whole part and from
    above by the next whole number. (NaN, NaN) without games.

    >>> lo, hi = clopper_pearson(5, 10)
    >>> round(lo, 3), round(hi, 3)
    (0.187, 0.813)
    """
    wins, games = _wins(wins, games, "clopper_pearson")
    z = _z(z, "clopper_pearson")
    if games <= 0:
        return math.nan, math.nan
    n = math.ceil(games)
    half = 1 - NormalDist().cdf(z)  # the error allowed on each side
    below, above = math.floor(wins), math.ceil(wins)

    def root(f: Any) -> float:  # f rises from below 0 to above 0 on [0, 1]
        lo, hi = 0.0, 1.0
        for _ in range(60):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if f(mid) < 0 else (lo, mid)
        return (lo + hi) / 2

    low = 0.0 if below <= 0 else root(lambda p: _tail_at_least(below, n, p) - half)
    high = 1.0 if above >= n else root(lambda p: half - (1 - _tail_at_least(above + 1, n, p)))
    return low, high


def newcombe(wins_a: float, games_a: float, wins_b: float, games_b: float, z: float = Z95) -> tuple[float, float, float]:
    """Difference ``p_b - p_a`` of two proportions with Newcombe's interval (from the
    two Wilson intervals; method 10). Returns (difference, low, high).

    It assumes independent samples; for two variants played on the same seeds it is
    on the wide (safe) side.

    >>> d, lo, hi = newcombe(50, 100, 65, 100)
    >>> round(d, 2), lo > 0
    (0.15, True)
    """
    wins_a, games_a = _wins(wins_a, games_a, "newcombe", "_a")
    wins_b, games_b = _wins(wins_b, games_b, "newcombe", "_b")
    z = _z(z, "newcombe")
    if games_a <= 0 or games_b <= 0:
        return math.nan, math.nan, math.nan
    pa, pb = wins_a / games_a, wins_b / games_b
    la, ua = wilson(wins_a, games_a, z)
    lb, ub = wilson(wins_b, games_b, z)
    d = pb - pa
    return d, d - math.sqrt((pb - lb) ** 2 + (ua - pa) ** 2), d + math.sqrt((ub - pb) ** 2 + (pa - la) ** 2)


def newcombe_paired(both: float, only_a: float, only_b: float, neither: float, z: float = Z95) -> tuple[float, float, float]:
    """Difference ``p_b - p_a`` of two proportions measured on the same units (game i
    under rule A and game i under rule B, dealt from the same seed), with Newcombe's
    interval for paired data (Newcombe 1998, Stat. Med. 17:2635, method 10, with the
    continuity-corrected phi). Counts: wins under both, under A only,
    under B only, under neither. Returns (difference, low, high).

    Pairs that agree narrow the interval: a rule that changes few games gets a tight one.

    >>> newcombe_paired(40, 0, 0, 60)[0]
    0.0
    >>> d, lo, hi = newcombe_paired(40, 2, 12, 46)
    >>> round(d, 2), lo > 0
    (0.1, True)
    """
    both, only_a, only_b, neither = _counts("newcombe_paired", both=both, only_a=only_a, only_b=only_b, neither=neither)
    z = _z(z, "newcombe_paired")
    n = both + only_a + only_b + neither
    if n <= 0:
        return math.nan, math.nan, math.nan
    pa, pb = (both + only_a) / n, (both + only_b) / n
    la, ua = wilson(both + only_a, n, z)
    lb, ub = wilson(both + only_b, n, z)
    margins = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    cross: float = both * neither - only_a * only_b  # Newcombe's phi, with his continuity correction
    cross = cross - n / 2 if cross > n / 2 else cross if cross < 0 else 0.0
    phi = cross / math.sqrt(margins) if margins > 0 else 0.0
    d = pb - pa
    below = (pb - lb) ** 2 - 2 * phi * (pb - lb) * (ua - pa) + (ua - pa) ** 2
    above = (ub - pb) ** 2 - 2 * phi * (ub - pb) * (pa - la) + (pa - la) ** 2
    return d, d - math.sqrt(max(0.0, below)), d + math.sqrt(max(0.0, above))


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean of ``values`` (finite numbers) with its normal 95% interval (``mean +- z *
    sd / sqrt(n)``). Returns (mean, low, high); NaN without values, and (mean, NaN, NaN)
    with one.

    >>> mean_interval([1, 2, 3, 4])[0], [round(b, 2) for b in mean_interval([1, 2, 3, 4])[1:]]
    (2.5, [1.23, 3.77])
    """
    values = _values("values", values, "mean_interval")
    z = _z(z, "mean_interval")
    n = len(values)
    if n == 0:
        return math.nan, math.nan, math.nan
    mean = statistics.fmean(values)
    if n < 2:
        return mean, math.nan, math.nan
    half = z * statistics.stdev(values) / math.sqrt(n)
    return mean, mean - half, mean + half


def mean_difference(a: Sequence[float], b: Sequence[float], *, paired: bool = False, z: float = Z95) -> tuple[float, float, float]:
    """Difference ``mean(b) - mean(a)`` with a 95% interval: for independent samples
    (Welch's standard error), or with ``paired=True`` for two measures of the same units
    (game i under rule A and under rule B: the interval of the mean of ``b[i] - a[i]``).
    Returns (difference, low, high); NaN where a sample is too small.

    >>> d, lo, hi = mean_difference([1, 2, 3, 4], [3, 4, 5, 6])
    >>> d, lo > 0
    (2.0, True)
    >>> mean_difference([1, 2, 3], [2, 3, 4], paired=True)
    (1.0, 1.0, 1.0)
    """
    a, b = _values("a", a, "mean_difference"), _values("b", b, "mean_difference")
    z = _z(z, "mean_difference")
    if not isinstance(paired, bool):
        raise GameError(f"mean_difference: paired must be True or False, got {shown(paired)}")
    if paired:
        if len(a) != len(b):
            raise GameError(f"mean_difference: paired samples need the same length, got {len(a)} and {len(b)}")
        return mean_interval([y - x for x, y in zip(a, b, strict=True)], z)
    if len(a) < 2 or len(b) < 2:
        d = statistics.fmean(b) - statistics.fmean(a) if a and b else math.nan
        return d, math.nan, math.nan
    d = statistics.fmean(b) - statistics.fmean(a)
    half = z * math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
    return d, d - half, d + half
