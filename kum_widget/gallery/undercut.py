"""Undercut: a teaching game of simultaneous choices (after Douglas Hofstadter's game).

Two players each hold cards 1 to 5. Every round both pick a card at the same time, face
down, then show them. The higher card takes the round, unless it is exactly one higher
than the other: then the lower card undercuts it and takes the round. Equal cards: nobody
does. Cards go back to the hand. After five rounds the most rounds taken wins.

Against a player who picks at random, 4 and 5 take the round 70% of the time and 3 only
half of it; against one who could see your card, every card loses. So a search that let
the second chooser see the first's card would misjudge every pick: the step is
simultaneous (``simultaneous = True``, ``to_act`` gives both seats), the first pick waits
in the state, in no other view, until the second is made.

>>> from kum_widget.core import Session, check_game
>>> s = Session(Undercut(), ["Ada", "Bo"], seed=3)
>>> s.current_player, s.game.to_act(s.state)
(0, [0, 1])
>>> [s.describe(e, 1) for e in s.apply("pick 4")], s.view(1)["picks"]
(['Ada has picked.'], ['picked', None])
>>> [s.describe(e, 1) for e in s.apply("pick 5")]
['Bo picks 5.', 'Ada shows 4, Bo 5: Ada undercuts.']
>>> check_game(Undercut(), games=5).ok
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from kum_widget.core import CardGame, Note

CARDS = (1, 2, 3, 4, 5)


@dataclass
class Table:
    picks: list[int | None]  # this round's cards so far (secret until both are picked)
    taken: list[int]  # rounds taken by each seat
    rounds: list[list[int]]  # the cards shown in each round so far


class Undercut(CardGame):
    name = "undercut"
    title = "Undercut"
    min_players = max_players = 2
    simultaneous = True
    defaults = {"rounds": 5}

    def setup(self, players: int, rng: random.Random) -> Table:
        return Table([None, None], [0, 0], [])

    def to_act(self, t: Table) -> list[int]:
        return [0, 1]

    def current_player(self, t: Table) -> int:
        return 1 if t.picks[0] is not None else 0

    def legal_actions(self, t: Table) -> list[int]:
        return [] if self.is_over(t) else list(CARDS)

    def action_text(self, t: Table, action: int) -> str:
        return f"pick {action}"

    def action_kind(self, t: Table, action: int) -> str:
        return f"pick {action}"  # each number is a kind of its own: "what if nobody ever picks 5?"

    def apply(self, t: Table, action: int) -> list[Any]:
        p = self.current_player(t)
        t.picks[p] = action
        events: list[Any] = [Note(f"{{player}} picks {action}.", seat=p, others="{player} has picked.")]
        if p == 0:
            return events
        a, b = t.picks[0] or 0, action
        winner = None if a == b else (0 if a < b else 1) if abs(a - b) == 1 else (0 if a > b else 1)
        if winner is not None:
            t.taken[winner] += 1
        how = "nobody takes the round" if winner is None else f"{{seat{winner}}} {'undercuts' if abs(a - b) == 1 else 'takes it'}"
        events.append(f"{{seat0}} shows {a}, {{seat1}} {b}: {how}.")
        t.rounds.append([a, b])
        t.picks = [None, None]
        return events

    def is_over(self, t: Table) -> bool:
        return len(t.rounds) >= int(self.rules["rounds"])

    def scores(self, t: Table) -> list[float]:
        return [float(x) for x in t.taken]

    def view(self, t: Table, seat: int | None) -> dict[str, Any]:
        # a pick not yet shown: {"sealed": card} to its seat (and the full table), "picked" to the other
        picks = [None if c is None else {"sealed": c} if seat is None or q == seat else "picked" for q, c in enumerate(t.picks)]
        return {"picks": picks, "taken": list(t.taken), "rounds": [list(r) for r in t.rounds], "of": self.rules["rounds"]}

    def public_view(self, t: Table) -> dict[str, Any]:
        return self.view(t, -1)

    def secrets(self, t: Table, seat: int) -> list[Any]:
        """A pick not yet shown, as its seat's view writes it."""
        return [] if t.picks[seat] is None else [{"sealed": t.picks[seat]}]

    def determinize(self, view: dict[str, Any], seat: int, rng: random.Random) -> Table:
        # A card this seat has not seen: any of the five (the hand is never spent).
        picks = [rng.choice(CARDS) if c == "picked" else None if c is None else c["sealed"] for c in view["picks"]]
        return Table(picks, list(view["taken"]), [list(r) for r in view["rounds"]])

    def board(self, view: dict[str, Any], seat: int | None) -> dict[str, Any]:
        def shown(q: int) -> list[dict[str, Any]]:
            c = view["picks"][q]
            if c is None:
                return []
            if c == "picked":
                return [{"id": f"pick {q}", "faces": [{"title": "picked"}], "down": True}]
            return [{"id": f"pick {q}", "faces": [{"title": "picked", "value": c["sealed"], "color": "teal"}]}]

        last = view["rounds"][-1] if view["rounds"] else None
        return {
            "status": f"Round {min(len(view['rounds']) + 1, view['of'])} of {view['of']}"
                      + (f"; last round: {last[0]} against {last[1]}" if last else ""),
            "seats": [{"seat": q, "counters": [{"label": "rounds taken", "value": view["taken"][q], "max": view["of"]}],
                       "zones": [{"id": f"hand {q}", "label": "Cards", "layout": "row",
                                  "cards": [{"id": f"card {q} {c}", "faces": [{"title": "card", "value": c, "color": "blue"}]}
                                            for c in CARDS]},
                                 {"id": f"table {q}", "label": "Picked", "layout": "row", "cards": shown(q),
                                  "empty": "not yet"}]}
                      for q in (0, 1)],
        }

    def click(self, t: Table, action: int) -> dict[str, Any]:
        return {"target": f"card {self.current_player(t)} {action}"}

    def how_to_play(self) -> dict[str, Any]:
        """The board's "?" panel: a short intro, then the rules."""
        rounds = self.rules["rounds"]
        return {
            "intro": f"The goal: take more of the {rounds} rounds than your opponent.\n\n"
                     "Each round you both pick a card from 1 to 5 at the same time: click one of your cards. Your pick "
                     "stays hidden until both have picked; then both are shown. The higher card wins, but a card exactly "
                     "one lower undercuts it.",
            "rules": [
                "Two players each hold the cards 1 to 5. A card picked goes back to the hand: every card can be picked "
                "in every round.",
                "Every round both players pick a card at the same time, face down. When both have picked, both cards "
                "are shown.",
                "The higher card takes the round, unless it is exactly one higher than the other: then the lower card "
                "undercuts it and takes the round (a 4 undercuts a 5, a 1 a 2). Equal cards: nobody takes the round.",
                f"After {rounds} rounds the player who took more rounds wins; equal counts share the win.",
            ],
        }
