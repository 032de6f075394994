"""A game on the core that may never end, for the lab's step-limit tests.

It lives in its own module (not in a test) so that ``simulate(executor=2)`` workers and
dask workers can import it; importing it registers it as ``"endless"``.

Each seat in turn says 0 or 1 for ever. Options:

- ``share`` (default 1.0): the share of games that never end (drawn from the game's
  seed, so the same seed always gives the same answer); the others end after
  ``length`` actions.
- ``length`` (default 6): how long a game that ends lasts.
- ``pause`` (default 0.0): seconds each action takes (a slow game).
- ``mark`` (default ""): a folder; the first action of every game writes a file there
  named after the process, so a test can see that workers are playing.
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kum_widget import core


@dataclass
class EndlessState:
    players: int
    endless: bool
    length: int
    moves: int = 0


@core.register
class Endless(core.CardGame):
    name = "endless"
    title = "Endless"
    min_players, max_players = 1, 4
    perfect_information = True
    defaults = {"share": 1.0, "length": 6, "pause": 0.0, "mark": ""}

    def setup(self, players: int, rng: random.Random) -> EndlessState:
        return EndlessState(players, rng.random() < self.rules["share"], self.rules["length"])

    def current_player(self, s: EndlessState) -> int:
        return s.moves % s.players

    def legal_actions(self, s: EndlessState) -> list[int]:
        return [] if self.is_over(s) else [0, 1]

    def apply(self, s: EndlessState, action: int) -> list[Any]:
        if s.moves == 0 and self.rules["mark"]:
            (Path(self.rules["mark"]) / str(os.getpid())).touch()
        if self.rules["pause"]:
            time.sleep(self.rules["pause"])
        s.moves += 1
        return [f"said {action}"]

    def is_over(self, s: EndlessState) -> bool:
        return not s.endless and s.moves >= s.length

    def scores(self, s: EndlessState) -> list[float]:
        return [0.0] * s.players

    def view(self, s: EndlessState, seat: int | None) -> dict[str, Any]:
        return {"moves": s.moves, "players": s.players}
