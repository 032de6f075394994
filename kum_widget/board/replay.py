"""A game you can send: one HTML file that replays it with the board's own renderer.

``kum.save_replay(game, "game.html")`` writes every position of the record, as one
viewer saw it, into a page that needs no kernel and no network (the renderer, its
styles and the positions are inlined; a Content-Security-Policy forbids every fetch).
The same pieces draw what a board leaves where no kernel runs: a notebook output's
picture of itself (``GameWidget``'s HTML form, which an exported notebook shows where no
widget manager runs) beside its text board, and its "Save replay" button's file. These
outlast the moment (a saved notebook keeps its outputs; a file is sent on), so a board
draws them for whom a replay may be (``Seats.kept``): one human's seat, the full table
with ``reveal``, and in a hot seat the public table, never a hand only the player at the
screen may see.

Who sees what is the board's rule: the full table by default (a record holds every
card anyway: anyone can deal it again from the seed), ``seat=k`` for what seat ``k``
saw at each step, ``public=True`` for what every player saw. A zone's ``hint`` speaks to
the player whose board it is ("needs your own race on top"): a replay for the full table
or the public leaves hints out.

A replay also carries the game's result for the lab (``kum.lab.load``), in a JSON script
element of its own (``application/x-kum-result``): the result everyone at the table may know
(``core.results.public_result``: players, scores, winners, length, a fingerprint of the public
course) and whom the replay was drawn for; a full-table replay of a finished game adds its
record, since it shows every card anyway. A replay for one seat (or the public) never holds
the record: its seed would deal every hidden card again.
"""

from __future__ import annotations

import base64
import html
import json
import os
import secrets
import zlib
from functools import cache
from pathlib import Path
from typing import Any

from ..core.errors import GameError, InvalidOptionError, shown
from ..core.files import write_text_file
from ..core.results import public_result
from ..core.session import Session
from .drawing import Viewer, drawn_frame, frame_for, static_path
from .text import board_text

__all__ = ["RESULT_TYPE", "replay_html", "replay_page", "save_replay", "snapshot_forms", "snapshot_html"]

RESULT_TYPE = "application/x-kum-result"
"""The type of a replay's script element that holds the game's result (see the module)."""

# No request of any kind: inline scripts and styles only (and data: images, if a game draws any).
_CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"
# The page is its own theme (the board reads JupyterLab's variables): its grey text at least
# 4.5:1 (WCAG AA) on the felt too (5.3:1), where the board's fallback grey is 3.9 to 4.5; a
# badge's text dark (its colour stays in its border: gold or green text on white is 3.2 to 3.6).
_PAGE_CSS = ":root{--jp-ui-font-color2:#4d565f}.kum-widget.kum-static .kum-badge:not(.kum-tag){color:#1f2328}" \
    "body{margin:0;padding:16px;background:#fff;color:#1f2328}main{max-width:1040px;margin:0 auto}" \
    "h1{font:600 17px system-ui,sans-serif;margin:0 0 4px}.kum-meta{font:13px system-ui,sans-serif;color:#57606a;margin:0 0 8px}"


@cache
def _asset(name: str) -> str:
    return static_path(name).read_text(encoding="utf-8")


def _script_text(text: str) -> str:
    """Text safe inside a <script> element: no "</script" or "<!--" can end or bend it."""
    return text.replace("</", "<\\/").replace("<!--", "<\\!--")


def _pack(data: dict[str, Any]) -> str:
    try:
        raw = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()
    except (ValueError, TypeError, UnicodeEncodeError) as exc:  # NaN, an object, a lone surrogate
        raise InvalidOptionError(f"the board holds a value a page cannot carry ({type(exc).__name__}: {exc})") from None
    return base64.b64encode(zlib.compress(raw, 9)).decode("ascii")


def viewer_for(session: Session, seat: Any, public: Any) -> Viewer:
    """The viewer of ``seat``/``public`` (checked: a bad value is named, nothing is built)."""
    if type(public) is not bool:
        raise InvalidOptionError(f"public must be True or False, got {shown(public)}")
    if seat is None:
        return Viewer("public") if public else Viewer("full")
    if public:
        raise InvalidOptionError("pass seat or public=True, not both")
    if type(seat) is not int or not 0 <= seat < session.num_players:
        raise InvalidOptionError(f"seat must be 0..{session.num_players - 1} or None (the full table), got {shown(seat)}")
    return Viewer("seat", seat)


def replay_data(session: Session, viewer: Viewer, *, bots: dict[int, Any] | None = None, title: str | None = None) -> dict[str, Any]:
    """Every position of ``session``'s record up to now, drawn for ``viewer``."""
    bots = bots or {}
    copy = session.clone()  # the game itself is not touched (and its listeners not called)
    moves = copy.move_number
    copy.undo(moves)
    frames: list[dict[str, Any]] = []
    try:
        for k in range(moves + 1):
            if k:
                copy.redo(1)
            drawn = drawn_frame(frame_for(copy, viewer, log_lines=0), bots=bots)
            board = drawn["board"] if viewer.kind == "seat" else unhinted(drawn["board"])
            frames.append({"board": board, "last": drawn["last_move"], "moves": k})
    except NotImplementedError as exc:  # a game without a public view (or a board)
        raise GameError(f"{session.title} cannot draw this view for a replay: {exc}") from None
    name = title if title is not None else frames[-1]["board"]["title"]
    return {"title": str(name), "players": list(session.players), "frames": frames, "log": list(frame_for(session, viewer, log_lines=moves).log), "start": 0}


def unhinted(board: dict[str, Any]) -> dict[str, Any]:
    """``board`` without its zones' hints (a copy): each speaks to one player, and a replay
    for everyone has no "you" to address."""
    def zones(items: Any) -> Any:
        if not isinstance(items, list):
            return items
        return [{k: zones(v) if k == "zones" else v for k, v in z.items() if k != "hint"} if isinstance(z, dict) else z for z in items]

    out = {k: zones(v) if k == "zones" else v for k, v in board.items()}
    if isinstance(board.get("seats"), list):
        out["seats"] = [{k: zones(v) if k == "zones" else v for k, v in s.items()} if isinstance(s, dict) else s for s in board["seats"]]
    return out


def _check_title(title: Any) -> None:
    if title is not None and not isinstance(title, str):
        raise InvalidOptionError(f"title must be text, got {shown(title)}")


def _check_session(game: Any, what: str) -> Session:
    if isinstance(game, Session):
        return game
    if isinstance(getattr(game, "game", None), Session):  # a board: its game, as its own method does
        raise InvalidOptionError(f"{what} takes a game; for a board, call board.save_replay(path) or pass board.game")
    raise InvalidOptionError(f"{what} takes a game such as a kum.Game or kum.Court, got {type(game).__name__}")


def result_for(session: Session, viewer: Viewer) -> dict[str, Any]:
    """What a replay drawn for ``viewer`` carries for the lab: the public result, whom it was
    drawn for ("full", "public" or a seat), and for the full table of a finished game its record."""
    out = {**public_result(session), "seen_by": viewer.seat if viewer.kind == "seat" else viewer.kind}
    if viewer.kind == "full" and session.is_over:
        out["record"] = session.record()
    return out


def _json_script(value: Any) -> str:
    """``value`` as JSON inside a <script> element: no "<" in it, so nothing can end it."""
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False, sort_keys=True)
    except (ValueError, TypeError) as exc:
        raise InvalidOptionError(f"the game's result holds a value a page cannot carry ({type(exc).__name__}: {exc})") from None
    return text.replace("<", "\\u003c")


def document(data: dict[str, Any], result: dict[str, Any] | None = None) -> str:
    """The whole page for packed ``data`` (see :func:`replay_data`), with the game's
    ``result`` for the lab (:func:`result_for`) when given."""
    host = "kum-replay"
    last = data["frames"][-1]
    fallback = board_text(last["board"], data["log"], last=3)
    players = ", ".join(data["players"])
    steps = len(data["frames"]) - 1
    title = html.escape(f"{data['title']}: {players}")
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<meta http-equiv=\"Content-Security-Policy\" content=\"{_CSP}\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<meta name=\"generator\" content=\"kum_widget replay\">\n<title>{title}</title>\n"
        f"<style>{_PAGE_CSS}\n{_script_text(_asset('widget.css'))}</style>\n</head>\n<body>\n<main>\n"
        f"<h1>{html.escape(data['title'])}</h1>\n"
        f"<p class=\"kum-meta\">{html.escape(players)}: {steps} step{'' if steps == 1 else 's'}."
        f"{' Use the buttons, the slider or the arrow keys (Home, End, P to play, + and - for its speed).' if steps else ''}</p>\n"
        f"<div id=\"{host}\" class=\"kum-replay\" data-page=\"true\"><pre class=\"kum-replay-text\">{html.escape(fallback)}</pre></div>\n"
        "</main>\n"
        f"<script type=\"application/x-kum-replay\" data-host=\"{host}\">{_pack(data)}</script>\n"
        + (f"<script type=\"{RESULT_TYPE}\">{_json_script(result)}</script>\n" if result is not None else "")
        + f"<script>{_script_text(_asset('replay.js'))}\nkumReplay.mountAll();</script>\n"
        "</body>\n</html>\n"
    )


def replay_html(game: Session, *, seat: int | None = None, public: bool = False, title: str | None = None) -> str:
    """The replay page of ``game`` as text (see :func:`save_replay`)."""
    session = _check_session(game, "replay_html")
    viewer = viewer_for(session, seat, public)
    _check_title(title)
    return document(replay_data(session, viewer, title=title), result_for(session, viewer))


def save_replay(
    game: Session, path: str | os.PathLike[str], *, seat: int | None = None, public: bool = False, title: str | None = None
) -> Path:
    """Write ``game``'s record as one self-contained HTML file and return its path.

    Open it in any browser, offline: step through the game with the buttons, the
    slider or the keyboard. ``seat=k`` draws what seat ``k`` saw at each step,
    ``public=True`` what everyone saw; the default is the full table.
    """
    session = _check_session(game, "save_replay")
    text = replay_html(session, seat=seat, public=public, title=title)  # built (and checked) before any write
    return write_text_file(path, text, error=InvalidOptionError, example="game.html")


def snapshot_html(board: dict[str, Any], log: list[str], last: dict[str, Any], *, state_id: int) -> str:
    """A notebook output's picture of one position: the board as the page shows it.

    Drawn by the board's renderer where scripts run (an exported notebook); where they do
    not (a sanitized output), the text board inside it stays.
    """
    host = f"kum-snapshot-{secrets.token_hex(6)}"
    data = {"title": str(board.get("title", "")), "players": [p.get("name", "") for p in board.get("players", [])],
            "frames": [{"board": board, "last": last, "moves": len(log)}], "log": list(log), "start": 0,
            "note": "A picture of the board when its cell ran: run the notebook to play."}
    text = board_text(board, log, last=3)
    return (
        f"<div id=\"{host}\" class=\"kum-replay kum-snapshot\" data-state-id=\"{int(state_id)}\">"
        f"<pre class=\"kum-replay-text\">{html.escape(text)}</pre></div>"
        f"<style>{_script_text(_asset('widget.css'))}</style>"
        f"<script type=\"application/x-kum-replay\" data-host=\"{host}\">{_pack(data)}</script>"
        f"<script>if(!window.kumReplay){{{_script_text(_asset('replay.js'))}\nwindow.kumReplay=kumReplay}}"
        "window.kumReplay.mountAll();</script>"
    )


# -- what a board leaves (its "Save replay" button, its display beside the live view) --------


def replay_page(session: Session, viewer: Viewer, bots: dict[int, Any]) -> str:
    """The replay file of the game, drawn for ``viewer`` (the board's "Save replay" button)."""
    return document(replay_data(session, viewer, bots=bots), result_for(session, viewer))


def snapshot_forms(session: Session, viewer: Viewer, bots: dict[int, Any], state_id: int) -> dict[str, str]:
    """The board as it is now for viewers without a kernel: a picture drawn by its renderer
    (HTML) and the text board (plain text); none for a board these forms cannot carry (the
    live view still shows it)."""
    try:
        drawn = drawn_frame(frame_for(session, viewer), bots=bots)
        board, lines = drawn["board"], drawn["log_lines"]
        return {"text/plain": board_text(board, lines, last=3),
                "text/html": snapshot_html(board, lines, drawn["last_move"], state_id=state_id)}
    except Exception:  # a display must never fail: the live view is still there
        return {}
