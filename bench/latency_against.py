"""Board latency of this tree against an earlier commit, in the same minutes.

    python bench/latency_against.py [--rev 138ebdb] [--rounds 3] [--moves 40]

Checks ``--rev`` out into a temporary git worktree, builds its front-end with this
checkout's esbuild (checkout.py), then runs this checkout's ``latency.py --json-only`` on the
earlier package and on this one in turn, ``--rounds`` times each, in this tree's environment
(the kernel imports the package PYTHONPATH names, with its bundles). ``make bench``
(against.py) measures the TCP_NODELAY server the same way, each side in its own environment. Interleaving the runs puts both under the same load, which a
shared machine moves more than any change to the board does. Prints each run's median,
95th percentile and websocket bytes a move (the TCP_NODELAY server and the stock one),
then the medians of those over the rounds and the figures of all the moves pooled.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from checkout import ROOT, build_front_end, importing, worktree  # bench/ is the script's folder
from latency import pct  # the harness's own percentile


def run(tree: Path, moves: int) -> dict[str, dict[str, Any]]:
    """This checkout's latency.py (one harness for both) on ``tree``'s package: the kernel and
    the board's bundles are the ones PYTHONPATH finds first."""
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "latency.py"), "--moves", str(moves), "--json-only"],
                         cwd=ROOT, env=importing(tree), check=True, capture_output=True, text=True).stdout
    runs = json.loads(out.strip().splitlines()[-1])["runs"]
    return {r["server"]: r for r in runs}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rev", default="138ebdb", help="the earlier commit (default: the board before its live view)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--moves", type=int, default=40)
    args = ap.parse_args()
    with worktree(args.rev, prefix="kum-latency-") as earlier:
        build_front_end(earlier)
        trees = {f"{args.rev}": earlier, "this tree": ROOT}
        seen: dict[str, list[dict[str, dict[str, Any]]]] = {name: [] for name in trees}
        for r in range(1, args.rounds + 1):
            for name, tree in trees.items():
                load = os.getloadavg()[0]
                runs = run(tree, args.moves)
                seen[name].append(runs)
                print(f"round {r} {name:>10} (load {load:.1f}): " + "; ".join(
                    f"{server} median {x['median_ms']} ms, p95 {x['p95_ms']} ms, {x['ws_bytes_per_move_median']} B/move"
                    for server, x in runs.items()), flush=True)
        for server in ("tcp_nodelay", "stock"):
            for name in trees:
                med = statistics.median(x[server]["median_ms"] for x in seen[name])
                p95 = statistics.median(x[server]["p95_ms"] for x in seen[name])
                line = f"{server:>11} {name:>10}: median of medians {med:.1f} ms, median p95 {p95:.1f} ms over {args.rounds} rounds"
                pooled = [v for x in seen[name] for v in x[server]["latencies_ms"]]
                line += f"; all {len(pooled)} moves pooled: median {statistics.median(pooled):.1f} ms, p95 {pct(pooled, 0.95):.1f} ms"
                print(line)


if __name__ == "__main__":
    main()
