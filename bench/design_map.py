"""Design-map benchmark: ``kum.lab.design_map`` of Kings Under Mountains (2 players, greedy
bots) on 2 lab worker processes. First the full map: hand_size 3..12 by mines 2..11, 200
games a cell, the first player's edge (20,000 games as one stream; the goal: under 60 s on
2 cores); then every other measure (length, decisions, drama) on a smaller grid.

    python bench/design_map.py [--quick] [--executor 2] [--png /tmp/design_map_kum.png] [--json-only]

``--quick``: a 4 x 4 map of 50 games a cell, the other measures on 2 x 2 of 20. Prints the
wall time of each map, the games a second, the machine's load (os.getloadavg(): other
work on the machine slows every wall time) and the CPU seconds of this process and of the
worker processes (which load does not change much), then one JSON object. Asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
import warnings
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import kum_widget as kum

FULL = {"x": ("hand_size", list(range(3, 13))), "y": ("mines", list(range(2, 12))), "games": 200}
QUICK = {"x": ("hand_size", [4, 6, 8, 10]), "y": ("mines", [3, 4, 5, 6]), "games": 50}
SMALL = {"x": ("hand_size", [4, 6, 8]), "y": ("mines", [3, 4, 5]), "games": 100}
TINY = {"x": ("hand_size", [4, 8]), "y": ("mines", [3, 5]), "games": 20}
OTHERS: dict[str, dict[str, Any]] = {"length": {"target": (60, 100)}, "decisions": {"goal": 0.5}, "drama": {"goal": 1.0}}


def one(measure: str, grid: dict[str, Any], executor: Any, **kw: Any) -> tuple[dict[str, Any], Any]:
    load = os.getloadavg()[0]
    me, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # games past max_actions are counted in the table, not printed here
        r = kum.lab.design_map("kings-under-mountains", measure=measure, executor=executor, progress=False, **grid, **kw)
    wall = time.perf_counter() - t0
    # CPU seconds: of this process, and of the worker processes (ended and waited for by now): what the
    # map costs whatever else the machine runs; on an idle machine the wall time nears the larger of the
    # parent's and the workers' over their number
    me_s = _cpu(resource.getrusage(resource.RUSAGE_SELF)) - _cpu(me)
    workers_s = _cpu(resource.getrusage(resource.RUSAGE_CHILDREN)) - _cpu(workers)
    cells = len(grid["x"][1]) * len(grid["y"][1])
    games = cells * grid["games"]
    return {"measure": measure, "cells": cells, "games_a_cell": grid["games"], "games": games, "wall_s": round(wall, 1),
            "games_per_s": round(games / wall), "cpu_parent_s": round(me_s, 1), "cpu_workers_s": round(workers_s, 1),
            "cpu_ms_a_game": round(1000 * (me_s + workers_s) / games, 2), "load_before": round(load, 2), "load_after": round(os.getloadavg()[0], 2),
            "blank_cells": int(r.table["failed"].notna().sum()), "reading": r.reading}, r


def _cpu(usage: Any) -> float:
    return float(usage.ru_utime + usage.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--executor", type=int, default=2)
    ap.add_argument("--png", default=None, help="save the first map's figure here")
    ap.add_argument("--json-only", action="store_true")
    args = ap.parse_args()
    out: dict[str, Any] = {"cores": os.cpu_count(), "executor": args.executor, "quick": args.quick, "runs": []}
    first, rest = (QUICK, TINY) if args.quick else (FULL, SMALL)
    for measure, grid, kw in [("first_player_edge", first, {}), *((m, rest, OTHERS[m]) for m in OTHERS)]:
        run, result = one(measure, grid, args.executor, **kw)
        out["runs"].append(run)
        if measure == "first_player_edge" and args.png:
            result.figure.savefig(args.png, dpi=110)
        if not args.json_only:
            print(f"{measure:18} {run['cells']:3} cells x {run['games_a_cell']:3} games: {run['wall_s']:6.1f} s "
                  f"({run['games_per_s']} games/s)  load {run['load_before']:.1f} -> {run['load_after']:.1f}  "
                  f"CPU: parent {run['cpu_parent_s']} s, workers {run['cpu_workers_s']} s ({run['cpu_ms_a_game']} ms a game)")
            print(f"{'':18} {run['reading']}")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
