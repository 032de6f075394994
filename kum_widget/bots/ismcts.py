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

With a ``breadth``, the root weighs only the moves the heuristic scores highest, scored
once a decision on one deal (exact for a game whose heuristic reads only what the player
sees); deeper down every move stays open.

With ``trees`` above 1, independent trees share the budget: either each weighs every root
move and their roots' visits are summed (root parallelisation, Chaslot, Winands and van
den Herik, 2008), or (``split``) each weighs its share of the root's moves and the best on
average of their favourites is played. Each tree has its own seed and its own chain of deals. The
trees grow one after the other in the bot's own process: a search starts no process and
leaves Python's garbage collector alone (its settings are the program's, a kernel's).

The bot owns its settings and their defaults (:attr:`ISMCTSBot.defaults`); a game may
suggest its own (``CardGame.search_hints``), and a setting the bot is given wins.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Generator, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from ..core.errors import GameError, GameFault, shown
from ..core.game import CardGame, game_type
from .bot import Bot, Thoughts, Weighed, run_through
from .common import spread
from .tree import Plan, growing, merge, sampler, stats_of

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


def _trees(value: Any, whose: str) -> int:
    if type(value) is not int or not 1 <= value <= _MAX_TREES:
        raise GameError(f"{whose} must be a whole number from 1 to {_MAX_TREES}, got {shown(value)}")
    return value


def _depth(value: Any, whose: str) -> int:
    if type(value) is not int or value < 0:
        raise GameError(f"{whose} must be a whole number >= 0, got {shown(value)}")
    return value


# Each setting, its check and its default: ISMCTSBot's keyword arguments, and the names of
# the hints a game may give (CardGame.search_hints).
_CHECKS = {"iterations": _iterations, "rollout_depth": _depth, "prior": _weight, "exploration": _weight, "breadth": _breadth,
           "trees": _trees, "split": _split}
DEFAULTS: Mapping[str, Any] = MappingProxyType({"iterations": 1000, "rollout_depth": 10, "prior": 0.0, "exploration": 0.7,
                                                "breadth": 0, "trees": 1, "split": False})


def _favourites(ids: Sequence[int], scores: Sequence[float], allowed: set[int], breadth: int) -> list[int]:
    """The ``breadth`` moves of ``allowed`` the heuristic scores highest, best first (ties
    by their order; NaN last)."""
    if len(scores) != len(ids):
        raise GameFault(f"the heuristic gave {len(scores)} scores for {len(ids)} actions")
    order = sorted((i for i in range(len(ids)) if ids[i] in allowed), key=lambda i: -scores[i] if scores[i] == scores[i] else math.inf)
    return [ids[i] for i in order[:breadth]]


class ISMCTSBot(Bot):
    """``ISMCTSBot(iterations=None, time_limit=None, seed=None, **settings)``: the search.
    Deterministic for a seed: the same view gives the same move.

    **Its settings.** Each of ``iterations``, ``rollout_depth``, ``prior``,
    ``exploration``, ``breadth``, ``trees`` and ``split`` is the bot's own: given to the
    bot, it is used; left None (the default), the bot takes the game's suggestion
    (``CardGame.search_hints``, under the same name), else its own default
    (:attr:`defaults`). Either way it is checked, and a bad one is named (a hint by its
    game: ``Court.search_hints['iterations']``). :meth:`settings` gives the settings the
    bot searches a game with.

    ``iterations``: the budget of a decision (default 1000); ``time_limit`` in seconds
    stops early (looked at inside long rollouts too: a rollout it cuts is not counted). ``rollout_depth``: the moves a rollout plays before ``evaluate`` scores
    the position (default 10); without ``evaluate`` a rollout plays to the end, or at most
    ``rollout_limit`` moves (default 100,000; a rollout cut there scores even: the lab's
    position estimates keep a step budget). ``exploration``: UCB's constant, on the scale of the rewards
    ([0, 1]; default 0.7): lower spends more of a small budget on the moves that look
    best. ``epsilon``: the share of rollout moves played at random, not by the heuristic.
    ``prior``: how much the heuristic steers the tree (progressive bias, Chaslot et al.
    2008: ``prior * p / (visits + 1)`` added to UCB, ``p`` the heuristic's score of the
    move onto [0, 1] at its node; untried moves are tried best first); 0 (the default)
    for none. ``breadth``: how many moves the search weighs at its root, the heuristic's
    favourites (the others are never played); 0 (the default) for every move.

    ``trees``: how many trees share the budget, their roots' visits summed unless they
    split (root parallelisation; default 1). ``split``: with ``trees`` above 1, deal the
    root's moves out to the trees (the heuristic's best to the first, the second best to
    the second...), each tree weighing its share with its part of the budget, and play
    the best on average of the trees' most visited moves (default False).
    The trees grow one after the other in this process, each with its own seed and its own
    chain of deals.

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

    defaults: ClassVar[Mapping[str, Any]] = DEFAULTS
    """Each setting's default, for a game that suggests none."""

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
        split: bool | None = None,
        rollout_limit: int | None = None,
    ) -> None:
        if iterations is not None:
            _iterations(iterations, "iterations (or None: the game's)")
        if time_limit is not None and not (type(time_limit) in (int, float) and 0 < time_limit < math.inf):
            raise GameError(f"time_limit must be a number of seconds > 0, got {shown(time_limit)}")
        if rollout_depth is not None:
            _depth(rollout_depth, "rollout_depth (or None: the game's)")
        if prior is not None:
            _weight(prior, "prior (or None: the game's)")
        if exploration is not None:
            _weight(exploration, "exploration (or None: the game's)")
        if breadth is not None:
            _breadth(breadth, "breadth (or None: the game's)")
        if trees is not None:
            _trees(trees, "trees (or None: the game's)")
        if split is not None:
            _split(split, "split (or None: the game's)")
        if type(epsilon) not in (int, float) or not 0 <= epsilon <= 1:
            raise GameError(f"epsilon must be a number in [0, 1], got {shown(epsilon)}")
        if rollout_limit is not None and (type(rollout_limit) is not int or rollout_limit < 1):
            raise GameError(f"rollout_limit must be a whole number >= 1 (or None: {_LONG:,}), got {shown(rollout_limit)}")
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
        self.rollout_limit = rollout_limit
        self._rng = random.Random(seed)
        self.last_stats: dict[str, Any] = {}
        self._thoughts: Thoughts | None = None  # the last decision, as analysis() gives it

    def __repr__(self) -> str:
        return (f"ISMCTSBot(iterations={self.iterations}, time_limit={self.time_limit}, prior={self.prior}, "
                f"exploration={self.exploration}, breadth={self.breadth}, trees={self.trees}, split={self.split})")

    def settings(self, game: CardGame) -> dict[str, Any]:
        """The settings this bot searches ``game`` with, by name: each of its own that is
        not None, else the game's hint, else the default; each checked (a GameError names a
        bad one, and a hint that is no setting)."""
        hints, name = game_type(game).search_hints, type(game).__name__  # (a dict by name: the game type checks that)
        unknown = [k for k in hints if k not in _CHECKS]
        if unknown:
            raise GameError(f"{name}.search_hints: {shown(unknown[0], 44)} is not an ISMCTSBot setting (they are {', '.join(_CHECKS)})")
        mine = {"iterations": self.iterations, "rollout_depth": self.rollout_depth, "prior": self.prior, "exploration": self.exploration,
                "breadth": self.breadth, "trees": self.trees, "split": self.split}
        out = {}
        for key, check in _CHECKS.items():
            if mine[key] is not None:  # (attributes are anyone's to set: checked again)
                out[key] = check(mine[key], key)
            elif key in hints:
                out[key] = check(hints[key], f"{name}.search_hints[{key!r}]")
            else:
                out[key] = DEFAULTS[key]
        return out

    def decide(self, game: CardGame, view: dict[str, Any] | None, seat: int, legal: Sequence[int], *, position: Any = None) -> int:
        return run_through(self._deciding(game, view, seat, legal, position, None))

    def deciding(self, game: CardGame, view: dict[str, Any] | None, seat: int, legal: Sequence[int], *,
                 position: Any = None, deadline: float | None = None) -> Generator[None, None, int | None]:
        """:meth:`decide` in steps (see :meth:`Bot.deciding`): the search yields between its
        iterations and within long rollouts; ``deadline`` stops it as ``time_limit`` does
        (the sooner of the two), the time looked at inside rollouts too."""
        if type(self).decide is not ISMCTSBot.decide:  # a subclass's own decide is what it plays
            return (yield from super().deciding(game, view, seat, legal, position=position, deadline=deadline))
        return (yield from self._deciding(game, view, seat, legal, position, deadline))

    def _deciding(self, game: CardGame, view: dict[str, Any] | None, seat: int, legal: Sequence[int], position: Any,
                  deadline: float | None) -> Generator[None, None, int]:
        self._thoughts = None
        if len(legal) == 1:
            self._thoughts = Thoughts({legal[0]: Weighed(visits=1.0)})  # nothing to weigh: no search
            return legal[0]
        if view is None and position is None:
            raise GameError(f"{self.name} reads the seat's view: decide() needs one")
        return (yield from self._searching(game, view, seat, legal, position, deadline))

    def analysis(self) -> Thoughts | None:
        """The last decision's search, per legal action: its share of the visits (summed over
        the trees; 0 for a move the root never weighed) and its mean reward: the chance of
        winning of the seat that decided, or in a solitaire the final score it expects
        (``score``, with ``value`` that score scaled between the worst move's and the best's)."""
        return self._thoughts

    def _weighed(self, legal: Sequence[int], visits: dict[int, int], rewards: dict[int, float], solitaire: bool, done: int) -> Thoughts:
        total = sum(visits.values())
        means = {a: rewards[a] / v for a, v in visits.items() if v}
        if solitaire:  # rewards are scores: the scale is the moves' own
            scaled = dict(zip(means, spread(list(means.values())), strict=True))
            moves = {a: Weighed(visits.get(a, 0) / total if total else 0.0, scaled.get(a), means.get(a)) for a in legal}
            return Thoughts(moves, done, "score")
        return Thoughts({a: Weighed(visits.get(a, 0) / total if total else 0.0, means.get(a)) for a in legal}, done, "win")

    def _searching(self, game: CardGame, view: Any, seat: int, legal: Sequence[int], position: Any,
                   deadline: float | None) -> Generator[None, None, int]:
        start = time.perf_counter()
        st = self.settings(game)
        budget, w, c, breadth, trees, split = st["iterations"], st["prior"], st["exploration"], st["breadth"], st["trees"], st["split"]
        rng = self._rng
        sample = sampler(game, view, seat, position)
        root_legal = set(legal)
        players = len(view["players"]) if isinstance(view, dict) and isinstance(view.get("players"), list) else None
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
        depth_limit = st["rollout_depth"] if has_evaluate else (self.rollout_limit or _LONG)
        plan = Plan(w, c, self.epsilon, depth_limit, has_heuristic, players, favourites, root_legal)
        plans, order = [plan] * trees, []
        if split and trees > 1:  # each tree weighs its share of the root's moves, dealt out best first
            order = _favourites(probe_legal, probe_scores, root_legal, len(root_legal)) if probe_scores is not None else []
            order += sorted(root_legal - set(order))
            if len(order) >= 2 * trees:  # two moves a tree at least (one is nothing to weigh)
                plans = [plan._replace(favourites=order[i::trees], root_legal=set(order[i::trees])) for i in range(trees)]
            else:
                order = []
        if self.time_limit is not None:
            deadline = min(start + self.time_limit, deadline if deadline is not None else math.inf)
        if trees == 1:
            root, done = yield from growing(game, sample, rng, budget, deadline, plan)
            grown = [(stats_of(root, root_legal), done, root.children)]
        else:
            grown = yield from self._growing_trees(game, view, seat, position, sample, plans, budget, deadline)
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
        self._thoughts = self._weighed(legal, visits, rewards, players == 1, self.last_stats["iterations"])
        if ranked:
            return int(ranked[0][-1])
        # no iteration ran (a time limit): the heuristic's favourite on the probe deal, else any move
        best = _favourites(probe_legal, probe_scores, root_legal, 1) if probe_scores is not None else []
        return best[0] if best else legal[rng.randrange(len(legal))]

    def _growing_trees(self, game: CardGame, view: dict[str, Any], seat: int, position: Any, sample: Any, plans: list[Plan], budget: int,
                       deadline: float | None) -> Generator[None, None, list[tuple[dict[int, tuple[int, float]], int, Any]]]:
        """Two trees or more, one after the other: each tree's root statistics."""
        trees = len(plans)
        rng = self._rng
        seeds = [rng.getrandbits(64) for _ in range(trees)]
        budgets = [budget // trees + (i < budget % trees) for i in range(trees)]
        grown = []
        for i in range(trees):
            # a time limit: each tree its share of the time left (else the first takes it all)
            due = None if deadline is None else time.perf_counter() + (deadline - time.perf_counter()) / (trees - i)
            root, done = yield from growing(game, sample if i == 0 else sampler(game, view, seat, position), random.Random(seeds[i]),
                                            budgets[i], due, plans[i])
            grown.append((stats_of(root, plans[i].root_legal), done, root.children))
        return grown
