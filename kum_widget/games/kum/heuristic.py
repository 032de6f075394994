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

from collections.abc import Callable

from .actions import CAMP_OFFSET, DISCARD_OFFSET
from .rules import FOLLOWS, scores
from .state import DISCARD, DRAW, PLAY, State

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


def _usefulness(s: State) -> Callable[[int], float]:
    """How much the player to move wants to keep a card for their claimed mines."""
    d = s.cards
    values = d.values
    claims = []
    for mine in s.claimed[s.current]:
        st = s.stacks[mine]
        over = d.overseers[mine]
        claims.append((FOLLOWS[values[st[-1]] + 1] if st else FOLLOWS[0], d.points[mine], over and len(st) >= d.sizes[mine], over))
    if not claims:
        return lambda card: 0.1 * values[card]
    races, own_race = d.races, s.kings[s.current]

    def useful(card: int) -> float:
        value = values[card]
        own = races[card] == own_race
        best = 0.1 * value
        for row, pts, full, over in claims:
            if not row[value]:
                continue
            if full and own:
                keep = 2.0 * pts
            elif not full and not own:
                keep = 0.4 * pts
            elif over and own:
                keep = 0.5 * pts
            else:
                continue
            if keep > best:
                best = keep
        return best

    return useful


def score_actions(s: State, ids: list[int]) -> list[float]:
    """A heuristic score for each action id in ``ids`` (higher is better)."""
    d = s.cards
    n, m = s.n, s.m
    base = s.base
    cur = s.current
    phase = s.phase
    if phase == DRAW:
        useful = _usefulness(s)
        sc = scores(s)
        lead = sc[cur] - max(v for p, v in enumerate(sc) if p != cur)
        out = []
        for a in ids:
            if a == base:
                out.append(0.5 + (1.0 if lead > 0 else 0.0))
            else:
                pile = s.camp[a - base - CAMP_OFFSET]
                out.append(useful(pile[-1]) if pile else -1e9)
        return out
    if phase == DISCARD:
        useful = _usefulness(s)
        return [-useful(a - base - DISCARD_OFFSET) for a in ids]
    if phase != PLAY:
        return [0.0] * len(ids)
    useful = _usefulness(s)
    keep = {card: useful(card) for card in s.hands[cur]}
    values, races, points, defenses = d.values, d.races, d.points, d.defenses
    sizes, overseers = d.sizes, d.overseers
    king_seat = s.king_seat
    offset = n * m
    # Per mine slot, once: does one more card claim it, and what is that worth (or what
    # does leaving it one short cost)?
    slot_terms: list[tuple[bool, float]] = []
    for slot, mine in enumerate(s.mines):
        if mine < 0:
            slot_terms.append((False, 0.0))
            continue
        after = len(s.mine_stacks[slot]) + 1
        pts = points[mine]
        if after >= defenses[mine]:
            slot_terms.append((True, pts * (2 * _develop_chance(s, mine, 0) - 1)))
        else:
            slot_terms.append((False, -0.25 * pts if defenses[mine] - after == 1 else 0.0))
    out = []
    for a in ids:
        if a < offset:
            card = a // m
            claims, value = slot_terms[a - card * m]
            if claims:
                claimer = king_seat[races[card]]
                out.append(-0.5 * keep[card] + (value if claimer == cur or claimer == -1 else -value))
            else:
                out.append(-0.5 * keep[card] + value + 0.02 * values[card])  # a high top card blocks
        else:
            card, k = divmod(a - offset, n)
            mine = s.claimed[cur][k]
            stack = s.stacks[mine]
            cost = -0.3 * keep[card]
            pts = points[mine]
            size, over = sizes[mine], overseers[mine]
            after = len(stack) + 1
            if (over and len(stack) >= size) or (not over and after >= size):
                out.append(cost + 2 * pts + 1)
                continue
            need = size - after + (1 if over else 0)
            score = cost + pts / (need + 1)
            if over and after == size:
                own = s.kings[cur]
                value = values[card]
                if not any(races[c] == own and FOLLOWS[value + 1][values[c]] for c in s.hands[cur] if c != card):
                    score -= 0.5 * pts  # full, with no own-race card to finish it
            out.append(score - 0.05 * values[card])  # low cards leave room on the stack
    return out


def best_actions(s: State, ids: list[int]) -> list[int]:
    """The ids with the top score (ties kept, in id order)."""
    sc = score_actions(s, ids)
    top = max(sc)
    return [a for a, v in zip(ids, sc, strict=True) if v >= top - 1e-9]
