"""Accessible to every player (issue 42, item 6), in a real JupyterLab and Chromium.

axe-core (WCAG 2.1 A and AA, run on the board's own DOM) finds no serious or critical
violation in any state a game passes through: the start (its first-time panel open), mid-game,
a hint shown, a pile opened, the pass screen of a hot seat, game over; for Kings Under
Mountains with 2 and 4 players and for the court; nor in a replay file (kum_widget/board/replay.py).

The games are played by keyboard alone: after each bot's turn the focus is back on the
player's hand (and the key H takes it there from anywhere in the board); the Tab order
follows the screen (the opponents drawn above the table come before it, the hand after it);
the board's one live region says the Hint's answer once, and the result once.

Screenshots go to test-artifacts/ (a11y-*.png).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _chromium import axe_violations, grave, open_board, wait_board_changed, wait_until
from labserver import click_once, notebook_of

NAMES = ["Ada", "Bo", "Cy", "Di"]
NOTEBOOKS = {
    "kum2.ipynb": 'import kum_widget as kum\nboard = kum.GameWidget(bots={1: "greedy"}, seed=3, bot_delay=0.2)\nboard',
    "kum4.ipynb": ("import kum_widget as kum\n"
                   f'board = kum.GameWidget(kum.Game({NAMES!r}, seed=5), bots={{1: "greedy", 2: "greedy", 3: "greedy"}}, bot_delay=0.05)\nboard'),
    "hot.ipynb": 'import kum_widget as kum\nboard = kum.GameWidget(kum.Game(["Ada", "Bo"], seed=3))\nboard',
    "court.ipynb": "import kum_widget as kum\nboard = kum.GameWidget(kum.Court(seed=3))\nboard",
}

# The page's focused element, through shadow roots.
ACTIVE = "() => { let a = document.activeElement; while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement; return a; }"
FOCUS = f"""el => {{ const a = ({ACTIVE})();
  return {{inside: el.contains(a), root: a === el, key: a.dataset.key || '', playable: a.dataset.playable !== undefined,
          action: a.dataset.action || '', lit: a.classList.contains('kum-lit'), hand: !!a.closest('.kum-own .kum-layout-hand'),
          control: a.dataset.control || ''}}; }}"""

# The human may act: the board not busy, nobody thinking, something to do (or the game over).
MAY_ACT = """el => !el.hasAttribute('aria-busy') && !/thinking/.test(el.querySelector('.kum-status')?.textContent || '')
  && (!!el.querySelector('.kum-over') || !!el.querySelector('[data-playable]:not([disabled]), [data-action]:not([disabled]):not(.kum-lit)'))"""

# Every change of the board's live regions, recorded in the page: window.kumSaid = [[region, text]].
LISTEN = """el => { window.kumSaid = [];
  const regions = [...el.querySelectorAll('[aria-live], [role="status"], [role="alert"], [role="log"]')];
  for (const r of regions) new MutationObserver(() => { if (r.textContent.trim()) window.kumSaid.push([r.dataset.key || r.className, r.textContent.trim()]); })
    .observe(r, {childList: true, characterData: true, subtree: true});
  return regions.length; }"""


@pytest.fixture
def lab(lab_room):  # type: ignore[no-untyped-def]
    return lab_room({name: notebook_of(source) for name, source in NOTEBOOKS.items()})


class Audit:
    """axe run on the board in each named state: what it found, kept for the failure's message."""

    def __init__(self, page: Any, board: Any, game: str) -> None:
        self.page, self.board, self.game = page, board, game
        self.found: dict[str, list[dict[str, Any]]] = {}

    def __call__(self, state: str) -> None:
        self.found[f"{self.game}: {state}"] = axe_violations(self.page, self.board)

    def grave(self) -> dict[str, list[dict[str, Any]]]:
        return {state: grave(v) for state, v in self.found.items() if grave(v)}

    def report(self) -> str:
        return json.dumps({state: [f"{v['id']} ({v['impact']}, {v['nodes']}): {v['where'][:2]}" for v in found]
                           for state, found in self.found.items()}, indent=1)


def focus(board: Any) -> dict[str, Any]:
    return dict(board.evaluate(FOCUS))


def at_first_thing_to_do(board: Any) -> None:
    """The focus is on the first thing to do: in the hand when the hand has a card to play."""
    at = focus(board)
    assert at["inside"] and (at["playable"] or at["action"]), at
    if board.locator(".kum-own .kum-layout-hand [data-playable]:not([disabled])").count():
        assert at["hand"], at


def wait_to_act(page: Any, board: Any, what: str) -> None:
    wait_until(page, MAY_ACT, board.element_handle(), what=what)


def key_turn(page: Any, board: Any) -> None:
    """One decision by keyboard from where the focus is: Enter on a card chooses it (the focus goes
    to its first place) and Enter there plays it; Enter on a target or a button plays it."""
    at = focus(board)
    assert at["inside"] and (at["playable"] or at["action"]), at
    sid = board.get_attribute("data-state-id")
    page.keyboard.press("Enter")
    if at["playable"]:
        chosen = focus(board)
        assert chosen["lit"], chosen  # the card's first place, lit
        page.keyboard.press("Enter")
    wait_board_changed(page, board, sid, "the move made by keyboard")


def play_by_keyboard(page: Any, board: Any, audit: Audit, states: dict[int, Any], limit: int = 300,
                     *, turns_to_play: int | None = None) -> int:
    """Play to the end by keyboard (or ``turns_to_play`` turns); ``states``: the turn at which to do
    something more (run axe, open a pile, ask for a hint). After a bot's turn the focus must be
    back on the hand."""
    turns = 0
    while True:
        wait_to_act(page, board, f"the human's turn {turns}")
        if board.locator(".kum-over").count() or turns == turns_to_play:
            return turns
        # after each move (the player's own, the bots' between): the focus on the first thing to
        # do, in the hand when the hand has a card to play (never parked on the board's root)
        at_first_thing_to_do(board)
        if turns in states:
            states[turns]()
        key_turn(page, board)
        turns += 1
        assert turns < limit, "the game did not end"


@pytest.mark.soak  # a whole game by keyboard (about 40 s): the shorter audits below run in make test
def test_kings_under_mountains_by_keyboard_alone_with_no_grave_violation(lab, browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    page, board, errors = open_board(browser, lab, "kum2.ipynb", height=1100)
    audit = Audit(page, board, "kum 2 players")
    board.locator(".kum-intro").wait_for()
    audit("start, the first-time panel open")
    assert board.evaluate(LISTEN) == 1  # one live region
    # the board's help: the game's intro, and its keys (H among them)
    assert "H" in (board.locator(".kum-intro").text_content() or "")
    board.locator('[data-control="intro-close"]').focus()
    page.keyboard.press("Enter")
    assert focus(board)["control"] == "intro"
    page.keyboard.press("h")  # to the hand
    at = focus(board)
    assert at["hand"] and at["playable"], at

    def hint() -> None:
        board.locator('[data-control="hint"]').focus()
        page.evaluate("() => { window.kumSaid = []; }")
        page.keyboard.press("Enter")
        board.locator(".kum-thinking").wait_for()
        wait_until(page, "() => window.kumSaid.length > 0", what="the hint said")
        said = [s for _, s in page.evaluate("() => window.kumSaid")]
        hints = [s for s in said if s.startswith("Hint:")]
        shown = " ".join((board.locator(".kum-thinking").text_content() or "").split())
        assert len(hints) == 1 and hints[0].removeprefix("Hint:").strip() in shown, (said, shown)  # its verdict, as the panel says it
        audit("a hint shown")
        board.screenshot(path=str(artifacts / "a11y-kum2-hint.png"))
        board.locator('[data-control="thinking"]').uncheck()
        page.keyboard.press("h")
        at_first_thing_to_do(board)

    def pile() -> None:
        board.locator("[data-control='pile']").first.focus()
        page.keyboard.press("Enter")
        page.locator(".kum-panel").wait_for()
        audit("a pile open")
        page.screenshot(path=str(artifacts / "a11y-kum2-pile.png"))
        page.keyboard.press("Escape")
        assert focus(board)["control"] == "pile"
        page.keyboard.press("h")

    def mid() -> None:
        audit("mid-game")
        board.screenshot(path=str(artifacts / "a11y-kum2-mid.png"))

    turns = play_by_keyboard(page, board, audit, {2: hint, 5: pile, 12: mid})
    assert turns > 20
    outcome = board.locator(".kum-banner-text").text_content() or ""
    said = page.evaluate("() => window.kumSaid")
    assert len([s for _, s in said if outcome in s]) == 1, said  # the result, said once
    audit("game over")
    board.screenshot(path=str(artifacts / "a11y-kum2-over.png"))
    assert audit.grave() == {}, audit.report()
    assert errors == []


@pytest.mark.soak  # four players (about 40 s): make test audits the two-player board, the pass screen and the court
def test_four_players_tab_order_follows_the_screen_and_no_grave_violation(lab, browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    page, board, errors = open_board(browser, lab, "kum4.ipynb", height=1300)
    audit = Audit(page, board, "kum 4 players")
    board.locator('[data-control="intro-close"]').click()
    wait_to_act(page, board, "Ada's first turn")
    audit("start")
    # the board's parts in the DOM (the reading and the Tab order) as on the screen, top to bottom
    blocks = board.evaluate("""el => [...el.children, ...el.querySelectorAll(':scope > .kum-seats > .kum-seat')]
      .filter(e => getComputedStyle(e).display !== 'contents' && getComputedStyle(e).position !== 'absolute' && e.getClientRects().length)
      .map(e => ({what: (e.dataset.key || e.className), top: Math.round(e.getBoundingClientRect().top),
                  order: [...el.querySelectorAll('*')].indexOf(e)}))""")
    by_dom = [b["what"] for b in sorted(blocks, key=lambda b: b["order"])]
    by_screen = [b["what"] for b in sorted(blocks, key=lambda b: (b["top"], b["order"]))]
    assert by_dom == by_screen, (by_dom, by_screen)
    first = board.evaluate("el => [...el.querySelectorAll('[data-seat]')].map(s => s.dataset.seat)")
    assert first == ["1", "2", "3", "0"], first  # the opponents (above), the table, then Ada's own seat
    board.screenshot(path=str(artifacts / "a11y-kum4-start.png"))
    page.keyboard.press("h")
    assert focus(board)["hand"]
    turns = play_by_keyboard(page, board, audit, {6: lambda: audit("mid-game")})
    assert turns > 10
    audit("game over")
    board.screenshot(path=str(artifacts / "a11y-kum4-over.png"))
    assert audit.grave() == {}, audit.report()
    assert errors == []


def test_the_pass_screen_and_the_court_have_no_grave_violation(lab, browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    page, board, errors = open_board(browser, lab, "hot.ipynb", height=1100)
    audit = Audit(page, board, "hot seat")
    board.locator(".kum-pass").wait_for()  # a hot seat opens on the pass screen, to Ada (over the first-time panel)
    audit("the pass screen, to Ada")
    board.locator(".kum-pass button").click()
    wait_until(page, "el => !el.querySelector('.kum-pass') && !!el.querySelector('[data-playable]:not([disabled])')", board.element_handle(),
               what="Ada's hand behind the pass screen")
    close = board.locator('[data-control="intro-close"]')
    if close.count():
        close.click()
    assert click_once(page, board)  # Ada plays
    assert click_once(page, board)  # and draws: the board goes to Bo, behind a pass screen
    board.locator(".kum-pass").wait_for()
    assert focus(board)["inside"] and board.evaluate("el => !!el.querySelector('.kum-pass')?.contains(document.activeElement)")
    audit("the pass screen, to Bo")
    board.screenshot(path=str(artifacts / "a11y-pass.png"))

    court, errors2 = court_by_keyboard(lab, browser, artifacts, turns_to_play=9)
    found = {**audit.grave(), **court.grave()}
    assert found == {}, audit.report() + court.report()
    assert errors == [] and errors2 == []


@pytest.mark.soak  # the court's whole game by keyboard (about 20 s): make test plays its first 9 turns, above
def test_the_court_by_keyboard_alone_to_game_over_with_no_grave_violation(lab, browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    court, errors = court_by_keyboard(lab, browser, artifacts, turns_to_play=None)
    assert court.grave() == {}, court.report()
    assert errors == []


def court_by_keyboard(lab: Any, browser: Any, artifacts: Path, *, turns_to_play: int | None) -> tuple[Audit, list[str]]:
    """The court played by keyboard alone, audited at the start, with a hint shown and mid-game
    (and at game over when played to the end)."""
    page, board, errors = open_board(browser, lab, "court.ipynb", height=1100)
    court = Audit(page, board, "court")
    board.locator(".kum-intro").wait_for()
    court("start, the first-time panel open")
    board.locator('[data-control="intro-close"]').click()
    page.keyboard.press("h")
    assert focus(board)["playable"]

    def hint() -> None:
        board.locator('[data-control="hint"]').click()
        board.locator(".kum-thinking").wait_for()
        court("a hint shown")
        switch = board.locator('[data-control="thinking"]')  # (offered only where a bot holds a seat)
        if switch.count():
            switch.uncheck()
        page.keyboard.press("h")

    play_by_keyboard(page, board, court, {4: hint, 8: lambda: court("mid-game")}, turns_to_play=turns_to_play)
    if turns_to_play is None:
        court("game over")
        board.screenshot(path=str(artifacts / "a11y-court-over.png"))
    else:
        board.screenshot(path=str(artifacts / "a11y-court-mid-game.png"))
    return court, errors


def test_a_replay_file_has_no_grave_violation(browser, artifacts: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import random

    from _chromium import offline_page

    import kum_widget as kum

    found: dict[str, list[dict[str, Any]]] = {}
    for name, game, seat in [("kum", kum.Game(["Ada", "Bo"], seed=4), 0), ("court", kum.Court(seed=3), 0)]:
        rng = random.Random(1)
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
        path = kum.save_replay(game, tmp_path / f"{name}.html", seat=seat)
        page, requests, errors = offline_page(browser, path)
        host = page.locator(".kum-replay")
        for step in ["Home", "PageDown", "End"]:
            host.focus()
            page.keyboard.press(step)
            found[f"{name} replay, {step}"] = axe_violations(page, page.locator("html"))
        page.screenshot(path=str(artifacts / f"a11y-replay-{name}.png"))
        assert requests == [] and errors == []
        page.close()
    assert {k: grave(v) for k, v in found.items() if grave(v)} == {}, json.dumps(found, indent=1)
