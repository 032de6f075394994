"""End to end for the board's pieces, cells, places and choice menus: a real JupyterLab,
Chromium, and the gallery's games (kum_widget.gallery): Connect Four played to a win by clicking
holes, a worker placed in Woodcutters, a Guard's guess asked in a menu in Whispers at
Court, a simultaneous step of Undercut mid-pick, and a menu of three choices on one card (a game
written in the notebook's own cell), picked by keyboard. Screenshots go to test-artifacts/
(connect_four.png, workers.png, choice_menu.png).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from _chromium import open_board, wait_board_changed, wait_until
from labserver import notebook_of, run_cell

SETUP = "import kum_widget as kum"

COIN = '''from kum_widget import core

class Coin(core.CardGame):
    name, title = "coin-call", "Call the coin"
    min_players = max_players = 1
    perfect_information = True
    calls = ["heads", "tails", "edge"]

    def setup(self, players, rng): return {"called": []}
    def current_player(self, s): return 0
    def legal_actions(self, s): return [] if s["called"] else [0, 1, 2]
    def apply(self, s, a): s["called"].append(a); return [f"Called {self.calls[a]}."]
    def is_over(self, s): return bool(s["called"])
    def scores(self, s): return [1.0]
    def view(self, s, seat): return {"called": list(s["called"])}
    def action_text(self, s, a): return f"call {self.calls[a]}"
    def board(self, view, seat):
        return {"zones": [{"id": "table", "label": "Table", "cards": [{"id": "coin", "faces": [{"title": "coin", "glyph": "●", "value": "?"}]}]}]}
    def click(self, s, a): return {"target": "coin", "choice": ["Heads", "Tails", "On its edge"][a]}

board = kum.GameWidget(Coin(), bot_delay=0)
board'''

NOTEBOOKS = {
    "four": [SETUP + "\nfrom kum_widget.gallery import ConnectFour",
             "board = kum.GameWidget(ConnectFour(), reveal=True, bot_delay=0)  # both seats at one screen\nboard",
             'print("KUM-GAME", board.game.is_over, board.game.scores(), tuple(map(int, board.game.history)))'],
    "workers": [SETUP + "\nfrom kum_widget.gallery import Woodcutters",
                'board = kum.GameWidget(Woodcutters(), bots={1: "greedy"}, seed=3, bot_delay=0.02)\nboard',
                'print("KUM-GAME", board.game.is_over, board.game.scores(), tuple(map(int, board.game.history)))'],
    "undercut": [SETUP + "\nfrom kum_widget.gallery import Undercut",
                 'board = kum.GameWidget(Undercut(), players=["Ada", "Bo"], bots={1: "random"}, seed=1, bot_delay=2.5)\nboard',
                 'print("KUM-GAME", board.game.is_over, board.game.scores(), tuple(map(int, board.game.history)))'],
    "whispers": [SETUP + "\nfrom kum_widget.gallery import Whispers",
                 'board = kum.GameWidget(Whispers(), players=["Ada", "Bo"], bots={1: "random"}, seed=0, bot_delay=0.3)\nboard',
                 'print("KUM-GAME", board.game.is_over, board.game.scores(), tuple(map(int, board.game.history)))'],
    "menu": [SETUP, COIN, 'print("KUM-GAME", board.game.is_over, board.game.scores(), tuple(map(int, board.game.history)))'],
}


@pytest.fixture
def lab(lab_room):  # type: ignore[no-untyped-def]
    return lab_room({f"{name}.ipynb": notebook_of(*cells) for name, cells in NOTEBOOKS.items()})


def opened(browser, lab, name: str) -> tuple[Any, Any, list[str]]:  # type: ignore[no-untyped-def]
    """The notebook run, its board drawn, and the game's first-time panel (its intro, which
    lies over the board the first time, as a student meets it) closed by its "Got it"."""
    page, board, errors = open_board(browser, lab, f"{name}.ipynb", height=1100)
    close = board.locator("[data-control='intro-close']")
    if close.count():
        close.click()
        board.locator(".kum-intro").wait_for(state="detached")
    return page, board, errors


def kernel_says(page) -> str:  # type: ignore[no-untyped-def]
    """What the last cell prints about the kernel's game (run now)."""
    return run_cell(page, 'print("KUM-GAME"', shows="KUM-GAME")


def test_connect_four_is_played_to_a_win_by_clicking_holes(lab, browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    page, board, errors = opened(browser, lab, "four")
    assert board.locator("[data-cell]").count() == 42 and board.locator(".kum-round").count() == 1
    # red along the bottom (columns 4 to 7), gold on top of red; any hole of a column drops into it
    for col, row in [(3, 0), (3, 5), (4, 2), (4, 0), (5, 5), (5, 1), (6, 3)]:
        sid = board.get_attribute("data-state-id")
        board.locator(f'[data-cell="hole {row} {col}"]').click()
        wait_board_changed(page, board, sid, f"the disc dropped in column {col}")
    board.locator(".kum-over").wait_for()
    marked = [e.get_attribute("data-piece") for e in board.locator(".kum-piece.kum-marked").all()]
    assert marked == [f"disc 5 {c}" for c in range(3, 7)], marked  # the winning four, marked
    assert board.locator('[data-cell="hole 4 3"] [data-piece]').get_attribute("aria-label") == "gold disc"
    board.screenshot(path=str(artifacts / "connect_four.png"))
    assert "KUM-GAME True [1.0, 0.0] (3, 3, 4, 4, 5, 5, 6)" in kernel_says(page)
    assert errors == []


def test_a_worker_is_placed_in_woodcutters(lab, browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    page, board, errors = opened(browser, lab, "workers")
    forest = board.locator('[data-place="forest"]')
    assert forest.get_attribute("data-action") == "Forest: +2 wood" and forest.locator(".kum-slot").count() == 3
    assert board.locator('[data-zone="home 0"] [data-piece]').count() == 3
    sid = board.get_attribute("data-state-id")
    forest.click()
    wait_board_changed(page, board, sid, "the worker placed")
    # the bot replies at once: wait until it is Ada's turn again, then look
    wait_until(page, "el => el.querySelector('[data-place][data-action]')", board.element_handle(), what="Ada's turn again, after the bot's reply")
    assert forest.locator('[data-piece^="worker 0 "]').count() == 1
    assert board.locator('[data-zone="home 0"] [data-piece]').count() == 2
    assert board.locator('[data-piece="wood 0"]').text_content() == "3"  # 1 to start, +2
    board.screenshot(path=str(artifacts / "workers.png"))
    said = kernel_says(page)
    assert re.search(r"KUM-GAME False \[[\d., ]+\] \(0, \d+\)", said), said
    assert errors == []


def test_a_choice_menu_is_picked_by_keyboard(lab, browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    page, board, errors = opened(browser, lab, "menu")
    coin = board.locator('[data-card="coin"]')
    coin.focus()
    page.keyboard.press("Enter")
    menu = board.locator(".kum-menu[role='menu']")
    menu.wait_for()
    assert [e.text_content() for e in menu.locator("[role='menuitem']").all()] == ["Heads", "Tails", "On its edge"]
    assert page.evaluate("() => document.activeElement.dataset.action") == "call heads"
    # the whole menu shows, though it hangs below the board: no output area cuts it off
    last = menu.locator('[data-action="call edge"]').element_handle()
    assert page.evaluate("el => { const r = el.getBoundingClientRect(); return document.elementFromPoint(r.x + r.width / 2, r.bottom - 3) === el; }", last)
    page.keyboard.press("ArrowDown")
    assert page.evaluate("() => document.activeElement.dataset.action") == "call tails"
    a, b = board.bounding_box(), menu.bounding_box()  # the menu may hang below a short board
    bottom = max(a["y"] + a["height"], b["y"] + b["height"]) + 8
    page.screenshot(path=str(artifacts / "choice_menu.png"), clip={"x": a["x"], "y": a["y"], "width": a["width"], "height": bottom - a["y"]})
    sid = board.get_attribute("data-state-id")
    page.keyboard.press("Enter")
    wait_board_changed(page, board, sid, "the call picked in the menu")
    assert "KUM-GAME True [1.0] (1,)" in kernel_says(page)  # the kernel got "call tails"
    assert errors == []


def test_a_simultaneous_step_shows_who_has_chosen_but_not_what(lab, browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    """Undercut against a bot that takes its time: Ada's pick is made, the board says she has
    chosen and Bo is choosing, her card lies face down on the table, and the round resolves
    once Bo picks."""
    page, board, errors = opened(browser, lab, "undercut")
    assert board.locator('[data-seat="0"] [data-choice="choosing"]').count() == 1
    sid = board.get_attribute("data-state-id")
    board.locator('[data-action="pick 4"]').click()
    # seen in the frame it is drawn: Bo's pick (2.5 s on) must not come before the look
    wait_until(page, """([el, sid]) => el.dataset.stateId !== sid && el.querySelector('[data-seat="0"] [data-choice="chosen"]')
                                      && el.querySelectorAll('[data-seat="1"] [data-choice="choosing"]').length === 1""",
               [board.element_handle(), sid], what="Ada's pick drawn: Ada has chosen, Bo is choosing")
    board.screenshot(path=str(artifacts / "undercut_mid_pick.png"))
    wait_until(page, "el => /Round 2 of 5/.test(el.textContent)", board.element_handle(), what="the bot's pick, and round 2")
    said = kernel_says(page)
    assert re.search(r"KUM-GAME False \[[\d., ]+\] \(4, \d\)", said), said  # Ada's pick 4, then the bot's
    assert errors == []


def test_a_targeted_card_asks_for_its_guess_in_a_menu(lab, browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    """Whispers at Court: the Guard is clicked, then Bo's hand; the four guesses share that
    click, so a menu asks which (none played silently); the one picked is the one played."""
    page, board, errors = opened(browser, lab, "whispers")
    board.locator('[data-card="card 0 1"]').click()  # Ada's Guard (seed 0: the Princess and a Guard)
    target = board.locator('[data-zone="hand 1"]')
    sid = board.get_attribute("data-state-id")
    target.click()
    menu = page.locator(".kum-menu")
    menu.wait_for()
    items = [e.get_attribute("data-action") for e in menu.locator(".kum-menu-item").all()]
    assert items == [f"Guard on Bo: guess {card}" for card in ("Priest", "Baron", "Handmaid", "Princess")], items
    assert board.get_attribute("data-state-id") == sid and board.get_attribute("aria-busy") is None  # nothing sent yet (a send marks the board busy at once)
    a, m = board.bounding_box(), menu.bounding_box()
    assert a and m
    page.screenshot(path=str(artifacts / "whispers_menu.png"),
                    clip={"x": a["x"], "y": a["y"], "width": a["width"], "height": max(a["y"] + a["height"], m["y"] + m["height"]) - a["y"] + 4})
    menu.locator('[data-action="Guard on Bo: guess Baron"]').click()
    wait_board_changed(page, board, sid, "the guess picked in the menu")
    wait_until(page, "el => /Ada guesses Baron/.test(el.textContent)", board.element_handle(), what="the guess in the board's log")
    said = kernel_says(page)
    assert re.search(r"KUM-GAME (True|False) \[[\d., ]+\] \(113\b", said), said  # the Guard on seat 1, guessing a Baron
    assert errors == []
