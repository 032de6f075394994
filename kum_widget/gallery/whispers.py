"""Whispers at Court: a teaching game of targeted effects (in the family of Love Letter).

Each player holds one card. On your turn you draw a second and play one of the two,
usually on another player:

- Guard (1, five of them): name a player and a card other than a Guard; if they hold it, they are out.
- Priest (2, two): look at a player's hand (only you see it).
- Baron (3, two): compare hands with a player, in secret; the lower card is out.
- Handmaid (4, two): nobody can target you until your next turn.
- Princess (5, one): never played; holding it at the end wins most ties of luck.

A card with no one to target is played for nothing. The round ends when one player is
left, or the deck is out: then the highest card in hand wins (ties share).

Every targeted play is a click on the card, then on the player's hand; the Guard's
guess is a menu (``choice``). Notes name any seat (``{seat1}``) and a Baron's comparison
is told to exactly the two players (``to=``).

>>> from kum_widget.core import Session, check_game
>>> s = Session(Whispers(), ["Ada", "Bo"], seed=2)
>>> [s.action_text(a) for a in s.legal_actions()][:3]
['Guard on Bo: guess Priest', 'Guard on Bo: guess Baron', 'Guard on Bo: guess Handmaid']
>>> check_game(Whispers(), games=10).ok
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from kum_widget.core import CardGame, Note

NAMES = {1: "Guard", 2: "Priest", 3: "Baron", 4: "Handmaid", 5: "Princess"}
DECK = [1] * 5 + [2] * 2 + [3] * 2 + [4] * 2 + [5]
NOBODY = 9  # an action's target when there is no one to target


@dataclass
class Court:
    deck: list[int]
    hands: list[list[int]]
    played: list[list[int]]
    out: list[bool]
    safe: list[bool]  # played a Handmaid since their last turn
    turn: int


def action(card: int, target: int = NOBODY, guess: int = 0) -> int:
    return card * 100 + target * 10 + guess


class Whispers(CardGame):
    name = "whispers"
    title = "Whispers at Court"
    min_players, max_players = 2, 4

    def setup(self, players: int, rng: random.Random) -> Court:
        deck = list(DECK)
        rng.shuffle(deck)
        deck.pop()  # one card set aside unseen, so the last card cannot be counted
        hands = [[deck.pop()] for _ in range(players)]
        hands[0].append(deck.pop())
        return Court(deck, hands, [[] for _ in range(players)], [False] * players, [False] * players, 0)

    def current_player(self, c: Court) -> int:
        return c.turn

    def _targets(self, c: Court) -> list[int]:
        return [q for q in range(len(c.hands)) if q != c.turn and not c.out[q] and not c.safe[q]]

    def legal_actions(self, c: Court) -> list[int]:
        if self.is_over(c):
            return []
        out = []
        for card in sorted(set(c.hands[c.turn])):
            targets = self._targets(c)
            if card == 5:
                continue
            if card in (1, 2, 3) and targets:
                out += [action(card, t, g) for t in targets for g in (2, 3, 4, 5)] if card == 1 else [action(card, t) for t in targets]
            else:
                out.append(action(card))
        return out

    def action_text(self, c: Court, a: int) -> str:
        card, target, guess = a // 100, a // 10 % 10, a % 10
        if target == NOBODY:
            return f"{NAMES[card]}" + ("" if card == 4 else " on nobody")
        return f"{NAMES[card]} on {{seat{target}}}" + (f": guess {NAMES[guess]}" if guess else "")

    def action_kind(self, c: Court, a: int) -> str:
        return NAMES[a // 100]  # the card played, whoever it targets

    def apply(self, c: Court, a: int) -> list[Any]:
        p, card, t, guess = c.turn, a // 100, a // 10 % 10, a % 10
        c.hands[p].remove(card)
        c.played[p].append(card)
        c.safe[p] = card == 4
        events: list[Any] = [f"{{seat{p}}} plays the {NAMES[card]}" + ("" if t == NOBODY else f" on {{seat{t}}}") + "."]
        if card == 1 and t != NOBODY:
            hit = c.hands[t][0] == guess
            c.out[t] = c.out[t] or hit
            events.append(f"{{seat{p}}} guesses {NAMES[guess]}: " + (f"right, {{seat{t}}} is out." if hit else "wrong."))
        elif card == 2 and t != NOBODY:
            events.append(Note(f"{{player}} sees that {{seat{t}}} holds the {NAMES[c.hands[t][0]]}.", seat=p,
                               others=f"{{player}} looks at {{seat{t}}}'s hand."))
        elif card == 3 and t != NOBODY:
            mine, theirs = c.hands[p][0], c.hands[t][0]
            loser = p if mine < theirs else t if theirs < mine else None
            if loser is not None:
                c.out[loser] = True
            said = f"{{seat{loser}}} is out" if loser is not None else "a tie"
            events.append(Note(f"{{seat{p}}} holds the {NAMES[mine]}, {{seat{t}}} the {NAMES[theirs]}: {said}.", seat=p,
                               to=(p, t), others=f"{{seat{p}}} and {{seat{t}}} compare hands: {said}."))
        alive = [q for q in range(len(c.hands)) if not c.out[q]]
        if len(alive) > 1 and c.deck:
            c.turn = min((q for q in alive if q > p), default=alive[0])
            c.safe[c.turn] = False
            c.hands[c.turn].append(c.deck.pop())
        return events

    def is_over(self, c: Court) -> bool:
        return sum(not o for o in c.out) <= 1 or (not c.deck and len(c.hands[c.turn]) < 2)

    def scores(self, c: Court) -> list[float]:
        return [0.0 if c.out[q] else float(max(h, default=0)) for q, h in enumerate(c.hands)]

    def view(self, c: Court, seat: int | None) -> dict[str, Any]:
        over = self.is_over(c)
        return {"deck": len(c.deck), "turn": c.turn, "out": list(c.out), "safe": list(c.safe),
                "played": [list(x) for x in c.played],
                "hands": [list(h) if seat is None or seat == q or (over and not c.out[q]) else [0] * len(h)
                          for q, h in enumerate(c.hands)]}

    def public_view(self, c: Court) -> dict[str, Any]:
        return self.view(c, -1)

    def determinize(self, view: dict[str, Any], seat: int, rng: random.Random) -> Court:
        unseen = list(DECK)  # the cards this seat has not seen: others' hands, the deck, the one set aside
        for card in [x for h in view["hands"] for x in h if x] + [x for pile in view["played"] for x in pile]:
            unseen.remove(card)
        rng.shuffle(unseen)
        hands = [[card or unseen.pop() for card in h] for h in view["hands"]]
        return Court(unseen[:view["deck"]], hands, [list(x) for x in view["played"]], list(view["out"]), list(view["safe"]),
                     view["turn"])

    def board(self, view: dict[str, Any], seat: int | None) -> dict[str, Any]:
        def face(card: int) -> dict[str, Any]:
            return {"title": NAMES[card], "value": card, "color": ("gray", "teal", "purple", "green", "pink", "gold")[card]}

        def hand(q: int) -> list[dict[str, Any]]:
            return [{"id": f"card {q} {i}", "down": True, "faces": [{"title": "hidden", "hidden": True}]} if card == 0
                    else {"id": f"card {q} {i}", "faces": [face(card)]} for i, card in enumerate(view["hands"][q])]

        return {"zones": [{"id": "deck", "label": "Deck", "layout": "pile", "count": view["deck"]}],
                "seats": [{"seat": q,
                           "badges": [{"text": "out", "color": "red"}] * view["out"][q]
                           + [{"text": "protected", "color": "green"}] * view["safe"][q],
                           "zones": [{"id": f"hand {q}", "label": "Hand", "layout": "hand", "cards": hand(q)},
                                     {"id": f"played {q}", "label": "Played", "layout": "stack", "size": "small",
                                      "cards": [{"id": f"played {q} {i}", "faces": [face(card)]}
                                                for i, card in enumerate(view["played"][q])], "empty": "nothing yet"}]}
                          for q in range(len(view["hands"]))]}

    def click(self, c: Court, a: int) -> dict[str, Any]:
        card, target, guess = a // 100, a // 10 % 10, a % 10
        source = f"card {c.turn} {c.hands[c.turn].index(card)}"
        into = f"played {c.turn}" if target == NOBODY else f"hand {target}"
        return {"source": source, "target": into, **({"choice": f"guess {NAMES[guess]}"} if guess else {})}

    def how_to_play(self) -> dict[str, Any]:
        """The board's "?" panel: a short intro, then the rules."""
        return {
            "intro": "The goal: be the last player left in, or hold the highest card when the deck runs out.\n\n"
                     "Your turn: you hold one card and draw a second; play one of the two. Click the card, then the hand "
                     "of the player it acts on (a Guard then asks which card you guess), or your own Played pile when "
                     "it acts on nobody.",
            "rules": [
                f"{len(DECK)} cards: five Guards (1), two Priests (2), two Barons (3), two Handmaids (4) and one "
                "Princess (5). One card is set aside unseen and each player is dealt one.",
                "On your turn you draw a card, then play one of your two cards; its effect happens at once.",
                "Guard (1): name another player and a card other than a Guard; if they hold it, they are out.",
                "Priest (2): look at another player's hand (only you see it).",
                "Baron (3): compare hands with another player, in secret; the lower card is out (equal cards: nobody).",
                "Handmaid (4): nobody can choose you until your next turn.",
                "Princess (5): never played. Hold it to the end.",
                "A card with nobody to act on (everyone else is out or protected) is played for nothing.",
                "The game ends when one player is left in, or when the deck is out: then the highest card in hand wins "
                "(equal cards share the win).",
            ],
        }
