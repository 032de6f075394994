"""The course site in real headless Chromium, served from 127.0.0.1 under /course/, with every
request to any other host blocked and counted (any fails the test): the course notebooks the
README calls offline-ready run with Run All; on the first, a whole game against the greedy bot
is played by clicks to game over, undone and redone, its replay is saved to the browser's drive
and downloaded, and a hot-seat board is played by both seats; a game written in a cell (the
fifth notebook's Duel) passes check_game and shows its board; check_game on every game and the
core's doctests pass in Pyodide. The time to the first board and the clicks played are printed
and written to test-artifacts/site.json; screenshots go to test-artifacts/site_*.png."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from _chromium import WAIT_MS, wait_board_changed, wait_still, wait_until
from _site_helpers import FIRST_BOARD_MS, open_course_notebook, run_new_cell
from labserver import click_once, run_all, run_cell, snapshot

pytestmark = pytest.mark.site

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
# A whole notebook's Run All, on a loaded 2-core machine.
NOTEBOOK_MS = 600_000
# The notebooks the README calls offline-ready, besides 01_play.ipynb (played to the end below).
OFFLINE_READY = ["02_rules_tour.ipynb", "03_scripting.ipynb"]

# The prompts of the cells whose code shows (the install cell's is collapsed: its placeholder
# has an empty prompt of its own).
PROMPTS = "[...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputArea .jp-InputPrompt')]"
FINISHED = f"""() => {{
  const prompts = {PROMPTS};
  const ran = prompts.length > 0 && prompts.every(p => /\\[\\d+\\]/.test(p.textContent));
  const failed = [...document.querySelectorAll('.jp-OutputArea-output')].some(o => o.textContent.includes('Traceback'));
  return (ran || failed) && !prompts.some(p => p.textContent.includes('*'));
}}"""
SHOW_PROMPTS = f"() => {PROMPTS}.map(p => p.textContent.trim())"


@pytest.fixture()
def lite_page(browser: Any, site_url: str) -> Iterator[tuple[Any, list[str], list[str]]]:
    """A fresh context's page (no cache, no browser storage) where a request to any host but the
    site's is blocked; and the lists of blocked requests and of the page's JavaScript errors."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True)
    site_host = urlsplit(site_url).netloc
    blocked: list[str] = []

    def only_the_site(route: Any) -> None:
        if urlsplit(route.request.url).netloc == site_host:
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    context.route("**/*", only_the_site)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    page.set_default_navigation_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page, blocked, errors
    context.close()


def tracebacks(page: Any) -> list[str]:
    return [text for text in page.locator(".jp-OutputArea-output").all_text_contents() if "Traceback" in text]


def test_a_whole_game_against_the_greedy_bot_and_its_replay_offline(lite_page: tuple[Any, list[str], list[str]], site_url: str) -> None:
    page, blocked, errors = lite_page
    started = time.perf_counter()
    open_course_notebook(page, site_url, "01_play.ipynb")
    run_all(page)
    board = page.locator(".kum-widget[data-state-id]").first
    board.wait_for(timeout=FIRST_BOARD_MS)
    first_board = time.perf_counter() - started

    clicks, game_started = 0, time.perf_counter()
    while click_once(page, board):
        clicks += 1
    assert snapshot(board)["over"]
    seconds = time.perf_counter() - game_started
    ARTIFACTS.mkdir(exist_ok=True)
    board.scroll_into_view_if_needed()
    wait_still(page, board, "the cards' flights to land")
    page.screenshot(path=str(ARTIFACTS / "site_board.png"))
    figures = {"first_board_s": round(first_board, 1), "clicks": clicks, "game_s": round(seconds, 1)}
    (ARTIFACTS / "site.json").write_text(json.dumps(figures, indent=1))
    print(f"site: first board after {first_board:.1f} s; {clicks} clicks to game over in {seconds:.1f} s")
    assert clicks >= 20, f"a whole game took only {clicks} clicks"

    # Undo and redo in the browser's Python: back to before the last decision, and over again
    over = snapshot(board)["sid"]
    board.locator("button", has_text="Undo").first.click()
    wait_board_changed(page, board, over, "Undo")
    assert not snapshot(board)["over"]
    undone = snapshot(board)["sid"]
    board.locator("button", has_text="Redo").first.click()
    wait_board_changed(page, board, undone, "Redo")
    assert snapshot(board)["over"]

    # The board's Save replay: a download, made in the page (no server behind the site).
    with page.expect_download() as download:
        board.locator("[data-control='save-replay'], button", has_text="Save replay").first.click()
    replay = Path(download.value.path()).read_text()
    assert download.value.suggested_filename.endswith(".html") and "<html" in replay.lower()
    # Saved from a cell: the file is in the browser's drive, beside the notebook, in the file browser.
    run_new_cell(page, 'kum.save_replay(board.game, "my_game.html")')
    page.locator(".jp-DirListing-content").get_by_text("my_game.html").wait_for()

    # Hot seat: a board with no bot, both seats played by clicks in turn (each turn opens on the
    # screen that passes the table to its player)
    run_new_cell(page, "hot = kum.GameWidget(seed=1); hot")
    hot = page.locator(".kum-widget[data-state-id]").last
    hot.wait_for()
    seats = []
    for _ in range(6):
        if hot.locator(".kum-pass").count():
            hot.locator(".kum-pass button").click()
            wait_until(page, "el => !el.querySelector('.kum-pass') && !!el.querySelector('[data-playable]:not([disabled]), [data-action]:not([disabled])')",
                       hot.element_handle(), what="the table passed: the hand shown")
        seats.append(hot.evaluate("el => el.querySelector('.kum-seat.kum-current')?.dataset.seat"))
        assert click_once(page, hot)
    assert len(set(seats)) == 2, seats

    assert tracebacks(page) == []
    assert blocked == [], f"{len(blocked)} requests to other hosts: {blocked[:10]}"
    assert errors == []


@pytest.mark.parametrize("name", OFFLINE_READY)
def test_offline_ready_notebook_runs_with_run_all(lite_page: tuple[Any, list[str], list[str]], site_url: str, name: str) -> None:
    page, blocked, errors = lite_page
    open_course_notebook(page, site_url, name)
    run_all(page)
    wait_until(page, FINISHED, what=f"{name}: every cell run (or a traceback)", timeout=NOTEBOOK_MS, show=SHOW_PROMPTS)
    assert tracebacks(page) == []
    prompts = page.evaluate(SHOW_PROMPTS)
    assert all(re.fullmatch(r"\[\d+\]:?", p) for p in prompts), f"cells that did not run: {prompts}"
    boards = page.locator(".kum-widget[data-state-id]")
    assert boards.count() >= 1
    for i in range(boards.count()):
        assert boards.nth(i).locator(".kum-error").count() == 0, boards.nth(i).locator(".kum-error").first.text_content()
    if name == "03_scripting.ipynb":  # its parameter SAVES, set for the site: the game saved in the browser's drive
        page.locator(".jp-DirListing-content").get_by_text("saved", exact=True).wait_for()
    assert blocked == [], f"{len(blocked)} requests to other hosts: {blocked[:10]}"
    assert errors == []


def test_a_game_written_in_a_cell_is_checked_and_shows_its_board(lite_page: tuple[Any, list[str], list[str]], site_url: str) -> None:
    """05_make_a_game.ipynb up to its board: Duel, written in a cell, passes check_game in the
    browser's Python and is played on its board against ISMCTS (a click, and the bot's answer);
    the lab's cell after it says pandas is not there; every shipped and gallery game passes
    check_game in Pyodide, and so do the core's doctests."""
    page, blocked, errors = lite_page
    open_course_notebook(page, site_url, "05_make_a_game.ipynb")
    after_board = page.locator(".jp-CodeCell", has_text="print(board)").first
    after_board.locator(".jp-InputArea-editor").click()
    page.locator(".lm-MenuBar-item", has_text="Run").first.click()
    page.locator(".lm-Menu-item[data-command='notebook:run-all-above']").click()
    board = page.locator(".kum-widget[data-state-id]").first
    board.wait_for(timeout=FIRST_BOARD_MS)
    assert tracebacks(page) == []
    checked = page.locator(".jp-CodeCell", has_text="check_game(Duel()").first.locator(".jp-OutputArea-output")
    assert "all checks passed" in checked.text_content()
    assert click_once(page, board)  # our card: then it is ISMCTS's turn, nothing of ours to click
    assert snapshot(board, playable="[data-playable]:not([disabled])")["playable"] == 0
    wait_until(page, "el => el.querySelector('[data-playable]:not([disabled])') && !el.hasAttribute('aria-busy')",
               board.element_handle(), what="ISMCTS's answer: a card of ours to play again")
    wait_still(page, board, "the cards' flights to land")
    board.screenshot(path=str(ARTIFACTS / "site_duel.png"))
    assert board.locator(".kum-error").count() == 0
    # the lab's next cell: no pandas offline, and the lab says so in one sentence
    out = run_cell(page, "greedy = kum.simulate", shows="Pyodide's own distribution")
    assert "GameError: simulate: the lab's tables need pandas" in out

    # Pyodide runs another Python than the project's tests (3.14 here): check_game on every
    # shipped and gallery game, and the core's doctests, inside it
    checked = run_new_cell(page, "print({n: core.check_game(c(), games=2).ok for c, n in {core.game_class(n): n for n in core.game_names()}.items()})")
    assert re.fullmatch(r"\{('[a-z-]+': True(, )?)+\}", checked.strip()), checked
    assert {"bust", "court", "connect-four", "undercut", "whispers", "woodcutters"} <= set(re.findall(r"'([a-z-]+)'", checked))
    doctests = run_new_cell(page, "import doctest, importlib, pkgutil; r = [doctest.testmod(importlib.import_module(m.name)) "
                                  "for m in pkgutil.walk_packages(core.__path__, 'kum_widget.core.')]; "
                                  "print('failed', sum(x.failed for x in r), 'of', sum(x.attempted for x in r))")
    failed, attempted = map(int, re.fullmatch(r"failed (\d+) of (\d+)", doctests.strip()).groups())  # type: ignore[union-attr]
    assert failed == 0 and attempted > 0, doctests
    assert blocked == [], f"{len(blocked)} requests to other hosts: {blocked[:10]}"
    assert errors == []


def test_a_click_while_the_hint_searches_is_answered_in_pyodide(lite_page: tuple[Any, list[str], list[str]], site_url: str) -> None:
    """The board's search runs a slice at a time on the kernel's event loop (Pyodide's too):
    a draw clicked while the Hint searches is played at once and stops the search, as in
    JupyterLab (tests/hosts/test_e2e_search_live.py)."""
    page, blocked, errors = lite_page
    open_course_notebook(page, site_url, "01_play.ipynb")
    run_new_cell(page, '%pip install "kum-widget[widget]"')  # the course's first cell, without the notebook's boards
    run_new_cell(page, "import kum_widget as kum\nfrom kum_widget.core.examples import Bust\n"
                       'looping = kum.GameWidget(Bust(limit=100), players=["Ada", "Bo"], bots={1: "ismcts"}, seed=1, bot_delay=0.05)\n'
                       "looping")
    board = page.locator(".kum-widget[data-state-id]").last
    board.wait_for(timeout=FIRST_BOARD_MS)
    intro = board.locator('[data-control="intro-close"]')
    if intro.count():
        intro.click()
    draw = board.locator('[data-action="draw"]:not([disabled])')
    draw.wait_for()
    board.evaluate("""el => { const seen = window.kumSeen = {hint: false};
        new MutationObserver(() => { seen.hint ||= !!el.querySelector('.kum-think-chosen'); })
          .observe(el, {attributes: true, childList: true, subtree: true}); }""")
    board.locator('[data-control="hint"]').click()  # a search of seconds for Ada on this variant
    wait_until(page, "el => !el.hasAttribute('aria-busy')", board.element_handle(), what="the Hint's answer (its search goes on)")
    assert board.locator(".kum-think-chosen").count() == 0  # still searching
    sid = board.get_attribute("data-state-id")
    start = time.perf_counter()
    draw.click()
    wait_board_changed(page, board, sid, "Ada's draw while the Hint searches")
    print(f"site: a click while the Hint searches answered in {time.perf_counter() - start:.2f} s")
    assert page.evaluate("window.kumSeen.hint") is False  # the draw came first: its move stopped the Hint's search
    assert tracebacks(page) == []
    assert blocked == [], f"{len(blocked)} requests to other hosts: {blocked[:10]}"
    assert errors == []
