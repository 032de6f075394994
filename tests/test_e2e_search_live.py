"""End to end (issue 42, item 8c): in a real JupyterLab and Chromium, a board's search on a
variant whose games never end (Bust with a limit of 100: its cards add up to 90) runs a slice
at a time. A click while the Hint searches is answered at once (the search once held the
kernel for minutes), and Undo while the bot searches its move takes it back at once.
Screenshots go to test-artifacts/ (live-lab-search-*.png).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from _chromium import open_board, wait_board_changed, wait_until
from labserver import LabServer, code_cell

QUICK = 1.0  # seconds from a click to the board drawn again: the kernel's 0.2 s, the page's round trip and Playwright's checks

NOTEBOOKS = {
    "looping.ipynb": ["import kum_widget as kum\nfrom kum_widget.core.examples import Bust",
                      'board = kum.GameWidget(Bust(limit=100), players=["Ada", "Bo"], bots={1: "ismcts"}, seed=1, bot_delay=0.05)\n'
                      "board"],
}


def notebook(cells: list[str]) -> dict[str, Any]:
    return {"cells": [code_cell(c) for c in cells], "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
            "nbformat": 4, "nbformat_minor": 5}


@pytest.fixture(scope="module")
def lab():  # type: ignore[no-untyped-def]
    with LabServer({name: notebook(cells) for name, cells in NOTEBOOKS.items()}) as server:
        yield server


def answered(page: Any, board: Any, click: Any, what: str) -> float:
    """Seconds from ``click()`` to the board drawn again (another state, not busy)."""
    sid = board.get_attribute("data-state-id")
    start = time.perf_counter()
    click()
    wait_board_changed(page, board, sid, what)
    return time.perf_counter() - start


def test_a_click_while_a_long_search_runs_is_answered_at_once(lab, browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    page, board, errors = open_board(browser, lab, "looping.ipynb")
    intro = board.locator('[data-control="intro-close"]')
    if intro.count():
        intro.click()  # the game's first-time panel, read and dismissed
    draw = board.locator('[data-action="draw"]:not([disabled])')
    draw.wait_for()
    board.locator('[data-control="hint"]').click()  # the search for Ada: seconds on this variant
    wait_until(page, "el => !el.hasAttribute('aria-busy')", board.element_handle(), what="the Hint's answer (its search goes on)")
    assert board.locator(".kum-think-chosen").count() == 0  # still searching: no hint shown yet
    took = {"a click while the Hint searches": answered(page, board, draw.click, "Ada's draw while the Hint searches")}
    wait_until(page, "el => /thinking/.test(el.querySelector('.kum-status').textContent)", board.element_handle(),
               what="the bot thinking about its move (seconds on this variant)")
    board.screenshot(path=str(artifacts / "live-lab-search-bot-thinking.png"))
    undo = board.locator('[data-control="undo"]:not([disabled])')
    took["Undo while the bot searches"] = answered(page, board, undo.click, "Undo while the bot searches")
    assert board.locator('[data-action="draw"]:not([disabled])').count() == 1  # Ada's decision again
    assert not board.locator(".kum-status").text_content().count("thinking")
    board.screenshot(path=str(artifacts / "live-lab-search-undone.png"))
    print("measured:", {k: round(v, 3) for k, v in took.items()})
    assert max(took.values()) < QUICK, took
    assert errors == []
    page.close()
