"""GreedyBot: one ply of the greedy heuristic (see ``bots.policy``).

It sees only its seat's view. The heuristic reads a position, so the bot deals one
position consistent with the view (``engine.sampling``); the heuristic reads only
what the seat knows (its hand, the table, the Camp, the deck's size), so the random
parts of that deal never change its choice.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

from ..engine.actions import action_id
from ..engine.sampling import Determinizer
from .policy import best_actions

__all__ = ["GreedyBot"]


class GreedyBot:
    """Plays the action the greedy heuristic rates best (seeded ties)."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "Greedy bot"
        self._rng = random.Random(seed)

    def __repr__(self) -> str:
        return "GreedyBot()"

    def choose(self, view: dict[str, Any], legal: Sequence[Hashable]) -> Hashable:
        det = Determinizer(view)
        n, m = len(det.rules.deck), det.rules.mines
        by_id = {action_id(a, n, m): a for a in legal}  # type: ignore[arg-type]
        state = det.consistent()  # its hidden parts are never read
        best = best_actions(state, sorted(by_id))
        return by_id[best[self._rng.randrange(len(best))]]
