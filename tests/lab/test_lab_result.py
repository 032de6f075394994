"""How a lab result shows in a notebook: the answer in a sentence, the table as a class
reads it (whole counts, rates in per cent, columns in words, the columns that answer),
the plot for a light and a dark theme, what the figures mean; every text escaped."""

from __future__ import annotations

import base64
import io
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd
import pytest
from _report_helpers import IMG, SCRIPT
from matplotlib.figure import Figure
from PIL import Image

import kum_widget as kum
from kum_widget.core.errors import GameError
from kum_widget.lab import readings
from kum_widget.lab.runs import executor_words as _describe


@pytest.fixture(scope="module")
def compared() -> kum.lab.LabResult:
    return kum.lab.compare(None, {"stuck": "draw"}, games=12, bots="random", seed=5, progress=False)


@pytest.fixture(scope="module")
def bust() -> pd.DataFrame:
    return kum.simulate(60, game="bust", bots=("greedy", "random"), seed=2, progress=False)


def _pictures(html_text: str) -> dict[str, Image.Image]:
    found = re.findall(r'<img class="kum-(light|dark)" src="data:image/png;base64,([^"]+)"', html_text)
    return {kind: Image.open(io.BytesIO(base64.b64decode(data))).convert("RGBA") for kind, data in found}


def test_compare_counts_are_whole_numbers_and_interrupted_is_an_attr(compared: kum.lab.LabResult) -> None:
    t = compared.table
    assert str(t["games"].dtype) == "Int64" and t["games"].iloc[:2].tolist() == [12, 12]
    assert t.loc["B - A", "games"] is pd.NA and "interrupted" not in t.columns
    assert t.attrs["interrupted"] == {"A: standard rules": False, "B: stuck=draw": False}
    bundle = compared._repr_mimebundle_()
    for text in bundle.values():
        assert "12.000" not in text and "12.0 " not in text and "interrupted" not in text
    assert re.search(r'<td class="num">12</td>', bundle["text/html"])
    plain = bundle["text/plain"].splitlines()
    assert plain[0] == compared.title and plain[1] == compared.reading
    assert re.search(r"A: standard rules\s+standard rules\s+12\s+\d+\s+\d+\.\d%", bundle["text/plain"])


def test_compare_shows_the_columns_that_answer_and_the_rest_on_request(compared: kum.lab.LabResult) -> None:
    page = compared._repr_mimebundle_()["text/html"]
    head, rest = page.split("<details", 1)
    assert "win rate of the first player (95% interval)" in head and "claims by other" not in head
    assert f"<summary>all {len(compared.table.columns)} columns</summary>" in rest and "claims by other" in rest
    everything = replace(compared, shown=())  # () shows them all, without a details
    assert "<details" not in everything._repr_mimebundle_()["text/html"]


def test_every_helper_answers_in_a_sentence_and_says_what_its_figures_mean(bust: pd.DataFrame,
                                                                          compared: kum.lab.LabResult) -> None:
    court = kum.simulate(12, game="court", bots=("greedy",), seed=1, progress=False)
    results = {
        "win_rate": kum.lab.win_rate(bust, by="bot"), "score_distribution": kum.lab.score_distribution(bust),
        "game_length": kum.lab.game_length(bust), "matchup": kum.lab.matchup(results=bust),
        "compare": compared, "score_by_feature": kum.lab.score_by_feature(court, "bought_"),
    }
    for name, r in results.items():
        assert r.reading.endswith(".") and "_" not in r.reading and len(r.reading) < 320, name
        assert r.about and r.about in r._repr_mimebundle_()["text/html"].replace("&#x27;", "'"), name
    for name in ("win_rate", "matchup", "compare", "score_by_feature"):
        assert "Wilson" in results[name].about, name
    assert "Newcombe" in compared.about and "1.96 standard errors" in results["score_distribution"].about
    # the greedy bot beats the random one clearly: the reading says so, in per cent with the interval
    assert re.fullmatch(r"The greedy bot wins \d+\.\d% of 60 games \[\d+\.\d%, \d+\.\d%\], more often than the 50% "
                        r"of an even game: the interval leaves 50% out, so the difference is real, not chance\.",
                        results["win_rate"].reading)


def test_a_reading_names_the_seat_a_rule_change_hands_the_edge_to() -> None:
    labels = ["A: standard rules", "B: end=finish_round"]
    t = pd.DataFrame({"win_rate": [0.524, 0.475, -0.049], "low": [0.489, 0.441, -0.064], "high": [0.558, 0.51, -0.034]},
                     index=[*labels, "B - A"])
    per = pd.DataFrame({"win_rate": [0.524, 0.489, 0.475, 0.544], "low": [0.489, 0.454, 0.441, 0.509],
                        "high": [0.558, 0.523, 0.51, 0.578], "fair": [0.5] * 4},
                       index=pd.MultiIndex.from_product([labels, [0, 1]], names=["variant", "seat"]))
    text = readings.compare_reading(t, labels, "the first player", per)
    assert text == ("The first player wins 52.4% of games under A and 47.5% under B: B - A = -4.9% [-6.4%, -3.4%], "
                    "rule B clearly lowers it; under B seat 1 wins 54.4% [50.9%, 57.8%], more than the 50% of an "
                    "even game.")
    assert "seat 1" not in readings.compare_reading(t, labels, "seat 1", per, {1})  # its own seat: said already
    per.loc[(labels[1], 1), "low"] = 0.49  # no longer clear: nothing said of seat 1
    assert "seat 1" not in readings.compare_reading(t, labels, "the first player", per)


def test_the_plot_comes_for_a_light_and_a_dark_theme_and_the_figure_is_left_as_it_was(bust: pd.DataFrame) -> None:
    r = kum.lab.win_rate(bust, by="bot")
    before = r.png()
    html_text = r._repr_mimebundle_()["text/html"]
    assert r.png() == before  # the dark picture's recolouring is undone
    pics = _pictures(html_text)
    light, dark = pics["light"], pics["dark"]
    assert light.getpixel((0, 0)) == (255, 255, 255, 255) and dark.getpixel((0, 0))[3] == 0  # transparent
    # the text, ticks and frame: black on the light one, light grey (224) on the dark one
    def blacks(picture: Image.Image) -> int:
        a = np.asarray(picture)
        return int(((a[..., :3].max(axis=2) < 20) & (a[..., 3] > 200)).sum())

    lit = (np.abs(np.asarray(dark).astype(int) - (224, 224, 224, 255)).max(axis=2) < 8).sum()
    assert blacks(light) > 500 and lit > 0.5 * blacks(light) and blacks(dark) < 0.05 * blacks(light)
    assert 'style="display:none"' in html_text.split('class="kum-dark"')[1].split(">")[0]  # stripped CSS: light only
    assert 'body[data-jp-theme-light="false"] .kum-lab img.kum-dark{display:block!important}' in html_text
    assert "prefers-color-scheme:dark" in html_text


def test_text_is_escaped_and_columns_read_in_words() -> None:
    fig = Figure()
    ax = fig.subplots()
    table = pd.DataFrame({"games": [3.0, 4.0], "win_rate": [0.25, 0.5], "low": [0.1, 0.2], "high": [0.5, 0.8],
                          "claims_by_other": [1.25, 2.5], "label": [IMG, "ok"]})
    r = kum.lab.LabResult(table, fig, ax, SCRIPT, reading=SCRIPT, about=IMG, labels={"label": "what <b>"})
    page = r._repr_mimebundle_()["text/html"]
    assert SCRIPT not in page and IMG not in page and "<b>" not in page and "&lt;script&gt;" in page
    assert ">games<" in page and ">3<" in page and ">4<" in page  # whole floats: counts
    assert "win rate (95% interval)" in page and "25.0% [10.0%, 50.0%]" in page
    assert "claims by other" in page and "1.25" in page and "what &lt;b&gt;" in page


@pytest.mark.parametrize("shown", [("nope",), "games", (1,)])
def test_shown_must_name_columns_of_the_table(shown: Any) -> None:
    fig = Figure()
    with pytest.raises(GameError, match="LabResult: shown"):
        kum.lab.LabResult(pd.DataFrame({"games": [1]}), fig, fig.subplots(), "t", shown=shown)


def test_where_a_run_played_is_said_in_words() -> None:
    pool = kum.lab.worker_pool(1)  # no process starts before a task
    try:
        assert _describe(pool) == "1 worker process"
    finally:
        pool.shutdown()
    with ThreadPoolExecutor(3) as threads:
        assert _describe(threads) == "3 threads"
    assert _describe(2) == "2 worker processes" and _describe(None) == "in process"
    assert "_" not in _describe(pool) and "LabPool" not in _describe(pool)


def test_an_estimate_and_its_bounds_share_one_cell_whatever_their_order() -> None:
    from kum_widget.lab.render import table_text

    t = pd.DataFrame({"low": [0.1], "games": [10], "win_rate": [0.25], "high": [0.5], "flag": [np.True_]})
    assert table_text(t).splitlines() == ["games  win rate (95% interval)  flag",  # row numbers left out
                                          "   10     25.0% [10.0%, 50.0%]  yes"]
    assert "95% low" in table_text(t, merge=False)  # the whole table, column by column


def test_odd_tables_still_show() -> None:
    fig = Figure()
    ax = fig.subplots()
    twice = pd.DataFrame([[1, 2.5, "x"]], columns=["games", "games", ("a", "b")])
    empty = pd.DataFrame({"games": pd.Series([], dtype=int), "win_rate": pd.Series([], dtype=float)})
    for table in (twice, empty):
        bundle = kum.lab.LabResult(table, fig, ax, "odd")._repr_mimebundle_()
        assert "odd" in bundle["text/plain"] and "<table" in bundle["text/html"]
    assert "games (2)" in kum.lab.LabResult(twice, fig, ax, "t")._repr_mimebundle_()["text/plain"]
