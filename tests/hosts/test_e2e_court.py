"""End to end for the court solitaire: a real JupyterLab, Chromium, and
``kum.GameWidget(kum.Court(seed=...))`` played to the end by clicking only through the
public testing hooks (``[data-action]``, ``[data-playable]``, ``.kum-widget[data-state-id]``),
then read back from a cell. A second notebook checks the fight's preview: the strength
and the CP a fight costs are on the prince before the click, and the click pays them.

Screenshots go to test-artifacts/ (court-setup.png, court-mid.png, court-over.png, court-fight.png).
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from _chromium import dismiss_intro, open_board, wait_board_changed, wait_still
from labserver import notebook_of, run_cell

SEED = 3


NOTEBOOKS = {
    "court.ipynb": notebook_of(
        f"import kum_widget as kum\nboard = kum.GameWidget(kum.Court(seed={SEED}))\nboard",
        'print("KUM-OVER", board.game.is_over, board.game.scores(), board.game.rank())',
    ),
    "fight.ipynb": notebook_of(
        "import kum_widget as kum\n"
        'game = kum.Court.from_scenario(row=["sun poet 3", "daemon prince 9", "moon poet 3", "earth poet 3"],\n'
        '    court=["sun general 6", "moon general 4", None, None, None, None, None, None], phase="fight", cp=5)\n'
        "board = kum.GameWidget(game)\nboard",
        'print("KUM-FIGHT", board.game.cp, [c.name for c in board.game.defeated])',
    ),
}


@pytest.fixture
def lab(lab_room):  # type: ignore[no-untyped-def]
    return lab_room(NOTEBOOKS)


def opened(browser, lab, name: str, height: int):  # type: ignore[no-untyped-def]
    page, board, errors = open_board(browser, lab, name, height=height)
    board.locator("[data-zone='royal court']").wait_for()
    dismiss_intro(board)  # the first-time panel lies over the table
    return page, board, errors


# What the court offers now, read in one go inside the page: a click is decided on one
# reading of one state, and then waits for that state's id to change.
OFFERED = """b => ({sid: b.dataset.stateId, over: !!b.querySelector('.kum-over'),
  princes: b.querySelectorAll("[data-zone^='place '] [data-card][data-action]:not([disabled])").length,
  playable: b.querySelectorAll('[data-playable]:not([disabled])').length,
  buttons: b.querySelectorAll('button.kum-action[data-action]:not([disabled])').length})"""


def click_once(page, board, rng: random.Random, shot: Path | None = None) -> bool:  # type: ignore[no-untyped-def]
    """One decision by clicking: a fight (a prince that is a target) if there is one, else
    mostly a playable card then one of its lit targets, else a button; False at game over."""
    now = board.evaluate(OFFERED)
    if now["over"]:
        return False
    princes = board.locator("[data-zone^='place '] [data-card][data-action]:not([disabled])")
    playable = board.locator("[data-playable]:not([disabled])")
    buttons = board.locator("button.kum-action[data-action]:not([disabled])")
    if now["princes"]:
        princes.nth(rng.randrange(now["princes"])).click()
    elif now["playable"] and (rng.random() < 0.75 or not now["buttons"]):
        playable.nth(rng.randrange(now["playable"])).click()
        lit = board.locator(".kum-lit[data-action]")
        lit.first.wait_for()  # lit at once, no round trip
        spaces = lit.evaluate_all("els => els.map(e => e.dataset.zone || '')")
        assert spaces and all(z.startswith("space ") for z in spaces), spaces
        if shot is not None:
            board.screenshot(path=str(shot))
        lit.nth(rng.randrange(len(spaces))).click()
    else:
        assert now["buttons"], f"nothing to click on a court that is not over: {now}"
        buttons.nth(rng.randrange(now["buttons"])).click()
    wait_board_changed(page, board, now["sid"], "the court's answer to a click")
    return True


@pytest.mark.soak  # a whole game by clicking (about 35 s): make test clicks the court in the layout, a11y and hint tests
def test_the_court_plays_to_the_end_by_clicking(lab, browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    page, board, errors = opened(browser, lab, "court.ipynb", height=1400)
    # The setup: four places, a 2 x 4 court of clickable spaces, the piles and their counts.
    assert board.locator("[data-zone^='place ']").count() == 4
    assert board.locator("[data-zone='royal court'] [data-zone^='space ']").count() == 8
    for zid in ("draw pile", "discarded", "defeated", "captured"):
        assert board.locator(f"[data-zone='{zid}']").count() == 1
    assert board.locator("[data-playable]").count() == 4
    assert "Setup" in board.locator(".kum-status").text_content()
    board.screenshot(path=str(artifacts / "court-setup.png"))
    rng = random.Random(SEED)
    steps = 0
    mid_shot = False
    while True:
        buying = "phase 1" in (board.locator(".kum-status").text_content() or "")
        shot = artifacts / "court-mid.png" if steps >= 14 and buying and not mid_shot else None
        if not click_once(page, board, rng, shot):
            break
        mid_shot = mid_shot or (shot is not None and shot.exists())
        steps += 1
        assert steps < 500, "the game did not end"
    assert mid_shot, "no buying click after step 14 to photograph"
    # the last move's card is still flying into its pile (scaled: a pixel short) for a moment
    wait_still(page, board, "the last move's flights to land")
    board.screenshot(path=str(artifacts / "court-over.png"))
    # each stacked pile's cards share one height (the daemons' court mixes short and tall cards): a straight edge
    heights = board.evaluate("""b => [...b.querySelectorAll('.kum-layout-stack > .kum-zone-body')]
        .map(z => [...z.querySelectorAll(':scope > .kum-card')].map(c => Math.round(c.getBoundingClientRect().height)))
        .filter(hs => hs.length > 1)""")
    assert heights and all(len(set(hs)) == 1 for hs in heights), heights
    status = board.locator(".kum-status").text_content() or ""
    assert status.startswith("Game over after turn"), status
    shown = float(board.locator("[data-score='0']").text_content() or "nan")
    header = board.locator(".kum-over thead").text_content() or ""
    assert all(word in header for word in ("princes", "court VP", "powers", "CP left", "daemons' court")), header
    said = run_cell(page, "KUM-OVER", shows="KUM-OVER True")
    match = re.search(r"KUM-OVER True \[([-\d.]+)\] (.+)", said)
    assert match, said
    assert float(match.group(1)) == shown
    assert match.group(2).strip() in status
    assert errors == []


def test_the_fight_shows_strength_and_price_before_the_click(lab, browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    page, board, errors = opened(browser, lab, "fight.ipynb", height=1000)
    prince = board.locator("[data-zone='place 2'] [data-card]")
    assert prince.get_attribute("data-action") == "fight place 2"
    assert "your strength 7 vs 9: pays 2 CP" in (prince.text_content() or "")
    assert "your strength 7 vs 9: pays 2 CP" in (prince.get_attribute("title") or "")
    assert "fight 2 CP" in (board.locator("[data-zone='place 2'] .kum-zone-head").text_content() or "")
    assert "strength is 7" in (board.locator(".kum-status").text_content() or "")
    court = board.locator("[data-zone='royal court'] > .kum-zone-head").text_content() or ""
    assert re.search(r"CP\s*5", court) and re.search(r"strength\s*7", court), court
    board.screenshot(path=str(artifacts / "court-fight.png"))
    sid = board.get_attribute("data-state-id")
    prince.click()
    wait_board_changed(page, board, sid, "the fight")
    defeated = board.locator("[data-zone='defeated'] [data-card]")
    assert defeated.count() == 1 and "strength 9" in (defeated.get_attribute("aria-label") or "")
    court = board.locator("[data-zone='royal court'] > .kum-zone-head").text_content() or ""
    assert re.search(r"CP\s*3", court), court
    said = run_cell(page, "KUM-FIGHT")  # (run before, by Run All: it said CP 5, nothing defeated)
    assert "KUM-FIGHT 3 ['Daemon Prince 9']" in said, said
    assert errors == []
