"""Design-report benchmark: ``kum.lab.report`` for Kings Under Mountains, 2 players, at its
default budget, in this process, on 2 lab worker processes and on a Dask LocalCluster of
2 workers; then at twice and four times the games, to show the time grows in proportion.

    python bench/report.py [--game kings-under-mountains] [--players 2] [--scale 1 2 4]
                           [--ways here pool dask] [--json-only]

Prints, for each way and scale, the wall time and where it goes (each part of the report,
and for the skill ladder each match: which bots), then one JSON object. Asserts nothing.
The goal (issue 41): the default report under 30 s on 2 cores, in process.
``bench/report_against.py`` times it beside an earlier commit in the same minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import kum_widget as kum


def one(game: str, players: int, scale: int, executor: Any) -> dict[str, Any]:
    games = 400 * scale
    t0 = time.perf_counter()
    r = kum.lab.report(game, players=players, games=games, executor=executor, progress=False,
                       **({} if scale == 1 else {"ladder_games": _ladder_games() * scale}))
    wall = time.perf_counter() - t0
    parts = {k: round(v, 2) for k, v in r.timings.items()}
    rungs = {}
    try:
        ladder = r["skill"].table
        for _, row in ladder.iterrows():
            label = f"{row['stronger']} vs {row['weaker']}"
            rungs[label] = round(ladder.attrs["seconds"].get(label, float("nan")), 2)
    except Exception:  # no ladder in this report
        pass
    return {"games": games, "wall_s": round(wall, 1), "parts_s": parts, "ladder_rungs_s": rungs}


def _ladder_games() -> int:
    import inspect

    from kum_widget.lab.ladder import skill_ladder

    return int(inspect.signature(skill_ladder).parameters["games"].default)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="kings-under-mountains")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--scale", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--ways", nargs="+", default=["here", "pool", "dask"])
    ap.add_argument("--json-only", action="store_true")
    args = ap.parse_args()
    out: dict[str, Any] = {"game": args.game, "players": args.players, "cores": os.cpu_count(),
                           "load_before": os.getloadavg()[0], "runs": []}
    client = cluster = None
    try:
        for way in args.ways:
            executor: Any = None
            started = 0.0
            if way == "pool":
                executor = 2
            elif way == "dask":
                from dask.distributed import Client, LocalCluster

                t0 = time.perf_counter()
                cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
                client = Client(cluster)
                started = time.perf_counter() - t0
                executor = client
            for scale in args.scale:
                run = {"way": way, "scale": scale, **one(args.game, args.players, scale, executor)}
                if way == "dask":
                    run["cluster_start_s"] = round(started, 1)
                out["runs"].append(run)
                if not args.json_only:
                    print(f"{way:5} x{scale}: {run['games']} games, {run['wall_s']} s  parts {run['parts_s']}")
                    if run["ladder_rungs_s"]:
                        print(f"          ladder rungs (s): {run['ladder_rungs_s']}")
            if client is not None:
                client.close()
                cluster.close()  # type: ignore[union-attr]
                client = cluster = None
    finally:
        if client is not None:
            client.close()
            cluster.close()  # type: ignore[union-attr]
    out["load_after"] = os.getloadavg()[0]
    print(json.dumps(out))


if __name__ == "__main__":
    main()
