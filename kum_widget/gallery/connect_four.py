"""Connect Four on the generic board: a frame of round holes, red and gold discs.

Seven columns of six. On your turn drop a disc into a column that is not full: it falls
to the lowest free hole. Four of your discs in a line (across, up, or diagonal) win; a
full frame is a draw. The board is one "cells" zone whose cells are grouped by column, so
a click on any hole of a column drops a disc there.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from kum_widget import core

ROWS, COLUMNS = 6, 7  # row 0 is the top
COLORS = ("red", "gold")
LINES = ((0, 1), (1, 0), (1, 1), (1, -1))  # across, down, and both diagonals


@dataclass
class FourState:
    grid: list[list[int | None]] = field(default_factory=lambda: [[None] * COLUMNS for _ in range(ROWS)])
    turn: int = 0
    winner: int | None = None
    line: list[tuple[int, int]] = field(default_factory=list)  # the winning four
    moves: int = 0


def landing(grid: list[list[int | None]], col: int) -> int:
    """The row a disc dropped into ``col`` stops at (-1: the column is full)."""
    return next((r for r in range(ROWS - 1, -1, -1) if grid[r][col] is None), -1)


def four(grid: list[list[int | None]], row: int, col: int) -> list[tuple[int, int]]:
    """The line of four or more through (row, col) of its disc's colour, or []."""
    who = grid[row][col]
    for dr, dc in LINES:
        run = [(row, col)]
        for sign in (1, -1):
            r, c = row + sign * dr, col + sign * dc
            while 0 <= r < ROWS and 0 <= c < COLUMNS and grid[r][c] == who:
                run.append((r, c))
                r, c = r + sign * dr, c + sign * dc
        if len(run) >= 4:
            return sorted(run)
    return []


class ConnectFour(core.CardGame):
    name = "connect-four"
    title = "Connect Four"
    min_players, max_players = 2, 2
    perfect_information = True
    fair_heuristic = True  # the heuristic reads the grid, which both players see
    # "What wins" asks of each column (kum.lab.what_wins); the board is symmetric, so
    # columns 1 and 7, 2 and 6, 3 and 5 are mirror images.
    mirror_kinds = (("column 1", "column 7"), ("column 2", "column 6"), ("column 3", "column 5"))

    def setup(self, players: int, rng: random.Random) -> FourState:
        return FourState()

    def current_player(self, s: FourState) -> int:
        return s.turn

    def legal_actions(self, s: FourState) -> list[int]:
        if self.is_over(s):
            return []
        return [c for c in range(COLUMNS) if s.grid[0][c] is None]

    def apply(self, s: FourState, action: int) -> list[Any]:
        row = landing(s.grid, action)
        p = s.turn
        s.grid[row][action] = p
        s.moves += 1
        s.turn = 1 - p
        s.line = four(s.grid, row, action)
        if s.line:
            s.winner = p
            return [core.Note(f"{{player}} drops a {COLORS[p]} disc in column {action + 1} and connects four!", seat=p)]
        return [core.Note(f"{{player}} drops a {COLORS[p]} disc in column {action + 1}.", seat=p)]

    def is_over(self, s: FourState) -> bool:
        return s.winner is not None or s.moves == ROWS * COLUMNS

    def scores(self, s: FourState) -> list[float]:
        if s.winner is not None:
            return [1.0 if p == s.winner else 0.0 for p in range(2)]
        return [0.5, 0.5] if self.is_over(s) else [0.0, 0.0]

    def view(self, s: FourState, seat: int | None) -> dict[str, Any]:
        return {"grid": [row[:] for row in s.grid], "turn": s.turn, "winner": s.winner, "line": [list(x) for x in s.line], "moves": s.moves}

    def action_text(self, s: FourState, action: int) -> str:
        if not (isinstance(action, int) and 0 <= action < COLUMNS):
            raise core.IllegalMoveError(f"{action!r} is not a column of Connect Four (0..{COLUMNS - 1})")
        return f"drop in column {action + 1}"

    def action_kind(self, s: FourState, action: int) -> str:
        return f"column {action + 1}"

    def heuristic(self, s: FourState, actions: list[int]) -> list[float]:
        """Win now, else block the opponent's four, else play near the middle."""
        scores = []
        for col in actions:
            row, score = landing(s.grid, col), -abs(3 - col) / 10
            for who, worth in ((s.turn, 100.0), (1 - s.turn, 50.0)):
                s.grid[row][col] = who
                if four(s.grid, row, col):
                    score = max(score, worth)
                s.grid[row][col] = None
            scores.append(score)
        return scores

    # -- the board ---------------------------------------------------------------------

    def board(self, view: dict[str, Any], seat: int | None) -> dict[str, Any]:
        line = {tuple(x) for x in view["line"]}
        placed = [sum(row.count(p) for row in view["grid"]) for p in range(2)]

        def disc(r: int, c: int, who: int) -> dict[str, Any]:
            return {"id": f"disc {r} {c}", "shape": "disc", "color": COLORS[who], "marked": (r, c) in line}

        cells = [{"id": f"hole {r} {c}", "row": r, "col": c, "group": f"column {c}",
                  "title": f"column {c + 1}, row {ROWS - r}",
                  "pieces": [] if view["grid"][r][c] is None else [disc(r, c, view["grid"][r][c])]}
                 for r in range(ROWS) for c in range(COLUMNS)]
        return {
            "zones": [{"id": "frame", "layout": "cells", "rows": ROWS, "columns": COLUMNS, "cell_shape": "round",
                       "color": "blue", "size": "large", "cells": cells}],
            "seats": [{"seat": p, "zones": [{"id": f"discs {p}", "label": f"{COLORS[p]} discs",
                                             "pieces": [{"id": f"colour {p}", "shape": "disc", "color": COLORS[p]}],
                                             "counters": [{"label": "left", "value": ROWS * COLUMNS // 2 - placed[p]}]}]}
                      for p in range(2)],
        }

    def click(self, s: FourState, action: int) -> dict[str, Any]:
        return {"target": f"column {action}"}

    def how_to_play(self) -> dict[str, Any]:
        """The board's "?" panel: a short intro, then the rules."""
        return {
            "intro": "The goal: four of your discs in a line, across, up and down, or diagonally.\n\n"
                     "Your turn: click any hole of a column that is not full (or choose it by keyboard and press "
                     "Enter): your disc drops to the lowest free hole of that column.",
            "rules": [
                f"Two players, {COLORS[0]} and {COLORS[1]}, take turns dropping one disc each into an upright frame of "
                f"{COLUMNS} columns of {ROWS} holes; {COLORS[0]} goes first.",
                "A disc falls to the lowest free hole of its column. A full column takes no more discs.",
                "The first player with four discs in a line, across, up and down, or diagonally, wins; the winning four "
                "are marked. A full frame with no four is a draw.",
            ],
        }
