"""An executed notebook exported with nbconvert shows its boards offline (issue 13).

The board's display carries, beside the live widget view, a picture of the board drawn
by the same renderer (``text/html``) and the text board (``text/plain``). nbconvert
writes the widget view only for widgets whose state it stored, and that view needs
three CDNs; with ``--ExecutePreprocessor.store_widget_state=False`` (the README's export
line, ``make html``) it writes the picture. Opened from ``file://`` with every request
aborted, the page shows each board as it was when its cell ran.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import nbformat
import pytest
from _chromium import offline_page
from test_notebooks import NOTEBOOK_DIR, fast_notebook

import kum_widget as kum
from kum_widget.board.drawing import Viewer, board_payload

NO_STATE = "--ExecutePreprocessor.store_widget_state=False"


def export(notebook: Path, *flags: str) -> Path:
    """``jupyter nbconvert --to html --execute`` as a user runs it; the HTML file's path."""
    done = subprocess.run(
        [sys.executable, "-m", "jupyter", "nbconvert", "--to", "html", "--execute", *flags, str(notebook)],
        capture_output=True, text=True, timeout=300, cwd=notebook.parent,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return notebook.with_suffix(".html")


def court_notebook(path: Path) -> Path:
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("import kum_widget as kum\nboard = kum.GameWidget(kum.Court(seed=7))\nboard"),
        nbformat.v4.new_code_cell(
            "for _ in range(5):\n    board.act(board.offered[0])\nboard  # shown again: the page records this position too"
        ),
        nbformat.v4.new_code_cell("print(board.game.move_number, board.game.scores())"),
    ]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nbformat.write(nb, path)
    return path


def hand(page: Any, which: int = 0) -> list[str]:
    cards = page.locator(".kum-snapshot").nth(which).locator("[data-zone='hand 0'] .kum-card")
    return [cards.nth(k).get_attribute("data-label") or "" for k in range(cards.count())]


def test_the_play_notebook_exports_its_board_offline(browser: Any, artifacts: Path, tmp_path: Path) -> None:
    notebook = tmp_path / "01_play.ipynb"
    notebook.write_text(json.dumps(fast_notebook(NOTEBOOK_DIR / "01_play.ipynb")))
    html = export(notebook, NO_STATE)
    text = html.read_text(encoding="utf-8")
    assert "application/vnd.jupyter.widget-state+json" not in text
    page, requests, errors = offline_page(browser, html)
    assert all(not url.startswith("file:") for url in requests)  # the CDNs nbconvert links: aborted, not needed
    shots = page.locator(".kum-snapshot[data-ready='true'] .kum-widget[data-state-id]")
    assert shots.count() == 1
    # the board as the notebook left it: the one its first cell makes, seat 0 to play, the bot's hand face down
    expected = kum.GameWidget(bots={1: "greedy"}, seed=42, bot_delay=0).board
    assert page.locator(".kum-snapshot .kum-status").inner_text() == expected["status"]
    own = next(z for z in expected["seats"][0]["zones"] if z["id"] == "hand 0")
    assert len(hand(page)) == len(own["cards"]) == 6
    assert page.locator(".kum-snapshot [data-zone='hand 1'] .kum-face-main.kum-face-hidden").count() == 6
    assert page.locator(".kum-snapshot [data-control], .kum-snapshot button").count() == 0, "a picture: nothing to click"
    page.locator(".kum-snapshot").first.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "export-01_play.png"), full_page=True)
    assert errors == []
    page.close()


def test_the_court_notebook_shows_each_board_as_its_cell_left_it(browser: Any, artifacts: Path, tmp_path: Path) -> None:
    html = export(court_notebook(tmp_path / "court.ipynb"), NO_STATE)
    page, _requests, errors = offline_page(browser, html)
    page.wait_for_function("() => document.querySelectorAll(\".kum-snapshot[data-ready='true']\").length === 2")
    game = kum.Court(seed=7)
    statuses = [board_payload(game, Viewer("seat", 0))["status"]]
    for _ in range(5):
        game.apply(game.legal_actions()[0])
    statuses.append(board_payload(game, Viewer("seat", 0))["status"])
    assert [page.locator(".kum-snapshot .kum-status").nth(k).inner_text() for k in range(2)] == statuses
    assert f"{game.move_number} {game.scores()}" in page.locator(".jp-OutputArea-output pre").last.inner_text()
    page.screenshot(path=str(artifacts / "export-court.png"), full_page=True)
    assert errors == []
    page.close()


@pytest.mark.parametrize("flags", [pytest.param((), marks=pytest.mark.soak), (NO_STATE,)])  # without the flag: make soak
def test_what_nbconvert_writes_for_a_board(tmp_path: Path, flags: tuple[str, ...]) -> None:
    """Why the export line has the flag: with the widgets' state stored, nbconvert writes the
    live view (drawn only online, by CDN scripts) and leaves the picture out."""
    text = export(court_notebook(tmp_path / "court.ipynb"), *flags).read_text(encoding="utf-8")
    if flags:
        assert text.count("kum-snapshot") >= 2 and "widget-state+json" not in text
    else:
        assert "application/vnd.jupyter.widget-state+json" in text and "kum-snapshot" not in text
