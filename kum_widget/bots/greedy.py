"""GreedyBot: a one-ply heuristic that claims and develops valuable mines.

It scores each legal action from its seat's view alone:

* a play that claims a mine for itself is worth the mine's expected value: its
  points if developed, minus its points if not, weighted by how likely it is to be
  developed before the deck runs out (large and overseer mines are less likely);
* a claim that goes to another King is worth minus that player's expected value, so
  it happily saddles a rival with a mine they will struggle to develop;
* a play onto its own claimed mine is worth the progress toward developing it, and
  the development itself is worth twice the points (from minus to plus);
* it avoids leaving an available mine one card short of its defense, keeps its own
  race's creatures for overseers, and draws from the Camp the card that fits one of
  its mines (or from the deck, to hurry the end, when it is ahead).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

from ..engine.actions import Discard, Draw, Play

__all__ = ["GreedyBot"]


def _beats(top: dict[str, Any] | None, value: int) -> bool:
    if top is None:
        return True
    return value > top["value"] or (value == 0 and top["value"] == 9)


class GreedyBot:
    """One-ply heuristic bot (see the module docstring). Seeded ties."""

    def __init__(self, seed: int | None = None) -> None:
        self.name = "Greedy bot"
        self._rng = random.Random(seed)

    def __repr__(self) -> str:
        return "GreedyBot()"

    def choose(self, view: dict[str, Any], legal: Sequence[Hashable]) -> Hashable:
        ctx = _Context(view)
        best: list[Hashable] = []
        best_score = float("-inf")
        for action in legal:
            score = ctx.score(action)
            if score > best_score + 1e-9:
                best, best_score = [action], score
            elif abs(score - best_score) <= 1e-9:
                best.append(action)
        return best[self._rng.randrange(len(best))]


class _Context:
    def __init__(self, view: dict[str, Any]) -> None:
        self.view = view
        self.me = view["seat"]
        me = view["players"][self.me]
        self.king = me["king"]
        self.hand = {c["id"]: c for c in me["hand"] if c["id"] is not None}
        self.claimed = me["claimed"]
        self.king_seat = {p["king"]: p["seat"] for p in view["players"]}
        self.deck = view["deck"]["size"]
        scores = view["scores"]
        self.lead = scores[self.me] - max(s for i, s in enumerate(scores) if i != self.me)
        self.own_cards = [c for c in self.hand.values() if c["race"] == self.king]

    def develop_chance(self, face: dict[str, Any], have: int = 0) -> float:
        need = face["size"] - have + (1 if face["overseer"] else 0)
        q = 0.95 - 0.13 * need - (0.1 if face["overseer"] else 0.0)
        turns_left = self.deck / max(1, len(self.view["players"]))
        if turns_left < 2 * need:
            q *= max(0.1, turns_left / (2 * need))
        return min(0.95, max(0.05, q))

    def claim_value(self, face: dict[str, Any]) -> float:
        q = self.develop_chance(face)
        return face["points"] * (2 * q - 1)

    def score(self, action: Hashable) -> float:
        if isinstance(action, Play):
            card = self.hand[action.card]
            if action.slot is not None:
                return self.score_mine(card, action.slot)
            return self.score_claimed(card, action.claim or 0)
        if isinstance(action, Draw):
            return self.score_draw(action)
        if isinstance(action, Discard):
            return -self.usefulness(self.hand[action.card])
        return 0.0

    def score_mine(self, card: dict[str, Any], slot: int) -> float:
        mine = self.view["mines"][slot]
        face, stack = mine["mine"], mine["stack"]
        after = len(stack) + 1
        keep = -0.5 * self.usefulness(card)
        if after >= face["defense"]:
            claimer = self.king_seat.get(card["race"], self.me)
            value = self.claim_value(face)
            return keep + (value if claimer == self.me else -value)
        score = keep
        if face["defense"] - after == 1:
            score -= 0.25 * face["points"]  # the next player claims it cheaply
        return score + 0.02 * card["value"]  # a high top card blocks

    def score_claimed(self, card: dict[str, Any], k: int) -> float:
        claim = self.claimed[k]
        face, stack = claim["mine"], claim["stack"]
        keep = -0.3 * self.usefulness(card)
        after = len(stack) + 1
        if claim["needs_overseer"] or (not face["overseer"] and after >= face["size"]):
            return keep + 2 * face["points"] + 1
        need = face["size"] - after + (1 if face["overseer"] else 0)
        score = keep + face["points"] / (need + 1)
        if face["overseer"] and after == face["size"] and not any(c["value"] > card["value"] or (c["value"] == 0 and card["value"] == 9) for c in self.own_cards):
            score -= 0.5 * face["points"]  # full, but no own-race card to finish it
        return score - 0.05 * card["value"]  # low cards leave room on the stack

    def usefulness(self, card: dict[str, Any]) -> float:
        best = 0.1 * card["value"]
        for claim in self.claimed:
            top = claim["stack"][-1] if claim["stack"] else None
            if not _beats(top, card["value"]):
                continue
            own = card["race"] == self.king
            if claim["needs_overseer"] and own:
                best = max(best, 2.0 * claim["mine"]["points"])
            elif not claim["needs_overseer"] and not own:
                best = max(best, 0.4 * claim["mine"]["points"])
            elif claim["mine"]["overseer"] and own:
                best = max(best, 0.5 * claim["mine"]["points"])
        return best

    def score_draw(self, action: Draw) -> float:
        if action.race is None:
            return 0.5 + (1.0 if self.lead > 0 else 0.0)  # a deck draw hastens the end
        pile = self.view["camp"][action.race.value]
        return self.usefulness(pile[-1]) if pile else float("-inf")
