"""End to end (issue 32, item 5): a hot-seat board in a real `jupyter lab`, saved with
"Save Jupyter widget state in notebooks" on (the setting
``@jupyter-widgets/jupyterlab-manager:plugin`` ``saveState``). The lab's save writes the
front-end models' state into the notebook; the hand of the seat at the screen is on the
page (from a message, kept in the view's memory) and never on a model, so the saved file
holds the public table only. After a reload the page asks for the hand again.

Screenshots go to test-artifacts/ (saved-state-*.png).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from _chromium import WAIT_MS, dismiss_intro, open_board, wait_board_changed
from labserver import code_cell, wait_idle

import kum_widget as kum

SEED = 4
NAME = "hot_seat.ipynb"


def hot_seat_notebook() -> dict[str, Any]:
    return {
        "cells": [code_cell(f"import kum_widget as kum\nboard = kum.GameWidget(kum.Game(['Ada', 'Bo'], seed={SEED}))\nboard")],
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}}, "nbformat": 4, "nbformat_minor": 5,
    }


@pytest.fixture
def lab(lab_room):  # type: ignore[no-untyped-def]
    # the widget manager's "save widget state", read by the page when it loads
    return lab_room({NAME: hot_seat_notebook()}, settings={"@jupyter-widgets/jupyterlab-manager/plugin.jupyterlab-settings": {"saveState": True}})


def private_marks(game: kum.Game, seat: int) -> list[str]:
    return [m for c in game.hand(seat) if not game._state.known[c.id] for m in (f"card {c.id}", c.label)]


def saved_widget_state(path: Path, old: float, timeout: float = WAIT_MS / 1000) -> tuple[str, dict[str, Any]]:
    """The notebook file once a save newer than ``old`` wrote widget state into it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.stat().st_mtime > old:
            text = path.read_text()
            nb = json.loads(text)
            if "widgets" in nb.get("metadata", {}):
                return text, nb
        time.sleep(0.2)
    raise AssertionError(f"no save with widget state within {timeout:.0f} s")


def test_a_lab_save_with_widget_state_keeps_no_hand_and_a_reload_shows_it_again(lab, browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    page, board, errors = open_board(browser, lab, NAME, own_page=True)  # (it reloads the page)
    board.locator('.kum-pass [data-control="ready"]').click()  # "I am Ada"
    board.locator('[data-zone="hand 0"] [data-playable]').first.wait_for()
    dismiss_intro(board)  # the first-time panel, behind the pass screen until now
    assert board.locator('[data-zone="hand 0"] [data-card^="card "]').count() == 6
    board.screenshot(path=str(artifacts / "saved-state-hand.png"))

    path = lab.path(NAME)
    old = path.stat().st_mtime
    page.locator(".jp-Notebook").first.click(position={"x": 5, "y": 5})
    page.keyboard.press("Control+s")  # File > Save (docmanager:save), with the widget state
    text, nb = saved_widget_state(path, old)
    states = nb["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    boards = [m["state"] for m in states.values() if m["state"].get("_anywidget_id") == "kum_widget.board.widget.GameWidget"]
    assert len(boards) == 1 and boards[0]["board"]["players"]  # the board's state was saved ...
    assert boards[0]["private_id"] > 0 and boards[0]["legal"] == {"actions": []}
    marks = private_marks(kum.Game(["Ada", "Bo"], seed=SEED), 0)
    assert len(marks) == 12 and [m for m in marks if m in text] == []  # ... and none of Ada's cards

    # The page reloads: the views are drawn anew from the kernel's models, and ask for the hand.
    page.reload()
    page.wait_for_selector(".jp-NotebookPanel")
    wait_idle(page)
    board = page.locator(".kum-widget").first
    board.locator('[data-zone="hand 0"] [data-playable]').first.wait_for()
    assert board.locator('[data-zone="hand 0"] [data-card^="card "]').count() == 6
    assert board.locator('[data-zone="hand 1"] [data-card^="card "]').count() == 0
    board.screenshot(path=str(artifacts / "saved-state-reloaded.png"))
    # and the board plays on by clicking
    sid = board.get_attribute("data-state-id")
    board.locator('[data-zone="hand 0"] [data-playable]').first.click()
    board.locator(".kum-target[data-action]").first.click()
    wait_board_changed(page, board, sid, "Ada's play")
    assert errors == []
    page.close()
