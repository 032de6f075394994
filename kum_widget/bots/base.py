"""The bot protocol, the random bot, bots by name, and asking a bot for a move.

A bot sees exactly what its seat may see. The simple protocol is ``choose(view,
legal)``: the seat's view and the legal actions, returning one of them. The bots that
search (greedy, ISMCTS) also implement ``decide(game, view, seat, legal)``: the game's
rules (a ``core.CardGame``), the same view, and the legal action ids; they deal
themselves positions consistent with the view through the game's hooks. No bot gets
the session, nor the real position unless the game has perfect information (then
``position=`` is a copy: nothing in it is private), so no bot can read hidden cards.

A bot that never reads the view (RandomBot) says so with ``reads_view = False``:
``bot_move`` then builds none and passes ``view=None`` (a view costs more than a move).
A subclass that reads the view sets ``reads_view = True`` again.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Protocol, cast, runtime_checkable

from ..core.errors import GameError, shown
from ..core.game import CardGame

__all__ = ["Bot", "RandomBot", "make_bot", "bot_move", "BOT_NAMES"]


@runtime_checkable
class Bot(Protocol):
    """Anything with ``name`` and ``choose(view, legal) -> action`` is a bot."""

    name: str

    def choose(self, view: dict[str, Any], legal: Sequence[Hashable]) -> Hashable: ...


class RandomBot:
    """Picks uniformly among the legal actions (seeded: it replays)."""

    reads_view = False  # bot_move passes view=None: it is never read

    def __init__(self, seed: int | None = None) -> None:
        self.name = "Random bot"
        self._rng = random.Random(seed)

    def choose(self, view: dict[str, Any] | None, legal: Sequence[Hashable]) -> Hashable:
        return legal[self._rng.randrange(len(legal))]

    def decide(self, game: CardGame, view: dict[str, Any] | None, seat: int, legal: Sequence[int], *, position: Any = None) -> int:
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
        return factory(seed)
    if callable(getattr(spec, "choose", None)) or callable(getattr(spec, "decide", None)):
        if not hasattr(spec, "name"):
            spec.name = type(spec).__name__
        return cast(Bot, spec)  # duck-typed: it has choose() (or decide()) and now a name
    raise GameError(f"a bot is a name ({', '.join(BOT_NAMES)}) or an object with choose(view, legal), got {shown(spec)}")


BOT_NAMES = ("random", "greedy", "ismcts")


def _registry() -> dict[str, Callable[[int | None], Bot]]:
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
    A bot with ``reads_view = False`` is passed ``view=None`` (no view is built). A bot
    with ``scores_only`` true (the greedy bot) is handed only the heuristic's scores of
    the legal actions, ``bot.pick(ids, scores)``, when the game's heuristic is fair
    (``CardGame.fair_heuristic``): no view is built and no position dealt.
    """
    seat = session.current_player
    pick = getattr(bot, "pick", None)
    if getattr(bot, "scores_only", False) and callable(pick) and session.game.fair_heuristic:  # the scores are all it reads
        ids = session.legal_action_ids()
        aid = pick(ids, session.heuristic_scores() if len(ids) > 1 else None)  # None: every legal id, in that order
        if aid not in ids:
            raise GameError(f"{bot.name} chose {shown(aid)}, which is not a legal action")
        return session._public_action(aid)
    view: Any = session.view(seat) if getattr(bot, "reads_view", True) else None
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
