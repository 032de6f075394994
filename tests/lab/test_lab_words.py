"""Figures in words (kum_widget.lab.words): read off the interval, never the estimate alone,
and nothing said of an impossible interval."""

from __future__ import annotations

import math

import numpy as np
import pytest

from kum_widget.core.errors import GameError
from kum_widget.lab.words import often_words, percent, share_words, span


@pytest.mark.parametrize(("share", "low", "high", "words"), [
    (0.02, 0.0, 0.04, "almost none"), (0.97, 0.96, 0.99, "almost all"), (0.2, 0.1, 0.3, "a small part"),
    (0.8, 0.7, 0.9, "most"), (0.5, 0.42, 0.58, "about half"), (0.5, 0.1, 0.9, "an uncertain part"),
    (0.5, 0.9, 0.1, "an unknown part"), (5.0, 4.0, 6.0, "an unknown part"), (math.nan, 0.1, 0.2, "an unknown part"),
    (np.float32(0.5), np.float64(0.42), 0.58, "about half"),
])
def test_share_words(share: float, low: float, high: float, words: str) -> None:
    assert share_words(share, low, high) == words


@pytest.mark.parametrize(("rate", "low", "high", "words"), [
    (0.0, 0.0, 0.01, "never"), (1.0, 0.99, 1.0, "always"), (0.01, 0.0, 0.04, "almost never"),
    (0.112, 0.09, 0.14, "sometimes"), (0.5, 0.4, 0.6, "about half the time"), (0.8, 0.7, 0.9, "usually"),
    (0.97, 0.96, 0.99, "almost always"), (0.5, 0.2, 0.8, "some of the time"), (0.2, 0.3, 0.1, "an unknown share of the time"),
])
def test_often_words(rate: float, low: float, high: float, words: str) -> None:
    assert often_words(rate, low, high) == words


def test_percent_and_span() -> None:
    assert percent(0.5612) == "56%" and percent(np.float32(0.5), 1) == "50.0%" and percent(math.inf) == "n/a"
    assert span(0.52, 0.6) == "[52, 60]" and span(math.nan, 0.6) == "" and span(math.inf, 1) == ""
    for bad in (-1, 7, "a", 1.5):
        with pytest.raises(GameError, match=r"digits must be a whole number 0\.\.6"):
            percent(0.5, bad)  # type: ignore[arg-type]
