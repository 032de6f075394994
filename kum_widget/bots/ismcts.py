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
"""

from __future__ import annotations

import gc
import math
import random
import threading
import time
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from ..core.errors import GameError, GameFault, shown
from ..core.game import CardGame
from .common import game_of_view, ids_of

__all__ = ["ISMCTSBot"]

_LONG = 100_000  # a rollout with no evaluate() stops here at the latest


class _Node:
    __slots__ = ("avail", "children", "player", "prior", "reward", "visits")

    def __init__(self, player: int) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.reward = 0.0
        self.player = player  # the seat whose move led here (its reward is stored)
        self.prior: dict[int, float] | None = None  # the heuristic's opinion of each move from here, in [0, 1]


def _prior(ids: Sequence[int], scores: Sequence[float] | None) -> dict[int, float]:
    """The heuristic's scores of a node's moves onto [0, 1] (best 1, worst 0; all 1 with no
    opinion). An infinite score is the end of the scale (+inf 1, -inf 0), NaN counts as 0."""
    if scores is None:
        return dict.fromkeys(ids, 1.0)
    finite = [x for x in scores if math.isfinite(x)]
    lo, hi = (min(finite), max(finite)) if finite else (0.0, 0.0)
    span = 1.0 / (hi - lo) if hi - lo > 1e-9 else 0.0
    out = {}
    for a, x in zip(ids, scores, strict=True):
        if x == math.inf:
            out[a] = 1.0
        elif not math.isfinite(x):
            out[a] = 0.0
        else:
            out[a] = (x - lo) * span if span else 1.0
    return out


def _result(game: CardGame, s: Any, players: int) -> list[float]:
    """A finished game's reward per seat in [0, 1]: a shared win splits."""
    won = game.winners(s)
    return [1.0 / len(won) if p in won else 0.0 for p in range(players)] if won else [1.0 / players] * players


def _settled(root: _Node, left: int) -> bool:
    """True when the most visited move at the root stays the most visited whatever the
    ``left`` iterations do (the move is chosen by visits): stopping changes nothing."""
    first = second = 0
    for child in root.children.values():
        v = child.visits
        if v > first:
            first, second = v, first
        elif v > second:
            second = v
    return first - second > left


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


def _budget(game: CardGame, bot: ISMCTSBot) -> tuple[int, float, float, int]:
    """The iterations, the prior's weight, the exploration constant and the root's
    breadth: the bot's, else the game's, checked either way (a bot's attributes and a
    game's class attributes are anyone's to set)."""
    name = type(game).__name__
    return (
        _iterations(game.search_iterations, f"{name}.search_iterations") if bot.iterations is None else _iterations(bot.iterations, "iterations"),
        _weight(game.search_prior, f"{name}.search_prior") if bot.prior is None else _weight(bot.prior, "prior"),
        _weight(game.search_exploration, f"{name}.search_exploration") if bot.exploration is None else _weight(bot.exploration, "exploration"),
        _breadth(game.search_breadth, f"{name}.search_breadth") if bot.breadth is None else _breadth(bot.breadth, "breadth"),
    )


def _favourites(ids: Sequence[int], scores: Sequence[float], allowed: set[int], breadth: int) -> list[int]:
    """The ``breadth`` moves of ``allowed`` the heuristic scores highest, best first (ties
    by their order; NaN last)."""
    if len(scores) != len(ids):
        raise GameFault(f"the heuristic gave {len(scores)} scores for {len(ids)} actions")
    order = sorted((i for i in range(len(ids)) if ids[i] in allowed), key=lambda i: -scores[i] if scores[i] == scores[i] else math.inf)
    return [ids[i] for i in order[:breadth]]


class _CollectorPause:
    """The cyclic garbage collector paused while any search runs (a context manager).

    A search's tree and deals hold no cycles (reference counting frees them), so the
    collector finds nothing in them, yet a game whose heuristic keeps growing caches sets
    it off again and again (the court: 1,381 collections in 30 decisions, a tenth of their
    time, none collecting anything). Searches may overlap (threads, or a search inside a
    game's hook): the first to start pauses the collector if it was on, the last to end
    turns it back on. Cycles made meanwhile wait for the next collection after that."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._searches = 0
        self._resume = False

    def __enter__(self) -> None:
        with self._lock:
            if self._searches == 0:
                self._resume = gc.isenabled()
                gc.disable()
            self._searches += 1

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._searches -= 1
            if self._searches == 0 and self._resume:
                gc.enable()


_PAUSE = _CollectorPause()


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

    While it searches, Python's cyclic garbage collector is paused (``gc``: reference
    counting still frees everything without cycles) and turned back on when the last
    search running ends, if it was on when the first began.
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
        self._rng = random.Random(seed)
        self.last_stats: dict[str, Any] = {}

    def __repr__(self) -> str:
        return (f"ISMCTSBot(iterations={self.iterations}, time_limit={self.time_limit}, prior={self.prior}, "
                f"exploration={self.exploration}, breadth={self.breadth})")

    def choose(self, view: dict[str, Any], legal: Sequence[Hashable]) -> Hashable:
        if len(legal) == 1:
            return legal[0]
        game = game_of_view(view)
        ids = ids_of(game, view, legal)
        return legal[ids.index(self.decide(game, view, view["seat"], ids))]

    def decide(self, game: CardGame, view: dict[str, Any], seat: int, legal: Sequence[int], *, position: Any = None) -> int:
        if len(legal) == 1:
            return legal[0]
        with _PAUSE:
            return self._search(game, view, seat, legal, position)

    def _search(self, game: CardGame, view: dict[str, Any], seat: int, legal: Sequence[int], position: Any) -> int:
        start = time.perf_counter()
        budget, w, c, breadth = _budget(game, self)
        rng = self._rng
        sample: Callable[[random.Random], Any]
        if position is not None:
            sample = lambda _rng: game.clone(position)  # noqa: E731 (perfect information: the position is public)
        else:
            sample = game.sampler(view, seat)
        root_legal = set(legal)
        players = len(view["players"]) if isinstance(view.get("players"), list) else None
        step, legal_of, current, over = game.step, game.legal_actions, game.current_player, game.is_over
        heuristic, evaluate, best_of = game.heuristic, game.evaluate, game.best_actions
        probe = sample(rng)
        players = players or len(game.scores(probe))
        probe_legal = legal_of(probe) if not over(probe) else []
        probe_scores = heuristic(probe, probe_legal) if probe_legal else None
        has_heuristic = probe_scores is not None
        favourites: list[int] = []  # the root's moves when the search weighs only the heuristic's favourites
        if breadth and probe_scores is not None and len(legal) > breadth:
            favourites = _favourites(probe_legal, probe_scores, root_legal, breadth)  # of the real moves the deal allows too
            if favourites:
                root_legal = set(favourites)
        has_evaluate = evaluate(probe) is not None
        depth_limit = (game.rollout_depth if self.rollout_depth is None else self.rollout_depth) if has_evaluate else _LONG
        root = _Node(-1)
        eps = self.epsilon
        done = 0
        deadline = None if self.time_limit is None else start + self.time_limit
        log, sqrt, rnd = math.log, math.sqrt, rng.random
        solitaire = players == 1
        lo, hi = math.inf, -math.inf  # the solitaire's scores seen so far
        while done < budget and len(root_legal) > 1 and (deadline is None or time.perf_counter() < deadline):  # one move: nothing to weigh
            s = sample(rng)
            node = root
            path = []
            scale = 1.0 / (hi - lo) if solitaire and hi > lo else 1.0  # a solitaire's scores onto [0, 1]
            shift = lo if solitaire and hi > lo else 0.0
            while not over(s):
                ids = legal_of(s)
                if favourites and node is root:  # (or every move, for a deal that allows none of them)
                    ids = [a for a in ids if a in root_legal] or ids
                children = node.children
                untried = []
                for a in ids:  # availability: each child legal in this deal
                    child = children.get(a)
                    if child is None:
                        untried.append(a)
                    else:
                        child.avail += 1
                if w and len(ids) > 1:
                    bias = node.prior
                    if bias is None:
                        bias = node.prior = _prior(ids, heuristic(s, ids) if has_heuristic else None)
                    elif any(a not in bias for a in ids):  # a move this deal allows and the first did not
                        for a, x in _prior(ids, heuristic(s, ids) if has_heuristic else None).items():
                            bias.setdefault(a, x)
                else:
                    bias = None
                if untried:
                    if bias is not None and len(untried) > 1:  # the heuristic's favourite first
                        top = max(bias[a] for a in untried)
                        untried = [a for a in untried if bias[a] >= top] or untried
                    a = untried[int(rnd() * len(untried))]
                    child = children[a] = _Node(current(s))
                    step(s, a)
                    path.append(child)
                    break
                best_a, best_u = ids[0], -math.inf
                for a in ids:
                    ch = children[a]
                    v = ch.visits
                    u = (ch.reward / v - shift) * scale + c * sqrt(log(ch.avail) / v)
                    if bias is not None:
                        u += w * bias[a] / (v + 1)  # progressive bias (Chaslot et al., 2008): fades as visits grow
                    if u > best_u:
                        best_a, best_u = a, u
                node = children[best_a]
                step(s, best_a)
                path.append(node)
            depth = depth_limit
            while depth > 0 and not over(s):
                ids = legal_of(s)
                if len(ids) == 1:
                    a = ids[0]
                elif not has_heuristic or rnd() < eps:
                    a = ids[int(rnd() * len(ids))]
                elif not (best := best_of(s, ids)):  # no opinion on this position: at random
                    a = ids[int(rnd() * len(ids))]
                else:  # the heuristic's favourite, ties at random
                    a = best[int(rnd() * len(best))] if len(best) > 1 else best[0]
                step(s, a)
                depth -= 1
            if solitaire:
                result = [float(game.scores(s)[0])] if over(s) else (evaluate(s) or [float(game.scores(s)[0])])
                lo, hi = min(lo, result[0]), max(hi, result[0])
            else:
                result = _result(game, s, players) if over(s) else (evaluate(s) or [0.5] * players)
            for visited in path:
                visited.visits += 1
                visited.reward += result[visited.player]
            done += 1
            if done % 8 == 0 and _settled(root, budget - done):
                break
        ranked = sorted(
            ((ch.visits, ch.reward / max(1, ch.visits), a) for a, ch in root.children.items() if a in root_legal),
            reverse=True,
        )
        self.last_stats = {"iterations": done, "budget": budget, "prior": w if has_heuristic else 0.0, "exploration": c,
                           "breadth": len(favourites) if favourites else len(legal),
                           "seconds": time.perf_counter() - start, "root_children": len(root.children),
                           "visits": {a: ch.visits for a, ch in root.children.items() if a in root_legal},
                           "rollout_depth": depth_limit if has_evaluate else None}
        if not ranked:  # no iteration ran (one favourite, or a time limit): the heuristic's favourite, else any move
            return favourites[0] if favourites else legal[rng.randrange(len(legal))]
        return ranked[0][2]
