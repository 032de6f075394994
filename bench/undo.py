"""Undo and redo cost early and late in a game (issue 9: the same at step 10 and 200).

    python bench/undo.py [--repeat 300]

For each step, a random 2-player game played to that step, then: ``game.undo(1)`` +
``game.redo(1)`` (the engine), the same done the old way for comparison (replaying
every action from the start), and a board's Undo click (``GameWidget``, hot seat on one
screen: back to the previous human decision in one change) plus its Redo. Medians of
``--repeat`` rounds, in microseconds; beside them one board sync alone (drawing the
table, which grows as cards come out, not the undo). Prints a table and one JSON line.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import kum_widget as kum
from kum_widget.games.kum.rules import apply_id

STEPS = (10, 50, 100, 150, 200, 250)


def long_game(steps: int) -> kum.Game:
    """A random 2-player game at ``steps`` actions (seeds tried until one lasts that long)."""
    for seed in range(1000):
        game, rng = kum.Game(2, seed=seed), random.Random(seed)
        while not game.is_over and len(game.history) < steps:
            game.apply(rng.choice(game.legal_actions()))
        if len(game.history) == steps and not game.is_over:
            return game
    raise SystemExit(f"no game of {steps} actions found")


def median_us(fn: object, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e6


def measure(steps: int, repeat: int) -> dict[str, float | int]:
    game = long_game(steps)

    def engine() -> None:
        game.undo(1)
        game.redo(1)

    history = [int(a) for a in game.history[:-1]]

    def replay_from_start() -> None:  # what undo did before: the whole history again
        state = game.initial_state
        for aid in history:
            apply_id(state, aid, [])

    engine_us = median_us(engine, repeat)  # before a board listens to the game
    replay_us = median_us(replay_from_start, repeat)
    board = kum.GameWidget(game, bot_delay=0)  # two humans: hot seat
    sent: list[dict[str, object]] = []
    board._send = lambda msg, buffers=None: sent.append(msg)  # count what would reach the page

    def click(kind: str) -> None:
        board._on_browser_msg(board, {"kind": kind, "state_id": board.state_id, "id": "b"}, [])

    def board_undo_redo() -> None:
        click("undo")
        click("redo")

    sync_us = median_us(board._sync, max(20, repeat // 10))
    sent.clear()
    click("undo")
    updates = sum(1 for m in sent if m.get("method") == "update")
    click("redo")
    row = {
        "step": steps,
        "engine_undo_redo_us": round(engine_us, 1),
        "replay_from_start_us": round(replay_us, 1),
        "board_undo_redo_us": round(median_us(board_undo_redo, max(20, repeat // 10)), 1),
        "board_sync_alone_us": round(sync_us, 1),
        "updates_per_undo_click": updates,
    }
    board.close()
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=300)
    args = ap.parse_args()
    rows = [measure(steps, args.repeat) for steps in STEPS]
    print(f"{'step':>5} {'undo+redo (us)':>15} {'old replay (us)':>16} {'board Undo+Redo (us)':>21} {'one board sync (us)':>20} {'updates/click':>14}")
    for r in rows:
        print(f"{r['step']:>5} {r['engine_undo_redo_us']:>15} {r['replay_from_start_us']:>16} {r['board_undo_redo_us']:>21} "
              f"{r['board_sync_alone_us']:>20} {r['updates_per_undo_click']:>14}")
    first, last = rows[0], rows[-2]  # step 10 and step 200
    print(f"undo+redo at step {last['step']} / step {first['step']}: x{last['engine_undo_redo_us'] / first['engine_undo_redo_us']:.2f} "
          f"(replay from the start: x{last['replay_from_start_us'] / first['replay_from_start_us']:.1f})")
    print(json.dumps({"undo": rows}))


if __name__ == "__main__":
    main()
