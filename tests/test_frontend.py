"""The board's front-end in headless Chromium with a stand-in model (no Jupyter server).

The page loads the built ``kum_widget/static/widget.js`` and renders it with a fake
anywidget model whose traits come from a real ``GameWidget`` in this process; what
the page sends is fed back to that widget, as the kernel would.
"""

from __future__ import annotations

import functools
import http.server
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import kum_widget as kum

STATIC = Path(kum.__file__).parent / "static"
TRAITS = ["board", "legal", "log", "error", "state_id", "pass_to", "thinking", "last_move", "bot_seats", "reveal", "bot_choices"]

PAGE = """<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="widget.css"></head>
<body style="margin:0;width:820px"><div id="host"></div>
<script type="module">
import widget from "./widget.js";
class FakeModel {
  constructor() { this.state = {}; this.handlers = {}; this.sent = []; }
  get(k) { return this.state[k]; }
  set(k, v) { this.state[k] = v; for (const f of this.handlers["change:" + k] || []) f(); }
  on(ev, f) { (this.handlers[ev] ||= []).push(f); }
  off(ev, f) { this.handlers[ev] = (this.handlers[ev] || []).filter((g) => g !== f); }
  listeners() { return Object.values(this.handlers).reduce((n, l) => n + l.length, 0); }
  send(msg) { this.sent.push(msg); }
  save_changes() {}
}
window.model = new FakeModel();
window.mount = (state) => {
  Object.assign(window.model.state, state);
  window.cleanup = widget.render({ model: window.model, el: document.getElementById("host") });
};
window.update = (state) => { for (const [k, v] of Object.entries(state)) window.model.set(k, v); };
window.ready = true;
</script></body></html>"""


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    (STATIC / "_test_page.html").write_text(PAGE)
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(STATIC))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/_test_page.html"
    httpd.shutdown()
    (STATIC / "_test_page.html").unlink()


def traits(w: kum.GameWidget) -> dict:
    return json.loads(json.dumps({name: getattr(w, name) for name in TRAITS}))


@pytest.fixture()
def page(browser, server):  # type: ignore[no-untyped-def]
    page = browser.new_page(viewport={"width": 840, "height": 1100})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server)
    page.wait_for_function("window.ready === true")
    yield page
    assert errors == [], f"JavaScript errors on the page: {errors}"
    page.close()


def mount(page, w: kum.GameWidget) -> None:  # type: ignore[no-untyped-def]
    page.evaluate("state => window.mount(state)", traits(w))
    page.wait_for_selector(".kum-widget[data-state-id]")


def feed_back(page, w: kum.GameWidget) -> None:  # type: ignore[no-untyped-def]
    """Deliver what the page sent to the widget (as the kernel does), then sync back."""
    for msg in page.evaluate("() => window.model.sent.splice(0)"):
        w._on_browser_msg(w, msg, [])
    page.evaluate("state => window.update(state)", traits(w))
    page.wait_for_function("sid => document.querySelector('.kum-widget').dataset.stateId === String(sid)", arg=w.state_id)


def test_renders_the_board(page, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    w = kum.GameWidget(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w)
    root = page.locator(".kum-widget")
    assert root.get_attribute("data-state-id") == str(w.state_id)
    assert page.locator('[data-zone="mine"]').count() == 4
    assert page.locator('[data-zone="camp"] button').count() == 4
    assert page.locator('[data-zone="deck"]').count() == 1
    assert page.locator('[data-zone="hand"][data-seat="0"] [data-playable]').count() >= 1
    assert page.locator('[data-zone="log"]').count() == 1
    # the bot's hand shows mine faces only
    assert page.locator('[data-zone="hand"][data-seat="1"] .kum-hidden').count() == 6
    page.screenshot(path=str(artifacts / "frontend-start.png"), full_page=True)


def test_select_lights_targets_without_a_round_trip(page) -> None:  # type: ignore[no-untyped-def]
    w = kum.GameWidget(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w)
    card = page.locator("[data-playable]").first
    card_id = int(card.get_attribute("data-card"))
    label = w.game.deck[card_id].label
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
    w = kum.GameWidget(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w)
    page.locator("[data-playable]").first.click()
    target = page.locator(".kum-target[data-action]").first
    action = target.get_attribute("data-action")
    target.click()
    sent = page.evaluate("() => window.model.sent")
    assert sent == [{"kind": "act", "action": action, "state_id": w.state_id}]
    feed_back(page, w)
    assert w.game.phase == "draw"
    assert page.locator('[data-zone="deck"][data-action="draw deck"]').count() == 1
    page.locator('[data-action="draw deck"]').click()
    feed_back(page, w)
    assert w.game.current_player == 0 and len(w.game.history) >= 4  # the bot replied
    assert page.locator(".kum-last").count() >= 1  # the bot's last move is highlighted


def test_error_and_names_render_as_text(page) -> None:  # type: ignore[no-untyped-def]
    name = "<img src=x onerror=alert(1)>"
    w = kum.GameWidget(kum.Game([name, "<b>Bo</b>"], seed=2), bots={1: "random"}, bot_delay=0)
    w.error = "<script>alert(2)</script> refused"
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    mount(page, w)
    assert page.locator(".kum-name").first.text_content() == name
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
    w = kum.GameWidget(game, bots={1: "random"}, bot_delay=0)
    assert game.phase == "discard"
    mount(page, w)
    discards = page.locator('[data-zone="hand"][data-seat="0"] [data-action^="discard"]')
    assert discards.count() == 2
    discards.first.click()
    feed_back(page, w)
    assert game.phase == "draw" and w.offered == ["draw deck"]


def test_game_over_panel_and_cleanup(page, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    w = kum.GameWidget(bots={1: "greedy"}, seed=9, bot_delay=0)
    while not w.game.is_over:
        w.act(w.game.legal_actions()[0])
    mount(page, w)
    panel = page.locator(".kum-over")
    assert panel.count() == 1
    for seat, score in enumerate(w.game.scores()):
        assert page.locator(f'[data-score="{seat}"]').text_content() == str(score)
    page.screenshot(path=str(artifacts / "frontend-over.png"), full_page=True)
    assert page.evaluate("() => window.model.listeners()") > 0
    page.evaluate("() => window.cleanup()")
    assert page.evaluate("() => window.model.listeners()") == 0
    assert page.locator(".kum-widget").count() == 0


def test_keyboard_play(page) -> None:  # type: ignore[no-untyped-def]
    w = kum.GameWidget(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w)
    page.locator("[data-playable]").first.focus()
    page.keyboard.press("Enter")
    assert page.locator(".kum-target[data-action]").count() >= 1
    page.locator(".kum-target[data-action]").first.focus()
    page.keyboard.press("Enter")
    assert page.evaluate("() => window.model.sent.length") == 1
