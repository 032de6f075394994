"""Small games whose design-report answers are known by construction (tests/lab/test_lab_design.py).

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


# -- games whose every reading is known by construction (tests/lab/test_lab_known.py) -------------


@dataclass
class DiceState:
    rolls: list[int]  # each seat's dice total, rolled at the deal: the higher wins
    moves: int = 0


class Dice(core.CardGame):
    """Pure luck: the deal rolls each seat's dice; then each seat in turn "rolls" or
    "throws" (two names for one move: both only count the turn) ``length`` times in all.
    Every option of every decision leads to the same position: no decision matters; the
    deal decides everything (a tie of the rolls shares the win)."""

    name = "design-dice"
    title = "Dice"
    min_players, max_players = 2, 2
    perfect_information = True
    defaults = {"length": 6}

    def setup(self, players: int, rng: random.Random) -> DiceState:
        return DiceState([rng.randint(1, 6) + rng.randint(1, 6) for _ in range(players)])

    def current_player(self, s: DiceState) -> int:
        return s.moves % 2

    def legal_actions(self, s: DiceState) -> list[int]:
        return [] if self.is_over(s) else [0, 1]

    def action_text(self, s: DiceState, a: int) -> str:
        return ("roll", "throw")[a]

    def action_kind(self, s: DiceState, a: int) -> str:
        return ("roll", "throw")[a]

    def apply(self, s: DiceState, a: int) -> list[Any]:
        s.moves += 1
        return [f"{('rolled', 'threw')[a]}"]

    def is_over(self, s: DiceState) -> bool:
        return s.moves >= self.rules["length"]

    def scores(self, s: DiceState) -> list[float]:
        return [float(r) for r in s.rolls]

    def view(self, s: DiceState, seat: int | None) -> dict[str, Any]:
        return {"rolls": list(s.rolls), "moves": s.moves}

    def evaluate(self, s: DiceState) -> list[float]:
        a, b = s.rolls
        return [0.5, 0.5] if a == b else [1.0, 0.0] if a > b else [0.0, 1.0]


@dataclass
class RaceState:
    track: list[int] = field(default_factory=lambda: [0, 0])
    moves: int = 0


class LastMove(core.CardGame):
    """No chance, and the first player wins: ``length`` (odd) decisions in turn, each
    "left" or "right" (a step on the mover's own track: different positions, no effect on
    the result), the last one "finish" alone; whoever finishes wins, and that is always
    the first player. The winner always makes the last move."""

    name = "design-last-move"
    title = "Last move"
    min_players, max_players = 2, 2
    perfect_information = True
    defaults = {"length": 7}

    def setup(self, players: int, rng: random.Random) -> RaceState:
        return RaceState()

    def current_player(self, s: RaceState) -> int:
        return s.moves % 2

    def legal_actions(self, s: RaceState) -> list[int]:
        if self.is_over(s):
            return []
        return [2] if s.moves == self.rules["length"] - 1 else [0, 1]

    def action_text(self, s: RaceState, a: int) -> str:
        return ("left", "right", "finish")[a]

    def action_kind(self, s: RaceState, a: int) -> str:
        return ("left", "right", "finish")[a]

    def apply(self, s: RaceState, a: int) -> list[Any]:
        s.track[s.moves % 2] += 1 if a == 0 else 2 if a == 1 else 0
        s.moves += 1
        return [f"moved {a}"]

    def is_over(self, s: RaceState) -> bool:
        return s.moves >= self.rules["length"]

    def scores(self, s: RaceState) -> list[float]:
        last = (self.rules["length"] - 1) % 2
        return [1.0 if p == last else 0.0 for p in (0, 1)]

    def view(self, s: RaceState, seat: int | None) -> dict[str, Any]:
        return {"track": list(s.track), "moves": s.moves}

    def evaluate(self, s: RaceState) -> list[float]:
        return self.scores(s)


@dataclass
class GemState:
    bonus: int  # the seat dealt half a point, to break a tie
    gems: list[int] = field(default_factory=lambda: [0, 0])
    moves: int = 0


class Gems(core.CardGame):
    """One kind of action that causally wins: each of ``length`` turns the mover takes a
    "gem" (a point) or a "stone" or a "shell" (nothing); the deal gives one seat half a
    point. Whoever never takes a gem loses to a player who does; stones and shells change
    nothing. The greedy bot always takes the gem, so between greedy bots the deal decides."""

    name = "design-gems"
    title = "Gems"
    min_players, max_players = 2, 2
    perfect_information = True
    fair_heuristic = True
    defaults = {"length": 8}

    def setup(self, players: int, rng: random.Random) -> GemState:
        return GemState(rng.randrange(2))

    def current_player(self, s: GemState) -> int:
        return s.moves % 2

    def legal_actions(self, s: GemState) -> list[int]:
        return [] if self.is_over(s) else [0, 1, 2]

    def action_text(self, s: GemState, a: int) -> str:
        return ("gem", "stone", "shell")[a]

    def action_kind(self, s: GemState, a: int) -> str:
        return ("gem", "stone", "shell")[a]

    def apply(self, s: GemState, a: int) -> list[Any]:
        s.gems[s.moves % 2] += a == 0
        s.moves += 1
        return [f"took {a}"]

    def is_over(self, s: GemState) -> bool:
        return s.moves >= self.rules["length"]

    def scores(self, s: GemState) -> list[float]:
        return [s.gems[p] + (0.5 if p == s.bonus else 0.0) for p in (0, 1)]

    def view(self, s: GemState, seat: int | None) -> dict[str, Any]:
        return {"bonus": s.bonus, "gems": list(s.gems), "moves": s.moves}

    def heuristic(self, s: GemState, actions: list[int]) -> list[float]:
        return [1.0 if a == 0 else 0.0 for a in actions]

    def evaluate(self, s: GemState) -> list[float]:
        left = self.rules["length"] - s.moves  # turns left: each seat takes a gem on its own
        mine = [s.gems[p] + (0.5 if p == s.bonus else 0.0) + (left + (s.moves % 2 == p)) // 2 for p in (0, 1)]
        return [1.0, 0.0] if mine[0] > mine[1] else [0.0, 1.0] if mine[1] > mine[0] else [0.5, 0.5]


@dataclass
class MirrorState:
    length: int  # decisions in all, dealt
    score: int = 0
    moves: int = 0


class Mirror(core.CardGame):
    """A solitaire of two mirror kinds and a length confound: the deal sets the game's
    length (4 to 12 decisions); the first ``waits`` decisions are "wait" alone (a forced
    move), every other one "left" or "right" (a point each: mirror images) or "rest" (no
    point). A longer game scores more and has a smaller share of waits, but waiting
    causes nothing; left and right are worth exactly the same."""

    name = "design-mirror"
    title = "Mirror"
    min_players, max_players = 1, 1
    perfect_information = True
    fair_heuristic = True
    mirror_kinds = (("left", "right"),)
    defaults = {"waits": 3}

    def setup(self, players: int, rng: random.Random) -> MirrorState:
        return MirrorState(rng.randint(4, 12))

    def current_player(self, s: MirrorState) -> int:
        return 0

    def legal_actions(self, s: MirrorState) -> list[int]:
        if self.is_over(s):
            return []
        return [3] if s.moves < self.rules["waits"] else [0, 1, 2]

    def action_text(self, s: MirrorState, a: int) -> str:
        return ("left", "right", "rest", "wait")[a]

    def action_kind(self, s: MirrorState, a: int) -> str:
        return ("left", "right", "rest", "wait")[a]

    def apply(self, s: MirrorState, a: int) -> list[Any]:
        s.score += a in (0, 1)
        s.moves += 1
        return [f"did {a}"]

    def is_over(self, s: MirrorState) -> bool:
        return s.moves >= s.length

    def scores(self, s: MirrorState) -> list[float]:
        return [float(s.score)]

    def view(self, s: MirrorState, seat: int | None) -> dict[str, Any]:
        return {"length": s.length, "score": s.score, "moves": s.moves}

    def heuristic(self, s: MirrorState, actions: list[int]) -> list[float]:
        return [1.0 if a in (0, 1) else 0.0 for a in actions]

    def evaluate(self, s: MirrorState) -> list[float]:
        return [float(s.score + max(0, s.length - max(s.moves, self.rules["waits"])))]


class MirrorUndeclared(Mirror):
    """Mirror with no mirror kinds declared: nothing is guessed, so left and right are asked
    of one by one."""

    name = "design-mirror-undeclared"
    mirror_kinds = ()


class Wide(LastMove):
    """Ten options a decision, each a different position and none of them mattering (the
    first player always wins), and no evaluate: the option analysis plays them out, noise
    and all, and must not read that noise as real choices."""

    name = "design-wide"
    title = "Wide"
    defaults = {"length": 9}

    def legal_actions(self, s: RaceState) -> list[int]:
        if self.is_over(s):
            return []
        return [12] if s.moves == self.rules["length"] - 1 else list(range(10))

    def action_text(self, s: RaceState, a: int) -> str:
        return "finish" if a == 12 else f"step {a}"

    def action_kind(self, s: RaceState, a: int) -> str:
        return "finish" if a == 12 else "step"

    def apply(self, s: RaceState, a: int) -> list[Any]:
        s.track[s.moves % 2] += 0 if a == 12 else a + 1
        s.moves += 1
        return [f"moved {a}"]

    evaluate = core.CardGame.evaluate  # (none: playouts estimate the options)
