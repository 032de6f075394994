"""The live board (issue 35) in headless Chromium with test_frontend's stand-in model (it
behaves like Backbone: no change event for an equal value), its traits from a real
``GameWidget`` in this process. The traits the kernel adds for this issue (``why_not``,
``analysis``, ``pace``) and the board keys ``intro`` and ``outcome`` are set on the
stand-in model here as the kernel would send them.

Covered: a keyed update that keeps the page's state (a typed seed, the focus, the log's
open state, the live region), moves that fly and the changed-since marks, reasons why not,
the bot's thinking, the bots' speed, the first-time panel, the game-over banner, piles
opened, keyboard focus on lit targets, and the cues in forced colours.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _board_helpers import Recorded
from _chromium import wait_until
from _live_helpers import deliver, feed_back, mount, sent, traits, update

import kum_widget as kum

FLIGHTS = """() => { window.flights = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, opts) {
    window.flights.push({key: this.dataset ? (this.dataset.key || '') : '', ghost: this.classList.contains('kum-ghost'), ms: opts.duration});
    return animate.call(this, frames, opts);
  }; }"""


# -- a keyed update keeps the page's state ----------------------------------------------------


def test_an_update_keeps_the_typed_seed_the_focus_the_closed_log_and_the_live_region(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w)
    page.locator('.kum-controls [data-control="new-game"]').click()
    page.locator(".kum-seed").fill("1234")
    page.evaluate("() => { document.querySelector('.kum-logbox').open = false; }")
    page.evaluate("""() => { window.kept = {status: document.querySelector('.kum-status'), log: document.querySelector('.kum-logbox'),
                                            table: document.querySelector('.kum-table'), card: document.querySelector('[data-zone="hand 1"] .kum-card')};
      window.said = [];
      new MutationObserver(() => window.said.push(document.querySelector('.kum-status').textContent))
        .observe(document.querySelector('.kum-status'), {childList: true, characterData: true, subtree: true}); }""")
    page.locator(".kum-seed").focus()
    w.act(w.offered[0])  # a move from a cell: the page hears of it as an update
    w.act("draw deck")  # and the bot's reply
    deliver(page, w)
    assert page.locator(".kum-widget").get_attribute("data-state-id") == str(w.state_id)
    assert page.locator(".kum-seed").input_value() == "1234"
    assert page.evaluate("() => document.activeElement.classList.contains('kum-seed')")
    assert page.evaluate("() => document.querySelector('.kum-logbox').open") is False
    same = page.evaluate("""() => Object.entries(window.kept).filter(([k, el]) => !el.isConnected).map(([k]) => k)""")
    assert same == []  # the same elements, updated in place
    said = page.evaluate("() => window.said")
    assert len(said) == len(set(said)) and said[-1] == w.board["status"]  # each change once
    n = len(said)
    update(page, error="something else changed")  # the status is the same: nothing said again
    assert page.evaluate("() => window.said.length") == n
    # what happened is said once, in words, by the board's own live region
    assert w.log_lines[-1] in (page.locator(".kum-announce").text_content() or "")
    assert page.locator('.kum-announce[aria-live="polite"]').count() == 1


def test_the_same_words_twice_in_a_row_are_said_twice(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w)
    page.evaluate("""() => { window.spoken = [];
        new MutationObserver(() => window.spoken.push(document.querySelector('.kum-announce').textContent))
        .observe(document.querySelector('.kum-announce'), {childList: true, characterData: true, subtree: true}); }""")
    lines = list(w.log_lines)
    for n in (1, 2, 3):  # a line that comes again, word for word (the bot draws from the deck, and again)
        update(page, log_lines=[*lines, *["Bo drew from the deck."] * n])
    spoken = page.evaluate("() => window.spoken")
    assert len(spoken) == 3 and all("Bo drew from the deck." in s for s in spoken), spoken  # each time: a change to the region


def test_the_error_is_not_created_again_when_it_does_not_change(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w)
    update(page, error="refused: not your turn")
    page.evaluate("() => { window.alert1 = document.querySelector('.kum-error'); }")
    update(page, log_lines=[*w.log_lines, "a line"])
    assert page.evaluate("() => window.alert1.isConnected && document.querySelector('.kum-error') === window.alert1")


# -- moves that happen, and what changed since you last acted -----------------------------------


def test_a_card_that_changes_zone_flies_there_under_300_ms(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(kum.Court(seed=3), bot_delay=0)
    mount(page, w)
    page.evaluate(FLIGHTS)
    moved = page.locator('[data-zone="place 1"] [data-card]').get_attribute("data-card")
    page.locator(f'[data-card="{moved}"]').click()
    page.locator('[data-zone="space 1.1"][data-action]').click()
    feed_back(page, w)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")
    assert page.locator(f'[data-zone="space 1.1"] [data-card="{moved}"]').count() == 1
    flights = page.evaluate("() => window.flights")
    mine = [f for f in flights if f["key"] == f"card:{moved}"]
    assert mine and all(0 < f["ms"] <= 300 for f in flights), flights
    assert page.locator("[data-changed]").count() == 0  # the viewer's own move: shown, not marked


def test_a_flight_inside_a_zoomed_table_starts_where_the_card_was(page) -> None:  # type: ignore[no-untyped-def]
    # the stand-in page is 820 px wide: a board of middling width, whose table and seats are
    # zoomed (layout.css); a transform there moves by the zoom's share of its pixels
    w = Recorded(kum.Court(seed=3), bot_delay=0)
    mount(page, w)
    page.evaluate("""() => { window.firsts = [];
      const animate = Element.prototype.animate;
      Element.prototype.animate = function (frames, opts) {
        window.firsts.push({key: this.dataset ? (this.dataset.key || '') : '', transform: frames[0].transform || ''});
        return animate.call(this, frames, opts); }; }""")
    moved = page.locator('[data-zone="place 1"] [data-card]').get_attribute("data-card")
    card = page.locator(f'[data-card="{moved}"]')
    zoom = card.evaluate("e => e.currentCSSZoom")
    assert 0.5 < zoom < 1, zoom  # the case this test is about
    before = card.evaluate("e => { const r = e.getBoundingClientRect(); return [r.left, r.top]; }")
    card.click()
    page.locator('[data-zone="space 1.1"][data-action]').click()
    feed_back(page, w)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")
    page.evaluate("() => document.getAnimations().forEach(a => a.finish())")
    after = page.locator(f'[data-card="{moved}"]').evaluate("e => { const r = e.getBoundingClientRect(); return [r.left, r.top]; }")
    first = next(f["transform"] for f in page.evaluate("() => window.firsts") if f["key"] == f"card:{moved}")
    dx, dy = (float(v.strip().removesuffix("px")) for v in first.split("translate(")[1].split(")")[0].split(","))
    # the card was lifted when chosen (translateY(-6px), in the zoomed space) as it was measured
    assert abs(dx * zoom - (before[0] - after[0])) < 1.5 and abs(dy * zoom - (before[1] - after[1])) < 8, (first, before, after, zoom)
    assert abs(dx - (before[0] - after[0])) > 3  # not the unzoomed figure


def test_no_flight_under_prefers_reduced_motion(page) -> None:  # type: ignore[no-untyped-def]
    page.emulate_media(reduced_motion="reduce")
    w = Recorded(kum.Court(seed=3), bot_delay=0)
    mount(page, w)
    page.evaluate(FLIGHTS)
    page.locator('[data-zone="place 1"] [data-card]').click()
    page.locator('[data-zone="space 1.1"][data-action]').click()
    feed_back(page, w)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")
    assert page.evaluate("() => window.flights") == []


def test_the_bots_whole_turn_stays_marked_until_the_viewer_acts(page, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)  # no delay: the bot's turn comes in the answer to Ada's draw (as in marimo)
    mount(page, w)
    page.locator('[data-zone="hand 0"] [data-playable]').first.click()
    page.locator(".kum-lit[data-action]").first.click()
    feed_back(page, w)
    assert page.locator("[data-changed]").count() == 0  # Ada's own play
    page.evaluate(FLIGHTS)
    page.locator('[data-action="draw deck"]').click()
    feed_back(page, w)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")
    assert w.last_move["bot"] and w.game.current_player == 0
    marked = page.evaluate("() => [...document.querySelectorAll('.kum-changed[data-changed]')].map(e => e.dataset.key)")
    bot_area = page.evaluate("""() => [...document.querySelectorAll('[data-seat="1"] .kum-changed, .kum-table .kum-changed')].length""")
    assert marked and bot_area >= 1, marked
    assert any(f["key"] in marked for f in page.evaluate("() => window.flights"))  # and they moved into place
    page.evaluate("() => document.getAnimations().forEach(a => a.finish())")
    page.screenshot(path=str(artifacts / "live-changed-marks.png"), full_page=True)
    update(page, error="an unrelated update")  # marks stay over later updates...
    assert page.locator("[data-changed]").count() == len(marked)
    page.locator('[data-zone="hand 0"] [data-playable]').first.click()  # ... and over a selection (nothing sent)
    assert page.locator("[data-changed]").count() == len(marked)
    page.locator(".kum-lit[data-action]").first.click()  # acting clears them at once
    assert page.locator("[data-changed]").count() == 0
    feed_back(page, w)
    assert page.locator("[data-changed]").count() == 0


def test_a_move_made_from_a_cell_is_marked(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(kum.Court(seed=3), bot_delay=0)
    mount(page, w)
    w.sent.clear()
    w.act("start place 1 to space 1.1")
    moved = w.game.court[0]
    deliver(page, w)
    assert moved is not None
    keys = page.evaluate("() => [...document.querySelectorAll('[data-changed]')].map(e => e.dataset.key)")
    assert any(k.startswith("card:") for k in keys), keys
    assert page.locator('[data-zone="space 1.1"] [data-card].kum-changed').count() == 1


def test_a_new_game_or_an_undo_from_a_cell_is_not_marked(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    w.act(w.offered[0])
    w.act("draw deck")  # and the bot's reply
    mount(page, w)
    w.sent.clear()
    w.undo()  # taken back: what was is not news
    deliver(page, w)
    assert page.locator(".kum-widget").get_attribute("data-state-id") == str(w.state_id)
    assert page.locator("[data-changed]").count() == 0
    w.sent.clear()
    w.new_game(seed=5)
    deliver(page, w)
    assert page.locator("[data-changed]").count() == 0


def test_saying_who_is_at_the_screen_marks_nothing(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(kum.Game(["Ada", "Bo"], seed=4), bot_delay=0)
    mount(page, w)
    page.locator('.kum-pass [data-control="ready"]').click()
    feed_back(page, w)  # Ada's hand shows: her cards' faces are not a change
    assert page.locator('[data-zone="hand 0"] [data-playable]').count() >= 1
    assert page.locator("[data-changed]").count() == 0


def test_a_counter_that_changed_is_marked(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w)
    board = json.loads(json.dumps(w.board))
    seat = board["seats"][1]
    seat.setdefault("counters", []).append({"label": "gold", "value": 1})
    update(page, board=board)
    seat["counters"][-1]["value"] = 2
    update(page, board=board, state_id=w.state_id + 1)
    assert page.locator('[data-seat="1"] .kum-counter.kum-changed').count() == 1


def test_a_pile_whose_count_changed_keeps_its_back_so_its_number_reads(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w)
    page.locator('[data-zone="hand 0"] [data-playable]').first.click()
    page.locator(".kum-lit[data-action]").first.click()
    feed_back(page, w)
    page.locator('[data-action="draw deck"]').click()
    feed_back(page, w)  # the bot played and drew: the deck's count changed since Ada acted
    count = page.locator('[data-zone="deck"] .kum-pile-count')
    assert "kum-changed" in (count.get_attribute("class") or "")
    assert "repeating-linear-gradient" in count.evaluate("e => getComputedStyle(e).backgroundImage")


# -- why not ---------------------------------------------------------------------------------


def test_a_part_that_cannot_be_used_says_why_and_sends_nothing(page, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w)
    update(page, why_not={"hand 1 0": "Not yours: that is Greedy bot's hand.", "mine 2": "No card of yours may go there now."})
    card = page.locator('[data-card="hand 1 0"]')
    assert card.get_attribute("data-why") and card.get_attribute("tabindex") == "0"
    card.hover()
    tip = page.locator(".kum-tip")
    assert tip.is_visible() and tip.text_content() == "Not yours: that is Greedy bot's hand."
    assert card.get_attribute("aria-describedby") == tip.get_attribute("id")
    assert "Not yours" in (page.locator(".kum-announce").text_content() or "")
    page.mouse.move(0, 0)
    assert not tip.is_visible()
    card.click()
    assert tip.is_visible() and sent(page) == []
    page.screenshot(path=str(artifacts / "live-why-not.png"), full_page=True)
    page.keyboard.press("Escape")
    assert not tip.is_visible()
    page.locator('[data-zone="mine 2"]').focus()
    assert tip.is_visible() and tip.text_content() == "No card of yours may go there now."
    page.locator('[data-zone="mine 2"]').click(position={"x": 4, "y": 4})
    assert sent(page) == []


def test_a_lit_target_plays_even_when_it_has_a_reason(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w)
    page.locator('[data-zone="hand 0"] [data-playable]').first.click()
    lit = page.locator(".kum-lit[data-action]").first
    zone_id = lit.get_attribute("data-zone")
    update(page, why_not={zone_id: "a reason"})
    lit = page.locator(f'[data-zone="{zone_id}"]')
    lit.click()
    assert [m["kind"] for m in sent(page)] == ["act"]


def test_a_reason_does_not_pop_up_under_a_pointer_that_has_not_moved(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w)
    update(page, why_not={"mine 2": "No card of yours may go there now."})
    mine = page.locator('[data-zone="mine 2"]')
    update(page, error="refused")  # the error line pushes the table down
    pushed = mine.bounding_box()
    update(page, error="")
    x, y = pushed["x"] + pushed["width"] / 2, pushed["y"] + pushed["height"] - 4
    assert not (mine.bounding_box()["y"] <= y <= mine.bounding_box()["y"] + mine.bounding_box()["height"])  # below mine 2 now
    page.mouse.move(x, y)
    tip = page.locator(".kum-tip")
    page.evaluate("() => { window.over = []; document.addEventListener('pointerover', e => window.over.push(e.target.closest('[data-zone]')?.dataset.zone), true); }")
    update(page, error="refused")  # the board moves: mine 2 slides under the resting pointer
    # the browser says so with a pointerover on mine 2 (what would pop its reason up): once it is through, look
    wait_until(page, "() => window.over.includes('mine 2')", what="the browser's pointerover on mine 2, slid under the resting pointer")
    assert page.evaluate("(p) => document.elementFromPoint(p[0], p[1]).closest('[data-zone]')?.dataset.zone", [x, y]) == "mine 2"
    assert not tip.is_visible()  # nobody pointed at it
    page.mouse.move(x + 2, y)  # now the player points at it
    assert tip.is_visible() and tip.text_content() == "No card of yours may go there now."


# -- the bot's thinking, the hint, the speed --------------------------------------------------


def analysis_for(w: kum.GameWidget, kind: str = "hint") -> dict[str, Any]:
    moves = []
    actions = w.legal["actions"]
    for i, a in enumerate(actions):
        moves.append({"action": a["text"], "source": a.get("source"), "target": a.get("target"),
                      "share": round(0.5 / (i + 1), 3), "value": round(0.7 - 0.05 * i, 3)})
    return {"kind": kind, "seat": 0, "name": "hint for Ada", "chosen": actions[0]["text"], "moves": moves}


def test_the_thinking_switch_shows_each_moves_figures_on_its_click_targets(page, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w, analysis=None, pace="normal")
    assert page.locator(".kum-think, .kum-thinking").count() == 0
    page.locator('[data-control="hint"]').click()
    assert sent(page) == [{"kind": "hint", "state_id": w.state_id}]
    assert page.locator('[data-control="thinking"]').is_checked()  # asked for: shown
    a = analysis_for(w)
    page.evaluate("id => window.custom({kind: 'answer', id})", page.evaluate("() => window.model.sent[0].id"))
    update(page, analysis=a)
    sources = {m["source"] for m in a["moves"] if m["source"]}
    assert page.locator(".kum-think").count() == len(sources)  # one per card, before any is chosen
    first = a["moves"][0]
    chosen = page.locator(f'[data-card="{first["source"]}"]')
    assert chosen.get_attribute("data-think") == "chosen" and chosen.locator(".kum-think.kum-think-chosen").count() == 1
    assert "hint for Ada" in (page.locator(".kum-thinking caption").text_content() or "")
    assert page.locator(".kum-thinking tbody tr").count() == min(8, len(a["moves"]))
    chosen.click()  # its targets show each move's figures
    targets = [m["target"] for m in a["moves"] if m["source"] == first["source"]]
    for t in targets:
        assert page.locator(f'[data-zone="{t}"] > .kum-think').count() == 1, t
    page.screenshot(path=str(artifacts / "live-thinking.png"), full_page=True)
    page.locator('[data-control="thinking"]').uncheck()  # off: nothing shown
    assert page.locator(".kum-think, .kum-thinking").count() == 0
    assert [m["kind"] for m in sent(page)] == ["hint"]  # the switch is the view's own


def test_a_bots_decision_shows_on_where_its_card_went_and_its_texts_as_text(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w, analysis=None)
    hostile = "<img src=x onerror=alert(1)>"
    a = {"kind": "bot", "seat": 1, "name": hostile, "chosen": "play it on mine 3",
         "moves": [{"action": "play it on mine 3", "source": "card played and gone", "target": "mine 3", "share": 0.7, "value": 0.6},
                   {"action": hostile, "source": None, "target": "mine 4", "share": 0.3, "value": 0.4},
                   {"action": 7, "share": "x"}, "junk"]}  # read warily: a move without an action text is left out
    update(page, analysis=a)
    page.locator('[data-control="thinking"]').check()
    assert page.locator('[data-zone="mine 3"][data-think="chosen"] > .kum-think-chosen').count() == 1  # its card has left: on the mine
    assert page.locator('[data-zone="mine 4"] > .kum-think').count() == 1
    assert page.locator(".kum-thinking tbody tr").count() == 2
    assert page.locator(".kum-widget img").count() == 0 and hostile in (page.locator(".kum-thinking caption").text_content() or "")


def test_a_move_the_search_never_tried_says_so_rather_than_a_zero_chance(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w, analysis=None)
    a = {"kind": "hint", "seat": 0, "name": "hint for Ada", "chosen": "play it on mine 3",
         "moves": [{"action": "play it on mine 3", "source": None, "target": "mine 3", "share": 1.0, "value": 0.6},
                   {"action": "play it on mine 4", "source": None, "target": "mine 4", "share": 0, "value": 0},  # pruned by the search
                   {"action": "play it on mine 2", "source": None, "target": "mine 2", "share": None, "value": None}]}
    update(page, analysis=a)
    page.locator('[data-control="thinking"]').check()
    assert page.locator('[data-zone="mine 3"] > .kum-think .kum-think-value').text_content() == "win 60%"
    for zone in ("mine 4", "mine 2"):
        badge = page.locator(f'[data-zone="{zone}"] > .kum-think')
        assert "kum-think-untried" in (badge.get_attribute("class") or "") and badge.locator(".kum-think-value").text_content() == "not tried"
        assert "not tried" in (badge.get_attribute("title") or "")
    rows = {r.get_attribute("data-move"): r.locator("td").nth(1).text_content() for r in page.locator(".kum-thinking tbody tr").all()}
    assert rows["play it on mine 3"] == "about 60%" and rows["play it on mine 4"] == rows["play it on mine 2"] == "not tried"


def test_a_move_that_is_a_button_shows_its_figures_on_the_button(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(kum.Court(seed=3), bot_delay=0)
    for text in ("start place 1 to space 1.1", "start place 2 to space 1.2", "start place 3 to space 2.1"):
        w.act(text)
    mount(page, w, analysis={"kind": "hint", "seat": 0, "name": "hint", "chosen": "pass",
                             "moves": [{"action": "pass", "source": None, "target": None, "share": 0.9, "value": 0.5}]})
    page.locator('[data-control="hint"]').click()  # no bot here: no switch; the Hint shows its answer
    page.evaluate("id => window.custom({kind: 'answer', id})", page.evaluate("() => window.model.sent[0].id"))
    button = page.locator('button.kum-action[data-action="pass"]')
    assert button.get_attribute("data-think") == "chosen" and "90%" in (button.locator(".kum-think-bar").get_attribute("style") or "")
    assert "90% of the search's effort" in (button.locator(".kum-think").get_attribute("title") or "")
    assert button.get_attribute("aria-label") is None and button.text_content().startswith("Pass")  # the figures are aria-hidden
    # the figures sit beside the button's word, not on it
    apart = button.evaluate("""b => { const r = document.createRange(); r.selectNodeContents(b.firstChild);
      const t = r.getBoundingClientRect(), f = b.querySelector('.kum-think').getBoundingClientRect();
      return f.left >= t.right || f.top >= t.bottom; }""")
    assert apart


@pytest.mark.parametrize(("measure", "column", "badge"), [("score", "Expected score", "score 22.4"), ("win", "Chance to win", "win 96%"),
                                                         ("heuristic", "Rule-of-thumb score", "rule 96"), ("__proto__", "Value", "value 96%")])
def test_the_figures_say_what_the_search_measured(page, measure: str, column: str, badge: str) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(kum.Court(seed=3), bot_delay=0)
    mount(page, w, analysis={"kind": "hint", "seat": 0, "name": "hint", "measure": measure, "chosen": "x",
                             "moves": [{"action": "x", "source": None, "target": "space 2.3", "share": 0.9, "value": 0.957, "score": 22.4}]})
    page.locator('[data-control="hint"]').click()  # no bot here: no switch; the Hint shows its answer
    page.evaluate("id => window.custom({kind: 'answer', id})", page.evaluate("() => window.model.sent[0].id"))
    assert page.locator(".kum-thinking thead th").nth(2).text_content() == column
    assert page.locator('[data-zone="space 2.3"] .kum-think-value').text_content() == badge


def test_the_switch_on_with_nothing_to_show_says_why(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w, analysis=None)
    assert page.locator(".kum-thinking").count() == 0
    page.locator('[data-control="thinking"]').check()
    note = page.locator(".kum-thinking-empty")
    assert note.is_visible() and "Hint shows what the search would play for you" in (note.text_content() or "")
    page.locator('[data-control="thinking"]').uncheck()
    assert page.locator(".kum-thinking").count() == 0


def test_the_speed_control_sends_the_pace(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w, pace="normal", analysis=None)
    pace = page.locator('select[data-control="pace"]')
    assert pace.input_value() == "normal"
    pace.select_option("fast")
    assert sent(page) == [{"kind": "pace", "value": "fast", "state_id": w.state_id}]
    page.evaluate("id => window.custom({kind: 'answer', id})", page.evaluate("() => window.model.sent[0].id"))
    update(page, pace="fast")
    assert pace.input_value() == "fast"


def test_a_kernel_that_sends_none_as_undefined_still_offers_the_hint(page) -> None:  # type: ignore[no-untyped-def]
    """Pyodide's kernel (the course site) sends a trait's None as undefined: the Hint and the
    thinking switch are offered all the same, the speed only with a pace to show."""
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    state = {k: v for k, v in traits(w).items() if k not in ("analysis", "pace", "why_not")}
    page.evaluate("state => window.mount(state)", state)
    page.wait_for_selector(".kum-widget[data-state-id]")
    assert page.locator('[data-control="hint"]').count() == 1 and page.locator('[data-control="thinking"]').count() == 1
    assert page.locator('[data-control="pace"]').count() == 0
    assert page.locator('[data-zone="hand 0"] [data-playable]').count() >= 1
