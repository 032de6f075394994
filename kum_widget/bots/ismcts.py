"""ISMCTSBot: Information Set Monte Carlo Tree Search (Cowling, Powley and Whitehouse, 2012),
for any game on the core.

Single-observer ISMCTS. Each iteration deals one full position consistent with what
the bot's seat has seen (the game's ``sampler``; for a perfect-information game, the
position itself), then descends ONE shared tree whose nodes are information sets
reached by action sequences. An action legal in only some deals is chosen by UCB with
*availability* counts (how often it was legal when its parent was visited).

With two or more seats a node's reward is the share of wins; a solitaire has no one to
beat, so its reward is the score, scaled to [0, 1] by the lowest and highest scores the
search has seen so far (UCB needs rewards on one scale).

The rollout plays the game's heuristic (``CardGame.best_actions``, with a little
randomness; at random when it has none). With an ``evaluate`` hook it stops after
``rollout_depth`` moves and scores the position; without one it plays to the end.

With a ``breadth`` (the game's ``search_breadth``), the root weighs only the moves the
heuristic scores highest, scored once a decision on one deal (exact for a game whose
heuristic reads only what the player sees); deeper down every move stays open.

With ``trees`` (the game's ``search_trees``) above 1, independent trees share the budget:
either each weighs every root move and their roots' visits are summed (root
parallelisation, Chaslot, Winands and van den Herik, 2008), or (``split``, the game's
``search_split``) each weighs its share of the root's moves and the best on average of
their favourites is played. Each tree has its own seed and its own chain of deals. The
trees grow one after the other in the bot's own process: a search starts no process and
leaves Python's garbage collector alone (its settings are the program's, a kernel's).
"""

from __future__ import annotations

import math
import random
import time
import warnings
from collections.abc import Hashable, Sequence
from typing import Any

from ..core.errors import GameError, GameFault, shown
from ..core.game import CardGame
from .common import game_of_view, ids_of
from .tree import Plan, grow, merge, sampler, stats_of

__all__ = ["ISMCTSBot"]

_LONG = 100_000  # a rollout with no evaluate() stops here at the latest
_MAX_TREES = 64  # more trees than that share a budget into crumbs


def _iterations(value: Any, whose: str) -> int:
    if type(value) is not int or value < 1:
        raise GameError(f"{whose} must be a whole number >= 1, got {shown(value)}")
    return value


def _weight(value: Any, whose: str) -> float:
    if type(value) not in (int, float) or not 0 <= value < math.inf:
        raise GameError(f"{whose} must be a number >= 0, got {shown(value)}")
    return float(value)


def _breadth(value: Any, whose: str) -> int:
    if type(value) is not int or value < 0:
        raise GameError(f"{whose} must be a whole number >= 0 (0: every move), got {shown(value)}")
    return value


def _split(value: Any, whose: str) -> bool:
    if type(value) is not bool:
        raise GameError(f"{whose} must be True or False, got {shown(value)}")
    return value


def _budget(game: CardGame, bot: ISMCTSBot) -> tuple[int, float, float, int, int, bool]:
    """The iterations, the prior's weight, the exploration constant, the root's breadth,
    the trees and whether they split the root: the bot's, else the game's, checked either
    way (a bot's attributes and a game's class attributes are anyone's to set)."""
    name = type(game).__name__
    return (
        _iterations(game.search_iterations, f"{name}.search_iterations") if bot.iterations is None else _iterations(bot.iterations, "iterations"),
        _weight(game.search_prior, f"{name}.search_prior") if bot.prior is None else _weight(bot.prior, "prior"),
        _weight(game.search_exploration, f"{name}.search_exploration") if bot.exploration is None else _weight(bot.exploration, "exploration"),
        _breadth(game.search_breadth, f"{name}.search_breadth") if bot.breadth is None else _breadth(bot.breadth, "breadth"),
        _trees(game.search_trees, f"{name}.search_trees") if bot.trees is None else _trees(bot.trees, "trees"),
        _split(game.search_split, f"{name}.search_split") if bot.split is None else _split(bot.split, "split"),
    )


def _trees(value: Any, whose: str) -> int:
    if type(value) is not int or not 1 <= value <= _MAX_TREES:
        raise GameError(f"{whose} must be a whole number from 1 to {_MAX_TREES}, got {shown(value)}")
    return value


def _favourites(ids: Sequence[int], scores: Sequence[float], allowed: set[int], breadth: int) -> list[int]:
    """The ``breadth`` moves of ``allowed`` the heuristic scores highest, best first (ties
    by their order; NaN last)."""
    if len(scores) != len(ids):
        raise GameFault(f"the heuristic gave {len(scores)} scores for {len(ids)} actions")
    order = sorted((i for i in range(len(ids)) if ids[i] in allowed), key=lambda i: -scores[i] if scores[i] == scores[i] else math.inf)
    return [ids[i] for i in order[:breadth]]


class ISMCTSBot:
    """``ISMCTSBot(iterations=None, time_limit=None, seed=None)``: ``iterations`` None (the
    default) takes the game's ``CardGame.search_iterations``; ``time_limit`` in seconds
    stops early. Deterministic for a seed: the same view gives the same move.

    ``rollout_depth``: the moves a rollout plays before ``evaluate`` scores the position;
    None (the default) takes the game's ``CardGame.rollout_depth``. ``exploration``: UCB's
    constant; None (the default) takes the game's ``CardGame.search_exploration``.
    ``epsilon``: the share of rollout moves played at random, not by the heuristic.
    ``prior``: how much the heuristic steers the tree (progressive bias, Chaslot et al.
    2008: ``prior * p / (visits + 1)`` added to UCB, ``p`` the heuristic's score of the
    move onto [0, 1] at its node; untried moves are tried best first); 0 for none, None
    (the default) takes the game's ``CardGame.search_prior``. ``breadth``: how many moves
    the search weighs at its root, the heuristic's favourites (the others are never
    played); 0 for every move, None (the default) takes the game's
    ``CardGame.search_breadth``.

    ``trees``: how many trees share the budget, their roots' visits summed unless they
    split (root parallelisation); None (the default) takes the game's
    ``CardGame.search_trees``.
    ``split``: with ``trees`` above 1, deal the root's moves out to the trees (the
    heuristic's best to the first, the second best to the second...), each tree weighing
    its share with its part of the budget, and play the best on average of the trees'
    most visited moves; None (the default) takes the game's ``CardGame.search_split``.
    The trees grow one after the other in this process, each with its own seed and its own
    chain of deals. ``parallel`` (None, True or False), from earlier versions, is accepted
    and does nothing (True or False with a ``DeprecationWarning``).

    After each search, ``last_stats`` describes it: the ``iterations`` run of its
    ``budget``, the ``prior``,
    ``exploration`` and ``breadth`` (root moves weighed) used, ``seconds``, ``trees``,
    ``split`` (whether the trees split the root: not with fewer than two moves a tree),
    ``rollout_depth`` (None: rollouts play to the end), ``root_children`` (how many moves any root tried: on a deal that allows none of
    a root's moves, it tries others), ``visits`` (each weighed move's visits, summed over
    the trees), ``means`` (its rewards summed over the trees, over those visits) and
    ``tops`` (split: each tree's most visited move, None for a tree that ran no iteration;
    the move played is the one of these with the best mean, then the most visits, then
    the first tree's). ``iterations`` falls short of ``budget`` when the choice is
    settled early, time runs out, the root has one move to weigh, or the budget is
    smaller than ``trees``. With no iteration run (a time limit too short), the bot plays
    the heuristic's favourite on one deal, or a move at random with no heuristic.

    A search starts no process and never touches Python's garbage collector.
    """

    def __init__(
        self,
        iterations: int | None = None,
        time_limit: float | None = None,
        seed: int | None = None,
        *,
        exploration: float | None = None,
        rollout_depth: int | None = None,
        epsilon: float = 0.1,
        prior: float | None = None,
        breadth: int | None = None,
        trees: int | None = None,
        parallel: bool | None = None,
        split: bool | None = None,
    ) -> None:
        if iterations is not None:
            _iterations(iterations, "iterations (or None: the game's)")
        if time_limit is not None and not (type(time_limit) in (int, float) and 0 < time_limit < math.inf):
            raise GameError(f"time_limit must be a number of seconds > 0, got {shown(time_limit)}")
        if rollout_depth is not None and (type(rollout_depth) is not int or rollout_depth < 0):
            raise GameError(f"rollout_depth must be a whole number >= 0 or None (the game's), got {shown(rollout_depth)}")
        if prior is not None:
            _weight(prior, "prior (or None: the game's)")
        if exploration is not None:
            _weight(exploration, "exploration (or None: the game's)")
        if breadth is not None:
            _breadth(breadth, "breadth (or None: the game's)")
        if trees is not None:
            _trees(trees, "trees (or None: the game's)")
        if parallel is not None:
            if type(parallel) is not bool:
                raise GameError(f"parallel must be None, True or False (and does nothing now), got {shown(parallel)}")
            warnings.warn("ISMCTSBot(parallel=...) does nothing: every tree grows in the bot's own process "
                          "(the helper process is gone); leave it out", DeprecationWarning, stacklevel=2)
        if split is not None:
            _split(split, "split (or None: the game's)")
        if type(epsilon) not in (int, float) or not 0 <= epsilon <= 1:
            raise GameError(f"epsilon must be a number in [0, 1], got {shown(epsilon)}")
        self.name = "ISMCTS bot"
        self.iterations = iterations
        self.time_limit = time_limit
        self.exploration = exploration
        self.rollout_depth = rollout_depth
        self.epsilon = epsilon
        self.prior = prior
        self.breadth = breadth
        self.trees = trees
        self.split = split
        self._rng = random.Random(seed)
        self.last_stats: dict[str, Any] = {}

    def __repr__(self) -> str:
        return (f"ISMCTSBot(iterations={self.iterations}, time_limit={self.time_limit}, prior={self.prior}, "
                f"exploration={self.exploration}, breadth={self.breadth}, trees={self.trees}, split={self.split})")

    def choose(self, view: dict[str, Any], legal: Sequence[Hashable]) -> Hashable:
        if len(legal) == 1:
            return legal[0]
        game = game_of_view(view)
        ids = ids_of(game, view, legal)
        return legal[ids.index(self.decide(game, view, view["seat"], ids))]

    def decide(self, game: CardGame, view: dict[str, Any], seat: int, legal: Sequence[int], *, position: Any = None) -> int:
        if len(legal) == 1:
            return legal[0]
        return self._search(game, view, seat, legal, position)

    def _search(self, game: CardGame, view: dict[str, Any], seat: int, legal: Sequence[int], position: Any) -> int:
        start = time.perf_counter()
        budget, w, c, breadth, trees, split = _budget(game, self)
        rng = self._rng
        sample = sampler(game, view, seat, position)
        root_legal = set(legal)
        players = len(view["players"]) if isinstance(view.get("players"), list) else None
        probe = sample(rng)
        players = players or len(game.scores(probe))
        probe_legal = game.legal_actions(probe) if not game.is_over(probe) else []
        probe_scores = game.heuristic(probe, probe_legal) if probe_legal else None
        has_heuristic = probe_scores is not None
        favourites: list[int] = []  # the root's moves when the search weighs only the heuristic's favourites
        if breadth and probe_scores is not None and len(legal) > breadth:
            favourites = _favourites(probe_legal, probe_scores, root_legal, breadth)  # of the real moves the deal allows too
            if favourites:
                root_legal = set(favourites)
        has_evaluate = game.evaluate(probe) is not None
        depth_limit = (game.rollout_depth if self.rollout_depth is None else self.rollout_depth) if has_evaluate else _LONG
        plan = Plan(w, c, self.epsilon, depth_limit, has_heuristic, players, favourites, root_legal)
        plans, order = [plan] * trees, []
        if split and trees > 1:  # each tree weighs its share of the root's moves, dealt out best first
            order = _favourites(probe_legal, probe_scores, root_legal, len(root_legal)) if probe_scores is not None else []
            order += sorted(root_legal - set(order))
            if len(order) >= 2 * trees:  # two moves a tree at least (one is nothing to weigh)
                plans = [plan._replace(favourites=order[i::trees], root_legal=set(order[i::trees])) for i in range(trees)]
            else:
                order = []
        deadline = None if self.time_limit is None else start + self.time_limit
        if trees == 1:
            root, done = grow(game, sample, rng, budget, deadline, plan)
            grown = [(stats_of(root, root_legal), done, root.children)]
        else:
            grown = self._grow_trees(game, view, seat, position, sample, plans, budget, deadline)
        visits, rewards, children = merge(grown)
        # the most visited move (on average the best of those); split, each tree's most visited
        # move, and of those the best on average: visits compare only within a tree
        ranked: list[tuple[float, ...]] = sorted(((v, rewards[a] / max(1, v), a) for a, v in visits.items()), reverse=True)
        tops: list[int | None] = []
        if order:
            firsts = [max(((v, r / max(1, v), a) for a, (v, r) in stats.items()), default=None) for stats, _, _ in grown]
            tops = [None if t is None else t[2] for t in firsts]
            # the best mean, then the most visits, then the first tree's (the heuristic's favourites)
            ranked = sorted(((t[1], t[0], -i, t[2]) for i, t in enumerate(firsts) if t is not None), reverse=True)
        self.last_stats = {"iterations": sum(g[1] for g in grown), "budget": budget, "prior": w if has_heuristic else 0.0,
                           "exploration": c, "breadth": len(favourites) if favourites else len(legal),
                           "seconds": time.perf_counter() - start, "root_children": children,
                           "visits": visits, "means": {a: rewards[a] / max(1, v) for a, v in visits.items()},
                           "rollout_depth": depth_limit if has_evaluate else None,
                           "trees": trees, "split": bool(order), "tops": tops}
        if ranked:
            return int(ranked[0][-1])
        # no iteration ran (a time limit): the heuristic's favourite on the probe deal, else any move
        best = _favourites(probe_legal, probe_scores, root_legal, 1) if probe_scores is not None else []
        return best[0] if best else legal[rng.randrange(len(legal))]

    def _grow_trees(self, game: CardGame, view: dict[str, Any], seat: int, position: Any, sample: Any, plans: list[Plan],
                    budget: int, deadline: float | None) -> list[tuple[dict[int, tuple[int, float]], int, Any]]:
        """Two trees or more, one after the other: each tree's root statistics."""
        trees = len(plans)
        rng = self._rng
        seeds = [rng.getrandbits(64) for _ in range(trees)]
        budgets = [budget // trees + (i < budget % trees) for i in range(trees)]
        grown = []
        for i in range(trees):
            # a time limit: each tree its share of the time left (else the first takes it all)
            due = None if deadline is None else time.perf_counter() + (deadline - time.perf_counter()) / (trees - i)
            root, done = grow(game, sample if i == 0 else sampler(game, view, seat, position), random.Random(seeds[i]),
                              budgets[i], due, plans[i])
            grown.append((stats_of(root, plans[i].root_legal), done, root.children))
        return grown
