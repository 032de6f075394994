"""Board latency of this tree against an earlier commit, in the same minutes.

    python bench/latency_against.py [--rev 138ebdb] [--rounds 3] [--moves 40]

Checks ``--rev`` out into a temporary git worktree, builds its front-end with this
checkout's esbuild, then runs this checkout's ``latency.py --json-only`` on the earlier
package and on this one in turn, ``--rounds`` times each (the kernel imports the package
PYTHONPATH names, with its bundles). Interleaving the runs puts both under the same load, which a
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
import tempfile
from pathlib import Path
from typing import Any

from latency import ROOT, pct  # the harness's own percentile (bench/ is the script's folder)

ESBUILD = ROOT / "node_modules" / ".bin" / "esbuild"


def build(tree: Path) -> None:
    """The tree's bundles, as its own package.json's build script makes them."""
    script = json.loads((tree / "package.json").read_text())["scripts"]["build"]
    subprocess.run(script.replace("esbuild ", f"{ESBUILD} "), shell=True, cwd=tree, check=True, capture_output=True)


def run(tree: Path, moves: int) -> dict[str, dict[str, Any]]:
    """This checkout's latency.py (one harness for both) on ``tree``'s package: the kernel and
    the board's bundles are the ones PYTHONPATH finds first."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "latency.py"), "--moves", str(moves), "--json-only"],
                         cwd=ROOT, env=env, check=True, capture_output=True, text=True).stdout
    runs = json.loads(out.strip().splitlines()[-1])["runs"]
    return {r["server"]: r for r in runs}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rev", default="138ebdb", help="the earlier commit (default: the board before its live view)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--moves", type=int, default=40)
    args = ap.parse_args()
    if not ESBUILD.exists():
        sys.exit("esbuild is missing: run `make env` first")
    with tempfile.TemporaryDirectory(prefix="kum-latency-") as tmp:
        earlier = Path(tmp) / "earlier"
        subprocess.run(["git", "worktree", "add", "--detach", str(earlier), args.rev], cwd=ROOT, check=True, capture_output=True)
        try:
            build(earlier)
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
                    pooled = [v for x in seen[name] for v in x[server].get("latencies_ms", [])]
                    if pooled:  # (an earlier tree's latency.py may not give each move's)
                        line += (f"; all {len(pooled)} moves pooled: median {statistics.median(pooled):.1f} ms, "
                                 f"p95 {pct(pooled, 0.95):.1f} ms")
                    print(line)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(earlier)], cwd=ROOT, check=False, capture_output=True)


if __name__ == "__main__":
    main()
