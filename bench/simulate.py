"""Lab benchmark: kum.simulate on one core, on 2 worker processes, and on dask.

    python bench/simulate.py [--games 2000] [--rounds 4] [--bots random] [--workers 2] [--json-only]
                             [--memory-only]

Prints one JSON object and a readable line; asserts nothing. Four ways to play the same
seeded games:

- ``in_process``: ``executor=None``, one core; its games per second;
- ``pool``: ``executor=2`` as a user calls it (the pool's start-up included every time),
  and its ``speedup`` over one core;
- ``pool_warm``: a pool started beforehand (``kum.lab.worker_pool(2)``) and reused;
- ``dask``: a dask.distributed LocalCluster (2 worker processes, 1 thread each), started
  beforehand, through ``client.get_executor()``. ``dask_overhead`` is its time over the
  warm pool's, minus 1: the cost of the dask path itself. The cluster's start-up is
  reported on its own.

A shared or virtual machine's speed drifts by tens of percent within minutes, so the
games are split into ``--rounds`` rounds and every round runs the four ways in turn (the
order rotating): drift then hits all four alike. ``pool_cpu_overhead`` compares the CPU
time the ``executor=2`` workers used (start-up included) with the one-core run's: unlike
wall-clock ratios it does not depend on what else the machine runs. ``identical`` says the
four tables matched. The load average before and after is printed. (On a shared Linux
machine, ``setsid bash -c 'echo -15 > /proc/self/autogroup; python bench/simulate.py'``
gives the benchmark its own, heavier, scheduling group.)

Memory (``peak_mb``, also alone with ``--memory-only``, ~15 s): ``simulate(games=n,
game="bust")`` for n = 10**4, 10**5 and 10**9, in a fresh process each, in process and on
``--workers`` worker processes, stopped by a Ctrl-C from a bot near game 1000: the peak
RSS of that process (``VmHWM``). The rows kept are the same at every n, so the figures
are the run's own memory, which should not grow with n (before the stream: 10**7 games
took 440 MB, 10**9 several GB before the first game).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import signal
import subprocess
import sys
import time
import warnings
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import kum_widget as kum

MEMORY_GAMES = (10**4, 10**5, 10**9)
STOP_NEAR = 1000


class StopAt:
    """A bot factory (workers import it from this module): random bots, but the one with
    bot seed ``target`` sends Ctrl-C (SIGINT) to process ``pid`` on its first move."""

    label = "random"

    def __init__(self, target: int, pid: int) -> None:
        self.target, self.pid = target, pid

    def __call__(self, seed: int) -> _StopBot:
        return _StopBot(seed, fire=seed == self.target, pid=self.pid)


class _StopBot:
    name = "stop bot"

    def __init__(self, seed: int, *, fire: bool, pid: int) -> None:
        self._rng, self._fire, self._pid = random.Random(seed), fire, pid

    def choose(self, view: dict[str, Any], legal: Sequence[Hashable]) -> Hashable:
        if self._fire:
            self._fire = False
            os.kill(self._pid, signal.SIGINT)
        return legal[self._rng.randrange(len(legal))]


def probe(games: int, workers: int) -> None:
    """In a fresh process: ``games`` bust games stopped near game STOP_NEAR; prints JSON."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    warnings.simplefilter("ignore")
    bots = StopAt(kum.lab.bot_seed(kum.lab.game_seed(0, STOP_NEAR), 0), os.getpid())
    start = time.perf_counter()
    df = kum.simulate(games, game="bust", bots=bots, seed=0, executor=workers or None, progress=False)
    print(json.dumps({"finished": len(df), "interrupted": df.attrs["interrupted"], "peak_mb": round(peak_mb(), 1),
                      "seconds": round(time.perf_counter() - start, 2)}))


def peak_mb() -> float:
    """This process's peak RSS: VmHWM where there is /proc (ru_maxrss keeps the figure of
    the process that forked this one, through exec), else ru_maxrss (kB on Linux)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def memory(workers: int) -> dict[str, Any]:
    """Peak RSS (MB) of a stopped run of each size in MEMORY_GAMES, in process and on workers."""
    here = Path(__file__).resolve().parent
    out: dict[str, Any] = {}
    for way in (0, workers):
        for games in MEMORY_GAMES:
            code = f"import sys; sys.path.insert(0, {str(here)!r}); import simulate; simulate.probe({games}, {way})"
            run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                                 stdin=subprocess.DEVNULL, timeout=600)
            out[f"{'workers' if way else 'in_process'}_{games:.0e}".replace("+0", "")] = json.loads(run.stdout)
    return out


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)  # reaped children: a pool's workers after its shutdown
    return r.ru_utime + r.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="games per way of running, over all rounds")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--bots", default="random", help="a bot name for every seat (default random: the fastest)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json-only", action="store_true")
    parser.add_argument("--memory-only", action="store_true", help="only the peak memory figures (~15 s)")
    args = parser.parse_args()
    if args.memory_only:
        report_memory(memory(args.workers), args.json_only)
        return
    per_round = args.games // args.rounds
    games = per_round * args.rounds
    load_before = os.getloadavg()[0]

    from dask.distributed import Client, LocalCluster

    warnings.filterwarnings("ignore", module="distributed")
    start = time.perf_counter()
    cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None)
    client = Client(cluster)
    t_cluster = time.perf_counter() - start
    pool = kum.lab.worker_pool(args.workers)
    ways: dict[str, Any] = {
        "in_process": None,
        "pool": args.workers,
        "pool_warm": pool,
        "dask": client.get_executor(),
    }
    try:
        for name in ("pool_warm", "dask"):  # warm up: workers import the package
            kum.simulate(2 * args.workers, bots=args.bots, executor=ways[name], chunksize=1, progress=False)
        seconds = dict.fromkeys(ways, 0.0)
        cpu_here = cpu_pool = 0.0
        identical = True
        names = list(ways)
        for r in range(args.rounds):
            tables = {}
            for name in names[r % len(names):] + names[: r % len(names)]:
                cpu, kids = time.process_time(), children_cpu()
                t = time.perf_counter()
                tables[name] = kum.simulate(per_round, bots=args.bots, seed=args.seed + r, executor=ways[name],
                                            progress=False)
                seconds[name] += time.perf_counter() - t
                if name == "in_process":
                    cpu_here += time.process_time() - cpu
                if name == "pool":
                    cpu_pool += children_cpu() - kids
            identical &= all(tables["in_process"].equals(df) for df in tables.values())
    finally:
        pool.shutdown()
        client.close()
        cluster.close()

    rate = {name: games / s for name, s in seconds.items()}
    out = {
        "games": games,
        "rounds": args.rounds,
        "bots": args.bots,
        "workers": args.workers,
        "cpus": os.cpu_count(),
        **{f"{name}_seconds": round(s, 3) for name, s in seconds.items()},
        **{f"{name}_games_per_s": round(g, 1) for name, g in rate.items()},
        "speedup": round(seconds["in_process"] / seconds["pool"], 3),
        "speedup_warm": round(seconds["in_process"] / seconds["pool_warm"], 3),
        "speedup_dask": round(seconds["in_process"] / seconds["dask"], 3),
        "dask_overhead": round(seconds["dask"] / seconds["pool_warm"] - 1, 4),
        "dask_overhead_vs_pool": round(seconds["dask"] / seconds["pool"] - 1, 4),
        "in_process_cpu_seconds": round(cpu_here, 3),
        "pool_workers_cpu_seconds": round(cpu_pool, 3),
        "pool_cpu_overhead": round(cpu_pool / cpu_here - 1, 4),
        "cluster_start_seconds": round(t_cluster, 3),
        "identical": identical,
        "load_before": round(load_before, 2),
        "load_after": round(os.getloadavg()[0], 2),
        "peak_mb": memory(args.workers),
    }
    print(json.dumps(out))
    if not args.json_only:
        print(
            f"{games} {args.bots} games: {out['in_process_games_per_s']} games/s on one core; "
            f"executor={args.workers}: {out['pool_games_per_s']} games/s, speed-up x{out['speedup']:.2f} "
            f"(warm pool x{out['speedup_warm']:.2f}; its workers used {out['pool_cpu_overhead']:+.1%} CPU time vs "
            f"one core, start-up included); dask LocalCluster x{out['speedup_dask']:.2f}, "
            f"{out['dask_overhead']:+.1%} vs the warm pool ({out['dask_overhead_vs_pool']:+.1%} vs "
            f"executor={args.workers}), cluster start {out['cluster_start_seconds']:.1f} s; tables identical: "
            f"{identical}; load {out['load_before']} -> {out['load_after']}"
        )
        report_memory(out["peak_mb"], text_only=True)


def report_memory(figures: dict[str, Any], json_only: bool = False, text_only: bool = False) -> None:
    if not text_only:
        print(json.dumps({"peak_mb": figures}))
    if not json_only:
        parts = [f"{name} {f['peak_mb']:.0f} MB ({f['finished']} games)" for name, f in figures.items()]
        print(f"peak memory, run stopped near game {STOP_NEAR}: " + "; ".join(parts))


if __name__ == "__main__":
    main()
