"""End to end (issue 42, item 8c): in a real JupyterLab and Chromium, a board's search on a
variant whose games never end (Bust with a limit of 100: its cards add up to 90) runs a slice
at a time. A click while the Hint searches is answered at once (the search once held the
kernel for minutes), and Undo while the bot searches its move takes it back at once: each
before the search it interrupts ends (the times are printed; the bench measures them).
Screenshots go to test-artifacts/ (live-lab-search-*.png).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from _chromium import open_board, wait_board_changed, wait_until
from labserver import notebook_of

NOTEBOOKS = {
    "looping.ipynb": ["import kum_widget as kum\nfrom kum_widget.core.examples import Bust",
                      'board = kum.GameWidget(Bust(limit=100), players=["Ada", "Bo"], bots={1: "ismcts"}, seed=1, bot_delay=0.05)\n'
                      "board"],
}


@pytest.fixture
def lab(lab_room):  # type: ignore[no-untyped-def]
    return lab_room({name: notebook_of(*cells) for name, cells in NOTEBOOKS.items()})


def answered(page: Any, board: Any, click: Any, what: str) -> float:
    """Seconds from ``click()`` to the board drawn again (another state, not busy): printed, not asserted."""
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
    # What the page draws, in order: each new state, and whether a hint was ever shown.
    board.evaluate("""el => { const seen = window.kumSeen = {states: [], hint: false};
        new MutationObserver(() => { seen.hint ||= !!el.querySelector('.kum-think-chosen');
            const sid = el.getAttribute('data-state-id');
            if (seen.states[seen.states.length - 1] !== sid) seen.states.push(sid); })
          .observe(el, {attributes: true, childList: true, subtree: true}); }""")
    board.locator('[data-control="hint"]').click()  # the search for Ada: seconds on this variant
    wait_until(page, "el => !el.hasAttribute('aria-busy')", board.element_handle(), what="the Hint's answer (its search goes on)")
    assert board.locator(".kum-think-chosen").count() == 0  # still searching: no hint shown yet
    took = {"a click while the Hint searches": answered(page, board, draw.click, "Ada's draw while the Hint searches")}
    assert page.evaluate("window.kumSeen.hint") is False  # the draw came first: its move stopped the Hint's search
    wait_until(page, "el => /thinking/.test(el.querySelector('.kum-status').textContent)", board.element_handle(),
               what="the bot thinking about its move (seconds on this variant)")
    board.screenshot(path=str(artifacts / "live-lab-search-bot-thinking.png"))
    thinking = page.evaluate("window.kumSeen.states.length")
    undo = board.locator('[data-control="undo"]:not([disabled])')
    took["Undo while the bot searches"] = answered(page, board, undo.click, "Undo while the bot searches")
    assert board.locator('[data-action="draw"]:not([disabled])').count() == 1  # Ada's decision again
    assert not board.locator(".kum-status").text_content().count("thinking")
    assert page.evaluate("window.kumSeen.states.length") == thinking + 1  # Undo's state alone: the bot never moved
    board.screenshot(path=str(artifacts / "live-lab-search-undone.png"))
    print("measured:", {k: round(v, 3) for k, v in took.items()})
    assert errors == []
