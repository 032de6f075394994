"""Accessible to every player (issue 42, items 3 and 6), in headless Chromium with the stand-in
model (tests/_live_helpers.py), its traits from a real ``GameWidget`` in this process.

Every named part has a role (a screen reader keeps the names: which card lies on which mine);
the board's root is named, keeps the notebook's shortcuts out and scrolls its log by keyboard;
one live region says what happened, the Hint's answer and the result, each once; Escape takes
back a choice made by key or by mouse, and with nothing to take back leaves the board; H goes
to the hand, and a focus left on the board's root goes there when the player's turn comes; the
seats drawn above the table come before it in the page (the reading and the Tab order).
The real JupyterLab's side of these: tests/hosts/test_e2e_a11y.py and tests/hosts/test_e2e_keys.py.
"""

from __future__ import annotations

from _board_helpers import Recorded
from _live_helpers import deliver, feed_back, mount, update

import kum_widget as kum

# Elements with a name but no role to carry it (a div or a span): Chromium drops such names.
UNROLED = """() => [...document.querySelectorAll('.kum-widget [aria-label]')]
  .filter(e => ['DIV', 'SPAN'].includes(e.tagName) && !e.getAttribute('role')).map(e => e.getAttribute('aria-label'))"""
LIVE = "() => document.querySelectorAll('.kum-widget :is([aria-live], [role=status], [role=alert], [role=log])').length"
# Every text the board's live regions take, as it comes: window.said.
LISTEN = """() => { window.said = [];
  for (const r of document.querySelectorAll('.kum-widget :is([aria-live], [role=status], [role=alert], [role=log])'))
    new MutationObserver(() => { if (r.textContent.trim()) window.said.push(r.textContent.trim()); })
      .observe(r, {childList: true, characterData: true, subtree: true}); }"""


def active(page) -> dict[str, str]:  # type: ignore[no-untyped-def]
    return dict(page.evaluate("""() => { const a = document.activeElement, root = document.querySelector('.kum-widget');
      return {...a.dataset, tag: a.tagName, inside: String(root.contains(a)), root: String(a === root),
              hand: String(!!a.closest('.kum-own .kum-layout-hand')), lit: String(a.classList.contains('kum-lit'))}; }"""))


def test_every_named_part_has_a_role_and_the_root_is_named(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(kum.Game(["Ada", "Bo", "Cy"], seed=5), bots={1: "greedy", 2: "greedy"}, bot_delay=0)
    while len(w.game.history) < 30 or w.game.current_player != 0 or w.game.phase != "play":
        w.act(w.offered[0] if w.offered else w.game.legal_actions()[0])
    mount(page, w)
    assert page.evaluate(UNROLED) == []
    root = page.locator(".kum-widget")
    assert root.get_attribute("aria-label") == "Kings Under Mountains" and root.get_attribute("role") == "region"
    assert root.get_attribute("data-lm-suppress-shortcuts") is not None  # JupyterLab's and Notebook 7's shortcuts stay out
    # a mine and what lies on it read apart: the mine's group holds its card and its creatures' stack
    mine = page.locator('[data-zone="mine 1"]')
    assert mine.get_attribute("role") == "group" and mine.get_attribute("aria-label", timeout=1000).startswith("Mine 1")
    assert page.locator('[data-zone="mine 1"] > .kum-zone-body > .kum-card').get_attribute("role") == "img"
    # a choice lights a target: a button while lit, a group again once the choice is taken back
    page.locator('[data-zone="hand 0"] [data-playable]').first.click()
    lit = page.locator(".kum-lit[data-action]").first
    zone = lit.get_attribute("data-zone")
    assert lit.get_attribute("role") == "button"
    page.keyboard.press("Escape")
    assert page.locator(f'[data-zone="{zone}"]').get_attribute("role") == "group" and page.evaluate(UNROLED) == []
    # the log scrolls, so it takes the focus (its lines read by keyboard)
    assert page.locator('[data-zone="log"]').get_attribute("tabindex") == "0"


def test_cells_places_and_pieces_have_roles_too(page) -> None:  # type: ignore[no-untyped-def]
    from kum_widget.gallery import ConnectFour

    w = Recorded(ConnectFour(), bots={1: "greedy"}, bot_delay=0)
    w.act(w.offered[3])
    mount(page, w)
    assert page.locator("[data-cell]").count() == 42 and page.evaluate(UNROLED) == []


def test_one_live_region_says_the_moves_the_hint_and_the_result_once(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w)
    assert page.evaluate(LIVE) == 1
    assert page.locator(".kum-status").get_attribute("aria-live") is None and page.locator(".kum-status").get_attribute("role") is None
    page.evaluate(LISTEN)
    w.act(w.offered[0])  # from a cell: what happened, and who is to act, said once
    deliver(page, w)
    said = page.evaluate("() => window.said")
    assert len(said) == 1 and w.log_lines[-1] in said[0] and w.board["status"] in said[0], said
    # the Hint: its answer said once, in words
    page.evaluate("() => { window.said = []; }")
    page.locator('[data-control="hint"]').click()
    feed_back(page, w)
    update(page, analysis=w.analysis)  # (the board's search answers in slices: its figures come as a later update)
    named = [w.analysis["chosen"]] if w.analysis["chosen"] else w.analysis["equal"]  # its best move, or those about equal
    said = page.evaluate("() => window.said")
    assert len(said) == 1 and said[0].startswith("Hint:") and all(move in said[0] for move in named), said
    page.evaluate("() => { window.said = []; }")
    page.locator('[data-control="thinking"]').uncheck()  # a drawing that changes nothing said
    assert page.evaluate("() => window.said") == []
    # the game's end, each move drawn as it came: the result said once
    w.sent.clear()
    while not w.game.is_over:
        w.act(w.offered[0] if w.offered else w.game.legal_actions()[0])
    deliver(page, w)
    said = page.evaluate("() => window.said")
    outcome = w.board["outcome"]
    assert [s for s in said if outcome in s] == [said[-1]] and len([s for s in said if "Game over" in s]) == 1, said
    assert page.evaluate(LIVE) == 1


def test_escape_takes_back_a_choice_made_by_mouse_and_then_leaves_the_board(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w)
    card = page.locator('[data-zone="hand 0"] [data-playable]').first
    card_id = card.get_attribute("data-card")
    card.click()
    assert page.locator(".kum-selected").count() == 1
    page.keyboard.press("Escape")
    assert page.locator(".kum-selected, .kum-lit").count() == 0
    assert active(page).get("card") == card_id
    # the focused part itself carries Lumino's mark (Notebook 7's shortcuts match ":focus", the part)
    assert active(page).get("lmSuppressShortcuts") == "true"
    page.keyboard.press("Escape")  # nothing to take back: out of the board (no keyboard trap)
    assert active(page)["inside"] == "false"
    # by keyboard: Escape on a lit target takes the choice back, the focus on the card
    card.focus()
    page.keyboard.press("Enter")
    assert active(page)["lit"] == "true"
    page.keyboard.press("Escape")
    assert active(page).get("card") == card_id and page.locator(".kum-selected").count() == 0


def test_h_goes_to_the_hand_and_a_focus_left_on_the_board_goes_there_on_the_players_turn(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w)
    page.locator('[data-zone="log"]').focus()  # (Undo, disabled before a move, takes no focus)
    assert active(page)["inside"] == "true"
    page.keyboard.press("h")
    now = active(page)
    assert now["hand"] == "true" and "playable" in now, now
    # the focus on the board itself (where it goes while there is nothing to do): the player's
    # next decision takes it to the first thing to do
    w.act(w.offered[0])
    page.evaluate("() => document.querySelector('.kum-widget').focus()")
    deliver(page, w)
    assert active(page).get("action") == "draw deck", active(page)
    page.evaluate("() => document.querySelector('.kum-widget').focus()")
    w.act("draw deck")  # and the bot replies: Ada's hand
    deliver(page, w)
    now = active(page)
    assert now["hand"] == "true" and "playable" in now, now
    # a typed H in a form field stays a letter
    page.locator('.kum-controls [data-control="new-game"]').click()
    page.locator(".kum-seed").focus()
    page.keyboard.press("h")
    assert active(page).get("key") == "seed"


def test_the_opponents_drawn_above_come_first_in_the_page(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(kum.Game(["Ada", "Bo", "Cy", "Di"], seed=5), bots={1: "greedy", 2: "greedy", 3: "greedy"}, bot_delay=0)
    mount(page, w)
    order = page.evaluate("""() => [...document.querySelectorAll('.kum-widget [data-seat], .kum-widget .kum-table, .kum-widget .kum-thinking, .kum-widget .kum-logbox')]
      .map(e => e.dataset.seat !== undefined ? 'seat ' + e.dataset.seat : e.className.split(' ')[0])""")
    assert order == ["seat 1", "seat 2", "seat 3", "kum-table", "seat 0", "kum-logbox"], order
    tops = page.evaluate("""() => [...document.querySelectorAll('.kum-widget [data-seat]')].map(e => Math.round(e.getBoundingClientRect().top))""")
    assert tops[0] <= tops[-1] and max(tops[:3]) < tops[3], tops
