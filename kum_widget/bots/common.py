"""What the searching bots share: the rules a view belongs to, and action ids."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from ..core.errors import GameError, shown
from ..core.game import CardGame
from ..core.registry import game_class

__all__ = ["game_of_view", "ids_of"]


def game_of_view(view: dict[str, Any]) -> CardGame:
    """The rules a view belongs to, for a bot called as ``choose(view, legal)``: the
    view's ``"game"`` name (and ``"rules"``) through the registry."""
    name = view.get("game") if isinstance(view, dict) else None
    if not isinstance(name, str):
        raise GameError("this bot needs the game: call it through bot_move(session, bot), or pass a view with a 'game' name")
    cls = game_class(name)
    return cls.from_view(view) if hasattr(cls, "from_view") else cls()


def ids_of(game: CardGame, view: dict[str, Any], legal: Sequence[Hashable]) -> list[int]:
    """The action ids of ``legal`` (ints already, or a game's action objects)."""
    encode: Callable[[dict[str, Any], Any], int] | None = getattr(game, "encode", None)
    ids: list[int] = []
    for a in legal:
        if type(a) is int:
            ids.append(a)
        elif encode is None:
            raise TypeError(f"{type(game).__name__} has no encode(): its legal actions must be ids, got {shown(a)}")
        else:
            ids.append(encode(view, a))
    return ids
