"""Engine benchmark: random-play throughput, clone time, import time.

    python bench/engine.py [--seconds 3] [--json-only]

Prints one JSON object and a readable line. Single process, single core.
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

from workloads import import_ms  # bench/ is the script's folder

import kum_widget as kum
from kum_widget.games.kum.rules import apply_id, legal_ids
from kum_widget.games.kum.state import OVER, setup

ROOT = Path(__file__).resolve().parent.parent


def core_games(seconds: float, players: int = 2) -> tuple[int, int, float]:
    """Random games on the core protocol (int action ids): games, actions, elapsed."""
    rules = kum.Rules()
    names = [f"P{i}" for i in range(players)]
    rng = random.Random(0)
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        s = setup(rules, names, games)
        choice = rng.choice
        while s.phase != OVER:
            apply_id(s, choice(legal_ids(s)))
            actions += 1
        games += 1
    return games, actions, time.perf_counter() - start


def api_games(seconds: float, players: int = 2) -> tuple[int, int, float]:
    """Random games through the public Game API (action objects, events, history)."""
    rng = random.Random(0)
    games = actions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        g = kum.Game(players, seed=games)
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
            actions += 1
        games += 1
    return games, actions, time.perf_counter() - start


def clone_us(n: int = 20000) -> tuple[float, float]:
    """Microseconds per clone of a mid-game core State and of a Game."""
    g = kum.Game(2, seed=3)
    rng = random.Random(1)
    for _ in range(60):
        g.apply(rng.choice(g.legal_actions()))
    s = g.state
    t = time.perf_counter()
    for _ in range(n):
        s.clone()
    core = (time.perf_counter() - t) / n * 1e6
    t = time.perf_counter()
    for _ in range(n // 4):
        g.clone()
    return core, (time.perf_counter() - t) / (n // 4) * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="time per throughput measurement")
    ap.add_argument("--json-only", action="store_true")
    args = ap.parse_args()
    cg, ca, ct = core_games(args.seconds)
    ag, aa, at = api_games(args.seconds)
    core_clone, game_clone = clone_us()
    result = {
        "core_actions_per_s": round(ca / ct),
        "core_games_per_s_2p": round(cg / ct, 1),
        "api_actions_per_s": round(aa / at),
        "api_games_per_s_2p": round(ag / at, 1),
        "actions_per_game_2p": round(ca / cg, 1),
        "clone_state_us": round(core_clone, 2),
        "clone_game_us": round(game_clone, 2),
        "import_kum_widget_ms": round(statistics.median(import_ms(cwd=str(ROOT))), 1),
        "python": sys.version.split()[0],
    }
    print(json.dumps(result))
    if not args.json_only:
        print(
            f"core: {result['core_actions_per_s']:,} actions/s, {result['core_games_per_s_2p']:,} 2p games/s "
            f"({result['actions_per_game_2p']} actions/game) | Game API: {result['api_actions_per_s']:,} actions/s, "
            f"{result['api_games_per_s_2p']:,} games/s | clone: state {result['clone_state_us']} us, "
            f"Game {result['clone_game_us']} us | import kum_widget: {result['import_kum_widget_ms']} ms"
        )


if __name__ == "__main__":
    main()
