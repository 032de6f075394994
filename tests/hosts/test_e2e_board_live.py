"""End to end for the live board (issue 35): a real JupyterLab and Chromium (and marimo,
where bots move with no delay). A bot's turn is seen moving (a screenshot mid-flight, its
animations paused halfway) and stays marked until Ada acts; a seed typed in the New game form
and a closed log survive the bot's updates; the cues in forced colours; the bot's thinking
(the Hint button's search on a Kings Under Mountains decision and on a court decision, and an
ISMCTS bot's own decision on a board that shows every hand), a reason why not, a pile opened.
Screenshots go to test-artifacts/ (live-lab-*.png, live-marimo-*.png).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from _chromium import dismiss_intro, open_board, wait_board_changed, wait_until, watched_page
from labserver import click_once, notebook_of

NOTEBOOKS = {
    "bot.ipynb": ["import kum_widget as kum", 'board = kum.GameWidget(bots={1: "greedy"}, seed=3, bot_delay=0.8)\nboard'],
    "court.ipynb": ["import kum_widget as kum", "board = kum.GameWidget(kum.Court(seed=3))\nboard"],
    "reveal.ipynb": ["import kum_widget as kum", 'board = kum.GameWidget(bots={1: "ismcts"}, seed=3, reveal=True, bot_delay=0)\nboard'],
}

# Animations started while window.kumFreeze is set stay paused halfway: a screenshot shows a move in flight.
FREEZE = """() => { const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, opts) {
    const a = animate.call(this, frames, opts);
    if (window.kumFreeze) { a.pause(); a.currentTime = (opts.duration || 0) / 2; }
    return a;
  }; }"""


@pytest.fixture
def lab(lab_room):  # type: ignore[no-untyped-def]
    return lab_room({name: notebook_of(*cells) for name, cells in NOTEBOOKS.items()})


def opened(browser, lab, name: str, **media: Any) -> tuple[Any, Any, list[str]]:  # type: ignore[no-untyped-def]
    page, board, errors = open_board(browser, lab, name, **media)
    board.locator("[data-playable]").first.wait_for()
    dismiss_intro(board)
    return page, board, errors


def test_a_bots_turn_is_seen_moving_and_stays_marked_until_ada_acts(lab, browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    page, board, errors = opened(browser, lab, "bot.ipynb")
    board.locator('.kum-controls [data-control="new-game"]').click()
    board.locator(".kum-seed").fill("4321")
    board.locator(".kum-logbox > summary").click()  # the log closed
    page.evaluate(FREEZE)
    sid = board.get_attribute("data-state-id")
    board.locator('[data-zone="hand 0"] [data-playable]').first.click()
    board.locator(".kum-lit[data-action]").first.click()
    wait_board_changed(page, board, sid, "Ada's play")
    assert board.locator("[data-changed]").count() == 0  # Ada's own move: not marked
    sid = board.get_attribute("data-state-id")
    page.evaluate("() => { window.kumFreeze = true; }")
    board.locator('[data-action="draw deck"]').click()
    wait_board_changed(page, board, sid, "Ada's draw")
    # the bot's first move arrives after its delay, as an update of its own: caught in flight
    # (its flights start in the frame after it is drawn, and stay paused halfway)
    wait_until(page, "el => el.querySelector('[data-seat=\"1\"] .kum-changed, .kum-table .kum-changed')", board.element_handle(),
               what="the bot's first move, marked")
    wait_until(page, "() => document.getAnimations().some(a => a.playState === 'paused')", what="the bot's move in flight, paused")
    board.screenshot(path=str(artifacts / "live-lab-bot-mid-flight.png"))
    page.evaluate("() => { window.kumFreeze = false; document.getAnimations().forEach(a => a.finish()); }")
    board.locator('[data-zone="hand 0"] [data-playable]:not([disabled])').first.wait_for()  # the bot's whole turn is in
    wait_until(page, "el => !el.hasAttribute('aria-busy') && !/thinking/.test(el.querySelector('.kum-status').textContent)", board.element_handle(),
               what="the bot done thinking")
    marks = board.evaluate("el => [...el.querySelectorAll('.kum-changed[data-changed]')].map(e => e.dataset.key)")
    in_bots_area = board.locator('[data-seat="1"] .kum-changed').count()
    on_table = board.locator(".kum-table .kum-changed").count()
    assert in_bots_area >= 1 and on_table >= 1, marks  # its play on the table, its draw into its hand
    assert board.locator(".kum-seed").input_value() == "4321"  # the typed seed survived every update
    assert board.evaluate("el => el.querySelector('.kum-logbox').open") is False  # and the closed log
    board.screenshot(path=str(artifacts / "live-lab-bot-marks.png"))
    board.locator('[data-zone="hand 0"] [data-playable]').first.click()
    assert board.locator("[data-changed]").count() == len(marks)  # choosing a card is not acting
    sid = board.get_attribute("data-state-id")
    left = board.evaluate("el => { el.querySelector('.kum-lit[data-action]').click(); return el.querySelectorAll('[data-changed]').length; }")
    assert left == 0  # acting clears them at once
    wait_board_changed(page, board, sid, "Ada's play")
    assert errors == []


def test_cues_in_forced_colours(lab, browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    _page, board, errors = opened(browser, lab, "bot.ipynb", forced_colors="active")
    board.locator('[data-zone="hand 0"] [data-playable]').first.click()
    style = "el => [getComputedStyle(el).outlineStyle, getComputedStyle(el).outlineWidth]"
    assert board.locator(".kum-selected").evaluate(style)[0] == "double"
    assert board.locator(".kum-lit[data-action]").first.evaluate(style)[0] == "dashed"
    assert board.locator('[data-zone="hand 0"] [data-playable]:not(.kum-selected)').first.evaluate(style)[0] == "solid"
    assert board.locator(".kum-seat.kum-current").evaluate("el => parseFloat(getComputedStyle(el).borderLeftWidth)") >= 8
    board.screenshot(path=str(artifacts / "live-lab-forced-colors.png"))
    assert errors == []


@pytest.mark.parametrize("name", ["bot", "court"])
def test_a_hint_shows_the_searchs_figures_and_a_part_says_why(lab, browser, artifacts: Path, name: str) -> None:  # type: ignore[no-untyped-def]
    page, board, errors = opened(browser, lab, f"{name}.ipynb")
    sid = board.get_attribute("data-state-id")
    assert board.locator(".kum-think").count() == 0  # nothing until asked
    board.locator('[data-control="hint"]').click()  # the search, for Ada's seat: nothing is played
    board.locator(".kum-thinking .kum-thinking-said").first.wait_for()
    board.locator(".kum-think").first.wait_for()
    switch = board.locator('[data-control="thinking"]')  # offered where a bot holds a seat: not in the court solitaire
    assert board.get_attribute("data-state-id") == sid and switch.count() == int(name == "bot")
    rows = board.locator(".kum-thinking tbody tr")
    best = board.locator(".kum-thinking tr.kum-think-chosen").count()
    equal = board.locator(".kum-thinking .kum-badge", has_text="about equal").count()
    assert rows.count() >= 2 and (best, equal > 0) in [(1, False), (0, True)]  # one best move named, or the ones about equal
    board.screenshot(path=str(artifacts / f"live-lab-thinking-{name}.png"))
    if name == "bot":
        assert switch.is_checked()
        switch.uncheck()
        assert board.locator(".kum-think, .kum-thinking").count() == 0
    why = board.locator("[data-why]").first  # the kernel's reasons: the deck before a play, the court's draw pile
    why.click()
    tip = page.locator(".kum-tip")
    assert tip.is_visible() and tip.text_content() == why.get_attribute("data-why")
    assert board.get_attribute("data-state-id") == sid and board.get_attribute("aria-busy") is None  # nothing sent (a send marks the board busy at once)
    board.screenshot(path=str(artifacts / f"live-lab-why-{name}.png"))
    page.keyboard.press("Escape")
    if name == "bot":  # the camp's stacks open
        board.locator('[data-zone="camp orc"] [data-control="pile"]').click()
        assert page.locator('.kum-panel[role="dialog"] [data-panel-card]').count() == 2
        page.screenshot(path=str(artifacts / "live-lab-pile-open.png"))
        page.keyboard.press("Escape")
        assert page.locator(".kum-panel").count() == 0
    assert click_once(page, board)  # and the board plays on
    assert errors == []


def test_an_ismcts_bots_decision_on_a_board_that_shows_every_hand(lab, browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    page, board, errors = opened(browser, lab, "reveal.ipynb")
    assert click_once(page, board) and click_once(page, board)  # Ada plays and draws; the bot replies at once
    board.locator('[data-zone="hand 0"] [data-playable]:not([disabled])').first.wait_for()  # the bot's reply is in
    board.locator('[data-control="thinking"]').check()
    board.locator(".kum-thinking").wait_for()
    assert board.locator(".kum-thinking").get_attribute("data-kind") == "bot"
    assert board.locator(".kum-think").count() >= 1 and board.locator(".kum-thinking tr.kum-think-chosen").count() == 1
    board.screenshot(path=str(artifacts / "live-lab-thinking-bot-decision.png"))
    assert errors == []


@pytest.mark.soak  # marimo's bots move with no delay (make test sees a bot's turn marked in JupyterLab, and marimo play in test_e2e_hosts)
def test_in_marimo_the_bots_whole_reply_stays_marked_until_ada_acts(browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    from hostservers import MarimoServer
    from test_notebooks import NOTEBOOK_DIR

    with MarimoServer(NOTEBOOK_DIR / "play_marimo.py") as marimo:  # its boards' bots move with no delay
        page, errors = watched_page(browser, width=1280, height=1600)
        page.goto(marimo.url())
        board = page.locator("marimo-anywidget .kum-widget[data-state-id]").first  # in an open shadow root
        board.locator('[data-zone="hand 0"] [data-playable]').first.wait_for()
        dismiss_intro(board)
        assert click_once(page, board)  # Ada plays
        assert board.locator("[data-changed]").count() == 0
        assert click_once(page, board)  # Ada draws: the bot's play and draw come in the same answer
        board.locator('[data-seat="1"] .kum-changed').first.wait_for()
        assert board.locator(".kum-table .kum-changed").count() >= 1
        board.screenshot(path=str(artifacts / "live-marimo-bot-marks.png"))
        board.locator('[data-zone="hand 0"] [data-playable]').first.click()
        left = board.evaluate("el => { el.querySelector('.kum-lit[data-action]').click(); return el.querySelectorAll('[data-changed]').length; }")
        assert left == 0
        assert errors == [], errors
        page.close()
