"""``Wrapped``: the base of a bot that plays as another bot does, but for what it changes
(``RestrictedBot``: the kinds it never takes; ``NoisyBot``: a random move now and then)."""

from __future__ import annotations

from collections.abc import Generator, Hashable, Sequence
from typing import Any

from ..core.game import CardGame
from .base import make_bot
from .bot import Bot, Thoughts

__all__ = ["Wrapped"]


class Wrapped(Bot):
    """Every capability of the bot it wraps (``bot``: a Bot, a name, or any object
    ``make_bot`` takes), asked of that bot; a subclass changes what it changes."""

    def __init__(self, bot: Any) -> None:
        self.bot = make_bot(bot)
        self.reads_view = self.bot.reads_view

    @property
    def scores_only(self) -> bool:
        return self.bot.scores_only

    def choose(self, view: dict[str, Any], legal: Sequence[Hashable]) -> Hashable:
        return self.bot.choose(view, legal)

    def decide(self, game: CardGame, view: dict[str, Any] | None, seat: int, legal: Sequence[int], *,
               position: Any = None) -> int | None:
        return self.bot.decide(game, view, seat, legal, position=position)

    def deciding(self, game: CardGame, view: dict[str, Any] | None, seat: int, legal: Sequence[int], *,
                 position: Any = None, deadline: float | None = None) -> Generator[None, None, int | None]:
        # (the wrapped bot's own steps: a search inside yields and keeps the board's deadline)
        return (yield from self.bot.deciding(game, view, seat, legal, position=position, deadline=deadline))

    def pick(self, ids: Sequence[int], scores: Sequence[float] | None) -> int:
        return self.bot.pick(ids, scores)

    def analysis(self) -> Thoughts | None:
        return self.bot.analysis()
