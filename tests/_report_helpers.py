"""A fake design report for the page's tests: simple dataclasses holding LabResults built
from small tables and plots, with hostile text where a title, a cell, a column or a
setting could carry it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pandas as pd
from matplotlib.figure import Figure

from kum_widget.lab import LabResult

SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=\"window.pwned=1\">"


@dataclass
class FakeSection:
    key: str
    title: str
    question: str
    result: LabResult


@dataclass
class FakeReport:
    title: str
    subtitle: str
    sections: list[FakeSection]
    settings: dict[str, str] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)


def _bars(values: list[float], title: str) -> tuple[Figure, Any]:
    fig = Figure(figsize=(5, 3), layout="constrained")
    ax = fig.subplots()
    ax.bar(range(len(values)), values, color="#4C72B0")
    ax.axhline(0.5, color="0.4", linestyle="--")
    ax.set_title(title)
    ax.set_xlabel("seat")
    return fig, ax


def fake_report() -> FakeReport:
    rates = pd.DataFrame({"games": [800, 800], "wins": [419, 391], "win_rate": [0.524, 0.489],
                          "low": [0.489, 0.454], "high": [0.558, 0.523], "fair": [0.5, 0.5]},
                         index=pd.Index([0, 1], name="seat"))
    fig, ax = _bars([0.524, 0.489], SCRIPT)
    balance = LabResult(rates, fig, ax, f"Win rate {SCRIPT}", reading=f"The first player wins 52.4% {SCRIPT}",
                        about="Wilson's interval: the range of rates these games are consistent with.")
    wide = pd.DataFrame({"rules": [IMG, "finish the round"], "games": [800.0, 800.0], "mean_score": [23.68, 23.3],
                         "score_low": [22.87, 22.5], "score_high": [24.49, 24.1],
                         **{f"extra_{k}": [0.1 * k, 0.2 * k] for k in range(30)}},
                        index=pd.Index(["A", "B"], name="variant"))
    fig2, ax2 = _bars([23.68, 23.3], "Scores")
    scores = LabResult(wide, fig2, ax2, "Scores", reading="The mean score hardly moves.",
                       about="A mean's 95% interval: 1.96 standard errors either side.",
                       shown=("rules", "games", "mean_score", "score_low", "score_high"))
    return FakeReport(
        title=f"Design report {SCRIPT}",
        subtitle="Kings Under Mountains, 2 players, greedy bots, seed 0, 800 games",
        sections=[FakeSection("balance", "Balance", f"Who wins? {IMG}", balance),
                  FakeSection("scores <x>", "Scores", "How do scores move?", scores)],
        settings={"bots": "greedy", IMG: SCRIPT},
        timings={"balance": 12.5, "scores <x>": 130.0},
    )


def lab_report(games: int = 200) -> FakeReport:
    """A report of real lab results (Kings Under Mountains and the court), as a class would get one."""
    import kum_widget as kum

    run = dict(bots="greedy", seed=3, progress=False)
    base = kum.simulate(games, **run)
    court = kum.simulate(games // 4, game="court", bots=("greedy",), seed=3, progress=False)
    parts = [
        ("balance", "Who wins?", "Does the first player win too often?", kum.lab.win_rate(base)),
        ("scores", "Scores", "How far apart are the seats' scores?", kum.lab.score_distribution(base, by="seat")),
        ("length", "Length", "How long is a game?", kum.lab.game_length(base)),
        ("finish", "Finish the round", "Does finishing the round even out the first player's edge?",
         kum.lab.compare(base, {"end": "finish_round"}, games=games, **run)),
        ("roles", "The court's roles", "Which roles go with a high score in the court?",
         kum.lab.score_by_feature(court, "bought_")),
    ]
    return FakeReport(
        title=f"Kings Under Mountains: a design report {SCRIPT}",
        subtitle=f"Kings Under Mountains, 2 players, greedy bots, seed 3, {games} games a run",
        sections=[FakeSection(*p) for p in parts],
        settings={"game": "Kings Under Mountains", "players": "2", "bots": "greedy", "games": str(games), "seed": "3"},
        timings={"balance": 1.2, "finish": 2.4, "roles": 3.1},
    )
