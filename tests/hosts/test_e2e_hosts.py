"""The board in the other notebook hosts (issue 13), for real, with both games: Jupyter
Notebook 7 (the play notebook run, a whole game played by clicking, the scores read back
from a cell), Voila (the notebook served as a page without code, played by clicking) and
marimo (``notebooks/play_marimo.py`` under ``marimo run``: played by clicking, and the
cells that read the games follow).

Only the public testing hooks are clicked. Screenshots go to test-artifacts/ (host-*.png).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import _chromium
import pytest
from _chromium import offline_page, wait_until
from hostservers import MarimoServer, VoilaServer
from labserver import LabRoom, click_once, code_cell, open_notebook, run_all, run_cell, wait_idle
from test_notebooks import NOTEBOOK_DIR, fast_notebook

COURT_SEED = 3


def court_notebook() -> dict[str, Any]:
    return {
        "cells": [
            code_cell(f"import kum_widget as kum\nboard = kum.GameWidget(kum.Court(seed={COURT_SEED}))\nboard"),
            code_cell('print("KUM-OVER", board.game.is_over, board.game.scores(), board.game.rank())'),
        ],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}}, "nbformat": 4, "nbformat_minor": 5,
    }


def new_page(browser: Any, height: int = 1300) -> tuple[Any, list[str]]:
    page = _chromium.new_page(browser, width=1280, height=height)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"{exc}\n{exc.stack}"))
    return page, errors


def ours(errors: list[str]) -> list[str]:
    """Page errors, but for one that Notebook 7.6.5 raises on every page load, with or without
    any extension or widget: its shortcuts plugin reads the schema of a settings plugin it has
    not loaded (a TypeError thrown from its own bundle, before any cell runs)."""
    return [e for e in errors if not (
        e.startswith("Cannot read properties of undefined (reading 'schema')") and "/static/notebook/notebook_core." in e
        and "kum" not in e.lower())]


def play_to_the_end(page: Any, board: Any, limit: int = 400) -> int:
    steps = 0
    while click_once(page, board):
        steps += 1
        assert steps < limit, "the game did not end"
    return steps


def shown_scores(board: Any) -> list[float]:
    cells = board.locator(".kum-over [data-score]")
    return [float(cells.nth(k).text_content() or "nan") for k in range(cells.count())]


# -- Jupyter Notebook 7 -----------------------------------------------------------------


@pytest.fixture
def notebook7(lab_room):  # type: ignore[no-untyped-def]
    play = fast_notebook(NOTEBOOK_DIR / "01_play.ipynb")
    play["cells"].append(code_cell('print("KUM-LEN", len(board.game.history))'))
    return lab_room({"01_play.ipynb": play, "court.ipynb": court_notebook()}, app="notebook")


def open_in_notebook7(page: Any, server: LabRoom, name: str) -> Any:
    open_notebook(page, server, name)
    assert page.locator("body[data-notebook='notebooks']").count() == 1, "the Notebook 7 page, not JupyterLab's"
    run_all(page)
    board = page.locator(".kum-widget").first
    board.wait_for()
    wait_idle(page)
    return board


def test_notebook7_plays_and_its_cells_read_the_same_game(notebook7, browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    """Notebook 7 in make test: a few moves by clicks, and a cell reads the game the board shows
    (the whole game and its replay: the soak test below)."""
    page, errors = new_page(browser)
    board = open_in_notebook7(page, notebook7, "01_play.ipynb")
    board.locator("[data-playable]").first.wait_for()
    for _ in range(6):
        assert click_once(page, board)  # Ada's move (and the bot's answer, when it is the bot's turn)
    board.screenshot(path=str(artifacts / "host-notebook7-kum-played.png"))
    assert steps_in_log(page) >= 6  # the kernel's game holds every move clicked
    assert ours(errors) == []
    page.close()


@pytest.mark.soak  # a whole game in Notebook 7 and its replay (make test: a few moves, above; the replay's download: tests/board)
def test_notebook7_plays_kings_under_mountains_to_the_end(notebook7, browser, artifacts: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    page, errors = new_page(browser)
    board = open_in_notebook7(page, notebook7, "01_play.ipynb")
    board.locator("[data-playable]").first.wait_for()
    board.screenshot(path=str(artifacts / "host-notebook7-kum-start.png"))
    steps = play_to_the_end(page, board)
    assert steps > 40
    board.screenshot(path=str(artifacts / "host-notebook7-kum-over.png"))
    scores = shown_scores(board)
    said = run_cell(page, "game.scores(), game.deck_size", shows="'over'")
    match = re.search(r"'over', \[([-\d, ]+)\], 0\)", said)
    assert match, said
    assert [float(x) for x in match.group(1).split(",")] == scores
    # the board's Save replay button: the kernel writes the file, the page saves it
    with page.expect_download() as download:
        board.locator("[data-control='save-replay']").click()
    assert re.fullmatch(r"kings-under-mountains_[\w-]+_\d{4}-\d\d-\d\d-\d{4}\.html", download.value.suggested_filename)
    saved = tmp_path / "replay.html"
    download.value.save_as(saved)
    offline, requests, offline_errors = offline_page(browser, saved)
    assert offline.locator(".kum-replay").get_attribute("data-steps") == str(steps_in_log(page))
    offline.locator(".kum-replay").focus()
    offline.keyboard.press("End")
    assert [float(c.text_content() or "nan") for c in offline.locator(".kum-over [data-score]").all()] == scores
    offline.screenshot(path=str(artifacts / "host-notebook7-kum-replay.png"))
    assert requests == [] and offline_errors == []
    offline.close()
    assert ours(errors) == []
    page.close()


def steps_in_log(page: Any) -> int:
    """The game's length, read from a cell (the kernel's count, not the page's)."""
    said = run_cell(page, "KUM-LEN", shows="KUM-LEN [1-9]")
    match = re.search(r"KUM-LEN (\d+)", said)
    assert match, said
    return int(match.group(1))


@pytest.mark.soak  # a second whole game in Notebook 7 (Kings Under Mountains plays to the end in make test)
def test_notebook7_plays_the_court_to_the_end(notebook7, browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    page, errors = new_page(browser)
    board = open_in_notebook7(page, notebook7, "court.ipynb")
    board.locator("[data-zone='royal court']").wait_for()
    play_to_the_end(page, board)
    page.screenshot(path=str(artifacts / "host-notebook7-court-over.png"))
    (score,) = shown_scores(board)
    said = run_cell(page, "KUM-OVER", shows="KUM-OVER True")
    match = re.search(r"KUM-OVER True \[([-\d.]+)\]", said)
    assert match and float(match.group(1)) == score, said
    assert ours(errors) == []
    page.close()


# -- Voila ------------------------------------------------------------------------------

VOILA_DONE = "() => !document.getElementById('loading') && document.getElementById('rendered_cells')?.style.display === ''"


@pytest.mark.parametrize("which", ["kum", pytest.param("court", marks=pytest.mark.soak)])  # the court in Voila: make soak
def test_voila_serves_the_board_without_code_and_it_plays(browser, artifacts: Path, which: str) -> None:  # type: ignore[no-untyped-def]
    notebook = fast_notebook(NOTEBOOK_DIR / "01_play.ipynb") if which == "kum" else court_notebook()
    with VoilaServer(notebook) as voila:
        page, errors = new_page(browser)
        page.route("**/*", lambda r: r.abort() if not r.request.url.startswith("http://127.0.0.1") else r.continue_())
        page.goto(voila.url())
        wait_until(page, VOILA_DONE, what="Voila to run the notebook and show its cells")
        board = page.locator(".kum-widget[data-state-id]").first
        board.wait_for()
        # outputs and the notebook's text only: no code cell's source, no prompt, no editor
        assert page.locator(".jp-CodeCell .jp-InputArea, .jp-InputPrompt:visible, .jp-InputArea-editor, .cm-editor").count() == 0
        assert "import kum_widget" not in page.content() and "bot_delay" not in page.content()
        assert "Traceback" not in (page.locator("#rendered_cells").text_content() or "")
        start = board.get_attribute("data-state-id")
        for _ in range(6):
            assert click_once(page, board)
        assert board.get_attribute("data-state-id") != start
        log = board.locator("[data-zone='log'] li")
        assert log.count() >= 6  # one line per action: the clicks (and the bot's replies) went through the kernel
        page.screenshot(path=str(artifacts / f"host-voila-{which}.png"), full_page=True)
        assert errors == [], errors
        page.close()
        assert "Traceback" not in voila.log()


# -- marimo -----------------------------------------------------------------------------

MARIMO_APP = NOTEBOOK_DIR / "play_marimo.py"


def read_cell(page: Any, prefix: str, index: int) -> str:
    cells = page.locator(".marimo-cell", has_text=prefix)
    return str(cells.nth(index).text_content() or "")


def actions_read(page: Any, index: int) -> int:
    match = re.search(r"From Python: (\d+) actions?", read_cell(page, "From Python:", index))
    assert match, read_cell(page, "From Python:", index)
    return int(match.group(1))


def test_marimo_app_plays_both_games_and_its_cells_follow(browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    with MarimoServer(MARIMO_APP) as marimo:
        page, errors = new_page(browser, height=1600)
        page.goto(marimo.url())
        boards = page.locator("marimo-anywidget .kum-widget[data-state-id]")  # in open shadow roots
        boards.nth(1).wait_for()
        wait_until(page, "() => [...document.querySelectorAll('.marimo-cell')].filter(c => /From Python: 0 actions/.test(c.textContent)).length >= 2",
                   what="the cells that read the two games to run")
        kum_board, court_board = boards.nth(0), boards.nth(1)
        assert actions_read(page, 0) == 0 and actions_read(page, 1) == 0
        for k in range(4):
            before = actions_read(page, 0)
            assert click_once(page, kum_board)
            # the cell that reads the game runs again: it counts this click (and the bot's reply)
            wait_until(page,
                       "([n]) => { const c = [...document.querySelectorAll('.marimo-cell')].filter(c => /From Python:/.test(c.textContent))[0];"
                       " const m = /From Python: (\\d+) actions?/.exec(c.textContent); return m && Number(m[1]) > n; }",
                       [before], what=f"the cell that reads the game to count more than {before} actions")
            assert kum_board.locator("[data-zone='log'] li").count() == actions_read(page, 0), k
        for _ in range(3):  # the court's three starting cards
            assert click_once(page, court_board)
        wait_until(page, "() => [...document.querySelectorAll('.marimo-cell')].some(c => /From Python: 3 actions played; turn 1, phase buy/.test(c.textContent))",
                   what="the cell that reads the court to count its three starting cards")
        assert "phase buy" in read_cell(page, "From Python:", 1)
        page.screenshot(path=str(artifacts / "host-marimo.png"), full_page=True)
        assert errors == [], errors
        page.close()
        assert "Traceback" not in marimo.log(), marimo.log()[-3000:]


@pytest.mark.soak  # marimo's editor (make test plays the app above, and keys in the editor: test_e2e_keys)
def test_the_marimo_notebook_opens_for_editing_and_plays(browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    with MarimoServer(MARIMO_APP, mode="edit") as marimo:
        page, errors = new_page(browser, height=1600)
        page.goto(marimo.url())
        page.locator(".marimo-cell .cm-editor").first.wait_for()
        # An opened notebook waits, its cells stale, for the run button (bottom right).
        page.locator("[data-testid='chrome-controls-bottom-right'] [data-testid='run-button']").click()
        boards = page.locator("marimo-anywidget .kum-widget[data-state-id]")
        boards.nth(1).wait_for()
        assert page.locator(".marimo-cell .cm-editor").count() >= 6, "the edit view shows the code"
        assert click_once(page, boards.nth(1))
        page.screenshot(path=str(artifacts / "host-marimo-edit.png"))
        assert errors == [], errors
        page.close()
        assert "Traceback" not in marimo.log(), marimo.log()[-3000:]


def test_the_marimo_app_is_a_valid_marimo_notebook() -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "marimo", "check", str(MARIMO_APP)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "issue" not in done.stdout + done.stderr, done.stdout + done.stderr
