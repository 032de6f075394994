"""``NoisyBot``: a bot that plays a random legal action some share of the time and asks the
bot it wraps otherwise: a rung between random play and that bot on the lab's skill ladder,
as cheap as the two it mixes."""

from __future__ import annotations

import numbers
import random
from collections.abc import Generator, Hashable, Sequence
from typing import Any

from ..core.errors import GameError, shown
from ..core.game import CardGame
from .wrapped import Wrapped

__all__ = ["NoisyBot"]


class NoisyBot(Wrapped):
    """``NoisyBot(bot, share, seed=None)``: at each decision with more than one legal
    action, a random one with probability ``share`` (0 < share < 1), else ``bot``'s choice.
    Its own generator (seeded from ``seed``) decides, so the wrapped bot's draws are its own."""

    def __init__(self, bot: Any, share: float, seed: int | None = None) -> None:
        if isinstance(share, bool) or not isinstance(share, (int, float, numbers.Real)) or not 0 < share < 1:
            raise GameError(f"NoisyBot: share must be a number between 0 and 1 (exclusive), got {shown(share)}")
        super().__init__(bot)
        self.share = float(share)
        self._rng = random.Random(None if seed is None else f"noisy/{seed}")  # (a text seed: the same on every machine)
        self._asked = False  # decide() drew the coin, and the wrapped bot answers through choose()

    @property
    def name(self) -> str:  # type: ignore[override]  # (the wrapped bot's, which may rename itself)
        return f"{self.bot.name}, {100 * self.share:.0f}% random"

    def _random(self, n: int) -> int | None:
        """The index of a random choice among ``n``, or None when the wrapped bot decides."""
        if n > 1 and self._rng.random() < self.share:
            return self._rng.randrange(n)
        return None

    def choose(self, view: dict[str, Any], legal: Sequence[Hashable]) -> Hashable:
        i = None if self._asked else self._random(len(legal))
        self._asked = False
        return self.bot.choose(view, legal) if i is None else legal[i]

    def decide(self, game: CardGame, view: dict[str, Any] | None, seat: int, legal: Sequence[int], *,
               position: Any = None) -> int | None:
        i = self._random(len(legal))
        if i is not None:
            return legal[i]
        aid = self.bot.decide(game, view, seat, legal, position=position)
        self._asked = aid is None  # bot_move asks choose() next: the coin is already drawn
        return aid

    def deciding(self, game: CardGame, view: dict[str, Any] | None, seat: int, legal: Sequence[int], *,
                 position: Any = None, deadline: float | None = None) -> Generator[None, None, int | None]:
        i = self._random(len(legal))  # the coin first, as in decide: the same draws, at once or in steps
        if i is not None:
            return legal[i]
        aid = yield from self.bot.deciding(game, view, seat, legal, position=position, deadline=deadline)
        self._asked = aid is None
        return aid

    def pick(self, ids: Sequence[int], scores: Sequence[float] | None) -> int:
        i = self._random(len(ids))
        return self.bot.pick(ids, scores) if i is None else ids[i]

    def __repr__(self) -> str:
        return f"NoisyBot({self.bot!r}, {self.share!r})"
