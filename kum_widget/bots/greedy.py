"""GreedyBot: one ply of the game's heuristic (``CardGame.heuristic``).

It sees only its seat's view. A game whose heuristic can read that view directly
offers ``view_heuristic(view, actions)`` (Kings Under Mountains does): the bot calls it
and deals no position. Otherwise (``view_heuristic`` gives None, the default) the
heuristic reads a position, so the bot asks the game for one position consistent with
the view (``CardGame.any_position``); the heuristic reads only what the seat knows, so
the hidden parts of that position never change its choice. A game with no heuristic is
played at random. Where the game's heuristic is fair (``CardGame.fair_heuristic``: it
reads only what the player to act sees), ``bot_move`` hands the bot the scores alone
(``pick``): the same choice, without building the view.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..core.errors import GameError
from ..core.game import CardGame, top_actions
from .bot import Bot, Thoughts, Weighed
from .common import spread

__all__ = ["GreedyBot"]


class GreedyBot(Bot):
    """Plays the action the game's heuristic rates best (seeded ties)."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "Greedy bot"
        self._rng = random.Random(seed)
        self._weighed: tuple[Sequence[int], Sequence[float] | None] | None = None  # the last decision: ids and scores

    def __repr__(self) -> str:
        return "GreedyBot()"

    @property
    def scores_only(self) -> bool:
        """True unless a subclass decides otherwise: then ``bot_move`` calls its ``decide``."""
        return type(self).decide is GreedyBot.decide

    def decide(self, game: CardGame, view: dict[str, Any] | None, seat: int, legal: Sequence[int], *, position: Any = None) -> int:
        ids = list(legal)
        if len(ids) == 1:
            self._weighed = (ids, None)
            return ids[0]
        if position is not None:  # perfect information: the position itself
            return self.pick(ids, game.heuristic(position, ids))
        if view is None:
            raise GameError(f"{self.name} reads the seat's view: decide() needs one")
        scores = game.view_heuristic(view, ids)
        if scores is None:  # (the game has no view_heuristic) a position consistent with the view
            scores = game.heuristic(game.any_position(view, seat), ids)
        return self.pick(ids, scores)

    def pick(self, ids: Sequence[int], scores: Sequence[float] | None) -> int:
        """The best of ``ids`` by ``scores`` (a seeded tie-break; at random without scores).
        ``bot_move`` calls this alone when the game's heuristic is fair: no view needed."""
        self._weighed = (ids, scores)  # kept as given (no copy: the lab calls this at every move); analysis() reads them
        if len(ids) == 1:
            return ids[0]
        if scores is None:
            return ids[self._rng.randrange(len(ids))]
        best = top_actions(ids, scores)
        return best[self._rng.randrange(len(best))] if len(best) > 1 else best[0]

    def analysis(self) -> Thoughts | None:
        """The heuristic's scores at the last decision, scaled onto [0, 1] (``value``; no
        visits: the greedy bot searches nothing). With no scores, the actions alone."""
        if self._weighed is None:
            return None
        ids, scores = self._weighed
        if scores is None or len(scores) != len(ids):
            return Thoughts({a: Weighed() for a in ids}, 0, "heuristic")
        return Thoughts({a: Weighed(value=v) for a, v in zip(ids, spread(list(scores)), strict=True)}, 0, "heuristic")
