"""The stand-in page of test_frontend (the built front-end with a Backbone-like model, no
Jupyter server) for the live board's tests: a module's own page file and server, a page
per test that fails on any JavaScript error, and the model's ways in."""

from __future__ import annotations

import functools
import http.server
import json
import threading
from collections.abc import Iterator
from typing import Any

from test_frontend import PAGE, STATIC, traits

import kum_widget as kum

__all__ = ["mount", "open_page", "sent", "serve_page", "update"]


def serve_page(name: str) -> Iterator[str]:
    """Serve the built front-end with the stand-in page as ``name`` (a module's own file)."""
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


def open_page(browser: Any, url: str) -> Iterator[Any]:
    page = browser.new_page(viewport={"width": 840, "height": 1100})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    page.wait_for_function("window.ready === true")
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
