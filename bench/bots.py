"""Bot strength: ISMCTS against RandomBot and GreedyBot, 2 players, seats alternated.

    python bench/bots.py [--games 40] [--iterations N] [--prior W] [--workers 2] [--json-only]

Prints a table: wins, losses, ties, win rate with a 95% Wilson interval (a tie counts
half), and seconds per ISMCTS decision (mean and max, decisions with one legal action
excluded). Games run in worker processes, each game on one core. ISMCTS's iterations and
prior default to the game's (``KingsUnderMountains.search_hints``, read by ``ISMCTSBot.settings``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import kum_widget as kum
from kum_widget.bots import GreedyBot, ISMCTSBot, RandomBot, bot_move

OPPONENTS = {"random": RandomBot, "greedy": GreedyBot}


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def play(task: tuple[str, int, int | None, float | None]) -> dict:
    opponent, index, iterations, prior = task
    seat = index % 2  # ISMCTS alternates seats
    ismcts = ISMCTSBot(iterations=iterations, seed=index, prior=prior)  # None: the game's
    bots = [OPPONENTS[opponent](10_000 + index), OPPONENTS[opponent](20_000 + index)]
    bots[seat] = ismcts
    game = kum.Game(2, seed=900_000 + index // 2)  # each deal played twice, seats swapped
    times = []
    while not game.is_over:
        bot = bots[game.current_player]
        if bot is ismcts and len(game.legal_actions()) > 1:
            t = time.perf_counter()
            game.apply(bot_move(game, bot))
            times.append(time.perf_counter() - t)
        else:
            game.apply(bot_move(game, bot))
    won = game.winners()
    result = 1.0 if won == [seat] else 0.5 if seat in won else 0.0
    return {"opponent": opponent, "result": result, "times": times}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40, help="games per opponent (even: each deal twice)")
    ap.add_argument("--iterations", type=int, default=None, help="default: the game's (KingsUnderMountains.search_hints)")
    ap.add_argument("--prior", type=float, default=None, help="default: the game's (KingsUnderMountains.search_hints); 0 for none")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--opponents", default="random,greedy", help="comma-separated: random, greedy")
    ap.add_argument("--json-only", action="store_true")
    args = ap.parse_args()
    try:
        ISMCTSBot(iterations=args.iterations, prior=args.prior)  # refused here, not in a worker
    except ValueError as exc:
        ap.error(str(exc))
    opponents = args.opponents.split(",")
    tasks = [(opp, i, args.iterations, args.prior) for opp in opponents for i in range(args.games)]
    start = time.perf_counter()
    results = []
    with ProcessPoolExecutor(args.workers) as pool:  # progress on stderr: a full run takes a while
        for done, future in enumerate(as_completed([pool.submit(play, t) for t in tasks]), 1):
            r = future.result()
            results.append(r)
            print(f"[{done}/{len(tasks)}] vs {r['opponent']}: {r['result']}", file=sys.stderr, flush=True)
    rows = []
    for opp in opponents:
        mine = [r for r in results if r["opponent"] == opp]
        score = sum(r["result"] for r in mine)
        times = [t for r in mine for t in r["times"]]
        lo, hi = wilson(score, len(mine))
        rows.append({
            "opponent": opp,
            "games": len(mine),
            "wins": sum(r["result"] == 1.0 for r in mine),
            "ties": sum(r["result"] == 0.5 for r in mine),
            "losses": sum(r["result"] == 0.0 for r in mine),
            "win_rate": round(score / len(mine), 3),
            "ci95": [round(lo, 3), round(hi, 3)],
            "sec_per_decision_mean": round(sum(times) / len(times), 3),
            "sec_per_decision_max": round(max(times), 3),
            "decisions": len(times),
        })
    today = ISMCTSBot().settings(kum.KingsUnderMountains())
    budget = today["iterations"] if args.iterations is None else args.iterations
    prior = today["prior"] if args.prior is None else args.prior
    out = {"iterations": budget, "prior": prior, "workers": args.workers, "wall_s": round(time.perf_counter() - start, 1), "rows": rows}
    print(json.dumps(out))
    if not args.json_only:
        print(f"ISMCTS({budget} iterations, prior {prior:g}), 2 players, seats alternated:")
        for r in rows:
            print(
                f"  vs {r['opponent']:<6} {r['wins']:>3}-{r['losses']}-{r['ties']} of {r['games']}: win rate {r['win_rate']:.0%} "
                f"(95% CI {r['ci95'][0]:.0%}-{r['ci95'][1]:.0%}); {r['sec_per_decision_mean']} s/decision mean, "
                f"{r['sec_per_decision_max']} s max over {r['decisions']} decisions"
            )


if __name__ == "__main__":
    main()
