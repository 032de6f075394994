"""Comparing views and reading scores: :func:`same_views` (``CardGame.same``'s default),
:func:`top_actions` (``CardGame.best_actions``'s) and :func:`finite_scores` (a game's
``scores()`` as the session reads them)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from numbers import Real
from typing import Any

from .errors import GameFault, shown

__all__ = ["finite_scores", "same_views", "top_actions"]


def finite_scores(game: object, scores: Any) -> list[Any]:
    """What ``game.scores()`` gave, as a list of finite numbers, one per seat: a score that
    is not one (NaN, an infinity, text, None, a bool) is a :class:`GameFault` naming the
    game's ``scores()`` and the seat. Read wherever the core takes a session's scores (the
    lab's tables, winners, the record): a NaN there would read as a real result.

    >>> from kum_widget.core.examples import Bust
    >>> finite_scores(Bust(), (1, 0.5))
    [1, 0.5]
    >>> finite_scores(Bust(), [0.0, float("nan")])
    Traceback (most recent call last):
    ...
    kum_widget.core.errors.GameFault: Bust.scores() gave nan for seat 1: scores must be finite numbers
    """
    try:
        out = list(scores)
    except TypeError:  # not a list of anything
        raise GameFault(f"{type(game).__name__}.scores() gave {shown(scores)}: scores must be a list of numbers, one per seat") from None
    for seat, v in enumerate(out):
        kind = type(v)
        if kind is float:  # the usual case first: one test each
            if math.isfinite(v):
                continue
        elif kind is int:  # (an int is finite, and math.isfinite would refuse a huge one)
            continue
        elif isinstance(v, Real) and kind is not bool:  # Fraction, numpy's numbers
            try:
                if math.isfinite(v):
                    continue
            except OverflowError:  # a Fraction past float's range: finite all the same
                continue
        raise GameFault(f"{type(game).__name__}.scores() gave {shown(v)} for seat {seat}: scores must be finite numbers")
    return out


def same_views(a: Any, b: Any) -> bool:
    """``a == b`` for views (JSON-like trees), but a NaN equals a NaN.

    >>> same_views({"odds": [float("nan"), 1]}, {"odds": [float("nan"), 1]})
    True
    """
    if a == b:
        return True
    if isinstance(a, float) and isinstance(b, float):
        return a != a and b != b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_views(v, b[k]) for k, v in a.items())
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(same_views(x, y) for x, y in zip(a, b, strict=True))
    return False


def top_actions(legal: Sequence[int], scores: Sequence[float]) -> list[int]:
    """The actions of ``legal`` whose scores are within 1e-9 of the top one, in order:
    what :meth:`CardGame.best_actions` gives by default (and what the checker expects).

    A NaN score (a bug in the game's heuristic: ``check_game`` names it) counts as the
    worst: never top while another action has a score, and when every score is NaN every
    action ties. Scores that are not numbers are a :class:`GameFault`.

    >>> top_actions([3, 5, 8], [0.5, 2.0, 2.0])
    [5, 8]
    >>> top_actions([3, 5], [float("nan"), 0.5])
    [5]
    """
    try:
        if len(scores) != len(legal):
            raise GameFault(f"the heuristic gave {len(scores)} scores for {len(legal)} actions")
        if len(scores) == 0:  # (not `not scores`: a heuristic may give a numpy array)
            return []
        top = max(scores)  # (a NaN compares false both ways: max() keeps one only when it comes first)
        if top != top:
            numbers = [x for x in scores if x == x]
            if not numbers:  # every score NaN: no opinion, every action ties
                return list(legal)
            top = max(numbers)
        bar = top - 1e-9
        return [a for a, x in zip(legal, scores, strict=False) if x >= bar]  # (checked above: strict costs twice as much)
    except TypeError:  # not numbers (or no list of them)
        raise GameFault(f"the heuristic's scores must be numbers, {_not_numbers(legal, scores)}") from None


def _not_numbers(legal: Sequence[int], scores: Any) -> str:
    """Which of ``scores`` is not a number, in words (for :func:`top_actions`' error)."""
    from numbers import Real

    try:
        for a, x in zip(legal, scores, strict=False):
            if not isinstance(x, Real):
                return f"got {shown(x)} for action {shown(a)}"
    except TypeError:
        pass
    return f"got {shown(scores)}"
