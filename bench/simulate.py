"""Lab benchmark: kum.simulate on one core, on 2 worker processes, and on dask.

    python bench/simulate.py [--games 2000] [--bots random] [--workers 2] [--json-only]

Prints one JSON object and a readable line; asserts nothing. Measures:

- ``in_process``: games per second with ``executor=None`` (one core);
- ``pool``: ``executor=2`` as a user calls it (the pool's start-up included), and the
  ``speedup`` over one core;
- ``pool_warm`` and ``dask``: a process pool and a dask.distributed LocalCluster (2
  worker processes, 1 thread each), both started and warmed up beforehand, so
  ``dask_overhead`` (dask time / warm pool time - 1) is the cost of the dask path
  itself; the cluster's start-up is reported on its own.

Every run plays the same seeded games; ``identical`` says their tables matched.
``pool_cpu_overhead`` compares the CPU time the pool's workers used (start-up
included) with the one-core run: it does not depend on what else the machine runs,
unlike the wall-clock speed-up. The load average before and after is printed: another
busy process on a 2-core machine skews every wall-clock figure. (On a shared Linux
machine, ``setsid bash -c 'echo -15 > /proc/self/autogroup; python bench/simulate.py'``
gives the benchmark its own, heavier, scheduling group.)
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import kum_widget as kum


def timed(**kwargs: object) -> tuple[float, object]:
    start = time.perf_counter()
    df = kum.simulate(progress=False, **kwargs)  # type: ignore[arg-type]
    return time.perf_counter() - start, df


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--bots", default="random", help="a bot name for every seat (default random: the fastest)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json-only", action="store_true")
    args = parser.parse_args()
    run = {"games": args.games, "bots": args.bots, "seed": args.seed}
    load_before = os.getloadavg()[0]

    cpu = time.process_time()
    t_here, here = timed(**run)
    cpu_here = time.process_time() - cpu
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    t_pool, pooled = timed(**run, executor=args.workers)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)  # the pool's workers, reaped at its shutdown
    cpu_workers = (after.ru_utime + after.ru_stime) - (kids.ru_utime + kids.ru_stime)

    with kum.lab.worker_pool(args.workers) as pool:
        kum.simulate(2 * args.workers, bots=args.bots, executor=pool, chunksize=1, progress=False)  # warm up
        t_warm, warm = timed(**run, executor=pool)

    from dask.distributed import Client, LocalCluster

    warnings.filterwarnings("ignore", module="distributed")
    start = time.perf_counter()
    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            t_cluster = time.perf_counter() - start
            executor = client.get_executor()
            kum.simulate(2 * args.workers, bots=args.bots, executor=executor, chunksize=1, progress=False)  # warm up
            t_dask, dasked = timed(**run, executor=executor)

    identical = all(here.equals(df) for df in (pooled, warm, dasked))  # type: ignore[attr-defined]
    out = {
        "games": args.games,
        "bots": args.bots,
        "workers": args.workers,
        "cpus": os.cpu_count(),
        "in_process_seconds": round(t_here, 3),
        "in_process_games_per_s": round(args.games / t_here, 1),
        "pool_seconds": round(t_pool, 3),
        "pool_games_per_s": round(args.games / t_pool, 1),
        "speedup": round(t_here / t_pool, 3),
        "in_process_cpu_seconds": round(cpu_here, 3),
        "pool_workers_cpu_seconds": round(cpu_workers, 3),
        "pool_cpu_overhead": round(cpu_workers / cpu_here - 1, 4),
        "pool_warm_seconds": round(t_warm, 3),
        "speedup_warm": round(t_here / t_warm, 3),
        "dask_seconds": round(t_dask, 3),
        "dask_overhead": round(t_dask / t_warm - 1, 4),
        "dask_overhead_vs_cold_pool": round(t_dask / t_pool - 1, 4),
        "cluster_start_seconds": round(t_cluster, 3),
        "identical": identical,
        "load_before": round(load_before, 2),
        "load_after": round(os.getloadavg()[0], 2),
    }
    print(json.dumps(out))
    if not args.json_only:
        print(
            f"{args.games} {args.bots} games: {out['in_process_games_per_s']} games/s on one core; "
            f"{args.workers} processes {out['pool_games_per_s']} games/s, speed-up x{out['speedup']:.2f} "
            f"(warm pool x{out['speedup_warm']:.2f}; workers used {out['pool_cpu_overhead']:+.1%} CPU time "
            f"vs one core, start-up included); dask LocalCluster {out['dask_overhead']:+.1%} vs the warm pool "
            f"({out['dask_overhead_vs_cold_pool']:+.1%} vs executor={args.workers}), cluster start "
            f"{out['cluster_start_seconds']:.1f} s; tables identical: {identical}; "
            f"load {out['load_before']} -> {out['load_after']}"
        )


if __name__ == "__main__":
    main()
