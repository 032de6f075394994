"""The greedy heuristic, scored on a position: GreedyBot's choice and ISMCTS's rollouts.

``score_actions(s, ids)`` rates each legal action of the player to move reading only
what that player knows: their own hand, the table, the Camp and the deck's size. On a
determinized position (see ``engine.sampling``) that is exactly the seat's view, so
the same code serves a bot that must not see hidden cards.

* A play that claims a mine for yourself is worth the mine's expected value: its
  points if developed, minus them if not, weighted by how likely it is to be
  developed before the deck runs out (large and overseer mines are less likely).
* A claim that goes to another King is worth minus that player's expected value: it
  happily saddles a rival with a mine they will struggle to develop.
* A play on your own claimed mine is worth the progress; finishing it, twice its points.
* Leaving an available mine one card short of its defense costs a little; your own
  race's creatures are kept for overseers; a Camp card is drawn when it fits one of
  your mines, the deck (hurrying the end) when you lead.
"""

from __future__ import annotations

from ..engine.rules import FOLLOWS, scores
from ..engine.state import DISCARD, DRAW, PLAY, State

__all__ = ["score_actions", "best_actions"]


def _develop_chance(s: State, mine: int, have: int) -> float:
    d = s.cards
    over = d.overseers[mine]
    need = d.sizes[mine] - have + (1 if over else 0)
    q = 0.95 - 0.13 * need - (0.1 if over else 0.0)
    turns_left = len(s.deck) / len(s.kings)
    if turns_left < 2 * need:
        q *= max(0.1, turns_left / (2 * need))
    return min(0.95, max(0.05, q))


def _usefulness(s: State, card: int) -> float:
    """How much the player to move wants to keep ``card`` for their claimed mines."""
    d = s.cards
    value = d.values[card]
    own = d.races[card] == s.kings[s.current]
    best = 0.1 * value
    for mine in s.claimed[s.current]:
        st = s.stacks[mine]
        if not FOLLOWS[d.values[st[-1]] + 1 if st else 0][value]:
            continue
        pts = d.points[mine]
        full = d.overseers[mine] and len(st) >= d.sizes[mine]
        if full and own:
            best = max(best, 2.0 * pts)
        elif not full and not own:
            best = max(best, 0.4 * pts)
        elif d.overseers[mine] and own:
            best = max(best, 0.5 * pts)
    return best


def score_actions(s: State, ids: list[int]) -> list[float]:
    """A heuristic score for each action id in ``ids`` (higher is better)."""
    d = s.cards
    n, m = s.n, s.m
    base = s.base
    cur = s.current
    out = []
    keep: dict[int, float] = {}  # usefulness per card, computed once per call

    def useful(card: int) -> float:
        v = keep.get(card)
        if v is None:
            v = keep[card] = _usefulness(s, card)
        return v

    if s.phase == DRAW:
        sc = scores(s)
        lead = sc[cur] - max(v for p, v in enumerate(sc) if p != cur)
        for a in ids:
            if a == base:
                out.append(0.5 + (1.0 if lead > 0 else 0.0))
            else:
                pile = s.camp[a - base - 1]
                out.append(useful(pile[-1]) if pile else -1e9)
        return out
    if s.phase == DISCARD:
        return [-useful(a - base - 5) for a in ids]
    if s.phase != PLAY:
        return [0.0] * len(ids)
    offset = n * m
    for a in ids:
        if a < offset:
            card, slot = divmod(a, m)
            mine = s.mines[slot]
            stack = s.mine_stacks[slot]
            cost = -0.5 * useful(card)
            after = len(stack) + 1
            pts = d.points[mine]
            if after >= d.defenses[mine]:
                claimer = s.king_seat[d.races[card]]
                value = pts * (2 * _develop_chance(s, mine, 0) - 1)
                out.append(cost + (value if claimer in (cur, -1) else -value))
            else:
                short = -0.25 * pts if d.defenses[mine] - after == 1 else 0.0
                out.append(cost + short + 0.02 * d.values[card])  # a high top card blocks
        else:
            card, k = divmod(a - offset, n)
            mine = s.claimed[cur][k]
            stack = s.stacks[mine]
            cost = -0.3 * useful(card)
            pts = d.points[mine]
            size, over = d.sizes[mine], d.overseers[mine]
            after = len(stack) + 1
            if (over and len(stack) >= size) or (not over and after >= size):
                out.append(cost + 2 * pts + 1)
                continue
            need = size - after + (1 if over else 0)
            score = cost + pts / (need + 1)
            if over and after == size:
                own = s.kings[cur]
                value = d.values[card]
                if not any(d.races[c] == own and FOLLOWS[value + 1][d.values[c]] for c in s.hands[cur] if c != card):
                    score -= 0.5 * pts  # full, with no own-race card to finish it
            out.append(score - 0.05 * d.values[card])  # low cards leave room on the stack
    return out


def best_actions(s: State, ids: list[int]) -> list[int]:
    """The ids with the top score (ties kept, in id order)."""
    sc = score_actions(s, ids)
    top = max(sc)
    return [a for a, v in zip(ids, sc, strict=True) if v >= top - 1e-9]
