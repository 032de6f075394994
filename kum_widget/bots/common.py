"""What the searching bots share: the rules a view belongs to, and action ids."""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Any

from ..core.errors import GameError
from ..core.game import CardGame
from ..core.registry import game_class

__all__ = ["game_of_view", "ids_of", "spread"]


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


def spread(values: Sequence[float]) -> list[float | None]:
    """``values`` scaled onto [0, 1], the lowest 0 and the highest 1 (all equal: 1), for a
    bot's analysis; a value that is not a finite number is None.

    >>> spread([2.0, 4.0, 3.0]), spread([5, 5]), spread([1.0, float("nan")])
    ([0.0, 1.0, 0.5], [1.0, 1.0], [1.0, None])
    """
    finite = [float(v) for v in values if isinstance(v, (int, float)) and math.isfinite(v)]
    if not finite:
        return [None] * len(values)
    lo, hi = min(finite), max(finite)
    return [None if not (isinstance(v, (int, float)) and math.isfinite(v)) else (float(v) - lo) / (hi - lo) if hi > lo else 1.0
            for v in values]
