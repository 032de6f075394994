"""Bust: the complete example of GAMES.md, a small card game with hidden hands.

Eighteen cards, two of each value 1 to 9. Each player holds three, unseen by the
others. On your turn, play a card onto the pile or (with fewer than five cards, while
the deck lasts) draw one. Whoever takes the pile past 21 busts and loses; everyone
else wins. With no card and nothing to draw, you pass.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from . import errors as core_errors
from .events import Note
from .game import CardGame
from .registry import register

DRAW, PASS = 100, 101  # action ids; playing card c is action c (0..17)


def value(card: int) -> int:
    return card % 9 + 1


@dataclass
class BustState:
    hands: list[list[int]]
    deck: list[int]  # the top card is the last
    pile: list[int] = field(default_factory=list)
    turn: int = 0
    loser: int | None = None


@register
class Bust(CardGame):
    name = "bust"
    title = "Bust"
    min_players, max_players = 2, 4
    fair_heuristic = True  # the heuristic reads the pile and the limit, both public
    defaults = {"limit": 21, "hand": 3}

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        if not 0 <= self.rules["hand"] <= 4:  # four hands of four: 16 of the 18 cards
            raise core_errors.InvalidOptionError(f"Bust: option 'hand' is 0..4 cards, got {self.rules['hand']}")

    def setup(self, players: int, rng: random.Random) -> BustState:
        deck = list(range(18))
        rng.shuffle(deck)
        return BustState([[deck.pop() for _ in range(self.rules["hand"])] for _ in range(players)], deck)

    def current_player(self, s: BustState) -> int:
        return s.turn

    def legal_actions(self, s: BustState) -> list[int]:
        if s.loser is not None:
            return []
        hand = s.hands[s.turn]
        plays = sorted({min(c for c in hand if value(c) == value(card)) for card in hand})  # one per value
        draw = [DRAW] if s.deck and len(hand) < 5 else []
        return plays + draw if plays or draw else [PASS]

    def apply(self, s: BustState, action: int) -> list[Note]:
        p = s.turn
        s.turn = (p + 1) % len(s.hands)
        if action == PASS:
            return [Note("{player} has no card and passes.", seat=p)]
        if action == DRAW:
            card = s.deck.pop()
            s.hands[p].append(card)
            return [Note(f"{{player}} drew a {value(card)}.", seat=p, others="{player} drew a card.")]
        s.hands[p].remove(action)
        s.pile.append(action)
        total = sum(map(value, s.pile))
        if total > self.rules["limit"]:
            s.loser = p
            return [Note(f"{{player}} played a {value(action)}: {total}, bust!", seat=p)]
        return [Note(f"{{player}} played a {value(action)}: the pile is at {total}.", seat=p)]

    def is_over(self, s: BustState) -> bool:
        return s.loser is not None

    def scores(self, s: BustState) -> list[float]:
        return [0.0 if p == s.loser else 1.0 for p in range(len(s.hands))] if s.loser is not None else [0.0] * len(s.hands)

    def view(self, s: BustState, seat: int | None) -> dict[str, Any]:
        return {
            "hands": [[{"id": c, "value": value(c)} for c in h] if seat in (None, p) else len(h) for p, h in enumerate(s.hands)],
            "pile": s.pile[:],
            "total": sum(map(value, s.pile)),
            "deck": len(s.deck),
            "turn": s.turn,
            "loser": s.loser,
        }

    def action_text(self, s: BustState, action: int) -> str:
        if action not in (DRAW, PASS) and not 0 <= action < 18:
            raise core_errors.IllegalMoveError(f"{action} is not an action of Bust")
        return {DRAW: "draw", PASS: "pass"}.get(action) or f"play {value(action)}"

    # -- what the bots and the board use ---------------------------------------------------

    def public_view(self, s: BustState) -> dict[str, Any]:
        return self.view(s, -1)  # -1 is no seat: every hand shows as a count

    def determinize(self, view: dict[str, Any], seat: int, rng: random.Random) -> BustState:
        hands_view = view["hands"]
        mine = [c["id"] for c in hands_view[seat]]
        unseen = [c for c in range(18) if c not in mine and c not in view["pile"]]
        rng.shuffle(unseen)
        hands = [mine if p == seat else [unseen.pop() for _ in range(h)] for p, h in enumerate(hands_view)]
        return BustState(hands, unseen, list(view["pile"]), view["turn"], view["loser"])

    def secrets(self, s: BustState, seat: int) -> list[Any]:
        return [{"id": c} for c in s.hands[seat]]

    def heuristic(self, s: BustState, actions: list[int]) -> list[float]:
        room = self.rules["limit"] - sum(map(value, s.pile))
        return [-50.0 if a == DRAW else 0.0 if a == PASS else (-value(a) if value(a) <= room else -100.0) for a in actions]

    def board(self, view: dict[str, Any], seat: int | None) -> dict[str, Any]:
        def card(c: dict[str, int]) -> dict[str, Any]:
            return {"id": f"card {c['id']}", "faces": [{"value": c["value"], "color": "blue" if c["id"] < 9 else "red"}]}

        hands = view["hands"]
        return {
            "zones": [
                {"id": "deck", "label": "Deck", "layout": "pile", "count": view["deck"]},
                {"id": "pile", "label": "Pile", "layout": "stack", "cards": [card({"id": c, "value": value(c)}) for c in view["pile"]],
                 "counters": [{"label": "total", "value": view["total"], "max": self.rules["limit"]}]},
            ],
            "seats": [
                {"seat": p, "zones": [{"id": f"hand {p}", "label": "Hand", "layout": "hand",
                                       "cards": [card(c) for c in h] if isinstance(h, list) else [{"id": f"back {p} {i}", "down": True} for i in range(h)]}]}
                for p, h in enumerate(hands)
            ],
        }

    def click(self, s: BustState, action: int) -> dict[str, str]:
        if action == DRAW:
            return {"target": "deck"}
        if action == PASS:
            return {}
        return {"source": f"card {action}", "target": "pile"}
