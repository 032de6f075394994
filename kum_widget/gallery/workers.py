"""Woodcutters: a tiny worker-placement game for two on the generic board.

Each player has three meeples (option ``workers``: 2 or 3); in turn, place one on a space with
room left and take its effect at once: wood, stone, points, or the next round's first turn. When
every meeple is out, the round ends and all come home. The game ends after a round in which someone
reached the goal (12 points), or after round 8; the most points wins. The Market is a menu."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from kum_widget import core

COLORS = ("red", "blue")
# id, label, glyph, colour, capacity; forest, quarry and hall need nothing and hold a round's meeples
SPACES = (("forest", "Forest", "♣", "green", 3), ("quarry", "Quarry", "▲", "gray", 2), ("hall", "Town hall", "⚑", "purple", 1),
          ("market", "Market", "⚖", "gold", 1), ("builder", "Builder", "⌂", "orange", 1))
# action id -> (space, effect text, wood, stone, points): costs are negative
EFFECTS = {0: ("forest", "+2 wood", 2, 0, 0), 10: ("quarry", "+1 stone", 0, 1, 0), 20: ("hall", "+1 point, first next round", 0, 0, 1),
           30: ("market", "sell 3 wood for 2 points", -3, 0, 2), 31: ("market", "sell 2 stone for 3 points", 0, -2, 3),
           40: ("builder", "2 wood + 1 stone: 4 points", -2, -1, 4)}
LABELS = {space: label for space, label, *_ in SPACES}


@dataclass
class YardState:
    home: list[int]  # meeples not yet placed this round, per seat
    placed: dict[str, list[int]] = field(default_factory=lambda: {sp[0]: [] for sp in SPACES})  # seats, in order
    wood: list[int] = field(default_factory=lambda: [1, 1])
    stone: list[int] = field(default_factory=lambda: [0, 0])
    points: list[int] = field(default_factory=lambda: [0, 0])
    turn: int = 0
    first: int = 0
    next_first: int | None = None
    round: int = 1
    over: bool = False


class Woodcutters(core.CardGame):
    name = "woodcutters"
    title = "Woodcutters"
    min_players, max_players = 2, 2
    perfect_information = True
    fair_heuristic = True
    defaults = {"workers": 3, "goal": 12, "rounds": 8}

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        if self.rules["workers"] not in (2, 3):
            raise core.InvalidOptionError(f"workers must be 2 or 3, got {self.rules['workers']}")

    def setup(self, players: int, rng: random.Random) -> YardState:
        return YardState(home=[self.rules["workers"]] * 2)

    def current_player(self, s: YardState) -> int:
        return s.turn

    def legal_actions(self, s: YardState) -> list[int]:
        if s.over:
            return []
        room = {space: cap - len(s.placed[space]) for space, _, _, _, cap in SPACES}
        p = s.turn
        return [a for a, (space, _, wood, stone, _) in EFFECTS.items()
                if room[space] > 0 and s.wood[p] + wood >= 0 and s.stone[p] + stone >= 0]

    def apply(self, s: YardState, action: int) -> list[Any]:
        space, effect, wood, stone, points = EFFECTS[action]
        p = s.turn
        s.home[p] -= 1
        s.placed[space].append(p)
        s.wood[p] += wood
        s.stone[p] += stone
        s.points[p] += points
        if space == "hall":
            s.next_first = p
        events: list[Any] = [core.Note(f"{{player}} sends a worker to the {LABELS[space]}: {effect}.", seat=p)]
        if s.home[1 - p]:
            s.turn = 1 - p
        elif not s.home[p]:  # every meeple is out: the round ends
            if max(s.points) >= self.rules["goal"] or s.round == self.rules["rounds"]:
                s.over = True
                return [*events, core.Note(f"The game ends after round {s.round}.")]
            s.first = s.next_first if s.next_first is not None else 1 - s.first
            s.turn, s.next_first, s.round = s.first, None, s.round + 1
            s.home = [self.rules["workers"]] * 2
            s.placed = {sp[0]: [] for sp in SPACES}
            events.append(core.Note(f"Round {s.round} begins: the workers come home."))
        return events

    def is_over(self, s: YardState) -> bool:
        return s.over

    def scores(self, s: YardState) -> list[float]:
        return [float(x) for x in s.points]

    def view(self, s: YardState, seat: int | None) -> dict[str, Any]:
        return {"home": s.home[:], "placed": {k: v[:] for k, v in s.placed.items()}, "wood": s.wood[:], "stone": s.stone[:],
                "points": s.points[:], "turn": s.turn, "round": s.round, "over": s.over}

    def action_text(self, s: YardState, action: int) -> str:
        if action not in EFFECTS:
            raise core.IllegalMoveError(f"{action!r} is not an action of Woodcutters")
        space, effect, *_ = EFFECTS[action]
        return f"{LABELS[space]}: {effect}"

    def action_kind(self, s: YardState, action: int) -> str:  # what "what wins" asks of: each space
        return LABELS[EFFECTS[action][0]]

    def heuristic(self, s: YardState, actions: list[int]) -> list[float]:
        worth = {0: 1.2, 10: 1.0, 20: 1.5, 30: 2.0, 31: 3.0, 40: 4.0}
        return [worth[a] for a in actions]

    # -- the board ---------------------------------------------------------------------

    def board(self, view: dict[str, Any], seat: int | None) -> dict[str, Any]:
        def meeple(p: int, i: int) -> dict[str, Any]:
            return {"id": f"worker {p} {i}", "shape": "meeple", "color": COLORS[p], "title": f"{COLORS[p]} worker"}

        out = [0, 0]  # meeples of each seat on the board, to number them
        places = []
        for space, label, glyph, color, cap in SPACES:
            held = []
            for p in view["placed"][space]:
                held.append(meeple(p, out[p]))
                out[p] += 1
            effects = [e for _, (sp, e, *_) in sorted(EFFECTS.items()) if sp == space]
            places.append({"id": space, "label": label, "glyph": glyph, "color": color, "capacity": cap,
                           "text": " or ".join(effects), "pieces": held})

        def stock(p: int) -> list[dict[str, Any]]:
            return [{"id": f"wood {p}", "shape": "cube", "color": "#8b5a2b", "text": view["wood"][p], "title": f"{view['wood'][p]} wood"},
                    {"id": f"stone {p}", "shape": "cube", "color": "gray", "text": view["stone"][p], "title": f"{view['stone'][p]} stone"}]

        return {
            "zones": [{"id": "yard", "label": "Action spaces", "layout": "places", "color": "#7a5a3a", "places": places,
                       "counters": [{"label": "round", "value": view["round"], "max": self.rules["rounds"]}],
                       "badges": [{"text": f"goal: {self.rules['goal']} points", "color": "gold"}]}],
            "seats": [{"seat": p, "counters": [{"label": "points", "value": view["points"][p], "max": self.rules["goal"]}],
                       "zones": [{"id": f"home {p}", "label": "Workers at home", "empty": "all out",
                                  "pieces": [meeple(p, out[p] + i) for i in range(view["home"][p])]},
                                 {"id": f"stock {p}", "label": "Stock", "pieces": stock(p)}]}
                      for p in range(2)],
        }

    def click(self, s: YardState, action: int) -> dict[str, Any]:
        space, effect, *_ = EFFECTS[action]
        return {"target": space, "choice": effect} if space == "market" else {"target": space}

    def how_to_play(self) -> dict[str, Any]:
        """The board's "?" panel: a short intro, then the rules (read from the spaces and the options)."""
        goal, rounds = self.rules["goal"], self.rules["rounds"]
        spaces = "; ".join(f"{label} (room for {cap}): {' or '.join(e for sp, e, *_ in EFFECTS.values() if sp == space)}"
                           for space, label, _, _, cap in SPACES)
        return {
            "intro": f"The goal: the most points when the game ends, after a round in which someone reached {goal} "
                     f"points, or after round {rounds}.\n\n"
                     "Your turn: send one worker to an action space with room left (click the space) and take its "
                     "effect at once: wood, stone, points, or the first turn of the next round. The Market is a menu "
                     "of two trades.",
            "rules": [
                f"Each player has {self.rules['workers']} workers and starts with 1 wood. In turn, each places one "
                "worker on an action space with room left (its empty slots show the room) and takes its effect at once.",
                f"The spaces: {spaces}.",
                "When every worker is out, the round ends and all come home. Whoever took the Town hall goes first "
                "in the next round; otherwise the first turn passes to the other player.",
                f"The game ends after a round in which someone reached {goal} points, or after round {rounds}; the "
                "most points wins (equal points share the win).",
            ],
        }
