"""What the searching bots share: the rules a view belongs to, and action ids."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from ..core.errors import GameError
from ..core.game import CardGame
from ..core.registry import game_class

__all__ = ["game_of_view", "ids_of"]


def game_of_view(view: dict[str, Any]) -> CardGame:
    """The rules a view belongs to, for a bot called as ``choose(view, legal)``: the
    view's ``"game"`` name (and ``"rules"``) through the registry."""
    name = view.get("game") if isinstance(view, dict) else None
    if not isinstance(name, str):
        raise GameError("this bot needs the game: call it through bot_move(session, bot), or pass a view with a 'game' name")
    return game_class(name).from_view(view)


def ids_of(game: CardGame, view: dict[str, Any], legal: Sequence[Hashable]) -> list[int]:
    """The action ids of ``legal`` (ids already, a session's ``Action`` among them, or a
    game's own action objects: its ``encode``)."""
    return [int(a) if isinstance(a, int) and not isinstance(a, bool) else game.encode(view, a) for a in legal]
