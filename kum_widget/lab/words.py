"""Figures in words, the same everywhere: a report's readings and a notebook's prose both
call these, so the words a class reads ("about half", "almost never") always agree with
the figure and its interval beside them.

>>> share_words(0.5, 0.42, 0.58)
'about half'
>>> share_words(0.02, 0.0, 0.04)
'almost none'
>>> often_words(0.112, 0.09, 0.14)
'sometimes'
"""

from __future__ import annotations

import math
import numbers
from typing import Any

from ..core.errors import GameError, shown

__all__ = ["share_words", "often_words", "percent", "span"]


def _ok(*xs: Any) -> bool:
    """Finite real numbers (a numpy number is one; True and False are not)."""
    return all(isinstance(x, numbers.Real) and not isinstance(x, bool) and math.isfinite(x) for x in xs)


def _interval(share: Any, low: Any, high: Any) -> bool:
    """A share with a 95% interval around it, all within 0..1."""
    return _ok(share, low, high) and 0 <= low <= share <= high <= 1


def _digits(digits: Any) -> int:
    if type(digits) is not int or not 0 <= digits <= 6:
        raise GameError(f"digits must be a whole number 0..6, got {shown(digits)}")
    return digits


def share_words(share: float, low: float, high: float) -> str:
    """A share of a whole, in words read off its 95% interval: "almost none", "a small
    part", "about half", "most", "almost all", or "an uncertain part" when the interval
    spans more than one of those."""
    if not _interval(share, low, high):
        return "an unknown part"
    if high <= 0.05:
        return "almost none"
    if low >= 0.95:
        return "almost all"
    if high < 0.35:
        return "a small part"
    if low > 0.65:
        return "most"
    if 0.3 <= low and high <= 0.7:
        return "about half"
    return "an uncertain part"


def often_words(rate: float, low: float, high: float) -> str:
    """How often something happens, in words read off its 95% interval: "never" (none seen
    and the interval under 2%), "almost never", "sometimes", "about half the time",
    "usually", "almost always", "always" (every time, the interval above 98%), or "some
    of the time" when the interval spans more than one of those."""
    if not _interval(rate, low, high):
        return "an unknown share of the time"
    if rate == 0 and high < 0.02:
        return "never"
    if rate == 1 and low > 0.98:
        return "always"
    if high <= 0.05:
        return "almost never"
    if low >= 0.95:
        return "almost always"
    if 0.35 <= low and high <= 0.65:
        return "about half the time"
    if low > 0.6:
        return "usually"
    if high < 0.4:
        return "sometimes"
    return "some of the time"


def percent(x: Any, digits: int = 0) -> str:
    """A share as a percentage ("56%"); NaN (or anything but a finite number) is "n/a"."""
    digits = _digits(digits)
    return "n/a" if not _ok(x) else f"{100 * float(x):.{digits}f}%"


def span_after(low: Any, high: Any, digits: int = 0) -> str:
    """:func:`span` to follow a share in a sentence (``56% [50, 62]``): a space before it,
    or nothing when the interval is unknown."""
    return " " + span(low, high, digits) if _ok(low, high) else ""


def span(low: Any, high: Any, digits: int = 0) -> str:
    """A 95% interval of a share in percentage points ("[52, 60]"); nothing without one."""
    digits = _digits(digits)
    return "" if not _ok(low, high) else f"[{100 * float(low):.{digits}f}, {100 * float(high):.{digits}f}]"
