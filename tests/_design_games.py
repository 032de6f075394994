"""Small games whose design-report answers are known by construction (tests/test_lab_design.py).

They live in a module, not in a test, so that worker processes (``executor=2``) and dask
workers can import them. None is registered: the tests pass the games themselves.

- :class:`Coin`: two seats take ``length`` actions; the winner was drawn at the deal
  (seat 0 with probability ``edge``; a draw with probability ``draw``), whatever is
  played. ``early`` / ``late`` legal actions in the first / second half of the game;
  ``per_turn`` actions a turn; ``first``: the seat that moves first; ``never``: the
  share of deals that never end (they offer ``early`` actions for ever). Its
  ``evaluate`` tells a story: ``"wire"`` (the winner leads throughout) or ``"comeback"``
  (the loser leads in the first half, the winner in the second).
- :class:`Gold`: two seats play out a hand of two cards each; whoever holds the gold card
  wins (it is dealt with probability ``gold``, else a coin decides). The silver card goes
  to the gold card's holder with probability ``silver``. Its summary gives per seat
  ``gold_s`` and ``silver_s``: 1 when the seat played that card.
- :class:`GoldSolitaire`: three picks among gold, lead and iron; each gold scores 5.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from kum_widget import core


@dataclass
class CoinState:
    winner: int | None  # None: a draw
    endless: bool
    moves: int = 0


class Coin(core.CardGame):
    name = "design-coin"
    title = "Coin"
    min_players, max_players = 2, 2
    perfect_information = True
    defaults = {"edge": 0.5, "draw": 0.0, "length": 10, "early": 2, "late": 2, "per_turn": 1, "first": 0,
                "never": 0.0, "story": "wire"}

    def setup(self, players: int, rng: random.Random) -> CoinState:
        r = self.rules
        endless = rng.random() < r["never"]
        if rng.random() < r["draw"]:
            return CoinState(None, endless)
        return CoinState(0 if rng.random() < r["edge"] else 1, endless)

    def current_player(self, s: CoinState) -> int:
        return int(s.moves // self.rules["per_turn"] + self.rules["first"]) % 2

    def legal_actions(self, s: CoinState) -> list[int]:
        if self.is_over(s):
            return []
        half = s.moves < self.rules["length"] / 2 or s.endless
        return list(range(self.rules["early"] if half else self.rules["late"]))

    def action_text(self, s: CoinState, a: int) -> str:
        return f"say {a}"

    def apply(self, s: CoinState, a: int) -> list[Any]:
        s.moves += 1
        return [f"said {a}"]

    def is_over(self, s: CoinState) -> bool:
        return not s.endless and s.moves >= self.rules["length"]

    def scores(self, s: CoinState) -> list[float]:
        return [1.0, 1.0] if s.winner is None else [1.0 if p == s.winner else 0.0 for p in (0, 1)]

    def view(self, s: CoinState, seat: int | None) -> dict[str, Any]:
        return {"moves": s.moves, "winner": s.winner, "endless": s.endless}

    def evaluate(self, s: CoinState) -> list[float]:
        winner = 0 if s.winner is None else s.winner
        ahead = s.moves >= self.rules["length"] / 2 or self.rules["story"] == "wire"
        lead = winner if ahead else 1 - winner
        return [0.8 if p == lead else 0.2 for p in (0, 1)]


GOLD, SILVER = 0, 1
KINDS = {GOLD: ("gold", 1), SILVER: ("silver", 1), **{c: ("lead" if c < 10 else "iron", c % 8 + 1) for c in range(2, 18)}}


@dataclass
class GoldState:
    hands: list[list[int]]
    winner: int
    played: list[list[int]] = field(default_factory=lambda: [[], []])
    moves: int = 0


class Gold(core.CardGame):
    name = "design-gold"
    title = "Gold"
    min_players, max_players = 2, 2
    perfect_information = True
    defaults = {"gold": 1.0, "silver": 0.5}

    def setup(self, players: int, rng: random.Random) -> GoldState:
        base = list(range(2, 18))
        rng.shuffle(base)
        hands: list[list[int]] = [[], []]
        if rng.random() < self.rules["gold"]:
            winner = rng.randrange(2)
            hands[winner].append(GOLD)
            hands[winner if rng.random() < self.rules["silver"] else 1 - winner].append(SILVER)
        else:
            winner = rng.randrange(2)
        for hand in hands:
            while len(hand) < 2:
                hand.append(base.pop())
        return GoldState([sorted(h) for h in hands], winner)

    def current_player(self, s: GoldState) -> int:
        return s.moves % 2

    def legal_actions(self, s: GoldState) -> list[int]:
        return [] if self.is_over(s) else list(s.hands[s.moves % 2])

    def action_text(self, s: GoldState, a: int) -> str:
        kind, number = KINDS[a]
        return f"play {kind} {number}"

    def apply(self, s: GoldState, a: int) -> list[Any]:
        p = s.moves % 2
        s.hands[p].remove(a)
        s.played[p].append(a)
        s.moves += 1
        return [f"played {a}"]

    def is_over(self, s: GoldState) -> bool:
        return s.moves >= 4

    def scores(self, s: GoldState) -> list[float]:
        return [1.0 if p == s.winner else 0.0 for p in (0, 1)]

    def view(self, s: GoldState, seat: int | None) -> dict[str, Any]:
        return {"hands": [h[:] for h in s.hands], "played": [h[:] for h in s.played], "moves": s.moves}

    def summary(self, s: GoldState, logs: Any) -> dict[str, Any]:  # what what_wins(by="columns") reads
        return {f"{kind}_{p}": int(card in s.played[p]) for kind, card in (("gold", GOLD), ("silver", SILVER)) for p in (0, 1)}


@dataclass
class SolitaireState:
    golds: int = 0
    moves: int = 0


class GoldSolitaire(core.CardGame):
    name = "design-gold-solitaire"
    title = "Gold solitaire"
    min_players, max_players = 1, 1
    perfect_information = True

    def setup(self, players: int, rng: random.Random) -> SolitaireState:
        return SolitaireState()

    def current_player(self, s: SolitaireState) -> int:
        return 0

    def legal_actions(self, s: SolitaireState) -> list[int]:
        return [] if self.is_over(s) else [0, 1, 2]

    def action_text(self, s: SolitaireState, a: int) -> str:
        return f"play {('gold', 'lead', 'iron')[a]} {s.moves + 1}"

    def apply(self, s: SolitaireState, a: int) -> list[Any]:
        s.golds += a == 0
        s.moves += 1
        return [f"played {a}"]

    def is_over(self, s: SolitaireState) -> bool:
        return s.moves >= 3

    def scores(self, s: SolitaireState) -> list[float]:
        return [5.0 * s.golds]

    def view(self, s: SolitaireState, seat: int | None) -> dict[str, Any]:
        return {"golds": s.golds, "moves": s.moves}
