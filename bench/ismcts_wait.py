"""What a player waits for an ISMCTS decision at the default budget, and the share of it
Python's garbage collector takes.

    .venv/bin/python bench/ismcts_wait.py [--decisions 100] [--json]

The default bot decides every 9th turn with a real choice in Kings Under Mountains (2
players) and every 2nd in the court, RandomBot playing the turns between (as in
``peer.py`` and ``speedup.py``), the two games taking turns five decisions at a time.
The collector runs as the program left it (the bot never touches it); ``gc.callbacks``
only watch it: how many collections of each generation ran during the timed decisions,
how long they took, and what they freed.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from workloads import decision_times  # bench/ is on the path

import kum_widget as kum


class Collections:
    """The collector's work while ``on``: per generation, collections, seconds, objects freed."""

    def __init__(self) -> None:
        self.on = False
        self.by_generation = {g: [0, 0.0, 0] for g in range(3)}
        self._start = 0.0
        gc.callbacks.append(self._seen)

    def _seen(self, phase: str, info: dict[str, Any]) -> None:
        if not self.on:
            return
        if phase == "start":
            self._start = time.perf_counter()
        else:
            row = self.by_generation[info["generation"]]
            row[0] += 1
            row[1] += time.perf_counter() - self._start
            row[2] += info["collected"]

    def close(self) -> None:
        gc.callbacks.remove(self._seen)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decisions", type=int, default=100, help="decisions timed on each game")
    ap.add_argument("--json", action="store_true", help="also print the figures as one JSON object")
    args = ap.parse_args()
    if args.decisions < 1:
        ap.error(f"--decisions must be at least 1, got {args.decisions}")
    games = {"kum": decision_times(lambda i: kum.Game(2, seed=i), 9), "court": decision_times(lambda i: kum.Court(seed=i), 2)}
    for decisions in games.values():
        next(decisions)  # warm-up, untimed
    watch = {name: Collections() for name in games}
    times: dict[str, list[float]] = {name: [] for name in games}
    while any(len(t) < args.decisions for t in times.values()):
        for name, decisions in games.items():
            for _ in range(min(5, args.decisions - len(times[name]))):
                watch[name].on = True
                times[name].append(next(decisions))
                watch[name].on = False
    out: dict[str, Any] = {}
    print(f"ISMCTS at the default budget, {args.decisions} decisions a game; Python {sys.version.split()[0]}, "
          f"collector {'on' if gc.isenabled() else 'off'}, thresholds {gc.get_threshold()}")
    print(f"{'game':<6} {'median':>8} {'p10':>8} {'p90':>8} {'mean':>8}  in collections (gen 0/1/2: count, ms)")
    for name, t in times.items():
        t.sort()
        seconds = sum(t)
        gen = watch[name].by_generation
        in_gc = sum(row[1] for row in gen.values())
        p10, p90 = t[len(t) // 10], t[min(len(t) - 1, 9 * len(t) // 10)]
        parts = " / ".join(f"{row[0]}, {row[1] * 1000:.0f}" for row in gen.values())
        print(f"{name:<6} {statistics.median(t) * 1000:6.1f}ms {p10 * 1000:6.1f}ms {p90 * 1000:6.1f}ms {statistics.mean(t) * 1000:6.1f}ms"
              f"  {in_gc / seconds:.1%} of the time ({parts}; freed {sum(row[2] for row in gen.values())} objects)")
        out[name] = {"median_s": round(statistics.median(t), 4), "p10_s": round(p10, 4), "p90_s": round(p90, 4),
                     "mean_s": round(statistics.mean(t), 4), "gc_share": round(in_gc / seconds, 4),
                     "collections": {g: {"count": row[0], "seconds": round(row[1], 4), "freed": row[2]} for g, row in gen.items()}}
    for w in watch.values():
        w.close()
    if args.json:
        print(json.dumps(out))


if __name__ == "__main__":
    main()
