"""End to end for the bot that explains itself (issue 42, item 5): in a real JupyterLab and
Chromium, light theme and dark, Ada plays against the greedy bot, opens "Show the bot's
thinking" and reads in words what the bot weighed after its move (its rule of thumb, never a
chance, no word of how the search counts); then asks for a Hint, whose badges are measured
as drawn: text at least 11 px, 4.5:1 against what is behind it, no card's value covered.
Screenshots: /tmp/shots42/thinking_greedy.png, /tmp/shots42/hint_badges.png (light) and
/tmp/shots42/hint_badges_dark.png, and test-artifacts/.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from _chromium import open_board, wait_until
from _contrast import BADGES
from labserver import click_once, notebook_of

SHOTS = Path("/tmp/shots42")
NOTEBOOKS = {"greedy.ipynb": ["import kum_widget as kum", 'board = kum.GameWidget(bots={1: "greedy"}, seed=3, bot_delay=0)\nboard']}


@pytest.fixture(params=[pytest.param("light", marks=pytest.mark.soak), "dark"])  # the light theme, every other browser test's: make soak
def lab(request, lab_room):  # type: ignore[no-untyped-def]
    theme = "JupyterLab Dark" if request.param == "dark" else None
    return lab_room({name: notebook_of(*cells) for name, cells in NOTEBOOKS.items()}, theme=theme), request.param


def test_against_greedy_the_thinking_speaks_in_words_and_the_hints_badges_are_legible(lab, browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    lab, shade = lab
    SHOTS.mkdir(parents=True, exist_ok=True)
    page, board, errors = open_board(browser, lab, "greedy.ipynb")
    board.locator("[data-playable]").first.wait_for()
    if board.locator('[data-control="intro-close"]').count():
        board.locator('[data-control="intro-close"]').click()  # the game's first-time panel, read and dismissed
    if shade == "dark":  # the theme is JupyterLab's own: its dark background is behind the board
        assert page.evaluate("() => document.body.dataset.jpThemeLight") == "false"
    board.locator('[data-control="thinking"]').check()
    assert "Nothing to show yet" in (board.locator(".kum-thinking-empty").text_content() or "")  # no bot move yet
    assert click_once(page, board) and click_once(page, board)  # Ada plays and draws; the greedy bot replies at once
    board.locator('[data-zone="hand 0"] [data-playable]:not([disabled])').first.wait_for()  # its reply is in
    wait_until(page, "el => el.querySelectorAll('.kum-thinking-said').length >= 2", board.element_handle(), what="the bot's thinking, in words")
    said = [p.text_content() or "" for p in board.locator(".kum-thinking-said").all()]
    assert said[0].startswith("Greedy bot's last move: Greedy bot "), said
    assert "rule of thumb" in said[1] and "chance" not in " ".join(said) and board.locator(".kum-thinking-empty").count() == 0
    text = (board.text_content() or "").lower()
    assert "visit" not in text and "iteration" not in text
    if shade == "light":
        board.screenshot(path=str(SHOTS / "thinking_greedy.png"))
    board.screenshot(path=str(artifacts / f"e2e-thinking-greedy-{shade}.png"))
    sid = board.get_attribute("data-state-id")
    board.locator('[data-control="hint"]').click()  # the search, for Ada's seat: nothing is played
    wait_until(page, "el => el.querySelector('.kum-thinking[data-kind=\"hint\"] .kum-thinking-said') && el.querySelector('.kum-think')",
               board.element_handle(), what="the hint's answer and its badges")
    said = " ".join(p.text_content() or "" for p in board.locator(".kum-thinking-said").all())
    assert board.get_attribute("data-state-id") == sid and "chance to win" in said, said
    assert ("Best: " in said) != ("are about equal" in said)  # a best move named, or the ones the search cannot tell apart
    text = (board.text_content() or "").lower()
    assert "visit" not in text and "iteration" not in text
    badges = board.evaluate(BADGES)
    assert len(badges) >= 3, badges
    for b in badges:
        assert b["font"] >= 11 and b["ratio"] >= 4.5 and not b["covers"], (shade, b)
    page.evaluate("() => document.querySelector('.kum-thinking').scrollIntoView({block: 'end'})")
    board.screenshot(path=str(SHOTS / ("hint_badges.png" if shade == "light" else "hint_badges_dark.png")))
    board.screenshot(path=str(artifacts / f"e2e-hint-badges-{shade}.png"))
    ratios = sorted(round(b["ratio"], 2) for b in badges)
    print(f"{shade}: {len(badges)} badges, font {min(b['font'] for b in badges)} px, contrast {ratios[0]}..{ratios[-1]}")
    assert errors == []
