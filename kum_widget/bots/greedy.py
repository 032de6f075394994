"""GreedyBot: one ply of the game's heuristic (``CardGame.heuristic``).

It sees only its seat's view. A game whose heuristic can read that view directly
offers ``view_heuristic(view, actions)`` (Kings Under Mountains does): the bot calls it
and deals no position. Otherwise the heuristic reads a position, so the bot asks the
game for one position consistent with the view (``CardGame.any_position``); the
heuristic reads only what the seat knows, so the hidden parts of that position never
change its choice. A game with no heuristic is played at random. Where the game's heuristic is fair
(``CardGame.fair_heuristic``: it reads only what the player to act sees), ``bot_move``
hands the bot the scores alone (``pick``): the same choice, without building the view.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

from ..core.game import CardGame, top_actions
from .common import game_of_view, ids_of

__all__ = ["GreedyBot"]


class GreedyBot:
    """Plays the action the game's heuristic rates best (seeded ties)."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "Greedy bot"
        self._rng = random.Random(seed)

    def __repr__(self) -> str:
        return "GreedyBot()"

    @property
    def scores_only(self) -> bool:
        """True unless a subclass decides otherwise: then ``bot_move`` calls its ``decide``."""
        return type(self).decide is GreedyBot.decide

    def decide(self, game: CardGame, view: dict[str, Any], seat: int, legal: Sequence[int], *, position: Any = None) -> int:
        ids = list(legal)
        if len(ids) == 1:
            return ids[0]
        of_view = getattr(game, "view_heuristic", None) if position is None else None
        if of_view is not None:
            scores = of_view(view, ids)
        else:
            scores = game.heuristic(position if position is not None else game.any_position(view, seat), ids)
        return self.pick(ids, scores)

    def pick(self, ids: Sequence[int], scores: Sequence[float] | None) -> int:
        """The best of ``ids`` by ``scores`` (a seeded tie-break; at random without scores).
        ``bot_move`` calls this alone when the game's heuristic is fair: no view needed."""
        if len(ids) == 1:
            return ids[0]
        if scores is None:
            return ids[self._rng.randrange(len(ids))]
        best = top_actions(ids, scores)
        return best[self._rng.randrange(len(best))] if len(best) > 1 else best[0]

    def choose(self, view: dict[str, Any], legal: Sequence[Hashable]) -> Hashable:
        game = game_of_view(view)
        ids = ids_of(game, view, legal)
        return legal[ids.index(self.decide(game, view, view["seat"], ids))]
