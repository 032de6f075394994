"""Bust with scores that are not finite numbers (a game's bug): NaN, an infinity, text.

The core refuses them wherever it reads a game's scores (the session, the record, the
checker, the lab). In a module of its own so the session, checker and lab tests share
them, and lab workers could import them.
"""

from __future__ import annotations

import math
from typing import Any

from kum_widget.core.examples import Bust, BustState


class NanScores(Bust):
    """Seat 0 scores NaN (0 / 0 in a game's averages, say)."""

    def scores(self, s: BustState) -> list[Any]:
        return [math.nan, *super().scores(s)[1:]]


class InfScores(Bust):
    """Seat 1 scores an infinity."""

    def scores(self, s: BustState) -> list[Any]:
        sc: list[Any] = super().scores(s)
        sc[1] = math.inf
        return sc


class TextScores(Bust):
    """Seat 0's score is text."""

    def scores(self, s: BustState) -> list[Any]:
        return ["1", *super().scores(s)[1:]]


BAD_SCORES: list[tuple[type[Bust], str]] = [  # each game, and what the core says of its scores
    (NanScores, "NanScores.scores() gave nan for seat 0: scores must be finite numbers"),
    (InfScores, "InfScores.scores() gave inf for seat 1: scores must be finite numbers"),
    (TextScores, "TextScores.scores() gave '1' for seat 0: scores must be finite numbers"),
]
