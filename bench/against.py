"""This tree against a base revision, in one run: engine throughput, ``import kum_widget``
time and the board's click-to-redraw latency, side by side with their spread.

    make bench [BASE=<git revision>]         # about 5 minutes at the defaults
    .venv/bin/python bench/against.py [--base REV] [--rounds 3] [--seconds 2] [--slices 5] [--imports 5] [--moves 40]

The base (default: where this branch left main, ``git merge-base main HEAD``; on main itself,
``HEAD~1``) is checked out into a temporary git worktree with its own environment (its
uv.lock, ``uv sync`` from the warm cache, its front-end built by its own build), so each side
runs its own package with its own dependencies. This tree is the working tree as it is,
uncommitted changes included, in ``.venv``.

Each round measures the base and this tree in turn (the order flips every round, so a
machine that drifts moves both alike):

- **engine**: random Kings Under Mountains games (2 players) on the game's own protocol
  (``kum.core.game_class(...)``: setup, legal_actions, apply) and through the public
  ``kum.Game``, in ``--slices`` slices of ``--seconds / --slices`` each, actions/s a slice;
- **import**: ``import kum_widget`` in a fresh interpreter less a bare start-up, ``--imports``
  pairs a round (workloads.import_ms);
- **board**: latency.py (the same harness for both) on the TCP_NODELAY server: a hot-seat
  board (``kum.GameWidget``) in a real JupyterLab in Chromium, ``--moves`` clicks, each timed
  in the page from the click to the render of the new state.

Every figure uses only the public API, so the same harness measures both revisions. It prints
each round as it goes, then per figure each side's median with a 95% bootstrap interval
(the samples of all rounds pooled) and this tree's change against the base with its own
interval; then one JSON line. It asserts nothing: on a shared machine read an interval
that holds 0% as "no change measured", and run again when the load (printed) was high.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from checkout import ROOT, commit, describe, git, own_environment, worktree  # bench/ is the script's folder

HERE = "this tree"
# figure: (label, unit, higher is better)
FIGURES = {
    "core": ("engine, game protocol", "actions/s", True),
    "api": ("engine, kum.Game", "actions/s", True),
    "import": ("import kum_widget", "ms", False),
    "click": ("board click to redraw, median", "ms", False),
    "click_p95": ("board click to redraw, 95th pct", "ms", False),
}


# -- the measuring child: one side's engine and import figures, in that side's environment -----

def child(seconds: float, slices: int, imports: int) -> None:
    """Print one JSON line: the engine's actions/s a slice and the import times (ms)."""
    from workloads import Rate, import_ms, rules_step, session_step

    import kum_widget as kum

    rates = {
        "core": Rate(rules_step(kum.core.game_class("kings-under-mountains")(), 2, random.Random(0))),
        "api": Rate(session_step(lambda i: kum.Game(2, seed=i), random.Random(0))),
    }
    out: dict[str, list[float]] = {key: [] for key in (*rates, "import")}
    for _ in range(slices):
        for key, rate in rates.items():  # the two take turns, slice by slice
            actions, secs = rate.actions, rate.seconds
            rate.run(seconds / slices)
            out[key].append((rate.actions - actions) / (rate.seconds - secs))
    out["import"] = import_ms(imports, cwd=os.getcwd())
    print(json.dumps(out))


# -- the parent ---------------------------------------------------------------------------------

def default_base() -> str:
    """Where this branch left main; on main itself (or with no main), the commit before HEAD."""
    try:
        fork = git("merge-base", "main", "HEAD")
    except subprocess.CalledProcessError:
        fork = ""
    return fork if fork and fork != commit("HEAD") else "HEAD~1"


def clean_env() -> dict[str, str]:
    """Each side imports the package its own interpreter has installed: nothing on PYTHONPATH."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}


def last_json(cmd: list[str], tree: Path) -> Any:
    """``cmd`` run in ``tree``; its last line, as JSON (or a stop showing its error)."""
    result = subprocess.run(cmd, cwd=tree, env=clean_env(), capture_output=True, text=True, check=False)
    if result.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed in {tree} (exit {result.returncode}):\n{result.stderr[-4000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def engine(python: Path, tree: Path, args: argparse.Namespace) -> dict[str, list[float]]:
    cmd = [str(python), __file__, "--child", "--seconds", str(args.seconds), "--slices", str(args.slices),
           "--imports", str(args.imports)]
    return dict(last_json(cmd, tree))


def board(python: Path, tree: Path, moves: int) -> list[float]:
    """This checkout's latency.py, run by the side's interpreter (its kernel imports that side's package)."""
    cmd = [str(python), str(ROOT / "bench" / "latency.py"), "--moves", str(moves), "--server", "tcp_nodelay",
           "--json-only", "--no-state-size"]
    (run,) = last_json(cmd, tree)["runs"]
    return list(run["latencies_ms"])


def bootstrap(samples: dict[str, list[float]], stat: Callable[[list[float]], float], base: str,
              n: int = 2000) -> dict[str, Any]:
    """Each side's ``stat`` with a 95% percentile-bootstrap interval, and this tree's change
    against the base (a ratio, as a percentage) with its own; resampled with a fixed seed."""
    rng = random.Random(0)
    draws: dict[str, list[float]] = {}
    for name, xs in samples.items():
        draws[name] = sorted(stat(rng.choices(xs, k=len(xs))) for _ in range(n))
    change = sorted((h / b - 1) * 100 for h, b in zip(draws[HERE], draws[base], strict=True))
    out: dict[str, Any] = {name: (stat(xs), draws[name][int(0.025 * n)], draws[name][int(0.975 * n) - 1])
                           for name, xs in samples.items()}
    out["change_pct"] = ((stat(samples[HERE]) / stat(samples[base]) - 1) * 100, change[int(0.025 * n)], change[int(0.975 * n) - 1])
    return out


def fmt(x: float) -> str:
    return f"{x:,.0f}" if abs(x) >= 1000 else f"{x:.1f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--base", default=None, help="the revision to measure against (default: git merge-base main HEAD, on main HEAD~1)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=2.0, help="engine time per figure per round")
    ap.add_argument("--slices", type=int, default=5, help="engine slices per figure per round")
    ap.add_argument("--imports", type=int, default=5, help="import timings per round")
    ap.add_argument("--moves", type=int, default=40, help="board clicks per round")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.seconds, args.slices, args.imports)
        return
    from latency import pct  # (not in the child: it loads the browser harness)

    for name in ("rounds", "slices", "imports", "moves"):
        if getattr(args, name) < 1:
            ap.error(f"--{name} must be at least 1, got {getattr(args, name)}")
    if not args.seconds > 0:
        ap.error(f"--seconds must be more than 0, got {args.seconds}")
    base_rev = args.base or default_base()
    base = f"base {describe(base_rev).split()[0]}"
    here_python = ROOT / ".venv" / "bin" / "python"
    if not here_python.exists():
        raise SystemExit("this tree has no .venv: run `make env` first")
    wall = time.perf_counter()
    load_start = os.getloadavg()
    print(f"{HERE} ({ROOT}, uncommitted changes included) against {base_rev}: {describe(base_rev)}", flush=True)
    with worktree(base_rev) as tree:
        t = time.perf_counter()
        sides = {base: (own_environment(tree, sys.executable), tree), HERE: (here_python, ROOT)}
        print(f"  the base's environment made in {time.perf_counter() - t:.0f} s", flush=True)
        samples: dict[str, dict[str, list[float]]] = {name: {key: [] for key in FIGURES} for name in sides}
        clicks: dict[str, list[float]] = {name: [] for name in sides}
        for r in range(args.rounds):
            order = list(sides) if r % 2 == 0 else list(sides)[::-1]
            for name in order:
                load = os.getloadavg()[0]
                got = engine(*sides[name], args)
                for key in ("core", "api", "import"):
                    samples[name][key] += got[key]
                print(f"  round {r + 1} {name:>12} (load {load:.1f}): game protocol {fmt(statistics.median(got['core']))} "
                      f"actions/s, kum.Game {fmt(statistics.median(got['api']))} actions/s, import "
                      f"{statistics.median(got['import']):.1f} ms", flush=True)
            for name in order:
                load = os.getloadavg()[0]
                lat = board(*sides[name], args.moves)
                clicks[name] += lat
                print(f"  round {r + 1} {name:>12} (load {load:.1f}): board median {statistics.median(lat):.1f} ms, "
                      f"95th pct {pct(lat, 0.95):.1f} ms over {len(lat)} clicks", flush=True)
    for name in sides:
        samples[name]["click"] = samples[name]["click_p95"] = clicks[name]  # two statistics of one sample
    stats = {"click_p95": lambda xs: pct(xs, 0.95)}
    results: dict[str, Any] = {}
    print(f"\n{'figure':<34}{base:>30}{HERE:>30}{'change':>28}")
    for key, (label, unit, higher) in FIGURES.items():
        got = bootstrap({name: samples[name][key] for name in sides}, stats.get(key, statistics.median), base)
        results[key] = got
        cells = [f"{fmt(got[name][0])} [{fmt(got[name][1])}, {fmt(got[name][2])}]" for name in sides]
        c, lo, hi = got["change_pct"]
        better = "higher" if higher else "lower"
        print(f"{label + ', ' + unit:<34}{cells[0]:>30}{cells[1]:>30}{f'{c:+.1f}% [{lo:+.1f}, {hi:+.1f}]':>28}  ({better} is better)")
    n = {key: len(samples[HERE][key]) for key in ("core", "import", "click")}
    print(f"(medians, or the 95th percentile, of all rounds pooled, with 95% bootstrap intervals: {n['core']} engine slices, "
          f"{n['import']} imports, {n['click']} clicks a side; change = {HERE} / base - 1. Load average {load_start[0]:.1f} "
          f"at the start, {os.getloadavg()[0]:.1f} at the end; {os.cpu_count()} cores; Python {sys.version.split()[0]}; "
          f"wall {time.perf_counter() - wall:.0f} s)")
    print(json.dumps({"base": base_rev, "base_commit": commit(base_rev), "rounds": args.rounds,
                      "figures": {k: {name: [round(x, 2) for x in v] for name, v in got.items()} for k, got in results.items()},
                      "samples": {name: {k: v for k, v in s.items() if k != "click_p95"} for name, s in samples.items()}}))


if __name__ == "__main__":
    main()
