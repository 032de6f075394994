"""This tree against a base revision, in one run: engine throughput, ``import kum_widget``
time and the board's click-to-redraw latency, side by side with their spread.

    make bench [BASE=<git revision>]         # about 7 minutes at the defaults
    .venv/bin/python bench/against.py [--base REV] [--rounds 3] [--seconds 2] [--slices 5] [--imports 5] [--moves 40]

The base (default: where this branch left main, ``git merge-base main HEAD``; on main itself,
``HEAD~1``) is checked out into a temporary git worktree with its own environment (its
uv.lock, ``uv sync`` from the warm cache, its front-end built by its own build), so each side
runs its own package with its own dependencies. This tree is the working tree as it is,
uncommitted changes included, in ``.venv``.

The two sides take turns at every step, the order flipping each time, so that a machine whose
speed drifts moves both alike:

- **engine**: random Kings Under Mountains games (2 players) on the game's own protocol
  (``kum.core.game_class(...)``: setup, legal_actions, apply) and through the public
  ``kum.Game``: each side's measuring process, kept for the run, plays ``--slices`` slices of
  ``--seconds / --slices`` a round and figure, the sides alternating slice by slice;
  actions/s a slice;
- **import**: ``import kum_widget`` in a fresh interpreter less a bare start-up
  (workloads.import_ms), ``--imports`` pairs a round, the sides alternating pair by pair;
- **board**: latency.py (the same harness for both, run by each side's interpreter) on the
  TCP_NODELAY server: a hot-seat board (``kum.GameWidget``) in a real JupyterLab in Chromium,
  ``--moves`` clicks a round and side, each timed in the page from the click to the render of
  the new state; the sides alternating run by run.

Every figure uses only the public API, so the same harness measures both revisions. It prints
each round as it goes, then per figure: each side's median (the board's 95th percentile too)
over all its samples, with a 95% bootstrap interval of the samples; and this tree's change
against the base, the median of the changes within each block of adjacent measurements (a
slice pair, an import pair, a round's two board runs), with a 95% bootstrap interval over the
blocks (with 3 rounds, the board's is about the range of its 3). Then one JSON line. It asserts
nothing: read a change whose interval holds 0% as no change measured, and on a loaded machine
(the load average is printed) run again with more ``--rounds``.
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


# -- the measuring child: one side's engine, in that side's environment, kept for the run ----

def child() -> None:
    """Answer the parent, one JSON line a request, until stdin closes: ``core 0.4`` (or ``api``)
    plays that figure's games for that many seconds and answers its actions/s."""
    from workloads import Rate, rules_step, session_step

    protocol, sys.stdout = sys.stdout, sys.stderr  # a stray print in either revision must not break the answers
    import kum_widget as kum

    rates = {
        "core": Rate(rules_step(kum.core.game_class("kings-under-mountains")(), 2, random.Random(0))),
        "api": Rate(session_step(lambda i: kum.Game(2, seed=i), random.Random(0))),
    }
    protocol.write("ready\n")
    protocol.flush()
    for line in sys.stdin:
        key, seconds = line.split()
        rate = rates[key]
        actions, secs = rate.actions, rate.seconds
        rate.run(float(seconds))
        protocol.write(json.dumps((rate.actions - actions) / (rate.seconds - secs)) + "\n")
        protocol.flush()


class Engine:
    """One side's measuring child, importing that side's package."""

    def __init__(self, python: Path, tree: Path) -> None:
        # stderr is ours: a child's warnings and a traceback show as they come
        self.proc = subprocess.Popen([str(python), __file__, "--child"], cwd=tree, env=clean_env(),
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.tree = tree
        self._read()

    def _read(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            self.proc.wait()
            raise SystemExit(f"the engine's measuring process in {self.tree} failed (exit {self.proc.returncode}; its error is above)")
        return line

    def rate(self, key: str, seconds: float) -> float:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{key} {seconds}\n")
        self.proc.stdin.flush()
        return float(json.loads(self._read()))

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()


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


def board(python: Path, tree: Path, moves: int) -> list[float]:
    """This checkout's latency.py, run by the side's interpreter (its kernel imports that side's package)."""
    cmd = [str(python), str(ROOT / "bench" / "latency.py"), "--moves", str(moves), "--server", "tcp_nodelay",
           "--json-only", "--no-state-size"]
    (run,) = last_json(cmd, tree)["runs"]
    return list(run["latencies_ms"])


def interval(xs: list[float], stat: Callable[[list[float]], float], n: int = 2000) -> tuple[float, float, float]:
    """``stat`` of ``xs`` with a 95% percentile-bootstrap interval (a fixed seed)."""
    rng = random.Random(0)
    draws = sorted(stat(rng.choices(xs, k=len(xs))) for _ in range(n))
    return stat(xs), draws[int(0.025 * n)], draws[int(0.975 * n) - 1]


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
        child()
        return
    from latency import pct  # (not in the child: it loads the browser harness)
    from workloads import import_ms

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
    # per side, per figure: the samples; and per figure, the blocks: (base's, this tree's) adjacent in time
    samples: dict[str, dict[str, list[float]]] = {}
    blocks: dict[str, list[tuple[float, float]]] = {key: [] for key in FIGURES}
    step = 0

    def turns() -> list[str]:  # the sides' order for the next step: flipped every time
        nonlocal step
        step += 1
        return names if step % 2 else names[::-1]

    with worktree(base_rev) as tree:
        t = time.perf_counter()
        sides = {base: (own_environment(tree, sys.executable), tree), HERE: (here_python, ROOT)}
        names = list(sides)
        print(f"  the base's environment made in {time.perf_counter() - t:.0f} s", flush=True)
        samples = {name: {key: [] for key in FIGURES} for name in sides}
        engines: dict[str, Engine] = {}
        try:
            for name, (python, where) in sides.items():
                engines[name] = Engine(python, where)
                import_ms(1, cwd=str(where), python=str(python))  # untimed: the first compiles the bytecode
            for r in range(args.rounds):
                got: dict[str, dict[str, list[float]]] = {name: {"core": [], "api": [], "import": []} for name in sides}
                for _ in range(args.slices):
                    for key in ("core", "api"):
                        for name in turns():
                            got[name][key].append(engines[name].rate(key, args.seconds / args.slices))
                for _ in range(args.imports):
                    for name in turns():
                        got[name]["import"] += import_ms(1, cwd=str(sides[name][1]), python=str(sides[name][0]), warm=False)
                runs: dict[str, list[float]] = {}
                for name in turns():
                    runs[name] = board(*sides[name], args.moves)
                for key in ("core", "api", "import"):
                    blocks[key] += zip(got[base][key], got[HERE][key], strict=True)
                blocks["click"].append((statistics.median(runs[base]), statistics.median(runs[HERE])))
                blocks["click_p95"].append((pct(runs[base], 0.95), pct(runs[HERE], 0.95)))
                for name in sides:
                    for key in ("core", "api", "import"):
                        samples[name][key] += got[name][key]
                    samples[name]["click"] += runs[name]
                    print(f"  round {r + 1} {name:>12}: game protocol {fmt(statistics.median(got[name]['core']))} actions/s, "
                          f"kum.Game {fmt(statistics.median(got[name]['api']))} actions/s, import "
                          f"{statistics.median(got[name]['import']):.1f} ms; board median {statistics.median(runs[name]):.1f} ms, "
                          f"95th pct {pct(runs[name], 0.95):.1f} ms over {len(runs[name])} clicks", flush=True)
                print(f"  (load average {os.getloadavg()[0]:.1f})", flush=True)
        finally:
            for engine in engines.values():
                engine.close()
    for name in sides:
        samples[name]["click_p95"] = samples[name]["click"]  # two statistics of one sample
    stats = {"click_p95": lambda xs: pct(xs, 0.95)}
    results: dict[str, Any] = {}
    print(f"\n{'figure':<34}{base:>28}{HERE:>28}{'change (blocks)':>30}")
    for key, (label, unit, higher) in FIGURES.items():
        stat = stats.get(key, statistics.median)
        sides_got = {name: interval(samples[name][key], stat) for name in sides}
        change = interval([(h / b - 1) * 100 for b, h in blocks[key]], statistics.median)
        results[key] = {**sides_got, "change_pct": change, "blocks": len(blocks[key])}
        cells = [f"{fmt(v[0])} [{fmt(v[1])}, {fmt(v[2])}]" for v in sides_got.values()]
        c, lo, hi = change
        said = f"{c:+.1f}% [{lo:+.1f}, {hi:+.1f}] ({len(blocks[key])})"
        print(f"{label + ', ' + unit:<34}{cells[0]:>28}{cells[1]:>28}{said:>30}  {'higher' if higher else 'lower'} is better")
    n = {key: len(samples[HERE][key]) for key in ("core", "import", "click")}
    print(f"(each side: the median, or the 95th percentile, of its {n['core']} engine slices, {n['import']} imports and "
          f"{n['click']} clicks, with a 95% bootstrap interval; change: this tree / base - 1 within each block of adjacent "
          f"measurements, the median over the blocks (their number in brackets) with a 95% bootstrap interval over them. "
          f"Load average {load_start[0]:.1f} at the start, {os.getloadavg()[0]:.1f} at the end; {os.cpu_count()} cores; "
          f"Python {sys.version.split()[0]}; wall {time.perf_counter() - wall:.0f} s)")
    print(json.dumps({"base": base_rev, "base_commit": commit(base_rev), "rounds": args.rounds,
                      "figures": {k: {name: v if isinstance(v, int) else [round(x, 2) for x in v] for name, v in got.items()}
                                  for k, got in results.items()},
                      "samples": {name: {k: v for k, v in s.items() if k != "click_p95"} for name, s in samples.items()}}))

if __name__ == "__main__":
    main()
