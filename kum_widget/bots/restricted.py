"""``RestrictedBot``: a bot that never takes some kinds of action when it has another choice,
and otherwise plays exactly as the bot it wraps (restricted play: Jaffe, Miller, Andersen,
Liu, Karlin and Popović, "Evaluating competitive game balance with restricted play", 2012).

The kinds are the game's (``CardGame.action_kind``, or the words of an action's text).
``bot_move`` leaves the restricted kinds out of the legal actions before it asks the bot,
so the bot reads nothing more than before; when every legal action is of a restricted
kind, it plays as usual. With no restricted action among the legal ones, the wrapped bot
gets the same list and makes the same choice with the same draws of its generator: a
restricted game follows the unrestricted one move for move until the restriction bites.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..core.errors import GameError, shown
from ..core.kinds import MAX_KIND
from .wrapped import Wrapped

__all__ = ["RestrictedBot", "kinds_of"]


def kinds_of(never: Any, where: str = "RestrictedBot") -> frozenset[str]:
    """``never`` checked: one kind (a text) or a collection of kinds, as a frozenset."""
    items: Iterable[Any] = (never,) if isinstance(never, str) else never
    try:
        kinds = list(items)
    except TypeError:
        raise GameError(f"{where}: never must be an action kind (a text such as 'draw deck') or a list of them, "
                        f"got {shown(never)}") from None
    if isinstance(never, (bytes, dict)) or not kinds:
        raise GameError(f"{where}: never must name one or more action kinds, got {shown(never)}")
    for kind in kinds:
        if not isinstance(kind, str) or not kind.strip() or len(kind) > MAX_KIND:
            raise GameError(f"{where}: an action kind is a short text such as 'draw deck', got {shown(kind)}")
    return frozenset(kinds)


class RestrictedBot(Wrapped):
    """``RestrictedBot(bot, never={"draw deck"})``: ``bot`` (a Bot, a name, or any object
    ``make_bot`` takes) that never takes an action of a kind in ``never`` when another
    legal action is left (``bot_move`` leaves them out of what it hands the bot)."""

    def __init__(self, bot: Any, never: Any) -> None:
        super().__init__(bot)
        self.never = kinds_of(never)

    @property
    def name(self) -> str:  # type: ignore[override]  # (the wrapped bot's, which may rename itself)
        return f"{self.bot.name}, never {', '.join(sorted(self.never))}"

    def __repr__(self) -> str:
        return f"RestrictedBot({self.bot!r}, never={sorted(self.never)!r})"
