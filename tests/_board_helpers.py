"""A board that records what it sends to the page, and the page's two ways in."""

from __future__ import annotations

import json
from typing import Any

import kum_widget as kum

__all__ = ["Recorded", "browser_msg", "browser_write", "hand_ids", "offered_id", "run_on_own_loop", "send", "unpack_replay", "zone"]


class Recorded(kum.GameWidget):
    """A board that keeps what it sends to the browser, as the page would see it.

    ``synced`` is the model's state as the page holds it (what a saved notebook keeps);
    ``page`` is what the page draws: those traits, with a hot seat's private part (a
    ``{"kind": "private"}`` message, kept in the view's memory only) laid over them when
    its id is the one the traits name. While the traits name a private part that has not
    come yet, the page draws nothing new (``checks`` run at each drawing)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.sent: list[dict[str, Any]] = []
        self.page: dict[str, Any] = {}
        self.synced: dict[str, Any] = {}
        self.private_msg: dict[str, Any] | None = None
        self.checks: list[Any] = []
        super().__init__(*args, **kwargs)
        self.synced = json.loads(json.dumps(self.get_state()))
        self.page = dict(self.synced)

    def _send(self, msg: dict[str, Any], buffers: Any = None) -> None:
        msg = json.loads(json.dumps(msg))  # only JSON crosses to the browser
        self.sent.append(msg)
        if msg.get("method") == "update":
            self.synced.update(msg["state"])
            self._draw()
        elif msg.get("method") == "custom" and msg["content"].get("kind") == "private":
            self.private_msg = msg["content"]
            self._draw()
        super()._send(msg, buffers)

    def _draw(self) -> None:
        want = self.synced.get("private_id", 0)
        private = self.private_msg if self.private_msg and self.private_msg.get("id") == want else None
        if want and private is None:
            return  # the page waits for the private part these traits name
        self.page = {**self.synced, **((private or {}).get("traits") or {})}
        for check in self.checks:
            check(self)

    def answers(self) -> list[dict[str, Any]]:
        return [m["content"] for m in self.sent if m.get("method") == "custom" and m["content"].get("kind") == "answer"]

    def privates(self) -> list[dict[str, Any]]:
        return [m["content"] for m in self.sent if m.get("method") == "custom" and m["content"].get("kind") == "private"]

    def updates(self) -> list[dict[str, Any]]:
        return [m["state"] for m in self.sent if m.get("method") == "update"]


def browser_msg(w: kum.GameWidget, content: Any) -> None:
    """A custom message from the page, through ipywidgets' comm handler."""
    w._handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})


def browser_write(w: kum.GameWidget, state: dict[str, Any]) -> None:
    """A trait write from the page (``model.set(...); model.save_changes()``)."""
    w._handle_msg({"content": {"data": {"method": "update", "state": state}}, "buffers": []})


def offered_id(w: kum.GameWidget, text: str) -> int:
    """The id the page sends for ``text``, an action the board offers (what its element's
    ``data-action-id`` holds); a text the board does not offer fails the test here."""
    for aid in w.offered_ids:
        if w.game.action_text(aid) == text:
            return aid
    raise AssertionError(f"the board does not offer {text!r}: it offers {w.offered}")


def send(w: kum.GameWidget, kind: str, token: str = "t", **fields: Any) -> None:
    browser_msg(w, {"kind": kind, "state_id": w.state_id, "id": token, **fields})


def run_on_own_loop(coro: Any) -> Any:
    """``asyncio.run(coro)`` on a thread of its own: the browser tests' Playwright keeps
    an event loop running on the main thread, and a board's bots use the running loop."""
    import asyncio
    import threading

    result: dict[str, Any] = {}

    def main() -> None:
        try:
            result["value"] = asyncio.run(coro)
        except BaseException as exc:  # raised again on the caller's thread
            result["error"] = exc

    thread = threading.Thread(target=main)
    thread.start()
    thread.join()
    if "error" in result:
        raise result["error"]
    return result.get("value")


def zone(board: dict[str, Any], zone_id: str) -> dict[str, Any]:
    """The zone ``zone_id`` of a board description (shared or a seat's), searched through."""
    def walk(zones: Any) -> dict[str, Any] | None:
        for z in zones or ():
            if z.get("id") == zone_id:
                return z  # type: ignore[no-any-return]
            found = walk(z.get("zones"))
            if found is not None:
                return found
        return None

    for zones in [board.get("zones"), *[s.get("zones") for s in board.get("seats") or ()]]:
        found = walk(zones)
        if found is not None:
            return found
    raise KeyError(f"no zone {zone_id!r} on the board")


def hand_ids(board: dict[str, Any], seat: int) -> list[int | None]:
    """The card ids a board shows in ``seat``'s hand (None for a card it does not name)."""
    return [int(c["id"].split()[1]) if c["id"].startswith("card ") else None for c in zone(board, f"hand {seat}").get("cards", [])]


def unpack_replay(page: str) -> list[dict[str, Any]]:
    """The packed games in a replay file or a snapshot, as the page's script reads them."""
    import base64
    import re
    import zlib

    found = re.findall(r'<script type="application/x-kum-replay" data-host="[^"]+">([^<]*)</script>', page)
    return [json.loads(zlib.decompress(base64.b64decode(text))) for text in found]
