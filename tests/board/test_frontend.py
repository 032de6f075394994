"""The board's front-end in headless Chromium with a stand-in model (no Jupyter server).

The page (tests/_live_helpers.py) loads the built ``kum_widget/static/widget.js`` and
renders it with a stand-in anywidget model that behaves like Backbone's (a ``set`` of an
equal value fires no change event), whose traits come from a real ``GameWidget`` in this
process; what the page sends is fed to that widget, and what the widget sends back (state
updates and its answers) is delivered to the page in order, as the kernel would.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from _board_helpers import Recorded, zone
from _chromium import wait_until
from _live_helpers import TRAITS, deliver, feed_back, mount, traits, update

import kum_widget as kum


def test_renders_the_board(page, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w)
    root = page.locator(".kum-widget")
    assert root.get_attribute("data-state-id") == str(w.state_id)
    assert page.locator('[data-zone^="mine "]:not([data-zone$=" stack"])').count() == 4
    assert page.locator('[data-zone^="camp "]').count() == 4
    assert page.locator('[data-zone="deck"]').count() == 1
    assert page.locator('[data-zone="hand 0"] [data-playable]').count() >= 1
    assert page.locator('[data-zone="log"]').count() == 1
    # the bot's hand shows mine faces only: every creature face hidden
    assert page.locator('[data-zone="hand 1"] .kum-face-main.kum-face-hidden').count() == 6
    assert page.locator('[data-zone="hand 1"] [data-card^="card "]').count() == 0
    page.screenshot(path=str(artifacts / "frontend-start.png"), full_page=True)


def test_playable_cards_are_lit_before_any_hover(page) -> None:  # type: ignore[no-untyped-def]
    """A card that starts a legal move wears a ring at once, as a target does; a card
    that starts none (the bot's hand) wears none; the chosen card's stronger ring wins."""
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w)
    shadow = "el => getComputedStyle(el).boxShadow"
    card_id = page.locator('[data-zone="hand 0"] [data-playable]').first.get_attribute("data-card")
    playable = page.locator(f'[data-card="{card_id}"]')
    lit = playable.evaluate(shadow)
    plain = page.locator('[data-zone="hand 1"] .kum-card').first.evaluate(shadow)
    assert page.locator('[data-zone="hand 1"] button').count() == 0
    assert lit != plain and lit.count("rgb") == plain.count("rgb") + 1  # the ring, over the card's own shadow
    playable.click()
    assert playable.get_attribute("aria-pressed") == "true"
    assert playable.evaluate(shadow) not in (lit, plain)


def test_select_lights_targets_without_a_round_trip(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w)
    card = page.locator("[data-playable]").first
    card_id = card.get_attribute("data-card")
    label = w.game.deck[int(card_id.split()[1])].label
    expected = sorted(t for t in w.offered if t.startswith(f"play {label} on"))
    lit = page.evaluate(
        """id => { document.querySelector(`[data-card="${id}"]`).click();
                   return [...document.querySelectorAll('.kum-target[data-action]')].map(e => e.dataset.action).sort(); }""",
        card_id,
    )
    assert lit == expected  # synchronously after the click: no kernel round trip
    assert page.evaluate("() => window.model.sent.length") == 0
    assert card.get_attribute("aria-pressed") == "true" or page.locator(f'[data-card="{card_id}"]').get_attribute("aria-pressed") == "true"


def test_click_sends_action_with_state_id_and_rerenders(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w)
    page.locator("[data-playable]").first.click()
    target = page.locator(".kum-target[data-action]").first
    action = target.get_attribute("data-action")
    assert target.get_attribute("data-action-id") == str(w.offered_ids[w.offered.index(action)])  # the text shown, the id sent
    target.click()
    sent = page.evaluate("() => window.model.sent")
    assert [{k: v for k, v in m.items() if k != "id"} for m in sent] == [{"kind": "act", "action_id": w.offered_ids[w.offered.index(action)],
                                                                            "state_id": w.state_id}]
    assert isinstance(sent[0]["id"], str) and sent[0]["id"]
    feed_back(page, w)
    assert w.game.phase == "draw"
    assert page.locator('[data-zone="deck"][data-action="draw deck"]').count() == 1
    page.locator('[data-action="draw deck"]').click()
    feed_back(page, w)
    assert w.game.current_player == 0 and len(w.game.history) >= 4  # the bot replied
    assert page.locator(".kum-last").count() >= 1  # the bot's last move is highlighted


def test_error_and_names_render_as_text(page) -> None:  # type: ignore[no-untyped-def]
    name = "<img src=x onerror=alert(1)>"
    w = Recorded(kum.Game([name, "<b>Bo</b>"], seed=2), bots={1: "random"}, bot_delay=0)
    w.error = "<script>alert(2)</script> refused"
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    mount(page, w)
    assert page.locator('[data-seat="0"] .kum-name').text_content() == name  # (the own seat is drawn last: below the table)
    assert page.locator(".kum-error").text_content() == w.error
    assert page.locator(".kum-widget img, .kum-widget script, .kum-widget b").count() == 0
    assert dialogs == []


def test_discard_phase_offers_discards(page) -> None:  # type: ignore[no-untyped-def]
    mine_ids = [c.id for c in kum.Deck.standard() if c.defense >= 2 and c.race.value == "dwarf" and c.value < 9][:4]
    game = kum.Game.from_scenario(
        ["Ada", "Bo"], races=["orc", "dwarf"],
        hands=[["orc 1", "orc 2"], ["dwarf 3"]],
        mines=[{"mine": m, "stack": [nine]} for m, nine in zip(mine_ids, ["giant 9", "giant 9", "goblin 9", "goblin 9"], strict=True)],
    )
    w = Recorded(game, bots={1: "random"}, bot_delay=0)
    assert game.phase == "discard"
    mount(page, w)
    discards = page.locator('[data-zone="hand 0"] [data-action^="discard"]')
    assert discards.count() == 2
    # a card that is a move in itself: dashed like a target zone, without the chosen card's ring
    looks = discards.first.evaluate("el => [getComputedStyle(el).outlineStyle, getComputedStyle(el).boxShadow]")
    assert looks == ["dashed", page.locator('[data-zone="hand 1"] .kum-card').first.evaluate("el => getComputedStyle(el).boxShadow")]
    discards.first.click()
    feed_back(page, w)
    assert game.phase == "draw" and w.offered == ["draw deck"]


def test_game_over_panel_and_cleanup(page, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=9, bot_delay=0)
    while not w.game.is_over:
        w.act(w.game.legal_actions()[0])
    mount(page, w)
    panel = page.locator(".kum-over")
    assert panel.count() == 1
    for seat, score in enumerate(w.game.scores()):
        assert page.locator(f'[data-score="{seat}"]').text_content() == str(score)
    # the seats' "score" counter says what "Final score" says: one column, not two
    assert page.locator(".kum-over thead th").all_text_contents() == ["Player", "developed", "undeveloped", "Final score"]
    # a counter that agrees with the score by chance (nothing undeveloped: developed = score) stays
    board = json.loads(json.dumps(w.board))
    for seat in board["seats"]:
        for c in seat["counters"]:
            c["value"] = next(p["score"] for p in board["players"] if p["seat"] == seat["seat"]) if c["label"] in ("score", "developed") else 0
    update(page, board=board)
    assert page.locator(".kum-over thead th").all_text_contents() == ["Player", "developed", "undeveloped", "Final score"]
    page.screenshot(path=str(artifacts / "frontend-over.png"), full_page=True)
    assert page.evaluate("() => window.model.listeners()") > 0
    page.evaluate("() => window.cleanup()")
    assert page.evaluate("() => window.model.listeners()") == 0
    assert page.locator(".kum-widget").count() == 0


def test_keyboard_play(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w)
    page.locator("[data-playable]").first.focus()
    page.keyboard.press("Enter")
    assert page.locator(".kum-target[data-action]").count() >= 1
    page.locator(".kum-target[data-action]").first.focus()
    page.keyboard.press("Enter")
    assert page.evaluate("() => window.model.sent.length") == 1


def busy(page) -> bool:  # type: ignore[no-untyped-def]
    return bool(page.evaluate("() => document.querySelector('.kum-widget').hasAttribute('aria-busy')"))


def test_undo_with_nothing_to_undo_does_not_freeze_the_board(page) -> None:  # type: ignore[no-untyped-def]
    # The bot moved first: Undo is on, but the human has made no decision to take back.
    # The kernel changes no trait (so a Backbone model fires no change event), but its
    # answer releases the board, and the next click goes through.
    w = Recorded(kum.Game(["Ada", "Bo"], seed=3, first_player=1), bots={1: "greedy"}, bot_delay=0)
    assert w.game.move_number > 0
    mount(page, w)
    for _ in range(2):  # and once more: the same refusal twice changes nothing at all
        page.locator('[data-control="undo"]').click()
        assert busy(page)
        feed_back(page, w)
        assert not busy(page) and "nothing to undo" in page.locator(".kum-error").text_content()
    page.locator("[data-playable]").first.click()
    page.locator(".kum-target[data-action]").first.click()
    assert feed_back(page, w)[0]["kind"] == "act" and w.game.phase == "draw"


def test_a_refused_new_game_twice_leaves_the_board_usable(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w)
    for _ in range(2):
        page.locator('.kum-controls [data-control="new-game"]').click()
        page.locator(".kum-seed").fill("99999999999")
        page.locator('[data-control="start"]').click()
        feed_back(page, w)
        assert "seed" in page.locator(".kum-error").first.text_content() and not busy(page)
    assert w.game.seed == 3
    page.locator('[data-action^="play"], [data-playable]').first.click()
    assert page.locator(".kum-target[data-action]").count() >= 1


def test_new_game_form_keeps_the_current_opponent(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w)
    page.locator('.kum-controls [data-control="new-game"]').click()
    assert page.locator(".kum-bot-select").input_value() == "greedy"
    page.locator('[data-control="start"]').click()
    feed_back(page, w)
    assert type(w.bots[1]).__name__ == "GreedyBot" and w.game.seed != 3


def test_keyboard_focus_stays_in_the_board_after_each_move(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w)
    inside = "() => document.querySelector('.kum-widget').contains(document.activeElement)"
    page.locator("[data-playable]").first.focus()
    page.keyboard.press("Enter")
    page.locator(".kum-target[data-action]").first.focus()
    page.keyboard.press("Enter")
    feed_back(page, w)
    assert page.evaluate(inside)
    assert page.evaluate("() => document.activeElement.dataset.action") == "draw deck"  # the next thing to do
    page.keyboard.press("Enter")  # draw; the bot replies; focus goes to Ada's first playable card
    feed_back(page, w)
    assert page.evaluate(inside) and page.evaluate("() => document.activeElement.dataset.playable") == ""


def test_a_kernel_that_never_answers_is_said_so(page) -> None:  # type: ignore[no-untyped-def]
    page.clock.install()
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w)
    page.locator('[data-control="hint"]').click()  # (never fed back: the kernel is silent)
    assert busy(page)
    page.clock.fast_forward(31_000)
    page.wait_for_function("() => !document.querySelector('.kum-widget').hasAttribute('aria-busy')")
    assert "has not answered" in page.locator(".kum-error").text_content()


def test_redo_button_goes_forward_again(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "random"}, seed=3, bot_delay=0)
    mount(page, w)
    assert page.locator('[data-control="redo"]').is_disabled()
    assert page.locator('[data-control="undo"]').is_disabled()  # nothing played yet: nothing to undo
    page.locator("[data-playable]").first.click()
    page.locator(".kum-target[data-action]").first.click()
    feed_back(page, w)
    assert page.locator('[data-control="undo"]').is_enabled()
    page.locator('[data-control="undo"]').click()
    feed_back(page, w)
    assert w.game.history == () and page.locator('[data-control="redo"]').is_enabled()
    page.locator('[data-control="redo"]').click()
    feed_back(page, w)
    assert len(w.game.history) == 1 and w.game.phase == "draw"


def test_hot_seat_pass_screen_shows_no_hand(page, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(kum.Game(["Ada", "Bo"], seed=4), bot_delay=0)
    mount(page, w)
    assert page.locator(".kum-pass").count() == 1
    assert page.locator("[data-playable], [data-action]").count() == 0
    assert page.locator('[data-zone^="hand "] .kum-face-main.kum-face-hidden').count() == 12  # every creature face down
    page.screenshot(path=str(artifacts / "frontend-pass.png"), full_page=True)
    page.locator('.kum-pass [data-control="ready"]').click()
    feed_back(page, w)
    assert page.locator(".kum-pass").count() == 0 and page.locator("[data-playable]").count() >= 1


def test_a_pass_screen_says_nothing_the_last_player_was_told(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(kum.Game(["Ada", "Bo"], seed=4), bot_delay=0)
    w.act(w.game.legal_actions()[0])  # Ada's turn, from a cell: Bo is next
    w.act(w.game.legal_actions()[0])
    mount(page, w)
    page.locator('.kum-pass [data-control="ready"]').click()
    feed_back(page, w)  # Bo at the screen
    w.sent.clear()
    w.hint()  # from a cell: the hint names Bo's cards, and is said
    deliver(page, w)
    wait_until(page, "labels => labels.some(l => document.querySelector('.kum-announce').textContent.includes(l))",
               [c.label for c in w.game.hand(1)], what="the hint said, naming Bo's cards")
    w.sent.clear()
    w.undo()  # Ada's draw taken back: the screen goes to Ada, and no line is new
    deliver(page, w)
    wait_until(page, "() => document.querySelector('.kum-pass') !== null", what="the pass screen to Ada")
    said = page.locator(".kum-announce").text_content() or ""
    assert [m for m in private_marks(w.game, 1) if m in said] == [], said


def test_save_replay_button_downloads_the_file_the_kernel_wrote(page, browser, tmp_path: Path, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    from _chromium import offline_page

    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    for _ in range(3):  # a few moves of each side, from a cell
        w.act(w.offered[0])
        w.act(w.offered[0])
    mount(page, w)
    page.click("[data-control='save-replay']")
    assert [m["kind"] for m in page.evaluate("() => window.model.sent")] == ["replay"]
    with page.expect_download() as download:
        feed_back(page, w)
    # named as a hand-in is (core.files.hand_in_name): the game, the players, the date
    assert re.fullmatch(r"kings-under-mountains_Ada-Greedy-bot_\d{4}-\d\d-\d\d-\d{4}\.html", download.value.suggested_filename)
    saved = tmp_path / "from-the-board.html"
    download.value.save_as(saved)
    assert saved.read_text(encoding="utf-8") == w._replay_page()  # byte for byte what the kernel wrote
    offline, requests, errors = offline_page(browser, saved)
    steps = offline.locator(".kum-replay").get_attribute("data-steps")
    assert steps == str(w.game.move_number)
    offline.keyboard.press("End")
    # drawn for the board's seat: the bot's hand stays face down in the file too
    hidden = [c for c in zone(w.board, "hand 1")["cards"] if c["faces"][0].get("hidden")]
    assert offline.locator(".kum-replay").get_attribute("data-step") == str(w.game.move_number)
    assert 0 < len(hidden) == offline.locator('[data-zone="hand 1"] .kum-face-main.kum-face-hidden').count()
    offline.screenshot(path=str(artifacts / "frontend-saved-replay.png"), full_page=True)
    assert requests == [] and errors == []
    offline.close()


# -- a hot seat's private part: in the view's memory, never on the model (issue 32, item 5) ------


def private_marks(game: kum.Game, seat: int) -> list[str]:
    return [m for c in game.hand(seat) if not game._state.known[c.id] for m in (f"card {c.id}", c.label)]


def model_text(page) -> str:  # type: ignore[no-untyped-def]
    """Everything on the stand-in model: what a save of the page's widget state writes."""
    return str(page.evaluate("() => JSON.stringify(window.model.state)"))


def test_the_stand_in_model_fires_no_change_for_an_equal_value(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w)
    before = page.evaluate("() => window.model.changes")
    page.evaluate("state => window.update(state)", traits(w))  # every trait again, equal
    assert page.evaluate("() => window.model.changes") == before
    page.evaluate("() => window.update({error: 'x'})")
    assert page.evaluate("() => window.model.changes") == before + 1


def test_hot_seat_hand_is_shown_from_the_private_part_and_never_set_on_the_model(page, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(kum.Game(["Ada", "Bo"], seed=4), bot_delay=0)
    mount(page, w)
    marks = private_marks(w.game, 0)
    page.locator('.kum-pass [data-control="ready"]').click()
    feed_back(page, w)  # the traits (naming the private part), the private part, the answer
    assert page.locator(".kum-pass").count() == 0 and page.locator('[data-zone="hand 0"] [data-playable]').count() >= 1
    assert page.locator('[data-zone="hand 0"] [data-card^="card "]').count() == 6
    assert page.locator('[data-zone="hand 1"] [data-card^="card "]').count() == 0
    page.screenshot(path=str(artifacts / "frontend-hot-seat-hand.png"), full_page=True)
    text = model_text(page)
    assert '"private_id":' in text and [m for m in marks if m in text] == []  # the model holds the public table
    # a move by clicking, from the private legal actions: the kernel takes it
    page.locator('[data-zone="hand 0"] [data-playable]').first.click()
    page.locator(".kum-target[data-action]").first.click()
    feed_back(page, w)
    assert w.game.phase == "draw" and page.locator('[data-zone="deck"][data-action="draw deck"]').count() == 1
    page.locator('[data-action="draw deck"]').click()
    feed_back(page, w)
    assert page.locator(".kum-pass").count() == 1 and page.locator('[data-card^="card "]').count() == 0  # behind the pass screen
    assert [m for m in private_marks(w.game, 0) + private_marks(w.game, 1) if m in model_text(page)] == []


def test_a_new_view_asks_for_the_private_part_and_shows_the_hand(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(kum.Game(["Ada", "Bo"], seed=4), bot_delay=0)
    w.ready()  # from a cell: Ada at the screen before any view is drawn
    mount(page, w)  # a view with only the traits: the public table at once, and a request
    assert page.locator('[data-card^="card "]').count() == 0 and page.locator(".kum-seat").count() == 2
    sent = page.evaluate("() => window.model.sent")
    assert [m["kind"] for m in sent] == ["view"] and not page.evaluate("() => document.querySelector('.kum-widget').hasAttribute('aria-busy')")
    feed_back(page, w)
    page.wait_for_selector('[data-zone="hand 0"] [data-playable]')
    assert page.locator('[data-zone="hand 0"] [data-card^="card "]').count() == 6
    page.evaluate("() => window.remount()")  # the page reloaded (or a second view): it asks again
    assert [m["kind"] for m in page.evaluate("() => window.model.sent")] == ["view"]
    feed_back(page, w)
    page.wait_for_selector('[data-zone="hand 0"] [data-playable]')
    assert w.error == ""


def test_traits_whose_private_part_does_not_come_are_drawn_without_it(page) -> None:  # type: ignore[no-untyped-def]
    # a host that delivers no custom message (a static export of the saved state): the public table
    page.clock.install()
    w = Recorded(kum.Game(["Ada", "Bo"], seed=4), bot_delay=0)
    mount(page, w)
    w.sent.clear()
    w.ready()
    update = next(m["state"] for m in w.sent if m["method"] == "update")
    page.evaluate("state => window.update(state)", {k: v for k, v in update.items() if k in TRAITS})
    assert page.locator(".kum-pass").count() == 1  # waiting for the private part: the old board stays
    page.clock.fast_forward(2_500)
    page.wait_for_function("() => !document.querySelector('.kum-pass')")
    assert page.locator('[data-card^="card "]').count() == 0 and page.locator(".kum-seat").count() == 2
    assert [m["kind"] for m in page.evaluate("() => window.model.sent")] == ["view"]  # and it asked
