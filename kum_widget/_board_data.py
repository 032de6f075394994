"""What the board is sent: the payloads ``GameWidget`` syncs, built for one viewer.

Kept apart from the widget so the rules of *who sees what* (widget.py) read on their
own, and the shapes of *what is sent* live here.
"""

from __future__ import annotations

from typing import Any

from .games.kum import Game
from .games.kum.actions import Discard, Draw, Play

__all__ = ["Viewer", "board_payload", "legal_payload", "log_lines", "last_move", "target"]

LOG_LINES = 20  # the board shows this many; fewer bytes per move


class Viewer:
    """Whom the board is drawn for: the full table (reveal), one seat, or the public
    (a spectator: a pass screen, a hot-seat game over, a bot's turn nobody watches)."""

    __slots__ = ("kind", "seat")

    def __init__(self, kind: str, seat: int | None = None) -> None:
        self.kind, self.seat = kind, seat  # kind: "full", "seat" or "public"

    def __repr__(self) -> str:
        return f"Viewer({self.kind!r}, {self.seat!r})"


def _compact(value: Any) -> Any:
    """Drop null and false fields (the front-end reads a missing field as empty):
    hidden cards and plain mines then cost a third of the bytes."""
    if isinstance(value, dict):
        return {k: _compact(v) for k, v in value.items() if v is not None and v is not False}
    if isinstance(value, list):
        return [_compact(v) for v in value]
    return value


def board_payload(game: Game, viewer: Viewer) -> dict[str, Any]:
    if viewer.kind == "full":
        board = game.view(None)
    elif viewer.kind == "public":
        board = game.public_view()
    else:
        board = game.view(viewer.seat)
    board["shown_seat"] = viewer.seat if viewer.kind == "seat" else None
    del board["rules"]  # public, but the board does not draw it: fewer bytes per move
    return _compact(board)  # type: ignore[no-any-return]


def target(action: Any) -> str:
    """The board key of an action's target: "mine 2", "claimed 1", "deck", "camp orc", "hand"."""
    if isinstance(action, Play):
        return f"mine {action.slot + 1}" if action.slot is not None else f"claimed {(action.claim or 0) + 1}"
    if isinstance(action, Draw):
        return "deck" if action.race is None else f"camp {action.race.value}"
    return "hand"


def legal_payload(game: Game, actions: list[Any]) -> dict[str, Any]:
    """The legal actions, grouped so each card's label is sent once: the board
    builds each text as ``play <label> on <target>``, ``draw <target>``,
    ``discard <label>``, and the kernel checks it against what it offered."""
    plays: dict[int, dict[str, Any]] = {}
    draws: list[str] = []
    discards: list[dict[str, Any]] = []
    for action in actions:
        if isinstance(action, Play):
            entry = plays.setdefault(action.card, {"card": action.card, "label": game.deck[action.card].label, "targets": []})
            entry["targets"].append(target(action))
        elif isinstance(action, Draw):
            draws.append(target(action))
        elif isinstance(action, Discard):
            discards.append({"card": action.card, "label": game.deck[action.card].label})
    return {"plays": list(plays.values()), "draws": draws, "discards": discards}


def log_lines(game: Game, viewer: Viewer) -> list[str]:
    """The last actions' events as sentences, each hiding what ``viewer`` may not see."""
    seat = viewer.seat if viewer.kind == "seat" else None
    public = viewer.kind == "public"
    return [" ".join(game.describe(e, seat, spectator=public) for e in events) for events in game.logs[-LOG_LINES:]]


def last_move(game: Game, bots: dict[int, Any]) -> dict[str, Any]:
    """Who moved last and where, for the board's mark (no card: the log names it)."""
    action = game.last_action
    if action is None:
        return {}
    seat = game.movers[-1]
    return {"seat": seat, "bot": seat in bots, "target": target(action)}
