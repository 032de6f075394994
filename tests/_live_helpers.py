"""The stand-in page of the front-end tests (test_frontend*.py): the built front-end in
headless Chromium with a stand-in anywidget model that behaves like Backbone's (a ``set`` of
an equal value fires no change event), no Jupyter server. Its traits come from a real
``GameWidget`` in the test's process; what the page sends is fed to that widget, and what the
widget sends back is delivered to the page in order, as the kernel would. A module serves the
page from a file of its own and opens a page per test that fails on any JavaScript error."""

from __future__ import annotations

import functools
import http.server
import json
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from _board_helpers import Recorded
from _chromium import wait_until, watched_page

import kum_widget as kum

__all__ = ["PAGE", "STATIC", "TRAITS", "deliver", "feed_back", "mount", "open_page", "sent", "serve_page", "traits", "update"]

STATIC = Path(kum.__file__).parent / "static"
TRAITS = ["board", "legal", "log_lines", "error", "state_id", "pass_to", "thinking", "last_move", "bot_seats", "reveal", "bot_choices", "step", "max_step", "private_id",
          "why_not", "analysis", "pace"]  # (the last three: issue 35's, sent when the widget has them)

PAGE = """<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="widget.css"></head>
<body style="margin:0;width:820px"><div id="host"></div>
<script type="module">
import widget from "./widget.js";
// Backbone's isEqual, for the JSON values traits hold.
const equal = (a, b) => {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a), kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => equal(a[k], b[k]));
};
class FakeModel {
  constructor() { this.state = {}; this.handlers = {}; this.sent = []; this.changes = 0; }
  get(k) { return this.state[k]; }
  set(k, v) {
    if (equal(this.state[k], v)) return; // like Backbone: no change event for an equal value
    this.state[k] = v; this.changes++;
    for (const f of this.handlers["change:" + k] || []) f();
  }
  custom(msg) { for (const f of this.handlers["msg:custom"] || []) f(msg, []); }
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
window.remount = () => { window.cleanup(); window.cleanup = widget.render({ model: window.model, el: document.getElementById("host") }); };
window.custom = (msg) => window.model.custom(msg);
window.ready = true;
</script></body></html>"""


def traits(w: kum.GameWidget) -> dict[str, Any]:
    """``w``'s traits as the page's model holds them (JSON)."""
    result: dict[str, Any] = json.loads(json.dumps({name: getattr(w, name) for name in TRAITS if w.has_trait(name)}))
    return result


def serve_page(name: str) -> Iterator[str]:
    """Serve the built front-end with the stand-in page as ``name`` (a module's own file;
    this process's: another run of the tests in this tree removes only its own)."""
    name = f"{Path(name).stem}_{os.getpid()}{Path(name).suffix}"
    page = STATIC / name
    page.write_text(PAGE)

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(STATIC)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/{name}"
    httpd.shutdown()
    page.unlink()


def open_page(browser: Any, url: str, height: int = 1100) -> Iterator[Any]:
    """The stand-in page at ``url``, ready to mount; it fails the test on any JavaScript error."""
    page, errors = watched_page(browser, width=840, height=height)
    page.goto(url)
    wait_until(page, "() => window.ready === true", what="the stand-in page's script to load")
    yield page
    assert errors == [], f"JavaScript errors on the page: {errors}"
    page.close()


def mount(page: Any, w: kum.GameWidget, **extra: Any) -> None:
    """Render the board on the stand-in model with ``w``'s traits (``extra`` over them)."""
    state = {**traits(w), **json.loads(json.dumps(extra))}
    page.evaluate("state => window.mount(state)", state)
    page.wait_for_selector(".kum-widget[data-state-id]")


def update(page: Any, **state: Any) -> None:
    """Set traits on the model, as a kernel update does; return once drawn and its flights started."""
    page.evaluate("state => window.update(state)", json.loads(json.dumps(state)))
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")


def sent(page: Any) -> list[dict[str, Any]]:
    """What the page sent to the kernel, without the message ids."""
    return [{k: v for k, v in m.items() if k != "id"} for m in page.evaluate("() => window.model.sent")]


# Each message in a task of its own, as a kernel's arrive (a MessageChannel's task: a clock
# the test installed does not hold it back); all in one call, so that no pause of this
# process between two of them can outlast the page's wait for a private part (2 s, widget.js).
DELIVER = """async msgs => {
  for (const [method, content] of msgs) {
    if (method === 'update') window.update(content); else window.custom(content);
    await new Promise(r => { const c = new MessageChannel(); c.port1.onmessage = () => r(); c.port2.postMessage(null); });
  }
}"""


def deliver(page, w: Recorded) -> None:  # type: ignore[no-untyped-def]
    """What the widget sent (``w.sent``: its updates and messages) delivered to the page in order."""
    msgs = [["update", {k: v for k, v in out["state"].items() if k in TRAITS}] if out["method"] == "update" else ["custom", out["content"]]
            for out in w.sent if out["method"] in ("update", "custom")]
    page.evaluate(DELIVER, msgs)


def feed_back(page, w: Recorded) -> list[dict]:  # type: ignore[no-untyped-def]
    """Deliver what the page sent to the widget (as the kernel does), then what the
    widget sent, in order, to the page; wait until the page shows the widget's state, not busy."""
    w.sent.clear()
    msgs = page.evaluate("() => window.model.sent.splice(0)")
    for msg in msgs:
        w._handle_msg({"content": {"data": {"method": "custom", "content": msg}}, "buffers": []})
    deliver(page, w)
    wait_until(page, "sid => { const b = document.querySelector('.kum-widget'); return b.dataset.stateId === String(sid) && !b.hasAttribute('aria-busy'); }",
               w.state_id, what=f"the page to draw state {w.state_id} and be done with the click")
    return msgs
