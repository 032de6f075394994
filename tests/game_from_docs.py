"""Expeditions: a tiny two-player game like "Lost Cities", written from GAMES.md alone.

Thirty-six cards, four colours of ranks 1 to 9. Each player holds ``hand`` cards, unseen by
the other, and the deck is face down. On your turn either play a card onto your own
expedition of its colour (each card higher than the one before it) or discard it face
up; then draw the top card of the deck. The game ends when the deck runs out. Each
expedition you started scores the sum of its ranks minus ``cost``; the higher total wins.

It lives in its own module (not in a test) so that ``simulate(executor=2)`` workers can
import it; importing it registers it as ``"expeditions"``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from kum_widget import core

COLORS = ("red", "green", "blue", "gold")
LETTERS = "RGBY"
RANKS = 9
DECK = list(range(len(COLORS) * RANKS))  # playing card c is action c, discarding it DISCARD + c
DISCARD = 100


def color(card: int) -> int:
    return card // RANKS


def rank(card: int) -> int:
    return card % RANKS + 1


def text(card: int) -> str:
    return f"{rank(card)}{LETTERS[color(card)]}"


@dataclass
class ExpeditionsState:
    hands: list[list[int]]
    deck: list[int]  # the top card is the last
    rows: list[list[list[int]]] = field(default_factory=lambda: [[[] for _ in COLORS] for _ in range(2)])  # [seat][colour]
    discards: list[list[int]] = field(default_factory=lambda: [[] for _ in COLORS])
    turn: int = 0


@core.register
class Expeditions(core.CardGame):
    name = "expeditions"
    title = "Expeditions"
    min_players, max_players = 2, 2
    defaults = {"hand": 5, "cost": 12}

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)  # checks the option names and types
        if not 1 <= self.rules["hand"] <= 8:
            raise core.InvalidOptionError(f"option 'hand' must be 1..8, got {self.rules['hand']}")

    def setup(self, players: int, rng: random.Random) -> ExpeditionsState:
        deck = DECK[:]
        rng.shuffle(deck)
        n = self.rules["hand"]
        return ExpeditionsState([sorted(deck.pop() for _ in range(n)) for _ in range(players)], deck)

    def current_player(self, s):
        return s.turn

    def playable(self, s, card: int) -> bool:
        row = s.rows[s.turn][color(card)]
        return not row or rank(card) > rank(row[-1])

    def legal_actions(self, s):
        if self.is_over(s):
            return []
        hand = s.hands[s.turn]
        return [c for c in hand if self.playable(s, c)] + [DISCARD + c for c in hand]

    def apply(self, s, action):
        p = s.turn
        card = action % DISCARD
        s.hands[p].remove(card)
        if action >= DISCARD:
            s.discards[color(card)].append(card)
            events = [core.Note(f"{{player}} discards {text(card)}.", seat=p)]
        else:
            s.rows[p][color(card)].append(card)
            events = [core.Note(f"{{player}} plays {text(card)} on the {COLORS[color(card)]} expedition.", seat=p)]
        drawn = s.deck.pop()
        s.hands[p] = sorted(s.hands[p] + [drawn])
        events.append(core.Note(f"{{player}} draws {text(drawn)}.", seat=p, others="{player} draws a card."))
        s.turn = 1 - p
        return events

    def is_over(self, s):
        return not s.deck

    def scores(self, s):
        return [float(sum(sum(map(rank, row)) - self.rules["cost"] for row in rows if row)) for rows in s.rows]

    def view(self, s, seat):
        return {
            "hands": [[{"id": c, "color": COLORS[color(c)], "rank": rank(c)} for c in h] if seat in (None, p) else len(h) for p, h in enumerate(s.hands)],
            "deck": len(s.deck),
            "rows": [[row[:] for row in rows] for rows in s.rows],
            "discards": [pile[:] for pile in s.discards],
            "scores": self.scores(s),
            "turn": s.turn,
        }

    def action_text(self, s, action):
        return f"{'discard' if action >= DISCARD else 'play'} {text(action % DISCARD)}"

    def refusal(self, s, action):  # asked about every action: None lets it through
        if action in self.legal_actions(s):
            return None
        if self.is_over(s):
            return "the game is over"
        if action in s.hands[s.turn]:
            top = s.rows[s.turn][color(action)][-1]
            return f"your {COLORS[color(action)]} expedition is at {rank(top)}: play higher cards on it, or discard"
        return "that card is not in your hand"

    # -- what the bots, the lab and the board use ------------------------------------

    def public_view(self, s):
        return self.view(s, -1)

    def determinize(self, view, seat, rng):
        mine = [c["id"] for c in view["hands"][seat]]
        seen = set(mine) | {c for rows in view["rows"] for row in rows for c in row} | {c for pile in view["discards"] for c in pile}
        unseen = [c for c in DECK if c not in seen]
        rng.shuffle(unseen)
        hands = [mine[:] if p == seat else sorted(unseen.pop() for _ in range(h)) for p, h in enumerate(view["hands"])]
        rows = [[list(row) for row in rows] for rows in view["rows"]]
        return ExpeditionsState(hands, unseen, rows, [list(pile) for pile in view["discards"]], view["turn"])

    def secrets(self, s, seat):
        return [{"id": c} for c in s.hands[seat]]

    def heuristic(self, s, actions):
        p, hand = s.turn, s.hands[s.turn]

        def rate(a: int) -> float:
            card = a % DISCARD
            row = s.rows[p][color(card)]
            if a >= DISCARD:  # dump dead cards first, then low ones
                return 5.0 if not self.playable(s, card) else -float(rank(card))
            if row:  # extend cheaply: every rank skipped is lost
                return 20.0 - 3 * (rank(card) - rank(row[-1]) - 1)
            return float(sum(rank(c) for c in hand if color(c) == color(card)) - self.rules["cost"])  # start if the hand pays for it

        return [rate(a) for a in actions]

    def summary(self, s, logs):
        return {"expeditions": sum(1 for rows in s.rows for row in rows if row), "margin": abs(self.scores(s)[0] - self.scores(s)[1])}

    def board(self, view, seat):  # GAMES.md says board(state, view, seat): see the report
        def card(c):
            return {"id": f"card {c}", "faces": [{"value": rank(c), "color": COLORS[color(c)], "title": COLORS[color(c)]}]}

        def hand(p, h):
            return [card(c["id"]) for c in h] if isinstance(h, list) else [{"id": f"back {p} {i}", "down": True} for i in range(h)]

        return {
            "zones": [
                {"id": "deck", "label": "Deck", "layout": "pile", "count": view["deck"]},
                {"id": "discards", "label": "Discards", "layout": "row",
                 "zones": [{"id": f"discard {k}", "label": COLORS[k], "layout": "stack", "cards": [card(c) for c in pile]} for k, pile in enumerate(view["discards"])]},
            ],
            "seats": [
                {"seat": p, "counters": [{"label": "score", "value": view["scores"][p]}],
                 "zones": [{"id": f"hand {p}", "label": "Hand", "layout": "hand", "cards": hand(p, h)},
                           {"id": f"rows {p}", "label": "Expeditions", "layout": "row",
                            "zones": [{"id": f"row {p} {k}", "label": COLORS[k], "layout": "stack", "cards": [card(c) for c in row], "empty": "not started"}
                                      for k, row in enumerate(view["rows"][p])]}]}
                for p, h in enumerate(view["hands"])
            ],
            "status": "The game is over." if not view["deck"] else f"Seat {view['turn']} to play.",
        }

    def click(self, s, action):
        card = action % DISCARD
        target = f"discard {color(card)}" if action >= DISCARD else f"row {s.turn} {color(card)}"
        return {"source": f"card {card}", "target": target}
