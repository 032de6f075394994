"""The bot protocol, the random bot, and bots by name.

A bot sees exactly what its seat may see: ``choose(view, legal)`` gets the seat's
``game.view(seat)`` and the legal actions, and returns one of them. It never gets
the game itself, so it cannot read hidden cards.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any, Protocol, runtime_checkable

from ..protocol import GameState

__all__ = ["Bot", "RandomBot", "make_bot", "bot_move", "BOT_NAMES"]


@runtime_checkable
class Bot(Protocol):
    """Anything with ``name`` and ``choose(view, legal) -> action`` is a bot."""

    name: str

    def choose(self, view: dict[str, Any], legal: Sequence[Hashable]) -> Hashable: ...


class RandomBot:
    """Picks uniformly among the legal actions (seeded: it replays)."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "Random bot"
        self._rng = random.Random(seed)

    def choose(self, view: dict[str, Any], legal: Sequence[Hashable]) -> Hashable:
        return legal[self._rng.randrange(len(legal))]

    def __repr__(self) -> str:
        return "RandomBot()"


def make_bot(spec: Any, *, seed: int | None = None) -> Bot:
    """A bot from a name (``"random"``, ``"greedy"``) or any object with ``choose``."""
    if isinstance(spec, str):
        key = spec.strip().lower()
        factory = _registry().get(key)
        if factory is None:
            raise ValueError(f"unknown bot {spec!r}: expected one of {', '.join(BOT_NAMES)} or an object with choose()")
        return factory(seed)
    if callable(getattr(spec, "choose", None)):
        if not hasattr(spec, "name"):
            spec.name = type(spec).__name__
        return spec  # type: ignore[no-any-return]
    raise ValueError(f"a bot is a name ({', '.join(BOT_NAMES)}) or an object with choose(view, legal), got {spec!r:.60}")


BOT_NAMES = ("random", "greedy", "ismcts")


def _registry() -> dict[str, Any]:
    from .greedy import GreedyBot
    from .ismcts import ISMCTSBot

    return {
        "random": lambda seed: RandomBot(seed),
        "greedy": lambda seed: GreedyBot(seed),
        "ismcts": lambda seed: ISMCTSBot(seed=seed),
    }


def bot_move(game: GameState, bot: Bot) -> Hashable:
    """Ask ``bot`` for the move of the seat to play, showing it only that seat's view.

    Raises ValueError if the bot answers with something that is not a legal action.
    """
    seat = game.current_player
    legal = list(game.legal_actions())
    choice = bot.choose(game.view(seat), legal)
    if choice not in legal:
        raise ValueError(f"{bot.name} chose {choice!r}, which is not a legal action")
    return choice
