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
from labserver import ROOT, LabServer, code_cell, open_notebook, run_all, run_cell, set_parameters, snapshot, wait_idle

SCORES_CELL = 'print("KUM-SCORES", board.game.scores(), board.game.is_over)'
UNDO_CELL = 'board.game.undo(3) if board.game.is_over else None; print("KUM-UNDO", board.game.is_over)'
BOTS_CELL = 'print("KUM-BOTS", sorted(type(b).__name__ for b in board._bots.values()))'
XSS_CELL = 'xss = kum.GameWidget(kum.Game(["<img src=x onerror=alert(1)>", "Bo"], seed=1), bots={1: "random"}, bot_delay=0)\nxss'


def play_notebook() -> dict:
    nb = json.loads((ROOT / "notebooks" / "01_play.ipynb").read_text())
    set_parameters(nb, SEED=42, BOT_DELAY=0.02)
    nb["cells"] += [code_cell(SCORES_CELL), code_cell(UNDO_CELL), code_cell(BOTS_CELL), code_cell(XSS_CELL)]
    return nb


@pytest.fixture(scope="module")
def lab():  # type: ignore[no-untyped-def]
    with LabServer({"01_play.ipynb": play_notebook()}) as server:
        yield server


def state_id(board) -> str:  # type: ignore[no-untyped-def]
    return board.get_attribute("data-state-id")


def wait_change(page, sid: str) -> None:  # type: ignore[no-untyped-def]
    try:
        page.wait_for_function(
            "sid => document.querySelector('.kum-widget').dataset.stateId !== sid", arg=sid, timeout=20_000
        )
    except Exception:
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
    wait_change(page, now["sid"])
    return True


def test_play_a_whole_game_by_clicking(lab, browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    page = browser.new_page(viewport={"width": 1280, "height": 1400})
    js_errors: list[str] = []
    dialogs: list[str] = []
    page.on("pageerror", lambda exc: js_errors.append(str(exc)))
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    open_notebook(page, lab, "01_play.ipynb")
    run_all(page)
    board = page.locator(".kum-widget").first
    board.wait_for(timeout=60_000)
    wait_idle(page)

    # The XSS board (last cell) shows its name literally and runs no script.
    xss = page.locator(".kum-widget").nth(1)
    xss.wait_for(timeout=30_000)
    assert xss.locator(".kum-name").first.text_content() == "<img src=x onerror=alert(1)>"
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
    run_cell(page, "KUM-SCORES")
    out = page.locator(".jp-CodeCell", has_text="KUM-SCORES").first.locator(".jp-OutputArea-output")
    page.wait_for_function(
        "el => /True\\s*$/.test(el.textContent.trim())",
        arg=out.first.element_handle(),
        timeout=20_000,
    )
    match = re.search(r"KUM-SCORES \[([-\d, ]+)\] True", out.first.text_content())
    assert match, out.first.text_content()
    kernel_scores = [int(x) for x in match.group(1).split(",")]
    assert kernel_scores == [shown[s] for s in sorted(shown)]

    # A change made from a cell re-renders the board: undo leaves the game-over state.
    sid = state_id(board)
    run_cell(page, "KUM-UNDO")
    wait_change(page, sid)
    page.wait_for_function("() => !document.querySelector('.kum-widget .kum-over')", timeout=20_000)

    # A new game against the ISMCTS bot, chosen in the board's own form; a few turns by clicking.
    board.locator('[data-control="new-game"]').first.click()
    board.locator(".kum-bot-select").select_option("ismcts")
    board.locator(".kum-seed").fill("5")
    sid = state_id(board)
    board.locator('[data-control="start"]').click()
    wait_change(page, sid)
    page.wait_for_function("() => document.querySelector('.kum-widget').textContent.includes('ISMCTS bot')", timeout=20_000)
    for _ in range(8):
        assert take_turn_step(page, board)
    board.screenshot(path=str(artifacts / "lab-ismcts.png"))
    run_cell(page, "KUM-BOTS")
    bots_out = page.locator(".jp-CodeCell", has_text="KUM-BOTS").first.locator(".jp-OutputArea-output")
    page.wait_for_function("el => el.textContent.includes('ISMCTSBot')", arg=bots_out.first.element_handle(), timeout=20_000)
    assert dialogs == []
    assert js_errors == []
    page.close()


def test_dark_theme_renders(browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    with LabServer({"01_play.ipynb": play_notebook()}, theme="JupyterLab Dark") as lab:
        page = browser.new_page(viewport={"width": 1280, "height": 1100})
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        open_notebook(page, lab, "01_play.ipynb")
        run_all(page)
        board = page.locator(".kum-widget").first
        board.wait_for(timeout=60_000)
        board.locator("[data-playable]").first.click()
        assert board.locator(".kum-target[data-action]").count() >= 1
        board.screenshot(path=str(artifacts / "lab-dark.png"))
        bg = page.evaluate("() => getComputedStyle(document.querySelector('.kum-widget')).backgroundColor")
        assert bg != "rgb(255, 255, 255)"  # follows the dark theme
        assert errors == []
        page.close()
