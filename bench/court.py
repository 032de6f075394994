"""The court solitaire's figures: mean score with a 95% interval per bot, random-play
speed on one core, and the role table (purchase rate; score with and without).

    .venv/bin/python bench/court.py                  # random and greedy, 500 games each
    .venv/bin/python bench/court.py --bots random,greedy,ismcts --games 500 --executor 2
    .venv/bin/python bench/court.py --bots ismcts --games 500 --executor 2 --chunk 40 --save bench/results

ISMCTS at its default budget takes under 0.1 s a decision on this
machine (some 3 s a game), so 500 games of it take a while; ``--save DIR`` keeps each bot's table as CSV, and with
``--chunk`` a stopped run goes on from the chunks it saved (chunk ``k`` is dealt from
seed ``1000 + k``). Each saved row names the settings of the bot that played it (``bot_settings``, e.g.
``ismcts 400 iterations, prior 0, exploration 0.25, breadth 8, rollout depth 10``): a run
goes on only from games of the same settings, and stops at once, saying so, when the file
holds another's (the default bot changed since, say); a run without ``--chunk`` does not
replace a saved table. The label does not name the code's version: a heuristic changed
since plays under the same label. bench/results/ holds the tables behind the
figures in COURT.md.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from pathlib import Path

import kum_widget as kum
from kum_widget.bots import ISMCTSBot
from kum_widget.games.court.cards import ROLES


def ismcts_label(iterations: int, prior: float, exploration: float, breadth: int, rollout_depth: int) -> str:
    """An ISMCTS bot's settings in words, as the saved tables' ``bot_settings`` column writes them."""
    return (f"ismcts {iterations} iterations, prior {prior:g}, exploration {exploration:g}, "
            f"breadth {breadth or 'all'}, rollout depth {rollout_depth}")


def settings(bot: str) -> str:
    """The settings ``bot`` plays with today, in words (not the code's version): a saved game
    is only comparable with games of the same settings."""
    if bot != "ismcts":
        return bot
    s = ISMCTSBot().settings(kum.court.CourtOfTheThreeClans())
    return ismcts_label(s["iterations"], s["prior"], s["exploration"], s["breadth"], s["rollout_depth"])


def saved_settings(df) -> list[str]:  # type: ignore[no-untyped-def]
    """The bot settings a saved table's games were played with (one, unless it is mixed)."""
    if "bot_settings" not in df:
        return ["a bot whose settings were not saved"]
    return sorted(set(df["bot_settings"].fillna("settings not saved").astype(str)))


def saved_games(path: Path, bot: str):  # type: ignore[no-untyped-def]
    """The games a stopped run saved in ``path``, if they are ``bot``'s as it plays today."""
    import pandas as pd

    df = pd.read_csv(path)
    theirs = saved_settings(df)
    if theirs != [settings(bot)]:
        raise SystemExit(f"{path} holds games of {' and '.join(theirs)}; today's bot plays as {settings(bot)}. "
                         "Save this run to another folder (--save DIR), or move that file.")
    return df


def interval(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def random_speed(games: int) -> float:
    """Random games a second, one core, straight on the rules (the lab's inner loop)."""
    import random

    rules = kum.court.CourtOfTheThreeClans()
    start = time.perf_counter()
    for seed in range(games):
        rng = random.Random(seed)
        s = rules.setup(1, random.Random(seed))
        while not rules.is_over(s):
            legal = rules.legal_actions(s)
            rules.apply(s, legal[int(rng.random() * len(legal))])
    return games / (time.perf_counter() - start)


def role_table(df) -> list[tuple[str, float, float, float]]:  # type: ignore[no-untyped-def]
    out = []
    for role in ROLES:
        column = f"bought_{role.replace(' ', '_')}"
        bought = df[column] > 0
        with_, without = df.loc[bought, "score_0"], df.loc[~bought, "score_0"]
        diff = (with_.mean() - without.mean()) if len(with_) and len(without) else float("nan")
        out.append((role, bought.mean(), with_.mean() if len(with_) else float("nan"), diff))
    return out


def play(bot: str, args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """``args.games`` games of ``bot``; in chunks (each a seed of its own), saving as it goes."""
    import pandas as pd

    if not args.chunk:
        df = kum.simulate(game="court", games=args.games, bots=bot, executor=args.executor, progress=False)
        df["bot_settings"] = settings(bot)
        return df
    parts = []
    saved = args.save / f"court_{bot}.csv" if args.save else None
    if saved is not None and saved.exists():  # go on from the chunks a stopped run saved
        parts.append(saved_games(saved, bot))
        print(f"  {bot}: {len(parts[0])} games saved in {saved}, going on", flush=True)
    done = len(parts[0]) if parts else 0
    pool = kum.lab.worker_pool(args.executor) if args.executor else None
    for k, first in enumerate(range(0, args.games, args.chunk)):
        if first < done:
            continue
        n = min(args.chunk, args.games - first)
        chunk = kum.simulate(game="court", games=n, bots=bot, seed=1000 + k, executor=pool, progress=False)
        chunk["bot_settings"] = settings(bot)
        parts.append(chunk)
        df = pd.concat(parts, ignore_index=True)
        mean, half = interval(df["score_0"].astype(float).tolist()) if len(df) > 1 else (float("nan"), float("nan"))
        print(f"  {bot}: {len(df)} games, mean {mean:.2f} +- {half:.2f}", flush=True)
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            df.to_csv(args.save / f"court_{bot}.csv", index=False)
    return df


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--bots", default="random,greedy")
    parser.add_argument("--executor", type=int, default=None)
    parser.add_argument("--save", type=Path, default=None)
    parser.add_argument("--chunk", type=int, default=None, help="play in chunks of this many games, printing progress")
    args = parser.parse_args()
    for bot in args.bots.split(",") if args.save else []:  # before hours of play, not after
        if (args.save / f"court_{bot}.csv").exists():
            saved_games(args.save / f"court_{bot}.csv", bot)
            if not args.chunk:  # a run without chunks deals other games: it would replace the table, not go on from it
                raise SystemExit(f"{args.save / f'court_{bot}.csv'} exists: pass --chunk to go on from it, or --save another folder")
    print(f"random play, one core: {random_speed(300):.0f} games/s")
    print(f"{'bot':8} {'games':>5} {'mean score':>11} {'95% CI':>8} {'s/game':>7} {'Golden Age':>10}")
    tables = {}
    for bot in args.bots.split(","):
        start = time.perf_counter()
        df = play(bot, args)
        seconds = time.perf_counter() - start
        mean, half = interval(df["score_0"].astype(float).tolist())
        golden = (df["rank"] == "Golden Age").mean()
        print(f"{bot:8} {len(df):5d} {mean:11.2f} {half:8.2f} {seconds / len(df):7.3f} {golden:10.1%}")
        tables[bot] = df
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            df.to_csv(args.save / f"court_{bot}.csv", index=False)
    for bot, df in tables.items():
        print(f"\nroles, {bot}: purchase rate, mean score when bought, difference to not bought")
        for role, rate, score, diff in role_table(df):
            print(f"  {role:14} {rate:6.1%} {score:7.2f} {diff:+7.2f}")
        q = df["score_0"].quantile([0.25, 0.5, 0.75, 0.9]).tolist()
        print(f"  score quartiles {q[0]:.0f} / {q[1]:.0f} / {q[2]:.0f}, 90th percentile {q[3]:.0f}")


if __name__ == "__main__":
    main()
