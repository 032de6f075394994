"""The board keeps its keys (issue 42, item 3), for real: in JupyterLab and in Jupyter Notebook 7
(both Lumino: a key pressed inside an element marked ``data-lm-suppress-shortcuts`` runs no
notebook shortcut), and in marimo's editor (its command-mode keys).

With a card of the board focused, ``d d`` (delete the cell), ``b`` (a cell below), ``a`` (one
above) and ``m`` (to Markdown) leave the notebook as it was: its cells, their number and their
types. The board's own keys work (Enter chooses a card and plays it, Escape takes a choice back,
by key or by mouse), and nothing traps the keyboard (WCAG 2.1.2): Escape with nothing to take
back, or Tab past the board's last control, hands the focus back to the notebook, whose keys
then work again (``b`` adds a cell).

Screenshots go to test-artifacts/ (keys-*.png).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from _chromium import open_board, wait_board_changed, wait_until, watched_page
from labserver import notebook_of

BOARD = 'import kum_widget as kum\nboard = kum.GameWidget(bots={1: "greedy"}, seed=3, bot_delay=0)\nboard'


def notebook() -> dict[str, Any]:
    note = {"cell_type": "markdown", "metadata": {}, "source": "A note under the board."}
    return notebook_of(BOARD, note, 'print("KUM-AFTER")')


# The notebook's cells, in order: their types (JupyterLab's and Notebook 7's DOM: every cell is
# rendered, the tests' settings turn windowing off).
CELLS = """() => [...document.querySelectorAll('.jp-Notebook .jp-Cell')].map(c =>
  c.classList.contains('jp-MarkdownCell') ? 'markdown' : c.classList.contains('jp-CodeCell') ? 'code' : 'raw')"""

# Where the focus is: inside the board, in the board's own cell (outside the board), or elsewhere.
WHERE = """el => { let a = document.activeElement; while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  if (el.contains(a)) return a === el ? 'board root' : 'board';
  const host = el.getRootNode().host || el;
  const cell = host.closest('.jp-Cell, .marimo-cell');
  return cell && (cell === a || cell.contains(a)) ? 'cell' : (a ? a.tagName + '.' + a.className : 'none'); }"""

# The board's last control in the Tab order: Tab from it leaves the board.
LAST = """el => { const all = [...el.querySelectorAll('button, summary, select, input, [tabindex="0"]')]
  .filter(e => !e.disabled && e.getClientRects().length && !e.closest('[inert], [data-transient]'));
  const last = all[all.length - 1]; last.focus(); return last.tagName + (last.dataset.key ? ' ' + last.dataset.key : ''); }"""


@pytest.fixture(params=["lab", pytest.param("notebook", marks=pytest.mark.soak)])  # Notebook 7's keys: make soak (its board plays in make test: test_e2e_hosts.py)
def server(request, lab_room):  # type: ignore[no-untyped-def]
    return lab_room({"keys.ipynb": notebook()}, app=request.param)


def test_notebook_shortcuts_do_not_fire_inside_the_board_and_escape_hands_the_focus_back(server, browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    page, board, errors = open_board(browser, server, "keys.ipynb", height=1100)
    close = board.locator('[data-control="intro-close"]')
    if close.count():
        close.click()
    before = page.evaluate(CELLS)
    assert before == ["code", "markdown", "code"], before
    card = board.locator('[data-zone="hand 0"] [data-playable]').first

    # a card chosen with the mouse: Escape takes the choice back, the focus stays on the card
    card.click()
    assert board.locator(".kum-selected").count() == 1
    page.keyboard.press("Escape")
    assert board.locator(".kum-selected").count() == 0 and board.locator(".kum-lit").count() == 0
    assert board.evaluate(WHERE) == "board" and page.evaluate("() => document.activeElement.classList.contains('kum-card')")

    # the notebook's command-mode keys, pressed on the focused card: nothing happens to the notebook
    card.focus()
    for key in ["d", "d", "b", "m", "a", "x", "z"]:
        page.keyboard.press(key)
    assert board.evaluate(WHERE) == "board"

    # the board's own keys: Enter chooses the card (the focus goes to its first place), Escape
    # takes it back (the focus back on the card), Enter twice plays it
    page.keyboard.press("Enter")
    assert board.locator(".kum-selected").count() == 1
    assert page.evaluate("() => document.activeElement.classList.contains('kum-lit')")
    page.keyboard.press("Escape")
    assert board.locator(".kum-selected").count() == 0 and page.evaluate("() => document.activeElement.dataset.playable !== undefined")
    sid = board.get_attribute("data-state-id")
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    wait_board_changed(page, board, sid, "the card played by keyboard")
    board.screenshot(path=str(artifacts / f"keys-{server.app}-played.png"))

    # no trap: Escape with nothing to take back hands the focus to the board's cell, whose keys work
    page.keyboard.press("Escape")
    assert board.evaluate(WHERE) == "cell", board.evaluate(WHERE)
    page.keyboard.press("b")  # the notebook's: a cell below the board's
    wait_until(page, f"() => ({CELLS})().length === 4", what="JupyterLab's 'b' to add a cell below the board's")
    after = page.evaluate(CELLS)
    assert after == ["code", "code", "markdown", "code"], after  # d d, a, m, x and z inside the board did nothing

    # and Tab from the board's last control leaves the board
    last = board.evaluate(LAST)
    page.keyboard.press("Tab")
    assert board.evaluate(WHERE) not in ("board", "board root"), last
    page.screenshot(path=str(artifacts / f"keys-{server.app}.png"))
    assert [e for e in errors if "kum" in e.lower() or "widget" in e.lower()] == [], errors


@pytest.mark.soak  # marimo's keys (about 17 s): make soak; its board plays in make test (test_e2e_hosts.py)
def test_in_marimo_the_command_mode_keys_do_not_fire_inside_the_board(browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    from hostservers import MarimoServer
    from test_notebooks import NOTEBOOK_DIR

    with MarimoServer(NOTEBOOK_DIR / "play_marimo.py", mode="edit") as marimo:
        page, errors = watched_page(browser, width=1280, height=1600)
        page.goto(marimo.url())
        page.locator(".marimo-cell .cm-editor").first.wait_for()
        page.locator("[data-testid='chrome-controls-bottom-right'] [data-testid='run-button']").click()
        board = page.locator("marimo-anywidget .kum-widget[data-state-id]").first  # in an open shadow root
        card = board.locator('[data-zone="hand 0"] [data-playable]').first
        card.wait_for()
        cells = "() => document.querySelectorAll('.marimo-cell').length"
        before = page.evaluate(cells)
        card.click()
        page.keyboard.press("Escape")
        assert board.locator(".kum-selected").count() == 0 and board.evaluate(WHERE) == "board"
        for key in ["d", "d", "b", "a", "m", "x"]:
            page.keyboard.press(key)
        assert board.evaluate(WHERE) == "board"
        page.keyboard.press("Escape")  # out of the board, to its cell
        assert board.evaluate(WHERE) == "cell", board.evaluate(WHERE)
        assert page.evaluate(cells) == before
        page.screenshot(path=str(artifacts / "keys-marimo.png"))
        assert errors == [], errors
        page.close()
