"""The search tree of :mod:`.ismcts`: its nodes, one tree's growth (deal, descend,
expand, roll out, back up) and the sum of several trees' roots.

A tree needs only the game, a source of deals, its own random generator, a budget and
the :class:`Plan` of its decision: the trees of one decision grow independently, each
the same whichever grows first. :func:`growing` grows one in steps (a generator that
yields between iterations and every :data:`STRIDE` rollout moves), so that a board can
run a search a slice at a time on its event loop (``bot.run_through`` runs it at once).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Generator, Sequence
from typing import Any, NamedTuple

from ..core.errors import GameFault
from ..core.game import CardGame, game_type

__all__ = ["STRIDE", "Plan", "growing", "merge", "sampler", "stats_of"]

STRIDE = 64  # rollout moves between two yields (and looks at the deadline): a long rollout is no longer one step


class _Node:
    __slots__ = ("avail", "children", "group", "player", "prior", "reward", "visits")

    def __init__(self, player: int) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.reward = 0.0
        self.player = player  # the seat whose move led here (its reward is stored)
        self.prior: dict[int, float] | None = None  # the heuristic's opinion of each move from here, in [0, 1]
        self.group: dict[Any, _Node] | None = None  # a simultaneous step starting here: see _in_group

    def _in_group(self, key: Any) -> _Node:
        """The node a simultaneous step that starts at this node keeps under ``key``: a later
        chooser's moves (key: its seat), shared whatever the earlier choosers picked, since it
        cannot see their picks; and the node after the step (key: the tuple of picks)."""
        if self.group is None:
            self.group = {}
        node = self.group.get(key)
        if node is None:
            node = self.group[key] = _Node(-1)
        return node


def _prior(ids: Sequence[int], scores: Sequence[float] | None) -> dict[int, float]:
    """The heuristic's scores of a node's moves onto [0, 1] (best 1, worst 0; all 1 with no
    opinion). An infinite score is the end of the scale (+inf 1, -inf 0), NaN counts as 0."""
    if scores is None:
        return dict.fromkeys(ids, 1.0)
    if len(scores) != len(ids):
        raise GameFault(f"the heuristic gave {len(scores)} scores for {len(ids)} actions")
    finite = [x for x in scores if math.isfinite(x)]
    lo, hi = (min(finite), max(finite)) if finite else (0.0, 0.0)
    span = 1.0 / (hi - lo) if hi - lo > 1e-9 else 0.0
    out = {}
    for a, x in zip(ids, scores, strict=False):  # (checked above: strict costs twice as much a pair)
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


def sampler(game: CardGame, view: dict[str, Any], seat: int, position: Any) -> Callable[[random.Random], Any]:
    """A tree's source of deals (a sampler may keep a chain from deal to deal: each tree
    has its own, so no tree's deals depend on another's)."""
    if position is not None:
        return lambda _rng: game.clone(position)  # perfect information: the position is public
    return game.sampler(view, seat)


def stats_of(root: _Node, root_legal: set[int]) -> dict[int, tuple[int, float]]:
    """A root's moves (those the search weighs) as ``{move: (visits, total reward)}``."""
    return {a: (ch.visits, ch.reward) for a, ch in root.children.items() if a in root_legal}


def merge(trees: Sequence[tuple[dict[int, tuple[int, float]], int, Any]]) -> tuple[dict[int, int], dict[int, float], int]:
    """The trees' root statistics summed (root parallelisation, Chaslot et al. 2008): the
    visits and rewards per move, and how many moves any root tried."""
    visits: dict[int, int] = {}
    rewards: dict[int, float] = {}
    tried: set[int] = set()
    for stats, _, children in trees:
        tried.update(children)
        for a, (v, r) in stats.items():
            visits[a] = visits.get(a, 0) + v
            rewards[a] = rewards.get(a, 0.0) + r
    return visits, rewards, len(tried)


class Plan(NamedTuple):
    """What every tree of one decision searches with."""

    prior: float
    exploration: float
    epsilon: float
    depth_limit: int
    has_heuristic: bool
    players: int
    favourites: list[int]
    root_legal: set[int]


def growing(game: CardGame, sample: Callable[[random.Random], Any], rng: random.Random, budget: int,
            deadline: float | None, plan: Plan) -> Generator[None, None, tuple[_Node, int]]:
    """One tree, in steps: up to ``budget`` iterations (fewer when the root's choice is
    settled or the deadline passes); returns the root and the iterations run. It yields
    after each iteration and every :data:`STRIDE` moves of a rollout, where it also looks
    at the ``deadline`` (a rollout the deadline cuts is not counted: the tree keeps what
    whole iterations found). Yielding changes nothing: the same tree, iteration for iteration."""
    w, c, eps, depth_limit, has_heuristic, players, favourites, root_legal = plan
    step, legal_of, current, over = game.step, game.legal_actions, game.current_player, game.is_over
    to_act = game.to_act if game_type(game).simultaneous else None
    heuristic, evaluate, best_of = game.heuristic, game.evaluate, game.best_actions
    root = _Node(-1)
    done = 0
    log, sqrt, rnd = math.log, math.sqrt, rng.random
    solitaire = players == 1
    lo, hi = math.inf, -math.inf  # the solitaire's scores seen so far
    clock = time.perf_counter
    while done < budget and len(root_legal) > 1 and (deadline is None or clock() < deadline):  # one move: nothing to weigh
        s = sample(rng)
        node = root
        path = []
        added: tuple[dict[int, _Node], int] | None = None  # the node this iteration adds, if any
        group: list[int] = []  # the seats of a simultaneous step being chosen (see _Node._in_group)
        group_root = root
        picks: list[int] = []
        scale = 1.0 / (hi - lo) if solitaire and hi > lo else 1.0  # a solitaire's scores onto [0, 1]
        shift = lo if solitaire and hi > lo else 0.0
        while not over(s):
            if to_act is not None and not group:
                seats = list(to_act(s))
                me = current(s)
                if len(seats) > 1 and me in seats and seats.index(me) < len(seats) - 1:
                    group, group_root, picks = seats[seats.index(me):], node, []
            if group and group_root is root and picks:
                # The root's own step: the searching seat cannot know what the others pick in
                # it, whether they pick after it (here) or before it (their picks hidden, dealt
                # by the determinization): either way their picks are dealt at random, so the
                # order the seats are asked in changes nothing.
                ids = legal_of(s)
                a = ids[int(rnd() * len(ids))]
                step(s, a)
                picks.append(a)
                if len(picks) == len(group) or over(s):
                    node, group = group_root._in_group(tuple(picks)), []
                continue
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
                elif not all(map(bias.__contains__, ids)):  # a move this deal allows and the first did not
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
                added = (children, a)
                step(s, a)
                path.append(child)
                break  # (a simultaneous step left half chosen is finished by the rollout)
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
            if group:
                picks.append(best_a)
                if len(picks) < len(group) and not over(s):  # the next chooser: its moves whatever was picked
                    node = group_root._in_group(current(s))
                else:  # every seat has chosen: what follows depends on all the picks
                    node = group_root._in_group(tuple(picks))
                    group = []
        depth = depth_limit
        cut = False
        while depth > 0 and not over(s):
            if not depth % STRIDE:  # a rollout of a game that loops may run for seconds: let the board answer, and stop in time
                yield
                if deadline is not None and clock() >= deadline:
                    cut = True
                    break
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
        if cut:  # the deadline came in the rollout: the node it began is taken out, unvisited
            if added is not None:
                del added[0][added[1]]
            break
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
        yield
    return root, done
