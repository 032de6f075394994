"""What the board is sent: the payloads ``GameWidget`` syncs, built for one viewer.

Kept apart from the seats so the rules of *who sees what* (``seats``) read on their
own, and the shapes of *what is sent* live here. Everything is built from the view
the viewer may see (``CardGame.board(view, seat)``), the viewer's own legal actions,
and the log as the viewer may read it: nothing else of the position reaches the page.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..core.errors import GameFault, cut
from ..core.help_text import cut_help, help_paragraphs
from ..core.session import Session

__all__ = ["Viewer", "board_payload", "bot_label", "help_texts", "outcome", "last_move", "legal_payload", "log_lines", "MAX_ACTION_ID", "static_path", "static_text",
           "view_of", "zone_ids"]

LOG_LINES = 20  # the board shows this many; fewer bytes per move
MAX_ACTION_ID = 2**53 - 1  # the page sends an action's id as a JavaScript number, exact up to this
_STATIC = Path(__file__).parent.parent / "static"  # kum_widget/static, where the build puts the bundle


def static_path(name: str) -> Path:
    """A file of the built front-end (kum_widget/static/), which every page of the board loads."""
    path = _STATIC / name
    if not path.exists():
        raise RuntimeError(f"{path} is missing: build the front-end with `make js` (or `make lab`)")
    return path


def static_text(name: str) -> str:
    """The text of a built front-end file, read once. A widget class holds its ``_esm`` and
    ``_css`` as text, not as a Path: anywidget watches a Path's file and keeps every widget
    made from it alive for ever (a closed board, its game and its bots were never freed).
    The text has a line break, so anywidget never takes it for a file name."""
    text = static_path(name).read_text(encoding="utf-8")
    return text if "\n" in text else text + "\n"


def bot_label(bot: Any) -> str:
    """A bot's name as the board shows it: text, at most 40 characters (a bot object's
    ``name`` may be anything)."""
    name = getattr(bot, "name", None)
    text = name if isinstance(name, str) and name.strip() else type(bot).__name__
    return text if len(text) <= 40 else text[:37] + "..."


class Viewer:
    """Whom the board is drawn for: the full table (reveal), one seat, or the public
    (a spectator: a pass screen, a hot-seat game over, a bot's turn nobody watches)."""

    __slots__ = ("kind", "seat")

    def __init__(self, kind: str, seat: int | None = None) -> None:
        self.kind, self.seat = kind, seat  # kind: "full", "seat" or "public"

    def __repr__(self) -> str:
        return f"Viewer({self.kind!r}, {self.seat!r})"

    def __eq__(self, other: object) -> bool:  # the same viewer: the same board
        return isinstance(other, Viewer) and (self.kind, self.seat) == (other.kind, other.seat)

    def __hash__(self) -> int:
        return hash((self.kind, self.seat))


def view_of(session: Session, viewer: Viewer) -> dict[str, Any]:
    if viewer.kind == "full":
        return session.view(None)
    if viewer.kind == "public":
        return session.public_view()
    return session.view(viewer.seat)


def board_payload(session: Session, viewer: Viewer, *, bots: dict[int, Any] | None = None, status: str | None = None) -> dict[str, Any]:
    """The board trait: the game's drawing of the viewer's view, plus the seats' names."""
    game = session.game
    view = view_of(session, viewer)
    seat = viewer.seat if viewer.kind == "seat" else None
    drawn = game.board(view, seat)
    board: dict[str, Any] = dict(drawn) if drawn is not None else {"text": json.dumps(view, indent=1, ensure_ascii=False)[:20_000]}
    over = session.is_over
    winners = session.winners() if over and session.num_players > 1 else []  # a solitaire has no winner to name
    cur = session.current_player
    step = session.to_act if not over else []
    chosen = set(step[:step.index(cur)]) if len(step) > 1 and cur in step else set()  # a simultaneous step: who has chosen
    board["title"] = str(board.get("title") or game.title or game.name)
    board["status"] = status or str(board.get("status") or _status(session))
    if over and not board["status"].startswith("Game over"):  # a line about a game going on ("Round 5 of 5") ends with it
        board["status"] = _status(session)
    for key, value in help_texts(game, board["title"]).items():
        board.setdefault(key, value)  # an intro the game's board gives itself wins
    board["over"] = over
    board["players"] = [
        {
            "seat": p,
            "name": name,
            "current": p == cur and not over,
            **({"bot": bot_label(bots[p])} if bots and p in bots else {}),
            **({"winner": True} if p in winners else {}),
            **({"choice": "chosen" if p in chosen else "choosing"} if len(step) > 1 and p in step else {}),
            **({"score": _number(session.scores()[p])} if over else {}),
        }
        for p, name in enumerate(session.players)
    ]
    board["shown_seat"] = seat
    board["spectator"] = viewer.kind == "public"
    if over:  # what decided the game: the game's words, else who won and the scores
        said = board.get("outcome")
        board["outcome"] = said.strip() if isinstance(said, str) and said.strip() else outcome(session)
    else:
        board.pop("outcome", None)
    return board


def outcome(session: Session) -> str:
    """Who won, with what, and the others' scores, with the players' names: the game-over
    banner's words when the game gives none.

    >>> from kum_widget.core import Session
    >>> from kum_widget.core.examples import Bust
    >>> game = Session(Bust(), ["Ada", "Bo"], seed=1)
    >>> while not game.is_over: _ = game.apply(game.legal_actions()[-1])
    >>> outcome(game)
    'Ada wins with 1 point; Bo 0.'
    """
    names, scores = session.players, [_number(v) for v in session.scores()]
    if session.num_players == 1:
        return f"Final score: {scores[0]}."
    won = session.winners()
    if not won:
        return "Game over: " + ", ".join(f"{names[p]} {scores[p]}" for p in range(len(names))) + "."
    top = scores[won[0]]
    unit = "point" if top in (1, -1) else "points"
    who = f"{' and '.join(names[w] for w in won)} {'wins' if len(won) == 1 else 'share the win'} with {top} {unit}"
    rest = [f"{names[p]} {scores[p]}" for p in sorted(range(len(names)), key=lambda p: -scores[p] if isinstance(scores[p], (int, float)) else 0)
            if p not in won]
    return who + (f"; {', '.join(rest)}." if rest else ".")


def _number(v: Any) -> Any:
    return int(v) if isinstance(v, float) and v.is_integer() else v


def _status(session: Session) -> str:
    if session.is_over:
        if session.num_players == 1:
            return f"Game over: final score {_number(session.scores()[0])}."
        won = [session.players[w] for w in session.winners()]
        return f"Game over: {' and '.join(won)} {'wins' if len(won) == 1 else 'share the win'}." if won else "Game over."
    return f"{session.players[session.current_player]} to act."


def help_texts(game: Any, title: str) -> dict[str, Any]:
    """The board keys the game's ``how_to_play()`` gives (``CardGame.how_to_play``): ``intro``
    (the first-time panel: a title and its paragraphs) and ``rules`` (the same shape), each
    only when the game has it. A text is cut into paragraphs at its blank lines, and cut
    short (``core.help_text``: the board sends it on every sync). A hook that raises or
    gives a bad shape is a GameFault naming the game and the hook.

    >>> from kum_widget.core.examples import Bust
    >>> class Told(Bust):
    ...     def how_to_play(self): return {"intro": "Reach 21.\\n\\nOne card a turn.", "rules": ["Over 21 busts."]}
    >>> texts = help_texts(Told(), "Bust")
    >>> texts["intro"]["title"], texts["intro"]["paragraphs"], texts["rules"]["title"]
    ('Bust: how to play', ['Reach 21.', 'One card a turn.'], 'The rules')
    """
    headings = {"intro": f"{title}: how to play", "rules": "The rules"}
    return {key: {"title": headings[key], "paragraphs": cut_help(paragraphs)} for key, paragraphs in help_paragraphs(game, title).items()}


def legal_payload(session: Session, actions: list[int]) -> list[dict[str, Any]]:
    """The legal actions as the page clicks them: id (what a click sends back), text, and
    where (``CardGame.click``); a ``choice`` is the action's entry in the menu its click
    opens when actions share it."""
    out = []
    for aid, click in zip(actions, session.clicks(actions) if actions else [], strict=True):
        if not -MAX_ACTION_ID <= aid <= MAX_ACTION_ID:
            raise GameFault(f"{session.title} offers an action id beyond ±(2**53 - 1), which a page cannot send back exactly: "
                            "the board takes ids within that range")
        entry: dict[str, Any] = {"id": aid, "text": session.action_text(aid)}
        for key in ("source", "target"):
            if isinstance(click.get(key), str):
                entry[key] = click[key]
        for key in ("label", "choice"):  # texts the player reads: with the seats' names in
            if isinstance(click.get(key), str):
                entry[key] = session.named(click[key])
        out.append(entry)
    return out


def log_lines(session: Session, viewer: Viewer, count: int = LOG_LINES) -> list[str]:
    """The last ``count`` actions' events as sentences, each hiding what ``viewer`` may not see."""
    seat = viewer.seat if viewer.kind == "seat" else None
    public = viewer.kind == "public"
    lines = []
    for events in session.recent_logs(count):
        words = [_line(session, e, seat, public) for e in events]
        lines.append(" ".join(w for w in words if w))
    return lines


def _line(session: Session, event: Any, seat: int | None, public: bool) -> str | None:
    """One event for the log: a line the game fails to write says so, in its place, and the
    board goes on (the fault names a private line without its words: ``Session.describe``)."""
    try:
        return session.describe(event, seat, spectator=public)
    except GameFault as exc:
        return f"({cut(str(exc))})"


def zone_ids(board: dict[str, Any]) -> set[str]:
    """The ids of every zone on a board description, and of its cells and places (the
    board's own parts: they say nothing a view hides, as a card's or a piece's id might)."""
    ids: set[str] = set()

    def walk(zones: Any) -> None:
        for z in zones if isinstance(zones, list) else ():
            if isinstance(z, dict):
                parts = [z] + [p for key in ("cells", "places") if isinstance(z.get(key), list) for p in z[key]]
                for part in parts:
                    if isinstance(part, dict) and isinstance(part.get("id"), str):
                        ids.add(part["id"])
                walk(z.get("zones"))

    walk(board.get("zones"))
    seats = board.get("seats")
    for seat in seats if isinstance(seats, list) else ():
        if isinstance(seat, dict):
            walk(seat.get("zones"))
    return ids


def sealed(session: Session, seat: int) -> bool:
    """Has ``seat`` chosen in the simultaneous step still open, its choice not yet revealed?"""
    if not session.game.simultaneous or session.is_over:
        return False
    to_act, now = session.to_act, session.current_player
    return now in to_act and seat in to_act[:to_act.index(now)]


def last_move(session: Session, bots: dict[int, Any], board: dict[str, Any]) -> dict[str, Any]:
    """Who moved last and the zone it went to, for the board's mark. Only a zone on the
    viewer's board is named (never a card: its id could say more than the view), and none
    for a choice still sealed in a simultaneous step (where it went would say what it was)."""
    if not session.move_number:
        return {}
    seat = session.movers[-1]
    out: dict[str, Any] = {"seat": seat, "bot": seat in bots}
    if sealed(session, seat):
        return out
    click = session.last_click() or {}
    if isinstance(click.get("target"), str) and click["target"] in zone_ids(board):
        out["target"] = click["target"]
    return out
