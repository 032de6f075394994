"""End to end: every notebook opens and runs in a real JupyterLab, in Chromium.

One JupyterLab serves every notebook of notebooks/ (with the test parameters of
``FAST``). For each: Run All, wait for the kernel to finish, then check that no
JavaScript error reached the page, no cell shows a traceback, every code cell ran, and
every widget the kernel displayed is rendered (the board, sliders, boxes) with no error
in it. Screenshots of each notebook, page by page, go to test-artifacts/.

The rules tour is then played by clicking: each section's move, made on its board, must
show the rule in the board's log.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from _chromium import WAIT_MS, dismiss_intro, new_page, wait_board_changed, wait_still, wait_until
from labserver import LabRoom, open_notebook, run_all, wait_idle
from test_notebooks import NOTEBOOKS, fast_notebook

WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
TIMEOUT = 300_000  # ms: a whole notebook
VIEWPORT = {"width": 1280, "height": 1400}

# A widget's output area: the widget renderer sets no data-mime-type (newer versions may).
WIDGET_OUTPUTS = f'.jp-OutputArea-output[data-mime-type="{WIDGET_MIME}"], .jp-OutputArea-output:not([data-mime-type])'

FINISHED = """() => {
  const prompts = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')];
  const ran = prompts.length > 0 && prompts.every(p => /\\[\\d+\\]/.test(p.textContent));
  const failed = [...document.querySelectorAll('.jp-OutputArea-output')].some(o => o.textContent.includes('Traceback'));
  return (ran || failed) && !prompts.some(p => p.textContent.includes('*'));
}"""

# What the notebook shows: each code cell's prompt, the kernel's state, any dialog.
PROMPTS = """() => ({prompts: [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')].map(p => p.textContent.trim()),
  kernel: document.querySelector('.jp-Notebook-ExecutionIndicator')?.dataset.status,
  dialog: document.querySelector('.jp-Dialog')?.textContent.slice(0, 300)})"""

# Seats a board of each notebook draws at least (default 2); a solitaire draws its one seat.
BOARD_SEATS = {"06_court.ipynb": 1}

# Notebooks that must show a board (a .kum-widget with its state id): its screenshot is saved too.
BOARDS = {"06_court.ipynb": 1}

RENDERED = """sel => [...document.querySelectorAll(sel)].every(o =>
  o.querySelector('.kum-widget .kum-seat, .jupyter-widgets:not(.jp-OutputArea-output)') !== null
  || o.textContent.includes('Error displaying widget'))"""


@pytest.fixture
def lab(lab_room):  # type: ignore[no-untyped-def]
    return lab_room({path.name: fast_notebook(path) for path in NOTEBOOKS})


def watched(browser):  # type: ignore[no-untyped-def]
    page = new_page(browser, **VIEWPORT)
    page.js_errors = []
    page.on("pageerror", lambda exc: page.js_errors.append(str(exc)))
    page.on("dialog", lambda dialog: (page.js_errors.append(f"dialog: {dialog.message}"), dialog.dismiss()))
    return page


def open_and_run(page, lab: LabRoom, name: str) -> None:  # type: ignore[no-untyped-def]
    """Open the notebook, hide the file browser, Run All, wait until the kernel is done."""
    open_notebook(page, lab, name)
    left = page.locator(".jp-SideBar.jp-mod-left .lm-TabBar-tab.lm-mod-current")
    if left.count():
        left.first.click()  # collapse the file browser: more room for the notebook
    run_all(page)
    wait_until(page, FINISHED, what=f"{name}: every cell run (or a traceback)", timeout=TIMEOUT, show=PROMPTS)
    wait_idle(page, timeout=TIMEOUT)


def saved_outputs(page, lab: LabRoom, name: str) -> list[dict[str, Any]]:  # type: ignore[no-untyped-def]
    """Save the notebook from JupyterLab and read back the outputs the kernel sent."""
    path = lab.path(name)
    page.locator(".lm-MenuBar-item", has_text="File").first.click()
    page.locator(".lm-Menu-item[data-command='docmanager:save']").click()
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        try:
            nb = json.loads(path.read_text())
        except json.JSONDecodeError:  # caught half-written
            nb = {"cells": []}
        outputs = [o for c in nb["cells"] if c["cell_type"] == "code" for o in c.get("outputs", [])]
        if outputs:
            return outputs
        time.sleep(0.25)
    raise AssertionError(f"{name}: saving from JupyterLab wrote no outputs in {WAIT_MS / 1000:.0f} s")


def screenshot_pages(page, artifacts: Path, stem: str) -> list[Path]:  # type: ignore[no-untyped-def]
    """Scroll through the notebook, one screenshot per screenful, down to its last cell."""
    for old in artifacts.glob(f"nb-{stem}-p*.png"):
        old.unlink()
    scroller = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-WindowedPanel-outer").first
    content, view = scroller.evaluate(
        """el => {
          const cells = el.querySelectorAll('.jp-Cell');
          const last = cells[cells.length - 1].getBoundingClientRect();
          return [el.scrollTop + last.bottom - el.getBoundingClientRect().top + 16, el.clientHeight];
        }"""
    )
    tops = list(range(0, max(1, int(content) - view), view - 60))  # a little overlap between pages
    if content > view:
        tops.append(int(content) - view)  # the last page ends at the last cell
    shots = []
    for top in tops[:40]:
        scroller.evaluate("(el, y) => { el.scrollTop = y; }", top)
        wait_still(page, page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell").first, f"the notebook scrolled to {top} px")
        shot = artifacts / f"nb-{stem}-p{len(shots) + 1:02d}.png"
        page.screenshot(path=str(shot))
        shots.append(shot)
    return shots


# Each notebook is run whole in a fresh kernel in make test (tests/test_notebooks.py); here, in
# JupyterLab, the first in make test and the longer ones (20-75 s each) in make soak.
@pytest.mark.parametrize("path", [p if p.name == "01_play.ipynb" else pytest.param(p, marks=pytest.mark.soak) for p in NOTEBOOKS],
                         ids=lambda p: p.name)
def test_notebook_runs_in_lab(lab, browser, artifacts: Path, path: Path) -> None:  # type: ignore[no-untyped-def]
    page = watched(browser)
    open_and_run(page, lab, path.name)
    code_cells = sum(c["cell_type"] == "code" for c in json.loads(path.read_text())["cells"])

    # No cell shows an error.
    tracebacks = page.locator(
        '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"], .jp-RenderedText'
    ).filter(has_text="Traceback")
    assert tracebacks.count() == 0, tracebacks.first.text_content()
    prompts = page.locator(".jp-Notebook .jp-CodeCell .jp-InputPrompt").all_text_contents()
    assert len(prompts) == code_cells
    assert all(re.fullmatch(r"\[\d+\]:?", p.strip()) for p in prompts), f"cells that did not run: {prompts}"

    # Every widget the kernel displayed is on the page, rendered, with no error; no output
    # warns of a deprecated call (a fresh Run All uses today's API).
    outputs = saved_outputs(page, lab, path.name)
    deprecated = [json.dumps(o)[:300] for o in outputs if "DeprecationWarning" in json.dumps(o)]
    assert deprecated == [], deprecated
    expected = sum(WIDGET_MIME in o.get("data", {}) for o in outputs)
    widgets = page.locator(WIDGET_OUTPUTS)
    assert widgets.count() == expected, f"{widgets.count()} widget outputs on the page, the kernel displayed {expected}"
    wait_until(page, RENDERED, WIDGET_OUTPUTS, what="every widget rendered (or its error shown)")
    for i in range(expected):
        text = widgets.nth(i).text_content() or ""
        assert "Error displaying widget" not in text and "Loading widget" not in text, f"widget {i}: {text[:200]}"
    boards = page.locator(".kum-widget")
    for i in range(boards.count()):
        board = boards.nth(i)
        assert board.locator(".kum-seat").count() >= BOARD_SEATS.get(path.name, 2), f"board {i} is not drawn"
        assert board.locator(".kum-error").count() == 0, f"board {i}: {board.locator('.kum-error').first.text_content()}"
    if path.name in BOARDS:
        drawn = page.locator(".kum-widget[data-state-id]")
        assert drawn.count() >= BOARDS[path.name], f"{path.name}: {drawn.count()} boards drawn, expected {BOARDS[path.name]}"
        drawn.first.scroll_into_view_if_needed()
        drawn.first.screenshot(path=str(artifacts / f"nb-{path.stem}-board.png"))

    shots = screenshot_pages(page, artifacts, path.stem)
    assert shots and all(s.stat().st_size > 10_000 for s in shots)
    assert page.js_errors == []
    page.close()


# -- the rules tour, by clicking ------------------------------------------------------------

# One entry per board of 02_rules_tour.ipynb, in order: the clicks its section asks for, then
# a sentence the board's log must show. ("dim", card, target): choosing that card does not
# light that target up; ("no-draw", pile): that pile may not be drawn from now.
TOUR: list[tuple[str, list[tuple[str, ...]], str]] = [
    ("turn", [("play", "giant 8", "mine 1"), ("draw", "camp giant")], "Ada drew giant 6 from the giant camp pile."),
    ("claim", [("play", "orc 5", "mine 1")], "Ada's orcs claim mine 1 (d2 s2 p3)."),
    ("gift", [("play", "dwarf 5", "mine 1")], "Bo's dwarfs claim mine 1 (d2 s2 p3)."),
    ("no-king", [("play", "giant 6", "mine 1")], "No one is King of the giants, so Ada claims mine 1"),
    ("zero", [("dim", "giant 0", "mine 2"), ("play", "giant 0", "mine 1")], "Ada played giant 0 on mine 1."),
    ("develop", [("dim", "orc 7", "claimed 0.1"), ("play", "dwarf 6", "claimed 0.1")], "Ada developed mine d2 s2 p3 for 3 points."),
    ("overseer", [("dim", "orc 6", "claimed 0.1"), ("play", "goblin 5", "claimed 0.1"), ("draw", "deck"),
                  ("play", "orc 6", "claimed 0.1")], "Ada placed the overseer orc 6 on d2 s2 p5 ov."),
    ("refill", [("play", "orc 5", "mine 1")], "Mine 1 refilled from the deck: d3 s3 p7 ov."),
    ("stuck", [("discard", "goblin 3"), ("no-draw", "camp orc"), ("draw", "deck")], "Ada had no legal play and discarded goblin 3."),
    ("end", [("play", "goblin 6", "claimed 0.1"), ("draw", "deck")], "Game over: Ada 10, Bo -4. Ada wins."),
    ("last-claim", [("play", "dwarf 6", "mine 1")], "Game over: Ada 0, Bo -4. Ada wins."),
]


def settle(page, board, sid: str) -> None:  # type: ignore[no-untyped-def]
    """Wait for the board to change from state ``sid``, then for the kernel to be idle
    (so a bot's replies have arrived too)."""
    wait_board_changed(page, board, sid, "the answer to a click")
    wait_idle(page)


def hand_card(board, card: str):  # type: ignore[no-untyped-def]
    return board.locator(f'[data-zone="hand 0"] button[aria-label^="{card};"]').first


def click(page, board, step: tuple[str, ...]) -> None:  # type: ignore[no-untyped-def]
    kind = step[0]
    sid = board.get_attribute("data-state-id")
    if kind in ("play", "dim"):
        hand_card(board, step[1]).click()
        target = board.locator(f'[data-zone="{step[2]}"]')
        if kind == "dim":
            assert board.locator(".kum-target[data-action]").count() > 0  # the card may go somewhere...
            assert target.get_attribute("data-action") is None, f"{step}: lit up"  # ...but not there
            hand_card(board, step[1]).click()  # put it back
            return
        target.and_(board.locator("[data-action]")).click()
    elif kind == "discard":
        hand_card(board, step[1]).click()
    elif kind == "draw":
        board.locator(f'[data-zone="{step[1]}"][data-action]').click()
    elif kind == "no-draw":
        assert board.locator(f'[data-zone="{step[1]}"]').get_attribute("data-action") is None, f"{step}: offered"
        return
    settle(page, board, sid)


@pytest.mark.soak  # the tour clicked through in JupyterLab (about 35 s): make test runs the notebook whole (tests/hosts/test_notebooks.py)
def test_rules_tour_by_clicking(lab, browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    page = watched(browser)
    open_and_run(page, lab, "02_rules_tour.ipynb")
    boards = page.locator(".kum-widget")
    assert boards.count() == len(TOUR)
    for i, (name, steps, sentence) in enumerate(TOUR):
        board = boards.nth(i)
        board.scroll_into_view_if_needed()
        dismiss_intro(board)
        for step in steps:
            click(page, board, step)
        log = board.locator('[data-zone="log"]').text_content() or ""
        assert sentence in log, f"{name}: {sentence!r} not in the log: {log}"
        assert board.locator(".kum-error").count() == 0, board.locator(".kum-error").first.text_content()
        board.screenshot(path=str(artifacts / f"tour-{i + 1:02d}-{name}.png"))
    assert page.js_errors == []
    page.close()
