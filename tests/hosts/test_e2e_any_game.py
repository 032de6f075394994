"""End to end for any game on the core: a real JupyterLab, Chromium, and games that are not
Kings Under Mountains, played to the end by clicking only through the public testing hooks
(``[data-action]``, ``[data-playable]``, ``.kum-widget[data-state-id]``).

The games: Bust (GAMES.md's example) and the game a "student" wrote from GAMES.md alone
(tests/game_from_docs.py). Screenshots go to test-artifacts/.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from _chromium import open_board
from labserver import ROOT, click_once, code_cell, run_cell

GAMES = {
    "bust": ("from kum_widget.core.examples import Bust as Game", "Bust"),
    "docs": ("from game_from_docs import Expeditions as Game", "Expeditions"),
}


def notebook(kind: str) -> dict:
    import_line, _ = GAMES[kind]
    setup = f"import sys\nsys.path.insert(0, {str(ROOT / 'tests')!r})\nimport kum_widget as kum\n{import_line}"
    cells = [
        code_cell(setup),
        code_cell('board = kum.GameWidget(Game(), bots={1: "greedy"}, seed=7, bot_delay=0.02)\nboard'),
        code_cell('print("KUM-OVER", board.game.is_over, board.game.scores())'),
    ]
    return {"cells": cells, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}}, "nbformat": 4, "nbformat_minor": 5}


@pytest.fixture
def lab(lab_room):  # type: ignore[no-untyped-def]
    return lab_room({f"{kind}.ipynb": notebook(kind) for kind in GAMES})


@pytest.mark.parametrize("kind", [k if k == "bust" else pytest.param(k, marks=pytest.mark.soak) for k in GAMES])  # Bust in make test
def test_any_game_plays_to_the_end_by_clicking(lab, browser, artifacts: Path, kind: str) -> None:  # type: ignore[no-untyped-def]
    page, board, errors = open_board(browser, lab, f"{kind}.ipynb", height=1100)
    steps = 0
    while click_once(page, board):
        steps += 1
        if steps == 2:
            board.screenshot(path=str(artifacts / f"any-game-{kind}-midgame.png"))
        assert steps < 400, "the game did not end"
    board.screenshot(path=str(artifacts / f"any-game-{kind}-over.png"))
    shown = {int(c.get_attribute("data-score")): float(c.text_content()) for c in board.locator("[data-score]").all()}
    said = run_cell(page, "KUM-OVER", shows="KUM-OVER True")
    match = re.search(r"KUM-OVER True \[([-\d., ]+)\]", said)
    assert match, said
    assert [float(x) for x in match.group(1).split(",")] == [shown[s] for s in sorted(shown)]
    assert errors == []
