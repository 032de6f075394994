"""ISMCTSBot: Information Set Monte Carlo Tree Search (Cowling, Powley and Whitehouse, 2012).

Single-observer ISMCTS. Each iteration deals one full position consistent with what
the bot's seat has seen (:class:`~kum_widget.engine.sampling.Determinizer`: D6's
public faces, the creatures known from the Camp, everything played so far), then
descends ONE shared tree whose nodes are information sets reached by action
sequences. An action legal in only some deals is chosen by UCB with *availability*
counts (how often it was legal when its parent was visited), not parent visits.

The rollout plays a cheap policy for a bounded number of moves, then scores the
position: a finished game by its winners, an unfinished one by each seat's lead in
points, with claimed mines credited by how far their development has got.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable, Sequence
from typing import Any

from ..engine.actions import action_id
from ..engine.rules import apply_id, legal_ids, winners
from ..engine.sampling import Determinizer
from ..engine.state import OVER, State
from .policy import best_actions

__all__ = ["ISMCTSBot"]


class _Node:
    __slots__ = ("avail", "children", "player", "reward", "visits")

    def __init__(self, player: int) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.reward = 0.0
        self.player = player  # the seat whose move led here (its reward is stored)


def evaluate(s: State) -> list[float]:
    """Reward in [0, 1] per seat: the result of a finished game (a shared win splits),
    or a squashed lead in expected points for an unfinished one."""
    n = len(s.kings)
    if s.phase == OVER:
        won = winners(s)
        return [1.0 / len(won) if p in won else 0.0 for p in range(n)]
    pts, sizes, over = s.cards.points, s.cards.sizes, s.cards.overseers
    value = []
    for p in range(n):
        v = float(sum(pts[m] for m in s.developed[p]))
        for m in s.claimed[p]:
            need = sizes[m] + (1 if over[m] else 0)
            progress = len(s.stacks[m]) / need
            v += pts[m] * (2.0 * (0.35 + 0.6 * progress) - 1.0)  # -p at worst, +p when done
        value.append(v)
    out = []
    for p in range(n):
        lead = value[p] - max(value[q] for q in range(n) if q != p)
        out.append(1.0 / (1.0 + math.exp(-lead / 5.0)))
    return out


def _rollout_move(s: State, ids: list[int], rng: random.Random, epsilon: float) -> int:
    """The greedy heuristic for every seat, with a little randomness."""
    if len(ids) == 1:
        return ids[0]
    if rng.random() < epsilon:
        return ids[rng.randrange(len(ids))]
    best = best_actions(s, ids)
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


class ISMCTSBot:
    """``ISMCTSBot(iterations=1000, time_limit=None, seed=None)``; ``time_limit`` in
    seconds stops early. Deterministic for a seed: the same view gives the same move."""

    def __init__(
        self,
        iterations: int = 1000,
        time_limit: float | None = None,
        seed: int | None = None,
        *,
        exploration: float = 0.7,
        rollout_depth: int = 10,
        epsilon: float = 0.1,
    ) -> None:
        if type(iterations) is not int or iterations < 1:
            raise ValueError(f"iterations must be a whole number >= 1, got {iterations!r}")
        if time_limit is not None and not (isinstance(time_limit, (int, float)) and time_limit > 0):
            raise ValueError(f"time_limit must be a number of seconds > 0, got {time_limit!r}")
        self.name = "ISMCTS bot"
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration
        self.rollout_depth = rollout_depth
        self.epsilon = epsilon
        self._seed = seed
        self._rng = random.Random(seed)
        self.last_stats: dict[str, Any] = {}

    def __repr__(self) -> str:
        return f"ISMCTSBot(iterations={self.iterations}, time_limit={self.time_limit})"

    def choose(self, view: dict[str, Any], legal: Sequence[Hashable]) -> Hashable:
        if len(legal) == 1:
            return legal[0]
        start = time.perf_counter()
        rng = self._rng
        det = Determinizer(view)
        n, m = len(det.rules.deck), det.rules.mines
        legal_ids_root = {action_id(a, n, m): a for a in legal}  # type: ignore[arg-type]
        root = _Node(-1)
        c = self.exploration
        done = 0
        deadline = None if self.time_limit is None else start + self.time_limit
        log, sqrt, rnd = math.log, math.sqrt, rng.random
        while done < self.iterations and (deadline is None or time.perf_counter() < deadline):
            s = det.sample(rng)
            node = root
            path = []
            while s.phase != OVER:
                ids = legal_ids(s)
                children = node.children
                untried = []
                for a in ids:  # availability: each child legal in this deal
                    child = children.get(a)
                    if child is None:
                        untried.append(a)
                    else:
                        child.avail += 1
                if untried:
                    a = untried[int(rnd() * len(untried))]
                    child = children[a] = _Node(s.current)
                    apply_id(s, a)
                    path.append(child)
                    break
                best_a, best_u = ids[0], -1.0
                for a in ids:
                    ch = children[a]
                    v = ch.visits
                    u = ch.reward / v + c * sqrt(log(ch.avail) / v)
                    if u > best_u:
                        best_a, best_u = a, u
                node = children[best_a]
                apply_id(s, best_a)
                path.append(node)
            depth = self.rollout_depth
            while s.phase != OVER and depth > 0:
                apply_id(s, _rollout_move(s, legal_ids(s), rng, self.epsilon))
                depth -= 1
            result = evaluate(s)
            for visited in path:
                visited.visits += 1
                visited.reward += result[visited.player]
            done += 1
        ranked = sorted(
            ((ch.visits, ch.reward / max(1, ch.visits), a) for a, ch in root.children.items() if a in legal_ids_root),
            reverse=True,
        )
        self.last_stats = {"iterations": done, "seconds": time.perf_counter() - start, "root_children": len(root.children)}
        if not ranked:
            return legal[rng.randrange(len(legal))]
        return legal_ids_root[ranked[0][2]]
