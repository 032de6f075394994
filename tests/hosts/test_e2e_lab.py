"""End to end: a real `jupyter lab`, Chromium through Playwright, the real play notebook.

Plays a whole game against the bot by clicking only, reads the final scores back
from a Python cell, changes the game from a cell, and shows an XSS name as text.
Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from _chromium import dismiss_intro, open_board, wait_board_changed, wait_until, watched_page
from labserver import ROOT, code_cell, open_notebook, run_all, run_cell, set_parameters, snapshot, wait_idle

SCORES_CELL = 'print("KUM-SCORES", board.game.scores(), board.game.is_over)'
UNDO_CELL = 'board.game.undo(3) if board.game.is_over else None; print("KUM-UNDO", board.game.is_over)'
BOTS_CELL = 'print("KUM-BOTS", sorted(type(b).__name__ for b in board._bots.values()))'
XSS_CELL = 'xss = kum.GameWidget(kum.Game(["<img src=x onerror=alert(1)>", "Bo"], seed=1), bots={1: "random"}, bot_delay=0)\nxss'


def play_notebook() -> dict:
    nb = json.loads((ROOT / "notebooks" / "01_play.ipynb").read_text())
    set_parameters(nb, SEED=42, BOT_DELAY=0.02)
    nb["cells"] += [code_cell(SCORES_CELL), code_cell(UNDO_CELL), code_cell(BOTS_CELL), code_cell(XSS_CELL)]
    return nb


@pytest.fixture
def lab(lab_room):  # type: ignore[no-untyped-def]
    return lab_room({"01_play.ipynb": play_notebook()})


def state_id(board) -> str:  # type: ignore[no-untyped-def]
    return board.get_attribute("data-state-id")


def wait_change(page, board, sid: str, what: str) -> None:  # type: ignore[no-untyped-def]
    try:
        wait_board_changed(page, board, sid, what)
    except AssertionError:
        page.screenshot(path=str(ROOT / "test-artifacts" / "lab-failure.png"))
        raise


def take_turn_step(page, board) -> bool:  # type: ignore[no-untyped-def]
    """Make one click-decision if the board offers one; return False once the game is over.
    What to click is decided from one snapshot of the page (its state id and what it
    offers, read together), so a bot's move arriving meanwhile cannot mix two states."""
    now = snapshot(board, draws='[data-zone="deck"][data-action], [data-zone^="camp "][data-action]',
                   discards='[data-zone^="hand "] [data-action^="discard"]', playable="[data-playable]")
    if now["over"]:
        return False
    if now["draws"]:
        board.locator('[data-zone="deck"][data-action], [data-zone^="camp "][data-action]').first.click()
    elif now["discards"]:
        board.locator('[data-zone^="hand "] [data-action^="discard"]').first.click()
    elif now["playable"]:
        board.locator("[data-playable]").first.click()
        board.locator(".kum-target[data-action]").first.click()  # lit by the click, no round trip
    # else: the bot is moving; wait for its move
    wait_change(page, board, now["sid"], "the answer to a click, or the bot's move")
    return True


@pytest.mark.soak  # a whole game by clicking (about 40 s); make test plays whole games in Notebook 7 and of the court
def test_play_a_whole_game_by_clicking(lab, browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    page, js_errors = watched_page(browser, width=1280, height=1400)
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))  # from the start: the XSS board draws as the cells run
    open_notebook(page, lab, "01_play.ipynb")
    run_all(page)
    board = page.locator(".kum-widget").first
    board.wait_for()
    wait_idle(page)
    dismiss_intro(board)  # the first-time panel lies over the table

    # The XSS board (last cell) shows its name literally and runs no script.
    xss = page.locator(".kum-widget").nth(1)
    xss.wait_for()
    assert xss.locator('[data-seat="0"] .kum-name').text_content() == "<img src=x onerror=alert(1)>"
    assert xss.locator("img").count() == 0

    # A fresh board has nothing to undo: its Undo is off (test_frontend: a refused undo
    # still releases the board); the game is then played by clicking.
    assert board.locator('[data-control="undo"]').is_disabled()

    steps = 0
    while take_turn_step(page, board):
        steps += 1
        if steps == 24:
            board.scroll_into_view_if_needed()
            board.screenshot(path=str(artifacts / "lab-midgame.png"))
        assert steps < 600, "the game did not end"
    board.screenshot(path=str(artifacts / "lab-game-over.png"))

    shown = {int(cell.get_attribute("data-score")): int(cell.text_content()) for cell in board.locator("[data-score]").all()}
    # Read the scores back from a Python cell: they match the board.
    said = run_cell(page, "KUM-SCORES", shows=r"True\s*$")
    match = re.search(r"KUM-SCORES \[([-\d, ]+)\] True", said)
    assert match, said
    kernel_scores = [int(x) for x in match.group(1).split(",")]
    assert kernel_scores == [shown[s] for s in sorted(shown)]

    # A change made from a cell re-renders the board: undo leaves the game-over state.
    sid = state_id(board)
    run_cell(page, "KUM-UNDO")
    wait_change(page, board, sid, "the undo made from a cell")
    wait_until(page, "el => !el.querySelector('.kum-over')", board.element_handle(), what="the game-over panel to go")

    # A new game against the ISMCTS bot, chosen in the board's own form; a few turns by clicking.
    board.locator('[data-control="new-game"]').first.click()
    board.locator(".kum-bot-select").select_option("ismcts")
    board.locator(".kum-seed").fill("5")
    sid = state_id(board)
    board.locator('[data-control="start"]').click()
    wait_change(page, board, sid, "the new game")
    wait_until(page, "el => el.textContent.includes('ISMCTS bot')", board.element_handle(), what="the ISMCTS bot named on the board")
    for _ in range(8):
        assert take_turn_step(page, board)
    board.screenshot(path=str(artifacts / "lab-ismcts.png"))
    run_cell(page, "KUM-BOTS", shows="ISMCTSBot")
    assert dialogs == []
    assert js_errors == []
    page.close()


def test_dark_theme_renders(lab_room, browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    lab = lab_room({"01_play.ipynb": play_notebook()}, theme="JupyterLab Dark")
    page, board, errors = open_board(browser, lab, "01_play.ipynb", height=1100)
    board.locator("[data-playable]").first.click()
    assert board.locator(".kum-target[data-action]").count() >= 1
    board.screenshot(path=str(artifacts / "lab-dark.png"))
    bg = page.evaluate("() => getComputedStyle(document.querySelector('.kum-widget')).backgroundColor")
    assert bg != "rgb(255, 255, 255)"  # follows the dark theme
    assert errors == []
    page.close()
