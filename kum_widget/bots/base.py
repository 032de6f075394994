"""The bot protocol, the random bot, bots by name, and asking a bot for a move.

A bot sees exactly what its seat may see. The simple protocol is ``choose(view,
legal)``: the seat's view and the legal actions, returning one of them. The bots that
search (greedy, ISMCTS) also implement ``decide(game, view, seat, legal)``: the game's
rules (a ``core.CardGame``), the same view, and the legal action ids; they deal
themselves positions consistent with the view through the game's hooks. No bot gets
the session, nor the real position unless the game has perfect information (then
``position=`` is a copy: nothing in it is private), so no bot can read hidden cards.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any, Protocol, runtime_checkable

from ..core.errors import GameError, shown
from ..core.game import CardGame
from ..core.registry import game_class

__all__ = ["Bot", "RandomBot", "make_bot", "bot_move", "BOT_NAMES", "game_of_view", "ids_of"]


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

    def decide(self, game: CardGame, view: dict[str, Any], seat: int, legal: Sequence[int], *, position: Any = None) -> int:
        return legal[self._rng.randrange(len(legal))]

    def __repr__(self) -> str:
        return "RandomBot()"


def make_bot(spec: Any, *, seed: int | None = None) -> Bot:
    """A bot from a name (``"random"``, ``"greedy"``, ``"ismcts"``) or any object with ``choose``."""
    if isinstance(spec, str):
        key = spec.strip().lower()
        factory = _registry().get(key)
        if factory is None:
            raise GameError(f"unknown bot {shown(spec)}: expected one of {', '.join(BOT_NAMES)} or an object with choose()")
        return factory(seed)  # type: ignore[no-any-return]
    if callable(getattr(spec, "choose", None)) or callable(getattr(spec, "decide", None)):
        if not hasattr(spec, "name"):
            spec.name = type(spec).__name__
        return spec  # type: ignore[no-any-return]
    raise GameError(f"a bot is a name ({', '.join(BOT_NAMES)}) or an object with choose(view, legal), got {shown(spec)}")


BOT_NAMES = ("random", "greedy", "ismcts")


def _registry() -> dict[str, Any]:
    from .greedy import GreedyBot
    from .ismcts import ISMCTSBot

    return {
        "random": lambda seed: RandomBot(seed),
        "greedy": lambda seed: GreedyBot(seed),
        "ismcts": lambda seed: ISMCTSBot(seed=seed),
    }


def bot_move(session: Any, bot: Bot) -> Any:
    """Ask ``bot`` for the move of the seat to act, showing it only that seat's view;
    return the action as the session hands actions out (``session.legal_actions()``).

    Raises a GameError if the bot answers with something that is not a legal action.
    """
    seat = session.current_player
    view = session.view(seat)
    decide = getattr(bot, "decide", None)
    if callable(decide):
        ids = session.legal_action_ids()
        if session.game.perfect_information:  # nothing is hidden: the bot may have the position itself
            aid = decide(session.game, view, seat, ids, position=session.state)
        else:
            aid = decide(session.game, view, seat, ids)
        if aid not in ids:
            raise GameError(f"{bot.name} chose {shown(aid)}, which is not a legal action")
        return session._public_action(aid)
    legal = list(session.legal_actions())
    choice = bot.choose(view, legal)
    if choice not in legal:
        raise GameError(f"{bot.name} chose {shown(choice)}, which is not a legal action")
    return choice


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
    encode = getattr(game, "encode", None)
    return [a if type(a) is int else encode(view, a) for a in legal]  # type: ignore[misc]
