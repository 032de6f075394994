"""The lab reads a game's scores through the session: a score that is not a finite number
stops ``kum.simulate`` with the game's fault, named, instead of a table that reads
"Seat 0 wins 0.0%"."""

from __future__ import annotations

import re

import pytest
from _score_games import BAD_SCORES, NanScores

import kum_widget as kum
from kum_widget import core
from kum_widget.core.examples import Bust


@pytest.mark.parametrize("game, message", BAD_SCORES)
def test_simulate_refuses_scores_that_are_not_finite_numbers(game: type[Bust], message: str) -> None:
    with pytest.raises(core.GameFault, match=f"^{re.escape(message)}$"):
        kum.simulate(4, game=game(), bots="random", seed=1, progress=False)


def test_simulate_in_worker_processes_refuses_them_too() -> None:
    with pytest.raises(core.GameFault, match=r"^NanScores\.scores\(\) gave nan for seat 0"):
        kum.simulate(4, game=NanScores(), bots="random", seed=1, progress=False, executor=2)
