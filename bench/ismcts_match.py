"""Is a faster ISMCTS as strong? A paired match of a new configuration against today's bot.

    .venv/bin/python bench/ismcts_match.py kum --new rollout_depth=2 --games 200 --executor 2
    .venv/bin/python bench/ismcts_match.py court --new rollout_depth=2 --games 500 --executor 2

Kings Under Mountains, two players: every deal is played twice, the new bot in seat 0
and then in seat 1 (so ``--games 200`` is 100 deals). The figure is the new bot's
share of the points (a win 1, a shared win 1/2) with a 95% interval over the deals: the
new bot is no weaker when the interval includes or exceeds 50%.

The court solitaire: the new bot plays the very deals of ``bench/results/court_ismcts.csv``
(bench/court.py deals chunk ``k`` from seed ``1000 + k``, 40 games a chunk), and the
figure is the mean score difference, new minus today's, over the same deals, with its
95% interval: no weaker when the interval includes or exceeds 0.

``--old`` gives today's bot as keyword arguments; the default is the budget the bot had
when this match was written (1000 iterations, rollout depth 10), spelled out so that a
change of the defaults does not change the reference. Tables go to bench/results/ and a
stopped run goes on from the chunks it saved.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from court import ismcts_label, saved_settings  # bench/ is on the path: the folder of this script
from match_bots import Maker

import kum_widget as kum
from kum_widget.bots import ISMCTSBot

RESULTS = Path(__file__).resolve().parent / "results"
TODAY = "iterations=1000,rollout_depth=10,exploration=0.7,epsilon=0.1,prior=0,breadth=0"
COURT_CHUNK = 40  # bench/court.py's chunk: the same seeds deal the same games


def options(text: str) -> dict[str, Any]:
    """``"iterations=500,rollout_depth=2,split=True"`` -> keyword arguments for ISMCTSBot."""
    out: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition("=")
        if not sep:
            raise SystemExit(f"bot options are key=value pairs, got {part!r}")
        value = value.strip()
        out[key.strip()] = {"True": True, "False": False}[value] if value in ("True", "False") else float(value) if "." in value else int(value)
    ISMCTSBot(**out)  # refuses a bad option now, not in a worker
    return out


def factory(text: str) -> Maker:
    return Maker(options(text))


def interval(values: list[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.nan
    return mean, mean - half, mean + half


def share(df: Any, seat: int) -> list[float]:
    """The points of the bot at ``seat`` per game: 1 for a win, 1/n for a win shared by n."""
    return [(1.0 / n if w else 0.0) for w, n in zip(df[f"win_{seat}"], df["n_winners"], strict=True)]


def chunks(path: Path, pd: Any) -> tuple[list[Any], int]:
    if not path.exists():
        return [], 0
    df = pd.read_csv(path)
    return [df], int(df["chunk"].max()) + 1


MIN_DEALS = 100  # the test: at least 200 games, seats alternated


def verdict(high: float, target: float, deals: int) -> str:
    """The issue's test: the 95% interval includes or exceeds ``target``. Few deals make a
    wide interval that passes easily, so below MIN_DEALS there is no verdict yet."""
    if deals < MIN_DEALS or math.isnan(high):
        return f"no verdict before {MIN_DEALS} deals"
    return ("no weaker (the interval reaches " if high >= target else "WEAKER (the interval is below ") + f"{target:g})"


def finished(df: Any) -> Any:
    """A chunk stopped by Ctrl-C is not saved: a resumed run plays it again whole."""
    if df.attrs.get("interrupted"):
        raise SystemExit("stopped: the chunk in progress is dropped; run again to go on")
    return df


def kum_match(args: argparse.Namespace, pool: Any, pd: Any) -> None:
    new, old = factory(args.new), factory(args.old)
    path = RESULTS / f"ismcts_match_kum_{args.tag}.csv"
    parts, start = chunks(path, pd)
    deals = args.games // 2
    for k in range(start, math.ceil(deals / args.chunk)):
        n = min(args.chunk, deals - k * args.chunk)
        seed = 2000 + k
        a = finished(kum.simulate(n, 2, (new, old), seed=seed, executor=pool, progress=False, rotate=False))
        b = finished(kum.simulate(n, 2, (old, new), seed=seed, executor=pool, progress=False, rotate=False))
        parts.append(pd.concat([a.assign(new_seat=0), b.assign(new_seat=1)]).assign(chunk=k))
        pd.concat(parts, ignore_index=True).to_csv(path, index=False)
        report_kum(pd.concat(parts, ignore_index=True), new.label)


def report_kum(df: Any, label: str) -> None:
    a, b = df[df["new_seat"] == 0], df[df["new_seat"] == 1]
    a = a.assign(points=share(a, 0))[["seed", "points"]]
    b = b.assign(points=share(b, 1))[["seed", "points"]]
    deals = a.merge(b, on="seed", suffixes=("_first", "_second"), validate="one_to_one")  # the same deal, seats swapped
    per_deal = ((deals["points_first"] + deals["points_second"]) / 2).tolist()
    mean, low, high = interval(per_deal)
    print(f"{label} vs today's: {2 * len(per_deal)} games ({len(per_deal)} deals, seats swapped), "
          f"share {mean:.1%} [{low:.1%}, {high:.1%}]: {verdict(high, 0.5, len(per_deal))}", flush=True)


def court_match(args: argparse.Namespace, pool: Any, pd: Any) -> None:
    new = factory(args.new)
    if options(args.old) != options(TODAY):
        raise SystemExit("the court match compares with today's bot's saved games (bench/results/court_ismcts.csv): --old cannot change")
    today = RESULTS / "court_ismcts.csv"
    if not today.exists():
        raise SystemExit(f"{today} is missing: bench/court.py --bots ismcts --chunk 40 --save bench/results makes it")
    old = pd.read_csv(today)
    o = options(TODAY)
    expected = ismcts_label(o["iterations"], o["prior"], o["exploration"], o["breadth"], o["rollout_depth"])
    saved = saved_settings(old)
    if saved != [expected]:
        raise SystemExit(f"{today} holds games of {' and '.join(saved)}, not of today's bot ({expected})")
    path = RESULTS / f"ismcts_match_court_{args.tag}.csv"
    parts, start = chunks(path, pd)
    games = min(args.games, len(old))
    for k in range(start, math.ceil(games / COURT_CHUNK)):
        n = min(COURT_CHUNK, games - k * COURT_CHUNK)
        parts.append(finished(kum.simulate(game="court", games=n, bots=new, seed=1000 + k, executor=pool, progress=False)).assign(chunk=k))
        df = pd.concat(parts, ignore_index=True)
        df.to_csv(path, index=False)
        paired = df[["seed", "score_0"]].merge(old[["seed", "score_0"]], on="seed", suffixes=("_new", "_old"), validate="one_to_one")
        if len(paired) != len(df):
            raise SystemExit(f"{len(df) - len(paired)} of the new bot's deals are not in {today.name}: is it bench/court.py's table?")
        mean, low, high = interval((paired["score_0_new"] - paired["score_0_old"]).astype(float).tolist())
        print(f"{new.label}: {len(paired)} deals, mean {paired['score_0_new'].mean():.2f} against today's "
              f"{paired['score_0_old'].mean():.2f}; difference {mean:+.2f} [{low:+.2f}, {high:+.2f}]: "
              f"{verdict(high, 0.0, len(paired))}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", choices=["kum", "court"])
    ap.add_argument("--new", required=True, help="the new bot's options, e.g. rollout_depth=2")
    ap.add_argument("--old", default=TODAY, help=f"today's bot (default {TODAY})")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--chunk", type=int, default=10, help="deals per chunk (Kings Under Mountains)")
    ap.add_argument("--executor", type=int, default=2)
    ap.add_argument("--tag", default=None, help="the results file's name (default: from --new)")
    args = ap.parse_args()
    tag = args.new if options(args.old) == options(TODAY) else f"{args.new}_vs_{args.old}"  # one file per pair of bots
    args.tag = args.tag or tag.replace("=", "").replace(",", "_").replace(".", "")
    import pandas as pd

    RESULTS.mkdir(exist_ok=True)
    pool = kum.lab.worker_pool(args.executor) if args.executor else None
    try:
        (kum_match if args.game == "kum" else court_match)(args, pool, pd)
    finally:
        if pool is not None:
            pool.shutdown()


if __name__ == "__main__":
    main()
